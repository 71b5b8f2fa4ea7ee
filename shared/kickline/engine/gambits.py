"""The gambits (Law 19, advanced mode): how each of the six resolves when it wins,
and each one's "Beaten:" cost when it loses.  Skilled Pass (19.5), Dribble Burst
(19.6), Setup Pass (19.7), Clear (19.8), Intercept (19.9), Double Team (19.10).
"""

from __future__ import annotations

from collections.abc import Callable

from .. import rulings as R
from ..board import Board
from ..state import Frame, Reads, Turn, parse_pid, pid, role, side_of
from .abilities import quantor_runner
from .ball import ball_moves, mark, receive_later, receives, take_ball
from .defense import knock_back, lands_back
from .frames import ASK, MAX_SPEED, Ask, Ctx, Movement, auto, def_side, turn_side
from .offense import carry_forward, forward_reach, low_pass, no_destination, skilled_pass_receivers
from .shots import own_goal_risk

BEATEN_LAW = {
    "skilled-pass": "19.5.5", "dribble-burst": "19.6.5", "setup-pass": "19.7.7",
    "clear": "19.8.5", "intercept": "19.9.7", "double-team": "19.10.5",
}


def beaten_cost(c: Ctx, card: str) -> None:
    """Each gambit's "Beaten:" cost, read before the winning card resolves: those that
    act after it are queued beneath its frames or kept on the turn for its end."""
    if card == "clear":
        c.exhaust(c.turn.challenger, R.BEATEN_CLEAR_TOKENS, "19.8.5")
    elif card == "dribble-burst":
        c.then(("burst_lost",))
    elif card == "double-team":
        c.then(("double", "beaten", c.ball.pos))
    else:  # skilled-pass (end of turn), setup-pass (the drive), intercept (no contest)
        c.set_turn(beaten=card)


def _skilled_pass(c: Ctx) -> None:
    if skilled_pass_receivers(c):
        c.then(("pass_to", "skilled"))
    else:  # 19.5.3: everything else is a Low Pass's, so 6.5.5's roll forward
        no_destination(c)


def _clear(c: Ctx) -> None:
    """19.8.2-19.8.4: a Deflect at three spaces (a Fullback's four), speed down 3."""
    k = R.FULLBACK_CLEAR if role(c.turn.challenger) == "FB" else R.CLEAR_DISTANCE
    knock_back(c, "clear", k, R.CLEAR_SPEED_DROP)


def _drive_options(c: Reads, k: int) -> list[int]:
    """19.7.7 (RULING_BEATEN_SETUP_DRIVE_ADDS): 1-3 beyond the card's own distance;
    drives the field's end cuts to the same space are one choice."""
    back = -Board.fwd(c.turn.side)
    seen: list[int] = [c.B.step(c.ball.pos, back, k)[0]]
    out: list[int] = []
    for d in R.BEATEN_SETUP_DRIVE:
        t, _ = c.B.step(c.ball.pos, back, k + d)
        if t not in seen:
            seen.append(t)
            out.append(d)
    return out or [R.BEATEN_SETUP_DRIVE[0]]


def _drive_answer(c: Ctx, f: Frame, d: str) -> None:
    _, kind, k, drop = f
    n = int(d.split()[1])
    c.ev("drive", "19.7.7", player=pid(c.turn.challenger), spaces=n)
    lands_back(c, str(kind), int(k) + n, int(drop))


ASK["drive"] = Ask(
    def_side,
    lambda c, f: sorted(f"drive {n}" for n in _drive_options(c, int(f[2]))),
    _drive_answer,
)


def _burst(c: Ctx) -> None:
    c.then(("burst_dist",))


def _burst_options(c: Reads) -> list[int]:
    """19.6.2-19.6.3: up to 4 forward (a Playmaker 5), only as far as the field goes."""
    return forward_reach(c, R.PLAYMAKER_BURST if role(c.turn.handler) == "PM"
                          else R.BURST_REACH)


def _burst_answer(c: Ctx, f: Frame, d: str) -> None:
    h = c.turn.handler
    frm, t = carry_forward(c, int(d.split()[1]), "19.6.2")
    c.set_ball(speed=MAX_SPEED)  # 19.6.4
    c.ev("dribble-burst", "19.6.2", player=pid(h), to=c.sp(t), spaces=abs(t - frm),
         speed=MAX_SPEED)
    if c.ability(h) != "emberdash":  # 21.3.4: Emberdash's burst costs nothing
        c.exhaust(h, abs(t - frm), "19.6.2")


ASK["burst_dist"] = Ask(
    turn_side,
    lambda c, f: sorted(f"dribble {k}" for k in _burst_options(c)),
    _burst_answer,
)


@auto("burst_lost")
def _burst_lost(c: Ctx, f: Frame) -> None:
    """19.6.5: possession is lost and the ball keeps 12; the challenger sets it after
    the run back.  RULING_BEATEN_BURST_OWN_GOAL_FIRST (OQ12): an own-goal roll the
    Pressure ran into keeps it instead."""
    if c.turn.np_kind:
        return
    side, ch = c.turn.side, c.turn.challenger
    c.set_ball(owner=1 - side, carrier=ch, speed=MAX_SPEED, last=1 - side)
    c.set_turn(speed_step=ch, beaten="dribble-burst")
    c.ev("possession-lost", "19.6.5", player=pid(ch), speed=MAX_SPEED)
    receives(c, ch)  # 21.3.6, 21.4.6: left holding it


def _setup_pass(c: Ctx) -> None:
    """19.7.2: the speed first, by up to the passer's offensive skill, then the aim."""
    h, s = c.turn.handler, c.ball.speed
    off = c.off(h)
    c.then(("speed", h, max(1, s - off), min(MAX_SPEED, s + off), "19.7.2"), ("aim",))


def setup_pass_distances(c: Reads) -> list[int]:
    """19.7.2-19.7.4: 0 onto a teammate sharing the space, 1 and 3 (a Fullback also 4),
    each only if it is on the field."""
    side, h, pos = c.turn.side, c.turn.handler, c.ball.pos
    out = [0] if [i for i in c.on_space(side, pos) if i != h] else []
    dists = R.SETUP_DISTANCES + ((R.FULLBACK_SETUP,) if role(h) == "FB" else ())
    return out + [k for k in dists if k <= c.B.to_end(side, pos)]


@auto("aim")
def _aim(c: Ctx, f: Frame) -> None:
    if setup_pass_distances(c):
        c.then(("aim_ask",))
        return
    # 19.7.6: nowhere to pick it out to: out of play, the other team gains possession.
    side = c.turn.side
    c.ev("out-of-play", "19.7.6", space=c.sp(c.ball.pos))
    c.set_turn(np_kind="out", np_side=1 - side)


def _aim_legal(c: Ctx, f: Frame) -> list[str]:
    dists = setup_pass_distances(c)
    out = [f"aim {k}" for k in dists]
    if quantor_runner(c) >= 0:
        out += [f"quantor {k}" for k in dists]  # 21.4.5: declared with the distance
    return sorted(out)


def _aim_answer(c: Ctx, f: Frame, d: str) -> None:
    kind, dist = d.split()
    k = int(dist)
    side, h = c.turn.side, c.turn.handler
    t = c.ball.pos + Board.fwd(side) * k
    q = quantor_runner(c) if kind == "quantor" else -1
    if q >= 0:  # 21.4.5: Quantor drains 3 and runs to where the pass is aimed
        c.exhaust(q, R.QUANTOR_COST, "21.4.5")
        frm = c.players[q].pos
        c.move(q, t)
        c.ev("runs-onto-pass", "21.4.5", player=pid(q), frm=c.sp(frm), to=c.sp(t))
    mates = [i for i in c.on_space(side, t) if i != h]
    # 20.4.11: who the pass is delivered to is known once the receiver is chosen.
    ball_moves(c, t, "19.7.2", smooth=not mates)
    c.set_ball(pos=t, owner=-1, carrier=-1, last=side)
    c.ev("setup-pass", "19.7.2", frm=pid(h), to=c.sp(t), spaces=k, speed=c.ball.speed)
    if q >= 0:
        c.then(("quantor_receive", t, k, q, "setup-pass"))
    elif mates:  # 19.7.5: a space both sides stand on is still a teammate's
        c.then(("sp_receive", t))
    else:
        c.then(("settle", t))  # 19.7.5: settles exactly as a Deflect's does


ASK["aim_ask"] = Ask(turn_side, _aim_legal, _aim_answer)


def _sp_receive_answer(c: Ctx, f: Frame, d: str) -> None:
    r = parse_pid(d.split()[1])
    t = int(f[1])
    side = c.turn.side
    # 20.4.11: a teammate beside the receiver may Smooth the pass before it resolves.
    mark(c, Movement(t, t, (), (), side, False, True, r, 0))
    take_ball(c, r, "19.7.2")
    if c.B.in_range(side, t):
        c.then(("setup", r, "setup-pass", 0))  # 19.7.2, with the speed just set


ASK["sp_receive"] = Ask(
    turn_side,
    lambda c, f: sorted(
        f"receive {pid(i)}" for i in c.on_space(c.turn.side, int(f[1])) if i != c.turn.handler
    ),
    _sp_receive_answer,
)


def _intercept(c: Ctx) -> None:
    """19.9.2: possession flips, speed 1, and challenger and ball go 1 forward for the
    new possessor; 19.9.6: from the last space that way it is a scoring opportunity."""
    side, ch, pos = c.turn.side, c.turn.challenger, c.ball.pos
    new = 1 - side
    c.set_turn(speed_step=ch)  # 19.9.5
    if pos == c.B.attack_end(new):
        if c.players[ch].pos != pos:
            # RULING_INTERCEPT_FROM_A_LASTING_DOUBLE_TEAM: a Double Team's challenger who
            # challenged from where they stood (19.10.4) takes the ball where it is.
            c.move(ch, pos)
        c.set_ball(speed=1, owner=new, carrier=ch, last=new)
        c.ev("intercept", "19.9.6", player=pid(ch), to=c.sp(pos))
        c.then(("setup", ch, "intercept", 0))
        receive_later(c, ch)  # 21.3.6, 21.4.6
        return
    t, _ = c.B.step(pos, Board.fwd(new), 1)
    ball_moves(c, t, "19.9.2", carried=(ch,), side=new)
    c.move(ch, t)
    c.set_ball(pos=t, speed=1, owner=new, carrier=ch, last=new)
    c.ev("intercept", "19.9.2", player=pid(ch), to=c.sp(t))
    receive_later(c, ch)  # 21.3.6, 21.4.6


def _double_team(c: Ctx) -> None:
    side, h, pos = c.turn.side, c.turn.handler, c.ball.pos
    if pos == c.B.own_end(side):  # 19.10.3: risks an own goal, as a Pressure does
        own_goal_risk(c, h, c.turn.challenger, "19.10.3")  # Acidel's too (21.6.7)
        return
    c.then(("double", "win", pos))


def double_partners(c: Reads, start: int) -> list[int]:
    """19.10.2: the defending player (not the challenger) nearest the play's start;
    several equally near are the defending coach's pick (RULING_DOUBLE_TEAM_PARTNER_TIE)."""
    ch = c.turn.challenger
    cands = [i for i in c.fielded(side_of(ch)) if i != ch]
    if not cands:
        return []
    near = min(abs(c.players[i].pos - start) for i in cands)
    return [i for i in cands if abs(c.players[i].pos - start) == near]


@auto("double")
def _double(c: Ctx, f: Frame) -> None:
    partners = double_partners(c, int(f[2]))
    if len(partners) > 1:
        c.then(("dt_partner", f[1], f[2]))
    else:
        _double_with(c, str(f[1]), partners[0] if partners else -1)


def _double_with(c: Ctx, kind: str, partner: int) -> None:
    side, h, ch = c.turn.side, c.turn.handler, c.turn.challenger
    movers: tuple[int, ...] = (ch, partner) if partner >= 0 else (ch,)
    if kind == "beaten":  # 19.10.5: each 1 forward, away from their own goal, free
        # RULING_BEATEN_DOUBLE_TEAM_KEEPS_THE_BALL: one of them who took the ball in the
        # winning maneuver (a Low Pass that rolled onto them) stays with it (4.2).
        movers = tuple(i for i in movers if i != c.ball.carrier)
        for i in movers:
            t, _ = c.B.step(c.players[i].pos, Board.fwd(1 - side), 1)
            c.move(i, t)
        c.ev("double-team-beaten", "19.10.5",
             moved={pid(i): c.sp(c.players[i].pos) for i in movers})
        return
    t, _ = c.B.step(c.ball.pos, -Board.fwd(side), R.DOUBLE_TEAM_PUSH)  # 19.10.2
    ball_moves(c, t, "19.10.2", carried=(h, *movers))
    c.move(h, t)
    for i in movers:
        c.move(i, t)  # free of exhaustion, however far they came
    c.set_ball(pos=t, owner=side, carrier=h, last=side)
    c.set_turn(double=ch, partner=partner)  # 19.10.4: both challenge until a new play
    c.ev("double-team", "19.10.2", handler=pid(h), challenger=pid(ch),
         partner=pid(partner) if partner >= 0 else None, to=c.sp(t))
    if role(ch) == "D":  # 19.10.3: a Defender's steal applies as on a won Pressure
        c.set_ball(owner=1 - side, carrier=ch, speed=1, last=1 - side)
        c.ev("steal", "19.10.3", player=pid(ch), to=c.sp(t))
        receive_later(c, ch)  # 21.3.6, 21.4.6


ASK["dt_partner"] = Ask(
    def_side,
    lambda c, f: sorted(f"partner {pid(i)}" for i in double_partners(c, int(f[2]))),
    lambda c, f, d: _double_with(c, str(f[1]), parse_pid(d.split()[1])),
)


@auto("free_pass")
def _free_pass(c: Ctx, f: Frame) -> None:
    """19.5.5: the defender who took a beaten Skilled Pass plays an unopposed Low Pass
    once everyone has run back and the speed is set; it costs no clock."""
    i = int(f[1])
    t = c.turn
    c.turn = Turn(side=side_of(i), handler=i, cost=t.cost, double=t.double, partner=t.partner)
    c.ev("unopposed-low-pass", "19.5.5", player=pid(i), space=c.sp(c.ball.pos))
    c.then(("end_turn",))
    low_pass(c)


# The maneuvers this module resolves, by card (the resolve frame dispatches).
RESOLVERS: dict[str, Callable[[Ctx], None]] = {
    "skilled-pass": _skilled_pass,
    "dribble-burst": _burst,
    "setup-pass": _setup_pass,
    "clear": _clear,
    "intercept": _intercept,
    "double-team": _double_team,
}
