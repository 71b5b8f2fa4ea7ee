"""Exact odds of what a decision leads to, read off the dice distribution.

A decision's odds come from the game tree itself: apply the decision, then follow every
outcome of every chance event (each face of a d12 is equally likely, the engine lists
them) until the first *deciding* event -- a shot, a skill test, a contest for the ball,
a Mind Pull, an own-goal roll, a shootout kick -- and add up the probability of the
branches that go the seat's way.  Nothing here knows a law's arithmetic: a rule change
in the engine changes the odds with it, on the server and in Pyodide alike.

What a branch cannot know is left out and said so:

* A tie in a skill test or a contest is rolled again (6.4.4, 10.2.2) with the same dice,
  so its share is split the way the first roll splits (win : loss).  That is exact for
  a re-roll that is like the first, which is every re-roll except where a declaration
  or an ability changes between rolls.
* A question met on the way (another choice) stops the branch: its share is
  *undecided* and the odds are those of the decided branches (``Odds.undecided``).
  Declarations before a roll (20.3.5 Overdrive and Boost) are the exception: the
  player's own is the one being asked about, anyone else's is taken as "none".

Only the public surface is used (``apply``, ``apply_chance``, ``chance``, ``to_act``,
``legal``), so this module does not depend on how the engine is laid out inside.
"""

from __future__ import annotations

from dataclasses import dataclass
from math import gcd
from typing import Any

from . import engine
from .state import State

# The events that settle a question, and which side each one favours.
DECIDING = ("score-attempt", "skill-test", "contest", "mind-pull", "own-goal-roll",
            "shootout-test")
SIDES = {"home": 0, "visitors": 1}
MAX_NODES = 6000  # a budget per question: a shot is ~160 applications, a test ~160


class Fraction:
    """A non-negative rational, exact: the client's trimmed Pyodide stdlib leaves out
    ``fractions`` (it pulls in ``decimal``), and this module needs only + , * and /."""

    __slots__ = ("den", "num")

    def __init__(self, num: int = 0, den: int = 1) -> None:
        g = gcd(num, den) or 1
        self.num, self.den = num // g, den // g

    def __add__(self, o: Fraction) -> Fraction:
        return Fraction(self.num * o.den + o.num * self.den, self.den * o.den)

    def __truediv__(self, o: int | Fraction) -> Fraction:
        if isinstance(o, int):
            return Fraction(self.num, self.den * o)
        return Fraction(self.num * o.den, self.den * o.num)

    def __eq__(self, o: object) -> bool:
        if isinstance(o, int):
            return self.num == o * self.den
        return isinstance(o, Fraction) and (self.num, self.den) == (o.num, o.den)

    def __hash__(self) -> int:
        return hash((self.num, self.den))

    def __float__(self) -> float:
        return self.num / self.den

    def __repr__(self) -> str:
        return f"{self.num}/{self.den}"

    @property
    def numerator(self) -> int:
        return self.num

    @property
    def denominator(self) -> int:
        return self.den


@dataclass(frozen=True, slots=True)
class Odds:
    """The chance that the first deciding event after a decision goes the seat's way."""

    what: str  # the deciding event's kind ("score-attempt", "skill-test", ...)
    p: Fraction  # of the decided branches, the share that favour the seat
    undecided: Fraction  # the share of branches that met another question first

    def to_plain(self) -> dict[str, Any]:
        return {"what": self.what, "p": round(float(self.p), 4),
                "num": self.p.numerator, "den": self.p.denominator,
                "undecided": round(float(self.undecided), 4)}


class _Budget(Exception):
    pass


def _player_side(pid: str) -> int:
    return 0 if pid.startswith("h") else 1


def _favours(e: dict[str, Any], turn_side: int) -> tuple[int, bool] | None:
    """(the side the event is about, whether it went that side's way); None if it is a
    tie to be rolled again."""
    t = e["t"]
    if t == "score-attempt":
        return _player_side(e["player"]), bool(e["goal"])
    if t == "skill-test":
        if e["winner"] == "tie":
            return None
        return turn_side, e["winner"] == "O"
    if t == "contest":
        if e["winner"] == "tie":
            return None
        return _player_side(e["winner"]), True
    if t == "mind-pull":
        return _player_side(e["player"]), bool(e["lands"])
    if t == "own-goal-roll":
        return _player_side(e["player"]), bool(e["avoided"])
    if t == "shootout-test":
        if e["scorer"] < 0:
            return None
        return int(e["scorer"]), True
    return None


class _Walk:
    def __init__(self, side: int, max_nodes: int, deciding: tuple[str, ...]) -> None:
        self.side = side
        self.deciding = deciding
        self.nodes = 0
        self.max_nodes = max_nodes
        self.what = ""
        self.win = Fraction(0)
        self.lose = Fraction(0)
        self.tie = Fraction(0)
        self.undecided = Fraction(0)

    def settle(self, events: list[dict[str, Any]], turn_side: int, w: Fraction) -> bool:
        """Read a step's events; True if the branch is settled."""
        for e in events:
            if e["t"] not in self.deciding:
                continue
            self.what = self.what or e["t"]
            fav = _favours(e, turn_side)
            if fav is None:
                self.tie += w
                return True
            about, went = fav
            if (about == self.side) == went:
                self.win += w
            else:
                self.lose += w
            return True
        return False

    def walk(self, s: State, w: Fraction) -> None:
        self.nodes += 1
        if self.nodes > self.max_nodes:
            raise _Budget
        kind, seats, _secret = engine.to_act(s)
        turn_side = s.turn.side
        if kind == "chance":
            outcomes = engine.chance(s)[2]
            share = w / len(outcomes)
            for o in outcomes:
                nxt, events = engine.apply_chance(s, o)
                if not self.settle(events, turn_side, share):
                    self.walk(nxt, share)
            return
        if kind == "decide":
            # Declarations nobody has made yet are taken as "none"; any other question
            # leaves the branch undecided.
            for seat in seats:
                if "declare none" in engine.legal(s, seat):
                    nxt, events = engine.apply(s, seat, "declare none")
                    if not self.settle(events, turn_side, w):
                        self.walk(nxt, w)
                    return
        self.undecided += w

    def result(self) -> Odds | None:
        decided = self.win + self.lose
        if not self.what or decided == 0:
            return None
        p = self.win / decided  # a tie's re-roll splits like the first roll
        return Odds(self.what, p, self.undecided)


def after(s: State, seat: int, decisions: list[tuple[int, str]], *,
          deciding: tuple[str, ...] = DECIDING, max_nodes: int = MAX_NODES) -> Odds | None:
    """The odds for ``seat`` once ``decisions`` (seat, text) are applied to ``s`` in turn;
    None when no deciding event follows, or the tree is larger than ``max_nodes``."""
    side = s.side_of(seat)
    walk = _Walk(side, max_nodes, deciding)
    try:
        state = s
        for who, text in decisions:
            turn_side = state.turn.side
            state, events = engine.apply(state, who, text)
            if walk.settle(events, turn_side, Fraction(1)):
                return walk.result()
        walk.walk(state, Fraction(1))
    except _Budget:
        return None
    return walk.result()


def _card_table(s: State, seat: int, max_nodes: int) -> dict[str, Any]:
    """For a secret maneuver choice: each of the seat's cards against each card the
    other side may play: won or lost on the cards, or the odds of the skill test."""
    other = 1 - seat
    me = "O" if s.side_of(seat) == s.turn.side else "D"
    out: dict[str, Any] = {}
    for d in engine.legal(s, seat):
        rows = []
        for o in engine.legal(s, other):
            state, _ = engine.apply(s, seat, d)
            _, events = engine.apply(state, other, o)
            kinds = {e["t"]: e for e in events}
            reveal = kinds.get("reveal")
            if reveal is None:
                continue
            row: dict[str, Any] = {"card": o.split(" ", 1)[1]}
            if "injured-tie" in kinds:  # 6.3.2: nothing is rolled
                row["result"] = "lose" if kinds["injured-tie"]["loser"] == me else "win"
            elif reveal["winner"] == "T" or "injured-forced-test" in kinds:
                odds = after(s, seat, [(seat, d), (other, o)], deciding=("skill-test",),
                             max_nodes=max_nodes)
                row["result"] = "test"
                row["odds"] = odds.to_plain() if odds is not None else None
            else:
                row["result"] = "win" if reveal["winner"] == me else "lose"
            rows.append(row)
        out[d] = {"against": rows}
    return out


def decision_odds(s: State, seat: int, *, max_nodes: int = MAX_NODES) -> dict[str, Any]:
    """The odds of every legal decision of ``seat`` that has any: ``{decision: plain}``.

    A shot (``action shoot``, ``shot take``), a Mind Pull, a forced test or a declaration
    gets :meth:`Odds.to_plain`; a secret maneuver card gets ``{"against": [{"card",
    "result": "win" | "lose" | "test", "odds"?}]}``, one row per card the other side may
    play.  Decisions with nothing to roll are absent.
    """
    kind, seats, secret = engine.to_act(s)
    if kind != "decide" or seat not in seats:
        return {}
    options = engine.legal(s, seat)
    if secret and all(d.startswith("card ") for d in options) and s.stack[-1][0] == "cards_secret":
        if s.secret[s.side_of(1 - seat)]:
            return {}  # the other side's card is already set: not ours to explore
        return _card_table(s, seat, max_nodes)
    out: dict[str, Any] = {}
    for d in options:
        if d.split(" ", 1)[0] not in ("action", "shot", "pull", "scorch", "declare"):
            continue
        if d in ("action maneuver", "action timeout", "shot decline", "pull none"):
            continue
        odds = after(s, seat, [(seat, d)], max_nodes=max_nodes)
        if odds is not None:
            out[d] = odds.to_plain()
    return out
