"""The match state: an immutable value with a lossless plain form.

A :class:`State` never changes.  The engine works on a private mutable
:class:`Ctx` copied from it and freezes a new ``State`` at the end of every
``apply``.  ``State.to_plain()`` gives dicts, lists, ints, strings, booleans and
``None`` only (what msgpack carries); ``State.from_plain`` reads it back and
checks it.  The plain form is versioned by ``PLAIN_FORMAT``; docs/STATE.md
describes it field by field.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple, TypeVar

from . import rulings as R
from .board import Board
from .roster import ROLE_SKILLS, SQUAD_ROLES, TEAMS, PlayerCard, Team

PLAIN_FORMAT = 1
MODES = ("training", "standard", "advanced")  # 18.1.1


class Player(NamedTuple):
    status: str  # "F" fielded, "B" bench, "X" back bench (retired for the half)
    pos: int  # space index, 0 off the field
    zone: str  # the zone the card is assigned to ("" off the field)
    arr: int  # the space the arrangement puts the meeple on (0 off the field)
    tokens: int  # exhaustion tokens
    injured: bool


class Ball(NamedTuple):
    pos: int
    speed: int  # 1-12 (7.1.1)
    owner: int  # side in possession, -1 while nobody holds it
    carrier: int  # player index the last resolution left it with (4.2), -1 none
    last: int  # side that last had the ball (10.2.1)


class Turn(NamedTuple):
    side: int = -1  # side in possession when the turn began (12.1.1)
    handler: int = -1
    challenger: int = -1
    off_card: str = ""
    def_card: str = ""
    cost: int = 0  # space minutes charged at the end of the turn (4.4.3)
    np_kind: str = ""  # new play, if the turn made one: goal, miss, own-goal, ...
    np_side: int = -1  # side restarting play
    speed_step: int = -1  # player who sets the speed after the run back (6.9.3)
    test: str = ""  # "O"/"D": whose maneuver the skill test is for; "" no test
    # Advanced mode only (Law 19); the plain form leaves them out while they are unset,
    # so a training or standard state keeps the ten-item turn it always had.
    double: int = -1  # the Double Team's challenger whose help lasts to a new play (19.10.4)
    partner: int = -1  # ... and the partner who challenges beside them
    beaten: str = ""  # a beaten gambit whose cost waits for the turn's end (19.5.5, 19.6.5)
    resolved: str = ""  # advanced mode: the card the maneuver resolved as, at its tier (19.4)


TURN_BASE = 10  # the turn's plain length before the advanced-mode fields


def turn_plain(t: Turn) -> list[Any]:
    """The turn as a list, without trailing advanced-mode fields still at their default."""
    out = list(t)
    while len(out) > TURN_BASE and out[-1] == Turn._field_defaults[Turn._fields[len(out) - 1]]:
        out.pop()
    return out


class Shootout(NamedTuple):
    orders: tuple[tuple[int, ...], tuple[int, ...]] = ((), ())
    idx: int = 0  # tests taken in the current round
    goals: tuple[int, int] = (0, 0)  # shootout goals this round
    shot: tuple[tuple[int, ...], tuple[int, ...]] = ((), ())  # sudden death: shot this round
    sudden: bool = False
    current: tuple[int, int] = (-1, -1)  # the pair now shooting


@dataclass(frozen=True, slots=True)
class Config:
    mode: str = "training"
    board: int = 7
    teams: tuple[str, str] = ("training", "training")
    home: int | None = None
    """The seat that plays home when a pairing decides it (a tournament: home is the
    pairing's white); ``None``: the coin toss decides (3.1.2-3.1.3)."""

    def __post_init__(self) -> None:
        if self.mode not in MODES:
            raise ValueError(f"mode must be one of {', '.join(MODES)}, not {self.mode!r}")
        if self.board not in (7, 9):
            raise ValueError(f"board must be 7 or 9, not {self.board!r}")
        if len(self.teams) != 2 or any(t not in TEAMS for t in self.teams):
            raise ValueError(f"teams must be two of {', '.join(sorted(TEAMS))}")
        if self.home not in (None, 0, 1) or isinstance(self.home, bool):
            raise ValueError("home must be seat 0 or 1 (or absent: the toss decides)")

    @classmethod
    def from_plain(cls, plain: Any) -> Config:
        if not isinstance(plain, dict):
            raise ValueError("config must be a mapping")
        unknown = set(plain) - {"mode", "board", "teams", "home"}
        if unknown:
            raise ValueError(f"unknown config keys: {', '.join(sorted(unknown))}")
        teams = plain.get("teams", ("training", "training"))
        if not isinstance(teams, list | tuple) or len(teams) != 2:
            raise ValueError("teams must be a list of two team ids")
        board = plain.get("board", 7)
        if not isinstance(board, int) or isinstance(board, bool):
            raise ValueError("board must be an integer")
        mode = plain.get("mode", "training")
        if not isinstance(mode, str):
            raise ValueError("mode must be text")
        home = plain.get("home")
        if home is not None and (not isinstance(home, int) or isinstance(home, bool)):
            raise ValueError("home must be seat 0 or 1")
        return cls(mode, board, (str(teams[0]), str(teams[1])), home)

    def to_plain(self) -> dict[str, Any]:
        out: dict[str, Any] = {"mode": self.mode, "board": self.board,
                               "teams": list(self.teams)}
        if self.home is not None:  # absent unless set: older states and logs stay as they were
            out["home"] = self.home
        return out


Frame = tuple[Any, ...]


PIDS = tuple(("h", "v")[i // 9] + str(i % 9) for i in range(18))


def pid(i: int) -> str:
    """A player's text id: side letter and roster slot, ``h0``-``h8``, ``v0``-``v8``."""
    return PIDS[i]


def parse_pid(s: str) -> int:
    return (0 if s[0] == "h" else 9) + int(s[1])


def side_of(i: int) -> int:
    return i // 9


def role(i: int) -> str:
    return SQUAD_ROLES[i % 9]


class Reads:
    """Read-only questions about a match, shared by :class:`State` and the engine's
    working copy, so asking who acts or what is legal never copies anything."""

    __slots__ = ()

    home_seat: int
    players: Sequence[Player]
    ball: Ball
    turn: Turn
    secret: tuple[str, str]
    shootout: Shootout
    last_poss: bool
    timeouts: tuple[bool, bool]
    subs: tuple[int, int]
    score: tuple[int, int]
    B: Board

    def seat(self, side: int) -> int:
        return side if self.home_seat == 0 else 1 - side

    config: Config

    def team_of(self, side: int) -> Team:
        """The team a side fields: each coach (seat) picked one, and the toss decided
        which side that coach plays (config.teams is in seat order)."""
        return TEAMS[self.config.teams[self.seat(side)]]

    def card(self, i: int) -> PlayerCard:
        """The roster card of player ``i`` (rulings 6.3)."""
        return self.team_of(i // 9).players[i % 9]

    def species(self, i: int) -> str:
        """The species whose ability player ``i`` plays (20.1), "" in training mode,
        where species is only a name on the card (18.1.1a)."""
        return _traits(self).species[i]

    def ability(self, i: int) -> str:
        """Player ``i``'s personal ability id (21.1.1): advanced mode only."""
        return _traits(self).ability[i]

    def off(self, i: int) -> int:
        return ROLE_SKILLS[role(i)][0]

    def dfn(self, i: int) -> int:
        """The defensive skill; an advanced skill replaces the role's in advanced mode
        (21.2.1, rulings 6.2: the five house advanced skills are all defensive)."""
        return _traits(self).dfn[i]

    def fielded(self, side: int) -> list[int]:
        base = side * 9
        return [i for i in range(base, base + 9) if self.players[i].status == "F"]

    def on_space(self, side: int, pos: int) -> list[int]:
        base = side * 9
        ps = self.players
        return [i for i in range(base, base + 9) if ps[i].status == "F" and ps[i].pos == pos]

    def exhausted(self, i: int) -> bool:
        """15.2.1: more tokens than defensive skill.  A Cyborg is Drained, which counts
        as Exhausted everywhere, at 7 drain (Bulwark 10) whatever the skill, and is
        never Exhausted below it (20.3.3, 21.4.1)."""
        p = self.players[i]
        return not p.injured and p.tokens >= _traits(self).exhausted_at[i]

    def sp(self, pos: int) -> str:
        return self.B.names[pos]

    def two_nearest(self, side: int, target: int) -> list[int]:
        """9.2 (rulings 2.5, RULING_NEAREST_IS_PHYSICAL)."""
        ps = self.players
        cands = [i for i in self.fielded(side) if ps[i].pos != target
                 and (R.RULING_INJURED_MAY_BE_SENT or not ps[i].injured)]
        left = [ps[i].pos for i in cands if ps[i].pos < target]
        right = [ps[i].pos for i in cands if ps[i].pos > target]
        out: list[int] = []
        if left:
            lp = max(left)
            out += [i for i in cands if ps[i].pos == lp]
        if right:
            rp = min(right)
            out += [i for i in cands if ps[i].pos == rp]
        return sorted(out)



class Traits(NamedTuple):
    """What a match setting (config and home seat) fixes about each of its 18 players:
    what :meth:`Reads.species`, :meth:`Reads.ability` and :meth:`Reads.dfn` answer, and
    the tokens at which :meth:`Reads.exhausted` turns true."""

    species: tuple[str, ...]
    ability: tuple[str, ...]
    dfn: tuple[int, ...]
    exhausted_at: tuple[int, ...]


def traits_of(r: Reads) -> Traits:
    """``r``'s players' traits, read off their cards and the mode."""
    mode = r.config.mode
    species, ability, dfn, at = [], [], [], []
    for i in range(18):
        card = r.card(i)
        kind = "" if mode == "training" else r.team_of(i // 9).species
        skill = ROLE_SKILLS[role(i)][1]
        if mode == "advanced" and card.adv_def is not None:
            skill = card.adv_def
        own = card.ability if mode == "advanced" else ""
        species.append(kind)
        ability.append(own)
        dfn.append(skill)
        if kind == "Cyborg":
            at.append(R.BULWARK_DRAINED_AT if own == "bulwark" else R.DRAINED_AT)
        else:
            at.append(skill + 1)  # more tokens than the skill
    return Traits(tuple(species), tuple(ability), tuple(dfn), tuple(at))


ReadsT = TypeVar("ReadsT", bound=Reads)
T = TypeVar("T")


def per_setting(make: Callable[[ReadsT], T]) -> Callable[[ReadsT], T]:
    """``make(r)``, a function of ``r``'s match setting (config and home seat) alone,
    worked out once per setting instead of at every question (the engine asks thousands
    of times a match, a search bot's playouts millions).  A match's states share one
    config object, so the usual look-up is an identity check, not a hash."""
    values: dict[tuple[Config, int], T] = {}
    # (config, home seat, value), one slot written in one step: threads share it.
    last: list[tuple[Config, int, T] | None] = [None]

    def of(r: ReadsT) -> T:
        hit = last[0]
        if hit is not None and hit[0] is r.config and hit[1] == r.home_seat:
            return hit[2]
        key = (r.config, r.home_seat)
        if key in values:
            value = values[key]
        else:
            if len(values) >= 64:
                values.clear()
            value = values[key] = make(r)
        last[0] = (r.config, r.home_seat, value)
        return value

    return of


_traits = per_setting(traits_of)


class _StateFields(NamedTuple):
    """The fields of a :class:`State`, in order.  A named tuple, not a frozen dataclass:
    the engine freezes a new state at every ``apply``, and a tuple is built in one step
    where a frozen dataclass sets its 17 fields one ``object.__setattr__`` at a time
    (~2 µs of a ~40 µs step).  It is as immutable; change one with ``_replace``."""

    config: Config
    version: int
    home_seat: int  # -1 until the toss is chosen
    players: tuple[Player, ...]  # 18: home slots 0-8, then visitors slots 0-8
    ball: Ball
    minute: int
    period: int  # 1, 2; 3 is the shootout
    last_poss: bool  # 16.3: last possession declared
    timeouts: tuple[bool, bool]  # time out used this half, per side
    subs: tuple[int, int]  # substitutions left this half, per side (14.5.1)
    score: tuple[int, int]  # per side
    goals: tuple[tuple[int, int, int, int, str], ...]  # side, period, minute, player, kind
    turn: Turn
    secret: tuple[str, str]  # per side: the secret choice made, "" none yet
    rolls: tuple[int, ...]  # dice rolled but not yet read by the rule that asked
    shootout: Shootout
    stack: tuple[Frame, ...]  # what the engine still has to do, top last


class State(_StateFields, Reads):  # type: ignore[misc]  # players: a tuple is a Sequence
    """One moment of a match.  Build one with ``kickline.new_game``."""

    __slots__ = ()

    @property
    def board(self) -> Board:
        return Board.of(self.config.board)

    @property
    def B(self) -> Board:  # type: ignore[override]
        return Board.of(self.config.board)

    def seat_of(self, side: int) -> int:
        return side if self.home_seat == 0 else 1 - side

    def side_of(self, seat: int) -> int:
        return seat if self.home_seat == 0 else 1 - seat

    # ----- plain form -------------------------------------------------------
    def to_plain(self) -> dict[str, Any]:
        return {
            "format": PLAIN_FORMAT,
            "config": self.config.to_plain(),
            "version": self.version,
            "home_seat": self.home_seat,
            "players": [list(p) for p in self.players],
            "ball": list(self.ball),
            "minute": self.minute,
            "period": self.period,
            "last_poss": self.last_poss,
            "timeouts": list(self.timeouts),
            "subs": list(self.subs),
            "score": list(self.score),
            "goals": [list(g) for g in self.goals],
            "turn": turn_plain(self.turn),
            "secret": list(self.secret),
            "rolls": list(self.rolls),
            "shootout": [
                [list(o) for o in self.shootout.orders],
                self.shootout.idx,
                list(self.shootout.goals),
                [list(o) for o in self.shootout.shot],
                self.shootout.sudden,
                list(self.shootout.current),
            ],
            "stack": [list(f) for f in self.stack],
        }

    @classmethod
    def from_plain(cls, plain: Any) -> State:
        try:
            return cls._from_plain(plain)
        except (KeyError, TypeError, IndexError) as exc:
            raise ValueError(f"not a Kickline state: {exc!r}") from None

    @classmethod
    def _from_plain(cls, p: Any) -> State:
        if not isinstance(p, dict) or p.get("format") != PLAIN_FORMAT:
            raise ValueError(f"not a Kickline state of format {PLAIN_FORMAT}")
        so = p["shootout"]
        state = cls(
            config=Config.from_plain(p["config"]),
            version=_int(p["version"]),
            home_seat=_int(p["home_seat"]),
            players=tuple(
                Player(str(s), _int(pos), str(z), _int(a), _int(t), bool(i))
                for s, pos, z, a, t, i in p["players"]
            ),
            ball=Ball(*(_int(x) for x in p["ball"])),
            minute=_int(p["minute"]),
            period=_int(p["period"]),
            last_poss=bool(p["last_poss"]),
            timeouts=(bool(p["timeouts"][0]), bool(p["timeouts"][1])),
            subs=(_int(p["subs"][0]), _int(p["subs"][1])),
            score=(_int(p["score"][0]), _int(p["score"][1])),
            goals=tuple(
                (_int(a), _int(b), _int(c), _int(d), str(e)) for a, b, c, d, e in p["goals"]
            ),
            turn=Turn(*p["turn"]),
            secret=(str(p["secret"][0]), str(p["secret"][1])),
            rolls=tuple(_int(r) for r in p["rolls"]),
            shootout=Shootout(
                (tuple(so[0][0]), tuple(so[0][1])),
                _int(so[1]),
                (_int(so[2][0]), _int(so[2][1])),
                (tuple(so[3][0]), tuple(so[3][1])),
                bool(so[4]),
                (_int(so[5][0]), _int(so[5][1])),
            ),
            stack=tuple(tuple(f) for f in p["stack"]),
        )
        if len(state.players) != 18:
            raise ValueError("a state holds 18 players")
        if state.to_plain() != p:
            raise ValueError("state plain form does not round-trip (wrong field types)")
        return state


def _int(x: Any) -> int:
    if not isinstance(x, int) or isinstance(x, bool):
        raise TypeError(f"expected an integer, got {x!r}")
    return x


STATE_FIELDS: tuple[str, ...] = State._fields
