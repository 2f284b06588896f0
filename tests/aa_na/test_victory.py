"""How the Campaign Is Won (L240-259): the victory levels at the end of round 14 (digest
T15), the draw and its tie-break, Instant Total Victory by elimination (L254); the Torch
landings of round 7 (L1034, L1052, digest T12); every role reads the same view."""

from __future__ import annotations

import pytest

from engine.core.dice import ScriptedDice
from engine.core.errors import IllegalOrder
from tests.aa_na.helpers import R, at, play, position, start


def last_turn(control, units=(), options=None):
    """The US's Phase 6 of RLP round 14, the last turn of the game."""
    s = position("us", "deploy", [("uk", "uk.infantry", "cairo", 2), ("ger", "ger.infantry", "tripoli", 1), *units],
                 control=control, round_=14)
    s.options.update(options or {})
    return play(s, "allies", "done")[0]


def test_t15_minor_against_minor_is_a_draw():
    s = last_turn({"tripoli": "ita", "mareth": "uk", "tobruk": "uk", "cairo": "uk"})
    assert s.over and s.winner is None and "draw" in s.result_text
    assert R.result(s).level == "draw"


def test_t15_the_draw_broken_by_the_rp_of_land_units_in_territories():
    s = last_turn({"tripoli": "ita", "mareth": "uk", "tobruk": "uk", "cairo": "uk"}, options={"break_draws": True})
    assert s.winner == "allies"  # 2 UK infantry (6 RP) against 1 German infantry (3 RP)
    assert "6 to 3" in s.result_text.replace("(3 to 6)", "") or "3 to 6" in s.result_text


def test_a_higher_level_beats_a_lower_one():
    """RLP: the Allies hold Tobruk and Tripoli (Major), the Axis Algiers (Minor) (L256-257)."""
    s = last_turn({"tripoli": "uk", "tobruk": "uk", "algiers": "ger", "cairo": "uk"})
    assert s.winner == "allies" and "Major Victory" in s.result_text


def test_nothing_reached_is_a_draw():
    s = last_turn({"cairo": "uk", "tobruk": "ger"})
    assert s.over and s.winner is None


def test_eliminating_the_last_enemy_combat_unit_in_north_africa_wins_at_once():
    """German units in Italy do not count: only territories of North Africa (RULINGS: A45)."""
    s = position("uk", "combat_move", [("uk", "uk.infantry", "el_alamein", 3), ("ger", "ger.infantry", "mersa_matruh", 1),
                                       ("ger", "ger.infantry", "italy", 4)],
                 supply={"el_alamein": 1, "mersa_matruh": 1}, control={"cairo": "uk", "tobruk": "ger"})
    s, _ = play(s, "allies", "declare el_alamein mersa_matruh")
    s, _ = play(s, "allies", "done")
    s, _ = play(s, "allies", "resolve mersa_matruh")
    s, _ = play(s, "axis", "fight", ScriptedDice([1, 9, 9, 9]))
    assert s.over and s.winner == "allies" and "Instant Total Victory" in s.result_text
    assert R.prompt(s).role is None


# ------------------------------------------------------------------ Operation Torch


def torch(vichy: int = 2, supply: int = 4):
    s = position("us", "combat_move", [("us", "us.infantry", "casablanca", 5), ("vichy", "fra.infantry", "casablanca", vichy),
                                       ("ger", "ger.infantry", "tripoli", 1)],
                 supply={"casablanca": supply}, control={"tripoli": "ita"}, round_=7)
    s.scenario_attacks = [{"target": "casablanca", "powers": ["us"], "controller_if_won": None}]
    return s


def test_the_torch_landing_forces_attack_only_where_they_landed():
    s = torch()
    before = R.dump_state(s)
    with pytest.raises(IllegalOrder) as e:
        play(s, "allies", "move 1 inf casablanca fez")
    assert "L1034" in e.value.rule and R.dump_state(s) == before


def test_t12_the_torch_attack_is_declared_by_the_scenario_and_the_vichy_surrender():
    """The L1079 example as the round-7 landing: no supply spent to declare; 1 hit, the
    Vichy miss twice and the survivor joins the Allies; the US takes Casablanca and both
    Allied markers go in its convoy zone (L1034)."""
    s = torch()
    s, ev = play(s, "allies", "done")
    assert [a["target"] for a in s.attacks] == ["casablanca"] and s.supply["casablanca"] == 4
    s, _ = play(s, "allies", "resolve casablanca", ScriptedDice([1, 5, 6, 8, 9, 6, 7]))
    assert s.battle is None and s.control["casablanca"] == "us"
    assert at(s, "casablanca") == {"us.infantry": 5, "fra.infantry": 1}
    assert s.convoy_markers["casablanca_csz"] == ["uk", "us"]


def test_the_torch_attack_presses_on_with_every_unit_paying_from_the_landed_supply():
    """Round 1: the attackers miss and the Vichy hit once, so the landing force presses on
    by itself, paying 1 of its 4 tokens (L835, L1034); round 2: the Vichy miss and
    surrender."""
    s = torch(vichy=2)
    s, _ = play(s, "allies", "done")
    dice = ScriptedDice([9, 9, 9, 9, 9, 1, 9] + [9, 9, 9, 9, 9, 9])
    s, ev = play(s, "allies", "resolve casablanca", dice)
    assert dice.remaining == [] and s.supply["casablanca"] == 3
    assert any("presses on" in e.text for e in ev)
    assert s.battle is None and s.control["casablanca"] == "us"
    assert at(s, "casablanca") == {"us.infantry": 4, "fra.infantry": 2}


def test_a_landing_force_that_cannot_pay_to_press_is_lost():
    s = torch(vichy=2, supply=0)
    s, _ = play(s, "allies", "done")
    s, ev = play(s, "allies", "resolve casablanca", ScriptedDice([9, 9, 9, 9, 9, 1, 9]))
    assert s.battle is None and at(s, "casablanca") == {"fra.infantry": 2}
    assert any("A36" in e.text for e in ev)


def test_every_role_and_the_public_read_the_same_view():
    """Nothing in the rules is hidden: pieces, markers, supply, mines and the Reinforcements
    Zone are on the table (RULINGS: hidden information)."""
    for players, roles in ((2, ("axis", "allies")), (4, ("germany", "italy", "uk", "us"))):
        s = start("ot", players)
        views = [R.view(s, r) for r in roles]
        assert all(v == R.view(s, None) for v in views)
        assert R.invariant_problems(s) == []


def test_invariant_problems_name_what_can_never_be_true():
    s = start("rlp")
    assert R.invariant_problems(s) == []
    bad = s.clone()
    bad.new_unit("uk.destroyer", "uk", "cairo")
    for _ in range(9):
        bad.new_unit("uk.infantry", "uk", "tobruk")
    bad.units[0].airborne = True
    bad.control["siwa"] = "uk"
    bad.supply["tobruk"] = -1
    bad.sea_mines = {"sz5": {"uk": 7}, "sz6": {"ger": -1}}
    text = " | ".join(R.invariant_problems(bad))
    for part in ("a sea unit, is on land", "tobruk: allies over the stacking limit", "still in the air",
                 "control marker on siwa", "negative supply in tobruk", "7 sea mine tokens of allies",
                 "negative sea mines in sz6"):
        assert part in text, part
