"""The engine's contract as hosts see it: errors, versions, views, the plain form."""

from __future__ import annotations

import json

import pytest
from scenario import HOME_DEAL_7, VISITORS_DEAL_7, Match, kickoff, position

import kickline
from kickline import Decision, IllegalDecision, MalformedDecision, StaleVersion
from kickline.state import Config, State


def _opening() -> dict[str, dict[str, str]]:
    return {
        "home": HOME_DEAL_7,
        "visitors": VISITORS_DEAL_7,
    }


def test_decisions_round_trip_through_their_text() -> None:
    for text in ["toss home", "card low-pass", "send none", "send v3", "run h3 M1",
                 "sub h1 h2", "formation 2-3-1", "skip", "finish", "speed 12",
                 "order h4 h7 h6 h3 h1 h0", "shooter v8", "shot take"]:
        d = Decision.decode(text)
        assert d.encode() == text
        assert repr(d) == text
        assert Decision.decode(d.encode()) == d
        assert hash(d) == hash(Decision.decode(text))


@pytest.mark.parametrize("text", ["", " card low-pass", "card  low-pass", "card", "card x",
                                  "fly h3", "send h9", "run h3 Q1", "speed 0", "speed 123",
                                  "order", "x" * 80])
def test_malformed_text_is_refused_as_malformed(text: str) -> None:
    with pytest.raises(MalformedDecision):
        Decision.decode(text)
    s = kickoff()
    before = s.to_plain()
    with pytest.raises(MalformedDecision):
        kickline.apply(s, 0, text)
    assert s.to_plain() == before


def test_non_text_is_malformed() -> None:
    with pytest.raises(MalformedDecision):
        kickline.apply(kickoff(), 0, 42)  # type: ignore[arg-type]


def test_illegal_decision_names_the_legal_ones_and_changes_nothing() -> None:
    s = kickoff()
    before = s.to_plain()
    with pytest.raises(IllegalDecision) as err:
        kickline.apply(s, 0, "card steal")
    assert "action maneuver" in str(err.value)
    with pytest.raises(IllegalDecision):
        kickline.apply(s, 1, "action maneuver")  # not the visitors' turn
    with pytest.raises(IllegalDecision):
        kickline.apply(s, 2, "action maneuver")  # no such seat
    assert s.to_plain() == before
    assert isinstance(err.value, ValueError) and err.value.code == "illegal"


def test_a_host_may_hand_back_the_legal_list_it_was_given() -> None:
    s = kickoff()
    legal = kickline.legal(s, 0)
    kickline.legal(kickline.new_game({"mode": "training", "board": 7}), 0)  # memo gone
    with_list = kickline.apply(s, 0, "action maneuver", version=s.version, legal=legal)
    assert with_list == kickline.apply(s, 0, "action maneuver", version=s.version)
    with pytest.raises(IllegalDecision):
        kickline.apply(s, 0, "card steal", legal=legal)
    with pytest.raises(MalformedDecision):
        kickline.apply(s, 0, "card", legal=legal)


def test_a_decision_made_on_an_older_version_is_stale() -> None:
    s = kickoff()
    s2, _ = kickline.apply(s, 0, "action maneuver", version=s.version)
    assert s2.version == s.version + 1
    with pytest.raises(StaleVersion) as err:
        kickline.apply(s2, 0, "card low-pass", version=s.version)
    assert err.value.expected == s2.version and err.value.got == s.version
    with pytest.raises(StaleVersion):
        kickline.apply_chance(s2, "3", version=s.version)


def test_chance_outcomes_are_listed_and_others_refused() -> None:
    s = kickline.new_game({"board": 9})
    kind, desc, outcomes = kickline.chance(s)
    assert kind == "coin" and outcomes == ("doom", "fortune") and desc["law"] == "3.1.2"
    with pytest.raises(MalformedDecision):
        kickline.apply_chance(s, "heads")
    m = Match(position(**_opening(), ball="M2"))
    m.do("action maneuver", "card dribble", "card steal")  # tie: a skill test (6.4)
    kind, desc, outcomes = kickline.chance(m.state)
    assert kind == "d12" and outcomes == tuple(str(i) for i in range(1, 13))
    assert desc["for"] == "test" and desc["player"] == "h4"
    with pytest.raises(MalformedDecision):
        kickline.apply_chance(m.state, "13")


def test_states_are_immutable_values() -> None:
    s = kickoff()
    with pytest.raises(AttributeError):
        s.version = 99  # type: ignore[misc]
    s2, _ = kickline.apply(s, 0, "action maneuver")
    assert s2 != s and s.stack[-1][0] == "action"


def test_the_plain_form_round_trips_and_refuses_garbage() -> None:
    s = kickoff(9)
    plain = json.loads(json.dumps(s.to_plain()))
    assert State.from_plain(plain) == s
    for bad in [None, [], {"format": 99}, {**plain, "players": plain["players"][:17]},
                {**plain, "version": "3"}, {**plain, "config": {"board": 8}}]:
        with pytest.raises(ValueError):
            State.from_plain(bad)


def test_config_is_checked() -> None:
    assert Config.from_plain({}) == Config("training", 7, ("training", "training"))
    for bad in [{"board": 8}, {"mode": "chaos"}, {"teams": ["training"]},
                {"teams": ["training", "nobody"]}, {"board": True}, {"colour": "red"}]:
        with pytest.raises(ValueError):
            Config.from_plain(bad)


def test_a_secret_card_is_hidden_from_the_other_seat_until_the_reveal() -> None:
    """6.2.1: both choose in secret and reveal together."""
    m = Match(position(**_opening(), ball="M2"))
    m.do("action maneuver")
    s = m.state
    assert kickline.to_act(s) == ("decide", (0, 1), True)
    s1, ev = kickline.apply(s, 0, "card high-pass")
    # The visitors (seat 1) see that home has chosen, never what.
    v1 = kickline.view(s1, 1)
    assert v1["secret"]["chosen"] == {"home": True, "visitors": False}
    assert v1["secret"]["mine"] is None
    assert "high-pass" not in json.dumps(v1)
    assert "high-pass" not in json.dumps(kickline.redact(ev, 1))
    assert "high-pass" not in json.dumps(kickline.redact(ev, None))
    assert "high-pass" in json.dumps(kickline.redact(ev, 0))
    assert kickline.view(s1, 0)["secret"]["mine"] == "card high-pass"
    # Whatever home chose, the visitors' view is the same.
    views = {json.dumps(kickline.view(kickline.apply(s, 0, c)[0], 1), sort_keys=True)
             for c in kickline.legal(s, 0)}
    assert len(views) == 1
    assert kickline.to_act(s1) == ("decide", (1,), True)
    _, ev2 = kickline.apply(s1, 1, "card steal")
    reveal = next(e for e in ev2 if e["t"] == "reveal")
    assert reveal["offense"] == "high-pass" and reveal["defense"] == "steal"
    assert reveal["winner"] == "O" and reveal["law"] == "6.2.1"


def test_every_event_names_a_law() -> None:
    m = Match(position(**_opening(), ball="M2"))
    m.do("action maneuver", "card dribble", "card steal").roll(9, 2)
    assert m.events
    for e in m.events:
        assert isinstance(e["law"], str) and e["law"], e


def test_the_game_interface_drives_a_whole_match() -> None:
    import random

    game = kickline.GAME
    state = game.setup({"mode": "training", "board": 7})
    rng = random.Random(5)
    while (act := game.to_act(state)).kind != "over":
        if act.kind == "chance":
            outcomes = game.chance_outcomes(state)
            assert all(o.weight == 1 for o in outcomes)
            state, _ = game.apply_chance(state, rng.choice(outcomes).value)
        else:
            seat = act.seats[0]
            state, _ = game.apply(state, seat, rng.choice(list(game.legal(state, seat))),
                                  version=game.version(state))
    res = game.result(state)
    assert res is not None and res["winner"] in (0, 1)
    assert game.from_plain(game.to_plain(state)) == state
    assert res["score"][res["winner"]] > res["score"][1 - res["winner"]]


@pytest.mark.parametrize("chooser_home", [True, False])
def test_each_coach_plays_the_team_they_picked_whichever_side_the_toss_gives(
    chooser_home: bool,
) -> None:
    # config.teams is in seat order (docs/ENGINE.md); the toss decides the sides.
    s = kickline.new_game({"mode": "advanced", "board": 7, "teams": ["fire-demons", "oozes"]})
    s, _ = kickline.apply_chance(s, "fortune")
    s, _ = kickline.apply(s, 0, "toss home" if chooser_home else "toss visitors")
    home, visitors = (0, 9)
    seat0_first = home if chooser_home else visitors
    assert s.card(seat0_first).name == "Ashwall"
    assert s.species(seat0_first) == "Fire Demon"
    assert s.species(9 - seat0_first) == "Ooze"
    assert s.ability(9 - seat0_first) == "goopkeeper"
    assert s.dfn(seat0_first) == 8  # 21.2.1, rulings 6.2: Ashwall's advanced skill
    names = {p["id"]: p for p in kickline.view(s, 0)["players"]}
    assert names["h0" if chooser_home else "v0"]["name"] == "Ashwall"
    assert names["h0" if chooser_home else "v0"]["def"] == 8


def test_species_and_abilities_are_off_in_the_modes_that_do_not_play_them() -> None:
    s = position(home=HOME_DEAL_7, visitors=VISITORS_DEAL_7, ball="M2",
                 mode="training", teams=("fire-demons", "cyborgs"))
    assert (s.species(1), s.ability(1), s.dfn(0)) == ("", "", 6)  # 18.1.1a
    s = position(home=HOME_DEAL_7, visitors=VISITORS_DEAL_7, ball="M2",
                 mode="standard", teams=("fire-demons", "cyborgs"))
    assert (s.species(1), s.ability(1), s.dfn(0)) == ("Fire Demon", "", 6)  # 20.1.2, 21.1.1


def test_the_default_decision_for_a_player_out_of_time_commits_to_nothing() -> None:
    """docs/PROTOCOL.md (time control): the host plays GAME.default_decision."""
    # A Cyborg about to roll: no Overdrive.
    s = position(home={"h0": "H1", "h6": "V1", "h4": "M2"},
                 visitors={"v0": "V2", "v6": "H2", "v4": "M2"}, ball="M2", mode="advanced",
                 teams=("training", "cyborgs"))
    m = Match(s).do("action maneuver", "card dribble", "card steal")
    assert "declare overdrive" in m.legal(1)
    assert kickline.GAME.default_decision(m.state, 1) == "declare none"
    # A challenge with no defender on the ball: send nobody, whichever side defends.
    s = position(home={"h0": "H1", "h4": "M1"}, visitors={"v0": "V2", "v4": "M2"},
                 ball="M2", owner=1)
    m = Match(s).do("action maneuver")
    assert "send none" in m.legal(0) and m.legal(0)[0] != "send none"
    assert kickline.default_decision(m.state, 0) == "send none"
    # A Coaching Choice ends unchanged; a seat with nothing to decide is refused.
    k = kickline.new_game({"board": 7})
    k, _ = kickline.apply_chance(k, "fortune")
    k, _ = kickline.apply(k, 0, "toss home")
    assert "skip" in kickline.legal(k, 0) and kickline.legal(k, 0)[0] != "skip"
    assert kickline.default_decision(k, 0) == "skip"
    with pytest.raises(IllegalDecision):
        kickline.default_decision(k, 1)


def test_the_second_secret_chooser_may_choose_on_the_phases_first_version() -> None:
    """Both seats are prompted at the phase's first version; the first choice moves the
    version on, and the second chooser's choice, made on that same first version, is
    still accepted (nothing it could see changed), not refused as stale."""
    m = Match(position(**_opening(), ball="M2"))
    m.do("action maneuver")
    s = m.state
    first = s.version
    s1, _ = kickline.apply(s, 0, "card high-pass", version=first)
    assert s1.version == first + 1
    s2, ev = kickline.apply(s1, 1, "card steal", version=first)  # made on the first
    assert next(e for e in ev if e["t"] == "reveal")["defense"] == "steal"
    with pytest.raises(StaleVersion):  # older than the phase: a decision about the past
        kickline.apply(s1, 1, "card steal", version=first - 1)
    with pytest.raises(StaleVersion):  # and once the phase is over, no longer
        kickline.apply(s2, 0, kickline.legal(s2, 0)[0] if kickline.legal(s2, 0) else "x",
                       version=first)


def test_a_side_the_engine_filled_does_not_make_an_older_version_good() -> None:
    """A side with one legal secret choice is filled by the engine without a version of
    its own: the version before the phase is then a decision about an earlier state."""
    import random

    from kickline.engine.machine import SECRET, _top

    game = kickline.GAME
    for seed in range(40):
        rng = random.Random(seed)
        s = game.setup({"mode": "standard", "board": 7, "teams": ["cyborgs", "oozes"]})
        for _ in range(2000):
            ta = game.to_act(s)
            if ta.kind == "over":
                break
            if ta.kind == "chance":
                s, _ = game.apply_chance(s, rng.choice(game.chance_outcomes(s)).value)
                continue
            f = _top(s)
            filled = [side for side in (0, 1) if s.secret[side]]
            if f[0] in SECRET and len(filled) == 1 and len(
                    SECRET[f[0]].legal(s, f, filled[0])) == 1:
                seat = ta.seats[0]
                with pytest.raises(StaleVersion):
                    kickline.apply(s, seat, kickline.legal(s, seat)[0], version=s.version - 1)
                kickline.apply(s, seat, kickline.legal(s, seat)[0], version=s.version)
                return
            seat = rng.choice(ta.seats)
            s, _ = game.apply(s, seat, rng.choice(list(game.legal(s, seat))))
    pytest.fail("no secret choice with one side filled by the engine in 40 matches")
