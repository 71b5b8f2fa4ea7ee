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

from . import games
from .actor import ActorLimits
from .app import CLIENT_DIR, DataDirInUse, ServerConfig, run_server, tune_gc
from .botclient import BotError, play
from .core import SNAPSHOT_EVERY, Clock
from .lobby import LobbyLimits
from .protocol import Limits
from .store import StoreUnavailable
from .transport import TransportLimits


def _at_least_one(text: str) -> int:
    try:
        n = int(text)
    except ValueError:
        n = 0
    if n < 1:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number of at least 1")
    return n


def _default_data_dir() -> Path:
    return Path.home() / ".local" / "share" / "kickline"


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="kickline", description="Kickline match server and bot.")
    sub = p.add_subparsers(dest="command", required=True)

    s = sub.add_parser("serve", help="run the match server (embedded storage by default)")
    s.add_argument("--host", default="127.0.0.1", help="address to listen on (127.0.0.1)")
    s.add_argument("--port", type=int, default=8765, help="port (8765; 0 picks a free one)")
    s.add_argument("--data-dir", type=Path, default=_default_data_dir(),
                   help="where the embedded store, token secret and server id live "
                        "(~/.local/share/kickline)")
    s.add_argument("--redis-url", default=None,
                   help="store matches in Redis instead of the embedded SQLite store")
    s.add_argument("--secret-file", type=Path, default=None,
                   help="file holding the token secret (default: generated in --data-dir)")
    s.add_argument("--client-dir", type=Path, default=CLIENT_DIR,
                   help="static files to serve at / (the web client)")
    s.add_argument("--grace", type=float, default=60.0,
                   help="seconds a dropped player keeps the seat (60)")
    s.add_argument("--decision-time", type=float, default=30.0,
                   help="free seconds per decision (30)")
    s.add_argument("--time-bank", type=float, default=300.0,
                   help="seconds of time bank per seat (300)")
    s.add_argument("--max-timeouts", type=int, default=3,
                   help="timeouts in a row that forfeit (3)")
    s.add_argument("--max-frame", type=int, default=4096,
                   help="largest client frame in bytes (4096)")
    s.add_argument("--rate", type=float, default=20.0, help="client messages per second (20)")
    s.add_argument("--max-connections-per-address", type=int, default=64)
    s.add_argument("--handshake-timeout", type=float, default=10.0)
    s.add_argument("--idle-timeout", type=float, default=900.0)
    s.add_argument("--send-queue", type=int, default=256)
    s.add_argument("--inbox", type=int, default=64, help="commands queued per match (64)")
    s.add_argument("--snapshot-every", type=_at_least_one, default=SNAPSHOT_EVERY,
                   help="write a match's whole snapshot every N log entries; the saves "
                        "between append the log only, and a restart replays that tail "
                        f"({SNAPSHOT_EVERY})")
    s.add_argument("--lease-ttl", type=float, default=15.0)
    s.add_argument("--max-matches", type=int, default=20_000)
    s.add_argument("--compression", action="store_true",
                   help="offer permessage-deflate to clients (off: it costs server CPU)")
    s.add_argument("--sqlite-synchronous", default="NORMAL",
                   choices=["OFF", "NORMAL", "FULL", "EXTRA"],
                   help="NORMAL (default) survives kill -9; FULL also survives power loss, "
                        "at an fsync per group commit")
    s.add_argument("--log-level", default="INFO")
    # Test only: fix every match's dice seed (hex).  Hidden: never for real play.
    s.add_argument("--insecure-fixed-seed", default=None, help=argparse.SUPPRESS)

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
    b.add_argument("--name", default="bot")
    b.add_argument("--seed", default=None, help="make the bot's choices reproducible")
    b.add_argument("--decision-time", type=float, default=None)
    b.add_argument("--log-level", default="WARNING")
    return p


def _serve(args: argparse.Namespace) -> int:
    secret = args.secret_file.read_text().strip() if args.secret_file else None
    config = ServerConfig(
        host=args.host, port=args.port, data_dir=args.data_dir, redis_url=args.redis_url,
        secret=secret, client_dir=args.client_dir,
        max_connections_per_address=args.max_connections_per_address,
        compression=args.compression, sqlite_synchronous=args.sqlite_synchronous,
        transport=TransportLimits(
            max_frame=args.max_frame, handshake_timeout=args.handshake_timeout,
            idle_timeout=args.idle_timeout, rate=args.rate, burst=2 * args.rate,
            send_queue=args.send_queue, unpack=Limits()),
        lobby=LobbyLimits(
            clock=Clock(decision=args.decision_time, bank=args.time_bank,
                        max_timeouts=args.max_timeouts),
            grace=args.grace, max_live_matches=args.max_matches,
            snapshot_every=args.snapshot_every,
            actor=ActorLimits(inbox=args.inbox, lease_ttl=args.lease_ttl)),
        fixed_seed=bytes.fromhex(args.insecure_fixed_seed) if args.insecure_fixed_seed else None,
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
            await run_server(config, shutdown)
            tg.cancel_scope.cancel()

    tune_gc()
    try:
        anyio.run(main)
    except Exception as exc:
        inner = _unwrap(exc)
        if isinstance(inner, DataDirInUse):
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


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    logging.basicConfig(level=args.log_level.upper(),
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    if args.command == "serve":
        return _serve(args)
    return _bot(args)


if __name__ == "__main__":
    sys.exit(main())
