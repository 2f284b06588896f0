"""PFV 16 Patton in command, PFV 17 Rommel recalled, PFV 4 Winning (digest T14, T15; PT-,
RM-, V- rules, RULINGS R1, R22-R25).

The end of a game turn is reached the way play reaches it: the Allied player ends his
replacement phase ('done' in phase 'replace'), his supply is checked, and then the
end-of-turn rolls are made with the scripted dice. The fixture's turn track has 8 turns.
"""

import pytest

from tests.pfv.fixtures import counter, fixture_board, fixture_counters, play, scene
from tests.pfv.helpers import hex_of, legal, prompt_of, refused, stack


def ii_corps(id_, name, full, reduced):
    """A II Corps unit and its two-star version (PFV 16)."""
    return [
        counter(
            id_,
            "allied",
            "unit",
            name,
            combat=full,
            reduced=reduced,
            move=4,
            tags=["ii_corps"],
            upgrade_to=f"{id_}2",
        ),
        counter(
            f"{id_}2",
            "allied",
            "unit",
            f"{name}**",
            combat=full + 1,
            reduced=reduced + 1,
            move=4,
            tags=["ii_corps", "two_star"],
        ),
    ]


EXTRA = [
    *ii_corps("1inf", "1st Infantry", 4, 2),
    *ii_corps("9th", "9th Infantry", 3, 2),
    *ii_corps("3rd", "3rd Infantry", 3, 2),
]
PORTS = ("8308", "8509", "8611", "8715", "8419")  # Bizerte, Tunis, Sousse, Sfax, Gabes
FEATURES = {
    "7712": ["airfield_allied", "village"],
    "7609": ["village"],
    "7509": ["village"],
    "7611": ["village"],
    "8412": ["airfield_axis"],
    "7914": ["crest_ii_corps"],
    "8014": ["crest_ii_corps"],
    "8113": ["crest_ii_corps"],
    **{h: ["port"] for h in PORTS},
}


def board():
    return fixture_board(features=FEATURES, counters=fixture_counters(extra=EXTRA))


def end_of_game_turn(where, dice, turn=2, patton_arrived=False, **kw):
    """The Allied player ends phase 7 of game turn ``turn``; returns the log."""
    rules, s = scene(board(), where, phase="replace", player="allied", turn=turn, **kw)
    s.patton_arrived = patton_arrived
    s, log = play(rules, s, "allied", "done", dice)
    return rules, s, log


# -- PFV 7: the turn sequence ------------------------------------------------------------------


def test_game_turn_is_axis_then_allied_then_the_end_of_turn_rolls_PFV7():
    """With nothing to decide, 'done' in movement runs through combat, Return to Base,
    replacements and supply; after the Allied player turn Patton is rolled for."""
    rules, s = scene(board(), {"10pz": "8412", "1arm": "7712"}, player="axis", turn=1)
    s, log = play(rules, s, "axis", "done")
    assert log[0] == "The Axis movement phase ends."
    assert log[-1] == "Game turn 1 (T1): the Allied player turn begins."
    assert (s.turn, s.player, s.phase) == (1, "allied", "move")
    s, log = play(rules, s, "allied", "done", [12])
    assert any(line.startswith("Patton's arrival: the Allies roll 12") for line in log)
    assert log[-1] == "Game turn 2 (T2): the Axis player turn begins."
    assert (s.turn, s.player, s.phase) == (2, "axis", "move")


# -- PFV 16: Patton in command (T14) ---------------------------------------------------------


T14 = {
    "1arm": "8113",
    "td": "8113",  # full, with its tank destroyers
    "1inf": "7914",  # reduced
    "bg_allied_1": "8014",  # what is left of the 34th
    "9th": "7712",  # in Algeria: not counted
    "z": "7612",  # an Axis unit whose ZOC covers the village 7611
    "10pz": "8412",
}


def t14(dice, turn=2, **kw):
    rules, s = scene(
        board(),
        T14,
        phase="replace",
        player="allied",
        turn=turn,
        reduced=("1inf",),
        dead=("34th", "3rd"),
        **kw,
    )
    s.pieces["bg_allied_1"].origin = "34th"
    s, log = play(rules, s, "allied", "done", dice)
    return rules, s, log


def test_patton_roll_over_the_ii_corps_units_in_tunisia_fails_T14_PT1():
    rules, s, log = t14([4])
    assert (
        "Patton's arrival: the Allies roll 4, needing 3 or less (II Corps units in Tunisia): not yet."
        in log
    )
    assert not s.patton_arrived and hex_of(s, "patton") == "pool"
    assert (s.turn, s.player, s.phase) == (3, "axis", "move")


def test_patton_arrives_on_a_roll_at_or_under_the_count_T14_PT1_PT3():
    rules, s, log = t14([3])
    assert "he arrives" in log[1]
    assert prompt_of(rules, s) == ("allied", "place")
    assert legal(rules, s) == {
        "place patton 8113",
        "place patton 7914",
        "place patton 8014",
        "place patton 7712",
    }
    s, log = play(rules, s, "allied", "place patton 8113")
    assert stack(s, "8113") == {"1arm2", "td2", "patton"}  # 1 unit + 2 supports


def test_ii_corps_battlegroups_count_for_patton_by_ruling_R23():
    rules, s, log = t14([3], options={"bg_counts_as_ii_corps": False})
    assert "needing 2 or less" in log[1] and not s.patton_arrived


def test_arrival_swaps_every_ii_corps_piece_for_its_two_star_version_T14_PT4():
    rules, s, _ = t14([3])
    s, _ = play(rules, s, "allied", "place patton 8113")
    assert prompt_of(rules, s) == ("allied", "place")  # the 3rd** needs a village
    assert legal(rules, s) == {"place 3rd2 7609", "place 3rd2 7509"}
    err = refused(rules, s, "allied", "place 3rd2 7611")  # in the Axis unit's ZOC
    assert "(PFV 16)" in str(err)
    s, _ = play(rules, s, "allied", "place 3rd2 7509")
    swapped = {
        p: (hex_of(s, p), s.pieces[p].reduced)
        for p in ("1arm2", "td2", "1inf2", "34th2", "9th2", "3rd2")
    }
    assert swapped == {
        "1arm2": ("8113", False),  # full stays full
        "td2": ("8113", False),  # supports are swapped too
        "1inf2": ("7914", True),  # reduced stays reduced
        "34th2": ("8014", True),  # a battlegroup comes back as the reduced two-star unit
        "9th2": ("7712", False),  # wherever it stands
        "3rd2": ("7509", True),  # eliminated: reduced, in an Allied village
    }
    for old in ("1arm", "td", "1inf", "34th", "9th", "3rd"):
        assert hex_of(s, old) == "removed"
    assert hex_of(s, "bg_allied_1") == "pool"
    assert (s.turn, s.player, s.phase) == (3, "axis", "move")


def test_patton_arrives_anyway_at_the_end_of_game_turn_3_T14_PT2():
    rules, s, log = t14([12], turn=3)
    assert "he arrives anyway" in log[1]
    assert s.patton_arrived and prompt_of(rules, s) == ("allied", "place")


def test_no_roll_once_patton_has_arrived_PT1():
    rules, s, log = end_of_game_turn({"1arm": "8113", "10pz": "8412"}, [], patton_arrived=True)
    assert not any("Patton" in line for line in log)
    assert s.turn == 3


def test_patton_goes_only_to_a_hex_with_a_ii_corps_unit_PT3():
    rules, s, _ = t14([1])
    err = refused(rules, s, "allied", "place patton 7609")
    assert "(PFV 16)" in str(err)


# -- PFV 17: Rommel recalled (T15) ----------------------------------------------------------


def t15(turn, dice, entered=False, control=None, **kw):
    """Allied control of Gabes (8419), Sfax (8715) and Mareth (8519); Rommel with 10th
    Panzer at 8412. The ports count by control (option ``rommel_ports``); by default only
    ports an Allied unit occupies count (RULINGS R24, test_audit_rules.py)."""
    kw.setdefault("options", {})
    kw["options"] = {"rommel_ports": "controlled", **kw["options"]}
    where = {"10pz": "8412", "rommel": "8412", "1arm": "8113"}
    ctl = {"8419": "allied", "8715": "allied", "8519": "allied", **(control or {})}
    rules, s = scene(board(), where, phase="replace", player="allied", turn=turn, control=ctl, **kw)
    s.patton_arrived = True
    s.axis_entered_8th_army = entered
    s, log = play(rules, s, "allied", "done", dice)
    return rules, s, log


def test_no_rommel_roll_before_the_last_three_turns_T15_RM1():
    rules, s, log = t15(5, [])
    assert not any("Rommel" in line for line in log)
    assert hex_of(s, "rommel") == "8412" and s.turn == 6


def test_rommel_recalled_on_a_roll_at_or_under_allied_ports_with_mareth_modifier_T15_RM2_RM3():
    rules, s, log = t15(6, [3])
    assert log[1] == (
        "Rommel's recall: the Axis rolls 3 -1 (Mareth) = 2, recalled on 2 or less "
        "(Allied ports): Rommel is recalled."
    )
    assert hex_of(s, "rommel") == "removed" and s.rommel_recalled


def test_no_mareth_modifier_once_an_axis_unit_entered_the_8th_army_area_T15_RM2():
    rules, s, log = t15(6, [3], entered=True)
    assert "rolls 3 = 3, recalled on 2 or less" in log[1]
    assert hex_of(s, "rommel") == "8412"


def test_no_mareth_modifier_while_mareth_is_axis_RM2():
    rules, s, log = t15(7, [3], control={"8519": "axis"})
    assert hex_of(s, "rommel") == "8412"


def test_with_the_modifier_and_no_port_a_natural_1_recalls_rommel_RM3():
    rules, s, log = t15(6, [1], control={"8419": "axis", "8715": "axis"})
    assert "= 0, recalled on 0 or less" in log[1] and s.rommel_recalled


@pytest.mark.parametrize("ports, recalled", [("controlled", True), ("occupied", False)])
def test_ports_owned_by_control_or_occupation_by_option_R24(ports, recalled):
    rules, s, _ = t15(6, [3], options={"rommel_ports": ports})
    assert s.rommel_recalled == recalled


def test_rommel_is_rolled_for_on_the_last_turn_too_and_the_axis_then_wins_V3_R1_R25():
    rules, s, log = t15(8, [12])
    assert any(line.startswith("Rommel's recall: the Axis rolls 12") for line in log)
    assert s.winner == "axis" and s.phase == "over"
    assert log[-1] == "Axis victory. The Allies did not win by the end of game turn 8 (PFV 4)."
    assert rules.legal_orders(s) == []


def test_game_length_follows_the_last_turn_option_R2():
    rules, s, log = t15(4, [12], options={"last_turn": 4})
    assert s.winner == "axis"


def test_axis_unit_entering_an_8th_army_hex_spends_the_modifier_M13_R25():
    rules, s = scene(board(), {"x": "8619", "1arm": "8113"}, player="axis")
    s, log = play(rules, s, "axis", "move x 8719 8720")  # ends its move in 8720
    assert s.axis_entered_8th_army
    assert any("8th Army" in line for line in log)


@pytest.mark.parametrize(
    "transit, path, entered",
    [
        (True, "8719 8720 8620", True),
        (False, "8719 8720 8620", False),
        (False, "8719 8720", True),
        (True, "8718", False),
    ],
)
def test_transit_through_an_8th_army_hex_counts_by_ruling_R25(transit, path, entered):
    rules, s = scene(
        board(),
        {"x": "8619", "1arm": "8113"},
        player="axis",
        options={"rommel_flag_counts_transit": transit},
    )
    s, _ = play(rules, s, "axis", f"move x {path}")
    assert s.axis_entered_8th_army == entered


def test_allied_unit_entering_an_8th_army_hex_leaves_the_modifier_RM2():
    rules, s = scene(board(), {"1arm": "8619", "x": "8113"}, player="allied")
    s, _ = play(rules, s, "allied", "move 1arm 8719 8720")
    assert not s.axis_entered_8th_army


# -- PFV 4: winning --------------------------------------------------------------------------


def five_ports(moving_unit_path):
    where = {
        "1arm": "8308",
        "34th": "8509",
        "6arm": "8611",
        "para": "8715",
        "1inf": "8318",
        "10pz": "8817",
    }
    rules, s = scene(board(), where, player="allied", turn=7)
    return rules, play(rules, s, "allied", f"move 1inf {moving_unit_path}")


def test_allies_win_at_once_holding_all_five_ports_with_units_T15_V1_V2():
    rules, (s, log) = five_ports("8419")
    assert s.winner == "allied" and s.phase == "over"
    assert log[-1] == "Allied victory. The Allies hold all five ports (PFV 4)."
    refused(rules, s, "allied", "done")


def test_a_port_entered_and_left_is_not_captured_T15_V2():
    rules, (s, log) = five_ports("8419 8519")
    assert s.winner is None and s.phase == "move"


def test_ports_held_by_supports_alone_do_not_count_V2():
    where = {
        "1arm": "8308",
        "34th": "8509",
        "6arm": "8611",
        "para": "8715",
        "td": "8419",
        "1inf": "8318",
        "10pz": "8817",
    }
    rules, s = scene(board(), where, player="allied", turn=7)
    s, _ = play(rules, s, "allied", "move 1inf 8418")
    assert s.winner is None and s.phase == "move"


def test_allies_win_when_every_axis_piece_is_eliminated_V1_R1():
    rules, s = scene(board(), {"1arm": "8113", "z": "8213"}, phase="combat", player="allied")
    s, log = play(rules, s, "allied", "attack 1arm 8213", [2, 12])
    assert s.winner == "allied"
    assert log[-1] == "Allied victory. Every Axis piece has been eliminated (PFV 4)."


def test_axis_air_in_the_return_to_base_box_is_still_in_play_R1():
    rules, s = scene(
        board(), {"1arm": "8113", "z": "8213"}, phase="combat", player="allied", rtb=("luft",)
    )
    s, _ = play(rules, s, "allied", "attack 1arm 8213", [2, 12])
    assert s.winner is None and hex_of(s, "z") == "dead"


def test_no_order_is_taken_once_the_game_is_over_R1():
    rules, s = scene(board(), {"1arm": "8113", "z": "8213"}, phase="combat", player="allied")
    s, _ = play(rules, s, "allied", "attack 1arm 8213", [2, 12])
    err = refused(rules, s, "axis", "done")
    assert "(PFV 4)" in str(err)
