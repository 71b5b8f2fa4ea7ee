"""Offline play (kickline.local): a match with no server, kept as plain data."""

from __future__ import annotations

import json
import random

import pytest

import kickline
from kickline import local
from kickline.bots import greedy_bot


def _play(m: local.Match, rng: random.Random, limit: int = 5000) -> local.Match:
    """Drive a match to its end: bots by ``step``, people by a random legal decision."""
    for _ in range(limit):
        m, _ = local.step(m, bot_moves=50)
        humans = local.humans_to_act(m)
        s = local.state_of(m)
        if kickline.result(s) is not None:
            return m
        for seat in humans:
            if seat in kickline.to_act(local.state_of(m))[1]:
                options = kickline.legal(local.state_of(m), seat)
                m, _ = local.decide(m, seat, rng.choice(options))
    raise AssertionError("the match did not end")


def test_a_person_against_a_bot_plays_to_the_end_and_the_log_replays_it() -> None:
    m = local.new_match({"mode": "standard", "board": 7, "teams": ["oozes", "cyborgs"]},
                        ["human", "casual"], "t1")
    m = _play(m, random.Random(1))
    m = json.loads(json.dumps(m))  # what the page keeps is JSON
    assert local.replay(m) == local.state_of(m)
    assert local.show(m, 0)["result"] is not None


def test_two_people_on_one_phone_each_see_only_their_own_secret() -> None:
    m = local.new_match({"mode": "training", "board": 7}, ["human", "human"], "t2")
    rng = random.Random(2)
    for _ in range(400):
        m, _ = local.step(m)
        s = local.state_of(m)
        _, seats, secret = kickline.to_act(s)
        if secret and len(seats) == 2:
            m, events = local.decide(m, seats[0], kickline.legal(s, seats[0])[0])
            other = local.show(m, seats[1], events)
            assert other["view"]["secret"]["mine"] is None
            assert all("decision" not in e for e in other["events"] if e["t"] == "chosen")
            return
        v = kickline.view(s, seats[0])
        m, _ = local.decide(m, seats[0], greedy_bot(v, kickline.legal(s, seats[0]), rng))
    raise AssertionError("no secret choice came up")


def test_a_refused_decision_changes_nothing() -> None:
    m = local.new_match({"mode": "training", "board": 7}, ["human", "beginner"], "t3")
    m, _ = local.step(m)
    with pytest.raises(ValueError):
        local.decide(m, 0, "card telepathy")
    with pytest.raises(ValueError):
        local.decide(m, 1, "toss home")  # the bot's seat
    with pytest.raises(ValueError):
        local.new_match({"mode": "training", "board": 7}, ["human", "grandmaster"], "t4")


def test_the_same_seed_gives_the_same_match() -> None:
    def run() -> local.Match:
        m = local.new_match({"mode": "training", "board": 9}, ["beginner", "casual"], "s")
        while len(m["log"]) < 120:
            m, _ = local.step(m, bot_moves=10)
        return m

    assert run() == run()
