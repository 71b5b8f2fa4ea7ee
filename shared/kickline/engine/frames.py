"""The machine's parts: the working copy of a state and the registries of frames.

``State.stack`` holds what remains to be done, top last.  A frame is a tuple of plain
values whose first item names its kind, and each kind is registered by the module of
the law it belongs to: ``AUTO`` (runs and may push more), ``ASK`` (an open decision of
one seat), ``SECRET`` (a secret simultaneous choice of both sides) or ``CHANCE`` (a die
or the coin, answered by ``apply_chance``).  :class:`Ctx` is the mutable copy that one
``apply`` works on; :mod:`.machine` runs the frames.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

from .. import rulings as R
from ..board import Board
from ..state import STATE_FIELDS, Ball, Config, Frame, Player, Reads, Shootout, State, Turn, pid

Event = dict[str, Any]


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


if STATE_FIELDS != (
    "config", "version", "home_seat", "players", "ball", "minute", "period", "last_poss",
    "timeouts", "subs", "score", "goals", "turn", "secret", "rolls", "shootout", "stack",
):  # Ctx copies and freezes the fields by position
    raise ImportError("State's fields changed: update Ctx.__init__ and Ctx.freeze")


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
        # A state is a tuple: unpacked in its field order (checked where STATE_FIELDS
        # is read, above); the three lists are copies.
        (self.config, self.version, self.home_seat, players, self.ball, self.minute,
         self.period, self.last_poss, self.timeouts, self.subs, self.score, self.goals,
         self.turn, self.secret, rolls, self.shootout, stack) = s
        self.players = list(players)
        self.rolls = list(rolls)
        self.stack = list(stack)
        self.B = s.board
        self.events = []
        self.pending = None
        self.moving = None

    def freeze(self) -> State:
        # One positional call in State's field order; the three lists become tuples.
        return State(self.config, self.version, self.home_seat, tuple(self.players),
                     self.ball, self.minute, self.period, self.last_poss, self.timeouts,
                     self.subs, self.score, self.goals, self.turn, self.secret,
                     tuple(self.rolls), self.shootout, tuple(self.stack))

    # ----- small helpers ----------------------------------------------------
    def ev(self, t: str, law: str, **kw: Any) -> None:
        e: Event = {"t": t, "law": law}
        e.update(kw)
        self.events.append(e)

    def then(self, *frames: Frame) -> None:
        """Schedule frames to run in the order given, before what is already queued."""
        self.stack.extend(reversed(frames))

    def move(self, i: int, pos: int) -> None:
        # The constructor, not _replace (a Python-level call through _make), and the
        # same object when nothing moves: views reuse what is the very same object.
        p = self.players[i]
        if p.pos != pos:
            self.players[i] = Player(p.status, pos, p.zone, p.arr, p.tokens, p.injured)

    def exhaust(self, i: int, n: int, law: str) -> None:
        """15.1.4; an injured player never exhausts (15.1.3); -1 is nobody."""
        if i < 0:
            return
        p = self.players[i]
        if n <= 0 or p.injured:
            return
        self.players[i] = Player(p.status, p.pos, p.zone, p.arr, p.tokens + n, p.injured)
        # 20.3.1-20.3.2: a Cyborg's tokens are drain, the same counter under its own word.
        word = {"word": "drain"} if self.species(i) == "Cyborg" else {}
        self.ev("exhaust", law, player=pid(i), n=n, tokens=p.tokens + n, **word)

    def clear(self, i: int, n: int, law: str) -> None:
        """Part II's clears (20.3.7, 21.3.3, 21.3.7): never below zero (rulings 1.6)."""
        p = self.players[i]
        n = min(n, p.tokens)
        if n <= 0:
            return
        self.players[i] = Player(p.status, p.pos, p.zone, p.arr, p.tokens - n, p.injured)
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
