"""The quick-match queue's pairing rules, sans I/O: who is paired with whom, and when.

:func:`pair` takes the players waiting for one (game, mode, board) and the time, and
returns the pairs to make now.  It has no clock and no state of its own: the waiting
list comes from a :class:`QueueState` (in process memory, or shared by every process in
Redis: :mod:`.matchqueue_redis`) and the caller passes ``now``, so the
rules are tested over simulated time.

**Rated** entries pair the two closest ratings whose gap is inside *both* players'
windows.  A window starts at ±:attr:`Window.start` (50) and widens by
:attr:`Window.step` (50) every :attr:`Window.every` seconds (5) of waiting, up to
±:attr:`Window.cap` (400, reached after 35 s); two players further apart than the cap
are never paired by the rated queue.  Among the pairs allowed, the smallest gap goes
first (ties: the longer-waiting pair first), then the next among those left.
**Casual** entries pair first come, first served.  Either way two players who just
played each other are not paired again while anyone else is waiting for the same
queue.
"""

from __future__ import annotations

import heapq
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol


@dataclass(frozen=True, slots=True)
class Window:
    start: float = 50.0
    step: float = 50.0
    every: float = 5.0
    cap: float = 400.0

    def __post_init__(self) -> None:
        if not (0 <= self.start <= self.cap and self.step >= 0 and self.every > 0):
            raise ValueError(f"the rated queue's window needs 0 <= start ({self.start:g}) <= "
                             f"cap ({self.cap:g}), step >= 0 ({self.step:g}) and every > 0 "
                             f"({self.every:g})")

    def at(self, waited: float) -> float:
        """The half-width of a player's window after ``waited`` seconds."""
        return min(self.cap, self.start + self.step * int(max(0.0, waited) // self.every))


@dataclass(frozen=True, slots=True)
class Entry:
    player: str
    rating: float
    since: float
    last_opponent: str | None = None
    request: Any = None
    """What the match needs from this player's request (plain data: name, config,
    clock, request id), so that whoever pairs it can make the match."""


def pair(entries: Sequence[Entry], now: float, *, rated: bool,
         window: Window = Window()) -> list[tuple[Entry, Entry]]:
    """The pairs to make now from one queue's waiting ``entries`` (see the module
    docstring); each pair is (earlier, later) by arrival."""
    if len(entries) < 2:
        return []
    others_wait = len(entries) > 2

    def rematch(a: Entry, b: Entry) -> bool:
        return others_wait and (a.last_opponent == b.player or b.last_opponent == a.player)

    out: list[tuple[Entry, Entry]] = []
    if not rated:
        waiting = sorted(entries, key=lambda e: (e.since, e.player))
        while len(waiting) >= 2:
            first = waiting.pop(0)
            match = next((e for e in waiting if not rematch(first, e)), None)
            if match is None:
                continue
            waiting.remove(match)
            out.append((first, match))
        return out
    # Rated: each player's closest allowed partner above them in rating order is the
    # first one, scanning up, whose gap both windows accept (a neighbour's narrow window
    # must not hide a farther player whose window is wide).  A heap holds each player's
    # candidate; a popped candidate already taken is replaced by the next one up.  The
    # scan stops at the player's own window, so it is short (O(n log n) pairings when
    # most candidates are neighbours, as in a busy queue).
    ordered = sorted(entries, key=lambda e: (e.rating, e.since, e.player))
    n = len(ordered)
    width = [window.at(now - e.since) for e in ordered]
    nxt = list(range(1, n + 1))
    prv = list(range(-1, n - 1))
    alive = [True] * n
    heap: list[tuple[float, float, int, int]] = []

    def offer(i: int, j: int) -> None:
        """Push i's first allowed partner at or above j (skipping players taken)."""
        a = ordered[i]
        while j < n and ordered[j].rating - a.rating <= width[i]:
            b = ordered[j]
            if alive[j] and b.rating - a.rating <= width[j] and not rematch(a, b):
                heapq.heappush(heap, (b.rating - a.rating, min(a.since, b.since), i, j))
                return
            j = nxt[j]

    for i in range(n - 1):
        offer(i, i + 1)
    while heap:
        _, _, i, j = heapq.heappop(heap)
        if not alive[i]:
            continue
        if not alive[j]:
            offer(i, nxt[j])
            continue
        alive[i] = alive[j] = False
        a, b = ordered[i], ordered[j]
        out.append((a, b) if (a.since, a.player) <= (b.since, b.player) else (b, a))
        for k in (i, j):  # unlink both
            if prv[k] >= 0:
                nxt[prv[k]] = nxt[k]
            if nxt[k] < n:
                prv[nxt[k]] = prv[k]
    return out


def partner(entries: Sequence[Entry], newcomer: Entry, now: float, *, rated: bool,
            window: Window = Window()) -> Entry | None:
    """Whom a newcomer pairs with on arrival, by the same rules as :func:`pair` (the
    closest rating inside both windows, ties to the longer wait; casual: the longest
    wait), or ``None``.  One pass over the queue rather than a whole pairing, since
    every arrival asks; :func:`pair` runs on every tick for the rest."""
    others = [e for e in entries if e.player != newcomer.player]
    others_wait = len(others) > 1

    def allowed(e: Entry) -> bool:
        if others_wait and (e.last_opponent == newcomer.player
                            or newcomer.last_opponent == e.player):
            return False
        if not rated:
            return True
        gap = abs(e.rating - newcomer.rating)
        return gap <= min(window.at(now - e.since), window.at(now - newcomer.since))

    best: Entry | None = None
    for e in others:
        if not allowed(e):
            continue
        if rated:
            rank = (abs(e.rating - newcomer.rating), e.since, e.player)
            if best is None or rank < (abs(best.rating - newcomer.rating), best.since,
                                       best.player):
                best = e
        elif best is None or (e.since, e.player) < (best.since, best.player):
            best = e
    return best


class QueueState(Protocol):
    """Where the waiting entries live, per queue key, one entry per player.

    The in-process implementation is :class:`MemoryQueue`.  A shared one (Redis) makes
    every process see one queue: each method is one atomic step, and :meth:`take` lets
    two processes that computed the same pair race safely (only one takes it)."""

    async def add(self, key: str, entry: Entry) -> None:
        """Put the player's entry in queue ``key`` (dropping any entry they had)."""
        ...

    async def remove(self, player: str) -> tuple[str, Entry] | None:
        """Drop the player's entry (from any queue); returns its key and entry."""
        ...

    async def take(self, key: str, players: Sequence[str]) -> bool:
        """Remove these players' entries from ``key`` if every one is still there;
        ``False`` (nothing removed) otherwise."""
        ...

    async def find(self, player: str) -> tuple[str, Entry] | None: ...

    async def waiting(self, key: str) -> list[Entry]: ...

    async def count(self, key: str) -> int: ...

    async def keys(self) -> list[str]: ...


class MemoryQueue:
    """:class:`QueueState` in process memory (lost on restart: players re-queue on
    reconnect)."""

    def __init__(self) -> None:
        self._queues: dict[str, dict[str, Entry]] = {}
        self._where: dict[str, str] = {}

    async def add(self, key: str, entry: Entry) -> None:
        self._drop(entry.player)
        self._queues.setdefault(key, {})[entry.player] = entry
        self._where[entry.player] = key

    async def remove(self, player: str) -> tuple[str, Entry] | None:
        return self._drop(player)

    def _drop(self, player: str) -> tuple[str, Entry] | None:
        key = self._where.pop(player, None)
        if key is None:
            return None
        q = self._queues[key]
        entry = q.pop(player)
        if not q:
            del self._queues[key]
        return key, entry

    async def take(self, key: str, players: Sequence[str]) -> bool:
        q = self._queues.get(key, {})
        if not all(p in q for p in players):
            return False
        for p in players:
            self._drop(p)
        return True

    async def find(self, player: str) -> tuple[str, Entry] | None:
        key = self._where.get(player)
        return None if key is None else (key, self._queues[key][player])

    async def waiting(self, key: str) -> list[Entry]:
        return list(self._queues.get(key, {}).values())

    async def count(self, key: str) -> int:
        return len(self._queues.get(key, ()))

    async def keys(self) -> list[str]:
        return list(self._queues)
