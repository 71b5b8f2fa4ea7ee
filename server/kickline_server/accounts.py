"""Accounts: display names and their rules, passwords, and the limit on wrong ones.

A player is an account on this server: a player id (random, never shown), a display
name unique on the server, an ``epoch`` (bumped by "sign out everywhere": tokens carry
the epoch they were issued in, so every older one stops working), and an optional
password.  Nothing here does I/O; :mod:`.players` wires it to the store.

**Names.**  2-20 characters after trimming and collapsing spaces: letters and digits of
any script, spaces, and ``. - _ '``; starting with a letter or a digit.  Two names are
the same name when their :func:`name_key` is: case-folded (NFKC), marks and spaces and
punctuation dropped, and the look-alike letters a player could use to pass for someone
else (the Cyrillic and Greek letters that look Latin, the digit 0 for o...) mapped to one
letter.  So "Ada", "ADA", "A.da" and "Ada" with a Cyrillic "a" are one name.  Names
that pass for the server or its bots ("admin", "greedy bot"...) are refused.

**Passwords** are hashed with ``hashlib.scrypt`` (n=2**14, r=8, p=1: 16 MiB and about
50 ms per try on the development machine), 16-byte random salt, stored as
``scrypt$n$r$p$salt$hash`` (base64), so the cost can rise later without breaking old
hashes.  Wrong tries are limited per account and per address (:class:`Attempts`).
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
import unicodedata
from collections import OrderedDict
from dataclasses import dataclass, field, replace
from typing import Any, Final

MIN_NAME: Final = 2
MAX_NAME: Final = 20
MIN_PASSWORD: Final = 8
MAX_PASSWORD: Final = 256
_NAME_PUNCT: Final = frozenset(" .-_'")

# Look-alikes folded to one letter for name_key: the Cyrillic and Greek capitals and
# small letters that render like Latin ones, and the digits that pass for letters.
_CONFUSABLE: Final = str.maketrans(
    "\u0430\u0432\u0441\u0435\u04bb\u0456\u0458\u043a\u043c\u043d\u043e\u0440"
    "\u0455\u0442\u0443\u0445\u0501\u051b\u051d\u04cf\u03b1\u03b2\u03b5\u03b7"
    "\u03b9\u03ba\u03bd\u03bf\u03c1\u03c4\u03c5\u03c7\u03b6\u03bc01"
    "i|5$@",
    "abcehljkmhop"
    "styxdqwlaben"
    "lkvoptuxzuol"
    "llssa")

RESERVED: Final = frozenset({
    "admin", "administrator", "moderator", "mod", "kickline", "server", "system",
    "organiser", "organizer", "referee", "support", "staff", "root", "bot", "anonymous",
    "guest", "you", "opponent", "nobody", "null", "none", "randombot", "greedybot",
})
"""Names nobody may take (besides any name whose last word is "bot", as the
server's bots are called: "greedy bot")."""


_RESERVED_KEYS: Final = frozenset(
    "".join(ch for ch in n.translate(_CONFUSABLE) if ch.isalnum()) for n in RESERVED)


class AccountError(ValueError):
    """A refused account request: ``code`` is the protocol's error code."""

    def __init__(self, code: str, message: str, **extra: Any) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.extra = extra


def check_name(raw: str) -> str:
    """The display name as it will be shown (NFKC, trimmed, spaces collapsed); raises
    :class:`AccountError` ``bad_name`` saying what is wrong."""
    name = " ".join(unicodedata.normalize("NFKC", raw).split())
    if not MIN_NAME <= len(name) <= MAX_NAME:
        raise AccountError("bad_name", f"a name is {MIN_NAME} to {MAX_NAME} characters")
    for ch in name:
        if not (ch.isalnum() or ch in _NAME_PUNCT):
            shown = ch if ch.isprintable() else f"U+{ord(ch):04X}"
            raise AccountError("bad_name", "a name uses letters, digits, spaces and . - _ '"
                               f" only, not {shown!r}")
    if not name[0].isalnum():
        raise AccountError("bad_name", "a name starts with a letter or a digit")
    key = name_key(name)
    if len(key) < MIN_NAME:
        raise AccountError("bad_name", f"a name needs at least {MIN_NAME} letters or digits")
    if key in _RESERVED_KEYS or name_key(name.split()[-1]) == "bot":
        raise AccountError("reserved_name", f"{name!r} is kept for the server; choose "
                           "another name")
    return name


def name_key(name: str) -> str:
    """What makes two names the same name (see the module docstring)."""
    folded = unicodedata.normalize("NFKD", unicodedata.normalize("NFKC", name).casefold())
    bare = "".join(ch for ch in folded if not unicodedata.combining(ch))
    mapped = bare.translate(_CONFUSABLE)
    return "".join(ch for ch in mapped if ch.isalnum())


# --- accounts ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Account:
    """One player's account as stored (``plain`` / ``from_plain`` for the stores)."""

    player: str
    name: str
    created: float
    epoch: int = 0
    password: str | None = None
    legacy: bool = False
    """Made from a token of the release before accounts (first seen again after the
    upgrade), not by a ``hello`` with a name."""

    @property
    def key(self) -> str:
        return name_key(self.name)

    def plain(self) -> dict[str, Any]:
        return {"player": self.player, "name": self.name, "created": self.created,
                "epoch": self.epoch, "password": self.password, "legacy": self.legacy}

    @staticmethod
    def from_plain(p: dict[str, Any]) -> Account:
        return Account(player=str(p["player"]), name=str(p["name"]),
                       created=float(p["created"]), epoch=int(p.get("epoch", 0)),
                       password=p.get("password"), legacy=bool(p.get("legacy", False)))

    def with_password(self, hashed: str | None) -> Account:
        return replace(self, password=hashed)

    def signed_out_everywhere(self) -> Account:
        return replace(self, epoch=self.epoch + 1)


def new_player_id() -> str:
    return secrets.token_hex(8)


# --- passwords -----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Scrypt:
    n: int = 2**14
    r: int = 8
    p: int = 1

    def hash(self, password: str, salt: bytes | None = None) -> str:
        salt = salt if salt is not None else secrets.token_bytes(16)
        digest = hashlib.scrypt(password.encode(), salt=salt, n=self.n, r=self.r, p=self.p,
                                maxmem=256 * self.n * self.r + 2**20, dklen=32)
        return "$".join(["scrypt", str(self.n), str(self.r), str(self.p), _b64(salt),
                         _b64(digest)])


def check_password(password: str) -> str:
    """A new password's rules; raises :class:`AccountError` ``bad_password``."""
    if not MIN_PASSWORD <= len(password) <= MAX_PASSWORD:
        raise AccountError("bad_password", f"a password is {MIN_PASSWORD} to "
                           f"{MAX_PASSWORD} characters")
    return password


def hash_password(password: str, kdf: Scrypt = Scrypt()) -> str:
    """Slow on purpose (tens of ms): call it from a worker thread."""
    return kdf.hash(check_password(password))


def verify_password(password: str, stored: str) -> bool:
    """Whether ``password`` matches ``stored`` (constant-time compare; slow on purpose)."""
    try:
        scheme, n, r, p, salt, digest = stored.split("$")
        if scheme != "scrypt" or len(password) > MAX_PASSWORD:
            return False
        again = Scrypt(int(n), int(r), int(p)).hash(password, _unb64(salt))
    except (ValueError, TypeError):
        return False
    return hmac.compare_digest(again.rsplit("$", 1)[1], digest)


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


# --- the limit on wrong passwords ---------------------------------------------------


@dataclass(slots=True)
class _Window:
    failures: list[float] = field(default_factory=list)


class Attempts:
    """Wrong passwords in a sliding window, per key (an account, an address).

    ``check(key, now)`` raises :class:`AccountError` ``too_many_attempts`` (with
    ``retry_after`` seconds) once ``limit`` wrong tries fell inside the last ``window``
    seconds; ``failed(key, now)`` counts one; ``succeeded`` clears an account's count.
    Memory is bounded: the least recently used keys are forgotten past ``max_keys``.
    Kept in the server process (several processes each count their own)."""

    def __init__(self, *, limit: int, window: float, max_keys: int = 100_000) -> None:
        self.limit = limit
        self.window = window
        self.max_keys = max_keys
        self._keys: OrderedDict[str, _Window] = OrderedDict()

    def _recent(self, key: str, now: float) -> list[float]:
        w = self._keys.get(key)
        if w is None:
            return []
        w.failures = [t for t in w.failures if t > now - self.window]
        return w.failures

    def check(self, key: str, now: float) -> None:
        recent = self._recent(key, now)
        if len(recent) >= self.limit:
            wait = max(1, int(recent[0] + self.window - now + 0.999))
            raise AccountError("too_many_attempts", "too many wrong passwords; try again "
                               f"in {wait} seconds", retry_after=wait)

    def failed(self, key: str, now: float) -> None:
        self._recent(key, now)
        w = self._keys.setdefault(key, _Window())
        w.failures.append(now)
        self._keys.move_to_end(key)
        while len(self._keys) > self.max_keys:
            self._keys.popitem(last=False)

    def succeeded(self, key: str) -> None:
        self._keys.pop(key, None)
