"""``python -m kickline simulate``: reproducible reports, errors counted, bad arguments refused."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from kickline import simulate


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "kickline", "simulate", *args],
                          capture_output=True, text=True, check=False, timeout=300)


def test_same_seed_same_report_and_the_report_has_every_field() -> None:
    args = ("--mode", "training", "--board", "9", "--matches", "6", "--seed", "4",
            "--bots", "random,greedy", "--json")
    a, b = _run(*args), _run(*args)
    assert a.returncode == 0, a.stderr
    ra, rb = json.loads(a.stdout), json.loads(b.stdout)
    for r in (ra, rb):
        r.pop("decisions_per_second")
        r.pop("seconds")
    assert ra == rb
    assert ra["matches"] == 6 and ra["errors"] == {"count": 0, "first": None}
    res = ra["results"]
    assert res["home_wins"] + res["visitors_wins"] == 6
    assert 0 <= res["decided_by_shootout"] <= 6
    assert ra["goals_per_match"] > 0 and ra["decisions_per_match"] > 0
    other = json.loads(_run(*args[:-3], "--seed", "5", "--bots", "random,greedy",
                            "--json", "--no-timing").stdout)
    assert other != ra


def test_a_match_that_raises_is_counted_with_its_traceback(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    real = simulate.play_match
    calls = {"n": 0}

    def flaky(*args: object, **kw: object) -> object:
        calls["n"] += 1
        if calls["n"] == 2:
            raise RuntimeError("boom")
        return real(*args, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(simulate, "play_match", flaky)
    report = simulate.simulate(simulate.Config("training", 7), ["greedy", "greedy"], 3, 1)
    assert report["errors"]["count"] == 1
    assert "RuntimeError: boom" in report["errors"]["first"]
    assert report["results"]["home_wins"] + report["results"]["visitors_wins"] == 2


@pytest.mark.parametrize("args", [("--bots", "random"), ("--bots", "random,genius"),
                                  ("--board", "8"), ("--matches", "0"),
                                  ("--mode", "expert"), ("--teams", "oozes,dragons"),
                                  ("--teams", "oozes")])
def test_bad_arguments_are_refused_with_a_message(args: tuple[str, ...]) -> None:
    proc = _run(*args)
    assert proc.returncode == 2
    assert "error" in proc.stderr


@pytest.mark.parametrize("mode", ["standard", "advanced"])
def test_part_two_modes_with_any_two_teams_mirror_allowed(mode: str) -> None:
    for teams in ("fire-demons,oozes", "telekinetics,telekinetics"):
        proc = _run("--mode", mode, "--board", "7", "--teams", teams, "--matches", "3",
                    "--bots", "greedy,random", "--json", "--no-timing")
        assert proc.returncode == 0, proc.stderr
        report = json.loads(proc.stdout)
        assert (report["mode"], report["teams"]) == (mode, teams.split(","))
        assert report["errors"]["count"] == 0
