"""Where ``kickline serve``'s settings come from: one table, four sources.

Every option is declared once in :data:`OPTIONS`.  From that one entry come its
command-line flag (``--decision-time``), its environment variable
(``KICKLINE_DECISION_TIME``), its key in the TOML file given by ``--config``
(``decision_time``) and its ``--help`` line.  :func:`resolve` picks each value by
precedence: **flag > environment > file > default**, and remembers where it came
from, so ``kickline serve --print-config`` can show it (secrets masked).

A value that does not parse is an operator's mistake: :class:`ConfigError` carries
one line naming the source (flag, variable or file key) and what it must be.
"""

from __future__ import annotations

import argparse
import os
import tomllib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final
from urllib.parse import urlsplit, urlunsplit

ENV_PREFIX: Final = "KICKLINE_"


class ConfigError(ValueError):
    """A setting that cannot be used; the message is one line for the operator."""


CHECKOUT: Final = Path(__file__).resolve().parents[2]


def default_data_dir() -> Path:
    """``./data`` of the checkout when run from a source checkout (``make serve``: each
    clone its own matches; git-ignored), else the per-user data directory
    (``$XDG_DATA_HOME/kickline``, ``~/.local/share/kickline``)."""
    if (CHECKOUT / "pyproject.toml").is_file() and (CHECKOUT / "server").is_dir():
        return CHECKOUT / "data"
    base = os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share"
    return Path(base) / "kickline"


def find_client_dir() -> Path:
    """The web client to serve: the one a wheel installs beside this package
    (``kickline_server/client``, put there by ``setup.py``'s build step), else the
    working tree's ``client/`` (an editable install, or running from a checkout)."""
    here = Path(__file__).resolve().parent
    installed = here / "client"
    if (installed / "index.html").is_file():
        return installed
    return here.parents[1] / "client"


def mask_url(value: Any) -> str:
    """A URL with its password (if any) replaced by ``***``."""
    parts = urlsplit(str(value))
    if parts.password is None:
        return str(value)
    user = parts.username or ""
    host = parts.hostname or ""
    if parts.port is not None:
        host = f"{host}:{parts.port}"
    return urlunsplit(parts._replace(netloc=f"{user}:***@{host}"))


def _mask_all(value: Any) -> str:
    return "***"


@dataclass(frozen=True, slots=True)
class Option:
    """One setting of ``kickline serve``."""

    name: str
    """Python name; the TOML key.  The flag is ``--`` + name with ``-`` for ``_``, the
    environment variable ``KICKLINE_`` + NAME."""
    kind: type
    """``str``, ``int``, ``float``, ``bool`` or ``Path``."""
    default: Any
    help: str
    choices: tuple[str, ...] | None = None
    mask: Callable[[Any], str] | None = None
    """How ``--print-config`` shows a value that may hold a secret."""
    default_text: str | None = None
    """How ``--help`` shows the default, when ``str(default)`` would not do."""
    bounds: tuple[float, float] | None = None
    """The smallest and largest value allowed, for a number."""

    @property
    def flag(self) -> str:
        return "--" + self.name.replace("_", "-")

    @property
    def env(self) -> str:
        return ENV_PREFIX + self.name.upper()

    def parse(self, raw: Any, source: str) -> Any:
        """``raw`` (a string from a flag or the environment, or a TOML value) as this
        option's type; :class:`ConfigError` naming ``source`` if it is not one."""
        kind = self.kind
        try:
            if kind is bool:
                value: Any = _bool(raw)
            elif isinstance(raw, str):
                value = kind(raw)
            elif kind is float and isinstance(raw, int | float) and not isinstance(raw, bool):
                value = float(raw)
            elif kind is int and isinstance(raw, int) and not isinstance(raw, bool):
                value = raw
            else:
                raise ValueError
        except ValueError:
            raise ConfigError(f"{source}={raw!r} is not {_KIND_TEXT[kind]}") from None
        if self.bounds is not None and not self.bounds[0] <= value <= self.bounds[1]:
            low, high = (f"{b:g}" for b in self.bounds)
            raise ConfigError(f"{source}={raw!r} is out of range ({low} to {high})")
        if self.choices is not None:
            value = str(value).upper() if self.choices[0].isupper() else str(value)
            if value not in self.choices:
                raise ConfigError(f"{source}={raw!r} is not one of {', '.join(self.choices)}")
        return value


_KIND_TEXT: Final[dict[type, str]] = {
    str: "a string", int: "an integer", float: "a number", bool: "true or false",
    Path: "a path",
}


def _bool(raw: Any) -> bool:
    if isinstance(raw, bool):
        return raw
    if isinstance(raw, str):
        text = raw.strip().lower()
        if text in ("1", "true", "yes", "on"):
            return True
        if text in ("0", "false", "no", "off", ""):
            return False
    raise ValueError


OPTIONS: Final[tuple[Option, ...]] = (
    Option("host", str, "127.0.0.1",
           "address to listen on: 127.0.0.1 is this machine only, 0.0.0.0 every interface "
           "(phones on your network)"),
    Option("port", int, 8765, "port (0 picks a free one)", bounds=(0, 65535)),
    Option("data_dir", Path, None,
           "where the embedded store, token secret and server id live",
           default_text="./data in a source checkout, else ~/.local/share/kickline"),
    Option("redis_url", str, None,
           "store matches in Redis instead of the embedded SQLite store "
           "(redis://[:password@]host:6379/0)", mask=mask_url),
    Option("secret_file", Path, None,
           "file holding the token secret: text, or the raw bytes of another server's "
           "secret.key (default: generated in the data dir)"),
    Option("client_dir", Path, None, "static files to serve at / (the web client)",
           default_text="the client installed with the package, else the checkout's client/"),
    Option("grace", float, 60.0, "seconds a player may be away before the opponent may "
           "claim the win (being away never forfeits by itself)"),
    Option("restart_grace", float, 60.0, "seconds added to every owed decision's clock "
           "when matches resume after a restart"),
    # The rated quick-match window (matchqueue.Window) and the queue's pace.
    Option("queue_window", float, 50.0, "rated quick match: the rating gap a player "
           "accepts on arrival"),
    Option("queue_window_step", float, 50.0, "rated quick match: how much the gap widens "
           "at each step"),
    Option("queue_window_every", float, 5.0, "rated quick match: seconds of waiting per "
           "step"),
    Option("queue_window_cap", float, 400.0, "rated quick match: the widest gap"),
    Option("queue_tick", float, 1.0, "seconds between re-pairings of the rated queues (and "
           "waiting counts sent; with Redis, between refreshes of this process's part "
           "of the lobby list)"),
    Option("requeue_grace", float, 120.0, "seconds a player whose connection dropped keeps "
           "their waiting time if they queue again"),
    Option("challenge_ttl", float, 300.0, "seconds a challenge or a rematch offer waits "
           "for its answer"),
    Option("challenges_out", int, 3, "challenges one player may have waiting at once"),
    Option("challenges_in", int, 10, "challenges that may wait for one player at once"),
    Option("decision_time", float, 30.0, "free seconds per decision"),
    Option("time_bank", float, 300.0, "seconds of time bank per seat"),
    Option("max_timeouts", int, 3, "timeouts in a row that forfeit"),
    Option("max_frame", int, 4096, "largest client frame in bytes"),
    Option("rate", float, 20.0, "client messages per second (burst: twice this)"),
    Option("max_connections_per_address", int, 256,
           "simultaneous websockets and downloads per address (a club of 40 phones "
           "loading the page at once)"),
    Option("trusted_proxy", str, None,
           "reverse proxies whose X-Forwarded-For names the client: addresses or CIDRs, "
           "comma-separated (e.g. 127.0.0.1,::1); unset, the header is ignored"),
    # Budgets (budgets.py): per client address (an IPv6 /64) and per identity; 0 = off.
    Option("connections_per_minute", int, 240,
           "websockets and requests other than the client's files, per address per minute"),
    Option("files_per_minute", int, 2400,
           "requests for the client's files per address per minute (a page load is ~60)"),
    Option("half_open_per_address", int, 256,
           "connections per address that have not sent their HTTP request yet"),
    Option("identities_per_hour", int, 60, "new players (hello without a token) per address "
           "per hour"),
    Option("creates_per_hour", int, 60, "matches one player may create per hour"),
    Option("creates_per_hour_per_address", int, 480, "matches created per address per hour "
           "(a tournament's matches are the server's: not counted)"),
    Option("waiting_per_player", int, 3,
           "matches waiting for an opponent that one player may hold at once"),
    Option("waiting_per_address", int, 40, "waiting matches held per address at once"),
    Option("live_per_player", int, 10,
           "matches not over (waiting or playing) one player may hold at once"),
    Option("live_per_address", int, 120, "matches not over held per address at once (a "
           "tournament's matches are the server's: not counted)"),
    Option("code_misses_per_minute", int, 10,
           "invite codes matching nothing a player may try per minute before a lockout"),
    Option("code_misses_per_minute_per_address", int, 30,
           "invite codes matching nothing an address may try per minute before a lockout"),
    Option("lockout", float, 60.0, "seconds of the first code lockout; each next one doubles"),
    Option("max_lockout", float, 3600.0, "the longest code lockout, in seconds"),
    Option("watches_per_minute", int, 30, "watch requests per player per minute"),
    Option("watches_per_minute_per_address", int, 120, "watch requests per address per minute"),
    Option("reveal_timeout", float, 20.0,
           "seconds the first roll waits for the players' dice contributions"),
    Option("keep_logs_days", float, 90.0,
           "days a finished match's full log (its replay) is kept after it ended"),
    Option("keep_records_days", float, 0.0,
           "days a finished match's record (result, players, ratings) is kept; 0: forever"),
    Option("purge_every", float, 3600.0, "seconds between retention purges"),
    Option("waiting_grace", float, 120.0,
           "seconds a waiting match outlives its creator's last connection"),
    Option("static_stall", float, 20.0,
           "seconds a client may take to accept a chunk of a static file before it is cut off"),
    Option("static_min_rate", float, 16384.0,
           "bytes per second a static download must average after its first minute"),
    Option("handshake_timeout", float, 10.0, "seconds to wait for a new client's hello"),
    Option("idle_timeout", float, 900.0, "seconds a silent connection stays open"),
    Option("send_queue", int, 256, "messages queued per connection before it is dropped"),
    Option("inbox", int, 64, "commands queued per match"),
    Option("log_window", int, 64,
           "log entries a live match keeps in memory (older ones are read back from the "
           "store for a reconnect that missed more)"),
    Option("snapshot_every", int, 32,
           "log entries between two whole snapshots of a match (the saves between append "
           "the log only; a restart replays that tail)"),
    Option("gc_every", float, 0.1,
           "seconds between the server's own short collections of new objects, each "
           "freezing the survivors out of later collections (keeps GC pauses short "
           "with many live matches)"),
    Option("gc_decisions", int, 50,
           "commands the matches take (decisions, mostly; a closed connection counts "
           "as one) after which a short collection comes even if --gc-every has not "
           "passed (0: on time only; a busy server runs the timed ones late, and a "
           "collection walks what was made since the last one)"),
    Option("gc_full_every", float, 0.0,
           "seconds between full collections, frozen objects included (0: never; the "
           "server leaves no garbage cycles among them that one would free, and it "
           "pauses ~0.3-0.6 s at 1 000 live matches; /status says what one freed)"),
    Option("lease_ttl", float, 15.0,
           "seconds a match's lease lasts unrenewed (with Redis: how soon another "
           "process adopts the matches of one that died)"),
    Option("max_matches", int, 20_000, "live matches per process"),
    Option("workers", int, 1,
           "server processes sharing the port (SO_REUSEPORT) and the Redis: one per core "
           "(needs --redis-url; with the embedded store it stays one process)"),
    Option("drain_timeout", float, 10.0,
           "on SIGTERM: seconds the matches get to stop and be handed over before exit"),
    Option("bot_seconds", float, 1.0,
           "seconds the strong and strongest bots may think per decision"),
    Option("bot_threads", int, 1,
           "strong or strongest bot decisions worked out at once (each keeps a CPU busy)"),
    Option("pairing_timeout", float, 600.0, "seconds one Swiss pairing may take (1,000 "
           "players take tens of seconds)"),
    Option("max_tournaments", int, 200, "unfinished tournaments per server"),
    Option("no_show_check", float, 5.0, "seconds between checks for tournament no-shows "
           "no match decides (a roster line nobody claimed)", bounds=(0.1, 3600.0)),
    Option("compression", bool, False,
           "offer permessage-deflate to clients (off: it costs server CPU)"),
    Option("event_loop", str, "uvloop",
           "uvloop (libuv's event loop, a dependency: measured a tenth to a fifth less server "
           "CPU per decision) or asyncio (the standard library's)",
           choices=("uvloop", "asyncio")),
    Option("sqlite_synchronous", str, "NORMAL",
           "NORMAL survives kill -9; FULL also survives power loss, at an fsync per "
           "group commit", choices=("OFF", "NORMAL", "FULL", "EXTRA")),
    Option("log_level", str, "INFO", "DEBUG, INFO, WARNING or ERROR",
           choices=("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")),
    Option("log_format", str, "text",
           "text, or json: one JSON object per line, with the match, player and "
           "tournament ids", choices=("text", "json")),
    Option("admin_password", str, None,
           "opens the operator's status page /status (HTTP Basic auth, user admin)",
           mask=_mask_all),
)
"""Every ``kickline serve`` option.  Add one here and it has a flag, a variable, a
file key, a help line and a line in ``--print-config``."""

BY_NAME: Final = {o.name: o for o in OPTIONS}


@dataclass(frozen=True, slots=True)
class Settings:
    """Resolved values and where each came from (``flag``, ``env``, ``file``,
    ``default``)."""

    values: Mapping[str, Any]
    sources: Mapping[str, str]
    file: Path | None = None

    def __getattr__(self, name: str) -> Any:
        try:
            return self.values[name]
        except KeyError:
            raise AttributeError(name) from None

    def describe(self) -> str:
        """The settings as TOML a file could hold, each with its source; secrets masked."""
        lines = [f"# kickline serve settings (precedence: flag > {ENV_PREFIX}* > "
                 f"{self.file or 'config file'} > default)"]
        for o in OPTIONS:
            value = self.values[o.name]
            source = self.sources[o.name]
            where = {"flag": o.flag, "env": o.env, "file": f"file {self.file}",
                     "default": "default"}[source]
            if value is None:
                lines.append(f"# {o.name} = (unset)  # {where}")
                continue
            shown = o.mask(value) if o.mask is not None else value
            lines.append(f"{o.name} = {_toml(shown)}  # {where}")
        return "\n".join(lines)


def _toml(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return repr(value)
    text = str(value).replace("\\", "\\\\").replace('"', '\\"')
    return f'"{text}"'


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add every option's flag to ``parser``.  Flags default to "not given" (absent from
    the namespace), so :func:`resolve` can tell a flag from a default."""
    parser.add_argument("--config", type=Path, default=argparse.SUPPRESS,
                        help=f"a TOML file of settings (keys as below, e.g. port = 8765); "
                             f"env {ENV_PREFIX}CONFIG")
    parser.add_argument("--print-config", action="store_true",
                        help="print the resolved settings and where each came from, "
                             "then exit (secrets masked)")
    for o in OPTIONS:
        default = o.default_text or ("none" if o.default is None else str(o.default).lower()
                                     if o.kind is bool else str(o.default))
        text = f"{o.help} ({default}; env {o.env})"
        if o.kind is bool:
            parser.add_argument(o.flag, action="store_const", const="true",
                                default=argparse.SUPPRESS, help=text)
        else:
            parser.add_argument(o.flag, default=argparse.SUPPRESS, help=text,
                                metavar=o.name.upper(),
                                choices=None if o.choices is None else
                                [*o.choices, *(c.lower() for c in o.choices)])


def read_file(path: Path) -> dict[str, Any]:
    """The settings in a TOML file; :class:`ConfigError` for an unreadable file, bad TOML
    or an unknown key."""
    try:
        with path.open("rb") as f:
            data = tomllib.load(f)
    except OSError as exc:
        raise ConfigError(f"cannot read the config file {path}: {exc.strerror}") from None
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path} is not valid TOML: {exc}") from None
    unknown = sorted(set(data) - set(BY_NAME))
    if unknown:
        raise ConfigError(f"{path}: unknown setting {unknown[0]!r} (known: "
                          f"{', '.join(sorted(BY_NAME))})")
    return data


def resolve(given: argparse.Namespace | Mapping[str, Any],
            environ: Mapping[str, str] | None = None) -> Settings:
    """Each option's value by precedence flag > environment > file > default."""
    flags = dict(vars(given)) if isinstance(given, argparse.Namespace) else dict(given)
    env = os.environ if environ is None else environ
    path_text = flags.get("config") or env.get(ENV_PREFIX + "CONFIG") or None
    path = Path(path_text) if path_text else None
    file = read_file(path) if path is not None else {}
    values: dict[str, Any] = {}
    sources: dict[str, str] = {}
    for o in OPTIONS:
        if o.name in flags and flags[o.name] is not None:
            values[o.name] = o.parse(flags[o.name], o.flag)
            sources[o.name] = "flag"
        elif env.get(o.env, "") != "":
            values[o.name] = o.parse(env[o.env], o.env)
            sources[o.name] = "env"
        elif o.name in file:
            value = o.parse(file[o.name], f"{o.name} in {path}")
            if o.kind is Path and path is not None and not value.is_absolute():
                value = path.parent / value  # relative to the file, not to the cwd
            values[o.name] = value
            sources[o.name] = "file"
        else:
            values[o.name] = o.default
            sources[o.name] = "default"
    if values["data_dir"] is None:
        values["data_dir"] = default_data_dir()
    if values["client_dir"] is None:
        values["client_dir"] = find_client_dir()
    return Settings(values, sources, path)
