"""What leaves the server: the event's plain view, and its exports (TRF, CSV, JSON).

``view`` is what the tournament screens show (and what the websocket sends); the
exports are what ``GET /tournaments/{id}/...`` serves, for a club to keep or re-check
elsewhere. Player ids (``pid``) are the event's own; pairing numbers are TRF's.
"""

from __future__ import annotations

import csv
import io
from typing import TYPE_CHECKING, Any

from . import trf
from .model import Game, Result, bye_points
from .points import ZERO, fmt
from .standings import Row, Table, Value

if TYPE_CHECKING:
    from .machine import Tournament


def _value(v: Value) -> Any:
    if v is None or isinstance(v, int):
        return v
    return fmt(v, 2)


def standings_rows(t: Tournament) -> list[Row]:
    return Table(t).ranked()


def view(t: Tournament, *, viewer: str | None = None, organiser: bool = False
         ) -> dict[str, Any]:
    """The event as a screen shows it. Entry links (roster tokens) go to the organiser
    only; ``viewer`` (an account) gets ``you``: their own entry's id."""
    s = t.s
    rows = standings_rows(t)
    annulled = t.annulled()
    entries = []
    for e in sorted(t.entries.values(), key=lambda e: e.pid):
        plain = e.to_plain()
        plain.pop("account")
        plain["claimed"] = e.account is not None
        plain["annulled"] = e.pid in annulled
        if organiser and e.token:
            plain["token"] = e.token
        entries.append(plain)
    out: dict[str, Any] = {
        "tournament": t.id,
        "settings": s.to_plain(),
        "owner": t.owner,
        "created_at": t.created_at,
        "status": status(t),
        "total_rounds": t.total_rounds(),
        "entries": entries,
        "rounds": [r.to_plain() for r in t.rounds],
        "forbidden": [list(p) for p in sorted(t.forbidden)],
        "standings": [standing(r, s.tiebreaks) for r in rows],
        "version": t.version,
    }
    if viewer is not None and viewer in t.accounts:
        out["you"] = t.accounts[viewer]
    return out


def status(t: Tournament) -> str:
    """``registration`` (no round paired yet), ``running``, or ``finished``."""
    if t.finished:
        return "finished"
    return "running" if t.started else "registration"


def standing(r: Row, tiebreaks: tuple[str, ...]) -> dict[str, Any]:
    return {"rank": r.rank, "pid": r.pid, "number": r.number, "name": r.name,
            "status": r.status, "points": fmt(r.points),
            "tiebreaks": {name: _value(r.values.get(name)) for name in tiebreaks}}


def standings_json(t: Tournament) -> dict[str, Any]:
    s = t.s
    return {"tournament": t.id, "name": s.name, "format": s.format,
            "rounds_played": sum(1 for r in t.rounds if r.done),
            "tiebreaks": list(s.tiebreaks),
            "standings": [standing(r, s.tiebreaks) for r in standings_rows(t)]}


def standings_csv(t: Tournament) -> str:
    s = t.s
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(["rank", "number", "name", "points", *s.tiebreaks, "status"])
    for r in standings_rows(t):
        w.writerow([r.rank, r.number or "", r.name, fmt(r.points),
                    *(_value(r.values.get(n)) if r.values.get(n) is not None else ""
                      for n in s.tiebreaks), r.status])
    return buf.getvalue()


def result_text(res: Result | None) -> str:
    """A board's result for people: ``1-0``, ``0-1``, ``1/2``, ``+/-`` (forfeit)."""
    if res is None:
        return ""
    if res.kind == "forfeit":
        return {"home": "+/-", "away": "-/+", None: "-/-"}[res.winner]
    return {"home": "1-0", "away": "0-1", None: "1/2-1/2"}[res.winner]


def pairings_json(t: Tournament) -> dict[str, Any]:
    rounds = []
    for r in t.rounds:
        boards = []
        for b in r.boards:
            plain = b.to_plain()
            plain["home_name"] = t.entries[b.home].name
            plain["away_name"] = t.entries[b.away].name
            plain["text"] = result_text(b.result)
            # Each played match's verifiable record (result, seed, public log):
            # the server's GET /record/<match>.json.
            plain["record"] = (f"/record/{b.match}.json"
                               if b.match and b.result is not None and b.result.played
                               else None)
            boards.append(plain)
        byes = [{"pid": p, "name": t.entries[p].name, "kind": k,
                 "points": fmt(bye_points(k, t.s.scoring))}
                for p, k in sorted(r.byes.items())]
        rounds.append({"round": r.number, "status": "done" if r.done else r.status,
                       "boards": boards, "byes": byes})
    return {"tournament": t.id, "name": t.s.name, "rounds": rounds}


def pairings_csv(t: Tournament) -> str:
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(["round", "board", "home_number", "home", "away_number", "away", "result",
                "kind", "goals", "shootout", "match"])
    for r in t.rounds:
        for b in r.boards:
            h, a = t.entries[b.home], t.entries[b.away]
            res = b.result
            goals = f"{res.goals[0]}-{res.goals[1]}" if res and res.goals else ""
            w.writerow([r.number, b.number, h.number or "", h.name, a.number or "", a.name,
                        result_text(res), res.kind if res else "", goals,
                        "yes" if res and res.shootout else "", b.match or ""])
        for p, k in sorted(r.byes.items()):
            e = t.entries[p]
            w.writerow([r.number, "", e.number or "", e.name, "", "", "bye", k, "", "", ""])
    return buf.getvalue()


def trf_text(t: Tournament) -> str:
    """The event as TRF-16: every finished round, and for the round being (or about to
    be) paired only its byes: exactly what the pairing engine was (or will be) given,
    so another program can re-pair it (see trf.py)."""
    s = t.s
    numbered = t.numbered()
    numbers = {e.pid: e.number for e in numbered if e.number is not None}
    ranks = {r.pid: r.rank for r in standings_rows(t)}
    done = [r for r in t.rounds if r.done]
    open_round = t.rounds[len(done)] if len(done) < len(t.rounds) else None
    lines = []
    for e in numbered:
        games: list[Game | None] = [t.games(e.pid)[i] for i in range(len(done))]
        marker: str | None = None
        if open_round is not None:
            kind = open_round.byes.get(e.pid)
            marker = kind if kind not in (None, "pab") else None
        elif not t.finished and t.next_round_to_pair() <= t.total_rounds():
            marker = t.absent_kind(e, t.next_round_to_pair())
        if marker is not None:
            games.append(Game(len(done) + 1, marker, points=bye_points(marker, s.scoring)))
        lines.append(trf.Line(e.number or 0, e.name, e.rating, games, ranks.get(e.pid)))
    last = max([t.created_at] + [r.started_at or 0.0 for r in t.rounds])
    return trf.write(name=s.name, fmt_name=s.format, rounds=t.total_rounds(),
                     scoring=s.scoring, lines=lines, numbers=numbers,
                     top_colour=t.top_colour, forbidden=sorted(t.forbidden),
                     dates=(t.created_at, last) if t.created_at else None,
                     time_control=f"{s.match.decision}s per decision + {s.match.bank}s bank")


def scorecard(t: Tournament, pid: int) -> dict[str, Any]:
    """One player's rounds: opponent, side, result, points and running total."""
    e = t.entry(pid)
    s = t.s
    rows = []
    total = ZERO
    for g in t.games(pid):
        if g is None:
            continue
        row: dict[str, Any] = {"round": g.round, "kind": g.kind}
        if g.kind == "game":
            opp = t.entries[g.opponent] if g.opponent is not None else None
            board = t.round(g.round).board_of(pid)
            row.update(opponent=g.opponent, opponent_name=opp.name if opp else None,
                       side="home" if g.colour == "w" else "away",
                       board=board.number if board else None,
                       match=board.match if board else None,
                       outcome=g.outcome, pending=g.pending,
                       forfeit=g.result is not None and g.result.kind == "forfeit",
                       shootout=g.result is not None and g.result.shootout,
                       goals=[g.goals_for, g.goals_against]
                       if g.result is not None and g.result.goals is not None else None)
        if not g.pending:
            total += g.points
        row.update(points=fmt(g.points), total=fmt(total))
        rows.append(row)
    rank = next((r.rank for r in standings_rows(t) if r.pid == pid), None)
    return {"tournament": t.id, "pid": pid, "name": e.name, "number": e.number,
            "status": e.status, "rank": rank, "points": fmt(total), "rounds": rows,
            "format": s.format}
