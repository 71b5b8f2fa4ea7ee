"""Law 20.2 Volatile (Fire Demon): a natural 6 or 7 on the die ignites a second d12."""

from __future__ import annotations

from scenario import Match, position, rolling_for, skill_test_duel

# Board 7: H1 H2 M1 M2 M3 V1 V2.  Fire Demons by slot: 0 Ashwall FB, 1 Blazebulk D,
# 3 Scorchit MF, 4 Emberdash PM 4/3, 5 Sizzifizik PM, 7 Brightburn S 6/1, 8 Kindlefinger S.
# The training team plays no ability in any mode (its species is only "Trainee").
FD_VS_TRAINEES = ("fire-demons", "training")


def _duel(mode: str = "standard", teams: tuple[str, str] = FD_VS_TRAINEES,
          hand: str = "h4", chal: str = "v4", **kw: object) -> Match:
    """Handler and challenger alone on M2; the cards tie (Dribble v Steal) into a test."""
    return skill_test_duel(teams, hand=hand, chal=chal, mode=mode, **kw)


def test_20_2_1a_a_blaze_adds_the_second_die() -> None:
    """20.2.1a: a natural 6 rolls a second d12; 5-12 is a blaze and is added."""
    m = _duel().roll(6)
    assert rolling_for(m.state) == ("ignite", "h4")
    m.roll(9, 5)
    ev = m.last("ignite")
    assert (ev["law"], ev["player"], ev["face"], ev["second"], ev["kind"]) == (
        "20.2.1", "h4", 6, 9, "blaze")
    off = m.last("skill-test")["offense"]
    assert (off["die"], off["ignite"], off["second"], off["total"]) == (6, "blaze", 9, 19)
    assert m.last("skill-test")["winner"] == "O"


def test_20_2_1b_a_burn_subtracts_the_second_die() -> None:
    """20.2.1b: a natural 7 with a second die of 1-4 is a burn and is subtracted."""
    m = _duel().roll(7, 3, 2)
    off = m.last("skill-test")["offense"]
    assert (off["ignite"], off["second"], off["total"]) == ("burn", 3, 7 + 4 - 3)
    assert m.last("ignite")["kind"] == "burn"


def test_20_2_1_only_the_natural_face_ignites_not_the_total() -> None:
    """20.2.1: "the die's own face, before any skill": 3 + skill 4 = 7 does not ignite,
    nor does an 8; the test goes straight to the challenger's die."""
    for face in (3, 8, 5, 12):
        m = _duel().roll(face)
        assert rolling_for(m.state) == ("test", "v4"), face
        m.roll(1)
        assert not m.find("ignite")
        assert m.last("skill-test")["offense"]["ignite"] == ""


def test_20_2_2_the_second_die_never_ignites() -> None:
    """20.2.2: one reroll however it falls: a second die of 6 or 7 is only a number."""
    m = _duel().roll(6, 7)
    assert rolling_for(m.state) == ("test", "v4")
    m.roll(5)
    assert len(m.find("ignite")) == 1
    assert m.last("skill-test")["offense"]["total"] == 6 + 4 + 7


def test_20_2_3_both_fire_demons_each_check_their_own_die() -> None:
    """20.2.3: two Fire Demons rolling: each ignites on their own die only."""
    m = _duel(teams=("fire-demons", "fire-demons")).roll(6, 10)
    assert rolling_for(m.state) == ("test", "v4")
    m.roll(7)
    assert rolling_for(m.state) == ("ignite", "v4")
    m.roll(2)
    assert [(e["player"], e["kind"]) for e in m.find("ignite")] == [("h4", "blaze"),
                                                                   ("v4", "burn")]
    test = m.last("skill-test")
    assert test["offense"]["total"] == 6 + 4 + 10
    assert test["defense"]["total"] == 7 + 3 - 2


def test_20_2_3_the_challengers_ignite_is_only_theirs() -> None:
    """20.2.3: the handler's 6 ignites nothing for a non-Fire Demon opponent."""
    m = _duel(teams=("training", "fire-demons")).roll(6)
    assert rolling_for(m.state) == ("test", "v4")
    m.roll(6, 8)
    assert [e["player"] for e in m.find("ignite")] == ["v4"]


def test_20_2_3_an_injury_check_never_ignites() -> None:
    """20.2.3: a natural 6 on an injury check is only a 6."""
    m = _duel(hand="h7", tokens={"h7": 1}).roll(12, 1)  # h7 now 2 tokens > def 1
    assert rolling_for(m.state) == ("injury", "h7")
    m.roll(6)
    assert not m.find("ignite")
    check = m.last("injury-check")
    assert (check["die"], check["injured"]) == (6, False)


def test_20_2_3_an_own_goal_roll_never_ignites() -> None:
    """20.2.3, 11.2: both own-goal dice may show 6 and 7; neither ignites."""
    s = position(home={"h7": "H1", "h4": "M2"}, visitors={"v4": "H1", "v0": "V2"}, ball="H1",
                 mode="standard", teams=FD_VS_TRAINEES)
    m = Match(s).do("action maneuver", "card dribble", "card pressure").roll(6, 7)
    assert not m.find("ignite")
    roll = m.last("own-goal-roll")
    assert (roll["dice"], roll["total"], roll["avoided"]) == ([6, 7], 7 + 6, True)


def test_20_2_3_the_shooters_die_ignites_in_a_score_attempt() -> None:
    """20.2.3: the shooter's die in a score attempt; the defense's die is nobody's."""
    s = position(home={"h7": "V1", "h0": "H1"}, visitors={"v0": "V2", "v1": "M3"}, ball="V1",
                 mode="standard", teams=("fire-demons", "fire-demons"))
    m = Match(s).do("action shoot").roll(7)
    assert rolling_for(m.state) == ("ignite", "h7")
    m.roll(10, 6)  # the defense's 6 is nobody's die and ignites nothing
    attack = m.last("score-attempt")["attack"]
    assert (attack["ignite"], attack["second"], attack["total"]) == ("blaze", 10, 7 + 6 + 10)
    assert len(m.find("ignite")) == 1


def test_20_2_3_a_contest_for_the_ball_ignites() -> None:
    """20.2.3, 10.2: a Deflect drops the ball on M1 where both sides stand; the contest
    die of the Fire Demon ignites like a test die."""
    s = position(home={"h4": "M2", "h3": "M1", "h0": "H1"},
                 visitors={"v4": "M2", "v3": "M1", "v0": "V2"}, ball="M2",
                 mode="standard", teams=FD_VS_TRAINEES)
    m = Match(s).do("action maneuver", "card high-pass", "card deflect").roll(6)
    assert rolling_for(m.state) == ("ignite", "h3")
    m.roll(9, 4)
    contest = m.last("contest")
    assert (contest["last"]["ignite"], contest["last"]["total"]) == ("blaze", 6 + 3 + 9)
    assert contest["winner"] == "h3"


def test_18_1_1a_training_mode_never_ignites() -> None:
    """18.1.1a, 20.1.2: in training mode a Fire Demon is only a name on the card."""
    m = _duel(mode="training").roll(6)
    assert rolling_for(m.state) == ("test", "v4")
    m.roll(5)
    assert not m.find("ignite")
    assert "ignite" not in m.last("skill-test")["offense"]
