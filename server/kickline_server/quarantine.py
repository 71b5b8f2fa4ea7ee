"""A server that always starts: one match that cannot be loaded is set aside, not fatal.

A stored match can be unloadable — a snapshot that is not msgpack, one of the wrong
shape, a log entry that cannot be decoded, a ruleset this server no longer hosts.  Any
of those used to stop recovery, and so the whole server (under ``Restart=on-failure``, a
crash loop), or left the match unfinished forever with an empty reason.  Now
:func:`restore` turns every such failure into :class:`Damaged`, with a one-line reason;
the lobby **quarantines** the match (``Store.quarantine``: kept as it is, never
resumed), logs one line, and starts everything else.  Its players are told with a
clear error (``match_damaged``) when they come back, and ``kickline doctor``
(:func:`report`) lists every quarantined match with its reason.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from typing import Any, Final

from kickline.game import Game

from . import games
from .core import MatchCore
from .errlog import one_line
from .games import Bot
from .store import Store, Stored, unpack

DAMAGED_TEXT: Final = ("this match's saved state is damaged, so it cannot continue; "
                       "the server's operator can inspect it (kickline doctor)")


class Damaged(Exception):
    """A stored match that cannot be restored; ``reason`` is one line."""

    def __init__(self, reason: str, players: tuple[str, ...] = ()) -> None:
        super().__init__(reason)
        self.reason = reason
        self.players = players


def players_of(raw_snapshot: bytes) -> tuple[str, ...]:
    """The seats' player ids, if the snapshot is readable that far (best effort)."""
    try:
        seats = unpack(raw_snapshot)["seats"]
        return tuple(str(s["player"]) for s in seats
                     if isinstance(s, Mapping) and s.get("bot") is None and s.get("player"))
    except Exception:
        return ()


def restore(stored: Stored, *, ruleset: tuple[Game, Mapping[str, Bot]] | None = None,
            **limits: Any) -> MatchCore:
    """The match a stored snapshot and log hold (``limits``: ``MatchCore.restore``'s
    keyword arguments; ``ruleset``: the game and bots it was running with, else the one
    its snapshot names); :class:`Damaged` whatever the reason it cannot be."""
    try:
        snapshot = unpack(stored.snapshot)
    except Exception as exc:
        raise Damaged(f"the snapshot is not readable ({one_line(exc)})") from exc
    try:
        game, bots = ruleset or _hosted(snapshot["game"])
    except Exception as exc:
        raise Damaged(f"the snapshot names no ruleset this server hosts ({one_line(exc)})",
                      players_of(stored.snapshot)) from exc
    try:
        log = [unpack(entry) for entry in stored.log]
    except Exception as exc:
        raise Damaged(f"the log is not readable ({one_line(exc)})",
                      players_of(stored.snapshot)) from exc
    try:
        return MatchCore.restore(game, bots, snapshot, log, **limits)
    except Exception as exc:
        raise Damaged(f"the match does not restore ({one_line(exc)})",
                      players_of(stored.snapshot)) from exc


def _hosted(name: Any) -> tuple[Game, Mapping[str, Bot]]:
    hosted = games.get(name)
    return hosted.game, hosted.bots


async def report(store: Store, **limits: Any) -> tuple[list[str], bool]:
    """``kickline doctor``: the quarantined matches, and every unfinished match tried
    (read only).  Returns the report's lines and whether all is well."""
    lines: list[str] = []
    held = await store.quarantined()
    if held:
        lines.append(f"{len(held)} quarantined match{'es' if len(held) != 1 else ''} (kept "
                     "as stored, never resumed; its players are told it is damaged):")
        for q in held:
            when = time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime(q.at))
            who = f", players {', '.join(q.players)}" if q.players else ""
            lines.append(f"  {q.match}  quarantined {when}{who}")
            lines.append(f"      {q.reason}")
    else:
        lines.append("no quarantined matches")
    unfinished = await store.unfinished()
    broken = []
    for mid in unfinished:
        stored = await store.load(mid)
        if stored is None:
            continue
        try:
            restore(stored, **limits)
        except Damaged as exc:
            broken.append(f"  {mid}  {exc.reason}")
    if broken:
        lines.append(f"{len(broken)} of {len(unfinished)} unfinished matches would be "
                     "quarantined at the next start:")
        lines.extend(broken)
    else:
        lines.append(f"{len(unfinished)} unfinished match{'es' if len(unfinished) != 1 else ''}"
                     ": all load")
    return lines, not held and not broken
