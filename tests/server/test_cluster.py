"""Several server processes on one Redis: a lost lease is never silent, a drain hands
its matches over, one server id runs once, and a Redis that keeps nothing is named."""

from __future__ import annotations

import logging
import shutil
import subprocess
from dataclasses import replace
from pathlib import Path
from typing import Any

import anyio
import pytest
import redis.asyncio as aioredis
from journeys import finish, opening, play_of, quick_match

from kickline_server.actor import ActorLimits
from kickline_server.app import run_server
from kickline_server.botclient import BotState, play
from kickline_server.cluster import DuplicateServer
from kickline_server.lobby import LobbyLimits

pytestmark = pytest.mark.anyio

TOY = {"game": "toy", "config": {"mode": "training", "board": 40}}
SEED = bytes(range(32))


def shared(redis_url: str, key_prefix: str, ttl: float) -> dict[str, Any]:
    return {"redis_url": redis_url, "redis_prefix": key_prefix, "fixed_seed": SEED,
            "secret": "a secret the servers share",
            "lobby": LobbyLimits(min_decision=0.01, actor=ActorLimits(lease_ttl=ttl))}


async def closed_with(c: Any) -> tuple[str, int | None]:
    """The code of the error before the close, and the close code."""
    code = ""
    with anyio.fail_after(10):
        try:
            while True:
                msg = await c.recv()
                if msg["t"] == "error":
                    code = msg["code"]
        except Exception:  # the connection closed
            pass
    return code, c.ws.close_code


async def test_a_lost_lease_tells_the_clients_to_reconnect(
    serve: Any, server_config: Any, redis_url: str, key_prefix: str, client: Any
) -> None:
    config = server_config(**shared(redis_url, key_prefix, ttl=0.6))
    r = aioredis.Redis.from_url(redis_url)
    async with serve(config) as url, client(url) as a, client(url) as b:
        await a.hello("a")
        await b.hello("b")
        m, _ = await quick_match(a, b, TOY)
        # Another process takes the match (as after a stall longer than the lease).
        await r.set(f"{key_prefix}lease:{m['match']}", "someone-else", px=60_000)
        for c in (a, b):
            assert await closed_with(c) == ("reconnect", 1012)
    await r.aclose()


async def journey(url_first: str, url_then: str, client: Any,
                  between: Any = None) -> dict[str, Any]:
    """Two players quick-match on ``url_first``, seat 0 plays ``sprint``; ``between``
    runs; then bots finish the match through ``url_then``."""
    async with client(url_first) as a, client(url_first) as b:
        wa, wb = await a.hello("a"), await b.hello("b")
        m, p = await quick_match(a, b, TOY)
        await a.send({"t": "decide", "id": "x", "match": m["match"], "version": p["version"],
                      "decision": "sprint"})
        await a.expect("ack", re="x")
        if between is not None:
            await between(a, b)
    states = {"a": BotState(token=wa["token"], match=m["match"], seat=0),
              "b": BotState(token=wb["token"], match=m["match"], seat=1)}
    results: dict[str, Any] = {}
    with anyio.fail_after(60):
        async with anyio.create_task_group() as tg:
            async def one(key: str, st: BotState) -> None:
                results[key] = await play(url_then, state=st, seed=key, **TOY)
            for key, st in states.items():
                tg.start_soon(one, key, st)
    return results


async def test_a_drain_hands_every_match_to_another_process_at_once(
    serve: Any, server_config: Any, redis_url: str, key_prefix: str, client: Any,
    tmp_path: Path
) -> None:
    # Leases of 60 s: a match moves only because the drain released it, never because
    # a lease ran out.
    first = server_config(**shared(redis_url, key_prefix, ttl=60.0))
    second = replace(first, data_dir=tmp_path / "second")
    async with serve(second) as url_b:
        expected = await journey(url_b, url_b, client)  # uninterrupted, same dice

        told: dict[str, tuple[str, int | None]] = {}
        stop = anyio.Event()

        async def drain(a: Any, b: Any) -> None:
            stop.set()
            for key, c in (("a", a), ("b", b)):
                told[key] = await closed_with(c)

        async with anyio.create_task_group() as tg:
            url_a = await tg.start(run_server, first, stop)
            got = await journey(f"ws://127.0.0.1:{url_a}/ws", url_b, client, drain)
    assert told == {"a": ("reconnect", 1012), "b": ("reconnect", 1012)}
    assert got["a"]["result"] == expected["a"]["result"] == got["b"]["result"]
    assert play_of(got["a"]) == play_of(expected["a"])


async def test_two_processes_with_one_server_id_are_refused(
    serve: Any, server_config: Any, redis_url: str, key_prefix: str, tmp_path: Path
) -> None:
    first = server_config(**shared(redis_url, key_prefix, ttl=0.5))
    second = replace(first, data_dir=tmp_path / "copy")
    async with serve(first):
        shutil.copytree(first.data_dir, second.data_dir,
                        ignore=shutil.ignore_patterns("server.lock", "*.sqlite3*"))
        with pytest.raises(DuplicateServer, match="give each process its own --data-dir"):
            with anyio.fail_after(10):
                await run_server(second)
    # Once the first has stopped, its id is free: a restart after a crash is not refused.
    async with serve(second):
        pass


async def test_a_redis_without_persistence_is_warned_about(
    serve: Any, server_config: Any, tmp_path: Path, key_prefix: str, caplog: Any,
    port: Any
) -> None:
    binary = shutil.which("redis-server")
    if binary is None:
        pytest.skip("redis-server is not installed")
    free = port()
    proc = subprocess.Popen([binary, "--port", str(free), "--bind", "127.0.0.1", "--dir",
                             str(tmp_path), "--appendonly", "no", "--save", ""],
                            stdout=subprocess.DEVNULL)
    try:
        url = f"redis://127.0.0.1:{free}/0"
        with anyio.fail_after(10):
            while True:
                try:
                    await aioredis.Redis.from_url(url).ping()
                    break
                except Exception:
                    await anyio.sleep(0.05)
        caplog.set_level(logging.WARNING, logger="kickline_server.cluster")
        async with serve(server_config(redis_url=url, redis_prefix=key_prefix)):
            pass
    finally:
        proc.kill()
        proc.wait()
    assert any("Redis does not persist" in r.getMessage() for r in caplog.records)


async def test_players_on_different_processes_play_one_match_to_the_end(
    serve: Any, server_config: Any, redis_url: str, key_prefix: str, tmp_path: Path
) -> None:
    from prometheus_client import REGISTRY

    from kickline_server import toy
    from kickline_server.dice import check_over

    first = server_config(**shared(redis_url, key_prefix, ttl=15.0))
    second = replace(first, data_dir=tmp_path / "second")
    routed = REGISTRY.get_sample_value("kickline_routed_messages_total",
                                       {"direction": "forwarded"}) or 0.0
    codes: list[str] = []
    results: dict[str, Any] = {}
    async with serve(first) as url_a, serve(second) as url_b:
        with anyio.fail_after(60):
            async with anyio.create_task_group() as tg:
                async def creator() -> None:
                    results["a"] = await play(url_a, how="create", seed="1", **TOY,
                                              on_code=lambda m, c: codes.append(c))
                tg.start_soon(creator)
                while not codes:
                    await anyio.sleep(0.01)
                # The joiner is connected to the other process: its join and every
                # decision go to the match's process through Redis, and back.
                results["b"] = await play(url_b, how="join", code=codes[0], seed="2", **TOY)
    a, b = results["a"], results["b"]
    assert a["match"] == b["match"] and a["result"] == b["result"]
    assert a["result"]["reason"] == "played"
    final = check_over(toy.GAME, b)  # the dice, as the player checks them
    assert toy.GAME.result(final) == {k: b["result"][k] for k in ("winner", "score")}
    forwarded = REGISTRY.get_sample_value("kickline_routed_messages_total",
                                          {"direction": "forwarded"}) or 0.0
    assert forwarded - routed > 10  # the join, the open, the decisions


@pytest.mark.slow
async def test_serve_workers_shares_one_port_between_processes(
    redis_url: str, tmp_path: Path, port: Any
) -> None:
    """`kickline serve --workers 2`: two processes on one port (SO_REUSEPORT) behave as
    one server: a match created through one connection and joined through another is
    played to the end wherever each connection landed; SIGTERM stops them all."""
    import json
    import os
    import signal
    import sys
    import urllib.request

    free = port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "kickline_server.cli", "serve", "--workers", "2", "--port",
         str(free), "--redis-url", redis_url, "--data-dir", str(tmp_path / "d"),
         "--rate", "5000", "--log-level", "WARNING"],
        env={**os.environ, "KICKLINE_LEASE_TTL": "5"}, stderr=subprocess.PIPE)
    url = f"ws://127.0.0.1:{free}/ws"
    try:
        with anyio.fail_after(60):
            while True:
                assert proc.poll() is None, proc.stderr.read() if proc.stderr else ""
                r = aioredis.Redis.from_url(redis_url)
                nodes = [k async for k in r.scan_iter(match="kl:node:*")]
                await r.aclose()
                if len(nodes) == 2:
                    break
                await anyio.sleep(0.2)
        assert all(n.decode().endswith((".w0", ".w1")) for n in nodes)
        codes: list[str] = []
        results: dict[str, Any] = {}
        with anyio.fail_after(60):
            async with anyio.create_task_group() as tg:
                async def creator() -> None:
                    results["a"] = await play(url, how="create", seed="1", **TOY,
                                              on_code=lambda m, c: codes.append(c))
                tg.start_soon(creator)
                while not codes:
                    await anyio.sleep(0.01)
                results["b"] = await play(url, how="join", code=codes[0], seed="2", **TOY)
        assert results["a"]["result"] == results["b"]["result"]

        def metrics() -> str:
            with urllib.request.urlopen(f"http://127.0.0.1:{free}/metrics", timeout=5) as m:
                return m.read().decode()
        text = await anyio.to_thread.run_sync(metrics)
        finished = [line for line in text.splitlines()
                    if line.startswith('kickline_matches_finished_total{reason="played"}')]
        assert finished and float(finished[0].split()[-1]) == 1.0  # summed over workers
        json.dumps(results)  # plain data all the way
    finally:
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=40) == 0


async def test_the_status_page_lists_every_process_on_the_redis(
    serve: Any, server_config: Any, redis_url: str, key_prefix: str, tmp_path: Path
) -> None:
    import base64
    import json
    import urllib.request

    first = server_config(admin_password="pw", **shared(redis_url, key_prefix, ttl=15.0))
    second = replace(first, data_dir=tmp_path / "second")
    auth = {"Authorization": "Basic " + base64.b64encode(b"admin:pw").decode()}
    async with serve(first) as url_a, serve(second):
        base = url_a.replace("ws://", "http://").removesuffix("/ws")

        def status() -> dict[str, Any]:
            req = urllib.request.Request(base + "/status.json", headers=auth)
            with urllib.request.urlopen(req, timeout=5) as r:
                return dict(json.loads(r.read()))
        with anyio.fail_after(20):
            while len((got := await anyio.to_thread.run_sync(status))["processes"]) < 2:
                await anyio.sleep(0.5)
    assert got["node"] in got["processes"] and got["store"]["kind"] == "redis"
    assert all("pid" in p and "matches" in p for p in got["processes"].values())


async def test_players_on_different_processes_quick_match_and_see_one_lobby_list(
    serve: Any, server_config: Any, redis_url: str, key_prefix: str, tmp_path: Path,
    client: Any
) -> None:
    first = server_config(**shared(redis_url, key_prefix, ttl=15.0))
    second = replace(first, data_dir=tmp_path / "second")
    async with serve(first) as url_a, serve(second) as url_b:
        # Casual: a waits on A; b, on B, pairs with a; they play to the end.
        results: dict[str, Any] = {}
        with anyio.fail_after(60):
            async with anyio.create_task_group() as tg:
                async def one(key: str, url: str, queued: Any = None) -> None:
                    results[key] = await play(url, how="quick", seed=key, **TOY,
                                              on_queued=queued)
                tg.start_soon(one, "a", url_a, lambda _: tg.start_soon(one, "b", url_b))
        a, b = results["a"], results["b"]
        assert a["match"] == b["match"] and a["result"] == b["result"]
        assert a["result"]["reason"] == "played"

        async with client(url_b) as c, client(url_a) as d, client(url_a) as e:
            wc = await c.hello("c")
            for x, name in ((d, "d"), (e, "e")):
                await x.hello(name)
            # Rated, the other way round: c waits on B, and is counted on A.
            await c.send({"t": "quick", "id": 1, "rated": True, **TOY})
            assert (await c.expect("ack", re=1))["queued"] is True
            await e.send({"t": "queues", "id": 2, **TOY})
            assert (await e.expect("ack", re=2))["waiting"] == {"casual": 0, "rated": 1}
            await d.send({"t": "quick", "id": 1, "rated": True, **TOY})
            assert (await d.expect("ack", re=1))["queued"] is False
            md, mc = await d.expect("matched"), await c.expect("matched")
            assert md["match"] == mc["match"] and md["rated"] is mc["rated"] is True
            assert (mc["seat"], md["seat"]) == (0, 1)  # c waited longer
            await c.expect("prompt", status="playing")
            # c's request, resent from a new connection (as after a reload): its match.
            async with client(url_b) as c2:
                await c2.hello(token=wc["token"])
                await c2.send({"t": "quick", "id": 1, "rated": True, **TOY})
                again = await c2.expect("ack", re=1)
                assert (again["match"], again["seat"]) == (mc["match"], 0)
                # and B lists it among c's matches, though A runs it.
                with anyio.fail_after(10):
                    n = 0
                    while True:
                        n += 1
                        await c2.send({"t": "mine", "id": f"m{n}"})
                        mine = (await c2.expect("ack", re=f"m{n}"))["matches"]
                        if mine:
                            break
                        await anyio.sleep(0.05)  # A republishes every tick
                assert [(m["match"], m["seat"], m["rated"]) for m in mine] == [
                    (mc["match"], 0, True)]
            await e.send({"t": "queues", "id": 3, **TOY})
            assert (await e.expect("ack", re=3))["waiting"] == {"casual": 0, "rated": 0}

            # One lobby list: a public match made on A is listed on B, waiting, then
            # live once a player on B joins it.
            await e.send({"t": "create", "id": 4, **TOY})
            made = await e.expect("ack", re=4)

            async def listed(kind: str) -> dict[str, Any]:
                with anyio.fail_after(10):
                    n = 0
                    while True:
                        n += 1
                        await c.send({"t": "list", "id": f"l{n}", "game": "toy"})
                        got = await c.expect("ack", re=f"l{n}")
                        hit = [m for m in got[kind] if m["match"] == made["match"]]
                        if hit:
                            return hit[0]
                        await anyio.sleep(0.05)  # its process republishes every tick

            assert (await listed("matches"))["code"] == made["code"]
        async with client(url_b) as f, client(url_b) as c:
            await f.hello("f")
            await c.hello("c")
            await f.send({"t": "join", "id": 5, "code": made["code"]})
            await f.expect("ack", re=5)
            assert (await listed("live"))["players"][1].startswith("f-")


async def test_a_redis_restarted_under_load_loses_no_match_of_two_processes(
    serve: Any, server_config: Any, redis_proc: Any, key_prefix: str, client: Any,
    tmp_path: Path
) -> None:
    game = TOY
    # The uninterrupted run: one server, the same dice and bot seeds.
    async with serve(server_config(fixed_seed=SEED)) as url:
        opened = [await opening(url, client, k, game) for k in range(2)]
        expected = await finish((url, url), opened, game)

    first = server_config(**shared(redis_proc.url, key_prefix, ttl=15.0))
    first = replace(first, data_dir=tmp_path / "first")
    second = replace(first, data_dir=tmp_path / "second")
    restarted: list[int] = []
    async with serve(first) as url_a, serve(second) as url_b:
        # One match run by each process; every match has a player on each.
        opened = [await opening(url, client, k, game) for k, url in enumerate((url_a, url_b))]

        async def restart_redis(states: list[Any]) -> None:
            while min(st.decisions for st in states) < 3:  # every match under way
                await anyio.sleep(0.01)
            await anyio.to_thread.run_sync(redis_proc.restart)  # SIGKILL, then start
            restarted.append(1)
            states_seen.extend(states)

        states_seen: list[Any] = []
        got = await finish((url_a, url_b), opened, game, restart_redis)
    assert restarted
    # Mid-play: the routed players lost their route and came back.
    assert sum(st.reconnects for st in states_seen) > 0
    for k in range(2):
        assert got[k][0]["match"] == got[k][1]["match"] == opened[k][0]
        assert got[k][0]["result"] == got[k][1]["result"] == expected[k][0]["result"]
        assert got[k][0]["result"]["reason"] == "played"
        assert play_of(got[k][0]) == play_of(expected[k][0])
