"""Law 20.3 Lithium Powered (Cyborg): drain, Drained, damage tests, Overdrive, Charge-up."""

from __future__ import annotations

import json

from scenario import Match, position, rolling_for, skill_test_duel

import kickline
from kickline.state import parse_pid

# Board 7: H1 H2 M1 M2 M3 V1 V2.  Cyborgs by slot: 0 Bulwark FB 1/6, 1 Voltus D 2/5,
# 3 Strider MF 3/4, 4 Gearclaw PM 4/3, 7 Pulsar S 6/1, 8 Coilshot S.  In standard mode
# none of them has a personal ability.  The training team plays no ability at all.
TRAINEES_VS_CY = ("training", "cyborgs")


def _duel(mode: str = "standard", teams: tuple[str, str] = TRAINEES_VS_CY,
          hand: str = "h4", chal: str = "v4", **kw: object) -> Match:
    """Handler and challenger alone on M2; the cards tie (Dribble v Steal) into a test."""
    return skill_test_duel(teams, hand=hand, chal=chal, mode=mode, **kw)


def test_20_3_5_overdrive_drains_3_for_plus_5() -> None:
    """20.3.5: before the die, the Cyborg's coach may drain 3 to add +5 to the roll."""
    m = _duel()
    assert m.frame == "declare" and m.waiting == ("decide", (1,), True)
    assert m.legal(1) == ("declare none", "declare overdrive")
    m.do("declare overdrive")
    assert m.tokens("v4") == 1 + 3  # the test's entry token, then the drain
    assert m.last("overdrive") == {"t": "overdrive", "law": "20.3.5", "player": "v4",
                                   "bonus": 5, "drain": 3}
    assert m.last("exhaust")["word"] == "drain"
    m.roll(5, 5)
    test = m.last("skill-test")
    assert (test["defense"]["overdrive"], test["defense"]["total"]) == (5, 5 + 3 + 5)
    assert test["offense"]["total"] == 5 + 4 and test["winner"] == "D"


def test_20_3_5_a_non_cyborg_has_nothing_to_declare() -> None:
    """20.3.5, rulings D14: only a Cyborg declares; anyone else rolls straight away."""
    m = _duel(teams=("training", "fire-demons"))
    assert m.waiting[0] == "chance"
    assert not [e for e in m.find("chosen") if e["law"] == "20.3.5"]


def test_20_3_5_overdrive_is_declared_blind_in_secret() -> None:
    """20.3.5, rulings D14/OQ25: both coaches declare secretly and simultaneously; the
    opponent sees neither the choice nor its drain until both have declared."""
    m = _duel(teams=("cyborgs", "cyborgs"))
    assert m.waiting == ("decide", (0, 1), True)
    views = set()
    for choice in ("declare none", "declare overdrive"):
        s2, ev = kickline.apply(m.state, 0, choice)
        views.add(json.dumps([kickline.view(s2, 1), kickline.redact(ev, 1)], sort_keys=True))
        assert not [e for e in kickline.redact(ev, 1) if "decision" in e]
        assert not [e for e in ev if e["t"] == "overdrive"]
        assert kickline.view(s2, 1)["secret"]["mine"] is None
    assert len(views) == 1
    m.by(0, "declare overdrive")
    assert m.tokens("h4") == 1
    m.by(1, "declare none")
    assert m.last("overdrive")["player"] == "h4" and m.tokens("h4") == 4
    assert kickline.to_act(m.state)[0] == "chance"


def test_20_3_6_a_tied_roll_is_declared_afresh() -> None:
    """20.3.6: the +5 does not carry to the re-roll of a tie; it may be declared again."""
    m = _duel().do("declare overdrive").roll(9, 5)  # 9+4 = 13 = 5+3+5
    assert m.last("skill-test")["winner"] == "tie"
    assert m.frame == "declare" and m.legal(1) == ("declare none", "declare overdrive")
    m.do("declare none").roll(5, 5)
    test = m.last("skill-test")
    assert (test["defense"]["overdrive"], test["defense"]["total"]) == (0, 8)
    assert m.tokens("v4") == 1 + 3 + 1
    assert len(m.find("overdrive")) == 1


def test_20_3_3_a_cyborg_with_low_defence_is_not_exhausted_below_7() -> None:
    """20.3.3: Pulsar (def 1) with 6 drain after the test is not Drained: no check."""
    m = _duel(chal="v7", tokens={"v7": 5}).do("declare none").roll(12, 1)
    assert m.tokens("v7") == 6 and not m.find("injury-check")
    assert kickline.view(m.state, 0)["players"][parse_pid("v7")]["exhausted"] is False


def test_20_3_3_drained_at_7_counts_as_exhausted_for_the_damage_test() -> None:
    """20.3.3, 20.3.4: 7 drain is Drained: the check after a test is a damage test, on
    which Overdrive may be declared (20.3.5); failing it leaves the Cyborg Damaged."""
    m = _duel(tokens={"v4": 6}).do("declare none").roll(12, 1)
    assert m.tokens("v4") == 7 and m.frame == "declare"
    assert m.state.exhausted(parse_pid("v4"))
    m.do("declare overdrive")  # 10 drain now, and +5 on the check
    assert rolling_for(m.state) == ("injury", "v4")
    m.roll(4)
    check = m.last("injury-check")
    assert (check["word"], check["overdrive"], check["tokens"], check["injured"]) == (
        "damage", 5, 10, True)
    assert m.injured("v4") and m.tokens("v4") == 0


def test_20_3_4_a_damage_test_passed_keeps_the_cyborg_fit() -> None:
    """20.3.4: same check, same rule: safe when the roll beats the drain."""
    m = _duel(tokens={"v4": 6}).do("declare none").roll(12, 1).do("declare none").roll(8)
    check = m.last("injury-check")
    assert (check["word"], check["injured"], check["total"]) == ("damage", False, 8)


def test_20_3_5_overdrive_on_an_own_goal_roll() -> None:
    """20.3.5, 11.2: one declaration for the roll, however many dice it has."""
    s = position(home={"h7": "H1", "h4": "M2"}, visitors={"v4": "H1", "v0": "V2"}, ball="H1",
                 mode="standard", teams=("cyborgs", "training"))
    m = Match(s).do("action maneuver", "card dribble", "card pressure", "declare overdrive")
    m.roll(1, 1)
    roll = m.last("own-goal-roll")
    assert (roll["overdrive"], roll["total"], roll["avoided"]) == (5, 1 + 6 + 5, True)
    assert m.tokens("h7") == 3 + 1  # the drain, then the roll's own token (11.2.2)


def _steal_position(mode: str = "standard", **kw: object) -> Match:
    """Visitors' Cyborgs steal on M2: v4 carries the ball back to M3; v3 stands out of
    its zone on M1 and must run back to V1; v0 stands still on V2."""
    s = position(home={"h4": "M2", "h0": "H1"}, visitors={"v4": "M2", "v3": "M1", "v0": "V2"},
                 zones={"v3": "V"}, arrangement={"v3": "V1"}, ball="M2", mode=mode,
                 teams=TRAINEES_VS_CY, **kw)  # type: ignore[arg-type]
    return Match(s).do("action maneuver", "card low-pass", "card steal")


def test_20_3_7_charge_up_clears_1_for_a_cyborg_who_does_not_move() -> None:
    """20.3.7-20.3.8: after a run back each still Cyborg clears 1 drain, the carrier too;
    the one who ran clears nothing."""
    m = _steal_position(tokens={"v0": 2, "v3": 2, "v4": 3})
    assert m.last("steal")["player"] == "v4"
    assert m.space("v3") == "V1"  # the only place to go: run automatically
    assert m.tokens("v3") == 2 + 3
    assert m.tokens("v0") == 1 and m.tokens("v4") == 2
    clears = {e["player"]: e for e in m.find("clear")}
    assert sorted(clears) == ["v0", "v4"] and clears["v0"]["law"] == "20.3.7"


def test_20_3_7_never_below_zero() -> None:
    """20.3.7: a Cyborg with no drain clears nothing."""
    m = _steal_position()
    assert not m.find("clear") and m.tokens("v0") == 0


def test_20_3_10_a_new_play_reset_charges_nobody() -> None:
    """20.3.10: a missed shot makes a new play; the reset is no run back."""
    s = position(home={"h7": "V1", "h0": "H1"}, visitors={"v0": "V2", "v1": "M3"}, ball="V1",
                 mode="standard", teams=("cyborgs", "training"), tokens={"h0": 2, "h7": 2})
    m = Match(s).do("action shoot", "declare none").roll(1, 12)
    assert m.last("new-play")["kind"] == "miss"
    assert not m.find("clear") and m.tokens("h0") == 2 and m.tokens("h7") == 2


def test_18_1_1a_training_mode_has_no_drain_no_overdrive_no_charge_up() -> None:
    """18.1.1a: in training a Cyborg is exhausted on the ordinary threshold and has no
    Overdrive and no Charge-up."""
    m = _duel(mode="training", chal="v7", tokens={"v7": 1})
    assert m.waiting[0] == "chance"
    m.roll(12, 1)
    assert rolling_for(m.state) == ("injury", "v7")  # 2 tokens > def 1: Exhausted
    m = _steal_position(mode="training", tokens={"v0": 2})
    assert m.tokens("v0") == 2 and not m.find("clear")


def _deflect_contest(injured: tuple[str, ...] = ()) -> Match:
    """A Deflect drops the High Pass on M1, where h3 (training) and v3 (Cyborg) stand."""
    s = position(home={"h4": "M2", "h3": "M1", "h0": "H1"},
                 visitors={"v4": "M2", "v3": "M1", "v0": "V2"}, ball="M2",
                 mode="standard", teams=TRAINEES_VS_CY, injured=injured)
    return Match(s).do("action maneuver", "card high-pass", "card deflect")


def test_20_3_5_overdrive_in_a_contest_for_the_ball() -> None:
    """20.3.5, 10.2: a contest die may be Overdriven."""
    m = _deflect_contest()
    assert m.frame == "declare" and m.legal(1) == ("declare none", "declare overdrive")
    m.do("declare overdrive").roll(5, 5)
    contest = m.last("contest")
    assert (contest["other"]["overdrive"], contest["other"]["total"]) == (5, 5 + 4 + 5)
    assert contest["winner"] == "v3"
    # 3 drained; then the won ball is a steal, and v3, holding it, charges up 1 (20.3.7).
    assert m.tokens("v3") == 2 and m.last("clear")["player"] == "v3"


def test_20_3_6_a_damaged_cyborg_keeps_overdrive() -> None:
    """20.3.6: a flat bonus, not a skill: a Damaged Cyborg adds no skill (15.4.2b) but
    keeps the +5; as an injured player never exhausts (15.1.3) it drains nothing."""
    m = _deflect_contest(injured=("v3",)).do("declare overdrive").roll(5, 5)
    other = m.last("contest")["other"]
    assert (other["skill"], other["overdrive"], other["total"]) == (0, 5, 10)
    assert m.last("overdrive")["drain"] == 0 and m.tokens("v3") == 0


def test_20_2_3_and_20_3_5_the_shootout_test_ignites_and_may_be_overdriven() -> None:
    """20.2.3, 20.3.5, 17.4: Fire Demons against Cyborgs in the shootout."""
    from scenario import HOME_DEAL_7, VISITORS_DEAL_7
    s = position(home=HOME_DEAL_7, visitors=VISITORS_DEAL_7, ball="M2", period=2, minute=31,
                 last_poss=True, score=(1, 1), mode="standard",
                 teams=("fire-demons", "cyborgs"))
    m = Match(s).do("card low-pass", "card steal")
    assert m.state.period == 3
    m.do("skip", "skip", "order h7 h6 h4 h3 h1 h0", "order v7 v6 v4 v3 v1 v0")
    assert m.frame == "declare" and m.legal(1) == ("declare none", "declare overdrive")
    m.do("declare overdrive").roll(6, 9, 5)
    test = m.last("shootout-test")
    assert (test["home"]["ignite"], test["home"]["total"]) == ("blaze", 6 + 6 + 9)
    assert (test["visitors"]["overdrive"], test["visitors"]["total"]) == (5, 5 + 6 + 5)
    assert test["scorer"] == 0


def test_20_3_9_of_a_stack_only_the_cyborg_not_sent_charges_up() -> None:
    """20.3.9: v0 and v3 share V1 with V2 uncovered; the coach sends v0, so v3 (still)
    charges up and v0 (moved) does not."""
    s = position(home={"h4": "M2", "h0": "H1"}, visitors={"v4": "M2", "v3": "V1", "v0": "V1"},
                 ball="M2", mode="standard", teams=TRAINEES_VS_CY, tokens={"v0": 2, "v3": 2})
    m = Match(s).do("action maneuver", "card low-pass", "card steal")
    assert m.legal(1) == ("run v0 V2", "run v3 V2")
    m.do("run v0 V2")
    assert m.tokens("v0") == 2 + 1 and m.tokens("v3") == 1
