"""Air units (TAC 15.0-15.2): the Turn Record Track's count each player turn, never
saved up; 25 hexes from a city held at the start of the turn or the side's own edge;
Close Support adds 1 per air unit to an attack; Interdiction halves an enemy stack's
allowance and bars Strategic Movement in its next Movement Phase."""

from __future__ import annotations

from engine.core.dice import ScriptedDice
from engine.games.tac import air, turn
from engine.games.tac.state import ALLIED, AXIS
from tests.tac.kit import B, R, empty, go, put, refused


def allied_attack_on_1127():
    s = empty(ALLIED, turn=20, phase="combat")
    put(s, "uk_2armd", "1126")  # 4-6
    put(s, "ge_90", "1127")  # 5-7
    return s


def test_close_support_adds_one_per_air_unit():
    """15.1: 4 against 5 is 1-2; with both Allied air units of Turn 20, 6 against 5 is 1-1."""
    s = allied_attack_on_1127()
    s.air_bases = ["1048"]  # Tobruk, 22 hexes from 1127
    assert air.available(B, s) == B.turns[20].air.allied == 2
    s2, ev = go(s, ALLIED, "attack uk_2armd 1127 +2")
    assert (ev[0].data["attack"], ev[0].data["odds"], ev[0].data["air"]) == (6, "1-1", 2)
    assert s2.air_used == 2 and s2.battles[0]["air"] == [2]
    s3, ev = go(s2, ALLIED, "done")
    s3, ev = go(s3, ALLIED, "resolve 1127", dice=[3])
    assert ev[0].data["odds"] == "1-1"


def test_close_support_beyond_the_air_units_left_or_out_of_range_is_refused():
    s = allied_attack_on_1127()
    s.air_bases = ["1048"]
    refused(s, ALLIED, "attack uk_2armd 1127 +3", "TAC 15.1")
    s.air_bases = []  # 1127 is 51 columns from the east edge
    refused(s, ALLIED, "attack uk_2armd 1127 +1", "TAC 15.0")
    s2, _ = go(s, ALLIED, "attack uk_2armd 1127")  # without air, always possible
    assert s2.air_used == 0


def test_interdiction_halves_the_allowance_and_bars_strategic_movement():
    """15.2 and erratum L999: the 90th Light (5-7) moves 3 MP in its next phase."""
    s = empty(ALLIED, turn=20)
    s.air_bases = ["1048"]
    put(s, "ge_90", "1727")
    put(s, "ge_8pz", "1727")
    s, ev = go(s, ALLIED, "interdict 1727")
    assert s.interdicted == {"ge_90", "ge_8pz"} and s.air_used == 1
    refused(s, ALLIED, "interdict 1727", "TAC 15.2")  # already interdicted
    s.player = AXIS
    s.air_used = 0
    refused(s, AXIS, "move ge_90 1728 1729 1730 1731", "TAC 15.2")
    refused(s, AXIS, "strategic ge_8pz 1728", "TAC 15.2")
    s2, _ = go(s, AXIS, "move ge_90 1728 1729 1730")
    assert s2.units["ge_90"].hex == "1730"
    s2, _ = go(s2, AXIS, "done")
    assert s2.interdicted == set()  # only for that Movement Phase


def test_interdiction_needs_an_air_unit_in_range_and_an_enemy_stack():
    s = empty(ALLIED, turn=20)
    put(s, "ge_90", "1127")
    refused(s, ALLIED, "interdict 1127", "TAC 15.0")
    s.air_bases = ["1048"]
    refused(s, ALLIED, "interdict 1128", "TAC 15.2")
    s.air_used = 2
    refused(s, ALLIED, "interdict 1127", "TAC 15.2")


def test_air_units_are_not_saved_up_and_bases_are_fixed_as_the_turn_starts():
    """15.0: unused air units are lost; a city taken during the turn is no base yet."""
    s = empty(ALLIED, turn=24, phase="reinforce")  # no Allied arrival on Turn 24
    s.air_used = 2
    s.control = {h: AXIS for h in s.control}
    s.control["1048"] = ALLIED
    turn.reinforce(B, s, ScriptedDice([]))
    assert s.air_used == 0 and air.available(B, s) == B.turns[24].air.allied
    assert "1048" in s.air_bases and "1476" not in s.air_bases


def test_the_axis_measures_range_from_the_west_edge():
    s = empty(AXIS, turn=20)
    assert air.in_range(B, s, "0826") and not air.in_range(B, s, "0827")
    s.air_bases = ["0815"]
    assert air.in_range(B, s, "1127")
    assert R.details(s, AXIS)["air_left"] == 1
