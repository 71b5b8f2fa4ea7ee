"""The random-play harness's big sample, and what the suite's smaller sample covers of it.

The suite (tests/kickline/test_randomplay.py) plays 400 training and 240 standard and
advanced matches per board; this plays the big sample the suite used to (2 000 and
480 per board, seeds from 0, so the suite's seeds are its first ones), checks the same
engine contract on every match, and prints per mode and board: matches, steps,
failures, seconds, and how many distinct ``event@law`` pairs each sample produced,
listing any the big sample reached and the small one did not.

    nice python bench/randomplay.py [--scale 0.25]     # exit 1 on any failing match

``--scale`` shrinks the big sample (never below the suite's) for a quicker look.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "tests" / "kickline"), str(ROOT / "shared")]

from harness import run_many  # noqa: E402
from test_randomplay import CHUNK, MATCHES  # noqa: E402

BIG = {"training": 2000, "standard": 480, "advanced": 480}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--scale", type=float, default=1.0,
                    help="fraction of the big sample to play (1.0)")
    args = ap.parse_args(argv)
    failed = 0
    workers = os.cpu_count() or 1
    print(f"load average {os.getloadavg()[0]:.2f}, {workers} cores", flush=True)
    with ProcessPoolExecutor(max_workers=workers) as pool:
        for mode, big in BIG.items():
            small = MATCHES[mode]
            n = max(small, int(big * args.scale) // 16 * 16)
            for board in (7, 9):
                start = time.monotonic()
                chunks = [range(i, min(i + CHUNK, n)) for i in range(0, n, CHUNK)]
                results: list[dict[str, Any]] = list(pool.map(
                    run_many, [board] * len(chunks), chunks, [False] * len(chunks),
                    [mode] * len(chunks)))
                seconds = time.monotonic() - start
                covered_big: set[str] = set().union(*(r["covered"] for r in results))
                covered_small: set[str] = set().union(
                    *(r["covered"] for r, c in zip(results, chunks, strict=True)
                      if c.start < small))
                failures = [f for r in results for f in r["failures"]]
                failed += len(failures)
                steps = sum(r["steps"] for r in results)
                missing = sorted(covered_big - covered_small)
                print(f"{mode:9} board {board}: {n} matches, {steps} steps, "
                      f"{len(failures)} failing, {seconds:.0f} s; event@law pairs: "
                      f"{len(covered_big)} in {n}, {len(covered_small)} in the suite's "
                      f"{small}" + (f"; not in the suite's: {', '.join(missing)}"
                                    if missing else ""), flush=True)
                for f in failures[:5]:
                    print("  ", f)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
