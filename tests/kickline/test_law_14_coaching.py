"""Law 14: Coaching Choices (rulings 1.3-1.5): skip/finish and the reply, substitutions and
their counts, who may come on, formations and their deals, positioning, zone swap, and the
coverage and kickoff-space checks at the finish.  Also 3.3 (setup coaching)."""

from __future__ import annotations

import pytest
from scenario import HOME, HOME_DEAL_7, VISITORS, Match, position, refused

import kickline
from kickline.board import Board
from kickline.state import State, parse_pid

# Board 7: H1 H2 M1 M2 M3 V1 V2; board 9: H1-H3 M1-M3 V1-V3.  Slots: 0 FB 1/6, 1-2 D 2/5,
# 3 MF 3/4, 4-5 PM 4/3, 6 W 5/2, 7-8 S 6/1.  The standard deal fields 0, 1, 3, 4, 6, 7.


def _setup(board: int = 7) -> Match:
    """The home setup Coaching Choice (3.3.1), seat 0 home."""
    s = kickline.new_game({"mode": "training", "board": board})
    s, _ = kickline.apply_chance(s, "fortune")
    s, _ = kickline.apply(s, 0, "toss home")
    return Match(s)


def _arr(m: Match, who: str) -> str:
    p = m.state.players[parse_pid(who)]
    return m.state.board.name(p.arr)


def _subs(m: Match, seat: int | None = None) -> list[str]:
    return [d for d in m.legal(seat) if d.startswith("sub ")]


def _timeout(**kw: object) -> Match:
    """Home calls a time out on M2 (13): its Coaching Choice is open."""
    s = position(home=HOME_DEAL_7, visitors={"v4": "M2", "v0": "V2"}, ball="M2",
                 **kw)  # type: ignore[arg-type]
    return Match(s).do("action timeout")


def _with_subs(s: State, subs: tuple[int, int]) -> State:
    return s._replace(subs=subs)


# --- 14.1, 14.4, 14.8.4: skip and finish, the reply ---------------------------------------


def test_14_4_2_a_new_play_choice_passed_takes_the_reply_with_it() -> None:
    """14.4.1-14.4.2, 14.8.4: after a goal the conceding visitors may skip; no reply follows."""
    s = position(home={"h7": "V1", "h4": "M2"}, visitors={"v4": "M2", "v0": "V2"}, ball="V1")
    m = Match(s).do("action shoot").roll(12, 1)
    assert m.frame == "coach" and m.waiting == ("decide", (1,), False)
    assert "finish" not in m.legal(1) and "skip" in m.legal(1)
    m.do("skip")
    assert m.last("coaching-skipped")["side"] == VISITORS
    assert m.frame == "action" and not [e for e in m.events if e.get("occasion") == "reply"]


def test_14_4_1_a_new_play_choice_taken_gets_a_reply() -> None:
    """14.4.1: the restarting side acts and finishes: the other coach replies; 14.8.3."""
    s = position(home={"h7": "V1", "h4": "M2"}, visitors={"v4": "M2", "v0": "V2", "v6": "H1"},
                 ball="V1")
    m = Match(s).do("action shoot").roll(12, 1)
    m.do("move v6 H2")
    assert "skip" not in m.legal(1) and "finish" in m.legal(1)
    m.do("finish")
    assert _arr(m, "v6") == "H2" and m.space("v6") == "H2"
    assert m.frame == "coach" and m.waiting == ("decide", (0,), False)
    assert m.state.stack[-1][2] == "reply"


def test_13_5_1_time_out_reply_is_offered_even_when_the_caller_passes() -> None:
    """13.5.1 (rulings 1.4, OQ26): both coaches take a Choice, caller first."""
    m = _timeout()
    assert m.waiting == ("decide", (0,), False)
    m.do("skip")
    assert m.frame == "coach" and m.waiting == ("decide", (1,), False)


# --- 14.5, 3.3.2, 16.4.2: how many substitutions ------------------------------------------


def test_14_5_1_two_per_half_then_rearrangement_without_swaps() -> None:
    """14.5.1-14.5.2: home spends both substitutions; no third is offered, but the rest of
    the Choice still is; the visitors' reply keeps its own two."""
    m = _timeout()
    m.do("sub h0 h2", "sub h1 h5")
    assert m.state.subs == (0, 2)
    assert _subs(m) == []
    assert "formation 2-2-2" in m.legal(0) and "finish" in m.legal(0)
    m.do("finish")
    assert _subs(m, 1) != []
    assert m.state.players[2].status == "F" and m.state.players[0].status == "X"


def test_14_5_1_the_count_is_shared_across_the_halfs_choices() -> None:
    """14.5.1: a side with its two spent earlier in the half is offered none now."""
    s = _with_subs(position(home={"h4": "M2", "h0": "H1"}, visitors={"v4": "M2"}, ball="M2"),
                   (0, 1))
    m = Match(s).do("action timeout")
    assert _subs(m, 0) == [] and "formation 2-2-2" in m.legal(0)
    m.do("skip")
    assert len(_subs(m, 1)) > 0
    m.do("sub v4 v5")
    assert m.state.subs == (0, 0) and _subs(m, 1) == []


def test_3_3_2_setup_substitutions_are_unlimited_and_go_back_to_the_bench() -> None:
    """3.3.2: three setup substitutions; the player taken off can come straight back."""
    m = _setup()
    m.do("sub h7 h8", "sub h6 h2", "sub h8 h7")
    assert m.last("substitution")["law"] == "3.3.2"
    assert [m.state.players[i].status for i in (2, 6, 7, 8)] == ["F", "B", "F", "B"]
    assert len(_subs(m)) > 0 and m.state.subs == (2, 2)
    assert _arr(m, "h7") == "V2" and _arr(m, "h2") == "V1"  # rulings 1.3: inherits the slot


def test_16_4_2_halftime_has_its_own_two_and_the_halves_reset() -> None:
    """16.4.2, 14.5.3: both halves' counts spent, halftime still offers exactly two each;
    the second half starts with two again (and the time outs back)."""
    s = position(home={"h7": "V1", "h4": "M2", "h0": "H1"},
                 visitors={"v4": "M2", "v0": "V2", "v1": "V1"}, ball="V1",
                 minute=15, last_poss=True, timeouts=(True, True))
    m = Match(_with_subs(s, (0, 0))).do("action shoot").roll(1, 12)
    assert m.last("period-ends")["period"] == 1
    assert m.waiting == ("decide", (1,), False) and m.state.stack[-1][2] == "halftime"
    m.do("sub v4 v5", "sub v0 v2")
    assert _subs(m) == [] and m.state.subs == (0, 0)
    m.do("finish")
    assert m.state.stack[-1][2] == "halftime" and len(_subs(m, 0)) > 0
    m.do("skip")
    assert m.state.period == 2 and m.state.subs == (2, 2)
    assert m.state.timeouts == (False, False) and m.state.minute == 15


# --- 14.6: who may come on -----------------------------------------------------------------


def test_14_6_1_bench_first_then_the_back_bench() -> None:
    """14.6.1: while h2 sits on the bench only h2 may come on; then the back bench."""
    m = _timeout(bench=["h2"])
    assert sorted({d.split()[2] for d in _subs(m)}) == ["h2"]
    m.do("sub h3 h2")
    assert sorted({d.split()[2] for d in _subs(m)}) == ["h3", "h5", "h8"]


def test_14_6_2_and_14_6_3_injured_never_returns_back_bench_keeps_half() -> None:
    """14.6.2-14.6.3, 15.5.2: an injured back-bencher is never offered; a returner keeps
    half their tokens, rounded down."""
    m = _timeout(bench=[], injured=["h8"], tokens={"h5": 5, "h2": 1})
    assert {d.split()[2] for d in _subs(m)} == {"h2", "h5"}
    m.do("sub h3 h5")
    assert m.tokens("h5") == 2 and m.last("substitution")["tokens"] == 2
    m.do("sub h4 h2")
    assert m.tokens("h2") == 0


def test_14_6_2_an_injured_player_on_the_bench_is_never_offered() -> None:
    """14.6.2: "never ... from either bench".  h2 sits injured on the bench beside a healthy
    h5: only h5 is offered, and a substitution bringing h2 on is refused, changing nothing."""
    m = _timeout(bench=["h2", "h5"], injured=["h2"])
    assert {d.split()[2] for d in _subs(m)} == {"h5"}
    assert refused(m.state, 0, "sub h3 h2")


def test_14_6_4_an_injured_bench_player_leaves_the_back_bench_open() -> None:
    """14.6.1 read with 14.6.4 (RULING_BENCH_DRAINED_OF_THE_HEALTHY): the bench holds only
    the injured h2, so nobody there may come on, and the healthy back bench (h5, h8) may."""
    m = _timeout(bench=["h2"], injured=["h2"], tokens={"h5": 3})
    assert {d.split()[2] for d in _subs(m)} == {"h5", "h8"}
    assert refused(m.state, 0, "sub h3 h2")
    m.do("sub h3 h5")
    assert m.state.players[parse_pid("h5")].status == "F" and m.tokens("h5") == 1


def test_14_6_4_nobody_to_bring_on() -> None:
    """14.6.4, 13.3.1: bench empty and the back bench all injured: no substitution at all,
    but the Choice itself is still there."""
    m = _timeout(bench=[], injured=["h2", "h5", "h8"])
    assert _subs(m) == [] and "formation 2-2-2" in m.legal(0)


def test_rulings_1_3_an_injured_player_may_be_taken_off() -> None:
    """15.4.5 (rulings 1.3 RULING): any fielded player may come off, injured or not."""
    m = _timeout(injured=["h3"])
    m.do("sub h3 h5")
    assert m.state.players[3].status == "X" and m.state.players[3].injured


# --- 14.7: formations ---------------------------------------------------------------------

DEALS = [
    # board, side, formation, spaces for FB D MF PM W S (the default six, by def. skill)
    (7, HOME, "2-2-2", "H1 H2 M1 M2 V1 V2"),
    (7, HOME, "2-3-1", "H1 H2 M1 M2 M3 V1"),
    (7, HOME, "1-3-2", "H1 M1 M2 M3 V1 V2"),
    (7, VISITORS, "2-2-2", "V2 V1 M3 M2 H2 H1"),
    (7, VISITORS, "2-3-1", "V2 V1 M3 M2 M1 H2"),
    (7, VISITORS, "1-3-2", "V2 M3 M2 M1 H2 H1"),
    (9, HOME, "2-2-2", "H1 H2 M1 M2 V1 V2"),
    (9, HOME, "2-3-1", "H1 H2 M1 M2 M3 V1"),
    (9, HOME, "1-3-2", "H1 M1 M2 M3 V1 V2"),
    (9, HOME, "3-2-1", "H1 H2 H3 M1 M2 V1"),
    (9, HOME, "1-2-3", "H1 M1 M2 V1 V2 V3"),
    (9, VISITORS, "2-2-2", "V3 V2 M3 M2 H3 H2"),
    (9, VISITORS, "2-3-1", "V3 V2 M3 M2 M1 H3"),
    (9, VISITORS, "1-3-2", "V3 M3 M2 M1 H3 H2"),
    (9, VISITORS, "3-2-1", "V3 V2 V1 M3 M2 H3"),
    (9, VISITORS, "1-2-3", "V3 M3 M2 H3 H2 H1"),
]


@pytest.mark.parametrize(("board", "side", "formation", "spaces"), DEALS)
def test_14_7_3_formation_deals(board: int, side: int, formation: str, spaces: str) -> None:
    """14.7.2-14.7.4 (rulings 1.5 table): by defensive skill, from the own end outward;
    the finish records it and covers M2 (14.8.1)."""
    m = _setup(board)
    if side == VISITORS:
        m.do("skip")
    m.do(f"formation {formation}")
    letter = "hv"[side]
    who = [f"{letter}{k}" for k in (0, 1, 3, 4, 6, 7)]
    assert [_arr(m, p) for p in who] == spaces.split()
    zones = [m.state.players[parse_pid(p)].zone for p in who]
    assert zones == [sp[0] for sp in spaces.split()]
    m.do("finish")
    assert [m.space(p) for p in who] == spaces.split()


def test_14_7_2_board_7_offers_three_formations_board_9_five() -> None:
    """14.7.2: 3-2-1 and 1-2-3 are nine-space shapes only."""
    m7 = _setup(7)
    assert [d for d in m7.legal(0) if d.startswith("formation")] == [
        "formation 1-3-2", "formation 2-2-2", "formation 2-3-1"]
    assert refused(m7.state, 0, "formation 3-2-1")
    m9 = _setup(9)
    assert len([d for d in m9.legal(0) if d.startswith("formation")]) == 5


def test_14_7_3_equal_defence_keeps_roster_order() -> None:
    """14.7.3 (rulings 1.5 tie RULING): both Defenders (5) fielded: h1 is dealt before h2."""
    m = _setup().do("sub h7 h2", "formation 2-2-2")
    got = {p: _arr(m, p) for p in ("h0", "h1", "h2", "h3", "h4", "h6")}
    assert got == {"h0": "H1", "h1": "H2", "h2": "M1", "h3": "M2", "h4": "V1", "h6": "V2"}


# --- 14.7.5, rulings 1.3: positioning and zone swap ---------------------------------------


def test_14_7_5_positioning_stays_within_the_cards_zone() -> None:
    """Rulings 1.3 (RULING_POSITIONING_WITHIN_ZONE): h1 (H card) may go to H1 only."""
    m = _setup()
    assert [d for d in m.legal(0) if d.startswith("move h1 ")] == ["move h1 H1"]
    assert refused(m.state, 0, "move h1 M1")


def test_14_2_1_zone_swap_exchanges_cards_and_spaces() -> None:
    """Rulings 1.3 (RULING_ZONE_SWAP): W (V1) and FB (H1) swap zones and arrangement."""
    m = _setup().do("swap h0 h6", "finish")
    p0, p6 = m.state.players[0], m.state.players[6]
    assert (p0.zone, _arr(m, "h0"), m.space("h0")) == ("V", "V1", "V1")
    assert (p6.zone, _arr(m, "h6"), m.space("h6")) == ("H", "H1", "H1")
    assert refused(m.state, 0, "skip")  # the visitors' setup Choice is next
    assert m.waiting == ("decide", (1,), False)


def test_2_5_2_coverage_is_checked_at_the_finish() -> None:
    """2.5.2, 14.8 (rulings 2.6): both H cards on H1 with H2 empty: no finish; fix it and
    the finish is back."""
    m = _setup().do("move h1 H1")
    assert "finish" not in m.legal(0) and refused(m.state, 0, "finish")
    m.do("move h0 H2")
    assert "finish" in m.legal(0)
    m.do("finish")
    assert m.space("h0") == "H2" and m.space("h1") == "H1"


def test_14_8_1_the_own_kickoff_space_must_be_covered() -> None:
    """14.8.1, 3.3.3: moving the PM off M2 (with the MF on M1) leaves M2 empty: no finish."""
    m = _setup().do("move h4 M3")
    assert "finish" not in m.legal(0)
    m.do("move h3 M2")
    assert "finish" in m.legal(0)


def test_14_8_1_kickoff_check_in_a_time_out_choice() -> None:
    """14.8.1: in every Choice; opposing meeples never cover for you (2.5.3)."""
    m = _timeout()
    m.do("move h4 M3")
    assert "finish" not in m.legal(0)  # v4 still stands on M2: it does not count
    m.do("formation 2-2-2")
    assert "finish" in m.legal(0)


def test_14_8_3_time_out_choices_then_reset_to_the_new_arrangement() -> None:
    """13.1.2, 13.5.1, 14.8.3: both Choices first, then everyone resets to the arrangement as
    it stands after them; nobody pays for it."""
    s = position(home={"h4": "M2", "h3": "M3", "h0": "H1", "h1": "H2"},
                 visitors={"v4": "M2", "v0": "V2", "v3": "H1"},
                 arrangement={"h3": "M1", "v3": "M3"}, zones={"v3": "M"}, ball="M2")
    m = Match(s).do("action timeout", "move h3 M3", "finish", "skip")
    assert m.space("h3") == "M3" and _arr(m, "h3") == "M3"
    assert m.space("v3") == "M3" and m.tokens("v3") == 0
    assert m.owner == HOME and m.state.minute == 4


def test_board_9_standard_deal_and_setup_skip_records_it() -> None:
    """3.2.2 (rulings 2.8) and 3.3.3: board 9 home H1 H3 M1 M2 V1 V3; skipping keeps it."""
    m = _setup(9).do("skip", "skip")
    home = [m.space(f"h{k}") for k in (0, 1, 3, 4, 6, 7)]
    assert home == ["H1", "H3", "M1", "M2", "V1", "V3"]
    assert Board.of(9).kickoff == 5 and m.ball == "M2"


def test_14_8_3_the_recorded_arrangement_is_what_the_next_new_play_restores() -> None:
    """14.8.3, 12.5.1: a time-out positioning (h3 to M3) is where the next reset puts h3,
    after a later goal, however far h3 had wandered."""
    s = position(home=HOME_DEAL_7,
                 visitors={"v4": "M2", "v0": "V2"}, ball="M2")
    m = Match(s).do("action timeout", "move h3 M3", "finish", "skip")
    assert _arr(m, "h3") == "M3"
    m.do("card dribble", "card deflect", "dribble 1", "speed 1")  # time out spent: forced
    assert m.space("h4") == "M3" and _arr(m, "h4") == "M2"
    m.do("action shoot").roll(12, 1)  # h4 carries (4.2.2a)
    assert m.last("goal")["player"] == "h4"
    assert m.space("h3") == "M3" and m.space("h4") == "M2"


@pytest.mark.parametrize(("board", "stacks"), [(7, ("H2", "M2", "V1")), (9, ("H2", "M2", "V2"))])
def test_14_7_4_stack_space(board: int, stacks: tuple[str, str, str]) -> None:
    """14.7.4 (rulings 2.7): the middle of a three-space zone, else the space nearer the
    middle of the board; no formation on either board needs it (14.7.2)."""
    b = Board.of(board)
    assert tuple(b.name(b.stack_space(z)) for z in ("H", "M", "V")) == stacks
    for side in (HOME, VISITORS):
        for f in b.formations():
            dealt = [s for _, s in b.deal(side, f)]
            assert len(set(dealt)) == 6  # one card a space: nothing stacks
