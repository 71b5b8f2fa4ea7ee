"""Play complete matches between bots with seeded dice: ``python -m kickline simulate``.

Every match ``i`` of a run with seed ``S`` draws its dice and its bots' choices
from generators seeded with ``"S:i:dice"``, ``"S:i:0"`` and ``"S:i:1"``, so a run
is reproducible to the decision.  The report is one JSON object; only
``decisions_per_second`` (and ``seconds``) depend on the machine.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
import traceback
from collections.abc import Sequence
from typing import Any

from . import apply, apply_chance, chance, legal, new_game, result, to_act
from .bots import BOTS
from .state import MODES, Config, State
from .view import view

MAX_STEPS = 50_000  # a match still running after this many steps "never ends"


def play_match(
    config: Config, bots: Sequence[str], seed: str, *, log: list[tuple[int, str]] | None = None
) -> tuple[State, int]:
    """Play one match to the end; returns the final state and its decision count.

    ``log`` (if given) receives ``(seat, decision)`` and ``(-1, outcome)`` entries.
    """
    s = new_game(config)
    dice = random.Random(f"{seed}:dice")
    rngs = [random.Random(f"{seed}:{seat}") for seat in (0, 1)]
    players = [BOTS[b] for b in bots]
    decisions = 0
    for _ in range(MAX_STEPS):
        kind, seats, _secret = to_act(s)
        if kind == "over":
            return s, decisions
        if kind == "chance":
            outcomes = chance(s)[2]
            o = outcomes[dice.randrange(len(outcomes))]
            s, _ = apply_chance(s, o)
            if log is not None:
                log.append((-1, o))
            continue
        seat = seats[0]
        options = legal(s, seat)
        # The random bot ignores its view, so it is not built for it (same choice as
        # bots.random_bot, which draws the same number from the same generator).
        view_for_bot = view(s, seat) if bots[seat] != "random" else {}
        d = players[seat](view_for_bot, options, rngs[seat])
        s, _ = apply(s, seat, d)
        decisions += 1
        if log is not None:
            log.append((seat, d))
    raise RuntimeError(f"match {seed} did not end within {MAX_STEPS} steps")


def simulate(config: Config, bots: Sequence[str], matches: int, seed: int) -> dict[str, Any]:
    home = visitors = shootouts = goals = decisions = errors = 0
    first_error = None
    t0 = time.perf_counter()
    for i in range(matches):
        try:
            s, n = play_match(config, bots, f"{seed}:{i}")
        except Exception:
            errors += 1
            if first_error is None:
                first_error = f"match {i}:\n{traceback.format_exc()}"
            continue
        res = result(s)
        assert res is not None
        decisions += n
        goals += sum(s.score)
        shootouts += bool(res["shootout"])
        if s.score[0] > s.score[1]:
            home += 1
        else:
            visitors += 1
    seconds = time.perf_counter() - t0
    played = matches - errors
    return {
        "mode": config.mode,
        "board": config.board,
        "teams": list(config.teams),
        "bots": list(bots),
        "seed": seed,
        "matches": matches,
        "results": {"home_wins": home, "visitors_wins": visitors, "decided_by_shootout": shootouts},
        "goals_per_match": round(goals / played, 3) if played else None,
        "decisions_per_match": round(decisions / played, 1) if played else None,
        "errors": {"count": errors, "first": first_error},
        "decisions_per_second": round(decisions / seconds) if seconds else None,
        "seconds": round(seconds, 3),
    }


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m kickline", description=__doc__)
    sub = ap.add_subparsers(dest="command", required=True)
    sim = sub.add_parser("simulate", help="play bot matches and report")
    sim.add_argument("--mode", default="training", choices=list(MODES),
                     help="the rules to play: training (Part I), standard, advanced (training)")
    sim.add_argument("--board", type=int, default=7, choices=[7, 9],
                     help="spaces on the board (7)")
    sim.add_argument("--matches", type=int, default=100, help="matches to play (100)")
    sim.add_argument("--seed", type=int, default=0,
                     help="the run's seed: match i draws its dice and bot choices "
                          "from \"SEED:i:...\" (0)")
    sim.add_argument("--bots", default="random,random",
                     help=f"two of {', '.join(sorted(BOTS))}, seat 0's first (the coin toss "
                          "then decides which seat is home)")
    sim.add_argument("--teams", default="training,training",
                     help="two team ids, seat 0's first: training, fire-demons, cyborgs, "
                          "telekinetics, oozes (training,training)")
    sim.add_argument("--json", action="store_true", help="print the report as JSON")
    sim.add_argument("--no-timing", action="store_true",
                     help="leave out the machine-dependent figures, for exact comparisons")
    args = ap.parse_args(argv)
    bots = args.bots.split(",")
    if len(bots) != 2 or any(b not in BOTS for b in bots):
        ap.error(f"--bots takes two of {', '.join(sorted(BOTS))}, e.g. random,greedy")
    try:
        teams = args.teams.split(",")
        pair = (teams[0], teams[-1]) if len(teams) == 2 else ("", "")
        config = Config(args.mode, args.board, pair)
    except ValueError as exc:
        ap.error(str(exc))
    if args.matches < 1:
        ap.error("--matches must be at least 1")
    report = simulate(config, bots, args.matches, args.seed)
    if args.no_timing:
        report.pop("decisions_per_second")
        report.pop("seconds")
    if args.json:
        print(json.dumps(report, sort_keys=True))
    else:
        for k, v in report.items():
            print(f"{k}: {v}")
    return 1 if report["errors"]["count"] else 0


if __name__ == "__main__":
    sys.exit(main())
