"""The store contract, run against both implementations."""

from __future__ import annotations

import time
from collections.abc import AsyncIterator
from functools import partial
from pathlib import Path
from typing import Any

import anyio
import pytest

from kickline_server.store import LeaseLost, LogGap, Store, StoreUnavailable, pack, unpack
from kickline_server.store_redis import RedisStore
from kickline_server.store_sqlite import SqliteStore

pytestmark = pytest.mark.anyio


@pytest.fixture(params=["sqlite", "sqlite-full", "redis"])
async def store(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Store]:
    s: Store
    if request.param == "sqlite":
        s = SqliteStore(tmp_path / "k.sqlite3")
    elif request.param == "sqlite-full":  # an fsync per group commit
        s = SqliteStore(tmp_path / "k.sqlite3", synchronous="FULL")
    else:
        url = request.getfixturevalue("redis_url")
        s = RedisStore(url, prefix=request.getfixturevalue("key_prefix"))
    try:
        yield s
    finally:
        await s.aclose()


async def test_save_and_load(store: Store) -> None:
    assert await store.load("m1") is None
    assert await store.acquire("m1", "me", 30)
    await store.save("m1", b"s0", [b"a", b"b"], 0, finished=False, owner="me")
    await store.save("m1", b"s1", [b"c"], 2, finished=False, owner="me")
    got = await store.load("m1")
    assert got is not None
    assert (got.snapshot, got.log) == (b"s1", [b"a", b"b", b"c"])
    assert await store.unfinished() == ["m1"]


async def test_a_retried_save_is_idempotent(store: Store) -> None:
    assert await store.acquire("m1", "me", 30)
    await store.save("m1", b"s0", [b"a"], 0, finished=False, owner="me")
    await store.save("m1", b"s1", [b"b", b"c"], 1, finished=False, owner="me")
    await store.save("m1", b"s1", [b"b", b"c"], 1, finished=False, owner="me")
    got = await store.load("m1")
    assert got is not None and got.log == [b"a", b"b", b"c"]
    # Rewriting from index 0 replaces everything.
    await store.save("m1", b"s2", [b"z"], 0, finished=False, owner="me")
    got = await store.load("m1")
    assert got is not None and (got.snapshot, got.log) == (b"s2", [b"z"])


async def test_a_save_without_a_snapshot_appends_to_the_log_and_keeps_the_last_one(
        store: Store) -> None:
    assert await store.acquire("m1", "me", 30)
    await store.save("m1", b"s0", [b"a"], 0, finished=False, owner="me")
    await store.save("m1", None, [b"b", b"c"], 1, finished=False, owner="me")
    await store.save("m1", None, [b"b", b"c"], 1, finished=False, owner="me")  # retried
    await store.save("m1", None, [b"d"], 3, finished=False, owner="me")
    got = await store.load("m1")
    assert got is not None and (got.snapshot, got.log) == (b"s0", [b"a", b"b", b"c", b"d"])
    await store.save("m1", b"s4", [], 4, finished=True, owner="me")
    got = await store.load("m1")
    assert got is not None and (got.snapshot, got.log) == (b"s4", [b"a", b"b", b"c", b"d"])
    assert await store.unfinished() == []


async def test_a_first_save_without_a_snapshot_is_refused(store: Store) -> None:
    assert await store.acquire("m1", "me", 30)
    with pytest.raises(LogGap):
        await store.save("m1", None, [b"a"], 0, finished=False, owner="me")
    assert await store.load("m1") is None


async def test_a_gap_is_refused(store: Store) -> None:
    assert await store.acquire("m1", "me", 30)
    with pytest.raises(LogGap):
        await store.save("m1", b"s", [b"a"], 3, finished=False, owner="me")
    assert await store.load("m1") is None


async def test_finished_matches_leave_the_unfinished_set(store: Store) -> None:
    for m in ("b", "a", "c"):
        assert await store.acquire(m, "me", 30)
        await store.save(m, b"s", [], 0, finished=False, owner="me")
    await store.save("b", b"s", [b"x"], 0, finished=True, owner="me")
    assert await store.unfinished() == ["a", "c"]


async def test_only_the_lease_holder_may_save(store: Store) -> None:
    assert await store.acquire("m1", "one", 30)
    assert await store.acquire("m1", "one", 30)  # renew
    assert not await store.acquire("m1", "two", 30)
    with pytest.raises(LeaseLost):
        await store.save("m1", b"s", [b"a"], 0, finished=False, owner="two")
    assert await store.load("m1") is None
    with pytest.raises(LeaseLost):
        await store.save("m2", b"s", [], 0, finished=False, owner="one")  # no lease at all
    await store.release("m1", "two")  # not the holder: no effect
    assert not await store.acquire("m1", "two", 30)
    await store.release("m1", "one")
    assert await store.acquire("m1", "two", 30)


async def test_an_expired_lease_can_be_taken(store: Store) -> None:
    assert await store.acquire("m1", "one", 0.05)
    with anyio.fail_after(5):
        while not await store.acquire("m1", "two", 30):
            await anyio.sleep(0.02)
    with pytest.raises(LeaseLost):
        await store.save("m1", b"s", [], 0, finished=False, owner="one")


async def test_invite_codes(store: Store) -> None:
    assert await store.find_code("ABC") is None
    assert await store.claim_code("ABC", "m1")
    assert not await store.claim_code("ABC", "m2")
    assert await store.find_code("ABC") == "m1"


async def test_pack_round_trip() -> None:
    obj = {"seed": b"\x00\x01", "log": [{"k": "d"}], "n": None}
    assert unpack(pack(obj)) == obj


async def test_sqlite_survives_reopening(tmp_path: Path) -> None:
    path = tmp_path / "k.sqlite3"
    s = SqliteStore(path)
    assert await s.acquire("m1", "me", 30)
    await s.save("m1", b"s", [b"a"], 0, finished=False, owner="me")
    await s.aclose()
    s = SqliteStore(path)
    got = await s.load("m1")
    await s.aclose()
    assert got is not None and got.log == [b"a"]


async def test_sqlite_checkpoints_in_its_own_thread_not_in_a_commit(tmp_path: Path) -> None:
    import sqlite3

    s = SqliteStore(tmp_path / "k.sqlite3", checkpoint_every=0.02)
    assert s._db.execute("PRAGMA wal_autocheckpoint").fetchone() == (0,)
    assert await s.acquire("m1", "me", 30)
    for i in range(50):
        await s.save("m1", b"s" * 2000, [b"e%d" % i], i, finished=False, owner="me")
    with anyio.fail_after(5):
        while s.checkpoints == 0:
            await anyio.sleep(0.02)
    await s.aclose()
    assert s._checkpointer is not None and not s._checkpointer.is_alive()
    # Everything committed is readable from the database file alone.
    db = sqlite3.connect(f"file:{tmp_path / 'k.sqlite3'}?immutable=1", uri=True)
    assert db.execute("SELECT log_len FROM matches").fetchone() == (50,)
    db.close()
    # checkpoint_every=0: SQLite's own checkpoints inside commits, as before.
    s = SqliteStore(tmp_path / "k2.sqlite3", checkpoint_every=0)
    assert s._db.execute("PRAGMA wal_autocheckpoint").fetchone() == (1000,)
    await s.aclose()


async def test_redis_restart_keeps_data_and_reports_unavailable_while_down(
    redis_proc: Any, key_prefix: str
) -> None:
    s = RedisStore(redis_proc.url, prefix=key_prefix, socket_timeout=1)
    try:
        assert await s.acquire("m1", "me", 60)
        await s.save("m1", b"s", [b"a"], 0, finished=False, owner="me")
        redis_proc.stop(kill=True)
        with pytest.raises(StoreUnavailable):
            await s.save("m1", b"s2", [b"b"], 1, finished=False, owner="me")
        redis_proc.start()
        with anyio.fail_after(10):
            while True:
                try:
                    await s.save("m1", b"s2", [b"b"], 1, finished=False, owner="me")
                    break
                except StoreUnavailable:
                    await anyio.sleep(0.05)
        got = await s.load("m1")
        assert got is not None and (got.snapshot, got.log) == (b"s2", [b"a", b"b"])
    finally:
        await s.aclose()


async def test_concurrent_saves_commit_independently(store: Store) -> None:
    ids = [f"m{i}" for i in range(20)]
    for m in ids[1:]:
        assert await store.acquire(m, "me", 30)
    errors: dict[str, Exception] = {}

    async def save(m: str) -> None:
        try:
            await store.save(m, b"s-" + m.encode(), [m.encode()], 0, finished=False,
                             owner="me")
        except LeaseLost as exc:
            errors[m] = exc

    async with anyio.create_task_group() as tg:
        for m in ids:
            tg.start_soon(save, m)
    assert list(errors) == ["m0"]  # no lease: refused, the others unaffected
    assert await store.load("m0") is None
    for m in ids[1:]:
        got = await store.load(m)
        assert got is not None and got.log == [m.encode()]


async def test_quarantine_sets_a_match_aside_and_keeps_it(store: Store) -> None:
    assert await store.acquire("m1", "me", 30)
    await store.save("m1", b"garbage", [b"x"], 0, finished=False, owner="me")
    await store.quarantine("m1", "undecodable snapshot", ["p1", "p2"], 123.0)
    assert await store.unfinished() == []  # never resumed
    got = await store.load("m1")
    assert got is not None and got.snapshot == b"garbage"  # kept for inspection
    q = await store.quarantine_of("m1")
    assert q is not None and (q.reason, q.at, q.players) == ("undecodable snapshot", 123.0,
                                                            ("p1", "p2"))
    assert [x.match for x in await store.quarantined()] == ["m1"]
    assert await store.quarantine_of("m2") is None


async def test_the_purge_deletes_old_logs_keeps_records_longer(store: Store) -> None:
    import time

    def snap(code: str) -> bytes:
        return pack({"meta": {"code": code}})

    for mid, finished in (("old", True), ("live", False), ("unrecorded", True)):
        assert await store.acquire(mid, "me", 30)
        assert await store.claim_code(f"C-{mid}", mid)
        await store.save(mid, snap(f"C-{mid}"), [b"e"], 0, finished=finished, owner="me")
    await store.record_result("old", "standard", [], 5.0, lambda st: (b"record", []))
    assert await store.claim_code("C-orphan", "never-saved")
    later = time.time() + 60
    purged = await store.purge(logs_before=later, records_before=None, codes_before=later,
                               now=later)
    assert (purged.matches, purged.codes) == (1, 1)
    assert await store.load("old") is None and await store.find_code("C-old") is None
    assert await store.result("old") == b"record"  # records outlive full logs
    assert await store.find_code("C-orphan") is None
    for mid in ("live", "unrecorded"):  # running, or the recorder still needs it
        assert await store.load(mid) is not None and await store.find_code(f"C-{mid}") == mid
    again = await store.purge(logs_before=later, records_before=later, codes_before=later,
                              now=later)
    assert again.records == 1 and await store.result("old") is None


async def _save_all(store: SqliteStore, ids: list[str]) -> None:
    for m in ids:
        assert await store.acquire(m, "me", 30)
    async with anyio.create_task_group() as tg:
        for m in ids:
            tg.start_soon(partial(store.save, m, b"s-" + m.encode(), [m.encode()], 0,
                                  finished=False, owner="me"))


async def _all_saved(store: SqliteStore, ids: list[str]) -> bool:
    for m in ids:
        got = await store.load(m)
        if got is None or (got.snapshot, got.log) != (b"s-" + m.encode(), [m.encode()]):
            return False
    return True


async def test_saves_of_one_loop_pass_commit_together_on_the_loops_thread(
        tmp_path: Path) -> None:
    store = SqliteStore(tmp_path / "k.sqlite3")
    try:
        ids = [f"m{i}" for i in range(20)]
        await _save_all(store, ids)
        assert store.inline_commits == 1  # one transaction for the 20, no thread
        assert await _all_saved(store, ids)
    finally:
        await store.aclose()


async def test_a_save_failing_after_it_wrote_leaves_nothing_and_the_batch_commits(
        tmp_path: Path) -> None:
    """Saves take no savepoint of their own (they refuse before they write): one that
    fails once it has written (here its finish time cannot be read) makes the batch be
    written again with a savepoint for each write, so it leaves no row behind and the
    others commit."""
    broken: list[bool] = []

    def clock() -> float:
        if broken:
            raise RuntimeError("no clock")
        return time.time()

    store = SqliteStore(tmp_path / "k.sqlite3", clock=clock)
    try:
        ids = [f"m{i}" for i in range(6)]
        await _save_all(store, ids)  # snapshots: the first saves
        broken.append(True)
        failed: list[Exception] = []

        async def save(m: str) -> None:
            try:
                await store.save(m, None, [b"next"], 1, finished=m == "m3", owner="me")
            except RuntimeError as exc:
                failed.append(exc)

        async with anyio.create_task_group() as tg:
            for m in ids:
                tg.start_soon(save, m)
        assert [str(e) for e in failed] == ["no clock"]
        for m in ids:
            got = await store.load(m)
            assert got is not None
            assert got.log == ([m.encode()] if m == "m3" else [m.encode(), b"next"])
        assert store.inline_commits == 2
    finally:
        await store.aclose()


@pytest.mark.parametrize("why", ["FULL", "a bot thinks"])
async def test_saves_commit_in_a_thread_with_full_or_while_a_thread_works(
        tmp_path: Path, why: str) -> None:
    store = SqliteStore(tmp_path / "k.sqlite3",
                        synchronous="FULL" if why == "FULL" else "NORMAL")
    if why != "FULL":
        store.inline_when = lambda: False  # the lobby's threads_idle, with a bot thinking
    try:
        ids = [f"m{i}" for i in range(5)]
        await _save_all(store, ids)
        assert store.inline_commits == 0
        assert await _all_saved(store, ids)
    finally:
        await store.aclose()


async def test_a_save_finding_the_connection_busy_in_a_thread_commits_after_it(
        tmp_path: Path) -> None:
    store = SqliteStore(tmp_path / "k.sqlite3")
    try:
        assert await store.acquire("m1", "me", 30)
        store._lock.acquire()  # as a worker thread's read holds it
        async with anyio.create_task_group() as tg:
            tg.start_soon(partial(store.save, "m1", b"s-m1", [b"m1"], 0, finished=False,
                                  owner="me"))
            await anyio.wait_all_tasks_blocked()  # the save waits in a thread for the lock
            store._lock.release()
        assert store.inline_commits == 0
        assert await _all_saved(store, ["m1"])
    finally:
        await store.aclose()


async def test_writes_in_a_group_commit_that_never_ran_fail_and_their_writers_go_on() -> None:
    """A writer whose save joined another's group commit, and that commit was cancelled
    before it ran (its task stopped while it waited for a worker thread), gets an error
    to retry on: it must not find its write neither pending nor done and commit empty
    batches forever."""
    from kickline_server.store_sqlite import _Batches, _Write

    batches = _Batches()
    taken = anyio.Event()
    empty: list[int] = []

    async def commit(batch: list[_Write]) -> None:
        if not batch:
            empty.append(1)
            raise AssertionError("an empty batch committed: a writer would loop on")
        taken.set()
        await anyio.sleep_forever()  # a worker thread that never comes

    first, second = _Write(print, ()), _Write(print, ())
    failed: list[BaseException] = []
    scope = anyio.CancelScope()

    async def flusher() -> None:
        with scope:
            await batches.run(first, commit, gather=True)

    async def joiner() -> None:
        try:
            await batches.run(second, commit, gather=True)
        except StoreUnavailable as exc:
            failed.append(exc)

    async with anyio.create_task_group() as tg:
        tg.start_soon(flusher)
        tg.start_soon(joiner)  # joins the flusher's batch during its gathering pass
        await taken.wait()
        scope.cancel()
    assert [type(e) for e in failed] == [StoreUnavailable] and not empty
    assert not batches.flushing and not batches.pending
