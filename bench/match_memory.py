"""Memory per live match and the cyclic collector's pauses, in-process (no sockets).

    python bench/match_memory.py memory [--matches 200] [--decisions 10,200,1000]
    python bench/match_memory.py gc [--matches 1000] [--warm 100] [--rounds 20]

Both drive ``MatchCore`` the way an actor does (each seat held by a connection taking
view patches, as protocol-2 clients do), playing Kickline training matches (board 7)
with bots choosing uniformly among the legal decisions, one decision per match in
turn, so the matches' states and views interleave as in a server.  The effects are
dropped once handled (the store has the log; sockets have the sends).

``memory``: after each number of decisions, the bytes still allocated (tracemalloc,
after a full collection) beyond what existed before the cores, per match (the bench's
own players left out; the view caches all matches share, bounded, are in it, so the
figure falls as matches are added), and what holds them: every core's attributes
walked (``sys.getsizeof`` of each object reached, each object counted once, what the
view caches hold left out).  At the end, what clearing the view caches and the cores'
last views frees, per match.  The counts do not depend on the machine's load.

``gc``: ``--matches`` live matches played ``--warm`` decisions each, then ``--rounds``
rounds of one decision per match, with ``gc.callbacks`` timing every collection (wall
and CPU time) and counting what it collected, under three settings: the interpreter's
thresholds, ``kickline serve``'s (``tune_gc``: freeze at start, 5 000/50/10), and
those plus ``gc.freeze()`` once the matches are live (as after recovering them).  Then
one full collection is timed (``gc.collect()``): the longest a gen-2 pause can be with
these matches live, whether or not the rounds reached one; ``tracked_objects`` is what
it walks.  The pauses' wall-clock time depends on the load; their CPU time much less.
Prints JSON.
"""

from __future__ import annotations

import argparse
import gc
import importlib
import json
import os
import random
import sys
import time
import tracemalloc
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "shared"), str(ROOT / "server")]

from kickline import GAME  # noqa: E402
from kickline.bots import BOTS  # noqa: E402
from kickline_server.app import GC_THRESHOLD  # noqa: E402
from kickline_server.core import Decide, MatchCore, Persist, Send, Sit  # noqa: E402

CONFIG = {"mode": "training", "board": 7, "teams": ["training", "training"]}


class Match:
    """One core and what its two players last saw."""

    def __init__(self, n: int) -> None:
        self.core = MatchCore(GAME, BOTS, match_id=f"m{n}", config=CONFIG,
                              seed=n.to_bytes(32, "big"), now=0.0,
                              log_window=64, reply_cache=64)  # the server's defaults
        self.rng = random.Random(n)
        self.prompts: dict[int, dict[str, Any]] = {}
        self.handle(Sit(0, "a", "A", conn=1, re="s0", patches=True))
        self.handle(Sit(1, "b", "B", conn=2, re="s1", patches=True))

    def handle(self, cmd: Any) -> None:
        for e in self.core.handle(cmd, 0.0):
            if isinstance(e, Send) and e.message.get("t") == "prompt":
                self.prompts[e.conn] = {"version": e.message["version"],
                                        "legal": e.message["legal"]}
            elif isinstance(e, Persist):
                pass  # the store would write it; nothing of it stays in the core

    def decide(self) -> bool:
        """One decision by a seat that owes one; False once the match is over."""
        if self.core.status != "playing":
            return False
        seats = self.core.to_act()[1]
        if not seats:
            return False
        seat = self.rng.choice(seats)
        p = self.prompts[seat + 1]
        self.handle(Decide(seat + 1, "ab"[seat], f"{seat}-{p['version']}", p["version"],
                           self.rng.choice(p["legal"])))
        return True


def play(matches: list[Match], decisions: int) -> None:
    for _ in range(decisions):
        for m in matches:
            m.decide()


def deep_size(obj: Any, seen: set[int]) -> int:
    """Bytes of ``obj`` and everything it reaches not already in ``seen``."""
    total = 0
    stack = [obj]
    while stack:
        o = stack.pop()
        if id(o) in seen or isinstance(o, type) or (callable(o) and not isinstance(o, dict)):
            continue
        seen.add(id(o))
        total += sys.getsizeof(o)
        if isinstance(o, dict):
            stack.extend(o.keys())
            stack.extend(o.values())
        elif isinstance(o, list | tuple | set | frozenset):
            stack.extend(o)
        elif hasattr(o, "__slots__") or hasattr(o, "__dict__"):
            if hasattr(o, "__dict__"):
                stack.append(vars(o))
            for cls in type(o).__mro__:
                for name in getattr(cls, "__slots__", ()):
                    if hasattr(o, name):
                        stack.append(getattr(o, name))
    return total


def shared_ids() -> set[int]:
    """Objects the matches reach but none owns: the view caches (``kickline.view``'s
    per-setting entries and parts, the patch memo), which the walk leaves out."""
    from kickline_server import patch
    view = importlib.import_module("kickline.view")  # ``kickline.view`` is also a function
    seen: set[int] = set()
    for module in (view, patch):
        for value in vars(module).values():
            if isinstance(value, dict | list):
                deep_size(value, seen)
    return seen


def memory(args: argparse.Namespace) -> dict[str, Any]:
    gc.collect()
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    matches = [Match(n) for n in range(args.matches)]
    out: dict[str, Any] = {"matches": args.matches, "points": []}
    done = 0
    for target in args.decisions:
        play(matches, target - done)
        done = target
        gc.collect()
        now = tracemalloc.get_traced_memory()[0]
        shared = shared_ids()
        per_attr: dict[str, int] = {}
        seen = set(shared)
        for m in matches:
            for name, value in vars(m.core).items():
                if name in ("game", "bots"):
                    continue
                per_attr[name] = per_attr.get(name, 0) + deep_size(value, seen)
        walked = sum(per_attr.values())
        # The bench's own players (their dice and last prompts) are not the server's.
        players = sum(deep_size([m.rng, m.prompts], set()) for m in matches)
        # The walk's own sets of ids are megabytes: gone before anything is traced again.
        del shared, seen
        top = sorted(per_attr.items(), key=lambda kv: -kv[1])[:10]
        out["points"].append({
            "decisions": done,
            "live": sum(1 for m in matches if m.core.status == "playing"),
            "traced_kib_per_match": round((now - before - players) / args.matches / 1024, 1),
            "walked_kib_per_match": round(walked / args.matches / 1024, 1),
            "by_attribute_kib": {k: round(v / args.matches / 1024, 2) for k, v in top},
        })
    # The view caches all matches share (bounded): what clearing them frees.
    view = importlib.import_module("kickline.view")
    view.clear_caches()
    for m in matches:  # the views still holding cached entries
        m.core._views.clear()
    gc.collect()
    without = tracemalloc.get_traced_memory()[0]
    out["view_caches_and_views_kib_per_match"] = round((now - without) / args.matches / 1024, 1)
    tracemalloc.stop()
    return out


def gc_run(args: argparse.Namespace, setting: str) -> dict[str, Any]:
    gc.collect()
    if setting == "default":
        gc.set_threshold(700, 10, 10)
    else:
        gc.freeze()
        gc.set_threshold(*GC_THRESHOLD)
    matches = [Match(n) for n in range(args.matches)]
    play(matches, args.warm)
    if setting == "tuned+freeze":
        gc.collect()
        gc.freeze()
    pauses: list[tuple[int, float, float, int]] = []
    start: list[float] = [0.0, 0.0]

    def watch(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            start[0], start[1] = time.perf_counter(), time.process_time()
        else:
            pauses.append((info["generation"], time.perf_counter() - start[0],
                           time.process_time() - start[1], info["collected"]))

    gc.callbacks.append(watch)
    t0, c0 = time.perf_counter(), time.process_time()
    decided = 0
    for _ in range(args.rounds):
        for m in matches:
            decided += m.decide()
    wall, cpu = time.perf_counter() - t0, time.process_time() - c0
    gc.callbacks.remove(watch)
    # What a full collection costs now: the longest pause a gen-2 collection could make
    # with these matches live (the rounds may not have reached one).
    tracked = len(gc.get_objects())
    t1, c1 = time.perf_counter(), time.process_time()
    gc.collect()
    full_wall, full_cpu = time.perf_counter() - t1, time.process_time() - c1
    gc.unfreeze()
    out: dict[str, Any] = {"setting": setting, "decisions": decided,
                           "cpu_us_per_decision": round(cpu / max(decided, 1) * 1e6, 1),
                           "wall_s": round(wall, 1), "tracked_objects": tracked,
                           "full_collection_ms": {"wall": round(full_wall * 1e3, 1),
                                                  "cpu": round(full_cpu * 1e3, 1)}}
    for gen in (0, 1, 2):
        mine = [p for p in pauses if p[0] == gen]
        out[f"gen{gen}"] = {
            "collections": len(mine),
            "max_wall_ms": round(max((p[1] for p in mine), default=0) * 1e3, 2),
            "max_cpu_ms": round(max((p[2] for p in mine), default=0) * 1e3, 2),
            "total_cpu_ms": round(sum(p[2] for p in mine) * 1e3, 1),
            "collected": sum(p[3] for p in mine),
        }
    out["gc_share_of_cpu"] = round(sum(p[2] for p in pauses) / cpu, 3) if cpu else None
    del matches
    gc.collect()
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("what", choices=("memory", "gc"))
    ap.add_argument("--matches", type=int)
    ap.add_argument("--decisions", default="10,200,1000",
                    type=lambda s: [int(x) for x in s.split(",")])
    ap.add_argument("--warm", type=int, default=100)
    ap.add_argument("--rounds", type=int, default=20)
    ap.add_argument("--settings", default="default,tuned,tuned+freeze")
    args = ap.parse_args()
    meta = {"date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
            "load_average": round(os.getloadavg()[0], 2)}
    if args.what == "memory":
        args.matches = args.matches or 200
        print(json.dumps({**memory(args), **meta}))
    else:
        args.matches = args.matches or 1000
        for setting in args.settings.split(","):
            print(json.dumps({**gc_run(args, setting), "matches": args.matches, **meta}),
                  flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
