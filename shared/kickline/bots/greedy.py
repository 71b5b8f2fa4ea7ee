"""The rule-of-thumb bots: ``bot(view, legal, rng) -> decision`` from the seat's view.

``random`` picks uniformly among the legal decisions.  ``greedy`` (the ``casual`` level)
plays the way a sensible coach would: it shoots when the odds favour it, sends a
challenger only when the walk is cheap for somebody fresh, throws to where a teammate
stands, keeps its arrangement (which the rules already hold to its kickoff space), and
brings tired or injured players off when it may.  It is also the search bots' default
policy inside their playouts.
"""

from __future__ import annotations

import random as _random
from collections.abc import Callable, Sequence
from typing import Any

from ..board import SIDE_NAMES
from ..state import PIDS, Player, State, per_setting
from ..view import STATUS
from ..view import view as seat_view

View = dict[str, Any]
Bot = Callable[[View, Sequence[str], _random.Random], str]

SHOOT_AT = 50  # percent chance of scoring at which greedy shoots


def random_bot(view: View, legal: Sequence[str], rng: _random.Random) -> str:
    return legal[rng.randrange(len(legal))]


def _p_at_least(diff: int) -> int:
    """Percent chance that d12 + diff >= d12 (two fair dice), rounded down."""
    wins = sum(1 for a in range(1, 13) for b in range(1, 13) if a + diff >= b)
    return wins * 100 // 144


def _spaces(n: int) -> dict[str, int]:
    """Space name -> index on an ``n``-space board (the view names spaces)."""
    index = _SPACES.get(n)
    if index is None:
        g = (n - 3) // 2
        names = [f"H{i}" if i <= g else f"M{i - g}" if i <= g + 3 else f"V{i - g - 3}"
                 for i in range(1, n + 1)]
        index = _SPACES[n] = {name: i for i, name in enumerate(names, 1)}
    return index


_SPACES: dict[int, dict[str, int]] = {}


class _Reader:
    """What greedy reads of a position: a seat's view, or (:func:`greedy_on_state`, the
    search's playouts) the same parts read straight off a state."""

    __slots__ = ("args", "ball", "frame", "handler", "index", "me", "n", "players")

    def __init__(self, me: str | None, n: int, players: dict[str, dict[str, Any]],
                 frame: str, args: list[Any], handler: str | None,
                 ball: dict[str, Any]) -> None:
        self.me = me
        self.n = n
        self.players = players  # by id, in the view's order (h0-h8, v0-v8)
        self.frame = frame
        self.args = args
        self.handler = handler
        self.ball = ball
        self.index = _spaces(n)

    @classmethod
    def of_view(cls, view: View) -> _Reader:
        return cls(view["side"], view["config"]["board"],
                   {p["id"]: p for p in view["players"]}, view["prompt"]["frame"],
                   view["prompt"]["args"], view["turn"]["handler"], view["ball"])

    def pos(self, pid: str) -> int:
        sp = self.players[pid]["space"]
        return self.index[sp] if sp else 0

    def fwd(self) -> int:
        return 1 if self.me == "home" else -1

    def fatigue(self, pid: str) -> int:
        p = self.players[pid]
        return 100 if p["injured"] else p["tokens"] - p["def"]

    def shot_odds(self, shooter: str, setup: bool) -> int:
        ball = self.index[self.ball["space"]]
        p = self.players[shooter]
        att = p["off"] + self.ball["speed"] // 2 + (3 if setup and p["role"] == "S" else 0)
        wall = 0
        for q in self.players.values():
            if q["side"] == self.me or q["status"] != "field":
                continue
            rel = (self.index[q["space"]] - ball) * self.fwd()
            wall += q["def"] if rel == 0 else (q["def"] + 1) // 2 if rel > 0 else 0
        return _p_at_least(att - wall)


def greedy_bot(view: View, legal: Sequence[str], rng: _random.Random) -> str:
    return _decide(_Reader.of_view(view), legal, rng)


def greedy_on_state(s: State, seat: int, legal: Sequence[str], rng: _random.Random) -> str:
    """The greedy bot's decision for ``seat``, reading a state instead of its view: the
    same decision as ``greedy_bot(view(s, seat), legal, rng)`` (it reads nothing the view
    hides), without building the view.  For the search's playouts, whose states are
    their own samples, where building a view per decision cost a third of the time."""
    return _decide(_reader_of_state(s, seat), legal, rng)


_STATIC = ("id", "side", "species", "ability", "role", "off", "def")
"""A player's view entries that never change in a match (of one setting)."""

_MAX_ENTRIES = 256  # entries kept per player and setting before starting afresh


class _Setting:
    """Per match setting (config and home seat): each player's entries that never
    change, and the entries built so far by the player's state (a playout's states
    share most players' states with the one before)."""

    __slots__ = ("entries", "statics")

    def __init__(self, statics: list[dict[str, Any]]) -> None:
        self.statics = statics
        self.entries: list[dict[Player, dict[str, Any]]] = [{} for _ in statics]


def _new_setting(s: State) -> _Setting:
    # Read off the view itself, so the two readers agree by construction.
    return _Setting([{k: e[k] for k in _STATIC} for e in seat_view(s, 0)["players"]])


_setting = per_setting(_new_setting)


def _reader_of_state(s: State, seat: int) -> _Reader:
    names = s.board.names
    setting = _setting(s)
    players = {}
    for st, known, p in zip(setting.statics, setting.entries, s.players, strict=True):
        entry = known.get(p)
        if entry is None:
            if len(known) >= _MAX_ENTRIES:
                known.clear()
            entry = known[p] = {**st, "status": STATUS[p.status],
                                "space": names[p.pos] if p.pos else None,
                                "tokens": p.tokens, "injured": p.injured}
        players[st["id"]] = entry
    b, t, top = s.ball, s.turn, s.stack[-1]
    return _Reader(SIDE_NAMES[s.side_of(seat)] if s.home_seat >= 0 else None,
                   s.config.board, players, top[0], list(top[1:]),
                   PIDS[t.handler] if t.handler >= 0 else None,
                   {"space": names[b.pos] if b.pos else None, "speed": b.speed,
                    "owner": SIDE_NAMES[b.owner] if b.owner in (0, 1) else None})


def _decide(r: _Reader, legal: Sequence[str], rng: _random.Random) -> str:
    kinds = {d.split()[0] for d in legal}
    frame = r.frame

    def pick(options: Sequence[str], key: Callable[[str], Any]) -> str:
        return min(options, key=key)

    if "toss" in kinds:
        return "toss home"
    if "skip" in kinds or "finish" in kinds:
        tired = [d for d in legal if d.startswith("sub ")
                 and r.fatigue(d.split()[1]) > 0 and r.players[d.split()[2]]["role"]
                 == r.players[d.split()[1]]["role"]]
        if tired:
            return pick(tired, lambda d: (-r.fatigue(d.split()[1]), d))
        return "finish" if "finish" in legal else "skip"
    if "action" in kinds:
        h = r.handler  # an action is always the handler's (6.1)
        if "action shoot" in legal and h is not None and r.shot_odds(h, False) >= SHOOT_AT:
            return "action shoot"
        return "action maneuver"
    if "shot" in kinds:
        shooter = r.handler if frame != "setup" else None
        ids = [p for p in r.players if r.players[p]["space"] == r.ball["space"]
               and r.players[p]["side"] == r.me]
        who = shooter or max(ids, key=lambda p: r.players[p]["off"], default=None)
        if who and r.shot_odds(who, True) >= SHOOT_AT - 10:
            return "shot take"
        return "shot decline"
    if "card" in kinds:
        return legal[rng.randrange(len(legal))]  # a mixed strategy: unpredictable on purpose
    part_two = _part_two(r, legal, kinds)
    if part_two is not None:
        return part_two
    if "send" in kinds:
        ball = r.ball["space"]
        target = r.index[ball] if ball else 0
        best = None
        for d in legal:
            who = d.split()[1]
            if who == "none":
                continue
            cost = abs(r.pos(who) - target)
            p = r.players[who]
            fresh = p["tokens"] + cost <= p["def"]
            score = (cost, -p["def"], who)
            if ((fresh and cost <= 2) or "send none" not in legal) and (
                best is None or score < best[0]
            ):
                best = (score, d)
        return best[1] if best else "send none"
    if "handler" in kinds:
        return pick(legal, lambda d: (-r.players[d.split()[1]]["off"], d))
    if "pass" in kinds:
        return pick(legal, lambda d: (-r.pos(d.split()[1]) * r.fwd(), d))
    if "dribble" in kinds:
        return max(legal, key=lambda d: int(d.split()[1]))
    if "throw" in kinds:  # the shortest throw onto a teammate
        return min(_long_ball(r, legal, "throw"), key=lambda d: int(d.split()[1]))
    if "speed" in kinds:
        return max(legal, key=lambda d: int(d.split()[1]))
    if kinds & {"receive", "pick", "challenge"}:
        return pick(legal, lambda d: (r.fatigue(d.split()[1]), d))
    if "run" in kinds:
        return pick(legal, lambda d: (abs(r.pos(d.split()[1]) - r.index[d.split()[2]]), d))
    if "clear" in kinds:
        return pick(legal, lambda d: (-r.fatigue(d.split()[1]), d))
    if "order" in kinds:
        ranked = sorted((p for p in r.players if r.players[p]["side"] == r.me
                         and r.players[p]["status"] == "field"),
                        key=lambda p: (r.players[p]["injured"], -r.players[p]["off"], p))
        want = "order " + " ".join(ranked)
        return want if want in legal else legal[0]
    if "shooter" in kinds:
        return pick(legal, lambda d: (r.players[d.split()[1]]["injured"],
                                      -r.players[d.split()[1]]["off"], d))
    return legal[rng.randrange(len(legal))]


def _frame_player(r: _Reader) -> str | None:
    """The player a Part II question is about: the first of the frame's arguments that
    is one of mine (frames name players by index, home 0-8, visitors 9-17)."""
    for a in r.args:
        if isinstance(a, int) and not isinstance(a, bool) and 0 <= a < 18:
            pid = ("h" if a < 9 else "v") + str(a % 9)
            if r.players[pid]["side"] == r.me:
                return pid
    return None


def _long_ball(r: _Reader, legal: Sequence[str], kind: str) -> list[str]:
    """A High Pass (``throw``) or Setup Pass (``aim``): the distances that land on a
    teammate; failing those, Quantor's runs while Quantor is fresh (21.4.5); failing
    those, every distance."""
    mine = {r.pos(p) for p in r.players if r.players[p]["side"] == r.me
            and r.players[p]["status"] == "field"}
    ball = r.index[r.ball["space"]]
    plain = [d for d in legal if d.startswith(kind + " ")]
    onto = [d for d in plain if ball + r.fwd() * int(d.split()[1]) in mine]
    runs = [d for d in legal if d.startswith("quantor ")]
    if not onto and runs and _fresh_after(r, _quantor(r), 3):
        return runs
    return onto or plain


def _quantor(r: _Reader) -> str | None:
    return next((p for p, q in r.players.items() if q.get("ability") == "quantor"
                 and q["side"] == r.me and q["status"] == "field"), None)


def _fresh_after(r: _Reader, pid: str | None, cost: int) -> bool:
    """Can ``pid`` pay ``cost`` tokens and stay below Exhausted (Drained for a Cyborg)?"""
    if pid is None:
        return False
    p = r.players[pid]
    limit = 6 if p.get("species") == "Cyborg" else p["def"]  # 20.3.3: Drained at 7
    return not p["injured"] and p["tokens"] + cost <= limit


def _part_two(r: _Reader, legal: Sequence[str], kinds: set[str]) -> str | None:
    """Choices that only standard and advanced mode ask (Laws 19-21)."""
    me = _frame_player(r)
    if "declare" in kinds:  # Overdrive (+5 for 3) while the Cyborg can carry the drain
        for want, cost in (("declare both", 4), ("declare overdrive", 3)):
            if want in legal and _fresh_after(r, me, cost):
                return want
        return "declare none"
    if "join" in kinds:  # Glompex: a token to merge where the ball is
        return "join yes" if _fresh_after(r, me, 1) else "join no"
    if "scorch" in kinds:
        return "scorch force" if _fresh_after(r, me, 2) else "scorch accept"
    if "aim" in kinds:  # a Setup Pass onto a teammate, the longest one
        return max(_long_ball(r, legal, "aim"), key=lambda d: int(d.split()[1]))
    if "pull" in kinds:  # Mind Pull: one token for a 1-in-6 (Spectra 1-in-3) steal
        tk = next((d.split()[1] for d in legal if d != "pull none"), None)
        return f"pull {tk}" if _fresh_after(r, tk, 1) else "pull none"
    if "smooth" in kinds:  # take over a ball that would otherwise lie loose
        tk = next((d.split()[1] for d in legal if d != "smooth none"), None)
        return f"smooth {tk}" if r.ball["owner"] is None and tk else "smooth none"
    if "fly" in kinds:
        return "fly none"  # Zenith's flight is for a coach who reads the field
    if "drive" in kinds:  # drive a beaten Setup Pass as far back as allowed
        return max(legal, key=lambda d: int(d.split()[1]))
    if "partner" in kinds:
        return min(legal, key=lambda d: (r.fatigue(d.split()[1]), d))
    return None


BOTS: dict[str, Bot] = {"greedy": greedy_bot, "random": random_bot}
