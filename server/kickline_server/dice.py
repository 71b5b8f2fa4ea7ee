"""Dice nobody can choose: the server's committed seed mixed with every player's own.

A match's dice come from ``random.Random`` seeded with the **dice seed**, derived from

* the server's secret **seed** (32 random bytes), whose ``sha256`` (the ``commit``) every
  player sees from their first prompt on, and
* one **contribution** per seat (32 bytes each player's client draws), committed as
  ``sha256(contribution)`` when the player takes the seat and revealed once both
  seats are taken — before the first roll, and after every commitment is known.

The server cannot steer the dice (its seed is fixed before any contribution is
revealed, and each player's contribution is unknown to it until then); a player cannot
(the server's seed is hidden until the match ends; their own contribution was fixed by
its hash before they saw the opponent's).  :func:`dice_seed` is the exact derivation;
``docs/PROTOCOL.md`` ("Provably fair dice") says it in words, and :func:`verify` is
the check a player runs at the end.  A seat with no contribution (a server bot, an old
client, a player who never revealed) counts as 32 zero bytes.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Mapping, Sequence
from typing import Any, Final

from kickline.game import Game, Outcome, Plain

DOMAIN: Final = b"kickline dice v1\x00"
"""Prefixed to the hashed material, so a dice seed is never any other hash's input."""

CONTRIBUTION_BYTES: Final = 32
NOTHING: Final = bytes(CONTRIBUTION_BYTES)


def commitment(data: bytes) -> str:
    """A commitment: ``sha256(data)`` in lowercase hex."""
    return hashlib.sha256(data).hexdigest()


def dice_seed(seed: bytes, contributions: Sequence[bytes | None]) -> bytes:
    """``sha256(DOMAIN + seed + contribution of seat 0 + contribution of seat 1)``, a seat
    without a contribution counting as 32 zero bytes."""
    parts = [DOMAIN, seed]
    for c in contributions:
        if c is not None and len(c) != CONTRIBUTION_BYTES:
            raise ValueError(f"a contribution is {CONTRIBUTION_BYTES} bytes")
        parts.append(c if c is not None else NOTHING)
    return hashlib.sha256(b"".join(parts)).digest()


def parse_commit(text: str) -> str:
    """A player's commitment as sent (64 hex digits), lowercased; ``ValueError`` if not."""
    if len(text) != 64 or not all(ch in "0123456789abcdefABCDEF" for ch in text):
        raise ValueError("a dice commitment is 64 hexadecimal digits (a SHA-256)")
    return text.lower()


def parse_contribution(text: str) -> bytes:
    """A revealed contribution as sent (64 hex digits); ``ValueError`` if not."""
    if len(text) != 2 * CONTRIBUTION_BYTES or not all(ch in "0123456789abcdefABCDEF"
                                                      for ch in text):
        raise ValueError("a dice contribution is 64 hexadecimal digits (32 bytes)")
    return bytes.fromhex(text)


def dice(seed: bytes) -> random.Random:
    """The match's dice: ``random.Random`` seeded with the seed read as a big-endian
    unsigned integer."""
    return random.Random(int.from_bytes(seed, "big"))


def sample(rng: random.Random, outcomes: Sequence[Outcome]) -> tuple[str, int]:
    """One chance outcome: ``r = rng.randrange(total weight)``, then the first outcome,
    in the order the ruleset lists them, whose cumulative weight exceeds ``r``.
    Returns ``(value, total)``."""
    total = sum(o.weight for o in outcomes)
    if total <= 0:
        raise ValueError("chance outcomes with no weight")
    r = rng.randrange(total)
    for o in outcomes:
        if r < o.weight:
            return o.value, total
        r -= o.weight
    raise AssertionError("unreachable")  # pragma: no cover


def verify(game: Game, config: Mapping[str, Plain], seed: bytes, log: Sequence[Plain],
           contributions: Sequence[bytes | None] | None = None) -> Any:
    """Replay a finished match's public log and check every roll.

    The dice come from :func:`dice_seed` of ``seed`` and ``contributions`` (an ``over``
    message's ``contributions``, hex decoded); ``None`` means a match from before
    contributions existed, whose dice came from ``seed`` alone.  Returns the final
    state; raises ``ValueError`` on the first roll that does not match."""
    rng = dice(seed if contributions is None else dice_seed(seed, contributions))
    state = game.setup(config)
    for i, entry in enumerate(log):
        if entry["k"] == "d":
            state, _ = game.apply(state, entry["s"], entry["d"])
        elif entry["k"] == "c":
            value, _ = sample(rng, game.chance_outcomes(state))
            if value != entry["o"]:
                raise ValueError(f"log entry {i}: the seed gives {value!r}, log says "
                                 f"{entry['o']!r}")
            state, _ = game.apply_chance(state, value)
    return state


def check_over(game: Game, over: Mapping[str, Any]) -> Any:
    """Every check an ``over`` message allows: the revealed seed matches its commitment,
    each revealed contribution matches its seat's commitment, and every roll in the log
    follows from the dice seed.  Returns the final state; ``ValueError`` names the first
    check that fails.  (A player should also check that the commitment is the one shown
    at the start, and that their own contribution is the one they drew.)"""
    seed = bytes.fromhex(over["seed"])
    if commitment(seed) != over["commit"]:
        raise ValueError("the revealed seed does not match the server's commitment")
    contributions: list[bytes | None] | None = None
    if over.get("contributions") is not None:
        contributions = []
        for seat, (commit, shown) in enumerate(zip(over["commits"], over["contributions"],
                                                   strict=True)):
            value = None if shown is None else bytes.fromhex(shown)
            if value is not None and (commit is None or commitment(value) != commit):
                raise ValueError(f"seat {seat}'s contribution does not match its commitment")
            contributions.append(value)
    return verify(game, over["config"], seed, over["log"], contributions)
