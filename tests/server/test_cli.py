"""The ``kickline`` command as a user runs it: real processes on loopback.

The crash test kills the server with SIGKILL mid-match, restarts it on the same
data directory, and checks the match ends exactly as an uninterrupted run with the
same dice seed and the same bot seeds."""

from __future__ import annotations

import json
import os
import re
import signal
import sqlite3
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from kickline_server import games

ROOT = Path(__file__).resolve().parents[2]
ENV = {**os.environ, "PYTHONPATH": os.pathsep.join(
    [str(ROOT / "shared"), str(ROOT / "server"), os.environ.get("PYTHONPATH", "")])}
SEED = "ab" * 32
TOY = ["--game", "toy", "--board", "60"]
KICKLINE = [["--board", "7"],
            ["--board", "9", "--mode", "advanced", "--teams", "fire-demons,telekinetics"]]
GAMES = [pytest.param(TOY, id="toy")] + [
    pytest.param(["--game", "kickline", *args], id="kickline-" + "-".join(args[1::2]),
                 marks=pytest.mark.skipif("kickline" not in games.available(),
                                          reason="the kickline rules package is not ready"))
    for args in KICKLINE]


class ServerProc:
    def __init__(self, data_dir: Path, port: int, *extra: str) -> None:
        self.args = [sys.executable, "-m", "kickline_server.cli", "serve", "--port", str(port),
                     "--data-dir", str(data_dir), "--insecure-fixed-seed", SEED,
                     "--sqlite-synchronous", "NORMAL", "--rate", "5000", *extra]
        self.port = port
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        self.proc = subprocess.Popen(self.args, env=ENV, stdout=subprocess.DEVNULL,
                                     stderr=subprocess.PIPE)
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            assert self.proc.poll() is None, self.proc.stderr.read() if self.proc.stderr else ""
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{self.port}/healthz",
                                            timeout=1) as r:
                    if r.status == 200:
                        return
            except OSError:
                time.sleep(0.05)
        raise RuntimeError("server did not start")

    def kill(self) -> None:
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(timeout=10)

    def stop(self) -> int:
        assert self.proc is not None
        self.proc.send_signal(signal.SIGTERM)
        return self.proc.wait(timeout=20)


@pytest.fixture
def servers() -> Iterator[list[ServerProc]]:
    started: list[ServerProc] = []
    yield started
    for s in started:
        if s.proc is not None and s.proc.poll() is None:
            s.proc.kill()
            s.proc.wait(timeout=10)


def bot(port: int, *args: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "kickline_server.cli", "bot", "--url",
         f"ws://127.0.0.1:{port}", *args], env=ENV, stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, text=True)


def create_and_join(port: int, game: list[str]) -> tuple[subprocess.Popen[str],
                                                         subprocess.Popen[str]]:
    a = bot(port, "--create", "--seed", "1", "--name", "a", *game)
    assert a.stderr is not None
    line = a.stderr.readline()
    code = json.loads(line)["code"]
    b = bot(port, "--join", code, "--seed", "2", "--name", "b", *game)
    return a, b


def finish(p: subprocess.Popen[str]) -> dict[str, Any]:
    out, err = p.communicate(timeout=120)
    assert p.returncode == 0, err
    lines = out.strip().splitlines()
    assert len(lines) == 1, out
    result: dict[str, Any] = json.loads(lines[0])
    return result


def log_len(db: Path) -> tuple[int, int]:
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as c:
        row = c.execute("SELECT coalesce(max(log_len), 0), coalesce(min(finished), 1) "
                        "FROM matches").fetchone()
    return int(row[0]), int(row[1])


@pytest.mark.slow
@pytest.mark.parametrize("game", GAMES)
def test_sigkill_mid_match_then_restart_ends_like_an_uninterrupted_run(
    tmp_path: Path, servers: list[ServerProc], port: Callable[[], int], game: list[str]
) -> None:
    ref = ServerProc(tmp_path / "ref", port())
    servers.append(ref)
    ref.start()
    a, b = create_and_join(ref.port, game)
    expected = finish(a), finish(b)
    assert ref.stop() == 0
    assert expected[0]["score"] == expected[1]["score"]

    crash = ServerProc(tmp_path / "crash", port())
    servers.append(crash)
    crash.start()
    a, b = create_and_join(crash.port, game)
    db = tmp_path / "crash" / "kickline.sqlite3"
    deadline = time.monotonic() + 60
    while log_len(db)[0] < 40:
        assert time.monotonic() < deadline and a.poll() is None
        time.sleep(0.005)
    crash.kill()
    n, finished = log_len(db)
    assert finished == 0, "the match ended before the kill; make it longer"
    crash.start()  # same data dir, same port: the bots reconnect on their own
    got = finish(a), finish(b)
    assert [g["score"] for g in got] == [e["score"] for e in expected]
    assert [g["winner"] for g in got] == [e["winner"] for e in expected]
    assert got[0]["seed"] == expected[0]["seed"] == SEED
    assert crash.stop() == 0
    assert n >= 40


def test_bot_prints_one_json_line_and_exits_0(
    tmp_path: Path, servers: list[ServerProc], port: Callable[[], int]
) -> None:
    s = ServerProc(tmp_path / "d", port())
    servers.append(s)
    s.start()
    a = bot(s.port, "--quick", "--game", "toy", "--board", "10")
    b = bot(s.port, "--quick", "--game", "toy", "--board", "10", "--strategy", "greedy")
    ra, rb = finish(a), finish(b)
    assert ra["match"] == rb["match"] and ra["reason"] == "played"
    assert {ra["seat"], rb["seat"]} == {0, 1} and ra["team"] == rb["team"] == "training"
    winner = ra["winner"]
    for r in (ra, rb):
        assert r["won"] is (r["seat"] == winner)
        assert r["outcome"] == ("draw" if winner is None else "won" if r["won"] else "lost")
        assert r["side"] is None  # the toy game has no home and visitors


def test_a_kickline_bot_names_its_side(
    tmp_path: Path, servers: list[ServerProc], port: Callable[[], int]
) -> None:
    s = ServerProc(tmp_path / "d", port(), "--decision-time", "1")
    servers.append(s)
    s.start()
    a = bot(s.port, "--create", "--game", "kickline")
    assert a.stderr is not None
    code = json.loads(a.stderr.readline())["code"]
    b = subprocess.run(  # resigns once there is a home side: the creator wins
        [sys.executable, "-c", RESIGN, f"ws://127.0.0.1:{s.port}/ws", code], env=ENV,
        capture_output=True, text=True, timeout=60)
    assert b.returncode == 0, b.stderr
    got = finish(a)
    assert got["seat"] == 0 and got["won"] is True and got["outcome"] == "won"
    home = json.loads(b.stdout.splitlines()[0])["home_seat"]
    assert got["reason"] == "resigned" and got["side"] == ("home" if home == 0 else "visitors")


RESIGN = """
import json, sys, anyio
from websockets.asyncio.client import connect
from kickline_server.protocol import decode_replies, encode
async def main(url, code):
    async with connect(url) as ws:
        await ws.send(encode({"t": "hello", "versions": [1], "name": "quitter"}))
        await ws.recv()
        await ws.send(encode({"t": "join", "id": 1, "code": code}))
        while True:
            for m in decode_replies(await ws.recv()):
                home = m["view"]["home_seat"] if m["t"] == "prompt" and m["view"] else -1
                if home >= 0:  # the coin toss is done: there is a home side
                    print(json.dumps({"home_seat": home}))
                    await ws.send(encode({"t": "resign", "id": 2, "match": m["match"]}))
                elif m["t"] == "prompt" and m["legal"]:  # e.g. the coin toss's call
                    await ws.send(encode({"t": "decide", "id": m["version"] + 3,
                                          "match": m["match"], "version": m["version"],
                                          "decision": m["legal"][0]}))
                if m["t"] == "over":
                    return
anyio.run(main, *sys.argv[1:])
"""


LOG_LINE = re.compile(r"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d+ (DEBUG|INFO) ")


def one_line_error(p: subprocess.CompletedProcess[str]) -> str:
    """The single line a command printed on stderr besides its INFO log (no traceback)."""
    lines = [line for line in p.stderr.strip().splitlines() if not LOG_LINE.match(line)]
    assert len(lines) == 1 and lines[0].startswith("kickline: "), p.stderr
    return lines[0]


def run_bot(*args: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "kickline_server.cli", "bot", *args],
                          env=ENV, capture_output=True, text=True, timeout=timeout)


def test_bot_without_a_server_says_so_at_once(port: Callable[[], int]) -> None:
    url = f"ws://127.0.0.1:{port()}"
    p = run_bot("--url", url, "--connect-timeout", "0.5", "--game", "toy")
    assert p.returncode == 3 and p.stdout == ""
    assert f"no Kickline server answers at {url}/ws" in one_line_error(p)


def test_bot_with_a_web_address_is_told_the_websocket_one() -> None:
    p = run_bot("--url", "http://example.invalid:8765/")
    assert p.returncode == 2
    assert one_line_error(p).endswith("a bot speaks websocket: --url ws://example.invalid:8765/")


def test_bot_names_an_unknown_game_and_strategy() -> None:
    p = run_bot("--url", "ws://127.0.0.1:1", "--game", "chess")
    assert p.returncode == 4
    assert one_line_error(p) == "kickline: unknown game 'chess'; games: kickline, toy"
    p = run_bot("--url", "ws://127.0.0.1:1", "--game", "toy", "--strategy", "clever")
    assert p.returncode == 2 and "bots: greedy, random" in one_line_error(p)


def test_a_lone_quick_bot_says_it_waits_and_gives_up(
    tmp_path: Path, servers: list[ServerProc], port: Callable[[], int]
) -> None:
    s = ServerProc(tmp_path / "d", port())
    servers.append(s)
    s.start()
    p = run_bot("--url", f"ws://127.0.0.1:{s.port}", "--game", "toy", "--wait", "0.5")
    assert p.returncode == 5 and p.stdout == ""
    assert p.stderr.splitlines() == [
        "kickline: queued for a quick match; waiting up to 0.5 s for an opponent",
        "kickline: nobody paired with this quick match within 0.5 s"]


def test_a_second_server_on_the_same_data_dir_refuses_to_start(
    tmp_path: Path, servers: list[ServerProc], port: Callable[[], int]
) -> None:
    s = ServerProc(tmp_path / "d", port())
    servers.append(s)
    s.start()
    other = subprocess.run(ServerProc(tmp_path / "d", port()).args, env=ENV,
                           capture_output=True, text=True, timeout=30)
    assert other.returncode == 2
    assert one_line_error(other).startswith(f"kickline: another kickline server is using "
                                            f"{tmp_path / 'd'}")


def test_serve_refuses_a_collector_schedule_it_cannot_run(
    tmp_path: Path, port: Callable[[], int]
) -> None:
    for flag, value, said in (("--gc-every", "0", "gc_every=0.0 must be above 0 seconds"),
                              ("--gc-full-every", "-5", "gc_full_every=-5.0 must be 0")):
        p = subprocess.run(ServerProc(tmp_path / "d", port(), flag, value).args, env=ENV,
                           capture_output=True, text=True, timeout=30)
        assert p.returncode == 2
        assert said in one_line_error(p)


def test_bot_reports_a_refused_join(
    tmp_path: Path, servers: list[ServerProc], port: Callable[[], int]
) -> None:
    s = ServerProc(tmp_path / "d", port())
    servers.append(s)
    s.start()
    p = bot(s.port, "--join", "NOSUCH", "--game", "toy")
    out, err = p.communicate(timeout=30)
    assert p.returncode == 1 and out == ""
    assert err.startswith("kickline: not_found: no open match") and err.count("\n") == 1
