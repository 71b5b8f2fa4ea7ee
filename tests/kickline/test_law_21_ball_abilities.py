"""Law 21: the personal abilities around the moving ball, advanced mode only.

Board 7: H1 H2 M1 M2 M3 V1 V2; home attacks toward V, M3-V2 is home's range.
Telekinetics: 1 Vorix D, 3 Spectra MF, 5 Quillon PM, 6 Zenith W, 7 Zytheris S, 8 Noxar S.
Oozes: 6 Shpritz W.  Fire Demons: 2 Inferno D.  Cyborgs: 7 Pulsar S.
"""

from __future__ import annotations

from scenario import HOME, VISITORS, Match, high_pass_2, position

from kickline.state import parse_pid

OOZES_V_TK = ("oozes", "telekinetics")
TK_V_OOZES = ("telekinetics", "oozes")


def _high_pass_2(mode: str = "advanced", **visitors: str) -> Match:
    """Home h4 on M1 throws 2, unchallenged, onto M3 (crossing M2)."""
    return high_pass_2(OOZES_V_TK, mode, **visitors)


def test_21_5_1_noxar_pulls_from_beside_and_brings_the_ball_home() -> None:
    """21.5.1: Noxar (v8) on V1 is beside M3, where the pass lands: offered, and a pull that
    lands brings the ball to V1."""
    m = _high_pass_2(v8="V1")
    assert m.legal() == ("pull none", "pull v8")
    m.do("pull v8").roll(11)
    e = m.last("pulled")
    assert e["at"] == "M3" and e["space"] == "V1"
    assert m.ball == "V1" and m.owner == VISITORS and m.last("handler")["player"] == "v8"


def test_21_5_1_in_standard_mode_noxar_pulls_only_on_his_own_space() -> None:
    """21.1.1: personal abilities are advanced mode only: in standard Noxar is a plain
    Telekinetic and a ball landing beside him offers nothing."""
    m = _high_pass_2("standard", v8="V1")
    assert m.frame == "loose"  # 10.3: M3 is empty


def test_21_5_2_quillon_pulls_for_free() -> None:
    """21.5.2: Quillon (v5) takes no token for trying."""
    m = _high_pass_2(v5="M2").do("pull v5")
    assert m.tokens("v5") == 0
    m.roll(4)
    assert m.last("mind-pull")["lands"] is False and m.tokens("v5") == 0


def test_21_5_3_spectra_pulls_on_9() -> None:
    """21.5.3: Spectra's pull lands on 9 in advanced mode; in standard mode 9 misses."""
    m = _high_pass_2(v3="M2").do("pull v3").roll(9)
    assert m.last("mind-pull")["needs"] == 9 and m.last("pulled")["player"] == "v3"
    m = _high_pass_2("standard", v3="M2").do("pull v3").roll(9)
    assert m.last("mind-pull")["lands"] is False and not m.find("pulled")


def test_21_6_5_shpritz_smooths_but_never_pulls() -> None:
    """21.6.5: Shpritz (h6, an Ooze) takes over home's Low Pass on M3 like a Telekinetic;
    on the visitors' side under a pass she is offered no pull."""
    s = position(home={"h4": "M1", "h7": "M3", "h6": "M3"}, visitors={"v0": "V2", "v1": "V1"},
                 ball="M1", mode="advanced", teams=("oozes", "oozes"), speed=3)
    m = Match(s).do("action maneuver", "send none", "card low-pass", "pass h7")
    assert m.legal() == ("smooth h6", "smooth none")
    m.do("smooth h6")
    assert m.last("smooth")["law"] == "21.6.5" and m.speed == 4
    s = position(home={"h4": "M1", "h0": "H1"}, visitors={"v6": "M2", "v0": "V2"}, ball="M1",
                 mode="advanced", teams=("oozes", "oozes"))
    m = Match(s).do("action maneuver", "send none", "card high-pass", "throw 2")
    assert m.frame != "pull"


def _steal_onto_m3(home: dict[str, str], **kw: object) -> Match:
    """The visitors' v4 steals home's ball on M2 and carries it onto M3 (6.9.2)."""
    s = position(home={"h4": "M2", **home}, visitors={"v4": "M2", "v0": "V2"}, ball="M2",
                 mode="advanced", teams=TK_V_OOZES, **kw)  # type: ignore[arg-type]
    return Match(s).do("action maneuver", "card low-pass", "card steal")


def test_21_5_7_zenith_flies_before_the_run_back_and_then_stays() -> None:
    """21.5.7: before the steal's run back home's Zenith (h6, zone M, standing on V1) may fly
    to any space, exhausting 1 a space, and then does not run back."""
    m = _steal_onto_m3({"h6": "V1"}, zones={"h6": "M"}, arrangement={"h6": "M1"})
    assert m.frame == "zenith"
    assert m.legal() == tuple(sorted(["fly none", "fly H1", "fly H2", "fly M1", "fly M2",
                                      "fly M3", "fly V2"]))
    m.do("fly H1")
    assert m.space("h6") == "H1" and m.tokens("h6") == 5
    assert m.last("flies")["law"] == "21.5.7"
    assert not any(e["player"] == "h6" for e in m.find("run-back"))


def test_21_5_7_zenith_who_declines_runs_back_as_usual() -> None:
    m = _steal_onto_m3({"h6": "V1"}, zones={"h6": "M"}, arrangement={"h6": "M1"})
    m.do("fly none")
    assert m.frame == "run" and all(d.startswith("run h6 M") for d in m.legal())


def test_21_5_7_injured_zenith_does_not_fly_and_standard_mode_has_no_flight() -> None:
    m = _steal_onto_m3({"h6": "M3"}, injured=["h6"])
    assert m.frame != "zenith" and not m.find("flies")
    s = position(home={"h4": "M2", "h6": "M3"}, visitors={"v4": "M2", "v0": "V2"}, ball="M2",
                 mode="standard", teams=TK_V_OOZES)
    m = Match(s).do("action maneuver", "card low-pass", "card steal")
    assert m.frame != "zenith"


def test_21_5_7_zenith_holding_the_ball_does_not_fly() -> None:
    """21.5.7: the visitors' Zenith (v6) who has just stolen the ball holds it."""
    s = position(home={"h4": "M2", "h0": "H1"}, visitors={"v6": "M2", "v0": "V2"}, ball="M2",
                 mode="advanced", teams=OOZES_V_TK)
    m = Match(s).do("action maneuver", "card low-pass", "card steal")
    assert m.frame != "zenith" and not m.find("flies")


def test_21_3_6_inferno_receiving_a_pass_lights_the_ball() -> None:
    """21.3.6: Inferno (h2) receives a Low Pass: speed 12 whatever the pass made it."""
    s = position(home={"h4": "M1", "h2": "M2"}, visitors={"v0": "V2"}, ball="M1",
                 mode="advanced", teams=("fire-demons", "oozes"), speed=3)
    m = Match(s).do("action maneuver", "send none", "card low-pass")
    assert m.last("lights-ball") == {"t": "lights-ball", "law": "21.3.6", "player": "h2",
                                     "speed": 12}
    assert m.speed == 12 and m.state.ball.owner == HOME


def test_21_3_6_inferno_chosen_handler_on_the_ball_is_not_receiving() -> None:
    s = position(home={"h2": "M1", "h4": "M1"}, visitors={"v0": "V2"}, ball="M1",
                 mode="advanced", teams=("fire-demons", "oozes"), speed=3)
    m = Match(s).do("handler h2")
    assert m.speed == 3 and not m.find("lights-ball")


def test_21_3_6_inferno_taking_a_ball_at_rest_lights_it_and_keeps_it_after_a_steal() -> None:
    """21.3.6: the visitors' Inferno (v2) alone on M1 takes home's deflected ball: a steal
    (10.7.1) whose reset to 1 comes before Inferno receives it."""
    s = position(home={"h4": "M2", "h0": "H1"}, visitors={"v4": "M2", "v2": "M1", "v0": "V2"},
                 ball="M2", speed=5, mode="advanced", teams=("oozes", "fire-demons"))
    m = Match(s).do("action maneuver", "card high-pass", "card deflect")
    assert m.last("takes-ball")["player"] == "v2" and m.find("steal-turnover")
    assert m.speed == 12


def test_21_4_6_pulsar_clears_a_drain_on_receiving() -> None:
    """21.4.6: Pulsar (h7) receiving a pass clears 1 drain, never below 0."""
    s = position(home={"h4": "M1", "h7": "M2"}, visitors={"v0": "V2"}, ball="M1",
                 mode="advanced", teams=("cyborgs", "oozes"), tokens={"h7": 2})
    m = Match(s).do("action maneuver", "send none", "card low-pass")
    assert m.tokens("h7") == 1 and m.last("clear")["law"] == "21.4.6"
    s = position(home={"h4": "M1", "h7": "M2"}, visitors={"v0": "V2"}, ball="M1",
                 mode="advanced", teams=("cyborgs", "oozes"))
    m = Match(s).do("action maneuver", "send none", "card low-pass")
    assert m.tokens("h7") == 0 and not m.find("clear")


def test_21_5_6_vorix_long_pass_is_a_set_up_without_a_contest() -> None:
    """21.5.6: Vorix (h1) throws 3 from M1 onto h7 on V1, where v0 stands: no High Pass
    contest, speed 12, and h7 may shoot (V1 is in range)."""
    s = position(home={"h1": "M1", "h7": "V1", "h0": "H1"}, visitors={"v0": "V1", "v6": "H2"},
                 ball="M1", mode="advanced", teams=TK_V_OOZES)
    m = Match(s).do("action maneuver", "send none", "card high-pass", "throw 3")
    assert m.frame == "setup" and m.speed == 12 and m.last("vorix-pass")["law"] == "21.5.6"
    assert m.state.stack[-1][2] == "vorix" and not m.find("contest")
    s = position(home={"h1": "M1", "h7": "V1", "h0": "H1"}, visitors={"v0": "V1", "v6": "H2"},
                 ball="M1", mode="standard", teams=TK_V_OOZES)
    m = Match(s).do("action maneuver", "send none", "card high-pass", "throw 3")
    assert m.frame != "setup"  # in standard mode the 3-space pass is contested (10.4)


def test_21_5_8_zytheris_shoots_off_a_low_pass_in_range() -> None:
    """21.5.8: Zytheris (h7) receives a Low Pass on V1 from a non-Winger: a set-up."""
    s = position(home={"h4": "M3", "h7": "V1"}, visitors={"v0": "V2", "v6": "H2"}, ball="M3",
                 mode="advanced", teams=TK_V_OOZES)
    m = Match(s).do("action maneuver", "send none", "card low-pass")
    assert m.frame == "setup" and m.state.stack[-1][2] == "zytheris"
    m.do("shot decline")
    assert m.owner == HOME


def test_21_5_8_zytheris_shoots_after_winning_a_long_pass_contest() -> None:
    """21.5.8: a High Pass of 3 to Zytheris is contested as usual; winning it gives her the
    scoring opportunity."""
    s = position(home={"h4": "M1", "h7": "V1", "h0": "H1"}, visitors={"v0": "V1", "v6": "H2"},
                 ball="M1", mode="advanced", teams=TK_V_OOZES)
    m = Match(s).do("action maneuver", "send none", "card high-pass", "throw 3")
    m.roll(12, 1)
    assert m.last("contest")["winner"] == "h7"
    assert m.frame == "setup" and m.state.stack[-1][2] == "zytheris"
    assert parse_pid("h7") == m.state.ball.carrier


def test_21_4_5_quantor_runs_onto_a_long_pass_and_receives_it_uncontested() -> None:
    """21.4.5: declared with the distance: Quantor (h6, M2) drains 3, runs onto V1 where the
    pass of 3 lands among defenders, and simply receives it: no contest."""
    s = position(home={"h4": "M1", "h6": "M2", "h0": "H1"}, visitors={"v0": "V1", "v6": "H2"},
                 ball="M1", mode="advanced", teams=("cyborgs", "oozes"))
    m = Match(s).do("action maneuver", "send none", "card high-pass")
    assert m.legal() == ("quantor 2", "quantor 3", "throw 2", "throw 3")
    m.do("quantor 3")
    assert m.tokens("h6") == 3 and m.space("h6") == "V1"
    assert m.last("takes-ball") == {"t": "takes-ball", "law": "21.4.5", "player": "h6",
                                    "space": "V1"}
    assert not m.find("contest") and m.owner == HOME


def test_21_4_5_quantor_on_a_pass_of_2_in_range_is_set_up() -> None:
    s = position(home={"h4": "M2", "h6": "M1", "h0": "H1"}, visitors={"v0": "V1", "v6": "H2"},
                 ball="M2", mode="advanced", teams=("cyborgs", "oozes"))
    m = Match(s).do("action maneuver", "send none", "card high-pass", "quantor 2")
    assert m.frame == "setup" and m.state.stack[-1][2] == "quantor" and m.space("h6") == "V1"


def test_21_4_5_never_on_quantors_own_pass_nor_outside_advanced_mode() -> None:
    s = position(home={"h6": "M1", "h0": "H1"}, visitors={"v0": "V1", "v6": "H2"},
                 ball="M1", mode="advanced", teams=("cyborgs", "oozes"))
    m = Match(s).do("action maneuver", "send none", "card high-pass")
    assert m.legal() == ("throw 2", "throw 3")
    s = position(home={"h4": "M1", "h6": "M2", "h0": "H1"}, visitors={"v0": "V1", "v6": "H2"},
                 ball="M1", mode="standard", teams=("cyborgs", "oozes"))
    m = Match(s).do("action maneuver", "send none", "card high-pass")
    assert m.legal() == ("throw 2", "throw 3")


def test_21_4_5_a_pull_preempts_quantors_reception() -> None:
    """20.4.7 with 21.4.5: the visitors' Telekinetic v4 on V1, where Quantor ran, pulls the
    pass in first: Quantor has drained 3 and receives nothing."""
    s = position(home={"h4": "M1", "h6": "M2", "h0": "H1"}, visitors={"v4": "V1", "v1": "H2"},
                 ball="M1", mode="advanced", teams=("cyborgs", "telekinetics"))
    m = Match(s).do("action maneuver", "send none", "card high-pass", "quantor 3")
    assert m.legal() == ("pull none", "pull v4")
    m.do("pull v4").roll(12)
    assert m.owner == VISITORS and m.tokens("h6") == 3 and not m.find("takes-ball")


def test_21_4_6_a_pass_pulled_away_from_pulsar_is_not_received() -> None:
    """20.4.7 with 21.4.6: the visitors' Telekinetic v4 on M2 pulls the Low Pass meant for
    Pulsar (h7) on M3: Pulsar never held it and clears nothing."""
    s = position(home={"h4": "M1", "h7": "M3"}, visitors={"v4": "M2", "v1": "V1"},
                 ball="M1", mode="advanced", teams=("cyborgs", "telekinetics"),
                 tokens={"h7": 2})
    m = Match(s).do("action maneuver", "send none", "card low-pass")
    assert m.last("pass")["to"] == "h7" and m.legal() == ("pull none", "pull v4")
    m.do("pull v4").roll(12)
    # Pulsar clears nothing for the pass (21.4.6); standing still through the pull's run
    # back, Pulsar charges up like any Cyborg (20.3.7).
    assert [e["law"] for e in m.find("clear")] == ["20.3.7"]
    assert m.tokens("h7") == 1 and m.owner == VISITORS


def test_21_3_6_inferno_receiving_a_winger_pass_shoots_at_12() -> None:
    """21.3.6, rulings 1.1 row 1: the Winger's set-up to Inferno is taken at speed 12."""
    s = position(home={"h6": "M2", "h2": "M3"}, visitors={"v0": "V2"}, ball="M2",
                 mode="advanced", teams=("fire-demons", "oozes"), speed=3)
    m = Match(s).do("action maneuver", "send none", "card low-pass")
    assert m.frame == "setup" and m.speed == 12


def test_21_5_8_zytheris_injury_check_comes_before_her_shot() -> None:
    """15.3.1 then 21.5.8: an Exhausted Zytheris who wins the contest is checked first."""
    s = position(home={"h4": "M1", "h7": "V1", "h0": "H1"}, visitors={"v0": "V1", "v6": "H2"},
                 ball="M1", mode="advanced", teams=TK_V_OOZES, tokens={"h7": 3})
    m = Match(s).do("action maneuver", "send none", "card high-pass", "throw 3")
    m.roll(12, 1)
    assert m.last("contest")["winner"] == "h7"
    m.roll(12)  # her injury check: 12 beats 3 tokens
    assert m.frame == "setup" and m.state.stack[-1][2] == "zytheris"


def test_21_3_6_inferno_picking_the_ball_up_lights_it() -> None:
    """21.3.6 with 10.6: Inferno (h2) sent to pick up a new play's ball receives it."""
    from kickline.engine import advance

    s = position(home={"h2": "M1", "h4": "M2"}, visitors={"v0": "V2"}, ball="M2",
                 mode="advanced", teams=("fire-demons", "oozes"))
    players = list(s.players)
    players[4] = players[4]._replace(pos=2)  # h4 off the ball, onto H2
    s, ev = advance(s._replace(players=tuple(players),
                            stack=(("over",), ("turn",), ("send", "pickup", 0, 4, 0, -1, 0))))
    assert next(e["decision"] for e in ev if e["t"] == "forced") == "send h2"  # the nearest
    assert [e["player"] for e in ev if e["t"] == "lights-ball"] == ["h2"]
    assert s.ball.speed == 12


def test_21_4_5_quantor_runs_onto_a_setup_pass_and_is_set_up() -> None:
    """21.4.5 with 19.7.2: the Setup Pass half. Home trails, so its handler h4 (Gearclaw,
    M2) plays a Setup Pass that beats the Steal; the coach declares Quantor (h6, H2) with
    the distance 3: Quantor drains 3, runs onto V2 and takes the set-up there."""
    s = position(home={"h4": "M2", "h6": "H2", "h0": "H1"}, visitors={"v4": "M2", "v0": "V1"},
                 ball="M2", score=(0, 1), mode="advanced", teams=("cyborgs", "training"))
    m = Match(s).do("action maneuver", "card setup-pass", "card steal", "speed 5")
    assert m.legal() == ("aim 1", "aim 3", "quantor 1", "quantor 3")
    m.do("quantor 3")
    assert m.tokens("h6") == 3 and m.space("h6") == "V2" and not m.find("contest")
    assert m.frame == "setup" and m.state.stack[-1][1:3] == (6, "quantor")
    assert m.state.ball.speed == 5  # the speed the passer just set counts for it


def test_21_4_5_no_quantor_run_on_quantors_own_setup_pass() -> None:
    s = position(home={"h6": "M2", "h7": "V1", "h0": "H1"}, visitors={"v4": "M2", "v0": "V2"},
                 ball="M2", score=(0, 1), mode="advanced", teams=("cyborgs", "training"))
    m = Match(s).do("action maneuver", "card setup-pass", "card steal", "speed 5")
    assert m.state.turn.handler == 6 and m.legal() == ("aim 1", "aim 3")
