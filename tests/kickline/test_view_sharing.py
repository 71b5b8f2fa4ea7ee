"""Views share the entries of players that did not change: the same values as a view
built afresh, the same objects as the last view's for unchanged players."""

from __future__ import annotations

import random
from itertools import pairwise
from typing import Any

from kickline import GAME
from kickline.state import State
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


_SETTINGS = [
    {"mode": mode, "board": board, "teams": teams}
    for board in (7, 9)
    for mode, teams in (("training", ["training", "training"]),
                        ("standard", ["oozes", "fire-demons"]),
                        ("advanced", ["cyborgs", "telekinetics"]))
]


def _playout(config: dict[str, Any], rng: random.Random, steps: int) -> list[State]:
    state = GAME.setup(config)
    states = [state]
    for _ in range(steps):
        ta = GAME.to_act(state)
        if ta.kind == "over":
            break
        if ta.kind == "chance":
            state, _ = GAME.apply_chance(state, rng.choice(GAME.chance_outcomes(state)).value)
        else:
            seat = rng.choice(ta.seats)
            state, _ = GAME.apply(state, seat, rng.choice(list(GAME.legal(state, seat))))
        states.append(state)
    return states


def test_views_taken_in_any_order_equal_views_built_afresh() -> None:
    """Views are built from each match's last viewed state: whatever was viewed before
    (other matches, other settings, an older state of the same match, the same state
    again), a view equals the one built with every cache cleared."""
    rng = random.Random(15)
    matches = [_playout(config, rng, 400) for config in _SETTINGS for _ in range(2)]
    # Two matches on one config object share the per-match memory: still exact.
    twin = GAME.setup(_SETTINGS[0])
    matches.append([twin, *_playout(_SETTINGS[0], rng, 200)[1:]])
    fresh: dict[tuple[int, int, int | None], Any] = {}
    for m, states in enumerate(matches):
        for k, state in enumerate(states):
            for seat in (0, 1, None):
                clear_caches()
                fresh[m, k, seat] = GAME.view(state, seat)
    clear_caches()
    at = [0] * len(matches)
    checked = 0
    for _ in range(6000):
        m = rng.randrange(len(matches))
        move = rng.random()
        if move < 0.75:  # mostly on, as a host views a match
            at[m] = min(at[m] + 1, len(matches[m]) - 1)
        elif move < 0.85:
            at[m] = rng.randrange(len(matches[m]))  # an older (or later) state
        seats: list[int | None] = [0, 1, None]
        rng.shuffle(seats)
        for seat in seats[:rng.randint(1, 3)]:
            assert GAME.view(matches[m][at[m]], seat) == fresh[m, at[m], seat]
            checked += 1
    assert checked > 6000


def test_a_seats_view_hides_the_other_sides_secret_choice_whatever_was_viewed() -> None:
    """The hidden-information guarantee does not rest on the order of views: a seat's
    view of a state where only the other side has chosen in secret never holds that
    choice, also right after the other seat's view of the same state or the next."""
    rng = random.Random(16)
    seen = 0
    for config in _SETTINGS:
        states = _playout(config, rng, 600)
        for before, state in pairwise(states):
            chosen = [side for side in (0, 1) if state.secret[side]]
            if state.home_seat < 0 or len(chosen) != 1:
                continue
            side = chosen[0]
            other_seat = state.seat_of(1 - side)
            GAME.view(before, state.seat_of(side))
            GAME.view(state, state.seat_of(side))
            view = GAME.view(state, other_seat)
            assert view["secret"]["mine"] is None
            assert state.secret[side] not in repr(view)
            seen += 1
    assert seen > 0
