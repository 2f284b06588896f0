"""PFV 14 Retreating & advancing after combat, PFV 7 phase 5 (digest T05, T09; RT-, AD- rules).

T05: 10th Panzer in 8213 attacks the 1st Armored in 8113; its zone of control covers
8312 8313 8212 8112 8113 8214. The first hex of a retreat is next to 8113 (8013, 8014 or
8114: 8213 is the enemy, 8112 and 8214 are in its ZOC), the second two hexes from 8113.
"""

from tests.pfv.fixtures import fixture_board, play, scene
from tests.pfv.helpers import KEEP_FIGHTING, fight, hex_of, legal, prompt_of, refused, stack

T05_DESTINATIONS = {"7912", "7913", "7914", "8012", "8015", "8115", "8215"}


def t05(where=None, board=None, dice=(6, 7), **kw):
    """T05 up to the retreat: attack 6 <= 6 succeeds, defence 7 > 4 fails."""
    pieces = {"10pz": "8213", "1arm": "8113", **KEEP_FIGHTING, **(where or {})}
    rules, s = scene(board or fixture_board(), pieces, phase="combat", player="axis", **kw)
    s, log = play(rules, s, "axis", "attack 10pz 8113", list(dice))
    return rules, s, log


def retreat_destinations(rules, s, piece="1arm"):
    return {o.split()[-1] for o in legal(rules, s) if o.startswith(f"retreat {piece} ")}


def test_successful_attack_and_failed_defence_force_a_two_hex_retreat_T05_RT1_RT2():
    rules, s, log = t05()
    assert log[-1] == "1st Armored is reduced."
    assert prompt_of(rules, s) == ("allied", "retreat")
    assert legal(rules, s) == {
        "retreat 1arm 8013 8012",
        "retreat 1arm 8013 7912",
        "retreat 1arm 8013 7913",
        "retreat 1arm 8014 7913",
        "retreat 1arm 8014 7914",
        "retreat 1arm 8014 8015",
        "retreat 1arm 8114 8215",
        "retreat 1arm 8114 8015",
        "retreat 1arm 8114 8115",
    }
    assert retreat_destinations(rules, s) == T05_DESTINATIONS


def test_retreat_through_an_enemy_zoc_is_refused_T05_RT3():
    rules, s, _ = t05()
    err = refused(rules, s, "allied", "retreat 1arm 8214 8215")
    assert "(PFV 14)" in str(err) and "Legal destinations" in str(err)


def test_retreat_must_end_exactly_two_hexes_away_RT2():
    rules, s, _ = t05()
    refused(rules, s, "allied", "retreat 1arm 8014")  # one hex
    refused(rules, s, "allied", "retreat 1arm 8014 8113")  # back to the battle hex


def test_retreat_by_destination_only_picks_a_legal_path_RT2():
    rules, s, _ = t05()
    s, log = play(rules, s, "allied", "retreat 1arm 7914")
    assert hex_of(s, "1arm") == "7914"
    assert log[0] == "1st Armored (reduced) retreats 8113 → 8014 → 7914."  # 8014 is the only way


def test_friendly_pieces_do_not_negate_enemy_zoc_for_retreats_T09_RT3_Z7_RT5():
    """T09: Axis units in 8213 (the attacker), 7913 and 8115; an Allied unit in 8014. Every
    first hex is enemy or in an enemy ZOC (8014 too, despite the friend in it), so the 1st
    Armored is eliminated where it stands, with no battlegroup."""
    rules, s, log = t05({"x": "7913", "y": "8115", "34th": "8014"})
    assert log[-1] == (
        "1st Armored (reduced) is eliminated in place: it has no legal two-hex retreat (PFV 14)."
    )
    assert hex_of(s, "1arm") == "dead" and hex_of(s, "bg_allied_1") == "pool"
    assert prompt_of(rules, s) == ("axis", "advance")  # 8113 is empty


def test_retreat_may_pass_through_but_not_end_on_a_friendly_unit_RT4():
    rules, s, _ = t05({"34th": "8013", "para": "8012"})
    dests = retreat_destinations(rules, s)
    assert "8012" not in dests  # the Para Brigade is there: two units would share a hex
    assert {"7912", "7913"} <= dests  # through 8013, where the 34th stands
    refused(rules, s, "allied", "retreat 1arm 8013 8012")


def test_retreat_may_end_with_friendly_supports_within_the_stacking_limit_RT4():
    rules, s, _ = t05({"td": "7913", "arty": "7914", "patton": "7914"})
    dests = retreat_destinations(rules, s)
    assert "7913" in dests  # one unit with one support: legal
    assert "7914" in dests  # one unit with two supports: legal
    rules, s, _ = t05({"td": "8012", "arty": "8012", "patton": "8012"})
    assert "8012" not in retreat_destinations(rules, s)  # three ground supports


def test_retreat_never_enters_enemy_pieces_prohibited_terrain_or_impassable_sides_RT3_R33():
    board = fixture_board(
        terrain={"8012": ["marsh"]}, sea=("7912",), hexsides={"8014|8015": ["impassable"]}
    )
    rules, s, _ = t05({"88s": "8115"}, board=board)
    assert retreat_destinations(rules, s) == {"7913", "7914", "8015", "8215"}
    # 8015 is still reached through 8114; 8115 holds an enemy support asset
    assert "retreat 1arm 8014 8015" not in legal(rules, s)


def test_only_legal_path_is_taken_automatically_R35():
    """Marsh in every T05 destination but 8215: the one retreat left is made at once."""
    marsh = {h: ["marsh"] for h in T05_DESTINATIONS - {"8215"}}
    rules, s, log = t05(board=fixture_board(terrain=marsh))
    assert log[-1] == "1st Armored (reduced) retreats 8113 → 8114 → 8215."
    assert hex_of(s, "1arm") == "8215" and prompt_of(rules, s) == ("axis", "advance")


def test_lone_support_with_nowhere_to_retreat_is_eliminated_RT5_DF6():
    rules, s = scene(
        fixture_board(),
        {"10pz": "8213", "td": "8113", "x": "7913", "y": "8115", **KEEP_FIGHTING},
        phase="combat",
        player="axis",
    )
    s, log = play(rules, s, "axis", "attack 10pz 8113", [11])  # missed, yet it must retreat
    assert (
        "Tank destroyers is eliminated in place: it has no legal two-hex retreat (PFV 14)." in log
    )
    assert hex_of(s, "td") == "dead"


def test_each_piece_of_the_hex_retreats_on_its_own_path_RT2():
    rules, s, _ = t05({"td": "8113"})
    assert prompt_of(rules, s) == ("allied", "loss")
    s, _ = play(rules, s, "allied", "loss 1arm")
    assert prompt_of(rules, s) == ("allied", "retreat")
    s, _ = play(rules, s, "allied", "retreat td 8013 7912")
    s, _ = play(rules, s, "allied", "retreat 1arm 8114 8115")
    assert (hex_of(s, "td"), hex_of(s, "1arm")) == ("7912", "8115")
    assert prompt_of(rules, s) == ("axis", "advance")


def test_air_on_its_airfield_with_a_retreating_unit_is_eliminated_RT6_R32():
    board = fixture_board(features={"8113": ["airfield_allied"]})
    rules, s = scene(
        board,
        {"10pz": "8213", "1arm": "8113", "spit": "8113", **KEEP_FIGHTING},
        phase="combat",
        player="axis",
    )
    s, log, _ = fight(rules, s, "attack 10pz 8113", [6, 7])
    assert "Spitfires is eliminated: air on an airfield cannot retreat (PFV 14)." in log
    assert hex_of(s, "spit") == "dead"


def test_no_retreat_when_the_defence_also_succeeds_RT1():
    rules, s, _ = t05(dice=(6, 4))
    assert hex_of(s, "1arm") == "8113" and s.battle is None
    assert s.pieces["10pz"].reduced and s.pieces["1arm"].reduced


# -- PFV 7 phase 5, PFV 14: advance after combat ----------------------------------------------


def test_attacker_may_advance_into_the_emptied_hex_for_free_T05_AD1():
    rules, s, _ = t05()
    s, _ = play(rules, s, "allied", "retreat 1arm 8014 7914")
    assert prompt_of(rules, s) == ("axis", "advance")
    assert legal(rules, s) == {"advance none", "advance 10pz"}
    s, log = play(rules, s, "axis", "advance 10pz")
    assert log[0].startswith("10th Panzer advance") and log[0].endswith("into 8113.")
    assert hex_of(s, "10pz") == "8113" and s.battle is None
    assert s.control["8113"] == "axis"


def test_advance_is_never_compulsory_AD2():
    rules, s, _ = t05()
    s, _ = play(rules, s, "allied", "retreat 1arm 8014 7914")
    s, log = play(rules, s, "axis", "advance none")
    assert log[0] == "10th Panzer does not advance."
    assert hex_of(s, "10pz") == "8213" and s.battle is None


def test_advance_must_be_decided_before_the_next_attack_T05_AD2_C9():
    rules, s, _ = t05({"x": "8313", "34th": "8314"})
    s, _ = play(rules, s, "allied", "retreat 1arm 8014 7914")
    err = refused(rules, s, "axis", "attack x 8314")
    assert "(PFV 7)" in str(err) and "advance" in str(err)


def test_supports_advance_only_with_their_unit_AD1_R13():
    rules, s, _ = t05({"88s": "8213", "rommel": "8213"}, dice=(4, 7))
    s, _ = play(rules, s, "allied", "retreat 1arm 8014 7914")
    assert legal(rules, s) == {
        "advance none",
        "advance 10pz",
        "advance 10pz 88s",
        "advance 10pz rommel",
        "advance 10pz 88s rommel",
    }
    err = refused(rules, s, "axis", "advance 88s")
    assert "(PFV 14)" in str(err)
    s, _ = play(rules, s, "axis", "advance 10pz 88s")
    assert stack(s, "8113") == {"10pz", "88s"} and stack(s, "8213") == {"rommel"}


def test_only_the_attacking_unit_may_advance_AD1():
    rules, s, _ = t05({"x": "8014"})  # X is next to 8113 but did not attack
    assert hex_of(s, "1arm") == "dead"  # X holds 8014 and its ZOC covers 8013 and 8114
    err = refused(rules, s, "axis", "advance x")
    assert "(PFV 14)" in str(err)


def test_no_advance_while_the_defending_hex_is_occupied_AD1():
    rules, s, _ = t05(dice=(12, 12))
    assert s.battle is None and prompt_of(rules, s) == ("axis", "attack")


def test_advance_ignores_enemy_zoc_AD1():
    rules, s, _ = t05({"34th": "8014"})  # 8113 is in the 34th's zone of control
    s, _ = play(rules, s, "allied", "retreat 1arm 8114 8115")
    s, _ = play(rules, s, "axis", "advance 10pz")
    assert hex_of(s, "10pz") == "8113"
