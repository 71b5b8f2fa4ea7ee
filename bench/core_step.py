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
from kickline.bots import BOTS  # noqa: E402
from kickline_server.core import Decide, MatchCore, Persist, Send, Sit  # noqa: E402
from kickline_server.protocol import encode  # noqa: E402
from kickline_server.store import pack  # noqa: E402

CONFIG = {"mode": "training", "board": 7, "teams": ["training", "training"]}


class Match:
    def __init__(self, n: int) -> None:
        self.core = MatchCore(GAME, BOTS, match_id=f"m{n}", config=CONFIG,
                              seed=n.to_bytes(32, "big"), now=0.0,
                              log_window=64, reply_cache=64)  # the server's defaults
        self.rng = random.Random(n)
        self.prompts: dict[int, tuple[Any, list[str]]] = {}
        self.sent = 0
        self.handle(Sit(0, "a", "A", conn=1, re="s0", patches=True))
        self.handle(Sit(1, "b", "B", conn=2, re="s1", patches=True))

    def handle(self, cmd: Any) -> None:
        for e in self.core.handle(cmd, 0.0):
            if isinstance(e, Send):
                encode(e.message)
                if e.message.get("t") == "prompt":
                    self.prompts[e.conn] = (e.message["version"], e.message["legal"])
            elif isinstance(e, Persist) and e.snapshot is not None:
                pack(e.snapshot)

    def decide(self) -> bool:
        """One decision by a seat that owes one; False once the match is over."""
        if self.core.status != "playing":
            return False
        seats = self.core.to_act()[1]
        if not seats:
            return False
        seat = self.rng.choice(seats)
        version, legal = self.prompts[seat + 1]
        self.sent += 1
        self.handle(Decide(seat + 1, "ab"[seat], self.sent, version, self.rng.choice(legal)))
        return True


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
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "callgrind.out")
        cmd = ["valgrind", "--tool=callgrind", "--collect-atstart=no",
               "--toggle-collect=_operator_call", f"--callgrind-out-file={out}",
               sys.executable, __file__, "--inner", "--decisions", str(args.decisions),
               "--matches", str(args.matches)]
        env = dict(os.environ, PYTHONHASHSEED="0")
        done = subprocess.run(cmd, capture_output=True, text=True, env=env, check=True)
    found = re.search(r"Collected : (\d+)", done.stderr)
    if found is None:
        raise SystemExit("valgrind printed no instruction count:\n" + done.stderr[-2000:])
    n = int(done.stdout.strip())
    return {"instructions_per_decision": round(int(found.group(1)) / n), "decisions": n}


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
