"""Scripts run under Pyodide behave as under CPython: output, argv, exit codes, tracebacks.

Each run starts Node and Pyodide afresh (seconds), so these tests are few and each checks
several things at once.
"""

from __future__ import annotations

import hashlib
import os
import textwrap
from pathlib import Path

import pytest

from pyodide_runner import REPO_ROOT, pyodide_unavailable_reason, run_in_pyodide

pytestmark = pytest.mark.pyodide


@pytest.fixture(autouse=True)
def _need_pyodide() -> None:
    reason = pyodide_unavailable_reason()
    if reason is None:
        return
    # CI's set-up installs node's Pyodide, so there a missing one is a broken set-up that
    # a skip would hide, not an optional extra.
    if os.environ.get("CI"):
        pytest.fail(f"{reason}; CI must run the Pyodide tests")
    pytest.skip(reason)


def _script(tmp_path: Path, source: str) -> Path:
    path = tmp_path / "script.py"
    path.write_text(textwrap.dedent(source))
    return path


def test_runs_the_current_rules_wheel_on_32_bit_python_3_14(tmp_path: Path) -> None:
    (tmp_path / "beside.txt").write_text("read from beside the script\n")
    script = _script(
        tmp_path,
        """
        import hashlib, sys
        from pathlib import Path

        import kickline.game

        print(sys.version_info[:2])
        print(sys.maxsize)
        print(sys.argv[1:])
        print("site-packages" in kickline.game.__file__)
        print(hashlib.sha256(Path(kickline.game.__file__).read_bytes()).hexdigest())
        print(Path(__file__).with_name("beside.txt").read_text().strip())
        print(sorted({"kick", "line", "ball"}), 3**40, "é")
        """,
    )
    proc = run_in_pyodide(script, "one", "two words")

    assert proc.returncode == 0, proc.stderr
    source_hash = hashlib.sha256((REPO_ROOT / "shared/kickline/game.py").read_bytes())
    assert proc.stdout.splitlines() == [
        "(3, 14)",
        "2147483647",  # 2**31 - 1: a 32-bit build
        "['one', 'two words']",
        "True",  # imported from the installed wheel, not a source tree
        source_hash.hexdigest(),  # ... and that wheel is the working tree's rules
        "read from beside the script",
        "['ball', 'kick', 'line'] 12157665459056928801 é",
    ]


def test_uncaught_exception_exits_1_with_traceback(tmp_path: Path) -> None:
    script = _script(
        tmp_path,
        """
        print("before the error")

        def fail():
            raise ValueError("boom")

        fail()
        """,
    )
    proc = run_in_pyodide(script)

    assert proc.returncode == 1
    assert proc.stdout == "before the error\n"
    assert proc.stderr.startswith("Traceback (most recent call last):\n"), proc.stderr
    assert f'File "{script}", line 5, in fail' in proc.stderr
    assert proc.stderr.rstrip().endswith("ValueError: boom")
    assert "runpy" not in proc.stderr  # the runner's own frames are not shown


@pytest.mark.parametrize(
    ("exit_arg", "code", "stderr"),
    [("3", 3, ""), ("'bye'", 1, "bye\n"), ("None", 0, "")],
)
def test_system_exit_sets_the_exit_code(
    tmp_path: Path, exit_arg: str, code: int, stderr: str
) -> None:
    script = _script(tmp_path, f"import sys\nsys.exit({exit_arg})\n")
    proc = run_in_pyodide(script)

    assert (proc.returncode, proc.stdout, proc.stderr) == (code, "", stderr)
