"""What one seat may see: the only place hidden information is removed.

Hidden in training mode: the other side's pending secret choice (a maneuver
card, a loose-ball send, a sudden-death pick) and the unrevealed part of its
shootout order.  ``redact`` applies the same rule to events.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from itertools import compress
from operator import is_not
from typing import Any, TypeVar

from .board import HOME, SIDE_NAMES, VISITORS
from .engine import ASK, SECRET, holds_gambits, to_act
from .roster import ROLE_SKILLS, TEAMS
from .state import PLAIN_FORMAT, Config, Player, State, pid, role

T = TypeVar("T")

STATUS = {"F": "field", "B": "bench", "X": "back-bench"}


def _side_name(side: int) -> str | None:
    return SIDE_NAMES[side] if side in (HOME, VISITORS) else None


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


class _Setting:
    """What the views of every match of one setting (config and home seat) share.

    ``entries``: per player, its view entries by the player's state (``exhausted`` is a
    function of it and the config too).  Views share the entries of players that did
    not change (16 of 18 per decision, typically), so a view builds only the others, and
    a host comparing two views (view patches) finds the unchanged ones identical at
    once.  Views are read-only plain data: never change one."""

    __slots__ = ("cards", "config", "entries", "teams")

    def __init__(self, config: Config, home_seat: int) -> None:
        self.cards = _cards(config, home_seat)
        self.entries: tuple[dict[Player, dict[str, Any]], ...] = tuple({} for _ in range(18))
        self.config = config.to_plain()
        self.teams = {
            SIDE_NAMES[side]: TEAMS[config.teams[side if home_seat == 0 else 1 - side]].name
            for side in (HOME, VISITORS)
        } if home_seat >= 0 else None


@lru_cache(maxsize=16)
def _setting_of(config: Config, home_seat: int) -> _Setting:
    return _Setting(config, home_seat)


_last_setting: list[tuple[Config, int, _Setting] | None] = [None]
"""The last (config, home seat, setting) asked for: looking a config up hashes it in
Python, and a match's states all hold the same config object.  Like every one-entry
memo here, one slot written in one step: the server's threads share it."""


def _setting(config: Config, home_seat: int) -> _Setting:
    last = _last_setting[0]
    if last is not None and last[0] is config and last[1] == home_seat:
        return last[2]
    setting = _setting_of(config, home_seat)
    _last_setting[0] = (config, home_seat, setting)
    return setting


_MAX_ENTRIES = 64
"""Entries kept per player and match setting before starting afresh: at most ~0.7 MB
per setting (an entry and its key ~0.6 KiB), 16 settings.  A match's own unchanged
players stay shared across a clear but once (one view rebuilds them); with 256 the cache
held up to 2.7 MB per setting, 40-60 KiB per match when a few dozen matches share it
(bench/match_memory.py)."""


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


_MAX_PARTS = 512
"""Entries kept per cache of shared view parts before starting afresh."""

_ball_parts: dict[tuple[Any, ...], dict[str, Any]] = {}
_turn_parts: dict[tuple[Any, ...], dict[str, Any]] = {}
_goal_parts: dict[tuple[Any, ...], list[dict[str, Any]]] = {}
_act_parts: dict[tuple[Any, ...], dict[str, Any]] = {}
_secret_parts: dict[tuple[Any, ...], dict[str, Any]] = {}
_shootout_parts: dict[tuple[Any, ...], dict[str, Any]] = {}


def clear_caches() -> None:
    """Forget every shared part, so the next view is built afresh (tests compare)."""
    _setting_of.cache_clear()
    _last_setting[0] = None
    for cache in (_ball_parts, _turn_parts, _goal_parts, _act_parts, _secret_parts,
                  _shootout_parts):
        cache.clear()
    _last[0] = None
    _matches.clear()


def _keep(cache: dict[Any, T], key: Any, value: T) -> T:
    if len(cache) >= _MAX_PARTS:
        cache.clear()
    cache[key] = value
    return value


class _Shared:
    """What every seat's view of one state holds alike, built once per state.

    Built from the match's last viewed state when there is one (``was`` and its
    ``before``): states share every sub-object a decision did not change (typically 16
    of 18 players, the ball, the goals, most of the stack), so a part whose sub-object
    is the very same one (``is``) is taken from ``was`` and only the rest is built.  A
    view part depends on nothing but its sub-object and the match setting (config and
    home seat, checked), so the result equals a view built afresh whatever was viewed
    before, and an unchanged part is the same object as the last view's (a view patch
    skips it at once)."""

    __slots__ = ("act", "ball", "base", "goals", "in_secret", "kind", "players", "prompt",
                 "rolls", "score", "seats", "setting", "stack", "subs", "timeouts", "top",
                 "turn", "was_seats")

    act: dict[str, Any]
    base: dict[str, Any] | None
    ball: dict[str, Any]
    goals: list[dict[str, Any]]
    in_secret: bool
    kind: str
    players: list[dict[str, Any]]
    prompt: dict[str, Any]
    rolls: list[int]
    score: list[int]
    seats: dict[int | None, _SeatParts]
    setting: _Setting
    stack: list[list[Any]]
    subs: list[int]
    timeouts: list[bool]
    top: tuple[Any, ...]
    turn: dict[str, Any]
    was_seats: dict[int | None, _SeatParts] | None

    def __init__(self, s: State, before: State | None = None,
                 was: _Shared | None = None) -> None:
        setting = self.setting = _setting(s.config, s.home_seat)
        kind, seats, secret = to_act(s)
        self.kind = kind
        key: tuple[Any, ...] = (kind, seats, secret)
        act = _act_parts.get(key)
        if act is None:
            act = _keep(_act_parts, key, {"kind": kind, "seats": list(seats), "secret": secret})
        self.act = act
        top = self.top = s.stack[-1]
        self.in_secret = in_secret = top[0] in SECRET
        self.seats = {}
        self.base = None
        # The open question and its arguments (all public: who is asked, bounds, targets),
        # so a client can rebuild and preview it without the engine's deeper stack; the
        # seat asked is the one to_act names.
        if was is not None and top is was.top and was.act is act:
            prompt = was.prompt
        else:
            prompt = {"frame": top[0], "args": list(top[1:])}
            if top[0] in ASK:
                prompt["seat"] = seats[0]
            if was is not None and prompt == was.prompt:
                prompt = was.prompt
        self.prompt = prompt
        # Each seat's own parts (side, shootout, secret) read only the shootout, the
        # secret choices, the home seat and these two flags.
        self.was_seats = was.seats if (
            before is not None and was is not None and s.shootout is before.shootout
            and s.secret is before.secret and s.home_seat == before.home_seat
            and (kind == "over") == (was.kind == "over") and in_secret == was.in_secret
        ) else None
        if before is None or was is None or was.setting is not setting:
            self._afresh(s)
            return
        ps, old = s.players, before.players
        changed = list(compress(_PLAYER_INDEXES, map(is_not, ps, old)))
        if changed:
            players = list(was.players)
            for i in changed:
                p = ps[i]
                if p != old[i]:
                    players[i] = _player(s, setting, i, p)
            self.players = players
        else:
            self.players = was.players
        # The advanced turn also shows who holds gambits, read off the whole state.
        self.turn = was.turn if s.turn is before.turn and s.config.mode != "advanced" \
            else _turn(s)
        self.ball = was.ball if s.ball is before.ball else _ball(s)
        self.goals = was.goals if s.goals is before.goals else _goals(s)
        self.score = was.score if s.score is before.score else list(s.score)
        self.timeouts = was.timeouts if s.timeouts is before.timeouts else list(s.timeouts)
        self.subs = was.subs if s.subs is before.subs else list(s.subs)
        self.rolls = was.rolls if s.rolls == before.rolls else list(s.rolls)
        # Frames beneath the top stay the same objects while the top is worked on.
        stack, old_stack, old_lists = s.stack, before.stack, was.stack
        if stack is old_stack:
            self.stack = old_lists
        elif stack == old_stack:
            self.stack = old_lists  # a new tuple of equal frames (a frame pushed again)
        else:
            n = len(old_stack)
            self.stack = [old_lists[k] if k < n and f is old_stack[k] else list(f)
                          for k, f in enumerate(stack)]

    def _afresh(self, s: State) -> None:
        setting = self.setting
        self.players = [_player(s, setting, i, p) for i, p in enumerate(s.players)]
        self.turn = _turn(s)
        self.ball = _ball(s)
        self.goals = _goals(s)
        self.score = list(s.score)
        self.timeouts = list(s.timeouts)
        self.subs = list(s.subs)
        self.stack = [list(f) for f in s.stack]
        self.rolls = list(s.rolls)


_PLAYER_INDEXES = range(18)


def _player(s: State, setting: _Setting, i: int, p: Player) -> dict[str, Any]:
    """Player ``i``'s entry: the setting's for this player state, or a new one kept."""
    known = setting.entries[i]
    entry = known.get(p)
    if entry is None:
        if len(known) >= _MAX_ENTRIES:
            known.clear()
        entry = known[p] = _entry(s, i, setting.cards[i], p)
    return entry


def _ball(s: State) -> dict[str, Any]:
    key = (s.ball, s.config.board)
    ball = _ball_parts.get(key)
    if ball is None:
        b, names = s.ball, s.board.names
        ball = _keep(_ball_parts, key, {
            "space": names[b.pos] if b.pos else None,
            "speed": b.speed,
            "owner": _side_name(b.owner),
            "carrier": pid(b.carrier) if b.carrier >= 0 else None,
            "last": _side_name(b.last),
        })
    return ball


def _goals(s: State) -> list[dict[str, Any]]:
    goals = _goal_parts.get(s.goals)
    if goals is None:
        goals = _keep(_goal_parts, s.goals, [
            {"side": SIDE_NAMES[g[0]], "period": g[1], "minute": g[2], "player": pid(g[3]),
             "kind": g[4]}
            for g in s.goals
        ])
    return goals


def _turn(s: State) -> dict[str, Any]:
    t = s.turn
    advanced = s.config.mode == "advanced" and s.home_seat >= 0
    # 19.3.2: who holds gambits is public, read off the scoreboard and the field.
    key: tuple[Any, ...] = (t, holds_gambits(s, HOME), holds_gambits(s, VISITORS)) \
        if advanced else (t,)
    turn = _turn_parts.get(key)
    if turn is not None:
        return turn
    turn = {
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
    if advanced:
        turn["gambits"] = {SIDE_NAMES[side]: key[1 + side] for side in (HOME, VISITORS)}
        # 19.10.4: a lasting Double Team is public too.
        turn["double_team"] = [pid(i) for i in (t.double, t.partner) if i >= 0] or None
        # A beaten gambit's cost still to land, and the tier the maneuver resolved at
        # (19.4, 19.5.5, 19.6.5): announced by the events, kept here for the turn's end.
        turn["beaten"] = t.beaten or None
        turn["resolved"] = t.resolved or None
    return _keep(_turn_parts, key, turn)


_last: list[tuple[State, _Shared] | None] = [None]
"""The last state viewed and its :class:`_Shared` parts: a host views each new state
for both seats (and spectators) in a row, and states never change."""

_MAX_MATCHES = 1024
"""Matches whose last viewed state is kept (the least recently viewed is forgotten
first): a few KiB each, mostly parts its current view holds anyway."""

_matches: dict[int, tuple[State, _Shared]] = {}
"""Per match, its last viewed state and that state's parts, keyed by the identity of
the state's config: every state of a match holds its first state's config object
(``Ctx`` copies it by reference), and the entry holds that state, so the config stays
alive and its id is not reused while the entry lasts.  Two matches built on one config
object share an entry, which only makes them build more: a part is reused only for the
very same sub-object in the same setting, so a view never depends on what was viewed
before it."""


def _shared(s: State) -> _Shared:
    matches = _matches
    key = id(s.config)
    seen = matches.pop(key, None)
    sh = _Shared(s) if seen is None else _Shared(s, seen[0], seen[1])
    if len(matches) >= _MAX_MATCHES:
        for oldest in matches:  # the least recently viewed; another thread may take it first
            matches.pop(oldest, None)
            break
    matches[key] = (s, sh)
    return sh


_SeatParts = tuple[str | None, dict[str, Any], dict[str, Any]]
"""A seat's own view parts: its side's name, the shootout and the secret as it sees them."""


def _seat_parts(s: State, sh: _Shared, seat: int | None) -> _SeatParts:
    my_side = s.side_of(seat) if seat is not None and s.home_seat >= 0 else None
    kind = sh.kind
    so = s.shootout
    key: tuple[Any, ...] = (so, my_side, kind == "over")
    shootout = _shootout_parts.get(key)
    if shootout is None:
        orders: list[list[str] | None] = []
        for side in (HOME, VISITORS):
            order = [pid(i) for i in so.orders[side]]
            # Sudden death comes only after all six of the first round have shot.
            if my_side == side or kind == "over" or so.sudden:
                orders.append(order)
            else:
                shown = so.idx + (1 if so.current[side] >= 0 and not so.sudden else 0)
                orders.append(order[:shown] if order else None)
        shootout = _keep(_shootout_parts, key, {
            "orders": orders,
            "test": so.idx,
            "goals": list(so.goals),
            "sudden_death": so.sudden,
            "current": [pid(i) if i >= 0 else None for i in so.current],
            "shot": [[pid(i) for i in so.shot[side]] for side in (HOME, VISITORS)],
        })
    in_secret = sh.in_secret
    key = (s.secret, my_side, in_secret)
    secret = _secret_parts.get(key)
    if secret is None:
        secret = _keep(_secret_parts, key, {
            "mine": s.secret[my_side] or None if my_side is not None else None,
            "chosen": {"home": bool(s.secret[HOME]), "visitors": bool(s.secret[VISITORS])}
            if in_secret else None,
        })
    return _side_name(my_side) if my_side is not None else None, shootout, secret


def view(s: State, seat: int | None) -> dict[str, Any]:
    """Plain data for ``seat`` (0 or 1) or a spectator (``None``).

    Views are read-only plain data: the parts every seat sees alike are built once per
    state and shared, and so are parts equal to an earlier view's (a player's entry, the
    turn, the ball, ...), which is also what lets a view patch skip them at once.  Never
    change one."""
    if seat not in (0, 1, None):
        raise ValueError(f"no seat {seat!r}")
    last = _last[0]
    if last is not None and last[0] is s:
        sh = last[1]
    else:
        sh = _shared(s)
        _last[0] = (s, sh)
    parts = sh.seats.get(seat)
    if parts is None:
        was = sh.was_seats
        parts = was.get(seat) if was is not None else None
        if parts is None:
            parts = _seat_parts(s, sh, seat)
        sh.seats[seat] = parts
    side, shootout, secret = parts
    base = sh.base
    if base is None:
        base = sh.base = _base(s, sh)
    # The seats' views differ only in these four (set in place: the key order stays).
    v = base.copy()
    v["seat"] = seat
    v["side"] = side
    v["secret"] = secret
    v["shootout"] = shootout
    return v


def _base(s: State, sh: _Shared) -> dict[str, Any]:
    """A view of ``s`` with its four seat-dependent keys left ``None``: each seat's view
    is a copy with them filled in."""
    return {
        "format": PLAIN_FORMAT,
        "seat": None,
        "side": None,
        "version": s.version,
        "config": sh.setting.config,
        "home_seat": s.home_seat,
        "teams": sh.setting.teams,
        "minute": s.minute,
        "period": s.period,
        "last_possession": s.last_poss,
        "score": sh.score,
        "goals": sh.goals,
        "ball": sh.ball,
        "players": sh.players,
        "timeouts_used": sh.timeouts,
        "subs_left": sh.subs,
        "turn": sh.turn,
        "to_act": sh.act,
        "prompt": sh.prompt,
        "secret": None,
        "shootout": None,
        # The engine's remaining work beneath the question (frames of plain values) and
        # the dice rolled but not yet read: public, and with them a view is a whole state
        # but for what it hides, so a bot can play on from it (kickline.bots.belief).
        "stack": sh.stack,
        "rolls": sh.rolls,
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
