"""The start of a match and of every turn: the toss, the deal and the kickoff (Law 3),
the handler and the action (Law 4), and who challenges the handler (6.1).
"""

from __future__ import annotations

from typing import Any

from .. import rulings as R
from ..board import HOME, VISITORS
from ..roster import BENCH_SLOTS, STARTING_SLOTS
from ..state import Ball, Config, Frame, Player, Shootout, State, Turn, parse_pid, pid, side_of
from .frames import ASK, Ask, Ctx, auto, def_side, turn_side


def new_game(config: Config | dict[str, Any] | None = None) -> State:
    cfg = config if isinstance(config, Config) else Config.from_plain(config or {})
    s = State(
        config=cfg,
        version=0,
        home_seat=-1,
        players=tuple(Player("B", 0, "", 0, 0, False) for _ in range(18)),
        ball=Ball(0, 1, -1, -1, HOME),
        minute=0,
        period=0,
        last_poss=False,
        timeouts=(False, False),
        subs=(R.SUBS_PER_HALF, R.SUBS_PER_HALF),
        score=(0, 0),
        goals=(),
        turn=Turn(),
        secret=("", ""),
        rolls=(),
        shootout=Shootout(),
        stack=(("over",), ("coin",)),
    )
    return s


def toss_coin(c: Ctx, value: str) -> None:
    if c.config.home is not None:
        # RULING_HOME_BY_PAIRING: a paired match (a tournament) names its home seat; the
        # coin still falls (the same chance node every match starts with) but decides
        # nothing.
        c.home_seat = c.config.home
        c.ev("home-by-pairing", "3.1.3", coin=value, home_seat=c.home_seat)
        _deal(c)
        return
    # 3.1.2 with RULING_COIN_FLIPPER: seat 0 flips; fortune wins it the toss.
    flipper = R.RULING_COIN_FLIPPER_SEAT
    winner = flipper if value == "fortune" else 1 - flipper
    c.ev("toss", "3.1.2", coin=value, winner_seat=winner)
    c.then(("toss", winner))


def _toss_answer(c: Ctx, f: Frame, d: str) -> None:
    winner = int(f[1])
    choice = d.split()[1]
    c.home_seat = winner if choice == "home" else 1 - winner
    c.ev("toss-choice", "3.1.3", seat=winner, choice=choice, home_seat=c.home_seat)
    _deal(c)


def _deal(c: Ctx) -> None:
    """Both teams take the standard setup once home is known (3.2.1), then the coaches
    set up and home kicks off."""
    for side in (HOME, VISITORS):
        deal = c.B.standard_deal(side)
        for slot, (zone, pos) in zip(STARTING_SLOTS, deal, strict=True):
            c.players[side * 9 + slot] = Player("F", pos, zone, pos, 0, False)
        for slot in BENCH_SLOTS:
            c.players[side * 9 + slot] = Player("B", 0, "", 0, 0, False)
    c.ev("deal", "3.2.1", **_arrangements(c))
    c.then(
        ("coach", HOME, "setup", 0, R.UNLIMITED),
        ("coach", VISITORS, "setup", 0, R.UNLIMITED),
        ("kickoff", HOME),
    )


ASK["toss"] = Ask(
    lambda c, f: int(f[1]),
    lambda c, f: ["toss home", "toss visitors"],
    _toss_answer,
)


def _arrangements(c: Ctx) -> dict[str, Any]:
    return {
        "home": {pid(i): c.sp(c.players[i].arr) for i in c.fielded(HOME)},
        "visitors": {pid(i): c.sp(c.players[i].arr) for i in c.fielded(VISITORS)},
    }


@auto("kickoff")
def _kickoff(c: Ctx, f: Frame) -> None:
    side = int(f[1])
    c.period = 1 if c.period == 0 else c.period
    c.set_turn(double=-1, partner=-1)  # 19.10.4: a kickoff is a new play
    _reset(c, f)
    c.ball = Ball(c.B.kickoff, 1, side, -1, side)
    c.ev("kickoff", "3.4.1" if c.period == 1 else "16.4.4", side=side,
         space=c.sp(c.B.kickoff), minute=c.minute)
    c.then(("turn",))


@auto("reset")
def _reset(c: Ctx, f: Frame) -> None:
    """12.5.1: every fielded meeple back to its arrangement, at no cost."""
    for i in range(18):
        p = c.players[i]
        if p.status == "F" and p.pos != p.arr:
            c.players[i] = p._replace(pos=p.arr)
    if f[0] == "reset":
        c.ev("reset", "12.5.1")


@auto("turn")
def _turn(c: Ctx, f: Frame) -> None:
    side = c.ball.owner
    # 19.10.4: a Double Team's help outlasts the turn, until a new play.
    c.turn = Turn(side=side, double=c.turn.double, partner=c.turn.partner)
    here = c.on_space(side, c.ball.pos)
    if not here:
        raise AssertionError("possessing side has nobody on the ball's space")
    carrier = c.ball.carrier
    c.set_ball(carrier=-1)  # 4.2.4: the carry holds for one turn only
    c.ev("turn", "4.1.1", side=side, minute=c.minute, space=c.sp(c.ball.pos),
         speed=c.ball.speed)
    if carrier in here:
        c.set_turn(handler=carrier)
        c.ev("handler", "4.2.1", player=pid(carrier), carrier=True)
        c.then(("action",))
    else:
        c.then(("handler",), ("action",))


def _handler_answer(c: Ctx, f: Frame, d: str) -> None:
    h = parse_pid(d.split()[1])
    c.set_turn(handler=h)
    c.ev("handler", "4.2.1", player=pid(h))


ASK["handler"] = Ask(
    turn_side,
    lambda c, f: [f"handler {pid(i)}" for i in c.on_space(c.turn.side, c.ball.pos)],
    _handler_answer,
)


def _action_legal(c: Ctx, f: Frame) -> list[str]:
    side = c.turn.side
    out = ["action maneuver"]  # 4.3.2
    if c.B.in_range(side, c.ball.pos):
        out.append("action shoot")  # 4.3.1
    elif not c.timeouts[side] and not c.last_poss:
        out.append("action timeout")  # 4.3.3, 13.2.1
    return sorted(out)


def _action_answer(c: Ctx, f: Frame, d: str) -> None:
    what = d.split()[1]
    side = c.turn.side
    c.ev("action", "4.1.1", side=side, action=what)
    if what == "shoot":
        c.set_turn(cost=c.turn.cost + R.COST_SCORE_ATTEMPT)
        c.then(("shot", c.turn.handler, 0, 1), ("end_turn",))
    elif what == "timeout":
        c.set_turn(cost=c.turn.cost + R.COST_TIME_OUT, np_kind="timeout", np_side=side)
        tos = list(c.timeouts)
        tos[side] = True
        c.timeouts = (tos[0], tos[1])
        c.ev("time-out", "13.1.1", side=side)
        c.then(("end_turn",))
    else:
        c.then(("challenge",), ("cards",), ("end_turn",))


ASK["action"] = Ask(turn_side, _action_legal, _action_answer)


@auto("challenge")
def _challenge(c: Ctx, f: Frame) -> None:
    dside = 1 - c.turn.side
    here = c.on_space(dside, c.ball.pos)
    double = c.turn.double
    if double >= 0 and side_of(double) == dside:
        # 19.10.4: both of the Double Team's players challenge, from where they stand
        # (RULING_DOUBLE_TEAM_CHALLENGES_IN_PLACE).
        c.set_turn(challenger=double)
        c.ev("challenger", "19.10.4", player=pid(double),
             partner=pid(c.turn.partner) if c.turn.partner >= 0 else None)
    elif len(here) == 1:
        c.set_turn(challenger=here[0])
        c.ev("challenger", "6.1.2", player=pid(here[0]))
    elif here:
        c.then(("challenger",))
    else:
        c.then(("send", "challenge", dside, c.ball.pos, 1, -1, 0))


def _challenger_answer(c: Ctx, f: Frame, d: str) -> None:
    p = parse_pid(d.split()[1])
    c.set_turn(challenger=p)
    c.ev("challenger", "6.1.2", player=pid(p))


ASK["challenger"] = Ask(
    def_side,
    lambda c, f: [f"challenge {pid(i)}" for i in c.on_space(1 - c.turn.side, c.ball.pos)],
    _challenger_answer,
)
