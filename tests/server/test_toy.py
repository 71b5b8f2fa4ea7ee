"""The toy ruleset honours the hosting contract the server relies on."""

from __future__ import annotations

import random

import pytest

from kickline_server import toy
from kickline_server.core import sample

G = toy.GAME


def play(seed: int) -> toy.State:
    rng = random.Random(seed)
    s = G.setup({"board": 7})
    for _ in range(10_000):
        ta = G.to_act(s)
        if ta.kind == "over":
            return s
        if ta.kind == "chance":
            value, _ = sample(rng, G.chance_outcomes(s))
            s2, _ = G.apply_chance(s, value)
        else:
            seat = ta.seats[0]
            s2, _ = G.apply(s, seat, rng.choice(list(G.legal(s, seat))), version=s.version)
        assert G.version(s2) == G.version(s) + 1
        assert G.from_plain(G.to_plain(s2)) == s2
        s = s2
    raise AssertionError("did not finish")


@pytest.mark.parametrize("seed", range(20))
def test_random_playthroughs_finish_with_a_result(seed: int) -> None:
    s = play(seed)
    result = G.result(s)
    assert result is not None
    assert set(result) >= {"winner", "score"}


def test_secret_choice_is_hidden_from_the_other_seat_until_revealed() -> None:
    s = G.setup({})
    s, ev = G.apply(s, 0, "sprint", version=0)
    assert G.redact(ev, 1) == [{"e": "chose", "seat": 0}]
    assert G.redact(ev, None) == [{"e": "chose", "seat": 0}]
    assert G.redact(ev, 0) == ev
    assert G.view(s, 1)["choices"] == ["hidden", None]
    assert G.view(s, 0)["choices"] == ["sprint", None]
    # The other seat's choice made on the phase's first version is still current.
    s, ev = G.apply(s, 1, "jog", version=0)
    assert ev[-1] == {"e": "reveal", "choices": ["sprint", "jog"]}
    assert G.to_act(s).kind == "chance"


def test_errors_are_value_errors_and_change_nothing() -> None:
    s = G.setup({})
    with pytest.raises(toy.MalformedDecision):
        G.apply(s, 0, "Sprint!")
    with pytest.raises(toy.IllegalDecision):
        G.apply(s, 0, "walk")
    s1, _ = G.apply(s, 0, "jog")
    with pytest.raises(toy.IllegalDecision):
        G.apply(s1, 0, "jog")
    with pytest.raises(toy.StaleVersion):
        G.apply(s1, 1, "jog", version=7)
    assert s == G.setup({})


@pytest.mark.parametrize("config", [{"board": 2}, {"board": "7"}, {"mode": "advanced"},
                                    {"colour": 1}, {"rounds": 0}])
def test_bad_config_is_refused(config: dict[str, object]) -> None:
    with pytest.raises(ValueError):
        G.setup(config)


def test_bots_pick_legal_decisions() -> None:
    s = G.setup({})
    for name, bot in toy.BOTS.items():
        for seat in (0, 1):
            assert bot(G.view(s, seat), G.legal(s, seat), random.Random(1)) in CHOICES, name


CHOICES = toy.CHOICES
