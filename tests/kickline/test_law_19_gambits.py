"""Law 19: the gambits (advanced mode), with 21.3.8 Scorchit and 21.5.4 Dravox/Hexis.

Positions use the training team in advanced mode: it has no species and no personal
ability, so nothing but Law 19 acts (the species teams appear only where a personal
ability is the point, placed so that no species ability of theirs could interfere).
"""

from __future__ import annotations

from typing import Any

import pytest
from scenario import HOME, VISITORS, Match, position, refused

import kickline
from kickline.decisions import Decision
from kickline.engine import gambit_tier

# Board 7: H1 H2 M1 M2 M3 V1 V2.  Slots: 0 FB 1/6, 1-2 D 2/5, 3 MF 3/4, 4-5 PM 4/3, 6 W 5/2,
# 7-8 S 6/1.  Home attacks toward V.
ADV: dict[str, Any] = {"mode": "advanced", "teams": ("training", "training")}
BASIC_OFF = ("card dribble", "card high-pass", "card low-pass")
BASIC_DEF = ("card deflect", "card pressure", "card steal")
SIX_OFF = ("card dribble", "card dribble-burst", "card high-pass", "card low-pass",
           "card setup-pass", "card skilled-pass")
SIX_DEF = ("card clear", "card deflect", "card double-team", "card intercept",
           "card pressure", "card steal")


def duel(home: dict[str, str] | None = None, visitors: dict[str, str] | None = None,
         score: tuple[int, int] = (0, 1), **kw: Any) -> Match:
    """h4 (PM) handles on M2 against v4 (PM) there; home trails 0-1 and holds gambits."""
    h = {"h4": "M2", "h0": "H1"}
    v = {"v4": "M2", "v0": "V2"}
    h.update(home or {})
    v.update(visitors or {})
    opts = {**ADV, **kw}
    s = position(home=h, visitors=v, ball=opts.pop("ball", "M2"), score=score, **opts)
    return Match(s).do("action maneuver")


# --- 19.3 who may play a gambit; 19.2 only against a challenge -------------------------


def test_19_3_1a_behind_on_goals_holds_the_gambits_the_leader_does_not() -> None:
    m = duel(score=(0, 1))
    assert m.frame == "cards_secret"
    assert m.legal(0) == SIX_OFF and m.legal(1) == BASIC_DEF
    assert m.last("gambits") == {"t": "gambits", "law": "19.3.2", "home": True,
                                 "visitors": False}
    m = duel(score=(2, 1))
    assert m.legal(0) == BASIC_OFF and m.legal(1) == SIX_DEF


def test_19_3_1b_more_exhausted_or_injured_among_the_fielded_holds_them() -> None:
    # h0 (FB, def 6) on 7 tokens is Exhausted; visitors have nobody hurt.
    m = duel(score=(0, 0), tokens={"h0": 7})
    assert m.legal(0) == SIX_OFF and m.legal(1) == BASIC_DEF
    # An injured visitor evens it up: one each, nobody holds them.
    m = duel(score=(0, 0), tokens={"h0": 7}, injured=["v0"])
    assert m.legal(0) == BASIC_OFF and m.legal(1) == BASIC_DEF
    # A benched hurt player does not count: only the six fielded.
    m = duel(score=(0, 0), tokens={"h8": 9})
    assert m.legal(0) == BASIC_OFF


def test_19_3_3_both_may_hold_them_at_once_and_neither_is_basic() -> None:
    m = duel(score=(0, 1), injured=["v0"])
    assert m.legal(0) == SIX_OFF and m.legal(1) == SIX_DEF
    m = duel(score=(1, 1))
    assert m.legal(0) == BASIC_OFF and m.legal(1) == BASIC_DEF


def test_19_3_2_eligibility_is_public_in_every_view() -> None:
    m = duel(score=(0, 1), injured=["v0"])
    for seat in (0, 1, None):
        v = kickline.view(m.state, seat)
        assert v["turn"]["gambits"] == {"home": True, "visitors": True}


def test_19_2_unchallenged_maneuver_is_played_with_a_basic_card() -> None:
    s = position(home={"h4": "M2"}, visitors={"v0": "V2"}, ball="M2", score=(0, 3), **ADV)
    m = Match(s).do("action maneuver", "send none")
    assert m.frame == "card_solo"
    assert m.legal(0) == BASIC_OFF
    assert refused(m.state, 0, "card skilled-pass")
    assert not m.find("gambits")


@pytest.mark.parametrize("mode", ["training", "standard"])
def test_18_1_training_and_standard_offer_no_gambit(mode: str) -> None:
    m = duel(score=(0, 3), injured=["v0"], mode=mode)
    assert m.legal(0) == BASIC_OFF and m.legal(1) == BASIC_DEF
    assert refused(m.state, 0, "card skilled-pass")
    assert not m.find("gambits")
    assert "gambits" not in kickline.view(m.state, 0)["turn"]


# --- 19.5 Skilled Pass -------------------------------------------------------------------


def test_19_5_2_any_teammate_within_three_either_way_nearer_blocks_nobody() -> None:
    m = duel(home={"h3": "M3", "h6": "V1", "h7": "V2", "h1": "M1"})
    m.do("card skilled-pass", "card pressure")
    assert m.last("resolves") == {"t": "resolves", "law": "19.5", "card": "skilled-pass",
                                  "side": HOME}
    # h0 on H1 is 3 behind, h7 on V2 3 ahead; h3 on M3 blocks nobody.
    assert m.legal(0) == ("pass h0", "pass h1", "pass h3", "pass h6", "pass h7")
    m.do("pass h7")
    assert m.last("pass")["law"] == "19.5.3"
    assert m.ball == "V2" and m.speed == 4  # 19.5.3: +3
    assert m.state.turn.handler == 7 and m.owner == HOME  # h7 received: the carrier


def test_19_5_3_speed_caps_at_12_and_shared_space_pass_steps_the_passer() -> None:
    m = duel(home={"h3": "M2"}, speed=11, carrier="h4")
    m.do("card skilled-pass", "card pressure", "pass h3")
    assert m.speed == 12
    assert m.space("h4") == "M3"  # a pass across a shared space sends the passer forward


def test_19_5_3_winger_may_offer_the_set_up() -> None:
    s = position(home={"h6": "M2", "h7": "V1", "h0": "H1"}, visitors={"v4": "M2", "v0": "V2"},
                 ball="M2", score=(0, 1), **ADV)
    w = Match(s).do("action maneuver", "card skilled-pass", "card pressure",
                    "pass h7")
    assert w.frame == "setup"


def test_19_5_5_beaten_skilled_pass_the_taker_plays_an_unopposed_low_pass() -> None:
    m = duel(visitors={"v3": "M1"})
    m.do("card skilled-pass", "card steal")
    assert m.last("beaten") == {"t": "beaten", "law": "19.5.5", "card": "skilled-pass"}
    # The Steal carried it a space back for the visitors, toward V: v4 holds it on M3.
    assert m.ball == "M3"
    assert m.owner == VISITORS and m.state.ball.carrier == 9 + 4
    # After the run back and the speed step, v4 passes, unopposed, with no clock of its own.
    while m.frame in ("run", "speed"):
        m.do(m.legal()[0])
    assert m.last("unopposed-low-pass")["law"] == "19.5.5"
    assert m.frame == "pass_to"
    minute = m.state.minute
    m.do(m.legal()[0])
    assert m.last("clock")["cost"] == 1 and m.state.minute == minute + 1
    assert m.owner == VISITORS


def test_19_5_5_not_beaten_on_a_tie_so_no_unopposed_pass() -> None:
    m = duel(score=(0, 1), injured=["v0"], visitors={"v3": "M1"})
    m.do("card skilled-pass", "card clear").roll(12, 1)
    assert m.last("resolves")["card"] == "low-pass"  # a tie resolves as the basic card
    assert not m.find("beaten")


# --- 19.6 Dribble Burst ------------------------------------------------------------------


def test_19_6_burst_carries_up_to_four_pays_a_token_a_space_ball_at_12() -> None:
    s = position(home={"h3": "H1", "h0": "H2"}, visitors={"v4": "H1", "v0": "V2"},
                 ball="H1", score=(0, 1), **ADV)
    m = Match(s).do("action maneuver", "card dribble-burst", "card deflect")
    assert m.legal() == ("dribble 1", "dribble 2", "dribble 3", "dribble 4")  # MF: 4
    m.do("dribble 4")
    assert m.space("h3") == "M3" and m.ball == "M3" and m.speed == 12
    assert m.tokens("h3") == 4
    assert m.last("dribble-burst")["law"] == "19.6.2"


def test_19_6_3_playmaker_five_but_only_as_far_as_the_field_goes() -> None:
    m = duel(ball="M2")
    m.do("card dribble-burst", "card deflect")
    assert m.legal() == ("dribble 1", "dribble 2", "dribble 3")
    m.do("dribble 3")
    assert m.space("h4") == "V2" and m.tokens("h4") == 3


def test_19_6_5_beaten_burst_loses_the_ball_at_12_the_challenger_sets_it() -> None:
    m = duel(visitors={"v3": "M1"})
    m.do("card dribble-burst", "card pressure")
    assert m.last("beaten")["law"] == "19.6.5"
    assert m.owner == VISITORS and m.state.ball.carrier == 13
    while m.frame == "run":
        m.do(m.legal()[0])
    assert m.frame == "speed"
    # 12 changed by up to v4's defensive skill 3: 9-12.
    assert m.legal() == ("speed 10", "speed 11", "speed 12", "speed 9")
    m.do("speed 9")
    assert m.speed == 9


def test_19_6_5_beaten_burst_at_own_end_the_own_goal_roll_comes_first() -> None:
    """OQ12 (RULING_BEATEN_BURST_OWN_GOAL_FIRST)."""
    s = position(home={"h4": "H1", "h0": "H2"}, visitors={"v4": "H1", "v0": "V2"},
                 ball="H1", score=(0, 1), **ADV)
    m = Match(s).do("action maneuver", "card dribble-burst", "card pressure").roll(10, 10)
    assert m.last("own-goal-roll")["avoided"]
    assert not m.find("possession-lost")
    assert m.owner == HOME  # avoided: a new play, the handler's side keeps it


# --- 19.7 Setup Pass ---------------------------------------------------------------------


def test_19_7_speed_then_distance_then_the_set_up() -> None:
    m = duel(home={"h7": "V2"}, speed=5)
    m.do("card setup-pass", "card steal")
    assert m.last("resolves")["card"] == "setup-pass"
    assert m.frame == "speed"  # 19.7.2: speed first, up to offensive skill 4
    assert m.legal() == tuple(sorted(f"speed {v}" for v in range(1, 10)))
    m.do("speed 9")
    assert m.legal() == ("aim 1", "aim 3")  # 0 only onto a teammate on the space
    m.do("aim 3")
    assert m.state.ball.carrier == 7 and m.frame == "setup"
    m.do("shot take").roll(1, 1)
    shot = m.last("score-attempt")
    assert shot["attack"]["speed"] == 4  # the speed just set counts (9 // 2)
    assert m.state.turn.cost == 3  # 2 minutes and the shot


def test_19_7_3_aim_0_needs_a_teammate_on_the_space_fullback_aims_4() -> None:
    s = position(home={"h0": "M1", "h3": "M1"}, visitors={"v4": "M1", "v0": "V2"},
                 ball="M1", score=(0, 1), carrier="h0", **ADV)
    m = Match(s).do("action maneuver", "card setup-pass", "card steal", "speed 1")
    assert m.legal() == ("aim 0", "aim 1", "aim 3", "aim 4")


def test_19_7_5_landing_on_nobody_is_loose_on_defenders_only_theirs() -> None:
    m = duel()
    m.do("card setup-pass", "card steal", "speed 1", "aim 3")
    assert m.last("setup-pass")["to"] == "V2"
    assert m.last("takes-ball")["player"] == "v0"  # only v0 is there: theirs, a steal
    m = duel()
    m.do("card setup-pass", "card steal", "speed 1", "aim 1")
    assert m.last("loose")["space"] == "M3"


def test_19_7_6_no_room_to_pick_it_out_is_out_of_play() -> None:
    s = position(home={"h4": "V2", "h0": "H1"}, visitors={"v4": "V2", "v0": "H2"},
                 ball="V2", score=(0, 1), **ADV)
    m = Match(s).do("action maneuver", "card setup-pass", "card steal", "speed 1")
    assert m.last("out-of-play")["law"] == "19.7.6"
    assert m.owner == VISITORS


def test_19_7_7_beaten_setup_pass_the_beater_drives_it_further() -> None:
    m = duel(ball="M2", speed=5)
    m.do("card setup-pass", "card deflect")
    assert m.last("beaten")["law"] == "19.7.7"
    # The Deflect puts it on M1; 1-3 more reach H2, H1 and H1 again (one choice).
    assert m.legal() == ("drive 1", "drive 2")
    m.do("drive 2")
    assert m.ball == "H1" and m.speed == 4  # the Deflect's own speed drop only
    assert m.last("drive")["spaces"] == 2


# --- 19.8 Clear --------------------------------------------------------------------------


def test_19_8_2_clear_goes_three_back_speed_down_three() -> None:
    m = duel(ball="M2", speed=8, home={"h1": "H1"}, score=(1, 0))
    m.do("card high-pass", "card clear")
    assert m.last("clear") == {"t": "clear", "law": "19.8.2", "player": "v4", "to": "H1",
                               "speed": 5, "out_of_field": False}


def test_19_8_3_a_clear_run_out_onto_the_clearer_is_their_scoring_opportunity() -> None:
    s = position(home={"h4": "H1", "h0": "V1"}, visitors={"v4": "H1", "v0": "V2"},
                 ball="H1", score=(1, 0), speed=6, **ADV)
    m = Match(s).do("action maneuver", "card high-pass", "card clear")
    assert m.last("clear")["out_of_field"] and m.frame == "setup"
    assert m.owner == VISITORS and m.speed == 1
    m.do("shot decline")  # RULING: declined, it settles on that space: a contest
    assert m.waiting[0] == "chance"


def test_19_8_4_fullback_clears_four() -> None:
    s = position(home={"h4": "M3", "h6": "V1"}, visitors={"v0": "M3", "v3": "V2"},
                 ball="M3", score=(1, 0), speed=5, **ADV)
    m = Match(s).do("action maneuver", "card high-pass", "card clear")
    # 4 back for a Fullback; the speed still drops by 3 only.
    assert m.last("clear")["to"] == "H1" and m.last("clear")["speed"] == 2


def test_19_8_5_beaten_clear_exhausts_two() -> None:
    m = duel(score=(1, 0))
    m.do("card dribble", "card clear")
    assert m.last("beaten")["law"] == "19.8.5"
    assert m.tokens("v4") == 2


# --- 19.9 Intercept ----------------------------------------------------------------------


def test_19_9_2_intercept_flips_and_carries_forward_for_the_new_possessor() -> None:
    m = duel(score=(1, 0), visitors={"v3": "M3"})
    m.do("card low-pass", "card intercept")
    assert m.last("intercept") == {"t": "intercept", "law": "19.9.2", "player": "v4",
                                   "to": "M1"}
    assert m.owner == VISITORS and m.ball == "M1" and m.space("v4") == "M1"
    while m.frame == "run":
        m.do(m.legal()[0])
    assert m.frame == "speed"
    assert m.legal() == ("speed 1", "speed 2", "speed 3", "speed 4")  # 1 +- def 3


def test_19_9_3_intercept_adds_the_speed_modifier_and_a_midfielder_3() -> None:
    s = position(home={"h3": "M2", "h0": "H1"}, visitors={"v3": "M2", "v0": "V2"},
                 ball="M2", speed=8, score=(1, 0), **ADV)
    m = Match(s).do("action maneuver", "card dribble", "card intercept").roll(5, 5)
    d = m.last("skill-test")["defense"]
    assert d["speed"] == 4 and d["midfielder"] == 3


def test_19_9_6_intercept_on_the_last_space_is_a_scoring_opportunity() -> None:
    s = position(home={"h4": "H1", "h0": "H2"}, visitors={"v4": "H1", "v0": "V2"},
                 ball="H1", score=(1, 0), **ADV)
    m = Match(s).do("action maneuver", "card low-pass", "card intercept")
    assert m.last("intercept")["law"] == "19.9.6" and m.frame == "setup"
    m.do("shot decline")
    assert m.owner == VISITORS  # RULING: a steal without the carry


def test_19_9_7_beaten_intercept_no_high_pass_contest() -> None:
    m = duel(score=(1, 0), home={"h7": "V2"}, visitors={"v0": "V2"})
    m.do("card high-pass", "card intercept", "throw 3")
    assert m.last("takes-ball")["law"] == "19.9.7"
    assert m.owner == HOME and m.state.turn.handler == 7
    assert not m.find("contest")


# --- 19.10 Double Team -------------------------------------------------------------------


def test_19_10_2_double_team_pushes_two_and_brings_the_nearest_help() -> None:
    m = duel(score=(1, 0), visitors={"v3": "M3"})
    m.do("card dribble", "card double-team")
    dt = m.last("double-team")
    assert dt == {"t": "double-team", "law": "19.10.2", "handler": "h4", "challenger": "v4",
                  "partner": "v3", "to": "H2"}
    assert m.space("v3") == "H2" and m.tokens("v3") == 0
    assert m.owner == HOME and m.ball == "H2"


def test_19_10_2_tied_nearest_partner_is_the_defending_coach_s_pick() -> None:
    m = duel(score=(1, 0), visitors={"v3": "M3", "v5": "M1"})
    m.do("card dribble", "card double-team")
    assert m.legal() == ("partner v3", "partner v5")
    m.do("partner v5")
    assert m.last("double-team")["partner"] == "v5"


def test_19_10_3_defender_double_team_steals_and_own_end_risks_an_own_goal() -> None:
    s = position(home={"h4": "M2", "h0": "H1"}, visitors={"v1": "M2", "v0": "V2"},
                 ball="M2", score=(1, 0), **ADV)
    m = Match(s).do("action maneuver", "card dribble", "card double-team")
    assert m.last("steal")["law"] == "19.10.3" and m.owner == VISITORS
    s = position(home={"h4": "H1", "h0": "H2"}, visitors={"v4": "H1", "v0": "V2"},
                 ball="H1", score=(1, 0), **ADV)
    m = Match(s).do("action maneuver", "card dribble", "card double-team")
    assert m.last("own-goal-risk")["law"] == "19.10.3"


def test_19_10_4_both_challenge_next_time_until_a_new_play() -> None:
    m = duel(score=(1, 0), visitors={"v3": "M3"}, home={"h3": "V1"})
    m.do("card dribble", "card double-team", "action maneuver")
    assert m.last("challenger") == {"t": "challenger", "law": "19.10.4", "player": "v4",
                                    "partner": "v3"}
    m.do("card dribble", "card steal").roll(6, 6)
    d = m.last("skill-test")["defense"]
    assert d["partner"] == {"player": "v3", "skill": 4}
    assert d["total"] == 6 + 3 + 4
    assert m.tokens("v3") == 1  # the second challenger enters the test too
    view = kickline.view(m.state, 1)
    assert view["turn"]["double_team"] == ["v4", "v3"]


def test_19_10_4_a_new_play_ends_the_double_team() -> None:
    m = duel(score=(1, 0), visitors={"v3": "M3"}, home={"h3": "V1"})
    m.do("card dribble", "card double-team", "action timeout")
    while m.frame in ("coach", "pickup", "send"):
        m.do("skip" if "skip" in m.legal() else m.legal()[0])
    assert m.state.turn.double == -1
    assert kickline.view(m.state, 0)["turn"]["double_team"] is None


def test_19_10_5_beaten_double_team_both_step_forward_free() -> None:
    m = duel(score=(1, 0), visitors={"v3": "M3"}, home={"h3": "M3"})
    m.do("card low-pass", "card double-team")
    assert m.last("beaten")["law"] == "19.10.5"
    assert m.last("double-team-beaten")["moved"] == {"v4": "M1", "v3": "M2"}
    assert m.tokens("v4") == 0 and m.tokens("v3") == 0


# --- 19.4 when a gambit's effect fires ---------------------------------------------------


def test_19_4_2a_injured_automatic_tie_loss_fires_nothing() -> None:
    m = duel(score=(1, 0), injured=["h4"])  # home more hurt, visitors behind: both hold
    m.do("card skilled-pass", "card clear")
    assert m.last("injured-tie")["loser"] == "O"
    assert m.last("resolves")["card"] == "deflect"  # the Clear resolves as its basic card
    assert not m.find("beaten")


def test_19_4_2b_injured_card_winner_winning_the_test_both_land() -> None:
    m = duel(score=(1, 0), injured=["h4"], visitors={"v3": "M3"}, home={"h6": "V1"})
    m.do("card skilled-pass", "card double-team").roll(12, 1)
    assert m.last("resolves")["card"] == "skilled-pass"
    assert m.last("beaten")["card"] == "double-team"


def test_19_4_2c_injured_card_winner_losing_the_test_neither_fires() -> None:
    m = duel(score=(1, 0), injured=["h4"], visitors={"v3": "M3"})
    m.do("card skilled-pass", "card double-team").roll(1, 12)
    r = m.last("resolves")
    assert r == {"t": "resolves", "law": "19.4.2", "card": "pressure", "side": VISITORS,
                 "played": "double-team"}
    assert not m.find("beaten") and not m.find("double-team")


# --- 21.3.8 Scorchit --------------------------------------------------------------------

SCORCH: dict[str, Any] = {"mode": "advanced", "teams": ("fire-demons", "training")}


def scorchit_duel(**kw: Any) -> Match:
    """Scorchit (h3, MF 3/4) handles on M2 against v4."""
    s = position(home={"h3": "M2", "h0": "H1"}, visitors={"v4": "M2", "v0": "V2"},
                 ball="M2", **{**SCORCH, **kw})
    return Match(s).do("action maneuver")


def test_21_3_8_scorchit_may_force_the_test_paying_two_opponent_nothing() -> None:
    m = scorchit_duel(score=(0, 1))
    m.do("card dribble-burst", "card pressure")
    assert m.frame == "scorch" and m.legal() == ("scorch accept", "scorch force")
    m.do("scorch force")
    assert m.tokens("h3") == 2 and m.tokens("v4") == 0
    m.roll(12, 1)  # Scorchit wins: the burst resolves as a basic dribble, no cost
    assert m.last("resolves")["card"] == "dribble"
    assert not m.find("beaten")


def test_21_3_8_card_winner_wins_the_forced_test_benefit_and_cost_land() -> None:
    m = scorchit_duel(score=(0, 1))
    m.do("card dribble-burst", "card pressure", "scorch force").roll(1, 12)
    assert m.last("resolves")["card"] == "pressure"
    assert m.last("beaten")["card"] == "dribble-burst"


def test_21_3_8_tie_rerolls_cost_one_each() -> None:
    m = scorchit_duel(score=(0, 1))
    # 5 + 3 = 8 against 4 + 3 = 7: Scorchit wins outright.
    m.do("card dribble", "card pressure", "scorch force").roll(5, 4)
    assert m.last("skill-test")["winner"] == "O"
    m = scorchit_duel(score=(0, 1))
    m.do("card dribble", "card pressure", "scorch force").roll(4, 4)
    assert m.last("skill-test")["winner"] == "tie"
    assert m.tokens("h3") == 3 and m.tokens("v4") == 1


def test_21_3_8_accepting_the_loss_resolves_the_cards() -> None:
    m = scorchit_duel(score=(0, 1))
    m.do("card dribble", "card pressure", "scorch accept")
    assert m.last("resolves")["card"] == "pressure" and m.tokens("h3") == 0


def test_21_3_8_injured_card_winner_forces_the_usual_test_no_choice() -> None:
    m = scorchit_duel(score=(0, 1), injured=["v4"])
    m.do("card dribble", "card pressure")
    assert m.frame != "scorch"
    assert m.last("injured-forced-test")["player"] == "v4"
    assert m.tokens("h3") == 1 and m.tokens("v4") == 0


def test_21_3_8_scorchit_winning_on_the_cards_is_not_asked() -> None:
    m = scorchit_duel(score=(0, 1))
    m.do("card dribble", "card deflect")
    assert m.frame != "scorch" and m.last("resolves")["card"] == "dribble"


# --- 21.5.4 Dravox and Hexis -------------------------------------------------------------


def test_21_5_4_hexis_offensive_gambit_holds_on_the_dice() -> None:
    s = position(home={"h4": "M2", "h0": "H1"}, visitors={"v4": "M2", "v0": "V2"},
                 ball="M2", score=(0, 1), mode="advanced", teams=("telekinetics", "training"))
    m = Match(s).do("action maneuver", "card skilled-pass", "card deflect").roll(12, 1)
    assert m.last("resolves") == {"t": "resolves", "law": "19.5", "card": "skilled-pass",
                                  "side": HOME}
    # A basic card Hexis played is not upgraded.
    m = Match(s).do("action maneuver", "card low-pass", "card deflect").roll(12, 1)
    assert m.last("resolves")["card"] == "low-pass"


def test_21_5_4_dravox_defensive_gambit_holds_and_basic_is_not_upgraded() -> None:
    s = position(home={"h4": "M2", "h0": "H1"}, visitors={"v2": "M2", "v0": "V2"},
                 ball="M2", score=(1, 0), mode="advanced", teams=("training", "telekinetics"))
    m = Match(s).do("action maneuver", "card dribble", "card intercept").roll(1, 12)
    assert m.last("resolves")["card"] == "intercept"
    s = position(home={"h4": "M2", "h0": "H1"}, visitors={"v2": "M2", "v0": "V2"},
                 ball="M2", score=(1, 0), mode="advanced", teams=("training", "telekinetics"))
    m = Match(s).do("action maneuver", "card dribble", "card steal").roll(1, 12)
    assert m.last("resolves")["card"] == "steal"


# --- the tier function (20.2.4-20.2.5, 21.3.3, 21.4.7, 21.5.4) ---------------------------


def _parts(**kw: Any) -> dict[str, Any]:
    return {"die": 5, "total": 10, **kw}


@pytest.mark.parametrize(
    ("played", "cards", "winner", "test", "abilities", "expected"),
    [
        # decisive, no test: the played card and the loser's cost
        (("skilled-pass", "double-team"), "O", "O", None, ("", ""), ("skilled-pass",
                                                                      "double-team")),
        (("low-pass", "double-team"), "O", "O", None, ("", ""), ("low-pass", "double-team")),
        (("skilled-pass", "pressure"), "O", "O", None, ("", ""), ("skilled-pass", "")),
        # a tie resolves basic, no cost (19.1.2, 19.4 note)
        (("skilled-pass", "clear"), "T", "O", {"O": _parts(), "D": _parts()}, ("", ""),
         ("low-pass", "")),
        (("skilled-pass", "clear"), "A", "D", None, ("", ""), ("deflect", "")),
        # 20.2.4a: a blaze that wins upgrades, whether or not a gambit was played
        (("low-pass", "deflect"), "T", "O", {"O": _parts(ignite="blaze"), "D": _parts()},
         ("", ""), ("skilled-pass", "")),
        # 20.2.4b: a burn that loses upgrades the opponent
        (("low-pass", "deflect"), "T", "D", {"O": _parts(ignite="burn"), "D": _parts()},
         ("", ""), ("clear", "")),
        # 21.3.3: Brightburn's burn upgrades nothing
        (("low-pass", "deflect"), "T", "D", {"O": _parts(ignite="burn"), "D": _parts()},
         ("brightburn", ""), ("deflect", "")),
        # 20.2.4c: a blaze that loses, a burn that wins: only the number
        (("low-pass", "deflect"), "T", "D", {"O": _parts(ignite="blaze"), "D": _parts()},
         ("", ""), ("deflect", "")),
        (("low-pass", "deflect"), "T", "D", {"O": _parts(), "D": _parts(ignite="burn")},
         ("", ""), ("deflect", "")),
        # 21.4.7: Synapse's Overdriven win
        (("dribble", "steal"), "T", "O", {"O": _parts(overdrive=5), "D": _parts()},
         ("synapse", ""), ("dribble-burst", "")),
        (("dribble", "steal"), "T", "O", {"O": _parts(overdrive=0), "D": _parts()},
         ("synapse", ""), ("dribble", "")),
        (("dribble", "steal"), "T", "O", {"O": _parts(overdrive=5), "D": _parts()},
         ("", ""), ("dribble", "")),
        # already a gambit gains nothing more; the ignite never decides a cost (20.2.5)
        (("skilled-pass", "double-team"), "O", "O",
         {"O": _parts(ignite="blaze"), "D": _parts()}, ("", ""),
         ("skilled-pass", "double-team")),
        # 19.4.2c with a blaze: card-loser wins the injury test on a blaze: upgraded, no cost
        (("skilled-pass", "double-team"), "O", "D",
         {"O": _parts(), "D": _parts(ignite="blaze")}, ("", ""), ("double-team", "")),
        # 21.5.4: Hexis / Dravox win the test with a gambit they played
        (("setup-pass", "steal"), "D", "O", {"O": _parts(), "D": _parts()}, ("hexis", ""),
         ("setup-pass", "")),
        (("setup-pass", "steal"), "D", "O", {"O": _parts(), "D": _parts()}, ("", "hexis"),
         ("high-pass", "")),
        (("high-pass", "intercept"), "T", "D", {"O": _parts(), "D": _parts()}, ("", "dravox"),
         ("intercept", "")),
        (("high-pass", "steal"), "T", "D", {"O": _parts(), "D": _parts()}, ("", "dravox"),
         ("steal", "")),
    ],
)
def test_gambit_tier(played: tuple[str, str], cards: str, winner: str,
                     test: dict[str, dict[str, Any]] | None, abilities: tuple[str, str],
                     expected: tuple[str, str]) -> None:
    assert gambit_tier(played, cards, winner, test, abilities) == expected


@pytest.mark.parametrize("text", ["card skilled-pass", "card dribble-burst", "card setup-pass",
                                  "card clear", "card intercept", "card double-team",
                                  "aim 0", "aim 4", "drive 3", "partner v3", "scorch force",
                                  "scorch accept"])
def test_gambit_decisions_parse(text: str) -> None:
    assert Decision.decode(text).encode() == text


# --- more of each gambit's text -----------------------------------------------------------


def test_19_5_4_midfielder_adds_3_for_their_own_skilled_pass() -> None:
    s = position(home={"h3": "M2", "h0": "H1"}, visitors={"v4": "M2", "v0": "V2"},
                 ball="M2", score=(0, 1), **ADV)
    m = Match(s).do("action maneuver", "card skilled-pass", "card deflect").roll(5, 5)
    assert m.last("skill-test")["offense"]["midfielder"] == 3


def test_19_5_5_beaten_by_an_intercept_the_interceptor_passes_unopposed() -> None:
    m = duel(score=(0, 1), injured=["v0"], visitors={"v3": "M3"})
    m.do("card skilled-pass", "card intercept")
    assert m.last("intercept")["to"] == "M1" and m.last("beaten")["card"] == "skilled-pass"
    while m.frame in ("run", "speed"):
        m.do(m.legal()[0])
    assert m.last("speed")["law"] == "19.9.5"
    assert m.last("unopposed-low-pass")["player"] == "v4"


def test_19_6_2_a_burst_from_the_last_space_goes_nowhere_and_costs_nothing() -> None:
    s = position(home={"h4": "V2", "h0": "H1"}, visitors={"v4": "V2", "v0": "H2"},
                 ball="V2", score=(0, 1), **ADV)
    m = Match(s).do("action maneuver", "card dribble-burst", "card deflect")
    assert m.last("forced")["decision"] == "dribble 1"
    assert m.space("h4") == "V2" and m.tokens("h4") == 0 and m.speed == 12


def test_21_3_4_emberdash_bursts_for_free() -> None:
    s = position(home={"h4": "M2", "h0": "H1"}, visitors={"v4": "M2", "v0": "V2"},
                 ball="M2", score=(0, 1), mode="advanced", teams=("fire-demons", "training"))
    m = Match(s).do("action maneuver", "card dribble-burst", "card deflect", "dribble 3")
    assert m.space("h4") == "V2" and m.tokens("h4") == 0


def test_19_7_2_several_teammates_where_it_lands_the_passer_s_coach_picks() -> None:
    m = duel(home={"h7": "V2", "h8": "V2"}, visitors={"v0": "V1"})
    m.do("card setup-pass", "card steal", "speed 5", "aim 3")
    assert m.legal() == ("receive h7", "receive h8")
    m.do("receive h8", "shot take").roll(1, 1)
    shot = m.last("score-attempt")
    assert shot["player"] == "h8" and shot["attack"]["striker"] == 3  # a set-up (8)


def test_19_7_3_aim_0_onto_a_teammate_sharing_the_space() -> None:
    s = position(home={"h4": "M3", "h3": "M3", "h0": "H1"}, visitors={"v4": "M3", "v0": "V2"},
                 ball="M3", score=(0, 1), carrier="h4", **ADV)
    m = Match(s).do("action maneuver", "card setup-pass", "card steal", "speed 1", "aim 0")
    assert m.frame == "setup" and m.state.ball.carrier == 3
    assert m.space("h4") == "M3"  # a Setup Pass does not send the passer forward


def test_19_10_4_the_pair_challenges_from_where_they_stand_until_a_new_play() -> None:
    m = duel(score=(1, 0), visitors={"v3": "M3"}, home={"h6": "M2"}, carrier="h4")
    m.do("card dribble", "card double-team")  # h4, v4, v3 on H2
    m.do("action maneuver", "card low-pass", "card pressure", "pass h6")  # it beats Pressure
    assert m.owner == HOME and m.ball == "M2"
    m.do("action maneuver")
    assert m.last("challenger") == {"t": "challenger", "law": "19.10.4", "player": "v4",
                                    "partner": "v3"}
    assert m.space("v4") == "H2" and not m.find("send")


def test_19_10_5_beaten_double_team_partner_who_took_the_ball_stays_with_it() -> None:
    # RULING_BEATEN_DOUBLE_TEAM_KEEPS_THE_BALL: h4's Low Pass finds nobody in reach and
    # rolls onto v3, the partner; v3 keeps the ball and only v4 steps forward.
    m = duel(score=(1, 0), home={"h0": "V2"}, visitors={"v3": "M3"})
    m.do("card low-pass", "card double-team")
    assert m.last("beaten")["law"] == "19.10.5"
    assert m.last("takes-ball")["player"] == "v3"
    assert m.last("double-team-beaten")["moved"] == {"v4": "M1"}
    assert m.state.ball.owner == 1 and m.state.players[9 + 3].pos == m.state.ball.pos


def test_19_9_6_a_lasting_double_team_challenger_intercepts_on_the_last_space() -> None:
    """19.9.6 with 19.10.4 (RULING_INTERCEPT_FROM_A_LASTING_DOUBLE_TEAM): the Double
    Team's challenger v6 challenges from M2, where it stands; its Intercept on H1, the
    last space toward the visitors' attack, is v6's scoring opportunity from H1, so v6
    takes the ball there, and declining it leaves v6 holding it on H1."""
    s = position(home={"h4": "H1", "h0": "H2"}, visitors={"v6": "M2", "v3": "M1", "v0": "V2"},
                 ball="H1", score=(1, 0), carrier="h4", **ADV)
    s = s._replace(turn=s.turn._replace(double=9 + 6, partner=9 + 3))
    m = Match(s).do("action maneuver", "card low-pass", "card intercept")
    assert m.last("intercept")["law"] == "19.9.6" and m.space("v6") == "H1"
    m.do("shot decline")
    assert m.owner == 1 and m.space("v6") == m.ball == "H1"
