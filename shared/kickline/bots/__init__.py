"""Bots that play through a seat's view only: ``bot(view, legal, rng) -> decision``.

Levels a player can pick, weakest first (``LEVELS``):

* ``beginner``: the casual bot's sense, with one decision in three made at random;
* ``casual``: the greedy bot (:mod:`.greedy`): rules of thumb, no look-ahead;
* ``strong``: a search bot (:mod:`.search`) that plays each option out two turns
  ahead, and solves each secret choice as a game;
* ``strongest``: the same search with twice the playouts, three turns ahead, within a
  second of CPU on the server and two in the browser (docs/BOTS.md).

``random`` and ``greedy`` keep their names (``greedy`` is ``casual``).  The search
bots' budgets are counted in playouts, so a decision depends only on the view, the
legal decisions and the seed; :func:`make_bot` adds a host's wall-clock cap (the rules
package reads no clock).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import replace

from .greedy import View, greedy_bot, random_bot
from .search import Budget, Clock, SearchBot

Bot = Callable[[View, Sequence[str], random.Random], str]

BEGINNER_SLIPS = 3  # one decision in this many is made at random


def beginner_bot(view: View, legal: Sequence[str], rng: random.Random) -> str:
    if rng.randrange(BEGINNER_SLIPS) == 0:
        return legal[rng.randrange(len(legal))]
    return greedy_bot(view, legal, rng)


BUDGETS: dict[str, Budget] = {
    "strong": Budget(playouts=256, horizon=2),
    "strongest": Budget(playouts=512, horizon=3),
}
LEVELS: tuple[str, ...] = ("beginner", "casual", "strong", "strongest")


def make_bot(level: str, *, seconds: float = 0.0, clock: Clock | None = None) -> Bot:
    """The bot for ``level`` (or ``random`` / ``greedy``); a search level stops thinking
    after ``seconds`` by ``clock`` (the host's), as well as at its playout budget."""
    if level in BUDGETS:
        b = BUDGETS[level]
        if seconds > 0:
            b = replace(b, seconds=seconds)
        return SearchBot(b, clock)
    return BOTS[level]


BOTS: dict[str, Bot] = {
    "random": random_bot,
    "greedy": greedy_bot,
    "beginner": beginner_bot,
    "casual": greedy_bot,
    "strong": SearchBot(BUDGETS["strong"]),
    "strongest": SearchBot(BUDGETS["strongest"]),
}

__all__ = ["BOTS", "LEVELS", "Bot", "Budget", "SearchBot", "beginner_bot", "greedy_bot",
           "make_bot", "random_bot"]
