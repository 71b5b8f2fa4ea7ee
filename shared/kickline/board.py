"""Board geometry (Law 2, rulings section 2): spaces, zones, directions, range.

Spaces are indexed 1..N from the home end.  Sides are ``HOME = 0`` and
``VISITORS = 1``.
"""

from __future__ import annotations

from functools import cache

HOME = 0
VISITORS = 1
SIDE_NAMES = ("home", "visitors")
BOARDS = (7, 9)

# 14.7.1 (rulings 1.5): formations as (own goal, midfield, attacked goal).
FORMATIONS: dict[str, tuple[int, int, int]] = {
    "1-2-3": (1, 2, 3),
    "1-3-2": (1, 3, 2),
    "2-2-2": (2, 2, 2),
    "2-3-1": (2, 3, 1),
    "3-2-1": (3, 2, 1),
}
NINE_ONLY_FORMATIONS = ("1-2-3", "3-2-1")  # 14.7.2


class Board:
    """One board size.  Instances are cached: ``Board.of(7)``."""

    __slots__ = ("_spaces", "g", "kickoff", "n", "names", "zones")

    def __init__(self, n: int) -> None:
        if n not in BOARDS:
            raise ValueError(f"board must be 7 or 9, not {n!r}")
        self.n = n
        self.g = (n - 3) // 2  # goal-zone depth (rulings 2.1)
        self.kickoff = (n + 1) // 2  # 2.4.1: the middle space, M2 on both boards
        names = [""]
        zones = [""]
        for i in range(1, n + 1):
            z = self.zone_of(i)
            zones.append(z)
            k = i if z == "H" else i - self.g if z == "M" else i - self.g - 3
            names.append(f"{z}{k}")
        self.names = tuple(names)
        self.zones = tuple(zones)
        self._spaces = {
            z: tuple(i for i in range(1, n + 1) if zones[i] == z) for z in ("H", "M", "V")
        }

    @staticmethod
    @cache
    def of(n: int) -> Board:
        return Board(n)

    def zone_of(self, i: int) -> str:
        if i <= self.g:
            return "H"
        if i <= self.g + 3:
            return "M"
        return "V"

    def name(self, i: int) -> str:
        return self.names[i]

    def parse(self, name: str) -> int:
        try:
            return self.names.index(name, 1)
        except ValueError:
            raise ValueError(f"no space {name!r} on board {self.n}") from None

    def spaces(self, zone: str) -> tuple[int, ...]:
        return self._spaces[zone]

    @staticmethod
    def fwd(side: int) -> int:
        """2.2: home attacks toward V (+1), the visitors toward H (-1)."""
        return 1 if side == HOME else -1

    def own_end(self, side: int) -> int:
        """The space closest to a side's own goal (5.5.3, 6.10.3)."""
        return 1 if side == HOME else self.n

    def attack_end(self, side: int) -> int:
        return self.n if side == HOME else 1

    @staticmethod
    def own_zone(side: int) -> str:
        return "H" if side == HOME else "V"

    @staticmethod
    def attacked_zone(side: int) -> str:
        return "V" if side == HOME else "H"

    def in_range(self, side: int, i: int) -> bool:
        """2.3 (rulings 2.3): strictly beyond the middle, toward the attacked goal."""
        return i > self.kickoff if side == HOME else i < self.kickoff

    def to_end(self, side: int, i: int) -> int:
        """Spaces from ``i`` to the end ``side`` attacks (6.7.4)."""
        return self.n - i if side == HOME else i - 1

    def step(self, i: int, direction: int, k: int) -> tuple[int, bool]:
        """Move ``k`` spaces in ``direction`` (+1/-1); clamp at the field's end.

        Returns the space reached and whether the move ran out of field
        (rulings 2.2: "only as far as the field goes").
        """
        t = i + direction * k
        if t < 1:
            return 1, True
        if t > self.n:
            return self.n, True
        return t, False

    def stack_space(self, zone: str) -> int:
        """14.7.4: the middle of a three-space zone, else the space nearer the middle."""
        sp = self.spaces(zone)
        if len(sp) == 3:
            return sp[1]
        return sp[-1] if zone == "H" else sp[0]

    def formations(self) -> tuple[str, ...]:
        return tuple(
            f for f in sorted(FORMATIONS) if self.n == 9 or f not in NINE_ONLY_FORMATIONS
        )

    def deal(self, side: int, formation: str) -> tuple[tuple[str, int], ...]:
        """14.7.3: the (zone, space) each of six cards is dealt to, in deal order.

        Dealt from the coach's own end outward, one card a space, packing a zone
        from the own end (RULING_FORMATION_PACKS_FROM_OWN_END); surplus stacks.
        """
        counts = FORMATIONS[formation]
        zones = (self.own_zone(side), "M", self.attacked_zone(side))
        out: list[tuple[str, int]] = []
        for zone, count in zip(zones, counts, strict=True):
            sp = self.spaces(zone)
            ordered = sp if side == HOME else tuple(reversed(sp))
            for k in range(count):
                out.append((zone, ordered[k] if k < len(ordered) else self.stack_space(zone)))
        return tuple(out)

    def standard_deal(self, side: int) -> tuple[tuple[str, int], ...]:
        """3.2.2: (zone, space) for FB, D, MF, PM, W, S in that order.

        Goal zones' two cards take the two ends, the higher defensive skill nearer
        the side's own end (RULING_STANDARD_DEAL_ENDS); midfield packs from the
        side's own end.
        """
        own = self.spaces(self.own_zone(side))
        mid = self.spaces("M")
        att = self.spaces(self.attacked_zone(side))
        if side == HOME:
            return (
                ("H", own[0]), ("H", own[-1]),
                ("M", mid[0]), ("M", mid[1]),
                ("V", att[0]), ("V", att[-1]),
            )
        return (
            ("V", own[-1]), ("V", own[0]),
            ("M", mid[-1]), ("M", mid[-2]),
            ("H", att[-1]), ("H", att[0]),
        )
