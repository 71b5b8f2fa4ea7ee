"""What happens before the websocket opens: bad HTTP, asyncio's errors, quiet logs."""

from __future__ import annotations

import asyncio
import logging
import socket
from typing import Any

import anyio
import pytest

pytestmark = pytest.mark.anyio


def _port(url: str) -> int:
    return int(url.rsplit(":", 1)[1].split("/", 1)[0])


async def raw_http(url: str, request: bytes) -> bytes:
    """Send ``request`` on a plain socket; everything the server says before closing."""
    stream = await anyio.connect_tcp("127.0.0.1", _port(url))
    async with stream:
        await stream.send(request)
        got = b""
        with anyio.fail_after(10):
            try:
                while True:
                    got += await stream.receive()
            except (anyio.EndOfStream, anyio.BrokenResourceError):
                pass
    return got


@pytest.mark.parametrize("request_bytes", [
    b"NONSENSE\r\n\r\n",
    b"GET / HTTP/0.9\r\n\r\n",
    b"GET /\xff HTTP/1.1\r\nHost: x\r\n\r\n",
    b"GET / HTTP/1.1\r\nbad header line\r\n\r\n",
])
async def test_bad_http_is_answered_with_a_status_line(serve: Any, server_config: Any,
                                                      request_bytes: bytes) -> None:
    async with serve(server_config()) as url:
        got = await raw_http(url, request_bytes)
    assert got.startswith(b"HTTP/1.1 400 Bad Request\r\n")


async def test_a_peer_that_says_nothing_gets_nothing(serve: Any, server_config: Any) -> None:
    async with serve(server_config()) as url:
        stream = await anyio.connect_tcp("127.0.0.1", _port(url))
        await stream.send_eof()
        with anyio.fail_after(10):
            with pytest.raises((anyio.EndOfStream, anyio.BrokenResourceError)):
                await stream.receive()
        await stream.aclose()


async def test_asyncio_errors_are_one_line_per_kind(serve: Any, server_config: Any,
                                                    caplog: pytest.LogCaptureFixture) -> None:
    # What asyncio reports for every failed accept() when file descriptors run out.
    context = {"message": "socket.accept() out of system resource",
               "exception": OSError(24, "Too many open files"), "socket": socket.socket()}
    async with serve(server_config()):
        with caplog.at_level(logging.INFO):
            loop = asyncio.get_running_loop()
            for _ in range(500):
                loop.call_exception_handler(context)
    context["socket"].close()
    lines = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert len(lines) == 1
    assert "out of system resource" in lines[0].getMessage()
    assert "Too many open files" in lines[0].getMessage()
    assert lines[0].exc_info is None


async def test_connections_log_nothing_at_info(serve: Any, server_config: Any, client: Any,
                                               caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.INFO):
        async with serve(server_config()) as url:
            caplog.clear()
            for _ in range(5):
                async with client(url) as c:
                    await c.hello()
            await anyio.sleep(0)
            lines = [r for r in caplog.records if r.levelno >= logging.INFO]
    assert not [r.getMessage() for r in lines if r.name.startswith("websockets")]
    assert len(lines) < 5, [r.getMessage() for r in lines]  # none per connection


async def test_methods_other_than_get_and_head_are_refused(serve: Any, server_config: Any
                                                           ) -> None:
    async with serve(server_config()) as url:
        got = await raw_http(url, b"POST /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
    assert got.startswith(b"HTTP/1.1 405 ")
    assert b"\r\nAllow: GET, HEAD\r\n" in got
