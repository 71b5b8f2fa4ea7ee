"""The ``kickline`` command: ``kickline serve`` and ``kickline bot``."""

from __future__ import annotations

import argparse
import json
import logging
import signal
import sys
from collections.abc import Sequence
from functools import partial
from pathlib import Path
from typing import Any

import anyio

from . import config, games, logs
from .accounts import name_key
from .actor import ActorLimits
from .addresses import TrustedProxies
from .app import (
    DataDirInUse,
    ServerConfig,
    open_admin_store,
    run_server,
    tune_gc,
)
from .botclient import BotError, play
from .budgets import Budgets
from .core import Clock
from .identity import rotate_key
from .lobby import LobbyLimits
from .protocol import Limits
from .static import StaticLimits
from .store import SchemaTooNew, StoreUnavailable
from .tournaments import TournamentLimits
from .transport import TransportLimits


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="kickline", description="Kickline match server and bot.")
    sub = p.add_subparsers(dest="command", required=True)

    s = sub.add_parser("serve", help="run the match server (embedded storage by default)",
                       description="Run the match server.  Every option can also be set "
                       "by an environment variable or in a TOML file (--config); "
                       "precedence: flag > environment > file > default.")
    config.add_arguments(s)
    # Test only: fix every match's dice seed (hex).  Hidden: never for real play.
    s.add_argument("--insecure-fixed-seed", default=None, help=argparse.SUPPRESS)

    k = sub.add_parser("rotate-key", help="put a new token signing key first in the data "
                       "directory's key file (old tokens keep working; a server reads it at "
                       "its next start)")
    k.add_argument("--data-dir", type=Path, default=config.default_data_dir())
    k.add_argument("--log-level", default="WARNING")

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

    b = sub.add_parser("bot", help="play one match over the network with a bot")
    b.add_argument("--url", required=True, help="ws://HOST:PORT (the /ws path is added)")
    how = b.add_mutually_exclusive_group()
    how.add_argument("--quick", action="store_true", help="quick match (the default)")
    how.add_argument("--create", action="store_true",
                     help="create a match and print its invite code on stderr")
    how.add_argument("--join", metavar="CODE", help="join a match by invite code")
    b.add_argument("--strategy", default="random", help="random | greedy")
    b.add_argument("--game", default="kickline")
    b.add_argument("--mode", default="training")
    b.add_argument("--board", type=int, default=7)
    b.add_argument("--teams", default="training,training",
                   help="MINE,THEIRS team ids (kickline: training, fire-demons, cyborgs, "
                        "telekinetics, oozes); a quick match reads only MINE")
    b.add_argument("--private", action="store_true")
    b.add_argument("--name", default="robot",
                   help="the bot's name; a random suffix keeps it unique (robot-3fa2c1)")
    b.add_argument("--seed", default=None, help="make the bot's choices reproducible")
    b.add_argument("--decision-time", type=float, default=None)
    b.add_argument("--log-level", default="WARNING")
    return p


def _serve(args: argparse.Namespace) -> int:
    try:
        opts = config.resolve(args)
        trusted = TrustedProxies.parse(opts.trusted_proxy)
    except ValueError as exc:  # ConfigError included: one line naming the setting
        print(f"kickline: {exc}", file=sys.stderr)
        return 2
    if args.print_config:
        print(opts.describe())
        return 0
    logs.setup(opts.log_level, opts.log_format)
    secret = opts.secret_file.read_text().strip() if opts.secret_file else None
    server = ServerConfig(
        host=opts.host, port=opts.port, data_dir=opts.data_dir, redis_url=opts.redis_url,
        secret=secret, client_dir=opts.client_dir,
        max_connections_per_address=opts.max_connections_per_address,
        trusted_proxies=trusted,
        static=StaticLimits(stall=opts.static_stall, min_rate=opts.static_min_rate),
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
            max_live_matches=opts.max_matches,
            actor=ActorLimits(inbox=opts.inbox, lease_ttl=opts.lease_ttl)),
        admin_password=opts.admin_password,
        fixed_seed=bytes.fromhex(args.insecure_fixed_seed) if args.insecure_fixed_seed
        else None,
        tournaments=TournamentLimits(pairing_timeout=opts.pairing_timeout,
                                     max_tournaments=opts.max_tournaments),
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
        anyio.run(main)
    except Exception as exc:
        inner = _unwrap(exc)
        if isinstance(inner, DataDirInUse):
            print(f"kickline: {inner}", file=sys.stderr)
            return 2
        if isinstance(inner, SchemaTooNew):
            print(f"kickline: {inner}", file=sys.stderr)
            return 2
        if isinstance(inner, StoreUnavailable):
            print(f"kickline: cannot reach the store: {inner}", file=sys.stderr)
            return 2
        raise
    return 0


def _unwrap(exc: BaseException) -> BaseException:
    """The one exception inside nested single-exception groups."""
    while isinstance(exc, BaseExceptionGroup) and len(exc.exceptions) == 1:
        exc = exc.exceptions[0]
    return exc


def _bot(args: argparse.Namespace) -> int:
    url = args.url.rstrip("/")
    if not url.endswith("/ws"):
        url += "/ws"
    how = "create" if args.create else "join" if args.join else "quick"
    teams = args.teams.split(",")
    if len(teams) == 1:
        teams *= 2
    config: dict[str, Any] = {"mode": args.mode, "board": args.board, "teams": teams}
    clock = {"decision": args.decision_time} if args.decision_time else None
    try:
        games.get(args.game).bots[args.strategy]
    except (games.UnknownGame, KeyError):
        print(f"kickline: no {args.strategy!r} bot for game {args.game!r}", file=sys.stderr)
        return 2

    def announce(match: str, code: str) -> None:
        print(json.dumps({"match": match, "code": code}), file=sys.stderr, flush=True)

    try:
        over = anyio.run(partial(
            play, url, how=how, code=args.join, game=args.game, config=config,
            strategy=args.strategy, name=args.name, seed=args.seed, clock=clock,
            private=args.private, on_code=announce))
    except Exception as exc:
        inner = _unwrap(exc)
        if not isinstance(inner, BotError):
            raise
        print(f"kickline: {inner}", file=sys.stderr)
        return 1
    result = over["result"] or {}
    print(json.dumps({"match": over["match"], "score": result.get("score"),
                      "winner": result.get("winner"), "reason": result.get("reason"),
                      "seed": over["seed"]}), flush=True)
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


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    logging.basicConfig(level=getattr(args, "log_level", "INFO").upper(),
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    if args.command == "serve":
        return _serve(args)
    if args.command == "rotate-key":
        try:
            kid = rotate_key(args.data_dir)
        except (OSError, ValueError) as exc:
            print(f"kickline: cannot rotate the key in {args.data_dir}: {exc}", file=sys.stderr)
            return 2
        print(f"new signing key {kid} in {args.data_dir / 'secret.key'}; restart the server "
              "to use it (tokens signed by the older keys keep working)")
        return 0
    if args.command == "admin":
        return _admin(args)
    if args.command == "verify":
        return _verify(args)
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
