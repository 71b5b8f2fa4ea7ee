"""Law 12 (12.4 run back after a steal, 12.5 reset after a new play; rulings 1.2)."""

from __future__ import annotations

from scenario import VISITORS, Match, position, refused

# Board 7: H1 H2 M1 M2 M3 V1 V2; board 9: H1-H3 M1-M3 V1-V3.  Slots: 0 FB, 1-2 D, 3 MF,
# 4-5 PM, 6 W, 7-8 S.  Each steal here: h4's Low Pass on M2 loses to v4's Steal (6.9), which
# moves v4 and the ball to M3 for the visitors.


def _steal(board: int = 7, **kw: object) -> Match:
    home = dict(kw.pop("home"))  # type: ignore[call-overload]
    visitors = dict(kw.pop("visitors", {}))  # type: ignore[call-overload]
    s = position(board, home={"h4": "M2", **home}, visitors={"v4": "M2", **visitors},
                 ball="M2", **kw)  # type: ignore[arg-type]
    return Match(s).do("action maneuver", "card low-pass", "card steal")


def test_12_4_1a_outside_own_zone_runs_to_the_uncovered_space() -> None:
    """12.4.1a, 12.4.3: h1 (card H) on M1 must come home to H2, the only uncovered H space,
    and exhausts 1 per space."""
    m = _steal(home={"h0": "H1", "h1": "M1"}, zones={"h1": "H"}, arrangement={"h1": "H2"})
    assert m.last("run-back") == {"t": "run-back", "law": "12.4.3", "player": "h1",
                                  "frm": "M1", "to": "H2"}
    assert m.tokens("h1") == 1 and m.space("h0") == "H1" and m.tokens("h0") == 0
    assert m.space("h4") == "M2" and m.tokens("h4") == 0  # alone in own zone: stays


def test_12_4_3_runner_chooses_among_uncovered_spaces_and_pays_the_distance() -> None:
    """12.4.3: W (card V) on M3 may take V1 (1 space) or V2 (2 spaces)."""
    m = _steal(home={"h6": "M3", "h0": "H1"}, zones={"h6": "V"}, arrangement={"h6": "V1"})
    assert m.frame == "run" and m.legal(0) == ("run h6 V1", "run h6 V2")
    assert refused(m.state, 0, "run h6 M3")
    m.do("run h6 V2")
    assert m.space("h6") == "V2" and m.tokens("h6") == 2
    assert m.state.players[6].arr == 6  # 12.4.6: the arrangement (V1) is untouched


def test_12_4_3_zone_already_covered_any_space_will_do() -> None:
    """12.4.3: MF with an H card on M1; H1 and H2 both covered: either space."""
    m = _steal(home={"h0": "H1", "h1": "H2", "h3": "M1"}, zones={"h3": "H"})
    assert m.legal(0) == ("run h3 H1", "run h3 H2")


def test_12_4_1b_one_of_a_stack_runs_while_its_zone_has_a_gap() -> None:
    """12.4.1b, 12.4.4: h0 and h1 share H1, H2 is empty: the coach sends one; then it stops."""
    m = _steal(home={"h0": "H1", "h1": "H1"})
    assert m.legal(0) == ("run h0 H2", "run h1 H2")
    m.do("run h0 H2")
    assert m.space("h0") == "H2" and m.tokens("h0") == 1 and m.space("h1") == "H1"
    assert m.frame == "speed"  # nobody else owes a run: on to the interceptor's speed


def test_12_4_5_a_stack_with_no_gap_settles_doubled_up() -> None:
    """12.4.5: three H cards on board 7's two H spaces: no run back at all."""
    m = _steal(home={"h0": "H1", "h1": "H2", "h2": "H2"})
    assert not m.find("run-back") and m.frame == "speed"


def test_12_4_2_the_holder_never_runs_even_outside_their_zone() -> None:
    """12.4.2, 4.2.5: the Defender (card V) steals and ends on M3; they carry, so stay."""
    s = position(home={"h4": "M2", "h0": "H1"}, visitors={"v1": "M2", "v0": "V2"},
                 zones={"v1": "V"}, ball="M2")
    m = Match(s).do("action maneuver", "card low-pass", "card steal")
    assert m.space("v1") == "M3" and not m.find("run-back") and m.tokens("v1") == 0


def test_12_4_4_in_a_stack_with_the_holder_the_other_runs() -> None:
    """12.4.4: v3 (card M) shares M3 with the interceptor v4; M1 is uncovered; v3 runs."""
    m = _steal(home={"h0": "H1"}, visitors={"v3": "M3", "v0": "V2"})
    assert m.frame == "run"
    assert m.legal(1) == ("run v3 M1", "run v3 M2")
    m.do("run v3 M1")
    assert m.tokens("v3") == 2 and m.space("v4") == "M3"


def test_12_4_board_9_group_a_then_group_b() -> None:
    """12.4.1 (rulings 2.9, group (a) before (b)) on board 9: h1 (card H) on M1 runs to H2
    or H3 (H1 is covered by the stack h0+h2); then the H1 stack breaks onto what is left."""
    m = _steal(9, home={"h0": "H1", "h2": "H1", "h1": "M1"}, zones={"h1": "H"})
    assert m.legal(0) == ("run h1 H2", "run h1 H3")
    m.do("run h1 H3")
    assert m.tokens("h1") == 1
    assert m.legal(0) == ("run h0 H2", "run h2 H2")
    m.do("run h2 H2")
    assert m.tokens("h2") == 1 and m.frame == "speed"


def test_12_1_4_no_turnover_no_run_back() -> None:
    """Rulings 1.2 (12.1.4): a won Low Pass leaves an out-of-zone player where they are."""
    s = position(home={"h4": "M2", "h3": "M3", "h1": "M1"}, zones={"h1": "H"},
                 visitors={"v4": "M2", "v0": "V2"}, ball="M2")
    m = Match(s).do("action maneuver", "card low-pass", "card pressure", "pass h3")
    assert not m.find("run-back") and m.space("h1") == "M1"


def test_12_5_1_a_goal_resets_both_sides_for_free_and_offers_a_coaching_choice() -> None:
    """12.5.1, 5.5.2, 14.4.1: every fielded meeple goes back to its arrangement at no cost,
    before the conceding side's Coaching Choice; the ball restarts on M2 at speed 1."""
    s = position(
        home={"h7": "V1", "h4": "M3", "h0": "V2"},
        visitors={"v0": "H1", "v4": "M1", "v1": "V2"},
        arrangement={"h7": "V2", "h4": "M2", "h0": "H1", "v0": "V2", "v4": "M2", "v1": "V1"},
        ball="V1", speed=9, tokens={"h4": 2},
    )
    m = Match(s).do("action shoot").roll(12, 1)
    assert m.last("goal")["player"] == "h7"
    got = {p: m.space(p) for p in ("h7", "h4", "h0", "v0", "v4", "v1")}
    assert got == {"h7": "V2", "h4": "M2", "h0": "H1", "v0": "V2", "v4": "M2", "v1": "V1"}
    assert m.tokens("h4") == 2 and m.tokens("h0") == 0
    assert m.frame == "coach" and m.waiting == ("decide", (1,), False)
    assert m.ball == "M2" and m.speed == 1 and m.owner == VISITORS
