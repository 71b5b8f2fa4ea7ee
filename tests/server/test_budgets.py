"""Budgets per address, per identity and per connection: each refusal a documented code
with ``retry_after``, and nothing done."""

from __future__ import annotations

import contextlib
import dataclasses
from pathlib import Path
from typing import Any

import anyio
import pytest
from test_transport import closed_with
from websockets.exceptions import InvalidStatus

from kickline_server import config
from kickline_server.budgets import Budgets, Lockout, Rate
from kickline_server.transport import TransportLimits

pytestmark = pytest.mark.anyio

TOY = {"game": "toy", "config": {"mode": "training", "board": 25}}


class FakeClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_a_rate_refills_over_its_period_and_says_when() -> None:
    clock = FakeClock()
    rate = Rate(3, 60.0, clock=clock)
    assert [rate.take("a") for _ in range(3)] == [None, None, None]
    assert rate.take("a") == pytest.approx(20.0)  # one token per 20 s
    assert rate.take("b") is None  # another key: its own budget
    clock.now += 20.0
    assert rate.take("a") is None and rate.take("a") == pytest.approx(20.0)


def test_a_rate_of_zero_is_off() -> None:
    rate = Rate(0, 60.0)
    assert all(rate.take("a") is None for _ in range(1000))


def test_a_rate_remembers_a_bounded_number_of_keys() -> None:
    rate = Rate(2, 60.0, max_keys=100, clock=FakeClock())
    for i in range(10_000):
        rate.take(f"k{i}")
    assert len(rate._buckets) <= 100


def test_lockouts_grow_and_are_forgiven_after_a_quiet_while() -> None:
    clock = FakeClock()
    lock = Lockout(3, 60.0, base=60.0, cap=3600.0, clock=clock)
    lengths = []
    for _ in range(8):
        while lock.locked("k") is None:
            started = lock.fail("k")
        lengths.append(started)
        clock.now += lock.locked("k") or 0
    assert lengths == [60, 120, 240, 480, 960, 1920, 3600, 3600]
    clock.now += 3601
    for _ in range(3):
        assert lock.fail("k") is None
    assert lock.fail("k") == 60  # forgiven: back to the first length


def test_every_budget_is_a_flag_with_the_same_default() -> None:
    for f in dataclasses.fields(Budgets):
        assert config.BY_NAME[f.name].default == f.default, f.name


# --- over the wire -------------------------------------------------------------------


async def test_new_identities_per_address(serve: Any, server_config: Any, client: Any
                                          ) -> None:
    async with serve(server_config(budgets=Budgets(identities_per_hour=2))) as url:
        tokens = []
        for name in ("a", "b"):
            async with client(url) as c:
                tokens.append((await c.hello(name))["token"])
        async with client(url) as c:
            refused = await c.hello("c")
            assert refused["code"] == "too_many_identities"
            assert 1700 < refused["retry_after"] <= 1800  # one identity per 30 min
            got_close, _ = await closed_with(c)
            assert got_close == 1008
        async with client(url) as c:  # a known player is welcome as ever
            assert (await c.hello(token=tokens[0]))["t"] == "welcome"


async def test_the_message_rate_is_the_identitys_not_the_connections(
    serve: Any, server_config: Any, client: Any
) -> None:
    config_ = server_config(transport=TransportLimits(rate=0.1, burst=3))
    async with serve(config_) as url:
        async with client(url) as c:
            token = (await c.hello())["token"]
            for _ in range(3):
                await c.send({"t": "ping"})
                assert await c.recv() == {"t": "pong"}
        async with client(url) as c:  # reconnecting does not refill it
            await c.hello(token=token)
            await c.send({"t": "ping"})
            err = await c.recv()
            assert err["code"] == "rate_limited" and err["retry_after"] > 5


async def test_waiting_matches_per_player_and_per_address(serve: Any, server_config: Any,
                                                          client: Any) -> None:
    budgets = Budgets(waiting_per_player=2, waiting_per_address=3)
    async with serve(server_config(budgets=budgets)) as url, client(url) as a, \
            client(url) as b:
        await a.hello("a")
        await b.hello("b")
        for i in range(2):
            await a.send({"t": "create", "id": i, **TOY})
            await a.expect("ack", re=i)
        await a.send({"t": "create", "id": 9, **TOY})
        err = await a.expect("error", re=9)
        assert err["code"] == "too_many_waiting" and 3500 < err["retry_after"] <= 3600
        await b.send({"t": "create", "id": 1, **TOY})
        await b.expect("ack", re=1)
        await b.send({"t": "create", "id": 2, **TOY})  # the address holds 3 now
        assert (await b.expect("error", re=2))["code"] == "too_many_waiting"
        await a.send({"t": "list", "id": "l"})
        assert len((await a.expect("ack", re="l"))["matches"]) == 3  # nothing half-made


async def test_matches_going_per_player_include_bot_matches(serve: Any, server_config: Any,
                                                            client: Any) -> None:
    async with serve(server_config(budgets=Budgets(live_per_player=2))) as url, \
            client(url) as a:
        await a.hello("a")
        for i in range(2):
            await a.send({"t": "create", "id": i, **TOY, "bot": "random"})
            await a.expect("ack", re=i)
        await a.send({"t": "create", "id": 3, **TOY, "bot": "random"})
        err = await a.expect("error", re=3)
        assert err["code"] == "too_many_matches" and err["retry_after"] > 0


async def test_creates_per_hour(serve: Any, server_config: Any, client: Any) -> None:
    budgets = Budgets(creates_per_hour=2)
    async with serve(server_config(budgets=budgets)) as url, client(url) as a:
        await a.hello("a")
        for i in range(2):
            await a.send({"t": "create", "id": i, **TOY})
            made = await a.expect("ack", re=i)
            await a.send({"t": "resign", "id": f"r{i}", "match": made["match"]})
            await a.expect("over")
        await a.send({"t": "create", "id": 3, **TOY})
        err = await a.expect("error", re=3)
        assert err["code"] == "too_many_creates" and 1700 < err["retry_after"] <= 1800


async def test_guessing_codes_locks_the_guesser_out(serve: Any, server_config: Any,
                                                    client: Any) -> None:
    budgets = Budgets(code_misses_per_minute=3, lockout=60.0)
    async with serve(server_config(budgets=budgets)) as url, client(url) as a, \
            client(url) as mallory:
        await a.hello("a")
        await mallory.hello("mallory")
        await a.send({"t": "create", "id": 1, **TOY, "private": True})
        code = (await a.expect("ack", re=1))["code"]
        for i in range(4):
            await mallory.send({"t": "join", "id": i, "code": f"WRONG{i}"})
            assert (await mallory.expect("error", re=i))["code"] == "not_found"
        await mallory.send({"t": "join", "id": 5, "code": code})  # even the right one
        err = await mallory.expect("error", re=5)
        assert err["code"] == "locked_out" and 55 < err["retry_after"] <= 60
        await mallory.send({"t": "watch", "id": 6, "code": code})
        assert (await mallory.expect("error", re=6))["code"] == "locked_out"


async def test_a_guesser_changing_identities_is_locked_out_by_address(
    serve: Any, server_config: Any, client: Any
) -> None:
    budgets = Budgets(code_misses_per_minute=100, code_misses_per_minute_per_address=3)
    async with serve(server_config(budgets=budgets)) as url, client(url) as a, \
            client(url) as m1, client(url) as m2:
        await a.hello("a")
        await a.send({"t": "create", "id": 1, **TOY, "private": True})
        code = (await a.expect("ack", re=1))["code"]
        for i, m in enumerate((m1, m1, m2, m2)):  # two identities, one address
            if i % 2 == 0:
                await m.hello(f"m{i}")
            await m.send({"t": "join", "id": i, "code": f"WRONG{i}"})
            assert (await m.expect("error", re=i))["code"] == "not_found"
        await m2.send({"t": "join", "id": 9, "code": code})
        assert (await m2.expect("error", re=9))["code"] == "locked_out"


async def test_watch_requests_per_minute(serve: Any, server_config: Any, client: Any
                                         ) -> None:
    async with serve(server_config(budgets=Budgets(watches_per_minute=2))) as url, \
            client(url) as a, client(url) as w:
        await a.hello("a")
        await w.hello("w")
        await a.send({"t": "create", "id": 1, **TOY})
        made = await a.expect("ack", re=1)
        for i in range(2):
            await w.send({"t": "watch", "id": i, "match": made["match"]})
            await w.expect("ack", re=i)
        await w.send({"t": "watch", "id": 3, "match": made["match"]})
        err = await w.expect("error", re=3)
        assert err["code"] == "too_many_watches" and 25 < err["retry_after"] <= 30


async def test_a_waiting_match_ends_when_its_creator_has_gone(serve: Any, server_config: Any,
                                                              client: Any) -> None:
    from kickline_server.lobby import LobbyLimits

    lobby = LobbyLimits(min_decision=0.01, waiting_grace=0.2)
    async with serve(server_config(lobby=lobby)) as url:
        async with client(url) as a:
            await a.hello("a")
            await a.send({"t": "create", "id": 1, **TOY})
            code = (await a.expect("ack", re=1))["code"]
        async with client(url) as b:
            await b.hello("b")
            with anyio.fail_after(10):
                while True:
                    await b.send({"t": "list", "id": "l"})
                    if not (await b.expect("ack", re="l"))["matches"]:
                        break
                    await anyio.sleep(0.05)
            await b.send({"t": "join", "id": 2, "code": code})
            assert (await b.expect("error", re=2))["code"] == "not_found"


async def test_connections_per_minute_count_http_requests(serve: Any, server_config: Any,
                                                          client: Any) -> None:
    from test_gate import raw_http

    async with serve(server_config(budgets=Budgets(connections_per_minute=3))) as url:
        for _ in range(3):
            got = await raw_http(url, b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
            assert got.startswith(b"HTTP/1.1 200 ")
        got = await raw_http(url, b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
        assert got.startswith(b"HTTP/1.1 429 ") and b"\r\nRetry-After: 20\r\n" in got
        with pytest.raises(InvalidStatus) as e:
            async with client(url):
                pass
        assert e.value.response.status_code == 429


async def test_the_clients_files_have_their_own_budget(serve: Any, server_config: Any,
                                                       tmp_path: Path) -> None:
    """A club behind one NAT: many page loads (each about 60 files) must not use up the
    budget that websockets need; the files' own budget still stops a flood."""
    from test_gate import raw_http

    client_dir = tmp_path / "client"
    (client_dir / "src").mkdir(parents=True)
    (client_dir / "index.html").write_text("<!doctype html><title>k</title>")
    (client_dir / "src" / "main.js").write_text("export {};")
    config = server_config(client_dir=client_dir,
                           budgets=Budgets(connections_per_minute=2, files_per_minute=5))
    async with serve(config) as url:
        for path in ("/", "/src/main.js", "/index.html", "/src/main.js", "/"):
            got = await raw_http(url, f"GET {path} HTTP/1.1\r\nHost: x\r\n\r\n".encode())
            assert got.startswith(b"HTTP/1.1 200 "), got[:80]
        got = await raw_http(url, b"GET /src/main.js HTTP/1.1\r\nHost: x\r\n\r\n")
        assert got.startswith(b"HTTP/1.1 429 ") and b"\r\nRetry-After: " in got
        # The files' budget is spent; the other one is untouched.
        for _ in range(2):
            got = await raw_http(url, b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
            assert got.startswith(b"HTTP/1.1 200 ")
        got = await raw_http(url, b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
        assert got.startswith(b"HTTP/1.1 429 ")


async def test_half_open_connections_per_address(serve: Any, server_config: Any) -> None:
    from test_gate import _port

    async with serve(server_config(budgets=Budgets(half_open_per_address=3))) as url:
        port = _port(url)
        idle = [await anyio.connect_tcp("127.0.0.1", port) for _ in range(3)]
        extra = await anyio.connect_tcp("127.0.0.1", port)
        with anyio.fail_after(5), pytest.raises((anyio.EndOfStream, anyio.BrokenResourceError,
                                                 ConnectionError)):
            await extra.receive()  # dropped at once, not after the handshake timeout
        await extra.aclose()
        await idle[0].aclose()
        with anyio.fail_after(5):
            while True:  # a slot is free again once the server saw the close
                stream = await anyio.connect_tcp("127.0.0.1", port)
                await stream.send(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
                try:
                    got = await stream.receive()
                except (anyio.EndOfStream, anyio.BrokenResourceError, ConnectionError):
                    await anyio.sleep(0.05)
                    continue
                finally:
                    await stream.aclose()
                assert got.startswith(b"HTTP/1.1 200 ")
                break
        for s in idle[1:]:
            await s.aclose()


def test_the_systemd_unit_raises_the_file_descriptor_limit() -> None:
    from pathlib import Path

    unit = (Path(__file__).parents[2] / "deploy" / "kickline.service").read_text()
    limit = [line for line in unit.splitlines() if line.startswith("LimitNOFILE=")]
    assert limit and int(limit[0].split("=")[1]) >= 16384


async def test_a_club_of_forty_behind_one_address_gets_through_a_tournament_evening(
    serve: Any, server_config: Any, client: Any
) -> None:
    """The defaults against a club's evening (docs/SECURITY.md, "A club behind one
    address"): 40 players on one address, each warming up against a bot and leaving that
    match running; three rounds of 20 boards made by the server (a tournament's); then
    20 friendlies made by invite code, each joiner mistyping the code once first."""
    lobbies: list[Any] = []
    async with serve(server_config(), on_lobby=lobbies.append) as url, \
            contextlib.AsyncExitStack() as stack:
        lobby = lobbies[0]
        players = [await stack.enter_async_context(client(url)) for _ in range(40)]
        who = []
        for i, p in enumerate(players):  # 40 new identities and 40 websockets at once
            w = await p.hello(f"club{i}")
            assert w["t"] == "welcome", w
            who.append((w["player"], w["name"]))
        for p in players:  # each leaves a bot match running
            await p.send({"t": "create", "id": "bot", **TOY, "bot": "random"})
        for p in players:
            await acked(p, "bot")
        for rnd in range(3):  # a tournament's boards: made by the server
            boards = [await lobby.reserve((who[2 * b + rnd % 2], who[2 * b + 1 - rnd % 2]),
                                          config=TOY["config"], game="toy",
                                          meta={"tournament": {"id": "club", "round": rnd}})
                      for b in range(20)]
            for i, p in enumerate(players):
                await p.send({"t": "open", "id": f"r{rnd}", "match": boards[i // 2]})
            for p in players:
                await acked(p, f"r{rnd}")
            for mid in boards:
                await lobby.cancel(mid)
        hosts, guests = players[:20], players[20:]
        for p in hosts:
            await p.send({"t": "create", "id": "f", **TOY, "private": True})
        codes = [(await acked(p, "f"))["code"] for p in hosts]
        for j, (p, code) in enumerate(zip(guests, codes, strict=True)):
            await p.send({"t": "join", "id": "typo", "code": code[::-1]})
            assert (await p.expect("error", re="typo"))["code"] == "not_found"
            await p.send({"t": "join", "id": "f", "code": code})
            assert (await acked(p, "f"))["seat"] == 1, j
        # What the address holds and has spent: the players' 60 matches; the 60 boards
        # the server made count against neither.
        assert len(lobby._holding("a:127.0.0.1")) == 60
        spent = Budgets().creates_per_hour_per_address - lobby._creates_by_address.\
            _buckets["127.0.0.1"].tokens
        assert 55 < spent <= 60



async def test_a_tournaments_board_is_not_held_after_a_restart_either(
    serve: Any, server_config: Any, client: Any
) -> None:
    lobbies: list[Any] = []
    config = server_config()
    async with serve(config, on_lobby=lobbies.append) as url, client(url) as a, \
            client(url) as b:
        wa, wb = await a.hello("a"), await b.hello("b")
        mid = await lobbies[0].reserve(((wa["player"], wa["name"]), (wb["player"], wb["name"])),
                                       config=TOY["config"], game="toy",
                                       meta={"tournament": {"id": "t", "round": 1}})
        for c, re in ((a, "oa"), (b, "ob")):
            await c.send({"t": "open", "id": re, "match": mid})
            await acked(c, re)
    async with serve(config, on_lobby=lobbies.append):
        lobby = lobbies[1]
        assert lobby.actors[mid].core.status == "playing"  # resumed, its seats taken
        assert lobby._holding(f"p:{wa['player']}") == []
        assert lobby._holding(f"p:{wb['player']}") == []

async def acked(c: Any, re: str) -> dict[str, Any]:
    """The answer to request ``re``, which must be an ``ack`` (a refusal fails here)."""
    while True:
        msg: dict[str, Any] = await c.recv()
        if msg.get("re") == re:
            assert msg["t"] == "ack", msg
            return msg
