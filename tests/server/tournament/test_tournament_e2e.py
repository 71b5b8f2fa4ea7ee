"""Whole events played entirely by bot clients through a real server process.

* A 12-player Swiss of 5 rounds with a late entry (13th player, half-point byes for the
  round missed), a withdrawal, a no-show forfeit (one player never opens a match) and
  a SIGKILL of the server in round 3 with every match of the round being played.
* A 6-player round robin and an 8-player knockout.

What the server reports (standings, every board's result, the TRF export) is checked
against what the bots themselves saw, computed here independently: points and Buchholz
from the bots' own ``over`` messages, each TRF cell written out by this file, and every
Swiss round re-checked by gacrux's checker program on the exported TRF. Matches are
Kickline training matches between greedy bots (a few seconds each); the three events
take about a minute together, so they are marked slow.
"""

from __future__ import annotations

import json
import subprocess
import sys
import uuid
from collections.abc import Callable, Iterator
from fractions import Fraction
from pathlib import Path
from typing import Any

import anyio
import pytest
from tplay import Organiser, Player, Server, join_all, seen_results

pytestmark = [pytest.mark.anyio, pytest.mark.slow]

HALF = Fraction(1, 2)


@pytest.fixture
def server(tmp_path: Path, port: Callable[[], int]) -> Iterator[Server]:
    s = Server(tmp_path / "data", port())
    s.start()
    try:
        yield s
    finally:
        s.stop()


def players(n: int, tag: str) -> list[Player]:
    uid = uuid.uuid4().hex[:4]
    return [Player(f"{tag}{i:02d}x{uid}") for i in range(n)]


def outcomes(view: dict[str, Any], seen: dict[str, tuple[Any, Any, str]]
             ) -> dict[int, list[tuple[str, int | None, str | None, Fraction]]]:
    """Per pid, per round: (kind, opponent, colour, points), from the bots' own results
    (the view gives only who met whom, and the byes)."""
    out: dict[int, list[tuple[str, int | None, str | None, Fraction]]] = {
        e["pid"]: [] for e in view["entries"]}
    for rnd in view["rounds"]:
        busy = set()
        for b in rnd["boards"]:
            if b["match"] is None:  # a forfeit decided when the round was paired
                res = b["result"]
                reason, winner = "no_show", {"home": 0, "away": 1, None: None}[res["winner"]]
            else:
                winner, _score, reason = seen[b["match"]]
            forfeit = reason in ("no_show", "no_show_both")
            for pid, seat, colour, opp in ((b["home"], 0, "w", b["away"]),
                                           (b["away"], 1, "b", b["home"])):
                won = winner == seat
                code = ("+" if won else "-") if forfeit else ("1" if won else "0")
                out[pid].append((code, opp, colour, Fraction(1 if won else 0)))
                busy.add(pid)
        for bye in rnd["byes"]:
            pts = {"pab": Fraction(1), "half": HALF}.get(bye["kind"], Fraction(0))
            code = {"pab": "U", "half": "H"}.get(bye["kind"], "Z")
            out[bye["pid"]].append((code, None, None, pts))
            busy.add(bye["pid"])
        for pid, games in out.items():
            if pid not in busy:
                games.append(("", None, None, Fraction(0)))  # not in the event that round
    return out


def buchholz(games: dict[int, list[tuple[str, int | None, str | None, Fraction]]], n: int
             ) -> dict[int, Fraction]:
    """FIDE's virtual-opponent Buchholz, written out again from its definition: an
    opponent's unplayed rounds count as draws; a round the player did not play counts
    as a virtual opponent with the player's score before it, the opposite result, and
    draws after."""
    def played(code: str) -> bool:
        return code in ("1", "0", "=")

    adjusted = {p: sum((pts if played(c) else HALF for c, _, _, pts in g), Fraction(0))
                for p, g in games.items()}
    out = {}
    for p, g in games.items():
        total, before = Fraction(0), Fraction(0)
        for r, (code, opp, _, pts) in enumerate(g, start=1):
            if code == "":
                continue
            if played(code) and opp is not None:
                total += adjusted[opp]
            else:
                opposite = {"+": 0, "U": 0, "H": HALF}.get(code, Fraction(1))
                total += before + opposite + HALF * (n - r)
            before += pts
        out[p] = total
    return out


def trf_cells(trf: str) -> dict[int, tuple[str, list[str]]]:
    out = {}
    for line in trf.splitlines():
        if line.startswith("001"):
            cells = [line[i:i + 8] for i in range(91, len(line), 10)]
            out[int(line[4:8])] = (line[80:84].strip(), cells)
    return out


def expected_cells(games: dict[int, list[tuple[str, int | None, str | None, Fraction]]],
                   numbers: dict[int, int]) -> dict[int, tuple[str, list[str]]]:
    out = {}
    for pid, g in games.items():
        if pid not in numbers:
            continue
        cells = []
        for code, opp, colour, _ in g:
            if code == "":
                cells.append(" " * 8)
            elif opp is None:
                cells.append(f"0000 - {code}")
            else:
                cells.append(f"{numbers[opp]:4} {colour} {code}")
        while cells and not cells[-1].strip():
            cells.pop()
        total = sum((pts for *_, pts in g), Fraction(0))
        out[numbers[pid]] = (str(total.numerator) if total.denominator == 1 else
                             f"{float(total):g}", cells)
    return out


def check_standings(view: dict[str, Any], games: dict[int, Any], *, with_bh: bool) -> None:
    points = {p: sum((pts for *_, pts in g), Fraction(0)) for p, g in games.items()}
    n = len(view["rounds"])
    bh = buchholz(games, n)
    for row in view["standings"]:
        assert Fraction(row["points"]) == points[row["pid"]], row
        if with_bh:
            assert Fraction(row["tiebreaks"]["buchholz"]) == bh[row["pid"]], row
    ranked = [Fraction(r["points"]) for r in view["standings"]]
    assert ranked == sorted(ranked, reverse=True)


async def test_a_swiss_of_twelve_with_a_late_entry_a_withdrawal_a_no_show_and_a_crash(
        server: Server, tmp_path: Path) -> None:
    org = Organiser(server.url)
    await org.register()  # the fresh server's first account: its organiser
    field = players(13, "S")
    for p in field:
        await p.register(server.url)
    await org.do("mk", "create", settings={
        "name": "Club Swiss", "rounds": 5, "match": {"mode": "training"},
        "no_show_minutes": 0.1, "tiebreaks": ["buchholz", "buchholz_cut1"]})
    await join_all(server.url, org.tid, field[:12])
    stop = anyio.Event()
    async with anyio.create_task_group() as tg:
        for p in field:
            tg.start_soon(p.run, server.url, org.tid, stop)
        await org.round(1)
        await join_all(server.url, org.tid, field[12:])  # the late entry
        await org.round(2)
        withdrawn = field[3]
        await org.do("wd", "withdraw", pid=withdrawn.pid)
        # Round 3: the server is killed while every match of the round is being played.
        await org.do("pair3", "pair", round=3)
        await org.do("start3", "start", round=3)
        view = await org.until(lambda v: all(
            b.get("live") and all(b["live"]["seated"]) for b in v["rounds"][2]["boards"]
            if b["result"] is None) and any(b["result"] is None
                                            for b in v["rounds"][2]["boards"]))
        server.kill()
        server.start()
        await org.until(lambda v: v["rounds"][2]["status"] == "done")
        absent = next(p for p in field if p.pid not in (withdrawn.pid,)
                      and p is not field[12])
        absent.skip_round = 4
        view = await org.round(4)
        view = await org.round(5)
        stop.set()
    assert view["status"] == "finished"
    seen = seen_results(field)
    games = outcomes(view, seen)
    # Every board's result is the one its bots saw; the no-show lost by forfeit.
    for rnd in view["rounds"]:
        for b in rnd["boards"]:
            winner, score, reason = seen[b["match"]]
            res = b["result"]
            assert res["winner"] == {0: "home", 1: "away", None: None}[winner]
            assert res["kind"] == ("forfeit" if reason.startswith("no_show") else "played")
            if res["kind"] == "played":
                assert res["goals"] == score  # home is seat 0
    late = next(e for e in view["entries"] if e["pid"] == field[12].pid)
    assert late["late"] and games[late["pid"]][0][0] == "H"
    assert all(c == "Z" for c, *_ in games[withdrawn.pid][2:])
    no_show = [b for b in view["rounds"][3]["boards"] if absent.pid in (b["home"], b["away"])]
    assert no_show and no_show[0]["result"]["kind"] == "forfeit"
    assert games[absent.pid][3][0] == "-"
    assert sum(1 for r in view["rounds"] for b in r["byes"] if b["kind"] == "pab") >= 1
    check_standings(view, games, with_bh=True)
    # The TRF export, cell by cell, as this file writes it from the bots' results.
    trf = server.get(f"/tournaments/{org.tid}/event.trf").decode("ascii")
    numbers = {e["pid"]: e["number"] for e in view["entries"] if e["number"]}
    got = trf_cells(trf)
    want = expected_cells(games, numbers)
    assert got == want
    # And gacrux's own checker re-pairs every round from the ones before it.
    path = tmp_path / "event.trf"
    path.write_text(trf)
    out = subprocess.run([sys.executable, "-m", "gacrux.pairingchecker", "-i", str(path),
                          "-c"], capture_output=True, text=True, check=False)
    checked = json.loads(out.stdout)
    assert [(r["round"], r["check"]) for r in checked["pairingResult"]["roundpairing"]] == [
        (r, True) for r in range(1, 6)]


def berger(n: int, rnd: int) -> list[tuple[int, int]]:
    """FIDE's Berger table for an even ``n``, written here from its rule: round 1 is
    1-n, 2-(n-1), ...; each round moves every number but n on by n/2; n alternates
    colours on board 1."""
    ring = [((i + (rnd - 1) * (n // 2)) % (n - 1)) + 1 for i in range(n - 1)]
    first = (ring[0], n) if rnd % 2 else (n, ring[0])
    return [first] + [(ring[j - 1], ring[n - j]) for j in range(2, n // 2 + 1)]


async def played(server: Server, fmt: str, size: int, rounds: int
                 ) -> tuple[dict[str, Any], list[Player]]:
    """An event of ``size`` bots in format ``fmt``, every round paired, started and
    played; the final view and the players."""
    org = Organiser(server.url)
    await org.register()
    field = players(size, fmt[0].upper())
    for p in field:
        await p.register(server.url)
    await org.do("mk", "create", settings={"name": f"Club {fmt}", "format": fmt,
                                           "match": {"mode": "training"}})
    await join_all(server.url, org.tid, field)
    stop = anyio.Event()
    async with anyio.create_task_group() as tg:
        for p in field:
            tg.start_soon(p.run, server.url, org.tid, stop)
        for rnd in range(1, rounds + 1):
            view = await org.round(rnd)
        stop.set()
    assert view["status"] == "finished"
    return view, field


async def test_a_round_robin_of_six(server: Server) -> None:
    view, field = await played(server, "round_robin", 6, 5)
    number = {e["pid"]: e["number"] for e in view["entries"]}
    for rnd in view["rounds"]:
        boards = [(number[b["home"]], number[b["away"]]) for b in rnd["boards"]]
        assert boards == berger(6, rnd["round"])
    met = {frozenset((b["home"], b["away"])) for r in view["rounds"] for b in r["boards"]}
    assert len(met) == 15  # everyone met everyone once
    check_standings(view, outcomes(view, seen_results(field)), with_bh=False)


async def test_a_knockout_of_eight(server: Server) -> None:
    view, field = await played(server, "knockout", 8, 3)
    seen = seen_results(field)
    number = {e["pid"]: e["number"] for e in view["entries"]}
    # Seeds 1-8 in bracket order 1-8, 4-5, 2-7, 3-6; each round pairs the winners of
    # neighbouring ties, as the bots' own results say.
    slots = [1, 8, 4, 5, 2, 7, 3, 6]
    alive = [next(p for p, n in number.items() if n == s) for s in slots]
    for rnd in view["rounds"]:
        ties = [frozenset(alive[i:i + 2]) for i in range(0, len(alive), 2)]
        assert [frozenset((b["home"], b["away"])) for b in rnd["boards"]] == ties
        winners = []
        for b in rnd["boards"]:
            winner, _, _ = seen[b["match"]]
            winners.append(b["home"] if winner == 0 else b["away"])
        alive = winners
    champion = alive[0]
    assert view["standings"][0]["pid"] == champion and view["standings"][0]["rank"] == 1
    assert [r["rank"] for r in view["standings"]] == [1, 2, 3, 3, 5, 5, 5, 5]
