"""The commands on the event itself and on its entries: create, edit, close; join, the
roster and its entry links, check-in, withdrawal, pause, requested byes, forbidden pairs.

Each reads the :class:`~.machine.Tournament` and the command, raises
:class:`~.errors.Refused` if it cannot be carried out, and otherwise returns the events
that record it (the last one carries the sender's reply).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from kickline.roster import TEAMS

from ..identity import check_name
from .checks import (
    Command,
    Event,
    account,
    integer,
    not_over,
    organiser,
    self_or_organiser,
    swiss_only,
)
from .errors import Refused
from .leaving import leave_round
from .model import REQUESTABLE_BYES
from .pairer import Pairer
from .settings import EDITABLE_AFTER_START, Settings

if TYPE_CHECKING:
    from .machine import Tournament

MAX_TOKEN = 64


# -- the event --------------------------------------------------------------

def create(t: Tournament, cmd: Command, _: Pairer | None) -> list[Event]:
    organiser(cmd)
    if t.settings is not None:
        raise Refused("already_exists", "this event already exists")
    settings = Settings.from_plain(cmd.get("settings"))
    seed = integer(cmd, "seed", "seed")
    return [{"e": "created", "settings": settings.to_plain(), "owner": cmd.get("by"),
             "at": float(cmd.get("at", 0.0)), "seed": seed,
             "reply": {"tournament": t.id}}]


def edit(t: Tournament, cmd: Command, _: Pairer | None) -> list[Event]:
    organiser(cmd)
    not_over(t)
    old = t.s
    new = Settings.from_plain(cmd.get("settings"), base=old)
    if t.started:
        before, after = old.to_plain(), new.to_plain()
        changed = sorted(k for k in after if after[k] != before[k])
        fixed = [k for k in changed if k not in EDITABLE_AFTER_START]
        if fixed:
            raise Refused("too_late", "once round 1 is paired these cannot change: "
                          + ", ".join(fixed))
        if new.rounds < len(t.rounds):
            raise Refused("bad_settings", f"{len(t.rounds)} rounds are already paired")
    return [{"e": "edited", "settings": new.to_plain(), "reply": {}}]


def close(t: Tournament, cmd: Command, _: Pairer | None) -> list[Event]:
    organiser(cmd)
    if t.closed:
        raise Refused("event_over", "this event is already closed")
    cur = t.current()
    if cur is not None and cur.status == "live" and not cur.done:
        raise Refused("round_not_finished", f"round {cur.number} is still being played: "
                      "adjudicate its open boards first")
    return [{"e": "closed", "reply": {}}]


# -- entries ----------------------------------------------------------------

def _entry_event(t: Tournament, *, name: Any, account: str | None, rating: Any,
                 team: Any, token: str | None) -> Event:
    s = t.s
    not_over(t)
    try:
        name = check_name(name) if isinstance(name, str) else check_name("")
    except ValueError as e:
        raise Refused("bad_name", str(e)) from None
    if rating is not None and (isinstance(rating, bool) or not isinstance(rating, int)
                               or not 0 <= rating <= 4000):
        raise Refused("bad_field", "a rating is a whole number 0-4000")
    if team is not None and (not isinstance(team, str) or team not in TEAMS):
        raise Refused("bad_field", "that is not one of the teams")
    in_event = sum(1 for e in t.entries.values() if e.status != "withdrawn")
    if s.entry_cap is not None and in_event >= s.entry_cap:
        raise Refused("event_full", f"this event is full ({s.entry_cap} players)")
    event: Event = {"e": "entered", "pid": max(t.entries, default=0) + 1, "name": name,
                    "account": account, "rating": rating, "team": team, "token": token}
    if t.started:
        nxt = t.next_round_to_pair()
        if not s.swiss:
            raise Refused("late_entry_closed", "this event has started: its pairings are "
                          "fixed, so nobody can join now")
        if nxt > s.late_entry_limit() or nxt > t.total_rounds():
            raise Refused("late_entry_closed", f"late entries were allowed until round "
                          f"{s.late_entry_limit()}")
        kind = "half" if s.late_byes == "half" else "zero"
        event.update(late=True, checked_in=True,
                     number=max((e.number or 0 for e in t.entries.values()), default=0) + 1,
                     missed={str(r.number): kind for r in t.rounds})
    return event


def join(t: Tournament, cmd: Command, _: Pairer | None) -> list[Event]:
    by = account(cmd)
    if cmd.get("role") not in ("player", "organiser"):
        raise Refused("sign_in_required", "sign in to enter an event")
    if not t.s.open_entry:
        raise Refused("entry_closed", "this event takes entries only from its organiser")
    if by in t.accounts:
        raise Refused("already_entered", "you are already in this event")
    ev = _entry_event(t, name=cmd.get("name"), account=by, rating=cmd.get("rating"),
                      team=cmd.get("team"), token=None)
    ev["reply"] = {"pid": ev["pid"]}
    return [ev]


def add_entry(t: Tournament, cmd: Command, _: Pairer | None) -> list[Event]:
    organiser(cmd)
    token = cmd.get("token")
    if not isinstance(token, str) or not 16 <= len(token) <= MAX_TOKEN or token in t.tokens:
        raise Refused("internal", "the server gave the roster line no entry token")
    ev = _entry_event(t, name=cmd.get("name"), account=None, rating=cmd.get("rating"),
                      team=cmd.get("team"), token=token)
    ev["reply"] = {"pid": ev["pid"], "token": token}
    return [ev]


def claim(t: Tournament, cmd: Command, _: Pairer | None) -> list[Event]:
    by = account(cmd)
    token = cmd.get("token")
    pid = t.tokens.get(token) if isinstance(token, str) else None
    if pid is None:
        raise Refused("bad_entry_link", "this entry link is not valid (or was already used)")
    if by in t.accounts:
        raise Refused("already_entered", "you are already in this event")
    rating = cmd.get("rating")
    return [{"e": "claimed", "pid": pid, "account": by,
             "rating": rating if isinstance(rating, int) and not isinstance(rating, bool)
             else None, "reply": {"pid": pid}}]


def check_in(t: Tournament, cmd: Command, _: Pairer | None) -> list[Event]:
    entry = t.entry(cmd.get("pid"))
    self_or_organiser(cmd, entry)
    if t.started:
        raise Refused("too_late", "check-in closes when round 1 is paired")
    value = cmd.get("in", True)
    if not isinstance(value, bool):
        raise Refused("bad_field", "in is true or false")
    if entry.status == "withdrawn":
        raise Refused("withdrawn", f"{entry.name} has withdrawn")
    return [{"e": "checked_in", "pid": entry.pid, "checked_in": value, "reply": {}}]


def _leaving(t: Tournament, kind: str, pid: int, pairer: Pairer | None) -> list[Event]:
    """The status event, then what it does to the round in hand (``leaving.py``); the
    reply says which boards changed."""
    round_events = leave_round(t, pid, withdrawing=kind == "withdrawn", pairer=pairer)
    reply: dict[str, Any] = {}
    for ev in round_events:
        if ev["e"] == "result":
            reply.setdefault("forfeited", []).append(
                {"round": ev["round"], "board": ev["board"]})
        elif ev["e"] == "pairing_edited":
            reply["repaired"] = ev["round"]
    events: list[Event] = [{"e": kind, "pid": pid}, *round_events]
    events[-1]["reply"] = reply
    return events


def withdraw(t: Tournament, cmd: Command, pairer: Pairer | None) -> list[Event]:
    entry = t.entry(cmd.get("pid"))
    self_or_organiser(cmd, entry)
    if cmd.get("role") != "organiser" and not t.s.self_withdraw:
        raise Refused("not_organiser", "ask the organiser to withdraw you")
    if entry.status == "withdrawn":
        raise Refused("withdrawn", f"{entry.name} has already withdrawn")
    not_over(t)
    return _leaving(t, "withdrawn", entry.pid, pairer)


def pause(t: Tournament, cmd: Command, pairer: Pairer | None) -> list[Event]:
    entry = t.entry(cmd.get("pid"))
    self_or_organiser(cmd, entry)
    not_over(t)
    if entry.status != "active":
        raise Refused("not_active", f"{entry.name} is not playing now")
    return _leaving(t, "paused", entry.pid, pairer)


def resume(t: Tournament, cmd: Command, _: Pairer | None) -> list[Event]:
    entry = t.entry(cmd.get("pid"))
    self_or_organiser(cmd, entry)
    not_over(t)
    if entry.status == "active":
        raise Refused("not_paused", f"{entry.name} is already playing")
    if entry.status == "withdrawn" and cmd.get("role") != "organiser":
        raise Refused("not_organiser", "only the organiser can bring back a player who "
                      "withdrew")
    ev: Event = {"e": "resumed", "pid": entry.pid, "reply": {}}
    if entry.number is None and t.started:
        swiss_only(t, "coming back after the start")
        ev["number"] = max((e.number or 0 for e in t.entries.values()), default=0) + 1
        ev["missed"] = {str(r.number): "absent" for r in t.rounds}
    return [ev]


def request_bye(t: Tournament, cmd: Command, _: Pairer | None) -> list[Event]:
    entry = t.entry(cmd.get("pid"))
    self_or_organiser(cmd, entry)
    swiss_only(t, "a bye")
    not_over(t)
    rnd = integer(cmd, "round", "round")
    kind = cmd.get("kind")
    if kind is not None and kind not in REQUESTABLE_BYES:
        raise Refused("bad_field", "a bye is half (a half-point bye) or zero")
    if not t.next_round_to_pair() <= rnd <= t.total_rounds():
        raise Refused("too_late", f"byes can be asked for rounds {t.next_round_to_pair()}"
                      f"-{t.total_rounds()}")
    if entry.status == "withdrawn":
        raise Refused("withdrawn", f"{entry.name} has withdrawn")
    return [{"e": "bye_requested", "pid": entry.pid, "round": rnd, "kind": kind,
             "reply": {}}]


def forbid(t: Tournament, cmd: Command, _: Pairer | None) -> list[Event]:
    organiser(cmd)
    swiss_only(t, "a forbidden pairing")
    a, b = t.entry(cmd.get("a")).pid, t.entry(cmd.get("b")).pid
    if a == b:
        raise Refused("bad_field", "a forbidden pairing names two different players")
    pair = (min(a, b), max(a, b))
    allow = cmd.get("op") == "allow"
    if (pair in t.forbidden) != allow:
        raise Refused("no_change", "these two are already " + ("allowed" if allow else
                                                               "kept apart"))
    return [{"e": "allowed" if allow else "forbidden", "a": pair[0], "b": pair[1],
             "reply": {}}]
