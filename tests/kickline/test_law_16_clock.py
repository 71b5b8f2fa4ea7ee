"""Law 16: the clock, last possession, periods ending on a turnover, halftime and full time
(rulings 1.4 halftime, 1.7, 12.1.5)."""

from __future__ import annotations

import pytest
from scenario import HOME_DEAL_7, VISITORS_DEAL_7, Match, position

import kickline
from kickline.board import HOME, VISITORS

HOME6 = HOME_DEAL_7
VIS6 = VISITORS_DEAL_7


def test_16_2_costs_are_flat() -> None:
    """16.2.1-16.2.2 (rulings 1.7): an unchallenged High Pass costs 2, a Playmaker's 2-space
    dribble costs 1 -- whatever the distance."""
    m = Match(position(9, home={"h4": "M1", "h7": "V2"}, visitors={"v0": "V3"}, ball="M1",
                       minute=2))
    m.do("action maneuver", "send none", "card dribble", "dribble 2", "speed 1")
    assert m.ball == "M3" and m.state.minute == 3
    m.do("action maneuver", "send none", "card high-pass", "throw 2", "shot decline")
    assert m.ball == "V2" and m.state.minute == 5  # 3 + 2; declining the set-up is free


def test_16_3_1_the_turnover_that_reaches_15_is_finished_and_hands_over_last_possession(
) -> None:
    """16.3.1-16.3.2: the steal on minute 14 resolves in full (run back, speed step); the side
    it handed the ball to has last possession and plays on."""
    m = Match(position(home={"h3": "M2", "h0": "H1"}, visitors={"v4": "M2", "v0": "V2"},
                       ball="M2", minute=14))
    m.do("action maneuver", "card low-pass", "card steal")
    assert m.frame == "speed" and m.state.minute == 14  # the steal's speed step still comes
    m.do("speed 4")
    assert m.speed == 4
    assert m.state.minute == 15 and m.state.last_poss and m.state.period == 1
    assert m.last("last-possession") == {"t": "last-possession", "law": "16.3.2",
                                         "side": VISITORS, "minute": 15}
    assert m.owner == VISITORS and m.state.turn.side == VISITORS
    assert not m.find("period-ends") and not m.find("halftime")


def test_16_3_3_next_turnover_ends_the_period_with_nothing_it_would_lead_to() -> None:
    """16.3.3-16.3.4: under last possession a steal ends the half on its minute: charged as
    usual, no run back, no speed step, no reset, no Coaching Choice."""
    m = Match(position(home={"h3": "M2", "h4": "M2"}, visitors={"v4": "M2", "v3": "M1"},
                       ball="M2", minute=16, last_poss=True, arrangement={"v3": "M3"}))
    m.do("handler h3", "card low-pass", "card steal")
    assert m.last("clock") == {"t": "clock", "law": "4.4.3", "minute": 17, "cost": 1}
    assert m.last("period-ends") == {"t": "period-ends", "law": "16.3.3", "period": 1,
                                     "minute": 17}
    for t in ("run-back", "speed", "reset", "new-play", "steal-turnover"):
        assert not m.find(t), t
    assert m.find("halftime")


def test_16_3_4_every_turn_of_last_possession_is_charged_a_half_can_end_at_20() -> None:
    """16.3.4: turns without a turnover keep going and keep costing; the miss (a new play)
    ends the half on the minute it falls."""
    m = Match(position(home={"h4": "M2", "h7": "V1"}, visitors={"v0": "V2"}, ball="M2",
                       minute=17, last_poss=True))
    # a 2-space pass onto h7: received, set-up declined, no turnover
    m.do("send none", "card high-pass", "throw 2", "shot decline")
    assert m.state.minute == 19 and m.owner == HOME and not m.find("period-ends")
    m.do("action shoot").roll(1, 12)
    assert m.last("period-ends")["minute"] == 20
    assert not m.find("new-play")  # the miss's restart never happens


def test_16_4_halftime_recovery_choices_and_second_half_kickoff_at_15() -> None:
    """16.4.1: every fielded player clears 1, then each coach (visitors, then home) one more;
    benched players clear nothing. 16.4.2: visitors coach first, then home, with two
    substitutions of halftime's own; both sides' time outs come back.
    16.4.4: the second half starts at 15, visitors kicking off from M2 at speed 1."""
    tokens = {"h3": 3, "h4": 1, "v4": 2, "v0": 4, "h5": 4}
    m = Match(position(home=HOME6, visitors=VIS6, ball="M2", minute=18, last_poss=True,
                       tokens=tokens, timeouts=(True, True), score=(1, 0)))
    m.do("card low-pass", "card steal")
    assert m.last("halftime")["score"] == [1, 0]
    assert m.tokens("h3") == 2 and m.tokens("h4") == 0 and m.tokens("v4") == 1
    assert m.tokens("v0") == 3 and m.tokens("h5") == 4  # h5 sits on the bench
    assert m.frame == "extra_clear_ask" and m.waiting == ("decide", (1,), False)
    assert m.legal(1) == ("clear v0", "clear v4")
    m.do("clear v0")
    assert m.tokens("v0") == 2
    assert m.find("forced")[-1]["decision"] == "clear h3"  # home's only player with a token
    assert m.tokens("h3") == 1
    assert m.frame == "coach" and m.waiting == ("decide", (1,), False)
    assert m.state.stack[-1][2] == "halftime"
    m.do("sub v7 v8", "sub v6 v5", "finish")
    assert m.waiting == ("decide", (0,), False)
    m.do("sub h7 h8", "sub h6 h5")
    assert not [d for d in m.legal(0) if d.startswith("sub ")]  # two is halftime's limit
    m.do("finish")
    s = m.state
    assert (s.period, s.minute, s.last_poss) == (2, 15, False)
    assert s.subs == (2, 2) and s.timeouts == (False, False)  # 16.4.2, 13.2.1b
    ko = m.last("kickoff")
    assert ko == {"t": "kickoff", "law": "16.4.4", "side": VISITORS, "space": "M2",
                  "minute": 15}
    assert (m.ball, m.owner, m.speed) == ("M2", VISITORS, 1)
    assert m.space("h4") == "M2" and m.space("v4") == "M2"
    assert m.waiting == ("decide", (1,), False)  # the visitors' kickoff turn


def test_16_4_3_halftime_choice_must_cover_the_kickoff_space() -> None:
    """16.4.3: each coach finishes with a player on their own kickoff space."""
    m = Match(position(home=HOME6, visitors=VIS6, ball="M2", minute=15, last_poss=True))
    m.do("card low-pass", "card steal")
    assert m.frame == "coach" and m.state.stack[-1][2] == "halftime"
    m.do("move v4 M1")
    before = m.state
    assert "finish" not in m.legal(1)
    with pytest.raises(kickline.IllegalDecision):
        kickline.apply(before, 1, "finish")
    assert m.state is before


def test_16_4_4_goal_is_recorded_with_its_period() -> None:
    """16.4.4: minutes 15 and up occur in both halves, so a goal carries its period."""
    m = Match(position(home={"h7": "V1"}, visitors={"v0": "V2"}, ball="V1", minute=15,
                       period=2))
    m.do("action shoot").roll(12, 1)
    assert m.last("goal")["period"] == 2 and m.last("goal")["minute"] == 16
    assert m.state.goals == ((HOME, 2, 16, 7, "goal"),)


def test_16_5_full_time_on_the_first_turnover_under_last_possession() -> None:
    """16.5.1-16.5.2: the second half ends like the first; the higher score wins."""
    m = Match(position(home={"h4": "M2"}, visitors={"v4": "M2"}, ball="M2", period=2,
                       minute=31, last_poss=True, score=(2, 1)))
    m.do("card low-pass", "card steal")
    assert m.last("period-ends") == {"t": "period-ends", "law": "16.3.3", "period": 2,
                                     "minute": 32}
    assert m.last("full-time")["score"] == [2, 1]
    assert m.waiting == ("over", (), False)
    assert kickline.result(m.state) == {"winner": 0, "score": [2, 1], "home_seat": 0,
                                        "score_home_visitors": [2, 1], "shootout": False}


def test_16_3_second_half_last_possession_from_30() -> None:
    """16.3.1: the second half's last minute is 30; 29 is not yet last possession."""
    m = Match(position(home={"h3": "M1", "h4": "M2"}, visitors={"v0": "V2"}, ball="M1",
                       period=2, minute=28))
    m.do("action maneuver", "send none", "card low-pass")
    assert m.state.minute == 29 and not m.state.last_poss
    m.do("action maneuver", "send none", "card low-pass")
    assert m.state.minute == 30 and m.state.last_poss


def test_16_5_2_level_at_full_time_goes_to_the_shootout_home_substitutes_first() -> None:
    """16.5.2, 14.2.2: a level score offers one substitution each, home first, and nothing
    but substitution."""
    m = Match(position(home=HOME6, visitors=VIS6, ball="M2", period=2, minute=30,
                       last_poss=True, score=(1, 1)))
    m.do("card low-pass", "card steal")
    assert m.last("full-time") == {"t": "full-time", "law": "16.5.2", "score": [1, 1],
                                   "shootout": True}
    assert m.state.period == 3 and m.waiting == ("decide", (0,), False)
    legal = m.legal(0)
    assert "skip" in legal and all(d == "skip" or d.startswith("sub ") for d in legal)
    m.do("sub h7 h8")
    assert m.find("forced")[-1]["decision"] == "finish"  # the one substitution is spent
    assert m.waiting == ("decide", (1,), False)


def test_16_4_4_visitors_kick_off_the_second_half_even_after_conceding_last() -> None:
    """16.3.3, 16.4.4: a goal under last possession ends the half without its restart; the
    second half is the visitors' kickoff whoever conceded."""
    m = Match(position(home=HOME6, visitors={**VIS6, "v7": "M1"}, ball="M1", owner=VISITORS,
                       minute=15, last_poss=True, arrangement={"v7": "H1"},
                       zones={"v7": "H"}))
    m.do("action shoot").roll(12, 1)
    assert m.last("goal")["side"] == VISITORS and m.last("goal")["minute"] == 16
    assert not m.find("new-play") and m.find("halftime")
    m.do("skip", "skip")
    assert m.last("kickoff")["side"] == VISITORS and m.state.minute == 15
    assert m.owner == VISITORS and m.space("v7") == "H1"  # back on the arrangement


def test_16_3_2_a_goal_on_the_last_minute_hands_last_possession_to_the_conceders() -> None:
    """16.3.1-16.3.2: the goal reaching 15 is finished in full (restart, Choice); the side
    kicking off holds the ball and so has last possession."""
    m = Match(position(home={"h7": "V1", "h4": "M2"}, visitors={"v0": "V2", "v4": "M2"},
                       ball="V1", minute=14))
    m.do("action shoot").roll(12, 1)
    assert not m.state.last_poss  # the clock runs after the restart's Choice
    m.do("skip")
    assert m.state.minute == 15 and m.state.last_poss
    assert m.last("last-possession")["side"] == VISITORS
    assert (m.ball, m.owner) == ("M2", VISITORS) and not m.find("period-ends")
