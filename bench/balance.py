"""Balance report: do any of the four species teams win more than their share?

    python bench/balance.py [--matches 2000] [--boards 7,9] [--mode advanced]
                            [--bot greedy] [--no-mirrors] [--deadline 0]
                            [--scale 1.0] [--house FILE.json]
                            [--workers 2] [--out docs/BALANCE.md]

Plays ``--matches`` matches between two ``--bot`` coaches (greedy by default; any
level of ``kickline.bots``) for every pairing of the four species teams (the six
cross pairings and, unless ``--no-mirrors``, the four mirrors), on each board, in
advanced mode by default. Each team takes seat 0 in half of a pairing's matches,
so neither the seat nor the toss favours it. It prints, and writes as a Markdown
table to ``--out``, each pairing's win rate for the first-named team with a 95%
Wilson score interval. A mirror is a control: its first-named "team" is only a
seat, and its interval should straddle 50%. A cross pairing whose interval
excludes 50% means the bot wins more often with one team than the other.

The machine-independent figure is the win rate; matches per second is printed
too. Matches run in ``--workers`` processes over disjoint seeds, so the same
arguments give the same table on any machine. ``--deadline`` (wall-clock seconds)
bounds a run of a slow bot on a shared machine: match ``i`` of every pairing is
played before match ``i + 1`` of any, and the table is what finished by then;
``--scale`` multiplies a search level's playout budget (0.25: a cheaper search).

``--house FILE.json`` measures other house rosters (rulings 6: which named player
holds which role, the fill-ins and their advanced skills; never the laws): a map from a
team id to its nine ``[name, ability, advanced defence or null]`` rows in the order of
``kickline.roster.SQUAD_ROLES`` (FB, D, D, MF, PM, PM, W, S, S; the second D, PM and S
start on the bench), replacing that team's for the run.
"""

from __future__ import annotations

import argparse
import datetime as _dt
import json
import math
import multiprocessing
import sys
import time
from dataclasses import replace
from itertools import combinations_with_replacement
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "shared"))

from kickline import result  # noqa: E402
from kickline.bots import BOTS, BUDGETS, SearchBot  # noqa: E402
from kickline.roster import SPECIES_TEAMS  # noqa: E402
from kickline.simulate import play_match  # noqa: E402
from kickline.state import Config  # noqa: E402

Z95 = 1.959964


def wilson(wins: int, n: int) -> tuple[float, float]:
    """The 95% Wilson score interval of a binomial proportion."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = p + Z95 * Z95 / (2 * n)
    half = Z95 * math.sqrt(p * (1 - p) / n + Z95 * Z95 / (4 * n * n))
    den = 1 + Z95 * Z95 / n
    return (centre - half) / den, (centre + half) / den


def _one(job: tuple[str, int, str, str, int, str]) -> dict[str, Any]:
    """Match ``i`` of one pairing: ``a`` in seat 0 when ``i`` is even."""
    mode, board, a, b, i, bot = job
    out: dict[str, Any] = {"a_wins": 0, "played": 0, "errors": 0, "goals": 0,
                           "shootouts": 0, "decisions": 0, "first_error": None}
    a_seat = i % 2
    teams = (a, b) if a_seat == 0 else (b, a)
    try:
        s, n = play_match(Config(mode, board, teams), (bot, bot),
                          f"balance:{mode}:{board}:{a}:{b}:{i}")
    except Exception as exc:  # counted and reported, never hidden
        out["errors"] = 1
        out["first_error"] = f"match {i}: {exc!r}"
        return out
    res = result(s)
    assert res is not None
    winner_side = 0 if s.score[0] > s.score[1] else 1
    out["a_wins"] = int(s.seat_of(winner_side) == a_seat)
    out["played"] = 1
    out["goals"] = sum(s.score)
    out["shootouts"] = int(bool(res["shootout"]))
    out["decisions"] = n
    return out


def _setup(path: str, bot: str, scale: float) -> None:
    """A worker's start: the house rosters of ``path`` (if any) and ``bot``'s playout
    budget times ``scale`` (a search level only)."""
    if path:
        house(path)
    if scale != 1.0 and bot in BUDGETS:
        b = BUDGETS[bot]
        BOTS[bot] = SearchBot(replace(b, playouts=max(1, round(b.playouts * scale))))


def house(path: str) -> None:
    """Replace teams' rosters for this process (and the workers it forks)."""
    from kickline.roster import SQUAD_ROLES, TEAMS, PlayerCard, Team

    for team_id, rows in json.loads(Path(path).read_text()).items():
        t = TEAMS[team_id]
        TEAMS[team_id] = Team(t.id, t.name, t.species, tuple(
            PlayerCard(str(n), role, t.species, str(a), None if d is None else int(d))
            for (n, a, d), role in zip(rows, SQUAD_ROLES, strict=True)))


def _batch(jobs: list[tuple[str, int, str, str, int, str]]) -> list[dict[str, Any]]:
    return [_one(job) for job in jobs]


def run(mode: str, boards: list[int], matches: int, workers: int, bot: str = "greedy",
        mirrors: bool = True, deadline: float = 0.0, roster: str = "",
        scale: float = 1.0) -> list[dict[str, Any]]:
    """Every pairing's tally.  Match ``i`` of every pairing is played before match
    ``i + 1`` of any, so a ``deadline`` (wall-clock seconds, 0 for none) cuts every
    pairing at nearly the same count, and the sample is the matches in order (a prefix:
    a long match is not left out for being long)."""
    pairings = [p for p in combinations_with_replacement(SPECIES_TEAMS, 2)
                if mirrors or p[0] != p[1]]
    jobs = [(mode, board, a, b, i, bot) for i in range(matches) for board in boards
            for a, b in pairings]
    rows: dict[tuple[int, str, str], dict[str, Any]] = {
        (board, a, b): {"board": board, "a": a, "b": b, "a_wins": 0, "played": 0,
                        "errors": 0, "goals": 0, "shootouts": 0, "decisions": 0,
                        "first_error": None}
        for board in boards for a, b in pairings}
    stop = time.perf_counter() + deadline if deadline > 0 else math.inf
    size = 32 if bot in ("random", "greedy", "casual", "beginner") else 1
    batches = [jobs[i:i + size] for i in range(0, len(jobs), size)]
    with multiprocessing.Pool(workers, _setup, (roster, bot, scale)) as pool:  # ends the rest
        results = pool.imap(_batch, batches)
        for batch in batches:
            left = stop - time.perf_counter()
            if left <= 0:
                break
            try:
                parts = results.next(timeout=None if left == math.inf else left)
            except multiprocessing.TimeoutError:
                break
            for job, part in zip(batch, parts, strict=True):
                row = rows[(job[1], job[2], job[3])]
                for k in ("a_wins", "played", "errors", "goals", "shootouts", "decisions"):
                    row[k] += part[k]
                row["first_error"] = row["first_error"] or part["first_error"]
    return list(rows.values())


def table(rows: list[dict[str, Any]]) -> list[str]:
    out = ["| Board | Team A | Team B | Matches | A wins | A win rate | 95% interval | "
           "Favoured | Goals/match | Shootouts | Errors |",
           "|---|---|---|---:|---:|---:|---|---|---:|---:|---:|"]
    for r in rows:
        n = r["played"]
        lo, hi = wilson(r["a_wins"], n)
        rate = r["a_wins"] / n if n else 0.0
        if r["a"] == r["b"]:
            # At 95% one mirror in twenty misses 50% by chance alone.
            verdict = "mirror (control)" + ("" if lo <= 0.5 <= hi else ", misses 50%")
        elif lo > 0.5:
            verdict = r["a"]
        elif hi < 0.5:
            verdict = r["b"]
        else:
            verdict = "neither"
        out.append(
            f"| {r['board']} | {r['a']} | {r['b']} | {n} | {r['a_wins']} | {rate:.1%} | "
            f"{lo:.1%} - {hi:.1%} | {verdict} | {r['goals'] / max(n, 1):.2f} | "
            f"{r['shootouts'] / max(n, 1):.1%} | {r['errors']} |")
    return out


def team_table(rows: list[dict[str, Any]]) -> list[str]:
    """Each team's wins over all its cross pairings (mirrors left out), per board."""
    out = ["| Board | Team | Matches | Wins | Win rate | 95% interval |",
           "|---|---|---:|---:|---:|---|"]
    for board in sorted({r["board"] for r in rows}):
        for team in SPECIES_TEAMS:
            n = wins = 0
            for r in rows:
                if r["board"] != board or r["a"] == r["b"] or team not in (r["a"], r["b"]):
                    continue
                n += r["played"]
                wins += r["a_wins"] if r["a"] == team else r["played"] - r["a_wins"]
            lo, hi = wilson(wins, n)
            out.append(f"| {board} | {team} | {n} | {wins} | {wins / max(n, 1):.1%} | "
                       f"{lo:.1%} - {hi:.1%} |")
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--matches", type=int, default=2000, help="matches per pairing and board")
    ap.add_argument("--boards", default="7,9")
    ap.add_argument("--mode", default="advanced", choices=["training", "standard", "advanced"])
    ap.add_argument("--bot", default="greedy", choices=sorted(BOTS),
                    help="the level coaching both teams (greedy)")
    ap.add_argument("--no-mirrors", action="store_true", help="play the cross pairings only")
    ap.add_argument("--deadline", type=float, default=0.0,
                    help="wall-clock seconds for the whole run (0: no limit)")
    ap.add_argument("--scale", type=float, default=1.0,
                    help="a search level's playout budget times this (1.0)")
    ap.add_argument("--house", default="", help="a JSON file of other house rosters")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--out", default=str(ROOT / "docs" / "BALANCE.md"),
                    help="Markdown file to write ('-' for none)")
    args = ap.parse_args()
    boards = [int(b) for b in args.boards.split(",")]
    if args.matches < 2 or any(b not in (7, 9) for b in boards):
        ap.error("--matches must be at least 2 and --boards a list of 7 and 9")
    if args.house:
        try:  # checked here, so a bad file is one line, not a worker's traceback
            house(args.house)
        except (OSError, ValueError, KeyError, TypeError) as exc:
            ap.error(f"--house {args.house}: {exc!r} (a map from a team id to its nine "
                     "[name, ability, advanced defence or null] rows)")
    t0 = time.perf_counter()
    rows = run(args.mode, boards, args.matches, args.workers, args.bot,
               not args.no_mirrors, args.deadline, args.house, args.scale)
    seconds = time.perf_counter() - t0
    played = sum(r["played"] for r in rows)
    errors = sum(r["errors"] for r in rows)
    lines = table(rows)
    teams = team_table(rows)
    print("\n".join(lines))
    print("\n".join(teams))
    print(f"matches: {played} played, {errors} errors, {seconds:.0f} s, "
          f"{played / seconds:.1f} matches/s on {args.workers} workers")
    for r in rows:
        if r["first_error"]:
            print(f"first error ({r['board']} {r['a']}-{r['b']}): {r['first_error']}")
    if args.out != "-":
        cmd = (f"python bench/balance.py --matches {args.matches} --boards {args.boards} "
               f"--mode {args.mode} --workers {args.workers}"
               + (f" --bot {args.bot}" if args.bot != "greedy" else "")
               + (" --no-mirrors" if args.no_mirrors else "")
               + (f" --deadline {args.deadline:g}" if args.deadline else "")
               + (f" --house {args.house}" if args.house else "")
               + (f" --scale {args.scale:g}" if args.scale != 1.0 else ""))
        doc = [
            "# Balance: the four species teams against each other",
            "",
            f"Produced by `{cmd}` on {_dt.date.today().isoformat()} "
            f"({played} matches, {errors} errors, {seconds:.0f} s).",
            "",
            f"Both coaches are the `{args.bot}` bot (`kickline.bots.BOTS`) in {args.mode} mode. "
            "Each pairing's matches alternate which team sits in seat 0, and the toss is a "
            "die like any other, so the win rate is the team's, not the seat's. The interval "
            "is the 95% Wilson score interval. A team is *favoured* when its interval lies "
            "wholly above 50%. The mirrors are controls: their first-named team is only a "
            "seat, so their interval should contain 50%.",
            "",
            "What this measures is how the rosters fare in the hands of one fixed heuristic "
            "coach. A team whose abilities need judgement the bot lacks (when to Mind Pull, "
            "when to Overdrive) can look weaker here than it is between people.",
            "",
            "## Each team against the other three",
            "",
            *teams,
            "",
            "## Every pairing",
            "",
            "The first-named team's win rate; mirrors are controls (at 95%, one in twenty "
            "misses 50% by chance alone).",
            "",
            *lines,
            "",
        ]
        Path(args.out).write_text("\n".join(doc))
        print(f"wrote {args.out}")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
