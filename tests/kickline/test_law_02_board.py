"""Law 2: the field, forward and back, shooting range, the kickoff space (rulings 2.1-2.3)."""

from __future__ import annotations

import pytest
from scenario import Match, position

import kickline
from kickline.board import HOME, VISITORS, Board


@pytest.mark.parametrize(
    ("n", "names", "zones"),
    [
        (7, ["H1", "H2", "M1", "M2", "M3", "V1", "V2"], "HHMMMVV"),
        (9, ["H1", "H2", "H3", "M1", "M2", "M3", "V1", "V2", "V3"], "HHHMMMVVV"),
    ],
)
def test_2_1_3_spaces_named_from_the_home_end(n: int, names: list[str], zones: str) -> None:
    """2.1.1-2.1.3 (rulings 2.1): zone letter plus position counted from the home end."""
    b = Board.of(n)
    assert list(b.names[1:]) == names
    assert "".join(b.zones[1:]) == zones
    assert [b.parse(x) for x in names] == list(range(1, n + 1))
    assert len(b.spaces("M")) == 3  # midfield is always three spaces


def test_2_1_3_no_third_goal_space_on_board_7() -> None:
    """2.1.3: board 7's goal zones are two spaces deep; H3 and V3 exist on board 9 only."""
    with pytest.raises(ValueError):
        Board.of(7).parse("H3")
    with pytest.raises(ValueError):
        Board.of(7).parse("V3")
    assert Board.of(9).parse("V3") == 9


@pytest.mark.parametrize(("n", "index"), [(7, 4), (9, 5)])
def test_2_3_2_and_2_4_1_the_middle_space_is_m2_and_the_kickoff_space(n: int, index: int) -> None:
    """2.3.2, 2.4.1: both boards are odd, the true middle is M2, and both sides kick off there."""
    b = Board.of(n)
    assert b.kickoff == index
    assert b.name(b.kickoff) == "M2"
    assert not b.in_range(HOME, b.kickoff)
    assert not b.in_range(VISITORS, b.kickoff)


@pytest.mark.parametrize(
    ("n", "home_range", "visitors_range"),
    [
        (7, ["M3", "V1", "V2"], ["H1", "H2", "M1"]),
        (9, ["M3", "V1", "V2", "V3"], ["H1", "H2", "H3", "M1"]),
    ],
)
def test_2_3_1_shooting_range_is_the_far_side_of_the_middle(
    n: int, home_range: list[str], visitors_range: list[str]
) -> None:
    """2.3.1 (rulings 2.3): the attacked goal zone plus the part of midfield past M2."""
    b = Board.of(n)
    assert [b.name(i) for i in range(1, n + 1) if b.in_range(HOME, i)] == home_range
    assert [b.name(i) for i in range(1, n + 1) if b.in_range(VISITORS, i)] == visitors_range


def test_2_2_forward_points_opposite_ways_for_the_two_sides() -> None:
    """2.2.1-2.2.2 (rulings 2.2): home attacks toward V, the visitors toward H."""
    b = Board.of(9)
    assert Board.fwd(HOME) == 1 and Board.fwd(VISITORS) == -1
    assert b.own_end(HOME) == 1 and b.attack_end(HOME) == 9
    assert b.own_end(VISITORS) == 9 and b.attack_end(VISITORS) == 1


@pytest.mark.parametrize(
    ("n", "space", "owner", "can_shoot"),
    [
        (7, "M3", HOME, True),
        (7, "M2", HOME, False),
        (7, "M1", HOME, False),
        (7, "V2", HOME, True),
        (7, "M1", VISITORS, True),
        (7, "M2", VISITORS, False),
        (7, "M3", VISITORS, False),
        (9, "M3", HOME, True),
        (9, "M2", HOME, False),
        (9, "M1", VISITORS, True),
        (9, "M2", VISITORS, False),
        (9, "H3", VISITORS, True),
    ],
)
def test_2_3_1_and_4_3_1_engine_offers_the_shot_only_in_range(
    n: int, space: str, owner: int, can_shoot: bool
) -> None:
    """2.3.1, 4.3.1, 5.1.1: a score attempt is offered exactly inside the side's range."""
    # One player each: the handler on the ball, the opponent's Fullback at the far end.
    if owner == HOME:
        home, visitors = {"h4": space}, {"v0": Board.of(n).name(n)}
    else:
        home, visitors = {"h0": "H1"}, {"v4": space}
    m = Match(position(n, home=home, visitors=visitors, ball=space, owner=owner))
    seat = 0 if owner == HOME else 1
    assert ("action shoot" in m.legal(seat)) is can_shoot
    if not can_shoot:
        before = m.state
        with pytest.raises(kickline.IllegalDecision):
            kickline.apply(before, seat, "action shoot")
        assert m.state is before and m.frame == "action"
