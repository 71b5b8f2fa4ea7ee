"""Round robin by the Berger tables (FIDE C.05, Annex 1).

Players are numbered 1..n by initial ranking; an odd field adds number n+1, and whoever
meets it rests that round. Round 1 is 1-n, 2-(n-1), 3-(n-2), ...; each later round
rotates every number but n by n/2 places, and n alternates colours on board 1 (white
in odd rounds). A double round robin plays the table twice, colours reversed.
"""

from __future__ import annotations

from .errors import Refused


def size(players: int) -> int:
    """The table's size: the number of players, made even."""
    return players + players % 2


def rounds(players: int, cycles: int = 1) -> int:
    return (size(players) - 1) * cycles


def table(players: int, rnd: int) -> list[tuple[int, int]]:
    """Round ``rnd`` (1-based, any cycle) of the table for ``players``: (white, black)
    numbers by board; a number above ``players`` is the rest."""
    n = size(players)
    if players < 2:
        raise Refused("not_enough_players", "a round robin needs at least 2 players")
    per_cycle = n - 1
    if rnd < 1:
        raise Refused("bad_round", "rounds are numbered from 1")
    cycle, r = divmod(rnd - 1, per_cycle)
    r += 1
    k = n // 2
    ring = [((i + (r - 1) * k) % per_cycle) + 1 for i in range(per_cycle)]
    boards = [(ring[0], n) if r % 2 == 1 else (n, ring[0])]
    boards += [(ring[j - 1], ring[n - j]) for j in range(2, k + 1)]
    if cycle % 2 == 1:
        boards = [(b, w) for w, b in boards]
    return boards
