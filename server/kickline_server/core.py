"""The sans-I/O match core: commands in, effects out.

One :class:`MatchCore` holds one match: its seats, the ruleset's state, the log of
everything applied, the clocks, and which connections watch which seat.  It has no
sockets, no clock and no randomness of its own: the caller passes ``now`` (wall-clock
seconds) with every command, and the dice come from ``random.Random(seed)`` where
``seed`` is the match's secret seed, held here and revealed when the match ends.

Driving contract:

1. Build a core (``MatchCore(...)`` for a new match, ``MatchCore.restore(...)`` from a
   stored snapshot and log), then call ``handle(Sit(...), now)`` for each seat taken;
   the match starts when both seats are held.  After a restore, call
   ``handle(Resume(), now)`` first.
2. Every ``handle(command, now)`` returns a list of effects, to carry out **in order**:
   a :class:`Persist` always comes first and must be durable before any later
   :class:`Send` goes out (persist before answering).  :class:`SetTimer` asks for
   ``handle(TimerFired(key), at)`` at wall time ``at``; a later :class:`SetTimer` with the
   same key replaces it and :class:`CancelTimer` drops it.  :class:`Finished` says the
   match is over (its connections may still be answered).
3. A bot that takes time to think (its ``thinks`` attribute is true: the search bots) is
   not called by the core: a :class:`Think` effect asks the host to run it off the core
   (a worker thread) and to hand its answer back as ``handle(Thought(...), now)``.  Quick
   bots are called in place.
4. Connections are small integers chosen by the host: ``Connect`` attaches one to a
   seat (or as a spectator), ``Disconnect`` detaches it.  The core never closes them.

Presence: a seat with no connection is *away*.  Being away costs a player only what
their clock costs them: a decision they owe runs its clock as if they were there (the
default decision when it runs out, a forfeit after ``max_timeouts`` in a row), and a
seat that owes nothing loses nothing.  After ``grace`` seconds away, the opponent may
``Claim`` the win or keep waiting; nothing ends a match just because a seat is away.
After a restart (``Resume``) every owed decision starts afresh with ``restart_grace``
extra seconds, and the away time before a claim counts from the restart.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from kickline.game import Game, Plain, ToAct

from .dice import commitment, dice, dice_seed, parse_contribution, sample, verify
from .games import Bot
from .matchlog import MatchLog
from .patch import Patch, diff
from .protocol import Code, Message, MsgId, error

__all__ = ["commitment", "dice", "sample", "verify"]  # re-exported: they lived here first

FORMAT: Final = 4
"""Snapshot format version (1: replies stored as whole ``ack`` messages; 2: as
``[seat, id, version]``, which rebuilds the same ``ack``; 3: the players' dice
commitments and contributions, and the dice seed derived from them; 4: the stored log
may run past the snapshot's ``log_len``, and that tail is replayed on restore).  All are
restored; a match from before format 3 keeps rolling from the server's seed alone; a
server from before format 4 would ignore the tail, so it refuses format 4."""

LOG_WINDOW: Final = 64
"""The log entries a server's live match keeps in memory (``log_window``; older ones are
read back from the store when a reconnect needs them), so its memory does not grow with
its length.  A core built without it holds its whole log."""

SNAPSHOT_EVERY: Final = 32
"""By default a full snapshot is written every this many log entries (and whenever
anything but decisions and their consequences changed); the persists in between append
log entries only."""

ERROR_CODES: Final = {
    "MalformedDecision": Code.MALFORMED_DECISION,
    "IllegalDecision": Code.ILLEGAL_DECISION,
    "StaleVersion": Code.STALE_VERSION,
}
"""How a ruleset's ``ValueError`` subclasses (matched by class name) map to error codes."""

MAX_STEPS: Final = 100_000
"""Most chance/bot steps the core applies for one command (guards a looping ruleset)."""


# --- values --------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Clock:
    """Time control: each decision gets ``decision`` seconds free, then draws on the
    seat's ``bank``; when both are spent the server plays the default decision (the
    first legal one, in sorted order).  ``max_timeouts`` timeouts in a row forfeit."""

    decision: float = 30.0
    bank: float = 300.0
    max_timeouts: int = 3

    def plain(self) -> Plain:
        return {"decision": self.decision, "bank": self.bank, "max_timeouts": self.max_timeouts}

    @staticmethod
    def from_plain(p: Plain) -> Clock:
        return Clock(decision=p["decision"], bank=p["bank"], max_timeouts=p["max_timeouts"])


@dataclass(frozen=True, slots=True)
class SeatInfo:
    player: str
    name: str
    bot: str | None = None

    def plain(self) -> Plain:
        return {"player": self.player, "name": self.name, "bot": self.bot}


# --- commands --------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Sit:
    """``player`` takes ``seat`` (``bot`` names a server-side bot playing it); ``conn``,
    if given, is attached to the seat and acknowledged with ``re``."""

    seat: int
    player: str
    name: str
    bot: str | None = None
    conn: int | None = None
    re: MsgId | None = None
    patches: bool = False
    """``conn`` takes view patches (protocol 2): see :meth:`MatchCore._prompt`."""
    commit: str | None = None
    """The player's dice commitment (``sha256`` hex of their contribution), if any."""


@dataclass(frozen=True, slots=True)
class Reveal:
    """The player reveals their dice contribution (64 hex digits)."""

    conn: int
    player: str
    re: MsgId
    contribution: str


@dataclass(frozen=True, slots=True)
class Connect:
    """Attach ``conn`` to ``player``'s seat (or as a spectator when ``watch``), and send
    it the events from index ``since`` on.  ``patches``: it takes view patches."""

    conn: int
    player: str | None
    since: int = 0
    watch: bool = False
    re: MsgId | None = None
    patches: bool = False


@dataclass(frozen=True, slots=True)
class Disconnect:
    conn: int


@dataclass(frozen=True, slots=True)
class Decide:
    conn: int
    player: str
    re: MsgId
    version: int
    decision: str
    seat: int | None = None


@dataclass(frozen=True, slots=True)
class Resign:
    conn: int
    player: str
    re: MsgId
    seat: int | None = None


@dataclass(frozen=True, slots=True)
class Claim:
    """The sender's opponent has been away ``grace`` seconds: end the match, won by the
    sender (``reason: "claimed"``)."""

    conn: int
    player: str
    re: MsgId


@dataclass(frozen=True, slots=True)
class Reserve:
    """Reserve both seats of a waiting match for two named players (``(player id,
    name)`` per seat): only they may sit.  If ``start_by`` passes with one seat taken,
    its player wins (``reason: "no_show"``); with none, nobody does
    (``"no_show_both"``).  Persisted at once."""

    players: tuple[tuple[str, str], tuple[str, str]]
    start_by: float | None = None


@dataclass(frozen=True, slots=True)
class Cancel:
    """End the match now without a result (``reason: "cancelled"``): its outcome was
    decided elsewhere (a tournament organiser adjudicated or re-paired its board)."""


@dataclass(frozen=True, slots=True)
class TimerFired:
    key: str


@dataclass(frozen=True, slots=True)
class Resume:
    """After a restore: restart the clocks of owed decisions and the grace windows."""


@dataclass(frozen=True, slots=True)
class Thought:
    """A thinking bot's decision for ``seat``, worked out by the host (see :class:`Think`);
    ``asked`` echoes the question's ``Think.asked``."""

    seat: int
    asked: int
    decision: str


Command = (Sit | Connect | Disconnect | Decide | Resign | Reveal | Claim | Reserve | Cancel
           | TimerFired | Resume | Thought)


# --- effects ----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Persist:
    """Append ``entries`` to the match log at index ``start`` and, unless ``snapshot`` is
    ``None``, replace the snapshot, atomically.  Without a snapshot the entries are a
    tail that :meth:`MatchCore.restore` replays onto the last one."""

    snapshot: Plain | None
    entries: list[bytes]
    """The entries msgpack-packed, as the store keeps them."""
    start: int
    finished: bool


@dataclass(frozen=True, slots=True)
class Send:
    conn: int
    message: Message


@dataclass(frozen=True, slots=True)
class SetTimer:
    key: str
    at: float


@dataclass(frozen=True, slots=True)
class CancelTimer:
    key: str


@dataclass(frozen=True, slots=True)
class Finished:
    result: Plain


@dataclass(frozen=True, slots=True)
class Think:
    """Run the thinking bot ``bot`` for ``seat``: ``bot(view, legal, random.Random(seed))``,
    then ``handle(Thought(seat, asked, decision), now)``.  It is asked once per question
    (``asked`` names it: the state's version when it was asked); the core ignores an
    answer to a question that is no longer open."""

    seat: int
    asked: int
    bot: str
    view: Plain
    legal: list[str]
    seed: bytes


Effect = Persist | Send | SetTimer | CancelTimer | Finished | Think


# --- the core -----------------------------------------------------------------------


_PRIVATE_ENTRY_FIELDS: Final = frozenset({"e", "re", "b"})
"""Log entry fields kept out of the public log: the events (each seat got them redacted
in its prompts) and what only a restore needs (message ids, banks)."""


def public_entry(entry: Plain) -> Plain:
    """A log entry as the public log shows it."""
    return {k: v for k, v in entry.items() if k not in _PRIVATE_ENTRY_FIELDS}


@dataclass(slots=True)
class _Conn:
    seat: int | None
    cursor: int
    patches: bool = False
    base: int | None = None  # the state version of the view it last got (for patches)


_Reply = tuple[int | str, MsgId, int | None]
"""An applied decision's (or resignation's) ``ack``, remembered for a resend: (who, re,
version), ``who`` the sender's seat (or player id, if it held none).  A plain tuple of
plain values: the cyclic collector stops tracking it, where 64 objects per match (the
reply cache) were 40 % of what a full collection walked at 1 000 matches."""


_Common = tuple[str, tuple[int, ...], str, int | None, Plain, list[int], Plain, list[Plain],
                list[bool]]
"""What every seat's prompt of one moment shares: to_act's kind and seats, the status,
the version, and the ``to_act``, ``turns``, ``clock``, ``presence`` and ``revealed``
fields (one object each, in every seat's message)."""


@dataclass(slots=True)
class _Pending:
    """What one ``handle`` call has decided to do, gathered then ordered."""

    dirty: bool = False
    full: bool = False  # something beyond the log changed: write a whole snapshot
    broadcast: bool = False
    sends: list[Send] = field(default_factory=list)
    thinks: list[Think] = field(default_factory=list)
    finished: Plain | None = None


class MatchCore:
    """One match.  See the module docstring for the driving contract."""

    def __init__(
        self,
        game: Game,
        bots: Mapping[str, Bot],
        *,
        match_id: str,
        config: Mapping[str, Plain],
        seed: bytes,
        now: float,
        clock: Clock = Clock(),
        grace: float = 60.0,
        waiting_ttl: float = 3600.0,
        waiting_grace: float = 120.0,
        reveal_timeout: float = 20.0,
        reply_cache: int = 64,
        snapshot_every: int = SNAPSHOT_EVERY,
        log_window: int | None = None,
        meta: Mapping[str, Plain] | None = None,
        restart_grace: float = 60.0,
    ) -> None:
        self.game = game
        self.bots = bots
        self.match_id = match_id
        self.config = dict(config)
        self.seed = seed
        self.commit = commitment(seed)
        self.clock = clock
        self.grace = grace
        self.restart_grace = restart_grace
        self.waiting_ttl = waiting_ttl
        self.waiting_grace = waiting_grace
        self.reply_cache = reply_cache
        self.snapshot_every = max(1, snapshot_every)
        self.meta: dict[str, Plain] = dict(meta or {})
        self.created = now
        self.ended: float | None = None
        self._now = now
        self.status = "waiting"  # waiting | playing | over
        self.seats: list[SeatInfo | None] = [None, None]
        self.state: Any = None
        self.result: Plain | None = None
        # Packed entries, the events numbered across them; only the last ``log_window``
        # stay in memory (the store has them all): see needs_history and backfill.
        self.log = MatchLog(log_window)
        self.log_window = log_window
        self.persisted = 0
        self.snapshotted = 0  # the log's length at the last snapshot persisted
        self.reveal_timeout = reveal_timeout
        self.commits: list[str | None] = [None, None]
        self.contributions: list[bytes | None] = [None, None]
        self.dice_seed: bytes | None = None
        """Fixed once every committed contribution is in (or the reveal time is up)."""
        self.contributing = True
        """False for a match restored from before contributions (format < 3)."""
        self.rng: random.Random | None = None
        self.reveal_since = now
        self.bank = [clock.bank, clock.bank]
        self.timeouts = [0, 0]
        self.turns = [0, 0]
        self.owed: dict[int, float] = {}
        self.pondering: dict[int, int] = {}
        """Bot seats whose :class:`Think` is out, not yet answered: the question asked."""
        self.absent: dict[int, float] = {}
        # Oldest first (a plain dict keeps insertion order, in ~3 KiB less per match
        # than an OrderedDict of 64).
        self.replies: dict[str, _Reply] = {}
        self.conns: dict[int, _Conn] = {}
        self.timers: dict[str, float] = {}
        self._to_act: ToAct | None = None
        self._to_act_of: Any = None
        # Per seat (None: spectators), the last view built: (its state, the view, the
        # version of the view before it, the patch from that one or None).  States are
        # immutable, so a view is built once per state and seat however many
        # connections get it, and its patch once.
        self._views: dict[int | None, tuple[Any, Plain, int | None, Patch | None]] = {}
        # Per seat, the legal decisions its last prompt listed, with their state: handed
        # back to ``apply`` when the seat decides on that state, which then need not work
        # them out again (the ruleset's own memo holds one state, and with many live
        # matches another match's has replaced it by then).
        self._kept_legal: dict[int, tuple[Any, Sequence[str]]] = {}
        self._banks: tuple[list[float], list[float]] | None = None  # (banks, rounded)

    # -- persistence --

    def snapshot(self) -> Plain:
        return {
            "format": FORMAT,
            "match": self.match_id,
            "game": self.game.name,
            "config": self.config,
            "seed": self.seed,
            "clock": self.clock.plain(),
            "meta": self.meta,
            "created": self.created,
            "ended": self.ended,
            "status": self.status,
            "seats": [s.plain() if s else None for s in self.seats],
            "state": None if self.state is None else self.game.to_plain(self.state),
            "result": self.result,
            "log_len": len(self.log),
            "bank": list(self.bank),
            "timeouts": list(self.timeouts),
            "replies": [list(r) for r in self.replies.values()],
            "commits": list(self.commits),
            "contributions": list(self.contributions),
            "dice_seed": self.dice_seed,
        }

    @classmethod
    def restore(
        cls,
        game: Game,
        bots: Mapping[str, Bot],
        snapshot: Plain,
        log: Sequence[Plain],
        *,
        grace: float = 60.0,
        waiting_ttl: float = 3600.0,
        waiting_grace: float = 120.0,
        reveal_timeout: float = 20.0,
        reply_cache: int = 64,
        restart_grace: float = 60.0,
        snapshot_every: int = SNAPSHOT_EVERY,
        log_window: int | None = None,
    ) -> MatchCore:
        """Rebuild a core from its last snapshot and its stored log: the entries past
        the snapshot's ``log_len`` (each persisted, so acknowledged, after it) are
        replayed onto it exactly as they were first applied."""
        if snapshot.get("format") not in (1, 2, 3, FORMAT) or snapshot.get("game") != game.name:
            raise ValueError("snapshot is not of this format or game")
        core = cls(
            game, bots, match_id=snapshot["match"], config=snapshot["config"],
            seed=bytes(snapshot["seed"]), now=snapshot["created"],
            clock=Clock.from_plain(snapshot["clock"]), grace=grace, waiting_ttl=waiting_ttl,
            waiting_grace=waiting_grace, reveal_timeout=reveal_timeout,
            reply_cache=reply_cache, meta=snapshot["meta"], restart_grace=restart_grace,
            snapshot_every=snapshot_every, log_window=log_window,
        )
        core.status = snapshot["status"]
        core.ended = snapshot.get("ended")
        core.seats = [SeatInfo(**s) if s else None for s in snapshot["seats"]]
        if snapshot["state"] is not None:
            core.state = game.from_plain(snapshot["state"])
        core.result = snapshot["result"]
        if snapshot["format"] < 3:  # before contributions: the server's seed alone
            core.contributing = False
            if core.status != "waiting":
                core._fix_dice(seed=core.seed)
        else:
            core.commits = list(snapshot["commits"])
            core.contributions = [None if c is None else bytes(c)
                                  for c in snapshot["contributions"]]
            if snapshot["dice_seed"] is not None:
                core._fix_dice(seed=bytes(snapshot["dice_seed"]))
        if len(log) < snapshot["log_len"]:
            raise ValueError("the log is shorter than the snapshot says")
        for entry in log[: snapshot["log_len"]]:
            core.log.append(entry)
            if entry["k"] == "c":
                if core.rng is None:
                    raise ValueError("a roll in the log before the dice were fixed")
                core.rng.randrange(entry["w"])
            elif entry["k"] == "d":
                core.turns[entry["s"]] += 1
        core.bank = list(snapshot["bank"])
        core.timeouts = list(snapshot["timeouts"])
        for item in snapshot["replies"]:
            if snapshot["format"] == 1:  # [key, ack message]
                key, ack = item
                who: int | str = key.split("|", 1)[0]
                re, version = ack["re"], ack["version"]
            else:
                who, re, version = item
            core.replies[core._key(core._player(who), re)] = (who, re, version)
        core.snapshotted = len(core.log)
        for entry in log[len(core.log):]:
            core._replay_entry(entry)
        core.persisted = len(core.log)
        return core

    def _replay_entry(self, entry: Plain) -> None:
        """Apply one persisted log entry past the snapshot, with every effect it had on
        the core: a tail holds only decisions and chance events (anything else forces a
        whole snapshot, see :meth:`_effects`)."""
        if self.status != "playing" or entry["k"] not in ("c", "d"):
            raise ValueError(f"log entry {len(self.log)} cannot follow the snapshot")
        if entry["k"] == "c":
            if self.rng is None:
                raise ValueError("a roll in the log before the dice were fixed")
            self.rng.randrange(entry["w"])
            self.state, _ = self.game.apply_chance(self.state, entry["o"])
        else:
            seat = entry["s"]
            self.state, _ = self.game.apply(self.state, seat, entry["d"])
            self.turns[seat] += 1
            if entry.get("by") == "p":
                self.timeouts[seat] = 0
                if "b" in entry:
                    self.bank[seat] = entry["b"]
                if "re" in entry:
                    self._remember(self._player(seat), entry["re"], seat)
        self.log.append(entry)

    # -- queries --

    def seat_of(self, player: str | None) -> int | None:
        for s, info in enumerate(self.seats):
            if info is not None and player is not None and info.player == player:
                return s
        return None

    def to_act(self) -> tuple[str, tuple[int, ...], bool]:
        if self.status != "playing":
            return ("over" if self.status == "over" else "waiting", (), False)
        ta = self._game_to_act()
        if ta.kind == "chance" and self.dice_seed is None:
            return "reveal", tuple(self._unrevealed()), False
        return ta.kind, tuple(ta.seats), ta.secret

    def _unrevealed(self) -> list[int]:
        """Seats that committed to a contribution and have not revealed it."""
        return [s for s in (0, 1) if self.commits[s] is not None
                and self.contributions[s] is None]

    def _fix_dice(self, seed: bytes | None = None) -> None:
        """From now on the dice are fixed: derived from the server's seed and every
        contribution in (or ``seed``, as restored)."""
        self.dice_seed = seed if seed is not None else dice_seed(self.seed, self.contributions)
        self.rng = dice(self.dice_seed)

    def _game_to_act(self) -> ToAct:
        """``game.to_act(state)``, asked once per state (states are immutable)."""
        if self._to_act_of is not self.state or self._to_act is None:
            self._to_act = self.game.to_act(self.state)
            self._to_act_of = self.state
        return self._to_act

    def public_log(self) -> list[Plain]:
        """The log without events and restore-only fields: what a player needs to verify
        the dice.  (The whole log must be held: see :meth:`backfill`.)"""
        return [public_entry(e) for e in self.log]

    def needs_history(self, cmd: Command) -> bool:
        """Whether ``cmd`` needs log entries no longer held in memory: then pass the stored
        log to :meth:`backfill` before handling it (a reconnect that missed more than
        the log window, a spectator watching from the start)."""
        return isinstance(cmd, Connect) and cmd.since < self.log.first_event

    def backfill(self, stored: list[bytes]) -> None:
        """Hold the whole log again for the next command (``stored``: every entry as the
        store keeps them, from index 0)."""
        self.log.backfill(stored)

    # -- the one entry point --

    @property
    def events(self) -> list[Plain]:
        """Every event of the match so far (unpacked from the log: for tests and tools)."""
        return [e for entry in self.log for e in entry.get("e", ())]

    def handle(self, cmd: Command, now: float) -> list[Effect]:
        self.log.mark()  # every connection was sent the events so far
        p = _Pending()
        self._now = now
        if isinstance(cmd, Sit):
            self._sit(cmd, now, p)
        elif isinstance(cmd, Connect):
            self._connect(cmd, now, p)
        elif isinstance(cmd, Disconnect):
            self._disconnect(cmd, now, p)
        elif isinstance(cmd, Decide):
            self._decide(cmd, now, p)
        elif isinstance(cmd, Resign):
            self._resign(cmd, now, p)
        elif isinstance(cmd, Reveal):
            self._reveal(cmd, now, p)
        elif isinstance(cmd, Claim):
            self._claim(cmd, now, p)
        elif isinstance(cmd, Reserve):
            self._reserve(cmd, p)
        elif isinstance(cmd, Cancel):
            if self.status != "over":
                self._finish({"winner": None, "score": None, "reason": "cancelled"}, p)
        elif isinstance(cmd, TimerFired):
            self._timer(cmd, now, p)
        elif isinstance(cmd, Resume):
            self._resume(now, p)
        elif isinstance(cmd, Thought):
            self._thought(cmd, now, p)
        effects = self._effects(p, now)
        self.log.trim(self.persisted)
        return effects

    # -- commands --

    def _sit(self, cmd: Sit, now: float, p: _Pending) -> None:
        problem = None
        if self.status != "waiting" or self.seats[cmd.seat] is not None:
            # No match id: the asker may have guessed a code, and learns nothing more.
            problem = error(Code.MATCH_FULL, "that match is no longer open", cmd.re)
        elif cmd.bot is not None and cmd.bot not in self.bots:
            problem = error(Code.UNKNOWN_BOT, f"no bot called {cmd.bot!r}", cmd.re)
        elif (held := self.reserved_for(cmd.seat)) is not None and held != cmd.player:
            problem = error(Code.NOT_YOUR_SEAT, "that seat is kept for another player",
                            cmd.re, match=self.match_id)
        if problem is not None:
            if cmd.conn is None:
                raise ValueError(problem["message"])
            p.sends.append(Send(cmd.conn, problem))
            return
        self.seats[cmd.seat] = SeatInfo(cmd.player, cmd.name, cmd.bot)
        self.commits[cmd.seat] = cmd.commit if cmd.bot is None else None
        p.dirty = p.full = True
        if cmd.conn is not None:
            self.conns[cmd.conn] = _Conn(cmd.seat, 0, cmd.patches)
            if cmd.re is not None:
                p.sends.append(Send(cmd.conn, {
                    "t": "ack", "re": cmd.re, "match": self.match_id, "seat": cmd.seat,
                    "code": self.meta.get("code")}))
            self._prompt_to(cmd.conn, p)
        if all(self.seats):
            self.status = "playing"
            self.state = self.game.setup(self.config)
            self.reveal_since = now
            if not self._unrevealed():
                self._fix_dice()
            for s in self._humans():
                if not self._connected(s):
                    self.absent[s] = now
            self._advance(now, p)

    def _connect(self, cmd: Connect, now: float, p: _Pending) -> None:
        seat = None if cmd.watch else self.seat_of(cmd.player)
        if not cmd.watch and seat is None:
            p.sends.append(Send(cmd.conn, error(
                Code.NOT_YOUR_SEAT, "you hold no seat in this match", cmd.re,
                match=self.match_id)))
            return
        since = max(0, min(cmd.since, self.log.event_count))
        self.conns[cmd.conn] = _Conn(seat, since, cmd.patches)
        if cmd.re is not None:
            p.sends.append(Send(cmd.conn, {"t": "ack", "re": cmd.re, "match": self.match_id,
                                           "seat": seat}))
        if seat is not None and seat in self.absent:
            del self.absent[seat]
            self._presence(seat, p)
        self._prompt_to(cmd.conn, p)
        if self.status == "over":
            p.sends.append(Send(cmd.conn, self._over_message()))

    def _disconnect(self, cmd: Disconnect, now: float, p: _Pending) -> None:
        conn = self.conns.pop(cmd.conn, None)
        if conn is None or conn.seat is None:
            return
        seat = conn.seat
        if self._connected(seat) or seat not in self._humans():
            return
        if self.status == "playing":
            self.absent[seat] = now
            self._presence(seat, p)
        elif self.status == "waiting":
            self.absent[seat] = now  # its creator gone: the match expires after the grace

    def _decide(self, cmd: Decide, now: float, p: _Pending) -> None:
        if self._replay(cmd.conn, cmd.player, cmd.re, p):
            return
        seat = self._check_seat(cmd.conn, cmd.player, cmd.re, cmd.seat, p)
        if seat is None:
            return
        kind, seats, _ = self.to_act()
        if kind != "decide" or seat not in seats:
            self._refuse(cmd.conn, seat, Code.NOT_YOUR_TURN,
                         f"seat {seat} owes no decision now", cmd.re, p)
            return
        try:
            self._apply(seat, cmd.decision, cmd.version, "p", now, re=cmd.re)
        except ValueError as exc:
            code = ERROR_CODES.get(type(exc).__name__, Code.ILLEGAL_DECISION)
            self._refuse(cmd.conn, seat, code, str(exc), cmd.re, p)
            return
        self.timeouts[seat] = 0
        self._ack(cmd.conn, cmd.player, cmd.re, p)
        self._advance(now, p)

    def _resign(self, cmd: Resign, now: float, p: _Pending) -> None:
        if self._replay(cmd.conn, cmd.player, cmd.re, p):
            return
        held = self.seat_of(cmd.player)
        if self.status == "waiting" and held is not None and cmd.seat in (None, held):
            self._ack(cmd.conn, cmd.player, cmd.re, p)  # nobody joined: call it off
            self._finish({"winner": None, "score": None, "reason": "cancelled"}, p)
            return
        seat = self._check_seat(cmd.conn, cmd.player, cmd.re, cmd.seat, p)
        if seat is None:
            return
        self.log.append({"k": "r", "s": seat})
        self._ack(cmd.conn, cmd.player, cmd.re, p)
        self._finish({"winner": 1 - seat, "score": None, "reason": "resigned", "seat": seat}, p)

    def _reveal(self, cmd: Reveal, now: float, p: _Pending) -> None:
        seat = self.seat_of(cmd.player)
        if seat is None:
            p.sends.append(Send(cmd.conn, error(
                Code.NOT_YOUR_SEAT, "you hold no seat in this match", cmd.re,
                match=self.match_id)))
            return
        try:
            value = parse_contribution(cmd.contribution)
        except ValueError as exc:
            p.sends.append(Send(cmd.conn, error(Code.BAD_REVEAL, str(exc), cmd.re)))
            return
        committed = self.commits[seat]
        if committed is None or commitment(value) != committed:
            p.sends.append(Send(cmd.conn, error(
                Code.BAD_REVEAL, "this is not the contribution your seat committed to"
                if committed else "your seat committed to no contribution", cmd.re)))
            return
        if self.contributions[seat] is None:
            if self.dice_seed is not None:
                p.sends.append(Send(cmd.conn, error(
                    Code.REVEAL_CLOSED, "too late: the dice were fixed without it", cmd.re)))
                return
            self.contributions[seat] = value
            p.dirty = p.full = True
            if not self._unrevealed():
                self._fix_dice()
                p.broadcast = True
        p.sends.append(Send(cmd.conn, {"t": "ack", "re": cmd.re, "match": self.match_id}))
        if self.dice_seed is not None and self.status == "playing":
            self._advance(now, p)

    def _claim(self, cmd: Claim, now: float, p: _Pending) -> None:
        if self._replay(cmd.conn, cmd.player, cmd.re, p):
            return
        seat = self._check_seat(cmd.conn, cmd.player, cmd.re, None, p)
        if seat is None:
            return
        other = 1 - seat
        claim_at = self.claim_at(other)
        if claim_at is None or now < claim_at:
            extra: dict[str, Plain] = {"match": self.match_id, "claim_at": claim_at}
            message = ("your opponent is here" if claim_at is None else
                       f"your opponent has been away for less than {self.grace:g} seconds")
            p.sends.append(Send(cmd.conn, error(Code.CANNOT_CLAIM, message, cmd.re, **extra)))
            return
        self.log.append({"k": "f", "s": other, "why": "claimed"})
        self._ack(cmd.conn, cmd.player, cmd.re, p)
        self._finish({"winner": seat, "score": None, "reason": "claimed", "seat": other}, p)

    def _reserve(self, cmd: Reserve, p: _Pending) -> None:
        if self.status != "waiting" or any(self.seats):
            raise ValueError("only a new match's seats can be reserved")
        self.meta["reserved"] = [list(pn) for pn in cmd.players]
        self.meta["start_by"] = cmd.start_by
        p.dirty = p.full = True

    def _timer(self, cmd: TimerFired, now: float, p: _Pending) -> None:
        at = self._desired_timers().get(cmd.key)
        if at is None or at > now:
            return  # stale: cancelled or moved since it was set
        kind, _, arg = cmd.key.partition(":")
        if kind == "reveal":  # the unrevealed count as nothing: roll on
            self._fix_dice()
            p.full = True
            self._advance(now, p)
        elif kind == "expire":
            sat = [s for s in (0, 1) if self.seats[s] is not None]
            if self.meta.get("reserved") is None:
                self._finish({"winner": None, "score": None, "reason": "expired"}, p)
            elif len(sat) == 1:
                self.log.append({"k": "f", "s": 1 - sat[0], "why": "no_show"})
                self._finish({"winner": sat[0], "score": None, "reason": "no_show",
                              "seat": 1 - sat[0]}, p)
            else:
                self._finish({"winner": None, "score": None, "reason": "no_show_both"}, p)
        elif kind == "clock":
            seat = int(arg)
            self.bank[seat] = 0.0
            self.timeouts[seat] += 1
            p.dirty = p.full = True
            if self.timeouts[seat] >= self.clock.max_timeouts:
                self.log.append({"k": "f", "s": seat, "why": "timeouts"})
                self._finish({"winner": 1 - seat, "score": None, "reason": "timeouts",
                              "seat": seat}, p)
                return
            default = self.game.default_decision(self.state, seat)
            self._apply(seat, default, None, "t", now)
            self._advance(now, p)

    def _resume(self, now: float, p: _Pending) -> None:
        if self.status == "over":
            return
        # A restart forfeits nobody: owed decisions start afresh with restart_grace more
        # seconds (phones need time to notice and reconnect), and away time counts anew.
        self.absent = {s: now for s in self._humans() if not self._connected(s)}
        if self.status == "playing":
            self.owed = {}
            p.full = True  # the replayed tail folds into a snapshot once
            self.reveal_since = now  # downtime does not count against a reveal
            self._advance(now, p)
            self.owed = {s: since + self.restart_grace for s, since in self.owed.items()}

    # -- helpers --

    def _humans(self) -> list[int]:
        return [s for s, i in enumerate(self.seats) if i is not None and i.bot is None]

    def _connected(self, seat: int) -> bool:
        return any(c.seat == seat for c in self.conns.values())

    def _key(self, player: str, re: MsgId) -> str:
        return f"{player}|{type(re).__name__}|{re}"

    def _replay(self, conn: int, player: str, re: MsgId, p: _Pending) -> bool:
        cached = self.replies.get(self._key(player, re))
        if cached is None:
            return False
        p.sends.append(Send(conn, self._ack_message(cached[1], cached[2])))
        if conn in self.conns:
            self._prompt_to(conn, p)
        return True

    def _ack(self, conn: int, player: str, re: MsgId, p: _Pending) -> None:
        version = self._remember(player, re, self.seat_of(player))
        p.sends.append(Send(conn, self._ack_message(re, version)))

    def _remember(self, player: str, re: MsgId, seat: int | None) -> int | None:
        """Cache an applied command's reply (the ``ack`` at the current version)."""
        version = self._version()
        self.replies[self._key(player, re)] = (player if seat is None else seat, re, version)
        while len(self.replies) > self.reply_cache:
            del self.replies[next(iter(self.replies))]
        return version

    def _ack_message(self, re: MsgId, version: int | None) -> Message:
        return {"t": "ack", "re": re, "match": self.match_id, "version": version}

    def _player(self, who: int | str) -> str:
        """A reply's owner as stored: a seat number, or a player id."""
        if isinstance(who, str):
            return who
        info = self.seats[who]
        return "" if info is None else info.player

    def _check_seat(self, conn: int, player: str, re: MsgId, seat: int | None,
                    p: _Pending) -> int | None:
        held = self.seat_of(player)
        if held is None or (seat is not None and seat != held):
            p.sends.append(Send(conn, error(
                Code.NOT_YOUR_SEAT, "your token does not hold that seat", re,
                match=self.match_id)))
            return None
        if self.status == "waiting":
            p.sends.append(Send(conn, error(
                Code.NOT_STARTED, "the match has not started", re, match=self.match_id)))
            return None
        if self.status == "over":
            p.sends.append(Send(conn, error(
                Code.MATCH_OVER, "the match is over", re, match=self.match_id,
                result=self.result)))
            return None
        return held

    def _refuse(self, conn: int, seat: int, code: str, message: str, re: MsgId,
                p: _Pending) -> None:
        p.sends.append(Send(conn, error(
            code, message, re, match=self.match_id, version=self._version(),
            view=self.game.view(self.state, seat), legal=self._legal(seat),
            turns=list(self.turns))))

    def _version(self) -> int | None:
        return None if self.state is None else self.game.version(self.state)

    @property
    def version(self) -> int | None:
        """The current state's version (``None`` before the match starts)."""
        return self._version()

    def _legal(self, seat: int | None) -> list[str]:
        kind, seats, _ = self.to_act()
        if seat is None or kind != "decide" or seat not in seats:
            return []
        return list(self.game.legal(self.state, seat))

    def _apply(self, seat: int, decision: str, version: int | None, by: str,
               now: float, re: MsgId | None = None) -> None:
        """Apply one decision (raises the ruleset's ValueError, changing nothing).  A
        player's entry also keeps its message id and, if it changed, the seat's bank,
        so a restore that replays it rebuilds the reply cache and the clock."""
        before = self.game.version(self.state)
        kept = self._kept_legal.get(seat)
        self.state, events = self.game.apply(
            self.state, seat, decision, version=version,
            legal=kept[1] if kept is not None and kept[0] is self.state else None)
        entry: Plain = {"k": "d", "s": seat, "d": decision, "v": before, "by": by,
                        "e": events}
        if re is not None:
            entry["re"] = re
        self.turns[seat] += 1
        since = self.owed.pop(seat, None)
        if since is not None and by == "p":
            over = max(0.0, (now - since) - self.clock.decision)
            if over > 0:
                self.bank[seat] = max(0.0, self.bank[seat] - over)
                entry["b"] = self.bank[seat]
        self.log.append(entry)

    def _advance(self, now: float, p: _Pending) -> None:
        """Apply chance and bot decisions until a human owes one or the match ends."""
        p.dirty = p.broadcast = True
        for _ in range(MAX_STEPS):
            ta = self._game_to_act()
            if ta.kind == "over":
                result = dict(self.game.result(self.state) or {})
                result.setdefault("reason", "played")
                self._finish(result, p)
                return
            if ta.kind == "chance":
                if self.rng is None:  # waiting for contributions (see _desired_timers)
                    self.owed.clear()
                    return
                value, total = sample(self.rng, self.game.chance_outcomes(self.state))
                self.state, events = self.game.apply_chance(self.state, value)
                self.log.append({"k": "c", "o": value, "w": total, "e": events})
                continue
            bot_seats = [s for s in ta.seats if (i := self.seats[s]) and i.bot]
            quick = [s for s in bot_seats if not self._thinks(s)]
            if quick:
                for s in quick:
                    self._bot_move(s, now)
                continue
            for s in bot_seats:
                self._think(s, p)
            humans = [s for s in ta.seats if s not in bot_seats]
            for s in list(self.owed):
                if s not in humans:
                    del self.owed[s]
            for s in humans:
                self.owed.setdefault(s, now)
            return
        raise RuntimeError("the ruleset did not reach a human decision")

    def _bot_seed(self, seat: int) -> bytes:
        version = self.game.version(self.state)
        return self.seed + b"bot" + version.to_bytes(8, "big") + bytes([seat])

    def _thinks(self, seat: int) -> bool:
        info = self.seats[seat]
        return info is not None and bool(getattr(self.bots.get(info.bot or ""), "thinks", False))

    def _bot_move(self, seat: int, now: float) -> None:
        info = self.seats[seat]
        assert info is not None and info.bot is not None
        legal = list(self.game.legal(self.state, seat))
        rng = random.Random(self._bot_seed(seat))
        choice = self.bots[info.bot](self.game.view(self.state, seat), legal, rng)
        if choice not in legal:
            choice = self.game.default_decision(self.state, seat)
        self._apply(seat, choice, None, "b", now)

    def _think(self, seat: int, p: _Pending) -> None:
        """Ask the host to run a thinking bot, once per open question."""
        info = self.seats[seat]
        if seat in self.pondering or info is None or info.bot is None:
            return
        asked = self.pondering[seat] = self.game.version(self.state)
        p.thinks.append(Think(seat, asked, info.bot, self.game.view(self.state, seat),
                              list(self.game.legal(self.state, seat)), self._bot_seed(seat)))

    def _thought(self, cmd: Thought, now: float, p: _Pending) -> None:
        """A thinking bot's answer: applied if its question is still open (a bot's
        question stays the same while the other seat makes its own secret choice), an
        illegal answer (a failed bot) replaced by the default decision."""
        if self.pondering.get(cmd.seat) != cmd.asked:
            return
        del self.pondering[cmd.seat]
        kind, seats, _ = self.to_act()
        if self.status != "playing" or kind != "decide" or cmd.seat not in seats:
            return
        choice = cmd.decision
        if choice not in self.game.legal(self.state, cmd.seat):
            choice = self.game.default_decision(self.state, cmd.seat)
        self._apply(cmd.seat, choice, None, "b", now)
        self._advance(now, p)

    def _finish(self, result: Plain, p: _Pending) -> None:
        self.status = "over"
        self.ended = self._now
        self.result = result
        self.owed.clear()
        self.absent.clear()
        p.dirty = p.full = p.broadcast = True
        p.finished = result

    def _over_message(self) -> Message:
        fair: Message = {}
        if self.contributing:  # else a match from before format 3: no contributions
            fair = {"commits": list(self.commits),
                    "contributions": [None if c is None else c.hex()
                                      for c in self.contributions]}
        # ``log`` is None when the log's first entries are not held: the host fills it
        # from the store, where the Persist before this message put every entry.
        return {"t": "over", "match": self.match_id, "result": self.result,
                "seed": self.seed.hex(), "commit": self.commit, **fair, "config": self.config,
                "game": self.game.name,
                "log": self.public_log() if self.log.complete else None}

    def reserved_for(self, seat: int) -> str | None:
        """The player a reserved seat is kept for (``None``: not reserved)."""
        reserved = self.meta.get("reserved")
        return None if not reserved else str(reserved[seat][0])

    def claim_at(self, seat: int) -> float | None:
        """When the opponent of ``seat`` may claim the win (``None``: not away)."""
        since = self.absent.get(seat)
        if since is None or self.status != "playing" or seat not in self._humans():
            return None
        return since + self.grace

    def presence(self, seat: int) -> Message:
        """A seat's presence as the other seat sees it: ``connected``, or
        ``reconnecting`` with ``since`` (away since) and ``claim_at``."""
        since = self.absent.get(seat)
        if since is None or self.status != "playing":
            return {"state": "connected"}
        return {"state": "reconnecting", "since": since, "claim_at": self.claim_at(seat)}

    def _presence(self, seat: int, p: _Pending) -> None:
        for conn, c in self.conns.items():
            if c.seat != seat:
                p.sends.append(Send(conn, {"t": "presence", "match": self.match_id,
                                           "seat": seat, **self.presence(seat)}))

    def _prompt_to(self, conn: int, p: _Pending,
                   cache: dict[tuple[int | None, int, int | None], Message] | None = None,
                   common: _Common | None = None) -> None:
        c = self.conns[conn]
        base = c.base if c.patches else None
        key = (c.seat, c.cursor, base)
        msg = cache.get(key) if cache is not None else None
        if msg is None:
            msg = self._prompt(c.seat, c.cursor, base, common)
            if cache is not None:
                cache[key] = msg
        c.cursor = self.log.event_count
        c.base = msg["version"] if self.state is not None else None
        p.sends.append(Send(conn, msg))

    def _common(self) -> _Common:
        """The parts of a prompt every seat's shares (built once when both are)."""
        kind, seats, secret = self.to_act()
        return (kind, seats, self.status, self._version(),
                {"kind": kind, "seats": list(seats), "secret": secret},
                list(self.turns),
                {"decision": self.clock.decision,
                 "bank": self._bank_shown(),
                 "deadline": [self._deadline(s) for s in (0, 1)],
                 "timeouts": list(self.timeouts)},
                [self.presence(s) for s in (0, 1)],
                [c is not None for c in self.contributions])

    def _bank_shown(self) -> list[float]:
        """The banks as prompts show them (to the ms); rounded again only when they
        changed (a decision over its time), not twice a decision."""
        shown = self._banks
        if shown is None or shown[0] != self.bank:
            shown = self._banks = (list(self.bank), [round(b, 3) for b in self.bank])
        return list(shown[1])

    def _legal_for(self, seat: int) -> list[str]:
        legal = self.game.legal(self.state, seat)
        self._kept_legal[seat] = (self.state, legal)
        return list(legal)

    def _seat_view(self, seat: int | None) -> tuple[Plain, int | None, Patch | None]:
        """``view(state, seat)``, built once per state, with the previous view's version
        and the patch from it."""
        cached = self._views.get(seat)
        if cached is not None and cached[0] is self.state:
            return cached[1], cached[2], cached[3]
        view = self.game.view(self.state, seat)
        before = None if cached is None else self.game.version(cached[0])
        patch = None if cached is None else diff(cached[1], view)
        self._views[seat] = (self.state, view, before, patch)
        return view, before, patch

    def _prompt(self, seat: int | None, since: int, base: int | None = None,
                common: _Common | None = None) -> Message:
        """The prompt for ``seat`` with the events from ``since``.  Given ``base`` (the
        version of the view the connection holds; protocol 2), the view goes as a patch
        from it when there is one: ``base`` and ``patch`` instead of ``view``, and
        without the fields that never change while a match is played (``game``,
        ``players``, ``rated``, ``commit``, ``commits``, ``code``, ``watch_code``).
        ``common``: what every seat's prompt of this moment shares, when several are
        built (:meth:`_common`)."""
        if common is None:
            common = self._common()
        kind, seats, status, version, to_act, turns, clock, presence, revealed = common
        playing = self.state is not None
        msg: Message = {
            "t": "prompt",
            "match": self.match_id,
            "seat": seat,
            "status": status,
            "version": version,
            "events": self.game.redact(self.log.events(since), seat) if playing else [],
            "from": since,
            "next": self.log.event_count,
            "to_act": to_act,
            "legal": self._legal_for(seat) if kind == "decide" and seat in seats else [],
            "turns": turns,
            "clock": clock,
            "presence": presence,
            "revealed": revealed,
        }
        if not playing:
            msg["view"] = None
        else:
            view, before, patch = self._seat_view(seat)
            if base is not None and base == version:
                msg["base"], msg["patch"] = base, []
                return msg
            if base is not None and base == before and patch is not None:
                msg["base"], msg["patch"] = base, patch
                return msg
            msg["view"] = view
        msg["game"] = self.game.name
        msg["players"] = [None if i is None else {"name": i.name, "bot": i.bot}
                          for i in self.seats]
        msg["rated"] = bool(self.meta.get("rated"))
        msg["commit"] = self.commit
        msg["commits"] = list(self.commits)
        msg["code"] = self.meta.get("code")
        # The invitation to watch a private match: for its players to pass on.
        msg["watch_code"] = None if seat is None else self.meta.get("watch_code")
        return msg

    def _deadline(self, seat: int) -> float | None:
        since = self.owed.get(seat)
        if since is None:
            return None
        return since + self.clock.decision + self.bank[seat]

    def _desired_timers(self) -> dict[str, float]:
        out: dict[str, float] = {}
        if self.status == "waiting":
            start_by = self.meta.get("start_by")
            if self.meta.get("reserved"):  # kept for two players: until start_by only
                out["expire"] = (float(start_by) if isinstance(start_by, int | float)
                                 else self.created + self.waiting_ttl)
            else:
                # Nobody joined in time, or its creator has been gone for the grace: a
                # waiting match must not outlive the person waiting (or hold a code).
                out["expire"] = min([self.created + self.waiting_ttl,
                                     *(since + self.waiting_grace
                                       for since in self.absent.values())])
        elif self.status == "playing":
            if self.dice_seed is None:
                out["reveal"] = self.reveal_since + self.reveal_timeout
            for s in self.owed:
                if s in self._humans():
                    out[f"clock:{s}"] = self._deadline(s) or 0.0
        return out

    def _effects(self, p: _Pending, now: float) -> list[Effect]:
        out: list[Effect] = []
        if p.dirty:
            entries = self.log.packed(self.persisted)
            snapshot = None
            if p.full or len(self.log) - self.snapshotted >= self.snapshot_every:
                snapshot = self.snapshot()
                self.snapshotted = len(self.log)
            out.append(Persist(snapshot, entries, self.persisted, self.status == "over"))
            self.persisted = len(self.log)
        out.extend(p.sends)
        if p.broadcast:
            cache: dict[tuple[int | None, int, int | None], Message] = {}
            sends = _Pending()
            common = self._common() if self.conns else None
            for conn in self.conns:
                self._prompt_to(conn, sends, cache, common)
            if p.finished is not None:
                over = self._over_message()
                sends.sends.extend(Send(conn, over) for conn in self.conns)
            out.extend(sends.sends)
        want = self._desired_timers()
        for key in sorted(self.timers.keys() - want.keys()):
            out.append(CancelTimer(key))
        for key in sorted(want):
            if self.timers.get(key) != want[key]:
                out.append(SetTimer(key, want[key]))
        self.timers = want
        if p.finished is not None:
            out.append(Finished(p.finished))
        elif self.status == "playing":
            out.extend(p.thinks)
        return out
