"""The sans-I/O match core, driven with plain calls."""

from __future__ import annotations

import hashlib
import random
from typing import Any

import msgpack  # type: ignore[import-untyped]
import pytest

from kickline_server import toy
from kickline_server.core import (
    CancelTimer,
    Claim,
    Clock,
    Command,
    Connect,
    Decide,
    Disconnect,
    Effect,
    Finished,
    MatchCore,
    Persist,
    Reserve,
    Resign,
    Resume,
    Send,
    SetTimer,
    Sit,
    Think,
    Thought,
    TimerFired,
    verify,
)
from kickline_server.dice import check_over

SEED = bytes(range(32))
A, B = "alice", "bob"


class Host:
    """Carries out effects the way an actor would, in memory."""

    def __init__(self, core: MatchCore) -> None:
        self.core = core
        self.snapshot: Any = None
        self.log: list[Any] = []
        self.inbox: dict[int, list[dict[str, Any]]] = {}
        self.timers: dict[str, float] = {}
        self.finished: Any = None
        self.persist_count = 0
        self.snapshots = 0

    def do(self, cmd: Command, now: float = 0.0) -> list[Effect]:
        effects = self.core.handle(cmd, now)
        sent = False
        for e in effects:
            if isinstance(e, Persist):
                assert not sent, "a Persist came after a Send"
                assert e.start == len(self.log)
                self.log.extend(msgpack.unpackb(x) for x in e.entries)
                if e.snapshot is not None:
                    self.snapshot = msgpack.unpackb(msgpack.packb(e.snapshot))
                    self.snapshots += 1
                self.persist_count += 1
            elif isinstance(e, Send):
                sent = True
                self.inbox.setdefault(e.conn, []).append(e.message)
            elif isinstance(e, SetTimer):
                self.timers[e.key] = e.at
            elif isinstance(e, CancelTimer):
                del self.timers[e.key]
            elif isinstance(e, Finished):
                self.finished = e.result
        return effects

    def take(self, conn: int) -> list[dict[str, Any]]:
        return self.inbox.pop(conn, [])

    def last_prompt(self, conn: int) -> dict[str, Any]:
        prompts = [m for m in self.inbox.get(conn, []) if m["t"] == "prompt"]
        return prompts[-1]


def new_core(**kw: Any) -> MatchCore:
    return MatchCore(toy.GAME, toy.BOTS, match_id="m1", config={"board": 30}, seed=SEED,
                     now=0.0, meta={"code": "ABCDEF"}, **kw)


def started(**kw: Any) -> Host:
    h = Host(new_core(**kw))
    h.do(Sit(0, A, "Alice", conn=1, re="c"))
    h.do(Sit(1, B, "Bob", conn=2, re="j"))
    return h


def test_a_match_starts_when_both_seats_are_held() -> None:
    h = Host(new_core())
    effects = h.do(Sit(0, A, "Alice", conn=1, re="c"))
    assert isinstance(effects[0], Persist)
    msgs = h.take(1)
    assert msgs[0] == {"t": "ack", "re": "c", "match": "m1", "seat": 0, "code": "ABCDEF"}
    assert msgs[1]["status"] == "waiting" and msgs[1]["legal"] == []
    assert "expire" in h.timers
    h.do(Sit(1, B, "Bob", conn=2, re="j"))
    assert "expire" not in h.timers
    p0 = h.last_prompt(1)
    assert p0["status"] == "playing"
    assert p0["legal"] == ["jog", "sprint"]
    assert p0["commit"] == hashlib.sha256(SEED).hexdigest()
    assert p0["to_act"] == {"kind": "decide", "seats": [0, 1], "secret": True}
    assert set(h.timers) == {"clock:0", "clock:1"}


def test_the_seed_never_reaches_a_client_before_the_end() -> None:
    h = started()
    rng = random.Random(5)
    while h.core.status == "playing":
        seat = rng.choice(h.core.to_act()[1])
        prompt = h.last_prompt(seat + 1)
        h.do(Decide(seat + 1, (A, B)[seat], f"{seat}-{prompt['version']}", prompt["version"],
                    rng.choice(prompt["legal"])))
        for conn in (1, 2):
            for m in h.inbox.get(conn, []):
                if m["t"] != "over":
                    blob = msgpack.packb(m)
                    assert SEED not in blob and SEED.hex().encode() not in blob
    over = [m for m in h.take(1) if m["t"] == "over"]
    assert over[0]["seed"] == SEED.hex()


def test_secret_choice_is_redacted_for_the_other_seat_in_events_and_view() -> None:
    h = started()
    h.take(1), h.take(2)
    h.do(Decide(1, A, "a", 0, "sprint"))
    to_alice, to_bob = h.take(1), h.take(2)
    assert to_alice[0] == {"t": "ack", "re": "a", "match": "m1", "version": 1}
    assert to_alice[1]["events"] == [{"e": "chose", "seat": 0, "choice": "sprint"}]
    assert to_bob[0]["events"] == [{"e": "chose", "seat": 0}]
    assert to_bob[0]["view"]["choices"] == ["hidden", None]
    assert "sprint" not in str([to_bob[0]["events"], to_bob[0]["view"]])


def run_to_end(h: Host, rng: random.Random, now: float = 0.0) -> None:
    while h.core.status == "playing":
        seat = rng.choice(h.core.to_act()[1])
        conn = seat + 1
        prompt = h.last_prompt(conn)
        h.do(Decide(conn, (A, B)[seat], f"{seat}-{prompt['version']}", prompt["version"],
                    rng.choice(prompt["legal"])), now)


def test_a_full_match_ends_with_a_verifiable_log() -> None:
    h = started()
    run_to_end(h, random.Random(1))
    assert h.finished is not None and h.finished["reason"] == "played"
    over = next(m for m in h.take(2) if m["t"] == "over")
    final = check_over(toy.GAME, over)
    result = toy.GAME.result(final)
    assert result is not None
    assert {k: over["result"][k] for k in result} == result
    assert hashlib.sha256(bytes.fromhex(over["seed"])).hexdigest() == over["commit"]
    assert h.timers == {}


def test_verify_detects_a_forged_roll() -> None:
    h = started()
    run_to_end(h, random.Random(2))
    log = h.core.public_log()
    i = next(i for i, e in enumerate(log) if e["k"] == "c")
    log[i] = dict(log[i], o="6" if log[i]["o"] != "6" else "5")
    with pytest.raises(ValueError, match=f"log entry {i}"):
        verify(toy.GAME, {"board": 30}, SEED, log, [None, None])


def test_a_resent_decision_is_answered_not_applied_twice() -> None:
    h = started()
    h.take(1)
    h.do(Decide(1, A, "x", 0, "jog"))
    n, count = len(h.log), h.persist_count
    first = h.take(1)
    effects = h.do(Decide(1, A, "x", 0, "jog"))
    assert not any(isinstance(e, Persist) for e in effects)
    again = h.take(1)
    assert again[0] == first[0]
    assert len(h.log) == n and h.persist_count == count


@pytest.mark.parametrize("fmt", [1, 2, 3, 4])
def test_a_resent_decision_after_a_restore_is_answered_from_the_snapshot(fmt: int) -> None:
    h = started(snapshot_every=1)
    h.take(1), h.take(2)
    h.do(Decide(1, A, "x", 0, "jog"))
    h.do(Decide(2, B, 7, 0, "sprint"))
    first = [m for m in h.take(1) + h.take(2) if m["t"] == "ack"]
    assert [m["version"] for m in first] == [1, 2]
    snap = h.snapshot
    assert snap["format"] == 4 and snap["replies"] == [[0, "x", 1], [1, 7, 2]]
    if fmt == 3:  # before the log could run past the snapshot (here it does not)
        snap = {**snap, "format": 3}
    if fmt < 3:  # written before dice contributions
        snap = {k: v for k, v in snap.items() if k not in ("commits", "contributions",
                                                            "dice_seed")}
        snap["format"] = 2
    if fmt == 1:  # snapshots written before the compact reply cache
        snap = {**snap, "format": 1, "replies": [
            [f"{(A, B)[s]}|{type(re).__name__}|{re}",
             {"t": "ack", "re": re, "match": "m1", "version": v}]
            for s, re, v in snap["replies"]]}
    r = Host(MatchCore.restore(toy.GAME, toy.BOTS, snap, h.log))
    r.do(Connect(1, A), 1.0)
    r.do(Connect(2, B), 1.0)
    r.take(1), r.take(2)
    assert not any(isinstance(e, Persist) for e in r.do(Decide(1, A, "x", 0, "jog")))
    assert not any(isinstance(e, Persist) for e in r.do(Decide(2, B, 7, 0, "sprint")))
    assert [r.take(1)[0], r.take(2)[0]] == first
    assert r.do(Decide(1, A, "7", 0, "jog"))  # "7" is not 7: a new id, refused as stale
    assert r.take(1)[0]["code"] == "stale_version"


@pytest.mark.parametrize(("decision", "version", "code"), [
    ("jog", 5, "stale_version"),
    ("walk", 0, "illegal_decision"),
    ("Jog!", 0, "malformed_decision"),
])
def test_bad_decisions_get_an_error_with_the_current_view_and_change_nothing(
    decision: str, version: int, code: str
) -> None:
    h = started()
    h.take(1)
    before = msgpack.packb(h.core.snapshot())
    effects = h.do(Decide(1, A, "x", version, decision))
    assert not any(isinstance(e, Persist) for e in effects)
    (err,) = h.take(1)
    assert err["t"] == "error" and err["code"] == code and err["re"] == "x"
    assert err["message"] and err["version"] == 0
    assert err["legal"] == ["jog", "sprint"] and err["view"]["phase"] == "choose"
    assert msgpack.packb(h.core.snapshot()) == before
    # An error is not cached: the same id may carry a corrected decision.
    h.do(Decide(1, A, "x", 0, "jog"))
    assert h.take(1)[0]["t"] == "ack"


def test_a_stale_version_after_the_state_moved_on() -> None:
    h = started()
    rng = random.Random(3)
    for _ in range(4):  # a couple of rounds so the version passes 0
        run_one = h.core.to_act()[1][0]
        prompt = h.last_prompt(run_one + 1)
        h.do(Decide(run_one + 1, (A, B)[run_one], f"k{prompt['version']}{run_one}",
                    prompt["version"], rng.choice(prompt["legal"])))
    seat = h.core.to_act()[1][0]
    h.take(seat + 1)
    h.do(Decide(seat + 1, (A, B)[seat], "old", 0, "jog"))
    (err,) = h.take(seat + 1)
    assert err["code"] == "stale_version"


def test_decisions_for_a_seat_the_player_does_not_hold() -> None:
    h = started()
    h.take(1), h.take(3)
    h.do(Decide(3, "mallory", "x", 0, "jog"))
    assert h.take(3)[0]["code"] == "not_your_seat"
    h.do(Decide(1, A, "y", 0, "jog", seat=1))
    assert h.take(1)[0]["code"] == "not_your_seat"
    h.do(Resign(3, "mallory", "z"))
    assert h.take(3)[0]["code"] == "not_your_seat"
    assert h.log == [] and h.core.status == "playing"


def test_not_your_turn_and_not_started_and_over() -> None:
    h = Host(new_core())
    h.do(Sit(0, A, "Alice", conn=1))
    h.take(1)
    h.do(Decide(1, A, "x", 0, "jog"))
    assert h.take(1)[0]["code"] == "not_started"
    h.do(Sit(1, B, "Bob", conn=2))
    h.do(Decide(1, A, "a", 0, "jog"))
    h.take(1)
    h.do(Decide(1, A, "b", 0, "jog"))
    assert h.take(1)[0]["code"] == "not_your_turn"
    h.do(Resign(2, B, "r"))
    h.take(1)
    h.do(Decide(1, A, "c", 0, "jog"))
    assert h.take(1)[0]["code"] == "match_over"


def test_resign() -> None:
    h = started()
    h.do(Resign(1, A, "r"))
    assert h.finished == {"winner": 1, "score": None, "reason": "resigned", "seat": 0}
    assert h.snapshot["status"] == "over"
    assert [m["t"] for m in h.take(2)][-1] == "over"


def test_restore_continues_exactly_like_an_uninterrupted_run() -> None:
    a = started()
    rng = random.Random(9)
    for _ in range(7):
        seat = a.core.to_act()[1][0]
        prompt = a.last_prompt(seat + 1)
        a.do(Decide(seat + 1, (A, B)[seat], f"d{len(a.log)}", prompt["version"],
                    rng.choice(prompt["legal"])))
    restored = Host(MatchCore.restore(toy.GAME, toy.BOTS, a.snapshot, a.log))
    restored.log, restored.snapshot = list(a.log), a.snapshot
    restored.do(Resume(), 100.0)
    assert restored.core.events == a.core.events
    assert msgpack.packb(restored.core.snapshot()) == msgpack.packb(a.core.snapshot())
    restored.do(Connect(1, A, since=0, re="o1"), 100.0)
    restored.do(Connect(2, B, since=0, re="o2"), 100.0)
    r1, r2 = random.Random(4), random.Random(4)
    run_to_end(a, r1)
    run_to_end(restored, r2)
    assert restored.finished == a.finished
    assert restored.core.log == a.core.log
    # The resent last decision is still answered from the snapshot's reply cache.
    key = next(iter(a.core.replies))
    assert key in MatchCore.restore(toy.GAME, toy.BOTS, a.snapshot, a.log).replies


def test_a_whole_snapshot_every_k_entries_and_the_log_alone_between() -> None:
    h = started(snapshot_every=4)
    assert h.snapshots == 2  # each seat taken is a whole snapshot
    sizes = []
    rng = random.Random(6)
    for _ in range(12):
        seat = rng.choice(h.core.to_act()[1])
        prompt = h.last_prompt(seat + 1)
        effects = h.do(Decide(seat + 1, (A, B)[seat], f"{seat}-{prompt['version']}",
                              prompt["version"], rng.choice(prompt["legal"])))
        (persist,) = [e for e in effects if isinstance(e, Persist)]
        if persist.snapshot is not None:
            sizes.append(persist.snapshot["log_len"])
            assert persist.snapshot["log_len"] == len(h.log)
    assert sizes and all(b - a >= 4 for a, b in zip([0, *sizes], sizes, strict=False))
    assert len(h.log) - h.snapshot["log_len"] < 4 + 3  # a decision brings up to 3 entries


def test_a_timer_resign_or_resume_writes_a_whole_snapshot() -> None:
    h = started(clock=Clock(decision=10, bank=0, max_timeouts=3))
    h.do(Decide(2, B, "b", 0, "jog"), 1.0)
    assert h.snapshot["log_len"] < len(h.log)
    h.do(TimerFired("clock:0"), 10.0)
    assert h.snapshot["log_len"] == len(h.log) and h.snapshot["timeouts"] == [1, 0]
    r = Host(MatchCore.restore(toy.GAME, toy.BOTS, h.snapshot, h.log))
    r.log = list(h.log)
    r.do(Resume(), 20.0)
    assert r.snapshots == 1 and r.snapshot["log_len"] == len(h.log)
    h.do(Resign(1, A, "r"), 30.0)
    assert h.snapshot["status"] == "over"


@pytest.mark.parametrize("every", [1, 3, 32])
def test_restoring_at_any_point_of_the_tail_is_the_uninterrupted_match(every: int) -> None:
    """Cut the stored match after every persist: the snapshot plus the log replayed is the
    same core (state, events, clock banks, timeouts, reply cache), byte for byte."""
    h = started(snapshot_every=every, clock=Clock(decision=1, bank=50, max_timeouts=3))
    rng = random.Random(every)
    now = 0.0
    while h.core.status == "playing":
        seat = rng.choice(h.core.to_act()[1])
        prompt = h.last_prompt(seat + 1)
        now += rng.choice([0.5, 3.0])  # sometimes over the free time: the bank changes
        rid: str | int = rng.choice([f"{seat}-{prompt['version']}", len(h.log)])
        h.do(Decide(seat + 1, (A, B)[seat], rid, prompt["version"],
                    rng.choice(prompt["legal"])), now)
        if h.core.status != "playing":
            break
        r = MatchCore.restore(toy.GAME, toy.BOTS, h.snapshot, h.log, snapshot_every=every)
        assert msgpack.packb(r.snapshot()) == msgpack.packb(h.core.snapshot())
        assert r.events == h.core.events and r.turns == h.core.turns
        assert r.rng.getstate() == h.core.rng.getstate()
        # The last decision, resent after the restart, is answered, not applied again.
        rh = Host(r)
        rh.log = list(h.log)
        rh.do(Connect(seat + 1, (A, B)[seat]), now)
        effects = rh.do(Decide(seat + 1, (A, B)[seat], rid, prompt["version"], "jog"), now)
        assert not any(isinstance(e, Persist) for e in effects)
        acks = [m for m in rh.take(seat + 1) if m["t"] == "ack"]
        assert [a["re"] for a in acks] == [rid]
    assert h.finished is not None


def test_a_tail_entry_that_cannot_follow_a_snapshot_is_refused() -> None:
    h = started()
    h.do(Decide(1, A, "x", 0, "jog"))
    with pytest.raises(ValueError, match="cannot follow"):
        MatchCore.restore(toy.GAME, toy.BOTS, h.snapshot, [*h.log, {"k": "r", "s": 1}])


def test_the_public_log_keeps_message_ids_and_banks_to_itself() -> None:
    h = started(clock=Clock(decision=1, bank=50))
    h.do(Decide(1, A, "secret-id", 0, "jog"), 5.0)
    entry = h.core.log[0]
    assert entry["re"] == "secret-id" and entry["b"] == 46.0
    assert h.core.public_log()[0] == {"k": "d", "s": 0, "d": "jog", "v": 0, "by": "p"}


def test_a_timeout_plays_the_default_then_repeated_timeouts_forfeit() -> None:
    h = started(clock=Clock(decision=10, bank=5, max_timeouts=2))
    assert h.timers["clock:0"] == 15.0
    h.do(Decide(2, B, "b", 0, "sprint"), 12.0)  # 2 s over the free time
    assert h.core.bank[1] == 3.0
    h.do(TimerFired("clock:0"), 14.0)  # early: ignored
    assert h.core.status == "playing" and len(h.log) == 1
    h.do(TimerFired("clock:0"), 15.0)
    assert h.log[1]["by"] == "t" and h.log[1]["d"] == "jog"  # first legal decision
    assert h.core.bank[0] == 0.0 and h.core.timeouts[0] == 1
    at = h.timers["clock:0"]
    assert at == 25.0  # the next decision has only its free time left
    h.do(TimerFired("clock:0"), at)
    assert h.finished == {"winner": 1, "score": None, "reason": "timeouts", "seat": 0}


def test_a_real_decision_resets_the_timeout_count() -> None:
    h = started(clock=Clock(decision=10, bank=0, max_timeouts=2))
    h.do(TimerFired("clock:0"), 10.0)
    assert h.core.timeouts[0] == 1
    h.do(Decide(2, B, "b", 0, "jog"), 10.0)
    prompt = h.last_prompt(1)
    h.do(Decide(1, A, "a", prompt["version"], "jog"), 11.0)
    assert h.core.timeouts[0] == 0


def test_drop_and_reconnect_gets_missed_events() -> None:
    h = started(grace=30)
    h.take(1)
    h.do(Disconnect(1), 5.0)
    assert h.take(2)[-1] == {"t": "presence", "match": "m1", "seat": 0, "state": "reconnecting",
                             "since": 5.0, "claim_at": 35.0}
    h.do(Decide(2, B, "b", 0, "jog"), 6.0)
    seen = h.core.conns  # connection 1 is gone
    assert 1 not in seen
    h.do(Connect(7, A, since=0, re="o"), 20.0)
    msgs = h.take(7)
    assert msgs[0] == {"t": "ack", "re": "o", "match": "m1", "seat": 0}
    assert msgs[1]["events"] == [{"e": "chose", "seat": 1}]
    assert msgs[1]["legal"] == ["jog", "sprint"]
    assert h.take(2)[-1] == {"t": "presence", "match": "m1", "seat": 0, "state": "connected"}
    assert msgs[1]["presence"] == [{"state": "connected"}, {"state": "connected"}]


def test_an_away_seat_that_owes_nothing_loses_nothing() -> None:
    """Alice chose and locked her phone: however long Bob thinks, she keeps her seat and
    her time; only Bob's own clock runs."""
    h = started(grace=30, clock=Clock(decision=10, bank=20, max_timeouts=2))
    h.do(Decide(1, A, "a", 0, "sprint"), 1.0)
    h.do(Disconnect(1), 2.0)
    assert set(h.timers) == {"clock:1"}  # nothing runs for Alice
    assert h.core.bank[0] == 20
    h.do(TimerFired("clock:1"), 1000.0)  # Bob ran out of time: his default, his timeout
    assert h.core.status == "playing" and h.core.timeouts == [0, 1]
    assert h.core.bank[0] == 20


def test_an_away_seat_that_owes_a_decision_runs_its_clock_as_if_present() -> None:
    h = started(grace=30, clock=Clock(decision=10, bank=20, max_timeouts=2))
    h.do(Disconnect(1), 0.0)
    assert h.timers["clock:0"] == 30.0  # decision + bank, exactly as if she were there
    h.do(Decide(2, B, "b", 0, "jog"), 1.0)
    h.do(TimerFired("clock:0"), 30.0)  # the default decision for her, one timeout
    assert {"k": "d", "s": 0, "by": "t"}.items() <= next(
        e for e in reversed(h.log) if e["k"] == "d" and e["s"] == 0).items()
    assert h.core.timeouts[0] == 1
    assert h.core.status == "playing"
    while h.core.status == "playing":  # her second timeout in a row forfeits
        _, seats, _ = h.core.to_act()
        if 1 in seats:
            p = h.last_prompt(2)
            h.do(Decide(2, B, f"b{p['version']}", p["version"], p["legal"][0]), 31.0)
        if 0 in h.core.to_act()[1]:
            h.do(TimerFired("clock:0"), h.timers["clock:0"])
    assert h.finished is not None and h.finished["reason"] == "timeouts"
    assert h.finished["seat"] == 0


def test_the_opponent_may_claim_the_win_only_after_the_grace() -> None:
    h = started(grace=30)
    h.do(Decide(1, A, "a", 0, "sprint"), 1.0)
    h.do(Disconnect(1), 5.0)
    h.take(2)
    h.do(Claim(2, B, "early"), 20.0)
    err = h.take(2)[-1]
    assert err["code"] == "cannot_claim" and err["claim_at"] == 35.0
    assert h.core.status == "playing" and not h.finished
    h.do(Connect(3, A, re="back"), 30.0)  # back in time: nothing to claim
    h.do(Claim(2, B, "late"), 40.0)
    assert h.take(2)[-1]["code"] == "cannot_claim"
    h.do(Disconnect(3), 41.0)
    h.do(Claim(2, B, "now"), 71.0)
    assert h.finished == {"winner": 1, "score": None, "reason": "claimed", "seat": 0}
    assert h.log[-1] == {"k": "f", "s": 0, "why": "claimed"}
    h.do(Claim(2, B, "now"), 72.0)  # a resend is answered, not applied again
    assert h.take(2)[-2]["t"] == "ack"


def test_nobody_can_claim_against_a_present_player_or_a_bot() -> None:
    h = started()
    h.do(Claim(1, A, "c"), 500.0)
    assert h.take(1)[-1]["code"] == "cannot_claim"
    b = Host(new_core())
    b.do(Sit(0, A, "Alice", conn=1))
    b.do(Sit(1, "bot:random", "random bot", bot="random"))
    b.do(Claim(1, A, "c"), 500.0)
    assert b.take(1)[-1]["code"] == "cannot_claim"


def test_a_restart_forfeits_nobody_and_adds_the_restart_grace() -> None:
    a = started(grace=30, clock=Clock(decision=10, bank=20, max_timeouts=1))
    a.do(Decide(1, A, "a", 0, "sprint"), 1.0)
    restored = Host(MatchCore.restore(toy.GAME, toy.BOTS, a.snapshot, a.log, grace=30,
                                      restart_grace=60))
    restored.log, restored.snapshot = list(a.log), a.snapshot
    restored.do(Resume(), 1000.0)  # long downtime, nobody connected yet
    assert restored.core.status == "playing" and restored.finished is None
    assert restored.timers == {"clock:1": 1000.0 + 60 + 10 + 20}
    assert restored.core.claim_at(0) == 1030.0  # away time counts from the restart
    restored.do(Connect(2, B, re="o"), 1050.0)
    restored.do(Claim(2, B, "c"), 1020.0)
    assert restored.take(2)[-1]["code"] == "cannot_claim"


def test_reserved_seats_take_only_their_players() -> None:
    h = Host(new_core())
    effects = h.do(Reserve(((A, "Alice"), (B, "Bob")), start_by=100.0))
    assert isinstance(effects[0], Persist) and h.snapshot["meta"]["reserved"] == [
        [A, "Alice"], [B, "Bob"]]
    assert h.timers == {"expire": 100.0}
    h.do(Sit(1, "mallory", "Mallory", conn=9, re="x"))
    assert h.take(9)[-1]["code"] == "not_your_seat" and h.core.seats[1] is None
    h.do(Sit(0, A, "Alice", conn=1, re="a"))
    h.do(Sit(1, B, "Bob", conn=2, re="b"))
    assert h.core.status == "playing"


@pytest.mark.parametrize(("sat", "result"), [
    ((0,), {"winner": 0, "score": None, "reason": "no_show", "seat": 1}),
    ((), {"winner": None, "score": None, "reason": "no_show_both"}),
])
def test_a_reserved_match_nobody_finishes_sitting_in_is_a_no_show(
        sat: tuple[int, ...], result: dict[str, Any]) -> None:
    h = Host(new_core())
    h.do(Reserve(((A, "Alice"), (B, "Bob")), start_by=100.0))
    for s in sat:
        h.do(Sit(s, (A, B)[s], "x", conn=s + 1))
    h.do(TimerFired("expire"), 100.0)
    assert h.finished == result and h.snapshot["ended"] == 100.0


def test_a_reserved_match_keeps_its_no_show_deadline_across_a_restart() -> None:
    # A tournament's no-show rule acts by itself: the deadline is in the match's
    # snapshot, so a server restarted before (or after) it still forfeits the absent.
    h = Host(new_core())
    h.do(Reserve(((A, "Alice"), (B, "Bob")), start_by=100.0))
    h.do(Sit(0, A, "Alice", conn=1))
    r = Host(MatchCore.restore(toy.GAME, toy.BOTS, h.snapshot, h.log))
    r.log, r.snapshot = list(h.log), h.snapshot
    r.do(Resume(), 150.0)  # back after the deadline passed while it was down
    assert r.timers == {"expire": 100.0}
    r.do(TimerFired("expire"), 150.0)
    assert r.finished == {"winner": 0, "score": None, "reason": "no_show", "seat": 1}


def test_resigning_before_anyone_joined_cancels() -> None:
    h = Host(new_core())
    h.do(Sit(0, A, "Alice", conn=1))
    h.do(Resign(1, A, "r"))
    assert h.finished == {"winner": None, "score": None, "reason": "cancelled"}
    assert h.timers == {}


def test_an_unjoined_match_expires() -> None:
    h = Host(new_core(waiting_ttl=60))
    h.do(Sit(0, A, "Alice", conn=1))
    h.do(TimerFired("expire"), 60.0)
    assert h.finished == {"winner": None, "score": None, "reason": "expired"}


def test_against_a_server_bot_only_the_human_is_prompted() -> None:
    h = Host(new_core())
    h.do(Sit(0, A, "Alice", conn=1))
    h.do(Sit(1, "bot", "Random bot", bot="random"))
    assert set(h.timers) == {"clock:0"}
    rng = random.Random(0)
    while h.core.status == "playing":
        prompt = h.last_prompt(1)
        assert prompt["legal"]
        h.do(Decide(1, A, f"v{prompt['version']}", prompt["version"],
                    rng.choice(prompt["legal"])))
    bot_moves = [e for e in h.log if e["k"] == "d" and e["s"] == 1]
    assert bot_moves and all(e["by"] == "b" for e in bot_moves)


def test_spectators_see_the_public_view() -> None:
    h = started()
    h.do(Decide(1, A, "a", 0, "sprint"))
    h.do(Connect(9, None, watch=True, re="w"))
    ack, prompt = h.take(9)
    assert ack["seat"] is None and prompt["seat"] is None
    assert prompt["events"] == [{"e": "chose", "seat": 0}]
    assert prompt["legal"] == []
    assert prompt["view"]["choices"] == ["hidden", None]


def test_opening_a_match_without_a_seat_is_refused() -> None:
    h = started()
    h.do(Connect(9, "mallory", re="o"))
    assert h.take(9)[0]["code"] == "not_your_seat"
    assert 9 not in h.core.conns


def test_seating_twice() -> None:
    h = started()
    with pytest.raises(ValueError):
        h.do(Sit(0, "carol", "Carol"))  # a host bug
    effects = h.do(Sit(1, "carol", "Carol", conn=5, re="j"))
    assert not any(isinstance(e, Persist) for e in effects)
    assert h.take(5)[0]["code"] == "match_full"
    h2 = Host(new_core())
    h2.do(Sit(0, A, "A", conn=1))
    h2.do(Sit(1, "bot", "Bot", bot="nonesuch", conn=1, re="b"))
    assert h2.take(1)[-1]["code"] == "unknown_bot"


def test_a_waiting_match_expires_soon_after_its_creator_leaves() -> None:
    h = Host(new_core(waiting_ttl=3600.0, waiting_grace=120.0))
    h.do(Sit(0, A, "Alice", conn=1, re="c"), now=0.0)
    assert h.timers == {"expire": 3600.0}
    h.do(Disconnect(1), now=10.0)
    assert h.timers == {"expire": 130.0}  # gone: the grace, not the hour
    h.do(Connect(3, A), now=100.0)  # back in time (another tab, a reload)
    assert h.timers == {"expire": 3600.0}
    h.do(Disconnect(3), now=200.0)
    h.do(TimerFired("expire"), now=320.0)
    assert h.core.status == "over" and h.finished["reason"] == "expired"


def test_after_a_restart_a_waiting_creator_has_the_grace_to_come_back() -> None:
    h = Host(new_core(waiting_grace=120.0))
    h.do(Sit(0, A, "Alice", conn=1, re="c"), now=0.0)
    core = MatchCore.restore(toy.GAME, toy.BOTS, h.snapshot, h.log, waiting_grace=120.0)
    again = Host(core)
    again.do(Resume(), now=1000.0)
    assert again.timers == {"expire": 1120.0}


class _Thinker:
    """A bot that takes time: the core asks the host to run it (``Think``)."""

    thinks = True

    def __call__(self, view: Any, legal: Any, rng: random.Random) -> str:
        return toy.greedy_bot(view, legal, rng)


def _thinking_core() -> MatchCore:
    return MatchCore(toy.GAME, {**toy.BOTS, "deep": _Thinker()}, match_id="m1",
                     config={"board": 30}, seed=SEED, now=0.0)


def test_a_thinking_bot_is_run_by_the_host_once_per_question() -> None:
    h = Host(_thinking_core())
    h.do(Sit(0, A, "Alice", conn=1))
    effects = h.do(Sit(1, "bot", "Deep bot", bot="deep"))
    thinks = [e for e in effects if isinstance(e, Think)]
    assert [(t.seat, t.bot) for t in thinks] == [(1, "deep")]
    assert thinks[0].legal == ["jog", "sprint"] and thinks[0].view["seat"] == 1
    assert set(h.timers) == {"clock:0"}  # a bot has no clock
    # The human chooses first (a secret choice): the bot's question is the same one,
    # so it is not asked again.
    prompt = h.last_prompt(1)
    effects = h.do(Decide(1, A, "a", prompt["version"], "jog"))
    assert not [e for e in effects if isinstance(e, Think)]
    h.do(Thought(1, thinks[0].asked, "sprint"))
    bot_moves = [e for e in h.log if e["k"] == "d" and e["s"] == 1]
    assert bot_moves == [dict(bot_moves[0], d="sprint", by="b")]
    # An answer nobody asked for (a second copy, a question already closed) changes nothing.
    before = len(h.log)
    h.do(Thought(1, thinks[0].asked, "jog"))
    assert len(h.log) == before


def test_a_thinking_bot_plays_a_match_out_and_a_bad_answer_plays_the_default() -> None:
    h = Host(_thinking_core())
    h.do(Sit(0, A, "Alice", conn=1))
    asked = [e for e in h.do(Sit(1, "bot", "Deep bot", bot="deep")) if isinstance(e, Think)]
    h.do(Thought(1, asked[0].asked, "fly to the moon"))  # failed: the default instead
    assert [e["d"] for e in h.log if e["k"] == "d" and e["s"] == 1] == ["jog"]
    rng = random.Random(3)
    asked = []
    while h.core.status == "playing":
        if asked:  # the host answers what the core asked, as an actor's thread would
            t = asked.pop()
            effects = h.do(Thought(t.seat, t.asked, rng.choice(t.legal)))
        else:
            prompt = h.last_prompt(1)
            effects = h.do(Decide(1, A, f"v{prompt['version']}", prompt["version"],
                                  rng.choice(prompt["legal"])))
        asked += [e for e in effects if isinstance(e, Think)]
    assert h.finished is not None and h.finished["reason"] == "played"
    assert all(e["by"] == "b" for e in h.log if e["k"] == "d" and e["s"] == 1)


def test_a_restored_match_asks_its_thinking_bot_again() -> None:
    h = Host(_thinking_core())
    h.do(Sit(0, A, "Alice", conn=1))
    h.do(Sit(1, "bot", "Deep bot", bot="deep"))  # the Think is lost with the process
    core = MatchCore.restore(toy.GAME, {**toy.BOTS, "deep": _Thinker()}, h.snapshot, h.log)
    h2 = Host(core)
    thinks = [e for e in h2.do(Resume(), 10.0) if isinstance(e, Think)]
    assert [t.seat for t in thinks] == [1]
    h2.do(Thought(1, thinks[0].asked, "sprint"))
    assert [e["d"] for e in h2.log if e["k"] == "d" and e["s"] == 1] == ["sprint"]


def test_a_live_match_holds_only_the_log_window_and_catches_up_from_the_store() -> None:
    """Memory does not grow with a match's length: only the last ``log_window`` entries
    stay in the core; a reconnect from the start is told to read the rest back, and the
    end's public log is left for the host to fill from the store."""
    h = started(log_window=4)
    full = started()  # the same match with the whole log in memory
    rng_a, rng_b = random.Random(8), random.Random(8)
    for _ in range(15):
        for host, rng in ((h, rng_a), (full, rng_b)):
            seat = rng.choice(host.core.to_act()[1])
            prompt = host.last_prompt(seat + 1)
            host.do(Decide(seat + 1, (A, B)[seat], f"{seat}-{prompt['version']}",
                           prompt["version"], rng.choice(prompt["legal"])))
    assert len(h.core.log._packed) <= 4 < len(h.log) == len(full.log)
    catch_up = Connect(7, A, since=0, re="o")
    assert h.core.needs_history(catch_up) and not full.core.needs_history(catch_up)
    h.core.backfill([msgpack.packb(e) for e in h.log])  # what the store holds
    h.do(catch_up)
    full.do(catch_up)
    assert h.last_prompt(7)["events"] == full.last_prompt(7)["events"]
    assert len(h.core.log._packed) <= 4  # trimmed again after the command
    h.do(Resign(1, A, "r"))
    full.do(Resign(1, A, "r"))
    over = next(m for m in h.take(2) if m["t"] == "over")
    assert over["log"] is None  # the actor fills it from the store
    assert next(m for m in full.take(2) if m["t"] == "over")["log"] == [
        {k: v for k, v in e.items() if k not in ("e", "re", "b")} for e in full.log]


def test_kickline_secret_choices_both_made_on_the_phases_first_version_are_accepted() -> None:
    """In a secret phase both seats are prompted with the same version and answer it; the
    second to arrive used to get stale_version every time (405 of 405 in the campaign)."""
    import kickline

    core = MatchCore(kickline.GAME, {}, match_id="k", config={
        "mode": "standard", "board": 7, "teams": ["cyborgs", "oozes"]}, seed=SEED, now=0.0)
    h = Host(core)
    h.do(Sit(0, A, "Alice", conn=1, re="c"))
    h.do(Sit(1, B, "Bob", conn=2, re="j"))
    rng = random.Random(4)
    secret_phases = stale = 0
    now = 1.0
    while core.status == "playing" and secret_phases < 4:
        kind, seats, _ = core.to_act()
        assert kind == "decide"
        version = core._version()
        choices = {s: rng.choice(core._legal(s)) for s in seats}  # all chosen on `version`
        secret_phases += len(seats) == 2
        for s in rng.sample(list(seats), len(seats)):
            h.inbox.clear()
            h.do(Decide(s + 1, (A, B)[s], f"{now}-{s}", version, choices[s]), now)
            stale += any(m.get("code") == "stale_version" for m in h.inbox.get(s + 1, []))
        now += 1
    assert secret_phases == 4 and stale == 0
