"""The Redis store: a snapshot string and a log list per match, fenced by a lease.

Keys (prefix ``kl:`` by default): ``m:{id}:snap``, ``m:{id}:log``, ``lease:{id}``
(the owner's id, with a TTL), ``unfinished`` (a set of ids) and ``code:{code}``.
``save`` is one Lua script, so it is atomic and refused unless the caller holds the
lease.  Connection failures surface as :class:`~.store.StoreUnavailable`.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from typing import Any, TypeVar

import redis.asyncio as aioredis
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import ResponseError
from redis.exceptions import TimeoutError as RedisTimeoutError

from .store import LeaseLost, LogGap, Stored, StoreUnavailable

T = TypeVar("T")

_SAVE = """
local owner = redis.call('GET', KEYS[1])
if owner ~= ARGV[1] then return redis.error_reply('LEASE lease not held') end
local n = redis.call('LLEN', KEYS[2])
local start = tonumber(ARGV[2])
if n < start then return redis.error_reply('GAP log has ' .. n .. ' entries') end
if n > start then
  if start == 0 then redis.call('DEL', KEYS[2]) else redis.call('LTRIM', KEYS[2], 0, start - 1) end
end
if ARGV[6] == '0' and redis.call('EXISTS', KEYS[3]) == 0 then
  return redis.error_reply('GAP no snapshot yet')
end
for i = 7, #ARGV do redis.call('RPUSH', KEYS[2], ARGV[i]) end
if ARGV[6] == '1' then redis.call('SET', KEYS[3], ARGV[5]) end
if ARGV[3] == '1' then redis.call('SREM', KEYS[4], ARGV[4])
else redis.call('SADD', KEYS[4], ARGV[4]) end
return n
"""

_ACQUIRE = """
local owner = redis.call('GET', KEYS[1])
if owner == false or owner == ARGV[1] then
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
  return 1
end
return 0
"""

_RELEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
"""


class RedisStore:
    """:class:`~.store.Store` on a Redis server."""

    leases_expire = True

    def __init__(self, url: str, *, prefix: str = "kl:", socket_timeout: float = 5.0) -> None:
        self.prefix = prefix
        self._r: aioredis.Redis = aioredis.Redis.from_url(
            url, socket_timeout=socket_timeout, socket_connect_timeout=socket_timeout)
        self._save = self._r.register_script(_SAVE)
        self._acquire = self._r.register_script(_ACQUIRE)
        self._release = self._r.register_script(_RELEASE)

    def _k(self, *parts: str) -> str:
        return self.prefix + ":".join(parts)

    async def _call(self, fn: Callable[[], Awaitable[T]]) -> T:
        try:
            return await fn()
        except (RedisConnectionError, RedisTimeoutError, OSError) as exc:
            raise StoreUnavailable(f"redis: {exc}") from exc

    async def ping(self) -> None:
        await self._call(lambda: self._r.ping())

    async def save(self, match_id: str, snapshot: bytes | None, entries: Sequence[bytes],
                   start: int, *, finished: bool, owner: str) -> None:
        keys = [self._k("lease", match_id), self._k("m", match_id, "log"),
                self._k("m", match_id, "snap"), self._k("unfinished")]
        args: list[Any] = [owner, start, "1" if finished else "0", match_id, snapshot or b"",
                           "0" if snapshot is None else "1", *entries]
        try:
            await self._call(lambda: self._save(keys=keys, args=args))
        except ResponseError as exc:
            text = str(exc)
            if text.startswith("LEASE"):
                raise LeaseLost(f"{owner} does not hold the lease of {match_id}") from exc
            if text.startswith("GAP"):
                raise LogGap(f"{match_id}: {text}") from exc
            raise

    async def load(self, match_id: str) -> Stored | None:
        async def get() -> Stored | None:
            async with self._r.pipeline(transaction=True) as pipe:
                pipe.get(self._k("m", match_id, "snap"))
                pipe.lrange(self._k("m", match_id, "log"), 0, -1)
                snap, log = await pipe.execute()
            if snap is None:
                return None
            return Stored(bytes(snap), [bytes(e) for e in log])
        return await self._call(get)

    async def unfinished(self) -> list[str]:
        async def get() -> list[str]:
            ids = await self._r.smembers(self._k("unfinished"))
            return sorted(_text(i) for i in ids)
        return await self._call(get)

    async def acquire(self, match_id: str, owner: str, ttl: float) -> bool:
        keys = [self._k("lease", match_id)]
        got = await self._call(lambda: self._acquire(keys=keys, args=[owner, int(ttl * 1000)]))
        return bool(got)

    async def release(self, match_id: str, owner: str) -> None:
        keys = [self._k("lease", match_id)]
        await self._call(lambda: self._release(keys=keys, args=[owner]))

    async def claim_code(self, code: str, match_id: str) -> bool:
        got = await self._call(lambda: self._r.set(self._k("code", code), match_id, nx=True))
        return bool(got)

    async def find_code(self, code: str) -> str | None:
        got = await self._call(lambda: self._r.get(self._k("code", code)))
        return None if got is None else _text(got)

    async def aclose(self) -> None:
        await self._r.aclose()


def _text(v: bytes | str) -> str:
    return v.decode() if isinstance(v, bytes) else v
