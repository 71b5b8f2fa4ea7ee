"""The preview's Python side (client/py/kpreview.py) on CPython, against the engine itself.

The same module runs in Pyodide in the browser (exercised by test_browser.py and by
``tools/stdlib_modules.mjs`` at build time); here it is checked prompt by prompt.
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path
from typing import Any

import pytest

import kickline

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "client" / "py"))
import kpreview


def _play(seed: int, board: int) -> tuple[list[tuple[dict[str, Any], list[str]]], list[Any]]:
    """A random match: every (view, legal) a seat was offered, and the public log."""
    rng = random.Random(seed)
    dice = random.Random(seed + 1000)
    s = kickline.new_game({"mode": "training", "board": board})
    offered: list[tuple[dict[str, Any], list[str]]] = []
    log: list[Any] = []
    while True:
        kind, seats, _ = kickline.to_act(s)
        if kind == "over":
            return offered, log
        if kind == "chance":
            outcomes = kickline.GAME.chance_outcomes(s)
            value = outcomes[dice.randrange(len(outcomes))].value
            log.append({"k": "c", "o": value, "w": len(outcomes)})
            s, _ = kickline.apply_chance(s, value)
            continue
        for seat in seats:
            legal = list(kickline.legal(s, seat))
            offered.append((kickline.view(s, seat), legal))
            pref = [d for d in legal if d in ("finish", "skip")]
            d = pref[0] if pref else rng.choice(legal)
            log.append({"k": "d", "s": seat, "d": d})
            s, _ = kickline.apply(s, seat, d)


@pytest.mark.parametrize(("seed", "board"), [(1, 7), (2, 9), (3, 7)])
def test_preview_legal_agrees_with_the_engine_on_every_prompt(seed: int, board: int) -> None:
    offered, _ = _play(seed, board)
    previewed = 0
    for view, legal in offered:
        out = json.loads(kpreview.legal(json.dumps(view)))
        previewed += 1
        assert out["legal"] == legal, view["prompt"]
        if not view["to_act"]["secret"]:
            for d in legal[:5]:
                events = json.loads(kpreview.consequence(json.dumps(view), d))
                assert events is None or isinstance(events, list)
    assert previewed == len(offered) > 0


def test_verify_replays_the_log_and_catches_a_wrong_die() -> None:
    seed = bytes(range(32))
    rng = random.Random(int.from_bytes(seed, "big"))
    s = kickline.GAME.setup({"mode": "training", "board": 7})
    log: list[Any] = []
    pick = random.Random(5)
    while kickline.GAME.to_act(s).kind != "over":
        ta = kickline.GAME.to_act(s)
        if ta.kind == "chance":
            outcomes = kickline.GAME.chance_outcomes(s)
            value = outcomes[rng.randrange(len(outcomes))].value
            log.append({"k": "c", "o": value, "w": len(outcomes)})
            s, _ = kickline.GAME.apply_chance(s, value)
            continue
        for seat in ta.seats:
            legal = kickline.GAME.legal(s, seat)
            d = "finish" if "finish" in legal else pick.choice(list(legal))
            log.append({"k": "d", "s": seat, "d": d, "v": 0, "by": "p"})
            s, _ = kickline.GAME.apply(s, seat, d)
    cfg = json.dumps({"mode": "training", "board": 7})
    ok = json.loads(kpreview.verify(cfg, seed.hex(), json.dumps(log), 0))
    assert ok["ok"] and ok["result"] == kickline.GAME.result(s)
    # A view after each decision, then the final position (the dice after the last one).
    assert len(ok["views"]) == sum(1 for e in log if e["k"] == "d") + 1
    assert ok["views"][-1]["d"] is None and ok["views"][-1]["view"]["to_act"]["kind"] == "over"
    first_roll = next(i for i, e in enumerate(log) if e["k"] == "c" and i > 0)
    bad = [dict(e) for e in log]
    bad[first_roll]["o"] = "12" if bad[first_roll]["o"] != "12" else "1"
    out = json.loads(kpreview.verify(cfg, seed.hex(), json.dumps(bad), 0))
    assert not out["ok"] and f"entry {first_roll}" in out["error"]


def test_verify_mixes_the_players_contributions_into_the_dice_as_the_server_does() -> None:
    from kickline_server.dice import dice_seed

    seed, mine = bytes(range(32)), bytes([7]) * 32
    rng = random.Random(int.from_bytes(dice_seed(seed, [mine, None]), "big"))
    s = kickline.GAME.setup({"mode": "training", "board": 7})
    log: list[Any] = []
    pick = random.Random(6)
    for _ in range(300):
        ta = kickline.GAME.to_act(s)
        if ta.kind == "over":
            break
        if ta.kind == "chance":
            outcomes = kickline.GAME.chance_outcomes(s)
            value = outcomes[rng.randrange(len(outcomes))].value
            log.append({"k": "c", "o": value, "w": len(outcomes)})
            s, _ = kickline.GAME.apply_chance(s, value)
            continue
        for seat in ta.seats:
            d = pick.choice(list(kickline.GAME.legal(s, seat)))
            log.append({"k": "d", "s": seat, "d": d, "v": 0, "by": "p"})
            s, _ = kickline.GAME.apply(s, seat, d)
    cfg = json.dumps({"mode": "training", "board": 7})
    mixed = json.dumps([mine.hex(), None])
    assert json.loads(kpreview.verify(cfg, seed.hex(), json.dumps(log), 0, mixed))["ok"]
    # The seed alone, or another contribution, does not give these dice.
    assert not json.loads(kpreview.verify(cfg, seed.hex(), json.dumps(log), 0))["ok"]
    other = json.dumps([bytes(32).hex(), None])
    assert not json.loads(kpreview.verify(cfg, seed.hex(), json.dumps(log), 0, other))["ok"]
