"""``kickline verify FILE``: a record verifies; a changed die, seed or score does not;
something that is not a record gets one line saying so."""

from __future__ import annotations

import json
import os
import random
from pathlib import Path
from typing import Any

import pytest

import kickline
from kickline_server import dice
from kickline_server.cli import main


def record(seed: bytes, contributions: list[bytes] | None = None) -> dict[str, Any]:
    """A finished match's record, played with the server's own dice and sampling."""
    rng = dice.dice(seed if contributions is None else dice.dice_seed(seed, contributions))
    choices = random.Random(5)
    config = {"mode": "training", "board": 7}
    game = kickline.GAME
    s = game.setup(config)
    log: list[dict[str, Any]] = []
    while (act := game.to_act(s)).kind != "over":
        if act.kind == "chance":
            value, _ = dice.sample(rng, game.chance_outcomes(s))
            s, _ = game.apply_chance(s, value)
            log.append({"k": "c", "o": value})
        else:
            seat = act.seats[0]
            d = choices.choice(list(game.legal(s, seat)))
            s, _ = game.apply(s, seat, d)
            log.append({"k": "d", "s": seat, "d": d})
    out = {"game": "kickline", "config": config, "seed": seed.hex(),
           "commit": dice.commitment(seed), "log": log,
           "record": {"result": game.result(s)}}
    if contributions is not None:
        out["commits"] = [dice.commitment(c) for c in contributions]
        out["contributions"] = [c.hex() for c in contributions]
    return out


def write(tmp_path: Path, data: Any, name: str = "r.json") -> Path:
    p = tmp_path / name
    p.write_text(json.dumps(data) if not isinstance(data, str) else data)
    return p


def test_a_record_verifies(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    good = record(os.urandom(32), [os.urandom(32), os.urandom(32)])
    assert main(["verify", str(write(tmp_path, good))]) == 0
    out = capsys.readouterr().out
    assert out.startswith("verified:") and "home : visitors" in out


def test_a_changed_die_seed_or_score_does_not_verify(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    good = record(os.urandom(32))
    die = next(i for i, e in enumerate(good["log"]) if e["k"] == "c" and e["o"] != "coin")
    bad_die = json.loads(json.dumps(good))
    entry = bad_die["log"][die]
    entry["o"] = "fortune" if entry["o"] == "doom" else "doom" if entry["o"] == "fortune" \
        else str(int(entry["o"]) % 12 + 1)
    bad_seed = dict(good, seed=os.urandom(32).hex())
    bad_score = json.loads(json.dumps(good))
    bad_score["record"]["result"]["score"] = [99, 0]
    for data in (bad_die, bad_seed, bad_score):
        assert main(["verify", str(write(tmp_path, data))]) == 1
        err = capsys.readouterr().err
        assert "does not verify" in err and err.count("\n") == 1, err


def test_not_a_record_is_said_in_one_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for content in ("not json", json.dumps({"hello": 1}), json.dumps([1, 2])):
        assert main(["verify", str(write(tmp_path, content))]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "Traceback" not in err, err
    assert main(["verify", str(tmp_path / "absent.json")]) == 2
    assert "cannot read" in capsys.readouterr().err
