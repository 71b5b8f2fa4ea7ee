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
import math
import random
import secrets
import time
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import anyio
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidStatus, InvalidURI

from . import games
from .dice import commitment
from .protocol import PROTOCOL_VERSIONS, Message, Prompts, decode_replies, encode

log = logging.getLogger(__name__)


class BotError(Exception):
    """The bot cannot play its match.  ``why`` is one of :data:`WHY`; the message is one
    line a person can act on."""

    def __init__(self, why: str, message: str) -> None:
        super().__init__(message)
        self.why = why


WHY = ("refused", "unreachable", "unknown_game", "no_opponent")
"""Why a bot gave up: the server refused its request (a bad config, an unknown invite
code, a bad token); no server answered (or it stopped answering and did not come back);
the server hosts no such game; nobody came to play within the wait."""


@dataclass(slots=True)
class BotState:
    token: str | None = None
    match: str | None = None
    seat: int | None = None
    code: str | None = None
    cursor: int = 0
    decisions: int = 0
    reconnects: int = 0
    paired: bool = False
    home_seat: int | None = None  # from the views, where the ruleset has home and visitors
    waiting_since: float | None = None
    rate_limited: int = 0
    events: list[Any] = field(default_factory=list)
    round_trips: list[float] = field(default_factory=list)
    contribution: bytes | None = None
    """The bot's dice contribution (kept across reconnects until revealed)."""


class Pacer:
    """Keeps a client under the server's message rate (``welcome.limits``).

    A token bucket a margin inside the server's own: a tenth slower, and half the burst,
    so messages bunched up on their way (a busy machine, a slow network) still arrive
    inside the server's bucket.  Without limits (an older server) it never waits."""

    def __init__(self, rate: float | None = None, burst: float | None = None, *,
                 owed_free: bool = False) -> None:
        self.rate = 0.9 * rate if rate else None
        self.owed_free = owed_free
        """The server does not count a decision the seat owes (``owed_decisions_free``)."""
        self.burst = max(1.0, (burst or 2.0) / 2)
        self._tokens = self.burst
        self._last = 0.0

    def retry_after(self) -> float:
        """How long to wait before resending a message the server refused as over its
        rate: one token's worth (half a second if the rate is unknown)."""
        return 1 / self.rate if self.rate else 0.5

    async def wait(self) -> None:
        if self.rate is None:
            return
        now = anyio.current_time()
        self._tokens = min(self.burst, self._tokens + (now - self._last) * self.rate)
        self._last = now
        if self._tokens < 1:
            await anyio.sleep((1 - self._tokens) / self.rate)
            self._tokens, self._last = 1.0, anyio.current_time()
        self._tokens -= 1


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
    rated: bool = False,
    connect_timeout: float = 5.0,
    reconnect_timeout: float = 60.0,
    wait: float | None = None,
    on_code: Callable[[str, str], None] | None = None,
    on_queued: Callable[[float | None], None] | None = None,
    state: BotState | None = None,
    drop_after: int | None = None,
    bot_seconds: float = 1.0,
) -> Message:
    """Play one match; returns the server's ``over`` message, or raises :class:`BotError`.

    ``how`` is ``"quick"`` (``rated`` or casual), ``"create"`` or ``"join"`` (with
    ``code``).  A quick request the bot re-sends after a reconnect (or a restart) keeps
    its id, so it queues again or reopens the match it was paired into.  ``on_code`` is
    called with ``(match, invite code)`` once a created match exists, ``on_queued`` with
    ``wait`` when a quick match is queued with nobody to pair yet.

    Giving up, in time: a server that does not answer the first connection within
    ``connect_timeout`` seconds is not there; one that drops the connection is tried
    again (backing off) for ``reconnect_timeout`` seconds; a quick match nobody pairs, or
    a created match nobody joins, is left after ``wait`` seconds (``None``: never).
    ``drop_after`` (tests) drops the connection once after that many decisions.  A search
    bot (``strong``, ``strongest``) thinks at most ``bot_seconds`` per decision."""
    if how not in ("quick", "create", "join"):
        raise ValueError("how is quick, create or join")
    bot = games.get(game).bots[strategy]
    timed = getattr(bot, "timed", None)
    if timed is not None:
        bot = timed(bot_seconds, time.monotonic)
    st = state or BotState()
    if st.contribution is None:
        st.contribution = (hashlib.sha256(f"{seed}:dice".encode()).digest()
                           if seed is not None else secrets.token_bytes(32))
    seed = seed if seed is not None else secrets.token_hex(8)
    lost_at: float | None = None
    started = anyio.current_time()
    delay = 0.05
    while True:
        try:
            async with connect(url, max_size=None, open_timeout=connect_timeout) as ws:
                lost_at, delay = None, 0.05
                over = await _session(ws, st, how=how, code=code, game=game, url=url,
                                      config=dict(config or {}), bot=bot, name=name, seed=seed,
                                      clock=clock, private=private, rated=rated, wait=wait,
                                      on_code=on_code, on_queued=on_queued,
                                      drop_after=drop_after)
                if over is not None:
                    return over
                drop_after = None
            why = "the server closed the connection"
        except InvalidURI as exc:
            raise BotError("unreachable", f"{url} is not a websocket URL ({exc})") from None
        except InvalidHandshake as exc:
            # Something answered, but not a Kickline websocket endpoint (a 503 is one
            # that is still starting, or out of connections: try again).
            status = exc.response.status_code if isinstance(exc, InvalidStatus) else None
            if st.token is None and status != 503:
                raise BotError("unreachable", f"{url} does not answer as a Kickline server "
                               f"({exc}); the URL is ws://HOST:PORT of `kickline serve`"
                               ) from None
            why = str(exc)
        except (ConnectionClosed, OSError, TimeoutError) as exc:
            why = str(exc) or type(exc).__name__
        now = anyio.current_time()
        if st.token is None and st.match is None:
            # Never welcomed: a server that is starting gets ``connect_timeout``, no more.
            if now - started >= connect_timeout:
                raise BotError("unreachable", f"no Kickline server answers at {url} ({why}); "
                               "start one with `kickline serve`, or check the URL")
        else:
            if lost_at is None:
                lost_at = now
                log.warning("bot %s: lost the connection (%s); reconnecting for up to %g s",
                            name, why, reconnect_timeout)
            if now - lost_at >= reconnect_timeout:
                raise BotError("unreachable", f"lost the connection to {url} ({why}) and "
                               f"could not reconnect within {reconnect_timeout:g} s")
        st.reconnects += 1
        await anyio.sleep(delay)
        delay = min(delay * 2, 2.0)


async def _session(ws: ClientConnection, st: BotState, *, how: str, code: str | None,
                   game: str, url: str, config: dict[str, Any], bot: games.Bot, name: str,
                   seed: str, clock: Mapping[str, Any] | None, private: bool, rated: bool,
                   wait: float | None, on_code: Callable[[str, str], None] | None,
                   on_queued: Callable[[float | None], None] | None,
                   drop_after: int | None) -> Message | None:
    pacer = Pacer()
    last: list[Message] = []  # the last message sent, to resend if it was over the rate

    async def send(msg: Message, *, owed: bool = False) -> None:
        if not (owed and pacer.owed_free):
            await pacer.wait()
        if msg["t"] != "hello":
            last[:] = [msg]
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
    if welcome["t"] != "welcome" and welcome.get("code") == "busy":
        # The server cannot reach its store for a moment (Redis restarting): come back
        # when it says, as a lost connection (reconnect_timeout bounds it).
        await anyio.sleep(min(float(welcome.get("retry_after") or 1.0), 10.0))
        return None
    if welcome["t"] != "welcome":
        raise BotError("refused", f"the server refused hello: {welcome.get('code')}: "
                       f"{welcome.get('message')}")
    st.token = welcome["token"]
    limits = welcome.get("limits") or {}
    pacer = Pacer(limits.get("rate"), limits.get("burst"),
                  owed_free=limits.get("owed_decisions_free") is True)
    hosted = welcome.get("games")
    if st.match is None and isinstance(hosted, list) and game not in hosted:
        raise BotError("unknown_game", f"the server at {url} hosts no game {game!r}; "
                       f"it hosts {', '.join(map(str, hosted))}")
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
            if rated:
                req["rated"] = True
        if clock and how != "join":
            req["clock"] = dict(clock)
        await send(req)
    pending: dict[str, float] = {}
    decided: set[int] = set()
    prompts = Prompts()  # protocol 2: views come as patches after the first

    async def decide(m: Message) -> None:
        if m["version"] in decided:
            return
        decided.add(m["version"])
        turn = m["turns"][st.seat or 0]
        await _decide(send, st, bot, seed, m["version"], turn, m["view"], m["legal"], pending)

    def waiting() -> None:
        if st.waiting_since is None:
            st.waiting_since = anyio.current_time()
            if how == "quick" and on_queued is not None:
                on_queued(wait)

    dropped = False
    revealed: list[bool] = []

    async def handle(msg: Message) -> Message | None:
        """Act on one message; returns the ``over`` message when the match ends."""
        nonlocal dropped
        t = msg["t"]
        if t == "ack" and msg.get("queued") is True:
            waiting()
        elif t == "ack" and "match" in msg and st.match is None:
            st.match, st.seat = msg["match"], msg.get("seat")
            st.code = msg.get("code")
            if on_code is not None and st.code and how == "create":
                on_code(msg["match"], st.code)
            if how == "create":
                waiting()
        elif t == "ack" and "version" in msg:
            sent = pending.pop(str(msg["re"]), None)
            if sent is not None:
                st.round_trips.append(anyio.current_time() - sent)
        elif t == "matched":
            st.match, st.seat, st.paired = msg["match"], msg["seat"], True
        elif t == "error":
            if msg["code"] in ("rate_limited", "busy"):
                st.rate_limited += msg["code"] == "rate_limited"
                after = msg.get("retry_after")  # the server's word, else one token's time
                await anyio.sleep(after if isinstance(after, int | float) and 0 <= after <= 60
                                  else pacer.retry_after())
                if str(msg.get("re", "")).startswith("open:") and st.match is not None:
                    # The match is moving between server processes: ask again.
                    await send({"t": "open", "id": msg["re"], "match": st.match,
                                "since": st.cursor})
                elif last:  # resend the same message (idempotent), paced this time
                    await send(last[0])
            elif msg["code"] == "unknown_game":
                raise BotError("unknown_game", msg["message"])
            elif msg.get("re") == "lobby" or msg["code"] in ("not_found", "bad_config"):
                raise BotError("refused", f"{msg['code']}: {msg['message']}")
            elif msg.get("legal") and msg.get("version") is not None:
                await decide(msg)
        elif t == "prompt" and msg["match"] == st.match:
            whole = prompts.assemble(msg)
            if whole is None:  # a patch of a view we do not hold: ask for the whole one
                await send({"t": "open", "id": f"resync:{st.cursor}", "match": st.match,
                            "since": st.cursor})
                return None
            msg = whole
            st.seat = msg["seat"]
            st.paired = st.paired or msg["status"] != "waiting"
            view = msg.get("view")
            if isinstance(view, dict) and view.get("home_seat") in (0, 1):
                st.home_seat = view["home_seat"]
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

    while True:
        timeout = math.inf
        if wait is not None and not st.paired and st.waiting_since is not None:
            timeout = st.waiting_since + wait - anyio.current_time()
        frame: bytes | str | None = None
        with anyio.move_on_after(timeout):  # a cancelled recv loses nothing (websockets)
            frame = await ws.recv()
        if frame is not None:
            for msg in decode_replies(frame):
                over = await handle(msg)
                if over is not None:
                    return over
                if dropped:
                    return None
            continue
        # Nobody came: leave the queue (closing does), or call the created match off.
        if st.match is not None:
            await send({"t": "resign", "id": "call-off", "match": st.match})
        who = "paired with this quick match" if how == "quick" else "joined this match"
        raise BotError("no_opponent", f"nobody {who} within {wait:g} s")


async def _decide(send: Callable[..., Awaitable[None]], st: BotState, bot: games.Bot,
                  seed: str, version: int, turn: int, view: Any, legal: list[str],
                  pending: dict[str, float]) -> None:
    rng = random.Random(f"{seed}:{st.seat}:{turn}")
    if getattr(bot, "thinks", False):  # a search bot: think off the loop (pings go on)
        choice = await anyio.to_thread.run_sync(bot, view, legal, rng)
    else:
        choice = bot(view, legal, rng)
    rid = f"{st.seat}:{version}"
    pending[rid] = anyio.current_time()
    st.decisions += 1
    msg: Message = {"t": "decide", "id": rid, "match": st.match, "version": version,
                    "decision": choice, "seat": st.seat}
    await send(msg, owed=True)
