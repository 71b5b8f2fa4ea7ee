"""Decisions: small hashable values with a canonical text form.

``Decision.decode(d.encode()) == d`` and ``repr(d)`` is that text.  The text is
what logs, tests and the protocol carry: a kind followed by its arguments,
separated by single spaces, e.g. ``card low-pass``, ``send v4``, ``run h3 M1``,
``order h0 h3 h4 h6 h7 h1``.  Players are ``h0``-``h8`` / ``v0``-``v8`` (side and
roster slot); spaces are their board names (``H1``, ``M2``, ``V3``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .errors import MalformedDecision

_PLAYER = re.compile(r"^[hv][0-8]$")
_SPACE = re.compile(r"^[HMV][1-3]$")
_INT = re.compile(r"^(?:[1-9][0-9]?)$")
_DIST = re.compile(r"^(?:0|[1-9][0-9]?)$")

OFFENSE_CARDS = ("dribble", "high-pass", "low-pass")
DEFENSE_CARDS = ("deflect", "pressure", "steal")
# Advanced mode's gambits (19.5-19.10).
OFFENSE_GAMBITS = ("dribble-burst", "setup-pass", "skilled-pass")
DEFENSE_GAMBITS = ("clear", "double-team", "intercept")
CARDS = OFFENSE_CARDS + DEFENSE_CARDS + OFFENSE_GAMBITS + DEFENSE_GAMBITS
FORMATION_NAMES = ("1-2-3", "1-3-2", "2-2-2", "2-3-1", "3-2-1")

# kind -> argument shape.  "P" player, "S" space, "N" number 1-99, "D" distance 0-99,
# "*P" 1-9 players,
# a tuple is an enumeration.
_SHAPES: dict[str, tuple[object, ...]] = {
    "toss": (("home", "visitors"),),
    "handler": ("P",),
    "action": (("maneuver", "shoot", "timeout"),),
    "challenge": ("P",),
    "send": ("P|none",),
    "card": (CARDS,),
    "pass": ("P",),
    "dribble": ("N",),
    "speed": ("N",),
    "throw": ("N",),
    "receive": ("P",),
    "shot": (("decline", "take"),),
    "pick": ("P",),
    "run": ("P", "S"),
    "clear": ("P",),
    "sub": ("P", "P"),
    "formation": (FORMATION_NAMES,),
    "move": ("P", "S"),
    "swap": ("P", "P"),
    "finish": (),
    "skip": (),
    "order": ("*P",),
    "shooter": ("P",),
    "declare": (("both", "boost", "none", "overdrive"),),  # 20.3.5, 21.4.3
    "join": (("no", "yes"),),  # 21.6.1 Glompex
    "scorch": (("accept", "force"),),
    "aim": ("D",),
    "drive": ("N",),
    "partner": ("P",),
    "pull": ("P|none",),  # 20.4.1 Mind Pull: the Telekinetic named tries, or nobody
    "smooth": ("P|none",),  # 20.4.9 Smooth: the player named takes the ball over, or nobody
    "fly": ("S|none",),  # 21.5.7 Zenith flies to the space named, or stays
    "quantor": ("N",),  # 21.4.5 a High Pass of that distance with Quantor running onto it
}


def _check(kind: str, args: tuple[str, ...]) -> None:
    shape = _SHAPES.get(kind)
    if shape is None:
        raise MalformedDecision(f"unknown decision kind {kind!r}")
    if shape == ("*P",):
        if not 1 <= len(args) <= 9 or not all(_PLAYER.match(a) for a in args):
            raise MalformedDecision(f"{kind} takes 1-9 players like h3, got {' '.join(args)!r}")
        return
    if len(args) != len(shape):
        raise MalformedDecision(f"{kind} takes {len(shape)} argument(s), got {len(args)}")
    for arg, want in zip(args, shape, strict=True):
        ok = (
            (want == "P" and _PLAYER.match(arg))
            or (want == "P|none" and (arg == "none" or _PLAYER.match(arg)))
            or (want == "S" and _SPACE.match(arg))
            or (want == "S|none" and (arg == "none" or _SPACE.match(arg)))
            or (want == "N" and _INT.match(arg))
            or (want == "D" and _DIST.match(arg))
            or (isinstance(want, tuple) and arg in want)
        )
        if not ok:
            raise MalformedDecision(f"bad argument {arg!r} for {kind}")


@dataclass(frozen=True, slots=True, order=True)
class Decision:
    """One decision.  Ordering is by canonical text, so sorting is deterministic."""

    text: str

    @property
    def kind(self) -> str:
        return self.text.split(" ", 1)[0]

    @property
    def args(self) -> tuple[str, ...]:
        return tuple(self.text.split(" ")[1:])

    @classmethod
    def of(cls, kind: str, *args: object) -> Decision:
        strs = tuple(str(a) for a in args)
        _check(kind, strs)
        return cls(" ".join((kind, *strs)))

    @classmethod
    def decode(cls, text: object) -> Decision:
        if not isinstance(text, str):
            raise MalformedDecision(f"a decision is text, not {type(text).__name__}")
        if len(text) > 64 or text != text.strip() or "  " in text or not text:
            raise MalformedDecision(f"malformed decision text {text[:64]!r}")
        parts = text.split(" ")
        _check(parts[0], tuple(parts[1:]))
        return cls(text)

    def encode(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return self.text

    def __str__(self) -> str:
        return self.text
