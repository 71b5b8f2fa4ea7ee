"""The rules wheel: reproducible, complete, and installable as-is."""

from __future__ import annotations

import base64
import csv
import hashlib
import io
import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from build_wheel import REPO_ROOT, build_wheel

WHEEL_NAME = "kickline-0.1.0-py3-none-any.whl"
DIST_INFO = "kickline-0.1.0.dist-info"


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_wheel(tmp_path_factory.mktemp("wheel"))


def _fake_repo(root: Path) -> Path:
    """A minimal checkout: enough pyproject and package to build from."""
    pkg = root / "shared" / "kickline"
    (pkg / "sub").mkdir(parents=True)
    (root / "pyproject.toml").write_text(
        '[project]\nname = "kickline"\nversion = "0.1.0"\nrequires-python = ">=3.11"\n'
    )
    (pkg / "__init__.py").write_text('"""Fake."""\n')
    (pkg / "game.py").write_text("X = 1\n")
    (pkg / "sub" / "__init__.py").write_text("")
    (pkg / "sub" / "data.json").write_text("{}\n")
    (pkg / "__pycache__").mkdir()
    (pkg / "__pycache__" / "game.cpython-311.pyc").write_bytes(b"\0junk")
    (pkg / "sub" / "__pycache__").mkdir()
    (pkg / "sub" / "__pycache__" / "x.pyc").write_bytes(b"\0junk")
    (pkg / ".game.py.swp").write_bytes(b"editor debris")
    return root


def test_wheel_name_and_rules_only(wheel: Path) -> None:
    assert wheel.name == WHEEL_NAME
    with zipfile.ZipFile(wheel) as zf:
        names = zf.namelist()
        assert "kickline/game.py" in names
        assert zf.read("kickline/game.py") == (REPO_ROOT / "shared/kickline/game.py").read_bytes()
    assert all(n.startswith(("kickline/", f"{DIST_INFO}/")) for n in names), names
    assert not any("__pycache__" in n or n.endswith(".pyc") for n in names)


def test_two_builds_are_byte_identical(tmp_path: Path) -> None:
    first = build_wheel(tmp_path / "a")
    second = build_wheel(tmp_path / "b")
    assert first.read_bytes() == second.read_bytes()


def test_build_ignores_mtimes_and_local_debris(tmp_path: Path) -> None:
    repo = _fake_repo(tmp_path / "repo")
    first = build_wheel(tmp_path / "a", repo_root=repo).read_bytes()
    # Files touched later (a fresh clone, an editor save) must not change the bytes.
    for path in (repo / "shared").rglob("*"):
        os.utime(path, (2_000_000_000, 2_000_000_000))
    second = build_wheel(tmp_path / "b", repo_root=repo).read_bytes()
    assert first == second

    with zipfile.ZipFile(io.BytesIO(first)) as zf:
        names = zf.namelist()
        assert {i.date_time for i in zf.infolist()} == {(1980, 1, 1, 0, 0, 0)}
    package = [n for n in names if not n.startswith(DIST_INFO)]
    assert package == [
        "kickline/__init__.py",
        "kickline/game.py",
        "kickline/sub/__init__.py",
        "kickline/sub/data.json",
    ]
    assert names[-1] == f"{DIST_INFO}/RECORD"


def test_record_lists_every_file_with_its_hash(wheel: Path) -> None:
    with zipfile.ZipFile(wheel) as zf:
        names = zf.namelist()
        rows = list(csv.reader(io.StringIO(zf.read(f"{DIST_INFO}/RECORD").decode())))
        assert sorted(row[0] for row in rows) == sorted(names)
        for path, digest, size in rows:
            if path == f"{DIST_INFO}/RECORD":
                assert (digest, size) == ("", "")
                continue
            data = zf.read(path)
            expected = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=")
            assert digest == f"sha256={expected.decode()}", path
            assert int(size) == len(data), path


def test_metadata_and_wheel_files(wheel: Path) -> None:
    with zipfile.ZipFile(wheel) as zf:
        metadata = zf.read(f"{DIST_INFO}/METADATA").decode().splitlines()
        wheel_file = zf.read(f"{DIST_INFO}/WHEEL").decode().splitlines()
    assert {"Name: kickline", "Version: 0.1.0", "Requires-Python: >=3.11"} <= set(metadata)
    # The rules are stdlib only: the browser must not be asked to fetch anything.
    assert not any(line.startswith("Requires-Dist") for line in metadata)
    assert {"Wheel-Version: 1.0", "Root-Is-Purelib: true", "Tag: py3-none-any"} <= set(wheel_file)


def test_wheel_installs_and_imports_on_cpython(wheel: Path, tmp_path: Path) -> None:
    # Installing a pure wheel is unpacking it (what Pyodide's unpackArchive does too).
    # -S drops site-packages, where the editable install would resolve kickline to
    # shared/, so only the unpacked wheel can provide it.
    with zipfile.ZipFile(wheel) as zf:
        zf.extractall(tmp_path)
    proc = subprocess.run(
        [sys.executable, "-S", "-c", "import kickline.game as g; print(g.__file__)"],
        env={**os.environ, "PYTHONPATH": str(tmp_path)},
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == str(tmp_path / "kickline" / "game.py")


def test_command_line(tmp_path: Path) -> None:
    proc = subprocess.run(
        [sys.executable, str(REPO_ROOT / "tools" / "build_wheel.py"), "--out", str(tmp_path)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == str(tmp_path / WHEEL_NAME)
    assert (tmp_path / WHEEL_NAME).is_file()
