"""Scoring: set-ups (Law 8), score attempts (Law 5), the own-goal roll a won Pressure
can force (Law 11), and a goal going on the scoreboard.
"""

from __future__ import annotations

from typing import Any

from .. import rulings as R
from ..board import Board
from ..state import Frame, pid, role, side_of
from .ball import take_ball
from .dice import dice, die_parts, take_die, with_merge
from .frames import ASK, Ask, Ctx, auto


def own_goal_risk(c: Ctx, h: int, ch: int, law: str) -> None:
    """A won Pressure (6.10.3) pushing the handler off their own end risks an own goal.

    The Double Team (19.10.3) is to call this too, so that Acidel covers both."""
    if c.ability(ch) == "acidel":
        # 21.6.7: no own-goal roll; Acidel's side takes the ball at speed 1 and Acidel
        # may shoot from there (D35).  Declined, the side keeps it: a steal (rulings 1.1).
        mine = side_of(ch)
        if c.players[ch].pos != c.ball.pos:
            # RULING_ACIDEL_FROM_A_LASTING_DOUBLE_TEAM: a Double Team's challenger who
            # challenged from where they stood (19.10.4) takes the ball where it is, as
            # an Intercept's does (RULING_INTERCEPT_FROM_A_LASTING_DOUBLE_TEAM).
            c.move(ch, c.ball.pos)
        c.set_ball(owner=mine, carrier=ch, speed=1, last=mine)
        c.ev("acidel", "21.6.7", player=pid(ch), space=c.sp(c.ball.pos))
        c.then(("setup", ch, "acidel", 1))
        return
    c.ev("own-goal-risk", law, player=pid(h))
    c.then(*dice(c, "own-goal", h, h), ("own_goal", h))


@auto("own_goal")
def _own_goal(c: Ctx, f: Frame) -> None:
    """11.2: two d12, keep the higher, add offensive skill; 7 or more avoids it."""
    h = int(f[1])
    d1, d2 = take_die(c), take_die(c)
    side = side_of(h)
    skill = c.dfn(h) if c.ability(h) == "umbrik" else c.off(h)  # 21.5.5
    # One roll of two dice: the declaration rides on the first die, and neither ignites.
    parts = die_parts(c, h, d1, {"total": max(d1.face, d2.face) + skill}, False)
    total = parts.pop("total")
    avoided = total >= R.OWN_GOAL_AVOID
    c.ev("own-goal-roll", "11.2.1", player=pid(h), dice=[d1.face, d2.face], skill=skill,
         total=total, avoided=avoided, **parts)
    c.exhaust(h, 1, "11.2.2")
    if avoided:
        c.set_ball(owner=side, carrier=h, last=side)  # 4.2.2e, 11.3.1
        c.set_turn(np_kind="own-goal-avoided", np_side=side)
    else:
        score_goal(c, 1 - side, h, "own-goal", "11.4.1")
        c.set_turn(np_kind="own-goal", np_side=side)


def score_goal(c: Ctx, scorer_side: int, player: int, kind: str, law: str) -> None:
    sc = list(c.score)
    sc[scorer_side] += 1
    c.score = (sc[0], sc[1])
    minute = c.minute + c.turn.cost if c.period < 3 else c.minute
    c.goals = (*c.goals, (scorer_side, c.period, minute, player, kind))
    c.ev("goal", law, side=scorer_side, player=pid(player), kind=kind, score=list(c.score),
         period=c.period, minute=minute)


def _setup_answer(c: Ctx, f: Frame, d: str) -> None:
    _, p, kind, prior_speed = f
    p = int(p)
    if d == "shot take":
        c.ev("set-up-taken", "8.1.1", player=pid(p), kind=kind)
        c.set_turn(cost=c.turn.cost + R.COST_SCORE_ATTEMPT)  # 8.5.1
        c.then(("shot", p, 1, -1 if kind == "overshoot" else 1))
        return
    c.ev("set-up-declined", "8.4.1", player=pid(p), kind=kind)
    if kind == "overshoot" and c.turn.beaten == "intercept":
        take_ball(c, p, "19.9.7")  # the contest 8.4.2 would owe is not held
    elif kind == "overshoot":
        c.then(("hp_contest", p, -1))  # 8.4.2: declining the shot takes the contest
    elif kind in ("deflect", "clear"):
        # RULING_DECLINED_DEFLECT_SETUP: the ball settles on that space by 10.1.
        c.set_ball(owner=-1, carrier=-1, speed=int(prior_speed), last=c.turn.side)
        c.then(("settle", c.ball.pos))


ASK["setup"] = Ask(
    lambda c, f: c.seat(side_of(int(f[1]))),
    lambda c, f: ["shot decline", "shot take"],
    _setup_answer,
)


@auto("shot")
def _shot(c: Ctx, f: Frame) -> None:
    p = int(f[1])
    c.then(*dice(c, "attack", p), ("roll", "defense", -1), ("shot_resolve", p, f[2], f[3]))


def shot_defense(c: Ctx, side: int, ball: int, shooter: int = -1) -> list[dict[str, Any]]:
    """5.3: the defending players in the way, each counted on their own."""
    fwd = Board.fwd(side)
    past_the_wall = shooter >= 0 and c.ability(shooter) == "flickerwing"
    out = []
    for i in c.fielded(1 - side):
        rel = (c.players[i].pos - ball) * fwd
        if rel == 0:
            add = c.dfn(i)  # 5.3.1
        elif past_the_wall:
            continue  # 21.3.5: against Flickerwing only the ball's space defends
        elif rel > 0 and c.ability(i) == "goopkeeper":
            add = c.dfn(i)  # 21.6.2: counts as on the ball, full skill
        elif rel > 0:
            add = (c.dfn(i) + 1) // 2  # 5.3.2, 5.3.4: half, rounded up, per player
        else:
            continue  # 5.3.3
        out.append({"player": pid(i), "adds": add})
    return out


@auto("shot_resolve")
def _shot_resolve(c: Ctx, f: Frame) -> None:
    p, setup, sign = int(f[1]), int(f[2]), int(f[3])
    da = take_die(c)
    dd = c.rolls.pop(0)  # the defense's die is nobody's: no ignite, no Overdrive (21.6.6)
    side = side_of(p)
    mod = sign * (c.ball.speed // 2)  # 7.4.1, 7.5.1
    striker = R.STRIKER_SETUP_BONUS if setup and role(p) == "S" else 0
    attack = die_parts(c, p, da, {"die": da.face, "skill": c.off(p), "speed": mod,
                                  "striker": striker, "total": da.face + c.off(p) + mod
                                  + striker}, True)
    # 20.5.2: the attack alone merges; the defense's Oozes are already in the wall.
    attack = with_merge(c, attack, side, True, (p,))
    wall = shot_defense(c, side, c.ball.pos, p)
    dfn = dd + sum(w["adds"] for w in wall)
    scored = attack["total"] >= dfn  # 5.2.3
    c.ev("score-attempt", "5.2", player=pid(p), setup=bool(setup), attack=attack,
         defense={"die": dd, "wall": wall, "total": dfn}, goal=scored)
    if setup:
        c.exhaust(p, 1, "5.4.1")
    if scored:
        score_goal(c, side, p, "goal", "5.2.3")
        c.set_turn(np_kind="goal", np_side=1 - side)
    else:
        c.ev("miss", "5.5.3", side=side)
        c.set_turn(np_kind="miss", np_side=1 - side)
