"""Engine benchmark: complete random-vs-random training matches per second, one core.

    python bench/engine.py [--matches N] [--mode training|standard|advanced]

Runs ``bench/engine_run.py`` on CPython (this interpreter, in a child process so
nothing else shares its core) and under Pyodide in Node (the npm package the
client serves), on both boards, and prints the absolute figures and the
machine-independent ratio Pyodide/CPython (time per decision; lower is better,
the target is at most 3).  The same seeds give the same matches on both.  A last row
plays greedy-vs-greedy on CPython: a uniformly random coach spends ~90% of its
decisions wandering inside Coaching Choices, so that row shows real play's pace.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
RUN = ROOT / "bench" / "engine_run.py"
sys.path.insert(0, str(ROOT / "tools"))

from pyodide_runner import pyodide_unavailable_reason, run_in_pyodide  # noqa: E402


def _parse(out: str) -> dict[int, dict[str, Any]]:
    rows = [json.loads(line) for line in out.splitlines() if line.startswith("{")]
    return {r["board"]: r for r in rows}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--matches", type=int, default=20,
                    help="matches per board, the same seeds on both runtimes")
    ap.add_argument("--mode", default="training", choices=["training", "standard", "advanced"],
                    help="standard/advanced cycle through the species team pairings")
    args = ap.parse_args()
    mode = f"--mode={args.mode}"
    print(f"mode: {args.mode}")
    cp = subprocess.run([sys.executable, str(RUN), str(args.matches), mode],
                        capture_output=True, text=True, check=True, cwd=ROOT)
    cpy = _parse(cp.stdout)
    gr = subprocess.run([sys.executable, str(RUN), str(args.matches), "--greedy", mode],
                        capture_output=True, text=True, check=True, cwd=ROOT)
    greedy = _parse(gr.stdout)
    reason = pyodide_unavailable_reason()
    pyo: dict[int, dict[str, Any]] = {}
    if reason is None:
        proc = run_in_pyodide(RUN, str(args.matches), mode, timeout=1800)
        if proc.returncode != 0:
            print(proc.stderr, file=sys.stderr)
            return 1
        pyo = _parse(proc.stdout)
    else:
        print(f"Pyodide skipped: {reason}", file=sys.stderr)
    print(f"{'runtime':<10} {'board':>5} {'matches':>8} {'matches/s':>10} {'decisions/s':>12}"
          f" {'steps/s':>9} {'decisions/match':>16}")
    for name, rows in (("CPython", cpy), ("Pyodide", pyo), ("CPy/greedy", greedy)):
        for board, r in sorted(rows.items()):
            print(f"{name:<10} {board:>5} {r['matches']:>8} {r['matches_per_second']:>10}"
                  f" {r['decisions_per_second']:>12} {r['steps_per_second']:>9}"
                  f" {r['decisions'] / r['matches']:>16.0f}")
    for board in sorted(cpy):
        if board in pyo:
            ratio = cpy[board]["decisions_per_second"] / pyo[board]["decisions_per_second"]
            print(f"ratio Pyodide/CPython time per decision, board {board}: {ratio:.2f}"
                  f" (target <= 3)")
    print("runtimes:", next(iter(cpy.values()))["runtime"], "|",
          next(iter(pyo.values()))["runtime"] if pyo else "no Pyodide")
    return 0


if __name__ == "__main__":
    sys.exit(main())
