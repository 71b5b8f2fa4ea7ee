"""Build what the browser client loads besides its own sources, into ``client/build/``.

* the rules wheel (``tools/build_wheel.py``) and the preview module, content-hashed:
  ``app/kickline-<hash>.whl``, ``app/kpreview-<hash>.py``;
* Pyodide from ``client/node_modules/pyodide`` under ``pyodide/<version>/`` with a
  *trimmed* ``python_stdlib.zip``: only the modules the client imports, found by running
  the client's own start-up under Pyodide in Node (``tools/stdlib_modules.mjs``) and then
  checked by starting again on the trimmed zip;
* ``.gz`` (stdlib ``gzip``) and ``.br`` (Node's brotli, ``tools/precompress.mjs``) beside
  every file, so the server sends them without compressing per request;
* ``manifest.json``: the URLs above, for the worker and the service worker;
* the client's npm libraries under ``vendor/<package>/`` (lit-html, the renderer), at a
  fixed path the page's import map names (``client/index.html``).

Paths with a version or a content hash never change content, so the server may let
browsers keep them for a year (see ``server/kickline_server/static.py``).

Usage: ``python tools/build_client.py`` (``make client``).  Steps whose inputs did not
change are skipped.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path
from typing import Any

REPO_ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO_ROOT / "tools"))

from build_wheel import build_wheel  # noqa: E402

CLIENT = REPO_ROOT / "client"
BUILD = CLIENT / "build"
PYODIDE_SRC = CLIENT / "node_modules" / "pyodide"
PREVIEW = CLIENT / "py" / "kpreview.py"
PYODIDE_FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm")
# Imported lazily on some paths the start-up check does not take (error messages,
# codecs); tiny, so always kept.
# npm packages the page imports, and the files of each it may load (relative imports
# inside a package keep working because its layout is copied as it is).
VENDOR: dict[str, tuple[str, ...]] = {
    "lit-html": ("lit-html.js", "directive.js", "directive-helpers.js", "async-directive.js",
                 "directives/live.js", "directives/ref.js", "directives/repeat.js",
                 "directives/keyed.js", "directives/class-map.js", "directives/if-defined.js"),
}
# What of client/src/ the service worker keeps for the next visit.
SHELL_SUFFIXES = (".js", ".css", ".webmanifest", ".png", ".svg")
STDLIB_EXTRA = ("encodings/ascii.py", "encodings/latin_1.py", "encodings/utf_8_sig.py",
                "_strptime.py", "_pydatetime.py", "datetime.py")


def _digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()[:12]


def _write_if_changed(path: Path, data: bytes) -> bool:
    if path.is_file() and path.read_bytes() == data:
        return False
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    return True


def _gzip(path: Path) -> None:
    out = path.with_name(path.name + ".gz")
    if out.is_file() and out.stat().st_mtime >= path.stat().st_mtime:
        return
    # mtime=0 keeps the .gz bytes reproducible.
    out.write_bytes(gzip.compress(path.read_bytes(), compresslevel=9, mtime=0))


def _node(*args: str) -> str:
    done = subprocess.run(["node", *args], cwd=REPO_ROOT, check=True, capture_output=True,
                          text=True, timeout=600)
    return done.stdout


def _pyodide_version() -> str:
    meta = json.loads((PYODIDE_SRC / "package.json").read_text())
    return str(meta["version"])


def _trim_stdlib(wheel: Path, preview: Path, out: Path) -> None:
    """Write the trimmed stdlib zip to ``out`` unless the inputs are unchanged."""
    full = PYODIDE_SRC / "python_stdlib.zip"
    key = _digest(wheel.read_bytes() + preview.read_bytes() + full.read_bytes()[:65536]
                  + repr(STDLIB_EXTRA).encode())
    stamp = out.with_name(out.name + ".inputs")
    if out.is_file() and stamp.is_file() and stamp.read_text() == key:
        return
    used = set(json.loads(_node("tools/stdlib_modules.mjs", str(wheel), str(preview))))
    used.update(STDLIB_EXTRA)
    with zipfile.ZipFile(full) as src:
        names = src.namelist()
        keep = [n for n in names if n in used or n.startswith(("pyodide/", "_pyodide/"))
                or n.startswith("_sysconfigdata_")]
        tmp = out.with_name(out.name + ".tmp")
        with zipfile.ZipFile(tmp, "w", zipfile.ZIP_STORED) as dst:
            for n in sorted(keep):
                info = src.getinfo(n)
                if info.is_dir():
                    continue
                # Stored, not deflated: the server compresses the whole zip better than
                # per-entry deflate, and Python reads stored entries fastest.
                zi = zipfile.ZipInfo(n, date_time=(1980, 1, 1, 0, 0, 0))
                zi.external_attr = 0o644 << 16
                dst.writestr(zi, src.read(n), compress_type=zipfile.ZIP_STORED)
    check = json.loads(_node("tools/stdlib_modules.mjs", str(wheel), str(preview), str(tmp)))
    if check != {"ok": True}:
        raise RuntimeError(f"the trimmed stdlib does not run the client: {check}")
    tmp.replace(out)
    stamp.write_text(key)


def _vendor(build_dir: Path) -> None:
    """Copy the page's npm libraries to ``vendor/<package>/`` (served by our server, never
    a CDN).  Their URL carries no hash, so the server revalidates them (a 304)."""
    for package, patterns in VENDOR.items():
        src = CLIENT / "node_modules" / package
        dst = build_dir / "vendor" / package
        wanted = {f.relative_to(src) for p in patterns for f in src.glob(p)}
        if not wanted:
            raise RuntimeError(f"client/node_modules/{package} is missing: run `make setup`")
        for rel in wanted:
            _write_if_changed(dst / rel, (src / rel).read_bytes())
        for old in [f for f in dst.rglob("*.js") if f.relative_to(dst) not in wanted]:
            old.unlink()


def build(build_dir: Path = BUILD) -> dict[str, Any]:
    _vendor(build_dir)
    wheel = build_wheel(build_dir)
    wheel_bytes = wheel.read_bytes()
    app = build_dir / "app"
    app.mkdir(parents=True, exist_ok=True)
    wheel_name = f"kickline-{_digest(wheel_bytes)}.whl"
    preview_bytes = PREVIEW.read_bytes()
    preview_name = f"kpreview-{_digest(preview_bytes)}.py"
    keep = {wheel_name, preview_name}
    _write_if_changed(app / wheel_name, wheel_bytes)
    _write_if_changed(app / preview_name, preview_bytes)
    for old in app.iterdir():  # old hashes would only grow the directory
        if old.name.removesuffix(".gz").removesuffix(".br") not in keep:
            old.unlink()

    version = _pyodide_version()
    pyo = build_dir / "pyodide" / version
    pyo.mkdir(parents=True, exist_ok=True)
    for name in PYODIDE_FILES:
        src, dst = PYODIDE_SRC / name, pyo / name
        if not dst.is_file() or dst.stat().st_size != src.stat().st_size:
            shutil.copyfile(src, dst)
    _trim_stdlib(app / wheel_name, app / preview_name, pyo / "python_stdlib.zip")

    lock_info = json.loads((PYODIDE_SRC / "pyodide-lock.json").read_text())["info"]
    files = [pyo / n for n in (*PYODIDE_FILES, "python_stdlib.zip")]
    files += [app / wheel_name, app / preview_name]
    for f in files:
        _gzip(f)
    _node("tools/precompress.mjs", *(str(f) for f in files))

    manifest = {
        "pyodide": f"/build/pyodide/{version}/",
        "wheel": f"/build/app/{wheel_name}",
        "preview": f"/build/app/{preview_name}",
        "lock_info": lock_info,
        "precache": [f"/build/{f.relative_to(build_dir).as_posix()}" for f in files],
    }
    # The app's own files, for the service worker to keep, and one hash of their
    # contents that tells it when to fetch them again (client/sw.js).
    shell = {f"/{f.relative_to(CLIENT).as_posix()}": f for f in (CLIENT / "src").rglob("*")
             if f.is_file() and f.suffix in SHELL_SUFFIXES}
    shell.update({f"/build/{f.relative_to(build_dir).as_posix()}": f
                  for f in (build_dir / "vendor").rglob("*.js")})
    digest = hashlib.sha256()
    for url in sorted(shell):
        digest.update(url.encode() + b"\0" + shell[url].read_bytes())
    manifest["shell"] = sorted(shell)
    manifest["shell_hash"] = digest.hexdigest()[:16]
    _write_if_changed(build_dir / "manifest.json",
                      (json.dumps(manifest, indent=1, sort_keys=True) + "\n").encode())
    return manifest


def main() -> int:
    manifest = build()
    sizes = []
    for url in manifest["precache"]:
        p = BUILD / url.removeprefix("/build/")
        gz = p.with_name(p.name + ".gz").stat().st_size
        br = p.with_name(p.name + ".br").stat().st_size
        sizes.append(f"  {url}: {p.stat().st_size} bytes, gzip {gz}, brotli {br}")
    print("client build in", BUILD)
    print("\n".join(sizes))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
