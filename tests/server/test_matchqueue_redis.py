"""The quick-match queue in Redis, as several processes share it: one entry per player,
a pair taken once however many processes race for it, and no entries of a process that
is gone."""

from __future__ import annotations

import json
import random
from typing import Any

import anyio
import pytest
import redis.asyncio as aioredis

from kickline_server.matchqueue import Entry
from kickline_server.matchqueue_redis import RedisQueue

pytestmark = pytest.mark.anyio


def on(node: str | None, player: str, since: float = 0.0) -> Entry:
    """An entry queued by process ``node`` (registration token ``tok-<node>``)."""
    request: dict[str, Any] = {"name": player}
    if node is not None:
        request.update(node=node, token=f"tok-{node}")
    return Entry(player, 1500.0, since, None, request)


async def register(r: aioredis.Redis, prefix: str, node: str, token: str) -> None:
    await r.set(f"{prefix}node:{node}", json.dumps({"token": token}))


async def test_one_entry_per_player_and_a_pair_taken_only_if_both_still_wait(
    redis_url: str, key_prefix: str
) -> None:
    q = RedisQueue(redis_url, prefix=key_prefix)
    await q.add("k1", on(None, "a"))
    await q.add("k2", on(None, "a", 1.0))
    assert await q.waiting("k1") == [] and await q.waiting("k2") == [on(None, "a", 1.0)]
    assert await q.find("a") == ("k2", on(None, "a", 1.0))
    assert await q.keys() == ["k2"]
    assert await q.remove("a") == ("k2", on(None, "a", 1.0))
    assert await q.remove("a") is None and await q.keys() == []
    for p in ("a", "b", "c"):
        await q.add("k", on(None, p))
    assert await q.take("k", ["a", "b"]) and await q.count("k") == 1
    assert not await q.take("k", ["b", "c"])  # b was taken: c stays
    assert [e.player for e in await q.waiting("k")] == ["c"]
    await q.aclose()


async def test_processes_racing_for_overlapping_pairs_never_take_a_player_twice(
    redis_url: str, key_prefix: str
) -> None:
    queues = [RedisQueue(redis_url, prefix=key_prefix) for _ in range(3)]
    players = [f"p{i}" for i in range(40)]
    for p in players:
        await queues[0].add("k", on(None, p))
    won: list[tuple[str, str]] = []
    rng = random.Random(7)

    async def race(q: RedisQueue, pairs: list[tuple[str, str]]) -> None:
        for a, b in pairs:
            if await q.take("k", [a, b]):
                won.append((a, b))

    async with anyio.create_task_group() as tg:
        for q in queues:  # each "process" pairs the queue its own way
            order = players[:]
            rng.shuffle(order)
            tg.start_soon(race, q, list(zip(order[::2], order[1::2], strict=True)))
    taken = [p for pair in won for p in pair]
    assert len(taken) == len(set(taken))  # nobody in two matches
    left = {e.player for e in await queues[0].waiting("k")}
    assert left == set(players) - set(taken)
    for q in queues:
        await q.aclose()


async def test_the_entries_of_a_process_that_is_gone_are_dropped_not_paired(
    redis_url: str, key_prefix: str
) -> None:
    r = aioredis.Redis.from_url(redis_url)
    q = RedisQueue(redis_url, prefix=key_prefix)
    await register(r, key_prefix, "alive", "tok-alive")
    await register(r, key_prefix, "restarted", "a newer token")  # same id, new process
    for node, player in (("alive", "a"), ("alive", "b"), ("dead", "c"), ("restarted", "d")):
        await q.add("k", on(node, player))
    assert not await q.take("k", ["a", "c"])  # c's process is gone
    assert sorted(e.player for e in await q.waiting("k")) == ["a", "b"]
    assert await q.count("k") == 2
    assert await q.find("c") is None and await q.find("d") is None  # dropped for good
    # The process stops (its registration goes): its entries go with it.
    await r.delete(f"{key_prefix}node:alive")
    assert await q.waiting("k") == [] and await q.keys() == []
    await q.aclose()
    await r.aclose()
