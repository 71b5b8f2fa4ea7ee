"""Laws 5 and 8 (with 7.4-7.5): score attempts, the wall, set-ups, the Striker and the
shooter's token (rulings 1.1, 1.6 row 7, 1.7, 2.4)."""

from __future__ import annotations

from typing import Any

import pytest
from scenario import Match, position

import kickline
from kickline.board import HOME, VISITORS


def _walls(m: Match) -> dict[str, int]:
    return {w["player"]: w["adds"] for w in m.last("score-attempt")["defense"]["wall"]}


def _shot(m: Match) -> dict[str, Any]:
    return m.last("score-attempt")


# --- Law 5: the ordinary score attempt ----------------------------------------------
def test_5_2_ordinary_shot_arithmetic_and_equal_totals_score() -> None:
    """5.2.2: die + offensive skill + speed modifier, no Striker bonus off open play;
    5.3.1-5.3.3: full skill on the ball, half rounded up in front, nothing behind;
    5.2.3: equal totals score; 5.4: free for the shooter and 1 space minute."""
    m = Match(position(home={"h7": "V1", "h4": "M2"},
                       visitors={"v1": "V1", "v0": "V2", "v3": "M3", "v4": "M2"},
                       ball="V1", speed=7, minute=8))
    m.do("action shoot").roll(4, 5)
    shot = _shot(m)
    assert shot["attack"] == {"die": 4, "skill": 6, "speed": 3, "striker": 0, "total": 13}
    assert _walls(m) == {"v1": 5, "v0": 3}  # v3 and v4 are behind the ball: not listed
    assert shot["defense"]["total"] == 5 + 5 + 3 == 13
    assert shot["goal"] is True and shot["setup"] is False
    assert m.state.score == (1, 0)
    assert m.last("goal")["minute"] == 9 and m.last("goal")["period"] == 1
    assert not m.find("exhaust") and m.tokens("h7") == 0  # 5.4.1
    assert m.state.minute == 8  # charged after the restart's Choices (4.4.3)
    m.do("skip")
    assert m.state.minute == 9


def test_5_2_3_attack_one_short_misses() -> None:
    """5.2.3: the attack needs a total equal to or higher than the defense's."""
    m = Match(position(home={"h7": "V1"}, visitors={"v1": "V1", "v0": "V2"}, ball="V1",
                       speed=7))
    m.do("action shoot").roll(4, 6)
    assert _shot(m)["attack"]["total"] == 13 and _shot(m)["defense"]["total"] == 14
    assert _shot(m)["goal"] is False and m.state.score == (0, 0)
    assert m.last("miss")["side"] == HOME


def test_5_3_4_halving_is_per_player_not_over_the_group() -> None:
    """5.3.4: two Defenders of 5 in the way add 3 + 3 = 6, not half of 10."""
    m = Match(position(home={"h4": "M3"}, visitors={"v1": "V1", "v2": "V2"}, ball="M3"))
    m.do("action shoot").roll(1, 1)
    assert _walls(m) == {"v1": 3, "v2": 3}
    assert _shot(m)["defense"]["total"] == 1 + 6


@pytest.mark.parametrize(("who", "adds"), [
    ("v0", 3), ("v1", 3), ("v3", 2), ("v4", 2), ("v6", 1), ("v7", 1),
])
def test_5_3_2_half_rounded_up_for_every_role(who: str, adds: int) -> None:
    """5.3.2: FB 6->3, D 5->3, MF 4->2, PM 3->2, W 2->1, S 1->1."""
    m = Match(position(home={"h4": "M3"}, visitors={who: "V2"}, ball="M3"))
    m.do("action shoot").roll(1, 1)
    assert _walls(m) == {who: adds}


def test_5_3_visitors_shoot_toward_h_board_9() -> None:
    """5.3 (rulings 2.4), board 9: for the visitors 'between the ball and the goal' is the
    lower-numbered spaces; M1 is in their range (2.3)."""
    m = Match(position(9, home={"h0": "H1", "h1": "H3", "h3": "M1", "h4": "M2", "h7": "V3"},
                       visitors={"v7": "M1"}, ball="M1", owner=VISITORS, speed=5))
    m.do("action shoot").roll(3, 2)
    assert _walls(m) == {"h0": 3, "h1": 3, "h3": 4}  # h4 on M2 and h7 are behind
    assert _shot(m)["attack"] == {"die": 3, "skill": 6, "speed": 2, "striker": 0, "total": 11}
    assert _shot(m)["defense"]["total"] == 12 and _shot(m)["goal"] is False


def test_5_5_2_goal_restarts_from_the_conceding_sides_kickoff_space() -> None:
    """5.5.1-5.5.2: a goal is a new play; the conceders kick off from M2 at speed 1 with
    nobody carrying it, and everyone resets to their arrangement first."""
    m = Match(position(home={"h7": "V1", "h4": "M2"},
                       visitors={"v4": "V1", "v0": "V2"}, ball="V1", speed=9,
                       arrangement={"v4": "M2"}, zones={"v4": "M"}))
    m.do("action shoot").roll(12, 1)
    assert m.last("new-play") == {"t": "new-play", "law": "12.5", "kind": "goal",
                                  "side": VISITORS, "space": "M2"}
    assert (m.ball, m.owner, m.speed) == ("M2", VISITORS, 1)
    assert m.space("v4") == "M2" and m.space("h7") == "V1"
    m.do("skip")
    assert not m.find("send")  # 5.5.2: nothing further is owed


@pytest.mark.parametrize("board", [7, 9])
def test_5_5_3_miss_goes_to_the_defenders_own_end_with_a_pickup(board: int) -> None:
    """5.5.3, 10.6: after a miss the defenders restart on the space closest to their own goal;
    nobody of theirs stands there after the reset, so their nearest must walk in and pay."""
    end = "V2" if board == 7 else "V3"
    m = Match(position(board, home={"h7": "V1"}, visitors={"v1": "V1", "v4": "M2"},
                       ball="V1", speed=4, minute=5))
    m.do("action shoot").roll(1, 12)
    assert m.last("new-play")["space"] == end
    assert (m.ball, m.owner, m.speed) == (end, VISITORS, 1)
    m.do("skip")  # the visitors' new-play Choice
    send = m.last("send")
    assert send["player"] == "v1" and send["to"] == end  # only the nearest in front (9.2.2)
    assert m.tokens("v1") == {7: 1, 9: 2}[board]  # V1 to the end: one space or two
    assert m.state.minute == 6  # the shot's minute; the pickup costs no time
    assert m.owner == VISITORS and m.frame == "action"


# --- Law 8 and 7.4-7.5: set-ups -------------------------------------------------------
def _winger_pass(to: str, home: dict[str, str], speed: int = 6) -> Match:
    m = Match(position(home=home, visitors={"v0": "V2", "v1": "V1", "v4": "M2"}, ball="M2",
                       speed=speed))
    m.do("action maneuver", "card low-pass", "card pressure")
    if m.frame == "pass_to":  # one destination alone is taken automatically
        m.do(f"pass {to}")
    assert m.last("pass")["to"] == to
    return m


def test_8_2_winger_low_pass_sets_up_a_striker_with_plus_3() -> None:
    """6.5.6, 8.2 row 1, 5.2.2, 8.3.1: the Striker shoots off the Winger's pass with the
    speed after the pass's +1, adds 3, exhausts 1 after the roll; the shot costs +1 (8.5.1)."""
    m = _winger_pass("h7", {"h6": "M2", "h7": "M3", "h4": "M1"}, speed=6)
    assert m.frame == "setup" and m.legal(0) == ("shot decline", "shot take")
    assert m.speed == 7
    m.do("shot take").roll(5, 6)
    shot = _shot(m)
    assert shot["setup"] is True and shot["player"] == "h7"
    assert shot["attack"] == {"die": 5, "skill": 6, "speed": 3, "striker": 3, "total": 17}
    assert _walls(m) == {"v0": 3, "v1": 3}  # v4 stayed on M2, behind the ball on M3
    assert shot["defense"]["total"] == 12
    exhaust = m.last("exhaust")
    assert exhaust == {"t": "exhaust", "law": "5.4.1", "player": "h7", "n": 1, "tokens": 1}
    types = [e["t"] for e in m.events]
    assert types.index("score-attempt") < types.index("exhaust")  # after the roll
    assert m.last("goal")["minute"] == 3 + 2
    m.do("skip")
    assert m.state.minute == 5  # Low Pass 1 + the shot 1


def test_8_3_1_shooter_exhausts_even_on_a_miss_and_non_striker_gets_no_bonus() -> None:
    """8.3.1, 5.4.1: the token is owed goal or miss; only a Striker adds 3."""
    m = _winger_pass("h4", {"h6": "M2", "h4": "M3"}, speed=1)
    m.do("shot take").roll(1, 12)
    shot = _shot(m)
    assert shot["attack"] == {"die": 1, "skill": 4, "speed": 1, "striker": 0, "total": 6}
    assert shot["goal"] is False and m.tokens("h4") == 1


def test_8_2_winger_set_up_on_a_shared_space_pass() -> None:
    """6.5.6: any of the three distances, the shared space included; the passer steps on
    (6.5.3) and the wall is read from the receiver's space."""
    m = Match(position(home={"h6": "M3", "h7": "M3"}, visitors={"v4": "M3", "v0": "V2"},
                       ball="M3", speed=2))
    m.do("handler h6", "action maneuver", "card low-pass", "card pressure")
    assert m.last("pass")["to"] == "h7"
    assert m.space("h6") == "V1" and m.ball == "M3" and m.speed == 3
    m.do("shot take").roll(2, 2)
    assert _walls(m) == {"v4": 3, "v0": 3}
    assert _shot(m)["attack"]["total"] == 2 + 6 + 1 + 3


def test_8_1_2_winger_pass_out_of_range_sets_up_nothing() -> None:
    """8.1.2, 6.5.6: the pass back to M1 is out of range: no set-up, receiver carries."""
    m = Match(position(home={"h6": "M3", "h7": "M1"}, visitors={"v4": "M3", "v0": "V2"},
                       ball="M3"))
    m.do("action maneuver", "card low-pass", "card pressure")
    assert m.last("pass")["to"] == "h7" and m.ball == "M1"
    assert not m.find("set-up-taken") and m.frame != "setup"
    assert m.last("handler")["player"] == "h7" and m.frame == "action"


def test_8_2_only_a_winger_low_pass_sets_up() -> None:
    """6.5.6, rulings 1.1: a Playmaker's Low Pass into range is not a set-up."""
    m = Match(position(home={"h4": "M2", "h7": "M3"}, visitors={"v4": "M2", "v0": "V2"},
                       ball="M2"))
    m.do("action maneuver", "card low-pass", "card pressure")
    assert m.last("pass")["to"] == "h7"
    assert m.frame == "action" and m.last("handler")["player"] == "h7"
    assert m.legal(0) == ("action maneuver", "action shoot")  # an ordinary shot next turn


def test_8_4_1_declined_set_up_costs_nothing_and_the_receiver_carries() -> None:
    """8.4.1, 4.2.2b: declining costs no token and no time; the receiver keeps the ball."""
    m = _winger_pass("h7", {"h6": "M2", "h7": "M3"}, speed=3)
    m.do("shot decline")
    assert m.last("set-up-declined")["player"] == "h7"
    assert m.tokens("h7") == 0 and m.state.minute == 4  # the Low Pass's 1 only
    assert m.ball == "M3" and m.owner == HOME and m.speed == 4
    assert m.last("handler") == {"t": "handler", "law": "4.2.1", "player": "h7",
                                 "carrier": True}


def test_8_2_received_2_space_high_pass_in_range_board_9() -> None:
    """6.7.3, 10.4.1, rulings 1.1 row 2: a received 2-space pass in range is a set-up, with
    the speed unchanged and the modifier added; High Pass 2 + shot 1 minutes."""
    m = Match(position(9, home={"h4": "M2", "h7": "V1"}, visitors={"v0": "V3", "v4": "M2",
                                                                   "v1": "V1"},
                       ball="M2", speed=8))
    m.do("action maneuver", "card high-pass", "card steal", "throw 2")
    assert m.last("takes-ball")["player"] == "h7"  # received despite v1 there (10.4.1)
    assert not m.find("contest")
    assert m.frame == "setup" and m.speed == 8
    m.do("shot take").roll(3, 4)
    assert _shot(m)["attack"] == {"die": 3, "skill": 6, "speed": 4, "striker": 3, "total": 16}
    assert _walls(m) == {"v1": 5, "v0": 3}
    assert _shot(m)["defense"]["total"] == 12
    m.do("skip")
    assert m.state.minute == 3 + 3


@pytest.mark.parametrize(("board", "frm", "to"), [(7, "H2", "M2"), (9, "H3", "M2")])
def test_6_7_3_two_space_pass_short_of_range_is_received_without_a_shot(
    board: int, frm: str, to: str
) -> None:
    """6.7.3, 8.1.2: the range rule takes away the shot, not the catch."""
    m = Match(position(board, home={"h1": frm, "h7": to}, visitors={"v0": frm}, ball=frm))
    m.do("action maneuver", "card high-pass", "card steal", "throw 2")
    assert m.last("takes-ball")["player"] == "h7" and m.ball == to
    assert m.frame == "action" and m.last("handler")["player"] == "h7"


def test_8_2_three_space_high_pass_is_no_set_up() -> None:
    """10.4.1, rulings 1.1 (non-set-ups): a 3+ pass onto a teammate goes to the contest."""
    m = Match(position(9, home={"h4": "M2", "h7": "V2"}, visitors={"v4": "M2", "v0": "V2"},
                       ball="M2", speed=4))
    m.do("action maneuver", "card high-pass", "card steal", "throw 3")
    assert m.frame == "roll" and not m.find("set-up-taken")
    m.roll(9, 2)
    contest = m.last("contest")
    assert contest["last"]["speed"] == 2  # 10.4.3: the thrower adds the modifier
    assert contest["winner"] == "h7"


def test_7_5_1_overshoot_shot_subtracts_the_modifier() -> None:
    """6.7.4, 7.5.1, rulings 1.1 row 3: from one space out every throw lands on V2; the
    teammate there may shoot with the modifier against, Striker +3 still added."""
    m = Match(position(home={"h4": "V1", "h7": "V2"}, visitors={"v1": "V1", "v0": "V2"},
                       ball="V1", speed=7))
    m.do("action maneuver", "card high-pass", "card steal")
    assert m.last("overshoot")["frm"] == "V1"
    assert m.frame == "setup" and m.legal(0) == ("shot decline", "shot take")
    m.do("shot take").roll(6, 3)
    assert _shot(m)["attack"] == {"die": 6, "skill": 6, "speed": -3, "striker": 3, "total": 12}
    assert _walls(m) == {"v0": 6}  # v1 on V1 is behind the ball
    assert _shot(m)["goal"] is True and m.tokens("h7") == 1
    m.do("skip")
    assert m.state.minute == 3 + 2 + 1


def test_8_4_2_declining_the_overshoot_takes_the_contest_with_the_modifier_against() -> None:
    """8.4.2, 10.4.3, 7.5.1: declining the overshoot shot means the High Pass contest, and the
    modifier still counts against the thrower's side."""
    m = Match(position(home={"h4": "V1", "h7": "V2"}, visitors={"v1": "V1", "v0": "V2"},
                       ball="V1", speed=12))
    m.do("action maneuver", "card high-pass", "card steal", "shot decline")
    m.roll(10, 4)
    contest = m.last("contest")
    assert contest["last"] == {"player": "h7", "die": 10, "skill": 6, "speed": -6, "total": 10}
    assert contest["other"] == {"player": "v0", "die": 4, "skill": 6, "speed": 0, "total": 10}
    assert contest["winner"] == "tie"
    assert m.tokens("h7") == 1 and m.tokens("v0") == 1  # 10.2.2: the tie's re-roll costs


def test_6_7_5_thrown_from_the_last_space_comes_down_on_a_teammate_there() -> None:
    """6.7.4-6.7.5: from V2 the ball comes straight back down; the teammate on V2 (never the
    passer) gets the overshoot choice."""
    m = Match(position(home={"h4": "V2", "h7": "V2"}, visitors={"v0": "V2"}, ball="V2",
                       speed=4))
    m.do("handler h4", "action maneuver", "card high-pass", "card steal")
    assert m.last("receiver")["player"] == "h7"
    m.do("shot take").roll(5, 1)
    assert _shot(m)["player"] == "h7" and _shot(m)["attack"]["speed"] == -2
    assert _walls(m) == {"v0": 6}


def test_6_8_5_deflect_out_of_field_sets_up_the_deflector_only() -> None:
    """6.8.5, rulings 1.1 row 4: the ball runs out onto the deflector's own space; possession
    flips for the shot, speed resets to 1 (modifier 0) and only the deflector may shoot,
    a Striker adding 3. Deflect 1 + shot 1 minutes."""
    m = Match(position(home={"h0": "H1", "h3": "M1"},
                       visitors={"v7": "H1", "v6": "H1", "v0": "V2"}, ball="H1", speed=7))
    m.do("action maneuver", "challenge v7", "card high-pass", "card deflect")
    assert m.last("deflect")["out_of_field"] is True
    assert m.frame == "setup" and m.waiting == ("decide", (1,), False)
    assert m.owner == VISITORS and m.speed == 1
    m.do("shot take").roll(6, 6)
    shot = _shot(m)
    assert shot["player"] == "v7" and shot["setup"] is True
    assert shot["attack"] == {"die": 6, "skill": 6, "speed": 0, "striker": 3, "total": 15}
    assert _walls(m) == {"h0": 6}  # h3 on M1 is behind for the visitors
    assert m.last("goal")["side"] == VISITORS and m.tokens("v7") == 1
    assert m.last("new-play")["side"] == HOME
    m.do("skip")
    assert m.state.minute == 5


def test_6_8_5_fullback_deflect_landing_off_the_deflectors_space_sets_up_nothing() -> None:
    """6.8.3, 6.8.5: a Fullback's 2-space deflect from H2 runs out onto H1, not onto the
    deflector on H2: no set-up; the ball lands by the ordinary rule (here h0 takes it)."""
    m = Match(position(home={"h1": "H2", "h0": "H1"}, visitors={"v0": "H2", "v7": "H1"},
                       ball="H2", speed=5))
    m.do("action maneuver", "card high-pass", "card deflect")
    d = m.last("deflect")
    assert d["to"] == "H1" and d["out_of_field"] is True and d["speed"] == 4
    assert not m.find("set-up-taken") and m.frame != "setup"
    assert m.frame == "roll"  # h0 and v7 both on H1: a contest on the spot (6.8.4)


def test_8_1_1_set_up_under_last_possession_the_shot_counts_then_the_period_ends() -> None:
    """6.8.5, rulings 1.1 (RULING_SETUP_FLIP_NOT_TURNOVER): the flip for the deflector's shot
    is not itself a turnover; the shot is taken, and the new play it makes ends the half."""
    m = Match(position(home={"h0": "H1"}, visitors={"v7": "H1"}, ball="H1", speed=3,
                       minute=16, last_poss=True))
    m.do("card high-pass", "card deflect", "shot take").roll(9, 1)
    assert m.last("goal") == {"t": "goal", "law": "5.2.3", "side": VISITORS, "player": "v7",
                              "kind": "goal", "score": [0, 1], "period": 1, "minute": 18}
    assert m.last("period-ends")["minute"] == 18
    assert m.find("halftime")


def test_15_4_3_injured_striker_still_adds_3_and_pays_no_token() -> None:
    """15.4.3, 15.1.3, 8.3.1: an injured Striker's set-up shot is untouched; injured players
    never exhaust."""
    m = Match(position(home={"h6": "M2", "h7": "M3"}, visitors={"v4": "M2", "v0": "V2"},
                       ball="M2", speed=4, injured=["h7"]))
    m.do("action maneuver", "card low-pass", "card pressure", "shot take")
    m.roll(2, 2)
    assert _shot(m)["attack"] == {"die": 2, "skill": 6, "speed": 2, "striker": 3, "total": 13}
    assert not m.find("exhaust") and m.tokens("h7") == 0


def test_8_set_up_decision_belongs_to_the_receivers_coach() -> None:
    """8.4: only the receiver's coach answers the set-up; other text raises, state intact."""
    m = _winger_pass("h7", {"h6": "M2", "h7": "M3"})
    before = m.state
    with pytest.raises(kickline.IllegalDecision):
        kickline.apply(before, 1, "shot take")
    with pytest.raises(kickline.IllegalDecision):
        kickline.apply(before, 0, "action shoot")
    assert m.state is before and m.frame == "setup"


def test_8_2_unchallenged_winger_pass_is_completed_and_sets_up() -> None:
    """6.1.4, 6.5.6: with no challenger the Low Pass succeeds outright, so it is a completed
    pass and still offers the set-up."""
    m = Match(position(home={"h6": "M2", "h7": "V1"}, visitors={"v0": "V2"}, ball="M2",
                       speed=2))
    m.do("action maneuver", "send none", "card low-pass")
    assert m.last("pass")["to"] == "h7" and m.frame == "setup"
    m.do("shot take").roll(1, 1)
    assert _shot(m)["attack"] == {"die": 1, "skill": 6, "speed": 1, "striker": 3, "total": 11}


def test_5_4_1_set_up_token_can_exhaust_the_shooter_without_an_injury_check() -> None:
    """5.4.1, 15.2.1, 15.3.3: the Striker's second token makes them Exhausted; a score
    attempt is not a skill test, so nobody is checked."""
    m = Match(position(home={"h6": "M2", "h7": "M3"}, visitors={"v0": "V2"}, ball="M2",
                       tokens={"h7": 1}))
    m.do("action maneuver", "send none", "card low-pass")
    assert m.frame == "setup" and m.tokens("h7") == 1
    m.do("shot take").roll(1, 12)
    assert m.tokens("h7") == 2 and not m.injured("h7")
    assert not m.find("injury-check") and m.frame == "coach"


@pytest.mark.parametrize("board", [7, 9])
def test_7_5_1_visitors_overshoot_onto_h1(board: int) -> None:
    """6.7.4, 7.5.1: the visitors' last space is H1 on both boards; from H2 every throw
    overshoots onto it, and the modifier counts against the shot."""
    m = Match(position(board, home={"h1": "H2", "h0": "H1"}, visitors={"v4": "H2", "v7": "H1"},
                       ball="H2", owner=VISITORS, speed=9))
    m.do("action maneuver", "card high-pass", "card steal")
    assert m.last("high-pass")["to"] == "H1" and m.last("high-pass")["overshoot"] is True
    m.do("shot take").roll(8, 2)
    assert _shot(m)["attack"] == {"die": 8, "skill": 6, "speed": -4, "striker": 3, "total": 13}
    assert _walls(m) == {"h0": 6}
    assert _shot(m)["defense"]["total"] == 8 and m.state.score == (0, 1)


def test_6_8_5_home_deflector_set_up_on_board_9() -> None:
    """6.8.5, board 9: the visitors' own last space is V3; a home Defender deflecting there
    gets the shot, possession flipped to home for it, speed 1."""
    m = Match(position(9, home={"h1": "V3", "h7": "V1"}, visitors={"v0": "V3", "v3": "M3"},
                       ball="V3", owner=VISITORS, speed=11))
    m.do("action maneuver", "card high-pass", "card deflect")
    assert m.frame == "setup" and m.waiting == ("decide", (0,), False)
    assert (m.owner, m.speed) == (HOME, 1)
    m.do("shot take").roll(10, 4)
    shot = _shot(m)
    assert shot["player"] == "h1"
    assert shot["attack"] == {"die": 10, "skill": 2, "speed": 0, "striker": 0, "total": 12}
    assert _walls(m) == {"v0": 6}  # v3 on M3 is behind for home
    assert shot["goal"] is True and m.tokens("h1") == 1


def test_8_4_1_declined_deflect_set_up_settles_on_the_space() -> None:
    """8.4.1, 10.1 (RULING_DECLINED_DEFLECT_SETUP_SETTLES): declined, the ball lies on H1
    at the deflected speed with both sides there: a contest, home as the side that had it."""
    m = Match(position(home={"h0": "H1"}, visitors={"v7": "H1"}, ball="H1", speed=7))
    m.do("action maneuver", "card high-pass", "card deflect", "shot decline")
    assert m.speed == 6 and m.owner == -1
    m.roll(3, 9)
    contest = m.last("contest")
    assert contest["last"] == {"player": "h0", "die": 3, "skill": 1, "speed": 0, "total": 4}
    assert contest["other"] == {"player": "v7", "die": 9, "skill": 1, "speed": 0, "total": 10}
    assert contest["winner"] == "v7" and m.owner == VISITORS


def test_16_3_3_declined_flip_set_up_that_ends_in_a_steal_ends_the_period() -> None:
    """Rulings 1.1 (OQ9, OQ10): under last possession a declined deflect set-up settles;
    when the deflector's side wins the ball that is a steal, and the period ends."""
    m = Match(position(home={"h0": "H1"}, visitors={"v7": "H1"}, ball="H1", speed=7,
                       minute=15, last_poss=True))
    m.do("card high-pass", "card deflect", "shot decline").roll(1, 12)
    assert m.last("contest")["winner"] == "v7"
    assert m.last("period-ends")["minute"] == 16 and not m.find("score-attempt")


def test_8_2_two_space_pass_receiver_chosen_by_the_passer_then_declined() -> None:
    """Rulings 1.1 row 2, 10.1.3: with two teammates on the landing space the passer's coach
    picks the receiver; declining (8.4.1) leaves that receiver carrying the ball."""
    m = Match(position(home={"h4": "M1", "h7": "M3", "h6": "M3"}, visitors={"v4": "M1"},
                       ball="M1", speed=5))
    m.do("action maneuver", "card high-pass", "card steal", "throw 2")
    assert m.frame == "hp_receive" and m.legal(0) == ("receive h6", "receive h7")
    m.do("receive h6")
    assert m.frame == "setup" and m.waiting == ("decide", (0,), False)
    m.do("shot decline")
    assert m.state.minute == 3 + 2 and m.tokens("h6") == 0
    assert m.last("handler") == {"t": "handler", "law": "4.2.1", "player": "h6",
                                 "carrier": True}


def test_15_4_3_an_injured_defender_still_counts_in_the_wall() -> None:
    """5.3.1-5.3.2 with 15.4.3: only contests withhold an injured player's skill; in the way
    of a shot they add the same as anybody."""
    m = Match(position(home={"h4": "M3"}, visitors={"v0": "M3", "v1": "V2"}, ball="M3",
                       injured=["v0", "v1"]))
    m.do("action shoot").roll(1, 1)
    assert _walls(m) == {"v0": 6, "v1": 3}
