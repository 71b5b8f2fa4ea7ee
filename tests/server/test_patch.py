"""View patches (protocol 2): a patch applied to the view a connection holds is the view
it would have got whole, for every seat at every step; a connection that holds no view,
or another one, gets the whole view again."""

from __future__ import annotations

import json
import random
import shutil
import subprocess
from pathlib import Path
from typing import Any

import msgpack  # type: ignore[import-untyped]
import pytest

from kickline_server import games, toy
from kickline_server.core import Connect, Decide, MatchCore, Send, Sit
from kickline_server.patch import apply_patch, diff
from kickline_server.protocol import Prompts

ROOT = Path(__file__).resolve().parents[2]
A, B = "alice", "bob"
KICKLINE = {"mode": "training", "board": 7, "teams": ["training", "training"]}


def test_diff_and_apply() -> None:
    old = {"a": 1, "b": {"c": [1, 2], "d": None}, "p": [{"x": i} for i in range(6)]}
    new = {"a": 1, "b": {"c": [1, 3], "d": "z"}, "p": [{"x": i} for i in range(6)]}
    new["p"][4] = {"x": 40}
    ops = diff(old, new)
    assert ops == [[["b", "c"], [1, 3]], [["b", "d"], "z"], [["p", 4, "x"], 40]]
    before = json.dumps(old)
    assert apply_patch(old, ops or []) == new
    assert json.dumps(old) == before  # the held view is not changed in place
    assert diff(old, {"a": 1}) is None  # other keys: send it whole
    assert diff(new, new) == []


def _plain(rng: random.Random, depth: int) -> Any:
    roll = rng.random()
    if depth == 0 or roll < 0.4:
        return rng.choice([0, 1, True, False, None, "a", "b", 1.5, [], {}])
    if roll < 0.7:
        return [_plain(rng, depth - 1) for _ in range(rng.randrange(8))]
    return {k: _plain(rng, depth - 1) for k in rng.sample("abcdef", rng.randrange(5))}


def _changed(rng: random.Random, value: Any, depth: int) -> Any:
    """``value`` with some members changed, rebuilt (equal but not the same object), kept
    or reordered; the rest shared."""
    roll = rng.random()
    if roll < 0.15:
        return _plain(rng, depth)
    if isinstance(value, list) and roll < 0.8:
        return [_changed(rng, v, depth - 1) if rng.random() < 0.3 else v for v in value]
    if isinstance(value, dict) and roll < 0.8:
        keys = list(value)
        if rng.random() < 0.2:
            rng.shuffle(keys)
        out = {k: _changed(rng, value[k], depth - 1) if rng.random() < 0.3 else value[k]
               for k in keys}
        if out and rng.random() < 0.1:  # the same number of keys, not the same keys
            del out[keys[0]]
            out["z"] = 0
        return out
    if roll < 0.9:
        return json.loads(json.dumps(value))  # equal, not the same object
    return value


def test_a_patch_rebuilds_any_changed_plain_value() -> None:
    """Random nested values, changed in shared, rebuilt, reordered and renamed parts:
    the patch applied gives the new value, and equal values give no operation."""
    rng = random.Random(5)
    for _ in range(3000):
        old = {k: _plain(rng, 4) for k in "pqrs"}
        new = {k: _changed(rng, v, 4) for k, v in old.items()}
        ops = diff(old, new)
        assert ops is not None
        assert apply_patch(old, ops) == new
        if json.dumps(old) == json.dumps(new):
            assert ops == []
        assert diff(old, json.loads(json.dumps(old))) == []


class Table:
    """One match with two seats and a spectator, each attached twice: once speaking
    protocol 1 (whole views) and once protocol 2 (patches, assembled as a client does)."""

    def __init__(self, core: MatchCore) -> None:
        self.core = core
        self.got: dict[int, list[dict[str, Any]]] = {}
        self.do(Sit(0, A, "Alice", conn=1, patches=False))
        self.do(Connect(11, A, patches=True))
        self.do(Sit(1, B, "Bob", conn=2, patches=False))
        self.do(Connect(12, B, patches=True))
        self.do(Connect(3, None, watch=True))
        self.do(Connect(13, None, watch=True, patches=True))
        self.clients = {c: Prompts() for c in (11, 12, 13)}
        for c, client in self.clients.items():  # each attached with a whole prompt
            first = [m for m in self.got[c] if m["t"] == "prompt"][-1]
            assert "view" in first and client.assemble(first) == first
        self.got.clear()

    def do(self, cmd: Any) -> None:
        for e in self.core.handle(cmd, 0.0):
            if isinstance(e, Send):
                self.got.setdefault(e.conn, []).append(e.message)

    def check(self) -> int:
        """Every patch-taking connection's assembled prompts equal the whole ones its
        protocol-1 twin got; returns the bytes the patched prompts saved."""
        saved = 0
        for whole_conn, patch_conn in ((1, 11), (2, 12), (3, 13)):
            wholes = [m for m in self.got.pop(whole_conn, []) if m["t"] == "prompt"]
            patched = [m for m in self.got.pop(patch_conn, []) if m["t"] == "prompt"]
            assert len(wholes) == len(patched)
            for w, p in zip(wholes, patched, strict=True):
                got = self.clients[patch_conn].assemble(p)
                assert got == w
                saved += len(msgpack.packb(w)) - len(msgpack.packb(p))
        return saved


def play(table: Table, rng: random.Random, steps: int) -> tuple[int, int]:
    """Random decisions; returns (decisions, bytes saved)."""
    saved = table.check()
    n = 0
    while table.core.status == "playing" and n < steps:
        seats = table.core.to_act()[1]
        seat = rng.choice(seats)
        legal = table.core._legal(seat)
        table.do(Decide(seat + 1, (A, B)[seat], f"d{n}", table.core._version() or 0,
                        rng.choice(legal)))
        saved += table.check()
        n += 1
    return n, saved


def test_toy_patches_rebuild_every_whole_prompt_and_keep_the_secret() -> None:
    t = Table(MatchCore(toy.GAME, toy.BOTS, match_id="m", config={"board": 30},
                        seed=bytes(32), now=0.0))
    t.check()
    t.do(Decide(1, A, "x", 0, "sprint"))
    to_bob = [m for m in t.got[12] if m["t"] == "prompt"][-1]
    assert "patch" in to_bob
    assert "sprint" not in json.dumps([to_bob["patch"], to_bob["events"]])
    t.check()
    n, _ = play(t, random.Random(1), 400)
    assert t.core.status == "over" and n > 10


def test_kickline_patches_are_a_fraction_of_whole_views() -> None:
    ruleset = games.get("kickline")
    t = Table(MatchCore(ruleset.game, ruleset.bots, match_id="m", config=KICKLINE,
                        seed=bytes(32), now=0.0))
    n, saved = play(t, random.Random(2), 150)
    assert n == 150
    assert saved / n > 4000  # ~3.4 KB per view not sent, for each of two players


def test_a_connection_that_holds_another_view_gets_the_whole_one() -> None:
    t = Table(MatchCore(toy.GAME, toy.BOTS, match_id="m", config={"board": 30},
                        seed=bytes(32), now=0.0))
    t.check()
    t.do(Decide(1, A, "x", 0, "jog"))
    t.do(Decide(2, B, "y", 1, "jog"))
    t.check()
    # A client that missed a prompt cannot apply the next patch; it asks again (open).
    prompts = Prompts()
    t.do(Decide(1, A, "z", t.core._version() or 0, "jog"))
    patch = [m for m in t.got[11] if m["t"] == "prompt"][-1]
    assert prompts.assemble(patch) is None
    t.got.clear()
    t.do(Connect(11, A, since=0, patches=True))
    (again,) = [m for m in t.got[11] if m["t"] == "prompt"]
    assert "view" in again and "patch" not in again
    assert prompts.assemble(again) == again


@pytest.mark.skipif(shutil.which("node") is None, reason="needs node")
def test_the_browser_applies_the_servers_patches_the_same_way(tmp_path: Path) -> None:
    """client/src/patch.js, run in Node on patches of a real Kickline match."""
    ruleset = games.get("kickline")
    core = MatchCore(ruleset.game, ruleset.bots, match_id="m", config=KICKLINE,
                     seed=bytes(32), now=0.0)
    core.handle(Sit(0, A, "A"), 0.0)
    core.handle(Sit(1, B, "B"), 0.0)
    rng = random.Random(3)
    cases = []
    view = ruleset.game.view(core.state, 0)
    for n in range(40):
        seat = rng.choice(core.to_act()[1])
        core.handle(Decide(0, (A, B)[seat], f"d{n}", core._version() or 0,
                           rng.choice(core._legal(seat))), 0.0)
        new = ruleset.game.view(core.state, 0)
        cases.append([view, diff(view, new), new])
        view = new
    (tmp_path / "cases.json").write_text(json.dumps(cases))
    script = tmp_path / "check.mjs"
    script.write_text(
        f"import {{ applyPatch }} from {json.dumps((ROOT / 'client/src/patch.js').as_uri())};\n"
        "import { readFileSync } from 'node:fs';\n"
        f"const cases = JSON.parse(readFileSync({json.dumps(str(tmp_path / 'cases.json'))}));\n"
        "let bad = 0;\n"
        "for (const [view, ops, want] of cases) {\n"
        "  const before = JSON.stringify(view);\n"
        "  const got = applyPatch(view, ops);\n"
        "  if (JSON.stringify(got) !== JSON.stringify(want)) bad++;\n"
        "  if (JSON.stringify(view) !== before) bad++;\n"
        "}\n"
        "console.log(JSON.stringify({ cases: cases.length, bad }));\n")
    out = subprocess.run(["node", str(script)], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout) == {"cases": 40, "bad": 0}
