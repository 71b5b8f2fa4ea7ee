"""The operator's endpoints (/readyz, /metrics, /status) and the structured logs."""

from __future__ import annotations

import base64
import gc
import io
import json
import logging
import urllib.error
import urllib.request
from typing import Any

import anyio
import pytest
from prometheus_client import REGISTRY

from kickline_server import logs
from kickline_server.botclient import play
from kickline_server.gcpolicy import GcCounts, GcPolicy

pytestmark = pytest.mark.anyio

TOY = {"game": "toy", "config": {"mode": "training", "board": 25}}


def http(url: str, path: str, headers: dict[str, str] | None = None
         ) -> tuple[int, bytes, Any]:
    base = url.replace("ws://", "http://").removesuffix("/ws")
    req = urllib.request.Request(base + path, headers=headers or {})
    try:
        with urllib.request.urlopen(req, timeout=5) as r:
            return r.status, r.read(), r.headers
    except urllib.error.HTTPError as e:
        return e.code, e.read(), e.headers


async def get(url: str, path: str, **kw: Any) -> tuple[int, bytes, Any]:
    return await anyio.to_thread.run_sync(lambda: http(url, path, **kw))


async def until(url: str, path: str, status: int) -> dict[str, Any]:
    """Poll ``path`` until it answers ``status`` (the watcher looks once a second)."""
    with anyio.fail_after(15):
        while True:
            code, body, _ = await get(url, path)
            if code == status:
                return dict(json.loads(body))
            await anyio.sleep(0.1)


async def test_readyz_follows_the_store_while_healthz_stays_alive(
    serve: Any, server_config: Any, redis_proc: Any, key_prefix: str
) -> None:
    config = server_config(redis_url=redis_proc.url, redis_prefix=key_prefix)
    async with serve(config) as url:
        assert (await until(url, "/readyz", 200)) == {"ready": True, "why": []}
        await anyio.to_thread.run_sync(lambda: redis_proc.stop(kill=True))
        down = await until(url, "/readyz", 503)
        assert down["ready"] is False and "the store does not answer" in down["why"][0]
        assert (await get(url, "/healthz"))[0] == 200  # alive: do not restart it
        await anyio.to_thread.run_sync(redis_proc.start)
        await until(url, "/readyz", 200)


def sample(name: str, **labels: str) -> float:
    return REGISTRY.get_sample_value(name, labels) or 0.0


async def test_metrics_count_decisions_errors_and_finished_matches(
    serve: Any, server_config: Any, client: Any
) -> None:
    before = {"decisions": sample("kickline_decisions_total"),
              "played": sample("kickline_matches_finished_total", reason="played"),
              "rtt": sample("kickline_decision_seconds_count"),
              "writes": sample("kickline_persist_seconds_count"),
              "bad": sample("kickline_errors_total", code="unknown_type")}
    async with serve(server_config()) as url:
        with anyio.fail_after(30):
            async with anyio.create_task_group() as tg:
                for name in ("a", "b"):
                    tg.start_soon(lambda n=name: play(url, how="quick", name=n, seed=n, **TOY))
        async with client(url) as c:
            await c.hello("x")
            await c.send({"t": "nonsense", "id": 1})
            assert (await c.expect("error"))["code"] == "unknown_type"
        code, body, headers = await get(url, "/metrics")
    assert code == 200 and headers["Content-Type"].startswith("text/plain")
    text = body.decode()
    for name in ("kickline_live_matches", "kickline_connections", "kickline_quick_waiting",
                 "kickline_store_retries_total", "kickline_decision_seconds_bucket",
                 "kickline_persist_seconds_bucket", "kickline_send_queued",
                 "kickline_inbox_queued"):
        assert name in text
    decisions = sample("kickline_decisions_total") - before["decisions"]
    assert decisions > 0
    assert sample("kickline_decision_seconds_count") - before["rtt"] == decisions
    assert sample("kickline_persist_seconds_count") > before["writes"]
    assert sample("kickline_matches_finished_total", reason="played") == before["played"] + 1
    assert sample("kickline_errors_total", code="unknown_type") == before["bad"] + 1


async def test_the_status_page_is_for_the_admin_only(serve: Any, server_config: Any) -> None:
    async with serve(server_config()) as url:
        assert (await get(url, "/status"))[0] == 404  # no password: no page
    async with serve(server_config(admin_password="s3cret")) as url:
        code, _, headers = await get(url, "/status")
        assert code == 401 and headers["WWW-Authenticate"].startswith("Basic")
        wrong = base64.b64encode(b"admin:nope").decode()
        assert (await get(url, "/status", headers={"Authorization": f"Basic {wrong}"}))[0] == 401
        good = {"Authorization": "Basic " + base64.b64encode(b"admin:s3cret").decode()}
        code, body, _ = await get(url, "/status.json", headers=good)
        status = json.loads(body)
        assert code == 200 and status["store"]["kind"] == "sqlite"
        assert status["matches"]["live"] == 0 and "node" in status
        assert "gc" not in status  # this server leaves the collector alone (gc=None)
        code, body, headers = await get(url, "/status", headers=good)
        assert code == 200 and b"Kickline status" in body and b"<script" not in body


async def test_the_status_page_shows_the_collectors_policy_and_work(
        serve: Any, server_config: Any) -> None:
    policy = GcPolicy(every=0.05, decisions=7)
    counts = GcCounts(ticks=12, by_decisions=3, full=1, full_collected=40)
    good = {"Authorization": "Basic " + base64.b64encode(b"admin:s3cret").decode()}
    try:
        async with serve(server_config(admin_password="s3cret", gc=policy),
                         gc_counts=counts) as url:
            with anyio.fail_after(10):
                while True:  # until the server's own collector has ticked
                    shown = json.loads((await get(url, "/status.json", headers=good))[1])["gc"]
                    if shown["ticks"] > 12:
                        break
    finally:
        gc.unfreeze()  # what the server's ticks froze in this test process
    assert (shown["every_s"], shown["decisions"], shown["full_every_s"]) == (0.05, 7, 0.0)
    assert shown["full"] == 1 and shown["full_collected"] == 40
    assert shown["frozen"] > 0  # what lived past a tick


def test_json_logs_carry_the_match_and_player_of_their_context() -> None:
    root = logging.getLogger()
    saved = list(root.handlers), root.level
    try:
        logs.setup("INFO", "json")
        stream = io.StringIO()
        root.handlers[0].setStream(stream)  # type: ignore[attr-defined]
        token = logs.MATCH.set("m1")
        try:
            logging.getLogger("kickline_server.actor").warning(
                "store unavailable", extra={"reason": "x"})
        finally:
            logs.MATCH.reset(token)
        logging.getLogger("kickline_server.app").info("listening")
        first, second = (json.loads(line) for line in stream.getvalue().splitlines())
        assert first["match"] == "m1" and first["level"] == "WARNING"
        assert first["message"] == "store unavailable" and first["reason"] == "x"
        assert first["logger"] == "kickline_server.actor" and "time" in first
        assert "match" not in second and "player" not in second
    finally:
        root.handlers[:] = saved[0]
        root.setLevel(saved[1])


async def test_one_log_line_per_finished_match(serve: Any, server_config: Any,
                                               caplog: Any) -> None:
    caplog.set_level(logging.INFO, logger="kickline_server.actor")
    async with serve(server_config()) as url:
        with anyio.fail_after(30):
            async with anyio.create_task_group() as tg:
                for name in ("a", "b"):
                    tg.start_soon(lambda n=name: play(url, how="quick", name=n, seed=n, **TOY))
    done = [r for r in caplog.records if getattr(r, "event", None) == "match_finished"]
    assert len(done) == 1
    r: Any = done[0]
    assert r.reason == "played" and "winner" in r.result and len(r.players) == 2
    assert r.game == "toy" and "finished: played" in r.getMessage()
