"""A server process's place among the processes that share one Redis.

:class:`Node` registers this process under its server id (``<prefix>node:<id>``, a
random per-process token with a TTL, renewed every TTL/3), so that:

* **two processes with one server id** (a copied data directory or volume) are caught
  at start: the second waits one TTL for the key to lapse (after a crash the old
  registration expires by itself), and if its owner keeps renewing it, refuses to
  start (:class:`DuplicateServer`) instead of running the same matches twice.  A running
  process that finds another token under its id stops serving (``on_duplicate``);
* **a Redis that lost its data** (restarted without persistence) is noticed: the
  registration has vanished; the process says so in the log and registers again;
* **a Redis without persistence** is warned about at start (``INFO persistence`` and
  ``CONFIG GET save``): every answered move lives only in Redis.

The registration also carries a summary of the process (pid, matches, connections) for
the operator's status page.
"""

from __future__ import annotations

import json
import logging
import os
import secrets
import socket
import time
from collections.abc import Callable
from typing import Any

import anyio
import redis.asyncio as aioredis
from anyio.abc import TaskStatus
from redis.exceptions import RedisError

log = logging.getLogger(__name__)

_CLAIM = """
local held = redis.call('GET', KEYS[1])
if held == false then
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
  return 1
end
local token = cjson.decode(held)['token']
if token == ARGV[3] then
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
  return 2
end
return 0
"""
"""Register or renew: 1 registered anew, 2 renewed, 0 someone else holds this id."""


class DuplicateServer(RuntimeError):
    """Another live process uses this server id against the same Redis."""


class Node:
    """This process's registration in a shared Redis."""

    def __init__(self, url: str, server_id: str, *, prefix: str = "kl:", ttl: float = 15.0,
                 summary: Callable[[], dict[str, Any]] | None = None) -> None:
        self.server_id = server_id
        self.prefix = prefix
        self.ttl = ttl
        self.token = secrets.token_hex(8)
        self.summary = summary or dict
        self.started = time.time()
        self._r: aioredis.Redis = aioredis.Redis.from_url(url, socket_timeout=5,
                                                          socket_connect_timeout=5)
        self._claim = self._r.register_script(_CLAIM)
        self.key = f"{prefix}node:{server_id}"

    def _value(self) -> str:
        return json.dumps({"token": self.token, "pid": os.getpid(),
                           "host": socket.gethostname(), "started": round(self.started),
                           **self.summary()})

    async def _try(self) -> int:
        return int(await self._claim(keys=[self.key],
                                     args=[self._value(), int(self.ttl * 1000), self.token]))

    async def register(self, *, poll: float = 0.2) -> None:
        """Take this server id, waiting up to one TTL (plus a second) for the
        registration of a process that died to lapse; :class:`DuplicateServer` if its
        owner keeps renewing it."""
        deadline = anyio.current_time() + self.ttl + 1.0
        warned = False
        while not await self._try():
            if anyio.current_time() > deadline:
                raise DuplicateServer(
                    f"another kickline process is running with server id {self.server_id} "
                    "on this Redis (a copied data directory or volume?); give each process "
                    "its own --data-dir")
            if not warned:
                log.info("server id %s is registered by another process; waiting up to "
                         "%.0f s for it to lapse (a restart after a crash)", self.server_id,
                         self.ttl)
                warned = True
            await anyio.sleep(poll)
        await self.check_persistence()

    async def keep(self, on_duplicate: Callable[[], None], *,
                   task_status: TaskStatus[None] = anyio.TASK_STATUS_IGNORED) -> None:
        """Renew the registration now (with the summary the server has by then) and every
        TTL/3 until cancelled."""
        task_status.started()
        first = True
        while True:
            if not first:
                await anyio.sleep(self.ttl / 3)
            first = False
            try:
                got = await self._try()
            except (RedisError, OSError):
                continue  # Redis down: the actors and /readyz say so
            if got == 0:
                log.error("another kickline process took over server id %s (a copied data "
                          "directory?); this one stops serving", self.server_id)
                on_duplicate()
                return
            if got == 1:
                log.warning("Redis forgot this server's registration (%s): it restarted "
                            "without its data? Matches written since its last snapshot may "
                            "be gone; check that Redis persists (appendonly yes)", self.key)
                await self.check_persistence()

    async def check_persistence(self) -> bool:
        """Warn (once per call) when Redis keeps nothing across a restart."""
        try:
            info = await self._r.info("persistence")
            aof = bool(info.get("aof_enabled"))
            try:
                save = (await self._r.config_get("save")).get("save", "")
            except RedisError:  # CONFIG disabled (managed Redis): trust what INFO says
                save = "unknown"
        except (RedisError, OSError):
            return True
        if aof:
            return True
        if save in ("", b""):
            log.warning("Redis does not persist (appendonly no, no save points): a Redis "
                        "restart loses every match; run it with --appendonly yes "
                        "(deploy/compose.yaml does)")
        else:
            log.warning("Redis persists only by snapshots (save %s), not AOF: a Redis crash "
                        "loses the moves since the last snapshot; run it with --appendonly "
                        "yes (deploy/compose.yaml does)", save)
        return False

    async def nodes(self) -> list[dict[str, Any]]:
        """Every registered process (for the status page)."""
        out = []
        async for key in self._r.scan_iter(match=f"{self.prefix}node:*", count=100):
            raw = await self._r.get(key)
            if raw is None:
                continue
            entry = json.loads(raw)
            entry.pop("token", None)
            entry["id"] = key.decode().removeprefix(f"{self.prefix}node:")
            out.append(entry)
        return sorted(out, key=lambda e: str(e["id"]))

    async def leave(self) -> None:
        """Drop the registration (a clean stop), if it is still ours."""
        try:
            raw = await self._r.get(self.key)
            if raw is not None and json.loads(raw).get("token") == self.token:
                await self._r.delete(self.key)
        except (RedisError, OSError):
            pass
        await self._r.aclose()
