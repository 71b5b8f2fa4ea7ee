"""How long a search bot takes over a decision under a host's wall-clock cap.

    python bench/bot_time.py [--level strongest] [--seconds 1.0] [--decisions 60]
                             [--mode advanced] [--board 7] [--seed 0] [--json]
    python tools/pyodide_runner.py bench/bot_time.py --seconds 1.8   # as in the browser

Plays matches with ``--level`` in seat 0, capped as a host caps it
(``make_bot(level, seconds=, clock=time.monotonic)``, what the server's ``--bot-seconds``
and the browser's ``kpreview.BOT_SECONDS`` do), against the greedy bot, the teams cycling
through the species pairings, until ``--decisions`` decisions of the level with more than
one legal option were timed.  It prints the wall-clock seconds per decision (mean, 95th
percentile, max; and the CPU seconds, which a loaded machine does not stretch), how
many went over the cap and by how much at most, and the frame of the slowest.  Under
Pyodide (where the CPU seconds are wall-clock seconds) it measures the browser's budget (run it with
``tools/pyodide_runner.py``, which builds and installs the current rules wheel).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

if sys.platform != "emscripten":  # under Pyodide the rules come from the installed wheel
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "shared"))

import kickline
from kickline.bots import BOTS, make_bot
from kickline.roster import SPECIES_TEAMS
from kickline.state import State

PAIRINGS = [(a, b) for a in SPECIES_TEAMS for b in SPECIES_TEAMS]


Decide = Callable[[State, int, Sequence[str], random.Random], "str | None"]


def play_series(mode: str, board: int, seed: int, decide: Decide) -> int:
    """Play the bench's series of matches (the teams cycling through the species
    pairings, the dice and the bots' seeds drawn from ``seed`` and the match's number),
    asking ``decide(state, seat, legal, rng)`` for every decision, until it answers
    ``None``; returns how many matches were begun."""
    match = 0
    while True:
        teams = list(PAIRINGS[match % 16]) if mode != "training" else ["training"] * 2
        s = kickline.new_game({"mode": mode, "board": board, "teams": teams})
        dice = random.Random(f"{seed}:{match}:dice")
        rng = random.Random(f"{seed}:{match}:bots")
        match += 1
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
            d = decide(s, seat, legal, random.Random(rng.random()))
            if d is None:
                return match
            s, _ = kickline.apply(s, seat, d)


def measure(level: str, seconds: float, decisions: int, mode: str, board: int,
            seed: int) -> dict[str, Any]:
    bot = make_bot(level, seconds=seconds, clock=time.monotonic)
    greedy = BOTS["greedy"]
    timed: list[tuple[float, str, int]] = []
    cpu: list[float] = []

    def decide(s: State, seat: int, legal: Sequence[str], r: random.Random) -> str | None:
        if len(timed) >= decisions:
            return None
        v = kickline.view(s, seat)
        if seat == 0 and len(legal) > 1:
            t0, c0 = time.perf_counter(), time.process_time()
            d = bot(v, legal, r)
            timed.append((time.perf_counter() - t0, s.stack[-1][0], len(legal)))
            cpu.append(time.process_time() - c0)
            return d
        return greedy(v, legal, r)

    match = play_series(mode, board, seed, decide)
    walls = sorted(t for t, _, _ in timed)
    worst = max(timed)
    over = [t - seconds for t, _, _ in timed if t > seconds]
    return {"level": level, "seconds": seconds, "mode": mode, "board": board,
            "platform": sys.platform, "decisions": len(timed), "matches": match,
            "mean": round(sum(walls) / len(walls), 3),
            "p95": round(walls[min(len(walls) - 1, int(0.95 * len(walls)))], 3),
            "max": round(worst[0], 3), "cpu_mean": round(sum(cpu) / len(cpu), 3),
            "cpu_max": round(max(cpu), 3), "slowest_frame": worst[1],
            "slowest_options": worst[2], "over_cap": len(over),
            "most_over": round(max(over, default=0.0), 3)}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--level", default="strongest", choices=["strong", "strongest"])
    ap.add_argument("--seconds", type=float, default=1.0)
    ap.add_argument("--decisions", type=int, default=60)
    ap.add_argument("--mode", default="advanced", choices=["training", "standard", "advanced"])
    ap.add_argument("--board", type=int, default=7, choices=[7, 9])
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    if args.seconds <= 0 or args.decisions < 1:
        ap.error("--seconds must be above 0 and --decisions at least 1")
    r = measure(args.level, args.seconds, args.decisions, args.mode, args.board, args.seed)
    if args.json:
        print(json.dumps(r))
    else:
        print(f"{r['level']} capped at {r['seconds']}s on {r['platform']} ({r['mode']} "
              f"b{r['board']}, {r['decisions']} decisions in {r['matches']} matches): "
              f"mean {r['mean']}s, p95 {r['p95']}s, max {r['max']}s "
              f"({r['slowest_frame']}, {r['slowest_options']} options); CPU mean "
              f"{r['cpu_mean']}s, max {r['cpu_max']}s; "
              f"{r['over_cap']} over the cap, by at most {r['most_over']}s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
