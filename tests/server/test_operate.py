"""``kickline backup`` and ``kickline migrate`` as an operator runs them."""

from __future__ import annotations

import contextlib
import io
import os
import sqlite3
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import anyio
import pytest
from journeys import quick_match

from kickline_server import migrations
from kickline_server.cli import main

pytestmark = pytest.mark.anyio

TOY = {"game": "toy", "config": {"mode": "training", "board": 25}}


@dataclass
class Done:
    returncode: int
    stdout: str
    stderr: str


def kickline(*args: str, env: dict[str, str] | None = None) -> Done:
    """``kickline ARGS`` in this process (a new interpreter per call costs seconds)."""
    out, err = io.StringIO(), io.StringIO()
    saved = dict(os.environ)
    os.environ.update(env or {})
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = main(list(args))
    finally:
        os.environ.clear()
        os.environ.update(saved)
    return Done(code, out.getvalue(), err.getvalue())


async def test_backup_while_the_server_runs_copies_a_consistent_store(
    serve: Any, server_config: Any, client: Any, tmp_path: Path
) -> None:
    config = server_config()
    async with serve(config) as url, client(url) as a, client(url) as b:
        await a.hello("a")
        await b.hello("b")
        m, _ = await quick_match(a, b, TOY)
        done = await anyio.to_thread.run_sync(
            lambda: kickline("backup", str(tmp_path / "bk"),
                             env={"KICKLINE_DATA_DIR": str(config.data_dir)}))
        assert done.returncode == 0, done.stderr
        assert done.stdout.startswith("backed up 1 matches")
    db = sqlite3.connect(tmp_path / "bk" / "kickline.sqlite3")
    assert db.execute("SELECT id FROM matches").fetchall() == [(m["match"],)]
    assert db.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    key = tmp_path / "bk" / "secret.key"
    assert key.read_bytes() == (config.data_dir / "secret.key").read_bytes()
    assert key.stat().st_mode & 0o077 == 0
    again = kickline("backup", str(tmp_path / "bk"), "--data-dir", str(config.data_dir))
    assert again.returncode == 2 and "exists already" in again.stderr
    missing = kickline("backup", str(tmp_path / "x"), "--data-dir", str(tmp_path / "none"))
    assert missing.returncode == 2 and missing.stderr.startswith("kickline: no kickline store")


async def test_backup_of_redis_takes_a_redis_snapshot(redis_proc: Any) -> None:
    done = await anyio.to_thread.run_sync(lambda: kickline("backup", "--redis-url",
                                                           redis_proc.url))
    assert done.returncode == 0, done.stderr
    assert str(redis_proc.workdir) in done.stdout and "AOF on" in done.stdout
    assert (redis_proc.workdir / "dump.rdb").is_file()


def test_migrate_reports_then_applies_with_a_backup_first(tmp_path: Path) -> None:
    data = tmp_path / "data"
    data.mkdir()
    sqlite3.connect(data / "kickline.sqlite3").execute(  # a store of the first release
        "CREATE TABLE matches (id TEXT PRIMARY KEY, snapshot BLOB NOT NULL, "
        "log_len INTEGER NOT NULL, finished INTEGER NOT NULL)").connection.close()
    check = kickline("migrate", "--check", "--data-dir", str(data))
    assert check.returncode == 1, check.stderr
    assert f"schema version 0; this kickline knows up to {migrations.LATEST}" in check.stdout
    assert "pending 1: players" in check.stdout
    done = kickline("migrate", "--data-dir", str(data))
    assert done.returncode == 0, done.stderr
    assert f"applied migrations {list(range(1, migrations.LATEST + 1))}" in done.stdout
    backups = list(data.glob("backup-v0-*/kickline.sqlite3"))
    assert len(backups) == 1
    assert sqlite3.connect(backups[0]).execute("PRAGMA user_version").fetchone() == (0,)
    assert kickline("migrate", "--check", "--data-dir", str(data)).returncode == 0
    newer = sqlite3.connect(data / "kickline.sqlite3")
    newer.execute(f"PRAGMA user_version = {migrations.LATEST + 1}")
    newer.close()
    refused = kickline("migrate", "--data-dir", str(data))
    assert refused.returncode == 2 and "written by a newer kickline server" in refused.stderr


async def test_migrate_refuses_while_a_server_holds_the_data_dir(
    serve: Any, server_config: Any, tmp_path: Path
) -> None:
    config = server_config()
    async with serve(config):
        db = sqlite3.connect(config.data_dir / "kickline.sqlite3")
        db.execute("PRAGMA user_version = 0")  # pretend a migration is pending
        db.close()
        done = await anyio.to_thread.run_sync(
            lambda: kickline("migrate", "--data-dir", str(config.data_dir)))
    assert done.returncode == 2 and "a kickline server is running" in done.stderr


async def test_migrate_a_redis_store(redis_proc: Any) -> None:
    check = await anyio.to_thread.run_sync(
        lambda: kickline("migrate", "--check", "--redis-url", redis_proc.url))
    assert check.returncode == 1 and "schema version 0" in check.stdout
    done = await anyio.to_thread.run_sync(
        lambda: kickline("migrate", "--redis-url", redis_proc.url))
    assert done.returncode == 0 and "applied migrations" in done.stdout
