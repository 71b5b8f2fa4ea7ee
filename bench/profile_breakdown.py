"""Where a server process's CPU goes, by kind of work, from a py-spy profile.

    py-spy record --pid PID --duration 20 --rate 250 --format raw --output FILE [--native]
    python bench/profile_breakdown.py FILE

Each sample is charged to the innermost frame that belongs to a known kind of work
(with ``--native``: the cyclic collector, ``getpid`` and the socket syscalls, which only
native frames show; then SQLite, the rules package's views, view patches, msgpack, the
match core, the rules' apply/legal, metrics, the actor and lobby, the transport,
websockets, anyio/asyncio/uvloop); samples with none of those are "other".  Samples of
a thread waiting (the loop in ``epoll_wait``, idle worker threads, a thread waiting on a
lock or a pipe) are left out.  Prints the share of each, largest first.
"""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path

WAITS = ("epoll_wait", "Condition.wait", "Event.wait (threading", "_recv_bytes",
         "sem_clock_wait")

KINDS: list[tuple[str, tuple[str, ...]]] = [
    ("cyclic GC", ("gc_collect_main", "collect_with_callback", "gcpolicy.py")),
    ("getpid", ("getpid",)),
    ("socket syscalls", ("__libc_write", "__libc_read", "write (libc", "read (libc",
                         "__send", "__recv", "writev", "sendmsg", "recvmsg", "uv__write",
                         "uv__read", "uv__stream_io")),
    ("SQLite (statements, commits, checkpoints)", ("sqlite3", "store_sqlite.py",
                                                   "fdatasync", "pwrite")),
    ("rules: views", ("kickline/view.py",)),
    ("view patches", ("kickline_server/patch.py",)),
    ("msgpack", ("msgpack", "packb", "unpackb")),
    ("match core", ("kickline_server/core.py", "kickline_server/matchlog.py")),
    ("rules: apply, legal, to_act", ("kickline/",)),
    ("metrics", ("prometheus_client", "kickline_server/metrics.py")),
    ("actor, lobby", ("kickline_server/actor.py", "kickline_server/lobby.py")),
    ("transport, protocol", ("kickline_server/transport.py", "kickline_server/protocol.py")),
    ("websockets", ("websockets/",)),
    ("anyio, asyncio, uvloop (tasks, events, the loop)", (
        "anyio/", "asyncio/", "uvloop", "selectors.py", "contextlib.py", "_asyncio",
        "libuv", "uv_", "sniffio", "to_thread", "threading.py", "concurrent/futures")),
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
        frames = stack.split(";")
        if any(w in f for f in frames for w in WAITS):
            continue
        counts[kind(frames)] += int(n)
    total = sum(counts.values()) or 1
    print(f"{total} samples")
    for name, n in counts.most_common():
        print(f"{100 * n / total:5.1f} %  {name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
