"""Three real `kickline serve` processes on one real Redis, end to end on loopback: two
players on different processes quick-match (one queue for the cluster), the players of
matches run by one process play them through the two others (routed), that
process is SIGKILLed mid-play, and every one of its matches finishes on another process
with the result of an uninterrupted run (the same dice seed, the same bot seeds): each
seat's decisions and every die the same, every die verifiable."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any

import anyio
import pytest
from journeys import finish, opening, play_of

from kickline_server.botclient import BotState

pytestmark = [pytest.mark.anyio, pytest.mark.slow]

TOY = {"game": "toy", "config": {"mode": "training", "board": 80}}
SEED = "cd" * 32
MATCHES = 4


def start(port: int, redis_url: str, data_dir: Path, secret: Path) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, "-m", "kickline_server.cli", "serve", "--port", str(port),
         "--redis-url", redis_url, "--data-dir", str(data_dir), "--secret-file", str(secret),
         "--insecure-fixed-seed", SEED, "--rate", "5000", "--lease-ttl", "2",
         "--log-level", "WARNING"], env=os.environ.copy(), stderr=subprocess.DEVNULL)


def ready(port: int, proc: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        assert proc.poll() is None, "a server exited at start"
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/readyz", timeout=1):
                return
        except OSError:
            time.sleep(0.1)
    raise RuntimeError("a server did not become ready")


async def test_a_process_killed_under_load_loses_none_of_its_matches(
    redis_proc: Any, client: Any, serve: Any, server_config: Any, tmp_path: Path,
    port: Any
) -> None:
    # The uninterrupted run: one in-process server, the same seeds.
    ref_config = server_config(fixed_seed=bytes.fromhex(SEED))
    async with serve(ref_config) as url:
        opened = [await opening(url, client, k, TOY) for k in range(MATCHES)]
        expected = await finish((url, url), opened, TOY)

    secret = tmp_path / "secret"
    secret.write_text("one secret for the three processes\n")
    ports = [port() for _ in range(3)]
    procs = [start(p, redis_proc.url, tmp_path / f"d{i}", secret)
             for i, p in enumerate(ports)]
    try:
        for p, proc in zip(ports, procs, strict=True):
            await anyio.to_thread.run_sync(ready, p, proc)
        a, b, c = (f"ws://127.0.0.1:{p}/ws" for p in ports)
        # Run by A; each pair met in the cluster's queue: seat 0 waited on B or C.
        opened = [await opening(a, client, k, TOY, waiter_url=(b, c)[k % 2])
                  for k in range(MATCHES)]

        async def kill_a(states: list[BotState]) -> None:
            while min(st.decisions for st in states) < 3:  # every match under way
                await anyio.sleep(0.01)
            procs[0].send_signal(signal.SIGKILL)

        got = await finish((b, c), opened, TOY, kill_a)  # players on B and C only
        assert procs[0].wait(timeout=10) == -signal.SIGKILL
    finally:
        for proc in procs:
            if proc.poll() is None:
                proc.send_signal(signal.SIGTERM)
        for proc in procs:
            try:
                proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                proc.kill()
    from kickline_server import toy
    from kickline_server.dice import check_over

    opening_move = {"k": "d", "s": 0, "d": "sprint", "v": 0, "by": "p"}
    for k in range(MATCHES):
        a_over, b_over = got[k][0], got[k][1]
        assert a_over["match"] == b_over["match"] == opened[k][0]  # A's matches, all
        assert a_over["log"][0] == expected[k][0]["log"][0] == opening_move
        assert a_over["result"] == b_over["result"] == expected[k][0]["result"]
        assert a_over["result"]["reason"] == "played"
        assert play_of(a_over) == play_of(expected[k][0])
        final = check_over(toy.GAME, a_over)  # every die checks out across the kill
        assert toy.GAME.result(final) == {k2: a_over["result"][k2]
                                          for k2 in ("winner", "score")}
