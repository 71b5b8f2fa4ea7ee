"""A tournament as an event-sourced state machine.

The driving contract (the same as the match core's, without the clock):

1. ``t = Tournament(tid)``; replay the stored events with ``t.apply(e)``.
2. For a command (a map with ``op``, ``id``, ``by``, ``role``, ``at`` and the op's
   fields), call ``events, reply = t.handle(cmd, pairer)``. ``handle`` checks the
   command and either raises :class:`~.errors.Refused` (nothing changed) or returns
   the events it applied and the reply for the sender.
3. Persist ``events`` (append to the event's log) BEFORE sending ``reply`` or acting
   on it (creating matches, telling players). A command whose ``id`` was already
   applied returns no events and the first reply again: a resent "pair round 3"
   never pairs twice, and an answer lost in a crash can be asked for again.

``role`` is who the host says the sender is for this event: ``organiser`` (the event's
owner or a server organiser), ``player`` or ``system`` (the server itself: match
results, no-show forfeits). The machine decides what each role may do.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from . import berger, knockout
from .decide import DECIDERS
from .errors import Refused
from .model import Board, Entry, Game, Result, Round, game_of
from .pairer import Pairer, PairingInput, Player, seeds
from .settings import Settings

Event = dict[str, Any]
Command = Mapping[str, Any]

MAX_COMMAND_ID = 64


class Tournament:
    def __init__(self, tid: str) -> None:
        self.id = tid
        self.settings: Settings | None = None
        self.owner: str | None = None
        self.created_at = 0.0
        self.top_colour = "w"
        self.entries: dict[int, Entry] = {}
        self.tokens: dict[str, int] = {}
        self.accounts: dict[str, int] = {}
        self.forbidden: set[tuple[int, int]] = set()
        self.rounds: list[Round] = []
        self.bracket: list[int | None] = []
        self.closed = False
        self.replies: dict[str, dict[str, Any]] = {}
        self.version = 0  # events applied

    # -- queries --------------------------------------------------------------

    @property
    def s(self) -> Settings:
        if self.settings is None:
            raise Refused("not_found", "there is no such event")
        return self.settings

    def entry(self, pid: Any) -> Entry:
        if isinstance(pid, bool) or not isinstance(pid, int) or pid not in self.entries:
            raise Refused("not_found", "there is no such player in this event")
        return self.entries[pid]

    def numbered(self) -> list[Entry]:
        return sorted((e for e in self.entries.values() if e.number is not None),
                      key=lambda e: e.number or 0)

    def total_rounds(self) -> int:
        s = self.s
        if s.swiss:
            return s.rounds
        field = len(self.numbered()) if self.rounds else sum(
            1 for e in self.entries.values() if e.status == "active")
        field = max(field, 2)
        if s.format == "knockout":
            return knockout.rounds(field)
        return berger.rounds(field, 2 if s.format == "double_round_robin" else 1)

    def round(self, number: Any) -> Round:
        if isinstance(number, bool) or not isinstance(number, int) \
                or not 1 <= number <= len(self.rounds):
            raise Refused("not_found", "there is no such round")
        return self.rounds[number - 1]

    def current(self) -> Round | None:
        return self.rounds[-1] if self.rounds else None

    @property
    def started(self) -> bool:
        return bool(self.rounds)

    @property
    def finished(self) -> bool:
        if self.closed:
            return True
        cur = self.current()
        return cur is not None and cur.done and (
            cur.number >= self.total_rounds() or self._knockout_decided())

    def _knockout_decided(self) -> bool:
        if self.s.format != "knockout" or not self.rounds:
            return False
        alive = [p for p in self.advancing() if p is not None]
        return len(alive) <= 1

    def games(self, pid: int) -> list[Game | None]:
        """``pid``'s rounds in order (``None``: not in the event that round). A game
        against an annulled player (:meth:`annulled`) is a rest round (``free``); an
        annulled player has no rounds."""
        games = [game_of(r, pid, self.s.scoring) for r in self.rounds]
        gone = self.annulled()
        if not gone:
            return games
        if pid in gone:
            return [None] * len(games)
        return [Game(g.round, "free") if g is not None and g.kind == "game"
                and g.opponent in gone else g for g in games]

    def annulled(self) -> frozenset[int]:
        """With ``annul_withdrawn`` (round robins): the players who withdrew having
        played fewer than half their games. Their games count for nobody, as if they
        had never entered; the boards keep what happened."""
        s = self.s
        if not s.annul_withdrawn or not self.rounds:
            return frozenset()
        cycles = 2 if s.format == "double_round_robin" else 1
        scheduled = (len(self.numbered()) - 1) * cycles
        out = set()
        for e in self.entries.values():
            if e.status != "withdrawn" or e.number is None:
                continue
            played = 0
            for r in self.rounds:
                g = game_of(r, e.pid, s.scoring)
                played += g is not None and g.played
            if 2 * played < scheduled:
                out.add(e.pid)
        return frozenset(out)

    def seed_of(self) -> dict[int, int]:
        return {e.pid: e.number for e in self.numbered() if e.number is not None}

    def advancing(self) -> list[int | None]:
        played = [r for r in self.rounds if r.done]
        return knockout.advancing(self.bracket, played, self.seed_of())

    def next_round_to_pair(self) -> int:
        return len(self.rounds) + 1

    def absent_kind(self, e: Entry, rnd: int) -> str | None:
        """Why ``e`` will not be paired in round ``rnd`` (``None``: they will be)."""
        if e.status != "active":
            return "absent"
        return e.byes.get(rnd)

    def pairing_input(self, rnd: int, numbers: Mapping[int, int] | None = None
                      ) -> PairingInput:
        """What a pairer needs for round ``rnd`` (before it is paired). ``numbers``
        are the pairing numbers round 1 is about to fix."""
        s = self.s
        numbers = dict(numbers) if numbers is not None else self.seed_of()
        players = [Player(pid, n, self.entries[pid].name, self.entries[pid].rating)
                   for pid, n in sorted(numbers.items(), key=lambda kv: kv[1])]
        present: set[int] = set()
        absent: dict[int, str] = {}
        for p in players:
            kind = self.absent_kind(self.entries[p.pid], rnd)
            if kind is None:
                present.add(p.pid)
            else:
                absent[p.pid] = kind
        return PairingInput(
            name=s.name, format=s.format, rounds=self.total_rounds(), round=rnd,
            scoring=s.scoring, players=players,
            # Only the rounds before ``rnd``: a draft of ``rnd`` being paired again
            # (a player left it) is not history.
            games={p.pid: self.games(p.pid)[:rnd - 1] for p in players},
            present=frozenset(present), absent=absent,
            forbidden=frozenset(self.forbidden), top_colour=self.top_colour)

    def initial_numbers(self) -> dict[int, int]:
        """Pairing numbers for round 1: every active entry (and, where check-in is
        required, only those who checked in), by rating then name."""
        s = self.s
        playing = [e for e in self.entries.values() if e.status in ("active", "paused")
                   and (e.checked_in or not s.check_in)]
        order = seeds([(e.pid, e.name, e.rating) for e in playing])
        return {pid: i + 1 for i, pid in enumerate(order)}

    # -- commands -------------------------------------------------------------

    def handle(self, cmd: Command, pairer: Pairer | None = None
               ) -> tuple[list[Event], dict[str, Any]]:
        cid = cmd.get("id")
        if not isinstance(cid, str) or not 1 <= len(cid) <= MAX_COMMAND_ID:
            raise Refused("bad_field", f"a command needs an id of 1-{MAX_COMMAND_ID} characters")
        if cid in self.replies:
            return [], self.replies[cid]
        op = cmd.get("op")
        decide = DECIDERS.get(op) if isinstance(op, str) else None
        if decide is None:
            raise Refused("bad_field", f"unknown tournament command {op!r}")
        if op != "create" and self.settings is None:
            raise Refused("not_found", "there is no such event")
        events = decide(self, cmd, pairer)
        if not events:
            raise Refused("internal", "the command changed nothing")
        events[-1]["cmd"] = cid
        for e in events:
            self.apply(e)
        return events, self.replies[cid]

    # -- events ---------------------------------------------------------------

    def apply(self, e: Event) -> None:
        """Fold one event into the state. Events were checked when they were decided;
        applying never refuses."""
        APPLIERS[e["e"]](self, e)
        self.version += 1
        if "cmd" in e:
            self.replies[e["cmd"]] = e.get("reply", {})


def _created(t: Tournament, e: Event) -> None:
    t.settings = Settings.from_plain(e["settings"])
    t.owner = e["owner"]
    t.created_at = float(e["at"])
    t.top_colour = "w" if int(e["seed"]) % 2 == 0 else "b"


def _edited(t: Tournament, e: Event) -> None:
    t.settings = Settings.from_plain(e["settings"])


def _entered(t: Tournament, e: Event) -> None:
    entry = Entry(pid=e["pid"], name=e["name"], account=e.get("account"),
                  rating=e.get("rating"), team=e.get("team"), token=e.get("token"),
                  late=bool(e.get("late")), number=e.get("number"),
                  checked_in=bool(e.get("checked_in")))
    t.entries[entry.pid] = entry
    if entry.token:
        t.tokens[entry.token] = entry.pid
    if entry.account:
        t.accounts[entry.account] = entry.pid
    for rnd, kind in e.get("missed", {}).items():
        t.rounds[int(rnd) - 1].byes[entry.pid] = kind


def _claimed(t: Tournament, e: Event) -> None:
    entry = t.entries[e["pid"]]
    if entry.token:
        t.tokens.pop(entry.token, None)
    entry.token = None
    entry.account = e["account"]
    if e.get("rating") is not None:
        entry.rating = e["rating"]
    t.accounts[e["account"]] = entry.pid


def _status(status: str) -> Any:
    def apply(t: Tournament, e: Event) -> None:
        entry = t.entries[e["pid"]]
        entry.status = status
        if e.get("number") is not None:
            entry.number = e["number"]
        for rnd, kind in e.get("missed", {}).items():
            t.rounds[int(rnd) - 1].byes[entry.pid] = kind
    return apply


def _checked_in(t: Tournament, e: Event) -> None:
    t.entries[e["pid"]].checked_in = bool(e.get("checked_in", True))


def _bye_requested(t: Tournament, e: Event) -> None:
    byes = t.entries[e["pid"]].byes
    if e["kind"] is None:
        byes.pop(e["round"], None)
    else:
        byes[e["round"]] = e["kind"]


def _forbidden(t: Tournament, e: Event) -> None:
    pair = (min(e["a"], e["b"]), max(e["a"], e["b"]))
    if e["e"] == "forbidden":
        t.forbidden.add(pair)
    else:
        t.forbidden.discard(pair)


def _paired(t: Tournament, e: Event) -> None:
    for pid, n in e.get("numbers", {}).items():
        t.entries[int(pid)].number = n
    for pid in e.get("dropped", []):
        t.entries[pid].status = "withdrawn"
    if "bracket" in e:
        t.bracket = list(e["bracket"])
    boards = [Board(i + 1, h, a) for i, (h, a) in enumerate(e["boards"])]
    rnd = Round(e["round"], boards, {int(p): k for p, k in e["byes"].items()},
                third=e.get("third_place"))
    for num, result in e.get("forfeits", {}).items():
        rnd.boards[int(num) - 1].result = Result.from_plain(result)
    for entry in t.entries.values():
        entry.byes.pop(rnd.number, None)
    t.rounds.append(rnd)


def _pairing_edited(t: Tournament, e: Event) -> None:
    rnd = t.rounds[e["round"] - 1]
    rnd.boards = [Board(i + 1, h, a) for i, (h, a) in enumerate(e["boards"])]
    rnd.byes = {int(p): k for p, k in e["byes"].items()}


def _bye_changed(t: Tournament, e: Event) -> None:
    t.rounds[e["round"] - 1].byes[e["pid"]] = e["kind"]


def _started(t: Tournament, e: Event) -> None:
    rnd = t.rounds[e["round"] - 1]
    rnd.status = "live"
    rnd.started_at = float(e["at"])
    for num, result in e.get("forfeits", {}).items():
        rnd.boards[int(num) - 1].result = Result.from_plain(result)
    for num, match in e["matches"].items():
        rnd.boards[int(num) - 1].match = match


def _result(t: Tournament, e: Event) -> None:
    rnd = t.rounds[e["round"] - 1]
    rnd.board(e["board"]).result = Result.from_plain(e["result"])


def _repaired(t: Tournament, e: Event) -> None:
    rnd = t.rounds[e["round"] - 1]
    removed = set(e["removed"])
    rnd.boards = [b for b in rnd.boards if b.number not in removed]
    for num, h, a, match in e["boards"]:
        rnd.boards.append(Board(num, h, a, match))
    rnd.boards.sort(key=lambda b: b.number)
    for pid, kind in e["byes"].items():
        rnd.byes[int(pid)] = kind


def _closed(t: Tournament, e: Event) -> None:
    t.closed = True


APPLIERS = {
    "created": _created,
    "edited": _edited,
    "entered": _entered,
    "claimed": _claimed,
    "withdrawn": _status("withdrawn"),
    "paused": _status("paused"),
    "resumed": _status("active"),
    "checked_in": _checked_in,
    "bye_requested": _bye_requested,
    "forbidden": _forbidden,
    "allowed": _forbidden,
    "paired": _paired,
    "pairing_edited": _pairing_edited,
    "bye_changed": _bye_changed,
    "started": _started,
    "result": _result,
    "repaired": _repaired,
    "closed": _closed,
}
