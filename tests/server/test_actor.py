"""The actor: persists before it answers, retries an unreachable store, fires timers,
stops when its lease is lost."""

from __future__ import annotations

import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import anyio
import pytest

from kickline_server import toy
from kickline_server.actor import Actor, ActorLimits
from kickline_server.core import Clock, Connect, Decide, MatchCore, Resign, Sit
from kickline_server.store import Store, StoreUnavailable
from kickline_server.store_sqlite import SqliteStore

pytestmark = pytest.mark.anyio


class Peer:
    def __init__(self, id: int) -> None:
        self.id = id
        self.got: list[dict[str, Any]] = []

    def push(self, message: dict[str, Any]) -> None:
        self.got.append(message)


async def until(cond: Any) -> None:
    while not cond():
        await anyio.sleep(0.005)


class GatedStore:
    """A store whose saves wait for a gate, and fail while ``down``."""

    def __init__(self, inner: Store) -> None:
        self.inner = inner
        self.leases_expire = True
        self.gate = anyio.Event()
        self.down = False
        self.saves = 0
        self.held = True

    async def save(self, match_id: str, snapshot: bytes | None, entries: Sequence[bytes],
                   start: int, *, finished: bool, owner: str) -> None:
        await self.gate.wait()
        if self.down:
            raise StoreUnavailable("down for the test")
        await self.inner.save(match_id, snapshot, entries, start, finished=finished,
                              owner=owner)
        self.saves += 1

    async def acquire(self, match_id: str, owner: str, ttl: float) -> bool:
        return self.held and await self.inner.acquire(match_id, owner, ttl)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)


def core(**kw: Any) -> MatchCore:
    return MatchCore(toy.GAME, toy.BOTS, match_id="m1", config={"board": 30},
                     seed=b"s" * 32, now=time.time(), **kw)


async def test_nothing_is_answered_before_it_is_persisted(tmp_path: Path) -> None:
    inner = SqliteStore(tmp_path / "db")
    store = GatedStore(inner)
    assert await inner.acquire("m1", "me", 30)
    a, b = Peer(1), Peer(2)
    actor = Actor(core(), store, owner="me", limits=ActorLimits(retry_min=0.01))
    with anyio.fail_after(10):
        async with anyio.create_task_group() as tg:
            await tg.start(actor.run)
            assert actor.offer(Sit(0, "a", "A", conn=1, re="c"), a)
            await anyio.sleep(0.05)
            assert a.got == []  # the save is held at the gate: no answer yet
            store.down = True
            store.gate.set()
            await anyio.sleep(0.05)
            assert a.got == [] and store.saves == 0  # failing saves are retried, unanswered
            store.down = False
            await until(lambda: a.got)
            assert a.got[0]["t"] == "ack" and store.saves == 1
            assert actor.offer(Sit(1, "b", "B", conn=2, re="j"), b)
            await until(lambda: any(m["t"] == "prompt" and m["legal"] for m in b.got))
            stored = await inner.load("m1")
            assert stored is not None
            tg.cancel_scope.cancel()
    await inner.aclose()


async def test_a_decision_timer_fires_the_default_decision(tmp_path: Path) -> None:
    inner = SqliteStore(tmp_path / "db")
    store = GatedStore(inner)
    store.gate.set()
    assert await inner.acquire("m1", "me", 30)
    a, b = Peer(1), Peer(2)
    actor = Actor(core(clock=Clock(decision=0.05, bank=0, max_timeouts=5)), store,
                  owner="me")
    with anyio.fail_after(10):
        async with anyio.create_task_group() as tg:
            await tg.start(actor.run)
            actor.offer(Sit(0, "a", "A", conn=1), a)
            actor.offer(Sit(1, "b", "B", conn=2), b)
            actor.offer(Decide(2, "b", "x", 0, "sprint"), b)
            await until(lambda: any(e.get("by") == "t" for e in actor.core.log))
            timed_out = [e for e in actor.core.log if e["k"] == "d" and e["by"] == "t"]
            assert timed_out[0]["s"] == 0 and timed_out[0]["d"] == "jog"
            tg.cancel_scope.cancel()
    await inner.aclose()


async def test_a_timer_set_earlier_than_the_one_awaited_wakes_the_actor(
        tmp_path: Path) -> None:
    """The timer task sleeps until the earliest timer (here: the unjoined match's expiry,
    an hour away); a 50 ms decision clock set later must still fire on time."""
    inner = SqliteStore(tmp_path / "db")
    store = GatedStore(inner)
    store.gate.set()
    assert await inner.acquire("m1", "me", 30)
    a, b = Peer(1), Peer(2)
    actor = Actor(core(clock=Clock(decision=0.05, bank=0, max_timeouts=5)), store,
                  owner="me")
    with anyio.fail_after(10):
        async with anyio.create_task_group() as tg:
            await tg.start(actor.run)
            actor.offer(Sit(0, "a", "A", conn=1), a)
            await until(lambda: actor._alarm is not None and "expire" in actor.timers)
            actor.offer(Sit(1, "b", "B", conn=2), b)
            await until(lambda: any(e.get("by") == "t" for e in actor.core.log))
            tg.cancel_scope.cancel()
    await inner.aclose()


async def test_losing_the_lease_stops_the_actor(tmp_path: Path) -> None:
    inner = SqliteStore(tmp_path / "db")
    store = GatedStore(inner)
    store.gate.set()
    assert await inner.acquire("m1", "me", 30)
    actor = Actor(core(), store, owner="me", limits=ActorLimits(lease_ttl=0.06))
    with anyio.fail_after(10):
        async with anyio.create_task_group() as tg:
            await tg.start(actor.run)
            store.held = False
            await actor.stopped.wait()
    assert not actor.offer(Sit(0, "a", "A"))
    await inner.aclose()


async def test_a_full_inbox_refuses_instead_of_blocking(tmp_path: Path) -> None:
    inner = SqliteStore(tmp_path / "db")
    actor = Actor(core(), inner, owner="me", limits=ActorLimits(inbox=2))
    assert actor.offer(Sit(0, "a", "A")) and actor.offer(Sit(1, "b", "B"))
    assert not actor.offer(Decide(1, "a", "x", 0, "jog"))
    await inner.aclose()


class Faulty(toy.DiceRace):
    """The toy ruleset with a bug: a sprint by seat 0 blows up after half-changing things."""

    def apply(self, state: Any, seat: int, decision: str, *, version: int | None = None,
              legal: Any = None) -> Any:
        if seat == 0 and decision == "sprint":
            raise RuntimeError("a bug in the rules")
        return super().apply(state, seat, decision, version=version, legal=legal)


async def test_a_failing_command_reloads_the_last_saved_state(tmp_path: Path) -> None:
    inner = SqliteStore(tmp_path / "db")
    assert await inner.acquire("m1", "me", 30)
    a, b = Peer(1), Peer(2)
    c = MatchCore(Faulty(), toy.BOTS, match_id="m1", config={"board": 30},
                  seed=b"s" * 32, now=time.time())
    actor = Actor(c, inner, owner="me")
    with anyio.fail_after(10):
        async with anyio.create_task_group() as tg:
            await tg.start(actor.run)
            actor.offer(Sit(0, "a", "A", conn=1), a)
            actor.offer(Sit(1, "b", "B", conn=2), b)
            actor.offer(Decide(2, "b", "x", 0, "jog"), b)
            await until(lambda: any(m["t"] == "ack" for m in b.got))
            actor.core.seats[1] = None  # the half-change a buggy command might leave
            actor.offer(Decide(1, "a", "y", 0, "sprint"), a)
            await until(lambda: any(m.get("code") == "internal" for m in a.got))
            assert actor.core is not c and actor.core.seats[1] is not None
            assert [e["d"] for e in actor.core.log] == ["jog"]
            a.got.clear()
            actor.offer(Decide(1, "a", "z", 0, "jog"), a)
            await until(lambda: any(m["t"] == "ack" and m["re"] == "z" for m in a.got))
            assert [e["d"] for e in actor.core.log if e["k"] == "d"] == ["jog", "jog"]
            tg.cancel_scope.cancel()
    await inner.aclose()


async def test_the_log_past_the_window_comes_back_from_the_store(tmp_path: Path) -> None:
    """With only two log entries held in memory, a reconnect from the start still gets
    every event, and the end's public log is every entry, both read from the store."""
    inner = SqliteStore(tmp_path / "db")
    store = GatedStore(inner)
    store.gate.set()
    assert await inner.acquire("m1", "me", 30)
    a, b, again = Peer(1), Peer(2), Peer(3)
    actor = Actor(core(log_window=2), store, owner="me")

    def prompts(p: Peer) -> list[dict[str, Any]]:
        return [m for m in p.got if m["t"] == "prompt"]

    with anyio.fail_after(10):
        async with anyio.create_task_group() as tg:
            await tg.start(actor.run)
            actor.offer(Sit(0, "a", "A", conn=1), a)
            actor.offer(Sit(1, "b", "B", conn=2), b)
            for n in range(4):  # two rounds: each seat jogs, two dice each round
                for seat, peer in ((0, a), (1, b)):
                    await until(lambda p=peer: prompts(p) and prompts(p)[-1]["legal"])
                    version = prompts(peer)[-1]["version"]
                    actor.offer(Decide(seat + 1, "ab"[seat], f"{n}{seat}", version, "jog"),
                                peer)
                    await until(lambda p=peer, v=version: any(
                        m["t"] == "ack" and m.get("version", -1) > v for m in p.got))
            assert len(actor.core.log) > 2 and not actor.core.log.complete
            actor.offer(Connect(3, "a", since=0), again)
            await until(lambda: prompts(again))
            got = [e for p in prompts(a) for e in p["events"]]
            assert prompts(again)[-1]["events"] == got
            actor.offer(Resign(1, "a", "r"), a)
            await until(lambda: any(m["t"] == "over" for m in a.got))
            over = next(m for m in a.got if m["t"] == "over")
            stored = await inner.load("m1")
            assert stored is not None and len(over["log"]) == len(stored.log) > 2
            assert all("e" not in e and "re" not in e for e in over["log"])
            tg.cancel_scope.cancel()
    await inner.aclose()


async def test_a_reload_that_cannot_load_quarantines_the_match(tmp_path: Path) -> None:
    """A command fails and what was saved cannot be loaded back: the match is set aside
    (kept, reported by kickline doctor) and whoever is attached is told, once."""
    import sqlite3

    inner = SqliteStore(tmp_path / "db")
    assert await inner.acquire("m1", "me", 30)
    a, b = Peer(1), Peer(2)
    c = MatchCore(Faulty(), toy.BOTS, match_id="m1", config={"board": 30},
                  seed=b"s" * 32, now=time.time())
    actor = Actor(c, inner, owner="me")
    with anyio.fail_after(10):
        async with anyio.create_task_group() as tg:
            await tg.start(actor.run)
            actor.offer(Sit(0, "a", "A", conn=1), a)
            actor.offer(Sit(1, "b", "B", conn=2), b)
            await until(lambda: any(m["t"] == "prompt" and m["status"] == "playing"
                                    for m in b.got))
            db = sqlite3.connect(tmp_path / "db")
            with db:
                db.execute("UPDATE matches SET snapshot = x'c1' WHERE id = 'm1'")
            db.close()
            actor.offer(Decide(1, "a", "y", 0, "sprint"), a)  # the rules' bug
            await actor.stopped.wait()
    for p in (a, b):
        assert [m["code"] for m in p.got if m["t"] == "error"] == ["match_damaged"]
    q = await inner.quarantine_of("m1")
    assert q is not None and "not readable" in q.reason
    assert await inner.unfinished() == []
    await inner.aclose()
