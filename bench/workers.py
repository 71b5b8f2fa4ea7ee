"""``bench/server.py --workers N``: the server as an operator scales it on one box.

    python bench/server.py --workers 1,2 --matches 1000 [--seconds T] [--think S]
    python bench/server.py --workers route  [--matches 20]

1. **Workers.**  For each N in the list: a private ``redis-server`` (AOF, ``appendfsync
   everysec`` as deploy/compose.yaml runs it) and ``kickline serve --workers N
   --redis-url ...`` as an operator starts it, then ``2 * matches`` bot clients (the
   load processes of bench/server.py, ``--procs``) quick-match through the one port and
   play as fast as answered (or paced with ``--think``).  Measured after ``--warmup``:
   decisions per second, the decide → ack round trip (p50/p95/p99), the client
   messages routed to another worker (``/metrics``), and the CPU time of the workers,
   of Redis and of the load processes.  The ratio of decisions per
   second with N workers to 1 worker is printed.  The bots quick-match through the
   cluster's one queue (in Redis), so with N > 1 a match's two players are often on two
   workers and one of them plays routed: this measures the cluster as players meet it.
2. **route**: the cost of a routed message against a local one.  Two ``kickline serve``
   processes on one Redis; ``--matches`` matches each created by a bot on process A
   and joined by a bot connected either to A (local) or to B (every decision of the
   joiner goes A ← B ← client and back through Redis).  Printed: the joiner's decide →
   ack round trips (p50/p95/p99) both ways, and the CPU time per decision of both
   processes and Redis.

Loopback only, bounded in time; nothing asserts a figure.  Figures: docs/BENCHMARKS.md.
"""

from __future__ import annotations

import json
import multiprocessing as mp
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

import server as bench  # bench/server.py (this directory is on sys.path)

ROOT = Path(__file__).resolve().parent.parent
BIG = 1_000_000_000
UNLIMITED = ("connections-per-minute", "half-open-per-address", "identities-per-hour",
             "creates-per-hour", "creates-per-hour-per-address", "waiting-per-address",
             "live-per-address", "code-misses-per-minute",
             "code-misses-per-minute-per-address", "watches-per-minute",
             "watches-per-minute-per-address")


def _redis(workdir: str) -> tuple[subprocess.Popen[bytes], str]:
    binary = shutil.which("redis-server")
    if binary is None:
        raise SystemExit("bench --workers needs redis-server")
    port = bench.free_port()
    proc = subprocess.Popen([binary, "--port", str(port), "--bind", "127.0.0.1", "--dir",
                             workdir, "--appendonly", "yes", "--appendfsync", "everysec",
                             "--save", ""], stdout=subprocess.DEVNULL)
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5) as s:
                s.sendall(b"PING\r\n")
                if s.recv(16).startswith(b"+PONG"):
                    return proc, f"redis://127.0.0.1:{port}/0"
        except OSError:
            time.sleep(0.05)
    raise SystemExit("redis-server did not start")


def _serve(port: int, redis_url: str, data_dir: str, workers: int) -> subprocess.Popen[bytes]:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT / "shared"),
                                                        str(ROOT / "server")])}
    proc = subprocess.Popen(
        [sys.executable, "-m", "kickline_server.cli", "serve", "--port", str(port),
         "--workers", str(workers), "--redis-url", redis_url, "--data-dir", data_dir,
         "--rate", "1000000", "--max-connections-per-address", "1000000",
         "--max-matches", "1000000", "--grace", "600", "--log-level", "WARNING",
         # Every bot comes from one address: no per-address or per-identity budgets.
         *(f"--{name}={BIG}" for name in UNLIMITED)],
        env=env, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/readyz", timeout=1) as r:
                if r.status == 200 and len(_pids(proc.pid, workers)) == workers:
                    return proc
        except OSError:
            pass
        time.sleep(0.2)
    raise SystemExit("kickline serve did not start")


def _pids(parent: int, workers: int) -> list[int]:
    """The serving processes: the workers (children), or the one process."""
    if workers <= 1:
        return [parent]
    try:
        kids = Path(f"/proc/{parent}/task/{parent}/children").read_text().split()
    except OSError:
        return []
    return [int(k) for k in kids]


def _routed(port: int) -> float | None:
    """Client messages forwarded to another process so far (all workers: /metrics)."""
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=10) as r:
            text = r.read().decode()
    except OSError:
        return None
    return sum(float(line.rsplit(" ", 1)[1]) for line in text.splitlines()
               if line.startswith('kickline_routed_messages_total{direction="forwarded"}'))


def _cpu(pids: list[int]) -> float:
    total = 0.0
    for pid in pids:
        try:
            u, s = bench.cpu_split(pid)
        except OSError:
            continue
        total += u + s
    return total


def run_workers(args: Any, workers: int) -> dict[str, Any]:
    ctx = mp.get_context("spawn")
    config = {"mode": "training", "board": args.board, "teams": ["training", "training"]}
    with tempfile.TemporaryDirectory() as tmp:
        rproc, url = _redis(tmp)
        port = bench.free_port()
        srv = _serve(port, url, os.path.join(tmp, "data"), workers)
        pids = _pids(srv.pid, workers)
        try:
            processes, pipes, connected, failed = bench.start_loads(
                ctx, "bots", f"ws://127.0.0.1:{port}/ws", 2 * args.matches,
                max(1, min(8, args.procs)),
                {"game": args.game, "config": config, "think": args.think, "requeue": True})
            for pipe in pipes:
                pipe.send("go")
            time.sleep(args.warmup)
            for pipe in pipes:
                pipe.send("reset")
            cpu0, rcpu0, routed0 = _cpu(pids), _cpu([rproc.pid]), _routed(port)
            t0 = time.perf_counter()
            time.sleep(args.seconds)
            elapsed = time.perf_counter() - t0
            cpu, rcpu = _cpu(pids) - cpu0, _cpu([rproc.pid]) - rcpu0
            routed1 = _routed(port)
            routed = (None if routed0 is None or routed1 is None
                      else round(routed1 - routed0))
            for pipe in pipes:
                pipe.send("stop")
            results = bench.collect(pipes, 120)
            for p in processes:
                p.join(30)
        finally:
            srv.send_signal(signal.SIGTERM)
            try:
                srv.wait(timeout=60)
            except subprocess.TimeoutExpired:
                srv.kill()
            rproc.kill()
            rproc.wait()
    rtts = [x for r in results for x in r["rtts"]]
    decisions = sum(r["decisions"] for r in results)
    return {
        "workers": workers, "matches": args.matches, "think_s": args.think,
        "connections": connected, "connect_failures": failed, "seconds": round(elapsed, 1),
        "decisions": decisions, "decisions_per_s": round(decisions / elapsed, 1),
        # Client messages (nearly all decisions) another worker passed on through Redis.
        "routed_messages": routed,
        "rtt_ms": bench.pcts(rtts),
        "server_cpu_share": round(cpu / elapsed, 2),
        "server_cpu_us_per_decision": round(cpu / decisions * 1e6) if decisions else None,
        "redis_cpu_share": round(rcpu / elapsed, 2),
        "load_cpu_share": [round(r["cpu_s"] / elapsed, 2) for r in results],
    }


def run_route(args: Any) -> dict[str, Any]:
    """Local against routed joiners (see the module docstring)."""
    import anyio

    sys.path[:0] = [str(ROOT / "shared"), str(ROOT / "server")]
    from kickline_server.botclient import BotState, play

    config = {"mode": "training", "board": args.board, "teams": ["training", "training"]}
    out: dict[str, Any] = {"matches": args.matches}
    with tempfile.TemporaryDirectory() as tmp:
        rproc, url = _redis(tmp)
        pa, pb = bench.free_port(), bench.free_port()
        a = _serve(pa, url, os.path.join(tmp, "a"), 1)
        b = _serve(pb, url, os.path.join(tmp, "b"), 1)
        try:
            for how, join_port in (("local", pa), ("routed", pb)):
                states: list[BotState] = []

                async def one(i: int, join_port: int = join_port,
                              states: list[BotState] = states) -> None:
                    codes: list[str] = []
                    st = BotState()
                    states.append(st)
                    async with anyio.create_task_group() as tg:
                        async def creator() -> None:
                            await play(f"ws://127.0.0.1:{pa}/ws", how="create",
                                       game=args.game, config=config, seed=f"c{i}",
                                       on_code=lambda m, c: codes.append(c))
                        tg.start_soon(creator)
                        while not codes:
                            await anyio.sleep(0.01)
                        await play(f"ws://127.0.0.1:{join_port}/ws", how="join",
                                   code=codes[0], game=args.game, config=config,
                                   seed=f"j{i}", state=st)

                async def all_matches() -> None:
                    async with anyio.create_task_group() as tg:
                        for i in range(args.matches):
                            tg.start_soon(one, i)

                cpu0 = _cpu([a.pid, b.pid, rproc.pid])
                t0 = time.perf_counter()
                anyio.run(all_matches)
                elapsed = time.perf_counter() - t0
                cpu = _cpu([a.pid, b.pid, rproc.pid]) - cpu0
                rtts = [x for st in states for x in st.round_trips]
                decisions = sum(st.decisions for st in states) * 2  # both seats, about
                out[how] = {"joiner_rtt_ms": bench.pcts(rtts), "joiner_decisions": len(rtts),
                            "seconds": round(elapsed, 1),
                            "cpu_us_per_decision_all_processes":
                                round(cpu / decisions * 1e6) if decisions else None}
        finally:
            for p in (a, b):
                p.send_signal(signal.SIGTERM)
            for p in (a, b):
                try:
                    p.wait(timeout=60)
                except subprocess.TimeoutExpired:
                    p.kill()
            rproc.kill()
            rproc.wait()
    return out


def main(args: Any) -> int:
    head = {"date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
            "cpus": os.cpu_count(), "load_average_before": os.getloadavg()[0]}
    if args.workers == "route":
        print(json.dumps({**head, **run_route(args),
                          "load_average_after": os.getloadavg()[0]}, indent=1))
        return 0
    rows = [run_workers(args, int(n)) for n in args.workers.split(",")]
    out: dict[str, Any] = {**head, "runs": rows, "load_average_after": os.getloadavg()[0]}
    base = next((r for r in rows if r["workers"] == 1), None)
    if base and base["decisions_per_s"]:
        out["ratio_to_1_worker"] = {str(r["workers"]): round(
            r["decisions_per_s"] / base["decisions_per_s"], 2) for r in rows}
    print(json.dumps(out, indent=1))
    return 0
