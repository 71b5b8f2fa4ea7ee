"""The door of the server: what happens to a TCP connection before the websocket opens.

websockets runs the HTTP handshake; :class:`Gate` decides what each request gets and
:class:`GateConnection` (handed to websockets' ``serve`` as ``create_connection``, made
by :meth:`Gate.connection_class`) adds what a public server needs at that point:

* every request counts against a budget of its address (``429`` with ``Retry-After``
  past it): a request for one of the client's files against ``Budgets.files_per_minute``,
  any other (websocket, ``/session``, records, ``/healthz``) against
  ``Budgets.connections_per_minute``; a websocket or a running download also counts as
  one of the address's simultaneous connections;
* TCP connections whose request has not arrived yet are capped per peer address
  (``Budgets.half_open_per_address``): past it, new ones are dropped at once, so one
  address cannot hold every file descriptor with upgrades it never finishes;
* the client's files are streamed from disk (:mod:`.static`), never read whole into
  memory, and a download that stalls or crawls is cut off; each counts as one of its
  address's simultaneous connections while it runs;
* while the server starts (resuming its matches, :attr:`Gate.ready` false) it already
  listens: health and status paths and the client's files are answered, any other
  request waits for the lobby up to half the handshake timeout, then gets ``503`` with
  ``Retry-After`` (a big store took 16.7 s to resume with no listener at all);
* the handshake timeout is ours, not websockets' ``open_timeout``, because that one
  would also cut off every download that outlasts it;
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
import json
import logging
import math
import time
from collections import Counter
from collections.abc import Awaitable, Callable, Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from websockets.asyncio.server import ServerConnection
from websockets.exceptions import InvalidMessage
from websockets.frames import Frame
from websockets.http11 import Request, Response

from . import static
from .addresses import TrustedProxies, address_key, client_address, peer_ip
from .budgets import Budgets, Rate
from .errlog import Throttled
from .responses import JSON, response

log = logging.getLogger(__name__)
_refusals = Throttled(log)

Event = Request | Response | Frame


def _plain_response(status: int, reason: str, text: str, extra: str = "") -> bytes:
    body = text.encode()
    return (f"HTTP/1.1 {status} {reason}\r\nContent-Type: text/plain; charset=utf-8\r\n"
            f"Content-Length: {len(body)}\r\n{extra}Connection: close\r\n\r\n").encode() + body


BAD_REQUEST = _plain_response(400, "Bad Request", "not a valid HTTP request\n")


Routes = Callable[[ServerConnection, Request, str, str], "Response | Awaitable[Response] | None"]
"""``(conn, request, path, query)`` -> a response (or one to await), or ``None``."""


class Gate:
    """Per-server state at the door: budgets per address and the HTTP routes."""

    ROUTED = frozenset({"/healthz"})
    """Paths answered before the client's files even if a file had that name."""
    EARLY = frozenset({"/healthz", "/readyz", "/metrics", "/status", "/status.json"})
    """Paths answered at once while the server starts (the operator's: health and
    status); the client's files are too.  Any other request waits for :attr:`ready`."""

    def __init__(self, *, budgets: Budgets, trusted: TrustedProxies,
                 max_connections_per_address: int, client_dir: Path | None,
                 health: Callable[[], dict[str, Any]], handshake_timeout: float = 10.0,
                 routes: Routes | None = None,
                 static_limits: static.StaticLimits | None = None,
                 ready: bool = True,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.budgets = budgets
        self.trusted = trusted
        self.max_connections_per_address = max_connections_per_address
        self.client_dir = client_dir
        self.health = health
        self.handshake_timeout = handshake_timeout
        self.routes = routes
        """Other GET routes (the players': ``/session``, ``/record/...``), asked after the
        budgets and before the static files; ``None`` means not theirs."""
        self.static_limits = static_limits or static.StaticLimits()
        self._ready = asyncio.Event()
        if ready:
            self._ready.set()
        self.connects = Rate(budgets.connections_per_minute, 60.0, clock=clock)
        self.files = Rate(budgets.files_per_minute, 60.0, clock=clock)
        self.connected: Counter[str] = Counter()
        """Open websockets and running downloads per address key."""
        self.half_open: Counter[str] = Counter()
        """TCP connections per peer address key still waiting for their request."""
        self.downloads = 0
        """Static bodies being sent right now (for tests and /healthz)."""

    @property
    def ready(self) -> bool:
        """Whether the server has resumed its matches and serves players."""
        return self._ready.is_set()

    def mark_ready(self) -> None:
        self._ready.set()

    async def until_ready(self) -> bool:
        """Wait for :attr:`ready`, up to half the handshake timeout; whether it came."""
        if self._ready.is_set():
            return True
        try:
            async with asyncio.timeout(self.handshake_timeout / 2):
                await self._ready.wait()
        except TimeoutError:
            return False
        return True

    def connection_class(self) -> type[GateConnection]:
        """The ``create_connection`` for websockets' ``serve``: knows this gate."""
        return type("KicklineConnection", (GateConnection,), {"gate": self})

    # -- half-open connections (TCP, before any HTTP) --

    def handshake_begins(self, peer: str) -> bool:
        """Count a new TCP connection from ``peer``; ``False``: over the cap, drop it."""
        ip = peer_ip(peer)
        if self.trusted.trusts(ip):
            return True
        key = address_key(peer)
        cap = self.budgets.half_open_per_address
        if cap > 0 and self.half_open[key] >= cap:
            _refusals.error("half-open", f"dropped a connection from {peer}: {cap} others "
                            "from its address have not sent their request yet",
                            level=logging.WARNING)
            return False
        self.half_open[key] += 1
        return True

    def handshake_ends(self, peer: str) -> None:
        key = address_key(peer)
        if self.half_open.get(key, 0) > 0:
            self.half_open[key] -= 1
            if not self.half_open[key]:
                del self.half_open[key]

    # -- requests --

    async def route(self, conn: ServerConnection, request: Request
                    ) -> Response | static.Reply | None:
        """What a request gets: a response, a static file to stream, or ``None`` to let
        a websocket upgrade proceed."""
        address = client_address(conn, self.trusted)
        peer = peer_ip(str(conn.remote_address[0]) if conn.remote_address else "")
        if ("X-Forwarded-For" in request.headers and peer is not None
                and (peer.is_loopback or peer.is_private) and not self.trusted.trusts(peer)):
            _refusals.error("untrusted-proxy", f"{address} sends X-Forwarded-For but is not "
                            "a trusted proxy: every client behind it shares its budgets; "
                            f"if it is your reverse proxy, start with --trusted-proxy "
                            f"{address}", level=logging.WARNING)
        key = address_key(address)
        path = request.path.split("?", 1)[0]
        upgrade = request.headers.get("Upgrade", "").lower() == "websocket"
        # Which budget: the client's files have their own (a page load is ~60 of them).
        # No route's path resolves to a file: static.resolve serves only the client's.
        is_file = (not upgrade and self.client_dir is not None
                   and request.method in ("GET", "HEAD")
                   and static.resolve(self.client_dir, path) is not None)
        wait = (self.files if is_file else self.connects).take(key)
        if wait is not None:
            return _too_many(conn, wait)
        if request.method not in ("GET", "HEAD"):
            return response(405, "only GET and HEAD are served here\n",
                            headers=[("Allow", "GET, HEAD")])
        if path == "/healthz":
            return response(200, json.dumps(self.health()) + "\n", JSON)
        # Starting (resuming matches): a player's request waits, or comes back later.
        if not is_file and path not in self.EARLY and not await self.until_ready():
            return starting()
        if self.routes is not None and request.method == "GET":
            routed = self.routes(conn, request, path, request.path.partition("?")[2])
            if isinstance(routed, Awaitable):
                routed = await routed
            if routed is not None:
                return routed
        if upgrade:
            if path != "/ws":
                return response(404, "the websocket endpoint is /ws\n")
            if self.connected[key] >= self.max_connections_per_address:
                return _too_many(conn, 10.0)
            return None
        if self.client_dir is not None:
            reply = await static.plan(self.client_dir, path, request.headers,
                                      head=request.method == "HEAD", limits=self.static_limits)
            if reply is not None:
                if self.connected[key] >= self.max_connections_per_address:
                    return _too_many(conn, 10.0)
                return reply
        return response(404, "not found\n")

    @contextmanager
    def holding(self, conn: ServerConnection) -> Iterator[str]:
        """While a websocket is open or a download runs: counted as one of its address's
        connections; yields the client's address."""
        address = client_address(conn, self.trusted)
        key = address_key(address)
        self.connected[key] += 1
        try:
            yield address
        finally:
            self.connected[key] -= 1
            if self.connected[key] <= 0:
                del self.connected[key]


def starting() -> Response:
    """The answer to a request the server cannot serve until it has resumed its
    matches: 503, try again in a couple of seconds."""
    return response(503, "the server is starting (resuming its matches); try again in a "
                    "moment\n", headers=[("Retry-After", "2")])


def _too_many(conn: ServerConnection, wait: float) -> Response:
    return response(429, "too many connections from your address; try again shortly\n",
                    headers=[("Retry-After", str(max(1, math.ceil(wait))))])


class GateConnection(ServerConnection):
    """websockets' server connection, answering what websockets would drop unanswered,
    counting itself as half-open until its request arrives, and streaming files."""

    gate: Gate
    _answered = False
    _peer: str | None = None
    """Set while this connection counts as half-open."""

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        super().connection_made(transport)
        peername = transport.get_extra_info("peername")
        peer = str(peername[0]) if isinstance(peername, tuple) and peername else ""
        if self.gate.handshake_begins(peer):
            self._peer = peer
        else:
            self.transport.abort()

    def _handshake_over(self) -> None:
        if self._peer is not None:
            self.gate.handshake_ends(self._peer)
            self._peer = None

    def process_event(self, event: Event) -> None:
        if self.request is None:  # the request: no longer half-open
            self._handshake_over()
        super().process_event(event)

    def connection_lost(self, exc: Exception | None) -> None:
        self._handshake_over()
        keepalive = self.keepalive_task
        super().connection_lost(exc)  # the protocol is CLOSED; the keepalive cancelled
        # What websockets leaves in reference cycles once a connection is lost, through
        # objects that lived as long as the connection (frozen by the GC policy
        # meanwhile, so only a full collection would free them and what they hold:
        # measured, 10-30 objects a close, docs/BENCHMARKS.md), broken here:
        # - the protocol's parser, a generator suspended for good (nothing steps it after
        #   EOF), whose frame holds the protocol: every connection, however it ends;
        self.protocol.parser.close()
        # - the exception that ended a connection without a closing handshake (a client
        #   gone, a reset, a request cut short), whose traceback holds the parser's
        #   frame: the exceptions stay (a ConnectionClosed raised later still names its
        #   cause), their frames go;
        drop_tracebacks(self.protocol.parser_exc, self.protocol.handshake_exc,
                        self.connection_exc)
        # - the keepalive task, cancelled while it waited for a pong (below).
        if keepalive is not None:
            keepalive.add_done_callback(_forget_cancellation)

    def send_data(self) -> None:
        # websockets sends only an EOF when the request is not HTTP; put a status line
        # before it.  (A peer that closed before sending anything needs no answer.)
        exc = self.protocol.handshake_exc
        if (not self._answered and self.request is None and isinstance(exc, InvalidMessage)
                and not isinstance(exc.__cause__, EOFError)):
            self._answered = True
            self.transport.write(BAD_REQUEST)
        super().send_data()

    async def handshake(self, process_request: Any = None, process_response: Any = None,
                        server_header: str | None = None) -> None:
        """The opening handshake, under our timeout; a static file is streamed instead.
        (websockets' ``serve`` runs with ``open_timeout=None``: see the module doc.)"""
        gate = self.gate
        loop = asyncio.get_running_loop()
        deadline = loop.time() + gate.handshake_timeout
        async with asyncio.timeout_at(deadline):
            await asyncio.wait([self.request_rcvd, self.connection_lost_waiter],
                               return_when=asyncio.FIRST_COMPLETED)
            route = await gate.route(self, self.request) if self.request is not None else None
        if isinstance(route, static.Reply):
            with gate.holding(self):
                await self._stream(route)
            return  # not OPEN: websockets aborts what is left of the connection

        def answer(conn: ServerConnection, request: Request) -> Response | None:
            assert not isinstance(route, static.Reply)
            return route

        async with asyncio.timeout_at(deadline):
            await super().handshake(answer, process_response, server_header)

    async def _stream(self, reply: static.Reply) -> None:
        """Send ``reply``, one chunk at a time as the client takes them; cut off a client
        that stalls (``stall``) or crawls (``min_rate`` after ``grace``)."""
        limits = self.gate.static_limits
        transport = self.transport
        # Nothing the client sends now is read: the request was all we wanted, and
        # websockets must not answer bytes that follow it in the middle of our body.
        transport.pause_reading()
        self.gate.downloads += 1
        loop = asyncio.get_running_loop()
        deadline = loop.time() + limits.grace + reply.length / limits.min_rate
        try:
            async with asyncio.timeout_at(deadline):
                transport.write(reply.head())
                async for chunk in reply.chunks(limits.chunk):
                    if transport.is_closing():
                        return
                    transport.write(chunk)
                    async with asyncio.timeout(limits.stall):
                        await self.drain()
                transport.close()  # after what is buffered has gone
                async with asyncio.timeout(limits.stall):
                    await asyncio.shield(self.connection_lost_waiter)
        except TimeoutError:
            log.debug("cut off a slow download of %d bytes", reply.length)
        except OSError as exc:  # the file went away, or the socket did
            log.debug("a download failed: %s", exc)
        finally:
            self.gate.downloads -= 1
            if not transport.is_closing():
                transport.abort()


def _forget_cancellation(task: asyncio.Task[None]) -> None:
    """A cancelled keepalive task keeps its ``CancelledError``, chained to the
    ``TimeoutError`` of a ping that timed out, whose traceback holds the frame of
    ``asyncio.timeout``'s ``__aexit__``, which holds the timeout, which holds the task: a
    cycle holding the keepalive's frame, and through it the connection.  Taking the
    error (``result()`` hands it over) and its frames breaks it."""
    if task.cancelled():
        try:
            task.result()
        except asyncio.CancelledError as exc:
            drop_tracebacks(exc)


def drop_tracebacks(*excs: BaseException | None) -> None:
    """Forget the frames of these exceptions and of those they chain to (their
    ``__cause__`` and ``__context__``), keeping the exceptions themselves."""
    todo = [e for e in excs if e is not None]
    seen: set[int] = set()
    while todo:
        exc = todo.pop()
        if id(exc) in seen:
            continue
        seen.add(id(exc))
        exc.__traceback__ = None
        todo.extend(e for e in (exc.__cause__, exc.__context__) if e is not None)


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
