"""When a started round's no-show rule and deadline fall due.

The no-show rule: a player who has not come ``no_show_minutes`` after their match was
made loses by forfeit (both absent: both lose). The round's deadline
(``round_minutes`` after the start) ends that window early: nobody may still be
awaited once the round is over time. Without ``no_show_minutes`` the window is the
round's deadline itself (a league: the two play when they agree, within the round).
Games under way at the deadline are left to their clocks (the organiser sees the round
as overdue and may adjudicate).

Two places act on it, both by themselves, both surviving a restart:

- a board with a match: the match itself (its reservation's ``start_by``, kept in the
  match's snapshot, from :func:`start_by`);
- a board with no match, because a roster line on it was never claimed (nobody can
  sit in its seat): the host's periodic check, from :func:`due_forfeits`, sends the
  ``forfeit`` as a ``system`` command whose id names the board, so it is recorded once.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .model import Round

if TYPE_CHECKING:
    from .machine import Tournament


def round_deadline(t: Tournament, r: Round) -> float | None:
    """When round ``r`` is over time (``None``: no deadline, or not started)."""
    minutes = t.s.round_minutes
    if minutes is None or r.started_at is None:
        return None
    return r.started_at + minutes * 60


def start_by(t: Tournament, r: Round, made_at: float) -> float:
    """The no-show deadline of a match of round ``r`` made at ``made_at``: the whole
    window from when it exists, but not past the round's deadline (unless the match is
    made after that: then its players get the whole window again)."""
    deadline = round_deadline(t, r)
    minutes = t.s.no_show_minutes
    window = made_at + (minutes if minutes is not None else LATE_WINDOW) * 60
    if deadline is not None and made_at < deadline:
        return deadline if minutes is None else min(window, deadline)
    return window


LATE_WINDOW = 10
"""Minutes a match made after its round's deadline (a restart, a late claim) waits when
the event has no ``no_show_minutes`` of its own."""


def due_forfeits(t: Tournament, now: float) -> list[tuple[int, int, str]]:
    """``(round, board, absent)`` for each board of the live round that has no match
    for a roster line nobody claimed, whose no-show time has passed at ``now``.
    ``absent`` is ``home``, ``away`` or ``both``."""
    r = t.current()
    if r is None or r.status != "live" or r.started_at is None:
        return []
    if now < start_by(t, r, r.started_at):
        return []
    out = []
    for b in r.boards:
        if b.result is not None:
            continue
        gone = [side for side, pid in (("home", b.home), ("away", b.away))
                if t.entries[pid].account is None]
        if gone:
            out.append((r.number, b.number, gone[0] if len(gone) == 1 else "both"))
    return out
