"""The ``kickline`` command: ``kickline serve`` and ``kickline bot``.

``serve``'s options live in one table (:mod:`.config`: flag, environment variable, TOML
key, help); an operator's mistake ends in one line on stderr and exit status 2.  A bot
that cannot play ends in one line and the status named in :data:`BOT_EXIT`.
"""

from __future__ import annotations

import argparse
import importlib.metadata
import json
import logging
import signal
import sys
from collections.abc import Mapping, Sequence
from functools import partial
from pathlib import Path
from typing import Any, Final
from urllib.parse import urlsplit, urlunsplit

import anyio

from . import config, games, logs, migrations, operate, quarantine, workers
from .accounts import name_key
from .actor import ActorLimits
from .addresses import TrustedProxies
from .app import ServerConfig, loop_options, open_admin_store, run_server, tune_gc
from .botclient import BotError, BotState, play
from .budgets import Budgets
from .challenges import ChallengeLimits
from .cluster import DuplicateServer
from .core import Clock
from .gcpolicy import GcPolicy
from .identity import load_keyring, load_server_id, rotate_key
from .lobby import LobbyLimits
from .matchmaking import QueueLimits
from .matchqueue import Window
from .protocol import Limits
from .retention import DAY, Retention
from .startup import StartupError
from .static import StaticLimits
from .store import SchemaTooNew, StoreUnavailable
from .tournaments import TournamentLimits
from .transport import TransportLimits

BOT_EXIT: Final[Mapping[str, int]] = {
    "refused": 1, "usage": 2, "unreachable": 3, "unknown_game": 4, "no_opponent": 5}
"""``kickline bot``'s exit status when it cannot play (0: it played the match out)."""


def _positive(kind: type[int] | type[float]) -> Any:
    def parse(text: str) -> int | float:
        try:
            value = kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
        if value <= 0:
            raise argparse.ArgumentTypeError(f"{text} must be more than 0")
        return value
    parse.__name__ = kind.__name__
    return parse


BOT_EPILOG = """exit status: 0 the match was played out (the JSON line says who won);
1 the server refused the request (unknown invite code, bad config); 2 bad options;
3 no server answers at --url (or it stopped answering); 4 the server hosts no such
game; 5 nobody to play with within --wait."""


def add_bot_options(b: argparse.ArgumentParser) -> None:
    b.add_argument("--url", required=True,
                   help="the server, ws://HOST:PORT (wss:// behind TLS); the /ws path is added")
    how = b.add_mutually_exclusive_group()
    how.add_argument("--quick", action="store_true", help="quick match (the default)")
    how.add_argument("--create", action="store_true",
                     help="create a match and print its invite code on stderr (JSON)")
    how.add_argument("--join", metavar="CODE", help="join a match by invite code")
    b.add_argument("--strategy", default="random",
                   help="the bot: beginner | casual | strong | strongest, or random | greedy "
                        "(greedy is casual) (random)")
    b.add_argument("--bot-seconds", type=float, default=1.0,
                   help="seconds strong and strongest may think per decision (1.0)")
    b.add_argument("--game", default="kickline", help="the ruleset: kickline | toy (kickline)")
    b.add_argument("--mode", default="training",
                   help="kickline: training | standard | advanced (training)")
    b.add_argument("--board", type=int, default=7, help="kickline: 7 or 9 spaces (7)")
    b.add_argument("--teams", default="training,training",
                   help="MINE,THEIRS team ids (kickline: training, fire-demons, cyborgs, "
                        "telekinetics, oozes); a quick match reads only MINE")
    b.add_argument("--rated", action="store_true",
                   help="with --quick: the rated queue (the result moves both ratings)")
    b.add_argument("--private", action="store_true",
                   help="with --create: keep the match off the lobby's list")
    b.add_argument("--name", default="robot",
                   help="the bot's name; a random suffix keeps it unique (robot-3fa2c1)")
    b.add_argument("--seed", default=None, help="make the bot's choices reproducible")
    b.add_argument("--decision-time", type=_positive(float), default=None,
                   help="with --create or --quick: free seconds per decision (server's)")
    b.add_argument("--wait", type=_positive(float), default=None,
                   help="seconds to wait for an opponent before giving up (quick: 60, "
                        "create: 300)")
    b.add_argument("--connect-timeout", type=_positive(float), default=5.0,
                   help="seconds to wait for the server to answer at all (5)")
    b.add_argument("--log-level", default="WARNING", type=str.upper,
                   choices=["DEBUG", "INFO", "WARNING", "ERROR"], help="WARNING (default)")


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="kickline", description="Kickline match server and bot.")
    p.add_argument("--version", action="version", version=f"kickline {_version()}",
                   help="print the installed version and exit")
    sub = p.add_subparsers(dest="command", required=True)

    s = sub.add_parser("serve", help="run the match server (embedded storage by default)",
                       description="Run the match server; it also serves the web client.  "
                       "Every option can also be set by an environment variable or in a "
                       "TOML file (--config); precedence: flag > environment > file > "
                       "default.")
    config.add_arguments(s)
    # Test only: fix every match's dice seed (hex).  Hidden: never for real play.
    s.add_argument("--insecure-fixed-seed", default=None, help=argparse.SUPPRESS)
    # Set by `--workers N` on the processes it starts (workers.py).  Hidden.
    s.add_argument("--worker-index", type=int, default=None, help=argparse.SUPPRESS)

    k = sub.add_parser("rotate-key", help="put a new token signing key first in the data "
                       "directory's key file (old tokens keep working; a server reads it at "
                       "its next start)")
    k.add_argument("--data-dir", type=Path, default=config.default_data_dir(),
                   help="the server's data directory (default: as kickline serve's)")
    k.add_argument("--log-level", default="WARNING", help="WARNING (default)")

    a = sub.add_parser("admin", help="grant or revoke the organiser role (who may create "
                       "and run tournaments); works while the server runs",
                       description="The organiser role: kickline admin grant NAME | revoke "
                       "NAME | list.  The first account of a fresh server holds it already.")
    a.add_argument("action", choices=["grant", "revoke", "list"])
    a.add_argument("name", nargs="?", help="the player's name (as on their profile)")
    a.add_argument("--data-dir", type=Path, default=config.default_data_dir())
    a.add_argument("--redis-url", default=None, help="the server's Redis, if it uses one")
    a.add_argument("--redis-prefix", default="kl:")
    a.add_argument("--log-level", default="WARNING")

    v = sub.add_parser("verify", help="check a finished match's record: the dice seed "
                       "against its commitment, every roll, the result",
                       description="Check a match record (the end screen's \"Download the "
                       "match record\", or GET /record/<match>.json): replays the log, rolls "
                       "every die from the revealed seed, compares the result.  Exit 0 when "
                       "it verifies, 1 when it does not, 2 when the file is not a record.")
    v.add_argument("file", type=Path, help="the record (JSON)")
    v.add_argument("--log-level", default="WARNING")

    d = sub.add_parser("doctor", help="report quarantined matches (set aside because they "
                       "could not be loaded) and try every unfinished one; works while the "
                       "server runs",
                       description="Lists every quarantined match with the reason it could "
                       "not be loaded (its data is kept as stored), and loads every "
                       "unfinished match as a restart would.  Exit status 1 if any match "
                       "is or would be quarantined.")
    bk = sub.add_parser("backup", help="copy the data while the server runs (SQLite online "
                        "backup + the key file; with Redis: a Redis snapshot)")
    bk.add_argument("dest", type=Path, nargs="?",
                    help="a new directory for the copy (embedded store)")
    mg = sub.add_parser("migrate", help="show the data's schema version and apply the "
                        "pending migrations (an embedded store is backed up first)")
    mg.add_argument("--check", action="store_true",
                    help="only report; exit 1 if migrations are pending")
    for cmd in (bk, mg, d):
        cmd.add_argument("--data-dir", default=argparse.SUPPRESS,
                         help="as for serve (env KICKLINE_DATA_DIR)")
        cmd.add_argument("--redis-url", default=argparse.SUPPRESS,
                         help="as for serve (env KICKLINE_REDIS_URL)")
        cmd.add_argument("--config", type=Path, default=argparse.SUPPRESS,
                         help="as for serve (env KICKLINE_CONFIG)")

    add_bot_options(sub.add_parser(
        "bot", help="play one match over the network with a bot", epilog=BOT_EPILOG,
        description="Play one match over the network, as a browser would, and print one "
                    "JSON line: the match, the bot's seat, side and team, and who won."))
    return p


def _version() -> str:
    try:
        return importlib.metadata.version("kickline")
    except importlib.metadata.PackageNotFoundError:  # run from the source tree, uninstalled
        return "(not installed)"


def _say(message: str) -> None:
    print(f"kickline: {message}", file=sys.stderr, flush=True)


def _serve(args: argparse.Namespace) -> int:
    try:
        opts = config.resolve(args)
        trusted = TrustedProxies.parse(opts.trusted_proxy)
        queue = QueueLimits(
            window=Window(start=opts.queue_window, step=opts.queue_window_step,
                          every=opts.queue_window_every, cap=opts.queue_window_cap),
            tick=opts.queue_tick, requeue_grace=opts.requeue_grace)
        if opts.snapshot_every < 1:
            raise config.ConfigError(f"snapshot_every={opts.snapshot_every} must be at least 1")
        if not opts.gc_every > 0:
            raise config.ConfigError(f"gc_every={opts.gc_every} must be above 0 seconds")
        if opts.gc_decisions < 0:
            raise config.ConfigError(f"gc_decisions={opts.gc_decisions} must be 0 (on time "
                                     "only) or a number of decisions")
        if opts.gc_full_every < 0:
            raise config.ConfigError(f"gc_full_every={opts.gc_full_every} must be 0 (never) "
                                     "or a number of seconds")
        if opts.log_window < 1:
            raise config.ConfigError(f"log_window={opts.log_window} must be at least 1")
    except ValueError as exc:  # ConfigError included: one line naming the setting
        _say(str(exc))
        return 2
    if args.print_config:
        print(opts.describe())
        return 0
    logs.setup(opts.log_level, opts.log_format)
    if opts.workers > 1 and args.worker_index is None:
        if opts.redis_url:
            opts.data_dir.mkdir(parents=True, exist_ok=True)
            load_server_id(opts.data_dir)  # made once here, never raced by the workers
            if opts.secret_file is None:
                load_keyring(opts.data_dir, None)
            return workers.supervise(args.argv, opts.workers, opts.data_dir,
                                     drain_timeout=opts.drain_timeout)
        logging.getLogger(__name__).warning(
            "--workers %d needs --redis-url (the processes share matches through Redis); "
            "with the embedded store the server stays one process", opts.workers)
    server = ServerConfig(
        host=opts.host, port=opts.port, data_dir=opts.data_dir, redis_url=opts.redis_url,
        secret_file=opts.secret_file, client_dir=opts.client_dir,
        max_connections_per_address=opts.max_connections_per_address,
        trusted_proxies=trusted,
        static=StaticLimits(stall=opts.static_stall, min_rate=opts.static_min_rate),
        retention=Retention(keep_logs=opts.keep_logs_days * DAY,
                            keep_records=opts.keep_records_days * DAY, every=opts.purge_every),
        budgets=Budgets(**{name: opts.values[name] for name in Budgets.__dataclass_fields__}),
        compression=opts.compression, sqlite_synchronous=opts.sqlite_synchronous,
        transport=TransportLimits(
            max_frame=opts.max_frame, handshake_timeout=opts.handshake_timeout,
            idle_timeout=opts.idle_timeout, rate=opts.rate, burst=2 * opts.rate,
            send_queue=opts.send_queue, unpack=Limits()),
        lobby=LobbyLimits(
            clock=Clock(decision=opts.decision_time, bank=opts.time_bank,
                        max_timeouts=opts.max_timeouts),
            grace=opts.grace, restart_grace=opts.restart_grace,
            waiting_grace=opts.waiting_grace, reveal_timeout=opts.reveal_timeout,
            max_live_matches=opts.max_matches, snapshot_every=opts.snapshot_every,
            log_window=opts.log_window,
            queue=queue,
            challenges=ChallengeLimits(ttl=opts.challenge_ttl, outgoing=opts.challenges_out,
                                       incoming=opts.challenges_in),
            bot_threads=opts.bot_threads,
            actor=ActorLimits(inbox=opts.inbox, lease_ttl=opts.lease_ttl,
                              bot_seconds=opts.bot_seconds)),
        admin_password=opts.admin_password, drain_timeout=opts.drain_timeout,
        worker=args.worker_index,
        fixed_seed=bytes.fromhex(args.insecure_fixed_seed) if args.insecure_fixed_seed
        else None,
        gc=GcPolicy(every=opts.gc_every, full_every=opts.gc_full_every,
                    decisions=opts.gc_decisions),
        tournaments=TournamentLimits(pairing_timeout=opts.pairing_timeout,
                                     max_tournaments=opts.max_tournaments,
                                     no_show_check=opts.no_show_check),
    )

    async def main() -> None:
        shutdown = anyio.Event()
        async with anyio.create_task_group() as tg:
            async def on_signals() -> None:
                with anyio.open_signal_receiver(signal.SIGINT, signal.SIGTERM) as signals:
                    async for _ in signals:
                        shutdown.set()
                        return

            tg.start_soon(on_signals)
            await run_server(server, shutdown)
            tg.cancel_scope.cancel()

    tune_gc()
    try:
        anyio.run(main, backend_options=loop_options(opts.event_loop))
    except Exception as exc:
        inner = _unwrap(exc)
        if isinstance(inner, StartupError | SchemaTooNew | DuplicateServer):
            _say(str(inner))
            return 2
        raise
    return 0



def _unwrap(exc: BaseException) -> BaseException:
    """The one exception inside nested single-exception groups."""
    while isinstance(exc, BaseExceptionGroup) and len(exc.exceptions) == 1:
        exc = exc.exceptions[0]
    return exc


def ws_url(url: str) -> str:
    """The websocket URL to dial for ``--url``; raises ``ValueError`` with the fix."""
    parts = urlsplit(url.strip())
    if parts.scheme in ("http", "https"):
        fixed = urlunsplit(("ws" if parts.scheme == "http" else "wss", *parts[1:]))
        raise ValueError(f"--url {url} is a web page address; a bot speaks websocket: "
                         f"--url {fixed}")
    if parts.scheme not in ("ws", "wss") or not parts.netloc:
        raise ValueError(f"--url {url!r} is not a websocket URL; write ws://HOST:PORT "
                         "(wss:// behind TLS)")
    path = parts.path.rstrip("/")
    if not path.endswith("/ws"):
        path += "/ws"
    return urlunsplit((parts.scheme, parts.netloc, path, parts.query, ""))


def result_line(over: Mapping[str, Any], seat: int | None,
                home_seat: int | None = None) -> dict[str, Any]:
    """The bot's one JSON line: whose seat, which side (home or visitors, where the
    ruleset has them and the match got that far) and team, and whether it won."""
    result = over.get("result") or {}
    winner = result.get("winner")
    config = over.get("config") or {}
    teams = config.get("teams") if isinstance(config, Mapping) else None
    home = result.get("home_seat", home_seat)
    return {
        "match": over["match"], "seat": seat,
        "side": None if home is None or seat is None else (
            "home" if home == seat else "visitors"),
        "team": teams[seat] if isinstance(teams, list) and seat in (0, 1) else None,
        "won": seat is not None and winner == seat,
        "outcome": ("won" if winner == seat else "lost") if winner is not None else (
            "draw" if result.get("score") is not None else "no result"),
        "score": result.get("score"), "winner": winner, "reason": result.get("reason"),
        "seed": over.get("seed")}


def _bot(args: argparse.Namespace) -> int:
    try:
        url = ws_url(args.url)
    except ValueError as exc:
        _say(str(exc))
        return BOT_EXIT["usage"]
    try:
        ruleset = games.get(args.game)
    except games.UnknownGame:
        _say(f"unknown game {args.game!r}; games: {', '.join(games.available())}")
        return BOT_EXIT["unknown_game"]
    if args.strategy not in ruleset.bots:
        _say(f"no {args.strategy!r} bot for {args.game}; bots: {', '.join(sorted(ruleset.bots))}")
        return BOT_EXIT["usage"]
    how = "create" if args.create else "join" if args.join else "quick"
    teams = args.teams.split(",")
    if len(teams) == 1:
        teams *= 2
    config: dict[str, Any] = {"mode": args.mode, "board": args.board, "teams": teams}
    clock = {"decision": args.decision_time} if args.decision_time else None
    wait = args.wait if args.wait is not None else {"quick": 60.0, "create": 300.0}.get(how)

    def announce(match: str, code: str) -> None:
        print(json.dumps({"match": match, "code": code, "wait": wait}), file=sys.stderr,
              flush=True)

    def queued(wait: float | None) -> None:
        _say(f"queued for a quick match; waiting up to {wait:g} s for an opponent" if wait
             else "queued for a quick match; waiting for an opponent")

    state = BotState()
    try:
        over = anyio.run(partial(
            play, url, how=how, code=args.join, game=args.game, config=config,
            strategy=args.strategy, name=args.name, seed=args.seed, clock=clock,
            bot_seconds=args.bot_seconds, private=args.private, rated=args.rated, wait=wait,
            connect_timeout=args.connect_timeout,
            on_code=announce, on_queued=queued, state=state))
    except Exception as exc:
        inner = _unwrap(exc)
        if not isinstance(inner, BotError):
            raise
        _say(str(inner))
        return BOT_EXIT[inner.why]
    except KeyboardInterrupt:
        return 130
    print(json.dumps(result_line(over, state.seat, state.home_seat)), flush=True)
    return 0


def _admin(args: argparse.Namespace) -> int:
    """``kickline admin``: one line saying what was done, or what is wrong and what to do."""
    if args.action != "list" and not args.name:
        print(f"kickline: admin {args.action} needs a player's name", file=sys.stderr)
        return 2

    async def run() -> int:
        store = await open_admin_store(args.data_dir, args.redis_url, args.redis_prefix)
        try:
            if args.action == "list":
                names = []
                for player in sorted(await store.organisers()):
                    account = await store.account(player)
                    names.append(account.name if account else f"(unknown player {player})")
                print("\n".join(sorted(names)) if names else "no organisers yet (the first "
                      "account made on this server becomes one)")
                return 0
            account = await store.account_by_name(name_key(args.name))
            if account is None:
                print(f"kickline: there is no player called {args.name!r} on this server "
                      "(they must open the site and choose that name first)", file=sys.stderr)
                return 1
            if args.action == "grant":
                await store.grant_organiser(account.player)
                print(f"{account.name} is now an organiser")
            else:
                await store.revoke_organiser(account.player)
                print(f"{account.name} is no longer an organiser")
            return 0
        finally:
            await store.aclose()

    try:
        return anyio.run(run)
    except (StoreUnavailable, SchemaTooNew, OSError) as exc:
        print(f"kickline: cannot open the store: {exc}", file=sys.stderr)
        return 2


def _doctor(args: argparse.Namespace) -> int:
    """``kickline doctor``: the report on stdout; 0 if all is well, 1 if not."""
    try:
        opts = config.resolve(args)
    except config.ConfigError as exc:
        print(f"kickline: {exc}", file=sys.stderr)
        return 2

    async def run() -> int:
        store = await open_admin_store(opts.data_dir, opts.redis_url,
                                       ServerConfig().redis_prefix)
        try:
            lines, ok = await quarantine.report(store)
        finally:
            await store.aclose()
        print("\n".join(lines))
        return 0 if ok else 1

    try:
        return anyio.run(run)
    except (StoreUnavailable, SchemaTooNew, OSError) as exc:
        print(f"kickline: cannot open the store: {exc}", file=sys.stderr)
        return 2


def _backup(args: argparse.Namespace) -> int:
    try:
        opts = config.resolve(args)
        if opts.redis_url:
            where = anyio.run(operate.backup_redis, opts.redis_url)
            print(f"Redis wrote its snapshot to {where['file'] or 'its data directory'} "
                  f"(AOF {'on' if where['aof_enabled'] else 'OFF: turn it on'}); copy that "
                  "file, and the token key file, somewhere safe")
            return 0
        if args.dest is None:
            print("kickline: give a new directory for the copy: kickline backup DEST",
                  file=sys.stderr)
            return 2
        done = operate.backup_sqlite(opts.data_dir, args.dest)
    except (config.ConfigError, operate.OperateError) as exc:
        print(f"kickline: {exc}", file=sys.stderr)
        return 2
    print(f"backed up {done.matches} matches ({done.bytes} bytes) to {done.path}")
    return 0


def _migrate(args: argparse.Namespace) -> int:
    try:
        opts = config.resolve(args)
        if opts.redis_url:
            version = anyio.run(operate.redis_version, opts.redis_url, ServerConfig().redis_prefix)
        else:
            version = operate.sqlite_version(opts.data_dir)
        todo = operate.plan(version)
        where = config.mask_url(opts.redis_url) if opts.redis_url else opts.data_dir
        print(f"{where}: schema version {version}; this kickline knows up "
              f"to {migrations.LATEST}")
        for v, what in todo.pending:
            print(f"  pending {v}: {what}")
        if not todo.pending:
            print("nothing to migrate")
            return 0
        if args.check:
            return 1
        if opts.redis_url:
            applied = anyio.run(operate.migrate_shared, opts.redis_url, ServerConfig().redis_prefix)
            saved = None
        else:
            applied, saved = operate.migrate_embedded(opts.data_dir)
    except (config.ConfigError, operate.OperateError, SchemaTooNew) as exc:
        print(f"kickline: {exc}", file=sys.stderr)
        return 2
    if saved is not None:
        print(f"backed up first to {saved.path.parent}")
    print(f"applied migrations {applied}; schema version {migrations.LATEST}")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    raw = list(sys.argv[1:] if argv is None else argv)
    args = _parser().parse_args(raw)
    args.argv = raw  # `serve --workers N` runs its workers with the same arguments
    logging.basicConfig(level=getattr(args, "log_level", "INFO").upper(),
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    if args.command == "serve":
        return _serve(args)
    if args.command == "rotate-key":
        try:
            kid = rotate_key(args.data_dir)
        except (OSError, ValueError) as exc:
            _say(f"cannot rotate the key in {args.data_dir}: {exc}")
            return 2
        print(f"new signing key {kid} in {args.data_dir / 'secret.key'}; restart the server "
              "to use it (tokens signed by the older keys keep working)")
        return 0
    if args.command == "admin":
        return _admin(args)
    if args.command == "verify":
        return _verify(args)
    if args.command == "doctor":
        return _doctor(args)
    if args.command == "backup":
        return _backup(args)
    if args.command == "migrate":
        return _migrate(args)
    return _bot(args)


def _verify(args: argparse.Namespace) -> int:
    from .recordcheck import RecordError, check

    try:
        print(check(args.file))
    except RecordError as exc:
        print(f"kickline verify: {args.file}: {exc}", file=sys.stderr)
        return 1 if str(exc).startswith("does not verify") else 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
