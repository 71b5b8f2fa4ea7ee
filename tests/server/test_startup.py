"""``kickline serve`` as an operator starts it: the start-up line, and one line naming
the cause and the fix (never a traceback) for every way it cannot start."""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import urllib.request
from collections.abc import Callable
from pathlib import Path

import pytest
from test_cli import ENV, ServerProc, one_line_error


def serve(*args: str, prefix: list[str] | None = None) -> subprocess.CompletedProcess[str]:
    """Run ``kickline serve ARGS`` expecting it to refuse to start."""
    return subprocess.run([*(prefix or []), sys.executable, "-m", "kickline_server.cli",
                           "serve", "--port", "0", *args],
                          env=ENV, capture_output=True, text=True, timeout=60)


def refused(p: subprocess.CompletedProcess[str]) -> str:
    assert p.returncode == 2, p.stderr
    return one_line_error(p)


def test_a_port_in_use(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        line = refused(serve("--data-dir", str(tmp_path), "--port", str(port)))
    assert f"port {port} on 127.0.0.1 is already in use" in line and "--port" in line


def test_a_host_that_is_not_here(tmp_path: Path) -> None:
    line = refused(serve("--data-dir", str(tmp_path), "--host", "192.0.2.1"))
    assert "cannot listen on host '192.0.2.1'" in line and "--host 0.0.0.0" in line


def test_a_bad_port_number() -> None:
    line = refused(serve("--port", "70000"))
    assert line == "kickline: --port='70000' is out of range (0 to 65535)"


def test_a_redis_url_that_is_not_one(tmp_path: Path) -> None:
    line = refused(serve("--data-dir", str(tmp_path), "--redis-url", "localhost:6379"))
    assert "--redis-url 'localhost:6379' is not a Redis URL" in line
    assert "redis://HOST:PORT/DB" in line


def test_a_redis_that_does_not_answer(tmp_path: Path, port: Callable[[], int]) -> None:
    url = f"redis://:hunter2@127.0.0.1:{port()}/0"
    line = refused(serve("--data-dir", str(tmp_path), "--redis-url", url))
    assert "cannot reach Redis at redis://***@127.0.0.1:" in line and "hunter2" not in line


def test_a_data_dir_that_is_a_file(tmp_path: Path) -> None:
    (tmp_path / "file").touch()
    line = refused(serve("--data-dir", str(tmp_path / "file")))
    assert f"--data-dir {tmp_path / 'file'} is not a directory" in line


def test_a_corrupt_store_names_the_backup_to_restore(tmp_path: Path) -> None:
    (tmp_path / "kickline.sqlite3").write_bytes(b"not a database, but long enough to read" * 30)
    # `kickline backup DEST` directories in DATA_DIR/backups/ (deploy/README.md) and the
    # copy `kickline migrate` made: the newest is named.
    older, newest = tmp_path / "backups" / "monday", tmp_path / "backups" / "tuesday"
    for i, where in enumerate((tmp_path / "backup-v1-20260101T000000", older, newest)):
        where.mkdir(parents=True)
        (where / "kickline.sqlite3").write_bytes(b"")
        os.utime(where / "kickline.sqlite3", (1_700_000_000 + i, 1_700_000_000 + i))
    line = refused(serve("--data-dir", str(tmp_path)))
    assert f"the store {tmp_path / 'kickline.sqlite3'} is corrupt" in line
    assert f"restore the newest backup ({newest / 'kickline.sqlite3'})" in line


def _in_own_mount(setup: str) -> list[str]:
    """A prefix that runs the server in a mount namespace of its own after ``setup`` (a
    shell script), so a tiny or read-only filesystem vanishes with the process."""
    if shutil.which("unshare") is None:
        pytest.skip("needs unshare (util-linux)")
    probe = subprocess.run(["unshare", "-m", "sh", "-c", "mount -t tmpfs tmpfs /mnt"],
                           capture_output=True)
    if probe.returncode != 0:
        pytest.skip("needs mount namespaces (root, as in CI)")
    return ["unshare", "-m", "sh", "-c", setup + ' && exec "$@"', "sh"]


def test_a_full_disk_reported_by_sqlite(tmp_path: Path) -> None:
    # The secret and the server id exist; SQLite is the first to need space, and says
    # "database or disk is full" or "disk I/O error" depending on where it runs out.
    data = tmp_path / "data"
    prefix = _in_own_mount(
        f"mount -t tmpfs -o size=256k tmpfs {tmp_path} && mkdir {data} && "
        f"head -c 32 /dev/urandom > {data}/secret.key && "
        f"head -c 8 /dev/urandom > {data}/server-id && "
        f"(dd if=/dev/zero of={tmp_path}/filler bs=4k 2>/dev/null || true)")
    line = refused(serve("--data-dir", str(data), prefix=prefix))
    assert f"the disk holding {data} is full" in line and "free some space" in line


def test_a_full_disk_before_anything_is_written(tmp_path: Path) -> None:
    prefix = _in_own_mount(f"mount -t tmpfs -o size=64k tmpfs {tmp_path} && "
                           f"(dd if=/dev/zero of={tmp_path}/filler bs=4k 2>/dev/null || true)")
    line = refused(serve("--data-dir", str(tmp_path / "data"), prefix=prefix))
    assert f"the disk holding {tmp_path / 'data'} is full" in line


def test_a_read_only_data_dir(tmp_path: Path) -> None:
    data = tmp_path / "data"
    data.mkdir()
    prefix = _in_own_mount(f"mount --bind {data} {data} && mount -o remount,bind,ro {data}")
    line = refused(serve("--data-dir", str(data), prefix=prefix))
    assert f"the data directory {data} is not writable" in line and "Read-only" in line


def test_a_secret_file_too_short_or_missing(tmp_path: Path) -> None:
    (tmp_path / "short").write_text("abc\n")
    line = refused(serve("--data-dir", str(tmp_path / "d"), "--secret-file",
                         str(tmp_path / "short")))
    assert "at least 16 bytes" in line and str(tmp_path / "short") in line
    line = refused(serve("--data-dir", str(tmp_path / "d"), "--secret-file",
                         str(tmp_path / "nope")))
    assert f"cannot read --secret-file {tmp_path / 'nope'}" in line


def test_a_secret_file_holding_what_the_server_wrote_keeps_every_token(
    tmp_path: Path, port: Callable[[], int]
) -> None:
    # The server generates secret.key (raw bytes); the same bytes given back through
    # --secret-file (as when sharing it with a second process) keep its tokens valid.
    data = tmp_path / "d"
    first = ServerProc(data, port())
    first.start()
    try:
        welcome = _hello(first.port, {"name": "alex"})
    finally:
        assert first.stop() == 0
    key = tmp_path / "shared.key"
    (data / "secret.key").rename(key)
    again = ServerProc(data, port(), "--secret-file", str(key))
    again.start()
    try:
        back = _hello(again.port, {"token": welcome["token"]})
    finally:
        assert again.stop() == 0
    assert back["t"] == "welcome" and back["player"] == welcome["player"]
    assert not (data / "secret.key").exists()  # the file given was used, none generated


def _hello(port: int, fields: dict[str, str]) -> dict[str, object]:
    script = ("import sys, anyio, json\n"
              "from websockets.asyncio.client import connect\n"
              "from kickline_server.protocol import decode_replies, encode\n"
              "async def main(url, fields):\n"
              "    async with connect(url) as ws:\n"
              "        await ws.send(encode({'t': 'hello', 'versions': [1],\n"
              "                              **json.loads(fields)}))\n"
              "        print(json.dumps(decode_replies(await ws.recv())[0]))\n"
              "anyio.run(main, *sys.argv[1:])\n")
    p = subprocess.run([sys.executable, "-c", script, f"ws://127.0.0.1:{port}/ws",
                        json.dumps(fields)], env=ENV, capture_output=True, text=True, timeout=30)
    assert p.returncode == 0, p.stderr
    got: dict[str, object] = json.loads(p.stdout)
    return got


def test_the_start_up_line_names_address_store_data_dir_and_client(
    tmp_path: Path, port: Callable[[], int]
) -> None:
    unbuilt = tmp_path / "client"
    (unbuilt / "src").mkdir(parents=True)
    (unbuilt / "index.html").write_text("<!doctype html>")
    s = ServerProc(tmp_path / "d", port(), "--client-dir", str(unbuilt))
    s.start()
    with urllib.request.urlopen(f"http://127.0.0.1:{s.port}/healthz", timeout=10) as r:
        assert r.status == 200
    assert s.stop() == 0
    assert s.proc is not None and s.proc.stderr is not None
    log = s.proc.stderr.read().decode()
    start = next(line for line in log.splitlines() if "kickline serving" in line)
    assert f"kickline serving http://127.0.0.1:{s.port}/ (websocket /ws)" in start
    assert f"store: SQLite {tmp_path / 'd' / 'kickline.sqlite3'} (synchronous=NORMAL)" in start
    assert f"data dir: {tmp_path / 'd'}" in start and "client: NOT BUILT" in start
    assert "WARNING" in log and "the web client is not built" in log and "make client" in log
