"""Law 6.5-6.7 and 10.4: Low Pass, Dribble Advance, High Pass, the High Pass contest."""

from __future__ import annotations

import pytest
from scenario import HOME, VISITORS, Match, position, refused, rolling_for

# Board 7: H1 H2 M1 M2 M3 V1 V2; board 9: H1-H3 M1-M3 V1-V3.  Slots: 0 FB 1/6, 1-2 D 2/5,
# 3 MF 3/4, 4-5 PM 4/3, 6 W 5/2, 7-8 S 6/1.  Home attacks toward V.

# --- 6.5 Low Pass -----------------------------------------------------------------------


def test_6_5_2_three_destinations_nearest_blocks_farther() -> None:
    """6.5.2-6.5.3: nearest ahead (M3 blocks V1), nearest behind (H2), own space; no self."""
    s = position(home={"h4": "M2", "h5": "M2", "h3": "M3", "h6": "V1", "h1": "H2"},
                 visitors={"v4": "M2", "v0": "V2"}, ball="M2", speed=3)
    m = Match(s).do("handler h4", "action maneuver", "card low-pass", "card pressure")
    assert m.frame == "pass_to"
    assert m.legal(0) == ("pass h1", "pass h3", "pass h5")
    assert refused(m.state, 0, "pass h6")  # blocked by h3
    assert refused(m.state, 0, "pass h4")  # 6.5.3: not to themselves
    assert refused(m.state, 0, "pass v4")
    m.do("pass h1")
    assert m.ball == "H2" and m.speed == 4 and m.owner == HOME  # 6.5.4
    assert m.space("h4") == "M2" and m.space("v4") == "M2"  # nobody else moves
    assert m.state.minute == 4  # 6.5.1: 1 space minute
    assert m.last("handler") == {"t": "handler", "law": "4.2.1", "player": "h1", "carrier": True}


def test_6_5_2_board_9_blocking_behind_and_reach_of_two() -> None:
    """6.5.2 on board 9: M1 blocks H3 behind; V2 is 3 ahead and out of reach."""
    s = position(9, home={"h4": "M2", "h3": "M1", "h1": "H3", "h6": "V2"},
                 visitors={"v4": "M2", "v0": "V3"}, ball="M2", speed=1)
    m = Match(s).do("action maneuver", "card low-pass", "card pressure")
    assert m.last("forced")["decision"] == "pass h3"  # the only destination
    assert m.ball == "M1" and m.speed == 2


def test_6_5_3_pass_across_a_shared_space_steps_the_passer_forward() -> None:
    """6.5.3: receiver on the passer's own space; the passer moves 1 forward, for free."""
    s = position(home={"h4": "M2", "h5": "M2"}, visitors={"v4": "M2", "v0": "V2"}, ball="M2",
                 speed=12)
    m = Match(s).do("handler h4", "action maneuver", "card low-pass", "card pressure")
    assert m.last("passer-steps") == {"t": "passer-steps", "law": "6.5.3", "player": "h4",
                                      "to": "M3"}
    assert m.ball == "M2" and m.space("h5") == "M2" and m.space("h4") == "M3"
    assert m.speed == 12  # 6.5.4: at most 12
    assert m.tokens("h4") == 0
    assert m.last("handler")["player"] == "h5"


@pytest.mark.parametrize("board", [7, 9])
def test_6_5_3_no_field_to_step_into_at_the_attacking_end(board: int) -> None:
    """6.5.3: visitors passing across H1 (their last space) leave the passer on H1."""
    s = position(board, home={"h4": "H1", "h0": "M2"}, visitors={"v4": "H1", "v5": "H1"},
                 ball="H1", owner=VISITORS, speed=2)
    m = Match(s).do("handler v4", "action maneuver", "card low-pass",
                    "card pressure")
    assert m.last("pass")["to"] == "v5"
    assert not m.find("passer-steps")
    assert m.space("v4") == "H1" and m.ball == "H1" and m.speed == 3


def test_6_5_5_no_destination_ball_rolls_forward_and_settles() -> None:
    """6.5.5, 10.1: nobody within 2: ball rolls 1 forward, speed +1; lands on a defender who
    simply has it: a steal (10.7.1), speed reset (7.3.1)."""
    s = position(home={"h4": "M2", "h6": "V2"}, visitors={"v4": "M2", "v3": "M3"}, ball="M2",
                 speed=2)
    m = Match(s).do("action maneuver", "card low-pass", "card pressure")
    assert m.last("ball-rolls") == {"t": "ball-rolls", "law": "6.5.5", "to": "M3", "speed": 3}
    assert m.last("takes-ball")["player"] == "v3"
    assert m.owner == VISITORS and m.speed == 1 and m.ball == "M3"
    assert m.state.minute == 4


def test_6_5_5_no_destination_on_the_last_space_clamps_and_is_contested() -> None:
    """6.5.5 with rulings 2.9 / OQ4: on the attacking end the ball stays and is settled there;
    handler and challenger contest it (10.2), no speed modifier (10.2.3)."""
    s = position(home={"h4": "V2"}, visitors={"v4": "V2", "v0": "M2"}, ball="V2", speed=9)
    m = Match(s).do("action maneuver", "card low-pass", "card pressure")
    assert m.last("ball-rolls")["to"] == "V2" and m.speed == 10
    assert rolling_for(m.state) == ("contest", "h4")
    m.roll(2, 4)
    c = m.last("contest")
    assert c["last"] == {"player": "h4", "die": 2, "skill": 4, "speed": 0, "total": 6}
    assert c["other"] == {"player": "v4", "die": 4, "skill": 3, "speed": 0, "total": 7}
    assert m.owner == VISITORS


def test_6_5_6_winger_low_pass_into_range_offers_the_receiver_a_shot() -> None:
    """6.5.6, 8.4.1: Winger's completed Low Pass to a receiver in range; declining keeps it."""
    s = position(home={"h6": "M2", "h7": "V1"}, visitors={"v4": "M2", "v0": "V2"}, ball="M2",
                 speed=3)
    m = Match(s).do("action maneuver", "card low-pass", "card pressure")
    assert m.frame == "setup" and m.legal(0) == ("shot decline", "shot take")
    m.do("shot decline")
    assert m.owner == HOME and m.ball == "V1" and m.speed == 4
    assert m.last("handler")["player"] == "h7"
    assert m.state.minute == 4


def test_6_5_6_winger_pass_backwards_in_range_also_sets_up() -> None:
    """6.5.6: at any of the three distances, behind included."""
    s = position(home={"h6": "V2", "h7": "V1"}, visitors={"v4": "V2", "v0": "M2"}, ball="V2")
    m = Match(s).do("action maneuver", "card low-pass", "card pressure")
    assert m.frame == "setup"


def test_6_5_6_no_setup_out_of_range_or_from_a_non_winger() -> None:
    """6.5.6, 8.1.2: a receiver on M2 is out of range; a Playmaker's pass sets up nothing."""
    s = position(home={"h6": "M1", "h3": "M2"}, visitors={"v4": "M1", "v0": "V2"}, ball="M1")
    m = Match(s).do("action maneuver", "card low-pass", "card pressure")
    assert not m.find("setup") and m.frame == "action"
    s2 = position(home={"h4": "M2", "h7": "V1"}, visitors={"v4": "M2", "v0": "V2"}, ball="M2")
    m2 = Match(s2).do("action maneuver", "card low-pass", "card pressure")
    assert m2.frame == "action" and m2.last("handler")["player"] == "h7"


# --- 6.6 Dribble Advance -----------------------------------------------------------------


def test_6_6_2_dribble_moves_handler_and_ball_and_bounds_the_speed() -> None:
    """6.6.2-6.6.3: MF (off 3) at speed 2: 1 forward together; speed 1..5; carrier."""
    s = position(home={"h3": "M2"}, visitors={"v4": "M2", "v0": "V2"}, ball="M2", speed=2)
    m = Match(s).do("action maneuver", "card dribble", "card deflect")
    assert m.last("dribble")["to"] == "M3"  # only one distance: no question asked
    assert not [e for e in m.find("forced") if e["decision"] == "dribble 2"]
    assert m.legal(0) == tuple(f"speed {v}" for v in range(1, 6))
    assert refused(m.state, 0, "speed 6")
    m.do("speed 5")
    assert m.ball == "M3" and m.space("h3") == "M3" and m.space("v4") == "M2"
    assert m.speed == 5 and m.owner == HOME and m.tokens("h3") == 0
    assert m.last("handler")["player"] == "h3" and m.state.minute == 4


def test_6_6_4_playmaker_may_advance_two_and_speed_caps_at_12() -> None:
    """6.6.4, 6.6.2: PM chooses 1 or 2; speed 11 +- 4 within 1..12."""
    s = position(home={"h4": "M2"}, visitors={"v4": "M2", "v0": "V2"}, ball="M2", speed=11)
    m = Match(s).do("action maneuver", "card dribble", "card deflect")
    assert m.legal(0) == ("dribble 1", "dribble 2")
    m.do("dribble 2")
    assert m.legal(0) == tuple(sorted(f"speed {v}" for v in range(7, 13)))
    m.do("speed 12")
    assert m.ball == "V1" and m.space("h4") == "V1" and m.speed == 12


@pytest.mark.parametrize(("board", "start", "two"), [(7, "M2", "H2"), (9, "M2", "H3")])
def test_6_6_4_visitors_playmaker_dribbles_toward_h(board: int, start: str, two: str) -> None:
    """2.2, 6.6.4: the visitors' forward is toward the home goal."""
    s = position(board, home={"h4": start, "h0": "H1"}, visitors={"v4": start},
                 ball=start, owner=VISITORS, speed=1)
    m = Match(s).do("action maneuver", "card dribble", "card deflect", "dribble 2", "speed 1")
    assert m.ball == two and m.space("v4") == two


def test_6_6_4_playmaker_one_from_the_end_is_offered_one_space_only() -> None:
    """6.6.2/16.2.2: the second space would leave the field; the advance stops at the end."""
    s = position(home={"h4": "V1"}, visitors={"v4": "V1", "v0": "M2"}, ball="V1", speed=1)
    m = Match(s).do("action maneuver", "card dribble", "card deflect")
    assert m.last("dribble")["to"] == "V2" and m.frame == "speed"
    assert m.legal(0) == tuple(f"speed {v}" for v in range(1, 6))


def test_6_6_2_fullback_speed_change_bounded_by_offense_1() -> None:
    """6.6.2, rulings 1.0: Fullback offensive skill 1: speed 1 may go to 1 or 2 only."""
    s = position(home={"h0": "M2"}, visitors={"v4": "M2", "v0": "V2"}, ball="M2", speed=1)
    m = Match(s).do("action maneuver", "card dribble", "card deflect")
    assert m.legal(0) == ("speed 1", "speed 2")


# --- 6.7 High Pass ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("board", "who", "start", "offered"),
    [
        (7, "h4", "M2", ("throw 2", "throw 3")),
        (7, "h0", "M2", ("throw 2", "throw 3")),  # 4 would leave the field
        (7, "h0", "H1", ("throw 2", "throw 3", "throw 4")),
        (9, "h0", "M2", ("throw 2", "throw 3", "throw 4")),
        (9, "h4", "H1", ("throw 2", "throw 3")),
    ],
)
def test_6_7_2_distances_offered(
    board: int, who: str, start: str, offered: tuple[str, ...]
) -> None:
    """6.7.2: 2 or 3, a Fullback 4 too; only distances landing on the field are offered."""
    s = position(board, home={who: start}, visitors={"v4": start, "v6": "M1"}, ball=start)
    m = Match(s).do("action maneuver", "card high-pass", "card steal")
    assert m.frame == "throw" and m.legal(0) == offered
    assert refused(m.state, 0, "throw 1") and refused(m.state, 0, "throw 5")
    if "throw 4" not in offered:
        assert refused(m.state, 0, "throw 4")


def test_6_7_2_two_from_the_end_offers_only_2() -> None:
    """6.7.2: from M3 on board 7 only V2 (2) is on the field: forced, no question."""
    s = position(home={"h4": "M3", "h7": "V2"}, visitors={"v4": "M3", "v0": "V1"}, ball="M3",
                 speed=6)
    m = Match(s).do("action maneuver", "card high-pass", "card steal")
    assert m.find("forced")[0]["decision"] == "throw 2"
    assert m.last("high-pass")["to"] == "V2"


def test_6_7_3_two_space_pass_received_among_defenders_and_sets_up() -> None:
    """6.7.3, 10.4.1: a 2-space pass onto a teammate is received even with a defender there;
    in range it offers the shot; speed unchanged (7.2.1); costs 2 minutes."""
    s = position(home={"h4": "M2", "h6": "V1"}, visitors={"v4": "M2", "v0": "V1"}, ball="M2",
                 speed=7)
    m = Match(s).do("action maneuver", "card high-pass", "card steal", "throw 2")
    assert m.last("takes-ball")["player"] == "h6"
    assert not m.find("contest") and m.frame == "setup"
    m.do("shot decline")
    assert m.ball == "V1" and m.owner == HOME and m.speed == 7
    assert m.state.minute == 5
    assert m.last("handler")["player"] == "h6"


def test_6_7_3_board_9_two_space_pass_short_of_range_is_still_received() -> None:
    """6.7.3: H3 -> M2 on board 9: received, no set-up (M2 is in nobody's range)."""
    s = position(9, home={"h4": "H3", "h3": "M2"}, visitors={"v4": "H3", "v0": "V3"},
                 ball="H3", speed=2)
    m = Match(s).do("action maneuver", "card high-pass", "card steal", "throw 2")
    assert m.last("takes-ball")["player"] == "h3"
    assert not m.find("set-up-declined") and m.frame == "action"
    assert m.ball == "M2" and m.owner == HOME


@pytest.mark.parametrize(("dice", "winner", "owner"), [((5, 8), "h7", HOME),
                                                      ((3, 8), "v0", VISITORS)])
def test_10_4_3_three_space_pass_is_contested_with_the_speed_modifier(
    dice: tuple[int, int], winner: str, owner: int
) -> None:
    """10.4.1, 10.4.3, 10.4.5: receiver v defender on the landing space; thrower's side adds
    speed // 2; no entry token (rulings OQ2); a receiver who loses it has been stolen from."""
    s = position(home={"h4": "M2", "h7": "V2"}, visitors={"v4": "M2", "v0": "V2"}, ball="M2",
                 speed=9)
    m = Match(s).do("action maneuver", "card high-pass", "card steal", "throw 3")
    assert rolling_for(m.state) == ("contest", "h7")
    m.roll(*dice)
    c = m.last("contest")
    assert c["last"] == {"player": "h7", "die": dice[0], "skill": 6, "speed": 4,
                         "total": dice[0] + 10}
    assert c["other"] == {"player": "v0", "die": 8, "skill": 6, "speed": 0, "total": 14}
    assert c["winner"] == winner
    assert m.owner == owner and m.ball == "V2"
    assert m.tokens("h7") == 0 and m.tokens("v0") == 0
    assert m.speed == (9 if owner == HOME else 1)  # 7.3.1: the steal resets it
    assert m.state.minute == 5


def test_10_4_2_three_space_pass_onto_lone_teammate_may_be_chased() -> None:
    """10.4.2: defense may send one of its two nearest after it (or nobody); sent player pays
    per space and contests; nobody sent: the receiver keeps it."""
    s = position(home={"h4": "M2", "h7": "V2"}, visitors={"v4": "M2", "v0": "V1", "v6": "H1"},
                 ball="M2", speed=4)
    m = Match(s).do("action maneuver", "card high-pass", "card steal", "throw 3")
    assert m.frame == "send" and m.legal(1) == ("send none", "send v0")
    m2 = Match(m.state).do("send none")
    assert m2.owner == HOME and m2.last("handler")["player"] == "h7"
    m.do("send v0")
    assert m.tokens("v0") == 1 and m.space("v0") == "V2"
    m.roll(1, 12)
    assert m.last("contest")["last"]["speed"] == 2 and m.owner == VISITORS


def test_10_4_4_pass_onto_an_empty_space_is_loose_with_no_modifier() -> None:
    """10.4.4, 10.3: nobody there: a loose ball, secret sends; the contest adds no modifier."""
    s = position(home={"h4": "M2", "h6": "V1"}, visitors={"v4": "M2", "v0": "V1"}, ball="M2",
                 speed=12)
    m = Match(s).do("action maneuver", "card high-pass", "card steal", "throw 3")
    assert m.frame == "loose" and m.waiting == ("decide", (0, 1), True)
    m.do("send h6", "send v0").roll(7, 5)
    c = m.last("contest")
    assert c["last"]["speed"] == 0 and c["last"]["total"] == 12 and c["other"]["total"] == 11
    assert m.tokens("h6") == 1 and m.tokens("v0") == 1 and m.owner == HOME


def test_10_4_2_pass_onto_defenders_only_thrower_may_chase() -> None:
    """Rulings 1.2 note / OQ5: landing on defenders only, the throwing side may send; if it
    sends nobody the defenders have it, a steal."""
    s = position(home={"h4": "M2", "h6": "M3"}, visitors={"v4": "M2", "v0": "V1"}, ball="M2")
    m = Match(s).do("action maneuver", "card high-pass", "card steal", "throw 2")
    assert m.frame == "send" and m.legal(0) == ("send h6", "send none")
    m.do("send none")
    assert m.owner == VISITORS and m.ball == "V1"


def test_6_7_4_overshoot_one_from_the_end_offers_no_distance() -> None:
    """6.7.4, 7.5.1: ball 1 from the end: no throw choice; the receiver may shoot with the
    modifier against them."""
    s = position(home={"h4": "V1", "h7": "V2"}, visitors={"v4": "V1", "v0": "V2"}, ball="V1",
                 speed=8)
    m = Match(s).do("action maneuver", "card high-pass", "card steal")
    assert m.last("overshoot")["frm"] == "V1" and m.frame != "throw"
    assert not [e for e in m.find("forced") if e["decision"].startswith("throw")]
    assert m.frame == "setup"
    m.do("shot take").roll(7, 1)
    a = m.last("score-attempt")["attack"]
    assert a["speed"] == -4 and a["striker"] == 3 and a["total"] == 7 + 6 - 4 + 3
    assert m.state.turn.cost == 2 + 1  # 8.5.1: the shot's minute on top of the throw


def test_8_4_2_overshoot_declined_means_the_contest_with_modifier_against() -> None:
    """6.7.4, 8.4.2, 10.4.3: declining the shot takes the High Pass contest, minus speed//2."""
    s = position(home={"h4": "V1", "h7": "V2"}, visitors={"v4": "V1", "v0": "V2"}, ball="V1",
                 speed=8)
    m = Match(s).do("action maneuver", "card high-pass", "card steal", "shot decline")
    m.roll(9, 4)
    c = m.last("contest")
    assert c["last"] == {"player": "h7", "die": 9, "skill": 6, "speed": -4, "total": 11}
    assert c["other"]["total"] == 10 and m.owner == HOME


def test_6_7_5_thrown_from_the_last_space_a_teammate_there_receives() -> None:
    """6.7.5: the ball comes straight down; the passer never receives their own pass."""
    s = position(home={"h4": "V2", "h7": "V2"}, visitors={"v0": "V2", "v4": "M2"}, ball="V2")
    m = Match(s).do("handler h4", "action maneuver", "card high-pass", "card steal")
    assert m.last("receiver")["player"] == "h7"
    assert m.frame == "setup"


def test_6_7_6_last_space_with_no_teammate_goes_out_of_play_and_is_picked_up() -> None:
    """6.7.6, 10.5, 10.6: out of play, the visitors gain it, reset, then a pickup that cannot
    be declined; the throw still costs 2."""
    s = position(home={"h4": "V2", "h1": "M2"}, visitors={"v0": "V1", "v1": "V1", "v6": "H1"},
                 ball="V2", speed=5)
    m = Match(s).do("action maneuver", "send v0", "card high-pass", "card steal")
    assert m.last("out-of-play")["space"] == "V2"
    assert m.last("new-play")["side"] == VISITORS
    assert m.space("v0") == "V1"  # the reset took the sent challenger home
    m.do("skip")
    assert m.frame == "send" and m.legal(1) == ("send v0", "send v1")
    assert refused(m.state, 1, "send none")
    m.do("send v1")
    assert m.tokens("v1") == 1 and m.tokens("v0") == 1  # the challenge send was paid too
    assert m.owner == VISITORS and m.speed == 1 and m.ball == "V2"
    assert m.state.minute == 5


def test_16_2_1_deflect_beating_a_high_pass_charges_1() -> None:
    """Rulings 1.7 / OQ1: the resolving card's cost: Deflect 1, not the High Pass's 2."""
    s = position(home={"h4": "M2", "h3": "M1"}, visitors={"v4": "M2", "v0": "V2"}, ball="M2")
    m = Match(s).do("action maneuver", "card high-pass", "card deflect")
    assert m.state.minute == 4


# --- more geometry and edge cases ----------------------------------------------------------


def test_6_5_2_visitors_ahead_is_toward_h() -> None:
    """2.2.2, 6.5.2: for the visitors M1 is ahead (blocking H2) and V1 is 2 behind."""
    s = position(home={"h4": "M2", "h0": "H1"},
                 visitors={"v4": "M2", "v3": "M1", "v6": "H2", "v0": "V1"},
                 ball="M2", owner=VISITORS)
    m = Match(s).do("action maneuver", "card low-pass", "card pressure")
    assert m.legal(1) == ("pass v0", "pass v3")


@pytest.mark.parametrize(("throw", "to"), [(2, "V1"), (3, "M3"), (4, "M2")])
def test_6_7_2_visitors_fullback_throws_toward_h_on_board_9(throw: int, to: str) -> None:
    """6.7.2 on board 9: V3 is 8 from the visitors' end; the Fullback may throw 2, 3 or 4."""
    s = position(9, home={"h4": "V3", "h0": "H1"}, visitors={"v0": "V3", "v7": "H1"},
                 ball="V3", owner=VISITORS)
    m = Match(s).do("action maneuver", "card high-pass", "card steal")
    assert m.legal(1) == ("throw 2", "throw 3", "throw 4")
    m.do(f"throw {throw}")
    assert m.last("high-pass")["to"] == to and m.last("high-pass")["spaces"] == throw


def test_10_1_3_two_teammates_on_a_two_space_landing_the_passer_picks() -> None:
    """6.7.3, 10.1.3 (rulings D22): the passer's coach chooses the receiver."""
    s = position(home={"h4": "M2", "h6": "V1", "h7": "V1"}, visitors={"v4": "M2", "v0": "V2"},
                 ball="M2")
    m = Match(s).do("action maneuver", "card high-pass", "card steal", "throw 2")
    assert m.frame == "hp_receive" and m.legal(0) == ("receive h6", "receive h7")
    m.do("receive h7", "shot decline")
    assert m.last("handler")["player"] == "h7"


def test_15_4_2b_injured_receiver_keeps_only_die_and_modifier() -> None:
    """15.4.2b: an injured receiver in a High Pass contest adds no skill; the thrower's speed
    modifier still counts."""
    s = position(home={"h4": "M2", "h7": "V2"}, visitors={"v4": "M2", "v0": "V2"}, ball="M2",
                 speed=6, injured=["h7"])
    m = Match(s).do("action maneuver", "card high-pass", "card steal", "throw 3").roll(9, 1)
    c = m.last("contest")
    assert c["last"] == {"player": "h7", "die": 9, "skill": 0, "speed": 3, "total": 12}
    assert c["other"]["total"] == 7 and m.owner == HOME


def test_10_4_4_overshoot_onto_an_empty_last_space_is_simply_loose() -> None:
    """10.4.4, 6.7.4: nobody on V2: no receiver, a loose ball; the contest has no modifier."""
    s = position(home={"h4": "V1", "h6": "M3"}, visitors={"v4": "V1", "v1": "M2"}, ball="V1",
                 speed=10)
    m = Match(s).do("action maneuver", "card high-pass", "card steal")
    assert m.frame == "loose"
    m.do("send h4", "send v4").roll(3, 3)
    assert m.last("contest")["last"]["speed"] == 0
    assert m.last("contest")["last"]["total"] == 7 and m.last("contest")["other"]["total"] == 6


def test_6_5_5_rolled_ball_nobody_sends_goes_out_to_the_other_side() -> None:
    """6.5.5, 10.3.2, 10.5.1: a Low Pass with no destination rolls onto empty M3; neither
    coach sends; the visitors take over at speed 1."""
    s = position(home={"h4": "M2", "h6": "V2"}, visitors={"v4": "M2", "v0": "V1"}, ball="M2",
                 speed=7)
    m = Match(s).do("action maneuver", "card low-pass", "card pressure")
    assert m.frame == "loose" and m.speed == 8
    m.do("send none", "send none")
    assert m.last("new-play")["side"] == VISITORS and m.speed == 1 and m.owner == VISITORS


def test_rulings_new_the_passer_may_be_sent_after_their_own_loose_high_pass() -> None:
    """10.4.4 with 6.7.5 (new ruling, see the report): a pass that reaches nobody is simply a
    loose ball, so the passer counts among their side's two nearest and may be sent after it;
    6.7.5's 'never receives' governs receptions only."""
    s = position(home={"h4": "M2", "h0": "H1"}, visitors={"v4": "M2", "v0": "V1"}, ball="M2",
                 speed=4)
    m = Match(s).do("action maneuver", "card high-pass", "card steal", "throw 3")
    assert m.frame == "loose" and m.legal(0) == ("send h4", "send none")
    m.do("send h4", "send none")
    assert m.tokens("h4") == 3 and m.space("h4") == "V2" and m.owner == HOME


def test_6_5_2_several_teammates_on_one_destination_the_passer_picks() -> None:
    """6.5.2: both strikers on V1 (2 ahead); the passer chooses who receives."""
    s = position(home={"h4": "M2", "h7": "V1", "h8": "V1"}, visitors={"v4": "M2", "v0": "V2"},
                 ball="M2", speed=2)
    m = Match(s).do("action maneuver", "card low-pass", "card pressure")
    assert m.legal(0) == ("pass h7", "pass h8")
    m.do("pass h8")
    assert m.last("handler")["player"] == "h8" and m.speed == 3


def test_10_4_1_declined_overshoot_onto_teammates_only_may_be_chased() -> None:
    """8.4.2, 10.4.1-10.4.2: declining means the contest; with no defender on V2 the defense
    may send one of its nearest (the challenger on V1) or nobody, and then h7 keeps it."""
    s = position(home={"h4": "V1", "h7": "V2"}, visitors={"v4": "V1", "v0": "M2"}, ball="V1",
                 speed=5)
    m = Match(s).do("action maneuver", "card high-pass", "card steal", "shot decline")
    assert m.frame == "send" and m.legal(1) == ("send none", "send v4")
    m2 = Match(m.state).do("send none")
    assert m2.owner == HOME and m2.last("handler")["player"] == "h7" and m2.speed == 5
    m.do("send v4").roll(6, 6)
    c = m.last("contest")
    assert c["last"]["speed"] == -2 and c["last"]["total"] == 10 and c["other"]["total"] == 9
    assert m.tokens("v4") == 1


def test_6_5_5_unchallenged_on_the_last_space_the_handler_simply_has_it_back() -> None:
    """6.5.5 (rulings OQ4 clamp), 6.1.4, 10.1.1: nobody to pass to and nobody challenging:
    the ball stays on V2, speed +1, and only home stands there, so home keeps it."""
    s = position(home={"h4": "V2", "h0": "H1"}, visitors={"v4": "M2", "v0": "H2"}, ball="V2",
                 speed=3)
    m = Match(s).do("action maneuver", "send none", "card low-pass")
    assert m.last("ball-rolls")["to"] == "V2"
    assert m.last("takes-ball")["player"] == "h4"
    assert m.owner == HOME and m.speed == 4 and not m.find("steal-turnover")
