"""Tokens, key rotation and secrets."""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import os
from pathlib import Path

import pytest

from kickline_server.identity import (
    Keyring,
    Tokens,
    load_keyring,
    load_secret,
    load_server_id,
    rotate_key,
)


def test_sign_and_verify() -> None:
    t = Tokens(b"k" * 32)
    token = t.sign("p1", 3)
    claim = t.verify(token)
    assert claim is not None and (claim.player, claim.epoch) == ("p1", 3)
    assert t.is_current(claim)
    assert t.sign("p1", 3) == token  # deterministic: a cookie holding it stays current


@pytest.mark.parametrize("mangle", [
    lambda s: s + "x", lambda s: s[:-2], lambda s: "v3" + s[2:], lambda s: s.replace(".", "", 1),
    lambda s: "", lambda s: "a.b.c.d", lambda s: s + "." * 600,
])
def test_forged_or_damaged_tokens_are_refused(mangle: object) -> None:
    t = Tokens(b"k" * 32)
    token = t.sign("p1", 0)
    assert t.verify(mangle(token)) is None  # type: ignore[operator]


def test_a_token_from_another_secret_is_refused() -> None:
    token = Tokens(b"a" * 32).sign("p1", 0)
    assert Tokens(b"b" * 32).verify(token) is None


def test_rotation_keeps_old_tokens_working_and_signs_with_the_new_key(tmp_path: Path) -> None:
    before = Tokens(load_keyring(tmp_path))
    old = before.sign("p1", 0)
    rotate_key(tmp_path)
    after = Tokens(load_keyring(tmp_path))
    claim = after.verify(old)
    assert claim is not None and claim.player == "p1" and not after.is_current(claim)
    fresh = after.sign("p1", 0)
    assert fresh != old and after.is_current(after.verify(fresh))  # type: ignore[arg-type]
    assert before.verify(fresh) is None  # a server still on the old ring cannot read it


def test_rotation_drops_the_oldest_key_past_the_limit(tmp_path: Path) -> None:
    first = Tokens(load_keyring(tmp_path)).sign("p1", 0)
    for _ in range(3):
        rotate_key(tmp_path)
    assert Tokens(load_keyring(tmp_path)).verify(first) is not None  # 4 keys kept
    rotate_key(tmp_path)
    assert Tokens(load_keyring(tmp_path)).verify(first) is None
    assert os.stat(tmp_path / "secret.key").st_mode & 0o777 == 0o600


def test_a_configured_secret_may_list_several_keys_the_first_signs() -> None:
    ring = load_keyring(None, "new-secret-value-1\nold-secret-value-2\n")
    old = Tokens(Keyring([b"old-secret-value-2"])).sign("p", 0)
    t = Tokens(ring)
    assert t.verify(old) is not None
    assert Tokens(Keyring([b"new-secret-value-1"])).verify(t.sign("p", 0)) is not None


def test_legacy_tokens_of_the_release_before_accounts_are_read() -> None:
    secret = b"s" * 32
    payload = base64.urlsafe_b64encode(json.dumps({"p": "abc", "n": "Ada"}).encode()
                                       ).rstrip(b"=").decode()
    mac = base64.urlsafe_b64encode(hmac.new(secret, f"v1.{payload}".encode(),
                                            hashlib.sha256).digest()).rstrip(b"=").decode()
    t = Tokens(secret)
    legacy = t.legacy(f"v1.{payload}.{mac}")
    assert legacy is not None and (legacy.player, legacy.name) == ("abc", "Ada")
    assert t.verify(f"v1.{payload}.{mac}") is None
    assert t.legacy(f"v1.{payload}.{mac[:-1]}x") is None


def test_secret_is_generated_once_and_kept(tmp_path: Path) -> None:
    a = load_secret(tmp_path)
    assert load_secret(tmp_path) == a and len(a) == 32
    assert os.stat(tmp_path / "secret.key").st_mode & 0o777 == 0o600
    assert load_secret(tmp_path, "configured-secret-value") == b"configured-secret-value"
    assert load_server_id(tmp_path) == load_server_id(tmp_path)


def test_short_secret_refused() -> None:
    with pytest.raises(ValueError):
        Tokens(b"short")


@pytest.mark.parametrize("where", ["mac", "payload", "prefix", "kid"])
def test_non_ascii_tokens_are_refused_not_crashed_on(where: str) -> None:
    t = Tokens(b"k" * 32)
    token = t.sign("p1", 0)
    prefix, kid, payload, mac = token.split(".")
    parts = {"prefix": prefix, "kid": kid, "payload": payload, "mac": mac}
    parts[where] = parts[where][:-1] + "é"
    assert t.verify(".".join(parts.values())) is None
    legacy = ".".join(["v1", parts["payload"], parts["mac"]])
    assert t.legacy(legacy) is None
