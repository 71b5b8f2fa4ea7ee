"""Law 19.1.2 and the 19.4 note: the thirty-six pairings of six offensive and six
defensive cards when both coaches hold gambits.  Rank alone decides, the cycle is
unchanged; twenty-four pairings are decisive and twelve are ties carrying nothing."""

from __future__ import annotations

import itertools

import pytest
from scenario import Match, position

OFFENSE = ("low-pass", "dribble", "high-pass", "skilled-pass", "dribble-burst", "setup-pass")
DEFENSE = ("deflect", "steal", "pressure", "clear", "intercept", "double-team")
RANK = {"low-pass": 1, "dribble": 2, "high-pass": 3, "skilled-pass": 1, "dribble-burst": 2,
        "setup-pass": 3, "deflect": 1, "steal": 2, "pressure": 3, "clear": 1, "intercept": 2,
        "double-team": 3}
BASIC = {"skilled-pass": "low-pass", "dribble-burst": "dribble", "setup-pass": "high-pass",
         "clear": "deflect", "intercept": "steal", "double-team": "pressure"}
# 6.3 as the rulebook prints it, by name (19.5.1-19.10.1 add each gambit to its rank).
BASIC_BEATS = {("low-pass", "pressure"), ("dribble", "deflect"), ("high-pass", "steal"),
               ("deflect", "high-pass"), ("steal", "low-pass"), ("pressure", "dribble")}


def expected_winner(o: str, d: str) -> str:
    bo, bd = BASIC.get(o, o), BASIC.get(d, d)
    if RANK[o] == RANK[d]:
        return "T"
    if (bo, bd) in BASIC_BEATS:
        return "O"
    assert (bd, bo) in BASIC_BEATS
    return "D"


def both_hold() -> Match:
    # Home trails on goals, the visitors field more hurt (v0 injured): both hold gambits.
    s = position(home={"h4": "M2", "h0": "H1", "h3": "M3", "h6": "V1"},
                 visitors={"v4": "M2", "v0": "V2", "v3": "M1"},
                 ball="M2", score=(0, 1), injured=["v0"], mode="advanced",
                 teams=("training", "training"))
    return Match(s).do("action maneuver")


PAIRS = list(itertools.product(OFFENSE, DEFENSE))


def test_the_note_twenty_four_decisive_twelve_ties() -> None:
    outcomes = [expected_winner(o, d) for o, d in PAIRS]
    assert len(PAIRS) == 36
    assert outcomes.count("T") == 12
    assert outcomes.count("O") + outcomes.count("D") == 24


@pytest.mark.parametrize(("o", "d"), PAIRS, ids=[f"{o}-v-{d}" for o, d in PAIRS])
def test_each_pairing(o: str, d: str) -> None:
    m = both_hold()
    m.do(f"card {o}", f"card {d}")
    want = expected_winner(o, d)
    assert m.last("reveal")["winner"] == want
    if want == "T":
        m.roll(12, 1)  # the handler wins the test
        resolves = m.last("resolves")
        # A tie carries nothing either way: the card resolves as its basic maneuver.
        assert resolves["card"] == BASIC.get(o, o)
        assert not m.find("beaten")
        return
    resolves = m.last("resolves")
    winner, loser = (o, d) if want == "O" else (d, o)
    assert resolves["card"] == winner  # the card that won on the cards resolves as played
    beaten = [e["card"] for e in m.find("beaten")]
    assert beaten == ([loser] if loser in BASIC else [])
