"""A live ball on the move (20.4), and every way a player comes to hold it.

``ball_moves`` announces every movement of a live ball.  Outside training mode it
marks the stack with ``("moved",)``; once the code that moved the ball has scheduled
what the movement leads to, the machine calls ``offer``, which puts the offers on top:
every Mind Pull in the order the ball reaches the Telekinetic, then the Smooths
(20.4.14).  A pull or Smooth that lands pops everything down to the mark; otherwise the
mark is a no-op and the movement resolves as it would have.  Noxar, Quillon and
Spectra's pulls (21.5.1-21.5.3) and Shpritz's Smooth (21.6.5) are here too.

``receives`` is the one hook for every reception (Inferno 21.3.6, Pulsar 21.4.6), and
``take_ball`` is a player taking the ball where it is (10.1).
"""

from __future__ import annotations

from .. import rulings as R
from ..state import Frame, Reads, pid, side_of
from .frames import ASK, Ask, Ctx, Movement, auto
from .turnovers import runback_frames


def ball_moves(
    c: Ctx, to: int, law: str, carried: tuple[int, ...] = (), side: int = -1,
    smooth: bool = True,
) -> None:
    """Every movement of a live ball is announced here, with the spaces it crosses and
    who travelled with it: the client animates from it, and it is the path that the
    Telekinetics' Mind Pull and Smooth read in standard mode (20.4.1-20.4.4).

    Call it before moving the carried players and before scheduling what the movement
    leads to: outside training mode it marks the stack there, so a pull or Smooth that
    lands can drop all of it (20.4.7, 20.4.12), and a carried player who ends where
    they stood was shoved nowhere (20.4.4).  ``side`` is whose ball it is as it moves,
    when the ball does not say so yet (a steal's); ``smooth=False`` defers the Smooth
    to the reception."""
    frm = c.ball.pos
    step = 1 if to > frm else -1
    path = [c.sp(i) for i in range(frm + step, to + step, step)] if to != frm else []
    c.ev("ball-moves", law, frm=c.sp(frm), to=c.sp(to), path=path,
         carried=[pid(i) for i in carried])
    if to != frm:  # 20.4.3, 20.4.10: a ball that goes nowhere reaches nobody
        side = side if side >= 0 else (c.ball.owner if c.ball.owner >= 0 else c.ball.last)
        start = tuple(c.players[i].pos for i in carried)
        mark(c, Movement(frm, to, carried, start, side, True, smooth, -1, 0))


def mark(c: Ctx, m: Movement) -> None:
    if c.config.mode == "training":
        return  # 18.2.1: Part II does not apply
    c.stack.append(("moved",))
    c.moving = m._replace(marker=len(c.stack) - 1)


def _was_carried(c: Reads, i: int, m: Movement) -> bool:
    """20.4.4: a carried player arrived with the ball; one shoved nowhere did not."""
    return i in m.carried and c.players[i].pos != m.start[m.carried.index(i)]


def pull_offers(c: Reads, m: Movement) -> list[tuple[int, int]]:
    """20.4.1-20.4.5, 21.5.1: (Telekinetic, space where the ball reaches them), in the
    order the ball reaches them; several reached at once go in roster order
    (RULING_PULLS_SAME_SPACE_ROSTER_ORDER)."""
    step = 1 if m.to > m.frm else -1
    path = list(range(m.frm + step, m.to + step, step))  # never the starting space
    found: list[tuple[int, int, int]] = []
    for i in c.fielded(1 - m.side):
        if c.species(i) != "Telekinetic" or _was_carried(c, i, m):
            continue
        reach = 1 if c.ability(i) == "noxar" else 0  # 21.5.1: also the spaces beside
        hits = [k for k, s in enumerate(path) if abs(c.players[i].pos - s) <= reach]
        if hits:
            found.append((hits[0], i, path[hits[0]]))
    return [(i, s) for _, i, s in sorted(found)]


def smooths(c: Reads, i: int) -> bool:
    return c.species(i) == "Telekinetic" or c.ability(i) == "shpritz"  # 20.4.9, 21.6.5


def smooth_offers(c: Reads, m: Movement) -> list[int]:
    """20.4.9-20.4.11: the holder's players who stood where the ball arrives, other than
    the one it is delivered to (RULING_SMOOTH_SIDE_IS_THE_HOLDERS)."""
    b = c.ball
    holder = b.owner if b.owner >= 0 else b.last
    return [i for i in c.on_space(holder, m.to)
            if smooths(c, i) and i not in (b.carrier, m.exclude) and not _was_carried(c, i, m)]


def offer(c: Ctx, m: Movement) -> None:
    c.moving = None
    frames: list[Frame] = []
    if m.pull:
        frames += [("pull", i, s) for i, s in pull_offers(c, m)]
    if m.smooth:
        frames += [("smooth", i) for i in smooth_offers(c, m)]
    if frames:
        c.then(*frames)
    else:
        assert c.stack[m.marker] == ("moved",)
        del c.stack[m.marker]


@auto("moved")
def _moved(c: Ctx, f: Frame) -> None:
    """Nothing landed: the movement has resolved as normal (20.4.7)."""


def _preempt(c: Ctx) -> None:
    """20.4.7, 20.4.12: drop whatever the movement led to, down to its mark.  (A state
    rebuilt from a view, kickline.preview, holds no mark: it stops at its end.)"""
    while len(c.stack) > 1 and c.stack.pop()[0] != "moved":
        pass


def _pull_answer(c: Ctx, f: Frame, d: str) -> None:
    i = int(f[1])
    if d == "pull none":
        return
    free = c.ability(i) == "quillon"  # 21.5.2
    c.exhaust(i, 0 if free else R.PULL_COST, "20.4.2")  # paid whether or not it lands
    c.then(("roll", "pull", i), ("pull_resolve", i, f[2]))


ASK["pull"] = Ask(
    lambda c, f: c.seat(side_of(int(f[1]))),
    lambda c, f: sorted([f"pull {pid(int(f[1]))}", "pull none"]),
    _pull_answer,
)


@auto("pull_resolve")
def _pull_resolve(c: Ctx, f: Frame) -> None:
    i, spot = int(f[1]), int(f[2])
    die = c.rolls.pop(0)
    spectra = c.ability(i) == "spectra"
    need = R.SPECTRA_PULL_LANDS if spectra else R.PULL_LANDS
    lands = die >= need  # 20.4.2: not a skill test, no injury check
    c.ev("mind-pull", "21.5.3" if spectra else "20.4.1", player=pid(i), space=c.sp(spot),
         die=die, needs=need, lands=lands)
    if not lands:
        return
    _preempt(c)  # 20.4.5: the rest get no roll; 20.4.7: nor does what it led to
    side, pos = side_of(i), c.players[i].pos  # 21.5.1: Noxar brings it to their space
    c.set_ball(pos=pos, speed=1, owner=side, carrier=i, last=side)
    c.ev("pulled", "20.4.8", player=pid(i), at=c.sp(spot), space=c.sp(pos), speed=1)
    receives(c, i)
    if side == c.turn.side:
        # A pull off the defense's ball (a steal's) hands it back to the side whose turn
        # it is, which the end of the turn cannot see as a turnover: run back here (20.4.8).
        c.then(*runback_frames(c))


def _smooth_answer(c: Ctx, f: Frame, d: str) -> None:
    i = int(f[1])
    if d == "smooth none":
        return
    _preempt(c)  # 20.4.12
    side = side_of(i)
    # 20.4.13: not a turnover: the ball stays, its speed untouched; a run back that a
    # turnover already caused still happens, with this player as the carrier who stays.
    c.set_ball(owner=side, carrier=i, last=side)
    c.ev("smooth", "21.6.5" if c.ability(i) == "shpritz" else "20.4.9", player=pid(i),
         space=c.sp(c.ball.pos))
    receives(c, i)


ASK["smooth"] = Ask(
    lambda c, f: c.seat(side_of(int(f[1]))),
    lambda c, f: sorted([f"smooth {pid(int(f[1]))}", "smooth none"]),
    _smooth_answer,
)


RECEIVING_ABILITIES = ("inferno", "pulsar")


def receive_later(c: Ctx, i: int) -> None:
    """A movement's receiver receives only once no pull has pre-empted it (20.4.7): call
    last, so the frame runs before the set-up or anything else the movement queued."""
    if c.ability(i) in RECEIVING_ABILITIES:
        c.then(("receives", i))


@auto("receives")
def _receives_frame(c: Ctx, f: Frame) -> None:
    receives(c, int(f[1]))


def receives(c: Ctx, i: int) -> None:
    """21.3.6, 21.4.6: the one hook for every way a player comes to hold the ball (a pass,
    a steal, a won contest, a pull, a Smooth, a pickup); a handler chosen on a ball
    they already stood on has not received it."""
    a = c.ability(i)
    if a == "inferno":
        c.set_ball(speed=R.INFERNO_SPEED)
        c.ev("lights-ball", "21.3.6", player=pid(i), speed=R.INFERNO_SPEED)
    elif a == "pulsar":
        c.clear(i, 1, "21.4.6")  # never below zero


def take_ball(c: Ctx, i: int, law: str) -> None:
    side = side_of(i)
    c.set_ball(owner=side, carrier=i, last=side)
    c.ev("takes-ball", law, player=pid(i), space=c.sp(c.ball.pos))
    receives(c, i)
