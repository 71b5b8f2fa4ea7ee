"""The match core's own step per decision, in a tight loop: ``MatchCore.handle`` for a
``Decide`` and everything it returns, the replies encoded as the transport encodes them
and a snapshot packed when there is one, over several live matches played in turn (as a
server interleaves them, so no match finds its own state in the rules' one-state memos).

    python bench/core_step.py [--decisions 3000] [--matches 10]     # CPU µs per decision
    python bench/core_step.py --instructions [--decisions 1000]     # under valgrind

Bots choose uniformly among the legal decisions of Kickline training matches (board 7,
seeded); a match that ends is replaced by a new one.  The timed figure is the best of 5
runs (CPU time, the cyclic collector off); ``--instructions`` counts one run's
instructions with callgrind (load-independent), from the first decision to the last.
Prints one JSON line.  Compare checkouts by running each one's copy of this script.
"""

from __future__ import annotations

import argparse
import gc
import json
import operator
import os
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "shared"), str(ROOT / "server"), str(ROOT / "bench")]

import match_memory  # noqa: E402
from decision_step import callgrind  # noqa: E402

from kickline_server.core import Persist, Send  # noqa: E402
from kickline_server.protocol import encode  # noqa: E402
from kickline_server.store import pack  # noqa: E402


class Match(match_memory.Match):
    """``bench/match_memory.py``'s match, its replies encoded and snapshots packed."""

    def handle(self, cmd: Any) -> None:
        for e in self.core.handle(cmd, 0.0):
            if isinstance(e, Send):
                encode(e.message)
                if e.message.get("t") == "prompt":
                    self.prompts[e.conn] = {"version": e.message["version"],
                                            "legal": e.message["legal"]}
            elif isinstance(e, Persist) and e.snapshot is not None:
                pack(e.snapshot)


def play(decisions: int, matches: int) -> int:
    live = [Match(i) for i in range(matches)]
    made, n = 0, matches
    while made < decisions:
        for i, m in enumerate(live):
            if m.decide():
                made += 1
            else:
                live[i] = Match(n)
                n += 1
    return made


def instructions(args: argparse.Namespace) -> dict[str, Any]:
    return callgrind(__file__, ["--decisions", str(args.decisions),
                                "--matches", str(args.matches)])


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--decisions", type=int, default=3000)
    ap.add_argument("--matches", type=int, default=10, help="live matches played in turn")
    ap.add_argument("--instructions", action="store_true",
                    help="count one run's instructions under valgrind instead of timing")
    ap.add_argument("--inner", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    gc.disable()
    play(300, args.matches)  # warm the rules' caches
    if args.inner:  # under callgrind: counted between entering and leaving operator.call
        print(operator.call(play, args.decisions, args.matches))
        return 0
    out: dict[str, Any] = {"decisions": args.decisions, "matches": args.matches,
                           "served_from": str(ROOT)}
    if args.instructions:
        out.update(instructions(args))
    else:
        best = min(_timed(args) for _ in range(5))
        out["cpu_us_per_decision"] = round(best, 1)
        out["load_average"] = [round(x, 2) for x in os.getloadavg()]
    print(json.dumps(out))
    return 0


def _timed(args: argparse.Namespace) -> float:
    t0 = time.thread_time()
    made = play(args.decisions, args.matches)
    return (time.thread_time() - t0) / made * 1e6


if __name__ == "__main__":
    sys.exit(main())
