"""The lobby: identities at hello, and routing every other message.

It creates matches (open or private, with an invite code), seats players by code,
pairs quick-match requests (first come, first paired, same game and config), seats
the ruleset's bots, attaches spectators, and forwards decisions to the match's
:class:`~.actor.Actor`.  Every live match's actor runs in the task group the lobby
is given; :meth:`Lobby.recover` reloads every unfinished match from the store.

Accounts and profiles are :class:`~.players.Players`' (the lobby routes their
messages); finished matches go to the :class:`~.results.Recorder`.  Other modules
(tournaments) make matches for two named players with :meth:`Lobby.reserve` and
hear of results through ``lobby.recorder.listen``.
"""

from __future__ import annotations

import contextlib
import logging
import secrets
import time
import weakref
from collections import OrderedDict
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, cast

import anyio
import anyio.to_thread
from anyio.abc import TaskGroup, TaskStatus

from . import games, gcpolicy, metrics, quarantine
from .accounts import AccountError
from .actor import Actor, ActorLimits, Peer, Stats
from .addresses import address_key
from .budgets import Budgets, Lockout, Rate
from .challenges import ChallengeDesk, ChallengeLimits
from .core import (
    LOG_WINDOW,
    SNAPSHOT_EVERY,
    Cancel,
    Claim,
    Clock,
    Command,
    Connect,
    Decide,
    Disconnect,
    MatchCore,
    Reserve,
    Resign,
    Resume,
    Reveal,
    Send,
    Sit,
)
from .dice import parse_commit
from .errlog import Throttled
from .identity import Tokens
from .listing import Listing
from .logs import PLAYER
from .matchmaking import Matchmaker, QueueLimits, Ticket, queue_key
from .matchqueue import Entry, QueueState
from .players import PlayerLimits, Players, cookie_token
from .protocol import PROTOCOL_VERSIONS, BadRequest, Close, Code, Message, MsgId, error, retry
from .quarantine import DAMAGED_TEXT, Damaged
from .ratings import POLICY
from .results import Record, Recorder, mode_of
from .routing import ROUTED, RemoteConnection, Router
from .store import Store, StoreError, StoreUnavailable, unpack
from .tournament import Refused
from .transport import Connection

# The lobby requests (create, join, quick) remembered per match: a match is made or
# joined by at most a handful of them (its creator, its joiner, a resend from a new tab).
MAX_REQUEST_IDS = 8

log = logging.getLogger(__name__)
_outages = Throttled(log)

CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 12
"""Invite codes: 31**12 (about 2**59.5) of them, so that guessing one at the budgets'
pace takes centuries even for many addresses (docs/SECURITY.md has the sums)."""
WATCH_CODE_LENGTH = 16
"""A private match's watch code (an invitation to spectate): longer, since it stays
valid as long as the match is kept, not only while the match waits."""


def normalize_code(text: str) -> str:
    """An invite code as typed: case and anything but its letters and digits ignored."""
    return "".join(ch for ch in text.upper() if ch.isascii() and ch.isalnum())


@dataclass(frozen=True, slots=True)
class LobbyLimits:
    clock: Clock = field(default_factory=Clock)
    min_decision: float = 1.0
    max_decision: float = 3600.0
    max_bank: float = 36000.0
    max_timeouts: int = 10
    grace: float = 60.0
    """Seconds a seat may be away before its opponent may claim the win."""
    restart_grace: float = 60.0
    """Seconds added to every owed decision's clock when a match resumes after a
    restart."""
    waiting_ttl: float = 3600.0
    waiting_grace: float = 120.0
    """Seconds a waiting match outlives its creator's last connection."""
    reveal_timeout: float = 20.0
    """Seconds the first roll waits for committed dice contributions to be revealed."""
    reply_cache: int = 64
    snapshot_every: int = SNAPSHOT_EVERY
    log_window: int = LOG_WINDOW
    max_live_matches: int = 20_000
    recent_ids: int = 10_000
    store_retry_after: float = 2.0
    """The ``retry_after`` of a ``busy`` answered because the store is unreachable."""
    actor: ActorLimits = field(default_factory=ActorLimits)
    players: PlayerLimits = field(default_factory=PlayerLimits)
    queue: QueueLimits = field(default_factory=QueueLimits)
    challenges: ChallengeLimits = field(default_factory=ChallengeLimits)
    bot_threads: int = 1
    """Thinking bots (strong, strongest) deciding at once, across all matches: each
    holds a worker thread, and a CPU, for up to ``actor.bot_seconds``."""


@dataclass(frozen=True, slots=True)
class Seating:
    """One of the two players :meth:`Lobby.seat_pair` seats: where to tell them, and the
    request the match answers (remembered, so that request resent finds the match)."""

    conn: Connection
    player: str
    name: str
    re: MsgId | None = None
    commit: str | None = None


class Lobby:
    """The :class:`~.transport.Hub` of the server."""

    def __init__(
        self,
        store: Store,
        tokens: Tokens,
        actors_tg: TaskGroup,
        *,
        owner: str,
        limits: LobbyLimits = LobbyLimits(),
        fixed_seed: bytes | None = None,
        clock: Callable[[], float] = time.time,
        stats: Stats | None = None,
        budgets: Budgets | None = None,
    ) -> None:
        self.store = store
        self.tokens = tokens
        self.players = Players(store, tokens, limits=limits.players, clock=clock)
        self.recorder = Recorder(store)
        self.online: dict[str, set[Connection]] = {}
        self.tg = actors_tg
        self.owner = owner
        self.limits = limits
        self._bot_limiter: anyio.CapacityLimiter | None = None
        self.fixed_seed = fixed_seed
        self.clock = clock
        self.stats = stats or Stats()
        self.actors: dict[str, Actor] = {}
        self.matchmaker = Matchmaker(self._quick_match, limits=limits.queue, clock=clock)
        self.challenges = ChallengeDesk(self, limits=limits.challenges, clock=clock)
        self.recent: OrderedDict[tuple[str, str], str] = OrderedDict()
        self.games = games.available()
        self.accepting = True
        self.conns: weakref.WeakSet[Connection] = weakref.WeakSet()  # said hello
        self._adopting: dict[str, anyio.Event] = {}
        self.router: Router | None = None
        """With Redis: reaches matches other processes run (``routing.py``)."""
        self.budgets = b = budgets or Budgets()
        hour, minute = 3600.0, 60.0
        self._identities = Rate(b.identities_per_hour, hour, clock=clock)
        self._creates = Rate(b.creates_per_hour, hour, clock=clock)
        self._creates_by_address = Rate(b.creates_per_hour_per_address, hour, clock=clock)
        self._watches = Rate(b.watches_per_minute, minute, clock=clock)
        # Odds for a client whose rules have not loaded: one computation at a time on the
        # server, one in flight per connection (each is bounded: games.Ruleset.odds).
        self._odds_limiter = anyio.CapacityLimiter(1)
        self._odds_busy: weakref.WeakSet[Connection] = weakref.WeakSet()
        self._watches_by_address = Rate(b.watches_per_minute_per_address, minute, clock=clock)
        self._code_misses = Lockout(b.code_misses_per_minute, minute, base=b.lockout,
                                    cap=b.max_lockout, clock=clock)
        self._code_misses_by_address = Lockout(b.code_misses_per_minute_per_address, minute,
                                               base=b.lockout, cap=b.max_lockout, clock=clock)
        self.damaged: dict[str, set[str]] = {}
        """Quarantined matches by player (from this process's recovery): told at hello."""
        self._held: dict[str, set[str]] = {}
        """Matches held, by ``p:<player>`` and ``a:<address key>``: pruned as counted."""
        self.node_token = ""
        """This process's registration token in a shared Redis (see share_queue)."""
        self.listing: Listing | None = None
        self._listed_cache: dict[str, tuple[tuple[Any, ...], Listed]] = {}
        self._seat_mids: dict[str, Listed] = {}
        """What :meth:`seats_changed` last saw of each match."""
        self._seats: dict[str, dict[str, Message]] = {}
        """player -> match -> their ``matches_of`` entry (as published)."""
        """The cluster's lobby list, with a shared Redis."""
        self.desk: Any = None
        """The tournaments' messages (:class:`~.tournaments.Desk`), once the app sets it."""

    # -- hub interface --

    async def hello(self, conn: Connection, msg: Message) -> Message:
        common = [v for v in msg["versions"] if type(v) is int and v in PROTOCOL_VERSIONS]
        if not common:
            return error(Code.UNSUPPORTED_VERSION,
                         f"this server speaks protocol versions {list(PROTOCOL_VERSIONS)}",
                         versions=list(PROTOCOL_VERSIONS))
        if "name" in msg and not {"token", "transfer", "password"} & set(msg):
            # A new account: identities are free, so each budget per identity is only
            # worth as much as this one: new identities per address.
            wait = self._identities.take(address_key(conn.address))
            if wait is not None:
                return error(Code.TOO_MANY_IDENTITIES, "too many new players from your "
                             "address; say hello with the token you were given, or try "
                             "again later", retry_after=retry(wait))
        try:
            account, token = await self.players.hello(conn, msg)
        except AccountError as exc:
            return error(exc.code, exc.message, **exc.extra)
        except StoreError as exc:
            log.warning("hello: store unavailable: %s", exc)
            return error(Code.BUSY, "the server cannot reach its data right now; "
                         "reconnect in a moment",
                         retry_after=retry(self.limits.store_retry_after))
        conn.player, conn.name = account.player, account.name
        conn.protocol = max(common)
        PLAYER.set(account.player)  # the connection's task: its log lines name the player
        self.conns.add(conn)
        self.online.setdefault(account.player, set()).add(conn)
        welcome: Message = {
            "t": "welcome", "version": max(common), "versions": list(PROTOCOL_VERSIONS),
            "player": account.player, "name": account.name, "token": token,
            "account": {"has_password": account.password is not None,
                        "created": account.created},
            "matches": await self.all_matches_of(account.player), "games": self.games}
        if cookie_token(conn) != token:  # the page sets the cookie with this ticket
            welcome["cookie"] = self.players.ticket(account)
        if account.player in self.damaged:  # quarantined at this start: say so, once here
            welcome["damaged"] = sorted(self.damaged[account.player])
        return welcome

    def matches_of(self, player: str) -> list[Message]:
        """The live matches here where ``player`` holds a seat, or has one kept for them
        (``reserved``: "your next match", with the opponent's name)."""
        return [e for mid, actor in sorted(self.actors.items())
                for p, e in _seat_entries(mid, actor.core) if p == player]

    async def all_matches_of(self, player: str) -> list[Message]:
        """:meth:`matches_of` on every process sharing the Redis (another process's as
        of at most a tick ago; ours first, a match moving between processes once)."""
        mine = self.matches_of(player)
        if self.listing is None:
            return mine
        seen = {e["match"] for e in mine}
        for e in await self.listing.seats_elsewhere(player):
            if e.get("match") not in seen:
                seen.add(e.get("match"))
                mine.append(e)
        return mine

    def seats_all(self) -> dict[str, list[Message]]:
        """Every player's :meth:`matches_of` here, for the other processes
        (:mod:`.listing`; written whole at start and after Redis failed)."""
        self.seats_changed()
        return {p: list(by.values()) for p, by in self._seats.items()}

    def seats_changed(self) -> dict[str, list[Message]]:
        """The players whose :meth:`matches_of` here changed since the last call, with
        their entries now (``[]``: none left).  Only matches whose status or seats
        changed are looked at again (:meth:`_listed`)."""
        changed: set[str] = set()
        for mid, actor in self.actors.items():
            listed = self._listed(mid, actor.core)
            before = self._seat_mids.get(mid)
            if before is listed:
                continue
            self._seat_mids[mid] = listed
            self._reseat(mid, before, listed, changed)
        if len(self._seat_mids) > len(self.actors):  # matches that ended or moved
            for mid in [m for m in self._seat_mids if m not in self.actors]:
                self._reseat(mid, self._seat_mids.pop(mid), None, changed)
        return {p: list(self._seats.get(p, {}).values()) for p in changed}

    def _reseat(self, mid: str, before: Listed | None, now: Listed | None,
                changed: set[str]) -> None:
        for p, _ in before[2] if before is not None else ():
            by = self._seats.get(p)
            if by is not None:
                by.pop(mid, None)
                if not by:
                    del self._seats[p]
            changed.add(p)
        for p, e in now[2] if now is not None else ():
            self._seats.setdefault(p, {})[mid] = e
            changed.add(p)

    def _listed(self, mid: str, core: MatchCore) -> Listed:
        """The match's lobby-list entry (open or live, public matches) and its players'
        seat entries, cached while its status and seats stay: every process looks at
        all its matches every tick (20 000 matches cost 594 ms a tick at load 12 when
        both were rebuilt each time)."""
        sig = (core.status, core.seats[0], core.seats[1])
        got = self._listed_cache.get(mid)
        if got is not None and got[0] == sig:
            return got[1]
        entry: Message | None = None
        if not core.meta.get("private") and core.status in ("waiting", "playing"):
            entry = {"match": mid, "game": core.game.name, "config": core.config,
                     "players": [None if s is None else s.name for s in core.seats]}
            if core.status == "waiting":
                entry.update(code=core.meta.get("code"), clock=core.clock.plain())
        listed: Listed = (core.status, entry, _seat_entries(mid, core))
        self._listed_cache[mid] = (sig, listed)
        return listed

    def threads_idle(self) -> bool:
        """No bot is thinking and no odds are being worked out in a worker thread now
        (the SQLite store then commits saves on the event loop's thread:
        ``SqliteStore.inline_when``)."""
        bots = self._bot_limiter
        return ((bots is None or not bots.borrowed_tokens)
                and not self._odds_limiter.borrowed_tokens)

    async def dispatch(self, conn: Connection, msg: Message) -> None:
        t = msg["t"]
        if t == "ping":
            conn.push({"t": "pong"})
            return
        try:
            if self.router is not None and t in ROUTED and await self._routed(conn, msg):
                return
        except StoreUnavailable as exc:
            raise BadRequest(Code.BUSY, "the server cannot reach its storage right now; "
                             "resend the same message shortly", msg.get("id"),
                             retry_after=self.limits.store_retry_after) from exc
        await self.dispatch_here(conn, msg)

    async def _routed(self, conn: Connection, msg: Message) -> bool:
        """Forward ``msg`` to the process running its match, if that is another one."""
        assert self.router is not None
        mid = msg.get("match")
        if mid is None and msg["t"] == "join":
            code = str(msg.get("code", "")).strip().upper()
            mid = await self.store.find_code(code) if 0 < len(code) <= 32 else None
        if not isinstance(mid, str) or not 0 < len(mid) <= 64 or mid in self.actors:
            return False
        owner = conn.remote.get(mid) or await self.router.owner_of(mid)
        if owner is None or owner == self.owner:
            return False
        self.router.forward(owner, conn, msg, mid)
        return True

    async def handle_remote(self, conn: RemoteConnection, msg: Message) -> None:
        """A message another process forwarded (``routing.py``): handled as if its
        client were connected here; a refusal goes back to it."""
        try:
            await self.dispatch_here(conn, msg)
        except BadRequest as bad:
            conn.push(bad.reply())
        except Exception:
            log.exception("a routed %r failed", msg.get("t"))
            conn.push(error(Code.INTERNAL, "server error; please reconnect", msg.get("id")))

    async def detach_remote(self, conn: RemoteConnection) -> None:
        """Another process's client went away (or that process did)."""
        await self.detach(cast(Connection, conn))  # it has what detach reads

    async def dispatch_here(self, conn: Any, msg: Message) -> None:
        handler = getattr(self, f"_on_{msg['t']}")
        try:
            await handler(conn, msg)
        except StoreUnavailable as exc:
            # The store is down (Redis restarting, disk full): nothing was done, and
            # the same message will work once it is back.
            _outages.error("store", "the store is unavailable; answering busy", exc,
                           level=logging.WARNING)
            raise BadRequest(Code.BUSY, "the server cannot reach its storage right now; "
                             "resend the same message shortly", msg.get("id"),
                             retry_after=self.limits.store_retry_after) from exc

    async def detach(self, conn: Connection) -> None:
        # A closed connection leaves ~20 young objects and its matches a Disconnect each:
        # counted as a command, so that 2 000 connections dropping at once (a proxy
        # restart) bring ticks of a few hundred closes, not one tick walking ~40 000.
        gcpolicy.handled()
        if self.router is not None:
            self.router.gone(conn)
        if self.desk is not None:
            self.desk.detach(conn)
        if conn.player is not None:
            conns = self.online.get(conn.player)
            if conns is not None:
                conns.discard(conn)
                if not conns:
                    del self.online[conn.player]
        if conn.player is not None:
            other = next(iter(self.online.get(conn.player, ())), None)
            if other is not None and self.router is not None and self.matchmaker.queued(
                    conn.player):
                self.router.reachable(other)  # the queue entry now names it
            await self.matchmaker.detach(conn, other)
            if other is None:
                self.challenges.left(conn.player)
        for mid in sorted(conn.matches):
            actor = self.actors.get(mid)
            if actor is not None:
                with anyio.move_on_after(5):
                    await actor.put(Disconnect(conn.id))
        conn.matches.clear()

    # -- matches --

    async def _run_actor(self, actor: Actor, *,
                         task_status: TaskStatus[None] = anyio.TASK_STATUS_IGNORED) -> None:
        try:
            await actor.run(task_status=task_status)
            if actor.core.status == "over" and actor.finished:
                await self._record(actor)
        except Exception:
            log.exception("match %s: actor failed", actor.match_id)
        finally:
            if self.actors.get(actor.match_id) is actor:
                del self.actors[actor.match_id]
            with (anyio.CancelScope(shield=True), anyio.move_on_after(2),
                  contextlib.suppress(StoreError)):
                await self.store.release(actor.match_id, self.owner)
            actor.released.set()

    async def _record(self, actor: Actor) -> None:
        """Record a finished match (its final save marked it unrecorded, so if this
        fails the next start records it)."""
        for delay in (0.1, 0.5, 2.0):
            try:
                await self.recorder.record(actor.core.snapshot())
                return
            except StoreError as exc:
                log.warning("match %s: recording failed (%s); retrying", actor.match_id, exc)
                await anyio.sleep(delay)

    async def _start(self, core: MatchCore) -> Actor:
        if not await self.store.acquire(core.match_id, self.owner,
                                        self.limits.actor.lease_ttl):
            raise BadRequest(Code.BUSY, "another server runs this match")
        if self._bot_limiter is None:  # made on the event loop, shared by every actor
            self._bot_limiter = anyio.CapacityLimiter(max(1, self.limits.bot_threads))
        actor = Actor(core, self.store, owner=self.owner, limits=self.limits.actor,
                      clock=self.clock, stats=self.stats, bot_limiter=self._bot_limiter)
        self.actors[core.match_id] = actor
        if not core.meta.get("reserved"):  # the server's own (a tournament's): not held
            for info in core.seats:
                if info is not None and info.bot is None:
                    self._hold(core.match_id, info.player)
        for entry in core.meta.get("requests") or []:  # from a snapshot: see _remember_id
            if isinstance(entry, list) and len(entry) == 2:
                self.recent[(str(entry[0]), str(entry[1]))] = core.match_id
        await self.tg.start(self._run_actor, actor)
        return actor

    async def recover(self) -> int:
        """Load and run every unfinished match this process can lease; returns how many."""
        count = 0
        for mid in await self.store.unfinished():
            # A client's request may be adopting it (adopt_now) while this runs, and the
            # lease cannot tell the two apart (both are this process's): each adoption
            # holds ``_adopting`` so that one match never gets two actors here (whose
            # seats would each wait for the other's decision forever).
            if mid in self.actors or mid in self._adopting:
                continue
            self._adopting[mid] = done = anyio.Event()
            try:
                if not await self.store.acquire(mid, self.owner,
                                                self.limits.actor.lease_ttl):
                    continue
                try:
                    core = await self._load(mid)
                except Damaged:
                    continue  # quarantined by _load: the others start
                if core is None:
                    continue
                actor = await self._start(core)
                actor.offer(Resume())
                count += 1
            finally:
                del self._adopting[mid]
                done.set()
        metrics.ADOPTED.inc(count)
        return count

    async def adopt_now(self, mid: str) -> Actor | None:
        """Run here, at once, an unfinished match that no live process runs (its lease
        lapsed, or a draining process released it): a client reopening it should not
        wait for the next adoption round.  ``None`` if it is finished, unknown, or
        another process holds it."""
        if not self.accepting or not self.store.leases_expire or len(mid) > 64:
            return None
        busy = self._adopting.get(mid)
        if busy is not None:  # another request, or recover(), is taking it here: wait
            await busy.wait()
            return self.actors.get(mid)
        self._adopting[mid] = done = anyio.Event()
        try:
            if not await self.store.acquire(mid, self.owner, self.limits.actor.lease_ttl):
                return None
            try:
                core = await self._load(mid)
            except Damaged:
                return None  # quarantined, lease and all: the caller says match_damaged
            if core is None or core.status == "over":
                await self.store.release(mid, self.owner)
                return None
            actor = await self._start(core)
            actor.offer(Resume())
            metrics.ADOPTED.inc()
            log.info("match %s: adopted on request (no process ran it)", mid)
            return actor
        finally:
            del self._adopting[mid]
            done.set()

    async def drain(self, timeout: float) -> None:
        """Stop every actor between commands (each releases its lease on the way out,
        so another process can adopt the match at once), waiting up to ``timeout``."""
        self.accepting = False
        actors = list(self.actors.values())
        for actor in actors:
            actor.stop()
        with anyio.move_on_after(timeout):
            for actor in actors:
                await actor.released.wait()

    def send_away(self, why: str) -> None:
        """Tell every connection to reconnect (close 1012): a drain."""
        for conn in list(self.conns):
            conn.push(error(Code.RECONNECT, why))
            conn.close(Close.SERVICE_RESTART, Code.RECONNECT)

    async def adopt(self, *, task_status: TaskStatus[None] = anyio.TASK_STATUS_IGNORED) -> None:
        """Keep adopting unfinished matches whose server went away (lease expired)."""
        task_status.started()
        while True:
            await anyio.sleep(self.limits.actor.lease_ttl)
            try:
                n = await self.recover()
            except StoreError as exc:
                log.warning("adopting matches failed: %s", exc)
                continue
            if n:
                log.info("adopted %d matches", n)

    def restore_limits(self) -> dict[str, Any]:
        """``MatchCore.restore``'s keyword arguments on this server."""
        lim = self.limits
        return {"grace": lim.grace, "waiting_ttl": lim.waiting_ttl,
                "waiting_grace": lim.waiting_grace, "reveal_timeout": lim.reveal_timeout,
                "reply_cache": lim.reply_cache, "restart_grace": lim.restart_grace,
                "snapshot_every": lim.snapshot_every, "log_window": lim.log_window}

    async def _load(self, mid: str) -> MatchCore | None:
        """The stored match (``None``: no such match); a match that cannot be restored
        is quarantined, its players remembered, and :class:`Damaged` raised."""
        stored = await self.store.load(mid)
        if stored is None:
            return None
        try:
            return quarantine.restore(stored, **self.restore_limits())
        except Damaged as exc:
            await self.store.quarantine(mid, exc.reason, exc.players, self.clock())
            for player in exc.players:
                self.damaged.setdefault(player, set()).add(mid)
            log.error("match %s quarantined (kept for inspection, see kickline doctor): %s",
                      mid, exc.reason)
            raise

    def _new_core(self, ruleset: games.Ruleset, config: Mapping[str, Any], clock: Clock,
                  meta: dict[str, Any], match_id: str | None = None) -> MatchCore:
        seed = self.fixed_seed if self.fixed_seed is not None else secrets.token_bytes(32)
        return MatchCore(ruleset.game, ruleset.bots,
                         match_id=match_id or secrets.token_urlsafe(9),
                         config=config, seed=seed, now=self.clock(), clock=clock,
                         grace=self.limits.grace, waiting_ttl=self.limits.waiting_ttl,
                         waiting_grace=self.limits.waiting_grace,
                         reveal_timeout=self.limits.reveal_timeout,
                         reply_cache=self.limits.reply_cache, meta=meta,
                         restart_grace=self.limits.restart_grace,
                         snapshot_every=self.limits.snapshot_every,
                         log_window=self.limits.log_window)

    async def _claim_code(self, match_id: str, length: int = CODE_LENGTH) -> str:
        while True:
            code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(length))
            if await self.store.claim_code(code, match_id):
                return code

    async def _claim_codes(self, core: MatchCore) -> None:
        """The invite code, and for a private match its watch code."""
        core.meta["code"] = await self._claim_code(core.match_id)
        if core.meta.get("private"):
            core.meta["watch_code"] = await self._claim_code(core.match_id, WATCH_CODE_LENGTH)

    @staticmethod
    def may_see(core: MatchCore, player: str | None) -> bool:
        """Whether ``player`` may see this match at all: anyone, for a public match; for
        a private one its players and the organisers named in its ``meta``."""
        if not core.meta.get("private"):
            return True
        organisers = core.meta.get("organisers") or []
        # ``seating``: the players a quick match, challenge or rematch was made for.
        # They are told before the actor has seated them, and may ``open`` it at once.
        return player is not None and (core.seat_of(player) is not None
                                       or player in organisers
                                       or player in (core.meta.get("seating") or ()))

    # -- checks --

    def _player(self, conn: Connection) -> tuple[str, str]:
        assert conn.player is not None and conn.name is not None
        return conn.player, conn.name

    def _ruleset(self, msg: Message) -> games.Ruleset:
        try:
            return games.get(msg.get("game", "kickline"))
        except games.UnknownGame as exc:
            raise BadRequest(Code.UNKNOWN_GAME, str(exc), msg["id"]) from exc

    def _config(self, ruleset: games.Ruleset, msg: Message) -> dict[str, Any]:
        config: dict[str, Any] = msg["config"]
        try:
            ruleset.game.setup(config)
        except Exception as exc:  # any refusal by the ruleset is a bad config
            raise BadRequest(Code.BAD_CONFIG, f"config refused by {ruleset.game.name}: {exc}",
                             msg["id"]) from exc
        return config

    def _clock(self, msg: Message) -> Clock:
        raw = msg.get("clock")
        base = self.limits.clock
        if raw is None:
            return base
        lim = self.limits

        def num(name: str, lo: float, hi: float, default: float) -> float:
            v = raw.get(name, default)
            if isinstance(v, bool) or not isinstance(v, int | float) or not lo <= v <= hi:
                raise BadRequest(Code.BAD_FIELD, f"clock.{name} must be a number from {lo:g} "
                                 f"to {hi:g}", msg["id"])
            return float(v)

        unknown = sorted(set(raw) - {"decision", "bank", "max_timeouts"})
        if unknown:
            raise BadRequest(Code.BAD_FIELD, f"clock: unknown fields {unknown}", msg["id"])
        return Clock(decision=num("decision", lim.min_decision, lim.max_decision, base.decision),
                     bank=num("bank", 0, lim.max_bank, base.bank),
                     max_timeouts=int(num("max_timeouts", 1, lim.max_timeouts,
                                          base.max_timeouts)))

    def _commit(self, msg: Message) -> str | None:
        """The sender's dice commitment (``dice_commit``), checked."""
        raw = msg.get("dice_commit")
        if raw is None:
            return None
        try:
            return parse_commit(raw)
        except ValueError as exc:
            raise BadRequest(Code.BAD_FIELD, f"dice_commit: {exc}", msg["id"]) from exc

    def _capacity(self, msg: Message) -> None:
        if not self.accepting:
            raise BadRequest(Code.SHUTTING_DOWN, "the server is shutting down", msg["id"])
        if len(self.actors) >= self.limits.max_live_matches:
            raise BadRequest(Code.BUSY, "the server is at its match limit; try later",
                             msg["id"])

    # -- budgets --

    def _hold(self, mid: str, player: str, address: str | None = None) -> None:
        self._held.setdefault(f"p:{player}", set()).add(mid)
        if address is not None:
            self._held.setdefault(f"a:{address_key(address)}", set()).add(mid)

    def _holding(self, key: str) -> list[MatchCore]:
        """The matches not over that ``key`` holds (forgetting the others)."""
        mids = self._held.get(key)
        if not mids:
            return []
        live = [a.core for m in mids if (a := self.actors.get(m)) and a.core.status != "over"]
        if live:
            self._held[key] = {c.match_id for c in live}
        else:
            del self._held[key]
        if len(self._held) > 4 * self.limits.max_live_matches:  # bound stale keys
            for k in [k for k, ms in self._held.items() if not any(m in self.actors
                                                                   for m in ms)]:
                del self._held[k]
        return live

    def _may_hold(self, conn: Connection, msg: Message, *, waiting: bool) -> None:
        """Refuse a new match its player or address could not hold at once."""
        b, now = self.budgets, self.clock()
        player, _ = self._player(conn)
        for key, live_cap, waiting_cap in ((f"p:{player}", b.live_per_player,
                                            b.waiting_per_player),
                                           (f"a:{address_key(conn.address)}",
                                            b.live_per_address, b.waiting_per_address)):
            held = self._holding(key)
            if live_cap > 0 and len(held) >= live_cap:
                raise BadRequest(Code.TOO_MANY_MATCHES, f"you already have {len(held)} "
                                 "matches going; finish one first", msg["id"],
                                 retry_after=self.limits.clock.decision)
            pending = [c for c in held if c.status == "waiting"]
            if waiting and waiting_cap > 0 and len(pending) >= waiting_cap:
                soonest = min(c.created + c.waiting_ttl for c in pending)
                raise BadRequest(Code.TOO_MANY_WAITING, f"you already have {len(pending)} "
                                 "matches waiting for an opponent; cancel one or wait",
                                 msg["id"], retry_after=max(0.0, soonest - now))

    def _take(self, msg: Message, code: str, what: str, *budgets: tuple[Rate, str]) -> None:
        """Take one from each budget, or refuse (taking none) with the longest wait."""
        waits = [w for rate, key in budgets if (w := rate.wait(key)) is not None]
        if waits:
            raise BadRequest(code, what, msg["id"], retry_after=max(waits))
        for rate, key in budgets:
            rate.take(key)

    def _code_keys(self, conn: Connection) -> tuple[tuple[Lockout, str], tuple[Lockout, str]]:
        """The lockouts a code that matches nothing counts against: the identity's, and
        the address's (a higher limit: a club behind one address shares it)."""
        player, _ = self._player(conn)
        return ((self._code_misses, f"p:{player}"),
                (self._code_misses_by_address, address_key(conn.address)))

    async def _find_code(self, conn: Connection, msg: Message) -> str | None:
        """The match an invite code names, under the code-guessing lockout: a code that
        matches nothing counts against the sender's identity and address."""
        keys = self._code_keys(conn)
        locked = [w for lock, k in keys if (w := lock.locked(k)) is not None]
        if locked:
            raise BadRequest(Code.LOCKED_OUT, "too many invite codes that matched nothing; "
                             "check the code and try again later", msg["id"],
                             retry_after=max(locked))
        code = normalize_code(msg["code"])
        mid = await self.store.find_code(code) if 0 < len(code) <= 32 else None
        if mid is None:
            self._missed(conn)
        return mid

    def _missed(self, conn: Connection) -> None:
        for lock, k in self._code_keys(conn):
            lock.fail(k)

    def _offer(self, actor: Actor, cmd: Command, conn: Connection, re: MsgId) -> None:
        if not actor.offer(cmd, conn):
            conn.push(error(Code.BUSY, "this match is busy; resend the same message", re))

    def _resent(self, conn: Connection, msg: Message) -> bool:
        """A resent create/join/quick is answered by reopening the match it made."""
        player, _ = self._player(conn)
        mid = self.recent.get((player, repr(msg["id"])))
        if mid is None:
            return False
        actor = self.actors.get(mid)
        if actor is None:
            return False
        conn.matches.add(mid)
        self._offer(actor, Connect(conn.id, player, re=msg["id"]), conn, msg["id"])
        return True

    async def _resent_elsewhere(self, conn: Connection, msg: Message) -> bool:
        """A resent ``quick`` that another process paired (``_paired_there`` kept its
        id): sent on to the match's process, which reopens the match for it."""
        mid = self.recent.get((self._player(conn)[0], repr(msg["id"])))
        if mid is None or self.router is None or mid in self.actors:
            return False
        owner = await self.router.owner_of(mid)
        if owner is None or owner == self.owner:
            return False
        self.router.forward(owner, conn, msg, mid)
        return True

    def _remember(self, conn: Connection, re: MsgId, mid: str) -> None:
        player, _ = self._player(conn)
        self._remember_id(player, repr(re), mid)

    def _remember_id(self, player: str, rid: str, mid: str) -> None:
        self.recent[(player, rid)] = mid
        while len(self.recent) > self.limits.recent_ids:
            self.recent.popitem(last=False)
        actor = self.actors.get(mid)
        if actor is not None:
            # Kept in the match's meta, so the next snapshot persists it and a request
            # resent after a restart is still answered, not applied twice.
            ids: list[Any] = list(actor.core.meta.get("requests") or [])
            if [player, rid] not in ids:
                ids = [*ids, [player, rid]][-MAX_REQUEST_IDS:]
                actor.core.meta["requests"] = ids

    # -- message handlers --

    async def _on_create(self, conn: Connection, msg: Message) -> None:
        if self._resent(conn, msg):
            return
        self._capacity(msg)
        ruleset = self._ruleset(msg)
        config = self._config(ruleset, msg)
        clock = self._clock(msg)
        bot = msg.get("bot")
        if bot is not None and bot not in ruleset.bots:
            raise BadRequest(Code.UNKNOWN_BOT, f"no bot {bot!r}; this game has "
                             f"{sorted(ruleset.bots)}", msg["id"])
        private = bool(msg.get("private", False)) or bot is not None
        commit = self._commit(msg)
        self._may_hold(conn, msg, waiting=bot is None)
        player, name = self._player(conn)
        self.take_create(conn, msg)
        core = self._new_core(ruleset, config, clock, {"private": private, "quick": False})
        await self._claim_codes(core)
        actor = await self._start(core)
        self._hold(core.match_id, player, conn.address)
        self._remember(conn, msg["id"], core.match_id)
        conn.matches.add(core.match_id)
        self._offer(actor, Sit(0, player, name, conn=conn.id, re=msg["id"], commit=commit),
                    conn, msg["id"])
        if bot is not None:
            actor.offer(Sit(1, f"bot:{bot}", f"{bot} bot", bot=bot))

    async def _on_join(self, conn: Connection, msg: Message) -> None:
        if self._resent(conn, msg):
            return
        commit = self._commit(msg)
        mid = await self._find_code(conn, msg)
        actor = self.actors.get(mid) if mid is not None else None
        player, name = self._player(conn)
        if actor is not None and actor.core.seat_of(player) is not None:
            conn.matches.add(actor.match_id)
            self._offer(actor, Connect(conn.id, player, re=msg["id"]), conn, msg["id"])
            return
        if actor is None or actor.core.status != "waiting":
            # The same answer whether the code never existed, has ended or is taken, and
            # counted the same: a guessed code tells nothing about a match the guesser
            # cannot join.
            if mid is not None:
                self._missed(conn)
            raise BadRequest(Code.NOT_FOUND, "no open match has that invite code", msg["id"])
        self._may_hold(conn, msg, waiting=False)
        conn.matches.add(actor.match_id)
        self._hold(actor.match_id, player, conn.address)
        self._remember(conn, msg["id"], actor.match_id)
        self._offer(actor, Sit(1, player, name, conn=conn.id, re=msg["id"], commit=commit),
                    conn, msg["id"])

    async def _on_quick(self, conn: Connection, msg: Message) -> None:
        if self._resent(conn, msg) or await self._resent_elsewhere(conn, msg):
            return  # paired already (perhaps before a restart, or by another process)
        self._capacity(msg)
        ruleset = self._ruleset(msg)
        config = self._config(ruleset, msg)
        clock = self._clock(msg)
        commit = self._commit(msg)
        player, name = self._player(conn)
        request: dict[str, Any] = {"game": ruleset.game.name, "name": name,
                                   "config": config, "clock": clock.plain(),
                                   "commit": commit}
        if self.router is not None and self.matchmaker.node is not None:
            # A shared queue: whichever process pairs this entry reaches the sender
            # through the router (see share_queue).
            self.router.reachable(conn)
            request.update(node=self.owner, token=self.node_token, conn=conn.id, re=msg["id"],
                           address=conn.address, protocol=conn.protocol)
        if await self.matchmaker.resend(conn, player, msg["id"], commit=commit):
            return
        self._may_hold(conn, msg, waiting=False)
        # Requests pair on the ruleset's key (Kickline: mode and board); each player's
        # own picks (Kickline: their team) go into the match the ruleset builds.
        rated = bool(msg.get("rated", False))
        game = ruleset.game.name
        rating = POLICY.start
        if rated:
            standing = (await self.store.standings(player)).get(mode_of(game, config))
            rating = standing.rating if standing is not None else POLICY.start
        await self.matchmaker.request(
            conn, msg["id"], queue_key(game, ruleset.game.quick_key(config), rated),
            player=player, rating=rating, last_opponent=await self._last_opponent(player),
            request=request)

    # -- one queue and one lobby list for every process on a Redis --

    def share_queue(self, state: QueueState, listing: Listing, token: str) -> None:
        """Use the cluster's queue (``state``, in Redis) and lobby list: a player
        queued here may pair with one queued on any process, the process that pairs
        them makes the match, and the other one's player reaches it through the router
        (:attr:`router` must be set).  ``token`` is this process's registration, which
        the entries name so that a dead process's entries lapse
        (:mod:`.matchqueue_redis`)."""
        self.matchmaker.state = state
        self.matchmaker.node = self.owner
        self.matchmaker.remote_ticket = self._remote_ticket
        self.node_token = token
        self.listing = listing
        assert self.router is not None
        self.router.on_paired = self._paired_there

    def _remote_ticket(self, key: str, entry: Entry) -> Ticket | None:
        """The ticket of an entry another process queued: its client through the
        router."""
        req = entry.request
        if self.router is None or not isinstance(req, dict):
            return None
        try:
            rc = self.router.attach(str(req["node"]), int(req["conn"]), player=entry.player,
                                    name=str(req["name"]), address=str(req["address"]),
                                    protocol=int(req["protocol"]))
        except (KeyError, TypeError, ValueError):
            return None  # not an entry of ours (another version's): left alone
        return Ticket(key, entry, cast(Connection, rc), req.get("re", ""), acked=True,
                      remote=True)

    async def _paired_there(self, origin: str, cid: int, player: str, re: MsgId, mid: str,
                            seat: int, notice: dict[str, Any]) -> None:
        """Process ``origin`` paired our player's request ``re`` into match ``mid``:
        the ticket is done here, and the connection's messages for the match go there.
        If that connection closed meanwhile, ``origin`` hears so (the seat is away) and
        another of the player's connections, if any, is told ``matched`` (it opens the
        match)."""
        assert self.router is not None
        t = self.matchmaker.taken(player, re)
        self._remember_id(player, repr(re), mid)  # the same quick resent: that match
        conn = self.router.local.get(cid)
        if conn is not None and conn.player == player and conn in self.online.get(
                player, ()):
            conn.remote[mid] = origin
            return
        self.router.send(origin, ["gone", self.owner, cid])
        if t is not None and t.conn in self.online.get(player, ()):
            t.conn.remote[mid] = origin
            t.conn.push({"t": "matched", "match": mid, "seat": seat, **notice})

    async def _last_opponent(self, player: str) -> str | None:
        """Whom ``player`` last played (a person), from their history."""
        last = await self.store.history(player, limit=1)
        entry = Record(unpack(last[0])).entry_for(player) if last else None
        opponent = entry["opponent"] if entry else None
        return opponent["player"] if opponent else None

    async def _quick_match(self, first: Ticket, second: Ticket) -> None:
        """Make and start the match of a quick-match pair (the matchmaker's ``make``):
        ``first`` waited longer and takes seat 0, their clock applies."""
        a, b = first.entry.request, second.entry.request
        ruleset = games.get(a["game"])
        paired = dict(ruleset.game.quick_config(a["config"], b["config"]))
        await self.seat_pair(
            tuple(Seating(t.conn, t.entry.player, t.entry.request["name"], t.re,
                          t.entry.request.get("commit")) for t in (first, second)),
            ruleset, paired, Clock.from_plain(a["clock"]),
            meta={"quick": True, "rated": first.rated}, notice={"rated": first.rated})

    async def seat_pair(self, seats: tuple[Seating, ...], ruleset: games.Ruleset,
                        config: Mapping[str, Any], clock: Clock, *, meta: Mapping[str, Any],
                        notice: Mapping[str, Any]) -> str:
        """Make and start a private match for two players who are here (a quick match, a
        challenge, a rematch): each is sent ``matched`` (with ``notice``) and seated, in
        the order given.  Returns the match id."""
        if len(self.actors) >= self.limits.max_live_matches:
            raise BadRequest(Code.BUSY, "the server is at its match limit; try later")
        core = self._new_core(ruleset, config, clock, {
            "private": True, "quick": False, **meta,
            # They are told before the actor seats them, and may open it at once.
            "seating": [s.player for s in seats]})
        await self._claim_codes(core)
        actor = await self._start(core)
        for seat, s in enumerate(seats):
            c = s.conn
            if s.re is not None:
                self._remember_id(s.player, repr(s.re), core.match_id)
            self._hold(core.match_id, s.player, c.address)
            c.matches.add(core.match_id)
            if isinstance(c, RemoteConnection):  # queued on another process
                c.paired(s.player, s.re, core.match_id, seat, dict(notice))
            c.push({"t": "matched", "match": core.match_id, "seat": seat, **notice})
            actor.offer(Sit(seat, s.player, s.name, conn=c.id, commit=s.commit), c)
            if not isinstance(c, RemoteConnection) and c not in self.online.get(s.player, ()):
                actor.offer(Disconnect(c.id))  # it closed while the match was made
        return core.match_id

    def seating(self, conn: Connection, who: tuple[str, str], re: MsgId | None,
                commit: str | None) -> Seating:
        return Seating(conn, who[0], who[1], re, commit)

    def take_create(self, conn: Connection, msg: Message) -> None:
        """Spend one of the sender's match creations (per player and per address)."""
        player, _ = self._player(conn)
        self._take(msg, Code.TOO_MANY_CREATES, "you have created too many matches lately; "
                   "try again later", (self._creates, player),
                   (self._creates_by_address, address_key(conn.address)))

    # -- challenges and rematches (challenges.py) --

    async def _on_challenge(self, conn: Connection, msg: Message) -> None:
        await self.challenges.on_challenge(conn, msg)

    async def _on_accept(self, conn: Connection, msg: Message) -> None:
        await self.challenges.on_accept(conn, msg)

    async def _on_decline(self, conn: Connection, msg: Message) -> None:
        await self.challenges.on_decline(conn, msg)

    async def _on_withdraw(self, conn: Connection, msg: Message) -> None:
        await self.challenges.on_withdraw(conn, msg)

    async def _on_challenges(self, conn: Connection, msg: Message) -> None:
        await self.challenges.on_challenges(conn, msg)

    async def _on_rematch(self, conn: Connection, msg: Message) -> None:
        await self.challenges.on_rematch(conn, msg)

    async def _on_cancel(self, conn: Connection, msg: Message) -> None:
        player, _ = self._player(conn)
        cancelled = await self.matchmaker.cancel(player)
        conn.push({"t": "ack", "re": msg["id"], "cancelled": cancelled})

    async def _on_queues(self, conn: Connection, msg: Message) -> None:
        ruleset = self._ruleset(msg)
        config = self._config(ruleset, msg)
        qk = ruleset.game.quick_key(config)
        game = ruleset.game.name
        counts = await self.matchmaker.counts([queue_key(game, qk, r) for r in (False, True)])
        conn.push({"t": "ack", "re": msg["id"], "waiting": {
            "casual": counts[queue_key(game, qk, False)],
            "rated": counts[queue_key(game, qk, True)]}})

    async def _on_list(self, conn: Connection, msg: Message) -> None:
        game = msg.get("game")
        mine = self.list_part()
        parts = [mine] + (await self.listing.others() if self.listing is not None else [])
        seen: set[str] = set()
        out: list[dict[str, Any]] = []
        live: list[dict[str, Any]] = []  # public matches being played, for "watch"
        for part in parts:  # ours first: a match moving between processes shows once
            for kind, into in (("open", out), ("live", live)):
                for m in part.get(kind, ()):
                    if m["match"] not in seen and (game is None or m["game"] == game):
                        seen.add(m["match"])
                        into.append(m)
        out.sort(key=lambda m: str(m["match"]))
        live.sort(key=lambda m: str(m["match"]))
        conn.push({"t": "ack", "re": msg["id"], "matches": out[:100], "live": live[:50]})

    def list_part(self, *, max_open: int = 200, max_live: int = 100) -> dict[str, Any]:
        """This process's public matches for the lobby list: ``open`` (waiting for a
        second player) and ``live`` (being played); the cluster's list merges every
        process's (:mod:`.listing`)."""
        out: list[dict[str, Any]] = []
        live: list[dict[str, Any]] = []
        if len(self._listed_cache) > len(self.actors) + 1000:  # ended matches' entries
            self._listed_cache = {m: c for m, c in self._listed_cache.items()
                                  if m in self.actors}
        for mid, actor in self.actors.items():
            status, entry, _ = self._listed(mid, actor.core)
            if entry is None:
                continue
            if status == "waiting" and len(out) < max_open:
                out.append(entry)
            elif status == "playing" and len(live) < max_live:
                live.append(entry)
        return {"open": out, "live": live}

    async def _on_odds(self, conn: Connection, msg: Message) -> None:
        """The exact odds of the sender's decisions now, computed from its own view (for a
        client whose Pyodide has not loaded yet); ``{}`` when the ruleset has none."""
        player, _ = self._player(conn)
        actor = self.actors.get(msg["match"])
        core = actor.core if actor is not None else None
        if core is None or not self.may_see(core, player) or core.state is None:
            raise BadRequest(Code.NOT_FOUND, f"no match {msg['match']!r} on this server",
                             msg["id"])
        seat = core.seat_of(player)
        if seat is None:
            raise BadRequest(Code.NOT_YOUR_SEAT, "odds are for the players of a match",
                             msg["id"])
        if conn in self._odds_busy:
            raise BadRequest(Code.BUSY, "odds are being computed for you; ask again after",
                             msg["id"])
        state = core.state
        version = core.game.version(state)
        odds = games.get(core.game.name).odds
        out: Any = {}
        if odds is not None and core.status == "playing":
            self._odds_busy.add(conn)
            try:
                out = await anyio.to_thread.run_sync(odds, state, seat,
                                                     limiter=self._odds_limiter)
            finally:
                self._odds_busy.discard(conn)
        conn.push({"t": "ack", "re": msg["id"], "match": msg["match"], "version": version,
                   "odds": out})

    async def _on_open(self, conn: Connection, msg: Message) -> None:
        player, name = self._player(conn)
        actor = self.actors.get(msg["match"])
        if actor is not None and actor.core.seat_of(player) is None:
            seat = next((s for s in (0, 1) if actor.core.reserved_for(s) == player), None)
            if seat is not None and actor.core.seats[seat] is None:  # "your next match"
                conn.matches.add(actor.match_id)
                self._offer(actor, Sit(seat, player, name, conn=conn.id, re=msg["id"]), conn,
                            msg["id"])
                return
        await self._to_match(conn, msg, msg["match"],
                             Connect(conn.id, player, since=msg.get("since", 0), re=msg["id"]))

    async def _on_watch(self, conn: Connection, msg: Message) -> None:
        player, _ = self._player(conn)
        if "match" not in msg and "code" not in msg:
            raise BadRequest(Code.BAD_FIELD, "watch needs a match or a code", msg["id"])
        self._take(msg, Code.TOO_MANY_WATCHES, "too many watch requests; try again later",
                   (self._watches, player),
                   (self._watches_by_address, address_key(conn.address)))
        mid = msg.get("match")
        invited = False
        if mid is None:
            mid = await self._find_code(conn, msg)
            core = await self._core(mid, msg["id"]) if mid is not None else None
            # A private match's watch code is an invitation; its invite code is not
            # (it seats the opponent, and resolves only while the match waits).
            invited = core is not None and normalize_code(msg["code"]) == core.meta.get(
                "watch_code")
            if core is not None and not invited and core.meta.get("private"):
                self._missed(conn)  # the same answer as no match, and counted as one
                mid = None
        if mid is None:
            raise BadRequest(Code.NOT_FOUND, "no match to watch has that code", msg["id"])
        await self._to_match(conn, msg, mid, Connect(conn.id, None, since=msg.get("since", 0),
                                                     watch=True, re=msg["id"]),
                             invited=invited)

    async def _on_decide(self, conn: Connection, msg: Message) -> None:
        player, _ = self._player(conn)
        actor = self.actors.get(msg["match"])
        if actor is not None and _owes(actor.core, player):
            conn.refund(msg["match"], actor.core.version)  # play is not a flood
        await self._to_match(conn, msg, msg["match"], Decide(
            conn.id, player, msg["id"], msg["version"], msg["decision"], msg.get("seat")),
            attach=False)

    async def _on_reveal(self, conn: Connection, msg: Message) -> None:
        player, _ = self._player(conn)
        await self._to_match(conn, msg, msg["match"],
                             Reveal(conn.id, player, msg["id"], msg["dice"]), attach=False)

    async def _on_claim(self, conn: Connection, msg: Message) -> None:
        player, _ = self._player(conn)
        await self._to_match(conn, msg, msg["match"], Claim(conn.id, player, msg["id"]),
                             attach=False)

    # -- players --

    async def _on_mine(self, conn: Connection, msg: Message) -> None:
        player, _ = self._player(conn)
        conn.push({"t": "ack", "re": msg["id"], "matches": await self.all_matches_of(player)})

    async def _on_profile(self, conn: Connection, msg: Message) -> None:
        conn.push(await self.players.profile(conn, msg))

    async def _on_history(self, conn: Connection, msg: Message) -> None:
        conn.push(await self.players.history(conn, msg))

    async def _on_leaderboard(self, conn: Connection, msg: Message) -> None:
        conn.push(await self.players.leaderboard(conn, msg))

    async def _on_set_password(self, conn: Connection, msg: Message) -> None:
        try:
            conn.push(await self.players.set_password(conn, msg))
        except AccountError as exc:
            raise BadRequest(exc.code, exc.message, msg["id"]) from exc

    async def _on_transfer(self, conn: Connection, msg: Message) -> None:
        conn.push(await self.players.transfer(conn, msg))

    async def _on_signout_everywhere(self, conn: Connection, msg: Message) -> None:
        account, token = await self.players.signout_everywhere(conn, msg)
        for other in list(self.online.get(account.player, ())):
            if other is not conn:
                other.push(error(Code.SIGNED_OUT, "you signed out everywhere from another "
                                 "device"))
                other.close(Close.POLICY, Code.SIGNED_OUT)
        conn.push({"t": "ack", "re": msg["id"], "token": token,
                   "cookie": self.players.ticket(account)})

    # -- matches made by someone else --

    async def reserve(self, players: tuple[tuple[str, str], tuple[str, str]], *,
                      config: Mapping[str, Any], game: str = "kickline",
                      clock: Clock | None = None, rated: bool = False,
                      start_by: float | None = None,
                      meta: Mapping[str, Any] | None = None,
                      match_id: str | None = None) -> str:
        """Make a match for two named players (``(player id, name)`` for seat 0, then
        seat 1): it appears in both players' ``welcome.matches`` and ``mine`` as
        ``reserved`` ("your next match"), online players are sent ``next_match``, and
        only they may sit (by ``open``ing it).  It starts when both have.  If
        ``start_by`` (epoch seconds) passes first, the one who came wins (``reason:
        "no_show"``; neither: ``"no_show_both"``); without it the waiting time is the
        server's (an hour).  ``rated`` says whether the result moves ratings; ``meta``
        is kept with the match and its record (a tournament puts ``{"tournament":
        ...}`` there; ``tournament`` is copied into the record).  Returns the match id.
        Raises :class:`ValueError` for a bad game or config (nothing made) and
        :class:`~.protocol.BadRequest` ``busy`` at the server's match limit.

        With ``match_id`` (a tournament derives its boards' ids) the call is idempotent:
        if a match with that id exists, live or stored, nothing is made."""
        ruleset = games.get(game)
        ruleset.game.setup(config)  # raises for a config the ruleset refuses
        if players[0][0] == players[1][0]:
            raise ValueError("a reserved match needs two different players")
        if match_id is not None and (match_id in self.actors
                                     or await self.store.load(match_id) is not None):
            return match_id
        if len(self.actors) >= self.limits.max_live_matches:
            raise BadRequest(Code.BUSY, "the server is at its match limit; try later")
        extra = dict(meta or {})
        extra.update(private=True, quick=False, rated=rated)
        core = self._new_core(ruleset, config, clock or self.limits.clock, extra, match_id)
        await self._claim_codes(core)
        actor = await self._start(core)
        if not await actor.call(Reserve(players, start_by)):
            raise StoreError("the match stopped before it was saved")
        for seat, (player, _) in enumerate(players):
            for c in list(self.online.get(player, ())):
                c.push({"t": "next_match", "match": core.match_id, "seat": seat,
                        "opponent": players[1 - seat][1], "game": game,
                        "config": dict(config), "rated": rated, "start_by": start_by,
                        "tournament": extra.get("tournament")})
        return core.match_id

    # -- tournaments (tournaments.Desk answers; Refused becomes the error) --

    async def _tournament(self, conn: Connection, msg: Message, what: str) -> None:
        if self.desk is None:
            raise BadRequest(Code.UNKNOWN_TYPE, "this server runs no tournaments", msg["id"])
        try:
            conn.push(await getattr(self.desk, what)(conn, msg))
        except Refused as exc:
            extra = {"retry_after": 1.0} if exc.code == "busy" else {}
            conn.push(error(exc.code, exc.message, msg["id"], **extra))

    async def _on_tournaments(self, conn: Connection, msg: Message) -> None:
        await self._tournament(conn, msg, "on_list")

    async def _on_tournament(self, conn: Connection, msg: Message) -> None:
        await self._tournament(conn, msg, "on_view")

    async def _on_tcommand(self, conn: Connection, msg: Message) -> None:
        await self._tournament(conn, msg, "on_command")

    async def cancel(self, match_id: str) -> None:
        """End a live match without a result (``reason: "cancelled"``, played by nobody):
        a tournament organiser decided its board.  Nothing if it is not live here."""
        actor = self.actors.get(match_id)
        if actor is not None:
            await actor.call(Cancel())

    async def _on_resign(self, conn: Connection, msg: Message) -> None:
        player, _ = self._player(conn)
        await self._to_match(conn, msg, msg["match"],
                             Resign(conn.id, player, msg["id"], msg.get("seat")), attach=False)

    async def _core(self, mid: str, re: MsgId | None = None) -> MatchCore | None:
        """The match: live here, or as last stored (read-only); a damaged one is
        answered ``match_damaged``."""
        actor = self.actors.get(mid)
        if actor is not None:
            return actor.core
        if len(mid) > 64:
            return None
        try:
            core = await self._load(mid)
        except Damaged as exc:
            raise BadRequest(Code.MATCH_DAMAGED, DAMAGED_TEXT, re) from exc
        if core is None and await self.store.quarantine_of(mid) is not None:
            raise BadRequest(Code.MATCH_DAMAGED, DAMAGED_TEXT, re)
        return core

    async def _to_match(self, conn: Connection, msg: Message, mid: str, cmd: Command,
                        *, attach: bool = True, invited: bool = False) -> None:
        actor = self.actors.get(mid) or await self.adopt_now(mid)
        core = actor.core if actor is not None else await self._core(mid, msg["id"])
        # A private match the sender may not see answers exactly as no match would.
        if core is None or not (invited or self.may_see(core, conn.player)):
            raise BadRequest(Code.NOT_FOUND, f"no match {mid!r} on this server", msg["id"])
        if actor is None and core.status != "over":
            # Not live here and not over: another process runs it (it took it between
            # our look at its lease and now), or it is moving between processes.
            owner = await self.router.owner_of(mid) if self.router is not None else None
            if owner is not None and owner != self.owner and isinstance(conn, Connection):
                self.router.forward(owner, conn, msg, mid)  # type: ignore[union-attr]
                return
            if self.router is None:
                raise BadRequest(Code.NOT_FOUND, f"no match {mid!r} on this server",
                                 msg["id"])
            raise BadRequest(Code.BUSY, "this match is moving to another server process; "
                             "resend the same message shortly", msg["id"],
                             retry_after=1)
        if actor is not None:
            if attach:
                conn.matches.add(mid)
            self._offer(actor, cmd, conn, msg["id"])
            return
        _answer(core, cmd, conn, self.clock())  # finished: answered from the store


Listed = tuple[str, Message | None, list[tuple[str, Message]]]
"""A match's status, its lobby-list entry (public, open or live) and its seat entries."""


def _seat_entries(mid: str, core: MatchCore) -> list[tuple[str, Message]]:
    """(player, ``welcome.matches`` entry) for each player holding or kept a seat."""
    out: list[tuple[str, Message]] = []
    reserved = core.meta.get("reserved")
    for seat in (0, 1):
        held = core.seats[seat]
        if held is not None and held.bot is None:
            player: str | None = held.player
        elif held is None and reserved:
            player = reserved[seat][0]
        else:
            continue
        if player is None:
            continue
        entry: Message = {"match": mid, "seat": seat, "status": core.status,
                          "game": core.game.name, "config": core.config,
                          "rated": bool(core.meta.get("rated"))}
        if reserved:
            entry.update(reserved=True, opponent=reserved[1 - seat][1],
                         start_by=core.meta.get("start_by"),
                         tournament=core.meta.get("tournament"))
        out.append((player, entry))
    return out


def _owes(core: MatchCore, player: str) -> bool:
    """Whether ``player``'s seat owes a decision now."""
    kind, seats, _ = core.to_act()
    return kind == "decide" and core.seat_of(player) in seats


def _answer(core: MatchCore, cmd: Command, peer: Peer, now: float) -> None:
    for e in core.handle(cmd, now):
        if isinstance(e, Send) and e.conn == peer.id:
            peer.push(e.message)
