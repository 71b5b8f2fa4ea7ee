"""Single-elimination brackets: seeding, byes to the top seeds, who advances.

The bracket has a power-of-two number of slots. Seeds are placed so that 1 and 2 can
only meet in the final, 1-4 only in the semi-finals, and so on (the usual order: 1, 8,
4, 5, 2, 7, 3, 6 for eight); the slots past the field are empty, so the top seeds get
the byes. A tie's winner advances. A drawn result (only an adjudication can draw a
Kickline match: the shootout decides the rest) goes to the better seed. If both players
of a tie forfeit, nobody advances and the next round's opponent has a walkover. With
``third_place``, the final round also has a board for third place between the
semi-finals' losers (:func:`losers`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from .errors import Refused
from .model import Round


def slots(players: int) -> int:
    n = 1
    while n < players:
        n *= 2
    return n


def rounds(players: int) -> int:
    return max(1, (slots(players) - 1).bit_length())


def seed_order(n: int) -> list[int]:
    """Seed numbers in bracket order for ``n`` (a power of two) slots."""
    order = [1]
    while len(order) < n:
        m = len(order) * 2
        order = [x for s in order for x in (s, m + 1 - s)]
    return order


def bracket(seeded: Sequence[int]) -> list[int | None]:
    """The first round's slots: pids in bracket order, ``None`` for an empty slot."""
    if len(seeded) < 2:
        raise Refused("not_enough_players", "a knockout needs at least 2 players")
    n = slots(len(seeded))
    return [seeded[s - 1] if s <= len(seeded) else None for s in seed_order(n)]


def winner(rnd: Round, a: int | None, b: int | None, seed: Mapping[int, int]) -> int | None:
    """Who of the tie ``a``-``b`` goes through from ``rnd`` (``None``: nobody yet, or
    nobody at all after a double forfeit)."""
    if a is None or b is None:
        return a if b is None else b
    board = rnd.board_of(a)
    if board is None or board.result is None:
        return None
    r = board.result
    if r.winner is not None:
        return board.home if r.winner == "home" else board.away
    if r.kind == "forfeit":
        return None
    return min((a, b), key=lambda p: seed[p])


def advancing(first: Sequence[int | None], played: Sequence[Round],
              seed: Mapping[int, int]) -> list[int | None]:
    """The slots of the round after ``played`` (rounds 1.. in order)."""
    current = list(first)
    for rnd in played:
        current = [winner(rnd, current[i], current[i + 1], seed)
                   for i in range(0, len(current), 2)]
    return current


def ties(current: Sequence[int | None]) -> list[tuple[int | None, int | None]]:
    return [(current[i], current[i + 1]) for i in range(0, len(current), 2)]


def losers(first: Sequence[int | None], played: Sequence[Round],
           seed: Mapping[int, int]) -> list[int]:
    """Who lost a tie of the last of ``played`` (on the board, by adjudication or by
    forfeit; not a bye, and nobody from a double forfeit), in bracket order."""
    slots = advancing(first, played[:-1], seed)
    out = []
    for a, b in ties(slots):
        if a is None or b is None:
            continue
        w = winner(played[-1], a, b, seed)
        if w is not None:
            out.append(b if w == a else a)
    return out
