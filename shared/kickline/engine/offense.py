"""The offensive maneuvers: Low Pass (6.5), Dribble (6.6), High Pass (6.7), with
the High Pass's landing, reception and contest (10.4).  The Skilled Pass (19.5) shares
the Low Pass's receiver question; Quantor's run is asked with the throw (21.4.5).
"""

from __future__ import annotations

from collections.abc import Callable

from .. import rulings as R
from ..board import Board
from ..state import Frame, Reads, parse_pid, pid, role, side_of
from .abilities import quantor_runner
from .ball import ball_moves, mark, receive_later, take_ball
from .frames import ASK, MAX_SPEED, Ask, Ctx, Movement, auto, turn_side


def low_pass_receivers(c: Reads) -> list[int]:
    """6.5.2: the nearest teammate within 2 ahead, the nearest within 2 behind (a nearer
    one blocks a farther one), and teammates on the ball's own space; never the passer."""
    side, h, pos = c.turn.side, c.turn.handler, c.ball.pos
    fwd = Board.fwd(side)
    targets: list[int] = []
    for direction in (fwd, -fwd):
        for k in (1, 2):
            t = pos + direction * k
            if 1 <= t <= c.B.n:
                mates = [i for i in c.on_space(side, t) if i != h]
                if mates:
                    targets += mates
                    break
    return targets + [i for i in c.on_space(side, pos) if i != h]


def skilled_pass_receivers(c: Reads) -> list[int]:
    """19.5.2: any teammate within 3 spaces either way or on the ball's space; nobody
    blocks; never the passer."""
    side, h, pos = c.turn.side, c.turn.handler, c.ball.pos
    return [i for i in c.fielded(side)
            if i != h and abs(c.players[i].pos - pos) <= R.SKILLED_PASS_REACH]


def low_pass(c: Ctx) -> None:
    targets = low_pass_receivers(c)
    if targets:
        c.then(("pass_to",))
        return
    no_destination(c)


def no_destination(c: Ctx) -> None:
    side, pos = c.turn.side, c.ball.pos
    fwd = Board.fwd(side)
    t, ran = c.B.step(pos, fwd, 1)  # 6.5.5
    if ran and not R.RULING_LOW_PASS_NO_DESTINATION_CLAMPS:
        # The alternative reading of OQ4: off the end is out of play, as in 6.7.6.
        c.ev("out-of-play", "6.5.5", space=c.sp(t))
        c.set_turn(np_kind="out", np_side=1 - side)
        return
    ball_moves(c, t, "6.5.5")
    c.set_ball(pos=t, speed=min(MAX_SPEED, c.ball.speed + 1), owner=-1, last=side)
    c.ev("ball-rolls", "6.5.5", to=c.sp(t), speed=c.ball.speed)
    c.then(("settle", t))


def _pass_legal(c: Reads, f: Frame) -> list[str]:
    skilled = len(f) > 1
    receivers = skilled_pass_receivers(c) if skilled else low_pass_receivers(c)
    return sorted(f"pass {pid(i)}" for i in receivers)


def _pass_answer(c: Ctx, f: Frame, d: str) -> None:
    side, h, pos = c.turn.side, c.turn.handler, c.ball.pos
    skilled = len(f) > 1
    up = R.GAMBIT_SPEED_UP if skilled else 1  # 6.5.4, 19.5.3
    r = parse_pid(d.split()[1])
    rpos = c.players[r].pos
    ball_moves(c, rpos, "19.5.2" if skilled else "6.5.2")
    c.set_ball(pos=rpos, speed=min(MAX_SPEED, c.ball.speed + up), owner=side, carrier=r,
               last=side)
    c.ev("pass", "19.5.3" if skilled else "6.5.4", frm=pid(h), to=pid(r), space=c.sp(rpos),
         speed=c.ball.speed)
    if rpos == pos:  # 6.5.3: a pass across a shared space sends the passer forward
        t, ran = c.B.step(pos, Board.fwd(side), 1)
        if not ran:
            c.move(h, t)
            c.ev("passer-steps", "6.5.3", player=pid(h), to=c.sp(t))
    if role(h) == "W" and c.B.in_range(side, rpos):
        c.then(("setup", r, "winger", 0))  # 6.5.6
    elif c.ability(r) == "zytheris" and c.B.in_range(side, rpos):
        c.then(("setup", r, "zytheris", 0))  # 21.5.8
    receive_later(c, r)


ASK["pass_to"] = Ask(turn_side, _pass_legal, _pass_answer)


def _dribble(c: Ctx) -> None:
    c.then(("dribble_dist",))


def _dribble_options(c: Ctx) -> list[int]:
    h = c.turn.handler
    maxd = R.PLAYMAKER_DRIBBLE if role(h) == "PM" else 1  # 6.6.4
    if c.ability(h) == "emberdash":
        maxd = R.EMBERDASH_DRIBBLE  # 21.3.4
    return forward_reach(c, maxd)


def forward_reach(c: Reads, maxd: int) -> list[int]:
    """Distances 1..maxd the handler may carry the ball forward; those the end of the
    field cuts to the same space are one choice (on the last space "1" goes nowhere)."""
    seen: list[int] = []
    dists: list[int] = []
    for k in range(1, maxd + 1):
        t, _ = c.B.step(c.ball.pos, Board.fwd(c.turn.side), k)
        if t not in seen:
            seen.append(t)
            dists.append(k)
    return dists


def carry_forward(c: Ctx, k: int, law: str) -> tuple[int, int]:
    """The handler carries the ball ``k`` forward (a dribble, a burst): (from, to)."""
    h, side = c.turn.handler, c.turn.side
    frm = c.ball.pos
    t, _ = c.B.step(frm, Board.fwd(side), k)
    ball_moves(c, t, law, carried=(h,))
    c.move(h, t)
    c.set_ball(pos=t, owner=side, carrier=h, last=side)
    return frm, t


def _dribble_answer(c: Ctx, f: Frame, d: str) -> None:
    h = c.turn.handler
    frm, t = carry_forward(c, int(d.split()[1]), "6.6.2")
    # A dribble cut short by the end of the field moves only as far as the field goes.
    c.ev("dribble", "6.6.2", player=pid(h), to=c.sp(t), spaces=abs(t - frm))
    s, off = c.ball.speed, c.off(h)
    c.then(("speed", h, max(1, s - off), min(MAX_SPEED, s + off), "6.6.2"))


ASK["dribble_dist"] = Ask(
    turn_side,
    lambda c, f: sorted(f"dribble {k}" for k in _dribble_options(c)),
    _dribble_answer,
)


def _speed_answer(c: Ctx, f: Frame, d: str) -> None:
    v = int(d.split()[1])
    c.set_ball(speed=v)
    c.ev("speed", str(f[4]), player=pid(int(f[1])), speed=v)


ASK["speed"] = Ask(
    lambda c, f: c.seat(side_of(int(f[1]))),
    lambda c, f: sorted(f"speed {v}" for v in range(int(f[2]), int(f[3]) + 1)),
    _speed_answer,
)


def _high_pass(c: Ctx) -> None:
    side, pos = c.turn.side, c.ball.pos
    e = c.B.to_end(side, pos)
    if e <= 1:  # 6.7.4: every distance lands on the last space: an overshoot
        c.ev("overshoot", "6.7.4", frm=c.sp(pos))
        c.then(("hp_land", c.B.attack_end(side), 0, 1, e))
    else:
        c.then(("throw",))


def _throw_options(c: Ctx) -> list[int]:
    h = c.turn.handler
    dists = (2, 3, 4) if role(h) == "FB" else (2, 3)  # 6.7.2
    e = c.B.to_end(c.turn.side, c.ball.pos)
    return [k for k in dists if k <= e]


def _throw_legal(c: Ctx, f: Frame) -> list[str]:
    dists = _throw_options(c)  # every distance offered lands on the field
    out = [f"throw {k}" for k in dists]
    if quantor_runner(c) >= 0:
        out += [f"quantor {k}" for k in dists]  # declared with the distance (21.4.5)
    return sorted(out)


def _throw_answer(c: Ctx, f: Frame, d: str) -> None:
    kind, dist = d.split()
    k = int(dist)
    side = c.turn.side
    t = c.ball.pos + Board.fwd(side) * k
    land: Frame = ("hp_land", t, k, 0, c.B.to_end(side, c.ball.pos))
    if kind == "quantor":
        q = quantor_runner(c)
        c.exhaust(q, R.QUANTOR_COST, "21.4.5")
        frm = c.players[q].pos
        c.move(q, t)
        c.ev("runs-onto-pass", "21.4.5", player=pid(q), frm=c.sp(frm), to=c.sp(t))
        land = (*land, q)
    c.then(land)


ASK["throw"] = Ask(turn_side, _throw_legal, _throw_answer)


@auto("hp_land")
def _hp_land(c: Ctx, f: Frame) -> None:
    _, t, k, over, e = f[:5]
    side, h = c.turn.side, c.turn.handler
    mates = [i for i in c.on_space(side, t) if i != h]  # 6.7.5
    # 20.4.11: who the pass is delivered to is known once the receiver is chosen.
    ball_moves(c, int(t), "6.7.2", smooth=not mates)
    c.set_ball(pos=t, owner=-1, last=side)
    c.ev("high-pass", "6.7.2", frm=pid(h), to=c.sp(t), spaces=k, overshoot=bool(over))
    if len(f) > 5:
        c.then(("quantor_receive", t, k, f[5]))  # 21.4.5: Quantor is the receiver
    elif mates:
        c.then(("hp_receive", t, k, over))
    elif over and e == 0:
        # 6.7.6: nobody to throw it to: out of play, the other team gains possession.
        c.ev("out-of-play", "6.7.6", space=c.sp(t))
        c.set_turn(np_kind="out", np_side=1 - side)
    elif c.on_space(1 - side, t) and R.RULING_HIGH_PASS_CHASE:
        c.then(("send", "chase", side, t, 1, -1, 0))  # 10.4.2
    else:
        c.then(("settle", t))


def _hp_receive_answer(c: Ctx, f: Frame, d: str) -> None:
    _, t, k, over = f
    side = c.turn.side
    r = parse_pid(d.split()[1])
    c.ev("receiver", "6.7.4" if over else "10.4.1", player=pid(r))
    # 20.4.11: a teammate beside the receiver may Smooth the pass before it resolves.
    mark(c, Movement(int(t), int(t), (), (), side, False, True, r, 0))
    if over:
        c.then(("setup", r, "overshoot", 0))  # 6.7.4, 8.4.2
    elif k == 2:
        take_ball(c, r, "6.7.3")  # 10.4.1: a pass of 2 is simply received
        if c.B.in_range(side, int(t)):
            c.then(("setup", r, "high-pass", 0))
    elif c.turn.beaten == "intercept":
        take_ball(c, r, "19.9.7")  # a beaten Intercept: the contest is not held
    elif k == 3 and c.ability(c.turn.handler) == "vorix":
        # 21.5.6: no contest; speed 12, received, a set-up if in range.
        c.set_ball(speed=R.VORIX_SPEED)
        c.ev("vorix-pass", "21.5.6", player=pid(r), speed=R.VORIX_SPEED)
        take_ball(c, r, "21.5.6")
        if c.B.in_range(side, int(t)):
            c.then(("setup", r, "vorix", 0))
    else:
        c.then(("hp_contest", r, 1))


ASK["hp_receive"] = Ask(
    turn_side,
    lambda c, f: sorted(
        f"receive {pid(i)}" for i in c.on_space(c.turn.side, int(f[1])) if i != c.turn.handler
    ),
    _hp_receive_answer,
)


@auto("hp_contest")
def _hp_contest(c: Ctx, f: Frame) -> None:
    r, sign = int(f[1]), int(f[2])
    dside = 1 - side_of(r)
    defs = c.on_space(dside, c.ball.pos)
    if len(defs) == 1:
        c.then(("contest", r, defs[0], sign, "10.4"))
    elif defs:
        c.then(("hpc_pick", r, sign))
    else:
        c.then(("send", "hpc", dside, c.ball.pos, 1, r, sign))


def _hpc_pick_answer(c: Ctx, f: Frame, d: str) -> None:
    p = parse_pid(d.split()[1])
    c.then(("contest", int(f[1]), p, int(f[2]), "10.4"))


ASK["hpc_pick"] = Ask(
    lambda c, f: c.seat(1 - side_of(int(f[1]))),
    lambda c, f: sorted(
        f"pick {pid(i)}" for i in c.on_space(1 - side_of(int(f[1])), c.ball.pos)
    ),
    _hpc_pick_answer,
)


# The maneuvers this module resolves, by card (the resolve frame dispatches).
RESOLVERS: dict[str, Callable[[Ctx], None]] = {
    "low-pass": low_pass,
    "dribble": _dribble,
    "high-pass": _high_pass,
}
