"""What a bot believes: the whole state rebuilt from its own seat's view.

A view carries everything public, the engine's remaining work included, so the state it
shows can be rebuilt exactly except for what it hides: the other side's pending secret
choice (which the search enumerates, so it is left unmade here) and the unrevealed rest
of the other side's shootout order (drawn at random among the orders the view allows:
a determinisation, 17.3.1).
"""

from __future__ import annotations

import random
from typing import Any

from ..board import Board
from ..state import Ball, Config, Player, Shootout, State, Turn, parse_pid

View = dict[str, Any]

_STATUS = {"field": "F", "bench": "B", "back-bench": "X"}
_SIDES = {"home": 0, "visitors": 1}


def _side(name: Any) -> int:
    return _SIDES.get(name, -1) if isinstance(name, str) else -1


def _player(p: Any) -> int:
    return parse_pid(p) if isinstance(p, str) else -1


def believe(v: View, rng: random.Random) -> State:
    """The state ``v`` shows, with its hidden parts determinised by ``rng``."""
    cfg = Config.from_plain(v["config"])
    index = {name: i for i, name in enumerate(Board.of(cfg.board).names) if name}
    players = tuple(
        Player(_STATUS[p["status"]], index.get(p["space"], 0), p["zone"] or "",
               index.get(p["arrangement"], 0), p["tokens"], p["injured"])
        for p in v["players"]
    )
    b = v["ball"]
    ball = Ball(index.get(b["space"], 0), b["speed"], _side(b["owner"]),
                _player(b["carrier"]), _side(b["last"]))
    t = v["turn"]
    double = t.get("double_team") or []
    turn = Turn(side=_side(t["side"]), handler=_player(t["handler"]),
                challenger=_player(t["challenger"]), off_card=t["offense_card"] or "",
                def_card=t["defense_card"] or "", cost=t["cost"],
                np_kind=t["new_play"] or "", np_side=_side(t["new_play_side"]),
                speed_step=_player(t["speed_step"]), test=t["test"] or "",
                double=_player(double[0]) if double else -1,
                partner=_player(double[1]) if len(double) > 1 else -1,
                beaten=t.get("beaten") or "", resolved=t.get("resolved") or "")
    my_side = _side(v["side"])
    secret = ["", ""]
    if my_side >= 0 and v["secret"]["mine"]:
        secret[my_side] = v["secret"]["mine"]
    so = v["shootout"]
    orders = [[parse_pid(p) for p in (o or [])] for o in so["orders"]]
    other = 1 - my_side if my_side >= 0 else -1
    if other >= 0 and so["orders"][other] is not None and orders[my_side]:
        # Both orders are set (17.3.1) and the other's is shown only as far as it has
        # shot: the rest is any order of the players not yet shown.
        shown = orders[other]
        rest = [i for i in range(other * 9, other * 9 + 9)
                if players[i].status == "F" and i not in shown]
        rng.shuffle(rest)
        orders[other] = shown + rest
    shootout = Shootout(
        orders=(tuple(orders[0]), tuple(orders[1])), idx=so["test"],
        goals=(so["goals"][0], so["goals"][1]),
        shot=(tuple(_player(p) for p in so["shot"][0]), tuple(_player(p) for p in so["shot"][1])),
        sudden=so["sudden_death"],
        current=(_player(so["current"][0]), _player(so["current"][1])),
    )
    return State(
        config=cfg, version=v["version"], home_seat=v["home_seat"], players=players,
        ball=ball, minute=v["minute"], period=v["period"], last_poss=v["last_possession"],
        timeouts=(bool(v["timeouts_used"][0]), bool(v["timeouts_used"][1])),
        subs=(v["subs_left"][0], v["subs_left"][1]),
        score=(v["score"][0], v["score"][1]),
        goals=tuple((_side(g["side"]), g["period"], g["minute"], parse_pid(g["player"]),
                     g["kind"]) for g in v["goals"]),
        turn=turn, secret=(secret[0], secret[1]), rolls=tuple(v["rolls"]), shootout=shootout,
        stack=tuple(tuple(f) for f in v["stack"]),
    )
