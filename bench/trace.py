"""Where a decision's round trip goes: bench-only tracing of the decide path
(``bench/server.py --vs-bgio --breakdown``).

The server process (:func:`install_server`) wraps, from the outside, the few places a
decision passes through and stamps each with ``time.perf_counter()``:

- ``in``: the frame was read from its socket (``transport.decode`` is entered);
- ``start`` / ``end``: the match actor began / finished handling the ``Decide``
  (``Actor._handle``: the core's work, the durable write, the replies queued);
- ``p0`` / ``p1``: the durable write (``Actor._persist``: the thread hop and the
  group commit);
- ``push``: the ``ack`` was queued on the connection; ``sent``: the frame holding it was
  handed to the socket (``ServerConnection.send_data`` returned: from the transport's
  flush, or from the writer task's ``send`` when the socket was full).

It also keeps every collection of the cyclic collector (start, wall and CPU time,
generation) and the event loop's lag (a task asking to sleep 5 ms, and how late it woke).
The load generator records, per decision, ``send`` (the bot is about to send it),
``frame`` (the frame holding its ``ack`` was read) and ``ack`` (the ``ack`` handled), and
its own loop lag.  On Linux ``perf_counter`` (and Node's ``process.hrtime``) read
``CLOCK_MONOTONIC``: one clock across the processes, so the stamps join.

:func:`breakdown` joins both sides on (match, message id, seat) and splits the round
trip into its segments, for all decisions and for the slowest 1 %, and says how many of
the slow ones overlapped a server GC pause or a server / load loop stall.  Nothing here
changes what the server does besides the stamps (a few µs a decision).
"""

from __future__ import annotations

import gc
import itertools
import statistics
import time
from typing import Any

LAG_TICK = 0.005
"""The loop-lag probe's sleep."""

# Server row fields, by index.
IN, START, P0, P1, PUSH, END, SENT = range(7)


class ServerTrace:
    """The server side's stamps (one instance per server process)."""

    def __init__(self) -> None:
        self.rows: dict[tuple[str, str, Any], list[float]] = {}
        self.gc: list[tuple[float, float, float, int]] = []  # start, wall, cpu, generation
        self.lag: list[tuple[float, float]] = []  # when the probe woke, how late
        self.commits: list[tuple[float, float, float, int]] = []  # start, wall, cpu, writes
        self.ticks: list[tuple[float, float, float, int, int]] = []
        """The GC policy's ticks: start, wall, cpu, objects frozen, garbage found."""
        self.last_in = 0.0
        self._gc0 = (0.0, 0.0)

    def reset(self) -> None:
        self.rows.clear()
        self.gc.clear()
        self.lag.clear()
        self.commits.clear()
        self.ticks.clear()

    def on_gc(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            self._gc0 = (time.perf_counter(), time.thread_time())
            return
        t0, c0 = self._gc0
        self.gc.append((t0, time.perf_counter() - t0, time.thread_time() - c0,
                        info.get("generation", -1)))

    async def probe(self) -> None:
        """The loop-lag probe: every lateness over 1 ms, with its time."""
        import anyio

        while True:
            t0 = time.perf_counter()
            await anyio.sleep(LAG_TICK)
            t1 = time.perf_counter()
            late = t1 - t0 - LAG_TICK
            if late > 0.001:
                self.lag.append((t1, late))

    def figures(self) -> dict[str, Any]:
        return {"rows": [(k[0], k[1], k[2], *v) for k, v in self.rows.items()],
                "gc": list(self.gc), "lag": list(self.lag), "commits": list(self.commits),
                "ticks": list(self.ticks)}


def install_server(trace: ServerTrace) -> None:
    """Wrap the decide path of the ``kickline_server`` imported now (bench only)."""
    from websockets.asyncio.server import ServerConnection

    from kickline_server import actor, transport
    from kickline_server.core import Decide

    decode = transport.decode

    def traced_decode(frame: Any, *args: Any, **kw: Any) -> Any:
        t = time.perf_counter()
        msg = decode(frame, *args, **kw)
        if type(msg) is dict and msg.get("t") == "decide":
            trace.last_in = t
            trace.rows[(msg.get("match"), str(msg.get("id")), msg.get("seat"))] = [
                t, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]
        return msg

    transport.decode = traced_decode  # type: ignore[assignment]

    handle = actor.Actor._handle
    persist = actor.Actor._persist

    async def traced_handle(self: Any, cmd: Any, peer: Any) -> None:
        if type(cmd) is not Decide:
            return await handle(self, cmd, peer)
        row = trace.rows.get((self.match_id, str(cmd.re), cmd.seat))
        if row is not None:
            row[START] = time.perf_counter()
        self._trace_row = row
        try:
            await handle(self, cmd, peer)
        finally:
            self._trace_row = None
            if row is not None:
                row[END] = time.perf_counter()

    async def traced_persist(self: Any, e: Any) -> None:
        row = getattr(self, "_trace_row", None)
        if row is not None:
            row[P0] = time.perf_counter()
        await persist(self, e)
        if row is not None:
            row[P1] = time.perf_counter()

    actor.Actor._handle = traced_handle  # type: ignore[method-assign]
    actor.Actor._persist = traced_persist  # type: ignore[method-assign]

    init = transport.Connection.__init__
    push = transport.Connection.push

    def traced_init(self: Any, ws: Any, *args: Any, **kw: Any) -> None:
        init(self, ws, *args, **kw)
        self._trace_unsent = []
        ws._trace_conn = self

    def traced_push(self: Any, message: Any) -> None:
        push(self, message)
        if message.get("t") == "ack" and "version" in message:
            row = None
            for seat in (0, 1, None):
                row = trace.rows.get((message.get("match"), str(message["re"]), seat))
                if row is not None and not row[PUSH]:
                    break
            if row is not None and not row[PUSH]:
                row[PUSH] = time.perf_counter()
                self._trace_unsent.append(row)

    transport.Connection.__init__ = traced_init  # type: ignore[method-assign]
    transport.Connection.push = traced_push  # type: ignore[method-assign]

    # The transport's flush writes through websockets' protocol and ``send_data``, the
    # writer task through ``send``, which ends in ``send_data`` too: stamp there.
    send_data = ServerConnection.send_data

    def traced_send_data(self: Any) -> None:
        conn = getattr(self, "_trace_conn", None)
        rows: list[list[float]] = []
        if conn is not None and conn._trace_unsent:
            rows, conn._trace_unsent = conn._trace_unsent, []
        send_data(self)
        if rows:
            t = time.perf_counter()
            for row in rows:
                row[SENT] = t

    ServerConnection.send_data = traced_send_data  # type: ignore[method-assign]

    from kickline_server import store_sqlite

    commit = store_sqlite.SqliteStore._commit

    def traced_commit(self: Any, batch: Any) -> None:  # in the store's worker thread
        t0, c0 = time.perf_counter(), time.thread_time()
        try:
            commit(self, batch)
        finally:
            trace.commits.append((t0, time.perf_counter() - t0, time.thread_time() - c0,
                                  len(batch)))

    store_sqlite.SqliteStore._commit = traced_commit  # type: ignore[method-assign]

    from kickline_server import gcpolicy

    tick = gcpolicy.collect_and_freeze

    def traced_tick(full: bool = False) -> int:
        # What each tick walks: the objects not frozen (counted before, outside the
        # stamps: listing them costs about what walking them does; get_freeze_count
        # would walk the whole frozen list, ~10^6 objects, twice a tick).
        young = sum(len(gc.get_objects(generation=g)) for g in range(3))
        t0, c0 = time.perf_counter(), time.thread_time()
        found = tick(full)
        t1, c1 = time.perf_counter(), time.thread_time()
        trace.ticks.append((t0, t1 - t0, c1 - c0, young - found, found))
        return found

    gcpolicy.collect_and_freeze = traced_tick
    gc.callbacks.append(trace.on_gc)


# --- the join ---------------------------------------------------------------------

SEGMENTS = (
    ("client_send_to_server_read", "the load sending + the server reading the frame"),
    ("read_to_actor", "dispatch and the actor's inbox"),
    ("actor_to_persist", "the core's work (apply, views, encoding)"),
    ("persist", "the durable write: thread hop + group commit"),
    ("persist_to_ack_queued", "replies queued"),
    ("queued_to_sent", "the end of the loop pass: the connection's flush"),
    ("sent_to_client_read", "the socket + the load reading the frame"),
    ("client_read_to_handled", "the load decoding and handling the frame"),
)


def _overlaps(spans: list[tuple[float, float]], t0: float, t1: float) -> float:
    """Seconds of ``spans`` (sorted by start, as (start, end)) inside [t0, t1]."""
    total = 0.0
    for a, b in spans:
        if a > t1:
            break
        if b > t0:
            total += min(b, t1) - max(a, t0)
    return total


def breakdown(server: dict[str, Any], client_rows: list[tuple[Any, ...]],
              client_lag: list[tuple[float, float]]) -> dict[str, Any]:
    """Join the server's stamps with the load's ``(match, id, seat, send, frame, ack)``
    rows; the segments' medians for every decision and for the slowest 1 %, and what
    the slow ones overlapped."""
    rows = {(r[0], str(r[1]), r[2]): r[3:] for r in server.get("rows", [])}
    joined = []
    for match, rid, seat, t_send, t_frame, t_ack in client_rows:
        s = rows.get((match, str(rid), seat))
        if s is None or not all(s):
            continue
        marks = (t_send, s[IN], s[START], s[P0], s[P1], s[PUSH], s[SENT], t_frame, t_ack)
        joined.append((t_ack - t_send, [b - a for a, b in itertools.pairwise(marks)], t_send,
                       t_ack))
    if not joined:
        return {"joined": 0}
    joined.sort(key=lambda j: j[0])
    n = len(joined)
    tail = joined[int(0.99 * n):]
    gcs = sorted((g[0], g[0] + g[1]) for g in server.get("gc", []))
    srv_lag = sorted((t - late, t) for t, late in server.get("lag", []))
    load_lag = sorted((t - late, t) for t, late in client_lag)

    def seg_table(part: list[Any]) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for i, (name, _) in enumerate(SEGMENTS):
            xs = [j[1][i] for j in part]
            out[name] = {"median_ms": round(statistics.median(xs) * 1e3, 2),
                         "mean_ms": round(statistics.fmean(xs) * 1e3, 2),
                         "share_of_rtt": round(sum(xs) / sum(j[0] for j in part), 3)}
        return out

    def over(spans: list[tuple[float, float]], part: list[Any]) -> dict[str, Any]:
        hit = [_overlaps(spans, j[2], j[3]) for j in part]
        return {"decisions_touched": round(sum(1 for h in hit if h > 0) / len(part), 3),
                "share_of_their_rtt": round(sum(hit) / sum(j[0] for j in part), 3)}

    gc_walls = [g[1] for g in server.get("gc", [])]
    return {
        "joined": n, "rtt_p50_ms": round(joined[n // 2][0] * 1e3, 2),
        "rtt_p99_ms": round(joined[int(0.99 * n)][0] * 1e3, 2),
        "all": seg_table(joined), "slowest_1pct": seg_table(tail),
        "slowest_1pct_overlapping": {
            "server_gc": over(gcs, tail), "server_loop_lag": over(srv_lag, tail),
            "load_loop_lag": over(load_lag, tail)},
        "all_overlapping": {
            "server_gc": over(gcs, joined), "server_loop_lag": over(srv_lag, joined),
            "load_loop_lag": over(load_lag, joined)},
        "server_gc": {"collections": len(gc_walls),
                      "over_10ms": sum(1 for g in gc_walls if g > 0.010),
                      "over_20ms": sum(1 for g in gc_walls if g > 0.020),
                      "max_ms": round(max(gc_walls, default=0.0) * 1e3, 2),
                      "by_generation": {str(k): _gc_summary([g for g in server.get("gc", [])
                                                             if g[3] == k]) for k in (0, 1, 2)}},
        "server_loop_lag": _lag_summary(server.get("lag", [])),
        "commits": _commit_summary(server.get("commits", [])),
        "ticks": _tick_summary(server.get("ticks", [])),
        "load_loop_lag": _lag_summary(client_lag),
    }


def _lag_summary(lag: list[tuple[float, float]]) -> dict[str, Any]:
    xs = sorted(late for _, late in lag)
    return {"stalls_over_1ms": len(xs), "over_10ms": sum(1 for x in xs if x > 0.010),
            "over_50ms": sum(1 for x in xs if x > 0.050),
            "max_ms": round(xs[-1] * 1e3, 2) if xs else 0.0,
            "total_ms": round(sum(xs) * 1e3, 1)}


def _commit_summary(commits: list[tuple[float, float, float, int]]) -> dict[str, Any]:
    """The store's group commits, timed in its worker thread: wall against CPU (the
    difference is waiting: for the GIL, for a core, for the disk)."""
    if not commits:
        return {}
    walls = sorted(c[1] for c in commits)
    return {"count": len(commits),
            "writes_per_commit": round(statistics.fmean(c[3] for c in commits), 1),
            "wall_ms": {"p50": round(walls[len(walls) // 2] * 1e3, 2),
                        "p99": round(walls[int(0.99 * len(walls))] * 1e3, 2),
                        "max": round(walls[-1] * 1e3, 2)},
            "cpu_ms_mean": round(statistics.fmean(c[2] for c in commits) * 1e3, 3),
            "wall_ms_mean": round(statistics.fmean(c[1] for c in commits) * 1e3, 3)}


def _gc_summary(gcs: list[tuple[float, float, float, int]]) -> dict[str, Any]:
    if not gcs:
        return {"count": 0}
    cpus = sorted(g[2] for g in gcs)
    return {"count": len(gcs), "cpu_ms_p50": round(cpus[len(cpus) // 2] * 1e3, 2),
            "cpu_ms_max": round(cpus[-1] * 1e3, 2),
            "cpu_over_10ms": sum(1 for c in cpus if c > 0.010),
            "cpu_over_20ms": sum(1 for c in cpus if c > 0.020),
            "wall_ms_max": round(max(g[1] for g in gcs) * 1e3, 2),
            "cpu_ms_total": round(sum(cpus) * 1e3, 1)}


def _tick_summary(ticks: list[tuple[float, float, float, int, int]]) -> dict[str, Any]:
    """The GC policy's ticks: how many objects each walked (froze + found), and the
    CPU per object walked (load-independent but for the cache)."""
    if not ticks:
        return {}
    walked = sorted(t[3] + t[4] for t in ticks)
    gaps = [b[0] - a[0] for a, b in itertools.pairwise(ticks)]
    return {"count": len(ticks),
            "walked_p50": walked[len(walked) // 2], "walked_max": walked[-1],
            "frozen_per_s": round(sum(t[3] for t in ticks)
                                  / max(1e-9, ticks[-1][0] - ticks[0][0]), 0),
            "cpu_us_per_object": round(sum(t[2] for t in ticks) * 1e6
                                       / max(1, sum(walked)), 3),
            "gap_ms_p50": round(sorted(gaps)[len(gaps) // 2] * 1e3, 1) if gaps else None,
            "gap_ms_max": round(max(gaps) * 1e3, 1) if gaps else None}


def floor(seconds: float, cpu: int | None) -> dict[str, Any]:
    """The machine's own floor: the loop-lag probe in an idle process (pinned to
    ``cpu``), the stalls any server on that core would see with no work of its own."""
    import os

    import anyio

    if cpu is not None and cpu < (os.cpu_count() or 1):
        os.sched_setaffinity(0, {cpu})
    trace = ServerTrace()

    async def main() -> None:
        with anyio.move_on_after(seconds):
            await trace.probe()

    anyio.run(main)
    lags = sorted(late for _, late in trace.lag)
    ticks = seconds / LAG_TICK
    return {"seconds": seconds, "cpu": cpu, **_lag_summary(trace.lag),
            "p99_ms": round(lags[max(0, len(lags) - int(ticks / 100))] * 1e3, 2)
            if len(lags) >= ticks / 100 else "under 1 ms",
            "load_average": [round(x, 2) for x in os.getloadavg()]}


if __name__ == "__main__":
    import argparse
    import json

    ap = argparse.ArgumentParser(description="python bench/trace.py [--seconds S] "
                                 "[--cpu N]: the event-loop stalls of an idle process "
                                 "on this machine (the floor under any server's tail)")
    ap.add_argument("--seconds", type=float, default=30.0)
    ap.add_argument("--cpu", type=int, default=0)
    a = ap.parse_args()
    print(json.dumps(floor(a.seconds, a.cpu)))
