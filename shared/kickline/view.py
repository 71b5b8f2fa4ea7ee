"""What one seat may see: the only place hidden information is removed.

Hidden in training mode: the other side's pending secret choice (a maneuver
card, a loose-ball send, a sudden-death pick) and the unrevealed part of its
shootout order.  ``redact`` applies the same rule to events.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from .board import HOME, SIDE_NAMES, VISITORS
from .engine import ASK, SECRET, holds_gambits, to_act
from .roster import ROLE_SKILLS, TEAMS
from .state import PLAIN_FORMAT, Config, Player, State, pid, role

STATUS = {"F": "field", "B": "bench", "X": "back-bench"}


def _side_name(side: int) -> str | None:
    return SIDE_NAMES[side] if side in (HOME, VISITORS) else None


@lru_cache(maxsize=64)
def _cards(config: Config, home_seat: int) -> tuple[dict[str, Any], ...]:
    """What never changes about the 18 players of a match: built once, copied per view."""
    out = []
    for i in range(18):
        side = i // 9
        team = TEAMS[config.teams[side if home_seat == 0 else 1 - side]] \
            if home_seat >= 0 else None
        card = team.players[i % 9] if team else None
        off, dfn = ROLE_SKILLS[role(i)]
        ability = None
        if card is not None and config.mode == "advanced":  # 21.1.1
            ability = card.ability or None
            if card.adv_def is not None:
                dfn = card.adv_def  # 21.2.1: the advanced skill replaces the role's
        out.append({"id": pid(i), "side": SIDE_NAMES[side],
                    "name": card.name if card else None,
                    "species": card.species if card else None,
                    "ability": ability,
                    "role": role(i), "off": off, "def": dfn})
    return tuple(out)


@lru_cache(maxsize=16)
def _entries(config: Config, home_seat: int) -> tuple[dict[Player, dict[str, Any]], ...]:
    """Per player of a match, its view entries by the player's state (``exhausted`` is a
    function of it and the config too).  Views share the entries of players that did
    not change (16 of 18 per decision, typically), so a view builds only the others, and
    a host comparing two views (view patches) finds the unchanged ones identical at
    once.  Views are read-only plain data: never change one."""
    return tuple({} for _ in range(18))


_MAX_ENTRIES = 256
"""Entries kept per player and match setting before starting afresh (at most ~3 MB per
setting, 16 settings)."""


def _entry(s: State, i: int, card: dict[str, Any], p: Player) -> dict[str, Any]:
    names = s.board.names
    entry = dict(card)
    entry["status"] = STATUS[p.status]
    entry["space"] = names[p.pos] if p.pos else None
    entry["zone"] = p.zone or None
    entry["arrangement"] = names[p.arr] if p.arr else None
    entry["tokens"] = p.tokens
    entry["injured"] = p.injured
    entry["exhausted"] = s.exhausted(i)  # the engine's reading, Drained Cyborgs too (20.3.3)
    return entry


def view(s: State, seat: int | None) -> dict[str, Any]:
    """Plain data for ``seat`` (0 or 1) or a spectator (``None``)."""
    if seat not in (0, 1, None):
        raise ValueError(f"no seat {seat!r}")
    b = s.board
    my_side = s.side_of(seat) if seat is not None and s.home_seat >= 0 else None
    players = []
    cards = _cards(s.config, s.home_seat)
    for i, (known, p) in enumerate(zip(_entries(s.config, s.home_seat), s.players,
                                       strict=True)):
        entry = known.get(p)
        if entry is None:
            if len(known) >= _MAX_ENTRIES:
                known.clear()
            entry = known[p] = _entry(s, i, cards[i], p)
        players.append(entry)
    kind, seats, secret = to_act(s)
    top = s.stack[-1]
    # The open question and its arguments (all public: who is asked, bounds, targets),
    # so a client can rebuild and preview it without the engine's deeper stack.
    prompt: dict[str, Any] = {"frame": top[0], "args": list(top[1:])}
    if top[0] in ASK:
        prompt["seat"] = ASK[top[0]].who(s, top)
    so = s.shootout
    orders: list[list[str] | None] = []
    for side in (HOME, VISITORS):
        order = [pid(i) for i in so.orders[side]]
        # Sudden death comes only after all six of the first round have shot.
        if my_side == side or kind == "over" or so.sudden:
            orders.append(order)
        else:
            shown = so.idx + (1 if so.current[side] >= 0 and not so.sudden else 0)
            orders.append(order[:shown] if order else None)
    t = s.turn
    ball = s.ball
    turn: dict[str, Any] = {
        "side": _side_name(t.side),
        "handler": pid(t.handler) if t.handler >= 0 else None,
        "challenger": pid(t.challenger) if t.challenger >= 0 else None,
        "offense_card": t.off_card or None,
        "defense_card": t.def_card or None,
        "cost": t.cost,
        "new_play": t.np_kind or None,
        "new_play_side": _side_name(t.np_side),
        "speed_step": pid(t.speed_step) if t.speed_step >= 0 else None,
        "test": t.test or None,
    }
    if s.config.mode == "advanced" and s.home_seat >= 0:
        # 19.3.2: who holds gambits is public, read off the scoreboard and the field;
        # 19.10.4: so is a lasting Double Team.
        turn["gambits"] = {SIDE_NAMES[side]: holds_gambits(s, side) for side in (HOME, VISITORS)}
        turn["double_team"] = [pid(i) for i in (t.double, t.partner) if i >= 0] or None
        # A beaten gambit's cost still to land, and the tier the maneuver resolved at
        # (19.4, 19.5.5, 19.6.5): announced by the events, kept here for the turn's end.
        turn["beaten"] = t.beaten or None
        turn["resolved"] = t.resolved or None
    return {
        "format": PLAIN_FORMAT,
        "seat": seat,
        "side": _side_name(my_side) if my_side is not None else None,
        "version": s.version,
        "config": s.config.to_plain(),
        "home_seat": s.home_seat,
        "teams": {
            SIDE_NAMES[side]: TEAMS[s.config.teams[s.seat_of(side)]].name
            for side in (HOME, VISITORS)
        } if s.home_seat >= 0 else None,
        "minute": s.minute,
        "period": s.period,
        "last_possession": s.last_poss,
        "score": list(s.score),
        "goals": [
            {"side": SIDE_NAMES[g[0]], "period": g[1], "minute": g[2], "player": pid(g[3]),
             "kind": g[4]}
            for g in s.goals
        ],
        "ball": {
            "space": b.names[ball.pos] if ball.pos else None,
            "speed": ball.speed,
            "owner": _side_name(ball.owner),
            "carrier": pid(ball.carrier) if ball.carrier >= 0 else None,
            "last": _side_name(ball.last),
        },
        "players": players,
        "timeouts_used": list(s.timeouts),
        "subs_left": list(s.subs),
        "turn": turn,
        "to_act": {"kind": kind, "seats": list(seats), "secret": secret},
        "prompt": prompt,
        "secret": {
            "mine": s.secret[my_side] or None if my_side is not None else None,
            "chosen": {"home": bool(s.secret[HOME]), "visitors": bool(s.secret[VISITORS])}
            if top[0] in SECRET else None,
        },
        "shootout": {
            "orders": orders,
            "test": so.idx,
            "goals": list(so.goals),
            "sudden_death": so.sudden,
            "current": [pid(i) if i >= 0 else None for i in so.current],
            "shot": [[pid(i) for i in so.shot[side]] for side in (HOME, VISITORS)],
        },
        # The engine's remaining work beneath the question (frames of plain values) and
        # the dice rolled but not yet read: public, and with them a view is a whole state
        # but for what it hides, so a bot can play on from it (kickline.bots.belief).
        "stack": [list(f) for f in s.stack],
        "rolls": list(s.rolls),
    }


def redact(events: Sequence[dict[str, Any]], seat: int | None) -> list[dict[str, Any]]:
    """Events as ``seat`` may see them: another seat's secret choice loses its value."""
    out = []
    for e in events:
        owner = e.get("private")
        if owner is not None and owner != seat:
            e = {k: v for k, v in e.items() if k != "decision"}
        out.append(e)
    return out
