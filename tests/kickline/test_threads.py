"""The rules package's memos are shared by every thread of a process: the server's event
loop asks for legal decisions and views while its bot and odds threads play thousands
of playouts.  Threads running at once get the same answers as one thread alone."""

from __future__ import annotations

import random
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from kickline import GAME
from kickline.state import State
from kickline.view import clear_caches

_SETTINGS = [
    {"mode": "advanced", "board": 7, "teams": ["cyborgs", "oozes"]},
    {"mode": "advanced", "board": 9, "teams": ["telekinetics", "fire-demons"]},
    {"mode": "standard", "board": 7, "teams": ["oozes", "telekinetics"]},
    {"mode": "training", "board": 9, "teams": ["training", "training"]},
]

Step = tuple[str, int, str, tuple[tuple[str, ...], ...], tuple[dict[str, Any], ...]]
"""What one thread does and must see: ("chance" | "decide", seat, value), then the legal
decisions of both seats and the views of seats 0, 1 and a spectator after it."""


def _answers(state: State) -> tuple[tuple[tuple[str, ...], ...], tuple[dict[str, Any], ...]]:
    return (tuple(GAME.legal(state, seat) for seat in (0, 1)),
            tuple(GAME.view(state, seat) for seat in (0, 1, None)))


def _record(config: dict[str, Any], seed: int, steps: int) -> tuple[State, list[Step]]:
    """A random match from ``config``, and what a thread replaying it must see."""
    rng = random.Random(seed)
    first = state = GAME.setup(config)
    out: list[Step] = []
    for _ in range(steps):
        ta = GAME.to_act(state)
        if ta.kind == "over":
            break
        if ta.kind == "chance":
            kind, seat, value = "chance", -1, rng.choice(GAME.chance_outcomes(state)).value
            state, _ = GAME.apply_chance(state, value)
        else:
            kind, seat = "decide", rng.choice(ta.seats)
            value = rng.choice(list(GAME.legal(state, seat)))
            state, _ = GAME.apply(state, seat, value)
        out.append((kind, seat, value, *_answers(state)))
    return first, out


@contextmanager
def _switching_often() -> Iterator[None]:
    """Make the interpreter hand the GIL over every microsecond, so that a thread is
    interrupted between any two steps of a memo's update, as a busy server's are."""
    was = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    try:
        yield
    finally:
        sys.setswitchinterval(was)


def test_threads_playing_at_once_get_the_answers_one_thread_gets() -> None:
    matches = []
    for i, config in enumerate(_SETTINGS):
        clear_caches()
        matches.append(_record(config, 100 + i, 250))
    clear_caches()
    wrong: list[str] = []

    def replay(first: State, steps: list[Step], passes: int) -> None:
        for _ in range(passes):
            state = first
            for n, (kind, seat, value, legal, views) in enumerate(steps):
                if kind == "chance":
                    state, _ = GAME.apply_chance(state, value)
                else:
                    state, _ = GAME.apply(state, seat, value)
                if _answers(state) != (legal, views):
                    wrong.append(f"{first.config.mode} step {n}")
                    return

    threads = [threading.Thread(target=replay, args=(first, steps, 3))
               for first, steps in matches]
    with _switching_often():
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    assert sum(len(steps) for _, steps in matches) > 600
    assert wrong == []
