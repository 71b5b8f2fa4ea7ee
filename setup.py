"""The wheel carries the built web client (see ``KicklineBuildPy``); everything else about
the package is declared in ``pyproject.toml``."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

ROOT = Path(__file__).resolve().parent
CLIENT = ROOT / "client"
# What the browser loads: the page, the service worker, the sources and the build
# (Pyodide, the trimmed stdlib, the rules wheel, precompressed siblings, the manifest).
CLIENT_FILES = ("index.html", "sw.js", "src", "build")
# build_client.py's stamps and half-written files; the unhashed rules wheel beside the
# build (tools' copy: the page loads the hashed one under app/).
SKIP = ("*.inputs", "*.tmp", "*.quality", "kickline-*-py3-none-any.whl")


class KicklineBuildPy(build_py):
    """``build_py`` that also builds the client (``tools/build_client.py``, incremental)
    and copies it into the wheel as ``kickline_server/client/``, where ``kickline serve``
    finds it.  An editable install (``pip install -e .``) skips this: it serves the
    working tree's ``client/`` instead."""

    def run(self) -> None:
        super().run()
        if getattr(self, "editable_mode", False):
            return
        if not (CLIENT / "node_modules" / "pyodide").is_dir():
            raise SystemExit("the kickline wheel carries the built web client: run `make setup` "
                             "(npm ci in client/) before building it")
        sys.path.insert(0, str(ROOT / "tools"))
        import build_client

        build_client.build()
        target = Path(self.build_lib) / "kickline_server" / "client"
        if target.exists():
            shutil.rmtree(target)
        for name in CLIENT_FILES:
            src = CLIENT / name
            if src.is_dir():
                shutil.copytree(src, target / name, ignore=shutil.ignore_patterns(*SKIP))
            else:
                target.mkdir(parents=True, exist_ok=True)
                shutil.copy2(src, target / name)


setup(cmdclass={"build_py": KicklineBuildPy})
