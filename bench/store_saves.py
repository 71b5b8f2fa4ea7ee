"""CPU time per save of the SQLite store: group commits on the event loop's thread against
commits in a worker thread (``SqliteStore.inline_when``), for batches of 1, 4 and 16
saves made in one loop pass (at 1 000 paced matches the server's commits held 2-15).

    python bench/store_saves.py [--rounds 3] [--saves 3000]

Each save is what a match actor writes for a decision: one ~60-byte log entry, and every
32nd save a 3 KB snapshot.  The figure is the process's CPU time (every thread's, from
``getrusage``) per save, so the worker thread's and the hop's cost count; rounds are
interleaved (thread, loop, thread, loop, ...).  Prints figures; asserts nothing.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "shared"), str(ROOT / "server")]

import anyio  # noqa: E402

from kickline_server.store_sqlite import SqliteStore  # noqa: E402


def cpu_s() -> float:
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


async def per_save(inline: bool, batch: int, saves: int) -> float:
    """CPU µs per save, ``saves`` saves in rounds of ``batch`` concurrent ones."""
    with tempfile.TemporaryDirectory() as tmp:
        store = SqliteStore(Path(tmp) / "k.sqlite3")
        if not inline:
            store.inline_when = None
        ids = [f"m{i}" for i in range(batch)]
        snapshot, entry = b"s" * 3000, b"e" * 60
        for m in ids:
            assert await store.acquire(m, "me", 30)
            await store.save(m, snapshot, [entry], 0, finished=False, owner="me")
        rounds = max(1, saves // batch)
        c0 = cpu_s()
        for r in range(1, rounds + 1):
            async with anyio.create_task_group() as tg:
                for m in ids:
                    tg.start_soon(lambda m=m, r=r: store.save(  # type: ignore[misc]
                        m, None if r % 32 else snapshot, [entry], r, finished=False,
                        owner="me"))
        us = (cpu_s() - c0) / (rounds * batch) * 1e6
        await store.aclose()
        return round(us, 1)


async def main(args: argparse.Namespace) -> None:
    print(json.dumps({"date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
                      "load_average": [round(x, 2) for x in os.getloadavg()]}))
    for batch in (1, 4, 16):
        rows: dict[str, list[float]] = {"thread": [], "loop": []}
        for _ in range(args.rounds):
            rows["thread"].append(await per_save(False, batch, args.saves))
            rows["loop"].append(await per_save(True, batch, args.saves))
        print(json.dumps({"batch": batch, "cpu_us_per_save": rows,
                          "loop_per_thread": round(sorted(rows["loop"])[len(rows["loop"]) // 2]
                                                   / sorted(rows["thread"])[
                                                       len(rows["thread"]) // 2], 2)}))
    print(json.dumps({"load_average_after": [round(x, 2) for x in os.getloadavg()]}))


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--saves", type=int, default=3000)
    anyio.run(main, ap.parse_args())
