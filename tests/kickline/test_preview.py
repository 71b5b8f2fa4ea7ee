"""A view rebuilds into a state that asks its seat the very same question."""

from __future__ import annotations

import random

import pytest
from harness import PAIRINGS

import kickline
from kickline.preview import state_from_view


@pytest.mark.parametrize(("mode", "matches"), [("training", 15), ("standard", 8),
                                               ("advanced", 8)])
def test_every_prompt_of_random_matches_previews_exactly(mode: str, matches: int) -> None:
    """For every decision owed in random matches on both boards: the legal list from
    the view equals the server's, and a decision's previewed events are the first
    events the real state produces.  In standard and advanced mode the 16 matches play
    every ordered pairing of the species teams once."""
    checked = 0
    for board in (7, 9):
        for seed in range(matches):
            rng = random.Random(f"preview:{board}:{seed}" if mode == "training"
                                else f"preview:{mode}:{board}:{seed}")
            config: dict[str, object] = {"board": board, "mode": mode}
            if mode != "training":
                config["teams"] = list(PAIRINGS[(board == 9) * matches + seed])
            s = kickline.new_game(config)
            while (act := kickline.to_act(s))[0] != "over":
                if act[0] == "chance":
                    s, _ = kickline.apply_chance(s, rng.choice(kickline.chance(s)[2]))
                    continue
                for seat in act[1]:
                    p = state_from_view(kickline.view(s, seat))
                    assert kickline.legal(p, seat) == kickline.legal(s, seat)
                    checked += 1
                seat = act[1][0]
                d = rng.choice(kickline.legal(s, seat))
                if not act[2]:
                    _, guessed = kickline.apply(state_from_view(kickline.view(s, seat)),
                                                seat, d)
                    _, real = kickline.apply(s, seat, d)
                    assert real[:len(guessed)] == guessed
                s, _ = kickline.apply(s, seat, d)
    assert checked > 600 * matches


def test_a_preview_never_learns_the_other_seats_secret() -> None:
    s = kickline.new_game({"board": 7})
    s, _ = kickline.apply_chance(s, "fortune")
    for d, seat in (("toss home", 0), ("skip", 0), ("skip", 1), ("action maneuver", 0)):
        s, _ = kickline.apply(s, seat, d)
    s, _ = kickline.apply(s, 0, "card high-pass")
    p = state_from_view(kickline.view(s, 1))
    assert p.secret == ("", "")
    assert kickline.legal(p, 1) == kickline.legal(s, 1)
