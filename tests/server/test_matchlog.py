"""The packed match log: entries come back as they went in, events are numbered across
them, and the events of the last command are served without unpacking."""

from __future__ import annotations

import gc

import pytest

from kickline_server.matchlog import MatchLog
from kickline_server.store import pack, unpack


def entries(n: int) -> list[dict[str, object]]:
    out: list[dict[str, object]] = []
    for i in range(n):
        events = [{"t": "x", "i": i, "j": j} for j in range(i % 3)]  # 0, 1 or 2 events
        out.append({"k": "d", "s": i % 2, "d": f"move {i}", "v": i, "by": "p", "e": events})
    return out


def test_entries_and_events_round_trip() -> None:
    log = MatchLog()
    want = entries(30)
    all_events = []
    for i, e in enumerate(want):
        log.mark()
        before = log.event_count
        log.append(e)
        all_events.extend(e["e"])  # type: ignore[arg-type]
        assert log.events(before) == e["e"]  # the fresh ones, as they came
        for since in range(0, log.event_count + 1, 3):  # older ones, unpacked
            assert log.events(since) == all_events[since:]
        assert log[i] == e and log[-1] == e
    assert len(log) == 30 and log.event_count == len(all_events)
    assert list(log) == want and log == want and log[5:7] == want[5:7]
    assert [unpack(b) for b in log.packed(28)] == want[28:]


def test_the_log_holds_nothing_the_garbage_collector_walks() -> None:
    log = MatchLog()
    for e in entries(50):
        log.append(e)
    log.mark()
    assert not any(gc.is_tracked(x) for x in log._packed)


def test_trimmed_to_a_window_and_backfilled_from_the_store() -> None:
    log, stored = MatchLog(keep=5), []
    want = entries(40)
    for e in want:
        log.append(e)
        stored.append(pack(e))
        log.mark()
        log.trim(len(log) - 2)  # the last two not yet persisted: never trimmed
    assert len(log) == 40 and len(log._packed) == 5 and not log.complete
    everything = [ev for e in want for ev in e["e"]]  # type: ignore[attr-defined]
    assert log.events(log.first_event) == everything[log.first_event:]
    assert log[-1] == want[-1] and log[35] == want[35]
    with pytest.raises(LookupError):
        log.events(0)
    with pytest.raises(IndexError):
        log[3]
    log.backfill(stored)
    assert log.complete and list(log) == want and log.events(0) == everything
    log.trim(40)
    assert len(log._packed) == 5 and log.event_count == len(everything)
