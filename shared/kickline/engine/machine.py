"""The rules as a machine: a stack of frames, each automatic, a decision or a roll.

``State.stack`` holds what remains to be done, top last.  An automatic frame runs
and may push more; a decision frame waits for one seat (or, for a secret choice,
for both); a chance frame waits for a die.  ``apply`` answers the frame on top and
then runs automatic frames until the next question.  Frames are tuples of plain
values, so the whole machine lives in the state and survives storage.

An open decision with exactly one legal option is taken automatically (the
rules' "there is nothing to choose", 4.2.1, 9.3.1): it still emits its event.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .. import rulings as R
from ..board import HOME, VISITORS
from ..decisions import Decision
from ..errors import IllegalDecision, MalformedDecision, StaleVersion
from ..state import Frame, State, pid

# Each law's module registers its frames as it is imported; the machine runs whatever
# is registered, so it imports every one of them (most only for that).
from . import (  # noqa: F401
    abilities,
    cards,
    clock,
    coaching,
    defense,
    dice,
    gambits,
    offense,
    resolve,
    sends,
    shootout,
    shots,
    turn,
    turnovers,
)
from .ball import offer
from .frames import ASK, AUTO, CHANCE, D12, SECRET, Ctx, Event
from .turn import toss_coin

# The law that offers each kind of decision, named on the decision's own event.
DECISION_LAW = {
    "toss": "3.1.3", "handler": "4.2.1", "action": "4.3", "challenge": "6.1.2",
    "send": "9.1.1", "card": "6.2.1", "pass": "6.5.2", "dribble": "6.6.2", "speed": "7.2.1",
    "throw": "6.7.2", "receive": "10.1.3", "shot": "8.4.1", "pick": "10.1.3", "run": "12.4.3",
    "clear": "15.5.1", "sub": "14.5.1", "formation": "14.7.3", "move": "14.7.5",
    "swap": "14.2.1", "finish": "14.8.3", "skip": "14.8.4", "order": "17.3.1",
    "shooter": "17.6.2", "declare": "20.3.5", "join": "21.6.1", "scorch": "21.3.8",
    "aim": "19.7.2", "drive": "19.7.7", "partner": "19.10.2", "pull": "20.4.1",
    "smooth": "20.4.9", "fly": "21.5.7", "quantor": "21.4.5",
}


def _top(s: State) -> Frame:
    return s.stack[-1]


def to_act(s: State) -> tuple[str, tuple[int, ...], bool]:
    """("decide", seats, secret) | ("chance", (), False) | ("over", (), False)."""
    f = _top(s)
    k = f[0]
    if k in ASK:
        return "decide", (ASK[k].who(s, f),), False
    if k in SECRET:
        seats = tuple(sorted(s.seat_of(side) for side in (HOME, VISITORS) if not s.secret[side]))
        return "decide", seats, True
    if k in CHANCE:
        return "chance", (), False
    return "over", (), False


_last_legal: list[tuple[State, int, tuple[str, ...]] | None] = [None]
"""The last (state, seat, options) answered: states never change.  One slot written in
one step, so a thread (the server's bots and odds run in threads) never reads a state
paired with another state's options."""


def legal(s: State, seat: int) -> tuple[str, ...]:
    """Every legal decision for ``seat`` now, as sorted canonical text."""
    last = _last_legal[0]
    if last is not None and last[0] is s and last[1] == seat:
        return last[2]
    out = _legal(s, seat)
    if out:  # a seat with nothing to decide is cheap to ask again; keep the real list
        _last_legal[0] = (s, seat, out)
    return out


_legal_of = legal  # for apply, whose ``legal`` argument hides the function


def _legal(s: State, seat: int) -> tuple[str, ...]:
    f = _top(s)
    k = f[0]
    if k in ASK:
        if ASK[k].who(s, f) != seat:
            return ()
        return tuple(ASK[k].legal(s, f))
    if k in SECRET and s.home_seat >= 0:
        side = s.side_of(seat)
        if s.secret[side]:
            return ()
        return tuple(SECRET[k].legal(s, f, side))
    return ()


def chance(s: State) -> tuple[str, dict[str, Any], tuple[str, ...]]:
    """The pending chance event: (kind, description, outcomes); outcomes equally likely."""
    f = _top(s)
    if f[0] == "coin":
        return "coin", {"for": "toss", "law": "3.1.2"}, ("doom", "fortune")
    if f[0] == "roll":
        who = int(f[2])
        desc = {"for": f[1], "law": R.ROLL_LAW[str(f[1])], "player": pid(who) if who >= 0 else None}
        return "d12", desc, D12
    raise IllegalDecision("no chance event is pending")


def apply(
    s: State, seat: int, text: str, *, version: int | None = None,
    legal: Sequence[str] | None = None,
) -> tuple[State, list[Event]]:
    """Apply ``seat``'s decision.  Raises and leaves ``s`` untouched if it is refused.

    ``version`` is the state's version the decision was made on: the current one, or in a
    secret choice the one its phase began with (see :func:`same_phase`).  ``legal``:
    what :func:`legal` answered for this ``s`` and ``seat``, if the caller kept it (a
    server running many matches asks for a match's legal decisions when it prompts, and
    its next decision comes after other matches' have displaced the memo)."""
    if version is not None and not same_phase(s, version):
        raise StaleVersion(s.version, version)
    if seat not in (0, 1):
        raise IllegalDecision(f"no seat {seat!r}")
    f = _top(s)
    k = f[0]
    options = _legal_of(s, seat) if legal is None else legal
    d = text
    # Every legal option is well formed, so only a refused text needs parsing: that is
    # where malformed and illegal are told apart.
    if d not in options:
        d = Decision.decode(text).text
        if not options:
            raise IllegalDecision(f"seat {seat} has nothing to decide now")
        raise IllegalDecision(f"{d!r} is not legal now; legal: {', '.join(options[:12])}"
                              + (" ..." if len(options) > 12 else ""))
    c = Ctx(s)
    if k in ASK:
        c.stack.pop()
        c.ev("decision", DECISION_LAW[d.split(" ", 1)[0]], seat=seat, decision=d)
        ASK[k].answer(c, f, d)
    else:
        side = s.side_of(seat)
        sec = list(c.secret)
        sec[side] = d
        c.secret = (sec[0], sec[1])
        c.ev("chosen", SECRET[k].law, seat=seat, side=side, decision=d, private=seat)
        if all(c.secret):
            c.stack.pop()
            choice = c.secret
            c.secret = ("", "")
            SECRET[k].resolve(c, f, choice)
    return _finish(c, s.version + 1)


def same_phase(s: State, version: int) -> bool:
    """Whether a decision made on state ``version`` is still a decision about ``s``.

    Always for the current version.  And in a secret choice (both sides choose in
    secret, revealed together), also for the version the choice began with: the only
    thing that can have happened since is the other side's secret choice, which changes
    nothing this side could see or choose (its legal choices do not depend on it).  So
    the second chooser, who chose on the first version like the first, is not refused
    as stale and asked to send again.  A side filled by the engine (it had one legal
    choice) did not move the version, so it never makes an older version good."""
    if version == s.version:
        return True
    f = _top(s)
    sec = SECRET.get(f[0])
    if sec is None or version != s.version - 1:
        return False
    chosen = [side for side in (HOME, VISITORS) if s.secret[side]]
    return len(chosen) == 1 and len(sec.legal(s, f, chosen[0])) > 1


def apply_chance(
    s: State, outcome: str, *, version: int | None = None
) -> tuple[State, list[Event]]:
    if version is not None and version != s.version:
        raise StaleVersion(s.version, version)
    kind, desc, outcomes = chance(s)
    if outcome not in outcomes:
        raise MalformedDecision(f"{outcome!r} is not an outcome of this {kind}")
    c = Ctx(s)
    c.stack.pop()
    if kind == "coin":
        toss_coin(c, outcome)
    else:
        c.rolls.append(int(outcome))
        c.ev("roll", desc["law"], die=int(outcome),
             **{"for": desc["for"], "player": desc["player"]})
    return _finish(c, s.version + 1)


def _finish(c: Ctx, version: int) -> tuple[State, list[Event]]:
    _run(c)
    c.version = version
    new = c.freeze()
    if c.pending is not None:
        _last_legal[0] = (new, c.pending[0], c.pending[1])
    return new, c.events


def _run(c: Ctx) -> None:
    """Run automatic frames until a question: a real choice, a die, or the end."""
    while True:
        if c.moving is not None:  # what moved the ball has scheduled what follows
            offer(c, c.moving)
        f = c.stack[-1]
        k = f[0]
        fn = AUTO.get(k)
        if fn is not None:
            c.stack.pop()
            fn(c, f)
            continue
        ask = ASK.get(k)
        if ask is not None:
            options = ask.legal(c, f)
            if len(options) == 1:
                c.stack.pop()
                c.ev("forced", DECISION_LAW[options[0].split(" ", 1)[0]], decision=options[0],
                     seat=ask.who(c, f))
                ask.answer(c, f, options[0])
                continue
            if not options:
                raise AssertionError(f"no legal decision at frame {f!r}")
            c.pending = (ask.who(c, f), tuple(options))
            return
        sec = SECRET.get(k)
        if sec is not None:
            filled = list(c.secret)
            for side in (HOME, VISITORS):
                if not filled[side]:
                    opts = sec.legal(c, f, side)
                    if len(opts) == 1:
                        filled[side] = opts[0]
            if all(filled):
                c.stack.pop()
                c.secret = ("", "")
                sec.resolve(c, f, (filled[0], filled[1]))
                continue
            c.secret = (filled[0], filled[1])
            return
        return


def advance(s: State) -> tuple[State, list[Event]]:
    """Run automatic frames on a state built by hand (tests, tools), keeping its version."""
    c = Ctx(s)
    return _finish(c, s.version)
