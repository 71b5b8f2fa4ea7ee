"""Server benchmark: N concurrent bot matches on loopback, against a bare echo baseline.

    python bench/server.py [--matches N] [--seconds T] [--game kickline|toy] [--board B]

Starts the real server (``run_server``, embedded SQLite store in a temp dir) in a child
process, opens ``2N`` websocket clients in this process, pairs them by quick match and
lets lean bots (a seeded uniform choice among the legal decisions) play as fast as the
server answers, for ``W`` seconds of warm-up (``--warmup``: matches being created and
started) and then at most ``T`` seconds measured, or until every match ends.  Then it sends the
same load (the same number of clients, each sending the same number of frames of the
same size one at a time and waiting for the answer) to a bare ``websockets`` echo server
in another child process, and prints both with the ratio.

With ``--think S`` each bot waits a random 0.5 to 1.5 times S seconds before each decision
(a paced load, as people play) instead of answering at machine speed (a flood).

Printed: matches completed, decisions per second, decision round trip (``decide`` sent
to its ``ack`` received) p50/p95/p99, server RSS per connection, snapshot size and write
latency (from the server's own counters), and the echo figures.  Bounded in count and
time, loopback only.  Nothing here is a test; nothing asserts a figure.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing as mp
import os
import random
import socket
import statistics
import sys
import tempfile
import time
from functools import partial
from multiprocessing.connection import Connection as Pipe
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "shared"), str(ROOT / "server")]

import anyio  # noqa: E402
from websockets.asyncio.client import connect  # noqa: E402
from websockets.asyncio.server import ServerConnection, serve  # noqa: E402
from websockets.exceptions import InvalidHandshake  # noqa: E402

from kickline_server.protocol import decode_replies, encode  # noqa: E402


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def pct(xs: list[float], p: float) -> float:
    if not xs:
        return float("nan")
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(p / 100 * len(xs)))]


# --- child processes ---------------------------------------------------------------


def kickline_server(port: int, data_dir: str, sync: str, compression: bool,
                    pipe: Pipe) -> None:
    from kickline_server.actor import Stats
    from kickline_server.app import ServerConfig, run_server
    from kickline_server.lobby import LobbyLimits
    from kickline_server.transport import TransportLimits

    stats = Stats()
    config = ServerConfig(
        host="127.0.0.1", port=port, data_dir=Path(data_dir), client_dir=None,
        max_connections_per_address=1_000_000, ping_interval=None, sqlite_synchronous=sync,
        compression=compression,
        transport=TransportLimits(rate=1e6, burst=1e6),
        lobby=LobbyLimits(grace=600, max_live_matches=1_000_000))

    async def main() -> None:
        shutdown = anyio.Event()
        async with anyio.create_task_group() as tg:
            async def wait_for_stop() -> None:
                while await anyio.to_thread.run_sync(pipe.recv) == "reset":
                    stats.samples.clear()  # the warm-up is over: measure from here
                shutdown.set()
            tg.start_soon(wait_for_stop)
            await tg.start(partial(run_server, config, shutdown, stats=stats))
            pipe.send("ready")
        s = stats
        pipe.send({"persists": s.persists, "persist_bytes": s.persist_bytes,
                   "snapshot_bytes": s.last_snapshot_bytes, "samples": s.samples})

    anyio.run(main)


def echo_server(port: int, compression: bool, pipe: Pipe) -> None:
    async def echo(ws: ServerConnection) -> None:
        async for frame in ws:
            await ws.send(frame)

    async def main() -> None:
        async with serve(echo, "127.0.0.1", port, max_size=None, ping_interval=None,
                         compression="deflate" if compression else None):
            pipe.send("ready")
            await anyio.to_thread.run_sync(pipe.recv)

    anyio.run(main)


# --- load ---------------------------------------------------------------------------


class Load:
    def __init__(self) -> None:
        self.rtts: list[float] = []
        self.decisions = 0
        self.completed = 0
        self.frame_sizes: list[int] = []
        self.connected = 0
        self.failed = 0
        self.decide_counts: list[int] = []

    def arrived(self, total: int, all_connected: anyio.Event) -> None:
        if self.connected + self.failed == total:
            all_connected.set()


async def bot(url: str, game: str, config: dict[str, Any], load: Load, seed: int,
              all_connected: anyio.Event, total: int, dialing: anyio.CapacityLimiter,
              think: float) -> None:
    rng = random.Random(seed)
    for attempt in range(5):
        try:
            async with dialing:
                ws = await connect(url, max_size=None, ping_interval=None, open_timeout=60)
            break
        except (OSError, InvalidHandshake, TimeoutError):
            await anyio.sleep(0.2 * (attempt + 1))
    else:
        load.failed += 1
        load.arrived(total, all_connected)
        return
    async with ws:
        await ws.send(encode({"t": "hello", "versions": [1], "name": f"b{seed}"}))
        await ws.recv()
        load.connected += 1
        load.arrived(total, all_connected)
        await all_connected.wait()
        await ws.send(encode({"t": "quick", "id": "q", "game": game, "config": config}))
        match = None
        sent: dict[str, float] = {}
        mine = 0

        async def on(msg: dict[str, Any]) -> bool:
            """Handle one message; ``True`` when the match is over."""
            nonlocal match, mine
            t = msg["t"]
            if t == "matched":
                match = msg["match"]
            elif t == "prompt" and msg["legal"] and match is not None:
                rid = f"{msg['version']}"
                if rid not in sent:
                    if think:
                        await anyio.sleep(rng.uniform(0.5, 1.5) * think)
                    data = encode({"t": "decide", "id": rid, "match": match,
                                   "version": msg["version"],
                                   "decision": rng.choice(msg["legal"]), "seat": msg["seat"]})
                    load.frame_sizes.append(len(data))
                    sent[rid] = time.perf_counter()
                    await ws.send(data)
            elif t == "ack" and "version" in msg:
                t0 = sent.get(str(msg["re"]))
                if t0 is not None:
                    load.rtts.append(time.perf_counter() - t0)
                    load.decisions += 1
                    mine += 1
            elif t == "over":
                load.completed += 1
                return True
            return False

        async for frame in ws:
            if any([await on(m) for m in decode_replies(frame)]):
                break
        load.decide_counts.append(mine)


async def echo_client(url: str, sizes: list[int], rtts: list[float],
                      dialing: anyio.CapacityLimiter, ready: list[int], total: int,
                      go: anyio.Event) -> None:
    async with dialing:
        ws = await connect(url, max_size=None, ping_interval=None, open_timeout=60)
    async with ws:
        ready.append(1)
        if len(ready) == total:
            go.set()
        await go.wait()
        for n in sizes:
            payload = os.urandom(n)
            t0 = time.perf_counter()
            await ws.send(payload)
            await ws.recv()
            rtts.append(time.perf_counter() - t0)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--matches", type=int, default=100, help="concurrent matches (100)")
    ap.add_argument("--seconds", type=float, default=30.0, help="time bound (30 s)")
    ap.add_argument("--think", type=float, default=0.0,
                    help="mean seconds a bot waits before each decision (0: none; a "
                         "paced load instead of a flood)")
    ap.add_argument("--warmup", type=float, default=5.0,
                    help="seconds of play (matches starting) before measuring (5)")
    ap.add_argument("--game", default="kickline")
    ap.add_argument("--board", type=int, default=7)
    ap.add_argument("--sqlite-synchronous", default="NORMAL")
    ap.add_argument("--compression", action="store_true",
                    help="offer permessage-deflate (both servers)")
    args = ap.parse_args()
    config: dict[str, Any] = {"mode": "training", "board": args.board,
                              "teams": ["training", "training"]}
    ctx = mp.get_context("spawn")
    n_clients = 2 * args.matches

    # 1. Kickline server under bot load.
    with tempfile.TemporaryDirectory() as tmp:
        port = free_port()
        ours, theirs = ctx.Pipe()
        proc = ctx.Process(target=kickline_server,
                           args=(port, tmp, args.sqlite_synchronous, args.compression,
                                 theirs))
        proc.start()
        assert ours.poll(60) and ours.recv() == "ready"
        pid = proc.pid or 0
        rss0 = rss_kib(pid)
        load = Load()
        url = f"ws://127.0.0.1:{port}/ws"

        async def run_load() -> tuple[float, int]:
            all_connected = anyio.Event()
            dialing = anyio.CapacityLimiter(64)
            t0 = 0.0
            peak = 0
            with anyio.move_on_after(args.seconds + 60):
                async with anyio.create_task_group() as tg:
                    for i in range(n_clients):
                        tg.start_soon(bot, url, args.game, config, load, i, all_connected,
                                      n_clients, dialing, args.think)
                    await all_connected.wait()
                    await anyio.sleep(args.warmup)
                    load.rtts.clear()
                    load.decisions = 0
                    ours.send("reset")
                    t0 = time.perf_counter()
                    peak = rss_kib(pid)
                    with anyio.move_on_after(args.seconds):
                        while load.completed < n_clients:
                            await anyio.sleep(0.2)
                            peak = max(peak, rss_kib(pid))
                    tg.cancel_scope.cancel()
            return time.perf_counter() - t0, peak

        elapsed, peak = anyio.run(run_load)
        ours.send("stop")
        t_stop = time.perf_counter()
        stats = ours.recv() if ours.poll(600) else {}
        shutdown_s = time.perf_counter() - t_stop
        proc.join(30)

    # 2. The same message load against a bare echo server.
    port = free_port()
    ours, theirs = ctx.Pipe()
    eproc = ctx.Process(target=echo_server, args=(port, args.compression, theirs))
    eproc.start()
    assert ours.poll(60) and ours.recv() == "ready"
    per_client = max(1, load.decisions // max(1, load.connected))
    size = int(statistics.mean(load.frame_sizes)) if load.frame_sizes else 100
    echo_rtts: list[float] = []

    async def run_echo() -> float:
        """Connect every client first, then time only the messages (as for the server)."""
        dialing = anyio.CapacityLimiter(64)
        ready: list[int] = []
        go = anyio.Event()
        t0 = 0.0
        async with anyio.create_task_group() as tg:
            for _ in range(load.connected):
                tg.start_soon(echo_client, f"ws://127.0.0.1:{port}/", [size] * per_client,
                              echo_rtts, dialing, ready, load.connected, go)
            await go.wait()
            t0 = time.perf_counter()
        return time.perf_counter() - t0

    echo_elapsed = anyio.run(run_echo)
    ours.send("stop")
    eproc.join(30)

    dps = load.decisions / elapsed if elapsed else 0.0
    eps = len(echo_rtts) / echo_elapsed if echo_elapsed else 0.0
    samples = stats.get("samples", [])
    ms = 1000.0
    out = {
        "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
        "cpus": os.cpu_count(),
        "game": args.game, "board": args.board, "matches": args.matches,
        "think_s": args.think, "warmup_s": args.warmup,
        "connections": n_clients, "connect_failures": load.failed,
        "seconds": round(elapsed, 2), "server_shutdown_s": round(shutdown_s, 2),
        "matches_completed": load.completed // 2,
        "decisions": load.decisions,
        "decisions_per_s": round(dps, 1),
        "rtt_ms": {p: round(pct(load.rtts, float(p[1:])) * ms, 2)
                   for p in ("p50", "p95", "p99")},
        "server_rss_kib": {"idle": rss0, "peak": peak,
                           "per_connection": round((peak - rss0) / max(1, load.connected), 1)},
        "snapshot_bytes_last": stats.get("snapshot_bytes"),
        "persist_bytes_mean": round(stats["persist_bytes"] / stats["persists"])
        if stats.get("persists") else None,
        "write_ms": {p: round(pct(samples, float(p[1:])) * ms, 3)
                     for p in ("p50", "p95", "p99")},
        "sqlite_synchronous": args.sqlite_synchronous,
        "compression": args.compression,
        "echo": {"messages": len(echo_rtts), "frame_bytes": size,
                 "messages_per_s": round(eps, 1),
                 "rtt_ms": {p: round(pct(echo_rtts, float(p[1:])) * ms, 2)
                            for p in ("p50", "p95", "p99")}},
        "throughput_ratio_vs_echo": round(dps / eps, 3) if eps else None,
    }
    print(json.dumps(out, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
