"""The quick-match queue's pairing rules, sans I/O: who is paired with whom, and when.

:func:`pair` takes the players waiting for one (game, mode, board) and the time, and
returns the pairs to make now.  It has no clock and no state of its own: the waiting
list comes from a :class:`QueueState` (in process memory today; a Redis-backed one can
make the queue cluster-wide, see docs/SERVER.md) and the caller passes ``now``, so the
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
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Protocol


@dataclass(frozen=True, slots=True)
class Window:
    start: float = 50.0
    step: float = 50.0
    every: float = 5.0
    cap: float = 400.0

    def at(self, waited: float) -> float:
        """The half-width of a player's window after ``waited`` seconds."""
        return min(self.cap, self.start + self.step * int(max(0.0, waited) // self.every))


@dataclass(frozen=True, slots=True)
class Entry:
    player: str
    rating: float
    since: float
    last_opponent: str | None = None


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
    # Rated: the closest partner of anyone is a neighbour in rating order, so only
    # neighbours are candidates: a heap of neighbour gaps over a linked list; taking a
    # pair joins its outer neighbours, which become candidates in turn.  O(n log n).
    ordered = sorted(entries, key=lambda e: (e.rating, e.since, e.player))
    n = len(ordered)
    nxt = list(range(1, n + 1))
    prv = list(range(-1, n - 1))
    alive = [True] * n
    heap: list[tuple[float, float, int, int]] = []

    def offer(i: int, j: int) -> None:
        if i >= 0 and j < n:
            a, b = ordered[i], ordered[j]
            gap = b.rating - a.rating
            if gap <= min(window.at(now - a.since), window.at(now - b.since)) and not (
                    rematch(a, b)):
                heapq.heappush(heap, (gap, min(a.since, b.since), i, j))

    for i in range(n - 1):
        offer(i, i + 1)
    while heap:
        _, _, i, j = heapq.heappop(heap)
        if not (alive[i] and alive[j] and nxt[i] == j):
            continue
        alive[i] = alive[j] = False
        a, b = ordered[i], ordered[j]
        out.append((a, b) if (a.since, a.player) <= (b.since, b.player) else (b, a))
        left, right = prv[i], nxt[j]
        if left >= 0:
            nxt[left] = right
        if right < n:
            prv[right] = left
        offer(left, right)
    return out


class QueueState(Protocol):
    """Where the waiting entries live, per queue key.  The in-process implementation is
    :class:`MemoryQueue`; a shared one (Redis) makes every process see one queue."""

    def add(self, key: str, entry: Entry) -> None: ...

    def remove(self, player: str) -> str | None:
        """Drop the player's entry (from any queue); returns its key."""
        ...

    def waiting(self, key: str) -> list[Entry]: ...

    def keys(self) -> Iterable[str]: ...


class MemoryQueue:
    """:class:`QueueState` in process memory (lost on restart: players re-queue on
    reconnect)."""

    def __init__(self) -> None:
        self._queues: dict[str, dict[str, Entry]] = {}
        self._where: dict[str, str] = {}

    def add(self, key: str, entry: Entry) -> None:
        self.remove(entry.player)
        self._queues.setdefault(key, {})[entry.player] = entry
        self._where[entry.player] = key

    def remove(self, player: str) -> str | None:
        key = self._where.pop(player, None)
        if key is not None:
            q = self._queues[key]
            q.pop(player, None)
            if not q:
                del self._queues[key]
        return key

    def waiting(self, key: str) -> list[Entry]:
        return list(self._queues.get(key, {}).values())

    def keys(self) -> Iterable[str]:
        return list(self._queues)
