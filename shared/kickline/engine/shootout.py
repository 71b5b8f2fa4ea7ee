"""The shootout (Law 17): secret orders, six tests, then sudden death.
"""

from __future__ import annotations

from itertools import permutations

from ..board import HOME, VISITORS
from ..state import Frame, Shootout, parse_pid, pid
from .dice import dice, die_parts, take_die
from .frames import SECRET, Ctx, Secret, auto
from .shots import score_goal


def _order_legal(c: Ctx, f: Frame, side: int) -> list[str]:
    mine = [pid(i) for i in c.fielded(side)]
    return sorted("order " + " ".join(p) for p in permutations(mine))


def _order_resolve(c: Ctx, f: Frame, choice: tuple[str, str]) -> None:
    orders = tuple(tuple(parse_pid(x) for x in choice[s].split()[1:]) for s in (HOME, VISITORS))
    c.shootout = Shootout(orders=(orders[0], orders[1]))
    c.ev("shootout", "17.3.1")
    c.then(("so_next",))


SECRET["so_order"] = Secret(_order_legal, _order_resolve, "17.3.1")


@auto("so_next")
def _so_next(c: Ctx, f: Frame) -> None:
    so = c.shootout
    if so.sudden:
        c.then(("so_pick",))
        return
    a, b = so.orders[HOME][so.idx], so.orders[VISITORS][so.idx]
    c.shootout = so._replace(current=(a, b))
    c.ev("shooters", "17.3.1", home=pid(a), visitors=pid(b), test=so.idx + 1)
    c.then(*dice(c, "shootout", a, b), ("so_resolve",))


def _pick_legal(c: Ctx, f: Frame, side: int) -> list[str]:
    shot = c.shootout.shot[side]
    return sorted(f"shooter {pid(i)}" for i in c.fielded(side) if i not in shot)


def _pick_resolve(c: Ctx, f: Frame, choice: tuple[str, str]) -> None:
    a, b = parse_pid(choice[HOME].split()[1]), parse_pid(choice[VISITORS].split()[1])
    so = c.shootout
    c.shootout = so._replace(current=(a, b), shot=((*so.shot[0], a), (*so.shot[1], b)))
    c.ev("shooters", "17.6.2", home=pid(a), visitors=pid(b), sudden_death=True)
    c.then(*dice(c, "shootout", a, b), ("so_resolve",))


SECRET["so_pick"] = Secret(_pick_legal, _pick_resolve, "17.6.2")


@auto("so_resolve")
def _so_resolve(c: Ctx, f: Frame) -> None:
    so = c.shootout
    rolled = (take_die(c), take_die(c))
    parts = []
    for side in (HOME, VISITORS):
        i = so.current[side]
        skill = 0 if c.players[i].injured else c.off(i)  # 17.4.1
        face = rolled[side].face
        # 21.6.6: full time left the ball at speed 1, so Zorch's modifier is 0 here.
        parts.append(die_parts(c, i, rolled[side], {"player": pid(i), "die": face,
                                                    "total": face + skill}, True))
    tot = [parts[0]["total"], parts[1]["total"]]
    scorer = -1 if tot[0] == tot[1] else (HOME if tot[0] > tot[1] else VISITORS)
    c.ev("shootout-test", "17.4.1", home=parts[0], visitors=parts[1], scorer=scorer)
    goals = list(so.goals)
    if scorer >= 0:
        goals[scorer] += 1
        score_goal(c, scorer, so.current[scorer], "shootout", "17.5.1")
    idx = so.idx + 1
    so = so._replace(idx=idx, goals=(goals[0], goals[1]))
    lead = abs(goals[0] - goals[1])
    if so.sudden:
        if lead > 0:  # 17.6.2: any lead at all wins
            c.shootout = so
            c.ev("shootout-won", "17.6.2", side=scorer)
            return
        if idx == 6:  # 17.6.3: everybody is available again
            so = so._replace(idx=0, shot=((), ()))
    elif lead > 6 - idx:  # 17.6.1
        c.shootout = so
        c.ev("shootout-won", "17.6.1", side=HOME if goals[0] > goals[1] else VISITORS)
        return
    elif idx == 6:
        c.ev("sudden-death", "17.6.2")
        so = so._replace(sudden=True, idx=0, shot=((), ()), goals=(0, 0))
    c.shootout = so
    c.then(("so_next",))
