"""The chaos campaign: bot matches through server and Redis kills and a full disk, each
result compared with the same match played without faults.

    python bench/chaos.py [--matches N] [--game toy|kickline] [--kills K]
                          [--redis] [--redis-kills R] [--disk-full S] [--fuzz F]
                          [--deadline T] [--seed X]

1. **Twins.**  A fresh ``kickline serve`` (a child process, loopback, a temp data
   directory, the dice seed fixed with the test-only ``--insecure-fixed-seed``) plays
   ``N`` matches between seeded bots (``kickline.botclient``: each match is created by
   bot ``A<i>`` and joined by bot ``B<i>`` by its invite code, so the pairs and every
   choice are the same in both runs; the bots' dice contributions come from their seeds
   too).  Their results and public logs are the reference.
2. **Chaos.**  The same ``N`` matches on another fresh server, while this script injects
   faults at random moments (``--seed``): ``K`` SIGKILLs of the server, each followed by
   a restart on the same port and data; with ``--redis`` the store is a private
   ``redis-server`` (AOF, fsync always) killed ``R`` times with SIGKILL and restarted;
   and a **disk-full window** of ``S`` seconds: the process that writes the store (the
   server for SQLite, ``redis-server`` for Redis) gets a file-size limit of 4 KiB
   (``prlimit(RLIMIT_FSIZE)``: every write past it fails with ``EFBIG``, as on a full
   disk; nothing is mounted, no privileges needed), lifted when the window ends.
   Meanwhile a **fuzzer** client sends ``F`` random messages (some aimed at the live
   matches) and checks each answer.  The bots reconnect on their own, resend what was
   not acknowledged, and finish.

Printed: inputs tried (bot decisions and fuzzer messages), clear errors (documented
refusals the fuzzer got), server exceptions (tracebacks or ``internal`` answers),
faults injected, matches lost (not finished by the deadline, or a bot gave up) and
results different from their twins.  Exit status 0 only if the last three are 0.
Loopback only, bounded in count and time (``--deadline`` per run), stops by itself.
"""

from __future__ import annotations

import argparse
import os
import random
import resource
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import anyio
import msgpack  # type: ignore[import-untyped]

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "server"), str(ROOT / "shared")]

from kickline_server.botclient import BotError, BotState, play  # noqa: E402
from kickline_server.protocol import SCHEMAS, decode_replies  # noqa: E402

SEED_HEX = "c4a05" * 12 + "c4a0"  # 32 bytes: every match's server seed, in both runs
NO_BUDGETS = {  # every bot comes from 127.0.0.1: the per-address budgets would refuse
    "CONNECTIONS_PER_MINUTE": "0", "HALF_OPEN_PER_ADDRESS": "0", "IDENTITIES_PER_HOUR": "0",
    "CREATES_PER_HOUR": "0", "CREATES_PER_HOUR_PER_ADDRESS": "0", "WAITING_PER_PLAYER": "0",
    "WAITING_PER_ADDRESS": "0", "LIVE_PER_PLAYER": "0", "LIVE_PER_ADDRESS": "0",
    "CODE_MISSES_PER_MINUTE": "0", "CODE_MISSES_PER_MINUTE_PER_ADDRESS": "0",
    "WATCHES_PER_MINUTE": "0",
    "WATCHES_PER_MINUTE_PER_ADDRESS": "0", "MAX_CONNECTIONS_PER_ADDRESS": "100000",
    "RATE": "2000",
}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class Tally:
    inputs: int = 0
    decisions: int = 0
    clear: Counter[str] = field(default_factory=Counter)
    internal: int = 0
    faults: list[str] = field(default_factory=list)
    slow: list[tuple[float, Any]] = field(default_factory=list)
    fuzz_errors: Counter[str] = field(default_factory=Counter)


class Redis:
    """A private redis-server, AOF with an fsync per write, killable."""

    def __init__(self, workdir: Path) -> None:
        self.workdir = workdir
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        binary = shutil.which("redis-server")
        if binary is None:
            raise SystemExit("chaos: --redis needs redis-server (apt-get install redis-server)")
        self.proc = subprocess.Popen(
            [binary, "--port", str(self.port), "--bind", "127.0.0.1", "--dir",
             str(self.workdir), "--appendonly", "yes", "--appendfsync", "always", "--save", ""],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        _wait_port(self.port)

    def kill(self) -> None:
        if self.proc is not None:
            self.proc.kill()
            self.proc.wait()
            self.proc = None

    async def config(self, name: str, value: str) -> None:
        import redis.asyncio as aioredis

        r = aioredis.Redis.from_url(self.url)
        try:
            await r.config_set("maxmemory-policy", "noeviction")
            await r.config_set(name, value)
        finally:
            await r.aclose()


class Server:
    """``kickline serve`` as a child process, restartable on the same port and data."""

    def __init__(self, data: Path, port: int, redis: Redis | None, log: Path) -> None:
        self.data, self.port, self.redis, self.log_path = data, port, redis, log
        self.proc: subprocess.Popen[bytes] | None = None
        self.log = log.open("ab")

    def start(self, *, retries: int = 20) -> None:
        """Start (again), retrying as ``Restart=on-failure`` would while the server
        cannot start (its Redis is still down)."""
        for attempt in range(retries):
            try:
                self._start()
                return
            except StartFailed:
                if attempt == retries - 1:
                    raise
                time.sleep(1.0)

    def _start(self) -> None:
        env = dict(os.environ, **{f"KICKLINE_{k}": v for k, v in NO_BUDGETS.items()},
                   PYTHONPATH=f"{ROOT / 'server'}:{ROOT / 'shared'}")
        cmd = [sys.executable, "-m", "kickline_server.cli", "serve", "--host", "127.0.0.1",
               "--port", str(self.port), "--data-dir", str(self.data),
               "--insecure-fixed-seed", SEED_HEX, "--lease-ttl", "2"]
        if self.redis is not None:
            cmd += ["--redis-url", self.redis.url]
        self.proc = subprocess.Popen(cmd, stdout=self.log, stderr=self.log, cwd=ROOT, env=env)
        _wait_port(self.port, self.proc, self.log_path)

    def kill(self) -> None:
        if self.proc is not None:
            self.proc.kill()
            self.proc.wait()
            self.proc = None

    def stop(self) -> None:
        if self.proc is not None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
            self.proc = None
        self.log.close()

    def tracebacks(self) -> int:
        return self.log_path.read_bytes().count(b"Traceback (most recent call last)")


class StartFailed(RuntimeError):
    """A child process exited before it listened."""


def _wait_port(port: int, proc: subprocess.Popen[bytes] | None = None,
               log: Path | None = None) -> None:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if proc is not None and proc.poll() is not None:
            why = log.read_text(errors="replace").strip().splitlines()[-1] if log else ""
            raise StartFailed(f"chaos: the process on port {port} exited at start"
                              f"{f' ({why})' if why else ''}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return
        except OSError:
            time.sleep(0.05)
    raise SystemExit(f"chaos: nothing listens on port {port}")


def _fsize(pid: int, limit: int) -> None:
    """The file-size limit of process ``pid`` (soft; the hard limit stays)."""
    _soft, hard = resource.prlimit(pid, resource.RLIMIT_FSIZE)
    resource.prlimit(pid, resource.RLIMIT_FSIZE, (limit, hard))


async def play_matches(url: str, args: argparse.Namespace, tally: Tally,
                       deadline: float) -> dict[int, dict[str, Any] | None]:
    """Every match, concurrently; ``None`` for a match lost."""
    config = ({"mode": "training", "board": 60} if args.game == "toy" else
              {"mode": "training", "board": 7, "teams": ["training", "training"]})
    results: dict[int, dict[str, Any] | None] = {}

    async def one(i: int) -> None:
        codes: list[str] = []
        states = [BotState(), BotState()]

        async def creator() -> None:
            over = await play(url, how="create", game=args.game, config=config,
                              name=f"a{i}", seed=f"A{i}", state=states[0],
                              on_code=lambda m, c: codes.append(c), reconnect_timeout=120)
            results[i] = over

        async def joiner() -> None:
            while not codes:
                await anyio.sleep(0.01)
            await play(url, how="join", code=codes[0], game=args.game, config=config,
                       name=f"b{i}", seed=f"B{i}", state=states[1], reconnect_timeout=120)

        try:
            with anyio.fail_after(max(1.0, deadline - time.monotonic())):
                async with anyio.create_task_group() as tg:
                    tg.start_soon(creator)
                    tg.start_soon(joiner)
        except (BotError, TimeoutError, ExceptionGroup) as exc:
            print(f"  match {i} lost: {exc!r}"[:300], flush=True)
            results[i] = None
        tally.decisions += states[0].decisions + states[1].decisions

    async with anyio.create_task_group() as tg:
        for i in range(args.matches):
            tg.start_soon(one, i)
    return results


def _random_message(rng: random.Random) -> dict[str, Any]:
    def value(depth: int = 0) -> Any:
        kind = rng.randrange(8 if depth < 3 else 5)
        if kind == 5:
            return [value(depth + 1) for _ in range(rng.randrange(3))]
        if kind == 6:
            return {rng.choice(["match", "id", "x", "code"]): value(depth + 1)}
        if kind == 7:
            return bytes(rng.randrange(3))  # not allowed: the frame closes the connection
        return [None, rng.random() < 0.5, rng.randrange(-9, 2**40),
                "".join(rng.choice("ab cé-XYZ0") for _ in range(rng.randrange(9))),
                rng.random()][kind]

    msg: dict[str, Any] = {"t": rng.choice([*SCHEMAS, "nope"]), "id": rng.randrange(999)}
    for name in rng.sample(sorted({n for s in SCHEMAS.values() for n in s}), rng.randrange(4)):
        msg[name] = value()
    return msg


async def fuzz(url: str, n: int, rng: random.Random, tally: Tally, stop: anyio.Event) -> None:
    """``n`` random messages, one at a time, each followed by a ping (so its answers are
    in before the pong); reconnects through the faults."""
    from websockets.asyncio.client import connect
    from websockets.exceptions import ConnectionClosed

    sent = 0
    token: str | None = None
    while sent < n and not stop.is_set():
        try:
            async with connect(url, max_size=None, open_timeout=5) as ws:
                hello: dict[str, Any] = {"t": "hello", "versions": [1, 2]}
                hello.update({"token": token} if token else
                             {"name": f"fuzzer {rng.randrange(10**9)}"})
                await ws.send(msgpack.packb(hello))
                welcome = decode_replies(await ws.recv())[0]
                # Refused (its own random signout_everywhere revoked the token): a new
                # identity next time, not the same refusal over and over.
                token = welcome.get("token") if welcome.get("t") == "welcome" else None
                while sent < n and not stop.is_set():
                    msg = _random_message(rng)
                    began = time.monotonic()
                    await ws.send(msgpack.packb(msg, use_bin_type=True))
                    sent += 1
                    tally.inputs += 1
                    await ws.send(msgpack.packb({"t": "ping"}))
                    done = False
                    while not done:
                        with anyio.fail_after(30):
                            frame = await ws.recv()
                        for m in decode_replies(frame):
                            if m.get("t") == "pong":
                                done = True
                            elif m.get("t") == "error":
                                if m.get("code") == "internal":
                                    tally.internal += 1
                                else:
                                    tally.clear[m.get("code", "?")] += 1
                    if time.monotonic() - began > 5:
                        tally.slow.append((round(time.monotonic() - began, 1), msg))
                    await anyio.sleep(0.01)
        except ConnectionClosed as exc:
            code = exc.rcvd.code if exc.rcvd is not None else None
            if code is not None:  # closed by the server, with a documented close code
                tally.clear[f"close {code}"] += 1
            else:
                tally.fuzz_errors["dropped"] += 1
            await anyio.sleep(0.05)
        except Exception as exc:
            tally.fuzz_errors[type(exc).__name__] += 1
            await anyio.sleep(0.05)  # a fault, or a frame it closed for: again


async def inject(args: argparse.Namespace, server: Server, redis: Redis | None,
                 rng: random.Random, tally: Tally, stop: anyio.Event, run_for: float) -> None:
    """The faults, at random moments spread over ``run_for`` seconds."""
    plan = (["server"] * args.kills + ["redis"] * (args.redis_kills if redis else 0)
            + (["disk"] if args.disk_full > 0 else []))
    rng.shuffle(plan)
    moments = sorted(rng.uniform(0.1, 0.9) * run_for for _ in plan)
    t0 = time.monotonic()
    for what, at in zip(plan, moments, strict=True):
        await anyio.sleep(max(0.0, t0 + at - time.monotonic()))
        if stop.is_set():
            return
        if what == "server":
            server.kill()
            tally.faults.append(f"{time.monotonic() - t0:6.1f}s server SIGKILL")
            await anyio.sleep(rng.uniform(0.0, 1.0))
            await anyio.to_thread.run_sync(server.start)
        elif what == "redis":
            assert redis is not None
            redis.kill()
            tally.faults.append(f"{time.monotonic() - t0:6.1f}s redis-server SIGKILL")
            await anyio.sleep(rng.uniform(0.2, 1.0))
            await anyio.to_thread.run_sync(redis.start)
        elif redis is not None:  # Redis's "disk": its memory (an FSIZE limit kills it)
            await redis.config("maxmemory", "1")
            tally.faults.append(f"{time.monotonic() - t0:6.1f}s redis full (maxmemory) for "
                                f"{args.disk_full:g}s")
            await anyio.sleep(args.disk_full)
            await redis.config("maxmemory", "0")
        else:
            proc = server.proc
            assert proc is not None
            _fsize(proc.pid, 4096)
            tally.faults.append(f"{time.monotonic() - t0:6.1f}s disk full for "
                                f"{args.disk_full:g}s (the server's files)")
            await anyio.sleep(args.disk_full)
            if proc.poll() is None:
                _fsize(proc.pid, resource.RLIM_INFINITY)


async def run(args: argparse.Namespace, *, chaos: bool, tmp: Path, tally: Tally
              ) -> tuple[dict[int, dict[str, Any] | None], int]:
    work = tmp / ("chaos" if chaos else "twins")
    work.mkdir()
    redis = Redis(work) if args.redis else None
    if redis is not None:
        redis.start()
    server = Server(work / "data", free_port(), redis, work / "server.log")
    server.start()
    url = f"ws://127.0.0.1:{server.port}/ws"
    stop = anyio.Event()
    deadline = time.monotonic() + args.deadline
    rng = random.Random(args.seed)
    results: dict[int, dict[str, Any] | None] = {}
    try:
        async with anyio.create_task_group() as tg:
            fuzzed = anyio.Event()
            if chaos:
                tg.start_soon(inject, args, server, redis, rng, tally, stop,
                              args.fault_window)

                async def fuzzer() -> None:
                    await fuzz(url, args.fuzz, random.Random(args.seed + 1), tally, stop)
                    fuzzed.set()
                tg.start_soon(fuzzer)
            else:
                fuzzed.set()
            results = await play_matches(url, args, tally, deadline)
            with anyio.move_on_after(max(0.0, deadline - time.monotonic())):
                await fuzzed.wait()
            stop.set()
            tg.cancel_scope.cancel()
    finally:
        tracebacks = server.tracebacks()
        server.stop()
        if redis is not None:
            redis.kill()
    return results, tracebacks


def canonical(log: list[dict[str, Any]]) -> list[Any]:
    """A log up to the order in which simultaneous secret choices reached the server
    (that order, and so the versions, may differ between runs; nothing else may): each
    run of consecutive decisions becomes the sorted list of (seat, decision, by)."""
    out: list[Any] = []
    run: list[tuple[Any, ...]] = []
    for e in log:
        if e["k"] == "d":
            run.append((e["s"], e["d"], e["by"]))
            continue
        if run:
            out.append(sorted(run))
            run = []
        out.append({k: v for k, v in e.items() if k != "v"})
    if run:
        out.append(sorted(run))
    return out


def same(a: dict[str, Any], b: dict[str, Any]) -> bool:
    return (a["result"] == b["result"] and canonical(a["log"]) == canonical(b["log"])
            and a.get("contributions") == b.get("contributions"))


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--matches", type=int, default=20)
    p.add_argument("--game", choices=["toy", "kickline"], default="toy")
    p.add_argument("--kills", type=int, default=3, help="server SIGKILLs (3)")
    p.add_argument("--redis", action="store_true", help="keep matches in a redis-server")
    p.add_argument("--redis-kills", type=int, default=2, help="redis-server SIGKILLs (2)")
    p.add_argument("--disk-full", type=float, default=3.0,
                   help="seconds of the disk-full window (3; 0: none)")
    p.add_argument("--fuzz", type=int, default=500, help="fuzzer messages (500)")
    p.add_argument("--fault-window", type=float, default=None,
                   help="seconds over which the faults are spread (default: 80%% of the "
                        "twins' run, so they fall while the matches are played)")
    p.add_argument("--deadline", type=float, default=300.0, help="seconds per run (300)")
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args()

    twins_tally, tally = Tally(), Tally()
    with tempfile.TemporaryDirectory(prefix="kickline-chaos-") as tmp:
        t0 = time.monotonic()
        twins, twin_tb = anyio.run(lambda: run(args, chaos=False, tmp=Path(tmp),
                                               tally=twins_tally))
        t1 = time.monotonic()
        if args.fault_window is None:  # the faults fall while the matches are played
            args.fault_window = 0.8 * (t1 - t0)
        got, tracebacks = anyio.run(lambda: run(args, chaos=True, tmp=Path(tmp), tally=tally))
        t2 = time.monotonic()
    lost = [i for i in range(args.matches) if got.get(i) is None]
    no_twin = [i for i in range(args.matches) if twins.get(i) is None]
    different = [i for i in range(args.matches)
                 if got.get(i) is not None and twins.get(i) is not None
                 and not same(got[i], twins[i])]  # type: ignore[arg-type]
    exceptions = tracebacks + tally.internal
    print(f"chaos: {args.matches} {args.game} matches, {'redis' if args.redis else 'sqlite'} "
          f"store, seed {args.seed}; twins {t1 - t0:.1f}s, chaos {t2 - t1:.1f}s")
    print(f"inputs tried:        {tally.decisions + tally.inputs} (bot decisions "
          f"{tally.decisions}, fuzzer messages {tally.inputs})")
    print(f"clear errors:        {sum(tally.clear.values())} "
          f"({', '.join(f'{k} {v}' for k, v in tally.clear.most_common())})")
    print(f"server exceptions:   {exceptions} (tracebacks in the server's log {tracebacks}, "
          f"internal answers {tally.internal}; twins run: {twin_tb} tracebacks)")
    print(f"fuzzer: connections closed or broken {dict(tally.fuzz_errors)}; answers slower "
          f"than 5 s: {len(tally.slow)} {tally.slow[:3]}")
    print(f"faults injected:     {len(tally.faults)}")
    for f in tally.faults:
        print(f"    {f}")
    print(f"matches lost:        {len(lost)}{' ' + str(lost) if lost else ''}"
          f"{f' (twins lost {no_twin})' if no_twin else ''}")
    print(f"results different:   {len(different)}{' ' + str(different) if different else ''}")
    for i in different[:3]:
        a, b = twins[i], got[i]
        assert a is not None and b is not None
        ca, cb = canonical(a["log"]), canonical(b["log"])
        at = next((k for k, (x, y) in enumerate(zip(ca, cb, strict=False)) if x != y),
                  min(len(ca), len(cb)))
        print(f"    match {i}: first difference at step {at}: twin {ca[at:at + 1]}, "
              f"chaos {cb[at:at + 1]}; results {a['result']} / {b['result']}")
    return 0 if not lost and not different and not exceptions and not no_twin else 1


if __name__ == "__main__":
    sys.exit(main())
