"""Tokens and secrets."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from kickline_server.identity import Tokens, check_name, load_secret, load_server_id


def test_issue_and_verify() -> None:
    t = Tokens(b"k" * 32)
    who, token = t.issue("  Ada   Lovelace ")
    assert who.name == "Ada Lovelace"
    assert t.verify(token) == who
    assert t.sign(who) == token


@pytest.mark.parametrize("mangle", [
    lambda s: s + "x", lambda s: s[:-2], lambda s: "v2" + s[2:], lambda s: s.replace(".", "", 1),
    lambda s: "", lambda s: "a.b.c", lambda s: s + "." * 600,
])
def test_forged_or_damaged_tokens_are_refused(mangle: object) -> None:
    t = Tokens(b"k" * 32)
    _, token = t.issue("Ada")
    assert t.verify(mangle(token)) is None  # type: ignore[operator]


def test_a_token_from_another_secret_is_refused() -> None:
    _, token = Tokens(b"a" * 32).issue("Ada")
    assert Tokens(b"b" * 32).verify(token) is None


@pytest.mark.parametrize("name", ["", "   ", "x" * 25, "bad\x00name"])
def test_bad_names(name: str) -> None:
    with pytest.raises(ValueError):
        check_name(name)


def test_secret_is_generated_once_and_kept(tmp_path: Path) -> None:
    a = load_secret(tmp_path)
    assert load_secret(tmp_path) == a and len(a) == 32
    assert os.stat(tmp_path / "secret.key").st_mode & 0o777 == 0o600
    assert load_secret(tmp_path, "configured-secret-value") == b"configured-secret-value"
    assert load_server_id(tmp_path) == load_server_id(tmp_path)


def test_short_secret_refused() -> None:
    with pytest.raises(ValueError):
        Tokens(b"short")


@pytest.mark.parametrize("where", ["mac", "payload", "prefix"])
def test_non_ascii_tokens_are_refused_not_crashed_on(where: str) -> None:
    t = Tokens(b"k" * 32)
    _, token = t.issue("Ada")
    prefix, payload, mac = token.split(".")
    parts = {"prefix": prefix, "payload": payload, "mac": mac}
    parts[where] = parts[where][:-1] + "é"
    assert t.verify(".".join(parts.values())) is None
