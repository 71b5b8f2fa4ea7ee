"""Points: exact fractions, their text form, and the event's scoring table.

Points are :class:`fractions.Fraction` everywhere a sum or a product is taken (Buchholz,
Sonneborn-Berger, a virtual opponent's score), so two computations of one standings
table never disagree in the last digit. On the wire and in the store a number of points
is text with at most one decimal ("1", "0.5", "2.5"), the precision TRF-16 carries.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from decimal import Decimal, InvalidOperation
from fractions import Fraction
from typing import Any

from .errors import Refused

Points = Fraction
ZERO = Fraction(0)

MAX_POINTS = Fraction(9)
"""A round is worth at most this much: TRF-16 gives a player's total four columns."""


def parse_points(value: Any, what: str) -> Points:
    """``"1"``, ``"0.5"``, ``3`` -> Fraction; refuses anything else with a clear message."""
    if isinstance(value, bool) or not isinstance(value, int | str):
        raise Refused("bad_settings", f"{what} must be a number of points like 1 or 0.5")
    try:
        d = Decimal(str(value).strip())
    except InvalidOperation:
        raise Refused("bad_settings", f"{what} must be a number of points like 1 or 0.5") from None
    if not d.is_finite() or d != d.quantize(Decimal("0.1")):
        raise Refused("bad_settings", f"{what} takes at most one decimal (e.g. 0.5)")
    p = Fraction(d)
    if not -MAX_POINTS <= p <= MAX_POINTS:
        raise Refused("bad_settings", f"{what} must lie between -9 and 9")
    return p


def fmt(p: Points, places: int = 1) -> str:
    """Points as short text: ``1``, ``0.5``, ``12.25`` (``places`` decimals at most,
    rounded half away from zero; trailing zeros dropped)."""
    q = Decimal(p.numerator) / Decimal(p.denominator)
    text = f"{q.quantize(Decimal(1).scaleb(-places), rounding='ROUND_HALF_UP'):f}"
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


@dataclass(frozen=True, slots=True)
class Scoring:
    """What each outcome of a round is worth.

    A Kickline match is never drawn on the board (the shootout decides it), so ``draw``
    scores adjudicated draws, double no-shows are ``forfeit_loss`` for both, and a
    half-point bye is worth ``draw``. A zero-point bye or an absence is worth 0."""

    win: Points = Fraction(1)
    draw: Points = Fraction(1, 2)
    loss: Points = Fraction(0)
    shootout_win: Points = Fraction(1)
    shootout_loss: Points = Fraction(0)
    bye: Points = Fraction(1)  # the pairing-allocated bye
    forfeit_loss: Points = Fraction(0)  # the win by forfeit is worth ``win``

    def __post_init__(self) -> None:
        if not self.win > self.draw >= self.loss or not self.win >= self.shootout_win:
            raise Refused("bad_settings", "points must rank win > draw >= loss, and a "
                          "shootout win may not be worth more than a win")
        if not self.shootout_win >= self.shootout_loss >= self.loss:
            raise Refused("bad_settings", "a shootout loss may not be worth more than a "
                          "shootout win nor less than a loss")

    @property
    def half_bye(self) -> Points:
        return self.draw

    @classmethod
    def from_plain(cls, plain: Any) -> Scoring:
        if not isinstance(plain, dict):
            raise Refused("bad_settings", "scoring must be a map of points")
        names = {f.name for f in fields(cls)}
        unknown = sorted(set(plain) - names)
        if unknown:
            raise Refused("bad_settings", f"unknown scoring entries: {', '.join(unknown)}")
        base = cls()
        return cls(**{name: parse_points(plain[name], f"scoring.{name}") if name in plain
                      else getattr(base, name) for name in sorted(names)})

    def to_plain(self) -> dict[str, str]:
        return {f.name: fmt(getattr(self, f.name)) for f in fields(self)}
