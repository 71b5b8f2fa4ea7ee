"""The defensive maneuvers: Deflect (6.8), Steal (6.9) and Pressure (6.10).
"""

from __future__ import annotations

from collections.abc import Callable

from .. import rulings as R
from ..board import Board
from ..state import pid, role
from .ball import ball_moves, receive_later
from .frames import Ctx
from .shots import own_goal_risk


def _deflect(c: Ctx) -> None:
    k = R.FULLBACK_DEFLECT if role(c.turn.challenger) == "FB" else 1  # 6.8.3
    knock_back(c, "deflect", k, 1)


def knock_back(c: Ctx, kind: str, k: int, drop: int) -> None:
    if c.turn.beaten == "setup-pass":  # 19.7.7: the beater drives it further first
        c.then(("drive", kind, k, drop))
    else:
        lands_back(c, kind, k, drop)


def lands_back(c: Ctx, kind: str, k: int, drop: int) -> None:
    """6.8.2-6.8.5 and 19.8.2-19.8.3: the ball goes back ``k``, speed down ``drop``."""
    law = "6.8" if kind == "deflect" else "19.8"
    side, ch, pos = c.turn.side, c.turn.challenger, c.ball.pos
    t, ran = c.B.step(pos, -Board.fwd(side), k)
    speed = max(1, c.ball.speed - drop)
    ball_moves(c, t, law + ".2")
    c.set_ball(pos=t, speed=speed, owner=-1, carrier=-1, last=side)
    c.ev(kind, law + ".2", player=pid(ch), to=c.sp(t), speed=speed, out_of_field=ran)
    if ran and c.players[ch].pos == t:
        # 6.8.5, 19.8.3: possession flips for the player's own scoring opportunity.
        c.set_ball(owner=1 - side, carrier=ch, speed=1, last=1 - side)
        c.then(("setup", ch, kind, speed))
        receive_later(c, ch)
    else:
        c.then(("settle", t))


def _steal(c: Ctx) -> None:
    side, ch, pos = c.turn.side, c.turn.challenger, c.ball.pos
    new = 1 - side
    t, _ = c.B.step(pos, -Board.fwd(new), 1)  # 6.9.2: back for the new possessor
    ball_moves(c, t, "6.9.2", carried=(ch,), side=new)
    c.move(ch, t)
    c.set_ball(pos=t, speed=1, owner=new, carrier=ch, last=new)
    c.set_turn(speed_step=ch)
    c.ev("steal", "6.9.2", player=pid(ch), to=c.sp(t))
    receive_later(c, ch)


def _pressure(c: Ctx) -> None:
    side, h, ch, pos = c.turn.side, c.turn.handler, c.turn.challenger, c.ball.pos
    if pos == c.B.own_end(side):
        own_goal_risk(c, h, ch, "6.10.3")
        return
    t = pos - Board.fwd(side)
    ball_moves(c, t, "6.10.2", carried=(h, ch))
    c.move(h, t)
    c.move(ch, t)
    c.set_ball(pos=t, owner=side, carrier=h, last=side)
    c.ev("pressure", "6.10.2", handler=pid(h), challenger=pid(ch), to=c.sp(t))
    if role(ch) == "D":  # 6.10.4: a Defender's won Pressure also steals
        c.set_ball(owner=1 - side, carrier=ch, speed=1, last=1 - side)
        c.ev("steal", "6.10.4", player=pid(ch), to=c.sp(t))
        receive_later(c, ch)


# The maneuvers this module resolves, by card (the resolve frame dispatches).
RESOLVERS: dict[str, Callable[[Ctx], None]] = {
    "deflect": _deflect,
    "steal": _steal,
    "pressure": _pressure,
}
