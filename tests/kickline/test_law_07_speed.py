"""Law 7: ball speed, its modifier, what changes it, where the modifier is added."""

from __future__ import annotations

import pytest
from scenario import HOME, VISITORS, Match, position

# Board 7: H1 H2 M1 M2 M3 V1 V2.  Slots: 0 FB 1/6, 1-2 D 2/5, 3 MF 3/4, 4-5 PM 4/3, 6 W 5/2,
# 7-8 S 6/1.


@pytest.mark.parametrize("speed", range(1, 13))
def test_7_1_1_modifier_is_half_the_speed_rounded_down(speed: int) -> None:
    """7.1.1, 6.4.2b: read through a Steal's skill test (PM challenger, no MF bonus)."""
    s = position(home={"h4": "M2"}, visitors={"v4": "M2", "v0": "V2"}, ball="M2", speed=speed)
    m = Match(s).do("action maneuver", "card dribble", "card steal").roll(1, 12)
    d = m.last("skill-test")["defense"]
    assert d["speed"] == speed // 2
    assert d["total"] == 12 + 3 + speed // 2


def test_7_2_1_pressure_and_high_pass_leave_the_speed_alone() -> None:
    """7.2.1: only Low Pass (+1), Deflect (-1), Dribble and Steal (by skill) change it."""
    s = position(home={"h4": "M2", "h0": "H1"}, visitors={"v4": "M2", "v0": "V2"}, ball="M2",
                 speed=9)
    m = Match(s).do("action maneuver", "card dribble", "card pressure")
    assert m.speed == 9
    s2 = position(home={"h4": "M2", "h6": "V1"}, visitors={"v4": "M2", "v0": "V2"}, ball="M2",
                  speed=9)
    m2 = Match(s2).do("action maneuver", "card high-pass", "card steal", "throw 2",
                      "shot decline")
    assert m2.speed == 9 and m2.owner == HOME


def test_7_2_1_low_pass_adds_1_and_deflect_takes_1() -> None:
    """7.2.1, 6.5.4, 6.8.2."""
    s = position(home={"h4": "M2", "h3": "M1"}, visitors={"v4": "M2", "v0": "V2"}, ball="M2",
                 speed=6)
    assert Match(s).do("action maneuver", "card low-pass", "card pressure").speed == 7
    assert Match(s).do("action maneuver", "card high-pass", "card deflect").speed == 5


def test_7_3_1_a_turnover_resets_the_speed() -> None:
    """7.3.1, 10.7.1: a Deflect onto a lone defender hands the visitors the ball at 1."""
    s = position(home={"h4": "M2", "h0": "H1"}, visitors={"v4": "M2", "v1": "M1"}, ball="M2",
                 speed=10)
    m = Match(s).do("action maneuver", "card high-pass", "card deflect")
    assert m.owner == VISITORS and m.speed == 1


def test_7_4_1_the_attack_adds_the_modifier_to_a_score_attempt() -> None:
    """7.4.1, 5.2.2: shooting from V1 at speed 7 adds 3."""
    s = position(home={"h7": "V1"}, visitors={"v0": "V2", "v4": "M2"}, ball="V1", speed=7)
    m = Match(s).do("action shoot").roll(4, 4)
    a = m.last("score-attempt")["attack"]
    assert a["speed"] == 3 and a["total"] == 4 + 6 + 3


def test_7_4_2_no_modifier_where_the_ball_came_to_rest() -> None:
    """7.4.2, 10.2.3: a loose ball at speed 11 (after the Deflect) is contested with 0."""
    s = position(home={"h4": "M2", "h3": "H2"}, visitors={"v4": "M2", "v1": "V1"}, ball="M2",
                 speed=12)
    m = Match(s).do("action maneuver", "card high-pass", "card deflect")
    assert m.speed == 11
    m.do("send h3", "send v4").roll(1, 1)
    c = m.last("contest")
    assert c["last"]["speed"] == 0 and c["other"]["speed"] == 0
