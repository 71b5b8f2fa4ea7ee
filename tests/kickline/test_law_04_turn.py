"""Law 4: the order of a turn, choosing the handler, the carrier, choosing the action."""

from __future__ import annotations

import pytest
from scenario import Match, position

import kickline
from kickline.board import HOME, VISITORS
from kickline.state import parse_pid


def test_4_2_1_coach_chooses_among_the_players_on_the_ball() -> None:
    """4.2.1: any possessing player on the ball's space may handle it; nobody else may."""
    m = Match(position(home={"h3": "M1", "h4": "M1", "h7": "M2"}, visitors={"v0": "V2"},
                       ball="M1"))
    assert m.frame == "handler"
    assert m.waiting == ("decide", (0,), False)
    assert m.legal(0) == ("handler h3", "handler h4")
    before = m.state
    for seat, text in ((0, "handler h7"), (1, "handler h3"), (0, "handler v0")):
        with pytest.raises(kickline.IllegalDecision):
            kickline.apply(before, seat, text)
    assert m.state is before
    m.do("handler h4")
    assert m.state.turn.handler == parse_pid("h4")
    assert m.last("handler")["player"] == "h4" and m.frame == "action"


def test_4_2_1_a_single_player_on_the_ball_is_no_choice() -> None:
    """4.2.1 (RULING_FORCED_DECISIONS_AUTOMATIC): one player on the ball handles it."""
    m = Match(position(home={"h3": "M1", "h4": "M2"}, visitors={"v0": "V2"}, ball="M1"))
    assert m.frame == "action"
    assert m.state.turn.handler == parse_pid("h3")


def test_4_2_2a_dribbler_carries_and_handles_without_a_choice() -> None:
    """4.2.2a, 4.2.1: a Dribble Advance leaves the ball with the dribbler, who handles the next
    turn even though a teammate shares the space."""
    m = Match(position(home={"h3": "M1", "h4": "M2", "h0": "H1"}, visitors={"v0": "V2"},
                       ball="M1"))
    m.do("action maneuver", "send none", "card dribble", "speed 3")
    assert m.ball == "M2" and m.speed == 3
    assert m.last("handler") == {"t": "handler", "law": "4.2.1", "player": "h3", "carrier": True}
    assert m.frame == "action"  # no handler choice was offered
    assert not m.find("forced")[-1]["decision"].startswith("handler")


def test_4_2_2b_low_pass_receiver_carries() -> None:
    """4.2.2b: a completed Low Pass leaves the ball with the receiver, not a teammate beside."""
    m = Match(position(home={"h3": "M1", "h4": "M2", "h5": "M2"}, visitors={"v0": "V2"},
                       ball="M1"))
    m.do("action maneuver", "send none", "card low-pass", "pass h5")
    assert m.ball == "M2" and m.speed == 2
    assert m.last("handler")["player"] == "h5" and m.last("handler")["carrier"] is True
    assert m.frame == "action"


def test_4_2_3_a_restart_leaves_the_ball_with_nobody_in_particular() -> None:
    """4.2.3: after a goal the conceding side's coach chooses the kickoff's handler."""
    m = Match(position(home={"h7": "V1", "h4": "M2"},
                       visitors={"v0": "V2", "v3": "M2", "v4": "M2"}, ball="V1"))
    m.do("action shoot").roll(12, 1)
    assert m.last("goal")["side"] == HOME
    m.do("skip")  # the visitors' new-play Choice
    assert m.ball == "M2" and m.owner == VISITORS
    assert m.frame == "handler" and m.legal(1) == ("handler v3", "handler v4")


def test_4_2_4_carry_lapses_when_the_carrier_is_off_the_ball() -> None:
    """4.2.4: a carrier no longer on the ball gives way to the ordinary choice."""
    m = Match(position(home={"h3": "M1", "h4": "M1", "h5": "H2"}, visitors={"v0": "V2"},
                       ball="M1", carrier="h5"))
    assert m.frame == "handler" and m.legal(0) == ("handler h3", "handler h4")
    assert m.state.ball.carrier == -1  # the carry held for that one turn only


def test_4_2_4_carry_holds_for_one_turn_only() -> None:
    """4.2.4: the carrier handles the next turn; a turn after that, the coach chooses again.

    A time out (a new play, 4.2.3) keeps possession but leaves no carrier."""
    m = Match(position(home={"h3": "M1", "h4": "M1"}, visitors={"v0": "V2"}, ball="M1",
                       carrier="h4"))
    assert m.frame == "action" and m.state.turn.handler == parse_pid("h4")
    m.do("action timeout", "skip", "skip")
    assert m.owner == HOME and m.ball == "M1"
    assert m.frame == "handler" and m.legal(0) == ("handler h3", "handler h4")


def test_4_3_action_menu_out_of_range() -> None:
    """4.3.1-4.3.3: out of range a maneuver or a time out; never a score attempt."""
    m = Match(position(home={"h4": "M2"}, visitors={"v0": "V2"}, ball="M2"))
    assert m.legal(0) == ("action maneuver", "action timeout")
    assert m.legal(1) == ()


def test_4_3_action_menu_in_range() -> None:
    """4.3.1, 4.3.3: in range a score attempt or a maneuver, and no time out."""
    m = Match(position(home={"h4": "M3"}, visitors={"v0": "V2"}, ball="M3"))
    assert m.legal(0) == ("action maneuver", "action shoot")
    before = m.state
    with pytest.raises(kickline.IllegalDecision):
        kickline.apply(before, 0, "action timeout")
    assert m.state is before


def test_4_3_visitors_choose_their_own_action() -> None:
    """4.1.1, 4.3: the team in possession acts; for the visitors M1 is in range (board 7)."""
    m = Match(position(home={"h0": "H1"}, visitors={"v3": "M1"}, ball="M1", owner=VISITORS))
    assert m.waiting == ("decide", (1,), False)
    assert m.legal(1) == ("action maneuver", "action shoot")
    with pytest.raises(kickline.IllegalDecision):
        kickline.apply(m.state, 0, "action maneuver")


def test_4_4_3_clock_runs_after_the_turnover_and_charges_the_action() -> None:
    """4.1.1e-f, 4.4.2-4.4.3: the turnover is settled first, then the clock charges the
    resolving card's cost even though the ball changed hands; the new holder plays next."""
    m = Match(position(home={"h3": "M2", "h0": "H1"}, visitors={"v4": "M2", "v0": "V2"},
                       ball="M2", minute=6))
    m.do("action maneuver", "card low-pass", "card steal")
    assert m.frame == "speed" and m.state.minute == 6  # 6.9.3 comes before the clock
    m.do("speed 2")
    order = [e["t"] for e in m.events]
    assert order.index("steal-turnover") < order.index("speed") < order.index("clock")
    assert m.last("clock") == {"t": "clock", "law": "4.4.3", "minute": 7, "cost": 1}
    assert m.state.minute == 7
    assert m.owner == VISITORS and m.ball == "M3"  # 6.9.2: back for the new possessor
    assert m.frame == "action" and m.waiting == ("decide", (1,), False)  # 4.1.2


def test_4_4_4_reaching_the_last_minute_declares_last_possession() -> None:
    """4.4.4, 16.3.2: the clock reaching 15 puts last possession in force for the holder."""
    m = Match(position(home={"h3": "M1", "h4": "M2"}, visitors={"v0": "V2"}, ball="M1",
                       minute=14))
    m.do("action maneuver", "send none", "card low-pass")
    assert m.state.minute == 15 and m.state.last_poss
    assert m.last("last-possession")["side"] == HOME
    # 4.3.3: no time out any more, so the maneuver is the only action and is taken for them
    assert m.find("forced")[-1]["decision"] == "action maneuver"
    assert m.frame == "send"
