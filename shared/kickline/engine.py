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

BASIC_OFF = ("dribble", "high-pass", "low-pass")  # 6.2.2, sorted
BASIC_DEF = ("deflect", "pressure", "steal")
# 19.1.2: a gambit is the advanced version of its rank's basic card, and has its rank.
BASIC = {
    "skilled-pass": "low-pass", "dribble-burst": "dribble", "setup-pass": "high-pass",
    "clear": "deflect", "intercept": "steal", "double-team": "pressure",
}
ADVANCED = {basic: gambit for gambit, basic in BASIC.items()}
OFF_RANK = {"low-pass": 1, "dribble": 2, "high-pass": 3,
            "skilled-pass": 1, "dribble-burst": 2, "setup-pass": 3}
DEF_RANK = {"deflect": 1, "steal": 2, "pressure": 3,
            "clear": 1, "intercept": 2, "double-team": 3}
CARD_LAW = {
    "low-pass": "6.5", "dribble": "6.6", "high-pass": "6.7",
    "deflect": "6.8", "steal": "6.9", "pressure": "6.10",
    "skilled-pass": "19.5", "dribble-burst": "19.6", "setup-pass": "19.7",
    "clear": "19.8", "intercept": "19.9", "double-team": "19.10",
}
# The law that offers each kind of decision, named on the decision's own event.
DECISION_LAW = {
    "toss": "3.1.3", "handler": "4.2.1", "action": "4.3", "challenge": "6.1.2",
    "send": "9.1.1", "card": "6.2.1", "pass": "6.5.2", "dribble": "6.6.2", "speed": "7.2.1",
    "throw": "6.7.2", "receive": "10.1.3", "shot": "8.4.1", "pick": "10.1.3", "run": "12.4.3",
    "clear": "15.5.1", "sub": "14.5.1", "formation": "14.7.3", "move": "14.7.5",
    "swap": "14.2.1", "finish": "14.8.3", "skip": "14.8.4", "order": "17.3.1",
    "shooter": "17.6.2", "declare": "20.3.5", "join": "21.6.1", "scorch": "21.3.8",
    "aim": "19.7.2", "drive": "19.7.7", "partner": "19.10.2", "pull": "20.4.1",
    "smooth": "20.4.9", "fly": "21.5.7", "quantor": "21.4.5",
}
PERIOD_END = {1: 15, 2: 30}  # 16.1.1, 16.3.1
MAX_SPEED = 12


def is_ooze(c: Reads, i: int) -> bool:
    """Slimey (20.5) is played in standard and advanced mode: species() is "" in training."""
    return c.species(i) == "Ooze"


def merge(c: Reads, side: int, attack: bool, rolling: tuple[int, ...]) -> list[dict[str, Any]]:
    """20.5.1 Merge: every healthy Ooze of ``side`` on the ball's space who is not rolling
    adds their offensive skill on the attacking side, defensive on the defending side;
    Viscor adds 3 more (21.6.4)."""
    out: list[dict[str, Any]] = []
    for i in c.on_space(side, c.ball.pos):
        if i in rolling or not is_ooze(c, i) or c.players[i].injured:
            continue
        adds = c.off(i) if attack else c.dfn(i)
        viscor = c.ability(i) == "viscor"
        if viscor:
            adds += R.VISCOR_BONUS
        out.append({"player": pid(i), "adds": adds, "law": "21.6.4" if viscor else "20.5.1"})
    return out


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
        """15.1.4; an injured player never exhausts (15.1.3); -1 is nobody."""
        if i < 0:
            return
        p = self.players[i]
        if n <= 0 or p.injured:
            return
        self.players[i] = p._replace(tokens=p.tokens + n)
        # 20.3.1-20.3.2: a Cyborg's tokens are drain, the same counter under its own word.
        word = {"word": "drain"} if self.species(i) == "Cyborg" else {}
        self.ev("exhaust", law, player=pid(i), n=n, tokens=p.tokens + n, **word)

    def clear(self, i: int, n: int, law: str) -> None:
        """Part II's clears (20.3.7, 21.3.3, 21.3.7): never below zero (rulings 1.6)."""
        p = self.players[i]
        n = min(n, p.tokens)
        if n <= 0:
            return
        self.players[i] = p._replace(tokens=p.tokens - n)
        word = {"word": "drain"} if self.species(i) == "Cyborg" else {}
        self.ev("clear", law, player=pid(i), n=n, tokens=p.tokens - n, **word)

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


# ---------------------------------------------------------------------------
# The turn (Law 4).
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


# ---------------------------------------------------------------------------
# The challenge and the cards (6.1-6.4).
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


def holds_gambits(c: Reads, side: int) -> bool:
    """19.3.1: in advanced mode a coach holds their gambits while their team is behind,
    on goals or on Exhausted-or-Injured players among those fielded; public (19.3.2)."""
    if c.config.mode != "advanced":
        return False
    if c.score[side] < c.score[1 - side]:
        return True
    hurt = [sum(1 for i in c.fielded(s) if c.players[i].injured or c.exhausted(i))
            for s in (HOME, VISITORS)]
    return hurt[side] > hurt[1 - side]


def partner_of(c: Reads) -> int:
    """19.10.4: the second challenger of a lasting Double Team, -1 for none."""
    t = c.turn
    return t.partner if t.double >= 0 and t.double == t.challenger else -1


@auto("cards")
def _cards(c: Ctx, f: Frame) -> None:
    if c.turn.challenger >= 0:
        if c.config.mode == "advanced":  # 19.2.1: gambits only against a challenge
            c.ev("gambits", "19.3.2", home=holds_gambits(c, HOME),
                 visitors=holds_gambits(c, VISITORS))
        c.then(*(("glompex", i) for i in _glompex(c)), ("cards_secret",))
    else:
        c.then(("card_solo",))


def _glompex(c: Ctx) -> list[int]:
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


def _card_solo_answer(c: Ctx, f: Frame, d: str) -> None:
    card = d.split()[1]
    c.set_turn(off_card=card)
    c.ev("unchallenged", "6.1.4", card=card)
    c.then(("resolve", "O"))


ASK["card_solo"] = Ask(
    turn_side,
    lambda c, f: [f"card {k}" for k in BASIC_OFF],  # 19.2.2: unchallenged is basic
    _card_solo_answer,
)


def _cards_legal(c: Ctx, f: Frame, side: int) -> list[str]:
    basic = BASIC_OFF if side == c.turn.side else BASIC_DEF
    cards = list(basic)
    if holds_gambits(c, side):  # 19.2.2: six cards instead of three
        cards += [ADVANCED[k] for k in basic]
    return sorted(f"card {k}" for k in cards)


def gambit_tier(
    played: tuple[str, str],
    cards: str,
    winner: str,
    test: dict[str, dict[str, Any]] | None = None,
    abilities: tuple[str, str] = ("", ""),
) -> tuple[str, str]:
    """Which card resolves, at which tier, and whose gambit cost lands (19.4).

    ``played`` is (offense card, defense card); ``cards`` what the cards said: "O" or
    "D" for the card-winner, "T" a tie, "A" an injured participant's automatic tie loss
    (19.4.2a); ``winner`` the side that resolves; ``test`` the skill test's parts per
    side when one was rolled; ``abilities`` the two participants' personal abilities.
    Returns the card that resolves (a gambit or a basic card) and the loser's gambit
    whose "Beaten:" cost fires, "" for none.
    """
    w = 0 if winner == "O" else 1
    mine, theirs = played[w], played[1 - w]
    if cards == winner:  # won on the cards, with or without a forced test (19.4.2b)
        card, cost = mine, theirs if theirs in BASIC else ""
    else:  # a tie, or the card-loser winning a test (19.4.2a, c, 19.1.2): basic, no cost
        card, cost = BASIC.get(mine, mine), ""
    if test is None or card in BASIC:  # a maneuver already a gambit gains nothing more
        return card, cost
    loser = "D" if winner == "O" else "O"
    pw, pl = test[winner], test[loser]
    upgrade = (
        pw.get("ignite") == "blaze"  # 20.2.4a
        or (pl.get("ignite") == "burn" and abilities[1 - w] != "brightburn")  # 20.2.4b, 21.3.3
        or (abilities[w] == "synapse" and pw.get("overdrive", 0) > 0)  # 21.4.7
        # 21.5.4: Hexis's offensive, Dravox's defensive gambit holds on the dice
        or (abilities[w] == ("hexis" if w == 0 else "dravox") and mine in BASIC)
    )
    # 20.2.5: the ignite never decides a cost; the cost above never reads it.
    return (ADVANCED[card] if upgrade else card), cost


def _resolve_frame(c: Ctx, winner: str, cards: str,
                   test: dict[str, dict[str, Any]] | None = None) -> Frame:
    """The frame that resolves ``winner``'s maneuver; in advanced mode it carries the
    tier (19.4), elsewhere it is the plain ("resolve", side) it always was."""
    if c.config.mode != "advanced":
        return ("resolve", winner)
    t = c.turn
    abilities = (c.ability(t.handler), c.ability(t.challenger))
    card, cost = gambit_tier((t.off_card, t.def_card), cards, winner, test, abilities)
    return ("resolve", winner, card, cost)


def _scorchit(c: Ctx, who: str) -> bool:
    """21.3.8: is the participant for ``who`` Scorchit?"""
    i = c.turn.handler if who == "O" else c.turn.challenger
    return c.ability(i) == "scorchit"


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
            c.then(_resolve_frame(c, winner, "A"))  # 19.4.2a: nothing fires
        else:
            c.set_turn(test="T")
            c.then(("test_enter",))
    else:
        loser = "D" if cards == "O" else "O"
        if inj[cards] and not inj[loser]:
            c.ev("injured-forced-test", "6.3.2", player=pid(h if cards == "O" else ch))
            c.set_turn(test=cards)
            c.then(("test_enter",))
        elif _scorchit(c, loser):
            c.then(("scorch", loser, cards))
        else:
            c.then(_resolve_frame(c, cards, cards))


SECRET["cards_secret"] = Secret(_cards_legal, _cards_resolve, "6.2.1")


def _scorch_answer(c: Ctx, f: Frame, d: str) -> None:
    _, loser, cards = f
    if d == "scorch accept":
        c.ev("scorchit-accepts", "21.3.8")
        c.then(_resolve_frame(c, str(cards), str(cards)))
        return
    c.ev("scorchit-forces", "21.3.8", player=pid(c.turn.handler if loser == "O"
                                                    else c.turn.challenger))
    c.set_turn(test=str(cards))
    c.then(("test_enter", loser))


ASK["scorch"] = Ask(
    lambda c, f: c.seat(c.turn.side if f[1] == "O" else 1 - c.turn.side),
    lambda c, f: ["scorch accept", "scorch force"],
    _scorch_answer,
)


@auto("test_enter")
def _test_enter(c: Ctx, f: Frame) -> None:
    h, ch = c.turn.handler, c.turn.challenger
    if len(f) > 1:  # 21.3.8: Scorchit forcing the test pays 2, the opponent nothing
        c.exhaust(h if f[1] == "O" else ch, R.SCORCHIT_ENTRY, "21.3.8")
    else:
        c.exhaust(h, 1, "6.4.1")
        c.exhaust(ch, 1, "6.4.1")
        c.exhaust(partner_of(c), 1, "19.10.4")  # the second challenger enters it too
    c.then(*dice(c, "test", h, ch), ("test_resolve",))


def _test_parts(c: Ctx, side: str, die: Die) -> dict[str, Any]:
    t = c.turn
    if side == "O":
        i, skill = t.handler, c.off(t.handler)
        if t.off_card == "high-pass" and c.ability(i) == "umbrik":
            skill = c.dfn(i)  # 21.5.5: Umbrik's own High Pass is played on defence
        # 6.4.2a, 19.5.4: the Midfielder's own Low Pass or Skilled Pass
        own = t.off_card in ("low-pass", "skilled-pass")
        mf = R.MIDFIELDER_BONUS if role(i) == "MF" and own else 0
        mod = 0
    else:
        i, skill = t.challenger, c.dfn(t.challenger)
        steals = t.def_card in ("steal", "intercept")  # 6.4.2, 19.9.3-19.9.4
        mf = R.MIDFIELDER_BONUS if role(i) == "MF" and steals else 0
        mod = c.ball.speed // 2 if steals else 0  # 6.4.2b, 19.9.3
    parts: dict[str, Any] = {"player": pid(i), "die": die.face, "skill": skill,
                             "midfielder": mf, "speed": mod, "total": die.face + skill + mf + mod}
    parts = die_parts(c, i, die, parts, bool(mod))
    partner = partner_of(c)
    if partner >= 0 and side == "D":  # 19.10.4: the test adds both defensive skills
        parts["partner"] = {"player": pid(partner), "skill": c.dfn(partner)}
        parts["total"] += c.dfn(partner)
    rolling = (t.handler, t.challenger) + ((partner,) if partner >= 0 else ())
    return _with_merge(c, parts, c.turn.side if side == "O" else 1 - c.turn.side, side == "O",
                       rolling)


def _with_merge(c: Ctx, parts: dict[str, Any], side: int, attack: bool,
                rolling: tuple[int, ...]) -> dict[str, Any]:
    """Adds Merge (20.5.1) to a roll's parts.  Training mode's events keep their shape."""
    if c.config.mode == "training":
        return parts
    m = merge(c, side, attack, rolling)
    parts["merge"] = m
    parts["total"] += sum(x["adds"] for x in m)
    return parts


@auto("test_resolve")
def _test_resolve(c: Ctx, f: Frame) -> None:
    do, dd = take_die(c), take_die(c)
    o, d = _test_parts(c, "O", do), _test_parts(c, "D", dd)
    h, ch = c.turn.handler, c.turn.challenger
    partner = partner_of(c)
    if o["total"] == d["total"]:
        c.ev("skill-test", "6.4.4", offense=o, defense=d, winner="tie")
        c.exhaust(h, 1, "6.4.4")
        c.exhaust(ch, 1, "6.4.4")
        c.exhaust(partner, 1, "19.10.4")
        c.then(*dice(c, "test", h, ch), ("test_resolve",))  # 20.3.6: declared afresh
        return
    winner = "O" if o["total"] > d["total"] else "D"
    c.ev("skill-test", "6.4.3", offense=o, defense=d, winner=winner)
    who = (h, ch, partner) if partner >= 0 else (h, ch)
    c.then(*_injury_checks(c, who), _resolve_frame(c, winner, c.turn.test, {"O": o, "D": d}))


def _injury_checks(c: Ctx, who: tuple[int, ...]) -> list[Frame]:
    """6.4.5, 15.3.1: every Exhausted participant rolls once the test resolves."""
    frames: list[Frame] = []
    for i in who:
        if c.exhausted(i):
            frames += [*dice(c, "injury", i), ("injury", i)]
    return frames


@auto("injury")
def _injury(c: Ctx, f: Frame) -> None:
    i = int(f[1])
    die = take_die(c)
    p = c.players[i]  # read after the die: Kindlefinger's ignite may have moved a token
    extra: dict[str, Any] = {}
    total = die.face
    if c.config.mode != "training":
        extra = die_parts(c, i, die, {"total": die.face}, False)
        total = extra["total"]
        if c.species(i) == "Cyborg":
            extra["word"] = "damage"  # 20.3.4: a damage test, and Damaged if it fails
    hurt = total <= p.tokens
    if hurt:
        c.players[i] = p._replace(tokens=0, injured=True)  # 15.4.1
    c.ev("injury-check", "15.3.1", player=pid(i), die=die.face, tokens=p.tokens,
         injured=hurt, **extra)


# ---------------------------------------------------------------------------
# Every d12 a player rolls (20.2 Volatile, 20.3.5 Overdrive, 21.3-21.6 abilities).
#
# In standard and advanced mode a player's die is a small procedure: the blind
# declarations (one secret frame before all the dice of the roll, rulings D14/OQ25),
# then each die, then that die's ignite.  Each die leaves a record of four numbers in
# ``rolls`` (face, signed second die, Overdrive, Boost) that ``take_die`` reads back.
# Training mode rolls bare dice, exactly as it always has (18.1.1a).
class Die(NamedTuple):
    face: int
    second: int  # the ignite's second die: + a blaze, - a burn, 0 no ignite
    overdrive: int
    boost: int


def dice(c: Ctx, purpose: str, *who: int) -> list[Frame]:
    """The frames for one roll by ``who`` (one die each; the own-goal roll names its
    handler twice for its two dice)."""
    if c.config.mode == "training":
        return [("roll", purpose, i) for i in who]
    return [("declare", purpose, *who)]


def take_die(c: Ctx) -> Die:
    if c.config.mode == "training":
        return Die(c.rolls.pop(0), 0, 0, 0)
    face, second, over, boost = c.rolls[:4]
    del c.rolls[:4]
    return Die(face, second, over, boost)


def die_parts(c: Ctx, i: int, die: Die, parts: dict[str, Any], mod_counted: bool
              ) -> dict[str, Any]:
    """Add the die's Part II parts to a side's parts and total, so the event shows why.
    Zorch adds the ball speed modifier to every roll, unless this roll already counts it
    for Zorch's side (21.6.6)."""
    if c.config.mode == "training":
        return parts
    zorch = c.ball.speed // 2 if c.ability(i) == "zorch" and not mod_counted else 0
    ignite = "" if not die.second else ("blaze" if die.second > 0 else "burn")
    parts = dict(parts, ignite=ignite, second=abs(die.second), overdrive=die.overdrive,
                 boost=die.boost, zorch=zorch)
    parts["total"] += die.second + die.overdrive + die.boost + zorch
    return parts


def _declare_options(c: Reads, i: int) -> list[str]:
    """20.3.5, 21.4.3: what a Cyborg about to roll may declare."""
    if c.species(i) != "Cyborg":
        return ["declare none"]
    out = ["declare none", "declare overdrive"]
    if c.ability(i) == "gearclaw":
        out += ["declare boost", "declare both"]
    return sorted(out)


def _declare_legal(c: Reads, f: Frame, side: int) -> list[str]:
    mine = [int(i) for i in f[2:] if side_of(int(i)) == side]
    return _declare_options(c, mine[0]) if mine else ["declare none"]


def _declare_resolve(c: Ctx, f: Frame, choice: tuple[str, str]) -> None:
    purpose, who = str(f[1]), [int(i) for i in f[2:]]
    frames: list[Frame] = []
    declared: list[int] = []
    for i in who:
        over = boost = 0
        if i not in declared:  # once per roll, however many dice it has
            declared.append(i)
            d = choice[side_of(i)].split()[1]
            # A Damaged Cyborg keeps Overdrive (20.3.6) and, as an injured player never
            # exhausts (15.1.3, rulings 1.6), drains nothing for it.
            free = c.players[i].injured
            if d in ("overdrive", "both"):
                over = R.OVERDRIVE_BONUS
                drain = (R.VOLTUS_OVERDRIVE_DRAIN if c.ability(i) == "voltus"
                         else R.OVERDRIVE_DRAIN)
                c.ev("overdrive", "20.3.5", player=pid(i), bonus=over, drain=0 if free else drain)
                c.exhaust(i, drain, "21.4.2" if c.ability(i) == "voltus" else "20.3.5")
            if d in ("boost", "both"):
                boost = R.BOOST_BONUS
                c.ev("boost", "21.4.3", player=pid(i), bonus=boost,
                     drain=0 if free else R.BOOST_DRAIN)
                c.exhaust(i, R.BOOST_DRAIN, "21.4.3")
        frames += [("roll", purpose, i), ("die", purpose, i, over, boost)]
    c.then(*frames)


SECRET["declare"] = Secret(_declare_legal, _declare_resolve, "20.3.5")


def _ignites(c: Ctx, purpose: str, i: int, face: int) -> bool:
    """20.2.1-20.2.3, 21.3.2, 21.3.7: a natural face on the die itself, in the four
    covered rolls; Kindlefinger's injury check too."""
    if purpose in R.IGNITE_ROLLS:
        if c.species(i) != "Fire Demon":
            return False
    elif not (purpose == "injury" and c.ability(i) == "kindlefinger"):
        return False
    lo, hi = R.SIZZIFIZIK_FACES if c.ability(i) == "sizzifizik" else R.IGNITE_FACES
    return lo <= face <= hi


@auto("die")
def _die(c: Ctx, f: Frame) -> None:
    _, purpose, i, over, boost = f
    face = c.rolls.pop()
    if _ignites(c, str(purpose), int(i), face):
        c.then(("roll", "ignite", i), ("ignite", purpose, i, face, over, boost))
    else:
        c.rolls += [face, 0, int(over), int(boost)]


@auto("ignite")
def _ignite(c: Ctx, f: Frame) -> None:
    """20.2.1: 5-12 blazes (added), 1-4 burns (subtracted); Blazebulk always blazes
    (21.3.1).  The second die is not checked again (20.2.2)."""
    _, purpose, i, face, over, boost = f
    i = int(i)
    second = c.rolls.pop()
    blaze = second >= R.BLAZE_FROM or c.ability(i) == "blazebulk"
    law = "21.3.1" if c.ability(i) == "blazebulk" else "20.2.1"
    c.ev("ignite", law, player=pid(i), face=face, second=second,
         kind="blaze" if blaze else "burn")
    if not blaze and c.ability(i) == "brightburn":
        c.clear(i, 1, "21.3.3")
    if purpose == "injury":  # Kindlefinger: the token counts toward this very check
        if blaze:
            c.clear(i, 1, "21.3.7")
        else:
            c.exhaust(i, 1, "21.3.7")
    c.rolls += [int(face), second if blaze else -second, int(over), int(boost)]


# ---------------------------------------------------------------------------
# Resolving the maneuvers (6.5-6.10).
@auto("resolve")
def _resolve(c: Ctx, f: Frame) -> None:
    who = f[1]
    played = c.turn.off_card if who == "O" else c.turn.def_card
    # Advanced mode names the tier the card resolves at and the cost that lands (19.4).
    card = str(f[2]) if len(f) > 2 else played
    beaten = str(f[3]) if len(f) > 3 else ""
    c.set_turn(cost=c.turn.cost + R.maneuver_cost(card))
    side = c.turn.side if who == "O" else 1 - c.turn.side
    if card == played:
        c.ev("resolves", CARD_LAW[card], card=card, side=side)
    else:
        # 19.4.2: a gambit that did not win on the cards resolves basic; 19.1.2 (with
        # 20.2.4, 21.4.7): a maneuver upgraded on the dice resolves as its rank's gambit.
        c.ev("resolves", "19.4.2" if card in BASIC_OFF + BASIC_DEF else "19.1.2", card=card,
             side=side, played=played)
    if len(f) > 2:
        c.set_turn(resolved=card)
    if beaten:
        c.ev("beaten", BEATEN_LAW[beaten], card=beaten)
        _beaten(c, beaten)
    RESOLVERS[card](c)


BEATEN_LAW = {
    "skilled-pass": "19.5.5", "dribble-burst": "19.6.5", "setup-pass": "19.7.7",
    "clear": "19.8.5", "intercept": "19.9.7", "double-team": "19.10.5",
}


def _beaten(c: Ctx, card: str) -> None:
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
    elif a == "pulsar":
        c.clear(i, 1, "21.4.6")  # never below zero


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


def _skilled_pass(c: Ctx) -> None:
    if skilled_pass_receivers(c):
        c.then(("pass_to", "skilled"))
    else:  # 19.5.3: everything else is a Low Pass's, so 6.5.5's roll forward
        _no_destination(c)


def _low_pass(c: Ctx) -> None:
    targets = low_pass_receivers(c)
    if targets:
        c.then(("pass_to",))
        return
    _no_destination(c)


def _no_destination(c: Ctx) -> None:
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
    _receive_later(c, r)


ASK["pass_to"] = Ask(turn_side, _pass_legal, _pass_answer)


def _dribble(c: Ctx) -> None:
    c.then(("dribble_dist",))


def _dribble_options(c: Ctx) -> list[int]:
    h = c.turn.handler
    maxd = R.PLAYMAKER_DRIBBLE if role(h) == "PM" else 1  # 6.6.4
    if c.ability(h) == "emberdash":
        maxd = R.EMBERDASH_DRIBBLE  # 21.3.4
    return _forward_reach(c, maxd)


def _forward_reach(c: Reads, maxd: int) -> list[int]:
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


def _carry_forward(c: Ctx, k: int, law: str) -> tuple[int, int]:
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
    frm, t = _carry_forward(c, int(d.split()[1]), "6.6.2")
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
    elif c.turn.beaten == "intercept":
        _take(c, r, "19.9.7")  # a beaten Intercept: the contest is not held
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
    """21.4.5: Quantor receives without a contest: a set-up off a High Pass of 2 or a
    Setup Pass, in range."""
    t, k, q = int(f[1]), int(f[2]), int(f[3])
    setup_pass = len(f) > 4  # a Setup Pass always sets its receiver up (19.7.2)
    side = side_of(q)
    c.ev("receiver", "21.4.5", player=pid(q))
    _mark(c, Movement(t, t, (), (), side, False, True, q, 0))  # 20.4.11
    _take(c, q, "21.4.5")
    if (k == 2 or setup_pass) and c.B.in_range(side, t):
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
    k = R.FULLBACK_DEFLECT if role(c.turn.challenger) == "FB" else 1  # 6.8.3
    _knock_back(c, "deflect", k, 1)


def _clear(c: Ctx) -> None:
    """19.8.2-19.8.4: a Deflect at three spaces (a Fullback's four), speed down 3."""
    k = R.FULLBACK_CLEAR if role(c.turn.challenger) == "FB" else R.CLEAR_DISTANCE
    _knock_back(c, "clear", k, R.CLEAR_SPEED_DROP)


def _knock_back(c: Ctx, kind: str, k: int, drop: int) -> None:
    if c.turn.beaten == "setup-pass":  # 19.7.7: the beater drives it further first
        c.then(("drive", kind, k, drop))
    else:
        _lands_back(c, kind, k, drop)


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
    _lands_back(c, str(kind), int(k) + n, int(drop))


ASK["drive"] = Ask(
    def_side,
    lambda c, f: sorted(f"drive {n}" for n in _drive_options(c, int(f[2]))),
    _drive_answer,
)


def _lands_back(c: Ctx, kind: str, k: int, drop: int) -> None:
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
        _receive_later(c, ch)


def own_goal_risk(c: Ctx, h: int, ch: int, law: str) -> None:
    """A won Pressure (6.10.3) pushing the handler off their own end risks an own goal.

    The Double Team (19.10.3) is to call this too, so that Acidel covers both."""
    if c.ability(ch) == "acidel":
        # 21.6.7: no own-goal roll; Acidel's side takes the ball at speed 1 and Acidel
        # may shoot from there (D35).  Declined, the side keeps it: a steal (rulings 1.1).
        mine = side_of(ch)
        c.set_ball(owner=mine, carrier=ch, speed=1, last=mine)
        c.ev("acidel", "21.6.7", player=pid(ch), space=c.sp(c.ball.pos))
        c.then(("setup", ch, "acidel", 1))
        return
    c.ev("own-goal-risk", law, player=pid(h))
    c.then(*dice(c, "own-goal", h, h), ("own_goal", h))


def _burst(c: Ctx) -> None:
    c.then(("burst_dist",))


def _burst_options(c: Reads) -> list[int]:
    """19.6.2-19.6.3: up to 4 forward (a Playmaker 5), only as far as the field goes."""
    return _forward_reach(c, R.PLAYMAKER_BURST if role(c.turn.handler) == "PM"
                          else R.BURST_REACH)


def _burst_answer(c: Ctx, f: Frame, d: str) -> None:
    h = c.turn.handler
    frm, t = _carry_forward(c, int(d.split()[1]), "19.6.2")
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
    _receives(c, ch)  # 21.3.6, 21.4.6: left holding it


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
    _mark(c, Movement(t, t, (), (), side, False, True, r, 0))
    _take(c, r, "19.7.2")
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
        _receive_later(c, ch)  # 21.3.6, 21.4.6
        return
    t, _ = c.B.step(pos, Board.fwd(new), 1)
    ball_moves(c, t, "19.9.2", carried=(ch,), side=new)
    c.move(ch, t)
    c.set_ball(pos=t, speed=1, owner=new, carrier=ch, last=new)
    c.ev("intercept", "19.9.2", player=pid(ch), to=c.sp(t))
    _receive_later(c, ch)  # 21.3.6, 21.4.6


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
        _receive_later(c, ch)  # 21.3.6, 21.4.6


ASK["dt_partner"] = Ask(
    def_side,
    lambda c, f: sorted(f"partner {pid(i)}" for i in double_partners(c, int(f[2]))),
    lambda c, f, d: _double_with(c, str(f[1]), parse_pid(d.split()[1])),
)


RESOLVERS: dict[str, Callable[[Ctx], None]] = {
    "low-pass": _low_pass,
    "dribble": _dribble,
    "high-pass": _high_pass,
    "deflect": _deflect,
    "steal": _steal,
    "pressure": _pressure,
    "skilled-pass": _skilled_pass,
    "dribble-burst": _burst,
    "setup-pass": _setup_pass,
    "clear": _clear,
    "intercept": _intercept,
    "double-team": _double_team,
}


@auto("own_goal")
def _own_goal(c: Ctx, f: Frame) -> None:
    """11.2: two d12, keep the higher, add offensive skill; 7 or more avoids it."""
    h = int(f[1])
    d1, d2 = take_die(c), take_die(c)
    side = side_of(h)
    skill = c.dfn(h) if c.ability(h) == "umbrik" else c.off(h)  # 21.5.5
    # One roll of two dice: the declaration rides on the first die, and neither ignites.
    parts = die_parts(c, h, d1, {"total": max(d1.face, d2.face) + skill}, False)
    total = parts.pop("total")
    avoided = total >= R.OWN_GOAL_AVOID
    c.ev("own-goal-roll", "11.2.1", player=pid(h), dice=[d1.face, d2.face], skill=skill,
         total=total, avoided=avoided, **parts)
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
    if kind == "overshoot" and c.turn.beaten == "intercept":
        _take(c, p, "19.9.7")  # the contest 8.4.2 would owe is not held
    elif kind == "overshoot":
        c.then(("hp_contest", p, -1))  # 8.4.2: declining the shot takes the contest
    elif kind in ("deflect", "clear"):
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
    c.then(*dice(c, "attack", p), ("roll", "defense", -1), ("shot_resolve", p, f[2], f[3]))


def shot_defense(c: Ctx, side: int, ball: int, shooter: int = -1) -> list[dict[str, Any]]:
    """5.3: the defending players in the way, each counted on their own."""
    fwd = Board.fwd(side)
    past_the_wall = shooter >= 0 and c.ability(shooter) == "flickerwing"
    out = []
    for i in c.fielded(1 - side):
        rel = (c.players[i].pos - ball) * fwd
        if rel == 0:
            add = c.dfn(i)  # 5.3.1
        elif past_the_wall:
            continue  # 21.3.5: against Flickerwing only the ball's space defends
        elif rel > 0 and c.ability(i) == "goopkeeper":
            add = c.dfn(i)  # 21.6.2: counts as on the ball, full skill
        elif rel > 0:
            add = (c.dfn(i) + 1) // 2  # 5.3.2, 5.3.4: half, rounded up, per player
        else:
            continue  # 5.3.3
        out.append({"player": pid(i), "adds": add})
    return out


@auto("shot_resolve")
def _shot_resolve(c: Ctx, f: Frame) -> None:
    p, setup, sign = int(f[1]), int(f[2]), int(f[3])
    da = take_die(c)
    dd = c.rolls.pop(0)  # the defense's die is nobody's: no ignite, no Overdrive (21.6.6)
    side = side_of(p)
    mod = sign * (c.ball.speed // 2)  # 7.4.1, 7.5.1
    striker = R.STRIKER_SETUP_BONUS if setup and role(p) == "S" else 0
    attack = die_parts(c, p, da, {"die": da.face, "skill": c.off(p), "speed": mod,
                                  "striker": striker, "total": da.face + c.off(p) + mod
                                  + striker}, True)
    # 20.5.2: the attack alone merges; the defense's Oozes are already in the wall.
    attack = _with_merge(c, attack, side, True, (p,))
    wall = shot_defense(c, side, c.ball.pos, p)
    dfn = dd + sum(w["adds"] for w in wall)
    scored = attack["total"] >= dfn  # 5.2.3
    c.ev("score-attempt", "5.2", player=pid(p), setup=bool(setup), attack=attack,
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
    slith = [i for i in (a, b) if c.ability(i) == "slitheron"]
    if len(slith) == 1:
        # 21.6.3: Slitheron takes it without a roll, so nobody owes an injury check;
        # two Slitherons roll as usual.
        c.ev("slitheron", "21.6.3", player=pid(slith[0]), contest=law)
        _take(c, slith[0], "21.6.3")
        return
    c.exhaust(a, R.RULING_CONTEST_ENTRY_COST, "10.2.2")
    c.exhaust(b, R.RULING_CONTEST_ENTRY_COST, "10.2.2")
    c.then(*dice(c, "contest", a, b), ("contest_resolve", a, b, sign, law))


def _contest_parts(c: Ctx, i: int, die: Die, skill: int, mod: int,
                   rolling: tuple[int, int]) -> dict[str, Any]:
    skill = 0 if c.players[i].injured else skill  # 15.4.2b
    parts = {"player": pid(i), "die": die.face, "skill": skill, "speed": mod,
             "total": die.face + skill + mod}
    parts = die_parts(c, i, die, parts, bool(mod))
    # 20.5.1: the side that last had the ball attacks (10.2.1), the other defends.
    return _with_merge(c, parts, side_of(i), i == rolling[0], rolling)


@auto("contest_resolve")
def _contest_resolve(c: Ctx, f: Frame) -> None:
    _, a, b, sign, law = f
    da, db = take_die(c), take_die(c)
    mod = sign * (c.ball.speed // 2)  # 10.2.3, 10.4.3
    pa = _contest_parts(c, a, da, c.off(a), mod, (a, b))  # the side that last had it
    pb = _contest_parts(c, b, db, c.dfn(b), 0, (a, b))
    if pa["total"] == pb["total"]:
        c.ev("contest", "10.2.2", last=pa, other=pb, winner="tie")
        c.exhaust(a, 1, "10.2.2")
        c.exhaust(b, 1, "10.2.2")
        c.then(*dice(c, "contest", a, b), f)  # 20.3.6: a fresh roll, declared afresh
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
        frames = _runback_frames(c)
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


@auto("free_pass")
def _free_pass(c: Ctx, f: Frame) -> None:
    """19.5.5: the defender who took a beaten Skilled Pass plays an unopposed Low Pass
    once everyone has run back and the speed is set; it costs no clock."""
    i = int(f[1])
    t = c.turn
    c.turn = Turn(side=side_of(i), handler=i, cost=t.cost, double=t.double, partner=t.partner)
    c.ev("unopposed-low-pass", "19.5.5", player=pid(i), space=c.sp(c.ball.pos))
    c.then(("end_turn",))
    _low_pass(c)


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
    """2.5: the zone's spaces none of the side covers; an Ooze covers nothing (20.5.3)."""
    taken = [c.players[i].pos for i in c.fielded(side) if not is_ooze(c, i)]
    return [s for s in c.B.spaces(zone) if s not in taken]


def _ooze_stack(c: Ctx, here: list[int], zone: str) -> bool:
    """20.5.4: an Ooze sharing a space with a teammate of its zone is never made to break
    the stack up, and neither is the teammate."""
    same = [i for i in here if c.players[i].zone == zone]
    return len(same) >= 2 and any(is_ooze(c, i) for i in same)


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
            counted = [i for i in here if not is_ooze(c, i)]  # 20.5.3
            if len(counted) < 2 or _ooze_stack(c, here, zone):
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


def _runback_frames(c: Ctx) -> list[Frame]:
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


# ---------------------------------------------------------------------------
# Coaching Choices (Law 14; rulings 1.3-1.5).
def arrangement_ok(c: Ctx, side: int) -> bool:
    """2.5.2 coverage and 14.8.1 kickoff coverage, on the arrangement."""
    mine = c.fielded(side)
    arr = [c.players[i].arr for i in mine]
    if c.B.kickoff not in arr:  # an Ooze there still covers the kickoff (OQ18, rulings 2.6)
        return False
    # 20.5.3: an Ooze counts 0 toward its zone's coverage; 20.5.4: its stack stands.
    counted = [c.players[i].arr for i in mine if not is_ooze(c, i)]
    for zone in ("H", "M", "V"):
        spaces = c.B.spaces(zone)
        counts = [counted.count(s) for s in spaces]
        if min(counts) > 0:
            continue
        if any(n >= 2 and not _ooze_stack(c, [i for i in mine if c.players[i].arr == s], zone)
               for n, s in zip(counts, spaces, strict=True)):
            return False
    return True


def _subs_left(c: Ctx, f: Frame) -> int:
    local = int(f[4])
    return c.subs[int(f[1])] if local == R.HALF_SUBS else local


def _incoming(c: Ctx, side: int) -> list[int]:
    """14.6: healthy bench players first; once none is left, healthy back-bench players.

    14.6.2 bars an injured player "from either bench", so injury is read on both.  An
    injured player left on the bench does not hold the back bench shut: 14.6.4 names the
    only side with nobody to bring on (bench empty, back bench all injured), so the bench
    counts as drained once nobody on it may come on (RULING_BENCH_DRAINED_OF_THE_HEALTHY).
    """
    base = side * 9
    ps = c.players
    for status in ("B", "X"):
        ready = [i for i in range(base, base + 9)
                 if ps[i].status == status and not ps[i].injured]
        if ready:
            return ready
    return []


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
