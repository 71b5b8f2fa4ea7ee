"""Journeys the end-to-end tests share: pairing two players, a match outliving its server,
matches opened on one server and finished by bots through others."""

from __future__ import annotations

from typing import Any

import anyio

from kickline_server.app import ServerConfig


async def quick_match(a: Any, b: Any, game: dict[str, Any]) -> tuple[dict[str, Any],
                                                                      dict[str, Any]]:
    """``a`` and ``b`` (said hello) quick-match; returns a's ``matched`` and first prompt.
    ``a`` takes seat 0: it is queued before ``b`` asks (sent back to back on two
    connections, the server may read b's request first, and the one who waited longer
    takes seat 0)."""
    await a.send({"t": "quick", "id": 1, **game})
    await a.expect("ack", re=1)
    await b.send({"t": "quick", "id": 1, **game})
    m = await a.expect("matched")
    return m, await a.expect("prompt", status="playing")


async def restart_mid_match(serve: Any, config: ServerConfig, client: Any,
                            game: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    """Two players quick-match, seat 0 plays ``sprint``, the server stops; a new server on
    the same store resumes and both finish.  Returns (match id, results by player)."""
    from kickline_server.botclient import BotState, play

    async with serve(config) as url, client(url) as a, client(url) as b:
        wa, wb = await a.hello("a"), await b.hello("b")
        m, p = await quick_match(a, b, game)
        await a.send({"t": "decide", "id": "x", "match": m["match"], "version": p["version"],
                      "decision": "sprint"})
        await a.expect("ack", re="x")
    async with serve(config) as url:
        states = {"a": BotState(token=wa["token"], match=m["match"], seat=0),
                  "b": BotState(token=wb["token"], match=m["match"], seat=1)}
        results: dict[str, Any] = {}
        with anyio.fail_after(30):
            async with anyio.create_task_group() as tg:
                async def one(key: str, st: BotState) -> None:
                    results[key] = await play(url, state=st, seed=key, **game)
                for key, st in states.items():
                    tg.start_soon(one, key, st)
    return m["match"], results


def play_of(over: dict[str, Any]) -> list[list[Any]]:
    """What decides a finished match's outcome: each seat's decisions in order, and the
    dice.  Two secret choices made at once are logged in the order they arrived (with
    versions to match), which the network decides, so whole logs of two runs of the same
    match may differ there and nowhere else."""
    log = over["log"]
    return [[(e["d"], e["by"]) for e in log if e["k"] == "d" and e["s"] == s]
            for s in (0, 1)] + [[e["o"] for e in log if e["k"] == "c"]]


async def opening(url: str, client: Any, k: int, game: dict[str, Any], *,
                  waiter_url: str | None = None) -> tuple[str, str, str]:
    """Match ``k`` made on ``url`` by two players quick-matching (the one who waits,
    seat 0, connected to ``waiter_url`` if given: another process of the cluster; the
    newcomer's process makes the match); seat 0 plays ``sprint``.  Returns (match, seat
    0's token, seat 1's token)."""
    async with client(waiter_url or url) as a, client(url) as b:
        wa, wb = await a.hello(f"a{k}"), await b.hello(f"b{k}")
        m, p = await quick_match(a, b, game)
        await a.send({"t": "decide", "id": "x", "match": m["match"], "version": p["version"],
                      "decision": "sprint"})
        await a.expect("ack", re="x")
    return m["match"], wa["token"], wb["token"]


async def finish(urls: tuple[str, str], opened: list[tuple[str, str, str]],
                 game: dict[str, Any], during: Any = None) -> list[dict[int, Any]]:
    """Bots finish the ``opened`` matches, seat 0 through ``urls[0]``, seat 1 through
    ``urls[1]`` (seeded by match and seat); ``during(states)`` runs meanwhile.  Returns
    each match's ``over`` messages by seat."""
    from kickline_server.botclient import BotState, play

    results: list[dict[int, Any]] = [{} for _ in opened]
    states = []
    with anyio.fail_after(120):
        async with anyio.create_task_group() as tg:
            for k, (mid, ta, tb) in enumerate(opened):
                for seat, (token, url) in enumerate(((ta, urls[0]), (tb, urls[1]))):
                    st = BotState(token=token, match=mid, seat=seat)
                    states.append(st)

                    async def one(k: int = k, seat: int = seat, url: str = url,
                                  st: BotState = st) -> None:
                        results[k][seat] = await play(url, state=st, seed=f"{k}:{seat}",
                                                      **game)
                    tg.start_soon(one)
            if during is not None:
                await during(states)
    return results
