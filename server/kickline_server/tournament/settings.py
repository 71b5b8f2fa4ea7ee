"""An event's settings: format, rounds, match settings, scoring, tiebreaks and rules.

Everything here is chosen by the organiser when the event is created (and some of it
may be edited later: :data:`EDITABLE_AFTER_START`). ``Settings.from_plain`` is the one
place that checks a settings map; it refuses with a message a phone can show.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields, replace
from typing import Any

from kickline.roster import TEAMS
from kickline.state import MODES

from .errors import Refused
from .points import Scoring

FORMATS = ("swiss", "round_robin", "double_round_robin", "knockout")

TIEBREAKS = (
    "buchholz",
    "buchholz_cut1",
    "sonneborn_berger",
    "direct_encounter",
    "wins",
    "goal_difference",
    "goals_for",
    "performance",
)
"""Every tiebreak the standings know (``standings.py``), in no particular order."""

DEFAULT_TIEBREAKS: dict[str, tuple[str, ...]] = {
    "swiss": ("buchholz_cut1", "buchholz", "sonneborn_berger", "direct_encounter"),
    "round_robin": ("direct_encounter", "sonneborn_berger", "wins", "goal_difference"),
    "double_round_robin": ("direct_encounter", "sonneborn_berger", "wins", "goal_difference"),
    "knockout": (),
}

MAX_NAME = 60
MAX_ROUNDS = 30
MAX_ENTRIES = 2_000

EDITABLE_AFTER_START = frozenset({
    "name", "tiebreaks", "start_at", "entry_cap", "late_entry_until", "late_byes", "open_entry",
    "self_withdraw", "no_show_minutes", "round_minutes", "rounds", "no_show_pauses",
})
"""What an organiser may still change once round 1 is paired: nothing that changes the
games already played or how they score."""


@dataclass(frozen=True, slots=True)
class MatchSettings:
    """How each match of the event is played.

    ``teams`` is ``"own"`` (each player coaches the team they chose on entry) or one
    team id every player coaches. Clocks are the match server's: a decision clock in
    seconds and a bank of extra seconds per player."""

    mode: str = "standard"
    board: int = 7
    teams: str = "own"
    decision: int = 30
    bank: int = 300

    def __post_init__(self) -> None:
        if self.mode not in MODES:
            raise Refused("bad_settings", f"match mode must be one of {', '.join(MODES)}")
        if self.board not in (7, 9):
            raise Refused("bad_settings", "the board has 7 or 9 spaces")
        if self.teams != "own" and self.teams not in TEAMS:
            raise Refused("bad_settings", "teams must be 'own' or one of "
                          + ", ".join(sorted(TEAMS)))
        if not 5 <= self.decision <= 3600 or not 0 <= self.bank <= 36_000:
            raise Refused("bad_settings", "a decision clock is 5-3600 seconds and a bank "
                          "0-36000 seconds")

    def team_for(self, chosen: str | None) -> str:
        """The team a player coaches, given the one they chose on entry."""
        if self.teams != "own":
            return self.teams
        if self.mode == "training":
            return "training"
        return chosen if chosen in TEAMS and chosen != "training" else default_team()


def default_team() -> str:
    return sorted(t for t in TEAMS if t != "training")[0]


@dataclass(frozen=True, slots=True)
class Settings:
    name: str
    format: str = "swiss"
    rounds: int = 5  # Swiss only; the other formats' length follows from the entries
    match: MatchSettings = field(default_factory=MatchSettings)
    scoring: Scoring = field(default_factory=Scoring)
    tiebreaks: tuple[str, ...] = DEFAULT_TIEBREAKS["swiss"]
    rated: bool = False
    start_at: int | None = None  # epoch seconds, informative
    entry_cap: int | None = None
    open_entry: bool = True  # anyone signed in may join by the event's link
    check_in: bool = False  # round 1 pairs only the players who checked in
    late_entry_until: int | None = None  # last round a late entrant may start in
    late_byes: str = "half"  # what a late entrant scores for each round missed
    self_withdraw: bool = True  # players may withdraw themselves
    # A seat still empty this long after its match was made forfeits; None: at the
    # round's deadline (a league's week-long round, played when the two agree).
    no_show_minutes: float | None = 10
    round_minutes: int | None = None  # the round's deadline after its start
    unrated_rating: int = 1500  # rating performance counts an unrated opponent at this
    third_place: bool = False  # knockout: the semi-finals' losers play for third place
    annul_withdrawn: bool = False  # round robin: see Tournament.annulled
    no_show_pauses: bool = False  # a no-show sits out later rounds until back

    def __post_init__(self) -> None:
        name = " ".join(self.name.split())
        if not 1 <= len(name) <= MAX_NAME or not name.isprintable():
            raise Refused("bad_settings", f"the event's name is 1-{MAX_NAME} characters")
        if self.format not in FORMATS:
            raise Refused("bad_settings", f"format must be one of {', '.join(FORMATS)}")
        if not 1 <= self.rounds <= MAX_ROUNDS:
            raise Refused("bad_settings", f"a Swiss event has 1-{MAX_ROUNDS} rounds")
        bad = [t for t in self.tiebreaks if t not in TIEBREAKS]
        if bad or len(set(self.tiebreaks)) != len(self.tiebreaks):
            raise Refused("bad_settings", "tiebreaks are distinct names from: "
                          + ", ".join(TIEBREAKS))
        if self.entry_cap is not None and not 2 <= self.entry_cap <= MAX_ENTRIES:
            raise Refused("bad_settings", f"the entry cap is 2-{MAX_ENTRIES}")
        if self.late_byes not in ("half", "zero"):
            raise Refused("bad_settings", "late_byes is 'half' or 'zero'")
        if self.late_entry_until is not None and not 1 <= self.late_entry_until <= MAX_ROUNDS:
            raise Refused("bad_settings", "late_entry_until is a round number")
        if self.no_show_minutes is None:
            if self.round_minutes is None:
                raise Refused("bad_settings", "no_show_minutes may be empty (wait until the "
                              "round's deadline) only with a deadline: set round_minutes")
        elif not 0.1 <= self.no_show_minutes <= 240:
            raise Refused("bad_settings", "no_show_minutes is 0.1-240, or empty to wait "
                          "until the round's deadline")
        if self.round_minutes is not None and not 5 <= self.round_minutes <= 7 * 24 * 60:
            raise Refused("bad_settings", "round_minutes is 5 minutes to a week")
        if not 0 <= self.unrated_rating <= 4000:
            raise Refused("bad_settings", "unrated_rating is 0-4000")
        if self.third_place and self.format != "knockout":
            raise Refused("bad_settings", "a match for third place is for knockout events")
        if self.annul_withdrawn and self.format not in ("round_robin", "double_round_robin"):
            raise Refused("bad_settings", "annulling a withdrawn player's games is for round "
                          "robins")
        object.__setattr__(self, "name", name)

    @property
    def swiss(self) -> bool:
        return self.format == "swiss"

    def late_entry_limit(self) -> int:
        """The last round a late entrant may start in (Swiss only): half the rounds
        unless the organiser chose otherwise."""
        if not self.swiss:
            return 1
        if self.late_entry_until is not None:
            return self.late_entry_until
        return max(1, self.rounds // 2)

    @classmethod
    def from_plain(cls, plain: Any, base: Settings | None = None) -> Settings:
        """Settings from a map (the wire's and the store's form). With ``base``, the map
        holds only the fields to change."""
        if not isinstance(plain, dict):
            raise Refused("bad_settings", "settings must be a map")
        names = {f.name for f in fields(cls)}
        unknown = sorted(set(plain) - names)
        if unknown:
            raise Refused("bad_settings", f"unknown settings: {', '.join(unknown)}")
        if base is None and "name" not in plain:
            raise Refused("bad_settings", "an event needs a name")
        kw: dict[str, Any] = {}
        for key, value in plain.items():
            kw[key] = _field(key, value, base)
        if base is None:
            fmt = kw.get("format", "swiss")
            kw.setdefault("tiebreaks", DEFAULT_TIEBREAKS.get(fmt, ()))
            return cls(**kw)
        return replace(base, **kw)

    def to_plain(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for f in fields(self):
            v = getattr(self, f.name)
            if isinstance(v, MatchSettings):
                v = {g.name: getattr(v, g.name) for g in fields(v)}
            elif isinstance(v, Scoring):
                v = v.to_plain()
            elif isinstance(v, tuple):
                v = list(v)
            out[f.name] = v
        return out


def _field(key: str, value: Any, base: Settings | None) -> Any:
    def need(kind: type | tuple[type, ...], what: str) -> Any:
        if isinstance(value, bool) and kind is not bool:
            raise Refused("bad_settings", f"{key} must be {what}")
        if not isinstance(value, kind):
            raise Refused("bad_settings", f"{key} must be {what}")
        return value

    if key == "match":
        if not isinstance(value, dict):
            raise Refused("bad_settings", "match must be a map")
        known = {f.name for f in fields(MatchSettings)}
        if set(value) - known:
            raise Refused("bad_settings", "unknown match settings: "
                          + ", ".join(sorted(set(value) - known)))
        for k, v in value.items():
            if k in ("board", "decision", "bank") and (isinstance(v, bool)
                                                       or not isinstance(v, int)):
                raise Refused("bad_settings", f"match.{k} must be a whole number")
            if k in ("mode", "teams") and not isinstance(v, str):
                raise Refused("bad_settings", f"match.{k} must be text")
        start = base.match if base is not None else MatchSettings()
        return replace(start, **value)
    if key == "scoring":
        return Scoring.from_plain(value)
    if key == "tiebreaks":
        if not isinstance(value, list | tuple) or not all(isinstance(t, str) for t in value):
            raise Refused("bad_settings", "tiebreaks is a list of names")
        return tuple(value)
    if key in ("name", "format", "late_byes"):
        return need(str, "text")
    if key in ("rated", "check_in", "self_withdraw", "open_entry", "third_place",
               "annul_withdrawn", "no_show_pauses"):
        return need(bool, "true or false")
    if key in ("start_at", "entry_cap", "late_entry_until", "round_minutes"):
        return None if value is None else need(int, "a whole number or null")
    if key == "no_show_minutes":
        return None if value is None else need((int, float), "a number of minutes or null")
    return need(int, "a whole number")
