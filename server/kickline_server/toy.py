"""A tiny ruleset implementing :class:`kickline.game.Game`, for testing hosts.

"Dice race": two runners on a track of ``board`` squares.  Each round both seats
secretly and simultaneously choose ``jog`` or ``sprint``; then a chance node rolls a
weighted die for seat 0 and then for seat 1.  A jog moves 1 (2 on a roll of 4 or
more); a sprint moves the roll, but a roll of 1 stumbles back one square.  The
first to reach the end wins; after ``rounds`` rounds the leader wins (a tie is a
draw).  It exercises every part of the hosting contract: secret simultaneous
choices, weighted chance, per-seat redaction of state and events, and versions.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace

from kickline.game import Outcome, Plain, ToAct

CHOICES = ("jog", "sprint")
DIE = (Outcome("1", 1), Outcome("2", 1), Outcome("3", 2), Outcome("4", 2), Outcome("5", 1),
       Outcome("6", 1))
_TOKEN = re.compile(r"[a-z]{1,16}")


class MalformedDecision(ValueError):
    """The text is not a decision at all."""


class IllegalDecision(ValueError):
    """A decision that is not legal here."""


class StaleVersion(ValueError):
    """The decision was made against an older state."""


@dataclass(frozen=True, slots=True)
class State:
    board: int
    rounds: int
    version: int = 0
    phase: str = "choose"  # choose | roll0 | roll1 | over
    phase_version: int = 0
    round: int = 1
    pos: tuple[int, int] = (0, 0)
    choices: tuple[str | None, str | None] = (None, None)


def _other(seat: int) -> int:
    return 1 - seat


class DiceRace:
    """The toy ruleset; ``GAME`` below is its one instance."""

    name = "toy"

    def setup(self, config: Mapping[str, Plain]) -> State:
        board = config.get("board", 7)
        rounds = config.get("rounds", 30)
        mode = config.get("mode", "training")
        if type(board) is not int or not 3 <= board <= 100:
            raise ValueError("board must be an integer from 3 to 100")
        if type(rounds) is not int or not 1 <= rounds <= 1000:
            raise ValueError("rounds must be an integer from 1 to 1000")
        if mode != "training":
            raise ValueError("the toy game only has the training mode")
        unknown = sorted(set(config) - {"board", "rounds", "mode", "teams"})
        if unknown:
            raise ValueError(f"unknown config keys: {unknown}")
        return State(board=board, rounds=rounds)

    def to_act(self, state: State) -> ToAct:
        if state.phase == "over":
            return ToAct("over")
        if state.phase == "choose":
            seats = tuple(s for s in (0, 1) if state.choices[s] is None)
            return ToAct("decide", seats, secret=True)
        return ToAct("chance")

    def legal(self, state: State, seat: int) -> Sequence[str]:
        if state.phase == "choose" and state.choices[seat] is None:
            return list(CHOICES)
        return []

    def apply(
        self, state: State, seat: int, decision: str, *, version: int | None = None,
        legal: Sequence[str] | None = None,
    ) -> tuple[State, list[Plain]]:
        if not isinstance(decision, str) or not _TOKEN.fullmatch(decision):
            raise MalformedDecision(f"not a decision: {decision!r}")
        # In the secret phase a choice made against the phase's first version is
        # still current: the other seat's hidden choice changes nothing it can see.
        if version is not None and version not in (state.version, state.phase_version):
            raise StaleVersion(f"decision made on version {version}, state is {state.version}")
        if decision not in (self.legal(state, seat) if legal is None else legal):
            raise IllegalDecision(f"{decision} is not legal for seat {seat} now")
        choices = list(state.choices)
        choices[seat] = decision
        events: list[Plain] = [{"e": "chose", "seat": seat, "choice": decision}]
        new = replace(state, version=state.version + 1, choices=(choices[0], choices[1]))
        if None not in choices:
            events.append({"e": "reveal", "choices": list(choices)})
            new = replace(new, phase="roll0")
        return new, events

    def chance_outcomes(self, state: State) -> Sequence[Outcome]:
        if state.phase not in ("roll0", "roll1"):
            raise ValueError("no chance event is pending")
        return list(DIE)

    def apply_chance(self, state: State, outcome: str) -> tuple[State, list[Plain]]:
        if outcome not in {o.value for o in self.chance_outcomes(state)}:
            raise ValueError(f"not an outcome here: {outcome!r}")
        seat = 0 if state.phase == "roll0" else 1
        roll = int(outcome)
        choice = state.choices[seat]
        jog = 2 if roll >= 4 else 1
        sprint = -1 if roll == 1 else roll
        step = jog if choice == "jog" else sprint
        pos = list(state.pos)
        pos[seat] = min(state.board, max(0, pos[seat] + step))
        events: list[Plain] = [{"e": "roll", "seat": seat, "roll": roll, "to": pos[seat]}]
        new = replace(state, version=state.version + 1, pos=(pos[0], pos[1]))
        if seat == 0:
            return replace(new, phase="roll1"), events
        if state.board in pos or state.round >= state.rounds:
            events.append({"e": "end", "pos": pos})
            return replace(new, phase="over"), events
        return (
            replace(new, phase="choose", phase_version=new.version, round=state.round + 1,
                    choices=(None, None)),
            events,
        )

    def version(self, state: State) -> int:
        return state.version

    def view(self, state: State, seat: int | None) -> Plain:
        choices: list[str | None] = []
        for s in (0, 1):
            c = state.choices[s]
            hidden = state.phase == "choose" and s != seat
            choices.append(("hidden" if c is not None else None) if hidden else c)
        return {
            "seat": seat,
            "board": state.board,
            "round": state.round,
            "rounds": state.rounds,
            "phase": state.phase,
            "pos": list(state.pos),
            "choices": choices,
            "version": state.version,
        }

    def redact(self, events: Sequence[Plain], seat: int | None) -> list[Plain]:
        out: list[Plain] = []
        for ev in events:
            if ev.get("e") == "chose" and ev.get("seat") != seat:
                out.append({"e": "chose", "seat": ev["seat"]})
            else:
                out.append(dict(ev))
        return out

    def result(self, state: State) -> Plain | None:
        if state.phase != "over":
            return None
        a, b = state.pos
        winner = None if a == b else (0 if a > b else 1)
        return {"winner": winner, "score": [a, b]}

    def to_plain(self, state: State) -> Plain:
        return {
            "board": state.board,
            "rounds": state.rounds,
            "version": state.version,
            "phase": state.phase,
            "phase_version": state.phase_version,
            "round": state.round,
            "pos": list(state.pos),
            "choices": list(state.choices),
        }

    def from_plain(self, plain: Plain) -> State:
        return State(
            board=plain["board"],
            rounds=plain["rounds"],
            version=plain["version"],
            phase=plain["phase"],
            phase_version=plain["phase_version"],
            round=plain["round"],
            pos=(plain["pos"][0], plain["pos"][1]),
            choices=(plain["choices"][0], plain["choices"][1]),
        )

    def default_decision(self, state: State, seat: int) -> str:
        return self.legal(state, seat)[0]  # "jog": the cautious one

    def quick_key(self, config: Mapping[str, Plain]) -> str:
        return json.dumps(dict(config), sort_keys=True)

    def quick_config(self, first: Mapping[str, Plain], second: Mapping[str, Plain]
                     ) -> Mapping[str, Plain]:
        return first

    def rematch_config(self, config: Mapping[str, Plain], final: State) -> Mapping[str, Plain]:
        return config  # the race is the same from either seat


def random_bot(view: Plain, legal: Sequence[str], rng: random.Random) -> str:
    """Any legal decision, uniformly."""
    return rng.choice(list(legal))


def greedy_bot(view: Plain, legal: Sequence[str], rng: random.Random) -> str:
    """Sprint when behind, jog when ahead."""
    me = view["seat"]
    behind = view["pos"][me] <= view["pos"][1 - me]
    want = "sprint" if behind else "jog"
    return want if want in legal else next(iter(legal))


GAME = DiceRace()
BOTS: dict[str, Callable[[Plain, Sequence[str], random.Random], str]] = {
    "random": random_bot,
    "greedy": greedy_bot,
}

__all__ = ["BOTS", "GAME", "DiceRace", "State"]

