"""What every command checks first: who may do it, and the fields it needs.

Shared by the commands on the event and its entries (``entries.py``) and on its rounds
(``rounds.py``); each raises :class:`~.errors.Refused` and changes nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from .errors import Refused
from .model import Entry
from .pairer import Pairer

if TYPE_CHECKING:
    from .machine import Tournament

Event = dict[str, Any]
Command = Mapping[str, Any]
Decider = Callable[["Tournament", Command, Pairer | None], list[Event]]


# -- who may do what --------------------------------------------------------

def organiser(cmd: Command) -> None:
    if cmd.get("role") != "organiser":
        raise Refused("not_organiser", "only the event's organiser can do that")


def system_or_organiser(cmd: Command) -> None:
    if cmd.get("role") not in ("system", "organiser"):
        raise Refused("not_organiser", "only the event's organiser can do that")


def self_or_organiser(cmd: Command, entry: Entry) -> None:
    if cmd.get("role") == "organiser":
        return
    if cmd.get("role") == "player" and entry.account is not None \
            and entry.account == cmd.get("by"):
        return
    raise Refused("not_yours", "you can only do that for yourself")


def account(cmd: Command) -> str:
    by = cmd.get("by")
    if not isinstance(by, str) or not by:
        raise Refused("sign_in_required", "sign in to enter an event")
    return by


def integer(cmd: Command, key: str, what: str) -> int:
    v = cmd.get(key)
    if isinstance(v, bool) or not isinstance(v, int):
        raise Refused("bad_field", f"{what} must be a whole number")
    return v


def not_over(t: Tournament) -> None:
    if t.finished:
        raise Refused("event_over", "this event is over")


def swiss_only(t: Tournament, what: str) -> None:
    if not t.s.swiss:
        raise Refused("not_swiss", f"{what} is for Swiss events: a round robin's or a "
                      "knockout's pairings follow from its table")
