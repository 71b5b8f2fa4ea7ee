"""The engine's own step per decision, in a tight loop: ``apply`` + both seats' views +
their encoding, as the server does it.

    python bench/decision_step.py [--decisions 1500] [--seed 1] [--repeat 5]
    python bench/decision_step.py --instructions    # under valgrind: load-independent
    python bench/decision_step.py --against DIR [--rounds 5]   # side by side

Plays one random Kickline training match (board 7) to record its decisions and chance
outcomes, then replays them ``--repeat`` times and times each part per decision (CPU
time, best run): ``apply`` (decisions and the chance events they lead to), building
the two seats' views, and encoding them, both ways the server can: whole views
(protocol 1: the view packed per seat) and view patches (protocol 2: the ``patch.diff``
from each seat's previous view, packed), packed as the server packs a frame
(``protocol.encode``).  Prints one JSON line.

``--against DIR`` times another checkout (DIR: its root, e.g. ``git archive REV``
unpacked) side by side with this one: each round runs both scripts once in turn, each
``--repeat`` times, so a change of the machine's load hits both alike; it prints each
one's best over the rounds and ``--instructions`` for both.
"""

from __future__ import annotations

import argparse
import json
import operator
import os
import random
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "shared"), str(ROOT / "server")]

from kickline import GAME  # noqa: E402
from kickline_server.core import dice, sample  # noqa: E402
from kickline_server.patch import diff  # noqa: E402
from kickline_server.protocol import encode  # noqa: E402

CONFIG = {"mode": "training", "board": 7, "teams": ["training", "training"]}


def record(decisions: int, seed: int) -> list[tuple[str, Any, Any]]:
    """One random match's steps: ("d", seat, decision) and ("c", outcome, None)."""
    rng, dice_rng = random.Random(seed), dice(seed.to_bytes(32, "big"))
    state = GAME.setup(CONFIG)
    steps: list[tuple[str, Any, Any]] = []
    made = 0
    while made < decisions:
        ta = GAME.to_act(state)
        if ta.kind == "over":
            break
        if ta.kind == "chance":
            value, _ = sample(dice_rng, GAME.chance_outcomes(state))
            state, _ = GAME.apply_chance(state, value)
            steps.append(("c", value, None))
            continue
        seat = rng.choice(ta.seats)
        decision = rng.choice(list(GAME.legal(state, seat)))
        state, _ = GAME.apply(state, seat, decision)
        steps.append(("d", seat, decision))
        made += 1
    return steps


def replay(steps: list[tuple[str, Any, Any]]) -> dict[str, float]:
    """CPU seconds of each part over the whole replay."""
    clock = time.process_time
    spent = {"apply": 0.0, "views": 0.0, "encode_whole": 0.0, "encode_patch": 0.0}
    pack = encode
    state = GAME.setup(CONFIG)
    last: list[Any] = [GAME.view(state, 0), GAME.view(state, 1)]
    for kind, a, b in steps:
        t0 = clock()
        if kind == "c":
            state, _ = GAME.apply_chance(state, a)
            spent["apply"] += clock() - t0
            continue
        state, _ = GAME.apply(state, a, b)
        t1 = clock()
        views = [GAME.view(state, 0), GAME.view(state, 1)]
        t2 = clock()
        for v in views:
            pack(v)
        t3 = clock()
        for seat, v in enumerate(views):
            pack(diff(last[seat], v))
        t4 = clock()
        last = views
        spent["apply"] += t1 - t0
        spent["views"] += t2 - t1
        spent["encode_whole"] += t3 - t2
        spent["encode_patch"] += t4 - t3
    return spent


def step(steps: list[tuple[str, Any, Any]]) -> None:
    """The protocol-2 step alone, untimed: what ``--instructions`` counts."""
    pack = encode
    view, apply, apply_chance = GAME.view, GAME.apply, GAME.apply_chance
    state = GAME.setup(CONFIG)
    last: list[Any] = [view(state, 0), view(state, 1)]
    for kind, a, b in steps:
        if kind == "c":
            state, _ = apply_chance(state, a)
            continue
        state, _ = apply(state, a, b)
        views = [view(state, 0), view(state, 1)]
        for seat, v in enumerate(views):
            pack(diff(last[seat], v))
        last = views


def instructions(args: argparse.Namespace) -> dict[str, Any]:
    """Run this script under callgrind (``--inner``) and read the instructions counted."""
    return callgrind(__file__, ["--decisions", str(args.decisions), "--seed", str(args.seed)])


def callgrind(script: str, argv: list[str]) -> dict[str, Any]:
    """Run ``script --inner ARGV`` under callgrind, counting what runs inside
    ``operator.call`` (the script calls its measured part through it and prints how
    many decisions that made): instructions per decision."""
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "callgrind.out")
        cmd = ["valgrind", "--tool=callgrind", "--collect-atstart=no",
               "--toggle-collect=_operator_call", f"--callgrind-out-file={out}",
               sys.executable, script, "--inner", *argv]
        env = dict(os.environ, PYTHONHASHSEED="0")
        done = subprocess.run(cmd, capture_output=True, text=True, env=env, check=True)
    found = re.search(r"Collected : (\d+)", done.stderr)
    if found is None:
        raise SystemExit("valgrind printed no instruction count:\n" + done.stderr[-2000:])
    n = int(done.stdout.strip())
    return {"instructions_per_decision": round(int(found.group(1)) / n),
            "decisions": n}


def against(args: argparse.Namespace) -> dict[str, Any]:
    """Time this checkout and ``args.against`` alternately; best per part of each."""
    scripts = {"before": Path(args.against) / "bench" / "decision_step.py",
               "after": Path(__file__).resolve()}
    best: dict[str, dict[str, float]] = {}
    loads = [os.getloadavg()[0]]
    for _ in range(args.rounds):
        for name, script in scripts.items():
            cmd = [sys.executable, str(script), "--decisions", str(args.decisions),
                   "--seed", str(args.seed), "--repeat", str(args.repeat)]
            got = json.loads(subprocess.run(cmd, capture_output=True, text=True,
                                            check=True).stdout)
            mine = best.setdefault(name, {})
            for k, v in got.items():
                if k.endswith("_us"):
                    mine[k] = min(v, mine.get(k, v))
        loads.append(os.getloadavg()[0])
    out: dict[str, Any] = dict(best)
    for name, script in scripts.items():
        cmd = [sys.executable, str(script), "--instructions", "--decisions",
               str(args.decisions), "--seed", str(args.seed)]
        got = json.loads(subprocess.run(cmd, capture_output=True, text=True,
                                        check=True).stdout)
        out[name]["instructions_per_decision"] = got["instructions_per_decision"]
    out.update(rounds=args.rounds, load_average=[round(min(loads), 2), round(max(loads), 2)])
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--decisions", type=int, default=1500)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--instructions", action="store_true",
                    help="count one replay's instructions under valgrind instead of timing")
    ap.add_argument("--against", metavar="DIR",
                    help="another checkout's root: time both side by side")
    ap.add_argument("--rounds", type=int, default=5, help="with --against: rounds of both")
    ap.add_argument("--inner", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.against:
        compared = against(args)
        compared.update(date=time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()))
        print(json.dumps(compared))
        return 0
    if args.instructions:
        counted = instructions(args)
        counted.update(date=time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()))
        print(json.dumps(counted))
        return 0
    steps = record(args.decisions, args.seed)
    if args.inner:
        step(steps)  # warm the caches as the timed runs are warmed
        operator.call(step, steps)
        print(sum(1 for s in steps if s[0] == "d"))
        return 0
    n = sum(1 for s in steps if s[0] == "d")
    runs = [replay(steps) for _ in range(args.repeat)]
    best = {k: min(r[k] for r in runs) / n * 1e6 for k in runs[0]}
    out: dict[str, Any] = {k + "_us": round(v, 1) for k, v in best.items()}
    out["step_whole_us"] = round(best["apply"] + best["views"] + best["encode_whole"], 1)
    out["step_patch_us"] = round(best["apply"] + best["views"] + best["encode_patch"], 1)
    out.update(decisions=n, chance_events=len(steps) - n,
               date=time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
               load_average=round(os.getloadavg()[0], 2))
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
