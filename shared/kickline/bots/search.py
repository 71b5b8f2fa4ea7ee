"""A search bot for a game of dice and simultaneous secret choices.

At each of its decisions the bot rebuilds the state its seat's view shows
(:func:`.belief.believe`) and plays on from it many times: the dice drawn at random,
every later decision of either seat taken by a fast default policy (the greedy bot),
for a horizon of a few turns, where :func:`.evaluate.win_chance` scores the position.
Every playout of one decision draws its dice from the same numbered streams
(common random numbers), so two options are compared on the same luck.

* A decision of its own seat: each option is played out; successive halving spends the
  budget on the options still in contention, and the best average wins.
* A secret simultaneous choice (maneuver cards, loose-ball sends, declarations,
  sudden-death picks): every pair of its option and the other seat's option is played
  out, giving a payoff matrix; regret matching solves that zero-sum game and the bot
  draws its choice from the equilibrium mix, so the choice cannot be read.  The other
  seat's choice, if already made, is hidden by the view and never looked at.

Budgets are counted in playouts, so a decision is a function of the view, the legal
decisions and the seed alone.  A host may add a wall-clock cap (``deadline``): the
rules package reads no clock itself.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from functools import reduce
from operator import add, mul
from typing import Any

from .. import engine
from ..state import State
from .belief import believe
from .evaluate import win_chance, win_chance_fine, win_chance_plus, win_chance_rich
from .greedy import greedy_on_state

View = dict[str, Any]
Clock = Callable[[], float]

# Frames whose secret choice is a zero-sum matrix game worth solving.
_MATRIX = ("cards_secret", "loose", "declare", "so_pick")


@dataclass(frozen=True, slots=True)
class Budget:
    """How hard a level thinks about one decision."""

    playouts: int  # playouts per decision
    horizon: int  # turns played out before the position is scored
    candidates: int = 12  # options searched at most; the rest are pruned by the policy
    seconds: float = 0.0  # a host's wall-clock cap per decision, 0 for none
    evaluation: str = "basic"  # how a playout's last position is scored (EVALUATIONS)


Evaluation = Callable[[State, int], int]
EVALUATIONS: dict[str, Evaluation] = {"basic": win_chance, "fine": win_chance_fine,
                                       "plus": win_chance_plus, "rich": win_chance_rich}


def policy(s: State, seat: int, legal: Sequence[str], rng: random.Random) -> str:
    """The default policy inside playouts: the greedy bot, reading the playout's state
    (its own sample, never the true one) as it would read the seat's view."""
    if len(legal) == 1:
        return legal[0]
    return greedy_on_state(s, seat, legal, rng)


def playout(s: State, me: int, horizon: int, rng: random.Random,
            score: Evaluation = win_chance) -> int:
    """Play on from ``s`` for ``horizon`` turns; ``me``'s chance to win, per mille."""
    turns = 0
    minute, period = s.minute, s.period
    while True:
        kind, seats, _secret = engine.to_act(s)
        if kind == "over":
            break
        if kind == "chance":
            outcomes = engine.chance(s)[2]
            s, _ = engine.apply_chance(s, outcomes[rng.randrange(len(outcomes))])
        else:
            for seat in seats:
                legal = engine.legal(s, seat)
                if legal:
                    s, _ = engine.apply(s, seat, policy(s, seat, legal, rng))
        if s.minute != minute or s.period != period:
            turns += 1
            minute, period = s.minute, s.period
            if turns >= horizon:
                break
    return score(s, s.side_of(me))


class SearchBot:
    """``bot(view, legal, rng) -> decision`` with a playout budget per decision.

    ``thinks`` tells a host that a decision takes a while (a server runs it off its event
    loop); :meth:`timed` is the same bot under a host's wall-clock cap."""

    thinks = True

    def __init__(self, budget: Budget, clock: Clock | None = None) -> None:
        self.budget = budget
        self.clock = clock
        self.score = EVALUATIONS[budget.evaluation]

    def timed(self, seconds: float, clock: Clock) -> SearchBot:
        return SearchBot(replace(self.budget, seconds=seconds), clock)

    def __call__(self, view: View, legal: Sequence[str], rng: random.Random) -> str:
        if len(legal) == 1:
            return legal[0]
        seat = view["seat"]
        deadline = (self.clock() + self.budget.seconds
                    if self.clock is not None and self.budget.seconds > 0 else None)
        s = believe(view, rng)
        frame = s.stack[-1][0]
        if frame in _MATRIX:
            return self._secret(s, seat, list(legal), rng, deadline)
        if frame == "so_order":
            return policy(s, seat, legal, rng)
        return self._choose(s, seat, self._candidates(s, seat, legal, rng), rng, deadline)

    # ----- budget and time ------------------------------------------------------------
    def _out_of_time(self, deadline: float | None) -> bool:
        return deadline is not None and self.clock is not None and self.clock() >= deadline

    def _seeds(self, rng: random.Random, n: int) -> list[int]:
        return [rng.randrange(1 << 30) for _ in range(n)]

    # ----- a decision of one seat -----------------------------------------------------
    def _candidates(self, s: State, seat: int, legal: Sequence[str],
                    rng: random.Random) -> list[str]:
        """The options worth searching: all of them when few; else the policy's own
        choice and the ones a coach would weigh (a Coaching Choice's substitutions,
        formations and its end; positioning and swaps are left to the policy)."""
        options = list(legal)
        first = policy(s, seat, legal, random.Random(rng.randrange(1 << 30)))
        top = s.stack[-1]
        if top[0] == "coach" and ("finish" in options or "skip" in options):
            # A Coaching Choice is a series of actions ended by a finish, and at setup its
            # substitutions are unlimited: weighed against each other by playouts, they
            # could go on forever.  So the search weighs ending it now against the
            # policy's own action (it subs tired players, each once) and, before any
            # action, the formations: every Choice ends.
            ends = [d for d in options if d in ("finish", "skip")]
            deals = [d for d in options if d.startswith("formation ")] if not top[3] else []
            return list(dict.fromkeys([*ends, first, *deals]))
        if len(options) <= self.budget.candidates:
            return options
        keep = [first] + [d for d in options if d != first]
        return keep[: self.budget.candidates]

    def _choose(self, s: State, seat: int, options: list[str], rng: random.Random,
                deadline: float | None) -> str:
        if len(options) == 1:
            return options[0]
        b = self.budget
        after = {d: engine.apply(s, seat, d)[0] for d in options}
        # Successive halving: rounds of equal playouts per surviving option, the worse
        # half dropped after each, until the budget is spent.
        rounds = max(1, (len(options) - 1).bit_length())
        totals = {d: 0 for d in options}
        counts = {d: 0 for d in options}
        alive = list(options)
        spent = 0
        late = False
        for r in range(rounds):
            per = max(1, (b.playouts - spent) // (len(alive) * (rounds - r)))
            seeds = self._seeds(rng, per)
            for seed in seeds:
                for d in alive:
                    totals[d] += playout(after[d], seat, b.horizon, random.Random(seed),
                                         self.score)
                    counts[d] += 1
                    spent += 1
                    # The clock is read after every playout, so a cap is overrun by one
                    # playout at most (an option cut short is judged on fewer).
                    late = self._out_of_time(deadline)
                    if late:
                        break
                if late:
                    break
            alive = [d for d in alive if counts[d]]
            alive.sort(key=lambda d: -totals[d] * 1000 // counts[d])
            if late or len(alive) <= 1:
                break
            alive = alive[: max(1, (len(alive) + 1) // 2)]
        return max(alive, key=lambda d: (totals[d] * 1000 // counts[d], -options.index(d)))

    # ----- a secret simultaneous choice -----------------------------------------------
    def _secret(self, s: State, seat: int, mine: list[str], rng: random.Random,
                deadline: float | None) -> str:
        other = 1 - seat
        theirs = list(engine.legal(s, other)) or [""]
        b = self.budget
        per = max(1, b.playouts // (len(mine) * len(theirs)))
        seeds = self._seeds(rng, per)
        after = {d: engine.apply(s, seat, d)[0] for d in mine}
        payoff = [[0] * len(theirs) for _ in mine]
        # The rows are played in an order drawn from the first seed (no draw from ``rng``,
        # so an uncapped search decides as before): a round cut short by the clock keeps
        # a random few of our options, never the same first ones, and stays unreadable.
        order = list(range(len(mine)))
        random.Random(seeds[0]).shuffle(order)
        for n, seed in enumerate(seeds):
            # One row (an option of ours against every answer) at a time, the clock read
            # after each: a cap is overrun by one row at most.  A round cut short counts
            # only if it is the first (the game is then solved over the rows it has).
            rows: dict[int, list[int]] = {}
            for i in order:
                row = []
                for e in theirs:
                    t = after[mine[i]]
                    if e and other in engine.to_act(t)[1]:  # not filled in already
                        t = engine.apply(t, other, e)[0]
                    row.append(playout(t, seat, b.horizon, random.Random(seed), self.score))
                rows[i] = row
                if self._out_of_time(deadline):
                    break
            if len(rows) == len(mine):
                for i, row in rows.items():
                    payoff[i] = [x + y for x, y in zip(payoff[i], row, strict=True)]
            elif n == 0:
                kept = sorted(rows)
                payoff, mine = [rows[i] for i in kept], [mine[i] for i in kept]
            if self._out_of_time(deadline):
                break
        mix = equilibrium(payoff)
        return mine[_draw(mix, rng)]


def equilibrium(payoff: list[list[int]], iterations: int = 1000) -> list[float]:
    """The row player's equilibrium mix of a zero-sum game (the row maximises): regret
    matching+ in self-play, its iterates averaged with linearly rising weights.  Only
    ``+ - * /`` on floats, each sum added left to right (:func:`_total`), so the mix is
    the same on every runtime."""
    rows, cols = len(payoff), len(payoff[0])
    columns = [list(c) for c in zip(*payoff, strict=True)]
    r_reg = [0.0] * rows
    c_reg = [0.0] * cols
    avg = [0.0] * rows
    for t in range(1, iterations + 1):
        rs, cs = _total(r_reg), _total(c_reg)
        rm = [x / rs for x in r_reg] if rs > 0 else [1.0 / rows] * rows
        cm = [x / cs for x in c_reg] if cs > 0 else [1.0 / cols] * cols
        row_val = [_total(map(mul, row, cm)) for row in payoff]
        col_val = [_total(map(mul, col, rm)) for col in columns]
        value = _total(map(mul, row_val, rm))
        r_reg = [max(0.0, r + v - value) for r, v in zip(r_reg, row_val, strict=True)]
        c_reg = [max(0.0, c + value - v) for c, v in zip(c_reg, col_val, strict=True)]
        avg = [a + t * m for a, m in zip(avg, rm, strict=True)]
    total = _total(avg)
    return [x / total for x in avg]


def _total(xs: Iterable[float]) -> float:
    """``xs`` added left to right.  Not ``sum``: from Python 3.12 (Pyodide's) ``sum``
    of floats compensates its rounding, so it would differ from 3.11's in the last bits
    and a mix near a boundary would draw differently."""
    return reduce(add, xs, 0.0)


def _draw(mix: list[float], rng: random.Random) -> int:
    x = rng.random()
    for i, p in enumerate(mix):
        if x < p:
            return i
        x -= p
    return len(mix) - 1
