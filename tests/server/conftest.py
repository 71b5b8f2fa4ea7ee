"""Shared fixtures for the server tests: the anyio backend and a real Redis."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@pytest.fixture
def port() -> Callable[[], int]:
    """Call it for a free loopback port."""
    return free_port


class RedisProcess:
    """A ``redis-server`` of our own on a free loopback port, persisting (AOF, fsync
    always) into a temp dir so that it can be killed and restarted with its data."""

    def __init__(self, workdir: Path) -> None:
        binary = shutil.which("redis-server")
        if binary is None:
            pytest.skip("redis-server is not installed (.ci/run installs it)")
        self.binary = binary
        self.workdir = workdir
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        self.proc = subprocess.Popen(
            [self.binary, "--port", str(self.port), "--bind", "127.0.0.1", "--dir",
             str(self.workdir), "--appendonly", "yes", "--appendfsync", "always",
             "--save", "", "--protected-mode", "yes"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.5) as s:
                    s.sendall(b"PING\r\n")
                    if s.recv(16).startswith(b"+PONG"):
                        return
            except OSError:
                pass
            if self.proc.poll() is not None:
                raise RuntimeError("redis-server exited at start")
            time.sleep(0.02)
        raise RuntimeError("redis-server did not become ready")

    def stop(self, *, kill: bool = False) -> None:
        if self.proc is None:
            return
        if kill:
            self.proc.kill()
        else:
            self.proc.terminate()
        self.proc.wait(timeout=10)
        self.proc = None

    def restart(self) -> None:
        self.stop(kill=True)
        self.start()


@pytest.fixture
def redis_proc(tmp_path: Path) -> Iterator[RedisProcess]:
    """A private redis-server; tests may stop and restart it."""
    r = RedisProcess(tmp_path)
    r.start()
    try:
        yield r
    finally:
        r.stop(kill=True)


@pytest.fixture
def redis_url(tmp_path: Path) -> Iterator[str]:
    """``REDIS_URL`` if set, else a private redis-server's URL."""
    env = os.environ.get("REDIS_URL")
    if env:
        yield env
        return
    r = RedisProcess(tmp_path)
    r.start()
    try:
        yield r.url
    finally:
        r.stop(kill=True)


@pytest.fixture
def key_prefix() -> str:
    """A fresh key prefix, so tests sharing a REDIS_URL never see each other's keys."""
    return f"kltest:{uuid.uuid4().hex[:12]}:"


# --- a real server on loopback, and a raw protocol client ------------------------

from collections.abc import AsyncIterator  # noqa: E402
from contextlib import asynccontextmanager  # noqa: E402
from dataclasses import replace  # noqa: E402
from functools import partial  # noqa: E402
from typing import Any  # noqa: E402

import anyio  # noqa: E402
from websockets.asyncio.client import ClientConnection, connect  # noqa: E402

from kickline_server.app import ServerConfig, run_server  # noqa: E402
from kickline_server.lobby import LobbyLimits  # noqa: E402
from kickline_server.protocol import decode_replies, encode  # noqa: E402
from kickline_server.transport import TransportLimits  # noqa: E402

TEST_LOBBY = LobbyLimits(min_decision=0.01, grace=5.0)
FAST = TransportLimits(rate=5000, burst=10000)  # bots answer at machine speed


def make_config(data_dir: Path, **kw: Any) -> ServerConfig:
    base = ServerConfig(host="127.0.0.1", port=0, data_dir=data_dir, client_dir=None,
                        lobby=TEST_LOBBY, transport=FAST, ping_interval=None,
                        sqlite_synchronous="NORMAL")
    return replace(base, **kw)


@asynccontextmanager
async def running(config: ServerConfig, **kw: Any) -> AsyncIterator[str]:
    """Run a server in this event loop; yields its ws:// URL; stops it on exit."""
    shutdown = anyio.Event()
    async with anyio.create_task_group() as tg:
        port = await tg.start(partial(run_server, config, shutdown, **kw))
        try:
            yield f"ws://127.0.0.1:{port}/ws"
        finally:
            shutdown.set()


@pytest.fixture
def server_config(tmp_path: Path) -> Callable[..., ServerConfig]:
    return lambda **kw: make_config(tmp_path / "data", **kw)


@pytest.fixture
def serve() -> Callable[[ServerConfig], Any]:
    return running


class Client:
    """A raw protocol client for tests."""

    def __init__(self, ws: ClientConnection) -> None:
        self.ws = ws
        self.seen: list[dict[str, Any]] = []
        self.buffer: list[dict[str, Any]] = []

    async def send(self, msg: dict[str, Any]) -> None:
        await self.ws.send(encode(msg))

    async def recv(self) -> dict[str, Any]:
        """The next message (a frame may hold several)."""
        while not self.buffer:
            with anyio.fail_after(10):
                self.buffer.extend(decode_replies(await self.ws.recv()))
        msg = self.buffer.pop(0)
        self.seen.append(msg)
        return msg

    async def expect(self, t: str, **match: Any) -> dict[str, Any]:
        """The next message of type ``t`` (and fields), skipping others."""
        while True:
            msg = await self.recv()
            if msg["t"] == t and all(msg.get(k) == v for k, v in match.items()):
                return msg

    async def hello(self, name: str = "tester", token: str | None = None) -> dict[str, Any]:
        """Say hello with a token, or as a new player called ``name`` plus a suffix
        (every player is an account with a name of its own)."""
        msg: dict[str, Any] = {"t": "hello", "versions": [1]}
        if token:
            msg["token"] = token
        else:
            msg["name"] = f"{name[:12]}-{uuid.uuid4().hex[:6]}"
        await self.send(msg)
        return await self.recv()


@pytest.fixture
def client() -> Callable[..., Any]:
    @asynccontextmanager
    async def open_client(url: str, **kw: Any) -> AsyncIterator[Client]:
        async with connect(url, max_size=None, **kw) as ws:
            yield Client(ws)
    return open_client
