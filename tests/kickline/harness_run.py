"""Run the random-play harness over some seeds and print one JSON line per match.

The same lines on CPython and under Pyodide show that the rules play every checked
match identically on both (test_randomplay.py compares them).

    python harness_run.py MODE BOARD FIRST_SEED COUNT [MODE BOARD FIRST_SEED COUNT ...]

Several groups in one run share one interpreter: under Pyodide that is one start-up
(about 5 s) instead of one per group.
"""

from __future__ import annotations

import json
import sys

from harness import check_match


def main(argv: list[str]) -> int:
    if not argv or len(argv) % 4:
        print(__doc__, file=sys.stderr)
        return 2
    for i in range(0, len(argv), 4):
        mode, board, first, count = argv[i], int(argv[i + 1]), int(argv[i + 2]), int(argv[i + 3])
        for seed in range(first, first + count):
            st = check_match(board, seed, False, mode)
            print(json.dumps({"mode": mode, "board": board, "seed": seed, "steps": st.steps,
                              "failures": st.failures, "final": st.final}, sort_keys=True),
                  flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
