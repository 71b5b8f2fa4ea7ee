"""``kickline serve --workers N``: N server processes on one machine, one port, one Redis.

The parent holds the data directory (its lock, the token key file and the server id,
made once here so the workers never race to create them), then runs N copies of its own
command line, each with the hidden ``--worker-index i``: a worker binds the same port
with ``SO_REUSEPORT`` (the kernel spreads new connections over them), registers as
server id ``<id>.w<i>`` and shares everything else through Redis (``routing.py``), so the
N processes behave as one server and a box uses all its cores.  Their metrics meet in a
``PROMETHEUS_MULTIPROC_DIR`` the parent makes, so any worker's ``/metrics`` reports all.

SIGTERM or SIGINT to the parent drains every worker (they hand their matches over as
one process would) and waits for them, bounded; a worker that dies on its own is
started again after a second (its matches are adopted meanwhile by the others).
"""

from __future__ import annotations

import fcntl
import logging
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

log = logging.getLogger(__name__)


def supervise(argv: Sequence[str], n: int, data_dir: Path, *, drain_timeout: float) -> int:
    """Run ``n`` workers of ``kickline ARGV`` until a signal; returns the exit status."""
    data_dir.mkdir(parents=True, exist_ok=True)
    fd = os.open(data_dir / "server.lock", os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        print(f"kickline: another kickline server is using {data_dir}", file=sys.stderr)
        os.close(fd)
        return 2
    metrics_dir = tempfile.mkdtemp(prefix="kickline-metrics-")
    env = {**os.environ, "PROMETHEUS_MULTIPROC_DIR": metrics_dir}
    stopping = False

    def on_signal(signum: int, frame: object) -> None:
        nonlocal stopping
        stopping = True

    old = {s: signal.signal(s, on_signal) for s in (signal.SIGTERM, signal.SIGINT)}
    procs: dict[int, subprocess.Popen[bytes]] = {}

    def start(i: int) -> None:
        cmd = [sys.executable, "-m", "kickline_server.cli", *argv, "--worker-index", str(i)]
        procs[i] = subprocess.Popen(cmd, env=env)

    try:
        for i in range(n):
            start(i)
        log.info("kickline: %d workers started (pids %s)", n,
                 ", ".join(str(p.pid) for p in procs.values()))
        while not stopping:
            time.sleep(0.2)
            for i, p in list(procs.items()):
                code = p.poll()
                if code is not None and not stopping:
                    _dead(metrics_dir, p.pid)
                    if code == 2:  # a start-up error (it said why): the others would too
                        log.error("kickline: worker %d could not start; stopping", i)
                        stopping = True
                        break
                    log.warning("kickline: worker %d (pid %d) exited with %s; starting it "
                                "again", i, p.pid, code)
                    time.sleep(1.0)
                    start(i)
        for p in procs.values():
            if p.poll() is None:
                p.send_signal(signal.SIGTERM)
        deadline = time.monotonic() + drain_timeout + 5
        for p in procs.values():
            try:
                p.wait(timeout=max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait()
        return 0
    finally:
        for p in procs.values():
            if p.poll() is None:
                p.kill()
                p.wait()
        for s, handler in old.items():
            signal.signal(s, handler)
        shutil.rmtree(metrics_dir, ignore_errors=True)
        os.close(fd)


def _dead(metrics_dir: str, pid: int) -> None:
    """Drop a dead worker's live gauges from the shared metrics."""
    from prometheus_client import multiprocess

    os.environ.setdefault("PROMETHEUS_MULTIPROC_DIR", metrics_dir)
    multiprocess.mark_process_dead(pid, metrics_dir)  # type: ignore[no-untyped-call]
