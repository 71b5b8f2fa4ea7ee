"""The ``kickline`` command: ``kickline serve`` and ``kickline bot``.

Every ``serve`` option is declared once in :func:`add_serve_options` (a dest, a type that
parses a string, a default, a help text) and read once in :func:`serve_config`, so
another source of settings (environment, a file) can be laid under the flags with
``parser.set_defaults`` without touching either.  An operator's mistake ends in one line
on stderr and exit status 2; a bot that cannot play ends in one line and the status
named in :data:`BOT_EXIT`.
"""

from __future__ import annotations

import argparse
import importlib.metadata
import json
import logging
import os
import signal
import sys
from collections.abc import Mapping, Sequence
from functools import partial
from pathlib import Path
from typing import Any, Final
from urllib.parse import urlsplit, urlunsplit

import anyio

from . import games
from .actor import ActorLimits
from .app import CLIENT_DIR, ServerConfig, run_server, tune_gc
from .botclient import BotError, BotState, play
from .core import Clock
from .lobby import LobbyLimits
from .protocol import Limits
from .startup import StartupError
from .transport import TransportLimits

CHECKOUT: Final = Path(__file__).resolve().parents[2]

BOT_EXIT: Final[Mapping[str, int]] = {
    "refused": 1, "usage": 2, "unreachable": 3, "unknown_game": 4, "no_opponent": 5}
"""``kickline bot``'s exit status when it cannot play (0: it played the match out)."""


def default_data_dir() -> Path:
    """``./data`` of the checkout when run from a source checkout (``make serve``: each
    clone its own matches), else the per-user data directory ($XDG_DATA_HOME/kickline,
    ~/.local/share/kickline)."""
    if (CHECKOUT / "pyproject.toml").is_file() and (CHECKOUT / "server").is_dir():
        return CHECKOUT / "data"
    base = os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share"
    return Path(base) / "kickline"


def _port(text: str) -> int:
    try:
        port = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a port number") from None
    if not 0 <= port <= 65535:
        raise argparse.ArgumentTypeError(f"{port} is not a port (0-65535)")
    return port


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


def _dir_or_none(text: str) -> Path | None:
    return None if text.lower() == "none" else Path(text)


def add_serve_options(s: argparse.ArgumentParser) -> None:
    pos_int, pos_float = _positive(int), _positive(float)
    s.add_argument("--host", default="127.0.0.1",
                   help="address to listen on: 127.0.0.1 (default, this machine only) or "
                        "0.0.0.0 (every interface: phones on your network)")
    s.add_argument("--port", type=_port, default=8765, help="port (8765; 0 picks a free one)")
    s.add_argument("--data-dir", type=Path, default=default_data_dir(),
                   help="where the embedded store, token secret and server id live "
                        f"(default here: {default_data_dir()})")
    s.add_argument("--redis-url", default=None,
                   help="keep matches in Redis (redis://HOST:PORT/DB) instead of the "
                        "embedded SQLite store")
    s.add_argument("--secret-file", type=Path, default=None,
                   help="file holding the token secret: text, or the raw bytes of another "
                        "server's secret.key (default: generated in --data-dir)")
    s.add_argument("--client-dir", type=_dir_or_none, default=CLIENT_DIR,
                   help=f"the web client's files, served at / ({CLIENT_DIR}; 'none' serves "
                        "only the websocket and /healthz)")
    s.add_argument("--grace", type=pos_float, default=60.0,
                   help="seconds a dropped player keeps the seat (60)")
    s.add_argument("--decision-time", type=pos_float, default=30.0,
                   help="free seconds per decision (30)")
    s.add_argument("--time-bank", type=float, default=300.0,
                   help="seconds of time bank per seat (300)")
    s.add_argument("--max-timeouts", type=pos_int, default=3,
                   help="timeouts in a row that forfeit (3)")
    s.add_argument("--max-frame", type=pos_int, default=4096,
                   help="largest client frame in bytes (4096)")
    s.add_argument("--rate", type=pos_float, default=20.0,
                   help="client messages per second per connection (20; bursts of twice "
                        "that); clients learn it from the welcome message")
    s.add_argument("--max-connections-per-address", type=pos_int, default=64,
                   help="simultaneous connections from one IP address (64)")
    s.add_argument("--handshake-timeout", type=pos_float, default=10.0,
                   help="seconds a new connection has to say hello (10)")
    s.add_argument("--idle-timeout", type=pos_float, default=900.0,
                   help="seconds of client silence before a connection is closed (900)")
    s.add_argument("--send-queue", type=pos_int, default=256,
                   help="messages queued for a slow client before it is disconnected (256)")
    s.add_argument("--inbox", type=pos_int, default=64,
                   help="commands queued per match before 'busy' (64)")
    s.add_argument("--lease-ttl", type=pos_float, default=15.0,
                   help="seconds a match's lease outlives its server process, with Redis "
                        "(15): after a crash another process adopts its matches then")
    s.add_argument("--max-matches", type=pos_int, default=20_000,
                   help="live matches before new ones get 'busy' (20000)")
    s.add_argument("--compression", action="store_true",
                   help="offer permessage-deflate to clients (off: it costs server CPU)")
    s.add_argument("--sqlite-synchronous", default="NORMAL", type=str.upper,
                   choices=["OFF", "NORMAL", "FULL", "EXTRA"],
                   help="NORMAL (default) survives kill -9; FULL also survives power loss, "
                        "at an fsync per group commit")
    s.add_argument("--log-level", default="INFO", type=str.upper,
                   choices=["DEBUG", "INFO", "WARNING", "ERROR"], help="INFO (default)")
    # Test only: fix every match's dice seed (hex).  Hidden: never for real play.
    s.add_argument("--insecure-fixed-seed", default=None, help=argparse.SUPPRESS)


def serve_config(args: argparse.Namespace) -> ServerConfig:
    """The server's configuration from parsed ``serve`` options."""
    return ServerConfig(
        host=args.host, port=args.port, data_dir=args.data_dir, redis_url=args.redis_url,
        secret_file=args.secret_file, client_dir=args.client_dir,
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
            actor=ActorLimits(inbox=args.inbox, lease_ttl=args.lease_ttl)),
        fixed_seed=bytes.fromhex(args.insecure_fixed_seed) if args.insecure_fixed_seed else None,
    )


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
    b.add_argument("--strategy", default="random", help="the bot: random | greedy (random)")
    b.add_argument("--game", default="kickline", help="the ruleset: kickline | toy (kickline)")
    b.add_argument("--mode", default="training",
                   help="kickline: training | standard | advanced (training)")
    b.add_argument("--board", type=int, default=7, help="kickline: 7 or 9 spaces (7)")
    b.add_argument("--teams", default="training,training",
                   help="MINE,THEIRS team ids (kickline: training, fire-demons, cyborgs, "
                        "telekinetics, oozes); a quick match reads only MINE")
    b.add_argument("--private", action="store_true",
                   help="with --create: keep the match off the lobby's list")
    b.add_argument("--name", default="bot", help="the display name (bot)")
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
    add_serve_options(sub.add_parser(
        "serve", help="run the match server (embedded storage by default)",
        description="Run the match server; it also serves the web client."))
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
    config = serve_config(args)

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
        if isinstance(inner, StartupError):
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
            private=args.private, wait=wait, connect_timeout=args.connect_timeout,
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


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    logging.basicConfig(level=args.log_level,
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    if args.command == "serve":
        return _serve(args)
    return _bot(args)


if __name__ == "__main__":
    sys.exit(main())
