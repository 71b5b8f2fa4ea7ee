"""The random-play harness over hundreds of seeded matches on each board.

Matches are spread over the machine's cores (each match is independent); every
failing seed is reported, not just the first.  The suite plays a sample that reaches
what the big one reaches (``bench/randomplay.py`` plays 2 000 training and 480
standard and advanced matches per board and prints what each sample covered: every
event of every law the big sample produced, the small one produced too); long runs
print their progress.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from typing import Any

import pytest
from harness import run_many

# Matches per board in each mode. Standard and advanced cycle through all 16 ordered
# pairings of the species teams (harness.PAIRINGS), so each count is a multiple of 16.
MATCHES = {"training": 400, "standard": 240, "advanced": 240}
DEEP = {"training": 40, "standard": 16, "advanced": 16}  # every legal decision applied
CHUNK = 40


def _run(jobs: list[tuple[int, range, bool, str]]) -> Iterator[dict[str, Any]]:
    """Each job's result as it is ready, in order (the chunks run on every core)."""
    workers = max(1, min(len(jobs), os.cpu_count() or 1))
    with ProcessPoolExecutor(max_workers=workers) as pool:
        yield from pool.map(run_many, *zip(*jobs, strict=True))


def _total(results: Iterator[dict[str, Any]] | list[dict[str, Any]],
           progress: Callable[[str], None] | None = None, of: int = 0) -> dict[str, Any]:
    out: dict[str, Any] = {"matches": 0, "steps": 0, "secret_checks": 0, "shootouts": 0,
                           "options_applied": 0, "failures": [], "covered": set()}
    for r in results:
        for k in out:
            out[k] = out[k] | r[k] if k == "covered" else out[k] + r[k]
        if progress is not None:
            progress(f"{out['matches']}/{of} matches, {len(out['failures'])} failing")
    return out


@pytest.mark.slow
@pytest.mark.parametrize("mode", list(MATCHES))
@pytest.mark.parametrize("board", [7, 9])
def test_random_play_keeps_the_engine_contract(board: int, mode: str,
                                               progress: Callable[[str], None]) -> None:
    n = MATCHES[mode]
    jobs = [(board, range(i, min(i + CHUNK, n)), False, mode) for i in range(0, n, CHUNK)]
    total = _total(_run(jobs), progress, n)
    assert total["failures"] == [], "\n".join(total["failures"][:10])
    assert total["matches"] == n
    # The harness really exercised secret choices and shootouts, not just easy paths.
    assert total["secret_checks"] > n
    assert total["shootouts"] > 0


@pytest.mark.slow
@pytest.mark.parametrize("mode", list(DEEP))
@pytest.mark.parametrize("board", [7, 9])
def test_every_legal_decision_applies_at_every_step(board: int, mode: str,
                                                   progress: Callable[[str], None]) -> None:
    n = DEEP[mode]
    seeds = range(10_000, 10_000 + n)
    jobs = [(board, seeds[i:i + 4], True, mode) for i in range(0, n, 4)]
    total = _total(_run(jobs), progress, n)
    assert total["failures"] == [], "\n".join(total["failures"][:10])
    assert total["matches"] == n
    assert total["options_applied"] > total["steps"]


@pytest.mark.parametrize("mode", ["standard", "advanced"])
def test_every_species_pairing_keeps_the_engine_contract_quick(mode: str) -> None:
    """A fast run for every pytest: one match of each of the 16 ordered pairings."""
    total = _total([run_many(7, range(16), False, mode)])
    assert total["failures"] == [], "\n".join(total["failures"][:10])
    assert total["matches"] == 16


# (mode, board, first seed): 16 seeds each, so every species pairing plays on both boards.
PYODIDE_RUNS = [("standard", 7, 0), ("standard", 9, 16), ("advanced", 7, 0),
                ("advanced", 9, 16), ("training", 7, 0)]


@pytest.mark.pyodide
def test_the_harness_plays_identically_under_pyodide() -> None:
    """The same seeds checked on CPython and on Pyodide (32-bit) give the same matches:
    the same number of steps and the same final state, with no failure on either."""
    import subprocess
    import sys
    from pathlib import Path

    from pyodide_runner import pyodide_unavailable_reason, run_in_pyodide

    reason = pyodide_unavailable_reason()
    if reason is not None:
        if os.environ.get("CI"):
            pytest.fail(f"{reason}; CI must run the Pyodide tests")
        pytest.skip(reason)
    script = Path(__file__).with_name("harness_run.py")
    # One run each side for every group: one Pyodide start-up, not one per group.
    args = [str(a) for mode, board, first in PYODIDE_RUNS for a in (mode, board, first, 16)]
    here = subprocess.run([sys.executable, str(script), *args], capture_output=True,
                          text=True, check=True, cwd=script.parent).stdout
    there = run_in_pyodide(script, *args, timeout=900)
    assert there.returncode == 0, there.stderr
    mine, theirs = here.splitlines(), there.stdout.splitlines()
    assert len(mine) == 16 * len(PYODIDE_RUNS)
    for a, b in zip(mine, theirs, strict=True):
        assert a == b, f"Pyodide plays differently:\n{a}\n{b}"
    assert all('"failures": []' in line for line in mine)
