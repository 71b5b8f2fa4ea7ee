"""Tournaments: Swiss, round robin and knockout events, as a sans-I/O package.

``machine.Tournament`` is the event (an event-sourced state machine: commands in,
events out, replayed on restart); ``decide`` holds what each organiser or player command
does; pairers (``swiss``, ``berger``, ``knockout``) make the draws; ``standings`` ranks
the players with the configured tiebreaks; ``trf`` and ``export`` write what a club
takes elsewhere. Nothing here does I/O except the Swiss pairer's child process.
"""

from .errors import Refused
from .machine import Tournament
from .pairer import Draw, Pairer, PairingInput
from .settings import Settings

__all__ = ["Draw", "Pairer", "PairingInput", "Refused", "Settings", "Tournament"]
