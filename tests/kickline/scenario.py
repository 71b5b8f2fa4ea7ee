"""Build positions by hand and drive the engine with scripted dice.

``Match`` wraps a state and the events it produced, so a test reads like the
laws: place the meeples, play the cards, hand over the dice, check the result.
Seat 0 is home and seat 1 the visitors in every position built here.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

import kickline
from kickline.board import HOME, VISITORS, Board
from kickline.engine import advance
from kickline.state import Ball, Player, State, Turn, parse_pid, pid

Event = dict[str, Any]


# The standard deal on board 7 (3.2, rulings 2.8): where most positions start from.
HOME_DEAL_7 = {"h0": "H1", "h1": "H2", "h3": "M1", "h4": "M2", "h6": "V1", "h7": "V2"}
VISITORS_DEAL_7 = {"v0": "V2", "v1": "V1", "v3": "M3", "v4": "M2", "v6": "H2", "v7": "H1"}


def kickoff(
    board: int = 7, mode: str = "training", teams: tuple[str, str] = ("training", "training")
) -> State:
    """A fresh match after the toss (seat 0 chose home) and two skipped setups."""
    s = kickline.new_game({"mode": mode, "board": board, "teams": list(teams)})
    s, _ = kickline.apply_chance(s, "fortune")
    s, _ = kickline.apply(s, 0, "toss home")
    s, _ = kickline.apply(s, 0, "skip")
    s, _ = kickline.apply(s, 1, "skip")
    return s


def position(
    board: int = 7,
    *,
    home: Mapping[str, str],
    visitors: Mapping[str, str],
    ball: str,
    owner: int = HOME,
    speed: int = 1,
    minute: int = 3,
    period: int = 1,
    tokens: Mapping[str, int] | None = None,
    injured: Iterable[str] = (),
    zones: Mapping[str, str] | None = None,
    arrangement: Mapping[str, str] | None = None,
    bench: Iterable[str] | None = None,
    last_poss: bool = False,
    score: tuple[int, int] = (0, 0),
    timeouts: tuple[bool, bool] = (False, False),
    carrier: str | None = None,
    mode: str = "training",
    teams: tuple[str, str] = ("training", "training"),
) -> State:
    """A turn about to start with the given meeples fielded (``{"h0": "H1", ...}``).

    Each fielded player's card zone and arrangement default to the space given;
    ``zones`` and ``arrangement`` override them.  Everyone not fielded sits on the
    bench unless named in ``bench`` (then everyone else is on the back bench).
    """
    b = Board.of(board)
    base = kickoff(board, mode, teams)
    tokens = dict(tokens or {})
    injured = set(injured)
    zones = dict(zones or {})
    arrangement = dict(arrangement or {})
    placed = {**home, **visitors}
    players = []
    for i in range(18):
        p = pid(i)
        if p in placed:
            sp = b.parse(placed[p])
            arr = b.parse(arrangement[p]) if p in arrangement else sp
            zone = zones.get(p, b.zones[arr])
            players.append(Player("F", sp, zone, arr, tokens.get(p, 0), p in injured))
        else:
            on_bench = bench is None or p in set(bench)
            players.append(Player("B" if on_bench else "X", 0, "", 0, tokens.get(p, 0),
                                  p in injured))
    state = base._replace(
        players=tuple(players),
        ball=Ball(b.parse(ball), speed, owner, parse_pid(carrier) if carrier else -1, owner),
        minute=minute,
        period=period,
        last_poss=last_poss,
        score=score,
        timeouts=timeouts,
        turn=Turn(),
        stack=(("over",), ("turn",)),
    )
    state, _ = advance(state)
    return state


def skill_test_duel(teams: tuple[str, str], *, hand: str = "h4", chal: str = "v4",
                    mode: str = "standard", cards: tuple[str, str] = ("dribble", "steal"),
                    **kw: Any) -> Match:
    """Handler ``hand`` and challenger ``chal`` alone on M2 (a few teammates elsewhere);
    the cards (Dribble v Steal: a tie) send them into a skill test."""
    home = {"h0": "H1", "h6": "V1"}
    visitors = {"v0": "V2", "v6": "H2"}
    home.pop(hand, None)
    visitors.pop(chal, None)
    home[hand], visitors[chal] = "M2", "M2"
    s = position(home=home, visitors=visitors, ball="M2", mode=mode, teams=teams, **kw)
    return Match(s).do("action maneuver", f"card {cards[0]}", f"card {cards[1]}")


def high_pass_2(teams: tuple[str, str], mode: str, **visitors: str) -> Match:
    """Home h4 on M1 throws 2, unchallenged, onto M3: the ball crosses M2 and lands on M3."""
    s = position(home={"h4": "M1", "h0": "H1"}, visitors={"v0": "V2", **visitors}, ball="M1",
                 mode=mode, teams=teams)
    m = Match(s).do("action maneuver")
    if m.frame == "send":
        m.do("send none")
    return m.do("card high-pass", "throw 2")


class Match:
    """A state plus everything it has said since the test began."""

    def __init__(self, state: State) -> None:
        self.state = state
        self.events: list[Event] = []

    # --- driving -------------------------------------------------------------
    def do(self, *decisions: str) -> Match:
        """Apply decisions in order, each by the seat that owes it (secret ones:
        the first seat still owing one)."""
        for d in decisions:
            kind, seats, _ = kickline.to_act(self.state)
            assert kind == "decide", f"expected a decision, engine waits for {kind}"
            seat = next((s for s in seats if d in kickline.legal(self.state, s)), None)
            assert seat is not None, (
                f"{d!r} is legal for nobody; legal: "
                + "; ".join(f"seat {s}: {kickline.legal(self.state, s)}" for s in seats)
            )
            self.state, ev = kickline.apply(self.state, seat, d)
            self.events += ev
        return self

    def by(self, seat: int, decision: str) -> Match:
        self.state, ev = kickline.apply(self.state, seat, decision)
        self.events += ev
        return self

    def roll(self, *dice: int | str) -> Match:
        for d in dice:
            assert kickline.to_act(self.state)[0] == "chance", (
                f"expected a roll, engine waits for {kickline.to_act(self.state)}"
            )
            self.state, ev = kickline.apply_chance(self.state, str(d))
            self.events += ev
        return self

    # --- reading -------------------------------------------------------------
    def legal(self, seat: int | None = None) -> tuple[str, ...]:
        if seat is None:
            kind, seats, _ = kickline.to_act(self.state)
            assert kind == "decide" and len(seats) == 1, f"not one seat deciding: {kind} {seats}"
            seat = seats[0]
        return kickline.legal(self.state, seat)

    @property
    def waiting(self) -> tuple[str, tuple[int, ...], bool]:
        return kickline.to_act(self.state)

    @property
    def frame(self) -> str:
        return str(self.state.stack[-1][0])

    def space(self, who: str) -> str:
        p = self.state.players[parse_pid(who)]
        return self.state.board.name(p.pos) if p.pos else ""

    def tokens(self, who: str) -> int:
        return self.state.players[parse_pid(who)].tokens

    def injured(self, who: str) -> bool:
        return self.state.players[parse_pid(who)].injured

    @property
    def ball(self) -> str:
        return self.state.board.name(self.state.ball.pos)

    @property
    def owner(self) -> int:
        return self.state.ball.owner

    @property
    def speed(self) -> int:
        return self.state.ball.speed

    def find(self, t: str) -> list[Event]:
        return [e for e in self.events if e["t"] == t]

    def last(self, t: str) -> Event:
        found = self.find(t)
        assert found, f"no {t!r} event; got {[e['t'] for e in self.events]}"
        return found[-1]

    def clear(self) -> Match:
        self.events = []
        return self


__all__ = [
    "HOME",
    "HOME_DEAL_7",
    "VISITORS",
    "VISITORS_DEAL_7",
    "Match",
    "high_pass_2",
    "kickoff",
    "position",
    "skill_test_duel",
]


# --- small generic helpers (appended for the Law 6-15 tests) -------------------------
def refused(state: State, seat: int, decision: str) -> bool:
    """True if ``decision`` by ``seat`` raises ``IllegalDecision`` and ``state`` is unchanged."""
    before = state.to_plain()
    try:
        kickline.apply(state, seat, decision)
    except kickline.IllegalDecision:
        return state.to_plain() == before
    return False


def rolling_for(state: State) -> tuple[str, str | None]:
    """What the pending d12 is for (``test``, ``contest``, ``injury`` ...) and whose it is."""
    kind, desc, _ = kickline.chance(state)
    assert kind == "d12", f"no d12 pending: {kind}"
    return str(desc["for"]), desc["player"]


__all__ += ["refused", "rolling_for"]
