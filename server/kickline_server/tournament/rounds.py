"""The commands on rounds: pair (Swiss through a pairer, round robin by the Berger
table, knockout by the bracket), edit a draft (swap, flip), start, and every way a board
gets its result: the match, a no-show, the organiser's decision, a re-pairing.

Each reads the :class:`~.machine.Tournament` and the command, raises
:class:`~.errors.Refused` if it cannot be carried out, and otherwise returns the events
that record it (the last one carries the sender's reply).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from . import berger, knockout
from .checks import Command, Event, integer, not_over, organiser, swiss_only, system_or_organiser
from .errors import Refused
from .model import Board, Result, Round
from .pairer import Pairer

if TYPE_CHECKING:
    from .machine import Tournament


def pair(t: Tournament, cmd: Command, pairer: Pairer | None) -> list[Event]:
    organiser(cmd)
    s = t.s
    rnd = integer(cmd, "round", "round")
    nxt = t.next_round_to_pair()
    if rnd < nxt:
        raise Refused("already_paired", f"round {rnd} is already paired")
    if rnd > nxt:
        raise Refused("bad_round", f"round {nxt} is the next to pair")
    not_over(t)
    if rnd > t.total_rounds():
        raise Refused("event_over", f"this event has {t.total_rounds()} rounds")
    cur = t.current()
    if cur is not None and not cur.done:
        raise Refused("round_not_finished", f"round {cur.number} is not finished")
    ev: Event = {"e": "paired", "round": rnd, "reply": {"round": rnd}}
    numbers: dict[int, int] | None = None
    if rnd == 1:
        numbers = t.initial_numbers()
        if len(numbers) < 2:
            raise Refused("not_enough_players", "an event needs at least 2 players"
                          + (" who checked in" if s.check_in else ""))
        ev["numbers"] = {str(p): n for p, n in numbers.items()}
        ev["dropped"] = sorted(e.pid for e in t.entries.values()
                               if e.status != "withdrawn" and e.pid not in numbers)
    seeded = numbers if numbers is not None else t.seed_of()
    if s.swiss:
        if pairer is None:
            raise Refused("internal", "no Swiss pairer is configured")
        inp = t.pairing_input(rnd, numbers)
        draw = pairer.pair(inp)
        ev["boards"] = [list(b) for b in draw.boards]
        byes = {str(p): k for p, k in inp.absent.items()}
        if draw.bye is not None:
            byes[str(draw.bye)] = "pab"
        ev["byes"] = byes
    elif s.format == "knockout":
        _pair_knockout(t, rnd, seeded, ev)
    else:
        _pair_round_robin(t, rnd, seeded, ev)
    if not ev["boards"] and rnd == 1:
        raise Refused("not_enough_players", "nobody can be paired in this round")
    return [ev]


def _absent(t: Tournament, pid: int) -> bool:
    return t.entries[pid].status != "active"


def _forfeit_if_absent(t: Tournament, boards: list[list[int]], ev: Event) -> None:
    forfeits: dict[str, Any] = {}
    for i, (h, a) in enumerate(boards):
        gone_h, gone_a = _absent(t, h), _absent(t, a)
        if gone_h or gone_a:
            winner = None if gone_h and gone_a else ("away" if gone_h else "home")
            forfeits[str(i + 1)] = Result("forfeit", winner).to_plain()
    if forfeits:
        ev["forfeits"] = forfeits


def _absent_forfeits(t: Tournament, r: Round) -> dict[str, Any]:
    """A draft's boards that still hold a player who left (swapped in by hand, or a
    board kept when no pairing without them existed): forfeits, never matches."""
    open_boards = [b for b in r.boards if b.result is None]
    ev: Event = {}
    _forfeit_if_absent(t, [[b.home, b.away] for b in open_boards], ev)
    return {str(open_boards[int(i) - 1].number): res
            for i, res in ev.get("forfeits", {}).items()}


def _pair_round_robin(t: Tournament, rnd: int, numbers: Mapping[int, int], ev: Event
                      ) -> None:
    by_number = {n: p for p, n in numbers.items()}
    boards: list[list[int]] = []
    byes: dict[str, str] = {}
    for w, b in berger.table(len(by_number), rnd):
        if w not in by_number or b not in by_number:
            rest = by_number.get(w, by_number.get(b))
            assert rest is not None
            byes[str(rest)] = "free"
        else:
            boards.append([by_number[w], by_number[b]])
    ev["boards"] = boards
    ev["byes"] = byes
    _forfeit_if_absent(t, boards, ev)


def _pair_knockout(t: Tournament, rnd: int, numbers: Mapping[int, int], ev: Event) -> None:
    if rnd == 1:
        seeded = [p for p, _ in sorted(numbers.items(), key=lambda kv: kv[1])]
        current = knockout.bracket(seeded)
        ev["bracket"] = current
    else:
        current = t.advancing()
    home_games = {p: sum(1 for g in t.games(p) if g is not None and g.colour == "w")
                  for p in numbers}
    boards: list[list[int]] = []
    byes: dict[str, str] = {}
    for a, b in knockout.ties(current):
        if a is None or b is None:
            if a is not None or b is not None:
                byes[str(a if a is not None else b)] = "pab"
            continue
        # Home to whoever has been home less often; the better seed when equal.
        first, second = sorted((a, b), key=lambda p: (home_games[p], numbers[p]))
        boards.append([first, second])
    if t.s.third_place and len(current) == 2 and rnd >= 2:
        # The final round: the semi-finals' losers play for third place too.
        lost = knockout.losers(t.bracket, t.rounds, numbers)
        if len(lost) == 2:
            first, second = sorted(lost, key=lambda p: (home_games[p], numbers[p]))
            boards.append([first, second])
            ev["third_place"] = len(boards)
    ev["boards"] = boards
    ev["byes"] = byes
    _forfeit_if_absent(t, boards, ev)


def _pairs(value: Any, what: str) -> list[tuple[int, int]]:
    if not isinstance(value, list) or not all(
            isinstance(p, list | tuple) and len(p) == 2
            and all(isinstance(x, int) and not isinstance(x, bool) for x in p) for p in value):
        raise Refused("bad_field", f"{what} is a list of [home, away] player ids")
    return [(p[0], p[1]) for p in value]


def _check_players(t: Tournament, pairs: list[tuple[int, int]], extra: list[int],
                   pool: set[int], exact: bool) -> None:
    seen = [p for pr in pairs for p in pr] + extra
    if len(seen) != len(set(seen)):
        raise Refused("bad_pairing", "a player appears twice")
    for p in seen:
        t.entry(p)
    if exact and set(seen) != pool:
        raise Refused("bad_pairing", "the pairing must keep every player of the round once")
    if not set(seen) <= pool:
        raise Refused("bad_pairing", "a re-pairing may only use the players of the boards "
                      "it replaces")


def _draft(t: Tournament, cmd: Command) -> Round:
    organiser(cmd)
    swiss_only(t, "editing a pairing")
    r = t.round(cmd.get("round"))
    if r.status != "draft":
        raise Refused("too_late", f"round {r.number} has started: re-pair single boards "
                      "instead")
    return r


def _edited(r: Round, boards: list[list[int]], byes: dict[int, str]) -> list[Event]:
    return [{"e": "pairing_edited", "round": r.number, "boards": boards,
             "byes": {str(p): k for p, k in sorted(byes.items())},
             "reply": {"round": r.number}}]


def swap(t: Tournament, cmd: Command, _: Pairer | None) -> list[Event]:
    """Exchange two players' places in a draft (boards or the pairing-allocated bye)."""
    r = _draft(t, cmd)
    a, b = t.entry(cmd.get("a")).pid, t.entry(cmd.get("b")).pid
    if a == b:
        raise Refused("bad_pairing", "swap two different players")
    boards = [[x.home, x.away] for x in r.boards]
    byes = dict(r.byes)
    spots: dict[int, tuple[int, int] | None] = {}
    for p in (a, b):
        where = next(((i, j) for i, pr in enumerate(boards) for j, q in enumerate(pr)
                      if q == p), None)
        if where is None and byes.get(p) != "pab":
            raise Refused("bad_pairing", f"{t.entries[p].name} is not paired in round "
                          f"{r.number}")
        spots[p] = where
    for p, other in ((a, b), (b, a)):
        where = spots[p]
        if where is None:
            del byes[p]
            byes[other] = "pab"
        else:
            boards[where[0]][where[1]] = other
    if any(x == y for x, y in boards):
        raise Refused("bad_pairing", "a player cannot meet themselves")
    return _edited(r, boards, byes)


def flip(t: Tournament, cmd: Command, _: Pairer | None) -> list[Event]:
    """Swap a draft board's home and away."""
    r = _draft(t, cmd)
    num = r.board(integer(cmd, "board", "board")).number
    boards = [[x.away, x.home] if x.number == num else [x.home, x.away] for x in r.boards]
    return _edited(r, boards, r.byes)


def match_id(t: Tournament, rnd: int, board: int) -> str:
    """A board's match id: derived, so a restart re-creates exactly the same matches."""
    return f"{t.id}-{rnd}-{board}"


def start(t: Tournament, cmd: Command, _: Pairer | None) -> list[Event]:
    organiser(cmd)
    r = t.round(cmd.get("round"))
    if r.status != "draft":
        raise Refused("already_started", f"round {r.number} has already started")
    forfeits = _absent_forfeits(t, r)
    matches = {str(b.number): match_id(t, r.number, b.number)
               for b in r.boards if b.result is None and str(b.number) not in forfeits}
    ev: Event = {"e": "started", "round": r.number, "at": float(cmd.get("at", 0.0)),
                 "matches": matches, "reply": {"round": r.number}}
    if forfeits:
        ev["forfeits"] = forfeits
    return [ev]


def _live_board(t: Tournament, cmd: Command) -> tuple[int, int]:
    r = t.round(cmd.get("round"))
    if r.status != "live":
        raise Refused("not_started", f"round {r.number} has not started")
    board = r.board(integer(cmd, "board", "board"))
    return r.number, board.number


def result(t: Tournament, cmd: Command, _: Pairer | None) -> list[Event]:
    if cmd.get("role") != "system":
        raise Refused("not_organiser", "results come from the matches; organisers "
                      "adjudicate")
    rnd, num = _live_board(t, cmd)
    board = t.round(rnd).board(num)
    if board.match != cmd.get("match"):
        raise Refused("not_found", "that match is not this board's")
    if board.result is not None:
        raise Refused("already_decided", "this board already has a result")
    res = Result.from_plain(cmd.get("result"))
    if res.kind == "adjudicated":
        raise Refused("bad_result", "a match's own result is played or forfeit")
    ev: Event = {"e": "result", "round": rnd, "board": num, "result": res.to_plain()}
    return _with_no_show_pauses(t, board, res, ev, {"round": rnd, "board": num})


def _with_no_show_pauses(t: Tournament, board: Board, res: Result, ev: Event,
                         reply: dict[str, Any]) -> list[Event]:
    """``ev`` (a board's result), then, with ``no_show_pauses`` and a forfeit the
    server decided (nobody came), a pause for each player who did not come: they sit
    out the next rounds until they, or the organiser, say they are back (``resume``),
    instead of being paired again and kept waited for."""
    events = [ev]
    if t.s.no_show_pauses and res.kind == "forfeit":
        for side, pid in (("home", board.home), ("away", board.away)):
            if res.winner != side and t.entries[pid].status == "active":
                events.append({"e": "paused", "pid": pid, "no_show": True})
    events[-1]["reply"] = reply
    return events


def forfeit(t: Tournament, cmd: Command, _: Pairer | None) -> list[Event]:
    system_or_organiser(cmd)
    rnd, num = _live_board(t, cmd)
    board = t.round(rnd).board(num)
    if board.result is not None:
        raise Refused("already_decided", "this board already has a result")
    absent = cmd.get("absent")
    if absent not in ("home", "away", "both"):
        raise Refused("bad_field", "absent is home, away or both")
    winner = None if absent == "both" else ("away" if absent == "home" else "home")
    res = Result("forfeit", winner)
    ev: Event = {"e": "result", "round": rnd, "board": num, "result": res.to_plain()}
    reply = {"round": rnd, "board": num, "match": board.match}
    if cmd.get("role") == "organiser":
        if board.match:
            ev["stop"] = board.match  # the host ends the match the organiser decided
        ev["reply"] = reply
        return [ev]
    return _with_no_show_pauses(t, board, res, ev, reply)


def adjudicate(t: Tournament, cmd: Command, _: Pairer | None) -> list[Event]:
    organiser(cmd)
    rnd, num = _live_board(t, cmd)
    if rnd != len(t.rounds):
        raise Refused("too_late", f"round {rnd + 1} is already paired from this result")
    plain = cmd.get("result")
    if isinstance(plain, dict):
        plain = {"kind": "adjudicated", **plain}
    res = Result.from_plain(plain)
    if res.kind == "played":
        raise Refused("bad_result", "an organiser's result is adjudicated or forfeit")
    board = t.round(rnd).board(num)
    ev: Event = {"e": "result", "round": rnd, "board": num, "result": res.to_plain(),
                 "reply": {"round": rnd, "board": num, "match": board.match}}
    if board.match:
        ev["stop"] = board.match  # the host ends the match if it is still being played
    return [ev]


def repair(t: Tournament, cmd: Command, _: Pairer | None) -> list[Event]:
    organiser(cmd)
    swiss_only(t, "re-pairing")
    r = t.round(cmd.get("round"))
    if r.status != "live" or r.number != len(t.rounds):
        raise Refused("too_late", "only boards of the round being played can be re-paired")
    nums = cmd.get("boards")
    if not isinstance(nums, list) or not nums:
        raise Refused("bad_field", "boards lists the board numbers to re-pair")
    old = [r.board(n) for n in nums]
    if len({b.number for b in old}) != len(old):
        raise Refused("bad_field", "a board is listed twice")
    for b in old:
        if b.result is not None and b.result.kind != "forfeit":
            raise Refused("already_decided", f"board {b.number} was played: adjudicate "
                          "it instead")
    pairs = _pairs(cmd.get("pairs"), "pairs")
    pool = {p for b in old for p in (b.home, b.away)}
    _check_players(t, pairs, [], pool, exact=False)
    first = max(b.number for b in r.boards) + 1
    boards = [[first + i, h, a, match_id(t, r.number, first + i)]
              for i, (h, a) in enumerate(pairs)]
    left = pool - {p for pr in pairs for p in pr}
    return [{"e": "repaired", "round": r.number, "removed": sorted(b.number for b in old),
             "boards": boards, "byes": {str(p): "absent" for p in sorted(left)},
             "cancel": [b.match for b in old if b.match and b.result is None],
             "reply": {"round": r.number, "boards": [b[0] for b in boards]}}]
