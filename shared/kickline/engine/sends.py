"""Sending players (Law 9) and the ball at rest (Law 10): the sends a challenge, a
High Pass chase or contest and a pickup ask for; a ball settling on a space; loose
balls (sent after secretly, 10.3); and contests for the ball (10.2, 10.4), with
Slitheron's (21.6.3).
"""

from __future__ import annotations

from typing import Any

from .. import rulings as R
from ..board import HOME, VISITORS
from ..state import Frame, parse_pid, pid, side_of
from .abilities import zytheris_after_contest
from .ball import receives, take_ball
from .dice import Die, dice, die_parts, injury_checks, take_die, with_merge
from .frames import ASK, SECRET, Ask, Ctx, Secret, arg_side, auto


def _send_legal(c: Ctx, f: Frame) -> list[str]:
    out = [f"send {pid(i)}" for i in c.two_nearest(int(f[2]), int(f[3]))]
    if f[4]:
        out.append("send none")
    return sorted(out)


def _send_answer(c: Ctx, f: Frame, d: str) -> None:
    _, purpose, side, target, _none, x1, x2 = f
    who = d.split()[1]
    law = {"challenge": "6.1.3", "chase": "10.4.2", "hpc": "10.4.2", "pickup": "10.6.2"}[purpose]
    p = -1 if who == "none" else parse_pid(who)
    if p < 0:
        c.ev("send-nobody", law, side=side)
    else:
        c.send(p, target, law)
    if purpose == "challenge":
        if p >= 0:
            c.set_turn(challenger=p)
            c.ev("challenger", "6.1.3", player=pid(p))
    elif purpose == "chase":
        c.then(("settle", target))
    elif purpose == "hpc":
        if p >= 0:
            c.then(("contest", x1, p, x2, "10.4"))
        else:
            take_ball(c, int(x1), "10.4.1")
            c.then(*zytheris_after_contest(c, int(x1), int(x2)))
    elif p >= 0:
        receives(c, p)  # 21.3.6: picking it up (10.6) is receiving it


ASK["send"] = Ask(lambda c, f: c.seat(int(f[2])), _send_legal, _send_answer)


@auto("settle")
def _settle(c: Ctx, f: Frame) -> None:
    t = int(f[1])
    c.set_ball(pos=t, owner=-1, carrier=-1)
    last = c.ball.last
    a, b = c.on_space(last, t), c.on_space(1 - last, t)
    if not a and not b:
        c.ev("loose", "10.1.2", space=c.sp(t))
        c.then(("loose", t))
    elif a and b:
        c.then(("contest_at", t, a[0] if len(a) == 1 else -1, b[0] if len(b) == 1 else -1))
    else:
        mine = a or b
        if len(mine) == 1:
            take_ball(c, mine[0], "10.1.1")
        else:
            c.then(("pick_take", side_of(mine[0]), t))


def _pick_take_answer(c: Ctx, f: Frame, d: str) -> None:
    take_ball(c, parse_pid(d.split()[1]), "10.1.3")


ASK["pick_take"] = Ask(
    arg_side,
    lambda c, f: sorted(f"pick {pid(i)}" for i in c.on_space(int(f[1]), int(f[2]))),
    _pick_take_answer,
)


@auto("contest_at")
def _contest_at(c: Ctx, f: Frame) -> None:
    _, t, ca, cb = f
    if ca < 0:
        c.then(("pick_contest", t, -1, cb, c.ball.last))
    elif cb < 0:
        c.then(("pick_contest", t, ca, -1, 1 - c.ball.last))
    else:
        c.then(("contest", ca, cb, 0, "10.2"))


def _pick_contest_answer(c: Ctx, f: Frame, d: str) -> None:
    _, t, ca, cb, side = f
    p = parse_pid(d.split()[1])
    if side == c.ball.last:
        ca = p
    else:
        cb = p
    c.then(("contest_at", t, ca, cb))


ASK["pick_contest"] = Ask(
    lambda c, f: c.seat(int(f[4])),
    lambda c, f: sorted(f"pick {pid(i)}" for i in c.on_space(int(f[4]), int(f[1]))),
    _pick_contest_answer,
)


def _loose_legal(c: Ctx, f: Frame, side: int) -> list[str]:
    t = int(f[1])
    return sorted([f"send {pid(i)}" for i in c.two_nearest(side, t)] + ["send none"])


def _loose_resolve(c: Ctx, f: Frame, choice: tuple[str, str]) -> None:
    t = int(f[1])
    last = c.ball.last
    sent = [choice[s].split()[1] for s in (HOME, VISITORS)]
    c.ev("loose-sends", "10.3.1", home=sent[HOME], visitors=sent[VISITORS])
    ps = [-1 if s == "none" else parse_pid(s) for s in sent]
    for p in ps:
        if p >= 0:
            c.send(p, t, "10.3.1")
    if ps[HOME] < 0 and ps[VISITORS] < 0:
        c.ev("out-of-bounds", "10.5.1", space=c.sp(t), side=1 - last)
        c.set_turn(np_kind="out", np_side=1 - last)
    elif ps[HOME] >= 0 and ps[VISITORS] >= 0:
        c.then(("contest", ps[last], ps[1 - last], 0, "10.3"))
    else:
        take_ball(c, ps[HOME] if ps[HOME] >= 0 else ps[VISITORS], "10.3.2")


SECRET["loose"] = Secret(_loose_legal, _loose_resolve, "10.3.1")


@auto("contest")
def _contest(c: Ctx, f: Frame) -> None:
    _, a, b, sign, law = f
    slith = [i for i in (a, b) if c.ability(i) == "slitheron"]
    if len(slith) == 1:
        # 21.6.3: Slitheron takes it without a roll, so nobody owes an injury check;
        # two Slitherons roll as usual.
        c.ev("slitheron", "21.6.3", player=pid(slith[0]), contest=law)
        take_ball(c, slith[0], "21.6.3")
        return
    c.exhaust(a, R.RULING_CONTEST_ENTRY_COST, "10.2.2")
    c.exhaust(b, R.RULING_CONTEST_ENTRY_COST, "10.2.2")
    c.then(*dice(c, "contest", a, b), ("contest_resolve", a, b, sign, law))


def _contest_parts(c: Ctx, i: int, die: Die, skill: int, mod: int,
                   rolling: tuple[int, int]) -> dict[str, Any]:
    skill = 0 if c.players[i].injured else skill  # 15.4.2b
    parts = {"player": pid(i), "die": die.face, "skill": skill, "speed": mod,
             "total": die.face + skill + mod}
    parts = die_parts(c, i, die, parts, bool(mod))
    # 20.5.1: the side that last had the ball attacks (10.2.1), the other defends.
    return with_merge(c, parts, side_of(i), i == rolling[0], rolling)


@auto("contest_resolve")
def _contest_resolve(c: Ctx, f: Frame) -> None:
    _, a, b, sign, law = f
    da, db = take_die(c), take_die(c)
    mod = sign * (c.ball.speed // 2)  # 10.2.3, 10.4.3
    pa = _contest_parts(c, a, da, c.off(a), mod, (a, b))  # the side that last had it
    pb = _contest_parts(c, b, db, c.dfn(b), 0, (a, b))
    if pa["total"] == pb["total"]:
        c.ev("contest", "10.2.2", last=pa, other=pb, winner="tie")
        c.exhaust(a, 1, "10.2.2")
        c.exhaust(b, 1, "10.2.2")
        c.then(*dice(c, "contest", a, b), f)  # 20.3.6: a fresh roll, declared afresh
        return
    w = a if pa["total"] > pb["total"] else b
    c.ev("contest", law, last=pa, other=pb, winner=pid(w))
    take_ball(c, w, "10.4.5" if law == "10.4" else "10.2.2")
    shot = zytheris_after_contest(c, a, sign) if law == "10.4" and w == a else []
    c.then(*injury_checks(c, (a, b)), *shot)
