"""Law 13: time outs -- the three conditions, the two Coaching Choices, the reset, the pickup
and the cost (rulings 1.2 12.3, 1.4, 1.6 row 4, OQ26)."""

from __future__ import annotations

import pytest
from scenario import Match, position

import kickline
from kickline.board import HOME, VISITORS


def _midfield(**kw: object) -> Match:
    """Home's h4 holds the ball on M1 but is arranged on M2; h3 is on M3, h0 on H2."""
    return Match(position(home={"h4": "M1", "h0": "H2", "h3": "M3"},
                          visitors={"v4": "M1", "v0": "V2"}, ball="M1", speed=6, minute=9,
                          arrangement={"h4": "M2", "v4": "M2"}, **kw))  # type: ignore[arg-type]


def test_13_1_time_out_keeps_the_ball_resets_and_charges_one_minute() -> None:
    """13.1.1-13.1.2, 13.5.1, 13.6.1, 13.4.1: possession and the ball stay, speed goes to 1;
    the caller coaches first and the other replies even after a pass (OQ26); then both
    sides reset; then the pickup, at 1 token a space; 1 space minute, no other cost."""
    m = _midfield()
    m.do("action timeout")
    assert m.last("time-out")["side"] == HOME and m.state.timeouts == (True, False)
    assert (m.ball, m.owner, m.speed) == ("M1", HOME, 1)
    assert m.frame == "coach" and m.waiting == ("decide", (0,), False)
    assert m.space("h4") == "M1"  # nothing resets before the Choices
    m.do("skip")
    assert m.frame == "coach" and m.waiting == ("decide", (1,), False)
    assert m.state.stack[-1][2] == "timeout-reply"
    m.do("skip")
    assert m.space("h4") == "M2" and m.space("v4") == "M2"  # 13.1.2: both sides reset
    # 9.2: the nearest on each side (h3 on M3 is farther than h4 on M2)
    assert m.frame == "send" and m.legal(0) == ("send h0", "send h4")
    m.do("send h4")
    assert m.space("h4") == "M1" and m.tokens("h4") == 1
    assert m.state.minute == 10 and m.last("clock")["cost"] == 1
    assert not m.find("run-back") and not m.find("steal-turnover")
    assert [e["t"] for e in m.events].count("coaching-skipped") == 2  # no third Choice
    assert m.owner == HOME and m.state.turn.side == HOME
    # the time out is spent, so the maneuver is the only action left (13.2.1b)
    assert m.find("forced")[-1]["decision"] == "action maneuver"


def test_13_1_2_reset_uses_the_arrangement_as_the_choices_left_it() -> None:
    """13.1.2, 13.6.1: the caller moves h3's arrangement onto M1; after the reset h3 stands
    on the ball, so no pickup is owed and nobody pays anything."""
    m = _midfield()
    m.do("action timeout", "move h3 M1", "finish", "skip")
    assert m.space("h3") == "M1" and m.space("h4") == "M2" and not m.find("send")
    assert m.tokens("h4") == 0 and m.tokens("h0") == 0 and m.tokens("h3") == 0
    assert m.state.minute == 10


def test_13_6_1_pickup_is_charged_per_space_travelled() -> None:
    """13.4.1, 10.6.2: a pickup after a time out costs like any other: 2 spaces, 2 tokens."""
    m = Match(position(9, home={"h4": "M1", "h0": "H2"}, visitors={"v0": "V3"}, ball="M1",
                       arrangement={"h4": "M3"}))
    m.do("action timeout", "skip", "skip")
    assert m.legal(0) == ("send h0", "send h4")  # H2 and M3 are both 2 spaces from M1
    m.do("send h0")
    assert m.tokens("h0") == 2 and m.space("h0") == "M1"


def test_13_5_1_visitors_call_and_coach_first() -> None:
    """13.5.1: the side that called it takes the first Choice, the other replies."""
    m = Match(position(home={"h0": "H1", "h4": "M2"}, visitors={"v4": "M2", "v0": "V2"},
                       ball="M2", owner=VISITORS))
    m.do("action timeout")
    assert m.waiting == ("decide", (1,), False)
    m.do("skip")
    assert m.waiting == ("decide", (0,), False)
    m.do("skip")
    assert m.state.timeouts == (False, True) and m.owner == VISITORS


def test_13_2_1a_no_time_out_in_shooting_range() -> None:
    """13.2.1a, 4.3.3: in range the menu is shot or maneuver; a time out raises."""
    m = Match(position(home={"h4": "M3"}, visitors={"v0": "V2"}, ball="M3"))
    before = m.state
    with pytest.raises(kickline.IllegalDecision):
        kickline.apply(before, 0, "action timeout")
    assert m.state is before and "action timeout" not in m.legal(0)


def test_13_2_1b_once_a_half_per_side() -> None:
    """13.2.1b: a side that has taken its time out may not call another; the other side's
    use does not count against it."""
    used = Match(position(home={"h4": "M2", "h3": "M2"}, visitors={"v0": "V2"}, ball="M2",
                          timeouts=(True, False)))
    before = used.state
    used.do("handler h4")
    assert used.find("forced")[-1]["decision"] == "action maneuver"
    with pytest.raises(kickline.IllegalDecision):
        kickline.apply(before, 0, "action timeout")  # the handler choice comes first anyway
    assert used.state is not before and before.stack[-1][0] == "handler"
    other = Match(position(home={"h4": "M2"}, visitors={"v0": "V2"}, ball="M2",
                           timeouts=(False, True)))
    assert other.legal(0) == ("action maneuver", "action timeout")


def test_13_2_1c_legal_on_minute_14_and_it_brings_last_possession() -> None:
    """13.2.1c: legal on 14; its minute takes the clock to 15 and last possession follows."""
    m = Match(position(home={"h4": "M2"}, visitors={"v0": "V2"}, ball="M2", minute=14))
    assert "action timeout" in m.legal(0)
    m.do("action timeout", "skip", "skip")
    assert m.state.minute == 15 and m.state.last_poss
    assert m.last("last-possession")["side"] == HOME


@pytest.mark.parametrize(("minute", "period"), [(15, 1), (30, 2), (18, 1)])
def test_13_2_1c_never_under_last_possession(minute: int, period: int) -> None:
    """13.2.1c, 4.3.3: not on 15 or 30 (nor later), once last possession is declared; the
    maneuver is then the only action and is taken without asking."""
    m = Match(position(home={"h4": "M2", "h3": "M2"}, visitors={"v0": "V2"}, ball="M2",
                       minute=minute, period=period, last_poss=True))
    assert m.frame == "handler"
    m.do("handler h4")
    assert m.find("forced")[-1]["decision"] == "action maneuver"
    assert m.frame == "send" and not m.state.timeouts[HOME]


def test_13_time_out_is_only_the_possessing_sides_to_call() -> None:
    """4.1.1, 13.1.1: the side without the ball cannot call one; the refusal changes nothing."""
    m = Match(position(home={"h4": "M2"}, visitors={"v0": "V2"}, ball="M2", minute=14))
    before = m.state
    assert kickline.legal(before, 0) == ("action maneuver", "action timeout")
    with pytest.raises(kickline.IllegalDecision):
        kickline.apply(before, 1, "action timeout")
    assert m.state is before and before.timeouts == (False, False)


def test_13_3_1_nobody_to_bring_on_may_still_call_one() -> None:
    """13.3.1, 14.6.4: empty bench and an all-injured back bench: the time out is still
    offered and buys the Choice without substitutions."""
    injured = ["h1", "h2", "h3", "h5", "h6", "h7", "h8"]
    m = Match(position(home={"h4": "M2", "h0": "H1"}, visitors={"v0": "V2"}, ball="M2",
                       bench=["v1", "v2", "v3"], injured=injured))
    assert "action timeout" in m.legal(0)
    m.do("action timeout")
    assert m.frame == "coach"
    assert not [d for d in m.legal(0) if d.startswith("sub ")]
    assert "formation 2-2-2" in m.legal(0)


def test_13_5_1_time_out_substitutions_come_from_the_halfs_two() -> None:
    """14.5.1 via 13.5.1: the time out's Choices spend the half's substitution count."""
    m = _midfield()
    m.do("action timeout", "sub h0 h1", "finish")
    assert m.state.subs == (1, 2)
    m.do("skip")
    assert m.space("h1") == "H2"  # 14.2.1 RULING: the incoming player inherits the slot


@pytest.mark.parametrize(
    ("board", "owner", "space", "offered"),
    [
        (9, HOME, "M1", True),
        (9, HOME, "M2", True),
        (9, HOME, "M3", False),
        (9, HOME, "H1", True),
        (9, VISITORS, "M3", True),
        (9, VISITORS, "M2", True),
        (9, VISITORS, "M1", False),
        (9, VISITORS, "V3", True),
        (7, VISITORS, "M1", False),
        (7, VISITORS, "V2", True),
    ],
)
def test_13_2_1a_time_out_exactly_outside_range_both_boards(
    board: int, owner: int, space: str, offered: bool
) -> None:
    """13.2.1a, 2.3: the time out is offered on every space outside the side's range."""
    if owner == HOME:
        m = Match(position(board, home={"h4": space}, visitors={"v0": "V1"}, ball=space))
    else:
        m = Match(position(board, home={"h0": "H1"}, visitors={"v4": space}, ball=space,
                           owner=VISITORS))
    seat = 0 if owner == HOME else 1
    assert ("action timeout" in m.legal(seat)) is offered
    assert ("action shoot" in m.legal(seat)) is not offered


def test_10_6_3_time_out_pickup_is_never_contested() -> None:
    """13.6.1, 10.6.3: a defender arranged on the ball's space does not contest the pickup;
    nobody rolls and the caller keeps the ball."""
    m = Match(position(home={"h4": "M1", "h0": "H2"}, visitors={"v3": "M2", "v4": "M2"},
                       ball="M1", arrangement={"h4": "M2", "v3": "M1"}))
    m.do("action timeout", "skip", "skip", "send h4")
    assert m.space("v3") == "M1" and m.space("h4") == "M1"
    assert not m.find("contest") and not m.find("roll")
    assert m.owner == HOME and m.state.turn.side == HOME
