"""Quick match: a casual and a rated queue per (game, quick key), around the pure rules
of :mod:`.matchqueue`.

The lobby validates a ``quick`` request and hands it to :meth:`Matchmaker.request`;
the matchmaker queues it (its :class:`~.matchqueue.QueueState`), pairs the queue at once
and again every :attr:`QueueLimits.tick` seconds (a rated window widens with waiting),
and calls the lobby's ``make`` with each pair, which makes and starts the match.  It
also answers how many wait (``queues``; ``queue`` messages to those waiting), drops a
player's entry when their last connection closes, and lets one who comes back within
:attr:`QueueLimits.requeue_grace` keep the time they had waited.

**What a restart does.**  With one process the queue lives in it
(:class:`~.matchqueue.MemoryQueue`) and every connection closes on a restart; the client
re-sends its ``quick`` with the same id when it reconnects.  A request that was paired
before the restart reopens its match (the lobby keeps request ids in the match's
snapshot); one still waiting queues again (waiting time counts from then on).

**Cluster-wide.**  With Redis the state is a :class:`~.matchqueue_redis.RedisQueue`
shared by every process, and :attr:`Matchmaker.node` is set: entries other processes
queued pair here too (:attr:`Matchmaker.remote_ticket` gives each a connection through
the router), and :meth:`~.matchqueue.QueueState.take` is atomic, so a pair is made
once.  What stays per process is :attr:`Matchmaker.tickets` (the connections to tell).
docs/SERVER.md, "One queue for every process".
"""

from __future__ import annotations

import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field, replace
from typing import Any

import anyio
from anyio.abc import TaskStatus

from .matchqueue import Entry, MemoryQueue, QueueState, Window, pair, partner
from .protocol import BadRequest, Code, Message, MsgId
from .store import StoreError
from .transport import Connection

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class QueueLimits:
    window: Window = field(default_factory=Window)
    """The rated window: start ±50, +50 every 5 s of waiting, cap ±400."""
    tick: float = 1.0
    """Seconds between re-pairings of the rated queues (their windows widen) and
    between the ``queue`` counts sent to the players waiting."""
    requeue_grace: float = 120.0
    """A player who queues again this soon after their connection dropped keeps the time
    they had waited (their window stays as wide)."""

    def __post_init__(self) -> None:
        if self.tick <= 0 or self.requeue_grace < 0:
            raise ValueError(f"the quick-match queue needs queue_tick > 0 ({self.tick:g}) "
                             f"and requeue_grace >= 0 ({self.requeue_grace:g})")


@dataclass(slots=True)
class Ticket:
    """One waiting request as this process knows it: the entry and whom to tell."""

    key: str
    entry: Entry
    conn: Connection
    re: MsgId
    acked: bool = False
    remote: bool = False
    """Its connection is on another process (a :class:`~.routing.RemoteConnection`)."""

    @property
    def rated(self) -> bool:
        return queue_rated(self.key)


def queue_key(game: str, quick_key: str, rated: bool) -> str:
    return f"{'rated' if rated else 'casual'}|{game}|{quick_key}"


def queue_rated(key: str) -> bool:
    return key.startswith("rated|")


RemoteTicket = Callable[[str, Entry], Ticket | None]
"""A ticket for an entry another process queued (its connection reached through the
router), or ``None`` when that entry is not another process's."""

MakeMatch = Callable[[Ticket, Ticket], Awaitable[None]]
"""Makes the match for a pair (the one who waited longer first, in seat 0) and tells
both (``matched``); raises :class:`~.protocol.BadRequest` or
:class:`~.store.StoreError` when it cannot (then both wait on, and hear so in their
next ``queue`` message)."""


class Matchmaker:
    """The quick-match queues of one server process (see the module docstring)."""

    def __init__(self, make: MakeMatch, *, state: QueueState | None = None,
                 limits: QueueLimits = QueueLimits(),
                 clock: Callable[[], float] = time.time) -> None:
        self.make = make
        self.state: QueueState = state if state is not None else MemoryQueue()
        self.limits = limits
        self.clock = clock
        self.tickets: dict[str, Ticket] = {}
        """Waiting players whose connection is on this process, by player id."""
        self.last_opponent: dict[str, str] = {}
        """Whom each player was last paired with here (the store's history says it
        across restarts; see :meth:`request`)."""
        self._left: dict[str, tuple[str, float, float]] = {}
        """player -> (key, since, forget at): entries dropped with their connection."""
        self._dirty: set[str] = set()
        self._told: dict[str, int] = {}
        """The waiting count last sent for each queue with players here."""
        self.node: str | None = None
        """This process's server id when the queue is shared (Redis): entries other
        processes queued (their ``request["node"]``) pair here too, through
        :attr:`remote_ticket`."""
        self.remote_ticket: RemoteTicket | None = None

    # -- requests ---------------------------------------------------------------------

    async def resend(self, conn: Connection, player: str, re: MsgId, *,
                     commit: str | None = None) -> bool:
        """A resent ``quick`` (same id) from a player still waiting: the entry stays,
        answered on ``conn``, with the dice commitment it carries now (a client that
        reconnected drew a new contribution).  ``False`` if this is not one."""
        t = self.tickets.get(player)
        if t is None or t.re != re:
            return False
        t.conn = conn
        request = t.entry.request
        if isinstance(request, dict) and (request.get("commit") != commit
                                          or request.get("conn", conn.id) != conn.id):
            t.entry = replace(t.entry, request=_moved({**request, "commit": commit}, conn))
            await self.state.add(t.key, t.entry)
        conn.push({"t": "ack", "re": re, "queued": True,
                   "waiting": await self.state.count(t.key)})
        return True

    def queued(self, player: str) -> bool:
        return player in self.tickets

    async def request(self, conn: Connection, re: MsgId, key: str, *, player: str,
                      rating: float, last_opponent: str | None,
                      request: dict[str, Any]) -> None:
        """Queue a validated request and pair its queue at once.  The sender is
        answered ``ack`` (``queued``) and, once paired, ``matched`` (by ``make``)."""
        if player in self.tickets:
            raise BadRequest(Code.ALREADY_QUEUED, "you are already waiting for a quick "
                             "match; cancel it first", re)
        now = self.clock()
        since = now
        left = self._left.pop(player, None)
        if left is not None and left[0] == key and left[2] > now:
            since = left[1]  # back within the grace: the wait so far still counts
        entry = Entry(player, rating, since, self.last_opponent.get(player, last_opponent),
                      request)
        ticket = Ticket(key, entry, conn, re)
        self.tickets[player] = ticket
        await self.state.add(key, entry)
        waiting = self._reachable(key, await self.state.waiting(key))
        other = partner(waiting, entry, now, rated=queue_rated(key), window=self.limits.window)
        if other is not None:
            first, second = (other, entry) if (other.since, other.player) <= (
                since, player) else (entry, other)
            await self._make(key, first, second)
        if not ticket.acked:  # not paired yet
            ticket.acked = True
            conn.push({"t": "ack", "re": re, "queued": True,
                       "waiting": await self.state.count(key)})
        self._dirty.add(key)

    async def cancel(self, player: str) -> bool:
        """Leave the queue; whether the player was waiting (``False`` too when another
        process paired them meanwhile: their ``matched`` is on its way)."""
        if player not in self.tickets:
            return False
        return await self._drop(player)

    def taken(self, player: str, re: MsgId) -> Ticket | None:
        """Another process paired this player's request ``re`` (its entry is gone from
        the shared queue): the ticket is done here."""
        t = self.tickets.get(player)
        if t is None or t.re != re:
            return None
        del self.tickets[player]
        self._dirty.add(t.key)
        return t

    async def detach(self, conn: Connection, other: Connection | None) -> None:
        """``conn`` closed.  Its player's request moves to ``other`` (another of their
        connections), or goes, remembering the wait so far for
        :attr:`QueueLimits.requeue_grace`."""
        for player, t in list(self.tickets.items()):
            if t.conn is not conn:
                continue
            if other is not None:
                t.conn = other
                request = t.entry.request
                if isinstance(request, dict) and "conn" in request:
                    t.entry = replace(t.entry, request=_moved(request, other))
                    await self.state.add(t.key, t.entry)
                continue
            await self._drop(player)
            self._left[player] = (t.key, t.entry.since,
                                  self.clock() + self.limits.requeue_grace)

    async def _drop(self, player: str) -> bool:
        t = self.tickets.pop(player, None)
        if t is None:
            return False
        self._dirty.add(t.key)
        return await self.state.remove(player) is not None

    async def counts(self, keys: list[str]) -> dict[str, int]:
        return {k: await self.state.count(k) for k in keys}

    # -- pairing ----------------------------------------------------------------------

    async def pair(self, key: str) -> int:
        """Make every pair the queue's rules allow now; returns how many."""
        entries = self._reachable(key, await self.state.waiting(key))
        made = 0
        for a, b in pair(entries, self.clock(), rated=queue_rated(key),
                         window=self.limits.window):
            made += await self._make(key, a, b)
        return made

    def _reachable(self, key: str, entries: list[Entry]) -> list[Entry]:
        """The entries this process may pair: its own players', and with a shared
        queue every other process's."""
        return [e for e in entries if e.player in self.tickets or _elsewhere(e, self.node)]

    def _ticket(self, key: str, e: Entry) -> Ticket | None:
        t = self.tickets.pop(e.player, None)
        if t is None and self.remote_ticket is not None and _elsewhere(e, self.node):
            t = self.remote_ticket(key, e)
        return t

    async def _make(self, key: str, a: Entry, b: Entry) -> bool:
        """Take the pair out of the queue and make its match; whether it was made."""
        if not await self.state.take(key, [a.player, b.player]):
            return False  # taken meanwhile (another process, a cancel)
        first, second = self._ticket(key, a), self._ticket(key, b)
        self._dirty.add(key)
        if first is None or second is None:  # one left meanwhile: the other waits on
            await self._back(key, first, second)
            return False
        for t in (first, second):
            if not t.acked:  # the request that completed the pair: not queued
                t.acked = True
                t.conn.push({"t": "ack", "re": t.re, "queued": False})
        try:
            await self.make(first, second)
        except (BadRequest, StoreError) as exc:
            # Not made (the server is full, the store is down): both wait on.
            log.warning("quick match not made (%s); both players wait on", exc)
            await self._back(key, first, second)
            return False
        self.last_opponent[a.player], self.last_opponent[b.player] = b.player, a.player
        return True

    async def _back(self, key: str, *tickets: Ticket | None) -> None:
        for t in tickets:
            if t is not None:
                if not t.remote:
                    self.tickets[t.entry.player] = t
                await self.state.add(key, t.entry)

    async def run(self, *, task_status: TaskStatus[None] = anyio.TASK_STATUS_IGNORED) -> None:
        """Every tick: pair the queues again (rated windows have widened; a match that
        could not be made is tried again), send the waiting counts that changed, forget
        old departures."""
        task_status.started()
        while True:
            await anyio.sleep(self.limits.tick)
            await self.tick()

    async def tick(self) -> None:
        try:
            for key in await self.state.keys():
                await self.pair(key)
            await self._tell_counts()
        except StoreError as exc:
            log.warning("the quick-match queue could not be paired: %s", exc)
        now = self.clock()
        for player in [p for p, (_, _, until) in self._left.items() if until <= now]:
            del self._left[player]

    async def _tell_counts(self) -> None:
        """One ``queue`` message per waiting player whose queue changed since the last
        tick (at most one a tick, however many come and go: a queue of thousands
        would otherwise send thousands of messages per arrival).  A shared queue also
        changes on other processes: every queue with players here is counted, and
        told when its count moved."""
        dirty, self._dirty = self._dirty, set()
        here = {t.key for t in self.tickets.values()}
        check = dirty | (here if self.node is not None else set())
        counts = {key: await self.state.count(key) for key in sorted(check)}
        changed = dirty | {k for k, n in counts.items() if self._told.get(k) != n}
        self._told = {k: counts[k] for k in here if k in counts}
        now = self.clock()
        for t in self.tickets.values():
            if t.key in changed:
                t.conn.push(queue_message(t, counts[t.key], now, self.limits.window))


def _elsewhere(e: Entry, node: str | None) -> bool:
    """Whether ``e`` was queued by another process of a shared queue."""
    there = e.request.get("node") if isinstance(e.request, dict) else None
    return node is not None and there is not None and there != node


def _moved(request: dict[str, Any], conn: Connection) -> dict[str, Any]:
    """The request, now answered on ``conn`` (a shared queue's entry names it)."""
    return {**request, "conn": conn.id} if "conn" in request else request


def queue_message(t: Ticket, waiting: int, now: float, window: Window) -> Message:
    """How the sender's queue stands: ``waiting`` (themselves included) and, rated,
    the rating gap they accept now."""
    return {"t": "queue", "rated": t.rated, "waiting": waiting,
            "window": window.at(now - t.entry.since) if t.rated else None}
