"""The engine benchmark's measuring loop (stdlib + kickline: runs on CPython and Pyodide).

    python bench/engine_run.py MATCHES [BOARD ...] [--greedy] [--mode=standard|advanced]

Plays MATCHES random-vs-random training matches per board on one core (greedy-vs-greedy
with ``--greedy``, which also builds each seat's view for the bot), dice and choices
from fixed seeds, and prints one JSON line per board. In standard and advanced mode the
matches cycle through the 16 ordered pairings of the species teams.
"""

from __future__ import annotations

import json
import platform
import random
import sys
import time

import kickline
from kickline.roster import SPECIES_TEAMS

PAIRINGS = [[a, b] for a in SPECIES_TEAMS for b in SPECIES_TEAMS]


def play(board: int, seed: int, greedy: bool = False, mode: str = "training"
         ) -> tuple[int, int]:
    """One complete match; returns (decisions, chance outcomes)."""
    from kickline.bots import greedy_bot

    rng = random.Random(f"bench:{board}:{seed}")
    config: dict[str, object] = {"mode": mode, "board": board}
    if mode != "training":
        config["teams"] = PAIRINGS[seed % len(PAIRINGS)]
    s = kickline.new_game(config)
    decisions = rolls = 0
    while True:
        kind, seats, _ = kickline.to_act(s)
        if kind == "over":
            return decisions, rolls
        if kind == "chance":
            outcomes = kickline.chance(s)[2]
            s, _ = kickline.apply_chance(s, outcomes[rng.randrange(len(outcomes))])
            rolls += 1
        else:
            opts = kickline.legal(s, seats[0])
            if greedy:
                d = greedy_bot(kickline.view(s, seats[0]), opts, rng)
            else:
                d = opts[rng.randrange(len(opts))]
            s, _ = kickline.apply(s, seats[0], d)
            decisions += 1


def main(argv: list[str]) -> int:
    greedy = "--greedy" in argv
    mode = next((a.split("=", 1)[1] for a in argv if a.startswith("--mode=")), "training")
    argv = [a for a in argv if a != "--greedy" and not a.startswith("--mode=")]
    matches = int(argv[0]) if argv else 20
    boards = [int(b) for b in argv[1:]] or [7, 9]
    for board in boards:
        t0 = time.perf_counter()
        decisions = rolls = 0
        for seed in range(matches):
            d, r = play(board, seed, greedy, mode)
            decisions += d
            rolls += r
        dt = time.perf_counter() - t0
        print(json.dumps({
            "runtime": f"{platform.python_implementation()} {platform.python_version()}"
                       f" ({sys.platform}, {sys.maxsize.bit_length() + 1}-bit)",
            "board": board, "matches": matches, "bots": "greedy" if greedy else "random",
            "mode": mode,
            "seconds": round(dt, 3),
            "decisions": decisions, "chance_outcomes": rolls,
            "matches_per_second": round(matches / dt, 2),
            "decisions_per_second": round(decisions / dt),
            "steps_per_second": round((decisions + rolls) / dt),
        }, sort_keys=True))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
