"""Kickline's rules: a pure, deterministic engine for the tabletop football game.

Standard library only; runs unchanged on CPython and in Pyodide.  The driving
contract is :mod:`kickline.game`; :data:`GAME` implements it::

    import kickline
    s = kickline.new_game({"mode": "training", "board": 7})
    kind, seats, secret = kickline.to_act(s)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .decisions import Decision
from .engine import apply, apply_chance, chance, legal, new_game, to_act
from .errors import DecisionError, IllegalDecision, MalformedDecision, StaleVersion
from .game import Game, Outcome, Plain, ToAct
from .state import Config, State
from .view import redact, view

__all__ = [
    "GAME",
    "Config",
    "Decision",
    "DecisionError",
    "Game",
    "IllegalDecision",
    "KicklineGame",
    "MalformedDecision",
    "StaleVersion",
    "State",
    "apply",
    "apply_chance",
    "chance",
    "default_decision",
    "legal",
    "new_game",
    "redact",
    "result",
    "to_act",
    "view",
]

__version__ = "0.1.0"


def result(s: State) -> dict[str, Any] | None:
    """How the match ended, per seat; ``None`` while it runs."""
    if to_act(s)[0] != "over":
        return None
    by_seat = [s.score[s.side_of(0)], s.score[s.side_of(1)]]
    winner = None if by_seat[0] == by_seat[1] else (0 if by_seat[0] > by_seat[1] else 1)
    return {
        "winner": winner,
        "score": by_seat,
        "home_seat": s.home_seat,
        "score_home_visitors": list(s.score),
        "shootout": s.period == 3,
    }


# The passive answer to a question that has one: a player out of time spends no token,
# sends nobody, declares nothing, declines the optional.
_PASSIVE = ("none", "no", "accept", "decline")
# Options that commit a player to an ability beside the plain choice (21.4.5).
_OPTIONAL_KINDS = ("quantor",)


def default_decision(state: State, seat: int) -> str:
    """The decision played for a seat whose time ran out (docs/PROTOCOL.md, time control):
    ending a Coaching Choice unchanged, else the passive option where the question has
    one, else the first legal decision that is not an optional ability, else the first
    legal decision."""
    options = legal(state, seat)
    if not options:
        raise IllegalDecision(f"seat {seat} has nothing to decide now")
    for d in ("skip", "finish"):  # a Coaching Choice: change nothing (14.8)
        if d in options:
            return d
    for d in options:
        if d.rsplit(" ", 1)[-1] in _PASSIVE:
            return d
    plain = [d for d in options if d.split(" ", 1)[0] not in _OPTIONAL_KINDS]
    return (plain or list(options))[0]


class KicklineGame:
    """Kickline behind the host-facing :class:`kickline.game.Game` interface."""

    name = "kickline"

    def setup(self, config: Mapping[str, Plain]) -> State:
        return new_game(Config.from_plain(dict(config)))

    def to_act(self, state: State) -> ToAct:
        kind, seats, secret = to_act(state)
        return ToAct(kind, seats, secret)

    def legal(self, state: State, seat: int) -> Sequence[str]:
        return legal(state, seat)

    def apply(
        self, state: State, seat: int, decision: str, *, version: int | None = None,
        legal: Sequence[str] | None = None,
    ) -> tuple[State, list[Plain]]:
        return apply(state, seat, decision, version=version, legal=legal)

    def chance_outcomes(self, state: State) -> Sequence[Outcome]:
        return [Outcome(v) for v in chance(state)[2]]

    def apply_chance(self, state: State, outcome: str) -> tuple[State, list[Plain]]:
        return apply_chance(state, outcome)

    def version(self, state: State) -> int:
        return state.version

    def view(self, state: State, seat: int | None) -> Plain:
        return view(state, seat)

    def redact(self, events: Sequence[Plain], seat: int | None) -> list[Plain]:
        return redact(events, seat)

    def result(self, state: State) -> Plain | None:
        return result(state)

    def to_plain(self, state: State) -> Plain:
        return state.to_plain()

    def from_plain(self, plain: Plain) -> State:
        return State.from_plain(plain)

    def default_decision(self, state: State, seat: int) -> str:
        return default_decision(state, seat)

    # A quick-match request's config is the player's own: its mode and board must match
    # the opponent's, and the first of its teams is the one that player coaches.
    def quick_key(self, config: Mapping[str, Plain]) -> str:
        c = Config.from_plain(dict(config))
        return f"{c.mode}:{c.board}"

    def quick_config(self, first: Mapping[str, Plain], second: Mapping[str, Plain]
                     ) -> Mapping[str, Plain]:
        a, b = Config.from_plain(dict(first)), Config.from_plain(dict(second))
        return Config(a.mode, a.board, (a.teams[0], b.teams[0])).to_plain()

    # A rematch: the seats swap (the host seats the former seat 1 first), so the teams
    # swap with them; whoever played home now plays visitors.  Home was the seat in
    # ``final.home_seat`` and the visitors' player now sits there, so that seat is home
    # again; a match that ended before the toss leaves it to the toss.
    def rematch_config(self, config: Mapping[str, Plain], final: State) -> Mapping[str, Plain]:
        c = Config.from_plain(dict(config))
        home = final.home_seat if final.home_seat in (0, 1) else None
        return Config(c.mode, c.board, (c.teams[1], c.teams[0]), home).to_plain()


GAME: Game = KicklineGame()
