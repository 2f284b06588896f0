"""Reinforcements landing at Tobruk instead of the Home Base (TAC 7.1 L331, 12.0 L609,
12.1 L613; RULINGS R8, R46): 1-3 lands and may move, 4-5 delayed (stays, no move, tries
again next turn), 6 loses a step; only the side that controls Tobruk; only units that
arrived this turn (or were delayed last turn)."""

from __future__ import annotations

from engine.core.dice import ScriptedDice
from engine.games.tac.state import ALLIED, AXIS
from tests.tac.kit import B, R, empty, go, put, refused

TOBRUK, ALEXANDRIA = "1048", "1476"


def _allied_turn_20(tobruk: str = ALLIED):
    """Turn 20: the 2nd New Zealand, the 70th and the 32nd Army Tank arrive at Alexandria."""
    s = empty(ALLIED, turn=20, phase="reinforce")
    put(s, "au_9", "1475")  # due to withdraw on Turn 20 (7.2)
    s.control[TOBRUK] = tobruk
    R._settle(s, ScriptedDice([]))
    return _past_mines(s, ALLIED)


def _past_mines(s, side):
    if s.phase == "mines":  # the Minefield Placement Phase comes first (16.0)
        s, _ = go(s, side, "done")
    assert s.phase == "move"
    return s


def test_a_reinforcement_lands_at_tobruk_on_1_to_3_and_moves_on():
    s = _allied_turn_20()
    assert "land nz_2" in [o.text() for o in R.legal_orders(s, ALLIED)]
    s2, ev = go(s, ALLIED, "land nz_2", dice=[3])
    u = s2.units["nz_2"]
    assert (u.where, u.hex, u.step) == ("map", TOBRUK, s.units["nz_2"].step)
    assert "nz_2" not in s2.moved
    assert "12.1" in ev[0].text
    s3, _ = go(s2, ALLIED, "move nz_2 1047")  # new arrivals move the turn they land (12.0)
    assert s3.units["nz_2"].hex == "1047"
    refused(s2, ALLIED, "land nz_2", "TAC 12.1")  # already landed


def test_a_4_or_5_delays_it_at_alexandria_and_it_tries_again_next_turn():
    s = _allied_turn_20()
    s2, ev = go(s, ALLIED, "land nz_2", dice=[5])
    u = s2.units["nz_2"]
    assert (u.where, u.hex) == ("map", ALEXANDRIA) and "nz_2" in s2.moved
    assert "delayed" in ev[0].text and s2.landing["nz_2"] == 21
    refused(s2, ALLIED, "move nz_2 1475", "TAC 8.0")  # it can't move this turn
    s2.turn, s2.moved = 21, set()
    s3, _ = go(s2, ALLIED, "land nz_2", dice=[1])
    assert s3.units["nz_2"].hex == TOBRUK and "nz_2" not in s3.landing


def test_a_6_costs_a_step_and_lands():
    s = _allied_turn_20()
    s2, ev = go(s, ALLIED, "land uk_32tank", dice=[6])
    u = s2.units["uk_32tank"]
    assert (u.hex, B.units["uk_32tank"].steps[u.step]) == (TOBRUK, "2-6")
    s3, ev = go(s2, ALLIED, "land uk_70", dice=[6])
    assert s3.units["uk_70"].step == 1


def test_landing_is_refused_when_tobruk_is_the_enemy_s_or_the_unit_did_not_arrive_now():
    s = _allied_turn_20(tobruk=AXIS)
    assert "land nz_2" not in [o.text() for o in R.legal_orders(s, ALLIED)]
    refused(s, ALLIED, "land nz_2", "TAC 12.1")
    s = _allied_turn_20()
    put(s, "sa_1", ALEXANDRIA)  # at Alexandria, but not a reinforcement of this turn
    refused(s, ALLIED, "land sa_1", "TAC 12.1")
    refused(s, ALLIED, "land in_4", "TAC 12.1")  # not in play at all
    refused(s, ALLIED, "land it_61", "TAC 10.0")  # not an Allied unit
    s2, _ = go(s, ALLIED, "move nz_2 1475")
    refused(s2, ALLIED, "land nz_2", "TAC 12.1")  # it has moved


def test_an_allied_unit_held_off_alexandria_may_land_at_tobruk():
    """7.5 closes Alexandria only: a reinforcement held while Axis units are off the map
    lands at Tobruk if the Allies control it."""
    s = empty(ALLIED, turn=20, phase="reinforce")
    put(s, "au_9", "1475")
    s.control[TOBRUK] = ALLIED
    s.units["ge_ramcke"].where = "exited"
    s.exit_space["ge_ramcke"] = 22
    R._settle(s, ScriptedDice([]))
    s = _past_mines(s, ALLIED)
    assert s.units["nz_2"].where == "held"
    s2, _ = go(s, ALLIED, "land nz_2", dice=[2])
    assert (s2.units["nz_2"].where, s2.units["nz_2"].hex) == ("map", TOBRUK)


def test_an_axis_reinforcement_lands_at_tobruk_instead_of_tripoli():
    s = empty(AXIS, turn=23, phase="reinforce")
    R._settle(s, ScriptedDice([3]))  # the Axis table roll of an odd turn (10.3, 14.0)
    s = _past_mines(s, AXIS)
    assert s.units["ge_90"].where == "tripoli"
    s2, _ = go(s, AXIS, "land ge_90", dice=[1])
    assert (s2.units["ge_90"].where, s2.units["ge_90"].hex) == ("map", TOBRUK)
    refused(s, AXIS, "land ge_ramcke", "TAC 12.1")  # waiting at Tripoli since before
