"""The tournament screens in a real browser: an organiser on a phone creates an event,
two players join (by its link, and by a roster line's entry link), a round is played, the
standings show (tournament.mjs).

It needs a fresh server of its own: the first account made on a server is its
organiser, and the other browser tests share one server."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SHOTS = ROOT / "artifacts" / "screenshots"

pytestmark = pytest.mark.slow


@pytest.fixture
def fresh_server(client_build: Path, tmp_path: Path) -> Iterator[str]:
    with socket.socket() as sock:  # a free loopback port
        sock.bind(("127.0.0.1", 0))
        port = int(sock.getsockname()[1])
    log = (tmp_path / "server.log").open("w")
    proc = subprocess.Popen(
        [sys.executable, "-m", "kickline_server.cli", "serve", "--host", "127.0.0.1",
         "--port", str(port), "--data-dir", str(tmp_path / "data"), "--client-dir",
         str(ROOT / "client")], cwd=ROOT, stdout=log, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                with urllib.request.urlopen(url + "/healthz", timeout=1):
                    break
            except OSError:
                assert proc.poll() is None and time.monotonic() < deadline, "no server"
                time.sleep(0.1)
        yield url
    finally:
        proc.terminate()
        proc.wait(timeout=10)
        log.close()


def test_an_organiser_runs_a_round_from_a_phone(fresh_server: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    done = subprocess.run(["node", str(ROOT / "tests" / "client" / "tournament.mjs"),
                           fresh_server, str(SHOTS)], cwd=ROOT, capture_output=True,
                          text=True, timeout=300)
    lines = [ln for ln in done.stdout.splitlines() if ln.startswith("{")]
    assert lines, done.stdout[-2000:] + done.stderr[-2000:]
    out = json.loads(lines[-1])
    assert out["problems"] == [], out
    assert out["results"] == ["You lose", "You win!"]
    assert out["homeSeat"] == 0  # the pairing's home plays home: no toss
