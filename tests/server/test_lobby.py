"""The lobby's adoption of matches no live process runs: one actor per match, however
the adoption round (``recover``) and a client's request (``adopt_now``) interleave."""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path
from typing import Any

import anyio
import pytest

from kickline_server import lobby as lobby_module
from kickline_server import toy
from kickline_server.actor import Actor
from kickline_server.core import MatchCore, Persist, Sit
from kickline_server.identity import Tokens
from kickline_server.lobby import Lobby
from kickline_server.store import Store, Stored, pack
from kickline_server.store_sqlite import SqliteStore

pytestmark = pytest.mark.anyio

MID = "m1"


class SharedStore:
    """A store whose leases expire (as Redis's: one owner, who may take it again), with
    every ``load`` held at a gate: the test sees an adoption stop there and decides when
    it goes on.  Leases and the list of unfinished matches are answered here, without
    the store's thread, so a task that waits waits for the gate or for the lobby."""

    def __init__(self, inner: Store, unfinished: list[str]) -> None:
        self.inner = inner
        self.leases_expire = True
        self.loading = anyio.Event()
        self.gate = anyio.Event()
        self.leases: dict[str, str] = {}
        self._unfinished = unfinished

    async def unfinished(self) -> list[str]:
        return list(self._unfinished)

    async def acquire(self, match_id: str, owner: str, ttl: float) -> bool:
        return self.leases.setdefault(match_id, owner) == owner

    async def release(self, match_id: str, owner: str) -> None:
        if self.leases.get(match_id) == owner:
            del self.leases[match_id]

    async def save(self, match_id: str, snapshot: bytes | None, entries: Sequence[bytes],
                   start: int, *, finished: bool, owner: str) -> None:
        # The leases are kept here: the store checks the saver's against its own.
        assert self.leases.get(match_id) == owner
        assert await self.inner.acquire(match_id, owner, 30)
        await self.inner.save(match_id, snapshot, entries, start, finished=finished,
                              owner=owner)

    async def load(self, match_id: str) -> Stored | None:
        self.loading.set()
        await self.gate.wait()
        return await self.inner.load(match_id)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)


async def stored_match(store: Store) -> None:
    """An unfinished match (both seats taken, the first decision owed), saved as an
    actor saves it, its lease free: what a process that died leaves."""
    core = MatchCore(toy.GAME, toy.BOTS, match_id=MID, config={"board": 30},
                     seed=b"s" * 32, now=time.time())
    effects = core.handle(Sit(0, "a", "A"), time.time()) + core.handle(
        Sit(1, "b", "B"), time.time())
    assert await store.acquire(MID, "gone", 30)
    for e in effects:
        if isinstance(e, Persist):
            await store.save(MID, None if e.snapshot is None else pack(e.snapshot),
                             e.entries, e.start, finished=e.finished, owner="gone")
    await store.release(MID, "gone")
    assert await store.unfinished() == [MID]


@pytest.mark.parametrize("first", ["the adoption round", "a client's request"])
async def test_a_match_adopted_by_the_round_and_a_request_at_once_gets_one_actor(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, first: str
) -> None:
    started: list[Actor] = []

    class Counted(Actor):
        def __init__(self, *args: Any, **kw: Any) -> None:
            super().__init__(*args, **kw)
            started.append(self)

    monkeypatch.setattr(lobby_module, "Actor", Counted)
    inner = SqliteStore(tmp_path / "db")
    await stored_match(inner)
    store = SharedStore(inner, await inner.unfinished())
    got: dict[str, Any] = {}
    with anyio.fail_after(10):
        async with anyio.create_task_group() as tg:
            lobby = Lobby(store, Tokens(b"k" * 32), tg, owner="me")

            async def keep(key: str, call: Callable[[], Awaitable[Any]]) -> None:
                got[key] = await call()

            async with anyio.create_task_group() as both:
                calls = {"the adoption round": lobby.recover,
                         "a client's request": lambda: lobby.adopt_now(MID)}
                both.start_soon(keep, first, calls[first])
                await store.loading.wait()  # the first is adopting: it loads the match
                second = next(k for k in calls if k != first)
                both.start_soon(keep, second, calls[second])
                await anyio.wait_all_tasks_blocked()  # the second has done what it can
                store.gate.set()
            assert len(started) == 1
            assert lobby.actors[MID] is started[0]
            assert got["a client's request"] is started[0]  # the one actor, either way
            assert got["the adoption round"] == (first == "the adoption round")
            tg.cancel_scope.cancel()
    await inner.aclose()


async def test_threads_idle_while_no_bot_thinks_and_no_odds_are_worked_out(
        tmp_path: Path) -> None:
    store = SqliteStore(tmp_path / "db")
    try:
        async with anyio.create_task_group() as tg:
            lobby = Lobby(store, Tokens(b"k" * 32), tg, owner="me")
            assert lobby.threads_idle()
            async with lobby._odds_limiter:  # as while a worker thread works out odds
                assert not lobby.threads_idle()
            assert lobby.threads_idle()
            lobby._bot_limiter = anyio.CapacityLimiter(2)
            async with lobby._bot_limiter:  # as while a bot thinks in a thread
                assert not lobby.threads_idle()
            tg.cancel_scope.cancel()
    finally:
        await store.aclose()
