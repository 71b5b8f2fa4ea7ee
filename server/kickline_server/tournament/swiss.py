"""Swiss pairing by the FIDE Dutch system, through the gacrux engine (pinned 1.11.65).

gacrux is driven the way its author ships it: a checker program that reads a TRF and
prints JSON (``python -m gacrux.pairingchecker -i - -p``). We run it in a child process:
pairing 1,000 players takes seconds of CPU that must not stall the event loop, a child
can be killed at a deadline, and nothing it leaves in memory outlives one pairing.

Where gacrux is thin, and what this wrapper does about it:

* its exit status is 0 even when it fails: the JSON's ``status.code`` is what counts
  (0 paired; 2, an empty pairing, and 505 both mean no legal pairing exists; 401 the
  file was refused; 5xx its own fault);
* forbidden pairings: gacrux 1.11.65 reads TRF-2026 record 260 (prohibited pairings)
  and keeps those pairs apart; the wrapper still checks every draw it returns
  (:func:`~.pairer.check_draw`: every present player once, no forbidden pair, no
  rematch, no second pairing-allocated bye) and refuses a draw that breaks one, so a
  fault in the library stops the round instead of reaching the players;
* it pairs by pairing number and colour (``w``/``b``); home is white.
"""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import dataclass
from typing import Any

from . import trf
from .errors import Refused
from .model import Game, bye_points
from .pairer import Draw, PairingInput, check_draw


def trf_for(inp: PairingInput) -> str:
    """The TRF gacrux pairs ``inp.round`` from: rounds 1..round-1 and this round's byes."""
    lines = []
    for p in inp.players:
        games = list(inp.games[p.pid])[: inp.round - 1]
        games += [None] * (inp.round - 1 - len(games))
        kind = inp.absent.get(p.pid)
        if kind is not None:
            games.append(Game(inp.round, kind, points=bye_points(kind, inp.scoring)))
        elif p.pid not in inp.present:
            raise Refused("pairing_failed", f"player {p.number} is neither paired nor absent")
        lines.append(trf.Line(p.number, p.name, p.rating, games))
    return trf.write(name=inp.name, fmt_name=inp.format, rounds=inp.rounds,
                     scoring=inp.scoring, lines=lines, numbers=inp.numbers(),
                     top_colour=inp.top_colour, forbidden=sorted(inp.forbidden))


def parse(inp: PairingInput, output: str) -> Draw:
    """gacrux's JSON answer as a checked draw."""
    try:
        answer: Any = json.loads(output)
        status = answer["status"]
        code = int(status["code"])
    except (ValueError, KeyError, TypeError):
        raise Refused("pairing_failed", "the pairing engine gave no answer") from None
    if code in (2, 505):
        raise Refused("no_pairing", f"round {inp.round} cannot be paired under the Dutch "
                      "rules (too few players who have not met, or forbidden pairs): "
                      "re-pair by hand, or let more players in")
    if code != 0:
        errors = "; ".join(str(e) for e in status.get("error", []))[:300]
        raise Refused("pairing_failed", f"the pairing engine refused the event ({code}: "
                      f"{errors})")
    by_number = {p.number: p.pid for p in inp.players}
    boards: list[tuple[int, int]] = []
    bye = None
    try:
        pairs = answer["pairingResult"]["pairs"]
        for w, b in pairs:
            if b == 0:
                if bye is not None:
                    raise Refused("pairing_failed", "the pairing engine gave two byes")
                bye = by_number[w]
            else:
                boards.append((by_number[w], by_number[b]))
    except (KeyError, TypeError, ValueError):
        raise Refused("pairing_failed", "the pairing engine's answer is malformed") from None
    return check_draw(inp, Draw(tuple(boards), bye))


@dataclass(frozen=True, slots=True)
class GacruxPairer:
    """The Swiss pairer. ``timeout`` bounds one pairing (seconds)."""

    timeout: float = 120.0
    python: str = sys.executable

    def pair(self, inp: PairingInput) -> Draw:
        if len(inp.present) < 2:
            raise Refused("not_enough_players", "a round needs at least 2 players present")
        text = trf_for(inp)
        try:
            done = subprocess.run(
                [self.python, "-m", "gacrux.pairingchecker", "-i", "-", "-p"],
                input=text.encode("ascii"), capture_output=True, timeout=self.timeout,
                check=False)
        except subprocess.TimeoutExpired:
            raise Refused("pairing_failed", f"the pairing engine took longer than "
                          f"{self.timeout:g} s; try again, or raise --pairing-timeout") from None
        except OSError as e:
            raise Refused("pairing_failed", f"the pairing engine could not start: {e}") from None
        return parse(inp, done.stdout.decode("utf-8", "replace"))
