"""Accounts, identity and records end to end: the real server, raw protocol clients."""

from __future__ import annotations

import time
import urllib.request
from functools import partial
from typing import Any
from urllib.error import HTTPError

import anyio
import pytest

from kickline_server.botclient import BotState, play
from kickline_server.lobby import Lobby, LobbyLimits
from kickline_server.players import COOKIE, PlayerLimits

pytestmark = pytest.mark.anyio

TOY = {"game": "toy", "config": {"mode": "training", "board": 25}}


async def hello(client: Any, url: str, **fields: Any) -> dict[str, Any]:
    """One ``hello`` on a fresh connection; the first reply."""
    async with client(url) as c:
        await c.send({"t": "hello", "versions": [1], **fields})
        reply: dict[str, Any] = await c.recv()
        return reply


async def test_names_are_unique_and_checked(serve: Any, server_config: Any, client: Any
                                            ) -> None:
    async with serve(server_config()) as url:
        w = await hello(client, url, name="  Ada  Lovelace ")
        assert w["t"] == "welcome" and w["name"] == "Ada Lovelace"
        for name, code in [("ada lovelace", "name_taken"), ("Ada.Lovelace", "name_taken"),
                           ("Admin", "reserved_name"), ("x", "bad_name"),
                           ("Greedy Bot", "reserved_name"), ("a<b>", "bad_name")]:
            err = await hello(client, url, name=name)
            assert err["t"] == "error" and err["code"] == code, name
            assert err["message"]
        # Nothing changed: the name is still Ada's, her token still hers.
        again = await hello(client, url, token=w["token"])
        assert (again["player"], again["name"]) == (w["player"], "Ada Lovelace")
        assert (await hello(client, url))["code"] == "no_identity"


async def test_a_transfer_link_moves_the_identity_once(serve: Any, server_config: Any,
                                                       client: Any) -> None:
    async with serve(server_config()) as url, client(url) as phone:
        w = await phone.hello("Ada")
        await phone.send({"t": "transfer", "id": "t", "origin": "https://kick.example"})
        ack = await phone.expect("ack", re="t")
        assert ack["link"].startswith("https://kick.example/#/transfer/")
        assert ack["qr"].startswith("<svg") and ack["expires"] > time.time()
        assert ack["qr_uri"].startswith("data:image/svg+xml")
        code = ack["link"].rsplit("/", 1)[1]
        laptop = await hello(client, url, transfer=code)
        assert (laptop["player"], laptop["name"]) == (w["player"], w["name"])
        assert (await hello(client, url, transfer=code))["code"] == "transfer_used"
        assert (await hello(client, url, transfer="not-a-code"))["code"] == "transfer_unknown"
        await phone.send({"t": "transfer", "id": "t2", "origin": "javascript:alert(1)"})
        assert (await phone.expect("error", re="t2"))["code"] == "bad_field"


async def test_an_expired_transfer_link_says_so(serve: Any, server_config: Any,
                                                client: Any) -> None:
    limits = LobbyLimits(min_decision=0.01, players=PlayerLimits(transfer_ttl=0.0))
    async with serve(server_config(lobby=limits)) as url, client(url) as phone:
        await phone.hello("Ada")
        await phone.send({"t": "transfer", "id": "t", "origin": "http://x"})
        code = (await phone.expect("ack", re="t"))["link"].rsplit("/", 1)[1]
        with anyio.fail_after(5):
            while (reply := await hello(client, url, transfer=code))["code"] != (
                    "transfer_expired"):
                await anyio.sleep(0.01)  # the expiry is a wall-clock instant: reach it
        assert "expired" in reply["message"]


async def test_passwords_sign_in_and_wrong_ones_are_limited(serve: Any, server_config: Any,
                                                            client: Any) -> None:
    limits = LobbyLimits(min_decision=0.01, players=PlayerLimits(password_tries=3))
    async with serve(server_config(lobby=limits)) as url, client(url) as c:
        w = await c.hello("Ada")
        name = w["name"]
        assert (await hello(client, url, name=name, password="whatever1"))["code"] == (
            "no_password")
        await c.send({"t": "set_password", "id": "s", "password": "short"})
        assert (await c.expect("error", re="s"))["code"] == "bad_password"
        await c.send({"t": "set_password", "id": "s2", "password": "correct horse"})
        assert (await c.expect("ack", re="s2"))["has_password"] is True
        await c.send({"t": "set_password", "id": "s3", "password": "other horse"})
        assert (await c.expect("error", re="s3"))["code"] == "wrong_password"  # no 'old'
        ok = await hello(client, url, name=name.upper(), password="correct horse")
        assert ok["t"] == "welcome" and ok["player"] == w["player"]
        for _ in range(3):
            assert (await hello(client, url, name=name, password="wrong horse"))["code"] == (
                "wrong_password")
        limited = await hello(client, url, name=name, password="correct horse")
        assert limited["code"] == "too_many_attempts" and limited["retry_after"] > 0
        assert (await hello(client, url, name="Nobody Here", password="x" * 8))["code"] == (
            "not_found")


async def test_sign_out_everywhere_revokes_every_other_token(serve: Any, server_config: Any,
                                                             client: Any) -> None:
    async with serve(server_config()) as url, client(url) as a, client(url) as b:
        w = await a.hello("Ada")
        await b.hello(token=w["token"])
        await a.send({"t": "signout_everywhere", "id": "x"})
        ack = await a.expect("ack", re="x")
        assert ack["token"] != w["token"] and ack["cookie"]
        assert (await b.expect("error"))["code"] == "signed_out"
        assert (await hello(client, url, token=w["token"]))["code"] == "signed_out"
        assert (await hello(client, url, token=ack["token"]))["player"] == w["player"]


async def test_the_cookie_is_set_by_a_ticket_and_identifies_the_websocket(
        serve: Any, server_config: Any, client: Any) -> None:
    async with serve(server_config()) as url:
        w = await hello(client, url, name="Ada")
        http = url.replace("ws://", "http://").removesuffix("/ws")

        def get(path: str, **headers: str) -> Any:
            return urllib.request.urlopen(urllib.request.Request(http + path, headers=headers))

        resp = await anyio.to_thread.run_sync(partial(get, f"/session?ticket={w['cookie']}"))
        cookie = resp.headers["Set-Cookie"]
        assert cookie.startswith(f"{COOKIE}=v2.") and "HttpOnly" in cookie
        assert "SameSite=Lax" in cookie and "Secure" not in cookie
        with pytest.raises(HTTPError) as used:  # a ticket works once
            await anyio.to_thread.run_sync(partial(get, f"/session?ticket={w['cookie']}"))
        assert used.value.code == 403
        w2 = await hello(client, url, name="Bea")
        tls = await anyio.to_thread.run_sync(partial(
            get, f"/session?ticket={w2['cookie']}", **{"X-Forwarded-Proto": "https"}))
        assert "Secure" in tls.headers["Set-Cookie"]
        # The browser sends the cookie with the upgrade: a bare hello is that player.
        token = cookie.split(";")[0].split("=", 1)[1]
        async with client(url, additional_headers={"Cookie": f"{COOKIE}={token}"}) as c:
            await c.send({"t": "hello", "versions": [1]})
            back = await c.recv()
            assert back["player"] == w["player"] and "cookie" not in back


async def test_a_reserved_rated_match_is_your_next_match_and_moves_both_ratings(
        serve: Any, server_config: Any, client: Any) -> None:
    lobbies: list[Lobby] = []
    records: list[Any] = []
    async with serve(server_config(), on_lobby=lobbies.append) as url:
        lobby = lobbies[0]

        async def heard(rec: Any) -> None:
            records.append(rec)
        lobby.recorder.listen(heard)
        async with client(url) as a, client(url) as b:
            wa, wb = await a.hello("Ada"), await b.hello("Bea")
            mid = await lobby.reserve(((wa["player"], wa["name"]), (wb["player"], wb["name"])),
                                      config=TOY["config"], game="toy", rated=True,
                                      meta={"tournament": {"id": "t1", "round": 1}})
            note = await a.expect("next_match")
            assert (note["match"], note["seat"], note["opponent"]) == (mid, 0, wb["name"])
            await a.send({"t": "mine", "id": "m"})
            mine = (await a.expect("ack", re="m"))["matches"]
            assert mine[0]["reserved"] and mine[0]["match"] == mid
            async with client(url) as mallory:
                await mallory.hello("Mallory")
                await mallory.send({"t": "open", "id": "o", "match": mid})
                assert (await mallory.expect("error", re="o"))["code"] in ("not_found",
                                                                         "not_your_seat")
        results: dict[str, Any] = {}

        async def one(key: str, token: str, seat: int) -> None:
            results[key] = await play(url, state=BotState(token=token, match=mid, seat=seat),
                                      game="toy", seed=key)
        with anyio.fail_after(30):
            async with anyio.create_task_group() as tg:
                tg.start_soon(one, "a", wa["token"], 0)
                tg.start_soon(one, "b", wb["token"], 1)
        with anyio.fail_after(10):
            while not records:
                await anyio.sleep(0.01)  # the record is made after the final save
        async with client(url) as a:
            await a.hello(token=wa["token"])
            await a.send({"t": "profile", "id": "p"})
            profile = await a.expect("ack", re="p")
    rec = records[0].plain
    assert rec["match"] == mid and rec["rated"] and rec["tournament"] == {"id": "t1", "round": 1}
    entry = profile["recent"][0]
    assert entry["match"] == mid and entry["rated"] and entry["opponent"]["name"] == wb["name"]
    assert entry["replay"] == f"/#/m/{mid}" and entry["record"] == f"/record/{mid}.json"
    moved = profile["ratings"]["toy:training"]
    assert moved["rated"] == 1 and moved["rd"] < 350 and moved["provisional"]
    after = [next(p for p in rec["players"] if p["seat"] == s)["after"]["rating"]
             for s in (0, 1)]
    if rec["winner"] is None:
        assert after == [1500, 1500] and entry["change"] == 0
    else:  # the winner went up by what the loser lost (equal starting ratings)
        assert after[rec["winner"]] > 1500 > after[1 - rec["winner"]]
        assert entry["change"] == round(after[0] - 1500, 2)
    assert results["a"]["result"] == results["b"]["result"]


async def test_the_downloadable_record_replays(serve: Any, server_config: Any, client: Any
                                               ) -> None:
    import json

    from kickline_server import toy
    from kickline_server.botclient import BotState
    from kickline_server.dice import check_over

    async with serve(server_config()) as url:
        results: dict[str, Any] = {}
        states = {"a": BotState(), "b": BotState()}

        async def one(name: str) -> None:
            results[name] = await play(url, how="quick", name=name, seed=name, **TOY,
                                       state=states[name])
        with anyio.fail_after(30):
            async with anyio.create_task_group() as tg:
                tg.start_soon(one, "a")
                tg.start_soon(one, "b")
        mid = results["a"]["match"]
        http = url.replace("ws://", "http://").removesuffix("/ws")

        def get(path: str, token: str | None = None) -> Any:
            req = urllib.request.Request(f"{http}{path}")
            if token:  # the browser sends our cookie (set by /session)
                req.add_header("Cookie", f"kickline_token={token}")
            with urllib.request.urlopen(req) as r:
                # One Content-Type (a second one, text/plain, used to ride along).
                assert r.headers.get_all("Content-Type") == ["application/json"]
                return json.loads(r.read())

        def fetch() -> Any:
            for _ in range(200):  # recorded just after the final save
                try:
                    return get(f"/record/{mid}.json", states["a"].token)
                except HTTPError as exc:
                    if exc.code != 404:
                        raise
                    time.sleep(0.02)
            raise AssertionError("no record")
        body = await anyio.to_thread.run_sync(fetch)
        with pytest.raises(HTTPError):
            await anyio.to_thread.run_sync(urllib.request.urlopen, f"{http}/record/nope.json")
        # A quick match is private: without a player's cookie its replay does not exist.
        async with client(url) as eve:
            eve_token = (await eve.hello("eve"))["token"]
        for token in (None, eve_token, "forged"):
            with pytest.raises(HTTPError) as no:
                await anyio.to_thread.run_sync(get, f"/record/{mid}.json", token)
            assert no.value.code == 404
    assert body["record"]["match"] == mid and not body["record"]["rated"]
    final = check_over(toy.GAME, body)
    assert toy.GAME.result(final)["winner"] == body["record"]["winner"]
