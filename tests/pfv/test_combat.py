"""PFV 7 phases 2-4, PFV 10 Air combat, 11 Attacking, 12 Defending, 13 Losses & battlegroups
(digest T06, T07, T08, T10; AT-, DF-, A-, C-, LS- rules).

The digest's fixture pieces: 10th Panzer CF 6/3, 1st Armored CF 4/2, Rommel -3, 88s -2,
Luftwaffe -3 (range 12, one step), P-38s -2/-1 (range 12), TD -2. Dice are scripted: the
attack roll, then the defence roll (air combat first: attacker's air, then defender's).
"""

import pytest

from tests.pfv.fixtures import counter, fixture_board, fixture_counters, play, scene
from tests.pfv.helpers import KEEP_FIGHTING, fight, hex_of, legal, prompt_of, refused, stack

AIRFIELDS = {"8412": ["airfield_axis"], "7712": ["airfield_allied"]}


def battle(where, board=None, player="axis", **kw):
    """A combat phase with the pieces given, plus a battle still to fight far away."""
    return scene(
        board or fixture_board(), {**KEEP_FIGHTING, **where}, phase="combat", player=player, **kw
    )


# -- PFV 11, 12: the attack roll and the defence roll ------------------------------------


def test_attack_succeeds_on_a_roll_at_or_under_the_combat_factor_AT5_AT6_T05():
    rules, s = battle({"10pz": "8213", "1arm": "8113"})
    s, log = play(rules, s, "axis", "attack 10pz 8113", [6, 7])
    assert log[1] == "Attack: 10th Panzer rolls 6 = 6, needs 6 or less: success."
    assert log[2] == "Defence: 1st Armored rolls 7 = 7, needs 4 or less: no effect."
    assert s.pieces["1arm"].reduced and not s.pieces["10pz"].reduced
    assert prompt_of(rules, s) == ("allied", "retreat")


def test_attack_over_the_combat_factor_has_no_effect_AT6():
    rules, s = battle({"10pz": "8213", "1arm": "8113"})
    s, log = play(rules, s, "axis", "attack 10pz 8113", [7, 5])
    assert "needs 6 or less: no effect" in log[1]
    assert not s.pieces["1arm"].reduced and not s.pieces["10pz"].reduced
    assert hex_of(s, "1arm") == "8113" and s.battle is None
    assert prompt_of(rules, s) == ("axis", "attack")


def test_natural_1_always_succeeds_T06a_AT6():
    """A CF 2 battlegroup against a +3 hex: 1 + 3 = 4 > 2, yet a natural 1 succeeds."""
    board = fixture_board(terrain={"8113": ["rough3"]})
    rules, s = battle({"bg_axis_1": "8213", "1arm": "8113"}, board)
    s, log = play(rules, s, "axis", "attack bg_axis_1 8113", [1, 12])
    assert (
        "rolls 1 +3 terrain = 4, needs 2 or less (a natural 1 always succeeds): success" in log[1]
    )
    assert s.pieces["1arm"].reduced


def test_natural_12_always_fails_T06b_AT6():
    """10th Panzer with Rommel, 88s and Luftwaffe (-8): 12 - 8 = 4 would succeed, but a
    natural 12 always fails."""
    board = fixture_board(features=AIRFIELDS)
    where = {"10pz": "8213", "rommel": "8213", "88s": "8213", "luft": "8412", "1arm": "8113"}
    rules, s = battle(where, board)
    s, log = play(rules, s, "axis", "attack 10pz 8113 air luft", [12, 12])
    assert (
        "rolls 12 -8 support = 4, needs 6 or less (a natural 12 always fails): no effect" in log[1]
    )
    assert not s.pieces["1arm"].reduced


def test_natural_12_always_fails_on_defence_DF3():
    """1st Armored** (CF 6) with TD, artillery and P-38s (-6) defends: 12 - 6 = 6 would
    succeed, but a natural 12 always fails."""
    board = fixture_board(features=AIRFIELDS)
    where = {"10pz": "8213", "1arm2": "8113", "td": "8113", "arty": "8113", "p38": "7712"}
    rules, s = battle(where, board)
    s, _ = play(rules, s, "axis", "attack 10pz 8113")
    s, log = play(rules, s, "allied", "air p38", [12, 12])
    assert log[-1] == (
        "Defence: 1st Armored** rolls 12 -6 support = 6, needs 6 or less "
        "(a natural 12 always fails): no effect."
    )
    assert not s.pieces["10pz"].reduced


def test_natural_1_always_succeeds_on_defence_DF3():
    rules, s = battle({"10pz": "8213", "bg_allied_1": "8113"}, board=fixture_board())
    s, log = play(rules, s, "axis", "attack 10pz 8113", [12, 1])
    assert log[2] == (
        "Defence: Allied battlegroup rolls 1 = 1, needs 2 or less "
        "(a natural 1 always succeeds): success."
    )
    assert s.pieces["10pz"].reduced


@pytest.mark.parametrize(
    "target_terrain, hexside, drm",
    [
        (["open"], [], 0),
        (["hills"], [], 1),
        (["open"], ["river"], 2),
        (["hills"], ["river"], 2),  # T06c: +2 only, not +3
        (["mountain"], ["river"], 2),
        (["rough3"], ["river"], 3),
        (["open", "hills", "mountain"], [], 2),
    ],
)
def test_only_the_single_highest_terrain_modifier_applies_T06c_AT5(target_terrain, hexside, drm):
    """The attacker stands in a +3 hex, which never counts; the target hex and the hexside
    crossed give one modifier, the highest."""
    board = fixture_board(
        terrain={"8213": ["rough3"], "8113": target_terrain},
        hexsides={"8113|8213": hexside} if hexside else (),
    )
    rules, s = battle({"10pz": "8213", "1arm": "8113"}, board)
    s, log = play(rules, s, "axis", "attack 10pz 8113", [4, 12])
    mods = f" +{drm} terrain" if drm else ""
    assert f"rolls 4{mods} = {4 + drm}, needs 6 or less" in log[1]
    assert s.pieces["1arm"].reduced == (4 + drm <= 6)


def test_hill_behind_river_attacked_at_roll_4_succeeds_T06c():
    board = fixture_board(
        terrain={"8213": ["rough3"], "8113": ["hills"]}, hexsides={"8113|8213": ["river"]}
    )
    rules, s = battle({"10pz": "8213", "1arm": "8113"}, board)
    s, log = play(rules, s, "axis", "attack 10pz 8113", [4, 12])
    assert log[1] == "Attack: 10th Panzer rolls 4 +2 terrain = 6, needs 6 or less: success."


@pytest.mark.parametrize("negate, drm", [(False, 2), (True, 0)])
def test_bridged_river_keeps_its_combat_modifier_by_ruling_R9(negate, drm):
    """RULINGS R9 (A42): a bridge removes the river's MP cost, not its modifier; the switch
    ``bridge_negates_river_drm`` lets the bridge cancel it too."""
    board = fixture_board(hexsides={"8113|8213": ["river", "bridge"]})
    rules, s = battle(
        {"10pz": "8213", "1arm": "8113"}, board, options={"bridge_negates_river_drm": negate}
    )
    s, log = play(rules, s, "axis", "attack 10pz 8113", [5, 12])
    assert f"rolls 5{' +2 terrain' if drm else ''} = {5 + drm}" in log[1]


def test_defence_roll_has_no_terrain_modifier_T06d_DF2():
    """The 34th (CF 3) in mountains (+2) rolls 3 on defence: 3 <= 3, success."""
    board = fixture_board(terrain={"8113": ["mountain"]})
    rules, s = battle({"10pz": "8213", "34th": "8113"}, board)
    s, log = play(rules, s, "axis", "attack 10pz 8113", [12, 3])
    assert log[2] == "Defence: 34th Infantry rolls 3 = 3, needs 3 or less: success."
    assert "10th Panzer is reduced." in log


def test_support_assets_subtract_from_the_attack_roll_AT5():
    rules, s = battle({"10pz": "8213", "88s": "8213", "rommel": "8213", "1arm": "8113"})
    s, log = play(rules, s, "axis", "attack 10pz 8113", [11, 12])
    assert log[0] == "10th Panzer attacks 8113 from 8213, supported by 88s and Rommel."
    assert "rolls 11 -5 support = 6, needs 6 or less: success" in log[1]
    assert s.supported == {"88s", "rommel"}


def test_two_ground_supports_and_one_air_all_count_AT5_C7():
    """A CF 2 battlegroup with 88s, Rommel and Luftwaffe: 10 - 8 = 2, success; without the
    air it would be 5, a failure."""
    board = fixture_board(features=AIRFIELDS)
    where = {"bg_axis_1": "8213", "88s": "8213", "rommel": "8213", "luft": "8412", "1arm": "8113"}
    rules, s = battle(where, board)
    s, log = play(rules, s, "axis", "attack bg_axis_1 8113 air luft", [10, 12])
    assert "rolls 10 -8 support = 2, needs 2 or less: success" in log[1]


def test_defender_supports_subtract_from_the_defence_roll_DF2():
    rules, s = battle({"10pz": "8213", "1arm": "8113", "td": "8113"})
    s, log = play(rules, s, "axis", "attack 10pz 8113", [12, 6])
    assert log[2] == "Defence: 1st Armored rolls 6 -2 support = 4, needs 4 or less: success."
    assert s.pieces["10pz"].reduced


def test_support_asset_alone_may_not_attack_AT3():
    rules, s = battle({"10pz": "8313", "88s": "8213", "1arm": "8113"})
    err = refused(rules, s, "axis", "attack 88s 8113")
    assert "support asset" in str(err) and "(PFV 7)" in str(err)


# -- PFV 12, 13: simultaneity, losses, battlegroups (T07) --------------------------------


def test_defence_uses_the_factor_from_before_the_attack_loss_T07_DF3_DF5():
    """10th Panzer hits the reduced 34th (CF 2); the 34th's defence roll of 2 still counts,
    because both results take effect together. The 34th gives way to a battlegroup, 10th
    Panzer is reduced, and nobody retreats."""
    rules, s = battle({"10pz": "8213", "34th": "8113"}, reduced=("34th",))
    s, log = play(rules, s, "axis", "attack 10pz 8113", [5, 2])
    assert log[2] == "Defence: 34th Infantry rolls 2 = 2, needs 2 or less: success."
    assert hex_of(s, "34th") == "dead"
    assert hex_of(s, "bg_allied_1") == "8113" and s.pieces["bg_allied_1"].origin == "34th"
    assert s.pieces["10pz"].reduced
    assert hex_of(s, "10pz") == "8213" and s.battle is None  # no retreat, no advance


def test_owner_chooses_which_piece_of_the_stack_takes_the_loss_T07_LS1():
    rules, s = battle({"10pz": "8213", "34th": "8113", "td": "8113"}, reduced=("34th",))
    s, _ = play(rules, s, "axis", "attack 10pz 8113", [5, 12])  # 12: the defence fails
    assert prompt_of(rules, s) == ("allied", "loss")
    assert legal(rules, s) == {"loss 34th", "loss td"}
    s, log = play(rules, s, "allied", "loss td")
    assert log[0] == "Tank destroyers is eliminated."
    assert s.pieces["34th"].reduced and hex_of(s, "34th") == "8113"
    assert prompt_of(rules, s) == ("allied", "retreat")  # the attack succeeded alone


def test_attacker_owner_chooses_his_loss_too_LS1():
    rules, s = battle({"10pz": "8213", "88s": "8213", "1arm": "8113"})
    s, _ = play(rules, s, "axis", "attack 10pz 8113", [12, 1])
    assert prompt_of(rules, s) == ("axis", "loss")
    s, log = play(rules, s, "axis", "loss 88s")
    assert log == ["88s is eliminated."]
    assert not s.pieces["10pz"].reduced


def test_air_may_never_be_chosen_to_take_a_loss_LS2():
    board = fixture_board(features={"8113": ["airfield_allied"]})
    rules, s = battle({"10pz": "8213", "1arm": "8113", "td": "8113", "spit": "8113"}, board)
    s, _, _ = fight(rules, s, "attack 10pz 8113", [2, 12])
    assert legal(rules, s) == {"loss 1arm", "loss td"}
    err = refused(rules, s, "allied", "loss spit")
    assert "air may never be chosen" in str(err) and "(PFV 13)" in str(err)


def test_reduced_unit_hit_again_gives_way_to_a_battlegroup_LS_PFV13():
    rules, s = battle({"10pz": "8213", "1arm": "8113"}, reduced=("1arm",))
    s, log = play(rules, s, "axis", "attack 10pz 8113", [3, 12])
    assert "1st Armored (reduced) is eliminated and replaced by a battlegroup." in log
    assert hex_of(s, "bg_allied_1") == "8113" and s.pieces["bg_allied_1"].origin == "1arm"
    assert prompt_of(rules, s) == ("allied", "retreat")  # the battlegroup must retreat


def test_reduced_unit_with_no_battlegroup_left_is_eliminated_by_ruling_R14():
    rules, s = battle({"10pz": "8213", "1arm": "8113", "bg_allied_1": "7610"}, reduced=("1arm",))
    s, _ = play(rules, s, "axis", "attack 10pz 8113", [3, 12])
    assert hex_of(s, "1arm") == "dead" and hex_of(s, "bg_allied_1") == "7610"
    assert stack(s, "8113") == set()


def test_battlegroup_reduced_is_eliminated_and_not_replaced_PFV13():
    rules, s = battle({"10pz": "8213", "bg_allied_1": "8113"})
    s, log = play(rules, s, "axis", "attack 10pz 8113", [3, 12])
    assert "Allied battlegroup is eliminated." in log
    assert hex_of(s, "bg_allied_1") == "dead"  # RULINGS R14: a unit, never reclaimed (L118)
    assert prompt_of(rules, s) == ("axis", "advance")


def test_one_step_unit_is_eliminated_outright_PFV13():
    rules, s = battle({"10pz": "8213", "para": "8113"})
    s, log = play(rules, s, "axis", "attack 10pz 8113", [3, 12])
    assert "Para Brigade is eliminated." in log
    assert hex_of(s, "para") == "dead" and hex_of(s, "bg_allied_1") == "pool"


def test_reduced_pieces_fight_with_the_values_on_their_back_LS4_R11():
    """Reduced 10th Panzer attacks at CF 3; reduced P-38s subtract 1, not 2."""
    board = fixture_board(features=AIRFIELDS)
    rules, s = battle(
        {"10pz": "8213", "1arm": "8113", "p38": "7712"}, board, reduced=("10pz", "p38")
    )
    s, _ = play(rules, s, "axis", "attack 10pz 8113")
    s, log = play(rules, s, "allied", "air p38", [4, 5])
    assert any(line.endswith("rolls 4 = 4, needs 3 or less: no effect.") for line in log)
    assert "Defence: 1st Armored rolls 5 -1 support = 4, needs 4 or less: success." in log
    assert "10th Panzer (reduced) is eliminated and replaced by a battlegroup." in log


def test_battlegroup_standing_in_for_the_attacker_may_advance_R13():
    """Reduced 10th Panzer hits the one-step Para Brigade and is hit back: the Para is
    eliminated, 10th Panzer gives way to a battlegroup, and that battlegroup may advance."""
    rules, s = battle({"10pz": "8213", "para": "8113"}, reduced=("10pz",))
    s, log = play(rules, s, "axis", "attack 10pz 8113", [2, 1])
    assert hex_of(s, "para") == "dead" and hex_of(s, "bg_axis_1") == "8213"
    assert prompt_of(rules, s) == ("axis", "advance")
    assert legal(rules, s) == {"advance none", "advance bg_axis_1"}


def test_unit_attacked_twice_defends_twice_DF1():
    rules, s = battle({"10pz": "8213", "x": "8014", "1arm": "8113"})
    s, log1 = play(rules, s, "axis", "attack 10pz 8113", [12, 12])
    s, log2 = play(rules, s, "axis", "attack x 8113", [12, 4])
    assert log1[2].startswith("Defence: 1st Armored rolls 12")
    assert log2[2] == "Defence: 1st Armored rolls 4 = 4, needs 4 or less: success."
    assert s.pieces["x"].reduced and not s.pieces["10pz"].reduced


def test_a_unit_attacks_only_once_per_combat_phase_AT1():
    rules, s = battle({"10pz": "8213", "1arm": "8113", "34th": "8214"})
    s, _ = play(rules, s, "axis", "attack 10pz 8113", [12, 12])
    err = refused(rules, s, "axis", "attack 10pz 8214")
    assert "already attacked" in str(err) and "(PFV 11)" in str(err)
    assert not any(o.startswith("attack 10pz") for o in legal(rules, s))


def test_attack_needs_an_adjacent_enemy_hex_across_a_passable_side_AT2_C3_C4():
    board = fixture_board(hexsides={"8113|8213": ["impassable"]})
    rules, s = battle({"10pz": "8213", "1arm": "8113", "34th": "8313"}, board)
    err = refused(rules, s, "axis", "attack 10pz 8113")
    assert "impassable" in str(err) and "(PFV 11)" in str(err)
    assert {o for o in legal(rules, s) if o.startswith("attack 10pz")} == {"attack 10pz 8313"}


# -- PFV 7 phase 3, PFV 10: air support and air combat (T08) ----------------------------


def t08(board=None, **kw):
    """T08: 10th Panzer and Rommel in 8213 attack 1st Armored in 8113; Luftwaffe at its
    airfield 8412, the P-38s at 7712 (4 hexes from 8113)."""
    where = {"10pz": "8213", "rommel": "8213", "1arm": "8113", "luft": "8412", "p38": "7712"}
    return battle(where, board or fixture_board(features=AIRFIELDS), **kw)


def test_defender_answers_air_only_after_the_attacker_announces_T08a_A1_A2():
    rules, s = t08()
    err = refused(rules, s, "allied", "air p38")
    assert "(PFV 7)" in str(err)
    s, _ = play(rules, s, "axis", "attack 10pz 8113 air luft")
    assert prompt_of(rules, s) == ("allied", "air")
    assert legal(rules, s) == {"air none", "air p38"}


def test_air_combat_lower_result_wins_and_the_winner_joins_the_battle_T08b_T08c_A3_A4():
    """Axis 8 - 3 = 5, Allies 4 - 2 = 2: the Allies win; the one-step Luftwaffe is
    eliminated. Attack 8 - 3 (Rommel) = 5 <= 6; defence 6 - 2 (P-38s) = 4 <= 4: both
    sides lose a step, nobody retreats, and the P-38s go to Return to Base."""
    rules, s = t08()
    s, _ = play(rules, s, "axis", "attack 10pz 8113 air luft")
    s, log = play(rules, s, "allied", "air p38", [8, 4, 8, 6])
    assert log[1] == "Air combat over 8113: Luftwaffe rolls 8 → 5, P-38s rolls 4 → 2."
    assert "Luftwaffe is eliminated in air combat." in log
    assert "Attack: 10th Panzer rolls 8 -3 support = 5, needs 6 or less: success." in log
    assert "Defence: 1st Armored rolls 6 -2 support = 4, needs 4 or less: success." in log
    assert hex_of(s, "luft") == "dead"
    assert hex_of(s, "p38") == "rtb" and not s.pieces["p38"].reduced
    assert s.pieces["1arm"].reduced and hex_of(s, "1arm") == "8113"
    assert prompt_of(rules, s) == ("axis", "loss")
    assert legal(rules, s) == {"loss 10pz", "loss rommel"}


def test_air_combat_both_at_or_below_zero_reduces_both_T08d_A3():
    """Axis 3 - 3 = 0, Allies 1 - 2 = -1: both lose a step; neither helps on the ground."""
    rules, s = t08()
    s, _ = play(rules, s, "axis", "attack 10pz 8113 air luft")
    s, log = play(rules, s, "allied", "air p38", [3, 1, 9, 5])
    assert hex_of(s, "luft") == "dead"
    assert hex_of(s, "p38") == "rtb" and s.pieces["p38"].reduced
    assert "Attack: 10th Panzer rolls 9 -3 support = 6, needs 6 or less: success." in log
    assert "Defence: 1st Armored rolls 5 = 5, needs 4 or less: no effect." in log


def test_air_combat_tie_reduces_both_A3():
    rules, s = t08()
    s, _ = play(rules, s, "axis", "attack 10pz 8113 air luft")
    s, log = play(rules, s, "allied", "air p38", [5, 4, 12, 12])  # 2 and 2
    assert hex_of(s, "luft") == "dead" and s.pieces["p38"].reduced
    assert "-3 support" in log[-2] and "support" not in log[-1]  # only Rommel is left


def test_air_combat_loser_reduced_returns_to_base_and_the_winner_adds_A3_A4():
    rules, s = t08()
    s, _ = play(rules, s, "axis", "attack 10pz 8113 air luft")
    s, log = play(rules, s, "allied", "air p38", [2, 5, 12, 12])  # -1 against 3
    assert "P-38s is reduced and returns to base." in log
    assert hex_of(s, "p38") == "rtb" and s.pieces["p38"].reduced
    assert "rolls 12 -6 support" in log[-2]  # Rommel 3 + Luftwaffe 3
    assert hex_of(s, "luft") == "rtb"  # survivors go to Return to Base after the battle


def test_air_asset_already_reduced_is_eliminated_when_it_loses_A3():
    rules, s = t08(reduced=("p38",))
    s, _ = play(rules, s, "axis", "attack 10pz 8113 air luft")
    s, log = play(rules, s, "allied", "air p38", [2, 12, 12, 12])  # -1 against 11
    assert "P-38s (reduced) is eliminated in air combat." in log
    assert hex_of(s, "p38") == "dead"


def test_defender_may_fly_air_even_when_the_attacker_did_not_A2():
    rules, s = t08()
    s, _ = play(rules, s, "axis", "attack 10pz 8113")
    assert prompt_of(rules, s) == ("allied", "air")
    s, log = play(rules, s, "allied", "air p38", [12, 6])  # no air combat: one side only
    assert log[-1] == "Defence: 1st Armored rolls 6 -2 support = 4, needs 4 or less: success."
    assert hex_of(s, "p38") == "rtb"


def test_no_defender_air_prompt_when_none_is_in_range_A2():
    rules, s = battle({"10pz": "8213", "1arm": "8113"})
    s, log = play(rules, s, "axis", "attack 10pz 8113", [12, 12])
    assert s.battle is None and len(log) == 3


def test_air_support_must_be_within_range_of_the_attacking_unit_C5():
    short = counter("ju87", "axis", "air", "Stukas", modifier=2, rng=3, symbol="air")
    board = fixture_board(
        features={"8716": ["airfield_axis"]}, counters=fixture_counters(extra=[short])
    )
    rules, s = battle({"10pz": "8213", "1arm": "8113", "ju87": "8716"}, board)
    err = refused(rules, s, "axis", "attack 10pz 8113 air ju87")
    assert "range 3" in str(err) and "(PFV 7)" in str(err)
    assert "attack 10pz 8113 air ju87" not in legal(rules, s)


def test_defender_air_must_be_within_range_of_the_defending_hex_T08e_C8():
    short = counter("p40", "allied", "air", "P-40s", modifier=2, rng=3, symbol="air")
    board = fixture_board(
        features={**AIRFIELDS, "7712": ["airfield_allied"]},
        counters=fixture_counters(extra=[short]),
    )
    where = {"10pz": "8213", "1arm": "8113", "luft": "8412", "p40": "7712"}  # 4 > 3
    rules, s = battle(where, board)
    s, log = play(rules, s, "axis", "attack 10pz 8113 air luft", [12, 12])
    assert s.battle is None  # no Allied air could answer, so the battle was fought at once


SHORT_RANGE = [
    counter("ju87", "axis", "air", "Stukas", modifier=2, rng=3, symbol="air"),
    counter("p40", "allied", "air", "P-40s", modifier=2, rng=3, symbol="air"),
]


def test_air_range_is_counted_to_the_attacking_units_hex_not_the_target_C5_R21():
    """Stukas (range 3) at 8615: 3 hexes from the target 8313, 4 from 10th Panzer in 8213."""
    board = fixture_board(
        features={"8615": ["airfield_axis"]}, counters=fixture_counters(extra=SHORT_RANGE)
    )
    rules, s = battle({"10pz": "8213", "34th": "8313", "ju87": "8615"}, board)
    err = refused(rules, s, "axis", "attack 10pz 8313 air ju87")
    assert "4 hexes away" in str(err)


def test_defender_air_range_is_counted_to_the_defending_hex_C8_R21():
    """P-40s (range 3) at 8615 reach the 34th in 8313, though the attacker is 4 away."""
    board = fixture_board(
        features={"8615": ["airfield_allied"]}, counters=fixture_counters(extra=SHORT_RANGE)
    )
    rules, s = battle({"10pz": "8213", "34th": "8313", "p40": "8615"}, board)
    s, _ = play(rules, s, "axis", "attack 10pz 8313")
    assert legal(rules, s) == {"air none", "air p40"}
    s, log = play(rules, s, "allied", "air p40", [12, 5])
    assert log[-2] == "Defence: 34th Infantry rolls 5 -2 support = 3, needs 3 or less: success."


def test_air_in_the_return_to_base_box_cannot_fly_C5():
    rules, s = t08(rtb=("luft",))
    err = refused(rules, s, "axis", "attack 10pz 8113 air luft")
    assert "Return to Base" in str(err)


def test_only_one_air_asset_per_side_per_battle_T08f_C6():
    rules, s = t08()
    refused(rules, s, "axis", "attack 10pz 8113 air luft air regia")
    s, _ = play(rules, s, "axis", "attack 10pz 8113 air luft")
    s, _ = play(rules, s, "allied", "air p38", [8, 4, 12, 12])
    refused(rules, s, "allied", "air spit")  # the battle is over: no second answer


def test_defender_may_fly_air_over_lone_supports_only_to_fight_air_combat_A2_R21():
    board = fixture_board(features=AIRFIELDS)
    rules, s = battle({"10pz": "8213", "luft": "8412", "td": "8113", "p38": "7712"}, board)
    s, _ = play(rules, s, "axis", "attack 10pz 8113 air luft")
    s, log = play(rules, s, "allied", "air p38", [12, 1, 12])  # air combat, attack, no defence
    assert "No unit defends the hex, so there is no defence roll (PFV 12)." in log
    assert hex_of(s, "luft") == "dead"  # 12 - 3 = 9 against 1 - 2 = -1: the Allies win
    assert hex_of(s, "p38") == "rtb" and not s.pieces["p38"].reduced
    assert prompt_of(rules, s) == ("allied", "retreat")  # the missed lone TD still retreats


# -- PFV 12, 13: lone supports and lone air (T10) -----------------------------------------


def test_lone_support_makes_no_defence_roll_and_retreats_even_if_missed_T10a_DF6_R12():
    rules, s = battle({"10pz": "8213", "td": "8113"})
    s, log = play(rules, s, "axis", "attack 10pz 8113", [11])
    assert "No unit defends the hex, so there is no defence roll (PFV 12)." in log
    assert prompt_of(rules, s) == ("allied", "retreat")
    s, _ = play(rules, s, "allied", "retreat td 8013 7913")
    assert hex_of(s, "td") == "7913"
    assert prompt_of(rules, s) == ("axis", "advance")  # 8113 is empty
    s, _ = play(rules, s, "axis", "advance 10pz")
    assert s.breakthrough == {}  # no breakthrough: the attack itself failed


def test_lone_support_stays_when_missed_with_the_other_ruling_R12():
    rules, s = battle({"10pz": "8213", "td": "8113"}, options={"lone_sa_retreat_always": False})
    s, _ = play(rules, s, "axis", "attack 10pz 8113", [11])
    assert hex_of(s, "td") == "8113" and s.battle is None


def test_lone_support_hit_is_eliminated_if_one_step_DF6_LS():
    rules, s = battle({"10pz": "8213", "td": "8113"})
    s, log = play(rules, s, "axis", "attack 10pz 8113", [2])
    assert "Tank destroyers is eliminated." in log
    assert prompt_of(rules, s) == ("axis", "advance")


def test_lone_air_on_its_airfield_hit_is_eliminated_T10b_LS3():
    board = fixture_board(features={"8412": ["airfield_axis"]})
    rules, s = battle({"luft": "8412", "1arm": "8312"}, board, player="allied")
    s, log, _ = fight(rules, s, "attack 1arm 8412", [4])
    assert hex_of(s, "luft") == "dead"
    assert any("Luftwaffe is eliminated" in line for line in log)
    assert prompt_of(rules, s) == ("allied", "advance")


def test_lone_air_on_its_airfield_missed_goes_to_return_to_base_T10b_DF7():
    board = fixture_board(features={"8412": ["airfield_axis"]})
    rules, s = battle({"luft": "8412", "1arm": "8312"}, board, player="allied")
    s, log, _ = fight(rules, s, "attack 1arm 8412", [9])
    assert hex_of(s, "luft") == "rtb"
    assert prompt_of(rules, s) == ("allied", "advance")


def test_lone_air_missed_goes_to_return_to_base_under_either_ruling_DF7_R12():
    """L190: a lone air asset unsuccessfully attacked goes at once to its Return to Base
    box. That sentence is separate from the retreat of lone supports that R12 switches."""
    board = fixture_board(features={"8412": ["airfield_axis"]})
    rules, s = battle(
        {"luft": "8412", "1arm": "8312"},
        board,
        player="allied",
        options={"lone_sa_retreat_always": False},
    )
    s, log, _ = fight(rules, s, "attack 1arm 8412", [9])
    assert hex_of(s, "luft") == "rtb"


def test_lone_air_hit_on_its_airfield_cannot_escape_by_flying_to_its_own_hex_LS3():
    """L202: a lone air asset successfully attacked, e.g. on its airfield, is eliminated
    automatically; it is on the ground there, so it may not fly to its own defence."""
    board = fixture_board(features={"8412": ["airfield_axis"]})
    rules, s = battle({"luft": "8412", "1arm": "8312"}, board, player="allied")
    s, _, offered = fight(rules, s, "attack 1arm 8412", [4])
    assert "air luft" not in offered
    assert hex_of(s, "luft") == "dead"


def test_grounded_air_option_keeps_air_from_flying_to_its_own_hex_RT6_R32():
    """With ``air_defends_own_hex`` off, air based in the attacked hex stays on the ground,
    and L208 eliminates it when the stack must retreat (the default is in
    test_audit_rules.py)."""
    board = fixture_board(features={"8412": ["airfield_axis"]})
    rules, s = battle(
        {"luft": "8412", "x": "8412", "1arm": "8312"},
        board,
        player="allied",
        options={"air_defends_own_hex": False},
    )
    s, _, offered = fight(rules, s, "attack 1arm 8412", [4, 12])
    assert "air luft" not in offered
    assert hex_of(s, "luft") == "dead"
