"""Law 15: gaining tokens, becoming Exhausted, injury checks, playing injured, recovery."""

from __future__ import annotations

import pytest
from scenario import Match, position, rolling_for

import kickline
from kickline.state import parse_pid

# Board 7: H1 H2 M1 M2 M3 V1 V2.  Slots: 0 FB 1/6, 1-2 D 2/5, 3 MF 3/4, 4-5 PM 4/3, 6 W 5/2,
# 7-8 S 6/1.


@pytest.mark.parametrize(("who", "dfn"), [("h0", 6), ("h1", 5), ("h3", 4), ("h4", 3),
                                         ("h6", 2), ("h7", 1)])
def test_15_2_1_exhausted_when_tokens_exceed_defensive_skill(who: str, dfn: int) -> None:
    """15.2.1: a Fullback carries six and is fine; a Striker is Exhausted on their second."""
    for tokens, exhausted in ((dfn, False), (dfn + 1, True)):
        s = position(home={who: "M2"}, visitors={"v4": "M2"}, ball="M2",
                     tokens={who: tokens})
        assert s.exhausted(parse_pid(who)) is exhausted
        row = kickline.view(s, 0)["players"][parse_pid(who)]
        assert (row["tokens"], row["exhausted"]) == (tokens, exhausted)


def test_15_4_1_injured_is_never_exhausted_and_carries_nothing() -> None:
    """15.4.1, 2.7.4: the two conditions; an injured player is not also Exhausted."""
    s = position(home={"h7": "M2"}, visitors={"v4": "M2"}, ball="M2", injured=["h7"])
    row = kickline.view(s, 0)["players"][7]
    assert row["injured"] is True and row["exhausted"] is False and row["tokens"] == 0


def test_15_1_3_injured_runner_pays_nothing_for_a_run_back() -> None:
    """15.1.3, 12.4.3: an injured player running back adds no tokens."""
    s = position(home={"h4": "M2", "h0": "H1", "h6": "M1"}, zones={"h6": "V"},
                 arrangement={"h6": "V1"}, injured=["h6"],
                 visitors={"v4": "M2", "v0": "V2"}, ball="M2")
    m = Match(s).do("action maneuver", "card low-pass", "card steal", "run h6 V1")
    assert m.space("h6") == "V1" and m.tokens("h6") == 0
    assert not [e for e in m.find("exhaust") if e["player"] == "h6"]


def test_15_3_3_a_score_attempt_causes_no_injury_check() -> None:
    """15.3.3, 5.4.1: an Exhausted Striker shoots off a Winger set-up: 1 token after the
    roll, and no check."""
    s = position(home={"h6": "M2", "h7": "V1"}, visitors={"v4": "M2", "v0": "V2"}, ball="M2",
                 tokens={"h7": 2})
    m = Match(s).do("action maneuver", "card low-pass", "card pressure", "shot take")
    m.roll(1, 12)
    assert m.tokens("h7") == 3
    assert not m.find("injury-check")
    assert m.waiting[0] == "decide"


def test_15_3_3_an_own_goal_roll_causes_no_injury_check() -> None:
    """11.2.2, 15.3.3: the handler exhausts 1 and is not checked, Exhausted or not."""
    s = position(home={"h7": "H1", "h4": "M2"}, visitors={"v4": "H1", "v0": "V2"}, ball="H1",
                 tokens={"h7": 4})
    m = Match(s).do("action maneuver", "card dribble", "card pressure").roll(1, 1)
    assert m.tokens("h7") == 5 and not m.find("injury-check")


def test_15_3_1_both_exhausted_participants_are_checked_in_turn() -> None:
    """15.3.1: every Exhausted participant rolls; the handler first, then the challenger."""
    s = position(home={"h7": "M2", "h3": "M3"}, visitors={"v7": "M2", "v0": "V2"}, ball="M2",
                 tokens={"h7": 1, "v7": 3})
    m = Match(s).do("action maneuver", "card dribble", "card steal").roll(12, 1)
    assert rolling_for(m.state) == ("injury", "h7")
    m.roll(3)  # 3 > 2 tokens: safe
    assert rolling_for(m.state) == ("injury", "v7")
    m.roll(4)  # 4 > 4? no: injured, cleared
    assert not m.injured("h7") and m.tokens("h7") == 2
    assert m.injured("v7") and m.tokens("v7") == 0


def test_15_5_1_halftime_clears_one_each_then_one_more_by_choice() -> None:
    """15.5.1, 16.4.1 (rulings D47: visitors then home): every fielded player clears 1, never
    below 0; then each coach picks one player to clear 1 more; the bench clears nothing."""
    s = position(home={"h7": "V1", "h4": "M2", "h0": "H1"},
                 visitors={"v4": "M2", "v0": "V2", "v1": "V1"}, ball="V1",
                 minute=15, last_poss=True, tokens={"h4": 3, "h0": 2, "v4": 2, "h5": 4})
    m = Match(s).do("action shoot").roll(1, 12)
    assert m.last("halftime")["law"] == "16.4.1"
    assert m.tokens("h5") == 4  # on the bench
    assert m.tokens("v4") == 0 and m.last("extra-clear")["player"] == "v4"  # the only one
    assert m.frame == "extra_clear_ask" and m.legal(0) == ("clear h0", "clear h4")
    assert (m.tokens("h4"), m.tokens("h0"), m.tokens("h7")) == (2, 1, 0)
    m.do("clear h4")
    assert (m.tokens("h4"), m.tokens("h0")) == (1, 1)
    assert m.state.stack[-1][2] == "halftime"
