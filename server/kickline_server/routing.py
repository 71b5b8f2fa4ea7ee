"""Any process serves any player: messages for a match another process runs go to that
process through Redis, and its answers come back the same way.

Each process subscribes to its own channel, ``<prefix>to:<server id>``.  When a client
sends a message addressed to one match (``open``, ``watch``, ``decide``, ``resign``,
``claim``, ``reveal``, ``join``) and that match is not live here, the lobby asks whose
lease it is; if another process's, :meth:`Router.forward` publishes the message with the
sender's identity to the owner, whose lobby handles it exactly as a local one, for a
:class:`RemoteConnection` that stands for the client's connection.  Everything the
match sends that connection is published back and queued, already encoded, on the real
connection.  So the match core, the actor and the checks see one kind of connection.

* **Order**: one writer task per destination publishes its frames in order (one
  ``PUBLISH`` carries every frame queued meanwhile), and Redis delivers one
  publisher's messages in order.
* **Never silent**: a ``PUBLISH`` that reaches nobody (the owner is gone) answers the
  client ``busy`` with ``retry_after``; every TTL/3 each process checks the processes it
  routes to and from (their registration, :mod:`.cluster`): a client attached to a
  match whose process vanished is told to ``reconnect``; the connections standing for a
  vanished process's clients are detached (presence: "reconnecting").  When a
  subscription breaks (Redis restarted), frames may have been lost: every routed
  client is told to reconnect, when it breaks and again once subscribed anew (a client
  that routed in between may have lost its answers).
"""

from __future__ import annotations

import logging
from collections import defaultdict, deque
from collections.abc import Awaitable, Callable
from typing import Any, Protocol

import anyio
import msgpack  # type: ignore[import-untyped]
import redis.asyncio as aioredis
from anyio.abc import TaskGroup
from redis.exceptions import RedisError

from . import metrics
from .protocol import Close, Code, Message, encode, error
from .store import StoreUnavailable

log = logging.getLogger(__name__)

ROUTED = frozenset({"open", "watch", "decide", "resign", "claim", "reveal", "join"})
"""Client messages addressed to one match: handled where the match runs."""


class Local(Protocol):
    """What the router needs of a real client connection (``transport.Connection``)."""

    id: int
    player: str | None
    name: str | None
    address: str
    protocol: int
    remote: dict[str, str]

    def push_frame(self, frame: bytes) -> None: ...

    def push(self, message: Message) -> None: ...

    def close(self, code: int, reason: str) -> None: ...


class RemoteConnection:
    """On the owner: a client connection of another process, as the lobby sees it."""

    def __init__(self, router: Router, origin: str, conn: int, new_id: int) -> None:
        self.router = router
        self.origin = origin
        self.remote_id = conn
        self.id = new_id
        self.player: str | None = None
        self.name: str | None = None
        self.address = ""
        self.protocol = 1
        self.matches: set[str] = set()
        self.remote: dict[str, str] = {}

    def push(self, message: Message) -> None:
        self.router.send(self.origin, ["out", self.remote_id, encode(message)])

    def close(self, code: int, reason: str) -> None:
        self.router.send(self.origin, ["close", self.remote_id, code, reason])

    def refund(self, match: str, version: int | None) -> None:
        """The sender's rate budget lives with its real connection: nothing here."""

    def paired(self, player: str, re: Any, match: str, seat: int,
               notice: dict[str, Any]) -> None:
        """This process made a quick match for this client's queued request ``re``:
        its process is told first (the frames that follow are for the match)."""
        self.router.send(self.origin, ["paired", self.router.node, self.remote_id, player,
                                       re, match, seat, notice])


Handler = Callable[[RemoteConnection, Message], Awaitable[None]]
Detach = Callable[[RemoteConnection], Awaitable[None]]
Paired = Callable[[str, int, str, Any, str, int, dict[str, Any]], Awaitable[None]]
"""(owner, connection id here, player, request id, match, seat, notice)."""


class Router:
    """This process's side of the routing (see the module docstring)."""

    def __init__(self, url: str, node: str, *, prefix: str = "kl:", ttl: float = 15.0,
                 new_id: Callable[[], int], max_queued: int = 100_000) -> None:
        self.node = node
        self.prefix = prefix
        self.ttl = ttl
        self.new_id = new_id
        self.max_queued = max_queued
        self._r: aioredis.Redis = aioredis.Redis.from_url(url, socket_timeout=5,
                                                          socket_connect_timeout=5)
        self._outbox: dict[str, deque[Any]] = defaultdict(deque)
        self._wake: dict[str, anyio.Event] = {}
        self._writers: set[str] = set()
        self._tg: TaskGroup | None = None
        self.local: dict[int, Local] = {}
        """This process's connections that have routed something, by id."""
        self.remote: dict[tuple[str, int], RemoteConnection] = {}
        """Other processes' connections attached to matches here."""
        self.handle: Handler | None = None
        self.detach: Detach | None = None
        self.on_paired: Paired | None = None

    def channel(self, node: str) -> str:
        return f"{self.prefix}to:{node}"

    # -- the gateway side --

    async def owner_of(self, match: str) -> str | None:
        try:
            got = await self._r.get(f"{self.prefix}lease:{match}")
        except (RedisError, OSError) as exc:
            raise StoreUnavailable(f"redis: {exc}") from exc
        return None if got is None else (got.decode() if isinstance(got, bytes) else got)

    def forward(self, owner: str, conn: Local, msg: Message, match: str) -> None:
        """Send ``msg`` from ``conn`` to the process running ``match``."""
        conn.remote[match] = owner
        self.local[conn.id] = conn
        self.send(owner, ["in", self.node, conn.id, conn.player, conn.name, conn.address,
                          conn.protocol, msg])
        metrics.ROUTED.labels("forwarded").inc()

    def reachable(self, conn: Local) -> None:
        """Other processes may address ``conn`` (its quick-match entry names it)."""
        self.local[conn.id] = conn

    def attach(self, origin: str, conn: int, *, player: str, name: str, address: str,
               protocol: int) -> RemoteConnection:
        """The connection standing here for client ``conn`` of process ``origin``."""
        rc = self.remote.get((origin, conn))
        if rc is None:
            rc = self.remote[(origin, conn)] = RemoteConnection(self, origin, conn,
                                                                self.new_id())
        rc.player, rc.name, rc.address, rc.protocol = player, name, address, protocol
        return rc

    def gone(self, conn: Local) -> None:
        """``conn`` closed: tell every process it routed to."""
        for owner in set(conn.remote.values()):
            self.send(owner, ["gone", self.node, conn.id])
        conn.remote.clear()
        self.local.pop(conn.id, None)

    # -- sending --

    def send(self, node: str, frame: list[Any]) -> None:
        box = self._outbox[node]
        if len(box) >= self.max_queued:
            log.warning("routing to %s: %d frames queued; dropping", node, len(box))
            return
        box.append(frame)
        wake = self._wake.get(node)
        if wake is not None:
            wake.set()
        if node not in self._writers and self._tg is not None:
            self._writers.add(node)
            self._tg.start_soon(self._writer, node)

    async def _writer(self, node: str) -> None:
        box = self._outbox[node]
        channel = self.channel(node)
        try:
            while True:
                if not box:
                    self._wake[node] = wake = anyio.Event()
                    with anyio.move_on_after(self.ttl):
                        await wake.wait()
                    if not box:
                        return  # idle: the next send starts a writer again
                    continue
                frames = [box.popleft() for _ in range(min(len(box), 256))]
                data = msgpack.packb(frames, use_bin_type=True)
                heard = await self._publish(node, channel, data)
                if not heard:
                    self._undelivered(node, frames)
        finally:
            self._writers.discard(node)
            self._wake.pop(node, None)

    async def _publish(self, node: str, channel: str, data: bytes, *,
                       tries: int = 3) -> int:
        """``PUBLISH``, tried again at once when it fails: after a Redis restart the
        first command on a pooled connection fails, and the frames it carried (answers
        to another process's client) would be lost with nobody told.  Returns how many
        processes heard it (0 after the last failure)."""
        for attempt in range(tries):
            try:
                return int(await self._r.publish(channel, data))
            except (RedisError, OSError) as exc:
                if attempt == tries - 1:
                    log.warning("routing to %s failed (%s); its clients reconnect", node,
                                exc)
                    return 0
                await anyio.sleep(0.05 * (attempt + 1))
        return 0

    def _undelivered(self, node: str, frames: list[Any]) -> None:
        """Nobody heard: ``node`` is gone (or its subscription broke)."""
        for f in frames:
            if f[0] == "in":  # a client's message: tell the client at once
                conn = self.local.get(f[2])
                msg = f[7]
                if conn is not None:
                    conn.push(error(Code.BUSY, "the server running this match does not "
                                    "answer; resend the same message shortly",
                                    msg.get("id"), retry_after=max(1, round(self.ttl))))

    # -- receiving --

    async def run(self, *, task_status: Any = anyio.TASK_STATUS_IGNORED) -> None:
        """Subscribe and dispatch until cancelled; also watches the processes routed
        to and from."""
        try:
            async with anyio.create_task_group() as tg:
                self._tg = tg
                tg.start_soon(self._watch)
                first = True
                while True:
                    try:
                        await self._listen(task_status if first else None)
                    except (RedisError, OSError) as exc:
                        log.warning("routing subscription lost (%s); routed clients are "
                                    "told to reconnect", exc)
                    if first:
                        first = False
                    self._lost_everything()
                    await anyio.sleep(0.5)
        finally:
            self._tg = None  # stopped: frames sent now (connections closing) stay queued

    async def _listen(self, task_status: Any) -> None:
        pubsub = self._r.pubsub(ignore_subscribe_messages=True)
        try:
            await pubsub.subscribe(self.channel(self.node))
            if task_status is not None:
                task_status.started()
            else:
                # Subscribed again: a client that routed while we were not (Redis was
                # coming back) may have lost its answers, which nobody would resend.
                self._lost_everything()
            while True:
                item = await pubsub.get_message(timeout=None)
                if item is None or item.get("type") != "message":
                    continue
                for frame in msgpack.unpackb(item["data"], raw=False):
                    await self._receive(frame)
        finally:
            with anyio.CancelScope(shield=True), anyio.move_on_after(2):
                await pubsub.aclose()  # type: ignore[no-untyped-call]

    async def _receive(self, frame: list[Any]) -> None:
        kind = frame[0]
        if kind == "out":  # to a client of ours
            conn = self.local.get(frame[1])
            if conn is not None:
                conn.push_frame(frame[2])
                metrics.ROUTED.labels("returned").inc()
        elif kind == "close":
            conn = self.local.get(frame[1])
            if conn is not None:
                conn.close(frame[2], frame[3])
        elif kind == "in":  # a client of another process, to a match here
            _, origin, cid, player, name, address, protocol, msg = frame
            rc = self.attach(origin, cid, player=player, name=name, address=address,
                             protocol=protocol)
            if self.handle is not None:
                await self.handle(rc, msg)
        elif kind == "paired":  # a quick match for a client of ours, made there
            _, origin, cid, player, re, match, seat, notice = frame
            if self.on_paired is not None:
                await self.on_paired(origin, cid, player, re, match, seat, notice)
        elif kind == "gone":
            left = self.remote.pop((frame[1], frame[2]), None)
            if left is not None and self.detach is not None:
                await self.detach(left)

    def _lost_everything(self) -> None:
        """Frames may have been lost: every routed client reconnects."""
        for conn in list(self.local.values()):
            conn.push(error(Code.RECONNECT, "the servers lost touch for a moment; "
                            "reconnect to go on playing"))
            conn.close(Close.SERVICE_RESTART, Code.RECONNECT)
        self.local.clear()

    async def _watch(self) -> None:
        """Every TTL/3: the processes we route to and from are still registered?"""
        while True:
            await anyio.sleep(self.ttl / 3)
            nodes = {o for c in self.local.values() for o in c.remote.values()}
            nodes |= {k[0] for k in self.remote}
            if not nodes:
                continue
            order = sorted(nodes)
            try:
                async with self._r.pipeline(transaction=False) as pipe:
                    for n in order:
                        pipe.exists(f"{self.prefix}node:{n}")
                    found = [bool(x) for x in await pipe.execute()]
            except (RedisError, OSError):
                continue
            dead = {n for n, ok in zip(order, found, strict=True) if not ok}
            if not dead:
                continue
            log.warning("server processes %s are gone: their clients here reconnect, "
                        "and theirs attached here are detached", sorted(dead))
            for conn in list(self.local.values()):
                if dead & set(conn.remote.values()):
                    conn.push(error(Code.RECONNECT, "the server running your match went "
                                    "away; reconnect to go on playing"))
                    conn.close(Close.SERVICE_RESTART, Code.RECONNECT)
            for key in [k for k in self.remote if k[0] in dead]:
                rc = self.remote.pop(key)
                if self.detach is not None:
                    await self.detach(rc)

    async def aclose(self) -> None:
        await self._r.aclose()
