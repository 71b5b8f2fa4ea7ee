"""A match's log held packed: what the core keeps of every step it applied.

Each entry is kept as the msgpack bytes the store keeps too, so a live match holds one
small ``bytes`` per step instead of a dict, a list and the events' dicts: a fifth of the
memory, and nothing the cyclic garbage collector has to walk (with 1 000 live matches
the dicts of their logs were most of what every full collection walked, for pauses of
hundreds of milliseconds).  Events are numbered across the whole match (a prompt sends
those from a connection's cursor on); the ones added since :meth:`MatchLog.mark` are
also kept as they came, so the prompts after a decision unpack nothing.

Only the last ``keep`` entries (and any not yet persisted) stay in memory once
:meth:`MatchLog.trim` is called, so a live match's memory does not grow with its length:
the older ones are in the store, and :meth:`MatchLog.backfill` puts them back for the
rare reader that needs them (a reconnect that missed more than the window).
"""

from __future__ import annotations

from array import array
from bisect import bisect_right
from collections.abc import Iterator
from typing import Any, overload

from kickline.game import Plain

from .store import pack, unpack


class MatchLog:
    """The log's entries, in order; indexing and iterating unpack them."""

    def __init__(self, keep: int | None = None) -> None:
        self.keep = keep  # entries held after trim(); None: all of them
        self._first = 0  # the index of the first entry held
        self._first_event = 0  # the events before it
        self._packed: list[bytes] = []
        self._ends = array("q")  # the event count after each entry held
        self._fresh: list[Plain] = []  # the events of the entries appended since mark()
        self._fresh_from = 0

    def append(self, entry: Plain) -> None:
        events = entry.get("e", ())
        self._packed.append(pack(entry))
        self._ends.append(self.event_count + len(events))
        self._fresh.extend(events)

    def mark(self) -> None:
        """Forget the unpacked events (call when every connection has been sent them)."""
        self._fresh_from = self.event_count
        self._fresh = []

    @property
    def event_count(self) -> int:
        return self._ends[-1] if self._ends else self._first_event

    @property
    def first_event(self) -> int:
        """The index of the first event held in memory."""
        return self._first_event

    @property
    def complete(self) -> bool:
        """Whether every entry is held (none trimmed away)."""
        return self._first == 0

    def events(self, since: int) -> list[Plain]:
        """Every event from index ``since`` on; ``LookupError`` if some of them were
        trimmed away (:meth:`backfill` first)."""
        if since >= self._fresh_from:
            return self._fresh[since - self._fresh_from:]
        if since < self._first_event:
            raise LookupError(f"events from {since} are not held (from {self._first_event})")
        first = bisect_right(self._ends, since)  # the entry holding event ``since``
        start = self._ends[first - 1] if first else self._first_event
        out: list[Plain] = []
        for data in self._packed[first:]:
            out.extend(unpack(data).get("e", ()))
        return out[since - start:]

    def trim(self, persisted: int) -> None:
        """Drop the entries before the last ``keep`` (never one not yet persisted)."""
        if self.keep is None:
            return
        cut = min(persisted, len(self) - self.keep) - self._first
        if cut <= 0:
            return
        self._first_event = self._ends[cut - 1]
        del self._packed[:cut]
        del self._ends[:cut]
        self._first += cut

    def backfill(self, stored: list[bytes]) -> None:
        """Put back the trimmed entries from ``stored`` (the log as the store holds it,
        from entry 0); the next :meth:`trim` drops them again."""
        if self._first == 0:
            return
        if len(stored) < self._first:
            raise LookupError(f"the stored log has {len(stored)} entries, not {self._first}")
        ends = array("q")
        count = 0
        for data in stored[: self._first]:
            count += len(unpack(data).get("e", ()))
            ends.append(count)
        if count != self._first_event:
            raise LookupError("the stored log's events do not match the ones held")
        self._packed[:0] = stored[: self._first]
        self._ends[:0] = ends
        self._first = self._first_event = 0

    def packed(self, start: int) -> list[bytes]:
        """Entries from index ``start`` on (all held: not yet persisted), packed."""
        return self._packed[start - self._first:]

    def __len__(self) -> int:
        return self._first + len(self._packed)

    def _held(self, i: int) -> int:
        j = (i if i >= 0 else len(self) + i) - self._first
        if not 0 <= j < len(self._packed):
            raise IndexError(f"log entry {i} is not held")
        return j

    @overload
    def __getitem__(self, i: int) -> Plain: ...

    @overload
    def __getitem__(self, i: slice) -> list[Plain]: ...

    def __getitem__(self, i: int | slice) -> Any:
        if isinstance(i, slice):
            return [self[k] for k in range(*i.indices(len(self)))]
        return unpack(self._packed[self._held(i)])

    def __iter__(self) -> Iterator[Plain]:
        if self._first:
            raise LookupError("the log's first entries are not held (backfill first)")
        return (unpack(d) for d in self._packed)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, MatchLog):
            return (self._first, self._packed) == (other._first, other._packed)
        if isinstance(other, list):
            return list(self) == other
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]
