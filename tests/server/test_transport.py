"""Bad input over a real socket: every case gets a clear error or a close, and
changes nothing."""

from __future__ import annotations

import logging
from typing import Any

import anyio
import msgpack  # type: ignore[import-untyped]
import pytest
from journeys import quick_match
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.protocol import State

from kickline_server.transport import TransportLimits

pytestmark = pytest.mark.anyio

TOY = {"game": "toy", "config": {"mode": "training", "board": 25}}


async def closed_with(c: Any) -> tuple[int | None, list[dict[str, Any]]]:
    """Read until the server closes; returns the close code and what came before."""
    got = []
    with anyio.fail_after(10):
        try:
            while True:
                got.append(await c.recv())
        except ConnectionClosed:
            pass
    code: int | None = c.ws.close_code
    return code, got


@pytest.mark.parametrize(("frame", "code", "close"), [
    (b"\xc1", "bad_msgpack", 1007),
    (msgpack.packb({"t": "x", "a": list(range(100))}), "bad_msgpack", 1007),
])
async def test_malformed_msgpack_closes(serve: Any, server_config: Any, client: Any,
                                        frame: bytes, code: str, close: int) -> None:
    async with serve(server_config()) as url, client(url) as c:
        await c.hello()
        await c.ws.send(frame)
        got_close, msgs = await closed_with(c)
        assert got_close == close
        assert msgs[-1]["code"] == code and msgs[-1]["message"]


async def test_text_frames_close_1003(serve: Any, server_config: Any, client: Any) -> None:
    async with serve(server_config()) as url, client(url) as c:
        await c.hello()
        await c.ws.send('{"t": "ping"}')
        got_close, msgs = await closed_with(c)
        assert got_close == 1003 and msgs[-1]["code"] == "not_binary"


async def test_oversized_frames_close_1009(serve: Any, server_config: Any, client: Any
                                           ) -> None:
    config = server_config(transport=TransportLimits(max_frame=1024))
    async with serve(config) as url, client(url) as c:
        await c.hello()
        await c.send({"t": "ping", "pad": "x" * 2000})
        got_close, _ = await closed_with(c)
        assert got_close == 1009


async def test_the_first_message_must_be_hello(serve: Any, server_config: Any, client: Any
                                               ) -> None:
    async with serve(server_config()) as url, client(url) as c:
        await c.send({"t": "ping"})
        got_close, msgs = await closed_with(c)
        assert got_close == 1008 and msgs == [
            {"t": "error", "code": "hello_required", "message": "the first message must be hello"}]


async def test_a_malformed_hello_is_a_protocol_error(serve: Any, server_config: Any,
                                                     client: Any) -> None:
    async with serve(server_config()) as url, client(url) as c:
        await c.send({"t": "hello", "versions": "1"})
        got_close, msgs = await closed_with(c)
        assert got_close == 1002 and msgs[-1]["code"] == "bad_field"


async def test_unsupported_version(serve: Any, server_config: Any, client: Any) -> None:
    async with serve(server_config()) as url, client(url) as c:
        await c.send({"t": "hello", "versions": [99, 100], "name": "x"})
        got_close, msgs = await closed_with(c)
        assert got_close == 1002
        assert msgs[-1]["code"] == "unsupported_version" and msgs[-1]["versions"] == [1, 2]


async def test_version_negotiation_picks_the_highest_common(serve: Any, server_config: Any,
                                                            client: Any) -> None:
    async with serve(server_config()) as url, client(url) as c:
        await c.send({"t": "hello", "versions": [1, 7], "name": "Xavier"})
        w = await c.recv()
        assert w["t"] == "welcome" and w["version"] == 1 and w["versions"] == [1, 2]
        assert "toy" in w["games"]
    async with serve(server_config()) as url, client(url) as c:
        await c.send({"t": "hello", "versions": [2, 1, 7], "name": "Yvonne"})
        assert (await c.recv())["version"] == 2


async def test_handshake_timeout(serve: Any, server_config: Any, client: Any) -> None:
    config = server_config(transport=TransportLimits(handshake_timeout=0.2))
    async with serve(config) as url, client(url) as c:
        got_close, msgs = await closed_with(c)
        assert got_close == 1008 and msgs[-1]["code"] == "handshake_timeout"


async def test_idle_timeout(serve: Any, server_config: Any, client: Any) -> None:
    config = server_config(transport=TransportLimits(idle_timeout=0.2))
    async with serve(config) as url, client(url) as c:
        await c.hello()
        got_close, msgs = await closed_with(c)
        assert got_close == 1008 and msgs[-1]["code"] == "idle_timeout"


@pytest.mark.parametrize("token", ["nonsense", "v1.e30.AAAA", "x" * 600])
async def test_bad_token(serve: Any, server_config: Any, client: Any, token: str) -> None:
    async with serve(server_config()) as url, client(url) as c:
        await c.send({"t": "hello", "versions": [1], "token": token})
        got_close, msgs = await closed_with(c)
        assert got_close == 1008 and msgs[-1]["code"] in ("bad_token", "bad_msgpack")


async def test_bad_name(serve: Any, server_config: Any, client: Any) -> None:
    async with serve(server_config()) as url, client(url) as c:
        await c.send({"t": "hello", "versions": [1], "name": "  "})
        got_close, msgs = await closed_with(c)
        assert got_close == 1008 and msgs[-1]["code"] == "bad_name"


@pytest.mark.parametrize(("msg", "code"), [
    ({"t": "teleport", "id": 1}, "unknown_type"),
    ({"x": 1}, "bad_message"),
    ({"t": "decide", "id": 1, "match": "m", "version": "0", "decision": "jog"}, "bad_field"),
    ({"t": "create", "id": 1, "config": {}, "private": 1}, "bad_field"),
    ({"t": "hello", "versions": [1], "name": "again"}, "bad_message"),
    ({"t": "join", "id": 1, "code": "NOPE42"}, "not_found"),
    ({"t": "open", "id": 1, "match": "nosuchmatch"}, "not_found"),
    ({"t": "watch", "id": 1, "code": "NOPE42"}, "not_found"),
    ({"t": "watch", "id": 1}, "bad_field"),
    ({"t": "decide", "id": 1, "match": "nosuch", "version": 0, "decision": "jog"}, "not_found"),
    ({"t": "create", "id": 1, "game": "chess", "config": {}}, "unknown_game"),
    ({"t": "create", "id": 1, "game": "toy", "config": {"board": 1}}, "bad_config"),
    ({"t": "create", "id": 1, **TOY, "bot": "genius"}, "unknown_bot"),
    ({"t": "create", "id": 1, **TOY, "clock": {"decision": 0}}, "bad_field"),
    ({"t": "create", "id": 1, **TOY, "clock": {"decision": 5, "fast": 1}}, "bad_field"),
    ({"t": "quick", "id": 1, "game": "toy", "config": {"mode": "advanced"}}, "bad_config"),
])
async def test_bad_messages_get_an_error_and_the_connection_stays(
    serve: Any, server_config: Any, client: Any, msg: dict[str, Any], code: str
) -> None:
    async with serve(server_config()) as url, client(url) as c:
        await c.hello()
        await c.send(msg)
        err = await c.recv()
        assert err["t"] == "error" and err["code"] == code and err["message"]
        if "id" in msg:
            assert err["re"] == msg["id"]
        await c.send({"t": "ping"})
        assert await c.recv() == {"t": "pong"}
        await c.send({"t": "list", "id": "l"})
        assert (await c.expect("ack", re="l"))["matches"] == []


async def test_decisions_for_a_seat_the_token_does_not_hold(
    serve: Any, server_config: Any, client: Any
) -> None:
    async with (serve(server_config()) as url, client(url) as a, client(url) as b,
                client(url) as mallory):
        await a.hello("a")
        await b.hello("b")
        await mallory.hello("mallory")
        m, p = await quick_match(a, b, TOY)
        # A quick match is private: to anyone else it is as if it did not exist.
        await mallory.send({"t": "decide", "id": 1, "match": m["match"], "version": 0,
                            "decision": "jog"})
        assert (await mallory.recv())["code"] == "not_found"
        await mallory.send({"t": "resign", "id": 2, "match": m["match"]})
        assert (await mallory.recv())["code"] == "not_found"
        await mallory.send({"t": "open", "id": 3, "match": m["match"]})
        assert (await mallory.recv())["code"] == "not_found"
        await a.send({"t": "decide", "id": 1, "match": m["match"], "version": p["version"],
                      "decision": "jog", "seat": 1})
        assert (await a.expect("error"))["code"] == "not_your_seat"
        # Nothing was applied: a's real decision is still owed at the same version.
        await a.send({"t": "decide", "id": 2, "match": m["match"], "version": p["version"],
                      "decision": "jog"})
        assert (await a.expect("ack", re=2))["version"] == p["version"] + 1


async def test_replayed_ids_are_answered_not_applied(serve: Any, server_config: Any,
                                                     client: Any) -> None:
    async with serve(server_config()) as url, client(url) as a, client(url) as b:
        await a.hello("a")
        await b.hello("b")
        m, _ = await quick_match(a, b, TOY)
        d = {"t": "decide", "id": "same", "match": m["match"], "version": 0, "decision": "jog"}
        await a.send(d)
        first = await a.expect("ack", re="same")
        await a.send({**d, "decision": "sprint"})
        again = await a.expect("ack", re="same")
        assert first == again
        await b.send({"t": "decide", "id": "b", "match": m["match"], "version": 0,
                      "decision": "sprint"})
        reveal = await b.expect("prompt")
        while not any(e.get("e") == "reveal" for e in reveal["events"]):
            reveal = await b.expect("prompt")
        ev = next(e for e in reveal["events"] if e.get("e") == "reveal")
        assert ev["choices"] == ["jog", "sprint"]


async def test_stale_and_illegal_decisions_over_the_wire(serve: Any, server_config: Any,
                                                         client: Any) -> None:
    async with serve(server_config()) as url, client(url) as a, client(url) as b:
        await a.hello("a")
        await b.hello("b")
        m, _ = await quick_match(a, b, TOY)
        await a.send({"t": "decide", "id": 1, "match": m["match"], "version": 9,
                      "decision": "jog"})
        err = await a.expect("error")
        assert err["code"] == "stale_version" and err["version"] == 0
        assert err["legal"] == ["jog", "sprint"] and err["view"]["phase"] == "choose"
        await a.send({"t": "decide", "id": 2, "match": m["match"], "version": 0,
                      "decision": "fly"})
        assert (await a.expect("error"))["code"] == "illegal_decision"
        await a.send({"t": "decide", "id": 3, "match": m["match"], "version": 0,
                      "decision": "FLY!"})
        assert (await a.expect("error"))["code"] == "malformed_decision"


async def test_rate_limit(serve: Any, server_config: Any, client: Any,
                          caplog: pytest.LogCaptureFixture) -> None:
    config = server_config(transport=TransportLimits(rate=1, burst=3))
    async with serve(config) as url, client(url) as c:
        welcome = await c.hello()
        assert welcome["limits"] == {"rate": 1, "burst": 3, "owed_decisions_free": True}
        for _ in range(5):
            await c.send({"t": "ping"})
        got = [await c.recv() for _ in range(5)]
        assert [m["t"] for m in got].count("pong") == 3
        assert [m.get("code") for m in got if m["t"] == "error"] == ["rate_limited"] * 2
        for _ in range(10):  # far over: closed
            await c.send({"t": "ping"})
        got_close, _ = await closed_with(c)
        assert got_close == 1008
    # One line at the first refusal; the rest, inside the interval, summed at the close.
    lines = [r.getMessage() for r in caplog.records if "over the" in r.getMessage()]
    assert len(lines) == 2, lines
    assert "over the message rate (1/s, burst 3): 1 message(s) refused" in lines[0]
    assert "closed with" in lines[1]


async def test_connections_per_address(serve: Any, server_config: Any, client: Any) -> None:
    async with serve(server_config(max_connections_per_address=2)) as url:
        async with client(url) as a, client(url) as b:
            await a.hello()
            await b.hello()
            with pytest.raises(InvalidStatus) as e:
                async with client(url):
                    pass
            assert e.value.response.status_code == 429
        with anyio.fail_after(5):  # freed again once they close
            while True:
                try:
                    async with client(url) as c:
                        await c.hello()
                        break
                except InvalidStatus:
                    await anyio.sleep(0.02)


async def test_only_the_ws_path_upgrades(serve: Any, server_config: Any, client: Any) -> None:
    async with serve(server_config()) as url:
        with pytest.raises(InvalidStatus) as e:
            async with client(url.removesuffix("/ws") + "/other"):
                pass
        assert e.value.response.status_code == 404


async def test_quick_queue_cancel_and_already_queued(serve: Any, server_config: Any,
                                                     client: Any) -> None:
    async with serve(server_config()) as url, client(url) as a:
        await a.hello("a")
        queued = {"t": "ack", "re": 1, "queued": True, "waiting": 1}
        await a.send({"t": "quick", "id": 1, **TOY})
        assert (await a.expect("ack", re=1)) == queued
        await a.send({"t": "quick", "id": 1, **TOY})  # a resend: answered again
        assert (await a.expect("ack", re=1)) == queued
        await a.send({"t": "quick", "id": 2, "game": "toy", "config": {"board": 9}})
        assert (await a.expect("error", re=2))["code"] == "already_queued"
        await a.send({"t": "cancel", "id": 3})
        assert (await a.expect("ack", re=3)) == {"t": "ack", "re": 3, "cancelled": True}
        await a.send({"t": "cancel", "id": 4})
        assert (await a.expect("ack", re=4)) == {"t": "ack", "re": 4, "cancelled": False}


async def test_open_matches_are_listed_private_ones_are_not(serve: Any, server_config: Any,
                                                            client: Any) -> None:
    async with serve(server_config()) as url, client(url) as a:
        await a.hello("a")
        await a.send({"t": "create", "id": 1, **TOY})
        open_ack = await a.expect("ack", re=1)
        await a.send({"t": "create", "id": 2, **TOY, "private": True})
        await a.expect("ack", re=2)
        await a.send({"t": "list", "id": 3, "game": "toy"})
        listed = (await a.expect("ack", re=3))["matches"]
        assert [m["code"] for m in listed] == [open_ack["code"]]
        # A resent create is answered with the same match, not a second one.
        await a.send({"t": "create", "id": 1, **TOY})
        assert (await a.expect("ack", re=1))["match"] == open_ack["match"]
        await a.send({"t": "list", "id": 4})
        assert len((await a.expect("ack", re=4))["matches"]) == 1


class FakeWs:
    """Records what the connection sends, through websockets' ``send`` (the writer
    task) or straight through its protocol (the flush); ``gate`` holds each send (a
    slow client: a paused socket, which the flush leaves to the writer)."""

    def __init__(self) -> None:
        self.frames: list[bytes] = []
        self.gate = anyio.Event()
        self.gate.set()
        self.protocol = self
        self.transport = self
        self.state = State.OPEN
        self.send_in_progress = None

    @property
    def paused(self) -> bool:
        return not self.gate.is_set()

    def is_closing(self) -> bool:
        return False

    def send_binary(self, data: bytes) -> None:
        self.frames.append(data)

    def send_data(self) -> None:
        pass

    async def send(self, data: bytes) -> None:
        await self.gate.wait()
        self.frames.append(data)


async def test_the_writer_batches_queued_messages_into_one_frame() -> None:
    from kickline_server.protocol import decode_replies
    from kickline_server.transport import Connection

    ws = FakeWs()
    conn = Connection(ws, TransportLimits())  # type: ignore[arg-type]
    async with anyio.create_task_group() as tg:
        tg.start_soon(conn._writer, tg.cancel_scope)
        conn.push({"t": "pong"})
        await anyio.wait_all_tasks_blocked()
        conn.push({"t": "ack", "re": 1})
        conn.push({"t": "ack", "re": 2})
        await anyio.wait_all_tasks_blocked()
        conn.close(1000, "bye")
    assert [decode_replies(f) for f in ws.frames] == [
        [{"t": "pong"}], [{"t": "ack", "re": 1}, {"t": "ack", "re": 2}]]
    conn.push({"t": "pong"})  # after the close: dropped, no error
    assert len(ws.frames) == 2


async def test_a_full_send_queue_closes_1013_after_sending_what_is_queued() -> None:
    from kickline_server.protocol import decode_replies
    from kickline_server.transport import Connection

    ws = FakeWs()
    ws.gate = anyio.Event()  # the client reads nothing
    conn = Connection(ws, TransportLimits(send_queue=3, max_batch=2))  # type: ignore[arg-type]
    async with anyio.create_task_group() as tg:
        tg.start_soon(conn._writer, tg.cancel_scope)
        conn.push({"t": "pong", "n": 0})
        await anyio.wait_all_tasks_blocked()  # the writer holds message 0
        for n in range(1, 5):
            conn.push({"t": "pong", "n": n})  # 1-3 fill the queue; 4 overflows it
        assert conn.closing == (1013, "slow consumer: send queue full")
        ws.gate.set()
    got = [m["n"] for f in ws.frames for m in decode_replies(f)]
    assert got == [0, 1, 2, 3]


async def test_deep_nesting_before_hello_is_bad_msgpack(serve: Any, server_config: Any,
                                                        client: Any) -> None:
    async with serve(server_config()) as url, client(url) as c:
        await c.ws.send(b"\x91" * 600 + b"\x01")  # 601 bytes, 600 levels
        got_close, msgs = await closed_with(c)
        assert got_close == 1007 and msgs[-1]["code"] == "bad_msgpack"


async def test_a_non_ascii_token_is_a_bad_token(serve: Any, server_config: Any, client: Any
                                                ) -> None:
    async with serve(server_config()) as url:
        async with client(url) as c:
            token = (await c.hello())["token"]
        async with client(url) as c:
            await c.send({"t": "hello", "versions": [1], "token": token[:-1] + "é"})
            got_close, msgs = await closed_with(c)
            assert got_close == 1008 and msgs[-1]["code"] == "bad_token"


@pytest.mark.parametrize("first", [{"t": "decide"}, {"t": "create", "id": 1},
                                   {"t": "ping", "extra": 1}])
async def test_any_other_first_message_is_hello_required(serve: Any, server_config: Any,
                                                         client: Any, first: dict[str, Any]
                                                         ) -> None:
    async with serve(server_config()) as url, client(url) as c:
        await c.send(first)
        got_close, msgs = await closed_with(c)
        assert got_close == 1008 and msgs[-1]["code"] == "hello_required"


async def test_a_bug_reached_by_a_message_is_one_log_line_and_the_connection_stays(
    serve: Any, server_config: Any, client: Any, caplog: pytest.LogCaptureFixture,
    monkeypatch: pytest.MonkeyPatch
) -> None:
    from kickline_server.lobby import Lobby

    async def broken(self: Any, conn: Any, msg: Any) -> None:
        raise ZeroDivisionError("a bug")

    monkeypatch.setattr(Lobby, "_on_list", broken)
    async with serve(server_config()) as url, client(url) as c:
        await c.hello()
        caplog.clear()
        for i in range(20):
            await c.send({"t": "list", "id": i})
            err = await c.expect("error")
            assert err["code"] == "internal" and err["re"] == i
        await c.send({"t": "ping"})
        assert await c.expect("pong")
    errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert len(errors) == 1 and errors[0].exc_info is None
    assert "ZeroDivisionError: a bug" in errors[0].getMessage()


async def test_the_rate_limit_says_when_to_retry(serve: Any, server_config: Any, client: Any
                                                 ) -> None:
    config = server_config(transport=TransportLimits(rate=2, burst=2))
    async with serve(config) as url, client(url) as c:
        await c.hello()
        for _ in range(3):
            await c.send({"t": "ping"})
        err = await c.expect("error")
        assert err["code"] == "rate_limited" and 0 < err["retry_after"] <= 1.0
