"""The server's own collector policy (kickline_server.gcpolicy): short collections of
what is new, survivors frozen out of later ones, a full collection now and then for
garbage cycles among frozen objects."""

from __future__ import annotations

import gc
import weakref
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from typing import Any

import anyio
import pytest
from journeys import quick_match
from websockets.asyncio.client import connect
from websockets.client import ClientProtocol
from websockets.frames import Frame, Opcode
from websockets.protocol import State
from websockets.uri import parse_uri

from conftest import Client, free_port
from kickline_server.gcpolicy import (
    GcCounts,
    GcPolicy,
    collect_and_freeze,
    decided,
    keep,
    returning,
)


class Node:
    """A container that can be in a reference cycle and be watched by a weak reference."""

    other: Any = None


def cycle() -> tuple[Node, weakref.ref[Node]]:
    a, b = Node(), Node()
    a.other, b.other = b, a
    return a, weakref.ref(a)


@pytest.fixture
def collector() -> Iterator[None]:
    """Nothing frozen before or after (the test process does not freeze otherwise)."""
    gc.collect()
    assert gc.get_freeze_count() == 0
    try:
        yield
    finally:
        gc.unfreeze()
        gc.collect()


def test_a_tick_frees_new_cycles_and_freezes_what_lives(collector: None) -> None:
    live, _ = cycle()
    dead, gone = cycle()
    del dead
    collect_and_freeze()
    assert gone() is None
    assert gc.get_freeze_count() > 0
    assert not any(o is live for o in gc.get_objects())  # out of every later collection


def test_a_frozen_cycle_waits_for_the_full_collection(collector: None) -> None:
    held, watch = cycle()
    collect_and_freeze()  # frozen while alive
    del held
    collect_and_freeze()
    assert watch() is not None  # garbage, but only a full collection walks it
    assert collect_and_freeze(full=True) >= 2
    assert watch() is None
    assert gc.get_freeze_count() > 0  # the survivors are frozen again


def test_frozen_objects_without_cycles_are_freed_at_once(collector: None) -> None:
    held = Node()
    watch = weakref.ref(held)
    collect_and_freeze()
    del held
    assert watch() is None


class Steps:
    """``keep``'s sleep, stepped by the test: ``keep`` says when it waits, and a tick
    runs when the test lets it (no wall-clock time involved)."""

    def __init__(self) -> None:
        self.waiting_tx, self.waiting_rx = anyio.create_memory_object_stream[float]()
        self.go_tx, self.go_rx = anyio.create_memory_object_stream[None]()

    async def sleep(self, seconds: float) -> None:
        await self.waiting_tx.send(seconds)
        await self.go_rx.receive()

    async def tick(self) -> None:
        """Let one tick run, and wait until it is done (``keep`` waits again)."""
        await self.go_tx.send(None)
        await self.waiting_rx.receive()


@pytest.mark.anyio
async def test_keep_ticks_and_sweeps_frozen_cycles_on_its_schedule(collector: None) -> None:
    now = [0.0]
    counts = GcCounts()
    steps = Steps()
    held, watch = cycle()
    async with anyio.create_task_group() as tg:
        tg.start_soon(keep, GcPolicy(every=0.25, full_every=10.0), counts, lambda: now[0],
                      steps.sleep)
        assert await steps.waiting_rx.receive() == 0.25
        await steps.tick()
        assert counts.ticks == 1 and counts.full == 0
        del held  # frozen by that tick: now a frozen garbage cycle
        await steps.tick()
        assert watch() is not None and counts.full == 0  # a short tick leaves it
        now[0] = 10.0  # the full collection is due
        await steps.tick()
        assert counts.ticks == 3 and counts.full == 1
        assert watch() is None
        assert counts.full_collected >= 2
        now[0] = 15.0  # not due again until 20
        await steps.tick()
        assert counts.full == 1
        tg.cancel_scope.cancel()


def test_the_policy_refuses_what_it_cannot_run() -> None:
    with pytest.raises(ValueError, match="every"):
        GcPolicy(every=0)
    with pytest.raises(ValueError, match="full_every"):
        GcPolicy(full_every=-1)
    with pytest.raises(ValueError, match="decisions"):
        GcPolicy(decisions=-1)


@pytest.mark.anyio
async def test_a_tick_comes_after_so_many_decisions_however_late_the_timed_one(
        collector: None) -> None:
    counts = GcCounts()
    steps = Steps()
    async with anyio.create_task_group() as tg:
        tg.start_soon(keep, GcPolicy(every=0.25, decisions=3), counts, lambda: 0.0,
                      steps.sleep)
        await steps.waiting_rx.receive()  # the timed tick waits (and stays late)
        dead, gone = cycle()
        del dead  # garbage, cyclic: only a collection frees it
        decided()
        decided()
        assert counts.ticks == 0 and gone() is not None
        decided()  # the third: a tick now
        assert (counts.ticks, counts.by_decisions) == (1, 1) and gone() is None
        for _ in range(3):
            decided()
        assert counts.by_decisions == 2
        decided()
        await steps.tick()  # a timed tick starts the count again
        decided()
        decided()
        assert (counts.ticks, counts.by_decisions) == (3, 2)
        tg.cancel_scope.cancel()
    decided()  # keep() has stopped: nothing counts or ticks any more
    assert counts.ticks == 3


@pytest.mark.anyio
async def test_decisions_zero_ticks_on_time_only(collector: None) -> None:
    counts = GcCounts()
    steps = Steps()
    async with anyio.create_task_group() as tg:
        tg.start_soon(keep, GcPolicy(decisions=0), counts, lambda: 0.0, steps.sleep)
        await steps.waiting_rx.receive()
        for _ in range(1000):
            decided()
        assert counts.ticks == 0
        tg.cancel_scope.cancel()


@pytest.mark.anyio
@pytest.mark.parametrize("wrapped", [True, False])
async def test_a_task_ended_by_its_group_returning_leaves_no_cycle(wrapped: bool) -> None:
    """Without the collector, what a task's frame held is freed when its group ends if
    the task returned; cancelled, anyio keeps it in a cycle (the case returning avoids)."""
    watch: list[weakref.ref[Node]] = []

    async def sleeper() -> None:
        held = Node()
        watch.append(weakref.ref(held))
        await anyio.sleep_forever()

    gc.collect()
    gc.disable()
    try:
        async with anyio.create_task_group() as tg:
            if wrapped:
                tg.start_soon(returning, sleeper)
            else:
                tg.start_soon(sleeper)
            await anyio.wait_all_tasks_blocked()
            tg.cancel_scope.cancel()
        assert (watch[0]() is None) is wrapped
    finally:
        gc.enable()
        gc.collect()


# --- What the policy relies on: the server leaves no garbage cycles ------------------
#
# A tick frees cycles made of objects born since the last tick; a cycle through an
# object that was frozen while alive (a connection, a match: anything that lived past a
# tick) is freed only by a full collection.  These run the real server, freeze it in a
# steady state as a tick does, end connections and a match the ways clients end them,
# and wait until the server's objects for them are gone with ticks alone.

TOY = {"game": "toy", "config": {"mode": "training", "board": 25}}


@asynccontextmanager
async def ticking() -> AsyncIterator[None]:
    """Inside: a tick (collect what is not frozen, freeze the rest) at every pass of the
    event loop, the worst case for a cycle made over two passes, whose first part a tick
    in between would freeze."""
    async def tick() -> None:
        while True:
            collect_and_freeze()
            await anyio.sleep(0)

    async with anyio.create_task_group() as tg:
        tg.start_soon(tick)
        yield
        tg.cancel_scope.cancel()


async def freed(refs: list[weakref.ref[Any]]) -> None:
    """Until every referent is gone (inside :func:`ticking`); one held by a cycle
    through frozen objects never goes, and the test fails on the timeout."""
    with anyio.fail_after(10):
        while any(r() is not None for r in refs):
            await anyio.sleep(0.005)


def server_side(conn: Any) -> list[weakref.ref[Any]]:
    """Weak references to what the server holds for one connection (the lobby's
    ``Connection``, websockets' connection and its sans-I/O protocol)."""
    return [weakref.ref(conn), weakref.ref(conn.ws), weakref.ref(conn.ws.protocol)]


def loops() -> Any:
    return pytest.mark.parametrize("anyio_backend", [
        pytest.param(("asyncio", {"use_uvloop": True}), id="uvloop"),  # kickline serve's
        pytest.param(("asyncio", {}), id="asyncio")])


@loops()
@pytest.mark.anyio
@pytest.mark.parametrize("end", ["handshake", "abort"])
async def test_a_finished_match_and_closed_connections_leave_no_garbage_cycle(
        serve: Any, server_config: Any, collector: None, end: str) -> None:
    lobbies: list[Any] = []
    async with serve(server_config(), on_lobby=lobbies.append) as url:
        lobby = lobbies[0]
        async with connect(url, max_size=None) as wa, connect(url, max_size=None) as wb:
            a, b = Client(wa), Client(wb)
            await a.hello("a")
            await b.hello("b")
            m, _ = await quick_match(a, b, TOY)
            actor = lobby.actors[m["match"]]
            refs = [weakref.ref(actor), weakref.ref(actor.core)]
            refs += [r for conns in lobby.online.values() for c in conns
                     for r in server_side(c)]
            assert len(refs) == 2 + 2 * 3
            del actor
            collect_and_freeze()  # all of it lived past a tick
            async with ticking():
                await a.send({"t": "resign", "id": "r", "match": m["match"]})
                await a.expect("over")
                await b.expect("over")
                if end == "abort":  # no closing handshake: the server reads an EOF
                    wa.transport.abort()
                    wb.transport.abort()
                else:
                    await wa.close()
                    await wb.close()
                await freed(refs)


async def server_connection() -> Any:
    """The server's websockets connection of the one client connected (found among the
    objects the collector tracks: the gate makes them, nothing else holds a list)."""
    with anyio.fail_after(10):
        while True:
            found = [o for o in gc.get_objects() if type(o).__name__ == "KicklineConnection"]
            if found:
                assert len(found) == 1
                return found[0]
            await anyio.sleep(0.005)


@loops()
@pytest.mark.anyio
async def test_a_connection_gone_mid_request_leaves_no_garbage_cycle(
        serve: Any, server_config: Any, collector: None) -> None:
    port = free_port()
    async with serve(server_config(port=port)):
        stream = await anyio.connect_tcp("127.0.0.1", port)
        await stream.send(b"GET /ws HTTP/1.1\r\nHost: x\r\n")  # never finished
        ws = await server_connection()
        refs = [weakref.ref(ws), weakref.ref(ws.protocol)]
        del ws
        collect_and_freeze()
        async with ticking():
            await stream.aclose()  # the request cut short: websockets keeps its error
            await freed(refs)


@loops()
@pytest.mark.anyio
async def test_a_client_gone_silent_during_a_ping_leaves_no_garbage_cycle(
        serve: Any, server_config: Any, collector: None) -> None:
    """A phone that stops answering: its ping times out, the server sends its close,
    and the client's end of the TCP connection goes while the server waits for it."""
    port = free_port()
    async with serve(server_config(port=port, ping_interval=0.05)) as url:
        stream = await anyio.connect_tcp("127.0.0.1", port)
        client = ClientProtocol(parse_uri(url))  # speaks websocket, never answers a ping
        client.send_request(client.connect())
        for data in client.data_to_send():
            await stream.send(data)
        with anyio.fail_after(10):
            while client.state is State.CONNECTING:
                client.receive_data(await stream.receive())
        ws = await server_connection()
        refs = [weakref.ref(ws), weakref.ref(ws.protocol)]
        del ws
        collect_and_freeze()
        async with ticking():
            with anyio.fail_after(10):  # the ping times out: the server's close comes
                while not any(isinstance(e, Frame) and e.opcode is Opcode.CLOSE
                              for e in client.events_received()):
                    client.receive_data(await stream.receive())
            await stream.aclose()
            await freed(refs)
