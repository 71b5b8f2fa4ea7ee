"""Views share the entries of players that did not change: the same values as a view
built afresh, the same objects as the last view's for unchanged players."""

from __future__ import annotations

import random

from kickline import GAME
from kickline.view import clear_caches


def test_unchanged_players_are_the_same_entry_and_every_view_is_as_if_built_afresh() -> None:
    rng = random.Random(4)
    for config in ({"mode": "training", "board": 7, "teams": ["training", "training"]},
                   {"mode": "advanced", "board": 9, "teams": ["cyborgs", "oozes"]}):
        state = GAME.setup(config)
        before = [GAME.view(state, s) for s in (0, 1, None)]
        shared = 0
        for _ in range(60):
            ta = GAME.to_act(state)
            if ta.kind == "over":
                break
            if ta.kind == "chance":
                outcomes = GAME.chance_outcomes(state)
                state, _ = GAME.apply_chance(state, rng.choice(outcomes).value)
            else:
                seat = rng.choice(ta.seats)
                state, _ = GAME.apply(state, seat, rng.choice(list(GAME.legal(state, seat))))
            now = [GAME.view(state, s) for s in (0, 1, None)]
            clear_caches()
            assert now == [GAME.view(state, s) for s in (0, 1, None)]  # built afresh
            for old, new in zip(before, now, strict=True):
                for p, q in zip(old["players"], new["players"], strict=True):
                    if p == q:  # the same player state: the very same entry
                        assert p is q
                        shared += 1
            before = [GAME.view(state, s) for s in (0, 1, None)]
        assert shared > 0
