"""A server that always starts: a match that cannot be loaded is quarantined (kept,
reported by ``kickline doctor``, its players told) and every other match resumes."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

import msgpack  # type: ignore[import-untyped]
import pytest
from journeys import quick_match

pytestmark = pytest.mark.anyio

TOY = {"game": "toy", "config": {"mode": "training", "board": 25}}


def _ill_typed(snapshot: bytes) -> bytes:
    snap = msgpack.unpackb(snapshot, raw=False, strict_map_key=False)
    snap["clock"] = 42  # the right format, the wrong shape
    return msgpack.packb(snap, use_bin_type=True)


@pytest.mark.parametrize("damage", ["snapshot", "shape", "log"])
async def test_one_bad_match_is_quarantined_and_the_rest_start(
    serve: Any, server_config: Any, client: Any, tmp_path: Path, damage: str
) -> None:
    config = server_config()
    async with serve(config) as url, client(url) as a, client(url) as b, \
            client(url) as c, client(url) as d:
        tokens = [(await x.hello(n))["token"] for x, n in ((a, "ann"), (b, "bob"),
                                                            (c, "cy"), (d, "di"))]
        bad, _ = await quick_match(a, b, TOY)
        good, _ = await quick_match(c, d, TOY)
    db = sqlite3.connect(config.data_dir / "kickline.sqlite3")
    with db:
        if damage == "snapshot":
            db.execute("UPDATE matches SET snapshot = x'c1c1c1' WHERE id = ?", (bad["match"],))
        elif damage == "shape":
            (raw,) = db.execute("SELECT snapshot FROM matches WHERE id = ?",
                                (bad["match"],)).fetchone()
            db.execute("UPDATE matches SET snapshot = ? WHERE id = ?",
                       (_ill_typed(raw), bad["match"]))
        else:
            db.execute("INSERT OR REPLACE INTO log (match, idx, entry) VALUES (?, 0, x'c1')",
                       (bad["match"],))
            db.execute("UPDATE matches SET log_len = 1 WHERE id = ?", (bad["match"],))
    db.close()

    async with serve(config) as url, client(url) as a, client(url) as c:
        welcome = await a.hello(token=tokens[0])
        if damage != "snapshot":  # its seats were readable: its players are told
            assert welcome["damaged"] == [bad["match"]]
        await a.send({"t": "open", "id": 1, "match": bad["match"]})
        err = await a.expect("error", re=1)
        assert err["code"] == "match_damaged" and "kickline doctor" in err["message"]
        await c.hello(token=tokens[2])
        await c.send({"t": "open", "id": 2, "match": good["match"]})
        assert (await c.expect("ack", re=2))["match"] == good["match"]  # resumed
    assert sqlite3.connect(config.data_dir / "kickline.sqlite3").execute(
        "SELECT count(*) FROM matches WHERE id = ?", (bad["match"],)).fetchone() == (1,)

    done = subprocess.run(
        [sys.executable, "-m", "kickline_server.cli", "doctor", "--data-dir",
         str(config.data_dir)], capture_output=True, text=True, timeout=60)
    assert done.returncode == 1, done.stderr
    assert bad["match"] in done.stdout and "1 quarantined match" in done.stdout
    reason = done.stdout.split(bad["match"], 1)[1].splitlines()[1].strip()
    assert reason.startswith("the ") and len(reason) > 20  # a reason, never empty


async def test_doctor_on_a_healthy_store_says_so(serve: Any, server_config: Any,
                                                 client: Any) -> None:
    config = server_config()
    async with serve(config) as url, client(url) as a, client(url) as b:
        await a.hello("ann")
        await b.hello("bob")
        await quick_match(a, b, TOY)
    done = subprocess.run(
        [sys.executable, "-m", "kickline_server.cli", "doctor", "--data-dir",
         str(config.data_dir)], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout == "no quarantined matches\n1 unfinished match: all load\n"
