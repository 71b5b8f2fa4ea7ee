"""Wiring: store, identities, lobby, actors and the websocket/HTTP listener.

:func:`run_server` runs one server until ``shutdown`` is set (or it is cancelled),
then stops in stages: stop accepting, close every connection (1001), let the actors
finish the command in hand (every answered command is already persisted), cancel
them and release their leases, close the store.
"""

from __future__ import annotations

import fcntl
import gc
import json
import logging
import os
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final
from urllib.parse import parse_qs

import anyio
from anyio.abc import TaskStatus
from websockets.asyncio.server import ServerConnection, serve
from websockets.http11 import Request, Response

from . import tournament_http
from .actor import Stats
from .addresses import TrustedProxies
from .budgets import Budgets
from .config import find_client_dir
from .dice import commitment
from .gate import Gate, loop_errors, quiet_logger
from .identity import Tokens, load_keyring, load_server_id
from .lobby import Lobby, LobbyLimits
from .ops import Ops
from .players import set_cookie
from .static import StaticLimits
from .store import Store, StoreError, unpack
from .store_redis import RedisStore
from .store_sqlite import SqliteStore
from .tournaments import Desk, LobbyMatches, TournamentLimits, Tournaments
from .transport import Buckets, TransportLimits, serve_connection

log = logging.getLogger(__name__)

CLIENT_DIR = find_client_dir()


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
    static: StaticLimits = field(default_factory=StaticLimits)
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
    admin_password: str | None = field(default=None, repr=False)
    """Opens ``/status`` (HTTP Basic, user ``admin``); without it the page is off."""
    fixed_seed: bytes | None = field(default=None, repr=False)
    """Test only: every match uses this dice seed.  Never reachable from a client."""
    tournaments: TournamentLimits = field(default_factory=TournamentLimits)


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
    store: Store
    if config.redis_url:
        store = RedisStore(config.redis_url, prefix=config.redis_prefix)
        await store.ping()
    else:
        store = SqliteStore(config.data_dir / "kickline.sqlite3",
                            synchronous=config.sqlite_synchronous)
    try:
        applied = await store.migrate()
    except BaseException:
        await store.aclose()
        raise
    if applied:
        log.info("store schema migrated to version %d (applied %s)", applied[-1], applied)
    return store


async def open_admin_store(data_dir: Path, redis_url: str | None, prefix: str) -> Store:
    """The store of a server that may be running, for ``kickline admin``: Redis is shared
    anyway; the embedded SQLite file takes a second writer (WAL), so the data directory's
    lock, which keeps out a second *server*, is not taken."""
    if redis_url:
        redis = RedisStore(redis_url, prefix=prefix)
        await redis.ping()
        await redis.migrate()
        return redis
    path = data_dir / "kickline.sqlite3"
    if not path.exists():
        raise OSError(f"no kickline data in {data_dir} (give --data-dir, or --redis-url)")
    return SqliteStore(path, checkpoint_every=0)


async def run_server(
    config: ServerConfig,
    shutdown: anyio.Event | None = None,
    *,
    stats: Stats | None = None,
    on_lobby: Callable[[Lobby], None] | None = None,
    task_status: TaskStatus[int] = anyio.TASK_STATUS_IGNORED,
) -> None:
    """Serve until ``shutdown`` is set; reports the bound port through ``task_status``.
    ``on_lobby`` is handed the lobby before the first connection (in-process modules,
    e.g. tournaments and tests, reach :meth:`Lobby.reserve` and the recorder there)."""
    shutdown = shutdown or anyio.Event()
    with loop_errors():
        await _run(config, shutdown, stats, on_lobby, task_status)


async def _run(config: ServerConfig, shutdown: anyio.Event, stats: Stats | None,
               on_lobby: Callable[[Lobby], None] | None, task_status: TaskStatus[int]) -> None:
    async with _data_dir_lock(config.data_dir):
        tokens = Tokens(load_keyring(config.data_dir, config.secret))
        owner = load_server_id(config.data_dir)
        store = await open_store(config)
        try:
            await _serve(config, shutdown, store, tokens, owner, stats or Stats(), on_lobby,
                         task_status)
        finally:
            with anyio.CancelScope(shield=True):
                await store.aclose()


async def _serve(config: ServerConfig, shutdown: anyio.Event, store: Store, tokens: Tokens,
                 owner: str, stats: Stats, on_lobby: Callable[[Lobby], None] | None,
                 task_status: TaskStatus[int]) -> None:
    async with anyio.create_task_group() as actors:
        lobby = Lobby(store, tokens, actors, owner=owner, limits=config.lobby,
                      fixed_seed=config.fixed_seed, stats=stats, budgets=config.budgets)
        tournaments = Tournaments(store, LobbyMatches(lobby), limits=config.tournaments)
        lobby.desk = Desk(tournaments)
        lobby.recorder.listen(lambda record: tournaments.on_record(record.plain))
        lobby.players.on_register = tournaments.on_register
        if on_lobby is not None:
            on_lobby(lobby)
        recovered = await lobby.recover()
        if recovered:
            log.info("resumed %d unfinished matches", recovered)
        recorded = await lobby.recorder.catch_up()
        if recorded:
            log.info("recorded %d finished matches", recorded)
        events = await tournaments.load()
        if events:
            log.info("resumed %d running tournaments", events)
        await actors.start(lobby.desk.run)
        if store.leases_expire:  # other processes may die and leave matches to adopt
            await actors.start(lobby.adopt)
        buckets = Buckets(config.transport)
        ops = Ops(lobby, store, stats, node=owner,
                  store_kind="redis" if config.redis_url else "sqlite",
                  admin_password=config.admin_password,
                  connections=lambda: sum(gate.connected.values()))
        await actors.start(ops.watch)

        async def who(token: str) -> str | None:
            claim = tokens.verify(token)
            account = None if claim is None else await store.account(claim.player)
            if account is None or claim is None or account.epoch != claim.epoch:
                return None
            return account.player

        def health() -> dict[str, Any]:
            return {"ok": True, "matches": len(lobby.actors),
                    "connections": sum(gate.connected.values()) - gate.downloads,
                    "downloads": gate.downloads}

        gate = Gate(budgets=config.budgets, trusted=config.trusted_proxies,
                    max_connections_per_address=config.max_connections_per_address,
                    client_dir=config.client_dir, health=health,
                    handshake_timeout=config.transport.handshake_timeout,
                    static_limits=config.static,
                    routes=lambda conn, request, path, query: ops.respond(
                        conn, request, path) or _routes(
                        conn, request, lobby, path, query, tournaments, who))

        async def handler(ws: ServerConnection) -> None:
            with gate.holding(ws) as address:
                await serve_connection(ws, lobby, config.transport, address=address,
                                       buckets=buckets)

        async with serve(
            handler, config.host, config.port,
            create_connection=gate.connection_class(), logger=quiet_logger(),
            max_size=config.transport.max_frame, max_queue=16,
            compression="deflate" if config.compression else None,
            ping_interval=config.ping_interval, ping_timeout=config.ping_interval,
            close_timeout=config.transport.close_timeout,
            open_timeout=None, backlog=config.backlog,  # the gate times handshakes
        ) as server:
            port = int(next(iter(server.sockets)).getsockname()[1])
            log.info("kickline server listening on %s:%d", config.host, port)
            task_status.started(port)
            await shutdown.wait()
            log.info("shutting down: closing listener and connections")
            lobby.accepting = False
            ops.health.draining = True
            server.close(close_connections=True)
            with anyio.move_on_after(config.transport.close_timeout + 1):
                await server.wait_closed()
        log.info("stopping %d match actors", len(lobby.actors))
        actors.cancel_scope.cancel()



def _routes(conn: ServerConnection, request: Request, lobby: Lobby, path: str,
            query: str, tournaments: Tournaments,
            who: Callable[[str], Awaitable[str | None]]
            ) -> Response | Awaitable[Response] | None:
    """The players' HTTP routes (GET): ``/session`` and ``/record/<match>.json``; the
    tournaments' under ``/tournaments/`` (tournament_http.py)."""
    if path == "/session":
        return _session(conn, request, lobby, query)
    if path.startswith("/record/") and path.endswith(".json"):
        return _record(conn, lobby, path[len("/record/"):-len(".json")])
    if path.startswith(tournament_http.PREFIX):
        return tournament_http.respond(conn, request, path, tournaments, who)
    return None


def _session(conn: ServerConnection, request: Request, lobby: Lobby, query: str) -> Response:
    """``GET /session?ticket=T`` sets the identity cookie (``?clear=1`` removes it)."""
    args = parse_qs(query)
    secure = request.headers.get("X-Forwarded-Proto", "").lower() == "https"
    if args.get("clear"):
        response = conn.respond(204, "")
        response.headers["Set-Cookie"] = set_cookie("", secure=secure, clear=True)
        return response
    token = lobby.players.redeem_ticket((args.get("ticket") or [""])[0])
    if token is None:
        return conn.respond(403, "this ticket is not valid (used, expired or forged)\n")
    response = conn.respond(204, "")
    response.headers["Set-Cookie"] = set_cookie(token, secure=secure)
    response.headers["Cache-Control"] = "no-store"
    return response


async def _record(conn: ServerConnection, lobby: Lobby, match_id: str) -> Response:
    """``GET /record/<match>.json``: a finished match's downloadable record: its result
    and players, and everything needed to replay it and check the dice (config, seed,
    public log); see PROTOCOL.md."""
    if not 0 < len(match_id) <= 64 or not all(c.isalnum() or c in "-_" for c in match_id):
        return conn.respond(404, "no such match\n")
    try:
        raw = await lobby.store.result(match_id)
        stored = None if raw is None else await lobby.store.load(match_id)
    except StoreError:
        return conn.respond(503, "the server cannot reach its data right now\n")
    if raw is None or stored is None:
        return conn.respond(404, "no finished match with that id\n")
    snapshot = unpack(stored.snapshot)
    log_entries = [{k: v for k, v in unpack(e).items() if k != "e"} for e in stored.log]
    seed = bytes(snapshot["seed"])
    body = {"record": unpack(raw), "game": snapshot["game"], "config": snapshot["config"],
            "seed": seed.hex(), "commit": commitment(seed), "log": log_entries}
    if snapshot.get("format", 0) >= 3:  # the players' dice contributions (dice.py)
        body["commits"] = snapshot["commits"]
        body["contributions"] = [None if c is None else bytes(c).hex()
                                 for c in snapshot["contributions"]]
    response = conn.respond(200, json.dumps(body, separators=(",", ":")) + "\n")
    response.headers["Content-Type"] = "application/json"
    response.headers["Content-Disposition"] = f'attachment; filename="kickline-{match_id}.json"'
    return response
