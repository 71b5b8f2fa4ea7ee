"""A restart forfeits nobody: the real server process, SIGKILLed mid-match and started
again, gives every owed decision its clock back plus the restart grace, marks the
players away (not gone), and plays on when they come back, however late."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from test_cli import ServerProc, servers  # noqa: F401  (the fixture)
from websockets.sync.client import ClientConnection, connect

from kickline_server.protocol import decode_replies, encode

TOY = {"game": "toy", "config": {"mode": "training", "board": 40}}
GRACE = 30.0


class Raw:
    """A blocking protocol client: send, and wait for a message (with a deadline)."""

    def __init__(self, ws: ClientConnection) -> None:
        self.ws = ws
        self.buffer: list[dict[str, Any]] = []
        self.welcome: dict[str, Any] = {}

    def send(self, msg: dict[str, Any]) -> None:
        self.ws.send(encode(msg))

    def expect(self, t: str, **match: Any) -> dict[str, Any]:
        deadline = time.monotonic() + 15
        while True:
            while not self.buffer:
                self.buffer.extend(decode_replies(self.ws.recv(
                    timeout=max(0.1, deadline - time.monotonic()))))
            msg = self.buffer.pop(0)
            if msg["t"] == t and all(msg.get(k) == v for k, v in match.items()):
                return msg


@contextmanager
def raw(port: int, **hello: Any) -> Iterator[Raw]:
    with connect(f"ws://127.0.0.1:{port}/ws", max_size=None) as ws:
        c = Raw(ws)
        c.send({"t": "hello", "versions": [1], **hello})
        c.welcome = c.expect("welcome")
        yield c


def test_a_sigkill_and_restart_mid_match_forfeits_nobody(
        tmp_path: Path, servers: list[ServerProc],  # noqa: F811
        port: Callable[[], int]) -> None:
    # Ten seconds a decision, no bank, one timeout forfeits: without the restart grace
    # the owed decision's deadline would stay where the killed server left it (at most
    # ten seconds after the first prompt), short of the restart plus the grace.  Ten, not
    # one: the clock runs from the first prompt to the kill, and on a starved machine
    # that has taken over a second (the seat then forfeited before the kill).
    s = ServerProc(tmp_path / "data", port(), "--restart-grace", str(GRACE), "--grace", "5")
    servers.append(s)
    s.start()
    clock = {"decision": 10, "bank": 0, "max_timeouts": 1}
    with raw(s.port, name="Ada-restart") as a, raw(s.port, name="Bea-restart") as b:
        a.send({"t": "create", "id": "c", **TOY, "clock": clock})
        code = a.expect("ack", re="c")["code"]
        b.send({"t": "join", "id": "j", "code": code})
        match = b.expect("ack", re="j")["match"]
        first = a.expect("prompt", match=match, status="playing")
        owes = first["to_act"]["seats"]
        token_a, token_b = a.welcome["token"], b.welcome["token"]
    s.kill()
    restarted = time.time()
    s.start()
    # Nobody has come back yet.  Seat 1 looks first: the match is on, seat 0 away.
    with raw(s.port, token=token_b) as b:
        b.send({"t": "open", "id": "o", "match": match})
        seen = b.expect("prompt", match=match)
        assert seen["status"] == "playing"
        assert seen["presence"][0]["state"] == "reconnecting"
        for seat in owes:
            # The owed decision's clock starts again at the restart, with the grace.
            assert seen["clock"]["deadline"][seat] >= restarted + GRACE
        with raw(s.port, token=token_a) as a:
            a.send({"t": "open", "id": "o", "match": match})
            back = a.expect("prompt", match=match)
            assert back["status"] == "playing" and back["version"] == first["version"]
            mover, other = (a, b) if back["legal"] else (b, a)
            prompt = back if back["legal"] else seen
            mover.send({"t": "decide", "id": "d", "match": match,
                        "version": prompt["version"], "decision": prompt["legal"][0]})
            assert mover.expect("ack", re="d")["version"] > first["version"]
            other.expect("prompt", match=match, status="playing")
    assert s.stop() == 0

