"""Standings: points, then the event's tiebreaks in the order the organiser chose.

Definitions (each tested on a hand-worked example in tests/server/test_tournament_standings.py):

* **points**: every decided round: games, byes, forfeits.
* **buchholz**: the sum of the opponents' scores, with the FIDE virtual-opponent rule
  for rounds without a played game (C.02 13.16, 2009-2023): a round a player did not
  play (bye, forfeit, absence) counts as a game against a virtual opponent who had the
  player's score before that round, got the opposite result in it, and drew every
  later round: ``Sv = S_before + opposite + draw * (n - R)``. And every unplayed round
  of an opponent (a bye, a forfeit, an absence) counts as a draw in that opponent's
  score. ``n`` is the number of rounds counted so far.
* **buchholz_cut1**: buchholz less its smallest single contribution.
* **sonneborn_berger**: each opponent's (adjusted) score times the share of a win the
  player scored against them (win 1, draw 1/2, loss 0; a shootout win scores its points
  over a win's), virtual opponents included.
* **direct_encounter**: within a group still tied, the points scored in the games among
  them, if every two of them have met; otherwise it does not separate them.
* **wins**: games won on the board (adjudicated wins included; forfeits and byes not).
* **goal_difference**, **goals_for**: from the played games' scores.
* **performance**: FIDE rating performance over played games: the opponents' average
  rating (an unrated opponent counts as ``unrated_rating``) plus ``dp`` from FIDE's
  table for the share of points scored, rounded to two decimals.

A knockout ranks by how far each player went (the winner, the finalist, the two
semi-finalists, ...; with a match for third place, its winner before its loser: that
game adds no stage), then by seed. Players tied on everything share a rank.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction
from typing import TYPE_CHECKING

from . import knockout
from .model import Game
from .points import Points, Scoring

if TYPE_CHECKING:
    from .machine import Tournament

# FIDE rating regulations, table 8.1(a): dp for p = 0.00, 0.01, ..., 1.00.
DP = [
    -800, -677, -589, -538, -501, -470, -444, -422, -401, -383, -366,
    -351, -336, -322, -309, -296, -284, -273, -262, -251, -240,
    -230, -220, -211, -202, -193, -184, -175, -166, -158, -149,
    -141, -133, -125, -117, -110, -102, -95, -87, -80, -72,
    -65, -57, -50, -43, -36, -29, -21, -14, -7, 0,
    7, 14, 21, 29, 36, 43, 50, 57, 65, 72,
    80, 87, 95, 102, 110, 117, 125, 133, 141, 149,
    158, 166, 175, 184, 193, 202, 211, 220, 230, 240,
    251, 262, 273, 284, 296, 309, 322, 336, 351, 366,
    383, 401, 422, 444, 470, 501, 538, 589, 677, 800,
]

Value = Fraction | int | None


@dataclass(slots=True)
class Row:
    pid: int
    name: str
    number: int | None
    status: str
    points: Points
    games: list[Game | None]
    values: dict[str, Value] = field(default_factory=dict)
    rank: int = 0
    stage: int = 0  # knockout: ties won
    third: int = 0  # knockout: 1 for the winner of the match for third place


def dp(p: Fraction) -> int:
    hundredths = int((Decimal(p.numerator) / Decimal(p.denominator) * 100)
                     .quantize(Decimal(1), rounding=ROUND_HALF_UP))
    return DP[max(0, min(100, hundredths))]


def share(points: Points, s: Scoring) -> Fraction:
    return max(Fraction(0), min(Fraction(1), points / s.win))


def opposite(g: Game, s: Scoring) -> Points:
    """What the virtual opponent scored in a round ``g`` was not played."""
    if g.kind == "pab" or (g.kind == "game" and g.outcome == "win"):
        return s.loss
    if g.kind == "half":
        return s.draw
    return s.win


class Table:
    """The standings of ``t`` now: decided rounds, and the decided boards of the round
    being played."""

    def __init__(self, t: Tournament) -> None:
        self.t = t
        self.s = t.s.scoring
        self.n = sum(1 for r in t.rounds if r.status == "live")
        self.rows: dict[int, Row] = {}
        annulled = t.annulled()
        for e in t.entries.values():
            if e.pid in annulled:
                continue  # withdrew early from a round robin that annuls: not ranked
            games = [g if g is not None and not g.pending else None for g in t.games(e.pid)]
            games = [None if i >= self.n else g for i, g in enumerate(games)]
            if e.number is None and not any(games):
                continue
            self.rows[e.pid] = Row(e.pid, e.name, e.number, e.status,
                                   sum((g.points for g in games if g is not None), Points(0)),
                                   games)
        self._adjusted: dict[int, Points] = {}

    # -- the pieces --

    def adjusted(self, pid: int) -> Points:
        """An opponent's score for Buchholz: unplayed rounds count as draws."""
        if pid not in self._adjusted:
            row = self.rows[pid]
            self._adjusted[pid] = sum(
                (g.points if g is not None and g.played else self.s.draw
                 for g in row.games[: self.n]), Points(0))
        return self._adjusted[pid]

    def contributions(self, pid: int) -> list[tuple[Points, Fraction]]:
        """Per counted round: (the opponent's or virtual opponent's score, the share of
        a win the player scored)."""
        row = self.rows[pid]
        out: list[tuple[Points, Fraction]] = []
        before = Points(0)
        for i, g in enumerate(row.games[: self.n]):
            rnd = i + 1
            if g is None:
                continue  # not in the event yet (or already out of a knockout)
            if g.played and g.opponent is not None:
                out.append((self.adjusted(g.opponent), share(g.points, self.s)))
            else:
                virtual = before + opposite(g, self.s) + self.s.draw * (self.n - rnd)
                out.append((virtual, share(g.points, self.s)))
            before += g.points
        return out

    def value(self, name: str, pid: int) -> Value:
        row = self.rows[pid]
        played = [g for g in row.games if g is not None and g.played]
        if name == "buchholz":
            return sum((c for c, _ in self.contributions(pid)), Fraction(0))
        if name == "buchholz_cut1":
            cs = [c for c, _ in self.contributions(pid)]
            return sum(cs, Fraction(0)) - min(cs) if cs else Fraction(0)
        if name == "sonneborn_berger":
            return sum((c * w for c, w in self.contributions(pid)), Fraction(0))
        if name == "wins":
            return sum(1 for g in played if g.outcome == "win")
        if name == "goal_difference":
            return sum(g.goals_for - g.goals_against for g in played)
        if name == "goals_for":
            return sum(g.goals_for for g in played)
        if name == "performance":
            return self.performance(played)
        raise KeyError(name)

    def performance(self, played: Sequence[Game]) -> int | None:
        if not played:
            return None
        ratings = []
        for g in played:
            assert g.opponent is not None
            r = self.t.entries[g.opponent].rating
            ratings.append(r if r is not None else self.t.s.unrated_rating)
        ra = int((Decimal(sum(ratings)) / len(ratings)).quantize(Decimal(1), ROUND_HALF_UP))
        p = sum((share(g.points, self.s) for g in played), Fraction(0)) / len(played)
        return ra + dp(p)

    def direct(self, group: Sequence[int]) -> dict[int, Value]:
        members = set(group)
        met: dict[tuple[int, int], bool] = {}
        scored = {p: Points(0) for p in group}
        for p in group:
            for g in self.rows[p].games:
                if g is not None and g.kind == "game" and g.opponent in members:
                    met[(min(p, g.opponent), max(p, g.opponent))] = True
                    scored[p] += g.points
        everyone = all(met.get((min(a, b), max(a, b))) for a in group for b in group if a < b)
        return {p: scored[p] if everyone else 0 for p in group}

    # -- ranking --

    def ranked(self) -> list[Row]:
        rows = list(self.rows.values())
        knockout = self.t.s.format == "knockout"
        if knockout:
            self._stages(rows)
        tiebreaks = [] if knockout else list(self.t.s.tiebreaks)
        for name in tiebreaks:
            if name != "direct_encounter":
                for row in rows:
                    row.values[name] = self.value(name, row.pid)

        def key(row: Row) -> tuple[Fraction, ...]:
            return (Fraction(row.stage), Fraction(row.third)) if knockout else (row.points,)

        groups = _split([sorted(rows, key=lambda r: r.number or 0)], key)
        for name in tiebreaks:
            if name == "direct_encounter":
                for g in groups:
                    vals = self.direct([r.pid for r in g]) if len(g) > 1 else {g[0].pid: 0}
                    for r in g:
                        r.values[name] = vals[r.pid]
            groups = _split(groups, lambda r, n=name: (_num(r.values[n]),))  # type: ignore[misc]
        rank = 1
        out: list[Row] = []
        for g in groups:
            for r in sorted(g, key=lambda r: r.number or 0):
                r.rank = rank
                out.append(r)
            rank += len(g)
        return out

    def _stages(self, rows: list[Row]) -> None:
        third: set[tuple[int, int]] = set()  # (round, pid) of the third-place board
        seed = self.t.seed_of()
        for r in self.t.rounds:
            if r.third is not None:
                b = r.board(r.third)
                third |= {(r.number, b.home), (r.number, b.away)}
                won = knockout.winner(r, b.home, b.away, seed)
                if won is not None and won in self.rows:
                    self.rows[won].third = 1
        for row in rows:
            row.stage = sum(1 for g in row.games if g is not None and (
                g.kind == "pab" or (g.kind == "game" and g.outcome == "win"))
                and (g.round, row.pid) not in third)
            row.points = Points(row.stage)


def _num(v: Value) -> Fraction:
    # A value a player cannot have (no played games: no performance) ranks below any.
    return Fraction(-10**9) if v is None else Fraction(v)


def _split(groups: list[list[Row]], key: Callable[[Row], tuple[Fraction, ...]]
           ) -> list[list[Row]]:
    """Each group cut into runs of equal ``key``, best first."""
    out: list[list[Row]] = []
    for g in groups:
        buckets: dict[tuple[Fraction, ...], list[Row]] = {}
        for r in g:
            buckets.setdefault(key(r), []).append(r)
        for k in sorted(buckets, reverse=True):
            out.append(buckets[k])
    return out


def standings(t: Tournament) -> list[Row]:
    return Table(t).ranked()
