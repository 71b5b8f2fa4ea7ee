"""Law 21 personal abilities, advanced mode: the Oozes (21.6.1-21.6.4, 21.6.7), Flickerwing
(21.3.5) and Emberdash's Dribble Advance (21.3.4).

Board 7: H1 H2 M1 M2 M3 V1 V2.  Oozes slots: 0 Goopkeeper FB 1/6, 1 Viscor D 2/5, 3 Glompex
MF 3/4, 4 Zorch PM 4/3, 6 Shpritz W 5/2, 7 Acidel S 6/1, 8 Slitheron S 6/1.  Fire Demons:
4 Emberdash PM 4/3, 6 Flickerwing W 5/2.  The other side is the training team.  Speed 1
throughout (modifier 0), and no Fire Demon die shows 6 or 7 (20.2 ignite).
"""

from __future__ import annotations

from scenario import Match, position, refused

OT = ("oozes", "training")
TO = ("training", "oozes")
ADV = "advanced"


# --- 21.6.1 Glompex joins the ball (D11) ----------------------------------------------------


def test_21_6_1_glompex_may_join_the_ball_and_merges() -> None:
    """21.6.1: after the challenger is in place and before the cards, Glompex next to the ball
    may exhaust 1 to move onto it, where Merge counts their offensive skill."""
    s = position(home={"h7": "M2", "h3": "M1"}, visitors={"v4": "M2"}, ball="M2", mode=ADV,
                 teams=OT)
    m = Match(s).do("action maneuver")
    assert m.last("challenger")["player"] == "v4"
    assert m.frame == "glompex" and m.legal(0) == ("join no", "join yes")
    assert refused(m.state, 1, "join yes")
    m.do("join yes")
    assert m.last("glompex-joins") == {"t": "glompex-joins", "law": "21.6.1", "player": "h3",
                                       "frm": "M1", "to": "M2"}
    assert m.space("h3") == "M2" and m.tokens("h3") == 1
    assert m.frame == "cards_secret"
    m.do("card dribble", "card steal").roll(5, 5)
    off = m.last("skill-test")["offense"]
    assert off["merge"] == [{"player": "h3", "adds": 3, "law": "20.5.1"}]
    assert off["total"] == 5 + 6 + 3


def test_21_6_1_declining_leaves_glompex_where_it_stands() -> None:
    s = position(home={"h7": "M2", "h3": "M3"}, visitors={"v4": "M2"}, ball="M2", mode=ADV,
                 teams=OT)
    m = Match(s).do("action maneuver", "join no")
    assert m.space("h3") == "M3" and m.tokens("h3") == 0 and not m.find("glompex-joins")
    assert m.frame == "cards_secret"


def test_21_6_1_offense_first_when_both_sides_have_a_glompex() -> None:
    """21.6.1, D11 RULING: the offense's Glompex is asked first, then the defense's (who
    joins the defense and merges defensive skill)."""
    s = position(home={"h7": "M2", "h3": "M1"}, visitors={"v4": "M2", "v3": "M3"}, ball="M2",
                 mode=ADV, teams=("oozes", "oozes"))
    m = Match(s).do("action maneuver")
    assert m.waiting == ("decide", (0,), False)
    m.do("join no")
    assert m.waiting == ("decide", (1,), False) and m.legal(1) == ("join no", "join yes")
    m.do("join yes", "card dribble", "card steal").roll(5, 5)
    test = m.last("skill-test")
    assert test["defense"]["merge"] == [{"player": "v3", "adds": 4, "law": "20.5.1"}]
    assert test["offense"]["merge"] == []


def test_21_6_1_not_offered_unchallenged_nor_when_far_nor_outside_advanced() -> None:
    """21.6.1: only against a challenge, only from next to the ball, only in advanced mode."""
    s = position(home={"h7": "M2", "h3": "M1"}, visitors={"v0": "V2"}, ball="M2", mode=ADV,
                 teams=OT)
    m = Match(s).do("action maneuver", "send none")
    assert m.frame == "card_solo"
    s = position(home={"h7": "M2", "h3": "H2"}, visitors={"v4": "M2"}, ball="M2", mode=ADV,
                 teams=OT)
    assert Match(s).do("action maneuver").frame == "cards_secret"
    s = position(home={"h7": "M2", "h3": "M1"}, visitors={"v4": "M2"}, ball="M2",
                 mode="standard", teams=OT)
    assert Match(s).do("action maneuver").frame == "cards_secret"


def test_21_6_1_glompex_handling_the_ball_is_not_offered() -> None:
    """21.6.1: Glompex must not be one of the two players."""
    s = position(home={"h3": "M2"}, visitors={"v4": "M2", "v3": "M3"}, ball="M2", mode=ADV,
                 teams=("oozes", "oozes"))
    m = Match(s).do("action maneuver")
    assert m.frame == "glompex" and m.waiting == ("decide", (1,), False)  # only v3's


# --- 21.6.2 Goopkeeper blocks in full -------------------------------------------------------


def _shot_at_goopkeeper(mode: str, goop: str) -> dict[str, object]:
    s = position(home={"h7": "M3"}, visitors={"v0": goop, "v1": "V2"}, ball="M3", mode=mode,
                 teams=TO)
    return Match(s).do("action shoot").roll(5, 2).last("score-attempt")


def test_21_6_2_goopkeeper_adds_full_skill_anywhere_between_ball_and_goal() -> None:
    """21.6.2: Goopkeeper (def 6) on V1, between the ball and the goal, adds 6, not 3; Viscor
    (def 5) there still adds half, 3."""
    shot = _shot_at_goopkeeper(ADV, "V1")
    assert shot["defense"] == {"die": 2, "total": 11,
                               "wall": [{"player": "v0", "adds": 6},
                                        {"player": "v1", "adds": 3}]}


def test_21_6_2_goopkeeper_behind_the_ball_adds_nothing() -> None:
    shot = _shot_at_goopkeeper(ADV, "M2")
    assert shot["defense"]["wall"] == [{"player": "v1", "adds": 3}]


def test_21_6_2_goopkeeper_outside_advanced_mode_adds_half() -> None:
    shot = _shot_at_goopkeeper("standard", "V1")
    assert shot["defense"]["wall"][0] == {"player": "v0", "adds": 3}


# --- 21.6.3 Slitheron wins every contest ----------------------------------------------------


def _deflect_onto(home: dict[str, str], visitors: dict[str, str], teams: tuple[str, str],
                  mode: str = ADV, **kw: object) -> Match:
    """h4 handles on M2 against v4; the Deflect wins on the cards and lands the ball on M1."""
    s = position(home={"h4": "M2", **home}, visitors={"v4": "M2", **visitors}, ball="M2",
                 mode=mode, teams=teams, **kw)  # type: ignore[arg-type]
    return Match(s).do("action maneuver", "card high-pass", "card deflect")


def test_21_6_3_slitheron_takes_the_contest_without_a_roll() -> None:
    """21.6.3: a Deflect lands on Slitheron and an opponent: Slitheron takes the ball, nothing
    is rolled and the exhausted opponent owes no injury check."""
    m = _deflect_onto({"h8": "M1"}, {"v3": "M1"}, OT, tokens={"v3": 6})
    assert m.last("slitheron") == {"t": "slitheron", "law": "21.6.3", "player": "h8",
                                   "contest": "10.2"}
    assert m.last("takes-ball")["player"] == "h8" and m.owner == 0
    assert not m.find("roll") and not m.find("contest") and not m.find("injury-check")


def test_21_6_3_slitheron_on_defense_takes_it_too() -> None:
    m = _deflect_onto({"h3": "M1"}, {"v8": "M1"}, TO)
    assert m.last("takes-ball")["player"] == "v8" and m.owner == 1 and not m.find("roll")


def test_21_6_3_slitheron_against_slitheron_rolls_as_usual() -> None:
    """21.6.3: against another player with the same ability the contest is rolled."""
    m = _deflect_onto({"h8": "M1"}, {"v8": "M1"}, ("oozes", "oozes")).roll(5, 4)
    assert not m.find("slitheron")
    con = m.last("contest")
    assert con["last"]["player"] == "h8" and con["other"]["player"] == "v8"
    assert con["winner"] == "h8"


def test_21_6_3_slitheron_outside_advanced_mode_rolls() -> None:
    m = _deflect_onto({"h8": "M1"}, {"v3": "M1"}, OT, mode="standard").roll(2, 5)
    assert not m.find("slitheron") and m.last("contest")["winner"] == "v3"


def test_21_6_3_slitheron_wins_a_high_pass_contest() -> None:
    """21.6.3: a High Pass contest (10.4) is a contest for the ball too."""
    s = position(home={"h4": "H2", "h8": "M3"}, visitors={"v6": "H2", "v1": "M3"}, ball="H2",
                 mode=ADV, teams=OT)
    m = Match(s).do("action maneuver", "card high-pass", "card steal", "throw 3")
    assert m.last("slitheron")["contest"] == "10.4"
    assert m.last("takes-ball")["player"] == "h8" and not m.find("roll")


# --- 21.6.4 Viscor merges harder ------------------------------------------------------------


def test_21_6_4_viscor_merges_three_more() -> None:
    """21.6.4: Viscor (def 5) merging on the defense adds 5 + 3."""
    s = position(home={"h4": "M2"}, visitors={"v4": "M2", "v1": "M2"}, ball="M2", mode=ADV,
                 teams=TO)
    m = Match(s).do("action maneuver", "challenge v4", "card dribble", "card steal").roll(5, 5)
    d = m.last("skill-test")["defense"]
    assert d["merge"] == [{"player": "v1", "adds": 8, "law": "21.6.4"}]
    assert d["total"] == 5 + 3 + 8


def test_21_6_4_injured_viscor_adds_nothing() -> None:
    s = position(home={"h4": "M2"}, visitors={"v4": "M2", "v1": "M2"}, ball="M2", mode=ADV,
                 teams=TO, injured=["v1"])
    m = Match(s).do("action maneuver", "challenge v4", "card dribble", "card steal").roll(5, 5)
    assert m.last("skill-test")["defense"]["merge"] == []


# --- 21.6.7 Acidel turns a pressure into a shot (D35) ---------------------------------------


def _acidel(mode: str = ADV) -> Match:
    """Home's handler on H1, its own end; Acidel's Pressure beats the Dribble."""
    s = position(home={"h4": "H1", "h0": "H2"}, visitors={"v7": "H1", "v0": "V2"}, ball="H1",
                 mode=mode, teams=TO)
    return Match(s).do("action maneuver", "card dribble", "card pressure")


def test_21_6_7_acidel_shoots_instead_of_the_own_goal_roll() -> None:
    """21.6.7, rulings 1.1 row 12: no own-goal roll; Acidel's side takes the ball at speed 1
    and Acidel may shoot from H1 (a set-up: Striker +3, modifier 0)."""
    m = _acidel()
    assert m.last("acidel") == {"t": "acidel", "law": "21.6.7", "player": "v7", "space": "H1"}
    assert not m.find("own-goal-risk")
    assert m.frame == "setup" and m.legal(1) == ("shot decline", "shot take")
    m.do("shot take").roll(5, 8)
    shot = m.last("score-attempt")
    assert shot["player"] == "v7" and shot["setup"] is True
    assert shot["attack"]["total"] == 5 + 6 + 0 + 3
    assert shot["defense"]["wall"] == [{"player": "h4", "adds": 3}]  # on the ball; h0 behind
    assert shot["goal"] is True and m.state.score == (0, 1)


def test_21_6_7_declined_acidel_keeps_the_ball_as_a_steal() -> None:
    """21.6.7: declining leaves Acidel's side holding the ball where it stands; rulings 1.1:
    a steal, with Acidel the carrier who does not run back."""
    m = _acidel().do("shot decline")
    assert not m.find("score-attempt")
    assert m.last("steal-turnover")["side"] == 1
    assert m.owner == 1 and m.ball == "H1" and m.speed == 1
    assert m.last("handler") == {"t": "handler", "law": "4.2.1", "player": "v7", "carrier": True}


def test_21_6_7_acidel_of_a_lasting_double_team_takes_the_ball_where_it_is() -> None:
    """21.6.7 with 19.10.4 (RULING_ACIDEL_FROM_A_LASTING_DOUBLE_TEAM): the Double Team's
    challenger Acidel (v7) challenges from H2, where it stands; its Pressure on H1, the
    handler's own end, is Acidel's scoring opportunity from H1, so Acidel takes the ball
    there, and declining it leaves Acidel holding it on H1 for the next turn."""
    s = position(home={"h4": "H1", "h0": "H2"}, visitors={"v7": "H2", "v3": "M1", "v0": "V2"},
                 ball="H1", mode=ADV, teams=TO)
    s = s._replace(turn=s.turn._replace(double=9 + 7, partner=9 + 3))
    m = Match(s).do("action maneuver", "card dribble", "card pressure")
    assert m.last("acidel") == {"t": "acidel", "law": "21.6.7", "player": "v7", "space": "H1"}
    assert m.space("v7") == "H1" and m.frame == "setup"
    m.do("shot decline")
    assert m.owner == 1 and m.space("v7") == m.ball == "H1"
    assert m.last("handler") == {"t": "handler", "law": "4.2.1", "player": "v7", "carrier": True}


def test_21_6_7_outside_advanced_mode_the_own_goal_is_rolled() -> None:
    m = _acidel("standard")
    assert m.last("own-goal-risk")["player"] == "h4" and not m.find("acidel")


# --- 21.3.5 Flickerwing, 21.3.4 Emberdash ---------------------------------------------------


def _flickerwing(mode: str) -> dict[str, object]:
    s = position(home={"h6": "M3"}, visitors={"v4": "M3", "v0": "V1"}, ball="M3", mode=mode,
                 teams=("fire-demons", "training"), carrier="h6")
    return Match(s).do("action shoot").roll(5, 2).last("score-attempt")


def test_21_3_5_flickerwing_shoots_past_the_wall() -> None:
    """21.3.5: only defenders on the ball's space add: v4 (def 3) on M3, not v0 on V1."""
    shot = _flickerwing(ADV)
    assert shot["defense"]["wall"] == [{"player": "v4", "adds": 3}]
    assert _flickerwing("standard")["defense"]["wall"] == [
        {"player": "v0", "adds": 3}, {"player": "v4", "adds": 3}]


def test_21_3_4_emberdash_dribbles_up_to_three() -> None:
    """21.3.4: Emberdash's Dribble Advance goes up to 3 spaces (a Playmaker's 2 otherwise)."""
    def options(mode: str) -> tuple[str, ...]:
        s = position(home={"h4": "H2"}, visitors={"v0": "V2"}, ball="H2", mode=mode,
                     teams=("fire-demons", "training"))
        return Match(s).do("action maneuver", "send none", "card dribble").legal(0)
    assert options(ADV) == ("dribble 1", "dribble 2", "dribble 3")
    assert options("standard") == ("dribble 1", "dribble 2")


def test_21_3_5_goopkeeper_in_the_way_of_flickerwing_adds_nothing() -> None:
    """21.3.5 over 21.6.2 (docs/RULINGS.md Part II): Flickerwing's shot counts only defenders
    standing on the ball's space, so Goopkeeper between the ball and the goal adds nothing."""
    s = position(home={"h6": "M3"}, visitors={"v1": "M3", "v0": "V1"}, ball="M3", mode=ADV,
                 teams=("fire-demons", "oozes"), carrier="h6")
    shot = Match(s).do("action shoot").roll(5, 2).last("score-attempt")
    assert shot["defense"]["wall"] == [{"player": "v1", "adds": 5}]


def test_21_6_7_acidel_s_double_team_into_the_own_end_is_a_shot_too() -> None:
    """21.6.7 with 19.10.3: the Double Team half. The visitors trail 0-1, so Acidel (v7)
    may play a Double Team; it beats the Dribble on the handler's own end, and instead of
    the own-goal roll Acidel's side takes the ball at speed 1 for Acidel's set-up."""
    s = position(home={"h4": "H1", "h0": "H2"}, visitors={"v7": "H1", "v0": "V2"}, ball="H1",
                 mode=ADV, teams=TO, score=(1, 0))
    m = Match(s).do("action maneuver", "card dribble", "card double-team")
    assert m.last("acidel")["player"] == "v7" and not m.find("own-goal-risk")
    assert m.frame == "setup" and m.legal(1) == ("shot decline", "shot take")
