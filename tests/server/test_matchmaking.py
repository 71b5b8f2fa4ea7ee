"""Quick match: the queues with plain calls and a simulated clock, then rated quick
matches on the real server (ratings, histories, a restart)."""

from __future__ import annotations

from typing import Any

import anyio
import pytest

from kickline_server.botclient import play
from kickline_server.lobby import Lobby
from kickline_server.matchmaking import Matchmaker, QueueLimits, Ticket, queue_key
from kickline_server.protocol import BadRequest, Code

pytestmark = pytest.mark.anyio

RATED = queue_key("toy", "k", True)
CASUAL = queue_key("toy", "k", False)
TOY = {"game": "toy", "config": {"mode": "training", "board": 25}}


class Conn:
    """What the matchmaker needs of a connection: somewhere to push messages."""

    def __init__(self) -> None:
        self.out: list[dict[str, Any]] = []

    def push(self, msg: dict[str, Any]) -> None:
        self.out.append(msg)

    def of(self, t: str) -> list[dict[str, Any]]:
        return [m for m in self.out if m["t"] == t]


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def desk(fail: int = 0) -> tuple[Matchmaker, Clock, list[tuple[str, str]]]:
    made: list[tuple[str, str]] = []
    failures = [fail]

    async def make(a: Ticket, b: Ticket) -> None:
        if failures[0]:
            failures[0] -= 1
            raise BadRequest(Code.BUSY, "full")
        made.append((a.entry.player, b.entry.player))
    clock = Clock()
    return Matchmaker(make, clock=clock), clock, made


async def queue(mm: Matchmaker, player: str, rating: float, key: str = RATED,
                conn: Conn | None = None, last: str | None = None) -> Conn:
    c = conn or Conn()
    await mm.request(c, f"q-{player}", key, player=player, rating=rating,  # type: ignore[arg-type]
                     last_opponent=last, request={})
    return c


async def test_a_rated_pair_waits_until_both_windows_reach_their_gap() -> None:
    mm, clock, made = desk()
    a = await queue(mm, "a", 1500)
    b = await queue(mm, "b", 1620)  # 120 apart: both windows must reach 150 (10 s)
    assert a.of("ack") == [{"t": "ack", "re": "q-a", "queued": True, "waiting": 1}]
    assert b.of("ack")[0]["waiting"] == 2 and made == []
    clock.now = 9.9
    await mm.tick()
    assert made == []
    # The tick told both how the queue stands: two waiting, the gap each accepts now.
    assert [m for c in (a, b) for m in c.of("queue")] == [
        {"t": "queue", "rated": True, "waiting": 2, "window": 100.0}] * 2
    clock.now = 10
    await mm.tick()
    assert made == [("a", "b")] and not mm.tickets


async def test_a_newcomer_who_completes_a_pair_is_answered_not_queued() -> None:
    mm, _, made = desk()
    await queue(mm, "a", 1500, CASUAL)
    b = await queue(mm, "b", 2500, CASUAL)  # casual: ratings do not matter
    assert made == [("a", "b")]
    assert b.of("ack") == [{"t": "ack", "re": "q-b", "queued": False}]


async def test_one_request_per_player_and_cancel() -> None:
    mm, _, _ = desk()
    await queue(mm, "a", 1500)
    with pytest.raises(BadRequest) as exc:
        await queue(mm, "a", 1500, CASUAL)
    assert exc.value.code == Code.ALREADY_QUEUED
    assert await mm.cancel("a") and not await mm.cancel("a")
    assert await mm.counts([RATED]) == {RATED: 0}


async def test_a_dropped_connection_keeps_its_wait_for_the_grace_only() -> None:
    mm, clock, _ = desk()
    c = await queue(mm, "a", 1500)
    clock.now = 30
    await mm.detach(c, None)  # type: ignore[arg-type]
    assert await mm.counts([RATED]) == {RATED: 0}
    clock.now = 60  # back within the grace (120 s): the window is as wide as before
    await queue(mm, "a", 1500)
    found = await mm.state.find("a")
    assert found is not None and found[1].since == 0
    await mm.detach(mm.tickets["a"].conn, None)
    clock.now = 60 + QueueLimits().requeue_grace + 1
    await mm.tick()  # forgets departures past the grace
    await queue(mm, "a", 1500)
    found = await mm.state.find("a")
    assert found is not None and found[1].since == clock.now


async def test_another_connection_of_the_player_takes_the_request_over() -> None:
    mm, _, _ = desk()
    first, second = Conn(), Conn()
    await queue(mm, "a", 1500, conn=first)
    await mm.detach(first, second)  # type: ignore[arg-type]
    assert mm.tickets["a"].conn is second and await mm.counts([RATED]) == {RATED: 1}


async def test_a_match_that_cannot_be_made_leaves_both_waiting() -> None:
    mm, _, made = desk(fail=1)
    await queue(mm, "a", 1500, CASUAL)
    await queue(mm, "b", 1500, CASUAL)
    assert made == [] and set(mm.tickets) == {"a", "b"}
    await mm.tick()  # the next pairing makes it
    assert made == [("a", "b")]


async def test_no_rematch_in_a_row_while_someone_else_waits() -> None:
    mm, clock, made = desk()
    await queue(mm, "a", 1500, last="b")
    await queue(mm, "c", 1700)
    await queue(mm, "b", 1500, last="a")
    assert made == []  # a and b just played; c is too far yet
    clock.now = 30
    await mm.tick()
    assert made in ([("a", "c")], [("b", "c")])


# -- on the real server ----------------------------------------------------------------


async def bots(url: str, **kw: Any) -> dict[str, Any]:
    out: dict[str, Any] = {}

    async def one(key: str) -> None:
        out[key] = await play(url, how="quick", name=key, seed=key, **TOY, **kw)
    with anyio.fail_after(30):
        async with anyio.create_task_group() as tg:
            for key in ("ann", "ben"):
                tg.start_soon(one, key)
    return out


@pytest.mark.parametrize("store", ["sqlite", "redis"])
async def test_a_rated_quick_match_moves_both_ratings_and_shows_in_both_histories(
        serve: Any, server_config: Any, client: Any, store: str,
        request: pytest.FixtureRequest) -> None:
    lobbies: list[Lobby] = []
    kw = {} if store == "sqlite" else {"redis_url": request.getfixturevalue("redis_url"),
                                       "redis_prefix": request.getfixturevalue("key_prefix")}
    async with serve(server_config(**kw), on_lobby=lobbies.append) as url:
        recorded = anyio.Event()

        async def heard(_: Any) -> None:
            recorded.set()
        lobbies[0].recorder.listen(heard)
        over = await bots(url, rated=True)
        with anyio.fail_after(10):
            await recorded.wait()  # recorded just after the final save
        mid = over["ann"]["match"]
        raw = await lobbies[0].store.result(mid)
        assert raw is not None
        profiles = []
        async with client(url) as c:
            await c.hello("reader")
            for key in ("ann", "ben"):
                player = next(p for p in _players(raw) if p["name"].startswith(key))
                await c.send({"t": "profile", "id": key, "player": player["player"]})
                profiles.append((player, await c.expect("ack", re=key)))
    for player, profile in profiles:
        entry = profile["recent"][0]
        assert entry["match"] == mid and entry["rated"]
        assert entry["change"] == round(player["after"]["rating"] - 1500, 2)
        standing = profile["ratings"]["toy:training"]
        assert standing["rated"] == 1 and standing["rd"] < 350
        assert standing["history"] == [[entry["at"], entry["rating"]]]
    (a, _), (b, _) = profiles
    if over["ann"]["result"]["winner"] is None:
        assert a["after"]["rating"] == b["after"]["rating"] == 1500
    else:  # equal starts: the winner gains what the loser loses
        assert a["after"]["rating"] != 1500 and round(a["after"]["rating"] - 1500, 6) == round(
            1500 - b["after"]["rating"], 6)


def _players(raw: bytes) -> list[dict[str, Any]]:
    from kickline_server.store import unpack
    players: list[dict[str, Any]] = unpack(raw)["players"]
    return players


async def test_a_casual_quick_match_moves_no_rating(serve: Any, server_config: Any,
                                                    client: Any) -> None:
    lobbies: list[Lobby] = []
    async with serve(server_config(), on_lobby=lobbies.append) as url:
        recorded = anyio.Event()

        async def heard(_: Any) -> None:
            recorded.set()
        lobbies[0].recorder.listen(heard)
        over = await bots(url)
        with anyio.fail_after(10):
            await recorded.wait()
        raw = await lobbies[0].store.result(over["ann"]["match"])
    assert raw is not None and all(p["after"] is None for p in _players(raw))


async def test_the_queue_outlives_a_restart_by_requeueing(serve: Any, server_config: Any,
                                                          client: Any) -> None:
    config = server_config()
    async with serve(config) as url, client(url) as a:
        wa = await a.hello("Ada")
        await a.send({"t": "quick", "id": "q1", "rated": True, **TOY})
        assert (await a.expect("ack", re="q1"))["queued"]
    async with serve(config) as url, client(url) as a, client(url) as b:
        await a.hello(token=wa["token"])
        # The client re-sends its request (same id) on reconnecting: queued again.
        await a.send({"t": "quick", "id": "q1", "rated": True, **TOY})
        assert (await a.expect("ack", re="q1")) == {"t": "ack", "re": "q1", "queued": True,
                                                    "waiting": 1}
        await b.hello("Bea")
        await b.send({"t": "queues", "id": "n", **TOY})
        assert (await b.expect("ack", re="n"))["waiting"] == {"casual": 0, "rated": 1}
        await b.send({"t": "quick", "id": "q2", "rated": True, **TOY})
        assert (await b.expect("ack", re="q2"))["queued"] is False
        matched = await a.expect("matched")
        assert matched["seat"] == 0 and matched["rated"]
        prompt = await a.expect("prompt", match=matched["match"])
        assert prompt["rated"]
