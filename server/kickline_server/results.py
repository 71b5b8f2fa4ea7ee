"""Finished matches: their records, the ratings they move, the histories they join.

:class:`Recorder` turns a finished match's snapshot into its **record** and stores it
once (:meth:`~.store.Store.record_result`): both players, the result for each, the
score, why it ended, whether it was rated, both ratings before and after, the date, and
the links to its replay and its downloadable record.  Each human player's history
indexes it.  Only rated matches move ratings (see :func:`rated`); every finished match
counts in the players' win/draw/loss counts for its mode.

The actor's final ``save`` marks the match unrecorded in the same atomic write, so a
server that dies before recording it records it at its next start
(:meth:`Recorder.catch_up`): no finished match is lost or recorded twice.
Listeners (:meth:`Recorder.listen`; the tournament module is one) are told of every
record made, after it is stored.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Final

from .ratings import POLICY, Standing, rate_match
from .store import Store, StoreError, pack, unpack

log = logging.getLogger(__name__)

NOT_PLAYED: Final = frozenset({"cancelled", "expired", "no_show_both"})
"""Reasons a match ends without being played: recorded, but in nobody's history."""

Listener = Callable[["Record"], Awaitable[None]]


def mode_of(game: str, config: dict[str, Any]) -> str:
    """The rating pool of a match: Kickline's mode (``training``, ``standard``,
    ``advanced``); another ruleset's mode prefixed with its name."""
    mode = str(config.get("mode", "default"))
    return mode if game == "kickline" else f"{game}:{mode}"


def replay_link(match_id: str) -> str:
    return f"/#/m/{match_id}"


def record_link(match_id: str) -> str:
    return f"/record/{match_id}.json"


@dataclass(frozen=True, slots=True)
class Record:
    """A stored match record (its plain form is what the protocol sends)."""

    plain: dict[str, Any]

    @property
    def match(self) -> str:
        return str(self.plain["match"])

    def entry_for(self, player: str) -> dict[str, Any] | None:
        """The record as one player's history line: their result, opponent, score from
        their side, rating change."""
        mine = [p for p in self.plain["players"] if p["player"] == player]
        if not mine:
            return None
        me = mine[0]
        other = next((p for p in self.plain["players"] if p is not me), None)
        score = self.plain["score"]
        change = None
        if me["before"] is not None and me["after"] is not None:
            change = round(me["after"]["rating"] - me["before"]["rating"], 2)
        return {
            "match": self.match, "at": self.plain["at"], "game": self.plain["game"],
            "mode": self.plain["mode"], "board": self.plain["board"],
            "rated": self.plain["rated"], "result": me["result"],
            "reason": self.plain["reason"],
            "score": None if score is None else [score[me["seat"]], score[1 - me["seat"]]],
            "seat": me["seat"],
            "opponent": None if other is None else {
                "player": None if other["bot"] else other["player"], "name": other["name"],
                "bot": other["bot"]},
            "rating": None if me["after"] is None else round(me["after"]["rating"], 2),
            "change": change,
            "tournament": self.plain.get("tournament"),
            "replay": self.plain["replay"], "record": self.plain["download"],
        }


def rated(snapshot: dict[str, Any]) -> bool:
    """Whether a finished match moves ratings: it was made rated (a rated quick match,
    a rated challenge, a tournament match the tournament rates), both seats are people,
    and it was played (a resignation, a loss on time and a claimed win all count)."""
    seats = snapshot["seats"]
    result = snapshot.get("result") or {}
    return (bool(snapshot.get("meta", {}).get("rated"))
            and all(s is not None and s.get("bot") is None for s in seats)
            and result.get("reason") not in NOT_PLAYED)


def scores(result: dict[str, Any]) -> tuple[float, float] | None:
    """Each seat's score (1 win, 0.5 draw, 0 loss), or ``None`` if not played."""
    if result.get("reason") in NOT_PLAYED:
        return None
    winner = result.get("winner")
    if winner in (0, 1):
        return (1.0, 0.0) if winner == 0 else (0.0, 1.0)
    return 0.5, 0.5


def build(snapshot: dict[str, Any]) -> tuple[str, list[str], float,
                                             Callable[[list[Standing]],
                                                      tuple[bytes, list[Standing]]]]:
    """What :meth:`~.store.Store.record_result` needs for a finished match's snapshot:
    ``(mode, players, at, build)``."""
    mid = str(snapshot["match"])
    game = str(snapshot["game"])
    config = dict(snapshot["config"])
    mode = mode_of(game, config)
    result = dict(snapshot.get("result") or {})
    at = float(snapshot.get("ended") or snapshot["created"])
    seats = snapshot["seats"]
    sc = scores(result)
    is_rated = rated(snapshot)
    humans = [s for s, info in enumerate(seats) if info is not None and info.get("bot") is None]
    players = [] if sc is None else [seats[s]["player"] for s in humans]

    def make(current: list[Standing]) -> tuple[bytes, list[Standing]]:
        by_seat = dict(zip(humans, current, strict=False)) if players else {}
        after = dict(by_seat)
        if is_rated and sc is not None:
            after[0], after[1] = rate_match(by_seat[0], by_seat[1], sc[0], at)
        if sc is not None:
            after = {s: st.counted(sc[s]) for s, st in after.items()}
        out_players = []
        for s, info in enumerate(seats):
            if info is None:
                continue
            res = None if sc is None else {1.0: "win", 0.5: "draw", 0.0: "loss"}[sc[s]]
            out_players.append({
                "player": info["player"], "name": info["name"], "bot": info.get("bot"),
                "seat": s, "result": res,
                "before": _rating(by_seat[s], at) if is_rated else None,
                "after": _rating(after[s], at) if is_rated else None,
            })
        record = {
            "match": mid, "game": game, "mode": mode, "board": config.get("board"),
            "config": config, "at": at, "rated": is_rated,
            "reason": result.get("reason"), "winner": result.get("winner"),
            "score": result.get("score"), "players": out_players,
            "tournament": snapshot.get("meta", {}).get("tournament"),
            "replay": replay_link(mid), "download": record_link(mid),
        }
        return pack(record), [after[s] for s in humans] if players else []

    return mode, players, at, make


def _rating(st: Standing, now: float) -> dict[str, Any]:
    rd = st.current_rd(now)
    return {"rating": round(st.rating, 2), "rd": round(rd, 2),
            "provisional": rd > POLICY.provisional_rd}


class Recorder:
    """Records finished matches and tells listeners (see the module docstring)."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._listeners: list[Listener] = []

    def listen(self, listener: Listener) -> None:
        """Call ``listener(record)`` after every record this process makes."""
        self._listeners.append(listener)

    async def record(self, snapshot: dict[str, Any]) -> Record:
        mode, players, at, make = build(snapshot)
        raw, new = await self.store.record_result(str(snapshot["match"]), mode, players,
                                                  at, make)
        rec = Record(unpack(raw))
        if new:
            for listener in list(self._listeners):
                try:
                    await listener(rec)
                except Exception:  # a listener's bug must not lose the next record
                    log.exception("match %s: a result listener failed", rec.match)
        return rec

    async def catch_up(self) -> int:
        """Record every finished match still unrecorded (after a crash, or after the
        migration that introduced records); returns how many."""
        n = 0
        for mid in await self.store.unrecorded():
            try:
                stored = await self.store.load(mid)
                if stored is None:
                    continue
                await self.record(unpack(stored.snapshot))
                n += 1
            except (StoreError, KeyError, ValueError, TypeError) as exc:
                log.error("match %s cannot be recorded: %s", mid, exc)
        return n
