"""deploy/ checked statically: the compose file and the Caddyfile parse with the real
tools (where Debian's docker-compose and caddy are installed: `make setup` installs
them), and every KICKLINE_* variable they set is a real `kickline serve` option."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from kickline_server import config

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"


def tool(name: str) -> str:
    found = shutil.which(name)
    if found is None:
        pytest.skip(f"{name} is not installed (make setup installs it)")
    return found


def test_compose_file_is_valid_compose() -> None:
    done = subprocess.run([tool("docker-compose"), "-f", str(DEPLOY / "compose.yaml"),
                           "config"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    resolved = done.stdout
    # N server processes on one Redis with AOF, Caddy in front.
    assert len(re.findall(r"^  kickline-\d+:$", resolved, re.M)) >= 2
    assert "--appendonly" in resolved and "image: redis:" in resolved
    assert "image: caddy:" in resolved and "published: 443" in resolved


def test_caddyfile_adapts() -> None:
    done = subprocess.run([tool("caddy"), "adapt", "--config", str(DEPLOY / "Caddyfile"),
                           "--adapter", "caddyfile"], capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 0, done.stderr
    assert '"uri":"/readyz"' in done.stdout and "kickline-2:8765" in done.stdout


@pytest.mark.parametrize("name", ["compose.yaml", "Dockerfile", "kickline.service"])
def test_every_kickline_variable_in_deploy_is_an_option(name: str) -> None:
    known = {o.env for o in config.OPTIONS} | {config.ENV_PREFIX + "CONFIG"}
    used = set(re.findall(r"\bKICKLINE_[A-Z_]+\b", (DEPLOY / name).read_text()))
    used -= {"KICKLINE_DOMAIN"}  # Caddy's, not the server's
    assert used <= known, f"not kickline serve options: {sorted(used - known)}"
