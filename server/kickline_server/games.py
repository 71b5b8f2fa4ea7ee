"""The rulesets this server hosts, by name, each with its bots.

The server reaches a ruleset only through :class:`kickline.game.Game` and a bot
table ``name -> bot(view, legal, rng) -> decision``.  Kickline itself is imported
lazily, so the server runs (with the toy game) even where the engine is absent.
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from kickline.game import Game, Plain

Bot = Callable[[Plain, Sequence[str], random.Random], str]


# The exact odds of a seat's decisions now (Kickline: ``kickline.odds``), for a client
# whose own copy of the rules has not loaded yet; computed from the seat's view only.
Odds = Callable[[Any, int], Plain]


@dataclass(frozen=True, slots=True)
class Ruleset:
    game: Game
    bots: Mapping[str, Bot]
    odds: Odds | None = None


def random_bot(view: Plain, legal: Sequence[str], rng: random.Random) -> str:
    """Any legal decision, uniformly: works for every ruleset."""
    return rng.choice(list(legal))


def _load_kickline() -> Ruleset:
    kickline = importlib.import_module("kickline")
    try:
        bots: Mapping[str, Bot] = dict(importlib.import_module("kickline.bots").BOTS)
    except ImportError:  # the engine without its bots: play uniformly at random
        bots = {"random": random_bot}
    odds: Odds | None = None
    try:
        decision_odds = importlib.import_module("kickline.odds").decision_odds
        state_from_view = importlib.import_module("kickline.preview").state_from_view

        def odds(state: Any, seat: int) -> Plain:
            # From the seat's view, so the odds know nothing the seat does not.
            view = kickline.GAME.view(state, seat)
            return decision_odds(state_from_view(view), seat, max_nodes=3000)
    except ImportError:  # an engine without odds: the client shows none until it loads
        pass
    return Ruleset(game=kickline.GAME, bots=bots, odds=odds)


def _load_toy() -> Ruleset:
    from kickline_server import toy

    return Ruleset(game=toy.GAME, bots=dict(toy.BOTS))


_LOADERS: dict[str, Callable[[], Ruleset]] = {"kickline": _load_kickline, "toy": _load_toy}
_LOADED: dict[str, Ruleset] = {}


class UnknownGame(LookupError):
    """No ruleset of that name is available on this server."""


def names() -> list[str]:
    return sorted(_LOADERS)


def get(name: str) -> Ruleset:
    """The ruleset called ``name``; raises :class:`UnknownGame` if absent or broken."""
    if name in _LOADED:
        return _LOADED[name]
    loader = _LOADERS.get(name)
    if loader is None:
        raise UnknownGame(f"no game called {name!r}; this server hosts {names()}")
    try:
        ruleset = loader()
    except (ImportError, AttributeError) as exc:
        raise UnknownGame(f"the {name!r} rules are not available here: {exc}") from exc
    _LOADED[name] = ruleset
    return ruleset


def available() -> list[str]:
    """Names whose ruleset actually loads."""
    out = []
    for name in names():
        try:
            get(name)
        except UnknownGame:
            continue
        out.append(name)
    return out
