"""The rules as a machine: a stack of frames, each automatic, a decision or a roll.

``State.stack`` holds what remains to be done, top last.  An automatic frame runs
and may push more; a decision frame waits for one seat (or, for a secret choice,
for both); a chance frame waits for a die.  ``apply`` answers the frame on top and
then runs automatic frames until the next question.  Frames are tuples of plain
values, so the whole machine lives in the state and survives storage.

An open decision with exactly one legal option is taken automatically (the
rules' "there is nothing to choose", 4.2.1, 9.3.1): it still emits its event.
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import permutations
from typing import Any, NamedTuple

from . import rulings as R
from .board import HOME, VISITORS, Board
from .decisions import Decision
from .errors import IllegalDecision, MalformedDecision, StaleVersion
from .roster import BENCH_SLOTS, STARTING_SLOTS
from .state import (
    STATE_FIELDS,
    Ball,
    Config,
    Frame,
    Player,
    Reads,
    Shootout,
    State,
    Turn,
    parse_pid,
    pid,
    role,
    side_of,
)

Event = dict[str, Any]

OFF_RANK = {"low-pass": 1, "dribble": 2, "high-pass": 3}
DEF_RANK = {"deflect": 1, "steal": 2, "pressure": 3}
CARD_LAW = {
    "low-pass": "6.5", "dribble": "6.6", "high-pass": "6.7",
    "deflect": "6.8", "steal": "6.9", "pressure": "6.10",
}
# The law that offers each kind of decision, named on the decision's own event.
DECISION_LAW = {
    "toss": "3.1.3", "handler": "4.2.1", "action": "4.3", "challenge": "6.1.2",
    "send": "9.1.1", "card": "6.2.1", "pass": "6.5.2", "dribble": "6.6.2", "speed": "7.2.1",
    "throw": "6.7.2", "receive": "10.1.3", "shot": "8.4.1", "pick": "10.1.3", "run": "12.4.3",
    "clear": "15.5.1", "sub": "14.5.1", "formation": "14.7.3", "move": "14.7.5",
    "swap": "14.2.1", "finish": "14.8.3", "skip": "14.8.4", "order": "17.3.1",
    "shooter": "17.6.2", "pull": "20.4.1", "smooth": "20.4.9", "fly": "21.5.7",
    "quantor": "21.4.5",
}
PERIOD_END = {1: 15, 2: 30}  # 16.1.1, 16.3.1
MAX_SPEED = 12


class Movement(NamedTuple):
    """A live ball's movement waiting for its Mind Pull and Smooth offers (20.4)."""

    frm: int
    to: int
    carried: tuple[int, ...]
    start: tuple[int, ...]  # where each carried player stood as the ball set off
    side: int  # whose ball it was as it moved: the other side may pull it
    pull: bool
    smooth: bool
    exclude: int  # the receiver the movement delivers it to, never offered a Smooth
    marker: int  # stack index of the ("moved",) frame under what the movement led to


class Ctx(Reads):
    """A mutable working copy of a :class:`State`, private to one ``apply``."""

    __slots__ = (*STATE_FIELDS, "B", "events", "pending", "moving")

    config: Config
    version: int
    home_seat: int
    players: list[Player]
    ball: Ball
    minute: int
    period: int
    last_poss: bool
    timeouts: tuple[bool, bool]
    subs: tuple[int, int]
    score: tuple[int, int]
    goals: tuple[tuple[int, int, int, int, str], ...]
    turn: Turn
    secret: tuple[str, str]
    rolls: list[int]
    shootout: Shootout
    stack: list[Frame]
    B: Board
    events: list[Event]
    pending: tuple[int, tuple[str, ...]] | None  # the next question's seat and options
    moving: Movement | None  # a ball movement whose 20.4 offers are not yet scheduled

    def __init__(self, s: State) -> None:
        for name in STATE_FIELDS:
            setattr(self, name, getattr(s, name))
        self.players = list(s.players)
        self.rolls = list(s.rolls)
        self.stack = list(s.stack)
        self.B = s.board
        self.events = []
        self.pending = None
        self.moving = None

    def freeze(self) -> State:
        values = {name: getattr(self, name) for name in STATE_FIELDS}
        values["players"] = tuple(self.players)
        values["rolls"] = tuple(self.rolls)
        values["stack"] = tuple(self.stack)
        return State(**values)

    # ----- small helpers ----------------------------------------------------
    def ev(self, t: str, law: str, **kw: Any) -> None:
        e: Event = {"t": t, "law": law}
        e.update(kw)
        self.events.append(e)

    def then(self, *frames: Frame) -> None:
        """Schedule frames to run in the order given, before what is already queued."""
        self.stack.extend(reversed(frames))

    def move(self, i: int, pos: int) -> None:
        self.players[i] = self.players[i]._replace(pos=pos)

    def exhaust(self, i: int, n: int, law: str) -> None:
        """15.1.4; an injured player never exhausts (15.1.3)."""
        p = self.players[i]
        if n <= 0 or p.injured:
            return
        self.players[i] = p._replace(tokens=p.tokens + n)
        self.ev("exhaust", law, player=pid(i), n=n, tokens=p.tokens + n)

    def set_ball(self, **kw: int) -> None:
        self.ball = self.ball._replace(**kw)

    def set_turn(self, **kw: Any) -> None:
        self.turn = self.turn._replace(**kw)
    def send(self, i: int, target: int, law: str) -> None:
        """9.4.1: a sent player walks in and exhausts 1 a space."""
        dist = abs(self.players[i].pos - target)
        frm = self.players[i].pos
        self.move(i, target)
        self.ev("send", law, player=pid(i), frm=self.sp(frm), to=self.sp(target), spaces=dist)
        self.exhaust(i, R.send_cost(dist), "9.4.1")


# ---------------------------------------------------------------------------
# Frame registries.
AutoFn = Callable[[Ctx, Frame], None]
AUTO: dict[str, AutoFn] = {}


class Ask:
    """An open decision by one seat."""

    def __init__(
        self,
        who: Callable[[Any, Frame], int],
        legal: Callable[[Any, Frame], list[str]],
        answer: Callable[[Ctx, Frame, str], None],
    ) -> None:
        self.who, self.legal, self.answer = who, legal, answer


class Secret:
    """A secret simultaneous choice by both sides, revealed together."""

    def __init__(
        self,
        legal: Callable[[Any, Frame, int], list[str]],
        resolve: Callable[[Ctx, Frame, tuple[str, str]], None],
        law: str,
    ) -> None:
        self.legal, self.resolve, self.law = legal, resolve, law


ASK: dict[str, Ask] = {}
SECRET: dict[str, Secret] = {}
CHANCE = ("roll", "coin")
D12 = tuple(str(i) for i in range(1, 13))


def auto(name: str) -> Callable[[AutoFn], AutoFn]:
    def deco(fn: AutoFn) -> AutoFn:
        AUTO[name] = fn
        return fn

    return deco


def turn_side(c: Ctx, f: Frame) -> int:
    return c.seat(c.turn.side)


def def_side(c: Ctx, f: Frame) -> int:
    return c.seat(1 - c.turn.side)


def arg_side(c: Ctx, f: Frame) -> int:
    return c.seat(int(f[1]))


# ---------------------------------------------------------------------------
# The toss, the deal, the kickoff (Law 3).
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


def _coin(c: Ctx, value: str) -> None:
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


# ---------------------------------------------------------------------------
# The turn (Law 4).
@auto("turn")
def _turn(c: Ctx, f: Frame) -> None:
    side = c.ball.owner
    c.turn = Turn(side=side)
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


# ---------------------------------------------------------------------------
# The challenge and the cards (6.1-6.4).
@auto("challenge")
def _challenge(c: Ctx, f: Frame) -> None:
    dside = 1 - c.turn.side
    here = c.on_space(dside, c.ball.pos)
    if len(here) == 1:
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
            _take(c, int(x1), "10.4.1")
            c.then(*_zytheris_after_contest(c, int(x1), int(x2)))
    elif p >= 0:
        _receives(c, p)  # 21.3.6: picking it up (10.6) is receiving it
    # a pickup leaves the ball with nobody in particular (10.6.3)


ASK["send"] = Ask(lambda c, f: c.seat(int(f[2])), _send_legal, _send_answer)


@auto("cards")
def _cards(c: Ctx, f: Frame) -> None:
    if c.turn.challenger >= 0:
        c.then(("cards_secret",))
    else:
        c.then(("card_solo",))


def _card_solo_answer(c: Ctx, f: Frame, d: str) -> None:
    card = d.split()[1]
    c.set_turn(off_card=card)
    c.ev("unchallenged", "6.1.4", card=card)
    c.then(("resolve", "O"))


ASK["card_solo"] = Ask(
    turn_side,
    lambda c, f: [f"card {k}" for k in sorted(OFF_RANK)],
    _card_solo_answer,
)


def _cards_legal(c: Ctx, f: Frame, side: int) -> list[str]:
    ranks = OFF_RANK if side == c.turn.side else DEF_RANK
    return [f"card {k}" for k in sorted(ranks)]


def _cards_resolve(c: Ctx, f: Frame, choice: tuple[str, str]) -> None:
    o = choice[c.turn.side].split()[1]
    dcard = choice[1 - c.turn.side].split()[1]
    c.set_turn(off_card=o, def_card=dcard)
    ro, rd = OFF_RANK[o], DEF_RANK[dcard]
    if ro == rd:
        cards = "T"
    elif rd == ro % 3 + 1:  # 6.3.1: each card loses to the next rank up, cyclically
        cards = "D"
    else:
        cards = "O"
    c.ev("reveal", "6.2.1", offense=o, defense=dcard, winner=cards)
    h, ch = c.turn.handler, c.turn.challenger
    inj = {"O": c.players[h].injured, "D": c.players[ch].injured}
    if cards == "T":
        if inj["O"] != inj["D"]:
            loser = "O" if inj["O"] else "D"
            winner = "D" if loser == "O" else "O"
            c.ev("injured-tie", "6.3.2", loser=loser)  # 15.4.2a
            c.then(("resolve", winner))
        else:
            c.set_turn(test="T")
            c.then(("test_enter",))
    else:
        loser = "D" if cards == "O" else "O"
        if inj[cards] and not inj[loser]:
            c.ev("injured-forced-test", "6.3.2", player=pid(h if cards == "O" else ch))
            c.set_turn(test=cards)
            c.then(("test_enter",))
        else:
            c.then(("resolve", cards))


SECRET["cards_secret"] = Secret(_cards_legal, _cards_resolve, "6.2.1")


@auto("test_enter")
def _test_enter(c: Ctx, f: Frame) -> None:
    h, ch = c.turn.handler, c.turn.challenger
    c.exhaust(h, 1, "6.4.1")
    c.exhaust(ch, 1, "6.4.1")
    c.then(("roll", "test", h), ("roll", "test", ch), ("test_resolve",))


def _test_parts(c: Ctx, side: str, die: int) -> dict[str, Any]:
    t = c.turn
    if side == "O":
        i, skill = t.handler, c.off(t.handler)
        mf = R.MIDFIELDER_BONUS if role(i) == "MF" and t.off_card == "low-pass" else 0
        mod = 0
    else:
        i, skill = t.challenger, c.dfn(t.challenger)
        mf = R.MIDFIELDER_BONUS if role(i) == "MF" and t.def_card == "steal" else 0
        mod = c.ball.speed // 2 if t.def_card == "steal" else 0  # 6.4.2b
    return {"player": pid(i), "die": die, "skill": skill, "midfielder": mf, "speed": mod,
            "total": die + skill + mf + mod}


@auto("test_resolve")
def _test_resolve(c: Ctx, f: Frame) -> None:
    do, dd = c.rolls[0], c.rolls[1]
    del c.rolls[:2]
    o, d = _test_parts(c, "O", do), _test_parts(c, "D", dd)
    h, ch = c.turn.handler, c.turn.challenger
    if o["total"] == d["total"]:
        c.ev("skill-test", "6.4.4", offense=o, defense=d, winner="tie")
        c.exhaust(h, 1, "6.4.4")
        c.exhaust(ch, 1, "6.4.4")
        c.then(("roll", "test", h), ("roll", "test", ch), ("test_resolve",))
        return
    winner = "O" if o["total"] > d["total"] else "D"
    c.ev("skill-test", "6.4.3", offense=o, defense=d, winner=winner)
    c.then(*_injury_checks(c, (h, ch)), ("resolve", winner))


def _injury_checks(c: Ctx, who: tuple[int, ...]) -> list[Frame]:
    """6.4.5, 15.3.1: every Exhausted participant rolls once the test resolves."""
    frames: list[Frame] = []
    for i in who:
        if c.exhausted(i):
            frames += [("roll", "injury", i), ("injury", i)]
    return frames


@auto("injury")
def _injury(c: Ctx, f: Frame) -> None:
    i = int(f[1])
    die = c.rolls.pop(0)
    p = c.players[i]
    if die > p.tokens:
        c.ev("injury-check", "15.3.1", player=pid(i), die=die, tokens=p.tokens, injured=False)
    else:
        c.players[i] = p._replace(tokens=0, injured=True)  # 15.4.1
        c.ev("injury-check", "15.3.1", player=pid(i), die=die, tokens=p.tokens, injured=True)


# ---------------------------------------------------------------------------
# Resolving the maneuvers (6.5-6.10).
@auto("resolve")
def _resolve(c: Ctx, f: Frame) -> None:
    who = f[1]
    card = c.turn.off_card if who == "O" else c.turn.def_card
    c.set_turn(cost=c.turn.cost + R.maneuver_cost(card))
    c.ev("resolves", CARD_LAW[card], card=card, side=c.turn.side if who == "O" else
         1 - c.turn.side)
    RESOLVERS[card](c)


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
        _mark(c, Movement(frm, to, carried, start, side, True, smooth, -1, 0))


# ---------------------------------------------------------------------------
# Mind Pull and Smooth (20.4; 21.5.1-21.5.3, 21.6.5).  A movement marks the stack
# with ("moved",); once the code that moved the ball has scheduled what it leads to,
# _run puts the offers on top: every pull in path order, then the Smooths (20.4.14).
# A pull or Smooth that lands pops everything down to the mark; otherwise the mark is
# a no-op and the movement resolves as it would have.
def _mark(c: Ctx, m: Movement) -> None:
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


def _offer(c: Ctx, m: Movement) -> None:
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
    """20.4.7, 20.4.12: drop whatever the movement led to, down to its mark."""
    while c.stack.pop()[0] != "moved":
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
    _receives(c, i)
    if side == c.turn.side:
        # A pull off the defense's ball (a steal's) hands it back to the side whose turn
        # it is, which _end_turn cannot see as a turnover: run back here (20.4.8).
        c.then(*_runback_frames(c))


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
    _receives(c, i)


ASK["smooth"] = Ask(
    lambda c, f: c.seat(side_of(int(f[1]))),
    lambda c, f: sorted([f"smooth {pid(int(f[1]))}", "smooth none"]),
    _smooth_answer,
)


RECEIVING_ABILITIES = ("inferno", "pulsar")


def _receive_later(c: Ctx, i: int) -> None:
    """A movement's receiver receives only once no pull has pre-empted it (20.4.7): call
    last, so the frame runs before the set-up or anything else the movement queued."""
    if c.ability(i) in RECEIVING_ABILITIES:
        c.then(("receives", i))


@auto("receives")
def _receives_frame(c: Ctx, f: Frame) -> None:
    _receives(c, int(f[1]))


def _receives(c: Ctx, i: int) -> None:
    """21.3.6, 21.4.6: the one hook for every way a player comes to hold the ball (a pass,
    a steal, a won contest, a pull, a Smooth, a pickup); a handler chosen on a ball
    they already stood on has not received it."""
    a = c.ability(i)
    if a == "inferno":
        c.set_ball(speed=R.INFERNO_SPEED)
        c.ev("lights-ball", "21.3.6", player=pid(i), speed=R.INFERNO_SPEED)
    elif a == "pulsar" and c.players[i].tokens > 0:
        p = c.players[i]
        c.players[i] = p._replace(tokens=p.tokens - 1)
        c.ev("clear-token", "21.4.6", player=pid(i), tokens=p.tokens - 1)


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


def _low_pass(c: Ctx) -> None:
    side, pos = c.turn.side, c.ball.pos
    fwd = Board.fwd(side)
    targets = low_pass_receivers(c)
    if targets:
        c.then(("pass_to",))
        return
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
    return sorted(f"pass {pid(i)}" for i in low_pass_receivers(c))


def _pass_answer(c: Ctx, f: Frame, d: str) -> None:
    side, h, pos = c.turn.side, c.turn.handler, c.ball.pos
    r = parse_pid(d.split()[1])
    rpos = c.players[r].pos
    ball_moves(c, rpos, "6.5.2")
    c.set_ball(pos=rpos, speed=min(MAX_SPEED, c.ball.speed + 1), owner=side, carrier=r,
               last=side)
    c.ev("pass", "6.5.4", frm=pid(h), to=pid(r), space=c.sp(rpos), speed=c.ball.speed)
    if rpos == pos:  # 6.5.3: a pass across a shared space sends the passer forward
        t, ran = c.B.step(pos, Board.fwd(side), 1)
        if not ran:
            c.move(h, t)
            c.ev("passer-steps", "6.5.3", player=pid(h), to=c.sp(t))
    if role(h) == "W" and c.B.in_range(side, rpos):
        c.then(("setup", r, "winger", 0))  # 6.5.6
    elif c.ability(r) == "zytheris" and c.B.in_range(side, rpos):
        c.then(("setup", r, "zytheris", 0))  # 21.5.8
    _receive_later(c, r)


ASK["pass_to"] = Ask(turn_side, _pass_legal, _pass_answer)


def _dribble(c: Ctx) -> None:
    c.then(("dribble_dist",))


def _dribble_options(c: Ctx) -> list[int]:
    h = c.turn.handler
    maxd = R.PLAYMAKER_DRIBBLE if role(h) == "PM" else 1  # 6.6.4
    seen: list[int] = []
    dists: list[int] = []
    for k in range(1, maxd + 1):
        t, _ = c.B.step(c.ball.pos, Board.fwd(c.turn.side), k)
        if t not in seen:
            seen.append(t)
            dists.append(k)
    return dists


def _dribble_answer(c: Ctx, f: Frame, d: str) -> None:
    k = int(d.split()[1])
    h, side = c.turn.handler, c.turn.side
    frm = c.ball.pos
    t, _ = c.B.step(frm, Board.fwd(side), k)
    ball_moves(c, t, "6.6.2", carried=(h,))
    c.move(h, t)
    c.set_ball(pos=t, owner=side, carrier=h, last=side)
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


def quantor_runner(c: Reads) -> int:
    """21.4.5: the passer's Quantor teammate who may run onto this High Pass, or -1.
    The Setup Pass half of 21.4.5 belongs with the gambits (19.7) and reads this too."""
    h = c.turn.handler
    return next((i for i in c.fielded(c.turn.side)
                 if c.ability(i) == "quantor" and i != h), -1)


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
    _mark(c, Movement(int(t), int(t), (), (), side, False, True, r, 0))
    if over:
        c.then(("setup", r, "overshoot", 0))  # 6.7.4, 8.4.2
    elif k == 2:
        _take(c, r, "6.7.3")  # 10.4.1: a pass of 2 is simply received
        if c.B.in_range(side, int(t)):
            c.then(("setup", r, "high-pass", 0))
    elif k == 3 and c.ability(c.turn.handler) == "vorix":
        # 21.5.6: no contest; speed 12, received, a set-up if in range.
        c.set_ball(speed=R.VORIX_SPEED)
        c.ev("vorix-pass", "21.5.6", player=pid(r), speed=R.VORIX_SPEED)
        _take(c, r, "21.5.6")
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


@auto("quantor_receive")
def _quantor_receive(c: Ctx, f: Frame) -> None:
    """21.4.5: Quantor receives without a contest: a set-up off a pass of 2 in range."""
    t, k, q = int(f[1]), int(f[2]), int(f[3])
    side = side_of(q)
    c.ev("receiver", "21.4.5", player=pid(q))
    _mark(c, Movement(t, t, (), (), side, False, True, q, 0))  # 20.4.11
    _take(c, q, "21.4.5")
    if k == 2 and c.B.in_range(side, t):
        c.then(("setup", q, "quantor", 0))


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


def _deflect(c: Ctx) -> None:
    side, ch, pos = c.turn.side, c.turn.challenger, c.ball.pos
    k = R.FULLBACK_DEFLECT if role(ch) == "FB" else 1  # 6.8.3
    t, ran = c.B.step(pos, -Board.fwd(side), k)
    speed = max(1, c.ball.speed - 1)
    ball_moves(c, t, "6.8.2")
    c.set_ball(pos=t, speed=speed, owner=-1, carrier=-1, last=side)
    c.ev("deflect", "6.8.2", player=pid(ch), to=c.sp(t), speed=speed, out_of_field=ran)
    if ran and c.players[ch].pos == t:
        # 6.8.5: possession flips for the deflector's scoring opportunity.
        c.set_ball(owner=1 - side, carrier=ch, speed=1, last=1 - side)
        c.then(("setup", ch, "deflect", speed))
        _receive_later(c, ch)
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
    _receive_later(c, ch)


def _pressure(c: Ctx) -> None:
    side, h, ch, pos = c.turn.side, c.turn.handler, c.turn.challenger, c.ball.pos
    if pos == c.B.own_end(side):
        c.ev("own-goal-risk", "6.10.3", player=pid(h))
        c.then(("roll", "own-goal", h), ("roll", "own-goal", h), ("own_goal", h))
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
        _receive_later(c, ch)


RESOLVERS: dict[str, Callable[[Ctx], None]] = {
    "low-pass": _low_pass,
    "dribble": _dribble,
    "high-pass": _high_pass,
    "deflect": _deflect,
    "steal": _steal,
    "pressure": _pressure,
}


@auto("own_goal")
def _own_goal(c: Ctx, f: Frame) -> None:
    """11.2: two d12, keep the higher, add offensive skill; 7 or more avoids it."""
    h = int(f[1])
    d1, d2 = c.rolls[0], c.rolls[1]
    del c.rolls[:2]
    side = side_of(h)
    total = max(d1, d2) + c.off(h)
    avoided = total >= R.OWN_GOAL_AVOID
    c.ev("own-goal-roll", "11.2.1", player=pid(h), dice=[d1, d2], skill=c.off(h), total=total,
         avoided=avoided)
    c.exhaust(h, 1, "11.2.2")
    if avoided:
        c.set_ball(owner=side, carrier=h, last=side)  # 4.2.2e, 11.3.1
        c.set_turn(np_kind="own-goal-avoided", np_side=side)
    else:
        _goal(c, 1 - side, h, "own-goal", "11.4.1")
        c.set_turn(np_kind="own-goal", np_side=side)


def _goal(c: Ctx, scorer_side: int, player: int, kind: str, law: str) -> None:
    sc = list(c.score)
    sc[scorer_side] += 1
    c.score = (sc[0], sc[1])
    minute = c.minute + c.turn.cost if c.period < 3 else c.minute
    c.goals = (*c.goals, (scorer_side, c.period, minute, player, kind))
    c.ev("goal", law, side=scorer_side, player=pid(player), kind=kind, score=list(c.score),
         period=c.period, minute=minute)


# ---------------------------------------------------------------------------
# Set-ups and score attempts (Laws 5 and 8).
def _setup_answer(c: Ctx, f: Frame, d: str) -> None:
    _, p, kind, prior_speed = f
    p = int(p)
    if d == "shot take":
        c.ev("set-up-taken", "8.1.1", player=pid(p), kind=kind)
        c.set_turn(cost=c.turn.cost + R.COST_SCORE_ATTEMPT)  # 8.5.1
        c.then(("shot", p, 1, -1 if kind == "overshoot" else 1))
        return
    c.ev("set-up-declined", "8.4.1", player=pid(p), kind=kind)
    if kind == "overshoot":
        c.then(("hp_contest", p, -1))  # 8.4.2: declining the shot takes the contest
    elif kind == "deflect":
        # RULING_DECLINED_DEFLECT_SETUP: the ball settles on that space by 10.1.
        c.set_ball(owner=-1, carrier=-1, speed=int(prior_speed), last=c.turn.side)
        c.then(("settle", c.ball.pos))
    # otherwise the receiver simply keeps the ball (8.4.1)


ASK["setup"] = Ask(
    lambda c, f: c.seat(side_of(int(f[1]))),
    lambda c, f: ["shot decline", "shot take"],
    _setup_answer,
)


@auto("shot")
def _shot(c: Ctx, f: Frame) -> None:
    p = int(f[1])
    c.then(("roll", "attack", p), ("roll", "defense", -1), ("shot_resolve", p, f[2], f[3]))


def shot_defense(c: Ctx, side: int, ball: int) -> list[dict[str, Any]]:
    """5.3: the defending players in the way, each counted on their own."""
    fwd = Board.fwd(side)
    out = []
    for i in c.fielded(1 - side):
        rel = (c.players[i].pos - ball) * fwd
        if rel == 0:
            add = c.dfn(i)  # 5.3.1
        elif rel > 0:
            add = (c.dfn(i) + 1) // 2  # 5.3.2, 5.3.4: half, rounded up, per player
        else:
            continue  # 5.3.3
        out.append({"player": pid(i), "adds": add})
    return out


@auto("shot_resolve")
def _shot_resolve(c: Ctx, f: Frame) -> None:
    p, setup, sign = int(f[1]), int(f[2]), int(f[3])
    da, dd = c.rolls[0], c.rolls[1]
    del c.rolls[:2]
    side = side_of(p)
    mod = sign * (c.ball.speed // 2)  # 7.4.1, 7.5.1
    striker = R.STRIKER_SETUP_BONUS if setup and role(p) == "S" else 0
    att = da + c.off(p) + mod + striker
    wall = shot_defense(c, side, c.ball.pos)
    dfn = dd + sum(w["adds"] for w in wall)
    scored = att >= dfn  # 5.2.3
    c.ev("score-attempt", "5.2", player=pid(p), setup=bool(setup),
         attack={"die": da, "skill": c.off(p), "speed": mod, "striker": striker, "total": att},
         defense={"die": dd, "wall": wall, "total": dfn}, goal=scored)
    if setup:
        c.exhaust(p, 1, "5.4.1")
    if scored:
        _goal(c, side, p, "goal", "5.2.3")
        c.set_turn(np_kind="goal", np_side=1 - side)
    else:
        c.ev("miss", "5.5.3", side=side)
        c.set_turn(np_kind="miss", np_side=1 - side)


# ---------------------------------------------------------------------------
# The ball at rest, loose balls and contests (Law 10).
def _take(c: Ctx, i: int, law: str) -> None:
    side = side_of(i)
    c.set_ball(owner=side, carrier=i, last=side)
    c.ev("takes-ball", law, player=pid(i), space=c.sp(c.ball.pos))
    _receives(c, i)


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
            _take(c, mine[0], "10.1.1")
        else:
            c.then(("pick_take", side_of(mine[0]), t))


def _pick_take_answer(c: Ctx, f: Frame, d: str) -> None:
    _take(c, parse_pid(d.split()[1]), "10.1.3")


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
        _take(c, ps[HOME] if ps[HOME] >= 0 else ps[VISITORS], "10.3.2")


SECRET["loose"] = Secret(_loose_legal, _loose_resolve, "10.3.1")


@auto("contest")
def _contest(c: Ctx, f: Frame) -> None:
    _, a, b, sign, law = f
    c.exhaust(a, R.RULING_CONTEST_ENTRY_COST, "10.2.2")
    c.exhaust(b, R.RULING_CONTEST_ENTRY_COST, "10.2.2")
    c.then(("roll", "contest", a), ("roll", "contest", b), ("contest_resolve", a, b, sign, law))


def _contest_parts(c: Ctx, i: int, die: int, skill: int, mod: int) -> dict[str, Any]:
    skill = 0 if c.players[i].injured else skill  # 15.4.2b
    return {"player": pid(i), "die": die, "skill": skill, "speed": mod,
            "total": die + skill + mod}


@auto("contest_resolve")
def _contest_resolve(c: Ctx, f: Frame) -> None:
    _, a, b, sign, law = f
    da, db = c.rolls[0], c.rolls[1]
    del c.rolls[:2]
    mod = sign * (c.ball.speed // 2)  # 10.2.3, 10.4.3
    pa = _contest_parts(c, a, da, c.off(a), mod)  # the side that last had it: offense
    pb = _contest_parts(c, b, db, c.dfn(b), 0)
    if pa["total"] == pb["total"]:
        c.ev("contest", "10.2.2", last=pa, other=pb, winner="tie")
        c.exhaust(a, 1, "10.2.2")
        c.exhaust(b, 1, "10.2.2")
        c.then(("roll", "contest", a), ("roll", "contest", b), f)
        return
    w = a if pa["total"] > pb["total"] else b
    c.ev("contest", law, last=pa, other=pb, winner=pid(w))
    _take(c, w, "10.4.5" if law == "10.4" else "10.2.2")
    shot = _zytheris_after_contest(c, a, sign) if law == "10.4" and w == a else []
    c.then(*_injury_checks(c, (a, b)), *shot)


def _zytheris_after_contest(c: Ctx, r: int, sign: int) -> list[Frame]:
    """21.5.8: Zytheris keeping a 3+ High Pass (won contest or none) may shoot; not after
    declining an overshoot's set-up (sign -1), which was already that chance."""
    if sign > 0 and c.ability(r) == "zytheris" and c.B.in_range(side_of(r), c.ball.pos):
        return [("setup", r, "zytheris", 0)]
    return []


# ---------------------------------------------------------------------------
# The end of a turn: turnovers (Law 12), the clock (Law 16).
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
        if b.carrier < 0 or c.ability(b.carrier) != "inferno":  # 21.3.6: after the reset
            c.set_ball(speed=1)  # 7.3.1
        c.ev("steal-turnover", "12.4", side=c.ball.owner)
        frames = _runback_frames(c)
        if t.speed_step >= 0:
            i = t.speed_step
            frames.append(("speed", i, 1, min(MAX_SPEED, 1 + c.dfn(i)), "6.9.3"))
        c.then(*frames, ("clock",))
    else:
        c.then(("clock",))


@auto("clock")
def _clock(c: Ctx, f: Frame) -> None:
    c.minute += c.turn.cost
    c.ev("clock", "4.4.3", minute=c.minute, cost=c.turn.cost)
    if not c.last_poss and c.minute >= PERIOD_END[c.period]:
        c.last_poss = True
        c.ev("last-possession", "16.3.2", side=c.ball.owner, minute=c.minute)
    c.then(("turn",))


@auto("pickup")
def _pickup(c: Ctx, f: Frame) -> None:
    side = c.ball.owner
    if not c.on_space(side, c.ball.pos):
        c.then(("send", "pickup", side, c.ball.pos, 0, -1, 0))


def _uncovered(c: Ctx, side: int, zone: str) -> list[int]:
    taken = [c.players[i].pos for i in c.fielded(side)]
    return [s for s in c.B.spaces(zone) if s not in taken]


def runback_options(c: Ctx, side: int, exempt: int = -1) -> list[tuple[int, int]]:
    """12.4.1: who still has to run back, and where each may go (never the carrier, nor
    a Zenith who flew, 21.5.7)."""
    holder = c.ball.carrier
    ps = c.players
    mine = c.fielded(side)
    out: list[tuple[int, int]] = []
    # Group (a) first (RULING_RUNBACK_GROUP_ORDER): everyone outside their card's zone.
    for i in mine:
        if i not in (holder, exempt) and c.B.zones[ps[i].pos] != ps[i].zone:
            dest = _uncovered(c, side, ps[i].zone) or list(c.B.spaces(ps[i].zone))
            out += [(i, s) for s in dest]
    if out:
        return out
    # Group (b): one of a stack, while its zone still has an uncovered space.
    for zone in ("H", "M", "V"):
        unc = _uncovered(c, side, zone)
        if not unc:
            continue
        for x in c.B.spaces(zone):
            here = [i for i in mine if ps[i].pos == x]
            if len(here) < 2:
                continue
            out += [(i, s) for i in here if i not in (holder, exempt) and ps[i].zone == zone
                    for s in unc]
    return out


def _exempt(f: Frame) -> int:
    """A run-back frame's third argument: a Zenith who flew and does not run (21.5.7)."""
    return int(f[2]) if len(f) > 2 else -1


@auto("runback")
def _runback(c: Ctx, f: Frame) -> None:
    if runback_options(c, int(f[1]), _exempt(f)):
        c.then(("run", *f[1:]))


def _run_answer(c: Ctx, f: Frame, d: str) -> None:
    _, who, where = d.split()
    i, s = parse_pid(who), c.B.parse(where)
    frm = c.players[i].pos
    c.move(i, s)
    c.ev("run-back", "12.4.3", player=pid(i), frm=c.sp(frm), to=where)
    c.exhaust(i, abs(s - frm), "12.4.3")
    c.then(("runback", *f[1:]))


ASK["run"] = Ask(
    arg_side,
    lambda c, f: sorted(f"run {pid(i)} {c.sp(s)}"
                        for i, s in runback_options(c, int(f[1]), _exempt(f))),
    _run_answer,
)


def _runback_frames(c: Ctx) -> list[Frame]:
    """A steal's run back (12.4), each eligible Zenith first offered a flight (21.5.7)."""
    owner = c.ball.owner
    zeniths = [i for i in (*c.fielded(HOME), *c.fielded(VISITORS))
               if c.ability(i) == "zenith" and not c.players[i].injured
               and i != c.ball.carrier]
    return [*(("zenith", z) for z in zeniths), ("runback", owner), ("runback", 1 - owner)]


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
    k = max(k for k, g in enumerate(c.stack) if g[0] == "runback" and int(g[1]) == side)
    c.stack[k] = ("runback", side, z)


ASK["zenith"] = Ask(
    lambda c, f: c.seat(side_of(int(f[1]))),
    lambda c, f: sorted([f"fly {c.sp(s)}" for s in range(1, c.B.n + 1)
                         if s != c.players[int(f[1])].pos] + ["fly none"]),
    _fly_answer,
)


# ---------------------------------------------------------------------------
# Coaching Choices (Law 14; rulings 1.3-1.5).
def arrangement_ok(c: Ctx, side: int) -> bool:
    """2.5.2 coverage and 14.8.1 kickoff coverage, on the arrangement."""
    arr = [c.players[i].arr for i in c.fielded(side)]
    if c.B.kickoff not in arr:
        return False
    for zone in ("H", "M", "V"):
        counts = [arr.count(s) for s in c.B.spaces(zone)]
        if max(counts) >= 2 and min(counts) == 0:
            return False
    return True


def _subs_left(c: Ctx, f: Frame) -> int:
    local = int(f[4])
    return c.subs[int(f[1])] if local == R.HALF_SUBS else local


def _incoming(c: Ctx, side: int) -> list[int]:
    """14.6: the bench first; once it has drained, healthy back-bench players."""
    base = side * 9
    bench = [i for i in range(base, base + 9) if c.players[i].status == "B"]
    if bench:
        return bench
    return [i for i in range(base, base + 9)
            if c.players[i].status == "X" and not c.players[i].injured]


# Decision texts built once: a random coach asks for these lists thousands of times.
_SUB_TEXT = [[f"sub {pid(o)} {pid(n)}" for n in range(18)] for o in range(18)]
_SWAP_TEXT = [[f"swap {pid(i)} {pid(j)}" for j in range(18)] for i in range(18)]
_MOVE_TEXT = {
    n: [[f"move {pid(i)} {Board.of(n).names[s]}" if s else "" for s in range(n + 1)]
        for i in range(18)]
    for n in (7, 9)
}


def _coach_legal(c: Ctx, f: Frame) -> list[str]:
    _, side, occasion, acted, _local = f
    out: list[str] = []
    if not acted:
        out.append("skip")
    elif occasion == "shootout" or arrangement_ok(c, side):
        out.append("finish")
    mine = c.fielded(side)
    if _subs_left(c, f) != 0:
        inc = _incoming(c, side)
        out += [_SUB_TEXT[o][n] for o in mine for n in inc]
    if occasion != "shootout":  # 14.2.2: substitution alone before the shootout
        out += [f"formation {name}" for name in c.B.formations()]
        ps = c.players
        moves = _MOVE_TEXT[c.B.n]
        out += [moves[i][s] for i in mine for s in c.B.spaces(ps[i].zone) if s != ps[i].arr]
        if R.RULING_ZONE_SWAP:
            out += [_SWAP_TEXT[i][j] for i in mine for j in mine
                    if i < j and ps[i].zone != ps[j].zone]
    out.sort()
    return out


def _coach_answer(c: Ctx, f: Frame, d: str) -> None:
    _, side, occasion, _acted, local = f
    parts = d.split()
    kind = parts[0]
    law = "14.2.1"
    if kind == "skip":
        c.ev("coaching-skipped", "14.8.4", side=side, occasion=occasion)
        return
    if kind == "finish":
        if occasion != "shootout":
            for i in c.fielded(side):
                c.move(i, c.players[i].arr)  # 14.8.3: the finish is the arrangement
        c.ev("coaching-finished", "14.8.3", side=side, occasion=occasion,
             arrangement={pid(i): c.sp(c.players[i].arr) for i in c.fielded(side)})
        if occasion == "new-play":
            c.then(("coach", 1 - side, "reply", 0, R.HALF_SUBS))  # 14.4.1
        elif occasion == "timeout" and not R.RULING_TIME_OUT_REPLY_ALWAYS:
            c.then(("coach", 1 - side, "timeout-reply", 0, R.HALF_SUBS))
        return
    ps = c.players
    if kind == "sub":
        o, n = parse_pid(parts[1]), parse_pid(parts[2])
        po, pn = ps[o], ps[n]
        tokens = pn.tokens // 2 if pn.status == "X" else pn.tokens  # 14.6.3
        ps[n] = Player("F", po.pos, po.zone, po.arr, tokens, False)
        ps[o] = Player("B" if occasion == "setup" else "X", 0, "", 0, po.tokens, po.injured)
        if c.ball.carrier == o:
            c.set_ball(carrier=-1)
        if local == R.HALF_SUBS:
            subs = list(c.subs)
            subs[side] -= 1
            c.subs = (subs[0], subs[1])
        elif local != R.UNLIMITED:
            local -= 1
        law = "3.3.2" if occasion == "setup" else "14.5.1"
        c.ev("substitution", law, side=side, off=pid(o), on=pid(n), tokens=tokens)
    elif kind == "formation":
        # 14.7.3 (RULING_FORMATION_TIES_ROSTER_ORDER: equal defence keeps roster order)
        mine = sorted(c.fielded(side), key=lambda i: (-c.dfn(i), i))
        for i, (zone, s) in zip(mine, c.B.deal(side, parts[1]), strict=True):
            ps[i] = ps[i]._replace(zone=zone, arr=s)
        c.ev("formation", "14.7.3", side=side, formation=parts[1],
             arrangement={pid(i): c.sp(ps[i].arr) for i in mine})
    elif kind == "move":
        i, s = parse_pid(parts[1]), c.B.parse(parts[2])
        ps[i] = ps[i]._replace(arr=s)
        c.ev("positioning", "14.7.5", side=side, player=parts[1], to=parts[2])
    elif kind == "swap":
        i, j = parse_pid(parts[1]), parse_pid(parts[2])
        pi, pj = ps[i], ps[j]
        ps[i] = pi._replace(zone=pj.zone, arr=pj.arr)
        ps[j] = pj._replace(zone=pi.zone, arr=pi.arr)
        c.ev("zone-swap", "14.2.1", side=side, players=[parts[1], parts[2]])
    c.then(("coach", side, occasion, 1, local))


ASK["coach"] = Ask(arg_side, _coach_legal, _coach_answer)


# ---------------------------------------------------------------------------
# Halftime, full time, the shootout (Laws 15.5, 16, 17).
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
    c.then(("roll", "shootout", a), ("roll", "shootout", b), ("so_resolve",))


def _pick_legal(c: Ctx, f: Frame, side: int) -> list[str]:
    shot = c.shootout.shot[side]
    return sorted(f"shooter {pid(i)}" for i in c.fielded(side) if i not in shot)


def _pick_resolve(c: Ctx, f: Frame, choice: tuple[str, str]) -> None:
    a, b = parse_pid(choice[HOME].split()[1]), parse_pid(choice[VISITORS].split()[1])
    so = c.shootout
    c.shootout = so._replace(current=(a, b), shot=((*so.shot[0], a), (*so.shot[1], b)))
    c.ev("shooters", "17.6.2", home=pid(a), visitors=pid(b), sudden_death=True)
    c.then(("roll", "shootout", a), ("roll", "shootout", b), ("so_resolve",))


SECRET["so_pick"] = Secret(_pick_legal, _pick_resolve, "17.6.2")


@auto("so_resolve")
def _so_resolve(c: Ctx, f: Frame) -> None:
    so = c.shootout
    dice = (c.rolls[0], c.rolls[1])
    del c.rolls[:2]
    tot = []
    for side in (HOME, VISITORS):
        i = so.current[side]
        skill = 0 if c.players[i].injured else c.off(i)  # 17.4.1
        tot.append(dice[side] + skill)
    scorer = -1 if tot[0] == tot[1] else (HOME if tot[0] > tot[1] else VISITORS)
    c.ev("shootout-test", "17.4.1", home={"player": pid(so.current[0]), "die": dice[0],
         "total": tot[0]}, visitors={"player": pid(so.current[1]), "die": dice[1],
         "total": tot[1]}, scorer=scorer)
    goals = list(so.goals)
    if scorer >= 0:
        goals[scorer] += 1
        _goal(c, scorer, so.current[scorer], "shootout", "17.5.1")
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


# ---------------------------------------------------------------------------
# The public driving functions.
def _top(s: State) -> Frame:
    return s.stack[-1]


def to_act(s: State) -> tuple[str, tuple[int, ...], bool]:
    """("decide", seats, secret) | ("chance", (), False) | ("over", (), False)."""
    f = _top(s)
    k = f[0]
    if k in ASK:
        return "decide", (ASK[k].who(s, f),), False
    if k in SECRET:
        seats = tuple(sorted(s.seat_of(side) for side in (HOME, VISITORS) if not s.secret[side]))
        return "decide", seats, True
    if k in CHANCE:
        return "chance", (), False
    return "over", (), False


_last_legal: list[Any] = [None, -1, ()]  # (state, seat, options): states never change


def legal(s: State, seat: int) -> tuple[str, ...]:
    """Every legal decision for ``seat`` now, as sorted canonical text."""
    cache = _last_legal
    if cache[0] is s and cache[1] == seat:
        return cache[2]  # type: ignore[no-any-return]
    out = _legal(s, seat)
    if out:  # a seat with nothing to decide is cheap to ask again; keep the real list
        cache[0], cache[1], cache[2] = s, seat, out
    return out


def _legal(s: State, seat: int) -> tuple[str, ...]:
    f = _top(s)
    k = f[0]
    if k in ASK:
        if ASK[k].who(s, f) != seat:
            return ()
        return tuple(ASK[k].legal(s, f))
    if k in SECRET and s.home_seat >= 0:
        side = s.side_of(seat)
        if s.secret[side]:
            return ()
        return tuple(SECRET[k].legal(s, f, side))
    return ()


def chance(s: State) -> tuple[str, dict[str, Any], tuple[str, ...]]:
    """The pending chance event: (kind, description, outcomes); outcomes equally likely."""
    f = _top(s)
    if f[0] == "coin":
        return "coin", {"for": "toss", "law": "3.1.2"}, ("doom", "fortune")
    if f[0] == "roll":
        who = int(f[2])
        desc = {"for": f[1], "law": R.ROLL_LAW[str(f[1])], "player": pid(who) if who >= 0 else None}
        return "d12", desc, D12
    raise IllegalDecision("no chance event is pending")


def apply(
    s: State, seat: int, text: str, *, version: int | None = None
) -> tuple[State, list[Event]]:
    """Apply ``seat``'s decision.  Raises and leaves ``s`` untouched if it is refused."""
    if version is not None and version != s.version:
        raise StaleVersion(s.version, version)
    if seat not in (0, 1):
        raise IllegalDecision(f"no seat {seat!r}")
    f = _top(s)
    k = f[0]
    options = legal(s, seat)
    d = text
    # Every legal option is well formed, so only a refused text needs parsing: that is
    # where malformed and illegal are told apart.
    if d not in options:
        d = Decision.decode(text).text
        if not options:
            raise IllegalDecision(f"seat {seat} has nothing to decide now")
        raise IllegalDecision(f"{d!r} is not legal now; legal: {', '.join(options[:12])}"
                              + (" ..." if len(options) > 12 else ""))
    c = Ctx(s)
    if k in ASK:
        c.stack.pop()
        c.ev("decision", DECISION_LAW[d.split(" ", 1)[0]], seat=seat, decision=d)
        ASK[k].answer(c, f, d)
    else:
        side = s.side_of(seat)
        sec = list(c.secret)
        sec[side] = d
        c.secret = (sec[0], sec[1])
        c.ev("chosen", SECRET[k].law, seat=seat, side=side, decision=d, private=seat)
        if all(c.secret):
            c.stack.pop()
            choice = c.secret
            c.secret = ("", "")
            SECRET[k].resolve(c, f, choice)
    return _finish(c, s.version + 1)


def apply_chance(
    s: State, outcome: str, *, version: int | None = None
) -> tuple[State, list[Event]]:
    if version is not None and version != s.version:
        raise StaleVersion(s.version, version)
    kind, desc, outcomes = chance(s)
    if outcome not in outcomes:
        raise MalformedDecision(f"{outcome!r} is not an outcome of this {kind}")
    c = Ctx(s)
    c.stack.pop()
    if kind == "coin":
        _coin(c, outcome)
    else:
        c.rolls.append(int(outcome))
        c.ev("roll", desc["law"], die=int(outcome),
             **{"for": desc["for"], "player": desc["player"]})
    return _finish(c, s.version + 1)


def _finish(c: Ctx, version: int) -> tuple[State, list[Event]]:
    _run(c)
    c.version = version
    new = c.freeze()
    if c.pending is not None:
        _last_legal[0], _last_legal[1], _last_legal[2] = new, c.pending[0], c.pending[1]
    return new, c.events


def _run(c: Ctx) -> None:
    """Run automatic frames until a question: a real choice, a die, or the end."""
    while True:
        if c.moving is not None:  # what moved the ball has scheduled what follows
            _offer(c, c.moving)
        f = c.stack[-1]
        k = f[0]
        fn = AUTO.get(k)
        if fn is not None:
            c.stack.pop()
            fn(c, f)
            continue
        ask = ASK.get(k)
        if ask is not None:
            options = ask.legal(c, f)
            if len(options) == 1:
                c.stack.pop()
                c.ev("forced", DECISION_LAW[options[0].split(" ", 1)[0]], decision=options[0],
                     seat=ask.who(c, f))
                ask.answer(c, f, options[0])
                continue
            if not options:
                raise AssertionError(f"no legal decision at frame {f!r}")
            c.pending = (ask.who(c, f), tuple(options))
            return
        sec = SECRET.get(k)
        if sec is not None:
            filled = list(c.secret)
            for side in (HOME, VISITORS):
                if not filled[side]:
                    opts = sec.legal(c, f, side)
                    if len(opts) == 1:
                        filled[side] = opts[0]
            if all(filled):
                c.stack.pop()
                c.secret = ("", "")
                sec.resolve(c, f, (filled[0], filled[1]))
                continue
            c.secret = (filled[0], filled[1])
            return
        return



def advance(s: State) -> tuple[State, list[Event]]:
    """Run automatic frames on a state built by hand (tests, tools), keeping its version."""
    c = Ctx(s)
    return _finish(c, s.version)
