"""Whole events played by bots through a real server process (the end-to-end tests).

``Server`` is ``kickline serve`` in a child process (so it can be killed with SIGKILL);
``Organiser`` sends the organiser's commands (resending the same message after a
restart: commands are idempotent); each ``Player`` is a task that keeps a connection,
learns of its matches (``next_match``, or ``welcome.matches`` after a reconnect) and
plays them with the greedy bot, writing down what it saw: the match, its seat and the
``over`` message. The tests then compare the server's standings and TRF with what the
bots saw.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import urllib.request
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import anyio
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake

from kickline_server.botclient import BotState, play
from kickline_server.protocol import decode_replies, encode

ROOT = Path(__file__).resolve().parents[3]
ENV = {**os.environ, "PYTHONPATH": os.pathsep.join(
    [str(ROOT / "shared"), str(ROOT / "server"), os.environ.get("PYTHONPATH", "")])}
LOST = (ConnectionClosed, OSError, InvalidHandshake, TimeoutError)


class Server:
    def __init__(self, data_dir: Path, port: int) -> None:
        self.port = port
        self.url = f"ws://127.0.0.1:{port}/ws"
        self.http = f"http://127.0.0.1:{port}"
        self.args = [sys.executable, "-m", "kickline_server.cli", "serve", "--port", str(port),
                     "--data-dir", str(data_dir), "--log-level", "WARNING",
                     # Every budget per address at its default: the bots all come from
                     # 127.0.0.1, as a club's players come from its one public address
                     # (docs/SECURITY.md).  Only the message rate is lifted: a bot
                     # answers at machine speed.
                     "--rate", "5000"]
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        self.proc = subprocess.Popen(self.args, env=ENV, stdout=subprocess.DEVNULL,
                                     stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            assert self.proc.poll() is None, "the server exited at start"
            try:
                with urllib.request.urlopen(f"{self.http}/healthz", timeout=1) as r:
                    if r.status == 200:
                        return
            except OSError:
                time.sleep(0.05)
        raise RuntimeError("the server did not start")

    def kill(self) -> None:
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(timeout=10)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=10)

    def get(self, path: str) -> bytes:
        with urllib.request.urlopen(self.http + path, timeout=10) as r:
            body: bytes = r.read()
            return body


async def session(url: str, hello: dict[str, Any]) -> tuple[Any, dict[str, Any]]:
    ws = await connect(url, max_size=None, open_timeout=5)
    await ws.send(encode({"t": "hello", "versions": [1], **hello}))
    welcome = decode_replies(await ws.recv())[0]
    return ws, welcome


class Link:
    """One identity's connection, kept open; ``ask`` sends a message and returns its
    answer, reconnecting (and sending the same message again: commands are idempotent
    by id) across a server restart. Other messages are kept in ``inbox``."""

    def __init__(self, url: str, token: str) -> None:
        self.url, self.token = url, token
        self.ws: Any = None
        self.inbox: list[dict[str, Any]] = []
        self.welcome: dict[str, Any] = {}

    async def open(self) -> None:
        while self.ws is None:
            try:
                self.ws, self.welcome = await session(self.url, {"token": self.token})
                assert self.welcome["t"] == "welcome", self.welcome
            except LOST:
                await anyio.sleep(0.2)

    async def recv(self) -> list[dict[str, Any]]:
        await self.open()
        try:
            return decode_replies(await self.ws.recv())
        except LOST:
            self.ws = None
            raise

    async def ask(self, msg: dict[str, Any], *, deadline: float = 120) -> dict[str, Any]:
        with anyio.fail_after(deadline):
            while True:
                try:
                    await self.open()
                    await self.ws.send(encode(msg))
                    while True:
                        for m in await self.recv():
                            if m.get("re") != msg["id"]:
                                self.inbox.append(m)
                            elif m.get("code") == "busy":
                                raise OSError("busy")
                            else:
                                return m
                except LOST:
                    self.ws = None
                    await anyio.sleep(0.2)

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()


@dataclass
class Seen:
    """What one player saw of one match."""

    match: str
    round: int
    board: int
    seat: int | None
    over: dict[str, Any] | None


@dataclass
class Player:
    name: str
    token: str = ""
    pid: int = 0
    seen: dict[str, Seen] = field(default_factory=dict)
    skip_round: int | None = None  # stays away from this round's match (a no-show)

    async def register(self, url: str) -> None:
        ws, welcome = await session(url, {"name": self.name})
        await ws.close()
        assert welcome["t"] == "welcome", welcome
        self.token = welcome["token"]

    async def run(self, url: str, tid: str, stop: anyio.Event) -> None:
        """Play every match of event ``tid`` made for this player, until ``stop``: told by
        ``next_match``, or found in ``mine`` (after a reconnect, a notice may be lost)."""
        link = Link(url, self.token)
        try:
            while not stop.is_set():
                mine = await link.ask({"t": "mine", "id": f"mine{time.monotonic()}"})
                todo = [m for m in mine.get("matches", []) + link.inbox
                        if (m.get("tournament") or {}).get("id") == tid
                        and m.get("t") in (None, "next_match")
                        and m["match"] not in self.seen]
                link.inbox.clear()
                if not todo:
                    with anyio.move_on_after(1.0):
                        try:
                            for m in await link.recv():
                                link.inbox.append(m)
                        except LOST:
                            pass
                for m in {m["match"]: m for m in todo}.values():
                    await self.play(url, m)
        finally:
            await link.close()

    async def play(self, url: str, m: dict[str, Any]) -> None:
        t = m["tournament"]
        seen = Seen(m["match"], t["round"], t["board"], m["seat"], None)
        self.seen[m["match"]] = seen
        if t["round"] == self.skip_round:
            return
        seen.over = await play(url, state=BotState(token=self.token, match=m["match"]),
                               strategy="greedy", seed=f"{self.name}:{m['match']}",
                               reconnect_timeout=120)


class Organiser:
    def __init__(self, url: str, name: str = "") -> None:
        self.url = url
        self.name = name or f"Org{uuid.uuid4().hex[:6]}"
        self.link: Link | None = None
        self.tid = ""
        self.n = 0

    async def register(self) -> None:
        ws, welcome = await session(self.url, {"name": self.name})
        await ws.close()
        self.link = Link(self.url, welcome["token"])

    async def do(self, msg_id: str, op: str, **args: Any) -> dict[str, Any]:
        assert self.link is not None
        msg: dict[str, Any] = {"t": "tcommand", "id": msg_id, "op": op, "args": args}
        if self.tid:
            msg["tournament"] = self.tid
        reply = await self.link.ask(msg)
        assert reply["t"] == "ack", reply
        if op == "create":
            self.tid = reply["tournament"]
        return reply

    async def view(self) -> dict[str, Any]:
        assert self.link is not None
        self.n += 1
        reply = await self.link.ask({"t": "tournament", "id": f"v{self.n}",
                                     "tournament": self.tid})
        view: dict[str, Any] = reply["tournament"]
        return view

    async def until(self, test: Any, *, deadline: float = 180) -> dict[str, Any]:
        """The view once ``test(view)`` holds."""
        with anyio.fail_after(deadline):
            while True:
                v = await self.view()
                if test(v):
                    return v
                await anyio.sleep(0.2)

    async def round(self, n: int) -> dict[str, Any]:
        """Pair and start round ``n``; the view once it is done."""
        await self.do(f"pair{n}", "pair", round=n)
        await self.do(f"start{n}", "start", round=n)
        return await self.until(lambda v: v["rounds"][n - 1]["status"] == "done")


async def join_all(url: str, tid: str, players: list[Player]) -> None:
    for p in players:
        link = Link(url, p.token)
        reply = await link.ask({"t": "tcommand", "id": "join", "op": "join",
                                "tournament": tid})
        await link.close()
        assert reply["t"] == "ack", reply
        p.pid = reply["reply"]["pid"]


def seen_results(players: list[Player]) -> dict[str, tuple[int | None, list[int] | None, str]]:
    """Per match, what its players saw at the end: (winner seat, score, reason)."""
    out: dict[str, tuple[int | None, list[int] | None, str]] = {}
    for p in players:
        for s in p.seen.values():
            if s.over is not None:
                r = s.over["result"]
                got = (r.get("winner"), r.get("score"), r.get("reason"))
                assert out.setdefault(s.match, got) == got
    return out
