"""Audit of Law 20 (20.3-20.5) and the Telekinetic / Ooze personal abilities (21.5, 21.6).

Edge cases not covered by tests/kickline/test_law_20_*.py and test_law_21_*.py.  Every
test here states the law, what the book requires and what it checks in the engine.

Board 7: H1 H2 M1 M2 M3 V1 V2; home attacks toward V.  Telekinetics by slot: 0 Umbrik,
1 Vorix, 2 Dravox, 3 Spectra, 4 Hexis, 5 Quillon, 6 Zenith, 7 Zytheris, 8 Noxar.
Cyborgs: 0 Bulwark, 1 Voltus, 3 Strider, 4 Gearclaw, 7 Pulsar.
"""

from __future__ import annotations

import json

from scenario import HOME, VISITORS, Match, position

import kickline

OO_TK = ("oozes", "telekinetics")  # the visitors are the Telekinetics
TK_OO = ("telekinetics", "oozes")  # the home side is
CY_TK = ("cyborgs", "telekinetics")


def test_20_4_5_noxar_reached_beside_an_earlier_space_is_asked_first() -> None:
    """20.4.5, 21.5.1: pulls go in the order the ball reaches the Telekinetics, not in
    roster order.  A 3-space High Pass M1 -> V1 crosses M2, M3 and lands on V1.  Noxar (v8)
    on M3 is reached at M2 (beside him); Hexis (v4) on V1 only when it lands.  Expected:
    Noxar asked first, then Hexis."""
    s = position(home={"h4": "M1", "h0": "H1"},
                 visitors={"v8": "M3", "v4": "V1", "v0": "V2"},
                 ball="M1", mode="advanced", teams=OO_TK)
    m = Match(s).do("action maneuver", "send none", "card high-pass", "throw 3")
    assert m.legal() == ("pull none", "pull v8")
    m.do("pull none")
    assert m.legal() == ("pull none", "pull v4")


def test_20_4_10_several_telekinetics_where_it_arrives_are_asked_in_turn() -> None:
    """20.4.10: several of a side's Telekinetics on the arrival space are each asked in
    turn and the first to take it holds it.  Low Pass to Zytheris (h7) on M3 where Spectra
    (h3) and Zenith (h6) also stand: h3 declines, then h6 is asked and takes it."""
    s = position(home={"h4": "M1", "h7": "M3", "h3": "M3", "h6": "M3", "h0": "H1"},
                 visitors={"v0": "V2", "v1": "V1"}, ball="M1", mode="standard",
                 teams=TK_OO, speed=5)
    m = Match(s).do("action maneuver", "send none", "card low-pass", "pass h7")
    assert m.legal() == ("smooth h3", "smooth none")
    m.do("smooth none")
    assert m.legal() == ("smooth h6", "smooth none")
    m.do("smooth h6")
    assert m.last("smooth")["player"] == "h6"
    assert m.last("handler")["player"] == "h6" and m.owner == HOME
    assert m.speed == 6 and not m.find("steal-turnover")  # 20.4.13: not a turnover


def test_20_4_12_smooth_takes_away_the_set_up_of_a_2_space_high_pass() -> None:
    """20.4.11-20.4.12: a 2-space High Pass received in range by Zytheris (h7) on V1 would
    set her up; Spectra (h3) on the same space may Smooth it, which pre-empts the scoring
    opportunity (no set-up is offered) and leaves h3 holding the ball."""
    s = position(home={"h4": "M2", "h7": "V1", "h3": "V1", "h0": "H1"},
                 visitors={"v0": "V2", "v6": "H2"}, ball="M2", mode="standard", teams=TK_OO)
    m = Match(s).do("action maneuver", "send none", "card high-pass", "throw 2", "receive h7")
    assert m.legal() == ("smooth h3", "smooth none")
    m.do("smooth h3")
    assert m.last("smooth")["player"] == "h3"
    assert not m.find("score-attempt") and m.frame != "setup"
    assert m.last("handler")["player"] == "h3" and m.owner == HOME


def test_20_3_8_after_a_landed_pull_only_cyborgs_standing_still_charge_up() -> None:
    """20.3.7-20.3.8, 20.4.8: a landed pull is a steal, so players run back and Charge-up
    applies.  Home Cyborgs: Voltus (h1) stands in M outside his H zone and has to run back:
    he clears nothing (and pays for the run); Bulwark (h0) and the thrower Gearclaw (h4)
    stand still in their zones and clear 1 each."""
    s = position(home={"h4": "M1", "h0": "H1", "h1": "M1"},
                 visitors={"v3": "M2", "v0": "V2"}, zones={"h1": "H"},
                 ball="M1", mode="standard", teams=CY_TK, carrier="h4",
                 tokens={"h0": 2, "h1": 2, "h4": 2})
    m = Match(s).do("action maneuver", "send none", "card high-pass", "throw 2")
    m.do("pull v3").roll(12)
    assert m.last("pulled")["player"] == "v3"
    assert m.space("h1") == "H2" and m.tokens("h1") == 2 + 1  # ran 1 space, no clear
    assert m.tokens("h0") == 1 and m.tokens("h4") == 1
    assert sorted(e["player"] for e in m.find("clear")) == ["h0", "h4"]


def test_21_5_7_zenith_may_fly_before_the_run_back_of_a_landed_pull() -> None:
    """21.5.7, 20.4.8: a successful pull is a steal, so Zenith (v6) is offered a flight
    before anybody runs back."""
    s = position(home={"h4": "M1", "h0": "H1", "h3": "V1"},
                 visitors={"v3": "M2", "v0": "V2", "v6": "H2"},
                 ball="M1", mode="advanced", teams=OO_TK)
    m = Match(s).do("action maneuver", "send none", "card high-pass", "throw 2", "pull v3")
    m.roll(12)
    assert m.frame == "zenith" and "fly none" in m.legal() and "fly V2" in m.legal()
    assert not m.find("run-back")


def test_20_3_5_overdrive_secret_when_the_visitors_declare_first() -> None:
    """20.3.5 (declared blind; rulings D14): the home coach's view must not tell whether the
    visitors declared Overdrive before home has declared too."""
    s = position(home={"h4": "M2", "h0": "H1", "h6": "V1"},
                 visitors={"v4": "M2", "v0": "V2", "v6": "H2"},
                 ball="M2", mode="standard", teams=("cyborgs", "cyborgs"))
    m = Match(s).do("action maneuver", "card dribble", "card steal")
    assert m.waiting == ("decide", (0, 1), True)
    views = set()
    for choice in ("declare none", "declare overdrive"):
        s2, ev = kickline.apply(m.state, 1, choice)
        assert not [e for e in ev if e["t"] in ("overdrive", "exhaust")]
        views.add(json.dumps([kickline.view(s2, 0), kickline.redact(ev, 0)], sort_keys=True))
    assert len(views) == 1
    m.by(1, "declare overdrive").by(0, "declare none")
    assert m.last("overdrive")["player"] == "v4" and m.tokens("v4") == 1 + 3


def test_21_5_1_noxars_landed_pull_brings_it_home_and_offers_no_smooth_there() -> None:
    """21.5.1, 20.4.5, 20.4.14: Noxar (v8) on V1 pulls a pass landing beside him on M3; the
    ball is brought to V1.  That step is the pull's, not a new movement: Spectra (v3)
    standing on V1 is offered no Smooth."""
    s = position(home={"h4": "M1", "h0": "H1", "h7": "M3"},
                 visitors={"v8": "V1", "v3": "V1", "v0": "V2"},
                 ball="M1", mode="advanced", teams=OO_TK, carrier="h4")
    m = Match(s).do("action maneuver", "send none", "card low-pass", "pass h7")
    assert m.legal() == ("pull none", "pull v8")
    m.do("pull v8").roll(11)
    pulled = m.last("pulled")
    assert (pulled["at"], pulled["space"], pulled["player"]) == ("M3", "V1", "v8")
    assert m.ball == "V1" and m.owner == VISITORS and m.speed == 1
    assert m.frame != "smooth" and not m.find("smooth")
