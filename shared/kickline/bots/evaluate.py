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

Both search levels score with :func:`win_chance`.  The other evaluations here are
variants a bench can name (``search.EVALUATIONS``; ``bench/bots.py --budget
strongest=64/2/rich``), fitted by ``bench/fit_evaluation.py`` on greedy matches with
more features (:func:`features`: fatigue, injuries, fit players near the ball, the shot
from the ball's space): they predict a greedy match's winner a little better and made
the search weaker (docs/BOTS.md, "2 December 2026, afternoon"), so no level uses them.
"""

from __future__ import annotations

from ..board import HOME, VISITORS
from ..state import State
from .greedy import _p_at_least

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
    end = _settled(s, side)
    return end if end >= 0 else per_mille(basic_logit(s, side))


def _settled(s: State, side: int) -> int:
    """``side``'s chance once the match is over or in its shootout, else -1."""
    mine, theirs = s.score[side], s.score[1 - side]
    if s.stack[-1][0] == "over" or len(s.stack) == 1:
        return 1000 if mine > theirs else 0 if mine < theirs else 500
    if s.period == 3:  # the shootout: only its own goals are still to come
        so = s.shootout
        lead = so.goals[side] - so.goals[1 - side]
        left = 6 - so.idx if not so.sudden else 1
        return per_mille(lead * 2400 // left)
    return -1


def basic_logit(s: State, side: int) -> int:
    """The log-odds (thousandths) of ``side`` winning from ``s`` in play, by the model
    of the module's docstring."""
    lead = s.score[side] - s.score[1 - side]
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
    return logit


# ----- variants, measured and not used by any level (docs/BOTS.md) ------------------------

FEATURES = ("lead", "lead_late", "chance", "possession", "shot", "tokens", "tired",
            "injured", "fielded", "fresh_bench", "on_ball", "near_ball", "behind_ball")
"""What :func:`features` measures, each signed (``side``'s minus the other side's, or
for the side with the ball, + when it is ``side``):

* ``lead``: goals ahead; ``lead_late``: goals ahead times minutes played (of 30);
* ``chance``: the possessing side's chance to score (``SCORE_CHANCE``, per mille);
  ``possession``: 1;
* ``shot``: the possessing side's best shot from the ball's space now (percent, two
  dice: offence plus half the ball's speed against the defence on and in front of it);
* ``tokens``: exhaustion tokens on fielded players; ``tired``: fielded players
  Exhausted (or Drained); ``injured``: fielded players injured; ``fielded``: players
  on the field;
* ``fresh_bench``: substitutions a side could make with fresh, unhurt bench players;
* ``on_ball``, ``near_ball``: fit players (fielded, unhurt, not Exhausted) on the
  ball's space and one space from it; ``behind_ball``: fit players between the ball
  and the end each side defends (goal side of the ball)."""


_ODDS = {d: _p_at_least(d) for d in range(-40, 41)}


def features(s: State, side: int) -> tuple[int, ...]:
    """The :data:`FEATURES` of ``s`` for ``side``: integers, signed for ``side``."""
    lead = s.score[side] - s.score[1 - side]
    played = min(30, s.minute)
    b = s.ball
    holder = b.owner if b.owner >= 0 else b.last
    chance = possession = shot = 0
    ps = s.players
    board = s.board
    if holder in (HOME, VISITORS) and b.pos:
        sign = 1 if holder == side else -1
        dist = board.to_end(holder, b.pos)
        speed = 0 if b.speed <= 3 else 1 if b.speed <= 7 else 2 if b.speed <= 11 else 3
        chance = sign * SCORE_CHANCE[board.n][min(dist, board.n - 1)][speed]
        possession = sign
        fwd = 1 if holder == HOME else -1
        best = max((s.off(i) for i in range(holder * 9, holder * 9 + 9)
                    if ps[i].status == "F" and ps[i].pos == b.pos), default=0)
        if best:
            wall = 0
            for i in range((1 - holder) * 9, (1 - holder) * 9 + 9):
                q = ps[i]
                if q.status != "F":
                    continue
                rel = (q.pos - b.pos) * fwd
                d = s.dfn(i)
                wall += d if rel == 0 else (d + 1) // 2 if rel > 0 else 0
            shot = sign * _ODDS[max(-40, min(40, best + b.speed // 2 - wall))]
    counts = [[0] * 9, [0] * 9]  # per side: tokens, tired, injured, fielded, fresh bench,
    # on ball, near ball, behind ball (index 8 unused)
    for i in range(18):
        p = ps[i]
        c = counts[i // 9]
        if p.status == "F":
            c[0] += p.tokens
            c[3] += 1
            if p.injured:
                c[2] += 1
                continue
            if s.exhausted(i):
                c[1] += 1
                continue
            if b.pos:
                gap = p.pos - b.pos
                if gap == 0:
                    c[5] += 1
                elif gap in (1, -1):
                    c[6] += 1
                if (gap < 0) == (i < 9) and gap:  # home defends space 1's end
                    c[7] += 1
        elif p.status == "B" and not p.injured and p.tokens == 0:
            c[4] += 1
    for k in (0, 1):
        counts[k][4] = min(counts[k][4], s.subs[k])
    mine, theirs = counts[side], counts[1 - side]
    return (lead, lead * played, chance, possession, shot,
            *(mine[k] - theirs[k] for k in range(8)))


# The richer model's weights, per million (bench/fit_evaluation.py prints them).
W_RICH = (617700, 48429, 108, -12206, 8314, -1715, -257418, -522441, 0, -217481, 4106,
          -18411, 37928)


def win_chance_rich(s: State, side: int) -> int:
    """``side``'s chance (per mille) to win from ``s`` by the richer model (:data:`W_RICH`
    over :func:`features`); the same as :func:`win_chance` once the match is over or in
    the shootout."""
    end = _settled(s, side)
    if end >= 0:
        return end
    logit = 0
    for w, x in zip(W_RICH, features(s, side), strict=True):
        logit += w * x
    return per_mille_fine(logit // 1000)


# The extra features' weights on top of the basic model, per million
# (``bench/fit_evaluation.py --on-basic``): the features from ``tokens`` on.
PLUS_FROM = FEATURES.index("tokens")
W_PLUS = (-3322, -273163, -553627, 0, -205556, -134, -34766, 6709)


def plus_logit(s: State, side: int) -> int:
    """:func:`basic_logit` plus :data:`W_PLUS` over the :data:`FEATURES` from ``tokens`` on
    (thousandths)."""
    extra = 0
    for w, x in zip(W_PLUS, features(s, side)[PLUS_FROM:], strict=True):
        extra += w * x
    return basic_logit(s, side) + extra // 1000


def win_chance_plus(s: State, side: int) -> int:
    """``side``'s chance (per mille) by :func:`plus_logit`, finely interpolated."""
    end = _settled(s, side)
    return end if end >= 0 else per_mille_fine(plus_logit(s, side))


def win_chance_fine(s: State, side: int) -> int:
    """:func:`win_chance` with the sigmoid interpolated (:func:`per_mille_fine`)."""
    end = _settled(s, side)
    return end if end >= 0 else per_mille_fine(basic_logit(s, side))


def per_mille_fine(logit_milli: int) -> int:
    """The chance for log-odds given in thousandths, interpolated between the table's
    sixteenths (:func:`per_mille` rounds to the nearest, about 15 per mille near even
    odds, which would hide the small differences the richer model draws)."""
    x = logit_milli * 16  # in thousandths of a sixteenth
    if x <= -128_000:
        return _SIGMOID[0]
    if x >= 128_000:
        return _SIGMOID[256]
    k, frac = divmod(x, 1000)
    lo = _SIGMOID[k + 128]
    return lo + (_SIGMOID[k + 129] - lo) * frac // 1000
