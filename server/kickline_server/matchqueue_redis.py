"""The quick-match queue in Redis: one queue for every process sharing the Redis.

A :class:`~.matchqueue.QueueState` whose every method is one Lua script, so each step is
atomic across processes: :meth:`RedisQueue.take` removes a pair only if both players
still wait, and two processes that computed the same pair race safely (one takes it, the
other gets ``False``).  Keys, under the store's prefix:

* ``q:<queue key>``: hash, player -> the entry as JSON;
* ``qwhere``: hash, player -> the queue key they wait in (one entry per player);
* ``qkeys``: set of the queue keys with someone waiting.

**No ghosts.**  An entry names the process holding its player's connection (``node``)
and that process's registration token (``token``, :class:`~.cluster.Node`).  An entry
whose process is no longer registered under that token (it died: its registration
lapses within one TTL; it stopped: it deleted it; it restarted: a new token) is dropped
by the next script that reads it, and never paired.  Entries without a ``node`` (a
single process) never lapse.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

import redis.asyncio as aioredis
from redis.exceptions import RedisError

from .matchqueue import Entry
from .store import StoreUnavailable

# Shared by the scripts: whether an entry's process is still registered (cached per
# call, since a queue's entries mostly live on a few processes).
_ALIVE = """
local prefix = ARGV[1]
local seen = {}
local function alive(raw)
  local ok, e = pcall(cjson.decode, raw)
  if not ok or type(e) ~= 'table' or type(e['request']) ~= 'table' then return true end
  local node, token = e['request']['node'], e['request']['token']
  if type(node) ~= 'string' then return true end
  if seen[node] == nil then
    local reg = redis.call('GET', prefix .. 'node:' .. node)
    local held = false
    if reg then
      local ok2, r = pcall(cjson.decode, reg)
      held = ok2 and type(r) == 'table' and r['token'] or false
    end
    seen[node] = held
  end
  return seen[node] == token
end
local function drop(key, player)
  local q = prefix .. 'q:' .. key
  redis.call('HDEL', q, player)
  if redis.call('HGET', KEYS[1], player) == key then redis.call('HDEL', KEYS[1], player) end
  if redis.call('HLEN', q) == 0 then redis.call('SREM', KEYS[2], key) end
end
"""

_ADD = _ALIVE + """
local key, player = ARGV[2], ARGV[3]
local old = redis.call('HGET', KEYS[1], player)
if old then drop(old, player) end
redis.call('HSET', prefix .. 'q:' .. key, player, ARGV[4])
redis.call('HSET', KEYS[1], player, key)
redis.call('SADD', KEYS[2], key)
return 1
"""

_REMOVE = _ALIVE + """
local player = ARGV[2]
local key = redis.call('HGET', KEYS[1], player)
if not key then return false end
local raw = redis.call('HGET', prefix .. 'q:' .. key, player)
drop(key, player)
if not raw then return false end
return {key, raw}
"""

_TAKE = _ALIVE + """
local key = ARGV[2]
local q = prefix .. 'q:' .. key
for i = 3, #ARGV do
  local raw = redis.call('HGET', q, ARGV[i])
  if not raw then return 0 end
  if not alive(raw) then drop(key, ARGV[i]) return 0 end
end
for i = 3, #ARGV do drop(key, ARGV[i]) end
return 1
"""

_WAITING = _ALIVE + """
local key = ARGV[2]
local all = redis.call('HGETALL', prefix .. 'q:' .. key)
local out = {}
for i = 1, #all, 2 do
  if alive(all[i + 1]) then out[#out + 1] = all[i + 1] else drop(key, all[i]) end
end
return out
"""


def _encode(entry: Entry) -> str:
    return json.dumps({"player": entry.player, "rating": entry.rating, "since": entry.since,
                       "last_opponent": entry.last_opponent, "request": entry.request},
                      separators=(",", ":"))


def _text(b: bytes | str) -> str:
    return b.decode() if isinstance(b, bytes) else b


def _decode(raw: bytes | str) -> Entry:
    d = json.loads(raw)
    return Entry(d["player"], float(d["rating"]), float(d["since"]), d["last_opponent"],
                 d["request"])


class RedisQueue:
    """:class:`~.matchqueue.QueueState` in a Redis shared by every process (see the
    module docstring).  A Redis error is :class:`~.store.StoreUnavailable`."""

    def __init__(self, url: str, *, prefix: str = "kl:") -> None:
        self.prefix = prefix
        self._r: aioredis.Redis = aioredis.Redis.from_url(url, socket_timeout=5,
                                                          socket_connect_timeout=5)
        self._keys = [f"{prefix}qwhere", f"{prefix}qkeys"]
        self._add = self._r.register_script(_ADD)
        self._remove = self._r.register_script(_REMOVE)
        self._take = self._r.register_script(_TAKE)
        self._waiting = self._r.register_script(_WAITING)

    async def _run(self, script: Any, *args: Any) -> Any:
        try:
            return await script(keys=self._keys, args=[self.prefix, *args])
        except (RedisError, OSError) as exc:
            raise StoreUnavailable(f"redis: {exc}") from exc

    async def add(self, key: str, entry: Entry) -> None:
        await self._run(self._add, key, entry.player, _encode(entry))

    async def remove(self, player: str) -> tuple[str, Entry] | None:
        got = await self._run(self._remove, player)
        if not got:
            return None
        key, raw = got
        return _text(key), _decode(raw)

    async def take(self, key: str, players: Sequence[str]) -> bool:
        return bool(await self._run(self._take, key, *players))

    async def find(self, player: str) -> tuple[str, Entry] | None:
        try:
            got = await self._r.hget(self._keys[0], player)
            key = None if got is None else _text(got)
            raw = None if key is None else await self._r.hget(f"{self.prefix}q:{key}", player)
        except (RedisError, OSError) as exc:
            raise StoreUnavailable(f"redis: {exc}") from exc
        return None if key is None or raw is None else (key, _decode(raw))

    async def waiting(self, key: str) -> list[Entry]:
        return [_decode(raw) for raw in await self._run(self._waiting, key)]

    async def count(self, key: str) -> int:
        """How many wait: ``HLEN``, not a scan (every arrival asks; the scan of 2 000
        entries took 11 ms of Redis's CPU, BENCHMARKS.md).  A gone process's entries
        count until the next :meth:`waiting` of that queue drops them: at most one
        queue tick."""
        try:
            return int(await self._r.hlen(f"{self.prefix}q:{key}"))
        except (RedisError, OSError) as exc:
            raise StoreUnavailable(f"redis: {exc}") from exc

    async def keys(self) -> list[str]:
        try:
            got = await self._r.smembers(self._keys[1])
        except (RedisError, OSError) as exc:
            raise StoreUnavailable(f"redis: {exc}") from exc
        return sorted(_text(k) for k in got)

    async def aclose(self) -> None:
        await self._r.aclose()
