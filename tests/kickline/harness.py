"""The random-play harness: random matches with the engine's contract checked at every step.

For each seeded match it checks that every legal decision applies (all of them at
every step in a "deep" match, the one played otherwise), that the match ends,
that the plain form round-trips through JSON, that a seat's view and events do
not change when only the other seat's secret choice changes, the state's own
invariants, and finally that replaying the log rebuilds the identical state.
"""

from __future__ import annotations

import hashlib
import json
import random
from dataclasses import dataclass, field
from typing import Any

import kickline
from kickline.roster import SPECIES_TEAMS
from kickline.state import State

# Every ordered pairing, mirrors included: seed n plays pairing n mod 16, so any run of
# 16 consecutive seeds puts every species team on each side against every other.
PAIRINGS = [(a, b) for a in SPECIES_TEAMS for b in SPECIES_TEAMS]


def config_for(board: int, seed: int, mode: str) -> dict[str, Any]:
    if mode == "training":
        return {"mode": mode, "board": board}
    a, b = PAIRINGS[seed % len(PAIRINGS)]
    return {"mode": mode, "board": board, "teams": [a, b]}

MAX_STEPS = 50_000


@dataclass
class Stats:
    matches: int = 0
    steps: int = 0
    secret_checks: int = 0
    options_applied: int = 0
    shootouts: int = 0
    failures: list[str] = field(default_factory=list)
    final: str = ""  # sha256 of the final state's plain form (one match's Stats only)
    covered: set[str] = field(default_factory=set)
    """Every ``event@law`` the matches produced: what the sample reached of the rules."""


def _roundtrip(s: State) -> None:
    plain = json.loads(json.dumps(s.to_plain()))
    back = State.from_plain(plain)
    assert back == s, "plain form does not round-trip"


def _invariants(s: State, prev: State | None) -> None:
    if prev is not None:
        assert s.version == prev.version + 1, "version must rise by one per input"
        assert s.minute >= prev.minute or s.period > prev.period, "the clock ran backwards"
    assert 1 <= s.ball.speed <= 12, f"ball speed {s.ball.speed}"
    for p in s.players:
        assert p.tokens >= 0
        assert not (p.injured and p.tokens), "an injured player holds no tokens (15.4.1)"
    if s.home_seat >= 0:
        for side in (0, 1):
            fielded = [p for p in s.players[side * 9:side * 9 + 9] if p.status == "F"]
            assert len(fielded) == 6, "six on the field (2.6.1, 3.2.1)"
            assert all(p.pos and p.arr and p.zone for p in fielded)
    for seat in (0, 1):
        opts = kickline.legal(s, seat)
        assert list(opts) == sorted(set(opts)), "legal decisions are sorted and distinct"


def _secret_invariance(s: State, seats: tuple[int, ...], rng: random.Random, deep: bool,
                       stats: Stats) -> None:
    """Whatever seat A picks, seat B sees the same view and the same events."""
    if len(seats) < 2:
        return
    for a in seats:
        b = 1 - a
        opts = list(kickline.legal(s, a))
        sample = opts if deep or len(opts) <= 4 else rng.sample(opts, 4)
        seen: set[str] = set()
        for x in sample:
            s2, ev = kickline.apply(s, a, x)
            seen.add(json.dumps([kickline.view(s2, b), kickline.redact(ev, b),
                                 kickline.view(s2, None), kickline.redact(ev, None)],
                                sort_keys=True))
        assert len(seen) == 1, "a seat's view depends on the other seat's secret choice"
        stats.secret_checks += 1


def _pick(opts: tuple[str, ...], rng: random.Random) -> str:
    """Uniform, except that a Coaching Choice ends with odds 1 in 3 once it may: a
    uniform coach wanders through dozens of rearrangements per Choice, which would
    spend the harness's time on one frame instead of the whole game."""
    for end in ("finish", "skip"):
        if end in opts and rng.randrange(3) == 0:
            return end
    return opts[rng.randrange(len(opts))]


def check_match(board: int, seed: int, deep: bool = False, mode: str = "training") -> Stats:
    stats = Stats()
    try:
        _check_match(board, seed, deep, mode, stats)
    except Exception as exc:  # collected, so one run reports every failing seed
        config = config_for(board, seed, mode)
        stats.failures.append(f"{config} seed {seed}: {type(exc).__name__}: {exc}")
    return stats


def _check_match(board: int, seed: int, deep: bool, mode: str, stats: Stats) -> None:
    # Training keeps its historical seed text, so its matches stay the ones they were.
    tag = f"{board}:{seed}" if mode == "training" else f"{mode}:{board}:{seed}"
    rng = random.Random(f"harness:{tag}")
    config = config_for(board, seed, mode)
    s = kickline.new_game(config)
    log: list[tuple[int, str]] = []
    prev: State | None = None
    for step in range(MAX_STEPS):
        _invariants(s, prev)
        if deep or step % 10 == 0:
            _roundtrip(s)
        kind, seats, secret = kickline.to_act(s)
        if kind == "over":
            break
        if kind == "chance":
            outcomes = kickline.chance(s)[2]
            o = outcomes[rng.randrange(len(outcomes))]
            prev = s
            s, ev = kickline.apply_chance(s, o)
            stats.covered.update(f"{e['t']}@{e.get('law')}" for e in ev)
            log.append((-1, o))
            continue
        if secret:
            _secret_invariance(s, seats, rng, deep, stats)
        seat = seats[0]
        opts = kickline.legal(s, seat)
        assert opts, "a seat asked to decide has something to decide"
        if deep:
            for x in opts:
                kickline.apply(s, seat, x)
            stats.options_applied += len(opts)
        d = _pick(opts, rng)
        prev = s
        s, ev = kickline.apply(s, seat, d, version=s.version)
        stats.covered.update(f"{e['t']}@{e.get('law')}" for e in ev)
        stats.options_applied += not deep
        log.append((seat, d))
    else:
        raise AssertionError(f"match did not end within {MAX_STEPS} steps")
    res = kickline.result(s)
    assert res is not None and res["winner"] is not None, "every game is settled (17.1.1)"
    assert list(s.score) == [sum(1 for g in s.goals if g[0] == side) for side in (0, 1)]
    # A match is its configuration and its log: replaying rebuilds the identical state.
    r = kickline.new_game(config)
    for seat, x in log:
        r = kickline.apply_chance(r, x)[0] if seat < 0 else kickline.apply(r, seat, x)[0]
    assert r == s, "replaying the log does not rebuild the state"
    stats.matches = 1
    stats.steps = len(log)
    plain = json.dumps(s.to_plain(), sort_keys=True, separators=(",", ":"))
    stats.final = hashlib.sha256(plain.encode()).hexdigest()
    stats.shootouts = int(res["shootout"])


def run_many(board: int, seeds: range, deep: bool = False, mode: str = "training"
             ) -> dict[str, Any]:
    total = Stats()
    for seed in seeds:
        st = check_match(board, seed, deep, mode)
        total.matches += st.matches
        total.steps += st.steps
        total.secret_checks += st.secret_checks
        total.options_applied += st.options_applied
        total.shootouts += st.shootouts
        total.failures += st.failures
        total.covered |= st.covered
    return total.__dict__
