"""``kickline verify FILE``: check a finished match's record without trusting anyone.

A record is what ``GET /record/<match>.json`` serves and the end screen's "Download the
match record" saves: the config, the public log, the server's revealed dice seed and its
commitment (and, since dice contributions, each seat's commitment and contribution).
Verifying it replays the log through the rules, rolling every die from the seed
(:func:`kickline_server.dice.check_over`), and compares the result with the one the
record states.  An ``over`` message saved as it arrived verifies the same way.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from . import dice, games


class RecordError(ValueError):
    """The file is not a match record, or it does not verify; the message says which."""


def _load(path: Path) -> dict[str, Any]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise RecordError(f"cannot read {path}: {exc.strerror or exc}") from None
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise RecordError(f"{path} is not JSON: {exc}") from None
    if not isinstance(data, dict):
        raise RecordError(f"{path} is not a Kickline match record; download one from the "
                          "end screen or /record/<match>.json")
    missing = [k for k in ("config", "seed", "commit", "log") if k not in data]
    if missing:
        raise RecordError(f"{path} is not a Kickline match record (no {', '.join(missing)}); "
                          "download it from the end screen or /record/<match>.json")
    record: dict[str, Any] = data
    return record


def check(path: Path) -> str:
    """One line saying what was verified; :class:`RecordError` if it does not verify."""
    data = _load(path)
    try:
        ruleset = games.get(str(data.get("game", "kickline")))
    except games.UnknownGame as exc:
        raise RecordError(str(exc)) from None
    try:
        state = dice.check_over(ruleset.game, data)
    except (ValueError, KeyError, TypeError) as exc:
        raise RecordError(f"does not verify: {exc}") from None
    rolls = sum(1 for e in data["log"] if e.get("k") == "c")
    result = ruleset.game.result(state)
    stated = (data.get("record") or {}).get("result") if isinstance(data.get("record"), dict) \
        else (data.get("result") or None)
    note = ""
    if result is not None and isinstance(stated, dict) and "score" in stated and \
            stated["score"] is not None and list(stated["score"]) != list(result["score"]):
        raise RecordError(f"does not verify: the record states the score {stated['score']}, "
                          f"the replay ends {result['score']}")
    if result is None:
        note = " (the log stops before the end: a resignation or a forfeit)"
    else:
        hv = result.get("score_home_visitors", result["score"])
        note = f"; the replay ends {hv[0]} : {hv[1]} (home : visitors)"
    return (f"verified: the seed matches its commitment and all {rolls} rolls of "
            f"{len(data['log'])} log entries follow from it{note}")
