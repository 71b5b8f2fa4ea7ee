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


ADVANCED_PAIRS = [("training", "training"), ("fire-demons", "telekinetics"),
                  ("cyborgs", "oozes"), ("telekinetics", "fire-demons"), ("oozes", "training")]


@pytest.mark.parametrize("board", [7, 9])
def test_a_few_advanced_matches_keep_the_contract(board: int) -> None:
    """Advanced mode (the gambits, Law 19) under the same checks, quickly."""
    total = _total([run_many(board, range(3), False, "advanced", ("training", "training"))])
    assert total["failures"] == [], "\n".join(total["failures"][:10])
    assert total["matches"] == 3


@pytest.mark.slow
@pytest.mark.parametrize("board", [7, 9])
def test_random_play_keeps_the_contract_in_advanced_mode(board: int) -> None:
    jobs = [(board, range(k * 1000, k * 1000 + 40), False, "advanced", pair)
            for k, pair in enumerate(ADVANCED_PAIRS)]
    workers = max(1, min(len(jobs), os.cpu_count() or 1))
    with ProcessPoolExecutor(max_workers=workers) as pool:
        total = _total(list(pool.map(run_many, *zip(*jobs, strict=True))))
    assert total["failures"] == [], "\n".join(total["failures"][:10])
    assert total["matches"] == 40 * len(ADVANCED_PAIRS)
