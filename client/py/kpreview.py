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
from kickline import local as _local
from kickline.odds import decision_odds
from kickline.preview import state_from_view

# A search bot's thinking cap in the browser, where a decision must take at most 2 s.
# At its full budget `strongest` needs 0.77 s of CPU a decision on average and 1.02 s at
# most over 60 under Pyodide on the server's machine (1.8-1.9 times its CPython time;
# docs/BOTS.md), so the cap binds on a slower or busier device and on the rare longest.
# The search reads the clock between playouts, so it overruns the cap by a playout or a
# row of its secret-choice matrix and the solve: 0.29 s at most measured, and the rest
# is the margin.
BOT_SECONDS = 1.5


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


def odds(view_json: str) -> str:
    """The exact odds of the seat's decisions in this view (``kickline.odds``), ``{}``
    when none has any.  Computed on the view, so it knows only what the seat knows."""
    v = json.loads(view_json)
    seat = v.get("seat")
    if seat is None:
        return "{}"
    try:
        return json.dumps(decision_odds(state_from_view(v), seat))
    except (KeyError, TypeError, ValueError):
        return "{}"


# The server's dice seed with the players' contributions (server/kickline_server/dice.py,
# docs/PROTOCOL.md "Provably fair dice"): sha256(DOMAIN + seed + c0 + c1), a seat
# without a contribution counting as 32 zero bytes.
DICE_DOMAIN = b"kickline dice v1\x00"


def dice_seed(seed: bytes, contributions: list[str | None] | None) -> bytes:
    if contributions is None:  # a match from before contributions: the seed alone
        return seed
    parts = [DICE_DOMAIN, seed]
    for c in contributions:
        parts.append(bytes(32) if c is None else bytes.fromhex(c))
    return hashlib.sha256(b"".join(parts)).digest()


def verify(config_json: str, seed_hex: str, log_json: str, seat: int | None,
           contributions_json: str = "null") -> str:
    """Replay a finished match's public log, checking every die against the seed.

    The same algorithm as the server's ``dice.verify``: ``random.Random`` seeded with the
    dice seed as a big-endian integer, ``randrange`` of the total weight per chance
    event.  Returns ``{"ok", "error", "views"}``; ``views`` are the seat's views after
    each decision and, last, the final position, for the replay screen.
    """
    game = kickline.GAME
    log = json.loads(log_json)
    seed = dice_seed(bytes.fromhex(seed_hex), json.loads(contributions_json))
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
    # The dice after the last decision (a shootout's kicks) lead to the final position.
    views.append({"d": None, "s": None, "view": game.view(state, seat)})
    return json.dumps({"ok": True, "error": None, "views": views,
                       "result": game.result(state)})


def local(fn: str, args_json: str) -> str:
    """Offline play (``kickline.local``): ``new`` {config, seats, seed}; ``step``
    {match}; ``decide`` {match, seat, decision}; ``show`` {match, seat, events}.  Returns
    ``{"match", "events"}`` (``show``: what the seat sees), or ``{"error"}`` for a
    decision the rules refuse (nothing changes)."""
    a = json.loads(args_json)
    try:
        if fn == "new":
            out: Any = {"match": _local.new_match(a["config"], a["seats"], a["seed"]),
                        "events": []}
        elif fn == "step":
            m, events = _local.step(a["match"], clock=time.monotonic, seconds=BOT_SECONDS)
            out = {"match": m, "events": events, "humans": _local.humans_to_act(m)}
        elif fn == "decide":
            m, events = _local.decide(a["match"], a["seat"], a["decision"])
            out = {"match": m, "events": events, "humans": _local.humans_to_act(m)}
        elif fn == "show":
            out = _local.show(a["match"], a["seat"], a.get("events", ()))
            out["humans"] = _local.humans_to_act(a["match"])
        else:
            raise KeyError(fn)
    except ValueError as exc:
        return json.dumps({"error": str(exc)})
    return json.dumps(out)


# ---------------------------------------------------------------------------
# Local matches: the whole match in the page, no server (the tutorial; offline play).
#
# The worker holds each local match; the page sends the human's decisions and gets back
# the same ``prompt`` message the server would send, so the match screen cannot tell the
# difference.  Dice come from the match's plan (the tutorial's scripted dice) or else a
# seeded ``random.Random``; the other seat plays the plan's decisions where they are
# legal, else the greedy bot on its own view.  The log has the server's format, so a
# local match is resumed by replaying it.

_hosted: dict[str, dict[str, Any]] = {}


def _local_prompt(g: dict[str, Any], events: list[Any]) -> dict[str, Any]:
    game, s, seat = kickline.GAME, g["state"], g["seat"]
    start = g["next"]
    g["events"] += len(events)
    g["next"] = g["events"]
    kind, seats, secret = kickline.to_act(s)
    over = kind == "over"
    return {"t": "prompt", "match": g["id"], "game": "kickline", "seat": seat,
            "status": "over" if over else "playing", "version": s.version,
            "view": game.view(s, seat), "events": game.redact(events, seat),
            "from": start, "next": g["next"],
            "to_act": {"kind": kind, "seats": list(seats), "secret": secret},
            "legal": list(kickline.legal(s, seat)) if kind == "decide" and seat in seats else [],
            "turns": [0, 0], "clock": None, "players": g["players"], "commit": None,
            "code": None, "local": True, "result": game.result(s) if over else None}


def _advance(g: dict[str, Any]) -> list[Any]:
    """Run chance and the other seat until the human owes a decision or the match ends."""
    from kickline.bots import greedy_bot

    game, plan = kickline.GAME, g["plan"]
    out: list[Any] = []
    while True:
        s = g["state"]
        kind, seats, _secret = kickline.to_act(s)
        if kind == "over":
            return out
        if kind == "chance":
            outcomes = [o.value for o in game.chance_outcomes(s)]
            want = plan["dice"].pop(0) if plan["dice"] else None
            value = want if want in outcomes else g["rng"].choice(outcomes)
            g["state"], events = game.apply_chance(s, value)
            g["log"].append({"k": "c", "o": value})
            out += events
            continue
        others = [x for x in seats if x != g["seat"]]
        if not others:
            return out
        other = others[0]
        legal = list(kickline.legal(s, other))
        # The plan is played in order: its next decision when it is legal now.
        if plan["opponent"] and plan["opponent"][0] in legal:
            d = plan["opponent"].pop(0)
        else:
            d = greedy_bot(game.view(s, other), legal, g["rng"])
        g["state"], events = game.apply(s, other, d)
        g["log"].append({"k": "d", "s": other, "d": d})
        out += events


def local_new(match_id: str, config_json: str, setup_json: str) -> str:
    """Start a local match.  setup: {"seat", "names": [n0, n1], "seed", "plan": {"dice",
    "opponent"}, "log"?: a saved log to resume from}.  Returns the first prompt."""
    setup = json.loads(setup_json)
    game = kickline.GAME
    g: dict[str, Any] = {
        "id": match_id, "seat": int(setup.get("seat", 0)), "config": json.loads(config_json),
        "players": [{"name": n, "bot": i != int(setup.get("seat", 0))}
                    for i, n in enumerate(setup.get("names", ["You", "Coach"]))],
        "rng": random.Random(int(setup.get("seed", 1))), "log": [], "events": 0, "next": 0,
        "plan": {"dice": list(setup.get("plan", {}).get("dice", [])),
                 "opponent": list(setup.get("plan", {}).get("opponent", []))},
    }
    g["state"] = game.setup(g["config"])
    events: list[Any] = []
    for entry in setup.get("log", []):  # resume: replay what was played
        if entry["k"] == "d":
            g["state"], ev = game.apply(g["state"], entry["s"], entry["d"])
        elif entry["k"] == "c":
            g["state"], ev = game.apply_chance(g["state"], entry["o"])
        else:
            g["state"], ev = _jumped(g["state"], entry["j"]), []
        g["log"].append(entry)
        events += ev
    _hosted[match_id] = g
    events += _advance(g)
    return json.dumps(_local_prompt(g, events))


def local_decide(match_id: str, decision: str, plan_json: str) -> str:
    """The human's decision; the plan's dice and opponent decisions come next.  Returns
    the next prompt, or ``{"t": "error", ...}`` for a refused decision (nothing changes)."""
    g = _hosted.get(match_id)
    if g is None:
        return json.dumps({"t": "error", "code": "not_found", "match": match_id})
    plan = json.loads(plan_json)
    try:
        g["state"], events = kickline.GAME.apply(g["state"], g["seat"], decision)
    except ValueError as exc:
        return json.dumps({"t": "error", "code": "illegal_decision", "match": match_id,
                           "message": str(exc)})
    g["log"].append({"k": "d", "s": g["seat"], "d": decision})
    g["plan"]["dice"] += plan.get("dice", [])
    g["plan"]["opponent"] += plan.get("opponent", [])
    events = list(events) + _advance(g)
    return json.dumps(_local_prompt(g, events))


def _jumped(s: kickline.State, changes: dict[str, Any]) -> kickline.State:
    """The state with its clock and score moved (the tutorial's "skip to the end")."""
    allowed = {k: v for k, v in changes.items() if k in ("minute", "period")}
    if "score" in changes:
        allowed["score"] = (int(changes["score"][0]), int(changes["score"][1]))
    return s._replace(**allowed)


def local_jump(match_id: str, changes_json: str) -> str:
    """Move a local match's clock and score (only the tutorial does this, to reach the
    end of a match in a few moves); kept in the log so a resume repeats it."""
    g = _hosted[match_id]
    changes = json.loads(changes_json)
    g["state"] = _jumped(g["state"], changes)
    g["log"].append({"k": "j", "j": changes})
    return json.dumps(_local_prompt(g, _advance(g)))


def local_log(match_id: str) -> str:
    """What to keep to resume the match later: its config and log."""
    g = _hosted[match_id]
    return json.dumps({"config": g["config"], "log": g["log"], "seat": g["seat"]})
