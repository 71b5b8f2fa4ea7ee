"""The players' side of the client in a real browser (Debian's Chromium, headless, phone
viewport): who you are (cookie, refused names, a transfer link, a password), the rated
queue, challenges and rematches, profiles and the leaderboard, and a phone that sleeps
while its opponent thinks.  axe-core checks each players' screen.  Each test runs one
scenario of ``tests/client/players.mjs`` against the server of ``conftest.py``."""

from __future__ import annotations

import pytest
from test_browser import run

pytestmark = pytest.mark.slow


def test_identity_cookie_refused_names_transfer_link_and_password(server_url: str) -> None:
    out = run(server_url, "identity", script="players.mjs")
    assert out["name"] != out["other"] and "already used" in str(out["used"])


def test_a_challenge_from_a_profile_then_a_rematch_with_the_seats_swapped(
        server_url: str) -> None:
    run(server_url, "challenge", script="players.mjs")


def test_rated_queue_then_a_phone_asleep_on_the_opponents_turn_loses_nothing(
        server_url: str) -> None:
    out = run(server_url, "sleep", script="players.mjs")
    assert "only you" in str(out["status"]) and "claim the win in" in str(out["notice"])
