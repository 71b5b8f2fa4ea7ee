"""Presence end to end: phones that sleep, opponents who wait or claim, restarts."""

from __future__ import annotations

from typing import Any

import anyio
import pytest
from journeys import quick_match

from kickline_server.core import Clock
from kickline_server.lobby import LobbyLimits

pytestmark = pytest.mark.anyio

TOY = {"game": "toy", "config": {"mode": "training", "board": 25}}


async def test_a_phone_that_sleeps_during_the_opponents_turn_loses_nothing_and_resumes(
        serve: Any, server_config: Any, client: Any) -> None:
    config = server_config(lobby=LobbyLimits(min_decision=0.01, grace=0.2))
    async with serve(config) as url, client(url) as b:
        async with client(url) as a:
            wa = await a.hello("a")
            await b.hello("b")
            m, p = await quick_match(a, b, TOY)
            await a.send({"t": "decide", "id": "a1", "match": m["match"],
                          "version": p["version"], "decision": "sprint"})
            await a.expect("ack", re="a1")
        # Alice's phone sleeps; she owes nothing while Bob thinks, far past the grace.
        away = await b.expect("presence", seat=0)
        assert away["state"] == "reconnecting" and away["claim_at"] > away["since"]
        await anyio.sleep(0.5)  # longer than the grace: still nothing may end the match
        # (a secret simultaneous choice: Bob's is made on the phase's first version)
        await b.send({"t": "decide", "id": "b1", "match": m["match"], "version": p["version"],
                      "decision": "jog"})
        await b.expect("ack", re="b1")
        async with client(url) as a2:
            await a2.hello(token=wa["token"])
            await a2.send({"t": "open", "id": "o", "match": m["match"], "since": 0})
            back = await a2.expect("prompt")
            assert back["status"] == "playing" and back["legal"]
            assert back["presence"][1] == {"state": "connected"}
            assert (await b.expect("presence", seat=0))["state"] == "connected"


async def test_after_the_grace_the_opponent_may_claim_the_win(
        serve: Any, server_config: Any, client: Any) -> None:
    config = server_config(lobby=LobbyLimits(min_decision=0.01, grace=0.2))
    async with serve(config) as url, client(url) as b:
        async with client(url) as a:
            await a.hello("a")
            await b.hello("b")
            m, _ = await quick_match(a, b, TOY)
        away = await b.expect("presence", seat=0)
        with anyio.fail_after(10):
            n = 0
            while True:  # claim until the server agrees the grace is over
                n += 1
                await b.send({"t": "claim", "id": f"c{n}", "match": m["match"]})
                msg = await _reply(b, f"c{n}")
                if msg["t"] == "ack":
                    break
                assert msg["code"] == "cannot_claim" and msg["claim_at"] == away["claim_at"]
                await anyio.sleep(0.05)
        over = await b.expect("over")
        assert over["result"] == {"winner": 1, "score": None, "reason": "claimed", "seat": 0}


async def _reply(c: Any, re: str) -> dict[str, Any]:
    while True:
        msg = await c.recv()
        if msg.get("re") == re and msg["t"] in ("ack", "error"):
            return msg


async def test_a_phone_that_sleeps_on_its_own_turn_loses_only_its_clock(
        serve: Any, server_config: Any, client: Any) -> None:
    clock = Clock(decision=0.05, bank=0.1, max_timeouts=50)
    config = server_config(lobby=LobbyLimits(min_decision=0.01, grace=60, clock=clock))
    async with serve(config) as url, client(url) as b:
        async with client(url) as a:
            await a.hello("a")
            await b.hello("b")
            m, _ = await quick_match(a, b, TOY)
        # Alice owes a decision and is away: her clock runs, the server plays her default
        # decisions, and the match goes on (Bob keeps playing) rather than ending.
        seen_default = False
        with anyio.fail_after(15):
            while not seen_default:
                msg = await b.recv()
                if msg["t"] == "prompt" and msg["legal"]:
                    await b.send({"t": "decide", "id": f"b{msg['version']}",
                                  "match": m["match"], "version": msg["version"],
                                  "decision": "jog"})
                if msg["t"] == "prompt":
                    seen_default = msg["clock"]["timeouts"][0] >= 2
                assert msg["t"] != "over"
        assert msg["status"] == "playing" and msg["clock"]["bank"][0] == 0
