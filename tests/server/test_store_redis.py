"""The server on the Redis store, end to end, with Redis restarted mid-match."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import anyio
import pytest
from journeys import play_of, quick_match, restart_mid_match

from kickline_server.botclient import BotState, play

pytestmark = pytest.mark.anyio

TOY = {"game": "toy", "config": {"mode": "training", "board": 60}}
SEED = bytes(range(32))


async def create_and_join(url: str, *, during: Any = None) -> tuple[dict[str, Any],
                                                                   dict[str, Any]]:
    codes: list[str] = []
    results: dict[str, Any] = {}
    sa = BotState()

    async def creator() -> None:
        results["a"] = await play(url, how="create", seed="1", **TOY, state=sa,
                                  on_code=lambda m, c: codes.append(c))

    with anyio.fail_after(60):
        async with anyio.create_task_group() as tg:
            tg.start_soon(creator)
            while not codes:
                await anyio.sleep(0.01)

            async def joiner() -> None:
                results["b"] = await play(url, how="join", code=codes[0], seed="2", **TOY)

            tg.start_soon(joiner)
            if during is not None:
                await during(sa)
    return results["a"], results["b"]


async def test_a_match_on_redis_survives_a_redis_restart(
    serve: Any, server_config: Any, redis_proc: Any, key_prefix: str
) -> None:
    async with serve(server_config(fixed_seed=SEED)) as url:
        expected = await create_and_join(url)

    restarted: list[bool] = []

    async def restart_redis(state: BotState) -> None:
        while state.decisions < 15:
            await anyio.sleep(0.005)
        await anyio.to_thread.run_sync(lambda: redis_proc.stop(kill=True))
        await anyio.sleep(0.3)  # the match waits: nothing is answered unpersisted
        stalled_at = state.decisions
        await anyio.sleep(0.3)
        assert state.decisions <= stalled_at + 1
        await anyio.to_thread.run_sync(redis_proc.start)
        restarted.append(True)

    config = server_config(redis_url=redis_proc.url, redis_prefix=key_prefix,
                           fixed_seed=SEED)
    async with serve(config) as url:
        got = await create_and_join(url, during=restart_redis)
    assert restarted
    assert got[0]["result"] == expected[0]["result"] == got[1]["result"]
    assert play_of(got[0]) == play_of(expected[0])


async def test_server_restart_on_redis_resumes_the_match(
    serve: Any, server_config: Any, redis_url: str, key_prefix: str, client: Any
) -> None:
    config = server_config(redis_url=redis_url, redis_prefix=key_prefix)
    _, results = await restart_mid_match(serve, config, client, TOY)
    assert results["a"]["result"] == results["b"]["result"]
    assert results["a"]["log"][0]["d"] == "sprint"


async def test_one_server_per_match_and_adoption_when_it_goes(
    serve: Any, server_config: Any, redis_url: str, key_prefix: str, client: Any,
    tmp_path: Any
) -> None:
    from kickline_server.actor import ActorLimits
    from kickline_server.lobby import LobbyLimits

    # Renewed every TTL/3: 6 s lets a busy machine's event loop stall for 4 s without the
    # lease lapsing (both servers share this test's one loop).  Adoption below needs no
    # expiry: the first server releases its lease when it stops.
    limits = LobbyLimits(min_decision=0.01, actor=ActorLimits(lease_ttl=6.0))
    shared = {"redis_url": redis_url, "redis_prefix": key_prefix, "lobby": limits,
              "secret": "a secret both servers share"}
    first = server_config(**shared)
    second = replace(first, data_dir=tmp_path / "other")  # another server id
    async with serve(second) as url_b:
        async with serve(first) as url_a, client(url_a) as a, client(url_a) as b:
            wa, wb = await a.hello("a"), await b.hello("b")
            m, _ = await quick_match(a, b, TOY)
            # The first server renews its lease (the event, seen in Redis: the lease's
            # time to live goes back up), so it keeps the match.
            await lease_renewed(redis_url, f"{key_prefix}lease:{m['match']}")
            async with client(url_b) as other:  # any process serves any player:
                await other.hello(token=wa["token"])  # through the one that runs it
                await other.send({"t": "open", "id": "o", "match": m["match"]})
                assert (await other.expect("ack", re="o"))["match"] == m["match"]
        # The first server has stopped and released its lease: the second adopts.
        with anyio.fail_after(10):
            while True:
                async with client(url_b) as other:
                    await other.hello(token=wa["token"])
                    await other.send({"t": "open", "id": "o", "match": m["match"]})
                    if (await other.recv())["t"] == "ack":
                        break
                await anyio.sleep(0.1)
        sa = BotState(token=wa["token"], match=m["match"], seat=0)
        sb = BotState(token=wb["token"], match=m["match"], seat=1)
        results: dict[str, Any] = {}
        with anyio.fail_after(30):
            async with anyio.create_task_group() as tg:
                async def one(key: str, st: BotState) -> None:
                    results[key] = await play(url_b, state=st, seed=key, **TOY)
                tg.start_soon(one, "a", sa)
                tg.start_soon(one, "b", sb)
    assert results["a"]["result"] == results["b"]["result"]


async def lease_renewed(redis_url: str, key: str) -> None:
    """Return once the lease ``key`` has been renewed while watched; fail if it lapses."""
    import redis.asyncio as aioredis

    r = aioredis.Redis.from_url(redis_url)
    try:
        with anyio.fail_after(30):
            low = None
            while True:
                ttl = await r.pttl(key)
                assert ttl != -2, "the lease lapsed"
                if low is not None and ttl > low:
                    return
                low = ttl if low is None else min(low, ttl)
                await anyio.sleep(0.05)
    finally:
        await r.aclose()


async def test_a_redis_outage_answers_busy_with_retry_after(
    serve: Any, server_config: Any, redis_proc: Any, key_prefix: str, client: Any,
    caplog: Any
) -> None:

    config = server_config(redis_url=redis_proc.url, redis_prefix=key_prefix)
    async with serve(config) as url, client(url) as a:
        await a.hello("a")
        await a.send({"t": "create", "id": "m", **TOY})
        made = await a.expect("ack", re="m")
        await anyio.to_thread.run_sync(lambda: redis_proc.stop(kill=True))
        caplog.clear()
        for i, msg in enumerate([{"t": "create", **TOY}, {"t": "join", "code": "ABCDEF"},
                                 {"t": "open", "match": "nosuchmatch"},
                                 {"t": "watch", "code": "ABCDEF"}]):
            await a.send({**msg, "id": i})
            err = await a.expect("error", re=i)
            assert err["code"] == "busy" and err["retry_after"] > 0, err
        assert not [r for r in caplog.records if r.exc_info]
        assert len([r for r in caplog.records if "unavailable" in r.getMessage()]) == 1
        await anyio.to_thread.run_sync(redis_proc.start)
        await a.send({"t": "join", "id": "again", "code": made["code"]})
        assert (await a.expect("ack", re="again"))["match"] == made["match"]


async def test_a_full_redis_is_an_outage_not_a_crash(redis_url: str, key_prefix: str) -> None:
    import redis.asyncio as aioredis

    from kickline_server.store import StoreUnavailable
    from kickline_server.store_redis import RedisStore

    admin = aioredis.Redis.from_url(redis_url)
    store = RedisStore(redis_url, prefix=key_prefix)
    try:
        assert await store.acquire("m1", "me", 30)
        await store.save("m1", b"s0", [b"a"], 0, finished=False, owner="me")
        await admin.config_set("maxmemory-policy", "noeviction")
        await admin.config_set("maxmemory", 1)  # Redis's own "disk full"
        try:
            with pytest.raises(StoreUnavailable, match="OutOfMemory"):
                await store.save("m1", b"s1", [b"b" * 1000], 1, finished=False, owner="me")
            with pytest.raises(StoreUnavailable):
                await store.claim_code("CODE", "m1")
        finally:
            await admin.config_set("maxmemory", 0)
        await store.save("m1", b"s1", [b"b"], 1, finished=False, owner="me")
        got = await store.load("m1")
        assert got is not None and got.log == [b"a", b"b"]
    finally:
        await store.aclose()
        await admin.aclose()
