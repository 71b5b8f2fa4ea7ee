"""Password-less identities: a display name and an HMAC-signed token.

A token is ``v1.<payload>.<mac>``: ``payload`` is base64url JSON ``{"p": player id,
"n": display name}`` and ``mac`` is base64url HMAC-SHA256 of ``v1.<payload>`` under
the server's secret.  Holding the token is being that player: it reconnects the
same person from a reload or another tab.  Nothing else identifies a player.
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

_PREFIX = "v1"
MAX_NAME = 24
MAX_TOKEN = 512


@dataclass(frozen=True, slots=True)
class Identity:
    player: str
    name: str


def check_name(name: str) -> str:
    """A display name, trimmed; raises ``ValueError`` when unusable."""
    name = " ".join(name.split())
    if not 1 <= len(name) <= MAX_NAME or not name.isprintable():
        raise ValueError(f"a name is 1-{MAX_NAME} printable characters")
    return name


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


class Tokens:
    """Issues and checks tokens under one secret."""

    def __init__(self, secret: bytes) -> None:
        if len(secret) < 16:
            raise ValueError("the token secret must be at least 16 bytes")
        self._secret = secret

    def _mac(self, signed: str) -> str:
        return _b64(hmac.new(self._secret, signed.encode(), hashlib.sha256).digest())

    def issue(self, name: str) -> tuple[Identity, str]:
        who = Identity(secrets.token_hex(8), check_name(name))
        return who, self.sign(who)

    def sign(self, who: Identity) -> str:
        payload = _b64(json.dumps({"p": who.player, "n": who.name},
                                  separators=(",", ":")).encode())
        signed = f"{_PREFIX}.{payload}"
        return f"{signed}.{self._mac(signed)}"

    def verify(self, token: str) -> Identity | None:
        """The identity a token proves, or ``None`` if it is not one of ours."""
        # Tokens are ASCII; compare_digest raises TypeError on other str, so a token
        # with an "é" in its MAC must be refused here, not crash the caller.
        if len(token) > MAX_TOKEN or not token.isascii() or token.count(".") != 2:
            return None
        prefix, payload, mac = token.split(".")
        if prefix != _PREFIX or not hmac.compare_digest(mac, self._mac(f"{prefix}.{payload}")):
            return None
        try:
            data = json.loads(_unb64(payload))
            return Identity(str(data["p"]), str(data["n"]))
        except (ValueError, KeyError, TypeError, RecursionError):
            return None


def load_secret(data_dir: Path | None, configured: bytes | str | None = None) -> bytes:
    """The token secret: ``configured`` if given, else ``data_dir/secret.key``,
    created once (mode 0600) with 32 random bytes and reused afterwards."""
    if configured:
        return configured.encode() if isinstance(configured, str) else configured
    if data_dir is None:
        raise ValueError("no token secret configured and no data directory to keep one")
    return _load_or_create(data_dir / "secret.key", 32)


def read_secret_file(path: Path) -> bytes:
    """The secret in a ``--secret-file``: a text file (UTF-8 without control characters)
    is its text without surrounding whitespace, so ``echo SECRET > FILE`` works; anything
    else is used byte for byte, so the ``secret.key`` a server generated can be shared
    with another server as it is."""
    data = path.read_bytes()
    try:
        text = data.decode()
    except UnicodeDecodeError:
        return data
    if any(not (c.isprintable() or c.isspace()) for c in text):
        return data
    return text.strip().encode()


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
