"""What ``kickline serve`` says as it starts: one line naming what it serves, a loud
warning when the web client is not built, and, when it cannot start, one line naming
the cause and the fix (an operator's mistake is never answered with a traceback).

:class:`StartupError` carries that line.  ``app.run_server`` turns what goes wrong
before it listens into one with :func:`explain`, phase by phase, because the same
``OSError`` means a full disk while writing the store and a taken port while binding.
"""

from __future__ import annotations

import errno
import json
import os
import socket
import sqlite3
from dataclasses import dataclass
from pathlib import Path
from typing import Final, Literal

LOW_SPACE: Final = 1 << 20
"""Free bytes under which a write failure is reported as a full disk."""

Phase = Literal["data_dir", "secret", "store", "recover", "listen"]


class StartupError(Exception):
    """The server cannot start; ``str()`` is the one line to show the operator."""


@dataclass(frozen=True, slots=True)
class Where:
    """What the server was starting with: the places an error can be about."""

    host: str
    port: int
    data_dir: Path
    redis_url: str | None = None
    secret_file: Path | None = None

    @property
    def database(self) -> Path:
        return self.data_dir / "kickline.sqlite3"


def explain(exc: BaseException, phase: Phase, where: Where) -> StartupError | None:
    """The one-line account of ``exc`` raised in ``phase``, or ``None`` for a bug (which
    then keeps its traceback)."""
    for cause in _chain(exc):
        if phase == "secret" and isinstance(cause, ValueError):
            return StartupError(f"the token secret is unusable ({cause}); make "
                                f"{where.secret_file or 'the secret file'} hold at least 16 "
                                "bytes, e.g. head -c 32 /dev/urandom > FILE")
        if phase == "listen" and isinstance(cause, OSError):
            return _listen(cause, where)
        if isinstance(cause, sqlite3.Error):
            return _sqlite(cause, where)
        if where.redis_url and phase in ("store", "recover") and _is_redis(cause):
            return _redis(cause, where.redis_url)
        if isinstance(cause, OSError):
            return _files(cause, phase, where)
    return None


def _chain(exc: BaseException) -> list[BaseException]:
    """``exc``, then what caused it (a store wraps its driver's error), then the one
    exception inside single-member groups."""
    out: list[BaseException] = []
    todo: list[BaseException | None] = [exc]
    while todo:
        e = todo.pop(0)
        if e is None or e in out:
            continue
        out.append(e)
        if isinstance(e, BaseExceptionGroup) and len(e.exceptions) == 1:
            todo.append(e.exceptions[0])
        todo.append(e.__cause__)
    return out


def _listen(exc: OSError, where: Where) -> StartupError:
    at = f"{where.host}:{where.port}"
    if exc.errno == errno.EADDRINUSE:
        return StartupError(f"port {where.port} on {where.host} is already in use (another "
                            "kickline serve, or another program); stop it, or choose "
                            "another port with --port")
    if exc.errno in (errno.EACCES, errno.EPERM):
        return StartupError(f"not allowed to listen on {at} (ports below 1024 need root); "
                            "use --port 8765 (or any port above 1023) behind a proxy")
    if isinstance(exc, socket.gaierror) or exc.errno == errno.EADDRNOTAVAIL:
        return StartupError(f"cannot listen on host {where.host!r}: it is not an address of "
                            "this machine; use --host 127.0.0.1 (this machine only) or "
                            "--host 0.0.0.0 (every interface)")
    return StartupError(f"cannot listen on {at}: {exc.strerror or exc}; check --host and "
                        "--port")


def _is_redis(exc: BaseException) -> bool:
    return type(exc).__module__.startswith("redis") or type(exc).__name__ == (
        "StoreUnavailable") or isinstance(exc, ValueError)


def _redis(exc: BaseException, url: str) -> StartupError:
    shown = mask(url)
    if isinstance(exc, ValueError):
        return StartupError(f"--redis-url {shown!r} is not a Redis URL ({exc}); write it as "
                            "redis://HOST:PORT/DB (rediss:// for TLS)")
    return StartupError(f"cannot reach Redis at {shown} ({exc}); start Redis there, or fix "
                        "--redis-url (leave it out to use the embedded store)")


def mask(url: str) -> str:
    """``url`` without its password, for the log."""
    head, sep, tail = url.rpartition("@")
    if not sep:
        return url
    scheme, _, auth = head.partition("://")
    user = auth.partition(":")[0]
    return f"{scheme}://{user + ':' if user else ''}***@{tail}"


def _sqlite(exc: sqlite3.Error, where: Where) -> StartupError:
    db = where.database
    text = str(exc)
    if "not a database" in text or "malformed" in text:
        backup = newest_backup(where.data_dir)
        restore = (f"restore the newest backup ({backup}) over it" if backup else
                   "restore it from your backup (deploy/README.md, Backups)")
        return StartupError(f"the store {db} is corrupt ({text}); with the server stopped, "
                            f"{restore}, or move it aside to start with an empty store")
    if "full" in text or _low_space(where.data_dir):
        return _full(where.data_dir, text)
    if "readonly" in text or not _writable(where.data_dir):
        return _read_only(where.data_dir, text)
    if "unable to open" in text:
        return StartupError(f"cannot open the store {db} ({text}); check that --data-dir "
                            f"{where.data_dir} is a directory this user can write")
    return StartupError(f"the store {db} failed ({text}); check the disk (df, the system "
                        "log), or restore the store from your backup (deploy/README.md)")


def _files(exc: OSError, phase: Phase, where: Where) -> StartupError:
    path = exc.filename or where.data_dir
    why = exc.strerror or str(exc)
    if phase == "secret" and where.secret_file is not None:
        return StartupError(f"cannot read --secret-file {where.secret_file} ({why}); point "
                            "it at a readable file of at least 16 bytes")
    if exc.errno == errno.ENOSPC or _low_space(where.data_dir):
        return _full(where.data_dir, why)
    if exc.errno in (errno.EROFS, errno.EACCES, errno.EPERM):
        return _read_only(where.data_dir, f"{path}: {why}")
    if exc.errno in (errno.ENOTDIR, errno.EEXIST):
        return StartupError(f"--data-dir {where.data_dir} is not a directory ({path} is a "
                            "file); choose a directory, e.g. --data-dir ./data")
    return StartupError(f"cannot use the data directory {where.data_dir} ({path}: {why}); "
                        "choose another with --data-dir")


def _full(data_dir: Path, why: str) -> StartupError:
    return StartupError(f"the disk holding {data_dir} is full ({why}; "
                        f"{_free(data_dir)} free); free some space (df -h {data_dir}), then "
                        "start again")


def _read_only(data_dir: Path, why: str) -> StartupError:
    return StartupError(f"the data directory {data_dir} is not writable ({why}); the server "
                        "must write its store there: make it writable by this user (chown), "
                        "remount it read-write, or choose another with --data-dir")


def _existing(path: Path) -> Path:
    while not path.exists() and path != path.parent:
        path = path.parent
    return path


def _free_bytes(data_dir: Path) -> int | None:
    try:
        st = os.statvfs(_existing(data_dir))
    except OSError:
        return None
    return st.f_bavail * st.f_frsize


def _low_space(data_dir: Path) -> bool:
    free = _free_bytes(data_dir)
    return free is not None and free < LOW_SPACE


def _free(data_dir: Path) -> str:
    free = _free_bytes(data_dir)
    return "unknown space" if free is None else f"{free // 1024} KiB"


def _writable(data_dir: Path) -> bool:
    return os.access(_existing(data_dir), os.W_OK)


def newest_backup(data_dir: Path) -> Path | None:
    """The newest copy of the store kept where deploy/README.md puts backups: in
    ``backups/`` of the data directory (``kickline backup DEST`` directories, or bare
    ``*.sqlite3`` copies), or in the ``backup-v*/`` directories ``kickline migrate``
    makes before it migrates."""
    patterns = ("backups/*/kickline.sqlite3", "backups/*.sqlite3", "backup-*/kickline.sqlite3")
    found = [p for pattern in patterns for p in data_dir.glob(pattern) if p.is_file()]
    return max(found, key=lambda p: p.stat().st_mtime) if found else None


def client_build(client_dir: Path | None) -> str | None:
    """What the web client's build holds (``client/build/manifest.json``), or ``None``
    when it is not built: then browsers get the client's pages but no Pyodide preview of
    legal moves (the rules wheel and Pyodide are what ``make client`` builds)."""
    if client_dir is None:
        return None
    try:
        manifest = json.loads((client_dir / "build" / "manifest.json").read_text())
    except (OSError, ValueError):
        return None
    if not isinstance(manifest, dict):
        return None
    wheel = str(manifest.get("wheel", "")).removeprefix("/")
    if not wheel or not (client_dir / wheel).is_file():
        return None  # a manifest left behind by a build that did not finish
    pyodide = str(manifest.get("pyodide", "")).strip("/").rsplit("/", 1)[-1]
    return (f"{client_dir / 'build'} (rules wheel {wheel.rsplit('/', 1)[-1]}, "
            f"Pyodide {pyodide or '?'})")
