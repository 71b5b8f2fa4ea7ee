"""Phones loading the page at once from one address (a club's wifi): what the door sees.

    python bench/page_loads.py [--phones 8,16] [--client-dir DIR] [--half-open-cap N]

Serves the built client (``make client``; default the checkout's ``client/``) with a
``kickline serve`` in this process on a free loopback port, every budget at its default
except the two this bench measures (half-open connections and simultaneous websockets
and downloads per address, switched off so nothing is refused).  For each count it
opens that many phones at once in headless Chromium (one browser context each: no
shared cache or sockets) and waits until each page is idle; then it prints the
connections the door accepted, the most connections one address held half-open at once
(TCP accepted, request not read yet) and the most websockets plus downloads one
address held at once, beside the defaults of ``--half-open-per-address`` and
``--max-connections-per-address``.  Loopback: the half-open window is the event loop's
delay in reading a request, which grows with the server's load (note ``uptime``).
``--half-open-cap N`` keeps that cap on instead (e.g. 16, the former default) and
reports what it refused: a page that does not load ends the run with its error.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import anyio

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "server"), str(ROOT / "shared")]

from kickline_server import gate  # noqa: E402
from kickline_server.app import ServerConfig, run_server  # noqa: E402
from kickline_server.budgets import Budgets  # noqa: E402
from kickline_server.config import BY_NAME as OPTIONS  # noqa: E402


class Peaks:
    """Counts what the gate sees, by wrapping its two counting points."""

    def __init__(self) -> None:
        self.accepted = self.half_open = self.held = 0

    @contextmanager
    def watching(self) -> Iterator[None]:
        begins, holding = gate.Gate.handshake_begins, gate.Gate.holding
        peaks = self

        def counted_begins(g: gate.Gate, peer: str) -> bool:
            ok = begins(g, peer)
            peaks.accepted += 1
            peaks.half_open = max(peaks.half_open, max(g.half_open.values(), default=0))
            return ok

        @contextmanager
        def counted_holding(g: gate.Gate, conn: Any) -> Iterator[str]:
            with holding(g, conn) as address:
                peaks.held = max(peaks.held, max(g.connected.values(), default=0))
                yield address

        gate.Gate.handshake_begins = counted_begins  # type: ignore[method-assign,assignment]
        gate.Gate.holding = counted_holding  # type: ignore[method-assign,assignment]
        try:
            yield
        finally:
            gate.Gate.handshake_begins = begins  # type: ignore[method-assign]
            gate.Gate.holding = holding  # type: ignore[method-assign]


async def measure(client_dir: Path, phones: int, cap: int) -> dict[str, Any]:
    peaks = Peaks()
    budgets = dataclasses.replace(Budgets(), half_open_per_address=cap)
    with tempfile.TemporaryDirectory(prefix="kickline-pages-") as tmp, peaks.watching():
        config = ServerConfig(host="127.0.0.1", port=0, data_dir=Path(tmp),
                              client_dir=client_dir, budgets=budgets,
                              max_connections_per_address=1_000_000)
        stop = anyio.Event()
        async with anyio.create_task_group() as tg:
            port = await tg.start(run_server, config, stop)
            done = await anyio.run_process(
                ["node", str(ROOT / "bench" / "page_loads.mjs"),
                 f"http://127.0.0.1:{port}/", str(phones)], check=False)
            stop.set()
    if done.returncode:
        raise SystemExit(f"page_loads.mjs failed: {done.stderr.decode()[-400:]}")
    loads = json.loads(done.stdout)
    return {**loads, "accepted": peaks.accepted, "half_open": peaks.half_open,
            "held": peaks.held, "load": os.getloadavg()[0]}


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--phones", default="8,16", help="phones at once, comma-separated")
    p.add_argument("--client-dir", type=Path, default=ROOT / "client")
    p.add_argument("--half-open-cap", type=int, default=0,
                   help="keep this half-open cap on (0: off, to measure)")
    args = p.parse_args()
    if not (args.client_dir / "build" / "manifest.json").is_file():
        raise SystemExit(f"no built client in {args.client_dir}: run `make client`")
    d = Budgets()
    cap = OPTIONS["max_connections_per_address"].default
    for n in (int(x) for x in args.phones.split(",")):
        r = anyio.run(measure, args.client_dir, n, args.half_open_cap)
        print(f"{n} phones at once: {r['seconds']:.1f} s, {r['failed']} requests failed, "
              f"{r['accepted']} connections; most from one address at once: half-open "
              f"{r['half_open']} (default cap {d.half_open_per_address}), websockets and "
              f"downloads {r['held']} (default cap {cap})"
              f"; load {r['load']:.1f}")
    subprocess.run(["uptime"], check=False)


if __name__ == "__main__":
    main()
