"""The tournament state machine: commands, refusals, idempotency, replay."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from tourney import Event, Scripted

from kickline_server.tournament import Draw, Refused, Tournament
from kickline_server.tournament.deadlines import start_by
from kickline_server.tournament.export import view


def refused(ev: Event, op: str, code: str, **kw: Any) -> Refused:
    """Send a command that must be refused, and check it changed nothing."""
    before = copy.deepcopy(ev.view())
    version = ev.t.version
    with pytest.raises(Refused) as e:
        ev.do(op, **kw)
    assert e.value.code == code, e.value.message
    assert ev.view() == before and ev.t.version == version
    return e.value


def four(pairer: Scripted | None = None, **settings: Any) -> Event:
    ev = Event(pairer or Scripted({1: Draw(((1, 2), (3, 4)))}), rounds=3, **settings)
    for name, rating in (("Ann", 1900), ("Ben", 1800), ("Cat", 1700), ("Dov", 1600)):
        ev.join(name, rating)
    return ev


def test_a_resent_pair_round_never_pairs_twice() -> None:
    pairer = Scripted({1: Draw(((1, 2), (3, 4)))})
    ev = four(pairer)
    cmd = ev.cmd("pair", round=1)
    first = ev.send(cmd)
    events = len(ev.events)
    again = ev.send(dict(cmd))
    assert again == first == {"round": 1}
    assert len(ev.events) == events and len(pairer.asked) == 1
    # The same request under a new id is refused with a reason, not paired again.
    e = refused(ev, "pair", "already_paired", round=1)
    assert "already paired" in e.message
    # After a restart (replay of the stored events) the resend is still answered.
    t = ev.replayed()
    assert t.handle(dict(cmd), pairer) == ([], {"round": 1})
    assert len(pairer.asked) == 1


def test_replaying_the_events_rebuilds_the_same_event() -> None:
    ev = four(Scripted({1: Draw(((1, 2), (3, 4))), 2: Draw(((2, 3), (4, 1)))}))
    ev.do("forbid", a=1, b=4)
    ev.do("pair", round=1)
    ev.do("start", round=1)
    ev.play(1, 1, "home", (2, 0))
    ev.do("forfeit", role="system", round=1, board=2, absent="away")
    ev.do("edit", settings={"name": "Club night (final)"})
    t = ev.replayed()
    assert view(t, organiser=True) == ev.view()
    assert t.replies == ev.t.replies and t.version == ev.t.version


def test_only_the_organiser_runs_the_event() -> None:
    ev = four()
    for op, kw in (("pair", {"round": 1}), ("forbid", {"a": 1, "b": 2}),
                   ("edit", {"settings": {"name": "Mine"}}), ("close", {})):
        refused(ev, op, "not_organiser", role="player", by="acc-Ann", **kw)
    # A player may withdraw themselves, not someone else.
    refused(ev, "withdraw", "not_yours", role="player", by="acc-Ann", pid=2)
    ev.do("withdraw", role="player", by="acc-Ann", pid=1)
    assert ev.t.entries[1].status == "withdrawn"


def test_bad_commands_are_refused_with_a_reason_and_change_nothing() -> None:
    ev = four()
    refused(ev, "pair", "bad_round", round=2)
    refused(ev, "start", "not_found", round=1)
    refused(ev, "withdraw", "not_found", pid=99)
    refused(ev, "edit", "bad_settings", settings={"rounds": 0})
    refused(ev, "edit", "bad_settings", settings={"scoring": {"win": "1.25"}})
    refused(ev, "edit", "bad_settings", settings={"tiebreaks": ["coin_toss"]})
    refused(ev, "forbid", "bad_field", a=1, b=1)
    refused(ev, "request_bye", "bad_field", pid=1, round=2, kind="full")
    refused(ev, "join", "already_entered", role="player", by="acc-Ann", name="Ann")
    refused(ev, "join", "bad_name", role="player", by="acc-x", name="   ")
    with pytest.raises(Refused) as e:
        ev.t.handle({"op": "explode", "id": "z1", "role": "organiser"})
    assert e.value.code == "bad_field"
    with pytest.raises(Refused):
        ev.t.handle({"op": "pair", "round": 1, "role": "organiser"})  # no id


def test_entry_cap_check_in_and_the_open_link() -> None:
    ev = Event(Scripted({1: Draw(((2, 3),))}), rounds=3, entry_cap=3, check_in=True)
    for name in ("Ann", "Ben", "Cat"):
        ev.join(name, 1500)
    refused(ev, "join", "event_full", role="player", by="acc-Dov", name="Dov")
    ev.do("check_in", role="player", by="acc-Ben", pid=2)
    ev.do("check_in", pid=3)
    ev.do("pair", round=1)
    # Ann did not check in: she is out, and round 1 pairs the two who did.
    assert ev.t.entries[1].status == "withdrawn" and ev.t.entries[1].number is None
    assert {e.pid: e.number for e in ev.t.numbered()} == {2: 1, 3: 2}
    refused(ev, "check_in", "too_late", pid=1)
    ev.do("edit", settings={"open_entry": False})
    refused(ev, "join", "entry_closed", role="player", by="acc-Eve", name="Eve")


def test_a_roster_line_is_claimed_by_its_entry_link() -> None:
    ev = Event()
    reply = ev.do("add_entry", name="Grandpa Joe", rating=1450, token="t" * 20)
    pid = reply["pid"]
    assert ev.view()["entries"][0]["token"] == "t" * 20
    assert "token" not in view(ev.t)["entries"][0]
    refused(ev, "claim", "bad_entry_link", role="player", by="acc-joe", token="x" * 20)
    ev.do("claim", role="player", by="acc-joe", token="t" * 20, rating=1480)
    entry = ev.t.entries[pid]
    assert entry.account == "acc-joe" and entry.rating == 1480 and entry.token is None
    refused(ev, "claim", "bad_entry_link", role="player", by="acc-other", token="t" * 20)
    assert view(ev.t, viewer="acc-joe")["you"] == pid


def test_late_entries_score_their_missed_rounds_until_half_the_rounds() -> None:
    draws = {1: Draw(((1, 2),), 3), 2: Draw(((3, 1), (4, 2)))}
    ev = Event(Scripted(draws), rounds=4)
    for name in ("Ann", "Ben", "Cat"):
        ev.join(name, 1500)
    ev.do("pair", round=1)
    ev.do("start", round=1)
    ev.play(1, 1, "home", (1, 0))
    late = ev.join("Dov", 1900)
    dov = ev.t.entries[late]
    assert dov.late and dov.number == 4 and ev.t.round(1).byes[late] == "half"
    ev.do("pair", round=2)
    ev.do("start", round=2)
    ev.play(2, 1, "home", (1, 0))
    ev.play(2, 2, "home", (1, 0))
    # Late entries close after round 2 of 4 (half the rounds) is paired.
    refused(ev, "join", "late_entry_closed", role="player", by="acc-Eve", name="Eve")
    ev.do("edit", settings={"late_entry_until": 3, "late_byes": "zero"})
    eve = ev.join("Eve", 1500)
    assert ev.t.round(1).byes[eve] == "zero" and ev.t.round(2).byes[eve] == "zero"


def test_requested_byes_withdrawals_and_pauses_shape_the_next_pairing() -> None:
    pairer = Scripted({1: Draw(((1, 2), (3, 4))), 2: Draw(((1, 3),))})
    ev = four(pairer)
    ev.do("pair", round=1)
    ev.do("start", round=1)
    ev.do("request_bye", role="player", by="acc-Ben", pid=2, round=2, kind="half")
    ev.do("pause", role="player", by="acc-Dov", pid=4)
    ev.play(1, 1, "home", (1, 0))
    ev.play(1, 2, "home", (1, 0))
    ev.do("pair", round=2)
    asked = pairer.asked[-1]
    assert asked.present == {1, 3} and asked.absent == {2: "half", 4: "absent"}
    assert ev.t.round(2).byes == {2: "half", 4: "absent"}
    ev.do("resume", role="player", by="acc-Dov", pid=4)
    # A player who withdrew comes back only through the organiser. Cat leaves round 2's
    # draft: it is paired again without her (Ann, alone, gets the bye).
    pairer.draws[2] = Draw((), 1)
    assert ev.do("withdraw", role="player", by="acc-Cat", pid=3) == {"repaired": 2}
    assert pairer.asked[-1].present == {1} and ev.t.round(2).boards == []
    assert ev.t.round(2).byes == {1: "pab", 2: "half", 3: "absent", 4: "absent"}
    refused(ev, "resume", "not_organiser", role="player", by="acc-Cat", pid=3)
    ev.do("resume", pid=3)


def test_the_organiser_edits_a_draft_then_starts_it() -> None:
    ev = Event(Scripted({1: Draw(((1, 2), (3, 4)), 5)}), rounds=3)
    for name in ("Ann", "Ben", "Cat", "Dov", "Eli"):
        ev.join(name, 1500)
    ev.do("pair", round=1)
    refused(ev, "swap", "bad_pairing", round=1, a=1, b=1)
    ev.do("swap", round=1, a=2, b=3)
    ev.do("flip", round=1, board=2)
    ev.do("swap", round=1, a=5, b=4)  # Eli plays, Dov gets the bye instead
    r1 = ev.t.round(1)
    assert [(b.home, b.away) for b in r1.boards] == [(1, 3), (5, 2)]
    assert r1.byes == {4: "pab"}
    # Dov leaves before the round starts: the draft is paired again without him (the
    # organiser's edits go with it), and he scores nothing for the bye he held.
    ev.pairer.draws[1] = Draw(((1, 3), (5, 2)))
    assert ev.do("withdraw", pid=4) == {"repaired": 1}
    assert ev.pairer.asked[-1].present == {1, 2, 3, 5}
    assert ev.pairer.asked[-1].absent == {4: "absent"}
    assert r1.byes == {4: "absent"}
    refused(ev, "swap", "not_found", round=1, a=1, b=99)
    reply = ev.do("start", round=1)
    assert [(b.home, b.away, b.match) for b in r1.boards] == [
        (1, 3, "ev1-1-1"), (5, 2, "ev1-1-2")]
    assert reply == {"round": 1}
    refused(ev, "swap", "too_late", round=1, a=1, b=2)
    refused(ev, "flip", "too_late", round=1, board=1)
    refused(ev, "start", "already_started", round=1)


def test_re_pairing_no_shows_and_adjudicating() -> None:
    ev = Event(Scripted({1: Draw(((1, 2), (3, 4), (5, 6)))}), rounds=3)
    for i in range(6):
        ev.join(f"P{i + 1}", 1500)
    ev.do("pair", round=1)
    ev.do("start", round=1)
    # 2 and 3 never came: their boards forfeit; the organiser pairs 1 with 4 instead.
    ev.do("forfeit", role="system", round=1, board=1, absent="away")
    ev.do("forfeit", role="system", round=1, board=2, absent="home")
    ev.play(1, 3, "home", (1, 0))
    refused(ev, "repair", "already_decided", round=1, boards=[3], pairs=[[5, 6]])
    refused(ev, "repair", "bad_pairing", round=1, boards=[1, 2], pairs=[[1, 5]])
    reply = ev.do("repair", round=1, boards=[1, 2], pairs=[[1, 4]])
    r1 = ev.t.round(1)
    assert reply == {"round": 1, "boards": [4]}
    assert [(b.number, b.home, b.away) for b in r1.boards] == [(3, 5, 6), (4, 1, 4)]
    assert r1.boards[1].match == "ev1-1-4" and r1.byes == {2: "absent", 3: "absent"}
    assert not r1.done
    ev.do("adjudicate", round=1, board=4, result={"winner": "away"})
    assert r1.done and r1.boards[1].result is not None
    assert r1.boards[1].result.kind == "adjudicated"
    # A result from a match after the organiser decided the board is refused.
    refused(ev, "result", "already_decided", role="system", round=1, board=4,
            match="ev1-1-4", result={"kind": "played", "winner": "home"})


def test_settings_fixed_once_play_starts_and_closing() -> None:
    ev = four()
    ev.do("pair", round=1)
    refused(ev, "edit", "too_late", settings={"format": "knockout"})
    refused(ev, "edit", "too_late", settings={"scoring": {"win": 3}})
    ev.do("edit", settings={"rounds": 5, "tiebreaks": ["buchholz"]})
    ev.do("start", round=1)
    refused(ev, "close", "round_not_finished")
    ev.play(1, 1, "home", (1, 0))
    ev.play(1, 2, "home", (1, 0))
    ev.do("close")
    assert ev.t.finished
    refused(ev, "pair", "event_over", round=2)
    refused(ev, "join", "event_over", role="player", by="acc-Eve", name="Eve")


def test_a_tournament_that_does_not_exist_says_so() -> None:
    t = Tournament("nope")
    with pytest.raises(Refused) as e:
        t.handle({"op": "pair", "id": "x", "round": 1, "role": "organiser"})
    assert e.value.code == "not_found"


def test_a_player_who_leaves_a_live_round_forfeits_the_board_in_hand() -> None:
    pairer = Scripted({1: Draw(((1, 2), (3, 4))), 2: Draw(((1, 3), (2, 4)))})
    ev = four(pairer)
    ev.do("pair", round=1)
    ev.do("start", round=1)
    # A pause means "not the next rounds": the game in hand goes on.
    assert ev.do("pause", role="player", by="acc-Ben", pid=2) == {}
    assert ev.t.round(1).board(1).result is None
    ev.do("resume", role="player", by="acc-Ben", pid=2)
    # A withdrawal forfeits the unfinished board; the host stops its match.
    reply = ev.do("withdraw", role="player", by="acc-Dov", pid=4)
    assert reply == {"forfeited": [{"round": 1, "board": 2}]}
    assert ev.events[-1]["stop"] == "ev1-1-2"
    res = ev.t.round(1).board(2).result
    assert res is not None and res.kind == "forfeit" and res.winner == "home"
    # A finished board stays as it was.
    ev.play(1, 1, "home", (1, 0))
    assert ev.do("withdraw", pid=1) == {}
    assert ev.t.round(1).board(1).result is not None
    assert ev.t.round(1).board(1).result.kind == "played"
    assert view(ev.replayed(), organiser=True) == ev.view()


def test_a_swiss_draft_with_no_pairing_without_the_leaver_forfeits_their_board() -> None:
    pairer = Scripted({1: Draw(((1, 2), (3, 4)))})
    ev = four(pairer)
    ev.do("pair", round=1)
    pairer.draws[1] = Refused("no_pairing", "no legal pairing")
    assert ev.do("pause", role="player", by="acc-Ann", pid=1) == {
        "forfeited": [{"round": 1, "board": 1}]}
    r1 = ev.t.round(1)
    assert r1.board(1).result is not None and r1.board(1).result.winner == "away"
    # The organiser edits that board afterwards (the edit drops its forfeit): starting
    # the round still makes no match with a player who left.
    ev.do("flip", round=1, board=1)
    assert r1.board(1).result is None
    ev.do("start", round=1)
    assert r1.board(1).match is None and r1.board(1).result is not None
    assert r1.board(1).result.winner == "home" and r1.board(2).match == "ev1-1-2"
    assert view(ev.replayed(), organiser=True) == ev.view()


def test_leaving_a_round_robin_or_knockout_draft_forfeits_the_board() -> None:
    ev = four(None, format="round_robin")
    ev.do("pair", round=1)
    r1 = ev.t.round(1)
    gone = r1.boards[0].away
    assert ev.do("withdraw", pid=gone) == {"forfeited": [{"round": 1, "board": 1}]}
    ev.do("start", round=1)
    assert r1.boards[0].match is None and r1.boards[0].result is not None
    assert r1.boards[0].result.winner == "home" and r1.boards[1].match is not None
    ko = Event(Scripted(), format="knockout")
    for name, rating in (("Ann", 1900), ("Ben", 1800), ("Cat", 1700)):
        ko.join(name, rating)
    ko.do("pair", round=1)
    k1 = ko.t.round(1)
    assert k1.byes == {1: "pab"}
    assert ko.do("withdraw", pid=1) == {}  # the top seed's bye: a walkover later
    assert ko.do("withdraw", pid=3) == {"forfeited": [{"round": 1, "board": 1}]}
    assert view(ko.replayed(), organiser=True) == ko.view()


def test_a_no_show_sits_out_later_rounds_until_back_if_the_event_says_so() -> None:
    pairer = Scripted({1: Draw(((1, 2), (3, 4), (5, 6))), 2: Draw(((1, 3), (4, 6)))})
    ev = Event(pairer, rounds=3, no_show_pauses=True)
    for i in range(6):
        ev.join(f"P{i + 1}", 1500)
    ev.do("pair", round=1)
    ev.do("start", round=1)
    # P2 never came (the match's own no-show); P5 and P6 neither (a board without a
    # match, forfeited by the server's check); P3 and P4's board the organiser decides.
    b1 = ev.t.round(1).board(1)
    ev.do("result", role="system", round=1, board=1, match=b1.match,
          result={"kind": "forfeit", "winner": "home"})
    ev.do("forfeit", role="system", round=1, board=3, absent="both")
    ev.do("forfeit", round=1, board=2, absent="away")
    assert {p: e.status for p, e in ev.t.entries.items()} == {
        1: "active", 2: "paused", 3: "active", 4: "active", 5: "paused", 6: "paused"}
    # P6 turns up and says so; round 2 pairs the players who are here.
    ev.do("resume", role="player", by="acc-P6", pid=6)
    ev.do("pair", round=2)
    assert pairer.asked[-1].present == {1, 3, 4, 6}
    assert ev.t.round(2).byes == {2: "absent", 5: "absent"}
    assert view(ev.replayed(), organiser=True) == ev.view()
    # Without the setting a no-show stays in the event.
    plain = four(Scripted({1: Draw(((1, 2), (3, 4)))}))
    plain.do("pair", round=1)
    plain.do("start", round=1)
    plain.do("forfeit", role="system", round=1, board=1, absent="away")
    assert plain.t.entries[2].status == "active"


def test_a_league_round_waits_for_its_players_until_the_deadline() -> None:
    with pytest.raises(Refused) as e:
        four(no_show_minutes=None)  # no deadline to wait until
    assert e.value.code == "bad_settings"
    week = 7 * 24 * 60
    ev = four(round_minutes=week, no_show_minutes=None)
    ev.do("pair", round=1)
    ev.do("start", round=1)
    r1 = ev.t.round(1)
    assert r1.started_at is not None
    start = r1.started_at
    # A match made at the start, or re-made a day later, waits until the week is out.
    assert start_by(ev.t, r1, start) == start_by(ev.t, r1, start + 86_400) == start + week * 60
    # Made after the deadline (a restart), it gives its players ten minutes.
    assert start_by(ev.t, r1, start + week * 60 + 1) == start + week * 60 + 1 + 600
    refused(ev, "edit", "bad_settings", settings={"round_minutes": None})
    # With a no-show time, the deadline only ends the window early.
    ev.do("edit", settings={"no_show_minutes": 30})
    assert start_by(ev.t, r1, start) == start + 30 * 60
    ev.do("edit", settings={"round_minutes": 10})
    assert start_by(ev.t, r1, start) == start + 10 * 60
