"""Rebuild, from one seat's view, a state that asks that seat the same question.

A client receives views, not states.  ``state_from_view`` turns a view back into a
:class:`State` whose open question (the view's ``prompt``: frame and arguments) is the
server's, so the client can list the legal decisions and show a decision's immediate
consequence at once, before the server answers.  What a view hides stays unknown: the
other side's pending secret is absent, and the engine's work below the open question is
replaced by the end of the match, so a preview reaches no further than the next
question.  The server remains the authority.
"""

from __future__ import annotations

from typing import Any

from .board import Board
from .state import Ball, Config, Player, Shootout, State, Turn, parse_pid

_STATUS = {"field": "F", "bench": "B", "back-bench": "X"}
_SIDES = {"home": 0, "visitors": 1}


def _side(name: Any) -> int:
    return _SIDES.get(name, -1) if isinstance(name, str) else -1


def _player(p: Any) -> int:
    return parse_pid(p) if isinstance(p, str) else -1


def public_state(v: dict[str, Any]) -> State:
    """Every part of the state a view shows, as the view shows it: the engine's
    remaining work (its frame stack) and the rolls included, the other side's pending
    secret absent and its shootout order only as far as the view shows it.  The one
    reading of a view, shared by the preview (below) and the bots' belief
    (``bots/belief.py``).  Raises ``ValueError`` (or ``KeyError``/``TypeError``) on
    something that is not a view."""
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
    orders = tuple(tuple(parse_pid(p) for p in (o or [])) for o in so["orders"])
    shootout = Shootout(
        orders=(orders[0], orders[1]), idx=so["test"], goals=(so["goals"][0], so["goals"][1]),
        shot=(tuple(_player(p) for p in so["shot"][0]),
              tuple(_player(p) for p in so["shot"][1])),
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


def state_from_view(v: dict[str, Any]) -> State:
    """The state a view shows, with its open question on top and, below it, the end of
    the match: a preview reaches no further than the next question.  Raises
    ``ValueError`` (or ``KeyError``/``TypeError``) on something that is not a view."""
    prompt = v["prompt"]
    top = (prompt["frame"], *prompt.get("args", ()))
    return public_state(v)._replace(rolls=(), stack=(("over",), top))
