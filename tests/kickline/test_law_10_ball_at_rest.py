"""Law 10: where the ball comes to rest, contests, loose balls, out of bounds, pickups."""

from __future__ import annotations

from scenario import HOME, VISITORS, Match, position, refused, rolling_for

import kickline

# Board 7: H1 H2 M1 M2 M3 V1 V2.  Slots: 0 FB 1/6, 1-2 D 2/5, 3 MF 3/4, 4-5 PM 4/3, 6 W 5/2,
# 7-8 S 6/1.  Each test deflects the home ball from M2 onto M1 (6.8.2) to put it at rest.


def _deflect_onto_m1(home: dict[str, str], visitors: dict[str, str], **kw: object) -> Match:
    s = position(home={"h4": "M2", **home}, visitors={"v4": "M2", **visitors}, ball="M2",
                 speed=kw.pop("speed", 5), **kw)  # type: ignore[arg-type]
    return Match(s).do("action maneuver", "card high-pass", "card deflect")


def test_10_1_2_ball_on_one_side_only_is_theirs_and_nobody_walks_in() -> None:
    """10.1.1-10.1.2: a defender alone on M1 simply has it: no send offered to home, a steal
    (10.7.1) with the speed reset."""
    m = _deflect_onto_m1({"h0": "H1"}, {"v1": "M1"})
    assert not m.find("send") and not m.find("loose")
    assert m.last("takes-ball")["player"] == "v1"
    assert m.owner == VISITORS and m.speed == 1


def test_10_1_3_several_on_the_landing_space_their_coach_picks() -> None:
    """10.1.3: two home players on M1, nobody else: home picks who takes it."""
    m = _deflect_onto_m1({"h3": "M1", "h5": "M1"}, {"v0": "V2"})
    assert m.frame == "pick_take" and m.legal(0) == ("pick h3", "pick h5")
    assert refused(m.state, 0, "pick h4")
    m.do("pick h5")
    assert m.owner == HOME and m.last("handler")["player"] == "h5"


def test_10_1_3_both_sides_several_each_pick_a_contestant() -> None:
    """10.1.3, 10.2.1: each coach picks; home (last had it) adds offense, visitors defense."""
    m = _deflect_onto_m1({"h3": "M1", "h7": "M1"}, {"v1": "M1", "v7": "M1"})
    assert m.frame == "pick_contest" and m.legal(0) == ("pick h3", "pick h7")
    m.do("pick h7")
    assert m.legal(1) == ("pick v1", "pick v7")
    m.do("pick v1").roll(2, 4)
    c = m.last("contest")
    assert c["last"] == {"player": "h7", "die": 2, "skill": 6, "speed": 0, "total": 8}
    assert c["other"] == {"player": "v1", "die": 4, "skill": 5, "speed": 0, "total": 9}
    assert m.owner == VISITORS and m.tokens("h7") == 0 and m.tokens("v1") == 0


def test_10_2_2_contest_tie_rerolls_for_a_token_each_entry_is_free() -> None:
    """10.2.2 (rulings 1.6, OQ2): no entry token; each tie costs both contestants 1."""
    m = _deflect_onto_m1({"h3": "M1"}, {"v1": "M1"})
    m.roll(5, 3)  # 8 v 8
    assert m.last("contest")["winner"] == "tie"
    assert m.tokens("h3") == 1 and m.tokens("v1") == 1
    m.roll(6, 1)
    assert m.last("contest")["winner"] == "h3"
    assert m.tokens("h3") == 1 and m.tokens("v1") == 1 and m.owner == HOME


def test_15_3_1_contest_injury_check_counts_the_tie_token() -> None:
    """15.3.1-15.3.2: a Striker (def 1) with 1 token ties once (2 tokens, Exhausted) and is
    checked once the contest resolves; rolling 2 is not higher than 2: injured."""
    m = _deflect_onto_m1({"h7": "M1"}, {"v1": "M1"}, tokens={"h7": 1})
    m.roll(4, 5)  # 10 v 10
    m.roll(9, 1)
    assert rolling_for(m.state) == ("injury", "h7")
    m.roll(2)
    assert m.injured("h7") and m.tokens("h7") == 0
    assert m.owner == HOME  # the ball was won before the check


def test_15_4_2b_injured_contestant_adds_no_skill() -> None:
    """15.4.2b: an injured player in a contest rolls the bare d12."""
    m = _deflect_onto_m1({"h3": "M1"}, {"v1": "M1"}, injured=["v1"])
    m.roll(2, 4)
    c = m.last("contest")
    assert c["other"] == {"player": "v1", "die": 4, "skill": 0, "speed": 0, "total": 4}
    assert c["last"]["total"] == 5 and m.owner == HOME


def test_10_3_1_loose_sends_are_secret_and_offer_the_two_nearest() -> None:
    """10.3.1 (rulings OQ6), 9.2: each coach chooses in secret from its two nearest or none."""
    m = _deflect_onto_m1({"h0": "H1", "h6": "V1"}, {"v1": "H2", "v0": "V2"})
    assert m.waiting == ("decide", (0, 1), True)
    assert m.legal(0) == ("send h0", "send h4", "send none")
    assert m.legal(1) == ("send none", "send v1", "send v4")
    m.by(1, "send v1")
    assert kickline.view(m.state, 0)["secret"]["mine"] is None
    assert kickline.view(m.state, 0)["secret"]["chosen"]["visitors"] is True
    assert "decision" not in kickline.redact(m.events, 0)[-1]
    assert m.space("v1") == "H2"  # nothing moves before both are in


def test_10_3_2_only_one_side_sends_and_takes_it_without_a_test() -> None:
    """10.3.2, 9.4.1: the lone sender walks in, pays per space, takes the ball, no dice."""
    m = _deflect_onto_m1({"h0": "H1"}, {"v1": "H2", "v0": "V2"})
    m.do("send h0", "send none")
    assert not m.find("roll")
    assert m.space("h0") == "M1" and m.tokens("h0") == 2
    assert m.owner == HOME and m.ball == "M1"
    assert m.last("handler")["player"] == "h0"


def test_10_3_2_both_send_and_contest() -> None:
    """10.3.2, 10.2.1: both pay their walk; home last had it, so adds offense."""
    m = _deflect_onto_m1({"h0": "H1"}, {"v1": "H2", "v0": "V2"})
    m.do("send h0", "send v4").roll(8, 3)
    c = m.last("contest")
    assert c["last"]["total"] == 9 and c["other"]["total"] == 6
    assert m.tokens("h0") == 2 and m.tokens("v4") == 1 and m.owner == HOME


def test_10_5_neither_sends_out_of_bounds_new_play_then_pickup() -> None:
    """10.5.1-10.5.2, 12.5.1, 10.6: the visitors take over at speed 1; both sides reset to
    their arrangements; the visitors get a Coaching Choice; then they must pick it up."""
    m = _deflect_onto_m1({"h0": "H1"}, {"v1": "H2", "v0": "V2"},
                         arrangement={"h4": "M3"}, zones={"h4": "M"})
    m.do("send none", "send none")
    assert m.last("out-of-bounds") == {"t": "out-of-bounds", "law": "10.5.1", "space": "M1",
                                       "side": VISITORS}
    assert m.last("new-play")["kind"] == "out"
    assert m.space("h4") == "M3"  # 12.5.1: reset to the arrangement
    assert m.frame == "coach" and m.waiting == ("decide", (1,), False)
    m.do("skip")
    assert m.frame == "send" and m.legal(1) == ("send v1", "send v4")
    m.do("send v4")
    assert m.owner == VISITORS and m.speed == 1 and m.tokens("v4") == 1
    assert m.state.minute == 4


def test_10_6_1_pickup_settled_for_nothing_when_one_is_already_there() -> None:
    """10.6.1, 9.3.1: after the reset v3's arrangement puts them on M1: no send, no token."""
    m = _deflect_onto_m1({"h0": "H1"}, {"v3": "M3", "v0": "V2"},
                         arrangement={"v3": "M1"})
    m.do("send none", "send none", "skip")
    assert not m.find("send")
    assert m.space("v3") == "M1" and m.tokens("v3") == 0
    assert m.frame == "action" and m.last("handler")["player"] == "v3"
