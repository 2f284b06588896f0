"""Exiting the map and the victory conditions (TAC 3.0, 7.5, 8.6, 13.4): the example of
8.6.1 (L439-451) and the digest's scenario 15, re-entry, annihilation, Tobruk on Turn 50."""

from __future__ import annotations

from engine.core.dice import ScriptedDice
from engine.games.tac import turn, victory
from engine.games.tac.state import ALLIED, AXIS
from tests.tac.kit import B, R, empty, go, put, refused


def exit_on_turn_36():
    """21st Panzer (9-8) and 90th Light (5-7), 14 combat factors, leave by the east edge."""
    s = empty(AXIS, turn=36)
    put(s, "ge_21pz", "1477")
    put(s, "ge_90", "1477")
    s, ev = go(s, AXIS, "move ge_21pz,ge_90 1478 exit")
    return s, ev


def test_exit_costs_one_more_hex_and_waits_two_turns_on():
    s, ev = exit_on_turn_36()
    assert ev[-1].data["exited"] and ev[-1].data["fifths"] == 10  # 1 MP for 1478, 1 MP off the map
    assert s.fuel == 5  # 2 MP: no fuel (8.2.6)
    assert {s.units[u].where for u in ("ge_21pz", "ge_90")} == {"exited"}
    assert s.exit_space == {"ge_21pz": 38, "ge_90": 38}
    assert R.invariant_problems(s) == []


def test_example_of_8_6_1_supplied_for_a_month_wins():
    """L449: supplied at the end of 37 (they stay in the 38 space) and of 38 (box)."""
    s, _ = exit_on_turn_36()
    b = B
    assert victory.exited_supplied(b, s)  # the coast road to the west edge is open
    assert victory.end_of_turn(b, s) == []  # end of Turn 36: not checked yet
    s.turn = 37
    assert victory.end_of_turn(b, s) == [] and s.exit_space["ge_90"] == 38
    s.turn = 38
    ev = victory.end_of_turn(b, s)
    assert s.exit_space == {"ge_21pz": 0, "ge_90": 0} and "Exited Axis Units box" in ev[0].text
    assert s.exit_counted == {"ge_21pz": 9, "ge_90": 5}
    victory.check(b, s)
    assert (s.phase, s.winner) == ("over", AXIS)
    assert R.result(s).winner == AXIS and "14 combat factors" in R.result(s).text


def test_note_of_8_6_1_out_of_supply_loses_a_step_and_waits_a_turn(monkeypatch):
    """L451: out of supply at the end of 38, each unit loses a step and moves to 39;
    21st Panzer 9-8 -> 7-7 and 90th Light 5-7 -> 4-7 make 11, short of 12."""
    s, _ = exit_on_turn_36()
    s.turn = 38
    monkeypatch.setattr(victory, "exited_supplied", lambda b, st: False)
    ev = victory.end_of_turn(B, s)
    assert s.exit_space == {"ge_21pz": 39, "ge_90": 39} and len(ev) == 2
    assert B.values("ge_21pz", s.units["ge_21pz"].step)[0] == 7
    assert B.values("ge_90", s.units["ge_90"].step)[0] == 4
    monkeypatch.undo()
    s.turn = 39
    victory.end_of_turn(B, s)
    assert s.exit_counted == {"ge_21pz": 7, "ge_90": 4}
    assert victory.check(B, s) == [] and s.phase != "over"  # 11 < 12: no victory yet


def test_a_unit_exited_twice_counts_once():
    """8.6.2: a unit that counted, came back and left again is not counted twice."""
    s, _ = exit_on_turn_36()
    s.exit_space = {"ge_21pz": 0, "ge_90": 0}
    s.exit_counted = {"ge_90": 5}
    s.turn = 40
    s.exit_space["ge_90"] = 40
    victory.end_of_turn(B, s)
    assert s.exit_counted == {"ge_90": 5}


def test_allied_arrivals_held_off_alexandria_while_axis_units_are_off_the_map():
    """7.5, 12.4: no Allied reinforcements land at Alexandria while exited Axis units are
    off the map; they land when those units are all back (3.0)."""
    s, _ = exit_on_turn_36()
    s.turn, s.player, s.phase = 37, ALLIED, "reinforce"
    s.units["au_7"].where = "pool"
    t = B.units["au_7"].entry.turn
    s.turn = t
    ev = turn.reinforce(B, s, ScriptedDice([]))
    assert s.units["au_7"].where == "held"
    assert any("Held off Alexandria" in e.text for e in ev)
    for u in ("ge_21pz", "ge_90"):
        s.units[u].where, s.units[u].hex = "map", "1200"
    s.turn += 1
    turn.reinforce(B, s, ScriptedDice([]))
    assert (s.units["au_7"].where, s.units["au_7"].hex) == ("map", "1476")


def test_exited_units_come_back_at_alexandria_or_the_nearest_edge_hex():
    s, _ = exit_on_turn_36()
    s.turn = 39
    s.moved.clear()
    refused(s, AXIS, "move ge_90 2978", "TAC 3.0")
    s2, _ = go(s, AXIS, "move ge_90 1476")
    assert (s2.units["ge_90"].where, s2.units["ge_90"].hex) == ("map", "1476")
    assert "ge_90" not in s2.exit_space  # back on the map, its wait is over (8.6.2)
    put(
        s, "uk_50", "1476"
    )  # Alexandria held: the edge hexes nearest it (2 away), out of Allied zones
    refused(s, AXIS, "move ge_90 1476", "TAC 3.0")
    refused(s, AXIS, "move ge_90 1678", "TAC 3.0")  # 3 hexes from Alexandria
    s3, _ = go(s, AXIS, "move ge_90 1578")
    assert s3.units["ge_90"].hex == "1578"


def test_only_axis_units_exit_and_only_from_the_east_edge():
    s = empty(ALLIED, turn=36)
    put(s, "uk_50", "1478")
    refused(s, ALLIED, "move uk_50 1378 exit", "TAC 8.6.1")
    s = empty(AXIS, turn=36)
    put(s, "ge_90", "1476")
    refused(s, AXIS, "move ge_90 1477 exit", "TAC 8.6.1")
    refused(s, AXIS, "move ge_90 1477 exit 1478", "TAC 8.6.1")


def test_exit_along_a_road_costs_a_fifth(monkeypatch):
    """8.6.1: 1/5 MP to leave where a road runs off the map (none does on this map: the
    coast road ends at Alexandria; the rule is checked on a road exit set for the test)."""
    s = empty(AXIS, turn=36)
    put(s, "ge_90", "1478")
    monkeypatch.setattr(B, "road_exits", {"1378"})
    s, ev = go(s, AXIS, "move ge_90 1378 exit")
    assert ev[-1].data["fifths"] == 6


def test_allies_win_when_every_axis_unit_is_eliminated():
    """3.0: the Allies win by eliminating every Axis unit in play; an overrun of the last
    one ends the game at once (6.0)."""
    s = empty(ALLIED, turn=20)
    s.units["ge_ramcke"].where = "dead"
    put(s, "it_102", "1127", step=len(B.units["it_102"].steps) - 1)
    put(s, "uk_10armd", "1125")
    put(s, "uk_1tank", "1125")
    a = sum(B.values(u, 0)[0] for u in ("uk_10armd", "uk_1tank"))
    assert a >= 9 * B.values("it_102", s.units["it_102"].step)[1]
    s, ev = go(s, ALLIED, "move uk_10armd,uk_1tank 1126 x1127")
    assert (s.phase, s.winner) == ("over", ALLIED) and ev[-1].kind == "over"
    refused(s, AXIS, "done", "TAC 3.0")


def test_allies_hold_tobruk_on_turn_50_or_it_is_a_draw():
    s = empty(AXIS, turn=50, phase="supply")
    put(s, "uk_70", "1048")
    s.control["1048"] = ALLIED
    s.first = ALLIED
    turn.end_turn(B, s, ScriptedDice([]))
    assert (s.phase, s.winner) == ("over", ALLIED) and "Tobruk" in s.result_text
    s = empty(AXIS, turn=50)
    s.control["1048"] = AXIS
    turn.end_turn(B, s, ScriptedDice([]))
    assert (s.phase, s.winner) == ("over", None) and "draw" in s.result_text
