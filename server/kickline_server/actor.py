"""One actor per live match: a task that owns a :class:`~.core.MatchCore`.

The actor takes commands from a bounded inbox one at a time, hands each to the core
with the wall-clock time, and carries out the effects in order: it writes every
:class:`~.core.Persist` to the store (retrying while the store is unreachable) before
any later :class:`~.core.Send` leaves, keeps the timers the core asks for, runs a
thinking bot's :class:`~.core.Think` in a worker thread (at most ``bot_seconds`` of
thought, and no more such threads at once than the shared limiter allows) and hands the
answer back, and keeps the match's lease alive.  It stops when the match is over, when
the lease is lost, or when its task group is cancelled.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import random
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Generic, Protocol, TypeVar

import anyio
from anyio.abc import TaskGroup, TaskStatus

from . import gcpolicy, metrics, quarantine
from .core import (
    CancelTimer,
    Command,
    Connect,
    Decide,
    Disconnect,
    Effect,
    Finished,
    MatchCore,
    Persist,
    Resume,
    Send,
    SetTimer,
    Sit,
    Think,
    Thought,
    TimerFired,
    public_entry,
)
from .errlog import Throttled
from .logs import MATCH
from .protocol import Close, Code, Message, error
from .store import LeaseLost, Store, StoreError, StoreUnavailable, pack, unpack

log = logging.getLogger(__name__)
_failures = Throttled(log)
T = TypeVar("T")


class Inbox(Generic[T]):
    """A bounded first-in first-out queue with one reader, on the event loop's thread.

    What anyio's memory object stream did for the actor, for less: its ``receive``
    yields to the loop on every call and makes a waiter object each time it waits (an
    ``anyio.Event``, which asks which async library runs), once per decision.  Here a
    reader that finds an item takes it without yielding, and one that waits awaits a
    bare future the next :meth:`offer` resolves.  Senders that :meth:`put` into a full
    inbox wait in turn; each reader's take moves the first waiting item in, so they
    keep their order, as the stream's waiting senders did.  Once :meth:`close` d, an
    offer is refused and a waiting or later put returns having queued nothing."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.closed = False
        self._items: deque[T] = deque()
        self._reader: asyncio.Future[None] | None = None
        self._senders: deque[tuple[asyncio.Future[None], T]] = deque()
        self._loop: asyncio.AbstractEventLoop | None = None

    def __len__(self) -> int:
        return len(self._items)

    def offer(self, item: T) -> bool:
        """Queue ``item`` now; ``False`` if the inbox is full or closed."""
        if self.closed or len(self._items) >= self.size:
            return False
        self._items.append(item)
        reader = self._reader
        if reader is not None and not reader.done():
            reader.set_result(None)
        return True

    async def put(self, item: T) -> None:
        """Queue ``item``, waiting for room; nothing is queued if the inbox closes."""
        if self.offer(item) or self.closed:
            return
        room = asyncio.get_running_loop().create_future()
        entry = (room, item)
        self._senders.append(entry)
        try:
            await room
        finally:
            if room.cancelled():  # the sender was cancelled: its item is not queued
                with contextlib.suppress(ValueError):
                    self._senders.remove(entry)

    async def get(self) -> T:
        """The next item, waiting for one."""
        items = self._items
        while not items:
            if self.closed:
                raise anyio.ClosedResourceError
            if self._loop is None:  # once: on CPython 3.11 each asks getpid()
                self._loop = asyncio.get_running_loop()
            self._reader = self._loop.create_future()
            try:
                await self._reader
            finally:
                self._reader = None
        item = items.popleft()
        while self._senders and len(items) < self.size:
            room, waiting = self._senders.popleft()
            if not room.done():
                items.append(waiting)
                room.set_result(None)
        return item

    def close(self) -> None:
        """Refuse what comes next; waiting senders return (their items not queued)."""
        self.closed = True
        for room, _ in self._senders:
            if not room.done():
                room.set_result(None)
        self._senders.clear()
        reader = self._reader
        if reader is not None and not reader.done():
            reader.set_result(None)


class Peer(Protocol):
    """What the actor needs of a connection: an id and a non-blocking push."""

    id: int

    def push(self, message: Message) -> None: ...


@dataclass(frozen=True, slots=True)
class ActorLimits:
    inbox: int = 64
    lease_ttl: float = 15.0
    retry_min: float = 0.05
    retry_max: float = 2.0
    bot_seconds: float = 1.0  # the wall-clock cap of a thinking bot's decision


@dataclass(slots=True)
class Stats:
    persists: int = 0
    persist_seconds: float = 0.0
    persist_bytes: int = 0
    snapshots: int = 0
    last_snapshot_bytes: int = 0
    retries: int = 0
    retrying: int = 0
    """Actors whose durable write is failing right now (``/readyz`` is 503 meanwhile)."""
    samples: list[float] = field(default_factory=list)


class Actor:
    """Runs one match.  Start with ``await tg.start(actor.run)``; feed with
    :meth:`offer` (non-blocking, for client commands) or :meth:`put` (waits, for
    commands that must not be dropped, like a disconnect)."""

    def __init__(
        self,
        core: MatchCore,
        store: Store,
        *,
        owner: str,
        limits: ActorLimits = ActorLimits(),
        clock: Callable[[], float] = time.time,
        stats: Stats | None = None,
        bot_limiter: anyio.CapacityLimiter | None = None,
    ) -> None:
        self.core = core
        self.store = store
        self.owner = owner
        self.limits = limits
        self.clock = clock
        self.stats = stats or Stats()
        # Shared by every actor of a lobby: how many thinking bots may hold a thread.
        self.bot_limiter = bot_limiter
        self._tg: TaskGroup | None = None
        self.peers: dict[int, Peer] = {}
        self.timers: dict[str, float] = {}
        self._alarm: tuple[anyio.CancelScope, float] | None = None  # the timer task's sleep
        self.finished = False
        self.quarantined = False
        self.stopped = anyio.Event()
        self._scope: anyio.CancelScope | None = None
        self.released = anyio.Event()
        """Set by the lobby once the actor stopped and its lease was released."""
        self._waiters: dict[int, anyio.Event] = {}
        # Each command carries the time it was queued: a decision's round trip is timed
        # from there (metrics.DECISION_SECONDS).
        self._inbox: Inbox[tuple[Command, Peer | None, float]] = Inbox(limits.inbox)

    @property
    def match_id(self) -> str:
        return self.core.match_id

    def offer(self, cmd: Command, peer: Peer | None = None) -> bool:
        """Queue a command; ``False`` if the inbox is full or the actor has stopped."""
        return self._inbox.offer((cmd, peer, time.perf_counter()))

    async def put(self, cmd: Command, peer: Peer | None = None) -> None:
        """Queue a command, waiting for room; does nothing once the actor stopped."""
        await self._inbox.put((cmd, peer, time.perf_counter()))

    def stop(self) -> None:
        """Stop between commands (a drain): the command in hand, if any, is abandoned
        unanswered, so its sender resends it to whoever runs the match next."""
        if self._scope is not None:
            self._scope.cancel()

    def lease_lost(self) -> None:
        """Another process runs this match now: stop, and never silently: every
        connection attached here is told to reconnect (and closed), so its client
        lands where the match is."""
        metrics.LEASES_LOST.inc()
        log.warning("match %s: lease lost, stopping; its clients are told to reconnect",
                    self.match_id)
        self.finished = True
        self.send_away("this match moved to another server; reconnect to go on playing")

    def send_away(self, why: str) -> None:
        for peer in list(self.peers.values()):
            peer.push(error(Code.RECONNECT, why, match=self.match_id))
            close = getattr(peer, "close", None)
            if close is not None:
                close(Close.SERVICE_RESTART, Code.RECONNECT)

    @property
    def queued(self) -> int:
        """Commands waiting in the inbox."""
        return len(self._inbox)

    async def call(self, cmd: Command) -> bool:
        """Queue a command and wait until it has been handled and its effects carried
        out (its ``Persist`` is durable); ``False`` if the actor stopped first."""
        done = self._waiters[id(cmd)] = anyio.Event()
        await self.put(cmd)
        await done.wait()
        return self._waiters.pop(id(cmd), None) is None  # _handle removed it: handled

    async def run(self, *, task_status: TaskStatus[None] = anyio.TASK_STATUS_IGNORED) -> None:
        MATCH.set(self.match_id)  # this task's log lines name the match
        try:
            async with anyio.create_task_group() as tg:
                self._scope = tg.cancel_scope
                self._tg = tg
                if self.store.leases_expire:
                    tg.start_soon(gcpolicy.returning, self._keep_lease, tg.cancel_scope)
                tg.start_soon(gcpolicy.returning, self._alarms)  # (ends cancelled)
                task_status.started()
                try:
                    await self._loop()
                except LeaseLost:
                    self.lease_lost()
                tg.cancel_scope.cancel()
        finally:
            self._inbox.close()
            self.stopped.set()
            for waiter in self._waiters.values():
                waiter.set()

    async def _loop(self) -> None:
        inbox = self._inbox
        try:
            while not self.finished:
                cmd, peer, queued = await inbox.get()
                gcpolicy.handled()  # a short collection every so many commands
                await self._handle(cmd, peer)
                if type(cmd) is Decide:
                    metrics.DECISIONS.inc()
                    metrics.DECISION_SECONDS.observe(time.perf_counter() - queued)
        finally:
            inbox.close()

    async def _alarms(self) -> None:
        """The timer task: sleeps until the earliest timer, then queues a
        :class:`~.core.TimerFired` for each one due, in order.

        A timer moved later (each decision moves the decision clocks) does not wake it:
        it wakes at the old time, finds nothing due and sleeps on; only a timer set
        earlier than its alarm cuts the sleep short.  So the inbox is read without a
        cancel scope per command, and timers cost a wake-up per deadline."""
        while True:
            at = min(self.timers.values(), default=math.inf)
            with anyio.CancelScope() as scope:
                self._alarm = (scope, at)
                await anyio.sleep(max(0.0, at - self.clock()))
            self._alarm = None
            now = self.clock()
            for key, when in sorted(self.timers.items(), key=lambda kv: kv[1]):
                if when <= now and self.timers.get(key) == when:
                    del self.timers[key]  # the core sets it again if it still wants it
                    await self.put(TimerFired(key))

    async def _handle(self, cmd: Command, peer: Peer | None) -> None:
        key = id(cmd)  # a call() waits on the command it queued
        if peer is not None:
            self.peers.setdefault(peer.id, peer)
            if (isinstance(cmd, Sit | Connect) and cmd.conn == peer.id
                    and getattr(peer, "protocol", 1) >= 2):
                cmd = replace(cmd, patches=True)  # this connection takes view patches
        if self.core.needs_history(cmd):  # a catch-up past the log held in memory
            try:
                stored = await self.store.load(self.match_id)
                if stored is None:
                    raise StoreUnavailable("the match is not in the store")
            except StoreError as exc:
                log.warning("match %s: cannot read its log (%s)", self.match_id, exc)
                if peer is not None:
                    peer.push(error(Code.BUSY, "the server cannot reach its data right now; "
                                    "send it again in a moment", retry_after=1.0))
                return
            self.core.backfill(stored.log)
        try:
            effects = self.core.handle(cmd, self.clock())
        except Exception as exc:
            # A bug a client's command can reach, so perhaps repeatedly: one line each.
            _failures.error(f"command {type(cmd).__name__}",
                            f"match {self.match_id}: a {type(cmd).__name__} failed", exc)
            # Reload before answering: the error tells the sender the match continues
            # from its last saved state, so that must already be true when it arrives.
            await self._reload()
            if peer is not None and not self.quarantined:  # (else told match_damaged)
                peer.push(error(Code.INTERNAL, "the server failed on this command; "
                                "the match continues from its last saved state"))
            return
        for e in effects:
            await self._carry_out(e)
        waiter = self._waiters.pop(key, None)
        if waiter is not None:
            waiter.set()
        if isinstance(cmd, Disconnect):
            self.peers.pop(cmd.conn, None)
        elif peer is not None and peer.id not in self.core.conns:
            self.peers.pop(peer.id, None)

    async def _reload(self) -> None:
        """After a failed command the core may be half-changed: start again from the last
        persisted snapshot and log, with the same connections attached."""
        old = self.core
        stored = await self.store.load(self.match_id)
        if stored is None:  # never persisted: nothing to go back to
            self.finished = True
            return
        try:
            self.core = quarantine.restore(
                stored, ruleset=(old.game, old.bots), grace=old.grace, waiting_ttl=old.waiting_ttl,
                waiting_grace=old.waiting_grace, reveal_timeout=old.reveal_timeout,
                reply_cache=old.reply_cache, restart_grace=old.restart_grace,
                snapshot_every=old.snapshot_every, log_window=old.log_window)
        except quarantine.Damaged as exc:
            # What it saved cannot be loaded back: set it aside, tell who is here.
            await self.store.quarantine(self.match_id, exc.reason, exc.players, self.clock())
            log.error("match %s quarantined (kept for inspection, see kickline doctor): %s",
                      self.match_id, exc.reason)
            for peer in self.peers.values():
                peer.push(error(Code.MATCH_DAMAGED, quarantine.DAMAGED_TEXT,
                                match=self.match_id))
            self.finished = self.quarantined = True
            return
        self.timers.clear()
        now = self.clock()
        for e in self.core.handle(Resume(), now):
            await self._carry_out(e)
        for conn, c in old.conns.items():
            seat_info = None if c.seat is None else self.core.seats[c.seat]
            cmd = Connect(conn, seat_info.player if seat_info else None, since=c.cursor,
                          watch=seat_info is None, patches=c.patches)
            for e in self.core.handle(cmd, now):
                await self._carry_out(e)

    async def _carry_out(self, e: Effect) -> None:
        if isinstance(e, Persist):
            await self._persist(e)
        elif isinstance(e, Send):
            target = self.peers.get(e.conn)
            if target is not None:
                if e.message.get("t") == "over" and e.message.get("log") is None:
                    # The core holds only the log's last entries: the whole public log
                    # comes from the store (filled once: the message is every peer's).
                    e.message["log"] = await self._public_log()
                target.push(e.message)
        elif isinstance(e, SetTimer):
            self.timers[e.key] = e.at
            if self._alarm is not None and e.at < self._alarm[1]:
                self._alarm[0].cancel()  # wake the timer task for an earlier one
        elif isinstance(e, CancelTimer):
            self.timers.pop(e.key, None)
        elif isinstance(e, Finished):
            self.finished = True
            self._log_result(e.result)
        elif isinstance(e, Think) and self._tg is not None:
            self._tg.start_soon(self._think, e)

    async def _think(self, e: Think) -> None:
        """Run a thinking bot in a worker thread and hand its decision to the core.  A
        failing bot answers nothing the core would apply: it plays the default instead."""
        bot = self.core.bots[e.bot]
        timed = getattr(bot, "timed", None)
        run = timed(self.limits.bot_seconds, time.monotonic) if timed is not None else bot
        if self.bot_limiter is None:
            self.bot_limiter = anyio.CapacityLimiter(1)
        try:
            decision = await anyio.to_thread.run_sync(
                run, e.view, e.legal, random.Random(e.seed), limiter=self.bot_limiter,
                abandon_on_cancel=True)
        except Exception:
            log.exception("match %s: the %s bot failed; it plays the default decision",
                          self.match_id, e.bot)
            decision = ""
        await self.put(Thought(e.seat, e.asked, str(decision)))

    async def _persist(self, e: Persist) -> None:
        snapshot = None if e.snapshot is None else pack(e.snapshot)
        entries = e.entries  # packed by the core as it logged them
        delay = self.limits.retry_min
        failing = False
        try:
            while True:
                t0 = time.perf_counter()
                try:
                    await self.store.save(self.match_id, snapshot, entries, e.start,
                                          finished=e.finished, owner=self.owner)
                except StoreUnavailable as exc:
                    if not failing:
                        failing = True
                        self.stats.retrying += 1
                    self.stats.retries += 1
                    metrics.STORE_RETRIES.inc()
                    log.warning("match %s: store unavailable (%s); retrying in %.2fs",
                                self.match_id, exc, delay)
                    await anyio.sleep(delay)
                    delay = min(delay * 2, self.limits.retry_max)
                    continue
                dt = time.perf_counter() - t0
                metrics.PERSIST_SECONDS.observe(dt)
                s = self.stats
                s.persists += 1
                s.persist_seconds += dt
                s.persist_bytes += len(snapshot or b"") + sum(map(len, entries))
                if snapshot is not None:
                    s.snapshots += 1
                    s.last_snapshot_bytes = len(snapshot)
                if len(s.samples) < 100_000:
                    s.samples.append(dt)
                return
        finally:
            if failing:
                self.stats.retrying -= 1

    def _log_result(self, result: Message) -> None:
        """One line per finished match, with its players, result and reason."""
        core = self.core
        reason = str(result.get("reason"))
        metrics.FINISHED.labels(reason).inc()
        players = [None if s is None else s.player for s in core.seats]
        log.info("match %s finished: %s, winner %s, score %s", self.match_id, reason,
                 result.get("winner"), result.get("score"),
                 extra={"event": "match_finished", "game": core.game.name,
                        "config": core.config, "players": players, "result": result,
                        "reason": reason, "log_entries": len(core.log)})

    async def _public_log(self) -> list[Message]:
        """The match's public log, read back from the store (retried while it is
        unreachable, like a save: the answer waits rather than lacking it)."""
        delay = self.limits.retry_min
        while True:
            try:
                stored = await self.store.load(self.match_id)
            except StoreUnavailable as exc:
                log.warning("match %s: store unavailable (%s); retrying in %.2fs",
                            self.match_id, exc, delay)
                await anyio.sleep(delay)
                delay = min(delay * 2, self.limits.retry_max)
                continue
            return [public_entry(unpack(x)) for x in (stored.log if stored else [])]

    async def _keep_lease(self, scope: anyio.CancelScope) -> None:
        ttl = self.limits.lease_ttl
        while True:
            await anyio.sleep(ttl / 3)
            try:
                held = await self.store.acquire(self.match_id, self.owner, ttl)
            except StoreUnavailable:
                continue
            if not held:
                self.lease_lost()
                scope.cancel()
                return
