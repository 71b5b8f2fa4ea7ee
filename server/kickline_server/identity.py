"""Tokens: what proves a connection is an account's, signed under rotating keys.

A token is ``v2.<kid>.<payload>.<mac>``: ``payload`` is base64url JSON ``{"p": player
id, "e": epoch}``, ``kid`` names the key that signed it, and ``mac`` is base64url
HMAC-SHA256 of ``v2.<kid>.<payload>`` under that key.  A token is good while its key is
in the server's :class:`Keyring` and its epoch is the account's (``sign out
everywhere`` bumps the epoch, see :mod:`.accounts`).

**Rotation without logging anyone out.**  The keyring holds several keys: the first
signs, every one verifies.  ``kickline rotate-key`` puts a new key first (it takes
effect at the next start); a token signed by an older key still works, and the server
answers it with a fresh token under the newest key (``welcome.token``), so everyone
who visits moves to the new key by themselves.  The oldest key is dropped once the
ring holds more than :data:`MAX_KEYS`; only a player who stayed away through that many
rotations has to sign in again (by password or a transfer link).

Tokens of the release before accounts (``v1.<payload>.<mac>``: player id and name,
signed with the raw secret) are still read (:meth:`Tokens.legacy`): the lobby makes an
account for such a player once, with the same player id, so their matches stay theirs.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import os
import secrets
from dataclasses import dataclass
from pathlib import Path
from typing import Final

MAX_TOKEN: Final = 512
KEY_SIZE: Final = 32
MAX_KEYS: Final = 4
"""Keys kept in a generated key file: the signing key and three older ones."""


@dataclass(frozen=True, slots=True)
class Claim:
    """What a token says: this player, issued in this epoch, signed by key ``kid``."""

    player: str
    epoch: int
    kid: str


@dataclass(frozen=True, slots=True)
class Legacy:
    """A token of the release before accounts: the player id and the name it carried."""

    player: str
    name: str


MAX_LABEL: Final = 24


def check_name(name: str) -> str:
    """A free-text label (a tournament entry's name), trimmed, spaces collapsed: 1-24
    printable characters; raises ``ValueError``.  Account names have stricter rules:
    :func:`.accounts.check_name`."""
    name = " ".join(name.split())
    if not 1 <= len(name) <= MAX_LABEL or not name.isprintable():
        raise ValueError(f"a name is 1-{MAX_LABEL} printable characters")
    return name


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def key_id(key: bytes) -> str:
    """A key's public name: the first 8 hex digits of its SHA-256."""
    return hashlib.sha256(key).hexdigest()[:8]


class Keyring:
    """Signing keys, newest first."""

    def __init__(self, keys: list[bytes]) -> None:
        if not keys:
            raise ValueError("a keyring needs at least one key")
        for k in keys:
            if len(k) < 16:
                raise ValueError("a token secret must be at least 16 bytes")
        self.keys = {key_id(k): k for k in keys}
        self.current = key_id(keys[0])


class Tokens:
    """Issues and checks tokens under a :class:`Keyring`."""

    def __init__(self, secret: bytes | Keyring) -> None:
        self.ring = secret if isinstance(secret, Keyring) else Keyring([secret])

    @staticmethod
    def _mac(key: bytes, signed: str) -> str:
        return _b64(hmac.new(key, signed.encode(), hashlib.sha256).digest())

    def sign(self, player: str, epoch: int) -> str:
        payload = _b64(json.dumps({"p": player, "e": epoch}, separators=(",", ":")).encode())
        signed = f"v2.{self.ring.current}.{payload}"
        return f"{signed}.{self._mac(self.ring.keys[self.ring.current], signed)}"

    def verify(self, token: str) -> Claim | None:
        """What a v2 token claims, or ``None`` if it is not one of ours (forged, damaged,
        or signed by a key this server no longer holds).  The epoch is checked by the
        caller against the account."""
        if len(token) > MAX_TOKEN or not token.isascii() or token.count(".") != 3:
            return None
        version, kid, payload, mac = token.split(".")
        key = self.ring.keys.get(kid)
        if version != "v2" or key is None:
            return None
        if not hmac.compare_digest(mac, self._mac(key, f"v2.{kid}.{payload}")):
            return None
        try:
            data = json.loads(_unb64(payload))
            player, epoch = data["p"], data["e"]
        except (ValueError, KeyError, TypeError, RecursionError):
            return None
        if not isinstance(player, str) or type(epoch) is not int:
            return None
        return Claim(player, epoch, kid)

    def legacy(self, token: str) -> Legacy | None:
        """A v1 token (before accounts), checked under every key of the ring."""
        if len(token) > MAX_TOKEN or not token.isascii() or token.count(".") != 2:
            return None
        version, payload, mac = token.split(".")
        if version != "v1":
            return None
        if not any(hmac.compare_digest(mac, self._mac(k, f"v1.{payload}"))
                   for k in self.ring.keys.values()):
            return None
        try:
            data = json.loads(_unb64(payload))
            return Legacy(str(data["p"]), str(data["n"]))
        except (ValueError, KeyError, TypeError, RecursionError):
            return None

    def is_current(self, claim: Claim) -> bool:
        return claim.kid == self.ring.current


def load_keyring(data_dir: Path | None, configured: str | bytes | None = None) -> Keyring:
    """The token keys: ``configured`` if given (text: one key per line, the first signs;
    bytes: as in a ``secret.key``), else ``data_dir/secret.key``, created once (mode
    0600) with 32 random bytes; a rotated file holds several 32-byte keys back to back,
    newest first."""
    if isinstance(configured, str) and configured:
        lines = [line.strip() for line in configured.splitlines() if line.strip()]
        return Keyring([line.encode() for line in lines])
    if isinstance(configured, bytes) and configured:
        return _raw_keys(configured)
    if data_dir is None:
        raise ValueError("no token secret configured and no data directory to keep one")
    return _raw_keys(_load_or_create(data_dir / "secret.key", KEY_SIZE))


def _raw_keys(data: bytes) -> Keyring:
    """The keys in a binary secret file: 32-byte keys back to back (what the server
    writes), or, at any other length, one key of all its bytes."""
    if len(data) < KEY_SIZE or len(data) % KEY_SIZE:
        return Keyring([data])
    return Keyring([data[i:i + KEY_SIZE] for i in range(0, len(data), KEY_SIZE)])


def read_secret_file(path: Path) -> str | bytes:
    """What a ``--secret-file`` holds: text (UTF-8 without control characters: one key
    per line, so ``echo SECRET > FILE`` works), else raw bytes, so the ``secret.key`` a
    server generated (or rotated) can be shared with another server as it is."""
    data = path.read_bytes()
    try:
        text = data.decode()
    except UnicodeDecodeError:
        return data
    if any(not (c.isprintable() or c.isspace()) for c in text):
        return data
    return text


def load_secret(data_dir: Path | None, configured: str | bytes | None = None) -> bytes:
    """The signing key (the keyring's first)."""
    ring = load_keyring(data_dir, configured)
    return ring.keys[ring.current]


def rotate_key(data_dir: Path, keep: int = MAX_KEYS) -> str:
    """Put a new signing key first in ``data_dir/secret.key``, keeping the ``keep - 1``
    newest old keys; returns the new key's id.  A running server reads it at its next
    start."""
    path = data_dir / "secret.key"
    old = _load_or_create(path, KEY_SIZE)
    new = secrets.token_bytes(KEY_SIZE)
    data = (new + old)[: keep * KEY_SIZE]
    tmp = path.with_suffix(".key.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "wb") as f:
        f.write(data)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)
    return key_id(new)


def load_server_id(data_dir: Path) -> str:
    """A stable id for this server installation (its lease owner name)."""
    return _load_or_create(data_dir / "server-id", 8).hex()


def _load_or_create(path: Path, size: int) -> bytes:
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        data = path.read_bytes()
        if len(data) < size:
            raise ValueError(f"{path} is truncated; delete it to make a new one") from None
        return data
    data = secrets.token_bytes(size)
    with os.fdopen(fd, "wb") as f:
        f.write(data)
        f.flush()
        os.fsync(f.fileno())
    return data
