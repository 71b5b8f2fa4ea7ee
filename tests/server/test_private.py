"""Private means private: only its players, people they invite and organisers see a
private match, and every refusal reads as if the match did not exist."""

from __future__ import annotations

from typing import Any

import pytest
from journeys import quick_match

from kickline_server import toy
from kickline_server.core import MatchCore
from kickline_server.lobby import CODE_ALPHABET, Lobby

pytestmark = pytest.mark.anyio

TOY = {"game": "toy", "config": {"mode": "training", "board": 25}}


async def private_match(a: Any, b: Any) -> tuple[dict[str, Any], dict[str, Any]]:
    """``a`` creates a private match and ``b`` joins; returns a's ack and first prompt."""
    await a.send({"t": "create", "id": "c", **TOY, "private": True})
    made = await a.expect("ack", re="c")
    await b.send({"t": "join", "id": "j", "code": made["code"]})
    await b.expect("ack", re="j")
    return made, await a.expect("prompt", status="playing")


async def test_strangers_cannot_watch_a_private_match_by_id_or_invite_code(
    serve: Any, server_config: Any, client: Any
) -> None:
    async with (serve(server_config()) as url, client(url) as a, client(url) as b,
                client(url) as eve):
        for c, name in ((a, "a"), (b, "b"), (eve, "eve")):
            await c.hello(name)
        made, _ = await private_match(a, b)
        await eve.send({"t": "watch", "id": 1, "match": made["match"]})
        assert (await eve.recv())["code"] == "not_found"
        await eve.send({"t": "watch", "id": 2, "code": made["code"]})
        assert (await eve.recv())["code"] == "not_found"


async def test_the_watch_code_invites_a_spectator(serve: Any, server_config: Any,
                                                  client: Any) -> None:
    async with (serve(server_config()) as url, client(url) as a, client(url) as b,
                client(url) as friend):
        for c, name in ((a, "a"), (b, "b"), (friend, "friend")):
            await c.hello(name)
        _, prompt = await private_match(a, b)
        code = prompt["watch_code"]
        assert len(code) == 16 and set(code) <= set(CODE_ALPHABET)
        await friend.send({"t": "watch", "id": 1, "code": "-".join([code[:8], code[8:]]).lower()})
        assert (await friend.expect("ack", re=1))["seat"] is None
        seen = await friend.expect("prompt")
        assert seen["seat"] is None and seen["watch_code"] is None  # not passed further


async def test_a_finished_private_match_stays_private(serve: Any, server_config: Any,
                                                      client: Any) -> None:
    async with (serve(server_config()) as url, client(url) as a, client(url) as b,
                client(url) as eve):
        for c, name in ((a, "a"), (b, "b"), (eve, "eve")):
            await c.hello(name)
        m, _ = await quick_match(a, b, TOY)
        await a.send({"t": "resign", "id": "r", "match": m["match"]})
        await a.expect("over")
        await eve.send({"t": "watch", "id": 1, "match": m["match"]})
        assert (await eve.recv())["code"] == "not_found"
        await b.send({"t": "watch", "id": 2, "match": m["match"]})  # a player may
        assert (await b.expect("over"))["match"] == m["match"]


async def test_public_matches_can_still_be_watched_by_anyone(serve: Any, server_config: Any,
                                                             client: Any) -> None:
    async with serve(server_config()) as url, client(url) as a, client(url) as w:
        await a.hello("a")
        await w.hello("w")
        await a.send({"t": "create", "id": "c", **TOY})
        made = await a.expect("ack", re="c")
        await w.send({"t": "watch", "id": 1, "code": made["code"]})
        assert (await w.expect("ack", re=1))["match"] == made["match"]
        assert (await w.expect("prompt"))["watch_code"] is None


async def test_a_taken_code_says_not_found_and_names_no_match(serve: Any, server_config: Any,
                                                              client: Any) -> None:
    async with (serve(server_config()) as url, client(url) as a, client(url) as b,
                client(url) as eve):
        for c, name in ((a, "a"), (b, "b"), (eve, "eve")):
            await c.hello(name)
        made, _ = await private_match(a, b)
        await eve.send({"t": "join", "id": 1, "code": made["code"]})
        err = await eve.recv()
        assert err["code"] == "not_found" and "match" not in err
        assert made["match"] not in err["message"]


async def test_invite_codes_are_long_and_typed_forgivingly(serve: Any, server_config: Any,
                                                          client: Any) -> None:
    async with serve(server_config()) as url, client(url) as a, client(url) as b:
        await a.hello("a")
        await b.hello("b")
        await a.send({"t": "create", "id": "c", **TOY, "private": True})
        code = (await a.expect("ack", re="c"))["code"]
        assert len(code) == 12 and set(code) <= set(CODE_ALPHABET)
        typed = f" {code[:4]}-{code[4:8]} {code[8:]} ".lower()
        await b.send({"t": "join", "id": "j", "code": typed})
        assert (await b.expect("ack", re="j"))["seat"] == 1


def test_organisers_named_in_a_match_may_see_it() -> None:
    core = MatchCore(toy.GAME, toy.BOTS, match_id="m", config={"board": 25}, seed=b"s" * 32,
                     now=0.0, meta={"private": True, "organisers": ["org"]})
    assert Lobby.may_see(core, "org")
    assert not Lobby.may_see(core, "someone") and not Lobby.may_see(core, None)
    core.meta["private"] = False
    assert Lobby.may_see(core, "someone")
