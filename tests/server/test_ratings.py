"""Glicko-2: Glickman's worked example, an independent implementation, idle RD growth,
the bounds, and who moves when."""

from __future__ import annotations

import random

import pytest
from glicko2.math import algorithm  # glicko2-py 0.1.0, pinned
from glicko2.math.algorithm import update_rating
from glicko2.math.conversions import mu_to_rating, phi_to_rd, rating_to_mu, rd_to_phi

from kickline_server.ratings import POLICY, Standing, glicko2, rate_match


def test_the_papers_worked_example() -> None:
    rating, rd, vol = glicko2(1500, 200, 0.06, [(1400, 30, 1), (1550, 100, 0), (1700, 300, 0)],
                              tau=0.5)
    assert round(rating, 2) == 1464.05
    assert round(rd, 2) == 151.52
    assert round(vol, 6) == 0.059996  # the common step-5 mistake gives 0.059993


def test_agrees_with_an_independent_implementation_on_random_inputs(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # Both solve step 5 iteratively and stop within 1e-6 of the root in log-volatility,
    # at different points; solved tightly, they must agree to 1e-6 in every output.
    monkeypatch.setattr(algorithm, "_EPSILON", 1e-12)
    rng = random.Random(7)
    for _ in range(1000):
        r, rd, vol = rng.uniform(800, 2600), rng.uniform(30, 350), rng.uniform(0.03, 0.1)
        games = [(rng.uniform(800, 2600), rng.uniform(30, 350), rng.choice((0, 0.5, 1)))
                 for _ in range(rng.randint(1, 6))]
        ours = glicko2(r, rd, vol, games, tau=0.5, epsilon=1e-12)
        theirs = update_rating(rating_to_mu(r), rd_to_phi(rd), vol,
                               [(rating_to_mu(a), rd_to_phi(b), s) for a, b, s in games],
                               tau=0.5)
        assert ours[0] == pytest.approx(mu_to_rating(theirs.mu), abs=1e-6)
        assert ours[1] == pytest.approx(phi_to_rd(theirs.phi), abs=1e-6)
        assert ours[2] == pytest.approx(theirs.sigma, abs=1e-6)


def test_no_games_only_grows_the_rd() -> None:
    # the paper's step 6 alone: sqrt(phi^2 + sigma^2) on its scale
    assert glicko2(1500, 200, 0.06, []) == (1500, pytest.approx(200.2714, abs=1e-4), 0.06)


def test_rd_grows_with_idle_time_up_to_the_cap() -> None:
    st = Standing(rating=1700, rd=50, rated_at=0.0)
    day = POLICY.period
    assert st.current_rd(0.0) == 50
    growth = [st.current_rd(d * day) for d in (1, 30, 90, 365, 10_000)]
    assert growth == sorted(growth) and growth[0] > 50
    assert growth[-1] == POLICY.max_rd
    assert not st.provisional(30 * day) and st.provisional(365 * day)
    assert Standing().provisional(0.0)  # a newcomer is provisional ("?")


def test_a_match_moves_both_and_respects_the_bounds() -> None:
    a, b = Standing(), Standing()
    a2, b2 = rate_match(a, b, 1.0, now=100.0)
    assert a2.rating > 1500 > b2.rating and a2.rated == b2.rated == 1
    assert a2.rating - 1500 == pytest.approx(1500 - b2.rating)
    assert a2.rd < 350 and a2.rated_at == 100.0
    floor = Standing(rating=POLICY.min_rating, rd=45, rated_at=100.0)
    top = Standing(rating=POLICY.max_rating, rd=45, rated_at=100.0)
    for _ in range(50):
        floor, top = rate_match(floor, top, 0.0, now=100.0)
        assert floor.rating >= POLICY.min_rating and top.rating <= POLICY.max_rating
        assert POLICY.min_rd <= floor.rd <= POLICY.max_rd and floor.vol <= POLICY.max_vol
    drawn = rate_match(Standing(), Standing(), 0.5, now=1.0)
    assert drawn[0].rating == pytest.approx(1500) == drawn[1].rating
