"""Versioned migrations, on the data the release before them wrote (tests/server/fixtures/
release0, made by make_release0.py): nothing is lost, old tokens still work, and every
finished match lands in its players' histories."""

from __future__ import annotations

import base64
import json
import shutil
import sqlite3
from pathlib import Path
from typing import Any

import pytest
import redis.asyncio as aioredis

from kickline_server.lobby import LobbyLimits
from kickline_server.migrations import LATEST
from kickline_server.store import SchemaTooNew
from kickline_server.store_sqlite import SqliteStore

pytestmark = pytest.mark.anyio

RELEASE0 = Path(__file__).parent / "fixtures" / "release0"
# The fixture's waiting match was made when the fixture was: an hour later it would
# expire on loading, and the test would depend on the day it runs.
TIMELESS = LobbyLimits(min_decision=0.01, grace=5.0, waiting_ttl=10 * 365 * 86_400.0)


def _copy(src: Path, dst: Path) -> Path:
    shutil.copytree(src, dst)
    for key in dst.glob("*"):
        key.chmod(0o600)
    return dst


async def _check_old_players(url: str, client: Any, fixture: dict[str, Any]) -> None:
    tokens = fixture["tokens"]
    async with client(url) as ada:
        w = await ada.hello(token=tokens["Ada"])
        assert w["t"] == "welcome" and w["name"] == "Ada"
        # Her unfinished match resumed, and the finished ones are in her history.
        assert [m["match"] for m in w["matches"]] == [fixture["unfinished"]]
        await ada.send({"t": "profile", "id": "p"})
        profile = await ada.expect("ack", re="p")
        got = {e["match"]: (e["result"], e["reason"], e["opponent"]["name"], e["rated"])
               for e in profile["recent"]}
        assert got == {fixture["played"]: (got[fixture["played"]][0], "played", "Bea", False),
                       fixture["resigned"]: ("win", "resigned", "Cy", False)}
        assert profile["totals"]["wins"] + profile["totals"]["losses"] + profile[
            "totals"]["draws"] == 2
        # A new player cannot take an old player's name (now an account).
    async with client(url) as cy:
        w = await cy.hello(token=tokens["Cy"])
        waiting = [m for m in w["matches"] if m["status"] == "waiting"]
        assert [m["match"] for m in waiting] == [fixture["waiting"]]
    async with client(url) as bea:
        await bea.send({"t": "hello", "versions": [1], "token": tokens["Bea"]})
        assert (await bea.recv())["name"] == "Bea"
    async with client(url) as impostor:
        await impostor.send({"t": "hello", "versions": [1], "name": "ADA"})
        assert (await impostor.recv())["code"] == "name_taken"


async def test_an_embedded_store_of_the_release_before_migrates(
        tmp_path: Path, serve: Any, client: Any, server_config: Any) -> None:
    fixture = json.loads((RELEASE0 / "players.json").read_text())
    data = _copy(RELEASE0 / "data", tmp_path / "data")
    db = sqlite3.connect(data / "kickline.sqlite3")
    assert db.execute("PRAGMA user_version").fetchone() == (0,)
    before = db.execute("SELECT id, finished, log_len FROM matches ORDER BY id").fetchall()
    db.close()
    assert data == tmp_path / "data"  # where server_config() points
    async with serve(server_config(lobby=TIMELESS)) as url:
        await _check_old_players(url, client, fixture)
    db = sqlite3.connect(data / "kickline.sqlite3")
    assert db.execute("PRAGMA user_version").fetchone() == (LATEST,)
    after = {r[0]: r for r in db.execute("SELECT id, finished, log_len FROM matches")}
    for mid, finished, log_len in before:  # every match kept, with all of its log
        assert after[mid][2] >= log_len and after[mid][1] >= finished
    assert db.execute("SELECT count(*) FROM results").fetchone() == (3,)
    assert db.execute("SELECT count(*) FROM unrecorded").fetchone() == (0,)


async def test_a_redis_store_of_the_release_before_migrates(
        tmp_path: Path, serve: Any, client: Any, server_config: Any, redis_url: str,
        key_prefix: str) -> None:
    dump = json.loads((RELEASE0 / "redis.json").read_text())
    r = aioredis.Redis.from_url(redis_url)
    for key, (kind, value) in dump["keys"].items():
        name = key_prefix + key[len("kl:"):]
        if kind == "string":
            await r.set(name, base64.b64decode(value))
        elif kind == "list":
            await r.rpush(name, *[base64.b64decode(v) for v in value])
        else:
            await r.sadd(name, *value)
    data = _copy(RELEASE0 / "redis-data", tmp_path / "data")
    assert data == tmp_path / "data"  # where server_config() points
    config = server_config(redis_url=redis_url, redis_prefix=key_prefix, lobby=TIMELESS)
    async with serve(config) as url:
        await _check_old_players(url, client, dump)
    assert int(await r.get(key_prefix + "schema")) == LATEST
    assert await r.scard(key_prefix + "unrecorded") == 0
    for key in dump["keys"]:
        if key.startswith("kl:m:"):
            assert await r.exists(key_prefix + key[len("kl:"):])
    await r.aclose()


async def test_a_store_written_by_a_newer_server_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "k.sqlite3"
    db = sqlite3.connect(path)
    db.execute(f"PRAGMA user_version = {LATEST + 1}")
    db.close()
    with pytest.raises(SchemaTooNew, match="newer kickline server"):
        SqliteStore(path)
