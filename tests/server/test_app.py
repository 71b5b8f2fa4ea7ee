"""End to end in one process: the real server on loopback, bot clients over websockets."""

from __future__ import annotations

import hashlib
from dataclasses import replace
from functools import partial
from typing import Any

import anyio
import pytest
from journeys import quick_match, restart_mid_match

from kickline_server import games, toy
from kickline_server.botclient import BotState, play
from kickline_server.dice import check_over

pytestmark = pytest.mark.anyio

TOY = {"game": "toy", "config": {"mode": "training", "board": 25}}


async def two_bots(url: str, a_state: BotState | None = None, **kw: Any
                   ) -> tuple[dict[str, Any], dict[str, Any]]:
    results: dict[str, Any] = {}

    async def one(name: str, seed: str, **extra: Any) -> None:
        results[name] = await play(url, how="quick", name=name, seed=seed, **TOY, **extra)

    with anyio.fail_after(30):
        async with anyio.create_task_group() as tg:
            tg.start_soon(partial(one, "a", "1", state=a_state))
            tg.start_soon(partial(one, "b", "2", **kw))
    return results["a"], results["b"]


async def test_two_bots_finish_a_match_with_verifiable_dice(serve: Any, server_config: Any
                                                            ) -> None:
    async with serve(server_config()) as url:
        a, b = await two_bots(url)
    assert a["match"] == b["match"]
    assert a["result"] == b["result"] and a["result"]["reason"] == "played"
    seed = bytes.fromhex(a["seed"])
    assert hashlib.sha256(seed).hexdigest() == a["commit"]
    final = check_over(toy.GAME, a)
    assert toy.GAME.result(final) == {k: a["result"][k] for k in ("winner", "score")}


async def test_the_servers_saves_commit_on_the_loops_thread_while_no_thread_works(
        serve: Any, server_config: Any) -> None:
    lobbies: list[Any] = []
    async with serve(server_config(), on_lobby=lobbies.append) as url:
        a, _ = await two_bots(url)
    assert a["result"]["reason"] == "played"
    store = lobbies[0].store
    assert store.inline_when == lobbies[0].threads_idle
    assert store.inline_commits > 0


KICKLINE_READY = "kickline" in games.available()


@pytest.mark.slow
@pytest.mark.skipif(not KICKLINE_READY, reason="the kickline rules package is not ready")
@pytest.mark.parametrize(("board", "strategies"), [(7, ("random", "greedy")),
                                                   (9, ("greedy", "random"))])
async def test_real_kickline_training_matches(serve: Any, server_config: Any, board: int,
                                              strategies: tuple[str, str]) -> None:
    game = games.get("kickline").game
    config = {"mode": "training", "board": board, "teams": ["training", "training"]}
    results: dict[str, Any] = {}
    states = {"a": BotState(), "b": BotState()}

    async def one(name: str, strategy: str) -> None:
        results[name] = await play(url, how="quick", game="kickline", config=config,
                                   strategy=strategy, name=name, seed=name, state=states[name])

    async with serve(server_config()) as url:
        with anyio.fail_after(120):
            async with anyio.create_task_group() as tg:
                tg.start_soon(one, "a", strategies[0])
                tg.start_soon(one, "b", strategies[1])
    a, b = results["a"], results["b"]
    assert a["result"] == b["result"] and a["result"]["reason"] == "played"
    final = check_over(game, a)
    assert game.result(final) == {k: v for k, v in a["result"].items() if k != "reason"}
    assert states["a"].decisions > 10 and states["b"].decisions > 10


async def test_a_client_drops_and_reconnects_mid_match(serve: Any, server_config: Any) -> None:
    state, other = BotState(), BotState()
    async with serve(server_config()) as url:
        a, b = await two_bots(url, a_state=other, state=state, drop_after=3)
    assert state.reconnects == 1 and other.reconnects == 0
    assert a["result"] == b["result"]
    # The dropped bot saw every event exactly once, in order, across both connections:
    # the same stream as its opponent's, except for the opponent's secret choices.
    assert len(state.events) == len(other.events) > 0
    for mine, theirs in zip(state.events, other.events, strict=True):
        if mine["e"] == "chose":
            assert mine["seat"] == theirs["seat"]
        else:
            assert mine == theirs
    assert state.events[-1]["e"] == "end"


async def test_create_join_by_code_and_watch(serve: Any, server_config: Any, client: Any
                                             ) -> None:
    codes: list[str] = []
    async with serve(server_config()) as url:
        results: dict[str, Any] = {}
        with anyio.fail_after(30):
            async with anyio.create_task_group() as tg:
                async def creator() -> None:
                    results["a"] = await play(url, how="create", seed="1", **TOY,
                                              on_code=lambda m, c: codes.append(c))
                tg.start_soon(creator)
                while not codes:
                    await anyio.sleep(0.01)
                async with client(url) as w:
                    await w.hello("watcher")
                    await w.send({"t": "watch", "id": 1, "code": codes[0]})
                    ack = await w.expect("ack")
                    assert ack["seat"] is None
                    prompt = await w.expect("prompt")
                    assert prompt["seat"] is None and prompt["legal"] == []
                    results["b"] = await play(url, how="join", code=codes[0].lower(),
                                              seed="2", **TOY)
                    over = await w.expect("over")
                    assert over["result"] == results["b"]["result"]
    assert results["a"]["result"] == results["b"]["result"]


async def test_play_against_a_server_bot(serve: Any, server_config: Any, client: Any) -> None:
    async with serve(server_config()) as url, client(url) as c:
        await c.hello("human")
        await c.send({"t": "create", "id": "c1", **TOY, "bot": "greedy"})
        ack = await c.expect("ack", re="c1")
        assert ack["seat"] == 0
        while True:
            msg = await c.recv()
            if msg["t"] == "over":
                break
            if msg["t"] == "prompt" and msg["legal"]:
                await c.send({"t": "decide", "id": f"d{msg['version']}", "match": ack["match"],
                              "version": msg["version"], "decision": msg["legal"][0]})
        assert msg["result"]["reason"] == "played"
        players = [m for m in c.seen if m["t"] == "prompt"][-1]["players"]
        assert players[1] == {"name": "greedy bot", "bot": "greedy"}


async def test_time_control_plays_defaults_then_forfeits(serve: Any, server_config: Any,
                                                         client: Any) -> None:
    async with serve(server_config()) as url, client(url) as a, client(url) as b:
        await a.hello("a")
        await b.hello("b")
        clock = {"decision": 0.05, "bank": 0, "max_timeouts": 2}
        # a is queued before b asks, so a (who waited longer) takes seat 0: sent back to
        # back, the server may read b's request first and seat b there (seen on an idle
        # machine: b "lost" the match a did not play).
        await a.send({"t": "quick", "id": 1, **TOY, "clock": clock})
        await a.expect("ack", re=1)
        await b.send({"t": "quick", "id": 1, **TOY, "clock": clock})
        m = await b.expect("matched")
        # b plays; a never answers: a's decisions time out, then a forfeits.
        while True:
            msg = await b.recv()
            if msg["t"] == "over":
                break
            if msg["t"] == "prompt" and msg["legal"]:
                await b.send({"t": "decide", "id": f"d{msg['version']}", "match": m["match"],
                              "version": msg["version"], "decision": "jog"})
        assert msg["result"] == {"winner": 1, "score": None, "reason": "timeouts", "seat": 0}
        assert [e["by"] for e in msg["log"] if e["k"] == "d" and e["s"] == 0] == ["t"]


async def test_reconnect_with_token_in_another_tab_resumes_the_seat(
    serve: Any, server_config: Any, client: Any
) -> None:
    async with serve(server_config()) as url, client(url) as a, client(url) as b:
        wa = await a.hello("a")
        await b.hello("b")
        m, p = await quick_match(a, b, TOY)
        await a.send({"t": "decide", "id": "x", "match": m["match"], "version": p["version"],
                      "decision": "sprint"})
        await a.expect("ack", re="x")
        async with client(url) as tab:
            w = await tab.hello(token=wa["token"])
            assert w["player"] == wa["player"]
            assert [{k: x[k] for k in ("match", "seat", "status")} for x in w["matches"]] == [
                {"match": m["match"], "seat": 0, "status": "playing"}]
            await tab.send({"t": "open", "id": "o", "match": m["match"], "since": 0})
            await tab.expect("ack", re="o")
            prompt = await tab.expect("prompt")
            assert prompt["events"] == [{"e": "chose", "seat": 0, "choice": "sprint"}]
            # The same id from the other tab is answered, not applied again.
            await tab.send({"t": "decide", "id": "x", "match": m["match"],
                            "version": p["version"], "decision": "jog"})
            assert (await tab.expect("ack", re="x"))["version"] == 1


async def test_server_restart_resumes_unfinished_matches(serve: Any, server_config: Any,
                                                         client: Any) -> None:
    _, results = await restart_mid_match(serve, server_config(), client, TOY)
    assert results["a"]["result"] == results["b"]["result"]
    assert results["a"]["log"][0] == {"k": "d", "s": 0, "d": "sprint", "v": 0, "by": "p"}


async def test_http_healthz_static_and_unknown_paths(serve: Any, server_config: Any,
                                                     tmp_path: Any) -> None:
    import urllib.request

    static = tmp_path / "client"
    static.mkdir()
    (static / "index.html").write_text("<p>hi</p>")
    (tmp_path / "secret.txt").write_text("no")
    async with serve(server_config(client_dir=static)) as url:
        base = url.replace("ws://", "http://").removesuffix("/ws")

        def get(path: str) -> tuple[int, bytes]:
            try:
                with urllib.request.urlopen(base + path, timeout=5) as r:
                    return r.status, r.read()
            except urllib.error.HTTPError as e:
                return e.code, e.read()

        status, body = await anyio.to_thread.run_sync(get, "/healthz")
        assert status == 200 and b'"ok": true' in body
        assert await anyio.to_thread.run_sync(get, "/") == (200, b"<p>hi</p>")
        assert (await anyio.to_thread.run_sync(get, "/nope.js"))[0] == 404
        assert (await anyio.to_thread.run_sync(get, "/../secret.txt"))[0] == 404
        assert (await anyio.to_thread.run_sync(get, "/%2e%2e/secret.txt"))[0] == 404


@pytest.mark.skipif(not KICKLINE_READY, reason="the kickline rules package is not ready")
async def test_quick_match_pairs_by_mode_and_board_and_each_player_keeps_their_team(
    serve: Any, server_config: Any, client: Any
) -> None:
    def ask(team: str, board: int = 7) -> dict[str, Any]:
        return {"game": "kickline", "config": {"mode": "advanced", "board": board,
                                               "teams": [team, "oozes"]}}

    async with serve(server_config()) as url, client(url) as a, client(url) as b, \
            client(url) as c:
        for who in (a, b, c):
            await who.hello()
        await a.send({"t": "quick", "id": 1, **ask("fire-demons")})
        await a.expect("ack", re=1, queued=True)
        await c.send({"t": "quick", "id": 1, **ask("cyborgs", board=9)})  # another board
        await c.expect("ack", re=1, queued=True)
        await b.send({"t": "quick", "id": 1, **ask("telekinetics")})
        await b.expect("ack", re=1, queued=False)
        m = await a.expect("matched")
        prompt = await a.expect("prompt", status="playing")
        assert m["seat"] == 0
        assert prompt["view"]["config"]["teams"] == ["fire-demons", "telekinetics"]


def test_tune_gc_freezes_startup_objects_and_raises_the_thresholds() -> None:
    import gc

    from kickline_server.app import GC_THRESHOLD, tune_gc

    before = gc.get_threshold()
    try:
        tune_gc()
        assert gc.get_threshold() == GC_THRESHOLD
        assert gc.get_freeze_count() > 0
    finally:
        gc.unfreeze()
        gc.set_threshold(*before)


async def test_a_create_resent_after_a_restart_is_answered_with_the_same_match(
    serve: Any, server_config: Any, client: Any
) -> None:
    """Idempotent ids survive a restart: the id is kept in the match's snapshot."""
    config = server_config()
    async with serve(config) as url, client(url) as a:
        w = await a.hello("a")
        await a.send({"t": "create", "id": "c1", **TOY})
        first = await a.expect("ack", re="c1")
    async with serve(config) as url, client(url) as a:
        await a.hello(token=w["token"])
        await a.send({"t": "create", "id": "c1", **TOY})
        again = await a.expect("ack", re="c1")
        assert again["match"] == first["match"]
        await a.send({"t": "list", "id": "l", "game": "toy"})
        assert len((await a.expect("ack", re="l"))["matches"]) == 1


async def test_the_list_shows_open_tables_and_live_public_matches(
        serve: Any, server_config: Any, client: Any) -> None:
    """The lobby's two lists: a public match waiting is an open table; once joined it is a
    live match to watch; a private match is in neither."""
    async with serve(server_config()) as url, client(url) as a, client(url) as b:
        await a.hello("host")
        await b.hello("guest")
        await a.send({"t": "create", "id": "c1", **TOY})
        made = await a.expect("ack", re="c1")
        await a.send({"t": "create", "id": "c2", **TOY, "private": True})
        await a.expect("ack", re="c2")
        await b.send({"t": "list", "id": "l1", "game": "toy"})
        before = await b.expect("ack", re="l1")
        assert [m["match"] for m in before["matches"]] == [made["match"]]
        assert before["live"] == []
        await b.send({"t": "join", "id": "j", "code": made["code"]})
        await b.expect("ack", re="j")
        await b.send({"t": "list", "id": "l2", "game": "toy"})
        after = await b.expect("ack", re="l2")
        assert after["matches"] == []
        assert [m["match"] for m in after["live"]] == [made["match"]]
        assert [n.split("-")[0] for n in after["live"][0]["players"]] == ["host", "guest"]


async def test_odds_for_a_player_whose_rules_have_not_loaded(
        serve: Any, server_config: Any, client: Any) -> None:
    """The server's odds are the ones the rules give on the player's own view; a
    spectator gets none."""
    from kickline.odds import decision_odds
    from kickline.preview import state_from_view

    async with serve(server_config()) as url, client(url) as c, client(url) as w:
        await c.hello("human")
        await w.hello("watcher")
        await c.send({"t": "create", "id": "c1", "game": "kickline",
                      "config": {"mode": "training", "board": 7}, "bot": "greedy"})
        match = (await c.expect("ack", re="c1"))["match"]
        checked = 0
        with anyio.fail_after(120):
            while checked < 2:
                msg = await c.recv()
                if msg["t"] == "over":
                    break
                if msg["t"] != "prompt" or not msg["legal"]:
                    continue
                frame = msg["view"]["prompt"]["frame"]
                if frame in ("cards_secret", "action") and checked < 2:
                    await c.send({"t": "odds", "id": f"o{msg['version']}", "match": match})
                    got = await c.expect("ack", re=f"o{msg['version']}")
                    want = decision_odds(state_from_view(msg["view"]), msg["seat"])
                    assert got["version"] == msg["version"] and got["odds"] == want
                    checked += bool(want)
                await c.send({"t": "decide", "id": f"d{msg['version']}", "match": match,
                              "version": msg["version"], "decision": msg["legal"][0]})
        assert checked == 2
        await w.send({"t": "odds", "id": "ow", "match": match})
        assert (await w.expect("error", re="ow"))["code"] in ("not_your_seat", "not_found")


async def test_play_against_a_thinking_bot(serve: Any, server_config: Any, client: Any) -> None:
    """The strong bot searches off the event loop (a worker thread, at most bot_seconds a
    decision) and its decisions arrive like any other bot's."""
    base = server_config().lobby
    lobby = replace(base, actor=replace(base.actor, bot_seconds=0.2))
    async with serve(server_config(lobby=lobby)) as url, client(url) as c:
        await c.hello("human")
        await c.send({"t": "create", "id": "c1", "game": "kickline", "bot": "strong",
                      "config": {"mode": "training", "board": 7}})
        ack = await c.expect("ack", re="c1")
        bot_moves = 0
        while bot_moves < 3:
            msg = await c.recv()
            if msg["t"] != "prompt":
                continue
            bot_moves += sum(1 for e in msg["events"] if e.get("seat") == 1
                             and e["t"] in ("decision", "chosen"))
            if msg["legal"]:
                await c.send({"t": "decide", "id": f"d{msg['version']}", "match": ack["match"],
                              "version": msg["version"], "decision": msg["legal"][0]})
        players = [m for m in c.seen if m["t"] == "prompt"][-1]["players"]
        assert players[1] == {"name": "strong bot", "bot": "strong"}


async def test_the_server_listens_while_it_resumes_its_matches(server_config: Any,
                                                               client: Any) -> None:
    """A big store takes a while to resume (the campaign: 16.7 s with no listener):
    health checks and the page are answered meanwhile; websockets and the players'
    routes wait for it (half the handshake timeout), then are told to come back (503
    with Retry-After); once resumed they are served."""
    import json
    import socket

    from test_gate import raw_http
    from websockets.exceptions import InvalidStatus

    from kickline_server.app import run_server

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    url = f"ws://127.0.0.1:{port}/ws"
    release, shutdown = anyio.Event(), anyio.Event()

    def slow_resume(lobby: Any) -> None:
        resume = lobby.recover

        async def held() -> int:
            await release.wait()
            return int(await resume())
        lobby.recover = held

    async def get(path: str) -> tuple[int, dict[str, Any]]:
        got = await raw_http(url, f"GET {path} HTTP/1.1\r\nHost: x\r\n\r\n".encode())
        head, _, body = got.partition(b"\r\n\r\n")
        status = int(head.split(b" ", 2)[1])
        return status, json.loads(body) if body.startswith(b"{") else {"head": head}

    async with anyio.create_task_group() as tg:
        config = server_config(port=port)
        config = replace(config, transport=replace(config.transport, handshake_timeout=1.0))
        tg.start_soon(partial(run_server, config, shutdown, on_lobby=slow_resume))
        with anyio.fail_after(20):
            while True:  # until it listens
                try:
                    status, health = await get("/healthz")
                    break
                except OSError:
                    await anyio.sleep(0.02)
        assert status == 200 and health["starting"] is True
        results: list[Any] = []

        async def bot(name: str) -> None:  # refused at first (503): it tries again
            results.append(await play(url, how="quick", name=name, seed=name, **TOY))
        for name in ("early", "bird"):
            tg.start_soon(bot, name)
        status, ready = await get("/readyz")
        assert status == 503 and any("starting" in why for why in ready["why"])
        status, answer = await get("/session?ticket=x")
        assert status == 503 and b"\r\nRetry-After: 2" in answer["head"]
        with pytest.raises(InvalidStatus) as refused:
            async with client(url):
                pass
        assert refused.value.response.status_code == 503
        assert refused.value.response.headers["Retry-After"] == "2"
        release.set()
        with anyio.fail_after(20):
            while (await get("/healthz"))[1]["starting"]:
                await anyio.sleep(0.02)
        async with client(url) as c:
            assert (await c.hello("late"))["t"] == "welcome"
        with anyio.fail_after(30):
            while len(results) < 2:  # the two bots that came too early played
                await anyio.sleep(0.02)
        assert results[0]["match"] == results[1]["match"]
        shutdown.set()
