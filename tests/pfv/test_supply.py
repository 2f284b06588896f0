"""PFV 7 phase 8, Supply (digest T13; U- rules, Z-6, RULINGS R19, R20).

T13's corridor: the only land hexes are 8113, 8213, 8313, 8413 and 8314; 8413 is an Axis
airfield. Axis unit X (two steps, CF 4/2) stands in 8113. An Allied unit in 8314 puts 8313
in its zone of control. Supply is checked when the phasing player ends his replacement
phase ('done'), for his own pieces only.
"""

import pytest

from engine.core.hexgrid import HexGrid
from tests.pfv.fixtures import fixture_board, play, scene
from tests.pfv.helpers import hex_of, stack

CORRIDOR = {"8113", "8213", "8313", "8413", "8314"}


def corridor_board(features=None, hexsides=()):
    every_hex = HexGrid([f"{c:02d}{r:02d}" for c in range(74, 89) for r in range(8, 21)]).hexes
    return fixture_board(
        sea=tuple(sorted(every_hex - CORRIDOR)),
        features={"8413": ["airfield_axis"], **(features or {})},
        hexsides=hexsides,
    )


def end_axis_turn(where, board=None, **kw):
    rules, s = scene(board or corridor_board(), where, phase="replace", player="axis", **kw)
    s, log = play(rules, s, "axis", "done")
    return rules, s, log


def test_cut_off_reduced_unit_is_eliminated_T13a_U4_R20():
    rules, s, log = end_axis_turn({"x": "8113", "6arm": "8314", "luft": "8413"}, reduced=("x",))
    assert "Unit X (reduced) in 8113 is out of supply (PFV 7 phase 8)." in log
    assert hex_of(s, "x") == "dead" and hex_of(s, "bg_axis_1") == "pool"
    assert (s.player, s.phase) == ("allied", "move")


def test_cut_off_reduced_unit_becomes_a_battlegroup_with_the_other_ruling_R20():
    rules, s, _ = end_axis_turn(
        {"x": "8113", "6arm": "8314"}, reduced=("x",), options={"supply_loss_battlegroup": True}
    )
    assert hex_of(s, "x") == "dead" and hex_of(s, "bg_axis_1") == "8113"


def test_cut_off_full_unit_is_reduced_U4():
    rules, s, log = end_axis_turn({"x": "8113", "6arm": "8314"})
    assert "Unit X is reduced." in log
    assert hex_of(s, "x") == "8113" and s.pieces["x"].reduced


def test_cut_off_one_step_pieces_are_eliminated_U4():
    rules, s, _ = end_axis_turn({"z": "8113", "88s": "8113", "6arm": "8314"})
    assert hex_of(s, "z") == "dead" and hex_of(s, "88s") == "dead"


def test_friendly_piece_negates_enemy_zoc_for_supply_T13b_U2_Z6():
    rules, s, log = end_axis_turn({"x": "8113", "88s": "8313", "6arm": "8314"}, reduced=("x",))
    assert "Supply: every Axis piece traces a path to a friendly airfield." in log
    assert hex_of(s, "x") == "8113" and hex_of(s, "88s") == "8313"


def test_air_on_a_friendly_airfield_is_always_supplied_T13c_U1():
    rules, s, _ = end_axis_turn({"luft": "8413", "6arm": "8314", "x": "8213"})
    assert hex_of(s, "luft") == "8413"


def test_supply_path_may_not_enter_an_enemy_occupied_hex_U2():
    """An Allied support in 8313 projects no ZOC but still blocks the corridor."""
    rules, s, _ = end_axis_turn({"x": "8113", "td": "8313", "y": "8413"})
    assert s.pieces["x"].reduced


def test_supply_path_of_any_length_reaches_the_airfield_U1():
    rules, s, log = end_axis_turn(
        {"x": "8113", "6arm": "8618"}, board=fixture_board(features={"8818": ["airfield_axis"]})
    )
    assert "Supply: every Axis piece traces a path to a friendly airfield." in log


@pytest.mark.parametrize("side, cut", [("river", False), ("impassable", True)])
def test_supply_crosses_rivers_but_not_impassable_sides_R19(side, cut):
    board = corridor_board(hexsides={"8113|8213": [side]})
    rules, s, _ = end_axis_turn({"x": "8113", "6arm": "8618"}, board=board)
    assert s.pieces["x"].reduced == cut


def test_airfield_must_be_friendly_R17():
    """8413 captured by the Allies is no longer a source of Axis supply."""
    rules, s, _ = end_axis_turn({"x": "8113", "6arm": "8618"}, control={"8413": "allied"})
    assert s.pieces["x"].reduced


def test_only_the_phasing_players_pieces_are_checked_U5():
    """The Allied 6th Armoured has no airfield at all, but it is the Axis player turn."""
    rules, s, _ = end_axis_turn({"x": "8113", "88s": "8313", "6arm": "8314"})
    assert not s.pieces["6arm"].reduced and hex_of(s, "6arm") == "8314"


def test_friendly_unit_in_enemy_zoc_carries_supply_for_pieces_behind_it_U2():
    """X in 8313 stands in the 6th Armoured's zone of control, which it negates for its own
    supply and for Z's path through its hex."""
    rules, s, _ = end_axis_turn({"z": "8113", "x": "8313", "6arm": "8314"})
    assert hex_of(s, "z") == "8113" and not s.pieces["x"].reduced
    assert stack(s, "8313") == {"x"}


@pytest.mark.parametrize("turn", [1, 2])
def test_allied_pieces_are_checked_at_the_end_of_the_allied_turn_U1(turn):
    board = corridor_board({"8113": ["airfield_allied"]})
    rules, s = scene(
        board,
        {"1arm": "8413", "x": "8313", "y": "8213"},
        phase="replace",
        player="allied",
        turn=turn,
        control={"8113": "allied"},
    )
    s.patton_arrived = True  # no Patton roll at the end of this game turn
    s, log = play(rules, s, "allied", "done")
    assert "1st Armored in 8413 is out of supply (PFV 7 phase 8)." in log
    assert s.pieces["1arm"].reduced
