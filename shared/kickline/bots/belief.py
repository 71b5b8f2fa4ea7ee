"""What a bot believes: the whole state rebuilt from its own seat's view.

A view carries everything public, the engine's remaining work included, so the state it
shows can be rebuilt exactly except for what it hides: the other side's pending secret
choice (which the search enumerates, so it is left unmade here) and the unrevealed rest
of the other side's shootout order (drawn at random among the orders the view allows:
a determinisation, 17.3.1).
"""

from __future__ import annotations

import random
from typing import Any

from ..preview import public_state
from ..state import State

View = dict[str, Any]

_SIDES = {"home": 0, "visitors": 1}


def _side(name: Any) -> int:
    return _SIDES.get(name, -1) if isinstance(name, str) else -1


def believe(v: View, rng: random.Random) -> State:
    """The state ``v`` shows, with its hidden parts determinised by ``rng``."""
    s = public_state(v)
    my_side = _side(v["side"])
    other = 1 - my_side if my_side >= 0 else -1
    orders = s.shootout.orders
    if other >= 0 and v["shootout"]["orders"][other] is not None and orders[my_side]:
        # Both orders are set (17.3.1) and the other's is shown only as far as it has
        # shot: the rest is any order of the players not yet shown.
        shown = list(orders[other])
        rest = [i for i in range(other * 9, other * 9 + 9)
                if s.players[i].status == "F" and i not in shown]
        rng.shuffle(rest)
        both = list(orders)
        both[other] = tuple(shown + rest)
        s = s._replace(shootout=s.shootout._replace(orders=(both[0], both[1])))
    return s
