"""Law 3: the toss, the standard deal, setup coaching and the kickoff (rulings 1.4, 2.8)."""

from __future__ import annotations

import pytest
from scenario import Match, kickoff

import kickline
from kickline.board import HOME, VISITORS
from kickline.state import State, parse_pid

DEAL = {
    7: {
        "h0": "H1", "h1": "H2", "h3": "M1", "h4": "M2", "h6": "V1", "h7": "V2",
        "v0": "V2", "v1": "V1", "v3": "M3", "v4": "M2", "v6": "H2", "v7": "H1",
    },
    9: {
        "h0": "H1", "h1": "H3", "h3": "M1", "h4": "M2", "h6": "V1", "h7": "V3",
        "v0": "V3", "v1": "V1", "v3": "M3", "v4": "M2", "v6": "H3", "v7": "H1",
    },
}


def _tossed(board: int, coin: str, choice: str) -> tuple[State, int]:
    s = kickline.new_game({"mode": "training", "board": board})
    s, ev = kickline.apply_chance(s, coin)
    winner = ev[-1]["winner_seat"]
    s, _ = kickline.apply(s, winner, f"toss {choice}")
    return s, winner


@pytest.mark.parametrize(("home", "coin"), [(0, "doom"), (1, "fortune"), (1, "doom")])
def test_3_1_3_a_paired_match_plays_the_pairings_home_whatever_the_coin(home: int,
                                                                       coin: str) -> None:
    """RULING_HOME_BY_PAIRING: with ``home`` in the config (a tournament's pairing) there
    is no toss to choose: that seat is home, the deal follows and home kicks off."""
    s = kickline.new_game({"mode": "training", "board": 7, "home": home})
    assert kickline.to_act(s) == ("chance", (), False)
    s, ev = kickline.apply_chance(s, coin)
    assert [e["t"] for e in ev[:2]] == ["home-by-pairing", "deal"]
    assert ev[0]["home_seat"] == home and ev[0]["law"] == "3.1.3"
    assert s.home_seat == home and s.side_of(home) == HOME
    assert kickline.to_act(s)[0] == "decide" and "toss home" not in kickline.legal(s, 1 - home)
    assert s.config.to_plain()["home"] == home
    assert "home" not in kickline.new_game({"board": 7}).config.to_plain()
    with pytest.raises(ValueError):
        kickline.new_game({"home": 2})


@pytest.mark.parametrize(("coin", "winner"), [("fortune", 0), ("doom", 1)])
def test_3_1_2_fortune_wins_the_flipper_the_toss_doom_hands_it_over(coin: str, winner: int) -> None:
    """3.1.2 (RULING_COIN_FLIPPER_SEAT: seat 0 flips): only the winner chooses a side."""
    s = kickline.new_game({"board": 7})
    assert kickline.to_act(s) == ("chance", (), False)
    s, ev = kickline.apply_chance(s, coin)
    assert ev[-1]["t"] == "toss" and ev[-1]["winner_seat"] == winner
    assert kickline.to_act(s) == ("decide", (winner,), False)
    assert kickline.legal(s, winner) == ("toss home", "toss visitors")
    with pytest.raises(kickline.IllegalDecision):
        kickline.apply(s, 1 - winner, "toss home")


@pytest.mark.parametrize(("coin", "choice", "home_seat"), [
    ("fortune", "home", 0),
    ("fortune", "visitors", 1),
    ("doom", "home", 1),
    ("doom", "visitors", 0),
])
def test_3_1_3_winner_chooses_home_or_visitors(coin: str, choice: str, home_seat: int) -> None:
    """3.1.3: the winner picks a side; home then coaches first (3.3.1)."""
    s, _ = _tossed(7, coin, choice)
    assert s.home_seat == home_seat
    assert kickline.to_act(s) == ("decide", (home_seat,), False)  # home's setup Choice


@pytest.mark.parametrize("board", [7, 9])
def test_3_2_standard_deal_both_sides_on_both_boards(board: int) -> None:
    """3.2.1-3.2.2 (rulings 2.8): 2-2-2 by role; goal zones take the ends, midfield packs
    from the side's own end; the later listed D, PM and S sit on the bench."""
    s, _ = _tossed(board, "fortune", "home")
    b = s.board
    fielded = {
        f"{'hv'[i // 9]}{i % 9}": b.name(p.pos) for i, p in enumerate(s.players) if p.status == "F"
    }
    assert fielded == DEAL[board]
    for who, space in DEAL[board].items():
        p = s.players[parse_pid(who)]
        assert p.arr == p.pos and p.zone == space[0]  # the deal is the first arrangement
        assert p.tokens == 0 and not p.injured
    for side in "hv":
        for slot in (2, 5, 8):  # the second D, PM and S start on the bench
            assert s.players[parse_pid(f"{side}{slot}")].status == "B"


def test_3_2_2_board_9_home_and_visitors_mirror_each_other() -> None:
    """3.2.2: on board 9 home deals H1, H3, M1, M2, V1, V3 and the visitors the mirror."""
    s, _ = _tossed(9, "doom", "home")
    b = s.board
    home = sorted(b.parse(DEAL[9][f"h{k}"]) for k in (0, 1, 3, 4, 6, 7))
    vis = sorted(b.parse(DEAL[9][f"v{k}"]) for k in (0, 1, 3, 4, 6, 7))
    assert home == [1, 3, 4, 5, 7, 9]
    assert vis == sorted(b.n + 1 - i for i in home)
    assert not any(p.pos == b.parse("H2") or p.pos == b.parse("V2") for p in s.players)


def test_3_3_1_home_coaches_first_then_visitors_then_kickoff() -> None:
    """3.3.1: home takes a Coaching Choice and then the visitors take one, even if home passes."""
    s, _ = _tossed(7, "doom", "visitors")  # seat 1 won and chose visitors: seat 0 is home
    m = Match(s)
    assert m.waiting == ("decide", (0,), False) and m.frame == "coach"
    m.by(0, "skip")
    assert m.waiting == ("decide", (1,), False) and m.frame == "coach"
    m.by(1, "skip")
    assert m.last("kickoff")["side"] == HOME


def test_3_3_2_setup_substitutions_are_unlimited_and_go_back_to_the_bench() -> None:
    """3.3.2: any number of setup substitutions; the player taken off is benched, not retired,
    and the half's two substitutions are untouched."""
    m = Match(_tossed(7, "fortune", "home")[0])
    m.do("sub h7 h8", "sub h4 h5", "sub h1 h2")
    assert m.find("substitution")[0]["law"] == "3.3.2"
    # h7, h4 and h1 went back to the bench and may come straight on again
    assert [m.state.players[parse_pid(x)].status for x in ("h7", "h4", "h1")] == ["B"] * 3
    m.do("sub h8 h7")
    assert m.space("h7") == "V2" and m.space("h5") == "M2" and m.space("h2") == "H2"
    m.do("finish")
    assert m.state.subs == (2, 2)
    assert m.frame == "coach"  # the visitors' setup Choice


def test_3_3_3_setup_must_finish_covering_the_own_kickoff_space() -> None:
    """3.3.3, 14.8.1: a coach who empties M2 may not finish; the refusal changes nothing."""
    m = Match(_tossed(7, "fortune", "home")[0])
    m.do("swap h4 h7")  # PM to V2 and the Striker to M2: still covered
    assert "finish" in m.legal(0)
    m.do("move h7 M3")  # now nobody of home's stands on M2
    before = m.state
    assert "finish" not in m.legal(0)
    with pytest.raises(kickline.IllegalDecision):
        kickline.apply(before, 0, "finish")
    assert m.state is before
    m.do("move h3 M2", "finish")
    arr = m.last("coaching-finished")["arrangement"]
    assert arr["h3"] == "M2" and arr["h7"] == "M3"
    m.do("skip")  # the visitors pass; the kickoff uses home's first arrangement
    assert m.last("kickoff")["side"] == HOME
    assert (m.space("h3"), m.space("h7"), m.space("h4")) == ("M2", "M3", "V2")
    assert m.state.turn.handler == parse_pid("h3")  # the only home player on M2


def test_3_1_1_the_board_has_7_or_9_spaces() -> None:
    """3.1.1, 2.1.1: no other board size is accepted."""
    for n in (7, 9):
        assert kickline.new_game({"board": n}).board.n == n
    for bad in (6, 8, 11):
        with pytest.raises(ValueError):
            kickline.new_game({"board": bad})


@pytest.mark.parametrize("board", [7, 9])
def test_3_4_1_kickoff_on_m2_at_speed_1_home_ball_clock_00(board: int) -> None:
    """3.4.1: the ball goes on the kickoff space at speed 1 in home's possession, clock 00;
    both Playmakers stand on M2, so the kickoff's handler is the only home player there."""
    m = Match(kickoff(board))
    s = m.state
    assert (m.ball, m.owner, m.speed, s.minute, s.period) == ("M2", HOME, 1, 0, 1)
    assert not s.last_poss and s.score == (0, 0)
    assert s.turn.handler == parse_pid("h4")  # forced: nothing to choose (4.2.1)
    assert m.legal(0) == ("action maneuver", "action timeout")  # M2 is in neither range
    m.do("action maneuver")
    assert m.state.turn.challenger == parse_pid("v4")  # a forced challenge (6.1.2)
    assert m.waiting == ("decide", (0, 1), True)


def test_3_4_1_home_kicks_off_whoever_won_the_toss() -> None:
    """3.1.3, 3.4.1: home kicks off the first half, also when seat 1 is home."""
    s, _ = _tossed(7, "fortune", "visitors")
    s, _ = kickline.apply(s, 1, "skip")
    s, ev = kickline.apply(s, 0, "skip")
    ko = next(e for e in ev if e["t"] == "kickoff")
    assert ko["side"] == HOME and ko["minute"] == 0
    assert s.ball.owner == HOME and s.ball.owner != VISITORS
    assert kickline.to_act(s) == ("decide", (1,), False)  # seat 1 is home and acts
