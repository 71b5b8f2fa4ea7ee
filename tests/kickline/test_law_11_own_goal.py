"""Law 11: the own-goal roll, avoided and conceded, and their restarts (rulings 1.2 12.3)."""

from __future__ import annotations

import pytest
from scenario import Match, position

from kickline.board import HOME, VISITORS


def _pressured(board: int = 7, **kw: object) -> Match:
    """Home's Midfielder h3 handles on H1 (arranged on M1) and a visiting Playmaker on H1
    wins a Pressure: there is nowhere to push h3, so an own goal is risked (6.10.3, 11.1.1)."""
    home = {"h3": "H1", "h0": "H1", "h4": "M2"}
    arrangement = {"h3": "M1", "h0": "H2"}
    m = Match(position(board, home=home, visitors={"v4": "H1", "v0": "V2"}, ball="H1",
                       speed=5, minute=7, arrangement=arrangement,
                       zones={"h3": "M", "h0": "H"}, **kw))  # type: ignore[arg-type]
    m.do("handler h3")
    if m.frame == "action":  # under last possession the maneuver is the only action
        m.do("action maneuver")
    m.do("card dribble", "card pressure")
    return m


def test_11_1_1_pressure_on_the_own_end_risks_an_own_goal() -> None:
    """6.10.3, 11.1.1: nobody moves; the handler rolls two d12 instead."""
    m = _pressured()
    assert m.last("own-goal-risk")["player"] == "h3"
    assert m.space("h3") == "H1" and m.space("v4") == "H1" and m.ball == "H1"
    assert m.waiting == ("chance", (), False)


def test_11_2_1_keep_the_higher_die_plus_offence_7_avoids() -> None:
    """11.2.1: max(2, 4) + 3 = 7 is enough; 11.2.2: the roller exhausts 1;
    11.3.1: a new play, same side keeps the ball where it was, speed 1."""
    m = _pressured().roll(2, 4)
    roll = m.last("own-goal-roll")
    assert roll["dice"] == [2, 4] and roll["skill"] == 3 and roll["total"] == 7
    assert roll["avoided"] is True
    assert m.tokens("h3") == 1 and m.last("exhaust")["law"] == "11.2.2"
    assert m.state.score == (0, 0) and not m.find("goal")
    assert m.last("new-play")["kind"] == "own-goal-avoided"
    assert (m.ball, m.owner, m.speed) == ("H1", HOME, 1)
    assert m.space("h3") == "M1" and m.space("h0") == "H2"  # reset (12.5.1)


def test_11_3_2_avoided_own_goal_owes_a_pickup_when_nobody_is_on_the_ball() -> None:
    """11.3.2, 10.6: home's arrangement leaves H1 empty, so its nearest walks in and pays;
    the clock charges the Pressure's minute only (4.4.3)."""
    m = _pressured().roll(4, 2)
    m.do("skip")
    send = m.last("send")
    assert send["player"] == "h0" and send["frm"] == "H2" and send["to"] == "H1"
    assert m.tokens("h0") == 1
    assert m.state.minute == 8
    assert m.owner == HOME and m.frame == "action" and m.state.turn.handler == 0


def test_11_2_1_six_is_not_enough_and_the_own_goal_is_conceded() -> None:
    """11.2.1, 11.4.1-11.4.2: max(1, 3) + 3 = 6: the goal counts for the visitors, recorded
    against the home handler, and home restarts on its own kickoff space at speed 1."""
    m = _pressured().roll(1, 3)
    assert m.last("own-goal-roll")["total"] == 6
    assert m.last("own-goal-roll")["avoided"] is False
    assert m.tokens("h3") == 1  # 11.2.2: whichever way it goes
    assert m.last("goal") == {"t": "goal", "law": "11.4.1", "side": VISITORS, "player": "h3",
                              "kind": "own-goal", "score": [0, 1], "period": 1, "minute": 8}
    assert m.state.goals == ((VISITORS, 1, 8, 3, "own-goal"),)
    assert m.last("new-play")["kind"] == "own-goal" and m.last("new-play")["side"] == HOME
    assert (m.ball, m.owner, m.speed) == ("M2", HOME, 1)
    assert m.frame == "coach" and m.waiting == ("decide", (0,), False)  # 14.4.1


def test_6_10_4_a_defenders_pressure_into_the_own_goal_spot_does_not_steal() -> None:
    """6.10.4, 11.3.1: the own-goal roll takes priority over the Defender's steal; after it
    is avoided the handler's side keeps the ball."""
    m = Match(position(home={"h4": "H1"}, visitors={"v1": "H1"}, ball="H1"))
    m.do("action maneuver", "card dribble", "card pressure").roll(5, 1)
    assert not m.find("steal") and m.last("own-goal-roll")["avoided"] is True
    assert m.owner == HOME


@pytest.mark.parametrize(("board", "end"), [(7, "V2"), (9, "V3")])
def test_11_1_1_visitors_own_end_on_both_boards(board: int, end: str) -> None:
    """11.1.1, 11.4: the visitors' space closest to their goal is the last V space; their own
    goal restarts from M2 with them in possession."""
    m = Match(position(board, home={"h4": end, "h0": "H1"}, visitors={"v1": end, "v4": "M2"},
                       ball=end, owner=VISITORS, arrangement={"v1": "V1", "h4": "M2"},
                       zones={"v1": "V", "h4": "M"}))
    m.do("action maneuver", "card dribble", "card pressure")
    assert m.last("own-goal-risk")["player"] == "v1"
    m.roll(4, 2)  # 4 + 2 = 6: conceded
    assert m.last("goal")["side"] == HOME and m.last("goal")["player"] == "v1"
    assert m.state.score == (1, 0)
    assert (m.ball, m.owner, m.speed) == ("M2", VISITORS, 1)


def test_11_2_1_a_striker_always_avoids() -> None:
    """11.2.1 (rulings 4, R5): the lowest roll, 1 and 1, plus 6 is 7."""
    m = Match(position(home={"h7": "H1"}, visitors={"v4": "H1"}, ball="H1"))
    m.do("action maneuver", "card dribble", "card pressure").roll(1, 1)
    assert m.last("own-goal-roll")["total"] == 7 and m.last("own-goal-roll")["avoided"]


def test_11_2_2_the_own_goal_roll_owes_no_injury_check() -> None:
    """11.2.2, 15.3.3: an Exhausted handler rolls, exhausts, and is never checked."""
    m = _pressured(tokens={"h3": 5})
    m.roll(6, 6)
    assert m.tokens("h3") == 6 and not m.injured("h3")
    assert not [e for e in m.find("roll") if e["for"] == "injury"]
    assert m.frame == "coach"


def test_11_3_1_avoided_own_goal_ends_last_possession() -> None:
    """11.3.1, 16.3.3: the avoided own goal is a new play and ends the period at once:
    no reset, no Coaching Choice, charged as usual."""
    m = _pressured(last_poss=True)
    m.clear().roll(12, 12)
    assert m.last("own-goal-roll")["avoided"]
    assert m.last("period-ends") == {"t": "period-ends", "law": "16.3.3", "period": 1,
                                     "minute": 8}
    assert not m.find("reset") and not m.find("new-play")
    assert m.find("halftime")


def test_11_4_1_conceded_own_goal_under_last_possession_counts_then_ends_the_half() -> None:
    """11.4.1, 16.3.3: the goal is scored, then the turnover ends the period."""
    m = _pressured(last_poss=True).roll(1, 1)
    assert m.state.score == (0, 1)
    assert m.last("period-ends")["minute"] == 8
    assert m.find("halftime")


def test_4_2_2e_own_goal_survivor_still_on_the_ball_carries() -> None:
    """4.2.2e (RULING_OWN_GOAL_SURVIVOR_CARRIES): a handler whose arrangement is the ball's
    space is back on it after the reset and handles without a choice."""
    m = Match(position(home={"h3": "H1", "h0": "H1"}, visitors={"v4": "H1", "v0": "V2"},
                       ball="H1", zones={"h3": "H"}))
    m.do("handler h3", "action maneuver", "card dribble", "card pressure").roll(7, 1)
    m.do("skip")
    assert not m.find("send")
    assert m.last("handler") == {"t": "handler", "law": "4.2.1", "player": "h3", "carrier": True}
