"""Law 9: sending a player: the two nearest, ties, end spaces, cost, sending nobody."""

from __future__ import annotations

import pytest
from scenario import HOME, VISITORS, Match, position, refused

# Board 7: H1 H2 M1 M2 M3 V1 V2; board 9: H1-H3 M1-M3 V1-V3.


def test_9_2_3_every_player_tied_for_nearest_is_offered() -> None:
    """9.2.1, 9.2.3: two visitors on H2 (nearest behind) and one on V1 (nearest ahead)."""
    s = position(home={"h4": "M2"}, visitors={"v1": "M1", "v3": "M1", "v0": "V2", "v6": "V1"},
                 ball="M2")
    m = Match(s).do("action maneuver")
    assert m.legal(1) == ("send none", "send v1", "send v3", "send v6")
    assert refused(m.state, 1, "send v0")


@pytest.mark.parametrize(("board", "ball", "offered"), [
    (7, "V2", ("send none", "send v3")),
    (9, "V3", ("send none", "send v3")),
])
def test_9_2_2_ball_on_the_end_space_offers_one_direction(
    board: int, ball: str, offered: tuple[str, ...]
) -> None:
    """9.2.2 (rulings 2.5, OQ7): nobody beyond the end; only the nearest inward is offered."""
    s = position(board, home={"h4": ball}, visitors={"v3": "V1", "v0": "M2", "v1": "H1"},
                 ball=ball)
    m = Match(s).do("action maneuver")
    assert m.legal(1) == offered


def test_9_2_1_directions_are_physical_for_the_visitors_too() -> None:
    """9.2.1 with RULING OQ7: home sending against the visitors' ball on H1 (the visitors'
    attacking end) is offered the nearest toward V only: every home player there."""
    s = position(home={"h0": "H2", "h1": "H2", "h4": "M2"}, visitors={"v4": "H1"}, ball="H1",
                 owner=VISITORS)
    m = Match(s).do("action maneuver")
    assert m.legal(0) == ("send h0", "send h1", "send none")


def test_9_4_1_cost_is_one_token_per_space_on_board_9() -> None:
    """9.4.1, 2.1.4: V3 to M2 on board 9 is 4 spaces."""
    s = position(9, home={"h4": "M2", "h0": "H1"}, visitors={"v0": "V3"}, ball="M2")
    m = Match(s).do("action maneuver", "send v0")
    assert m.last("send")["spaces"] == 4 and m.tokens("v0") == 4 and m.space("v0") == "M2"


def test_9_4_1_an_injured_player_may_be_sent_for_nothing() -> None:
    """9.4.1, 15.1.3 (rulings OQ19): injured players are offered and never exhaust."""
    s = position(home={"h4": "M2"}, visitors={"v1": "H1", "v0": "V2"}, ball="M2",
                 injured=["v1"])
    m = Match(s).do("action maneuver", "send v1")
    assert m.space("v1") == "M2" and m.tokens("v1") == 0 and not m.find("exhaust")


def test_9_6_1_a_sent_player_stays_until_a_turnover() -> None:
    """9.6.1, 6.1.2: after a Low Pass beats the sent challenger, they stay on M2; next turn
    the ball is on M3 and they are not there, so a fresh send is offered from M2."""
    s = position(home={"h4": "M2", "h3": "M3"}, visitors={"v1": "H2", "v0": "V2"}, ball="M2")
    m = Match(s).do("action maneuver", "send v1", "card low-pass", "card pressure")
    assert m.space("v1") == "M2" and m.owner == HOME and m.ball == "M3"
    m.do("action maneuver")
    assert m.legal(1) == ("send none", "send v0", "send v1")
    m.do("send v1")
    assert m.tokens("v1") == 2 + 1


def test_9_5_1_pickup_cannot_be_declined_but_challenge_and_loose_can() -> None:
    """9.5.1: 'send none' is legal for a challenge and a loose ball, never for a pickup."""
    s = position(home={"h4": "M2", "h0": "H1"}, visitors={"v4": "M2", "v1": "H1"}, ball="M2")
    m = Match(s).do("action maneuver", "card high-pass", "card deflect")
    assert m.frame == "loose" and m.ball == "M1"
    assert "send none" in m.legal(0) and "send none" in m.legal(1)
    m.do("send none", "send none")  # out of bounds (10.5): the visitors gain it
    assert m.last("out-of-bounds")["side"] == VISITORS
    m.do("skip")
    assert m.frame == "send"
    assert m.legal(1) == ("send v1", "send v4")
    assert refused(m.state, 1, "send none")
    assert m.owner == VISITORS
