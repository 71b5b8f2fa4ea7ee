"""Which collections of the cyclic collector are the long ones: a bench-only log of every
collection in the server process (``KICKLINE_BENCH_GCLOG=MS python bench/server.py ...``).

:func:`install` hooks ``gc.callbacks`` and wraps, from the outside, the GC policy's
tick (``gcpolicy.collect_and_freeze``) and its decision count (``gcpolicy.decided``),
so that each collection is logged with what triggered it:

- ``time``: the policy's timed tick (every ``GcPolicy.every`` s);
- ``decisions``: the policy's tick after ``GcPolicy.decisions`` decisions;
- ``full``: the policy's full collection (frozen objects included);
- ``auto``: any other: CPython's own collection, triggered by an allocation (its
  generation says which threshold), or a ``gc.collect()`` outside the policy (its
  frames say whose).

For each: its start (s since the last :meth:`GcLog.reset`), generation, trigger, wall
and CPU time (``time.thread_time``), objects found unreachable, and the objects it walked
(the tracked objects of the generations it collects, counted at its start, before its
clock starts: counting costs about what walking does, so a run with this log spends
about twice the collector's CPU).  Collections over ``MS`` milliseconds of CPU also keep
the most common types among the objects walked (when over 5 000) and, for an automatic
one, the Python frames that allocated when it came.  :meth:`GcLog.figures` summarises by
trigger and generation, lists the long ones, and gives every collection as (start,
generation, trigger, CPU ms, walked, decisions made so far).  Nothing here changes what
the server does.
"""

from __future__ import annotations

import collections
import gc
import sys
import time
from typing import Any


class GcLog:
    """Every collection of the process, with its trigger (one per server process)."""

    def __init__(self, long_ms: float = 10.0, long_walk: int = 5_000) -> None:
        self.long_ms = long_ms
        self.long_walk = long_walk
        self.rows: list[tuple[float, int, str, float, float, int, int, int]] = []
        """start, generation, trigger, wall, cpu, found, walked, decisions so far."""
        self.decisions = 0  # counted by the wrapped ``gcpolicy.decided``
        self.long: list[dict[str, Any]] = []
        self.trigger = ""  # set by the wrapped policy while it collects
        self.t_reset = time.perf_counter()
        self._start = (0.0, 0.0, 0, "", None, None)

    def reset(self) -> None:
        self.rows.clear()
        self.long.clear()
        self.decisions = 0
        self.t_reset = time.perf_counter()

    def on_gc(self, phase: str, info: dict[str, int]) -> None:
        gen = info.get("generation", -1)
        if phase == "start":
            trigger = self.trigger or "auto"
            walked = 0
            types = None
            for g in range(gen + 1):  # (no comprehension: its function would be garbage)
                young = gc.get_objects(generation=g)
                walked += len(young)
                if len(young) >= self.long_walk // (gen + 1):
                    # The types only for a big walk (a Counter of names is not tracked;
                    # the list is, and must be gone before the collection starts).
                    types = types if types is not None else collections.Counter()
                    for o in young:
                        types[type(o).__qualname__] += 1
                del young
            frames = None
            if trigger == "auto":
                f: Any = sys._getframe(0).f_back
                frames = []
                while f is not None and len(frames) < 6:
                    frames.append(f"{f.f_code.co_filename.rsplit('/', 2)[-1]}:"
                                  f"{f.f_lineno}:{f.f_code.co_name}")
                    f = f.f_back
                del f
            self._start = (time.perf_counter(), time.thread_time(), walked, trigger, types,
                           frames)
            return
        t0, c0, walked, trigger, types, frames = self._start
        wall, cpu = time.perf_counter() - t0, time.thread_time() - c0
        found = info.get("collected", 0)
        self.rows.append((t0 - self.t_reset, gen, trigger, wall, cpu, found, walked,
                          self.decisions))
        if cpu * 1e3 > self.long_ms:
            self.long.append({"t": round(t0 - self.t_reset, 3), "generation": gen,
                              "trigger": trigger, "cpu_ms": round(cpu * 1e3, 2),
                              "wall_ms": round(wall * 1e3, 2), "walked": walked,
                              "found": found,
                              "types": types.most_common(8) if types else None,
                              "frames": frames})
        self._start = (0.0, 0.0, 0, "", None, None)

    def figures(self) -> dict[str, Any]:
        groups: dict[str, list[tuple[float, int, str, float, float, int, int, int]]] = {}
        for row in self.rows:
            groups.setdefault(f"{row[2]}/gen{row[1]}", []).append(row)
        by: dict[str, Any] = {}
        for key, rows in sorted(groups.items()):
            cpus = sorted(r[4] for r in rows)
            walked = sorted(r[6] for r in rows)
            by[key] = {"count": len(rows),
                       "cpu_ms_p50": round(cpus[len(cpus) // 2] * 1e3, 2),
                       "cpu_ms_max": round(cpus[-1] * 1e3, 2),
                       "cpu_ms_total": round(sum(cpus) * 1e3, 1),
                       "over_10ms": sum(1 for c in cpus if c > 0.010),
                       "over_20ms": sum(1 for c in cpus if c > 0.020),
                       "walked_p50": walked[len(walked) // 2], "walked_max": walked[-1],
                       "cpu_us_per_object": round(sum(cpus) * 1e6
                                                  / max(1, sum(walked)), 3)}
        return {"by_trigger": by, "long": self.long,
                "rows": [(round(r[0], 4), r[1], r[2], round(r[4] * 1e3, 2), r[6], r[7])
                         for r in self.rows]}


def install(log: GcLog) -> None:
    """Log every collection of this process, with the GC policy's ticks named (bench
    only; call once ``kickline_server`` is imported)."""
    gc.callbacks.append(log.on_gc)
    try:
        from kickline_server import gcpolicy
    except ImportError:
        return
    tick = gcpolicy.collect_and_freeze

    def logged_tick(full: bool = False) -> int:
        if not log.trigger:
            log.trigger = "full" if full else "time"
        try:
            return tick(full)
        finally:
            log.trigger = ""

    gcpolicy.collect_and_freeze = logged_tick  # type: ignore[assignment]
    decided = getattr(gcpolicy, "decided", None)
    if decided is not None:
        def logged_decided() -> None:
            log.decisions += 1
            log.trigger = "decisions"
            try:
                decided()
            finally:
                log.trigger = ""

        gcpolicy.decided = logged_decided  # type: ignore[assignment]
