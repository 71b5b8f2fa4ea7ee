"""Where matches live between commands: one interface, two implementations.

A stored match is a **snapshot** (the core's plain form, msgpack) and a **log**
(msgpack entries, append-only, indexed from 0).  ``save`` appends entries at
``start`` and, when given one, replaces the snapshot, in one atomic write; a retried
``save`` with the same ``start`` overwrites what an interrupted one may have written,
so it is idempotent.  Most saves carry no snapshot (the core writes one every few dozen
entries): ``load`` returns the last snapshot and the whole log, whose entries past the
snapshot's own ``log_len`` the core replays.  A **lease** names the one server process
that runs a match; ``save`` is refused (:class:`LeaseLost`) for anyone else.

The store also keeps the **players**: accounts (unique by name key), each player's
standing per mode (rating and win/draw/loss counts), the finished-match **records**
(one per match, both players' before/after ratings) with a per-player **history**
index newest first, the matches finished but not yet recorded, and one-time transfer
codes.  Its schema is versioned (:mod:`.migrations`): opening a store brings it up to
date, and refuses one written by a newer server.

Implementations: :mod:`.store_sqlite` (embedded, the default) and
:mod:`.store_redis`.  Both pass ``tests/server/test_store.py`` and
``tests/server/test_store_players.py``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Literal, Protocol

import msgpack  # type: ignore[import-untyped]

from .accounts import Account
from .ratings import Standing


class StoreError(Exception):
    """Base class for store failures."""


class StoreUnavailable(StoreError):
    """The store cannot be reached right now; retrying later may succeed."""


class LeaseLost(StoreError):
    """Another server process holds this match's lease."""


class LogGap(StoreError):
    """``save`` was asked to append past the end of the stored log."""


class LogConflict(StoreError):
    """``append_events`` found other entries where it was to write: another process
    wrote to the event first (its copy of the event was newer)."""


class SchemaTooNew(StoreError):
    """The store was written by a newer server (a schema version this one lacks)."""


@dataclass(frozen=True, slots=True)
class Quarantined:
    """A match set aside because it could not be loaded: kept for inspection (``kickline
    doctor``), never resumed."""

    match: str
    reason: str
    at: float
    players: tuple[str, ...] = ()
    """Its seats' player ids, when the snapshot was readable enough to say."""


@dataclass(frozen=True, slots=True)
class Purged:
    """What one retention pass deleted."""

    matches: int = 0
    """Finished matches whose snapshot and full log were deleted."""
    records: int = 0
    """Match records (results) deleted, with their history entries."""
    codes: int = 0
    transfers: int = 0

    def __add__(self, other: Purged) -> Purged:
        return Purged(self.matches + other.matches, self.records + other.records,
                      self.codes + other.codes, self.transfers + other.transfers)

    @property
    def total(self) -> int:
        return self.matches + self.records + self.codes + self.transfers


@dataclass(frozen=True, slots=True)
class Stored:
    snapshot: bytes
    log: list[bytes]


Build = Callable[[list[Standing]], tuple[bytes, list[Standing]]]
"""Given the players' current standings (in the order asked), the record to store and
their new standings: called inside the store's transaction (perhaps more than once,
with fresh standings, if another write raced it), so it must be pure."""

TransferState = Literal["ok", "unknown", "used", "expired"]


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

    async def ping(self) -> None:
        """Raise :class:`StoreUnavailable` unless the store answers now."""
        ...

    async def aclose(self) -> None: ...

    # -- hardening: quarantine and retention --

    async def quarantine(self, match_id: str, reason: str, players: Sequence[str],
                         at: float) -> None:
        """Set a match aside: it is no longer unfinished (never resumed); its snapshot
        and log stay as they are."""
        ...

    async def quarantined(self) -> list[Quarantined]:
        """Every quarantined match, oldest first."""
        ...

    async def quarantine_of(self, match_id: str) -> Quarantined | None: ...

    async def purge(self, *, logs_before: float, records_before: float | None,
                    codes_before: float, now: float, limit: int = 500) -> Purged:
        """One bounded pass of the retention purge: up to ``limit`` finished, recorded
        matches that ended before ``logs_before`` lose their snapshot, log, invite codes
        and lease; records of matches before ``records_before`` (``None``: kept) go with
        their history entries; codes made before ``codes_before`` that name no stored
        match go; so do transfer codes expired a day before ``now``.  Quarantined
        matches are never purged."""
        ...

    # -- schema --

    async def migrate(self) -> list[int]:
        """Bring the schema up to date; returns the versions applied (raises
        :class:`SchemaTooNew` for a store written by a newer server)."""
        ...

    async def schema_version(self) -> int: ...

    # -- players --

    async def create_account(self, account: Account) -> bool:
        """Store a new account; ``False`` (nothing written) if its name key or player id
        is taken."""
        ...

    async def put_account(self, account: Account) -> None:
        """Replace an existing account (same player id and name)."""
        ...

    async def account(self, player: str) -> Account | None: ...

    async def account_by_name(self, key: str) -> Account | None:
        """The account whose name key (:func:`.accounts.name_key`) is ``key``."""
        ...

    async def standings(self, player: str) -> dict[str, Standing]:
        """The player's standing per mode (modes never played are absent)."""
        ...

    async def record_result(self, match_id: str, mode: str, players: Sequence[str],
                            at: float, build: Build) -> tuple[bytes, bool]:
        """Record a finished match once: store ``build``'s record and standings (for
        ``mode``), index it in each player's history at time ``at``, and drop it from
        :meth:`unrecorded`, atomically.  Returns ``(record, True)``; if the match was
        already recorded, ``(the stored record, False)`` and nothing changes."""
        ...

    async def result(self, match_id: str) -> bytes | None:
        """A finished match's record."""
        ...

    async def history(self, player: str, *, limit: int = 20,
                      before: float | None = None) -> list[bytes]:
        """The player's match records, newest first, finished before ``before``."""
        ...

    async def unrecorded(self) -> list[str]:
        """Matches finished but not recorded yet (sorted)."""
        ...

    async def leaderboard(self, mode: str, *, limit: int) -> list[tuple[str, Standing]]:
        """The ``limit`` highest ratings in ``mode``, best first (callers filter out
        the provisional and the inactive)."""
        ...

    async def put_transfer(self, code: str, player: str, expires: float) -> None:
        """Keep a one-time transfer code (already hashed by the caller)."""
        ...

    async def take_transfer(self, code: str, now: float) -> tuple[TransferState, str | None]:
        """Use a transfer code: ``("ok", player)`` once; afterwards ``"used"``; past its
        expiry ``"expired"``; never issued (or long gone) ``"unknown"``."""
        ...

    # -- tournaments --

    async def create_tournament(self, tid: str, created: float) -> bool:
        """Register a new event id; ``False`` (nothing written) if it is taken."""
        ...

    async def append_events(self, tid: str, start: int, events: Sequence[bytes]) -> None:
        """Write an event's log entries at index ``start``: a retried write of the same
        entries changes nothing; :class:`LogConflict` if other entries are there (another
        process wrote first), :class:`LogGap` past the end."""
        ...

    async def tournament_events(self, tid: str) -> list[bytes]:
        """An event's whole log (empty for an unknown id)."""
        ...

    async def tournament_length(self, tid: str) -> int:
        """How many entries an event's log has (0 for an unknown id)."""
        ...

    async def tournament_ids(self, *, unfinished: bool) -> list[str]:
        """Event ids, newest first; only the unfinished ones if asked."""
        ...

    async def finish_tournament(self, tid: str) -> None: ...

    async def organisers(self) -> set[str]:
        """The accounts that hold the organiser role."""
        ...

    async def grant_organiser(self, player: str) -> None: ...

    async def revoke_organiser(self, player: str) -> None: ...

    async def count_accounts(self, at_most: int) -> int:
        """How many accounts exist, counting no further than ``at_most``."""
        ...


_packer = msgpack.Packer(use_bin_type=True)
"""One packer for everything stored (``packb`` builds one per call: 1.0 µs against 0.6
for a decision's log entry, one to three a decision).  Thread-safe as ``protocol``'s is:
``pack`` runs in C under the GIL from start to end and resets its buffer after each
object, and after a failure too."""


def pack(obj: Any) -> bytes:
    data: bytes = _packer.pack(obj)
    return data


def unpack(data: bytes) -> Any:
    """Unpack trusted stored data (no client limits apply)."""
    return msgpack.unpackb(data, raw=False, strict_map_key=False)
