"""The clock (Law 16) and the halftime recovery (15.5): a turn's cost, last
possession, the end of a period, halftime and the second half.
"""

from __future__ import annotations

from .. import rulings as R
from ..board import HOME, VISITORS
from ..state import Frame, parse_pid, pid
from .frames import ASK, Ask, Ctx, arg_side, auto

PERIOD_END = {1: 15, 2: 30}  # 16.1.1, 16.3.1


@auto("clock")
def _clock(c: Ctx, f: Frame) -> None:
    c.minute += c.turn.cost
    c.ev("clock", "4.4.3", minute=c.minute, cost=c.turn.cost)
    if not c.last_poss and c.minute >= PERIOD_END[c.period]:
        c.last_poss = True
        c.ev("last-possession", "16.3.2", side=c.ball.owner, minute=c.minute)
    c.then(("turn",))


@auto("period_end")
def _period_end(c: Ctx, f: Frame) -> None:
    if c.period == 1:
        c.ev("halftime", "16.4.1", score=list(c.score))
        for i in range(18):
            p = c.players[i]
            if p.status == "F" and p.tokens > 0:
                c.players[i] = p._replace(tokens=p.tokens - 1)  # 15.5.1
        c.then(
            ("extra_clear", VISITORS), ("extra_clear", HOME),
            ("coach", VISITORS, "halftime", 0, R.HALFTIME_SUBS),
            ("coach", HOME, "halftime", 0, R.HALFTIME_SUBS),
            ("second_half",),
        )
        return
    if c.score[HOME] != c.score[VISITORS]:
        c.ev("full-time", "16.5.2", score=list(c.score))
        return  # ("over",) is at the bottom of the stack
    c.ev("full-time", "16.5.2", score=list(c.score), shootout=True)
    c.period = 3
    c.then(
        ("coach", HOME, "shootout", 0, R.SHOOTOUT_SUBS),
        ("coach", VISITORS, "shootout", 0, R.SHOOTOUT_SUBS),
        ("so_order",),
    )


@auto("extra_clear")
def _extra_clear(c: Ctx, f: Frame) -> None:
    if any(c.players[i].tokens > 0 for i in c.fielded(int(f[1]))):
        c.then(("extra_clear_ask", f[1]))


def _extra_clear_answer(c: Ctx, f: Frame, d: str) -> None:
    i = parse_pid(d.split()[1])
    p = c.players[i]
    c.players[i] = p._replace(tokens=p.tokens - 1)
    c.ev("extra-clear", "15.5.1", player=pid(i), tokens=p.tokens - 1)


ASK["extra_clear_ask"] = Ask(
    arg_side,
    # RULING_HALFTIME_CLEAR_NEEDS_TOKENS: only a player with a token to clear is offered.
    lambda c, f: sorted(f"clear {pid(i)}" for i in c.fielded(int(f[1]))
                        if c.players[i].tokens > 0),
    _extra_clear_answer,
)


@auto("second_half")
def _second_half(c: Ctx, f: Frame) -> None:
    c.period, c.minute, c.last_poss = 2, PERIOD_END[1], False  # 16.4.4
    c.timeouts = (False, False)
    c.subs = (R.SUBS_PER_HALF, R.SUBS_PER_HALF)  # 14.5.3
    c.then(("kickoff", VISITORS))
