"""Golden playthroughs: the recorded matches replay byte for byte, on CPython and Pyodide.

When a rules change alters a playthrough on purpose, regenerate the files with
``python tests/kickline/golden_play.py --make`` and review the diff.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from golden_play import GOLDEN_DIR, MATCHES, read, replay

from kickline.roster import SPECIES_TEAMS

FILES = sorted(GOLDEN_DIR.glob("*.jsonl"))
SCRIPT = Path(__file__).with_name("golden_play.py")


def test_every_listed_match_has_a_golden_file_in_every_mode_on_both_boards() -> None:
    assert [f.stem for f in FILES] == sorted(stem for stem, *_ in MATCHES)
    configs = [read(f)[0]["config"] for f in FILES]
    for mode in ("training", "standard", "advanced"):
        assert {c["board"] for c in configs if c["mode"] == mode} == {7, 9}
    # In each Part II mode every species team plays on each seat (18.1.1b-c).
    for mode in ("standard", "advanced"):
        for seat in (0, 1):
            assert sorted(c["teams"][seat] for c in configs if c["mode"] == mode) == list(
                SPECIES_TEAMS)


@pytest.mark.parametrize("path", FILES, ids=[f.stem for f in FILES])
def test_cpython_replays_the_golden_file_exactly(path: Path) -> None:
    header, inputs = read(path)
    expected = path.read_text(encoding="ascii").splitlines()
    got = replay(header, inputs)
    for i, (want, have) in enumerate(zip(expected, got, strict=False)):
        assert have == want, f"{path.name} differs at line {i + 1}"
    assert len(got) == len(expected)
    # Every match recorded here ran to its end.
    assert '"to_act":["over",[],false]' in expected[-1]


@pytest.mark.pyodide
def test_pyodide_replays_every_golden_file_byte_for_byte() -> None:
    from pyodide_runner import pyodide_unavailable_reason, run_in_pyodide

    reason = pyodide_unavailable_reason()
    if reason is not None:
        if os.environ.get("CI"):
            pytest.fail(f"{reason}; CI must run the Pyodide tests")
        pytest.skip(reason)
    proc = run_in_pyodide(SCRIPT, *(str(f) for f in FILES), timeout=600)
    assert proc.returncode == 0, proc.stderr
    expected = "".join(f.read_text(encoding="ascii") for f in FILES)
    assert proc.stdout == expected
