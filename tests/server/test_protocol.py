"""Framing and validation of client messages."""

from __future__ import annotations

from typing import Any

import msgpack  # type: ignore[import-untyped]
import pytest

from kickline_server import protocol as p


def test_round_trip() -> None:
    msg = {"t": "decide", "id": "a1", "match": "m", "version": 3, "decision": "jog"}
    assert p.validate(p.decode(p.encode(msg))) == msg


@pytest.mark.parametrize("frame", [b"\xc1", b"\x92\x01", b"\x81\xa1t"])
def test_malformed_msgpack_is_a_violation(frame: bytes) -> None:
    with pytest.raises(p.ProtocolViolation) as e:
        p.decode(frame)
    assert e.value.code == p.Code.BAD_MSGPACK
    assert e.value.close_code == p.Close.INVALID_DATA


def test_text_frames_are_a_violation() -> None:
    with pytest.raises(p.ProtocolViolation) as e:
        p.decode('{"t": "hello"}')
    assert e.value.code == p.Code.NOT_BINARY


@pytest.mark.parametrize("obj", [
    {"t": "x", "a": list(range(100))},  # array too long
    {"t": "x" * 2000},  # string too long
    {"t": "x", "b": b"bytes"},  # binary not allowed
    {"t": "x", "a": [[[[[[[[1]]]]]]]]},  # too deep
    {str(i): i for i in range(40)},  # map too long
])
def test_unpacking_limits(obj: Any) -> None:
    with pytest.raises(p.ProtocolViolation) as e:
        p.decode(msgpack.packb(obj, use_bin_type=True))
    assert e.value.code == p.Code.BAD_MSGPACK


def test_non_string_map_keys_are_refused() -> None:
    with pytest.raises(p.ProtocolViolation):
        p.decode(msgpack.packb({1: "a", "t": "ping"}))


@pytest.mark.parametrize("obj", [[1, 2], 5, {"x": 1}, {"t": 3}])
def test_not_a_message(obj: Any) -> None:
    with pytest.raises(p.BadRequest) as e:
        p.decode(msgpack.packb(obj))
    assert e.value.code == p.Code.BAD_MESSAGE


def test_unknown_type_keeps_the_id() -> None:
    with pytest.raises(p.BadRequest) as e:
        p.validate({"t": "teleport", "id": 7})
    assert (e.value.code, e.value.re) == (p.Code.UNKNOWN_TYPE, 7)


@pytest.mark.parametrize("msg", [
    {"t": "decide", "id": "a", "match": "m", "version": "3", "decision": "jog"},
    {"t": "decide", "id": "a", "match": "m", "version": -1, "decision": "jog"},
    {"t": "decide", "id": "a", "match": "m", "version": True, "decision": "jog"},
    {"t": "decide", "id": "a", "match": "m", "version": 1, "decision": 5},
    {"t": "decide", "id": "a", "match": "m", "version": 1, "decision": "jog", "seat": 2},
    {"t": "decide", "id": "", "match": "m", "version": 1, "decision": "jog"},
    {"t": "decide", "id": "x" * 65, "match": "m", "version": 1, "decision": "jog"},
    {"t": "decide", "id": 1.5, "match": "m", "version": 1, "decision": "jog"},
    {"t": "decide", "id": "a", "version": 1, "decision": "jog"},
    {"t": "decide", "id": "a", "match": "m", "version": 1, "decision": "jog", "x": 1},
    {"t": "hello", "versions": 1},
    {"t": "create", "id": 1, "config": []},
    {"t": "create", "id": 1, "config": {}, "private": "yes"},
])
def test_wrong_fields(msg: dict[str, Any]) -> None:
    with pytest.raises(p.BadRequest) as e:
        p.validate(msg)
    assert e.value.code == p.Code.BAD_FIELD
    assert e.value.message


def test_every_client_type_has_a_schema_and_validates_a_minimal_message() -> None:
    samples = {
        "hello": {"versions": [1]}, "ping": {}, "create": {"id": 1, "config": {}},
        "join": {"id": 1, "code": "ABC"}, "quick": {"id": 1, "config": {}},
        "queues": {"id": 1, "config": {}}, "cancel": {"id": 1}, "list": {"id": 1},
        "challenge": {"id": 1, "config": {}}, "accept": {"id": 1, "challenge": "c"},
        "decline": {"id": 1, "challenge": "c"}, "withdraw": {"id": 1, "challenge": "c"},
        "challenges": {"id": 1}, "rematch": {"id": 1, "match": "m"},
        "open": {"id": 1, "match": "m"}, "watch": {"id": 1, "match": "m"},
        "odds": {"id": 1, "match": "m"},
        "decide": {"id": 1, "match": "m", "version": 0, "decision": "jog"},
        "resign": {"id": 1, "match": "m"}, "claim": {"id": 1, "match": "m"},
        "mine": {"id": 1}, "profile": {"id": 1}, "history": {"id": 1},
        "leaderboard": {"id": 1, "mode": "standard"}, "set_password": {"id": 1},
        "transfer": {"id": 1, "origin": "https://x"}, "signout_everywhere": {"id": 1},
        "reveal": {"id": 1, "match": "m", "dice": "00" * 32},
        "tournaments": {"id": 1}, "tournament": {"id": 1, "tournament": "t"},
        "tcommand": {"id": 1, "op": "join", "tournament": "t"},
    }
    assert set(samples) == set(p.SCHEMAS)
    for t, fields in samples.items():
        assert p.validate({"t": t, **fields})["t"] == t


def test_error_message_shape() -> None:
    assert p.error("x", "why", 3, match="m") == {
        "t": "error", "code": "x", "message": "why", "re": 3, "match": "m"}
    assert "re" not in p.error("x", "why")


def test_deep_nesting_is_a_bad_frame_not_a_crash() -> None:
    # 1 000 nested arrays in 1 001 bytes (under msgpack's own stack limit): a recursive
    # depth check raised RecursionError, which escaped as ``internal``.
    frame = b"\x91" * 1000 + b"\x01"
    with pytest.raises(p.ProtocolViolation) as e:
        p.decode(frame, p.Limits(max_array_len=64))
    assert (e.value.code, e.value.close_code) == (p.Code.BAD_MSGPACK, p.Close.INVALID_DATA)


def test_nesting_at_the_limit_is_fine_one_more_is_not() -> None:
    def nested(levels: int) -> Any:
        obj: Any = 1
        for _ in range(levels - 1):
            obj = [obj]
        return {"t": "x", "a": obj}

    assert p.decode(msgpack.packb(nested(6)))["t"] == "x"
    with pytest.raises(p.ProtocolViolation):
        p.decode(msgpack.packb(nested(7)))


def test_a_refusal_with_retry_after_says_when() -> None:
    bad = p.BadRequest(p.Code.BUSY, "later", 4, retry_after=1.234)
    assert bad.reply() == {"t": "error", "code": "busy", "message": "later", "re": 4,
                           "retry_after": 1.3}
    assert "retry_after" not in p.BadRequest(p.Code.BUSY, "later").reply()
