"""The random-play harness over thousands of seeded matches on each board.

Matches are spread over the machine's cores (each match is independent); every
failing seed is reported, not just the first.
"""

from __future__ import annotations

import os
from concurrent.futures import ProcessPoolExecutor
from typing import Any

import pytest
from harness import run_many

MATCHES_PER_BOARD = 2000
DEEP_PER_BOARD = 40  # matches where every legal decision at every step is applied
CHUNK = 100


def _run(jobs: list[tuple[int, range, bool]]) -> list[dict[str, Any]]:
    workers = max(1, min(len(jobs), os.cpu_count() or 1))
    with ProcessPoolExecutor(max_workers=workers) as pool:
        return list(pool.map(run_many, *zip(*jobs, strict=True)))


def _total(results: list[dict[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {"matches": 0, "steps": 0, "secret_checks": 0, "shootouts": 0,
                           "options_applied": 0, "failures": []}
    for r in results:
        for k in out:
            out[k] += r[k]
    return out


@pytest.mark.slow
@pytest.mark.parametrize("board", [7, 9])
def test_random_play_keeps_the_engine_contract(board: int) -> None:
    jobs = [(board, range(i, min(i + CHUNK, MATCHES_PER_BOARD)), False)
            for i in range(0, MATCHES_PER_BOARD, CHUNK)]
    total = _total(_run(jobs))
    assert total["failures"] == [], "\n".join(total["failures"][:10])
    assert total["matches"] == MATCHES_PER_BOARD
    # The harness really exercised secret choices and shootouts, not just easy paths.
    assert total["secret_checks"] > MATCHES_PER_BOARD
    assert total["shootouts"] > 0


@pytest.mark.slow
@pytest.mark.parametrize("board", [7, 9])
def test_every_legal_decision_applies_at_every_step(board: int) -> None:
    seeds = range(10_000, 10_000 + DEEP_PER_BOARD)
    half = DEEP_PER_BOARD // 2
    total = _total(_run([(board, seeds[:half], True), (board, seeds[half:], True)]))
    assert total["failures"] == [], "\n".join(total["failures"][:10])
    assert total["matches"] == DEEP_PER_BOARD
    assert total["options_applied"] > total["steps"]


# Part II: the Telekinetics on either side, so Mind Pull, Smooth and the Law 21 ball
# abilities (pulls off steals, Zenith's flight, Vorix, Zytheris) are played at random.
PART2_TEAMS = [("telekinetics", "oozes"), ("fire-demons", "telekinetics"),
               ("telekinetics", "telekinetics"), ("cyborgs", "telekinetics")]


@pytest.mark.parametrize("mode", ["standard", "advanced"])
@pytest.mark.parametrize("teams", PART2_TEAMS)
def test_random_play_part_two_telekinetics(mode: str, teams: tuple[str, str]) -> None:
    matches = 300 if os.environ.get("KICKLINE_SLOW") else 6
    jobs = [(board, range(matches), False, mode, teams) for board in (7, 9)]
    total = _total(_run(jobs))
    assert total["failures"] == [], "\n".join(total["failures"][:10])
    assert total["matches"] == 2 * matches
