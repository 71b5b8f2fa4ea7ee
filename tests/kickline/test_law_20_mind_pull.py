"""Law 20.4: Mind Pull and Smooth (Telekinetic), standard mode unless a test says otherwise.

Board 7: H1 H2 M1 M2 M3 V1 V2; home attacks toward V, M3-V2 is home's range.
Telekinetics slots: 0 Umbrik FB, 1 Vorix D, 2 Dravox D, 3 Spectra MF, 4 Hexis PM,
5 Quillon PM, 6 Zenith W, 7 Zytheris S, 8 Noxar S.  Oozes: 6 Shpritz W.
"""

from __future__ import annotations

from scenario import HOME, VISITORS, Match, high_pass_2, position, rolling_for

from kickline.engine import Ctx, Movement, ball_moves, pull_offers, smooth_offers
from kickline.state import parse_pid

OOZES_V_TK = ("oozes", "telekinetics")  # the visitors are the Telekinetics
TK_V_OOZES = ("telekinetics", "oozes")  # the home side is


def _high_pass_2(mode: str = "standard", **visitors: str) -> Match:
    """Home h4 on M1 throws 2, unchallenged, onto M3 (crossing M2)."""
    return high_pass_2(OOZES_V_TK, mode, **visitors)


def test_20_4_1_offered_on_a_space_passed_over_and_on_the_landing_space() -> None:
    """20.4.1, 20.4.5: v3 (M2, crossed) is asked before v4 (M3, where it lands)."""
    m = _high_pass_2(v3="M2", v4="M3")
    assert m.frame == "pull" and m.legal() == ("pull none", "pull v3")
    m.do("pull none")
    assert m.legal() == ("pull none", "pull v4")
    m.do("pull none")
    assert m.frame == "send"  # 10.4.2: only now does the pass land among defenders


def test_20_4_2_the_token_is_paid_on_a_miss_and_only_11_or_12_lands() -> None:
    """20.4.1-20.4.2: trying exhausts 1 whether or not it lands; 10 misses, and the miss
    is not a skill test (no injury check, no test tokens)."""
    m = _high_pass_2(v3="M2", v4="M3")
    m.do("pull v3")
    assert m.tokens("v3") == 1 and rolling_for(m.state) == ("pull", "v3")
    m.roll(10)
    e = m.last("mind-pull")
    assert e["lands"] is False and e["needs"] == 11 and e["law"] == "20.4.1"
    assert m.legal() == ("pull none", "pull v4")  # the ball flies on
    m.do("pull v4").roll(11)
    assert m.last("mind-pull")["lands"] is True
    assert m.tokens("v3") == 1 and m.tokens("v4") == 1 and not m.find("injury-check")


def test_20_4_5_the_first_success_stops_the_ball_and_the_rest_get_no_roll() -> None:
    """20.4.5, 20.4.8: v3 pulls the ball in on M2; v4 on M3 is never asked; it is a steal:
    speed 1, a run back, v3 the carrier who does not run back, the minute still charged."""
    m = _high_pass_2(v3="M2", v4="M3")
    minute = m.state.minute
    m.do("pull v3").roll(12)
    assert m.last("pulled") == {"t": "pulled", "law": "20.4.8", "player": "v3", "at": "M2",
                                "space": "M2", "speed": 1}
    assert not any(e.get("decision") == "pull v4" for e in m.find("decision"))
    assert m.ball == "M2" and m.owner == VISITORS and m.speed == 1
    assert m.find("steal-turnover") and not m.find("send")
    assert not any(e["player"] == "v3" for e in m.find("run-back"))
    assert m.state.minute == minute + 2  # the High Pass's 2 space minutes (20.4.8)
    assert m.last("handler")["player"] == "v3" and m.last("handler")["carrier"] is True


def test_20_4_3_the_balls_starting_space_is_not_moved_to() -> None:
    """20.4.3: the challenger v3 on M1, where the ball starts, is offered nothing; v4 on
    M3 is."""
    s = position(home={"h4": "M1", "h0": "H1"}, visitors={"v3": "M1", "v4": "M3", "v0": "V2"},
                 ball="M1", mode="standard", teams=OOZES_V_TK)
    m = Match(s).do("action maneuver", "card high-pass", "card steal", "throw 2")
    assert m.legal() == ("pull none", "pull v4")
    m.do("pull none")
    assert m.frame != "pull"


def test_20_4_4_a_player_the_movement_carried_is_not_offered() -> None:
    """20.4.4: a Pressure carries the handler and challenger v3 back onto M1 with the ball:
    v3 is owed nothing; v4 already standing on M1 is."""
    s = position(home={"h4": "M2", "h0": "H1"}, visitors={"v3": "M2", "v4": "M1", "v0": "V2"},
                 ball="M2", mode="standard", teams=OOZES_V_TK)
    m = Match(s).do("action maneuver", "card dribble", "card pressure")
    assert m.last("ball-moves")["carried"] == ["h4", "v3"]
    assert m.legal() == ("pull none", "pull v4")


def test_20_4_4_a_player_shoved_nowhere_is_offered_as_if_standing_still() -> None:
    """20.4.4: no Part I maneuver shoves a player nowhere while the ball moves (Double
    Team, Law 19, does), so the movement is driven directly: v4, named as carried but
    already on M1 and left there, was not carried and may pull; v3, who moved with
    the ball, may not."""
    s = position(home={"h4": "M2", "h0": "H1"}, visitors={"v3": "M2", "v4": "M1", "v0": "V2"},
                 ball="M2", mode="standard", teams=OOZES_V_TK)
    c = Ctx(s)
    ball_moves(c, 3, "test", carried=(parse_pid("v3"), parse_pid("v4")), side=HOME)
    c.move(parse_pid("v3"), 3)
    m = c.moving
    assert m is not None
    assert pull_offers(c, m) == [(parse_pid("v4"), 3)]


def test_20_4_7_a_landed_pull_preempts_a_low_pass_reception_and_is_a_steal() -> None:
    """20.4.7-20.4.8: the Low Pass to h7 on M3 is pulled in by v4 standing there: h7 never
    receives it, the visitors have it at speed 1 and the players run back."""
    s = position(home={"h4": "M1", "h7": "M3", "h0": "H1"},
                 visitors={"v4": "M3", "v0": "V2", "v1": "V1"},
                 ball="M1", mode="standard", teams=OOZES_V_TK, speed=5)
    m = Match(s).do("action maneuver", "send none", "card low-pass", "pass h7")
    assert m.legal() == ("pull none", "pull v4")
    m.do("pull v4").roll(11)
    assert m.owner == VISITORS and m.speed == 1 and m.ball == "M3"
    assert m.find("steal-turnover") and not m.find("contest")
    assert m.last("handler")["player"] == "v4"


def test_20_4_9_smooth_only_where_the_ball_rests_and_not_for_the_intended_receiver() -> None:
    """20.4.9-20.4.11: home's Low Pass to h7 on M3: Spectra (h3) standing there may take
    it over; nobody else is asked, and it cannot fail (no token, no roll)."""
    s = position(home={"h4": "M1", "h7": "M3", "h3": "M3", "h0": "H1"},
                 visitors={"v0": "V2", "v1": "V1"}, ball="M1", mode="standard",
                 teams=TK_V_OOZES, speed=5)
    m = Match(s).do("action maneuver", "send none", "card low-pass", "pass h7")
    assert m.legal() == ("smooth h3", "smooth none")
    m.do("smooth h3")
    assert m.last("smooth")["player"] == "h3" and m.tokens("h3") == 0
    assert m.owner == HOME and m.speed == 6  # the pass's +1, untouched by the Smooth
    assert not m.find("steal-turnover") and not m.find("run-back")
    assert m.last("handler")["player"] == "h3"


def test_20_4_10_no_smooth_on_a_space_passed_over() -> None:
    """20.4.10: Spectra on M2 under a High Pass of 2 onto h7 on M3 is offered nothing; nor
    is h7, the receiver (20.4.11)."""
    s = position(home={"h4": "M1", "h3": "M2", "h7": "M3", "h0": "H1"},
                 visitors={"v0": "V2", "v1": "V1"}, ball="M1", mode="standard",
                 teams=TK_V_OOZES)
    m = Match(s).do("action maneuver", "send none", "card high-pass", "throw 2")
    assert not any(e.get("decision", "").startswith("smooth") for e in m.find("forced"))
    assert m.frame == "setup" and m.last("takes-ball")["player"] == "h7"


def test_20_4_11_a_telekinetic_receiving_the_pass_is_offered_no_smooth() -> None:
    """20.4.11: the Low Pass aimed at Spectra herself ends with her holding it anyway."""
    s = position(home={"h4": "M1", "h3": "M3", "h0": "H1"}, visitors={"v0": "V2", "v1": "V1"},
                 ball="M1", mode="standard", teams=TK_V_OOZES)
    m = Match(s).do("action maneuver", "send none", "card low-pass", "pass h3")
    assert not m.find("smooth") and ("moved",) not in m.state.stack
    assert m.owner == HOME and m.last("handler")["player"] == "h3"


def test_20_4_12_smooth_preempts_a_contest_and_is_not_a_turnover() -> None:
    """20.4.12-20.4.13: a Deflect knocks home's ball back onto M1, where Spectra and the
    visitors' v1 stand: Spectra Smooths it, so there is no contest, no run back, and the
    speed the Deflect left stays."""
    s = position(home={"h4": "M2", "h3": "M1", "h0": "H1"},
                 visitors={"v4": "M2", "v1": "M1", "v0": "V2"}, ball="M2", speed=5,
                 mode="standard", teams=TK_V_OOZES)
    m = Match(s).do("action maneuver", "card high-pass", "card deflect")
    assert m.legal() == ("smooth h3", "smooth none")
    m.do("smooth h3")
    assert not m.find("contest") and not m.find("steal-turnover")
    assert m.owner == HOME and m.speed == 4 and m.ball == "M1"


def test_20_4_12_declined_smooth_leaves_the_contest() -> None:
    """20.4.7, 20.4.14: declining leaves the arrival to resolve as normal."""
    s = position(home={"h4": "M2", "h3": "M1", "h0": "H1"},
                 visitors={"v4": "M2", "v1": "M1", "v0": "V2"}, ball="M2", speed=5,
                 mode="standard", teams=TK_V_OOZES)
    m = Match(s).do("action maneuver", "card high-pass", "card deflect", "smooth none")
    assert rolling_for(m.state) == ("contest", "h3")


def test_20_4_13_smooth_after_a_steal_the_run_back_still_happens() -> None:
    """20.4.13: the visitors' Steal carries v4 and the ball onto M3, where Spectra (v3)
    stands; she takes it over and is the carrier who stays, but v4 still runs back."""
    s = position(home={"h4": "M2", "h0": "H1"},
                 visitors={"v4": "M2", "v3": "M3", "v0": "V2"}, ball="M2",
                 zones={"v4": "V"}, arrangement={"v4": "V1"},
                 mode="standard", teams=OOZES_V_TK)
    m = Match(s).do("action maneuver", "card low-pass", "card steal")
    assert m.legal() == ("smooth none", "smooth v3")
    m.do("smooth v3")
    assert m.find("steal-turnover")
    assert m.state.ball.carrier == parse_pid("v3") and m.frame == "speed"  # v4's step, 6.9.3
    assert any(e["player"] == "v4" for e in m.find("run-back"))
    assert not any(e["player"] == "v3" for e in m.find("run-back"))


def test_20_4_14_every_pull_before_the_smooth_and_a_landed_pull_leaves_none() -> None:
    """20.4.14: both sides Telekinetics. The visitors' Spectra (v3) on M2 may pull home's Low
    Pass to h7 on M3 before home's Spectra (h3) there is offered the Smooth."""
    teams = ("telekinetics", "telekinetics")
    s = position(home={"h4": "M1", "h7": "M3", "h3": "M3", "h0": "H1"},
                 visitors={"v3": "M2", "v0": "V2", "v1": "V1"}, ball="M1",
                 mode="standard", teams=teams)
    m = Match(s).do("action maneuver", "send none", "card low-pass", "pass h7")
    assert m.legal() == ("pull none", "pull v3")
    m.do("pull v3").roll(3)
    assert m.legal() == ("smooth h3", "smooth none")
    m2 = Match(s).do("action maneuver", "send none", "card low-pass", "pass h7", "pull v3")
    m2.roll(11)
    assert not m2.find("smooth") and m2.owner == VISITORS and m2.ball == "M2"


def test_20_4_12_a_pressure_own_goal_risk_moves_the_ball_nowhere() -> None:
    """20.4.12: Pressure on home's own last space: own-goal roll, no pull, no Smooth."""
    s = position(home={"h4": "H1", "h3": "H1", "h0": "H2"},
                 visitors={"v4": "H1", "v0": "V2", "v1": "V1"}, ball="H1",
                 mode="standard", teams=TK_V_OOZES)
    m = Match(s).do("handler h4", "action maneuver", "card dribble", "card pressure")
    assert rolling_for(m.state) == ("own-goal", "h4") and "moved" not in {
        f[0] for f in m.state.stack}


def test_18_2_1_training_mode_offers_nothing() -> None:
    """18.2.1, 20.1.2: the same pass in training mode: no pull, no mark on the stack."""
    m = _high_pass_2("training", v3="M2", v4="M3")
    assert m.frame == "send" and ("moved",) not in m.state.stack


def test_20_4_movement_without_telekinetics_leaves_no_mark() -> None:
    """Standard mode with nobody to offer anything: the stack is as in training."""
    s = position(home={"h4": "M1", "h0": "H1"}, visitors={"v0": "V2", "v4": "M3"}, ball="M1",
                 mode="standard", teams=("oozes", "oozes"))
    m = Match(s).do("action maneuver", "send none", "card high-pass", "throw 2")
    assert m.frame == "send" and ("moved",) not in m.state.stack


def test_smooth_offers_reads_the_holder_after_the_movement() -> None:
    """RULING_SMOOTH_SIDE_IS_THE_HOLDERS: the Smooth is offered to whoever's ball it is once
    it arrives (here home's, rolling loose after a Low Pass with nobody to reach)."""
    s = position(home={"h4": "M2", "h3": "M3", "h0": "H1"}, visitors={"v0": "V2"},
                 ball="M2", mode="standard", teams=TK_V_OOZES)
    c = Ctx(s)
    ball_moves(c, 5, "test")
    c.set_ball(pos=5, owner=-1, last=HOME)
    m = c.moving
    assert isinstance(m, Movement) and smooth_offers(c, m) == [parse_pid("h3")]


def test_20_4_8_a_pull_off_the_defenses_steal_hands_it_back_with_a_run_back() -> None:
    """20.4.1, 20.4.8: the visitors' Steal carries the ball onto M3, where home's Spectra (h3)
    stands: it is now the opponent's ball, she may pull it, and a pull that lands is a
    steal: speed 1, players run back (v4, carried out of its zone), h3 the carrier."""
    s = position(home={"h4": "M2", "h3": "M3", "h0": "H1"}, visitors={"v4": "M2", "v0": "V2"},
                 ball="M2", zones={"v4": "V"}, arrangement={"v4": "V1"}, mode="standard",
                 teams=TK_V_OOZES)
    m = Match(s).do("action maneuver", "card low-pass", "card steal")
    assert m.legal() == ("pull h3", "pull none")
    m.do("pull h3").roll(12)
    # v0 is an Ooze, so V2 counts as uncovered too (20.5.3): v4 may run to either.
    m.do("run v4 V1")
    assert m.owner == HOME and m.speed == 1 and m.ball == "M3"
    assert [e["player"] for e in m.find("run-back")] == ["v4"] and m.space("v4") == "V1"
    assert not m.find("speed")  # the visitors' speed step went with their possession
    assert m.last("handler")["player"] == "h3"


def test_20_4_6_a_ball_brought_back_into_play_crosses_nobody() -> None:
    """20.4.6: after a goal the ball is carried to the kickoff space, not moved over the
    spaces between: the visitors' Telekinetics on the way are offered nothing."""
    s = position(home={"h7": "V1", "h0": "H1"}, visitors={"v3": "M3", "v4": "M2", "v0": "V2"},
                 ball="V1", mode="standard", teams=OOZES_V_TK)
    m = Match(s).do("action shoot").roll(12, 1)
    assert m.find("goal")
    goal_at = m.events.index(m.last("goal"))
    assert not [e for e in m.events[goal_at:] if e["t"] in ("ball-moves", "mind-pull")]
    assert m.frame != "pull" and ("moved",) not in m.state.stack
