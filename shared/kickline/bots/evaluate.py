"""How good a position is for one side: its chance to win the match, per mille.

The model was fitted (logistic regression) on the turn starts of 600 advanced matches
between greedy bots, 300 on each board (the fitting script was not kept): the
log-odds of winning are

    0.61 * goals ahead  +  1.52 * goals ahead * minutes played / 30
    + 1.84 * (the possessing side's chance to score in this possession, signed)
    - 0.34 * (possession, signed)

where the chance to score comes from a table by distance to the attacked end and ball
speed, smoothed to fall with distance and rise with speed.  A lead counts for more as
the clock runs down; the ball near the other goal, fast, is worth most of a goal.
Integers only, so every runtime scores a position the same.
"""

from __future__ import annotations

from ..board import HOME, VISITORS
from ..state import State

# The chance (per mille) that the side with the ball scores before it loses it, by board,
# distance from the ball to the end it attacks (0 on the last space), and ball speed
# (1-3, 4-7, 8-11, 12).
SCORE_CHANCE = {
    7: ((518, 684, 784, 820), (376, 408, 528, 663), (321, 347, 465, 515),
        (284, 325, 360, 367), (209, 250, 279, 367), (194, 194, 194, 219),
        (179, 179, 179, 179)),
    9: ((671, 852, 856, 876), (649, 702, 856, 876), (392, 427, 590, 660),
        (247, 373, 401, 610), (247, 277, 322, 322), (205, 241, 318, 318),
        (171, 182, 250, 250), (142, 142, 143, 145), (142, 142, 143, 145)),
}
# The fitted weights, in thousandths.
W_LEAD, W_LEAD_LATE, W_CHANCE, W_POSSESSION = 610, 1518, 1836, -339


def _sigmoid_table() -> tuple[int, ...]:
    """1000 / (1 + e^-x) for x = -8.00 .. 8.00 in steps of 1/16, from a series (no libm),
    so the table is identical everywhere."""
    out = []
    for k in range(-128, 129):
        x = -k / 16  # e^x by its Taylor series, in exact-enough float steps
        term, total = 1.0, 1.0
        for n in range(1, 60):
            term *= x / n
            total += term
        out.append(round(1000 / (1 + total)))
    return tuple(out)


_SIGMOID = _sigmoid_table()


def per_mille(logit_milli: int) -> int:
    """The chance for log-odds given in thousandths."""
    k = max(-128, min(128, (logit_milli * 16 + (500 if logit_milli >= 0 else -500)) // 1000))
    return _SIGMOID[k + 128]


def win_chance(s: State, side: int) -> int:
    """``side``'s chance (per mille) to win the match from ``s``."""
    mine, theirs = s.score[side], s.score[1 - side]
    if s.stack[-1][0] == "over" or len(s.stack) == 1:
        return 1000 if mine > theirs else 0 if mine < theirs else 500
    if s.period == 3:  # the shootout: only its own goals are still to come
        so = s.shootout
        lead = so.goals[side] - so.goals[1 - side]
        left = 6 - so.idx if not so.sudden else 1
        return per_mille(lead * 2400 // left)
    lead = mine - theirs
    played = min(30, s.minute)
    logit = W_LEAD * lead + W_LEAD_LATE * lead * played // 30
    b = s.ball
    holder = b.owner if b.owner >= 0 else b.last
    if holder in (HOME, VISITORS) and b.pos:
        board = s.board
        dist = board.to_end(holder, b.pos)
        speed = 0 if b.speed <= 3 else 1 if b.speed <= 7 else 2 if b.speed <= 11 else 3
        chance = SCORE_CHANCE[board.n][min(dist, board.n - 1)][speed]
        sign = 1 if holder == side else -1
        logit += sign * (W_CHANCE * chance // 1000 + W_POSSESSION)
    return per_mille(logit)
