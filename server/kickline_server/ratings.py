"""Glicko-2 ratings, exactly as Glickman's paper ("Example of the Glicko-2 system",
2012) defines them, and a player's standing in one mode.

:func:`glicko2` is steps 2-8 of the paper for one player and one rating period.  Its
step 5 finds the new volatility with the Illinois algorithm the paper gives, including
its starting bracket ``B`` (the paper's example gives volatility 0.059996; the common
mistake in that step gives 0.059993).

**Rating periods** (the policy of this server): every rated match is its own rating
period of one game for each player, applied when the match ends, as lichess does.
Between matches a player's RD grows with idle time: before a match, ``phi`` becomes
``sqrt(phi² + sigma² · t)`` where ``t`` is the idle time in units of
:attr:`Policy.period` (one day), so a player back after a long break moves faster.  RD is
kept within ``[min_rd, max_rd]`` = [45, 350] and the volatility at most 0.1; the
rating itself is kept within [100, 4000].  A rating whose current RD is above
:attr:`Policy.provisional_rd` (110) is **provisional**: shown with "?" and left off the
leaderboard.  One rating per mode (training, standard, advanced), both boards together.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any, Final

SCALE: Final = 173.7178
"""Glicko-2's scale factor between the Glicko scale and its own (``400 / ln 10``)."""


def glicko2(rating: float, rd: float, vol: float,
            games: Sequence[tuple[float, float, float]], *, tau: float = 0.5,
            epsilon: float = 1e-6) -> tuple[float, float, float]:
    """One rating period: ``games`` are ``(opponent rating, opponent RD, score)`` with
    score 1 (win), 0.5 (draw) or 0 (loss).  Returns the new ``(rating, RD, volatility)``.
    With no games only the RD grows (the paper's step 6 applied alone)."""
    mu, phi = (rating - 1500.0) / SCALE, rd / SCALE  # step 2
    if not games:
        return rating, SCALE * math.sqrt(phi * phi + vol * vol), vol
    gs = [(_g(rd_j / SCALE), (r_j - 1500.0) / SCALE, s) for r_j, rd_j, s in games]
    es = [1.0 / (1.0 + math.exp(-g * (mu - mu_j))) for g, mu_j, _ in gs]
    v = 1.0 / sum(g * g * e * (1.0 - e) for (g, _, _), e in zip(gs, es, strict=True))  # 3
    part = sum(g * (s - e) for (g, _, s), e in zip(gs, es, strict=True))
    delta = v * part  # step 4
    # Step 5: the new volatility, by the Illinois algorithm on f(x) = 0.
    a = math.log(vol * vol)

    def f(x: float) -> float:
        ex = math.exp(x)
        num = ex * (delta * delta - phi * phi - v - ex)
        den = 2.0 * (phi * phi + v + ex) ** 2
        return num / den - (x - a) / (tau * tau)

    big_a = a
    if delta * delta > phi * phi + v:
        big_b = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > epsilon:
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a = f_a / 2.0
        big_b, f_b = big_c, f_c
    new_vol = math.exp(big_a / 2.0)
    phi_star = math.sqrt(phi * phi + new_vol * new_vol)  # step 6
    new_phi = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)  # step 7
    new_mu = mu + new_phi * new_phi * part
    return 1500.0 + SCALE * new_mu, SCALE * new_phi, new_vol  # step 8


def _g(phi: float) -> float:
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


@dataclass(frozen=True, slots=True)
class Policy:
    """This server's rating constants (documented in the module docstring)."""

    start: float = 1500.0
    start_rd: float = 350.0
    start_vol: float = 0.06
    tau: float = 0.5
    period: float = 86_400.0
    min_rd: float = 45.0
    max_rd: float = 350.0
    max_vol: float = 0.1
    min_rating: float = 100.0
    max_rating: float = 4000.0
    provisional_rd: float = 110.0


POLICY: Final = Policy()


@dataclass(frozen=True, slots=True)
class Standing:
    """A player's record in one mode: the rating as of their last rated match, and
    counts of every finished match (rated or not) in that mode."""

    rating: float = POLICY.start
    rd: float = POLICY.start_rd
    vol: float = POLICY.start_vol
    rated_at: float | None = None
    rated: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0

    def current_rd(self, now: float, policy: Policy = POLICY) -> float:
        """The RD now, grown over the idle time since the last rated match."""
        if self.rated_at is None:
            return self.rd
        t = max(0.0, now - self.rated_at) / policy.period
        phi = self.rd / SCALE
        grown = SCALE * math.sqrt(phi * phi + self.vol * self.vol * t)
        return min(policy.max_rd, max(policy.min_rd, grown))

    def provisional(self, now: float, policy: Policy = POLICY) -> bool:
        return self.current_rd(now, policy) > policy.provisional_rd

    def counted(self, score: float) -> Standing:
        """One more finished match (``score`` 1, 0.5 or 0) in the counts."""
        if score == 1:
            return replace(self, wins=self.wins + 1)
        if score == 0:
            return replace(self, losses=self.losses + 1)
        return replace(self, draws=self.draws + 1)

    def plain(self) -> dict[str, Any]:
        return {"rating": self.rating, "rd": self.rd, "vol": self.vol,
                "rated_at": self.rated_at, "rated": self.rated, "wins": self.wins,
                "draws": self.draws, "losses": self.losses}

    @staticmethod
    def from_plain(p: dict[str, Any]) -> Standing:
        return Standing(rating=float(p["rating"]), rd=float(p["rd"]), vol=float(p["vol"]),
                        rated_at=p.get("rated_at"), rated=int(p.get("rated", 0)),
                        wins=int(p.get("wins", 0)), draws=int(p.get("draws", 0)),
                        losses=int(p.get("losses", 0)))


def rate_match(a: Standing, b: Standing, score_a: float, now: float,
               policy: Policy = POLICY) -> tuple[Standing, Standing]:
    """Both players' standings after a rated match between them (``score_a``: 1 if
    ``a`` won, 0.5 for a draw, 0 if ``b`` won): a rating period of one game each,
    on the RDs grown to ``now``; each side is rated against the other's rating as it
    was before the match."""
    rd_a, rd_b = a.current_rd(now, policy), b.current_rd(now, policy)
    return (_rated(a, rd_a, b.rating, rd_b, score_a, now, policy),
            _rated(b, rd_b, a.rating, rd_a, 1.0 - score_a, now, policy))


def _rated(me: Standing, rd: float, opp: float, opp_rd: float, score: float, now: float,
           policy: Policy) -> Standing:
    rating, new_rd, vol = glicko2(me.rating, rd, me.vol, [(opp, opp_rd, score)],
                                  tau=policy.tau)
    return replace(
        me, rating=min(policy.max_rating, max(policy.min_rating, rating)),
        rd=min(policy.max_rd, max(policy.min_rd, new_rd)), vol=min(policy.max_vol, vol),
        rated_at=now, rated=me.rated + 1)
