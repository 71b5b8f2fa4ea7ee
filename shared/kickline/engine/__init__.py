"""The rules engine: a stack machine whose frames follow the rulebook's parts.

The modules, each importing only those listed before it (tests/kickline/
test_engine_layout.py keeps it so):

====================  =================================================================
``frames``            the working copy of a state (``Ctx``) and the frame registries
``dice``              every d12: Volatile, Lithium Powered, Slimey's Merge; injury checks
``turn``              the toss, the deal, the kickoff (3); the turn (4); the challenge (6.1)
``turnovers``         the end of a turn: new plays, a steal's run back, Charge-up (12)
``ball``              a moving ball, Mind Pull and Smooth (20.4), receptions (10.1)
``abilities``         personal abilities with steps of their own (21), and where all are
``sends``             sends (9), the ball at rest, loose balls and contests (10)
``shots``             set-ups (8), score attempts (5), the own-goal roll (11)
``cards``             the maneuver cards, the reveal, the skill test (6.2-6.4; 19.2-19.4)
``offense``           Low Pass, Dribble, High Pass (6.5-6.7)
``defense``           Deflect, Steal, Pressure (6.8-6.10)
``gambits``           the six gambits, won and beaten (19.5-19.10)
``resolve``           resolving the card that won
``coaching``          Coaching Choices (14)
``clock``             the clock, halftime, full time (15.5, 16)
``shootout``          the shootout (17)
``machine``           runs the frames: ``to_act``, ``legal``, ``apply``, ``apply_chance``
====================  =================================================================

Hosts use :mod:`kickline` (and :mod:`kickline.game`); the names below are what the
rest of the package and the law tests read.
"""

from __future__ import annotations

from .ball import ball_moves, pull_offers, smooth_offers
from .cards import gambit_tier, holds_gambits
from .frames import ASK, AUTO, CHANCE, SECRET, Ctx, Event, Movement
from .machine import advance, apply, apply_chance, chance, legal, to_act
from .turn import new_game

__all__ = [
    "ASK",
    "AUTO",
    "CHANCE",
    "SECRET",
    "Ctx",
    "Event",
    "Movement",
    "advance",
    "apply",
    "apply_chance",
    "ball_moves",
    "chance",
    "gambit_tier",
    "holds_gambits",
    "legal",
    "new_game",
    "pull_offers",
    "smooth_offers",
    "to_act",
]
