"""Client benchmark: cold and warm loads of the web client in headless Chromium.

    python bench/client.py [--prompts N] [--json]

Builds the client (``tools/build_client.py``), starts ``kickline serve`` on a free
loopback port with a temporary data directory, and runs ``bench/client_run.mjs``: a
cold load (empty browser profile) then a warm one (same profile: HTTP cache and the
service worker's cache kept) and a third, "hot" one (Chromium reuses compiled wasm code
only from the third load), each through a byte-counting proxy.  For each it prints
the time to the first usable prompt (a match against the bot, from navigation to the
prompt drawn with its controls), the time until the Pyodide preview is ready, a bare
``loadPyodide`` in a worker on the same page for comparison, the bytes transferred
(all HTTP and websocket traffic, both directions), and the median time to compute the
legal decisions of a prompt in Pyodide; then each figure's ratio to the issue's target
(<= 1 meets it).  "Play against the bot" is tapped from inside the page the moment it
is enabled (a first visit types a name first).  Then a whole advanced match against the
bot through the UI at the default settings (``bench/client_taps.mjs``): the taps per
decision (target <= 1.3) and the time from the bot's reply arriving to its playback
finishing (median, p90, max).
"""

from __future__ import annotations

import argparse
import json
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))

import build_client  # noqa: E402

TAPS_TARGET = 1.3
TARGETS = {
    "first_prompt_ms": 1500.0,
    "ready_over_bare_ms": 300.0,
    "preview_median_python_ms": 10.0,
    "preview_median_roundtrip_ms": 10.0,
}
BYTES_TARGET = {"cold": 4_000_000, "warm": 50_000, "hot": 50_000}


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _serve(data: Path, port: int) -> subprocess.Popen[bytes]:
    exe = Path(sys.executable).with_name("kickline")
    cmd = [str(exe), "serve", "--host", "127.0.0.1", "--port", str(port), "--data-dir",
           str(data), "--client-dir", str(ROOT / "client")]
    proc = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 20
    while True:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=1):
                return proc
        except OSError:
            if proc.poll() is not None or time.monotonic() > deadline:
                proc.kill()
                raise RuntimeError("kickline serve did not start") from None
            time.sleep(0.1)


def _node(args: list[str], timeout: float) -> subprocess.CompletedProcess[str]:
    """Run one of the bench's browser scripts; on failure, say what it printed."""
    done = subprocess.run(["node", str(ROOT / "bench" / args[0]), *args[1:]], cwd=ROOT,
                          capture_output=True, text=True, timeout=timeout)
    if done.returncode != 0:
        raise SystemExit(f"bench/{args[0]} failed (exit {done.returncode}):\n"
                         f"{done.stdout[-1500:]}{done.stderr[-1500:]}")
    return done


def measure(prompts: int, taps: bool = True) -> dict[str, Any]:
    build_client.build()
    with tempfile.TemporaryDirectory() as tmp:
        port = _free_port()
        proc = _serve(Path(tmp), port)
        try:
            done = _node(["client_run.mjs", str(port), str(prompts)], timeout=600)
            played = _node(["client_taps.mjs", f"http://127.0.0.1:{port}"],
                           timeout=1200) if taps else None
        finally:
            proc.terminate()
            proc.wait(timeout=10)
    line = [ln for ln in done.stdout.splitlines() if ln.startswith("{")][-1]
    out: dict[str, Any] = json.loads(line)
    if played is not None:
        out["play"] = json.loads([ln for ln in played.stdout.splitlines()
                                  if ln.startswith("{")][-1])
    return out


def report(figures: dict[str, Any]) -> str:
    rows = []
    for load in ("cold", "warm", "hot"):
        if load not in figures:
            continue
        f = figures[load]
        total = f["bytes_in"] + f["bytes_out"]
        over = setup = None
        if f["preview_ready_ms"] is not None and f.get("preview_loadpyodide_part_ms") is not None:
            setup = f["preview_ready_ms"] - f["preview_loadpyodide_part_ms"]
        if f["preview_ready_ms"] is not None and f["bare_loadpyodide_ms"] is not None:
            over = f["preview_ready_ms"] - f["bare_loadpyodide_ms"]
        after_name = None
        if f.get("name_typed_at_ms") is not None:
            after_name = f["first_prompt_ms"] - f["name_typed_at_ms"]
        items = [
            ("lobby usable (Play against the bot enabled)", f.get("lobby_ready_ms"), "ms", None),
            ("time to first usable prompt", f["first_prompt_ms"], "ms", "first_prompt_ms"),
            ("  of it, after the name was typed (first visit)", after_name, "ms", None),
            ("Pyodide preview ready (worker start to ready)", f["preview_ready_ms"], "ms", None),
            ("  of which its loadPyodide", f.get("preview_loadpyodide_part_ms"), "ms", None),
            ("bare loadPyodide (fresh page, same profile after)", f["bare_loadpyodide_ms"],
             "ms", None),
            ("preview ready minus bare loadPyodide", over, "ms", "ready_over_bare_ms"),
            ("preview ready minus its own loadPyodide", setup, "ms", "ready_over_bare_ms"),
            ("bytes transferred (in + out)", total, "B", None),
            ("median preview, Python only", f["preview_median_python_ms"], "ms",
             "preview_median_python_ms"),
            ("median preview, in the worker", f["preview_median_worker_ms"], "ms",
             "preview_median_python_ms"),
            ("median preview, page round trip", f["preview_median_roundtrip_ms"], "ms",
             "preview_median_roundtrip_ms"),
        ]
        rows.append(f"{load} load (wasm sent as {f['wasm_encoding']}; "
                    f"{f['preview_prompts']} prompts previewed, "
                    f"{f['preview_unsupported_prompts']} not previewable, "
                    f"{f['preview_mismatches']} mismatches):")
        for name, value, unit, key in items:
            if value is None:
                rows.append(f"  {name:48} n/a")
                continue
            ratio = ""
            if key is not None:
                ratio = f"   ratio to target {value / TARGETS[key]:.2f}"
            elif unit == "B" and name.startswith("bytes"):
                ratio = f"   ratio to target {value / BYTES_TARGET[load]:.2f}"
            rows.append(f"  {name:48} {value:10.1f} {unit}{ratio}")
    play = figures.get("play")
    if play:
        rows.append(f"an advanced match against the bot through the UI ({play['decisions']} "
                    f"decisions, {play['auto']} answered 'no' by the client, {play['taps']} taps):")
        rows.append(f"  {'taps per decision':48} {play['taps_per_decision']:10.2f}    "
                    f"ratio to target {play['taps_per_decision'] / TAPS_TARGET:.2f}")
        # The same without the offers the client answered by itself: the decisions the
        # player was shown.
        if play.get("tapped"):
            rows.append(f"  {'taps per decision shown to the player':48} "
                        f"{play['taps'] / play['tapped']:10.2f}")
        for key, name in (("playback_median_ms", "reply arrives to playback done, median"),
                          ("playback_p90_ms", "reply arrives to playback done, p90"),
                          ("playback_max_ms", "reply arrives to playback done, max")):
            if play.get(key) is not None:
                rows.append(f"  {name:48} {play[key]:10.1f} ms")
    return "\n".join(rows)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--prompts", type=int, default=30, help="prompts to preview per load")
    ap.add_argument("--json", action="store_true", help="print the raw figures as JSON")
    ap.add_argument("--no-taps", action="store_true",
                    help="skip the whole-match taps and playback measurement")
    args = ap.parse_args()
    if shutil.which("node") is None or not Path("/usr/bin/chromium").exists():
        print("bench/client.py needs node and /usr/bin/chromium", file=sys.stderr)
        return 2
    figures = measure(args.prompts, taps=not args.no_taps)
    print(json.dumps(figures) if args.json else report(figures))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
