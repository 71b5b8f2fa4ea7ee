"""The websocket transport: one lifecycle function per connection.

:func:`serve_connection` owns a connection from the opening ``hello`` to the close:
the handshake timeout, the idle timeout, the message rate, decoding, error replies,
protocol-violation closes, and a guaranteed close and detach at the end.  Outgoing
messages go through a bounded per-connection queue drained by one writer task; a
client too slow to drain it is disconnected (it can reconnect and catch up).
"""

from __future__ import annotations

import asyncio
import itertools
import logging
import time
from collections import OrderedDict, deque
from dataclasses import dataclass, field
from typing import Protocol

import anyio
from websockets.asyncio.server import ServerConnection
from websockets.exceptions import ConnectionClosed
from websockets.protocol import State

from . import gcpolicy
from .errlog import Throttled
from .protocol import (
    BadRequest,
    Close,
    Code,
    Limits,
    Message,
    ProtocolViolation,
    batch,
    decode,
    encode,
    error,
    message_id,
    retry,
    validate,
)

log = logging.getLogger(__name__)
failures = Throttled(log)
"""Failures a client's frames reach: one line per kind per interval (see errlog)."""
_ids = itertools.count(1)


def new_id() -> int:
    """A connection id no other connection of this process has (routed ones too)."""
    return next(_ids)


@dataclass(frozen=True, slots=True)
class TransportLimits:
    """Per-connection limits (the frame size limit is given to websockets itself)."""

    max_frame: int = 4096
    handshake_timeout: float = 10.0
    idle_timeout: float = 900.0
    rate: float = 20.0
    burst: float = 40.0
    send_queue: int = 256
    max_batch: int = 32
    close_timeout: float = 5.0
    rate_log_interval: float = 10.0
    """At most one log line per connection per this many seconds about its refusals."""
    unpack: Limits = field(default_factory=Limits)


@dataclass(slots=True)
class Bucket:
    """A message-rate token bucket."""

    tokens: float
    at: float


class Buckets:
    """Message-rate buckets kept per identity, shared by its connections: reconnecting
    (or opening more tabs) does not refill the rate.  At most ``max_keys`` identities
    are remembered, the least recently seen forgotten first."""

    def __init__(self, limits: TransportLimits, *, max_keys: int = 100_000) -> None:
        self.limits = limits
        self.max_keys = max_keys
        self._by_player: OrderedDict[str, Bucket] = OrderedDict()

    def get(self, player: str) -> Bucket:
        b = self._by_player.get(player)
        if b is None:
            b = self._by_player[player] = Bucket(self.limits.burst, time.monotonic())
            while len(self._by_player) > self.max_keys:
                self._by_player.popitem(last=False)
        else:
            self._by_player.move_to_end(player)
        return b


class Hub(Protocol):
    """The application side of a connection (see :mod:`.lobby`)."""

    async def hello(self, conn: Connection, msg: Message) -> Message: ...

    async def dispatch(self, conn: Connection, msg: Message) -> None: ...

    async def detach(self, conn: Connection) -> None: ...


class Connection:
    """One client connection as the rest of the server sees it."""

    def __init__(self, ws: ServerConnection, limits: TransportLimits, *,
                 address: str = "?") -> None:
        self.id = next(_ids)
        self.ws = ws
        self.address = address
        """The client's address (``addresses.client_address``: through trusted proxies)."""
        self.limits = limits
        self.player: str | None = None
        self.name: str | None = None
        self.matches: set[str] = set()
        self.remote: dict[str, str] = {}
        """Matches this connection reaches through another process (``routing.py``):
        match id -> that process's server id."""
        self.closing: tuple[int, str] | None = None
        self._queue: deque[bytes] = deque()  # encoded, waiting for the writer
        # Set when the queue or ``closing`` changes; the writer clears it.  asyncio's own
        # event (the server runs on asyncio's API, on uvloop or not): ``anyio.Event()``
        # costs ~2.6 µs to make (it asks which async library runs), and the writer made
        # one per wake-up, two or three per decision.
        self._wake = asyncio.Event()
        self._ended = False  # the writer is gone: nothing more will be sent
        self._loop = asyncio.get_running_loop()
        self._flush_due = False  # a _flush is scheduled for this loop pass
        self._sending = False  # the writer is inside ws.send: the flush leaves it alone
        self._scope: anyio.CancelScope | None = None
        self.bucket = Bucket(limits.burst, time.monotonic())
        """The message-rate bucket: this connection's until hello, then its identity's."""
        self.heard = time.monotonic()  # when the last frame arrived (the idle timeout)
        self.protocol = 1  # the version agreed at hello
        self._refunds: dict[str, tuple[int | None, int]] = {}  # match -> (state, refunds)
        self._refused = 0  # refusals over the rate since the last log line
        self._refused_logged: float | None = None

    def push(self, message: Message) -> None:
        """Queue a message; a full queue closes the connection (slow consumer)."""
        if self.closing is not None or self._ended:
            return
        if len(self._queue) >= self.limits.send_queue:
            self.close(Close.TRY_AGAIN_LATER, "slow consumer: send queue full")
            return
        self._queue.append(encode(message))
        if not self._flush_due:
            self._flush_due = True
            self._loop.call_soon(self._flush)

    def push_frame(self, frame: bytes) -> None:
        """Queue a message encoded elsewhere (routed back from another process)."""
        if self.closing is not None or self._ended:
            return
        if len(self._queue) >= self.limits.send_queue:
            self.close(Close.TRY_AGAIN_LATER, "slow consumer: send queue full")
            return
        self._queue.append(frame)
        if not self._flush_due:
            self._flush_due = True
            self._loop.call_soon(self._flush)

    @property
    def queued(self) -> int:
        """Messages waiting to be sent."""
        return len(self._queue)

    def close(self, code: int, reason: str) -> None:
        """Ask the lifecycle to close with ``code`` once queued messages are out."""
        if self.closing is None:
            self.closing = (code, reason)
            self._wake.set()

    def take_token(self) -> bool:
        """Token-bucket rate limit; ``False`` when over the rate."""
        b = self.bucket
        now = time.monotonic()
        b.tokens = min(self.limits.burst, b.tokens + (now - b.at) * self.limits.rate)
        b.at = now
        b.tokens -= 1
        return b.tokens >= 0

    def wait_for_token(self) -> float:
        """Seconds until the bucket holds a whole token again."""
        return max(0.0, (1 - self.bucket.tokens) / self.limits.rate)

    def refund(self, match: str, state: int | None, *, per_state: int = 2) -> None:
        """Give back the token a message took: the lobby calls it for a decision the
        sender's seat owes in ``match``, now at ``state`` (its version).  Such a message
        is play, not a flood: the game itself paces it, so two bots play at machine speed
        under the default rate.  At most ``per_state`` refunds per state of a match (a
        decision, and a secret phase's second chooser's resend one version behind), so
        repeats and every other message still count."""
        seen, count = self._refunds.get(match, (state, 0))
        if seen != state:
            count = 0
        if count < per_state:
            self.bucket.tokens = min(self.limits.burst, self.bucket.tokens + 1)
            self._refunds[match] = (state, count + 1)

    def note_refusal(self) -> None:
        """Log refusals over the rate: the first one at once, then at most one line per
        ``rate_log_interval`` with the count since the last line (a flood writes a line
        every few seconds, not one per message)."""
        self._refused += 1
        now = time.monotonic()
        if self._refused_logged is None or now - self._refused_logged >= (
                self.limits.rate_log_interval):
            log.warning("connection %d (player %s) is over the message rate (%g/s, burst %g):"
                        " %d message(s) refused since the last report", self.id,
                        self.player, self.limits.rate, self.limits.burst, self._refused)
            self._refused, self._refused_logged = 0, now

    @property
    def abusive(self) -> bool:
        return self.bucket.tokens < -self.limits.burst

    def _flush(self) -> None:
        """Write what is queued, at the end of the loop pass that queued it (messages
        queued together, like a decision's ``ack`` and ``prompt``, go out as one frame),
        straight to the socket from this callback: no task wakes up for it.

        websockets' ``send`` does the same two steps (frame the message, hand the bytes
        to the transport) inside an async context that also waits while the socket's
        buffer is full, and on a closing connection.  Only then is the writer task
        woken, to send through ``send``: a paused or closing socket, a connection no
        longer open, a fragmented send in progress, or the writer already sending."""
        self._flush_due = False
        queue = self._queue
        if not queue or self._ended:
            return
        ws = self.ws
        if (self._sending or self.closing is not None or ws.paused
                or ws.protocol.state is not State.OPEN or ws.send_in_progress is not None
                or ws.transport.is_closing()):
            self._wake.set()
            return
        limit = self.limits.max_batch
        try:
            while queue:
                frames = [queue.popleft() for _ in range(min(len(queue), limit))]
                ws.protocol.send_binary(batch(frames))
            ws.send_data()
        except Exception as exc:  # as ``send`` would: the connection is lost
            ws.set_connection_exc(exc)
            ws.transport.abort()
            self._ended = True
            queue.clear()
            self._wake.set()  # the writer ends the connection's task group

    async def _writer(self, done: anyio.CancelScope) -> None:
        """Send what :meth:`_flush` could not write at once; once the connection is
        closing, send what is left and end (cancelling ``done``)."""
        queue = self._queue
        try:
            while not self._ended:
                if not queue:
                    if self.closing is not None:
                        break
                    await self._wake.wait()
                    self._wake.clear()
                    continue
                frames = [queue.popleft() for _ in range(min(len(queue),
                                                             self.limits.max_batch))]
                self._sending = True
                try:
                    await self.ws.send(batch(frames))
                finally:
                    self._sending = False
        except ConnectionClosed:
            pass
        finally:
            self._ended = True
            queue.clear()
        done.cancel()


    async def _watch_idle(self) -> None:
        """Close the connection once nothing was received for ``idle_timeout``.

        One sleeping task per connection, waking about once per timeout, rather than a
        cancel scope around every receive (a scope costs tens of µs, twice per decision
        with the actor's)."""
        idle = self.limits.idle_timeout
        while self.closing is None:
            left = self.heard + idle - time.monotonic()
            if left > 0:
                await anyio.sleep(left)
                continue
            if self.player is None:  # still in the handshake: its own timeout applies
                self.heard = time.monotonic()
                continue
            self.push(error(Code.IDLE_TIMEOUT, "closing: no message in time"))
            self.close(Close.POLICY, Code.IDLE_TIMEOUT)


async def serve_connection(ws: ServerConnection, hub: Hub, limits: TransportLimits, *,
                           address: str = "?", buckets: Buckets | None = None) -> None:
    """The whole life of one connection from ``address`` (the client's); with
    ``buckets``, its message rate is its identity's, shared with its other connections."""
    conn = Connection(ws, limits, address=address)
    try:
        async with anyio.create_task_group() as tg:
            tg.start_soon(conn._writer, tg.cancel_scope)
            tg.start_soon(gcpolicy.returning, conn._watch_idle)  # (ends cancelled)
            try:
                await _converse(conn, hub, buckets)
            except ConnectionClosed:
                pass
            except ProtocolViolation as v:
                conn.push(error(v.code, v.message))
                conn.close(v.close_code, v.code)
            except TimeoutError:
                conn.push(error(Code.HANDSHAKE_TIMEOUT, "closing: no message in time"))
                conn.close(Close.POLICY, Code.HANDSHAKE_TIMEOUT)
            except Exception as exc:
                failures.error("connection", "a connection failed", exc)
                conn.push(error(Code.INTERNAL, "server error; please reconnect"))
                conn.close(Close.INTERNAL_ERROR, Code.INTERNAL)
            conn.close(Close.NORMAL, "bye")  # no-op if already closing
            # The writer drains what is queued, then ends the task group.
    finally:
        if conn._refused:
            log.warning("connection %d (player %s) closed with %d more message(s) refused "
                        "over the rate", conn.id, conn.player, conn._refused)
        with anyio.CancelScope(shield=True):
            try:
                await hub.detach(conn)
            finally:
                code, reason = conn.closing or (Close.GOING_AWAY, "server shutting down")
                with anyio.move_on_after(limits.close_timeout):
                    await ws.close(code, reason)


async def _converse(conn: Connection, hub: Hub, buckets: Buckets | None) -> None:
    limits = conn.limits
    with anyio.fail_after(limits.handshake_timeout):
        first = await conn.ws.recv()
    try:
        hello = decode(first, limits.unpack)
        if hello["t"] != "hello":  # before its fields: what it lacks is being a hello
            raise ProtocolViolation(Code.HELLO_REQUIRED, "the first message must be hello",
                                    Close.POLICY)
        validate(hello)
    except BadRequest as bad:
        raise ProtocolViolation(bad.code, bad.message, Close.PROTOCOL_ERROR) from bad
    welcome = await hub.hello(conn, hello)
    if welcome["t"] == "welcome":
        # Clients pace themselves to these instead of learning the rate by refusals.
        welcome["limits"] = {"rate": limits.rate, "burst": limits.burst,
                             "owed_decisions_free": True}
    conn.push(welcome)
    if welcome["t"] == "error":
        close = Close.PROTOCOL_ERROR if welcome["code"] == Code.UNSUPPORTED_VERSION else (
            Close.POLICY)
        conn.close(close, welcome["code"])
        return
    if buckets is not None and conn.player is not None:
        conn.bucket = buckets.get(conn.player)
    while conn.closing is None:
        frame = await conn.ws.recv()
        conn.heard = time.monotonic()
        if not conn.take_token():
            if conn.abusive:
                raise ProtocolViolation(Code.RATE_LIMITED, "far over the message rate",
                                        Close.POLICY)
            conn.push(error(Code.RATE_LIMITED, f"over {limits.rate:g} messages per second; "
                            "this message was not processed",
                            retry_after=retry(conn.wait_for_token())))
            conn.note_refusal()
            continue
        msg: Message | None = None
        try:
            msg = decode(frame, limits.unpack)
            validate(msg)
            if msg["t"] == "hello":
                raise BadRequest(Code.BAD_MESSAGE, "hello was already received", msg.get("id"))
            await hub.dispatch(conn, msg)
        except BadRequest as bad:
            conn.push(bad.reply())
        except (ProtocolViolation, ConnectionClosed):
            raise
        except Exception as exc:
            # A bug reached by this message: answer it and keep the connection (a match
            # actor rebuilds itself from the store after its own failures), and log
            # one line, not a traceback a client could repeat a thousand times a second.
            failures.error("message", "a message failed", exc)
            conn.push(error(Code.INTERNAL, "the server failed on this message; "
                            "please try again", message_id(msg)))
