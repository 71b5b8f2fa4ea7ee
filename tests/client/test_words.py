"""Every event the rules engine can emit reads as plain words in the client's log.

The event kinds are found two ways: statically, every ``ev("kind", ...)`` in the rules
package's source; and by playing seeded random matches in all three modes (every
species pairing in standard and advanced mode), which also gives real events with real
views.  ``client/src/lang/en.js`` must have words for each kind, and no sample may come
out with raw engine fields (player ids, field names, JSON) or as a fallback.
"""

from __future__ import annotations

import json
import random
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

import kickline
from kickline.roster import SPECIES_TEAMS

ROOT = Path(__file__).resolve().parents[2]
RULES = ROOT / "shared" / "kickline"
# Kinds whose silence is deliberate: the decision itself (its effects are narrated), a
# forced one-option decision, a die whose face the roll it decides shows, and the
# per-turn gambit notice when neither side holds gambits.
SILENT = {"decision", "forced", "roll", "gambits"}


def static_kinds() -> set[str]:
    kinds: set[str] = set()
    for f in RULES.rglob("*.py"):
        kinds |= set(re.findall(r'\bev\(\s*"([a-z][a-z-]*)"', f.read_text()))
    return kinds


def static_laws() -> set[str]:
    laws: set[str] = set()
    for f in RULES.rglob("*.py"):
        laws |= set(re.findall(r'\bev\(\s*"[a-z][a-z-]*",\s*"([0-9.]+)"', f.read_text()))
    return laws


def sample_events(seed: int = 11, decisions: dict[str, list[dict[str, Any]]] | None = None
                  ) -> dict[str, list[dict[str, Any]]]:
    """Events by kind from random matches; `decisions` collects, by decision kind (the
    first word of a legal decision), a few legal decisions with the deciding seat's view."""
    rng = random.Random(seed)
    configs: list[dict[str, Any]] = [{"mode": "training", "board": b} for b in (7, 9)]
    for mode in ("standard", "advanced"):
        for a in SPECIES_TEAMS:
            for b in SPECIES_TEAMS:
                configs.append({"mode": mode, "board": rng.choice((7, 9)), "teams": [a, b]})
    samples: dict[str, list[dict[str, Any]]] = {}
    for cfg in configs:
        s = kickline.new_game(cfg)
        while True:
            kind, seats, _ = kickline.to_act(s)
            if kind == "over":
                break
            if kind == "chance":
                s, events = kickline.apply_chance(s, rng.choice(kickline.chance(s)[2]))
            else:
                legal = kickline.legal(s, seats[0])
                if decisions is not None:
                    for d in legal:
                        got_d = decisions.setdefault(d.split(" ")[0], [])
                        if len(got_d) < 3 and d not in {x["decision"] for x in got_d}:
                            got_d.append({"decision": d, "view": kickline.view(s, seats[0])})
                s, events = kickline.apply(s, seats[0], rng.choice(legal))
            for e in events:
                got = samples.setdefault(e["t"], [])
                if len(got) < 3:
                    got.append({"event": e, "view": kickline.view(s, 0) if not got else None})
    return samples


def test_every_event_kind_has_plain_words() -> None:
    if shutil.which("node") is None:
        pytest.skip("needs node")
    kinds = static_kinds()
    decisions: dict[str, list[dict[str, Any]]] = {}
    samples = sample_events(decisions=decisions)
    laws = static_laws() | {e["event"]["law"] for got in samples.values() for e in got
                            if e["event"].get("law")}
    assert len(laws) > 40 and len(decisions) > 25, (laws, decisions)
    assert len(kinds) > 80, kinds  # the scan still finds the engine's events
    assert set(samples) - kinds <= {"deflect"}, set(samples) - kinds  # named through a variable
    done = subprocess.run(["node", str(ROOT / "tests" / "client" / "narrate_check.mjs")],
                          input=json.dumps({"samples": samples, "static": sorted(kinds),
                                            "laws": sorted(laws),
                                            "decisions": decisions}),
                          capture_output=True, text=True, timeout=60, check=True)
    out = json.loads(done.stdout)
    assert out["missing"] == [], f"event kinds with no words: {out['missing']}"
    assert out["raw"] == [], "lines with raw engine fields:\n" + "\n".join(
        f"{r['kind']}: {r['text']}" for r in out["raw"])
    # "Why did that happen?": every law an event cites opens its entry on the rules page.
    assert out["no_law_entry"] == [], f"laws cited with no rules entry: {out['no_law_entry']}"
    # Every decision kind says in one line what it does and costs.
    assert out["no_help"] == [], f"decision kinds with no explanation: {out['no_help']}"
    # Every choice on a button reads in plain words, with players' names.
    assert out["raw_decisions"] == [], "decisions shown with raw engine text:\n" + "\n".join(
        f"{r['decision']}: {r['text']}" for r in out["raw_decisions"])
    assert len(out["described"]) == len(decisions), set(decisions) - set(out["described"])
    assert set(out["silent"]) <= SILENT, set(out["silent"]) - SILENT
    # The samples cover nearly every kind, so the words were really exercised.
    assert len(out["lines"]) >= len(kinds) - 6, sorted(kinds - set(out["lines"]))
