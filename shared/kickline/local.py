"""A match played in one place, with no server: the browser's offline play.

Either seat is a person (``"human"``) or a bot level (``kickline.bots.LEVELS``): one
person against a bot, or two people passing one phone.  The match is plain data, ready
for JSON and the page's storage::

    {"config": {...}, "seed": "...", "seats": ["human", "strong"],
     "log": [[seat, decision] or [-1, outcome], ...], "state": <State.to_plain()>}

The dice come from ``random.Random(f"{seed}:{i}")`` for the log's ``i``-th entry, so a
match is ``(config, seed, log)`` and :func:`replay` rebuilds it exactly.  Nothing here
reads a clock: the caller hands a clock to cap a search bot's thinking.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

from . import apply, apply_chance, chance, legal, new_game, result, to_act
from .bots import BOTS, LEVELS, make_bot
from .state import Config, State
from .view import redact, view

Match = dict[str, Any]
Event = dict[str, Any]
SEATS = ("human", *LEVELS)


def new_match(config: dict[str, Any], seats: Sequence[str], seed: str) -> Match:
    """A new match; raises ``ValueError`` for a config or seat that is not one."""
    cfg = Config.from_plain(config)
    if len(seats) != 2 or any(s not in SEATS for s in seats):
        raise ValueError(f"seats are two of {', '.join(SEATS)}")
    return {"config": cfg.to_plain(), "seed": str(seed), "seats": list(seats), "log": [],
            "state": new_game(cfg).to_plain()}


def state_of(m: Match) -> State:
    return State.from_plain(m["state"])


def replay(m: Match) -> State:
    """The state the match's log leads to, from the start (a check on ``state``)."""
    s = new_game(Config.from_plain(m["config"]))
    for seat, what in m["log"]:
        s = apply_chance(s, what)[0] if seat < 0 else apply(s, seat, what)[0]
    return s


def humans_to_act(m: Match) -> list[int]:
    """The people who owe a decision now (none while dice fall or bots think)."""
    s = state_of(m)
    kind, seats, _ = to_act(s)
    return [x for x in seats if m["seats"][x] == "human"] if kind == "decide" else []


def step(m: Match, *, clock: Callable[[], float] | None = None, seconds: float = 0.0,
         bot_moves: int = 1) -> tuple[Match, list[Event]]:
    """Roll the dice and let the bots decide, at most ``bot_moves`` bot decisions (so a
    screen can show each), until a person owes a decision or the match ends."""
    s = state_of(m)
    log = list(m["log"])
    events: list[Event] = []
    moved = 0
    while True:
        kind, seats, _ = to_act(s)
        if kind == "over":
            break
        if kind == "chance":
            outcomes = chance(s)[2]
            o = outcomes[random.Random(f"{m['seed']}:{len(log)}").randrange(len(outcomes))]
            s, ev = apply_chance(s, o)
            log.append([-1, o])
            events += ev
            continue
        bots = [x for x in seats if m["seats"][x] != "human"]
        if not bots or moved >= bot_moves:
            break
        seat = bots[0]
        options = legal(s, seat)
        level = m["seats"][seat]
        bot = make_bot(level, seconds=seconds, clock=clock) if clock is not None else BOTS[level]
        rng = random.Random(f"{m['seed']}:{len(log)}:bot")
        d = bot(view(s, seat), options, rng)
        if d not in options:
            d = options[0]
        s, ev = apply(s, seat, d)
        log.append([seat, d])
        events += ev
        moved += 1
    return dict(m, log=log, state=s.to_plain()), events


def decide(m: Match, seat: int, decision: str) -> tuple[Match, list[Event]]:
    """A person's decision; raises the engine's ``ValueError`` (and changes nothing) if it
    is not theirs to make or not legal."""
    if m["seats"][seat] != "human":
        raise ValueError(f"seat {seat} is a bot")
    s, ev = apply(state_of(m), seat, decision)
    return dict(m, log=[*m["log"], [seat, decision]], state=s.to_plain()), ev


def show(m: Match, seat: int | None, events: Sequence[Event] = ()) -> dict[str, Any]:
    """What ``seat`` sees (``None``: what both players may see, for the shared screen):
    the view, its legal decisions, the events redacted for it, and the result."""
    s = state_of(m)
    return {"view": view(s, seat), "legal": list(legal(s, seat)) if seat is not None else [],
            "events": redact(events, seat), "result": result(s), "version": s.version}
