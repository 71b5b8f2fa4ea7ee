"""A tournament through the real server, in this process: the organiser role, the
messages, reserved-seat matches played by bots, results, exports over HTTP."""

from __future__ import annotations

import urllib.error
import urllib.request
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import Any

import anyio
import pytest

from kickline_server.botclient import BotState, play
from kickline_server.cli import main as cli

pytestmark = pytest.mark.anyio


# The server and client helpers are conftest's fixtures (``serve``, ``client``,
# ``server_config``): importing conftest by name would find another directory's.
Client = Any


@pytest.fixture
def person(client: Any) -> Any:
    @asynccontextmanager
    async def open_person(url: str, name: str) -> AsyncIterator[tuple[Client, dict[str, Any]]]:
        async with client(url) as c:
            welcome = await c.hello(name)
            assert welcome["t"] == "welcome", welcome
            yield c, welcome
    return open_person


async def ask(c: Client, msg: dict[str, Any]) -> dict[str, Any]:
    await c.send(msg)
    while True:
        m = await c.recv()
        if m.get("re") == msg["id"]:
            return m


def http(url: str) -> tuple[int, bytes, dict[str, str]]:
    try:
        with urllib.request.urlopen(url, timeout=10) as r:
            return r.status, r.read(), dict(r.headers)
    except urllib.error.HTTPError as e:
        return e.code, e.read(), dict(e.headers)


async def test_an_event_from_creation_to_exports(serve: Any, server_config: Any,
                                                 person: Any) -> None:
    async with serve(server_config()) as url:
        base = url.replace("ws://", "http://").removesuffix("/ws")
        async with person(url, "Org") as (org, _), \
                person(url, "Ann") as (ann, ann_w), person(url, "Ben") as (ben, ben_w):
            # The first account of a fresh server is its organiser; the others are not.
            listing = await ask(org, {"t": "tournaments", "id": "l"})
            assert listing["organiser"] is True and listing["tournaments"] == []
            refused = await ask(ann, {"t": "tcommand", "id": "x", "op": "create",
                                      "args": {"settings": {"name": "Mine"}}})
            assert refused["code"] == "not_organiser"
            made = await ask(org, {"t": "tcommand", "id": "mk", "op": "create", "args": {
                "settings": {"name": "Club night", "rounds": 2,
                             "match": {"mode": "training"}}}})
            tid = made["tournament"]
            again = await ask(org, {"t": "tcommand", "id": "mk", "op": "create", "args": {
                "settings": {"name": "Club night", "rounds": 2}}})
            assert again["tournament"] == tid  # a resent create finds its event
            for c in (ann, ben):
                joined = await ask(c, {"t": "tcommand", "id": "j", "op": "join",
                                       "tournament": tid})
                assert joined["t"] == "ack", joined
            bad = await ask(ann, {"t": "tcommand", "id": "p", "op": "pair",
                                  "tournament": tid, "args": {"round": 1}})
            assert bad["code"] == "not_organiser"
            watched = await ask(ann, {"t": "tournament", "id": "w", "tournament": tid,
                                      "watch": True})
            assert watched["tournament"]["you"] == 1 and not watched["tournament"]["organiser"]
            assert "token" not in watched["tournament"]["entries"][0]
            for op in ("pair", "start"):
                done = await ask(org, {"t": "tcommand", "id": f"{op}1", "op": op,
                                       "tournament": tid, "args": {"round": 1}})
                assert done["reply"] == {"round": 1}, done
            # Each player is told their match is ready, and plays it.
            nexts = [await ann.expect("next_match"), await ben.expect("next_match")]
            assert nexts[0]["match"] == nexts[1]["match"] == f"{tid}-1-1"
            assert nexts[0]["tournament"] == {"id": tid, "name": "Club night", "round": 1,
                                              "board": 1}
            async with anyio.create_task_group() as tg:
                for w, n in zip((ann_w, ben_w), nexts, strict=True):
                    tg.start_soon(lambda w=w, n=n: play(
                        url, state=BotState(token=w["token"], match=n["match"]),
                        strategy="greedy", seed="s"))
            await ann.expect("tournament_changed", tournament=tid)
            with anyio.fail_after(10):
                while True:
                    view = (await ask(org, {"t": "tournament", "id": "v",
                                            "tournament": tid}))["tournament"]
                    if view["rounds"][0]["status"] == "done":
                        break
                    await anyio.sleep(0.05)
            board = view["rounds"][0]["boards"][0]
            assert board["result"]["kind"] == "played"
            winner = board["home"] if board["result"]["winner"] == "home" else board["away"]
            assert view["standings"][0]["pid"] == winner
            card = await ask(ann, {"t": "tournament", "id": "c", "tournament": tid, "card": 1})
            assert card["card"]["rounds"][0]["opponent_name"].startswith("Ben")
            # Exports over HTTP: public, except the organisers' sheet of entry links.
            status, body, headers = await anyio.to_thread.run_sync(
                http, f"{base}/tournaments/{tid}/event.trf")
            assert status == 200 and body.startswith(b"012 Club night")
            assert "attachment" in headers["Content-Disposition"]
            status, body, _ = await anyio.to_thread.run_sync(
                http, f"{base}/tournaments/{tid}/standings.csv")
            assert status == 200 and body.splitlines()[0].startswith(b"rank,number,name")
            status, body, headers = await anyio.to_thread.run_sync(
                http, f"{base}/tournaments/{tid}/join.svg")
            assert status == 200 and headers["Content-Type"] == "image/svg+xml"
            status, _, _ = await anyio.to_thread.run_sync(
                http, f"{base}/tournaments/{tid}/sheet.html")
            assert status == 403
            status, _, _ = await anyio.to_thread.run_sync(
                http, f"{base}/tournaments/nope/standings.csv")
            assert status == 404


async def test_the_operator_grants_the_role_while_the_server_runs(
        serve: Any, server_config: Any, person: Any,
        capsys: pytest.CaptureFixture[str]) -> None:
    config = server_config()
    data = config.data_dir
    async with serve(config) as url, person(url, "First") as _, \
            person(url, "Zoe") as (zoe, zoe_w):
        name = zoe_w["name"]
        run: Callable[[list[str]], int] = cli
        rc = await anyio.to_thread.run_sync(run, ["admin", "grant", name,
                                                  "--data-dir", str(data)])
        assert rc == 0 and f"{name} is now an organiser" in capsys.readouterr().out
        listing = await ask(zoe, {"t": "tournaments", "id": "l"})
        assert listing["organiser"] is True
        rc = await anyio.to_thread.run_sync(run, ["admin", "grant", "Nobody Here",
                                                  "--data-dir", str(data)])
        assert rc == 1 and "no player called" in capsys.readouterr().err
        rc = await anyio.to_thread.run_sync(run, ["admin", "list", "--data-dir",
                                                  str(data)])
        assert rc == 0 and name in capsys.readouterr().out


async def test_a_round_survives_a_restart_on_redis(
        serve: Any, server_config: Any, person: Any, port: Callable[[], int],
        redis_url: str, key_prefix: str) -> None:
    """Both stores carry an event through a restart: here Redis, mid-round (the
    end-to-end tests kill an embedded-store server with SIGKILL)."""
    config = server_config(port=port(), redis_url=redis_url, redis_prefix=key_prefix)
    async with anyio.create_task_group() as bots:
        async with serve(config) as url, person(url, "Org") as (org, _), \
                person(url, "Cy") as (cy, cy_w), person(url, "Di") as (di, di_w):
            made = await ask(org, {"t": "tcommand", "id": "mk", "op": "create", "args": {
                "settings": {"name": "Redis night", "rounds": 1,
                             "match": {"mode": "training"}}}})
            tid = made["tournament"]
            for c in (cy, di):
                await ask(c, {"t": "tcommand", "id": "j", "op": "join", "tournament": tid})
            for op in ("pair", "start"):
                await ask(org, {"t": "tcommand", "id": op, "op": op, "tournament": tid,
                                "args": {"round": 1}})
            nexts = [await cy.expect("next_match"), await di.expect("next_match")]
            for w, n in zip((cy_w, di_w), nexts, strict=True):
                bots.start_soon(lambda w=w, n=n: play(
                    url, state=BotState(token=w["token"], match=n["match"]),
                    strategy="greedy", seed="r", reconnect_timeout=120))
            with anyio.fail_after(20):  # both seated: the match is being played
                while True:
                    v = (await ask(org, {"t": "tournament", "id": "v1",
                                         "tournament": tid}))["tournament"]
                    live = v["rounds"][0]["boards"][0].get("live")
                    if live and live["status"] == "playing":
                        break
                    await anyio.sleep(0.05)
        # The server is down; the bots keep trying. The same config starts it again.
        async with serve(config) as url, person(url, "Eve") as (eve, _):
            with anyio.fail_after(60):
                while True:
                    v = (await ask(eve, {"t": "tournament", "id": "v2",
                                         "tournament": tid}))["tournament"]
                    if v["status"] == "finished":
                        break
                    await anyio.sleep(0.1)
            board = v["rounds"][0]["boards"][0]
            assert board["result"]["kind"] == "played"
            assert v["standings"][0]["points"] == "1"
