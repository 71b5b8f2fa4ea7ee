"""The lobby list across processes: every process's open and live public matches.

Each process publishes its own part of the list (``<prefix>list:<server id>``, JSON,
with a TTL of one lease) every tick when it changed, and at least every TTL/3; the set
``<prefix>lists`` names the processes that publish.  A ``list`` request on any process
merges its own matches (as they are now) with the others' parts (at most a tick old).
A process that dies stops renewing its part, which lapses within one TTL; one that
stops cleanly deletes it: no ghost matches.
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
            nodes = sorted(n.decode() if isinstance(n, bytes) else n
                           for n in await self._r.smembers(self._set))
            nodes = [n for n in nodes if n != self.node]
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

    async def run(self, part: Callable[[], Part], *,
                  task_status: TaskStatus[None] = anyio.TASK_STATUS_IGNORED) -> None:
        """Publish ``part()`` every :attr:`every` seconds when it changed, and every
        TTL/3 regardless (its TTL must not lapse while this process runs)."""
        task_status.started()
        last: Part | None = None
        written = float("-inf")
        while True:
            now = anyio.current_time()
            got = part()
            if got != last or now - written >= self.ttl / 3:
                try:
                    await self.publish(got)
                    last, written = got, now
                except (RedisError, OSError) as exc:
                    log.debug("lobby list not published: %s", exc)
            await anyio.sleep(self.every)

    async def leave(self) -> None:
        """Delete this process's part (a clean stop)."""
        try:
            await self._r.delete(self._key(self.node))
            await self._r.srem(self._set, self.node)
        except (RedisError, OSError):
            pass
        await self._r.aclose()
