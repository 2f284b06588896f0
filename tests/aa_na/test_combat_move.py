"""Phase 3: combat moves of land units (L636-640) and attack declarations with their
supply cost (L694-722); the digest's test scenarios T1-T3."""

from __future__ import annotations

import pytest

from engine.core.errors import IllegalOrder
from tests.aa_na.helpers import R, at, play, position


def refused(s, role, text, rule_word):
    before = R.dump_state(s)
    with pytest.raises(IllegalOrder) as e:
        play(s, role, text)
    assert rule_word in e.value.rule, e.value.rule
    assert R.dump_state(s) == before
    return e.value


def t1(supply: dict[str, int]):
    """T1: 6 UK infantry and 1 artillery in Mersa Matruh, 2 German infantry in Tobruk."""
    return position(
        "uk", "combat_move",
        [("uk", "uk.infantry", "mersa_matruh", 6), ("uk", "uk.artillery", "mersa_matruh", 1),
         ("ger", "ger.infantry", "tobruk", 2)],
        supply=supply, control={"cairo": "uk", "tobruk": "ger"},
    )  # fmt: skip


def test_t1_seven_attackers_need_two_tokens():
    s = t1({"mersa_matruh": 1})
    e = refused(s, "allies", "declare mersa_matruh tobruk", "Supply")
    assert "costs 2 supply" in e.reason


def test_t1_five_attackers_pay_one_token_and_the_rest_stay_out():
    s = t1({"mersa_matruh": 1})
    s, ev = play(s, "allies", "declare mersa_matruh tobruk 4 inf 1 art")
    assert s.supply.get("mersa_matruh", 0) == 0
    (a,) = s.attacks
    assert (a["source"], a["target"], len(a["units"]), a["paid"]) == ("mersa_matruh", "tobruk", 5, 1)
    # the two infantry left out may not join later: they are no longer free to declare
    refused(s, "allies", "declare mersa_matruh tobruk 4 inf", "Declaration")
    assert "spending 1 supply" in ev[0].text


def test_t1_two_tokens_from_the_source_and_a_friendly_neighbour():
    s = t1({"mersa_matruh": 1, "el_alamein": 1})
    refused(s, "allies", "declare mersa_matruh tobruk pay mersa_matruh mersa_matruh", "Supply")
    refused(s, "allies", "declare mersa_matruh tobruk pay mersa_matruh mersa_matruh el_alamein", "Supply")
    s, _ = play(s, "allies", "declare mersa_matruh tobruk pay mersa_matruh el_alamein")
    assert s.supply == {} and s.attacks[0]["paid"] == 2


def test_supply_in_an_enemy_territory_is_not_ours():
    s = t1({"mersa_matruh": 1, "tobruk": 5})
    refused(s, "allies", "declare mersa_matruh tobruk pay mersa_matruh tobruk", "Supply")


def test_t2_scout_cars_alone_pay_nothing_and_may_not_pay():
    s = position("uk", "combat_move",
                 [("uk", "uk.scout_car", "siwa", 2), ("ger", "ger.infantry", "mersa_matruh", 1)],
                 supply={"siwa": 1}, control={"cairo": "uk"})
    refused(s, "allies", "declare siwa mersa_matruh pay siwa", "Supply")
    s, _ = play(s, "allies", "declare siwa mersa_matruh")
    assert s.attacks[0]["paid"] == 0 and s.supply == {"siwa": 1}


def test_t2_three_infantry_and_two_scouts_cost_one():
    s = position("uk", "combat_move",
                 [("uk", "uk.scout_car", "bir_hacheim", 2), ("uk", "uk.infantry", "bir_hacheim", 3),
                  ("ger", "ger.infantry", "mersa_matruh", 1)],
                 supply={"bir_hacheim": 1}, control={"cairo": "uk"})
    s, _ = play(s, "allies", "declare bir_hacheim mersa_matruh")
    assert s.attacks[0]["paid"] == 1 and len(s.attacks[0]["units"]) == 5


def test_attacking_an_empty_hostile_territory_costs_nothing():
    s = position("uk", "combat_move", [("uk", "uk.infantry", "agedabia", 1)],
                 supply={"agedabia": 1}, control={"benghazi": "ita", "cairo": "uk"})
    refused(s, "allies", "declare agedabia benghazi pay agedabia", "Supply")
    s, _ = play(s, "allies", "declare agedabia benghazi")
    assert s.attacks[0]["combat"] is False and s.supply == {"agedabia": 1}


def test_t3_move_one_units_cannot_combat_move():
    s = position("uk", "combat_move", [("uk", "uk.infantry", "el_alamein", 1), ("ger", "ger.infantry", "tobruk", 1)],
                 supply={"mersa_matruh": 1}, control={"cairo": "uk"})
    e = refused(s, "allies", "move 1 inf el_alamein mersa_matruh", "Land Unit Movement")
    assert "at most 0" in e.reason


def test_t3_a_move_two_tank_moves_one_and_attacks_not_two():
    s = position("ger", "combat_move",
                 [("ger", "ger.tank", "el_agheila", 1), ("uk", "uk.infantry", "benghazi", 1)],
                 supply={"el_agheila": 2}, control={"benghazi": "uk", "tripoli": "ita"})
    refused(s, "axis", "move 1 tank el_agheila agedabia derna", "Land Unit Movement")
    s, _ = play(s, "axis", "move 1 tank el_agheila agedabia")
    assert at(s, "agedabia") == {"ger.tank": 1}
    # it must now attack before the phase ends (L688)
    refused(s, "axis", "done", "Declaration")
    s, _ = play(s, "axis", "declare agedabia benghazi pay el_agheila")
    s, _ = play(s, "axis", "done")
    assert s.phase == "combat"


def test_land_units_may_not_move_through_or_into_hostile_territory():
    s = position("ger", "combat_move",
                 [("ger", "ger.tank", "el_agheila", 1), ("uk", "uk.infantry", "agedabia", 1)],
                 supply={"el_agheila": 2}, control={"tripoli": "ita"})
    e = refused(s, "axis", "move 1 tank el_agheila agedabia", "Land Unit Movement")
    assert "hostile" in e.reason


def test_a_move_must_end_in_attack_position_with_supply_in_reach():
    s = position("ger", "combat_move",
                 [("ger", "ger.tank", "sirte", 1), ("uk", "uk.infantry", "agedabia", 1)],
                 supply={}, control={"tripoli": "ita"})
    refused(s, "axis", "move 1 tank sirte el_agheila", "attack position")
    s.supply = {"sirte": 1}
    s, _ = play(s, "axis", "move 1 tank sirte el_agheila")


def test_aaa_and_trucks_never_combat_move():
    s = position("ger", "combat_move",
                 [("ger", "ger.truck", "el_agheila", 1), ("uk", "uk.infantry", "benghazi", 1)],
                 supply={"el_agheila": 2}, control={"tripoli": "ita", "benghazi": "uk"})
    refused(s, "axis", "move 1 truck el_agheila agedabia", "Land Unit Movement")


def test_only_scout_cars_enter_the_sahara():
    s = position("ger", "combat_move",
                 [("ger", "ger.tank", "zella", 1), ("ger", "ger.scout_car", "zella", 1),
                  ("uk", "uk.infantry", "kufra", 1)],
                 supply={"zella": 2}, control={"tripoli": "ita"})
    refused(s, "axis", "move 1 tank zella fezzan", "Spaces")
    refused(s, "axis", "declare zella kufra 1 tank", "Declaration")
    s, _ = play(s, "axis", "declare zella kufra 1 scout")
    assert s.attacks[0]["paid"] == 0


def test_west_of_the_white_line_is_closed_in_rlp_before_round_7():
    units = [("us", "us.tank", "oran", 1), ("vichy", "fra.infantry", "fez", 1), ("ger", "ger.infantry", "algiers", 1)]
    s = position("us", "combat_move", units, supply={"oran": 2}, round_=6)
    refused(s, "allies", "declare oran algiers", "Declaration")
    s.round = 8
    s, _ = play(s, "allies", "declare oran algiers")


def test_stacking_limit_at_the_end_of_a_move():
    units = [("ger", "ger.tank", "el_agheila", 2), ("ger", "ger.infantry", "agedabia", 7),
             ("uk", "uk.infantry", "benghazi", 1)]
    s = position("ger", "combat_move", units, supply={"agedabia": 2}, control={"benghazi": "uk"})
    s, _ = play(s, "axis", "move 1 tank el_agheila agedabia")
    e = refused(s, "axis", "move 1 tank el_agheila agedabia", "Stacking")
    assert "at most 8" in e.reason


def test_only_an_adjacent_territory_is_attacked():
    s = position("uk", "combat_move", [("uk", "uk.infantry", "tunis", 1), ("ger", "ger.infantry", "sicily", 1)],
                 supply={"tunis": 1}, round_=8)
    e = refused(s, "allies", "declare tunis sicily", "Declaration")
    assert "does not border" in e.reason


def test_a_territory_held_only_by_aaa_costs_no_supply_to_attack():
    """L734 treats a territory whose only combat units are AAA as no actual combat
    (RULINGS: A22), so its declaration pays nothing (L716)."""
    s = position("uk", "combat_move", [("uk", "uk.infantry", "derna", 1), ("ita", "ita.aaa", "benghazi", 1)],
                 supply={"derna": 1}, control={"cairo": "uk", "benghazi": "ita"})
    refused(s, "allies", "declare derna benghazi pay derna", "Supply")
    s, _ = play(s, "allies", "declare derna benghazi")
    assert s.attacks[0]["combat"] is False and s.supply == {"derna": 1}


def test_no_combat_move_after_the_first_declaration():
    s = position("ger", "combat_move",
                 [("ger", "ger.tank", "el_agheila", 1), ("ger", "ger.tank", "sirte", 1),
                  ("uk", "uk.infantry", "agedabia", 1)],
                 supply={"el_agheila": 2}, control={"tripoli": "ita"})
    s, _ = play(s, "axis", "declare el_agheila agedabia")
    refused(s, "axis", "move 1 tank sirte el_agheila", "L634")
    refused(s, "axis", "blitz 1 tank sirte zella", "L634")


def test_a_combat_move_ending_with_enemy_trucks_captures_them():
    s = position("ger", "combat_move",
                 [("ger", "ger.tank", "el_agheila", 1), ("uk", "uk.truck", "zella", 1),
                  ("uk", "uk.infantry", "agedabia", 1)],
                 supply={"el_agheila": 2}, control={"tripoli": "ita"})
    s, ev = play(s, "axis", "move 1 tank el_agheila zella")
    truck = next(u for u in s.units if u.type == "uk.truck")
    assert truck.power == "ger" and truck.captured and "capturing 1" in ev[0].text
