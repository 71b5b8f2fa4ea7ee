"""The operator's server-only install (deploy/README.md, "Install"), followed in a fresh
venv: the server and its runtime packages and nothing else, its own client, a per-user
data directory, and a server that starts and names its client build."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SKIP = shutil.ignore_patterns(".git", ".venv", "node_modules", "build", "data", "artifacts",
                              "*.egg-info", "__pycache__", ".*_cache")


def test_make_server_installs_no_dev_tools_and_needs_no_root() -> None:
    recipe = subprocess.run(["make", "-n", "-B", "server"], cwd=ROOT, capture_output=True,
                            text=True, timeout=60)
    assert recipe.returncode == 0, recipe.stderr
    steps = recipe.stdout
    assert "pip install --disable-pip-version-check --quiet --upgrade ." in steps
    assert "npm ci --omit=dev" in steps
    for absent in ("[dev]", "apt-get", "chromium", "redis-server", "sudo", " -e "):
        assert absent not in steps, absent
    readme = (ROOT / "deploy" / "README.md").read_text()
    assert "make server" in readme and "make setup" not in readme.split("## Upgrade")[1]


@pytest.mark.slow
def test_the_documented_server_only_install_in_a_fresh_venv(tmp_path: Path) -> None:
    # `make server` is npm ci --omit=dev, then pip install . (whose build step builds the
    # client into the package).  Followed here on a copy of the working tree, as a clone
    # would be, with the client's npm packages and build reused (the build is
    # incremental: unchanged inputs are not rebuilt), then pip into a fresh venv.
    import build_client

    print("building the client (incremental)", flush=True)
    build_client.build()
    src = tmp_path / "kickline"
    shutil.copytree(ROOT, src, ignore=SKIP)
    shutil.copytree(ROOT / "client" / "build", src / "client" / "build")
    (src / "client" / "node_modules").symlink_to(ROOT / "client" / "node_modules")
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=120)
    print("installing the server into a fresh venv (pip may use its cache)", flush=True)
    pip = subprocess.run([str(venv / "bin" / "python"), "-m", "pip", "install", "--quiet",
                          "--disable-pip-version-check", "--upgrade", str(src)],
                         capture_output=True, text=True, timeout=600)
    assert pip.returncode == 0, pip.stderr[-2000:]
    listed = subprocess.run([str(venv / "bin" / "python"), "-m", "pip", "list",
                             "--format=freeze", "--disable-pip-version-check"],
                            capture_output=True, text=True, check=True, timeout=120).stdout
    installed = {line.split("==")[0].lower() for line in listed.split()}
    assert {"kickline", "websockets", "anyio", "msgpack", "redis"} <= installed
    assert not installed & {"pytest", "mypy", "ruff", "hypothesis", "playwright"}

    kickline = venv / "bin" / "kickline"
    version = subprocess.run([str(kickline), "--version"], capture_output=True, text=True,
                             check=True, timeout=60).stdout
    assert version.strip() == "kickline 0.1.0"

    # Step 4: from anywhere, it serves its own client, with the per-user data directory.
    home = tmp_path / "home"
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "XDG_DATA_HOME")}
    proc = subprocess.Popen([str(kickline), "serve", "--port", "0"], cwd=tmp_path,
                            env={**env, "HOME": str(home)}, stderr=subprocess.PIPE, text=True)
    try:
        assert proc.stderr is not None
        lines = []
        for line in proc.stderr:
            lines.append(line)
            if "kickline serving" in line:
                break
        start = lines[-1]
        assert f"data dir: {home / '.local' / 'share' / 'kickline'}" in start, lines
        packaged = re.search(r"client: (\S+) \(rules wheel kickline-[0-9a-f]+\.whl, Pyodide ",
                             start)
        assert packaged is not None, start
        assert Path(packaged.group(1)).is_relative_to(venv), start  # the installed copy
        port = int(re.search(r"http://127\.0\.0\.1:(\d+)/", start).group(1))  # type: ignore[union-attr]
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=30) as r:
            assert r.status == 200 and b"<html" in r.read().lower()
    finally:
        proc.terminate()
        proc.wait(timeout=30)
    assert proc.returncode == 0
    assert (home / ".local" / "share" / "kickline" / "kickline.sqlite3").is_file()
