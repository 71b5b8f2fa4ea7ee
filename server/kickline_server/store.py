"""Where matches live between commands: one interface, two implementations.

A stored match is a **snapshot** (the core's plain form, msgpack) and a **log**
(msgpack entries, append-only, indexed from 0).  ``save`` appends entries at
``start`` and, when given one, replaces the snapshot, in one atomic write; a retried
``save`` with the same ``start`` overwrites what an interrupted one may have written,
so it is idempotent.  Most saves carry no snapshot (the core writes one every few dozen
entries): ``load`` returns the last snapshot and the whole log, whose entries past the
snapshot's own ``log_len`` the core replays.  A **lease** names the one server process
that runs a match; ``save`` is refused (:class:`LeaseLost`) for anyone else.

Implementations: :mod:`.store_sqlite` (embedded, the default) and
:mod:`.store_redis`.  Both pass ``tests/server/test_store.py``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

import msgpack  # type: ignore[import-untyped]


class StoreError(Exception):
    """Base class for store failures."""


class StoreUnavailable(StoreError):
    """The store cannot be reached right now; retrying later may succeed."""


class LeaseLost(StoreError):
    """Another server process holds this match's lease."""


class LogGap(StoreError):
    """``save`` was asked to append past the end of the stored log."""


@dataclass(frozen=True, slots=True)
class Stored:
    snapshot: bytes
    log: list[bytes]


class Store(Protocol):
    leases_expire: bool
    """Whether leases lapse unless renewed (several server processes may share this
    store).  If not, a lease is held until released and nobody needs to renew it."""

    async def save(self, match_id: str, snapshot: bytes | None, entries: Sequence[bytes],
                   start: int, *, finished: bool, owner: str) -> None:
        """Write ``entries`` at log index ``start`` and the snapshot (unless ``None``: the
        stored one stays), atomically.  A match's first save has a snapshot."""
        ...

    async def load(self, match_id: str) -> Stored | None: ...

    async def unfinished(self) -> list[str]:
        """Ids of every stored match not yet finished, sorted."""
        ...

    async def acquire(self, match_id: str, owner: str, ttl: float) -> bool:
        """Take or renew the lease for ``ttl`` seconds; ``False`` if someone else holds it."""
        ...

    async def release(self, match_id: str, owner: str) -> None: ...

    async def claim_code(self, code: str, match_id: str) -> bool:
        """Map an invite code to a match; ``False`` if the code is taken."""
        ...

    async def find_code(self, code: str) -> str | None: ...

    async def aclose(self) -> None: ...


def pack(obj: Any) -> bytes:
    data: bytes = msgpack.packb(obj, use_bin_type=True)
    return data


def unpack(data: bytes) -> Any:
    """Unpack trusted stored data (no client limits apply)."""
    return msgpack.unpackb(data, raw=False, strict_map_key=False)
