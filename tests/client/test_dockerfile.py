"""deploy/Dockerfile's build and start commands, run outside a container (there is no
container engine on the development machine, and building an image needs a registry of
base images): the client is built into the kickline wheel, the wheel is installed into
a fresh virtual environment, and the image's entry point serves the full client, which
a phone-sized Chromium loads and starts Pyodide from.

Each ``RUN`` of the Dockerfile runs as written, with the image's absolute paths (``/src``,
``/dist``, ``/opt``, ``/data``) moved under a temp directory and the runtime image's
``pip`` and ``kickline`` taken from a fresh venv; instructions after a
``# container-only`` comment (``apt-get``, ``useradd``: root inside an image) are
skipped.  Two steps are shortened without changing what they make: the build stage's
``npm ci`` is the checkout's own (`make setup` ran it from the same lock file), linked
in, and its venv, like the runtime's, is driven by this venv's pip instead of installing
one.  Bounded: about a minute and a half under load (a full build stage, a wheel
install, a Pyodide page load), most of it pip; the pip caches are reused.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOCKERFILE = ROOT / "deploy" / "Dockerfile"
ROOTS = ("src", "dist", "opt", "data")  # the image's top-level directories we use


@dataclass
class Instruction:
    op: str
    args: str
    stage: str
    container_only: bool


@dataclass
class Stage:
    name: str
    base: str
    steps: list[Instruction] = field(default_factory=list)


def parse(path: Path) -> list[Stage]:
    """The Dockerfile's stages and their instructions (continuation lines joined)."""
    stages: list[Stage] = []
    skip_next = False
    text = re.sub(r"\\\n", " ", path.read_text())
    for raw in text.splitlines():
        line = raw.strip()
        if not line:
            continue
        if line.startswith("#"):
            skip_next = skip_next or line == "# container-only"
            continue
        op, _, args = line.partition(" ")
        op = op.upper()
        if op == "FROM":
            base, _, name = args.partition(" AS ")
            stages.append(Stage(name.strip() or str(len(stages)), base.strip()))
            continue
        stages[-1].steps.append(Instruction(op, " ".join(args.split()), stages[-1].name,
                                            skip_next))
        skip_next = False
    return stages


def dockerignored(rel: Path) -> bool:
    patterns = [p.strip() for p in (ROOT / ".dockerignore").read_text().splitlines()
                if p.strip() and not p.startswith("#")]
    text = rel.as_posix()
    return any(text == p or text.startswith(p + "/") or
               (p.startswith("**/") and p[3:] in rel.parts) for p in patterns)


def test_the_dockerfile_is_what_the_test_runs() -> None:
    """A Node stage builds, a slim Python stage runs as a non-root user with a volume."""
    build, runtime = parse(DOCKERFILE)
    assert build.base.startswith("node:") and runtime.base.startswith("python:")
    assert "slim" in runtime.base
    ops = {(i.op, i.args.split()[0]) for i in runtime.steps}
    assert ("USER", "kickline") in ops and ("VOLUME", "/data") in ops
    assert ("ENTRYPOINT", '["kickline",') in ops
    for stage in (build, runtime):
        for i in stage.steps:
            if i.op == "COPY" and not i.args.startswith("--from"):
                *sources, _ = i.args.split()
                for s in sources:
                    assert (ROOT / s).exists(), f"COPY {s}: not in the repository"


@pytest.mark.slow
def test_dockerfile_build_and_start_outside_a_container(tmp_path: Path,
                                                        client_build: Path) -> None:
    box = tmp_path / "image"
    for r in ROOTS:
        (box / r).mkdir(parents=True)
    # The runtime image's Python: a fresh venv, driven by this venv's pip (--python), as
    # creating a venv's own pip costs more than the rest of this test's set-up.
    venv = tmp_path / "runtime-venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    pip = f"{sys.executable} -m pip --python {venv}/bin/python"
    env = {**os.environ, "PIP_DISABLE_PIP_VERSION_CHECK": "1"}
    env.pop("PYTHONPATH", None)
    # Keep the brotli quality the checkout's build already has (a Docker build cache
    # would hold the same): recompressing the wasm at another quality takes minutes.
    stamps = list(client_build.glob("pyodide/*/pyodide.asm.wasm.br.quality"))
    if stamps:
        env["KICKLINE_BR_QUALITY"] = stamps[0].read_text().strip()

    def here(text: str) -> str:
        return re.sub(r"(?<![\w.~-])/(" + "|".join(ROOTS) + r")(?=/|\s|$|\")",
                      lambda m: str(box / m.group(1)), text)

    stages = parse(DOCKERFILE)
    entry: list[str] = []
    image_env: dict[str, str] = {}
    for stage in stages:
        workdir = box
        runtime = stage is stages[-1]
        for i in stage.steps:
            if i.container_only:
                continue
            if i.op == "WORKDIR":
                workdir = Path(here(i.args))
                workdir.mkdir(parents=True, exist_ok=True)
            elif i.op == "COPY":
                words = i.args.split()
                from_stage = words[0].startswith("--from")
                *sources, dest = words[1:] if from_stage else words
                target = Path(here(dest)) if dest.startswith("/") else workdir / dest
                for s in sources:
                    src = Path(here(s)) if from_stage else ROOT / s
                    if src == target:  # the stages share one directory tree here
                        continue
                    if src.is_dir():  # a directory's contents go into dest
                        shutil.copytree(src, target, dirs_exist_ok=True, ignore=lambda d, ns, f=(
                            from_stage): [n for n in ns if not f and
                                          dockerignored((Path(d) / n).relative_to(ROOT))])
                    elif dest.endswith("/"):
                        target.mkdir(parents=True, exist_ok=True)
                        shutil.copy2(src, target / src.name)
                    else:
                        target.parent.mkdir(parents=True, exist_ok=True)
                        shutil.copy2(src, target)
                if not from_stage and "client" in sources and (workdir / "client").is_dir():
                    # The build cache: the checkout's client build, mtimes kept, so the
                    # build step finds it up to date instead of recompressing for minutes.
                    shutil.copytree(client_build, workdir / "client" / "build",
                                    dirs_exist_ok=True)
            elif i.op == "RUN":
                command = here(i.args)
                if runtime:
                    command = re.sub(r"(?<![\w/])pip ", pip + " ", command)
                elif _reuse_npm_ci(command, workdir):
                    continue
                else:
                    command = _venv_without_pip(command)
                done = subprocess.run(["bash", "-ec", command], cwd=workdir, env=env,
                                      capture_output=True, text=True, timeout=600)
                assert done.returncode == 0, f"RUN {i.args}\n{done.stdout}\n{done.stderr}"
            elif i.op == "ENV":
                for k, v in (w.split("=", 1) for w in shlex.split(i.args)):
                    image_env[k] = here(v)
            elif i.op == "ENTRYPOINT":
                entry = json.loads(i.args)
    assert not list((box / "dist").glob("*.whl")), "the runtime stage removes /dist"
    installed = venv / "lib" / f"python{sys.version_info.major}.{sys.version_info.minor}"
    assert list(installed.glob("site-packages/kickline_server/client/build/pyodide/*/*.wasm"))

    port = _free_port()
    run_env = {**env, **image_env, "KICKLINE_HOST": "127.0.0.1", "KICKLINE_PORT": str(port),
               "PATH": f"{venv}/bin:{env['PATH']}"}
    server = subprocess.Popen([f"{venv}/bin/{entry[0]}", *entry[1:]], cwd=tmp_path,
                              env=run_env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        base = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 30
        while True:
            assert server.poll() is None, server.stderr.read() if server.stderr else ""
            try:
                with urllib.request.urlopen(base + "/", timeout=2) as r:
                    assert b"<html" in r.read().lower()
                    break
            except OSError:
                assert time.monotonic() < deadline, "the server did not start"
                time.sleep(0.1)
        assert (box / "data" / "server.lock").exists()  # KICKLINE_DATA_DIR=/data
        with urllib.request.urlopen(base + "/build/manifest.json", timeout=5) as r:
            manifest = json.loads(r.read())
        with urllib.request.urlopen(base + manifest["wheel"], timeout=5) as r:
            assert r.status == 200
        page = subprocess.run(["node", str(ROOT / "tests" / "client" / "pyodide_page.mjs"),
                               base], capture_output=True, text=True, timeout=120)
        result = json.loads(page.stdout.strip().splitlines()[-1])
        assert result["ready"] and result["failed"] == [], result
    finally:
        server.terminate()
        server.wait(timeout=30)


def _reuse_npm_ci(command: str, workdir: Path) -> bool:
    """``cd client && npm ci --no-audit --no-fund`` is what `make setup` ran in the
    checkout, from the same lock file: its result is linked in rather than installed a
    second time (34 MB, some 7 s under load).  ``False`` (run it) for any other command,
    or when the checkout's install is not of this lock."""
    if command != "cd client && npm ci --no-audit --no-fund":
        return False
    ours = ROOT / "client" / "node_modules"
    lock = workdir / "client" / "package-lock.json"
    if not (ours / ".package-lock.json").is_file() or lock.read_bytes() != (
            ROOT / "client" / "package-lock.json").read_bytes():
        return False
    (workdir / "client" / "node_modules").symlink_to(ours)
    return True


def _venv_without_pip(command: str) -> str:
    """The build stage's venv, made without its own pip and driven by this venv's
    (``--python``), as for the runtime stage: installing pip into a fresh venv
    (``ensurepip``) costs more than the rest of the step's set-up, and builds the same
    wheel."""
    made = re.search(r"python3 -m venv (\S+)", command)
    if made is None:
        return command
    venv = made.group(1)
    command = command.replace(made.group(0), f"python3 -m venv --without-pip {venv}")
    return command.replace(f"{venv}/bin/pip ",
                           f"{sys.executable} -m pip --python {venv}/bin/python ")


def _free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])
