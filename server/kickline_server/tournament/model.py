"""The parts of an event: entries, rounds, boards, results, and one player's round.

These are the tournament's plain data. :class:`~.machine.Tournament` holds them and
changes them only by applying events; everything else (standings, pairers, exports)
reads them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .errors import Refused
from .points import ZERO, Points, Scoring

ENTRY_STATUSES = ("active", "paused", "withdrawn")

BYE_KINDS = ("pab", "half", "zero", "absent", "free")
"""Why a player has no game in a round: ``pab`` the pairing-allocated bye, ``half`` and
``zero`` byes the player asked for (or a late entry's missed rounds), ``absent`` not
playing (paused, withdrawn, missed before entering), ``free`` the round-robin's rest
round (an odd number of players)."""

REQUESTABLE_BYES = ("half", "zero")


@dataclass(slots=True)
class Entry:
    """One player of the event. ``pid`` is the entry's id (registration order);
    ``number`` its pairing number, fixed when round 1 is paired (by rating) or when a
    late entrant enters."""

    pid: int
    name: str
    account: str | None = None
    rating: int | None = None
    team: str | None = None
    status: str = "active"
    checked_in: bool = False
    number: int | None = None
    late: bool = False
    token: str | None = None  # the roster line's entry link, until an account claims it
    byes: dict[int, str] = field(default_factory=dict)  # round -> requested kind

    def to_plain(self) -> dict[str, Any]:
        return {
            "pid": self.pid, "name": self.name, "account": self.account,
            "rating": self.rating, "team": self.team, "status": self.status,
            "checked_in": self.checked_in, "number": self.number, "late": self.late,
            "byes": {str(r): k for r, k in sorted(self.byes.items())},
        }


@dataclass(frozen=True, slots=True)
class Result:
    """How a board ended. ``kind``: ``played`` (the match ended on the board, by score,
    resignation or time), ``adjudicated`` (the organiser decided it; it counts as a
    played game) or ``forfeit`` (the game was not played: a no-show; not a game for
    colour or rematch purposes). ``winner`` is ``home``, ``away`` or ``None`` (a draw;
    for a forfeit, both lose). ``goals`` is (home, away) when known."""

    kind: str
    winner: str | None
    goals: tuple[int, int] | None = None
    shootout: bool = False

    def __post_init__(self) -> None:
        if self.kind not in ("played", "adjudicated", "forfeit"):
            raise Refused("bad_result", "a result is played, adjudicated or forfeit")
        if self.winner not in ("home", "away", None):
            raise Refused("bad_result", "the winner is home, away or nobody")
        if self.kind == "forfeit" and (self.goals is not None or self.shootout):
            raise Refused("bad_result", "a forfeit has no score")
        if self.goals is not None:
            h, a = self.goals
            # No check that the winner scored more: a resignation or an adjudication
            # may go to the side that was behind.
            if not (0 <= h <= 99 and 0 <= a <= 99):
                raise Refused("bad_result", "goals are 0-99")

    @property
    def played(self) -> bool:
        return self.kind != "forfeit"

    def outcome(self, side: str) -> str:
        """``win``, ``draw`` or ``loss`` for the ``home`` or ``away`` player."""
        if self.winner is None:
            return "loss" if self.kind == "forfeit" else "draw"
        return "win" if self.winner == side else "loss"

    def points(self, side: str, scoring: Scoring) -> Points:
        outcome = self.outcome(side)
        if self.kind == "forfeit":
            return scoring.win if outcome == "win" else scoring.forfeit_loss
        if self.shootout and outcome != "draw":
            return scoring.shootout_win if outcome == "win" else scoring.shootout_loss
        return {"win": scoring.win, "draw": scoring.draw, "loss": scoring.loss}[outcome]

    def to_plain(self) -> dict[str, Any]:
        return {"kind": self.kind, "winner": self.winner,
                "goals": list(self.goals) if self.goals is not None else None,
                "shootout": self.shootout}

    @classmethod
    def from_plain(cls, plain: Any) -> Result:
        if not isinstance(plain, dict) or set(plain) - {"kind", "winner", "goals", "shootout"}:
            raise Refused("bad_result", "a result is a map of kind, winner, goals, shootout")
        goals = plain.get("goals")
        if goals is not None:
            if (not isinstance(goals, list | tuple) or len(goals) != 2
                    or not all(isinstance(g, int) and not isinstance(g, bool) for g in goals)):
                raise Refused("bad_result", "goals are two whole numbers: home, away")
            goals = (goals[0], goals[1])
        kind, winner = plain.get("kind"), plain.get("winner")
        shootout = plain.get("shootout", False)
        if not isinstance(kind, str) or not isinstance(shootout, bool):
            raise Refused("bad_result", "a result is played, adjudicated or forfeit")
        return cls(kind, winner, goals, shootout)


@dataclass(slots=True)
class Board:
    number: int
    home: int
    away: int
    match: str | None = None
    result: Result | None = None

    def side(self, pid: int) -> str:
        return "home" if pid == self.home else "away"

    def opponent(self, pid: int) -> int:
        return self.away if pid == self.home else self.home

    def to_plain(self) -> dict[str, Any]:
        return {"board": self.number, "home": self.home, "away": self.away,
                "match": self.match,
                "result": self.result.to_plain() if self.result else None}


@dataclass(slots=True)
class Round:
    """A round's pairing: its boards, and why everyone else has no game (``byes``).

    ``draft`` while the organiser may still edit it; ``live`` once started (its
    matches exist). A live round whose every board has a result is done."""

    number: int
    boards: list[Board]
    byes: dict[int, str]
    status: str = "draft"
    started_at: float | None = None
    third: int | None = None  # knockout: the board that plays for third place

    @property
    def done(self) -> bool:
        return self.status == "live" and all(b.result is not None for b in self.boards)

    def board_of(self, pid: int) -> Board | None:
        for b in self.boards:
            if pid in (b.home, b.away):
                return b
        return None

    def board(self, number: int) -> Board:
        for b in self.boards:
            if b.number == number:
                return b
        raise Refused("not_found", f"round {self.number} has no board {number}")

    def to_plain(self) -> dict[str, Any]:
        return {"round": self.number, "status": "done" if self.done else self.status,
                "started_at": self.started_at, "third_place": self.third,
                "boards": [b.to_plain() for b in self.boards],
                "byes": [{"pid": p, "kind": k} for p, k in sorted(self.byes.items())]}


@dataclass(frozen=True, slots=True)
class Game:
    """One player's round, as standings and exports read it."""

    round: int
    kind: str  # "game" (a board) or a bye kind
    opponent: int | None = None
    colour: str | None = None  # "w" home, "b" away
    result: Result | None = None  # None: a bye, or a board still being played
    points: Points = ZERO
    outcome: str | None = None  # "win" | "draw" | "loss"; None while pending or for byes
    goals_for: int = 0
    goals_against: int = 0

    @property
    def played(self) -> bool:
        """A game that was played (or adjudicated): counts for colours, rematches,
        Buchholz, performance."""
        return self.result is not None and self.result.played

    @property
    def pending(self) -> bool:
        return self.kind == "game" and self.result is None


def bye_points(kind: str, scoring: Scoring) -> Points:
    return {"pab": scoring.bye, "half": scoring.half_bye}.get(kind, ZERO)


def game_of(rnd: Round, pid: int, scoring: Scoring) -> Game | None:
    """What ``pid`` did in ``rnd``; ``None`` if they were not in the event then."""
    board = rnd.board_of(pid)
    if board is not None:
        side = board.side(pid)
        colour = "w" if side == "home" else "b"
        r = board.result
        if r is None:
            return Game(rnd.number, "game", board.opponent(pid), colour)
        gf = ga = 0
        if r.goals is not None:
            gf, ga = r.goals if side == "home" else (r.goals[1], r.goals[0])
        return Game(rnd.number, "game", board.opponent(pid), colour, r,
                    r.points(side, scoring), r.outcome(side), gf, ga)
    kind = rnd.byes.get(pid)
    if kind is None:
        return None
    return Game(rnd.number, kind, points=bye_points(kind, scoring))
