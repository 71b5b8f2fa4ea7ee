"""The bots play legally from their own view, and greedy plays sensibly."""

from __future__ import annotations

import random

from scenario import HOME_DEAL_7, VISITORS_DEAL_7, Match, position

import kickline
from kickline.bots import BOTS, greedy_bot
from kickline.simulate import play_match
from kickline.state import Config


def _ask(m: Match, seat: int) -> str:
    return greedy_bot(kickline.view(m.state, seat), kickline.legal(m.state, seat),
                      random.Random(0))


def test_both_bots_finish_matches_on_both_boards_with_legal_decisions() -> None:
    for board in (7, 9):
        for bots in (("random", "greedy"), ("greedy", "greedy")):
            state, decisions = play_match(Config("training", board), bots, f"t{board}")
            assert kickline.result(state) is not None
            assert decisions > 50


def test_greedy_shoots_when_the_odds_favour_it() -> None:
    """Striker (off 6) on V2 at speed 12 (+6) against a lone Defender behind the ball."""
    good = Match(position(home={"h7": "V2", "h4": "M2", "h0": "H1", "h1": "H2", "h3": "M1",
                                "h6": "V1"},
                          visitors={"v1": "M3", "v0": "M1", "v3": "M2", "v4": "H2",
                                    "v6": "H1", "v7": "V1"},
                          ball="V2", speed=12))
    assert "action shoot" in good.legal(0)
    assert _ask(good, 0) == "action shoot"
    # The same shot into a wall of defenders on the ball is refused.
    bad = Match(position(home={"h0": "M3", "h4": "M2", "h7": "H1", "h1": "H2", "h3": "M1",
                               "h6": "V1"},
                         visitors={"v0": "M3", "v1": "M3", "v2": "V2", "v3": "V1",
                                   "v4": "M2", "v6": "H1"},
                         ball="M3", speed=1))
    assert "action shoot" in bad.legal(0)
    assert _ask(bad, 0) == "action maneuver"


def test_greedy_sends_a_cheap_fresh_challenger_and_not_a_far_one() -> None:
    near = Match(position(home={"h4": "M2", "h0": "H1", "h1": "H2", "h3": "M1", "h6": "V1",
                                "h7": "V2"},
                          visitors={"v0": "V2", "v1": "V1", "v3": "M3", "v4": "V1",
                                    "v6": "H2", "v7": "H1"},
                          ball="M2"))
    near.do("action maneuver")
    assert near.frame == "send"
    assert _ask(near, 1) == "send v3"  # one space, a Midfielder with tokens to spare
    far = Match(position(home={"h4": "M2", "h0": "H1", "h1": "H2", "h3": "M1", "h6": "V1",
                               "h7": "V2"},
                         visitors={"v0": "V2", "v1": "V2", "v3": "V2", "v4": "V2",
                                   "v6": "H1", "v7": "H1"},
                         ball="M2"))
    far.do("action maneuver")
    assert _ask(far, 1) == "send none"


def test_greedy_brings_an_exhausted_player_off_in_a_coaching_choice() -> None:
    """Law 14-15: the Striker on 3 tokens (def 1) is Exhausted; greedy swaps in a Striker."""
    m = Match(position(home=HOME_DEAL_7, visitors=VISITORS_DEAL_7, ball="M2", tokens={"h7": 3}))
    m.do("action timeout")  # 13: the caller's Coaching Choice comes first
    assert m.frame == "coach"
    assert _ask(m, 0) == "sub h7 h8"


def test_bots_see_only_their_own_view() -> None:
    """A bot's input is view(state, seat): the other side's secret is not in it."""
    m = Match(position(home=HOME_DEAL_7, visitors=VISITORS_DEAL_7, ball="M2"))
    m.do("action maneuver").by(0, "card high-pass")
    seen: list[str] = []
    for bot in BOTS.values():
        view = kickline.view(m.state, 1)
        seen.append(str(view))
        assert bot(view, kickline.legal(m.state, 1), random.Random(1)).startswith("card ")
    assert all("high-pass" not in v for v in seen)


def _cyborg_duel(tokens: int) -> Match:
    """A training handler against a Cyborg challenger on M2; the cards tie into a test."""
    s = position(home={"h0": "H1", "h6": "V1", "h4": "M2"},
                 visitors={"v0": "V2", "v6": "H2", "v4": "M2"}, ball="M2", mode="standard",
                 teams=("training", "cyborgs"), tokens={"v4": tokens})
    return Match(s).do("action maneuver", "card dribble", "card steal")


def test_greedy_overdrives_a_fresh_cyborg_and_spares_one_near_drained() -> None:
    fresh = _cyborg_duel(0)
    assert fresh.state.stack[-1][0] == "declare"
    assert _ask(fresh, 1) == "declare overdrive"  # 3 drain leaves it well short of 7
    assert _ask(_cyborg_duel(5), 1) == "declare none"  # 8 drain would be Drained (20.3.3)


def test_greedy_plays_whole_advanced_matches_for_every_species_team() -> None:
    for a, b in (("fire-demons", "cyborgs"), ("telekinetics", "oozes")):
        state, decisions = play_match(Config("advanced", 7, (a, b)), ("greedy", "greedy"), a)
        assert kickline.result(state) is not None and decisions > 50


def test_greedy_on_a_state_reads_what_the_view_shows_and_decides_the_same() -> None:
    """The search's playouts run greedy straight on their sampled states: along greedy
    matches in every mode, each seat's reader of the state holds exactly what the reader
    of its view holds (every part greedy reads), and the decisions agree."""
    from kickline.bots.greedy import _Reader, _reader_of_state, greedy_on_state

    rng = random.Random(16)
    checked = 0
    for mode, board, teams in (("training", 7, ["training", "training"]),
                               ("standard", 9, ["oozes", "fire-demons"]),
                               ("advanced", 7, ["cyborgs", "telekinetics"]),
                               ("advanced", 9, ["oozes", "cyborgs"])):
        s = kickline.new_game({"mode": mode, "board": board, "teams": teams})
        while (act := kickline.to_act(s))[0] != "over":
            if act[0] == "chance":
                s, _ = kickline.apply_chance(s, rng.choice(kickline.chance(s)[2]))
                continue
            seat = act[1][0]
            legal = kickline.legal(s, seat)
            v = kickline.view(s, seat)
            mine, shown = _reader_of_state(s, seat), _Reader.of_view(v)
            for part in ("me", "n", "frame", "args", "handler", "index"):
                assert getattr(mine, part) == getattr(shown, part), part
            assert {k: shown.ball[k] for k in mine.ball} == mine.ball
            assert list(mine.players) == list(shown.players)
            for p, entry in mine.players.items():
                assert {k: shown.players[p][k] for k in entry} == entry
            n = rng.randrange(1 << 30)
            d = greedy_on_state(s, seat, legal, random.Random(n))
            assert d == greedy_bot(v, legal, random.Random(n))
            checked += 1
            s, _ = kickline.apply(s, seat, d)
    assert checked > 400
