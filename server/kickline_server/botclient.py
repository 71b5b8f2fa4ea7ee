"""A bot that plays one match over the network, through the browser's protocol.

:func:`play` connects, says hello (keeping the token it is given), creates, joins
or quick-matches a match, answers every prompt that lists legal decisions with the
ruleset's bot, reconnects on its own (same token, ``open`` with the next event
index it has not seen) when the connection drops, and returns the ``over`` message.

Decision ids are ``"<seat>:<version>"``, so a decision resent after a reconnect
carries the same id and the server answers it instead of applying it twice.  With
a ``seed``, the bot's random choices come from ``Random("<seed>:<seat>:<turn>")``
where ``turn`` counts the seat's earlier decisions (the prompt's ``turns``): unlike
the version, that does not depend on which seat's secret choice reached the server
first, so a whole match is reproducible from the seeds, across reconnects and
server restarts.

The bot contributes to the dice like a browser does (``docs/PROTOCOL.md``, "Provably
fair dice"): it commits to 32 bytes with its lobby request and reveals them once its
match has started.  With a ``seed`` they are ``sha256("<seed>:dice")``, so seeded
matches stay reproducible; without, they are random.
"""

from __future__ import annotations

import hashlib
import logging
import random
import secrets
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import anyio
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake

from . import games
from .dice import commitment
from .protocol import PROTOCOL_VERSIONS, Message, decode_replies, encode

log = logging.getLogger(__name__)


class BotError(Exception):
    """The server refused the bot's lobby request (bad config, unknown code...)."""


@dataclass(slots=True)
class BotState:
    token: str | None = None
    match: str | None = None
    seat: int | None = None
    code: str | None = None
    cursor: int = 0
    decisions: int = 0
    reconnects: int = 0
    events: list[Any] = field(default_factory=list)
    round_trips: list[float] = field(default_factory=list)
    contribution: bytes | None = None
    """The bot's dice contribution (kept across reconnects until revealed)."""


async def play(
    url: str,
    *,
    how: str = "quick",
    code: str | None = None,
    game: str = "kickline",
    config: Mapping[str, Any] | None = None,
    strategy: str = "random",
    name: str = "robot",
    seed: str | None = None,
    clock: Mapping[str, Any] | None = None,
    private: bool = False,
    max_reconnects: int = 50,
    on_code: Callable[[str, str], None] | None = None,
    state: BotState | None = None,
    drop_after: int | None = None,
) -> Message:
    """Play one match; returns the server's ``over`` message.

    ``how`` is ``"quick"``, ``"create"`` or ``"join"`` (with ``code``).  ``on_code``
    is called with ``(match, invite code)`` once a created match exists.
    ``drop_after`` (tests) drops the connection once after that many decisions."""
    if how not in ("quick", "create", "join"):
        raise ValueError("how is quick, create or join")
    bot = games.get(game).bots[strategy]
    st = state or BotState()
    if st.contribution is None:
        st.contribution = (hashlib.sha256(f"{seed}:dice".encode()).digest()
                           if seed is not None else secrets.token_bytes(32))
    seed = seed if seed is not None else secrets.token_hex(8)
    delay = 0.05
    while True:
        try:
            async with connect(url, max_size=None, open_timeout=10) as ws:
                over = await _session(ws, st, how=how, code=code, game=game,
                                      config=dict(config or {}), bot=bot, name=name, seed=seed,
                                      clock=clock, private=private, on_code=on_code,
                                      drop_after=drop_after)
                if over is not None:
                    return over
                drop_after = None
        except (ConnectionClosed, OSError, InvalidHandshake, TimeoutError) as exc:
            log.info("bot %s: connection lost (%s); reconnecting", name, exc)
        st.reconnects += 1
        if st.reconnects > max_reconnects:
            raise BotError(f"gave up after {max_reconnects} reconnects")
        await anyio.sleep(delay)
        delay = min(delay * 2, 2.0)


async def _session(ws: ClientConnection, st: BotState, *, how: str, code: str | None,
                   game: str, config: dict[str, Any], bot: games.Bot, name: str, seed: str,
                   clock: Mapping[str, Any] | None, private: bool,
                   on_code: Callable[[str, str], None] | None,
                   drop_after: int | None) -> Message | None:
    async def send(msg: Message) -> None:
        await ws.send(encode(msg))

    hello: Message = {"t": "hello", "versions": list(PROTOCOL_VERSIONS)}
    if st.token:
        hello["token"] = st.token
    else:
        # Every player is an account with a name of its own: a suffix keeps bots that
        # share a --name from colliding (the server refuses a taken name).
        hello["name"] = f"{name[:13]}-{secrets.token_hex(3)}"
    await send(hello)
    welcome = decode_replies(await ws.recv())[0]
    if welcome["t"] != "welcome":
        raise BotError(f"hello refused: {welcome}")
    st.token = welcome["token"]
    if st.match is not None:
        await send({"t": "open", "id": f"open:{st.reconnects}", "match": st.match,
                    "since": st.cursor})
    else:
        assert st.contribution is not None
        commit = commitment(st.contribution)
        if how == "create":
            req: Message = {"t": "create", "id": "lobby", "game": game, "config": config,
                            "private": private, "dice_commit": commit}
        elif how == "join":
            req = {"t": "join", "id": "lobby", "code": code or "", "dice_commit": commit}
        else:
            req = {"t": "quick", "id": "lobby", "game": game, "config": config,
                   "dice_commit": commit}
        if clock and how != "join":
            req["clock"] = dict(clock)
        await send(req)
    pending: dict[str, float] = {}
    decided: set[int] = set()
    last: list[Message] = []

    async def decide(m: Message) -> None:
        if m["version"] in decided:
            return
        decided.add(m["version"])
        turn = m["turns"][st.seat or 0]
        last[:] = [await _decide(send, st, bot, seed, m["version"], turn, m["view"],
                                 m["legal"], pending)]

    dropped = False
    revealed: list[bool] = []

    async def handle(msg: Message) -> Message | None:
        """Act on one message; returns the ``over`` message when the match ends."""
        nonlocal dropped
        t = msg["t"]
        if t == "ack" and "match" in msg and st.match is None:
            st.match, st.seat = msg["match"], msg.get("seat")
            st.code = msg.get("code")
            if on_code is not None and st.code and how == "create":
                on_code(msg["match"], st.code)
        elif t == "ack" and "version" in msg:
            sent = pending.pop(str(msg["re"]), None)
            if sent is not None:
                st.round_trips.append(anyio.current_time() - sent)
        elif t == "matched":
            st.match, st.seat = msg["match"], msg["seat"]
        elif t == "error":
            if msg["code"] in ("rate_limited", "busy"):
                await anyio.sleep(0.5)  # then resend the same message: it is idempotent
                if last:
                    await send(last[0])
            elif msg.get("re") == "lobby" or msg["code"] in ("not_found", "bad_config"):
                raise BotError(f"{msg['code']}: {msg['message']}")
            elif msg.get("legal") and msg.get("version") is not None:
                await decide(msg)
        elif t == "prompt" and msg["match"] == st.match:
            st.seat = msg["seat"]
            seat = st.seat if st.seat is not None else 0
            if (msg["status"] == "playing" and msg.get("commits", [None, None])[seat]
                    and not msg["revealed"][seat] and not revealed):
                revealed.append(True)  # once per connection; a later prompt says if it took
                assert st.contribution is not None
                await send({"t": "reveal", "id": "reveal", "match": st.match,
                            "dice": st.contribution.hex()})
            st.events.extend(msg["events"])
            st.cursor = msg["next"]
            if msg["legal"]:
                await decide(msg)
                if drop_after is not None and st.decisions >= drop_after:
                    ws.transport.abort()  # an abrupt drop, as a network failure would be
                    dropped = True
        elif t == "over" and msg["match"] == st.match:
            return msg
        return None

    async for frame in ws:
        for msg in decode_replies(frame):
            over = await handle(msg)
            if over is not None:
                return over
            if dropped:
                return None
    return None


async def _decide(send: Callable[[Message], Any], st: BotState, bot: games.Bot, seed: str,
                  version: int, turn: int, view: Any, legal: list[str],
                  pending: dict[str, float]) -> Message:
    rng = random.Random(f"{seed}:{st.seat}:{turn}")
    choice = bot(view, legal, rng)
    rid = f"{st.seat}:{version}"
    pending[rid] = anyio.current_time()
    st.decisions += 1
    msg: Message = {"t": "decide", "id": rid, "match": st.match, "version": version,
                    "decision": choice, "seat": st.seat}
    await send(msg)
    return msg
