"""The end of a turn (Law 12): the new play that a goal, a miss, an own-goal roll, a
time out or a ball out of play makes (12.5), a steal's run back (12.4) with the Cyborgs'
Charge-up (20.3.7; Strider 21.4.4), and the pickup a new play may need (10.6).
"""

from __future__ import annotations

from .. import rulings as R
from ..board import HOME, VISITORS
from ..state import Ball, Frame, parse_pid, pid
from .dice import is_ooze, ooze_stack
from .frames import ASK, MAX_SPEED, Ask, Ctx, arg_side, auto


@auto("end_turn")
def _end_turn(c: Ctx, f: Frame) -> None:
    t = c.turn
    np = t.np_kind
    turnover = bool(np) or c.ball.owner != t.side
    if not np and c.ball.owner < 0:
        raise AssertionError("a turn ended with nobody holding a live ball")
    if turnover and c.last_poss:
        c.minute += t.cost  # 16.3.4: the last turn is charged as usual
        c.ev("clock", "4.4.3", minute=c.minute, cost=t.cost)
        c.ev("period-ends", "16.3.3", period=c.period, minute=c.minute)
        c.then(("period_end",))
        return
    if np:
        c.set_turn(double=-1, partner=-1)  # 19.10.4: a new play ends a Double Team
        side = t.np_side
        pos = c.ball.pos
        if np in ("goal", "own-goal"):
            pos = c.B.kickoff  # 5.5.2, 11.4.2
        elif np == "miss":
            pos = c.B.own_end(side)  # 5.5.3
        survivor = np == "own-goal-avoided" and R.RULING_OWN_GOAL_SURVIVOR_CARRIES
        carrier = c.ball.carrier if survivor else -1
        c.ball = Ball(pos, 1, side, carrier, side)  # 5.5.1, 7.3.1
        c.ev("new-play", "12.5", kind=np, side=side, space=c.sp(pos))
        if np == "timeout":
            reply: tuple[Frame, ...] = (
                (("coach", 1 - side, "timeout-reply", 0, R.HALF_SUBS),)
                if R.RULING_TIME_OUT_REPLY_ALWAYS else ()  # 13.5.1, OQ26
            )
            c.then(("coach", side, "timeout", 0, R.HALF_SUBS), *reply,
                   ("reset",), ("pickup",), ("clock",))
        else:
            c.then(("reset",), ("coach", side, "new-play", 0, R.HALF_SUBS), ("pickup",),
                   ("clock",))
    elif turnover:
        b = c.ball
        burst = t.beaten == "dribble-burst"
        inferno = b.carrier >= 0 and c.ability(b.carrier) == "inferno"  # 21.3.6
        if not burst and not inferno:  # 19.6.5: the one turnover that keeps its speed
            c.set_ball(speed=1)  # 7.3.1
        c.ev("steal-turnover", "12.4", side=c.ball.owner)
        frames = runback_frames(c)
        if t.speed_step >= 0:
            i, s = t.speed_step, c.ball.speed
            law = "19.6.5" if burst else "19.9.5" if t.resolved == "intercept" else "6.9.3"
            frames.append(("speed", i, max(1, s - c.dfn(i)), min(MAX_SPEED, s + c.dfn(i)), law))
        if t.beaten == "skilled-pass" and c.ball.carrier >= 0:
            # 19.5.5: the taker's unopposed Low Pass; its own end of turn charges the clock
            frames.append(("free_pass", c.ball.carrier))
        else:
            frames.append(("clock",))
        c.then(*frames)
    else:
        c.then(("clock",))


@auto("pickup")
def _pickup(c: Ctx, f: Frame) -> None:
    side = c.ball.owner
    if not c.on_space(side, c.ball.pos):
        c.then(("send", "pickup", side, c.ball.pos, 0, -1, 0))


def _covered(c: Ctx, side: int) -> list[int]:
    """2.5: the spaces the side covers; an Ooze covers nothing (20.5.3)."""
    return [c.players[i].pos for i in c.fielded(side) if not is_ooze(c, i)]


def _uncovered(c: Ctx, taken: list[int], zone: str) -> list[int]:
    """The zone's spaces not in ``taken`` (what the side covers, :func:`_covered`)."""
    return [s for s in c.B.spaces(zone) if s not in taken]


def runback_options(c: Ctx, side: int, exempt: int = -1) -> list[tuple[int, int]]:
    """12.4.1: who still has to run back, and where each may go (never the carrier, nor
    a Zenith who flew, 21.5.7)."""
    holder = c.ball.carrier
    ps = c.players
    mine = c.fielded(side)
    taken = _covered(c, side)  # nobody moves while the options are listed
    out: list[tuple[int, int]] = []
    # Group (a) first (RULING_RUNBACK_GROUP_ORDER): everyone outside their card's zone.
    for i in mine:
        if i not in (holder, exempt) and c.B.zones[ps[i].pos] != ps[i].zone:
            dest = _uncovered(c, taken, ps[i].zone) or list(c.B.spaces(ps[i].zone))
            out += [(i, s) for s in dest]
    if out:
        return out
    # Group (b): one of a stack, while its zone still has an uncovered space.
    for zone in ("H", "M", "V"):
        unc = _uncovered(c, taken, zone)
        if not unc:
            continue
        for x in c.B.spaces(zone):
            here = [i for i in mine if ps[i].pos == x]
            counted = [i for i in here if not is_ooze(c, i)]  # 20.5.3
            if len(counted) < 2 or ooze_stack(c, here, zone):
                continue
            out += [(i, s) for i in counted if i not in (holder, exempt)
                    and ps[i].zone == zone for s in unc]
    return out


def _exempt(f: Frame) -> int:
    """A Part II run-back frame's fourth element: a Zenith who flew and does not run
    (21.5.7); -1 for nobody."""
    return int(f[3]) if len(f) > 3 else -1


@auto("runback")
def _runback(c: Ctx, f: Frame) -> None:
    """12.4.1; in Part II the frame also carries a bit per player who has run (``f[2]``,
    for Charge-up) and a Zenith who flew and does not run (``f[3]``)."""
    if runback_options(c, int(f[1]), _exempt(f)):
        c.then(("run", *f[1:]))
    elif len(f) > 2:
        _charge_up(c, int(f[1]), int(f[2]))


def _charge_up(c: Ctx, side: int, moved: int) -> None:
    """20.3.7-20.3.9: once the side has run back, each of its Cyborgs who did not move
    clears 1 drain (Strider 2, 21.4.4).  A new-play reset is not a run back (20.3.10)."""
    for i in c.fielded(side):
        if c.species(i) == "Cyborg" and not moved >> i & 1:
            strider = c.ability(i) == "strider"
            c.clear(i, R.STRIDER_CHARGE_UP if strider else R.CHARGE_UP,
                    "21.4.4" if strider else "20.3.7")


def _run_answer(c: Ctx, f: Frame, d: str) -> None:
    _, who, where = d.split()
    i, s = parse_pid(who), c.B.parse(where)
    frm = c.players[i].pos
    c.move(i, s)
    c.ev("run-back", "12.4.3", player=pid(i), frm=c.sp(frm), to=where)
    cost = abs(s - frm)
    if len(f) > 2:
        moved = int(f[2])
        if c.ability(i) == "strider":  # 21.4.4: 1 at most for the whole run back
            cost = 0 if moved >> i & 1 else min(cost, R.STRIDER_RUNBACK_MAX)
        c.exhaust(i, cost, "21.4.4" if c.ability(i) == "strider" else "12.4.3")
        c.then(("runback", f[1], moved | 1 << i, *f[3:]))
        return
    c.exhaust(i, cost, "12.4.3")
    c.then(("runback", f[1]))


ASK["run"] = Ask(
    arg_side,
    lambda c, f: sorted(f"run {pid(i)} {c.sp(s)}"
                        for i, s in runback_options(c, int(f[1]), _exempt(f))),
    _run_answer,
)


def runback_frames(c: Ctx) -> list[Frame]:
    """A steal's run back (12.4), each eligible Zenith first offered a flight (21.5.7)."""
    owner = c.ball.owner
    zeniths = [i for i in (*c.fielded(HOME), *c.fielded(VISITORS))
               if c.ability(i) == "zenith" and not c.players[i].injured
               and i != c.ball.carrier]
    # Part II runs back with a record of who has moved (Charge-up, 20.3.7) and of a
    # Zenith who flew (21.5.7); training mode's frames are as they always were.
    extra: tuple[int, ...] = () if c.config.mode == "training" else (0, -1)
    return [*(("zenith", z) for z in zeniths), ("runback", owner, *extra),
            ("runback", 1 - owner, *extra)]
