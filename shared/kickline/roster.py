"""Roles (2.6, rulings 1.0) and the house teams (rulings section 6).

Rosters are data: the training team and the four species teams.  In training
mode species is only a label (18.1.1a); the species, personal abilities and
advanced skills recorded here come into play with Laws 20-21.
"""

from __future__ import annotations

from dataclasses import dataclass

# Role -> (offensive, defensive) skill (rulings 1.0; RULING_ROLE_SKILLS for D/MF/PM/W).
ROLE_SKILLS: dict[str, tuple[int, int]] = {
    "FB": (1, 6),
    "D": (2, 5),
    "MF": (3, 4),
    "PM": (4, 3),
    "W": (5, 2),
    "S": (6, 1),
}
ROLE_NAMES = {
    "FB": "Fullback",
    "D": "Defender",
    "MF": "Midfielder",
    "PM": "Playmaker",
    "W": "Winger",
    "S": "Striker",
}
# 2.6.3: the squad, in roster order (slots 0-8).
SQUAD_ROLES = ("FB", "D", "D", "MF", "PM", "PM", "W", "S", "S")
# 3.2.1 with RULING_BENCH_STARTERS: the later listed D, PM and S start on the bench.
BENCH_SLOTS = (2, 5, 8)
# The six starting slots in standard-deal order FB, D, MF, PM, W, S.
STARTING_SLOTS = (0, 1, 3, 4, 6, 7)


@dataclass(frozen=True, slots=True)
class PlayerCard:
    name: str
    role: str
    species: str
    ability: str = ""  # personal ability id (Law 21), advanced mode only
    adv_def: int | None = None  # advanced defensive skill (21.2, rulings 6.2)

    @property
    def off(self) -> int:
        return ROLE_SKILLS[self.role][0]

    @property
    def defense(self) -> int:
        return ROLE_SKILLS[self.role][1]


@dataclass(frozen=True, slots=True)
class Team:
    id: str
    name: str
    species: str
    players: tuple[PlayerCard, ...]


def _team(team_id: str, name: str, species: str, rows: list[tuple[str, str, int | None]]) -> Team:
    players = tuple(
        PlayerCard(pname, role, species, ability, adv)
        for (pname, ability, adv), role in zip(rows, SQUAD_ROLES, strict=True)
    )
    return Team(team_id, name, species, players)


TEAMS: dict[str, Team] = {
    t.id: t
    for t in (
        _team(
            "training",
            "Training XI",
            "Trainee",
            [
                ("Trainee Fullback", "", None),
                ("Trainee Defender A", "", None),
                ("Trainee Defender B", "", None),
                ("Trainee Midfielder", "", None),
                ("Trainee Playmaker A", "", None),
                ("Trainee Playmaker B", "", None),
                ("Trainee Winger", "", None),
                ("Trainee Striker A", "", None),
                ("Trainee Striker B", "", None),
            ],
        ),
        _team(
            "fire-demons",
            "Fire Demons",
            "Fire Demon",
            [
                ("Ashwall", "", 8),
                ("Blazebulk", "blazebulk", None),
                ("Inferno", "inferno", None),
                ("Scorchit", "scorchit", None),
                ("Emberdash", "emberdash", None),
                ("Sizzifizik", "sizzifizik", None),
                ("Flickerwing", "flickerwing", None),
                ("Brightburn", "brightburn", None),
                ("Kindlefinger", "kindlefinger", None),
            ],
        ),
        _team(
            "cyborgs",
            "Cyborgs",
            "Cyborg",
            [
                ("Bulwark", "bulwark", None),
                ("Voltus", "voltus", None),
                ("Ironbrace", "", 6),
                ("Strider", "strider", None),
                ("Gearclaw", "gearclaw", None),
                ("Synapse", "synapse", None),
                ("Quantor", "quantor", None),
                ("Pulsar", "pulsar", None),
                ("Coilshot", "", 2),
            ],
        ),
        _team(
            "telekinetics",
            "Telekinetics",
            "Telekinetic",
            [
                ("Umbrik", "umbrik", None),
                ("Vorix", "vorix", None),
                ("Dravox", "dravox", None),
                ("Spectra", "spectra", None),
                ("Hexis", "hexis", None),
                ("Quillon", "quillon", None),
                ("Zenith", "zenith", None),
                ("Zytheris", "zytheris", None),
                ("Noxar", "noxar", None),
            ],
        ),
        _team(
            "oozes",
            "Oozes",
            "Ooze",
            [
                ("Goopkeeper", "goopkeeper", None),
                ("Viscor", "viscor", None),
                ("Gloomire", "", 6),
                ("Glompex", "glompex", None),
                ("Zorch", "zorch", None),
                ("Blobbit", "", 4),
                ("Shpritz", "shpritz", None),
                ("Acidel", "acidel", None),
                ("Slitheron", "slitheron", None),
            ],
        ),
    )
}

# The four species teams (rulings 6.3), in id order: what Part II matches pair.
SPECIES_TEAMS: tuple[str, ...] = tuple(sorted(t for t in TEAMS if t != "training"))
