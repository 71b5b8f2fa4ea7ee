"""The network bot (``botclient.play``) against a real server in this process: it paces
itself to the rate the server announces, and it gives up with a reason it can name."""

from __future__ import annotations

import logging
from collections.abc import Callable
from functools import partial
from typing import Any

import anyio
import pytest

from kickline_server import games
from kickline_server.botclient import BotError, BotState, Pacer, play
from kickline_server.transport import TransportLimits

pytestmark = pytest.mark.anyio

TOY = {"game": "toy", "config": {"mode": "training", "board": 25}}


async def test_two_bots_finish_under_a_tight_rate_without_a_refusal(
    serve: Any, server_config: Any, caplog: pytest.LogCaptureFixture
) -> None:
    # One message per second, bursts of two: the bots send their decisions as fast as
    # they can (a decision the seat owes is not counted, and the welcome says so), and
    # pace everything else; the server refuses nothing.
    config = server_config(transport=TransportLimits(rate=1, burst=2))
    states = {"a": BotState(), "b": BotState()}
    results: dict[str, Any] = {}
    async with serve(config) as url:
        with anyio.fail_after(60):
            async with anyio.create_task_group() as tg:
                for name in states:
                    tg.start_soon(partial(_play, results, url, name, states[name]))
    assert results["a"]["result"] == results["b"]["result"]
    assert results["a"]["result"]["reason"] == "played"
    assert min(st.decisions for st in states.values()) >= 17  # 100 squares, 6 at most
    assert [st.rate_limited for st in states.values()] == [0, 0]
    assert "over the message rate" not in caplog.text


async def _play(results: dict[str, Any], url: str, name: str, st: BotState) -> None:
    results[name] = await play(url, how="quick", name=name, seed=name, state=st,
                               game="toy", config={"board": 100})


async def test_the_pacer_keeps_inside_the_announced_rate() -> None:
    pacer = Pacer(rate=10, burst=4)
    start = anyio.current_time()
    for _ in range(2 + 9):  # half the burst at once, then 9 at 9 per second
        await pacer.wait()
    assert anyio.current_time() - start >= 0.99
    assert Pacer().retry_after() == 0.5 and Pacer(rate=10).retry_after() == pytest.approx(1 / 9)


async def test_a_game_the_server_does_not_host_is_named(
    serve: Any, server_config: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(games, "available", lambda: ["kickline"])
    async with serve(server_config()) as url:
        with pytest.raises(BotError) as err:
            await play(url, **TOY)
    assert err.value.why == "unknown_game"
    assert str(err.value).endswith("hosts no game 'toy'; it hosts kickline")


async def test_a_lone_quick_match_gives_up_after_its_wait(serve: Any, server_config: Any
                                                          ) -> None:
    waits: list[float | None] = []
    async with serve(server_config()) as url:
        with pytest.raises(BotError) as err:
            await play(url, wait=0.3, on_queued=waits.append, **TOY)
    assert err.value.why == "no_opponent" and waits == [0.3]
    assert str(err.value) == "nobody paired with this quick match within 0.3 s"


async def test_a_created_match_nobody_joins_is_called_off(serve: Any, server_config: Any,
                                                          client: Any) -> None:
    codes: list[str] = []
    async with serve(server_config()) as url:
        with pytest.raises(BotError) as err:
            await play(url, how="create", wait=0.3, on_code=lambda m, c: codes.append(c),
                       **TOY)
        assert err.value.why == "no_opponent"
        async with client(url) as c:
            await c.hello()
            # The call-off may still be in the match's hands: a busy answer is resent, as
            # the protocol says, until the match answers for itself.
            for attempt in range(100):
                await c.send({"t": "watch", "id": attempt, "code": codes[0]})
                got = await c.recv()
                while got["t"] not in ("over", "error"):
                    got = await c.recv()
                if got["t"] == "over":
                    break
                assert got["code"] == "busy", got
                await anyio.sleep(got.get("retry_after", 0.05))
            assert got["t"] == "over" and got["result"]["reason"] == "cancelled"


async def test_no_server_is_said_at_once(port: Callable[[], int]) -> None:
    url = f"ws://127.0.0.1:{port()}/ws"
    with anyio.fail_after(10), pytest.raises(BotError) as err:
        await play(url, connect_timeout=0.3, **TOY)
    assert err.value.why == "unreachable"
    assert str(err.value).startswith(f"no Kickline server answers at {url} (")


async def test_a_server_that_does_not_come_back_is_given_up_on(
    port: Callable[[], int], caplog: pytest.LogCaptureFixture
) -> None:
    url = f"ws://127.0.0.1:{port()}/ws"
    st = BotState(token="t", match="m", seat=0)  # mid-match, and the server is gone
    with anyio.fail_after(10), pytest.raises(BotError) as err, caplog.at_level(logging.WARNING):
        await play(url, state=st, reconnect_timeout=0.3, **TOY)
    assert err.value.why == "unreachable"
    assert "could not reconnect within 0.3 s" in str(err.value)
    assert caplog.text.count("reconnecting for up to 0.3 s") == 1
