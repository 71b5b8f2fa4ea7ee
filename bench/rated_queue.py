"""``bench/server.py --rated-queue``: the rated quick-match queue with 2,000 waiting.

    python bench/server.py --rated-queue [--players 2000] [--spread 300] [--seed 1]

The server's own matchmaker (``kickline_server.matchmaking.Matchmaker`` on its
in-process ``MemoryQueue``, the pairing rules of ``matchqueue``), driven in simulated
time with a match maker that only counts (no match is started: this measures the
queue, not the matches):

1. **2,000 waiting** (``--players``): players with ratings drawn from a normal
   distribution (mean 1500, ``--spread``) who arrived over the last 40 s (their windows
   anywhere from ±50 to the cap), all waiting at once (as a cluster-wide queue's pairing
   process, or a restart's, sees them).  The queue is paired once a simulated second
   (``Matchmaker.pair``: ``matchqueue.pair`` over everyone) until nobody more can be
   paired.  Printed: the first tick's CPU time and pairs (the pairing cost per second
   with 2,000 waiting), the median and 90th percentile rating gap of the pairs made,
   the waits, who was left (beyond the cap).
2. **Steady arrivals**: ``--rate`` players a second (±50 %) for 60 simulated seconds,
   each paired on arrival if someone close enough waits (``matchqueue.partner``), the
   queue paired every second: CPU time per second and per arrival, queue length, the
   median rating gap and wait.
3. **One pairing at the cap**: ``pair()`` alone over ``--players`` entries whose windows
   are all at the cap (the longest scans), timed over repeats.

CPU time is ``time.process_time`` (this process only); nothing asserts a figure.
Figures: docs/BENCHMARKS.md.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "shared"), str(ROOT / "server")]

from kickline_server.matchmaking import Matchmaker, Ticket, queue_key  # noqa: E402
from kickline_server.matchqueue import Entry, Window, pair  # noqa: E402

KEY = queue_key("kickline", "standard:7", True)


class Quiet:
    """A connection that drops what it is sent (the queue's acks and counts)."""

    def push(self, msg: dict[str, Any]) -> None:
        pass


class SimClock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def pct(xs: list[float], p: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(p / 100 * len(xs)))] if xs else float("nan")


class Sim:
    """The matchmaker on a simulated clock, recording the pairs it makes."""

    def __init__(self) -> None:
        self.clock = SimClock()
        self.gaps: list[float] = []
        self.waits: list[float] = []
        self.mm = Matchmaker(self.made, clock=self.clock)

    async def made(self, a: Ticket, b: Ticket) -> None:
        self.gaps.append(abs(a.entry.rating - b.entry.rating))
        self.waits.extend(self.clock.now - t.entry.since for t in (a, b))

    async def arrive(self, player: str, rating: float) -> None:
        await self.mm.request(Quiet(), player, KEY, player=player,  # type: ignore[arg-type]
                              rating=rating, last_opponent=None, request={})

    def place(self, player: str, rating: float, since: float) -> None:
        """A player already waiting since ``since`` (no arrival pairing)."""
        entry = Entry(player, rating, since, None, {})
        self.mm.tickets[player] = Ticket(KEY, entry, Quiet(), player, acked=True)  # type: ignore[arg-type]
        self.mm.state._queues.setdefault(KEY, {})[player] = entry  # type: ignore[attr-defined]
        self.mm.state._where[player] = KEY  # type: ignore[attr-defined]

    def summary(self) -> dict[str, Any]:
        g, w = self.gaps, self.waits
        return {"pairs": len(g),
                "gap": {"median": round(statistics.median(g), 1), "p90": round(pct(g, 90), 1),
                        "max": round(max(g), 1)} if g else None,
                "wait_s": {"median": round(statistics.median(w), 2), "p90": round(pct(w, 90), 2),
                           "max": round(max(w), 2)} if w else None}


def draw(rng: random.Random, spread: float) -> float:
    return min(4000.0, max(100.0, rng.gauss(1500, spread)))


async def snapshot(players: int, spread: float, seed: int) -> dict[str, Any]:
    """``players`` waiting, arrived over the last 40 s; paired tick by tick."""
    rng = random.Random(seed)
    sim = Sim()
    sim.clock.now = 40.0
    for i in range(players):
        sim.place(f"p{i}", draw(rng, spread), rng.uniform(0.0, 40.0))
    ticks = []
    for _ in range(30):
        n = await sim.mm.state.count(KEY)
        if n < 2:
            break
        before = len(sim.gaps)
        t0 = time.process_time()
        await sim.mm.pair(KEY)
        ticks.append({"t": sim.clock.now, "waiting": n, "pairs": len(sim.gaps) - before,
                      "cpu_ms": round(1000 * (time.process_time() - t0), 2)})
        sim.clock.now += 1.0
    left = await sim.mm.state.waiting(KEY)
    return {"first_tick": ticks[0], "ticks": len(ticks), **sim.summary(),
            "left_unpaired": len(left)}


async def steady(rate: float, seconds: int, spread: float, seed: int) -> dict[str, Any]:
    """``rate`` arrivals a second for ``seconds``, the queue paired once a second."""
    rng = random.Random(seed)
    sim = Sim()
    per_second, lengths, i = [], [], 0
    for second in range(seconds):
        t0 = time.process_time()
        for k in range(rng.randint(int(rate * 0.5), int(rate * 1.5))):
            sim.clock.now = second + k / rate
            await sim.arrive(f"p{i}", draw(rng, spread))
            i += 1
        sim.clock.now = second + 1.0
        await sim.mm.pair(KEY)
        per_second.append(time.process_time() - t0)
        lengths.append(await sim.mm.state.count(KEY))
    return {"arrivals": i, "cpu_ms_per_s": {"mean": round(1000 * statistics.fmean(per_second), 2),
                                            "max": round(1000 * max(per_second), 2)},
            "cpu_us_per_arrival": round(1e6 * sum(per_second) / max(1, i), 1),
            "waiting": {"median": statistics.median(lengths), "max": max(lengths)},
            **sim.summary()}


async def run(players: int, spread: float, seed: int, rate: float) -> dict[str, Any]:
    rng = random.Random(seed)
    entries = [Entry(f"p{i}", draw(rng, spread), 0.0) for i in range(players)]
    reps, t0 = 0, time.process_time()
    while time.process_time() - t0 < 2.0:
        pair(entries, 3600.0, rated=True, window=Window())  # every window at the cap
        reps += 1
    return {"players": players, "rating_spread": spread, "seed": seed,
            "snapshot": await snapshot(players, spread, seed),
            "steady": await steady(rate, 60, spread, seed),
            "one_pair_call_at_cap_ms": round(1000 * (time.process_time() - t0) / reps, 2)}


def main(args: argparse.Namespace) -> int:
    out = asyncio.run(run(args.players, args.spread, args.seed, args.rate))
    out["load_average"] = [round(x, 2) for x in os.getloadavg()]
    out["date"] = time.strftime("%Y-%m-%d %H:%M")
    import json

    print(json.dumps(out, indent=1))
    return 0
