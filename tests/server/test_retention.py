"""Retention: finished matches' full logs are purged after a while by a background task;
their records outlive them."""

from __future__ import annotations

import json
import urllib.request
from typing import Any

import anyio
import pytest

from kickline_server.botclient import BotState, play
from kickline_server.retention import Retention

pytestmark = pytest.mark.anyio

TOY = {"game": "toy", "config": {"mode": "training", "board": 25}}


async def test_a_finished_match_loses_its_log_and_keeps_its_record(
    serve: Any, server_config: Any, client: Any
) -> None:
    policy = Retention(keep_logs=0.05, every=0.05)
    states = {"a": BotState(), "b": BotState()}
    async with serve(server_config(retention=policy)) as url:
        results: dict[str, Any] = {}

        async def one(name: str) -> None:
            results[name] = await play(url, how="quick", name=name, seed=name, **TOY,
                                       state=states[name])

        with anyio.fail_after(30):
            async with anyio.create_task_group() as tg:
                tg.start_soon(one, "a")
                tg.start_soon(one, "b")
        mid = results["a"]["match"]
        http = url.replace("ws://", "http://").removesuffix("/ws")

        def record() -> Any:
            req = urllib.request.Request(f"{http}/record/{mid}.json")
            req.add_header("Cookie", f"kickline_token={states['a'].token}")  # a's browser
            try:
                with urllib.request.urlopen(req) as r:
                    return json.loads(r.read())
            except urllib.error.HTTPError:
                return None  # not recorded yet

        with anyio.fail_after(20):
            while True:  # recorded, then purged by the task
                body = await anyio.to_thread.run_sync(record)
                if body is not None and body["log"] is None:
                    break
                await anyio.sleep(0.02)
        assert body["record"]["match"] == mid
        async with client(url) as c:  # its own player: nothing left to replay
            await c.hello(token=states["a"].token)
            await c.send({"t": "open", "id": 1, "match": mid})
            assert (await c.expect("error", re=1))["code"] == "not_found"


async def test_nothing_is_purged_before_its_time(serve: Any, server_config: Any) -> None:
    states = {"a": BotState(), "b": BotState()}
    async with serve(server_config()) as url:  # the defaults: 90 days
        results: dict[str, Any] = {}

        async def one(name: str) -> None:
            results[name] = await play(url, how="quick", name=name, seed=name, **TOY,
                                       state=states[name])

        with anyio.fail_after(30):
            async with anyio.create_task_group() as tg:
                tg.start_soon(one, "a")
                tg.start_soon(one, "b")
        http = url.replace("ws://", "http://").removesuffix("/ws")
        mid = results["a"]["match"]

        def record() -> Any:
            req = urllib.request.Request(f"{http}/record/{mid}.json")
            req.add_header("Cookie", f"kickline_token={states['a'].token}")
            with urllib.request.urlopen(req) as r:
                return json.loads(r.read())

        with anyio.fail_after(20):
            while True:
                try:
                    body = await anyio.to_thread.run_sync(record)
                    break
                except urllib.error.HTTPError:
                    await anyio.sleep(0.02)
        assert body["log"]  # still replayable
