"""kickline.odds: exact odds read off the dice, equal to counting the dice by hand."""

from __future__ import annotations

import os
import random
from pathlib import Path
from typing import Any

import pytest
from odds_cases import cases, main

import kickline
from kickline.odds import after, decision_odds
from kickline.preview import state_from_view

HERE = Path(__file__).resolve().parent


def _count(first: int, second: int) -> tuple[int, int]:
    """(wins, losses) of `die + first` against `die + second` over the 144 pairs."""
    wins = sum(a + first > b + second for a in range(1, 13) for b in range(1, 13))
    losses = sum(a + first < b + second for a in range(1, 13) for b in range(1, 13))
    return wins, losses


def _play_to(mode: str, frame: str, seed: int) -> tuple[kickline.State, int]:
    """A training-mode prompt with `frame` on top, from a seeded random match."""
    rng = random.Random(seed)
    for _ in range(200):
        s = kickline.new_game({"mode": mode, "board": 7})
        while (act := kickline.to_act(s))[0] != "over":
            if act[0] == "chance":
                s, _ = kickline.apply_chance(s, rng.choice(kickline.chance(s)[2]))
                continue
            seat = act[1][0]
            if s.stack[-1][0] == frame and (frame != "action" or
                                            "action shoot" in kickline.legal(s, seat)):
                return s, seat
            s, _ = kickline.apply(s, seat, rng.choice(kickline.legal(s, seat)))
    raise AssertionError(f"no {frame} prompt found")


def test_a_shot_scores_as_often_as_the_dice_say() -> None:
    for seed in range(4):
        s, seat = _play_to("training", "action", seed)
        odds = after(s, seat, [(seat, "action shoot")])
        assert odds is not None and odds.what == "score-attempt"
        # One real shot tells the fixed parts: what the attack adds, what the wall adds.
        t, _ = kickline.apply(s, seat, "action shoot")
        t, _ = kickline.apply_chance(t, "1")
        _, events = kickline.apply_chance(t, "1")
        shot = next(e for e in events if e["t"] == "score-attempt")
        bonus = shot["attack"]["total"] - shot["attack"]["die"]
        wall = shot["defense"]["total"] - shot["defense"]["die"]
        goals = sum(a + bonus >= b + wall for a in range(1, 13) for b in range(1, 13))
        assert odds.p.numerator * 144 == goals * odds.p.denominator, (odds, goals)
        assert odds.undecided == 0


def test_a_tied_card_goes_to_a_skill_test_with_the_counted_odds() -> None:
    checked = 0
    for seed in range(6):
        s, seat = _play_to("training", "cards_secret", seed)
        table = decision_odds(s, seat)
        assert set(table) == set(kickline.legal(s, seat))
        other = 1 - seat
        for mine, row in table.items():
            for r in row["against"]:
                if r["result"] != "test":
                    continue
                # Roll one real test to read each side's bonus, then count the dice.
                t, _ = kickline.apply(s, seat, mine)
                t, _ = kickline.apply(t, other, f"card {r['card']}")
                while kickline.to_act(t)[0] == "chance":
                    t, events = kickline.apply_chance(t, "5")
                    test = next((e for e in events if e["t"] == "skill-test"), None)
                    if test:
                        break
                assert test is not None
                o = test["offense"]["total"] - test["offense"]["die"]
                d = test["defense"]["total"] - test["defense"]["die"]
                offense = s.side_of(seat) == s.turn.side
                wins, losses = _count(o, d) if offense else _count(d, o)
                assert r["odds"]["num"] * (wins + losses) == wins * r["odds"]["den"], (r, wins)
                checked += 1
    assert checked >= 6


def test_the_odds_know_only_what_the_seat_sees() -> None:
    """The other side's secret card changes nothing: odds come from the seat's view."""
    seen = 0
    for seed in range(4):
        s, seat = _play_to("training", "cards_secret", seed)
        other = 1 - seat
        before = decision_odds(state_from_view(kickline.view(s, seat)), seat)
        for card in kickline.legal(s, other):
            t, _ = kickline.apply(s, other, card)
            if kickline.to_act(t)[1] != (seat,):
                continue
            assert decision_odds(state_from_view(kickline.view(t, seat)), seat) == before
            seen += 1
    assert seen > 0


def test_every_mode_gives_odds_for_its_prompts() -> None:
    got: dict[str, int] = {}
    for view, seat in cases(per_mode=4):
        odds = decision_odds(state_from_view(view), seat)
        mode = view["config"]["mode"]
        for value in odds.values():
            rows: list[dict[str, Any]] = value.get("against", [value])
            for r in rows:
                o = r.get("odds", r) if "against" in value else r
                if o and "p" in o:
                    assert 0 <= o["p"] <= 1
                    got[mode] = got.get(mode, 0) + 1
    assert set(got) == {"training", "standard", "advanced"}, got


@pytest.mark.pyodide
def test_pyodide_computes_the_same_odds_and_search_decisions(
        capsys: pytest.CaptureFixture[str]) -> None:
    from pyodide_runner import pyodide_unavailable_reason, run_in_pyodide

    reason = pyodide_unavailable_reason()
    if reason is not None:
        if os.environ.get("CI"):
            pytest.fail(f"{reason}; CI must run the Pyodide tests")
        pytest.skip(reason)
    main()
    expected = capsys.readouterr().out
    proc = run_in_pyodide(HERE / "odds_cases.py", timeout=300, cwd=HERE)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == expected
