"""Versioned schema migrations for both stores.

The schema version of an embedded store is SQLite's ``PRAGMA user_version``; of a
Redis store, the integer at ``<prefix>schema``.  Version 0 is the release before
versioned migrations (matches, logs, leases, invite codes).  Opening a store runs, in
order, every migration above its version, each in one step that also sets the new
version (an SQLite transaction; for Redis an idempotent step then the version), and
refuses a store whose version is above :data:`LATEST`: that data was written by a
newer server, which an older one must not touch.

To add a migration (any issue may): append a :class:`Migration` with the next version
and both halves, and a test in ``tests/server/test_migrations.py`` on the data made by
the release before it.  Never edit a migration that has been released.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Final

import anyio

from .store import SchemaTooNew


@dataclass(frozen=True, slots=True)
class Migration:
    version: int
    what: str
    sqlite: Callable[[sqlite3.Connection], None]
    redis: Callable[[Any, str], Awaitable[None]]
    """``(redis client, key prefix)``; must be safe to run twice (a crash between the
    step and the version write re-runs it)."""


# --- 1: players -----------------------------------------------------------------------

_PLAYERS_SQL = """
CREATE TABLE accounts (player TEXT PRIMARY KEY, name_key TEXT NOT NULL UNIQUE,
    data BLOB NOT NULL);
CREATE TABLE standings (player TEXT NOT NULL, mode TEXT NOT NULL, rating REAL NOT NULL,
    data BLOB NOT NULL, PRIMARY KEY (player, mode)) WITHOUT ROWID;
CREATE INDEX standings_by_rating ON standings (mode, rating DESC);
CREATE TABLE results (match TEXT PRIMARY KEY, at REAL NOT NULL, record BLOB NOT NULL);
CREATE TABLE history (player TEXT NOT NULL, at REAL NOT NULL, match TEXT NOT NULL,
    PRIMARY KEY (player, match)) WITHOUT ROWID;
CREATE INDEX history_by_time ON history (player, at DESC);
CREATE TABLE unrecorded (match TEXT PRIMARY KEY) WITHOUT ROWID;
CREATE TABLE transfers (code TEXT PRIMARY KEY, player TEXT NOT NULL, expires REAL NOT NULL,
    used REAL) WITHOUT ROWID;
INSERT INTO unrecorded (match) SELECT id FROM matches WHERE finished = 1;
"""


def _players_sqlite(db: sqlite3.Connection) -> None:
    for statement in _PLAYERS_SQL.split(";"):
        if statement.strip():
            db.execute(statement)


async def _players_redis(r: Any, prefix: str) -> None:
    # Every match finished before accounts existed goes to the recorder, which indexes
    # it (unrated) in its players' histories.  Finished matches are not in any set
    # before this version: find them by their snapshot keys.
    unfinished = {_text(x) for x in await r.smembers(prefix + "unfinished")}
    found: list[str] = []
    async for key in r.scan_iter(match=prefix + "m:*:snap", count=500):
        mid = _text(key)[len(prefix) + 2: -len(":snap")]
        if mid not in unfinished:
            found.append(mid)
    if found:
        await r.sadd(prefix + "unrecorded", *found)


def _text(v: bytes | str) -> str:
    return v.decode() if isinstance(v, bytes) else v


# --- 2: tournaments --------------------------------------------------------------------

_TOURNAMENTS_SQL = """
CREATE TABLE tournaments (id TEXT PRIMARY KEY, created REAL NOT NULL,
    finished INTEGER NOT NULL DEFAULT 0, events INTEGER NOT NULL DEFAULT 0);
CREATE INDEX tournaments_by_created ON tournaments (created DESC);
CREATE TABLE tournament_events (tournament TEXT NOT NULL, idx INTEGER NOT NULL,
    event BLOB NOT NULL, PRIMARY KEY (tournament, idx)) WITHOUT ROWID;
CREATE TABLE organisers (player TEXT PRIMARY KEY) WITHOUT ROWID;
"""


def _tournaments_sqlite(db: sqlite3.Connection) -> None:
    for statement in _TOURNAMENTS_SQL.split(";"):
        if statement.strip():
            db.execute(statement)


async def _tournaments_redis(r: Any, prefix: str) -> None:
    # New keys only (t:{id}:log, tournaments, tournaments:unfinished, organisers), made
    # when first written: nothing to convert.
    return None


# --- 3: hardening ----------------------------------------------------------------------

def _hardening_sqlite(db: sqlite3.Connection) -> None:
    # Safe to run twice (as the Redis half must be), and on a store that lacks a base
    # table (the SQLite store makes them before migrating; `kickline migrate` may not).
    db.execute("CREATE TABLE IF NOT EXISTS quarantine (match TEXT PRIMARY KEY,"
               " reason TEXT NOT NULL, at REAL NOT NULL, players TEXT NOT NULL DEFAULT '')")
    for table, column, index in (("matches", "ended", "CREATE INDEX IF NOT EXISTS"
                                  " matches_by_end ON matches (ended) WHERE ended IS NOT NULL"),
                                 ("codes", "at", "CREATE INDEX IF NOT EXISTS codes_by_match"
                                  " ON codes (match)")):
        columns = {row[1] for row in db.execute(f"PRAGMA table_info({table})")}
        if not columns:
            continue
        if column not in columns:
            db.execute(f"ALTER TABLE {table} ADD COLUMN {column} REAL")
        db.execute(index)
    if {row[1] for row in db.execute("PRAGMA table_info(matches)")}:
        db.execute("UPDATE matches SET ended = CAST(strftime('%s', 'now') AS REAL)"
                   " WHERE finished = 1 AND ended IS NULL")


async def _hardening_redis(r: Any, prefix: str) -> None:
    # Every finished match gets an end time (now: the clock of its retention starts
    # here), so the purge finds it.  New keys (ended, quarantine) otherwise.
    import time

    unfinished = {_text(x) for x in await r.smembers(prefix + "unfinished")}
    now = time.time()
    async for key in r.scan_iter(match=prefix + "m:*:snap", count=500):
        mid = _text(key)[len(prefix) + 2: -len(":snap")]
        if mid not in unfinished:
            await r.zadd(prefix + "ended", {mid: now}, nx=True)
    async for key in r.scan_iter(match=prefix + "res:*", count=500):
        await r.zadd(prefix + "results", {_text(key)[len(prefix) + 4:]: now}, nx=True)


MIGRATIONS: Final = (
    Migration(1, "players: accounts, standings, match records and histories, transfer "
              "codes; every finished match queued to be recorded",
              _players_sqlite, _players_redis),
    Migration(2, "tournaments: each event's log of events, the list of events, the "
              "organisers", _tournaments_sqlite, _tournaments_redis),
    Migration(3, "hardening: quarantined matches; when each match ended and each invite "
              "code was made (for the retention purge)", _hardening_sqlite, _hardening_redis),
)

LATEST: Final = MIGRATIONS[-1].version


def too_new(version: int) -> str:
    return (f"this data has schema version {version}, written by a newer kickline server "
            f"(this one knows up to {LATEST}); run the newer server, or restore a backup")


def migrate_sqlite(db: sqlite3.Connection) -> list[int]:
    """Run the pending migrations on an open SQLite connection (autocommit mode)."""
    version = int(db.execute("PRAGMA user_version").fetchone()[0])
    if version > LATEST:
        raise SchemaTooNew(too_new(version))
    applied = []
    for m in MIGRATIONS:
        if m.version <= version:
            continue
        db.execute("BEGIN IMMEDIATE")
        try:
            m.sqlite(db)
            db.execute(f"PRAGMA user_version = {m.version:d}")
            db.execute("COMMIT")
        except BaseException:
            db.execute("ROLLBACK")
            raise
        applied.append(m.version)
    return applied


async def migrate_redis(r: Any, prefix: str) -> list[int]:
    """Run the pending migrations on a Redis store (several servers may start at once:
    one takes a lock key for the duration; the others wait for it)."""
    lock = prefix + "schema:lock"
    for _ in range(600):
        if await r.set(lock, "1", nx=True, px=60_000):
            break
        await anyio.sleep(0.1)
    try:
        version = int(await r.get(prefix + "schema") or 0)
        if version > LATEST:
            raise SchemaTooNew(too_new(version))
        applied = []
        for m in MIGRATIONS:
            if m.version <= version:
                continue
            await m.redis(r, prefix)
            await r.set(prefix + "schema", m.version)
            applied.append(m.version)
        return applied
    finally:
        await r.delete(lock)
