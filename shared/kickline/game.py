"""The one small interface between a ruleset and everything that hosts it.

The server, the bots, the simulator and the browser client only ever talk to a
ruleset through :class:`Game`.  A second football game plugs in by providing
another object with these methods; nothing that hosts it changes.

Driving contract (the same for every ruleset):

1. ``state = game.setup(config)``.
2. Ask ``game.to_act(state)``:
   - ``kind == "decide"``: every seat in ``seats`` owes a decision; offer it
     ``game.legal(state, seat)`` and pass its choice to ``game.apply``.  When two
     seats are listed the choices are secret and simultaneous: apply them one at
     a time in any order; the state hides each from the other seat until both
     are in.
   - ``kind == "chance"``: sample one of ``game.chance_outcomes(state)`` (each
     listed with an integer weight) and pass it to ``game.apply_chance``.
   - ``kind == "over"``: ``game.result(state)`` says how it ended.
3. ``apply`` and ``apply_chance`` return ``(new_state, events)``; they never
   mutate their argument.  Events are plain data; before sending them to a
   seat, pass them through ``game.redact(events, seat)``.
4. ``game.view(state, seat)`` is the only place hidden information is removed.

A state survives storage through ``game.to_plain`` / ``game.from_plain``: plain
dicts, lists, ints, strings and booleans, as msgpack carries them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

Plain = Any
"""Plain data: dict / list / str / int / bool / None, nested."""


@dataclass(frozen=True, slots=True)
class ToAct:
    """Who the game is waiting for."""

    kind: str  # "decide" | "chance" | "over"
    seats: tuple[int, ...] = ()
    secret: bool = False


@dataclass(frozen=True, slots=True)
class Outcome:
    """One possible result of a chance event, with an integer weight."""

    value: str
    weight: int = 1


class Game(Protocol):
    """What a ruleset offers its hosts.  Seats are ``0`` and ``1``."""

    name: str

    def setup(self, config: Mapping[str, Plain]) -> Any: ...

    def to_act(self, state: Any) -> ToAct: ...

    def legal(self, state: Any, seat: int) -> Sequence[str]:
        """The canonical text of every legal decision for ``seat``, sorted."""
        ...

    def apply(
        self, state: Any, seat: int, decision: str, *, version: int | None = None,
        legal: Sequence[str] | None = None,
    ) -> tuple[Any, list[Plain]]:
        """Apply one seat's decision (canonical text).

        Raises the ruleset's ``MalformedDecision``, ``IllegalDecision`` or
        ``StaleVersion`` (all ``ValueError``) and leaves ``state`` untouched.
        ``legal``, if given, is what :meth:`legal` answered for this very ``state`` and
        ``seat``: a host that kept it spares the ruleset working it out again.
        """
        ...

    def chance_outcomes(self, state: Any) -> Sequence[Outcome]: ...

    def apply_chance(self, state: Any, outcome: str) -> tuple[Any, list[Plain]]: ...

    def version(self, state: Any) -> int: ...

    def view(self, state: Any, seat: int | None) -> Plain:
        """What ``seat`` may see; ``None`` is a spectator."""
        ...

    def redact(self, events: Sequence[Plain], seat: int | None) -> list[Plain]: ...

    def result(self, state: Any) -> Plain | None:
        """``None`` while the match runs; afterwards plain data with at least
        ``winner`` (seat or ``None``) and ``score`` (per seat)."""
        ...

    def to_plain(self, state: Any) -> Plain: ...

    def from_plain(self, plain: Plain) -> Any: ...

    def default_decision(self, state: Any, seat: int) -> str:
        """What the host plays for ``seat`` when its time runs out: one of ``legal``,
        the one that commits the player to the least."""
        ...

    def quick_key(self, config: Mapping[str, Plain]) -> str:
        """Quick-match requests whose keys are equal are paired (first come, first
        paired).  The key leaves out what each player picks for themselves."""
        ...

    def quick_config(self, first: Mapping[str, Plain], second: Mapping[str, Plain]
                     ) -> Mapping[str, Plain]:
        """The config of the match two paired requests make; ``first`` (the one who
        waited) takes seat 0."""
        ...

    def rematch_config(self, config: Mapping[str, Plain], final: Any) -> Mapping[str, Plain]:
        """The config of a rematch of the match that ended in state ``final``: the same
        match with the players' seats swapped (the host seats the former seat 1 in seat
        0), each player keeping what they picked, and the sides they played swapped."""
        ...
