"""The pairing interface: what a pairer is given and what it returns.

A :class:`Pairer` turns a :class:`PairingInput` (the event's history up to the round to
pair, and who plays in it) into a :class:`Draw`. It never changes the event: the
machine records the draw in a ``paired`` event, so a replayed or resent "pair round 3"
never asks a pairer twice. Pairers: ``swiss.GacruxPairer`` (FIDE Dutch, through the
gacrux engine), ``berger.pair`` (round robin), ``knockout.pair``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol

from .errors import Refused
from .model import Game
from .points import Scoring


@dataclass(frozen=True, slots=True)
class Player:
    pid: int
    number: int  # pairing number
    name: str
    rating: int | None


@dataclass(frozen=True, slots=True)
class PairingInput:
    """Round ``round`` of an event about to be paired.

    ``games[pid]`` lists each numbered player's rounds 1..round-1 (``None`` where they
    were not in the event); ``present`` are the players to pair; ``absent`` the others'
    byes this round (``half``, ``zero``, ``absent``)."""

    name: str
    format: str
    rounds: int
    round: int
    scoring: Scoring
    players: Sequence[Player]
    games: Mapping[int, Sequence[Game | None]]
    present: frozenset[int]
    absent: Mapping[int, str]
    forbidden: frozenset[tuple[int, int]]
    top_colour: str = "w"

    def numbers(self) -> dict[int, int]:
        return {p.pid: p.number for p in self.players}

    def met(self, a: int, b: int) -> bool:
        """Whether ``a`` and ``b`` have played each other (a forfeit is no meeting)."""
        return any(g is not None and g.played and g.opponent == b for g in self.games[a])

    def had_pab(self, pid: int) -> bool:
        return any(g is not None and g.kind == "pab" for g in self.games[pid])


@dataclass(frozen=True, slots=True)
class Draw:
    """A round's pairing: boards as (home, away) pids in board order, and the player
    given the pairing-allocated bye, if any."""

    boards: tuple[tuple[int, int], ...]
    bye: int | None = None


class Pairer(Protocol):
    def pair(self, inp: PairingInput) -> Draw:
        """The draw, or :class:`~.errors.Refused` (``no_pairing``) when the round cannot
        be paired under the system's rules."""
        ...


def check_draw(inp: PairingInput, draw: Draw, *, rematches: bool = False) -> Draw:
    """Refuse a draw that breaks a rule every system keeps: each present player exactly
    once, nobody else, no forbidden pair, and (unless ``rematches``) no rematch and at
    most one pairing-allocated bye per player. A pairer's output is checked before it
    is recorded, so a library fault can never reach the event."""
    seen: list[int] = [p for pair in draw.boards for p in pair]
    if draw.bye is not None:
        seen.append(draw.bye)
    if sorted(seen) != sorted(inp.present):
        raise Refused("pairing_failed", "the pairing engine did not pair every present "
                      "player exactly once")
    for a, b in draw.boards:
        if (min(a, b), max(a, b)) in inp.forbidden:
            raise Refused("pairing_failed", "the pairing engine paired a forbidden pair")
        if not rematches and inp.met(a, b):
            raise Refused("pairing_failed", "the pairing engine paired a rematch")
    if draw.bye is not None and not rematches and inp.had_pab(draw.bye):
        raise Refused("pairing_failed", "the pairing engine gave a second bye to one player")
    return draw


def order(players: Sequence[Player]) -> list[Player]:
    return sorted(players, key=lambda p: p.number)


def seeds(entries: Sequence[tuple[int, str, int | None]]) -> list[int]:
    """Pids in initial ranking order: rating (highest first; unrated last), then name,
    then entry order. Used for pairing numbers, round-robin tables and knockout seeds."""
    return [pid for pid, _, _ in sorted(
        entries, key=lambda e: (-(e[2] if e[2] is not None else -1), e[1].casefold(), e[0]))]
