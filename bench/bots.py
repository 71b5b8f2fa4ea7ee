"""The bots' strength ladder: each level against the one below it.

    python bench/bots.py [--pairs casual:beginner,strong:casual,strongest:strong]
                         [--modes advanced] [--boards 7] [--matches 200] [--workers 2]
                         [--scale 1.0] [--seed 0] [--deadline 0] [--json]
                         [--budget strong=128/2 ...] [--budget strongest=64/2/rich]

Each pair plays ``--matches`` matches per mode and board; the stronger level takes seat 0
in half of them (the toss is a die like any other), and in standard and advanced mode the
teams cycle through the 16 ordered pairings of the species teams.  It prints each pair's
win rate for the stronger level with its 95% Wilson interval (``--json``: one JSON
object per line as each pair finishes), the CPU seconds per
decision of each level (mean, 95th percentile, max; a decision with one legal option is
taken by the engine and never reaches a bot), and what a ladder of 1,000 matches per
pair and mode would cost on this machine at those figures.

The search levels think for a fixed number of playouts (``kickline.bots.BUDGETS``), not
for a wall-clock time, so a run is reproducible and any machine measures the same
strength; ``--scale`` multiplies every playout budget (0.25 plays a cheaper ladder), and
``--budget LEVEL=PLAYOUTS/HORIZON[/EVALUATION]`` tries another budget for a search level
(how the levels' budgets were chosen; the report names the budgets it played), and
optionally another evaluation of the playouts' last positions (``search.EVALUATIONS``:
``basic``, ``rich``), so a variant can be played against the same search at the same
budget (``--pairs strongest:strong --budget strong=64/2 --budget strongest=64/2/rich``).
Matches run in ``--workers`` processes over disjoint seeds.  ``--deadline`` bounds a
pair's run in wall-clock seconds on a shared machine: the matches are taken in their
order and the first ones finished by then are the sample (a prefix, so a long match is
not left out for being long), and the report says how many of ``--matches`` that was.
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import random
import sys
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "shared"))

import kickline  # noqa: E402
from kickline.bots import BOTS, BUDGETS, Bot, SearchBot  # noqa: E402
from kickline.bots.search import EVALUATIONS  # noqa: E402
from kickline.roster import SPECIES_TEAMS  # noqa: E402

Z95 = 1.959964
PAIRINGS = [(a, b) for a in SPECIES_TEAMS for b in SPECIES_TEAMS]


def wilson(wins: float, n: int) -> tuple[float, float]:
    """The 95% Wilson score interval of a binomial proportion."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = p + Z95 * Z95 / (2 * n)
    half = Z95 * math.sqrt(p * (1 - p) / n + Z95 * Z95 / (4 * n * n))
    den = 1 + Z95 * Z95 / n
    return (centre - half) / den, (centre + half) / den


# level -> (playouts, horizon, evaluation), before --scale
Budgets = dict[str, tuple[int, int, str]]
Job = tuple[str, str, str, int, int, float, int, Budgets]


def budgets_of(specs: list[str]) -> Budgets:
    """``BUDGETS`` with ``LEVEL=PLAYOUTS/HORIZON`` overrides; a bad one exits with the cause."""
    out = {lv: (b.playouts, b.horizon, b.evaluation) for lv, b in BUDGETS.items()}
    for spec in specs:
        level, _, value = spec.partition("=")
        playouts, _, rest = value.partition("/")
        horizon, _, evaluation = rest.partition("/")
        if level not in BUDGETS or not playouts.isdigit() or not horizon.isdigit() \
                or int(playouts) < 1 or int(horizon) < 1 \
                or (evaluation and evaluation not in EVALUATIONS):
            raise SystemExit(f"--budget {spec!r}: expected LEVEL=PLAYOUTS/HORIZON[/EVALUATION] "
                             f"with LEVEL one of {', '.join(BUDGETS)} and EVALUATION one of "
                             f"{', '.join(EVALUATIONS)}, e.g. strong=128/2 or strong=64/2/rich")
        out[level] = (int(playouts), int(horizon), evaluation or BUDGETS[level].evaluation)
    return out


def bot_for(level: str, scale: float, budgets: Budgets) -> Bot:
    if level not in BUDGETS:
        return BOTS[level]
    playouts, horizon, evaluation = budgets[level]
    b = BUDGETS[level]
    if scale == 1.0 and (playouts, horizon, evaluation) == (b.playouts, b.horizon, b.evaluation):
        return BOTS[level]
    return SearchBot(replace(b, playouts=max(1, round(playouts * scale)), horizon=horizon,
                             evaluation=evaluation))


def play(job: Job) -> dict[str, Any]:
    """One match: ``strong`` against ``weak``; the stronger in seat ``i % 2``."""
    strong, weak, mode, board, i, scale, seed, budgets = job
    strong_seat = i % 2
    levels = (strong, weak) if strong_seat == 0 else (weak, strong)
    bots = [bot_for(lv, scale, budgets) for lv in levels]
    teams = list(PAIRINGS[(i // 2) % 16]) if mode != "training" else ["training"] * 2
    s = kickline.new_game({"mode": mode, "board": board, "teams": teams})
    tag = f"{seed}:{strong}:{weak}:{mode}:{board}:{i}"
    dice = random.Random(f"{tag}:dice")
    rngs = [random.Random(f"{tag}:{seat}") for seat in (0, 1)]
    times: dict[str, list[float]] = {strong: [], weak: []}
    while True:
        kind, seats, _ = kickline.to_act(s)
        if kind == "over":
            break
        if kind == "chance":
            outcomes = kickline.chance(s)[2]
            s, _ = kickline.apply_chance(s, outcomes[dice.randrange(len(outcomes))])
            continue
        seat = seats[0]
        legal = kickline.legal(s, seat)
        t0 = time.process_time()
        d = bots[seat](kickline.view(s, seat), legal, random.Random(rngs[seat].random()))
        times[levels[seat]].append(time.process_time() - t0)
        s, _ = kickline.apply(s, seat, d)
    win_side = 0 if s.score[0] > s.score[1] else 1
    return {"strong_won": s.seat_of(win_side) == strong_seat, "times": times,
            "shootout": s.period == 3}


def _run(jobs: list[Job], workers: int,
         deadline: float) -> list[dict[str, Any]]:
    """The matches' results in order, stopping at ``deadline`` seconds (0: none)."""
    stop = time.time() + deadline if deadline > 0 else math.inf
    rows: list[dict[str, Any]] = []
    with multiprocessing.Pool(workers) as pool:  # leaving the block ends the matches still running
        results = pool.imap(play, jobs)
        for _ in jobs:
            left = stop - time.time()
            if left <= 0:
                break
            try:
                rows.append(results.next(timeout=None if left == math.inf else left))
            except multiprocessing.TimeoutError:
                break
    return rows


def _pct(xs: list[float], q: float) -> float:
    if not xs:
        return 0.0
    ys = sorted(xs)
    return ys[min(len(ys) - 1, int(q * len(ys)))]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--pairs", default="casual:beginner,strong:casual,strongest:strong")
    ap.add_argument("--modes", default="advanced")
    ap.add_argument("--boards", default="7")
    ap.add_argument("--matches", type=int, default=200)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--scale", type=float, default=1.0)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--deadline", type=float, default=0.0,
                    help="wall-clock seconds per pair, mode and board (0: no limit)")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--budget", action="append", default=[],
                    metavar="LEVEL=PLAYOUTS/HORIZON[/EVALUATION]",
                    help="play a search level at another budget (and evaluation), "
                         "e.g. strong=128/2, strongest=64/2/rich")
    args = ap.parse_args(argv)
    budgets = budgets_of(args.budget)
    pairs = [tuple(p.split(":")) for p in args.pairs.split(",")]
    for strong, weak in pairs:
        for mode in args.modes.split(","):
            for board in (int(b) for b in args.boards.split(",")):
                jobs = [(strong, weak, mode, board, i, args.scale, args.seed, budgets)
                        for i in range(args.matches)]
                t0 = time.time()
                rows = _run(jobs, args.workers, args.deadline)
                n = max(1, len(rows))
                wins = sum(r["strong_won"] for r in rows)
                lo, hi = wilson(wins, len(rows))
                per: dict[str, Any] = {}
                for lv in (strong, weak):
                    xs = [x for r in rows for x in r["times"][lv]]
                    per[lv] = {"decisions_per_match": round(len(xs) / n, 1),
                               "mean": round(sum(xs) / max(1, len(xs)), 4),
                               "p95": round(_pct(xs, 0.95), 4),
                               "max": round(max(xs, default=0.0), 4)}
                cpu_per_match = sum(per[lv]["mean"] * per[lv]["decisions_per_match"]
                                    for lv in per)
                row = {"strong": strong, "weak": weak, "mode": mode, "board": board,
                       "scale": args.scale,
                       "budgets": {lv: f"{p}/{h}/{e}" for lv, (p, h, e) in budgets.items()
                                   if lv in (strong, weak)},
                       "matches": len(rows),
                       "matches_asked": args.matches, "strong_wins": wins,
                       "rate": round(wins / n, 4),
                       "interval": [round(lo, 4), round(hi, 4)],
                       "shootouts": sum(r["shootout"] for r in rows),
                       "seconds": round(time.time() - t0, 1), "per_level": per,
                       "cpu_seconds_per_match": round(cpu_per_match, 2),
                       "cpu_hours_for_1000": round(cpu_per_match * 1000 / 3600, 2)}
                if args.json:
                    print(json.dumps(row), flush=True)
                else:
                    shown = "".join(f", {lv} {p}/{h}/{e}" for lv, (p, h, e) in budgets.items()
                                    if lv in (strong, weak))
                    print(f"{strong} v {weak} {mode} b{board} (scale {args.scale}{shown}): "
                          f"{wins}/{len(rows)} of {args.matches} = "
                          f"{100 * wins / n:.1f}% [{100 * lo:.1f}%, {100 * hi:.1f}%]"
                          f"  cpu/match {cpu_per_match:.1f}s  1000 matches = "
                          f"{cpu_per_match * 1000 / 3600:.1f} cpu-hours  "
                          + "  ".join(f"{lv}: {p['mean']:.3f}s/decision (p95 "
                                      f"{p['p95']:.3f}, max {p['max']:.3f})"
                                      for lv, p in per.items()), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
