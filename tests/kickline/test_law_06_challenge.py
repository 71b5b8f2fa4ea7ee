"""Law 6.1-6.4: the challenger, the card cycle, the skill test; 15.4.2a and 15.4.4 (injured)."""

from __future__ import annotations

import pytest
from scenario import HOME, Match, position, refused, rolling_for

import kickline

# Board 7: H1 H2 M1 M2 M3 V1 V2.  Slots: 0 FB 1/6, 1-2 D 2/5, 3 MF 3/4, 4-5 PM 4/3, 6 W 5/2,
# 7-8 S 6/1.  Home attacks toward V.


def _duel(
    hand: str = "h4", chal: str = "v4", speed: int = 1, board: int = 7, **kw: object
) -> Match:
    """Handler and challenger alone on M2 with a teammate each elsewhere; maneuver chosen."""
    far = board == 9
    home = {"h0": "H1", "h6": "V1"}
    visitors = {"v0": "V3" if far else "V2", "v6": "H3" if far else "H2"}
    home.pop(hand, None)
    visitors.pop(chal, None)
    home[hand], visitors[chal] = "M2", "M2"
    s = position(board, home=home, visitors=visitors, ball="M2", speed=speed, **kw)  # type: ignore[arg-type]
    return Match(s).do("action maneuver")


# --- 6.1 the challenger ----------------------------------------------------------------


def test_6_1_2_lone_defender_on_the_ball_must_challenge() -> None:
    """6.1.2: a defender already on the ball's space challenges; no send, nothing paid."""
    m = _duel()
    assert m.last("challenger") == {"t": "challenger", "law": "6.1.2", "player": "v4"}
    assert m.frame == "cards_secret"
    assert not m.find("send") and not m.find("send-nobody")
    assert m.tokens("v4") == 0 and m.space("v4") == "M2"
    assert refused(m.state, 1, "send none")


def test_6_1_2_several_defenders_on_the_ball_coach_picks_the_challenger() -> None:
    """6.1.2: with two defenders on the space the defending coach picks; nobody walks in."""
    s = position(home={"h4": "M2"}, visitors={"v3": "M2", "v5": "M2", "v1": "M3"}, ball="M2")
    m = Match(s).do("action maneuver")
    assert m.frame == "challenger"
    assert m.legal(1) == ("challenge v3", "challenge v5")
    assert refused(m.state, 1, "challenge v1")  # standing next door: may not walk in past them
    assert refused(m.state, 0, "challenge v3")  # not the offense's choice
    m.do("challenge v5", "card dribble", "card steal").roll(6, 6)
    test = m.last("skill-test")
    assert test["defense"]["player"] == "v5"
    assert test["defense"]["skill"] == 3  # the Playmaker's defensive skill, not the MF's 4


def test_6_1_3_send_one_of_the_two_nearest_and_pay_per_space() -> None:
    """6.1.3, 9.2.1, 9.4.1: the nearest on each side is offered; a farther one is not."""
    s = position(
        home={"h4": "M2"}, visitors={"v1": "H1", "v3": "H2", "v4": "V1", "v0": "V2"}, ball="M2"
    )
    m = Match(s).do("action maneuver")
    assert m.frame == "send"
    assert m.legal(1) == ("send none", "send v3", "send v4")
    assert refused(m.state, 1, "send v1") and refused(m.state, 1, "send v0")
    m.do("send v3")
    assert m.last("send")["spaces"] == 2
    assert m.space("v3") == "M2" and m.tokens("v3") == 2
    assert m.last("challenger")["player"] == "v3"
    assert m.state.turn.challenger == 12  # v3: visitors slot 3 is index 9 + 3
    assert m.frame == "cards_secret"


def test_6_1_4_sending_nobody_makes_the_maneuver_succeed_outright() -> None:
    """6.1.4: no challenger: the offense's card resolves; no reveal, no dice, nobody pays."""
    s = position(home={"h4": "M2", "h6": "V1"}, visitors={"v3": "H2", "v0": "V2"}, ball="M2",
                 speed=4)
    m = Match(s).do("action maneuver", "send none")
    assert m.frame == "card_solo"
    assert m.legal(0) == ("card dribble", "card high-pass", "card low-pass")
    assert refused(m.state, 1, "card steal")  # the defense plays no card
    m.do("card low-pass")
    assert m.last("unchallenged")["card"] == "low-pass"
    assert not m.find("reveal") and not m.find("roll") and not m.find("exhaust")
    assert m.ball == "V1" and m.speed == 5 and m.owner == HOME
    assert m.space("v3") == "H2" and m.space("v0") == "V2"  # nobody moves
    assert m.state.minute == 4


# --- 6.2-6.3 the cards and the cycle -----------------------------------------------------

CYCLE = [
    ("low-pass", "deflect", "T"),
    ("low-pass", "steal", "D"),
    ("low-pass", "pressure", "O"),
    ("dribble", "deflect", "O"),
    ("dribble", "steal", "T"),
    ("dribble", "pressure", "D"),
    ("high-pass", "deflect", "D"),
    ("high-pass", "steal", "O"),
    ("high-pass", "pressure", "T"),
]


@pytest.mark.parametrize(("off", "dfn", "winner"), CYCLE)
def test_6_3_1_the_cycle_over_all_nine_pairings(off: str, dfn: str, winner: str) -> None:
    """6.3.1, 6.5.1-6.10.1: O1 beats D3, O2 beats D1, O3 beats D2; equal ranks tie."""
    m = _duel().do(f"card {off}", f"card {dfn}")
    reveal = m.last("reveal")
    assert (reveal["offense"], reveal["defense"], reveal["winner"]) == (off, dfn, winner)
    if winner == "T":
        assert m.waiting[0] == "chance" and rolling_for(m.state) == ("test", "h4")
        assert m.tokens("h4") == 1 and m.tokens("v4") == 1  # 6.4.1
        assert not m.find("resolves")
    else:
        assert m.last("resolves")["card"] == (off if winner == "O" else dfn)
        assert m.tokens("h4") == 0 and m.tokens("v4") == 0  # 15.1.2: won outright, free
        assert not m.find("roll")


def test_6_2_1_cards_are_secret_until_both_are_in() -> None:
    """6.2.1-6.2.2: both seats choose from their own three, hidden, revealed together."""
    m = _duel()
    assert m.waiting == ("decide", (0, 1), True)
    assert m.legal(0) == ("card dribble", "card high-pass", "card low-pass")
    assert m.legal(1) == ("card deflect", "card pressure", "card steal")
    assert refused(m.state, 0, "card steal") and refused(m.state, 1, "card low-pass")
    m.by(1, "card steal")
    assert kickline.view(m.state, 0)["secret"]["mine"] is None
    assert kickline.view(m.state, 1)["secret"]["mine"] == "card steal"
    assert "decision" not in kickline.redact(m.events, 0)[-1]
    assert not m.find("reveal")
    assert refused(m.state, 1, "card pressure")  # one card each
    m.by(0, "card high-pass")
    assert m.last("reveal")["winner"] == "O"


# --- 6.4 the skill test ----------------------------------------------------------------


def test_6_4_2a_midfielder_adds_3_on_own_low_pass() -> None:
    """6.4.1-6.4.3, 6.4.2a: MF handler's Low Pass in a tie: d12 + 3 + 3; entry 1 token each."""
    m = _duel(hand="h3", chal="v4", speed=9).do("card low-pass", "card deflect").roll(4, 10)
    t = m.last("skill-test")
    assert t["offense"] == {"player": "h3", "die": 4, "skill": 3, "midfielder": 3, "speed": 0,
                            "total": 10}
    assert t["defense"] == {"player": "v4", "die": 10, "skill": 3, "midfielder": 0, "speed": 0,
                            "total": 13}
    assert t["winner"] == "D"
    assert m.last("resolves")["card"] == "deflect"
    assert m.tokens("h3") == 1 and m.tokens("v4") == 1


def test_6_4_2a_midfielder_gets_nothing_on_a_dribble_or_a_pressure() -> None:
    """6.4.2a: only own Low Pass / own Steal; MF's Dribble and MF's Pressure add no +3."""
    m = _duel(hand="h3", chal="v3").do("card high-pass", "card pressure").roll(5, 5)
    t = m.last("skill-test")
    assert t["offense"]["midfielder"] == 0 and t["defense"]["midfielder"] == 0
    assert (t["offense"]["total"], t["defense"]["total"]) == (8, 9)
    m2 = _duel(hand="h3", chal="v4").do("card dribble", "card steal").roll(7, 2)
    assert m2.last("skill-test")["offense"]["midfielder"] == 0


@pytest.mark.parametrize(("speed", "mod"), [(1, 0), (3, 1), (6, 3), (7, 3), (12, 6)])
def test_6_4_2b_midfielder_steal_adds_3_and_the_speed_modifier(speed: int, mod: int) -> None:
    """6.4.2a-b, 7.1.1: MF's own Steal adds 3, and a Steal adds speed // 2."""
    m = _duel(hand="h4", chal="v3", speed=speed).do("card dribble", "card steal").roll(2, 1)
    d = m.last("skill-test")["defense"]
    assert d == {"player": "v3", "die": 1, "skill": 4, "midfielder": 3, "speed": mod,
                 "total": 8 + mod}
    assert m.last("skill-test")["offense"]["total"] == 6


def test_6_4_2b_only_a_steal_adds_the_speed_modifier() -> None:
    """6.4.2b, 7.4.1: Pressure / Deflect tests add no modifier, and the offense never does."""
    m = _duel(speed=10).do("card high-pass", "card pressure").roll(3, 3)
    t = m.last("skill-test")
    assert t["offense"]["speed"] == 0 and t["defense"]["speed"] == 0
    m2 = _duel(speed=10).do("card low-pass", "card deflect").roll(3, 3)
    assert m2.last("skill-test")["defense"]["speed"] == 0


def test_6_4_4_a_tie_is_rolled_again_and_each_exhausts_one_more() -> None:
    """6.4.4: totals level: roll again; each participant exhausts 1 per re-roll."""
    m = _duel(hand="h4", chal="v4").do("card dribble", "card steal")
    m.roll(5, 6)  # 5+4 = 9 v 6+3+0 = 9
    assert m.last("skill-test")["winner"] == "tie"
    assert m.tokens("h4") == 2 and m.tokens("v4") == 2
    assert rolling_for(m.state) == ("test", "h4")
    m.roll(6, 6)  # 10 v 9 again
    assert len(m.find("skill-test")) == 2
    assert m.last("skill-test")["winner"] == "O"
    assert m.last("resolves")["card"] == "dribble"
    assert m.tokens("h4") == 2 and m.tokens("v4") == 2


def test_6_4_5_injury_check_only_once_the_test_finally_resolves() -> None:
    """6.4.5, 15.3.1-15.3.2: W (def 2) reaches 3 tokens through two ties, then is checked."""
    m = _duel(hand="h6", chal="v4").do("card dribble", "card steal")
    m.roll(3, 5)  # 3+5 = 8 v 5+3 = 8: tie, tokens 2 each
    assert rolling_for(m.state)[0] == "test"  # no check after a tie
    m.roll(3, 5)  # tie again: tokens 3 each, W now Exhausted (3 > 2), PM not (3 > 3 false)
    m.roll(9, 1)  # 14 v 4: the Winger wins
    assert m.tokens("h6") == 3 and m.tokens("v4") == 3
    assert rolling_for(m.state) == ("injury", "h6")
    m.roll(3)  # not higher than 3 tokens: injured, tokens cleared
    chk = m.last("injury-check")
    assert (chk["player"], chk["die"], chk["tokens"], chk["injured"]) == ("h6", 3, 3, True)
    assert m.injured("h6") and m.tokens("h6") == 0
    assert not m.injured("v4")
    assert m.last("resolves")["card"] == "dribble"  # the maneuver still resolves


def test_15_3_1_a_roll_higher_than_the_tokens_is_safe() -> None:
    """15.3.1: Striker (def 1) with 1 token enters a test (2 tokens) and rolls 3: safe."""
    m = _duel(hand="h7", chal="v4", tokens={"h7": 1}).do("card low-pass", "card deflect")
    m.roll(8, 1)
    assert m.tokens("h7") == 2
    assert rolling_for(m.state) == ("injury", "h7")
    m.roll(3)
    assert m.last("injury-check")["injured"] is False
    assert not m.injured("h7") and m.tokens("h7") == 2


# --- 6.3.2, 15.4.2a, 15.4.4 injured participants ------------------------------------------


def test_6_3_2_injured_winner_on_the_cards_must_win_a_skill_test() -> None:
    """6.3.2, 15.4.2a, 15.4.3, 15.1.3: an outright win becomes a test rolled on full skill;
    the injured player adds no token, the healthy one exhausts 1."""
    m = _duel(hand="h4", chal="v4", injured=["h4"]).do("card dribble", "card deflect")
    assert m.last("injured-forced-test")["player"] == "h4"
    assert not m.find("resolves")
    assert m.tokens("h4") == 0 and m.tokens("v4") == 1
    m.roll(2, 6)
    t = m.last("skill-test")
    assert t["offense"]["skill"] == 4 and t["offense"]["total"] == 6
    assert t["defense"]["total"] == 9 and t["winner"] == "D"
    assert m.last("resolves")["card"] == "deflect"  # losing the test resolves the loser's card


def test_6_3_2_injured_challenger_winning_on_cards_is_tested_with_the_steal_bonus() -> None:
    """6.3.2: injured MF challenger's Steal beats Low Pass on cards, so it is tested; the MF
    keeps +3 and the speed modifier (15.4.3)."""
    m = _duel(hand="h4", chal="v3", speed=8, injured=["v3"]).do("card low-pass", "card steal")
    assert m.waiting[0] == "chance"
    m.roll(10, 4)
    d = m.last("skill-test")["defense"]
    assert (d["skill"], d["midfielder"], d["speed"], d["total"]) == (4, 3, 4, 15)
    assert m.last("skill-test")["winner"] == "D"
    assert m.tokens("v3") == 0 and m.tokens("h4") == 1


def test_6_3_2_injured_tie_against_a_healthy_opponent_loses_with_nothing_rolled() -> None:
    """6.3.2, 15.4.2a: a tie is the injured player's automatic loss, no dice, no tokens."""
    m = _duel(hand="h4", chal="v4", injured=["v4"]).do("card dribble", "card steal")
    assert m.last("injured-tie")["loser"] == "D"
    assert not m.find("roll") and not m.find("exhaust")
    assert m.last("resolves")["card"] == "dribble"
    m2 = _duel(hand="h4", chal="v4", injured=["h4"]).do("card dribble", "card steal")
    assert m2.last("injured-tie")["loser"] == "O"
    assert m2.last("resolves")["card"] == "steal"


def test_15_4_4_two_injured_players_tie_as_usual() -> None:
    """15.4.4: both injured: an ordinary tie, rolled; injured players add no tokens."""
    m = _duel(injured=["h4", "v4"]).do("card high-pass", "card pressure")
    assert not m.find("injured-tie")
    assert m.waiting[0] == "chance"
    m.roll(1, 2)  # 5 v 5: tie again
    assert m.last("skill-test")["winner"] == "tie"
    assert m.tokens("h4") == 0 and m.tokens("v4") == 0


def test_15_4_4_two_injured_players_decisive_cards_win_outright() -> None:
    """15.4.2a, 15.4.4: the disadvantage is against a healthy opponent only."""
    m = _duel(injured=["h4", "v4"]).do("card high-pass", "card steal")
    assert not m.find("injured-forced-test") and not m.find("roll")
    assert m.last("resolves")["card"] == "high-pass"


def test_15_4_2a_injured_loser_on_the_cards_simply_loses() -> None:
    """6.3.2: the disadvantage never turns a loss into a test."""
    m = _duel(injured=["h4"]).do("card low-pass", "card steal")
    assert not m.find("roll")
    assert m.last("resolves")["card"] == "steal"


def test_15_4_4_unchallenged_injured_handler_succeeds_as_always() -> None:
    """15.4.4, 6.1.4: no opponent, no test."""
    s = position(home={"h4": "M2", "h3": "M3"}, visitors={"v3": "H1", "v0": "V2"}, ball="M2",
                 injured=["h4"])
    m = Match(s).do("action maneuver", "send none", "card low-pass")
    assert not m.find("roll")
    assert m.ball == "M3" and m.owner == HOME and m.speed == 2


def test_6_1_3_board_9_send_counts_spaces_across_zones() -> None:
    """6.1.3, 9.2.1, 2.1.4 on board 9: V1 is 2 from M2 (index 7 v 5), H3 is 2 (3 v 5)."""
    s = position(9, home={"h4": "M2"}, visitors={"v1": "H3", "v4": "V1", "v0": "V3"},
                 ball="M2", owner=HOME)
    m = Match(s).do("action maneuver")
    assert m.legal(1) == ("send none", "send v1", "send v4")
    m.do("send v1")
    assert m.tokens("v1") == 2 and m.space("v1") == "M2"
    assert m.state.ball.owner == HOME and m.last("challenger")["player"] == "v1"
