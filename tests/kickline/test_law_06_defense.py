"""Law 6.8-6.10: Deflect (Fullback 2, out-of-field set-up), Steal (speed step after the run
back), Pressure (Defender steal, own-goal risk)."""

from __future__ import annotations

import pytest
from scenario import HOME, VISITORS, Match, position, refused, rolling_for

# Board 7: H1 H2 M1 M2 M3 V1 V2; board 9: H1-H3 M1-M3 V1-V3.  Slots: 0 FB 1/6, 1-2 D 2/5,
# 3 MF 3/4, 4-5 PM 4/3, 6 W 5/2, 7-8 S 6/1.  Home attacks toward V.

# --- 6.8 Deflect --------------------------------------------------------------------------


def test_6_8_2_deflect_moves_the_ball_one_back_and_slows_it() -> None:
    """6.8.2, 6.8.4, 10.1.2: 1 space toward the offense's goal, speed -1, nobody moves;
    an empty landing space makes a loose ball."""
    s = position(home={"h4": "M2", "h0": "H1"}, visitors={"v4": "M2", "v0": "V2"}, ball="M2",
                 speed=5)
    m = Match(s).do("action maneuver", "card high-pass", "card deflect")
    d = m.last("deflect")
    assert (d["player"], d["to"], d["speed"], d["out_of_field"]) == ("v4", "M1", 4, False)
    assert m.ball == "M1" and m.speed == 4 and m.owner == -1
    assert m.space("h4") == "M2" and m.space("v4") == "M2"
    assert m.frame == "loose"


def test_6_8_4_deflect_onto_a_teammate_only_is_theirs_no_turnover() -> None:
    """6.8.4, 10.1: one side there: theirs, no contest; speed floor 1 (6.8.2)."""
    s = position(home={"h4": "M2", "h3": "M1"}, visitors={"v4": "M2", "v0": "V2"}, ball="M2",
                 speed=1)
    m = Match(s).do("action maneuver", "card high-pass", "card deflect")
    assert m.last("takes-ball")["player"] == "h3"
    assert m.owner == HOME and m.ball == "M1" and m.speed == 1
    assert not m.find("steal-turnover") and m.state.minute == 4


def test_6_8_4_deflect_onto_both_sides_is_contested_without_modifier() -> None:
    """6.8.4, 10.2.1, 10.2.3: the side that last had it adds offense, the other defense."""
    s = position(home={"h4": "M2", "h3": "M1"}, visitors={"v4": "M2", "v1": "M1"}, ball="M2",
                 speed=11)
    m = Match(s).do("action maneuver", "card high-pass", "card deflect")
    assert rolling_for(m.state) == ("contest", "h3")
    m.roll(9, 6)
    c = m.last("contest")
    assert c["last"] == {"player": "h3", "die": 9, "skill": 3, "speed": 0, "total": 12}
    assert c["other"] == {"player": "v1", "die": 6, "skill": 5, "speed": 0, "total": 11}
    assert m.owner == HOME and m.speed == 10


@pytest.mark.parametrize(("board", "to"), [(7, "H2"), (9, "H3")])
def test_6_8_3_fullback_deflects_two(board: int, to: str) -> None:
    """6.8.3 (rulings OQ17: mandatory): M2 -> two back for home."""
    s = position(board, home={"h4": "M2", "h1": to}, visitors={"v0": "M2"}, ball="M2",
                 speed=3)
    m = Match(s).do("action maneuver", "card high-pass", "card deflect")
    assert m.last("deflect")["to"] == to and m.speed == 2
    assert m.owner == HOME and m.last("takes-ball")["player"] == "h1"


def test_6_8_5_deflect_out_of_field_onto_the_deflector_is_their_set_up() -> None:
    """6.8.5: ball on home's H1, deflected out, rests on the deflector: only they may shoot;
    possession flips, speed resets (modifier 0)."""
    s = position(home={"h4": "H1", "h0": "M2"}, visitors={"v4": "H1", "v7": "H1"}, ball="H1",
                 speed=9)
    m = Match(s).do("action maneuver", "challenge v4", "card high-pass", "card deflect")
    assert m.last("deflect")["out_of_field"] is True
    assert m.frame == "setup" and m.waiting == ("decide", (1,), False)
    assert m.state.stack[-1][1] == 13  # the deflector v4, not v7
    assert m.owner == VISITORS and m.speed == 1
    m.do("shot take").roll(5, 5)
    att = m.last("score-attempt")
    assert att["player"] == "v4" and att["attack"]["speed"] == 0
    assert att["attack"]["total"] == 5 + 4


def test_6_8_5_declined_deflect_set_up_settles_on_that_space() -> None:
    """6.8.5 + rulings 1.1 row 4 / OQ10: declining settles the ball by 10.1: both sides on
    H1, so a contest; home last had it."""
    s = position(home={"h4": "H1", "h0": "M2"}, visitors={"v4": "H1"}, ball="H1", speed=9)
    m = Match(s).do("action maneuver", "card high-pass", "card deflect", "shot decline")
    assert rolling_for(m.state) == ("contest", "h4")
    m.roll(2, 2)
    c = m.last("contest")
    assert c["last"]["skill"] == 4 and c["other"]["skill"] == 3 and c["winner"] == "h4"
    assert m.owner == HOME and m.speed == 8  # the Deflect's own -1 stands (8.4.1)


def test_6_8_5_fullback_deflect_out_of_field_elsewhere_sets_up_nothing() -> None:
    """6.8.5: from H2 a Fullback's 2 runs out onto H1, not the deflector's H2: ordinary."""
    s = position(home={"h4": "H2", "h1": "H1"}, visitors={"v0": "H2", "v4": "M2"}, ball="H2",
                 speed=4)
    m = Match(s).do("action maneuver", "card high-pass", "card deflect")
    d = m.last("deflect")
    assert d["to"] == "H1" and d["out_of_field"] is True
    assert m.frame != "setup"
    assert m.last("takes-ball")["player"] == "h1" and m.owner == HOME


# --- 6.9 Steal ----------------------------------------------------------------------------


def test_6_9_2_steal_moves_challenger_back_then_run_back_then_speed_step() -> None:
    """6.9.2-6.9.4, 12.4: possession flips, speed 1, challenger and ball 1 back for the
    visitors (M2 -> M3); players run back; then the interceptor sets speed 1..1+def."""
    s = position(home={"h4": "M2", "h0": "H1"},
                 visitors={"v4": "M2", "v0": "V2", "v1": "M1"}, zones={"v1": "V"}, ball="M2",
                 speed=8)
    m = Match(s).do("action maneuver", "card low-pass", "card steal")
    assert m.last("steal") == {"t": "steal", "law": "6.9.2", "player": "v4", "to": "M3"}
    assert m.ball == "M3" and m.space("v4") == "M3" and m.owner == VISITORS
    assert m.frame == "speed" and m.speed == 1
    assert m.legal(1) == ("speed 1", "speed 2", "speed 3", "speed 4")  # PM def 3
    assert m.space("v1") == "V1" and m.tokens("v1") == 3  # ran back first (12.4.3)
    assert m.tokens("v4") == 0
    assert refused(m.state, 1, "speed 5")
    m.do("speed 4")
    types = [e["t"] for e in m.events]
    assert types.index("run-back") < types.index("speed")
    assert m.speed == 4 and m.state.minute == 4
    assert m.last("handler")["player"] == "v4"  # 6.9.4: the carrier


@pytest.mark.parametrize(("chal", "top"), [("v0", 7), ("v1", 6), ("v7", 2)])
def test_6_9_3_speed_step_is_bounded_by_defensive_skill(chal: str, top: int) -> None:
    """6.9.3: FB 1..7, D 1..6, S 1..2 (from the reset speed of 1)."""
    s = position(home={"h4": "M2", "h0": "H1"}, visitors={chal: "M2"}, ball="M2", speed=12)
    m = Match(s).do("action maneuver", "card low-pass", "card steal")
    assert m.legal(1) == tuple(sorted(f"speed {v}" for v in range(1, top + 1)))


def test_6_9_2_steal_on_the_new_possessors_own_end_stays_there() -> None:
    """6.9.2, rulings 2.2: the back step for the visitors from V2 is clamped to V2."""
    s = position(home={"h4": "V2", "h0": "M2"}, visitors={"v4": "V2"}, ball="V2", speed=3)
    m = Match(s).do("action maneuver", "card low-pass", "card steal", "speed 1")
    assert m.ball == "V2" and m.space("v4") == "V2" and m.owner == VISITORS


# --- 6.10 Pressure ------------------------------------------------------------------------


def test_6_10_2_pressure_pushes_handler_back_and_challenger_follows() -> None:
    """6.10.2: handler and ball 1 back (M2 -> M1), challenger onto the same space, no change
    of possession or speed; the handler carries it."""
    s = position(home={"h4": "M2", "h0": "H1"}, visitors={"v4": "M2", "v0": "V2"}, ball="M2",
                 speed=6)
    m = Match(s).do("action maneuver", "card dribble", "card pressure")
    assert m.last("pressure")["to"] == "M1"
    assert m.ball == "M1" and m.space("h4") == "M1" and m.space("v4") == "M1"
    assert m.owner == HOME and m.speed == 6 and m.tokens("v4") == 0
    assert m.last("handler") == {"t": "handler", "law": "4.2.1", "player": "h4", "carrier": True}
    assert m.state.minute == 4


@pytest.mark.parametrize(("board", "start", "to"), [(7, "M2", "M3"), (9, "M3", "V1")])
def test_6_10_2_pressure_on_the_visitors_pushes_toward_v(board: int, start: str, to: str) -> None:
    """2.2, 6.10.2: back for the visitors is toward the V end."""
    s = position(board, home={"h4": start}, visitors={"v4": start, "v0": "H1"}, ball=start,
                 owner=VISITORS)
    m = Match(s).do("action maneuver", "card dribble", "card pressure")
    assert m.ball == to and m.space("v4") == to and m.space("h4") == to
    assert m.owner == VISITORS


def test_6_10_4_defender_pressure_also_steals() -> None:
    """6.10.4, 4.2.2e, 7.3.1: the Defender takes the ball on the pushed-to space, speed 1."""
    s = position(home={"h4": "M2", "h0": "H1"}, visitors={"v1": "M2", "v0": "V2"}, ball="M2",
                 speed=6)
    m = Match(s).do("action maneuver", "card dribble", "card pressure")
    assert m.last("steal")["law"] == "6.10.4"
    assert m.owner == VISITORS and m.ball == "M1" and m.speed == 1
    assert not m.find("speed")  # no speed step: that is the Steal card's (6.9.3)
    assert m.last("handler")["player"] == "v1"


@pytest.mark.parametrize(("dice", "avoided"), [((3, 2), True), ((2, 1), False)])
def test_6_10_3_pressure_on_the_own_end_risks_an_own_goal_instead(
    dice: tuple[int, int], avoided: bool
) -> None:
    """6.10.3-6.10.4, 11.2: nowhere to push: own-goal roll (higher die + off >= 7), which
    takes priority over the Defender's steal; the roller exhausts 1."""
    s = position(home={"h4": "H1", "h3": "M2"}, visitors={"v1": "H1", "v0": "V2"}, ball="H1")
    m = Match(s).do("action maneuver", "card dribble", "card pressure")
    assert m.last("own-goal-risk")["player"] == "h4"
    assert rolling_for(m.state) == ("own-goal", "h4")
    m.roll(*dice)
    r = m.last("own-goal-roll")
    assert r["total"] == max(dice) + 4 and r["avoided"] is avoided
    assert not m.find("steal")
    assert m.space("h4") == "H1" and m.tokens("h4") == 1
    assert m.last("new-play")["kind"] == ("own-goal-avoided" if avoided else "own-goal")


def test_6_8_2_deflect_against_the_visitors_goes_toward_v_on_board_9() -> None:
    """2.2.2, 6.8.2-6.8.3 on board 9: the visitors' back is V; a Fullback sends M3 -> V2."""
    s = position(9, home={"h0": "M3", "h4": "M2"}, visitors={"v4": "M3", "v1": "V2"},
                 ball="M3", owner=VISITORS, speed=2)
    m = Match(s).do("action maneuver", "card high-pass", "card deflect")
    assert m.last("deflect")["to"] == "V2" and m.speed == 1
    assert m.last("takes-ball")["player"] == "v1" and m.owner == VISITORS
