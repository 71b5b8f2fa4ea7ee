"""Coaching Choices (Law 14; rulings 1.3-1.5): substitutions and who may come on,
formations, positioning, zone swaps, and the coverage checked at the finish.
"""

from __future__ import annotations

from .. import rulings as R
from ..board import Board
from ..state import Frame, Player, parse_pid, pid
from .dice import is_ooze
from .frames import ASK, Ask, Ctx, arg_side


def arrangement_ok(c: Ctx, side: int, mine: list[int] | None = None) -> bool:
    """2.5.2 coverage and 14.8.1 kickoff coverage, on the arrangement (``mine``: the
    side's fielded players, if the caller has them)."""
    if mine is None:
        mine = c.fielded(side)
    ps = c.players
    return _arranged_ok(c, side, [ps[i].arr for i in mine])


def _arranged_ok(c: Ctx, side: int, arr: list[int]) -> bool:
    """:func:`arrangement_ok` on the side's fielded players' arrangement spaces."""
    b = c.B
    if b.kickoff not in arr:  # an Ooze there still covers the kickoff (OQ18, rulings 2.6)
        return False
    # 20.5.3: an Ooze counts 0 toward its zone's coverage, so an Ooze side's zones count
    # no cover, and 20.5.4: its stacks stand.  A side's players are all of its team's
    # species, so an Ooze side's arrangement is good once the kickoff is covered.
    if is_ooze(c, side * 9):
        return True
    key = (b.n, *arr)
    ok = _COVERED.get(key)
    if ok is None:
        ok = True
        # 2.5.2: a zone with a space left uncovered may not hold a stack.
        for zone in ("H", "M", "V"):
            counts = [arr.count(s) for s in b.spaces(zone)]
            if 0 in counts and max(counts) >= 2:
                ok = False
                break
        if len(_COVERED) >= _MAX_COVERED:
            _COVERED.clear()
        _COVERED[key] = ok
    return ok


_COVERED: dict[tuple[int, ...], bool] = {}
"""2.5.2 coverage by board and arrangement spaces (in roster order): a coach's every
Coaching Choice asks it again for an arrangement that changed in one player at most."""

_MAX_COVERED = 1024
"""Arrangements kept before starting afresh (~0.2 MB at most).  With 4 096 here and for
the swaps, 200 live matches held ~8 KiB more each (bench/match_memory.py); with 256, one
match's own arrangements no longer all fit and the step counted 5 % more instructions."""


def _subs_left(c: Ctx, f: Frame) -> int:
    local = int(f[4])
    return c.subs[int(f[1])] if local == R.HALF_SUBS else local


# Decision texts built once: a random coach asks for these lists thousands of times.
_SUB_TEXT = [[f"sub {pid(o)} {pid(n)}" for n in range(18)] for o in range(18)]


_SWAP_TEXT = [[f"swap {pid(i)} {pid(j)}" for j in range(18)] for i in range(18)]


_FORMATION_TEXT = {n: sorted(f"formation {name}" for name in Board.of(n).formations())
                   for n in (7, 9)}


_MOVES_FROM = {
    n: [{(zone, arr): tuple(sorted(f"move {pid(i)} {Board.of(n).names[s]}"
                                   for s in Board.of(n).spaces(zone) if s != arr))
         for zone in ("H", "M", "V") for arr in range(n + 1)}
        for i in range(18)]
    for n in (7, 9)
}
"""14.7.5: player ``i``'s positioning decisions, by board, zone and arrangement space:
every space of its zone but the one it is arranged on, sorted."""


def _coach_legal(c: Ctx, f: Frame) -> list[str]:
    _, side, occasion, acted, _local = f
    # One pass over the side's nine: the fielded (with their spaces and zones), and who
    # may come on.  14.6: healthy bench players first; once none is left, healthy
    # back-bench players.  14.6.2 bars an injured player "from either bench", so injury
    # is read on both.  An injured player left on the bench does not hold the back bench
    # shut: 14.6.4 names the only side with nobody to bring on (bench empty, back bench
    # all injured), so the bench counts as drained once nobody on it may come on
    # (RULING_BENCH_DRAINED_OF_THE_HEALTHY).
    ps = c.players
    mine: list[int] = []
    arrs: list[int] = []
    zones: list[str] = []
    bench: list[int] = []
    back: list[int] = []
    for i in range(side * 9, side * 9 + 9):
        p = ps[i]
        status = p.status
        if status == "F":
            mine.append(i)
            arrs.append(p.arr)
            zones.append(p.zone)
        elif not p.injured:
            (bench if status == "B" else back).append(i)
    # Built in sorted order, not sorted: "finish" < "formation ..." < "move ..." < "skip"
    # < "sub ..." < "swap ...", and within each kind the players come in roster order
    # (one side's ids, h0-h8 or v0-v8, sort as their indexes) and the tables are sorted.
    n = c.B.n
    out: list[str] = []
    if occasion != "shootout":  # 14.2.2: substitution alone before the shootout
        if acted and _arranged_ok(c, side, arrs):
            out.append("finish")
        out += _FORMATION_TEXT[n]
        moves = _MOVES_FROM[n]
        for a, i in enumerate(mine):
            out += moves[i][zones[a], arrs[a]]
    elif acted:
        out.append("finish")
    if not acted:
        out.append("skip")
    if _subs_left(c, f) != 0:
        inc = bench or back
        out += [_SUB_TEXT[o][j] for o in mine for j in inc]
    if occasion != "shootout" and R.RULING_ZONE_SWAP:
        out += _swaps(mine, zones)
    return out


def _swaps(mine: list[int], zones: list[str]) -> tuple[str, ...]:
    """14.2.1 zone swaps: every pair of fielded players in different zones (memoised:
    positioning leaves the zones as they were, so most Coaching Choices ask again)."""
    key: tuple[int | str, ...] = (*mine, *zones)
    known = _SWAPS.get(key)
    if known is None:
        out: list[str] = []
        for a, i in enumerate(mine):
            row, zone = _SWAP_TEXT[i], zones[a]
            for k in range(a + 1, len(mine)):
                if zones[k] != zone:
                    out.append(row[mine[k]])
        if len(_SWAPS) >= _MAX_SWAPS:
            _SWAPS.clear()
        known = _SWAPS[key] = tuple(out)
    return known


_SWAPS: dict[tuple[int | str, ...], tuple[str, ...]] = {}
_MAX_SWAPS = 1024
"""Zone layouts kept before starting afresh (~0.4 MB at most; see _MAX_COVERED)."""


def _coach_answer(c: Ctx, f: Frame, d: str) -> None:
    _, side, occasion, _acted, local = f
    parts = d.split()
    kind = parts[0]
    law = "14.2.1"
    if kind == "skip":
        c.ev("coaching-skipped", "14.8.4", side=side, occasion=occasion)
        return
    if kind == "finish":
        if occasion != "shootout":
            for i in c.fielded(side):
                c.move(i, c.players[i].arr)  # 14.8.3: the finish is the arrangement
        c.ev("coaching-finished", "14.8.3", side=side, occasion=occasion,
             arrangement={pid(i): c.sp(c.players[i].arr) for i in c.fielded(side)})
        if occasion == "new-play":
            c.then(("coach", 1 - side, "reply", 0, R.HALF_SUBS))  # 14.4.1
        elif occasion == "timeout" and not R.RULING_TIME_OUT_REPLY_ALWAYS:
            c.then(("coach", 1 - side, "timeout-reply", 0, R.HALF_SUBS))
        return
    ps = c.players
    if kind == "sub":
        o, n = parse_pid(parts[1]), parse_pid(parts[2])
        po, pn = ps[o], ps[n]
        tokens = pn.tokens // 2 if pn.status == "X" else pn.tokens  # 14.6.3
        ps[n] = Player("F", po.pos, po.zone, po.arr, tokens, False)
        ps[o] = Player("B" if occasion == "setup" else "X", 0, "", 0, po.tokens, po.injured)
        if c.ball.carrier == o:
            c.set_ball(carrier=-1)
        if local == R.HALF_SUBS:
            subs = list(c.subs)
            subs[side] -= 1
            c.subs = (subs[0], subs[1])
        elif local != R.UNLIMITED:
            local -= 1
        law = "3.3.2" if occasion == "setup" else "14.5.1"
        c.ev("substitution", law, side=side, off=pid(o), on=pid(n), tokens=tokens)
    elif kind == "formation":
        # 14.7.3 (RULING_FORMATION_TIES_ROSTER_ORDER: equal defence keeps roster order)
        mine = sorted(c.fielded(side), key=lambda i: (-c.dfn(i), i))
        for i, (zone, s) in zip(mine, c.B.deal(side, parts[1]), strict=True):
            p = ps[i]
            ps[i] = Player(p.status, p.pos, zone, s, p.tokens, p.injured)
        c.ev("formation", "14.7.3", side=side, formation=parts[1],
             arrangement={pid(i): c.sp(ps[i].arr) for i in mine})
    elif kind == "move":
        i, s = parse_pid(parts[1]), c.B.parse(parts[2])
        p = ps[i]
        ps[i] = Player(p.status, p.pos, p.zone, s, p.tokens, p.injured)
        c.ev("positioning", "14.7.5", side=side, player=parts[1], to=parts[2])
    elif kind == "swap":
        i, j = parse_pid(parts[1]), parse_pid(parts[2])
        pi, pj = ps[i], ps[j]
        ps[i] = Player(pi.status, pi.pos, pj.zone, pj.arr, pi.tokens, pi.injured)
        ps[j] = Player(pj.status, pj.pos, pi.zone, pi.arr, pj.tokens, pj.injured)
        c.ev("zone-swap", "14.2.1", side=side, players=[parts[1], parts[2]])
    c.then(("coach", side, occasion, 1, local))


ASK["coach"] = Ask(arg_side, _coach_legal, _coach_answer)
