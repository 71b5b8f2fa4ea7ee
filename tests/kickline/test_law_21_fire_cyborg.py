"""Law 21: the personal abilities that change a die or its tokens (advanced mode only).

Blazebulk 21.3.1, Sizzifizik 21.3.2, Brightburn 21.3.3 (its token clear), Kindlefinger
21.3.7, Bulwark 21.4.1, Voltus 21.4.2, Gearclaw 21.4.3, Strider 21.4.4, Umbrik 21.5.5,
Zorch 21.6.6.  Each is checked against standard mode, where it does not apply.
"""

from __future__ import annotations

from scenario import Match, position, rolling_for, skill_test_duel

from kickline.state import parse_pid

# Board 7: H1 H2 M1 M2 M3 V1 V2.  Slots: 0 FB 1/6, 1 D 2/5, 3 MF 3/4, 4-5 PM 4/3,
# 7-8 S 6/1.  Fire Demons: 1 Blazebulk, 5 Sizzifizik, 7 Brightburn, 8 Kindlefinger.
# Cyborgs: 0 Bulwark, 1 Voltus, 3 Strider, 4 Gearclaw.  Oozes: 4 Zorch.
# Telekinetics: 0 Umbrik.  The training team plays no ability.


def _duel(teams: tuple[str, str], hand: str = "h4", chal: str = "v4",
          mode: str = "advanced", cards: tuple[str, str] = ("dribble", "steal"),
          **kw: object) -> Match:
    """Handler and challenger alone on M2; the cards tie into a skill test."""
    return skill_test_duel(teams, hand=hand, chal=chal, mode=mode, cards=cards, **kw)


FD = ("fire-demons", "training")
CY = ("training", "cyborgs")


def test_21_3_1_blazebulk_always_blazes() -> None:
    """21.3.1: Blazebulk's second die of 2 is added, not subtracted."""
    m = _duel(FD, hand="h1").roll(6, 2, 1)
    ev = m.last("ignite")
    assert (ev["law"], ev["kind"]) == ("21.3.1", "blaze")
    assert m.last("skill-test")["offense"]["total"] == 6 + 2 + 2
    m = _duel(FD, hand="h1", mode="standard").roll(6, 2, 1)
    assert m.last("skill-test")["offense"]["total"] == 6 + 2 - 2


def test_21_3_2_sizzifizik_ignites_on_5_to_8() -> None:
    """21.3.2: a natural 5 or 8 ignites Sizzifizik's die; a 4 or 9 does not."""
    for face, ignites in ((5, True), (8, True), (4, False), (9, False)):
        m = _duel(FD, hand="h5").roll(face)
        assert (rolling_for(m.state)[0] == "ignite") is ignites, face
    m = _duel(FD, hand="h5", mode="standard").roll(5)
    assert rolling_for(m.state) == ("test", "v4")


def test_21_3_3_every_burn_clears_a_token_from_brightburn() -> None:
    """21.3.3: Brightburn's burn clears 1 token (the tier part waits for gambits)."""
    m = _duel(FD, hand="h7", tokens={"h7": 3}).roll(7, 2, 1)
    clear = m.last("clear")
    assert (clear["law"], clear["player"], clear["tokens"]) == ("21.3.3", "h7", 3)
    assert m.tokens("h7") == 3
    m = _duel(FD, hand="h7", tokens={"h7": 3}, mode="standard").roll(7, 2, 1)
    assert not m.find("clear") and m.tokens("h7") == 4


def test_21_3_7_kindlefingers_injury_check_ignites_and_a_burn_token_decides_it() -> None:
    """21.3.7: the check ignites; a burn exhausts 1 before the comparison: 6 - 1 = 5
    against 4 tokens would be safe, against the burn's 5 it is an injury."""
    m = _duel(FD, hand="h8", tokens={"h8": 3}).roll(12, 1)
    assert rolling_for(m.state) == ("injury", "h8")
    m.roll(6)
    assert rolling_for(m.state) == ("ignite", "h8")
    m.roll(1)
    check = m.last("injury-check")
    assert (check["ignite"], check["total"], check["tokens"], check["injured"]) == (
        "burn", 5, 5, True)
    assert [e for e in m.find("exhaust") if e["law"] == "21.3.7"]


def test_21_3_7_kindlefingers_blaze_clears_a_token() -> None:
    """21.3.7: a blaze clears 1 token and adds the second die to the check."""
    m = _duel(FD, hand="h8", tokens={"h8": 3}).roll(12, 1, 7, 9)
    check = m.last("injury-check")
    assert (check["ignite"], check["total"], check["tokens"], check["injured"]) == (
        "blaze", 16, 3, False)
    assert m.last("clear")["law"] == "21.3.7"


def test_21_3_7_in_standard_mode_kindlefingers_check_is_only_a_number() -> None:
    """20.2.3: without the personal ability the injury check never ignites."""
    m = _duel(FD, hand="h8", tokens={"h8": 3}, mode="standard").roll(12, 1, 6)
    assert not m.find("ignite") and m.last("injury-check")["injured"] is False


def test_21_4_1_bulwark_is_drained_at_10() -> None:
    """21.4.1: Bulwark (def 6) is Drained at 10, not 7; in standard mode at 7."""
    for tokens, advanced, standard in ((6, False, False), (7, False, True),
                                       (9, False, True), (10, True, True)):
        for mode, want in (("advanced", advanced), ("standard", standard)):
            s = position(home={"h4": "M2"}, visitors={"v0": "M2"}, ball="M2", mode=mode,
                         teams=CY, tokens={"v0": tokens})
            assert s.exhausted(parse_pid("v0")) is want, (tokens, mode)


def test_21_4_2_voltus_overdrives_for_2() -> None:
    """21.4.2: the same +5 for 2 drain."""
    m = _duel(CY, chal="v1").do("declare overdrive")
    assert m.last("overdrive")["drain"] == 2 and m.tokens("v1") == 1 + 2
    assert m.last("exhaust")["law"] == "21.4.2"
    m.roll(5, 5)
    assert m.last("skill-test")["defense"]["total"] == 5 + 5 + 5


def test_21_4_3_gearclaw_may_boost_overdrive_or_both() -> None:
    """21.4.3: Boost drains 1 for +3, independently of Overdrive; both drain 4 for +8."""
    m = _duel(CY)
    assert m.legal(1) == ("declare boost", "declare both", "declare none", "declare overdrive")
    m.do("declare both")
    assert m.tokens("v4") == 1 + 3 + 1
    m.roll(5, 5)
    d = m.last("skill-test")["defense"]
    assert (d["overdrive"], d["boost"], d["total"]) == (5, 3, 5 + 3 + 8)
    m = _duel(CY).do("declare boost")
    assert m.tokens("v4") == 1 + 1
    m.roll(5, 5)  # (then the steal's run back charges v4 up by 1, 20.3.7)
    assert m.last("skill-test")["defense"]["total"] == 5 + 3 + 3
    assert m.last("boost")["law"] == "21.4.3"
    assert _duel(CY, mode="standard").legal(1) == ("declare none", "declare overdrive")


def _strider_steal(arr: str, **kw: object) -> Match:
    """Visitors' Strider (v3) on M1 or V1, zone V; v4 steals on M2."""
    s = position(home={"h4": "M2", "h0": "H1"}, visitors={"v4": "M2", "v3": arr, "v0": "V2"},
                 zones={"v3": "V"}, arrangement={"v3": "V1"}, ball="M2", mode="advanced",
                 teams=CY, **kw)  # type: ignore[arg-type]
    return Match(s).do("action maneuver", "card low-pass", "card steal")


def test_21_4_4_strider_charges_up_2() -> None:
    """21.4.4: a still Strider clears 2 drain on a run back."""
    m = _strider_steal("V1", tokens={"v3": 3})
    assert m.tokens("v3") == 1 and m.last("clear")["law"] == "21.4.4"


def test_21_4_4_a_run_back_drains_strider_1_at_most() -> None:
    """21.4.4: Strider runs M1 -> V1, three spaces, for 1 drain, and charges nothing;
    in standard mode the same run costs 3."""
    m = _strider_steal("M1", tokens={"v3": 3})
    assert m.space("v3") == "V1" and m.tokens("v3") == 4
    assert not [e for e in m.find("clear") if e["player"] == "v3"]
    s = position(home={"h4": "M2", "h0": "H1"}, visitors={"v4": "M2", "v3": "M1", "v0": "V2"},
                 zones={"v3": "V"}, arrangement={"v3": "V1"}, ball="M2", mode="standard",
                 teams=CY, tokens={"v3": 3})
    m2 = Match(s).do("action maneuver", "card low-pass", "card steal")
    assert m2.tokens("v3") == 6


def test_21_6_6_zorch_adds_the_speed_modifier_to_every_roll_once() -> None:
    """21.6.6: Zorch handling adds the modifier (speed 6: 3); the challenger's Steal adds
    it as always.  Zorch stealing already counts it and adds nothing more."""
    oozes = ("oozes", "training")
    m = _duel(oozes, speed=6).roll(5, 5)
    test = m.last("skill-test")
    assert (test["offense"]["zorch"], test["offense"]["total"]) == (3, 5 + 4 + 3)
    assert test["defense"]["speed"] == 3
    m = _duel(("training", "oozes"), speed=6).roll(5, 5)
    d = m.last("skill-test")["defense"]
    assert (d["speed"], d["zorch"], d["total"]) == (3, 0, 5 + 3 + 3)
    m = _duel(oozes, speed=6, mode="standard").roll(5, 5)
    assert m.last("skill-test")["offense"]["total"] == 5 + 4


def test_21_6_6_zorch_adds_it_to_an_own_goal_roll() -> None:
    """21.6.6, 11.2: Zorch pushed back on their own last space adds the modifier."""
    s = position(home={"h4": "H1", "h0": "H2"}, visitors={"v4": "H1", "v0": "V2"}, ball="H1",
                 speed=6, mode="advanced", teams=("oozes", "training"))
    m = Match(s).do("action maneuver", "card dribble", "card pressure").roll(1, 1)
    roll = m.last("own-goal-roll")
    assert (roll["zorch"], roll["total"]) == (3, 1 + 4 + 3)


def test_21_5_5_umbrik_uses_defensive_skill_on_own_goal_rolls() -> None:
    """21.5.5: Umbrik (1/6) adds 6 to the own-goal roll: two 1s still avoid it."""
    for mode, total in (("advanced", 1 + 6), ("standard", 1 + 1)):
        s = position(home={"h0": "H1", "h4": "M2"}, visitors={"v4": "H1", "v0": "V2"},
                     ball="H1", mode=mode, teams=("telekinetics", "training"))
        m = Match(s).do("action maneuver", "card dribble", "card pressure").roll(1, 1)
        roll = m.last("own-goal-roll")
        assert (roll["skill"], roll["total"]) == (total - 1, total), mode


def test_21_5_5_umbrik_uses_defensive_skill_on_the_test_over_their_own_high_pass() -> None:
    """21.5.5: the skill test over Umbrik's High Pass is played on defence (6)."""
    m = _duel(("telekinetics", "training"), hand="h0", cards=("high-pass", "pressure"))
    m.roll(1, 1)
    assert m.last("skill-test")["offense"]["skill"] == 6
    m = _duel(("telekinetics", "training"), hand="h0", cards=("dribble", "steal")).roll(1, 1)
    assert m.last("skill-test")["offense"]["skill"] == 1


def test_21_6_6_zorch_adds_it_to_an_injury_check() -> None:
    """21.6.6, 15.3: a 4 against 4 tokens would injure; Zorch's +3 (speed 6) saves it."""
    m = _duel(("oozes", "training"), tokens={"h4": 3}, speed=6).roll(12, 1)
    assert rolling_for(m.state) == ("injury", "h4")
    m.roll(4)
    check = m.last("injury-check")
    assert (check["zorch"], check["total"], check["injured"]) == (3, 7, False)
