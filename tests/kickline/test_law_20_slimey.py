"""Law 20.5 Slimey (Ooze), standard mode: Merge (20.5.1-20.5.2) and Spreadable (20.5.3-20.5.4).

Board 7: H1 H2 M1 M2 M3 V1 V2.  Oozes slots: 0 Goopkeeper FB 1/6, 1 Viscor D 2/5, 3 Glompex
MF 3/4, 4 Zorch PM 4/3, 6 Shpritz W 5/2, 7 Acidel S 6/1, 8 Slitheron S 6/1.  Their personal
abilities are advanced-mode only (21.1.1), so here they are plain Oozes.  The other side is the
training team, whose species has no ability.  Speed 1 throughout: the modifier is 0.
"""

from __future__ import annotations

from scenario import Match, position

import kickline
from kickline import rulings as R
from kickline.engine import advance

OT = ("oozes", "training")
TO = ("training", "oozes")


def _test(home: dict[str, str], visitors: dict[str, str], teams: tuple[str, str],
          mode: str = "standard", **kw: object) -> Match:
    """A tied dribble against a steal on M2 by h4 and v4: a skill test (6.4), dice 5 and 5."""
    s = position(home=home, visitors=visitors, ball="M2", mode=mode, teams=teams,
                 carrier="h4", **kw)  # type: ignore[arg-type]
    m = Match(s).do("action maneuver")
    if m.frame == "challenger":
        m.do("challenge v4")
    return m.do("card dribble", "card steal").roll(5, 5)


# --- 20.5.1 Merge in a maneuver skill test --------------------------------------------------


def test_20_5_1_attacking_ooze_on_the_ball_adds_its_offensive_skill() -> None:
    """20.5.1: Glompex (MF 3/4) beside the handler adds 3 to the attack, shown in the parts."""
    m = _test({"h4": "M2", "h3": "M2"}, {"v4": "M2"}, OT)
    test = m.last("skill-test")
    assert test["offense"]["merge"] == [{"player": "h3", "adds": 3, "law": "20.5.1"}]
    assert test["offense"]["total"] == 5 + 4 + 3
    assert test["defense"]["merge"] == [] and test["defense"]["total"] == 5 + 3
    assert test["winner"] == "O"


def test_20_5_1_defending_ooze_on_the_ball_adds_its_defensive_skill() -> None:
    """20.5.1: Viscor (D 2/5) beside the challenger adds 5 to the defense (no +3 outside
    advanced mode, 21.6.4)."""
    m = _test({"h4": "M2"}, {"v4": "M2", "v1": "M2"}, TO)
    test = m.last("skill-test")
    assert test["defense"]["merge"] == [{"player": "v1", "adds": 5, "law": "20.5.1"}]
    assert test["defense"]["total"] == 5 + 3 + 5
    assert test["offense"]["total"] == 5 + 4
    assert test["winner"] == "D"


def test_20_5_1_two_oozes_add_twice() -> None:
    """20.5.1: every such Ooze adds: Glompex 3 and Shpritz 5."""
    m = _test({"h4": "M2", "h3": "M2", "h6": "M2"}, {"v4": "M2"}, OT)
    off = m.last("skill-test")["offense"]
    assert [x["player"] for x in off["merge"]] == ["h3", "h6"]
    assert off["total"] == 5 + 4 + 3 + 5


def test_20_5_1_injured_ooze_adds_nothing() -> None:
    """20.5.1, 15.4: an injured Ooze on the ball adds nothing."""
    m = _test({"h4": "M2", "h3": "M2"}, {"v4": "M2"}, OT, injured=["h3"])
    off = m.last("skill-test")["offense"]
    assert off["merge"] == [] and off["total"] == 5 + 4


def test_20_5_1_a_rolling_ooze_does_not_merge_with_itself() -> None:
    """20.5.1: the two players rolling are not Merged in, on either side."""
    m = _test({"h4": "M2"}, {"v4": "M2"}, ("oozes", "oozes"))
    test = m.last("skill-test")
    assert test["offense"]["merge"] == [] and test["offense"]["total"] == 5 + 4
    assert test["defense"]["merge"] == [] and test["defense"]["total"] == 5 + 3


def test_20_5_1_oozes_off_the_ball_add_nothing() -> None:
    """20.5.1: only an Ooze standing on the ball's space merges."""
    m = _test({"h4": "M2", "h3": "M1"}, {"v4": "M2"}, OT)
    assert m.last("skill-test")["offense"]["merge"] == []


def test_20_5_1_training_mode_has_no_merge() -> None:
    """18.1.1a, 20.1.2: in training mode species is only a name; the parts keep their shape."""
    m = _test({"h4": "M2", "h3": "M2"}, {"v4": "M2", "v1": "M2"}, ("oozes", "oozes"),
              mode="training")
    test = m.last("skill-test")
    assert "merge" not in test["offense"] and "merge" not in test["defense"]
    assert test["offense"]["total"] == 5 + 4 and test["defense"]["total"] == 5 + 3


# --- 20.5.1 Merge in a contest for the ball and a High Pass contest -------------------------


def test_20_5_1_merge_in_a_contest_for_the_ball_both_sides() -> None:
    """20.5.1, 10.2: a Deflect lands on M1 where both sides stand; the side that last had it
    merges offensive skill, the other defensive skill."""
    s = position(home={"h4": "M2", "h3": "M1", "h6": "M1"},
                 visitors={"v4": "M2", "v3": "M1", "v1": "M1"}, ball="M2", mode="standard",
                 teams=("oozes", "oozes"))
    m = Match(s).do("action maneuver", "card high-pass", "card deflect")
    m.do("pick h3", "pick v3").roll(5, 5)
    con = m.last("contest")
    assert con["law"] == "10.2"
    assert con["last"]["merge"] == [{"player": "h6", "adds": 5, "law": "20.5.1"}]
    assert con["last"]["total"] == 5 + 3 + 5
    assert con["other"]["merge"] == [{"player": "v1", "adds": 5, "law": "20.5.1"}]
    assert con["other"]["total"] == 5 + 4 + 5
    assert con["winner"] == "v3" and m.owner == 1


def test_20_5_1_merge_in_a_high_pass_contest() -> None:
    """20.5.1, 10.4: a 3-space High Pass onto M3: Acidel beside the receiver adds 6."""
    s = position(home={"h4": "H2", "h6": "M3", "h7": "M3"}, visitors={"v6": "H2", "v1": "M3"},
                 ball="H2", mode="standard", teams=OT)
    m = Match(s).do("action maneuver", "card high-pass", "card steal", "throw 3", "receive h6")
    m.roll(5, 5)
    con = m.last("contest")
    assert con["law"] == "10.4"
    assert con["last"]["merge"] == [{"player": "h7", "adds": 6, "law": "20.5.1"}]
    assert con["last"]["total"] == 5 + 5 + 6
    assert con["winner"] == "h6"


# --- 20.5.2 Merge in a score attempt: the attack alone --------------------------------------


def test_20_5_2_score_attempt_merges_the_attack_only() -> None:
    """20.5.2: Shpritz on the ball adds 5 to Acidel's shot; the defending Ooze on the ball is
    counted once, in the wall (5.3.1), and the defense has no Merge."""
    s = position(home={"h7": "V1", "h6": "V1"}, visitors={"v0": "V1"}, ball="V1",
                 mode="standard", teams=("oozes", "oozes"), carrier="h7")
    m = Match(s).do("action shoot").roll(5, 9)
    shot = m.last("score-attempt")
    assert shot["attack"]["merge"] == [{"player": "h6", "adds": 5, "law": "20.5.1"}]
    assert shot["attack"]["total"] == 5 + 6 + 5
    assert shot["defense"] == {"die": 9, "wall": [{"player": "v0", "adds": 6}], "total": 15}
    assert shot["goal"] is True


# --- 20.5.3-20.5.4 Spreadable ---------------------------------------------------------------


def _stolen(mode: str, home: dict[str, str], zones: dict[str, str]) -> Match:
    """A Low Pass beaten by a Steal on M2: visitors take it to M3 and both sides run back."""
    s = position(home=home, visitors={"v4": "M2"}, ball="M2", mode=mode, teams=OT,
                 zones=zones)
    return Match(s).do("action maneuver", "card low-pass", "card steal")


def test_20_5_3_a_space_held_only_by_an_ooze_is_uncovered() -> None:
    """20.5.3, 12.4.1a: Viscor runs back into H where only Goopkeeper stands: H1 counts as
    uncovered, so both spaces are offered.  In training mode only the empty H2 is."""
    home = {"h4": "M2", "h0": "H1", "h1": "M1"}
    m = _stolen("standard", home, {"h1": "H"})
    assert m.frame == "run"
    assert m.legal(0) == ("run h1 H1", "run h1 H2")
    m.do("run h1 H1")
    assert m.space("h1") == "H1" and m.tokens("h1") == 2
    t = _stolen("training", home, {"h1": "H"})
    assert t.last("forced")["decision"] == "run h1 H2"


def test_20_5_4_a_stack_with_an_ooze_is_never_broken_up() -> None:
    """20.5.4, 12.4.1b: Glompex and Shpritz stacked on M1 with M3 empty stay put; in training
    mode one of them would have to run to M3."""
    home = {"h4": "M2", "h3": "M1", "h6": "M1"}
    m = _stolen("standard", home, {"h6": "M"})
    assert not [e for e in m.find("run-back") if e["player"].startswith("h")]
    assert m.space("h3") == "M1" and m.space("h6") == "M1"
    t = _stolen("training", home, {"h6": "M"})
    assert t.frame == "run" and t.legal(0) == ("run h3 M3", "run h6 M3")


def _choice(mode: str, arr: dict[str, str]) -> tuple[str, ...]:
    """A home Coaching Choice that has acted, over the arrangement ``arr``."""
    s = position(home=arr, visitors={"v4": "M2"}, ball="H1", mode=mode, teams=OT)
    s = s._replace(stack=(("over",), ("coach", 0, "new-play", 1, R.HALF_SUBS)))
    s, _ = advance(s)
    return kickline.legal(s, 0)


def test_20_5_3_coaching_choice_coverage_ignores_oozes() -> None:
    """20.5.3, 2.5.2, 14.8.3: two Oozes stacked on H1 with H2 empty may finish: an Ooze counts
    0 toward coverage.  In training mode the stack breaks coverage and there is no finish."""
    arr = {"h0": "H1", "h1": "H1", "h3": "M1", "h4": "M2", "h6": "V1", "h7": "V2"}
    assert "finish" in _choice("standard", arr)
    assert "finish" not in _choice("training", arr)


def test_20_5_3_an_ooze_still_covers_the_kickoff_space() -> None:
    """14.8.1, rulings 2.6 (OQ18): Spreadable is a coverage exemption only; an Ooze on M2 is
    still a body there, so leaving M2 empty is refused in every mode."""
    arr = {"h0": "H1", "h1": "H2", "h3": "M1", "h4": "M3", "h6": "V1", "h7": "V2"}
    assert "finish" not in _choice("standard", arr)
    assert "finish" in _choice("standard", {**arr, "h4": "M2"})
