"""The quick-match queue's pairing rules over simulated time."""

from __future__ import annotations

import random

from kickline_server.matchqueue import Entry, MemoryQueue, Window, pair


def names(pairs: list[tuple[Entry, Entry]]) -> list[tuple[str, str]]:
    return [(a.player, b.player) for a, b in pairs]


def test_the_window_starts_narrow_widens_in_steps_and_stops_at_the_cap() -> None:
    w = Window()
    assert [w.at(t) for t in (0, 4.9, 5, 10, 34.9, 35, 600)] == [50, 50, 100, 150, 350,
                                                                   400, 400]


def test_a_wide_gap_pairs_only_once_both_windows_reach_it() -> None:
    a, b = Entry("a", 1500, since=0), Entry("b", 1720, since=0)
    gap = 220
    times = [t / 10 for t in range(0, 400)]
    first = next(t for t in times if pair([a, b], t, rated=True))
    assert Window().at(first) >= gap > Window().at(first - 0.1)
    late = Entry("c", 1720, since=first)  # just arrived: its window is narrow
    assert pair([a, late], first, rated=True) == []


def test_players_beyond_the_cap_are_never_paired_rated() -> None:
    assert pair([Entry("a", 1000, 0), Entry("b", 1401, 0)], 10_000, rated=True) == []
    assert names(pair([Entry("a", 1000, 0), Entry("b", 1401, 1)], 10_000, rated=False)) == [
        ("a", "b")]


def test_the_closest_ratings_pair_first() -> None:
    entries = [Entry("a", 1500, 0), Entry("b", 1530, 0), Entry("c", 1540, 0),
               Entry("d", 1900, 0)]
    assert names(pair(entries, 0, rated=True)) == [("b", "c")]
    assert sorted(names(pair(entries, 60, rated=True))) == [("a", "d"), ("b", "c")]


def test_no_rematch_while_anyone_else_waits() -> None:
    a = Entry("a", 1500, 0, last_opponent="b")
    b = Entry("b", 1500, 0, last_opponent="a")
    assert names(pair([a, b], 0, rated=True)) == [("a", "b")]  # nobody else: fine
    c = Entry("c", 1600, 0)
    got = pair([a, b, c], 0, rated=True)
    assert got == []  # c is too far yet, and a-b may not replay while c waits
    assert names(pair([a, b, c], 10, rated=True)) in ([("a", "c")], [("b", "c")])
    assert names(pair([a, b, c], 0, rated=False)) == [("a", "c")]


def test_casual_is_first_come_first_served() -> None:
    entries = [Entry("late", 1500, 5), Entry("early", 2500, 1), Entry("mid", 900, 3)]
    assert names(pair(entries, 6, rated=False)) == [("early", "mid")]


def test_random_queues_pair_everyone_once_within_the_rules() -> None:
    rng = random.Random(3)
    for _ in range(200):
        entries = [Entry(f"p{i}", rng.uniform(1000, 2000), rng.uniform(0, 60))
                   for i in range(rng.randint(0, 30))]
        now = 60.0
        pairs = pair(entries, now, rated=True)
        seen = [p for ab in pairs for p in (ab[0].player, ab[1].player)]
        assert len(seen) == len(set(seen))
        for a, b in pairs:
            gap = abs(a.rating - b.rating)
            assert gap <= min(Window().at(now - a.since), Window().at(now - b.since))


def test_the_memory_queue_keeps_one_entry_per_player() -> None:
    q = MemoryQueue()
    q.add("k1", Entry("a", 1500, 0))
    q.add("k2", Entry("a", 1500, 1))
    assert q.waiting("k1") == [] and [e.player for e in q.waiting("k2")] == ["a"]
    assert q.remove("a") == "k2" and q.remove("a") is None and list(q.keys()) == []
