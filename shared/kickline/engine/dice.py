"""Every d12 a player rolls, and the species rules that change a roll (Law 20).

In standard and advanced mode a player's die is a small procedure: the blind
declarations (one secret frame before all the dice of the roll, rulings D14/OQ25),
then each die, then that die's ignite.  Each die leaves a record of four numbers in
``rolls`` (face, signed second die, Overdrive, Boost) that ``take_die`` reads back.
Training mode rolls bare dice, exactly as it always has (18.1.1a).

Here: Volatile's ignite (20.2; Blazebulk, Brightburn, Kindlefinger, Sizzifizik in
21.3), Lithium Powered's declarations (20.3.5; Voltus, Gearclaw in 21.4), Slimey's
Merge and stacks (20.5; Viscor 21.6.4), Zorch's modifier (21.6.6), and the injury
check that follows a skill test or a contest (15.3).
"""

from __future__ import annotations

from typing import Any, NamedTuple

from .. import rulings as R
from ..state import Frame, Reads, pid, side_of
from .frames import SECRET, Ctx, Secret, auto


def is_ooze(c: Reads, i: int) -> bool:
    """Slimey (20.5) is played in standard and advanced mode: species() is "" in training."""
    return c.species(i) == "Ooze"


def merge(c: Reads, side: int, attack: bool, rolling: tuple[int, ...]) -> list[dict[str, Any]]:
    """20.5.1 Merge: every healthy Ooze of ``side`` on the ball's space who is not rolling
    adds their offensive skill on the attacking side, defensive on the defending side;
    Viscor adds 3 more (21.6.4)."""
    out: list[dict[str, Any]] = []
    for i in c.on_space(side, c.ball.pos):
        if i in rolling or not is_ooze(c, i) or c.players[i].injured:
            continue
        adds = c.off(i) if attack else c.dfn(i)
        viscor = c.ability(i) == "viscor"
        if viscor:
            adds += R.VISCOR_BONUS
        out.append({"player": pid(i), "adds": adds, "law": "21.6.4" if viscor else "20.5.1"})
    return out


def with_merge(c: Ctx, parts: dict[str, Any], side: int, attack: bool,
                rolling: tuple[int, ...]) -> dict[str, Any]:
    """Adds Merge (20.5.1) to a roll's parts.  Training mode's events keep their shape."""
    if c.config.mode == "training":
        return parts
    m = merge(c, side, attack, rolling)
    parts["merge"] = m
    parts["total"] += sum(x["adds"] for x in m)
    return parts


def injury_checks(c: Ctx, who: tuple[int, ...]) -> list[Frame]:
    """6.4.5, 15.3.1: every Exhausted participant rolls once the test resolves."""
    frames: list[Frame] = []
    for i in who:
        if c.exhausted(i):
            frames += [*dice(c, "injury", i), ("injury", i)]
    return frames


@auto("injury")
def _injury(c: Ctx, f: Frame) -> None:
    i = int(f[1])
    die = take_die(c)
    p = c.players[i]  # read after the die: Kindlefinger's ignite may have moved a token
    extra: dict[str, Any] = {}
    total = die.face
    if c.config.mode != "training":
        extra = die_parts(c, i, die, {"total": die.face}, False)
        total = extra["total"]
        if c.species(i) == "Cyborg":
            extra["word"] = "damage"  # 20.3.4: a damage test, and Damaged if it fails
    hurt = total <= p.tokens
    if hurt:
        c.players[i] = p._replace(tokens=0, injured=True)  # 15.4.1
    c.ev("injury-check", "15.3.1", player=pid(i), die=die.face, tokens=p.tokens,
         injured=hurt, **extra)


class Die(NamedTuple):
    """One finished die as ``take_die`` reads it back from ``rolls``."""

    face: int
    second: int  # the ignite's second die: + a blaze, - a burn, 0 no ignite
    overdrive: int
    boost: int


def dice(c: Ctx, purpose: str, *who: int) -> list[Frame]:
    """The frames for one roll by ``who`` (one die each; the own-goal roll names its
    handler twice for its two dice)."""
    if c.config.mode == "training":
        return [("roll", purpose, i) for i in who]
    return [("declare", purpose, *who)]


def take_die(c: Ctx) -> Die:
    if c.config.mode == "training":
        return Die(c.rolls.pop(0), 0, 0, 0)
    face, second, over, boost = c.rolls[:4]
    del c.rolls[:4]
    return Die(face, second, over, boost)


def die_parts(c: Ctx, i: int, die: Die, parts: dict[str, Any], mod_counted: bool
              ) -> dict[str, Any]:
    """Add the die's Part II parts to a side's parts and total, so the event shows why.
    Zorch adds the ball speed modifier to every roll, unless this roll already counts it
    for Zorch's side (21.6.6)."""
    if c.config.mode == "training":
        return parts
    zorch = c.ball.speed // 2 if c.ability(i) == "zorch" and not mod_counted else 0
    ignite = "" if not die.second else ("blaze" if die.second > 0 else "burn")
    parts = dict(parts, ignite=ignite, second=abs(die.second), overdrive=die.overdrive,
                 boost=die.boost, zorch=zorch)
    parts["total"] += die.second + die.overdrive + die.boost + zorch
    return parts


def _declare_options(c: Reads, i: int) -> list[str]:
    """20.3.5, 21.4.3: what a Cyborg about to roll may declare."""
    if c.species(i) != "Cyborg":
        return ["declare none"]
    out = ["declare none", "declare overdrive"]
    if c.ability(i) == "gearclaw":
        out += ["declare boost", "declare both"]
    return sorted(out)


def _declare_legal(c: Reads, f: Frame, side: int) -> list[str]:
    mine = [int(i) for i in f[2:] if side_of(int(i)) == side]
    return _declare_options(c, mine[0]) if mine else ["declare none"]


def _declare_resolve(c: Ctx, f: Frame, choice: tuple[str, str]) -> None:
    purpose, who = str(f[1]), [int(i) for i in f[2:]]
    frames: list[Frame] = []
    declared: list[int] = []
    for i in who:
        over = boost = 0
        if i not in declared:  # once per roll, however many dice it has
            declared.append(i)
            d = choice[side_of(i)].split()[1]
            # A Damaged Cyborg keeps Overdrive (20.3.6) and, as an injured player never
            # exhausts (15.1.3, rulings 1.6), drains nothing for it.
            free = c.players[i].injured
            if d in ("overdrive", "both"):
                over = R.OVERDRIVE_BONUS
                drain = (R.VOLTUS_OVERDRIVE_DRAIN if c.ability(i) == "voltus"
                         else R.OVERDRIVE_DRAIN)
                c.ev("overdrive", "20.3.5", player=pid(i), bonus=over, drain=0 if free else drain)
                c.exhaust(i, drain, "21.4.2" if c.ability(i) == "voltus" else "20.3.5")
            if d in ("boost", "both"):
                boost = R.BOOST_BONUS
                c.ev("boost", "21.4.3", player=pid(i), bonus=boost,
                     drain=0 if free else R.BOOST_DRAIN)
                c.exhaust(i, R.BOOST_DRAIN, "21.4.3")
        frames += [("roll", purpose, i), ("die", purpose, i, over, boost)]
    c.then(*frames)


SECRET["declare"] = Secret(_declare_legal, _declare_resolve, "20.3.5")


def _ignites(c: Ctx, purpose: str, i: int, face: int) -> bool:
    """20.2.1-20.2.3, 21.3.2, 21.3.7: a natural face on the die itself, in the four
    covered rolls; Kindlefinger's injury check too."""
    if purpose in R.IGNITE_ROLLS:
        if c.species(i) != "Fire Demon":
            return False
    elif not (purpose == "injury" and c.ability(i) == "kindlefinger"):
        return False
    lo, hi = R.SIZZIFIZIK_FACES if c.ability(i) == "sizzifizik" else R.IGNITE_FACES
    return lo <= face <= hi


@auto("die")
def _die(c: Ctx, f: Frame) -> None:
    _, purpose, i, over, boost = f
    face = c.rolls.pop()
    if _ignites(c, str(purpose), int(i), face):
        c.then(("roll", "ignite", i), ("ignite", purpose, i, face, over, boost))
    else:
        c.rolls += [face, 0, int(over), int(boost)]


@auto("ignite")
def _ignite(c: Ctx, f: Frame) -> None:
    """20.2.1: 5-12 blazes (added), 1-4 burns (subtracted); Blazebulk always blazes
    (21.3.1).  The second die is not checked again (20.2.2)."""
    _, purpose, i, face, over, boost = f
    i = int(i)
    second = c.rolls.pop()
    blaze = second >= R.BLAZE_FROM or c.ability(i) == "blazebulk"
    law = "21.3.1" if c.ability(i) == "blazebulk" else "20.2.1"
    c.ev("ignite", law, player=pid(i), face=face, second=second,
         kind="blaze" if blaze else "burn")
    if not blaze and c.ability(i) == "brightburn":
        c.clear(i, 1, "21.3.3")
    if purpose == "injury":  # Kindlefinger: the token counts toward this very check
        if blaze:
            c.clear(i, 1, "21.3.7")
        else:
            c.exhaust(i, 1, "21.3.7")
    c.rolls += [int(face), second if blaze else -second, int(over), int(boost)]


def ooze_stack(c: Ctx, here: list[int], zone: str) -> bool:
    """20.5.4: an Ooze sharing a space with a teammate of its zone is never made to break
    the stack up, and neither is the teammate."""
    same = [i for i in here if c.players[i].zone == zone]
    return len(same) >= 2 and any(is_ooze(c, i) for i in same)
