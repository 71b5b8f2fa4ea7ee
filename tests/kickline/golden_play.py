"""Golden playthroughs: replay a recorded match and print it step by step.

A golden file is JSON Lines.  The first line is a header (config, how the inputs
were made); then one line per step: the input applied (a seat's decision or a
chance outcome), the events, both seats' legal decisions, and what changed in
the state's plain form and in both seats' views (top-level keys whose value
changed, recursively; step 0 holds them whole).  Replaying the inputs must print the file
byte for byte, on CPython and under Pyodide alike (this script uses only the
standard library and kickline).

    python golden_play.py FILE          # print the replay of FILE's inputs
    python golden_play.py --make [STEM...]  # (re)write golden files from their seeds
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import kickline

HERE = Path(__file__).resolve().parent
GOLDEN_DIR = HERE / "golden"
# (file stem, board, bots per seat, seed, mode, teams by seat): a handful of matches on
# both boards in each mode. In standard and advanced mode each species team plays once on
# each seat, across the two boards.
TRAINING = ("training", "training")
MATCHES: list[tuple[str, int, tuple[str, str], str, str, tuple[str, str]]] = [
    ("b7-greedy-greedy-1", 7, ("greedy", "greedy"), "golden-1", "training", TRAINING),
    ("b7-random-greedy-2", 7, ("random", "greedy"), "golden-2", "training", TRAINING),
    ("b7-greedy-random-3", 7, ("greedy", "random"), "golden-3", "training", TRAINING),
    ("b9-greedy-greedy-4", 9, ("greedy", "greedy"), "golden-4", "training", TRAINING),
    ("b9-random-greedy-5", 9, ("random", "greedy"), "golden-5", "training", TRAINING),
    ("b9-greedy-random-6", 9, ("greedy", "random"), "golden-6", "training", TRAINING),
]
for _mode in ("standard", "advanced"):
    for _board, _pairs in ((7, (("cyborgs", "fire-demons"), ("oozes", "telekinetics"))),
                           (9, (("fire-demons", "cyborgs"), ("telekinetics", "oozes")))):
        for _a, _b in _pairs:
            MATCHES.append((f"{_mode}-b{_board}-{_a}-{_b}", _board, ("greedy", "random"),
                            f"golden-{_mode}-{_a}-{_b}", _mode, (_a, _b)))


def dumps(obj: Any) -> str:
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=True)


def _delta(old: Any, new: Any) -> Any:
    """What changed from ``old`` to ``new``: dicts by key, equal-length lists by
    index (keys ``"[i]"``), anything else whole."""
    if isinstance(old, dict) and isinstance(new, dict) and old.keys() == new.keys():
        return {k: _delta(old[k], v) for k, v in new.items() if old[k] != v}
    if isinstance(old, list) and isinstance(new, list) and len(old) == len(new) and new:
        return {f"[{i}]": _delta(a, b) for i, (a, b) in enumerate(zip(old, new, strict=True))
                if a != b}
    return new


def replay(header: dict[str, Any], inputs: list[list[Any]]) -> list[str]:
    """The golden lines for ``inputs`` applied from a new game of ``header['config']``."""
    s = kickline.new_game(header["config"])
    lines = [dumps(header)]
    prev: dict[str, Any] = {}

    def record(step: int, inp: list[Any] | None, events: list[dict[str, Any]]) -> None:
        now = {
            "state": s.to_plain(),
            "view0": kickline.view(s, 0),
            "view1": kickline.view(s, 1),
        }
        rec: dict[str, Any] = {"step": step, "input": inp, "events": events}
        for seat in (0, 1):
            red = kickline.redact(events, seat)
            if red != events:
                rec[f"events{seat}"] = red
        for key, value in now.items():
            rec[key] = _delta(prev[key], value) if key in prev else value
        kind, seats, secret = kickline.to_act(s)
        rec["to_act"] = [kind, list(seats), secret]
        rec["legal0"] = list(kickline.legal(s, 0))
        rec["legal1"] = list(kickline.legal(s, 1))
        prev.update(now)
        lines.append(dumps(rec))

    record(0, None, [])
    for step, inp in enumerate(inputs, 1):
        if inp[0] == "chance":
            s, ev = kickline.apply_chance(s, inp[1])
        else:
            s, ev = kickline.apply(s, inp[0], inp[1], version=s.version)
        record(step, inp, ev)
    return lines


def read(path: Path) -> tuple[dict[str, Any], list[list[Any]]]:
    lines = path.read_text(encoding="ascii").splitlines()
    header = json.loads(lines[0])
    inputs = [json.loads(line)["input"] for line in lines[2:]]
    return header, inputs


def make(board: int, bots: tuple[str, str], seed: str, mode: str = "training",
         teams: tuple[str, str] = TRAINING) -> list[str]:
    from kickline.simulate import play_match
    from kickline.state import Config

    log: list[tuple[int, str]] = []
    play_match(Config(mode, board, teams), bots, seed, log=log)
    inputs = [["chance", d] if seat < 0 else [seat, d] for seat, d in log]
    header = {"golden": 1, "config": {"mode": mode, "board": board, "teams": list(teams)},
              "bots": list(bots), "seed": seed}
    return replay(header, inputs)


def main(argv: list[str]) -> int:
    if argv and argv[0] == "--make":
        GOLDEN_DIR.mkdir(exist_ok=True)
        only = set(argv[1:])  # stems to rewrite; all when none are named
        for stem, board, bots, seed, mode, teams in MATCHES:
            if only and stem not in only:
                continue
            text = "\n".join(make(board, bots, seed, mode, teams)) + "\n"
            (GOLDEN_DIR / f"{stem}.jsonl").write_text(text, encoding="ascii")
            print(f"{stem}: {text.count(chr(10)) - 2} steps, {len(text)} bytes")
        return 0
    for name in argv:
        header, inputs = read(Path(name))
        sys.stdout.write("\n".join(replay(header, inputs)) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
