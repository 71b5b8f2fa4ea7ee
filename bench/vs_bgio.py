"""``bench/server.py --vs-bgio``: a decision's cost on our server against boardgame.io's.

The anchor is boardgame.io 0.50.2's own server (``bench/bgio/server.js``: Koa +
socket.io, in-memory storage, matches created and joined through its lobby API) playing
a trivial two-player game: players alternate, a move adds 1-3 to a shared total,
validated, the new state sent to both players, nothing persisted.  It is an npm dev
dependency of the bench only (``bench/bgio/package.json`` and its lock, ``koa-compose``
pinned to 4.1.0 by an override, which its lobby needs); the script installs it with
``npm ci`` on first use.  Nothing in the test suite needs it.

For every load (concurrent matches) and every round, three servers run one after the
other, the order rotating from round to round (interleaved: the shared machine's load
drifts alike for all three):

- **bgio**: the anchor, driven by ``bench/bgio/load.js`` (lean socket.io clients, the
  websocket transport);
- **kickline**: our server (``run_server``, embedded SQLite, the GC tuning of
  ``kickline serve``) playing Kickline training matches (board 7, bots choosing
  uniformly among the legal decisions), every decision persisted before it is answered,
  driven by ``bench/bgio/load_kickline.mjs`` (``--load node``, the default): one Node
  process of lean ``ws`` clients speaking our protocol with the web client's msgpack
  codec, the same kind of load generator as bgio's (``--load python``: ``--procs``
  processes of bench/server.py's Python bots instead; one of them, at 1 000 paced
  matches, queued its own frames for tens to hundreds of ms);
- **base** (with ``--baseline-root DIR``): Kickline on the server of another checkout
  (e.g. ``git archive`` of an older commit), for a before/after pair in the same run;
- **toy**: our server playing its toy ruleset (``kickline_server.toy``, whose rules cost
  almost nothing), to separate the server's own cost from the rules' cost.  A toy match
  lasts about 60 decisions; the bots then quick-match again at once.

Each server is pinned to core 0 and its load to core 1 (``taskset`` / ``sched_setaffinity``
where the machine has two cores).  The figure that matters is **CPU time per decision**
(user + system, from ``/proc/PID/stat``, over the measured window, divided by the
decisions the clients saw acknowledged), not wall-clock throughput: the machine is shared
and busy, and CPU time is what a decision costs a core.  Printed per load: the median
and spread (min-max over rounds) of kickline/bgio, toy/bgio and kickline/toy, and per
server: CPU µs per decision, decisions/s, round trip p50/p99, GC pause max (our server:
``gc.callbacks``), RSS per live match (peak minus idle, over matches), bytes received by
clients per decision, and the load process's CPU share.  The load average is printed
before and after.  Loads given as ``1000p`` are paced: every player waits 0.5-1.5 x
``--think`` (1 s) before each move, i.e. about one decision per second per match, as
people play.

``--breakdown`` (our servers): stamps along the decide path in the server and the load
(``bench/trace.py``) split each round trip into segments (the load sending, dispatch and
the actor's inbox, the core's work, the durable write, the writer task, the load
reading) and count the slow decisions that overlapped a GC pause or an event-loop stall
of the server or of the load.  ``--servers`` runs only some of the servers.
"""

from __future__ import annotations

import json
import multiprocessing as mp
import os
import statistics
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any

import server as bench  # bench/server.py (this directory is on sys.path)

BGIO = Path(__file__).resolve().parent / "bgio"
SERVERS = ("bgio", "kickline", "toy")
SERVER_CPU, LOAD_CPU = 0, 1


def taskset(cpu: int) -> list[str]:
    if (os.cpu_count() or 1) > cpu and subprocess.run(
            ["sh", "-c", "command -v taskset"], capture_output=True).returncode == 0:
        return ["taskset", "-c", str(cpu)]
    return []


def ensure_bgio() -> None:
    if (BGIO / "node_modules" / "boardgame.io" / "package.json").exists():
        return
    print("installing the boardgame.io anchor (npm ci in bench/bgio)", flush=True)
    subprocess.run(["npm", "ci", "--no-audit", "--no-fund"], cwd=BGIO, check=True)


def proc_cpu(pid: int) -> float:
    user, system = bench.cpu_split(pid)
    return user + system


def runqueue_wait(pid: int) -> float:
    """Seconds the process's threads have spent ready to run but waiting for a core
    (``/proc/PID/task/*/schedstat``): on a shared machine, how much of a window the
    server was kept off its core by other processes."""
    total = 0
    for task in Path(f"/proc/{pid}/task").iterdir():
        try:
            total += int((task / "schedstat").read_text().split()[1])
        except (OSError, IndexError, ValueError):
            continue
    return total / 1e9


def summary(rtts: list[float], decisions: int, cpu: float, elapsed: float, rss: tuple[int, int],
            matches: int, bytes_in: int, load_cpu: float) -> dict[str, Any]:
    return {
        "decisions": decisions,
        "decisions_per_s": round(decisions / elapsed, 1) if elapsed else 0.0,
        "cpu_us_per_decision": round(cpu / decisions * 1e6, 1) if decisions else None,
        "server_cpu_share": round(cpu / elapsed, 2) if elapsed else None,
        "rtt_ms": bench.pcts(rtts),
        "rss_kib_per_match": round((rss[1] - rss[0]) / matches, 1),
        "bytes_per_decision": round(bytes_in / decisions) if decisions else None,
        "load_cpu_share": round(load_cpu / elapsed, 2) if elapsed else None,
    }


def run_bgio(matches: int, think: float, warmup: float, seconds: float) -> dict[str, Any]:
    port = bench.free_port()
    env = {**os.environ, "NODE_ENV": "production"}
    srv = subprocess.Popen([*taskset(SERVER_CPU), "node", "server.js", str(port)], cwd=BGIO,
                           stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=env)
    load = None
    try:
        assert srv.stdout is not None and srv.stdout.readline().startswith("ready")
        rss0 = bench.rss_kib(srv.pid)
        load = subprocess.Popen(
            [*taskset(LOAD_CPU), "node", "load.js", str(port), str(matches), str(think),
             str(matches)], cwd=BGIO, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
            env=env)
        assert load.stdin is not None and load.stdout is not None
        hello = json.loads(load.stdout.readline())
        load.stdin.write("go\n")
        load.stdin.flush()
        time.sleep(warmup)
        load.stdin.write("reset\n")
        load.stdin.flush()
        cpu0, t0, wait0 = proc_cpu(srv.pid), time.perf_counter(), runqueue_wait(srv.pid)
        peak = bench.rss_kib(srv.pid)
        while time.perf_counter() - t0 < seconds:
            time.sleep(0.2)
            peak = max(peak, bench.rss_kib(srv.pid))
        cpu, elapsed = proc_cpu(srv.pid) - cpu0, time.perf_counter() - t0
        waited = runqueue_wait(srv.pid) - wait0
        load.stdin.write("stop\n")
        load.stdin.flush()
        r = json.loads(load.stdout.readline())
        load.wait(30)
    finally:
        if load is not None and load.poll() is None:
            load.kill()
        if srv.stdin is not None:
            srv.stdin.close()
        try:
            srv.wait(10)
        except subprocess.TimeoutExpired:
            srv.kill()
    out = summary(r["rtts"], r["moves"], cpu, elapsed, (rss0, peak), matches, r["bytes_in"],
                  r["cpu_s"])
    out["connected"] = hello["connected"]
    out["server_runqueue_wait_share"] = round(waited / elapsed, 2)
    out["gc_max_ms"] = None  # V8's pauses are not visible from here
    return out


class NodeLoad:
    """``bench/bgio/load_kickline.mjs`` in a Node process on the load core, behind the
    pipe-and-process interface of ``bench.start_loads``' Python load processes."""

    def __init__(self, url: str, clients: int, think: float, game: str,
                 config: dict[str, Any], trace: bool) -> None:
        self.proc = subprocess.Popen(
            [*taskset(LOAD_CPU), "node", "load_kickline.mjs", url, str(clients), str(think),
             "1", game, json.dumps(config), *(["trace"] if trace else [])],
            cwd=BGIO, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
            env={**os.environ, "NODE_ENV": "production"})
        assert self.proc.stdout is not None
        hello = json.loads(self.proc.stdout.readline())
        self.connected, self.failed = hello["connected"], hello["failed"]

    def send(self, line: str) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def poll(self, timeout: float) -> bool:
        return True  # recv reads the line when it comes

    def recv(self) -> dict[str, Any]:
        assert self.proc.stdout is not None
        out: dict[str, Any] = json.loads(self.proc.stdout.readline())
        return out

    def join(self, timeout: float) -> None:
        try:
            self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()


def run_ours(ctx: Any, game: str, matches: int, think: float, warmup: float,
             seconds: float, root: str | None = None, trace: bool = False,
             procs: int = 1, load: str = "node") -> dict[str, Any]:
    config: dict[str, Any] = ({"mode": "training", "board": 7, "teams": ["training"] * 2}
                              if game == "kickline" else
                              {"mode": "training", "board": 100, "rounds": 1000})
    with tempfile.TemporaryDirectory() as tmp:
        port = bench.free_port()
        ours, theirs = ctx.Pipe()
        proc = ctx.Process(target=bench.kickline_server,
                           args=(port, tmp, "NORMAL", False, theirs, None, SERVER_CPU, root,
                                 trace))
        proc.start()
        assert ours.poll(60) and ours.recv() == "ready"
        pid = proc.pid or 0
        rss0 = bench.rss_kib(pid)
        url = f"ws://127.0.0.1:{port}/ws"
        processes: list[Any]
        pipes: list[Any]
        if load == "node":
            node = NodeLoad(url, 2 * matches, think, game, config, trace)
            processes, pipes, connected, failed = [node], [node], node.connected, node.failed
        else:
            processes, pipes, connected, failed = bench.start_loads(
                ctx, "bots", url, 2 * matches, procs,
                {"game": game, "config": config, "think": think, "requeue": True,
                 "cpu": LOAD_CPU, "trace": trace})
        for pipe in pipes:
            pipe.send("go")
        time.sleep(warmup)
        for pipe in pipes:
            pipe.send("reset")
        ours.send("reset")
        cpu0, t0, wait0 = proc_cpu(pid), time.perf_counter(), runqueue_wait(pid)
        peak = bench.rss_kib(pid)
        while time.perf_counter() - t0 < seconds:
            time.sleep(0.2)
            peak = max(peak, bench.rss_kib(pid))
        cpu, elapsed = proc_cpu(pid) - cpu0, time.perf_counter() - t0
        waited = runqueue_wait(pid) - wait0
        for pipe in pipes:
            pipe.send("stop")
        results = bench.collect(pipes, 120)
        for p in processes:
            p.join(30)
        ours.send("stop")
        stats = ours.recv() if ours.poll(600) else {}
        proc.join(30)
        # A server that does not exit would take the next run's core: stop it, and say so
        # in the row (a shutdown that hangs is a bug to find, not a figure).
        hung = proc.is_alive()
        if hung:
            proc.kill()
            proc.join(10)
    rtts = [x for r in results for x in r["rtts"]]
    out = summary(rtts, sum(r["decisions"] for r in results), cpu, elapsed, (rss0, peak),
                  matches, sum(r["bytes_in"] for r in results),
                  sum(r["cpu_s"] for r in results))
    out["connected"], out["connect_failures"] = connected, failed
    out["server_did_not_exit"] = hung
    out["server_runqueue_wait_share"] = round(waited / elapsed, 2)
    out["matches_completed"] = sum(r["completed"] for r in results) // 2
    out["connections_dropped"] = sum(r.get("dropped", 0) for r in results)
    gc_figures = stats.get("gc") or {}
    out["gc_max_ms"] = gc_figures.get("max_ms")
    out["gc_cpu_max_ms"] = gc_figures.get("cpu_max_ms")
    out["gc"] = gc_figures
    out["served_from"] = stats.get("served_from")  # which checkout's server ran
    out["persist_bytes_mean"] = (round(stats["persist_bytes"] / stats["persists"])
                                 if stats.get("persists") else None)
    if trace and stats.get("trace"):
        import trace as tracing  # bench/trace.py

        out["breakdown"] = tracing.breakdown(
            stats["trace"], [row for r in results for row in (r.get("trace") or [])],
            sorted(x for r in results for x in (r.get("lag") or [])))
    return out


def spread(xs: list[float]) -> dict[str, float] | None:
    xs = [x for x in xs if x is not None]
    if not xs:
        return None
    return {"median": round(statistics.median(xs), 2), "min": round(min(xs), 2),
            "max": round(max(xs), 2)}


def summarise(matches: int, paced: bool, runs: dict[str, list[dict[str, Any]]]
              ) -> dict[str, Any]:
    """One load's line: the ratios round by round (median, spread), medians per server."""
    servers = tuple(runs)
    rounds = min(len(v) for v in runs.values())

    def ratio(a: str, b: str) -> dict[str, float] | None:
        if a not in runs or b not in runs:  # --servers left one out
            return None
        xs = []
        for i in range(rounds):
            x, y = runs[a][i]["cpu_us_per_decision"], runs[b][i]["cpu_us_per_decision"]
            if x and y:
                xs.append(x / y)
        return spread(xs)

    def med(name: str, key: str) -> float | None:
        vals = [row[key] for row in runs[name] if row.get(key) is not None]
        return round(statistics.median(vals), 1) if vals else None

    def worst(name: str, key: str) -> float | None:
        vals = [row[key] for row in runs[name] if row.get(key) is not None]
        return max(vals) if vals else None

    return {
        "matches": matches, "paced": paced,
        "kickline_per_bgio": ratio("kickline", "bgio"),
        "toy_per_bgio": ratio("toy", "bgio"),
        "kickline_per_toy": ratio("kickline", "toy"),
        **({"base_per_bgio": ratio("base", "bgio"), "kickline_per_base": ratio("kickline", "base")}
           if "base" in runs else {}),
        **{name: {"cpu_us_per_decision": med(name, "cpu_us_per_decision"),
                  "decisions_per_s": med(name, "decisions_per_s"),
                  "rtt_p50_ms": statistics.median(r["rtt_ms"]["p50"] for r in runs[name]),
                  "rtt_p99_ms": statistics.median(r["rtt_ms"]["p99"] for r in runs[name]),
                  "gc_max_ms": worst(name, "gc_max_ms"),
                  "gc_cpu_max_ms": worst(name, "gc_cpu_max_ms"),
                  "rss_kib_per_match": med(name, "rss_kib_per_match"),
                  "bytes_per_decision": med(name, "bytes_per_decision"),
                  "load_cpu_share": med(name, "load_cpu_share")}
           for name in servers},
        "load_average": [row["load_average"] for name in servers for row in runs[name]],
    }


def main(args: Any) -> int:
    ensure_bgio()
    ctx = mp.get_context("spawn")
    loads: list[tuple[int, bool]] = []
    for item in args.loads.split(","):
        item = item.strip()
        loads.append((int(item.rstrip("p")), item.endswith("p")))
    servers = SERVERS + (("base",) if args.baseline_root else ())
    if args.servers:
        servers = tuple(x for x in args.servers.split(",") if x in servers)
    started = {"date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
               "load_average_before": [round(x, 2) for x in os.getloadavg()],
               "cpus": os.cpu_count(), "rounds": args.rounds, "warmup_s": args.warmup,
               "seconds": args.seconds, "think_s_paced": args.think}
    print(json.dumps(started), flush=True)
    table = []
    for matches, paced in loads:
        think = args.think if paced else 0.0
        # Time to greet and pair 2N bots on a starved core before measuring (boardgame.io's
        # matches are made and joined before its load reports ready), and pacing fills
        # slowly.
        warmup = args.warmup + matches / 25 + (matches / 250 if paced else 0.0)
        runs: dict[str, list[dict[str, Any]]] = {s: [] for s in servers}
        for r in range(args.rounds):
            k = r % len(servers)
            for name in servers[k:] + servers[:k]:
                if name == "bgio":
                    row = run_bgio(matches, think, warmup, args.seconds)
                elif name == "base":
                    row = run_ours(ctx, "kickline", matches, think, warmup, args.seconds,
                                   root=args.baseline_root, trace=args.breakdown,
                                   procs=args.procs, load=args.load)
                else:
                    row = run_ours(ctx, name, matches, think, warmup, args.seconds,
                                   trace=args.breakdown, procs=args.procs, load=args.load)
                row["load_average"] = round(os.getloadavg()[0], 2)
                runs[name].append(row)
                print(json.dumps({"matches": matches, "paced": paced, "round": r,
                                  "server": name, **row}), flush=True)

        line = summarise(matches, paced, runs)
        table.append(line)
        print(json.dumps({"summary": line}), flush=True)
    print(json.dumps({"table": table, **started,
                      "load_average_after": [round(x, 2) for x in os.getloadavg()]}, indent=2))
    return 0
