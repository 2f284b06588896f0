"""The batched chain (every state of a level moved at once) against the reference chain
(one attacking composition at a time): the same distribution to 1e-12 on battles that
use every effect the odds model (flanking, artillery, anti-tank fire on both sides, a
scout car, Air Defense, a German bomber's aimed hits, Tobruk's reroll, Vichy surrender)."""

from __future__ import annotations

import pytest

from engine.games.aa_na.odds import _odds

BATTLES = {
    "one each": ({"ger.infantry": 1}, {}, {"uk.infantry": 1}, (), False),
    "flank only": ({}, {"ger.infantry": 2, "ger.tank": 1}, {"uk.infantry": 2}, (), False),
    "bomber and guns": (
        {"ger.infantry": 2, "ger.artillery": 1, "ger.tank": 2, "ger.bomber": 1},
        {"ger.scout_car": 1},
        {"uk.infantry": 2, "uk.tank": 1, "uk.anti_tank_gun": 1, "uk.aaa": 1},
        (),
        False,
    ),
    "tobruk": (
        {"ger.infantry": 3, "ger.artillery": 1, "ger.anti_tank_gun": 1, "ger.fighter": 1},
        {"ger.mech_infantry": 1},
        {"uk.infantry": 3, "uk.tank": 2, "uk.fighter": 1, "uk.artillery": 1},
        (9, 10),
        False,
    ),
    "vichy": (
        {"uk.infantry": 3, "uk.tank": 1, "uk.bomber": 1},
        {"uk.infantry": 1},
        {"fra.infantry": 3, "fra.tank": 2},
        (),
        True,
    ),
    "ten a side": (
        {"ger.infantry": 3, "ger.artillery": 2, "ger.tank": 2, "ger.fighter": 1},
        {"ger.mech_infantry": 1, "ger.scout_car": 1},
        {"uk.infantry": 4, "uk.artillery": 2, "uk.tank": 2, "uk.anti_tank_gun": 1, "uk.aaa": 1},
        (),
        False,
    ),
}


#: casualty orders given (first lost first) for some battles: tanks and air first
#: against the default of lowest value first
LOSES = {
    "ten a side, orders given": (["ger.fighter", "tank", "artillery"], ["tank", "uk.aaa"]),
    "bomber and guns, orders given": (["scout_car", "ger.bomber"], ["anti_tank_gun"]),
}
BATTLES["ten a side, orders given"] = BATTLES["ten a side"]
BATTLES["bomber and guns, orders given"] = BATTLES["bomber and guns"]


@pytest.mark.parametrize("name", sorted(BATTLES))
def test_batched_chain_matches_the_reference(name):
    main, flank, defenders, bonus, vichy = BATTLES[name]
    loses = LOSES.get(name, (None, None))
    fast = _odds(main, defenders, flank, bonus, vichy, *loses, batched=True)
    ref = _odds(main, defenders, flank, bonus, vichy, *loses, batched=False)
    assert fast.states == ref.states
    for end in ("attacker", "defender", "mutual", "taken"):
        assert abs(getattr(fast, end) - getattr(ref, end)) < 1e-12, end
    for side in ("attacker_left", "defender_left"):
        got, want = getattr(fast, side), getattr(ref, side)
        assert got.keys() == want.keys()
        for row in want:
            assert abs(got[row] - want[row]) < 1e-12, (side, row)
    # the chances are not all in one end: the comparison is not of two trivial answers
    assert max(ref.attacker, ref.defender, ref.mutual) < 1 - 1e-3


def test_a_given_order_is_followed_by_both_chains():
    """The given order moves the result (so the comparison above is of a different
    chain), and the reference agrees it does."""
    main, flank, defenders, bonus, vichy = BATTLES["ten a side"]
    plain = _odds(main, defenders, flank, bonus, vichy, batched=False)
    given = _odds(
        main, defenders, flank, bonus, vichy, *LOSES["ten a side, orders given"], batched=False
    )
    assert abs(plain.attacker - given.attacker) > 1e-3
