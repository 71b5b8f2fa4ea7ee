"""The players' half of the store contract, run against both implementations."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import anyio
import pytest

from kickline_server.accounts import Account
from kickline_server.migrations import LATEST
from kickline_server.ratings import Standing
from kickline_server.store import Store, pack, unpack
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
    try:
        await s.migrate()
        yield s
    finally:
        await s.aclose()


async def test_a_new_store_is_at_the_latest_schema(store: Store) -> None:
    assert await store.schema_version() == LATEST
    assert await store.migrate() == []  # nothing left to do


async def test_accounts_are_unique_by_name_key_and_player(store: Store) -> None:
    ada = Account("p1", "Ada", 1.0)
    assert await store.create_account(ada)
    assert not await store.create_account(Account("p2", "ADA", 2.0))  # same name key
    assert not await store.create_account(Account("p1", "Other", 2.0))  # same player
    assert await store.account("p1") == ada
    assert await store.account_by_name("ada") == ada
    assert await store.account("p2") is None and await store.account_by_name("bob") is None
    changed = ada.with_password("scrypt$x").signed_out_everywhere()
    await store.put_account(changed)
    assert await store.account("p1") == changed


def _build(record: dict[str, object], delta: float):  # type: ignore[no-untyped-def]
    def make(current: list[Standing]) -> tuple[bytes, list[Standing]]:
        return pack(record), [Standing(rating=st.rating + delta, rated=st.rated + 1)
                              for st in current]
    return make


async def test_a_result_is_recorded_once_and_indexed_newest_first(store: Store) -> None:
    await store.acquire("m1", "me", 30)
    await store.save("m1", b"s", [], 0, finished=True, owner="me")
    await store.acquire("m2", "me", 30)
    await store.save("m2", b"s", [], 0, finished=False, owner="me")
    assert await store.unrecorded() == ["m1"]
    rec, new = await store.record_result("m1", "standard", ["a", "b"], 10.0,
                                         _build({"match": "m1"}, 10))
    assert new and unpack(rec) == {"match": "m1"}
    assert await store.unrecorded() == []
    again, new = await store.record_result("m1", "standard", ["a", "b"], 10.0,
                                           _build({"match": "other"}, 99))
    assert not new and unpack(again) == {"match": "m1"}
    assert (await store.standings("a"))["standard"].rating == 1510
    await store.record_result("m3", "standard", ["a"], 20.0, _build({"match": "m3"}, 5))
    await store.record_result("m4", "advanced", ["a"], 30.0, _build({"match": "m4"}, 1))
    assert [unpack(r)["match"] for r in await store.history("a")] == ["m4", "m3", "m1"]
    assert [unpack(r)["match"] for r in await store.history("a", limit=1, before=30.0)
            ] == ["m3"]
    assert await store.history("nobody") == []
    st = await store.standings("a")
    assert st["standard"].rating == 1515 and st["standard"].rated == 2
    assert st["advanced"].rating == 1501
    assert await store.result("m3") is not None and await store.result("zz") is None
    # The final save of a match already recorded does not queue it again.
    await store.save("m1", b"s2", [], 0, finished=True, owner="me")
    assert await store.unrecorded() == []


async def test_concurrent_results_for_one_player_both_count(store: Store) -> None:
    async with anyio.create_task_group() as tg:
        for i in range(6):
            tg.start_soon(store.record_result, f"m{i}", "standard", ["a", f"o{i}"],
                          float(i), _build({"match": f"m{i}"}, 1))
    assert (await store.standings("a"))["standard"].rated == 6


async def test_leaderboard_is_best_first(store: Store) -> None:
    for i, (p, r) in enumerate([("a", 5), ("b", 50), ("c", -20)]):
        await store.record_result(f"m{i}", "standard", [p], 1.0, _build({"m": i}, r))
    assert [p for p, _ in await store.leaderboard("standard", limit=10)] == ["b", "a", "c"]
    assert [p for p, _ in await store.leaderboard("standard", limit=2)] == ["b", "a"]
    assert await store.leaderboard("advanced", limit=5) == []


async def test_a_transfer_code_works_once_and_then_says_why_not(store: Store) -> None:
    await store.put_transfer("h1", "p1", expires=100.0)
    await store.put_transfer("h2", "p1", expires=100.0)
    assert await store.take_transfer("h1", 50.0) == ("ok", "p1")
    assert await store.take_transfer("h1", 51.0) == ("used", None)
    assert await store.take_transfer("h2", 101.0) == ("expired", None)
    assert await store.take_transfer("nope", 1.0) == ("unknown", None)
