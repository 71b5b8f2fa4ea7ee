"""The tournament host: persist before acting, idempotent matches, restart, results.

The match server and the store are fakes here (the end-to-end tests use the real
ones): what is checked is the host's order of work and what it does after a crash.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import pytest
from tourney import Scripted

from kickline_server.store import LogConflict, StoreUnavailable, unpack
from kickline_server.tournament import Draw, Refused
from kickline_server.tournaments import TournamentLimits, Tournaments, event_id, result_of

pytestmark = pytest.mark.anyio


class FakeStore:
    def __init__(self) -> None:
        self.logs: dict[str, list[bytes]] = {}
        self.created: dict[str, float] = {}
        self.finished: set[str] = set()
        self.orgs: set[str] = {"org"}
        self.fail = 0  # the next ``fail`` appends raise StoreUnavailable
        self.trace: list[str] = []

    async def append_events(self, tid: str, start: int, events: Sequence[bytes]) -> None:
        if self.fail:
            self.fail -= 1
            raise StoreUnavailable("down")
        log = self.logs.setdefault(tid, [])
        assert start <= len(log)
        if len(log) > start:  # the stores' rule: a retry changes nothing, else conflict
            if log[start:] != list(events):
                raise LogConflict(f"{tid} has {len(log)} entries, asked at {start}")
            return
        log.extend(events)
        self.trace.append(f"persist {tid} {len(log)}")

    async def tournament_events(self, tid: str) -> list[bytes]:
        return list(self.logs.get(tid, []))

    async def tournament_length(self, tid: str) -> int:
        return len(self.logs.get(tid, []))

    async def create_tournament(self, tid: str, created: float) -> bool:
        if tid in self.created:
            return False
        self.created[tid] = created
        return True

    async def tournament_ids(self, *, unfinished: bool) -> list[str]:
        ids = sorted(self.created, key=lambda t: -self.created[t])
        return [t for t in ids if not (unfinished and t in self.finished)]

    async def finish_tournament(self, tid: str) -> None:
        self.finished.add(tid)

    async def organisers(self) -> set[str]:
        return set(self.orgs)

    async def grant_organiser(self, player: str) -> None:
        self.orgs.add(player)


class FakeMaker:
    def __init__(self, store: FakeStore) -> None:
        self.store = store
        self.live: dict[str, dict[str, Any]] = {}
        self.records: dict[str, dict[str, Any]] = {}
        self.stopped: list[str] = []
        self.fail: set[str] = set()  # reserve raises for these

    async def reserve(self, match_id: str, players: tuple[tuple[str, str], tuple[str, str]],
                      *, config: Mapping[str, Any], decision: float, bank: float,
                      rated: bool, start_by: float, meta: Mapping[str, Any]) -> None:
        # The event that made this match must already be stored when it is made.
        stored = [unpack(e) for log in self.store.logs.values() for e in log]
        assert any(match_id in e.get("matches", {}).values()
                   or any(b[3] == match_id for b in e.get("boards", []) if len(b) == 4)
                   for e in stored), f"{match_id} made before its event was stored"
        if match_id in self.fail:
            raise StoreUnavailable("down")
        if match_id in self.live or match_id in self.records:
            return
        self.live[match_id] = {"players": players, "config": dict(config), "meta": dict(meta),
                               "start_by": start_by, "rated": rated}
        self.store.trace.append(f"reserve {match_id}")

    async def stop(self, match_id: str) -> None:
        if self.live.pop(match_id, None) is not None:
            self.stopped.append(match_id)

    async def record(self, match_id: str) -> dict[str, Any] | None:
        return self.records.get(match_id)

    async def rating(self, player: str, mode: str) -> int:
        return 1500 + sum(map(ord, player)) % 300

    def finish(self, match_id: str, winner: int | None, score: list[int] | None,
               reason: str = "played") -> dict[str, Any]:
        m = self.live.pop(match_id)
        rec = {"match": match_id, "winner": winner, "score": score, "reason": reason,
               "tournament": m["meta"]["tournament"]}
        self.records[match_id] = rec
        return rec


def server(store: FakeStore | None = None, draws: dict[int, Draw] | None = None
           ) -> tuple[Tournaments, FakeStore, FakeMaker]:
    store = store or FakeStore()
    maker = FakeMaker(store)
    ts = Tournaments(store, maker, pairer=Scripted(draws or {}), clock=lambda: 5000.0,
                     limits=TournamentLimits(retry_min=0.0, retries=3))
    return ts, store, maker


async def four_players(ts: Tournaments) -> str:
    reply = await ts.create("org", "make-1", {"name": "Friday", "rounds": 3,
                                              "no_show_minutes": 5})
    tid = reply["tournament"]
    for i, name in enumerate(("Ann", "Ben", "Cat", "Dov")):
        await ts.command(tid, f"acc{i}", name, "join", "join", {})
    return tid


async def test_a_round_starts_after_it_is_saved_and_its_matches_seat_the_pair() -> None:
    ts, store, maker = server(draws={1: Draw(((1, 2), (3, 4)))})
    tid = await four_players(ts)
    assert tid == event_id("org", "make-1")
    await ts.command(tid, "org", "Org", "p1", "pair", {"round": 1})
    await ts.command(tid, "org", "Org", "s1", "start", {"round": 1})
    assert sorted(maker.live) == [f"{tid}-1-1", f"{tid}-1-2"]
    m = maker.live[f"{tid}-1-1"]
    assert m["players"] == (("acc0", "Ann"), ("acc1", "Ben"))
    assert m["start_by"] == 5000.0 + 5 * 60
    assert m["meta"]["tournament"] == {"id": tid, "name": "Friday", "round": 1, "board": 1}
    assert (m["config"]["mode"], m["config"]["board"]) == ("standard", 7)
    assert store.trace[-3].startswith("persist") and store.trace[-1].startswith("reserve")


async def test_results_come_from_the_matches_and_a_resend_is_answered_once() -> None:
    ts, _, maker = server(draws={1: Draw(((1, 2), (3, 4)))})
    tid = await four_players(ts)
    await ts.command(tid, "org", "Org", "p1", "pair", {"round": 1})
    again = await ts.command(tid, "org", "Org", "p1", "pair", {"round": 1})
    assert again == {"round": 1} and len(ts.pairer.asked) == 1
    await ts.command(tid, "org", "Org", "s1", "start", {"round": 1})
    await ts.on_record(maker.finish(f"{tid}-1-1", 1, [1, 1]))  # away wins the shootout
    await ts.on_record(maker.finish(f"{tid}-1-2", 0, None, "no_show"))
    host = await ts.get(tid)
    assert host is not None
    r1 = host.t.round(1)
    assert r1.done
    assert r1.boards[0].result is not None and r1.boards[0].result.shootout
    assert r1.boards[1].result is not None and r1.boards[1].result.kind == "forfeit"
    # A record told twice (a listener after a crash) changes nothing.
    version = host.t.version
    await ts.on_record(maker.records[f"{tid}-1-1"])
    assert host.t.version == version


async def test_adjudicating_a_board_stops_its_match() -> None:
    ts, _, maker = server(draws={1: Draw(((1, 2), (3, 4)))})
    tid = await four_players(ts)
    await ts.command(tid, "org", "Org", "p1", "pair", {"round": 1})
    await ts.command(tid, "org", "Org", "s1", "start", {"round": 1})
    await ts.command(tid, "org", "Org", "a1", "adjudicate",
                     {"round": 1, "board": 2, "result": {"winner": "home"}})
    assert maker.stopped == [f"{tid}-1-2"]


async def test_a_restart_mid_round_makes_missing_matches_and_applies_missed_results() -> None:
    ts, store, maker = server(draws={1: Draw(((1, 2), (3, 4)))})
    tid = await four_players(ts)
    await ts.command(tid, "org", "Org", "p1", "pair", {"round": 1})
    await ts.command(tid, "org", "Org", "s1", "start", {"round": 1})
    # The crash: board 2's match was never made, board 1's finished unheard.
    maker.live.pop(f"{tid}-1-2")
    maker.finish(f"{tid}-1-1", 0, [2, 0])
    ts2 = Tournaments(store, maker, pairer=Scripted({}), clock=lambda: 6000.0)
    assert await ts2.load() == 1
    host = await ts2.get(tid)
    assert host is not None
    r1 = host.t.round(1)
    assert r1.boards[0].result is not None and r1.boards[0].result.winner == "home"
    assert f"{tid}-1-2" in maker.live
    # The re-made match gives its players the whole no-show window from now.
    assert maker.live[f"{tid}-1-2"]["start_by"] == 6000.0 + 5 * 60


async def test_a_match_that_could_not_be_made_is_made_later_by_itself_or_by_start() -> None:
    ts, _, maker = server(draws={1: Draw(((1, 2), (3, 4)))})
    tid = await four_players(ts)
    await ts.command(tid, "org", "Org", "p1", "pair", {"round": 1})
    maker.fail = {f"{tid}-1-1", f"{tid}-1-2"}
    with pytest.raises(Refused) as e:
        await ts.command(tid, "org", "Org", "s1", "start", {"round": 1})
    assert e.value.code == "busy" and "boards 1, 2" in e.value.message
    assert not maker.live
    maker.fail = {f"{tid}-1-2"}
    await ts.overdue()  # the periodic check tries again, without the organiser
    assert sorted(maker.live) == [f"{tid}-1-1"]
    maker.fail = set()
    # Or the organiser's start again, on a started round, makes what is missing.
    again = await ts.command(tid, "org", "Org", "s2", "start", {"round": 1})
    assert again == {"round": 1} and sorted(maker.live) == [f"{tid}-1-1", f"{tid}-1-2"]
    host = await ts.get(tid)
    assert host is not None and not host.unmade


async def test_a_store_outage_answers_busy_and_changes_nothing() -> None:
    ts, store, maker = server(draws={1: Draw(((1, 2), (3, 4)))})
    tid = await four_players(ts)
    store.fail = 5
    with pytest.raises(Refused) as e:
        await ts.command(tid, "org", "Org", "p1", "pair", {"round": 1})
    assert e.value.code == "busy"
    host = await ts.get(tid)
    assert host is not None and not host.t.rounds and not maker.live
    # The same command once the store is back: paired once.
    await ts.command(tid, "org", "Org", "p1", "pair", {"round": 1})
    assert len(host.t.rounds) == 1


async def test_who_may_create_and_what_a_player_may_send() -> None:
    ts, store, _ = server()
    with pytest.raises(Refused) as e:
        await ts.create("acc0", "m", {"name": "Mine"})
    assert e.value.code == "not_organiser"
    tid = await four_players(ts)
    # A resent create finds the event it made.
    assert (await ts.create("org", "make-1", {"name": "Friday"}))["tournament"] == tid
    assert len(store.created) == 1
    for op, args in (("result", {}), ("pair", {"round": 1, "role": "organiser"})):
        with pytest.raises(Refused) as e:
            await ts.command(tid, "acc0", "Ann", "x", op, args)
        assert e.value.code == "bad_field"
    with pytest.raises(Refused) as e:
        await ts.command(tid, "acc0", "Ann", "x", "pair", {"round": 1})
    assert e.value.code == "not_organiser"
    with pytest.raises(Refused) as e:
        await ts.command("nope", "acc0", "Ann", "x", "join", {})
    assert e.value.code == "not_found"
    assert [s["tournament"] for s in await ts.listing()] == [tid]


def test_match_records_become_board_results() -> None:
    assert result_of({"reason": "played", "winner": 0, "score": [2, 1]}) == {
        "kind": "played", "winner": "home", "goals": [2, 1], "shootout": False}
    assert result_of({"reason": "played", "winner": 1, "score": [0, 0]})["shootout"]
    assert result_of({"reason": "resigned", "winner": 1, "score": None}) == {
        "kind": "played", "winner": "away", "goals": None, "shootout": False}
    assert result_of({"reason": "no_show", "winner": 0}) == {"kind": "forfeit",
                                                               "winner": "home"}
    assert result_of({"reason": "no_show_both", "winner": None}) == {"kind": "forfeit",
                                                                      "winner": None}
    assert result_of({"reason": "cancelled", "winner": None}) is None


async def test_a_withdrawal_re_pairs_the_draft_or_stops_the_match_in_hand() -> None:
    ts, _, maker = server(draws={1: Draw(((1, 2), (3, 4)))})
    tid = await four_players(ts)
    await ts.command(tid, "org", "Org", "p1", "pair", {"round": 1})
    # No pairing without Dov exists (the pairer refuses in its thread): his opponent
    # wins the board by forfeit instead, and no match is made for it.
    ts.pairer.draws[1] = Refused("no_pairing", "no legal pairing")
    reply = await ts.command(tid, "acc3", "Dov", "w1", "withdraw", {"pid": 4})
    assert reply == {"forfeited": [{"round": 1, "board": 2}]}
    await ts.command(tid, "org", "Org", "s1", "start", {"round": 1})
    assert sorted(maker.live) == [f"{tid}-1-1"]
    # Ben withdraws mid-round: his match is stopped, Ann wins by forfeit.
    reply = await ts.command(tid, "acc1", "Ben", "w2", "withdraw", {"pid": 2})
    assert reply == {"forfeited": [{"round": 1, "board": 1}]}
    assert maker.stopped == [f"{tid}-1-1"]
    host = await ts.get(tid)
    assert host is not None and host.t.round(1).done


async def test_no_shows_are_forfeited_by_themselves_once_and_after_a_restart() -> None:
    store = FakeStore()
    maker = FakeMaker(store)
    now = [5000.0]
    ts = Tournaments(store, maker, pairer=Scripted({1: Draw(((1, 4), (2, 5), (3, 6)))}),
                     clock=lambda: now[0], limits=TournamentLimits(retry_min=0.0, retries=3))
    tid = (await ts.create("org", "mk", {"name": "Roster night", "rounds": 3,
                                         "no_show_minutes": 10, "round_minutes": 5}))["tournament"]
    tokens = {}
    for i, name in enumerate(("Ann", "Ben", "Cat", "Dov", "Eve", "Fay")):
        if name in ("Dov", "Eve"):  # roster lines the organiser entered
            reply = await ts.command(tid, "org", "Org", f"add{i}", "add_entry", {"name": name})
            tokens[name] = reply["token"]
        else:
            await ts.command(tid, f"acc{i}", name, f"j{i}", "join", {})
    with pytest.raises(Refused) as e:  # only a claim carries a token of the sender's
        await ts.command(tid, "org", "Org", "add9", "add_entry", {"name": "Gus",
                                                                  "token": "t" * 20})
    assert e.value.code == "bad_field"
    await ts.command(tid, "org", "Org", "p1", "pair", {"round": 1})
    await ts.command(tid, "org", "Org", "s1", "start", {"round": 1})
    # Dov's and Eve's lines are unclaimed: nobody can sit there, so no match is made.
    # Cat's match waits for Fay until the round's deadline (5 minutes, before the
    # 10-minute no-show window ends).
    assert sorted(maker.live) == [f"{tid}-1-3"]
    assert maker.live[f"{tid}-1-3"]["start_by"] == 5000.0 + 5 * 60
    # Eve claims her line mid-round: her match is made now, until the deadline.
    now[0] = 5100.0
    await ts.command(tid, "acc-eve", "Eve", "cl", "claim", {"token": tokens["Eve"]})
    assert maker.live[f"{tid}-1-2"]["start_by"] == 5000.0 + 5 * 60
    now[0] = 5299.0
    await ts.overdue()
    host = await ts.get(tid)
    assert host is not None and host.t.round(1).board(1).result is None
    # The server dies; it comes back after the deadline: Dov's board is forfeited by
    # itself (Ann wins), once; the boards with matches are left to their matches.
    now[0] = 5400.0
    ts2 = Tournaments(store, maker, pairer=Scripted({}), clock=lambda: now[0])
    assert await ts2.load() == 1
    host = await ts2.get(tid)
    assert host is not None
    r1 = host.t.round(1)
    res = r1.board(1).result
    assert res is not None and res.kind == "forfeit" and res.winner == "home"
    assert r1.board(2).result is None and r1.board(3).result is None
    version = host.t.version
    await ts2.overdue()
    await ts2.overdue()
    assert host.t.version == version
    # The stored events hold the forfeit once.
    stored = [unpack(e) for e in store.logs[tid]]
    assert sum(1 for e in stored if e["e"] == "result") == 1


async def test_a_no_show_check_on_a_stale_copy_writes_after_what_is_stored() -> None:
    store = FakeStore()
    maker = FakeMaker(store)
    now = [5000.0]
    ts = Tournaments(store, maker, pairer=Scripted({1: Draw(((1, 4), (2, 3)))}),
                     clock=lambda: now[0])
    tid = (await ts.create("org", "mk", {"name": "Two boards", "no_show_minutes": 5})
           )["tournament"]
    for i, name in enumerate(("Ann", "Ben", "Cat")):
        await ts.command(tid, f"acc{i}", name, f"j{i}", "join", {})
    await ts.command(tid, "org", "Org", "add", "add_entry", {"name": "Dov"})
    await ts.command(tid, "org", "Org", "p1", "pair", {"round": 1})
    await ts.command(tid, "org", "Org", "s1", "start", {"round": 1})
    # Another process holds a copy of the event; this one then decides board 2.
    other = Tournaments(store, maker, pairer=Scripted({}), clock=lambda: now[0])
    assert await other.get(tid) is not None
    await ts.command(tid, "org", "Org", "a2", "adjudicate",
                     {"round": 1, "board": 2, "result": {"winner": "home"}})
    now[0] = 5000.0 + 5 * 60
    await other.overdue()
    stored = [unpack(e) for e in store.logs[tid]]
    results = [(e["board"], e["result"]["kind"]) for e in stored if e["e"] == "result"]
    assert results == [(2, "adjudicated"), (1, "forfeit")]


async def test_two_processes_commanding_one_event_never_write_over_each_other() -> None:
    store = FakeStore()
    maker = FakeMaker(store)
    ts, _, _ = server(store, draws={1: Draw(((1, 2), (3, 4)))})
    tid = await four_players(ts)
    await ts.command(tid, "org", "Org", "p1", "pair", {"round": 1})
    await ts.command(tid, "org", "Org", "s1", "start", {"round": 1})
    other = Tournaments(store, maker, pairer=Scripted({}), clock=lambda: 5000.0)
    assert await other.get(tid) is not None
    # One organiser's phone reaches this process, another's the other one (stale now).
    await ts.command(tid, "org", "Org", "a2", "adjudicate",
                     {"round": 1, "board": 2, "result": {"winner": "home"}})
    await other.command(tid, "org", "Org", "a1", "adjudicate",
                        {"round": 1, "board": 1, "result": {"winner": "away"}})
    stored = [unpack(e) for e in store.logs[tid]]
    assert [(e["board"], e["result"]["winner"]) for e in stored if e["e"] == "result"] == [
        (2, "home"), (1, "away")]
    host = await other.get(tid)
    assert host is not None and host.t.round(1).done
    # The first process's copy catches up at its next periodic check, and its
    # watchers are told.
    told: list[int] = []
    ts.notify = lambda _tid, version: told.append(version)
    mine = await ts.get(tid)
    assert mine is not None and not mine.t.round(1).done
    await ts.overdue()
    assert mine.t.round(1).done and mine.t.version == host.t.version
    assert told == [host.t.version]
    await ts.overdue()
    assert len(told) == 1
