"""What a search bot's playouts cost: playouts per CPU second and instructions per playout.

    python bench/bot_playouts.py [--level strong] [--positions 60] [--seed 0] [--json]
    python bench/bot_playouts.py --instructions    # under valgrind: load-independent

Records ``--positions`` decisions with more than one legal option from greedy-against-
greedy advanced matches (board 7, the teams cycling through the species pairings; every
fifth such decision, so the sample spreads over whole matches), then asks the search
``--level`` (its full playout budget, no clock) for each, seeded by the position's
number.  Prints the playouts counted, the CPU seconds per decision and per playout, the
playouts per CPU second, and a digest of the decisions made: two checkouts whose search
decides alike print the same digest, so a change meant to make playouts cheaper without
changing what they play is checked by it.  ``--instructions`` runs the decisions once
under callgrind (the recording is not counted) and prints instructions per decision and
per playout, which a shared machine's load does not move.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import operator
import os
import random
import re
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "shared"))

from bot_time import play_series  # noqa: E402  # bench/bot_time.py (this directory is on sys.path)

import kickline  # noqa: E402
from kickline.bots import BOTS, BUDGETS, SearchBot, search  # noqa: E402
from kickline.state import State  # noqa: E402

EVERY = 5  # one position in this many decisions with a choice

Position = tuple[State, int, Sequence[str]]


def record(n: int, seed: int) -> list[Position]:
    """``n`` positions (state, seat, legal) from greedy-against-greedy matches."""
    greedy = BOTS["greedy"]
    out: list[Position] = []
    seen = [0]

    def decide(s: State, seat: int, legal: Sequence[str], r: random.Random) -> str | None:
        if len(legal) > 1:
            seen[0] += 1
            if seen[0] % EVERY == 0:
                out.append((s, seat, legal))
        return greedy(kickline.view(s, seat), legal, r) if len(out) < n else None

    play_series("advanced", 7, seed, decide)
    return out


class Counted:
    """``search.playout`` with a count of its calls."""

    def __init__(self) -> None:
        self.calls = 0
        self.inner = search.playout

    def __call__(self, s: State, me: int, horizon: int, rng: random.Random,
                 score: search.Evaluation = search.win_chance) -> int:
        self.calls += 1
        return self.inner(s, me, horizon, rng, score)


def decide(bot: SearchBot, positions: list[Position], seed: int) -> list[str]:
    return [bot(kickline.view(s, seat), legal, random.Random(f"{seed}:{i}"))
            for i, (s, seat, legal) in enumerate(positions)]


def digest(decisions: list[str]) -> str:
    return hashlib.sha256("\n".join(decisions).encode()).hexdigest()[:16]


def instructions(args: argparse.Namespace) -> dict[str, Any]:
    """Run this script under callgrind (``--inner``) and read the instructions counted."""
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "callgrind.out")
        cmd = ["valgrind", "--tool=callgrind", "--collect-atstart=no",
               "--toggle-collect=_operator_call", f"--callgrind-out-file={out}",
               sys.executable, __file__, "--inner", "--level", args.level,
               "--positions", str(args.positions), "--seed", str(args.seed)]
        env = dict(os.environ, PYTHONHASHSEED="0")
        done = subprocess.run(cmd, capture_output=True, text=True, env=env, check=True)
    found = re.search(r"Collected : (\d+)", done.stderr)
    if found is None:
        raise SystemExit("valgrind printed no instruction count:\n" + done.stderr[-2000:])
    inner = json.loads(done.stdout)
    total = int(found.group(1))
    return {"level": args.level, "positions": args.positions, "playouts": inner["playouts"],
            "instructions_per_decision": round(total / args.positions),
            "instructions_per_playout": round(total / inner["playouts"]),
            "digest": inner["digest"]}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--level", default="strong", choices=sorted(BUDGETS))
    ap.add_argument("--positions", type=int, default=60)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--instructions", action="store_true",
                    help="count the decisions' instructions under valgrind instead of timing")
    ap.add_argument("--inner", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    date = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    if args.instructions:
        counted = instructions(args)
        counted["date"] = date
        print(json.dumps(counted) if args.json else
              f"{counted['level']}: {counted['instructions_per_decision']:,} instructions "
              f"a decision, {counted['instructions_per_playout']:,} a playout "
              f"({counted['playouts']} playouts, digest {counted['digest']})")
        return 0
    positions = record(args.positions, args.seed)
    counter = Counted()
    search.playout = counter  # the bench counts, the bot plays on
    bot = SearchBot(BUDGETS[args.level])
    if args.inner:
        decisions = operator.call(decide, bot, positions, args.seed)
        print(json.dumps({"playouts": counter.calls, "digest": digest(decisions)}))
        return 0
    t0 = time.process_time()
    decisions = decide(bot, positions, args.seed)
    cpu = time.process_time() - t0
    r = {"level": args.level, "positions": len(positions), "playouts": counter.calls,
         "cpu_per_decision": round(cpu / len(positions), 4),
         "cpu_ms_per_playout": round(1000 * cpu / counter.calls, 3),
         "playouts_per_cpu_second": round(counter.calls / cpu),
         "digest": digest(decisions), "date": date, "load": os.getloadavg()[0]}
    print(json.dumps(r) if args.json else
          f"{r['level']}: {r['playouts']} playouts over {r['positions']} decisions, "
          f"{r['cpu_per_decision']} CPU s a decision, {r['cpu_ms_per_playout']} ms a playout, "
          f"{r['playouts_per_cpu_second']} playouts a CPU second (digest {r['digest']}, "
          f"load {r['load']:.2f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
