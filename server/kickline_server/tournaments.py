"""The server's tournaments: one host per event, between the websocket and the machine.

A :class:`Host` owns one :class:`~.tournament.machine.Tournament`. It runs the event's
commands one at a time (organisers', players', and the server's own: match results),
writes the events they produce to the store BEFORE it answers or acts, and then acts:
creates a started round's matches (reserved seats for the two players, "your match is
ready"), stops a match the organiser decided, tells the event's watchers it changed.

:class:`Tournaments` holds every host, loads them at start (replaying their events) and
reconciles what a crash may have cut short: a started round's matches are made if they
are missing, and results recorded while the event was not listening are applied. Every
step is idempotent (derived match ids, command ids), so a restart at any point ends in
the same event as an uninterrupted run.

Swiss pairing runs in a worker thread (the pairer's child process): the event's other
commands wait for it, the rest of the server does not.
"""

from __future__ import annotations

import base64
import hashlib
import logging
import secrets
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

import anyio
from anyio.abc import TaskStatus

from .protocol import BadRequest
from .store import LogConflict, StoreError, StoreUnavailable, pack, unpack
from .tournament import Draw, PairingInput, Refused, Tournament
from .tournament.deadlines import due_forfeits
from .tournament.deadlines import start_by as no_show_deadline
from .tournament.export import status, view
from .tournament.swiss import GacruxPairer

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class TournamentLimits:
    pairing_timeout: float = 600.0  # seconds one Swiss pairing may take
    max_tournaments: int = 200  # live (unfinished) events per server
    create_concurrency: int = 16  # matches created at once when a round starts
    retry_min: float = 0.05
    retry_max: float = 2.0
    retries: int = 8  # a store write retried this often before the command fails
    no_show_check: float = 5.0  # seconds between checks for no-shows without a match


class MatchMaker(Protocol):
    """What a host needs of the match server (the lobby implements it)."""

    async def reserve(self, match_id: str, players: tuple[tuple[str, str], tuple[str, str]],
                      *, config: Mapping[str, Any], decision: float, bank: float,
                      rated: bool, start_by: float, meta: Mapping[str, Any]) -> None:
        """Make the match (seat 0 home) unless a match with this id exists already."""
        ...

    async def stop(self, match_id: str) -> None:
        """End a live match the organiser has decided; nothing if it is not live."""
        ...

    async def record(self, match_id: str) -> dict[str, Any] | None:
        """A finished match's record, or ``None`` if it has not finished."""
        ...

    async def rating(self, player: str, mode: str) -> int | None:
        """The player's rating in ``mode`` (``None``: unrated)."""
        ...


class EventStore(Protocol):
    async def append_events(self, tid: str, start: int, events: Sequence[bytes]) -> None: ...

    async def tournament_events(self, tid: str) -> list[bytes]: ...

    async def tournament_length(self, tid: str) -> int: ...

    async def organisers(self) -> set[str]: ...


class _NeedsPairing(Exception):
    def __init__(self, inp: PairingInput) -> None:
        self.inp = inp


class _Ask:
    """A pairer that stops the first pass: the draw is computed outside the machine."""

    def pair(self, inp: PairingInput) -> Draw:
        raise _NeedsPairing(inp)


@dataclass(frozen=True, slots=True)
class _Given:
    """The second pass: the draw computed outside, or the pairer's refusal (which the
    command may answer itself: a withdrawal keeps the draft when no re-pairing exists)."""

    draw: Draw | None
    refused: Refused | None = None

    def pair(self, inp: PairingInput) -> Draw:
        if self.refused is not None:
            raise self.refused
        assert self.draw is not None
        return self.draw


def result_of(record: Mapping[str, Any]) -> dict[str, Any] | None:
    """A match record as a board's result (seat 0 is home); ``None`` if it ended
    without one (the organiser cancelled it)."""
    reason = record.get("reason")
    winner = record.get("winner")
    side = {0: "home", 1: "away"}.get(winner) if winner is not None else None
    if reason == "cancelled":
        return None
    if reason in ("no_show", "no_show_both", "expired", "abandoned"):
        return {"kind": "forfeit", "winner": side}
    score = record.get("score")
    goals = [int(score[0]), int(score[1])] if isinstance(score, list | tuple) \
        and len(score) == 2 and all(isinstance(g, int) for g in score) else None
    # A Kickline match level on goals is decided by the shootout.
    shootout = bool(goals is not None and side is not None and goals[0] == goals[1])
    return {"kind": "played", "winner": side, "goals": goals, "shootout": shootout}


class Host:
    """One event. ``command`` is the only way in; see the module docstring."""

    def __init__(self, t: Tournament, store: EventStore, maker: MatchMaker, *,
                 pairer: Any, limits: TournamentLimits,
                 clock: Callable[[], float] = time.time,
                 changed: Callable[[Host], None] | None = None) -> None:
        self.t = t
        self.store = store
        self.maker = maker
        self.pairer = pairer
        self.limits = limits
        self.clock = clock
        self.changed = changed
        self.lock = anyio.Lock()
        self.pairing = False  # a Swiss pairing is running (shown on the screens)
        # Boards (round, board) whose match could not be made: the periodic check
        # tries again (after a restart, ``reconcile`` makes every missing match).
        self.unmade: set[tuple[int, int]] = set()

    async def command(self, cmd: dict[str, Any]) -> dict[str, Any]:
        async with self.lock:
            cmd = {**cmd, "at": self.clock()}
            try:
                return await self._decide(cmd)
            except LogConflict as exc:
                # Another process wrote to this event first (several processes on one
                # Redis): read it back and decide the command again, on what is stored.
                log.info("tournament %s: %s; deciding again", self.t.id, exc)
                await self.reload()
            try:
                return await self._decide(cmd)
            except LogConflict:
                await self.reload()
                raise Refused("busy", "this event changed meanwhile; try again") from None

    async def _decide(self, cmd: dict[str, Any]) -> dict[str, Any]:
        cur = self.t.current()
        if (cmd.get("op") == "start" and cmd.get("role") == "organiser" and cur is not None
                and cur.status == "live" and cmd.get("round") == cur.number):
            # "Start" again on a started round makes whatever matches are missing
            # (a match the server could not make at the time): idempotent.
            await self.make_matches([b.number for b in cur.boards], cur.number)
            return {"round": cur.number}
        try:
            events, reply = self.t.handle(cmd, _Ask())
        except _NeedsPairing as need:
            self.pairing = True
            self._changed()
            try:
                given = _Given(await anyio.to_thread.run_sync(self.pairer.pair, need.inp))
            except Refused as exc:
                given = _Given(None, exc)
            finally:
                self.pairing = False
            events, reply = self.t.handle(cmd, given)
        if events:
            await self._persist(events)
            await self._act(events)
            self._changed()
        return reply

    def _changed(self) -> None:
        if self.changed is not None:
            self.changed(self)

    async def _persist(self, events: list[dict[str, Any]]) -> None:
        start = self.t.version - len(events)
        delay = self.limits.retry_min
        for attempt in range(self.limits.retries):
            try:
                await self.store.append_events(self.t.id, start, [pack(e) for e in events])
                return
            except StoreUnavailable as exc:
                if attempt + 1 == self.limits.retries:
                    break
                log.warning("tournament %s: store unavailable (%s); retrying", self.t.id, exc)
                await anyio.sleep(delay)
                delay = min(delay * 2, self.limits.retry_max)
        # Nothing was answered: rebuild the event from what is stored, so the state
        # matches the store, and tell the sender to try again.
        await self.reload()
        raise Refused("busy", "the server cannot save right now; try again in a moment")

    async def reload(self) -> None:
        t = Tournament(self.t.id)
        for raw in await self.store.tournament_events(self.t.id):
            t.apply(unpack(raw))
        self.t = t

    # -- acting on what was decided --

    async def _act(self, events: Sequence[dict[str, Any]]) -> None:
        for e in events:
            kind = e["e"]
            if kind == "started":
                rnd = self.t.round(e["round"])
                await self.make_matches([b.number for b in rnd.boards
                                         if b.match and b.result is None], rnd.number)
            elif kind == "repaired":
                for match in e.get("cancel", []):
                    await self.maker.stop(match)
                await self.make_matches([b[0] for b in e["boards"]], e["round"])
            elif kind == "result" and e.get("stop"):
                await self.maker.stop(e["stop"])
            elif kind == "claimed":
                await self._claimed_mid_round(e["pid"])

    async def _claimed_mid_round(self, pid: int) -> None:
        """A roster line claimed while its round is live: its board gets its match now
        (it had none: nobody could sit in the seat)."""
        cur = self.t.current()
        board = cur.board_of(pid) if cur is not None and cur.status == "live" else None
        if cur is None or board is None or board.match is None or board.result is not None:
            return
        try:
            await self.make_matches([board.number], cur.number)
        except Refused as exc:  # the claim is saved; the organiser's start retries
            log.warning("tournament %s: %s", self.t.id, exc.message)

    async def catch_up(self) -> None:
        """Read the event back if its stored log has moved on from this copy (another
        process on the same Redis wrote to it), and tell this process's watchers."""
        if await self.store.tournament_length(self.t.id) == self.t.version:
            return
        async with self.lock:
            await self.reload()
        self._changed()

    async def overdue(self) -> None:
        """Make the matches that could not be made before (the store was down); then
        forfeit the boards the no-show rule decides without a match (a roster line
        nobody claimed): ``deadlines.due_forfeits``. The command id names the board,
        so a check repeated, or redone after a restart, records it once."""
        if not self.unmade and not due_forfeits(self.t, self.clock()):
            return
        # Something to do (rarely): first read the event back from the store, so a
        # copy another process has moved on from never writes over its log.
        async with self.lock:
            await self.reload()
        cur = self.t.current()
        unmade = sorted(n for r, n in self.unmade if cur is not None and r == cur.number)
        self.unmade = set()
        if unmade and cur is not None and cur.status == "live":
            try:
                async with self.lock:
                    await self.make_matches(unmade, cur.number)
            except Refused as exc:
                log.info("tournament %s: %s", self.t.id, exc.message)
        for rnd, num, absent in due_forfeits(self.t, self.clock()):
            try:
                await self.command({"op": "forfeit", "id": f"no_show/{rnd}/{num}",
                                    "role": "system", "by": None, "round": rnd,
                                    "board": num, "absent": absent})
            except Refused as exc:  # decided meanwhile, or the store is down: next time
                log.info("tournament %s: no-show of round %d board %d not recorded: %s",
                         self.t.id, rnd, num, exc.message)

    async def make_matches(self, boards: Sequence[int], rnd_no: int) -> None:
        """Create the matches of ``boards`` (idempotent: an existing match is kept)."""
        s = self.t.s
        rnd = self.t.round(rnd_no)
        # The no-show window runs from when the match exists: a match made late (after a
        # restart, or a failure) gives its players the whole window too, up to the
        # round's deadline.
        start_by = no_show_deadline(self.t, rnd, self.clock())
        sem = anyio.Semaphore(self.limits.create_concurrency)
        organisers = sorted(await self.store.organisers())  # they may watch every board

        async def one(num: int) -> None:
            b = rnd.board(num)
            if b.match is None or b.result is not None:
                return
            home, away = self.t.entries[b.home], self.t.entries[b.away]
            if home.account is None or away.account is None:
                return  # an unclaimed roster line: the organiser forfeits or re-pairs it
            # Seat 0 is the pairing's home (white): the match plays no toss.
            config = {"mode": s.match.mode, "board": s.match.board, "home": 0,
                      "teams": [s.match.team_for(home.team), s.match.team_for(away.team)]}
            async with sem:
                try:
                    await self.maker.reserve(
                        b.match, ((home.account, home.name), (away.account, away.name)),
                        config=config, decision=s.match.decision, bank=s.match.bank,
                        rated=s.rated, start_by=start_by,
                        meta={"tournament": {"id": self.t.id, "name": s.name,
                                             "round": rnd_no, "board": num},
                              "organisers": organisers})
                    self.unmade.discard((rnd_no, num))
                except (StoreError, BadRequest, ValueError) as exc:
                    failed.append(num)
                    self.unmade.add((rnd_no, num))
                    log.warning("tournament %s: the match of round %d board %d could not be "
                                "made (%s); the organiser's start retries it", self.t.id,
                                rnd_no, num, getattr(exc, "message", exc))

        failed: list[int] = []
        async with anyio.create_task_group() as tg:
            for num in boards:
                tg.start_soon(one, num)
        if failed:
            raise Refused("busy", f"{len(failed)} of the round's matches could not be made "
                          f"yet (boards {', '.join(map(str, sorted(failed)))}): press start "
                          "again in a moment to make them")

    async def on_record(self, record: Mapping[str, Any]) -> None:
        """A match of this event finished: its result goes to the board."""
        meta = record.get("tournament") or {}
        res = result_of(record)
        if res is None:
            return
        try:
            await self.command({"op": "result", "id": f"match/{record['match']}",
                                "role": "system", "by": None, "round": meta.get("round"),
                                "board": meta.get("board"), "match": record["match"],
                                "result": res})
        except Refused as exc:
            # The organiser decided the board first, or re-paired it: nothing to do.
            log.info("tournament %s: result of %s not applied: %s", self.t.id,
                     record.get("match"), exc.message)

    async def reconcile(self) -> None:
        """After a restart: apply results recorded while nobody listened, and make the
        started round's matches that are missing."""
        cur = self.t.current()
        if cur is None or cur.status != "live":
            return
        missing = []
        for b in cur.boards:
            if b.match is None or b.result is not None:
                continue
            record = await self.maker.record(b.match)
            if record is not None:
                await self.on_record(record)
            else:
                missing.append(b.number)
        if missing:
            async with self.lock:
                await self.make_matches(missing, cur.number)

    def summary(self) -> dict[str, Any]:
        s = self.t.s
        return {"tournament": self.t.id, "name": s.name, "format": s.format,
                "status": status(self.t), "players": sum(
                    1 for e in self.t.entries.values() if e.status != "withdrawn"),
                "rounds": len(self.t.rounds), "total_rounds": self.t.total_rounds(),
                "start_at": s.start_at, "open_entry": s.open_entry}

    def view(self, viewer: str | None, organiser: bool) -> dict[str, Any]:
        out = view(self.t, viewer=viewer, organiser=organiser)
        out["pairing"] = self.pairing
        live = getattr(self.maker, "live", None)
        cur = self.t.current()
        if live is not None and cur is not None and cur.status == "live":
            boards = out["rounds"][-1]["boards"]
            for b in boards:
                if b["match"] and b["result"] is None:
                    b["live"] = live(b["match"])
        return out


def default_pairer(limits: TournamentLimits) -> GacruxPairer:
    return GacruxPairer(timeout=limits.pairing_timeout)


class TournamentStore(EventStore, Protocol):
    async def create_tournament(self, tid: str, created: float) -> bool:
        """Register a new event id; ``False`` if it is taken (nothing written)."""
        ...

    async def tournament_ids(self, *, unfinished: bool) -> list[str]:
        """Event ids, newest first; only the unfinished ones if asked."""
        ...

    async def finish_tournament(self, tid: str) -> None: ...

    async def organisers(self) -> set[str]: ...

    async def grant_organiser(self, player: str) -> None: ...

    async def count_accounts(self, at_most: int) -> int: ...


def event_id(account: str, msg_id: str) -> str:
    """The id of the event an organiser's ``create`` makes: derived from who sent it
    and its message id, so a resent create finds the event it made instead of making a
    second one."""
    digest = hashlib.sha256(f"{account}/{msg_id}".encode()).digest()
    return base64.b32encode(digest[:10]).decode().lower()


class Tournaments:
    """Every event of this server: see the module docstring. ``notify(tid, version)`` is
    called after an event changed (the websocket layer tells its watchers)."""

    def __init__(self, store: TournamentStore, maker: MatchMaker, *,
                 limits: TournamentLimits = TournamentLimits(), pairer: Any = None,
                 clock: Callable[[], float] = time.time,
                 notify: Callable[[str, int], None] | None = None) -> None:
        self.store = store
        self.maker = maker
        self.limits = limits
        self.pairer = pairer if pairer is not None else default_pairer(limits)
        self.clock = clock
        self.notify = notify
        self.hosts: dict[str, Host] = {}
        self._loading: dict[str, anyio.Lock] = {}

    def _host(self, t: Tournament) -> Host:
        host = Host(t, self.store, self.maker, pairer=self.pairer, limits=self.limits,
                    clock=self.clock, changed=self._changed)
        self.hosts[t.id] = host
        return host

    def _changed(self, host: Host) -> None:
        if self.notify is not None:
            self.notify(host.t.id, host.t.version)

    async def load(self) -> int:
        """Replay every unfinished event and reconcile its live round; returns how many."""
        n = 0
        for tid in await self.store.tournament_ids(unfinished=True):
            host = await self.get(tid)
            if host is not None:
                await host.reconcile()
                n += 1
        await self.overdue()
        return n

    async def run(self, *, task_status: TaskStatus[None] = anyio.TASK_STATUS_IGNORED) -> None:
        """Check the live events' no-shows that no match decides, every
        ``limits.no_show_check`` seconds, for as long as the server runs."""
        task_status.started()
        while True:
            await anyio.sleep(self.limits.no_show_check)
            await self.overdue()

    async def overdue(self) -> None:
        for host in list(self.hosts.values()):
            if host.t.settings is None or host.t.finished:
                continue
            try:
                await host.catch_up()
                await host.overdue()
                if host.t.finished:
                    await self.store.finish_tournament(host.t.id)
            except StoreError as exc:  # the next check tries again
                log.warning("tournament %s: no-show check failed: %s", host.t.id, exc)

    async def get(self, tid: str) -> Host | None:
        """The event's host, loaded from the store the first time it is asked for."""
        host = self.hosts.get(tid)
        if host is not None:
            return host
        lock = self._loading.setdefault(tid, anyio.Lock())
        async with lock:
            host = self.hosts.get(tid)
            if host is None:
                raw = await self.store.tournament_events(tid)
                if raw:
                    t = Tournament(tid)
                    for e in raw:
                        t.apply(unpack(e))
                    host = self._host(t)
        self._loading.pop(tid, None)
        return host

    async def is_organiser(self, account: str | None) -> bool:
        # Read every time: ``kickline admin grant`` may have written it meanwhile.
        return account is not None and account in await self.store.organisers()

    async def create(self, account: str, msg_id: str, settings: Any) -> dict[str, Any]:
        """An organiser creates an event; resending the same message finds it again."""
        if not await self.is_organiser(account):
            raise Refused("not_organiser", "only an organiser can create an event (the "
                          "server's operator grants the role: kickline admin grant NAME)")
        live = sum(1 for h in self.hosts.values() if not h.t.finished)
        if live >= self.limits.max_tournaments:
            raise Refused("busy", f"this server runs {live} events already; close one first")
        tid = event_id(account, msg_id)
        host = await self.get(tid)
        if host is None and not await self.store.create_tournament(tid, self.clock()):
            host = await self.get(tid)  # made by a resend racing this one
        if host is None:
            host = self._host(Tournament(tid))
        cmd = {"op": "create", "id": f"{account}/{msg_id}", "by": account,
               "role": "organiser", "settings": settings,
               "seed": int.from_bytes(hashlib.sha256(tid.encode()).digest()[:4], "big")}
        try:
            return await host.command(cmd)
        except Refused:
            if host.t.settings is None:
                self.hosts.pop(tid, None)
            raise

    async def command(self, tid: str, account: str | None, name: str | None, msg_id: str,
                      op: str, args: Mapping[str, Any]) -> dict[str, Any]:
        """Any other command, from a signed-in player or organiser."""
        host = await self.get(tid)
        if host is None:
            raise Refused("not_found", "there is no such event")
        # The server fills these in; a claim's token is the one the player sends.
        reserved = {"op", "id", "by", "role", "at", "seed",
                    *(() if op == "claim" else ("token",))} & set(args)
        if reserved or op in ("create", "result"):
            raise Refused("bad_field", "that command cannot be sent")
        role = "organiser" if await self.is_organiser(account) else "player"
        cmd: dict[str, Any] = {**args, "op": op, "id": f"{account}/{msg_id}", "by": account,
                               "role": role}
        if op in ("join", "claim"):
            if account is None:
                raise Refused("sign_in_required", "sign in to enter an event")
            cmd["name"] = name
            cmd["rating"] = await self.maker.rating(account, host.t.s.match.mode)
            if op == "claim":
                cmd["token"] = args.get("token")
        if op == "add_entry":
            cmd["token"] = secrets.token_urlsafe(16)
        reply = await host.command(cmd)
        if host.t.finished:
            await self.store.finish_tournament(tid)
        return reply

    async def on_record(self, record: Mapping[str, Any]) -> None:
        """The recorder's listener: a finished match of an event goes to its board."""
        meta = record.get("tournament")
        if not isinstance(meta, dict) or not isinstance(meta.get("id"), str):
            return
        host = await self.get(meta["id"])
        if host is not None:
            await host.on_record(record)
            if host.t.finished:
                await self.store.finish_tournament(host.t.id)

    async def listing(self, *, limit: int = 100) -> list[dict[str, Any]]:
        out = []
        for tid in (await self.store.tournament_ids(unfinished=False))[:limit]:
            host = await self.get(tid)
            if host is not None and host.t.settings is not None:
                out.append(host.summary())
        return out

    async def on_register(self, player: str) -> None:
        """A new account was made: the first account of a fresh server (no organiser
        yet, no other account) becomes its organiser."""
        if not await self.store.organisers() and await self.store.count_accounts(2) == 1:
            await self.store.grant_organiser(player)
            log.info("the server's first account holds the organiser role")


__all__ = ["EventStore", "Host", "MatchMaker", "StoreError", "TournamentLimits",
           "TournamentStore", "Tournaments", "event_id", "result_of"]
