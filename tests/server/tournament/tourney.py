"""A small driver for tournament tests: commands with fresh ids, the events kept."""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

from kickline_server.tournament import Draw, PairingInput, Refused, Tournament
from kickline_server.tournament.export import view


class Scripted:
    """A pairer that returns the draws a test wrote down (or raises the refusal written
    down instead), and records what it was asked."""

    def __init__(self, draws: Mapping[int, Draw | Refused] | None = None) -> None:
        self.draws = dict(draws or {})
        self.asked: list[PairingInput] = []

    def pair(self, inp: PairingInput) -> Draw:
        self.asked.append(inp)
        draw = self.draws[inp.round]
        if isinstance(draw, Refused):
            raise draw
        return draw


class Event:
    def __init__(self, pairer: Any = None, **settings: Any) -> None:
        self.t = Tournament("ev1")
        self.pairer = pairer if pairer is not None else Scripted()
        self.events: list[dict[str, Any]] = []
        self.n = 0
        self.do("create", settings={"name": "Club night", **settings}, seed=2)

    def cmd(self, op: str, role: str = "organiser", by: str = "org", **kw: Any
            ) -> dict[str, Any]:
        self.n += 1
        return {"op": op, "id": f"c{self.n}", "by": by, "role": role, "at": 1000.0 + self.n,
                **kw}

    def send(self, cmd: dict[str, Any]) -> dict[str, Any]:
        events, reply = self.t.handle(cmd, self.pairer)
        self.events += copy.deepcopy(events)
        return reply

    def do(self, op: str, role: str = "organiser", by: str = "org", **kw: Any
           ) -> dict[str, Any]:
        return self.send(self.cmd(op, role, by, **kw))

    def join(self, name: str, rating: int | None = None, **kw: Any) -> int:
        pid: int = self.do("join", role="player", by=f"acc-{name}", name=name,
                           rating=rating, **kw)["pid"]
        return pid

    def play(self, rnd: int, board: int, winner: str | None, goals: tuple[int, int],
             shootout: bool = False) -> None:
        b = self.t.round(rnd).board(board)
        self.do("result", role="system", round=rnd, board=board, match=b.match,
                result={"kind": "played", "winner": winner, "goals": list(goals),
                        "shootout": shootout})

    def replayed(self) -> Tournament:
        t = Tournament(self.t.id)
        for e in copy.deepcopy(self.events):
            t.apply(e)
        return t

    def view(self) -> dict[str, Any]:
        return view(self.t, organiser=True)
