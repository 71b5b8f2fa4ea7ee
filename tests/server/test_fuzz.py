"""The fuzzing campaign, in the repository: random frames into the decoder, random
messages into the schemas and the lobby, random commands into the match core.

No exception may escape (only the documented refusals), and a refused input changes
nothing.  The short form (the default) is bounded so the suite runs it in seconds;
``KICKLINE_FUZZ=<n>`` runs ``n`` examples of each cheap property and ``n/10`` of each heavy
one (nested values, command scripts), randomly seeded, and ``n`` messages over the wire
(the long form: ``KICKLINE_FUZZ=20000 pytest tests/server/test_fuzz.py``).  The figures of
a long run are in docs/SECURITY.md.
"""

from __future__ import annotations

import contextlib
import dataclasses
import os
import random
from collections import Counter
from typing import Any

import msgpack  # type: ignore[import-untyped]
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kickline_server import toy
from kickline_server.budgets import Budgets
from kickline_server.core import (
    Claim,
    Command,
    Connect,
    Decide,
    Disconnect,
    MatchCore,
    Persist,
    Resign,
    Reveal,
    Send,
    Sit,
    TimerFired,
)
from kickline_server.dice import check_over, commitment
from kickline_server.identity import Tokens
from kickline_server.protocol import (
    SCHEMAS,
    BadRequest,
    Code,
    Limits,
    ProtocolViolation,
    decode,
    validate,
)

LONG = int(os.environ.get("KICKLINE_FUZZ", "0"))
FUZZ = settings(max_examples=LONG or 200, deadline=None, derandomize=not LONG,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
HEAVY = settings(FUZZ, max_examples=LONG // 10 or 40)
"""For properties whose examples are big (nested values, command scripts)."""

# --- values a client could send -------------------------------------------------------

# Text msgpack can carry (no lone surrogates); integers msgpack can carry.
texts = st.text(st.characters(exclude_categories=("Cs",)), max_size=40)
scalars = (st.none() | st.booleans() | st.integers(min_value=-2**63, max_value=2**64 - 1)
           | st.floats(allow_nan=True) | texts | st.binary(max_size=20))
values = st.recursive(scalars, lambda inner: st.lists(inner, max_size=6)
                      | st.dictionaries(texts, inner, max_size=6),
                      max_leaves=30)
FIELD_NAMES = sorted({name for schema in SCHEMAS.values() for name in schema}
                     | {"t", "id", "x", ""})


@st.composite
def messages(draw: st.DrawFn) -> dict[str, Any]:
    """A map shaped like a client message: a real type, real and unreal field names,
    values of any kind (the right ones often enough to pass validation)."""
    t = draw(st.sampled_from([*SCHEMAS, "nope", ""]))
    msg: dict[str, Any] = {"t": t}
    for name in draw(st.lists(st.sampled_from(FIELD_NAMES), max_size=8, unique=True)):
        msg[name] = draw(_plausible(name) | values)
    return msg


def _plausible(name: str) -> st.SearchStrategy[Any]:
    return {
        "id": st.integers(0, 5) | texts,
        "version": st.integers(0, 40), "since": st.integers(0, 100),
        "seat": st.sampled_from([0, 1]), "match": texts,
        "code": texts, "decision": st.sampled_from(["jog", "sprint", "x"]),
        "versions": st.lists(st.integers(0, 3), max_size=3), "config": st.just(
            {"mode": "training", "board": 25}),
        "game": st.sampled_from(["toy", "kickline", "chess"]),
        "dice": st.text("0123456789abcdef", min_size=62, max_size=66),
        "dice_commit": st.text("0123456789abcdef", min_size=62, max_size=66),
    }.get(name, values)


# --- the decoder and the schemas -----------------------------------------------------


@FUZZ
@given(st.binary(max_size=4096))
def test_random_bytes_are_a_message_or_a_documented_refusal(frame: bytes) -> None:
    try:
        decode(frame, Limits())
    except (ProtocolViolation, BadRequest) as exc:
        assert exc.code in (Code.BAD_MSGPACK, Code.BAD_MESSAGE) and exc.message


@HEAVY
@given(values | messages())
def test_any_msgpack_value_is_a_message_or_a_documented_refusal(obj: Any) -> None:
    frame = msgpack.packb(obj, use_bin_type=True)
    try:
        msg = validate(decode(frame, Limits()))
    except ProtocolViolation as exc:
        assert exc.code == Code.BAD_MSGPACK
    except BadRequest as exc:
        assert exc.code in (Code.BAD_MESSAGE, Code.UNKNOWN_TYPE, Code.BAD_FIELD)
        assert exc.message
    else:
        assert set(msg) - {"t"} <= set(SCHEMAS[msg["t"]])


@HEAVY
@given(st.integers(1, 3000), st.sampled_from([b"\x91", b"\x81\xa1a", b"\xdc\x00\x01"]))
def test_nesting_of_any_depth_is_refused_cleanly(depth: int, opener: bytes) -> None:
    frame = opener * depth + b"\x01"
    with contextlib.suppress(ProtocolViolation, BadRequest):  # anything else fails
        decode(frame, Limits())


TOKENS = Tokens(b"k" * 32)


@HEAVY
@given(st.text(max_size=600) | st.builds(lambda a, b, c: f"v2.{a}.{b}.{c}",
                                         texts, st.text(max_size=200), texts))
def test_token_parsing_never_raises(token: str) -> None:
    assert TOKENS.verify(token) is None


# --- the match core ---------------------------------------------------------------------

A, B, C = "alice", "bob", "carol"
R = [bytes([1]) * 32, bytes([2]) * 32]


def _started(seed: int) -> MatchCore:
    core = MatchCore(toy.GAME, toy.BOTS, match_id="m", config={"board": 12}, seed=bytes(32),
                     now=0.0, meta={"code": "X"})
    core.handle(Sit(0, A, "A", conn=1, commit=commitment(R[0])), 0.0)
    core.handle(Sit(1, B, "B", conn=2, commit=commitment(R[1]) if seed % 2 else None), 0.0)
    return core


@st.composite
def commands(draw: st.DrawFn) -> Command:
    player = draw(st.sampled_from([A, B, C]))
    conn = draw(st.integers(1, 4))
    re = draw(st.integers(0, 6) | st.text(max_size=3))
    kind = draw(st.sampled_from(["decide"] * 6 + ["reveal", "connect", "disconnect", "resign",
                                                   "claim", "timer", "sit"]))
    if kind == "decide":
        return Decide(conn, player, re, draw(st.integers(-1, 40)),
                      draw(st.sampled_from(["jog", "sprint", "fly", "", "JOG!", "jog " * 9])),
                      draw(st.none() | st.integers(-1, 2)))
    if kind == "reveal":
        return Reveal(conn, player, re, draw(st.sampled_from(
            [R[0].hex(), R[1].hex(), "zz" * 32, "", "00" * 32])))
    if kind == "connect":
        return Connect(conn, draw(st.none() | st.just(player)), since=draw(st.integers(-5, 99)),
                       watch=draw(st.booleans()), re=re)
    if kind == "disconnect":
        return Disconnect(conn)
    if kind == "resign":
        return Resign(conn, player, re, draw(st.none() | st.integers(0, 1)))
    if kind == "claim":
        return Claim(conn, player, re)
    if kind == "sit":
        return Sit(draw(st.integers(0, 1)), player, "P", conn=conn, re=re)
    return TimerFired(draw(st.sampled_from(["clock:0", "clock:1", "reveal", "expire",
                                            "grace:0", "nonsense", ""])))


def _durable(core: MatchCore) -> Any:
    """Everything a refusal must leave as it was (connections are not durable)."""
    snap = core.snapshot()
    return msgpack.packb(snap, use_bin_type=True), len(core.log), core.status


@HEAVY
@given(st.integers(0, 1), st.lists(st.tuples(commands(), st.floats(0, 50)), max_size=60))
def test_random_commands_never_crash_the_core_and_refusals_change_nothing(
    seed: int, script: list[tuple[Command, float]]
) -> None:
    core = _started(seed)
    now = 1.0
    for cmd, dt in script:
        now += dt
        before = _durable(core)
        effects = core.handle(cmd, now)  # any exception fails the test
        persisted = [e for e in effects if isinstance(e, Persist)]
        sends = [e for e in effects if isinstance(e, Send)]
        assert len(persisted) <= 1
        if persisted:
            assert effects.index(persisted[0]) < min(
                (effects.index(s) for s in sends), default=len(effects))
        else:
            assert _durable(core) == before, f"{cmd} changed the match without a Persist"
        errors = [s.message for s in sends if s.message["t"] == "error"]
        assert all(e["code"] != "internal" and e["message"] for e in errors)
    if core.status == "over" and core.dice_seed is not None:
        over = core._over_message()
        check_over(toy.GAME, over)  # whatever happened, the log still verifies


# --- the lobby, over a real socket --------------------------------------------------------


def _random_value(rng: random.Random, depth: int = 0) -> Any:
    kind = rng.randrange(9 if depth < 3 else 6)
    if kind == 0:
        return None
    if kind == 1:
        return rng.random() < 0.5
    if kind == 2:
        return rng.choice([0, 1, -1, 2**63, -2**63, rng.randrange(-99, 99)])
    if kind == 3:
        return rng.choice([0.5, float("nan"), float("inf"), -0.0])
    if kind == 4:
        return "".join(rng.choice("abcé\x00 ABCDEFGHJK23-") for _ in range(rng.randrange(20)))
    if kind == 5:
        return bytes(rng.randrange(256) for _ in range(rng.randrange(4)))
    if kind == 6:
        return [_random_value(rng, depth + 1) for _ in range(rng.randrange(4))]
    return {rng.choice(FIELD_NAMES): _random_value(rng, depth + 1) for _ in range(rng.randrange(4))}


PLAUSIBLE: dict[str, Any] = {
    "version": lambda r: r.randrange(40), "since": lambda r: r.randrange(100),
    "seat": lambda r: r.randrange(2), "decision": lambda r: r.choice(["jog", "sprint", "x"]),
    "versions": lambda r: [1], "config": lambda r: {"mode": "training", "board": 25},
    "game": lambda r: r.choice(["toy", "kickline", "chess"]),
    "dice": lambda r: r.randbytes(32).hex(), "dice_commit": lambda r: r.randbytes(32).hex(),
    "id": lambda r: r.randrange(1000),
}


def _random_message(rng: random.Random, match: str, code: str) -> dict[str, Any]:
    t = rng.choice([*SCHEMAS, "nope"])
    msg: dict[str, Any] = {"t": t}
    for name in rng.sample(FIELD_NAMES, rng.randrange(6)):
        make = PLAUSIBLE.get(name)
        msg[name] = make(rng) if make and rng.random() < 0.7 else _random_value(rng)
    if rng.random() < 0.3:
        msg["match"] = match
    if rng.random() < 0.1:
        msg["code"] = code
    return msg


DOCUMENTED_CLOSES = {1000, 1001, 1002, 1003, 1007, 1008, 1009, 1013}


@pytest.mark.anyio
async def test_random_messages_over_the_wire_are_answered_never_internal(
    serve: Any, server_config: Any, client: Any
) -> None:
    """A seeded stream of random messages (some aimed at a real match) from one client
    into a live server: each is answered (a ``ping`` after it comes back ``pong``, so
    every answer to it came first), never with ``internal``; a frame the connection
    cannot survive closes it with a documented code, and the client says hello again."""
    from websockets.exceptions import ConnectionClosed

    rng = random.Random(LONG or 13)
    n = LONG or 150
    print(f"fuzz over the wire: {n} messages")
    refused: Counter[str] = Counter()
    closes: Counter[int | None] = Counter()
    # The fuzzer reconnects after every frame that closes its connection: in the long
    # form thousands of times a minute from one address, past the connection budget
    # (HTTP 429, which is not what this campaign is about: test_budgets.py is).
    budgets = dataclasses.replace(Budgets(), connections_per_minute=0)
    async with serve(server_config(budgets=budgets)) as url:
        async with client(url) as a, client(url) as b:
            await a.hello("a")
            await b.hello("b")
            await a.send({"t": "create", "id": "m", "game": "toy",
                          "config": {"mode": "training", "board": 25}})
            made = await a.expect("ack", re="m")
            await b.send({"t": "join", "id": "j", "code": made["code"]})
            await b.expect("ack", re="j")
        token = None
        sent = 0
        while sent < n:
            async with client(url) as fuzzer:
                welcome = await fuzzer.hello(token=token) if token else await fuzzer.hello("f")
                token = welcome["token"]
                try:
                    while sent < n:
                        msg = _random_message(rng, made["match"], made["code"])
                        sent += 1
                        await fuzzer.ws.send(msgpack.packb(msg, use_bin_type=True))
                        await fuzzer.send({"t": "ping"})
                        while (got := await fuzzer.recv())["t"] != "pong":
                            if got["t"] == "error":
                                assert got["code"] != "internal", (msg, got)
                                refused[got["code"]] += 1
                except ConnectionClosed:
                    assert fuzzer.ws.close_code in DOCUMENTED_CLOSES, fuzzer.ws.close_code
                    closes[fuzzer.ws.close_code] += 1
    print(f"answered {sent}, none internal: {sum(refused.values())} refusals "
          f"{dict(refused.most_common())}; closed {dict(closes)}")
    assert {"bad_field", "unknown_type"} <= set(refused)  # it did reach the refusals
