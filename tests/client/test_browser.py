"""The web client in a real browser (Debian's Chromium, headless, phone viewport, touch).

Each test runs one scenario of ``tests/client/browser.mjs`` against a real server on a
loopback port; the UI is driven through taps.  Screenshots of the main screens land in
``artifacts/screenshots/``.  Skipped without chromium / node_modules, failed under CI.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SHOTS = ROOT / "artifacts" / "screenshots"

pytestmark = pytest.mark.slow


def run(server_url: str, scenario: str, timeout: float = 280,
        script: str = "browser.mjs") -> dict[str, object]:
    SHOTS.mkdir(parents=True, exist_ok=True)
    done = subprocess.run(
        ["node", str(ROOT / "tests" / "client" / script), server_url, scenario, str(SHOTS)],
        cwd=ROOT, capture_output=True, text=True, timeout=timeout)
    lines = [ln for ln in done.stdout.splitlines() if ln.startswith("{")]
    assert lines, f"no result from {scenario}: {done.stdout[-2000:]} {done.stderr[-2000:]}"
    out: dict[str, object] = json.loads(lines[-1])
    assert out.get("problems") == [], out
    assert done.returncode == 0, done.stderr[-2000:]
    return out


def test_a_newcomer_learns_the_game(server_url: str) -> None:
    """How to play, the whole tutorial through the UI (overlays, fit, focus, axe), the
    hidden-page title, the lessons, the lobby and the settings."""
    out = run(server_url, "newcomer")
    assert int(out["steps"]) >= 18  # type: ignore[call-overload]


def test_two_players_by_link_play_to_the_end(server_url: str) -> None:
    out = run(server_url, "two-players")
    assert sorted(out["results"]) in (["You lose", "You win!"], ["A draw", "A draw"])  # type: ignore[type-var]


def test_one_player_against_the_bot_to_the_end(server_url: str) -> None:
    out = run(server_url, "vs-bot")
    assert "✓ Every die" in str(out["fair"])
    # The record downloaded from the end screen verifies with `kickline verify`.
    done = subprocess.run([sys.executable, "-m", "kickline_server.cli", "verify",
                           str(out["recordFile"])], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("verified:"), done.stdout


def test_reload_mid_match_resumes_at_the_same_position(server_url: str) -> None:
    run(server_url, "reload")


def test_offline_then_online_resumes(server_url: str) -> None:
    run(server_url, "offline")


def test_secret_maneuver_hidden_until_the_reveal(server_url: str) -> None:
    out = run(server_url, "secret")
    assert int(out["framesChecked"]) > 0  # type: ignore[call-overload]


def test_quick_match_on_nine_spaces_and_resign(server_url: str) -> None:
    out = run(server_url, "quick-resign")
    assert out["spaces"] == 9


def test_offline_play_against_the_bot_and_pass_and_play(server_url: str) -> None:
    """With the network off after one visit: a match against a bot on the device, kept
    across a reload, then two players on one phone with each secret choice handed over."""
    out = run(server_url, "local")
    assert int(out["made"]) == 8 and int(out["secretPasses"]) > 0  # type: ignore[call-overload]
