"""Budgets: how much one address, one identity or one connection may take.

A rate limit per connection is not enough: reconnecting resets it, and identities
are free.  So each costly thing a client can do has a budget per **address** (through
trusted proxies, :mod:`.addresses`) and, once it has said hello, per **identity**:

* :class:`Rate` — at most ``limit`` per ``per`` seconds per key (a token bucket that
  refills continuously), e.g. connections per minute, identities created per hour;
* :class:`Lockout` — failures (a join by a code that matches nothing) allowed per
  minute; past that the key is locked out, for longer each time it happens again;
* counts of things held at once (waiting matches) are kept by their owners.

Every refusal says how long to wait (``retry_after``).  Memory is bounded: each table
keeps at most ``max_keys`` keys, forgetting first those with nothing to remember.
:class:`Budgets` holds every default; each is a keyword argument and a ``kickline
serve`` flag (``config.py``).  A limit of 0 switches that budget off.
"""

from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Budgets:
    """What one address or identity may take.  Per address means per client address
    (``addresses.client_address``; an IPv6 /64)."""

    connections_per_minute: int = 240
    """Websocket connections and requests other than the client's files (``/session``,
    records, exports, ``/healthz``) per address per minute."""
    files_per_minute: int = 2400
    """Requests for the client's own files per address per minute.  Kept apart from
    ``connections_per_minute`` because a page load asks for about 60 files: one budget
    for both let only four phones behind one NAT (a club's wifi) load the page in a
    minute.  Files are cheap to refuse memory to (streamed, and each download counts as
    one of the address's simultaneous connections), so this budget only stops a flood;
    2400 is forty page loads a minute."""
    half_open_per_address: int = 256
    """TCP connections per peer address whose HTTP request has not arrived yet (not
    applied to trusted proxies, which carry everyone's).  A phone loading the page
    opens about six at once, each half-open until the event loop reads its request:
    16 phones at once from one address held 96 (``bench/page_loads.py``), so 256 lets
    a club of 40 load the page together; one address still cannot hold every file
    descriptor."""
    identities_per_hour: int = 60
    """Identities (``hello`` with a name, no token) created per address per hour: a club
    of 40 behind one address (docs/SECURITY.md, "A club behind one address") with 19
    to spare; a returning player's token or cookie costs nothing."""
    creates_per_hour: int = 60
    """Matches created (``create``, ``challenge``) per identity per hour."""
    creates_per_hour_per_address: int = 480
    """Twelve an hour for each player of a club of 40 (a bot match takes minutes).
    Matches the server makes (a tournament's boards) spend none."""
    waiting_per_player: int = 3
    """Matches waiting for an opponent that one identity holds at once."""
    waiting_per_address: int = 40
    """A club of 40 pairing up by invite codes has 20 waiting at once."""
    live_per_player: int = 10
    """Matches not over (waiting or playing, bot matches included) one identity holds."""
    live_per_address: int = 120
    """A club of 40, each with a bot match and half of them in a friendly besides (60),
    and as many again abandoned ones whose clocks have not run out.  A tournament's
    boards (made by the server) are not counted."""
    code_misses_per_minute: int = 10
    """Joins or watches by an invite code that matches nothing, per identity, before a
    lockout."""
    code_misses_per_minute_per_address: int = 30
    """The same per address: higher than per identity so that a club's typos (40
    players behind one address) do not lock every one of them out, low enough that
    guessing stays hopeless (docs/SECURITY.md)."""
    lockout: float = 60.0
    """The first lockout, in seconds; each further one doubles, up to ``max_lockout``."""
    max_lockout: float = 3600.0
    watches_per_minute: int = 30
    """``watch`` requests per identity per minute."""
    watches_per_minute_per_address: int = 120

    @classmethod
    def unlimited(cls) -> Budgets:
        """Every budget off: for benchmarks and load tests from one address."""
        return cls(**{f: 0 for f in cls.__dataclass_fields__ if f not in ("lockout",
                                                                          "max_lockout")})


@dataclass(slots=True)
class _Bucket:
    tokens: float
    at: float

    def refill(self, now: float, limit: float, per: float) -> None:
        self.tokens = min(limit, self.tokens + (now - self.at) * limit / per)
        self.at = now


class Rate:
    """Token buckets per key: ``limit`` per ``per`` seconds, refilled continuously."""

    def __init__(self, limit: float, per: float, *, max_keys: int = 100_000,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.limit = limit
        self.per = per
        self.max_keys = max_keys
        self.clock = clock
        self._buckets: OrderedDict[str, _Bucket] = OrderedDict()

    def _bucket(self, key: str, now: float) -> _Bucket:
        b = self._buckets.get(key)
        if b is None:
            if len(self._buckets) >= self.max_keys:
                self._prune(now)
            b = self._buckets[key] = _Bucket(self.limit, now)
        else:
            b.refill(now, self.limit, self.per)
            self._buckets.move_to_end(key)
        return b

    def _prune(self, now: float) -> None:
        """Forget full buckets (they remember nothing); if all are in use, the least
        recently used (its owner gets a fresh budget: bounded memory comes first)."""
        rate = self.limit / self.per
        for key in [k for k, b in self._buckets.items()
                    if b.tokens + (now - b.at) * rate >= self.limit]:
            del self._buckets[key]
        while len(self._buckets) >= self.max_keys:
            self._buckets.popitem(last=False)

    def wait(self, key: str) -> float | None:
        """``None`` if one is available now, else the seconds until one is."""
        return self._check(key, take=False)

    def take(self, key: str) -> float | None:
        """Take one if available (``None``); else the seconds until one is, taking none."""
        return self._check(key, take=True)

    def _check(self, key: str, *, take: bool) -> float | None:
        if self.limit <= 0:
            return None
        b = self._bucket(key, self.clock())
        if b.tokens >= 1:
            if take:
                b.tokens -= 1
            return None
        return (1 - b.tokens) * self.per / self.limit


@dataclass(slots=True)
class _Record:
    failures: _Bucket
    until: float = 0.0
    level: int = 0


class Lockout:
    """``limit`` failures per ``per`` seconds per key; the failure past that locks the
    key out for ``base`` seconds, doubling with each lockout (up to ``cap``).  A key
    with no lockout for ``cap`` seconds starts again from ``base``."""

    def __init__(self, limit: int, per: float, *, base: float, cap: float,
                 max_keys: int = 100_000, clock: Callable[[], float] = time.monotonic) -> None:
        self.limit = limit
        self.per = per
        self.base = base
        self.cap = cap
        self.max_keys = max_keys
        self.clock = clock
        self._keys: OrderedDict[str, _Record] = OrderedDict()

    def locked(self, key: str) -> float | None:
        """Seconds this key stays locked out, or ``None``."""
        r = self._keys.get(key)
        if r is None or self.limit <= 0:
            return None
        left = r.until - self.clock()
        return left if left > 0 else None

    def fail(self, key: str) -> float | None:
        """Count a failure; returns the lockout it started (seconds), if it did."""
        if self.limit <= 0:
            return None
        now = self.clock()
        r = self._keys.get(key)
        if r is None:
            if len(self._keys) >= self.max_keys:
                self._prune(now)
            r = self._keys[key] = _Record(_Bucket(float(self.limit), now))
        else:
            self._keys.move_to_end(key)
            r.failures.refill(now, self.limit, self.per)
            if r.level and now - r.until > self.cap:
                r.level = 0  # well behaved for a long while: forgiven
        r.failures.tokens -= 1
        if r.failures.tokens >= 0:
            return None
        length: float = min(self.cap, self.base * 2.0 ** min(r.level, 60))
        r.level += 1
        r.until = now + length
        r.failures.tokens = float(self.limit)  # a fresh allowance after the lockout
        return length

    def _prune(self, now: float) -> None:
        for key in [k for k, r in self._keys.items()
                    if r.until + self.cap < now and r.failures.at + self.per < now]:
            del self._keys[key]
        while len(self._keys) >= self.max_keys:
            self._keys.popitem(last=False)
