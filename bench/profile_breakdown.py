"""Where a server process's CPU goes, by kind of work, from a py-spy profile.

    py-spy record --pid PID --duration 20 --rate 250 --format raw --output FILE
    python bench/profile_breakdown.py FILE

Each sample is charged to the innermost frame that belongs to a known kind of work
(the rules package's views, the rules' apply/legal, view patches, msgpack, the match
core, persistence, the actor and lobby, the transport, websockets, anyio/asyncio);
samples with none of those are "other".  Prints the share of each, largest first.
"""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path

KINDS: list[tuple[str, tuple[str, ...]]] = [
    ("rules: views", ("kickline/view.py",)),
    ("rules: apply, legal, to_act", ("kickline/",)),
    ("view patches", ("kickline_server/patch.py",)),
    ("msgpack", ("msgpack/", "packb", "unpackb")),
    ("persistence (store, SQLite, thread hop)", ("store_sqlite.py", "store_redis.py",
                                                  "sqlite3", "to_thread", "threading.py",
                                                  "concurrent/futures")),
    ("match core", ("kickline_server/core.py",)),
    ("actor, lobby", ("kickline_server/actor.py", "kickline_server/lobby.py")),
    ("transport, protocol", ("kickline_server/transport.py", "kickline_server/protocol.py")),
    ("websockets", ("websockets/",)),
    ("anyio, asyncio (tasks, scopes, event loop)", ("anyio/", "asyncio/", "selectors.py")),
]


def kind(frames: list[str]) -> str:
    for frame in reversed(frames):  # innermost first
        for name, needles in KINDS:
            if any(n in frame for n in needles):
                return name
    return "other"


def main() -> int:
    counts: Counter[str] = Counter()
    for line in Path(sys.argv[1]).read_text().splitlines():
        stack, _, n = line.rpartition(" ")
        if not stack or not n.isdigit():
            continue
        counts[kind(stack.split(";"))] += int(n)
    total = sum(counts.values()) or 1
    print(f"{total} samples")
    for name, n in counts.most_common():
        print(f"{100 * n / total:5.1f} %  {name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
