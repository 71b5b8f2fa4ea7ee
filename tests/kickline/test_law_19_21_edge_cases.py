"""Audit of Law 19 (gambits), 20.2.4-20.2.6 (Volatile tier changes) and the Fire Demon
and Cyborg personal abilities (21.3, 21.4), end to end through the engine.

Board 7: H1 H2 M1 M2 M3 V1 V2; home attacks toward V.  Fire Demons by slot: 0 Ashwall,
1 Blazebulk, 2 Inferno, 3 Scorchit, 4 Emberdash, 5 Sizzifizik, 6 Flickerwing,
7 Brightburn, 8 Kindlefinger.  Cyborgs: 0 Bulwark, 1 Voltus, 2 Ironbrace, 3 Strider,
4 Gearclaw, 5 Synapse, 6 Quantor, 7 Pulsar, 8 Coilshot (rulings.md 6.3).
"""

from __future__ import annotations

from typing import Any

from scenario import Match, position

BASIC_OFF = ("card dribble", "card high-pass", "card low-pass")
SIX_OFF = ("card dribble", "card dribble-burst", "card high-pass", "card low-pass",
           "card setup-pass", "card skilled-pass")
FD = ("fire-demons", "training")
CY = ("cyborgs", "training")


def duel(teams: tuple[str, str], hand: str = "h4", chal: str = "v4",
         home: dict[str, str] | None = None, score: tuple[int, int] = (0, 0),
         mode: str = "advanced", **kw: Any) -> Match:
    """``hand`` handles on M2 against ``chal`` there; both keepers in their goals."""
    h = {"h0": "H1", **(home or {})}
    v = {"v0": "V2"}
    h[hand], v[chal] = "M2", "M2"
    s = position(home=h, visitors=v, ball="M2", mode=mode, teams=teams, score=score, **kw)
    return Match(s).do("action maneuver")


def resolved(m: Match) -> str:
    return str(m.last("resolves")["card"])


# --- 19.3.1b with Cyborg words (20.3.3, 20.3.4, 21.4.1) ------------------------------


def test_19_3_1b_a_drained_cyborg_counts_as_exhausted_for_gambits() -> None:
    """19.3.1b, 20.3.3: a Cyborg on 7 drain is Drained, which is Exhausted, so a level
    Cyborg side with one Drained fielded player holds the gambits; on 6 it does not."""
    m = duel(CY, home={"h3": "M1"}, tokens={"h3": 7})
    assert m.legal(0) == SIX_OFF
    assert m.last("gambits")["home"] is True
    m = duel(CY, home={"h3": "M1"}, tokens={"h3": 6})
    assert m.legal(0) == BASIC_OFF


def test_19_3_1b_bulwark_below_10_is_not_drained_for_gambits() -> None:
    """19.3.1b, 21.4.1: Bulwark is Drained at 10, so 7-9 drain does not make his side
    the more hurt; at 10 it does."""
    m = duel(CY, tokens={"h0": 9})
    assert m.legal(0) == BASIC_OFF
    m = duel(CY, tokens={"h0": 10})
    assert m.legal(0) == SIX_OFF


def test_19_3_1b_a_damaged_cyborg_counts_as_injured_for_gambits() -> None:
    """19.3.1b, 20.3.4: a Damaged Cyborg is Injured under its own word."""
    m = duel(CY, home={"h3": "M1"}, injured=["h3"])
    assert m.legal(0) == SIX_OFF


# --- 20.2.4 - 20.2.6: the ignite deciding a tier, end to end --------------------------


def test_20_2_4a_a_winning_blaze_resolves_the_gambit_without_holding_gambits() -> None:
    """20.2.4a, 21.3.1: the score is level, so nobody holds gambits; Blazebulk's
    Dribble ties the Steal, and his ignite (always a blaze) wins the test: the Dribble
    resolves as a Dribble Burst."""
    m = duel(FD, hand="h1")
    assert m.legal(0) == BASIC_OFF
    m.do("card dribble", "card steal").roll(6, 2, 1)  # 6+2+2 = 10 v 1+3 = 4
    assert m.last("skill-test")["winner"] == "O"
    assert resolved(m) == "dribble-burst"
    assert m.frame == "burst_dist"


def test_20_2_4b_a_losing_burn_resolves_the_opponents_gambit() -> None:
    """20.2.4b: Inferno's burn loses the test, so the Steal resolves as an Intercept."""
    m = duel(FD, hand="h2").do("card dribble", "card steal").roll(7, 1, 12)
    assert m.last("skill-test")["winner"] == "D"
    assert resolved(m) == "intercept"


def test_21_3_3_brightburns_losing_burn_upgrades_nothing_end_to_end() -> None:
    """21.3.3: Brightburn's burn loses the test: the Steal stays a Steal, and the burn
    still clears Brightburn's entry token."""
    m = duel(FD, hand="h7").do("card dribble", "card steal").roll(7, 1, 12)
    assert m.last("skill-test")["winner"] == "D"
    assert resolved(m) == "steal"
    assert [e for e in m.find("clear") if e["law"] == "21.3.3"]


def test_20_2_6_standard_mode_has_no_tier_to_change() -> None:
    """20.2.6: in standard mode a winning blaze is only the number."""
    m = duel(FD, hand="h1", mode="standard").do("card dribble", "card steal")
    m.roll(6, 8, 1)
    assert m.last("skill-test")["winner"] == "O"
    assert resolved(m) == "dribble"
    assert not [e for e in m.find("resolves") if "played" in e]


# --- 21.4.7 Synapse -------------------------------------------------------------------


def test_21_4_7_synapse_overdriven_win_resolves_the_gambit() -> None:
    """21.4.7: level score, nobody holds gambits; Synapse Overdrives and wins the
    Dribble-Steal test: the Dribble resolves as a Dribble Burst."""
    m = duel(CY, hand="h5")
    assert m.legal(0) == BASIC_OFF
    m.do("card dribble", "card steal", "declare overdrive").roll(5, 5)  # 14 v 8
    assert m.last("skill-test")["winner"] == "O"
    assert resolved(m) == "dribble-burst"


def test_21_4_7_synapse_overdrive_on_the_tied_roll_only_does_not_count() -> None:
    """21.4.7, 20.3.6: only a win "on a roll they Overdrove" upgrades; the tied roll
    was Overdriven, the winning re-roll was not: the Dribble stays basic."""
    m = duel(CY, hand="h5")
    m.do("card dribble", "card steal", "declare overdrive").roll(2, 8)  # 11 v 11
    assert m.last("skill-test")["winner"] == "tie"
    m.do("declare none").roll(9, 1)
    assert m.last("skill-test")["winner"] == "O"
    assert resolved(m) == "dribble"


def test_21_4_7_synapse_overdriven_loss_upgrades_nothing() -> None:
    """21.4.7: Synapse Overdrives but loses: the Steal stays a Steal."""
    m = duel(CY, hand="h5")
    m.do("card dribble", "card steal", "declare overdrive").roll(1, 12)  # 10 v 15
    assert m.last("skill-test")["winner"] == "D"
    assert resolved(m) == "steal"


# --- 21.4.3 Gearclaw -----------------------------------------------------------------------


def test_21_4_3_gearclaw_both_on_a_tie_then_both_again_on_the_reroll() -> None:
    """21.4.3: a tie re-rolled is a fresh roll on which Boost and Overdrive may each
    be declared once more: 1 entry + 4 + 1 tie + 4 = 10 drain, +8 each roll."""
    m = duel(CY, hand="h4")
    m.do("card dribble", "card steal", "declare both").roll(1, 10)  # 1+4+8 = 13 v 13
    assert m.last("skill-test")["winner"] == "tie"
    m.do("declare both").roll(1, 1)
    t = m.last("skill-test")
    assert (t["offense"]["overdrive"], t["offense"]["boost"], t["offense"]["total"]) == (
        5, 3, 1 + 4 + 8)
    assert m.tokens("h4") == 1 + 4 + 1 + 4


# --- more 19.3.1b / 19.3.2 edge cases --------------------------------------------------


def test_19_3_1b_ashwalls_advanced_defence_sets_his_exhaustion() -> None:
    """19.3.1b, 21.2.1, 15.2.1: Ashwall (FB, advanced def 8) on 7 tokens is not
    Exhausted in advanced mode, so his level side holds nothing; on 9 he is."""
    m = duel(FD, tokens={"h0": 7})
    assert m.legal(0) == BASIC_OFF
    m = duel(FD, tokens={"h0": 9})
    assert m.legal(0) == SIX_OFF


def test_19_3_2_a_send_that_exhausts_the_challenger_is_read_at_the_cards() -> None:
    """19.3.2: eligibility is read when the maneuvers are chosen: a Striker (def 1)
    sent 2 spaces is Exhausted by then, so the level visitors hold the gambits."""
    s = position(home={"h0": "H1", "h4": "M2"}, visitors={"v0": "V2", "v7": "V1"},
                 ball="M2", mode="advanced", teams=("training", "training"))
    m = Match(s).do("action maneuver", "send v7")
    assert m.last("gambits") == {"t": "gambits", "law": "19.3.2", "home": False,
                                 "visitors": True}
    assert "card intercept" in m.legal(1)


# --- tier changes on the defence and after an injury-forced test -------------------------


def test_20_2_4a_a_defenders_winning_blaze_makes_pressure_a_double_team_with_steal() -> None:
    """20.2.4a, 19.10.2-19.10.3: Blazebulk (a Defender) challenges a High Pass with a
    Pressure; the tie's test is won on his blaze: it resolves as a Double Team, the
    nearest teammate (v3 on M1) joins on H2, and a Defender's steal applies."""
    m = Match(position(home={"h0": "H1", "h4": "M2"},
                       visitors={"v0": "V2", "v1": "M2", "v3": "M1"}, ball="M2",
                       mode="advanced", teams=("training", "fire-demons"), score=(1, 0)))
    m.do("action maneuver", "card high-pass", "card pressure").roll(1, 6, 8)
    assert resolved(m) == "double-team"
    dt = m.last("double-team")
    assert (dt["partner"], dt["to"]) == ("v3", "H2")
    assert m.last("steal")["law"] == "19.10.3" and m.owner == 1


def test_21_4_7_injured_synapse_wins_the_forced_test_on_a_free_overdrive() -> None:
    """21.4.7 with 19.4.2b and 20.3.6: a Damaged Synapse whose Low Pass beat the
    Pressure on the cards must win a forced test; Overdriven (free while Damaged), the
    win resolves the Low Pass as a Skilled Pass."""
    m = duel(CY, hand="h5", injured=["h5"]).do("card low-pass", "card pressure")
    assert m.last("injured-forced-test")["player"] == "h5"
    m.do("declare overdrive").roll(5, 5)
    assert m.last("skill-test")["winner"] == "O"
    assert resolved(m) == "skilled-pass" and m.tokens("h5") == 0
