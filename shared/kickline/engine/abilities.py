"""Personal abilities (Law 21, advanced mode) that are steps of their own.

Most personal abilities change one step of a Part I rule and live beside that rule;
the ones that add a question or a step of their own are here, by species.  Where
every ability is applied (docs/ENGINE.md has the same map):

Fire Demons (21.3)
  Blazebulk, Sizzifizik, Kindlefinger (21.3.1, 21.3.2, 21.3.7)  dice: the ignite
  Brightburn (21.3.3)      dice (the clear on a burn); cards.gambit_tier (upgrades nothing)
  Emberdash (21.3.4)       offense (the dribble's reach); gambits (a burst costs nothing)
  Flickerwing (21.3.5)     shots.shot_defense
  Inferno (21.3.6)         ball.receives; turnovers (the ball keeps its speed)
  Scorchit (21.3.8)        cards (the scorch question)
Cyborgs (21.4)
  Bulwark (21.4.1)         kickline.state (Reads.exhausted)
  Voltus, Gearclaw (21.4.2, 21.4.3)  dice (the declarations)
  Strider (21.4.4)         turnovers (the run back and Charge-up)
  Quantor (21.4.5)         here; asked with the throw (offense) and the aim (gambits)
  Pulsar (21.4.6)          ball.receives
  Synapse (21.4.7)         cards.gambit_tier
Telekinetics (21.5)
  Noxar, Quillon, Spectra (21.5.1-21.5.3)  ball (Mind Pull)
  Dravox, Hexis (21.5.4)   cards.gambit_tier
  Umbrik (21.5.5)          cards (the skill test); shots (the own-goal roll)
  Vorix (21.5.6)           offense (the High Pass's reception)
  Zenith (21.5.7)          here; offered by turnovers.runback_frames
  Zytheris (21.5.8)        here; offered by offense (a pass) and sends (a contest)
Oozes (21.6)
  Glompex (21.6.1)         here; asked by cards before the cards
  Goopkeeper (21.6.2)      shots.shot_defense
  Slitheron (21.6.3)       sends (contests)
  Viscor (21.6.4)          dice.merge
  Shpritz (21.6.5)         ball (Smooth)
  Zorch (21.6.6)           dice.die_parts
  Acidel (21.6.7)          shots.own_goal_risk
"""

from __future__ import annotations

from ..state import Frame, Reads, pid, side_of
from .ball import mark, take_ball
from .frames import ASK, Ask, Ctx, Movement, auto


# Cyborgs (21.4) -------------------------------------------------------------------
def quantor_runner(c: Reads) -> int:
    """21.4.5: the passer's Quantor teammate who may run onto this High Pass, or -1.
    The Setup Pass half of 21.4.5 belongs with the gambits (19.7) and reads this too."""
    h = c.turn.handler
    return next((i for i in c.fielded(c.turn.side)
                 if c.ability(i) == "quantor" and i != h), -1)


@auto("quantor_receive")
def _quantor_receive(c: Ctx, f: Frame) -> None:
    """21.4.5: Quantor receives without a contest: a set-up off a High Pass of 2 or a
    Setup Pass, in range."""
    t, k, q = int(f[1]), int(f[2]), int(f[3])
    setup_pass = len(f) > 4  # a Setup Pass always sets its receiver up (19.7.2)
    side = side_of(q)
    c.ev("receiver", "21.4.5", player=pid(q))
    mark(c, Movement(t, t, (), (), side, False, True, q, 0))  # 20.4.11
    take_ball(c, q, "21.4.5")
    if (k == 2 or setup_pass) and c.B.in_range(side, t):
        c.then(("setup", q, "quantor", 0))


# Telekinetics (21.5) --------------------------------------------------------------
def _fly_answer(c: Ctx, f: Frame, d: str) -> None:
    z = int(f[1])
    if d == "fly none":
        return
    s = c.B.parse(d.split()[1])
    frm = c.players[z].pos
    c.move(z, s)
    c.ev("flies", "21.5.7", player=pid(z), frm=c.sp(frm), to=c.sp(s))
    c.exhaust(z, abs(s - frm), "21.5.7")
    # Zenith then does not run back: name them on their side's run-back frame.
    side = side_of(z)
    ks = [k for k, g in enumerate(c.stack) if g[0] == "runback" and int(g[1]) == side]
    if ks:  # always, except in a state rebuilt from a view (kickline.preview)
        c.stack[ks[-1]] = ("runback", side, c.stack[ks[-1]][2], z)


ASK["zenith"] = Ask(
    lambda c, f: c.seat(side_of(int(f[1]))),
    lambda c, f: sorted([f"fly {c.sp(s)}" for s in range(1, c.B.n + 1)
                         if s != c.players[int(f[1])].pos] + ["fly none"]),
    _fly_answer,
)


def zytheris_after_contest(c: Ctx, r: int, sign: int) -> list[Frame]:
    """21.5.8: Zytheris keeping a 3+ High Pass (won contest or none) may shoot; not after
    declining an overshoot's set-up (sign -1), which was already that chance."""
    if sign > 0 and c.ability(r) == "zytheris" and c.B.in_range(side_of(r), c.ball.pos):
        return [("setup", r, "zytheris", 0)]
    return []


# Oozes (21.6) ---------------------------------------------------------------------
def glompex_offers(c: Ctx) -> list[int]:
    """21.6.1 (D11): each Glompex next to the ball's space and not one of the two players
    may join it, offense first.  An injured Glompex cannot pay the token (15.1.3), so is
    not offered."""
    out: list[int] = []
    for side in (c.turn.side, 1 - c.turn.side):
        out += [i for i in c.fielded(side) if c.ability(i) == "glompex"
                and abs(c.players[i].pos - c.ball.pos) == 1 and not c.players[i].injured
                and i not in (c.turn.handler, c.turn.challenger)]
    return out


def _glompex_answer(c: Ctx, f: Frame, d: str) -> None:
    i = int(f[1])
    if d == "join yes":
        frm = c.players[i].pos
        c.move(i, c.ball.pos)
        c.ev("glompex-joins", "21.6.1", player=pid(i), frm=c.sp(frm), to=c.sp(c.ball.pos))
        c.exhaust(i, 1, "21.6.1")


ASK["glompex"] = Ask(
    lambda c, f: c.seat(side_of(int(f[1]))),
    lambda c, f: ["join no", "join yes"],
    _glompex_answer,
)
