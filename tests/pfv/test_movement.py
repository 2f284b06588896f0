"""PFV 8 Movement and PFV 9 Zones of control (digest T02, T03, T04; M-, MV-, Z-, ST- rules).

Every scene is the digest's fixture map: open ground (1 MP), odd columns half a hex lower,
so the neighbours of 8113 are 8213 8214 8112 8013 8014 8114.
"""

import pytest

from tests.pfv.fixtures import fixture_board, fixture_counters, play, scene
from tests.pfv.helpers import BYSTANDER, KEEP_FIGHTING, hex_of, legal, refused, slow_unit

# -- PFV 8: what a hex and a hexside cost (T02) ---------------------------------------


def t02_board(**options):
    """T02: a road 8113-8213-8313-8413, an unbridged river on 8113|8114 and a bridged
    river on 8213|8214; a unit with MF 2 stands in 8113."""
    board = fixture_board(
        roads=[["8113", "8213", "8313", "8413"]],
        hexsides={"8113|8114": ["river"], "8213|8214": ["river", "bridge"]},
        counters=fixture_counters(extra=[slow_unit()]),
    )
    return scene(board, {"slow": "8113", **BYSTANDER}, player="allied", options=options)


def test_single_hex_move_is_allowed_whatever_it_costs_MV5_M7():
    rules, s = t02_board()
    s, log = play(rules, s, "allied", "move slow 8114")  # 1 open + 3 river = 4 > MF 2
    assert hex_of(s, "slow") == "8114"
    assert log == ["Slow column moves 8113 → 8114."]


def test_minimum_move_never_goes_further_than_one_hex_MV5_M7():
    rules, s = t02_board()
    err = refused(rules, s, "allied", "move slow 8114 8115")
    assert "(PFV 8)" in str(err)
    assert "5 MP" in str(err)


def test_road_to_road_costs_half_a_point_MV4_M6():
    rules, s = t02_board()
    s, log = play(rules, s, "allied", "move slow 8213 8313 8413")  # 3 x 0.5 = 1.5
    assert hex_of(s, "slow") == "8413"


def test_leaving_the_road_pays_the_hex_cost_MV4_M6():
    rules, s = t02_board()
    err = refused(rules, s, "allied", "move slow 8213 8313 8413 8414")  # 1.5 + 1 = 2.5
    assert "2.5 MP" in str(err) and "(PFV 8)" in str(err)


def test_bridge_removes_the_river_cost_MV3():
    rules, s = t02_board()
    s, _ = play(rules, s, "allied", "move slow 8213 8214")  # 0.5 road + 1 open, no +3
    assert hex_of(s, "slow") == "8214"


def test_unbridged_river_adds_three_to_the_hex_beyond_MV3():
    board = fixture_board(hexsides={"8113|8114": ["river"]})
    rules, s = scene(board, {"34th": "8113", **BYSTANDER}, player="allied")  # MF 4
    s, _ = play(rules, s, "allied", "move 34th 8114")  # 1 + 3 = 4: all of its MP
    assert hex_of(s, "34th") == "8114"
    rules, s = scene(board, {"34th": "8113", **BYSTANDER}, player="allied")
    refused(rules, s, "allied", "move 34th 8114 8115")  # 5 > 4


def test_mixed_terrain_hex_costs_its_single_highest_terrain_MV2():
    board = fixture_board(
        terrain={"8114": ["open", "hills"], "8014": ["hills", "mountain"]},
        counters=fixture_counters(extra=[slow_unit(move=3)]),
    )
    rules, s = scene(board, {"slow": "8113", **BYSTANDER}, player="allied")
    s2, _ = play(rules, s, "allied", "move slow 8114 8115")  # 2 + 1 = 3
    assert hex_of(s2, "slow") == "8115"
    refused(rules, s, "allied", "move slow 8014 8015")  # 3 + 1 = 4 > 3, not 2 + 1


def test_road_costs_half_a_point_whatever_the_terrain_in_the_road_hexes_MV4():
    hills = {h: ["hills"] for h in ("8113", "8213", "8313", "8413", "8513")}
    board = fixture_board(
        terrain=hills,
        roads=[["8113", "8213", "8313", "8413", "8513"]],
        counters=fixture_counters(extra=[slow_unit()]),
    )
    rules, s = scene(board, {"slow": "8113", **BYSTANDER}, player="allied")
    s, _ = play(rules, s, "allied", "move slow 8213 8313 8413 8513")  # 4 x 0.5 = 2
    assert hex_of(s, "slow") == "8513"


def test_road_hexes_joined_by_a_hexside_without_road_pay_full_cost_MV4():
    """8113 and 8114 both have a road, but the road does not cross the side between them."""
    board = fixture_board(
        terrain={"8114": ["hills"]},
        roads=[["8112", "8113"], ["8114", "8115"]],
        counters=fixture_counters(extra=[slow_unit()]),
    )
    rules, s = scene(board, {"slow": "8113", **BYSTANDER}, player="allied")
    err = refused(rules, s, "allied", "move slow 8114 8115")  # 2 (hills) + 0.5 = 2.5
    assert "2.5 MP" in str(err)


@pytest.mark.parametrize(
    "road_ignores_river, path, legal_move",
    [
        (False, "8114 8115", True),  # 0.5 + 3 + 0.5 = 4
        (False, "8114 8115 8116", False),  # 5 > 4
        (True, "8114 8115 8116 8117 8118", True),  # 0.5 + 0.5 + 1 + 1 + 1 = 4
    ],
)
def test_road_across_unbridged_river_still_pays_the_river_by_ruling_R7(
    road_ignores_river, path, legal_move
):
    """RULINGS R7 (A35): a road crossing an unbridged river still pays +3; the switch
    ``road_ignores_river`` makes the road cross for half a point."""
    board = fixture_board(roads=[["8113", "8114", "8115"]], hexsides={"8113|8114": ["river"]})
    rules, s = scene(
        board,
        {"34th": "8113", **BYSTANDER},
        player="allied",
        options={"road_ignores_river": road_ignores_river},
    )
    if legal_move:
        s, _ = play(rules, s, "allied", f"move 34th {path}")
        assert hex_of(s, "34th") == path.split()[-1]
    else:
        refused(rules, s, "allied", f"move 34th {path}")


# -- PFV 8: where a piece may never go --------------------------------------------------


def test_impassable_hexside_may_not_be_crossed_MV6_M5():
    board = fixture_board(hexsides={"8113|8114": ["impassable"]})
    rules, s = scene(board, {"1arm": "8113", **BYSTANDER}, player="allied")
    err = refused(rules, s, "allied", "move 1arm 8114")
    assert "impassable" in str(err) and "(PFV 8)" in str(err)


def test_destination_only_move_goes_around_an_impassable_hexside_M6():
    board = fixture_board(hexsides={"8113|8114": ["impassable"]})
    rules, s = scene(board, {"1arm": "8113", **BYSTANDER}, player="allied")
    s, log = play(rules, s, "allied", "move 1arm 8115")
    assert hex_of(s, "1arm") == "8115"
    assert "8113 → 8114" not in log[0]
    assert log[0].count("→") == 3  # without the 8114 step, 8115 is three hexes away


@pytest.mark.parametrize("terrain", [["marsh"], ["sea"]])
def test_prohibited_terrain_may_not_be_entered_even_as_a_single_hex_MV6(terrain):
    board = fixture_board(
        terrain={"8114": terrain} if terrain != ["sea"] else None,
        sea=("8114",) if terrain == ["sea"] else (),
    )
    rules, s = scene(board, {"1arm": "8113", **BYSTANDER}, player="allied")
    err = refused(rules, s, "allied", "move 1arm 8114")
    assert "prohibited" in str(err) and "(PFV 8)" in str(err)


def test_no_piece_may_move_off_the_map_MV6_M3():
    rules, s = scene(fixture_board(), {"1arm": "8119", **BYSTANDER}, player="allied")
    err = refused(rules, s, "allied", "move 1arm 8120 8121")
    assert "not a hex of the map" in str(err)


def test_path_must_be_a_chain_of_adjacent_hexes_M3():
    rules, s = scene(fixture_board(), {"1arm": "8113", **BYSTANDER}, player="allied")
    err = refused(rules, s, "allied", "move 1arm 8114 8116")
    assert "not next to" in str(err)


def test_hex_with_only_an_enemy_support_asset_may_not_be_entered_T03_M4():
    rules, s = scene(fixture_board(), {"1arm": "8113", "x": "8315", "88s": "8213"}, player="allied")
    err = refused(rules, s, "allied", "move 1arm 8213")
    assert "enemy" in str(err) and "(PFV 8)" in str(err)


def test_path_may_not_pass_through_an_enemy_unit_M4():
    rules, s = scene(fixture_board(), {"1arm": "8113", "x": "8114"}, player="allied")
    refused(rules, s, "allied", "move 1arm 8114 8115")


def test_friendly_hexes_may_be_passed_through_M4():
    rules, s = scene(
        fixture_board(), {"1arm": "8113", "34th": "8114", **BYSTANDER}, player="allied"
    )
    s, _ = play(rules, s, "allied", "move 1arm 8114 8115")
    assert hex_of(s, "1arm") == "8115"


# -- PFV 9: zones of control (T03) --------------------------------------------------------


def t03(where=None, **kw):
    """T03: Axis unit X in 8315 (its ZOC: 8415 8416 8314 8215 8216 8316), a lone Axis 88s
    in 8213, the Allied 1st Armored (MF 6) in 8113."""
    pieces = {"x": "8315", "88s": "8213", "1arm": "8113"}
    pieces.update(where or {})
    return scene(fixture_board(), pieces, player="allied", **kw)


def test_move_ends_on_entering_enemy_zoc_T03_M8_Z2():
    rules, s = t03()
    err = refused(rules, s, "allied", "move 1arm 8114 8215 8216")
    assert "zone of control" in str(err) and "(PFV 9)" in str(err)
    s, _ = play(rules, s, "allied", "move 1arm 8114 8215")
    assert hex_of(s, "1arm") == "8215"


def test_friendly_unit_does_not_negate_enemy_zoc_for_movement_Z2():
    """Only supply ignores a zone of control where a friend stands (PFV 9, L158)."""
    rules, s = t03({"34th": "8215"})
    err = refused(rules, s, "allied", "move 1arm 8114 8215 8115")
    assert "(PFV 9)" in str(err)


def test_support_assets_project_no_zoc_T03_Z1():
    rules, s = t03()
    s, _ = play(rules, s, "allied", "move 1arm 8112 8212 8211")  # both beside the lone 88s
    assert hex_of(s, "1arm") == "8211"


def test_reduced_unit_still_projects_zoc_Z1():
    rules, s = t03(reduced=("x",))
    refused(rules, s, "allied", "move 1arm 8114 8215 8216")


def test_battlegroup_projects_zoc_like_any_unit_Z1():
    rules, s = t03({"x": "8808", "bg_axis_1": "8315"})
    refused(rules, s, "allied", "move 1arm 8114 8215 8216")


def test_leaving_an_enemy_zoc_one_starts_in_is_free_T03_Z4_M9():
    rules, s = t03({"1arm": "8215"}, turn=2)
    s, _ = play(rules, s, "allied", "move 1arm 8114 8014 7914")
    assert hex_of(s, "1arm") == "7914"


def test_moving_from_zoc_directly_into_zoc_stops_the_move_T03_Z4_M9():
    rules, s = t03({"1arm": "8215"}, turn=2)
    err = refused(rules, s, "allied", "move 1arm 8216 8217")
    assert "(PFV 9)" in str(err)
    s, _ = play(rules, s, "allied", "move 1arm 8216")
    assert hex_of(s, "1arm") == "8216"


def test_destination_only_move_routes_around_enemy_zoc_M8():
    """8316 is in X's zone of control; the cheapest path to it that does not stop early
    goes 8114 8115 8116 8217 8316 (5 MP), not through 8215 or 8216."""
    rules, s = t03()
    s, log = play(rules, s, "allied", "move 1arm 8316")
    assert hex_of(s, "1arm") == "8316"
    assert log[0].endswith("8113 → 8114 → 8115 → 8116 → 8217 → 8316.")


def test_destination_beyond_reach_is_refused_with_reachable_hexes_M7():
    rules, s = t03()
    err = refused(rules, s, "allied", "move 1arm 8120")
    assert "cannot reach 8120" in str(err) and "Reachable hexes" in str(err)


def test_destination_only_move_finds_the_cheapest_path_along_the_road_M6():
    rules, s = t02_board()
    s, log = play(rules, s, "allied", "move slow 8413")  # 3 open hexes would cost 3 > 2
    assert log == ["Slow column moves 8113 → 8213 → 8313 → 8413."]


# -- PFV 6 stacking, checked when movement ends (T04) ---------------------------------


def t04():
    """T04: Allied unit A (1st Armored) in 8113, unit B (34th) in 8114; supports TD and
    artillery in 8115, Patton alone in 8116."""
    where = {"1arm": "8113", "34th": "8114", "td": "8115", "arty": "8115", "patton": "8116"}
    return scene(fixture_board(), {**where, **KEEP_FIGHTING}, player="allied")


def test_stacking_is_checked_at_done_not_in_transit_T04_ST3_M11():
    rules, s = t04()
    s, _ = play(rules, s, "allied", "move 1arm 8114")  # two units in 8114 for now
    err = refused(rules, s, "allied", "done")
    assert "8114" in str(err) and "(PFV 6)" in str(err)
    s, _ = play(rules, s, "allied", "move 34th 8115")  # 1 unit + 2 supports: legal
    s, log = play(rules, s, "allied", "done")
    assert "The Allied movement phase ends." in log


def test_passing_through_a_friendly_unit_is_not_stacking_T04_ST3():
    rules, s = t04()
    s, _ = play(rules, s, "allied", "move 1arm 8114 8014")
    s, _ = play(rules, s, "allied", "done")
    assert hex_of(s, "1arm") == "8014"


def test_three_non_air_supports_over_stack_a_hex_T04_ST2():
    rules, s = t04()
    s, _ = play(rules, s, "allied", "move patton 8115")
    err = refused(rules, s, "allied", "done")
    assert "two non-air support assets" in str(err)


def test_third_support_may_stack_when_it_is_air_ST2():
    """PFV 6: three supports may share a hex if one of them is air; with a unit too."""
    board = fixture_board(features={"8313": ["airfield_axis"]})
    where = {"luft": "8313", "10pz": "8213", "rommel": "8213", "88s": "8213", "1arm": "8616"}
    rules, s = scene(board, where, player="axis")
    s, _ = play(rules, s, "axis", "move 10pz,rommel,88s 8313")
    s, log = play(rules, s, "axis", "done")
    assert "The Axis movement phase ends." in log


def test_two_air_assets_never_share_a_hex_by_ruling_R4():
    """RULINGS R4: one air support per hex, since every placement rule allows one."""
    rules, _ = scene(fixture_board(), {})
    assert rules.board.stacking_problem(["luft", "regia"]) is not None
    assert rules.board.stacking_problem(["luft", "88s", "rommel", "10pz"]) is None


# -- PFV 7 phase 1, PFV 8: who moves, and how often ---------------------------------------


def test_air_support_never_moves_in_the_movement_phase_M1_MV1():
    board = fixture_board(features={"8412": ["airfield_axis"]})
    rules, s = scene(board, {"luft": "8412", "10pz": "8213", "1arm": "8616"}, player="axis")
    err = refused(rules, s, "axis", "move luft 8413")
    assert "air" in str(err) and "(PFV 8)" in str(err)
    assert not any("luft" in o for o in legal(rules, s))


def test_each_piece_moves_once_per_phase_M2():
    rules, s = scene(fixture_board(), {"1arm": "8113", **BYSTANDER}, player="allied")
    s, _ = play(rules, s, "allied", "move 1arm 8114")
    err = refused(rules, s, "allied", "move 1arm 8115")
    assert "already moved" in str(err)


def test_supports_move_with_their_unit_as_one_group_each_as_far_as_its_MP_MV9():
    """L78: supports move with their unit "until they lack enough MP to continue"."""
    where = {"10pz": "8213", "88s": "8213", "1arm": "8618"}  # 10pz MF 6, 88s MF 4
    rules, s = scene(fixture_board(), where, player="axis")
    s2, _ = play(rules, s, "axis", "move 10pz,88s 8313 8413 8513 8613 8713")  # 5 > 4
    assert (hex_of(s2, "10pz"), hex_of(s2, "88s")) == ("8713", "8613")
    s, log = play(rules, s, "axis", "move 10pz,88s 8313 8413 8513 8613")
    assert hex_of(s, "10pz") == hex_of(s, "88s") == "8613"
    assert log[0].startswith("10th Panzer and 88s move 8213 → 8313")
    refused(rules, s, "axis", "move 88s 8612")  # moved with its unit: once is all


def test_supports_stacked_together_move_together_without_a_unit_MV9():
    rules, s = scene(fixture_board(), {"88s": "8213", "rommel": "8213", "1arm": "8618"})
    s, _ = play(rules, s, "axis", "move 88s,rommel 8313 8413")
    assert hex_of(s, "88s") == hex_of(s, "rommel") == "8413"


def test_support_may_stay_behind_and_move_on_its_own_MV9():
    rules, s = scene(fixture_board(), {"10pz": "8213", "88s": "8213", "1arm": "8618"})
    s, _ = play(rules, s, "axis", "move 10pz 8313 8413 8513")
    s, _ = play(rules, s, "axis", "move 88s 8212")
    assert (hex_of(s, "10pz"), hex_of(s, "88s")) == ("8513", "8212")


def test_only_pieces_in_one_hex_move_together_MV9():
    rules, s = scene(fixture_board(), {"10pz": "8213", "88s": "8313", "1arm": "8618"})
    err = refused(rules, s, "axis", "move 10pz,88s 8413")
    assert "(PFV 7)" in str(err)


def test_legal_moves_list_stack_legal_destinations_only_M11():
    rules, s = scene(
        fixture_board(), {"1arm": "8113", "34th": "8114", **BYSTANDER}, player="allied"
    )
    moves = legal(rules, s)
    assert "move 1arm 8213" in moves
    assert not any(m.startswith("move 1arm") and m.endswith(" 8114") for m in moves)
    assert "done" in moves
