"""Law 17: the extreme shootout -- order, tests, early finish, sudden death (rulings 3.2 D49-D51,
4 R9-R10, OQ22)."""

from __future__ import annotations

from collections.abc import Iterable

import pytest
from scenario import HOME_DEAL_7, VISITORS_DEAL_7, Match, position

import kickline
from kickline.board import HOME, VISITORS

HOME6 = HOME_DEAL_7
VIS6 = VISITORS_DEAL_7
H_ORDER = "order h7 h6 h4 h3 h1 h0"  # offence 6 5 4 3 2 1
V_ORDER = "order v7 v6 v4 v3 v1 v0"


def _full_time(score: tuple[int, int] = (1, 1), injured: Iterable[str] = (),
               tokens: dict[str, int] | None = None) -> Match:
    """Level at full time: the ending steal sends the game to the shootout (16.5.2)."""
    m = Match(position(home=HOME6, visitors=VIS6, ball="M2", period=2, minute=31,
                       last_poss=True, score=score, injured=injured, tokens=tokens))
    m.do("card low-pass", "card steal")
    assert m.state.period == 3
    return m


def _ordered(**kw: object) -> Match:
    m = _full_time(**kw)  # type: ignore[arg-type]
    m.do("skip", "skip", H_ORDER, V_ORDER)
    return m


def _test(m: Match, home_die: int, visitors_die: int) -> dict[str, object]:
    m.roll(home_die, visitors_die)
    return m.last("shootout-test")


def test_17_3_1_orders_are_secret_and_simultaneous() -> None:
    """17.3.1: each coach orders their own six in secret; neither sees the other's until the
    top cards are revealed together."""
    m = _full_time()
    m.do("skip", "skip")
    assert m.waiting == ("decide", (0, 1), True)
    assert len(m.legal(0)) == 720 and H_ORDER in m.legal(0) and V_ORDER in m.legal(1)
    assert V_ORDER not in m.legal(0)
    m.by(1, V_ORDER)
    assert kickline.view(m.state, 0)["shootout"]["orders"][VISITORS] is None
    assert m.waiting == ("decide", (0,), True)
    m.by(0, H_ORDER)
    assert m.last("shooters") == {"t": "shooters", "law": "17.3.1", "home": "h7",
                                  "visitors": "v7", "test": 1}
    view = kickline.view(m.state, 0)["shootout"]
    assert view["orders"][VISITORS] == ["v7"]  # only the revealed top card


def test_17_4_1_higher_total_scores_and_17_5_1_goes_on_the_scoreboard() -> None:
    """17.4.1-17.4.2, 17.5.1: d12 + offence, no defender; the higher total scores a goal that
    counts on the scoreboard, recorded in period 3."""
    m = _ordered()
    t = _test(m, 7, 6)
    assert t["home"] == {"player": "h7", "die": 7, "total": 13}
    assert t["visitors"] == {"player": "v7", "die": 6, "total": 12}
    assert t["scorer"] == HOME
    assert m.state.score == (2, 1)
    assert m.last("goal")["kind"] == "shootout" and m.last("goal")["period"] == 3


def test_17_4_2_a_tie_scores_for_neither_and_is_not_rolled_again() -> None:
    """17.4.2: equal totals: no goal, and the next pair steps up."""
    m = _ordered()
    t = _test(m, 4, 4)
    assert t["scorer"] == -1 and m.state.score == (1, 1)
    assert m.last("shooters")["test"] == 2 and m.last("shooters")["home"] == "h6"


def test_17_4_3_no_exhaustion_and_no_injury_check() -> None:
    """17.4.3, 15.3.3: an Exhausted shooter is never checked and gains nothing."""
    m = _ordered(tokens={"h7": 5, "v7": 4})
    _test(m, 1, 12)
    assert m.tokens("h7") == 5 and m.tokens("v7") == 4
    assert not m.find("exhaust") and not m.find("injury-check")
    assert m.last("shooters")["test"] == 2


def test_17_4_1_an_injured_shooter_rolls_the_bare_d12() -> None:
    """17.4.1, 17.2.1: injuries carry into the shootout; an injured Striker adds nothing."""
    m = _ordered(injured=["h7"])
    t = _test(m, 9, 3)
    assert t["home"] == {"player": "h7", "die": 9, "total": 9}
    assert t["visitors"]["total"] == 9 and t["scorer"] == -1


def test_17_2_1_the_full_time_substitute_shoots_instead() -> None:
    """16.5.2, 17.2.1: the shootout is played by the six on the field after the full-time
    substitution, home first."""
    m = _full_time()
    m.do("sub h7 h8", "skip")
    orders = m.legal(0)
    assert "order h8 h6 h4 h3 h1 h0" in orders and H_ORDER not in orders


def test_17_6_1_round_stops_when_the_lead_exceeds_the_tests_to_come() -> None:
    """17.6.1: 3-0 after three (3 to come) goes on; 4-0 after four (2 to come) wins."""
    m = _ordered()
    for _ in range(3):
        _test(m, 12, 1)
    assert m.waiting == ("chance", (), False)
    _test(m, 12, 1)
    assert m.last("shootout-won") == {"t": "shootout-won", "law": "17.6.1", "side": HOME}
    assert m.waiting == ("over", (), False)
    assert m.state.score == (5, 1)  # 17.5.1: 1:1 settled 4-0 finishes 5:1
    assert kickline.result(m.state) == {"winner": 0, "score": [5, 1], "home_seat": 0,
                                        "score_home_visitors": [5, 1], "shootout": True}


def test_17_6_1_a_one_goal_lead_with_one_test_left_plays_on() -> None:
    """17.6.1: after five tests a lead of 1 is not bigger than the one to come; a lead of 2
    after the sixth's visitors' goal is settled by the round."""
    m = _ordered()
    for hd, vd in ((12, 1), (1, 12), (12, 1), (5, 5), (5, 5)):
        _test(m, hd, vd)
    assert m.waiting == ("chance", (), False)  # 2-1 after five: the sixth is still taken
    _test(m, 1, 12)  # h0 1 + 1 = 2 against v0 12 + 1 = 13: 2-2
    assert m.last("sudden-death")["law"] == "17.6.2"
    assert m.state.score == (3, 3)


def test_17_6_2_sudden_death_any_lead_wins() -> None:
    """17.6.2: after a level round each coach secretly picks a shooter who has not shot in
    this round (a new round: everybody, 17.6.3); any lead at all wins."""
    m = _ordered()
    for _ in range(6):
        _test(m, 6, 6)
    assert m.find("sudden-death") and m.state.score == (1, 1)
    assert m.waiting == ("decide", (0, 1), True)
    assert len(m.legal(0)) == 6
    m.by(0, "shooter h0")
    # 17.6.2: the pick is secret until both are in
    assert kickline.view(m.state, 1)["secret"]["chosen"] == {"home": True, "visitors": False}
    assert "decision" not in kickline.redact(m.events, 1)[-1]
    assert kickline.redact(m.events, 0)[-1]["decision"] == "shooter h0"
    m.by(1, "shooter v7")
    assert m.last("shooters")["sudden_death"] is True
    t = _test(m, 12, 5)  # 12 + 1 = 13 against 5 + 6 = 11
    assert t["scorer"] == HOME
    assert m.last("shootout-won") == {"t": "shootout-won", "law": "17.6.2", "side": HOME}
    assert m.waiting == ("over", (), False) and m.state.score == (2, 1)


def test_17_6_2_a_sudden_death_shooter_is_not_picked_again_until_a_new_round() -> None:
    """17.6.2-17.6.3: a level pair leaves both out of the next pick (a repeat pick is refused
    without changing the state); the last pair is nobody's choice; after six level tests a
    new round begins and everybody is available again."""
    m = _ordered()
    for _ in range(6):
        _test(m, 6, 6)
    picks = [("h7", "v7"), ("h6", "v6"), ("h4", "v4"), ("h3", "v3"), ("h1", "v1")]
    for k, (h, v) in enumerate(picks):
        assert len(m.legal(0)) == 6 - k and len(m.legal(1)) == 6 - k
        m.do(f"shooter {h}", f"shooter {v}")
        _test(m, 6, 6)  # identical roles, equal dice: level
        assert m.last("shootout-test")["scorer"] == -1
        if k == 0:
            before = m.state
            with pytest.raises(kickline.IllegalDecision):
                kickline.apply(before, 0, "shooter h7")
            assert m.state is before
    # h0 and v0 are all that is left: taken without asking
    assert m.waiting == ("chance", (), False)
    assert m.last("shooters")["home"] == "h0" and m.last("shooters")["visitors"] == "v0"
    _test(m, 6, 6)
    assert len(m.legal(0)) == 6 and len(m.legal(1)) == 6  # 17.6.3
    assert m.state.score == (1, 1)
