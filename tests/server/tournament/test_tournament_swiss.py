"""The Swiss pairer: gacrux behind the wrapper, on events generated here.

Every draw the server records is re-checked by gacrux's own checker on the exported
TRF (``pairingchecker -c``: it re-pairs each round from the rounds before it and
compares), and the round-trip holds: the TRF exported before a round is paired, read
back by the pairing program, gives the very pairing the server then makes.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest
from tourney import Event

from kickline_server.tournament import Draw, PairingInput, Refused
from kickline_server.tournament.export import trf_text
from kickline_server.tournament.pairer import check_draw
from kickline_server.tournament.swiss import GacruxPairer, parse, trf_for


def gacrux(args: list[str], trf: str, tmp: Path) -> dict:  # type: ignore[type-arg]
    path = tmp / "event.trf"
    path.write_text(trf)
    out = subprocess.run([sys.executable, "-m", "gacrux.pairingchecker", "-i", str(path),
                          *args], capture_output=True, text=True, check=False)
    answer: dict = json.loads(out.stdout)  # type: ignore[type-arg]
    return answer


def pairs_of(ev: Event, rnd: int) -> list[list[int]]:
    """Round ``rnd`` as gacrux writes a pairing: [white, black] numbers, [n, 0] the bye."""
    r = ev.t.round(rnd)
    num = {e.pid: e.number for e in ev.t.numbered()}
    out = [[num[b.home], num[b.away]] for b in r.boards]
    out += [[num[p], 0] for p, k in r.byes.items() if k == "pab"]
    return out


def test_a_generated_event_is_paired_as_gacrux_rechecks_it(tmp_path: Path) -> None:
    rng = random.Random(12)
    ev = Event(GacruxPairer(), rounds=5)
    pids = [ev.join(f"Player {i}", 1300 + rng.randrange(600)) for i in range(13)]
    ev.do("forbid", a=pids[0], b=pids[1])
    ev.do("forbid", a=pids[2], b=pids[3])
    roundtrip = None
    for rnd in range(1, 6):
        if rnd == 2:
            ev.do("withdraw", pid=pids[5])
            ev.do("request_bye", pid=pids[6], round=2, kind="half")
            ev.do("request_bye", pid=pids[7], round=3, kind="zero")
            ev.join("Late Comer", 1700)
        if rnd == 4:
            roundtrip = gacrux(["-p"], trf_text(ev.t), tmp_path)
        ev.do("pair", round=rnd)
        ev.do("start", round=rnd)
        for b in ev.t.round(rnd).boards:
            assert {b.home, b.away} not in ({pids[0], pids[1]}, {pids[2], pids[3]})
            if rng.random() < 0.15:
                ev.do("forfeit", role="system", round=rnd, board=b.number,
                      absent=rng.choice(["home", "away"]))
            else:
                g = (rng.randrange(4), rng.randrange(4))
                ev.play(rnd, b.number, rng.choice(["home", "away"]), g, g[0] == g[1])
    pabs = [p for r in ev.t.rounds for p, k in r.byes.items() if k == "pab"]
    assert len(pabs) == len(set(pabs)) >= 2
    assert roundtrip is not None and roundtrip["status"]["code"] == 0
    assert sorted(roundtrip["pairingResult"]["pairs"]) == sorted(pairs_of(ev, 4))
    checked = gacrux(["-c"], trf_text(ev.t), tmp_path)
    assert checked["status"]["code"] == 0, checked["status"]
    assert [(r["round"], r["check"]) for r in checked["pairingResult"]["roundpairing"]] == [
        (r, True) for r in range(1, 6)]


def test_a_round_nobody_can_pair_is_refused_with_a_way_out() -> None:
    ev = Event(GacruxPairer(), rounds=3)
    ev.join("Ann", 1500)
    ev.join("Ben", 1400)
    ev.do("pair", round=1)
    ev.do("start", round=1)
    ev.play(1, 1, "home", (1, 0))
    with pytest.raises(Refused) as e:
        ev.do("pair", round=2)
    assert e.value.code == "no_pairing" and "re-pair by hand" in e.value.message
    assert len(ev.t.rounds) == 1


def small_input(ev: Event) -> PairingInput:
    return ev.t.pairing_input(1, ev.t.initial_numbers())


def test_the_wrapper_refuses_answers_it_cannot_trust() -> None:
    ev = Event(rounds=3)
    for name in ("Ann", "Ben", "Cat", "Dov"):
        ev.join(name, 1500)
    ev.do("forbid", a=1, b=2)
    inp = small_input(ev)
    ok = {"status": {"code": 0}, "pairingResult": {"pairs": [[1, 3], [2, 4]]}}
    assert parse(inp, json.dumps(ok)) == Draw(((1, 3), (2, 4)))
    for answer, code in (
        ("not json", "pairing_failed"),
        ({"status": {"code": 505, "error": ["no"]}}, "no_pairing"),
        ({"status": {"code": 401, "error": ["bad file"]}}, "pairing_failed"),
        ({"status": {"code": 0}, "pairingResult": {"pairs": [[1, 2], [3, 4]]}},
         "pairing_failed"),  # a forbidden pair
        ({"status": {"code": 0}, "pairingResult": {"pairs": [[1, 3]]}}, "pairing_failed"),
        ({"status": {"code": 0}, "pairingResult": {"pairs": [[1, 3], [2, 0], [4, 0]]}},
         "pairing_failed"),
    ):
        with pytest.raises(Refused) as e:
            parse(inp, answer if isinstance(answer, str) else json.dumps(answer))
        assert e.value.code == code
    with pytest.raises(Refused):
        check_draw(inp, Draw(((1, 3), (2, 4), (1, 4))))


def test_the_pairing_trf_carries_byes_scores_and_forbidden_pairs() -> None:
    ev = Event(rounds=3, scoring={"shootout_win": "0.5", "shootout_loss": "0.5"})
    for name in ("Ann", "Bén", "Cat"):
        ev.join(name, 1500)
    ev.do("forbid", a=1, b=3)
    ev.do("request_bye", pid=3, round=1, kind="half")
    text = trf_for(small_input(ev))
    assert "260   1   3    1    3" in text.splitlines()
    assert "162  W   1    D 0.5    L   0    P   1    A   0" in text
    assert any(line.startswith("001    2      Ben ") for line in text.splitlines())
    cat = next(line for line in text.splitlines() if line.startswith("001    3"))
    assert cat.endswith("0.5    3  0000 - H")
