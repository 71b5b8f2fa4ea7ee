"""The players' side of the client in a real browser (Debian's Chromium, headless, phone
viewport): who you are (cookie, refused names), and later profiles, challenges,
rematches and presence.  Each test runs one scenario of ``tests/client/players.mjs``
against the server of ``conftest.py``."""

from __future__ import annotations

import pytest
from test_browser import run

pytestmark = pytest.mark.slow


def test_identity_survives_wiped_storage_and_refused_names_are_explained(
        server_url: str) -> None:
    out = run(server_url, "identity", script="players.mjs")
    assert out["name"] != out["other"]


def test_the_rated_queue_counts_who_waits_and_pairs_two_phones(server_url: str) -> None:
    out = run(server_url, "rated-queue", script="players.mjs")
    assert "only you" in str(out["status"])
