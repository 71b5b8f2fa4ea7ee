"""Challenges and rematches on the real server, raw protocol clients."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

import kickline
from kickline_server.challenges import ChallengeLimits
from kickline_server.lobby import LobbyLimits

pytestmark = pytest.mark.anyio

TOY = {"game": "toy", "config": {"mode": "training", "board": 25}}


async def challenge(a: Any, b_name: str, rid: str = "c1", **extra: Any) -> dict[str, Any]:
    await a.send({"t": "challenge", "id": rid, "name": b_name, **TOY, **extra})
    return await a.expect("ack", re=rid)


async def test_a_challenge_accepted_makes_a_match_with_the_chosen_settings(
        serve: Any, server_config: Any, client: Any) -> None:
    async with serve(server_config()) as url, client(url) as a, client(url) as b:
        wa, wb = await a.hello("Ada"), await b.hello("Bea")
        sent = await challenge(a, wb["name"].upper(), rated=True,
                               clock={"decision": 20, "bank": 100})
        assert sent["to"] == {"player": wb["player"], "name": wb["name"]} and sent["rated"]
        got = await b.expect("challenged")
        assert got["challenge"] == sent["challenge"] and got["from"]["name"] == wa["name"]
        assert got["config"] == TOY["config"] and got["clock"]["decision"] == 20
        await b.send({"t": "challenges", "id": "l"})
        assert [c["challenge"] for c in (await b.expect("ack", re="l"))["incoming"]] == [
            sent["challenge"]]
        await b.send({"t": "accept", "id": "y", "challenge": sent["challenge"]})
        ma, mb = await a.expect("matched"), await b.expect("matched")
        ack = await b.expect("ack", re="y")  # after matched, with the match
        assert ma["match"] == mb["match"] == ack["match"]
        assert (ma["seat"], mb["seat"]) == (0, 1) and ma["rated"] and ma["challenge"]
        closed = await a.expect("challenge_closed")
        assert (closed["why"], closed["match"]) == ("accepted", ack["match"])
        prompt = await a.expect("prompt", match=ack["match"], status="playing")
        assert prompt["rated"] and prompt["clock"]["decision"] == 20
        # Answered: a second accept finds nothing; the same accept resent, its match.
        await b.send({"t": "accept", "id": "y2", "challenge": sent["challenge"]})
        assert (await b.expect("error", re="y2"))["code"] == "no_challenge"
        await b.send({"t": "accept", "id": "y", "challenge": sent["challenge"]})
        assert (await b.expect("ack", re="y"))["match"] == ack["match"]
        await a.send({"t": "challenge", "id": "c1", "name": wb["name"], **TOY})
        assert (await a.expect("ack", re="c1"))["match"] == ack["match"]


async def test_declined_withdrawn_and_refused_challenges(serve: Any, server_config: Any,
                                                         client: Any) -> None:
    async with serve(server_config()) as url, client(url) as a, client(url) as b:
        wa, wb = await a.hello("Ada"), await b.hello("Bea")
        first = await challenge(a, wb["name"])
        await b.send({"t": "decline", "id": "n", "challenge": first["challenge"]})
        await b.expect("ack", re="n")
        assert (await a.expect("challenge_closed"))["why"] == "declined"
        second = await challenge(a, wb["name"], "c2")
        await a.send({"t": "withdraw", "id": "w", "challenge": second["challenge"]})
        await a.expect("ack", re="w")
        closed = await b.expect("challenge_closed", challenge=second["challenge"])
        assert closed["why"] == "withdrawn"
        # A resend of a challenge is answered with it, not made twice.
        third = await challenge(a, wb["name"], "c3")
        assert (await challenge(a, wb["name"], "c3"))["challenge"] == third["challenge"]
        for rid, body, code in [
            ("x1", {"name": wa["name"]}, "bad_field"),  # yourself
            ("x2", {"name": "Nobody Here"}, "not_found"),
            ("x3", {}, "bad_field"),
            ("x4", {"name": wb["name"], "config": {"board": 2}}, "bad_config"),
        ]:
            await a.send({"t": "challenge", "id": rid, **TOY, **body})
            assert (await a.expect("error", re=rid))["code"] == code, rid
        async with client(url) as c:
            wc = await c.hello("Cy")
        await a.send({"t": "challenge", "id": "x5", "name": wc["name"], **TOY})
        assert (await a.expect("error", re="x5"))["code"] == "not_online"
        # At most three waiting at once.
        for i in range(2):
            await challenge(a, wb["name"], f"more{i}")
        await a.send({"t": "challenge", "id": "x6", "name": wb["name"], **TOY})
        refused = await a.expect("error", re="x6")
        assert refused["code"] == "too_many_challenges" and refused["retry_after"] > 0


async def test_an_unanswered_challenge_expires_for_both(serve: Any, server_config: Any,
                                                        client: Any) -> None:
    lobby = replace(LobbyLimits(min_decision=0.01, grace=5.0),
                    challenges=ChallengeLimits(ttl=1.0))
    async with serve(server_config(lobby=lobby)) as url, client(url) as a, client(url) as b:
        await a.hello("Ada")
        wb = await b.hello("Bea")
        sent = await challenge(a, wb["name"])
        for c in (a, b):
            assert (await c.expect("challenge_closed"))["why"] == "expired"
        await b.send({"t": "accept", "id": "y", "challenge": sent["challenge"]})
        assert (await b.expect("error", re="y"))["code"] == "no_challenge"


async def test_a_challenger_who_leaves_takes_the_challenge_along(serve: Any, server_config: Any,
                                                      client: Any) -> None:
    async with serve(server_config()) as url, client(url) as b:
        wb = await b.hello("Bea")
        async with client(url) as a:
            await a.hello("Ada")
            sent = await challenge(a, wb["name"])
        assert (await b.expect("challenge_closed"))["why"] == "left"
        await b.send({"t": "accept", "id": "y", "challenge": sent["challenge"]})
        assert (await b.expect("error", re="y"))["code"] == "no_challenge"


async def finished(a: Any, b: Any, wb: dict[str, Any]) -> dict[str, Any]:
    """A challenge accepted and resigned by a: the finished match's ``matched``."""
    sent = await challenge(a, wb["name"], "cf")
    await b.send({"t": "accept", "id": "acc", "challenge": sent["challenge"]})
    m = await a.expect("matched")
    await a.expect("prompt", match=m["match"], status="playing")
    await a.send({"t": "resign", "id": "r", "match": m["match"]})
    await a.expect("over", match=m["match"])
    await b.expect("over", match=m["match"])
    return m


async def test_a_rematch_needs_both_and_swaps_the_seats(serve: Any, server_config: Any,
                                                       client: Any) -> None:
    async with serve(server_config()) as url, client(url) as a, client(url) as b:
        wa, wb = await a.hello("Ada"), await b.hello("Bea")
        first = await finished(a, b, wb)
        await a.send({"t": "rematch", "id": "ra", "match": first["match"]})
        assert (await a.expect("ack", re="ra"))["offered"]
        offer = await b.expect("rematch_offer")
        assert offer["match"] == first["match"] and offer["from"]["name"] == wa["name"]
        await b.send({"t": "rematch", "id": "rb", "match": first["match"]})
        ma, mb = await a.expect("matched"), await b.expect("matched")
        ack = await b.expect("ack", re="rb")
        assert ma["match"] == mb["match"] == ack["match"] != first["match"]
        assert (ma["seat"], mb["seat"]) == (1, 0) and ma["rematch_of"] == first["match"]
        prompt = await b.expect("prompt", match=ack["match"], status="playing")
        assert [p["name"] for p in prompt["players"]] == [wb["name"], wa["name"]]
        # Resent (or answered late) after it was made: the same rematch.
        await a.send({"t": "rematch", "id": "ra", "match": first["match"]})
        assert (await a.expect("ack", re="ra"))["match"] == ack["match"]


async def test_a_rematch_declined_and_the_refusals(serve: Any, server_config: Any,
                                                   client: Any) -> None:
    async with serve(server_config()) as url, client(url) as a, client(url) as b:
        await a.hello("Ada")
        wb = await b.hello("Bea")
        first = await finished(a, b, wb)
        await a.send({"t": "rematch", "id": "ra", "match": first["match"]})
        await a.expect("ack", re="ra")
        await b.expect("rematch_offer")
        await b.send({"t": "rematch", "id": "no", "match": first["match"], "accept": False})
        assert (await b.expect("ack", re="no"))["offered"] is False
        assert (await a.expect("rematch_closed"))["why"] == "declined"
        # A match still being played, one against a bot, one of strangers.
        await a.send({"t": "create", "id": "bot", **TOY, "bot": "random"})
        live = await a.expect("ack", re="bot")
        await a.send({"t": "rematch", "id": "r1", "match": live["match"]})
        assert (await a.expect("error", re="r1"))["code"] in ("not_over", "bad_field")
        async with client(url) as c:
            await c.hello("Cy")
            await c.send({"t": "rematch", "id": "r2", "match": first["match"]})
            assert (await c.expect("error", re="r2"))["code"] == "not_found"


def test_kickline_rematch_config_swaps_teams_and_sides() -> None:
    config = {"mode": "standard", "board": 9, "teams": ["cyborgs", "oozes"]}
    state = kickline.GAME.setup(config)
    assert state.home_seat == -1  # no toss yet: the rematch's toss decides again
    again = kickline.GAME.rematch_config(config, state)
    assert again["teams"] == ["oozes", "cyborgs"] and again.get("home") is None
    for home in (0, 1):
        # Whoever sat in seat `home` played home; the other now sits there and is home.
        tossed = state._replace(home_seat=home)
        assert kickline.GAME.rematch_config(config, tossed)["home"] == home
