"""Standings and tiebreaks, each checked against numbers worked out by hand.

The main example: five players, three rounds, with a pairing-allocated bye, a forfeit,
a requested half-point bye, an adjudicated game and a shootout win.

    ratings   A 2000  B 1900  C 1800  D 1700  E 1600   (pairing numbers 1-5)
    round 1   A-B 2-0         C-D 0-1         E bye (pairing-allocated)
    round 2   D-E forfeit: D did not come     A-C 2-1    B bye (pairing-allocated)
    round 3   A-E 0-0, E wins the shootout    B-D 1-0    C half-point bye

    points    A 2   B 2   C 0.5   D 1   E 3

Each opponent's score for Buchholz counts their unplayed rounds as draws (0.5):
    A 1+1+0 = 2, B 0+0.5+1 = 1.5, C 0+0+0.5 = 0.5, D 1+0.5+0 = 1.5, E 0.5+0.5+1 = 2.
A round without a played game is a virtual opponent: score before the round + the
opposite result + 0.5 for each later round (n = 3).

    A: B 1.5 (won), C 0.5 (won), E 2 (lost)                 BH 4    cut 3.5   SB 2
    B: A 2 (lost), bye r2: 0 + 0 + 0.5 = 0.5 (won), D 1.5 (won)
                                                           BH 4    cut 3.5   SB 2
    C: D 1.5 (lost), A 2 (lost), half bye r3: 0 + 0.5 + 0 = 0.5 (half)
                                                           BH 4    cut 3.5   SB 0.25
    D: C 0.5 (won), forfeit r2: 1 + 1 + 0.5 = 2.5 (lost), B 1.5 (lost)
                                                           BH 4.5  cut 4     SB 0.5
    E: bye r1: 0 + 0 + 1 = 1 (won), forfeit win r2: 1 + 0 + 0.5 = 1.5 (won), A 2 (won)
                                                           BH 4.5  cut 3.5   SB 4.5

Performance (played games only): A vs 1900, 1800, 1600 = 1766.67 -> 1767, p 2/3 -> 0.67,
dp 125: 1892. B vs 2000, 1700 = 1850, p 0.5: 1850. C = 1850 - 800 = 1050. D 1850.
E vs 2000, p 1: 2800.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import Any

import pytest
from tourney import Event, Scripted

from kickline_server.tournament import Draw, Refused
from kickline_server.tournament.export import (
    pairings_json,
    scorecard,
    standings_csv,
    standings_json,
    trf_text,
)
from kickline_server.tournament.export import view as event_view
from kickline_server.tournament.standings import Table, dp, standings

A, B, C, D, E = 1, 2, 3, 4, 5


def five(tiebreaks: list[str]) -> Event:
    draws = {1: Draw(((A, B), (C, D)), E), 2: Draw(((D, E), (A, C)), B),
             3: Draw(((A, E), (B, D)))}
    ev = Event(Scripted(draws), rounds=3, tiebreaks=tiebreaks)
    for name, rating in zip("ABCDE", (2000, 1900, 1800, 1700, 1600), strict=True):
        ev.join(name, rating)
    ev.do("pair", round=1)
    ev.do("start", round=1)
    ev.play(1, 1, "home", (2, 0))
    ev.play(1, 2, "away", (0, 1))
    ev.do("pair", round=2)
    ev.do("start", round=2)
    ev.do("forfeit", role="system", round=2, board=1, absent="home")
    ev.do("adjudicate", round=2, board=2, result={"winner": "home", "goals": [2, 1]})
    ev.do("request_bye", pid=C, round=3, kind="half")
    ev.do("pair", round=3)
    ev.do("start", round=3)
    ev.play(3, 1, "away", (0, 0), shootout=True)
    ev.play(3, 2, "home", (1, 0))
    return ev


ALL = ["buchholz", "buchholz_cut1", "sonneborn_berger", "wins", "goal_difference",
       "goals_for", "performance"]


def test_every_tiebreak_matches_the_hand_worked_example() -> None:
    ev = five(ALL)
    table = Table(ev.t)
    got = {pid: {name: table.value(name, pid) for name in ALL} for pid in (A, B, C, D, E)}
    h = Fraction(1, 2)
    assert {p: table.rows[p].points for p in got} == {A: 2, B: 2, C: h, D: 1, E: 3}
    assert {p: got[p]["buchholz"] for p in got} == {A: 4, B: 4, C: 4, D: 4 + h, E: 4 + h}
    assert {p: got[p]["buchholz_cut1"] for p in got} == {
        A: 3 + h, B: 3 + h, C: 3 + h, D: 4, E: 3 + h}
    assert {p: got[p]["sonneborn_berger"] for p in got} == {
        A: 2, B: 2, C: Fraction(1, 4), D: h, E: 4 + h}
    assert {p: got[p]["wins"] for p in got} == {A: 2, B: 1, C: 0, D: 1, E: 1}
    assert {p: got[p]["goal_difference"] for p in got} == {A: 3, B: -1, C: -2, D: 0, E: 0}
    assert {p: got[p]["goals_for"] for p in got} == {A: 4, B: 1, C: 1, D: 1, E: 0}
    assert {p: got[p]["performance"] for p in got} == {
        A: 1892, B: 1850, C: 1050, D: 1850, E: 2800}


def test_direct_encounter_separates_the_pair_every_other_tiebreak_left_tied() -> None:
    ev = five(["buchholz_cut1", "buchholz", "sonneborn_berger", "direct_encounter"])
    rows = standings(ev.t)
    assert [(r.rank, r.name) for r in rows] == [
        (1, "E"), (2, "A"), (3, "B"), (4, "D"), (5, "C")]
    a, b = rows[1], rows[2]
    assert (a.values["direct_encounter"], b.values["direct_encounter"]) == (1, 0)
    # Without direct encounter the two share second place.
    rows = standings(five(["buchholz_cut1", "buchholz", "sonneborn_berger"]).t)
    assert [(r.rank, r.name) for r in rows][:3] == [(1, "E"), (2, "A"), (2, "B")]


def test_direct_encounter_only_counts_when_every_tied_player_has_met() -> None:
    # A beats B, B beats C, C beats A in a round robin of three (with rests): all tied
    # on 1 point, every two have met, and each scored 1 against the others: no split.
    ev = Event(format="round_robin", tiebreaks=["direct_encounter"])
    for name, rating in (("A", 2000), ("B", 1900), ("C", 1800)):
        ev.join(name, rating)
    for rnd in (1, 2, 3):
        ev.do("pair", round=rnd)
        ev.do("start", round=rnd)
        b = ev.t.round(rnd).boards[0]
        # The better-rated player of each board wins, except C beats A.
        winner = "home" if b.home < b.away else "away"
        if {b.home, b.away} == {1, 3}:
            winner = "home" if b.home == 3 else "away"
        ev.play(rnd, 1, winner, (1, 0) if winner == "home" else (0, 1))
    rows = standings(ev.t)
    assert [r.points for r in rows] == [1, 1, 1]
    assert [r.rank for r in rows] == [1, 1, 1]
    assert {r.values["direct_encounter"] for r in rows} == {1}


def test_performance_uses_fides_table() -> None:
    assert dp(Fraction(1)) == 800 and dp(Fraction(0)) == -800
    assert dp(Fraction(1, 2)) == 0
    assert dp(Fraction(3, 4)) == 193 and dp(Fraction(1, 4)) == -193
    assert dp(Fraction(2, 3)) == 125  # 0.667 rounds to 0.67


def test_scoring_three_for_a_win_and_two_for_a_shootout_win() -> None:
    scoring = {"win": 3, "draw": 1, "loss": 0, "shootout_win": 2, "shootout_loss": 1,
               "bye": 3}
    draws = {1: Draw(((A, B),), C)}
    ev = Event(Scripted(draws), rounds=2, scoring=scoring, tiebreaks=["sonneborn_berger"])
    for name, rating in (("A", 2000), ("B", 1900), ("C", 1800)):
        ev.join(name, rating)
    ev.do("pair", round=1)
    ev.do("start", round=1)
    ev.play(1, 1, "home", (2, 2), shootout=True)
    table = Table(ev.t)
    assert {p: table.rows[p].points for p in (A, B, C)} == {A: 2, B: 1, C: 3}
    # A scored 2/3 of a win against B (whose unplayed future counts nothing yet: n = 1).
    assert table.value("sonneborn_berger", A) == Fraction(2, 3) * 1


def knockout_of_six(better_wins: Callable[[int], bool], **settings: Any) -> Event:
    """A..F (pids 1-6, by rating) play a knockout out; in round ``r`` the better seed
    (the lower pid) wins every tie if ``better_wins(r)``, else the worse one."""
    ev = Event(format="knockout", **settings)
    for i, name in enumerate("ABCDEF"):
        ev.join(name, 2000 - 100 * i)
    for rnd in (1, 2, 3):
        ev.do("pair", round=rnd)
        ev.do("start", round=rnd)
        for b in ev.t.round(rnd).boards:
            home_wins = (b.home < b.away) == better_wins(rnd)
            ev.play(rnd, b.number, "home" if home_wins else "away",
                    (1, 0) if home_wins else (0, 1))
    return ev


def test_knockout_ranks_by_how_far_each_player_went() -> None:
    ev = knockout_of_six(lambda r: True)
    rows = standings(ev.t)
    assert ev.t.finished
    assert [(r.rank, r.name) for r in rows] == [
        (1, "A"), (2, "B"), (3, "C"), (3, "D"), (5, "E"), (5, "F")]


def test_exports_show_the_same_order_and_values() -> None:
    ev = five(["buchholz_cut1", "buchholz", "sonneborn_berger", "direct_encounter"])
    csv_lines = standings_csv(ev.t).splitlines()
    assert csv_lines[0] == ("rank,number,name,points,buchholz_cut1,buchholz,"
                            "sonneborn_berger,direct_encounter,status")
    assert csv_lines[1] == "1,5,E,3,3.5,4.5,4.5,0,active"
    assert csv_lines[2] == "2,1,A,2,3.5,4,2,1,active"
    pairs = pairings_json(ev.t)
    assert pairs["rounds"][0]["boards"][0]["record"] == "/record/ev1-1-1.json"
    assert pairs["rounds"][1]["boards"][0]["record"] is None  # a forfeit: no match played
    data = standings_json(ev.t)
    assert data["rounds_played"] == 3
    assert [r["name"] for r in data["standings"]] == ["E", "A", "B", "D", "C"]
    assert data["standings"][4]["tiebreaks"]["sonneborn_berger"] == "0.25"


def test_a_players_score_card() -> None:
    card = scorecard(five(["buchholz"]).t, D)
    assert (card["name"], card["points"], card["rank"]) == ("D", "1", 4)
    assert [(r["round"], r["kind"], r.get("opponent_name"), r.get("outcome"),
             r.get("forfeit"), r["points"], r["total"]) for r in card["rounds"]] == [
        (1, "game", "C", "win", False, "1", "1"),
        (2, "game", "E", "loss", True, "0", "1"),
        (3, "game", "B", "loss", False, "0", "1")]
    assert card["rounds"][0]["side"] == "away" and card["rounds"][0]["goals"] == [1, 0]


def test_a_knockout_with_a_match_for_third_place() -> None:
    with pytest.raises(Refused) as e:
        Event(format="swiss", third_place=True)
    assert e.value.code == "bad_settings"
    # The worse seed wins every tie but the first round's.
    ev = knockout_of_six(lambda r: r == 1, third_place=True)
    final = ev.t.round(3)
    # Round 1: A and B had byes, C beat F, D beat E; semis: C beat A, D beat B.
    assert final.third == 2 and [(b.home, b.away) for b in final.boards] == [(3, 4), (1, 2)]
    assert ev.t.finished and ev.view()["rounds"][2]["third_place"] == 2
    rows = standings(ev.t)
    # D won the final, B the match for third place (the worse seed wins).
    assert [(r.rank, r.name) for r in rows] == [
        (1, "D"), (2, "C"), (3, "B"), (4, "A"), (5, "E"), (5, "F")]
    assert event_view(ev.replayed(), organiser=True) == ev.view()


def round_robin_of_four(withdraw_after: int, **settings: Any) -> Event:
    """A-D (pids 1-4) play a round robin, home winning every game; D withdraws after
    ``withdraw_after`` rounds (their later boards are forfeits)."""
    ev = Event(format="round_robin", **settings)
    for i, name in enumerate("ABCD"):
        ev.join(name, 2000 - 100 * i)
    for rnd in (1, 2, 3):
        if rnd == withdraw_after + 1:
            ev.do("withdraw", pid=D)
        ev.do("pair", round=rnd)
        ev.do("start", round=rnd)
        for b in ev.t.round(rnd).boards:
            if b.result is None:
                ev.play(rnd, b.number, "home", (1, 0))
    assert ev.t.finished
    return ev


def wins_on_boards(ev: Event, *, without: int | None) -> dict[int, int]:
    """Each player's wins (forfeit wins included) from the boards, leaving out every
    board of ``without``."""
    out = {p: 0 for p in (A, B, C, D) if p != without}
    for r in ev.t.rounds:
        for b in r.boards:
            assert b.result is not None
            if without in (b.home, b.away) or b.result.winner is None:
                continue
            out[b.home if b.result.winner == "home" else b.away] += 1
    return out


def test_a_round_robin_annuls_a_player_who_withdrew_before_half_their_games() -> None:
    with pytest.raises(Refused) as e:
        Event(format="swiss", annul_withdrawn=True)
    assert e.value.code == "bad_settings"
    # D played 1 of 3 games: annulled. Nobody keeps points from D's games (the win
    # over D, the forfeit wins); D is not ranked; the boards still show what happened.
    ev = round_robin_of_four(1, annul_withdrawn=True)
    assert ev.t.annulled() == {D}
    everything = wins_on_boards(ev, without=None)
    assert wins_on_boards(ev, without=D) != {p: n for p, n in everything.items() if p != D}
    rows = standings(ev.t)
    assert {r.pid: r.points for r in rows} == wins_on_boards(ev, without=D)
    assert [e["annulled"] for e in ev.view()["entries"]] == [False, False, False, True]
    # The TRF keeps D's line with no games: a rest round for each of D's opponents.
    d_line = next(ln for ln in trf_text(ev.t).splitlines()
                  if ln.startswith("001") and " D " in ln)
    assert not any(cell in d_line for cell in (" w ", " b ", " - "))
    a_line = next(ln for ln in trf_text(ev.t).splitlines()
                  if ln.startswith("001") and " A " in ln)
    assert "   4 " not in a_line[91:]  # A's game with D is not there either
    card = scorecard(ev.t, A)
    assert [g["kind"] for g in card["rounds"] if g.get("opponent") == D] == []
    assert card["points"] == str(wins_on_boards(ev, without=D)[A])
    # Without the rule, the same games count (D's forfeits are wins for the others).
    kept = round_robin_of_four(1)
    assert kept.t.annulled() == frozenset()
    assert {r.pid: r.points for r in standings(kept.t)} == wins_on_boards(kept, without=None)
    # D played 2 of 3 before withdrawing: half or more, so nothing is annulled.
    late = round_robin_of_four(2, annul_withdrawn=True)
    assert late.t.annulled() == frozenset()
    assert {r.pid: r.points for r in standings(late.t)} == wins_on_boards(late, without=None)
