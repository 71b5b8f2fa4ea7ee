"""A match's log held packed: what the core keeps of every step it applied.

Each entry is kept as the msgpack bytes the store keeps too, so a live match holds one
small ``bytes`` per step instead of a dict, a list and the events' dicts: a fifth of the
memory, and nothing the cyclic garbage collector has to walk (with 1 000 live matches
the dicts of their logs were most of what every full collection walked, for pauses of
hundreds of milliseconds).  Events are numbered across the whole match (a prompt sends
those from a connection's cursor on); the ones added since :meth:`MatchLog.mark` are
also kept as they came, so the prompts after a decision unpack nothing.
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

    def __init__(self) -> None:
        self._packed: list[bytes] = []
        self._ends = array("q")  # the event count after each entry
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
        return self._ends[-1] if self._ends else 0

    def events(self, since: int) -> list[Plain]:
        """Every event from index ``since`` on."""
        if since >= self._fresh_from:
            return self._fresh[since - self._fresh_from:]
        first = bisect_right(self._ends, since)  # the entry holding event ``since``
        start = self._ends[first - 1] if first else 0
        out: list[Plain] = []
        for data in self._packed[first:]:
            out.extend(unpack(data).get("e", ()))
        return out[since - start:]

    def packed(self, start: int) -> list[bytes]:
        """Entries from index ``start`` on, packed (for the store)."""
        return self._packed[start:]

    def __len__(self) -> int:
        return len(self._packed)

    @overload
    def __getitem__(self, i: int) -> Plain: ...

    @overload
    def __getitem__(self, i: slice) -> list[Plain]: ...

    def __getitem__(self, i: int | slice) -> Any:
        if isinstance(i, slice):
            return [unpack(d) for d in self._packed[i]]
        return unpack(self._packed[i])

    def __iter__(self) -> Iterator[Plain]:
        return (unpack(d) for d in self._packed)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, MatchLog):
            return self._packed == other._packed
        if isinstance(other, list):
            return list(self) == other
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]
