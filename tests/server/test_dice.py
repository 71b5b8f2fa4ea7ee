"""Dice nobody can choose: the server's committed seed mixed with each player's own
committed contribution, revealed before the first roll."""

from __future__ import annotations

import hashlib
import random
from typing import Any

import anyio
import pytest
from test_core import SEED, A, B, Host, new_core

from kickline_server import toy
from kickline_server.botclient import BotState, play
from kickline_server.core import Connect, Decide, MatchCore, Reveal, Sit, TimerFired
from kickline_server.dice import (
    check_over,
    commitment,
    dice,
    dice_seed,
    verify,
)

R0, R1 = bytes([1]) * 32, bytes([2]) * 32


def committed(r0: bytes | None = R0, r1: bytes | None = R1, **kw: Any) -> Host:
    h = Host(new_core(**kw))
    h.do(Sit(0, A, "Alice", conn=1, re="c", commit=r0 and commitment(r0)), now=0.0)
    h.do(Sit(1, B, "Bob", conn=2, re="j", commit=r1 and commitment(r1)), now=0.0)
    return h


def play_out(h: Host) -> dict[str, Any]:
    """Both seats decide until the end (toy: the first legal decision)."""
    now = 1.0
    while h.core.status == "playing":
        kind, seats, _ = h.core.to_act()
        assert kind == "decide"
        for seat in seats:
            prompt = h.last_prompt(seat + 1)
            h.do(Decide(seat + 1, (A, B)[seat], f"{seat}-{prompt['version']}",
                        prompt["version"], prompt["legal"][0]), now)
        now += 1
    return next(m for m in h.take(1) if m["t"] == "over")


def test_the_first_roll_waits_for_both_contributions() -> None:
    h = Host(new_core())
    h.do(Sit(0, A, "Alice", conn=1, re="c", commit=commitment(R0)))
    h.do(Sit(1, B, "Bob", conn=2, re="j", commit=commitment(R1)))
    # toy asks for both seats' secret choice first; decide, and the roll must wait
    for seat in (0, 1):
        h.do(Decide(seat + 1, (A, B)[seat], seat, 0, "jog"), 1.0)
    prompt = h.last_prompt(1)
    assert prompt["to_act"] == {"kind": "reveal", "seats": [0, 1], "secret": False}
    assert prompt["commits"] == [commitment(R0), commitment(R1)]
    assert prompt["revealed"] == [False, False]
    assert "reveal" in h.timers
    assert not [e for e in h.log if e["k"] == "c"]  # nothing rolled yet
    h.do(Reveal(1, A, "r", R0.hex()), 2.0)
    assert h.core.dice_seed is None
    h.do(Reveal(2, B, "r", R1.hex()), 2.0)
    assert h.core.dice_seed == dice_seed(SEED, [R0, R1])
    assert [e for e in h.log if e["k"] == "c"]  # rolled at once
    assert "reveal" not in h.timers


def test_a_wrong_or_malformed_reveal_is_refused_and_changes_nothing() -> None:
    h = committed()
    h.take(1)
    for bad in (R1.hex(), "zz" * 32, "00"):
        effects = h.do(Reveal(1, A, "r", bad), 1.0)
        assert h.take(1)[-1]["code"] == "bad_reveal"
        assert h.core.contributions == [None, None] and not any(
            type(e).__name__ == "Persist" for e in effects)
    h.do(Reveal(1, "mallory", "r", R0.hex()), 1.0)
    assert h.take(1)[-1]["code"] == "not_your_seat"


def test_the_rolls_and_the_check_use_every_contribution() -> None:
    h = committed()
    h.do(Reveal(1, A, "r", R0.hex()), 0.5)
    h.do(Reveal(2, B, "r", R1.hex()), 0.5)
    over = play_out(h)
    assert over["commits"] == [commitment(R0), commitment(R1)]
    assert over["contributions"] == [R0.hex(), R1.hex()]
    final = check_over(toy.GAME, over)
    assert toy.GAME.result(final) == {k: over["result"][k] for k in ("winner", "score")}
    # The same log is not what the server's seed alone, or another contribution, gives.
    rolls = [e for e in over["log"] if e["k"] == "c"]
    assert rolls
    for other in ([R0, None], [None, R1], [R0, bytes(32)]):
        with pytest.raises(ValueError):
            verify(toy.GAME, over["config"], SEED, over["log"], other)
    forged = dict(over, contributions=[R0.hex(), bytes([3] * 32).hex()])
    with pytest.raises(ValueError, match="seat 1's contribution"):
        check_over(toy.GAME, forged)


def test_the_derivation_is_the_documented_one() -> None:
    expected = hashlib.sha256(b"kickline dice v1\x00" + SEED + R0 + bytes(32)).digest()
    assert dice_seed(SEED, [R0, None]) == expected
    # and the dice: random.Random seeded with it as a big-endian integer
    assert dice(expected).random() == random.Random(int.from_bytes(expected, "big")).random()


def test_a_seat_that_never_reveals_counts_as_nothing_after_the_timeout() -> None:
    h = committed(reveal_timeout=20.0)
    h.do(Reveal(1, A, "r", R0.hex()), 1.0)
    for seat in (0, 1):
        h.do(Decide(seat + 1, (A, B)[seat], seat, 0, "jog"), 2.0)
    assert h.timers["reveal"] == 20.0
    h.do(TimerFired("reveal"), 20.0)
    assert h.core.dice_seed == dice_seed(SEED, [R0, None])
    h.take(2)
    h.do(Reveal(2, B, "late", R1.hex()), 21.0)
    assert h.take(2)[-1]["code"] == "reveal_closed"


def test_server_bots_and_players_without_a_commitment_roll_at_once() -> None:
    h = Host(new_core())
    h.do(Sit(0, A, "Alice", conn=1, re="c"))
    h.do(Sit(1, "bot:random", "random bot", bot="random"))
    assert h.core.dice_seed == dice_seed(SEED, [None, None])
    assert h.core.to_act()[0] != "reveal"


def test_a_restore_between_commit_and_reveal_keeps_both() -> None:
    h = committed()
    h.do(Reveal(1, A, "r", R0.hex()), 1.0)
    core = MatchCore.restore(toy.GAME, toy.BOTS, h.snapshot, h.log)
    r = Host(core)
    r.do(Connect(2, B), 5.0)
    r.do(Reveal(2, B, "r", R1.hex()), 5.0)
    assert r.core.dice_seed == dice_seed(SEED, [R0, R1])


def test_a_match_from_before_contributions_keeps_its_dice() -> None:
    h = Host(new_core())
    h.do(Sit(0, A, "Alice", conn=1, re="c"))
    h.do(Sit(1, B, "Bob", conn=2, re="j"))
    snap = {k: v for k, v in h.snapshot.items() if k not in ("commits", "contributions",
                                                                "dice_seed")}
    snap["format"] = 2
    r = Host(MatchCore.restore(toy.GAME, toy.BOTS, snap, h.log))
    r.do(Connect(1, A), 1.0)
    r.do(Connect(2, B), 1.0)
    assert r.core.dice_seed == SEED  # the server's seed alone, as it was
    over = play_out(r)
    assert "contributions" not in over
    check_over(toy.GAME, over)


pytestmark = pytest.mark.anyio
TOY = {"game": "toy", "config": {"mode": "training", "board": 25}}


async def test_network_bots_contribute_and_the_result_checks(serve: Any, server_config: Any
                                                             ) -> None:
    states = {"a": BotState(), "b": BotState()}
    results: dict[str, Any] = {}
    async with serve(server_config()) as url:
        async def one(name: str) -> None:
            results[name] = await play(url, how="quick", name=name, seed=name, **TOY,
                                       state=states[name])
        with anyio.fail_after(30):
            async with anyio.create_task_group() as tg:
                tg.start_soon(one, "a")
                tg.start_soon(one, "b")
    over = results["a"]
    mine = {states[k].seat: states[k].contribution for k in states}
    assert over["contributions"] == [mine[0].hex(), mine[1].hex()]  # type: ignore[union-attr]
    check_over(toy.GAME, over)
