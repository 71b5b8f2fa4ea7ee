"""The tournament half of the store contract, on SQLite and on a real Redis; and the
schema migration that adds it, on data the release before it wrote."""

from __future__ import annotations

import sqlite3
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import redis.asyncio as aioredis

from kickline_server.migrations import LATEST, MIGRATIONS
from kickline_server.store import LogConflict, LogGap, Store
from kickline_server.store_redis import RedisStore
from kickline_server.store_sqlite import SqliteStore

pytestmark = pytest.mark.anyio


@pytest.fixture(params=["sqlite", "redis"])
async def store(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Store]:
    s: Store
    if request.param == "sqlite":
        s = SqliteStore(tmp_path / "k.sqlite3")
    else:
        s = RedisStore(request.getfixturevalue("redis_url"),
                       prefix=request.getfixturevalue("key_prefix"))
        await s.migrate()
    try:
        yield s
    finally:
        await s.aclose()


async def test_an_events_log_appends_idempotently(store: Store) -> None:
    assert await store.create_tournament("t1", 100.0)
    assert not await store.create_tournament("t1", 200.0)
    await store.append_events("t1", 0, [b"a", b"b"])
    await store.append_events("t1", 2, [b"c"])
    await store.append_events("t1", 2, [b"c"])  # a retried write changes nothing
    assert await store.tournament_events("t1") == [b"a", b"b", b"c"]
    # Another writer's entries are never written over (its copy was newer).
    for start, events in ((2, [b"x"]), (1, [b"b"]), (2, [b"c", b"d"])):
        with pytest.raises(LogConflict):
            await store.append_events("t1", start, events)
    assert await store.tournament_events("t1") == [b"a", b"b", b"c"]
    assert await store.tournament_length("t1") == 3
    assert await store.tournament_length("nope") == 0
    with pytest.raises(LogGap):
        await store.append_events("t1", 5, [b"x"])
    assert await store.tournament_events("nope") == []


async def test_events_are_listed_newest_first_and_finished_ones_drop_out(store: Store) -> None:
    for tid, at in (("old", 1.0), ("new", 3.0), ("mid", 2.0)):
        await store.create_tournament(tid, at)
        await store.append_events(tid, 0, [b"created"])
    assert await store.tournament_ids(unfinished=False) == ["new", "mid", "old"]
    await store.finish_tournament("mid")
    assert await store.tournament_ids(unfinished=True) == ["new", "old"]
    assert await store.tournament_ids(unfinished=False) == ["new", "mid", "old"]


async def test_organisers(store: Store) -> None:
    assert await store.organisers() == set()
    await store.grant_organiser("p1")
    await store.grant_organiser("p1")
    await store.grant_organiser("p2")
    await store.revoke_organiser("p1")
    assert await store.organisers() == {"p2"}


async def test_an_embedded_store_at_version_1_gains_the_tournament_tables(
        tmp_path: Path) -> None:
    path = tmp_path / "k.sqlite3"
    SqliteStore(path)  # the base tables, then every migration: undo the last one
    db = sqlite3.connect(path, isolation_level=None)
    for table in ("tournament_events", "tournaments", "organisers"):
        db.execute(f"DROP TABLE {table}")
    db.execute("PRAGMA user_version = 1")
    db.execute("INSERT INTO accounts (player, name_key, data) VALUES ('p1', 'ada', x'80')")
    db.close()
    assert MIGRATIONS[-1].version == LATEST >= 2
    store = SqliteStore(path)
    try:
        assert await store.migrate() == list(range(2, LATEST + 1))
        assert await store.schema_version() == LATEST
        await store.append_events("t1", 0, [b"x"])
        assert await store.tournament_events("t1") == [b"x"]
    finally:
        await store.aclose()
    db = sqlite3.connect(path)
    assert db.execute("SELECT player FROM accounts").fetchall() == [("p1",)]
    db.close()


async def test_a_redis_store_at_version_1_moves_to_2(redis_url: str, key_prefix: str) -> None:
    r = aioredis.Redis.from_url(redis_url)
    await r.set(key_prefix + "schema", 1)
    await r.set(key_prefix + "acct:p1", b"\x80")
    store = RedisStore(redis_url, prefix=key_prefix)
    try:
        assert await store.migrate() == list(range(2, LATEST + 1))
        assert await store.schema_version() == LATEST
    finally:
        await store.aclose()
    assert await r.get(key_prefix + "acct:p1") == b"\x80"
    await r.aclose()
