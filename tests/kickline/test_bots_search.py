"""The search bots: they read only their seat's view, decide the same for the same seed,
stop at their budget (or a host's clock), and mix their secret choices."""

from __future__ import annotations

import random
from collections.abc import Callable

from scenario import Match, position

import kickline
from kickline.bots import BOTS, LEVELS, Budget, SearchBot, make_bot
from kickline.bots.belief import believe
from kickline.bots.evaluate import FEATURES, features, win_chance, win_chance_rich
from kickline.bots.search import equilibrium
from kickline.state import State

TINY = Budget(playouts=12, horizon=1)


def _challenged(mode: str = "training", teams: tuple[str, str] = ("training", "training")
                ) -> Match:
    """Home's handler on M2 challenged by v4: both coaches owe a secret card."""
    s = position(home={"h4": "M2", "h0": "H1", "h1": "H2", "h3": "M1", "h6": "V1",
                       "h7": "V2"},
                 visitors={"v4": "M2", "v0": "V2", "v1": "V1", "v3": "M3", "v6": "H2",
                           "v7": "H1"},
                 ball="M2", mode=mode, teams=teams)
    m = Match(s).do("action maneuver")
    while m.frame != "cards_secret":  # Glompex may be asked to join first (21.6.1)
        seat = kickline.to_act(m.state)[1][0]
        m.do(BOTS["greedy"](kickline.view(m.state, seat), m.legal(seat), random.Random(0)))
    return m


def test_a_view_rebuilds_the_whole_state_but_for_what_it_hides() -> None:
    """Along random matches in every mode, the state a seat's view shows is the state,
    once the other seat's pending secret is taken out: nothing public is missing."""
    rng = random.Random(7)
    for mode, teams in (("training", ["training", "training"]),
                        ("advanced", ["cyborgs", "telekinetics"]),
                        ("standard", ["oozes", "fire-demons"])):
        s = kickline.new_game({"mode": mode, "board": 9, "teams": teams})
        checked = 0
        while kickline.to_act(s)[0] != "over" and s.period < 3:
            kind, seats, _ = kickline.to_act(s)
            if kind == "chance":
                s, _ = kickline.apply_chance(s, rng.choice(kickline.chance(s)[2]))
                continue
            for seat in seats:
                if s.home_seat >= 0:
                    hidden = list(s.secret)
                    hidden[1 - s.side_of(seat)] = ""
                    assert believe(kickline.view(s, seat), rng) == s._replace(
                        secret=(hidden[0], hidden[1]))
                    checked += 1
            seat = seats[0]
            s, _ = kickline.apply(s, seat, rng.choice(kickline.legal(s, seat)))
        assert checked > 50


def test_the_bot_reads_only_its_view_a_hidden_card_changes_nothing() -> None:
    """The visitors have chosen their card; whichever it was, home's view is the same and
    so is every level's decision (scrambling the hidden part of the state)."""
    m = _challenged()
    decisions = set()
    views = []
    for card in kickline.legal(m.state, 1):
        s, _ = kickline.apply(m.state, 1, card)
        v = kickline.view(s, 0)
        views.append(v)
        for level in ("beginner", "casual"):
            decisions.add((level, BOTS[level](v, kickline.legal(s, 0), random.Random(4))))
        decisions.add(("search", SearchBot(TINY)(v, kickline.legal(s, 0), random.Random(4))))
    assert len(views) > 1 and all(v == views[0] for v in views)  # nothing of it shows
    assert len(decisions) == 3  # one decision per bot, whatever the hidden card


def test_the_bot_reads_only_its_view_a_hidden_shootout_order_changes_nothing() -> None:
    s = _shootout()
    orders = [o for o in kickline.legal(s, 1)][:5]
    seen = set()
    for order in orders:
        t, _ = kickline.apply(s, 1, order)  # the visitors' order, hidden from home
        v = kickline.view(t, 0)
        seen.add(SearchBot(TINY)(v, kickline.legal(t, 0), random.Random(9)))
    assert len(seen) == 1


def _shootout() -> State:
    """A level full time on board 7: both coaches owe their secret shootout order."""
    s = position(home={"h4": "M2", "h0": "H1", "h1": "H2", "h3": "M1", "h6": "V1", "h7": "V2"},
                 visitors={"v4": "M3", "v0": "V2", "v1": "V1", "v3": "M3", "v6": "H2",
                           "v7": "H1"}, ball="M2", minute=30, period=2)
    s = s._replace(stack=(("over",), ("so_order",)), period=3)
    return s


def test_a_search_decision_is_the_same_for_the_same_seed_and_legal() -> None:
    m = _challenged("advanced", ("cyborgs", "oozes"))
    v, legal = kickline.view(m.state, 0), kickline.legal(m.state, 0)
    bot = SearchBot(TINY)
    picks = {bot(v, legal, random.Random(seed)) for seed in range(12)}
    again = {bot(v, legal, random.Random(seed)) for seed in range(12)}
    assert picks == again and picks <= set(legal)
    assert len(picks) > 1  # a mixed strategy: the card cannot be read


def test_a_hosts_clock_stops_the_search_before_its_budget() -> None:
    ticks = [0.0]

    def clock() -> float:
        ticks[0] += 0.01
        return ticks[0]

    m = _challenged()
    m.do("card dribble")  # home's card in; the visitors answer
    m = Match(m.state)
    v, legal = kickline.view(m.state, 1), kickline.legal(m.state, 1)
    capped = make_bot("strongest", seconds=0.05, clock=clock)
    assert capped(v, legal, random.Random(1)) in legal
    assert ticks[0] < 0.2  # a handful of playouts, not the strongest's hundreds


def test_a_secret_choice_cut_short_by_the_clock_is_still_legal_and_mixed() -> None:
    """A clock already past the deadline after the first row of the payoff matrix: the
    bot solves the game over the rows it has, and those are a different few per seed."""

    def late_clock() -> Callable[[], float]:
        reads = [0]

        def clock() -> float:
            reads[0] += 1
            return 0.0 if reads[0] == 1 else 99.0  # the first read sets the deadline

        return clock

    m = _challenged("advanced", ("cyborgs", "oozes"))
    v, legal = kickline.view(m.state, 0), kickline.legal(m.state, 0)
    picks = {make_bot("strong", seconds=0.5, clock=late_clock())(v, legal, random.Random(n))
             for n in range(12)}
    assert picks <= set(legal) and len(picks) > 1


def test_equilibrium_of_rock_paper_scissors_and_of_a_dominated_row() -> None:
    rps = [[500, 0, 1000], [1000, 500, 0], [0, 1000, 500]]
    mix = equilibrium(rps)
    assert all(abs(p - 1 / 3) < 0.03 for p in mix)
    dominated = [[600, 700], [400, 500]]
    assert equilibrium(dominated)[0] > 0.97


def test_a_lead_and_the_ball_near_the_goal_are_worth_more() -> None:
    base = _challenged().state
    ahead = base._replace(score=(1, 0))
    assert win_chance(ahead, 0) > win_chance(base, 0) > win_chance(ahead, 1)
    late = ahead._replace(minute=28)
    assert win_chance(late, 0) > win_chance(ahead, 0)


def test_the_richer_evaluation_is_signed_for_the_side_and_weighs_tired_players() -> None:
    """Every feature is the side's minus the other's, so the two sides' chances add up
    to about one; an Exhausted or injured player of one's own counts against."""
    base = _challenged("advanced", ("cyborgs", "oozes")).state
    assert len(features(base, 0)) == len(FEATURES)
    assert features(base, 1) == tuple(-x for x in features(base, 0))
    assert abs(win_chance_rich(base, 0) + win_chance_rich(base, 1) - 1000) <= 2
    h4 = 4  # home's handler
    tired = base._replace(players=tuple(p._replace(tokens=9) if i == h4 else p
                                        for i, p in enumerate(base.players)))
    hurt = base._replace(players=tuple(p._replace(injured=True) if i == h4 else p
                                       for i, p in enumerate(base.players)))
    assert win_chance_rich(tired, 0) < win_chance_rich(base, 0)
    assert win_chance_rich(hurt, 0) < win_chance_rich(base, 0)
    ahead = base._replace(score=(1, 0))
    assert win_chance_rich(ahead, 0) > win_chance_rich(base, 0)


def test_every_level_is_offered_and_plays_legally() -> None:
    assert LEVELS == ("beginner", "casual", "strong", "strongest")
    m = _challenged()
    v, legal = kickline.view(m.state, 0), kickline.legal(m.state, 0)
    for level in LEVELS[:2]:
        assert BOTS[level](v, legal, random.Random(0)) in legal


def test_a_coaching_choice_always_ends() -> None:
    """At setup substitutions are unlimited (3.3.2) and formations can be dealt again and
    again: the search still ends every Choice, in a few actions."""
    s = kickline.new_game({"mode": "advanced", "board": 9, "teams": ["oozes", "cyborgs"]})
    s, _ = kickline.apply_chance(s, "fortune")
    s, _ = kickline.apply(s, 0, "toss home")
    bot = SearchBot(TINY)
    for seat in (0, 1):
        for n in range(8):
            if s.stack[-1][0] != "coach" or kickline.to_act(s)[1] != (seat,):
                break
            d = bot(kickline.view(s, seat), kickline.legal(s, seat), random.Random(n))
            s, _ = kickline.apply(s, seat, d)
        assert not (s.stack[-1][0] == "coach" and kickline.to_act(s)[1] == (seat,))
