"""Name rules, passwords and the limit on wrong passwords (pure, no store)."""

from __future__ import annotations

import pytest

from kickline_server.accounts import (
    AccountError,
    Attempts,
    Scrypt,
    check_name,
    check_password,
    hash_password,
    name_key,
    verify_password,
)

FAST = Scrypt(n=2**10)  # the tests' own cost: the rules are what is tested here


@pytest.mark.parametrize(("raw", "shown"), [
    ("  Ada   Lovelace ", "Ada Lovelace"), ("Zoë", "Zoë"), ("李小龍", "李小龍"),
    ("o'Neil-2", "o'Neil-2"), ("ﬁona", "fiona"),  # NFKC: the ligature is two letters
])
def test_good_names_are_tidied(raw: str, shown: str) -> None:
    assert check_name(raw) == shown


@pytest.mark.parametrize(("raw", "code", "says"), [
    ("", "bad_name", "2 to 20"), ("A", "bad_name", "2 to 20"), ("x" * 21, "bad_name", "2 to 20"),
    ("bad\x00name", "bad_name", "U+0000"), ("a<b>", "bad_name", "'<'"),
    ("-dash", "bad_name", "starts with"), ("a..", "bad_name", "at least 2"),
    ("Adm1n", "reserved_name", "kept"),
    ("Admin", "reserved_name", "kept"), ("Greedy Bot", "reserved_name", "kept"),
    ("SERVER", "reserved_name", "kept"),
])
def test_bad_names_say_what_is_wrong(raw: str, code: str, says: str) -> None:
    with pytest.raises(AccountError) as info:
        check_name(raw)
    assert info.value.code == code and says in info.value.message


def test_names_that_look_alike_are_one_name() -> None:
    same = ["Ada", "ADA", "A.da", "a da", "\u0410da", "Ad\u0430", "Àda"]
    assert len({name_key(n) for n in same}) == 1
    assert name_key("Abbot") != name_key("Ada") and check_name("Abbot") == "Abbot"
    assert name_key("B0b") == name_key("Bob") and name_key("Bi11") == name_key("Bill")


def test_passwords_hash_and_verify() -> None:
    stored = FAST.hash(check_password("correct horse"))
    assert stored.startswith("scrypt$1024$8$1$")
    assert verify_password("correct horse", stored)
    assert not verify_password("correct horsf", stored)
    assert not verify_password("x", "not a hash") and not verify_password("x", "md5$1$2$3$4$5")
    assert FAST.hash("same words") != FAST.hash("same words")  # salted


def test_the_default_kdf_is_scrypt_with_16_mib() -> None:
    stored = hash_password("a real password")
    assert stored.split("$")[:4] == ["scrypt", "16384", "8", "1"]
    assert verify_password("a real password", stored)


@pytest.mark.parametrize("bad", ["short", "x" * 257])
def test_bad_passwords_are_refused(bad: str) -> None:
    with pytest.raises(AccountError) as info:
        check_password(bad)
    assert info.value.code == "bad_password"


def test_wrong_tries_are_limited_in_a_sliding_window() -> None:
    a = Attempts(limit=3, window=100)
    for t in (0, 10, 20):
        a.check("acct", t)
        a.failed("acct", t)
    with pytest.raises(AccountError) as info:
        a.check("acct", 30)
    assert info.value.code == "too_many_attempts" and info.value.extra["retry_after"] == 70
    a.check("other", 30)  # per key
    a.check("acct", 100.5)  # the first try left the window
    a.succeeded("acct")
    a.failed("acct", 101)
    a.check("acct", 101)


def test_the_attempts_table_is_bounded() -> None:
    a = Attempts(limit=1, window=100, max_keys=10)
    for i in range(50):
        a.failed(f"addr{i}", 0)
    assert len(a._keys) == 10
