"""Every product ruling the engine relies on, one name each.

Where the rulebook (or its restored tables in the design kit's rulings) leaves a
point open, the engine reads the answer from here, so a ruling can change in one
place.  docs/RULINGS.md lists each name with its law number and reasoning.
Numbers the text states outright are here too, named, so the code reads as the
law does.
"""

from __future__ import annotations

# --- numbers the laws state --------------------------------------------------
SUBS_PER_HALF = 2  # 14.5.1
HALFTIME_SUBS = 2  # 16.4.2
SHOOTOUT_SUBS = 1  # 16.5.2
UNLIMITED = 99  # 3.3.2: setup substitutions are unlimited
HALF_SUBS = -1  # sentinel: this Coaching Choice spends the half's count
COST_SCORE_ATTEMPT = 1  # 5.4.2, 8.5.1
COST_TIME_OUT = 1  # 13.4.1
MIDFIELDER_BONUS = 3  # 6.4.2a
STRIKER_SETUP_BONUS = 3  # 5.2.2, 8.3.1
PLAYMAKER_DRIBBLE = 2  # 6.6.4
FULLBACK_DEFLECT = 2  # 6.8.3 (RULING_FULLBACK_DEFLECT_MANDATORY: always 2)
OWN_GOAL_AVOID = 7  # 11.2.1

MANEUVER_COST = {
    "low-pass": 1, "dribble": 1, "high-pass": 2, "deflect": 1, "steal": 1, "pressure": 1,
    # 19.5.1-19.10.1
    "skilled-pass": 1, "dribble-burst": 1, "setup-pass": 2,
    "clear": 1, "intercept": 1, "double-team": 1,
}
GAMBIT_SPEED_UP = 3  # 19.5.3: a Skilled Pass adds 3
SKILLED_PASS_REACH = 3  # 19.5.2
BURST_REACH = 4  # 19.6.2
PLAYMAKER_BURST = 5  # 19.6.3
SETUP_DISTANCES = (1, 3)  # 19.7.2 (0 only onto a teammate sharing the space, 19.7.3)
FULLBACK_SETUP = 4  # 19.7.4
CLEAR_DISTANCE = 3  # 19.8.2
FULLBACK_CLEAR = 4  # 19.8.4
CLEAR_SPEED_DROP = 3  # 19.8.2
BEATEN_CLEAR_TOKENS = 2  # 19.8.5
BEATEN_SETUP_DRIVE = (1, 2, 3)  # 19.7.7
DOUBLE_TEAM_PUSH = 2  # 19.10.2
SCORCHIT_ENTRY = 2  # 21.3.8


def maneuver_cost(card: str) -> int:
    """RULING_CLOCK_CHARGES_RESOLVING_CARD (OQ1, 16.2.1, 19.5.5, 20.4.8).

    A challenged maneuver charges the space minutes of the card that resolves.
    """
    return MANEUVER_COST[card]


def send_cost(spaces: int) -> int:
    """9.4.1: one token per space travelled."""
    return spaces


# --- rulings where the text is silent (each listed in docs/RULINGS.md) --------
# RULING_ROLE_SKILLS (OQ16) is roster.ROLE_SKILLS: D 2/5, MF 3/4, PM 4/3, W 5/2.
RULING_CONTEST_ENTRY_COST = 0  # OQ2, 10.2.2: entering a contest is free; ties cost 1
RULING_ZONE_SWAP = True  # OQ3, 14.2.1: a Coaching Choice may swap two players' zones
RULING_LOW_PASS_NO_DESTINATION_CLAMPS = True  # OQ4, 6.5.5: at the end the ball stays
RULING_HIGH_PASS_CHASE = True  # OQ5, 10.4.2: thrower may chase a pass onto defenders
RULING_LOOSE_SENDS_SECRET = True  # OQ6, 10.3.1: loose-ball sends are secret-sim
RULING_NEAREST_IS_PHYSICAL = True  # OQ7, 9.2.1: in front/behind are field directions
RULING_NO_HALFTIME_TEST = True  # OQ8, 15.5: no dice at halftime
RULING_SETUP_FLIP_NOT_TURNOVER = True  # OQ9, 6.8.5: the shot counts, then the period ends
RULING_DECLINED_DEFLECT_SETUP_SETTLES = True  # OQ10, 8.4.1: settle on that space by 10.1
RULING_FORMATION_PACKS_FROM_OWN_END = True  # OQ14, 14.7.3
RULING_STANDARD_DEAL_ENDS = True  # OQ15, 3.2.2: higher defence nearer own end
# RULING_BENCH_STARTERS (OQ15, 3.2.1) is roster.BENCH_SLOTS: the later listed D, PM, S sit.
RULING_FULLBACK_DEFLECT_MANDATORY = True  # OQ17, 6.8.3
RULING_INJURED_MAY_BE_SENT = True  # OQ19, 15.1.3: allowed, pays nothing
RULING_SUDDEN_DEATH_ROUNDS = True  # OQ22, 17.6.2-3: secret picks, rounds of six
RULING_COIN_FLIPPER_SEAT = 0  # OQ24, 3.1.2: seat 0 flips; fortune wins it the toss
RULING_TIME_OUT_REPLY_ALWAYS = True  # OQ26, 13.5.1
RULING_SUBSTITUTE_INHERITS_SLOT = True  # 14.2.1: zone and arrangement space pass on
RULING_ANY_PLAYER_MAY_COME_OFF = True  # 15.4.5: injured or not
RULING_POSITIONING_WITHIN_ZONE = True  # 14.7.5, 2.8.1
RULING_COVERAGE_AT_FINISH = True  # 2.5.2, 14.8.1: checked when the Choice finishes
RULING_FORMATION_TIES_ROSTER_ORDER = True  # 14.7.3: equal defence keeps roster order
RULING_RUNBACK_GROUP_ORDER = True  # 12.4.1: group (a) runs before group (b)
RULING_HALFTIME_ORDER = ("visitors", "home")  # 15.5.1, 16.4.2
RULING_DOUBLE_TEAM_PARTNER_TIE = "defending coach"  # 19.10.2 (advanced mode)
RULING_BEATEN_SETUP_DRIVE_ADDS = True  # OQ13, 19.7.7: a further drive after the Deflect's own
RULING_BEATEN_BURST_OWN_GOAL_FIRST = True  # OQ12: an own-goal risk keeps the ball
RULING_DOUBLE_TEAM_CHALLENGES_IN_PLACE = True  # 19.10.4: the pair challenge where they stand
# Kickline's own readings, recorded in docs/RULINGS.md:
RULING_HALFTIME_CLEAR_NEEDS_TOKENS = True  # 15.5.1: the extra clear is offered on a token
RULING_OWN_GOAL_SURVIVOR_CARRIES = True  # 4.2.2e vs 11.3.2: carrier if still on the ball
RULING_SKIP_MEANS_NO_REPLY = True  # 14.4.2: a Choice finished with no action is a pass
RULING_PASSER_MAY_CHASE_OWN_LOOSE_PASS = True  # 6.7.5 vs 10.4.4: not a reception
RULING_FORCED_DECISIONS_AUTOMATIC = True  # 9.3.1, 4.2.1: one option is no choice
RULING_BENCH_DRAINED_OF_THE_HEALTHY = True  # 14.6.1 vs 14.6.4: injured sitters don't count

ROLL_LAW = {
    "test": "6.4.1",
    "injury": "15.3.1",
    "attack": "5.2.1",
    "defense": "5.2.1",
    "own-goal": "11.2.1",
    "contest": "10.2.1",
    "shootout": "17.4.1",
    "pull": "20.4.1",
}
ROLL_LAW["ignite"] = "20.2.1"

# --- Part II: Volatile and Lithium Powered (Law 20), their personal abilities (21) --
IGNITE_FACES = (6, 7)  # 20.2.1: a natural 6 or 7 on the die's own face
SIZZIFIZIK_FACES = (5, 8)  # 21.3.2: 5 to 8
BLAZE_FROM = 5  # 20.2.1a: a second die of 5-12 is a blaze, 1-4 a burn
IGNITE_ROLLS = ("test", "contest", "attack", "shootout")  # 20.2.3: the four covered rolls
DRAINED_AT = 7  # 20.3.3
BULWARK_DRAINED_AT = 10  # 21.4.1
OVERDRIVE_BONUS = 5  # 20.3.5
OVERDRIVE_DRAIN = 3  # 20.3.5
VOLTUS_OVERDRIVE_DRAIN = 2  # 21.4.2
BOOST_BONUS = 3  # 21.4.3
BOOST_DRAIN = 1  # 21.4.3
CHARGE_UP = 1  # 20.3.7
STRIDER_CHARGE_UP = 2  # 21.4.4
STRIDER_RUNBACK_MAX = 1  # 21.4.4

# --- Part II (standard and advanced modes) ------------------------------------
PULL_LANDS = 11  # 20.4.1: 11-12 pulls the ball in
SPECTRA_PULL_LANDS = 9  # 21.5.3
PULL_COST = 1  # 20.4.1 (Quillon 0, 21.5.2)
INFERNO_SPEED = 12  # 21.3.6
VORIX_SPEED = 12  # 21.5.6
QUANTOR_COST = 3  # 21.4.5: drain 3 to run onto the pass
VISCOR_BONUS = 3  # 21.6.4: Merge adds 3 more
EMBERDASH_DRIBBLE = 3  # 21.3.4: Dribble Advance up to 3
# Kickline's own readings of Law 20.4 (docs/RULINGS.md, Part II):
RULING_PULLS_SAME_SPACE_ROSTER_ORDER = True  # 20.4.5: ties in path order go by roster slot
RULING_PULL_SIDE_IS_THE_MOVING_BALLS = True  # 20.4.1: whose ball it is as it moves
RULING_SMOOTH_SIDE_IS_THE_HOLDERS = True  # 20.4.9: whose ball it is once it arrives
