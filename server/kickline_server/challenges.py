"""Challenges and rematches: two named players agree on a match.

**A challenge.**  A player names another (by id or name: from a profile, a shared
profile link, the recent-opponents list) and the settings (game, config with both
teams, clock, rated or not).  The one challenged must be online; they ``accept`` or
``decline``; the challenger may ``withdraw``.  An answered, withdrawn or expired
challenge is closed for both (``challenge_closed``).  Accepted, it makes a private
match, the challenger in seat 0 with the config as they chose it.

**A rematch.**  After a played match between two people either player asks
(``rematch``); once both have, the new match starts with the seats swapped, each player
keeping their team and playing the other side (``Game.rematch_config``), the same clock,
rated if the first was (a tournament's match is not: its rematch is a friendly).  A
player may decline the other's offer or take back their own (``accept: false``).

Offers live in this process's memory for :attr:`ChallengeLimits.ttl` seconds, and a
restart forgets them (the players see them closed and can ask again); the match they
make is durable from its first save.  When a player's last connection closes, their
own challenges and rematch offers close (``why: "left"``): nobody could be seated for
them.
"""

from __future__ import annotations

import secrets
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import anyio
from anyio.abc import TaskStatus

from . import games
from .core import Clock, MatchCore
from .protocol import BadRequest, Code, Message, MsgId
from .results import NOT_PLAYED
from .transport import Connection


@dataclass(frozen=True, slots=True)
class ChallengeLimits:
    ttl: float = 300.0
    """Seconds a challenge or a rematch offer waits for its answer."""
    outgoing: int = 3
    """Challenges one player may have waiting at once."""
    incoming: int = 10
    """Challenges waiting for one player at once (nobody can flood someone's screen)."""
    remembered: int = 10_000
    """Rematches made, kept so that a resent ``rematch`` finds its match."""


@dataclass(slots=True)
class Challenge:
    id: str
    by: tuple[str, str]  # player id, name
    to: tuple[str, str]
    game: str
    config: dict[str, Any]
    clock: Clock
    rated: bool
    expires: float
    commit: str | None
    re: MsgId

    def plain(self) -> Message:
        return {"challenge": self.id, "from": {"player": self.by[0], "name": self.by[1]},
                "to": {"player": self.to[0], "name": self.to[1]}, "game": self.game,
                "config": self.config, "clock": self.clock.plain(), "rated": self.rated,
                "expires": self.expires}


@dataclass(slots=True)
class Offer:
    """One player's wish for a rematch of a finished match."""

    player: str
    to: str  # the other player
    commit: str | None
    re: MsgId
    expires: float


class ChallengeDesk:
    """The ``challenge``, ``accept``, ``decline``, ``withdraw``, ``challenges`` and
    ``rematch`` messages (docs/PROTOCOL.md), on the lobby (``lobby``: its online
    players, budgets, checks and :meth:`~.lobby.Lobby.seat_pair`)."""

    def __init__(self, lobby: Any, *, limits: ChallengeLimits = ChallengeLimits(),
                 clock: Callable[[], float] = time.time) -> None:
        self.lobby = lobby
        self.limits = limits
        self.clock = clock
        self.challenges: dict[str, Challenge] = {}
        self.offers: dict[str, dict[int, Offer]] = {}
        """Rematch offers by finished match id, then by the seat asking."""
        self.rematched: OrderedDict[str, str] = OrderedDict()
        """Finished match id -> its rematch."""

    # -- helpers ------------------------------------------------------------------------

    def _tell(self, player: str, msg: Message) -> None:
        for c in list(self.lobby.online.get(player, ())):
            c.push(msg)

    def _here(self, player: str, re: MsgId) -> Connection:
        """A connection of ``player`` to seat them on; ``not_online`` if they left."""
        conns = self.lobby.online.get(player)
        if not conns:
            raise BadRequest(Code.NOT_ONLINE, "that player is not connected any more; "
                             "try again when they are", re)
        return next(iter(conns))  # type: ignore[no-any-return]

    def _close(self, c: Challenge, why: str, match: str | None = None) -> None:
        self.challenges.pop(c.id, None)
        msg: Message = {"t": "challenge_closed", "challenge": c.id, "why": why,
                        "match": match}
        self._tell(c.by[0], msg)
        self._tell(c.to[0], msg)

    def _find(self, msg: Message) -> Challenge:
        c = self.challenges.get(str(msg["challenge"]))
        if c is None or c.expires <= self.clock():
            raise BadRequest(Code.NO_CHALLENGE, "that challenge is not open any more "
                             "(answered, withdrawn or expired)", msg["id"])
        return c

    # -- challenges ---------------------------------------------------------------------

    async def on_challenge(self, conn: Connection, msg: Message) -> None:
        lobby = self.lobby
        me, my_name = lobby._player(conn)
        if lobby._resent(conn, msg):  # accepted already: its match (also after a restart)
            return
        lobby._capacity(msg)
        ruleset = lobby._ruleset(msg)
        config = lobby._config(ruleset, msg)
        clock = lobby._clock(msg)
        commit = lobby._commit(msg)
        if "player" not in msg and "name" not in msg:
            raise BadRequest(Code.BAD_FIELD, "challenge: name the player ('player' or "
                             "'name')", msg["id"])
        target = await lobby.players.find(msg, None)
        if target.player == me:
            raise BadRequest(Code.BAD_FIELD, "you cannot challenge yourself", msg["id"])
        for c in self.challenges.values():  # a resend: the same challenge
            if c.by[0] == me and c.re == msg["id"]:
                conn.push({"t": "ack", "re": msg["id"], **c.plain()})
                return
        if not lobby.online.get(target.player):
            raise BadRequest(Code.NOT_ONLINE, f"{target.name} is not connected now; "
                             "challenge them when they are", msg["id"])
        now = self.clock()
        mine = [c for c in self.challenges.values() if c.by[0] == me]
        if len(mine) >= self.limits.outgoing:
            raise BadRequest(Code.TOO_MANY_CHALLENGES, "you already have "
                             f"{len(mine)} challenges waiting; withdraw one first",
                             msg["id"], retry_after=max(0.1, min(c.expires for c in mine) - now))
        theirs = [c for c in self.challenges.values() if c.to[0] == target.player]
        if len(theirs) >= self.limits.incoming:
            raise BadRequest(Code.TOO_MANY_CHALLENGES, f"{target.name} has too many "
                             "challenges waiting; try again later", msg["id"],
                             retry_after=max(0.1, min(c.expires for c in theirs) - now))
        lobby._may_hold(conn, msg, waiting=False)
        lobby.take_create(conn, msg)
        c = Challenge(secrets.token_urlsafe(9), (me, my_name), (target.player, target.name),
                      ruleset.game.name, config, clock, bool(msg.get("rated", False)),
                      now + self.limits.ttl, commit, msg["id"])
        self.challenges[c.id] = c
        conn.push({"t": "ack", "re": msg["id"], **c.plain()})
        self._tell(target.player, {"t": "challenged", **c.plain()})

    async def on_accept(self, conn: Connection, msg: Message) -> None:
        lobby = self.lobby
        me, _ = lobby._player(conn)
        if lobby._resent(conn, msg):  # a resend of an accept that made its match
            return
        c = self._find(msg)
        if c.to[0] != me:
            raise BadRequest(Code.NO_CHALLENGE, "that challenge is not for you", msg["id"])
        lobby._capacity(msg)
        lobby._may_hold(conn, msg, waiting=False)
        try:
            them = self._here(c.by[0], msg["id"])
        except BadRequest:
            self._close(c, "left")
            raise
        ruleset = games.get(c.game)
        self.challenges.pop(c.id, None)  # taken: a second accept finds nothing
        try:
            mid = await lobby.seat_pair(
                (lobby.seating(them, c.by, c.re, c.commit),
                 lobby.seating(conn, c.to, msg["id"], lobby._commit(msg))),
                ruleset, c.config, c.clock, meta={"rated": c.rated, "challenge": c.id},
                notice={"rated": c.rated, "challenge": c.id})
        except BaseException:
            self.challenges[c.id] = c  # not made: still open
            raise
        conn.push({"t": "ack", "re": msg["id"], "match": mid, "seat": 1})
        self._close(c, "accepted", mid)

    async def on_decline(self, conn: Connection, msg: Message) -> None:
        me, _ = self.lobby._player(conn)
        c = self._find(msg)
        if me not in (c.to[0], c.by[0]):
            raise BadRequest(Code.NO_CHALLENGE, "that challenge is not yours", msg["id"])
        conn.push({"t": "ack", "re": msg["id"]})
        self._close(c, "declined" if me == c.to[0] else "withdrawn")

    on_withdraw = on_decline  # the challenger's word for it

    async def on_challenges(self, conn: Connection, msg: Message) -> None:
        me, _ = self.lobby._player(conn)
        now = self.clock()
        live = [c for c in self.challenges.values() if c.expires > now]
        conn.push({"t": "ack", "re": msg["id"],
                   "incoming": [c.plain() for c in live if c.to[0] == me],
                   "outgoing": [c.plain() for c in live if c.by[0] == me]})

    # -- rematches ----------------------------------------------------------------------

    async def on_rematch(self, conn: Connection, msg: Message) -> None:
        lobby = self.lobby
        me, _ = lobby._player(conn)
        mid = str(msg["match"])
        made = self.rematched.get(mid)
        core: MatchCore | None = await lobby._core(mid) if len(mid) <= 64 else None
        if core is None or not lobby.may_see(core, me):
            raise BadRequest(Code.NOT_FOUND, f"no match {mid!r} on this server", msg["id"])
        seat = core.seat_of(me)
        if seat is None:
            raise BadRequest(Code.NOT_YOUR_SEAT, "only its players can ask for a rematch",
                             msg["id"])
        if made is not None:  # a resend, or the other player's late answer
            conn.push({"t": "ack", "re": msg["id"], "match": made, "seat": 1 - seat})
            return
        if core.status != "over":
            raise BadRequest(Code.NOT_OVER, "the match is still being played", msg["id"])
        reason = (core.result or {}).get("reason")
        if reason in NOT_PLAYED or any(s is None or s.bot is not None for s in core.seats):
            raise BadRequest(Code.BAD_FIELD, "only a match played between two people can "
                             "be played again; start a new one", msg["id"])
        now = self.clock()
        offers = {s: o for s, o in self.offers.get(mid, {}).items() if o.expires > now}
        other = 1 - seat
        they = core.seats[other]
        assert they is not None
        if not msg.get("accept", True):  # decline theirs, or take back mine
            self.offers.pop(mid, None)
            conn.push({"t": "ack", "re": msg["id"], "offered": False})
            if offers:
                self._tell(they.player, {"t": "rematch_closed", "match": mid,
                                         "why": "declined"})
            return
        offers[seat] = Offer(me, they.player, lobby._commit(msg), msg["id"],
                             now + self.limits.ttl)
        self.offers[mid] = offers
        if other not in offers:
            conn.push({"t": "ack", "re": msg["id"], "offered": True,
                       "expires": offers[seat].expires})
            self._tell(they.player, {"t": "rematch_offer", "match": mid,
                                     "from": {"player": me, "name": conn.name},
                                     "expires": offers[seat].expires})
            return
        await self._rematch(conn, msg, core, seat)

    async def _rematch(self, conn: Connection, msg: Message, core: MatchCore,
                       seat: int) -> None:
        lobby = self.lobby
        mid = core.match_id
        lobby._capacity(msg)
        lobby._may_hold(conn, msg, waiting=False)
        old = [(s.player, s.name) for s in core.seats if s is not None]
        them = self._here(old[1 - seat][0], msg["id"])
        ruleset = games.get(core.game.name)
        config = dict(core.game.rematch_config(core.config, core.state))
        meta = core.meta
        rated = bool(meta.get("rated")) and not meta.get("tournament")
        conns = {seat: conn, 1 - seat: them}
        offers = self.offers[mid]
        # The former seat 1 sits first: seats, and with them the sides, swap.
        new_mid = await lobby.seat_pair(
            tuple(lobby.seating(conns[s], old[s], offers[s].re, offers[s].commit)
                  for s in (1, 0)),
            ruleset, config, core.clock, meta={"rated": rated, "rematch_of": mid},
            notice={"rated": rated, "rematch_of": mid})
        self.offers.pop(mid, None)
        self.rematched[mid] = new_mid
        while len(self.rematched) > self.limits.remembered:
            self.rematched.popitem(last=False)
        conn.push({"t": "ack", "re": msg["id"], "match": new_mid, "seat": 1 - seat})

    def left(self, player: str) -> None:
        """``player``'s last connection closed: their challenges and rematch offers go
        (the other side sees them closed, ``why: "left"``), since nobody could be seated
        for them.  Challenges to them stay: a phone that slept comes back to them."""
        for c in [c for c in self.challenges.values() if c.by[0] == player]:
            self._close(c, "left")
        for mid, offers in list(self.offers.items()):
            for seat, o in list(offers.items()):
                if o.player == player:
                    del offers[seat]
                    self._tell(o.to, {"t": "rematch_closed", "match": mid, "why": "left"})
            if not offers:
                del self.offers[mid]

    # -- time -----------------------------------------------------------------------------

    async def run(self, *, task_status: TaskStatus[None] = anyio.TASK_STATUS_IGNORED) -> None:
        """Close what expired, once a second."""
        task_status.started()
        while True:
            await anyio.sleep(1.0)
            self.expire()

    def expire(self) -> None:
        now = self.clock()
        for c in [c for c in self.challenges.values() if c.expires <= now]:
            self._close(c, "expired")
        for mid, offers in list(self.offers.items()):
            for seat, o in list(offers.items()):
                if o.expires <= now:
                    del offers[seat]
                    for p in (o.player, o.to):
                        self._tell(p, {"t": "rematch_closed", "match": mid, "why": "expired"})
            if not offers:
                del self.offers[mid]
