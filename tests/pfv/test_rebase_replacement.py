"""PFV 7 phase 6 (Return to Base) and phase 7 (Replacements) (digest T12; R-, P- rules).

T12, an Axis player turn: the Axis Return to Base box holds the Luftwaffe and the Regia
Aeronautica, the Allied box the P-38s. Axis airfields 8412 (empty), 8715 (Stukas) and 8419
(captured by the Allies); Allied airfields 7613 (Spitfires) and 7712 (empty).
"""

import pytest

from tests.pfv.fixtures import counter, fixture_board, fixture_counters, play, scene
from tests.pfv.helpers import hex_of, legal, prompt_of, refused

STUKAS = counter("ju87", "axis", "air", "Stukas", modifier=2, rng=12, symbol="air")
AIRFIELDS = {
    "8412": ["airfield_axis"],
    "8715": ["airfield_axis"],
    "8419": ["airfield_axis"],
    "7613": ["airfield_allied"],
    "7712": ["airfield_allied"],
}


def board(features=None):
    return fixture_board(
        features={**AIRFIELDS, **(features or {})}, counters=fixture_counters(extra=[STUKAS])
    )


def t12_rtb(player="axis", where=None, control=None, **kw):
    """T12 at the end of the Axis combat phase: 'done' starts Return to Base."""
    pieces = {
        "ju87": "8715",
        "spit": "7613",
        "10pz": "8213",
        "1arm": "8618",
        "y": "8617",
        **(where or {}),
    }
    rules, s = scene(
        board(),
        pieces,
        phase="combat",
        player=player,
        rtb=("luft", "regia", "p38"),
        control={"8419": "allied", **(control or {})},
        **kw,
    )
    s.attacked.add("y")  # its attack is spent: the combat phase may end
    s, _ = play(rules, s, player, "done")
    return rules, s


# -- phase 6: Return to Base ------------------------------------------------------------------


def test_phasing_player_rebases_first_T12_R1():
    """PFV 7 phase 6: the attacking (phasing) player returns his air before the other."""
    rules, s = t12_rtb()
    assert prompt_of(rules, s) == ("axis", "rebase")
    err = refused(rules, s, "allied", "rebase p38 7712")
    assert "(PFV 7)" in str(err)


def test_excess_air_without_a_free_airfield_is_eliminated_T12_R3():
    """Only 8412 is free for the Axis (8715 holds the Stukas, 8419 is Allied): the owner
    picks which air asset keeps it, and the other is eliminated."""
    rules, s = t12_rtb()
    assert legal(rules, s) == {"rebase luft 8412", "rebase regia 8412"}
    s, log = play(rules, s, "axis", "rebase luft 8412")
    assert log == [
        "Luftwaffe returns to base at 8412.",
        "Regia Aeronautica is eliminated: no free friendly airfield is left for it (PFV 7 phase 6).",
    ]
    assert hex_of(s, "luft") == "8412" and hex_of(s, "regia") == "dead"
    assert prompt_of(rules, s) == ("allied", "rebase")  # then the other player


def test_one_air_asset_per_airfield_T12_R2():
    rules, s = t12_rtb()
    s, _ = play(rules, s, "axis", "rebase luft 8412")
    err = refused(rules, s, "allied", "rebase p38 7613")  # the Spitfires are based there
    assert "(PFV 7)" in str(err) and "7712" in str(err)
    s, _ = play(rules, s, "allied", "rebase p38 7712")
    assert hex_of(s, "p38") == "7712"
    assert s.phase != "rtb"  # Return to Base is over


def test_air_may_return_to_any_friendly_airfield_including_a_captured_one_R1_R17():
    rules, s = t12_rtb()
    s, _ = play(rules, s, "axis", "rebase luft 8412")
    assert legal(rules, s) == {"rebase p38 7712", "rebase p38 8419"}
    s, _ = play(rules, s, "allied", "rebase p38 8419")
    assert hex_of(s, "p38") == "8419"


def test_own_silhouette_ruling_keeps_air_off_captured_airfields_R17():
    rules, s = t12_rtb(options={"airfield_use": "own_silhouette"})
    s, _ = play(rules, s, "axis", "rebase luft 8412")
    assert legal(rules, s) == {"rebase p38 7712"}
    refused(rules, s, "allied", "rebase p38 8419")


def test_airfield_taken_by_an_enemy_unit_is_not_friendly_any_more_T10b_R1_R17():
    """An Allied unit advanced into the Axis airfield 8412: with 8715 full and 8419 lost,
    the Axis air in the box has nowhere to go and is eliminated."""
    rules, s = t12_rtb(where={"1arm": "8412"}, control={"8412": "allied"})
    assert hex_of(s, "luft") == "dead" and hex_of(s, "regia") == "dead"
    assert prompt_of(rules, s) == ("allied", "rebase")


def test_air_may_return_to_an_airfield_in_enemy_zoc_R16():
    rules, s = t12_rtb(where={"1arm": "8413"})  # next to 8412
    s, _ = play(rules, s, "axis", "rebase luft 8412")
    assert hex_of(s, "luft") == "8412"


# -- phase 7: Replacements ---------------------------------------------------------------------


def t12_replace(player="axis", where=None, **kw):
    """Phase 7 with villages 7609 and 7611 in Algeria (Allied) and 8510 in Tunisia (Axis);
    the 6th Armoured in 8315 puts 8215 in an Allied zone of control."""
    pieces = {
        "ju87": "8715",
        "spit": "7613",
        "10pz": "8213",
        "15pz": "8215",
        "6arm": "8315",
        "1arm": "8618",
        **(where or {}),
    }
    villages = {h: ["village"] for h in ("7609", "7611", "8510")} | {"8611": ["port"]}
    rules, s = scene(board(villages), pieces, phase="replace", player=player, **kw)
    s.replacements_left = rules.board.scenario.replacements[player]  # set as phase 7 begins
    return rules, s


def test_reduced_unit_in_enemy_zoc_cannot_be_rebuilt_T12_P3():
    rules, s = t12_replace(reduced=("10pz", "15pz"))
    err = refused(rules, s, "axis", "rebuild 15pz")  # the 6th Armoured is in 8315
    assert "enemy zone of control" in str(err) and "(PFV 7)" in str(err)
    assert "rebuild 15pz" not in legal(rules, s) and "rebuild 10pz" in legal(rules, s)


def test_reduced_unit_in_enemy_zoc_with_a_friend_in_its_hex_still_cannot_be_rebuilt_Z5():
    rules, s = t12_replace(where={"88s": "8215"}, reduced=("15pz", "10pz"))
    refused(rules, s, "axis", "rebuild 15pz")


def test_axis_rebuilds_one_reduced_unit_and_its_turn_moves_on_T12_P1():
    rules, s = t12_replace(reduced=("10pz",), dead=("88s",))
    assert legal(rules, s) == {"rebuild 10pz", "replace 88s 8510", "replace 88s 8611", "done"}
    s, log = play(rules, s, "axis", "rebuild 10pz")
    assert log[0] == "10th Panzer is rebuilt to full strength in 8213."
    assert not s.pieces["10pz"].reduced
    assert (s.player, s.phase) == ("allied", "move")  # capacity 1 used: supply, next turn
    refused(rules, s, "axis", "replace 88s 8510")
    assert hex_of(s, "88s") == "dead"


def test_allies_replace_two_pieces_in_any_mix_T12_P1():
    rules, s = t12_replace("allied", {"x": "8516"}, reduced=("1arm",), dead=("td", "p38"))
    s, _ = play(rules, s, "allied", "replace td 7609")
    assert s.phase == "replace" and s.replacements_left == 1
    s, log = play(rules, s, "allied", "replace p38 7712", [12])  # then Patton's roll
    assert "P-38s returns to play in 7712." in log
    assert hex_of(s, "td") == "7609" and hex_of(s, "p38") == "7712"
    assert not s.pieces["p38"].reduced  # back at full strength (RULINGS R18)
    assert s.pieces["1arm"].reduced  # no third replacement
    assert (s.turn, s.player, s.phase) == (2, "axis", "move")


def test_unused_replacement_capacity_is_lost_P1():
    rules, s = t12_replace(reduced=("10pz",))
    s, _ = play(rules, s, "axis", "done")
    assert (s.player, s.phase) == ("allied", "move") and s.pieces["10pz"].reduced


def test_eliminated_unit_never_returns_T12_P2():
    rules, s = t12_replace(dead=("x", "88s"))
    err = refused(rules, s, "axis", "replace x 8510")
    assert "eliminated unit may never return" in str(err) and "(PFV 7)" in str(err)
    err = refused(rules, s, "axis", "rebuild x")
    assert "never returns" in str(err)
    assert legal(rules, s) == {"replace 88s 8510", "replace 88s 8611", "done"}


def test_battlegroup_has_nothing_to_rebuild_P2():
    rules, s = t12_replace(where={"bg_axis_1": "8516"}, reduced=("10pz",))
    err = refused(rules, s, "axis", "rebuild bg_axis_1")
    assert "battlegroup" in str(err)


def test_reduced_two_sided_support_flips_back_in_place_even_in_enemy_zoc_P4_R18():
    rules, s = t12_replace("allied", {"p38": "7712", "x": "7812"}, reduced=("p38", "1arm"))
    assert "rebuild p38" in legal(rules, s)
    s, _ = play(rules, s, "allied", "rebuild p38")
    assert not s.pieces["p38"].reduced and hex_of(s, "p38") == "7712"


def test_replaced_air_goes_to_a_free_friendly_airfield_outside_enemy_zoc_P5():
    rules, s = t12_replace("allied", {"x": "7812"}, dead=("p38",))  # x's ZOC covers 7712
    err = refused(rules, s, "allied", "replace p38 7712")
    assert "(PFV 7)" in str(err)
    refused(rules, s, "allied", "replace p38 7613")  # the Spitfires are there
    refused(rules, s, "allied", "replace p38 8715")  # an Axis airfield
    assert not any(o.startswith("replace p38") for o in legal(rules, s))


def test_replaced_ground_support_goes_to_an_owned_village_outside_enemy_zoc_P6():
    rules, s = t12_replace("allied", {"x": "7710"}, dead=("td",))  # x's ZOC covers 7611
    assert {o for o in legal(rules, s) if o.startswith("replace td")} == {"replace td 7609"}
    refused(rules, s, "allied", "replace td 7611")  # in enemy ZOC
    refused(rules, s, "allied", "replace td 8510")  # an Axis village
    refused(rules, s, "allied", "replace td 7612")  # not a village or port


def test_support_with_no_eligible_hex_cannot_be_replaced_P7():
    rules, s = t12_replace("allied", {"x": "7710", "y": "7608"}, dead=("td",))
    err = refused(rules, s, "allied", "replace td 7609")
    assert "cannot be replaced this turn" in str(err)


def test_recalled_rommel_is_never_replaced_P8_PFV17():
    rules, s = t12_replace(reduced=("10pz",))
    s.pieces["rommel"].where, s.rommel_recalled = "removed", True
    err = refused(rules, s, "axis", "replace rommel 8510")
    assert "(PFV 17)" in str(err)


@pytest.mark.parametrize("piece, hex_id", [("88s", "8510"), ("rommel", "8611")])
def test_eliminated_support_returns_to_an_owned_village_or_port_P4_P6(piece, hex_id):
    """Any eliminated support, a general included, comes back as one replacement."""
    rules, s = t12_replace(dead=(piece,), reduced=("10pz",))
    s, log = play(rules, s, "axis", f"replace {piece} {hex_id}")
    assert hex_of(s, piece) == hex_id and not s.pieces[piece].reduced
