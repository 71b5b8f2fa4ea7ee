"""Wiring: store, identities, lobby, actors and the websocket/HTTP listener.

:func:`run_server` runs one server until ``shutdown`` is set (or it is cancelled),
then stops in stages: stop accepting, close every connection (1001), let the actors
finish the command in hand (every answered command is already persisted), cancel
them and release their leases, close the store.
"""

from __future__ import annotations

import fcntl
import gc
import importlib.util
import json
import logging
import os
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from functools import partial
from http.cookies import SimpleCookie
from pathlib import Path
from typing import Any, Final
from urllib.parse import parse_qs

import anyio
from anyio.abc import TaskStatus
from websockets.asyncio.server import ServerConnection, serve
from websockets.http11 import Request, Response

from . import gcpolicy, retention, startup, tournament_http
from .actor import Stats
from .addresses import TrustedProxies
from .budgets import Budgets
from .cluster import Node
from .config import find_client_dir
from .core import public_entry
from .dice import commitment
from .gate import Gate, loop_errors, quiet_logger
from .identity import Tokens, load_keyring, load_server_id, read_secret_file
from .listing import Listing
from .lobby import Lobby, LobbyLimits
from .matchqueue_redis import RedisQueue
from .ops import Ops
from .players import COOKIE, set_cookie
from .responses import JSON, response
from .retention import Retention
from .routing import Router
from .startup import StartupError
from .static import StaticLimits
from .store import Store, StoreError, unpack
from .store_redis import RedisStore
from .store_sqlite import SqliteStore
from .tournament_desk import Desk, LobbyMatches
from .tournaments import TournamentLimits, Tournaments
from .transport import Buckets, TransportLimits, new_id, serve_connection

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
    """The token keys themselves (tests: one per line); else read from ``secret_file``,
    else generated once into ``data_dir/secret.key``."""
    secret_file: Path | None = None
    client_dir: Path | None = CLIENT_DIR
    max_connections_per_address: int = 256
    trusted_proxies: TrustedProxies = field(default_factory=TrustedProxies)
    """Reverse proxies whose ``X-Forwarded-For`` names the client (``addresses.py``)."""
    static: StaticLimits = field(default_factory=StaticLimits)
    budgets: Budgets = field(default_factory=Budgets)
    """What one address or identity may take (``budgets.py``)."""
    retention: Retention = field(default_factory=Retention)
    """What is kept of finished matches, and how often the purge runs (``retention.py``)."""
    ping_interval: float | None = 20.0
    backlog: int = 1024
    """Pending TCP connections the listener queues (bursts of reconnecting clients)."""
    compression: bool = False
    """Offer permessage-deflate: smaller frames, but more server CPU per message (msgpack
    frames are small; ``docs/BENCHMARKS.md`` has the measured cost)."""
    sqlite_synchronous: str = "NORMAL"
    transport: TransportLimits = field(default_factory=TransportLimits)
    lobby: LobbyLimits = field(default_factory=LobbyLimits)
    worker: int | None = None
    """Set in the processes of ``kickline serve --workers N`` (0..N-1): the port is
    shared (``SO_REUSEPORT``), the server id gets ``.w<i>``, and the parent holds the
    data directory's lock."""
    drain_timeout: float = 10.0
    """On SIGTERM, how long the match actors get to stop and release their matches
    before the process exits anyway."""
    admin_password: str | None = field(default=None, repr=False)
    """Opens ``/status`` (HTTP Basic, user ``admin``); without it the page is off."""
    fixed_seed: bytes | None = field(default=None, repr=False)
    """Test only: every match uses this dice seed.  Never reachable from a client."""
    tournaments: TournamentLimits = field(default_factory=TournamentLimits)
    gc: gcpolicy.GcPolicy | None = None
    """The server runs the cyclic collector itself (:mod:`.gcpolicy`: a short collection
    and a freeze every ``every`` seconds and ``decisions`` commands, a full one every
    ``full_every``, by default never; ``/status`` shows it).  ``None``:
    the collector is left as the process has it (tests; an embedding host).
    ``kickline serve`` sets it (``--gc-every``, ``--gc-full-every``)."""


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


def loop_options(event_loop: str = "uvloop") -> dict[str, Any]:
    """``anyio.run``'s backend options for ``kickline serve --event-loop``: uvloop's event
    loop when asked for and installed (it is a dependency on every platform it supports),
    else the standard library's.  Nothing in the server depends on which: uvloop only
    runs the same asyncio code for less CPU (docs/BENCHMARKS.md)."""
    if event_loop == "uvloop" and importlib.util.find_spec("uvloop") is not None:
        return {"use_uvloop": True}
    return {}


class DataDirInUse(StartupError):
    """Another server process holds this data directory."""


@asynccontextmanager
async def _data_dir_lock(data_dir: Path) -> AsyncIterator[None]:
    data_dir.mkdir(parents=True, exist_ok=True)
    fd = os.open(data_dir / "server.lock", os.O_RDWR | os.O_CREAT, 0o600)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise DataDirInUse(f"another kickline server is using {data_dir}; stop it, or "
                               "give this one its own --data-dir") from None
        yield
    finally:
        os.close(fd)


@asynccontextmanager
async def _no_lock() -> AsyncIterator[None]:
    yield


async def open_store(config: ServerConfig) -> Store:
    store: Store
    if config.redis_url:
        store = RedisStore(config.redis_url, prefix=config.redis_prefix)
    else:
        store = SqliteStore(config.data_dir / "kickline.sqlite3",
                            synchronous=config.sqlite_synchronous)
    try:
        if isinstance(store, RedisStore):
            await store.ping()
        applied = await store.migrate()
    except BaseException:
        with anyio.CancelScope(shield=True):
            await store.aclose()
        raise
    if applied:
        log.info("store schema migrated to version %d (applied %s)", applied[-1], applied)
    return store


def describe_store(config: ServerConfig) -> str:
    """The store in use, for the start-up line (a Redis password is masked)."""
    if config.redis_url:
        return f"Redis {startup.mask(config.redis_url)} (prefix {config.redis_prefix!r})"
    return (f"SQLite {config.data_dir / 'kickline.sqlite3'} "
            f"(synchronous={config.sqlite_synchronous})")


class _Phases:
    """The start-up phase under way, so an error is explained as what it is about."""

    def __init__(self, config: ServerConfig) -> None:
        self.now: startup.Phase | None = "data_dir"
        self.where = startup.Where(config.host, config.port, config.data_dir.resolve(),
                                   config.redis_url, config.secret_file)

    def explain(self, exc: BaseException) -> StartupError | None:
        if self.now is None or isinstance(exc, StartupError):
            return None  # serving already (a bug keeps its traceback), or said already
        return startup.explain(exc, self.now, self.where)


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
    gc_counts: gcpolicy.GcCounts | None = None,
    task_status: TaskStatus[int] = anyio.TASK_STATUS_IGNORED,
) -> None:
    """Serve until ``shutdown`` is set; reports the bound port through ``task_status``.
    ``on_lobby`` is handed the lobby before the first connection (in-process modules,
    e.g. tournaments and tests, reach :meth:`Lobby.reserve` and the recorder there).
    ``gc_counts`` is filled by the collector's keeper when ``config.gc`` is set.

    What goes wrong before the server listens is raised as one :class:`StartupError`
    naming the cause and the fix (a taken port, an unwritable data directory, a full
    disk, a corrupt store, an unreachable Redis)."""
    shutdown = shutdown or anyio.Event()
    phases = _Phases(config)
    try:
        with loop_errors():
            await _run(config, shutdown, stats, on_lobby, task_status, phases,
                       gc_counts or gcpolicy.GcCounts())
    except Exception as exc:
        explained = phases.explain(exc)
        if explained is None:
            raise
        raise explained from exc


async def _run(config: ServerConfig, shutdown: anyio.Event, stats: Stats | None,
               on_lobby: Callable[[Lobby], None] | None, task_status: TaskStatus[int],
               phases: _Phases, gc_counts: gcpolicy.GcCounts) -> None:
    # A worker of `kickline serve --workers N`: its parent holds the data directory.
    lock = _data_dir_lock(config.data_dir) if config.worker is None else _no_lock()
    async with lock:
        phases.now = "secret"
        secret: str | bytes | None = config.secret
        if secret is None and config.secret_file is not None:
            secret = read_secret_file(config.secret_file)
        tokens = Tokens(load_keyring(config.data_dir, secret))
        phases.now = "data_dir"
        owner = load_server_id(config.data_dir)
        if config.worker is not None:  # one installation, N processes: N server ids
            owner = f"{owner}.w{config.worker}"
        phases.now = "store"
        store = await open_store(config)
        node = None
        if config.redis_url:  # processes share this Redis: one registration per server id
            node = Node(config.redis_url, owner, prefix=config.redis_prefix,
                        ttl=config.lobby.actor.lease_ttl)
        try:
            if node is not None:
                await node.register()
            await _serve(config, shutdown, store, tokens, owner, stats or Stats(), on_lobby,
                         node, task_status, phases, gc_counts)
        finally:
            with anyio.CancelScope(shield=True):
                if node is not None:
                    await node.leave()
                await store.aclose()


async def _serve(config: ServerConfig, shutdown: anyio.Event, store: Store, tokens: Tokens,
                 owner: str, stats: Stats, on_lobby: Callable[[Lobby], None] | None,
                 node: Node | None, task_status: TaskStatus[int], phases: _Phases,
                 gc_counts: gcpolicy.GcCounts) -> None:
    async with anyio.create_task_group() as actors:
        lobby = Lobby(store, tokens, actors, owner=owner, limits=config.lobby,
                      fixed_seed=config.fixed_seed, stats=stats, budgets=config.budgets)
        if isinstance(store, SqliteStore) and store.inline_when is not None:
            store.inline_when = lobby.threads_idle  # saves commit on the loop's thread
        tournaments = Tournaments(store, LobbyMatches(lobby), limits=config.tournaments)
        lobby.desk = Desk(tournaments)
        lobby.recorder.listen(lambda record: tournaments.on_record(record.plain))
        lobby.players.on_register = tournaments.on_register
        if on_lobby is not None:
            on_lobby(lobby)
        buckets = Buckets(config.transport)
        ops = Ops(lobby, store, stats, node=owner,
                  store_kind="redis" if config.redis_url else "sqlite",
                  admin_password=config.admin_password,
                  connections=lambda: sum(gate.connected.values()),
                  gc_policy=(config.gc, gc_counts) if config.gc is not None else None)
        router: Router | None = None

        async def who(token: str) -> str | None:
            claim = tokens.verify(token)
            account = None if claim is None else await store.account(claim.player)
            if account is None or claim is None or account.epoch != claim.epoch:
                return None
            return account.player

        def health() -> dict[str, Any]:
            return {"ok": True, "starting": not gate.ready, "matches": len(lobby.actors),
                    "connections": sum(gate.connected.values()) - gate.downloads,
                    "downloads": gate.downloads}

        gate = Gate(budgets=config.budgets, trusted=config.trusted_proxies,
                    max_connections_per_address=config.max_connections_per_address,
                    client_dir=config.client_dir, health=health,
                    handshake_timeout=config.transport.handshake_timeout,
                    static_limits=config.static,
                    routes=lambda conn, request, path, query: ops.respond(
                        conn, request, path) or _routes(
                        conn, request, lobby, path, query, tournaments, who),
                    ready=False)
        ops.health.starting = True

        async def handler(ws: ServerConnection) -> None:
            with gate.holding(ws) as address:
                await serve_connection(ws, lobby, config.transport, address=address,
                                       buckets=buckets)

        phases.now = "listen"
        async with serve(
            handler, config.host, config.port,
            create_connection=gate.connection_class(), logger=quiet_logger(),
            max_size=config.transport.max_frame, max_queue=16,
            compression="deflate" if config.compression else None,
            ping_interval=config.ping_interval, ping_timeout=config.ping_interval,
            close_timeout=config.transport.close_timeout,
            open_timeout=None, backlog=config.backlog,  # the gate times handshakes
            reuse_port=config.worker is not None,  # --workers: one port, N processes
        ) as server:
            port = int(next(iter(server.sockets)).getsockname()[1])
            # Listening before the matches are resumed: health checks answer and the page
            # loads while a big store is read (20 000 waiting matches took 16.7 s with no
            # listener); websockets and the players' routes wait for the lobby (the gate:
            # Gate.ready), or are told to come back.
            phases.now = "recover"
            recovered = await lobby.recover()
            if recovered:
                log.info("resumed %d unfinished matches", recovered)
            recorded = await lobby.recorder.catch_up()
            if recorded:
                log.info("recorded %d finished matches", recorded)
            events = await tournaments.load()
            if events:
                log.info("resumed %d running tournaments", events)
            if recovered and gc.isenabled() and gc.get_freeze_count():  # tuned by tune_gc
                # The recovered matches' cores live as long as the matches: out of every
                # collection, like the start-up objects (their garbage is acyclic and still
                # freed at once).
                gc.collect()
                gc.freeze()
            await actors.start(lobby.desk.run)
            await actors.start(tournaments.run)
            await actors.start(lobby.matchmaker.run)
            await actors.start(lobby.challenges.run)
            if store.leases_expire:  # other processes may die and leave matches to adopt
                await actors.start(lobby.adopt)
            await actors.start(partial(retention.run, store, config.retention))
            if config.redis_url:  # any process serves any player: route through Redis
                router = Router(config.redis_url, owner, prefix=config.redis_prefix,
                                ttl=config.lobby.actor.lease_ttl, new_id=new_id)
                router.handle, router.detach = lobby.handle_remote, lobby.detach_remote
                lobby.router = router
                await actors.start(router.run)
                # One quick-match queue and one lobby list for every process on the Redis.
                queue = RedisQueue(config.redis_url, prefix=config.redis_prefix)
                listing = Listing(config.redis_url, owner, prefix=config.redis_prefix,
                                  ttl=config.lobby.actor.lease_ttl,
                                  every=config.lobby.queue.tick)
                assert node is not None
                lobby.share_queue(queue, listing, node.token)
                await actors.start(partial(listing.run, lobby.list_part,
                                                   lobby.seats_all, lobby.seats_changed))
            await actors.start(ops.watch)  # after the gate: it counts the gate's connections
            if config.gc is not None:
                actors.start_soon(gcpolicy.keep, config.gc, gc_counts)
            if node is not None:
                node.summary = lambda: {"matches": len(lobby.actors),
                                        "connections": sum(gate.connected.values())}
                ops.nodes = node.nodes
                await actors.start(node.keep, shutdown.set)  # a duplicate id: stop serving

            gate.mark_ready()
            ops.health.starting = False
            phases.now = None
            _announce(config, port)
            task_status.started(port)
            await shutdown.wait()
            # The drain: stop accepting (new lobby requests get shutting_down, /readyz
            # says 503), stop the actors between commands and release their matches
            # (everything answered is already stored; another process sharing the store
            # adopts them when their clients reopen them), then tell every client to
            # reconnect (1012) and close.  Bounded by drain_timeout.
            log.info("draining: stopping %d match actors", len(lobby.actors))
            ops.health.draining = True
            with anyio.move_on_after(config.drain_timeout):
                await lobby.drain(config.drain_timeout)
                log.info("draining: telling %d clients to reconnect", len(lobby.conns))
                lobby.send_away("the server is restarting; reconnect to go on playing")
                while sum(gate.connected.values()) - gate.downloads > 0:
                    await anyio.sleep(0.02)  # each says 1012 once its queue is out
                server.close(close_connections=True)
                await server.wait_closed()
        actors.cancel_scope.cancel()
    if router is not None:
        with anyio.CancelScope(shield=True):
            await router.aclose()
            await queue.aclose()
            await listing.leave()



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
        return response(204, headers=[("Set-Cookie", set_cookie("", secure=secure,
                                                                 clear=True))])
    token = lobby.players.redeem_ticket((args.get("ticket") or [""])[0])
    if token is None:
        return response(403, "this ticket is not valid (used, expired or forged)\n")
    return response(204, headers=[("Set-Cookie", set_cookie(token, secure=secure)),
                                  ("Cache-Control", "no-store")])


async def _record(conn: ServerConnection, lobby: Lobby, match_id: str) -> Response:
    """``GET /record/<match>.json``: a finished match's downloadable record: its result
    and players, and everything needed to replay it and check the dice (config, seed,
    public log); see PROTOCOL.md."""
    if not 0 < len(match_id) <= 64 or not all(c.isalnum() or c in "-_" for c in match_id):
        return response(404, "no such match\n")
    try:
        raw = await lobby.store.result(match_id)
        stored = None if raw is None else await lobby.store.load(match_id)
    except StoreError:
        return response(503, "the server cannot reach its data right now\n")
    if raw is None:
        return response(404, "no finished match with that id\n")
    if stored is None:  # its full log was purged (retention.py); the record outlives it
        body = {"record": unpack(raw), "log": None}
        return response(200, json.dumps(body, separators=(",", ":")) + "\n", JSON)
    snapshot = unpack(stored.snapshot)
    meta = snapshot.get("meta") or {}
    if (meta.get("private") and not meta.get("tournament")
            and not await _reader_may_see(conn, lobby, snapshot)):
        # A private match's replay is its players' and organisers' (their browsers send
        # our cookie); to anyone else it does not exist, as over the websocket.  A
        # tournament's finished boards are published with its pairings: readable by all.
        return response(404, "no finished match with that id\n")
    log_entries = [public_entry(unpack(e)) for e in stored.log]
    seed = bytes(snapshot["seed"])
    body = {"record": unpack(raw), "game": snapshot["game"], "config": snapshot["config"],
            "seed": seed.hex(), "commit": commitment(seed), "log": log_entries}
    if snapshot.get("format", 0) >= 3:  # the players' dice contributions (dice.py)
        body["commits"] = snapshot["commits"]
        body["contributions"] = [None if c is None else bytes(c).hex()
                                 for c in snapshot["contributions"]]
    return response(200, json.dumps(body, separators=(",", ":")) + "\n", JSON, [
        ("Content-Disposition", f'attachment; filename="kickline-{match_id}.json"')])


async def _reader_may_see(conn: ServerConnection, lobby: Lobby, snapshot: Any) -> bool:
    """Whether the player named by the request's cookie (a valid, current token) is one of
    the match's players or organisers."""
    headers = conn.request.headers if conn.request is not None else None
    raw = headers.get("Cookie") if headers is not None else None
    if not raw:
        return False
    jar: SimpleCookie = SimpleCookie()
    try:
        jar.load(raw)
    except Exception:  # a malformed Cookie header: no identity
        return False
    morsel = jar.get(COOKIE)
    claim = lobby.tokens.verify(morsel.value) if morsel is not None else None
    if claim is None:
        return False
    account = await lobby.store.account(claim.player)
    if account is None or account.epoch != claim.epoch:
        return False
    seats = [s.get("player") for s in snapshot.get("seats") or [] if isinstance(s, dict)]
    organisers = (snapshot.get("meta") or {}).get("organisers") or []
    return claim.player in seats or claim.player in organisers


def _announce(config: ServerConfig, port: int) -> None:
    """The start-up line: where, which store, which data directory, which client build;
    and a warning an operator cannot miss when the client is not built."""
    build = startup.client_build(config.client_dir)
    shown = f"[{config.host}]" if ":" in config.host else config.host
    log.info("kickline serving http://%s:%d/ (websocket /ws) | store: %s | data dir: %s | "
             "client: %s", shown, port, describe_store(config), config.data_dir.resolve(),
             build or "NOT BUILT" if config.client_dir else "not served (--client-dir none)")
    if config.client_dir is not None and build is None:
        log.warning("the web client is not built (no %s): browsers get no Pyodide preview "
                    "of legal moves (\"Rules preview unavailable\"); build it with `make "
                    "client` (or `python tools/build_client.py`) and restart",
                    config.client_dir / "build" / "manifest.json")
