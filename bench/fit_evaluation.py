"""Fit the search's richer evaluation (``kickline.bots.evaluate.W_RICH``) on greedy play.

    python bench/fit_evaluation.py [--matches 3000] [--boards 7,9] [--mode advanced]
                                   [--seed 0] [--ridge 1.0]

Plays ``--matches`` matches per board between greedy bots (the teams cycling through the
16 species pairings), and records, each time the clock moves (where a search's playout
stops and scores its position), the home side's :func:`evaluate.features` and whether home
won the match.  A logistic regression without intercept (the features are signed, so a
side's chance and the other's add to one) is fitted by Newton's method (iteratively
reweighted least squares, a small ``--ridge`` penalty) on four matches in five; the
fifth are held out, and the log loss of the shipped model (:func:`evaluate.win_chance`)
and of the fitted weights, rounded to the integers shipped, is printed for both.  It
prints ``W_RICH`` to paste into ``shared/kickline/bots/evaluate.py``.  Stdlib only; about
a minute of CPU for 3,000 matches a board.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "shared"))

import kickline  # noqa: E402
from kickline.board import HOME  # noqa: E402
from kickline.bots import evaluate  # noqa: E402
from kickline.bots.greedy import greedy_on_state  # noqa: E402
from kickline.roster import SPECIES_TEAMS  # noqa: E402
from kickline.state import State  # noqa: E402

PAIRINGS = [(a, b) for a in SPECIES_TEAMS for b in SPECIES_TEAMS]

# features, the basic model's chance (per mille) and log-odds (thousandths), home won
Row = tuple[tuple[int, ...], int, int, int]


def match_rows(mode: str, board: int, i: int, seed: int) -> list[Row]:
    """One greedy match's positions where the clock moved, for the home side."""
    teams = list(PAIRINGS[i % 16]) if mode != "training" else ["training"] * 2
    s = kickline.new_game({"mode": mode, "board": board, "teams": teams})
    rng = random.Random(f"{seed}:{mode}:{board}:{i}")
    seen: list[State] = []
    clock = (s.minute, s.period)
    while True:
        kind, seats, _ = kickline.to_act(s)
        if kind == "over":
            break
        if kind == "chance":
            outcomes = kickline.chance(s)[2]
            s, _ = kickline.apply_chance(s, outcomes[rng.randrange(len(outcomes))])
        else:
            for seat in seats:
                legal = kickline.legal(s, seat)
                if legal:
                    d = legal[0] if len(legal) == 1 else greedy_on_state(s, seat, legal, rng)
                    s, _ = kickline.apply(s, seat, d)
        if (s.minute, s.period) != clock:
            clock = (s.minute, s.period)
            if s.period < 3 and s.stack[-1][0] != "over":
                seen.append(s)
    won = int(s.score[HOME] > s.score[1 - HOME])
    return [(evaluate.features(t, HOME), evaluate.win_chance(t, HOME),
             evaluate.basic_logit(t, HOME), won) for t in seen]


def solve(a: list[list[float]], b: list[float]) -> list[float]:
    """``a x = b`` by Gaussian elimination with partial pivoting."""
    n = len(b)
    m = [[*row, b[k]] for k, row in enumerate(a)]
    for c in range(n):
        p = max(range(c, n), key=lambda r: abs(m[r][c]))
        m[c], m[p] = m[p], m[c]
        for r in range(n):
            if r != c and m[r][c]:
                f = m[r][c] / m[c][c]
                m[r] = [x - f * y for x, y in zip(m[r], m[c], strict=True)]
    return [m[k][n] / m[k][k] for k in range(n)]


def fit(xs: list[list[float]], ys: list[int], ridge: float, offsets: list[float],
        rounds: int = 25) -> list[float]:
    """Logistic regression weights (no intercept, each row's log-odds starting from its
    offset) by Newton's method."""
    k = len(xs[0])
    w = [0.0] * k
    for _ in range(rounds):
        grad = [-ridge * wj for wj in w]
        hess = [[ridge if r == c else 0.0 for c in range(k)] for r in range(k)]
        for x, y, z0 in zip(xs, ys, offsets, strict=True):
            z = z0 + sum(wj * xj for wj, xj in zip(w, x, strict=True))
            p = 1 / (1 + math.exp(-max(-30.0, min(30.0, z))))
            g = y - p
            h = p * (1 - p)
            for r in range(k):
                if x[r]:
                    grad[r] += g * x[r]
                    hr = h * x[r]
                    row = hess[r]
                    for c in range(k):
                        row[c] += hr * x[c]
        step = solve(hess, grad)
        w = [wj + sj for wj, sj in zip(w, step, strict=True)]
        if max(abs(sj) for sj in step) < 1e-7:
            break
    return w


def log_loss(ps: list[float], ys: list[int]) -> float:
    eps = 1e-4
    return -sum(math.log(max(eps, p) if y else max(eps, 1 - p))
                for p, y in zip(ps, ys, strict=True)) / len(ys)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--matches", type=int, default=3000)
    ap.add_argument("--boards", default="7,9")
    ap.add_argument("--mode", default="advanced")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--ridge", type=float, default=1.0)
    ap.add_argument("--on-basic", action="store_true",
                    help="fit W_PLUS: the features from tokens on, over the basic model")
    args = ap.parse_args(argv)
    train: list[Row] = []
    held: list[Row] = []
    for board in (int(b) for b in args.boards.split(",")):
        for i in range(args.matches):
            (held if i % 5 == 4 else train).extend(match_rows(args.mode, board, i, args.seed))
    print(f"{len(train)} positions to fit, {len(held)} held out "
          f"({args.matches} matches a board, boards {args.boards}, {args.mode})")
    ys = [r[3] for r in held]
    old = log_loss([r[1] / 1000 for r in held], ys)
    if args.on_basic:  # the features from tokens on, on top of the basic model's log-odds
        first, name = evaluate.PLUS_FROM, "W_PLUS"
        offsets = [r[2] / 1000 for r in train]
    else:
        first, name = 0, "W_RICH"
        offsets = [0.0] * len(train)
    w = fit([list(map(float, r[0][first:])) for r in train], [r[3] for r in train],
            args.ridge, offsets)
    shipped = tuple(round(x * 1e6) for x in w)
    base_of = (lambda r: r[2]) if args.on_basic else (lambda r: 0)
    new_p = [evaluate.per_mille_fine(
        base_of(r) + sum(a * b for a, b in zip(shipped, r[0][first:], strict=True)) // 1000)
        / 1000 for r in held]
    new = log_loss(new_p, ys)
    base = log_loss([sum(ys) / len(ys)] * len(ys), ys)
    print(f"held-out log loss: constant {base:.4f}, shipped win_chance {old:.4f}, "
          f"fitted {new:.4f}")
    for feature, x in zip(evaluate.FEATURES[first:], w, strict=True):
        print(f"  {feature:12s} {x:+.4f}")
    print(f"{name} = {shipped}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
