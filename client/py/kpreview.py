"""The client's side of the rules, run inside Pyodide (a module Web Worker).

The server sends each seat a *view* (``kickline.view``), not the full state; the rules
package rebuilds from it a state that asks the same question
(``kickline.preview.state_from_view``: the view carries the open question and its
arguments), so every prompt can be previewed.  The server is the authority in every
case: this module only offers a second opinion and a look ahead.
"""

from __future__ import annotations

import hashlib
import json
import random
import time
from typing import Any

import kickline
from kickline.preview import state_from_view


def legal(view_json: str) -> str:
    """``{"legal": [...] | null, "ms": float}``: null when there is nothing to preview
    (a spectator, or a view that does not rebuild)."""
    t0 = time.perf_counter()
    v = json.loads(view_json)
    out: list[str] | None = None
    seat = v.get("seat")
    if seat is not None:
        try:
            out = list(kickline.legal(state_from_view(v), seat))
        except (KeyError, TypeError, ValueError):
            out = None
    return json.dumps({"legal": out, "ms": (time.perf_counter() - t0) * 1000})


def consequence(view_json: str, decision: str) -> str:
    """The events a decision produces before the next die or question, or null."""
    v = json.loads(view_json)
    try:
        if v["to_act"]["secret"]:
            return "null"  # the other seat's choice is unknown: nothing to foresee
        _, events = kickline.apply(state_from_view(v), v["seat"], decision)
    except Exception:  # a preview that cannot be computed is simply not shown
        return "null"
    return json.dumps([e for e in events if e.get("t") not in ("decision", "forced")])


DICE_DOMAIN = b"kickline dice v1\x00"


def dice_seed(seed: bytes, contributions: list[str | None]) -> bytes:
    """The server's ``dice.dice_seed``: sha256 of the domain, the server's seed and each
    seat's 32-byte contribution (32 zero bytes for a seat without one)."""
    parts = [DICE_DOMAIN, seed]
    for c in contributions:
        parts.append(bytes.fromhex(c) if c is not None else bytes(32))
    return hashlib.sha256(b"".join(parts)).digest()


def verify(config_json: str, seed_hex: str, log_json: str, seat: int | None,
           contributions_json: str = "null") -> str:
    """Replay a finished match's public log, checking every die against the dice seed.

    The same algorithm as the server's ``dice.verify``: the dice seed from the server's
    seed and the players' contributions (``contributions_json``: the ``over`` message's
    list; ``null`` for a match from before contributions, whose dice came from the seed
    alone), ``random.Random`` seeded with it as a big-endian integer, ``randrange`` of
    the total weight per chance event.  Returns ``{"ok", "error", "views"}``; ``views``
    are the seat's views after each decision, for the replay screen.
    """
    game = kickline.GAME
    log = json.loads(log_json)
    seed = bytes.fromhex(seed_hex)
    contributions = json.loads(contributions_json)
    if contributions is not None:
        seed = dice_seed(seed, contributions)
    rng = random.Random(int.from_bytes(seed, "big"))
    state = game.setup(json.loads(config_json))
    views: list[Any] = []
    try:
        for i, entry in enumerate(log):
            if entry["k"] == "d":
                state, _ = game.apply(state, entry["s"], entry["d"])
                views.append({"d": entry["d"], "s": entry["s"], "view": game.view(state, seat)})
            elif entry["k"] == "c":
                outcomes = game.chance_outcomes(state)
                r = rng.randrange(sum(o.weight for o in outcomes))
                value = outcomes[-1].value
                for o in outcomes:
                    if r < o.weight:
                        value = o.value
                        break
                    r -= o.weight
                if value != entry["o"]:
                    return json.dumps({"ok": False, "views": views,
                                       "error": f"entry {i}: the seed gives {value}, "
                                                f"the log says {entry['o']}"})
                state, _ = game.apply_chance(state, value)
    except ValueError as exc:
        return json.dumps({"ok": False, "error": str(exc), "views": views})
    return json.dumps({"ok": True, "error": None, "views": views,
                       "result": game.result(state)})
