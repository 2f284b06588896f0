"""Minefields (TAC 16.0-16.6, 18.6): calls from Turn 5, once a month and three times a
game, both players drawing in secret; laying one before a unit moves; a stack entering it
stops and sets it off; the hex closed for the phase; values never shown to the opponent."""

from __future__ import annotations

from engine.core.events import PUBLIC
from engine.games.tac import mines
from engine.games.tac.state import ALLIED, AXIS
from tests.tac.kit import B, R, empty, go, put, refused


def mines_phase(turn: int = 5, side: str = ALLIED):
    s = empty(side, turn=turn, phase="mines")
    return s


def test_no_call_before_turn_5_and_the_phase_is_passed():
    s = empty(ALLIED, turn=4, phase="mines")
    refused(s, ALLIED, "call", "TAC 16.0")
    assert mines.why_no_call(s, ALLIED) == "minefields may be called for from Turn 5"


def test_a_call_draws_one_counter_for_each_player_caller_first():
    s = mines_phase()
    cup = list(s.mines["cup"])
    s, ev = go(s, ALLIED, "call", dice=[10, 1])  # the Allies draw the 10th, the Axis the 1st left
    assert s.mines["hands"] == {"allied": [cup[9]], "axis": [cup[0]]}
    assert len(s.mines["cup"]) == len(cup) - 2 and s.phase == "move"
    allied_line, axis_line = ev[1], ev[2]
    assert allied_line.seen_by == (ALLIED,) and "s9" in allied_line.text
    assert (
        allied_line.text_for(AXIS) == "Allied draws a minefield."
        and allied_line.text_for(PUBLIC) == "Allied draws a minefield."
    )
    assert axis_line.text_for(ALLIED) == "Axis draws a minefield."
    assert R.details(s, AXIS)["mines"]["axis_hand"] == [{"id": "s0", "effect": "no effect"}]
    assert (
        "allied_hand" not in R.details(s, AXIS)["mines"]
        and R.details(s, AXIS)["mines"]["held"]["allied"] == 1
    )


def test_once_a_month_three_times_a_game():
    s = mines_phase(turn=5)
    s, _ = go(s, ALLIED, "call", dice=[1, 1])
    s.turn, s.phase = 6, "mines"
    refused(s, ALLIED, "call", "TAC 16.0")  # Turn 6 is still February 1941
    for t in (7, 9):
        s.turn, s.phase = t, "mines"
        s, _ = go(s, ALLIED, "call", dice=[1, 1])
    s.turn, s.phase = 11, "mines"
    assert "3 times" in refused(s, ALLIED, "call", "TAC 16.0")
    assert s.mines["calls"] == {ALLIED: 3}


def test_bonus_counters_join_the_cup_with_18_6():
    assert len(empty(options={"18.6": True}).mines["cup"]) == 16
    assert len(empty().mines["cup"]) == 10


def lay(kind_steps: int, kind_delay: int):
    """An Allied 2-6 lays a counter of the given value at 1130 and moves off to 1133."""
    s = empty(ALLIED, turn=20)
    mine = next(m for m in s.mines["cup"] if mines.value(B, m) == (kind_steps, kind_delay))
    s.mines["cup"].remove(mine)
    s.mines["hands"][ALLIED] = [mine]
    put(s, "uk_22gds", "1130")
    s, ev = go(s, ALLIED, "move uk_22gds mine 1131 1132 1133")
    return s, ev, mine


def test_laying_a_minefield_before_the_unit_moves_hides_its_value():
    s, ev, mine = lay(1, 0)
    assert s.mines["map"] == {"1130": mine} and s.mines["hands"][ALLIED] == []
    assert s.units["uk_22gds"].hex == "1133"
    line = next(e for e in ev if e.kind == "mines")
    assert line.text_for(AXIS) == "Allied lays a minefield at 1130." and "step loss" in line.text
    assert (
        R.details(s, AXIS)["mines"]["on_map"] == ["1130"]
        and "values" not in R.details(s, ALLIED)["mines"]
    )


def test_a_unit_in_an_enemy_zone_may_not_lay_one():
    s = empty(ALLIED, turn=20)
    s.mines["hands"][ALLIED] = [s.mines["cup"].pop()]
    put(s, "uk_22gds", "1130")
    put(s, "it_102", "1129")
    refused(s, ALLIED, "move uk_22gds mine 1230", "TAC 16.0")
    refused(s, ALLIED, "move uk_22gds mine3 1131", "TAC 16.0")  # holds one counter only


def test_entering_a_minefield_stops_the_stack_and_costs_its_steps():
    """16.1-16.3: the Axis stack entering 1130 stops, each unit loses the step, the counter
    goes back to the cup and no other unit may enter 1130 this phase."""
    s, _, mine = lay(1, 0)
    s.player, s.phase = AXIS, "move"
    s.moved.clear()
    put(s, "ge_90", "1128")
    put(s, "ge_8pz", "1128")
    put(s, "ge_21pz", "1127")
    refused(s, AXIS, "move ge_90,ge_8pz 1129 1130 1230", "TAC 16.1")
    s, ev = go(s, AXIS, "move ge_90,ge_8pz 1129 1130")
    assert ev[-1].kind == "mines" and ev[-1].text_for(ALLIED) == ev[-1].text  # now public
    assert (s.units["ge_90"].step, s.units["ge_8pz"].step) == (1, 1)
    assert mine in s.mines["cup"] and s.mines["map"] == {}
    refused(s, AXIS, "move ge_21pz 1128 1129 1130", "TAC 16.3")
    s, _ = go(s, AXIS, "done")
    assert s.mines["closed"] == []


def test_a_delay_minefield_holds_the_stack_through_its_next_movement_phase():
    """RULINGS D5: a delay counter stops the unit now and it may not move next phase."""
    s, _, _ = lay(0, 1)
    s.player, s.phase = AXIS, "move"
    put(s, "ge_90", "1129")
    s, _ = go(s, AXIS, "move ge_90 1130")
    assert s.delayed == {"ge_90": 21}
    s.turn, s.phase = 21, "move"
    s.moved.clear()
    refused(s, AXIS, "move ge_90 1129", "TAC 16.1")
    assert not any(o.verb == "move" and "ge_90" in o.units for o in R.legal_orders(s, AXIS))


def test_minefields_have_no_zone_of_control():
    """16.4: a unit passes next to a minefield hex freely."""
    s, _, _ = lay(2, 0)
    s.player, s.phase = AXIS, "move"
    put(s, "ge_90", "1030")
    s, _ = go(s, AXIS, "move ge_90 1031 1032")  # 1031 lies next to 1130
    assert s.units["ge_90"].hex == "1032"
