"""Land combat (Phase 4, L724-865) with scripted d10 dice: the rulebook's Casablanca
example (L1079), and the digest's scenarios T4 (flanking), T5 (no supply, no fight) and
T6 (retreats)."""

from __future__ import annotations

import pytest

from engine.core.dice import ScriptedDice
from engine.core.errors import IllegalOrder
from tests.aa_na.helpers import R, at, play, position


def refused(s, role, text, rule_word):
    before = R.dump_state(s)
    with pytest.raises(IllegalOrder) as e:
        play(s, role, text)
    assert rule_word in e.value.rule, e.value.rule
    assert R.dump_state(s) == before
    return e.value


def test_l1079_vichy_that_score_no_hit_surrender_and_become_free_french():
    """5 US infantry attack 2 Vichy infantry in Casablanca; the US rolls 1, 5, 6, 8, 9:
    one hit. Germany rolls 6 and 7: no hit. The survivor joins the Allies as Free French,
    and the US takes Casablanca."""
    s = position("us", "combat_move", [("us", "us.infantry", "fez", 5), ("vichy", "fra.infantry", "casablanca", 2)],
                 supply={"fez": 1}, control={}, round_=8)
    s, _ = play(s, "allies", "declare fez casablanca")
    s, _ = play(s, "allies", "done")
    dice = ScriptedDice([1, 5, 6, 8, 9, 6, 7])
    s, ev = play(s, "allies", "resolve casablanca", dice)
    assert dice.remaining == []
    assert s.battle is None and s.control["casablanca"] == "us"
    assert at(s, "casablanca") == {"fra.infantry": 1, "us.infantry": 5}
    assert next(u for u in s.units if u.type == "fra.infantry").power == "free_french"
    assert s.convoy_markers["casablanca_csz"] == ["uk", "us"]  # the route opens (L857)
    assert any("surrender" in e.text for e in ev)


def mersa_matruh(supply):
    """The UK attacks 2 German infantry in Mersa Matruh: 3 infantry from El Alamein (the
    main attack) and 2 infantry from Bir Hacheim (flanking, L813)."""
    return position(
        "uk", "combat_move",
        [("uk", "uk.infantry", "el_alamein", 3), ("uk", "uk.infantry", "bir_hacheim", 2),
         ("ger", "ger.infantry", "mersa_matruh", 2)],
        supply=supply, control={"cairo": "uk", "tobruk": "ger"},
    )  # fmt: skip


def declare_both(s):
    s, _ = play(s, "allies", "declare el_alamein mersa_matruh")
    s, _ = play(s, "allies", "declare bir_hacheim mersa_matruh")
    s, _ = play(s, "allies", "done")
    return s


def test_t4_flanking_units_reroll_8_9_and_10_and_the_main_attack_does_not():
    s = declare_both(mersa_matruh({"el_alamein": 1, "bir_hacheim": 1, "tobruk": 3}))
    # the defenders fight, paying 1 supply from Tobruk (friendly and adjacent, L763)
    s, _ = play(s, "allies", "resolve mersa_matruh")
    assert R.prompt(s).kind == "orders" and R.prompt(s).role == "axis"
    # main attack (El Alamein) 9 9 9: misses; flank 10 -> 8 -> 2 hit, 9 -> 5 miss (digest T4)
    dice = ScriptedDice([9, 9, 9, 10, 8, 2, 9, 5, 10, 10])
    s, ev = play(s, "axis", "fight tobruk", dice)
    assert s.supply["tobruk"] == 2
    assert dice.remaining == []
    text = " ".join(e.text for e in ev)
    assert "1 hit(s)" in text and "takes 1 Infantry as casualties" in text
    assert R.prompt(s).kind == "press" and at(s, "mersa_matruh") == {"ger.infantry": 1}


def test_t5_defenders_without_supply_must_retreat_and_are_fired_on():
    s = declare_both(mersa_matruh({"el_alamein": 1, "bir_hacheim": 1}))
    # no supply within reach of Mersa Matruh for the Axis: they must retreat (L765) and
    # are still fired on (3 main, 2 flanking): one hit. Bir Hacheim and El Alamein attack
    # this turn, so the survivor may go only to Siwa (neutral) or Tobruk (L769, L821).
    dice = ScriptedDice([1, 9, 9, 5, 6])
    s, ev = play(s, "allies", "resolve mersa_matruh", dice)
    assert dice.remaining == []
    assert R.prompt(s).kind == "retreat" and R.prompt(s).role == "axis"
    e = refused(s, "axis", "retreat bir_hacheim", "Retreats")
    assert "Siwa" in e.legal and "Tobruk" in e.legal
    s, _ = play(s, "axis", "retreat tobruk")
    assert at(s, "tobruk") == {"ger.infantry": 1}
    # every defender gone: the attackers move in (L853, L865)
    assert s.battle is None and at(s, "mersa_matruh") == {"uk.infantry": 5}


def test_t6_a_scout_car_makes_siwa_hostile_and_a_full_tobruk_leaves_no_retreat():
    s = mersa_matruh({"el_alamein": 1, "bir_hacheim": 1})
    s.new_unit("uk.scout_car", "uk", "siwa")
    for _ in range(10):  # Tobruk's stacking limit is 10
        s.new_unit("ger.infantry", "ger", "tobruk")
    s = declare_both(s)
    dice = ScriptedDice([9, 9, 9, 7, 7])
    s, ev = play(s, "allies", "resolve mersa_matruh", dice)
    # no retreat is open: both defenders are destroyed (L821)
    assert any("destroyed" in e.text for e in ev)
    assert at(s, "mersa_matruh") == {"uk.infantry": 5}


def test_pressing_costs_supply_per_source_and_ceasing_ends_it():
    s = declare_both(mersa_matruh({"el_alamein": 2, "bir_hacheim": 1, "tobruk": 3}))
    s, _ = play(s, "allies", "resolve mersa_matruh")
    s, _ = play(s, "axis", "fight", ScriptedDice([9, 9, 9, 7, 7, 9, 9]))
    assert R.prompt(s).kind == "press" and R.prompt(s).role == "allies"
    # Bir Hacheim has no supply left and Siwa, Tobruk or Agedabia hold none for the UK
    e = refused(s, "allies", "press", "Press")
    assert "Bir Hacheim" in e.reason
    flank = " ".join(u.id for u in s.units if u.at == "bir_hacheim")
    refused(s, "allies", "press u99999", "Press")
    s, _ = play(s, "allies", f"press {flank}")  # the two Bir Hacheim infantry withdraw
    assert "el_alamein" not in s.supply and s.battle["round"] == 2  # 1 to declare, 1 to press
    assert R.prompt(s).kind == "orders"
    s, _ = play(s, "axis", "fight", ScriptedDice([9, 9, 9, 9, 9]))  # 3 attackers, 2 defenders
    s, _ = play(s, "allies", "cease")
    assert s.battle is None and s.attacks == []
    assert at(s, "mersa_matruh") == {"ger.infantry": 2}
    s, _ = play(s, "allies", "done")
    assert s.phase == "noncombat"


def test_the_defender_picks_casualties_and_the_attacker_his():
    s = position("ger", "combat_move",
                 [("ger", "ger.tank", "el_agheila", 2), ("ger", "ger.infantry", "el_agheila", 1),
                  ("uk", "uk.infantry", "agedabia", 1), ("uk", "uk.artillery", "agedabia", 1)],
                 supply={"el_agheila": 1, "agedabia": 1}, control={"tripoli": "ita"})
    s, _ = play(s, "axis", "declare el_agheila agedabia")
    s, _ = play(s, "axis", "done")
    s, _ = play(s, "axis", "resolve agedabia")
    dice = ScriptedDice([1, 9, 9])  # infantry hits, tanks miss
    s, _ = play(s, "allies", "fight", dice)
    assert R.prompt(s).kind == "def_casualties" and R.prompt(s).role == "allies"
    refused(s, "allies", "casualties 1 inf 1 art", "casualties")
    dice = ScriptedDice([1, 9])  # the defenders' infantry and artillery fire: 1 hit
    s, _ = play(s, "allies", "casualties 1 art", dice)
    assert R.prompt(s).kind == "att_casualties" and R.prompt(s).role == "axis"
    s, _ = play(s, "axis", "casualties 1 inf")
    assert at(s, "el_agheila") == {"ger.tank": 2} and at(s, "agedabia") == {"uk.infantry": 1}


def test_t5_an_exempt_fighter_may_stay_while_the_infantry_retreat():
    s = mersa_matruh({"el_alamein": 1, "bir_hacheim": 1})
    s.new_unit("ger.fighter", "ger", "mersa_matruh")
    s = declare_both(s)
    s, _ = play(s, "allies", "resolve mersa_matruh")
    assert R.prompt(s).kind == "orders"
    refused(s, "axis", "fight", "Step 1")  # no token within reach for the infantry (L765)
    dice = ScriptedDice([9, 9, 9, 7, 7, 9])  # attackers miss; the fighter (defence 5) misses
    s, _ = play(s, "axis", "withdraw stay", dice)
    assert dice.remaining == []
    s, _ = play(s, "axis", "retreat tobruk")
    assert at(s, "tobruk") == {"ger.infantry": 2}
    assert at(s, "mersa_matruh") == {"ger.fighter": 1} and R.prompt(s).kind == "press"


def test_with_a_token_in_reach_all_fight_or_the_infantry_go():
    s = mersa_matruh({"el_alamein": 1, "bir_hacheim": 1, "tobruk": 1})
    s.new_unit("ger.fighter", "ger", "mersa_matruh")
    s = declare_both(s)
    s, _ = play(s, "allies", "resolve mersa_matruh")
    dice = ScriptedDice([9, 9, 9, 7, 7, 9, 9, 9])  # 2 infantry and the fighter fire back
    s, _ = play(s, "axis", "fight", dice)
    assert dice.remaining == [] and "tobruk" not in s.supply


def test_a_tied_main_attack_is_named_by_the_attacker():
    s = position("uk", "combat_move",
                 [("uk", "uk.infantry", "el_alamein", 2), ("uk", "uk.infantry", "bir_hacheim", 2),
                  ("ger", "ger.infantry", "mersa_matruh", 1)],
                 supply={"el_alamein": 1, "bir_hacheim": 1, "tobruk": 1}, control={"cairo": "uk", "tobruk": "ger"})
    s = declare_both(s)
    e = refused(s, "allies", "resolve mersa_matruh", "Flanking")
    assert "tied" in e.reason
    refused(s, "allies", "resolve mersa_matruh from siwa", "Flanking")
    s, _ = play(s, "allies", "resolve mersa_matruh from bir_hacheim")
    assert s.battle["flank"] == ["el_alamein"]
    assert R.parse_order("resolve mersa_matruh from bir_hacheim").text() == "resolve mersa_matruh from bir_hacheim"


def test_artillery_raises_one_infantry_to_3_and_tobruk_rerolls_9_and_10_once():
    s = position("ger", "combat_move",
                 [("ger", "ger.infantry", "derna", 2), ("ger", "ger.artillery", "derna", 1),
                  ("uk", "uk.infantry", "tobruk", 1)],
                 supply={"derna": 1, "tobruk": 1}, control={"tobruk": "uk", "tripoli": "ita"})
    s, _ = play(s, "axis", "declare derna tobruk")
    s, _ = play(s, "axis", "done")
    s, _ = play(s, "axis", "resolve tobruk")
    # attackers: an infantry without support (2), one supported (3), the artillery (3):
    # 3 misses the lone infantry, hits the supported one; then 9 misses.
    # The defender rolls 10, rerolled once to 9: a miss (Tobruk's bonus does not repeat).
    dice = ScriptedDice([3, 3, 9, 10, 9])
    s, ev = play(s, "allies", "fight", dice)
    assert dice.remaining == []
    text = " ".join(e.text for e in ev)
    assert "roll 3 3 9: 1 hit(s)" in text and "roll 9: 0 hit(s)" in text
    # the only defender is gone: the Germans move in and take Tobruk
    assert s.control["tobruk"] == "ger" and at(s, "tobruk") == {"ger.infantry": 2, "ger.artillery": 1}


def test_anti_tank_gun_hits_fall_on_tanks_in_the_first_round():
    s = position("uk", "combat_move",
                 [("uk", "uk.anti_tank_gun", "derna", 1), ("ger", "ger.tank", "benghazi", 1),
                  ("ger", "ger.infantry", "benghazi", 2)],
                 supply={"derna": 1, "benghazi": 1}, control={"benghazi": "ger", "cairo": "uk"})
    s, _ = play(s, "allies", "declare derna benghazi")
    s, _ = play(s, "allies", "done")
    s, _ = play(s, "allies", "resolve benghazi")
    dice = ScriptedDice([1])  # the gun hits
    s, _ = play(s, "axis", "fight", dice)
    assert R.prompt(s).kind == "def_casualties"
    refused(s, "axis", "casualties 1 inf", "casualties")
    orders = [o.text() for o in R.legal_orders(s)]
    assert orders == ["casualties 1 tank"]
    s, _ = play(s, "axis", "casualties 1 tank", ScriptedDice([9, 9, 9]))
    assert at(s, "benghazi") == {"ger.infantry": 2}


def test_l1137_a_defending_anti_tank_gun_hit_falls_on_a_tank_in_the_first_round_only():
    """"Whether attacking or defending": the UK gun in Derna hits, and Germany must lose
    its tank, not an infantry; in the second round the gun's hit falls as Germany picks."""
    s = position("ger", "combat_move",
                 [("uk", "uk.anti_tank_gun", "derna", 1), ("ger", "ger.tank", "benghazi", 1),
                  ("ger", "ger.infantry", "benghazi", 2)],
                 supply={"derna": 2, "benghazi": 2}, control={"benghazi": "ger", "cairo": "uk"})
    s, _ = play(s, "axis", "declare benghazi derna")
    s, _ = play(s, "axis", "done")
    s, _ = play(s, "axis", "resolve derna")
    s, _ = play(s, "allies", "fight", ScriptedDice([9, 9, 9, 1]))  # Germany misses; the gun hits
    assert R.prompt(s).kind == "att_casualties" and "tanks where possible" in R.prompt(s).text
    assert [o.text() for o in R.legal_orders(s, "axis")] == ["casualties 1 tank"]
    refused(s, "axis", "casualties 1 inf", "casualties")
    s, _ = play(s, "axis", "casualties 1 tank")
    s, _ = play(s, "axis", "press")
    assert [u.type for u in s.units if u.at == "benghazi"] == ["ger.infantry"] * 2
    s, _ = play(s, "allies", "fight", ScriptedDice([9, 9, 1]))  # round 2: an ordinary hit, one infantry falls
    assert [u.type for u in s.units if u.at == "benghazi"] == ["ger.infantry"] and s.battle["def_tank_hits"] == 0


def test_vichy_surrendering_to_a_uk_scout_car_beside_the_landing_force_disband_over_the_limit():
    """RLP round 7: a UK scout car attacks Algiers, where the Torch landing force waits with
    the Vichy units; the Vichy score no hit and surrender, and the Free French beyond the
    stacking limit disband (L487-489, L1071-1073; RULINGS: Torch)."""
    s = position("uk", "combat_move",
                 [("vichy", "fra.infantry", "algiers", 2), ("vichy", "fra.tank", "algiers", 1),
                  ("uk", "uk.infantry", "algiers", 3), ("us", "us.infantry", "algiers", 3),
                  ("uk", "uk.scout_car", "laghouat", 1), ("ger", "ger.infantry", "tripoli", 1)],
                 control={"tripoli": "ita"}, round_=7)
    s.scenario_attacks = [{"target": "algiers", "powers": ["us", "uk"], "controller_if_won": "us"}]
    s, _ = play(s, "allies", "declare laghouat algiers")
    s, _ = play(s, "allies", "done")
    s, ev = play(s, "allies", "resolve algiers", ScriptedDice([9, 9, 9, 9]))
    limit = 8
    assert sum(1 for u in s.units if u.at == "algiers") == limit
    assert at(s, "algiers") == {"fra.infantry": 2, "uk.infantry": 3, "us.infantry": 3}
    assert any("disband" in e.text for e in ev) and R.invariant_problems(s) == []


def test_a_torch_landing_force_takes_its_territory_where_it_stands_leaving_the_rest_of_the_limit():
    """Round 7: 6 US infantry attack Algiers from Oran while the landing force (3 UK and 3
    US infantry) fights there. After the win only 2 of the 6 from Oran fit (L487-489, L853)."""
    s = position("us", "combat_move",
                 [("vichy", "fra.infantry", "algiers", 1), ("uk", "uk.infantry", "algiers", 3),
                  ("us", "us.infantry", "algiers", 3), ("us", "us.infantry", "oran", 6),
                  ("ger", "ger.infantry", "tripoli", 1)],
                 supply={"oran": 2, "algiers": 2}, control={"tripoli": "ita"}, round_=7)
    s.scenario_attacks = [{"target": "algiers", "powers": ["us", "uk"], "controller_if_won": "us"}]
    s, _ = play(s, "allies", "declare oran algiers")
    s, _ = play(s, "allies", "done")
    s, _ = play(s, "allies", "resolve algiers from oran", ScriptedDice([1] * 12 + [9]))
    assert R.prompt(s).kind == "advance" and s.battle["room"] == 2
    outside = [u.id for u in s.units if u.at == "oran"]
    assert [o.text() for o in R.legal_orders(s, "allies")] == [f"advance {outside[0]} {outside[1]}"]
    refused(s, "allies", "advance 3 inf", "Conclude Combat")
    s, _ = play(s, "allies", "advance 2 inf")
    assert sum(1 for u in s.units if u.at == "algiers") == 8 and s.control["algiers"] == "us"
    assert R.invariant_problems(s) == []
