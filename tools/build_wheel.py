"""Build the pure-Python wheel of the rules package alone (``shared/kickline``).

The browser client and the Pyodide tests install this wheel; the server is not in it, and
it declares no dependencies because the rules package is stdlib only.  The build is
byte-for-byte reproducible so that the wheel's hash can identify a rules version: entries
are sorted, timestamps and permissions are fixed.

Usage: ``python tools/build_wheel.py [--out DIR]`` (default ``client/build/``); prints
the wheel's path.  From Python: ``build_wheel(out_dir) -> Path``.
"""

from __future__ import annotations

import argparse
import base64
import csv
import hashlib
import io
import os
import re
import sys
import tempfile
import tomllib
import zipfile
from collections.abc import Sequence
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
DEFAULT_OUT = REPO_ROOT / "client" / "build"
PACKAGE = "kickline"
PACKAGE_SRC = Path("shared") / PACKAGE
SUMMARY = "Kickline rules engine (stdlib only; the build that runs in the browser)."
TAG = "py3-none-any"
# Any fixed time makes the bytes independent of checkout mtimes; this is the earliest a
# zip entry can carry.
ZIP_EPOCH = (1980, 1, 1, 0, 0, 0)
_UNIX = 3  # zip "version made by" host: fixed so the archive is the same on every OS.


def build_wheel(out_dir: Path | str = DEFAULT_OUT, *, repo_root: Path | str = REPO_ROOT) -> Path:
    """Write ``<name>-<version>-py3-none-any.whl`` into ``out_dir`` and return its path.

    Name, version and ``requires-python`` come from ``repo_root/pyproject.toml`` so the
    wheel can never disagree with the project about its version.
    """
    root = Path(repo_root)
    name, version, requires_python = _project_metadata(root / "pyproject.toml")
    dist = f"{_wheel_name(name)}-{version}"
    dist_info = f"{dist}.dist-info"

    files: list[tuple[str, bytes]] = [
        (arcname, path.read_bytes()) for arcname, path in _package_files(root / PACKAGE_SRC)
    ]
    if not any(arcname.endswith(".py") for arcname, _ in files):
        raise FileNotFoundError(f"no Python modules under {root / PACKAGE_SRC}")
    files.append((f"{dist_info}/METADATA", _metadata(name, version, requires_python)))
    files.append((f"{dist_info}/WHEEL", _wheel_file()))
    files.append((f"{dist_info}/top_level.txt", f"{PACKAGE}\n".encode()))
    files.append((f"{dist_info}/RECORD", _record(files, f"{dist_info}/RECORD")))

    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    target = out / f"{dist}-{TAG}.whl"
    # Write beside the target and rename, so a reader (a test running Pyodide, a dev
    # server) never sees a half-written wheel.
    fd, tmp_name = tempfile.mkstemp(prefix=f".{dist}-", suffix=".whl.tmp", dir=out)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(_zip(files))
        os.replace(tmp_name, target)
    except BaseException:
        Path(tmp_name).unlink(missing_ok=True)
        raise
    return target


def _project_metadata(pyproject: Path) -> tuple[str, str, str | None]:
    with pyproject.open("rb") as fh:
        project = tomllib.load(fh)["project"]
    requires_python = project.get("requires-python")
    return (
        str(project["name"]),
        str(project["version"]),
        None if requires_python is None else str(requires_python),
    )


def _wheel_name(name: str) -> str:
    # Wheel file names use the normalised distribution name (binary distribution format).
    return re.sub(r"[-_.]+", "_", name).lower()


def _package_files(src: Path) -> list[tuple[str, Path]]:
    """Every file of the package as ``(archive name, path)``, sorted by archive name.

    Bytecode caches and dotfiles (editor swap files, .DS_Store) are local debris, not
    part of the package, and would make the wheel depend on whose checkout built it.
    """
    if not src.is_dir():
        raise FileNotFoundError(f"rules package not found: {src}")
    found: list[tuple[str, Path]] = []
    for path in src.rglob("*"):
        rel = path.relative_to(src)
        if any(part == "__pycache__" or part.startswith(".") for part in rel.parts):
            continue
        if path.suffix in {".pyc", ".pyo"} or not path.is_file():
            continue
        found.append((f"{PACKAGE}/{rel.as_posix()}", path))
    return sorted(found)


def _metadata(name: str, version: str, requires_python: str | None) -> bytes:
    lines = ["Metadata-Version: 2.1", f"Name: {name}", f"Version: {version}", f"Summary: {SUMMARY}"]
    if requires_python:
        lines.append(f"Requires-Python: {requires_python}")
    return ("\n".join(lines) + "\n").encode()


def _wheel_file() -> bytes:
    return (
        "Wheel-Version: 1.0\n"
        "Generator: kickline tools/build_wheel.py\n"
        "Root-Is-Purelib: true\n"
        f"Tag: {TAG}\n"
    ).encode()


def _record(files: Sequence[tuple[str, bytes]], record_name: str) -> bytes:
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    for arcname, data in files:
        digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
        writer.writerow([arcname, f"sha256={digest}", len(data)])
    writer.writerow([record_name, "", ""])  # RECORD cannot hash itself.
    return buf.getvalue().encode()


def _zip(files: Sequence[tuple[str, bytes]]) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        for arcname, data in files:
            info = zipfile.ZipInfo(arcname, date_time=ZIP_EPOCH)
            info.create_system = _UNIX
            info.external_attr = 0o100644 << 16  # regular file, rw-r--r--
            info.compress_type = zipfile.ZIP_DEFLATED
            zf.writestr(info, data, compresslevel=9)
    return buf.getvalue()


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument(
        "--out", type=Path, default=DEFAULT_OUT, help="output directory (default: client/build/)"
    )
    args = parser.parse_args(argv)
    print(build_wheel(args.out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
