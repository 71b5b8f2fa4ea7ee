"""What a player's leaving does to the round in hand.

A player who withdraws or pauses is not paired again (``Tournament.absent_kind``). This
module handles the pairing they were already in:

- A **draft** (paired, not started): nobody is told of it yet, so a Swiss draft is
  paired again without them (the organiser's edits of that draft are lost: it is a new
  draft), as an arbiter re-pairs a round before publishing it. A round robin's or a
  knockout's draft follows from its table, so there their board becomes a forfeit
  their opponent wins, as it would have had they left before the pairing; so does a
  Swiss board when no pairing without them exists. A pairing-allocated bye they held
  becomes an absence (no point for a round they do not play).
- A **live** round: a player who *withdraws* forfeits the board they have not finished
  (their opponent wins without waiting out the no-show time; the match is stopped). A
  *pause* leaves the live board alone: it means "not the next rounds", and the game in
  hand may already be under way.

Every change is an event, so a replay or a restart ends in the same event.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from .checks import Event
from .errors import Refused
from .model import Result, Round
from .pairer import Draw, Pairer, PairingInput

if TYPE_CHECKING:
    from .machine import Tournament


def leave_round(t: Tournament, pid: int, *, withdrawing: bool, pairer: Pairer | None
                ) -> list[Event]:
    """The events that take ``pid`` out of the round in hand (none if not in it)."""
    cur = t.current()
    if cur is None or cur.done:
        return []
    if cur.status == "draft":
        return _out_of_draft(t, cur, pid, pairer)
    board = cur.board_of(pid)
    if not withdrawing or board is None or board.result is not None:
        return []
    winner = "away" if board.side(pid) == "home" else "home"
    ev: Event = {"e": "result", "round": cur.number, "board": board.number,
                 "result": Result("forfeit", winner).to_plain()}
    if board.match:
        ev["stop"] = board.match  # the host ends the match nobody will finish
    return [ev]


def draft_input(t: Tournament, r: Round, gone: int) -> PairingInput:
    """Round ``r``'s pairing input again, with ``gone`` absent: the draft's players
    (the bye's holder among them) and the byes it recorded for everyone else."""
    inp = t.pairing_input(r.number)
    drawn = {p for b in r.boards for p in (b.home, b.away)}
    drawn |= {p for p, kind in r.byes.items() if kind == "pab"}
    absent = {p: kind for p, kind in r.byes.items() if kind != "pab"}
    present = set()
    for p in drawn:
        if p == gone or t.entries[p].status != "active":
            absent[p] = "absent"  # left earlier: their forfeit goes with the old draft
        else:
            present.add(p)
    return replace(inp, present=frozenset(present), absent=absent)


def _out_of_draft(t: Tournament, r: Round, pid: int, pairer: Pairer | None) -> list[Event]:
    board = r.board_of(pid)
    if board is None and r.byes.get(pid) != "pab":
        return []  # already not playing this round (a bye asked for, a late entry)
    if t.s.swiss and pairer is not None:
        inp = draft_input(t, r, pid)
        draw: Draw | None
        try:
            draw = pairer.pair(inp)
        except Refused:
            draw = None  # no legal pairing without them: their opponent wins instead
        if draw is not None:
            byes = {str(p): kind for p, kind in sorted(inp.absent.items())}
            if draw.bye is not None:
                byes[str(draw.bye)] = "pab"
            return [{"e": "pairing_edited", "round": r.number,
                     "boards": [list(b) for b in draw.boards], "byes": byes}]
    if board is None:
        return [{"e": "bye_changed", "round": r.number, "pid": pid, "kind": "absent"}]
    if board.result is not None:
        return []
    winner = "away" if board.side(pid) == "home" else "home"
    return [{"e": "result", "round": r.number, "board": board.number,
             "result": Result("forfeit", winner).to_plain()}]
