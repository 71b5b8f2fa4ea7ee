"""Resolving the maneuver that won (6.5-6.10, 19.5-19.10): charge its cost to the
clock, apply a beaten gambit's cost, and hand over to the card's own rule.
"""

from __future__ import annotations

from collections.abc import Callable

from .. import rulings as R
from ..state import Frame
from .cards import BASIC_DEF, BASIC_OFF, CARD_LAW
from .defense import RESOLVERS as DEFENSE
from .frames import Ctx, auto
from .gambits import BEATEN_LAW, beaten_cost
from .gambits import RESOLVERS as GAMBITS
from .offense import RESOLVERS as OFFENSE


@auto("resolve")
def _resolve(c: Ctx, f: Frame) -> None:
    who = f[1]
    played = c.turn.off_card if who == "O" else c.turn.def_card
    # Advanced mode names the tier the card resolves at and the cost that lands (19.4).
    card = str(f[2]) if len(f) > 2 else played
    beaten = str(f[3]) if len(f) > 3 else ""
    c.set_turn(cost=c.turn.cost + R.maneuver_cost(card))
    side = c.turn.side if who == "O" else 1 - c.turn.side
    if card == played:
        c.ev("resolves", CARD_LAW[card], card=card, side=side)
    else:
        # 19.4.2: a gambit that did not win on the cards resolves basic; 19.1.2 (with
        # 20.2.4, 21.4.7): a maneuver upgraded on the dice resolves as its rank's gambit.
        c.ev("resolves", "19.4.2" if card in BASIC_OFF + BASIC_DEF else "19.1.2", card=card,
             side=side, played=played)
    if len(f) > 2:
        c.set_turn(resolved=card)
    if beaten:
        c.ev("beaten", BEATEN_LAW[beaten], card=beaten)
        beaten_cost(c, beaten)
    RESOLVERS[card](c)


RESOLVERS: dict[str, Callable[[Ctx], None]] = {**OFFENSE, **DEFENSE, **GAMBITS}
