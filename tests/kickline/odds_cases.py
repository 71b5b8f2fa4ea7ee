"""Positions with odds to compute, shared by the CPython and the Pyodide test: prompts
from seeded random matches in all three modes, seen from the seat that is asked.  A
search bot decides each one too: it must decide the same on both runtimes.  So must its
equilibrium mixes, to the last bit (Pyodide's Python 3.14 adds floats in ``sum`` with
compensation, CPython 3.11 does not: a mix once differed there)."""

from __future__ import annotations

import json
import random
import sys
from typing import Any

import kickline
from kickline.bots import Budget, SearchBot
from kickline.bots.search import equilibrium
from kickline.odds import decision_odds
from kickline.preview import state_from_view

FRAMES = ("action", "cards_secret", "shot", "pull", "scorch")


def cases(per_mode: int = 6) -> list[tuple[dict[str, Any], int]]:
    """(view, seat) of the first `per_mode` prompts with odds in each mode."""
    out: list[tuple[dict[str, Any], int]] = []
    teams = (["telekinetics", "fire-demons"], ["cyborgs", "oozes"])
    for mode in ("training", "standard", "advanced"):
        rng = random.Random(f"odds:{mode}")
        found = 0
        for game in range(40):
            if found >= per_mode:
                break
            cfg: dict[str, Any] = {"mode": mode, "board": 7}
            if mode != "training":
                cfg["teams"] = teams[game % 2]
            s = kickline.new_game(cfg)
            while found < per_mode and (act := kickline.to_act(s))[0] != "over":
                if act[0] == "chance":
                    s, _ = kickline.apply_chance(s, rng.choice(kickline.chance(s)[2]))
                    continue
                seat = act[1][0]
                if s.stack[-1][0] in FRAMES and rng.random() < 0.5:
                    out.append((kickline.view(s, seat), seat))
                    found += 1
                s, _ = kickline.apply(s, seat, rng.choice(kickline.legal(s, seat)))
    return out


def main() -> None:
    """Print the odds of every case and a search bot's decision (three seeds), one JSON
    line each (run under Pyodide too)."""
    bot = SearchBot(Budget(playouts=12, horizon=1))
    for view, seat in cases(per_mode=3):
        s = state_from_view(view)
        legal = kickline.legal(s, seat)
        print(json.dumps({"odds": decision_odds(s, seat),
                          "bot": [bot(view, legal, random.Random(n)) for n in range(3)]},
                         sort_keys=True))
    rng = random.Random("equilibria")
    for _ in range(12):  # payoff matrices of win chances summed over playouts, as the bot's
        rows, cols = rng.randint(2, 6), rng.randint(2, 6)
        payoff = [[rng.randint(0, 24000) for _ in range(cols)] for _ in range(rows)]
        print(json.dumps({"equilibrium": [repr(p) for p in equilibrium(payoff)]}))


if __name__ == "__main__":
    sys.exit(main())
