"""The maneuver cards (6.2-6.4) and the gambits' place among them (19.2-19.4).

Both coaches pick a card in secret; the reveal decides who wins on the cards, an
injured participant may turn that into a skill test (6.3.2), a tie goes to one
(6.4), and Scorchit may force one (21.3.8).  In advanced mode a coach who is behind
holds six cards (19.3) and ``gambit_tier`` decides which card resolves at which tier
and whose "Beaten:" cost lands (19.4).  The card that wins is resolved by
:mod:`.resolve`.
"""

from __future__ import annotations

from typing import Any

from .. import rulings as R
from ..board import HOME, VISITORS
from ..state import Frame, Reads, pid, role
from .abilities import glompex_offers
from .dice import Die, dice, die_parts, injury_checks, take_die, with_merge
from .frames import ASK, SECRET, Ask, Ctx, Secret, auto, turn_side

BASIC_OFF = ("dribble", "high-pass", "low-pass")  # 6.2.2, sorted


BASIC_DEF = ("deflect", "pressure", "steal")


# 19.1.2: a gambit is the advanced version of its rank's basic card, and has its rank.
BASIC = {
    "skilled-pass": "low-pass", "dribble-burst": "dribble", "setup-pass": "high-pass",
    "clear": "deflect", "intercept": "steal", "double-team": "pressure",
}


ADVANCED = {basic: gambit for gambit, basic in BASIC.items()}


OFF_RANK = {"low-pass": 1, "dribble": 2, "high-pass": 3,
            "skilled-pass": 1, "dribble-burst": 2, "setup-pass": 3}


DEF_RANK = {"deflect": 1, "steal": 2, "pressure": 3,
            "clear": 1, "intercept": 2, "double-team": 3}


CARD_LAW = {
    "low-pass": "6.5", "dribble": "6.6", "high-pass": "6.7",
    "deflect": "6.8", "steal": "6.9", "pressure": "6.10",
    "skilled-pass": "19.5", "dribble-burst": "19.6", "setup-pass": "19.7",
    "clear": "19.8", "intercept": "19.9", "double-team": "19.10",
}


def holds_gambits(c: Reads, side: int) -> bool:
    """19.3.1: in advanced mode a coach holds their gambits while their team is behind,
    on goals or on Exhausted-or-Injured players among those fielded; public (19.3.2)."""
    if c.config.mode != "advanced":
        return False
    if c.score[side] < c.score[1 - side]:
        return True
    return _hurt(c, side) > _hurt(c, 1 - side)


def _hurt(c: Reads, side: int) -> int:
    """19.3.1: how many of ``side``'s fielded players are Exhausted or Injured."""
    ps = c.players
    return sum(1 for i in range(side * 9, side * 9 + 9)
               if ps[i].status == "F" and (ps[i].injured or c.exhausted(i)))


def partner_of(c: Reads) -> int:
    """19.10.4: the second challenger of a lasting Double Team, -1 for none."""
    t = c.turn
    return t.partner if t.double >= 0 and t.double == t.challenger else -1


@auto("cards")
def _cards(c: Ctx, f: Frame) -> None:
    if c.turn.challenger >= 0:
        if c.config.mode == "advanced":  # 19.2.1: gambits only against a challenge
            c.ev("gambits", "19.3.2", home=holds_gambits(c, HOME),
                 visitors=holds_gambits(c, VISITORS))
        c.then(*(("glompex", i) for i in glompex_offers(c)), ("cards_secret",))
    else:
        c.then(("card_solo",))


def _card_solo_answer(c: Ctx, f: Frame, d: str) -> None:
    card = d.split()[1]
    c.set_turn(off_card=card)
    c.ev("unchallenged", "6.1.4", card=card)
    c.then(("resolve", "O"))


ASK["card_solo"] = Ask(
    turn_side,
    lambda c, f: [f"card {k}" for k in BASIC_OFF],  # 19.2.2: unchallenged is basic
    _card_solo_answer,
)


def _cards_legal(c: Ctx, f: Frame, side: int) -> list[str]:
    basic = BASIC_OFF if side == c.turn.side else BASIC_DEF
    cards = list(basic)
    if holds_gambits(c, side):  # 19.2.2: six cards instead of three
        cards += [ADVANCED[k] for k in basic]
    return sorted(f"card {k}" for k in cards)


def gambit_tier(
    played: tuple[str, str],
    cards: str,
    winner: str,
    test: dict[str, dict[str, Any]] | None = None,
    abilities: tuple[str, str] = ("", ""),
) -> tuple[str, str]:
    """Which card resolves, at which tier, and whose gambit cost lands (19.4).

    ``played`` is (offense card, defense card); ``cards`` what the cards said: "O" or
    "D" for the card-winner, "T" a tie, "A" an injured participant's automatic tie loss
    (19.4.2a); ``winner`` the side that resolves; ``test`` the skill test's parts per
    side when one was rolled; ``abilities`` the two participants' personal abilities.
    Returns the card that resolves (a gambit or a basic card) and the loser's gambit
    whose "Beaten:" cost fires, "" for none.
    """
    w = 0 if winner == "O" else 1
    mine, theirs = played[w], played[1 - w]
    if cards == winner:  # won on the cards, with or without a forced test (19.4.2b)
        card, cost = mine, theirs if theirs in BASIC else ""
    else:  # a tie, or the card-loser winning a test (19.4.2a, c, 19.1.2): basic, no cost
        card, cost = BASIC.get(mine, mine), ""
    if test is None or card in BASIC:  # a maneuver already a gambit gains nothing more
        return card, cost
    loser = "D" if winner == "O" else "O"
    pw, pl = test[winner], test[loser]
    upgrade = (
        pw.get("ignite") == "blaze"  # 20.2.4a
        or (pl.get("ignite") == "burn" and abilities[1 - w] != "brightburn")  # 20.2.4b, 21.3.3
        or (abilities[w] == "synapse" and pw.get("overdrive", 0) > 0)  # 21.4.7
        # 21.5.4: Hexis's offensive, Dravox's defensive gambit holds on the dice
        or (abilities[w] == ("hexis" if w == 0 else "dravox") and mine in BASIC)
    )
    # 20.2.5: the ignite never decides a cost; the cost above never reads it.
    return (ADVANCED[card] if upgrade else card), cost


def _resolve_frame(c: Ctx, winner: str, cards: str,
                   test: dict[str, dict[str, Any]] | None = None) -> Frame:
    """The frame that resolves ``winner``'s maneuver; in advanced mode it carries the
    tier (19.4), elsewhere it is the plain ("resolve", side) it always was."""
    if c.config.mode != "advanced":
        return ("resolve", winner)
    t = c.turn
    abilities = (c.ability(t.handler), c.ability(t.challenger))
    card, cost = gambit_tier((t.off_card, t.def_card), cards, winner, test, abilities)
    return ("resolve", winner, card, cost)


def _scorchit(c: Ctx, who: str) -> bool:
    """21.3.8: is the participant for ``who`` Scorchit?"""
    i = c.turn.handler if who == "O" else c.turn.challenger
    return c.ability(i) == "scorchit"


def _cards_resolve(c: Ctx, f: Frame, choice: tuple[str, str]) -> None:
    o = choice[c.turn.side].split()[1]
    dcard = choice[1 - c.turn.side].split()[1]
    c.set_turn(off_card=o, def_card=dcard)
    ro, rd = OFF_RANK[o], DEF_RANK[dcard]
    if ro == rd:
        cards = "T"
    elif rd == ro % 3 + 1:  # 6.3.1: each card loses to the next rank up, cyclically
        cards = "D"
    else:
        cards = "O"
    c.ev("reveal", "6.2.1", offense=o, defense=dcard, winner=cards)
    h, ch = c.turn.handler, c.turn.challenger
    inj = {"O": c.players[h].injured, "D": c.players[ch].injured}
    if cards == "T":
        if inj["O"] != inj["D"]:
            loser = "O" if inj["O"] else "D"
            winner = "D" if loser == "O" else "O"
            c.ev("injured-tie", "6.3.2", loser=loser)  # 15.4.2a
            c.then(_resolve_frame(c, winner, "A"))  # 19.4.2a: nothing fires
        else:
            c.set_turn(test="T")
            c.then(("test_enter",))
    else:
        loser = "D" if cards == "O" else "O"
        if inj[cards] and not inj[loser]:
            c.ev("injured-forced-test", "6.3.2", player=pid(h if cards == "O" else ch))
            c.set_turn(test=cards)
            c.then(("test_enter",))
        elif _scorchit(c, loser):
            c.then(("scorch", loser, cards))
        else:
            c.then(_resolve_frame(c, cards, cards))


SECRET["cards_secret"] = Secret(_cards_legal, _cards_resolve, "6.2.1")


def _scorch_answer(c: Ctx, f: Frame, d: str) -> None:
    _, loser, cards = f
    if d == "scorch accept":
        c.ev("scorchit-accepts", "21.3.8")
        c.then(_resolve_frame(c, str(cards), str(cards)))
        return
    c.ev("scorchit-forces", "21.3.8", player=pid(c.turn.handler if loser == "O"
                                                    else c.turn.challenger))
    c.set_turn(test=str(cards))
    c.then(("test_enter", loser))


ASK["scorch"] = Ask(
    lambda c, f: c.seat(c.turn.side if f[1] == "O" else 1 - c.turn.side),
    lambda c, f: ["scorch accept", "scorch force"],
    _scorch_answer,
)


@auto("test_enter")
def _test_enter(c: Ctx, f: Frame) -> None:
    h, ch = c.turn.handler, c.turn.challenger
    if len(f) > 1:  # 21.3.8: Scorchit forcing the test pays 2, the opponent nothing
        c.exhaust(h if f[1] == "O" else ch, R.SCORCHIT_ENTRY, "21.3.8")
    else:
        c.exhaust(h, 1, "6.4.1")
        c.exhaust(ch, 1, "6.4.1")
        c.exhaust(partner_of(c), 1, "19.10.4")  # the second challenger enters it too
    c.then(*dice(c, "test", h, ch), ("test_resolve",))


def _test_parts(c: Ctx, side: str, die: Die) -> dict[str, Any]:
    t = c.turn
    if side == "O":
        i, skill = t.handler, c.off(t.handler)
        if t.off_card == "high-pass" and c.ability(i) == "umbrik":
            skill = c.dfn(i)  # 21.5.5: Umbrik's own High Pass is played on defence
        # 6.4.2a, 19.5.4: the Midfielder's own Low Pass or Skilled Pass
        own = t.off_card in ("low-pass", "skilled-pass")
        mf = R.MIDFIELDER_BONUS if role(i) == "MF" and own else 0
        mod = 0
    else:
        i, skill = t.challenger, c.dfn(t.challenger)
        steals = t.def_card in ("steal", "intercept")  # 6.4.2, 19.9.3-19.9.4
        mf = R.MIDFIELDER_BONUS if role(i) == "MF" and steals else 0
        mod = c.ball.speed // 2 if steals else 0  # 6.4.2b, 19.9.3
    parts: dict[str, Any] = {"player": pid(i), "die": die.face, "skill": skill,
                             "midfielder": mf, "speed": mod, "total": die.face + skill + mf + mod}
    parts = die_parts(c, i, die, parts, bool(mod))
    partner = partner_of(c)
    if partner >= 0 and side == "D":  # 19.10.4: the test adds both defensive skills
        parts["partner"] = {"player": pid(partner), "skill": c.dfn(partner)}
        parts["total"] += c.dfn(partner)
    rolling = (t.handler, t.challenger) + ((partner,) if partner >= 0 else ())
    return with_merge(c, parts, c.turn.side if side == "O" else 1 - c.turn.side, side == "O",
                       rolling)


@auto("test_resolve")
def _test_resolve(c: Ctx, f: Frame) -> None:
    do, dd = take_die(c), take_die(c)
    o, d = _test_parts(c, "O", do), _test_parts(c, "D", dd)
    h, ch = c.turn.handler, c.turn.challenger
    partner = partner_of(c)
    if o["total"] == d["total"]:
        c.ev("skill-test", "6.4.4", offense=o, defense=d, winner="tie")
        c.exhaust(h, 1, "6.4.4")
        c.exhaust(ch, 1, "6.4.4")
        c.exhaust(partner, 1, "19.10.4")
        c.then(*dice(c, "test", h, ch), ("test_resolve",))  # 20.3.6: declared afresh
        return
    winner = "O" if o["total"] > d["total"] else "D"
    c.ev("skill-test", "6.4.3", offense=o, defense=d, winner=winner)
    who = (h, ch, partner) if partner >= 0 else (h, ch)
    c.then(*injury_checks(c, who), _resolve_frame(c, winner, c.turn.test, {"O": o, "D": d}))
