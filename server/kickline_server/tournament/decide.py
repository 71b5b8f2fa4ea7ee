"""Every tournament command, by ``op``: what it decides (``entries.py`` for the event
and its entries, ``rounds.py`` for rounds and results; ``checks.py`` what all check).

None of them changes the tournament: ``Tournament.handle`` applies the events they
return.
"""

from __future__ import annotations

from . import entries, rounds
from .checks import Decider

DECIDERS: dict[str, Decider] = {
    "create": entries.create,
    "edit": entries.edit,
    "close": entries.close,
    "join": entries.join,
    "add_entry": entries.add_entry,
    "claim": entries.claim,
    "check_in": entries.check_in,
    "withdraw": entries.withdraw,
    "pause": entries.pause,
    "resume": entries.resume,
    "request_bye": entries.request_bye,
    "forbid": entries.forbid,
    "allow": entries.forbid,
    "pair": rounds.pair,
    "swap": rounds.swap,
    "flip": rounds.flip,
    "start": rounds.start,
    "result": rounds.result,
    "forfeit": rounds.forfeit,
    "adjudicate": rounds.adjudicate,
    "repair": rounds.repair,
}
