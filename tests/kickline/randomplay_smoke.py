"""Quick check while developing: random play on both boards must never raise."""

from __future__ import annotations

import random
import sys
import traceback

import kickline


def play(seed: int, board: int) -> int:
    s = kickline.new_game({"board": board})
    rng = random.Random(seed)
    n = 0
    while True:
        kind, seats, _ = kickline.to_act(s)
        if kind == "over":
            return n
        if kind == "chance":
            s, _ = kickline.apply_chance(s, rng.choice(kickline.chance(s)[2]))
        else:
            s, _ = kickline.apply(s, seats[0], rng.choice(kickline.legal(s, seats[0])))
        n += 1
        if n > 50_000:
            raise RuntimeError("match never ends")


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 100
    errors = 0
    for board in (7, 9):
        for seed in range(n):
            try:
                play(seed, board)
            except Exception:
                errors += 1
                if errors <= 2:
                    print(f"board {board} seed {seed}")
                    traceback.print_exc()
    print("errors", errors)


if __name__ == "__main__":
    main()
