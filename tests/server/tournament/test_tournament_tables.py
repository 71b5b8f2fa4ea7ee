"""Round-robin tables and knockout brackets: the published tables, and their invariants."""

from __future__ import annotations

import itertools

import pytest
from tourney import Event

from kickline_server.tournament import Refused, berger, knockout
from kickline_server.tournament.export import pairings_csv

# FIDE Handbook C.05 Annex 1, the Berger table for 5 or 6 players.
FIDE_SIX = [
    [(1, 6), (2, 5), (3, 4)],
    [(6, 4), (5, 3), (1, 2)],
    [(2, 6), (3, 1), (4, 5)],
    [(6, 5), (1, 4), (2, 3)],
    [(3, 6), (4, 2), (5, 1)],
]
FIDE_FOUR = [[(1, 4), (2, 3)], [(4, 3), (1, 2)], [(2, 4), (3, 1)]]


def test_berger_tables_are_fides() -> None:
    assert [berger.table(6, r) for r in range(1, 6)] == FIDE_SIX
    assert [berger.table(4, r) for r in range(1, 4)] == FIDE_FOUR
    # An odd field uses the next even table; number 6 is the rest.
    assert berger.table(5, 1) == FIDE_SIX[0]
    assert berger.rounds(5) == 5 and berger.rounds(6) == 5 and berger.rounds(6, 2) == 10


@pytest.mark.parametrize("players", [2, 3, 4, 7, 8, 11, 16])
def test_every_pair_meets_once_per_cycle_with_balanced_colours(players: int) -> None:
    n = berger.size(players)
    met: dict[tuple[int, int], list[int]] = {}
    whites = dict.fromkeys(range(1, n + 1), 0)
    for rnd in range(1, berger.rounds(players, 2) + 1):
        boards = berger.table(players, rnd)
        assert sorted(p for b in boards for p in b) == list(range(1, n + 1))
        for w, b in boards:
            met.setdefault((min(w, b), max(w, b)), []).append(w)
            if rnd <= n - 1:
                whites[w] += 1
    assert sorted(met) == list(itertools.combinations(range(1, n + 1), 2))
    # Twice each: once per cycle, with colours reversed the second time.
    assert all(len(ws) == 2 and ws[0] != ws[1] for ws in met.values())
    assert all(abs(2 * w - (n - 1)) <= 1 for w in whites.values())


def test_knockout_brackets_give_byes_to_the_top_seeds() -> None:
    assert knockout.seed_order(8) == [1, 8, 4, 5, 2, 7, 3, 6]
    assert knockout.bracket([11, 12, 13, 14, 15, 16]) == [11, None, 14, 15, 12, None, 13, 16]
    assert knockout.rounds(6) == 3 and knockout.rounds(8) == 3 and knockout.rounds(9) == 4
    with pytest.raises(Refused):
        knockout.bracket([1])


def test_a_round_robin_rests_one_player_a_round_and_forfeits_for_the_withdrawn() -> None:
    ev = Event(format="round_robin")
    for i, name in enumerate(["Ann", "Ben", "Cat", "Dov", "Eli"]):
        ev.join(name, 1800 - 10 * i)
    assert ev.t.total_rounds() == 5
    ev.do("pair", round=1)
    r1 = ev.t.round(1)
    # Numbers by rating: Ann 1 .. Eli 5; 1-6 means Ann rests.
    assert r1.byes == {1: "free"}
    assert [(b.home, b.away) for b in r1.boards] == [(2, 5), (3, 4)]
    ev.do("start", round=1)
    ev.play(1, 1, "home", (1, 0))
    ev.play(1, 2, "away", (0, 2))
    ev.do("withdraw", pid=4)
    ev.do("pair", round=2)
    r2 = ev.t.round(2)
    # Round 2 of the table: 6-4 (Dov rests), 5-3, 1-2 -- but Dov withdrew and rests anyway.
    assert r2.byes == {4: "free"}
    ev.do("start", round=2)
    for b in r2.boards:
        ev.play(2, b.number, "home", (1, 0))
    ev.do("pair", round=3)
    r3 = ev.t.round(3)
    # Round 3: 2-6 (Ben rests), 3-1, 4-5: Dov's board is a forfeit win for Eli, no match.
    dov = r3.board_of(4)
    assert dov is not None and dov.result is not None and dov.result.kind == "forfeit"
    assert dov.result.winner == "away"
    started = ev.do("start", round=3)
    assert started == {"round": 3}
    assert dov.match is None and all(b.match for b in r3.boards if b is not dov)
    assert "+/-" not in pairings_csv(ev.t) and "-/+" in pairings_csv(ev.t)


def test_a_knockout_walks_over_a_double_forfeit_and_breaks_an_adjudicated_draw() -> None:
    ev = Event(format="knockout")
    for i in range(8):
        ev.join(f"P{i + 1}", 2000 - 10 * i)
    ev.do("pair", round=1)
    r1 = ev.t.round(1)
    assert [(b.home, b.away) for b in r1.boards] == [(1, 8), (4, 5), (2, 7), (3, 6)]
    ev.do("start", round=1)
    ev.play(1, 1, "away", (0, 1))  # 8 beats 1
    ev.do("forfeit", role="system", round=1, board=2, absent="both")
    ev.do("adjudicate", round=1, board=3, result={"winner": None, "goals": [1, 1]})
    ev.play(1, 4, "home", (3, 0))
    ev.do("pair", round=2)
    r2 = ev.t.round(2)
    # 8 has a walkover (4 and 5 both forfeited); 2 (better seed) goes through the draw.
    assert r2.byes == {8: "pab"}
    assert [(b.home, b.away) for b in r2.boards] == [(2, 3)]
    ev.do("start", round=2)
    ev.play(2, 1, "away", (0, 2))
    ev.do("pair", round=3)
    final = ev.t.round(3)
    # Home to whoever has been home less: 8 was away in round 1 and had a bye.
    assert [(b.home, b.away) for b in final.boards] == [(8, 3)]
    ev.do("start", round=3)
    ev.play(3, 1, "home", (2, 1))
    assert ev.t.finished
    with pytest.raises(Refused) as e:
        ev.do("pair", round=4)
    assert e.value.code == "event_over"
