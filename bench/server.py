"""Server benchmark: N concurrent bot matches on loopback, against bare websockets baselines.

    python bench/server.py [--matches N] [--seconds T] [--procs P] [--game kickline|toy]
    python bench/server.py --vs-bgio [--loads 10,100,500,1000p] [--rounds 3]
    python bench/server.py --rated-queue [--players 2000] [--spread 300]

``--vs-bgio`` compares with boardgame.io's server instead: see ``bench/vs_bgio.py``.
``--rated-queue`` times the rated quick-match queue instead: see ``bench/rated_queue.py``.

1. **Kickline.**  Starts the real server (``run_server``, embedded SQLite store in a temp
   dir) in a child process and ``2N`` websocket clients in ``P`` load processes
   (``--procs``), pairs them by quick match and lets lean bots (a seeded uniform choice
   among the legal decisions) play as fast as the server answers: ``W`` seconds of
   warm-up (``--warmup``: matches being created and started), then at most ``T`` seconds
   measured, or until every match ends.  While measuring, the clients keep a sample of
   the frames they actually receive: the decider's (``ack`` + ``prompt``) and the
   opponent's (``prompt``).
2. **Relay** (the apples-to-apples baseline, ``throughput_ratio``).  A bare
   ``websockets`` server that does no game work sends *the same frames*: the same ``2N``
   clients in the same ``P`` load processes, paired, one chain of messages per pair (as
   one seat of a match decides at a time); for each client frame of the decide frames'
   size the relay answers the sender with a recorded decider's frame and the partner
   with a recorded opponent's frame, without decoding anything.  The clients decode
   every frame they receive (``decode_replies``, as the bots do) and send the next
   frame as soon as the answer arrives.  Same number of messages as the Kickline run
   measured, same frame sizes, same client code path for the frames: what remains is
   the server's own work per decision.
3. **Echo** (the issue's original baseline, kept for comparison, ``ratio_vs_echo``).
   Every client frame is echoed back to its sender only (one 70-byte frame each way),
   ``N`` chains.

Every process's CPU time during the measured window is printed: ``server_cpu_us``
per decision (or per message for the baselines) is the machine-independent cost and
shows which side is the bottleneck (a load process near 100 % of a core would be).

With ``--think S`` each bot waits a random 0.5 to 1.5 times S seconds before each decision
(a paced load, as people play) instead of answering at machine speed (a flood).

Printed: matches completed, decisions per second, decision round trip (``decide`` sent
to its ``ack`` received) p50/p95/p99, server RSS per connection, snapshot size and write
latency (from the server's own counters), CPU time per process, and the baselines.
Bounded in count and time, loopback only.  Nothing here is a test; nothing asserts a
figure.
"""

from __future__ import annotations

import argparse
import collections
import gc
import json
import multiprocessing as mp
import os
import random
import resource
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
import anyio.to_thread  # noqa: E402
from websockets.asyncio.client import ClientConnection, connect  # noqa: E402
from websockets.asyncio.server import ServerConnection, serve  # noqa: E402
from websockets.exceptions import ConnectionClosed, InvalidHandshake  # noqa: E402

# ``kickline_server`` is imported inside the functions that use it, never here: a spawned
# child process imports this module first, and a ``--baseline-root`` server must import
# only the other checkout's package (its metrics would otherwise register a second time
# in prometheus_client's process-wide registry: "Duplicated timeseries").

SAMPLES = 256
"""Frames of each kind kept for the relay."""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def cpu_split(pid: int) -> tuple[float, float]:
    """User and system (kernel: sockets, files) CPU seconds of a process so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    tick = os.sysconf("SC_CLK_TCK")
    return int(fields[11]) / tick, int(fields[12]) / tick


def self_cpu_s() -> float:
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def pct(xs: list[float], p: float) -> float:
    if not xs:
        return float("nan")
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(p / 100 * len(xs)))]


def pcts(xs: list[float]) -> dict[str, float]:
    return {p: round(pct(xs, float(p[1:])) * 1000.0, 2) for p in ("p50", "p95", "p99")}


async def recv_pipe(pipe: Pipe) -> Any:
    return await anyio.to_thread.run_sync(pipe.recv, abandon_on_cancel=True)


async def dial(url: str, dialing: anyio.CapacityLimiter) -> ClientConnection | None:
    for attempt in range(5):
        try:
            async with dialing:
                return await connect(url, max_size=None, ping_interval=None,
                                     open_timeout=60)
        except (OSError, InvalidHandshake, TimeoutError):
            await anyio.sleep(0.2 * (attempt + 1))
    return None


# --- servers (child processes) -------------------------------------------------------


class GcPauses:
    """The cyclic collector's pauses, from ``gc.callbacks``: count, total and longest, in
    wall-clock time (what a client waits) and in the collecting thread's CPU time (on a
    busy machine a pause's wall time also holds the time the process waited for a core;
    its CPU time is the collector's own work)."""

    def __init__(self) -> None:
        self.t0 = self.c0 = 0.0
        self.reset()
        gc.callbacks.append(self.on)

    def reset(self) -> None:
        self.count = 0
        self.total = self.max = self.cpu_total = self.cpu_max = 0.0

    def on(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            self.t0, self.c0 = time.perf_counter(), time.thread_time()
            return
        dt, cpu = time.perf_counter() - self.t0, time.thread_time() - self.c0
        self.count += 1
        self.total += dt
        self.max = max(self.max, dt)
        self.cpu_total += cpu
        self.cpu_max = max(self.cpu_max, cpu)

    def figures(self) -> dict[str, float]:
        return {"collections": self.count, "total_ms": round(self.total * 1e3, 1),
                "max_ms": round(self.max * 1e3, 2),
                "cpu_total_ms": round(self.cpu_total * 1e3, 1),
                "cpu_max_ms": round(self.cpu_max * 1e3, 2)}


def pin(cpu: int | None) -> None:
    """Run this process on one core (``None``: anywhere)."""
    if cpu is not None and cpu < (os.cpu_count() or 1):
        os.sched_setaffinity(0, {cpu})


def use_root(root: str) -> None:
    """Serve the ``kickline_server`` and ``kickline`` of another checkout (``--vs-bgio
    --baseline-root``): a before/after pair measured in one interleaved run.  Called
    before anything of this checkout's ``kickline_server`` is imported; should something
    have imported its metrics, they leave prometheus_client's process-wide registry so
    that the other checkout's can register."""
    metrics = sys.modules.get("kickline_server.metrics")
    if metrics is not None:
        from prometheus_client import REGISTRY
        from prometheus_client.metrics import MetricWrapperBase

        for value in vars(metrics).values():
            if isinstance(value, MetricWrapperBase):
                REGISTRY.unregister(value)
    for name in list(sys.modules):
        if name.split(".")[0] in ("kickline", "kickline_server"):
            del sys.modules[name]
    sys.path[:0] = [str(Path(root) / "shared"), str(Path(root) / "server")]


def kickline_server(port: int, data_dir: str, sync: str, compression: bool,
                    pipe: Pipe, profile: str | None = None, cpu: int | None = None,
                    root: str | None = None, trace: bool = False) -> None:
    if root is not None:
        use_root(root)
    import kickline_server
    from kickline_server.actor import Stats
    from kickline_server.app import ServerConfig, run_server, tune_gc
    from kickline_server.lobby import LobbyLimits
    from kickline_server.transport import TransportLimits

    pin(cpu)
    if os.environ.get("KICKLINE_BENCH_SWITCH"):  # an experiment: the GIL's switch interval
        sys.setswitchinterval(float(os.environ["KICKLINE_BENCH_SWITCH"]))
    tracer = None
    if trace:  # --breakdown: stamps along the decide path (bench/trace.py)
        import trace as tracing

        tracer = tracing.ServerTrace()
        tracing.install_server(tracer)
    gclog = None
    if os.environ.get("KICKLINE_BENCH_GCLOG"):  # every collection, with its trigger
        import gclog as gclogging  # bench/gclog.py

        gclog = gclogging.GcLog(float(os.environ["KICKLINE_BENCH_GCLOG"]))
        gclogging.install(gclog)
    stats = Stats()
    pauses: GcPauses | None = None
    figures: dict[str, Any] = {}
    traced: dict[str, Any] = {}
    extra: dict[str, Any] = {}
    if "budgets" in ServerConfig.__dataclass_fields__:  # not in a --baseline-root before it
        from kickline_server.budgets import Budgets

        extra["budgets"] = Budgets.unlimited()  # every bot comes from one address
    counts: Any = None
    if "gc" in ServerConfig.__dataclass_fields__:  # the collector as `kickline serve` runs it
        from kickline_server.gcpolicy import GcCounts, GcPolicy

        extra["gc"] = GcPolicy()
        counts = GcCounts()
    config = ServerConfig(
        host="127.0.0.1", port=port, data_dir=Path(data_dir), client_dir=None,
        max_connections_per_address=1_000_000, ping_interval=None, sqlite_synchronous=sync,
        compression=compression,
        # A starved load process may take long to say hello to 2 000 connections.
        transport=TransportLimits(rate=1e6, burst=1e6, handshake_timeout=300.0),
        lobby=LobbyLimits(grace=600, max_live_matches=1_000_000), **extra)

    async def main() -> None:
        shutdown = anyio.Event()
        async with anyio.create_task_group() as tg:
            async def wait_for_stop() -> None:
                while await recv_pipe(pipe) == "reset":
                    stats.samples.clear()  # the warm-up is over: measure from here
                    stats.persists = stats.persist_bytes = 0
                    if tracer is not None:
                        tracer.reset()
                    if pauses is not None:
                        pauses.reset()
                    if gclog is not None:
                        gclog.reset()
                if pauses is not None:
                    figures.update(pauses.figures())
                if gclog is not None:
                    figures["log"] = gclog.figures()
                    gc.callbacks.remove(gclog.on_gc)
                if tracer is not None:  # before the collections below
                    traced.update(tracer.figures())
                if counts is not None:
                    # The clients have gone: what frozen garbage cycles the whole run left
                    # (a full collection after a collection of what is not frozen).
                    gc.collect()
                    gc.unfreeze()
                    # Every object the full collection walks.
                    figures["full_collection_objects"] = len(gc.get_objects())
                    # What the frozen garbage is made of (saved, then let go: the timed
                    # collection below frees it as the --gc-full-every one would).
                    gc.set_debug(gc.DEBUG_SAVEALL)
                    gc.collect()
                    gc.set_debug(0)
                    kinds = collections.Counter(f"{type(o).__module__}.{type(o).__qualname__}"
                                                for o in gc.garbage)
                    gc.garbage.clear()
                    figures["frozen_garbage_types"] = kinds.most_common(15)
                    gc.unfreeze()  # (the server's GC policy freezes after a collection)
                    # The --gc-full-every collection's pause with these matches live.
                    t0, c0 = time.perf_counter(), time.thread_time()
                    figures["frozen_garbage"] = gc.collect()
                    figures["full_collection_ms"] = round(
                        (time.perf_counter() - t0) * 1e3, 1)
                    figures["full_collection_cpu_ms"] = round(
                        (time.thread_time() - c0) * 1e3, 1)
                    gc.freeze()
                    figures["ticks"] = counts.ticks
                probing.cancel()
                shutdown.set()
            tg.start_soon(wait_for_stop)
            probing = anyio.CancelScope()
            if tracer is not None:
                async def probe() -> None:
                    with probing:
                        await tracer.probe()
                tg.start_soon(probe)
            server = (partial(run_server, config, shutdown, stats=stats, gc_counts=counts)
                      if counts is not None else partial(run_server, config, shutdown,
                                                         stats=stats))
            await tg.start(server)
            pipe.send("ready")
        s = stats
        pipe.send({"served_from": str(Path(kickline_server.__file__).parent.parent.parent),
                   "persists": s.persists, "persist_bytes": s.persist_bytes,
                   "snapshot_bytes": s.last_snapshot_bytes, "samples": s.samples,
                   "gc": figures or None,
                   "trace": traced or None})

    tune_gc()  # as `kickline serve` does
    pauses = GcPauses()
    if profile:
        import cProfile

        cProfile.runctx("anyio.run(main)", globals(), {"anyio": anyio, "main": main},
                        filename=profile)
    else:
        # The event loop `kickline serve` runs (uvloop; a --baseline-root from before it
        # has no loop_options and runs asyncio's).  KICKLINE_BENCH_LOOP=asyncio: the other.
        import kickline_server.app as app

        choose = getattr(app, "loop_options", None)
        options = choose(os.environ.get("KICKLINE_BENCH_LOOP", "uvloop")) if choose else {}
        anyio.run(main, backend_options=options)


def relay_server(port: int, compression: bool, mode: str, own: list[bytes],
                 other: list[bytes], pipe: Pipe) -> None:
    """``mode`` "relay": answer each frame with ``own[i]`` to the sender and ``other[i]``
    to its partner (the other client that said the same pair number); "echo": send the
    frame back to its sender."""
    pairs: dict[bytes, list[ServerConnection]] = {}

    async def handler(ws: ServerConnection) -> None:
        pair = bytes(await ws.recv())  # the pair number
        members = pairs.setdefault(pair, [])
        members.append(ws)
        i = 0
        try:
            async for frame in ws:
                if mode == "echo":
                    await ws.send(frame)
                    continue
                await ws.send(own[i % len(own)])
                for peer in members:
                    if peer is not ws:
                        await peer.send(other[i % len(other)])
                i += 1
        except ConnectionClosed:
            pass
        finally:
            members.remove(ws)

    async def main() -> None:
        async with serve(handler, "127.0.0.1", port, max_size=None, ping_interval=None,
                         compression="deflate" if compression else None):
            pipe.send("ready")
            await recv_pipe(pipe)

    # The loop our server runs (uvloop unless KICKLINE_BENCH_LOOP=asyncio), so the
    # baselines are the floor of the same stack: websockets on the same event loop.
    from kickline_server.app import loop_options

    anyio.run(main, backend_options=loop_options(os.environ.get("KICKLINE_BENCH_LOOP",
                                                                "uvloop")))


# --- load processes ---------------------------------------------------------------


class Load:
    def __init__(self) -> None:
        self.rtts: list[float] = []
        self.decisions = 0
        self.completed = 0
        self.decide_frames: list[bytes] = []
        self.own_frames: list[bytes] = []
        self.other_frames: list[bytes] = []
        self.frames_in = 0
        self.bytes_in = 0
        self.dropped = 0
        self.measuring = False
        self.trace: list[tuple[Any, ...]] | None = None
        """With ``--breakdown``: (match, id, seat, sent, frame read, ack handled) per
        decision (bench/trace.py)."""

    def keep(self, frames: list[bytes], frame: bytes) -> None:
        if self.measuring and len(frames) < SAMPLES:
            frames.append(frame)


async def bot(ws: ClientConnection, game: str, config: dict[str, Any], load: Load,
              seed: int, go: anyio.Event, think: float, requeue: bool = False) -> None:
    """One bot; a connection the server closed ends it (counted in ``load.dropped``)."""
    try:
        await _bot(ws, game, config, load, seed, go, think, requeue)
    except ConnectionClosed:
        load.dropped += 1


async def _bot(ws: ClientConnection, game: str, config: dict[str, Any], load: Load,
               seed: int, go: anyio.Event, think: float, requeue: bool) -> None:
    from kickline_server.protocol import decode_replies, encode

    rng = random.Random(seed)
    # Protocol 2: views come as patches (the bots read only legal, version and seat).
    await ws.send(encode({"t": "hello", "versions": [1, 2], "name": f"b{seed}"}))
    await ws.recv()
    await go.wait()
    await ws.send(encode({"t": "quick", "id": "q0", "game": game, "config": config}))
    match = None
    seat = None
    frame_t = 0.0  # when the frame being handled was read (for --breakdown)
    sent: dict[str, float] = {}
    # A paced bot thinks in a task of its own, as a person's phone keeps reading while
    # its player thinks: thinking inside the read loop left acks and newer prompts
    # unread for the whole think time, so the round trips measured the think time and
    # a simultaneous choice (the toy game) was sent against a stale version.  A newer
    # prompt replaces the one being thought about.
    thinking = anyio.CancelScope()

    async def send_decision(msg: dict[str, Any], delay: float, scope: anyio.CancelScope) -> None:
        if delay:  # a flood bot answers in the same step, as before pacing existed
            with scope:
                await anyio.sleep(delay)
        if scope.cancel_called or match is None:
            return
        rid = f"{msg['version']}"
        data = encode({"t": "decide", "id": rid, "match": match, "version": msg["version"],
                       "decision": rng.choice(msg["legal"]), "seat": msg["seat"]})
        load.keep(load.decide_frames, data)
        sent[rid] = time.perf_counter()
        await ws.send(data)

    async def on(msg: dict[str, Any], tg: anyio.abc.TaskGroup) -> bool:
        """Handle one message; ``True`` when the match is over."""
        nonlocal match, thinking, seat
        t = msg["t"]
        if t == "matched":
            match = msg["match"]
        elif t == "prompt" and msg["legal"] and match is not None:
            seat = msg["seat"]
            if f"{msg['version']}" not in sent:
                if think:
                    thinking.cancel()
                    thinking = anyio.CancelScope()
                    tg.start_soon(send_decision, msg, rng.uniform(0.5, 1.5) * think, thinking)
                else:
                    await send_decision(msg, 0.0, anyio.CancelScope())
        elif t == "ack" and "version" in msg:
            t0 = sent.get(str(msg["re"]))
            if t0 is not None:
                t1 = time.perf_counter()
                load.rtts.append(t1 - t0)
                load.decisions += 1
                if load.trace is not None and load.measuring:
                    load.trace.append((match, str(msg["re"]), seat, t0, frame_t, t1))
        elif t == "over" and msg["match"] == match:
            load.completed += 1
            thinking.cancel()
            if not requeue:
                return True
            # Another match at once (a toy match lasts about a second): the server's
            # cost of making matches is part of what is measured.
            match = None
            sent.clear()
            await ws.send(encode({"t": "quick", "id": f"q{load.completed}", "game": game,
                                  "config": config}))
        return False

    async with anyio.create_task_group() as tg:
        async for frame in ws:
            frame_t = time.perf_counter()
            assert isinstance(frame, bytes)
            msgs = decode_replies(frame)
            if load.measuring:
                load.frames_in += 1
                load.bytes_in += len(frame)
                acked = any(m["t"] == "ack" and "version" in m for m in msgs)
                load.keep(load.own_frames if acked else load.other_frames, frame)
            if any([await on(m, tg) for m in msgs]):
                break
        tg.cancel_scope.cancel()


async def relay_chain(a: ClientConnection, b: ClientConnection, frames: list[bytes],
                      count: int, rtts: list[float], go: anyio.Event) -> None:
    """``a`` sends ``count`` frames one at a time, each after the answer to the last;
    ``b`` (if any) receives the partner's frames.  Both decode what they receive."""
    from kickline_server.protocol import decode_replies

    async def partner() -> None:
        async for frame in b:
            decode_replies(frame)

    async with anyio.create_task_group() as tg:
        if b is not a:
            tg.start_soon(partner)
        await go.wait()
        for i in range(count):
            t0 = time.perf_counter()
            await a.send(frames[i % len(frames)])
            decode_replies(await a.recv())
            rtts.append(time.perf_counter() - t0)
        tg.cancel_scope.cancel()


def load_process(kind: str, url: str, first: int, n: int, args: dict[str, Any],
                 pipe: Pipe) -> None:
    """``n`` clients numbered from ``first``: bots (``kind`` "bots") or relay/echo
    clients ("chains", ``n`` even), driven by messages from the parent on ``pipe``."""
    pin(args.get("cpu"))

    async def main() -> None:
        dialing = anyio.CapacityLimiter(32)
        conns: list[ClientConnection | None] = [None] * n

        async def one(i: int) -> None:
            conns[i] = await dial(url, dialing)
            if conns[i] is not None and kind == "chains":
                await conns[i].send(str((first + i) // 2).encode())  # type: ignore[union-attr]

        async with anyio.create_task_group() as tg:
            for i in range(n):
                tg.start_soon(one, i)
        live = [c for c in conns if c is not None]
        pipe.send({"connected": len(live), "failed": n - len(live)})
        go = anyio.Event()
        load = Load()
        cpu0 = self_cpu_s()
        result: dict[str, Any] = {}
        probe = None
        if args.get("trace"):
            import trace as tracing  # bench/trace.py

            load.trace = []
            probe = tracing.ServerTrace()  # its loop-lag probe only
        async with anyio.create_task_group() as tg:
            if probe is not None:
                tg.start_soon(probe.probe)
            if kind == "bots":
                for i, ws in enumerate(conns):
                    if ws is not None:
                        tg.start_soon(bot, ws, args["game"], args["config"], load, first + i,
                                      go, args["think"], args.get("requeue", False))
            else:
                count = args["count"]
                for i in range(0, n, 2):
                    a, b = conns[i], conns[i + 1]
                    if a is not None:
                        pair_b = a if b is None or args["mode"] == "echo" else b
                        tg.start_soon(relay_chain, a, pair_b, args["frames"], count,
                                      load.rtts, go)
            assert await recv_pipe(pipe) == "go"
            go.set()
            if kind == "bots":
                assert await recv_pipe(pipe) == "reset"  # the warm-up is over
                load.rtts.clear()
                load.decisions = load.completed = 0
                load.measuring = True
                if probe is not None:
                    probe.lag.clear()
                cpu0 = self_cpu_s()
                assert await recv_pipe(pipe) == "stop"
                tg.cancel_scope.cancel()
        result = {"rtts": load.rtts, "decisions": load.decisions or len(load.rtts),
                  "completed": load.completed, "cpu_s": self_cpu_s() - cpu0,
                  "decide_frames": load.decide_frames, "own_frames": load.own_frames,
                  "other_frames": load.other_frames, "frames_in": load.frames_in,
                  "bytes_in": load.bytes_in, "dropped": load.dropped,
                  "trace": load.trace, "lag": probe.lag if probe is not None else None}
        with anyio.move_on_after(10):
            async with anyio.create_task_group() as tg:
                for ws in live:
                    tg.start_soon(ws.close)
        pipe.send(result)

    anyio.run(main)


def start_loads(ctx: Any, kind: str, url: str, clients: int, procs: int,
                args: dict[str, Any]) -> tuple[list[Any], list[Pipe], int, int]:
    """Spread ``clients`` (kept in pairs) over ``procs`` processes; wait until every
    client has dialled.  Returns the processes, their pipes, connected, failed."""
    pairs = clients // 2
    per = [pairs // procs + (1 if i < pairs % procs else 0) for i in range(procs)]
    processes, pipes, first = [], [], 0
    for k in per:
        if k == 0:
            continue
        ours, theirs = ctx.Pipe()
        p = ctx.Process(target=load_process, args=(kind, url, first, 2 * k, args, theirs))
        p.start()
        processes.append(p)
        pipes.append(ours)
        first += 2 * k
    connected = failed = 0
    for pipe in pipes:
        r = pipe.recv()
        connected += r["connected"]
        failed += r["failed"]
    return processes, pipes, connected, failed


def collect(pipes: list[Pipe], timeout: float) -> list[dict[str, Any]]:
    out = []
    for pipe in pipes:
        if pipe.poll(timeout):
            out.append(pipe.recv())
    return out


def baseline(ctx: Any, mode: str, clients: int, procs: int, count: int, compression: bool,
             decide: list[bytes], own: list[bytes], other: list[bytes]) -> dict[str, Any]:
    """Run the relay or echo baseline: ``clients // 2`` chains of ``count`` messages."""
    port = free_port()
    ours, theirs = ctx.Pipe()
    srv = ctx.Process(target=relay_server, args=(port, compression, mode, own, other, theirs))
    srv.start()
    assert ours.poll(60) and ours.recv() == "ready"
    assert srv.pid is not None
    processes, pipes, connected, _ = start_loads(
        ctx, "chains", f"ws://127.0.0.1:{port}/", clients, procs,
        {"mode": mode, "frames": decide, "count": count})
    user0, sys0 = cpu_split(srv.pid)
    t0 = time.perf_counter()
    for pipe in pipes:
        pipe.send("go")
    results = collect(pipes, 600)
    elapsed = time.perf_counter() - t0
    user1, sys1 = cpu_split(srv.pid)
    cpu = user1 + sys1 - user0 - sys0
    ours.send("stop")
    srv.join(30)
    for p in processes:
        p.join(30)
    rtts = [x for r in results for x in r["rtts"]]
    n = len(rtts)
    return {
        "chains": connected // 2, "messages": n,
        "frame_bytes_out": round(statistics.mean(map(len, decide))),
        "frame_bytes_in": (round(statistics.mean(map(len, own))) if mode == "relay"
                           else round(statistics.mean(map(len, decide)))),
        "partner_frame_bytes": round(statistics.mean(map(len, other)))
        if mode == "relay" else None,
        "messages_per_s": round(n / elapsed, 1) if elapsed else 0.0,
        "rtt_ms": pcts(rtts),
        "server_cpu_us_per_message": round(cpu / n * 1e6) if n else None,
        "server_sys_share_of_cpu": round((sys1 - sys0) / cpu, 2) if cpu else None,
        "server_cpu_share": round(cpu / elapsed, 2) if elapsed else None,
        "load_cpu_share": [round(r["cpu_s"] / elapsed, 2) for r in results],
    }


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--matches", type=int, default=100, help="concurrent matches (100)")
    ap.add_argument("--seconds", type=float, default=30.0, help="time bound (30 s)")
    ap.add_argument("--procs", type=int, default=2,
                    help="load-generating processes, 1-8 (2)")
    ap.add_argument("--think", type=float, default=0.0,
                    help="mean seconds a bot waits before each decision (0: none; a "
                         "paced load instead of a flood)")
    ap.add_argument("--warmup", type=float, default=5.0,
                    help="seconds of play (matches starting) before measuring (5)")
    ap.add_argument("--game", default="kickline",
                    help="kickline | toy (a toy match lasts about a second: use --warmup 0, "
                         "or every match ends inside the warm-up and nothing is measured)")
    ap.add_argument("--board", type=int, default=7)
    ap.add_argument("--sqlite-synchronous", default="NORMAL")
    ap.add_argument("--no-baselines", action="store_true",
                    help="skip the relay and echo runs")
    ap.add_argument("--profile", metavar="FILE",
                    help="run the Kickline server under cProfile, stats to FILE")
    ap.add_argument("--compression", action="store_true",
                    help="offer permessage-deflate (all servers)")
    ap.add_argument("--vs-bgio", action="store_true",
                    help="against boardgame.io 0.50.2 instead (see bench/vs_bgio.py): "
                         "--loads, --rounds, --seconds, --warmup, --think apply")
    ap.add_argument("--loads", default="10,100,500,1000p",
                    help="--vs-bgio: concurrent matches per load; 'p' = paced at --think "
                         "(10,100,500,1000p)")
    ap.add_argument("--rounds", type=int, default=3, help="--vs-bgio: rounds per load (3)")
    ap.add_argument("--servers", default=None, metavar="NAME[,NAME...]",
                    help="--vs-bgio: run only these of bgio,kickline,toy,base (all)")
    ap.add_argument("--load", choices=("node", "python"), default="node",
                    help="--vs-bgio: our server's load generator: one Node process "
                         "(bench/bgio/load_kickline.mjs, the kind that drives bgio; node) "
                         "or --procs Python processes (bench/server.py's bots)")
    ap.add_argument("--breakdown", action="store_true",
                    help="--vs-bgio: stamp the decide path in our server and its load "
                         "and print where the round trips go (bench/trace.py)")
    ap.add_argument("--baseline-root", default=None,
                    help="--vs-bgio: also run Kickline on the server of this checkout "
                         "(a before/after pair in one interleaved run)")
    ap.add_argument("--workers", default=None, metavar="N[,N...]|route",
                    help="kickline serve --workers N on Redis, for each N (bench/workers.py); "
                         "'route': a routed message's cost against a local one")
    # The rated quick-match queue (bench/rated_queue.py): pairing, no server.
    ap.add_argument("--rated-queue", action="store_true",
                    help="the rated quick-match queue with --players waiting (in process)")
    ap.add_argument("--players", type=int, default=2000, help="--rated-queue: waiting (2000)")
    ap.add_argument("--spread", type=float, default=300.0,
                    help="--rated-queue: the ratings' standard deviation around 1500 (300)")
    ap.add_argument("--seed", type=int, default=1, help="--rated-queue: the ratings' seed")
    ap.add_argument("--rate", type=float, default=100.0,
                    help="--rated-queue: arrivals per second in the steady run (100)")
    args = ap.parse_args()
    if args.rated_queue:
        import rated_queue

        return rated_queue.main(args)
    if args.workers:
        import workers

        return workers.main(args)
    if args.vs_bgio:
        import vs_bgio

        if "--seconds" not in sys.argv:
            args.seconds = 10.0
        if "--warmup" not in sys.argv:
            args.warmup = 3.0
        if "--think" not in sys.argv:
            args.think = 1.0
        if "--procs" not in sys.argv:
            args.procs = 1  # one load process per server, as bgio's one Node process
        return vs_bgio.main(args)
    procs = max(1, min(8, args.procs))
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
                                 theirs, args.profile))
        proc.start()
        assert ours.poll(60) and ours.recv() == "ready"
        pid = proc.pid or 0
        rss0 = rss_kib(pid)
        processes, pipes, connected, failed = start_loads(
            ctx, "bots", f"ws://127.0.0.1:{port}/ws", n_clients, procs,
            {"game": args.game, "config": config, "think": args.think})
        for pipe in pipes:
            pipe.send("go")
        time.sleep(args.warmup)
        for pipe in pipes:
            pipe.send("reset")
        ours.send("reset")
        user0, sys0 = cpu_split(pid)
        t0 = time.perf_counter()
        peak = rss_kib(pid)
        while time.perf_counter() - t0 < args.seconds:
            time.sleep(0.2)
            peak = max(peak, rss_kib(pid))
        elapsed = time.perf_counter() - t0
        user1, sys1 = cpu_split(pid)
        cpu = user1 + sys1 - user0 - sys0
        for pipe in pipes:
            pipe.send("stop")
        results = collect(pipes, 120)
        for p in processes:
            p.join(30)
        ours.send("stop")
        t_stop = time.perf_counter()
        stats = ours.recv() if ours.poll(600) else {}
        shutdown_s = time.perf_counter() - t_stop
        proc.join(30)

    rtts = [x for r in results for x in r["rtts"]]
    decisions = sum(r["decisions"] for r in results)
    frames_in = sum(r["frames_in"] for r in results)
    decide = [f for r in results for f in r["decide_frames"]] or [b"\x80" * 70]
    own = [f for r in results for f in r["own_frames"]] or [b"\x80"]
    other = [f for r in results for f in r["other_frames"]] or [b"\x80"]
    dps = decisions / elapsed if elapsed else 0.0
    samples = stats.get("samples", [])
    out: dict[str, Any] = {
        "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
        "cpus": os.cpu_count(), "load_average": os.getloadavg()[0],
        "game": args.game, "board": args.board, "matches": args.matches,
        "think_s": args.think, "warmup_s": args.warmup, "load_procs": len(processes),
        "connections": n_clients, "connect_failures": failed,
        "seconds": round(elapsed, 2), "server_shutdown_s": round(shutdown_s, 2),
        "matches_completed": sum(r["completed"] for r in results) // 2,
        "decisions": decisions,
        "decisions_per_s": round(dps, 1),
        "rtt_ms": pcts(rtts),
        "server_cpu_us_per_decision": round(cpu / decisions * 1e6) if decisions else None,
        "server_cpu_share": round(cpu / elapsed, 2),
        "server_sys_share_of_cpu": round((sys1 - sys0) / cpu, 2) if cpu else None,
        "load_cpu_share": [round(r["cpu_s"] / elapsed, 2) for r in results],
        "frames_in_per_decision": round(frames_in / decisions, 2) if decisions else None,
        "bytes_in_per_decision": round(sum(r["bytes_in"] for r in results) / decisions)
        if decisions else None,
        "server_rss_kib": {"idle": rss0, "peak": peak,
                           "per_connection": round((peak - rss0) / max(1, connected), 1)},
        "snapshot_bytes_last": stats.get("snapshot_bytes"),
        "persist_bytes_mean": round(stats["persist_bytes"] / stats["persists"])
        if stats.get("persists") else None,
        "write_ms": pcts(samples),
        "gc": stats.get("gc"),
        "sqlite_synchronous": args.sqlite_synchronous,
        "compression": args.compression,
    }
    if not args.no_baselines and decisions:
        # The same number of messages as the Kickline run measured, over N chains.
        count = max(1, decisions // max(1, connected // 2))
        relay = baseline(ctx, "relay", connected, procs, count, args.compression,
                         decide, own, other)
        echo = baseline(ctx, "echo", connected, procs, count, args.compression,
                        decide, own, other)
        out["relay"] = relay
        out["echo"] = echo
        out["throughput_ratio"] = round(dps / relay["messages_per_s"], 3)
        out["ratio_vs_echo"] = round(dps / echo["messages_per_s"], 3)
        if relay["server_cpu_us_per_message"] and out["server_cpu_us_per_decision"]:
            out["cpu_ratio_relay_per_kickline"] = round(
                relay["server_cpu_us_per_message"] / out["server_cpu_us_per_decision"], 3)
    print(json.dumps(out, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
