"""The door of the server: what happens to a TCP connection before the websocket opens.

websockets runs the HTTP handshake; :class:`GateConnection` (handed to its ``serve`` as
``create_connection``) adds what a public server needs at that point:

* a request that is not HTTP at all is answered with ``400 Bad Request`` (websockets
  would close the socket without a status line, which looks like a network fault);
* websockets' per-connection INFO lines ("connection open", "connection closed") go
  to DEBUG (:func:`quiet_logger`): under a flood they were two log lines per connect;
* asyncio's own errors (a failed ``accept()`` when file descriptors run out) are
  logged one line per kind per interval (:func:`loop_errors`), not a traceback
  per attempt (73 148 lines in 25 s, measured).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import Any

from websockets.asyncio.server import ServerConnection
from websockets.exceptions import InvalidMessage

from .errlog import Throttled

log = logging.getLogger(__name__)


def _plain_response(status: int, reason: str, text: str, extra: str = "") -> bytes:
    body = text.encode()
    return (f"HTTP/1.1 {status} {reason}\r\nContent-Type: text/plain; charset=utf-8\r\n"
            f"Content-Length: {len(body)}\r\n{extra}Connection: close\r\n\r\n").encode() + body


BAD_REQUEST = _plain_response(400, "Bad Request", "not a valid HTTP request\n")


class GateConnection(ServerConnection):
    """websockets' server connection, answering what websockets would drop unanswered."""

    _answered = False

    def send_data(self) -> None:
        # websockets sends only an EOF when the request is not HTTP; put a status line
        # before it.  (A peer that closed before sending anything needs no answer.)
        exc = self.protocol.handshake_exc
        if (not self._answered and self.request is None and isinstance(exc, InvalidMessage)
                and not isinstance(exc.__cause__, EOFError)):
            self._answered = True
            self.transport.write(BAD_REQUEST)
        super().send_data()


class _Demoted(logging.LoggerAdapter):  # type: ignore[type-arg]
    """Passes records on, INFO lowered to DEBUG."""

    def log(self, level: int, msg: object, *args: Any, **kwargs: Any) -> None:
        super().log(logging.DEBUG if level == logging.INFO else level, msg, *args, **kwargs)

    def process(self, msg: Any, kwargs: Any) -> tuple[Any, Any]:
        return msg, kwargs


def quiet_logger(name: str = "websockets.server") -> logging.LoggerAdapter:  # type: ignore[type-arg]
    """The logger to give websockets: its per-connection INFO lines become DEBUG."""
    return _Demoted(logging.getLogger(name), {})


_loop_failures = Throttled(logging.getLogger("kickline_server.loop"))


def _loop_error(loop: asyncio.AbstractEventLoop, context: Mapping[str, Any]) -> None:
    message = str(context.get("message") or "event loop error")
    exc = context.get("exception")
    _loop_failures.error(message, message, exc if isinstance(exc, BaseException) else None)


@contextmanager
def loop_errors() -> Iterator[None]:
    """While inside: asyncio's errors are logged one line per kind per interval."""
    loop = asyncio.get_running_loop()
    previous = loop.get_exception_handler()
    loop.set_exception_handler(_loop_error)
    try:
        yield
    finally:
        loop.set_exception_handler(previous)
