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

# Matches per board in each mode. Standard and advanced cycle through all 16 ordered
# pairings of the species teams (harness.PAIRINGS), so each count is a multiple of 16.
MATCHES = {"training": 2000, "standard": 480, "advanced": 480}
DEEP = {"training": 40, "standard": 16, "advanced": 16}  # every legal decision applied
CHUNK = 80


def _run(jobs: list[tuple[int, range, bool, str]]) -> list[dict[str, Any]]:
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
@pytest.mark.parametrize("mode", list(MATCHES))
@pytest.mark.parametrize("board", [7, 9])
def test_random_play_keeps_the_engine_contract(board: int, mode: str) -> None:
    n = MATCHES[mode]
    jobs = [(board, range(i, min(i + CHUNK, n)), False, mode) for i in range(0, n, CHUNK)]
    total = _total(_run(jobs))
    assert total["failures"] == [], "\n".join(total["failures"][:10])
    assert total["matches"] == n
    # The harness really exercised secret choices and shootouts, not just easy paths.
    assert total["secret_checks"] > n
    assert total["shootouts"] > 0


@pytest.mark.slow
@pytest.mark.parametrize("mode", list(DEEP))
@pytest.mark.parametrize("board", [7, 9])
def test_every_legal_decision_applies_at_every_step(board: int, mode: str) -> None:
    n = DEEP[mode]
    seeds = range(10_000, 10_000 + n)
    half = n // 2
    total = _total(_run([(board, seeds[:half], True, mode), (board, seeds[half:], True, mode)]))
    assert total["failures"] == [], "\n".join(total["failures"][:10])
    assert total["matches"] == n
    assert total["options_applied"] > total["steps"]


@pytest.mark.parametrize("mode", ["standard", "advanced"])
def test_every_species_pairing_keeps_the_engine_contract_quick(mode: str) -> None:
    """A fast run for every pytest: one match of each of the 16 ordered pairings."""
    total = _total([run_many(7, range(16), False, mode)])
    assert total["failures"] == [], "\n".join(total["failures"][:10])
    assert total["matches"] == 16
