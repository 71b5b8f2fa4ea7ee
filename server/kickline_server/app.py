"""Wiring: store, identities, lobby, actors and the websocket/HTTP listener.

:func:`run_server` runs one server until ``shutdown`` is set (or it is cancelled),
then stops in stages: stop accepting, close every connection (1001), let the actors
finish the command in hand (every answered command is already persisted), cancel
them and release their leases, close the store.
"""

from __future__ import annotations

import fcntl
import gc
import logging
import os
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

import anyio
from anyio.abc import TaskStatus
from websockets.asyncio.server import ServerConnection, serve

from .actor import Stats
from .addresses import TrustedProxies
from .budgets import Budgets
from .gate import Gate, loop_errors, quiet_logger
from .identity import Tokens, load_secret, load_server_id
from .lobby import Lobby, LobbyLimits
from .store import Store
from .store_redis import RedisStore
from .store_sqlite import SqliteStore
from .transport import Buckets, TransportLimits, serve_connection

log = logging.getLogger(__name__)

CLIENT_DIR = Path(__file__).resolve().parents[2] / "client"


@dataclass(frozen=True, slots=True)
class ServerConfig:
    host: str = "127.0.0.1"
    port: int = 8765
    data_dir: Path = Path("kickline-data")
    redis_url: str | None = None
    redis_prefix: str = "kl:"
    secret: str | None = None
    client_dir: Path | None = CLIENT_DIR
    max_connections_per_address: int = 64
    trusted_proxies: TrustedProxies = field(default_factory=TrustedProxies)
    """Reverse proxies whose ``X-Forwarded-For`` names the client (``addresses.py``)."""
    budgets: Budgets = field(default_factory=Budgets)
    """What one address or identity may take (``budgets.py``)."""
    ping_interval: float | None = 20.0
    backlog: int = 1024
    """Pending TCP connections the listener queues (bursts of reconnecting clients)."""
    compression: bool = False
    """Offer permessage-deflate: smaller frames, but more server CPU per message (msgpack
    frames are small; ``docs/BENCHMARKS.md`` has the measured cost)."""
    sqlite_synchronous: str = "NORMAL"
    transport: TransportLimits = field(default_factory=TransportLimits)
    lobby: LobbyLimits = field(default_factory=LobbyLimits)
    fixed_seed: bytes | None = field(default=None, repr=False)
    """Test only: every match uses this dice seed.  Never reachable from a client."""


GC_THRESHOLD: Final = (5_000, 50, 10)
"""The collector's thresholds in a server process (the interpreter's are 700, 10, 10)."""


def tune_gc(threshold: tuple[int, int, int] = GC_THRESHOLD) -> None:
    """For a server process, once, before serving: freeze what exists (modules, config:
    never garbage) out of every collection, and collect less often.

    With the interpreter's thresholds a 200-match flood spent about a quarter of the
    server's CPU time in the cyclic collector, mostly in full collections walking every
    match's states, logs and events (pauses of 0.4-0.6 s with 1 000 live matches); with
    these, under a tenth, and pauses under 0.2 s (docs/BENCHMARKS.md).  Garbage without
    cycles is freed at once either way."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(*threshold)


class DataDirInUse(RuntimeError):
    """Another server process holds this data directory."""


@asynccontextmanager
async def _data_dir_lock(data_dir: Path) -> AsyncIterator[None]:
    data_dir.mkdir(parents=True, exist_ok=True)
    fd = os.open(data_dir / "server.lock", os.O_RDWR | os.O_CREAT, 0o600)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise DataDirInUse(f"another kickline server is using {data_dir}") from None
        yield
    finally:
        os.close(fd)


async def open_store(config: ServerConfig) -> Store:
    if config.redis_url:
        store = RedisStore(config.redis_url, prefix=config.redis_prefix)
        await store.ping()
        return store
    return SqliteStore(config.data_dir / "kickline.sqlite3",
                       synchronous=config.sqlite_synchronous)


async def run_server(
    config: ServerConfig,
    shutdown: anyio.Event | None = None,
    *,
    stats: Stats | None = None,
    task_status: TaskStatus[int] = anyio.TASK_STATUS_IGNORED,
) -> None:
    """Serve until ``shutdown`` is set; reports the bound port through ``task_status``."""
    shutdown = shutdown or anyio.Event()
    with loop_errors():
        await _run(config, shutdown, stats, task_status)


async def _run(config: ServerConfig, shutdown: anyio.Event, stats: Stats | None,
               task_status: TaskStatus[int]) -> None:
    async with _data_dir_lock(config.data_dir):
        tokens = Tokens(load_secret(config.data_dir, config.secret))
        owner = load_server_id(config.data_dir)
        store = await open_store(config)
        try:
            await _serve(config, shutdown, store, tokens, owner, stats or Stats(), task_status)
        finally:
            with anyio.CancelScope(shield=True):
                await store.aclose()


async def _serve(config: ServerConfig, shutdown: anyio.Event, store: Store, tokens: Tokens,
                 owner: str, stats: Stats, task_status: TaskStatus[int]) -> None:
    async with anyio.create_task_group() as actors:
        lobby = Lobby(store, tokens, actors, owner=owner, limits=config.lobby,
                      fixed_seed=config.fixed_seed, stats=stats, budgets=config.budgets)
        recovered = await lobby.recover()
        if recovered:
            log.info("resumed %d unfinished matches", recovered)
            if gc.isenabled() and gc.get_freeze_count():  # tuned (tune_gc): freeze them too
                # The recovered matches' cores live as long as the matches: out of every
                # collection, like the start-up objects (their garbage is acyclic and
                # still freed at once).
                gc.collect()
                gc.freeze()
        if store.leases_expire:  # other processes may die and leave matches to adopt
            await actors.start(lobby.adopt)
        buckets = Buckets(config.transport)

        def health() -> dict[str, Any]:
            return {"ok": True, "matches": len(lobby.actors),
                    "connections": sum(gate.connected.values())}

        gate = Gate(budgets=config.budgets, trusted=config.trusted_proxies,
                    max_connections_per_address=config.max_connections_per_address,
                    client_dir=config.client_dir, health=health)

        async def handler(ws: ServerConnection) -> None:
            with gate.websocket(ws) as address:
                await serve_connection(ws, lobby, config.transport, address=address,
                                       buckets=buckets)

        async with serve(
            handler, config.host, config.port, process_request=gate.process_request,
            create_connection=gate.connection_class(), logger=quiet_logger(),
            max_size=config.transport.max_frame, max_queue=16,
            compression="deflate" if config.compression else None,
            ping_interval=config.ping_interval, ping_timeout=config.ping_interval,
            close_timeout=config.transport.close_timeout,
            open_timeout=config.transport.handshake_timeout, backlog=config.backlog,
        ) as server:
            port = int(next(iter(server.sockets)).getsockname()[1])
            log.info("kickline server listening on %s:%d", config.host, port)
            task_status.started(port)
            await shutdown.wait()
            log.info("shutting down: closing listener and connections")
            lobby.accepting = False
            server.close(close_connections=True)
            with anyio.move_on_after(config.transport.close_timeout + 1):
                await server.wait_closed()
        log.info("stopping %d match actors", len(lobby.actors))
        actors.cancel_scope.cancel()

