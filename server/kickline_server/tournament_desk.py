"""The tournaments' two faces to the rest of the server: :class:`LobbyMatches`, the
match server seen as a :class:`~.tournaments.MatchMaker` (reserved-seat matches,
cancelling, records, ratings, live state), and :class:`Desk`, the websocket messages
(``tournaments``, ``tournament``, ``tcommand``; ``tournament_changed`` to watchers).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import anyio

from .core import Clock
from .store import unpack
from .tournament import Refused
from .tournament.export import scorecard
from .tournaments import Tournaments


class LobbyMatches:
    """:class:`MatchMaker` on the match server's lobby (reserved-seat matches)."""

    def __init__(self, lobby: Any) -> None:
        self.lobby = lobby

    async def reserve(self, match_id: str, players: tuple[tuple[str, str], tuple[str, str]],
                      *, config: Mapping[str, Any], decision: float, bank: float,
                      rated: bool, start_by: float, meta: Mapping[str, Any]) -> None:
        base = self.lobby.limits.clock
        await self.lobby.reserve(players, config=config, rated=rated, start_by=start_by,
                                 meta=meta, match_id=match_id,
                                 clock=Clock(decision=decision, bank=bank,
                                             max_timeouts=base.max_timeouts))

    async def stop(self, match_id: str) -> None:
        await self.lobby.cancel(match_id)

    async def record(self, match_id: str) -> dict[str, Any] | None:
        raw = await self.lobby.store.result(match_id)
        return None if raw is None else dict(unpack(raw))

    async def rating(self, player: str, mode: str) -> int | None:
        standing = (await self.lobby.store.standings(player)).get(mode)
        return None if standing is None else round(standing.rating)

    def live(self, match_id: str) -> dict[str, Any] | None:
        """A running match as the board list shows it: its status, who has sat down,
        the score so far."""
        actor = self.lobby.actors.get(match_id)
        if actor is None:
            return None
        core = actor.core
        view = core.game.view(core.state, None) if core.state is not None else None
        # Kickline's view scores home first; a tournament's home is seat 0.
        score = view.get("score") if isinstance(view, dict) else None
        return {"status": core.status, "seated": [s is not None for s in core.seats],
                "score": score}


class Desk:
    """The tournaments' websocket messages (docs/PROTOCOL.md, "Tournaments"): the list,
    an event's view (and watching it), commands; and ``tournament_changed`` to watchers,
    at most one per event every ``throttle`` seconds."""

    def __init__(self, tournaments: Tournaments, *, throttle: float = 0.5) -> None:
        self.ts = tournaments
        self.throttle = throttle
        self.watchers: dict[str, set[Any]] = {}
        self.watching: dict[int, set[str]] = {}  # connection id -> events it watches
        self.dirty: dict[str, int] = {}
        self._wake = anyio.Event()
        tournaments.notify = self.changed

    def changed(self, tid: str, version: int) -> None:
        if tid in self.watchers:
            self.dirty[tid] = version
            self._wake.set()

    async def run(self, *, task_status: Any = anyio.TASK_STATUS_IGNORED) -> None:
        """Push ``tournament_changed`` to watchers until cancelled (owned by the server's
        task group)."""
        task_status.started()
        while True:
            await self._wake.wait()
            self._wake = anyio.Event()
            dirty, self.dirty = self.dirty, {}
            for tid, version in dirty.items():
                for conn in list(self.watchers.get(tid, ())):
                    conn.push({"t": "tournament_changed", "tournament": tid,
                               "version": version})
            await anyio.sleep(self.throttle)

    def detach(self, conn: Any) -> None:
        for tid in self.watching.pop(conn.id, set()):
            conns = self.watchers.get(tid)
            if conns is not None:
                conns.discard(conn)
                if not conns:
                    del self.watchers[tid]

    async def on_list(self, conn: Any, msg: Mapping[str, Any]) -> dict[str, Any]:
        return {"t": "ack", "re": msg["id"], "tournaments": await self.ts.listing(),
                "organiser": await self.ts.is_organiser(conn.player)}

    async def on_view(self, conn: Any, msg: Mapping[str, Any]) -> dict[str, Any]:
        tid = msg["tournament"]
        host = await self.ts.get(tid)
        if host is None or host.t.settings is None:
            raise Refused("not_found", "there is no such event")
        organiser = await self.ts.is_organiser(conn.player)
        if msg.get("watch"):
            self.watchers.setdefault(tid, set()).add(conn)
            self.watching.setdefault(conn.id, set()).add(tid)
        elif msg.get("watch") is False:
            self.watchers.get(tid, set()).discard(conn)
            self.watching.get(conn.id, set()).discard(tid)
        if "card" in msg:
            return {"t": "ack", "re": msg["id"], "card": scorecard(host.t, msg["card"])}
        out = host.view(conn.player, organiser)
        out["organiser"] = organiser
        return {"t": "ack", "re": msg["id"], "tournament": out}

    async def on_command(self, conn: Any, msg: Mapping[str, Any]) -> dict[str, Any]:
        if conn.player is None:
            raise Refused("sign_in_required", "say hello first")
        op, args = msg["op"], dict(msg.get("args") or {})
        if op == "create":
            reply = await self.ts.create(conn.player, str(msg["id"]), args.get("settings"))
            tid = reply["tournament"]
        else:
            tid = msg.get("tournament")
            if not isinstance(tid, str):
                raise Refused("bad_field", "tcommand: which event? (tournament)")
            reply = await self.ts.command(tid, conn.player, conn.name, str(msg["id"]), op,
                                          args)
        return {"t": "ack", "re": msg["id"], "tournament": tid, "reply": reply}
