"""The wire protocol: msgpack framing, message schemas, validation, error codes.

Every frame is one binary websocket message holding one msgpack map with a ``t``
(type) field.  ``docs/PROTOCOL.md`` documents every message; this module is the
single place that decides whether a client message is well formed.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Final

import msgpack  # type: ignore[import-untyped]

from . import metrics
from .patch import apply_patch

PROTOCOL_VERSIONS: Final = (1, 2)
"""Protocol versions this server speaks, oldest first.  2: a ``prompt`` after the first
may carry the view as a patch from the last one (``base`` + ``patch``, see
docs/PROTOCOL.md); a client that speaks only 1 always gets whole views."""

Message = dict[str, Any]
MsgId = str | int


class Code:
    """Error codes (the ``code`` field of an ``error`` message)."""

    BAD_MSGPACK: Final = "bad_msgpack"  # close 1007
    NOT_BINARY: Final = "not_binary"  # close 1003
    BAD_MESSAGE: Final = "bad_message"  # not a map, or no string ``t``
    UNKNOWN_TYPE: Final = "unknown_type"
    BAD_FIELD: Final = "bad_field"
    UNSUPPORTED_VERSION: Final = "unsupported_version"  # close 1002
    HELLO_REQUIRED: Final = "hello_required"  # close 1008
    HANDSHAKE_TIMEOUT: Final = "handshake_timeout"  # close 1008
    IDLE_TIMEOUT: Final = "idle_timeout"  # close 1008
    BAD_TOKEN: Final = "bad_token"
    BAD_NAME: Final = "bad_name"
    RATE_LIMITED: Final = "rate_limited"
    NOT_FOUND: Final = "not_found"
    NOT_YOUR_SEAT: Final = "not_your_seat"
    NOT_YOUR_TURN: Final = "not_your_turn"
    STALE_VERSION: Final = "stale_version"
    ILLEGAL_DECISION: Final = "illegal_decision"
    MALFORMED_DECISION: Final = "malformed_decision"
    MATCH_OVER: Final = "match_over"
    MATCH_FULL: Final = "match_full"
    NOT_STARTED: Final = "not_started"
    BAD_CONFIG: Final = "bad_config"
    UNKNOWN_GAME: Final = "unknown_game"
    UNKNOWN_BOT: Final = "unknown_bot"
    ALREADY_QUEUED: Final = "already_queued"
    TOO_MANY_IDENTITIES: Final = "too_many_identities"  # close 1008
    TOO_MANY_CREATES: Final = "too_many_creates"
    TOO_MANY_WAITING: Final = "too_many_waiting"
    TOO_MANY_MATCHES: Final = "too_many_matches"
    TOO_MANY_WATCHES: Final = "too_many_watches"
    LOCKED_OUT: Final = "locked_out"
    MATCH_DAMAGED: Final = "match_damaged"
    BAD_REVEAL: Final = "bad_reveal"
    REVEAL_CLOSED: Final = "reveal_closed"
    BUSY: Final = "busy"
    SHUTTING_DOWN: Final = "shutting_down"
    RECONNECT: Final = "reconnect"  # close 1012: reconnect now (drain, match moved)
    INTERNAL: Final = "internal"
    # accounts
    NO_IDENTITY: Final = "no_identity"  # close 1008
    NAME_TAKEN: Final = "name_taken"  # close 1008
    RESERVED_NAME: Final = "reserved_name"  # close 1008
    SIGNED_OUT: Final = "signed_out"  # close 1008
    WRONG_PASSWORD: Final = "wrong_password"
    NO_PASSWORD: Final = "no_password"
    BAD_PASSWORD: Final = "bad_password"
    TOO_MANY_ATTEMPTS: Final = "too_many_attempts"
    TRANSFER_USED: Final = "transfer_used"
    TRANSFER_EXPIRED: Final = "transfer_expired"
    TRANSFER_UNKNOWN: Final = "transfer_unknown"
    # presence, challenges, rematches
    CANNOT_CLAIM: Final = "cannot_claim"
    NOT_ONLINE: Final = "not_online"
    NO_CHALLENGE: Final = "no_challenge"
    NOT_OVER: Final = "not_over"
    TOO_MANY_CHALLENGES: Final = "too_many_challenges"


class Close:
    """Websocket close codes the server uses."""

    NORMAL: Final = 1000
    GOING_AWAY: Final = 1001
    PROTOCOL_ERROR: Final = 1002
    UNSUPPORTED_DATA: Final = 1003
    INVALID_DATA: Final = 1007
    POLICY: Final = 1008
    TOO_BIG: Final = 1009
    INTERNAL_ERROR: Final = 1011
    SERVICE_RESTART: Final = 1012
    TRY_AGAIN_LATER: Final = 1013


class ProtocolViolation(Exception):
    """A frame the connection cannot survive; closes with ``close_code``."""

    def __init__(self, code: str, message: str, close_code: int) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.close_code = close_code


class BadRequest(Exception):
    """A well-framed message that is wrong; answered with an ``error``, state unchanged."""

    def __init__(self, code: str, message: str, re: MsgId | None = None, *,
                 retry_after: float | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.re = re
        self.retry_after = retry_after

    def reply(self) -> Message:
        """The ``error`` message that answers it."""
        if self.retry_after is None:
            return error(self.code, self.message, self.re)
        return error(self.code, self.message, self.re, retry_after=retry(self.retry_after))


def retry(seconds: float) -> float:
    """A ``retry_after`` value: seconds, rounded up to a tenth, at least 0.1."""
    return max(0.1, math.ceil(seconds * 10) / 10)


@dataclass(frozen=True, slots=True)
class Limits:
    """Unpacking limits for one frame (the frame size itself is a transport limit)."""

    max_str_len: int = 1024
    max_bin_len: int = 0
    max_array_len: int = 64
    max_map_len: int = 32
    max_ext_len: int = 0
    max_depth: int = 6


_packer = msgpack.Packer(use_bin_type=True)
"""One packer for every frame (``packb`` builds one per call, ~2 000 instructions).  Its
``pack`` runs in C under the GIL from start to end and resets its buffer after each
message, and after a failure too."""


def encode(message: Mapping[str, Any]) -> bytes:
    data: bytes = _packer.pack(message)
    return data


def batch(frames: list[bytes]) -> bytes:
    """Several encoded messages as one server frame: a msgpack array of them."""
    if len(frames) == 1:
        return frames[0]
    n = len(frames)
    header = bytes([0x90 | n]) if n < 16 else b"\xdc" + n.to_bytes(2, "big")
    return header + b"".join(frames)


def decode_replies(frame: bytes | str) -> list[Message]:
    """The messages in one server frame, on the client side: a map is one message, an
    array is several, in order.  (No client-message limits apply.)"""
    if isinstance(frame, str):
        raise ProtocolViolation(Code.NOT_BINARY, "frames must be binary msgpack",
                                Close.UNSUPPORTED_DATA)
    obj = msgpack.unpackb(frame, raw=False)
    msgs = obj if isinstance(obj, list) else [obj]
    if not all(isinstance(m, dict) for m in msgs):
        raise ProtocolViolation(Code.BAD_MESSAGE, "not a message", Close.PROTOCOL_ERROR)
    return msgs


def decode(frame: bytes | str, limits: Limits = Limits()) -> Message:
    """One client frame into a message map, or :class:`ProtocolViolation`.

    Only the framing is checked here (binary, msgpack, a map with a string ``t``,
    within the unpacking limits); :func:`validate` checks the fields.
    """
    if isinstance(frame, str):
        raise ProtocolViolation(Code.NOT_BINARY, "frames must be binary msgpack",
                                Close.UNSUPPORTED_DATA)
    try:
        # Everything that looks inside the frame is in this ``try``: msgpack raises many
        # types, and a check written in Python must not be the one that can crash.
        obj = msgpack.unpackb(
            frame,
            raw=False,
            strict_map_key=True,
            max_str_len=limits.max_str_len,
            max_bin_len=limits.max_bin_len,
            max_array_len=limits.max_array_len,
            max_map_len=limits.max_map_len,
            max_ext_len=limits.max_ext_len,
        )
        too_deep = _deeper_than(obj, limits.max_depth)
    except Exception as exc:  # every failure here means "bad frame"
        reason = f"not valid msgpack within limits ({type(exc).__name__})"
        raise ProtocolViolation(Code.BAD_MSGPACK, reason, Close.INVALID_DATA) from exc
    if too_deep:
        raise ProtocolViolation(Code.BAD_MSGPACK, "message nested too deeply",
                                Close.INVALID_DATA)
    if not isinstance(obj, dict) or not isinstance(obj.get("t"), str):
        raise BadRequest(Code.BAD_MESSAGE, "a message is a map with a string field 't'",
                         message_id(obj))
    return obj


def _deeper_than(obj: Any, limit: int) -> bool:
    """Whether maps and arrays nest more than ``limit`` levels.  Level by level, keeping
    only the containers (a message's scalars are looked at once, in a comprehension), and
    iterative: a frame of 600 nested arrays (601 bytes) made a recursive check raise
    ``RecursionError``."""
    level = [obj] if type(obj) is dict or type(obj) is list else []
    for _ in range(limit):
        if not level:
            return False
        level = [child for item in level
                 for child in (item.values() if type(item) is dict else item)
                 if type(child) is dict or type(child) is list]
    return bool(level)


def message_id(obj: Any) -> MsgId | None:
    """The message's ``id`` if it has a valid one (for ``re``), else ``None``."""
    if isinstance(obj, dict):
        mid = obj.get("id")
        if _is_id(mid):
            return mid
    return None


def _is_id(v: Any) -> bool:
    if isinstance(v, bool):
        return False
    if isinstance(v, int):
        return 0 <= v < 2**63
    return isinstance(v, str) and 1 <= len(v) <= 64


# --- schemas -------------------------------------------------------------------

_ID = "id"  # client-chosen message id: str (1..64 chars) or int >= 0
_Kind = str  # "str" | "int" | "bool" | "map" | "list" | "id" | "seat"


@dataclass(frozen=True, slots=True)
class Field:
    kind: _Kind
    required: bool = True


SCHEMAS: Final[dict[str, dict[str, Field]]] = {
    "hello": {"versions": Field("list"), "token": Field("str", False),
              "name": Field("str", False), "password": Field("str", False),
              "transfer": Field("str", False)},
    "ping": {},
    "create": {_ID: Field("id"), "game": Field("str", False), "config": Field("map"),
               "clock": Field("map", False), "private": Field("bool", False),
               "bot": Field("str", False), "dice_commit": Field("str", False)},
    "join": {_ID: Field("id"), "code": Field("str"), "dice_commit": Field("str", False)},
    "quick": {_ID: Field("id"), "game": Field("str", False), "config": Field("map"),
              "clock": Field("map", False), "rated": Field("bool", False),
              "dice_commit": Field("str", False)},
    "queues": {_ID: Field("id"), "game": Field("str", False), "config": Field("map")},
    "challenge": {_ID: Field("id"), "player": Field("str", False), "name": Field("str", False),
                  "game": Field("str", False), "config": Field("map"),
                  "clock": Field("map", False), "rated": Field("bool", False),
                  "dice_commit": Field("str", False)},
    "accept": {_ID: Field("id"), "challenge": Field("str"), "dice_commit": Field("str", False)},
    "decline": {_ID: Field("id"), "challenge": Field("str")},
    "withdraw": {_ID: Field("id"), "challenge": Field("str")},
    "challenges": {_ID: Field("id")},
    "rematch": {_ID: Field("id"), "match": Field("str"), "accept": Field("bool", False),
                "dice_commit": Field("str", False)},
    "reveal": {_ID: Field("id"), "match": Field("str"), "dice": Field("str")},
    "cancel": {_ID: Field("id")},
    "list": {_ID: Field("id"), "game": Field("str", False)},
    "odds": {_ID: Field("id"), "match": Field("str")},
    "open": {_ID: Field("id"), "match": Field("str"), "since": Field("int", False)},
    "watch": {_ID: Field("id"), "match": Field("str", False), "code": Field("str", False),
              "since": Field("int", False)},
    "decide": {_ID: Field("id"), "match": Field("str"), "version": Field("int"),
               "decision": Field("str"), "seat": Field("seat", False)},
    "resign": {_ID: Field("id"), "match": Field("str"), "seat": Field("seat", False)},
    "claim": {_ID: Field("id"), "match": Field("str")},
    "mine": {_ID: Field("id")},
    "profile": {_ID: Field("id"), "player": Field("str", False), "name": Field("str", False)},
    "history": {_ID: Field("id"), "player": Field("str", False), "name": Field("str", False),
                "before": Field("num", False), "limit": Field("int", False)},
    "leaderboard": {_ID: Field("id"), "mode": Field("str")},
    "set_password": {_ID: Field("id"), "password": Field("str", False),
                     "old": Field("str", False)},
    "transfer": {_ID: Field("id"), "origin": Field("str")},
    "signout_everywhere": {_ID: Field("id")},
    "tournaments": {_ID: Field("id")},
    "tournament": {_ID: Field("id"), "tournament": Field("str"), "watch": Field("bool", False),
                   "card": Field("int", False)},
    "tcommand": {_ID: Field("id"), "op": Field("str"), "tournament": Field("str", False),
                 "args": Field("map", False)},
}
"""Client message types and their fields.  Unknown extra fields are rejected."""

_CHECK: dict[str, Callable[[Any], bool]] = {
    "str": lambda v: isinstance(v, str),
    "int": lambda v: isinstance(v, int) and not isinstance(v, bool) and 0 <= v < 2**63,
    "num": lambda v: (isinstance(v, int | float) and not isinstance(v, bool)
                      and 0 <= v < 2**63),
    "bool": lambda v: isinstance(v, bool),
    "map": lambda v: isinstance(v, dict),
    "list": lambda v: isinstance(v, list),
    "id": _is_id,
    "seat": lambda v: v in (0, 1) and not isinstance(v, bool),
}

_KIND_TEXT = {
    "str": "a string", "int": "a non-negative integer", "num": "a non-negative number",
    "bool": "a boolean", "map": "a map",
    "list": "a list", "id": "a string of 1-64 characters or a non-negative integer",
    "seat": "0 or 1",
}


def validate(msg: Message) -> Message:
    """Check ``msg``'s fields against its type's schema; raises :class:`BadRequest`."""
    t = msg["t"]
    schema = SCHEMAS.get(t)
    re = message_id(msg)
    if schema is None:
        raise BadRequest(Code.UNKNOWN_TYPE, f"unknown message type {t!r}", re)
    for name, field in schema.items():
        if name not in msg:
            if field.required:
                raise BadRequest(Code.BAD_FIELD, f"{t}: missing field {name!r}", re)
            continue
        if not _CHECK[field.kind](msg[name]):
            raise BadRequest(Code.BAD_FIELD,
                             f"{t}: field {name!r} must be {_KIND_TEXT[field.kind]}", re)
    extra = sorted(set(msg) - set(schema) - {"t"})
    if extra:
        raise BadRequest(Code.BAD_FIELD, f"{t}: unknown fields {extra}", re)
    return msg


def error(code: str, message: str, re: MsgId | None = None, **extra: Any) -> Message:
    metrics.error(code)  # every error a client is sent is made here: counted by code
    out: Message = {"t": "error", "code": code, "message": message}
    if re is not None:
        out["re"] = re
    out.update(extra)
    return out


class Prompts:
    """A protocol-2 client's side of view patches: turns every ``prompt`` back into a
    whole one (the ``view`` and every field), keeping the last per match."""

    def __init__(self) -> None:
        self.last: dict[str, Message] = {}

    def assemble(self, msg: Message) -> Message | None:
        """The whole prompt ``msg`` stands for; ``None`` if it patches a view this
        client does not hold (then ask for the whole one again: ``open`` the match with
        ``since`` = the ``next`` of the last prompt processed)."""
        if "patch" not in msg:
            self.last[msg["match"]] = msg
            return msg
        held = self.last.get(msg["match"])
        if held is None or held.get("view") is None or held["version"] != msg["base"]:
            return None
        whole = {**held, **msg, "view": apply_patch(held["view"], msg["patch"])}
        del whole["base"], whole["patch"]
        self.last[msg["match"]] = whole
        return whole
