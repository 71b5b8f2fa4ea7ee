"""The lobby list across processes: every process's open and live public matches.

Each process publishes its own part of the list (``<prefix>list:<server id>``, JSON,
with a TTL of one lease) every tick when it changed, and at least every TTL/3; the set
``<prefix>lists`` names the processes that publish.  A ``list`` request on any process
merges its own matches (as they are now) with the others' parts (at most a tick old).
A process that dies stops renewing its part, which lapses within one TTL; one that
stops cleanly deletes it: no ghost matches.

The same way, each process publishes its players' seats (``<prefix>seats:<server id>``,
a hash: player -> their ``welcome.matches`` entries there), so that ``welcome`` and
``mine`` on any process list a player's matches wherever they run.  Only the players
whose entries changed are written each tick (the whole hash at start and after Redis
failed), its TTL renewed every TTL/3.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from typing import Any

import anyio
import redis.asyncio as aioredis
from anyio.abc import TaskStatus
from redis.exceptions import RedisError

log = logging.getLogger(__name__)

Part = dict[str, list[dict[str, Any]]]
"""``{"open": [...], "live": [...]}``: list entries as the ``list`` answer has them."""
Seats = dict[str, list[dict[str, Any]]]
"""player -> their ``welcome.matches`` entries on this process."""


class Listing:
    """This process's part of the cluster's lobby list, and the other processes'."""

    def __init__(self, url: str, node: str, *, prefix: str = "kl:", ttl: float = 15.0,
                 every: float = 1.0) -> None:
        self.node = node
        self.prefix = prefix
        self.ttl = ttl
        self.every = every
        self._r: aioredis.Redis = aioredis.Redis.from_url(url, socket_timeout=5,
                                                          socket_connect_timeout=5)
        self._set = f"{prefix}lists"

    def _key(self, node: str) -> str:
        return f"{self.prefix}list:{node}"

    def _seats_key(self, node: str) -> str:
        return f"{self.prefix}seats:{node}"

    async def publish_seats(self, seats: Seats, *, whole: bool) -> None:
        """Write these players' entries (``[]``: delete the player); ``whole``: they
        are everyone's, replacing the hash."""
        key = self._seats_key(self.node)
        async with self._r.pipeline(transaction=True) as pipe:
            if whole:
                pipe.delete(key)
            gone = [p for p, v in seats.items() if not v]
            if gone:
                pipe.hdel(key, *gone)
            if len(gone) < len(seats):
                pipe.hset(key, mapping={p: json.dumps(v, separators=(",", ":"))
                                        for p, v in seats.items() if v})
            pipe.pexpire(key, int(self.ttl * 1000))
            await pipe.execute()

    async def _others(self) -> list[str]:
        """The other processes that publish (Redis errors pass through)."""
        got = await self._r.smembers(self._set)
        return sorted(n for n in (x.decode() if isinstance(x, bytes) else x for x in got)
                      if n != self.node)

    async def seats_elsewhere(self, player: str) -> list[dict[str, Any]]:
        """``player``'s entries on the other processes (none when Redis does not
        answer)."""
        try:
            nodes = await self._others()
            if not nodes:
                return []
            async with self._r.pipeline(transaction=False) as pipe:
                for n in nodes:
                    pipe.hget(self._seats_key(n), player)
                raws = await pipe.execute()
        except (RedisError, OSError) as exc:
            log.warning("the other processes' seats are unreachable: %s", exc)
            return []
        return [e for raw in raws if raw is not None for e in json.loads(raw)]

    async def publish(self, part: Part) -> None:
        async with self._r.pipeline(transaction=True) as pipe:
            pipe.set(self._key(self.node), json.dumps(part, separators=(",", ":")),
                     px=int(self.ttl * 1000))
            pipe.sadd(self._set, self.node)
            await pipe.execute()

    async def others(self) -> list[Part]:
        """The other processes' parts (empty when Redis does not answer: the list shows
        this process's matches, rather than failing)."""
        try:
            nodes = await self._others()
            if not nodes:
                return []
            raws = await self._r.mget([self._key(n) for n in nodes])
            lapsed = [n for n, raw in zip(nodes, raws, strict=True) if raw is None]
            if lapsed:
                await self._r.srem(self._set, *lapsed)
        except (RedisError, OSError) as exc:
            log.warning("the other processes' lobby lists are unreachable: %s", exc)
            return []
        return [json.loads(raw) for raw in raws if raw is not None]

    async def run(self, part: Callable[[], Part], seats_all: Callable[[], Seats],
                  seats_changed: Callable[[], Seats], *,
                  task_status: TaskStatus[None] = anyio.TASK_STATUS_IGNORED) -> None:
        """Every :attr:`every` seconds: publish ``part()`` when it changed and the
        players whose seats changed (``seats_changed()``); every TTL/3 regardless
        (their TTLs must not lapse while this process runs).  The seats are written
        whole (``seats_all()``) at start and after Redis failed (it may have lost
        them)."""
        task_status.started()
        last: Part | None = None
        whole_seats = True
        written = float("-inf")
        while True:
            now = anyio.current_time()
            renew = now - written >= self.ttl / 3
            try:
                got = part()
                if got != last or renew:
                    await self.publish(got)
                    last = got
                if whole_seats:
                    await self.publish_seats(seats_all(), whole=True)
                    whole_seats = False
                else:
                    changed = seats_changed()
                    if changed or renew:
                        await self.publish_seats(changed, whole=False)
                if renew:
                    written = now
            except (RedisError, OSError) as exc:
                log.debug("lobby list not published: %s", exc)
                last, whole_seats = None, True  # written whole once Redis answers
            await anyio.sleep(self.every)

    async def leave(self) -> None:
        """Delete this process's part (a clean stop)."""
        try:
            await self._r.delete(self._key(self.node), self._seats_key(self.node))
            await self._r.srem(self._set, self.node)
        except (RedisError, OSError):
            pass
        await self._r.aclose()
