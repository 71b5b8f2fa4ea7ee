"""Fixtures for the client tests: a real server on a free loopback port, the client build."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CLIENT = ROOT / "client"
CHROMIUM = Path("/usr/bin/chromium")


def need_browser() -> None:
    """Skip (or, under CI, fail) when the browser tests cannot run here."""
    missing = []
    if shutil.which("node") is None:
        missing.append("node")
    if not (CLIENT / "node_modules" / "playwright-core").is_dir():
        missing.append("client/node_modules/playwright-core (run `make setup`)")
    if not (CLIENT / "node_modules" / "pyodide").is_dir():
        missing.append("client/node_modules/pyodide (run `make setup`)")
    if not CHROMIUM.exists():
        missing.append(f"{CHROMIUM} (apt-get install chromium)")
    if missing:
        reason = "browser tests need " + ", ".join(missing)
        if os.environ.get("CI"):
            pytest.fail(reason + " (CI is set, so this is a failure, not a skip)")
        pytest.skip(reason)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="session")
def client_build() -> Path:
    need_browser()
    sys.path.insert(0, str(ROOT / "tools"))
    import build_client

    # Nothing compressed yet (a fresh clone): a fast brotli keeps the suite's first run
    # short; `make client` later upgrades the files to the best quality.
    if not list((CLIENT / "build").glob("pyodide/*/pyodide.asm.wasm.br")):
        os.environ.setdefault("KICKLINE_BR_QUALITY", "5")
    build_client.build()
    return CLIENT / "build"


@pytest.fixture(scope="session")
def server_url(client_build: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    data = tmp_path_factory.mktemp("kickline-data")
    port = free_port()
    exe = Path(sys.executable).with_name("kickline")
    cmd = [str(exe) if exe.exists() else sys.executable, *([] if exe.exists() else
           ["-m", "kickline_server.cli"]), "serve", "--host", "127.0.0.1", "--port", str(port),
           "--data-dir", str(data), "--client-dir", str(CLIENT),
           # Every browser of every scenario comes from 127.0.0.1, and a fresh page load
           # is some 50 requests (one connection each): the per-address budget of 240
           # connections a minute would refuse files (429) to whichever test comes next.
           "--connections-per-minute", "0",
           # The scenarios test the client, not the clock: on a busy machine a browser
           # spent the default 30 s + 300 s bank and lost its match on timeouts (seen at
           # load 30 in a whole-suite run), so every seat gets the most time there is.
           "--decision-time", "3600", "--time-bank", "36000"]
    log = (data / "server.log").open("w")
    proc = subprocess.Popen(cmd, cwd=ROOT, stdout=log, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 20
        while True:
            try:
                with urllib.request.urlopen(url + "/healthz", timeout=1) as r:
                    if r.status == 200:
                        break
            except OSError:
                if proc.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError("the server did not start: "
                                       + (data / "server.log").read_text()[-2000:]) from None
                time.sleep(0.1)
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
        log.close()
