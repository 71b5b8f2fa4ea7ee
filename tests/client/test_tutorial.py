"""The tutorial's script (client/src/tutorial-script.js) plays through the rules as it
says: each step's prompt comes up in order and accepts the step's decision, and the
match ends in the shootout the last steps teach, won by the player.  Runs the client's
own local-match host (client/py/kpreview.py) on CPython; the browser journey runs the
same in Pyodide."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "client" / "py"))

import kpreview  # noqa: E402


def script() -> dict[str, Any]:
    out = subprocess.run(
        ["node", "--input-type=module", "-e",
         f"import('{ROOT / 'client' / 'src' / 'tutorial-script.js'}')"
         ".then((m) => console.log(JSON.stringify(m.SCRIPT)))"],
        capture_output=True, text=True, check=True, timeout=60)
    data: dict[str, Any] = json.loads(out.stdout)
    return data


def test_the_tutorial_script_plays_to_a_won_shootout() -> None:
    if shutil.which("node") is None:
        pytest.skip("needs node")
    sc = script()
    setup = {"seat": sc["seat"], "names": ["You", "Coach"], "seed": sc["seed"], "plan": sc["plan"]}
    p = json.loads(kpreview.local_new("t", json.dumps(sc["config"]), json.dumps(setup)))
    seen: list[str] = []
    kinds: set[str] = set()
    for step in sc["steps"]:
        if "jump" in step:
            p = json.loads(kpreview.local_jump("t", json.dumps(step["jump"])))
            seen.append(step["id"])
            continue
        assert p["t"] == "prompt" and p["legal"], (step["id"], p.get("status"))
        frame = p["view"]["prompt"]["frame"]
        # Prompts the script leaves free (none so far) would be answered with the first
        # legal decision; a step is met only on its own frame.
        assert frame == step["frame"], (step["id"], frame, p["legal"][:5])
        want = step["expect"]
        choice = next(d for d in p["legal"] if d in want) if want else p["legal"][0]
        p = json.loads(kpreview.local_decide("t", choice, "{}"))
        kinds |= {e["t"] for e in p["events"]}
        seen.append(step["id"])
    assert seen == [s["id"] for s in sc["steps"]]
    assert p["status"] == "over", p["to_act"]
    assert p["result"]["winner"] == sc["seat"] and p["result"]["shootout"], p["result"]
    # The ideas the tutorial promises came up: cards, a tie's dice, a goal, a turnover,
    # tokens, a substitution, a time out, the shootout.
    assert {"reveal", "skill-test", "goal", "steal-turnover", "exhaust", "substitution",
            "time-out", "shootout-test", "shootout-won"} <= kinds | _first_kinds(sc), kinds
    injured = [e for e in _all_events(sc) if e["t"] == "injury-check" and e["injured"]]
    assert injured, "the tutorial shows an injury"


def _first_kinds(sc: dict[str, Any]) -> set[str]:
    """Every event kind of the tutorial, replayed."""
    return {e["t"] for e in _all_events(sc)}


def _all_events(sc: dict[str, Any]) -> list[dict[str, Any]]:
    setup = {"seat": sc["seat"], "names": ["You", "Coach"], "seed": sc["seed"], "plan": sc["plan"]}
    p = json.loads(kpreview.local_new("u", json.dumps(sc["config"]), json.dumps(setup)))
    events = list(p["events"])
    for step in sc["steps"]:
        if "jump" in step:
            p = json.loads(kpreview.local_jump("u", json.dumps(step["jump"])))
        else:
            want = step["expect"]
            choice = next(d for d in p["legal"] if d in want) if want else p["legal"][0]
            p = json.loads(kpreview.local_decide("u", choice, "{}"))
        events += p["events"]
    return events


def test_a_local_match_resumes_from_its_log() -> None:
    if shutil.which("node") is None:
        pytest.skip("needs node")
    sc = script()
    setup = {"seat": 0, "names": ["You", "Coach"], "seed": sc["seed"], "plan": sc["plan"]}
    p = json.loads(kpreview.local_new("r", json.dumps(sc["config"]), json.dumps(setup)))
    for step in sc["steps"][:6]:
        choice = next(d for d in p["legal"] if d in step["expect"])
        p = json.loads(kpreview.local_decide("r", choice, "{}"))
    saved = json.loads(kpreview.local_log("r"))
    again = json.loads(kpreview.local_new("r2", json.dumps(saved["config"]),
                                          json.dumps({**setup, "log": saved["log"]})))
    assert again["view"] == p["view"] and again["legal"] == p["legal"]
    bad = json.loads(kpreview.local_decide("r2", "card bicycle-kick", "{}"))
    assert bad["t"] == "error" and bad["code"] == "illegal_decision"
