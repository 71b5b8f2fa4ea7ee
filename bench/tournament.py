"""Tournament benchmark: Swiss pairing time per round, and starting a round at scale.

    python bench/tournament.py pairing [--sizes 16,64,256,1000] [--rounds 5] [--seed 1]
    python bench/tournament.py start [--players 1000]

``pairing`` plays Swiss events through the tournament machine with random results
(a few forfeits, half-point byes and withdrawals, as a real evening has) and times each
round's pairing: the whole ``pair`` command, which writes the TRF, runs the gacrux
checker program in a child process and checks its draw. It also times an empty
pairing (two players) to show the fixed cost of the child process (interpreter start
and the networkx import) apart from the pairing work.
"""

from __future__ import annotations

import argparse
import os
import random
import resource
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "server"))
sys.path.insert(0, str(ROOT / "shared"))

from kickline_server.tournament import Tournament  # noqa: E402
from kickline_server.tournament.swiss import GacruxPairer  # noqa: E402


class Driver:
    def __init__(self, players: int, rounds: int, seed: int) -> None:
        self.t = Tournament("bench")
        self.pairer = GacruxPairer(timeout=3600)
        self.rng = random.Random(seed)
        self.n = 0
        self.do("create", settings={"name": f"Bench {players}", "rounds": rounds}, seed=seed)
        for i in range(players):
            self.do("join", role="player", by=f"a{i}", name=f"Player {i}",
                    rating=1000 + self.rng.randrange(1200))

    def do(self, op: str, role: str = "organiser", **kw: Any) -> dict[str, Any]:
        self.n += 1
        cmd = {"op": op, "id": f"c{self.n}", "by": kw.pop("by", "org"), "role": role,
               "at": float(self.n), **kw}
        return self.t.handle(cmd, self.pairer)[1]

    def play(self, rnd: int) -> None:
        for b in self.t.round(rnd).boards:
            if b.result is not None:
                continue
            if self.rng.random() < 0.03:
                self.do("forfeit", role="system", round=rnd, board=b.number,
                        absent=self.rng.choice(["home", "away"]))
                continue
            g = (self.rng.randrange(4), self.rng.randrange(4))
            self.do("result", role="system", round=rnd, board=b.number, match=b.match,
                    result={"kind": "played", "winner": self.rng.choice(["home", "away"]),
                            "goals": list(g), "shootout": g[0] == g[1]})

    def before(self, rnd: int) -> None:
        """A real evening: a few players withdraw or ask for a half-point bye."""
        active = [e.pid for e in self.t.entries.values() if e.status == "active"]
        for pid in self.rng.sample(active, max(0, len(active) // 100)):
            self.do("withdraw", pid=pid)
        active = [e.pid for e in self.t.entries.values() if e.status == "active"]
        for pid in self.rng.sample(active, max(1, len(active) // 50)):
            self.do("request_bye", pid=pid, round=rnd, kind="half")


def child_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def timed(d: Driver, rnd: int) -> tuple[float, float]:
    """Wall seconds of the ``pair`` command, and the CPU seconds its child used (the
    figure a busy machine disturbs less)."""
    c0, t0 = child_cpu(), time.perf_counter()
    d.do("pair", round=rnd)
    return time.perf_counter() - t0, child_cpu() - c0


def pairing(sizes: list[int], rounds: int, seed: int) -> None:
    wall, cpu = timed(Driver(2, 1, seed), 1)
    print(f"fixed cost (2 players: child start + import): {wall:.2f} s wall, "
          f"{cpu:.2f} s CPU")
    print(f"{'players':>7} {'round':>5} {'wall s':>8} {'cpu s':>8}")
    summary = []
    for size in sizes:
        d = Driver(size, rounds, seed)
        times = []
        for rnd in range(1, rounds + 1):
            if rnd > 1:
                d.before(rnd)
            dt, cpu = timed(d, rnd)
            times.append((dt, cpu))
            print(f"{size:>7} {rnd:>5} {dt:>8.2f} {cpu:>8.2f}", flush=True)
            d.do("start", round=rnd)
            d.play(rnd)
        summary.append((size, statistics.mean(w for w, _ in times), max(w for w, _ in times),
                        statistics.mean(c for _, c in times), max(c for _, c in times)))
    print()
    print(f"{'players':>7} {'mean wall':>10} {'max wall':>9} {'mean cpu':>9} {'max cpu':>8}")
    for size, mw, xw, mc, xc in summary:
        print(f"{size:>7} {mw:>10.2f} {xw:>9.2f} {mc:>9.2f} {xc:>8.2f}")


def start_round(players: int) -> None:
    import subprocess
    import tempfile
    import urllib.request

    import anyio
    from websockets.asyncio.client import connect

    from kickline_server.protocol import decode_replies, encode

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, min(hard, 4 * players + 256)), hard))
    port = 8765 + os.getpid() % 1000
    data = tempfile.mkdtemp(prefix="kickline-bench-")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT / "shared"),
                                                          str(ROOT / "server")])}
    server = subprocess.Popen(
        [sys.executable, "-m", "kickline_server.cli", "serve", "--port", str(port),
         "--data-dir", data, "--log-level", "WARNING", "--rate", "1000",
         "--max-connections-per-address", str(players + 50), "--half-open-per-address", "0",
         "--connections-per-minute",
         "0", "--identities-per-hour", "0", "--max-matches", str(players)],
        env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"ws://127.0.0.1:{port}/ws"
    try:
        for _ in range(300):
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=1):
                    break
            except OSError:
                time.sleep(0.1)

        async def hello(ws: Any, **fields: Any) -> dict[str, Any]:
            await ws.send(encode({"t": "hello", "versions": [1], **fields}))
            return decode_replies(await ws.recv())[0]

        async def ask(ws: Any, msg: dict[str, Any]) -> dict[str, Any]:
            await ws.send(encode(msg))
            while True:
                for m in decode_replies(await ws.recv()):
                    if m.get("re") == msg["id"]:
                        return m

        async def run() -> None:
            org = await connect(url, max_size=None)
            await hello(org, name="Club Lead")  # the first account: the organiser
            made = await ask(org, {"t": "tcommand", "id": "mk", "op": "create", "args": {
                "settings": {"name": "Bench", "rounds": 1, "match": {"mode": "training"}}}})
            tid = made["tournament"]
            sockets = []
            t0 = time.perf_counter()
            sem = anyio.Semaphore(32)

            async def enter(i: int) -> None:
                async with sem:
                    ws = await connect(url, max_size=None, open_timeout=60)
                    await hello(ws, name=f"Bench{i:04d}")
                    reply = await ask(ws, {"t": "tcommand", "id": "j", "op": "join",
                                           "tournament": tid})
                    assert reply["t"] == "ack", reply
                    sockets.append(ws)

            async with anyio.create_task_group() as tg:
                for i in range(players):
                    tg.start_soon(enter, i)
            print(f"{players} players connected and entered in "
                  f"{time.perf_counter() - t0:.1f} s")
            t0 = time.perf_counter()
            paired = await ask(org, {"t": "tcommand", "id": "p1", "op": "pair",
                                     "tournament": tid, "args": {"round": 1}})
            assert paired["t"] == "ack", paired
            print(f"round 1 paired (gacrux, through the server) in "
                  f"{time.perf_counter() - t0:.1f} s")
            told: list[float] = []

            async def wait_told(ws: Any) -> None:
                while True:
                    for m in decode_replies(await ws.recv()):
                        if m.get("t") == "next_match":
                            told.append(time.perf_counter())
                            return

            async with anyio.create_task_group() as tg:
                for ws in sockets:
                    tg.start_soon(wait_told, ws)
                t0 = time.perf_counter()
                started = await ask(org, {"t": "tcommand", "id": "s1", "op": "start",
                                          "tournament": tid, "args": {"round": 1}})
                answered = time.perf_counter() - t0
                assert started["t"] == "ack", started
            last = max(told) - t0
            print(f"start round, {players // 2} matches: every match created (the "
                  f"answer) {answered:.2f} s; every player told {last:.2f} s "
                  f"(median player {sorted(told)[len(told) // 2] - t0:.2f} s)")
            for ws in sockets:
                await ws.close()
            await org.close()

        anyio.run(run)
    finally:
        server.terminate()
        server.wait(timeout=30)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="what", required=True)
    p = sub.add_parser("pairing", help="Swiss pairing time per round")
    p.add_argument("--sizes", default="16,64,256,1000")
    p.add_argument("--rounds", type=int, default=5)
    p.add_argument("--seed", type=int, default=1)
    st = sub.add_parser("start", help="start round to every match made and player told")
    st.add_argument("--players", type=int, default=1000)
    args = ap.parse_args()
    print(f"load average: {' '.join(f'{x:.2f}' for x in os.getloadavg())}  "
          f"date: {time.strftime('%Y-%m-%d %H:%M')}")
    if args.what == "pairing":
        pairing([int(x) for x in args.sizes.split(",")], args.rounds, args.seed)
    else:
        start_round(args.players)
    print(f"load average: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
