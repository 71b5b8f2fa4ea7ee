"""The quick-match queue's pairing rules over simulated time."""

from __future__ import annotations

import random

import pytest

from kickline_server.matchqueue import Entry, MemoryQueue, Window, pair, partner

pytestmark = pytest.mark.anyio


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


async def test_the_memory_queue_keeps_one_entry_per_player() -> None:
    q = MemoryQueue()
    await q.add("k1", Entry("a", 1500, 0))
    await q.add("k2", Entry("a", 1500, 1))
    assert await q.waiting("k1") == [] and [e.player for e in await q.waiting("k2")] == ["a"]
    assert await q.find("a") == ("k2", Entry("a", 1500, 1))
    assert await q.remove("a") == ("k2", Entry("a", 1500, 1))
    assert await q.remove("a") is None and await q.keys() == []


async def test_take_removes_a_pair_only_if_both_still_wait() -> None:
    q = MemoryQueue()
    for p in ("a", "b", "c"):
        await q.add("k", Entry(p, 1500, 0))
    assert await q.take("k", ["a", "b"]) and await q.count("k") == 1
    assert not await q.take("k", ["b", "c"])  # b was taken: c stays
    assert [e.player for e in await q.waiting("k")] == ["c"]


def greedy(entries: list[Entry], now: float) -> list[tuple[str, str]]:
    """The rated rule written the slow, obvious way: every allowed pair, closest first
    (ties: the longer wait, then rating order), taken while both are free."""
    ordered = sorted(entries, key=lambda e: (e.rating, e.since, e.player))
    others_wait = len(entries) > 2
    window = Window()
    allowed = []
    for i, a in enumerate(ordered):
        for j in range(i + 1, len(ordered)):
            b = ordered[j]
            gap = b.rating - a.rating
            rematch = others_wait and (a.last_opponent == b.player
                                       or b.last_opponent == a.player)
            if gap <= min(window.at(now - a.since), window.at(now - b.since)) and not rematch:
                allowed.append((gap, min(a.since, b.since), i, j))
    taken: set[int] = set()
    out = []
    for _, _, i, j in sorted(allowed):
        if i not in taken and j not in taken:
            taken |= {i, j}
            out.append(tuple(sorted((ordered[i].player, ordered[j].player))))
    return sorted(out)  # type: ignore[arg-type]


def test_a_narrow_newcomer_between_two_does_not_hide_them_from_each_other() -> None:
    a, c = Entry("a", 1500, since=0), Entry("c", 1700, since=0)
    b = Entry("b", 1600, since=60)  # just arrived: accepts ±50 only
    assert names(pair([a, b, c], 60, rated=True)) == [("a", "c")]


def test_rated_pairing_equals_the_obvious_greedy_on_random_queues() -> None:
    rng = random.Random(11)
    for _ in range(300):
        n = rng.randint(2, 14)
        # Few distinct ratings and times, so ties and rematches come up often.
        entries = [Entry(f"p{i}", rng.choice([1400, 1450, 1500, 1520, 1600, 1800]),
                         rng.choice([0, 10, 20, 38]),
                         last_opponent=f"p{rng.randrange(n)}" if rng.random() < 0.3 else None)
                   for i in range(n)]
        got = sorted(tuple(sorted((a.player, b.player))) for a, b in
                     pair(entries, 40, rated=True))
        assert got == greedy(entries, 40), entries


def test_an_arrival_pairs_with_the_partner_a_whole_pairing_would_give_it() -> None:
    rng = random.Random(5)
    for _ in range(300):
        now = 40.0
        waiting = [Entry(f"p{i}", rng.uniform(1200, 1800), rng.uniform(0, 40))
                   for i in range(rng.randint(0, 12))]
        # A queue the last tick left as it was: nobody in it may pair now.
        if pair(waiting, now, rated=True):
            continue
        newcomer = Entry("new", rng.uniform(1200, 1800), now)
        found = partner(waiting, newcomer, now, rated=True)
        whole = pair([*waiting, newcomer], now, rated=True)
        assert ([found.player] if found else []) == [
            x.player for ab in whole for x in ab if x.player != "new"]
