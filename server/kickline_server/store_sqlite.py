"""The embedded store: SQLite from the standard library, one file in the data dir.

Blocking ``sqlite3`` calls run one at a time in a worker thread.  Each ``save`` is
one transaction (log rows + snapshot), so a ``kill -9`` leaves either the old or
the new match state, never a mix.  One server process owns a data directory (the
app holds a lock file), so leases here only fence a stale actor inside it.
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TypeVar

import anyio
import anyio.to_thread

from .store import LeaseLost, LogGap, Stored, StoreUnavailable

T = TypeVar("T")

_SCHEMA = """
CREATE TABLE IF NOT EXISTS matches (
    id TEXT PRIMARY KEY, snapshot BLOB NOT NULL, log_len INTEGER NOT NULL,
    finished INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS log (
    match TEXT NOT NULL, idx INTEGER NOT NULL, entry BLOB NOT NULL,
    PRIMARY KEY (match, idx)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS leases (match TEXT PRIMARY KEY, owner TEXT NOT NULL,
    until REAL NOT NULL);
CREATE TABLE IF NOT EXISTS codes (code TEXT PRIMARY KEY, match TEXT NOT NULL);
"""


class SqliteStore:
    """:class:`~.store.Store` on one SQLite file."""

    def __init__(self, path: Path | str, *, synchronous: str = "FULL",
                 clock: Callable[[], float] = time.time) -> None:
        self.path = str(path)
        self.clock = clock
        self._limiter = anyio.CapacityLimiter(1)
        self._db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        self._db.execute("PRAGMA journal_mode=WAL")
        if synchronous not in ("OFF", "NORMAL", "FULL", "EXTRA"):
            raise ValueError("synchronous must be OFF, NORMAL, FULL or EXTRA")
        self._db.execute(f"PRAGMA synchronous={synchronous}")
        self._db.executescript(_SCHEMA)

    async def _run(self, fn: Callable[..., T], *args: Any) -> T:
        try:
            return await anyio.to_thread.run_sync(fn, *args, limiter=self._limiter)
        except sqlite3.OperationalError as exc:  # locked, disk full, I/O error
            raise StoreUnavailable(str(exc)) from exc

    def _save(self, match_id: str, snapshot: bytes, entries: Sequence[bytes], start: int,
              finished: bool, owner: str) -> None:
        db = self._db
        db.execute("BEGIN IMMEDIATE")
        try:
            row = db.execute("SELECT owner FROM leases WHERE match = ?", (match_id,)).fetchone()
            if row is None or row[0] != owner:
                raise LeaseLost(f"{owner} does not hold the lease of {match_id}")
            (n,) = db.execute("SELECT count(*) FROM log WHERE match = ?", (match_id,)).fetchone()
            if n < start:
                raise LogGap(f"log of {match_id} has {n} entries, asked to write at {start}")
            db.execute("DELETE FROM log WHERE match = ? AND idx >= ?", (match_id, start))
            db.executemany("INSERT INTO log (match, idx, entry) VALUES (?, ?, ?)",
                           [(match_id, start + i, e) for i, e in enumerate(entries)])
            db.execute(
                "INSERT INTO matches (id, snapshot, log_len, finished) VALUES (?, ?, ?, ?)"
                " ON CONFLICT (id) DO UPDATE SET snapshot = excluded.snapshot,"
                " log_len = excluded.log_len, finished = excluded.finished",
                (match_id, snapshot, start + len(entries), int(finished)))
        except BaseException:
            db.execute("ROLLBACK")
            raise
        db.execute("COMMIT")

    async def save(self, match_id: str, snapshot: bytes, entries: Sequence[bytes], start: int,
                   *, finished: bool, owner: str) -> None:
        await self._run(self._save, match_id, snapshot, list(entries), start, finished, owner)

    def _load(self, match_id: str) -> Stored | None:
        row = self._db.execute("SELECT snapshot, log_len FROM matches WHERE id = ?",
                               (match_id,)).fetchone()
        if row is None:
            return None
        rows = self._db.execute(
            "SELECT entry FROM log WHERE match = ? AND idx < ? ORDER BY idx",
            (match_id, row[1])).fetchall()
        return Stored(bytes(row[0]), [bytes(r[0]) for r in rows])

    async def load(self, match_id: str) -> Stored | None:
        return await self._run(self._load, match_id)

    def _unfinished(self) -> list[str]:
        rows = self._db.execute("SELECT id FROM matches WHERE finished = 0 ORDER BY id")
        return [r[0] for r in rows.fetchall()]

    async def unfinished(self) -> list[str]:
        return await self._run(self._unfinished)

    def _acquire(self, match_id: str, owner: str, ttl: float) -> bool:
        now = self.clock()
        cur = self._db.execute(
            "INSERT INTO leases (match, owner, until) VALUES (?, ?, ?)"
            " ON CONFLICT (match) DO UPDATE SET owner = excluded.owner, until = excluded.until"
            " WHERE leases.owner = excluded.owner OR leases.until < ?",
            (match_id, owner, now + ttl, now))
        return cur.rowcount == 1

    async def acquire(self, match_id: str, owner: str, ttl: float) -> bool:
        return await self._run(self._acquire, match_id, owner, ttl)

    def _release(self, match_id: str, owner: str) -> None:
        self._db.execute("DELETE FROM leases WHERE match = ? AND owner = ?", (match_id, owner))

    async def release(self, match_id: str, owner: str) -> None:
        await self._run(self._release, match_id, owner)

    def _claim_code(self, code: str, match_id: str) -> bool:
        cur = self._db.execute("INSERT OR IGNORE INTO codes (code, match) VALUES (?, ?)",
                               (code, match_id))
        return cur.rowcount == 1

    async def claim_code(self, code: str, match_id: str) -> bool:
        return await self._run(self._claim_code, code, match_id)

    def _find_code(self, code: str) -> str | None:
        row = self._db.execute("SELECT match FROM codes WHERE code = ?", (code,)).fetchone()
        return None if row is None else str(row[0])

    async def find_code(self, code: str) -> str | None:
        return await self._run(self._find_code, code)

    async def aclose(self) -> None:
        await self._run(self._db.close)
