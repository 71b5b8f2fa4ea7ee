"""Run the random-play harness over some seeds and print one JSON line per match.

The same lines on CPython and under Pyodide show that the rules play every checked
match identically on both (test_randomplay.py compares them).

    python harness_run.py MODE BOARD FIRST_SEED COUNT
"""

from __future__ import annotations

import json
import sys

from harness import check_match


def main(argv: list[str]) -> int:
    mode, board, first, count = argv[0], int(argv[1]), int(argv[2]), int(argv[3])
    for seed in range(first, first + count):
        st = check_match(board, seed, False, mode)
        print(json.dumps({"mode": mode, "board": board, "seed": seed, "steps": st.steps,
                          "failures": st.failures, "final": st.final}, sort_keys=True))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
