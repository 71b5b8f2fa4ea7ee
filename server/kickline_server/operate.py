"""``kickline backup`` and ``kickline migrate``: the operator's data commands.

* **backup** copies the embedded store while the server runs, with SQLite's online
  backup API (a consistent snapshot, page by page, never a torn file), checks the copy
  (``PRAGMA integrity_check``) and copies the token key file beside it.  With Redis it
  asks Redis for a snapshot (``BGSAVE``), waits for it to finish and says where Redis
  wrote it: Redis's own files are the backup (deploy/README.md, "Backups").
* **migrate** says which schema version the data has and which versioned migrations
  (:mod:`.migrations`) this kickline would apply, and applies them (``--check`` only
  reports: exit 1 when some are pending).  An embedded store is backed up first, and
  is refused while a server holds its data directory.
"""

from __future__ import annotations

import fcntl
import os
import shutil
import sqlite3
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import anyio
import redis.asyncio as aioredis
from redis.exceptions import RedisError

from .migrations import LATEST, MIGRATIONS, migrate_redis, migrate_sqlite, too_new
from .store import SchemaTooNew

DB_NAME = "kickline.sqlite3"
KEY_FILES = ("secret.key",)


class OperateError(Exception):
    """What went wrong, in one line for the operator."""


@dataclass(frozen=True, slots=True)
class Backup:
    path: Path
    bytes: int
    matches: int


def backup_sqlite(data_dir: Path, dest: Path, *, pages: int = 1024) -> Backup:
    """Copy ``data_dir``'s store to ``dest/kickline.sqlite3`` (and its key file), safely
    while a server writes to it."""
    src_path = data_dir / DB_NAME
    if not src_path.is_file():
        raise OperateError(f"no kickline store in {data_dir} (give --data-dir)")
    dest.mkdir(parents=True, exist_ok=True)
    out = dest / DB_NAME
    if out.exists():
        raise OperateError(f"{out} exists already; give an empty or new directory")
    tmp = out.with_name(out.name + ".partial")
    tmp.unlink(missing_ok=True)
    src = sqlite3.connect(f"file:{src_path}?mode=ro", uri=True)
    try:
        dst = sqlite3.connect(tmp)
        try:
            # Page by page: a busy server's writes go on between steps (WAL readers never
            # block writers), and the copy is one consistent snapshot in the end.
            src.backup(dst, pages=pages)
            ok = dst.execute("PRAGMA integrity_check").fetchone()[0]
            if ok != "ok":
                raise OperateError(f"the copy failed its integrity check: {ok}")
            matches = int(dst.execute("SELECT count(*) FROM matches").fetchone()[0])
        finally:
            dst.close()
    except sqlite3.Error as exc:
        tmp.unlink(missing_ok=True)
        raise OperateError(f"cannot back up {src_path}: {exc}") from exc
    finally:
        src.close()
    os.replace(tmp, out)
    for name in KEY_FILES:
        key = data_dir / name
        if key.is_file():
            shutil.copy2(key, dest / name)
            os.chmod(dest / name, 0o600)
    return Backup(out, out.stat().st_size, matches)


async def backup_redis(url: str, *, timeout: float = 600.0) -> dict[str, Any]:
    """``BGSAVE`` and wait for it; returns where Redis wrote the snapshot."""
    r: aioredis.Redis = aioredis.Redis.from_url(url, socket_timeout=10)
    try:
        before = int((await r.info("persistence")).get("rdb_saves", 0))
        try:
            await r.bgsave()
        except RedisError as exc:
            if "in progress" not in str(exc):
                raise
        deadline = time.monotonic() + timeout
        while True:  # rdb_saves counts finished snapshots (LASTSAVE has 1 s resolution)
            info = await r.info("persistence")
            if int(info.get("rdb_saves", 0)) > before and not info.get(
                    "rdb_bgsave_in_progress"):
                break
            if time.monotonic() > deadline:
                raise OperateError("Redis did not finish its snapshot (BGSAVE) in time")
            await anyio.sleep(0.1)
        if info.get("rdb_last_bgsave_status") != "ok":
            raise OperateError("Redis failed to write its snapshot (see Redis's log)")
        where: dict[str, Any] = {"rdb_last_bgsave_status": info.get("rdb_last_bgsave_status"),
                                 "aof_enabled": bool(info.get("aof_enabled"))}
        try:
            cfg = await r.config_get("dir")
            cfg.update(await r.config_get("dbfilename"))
            where["file"] = f"{_text(cfg.get('dir'))}/{_text(cfg.get('dbfilename'))}"
        except RedisError:  # CONFIG may be disabled on a managed Redis
            where["file"] = None
        return where
    except (RedisError, OSError) as exc:
        raise OperateError(f"cannot back up Redis at {url}: {exc}") from exc
    finally:
        await r.aclose()


def _text(v: Any) -> str:
    return v.decode() if isinstance(v, bytes) else str(v)


# --- migrate ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Plan:
    version: int
    pending: list[tuple[int, str]]


def plan(version: int) -> Plan:
    if version > LATEST:
        raise SchemaTooNew(too_new(version))
    return Plan(version, [(m.version, m.what) for m in MIGRATIONS if m.version > version])


def sqlite_version(data_dir: Path) -> int:
    path = data_dir / DB_NAME
    if not path.is_file():
        raise OperateError(f"no kickline store in {data_dir} (give --data-dir)")
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        return int(db.execute("PRAGMA user_version").fetchone()[0])
    finally:
        db.close()


def migrate_embedded(data_dir: Path) -> tuple[list[int], Backup | None]:
    """Apply the pending migrations to an embedded store no server is running on, after
    backing it up to ``data_dir/backup-v<version>-<time>/``."""
    version = sqlite_version(data_dir)
    if not plan(version).pending:
        return [], None
    fd = os.open(data_dir / "server.lock", os.O_RDWR | os.O_CREAT, 0o600)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise OperateError(f"a kickline server is running on {data_dir}; stop it first "
                               "(or just restart it: serve applies migrations itself)") from None
        saved = backup_sqlite(data_dir, data_dir / f"backup-v{version}-{int(time.time())}")
        db = sqlite3.connect(data_dir / DB_NAME, isolation_level=None)
        try:
            return migrate_sqlite(db), saved
        finally:
            db.close()
    finally:
        os.close(fd)


async def redis_version(url: str, prefix: str) -> int:
    r: aioredis.Redis = aioredis.Redis.from_url(url, socket_timeout=10)
    try:
        return int(await r.get(prefix + "schema") or 0)
    except (RedisError, OSError) as exc:
        raise OperateError(f"cannot reach Redis at {url}: {exc}") from exc
    finally:
        await r.aclose()


async def migrate_shared(url: str, prefix: str) -> list[int]:
    r: aioredis.Redis = aioredis.Redis.from_url(url, socket_timeout=10)
    try:
        return await migrate_redis(r, prefix)
    except (RedisError, OSError) as exc:
        raise OperateError(f"cannot migrate Redis at {url}: {exc}") from exc
    finally:
        await r.aclose()
