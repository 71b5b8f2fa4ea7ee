"""TRF-16, the FIDE tournament report format: the event as pairing programs read it.

One writer serves two readers: the Swiss pairer (``swiss.py``) feeds the text to the
pairing engine, and the export (``GET .../trf``) hands it to a club, whose own program
(bbpPairings, JaVaFo, a tournament manager) can re-check every round. Both read the same
text, which is what makes the round-trip test meaningful.

Conventions (docs/SERVER.md, "Tournaments"):

* home is white (``w``), away black (``b``);
* a board's result is ``1`` / ``=`` / ``0`` when played or adjudicated, ``+`` / ``-``
  when forfeited (not a played game for colours or rematches), and every round
  without a game is ``0000 - U`` (pairing-allocated bye), ``H`` (half-point bye) or
  ``Z`` (zero: a requested zero bye, an absence, the round-robin's rest round);
* the round being paired carries only its byes, so a reader pairs everyone else;
* names are folded to ASCII: TRF is column-aligned and readers assume one byte per
  character;
* points other than 1 / 0.5 / 0 go into record 162 (TRF-2026, which gacrux reads),
  and a single game scored unlike its code (a shootout win worth less than a win, a
  forfeit loss worth less than nothing) gets a record 299 (abnormal points);
* forbidden pairings are record 260 (TRF-2026 prohibited pairings).
"""

from __future__ import annotations

import time
import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from .model import Game
from .points import Points, Scoring, fmt

CODES_192 = {
    "swiss": "FIDE_DUTCH",
    "round_robin": "BERGER_ROUNDROBIN",
    "double_round_robin": "BERGER_DOUBLEROUNDROBIN",
    "knockout": "CUSTOM_KNOCKOUT",
}
TYPES_092 = {
    "swiss": "Swiss (FIDE Dutch)",
    "round_robin": "Round robin (Berger)",
    "double_round_robin": "Double round robin (Berger)",
    "knockout": "Knockout",
}
BYE_CODES = {"pab": "U", "half": "H", "zero": "Z", "absent": "Z", "free": "Z"}
# Record 299 names the result by its score letter (record 162's), not its TRF code.
LETTERS_299 = {"1": "W", "+": "W", "=": "D", "H": "D", "0": "L", "-": "Z", "Z": "Z", "U": "P"}


@dataclass(frozen=True, slots=True)
class Line:
    """One player's record: pairing number, name, rating, rank, and their rounds (in
    order, ``None`` for a round they were not in the event)."""

    number: int
    name: str
    rating: int | None
    games: Sequence[Game | None]
    rank: int | None = None


def ascii_name(name: str, width: int = 33) -> str:
    folded = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode()
    folded = "".join(c if c.isprintable() else " " for c in folded).strip()
    return (folded or "?")[:width]


def code_of(g: Game) -> str:
    if g.kind != "game":
        return BYE_CODES[g.kind]
    assert g.result is not None
    if g.result.kind == "forfeit":
        return "+" if g.outcome == "win" else "-"
    return {"win": "1", "draw": "=", "loss": "0"}[g.outcome or "draw"]


def code_points(code: str, s: Scoring) -> Points:
    """What record 162 makes a result code worth."""
    return {"1": s.win, "+": s.win, "=": s.draw, "H": s.draw, "0": s.loss, "U": s.bye
            }.get(code, Points(0))


def write(
    *,
    name: str,
    fmt_name: str,
    rounds: int,
    scoring: Scoring,
    lines: Sequence[Line],
    numbers: Mapping[int, int],
    top_colour: str = "w",
    forbidden: Sequence[tuple[int, int]] = (),
    dates: tuple[float, float] | None = None,
    time_control: str = "",
) -> str:
    """The TRF text. ``lines`` hold pids as opponents (``Game.opponent``); ``numbers``
    maps every pid that appears to its pairing number."""
    out: list[str] = [f"012 {ascii_name(name, 80)}"]
    if dates is not None:
        out.append(f"042 {time.strftime('%Y/%m/%d', time.gmtime(dates[0]))}")
        out.append(f"052 {time.strftime('%Y/%m/%d', time.gmtime(dates[1]))}")
    out.append(f"062 {len(lines)}")
    out.append(f"072 {sum(1 for ln in lines if ln.rating)}")
    out.append(f"092 {TYPES_092[fmt_name]}")
    if time_control:
        out.append(f"122 {time_control}")
    out.append(f"142 {rounds}")
    out.append(f"152 {top_colour.upper()}")
    s = scoring
    out.append("162  " + "    ".join(
        f"{sym}{fmt(p):>4}" if len(fmt(p)) <= 4 else f"{sym}{fmt(p)}"
        for sym, p in (("W", s.win), ("D", s.draw), ("L", s.loss), ("P", s.bye),
                       ("A", Points(0)))))
    out.append(f"192 {CODES_192[fmt_name]}")
    out.append(f"XXR {rounds}")
    out.append(f"XXC {'white1' if top_colour == 'w' else 'black1'}")
    for a, b in sorted((min(numbers[x], numbers[y]), max(numbers[x], numbers[y]))
                       for x, y in forbidden if x in numbers and y in numbers):
        out.append(f"260 {1:3} {rounds:3} {a:4} {b:4}")
    abnormal: list[str] = []
    for ln in sorted(lines, key=lambda x: x.number):
        total = Points(0)
        cells = []
        for g in ln.games:
            if g is None:
                cells.append("        ")
                continue
            if g.pending:
                continue  # a round still being played is not written (see module doc)
            code = code_of(g)
            opp = numbers[g.opponent] if g.opponent is not None else 0
            colour = g.colour or "-"
            cells.append(f"{opp:04} {colour} {code}" if opp == 0 else f"{opp:4} {colour} {code}")
            total += g.points
            if g.points != code_points(code, s):
                p = fmt(g.points)
                abnormal.append(f"299 {LETTERS_299[code]}  {p:>4}  {p:>4}  {g.round:3} "
                                f"{ln.number:4}")
        head = (f"001 {ln.number:4}      {ascii_name(ln.name):<33} "
                f"{ln.rating if ln.rating else '':>4} {'':3} {'':11} {'':10} "
                f"{fmt(total):>4} {ln.rank if ln.rank else ln.number:4}")
        out.append((head + "".join("  " + c for c in cells)).rstrip())
    out.extend(abnormal)
    return "\n".join(out) + "\n"
