"""Run a Python script under Pyodide (32-bit CPython 3.14 in WebAssembly) from CPython.

A thin wrapper over ``tools/pyodide_run.mjs`` for tests: it builds the current rules wheel
first, so the script always sees the rules as they are in the working tree.

    from pyodide_runner import pyodide_available, run_in_pyodide
    proc = run_in_pyodide("tests/x/check.py", "--seed", "7")
    assert proc.returncode == 0, proc.stderr

Each run starts a fresh Node process and Pyodide (several seconds: see README), so put
many checks in one script rather than many scripts.  From a shell:
``python tools/pyodide_runner.py SCRIPT.py [ARGS...]``.
"""

from __future__ import annotations

import atexit
import functools
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from build_wheel import build_wheel

REPO_ROOT = Path(__file__).resolve().parent.parent
PYODIDE_DIR = REPO_ROOT / "client" / "node_modules" / "pyodide"
RUNNER = REPO_ROOT / "tools" / "pyodide_run.mjs"
DEFAULT_TIMEOUT = 180.0


def pyodide_unavailable_reason() -> str | None:
    """Why Pyodide cannot run here, or ``None`` when it can."""
    if shutil.which("node") is None:
        return "node is not on PATH (install Node.js 18 or newer)"
    if not (PYODIDE_DIR / "pyodide.mjs").is_file():
        return f"Pyodide is not installed in {PYODIDE_DIR} (run: make setup)"
    return None


def pyodide_available() -> bool:
    """Whether node and the npm ``pyodide`` package are both present."""
    return pyodide_unavailable_reason() is None


@functools.cache
def _wheel_dir() -> Path:
    # One private directory per process: client/build/ may be in use by a dev server, and
    # concurrent test processes must not overwrite each other's wheel.
    path = Path(tempfile.mkdtemp(prefix="kickline-pyodide-wheel-"))
    atexit.register(shutil.rmtree, path, ignore_errors=True)
    return path


def run_in_pyodide(
    script_path: str | os.PathLike[str],
    *args: str,
    timeout: float = DEFAULT_TIMEOUT,
    cwd: str | os.PathLike[str] | None = None,
) -> subprocess.CompletedProcess[str]:
    """Run ``script_path`` with ``args`` under Pyodide and return the finished process.

    The rules wheel is rebuilt from the working tree on every call (it takes milliseconds),
    so edits are never hidden by a stale build.  A non-zero exit code is returned, not
    raised: check ``returncode`` and show ``stderr``.  ``subprocess.TimeoutExpired`` is
    raised (and Node killed) if the run exceeds ``timeout`` seconds.
    """
    reason = pyodide_unavailable_reason()
    if reason is not None:
        raise RuntimeError(reason)
    wheel = build_wheel(_wheel_dir())
    return subprocess.run(
        ["node", str(RUNNER), "--wheel", str(wheel), "--", os.fspath(script_path), *args],
        cwd=cwd,
        stdin=subprocess.DEVNULL,  # CI has no stdin; a script that reads it gets EOF.
        capture_output=True,
        text=True,
        encoding="utf-8",
        errors="replace",
        timeout=timeout,
        check=False,
    )


def main(argv: list[str]) -> int:
    if not argv or argv[0] in {"-h", "--help"}:
        print("usage: python tools/pyodide_runner.py SCRIPT.py [ARGS...]", file=sys.stderr)
        return 2
    proc = run_in_pyodide(argv[0], *argv[1:])
    sys.stdout.write(proc.stdout)
    sys.stderr.write(proc.stderr)
    return proc.returncode


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
