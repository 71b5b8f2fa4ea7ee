"""The Redis store: a snapshot string and a log list per match, fenced by a lease.

Keys (prefix ``kl:`` by default): ``m:{id}:snap``, ``m:{id}:log``, ``lease:{id}``
(the owner's id, with a TTL), ``unfinished`` (a set of ids) and ``code:{code}``;
players: ``acct:{player}`` (msgpack), ``name:{name key}`` (player id), ``st:{player}``
(a hash, mode -> msgpack standing), ``lb:{mode}`` (sorted set, rating), ``res:{match}``
(msgpack record), ``hist:{player}`` (sorted set of matches by time), ``unrecorded``
(set), ``xfer:{code}`` (msgpack, expiring); tournaments: ``t:{id}:log`` (list of
events), ``tournaments`` (sorted set by creation), ``tournaments:unfinished`` (set),
``organisers`` (set); ``schema`` holds the schema version.
``save`` is one Lua script, so it is atomic and refused unless the caller holds the
lease.  Connection failures surface as :class:`~.store.StoreUnavailable`.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Awaitable, Callable, Sequence
from typing import Any, TypeVar

import redis.asyncio as aioredis
from redis.exceptions import (
    BusyLoadingError,
    ClusterDownError,
    MasterDownError,
    OutOfMemoryError,
    ReadOnlyError,
    ResponseError,
    TryAgainError,
    WatchError,
)
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

from .accounts import Account
from .migrations import migrate_redis
from .ratings import Standing
from .store import (
    Build,
    LeaseLost,
    LogConflict,
    LogGap,
    Purged,
    Quarantined,
    Stored,
    StoreUnavailable,
    TransferState,
    pack,
    unpack,
)

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
for i = 8, #ARGV do redis.call('RPUSH', KEYS[2], ARGV[i]) end
if ARGV[6] == '1' then redis.call('SET', KEYS[3], ARGV[5]) end
if ARGV[3] == '1' then
  redis.call('SREM', KEYS[4], ARGV[4])
  redis.call('ZADD', KEYS[7], 'NX', ARGV[7], ARGV[4])
  if redis.call('EXISTS', KEYS[6]) == 0 then redis.call('SADD', KEYS[5], ARGV[4]) end
else redis.call('SADD', KEYS[4], ARGV[4]) end
return n
"""

_CREATE_ACCOUNT = """
if redis.call('EXISTS', KEYS[1]) == 1 or redis.call('EXISTS', KEYS[2]) == 1 then return 0 end
redis.call('SET', KEYS[1], ARGV[1])
redis.call('SET', KEYS[2], ARGV[2])
return 1
"""

_TAKE_TRANSFER = """
local raw = redis.call('GET', KEYS[1])
if raw == false then return {'unknown', ''} end
local t = cmsgpack.unpack(raw)
if t['used'] then return {'used', ''} end
if t['expires'] < tonumber(ARGV[1]) then return {'expired', ''} end
t['used'] = tonumber(ARGV[1])
redis.call('SET', KEYS[1], cmsgpack.pack(t), 'KEEPTTL')
return {'ok', t['player']}
"""

_APPEND = """
local n = redis.call('LLEN', KEYS[1])
local start = tonumber(ARGV[1])
if n < start then return redis.error_reply('GAP log has ' .. n .. ' entries') end
if n > start then
  -- A retried write of what is there changes nothing; anything else is a conflict.
  local there = redis.call('LRANGE', KEYS[1], start, -1)
  if #there ~= #ARGV - 3 then return redis.error_reply('CONFLICT log has ' .. n .. ' entries') end
  for i = 1, #there do
    if there[i] ~= ARGV[i + 3] then return redis.error_reply('CONFLICT at ' .. (start + i - 1)) end
  end
  return n
end
for i = 4, #ARGV do redis.call('RPUSH', KEYS[1], ARGV[i]) end
if redis.call('ZSCORE', KEYS[2], ARGV[2]) == false then
  redis.call('ZADD', KEYS[2], ARGV[3], ARGV[2])
  redis.call('SADD', KEYS[3], ARGV[2])
end
return n
"""

TRANSFER_KEEP = 86_400
"""Seconds a transfer code is kept after it expires (so a late replay is told "used" or
"expired", not "unknown")."""

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


_PASSING = frozenset({"OOM", "MISCONF", "LOADING", "READONLY", "BUSY", "MASTERDOWN",
                      "NOREPLICAS", "TRYAGAIN", "CLUSTERDOWN"})
"""Redis error replies that mean "not now" rather than "never" (by their prefix)."""
_PASSING_TYPES = (OutOfMemoryError, ReadOnlyError, BusyLoadingError, TryAgainError,
                  MasterDownError, ClusterDownError)
"""The same, as redis-py raises them (it strips the prefix)."""


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
        self._create_account = self._r.register_script(_CREATE_ACCOUNT)
        self._take_transfer = self._r.register_script(_TAKE_TRANSFER)
        self._append = self._r.register_script(_APPEND)

    @property
    def _a(self) -> Any:
        """The client, untyped: redis-py's stubs type replies as ``bytes | str``."""
        return self._r

    def _k(self, *parts: str) -> str:
        return self.prefix + ":".join(parts)

    async def _call(self, fn: Callable[[], Awaitable[T]]) -> T:
        try:
            return await fn()
        except (RedisConnectionError, RedisTimeoutError, OSError) as exc:
            raise StoreUnavailable(f"redis: {exc}") from exc
        except ResponseError as exc:
            # Redis is up but cannot take writes now (out of memory, a failed disk write
            # with stop-writes-on-bgsave-error, loading its data, a read-only replica):
            # like an outage, it passes; the caller retries or answers busy.
            if isinstance(exc, _PASSING_TYPES) or str(exc).split(" ", 1)[0] in _PASSING:
                raise StoreUnavailable(f"redis: {type(exc).__name__}: {exc}") from exc
            raise

    async def ping(self) -> None:
        await self._call(lambda: self._r.ping())

    async def save(self, match_id: str, snapshot: bytes | None, entries: Sequence[bytes],
                   start: int, *, finished: bool, owner: str) -> None:
        keys = [self._k("lease", match_id), self._k("m", match_id, "log"),
                self._k("m", match_id, "snap"), self._k("unfinished"),
                self._k("unrecorded"), self._k("res", match_id), self._k("ended")]
        args: list[Any] = [owner, start, "1" if finished else "0", match_id, snapshot or b"",
                           "0" if snapshot is None else "1", repr(time.time()), *entries]
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
        if got:  # checked by the purge until its match is stored (else an orphan: deleted)
            await self._call(lambda: self._a.zadd(self._k("codes:new"), {code: time.time()}))
        return bool(got)

    async def find_code(self, code: str) -> str | None:
        got = await self._call(lambda: self._r.get(self._k("code", code)))
        return None if got is None else _text(got)

    async def aclose(self) -> None:
        await self._r.aclose()

    # -- hardening: quarantine and retention --

    async def quarantine(self, match_id: str, reason: str, players: Sequence[str],
                         at: float) -> None:
        entry = pack({"reason": reason, "at": at, "players": list(players)})

        async def put() -> None:
            async with self._a.pipeline(transaction=True) as pipe:
                pipe.hset(self._k("quarantine"), match_id, entry)
                pipe.srem(self._k("unfinished"), match_id)
                pipe.delete(self._k("lease", match_id))
                await pipe.execute()
        await self._call(put)

    def _quarantined(self, mid: Any, raw: Any) -> Quarantined:
        q = unpack(bytes(raw))
        return Quarantined(_text(mid), str(q["reason"]), float(q["at"]),
                           tuple(str(p) for p in q["players"]))

    async def quarantined(self) -> list[Quarantined]:
        raw = await self._call(lambda: self._a.hgetall(self._k("quarantine")))
        return sorted((self._quarantined(m, v) for m, v in raw.items()),
                      key=lambda q: (q.at, q.match))

    async def quarantine_of(self, match_id: str) -> Quarantined | None:
        raw = await self._call(lambda: self._a.hget(self._k("quarantine"), match_id))
        return None if raw is None else self._quarantined(match_id, raw)

    async def purge(self, *, logs_before: float, records_before: float | None,
                    codes_before: float, now: float, limit: int = 500) -> Purged:
        return await self._call(lambda: self._purge(logs_before, records_before,
                                                    codes_before, limit))

    async def _purge(self, logs_before: float, records_before: float | None,
                     codes_before: float, limit: int) -> Purged:
        r, k = self._a, self._k
        purged = 0
        for raw in await r.zrangebyscore(k("ended"), "-inf", f"({logs_before!r}", 0, limit):
            mid = _text(raw)
            if await r.sismember(k("unrecorded"), mid) or await r.hexists(k("quarantine"),
                                                                          mid):
                continue  # the recorder still needs it / kept for inspection
            snap = await r.get(k("m", mid, "snap"))
            codes = []
            if snap is not None:
                try:
                    meta = unpack(bytes(snap)).get("meta") or {}
                    codes = [k("code", str(c)) for c in (meta.get("code"),
                                                         meta.get("watch_code")) if c]
                except Exception:  # an unreadable snapshot: its codes stay (none known)
                    codes = []
            await r.delete(k("m", mid, "snap"), k("m", mid, "log"), k("lease", mid), *codes)
            await r.zrem(k("ended"), mid)
            purged += 1
        records = 0
        if records_before is not None:
            for raw in await r.zrangebyscore(k("results"), "-inf", f"({records_before!r}",
                                             0, limit):
                mid = _text(raw)
                rec = await r.get(k("res", mid))
                players: list[str] = []
                if rec is not None:
                    with contextlib.suppress(Exception):  # unreadable: its entries stay
                        players = [str(p["player"]) for p in unpack(bytes(rec))["players"]
                                   if p.get("player")]
                for p in players:
                    await r.zrem(k("hist", p), mid)
                await r.delete(k("res", mid))
                await r.zrem(k("results"), mid)
                records += 1
        codes_gone = 0
        for raw in await r.zrangebyscore(k("codes:new"), "-inf", f"({codes_before!r}", 0,
                                         limit):
            code = _text(raw)
            mid = await r.get(k("code", code))
            if mid is None or not await r.exists(k("m", _text(mid), "snap")):
                codes_gone += int(await r.delete(k("code", code)))
            await r.zrem(k("codes:new"), code)
        return Purged(purged, records, codes_gone, 0)

    # -- schema --

    async def migrate(self) -> list[int]:
        return await self._call(lambda: migrate_redis(self._r, self.prefix))

    async def schema_version(self) -> int:
        return int(await self._call(lambda: self._r.get(self._k("schema"))) or 0)

    # -- players --

    async def create_account(self, account: Account) -> bool:
        keys = [self._k("acct", account.player), self._k("name", account.key)]
        args: list[Any] = [pack(account.plain()), account.player]
        return bool(await self._call(lambda: self._create_account(keys=keys, args=args)))

    async def put_account(self, account: Account) -> None:
        await self._call(lambda: self._a.set(self._k("acct", account.player),
                                             pack(account.plain()), xx=True))

    async def account(self, player: str) -> Account | None:
        raw = await self._call(lambda: self._a.get(self._k("acct", player)))
        return None if raw is None else Account.from_plain(unpack(raw))

    async def account_by_name(self, key: str) -> Account | None:
        player = await self._call(lambda: self._a.get(self._k("name", key)))
        return None if player is None else await self.account(_text(player))

    async def standings(self, player: str) -> dict[str, Standing]:
        raw = await self._call(lambda: self._a.hgetall(self._k("st", player)))
        return {_text(m): Standing.from_plain(unpack(d)) for m, d in raw.items()}

    async def record_result(self, match_id: str, mode: str, players: Sequence[str],
                            at: float, build: Build) -> tuple[bytes, bool]:
        res = self._k("res", match_id)
        watched = [res, *(self._k("st", p) for p in players)]

        async def attempt() -> tuple[bytes, bool]:
            pipe: Any
            async with self._a.pipeline(transaction=True) as pipe:
                while True:
                    try:
                        await pipe.watch(*watched)
                        existing = await pipe.get(res)
                        if existing is not None:
                            await pipe.unwatch()
                            return bytes(existing), False
                        current = []
                        for p in players:
                            raw = await pipe.hget(self._k("st", p), mode)
                            current.append(Standing() if raw is None
                                           else Standing.from_plain(unpack(raw)))
                        record, new = build(current)
                        pipe.multi()
                        pipe.set(res, record)
                        for p, st in zip(players, new, strict=True):
                            pipe.hset(self._k("st", p), mode, pack(st.plain()))
                            pipe.zadd(self._k("lb", mode), {p: st.rating})
                            pipe.zadd(self._k("hist", p), {match_id: at})
                        pipe.srem(self._k("unrecorded"), match_id)
                        pipe.zadd(self._k("results"), {match_id: at})  # for the purge
                        await pipe.execute()
                        return record, True
                    except WatchError:
                        continue  # another result for one of these players: read again
        return await self._call(attempt)

    async def result(self, match_id: str) -> bytes | None:
        raw = await self._call(lambda: self._a.get(self._k("res", match_id)))
        return None if raw is None else bytes(raw)

    async def history(self, player: str, *, limit: int = 20,
                      before: float | None = None) -> list[bytes]:
        top: Any = "+inf" if before is None else f"({before!r}"
        ids = await self._call(lambda: self._a.zrevrangebyscore(
            self._k("hist", player), top, "-inf", start=0, num=limit))
        if not ids:
            return []
        raws = await self._call(lambda: self._a.mget([self._k("res", _text(i)) for i in ids]))
        return [bytes(r) for r in raws if r is not None]

    async def unrecorded(self) -> list[str]:
        ids = await self._call(lambda: self._a.smembers(self._k("unrecorded")))
        return sorted(_text(i) for i in ids)

    async def leaderboard(self, mode: str, *, limit: int) -> list[tuple[str, Standing]]:
        ids = [_text(i) for i in await self._call(
            lambda: self._a.zrevrange(self._k("lb", mode), 0, limit - 1))]
        if not ids:
            return []

        async def get() -> list[Any]:
            async with self._a.pipeline(transaction=False) as pipe:
                for p in ids:
                    pipe.hget(self._k("st", p), mode)
                return list(await pipe.execute())
        raws = await self._call(get)
        return [(p, Standing.from_plain(unpack(raw)))
                for p, raw in zip(ids, raws, strict=True) if raw is not None]

    async def put_transfer(self, code: str, player: str, expires: float) -> None:
        ttl = max(1, int(expires - time.time()) + TRANSFER_KEEP)
        data = pack({"player": player, "expires": expires, "used": None})
        await self._call(lambda: self._a.set(self._k("xfer", code), data, ex=ttl))

    async def take_transfer(self, code: str, now: float) -> tuple[TransferState, str | None]:
        keys = [self._k("xfer", code)]
        state, player = await self._call(lambda: self._take_transfer(keys=keys, args=[now]))
        s = _text(state)
        if s == "ok":
            return "ok", _text(player)
        if s in ("unknown", "used", "expired"):
            return s, None  # type: ignore[return-value]
        raise StoreUnavailable(f"redis: unexpected transfer state {s!r}")

    # -- tournaments --

    async def create_tournament(self, tid: str, created: float) -> bool:
        async def run() -> bool:
            added = await self._a.zadd(self._k("tournaments"), {tid: created}, nx=True)
            if added:
                await self._a.sadd(self._k("tournaments", "unfinished"), tid)
            return bool(added)
        return await self._call(run)

    async def append_events(self, tid: str, start: int, events: Sequence[bytes]) -> None:
        keys = [self._k("t", tid, "log"), self._k("tournaments"),
                self._k("tournaments", "unfinished")]
        args: list[Any] = [start, tid, time.time(), *events]
        try:
            await self._call(lambda: self._append(keys=keys, args=args))
        except ResponseError as exc:
            if str(exc).startswith("GAP"):
                raise LogGap(f"event {tid}: {exc}") from exc
            if str(exc).startswith("CONFLICT"):
                raise LogConflict(f"event {tid}: {exc}") from exc
            raise

    async def tournament_events(self, tid: str) -> list[bytes]:
        raw = await self._call(lambda: self._a.lrange(self._k("t", tid, "log"), 0, -1))
        return [bytes(e) for e in raw]

    async def tournament_length(self, tid: str) -> int:
        return int(await self._call(lambda: self._a.llen(self._k("t", tid, "log"))))

    async def tournament_ids(self, *, unfinished: bool) -> list[str]:
        ids = [_text(i) for i in await self._call(
            lambda: self._a.zrevrange(self._k("tournaments"), 0, -1))]
        if not unfinished:
            return ids
        live = {_text(i) for i in await self._call(
            lambda: self._a.smembers(self._k("tournaments", "unfinished")))}
        return [i for i in ids if i in live]

    async def finish_tournament(self, tid: str) -> None:
        await self._call(lambda: self._a.srem(self._k("tournaments", "unfinished"), tid))

    async def organisers(self) -> set[str]:
        return {_text(p) for p in await self._call(
            lambda: self._a.smembers(self._k("organisers")))}

    async def grant_organiser(self, player: str) -> None:
        await self._call(lambda: self._a.sadd(self._k("organisers"), player))

    async def revoke_organiser(self, player: str) -> None:
        await self._call(lambda: self._a.srem(self._k("organisers"), player))

    async def count_accounts(self, at_most: int) -> int:
        # No index of accounts: scan their keys (asked only while a server has no
        # organiser, i.e. when it is fresh and small).
        async def run() -> int:
            n = 0
            async for _ in self._a.scan_iter(match=self._k("acct", "*"), count=100):
                n += 1
                if n >= at_most:
                    break
            return n
        return await self._call(run)


def _text(v: bytes | str) -> str:
    return v.decode() if isinstance(v, bytes) else v
