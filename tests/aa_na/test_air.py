"""Air units (L652-658, L893-899, L1217-1223) and Air Defense (L1145-1155) with scripted
d10 dice: the digest's scenarios T7 (AAA shots) and T13 (landing), the AAA-only territory
attacked by bombers (A52), Collateral Damage (L1243) and retreats into a territory attacked
by air units only (L769)."""

from __future__ import annotations

import pytest

from engine.core.dice import ScriptedDice
from engine.core.errors import IllegalOrder
from tests.aa_na.helpers import R, at, play, position

UK_CONTROL = {"cairo": "uk", "tobruk": "ger", "benghazi": "ger"}


def refused(s, role, text, rule_word, dice=None):
    before = R.dump_state(s)
    with pytest.raises(IllegalOrder) as e:
        play(s, role, text, dice)
    assert rule_word in e.value.rule, e.value.rule
    assert R.dump_state(s) == before
    return e.value


def test_an_air_unit_may_not_fly_out_of_range_of_a_landing_territory():
    """A fighter (move 4) from Cairo reaches Tobruk in 3, leaving 1: no UK territory within
    1 of Tobruk, so the combat move is refused (L654-656, L1223); Mersa Matruh (2 away)
    leaves 2, enough to fly home to Cairo."""
    s = position("uk", "combat_move", [("uk", "uk.fighter", "cairo", 1), ("ger", "ger.infantry", "tobruk", 1),
                                       ("ger", "ger.infantry", "mersa_matruh", 1)], control=UK_CONTROL)
    e = refused(s, "allies", "move 1 fighter cairo tobruk", "Air Unit Movement")
    assert "out of range" in e.reason or "no friendly territory" in e.reason
    s, _ = play(s, "allies", "move 1 fighter cairo mersa_matruh")
    assert at(s, "mersa_matruh", "uk") == {"uk.fighter": 1}


def test_an_air_combat_move_ends_in_a_hostile_territory():
    s = position("uk", "combat_move", [("uk", "uk.fighter", "cairo", 1)], control=UK_CONTROL)
    refused(s, "allies", "move 1 fighter cairo el_alamein", "Air Unit Movement")


def mersa_matruh_under_air_attack(guns: int):
    s = position("uk", "combat_move",
                 [("uk", "uk.fighter", "cairo", 3), ("uk", "uk.bomber", "cairo", 2),
                  ("ger", "ger.anti_tank_gun", "mersa_matruh", guns), ("ger", "ger.infantry", "mersa_matruh", 2)],
                 supply={"mersa_matruh": 1}, control=UK_CONTROL)  # fmt: skip
    s, _ = play(s, "allies", "move 3 fighter cairo mersa_matruh")
    s, _ = play(s, "allies", "move 2 bomber cairo mersa_matruh")
    s, _ = play(s, "allies", "done")
    return s


def test_t7_one_air_defense_unit_fires_three_shots_and_the_attacker_picks_the_losses():
    """5 UK air units attack 1 German anti-tank gun and 2 infantry: min(3 x 1, 5) = 3 dice,
    1, 2, 3: two hits; the UK chooses which two air units fall (L1147-1149)."""
    s = mersa_matruh_under_air_attack(guns=1)
    dice = ScriptedDice([1, 2, 3])
    s, ev = play(s, "allies", "resolve mersa_matruh", dice)
    assert dice.remaining == []
    assert any("3 shot(s): 1 2 3: 2 hit(s)" in e.text for e in ev)
    assert R.prompt(s).kind == "aa_casualties" and R.prompt(s).role == "allies"
    refused(s, "allies", "casualties 1 fighter", "Air Defense")
    s, _ = play(s, "allies", "casualties 2 fighter")
    assert at(s, "mersa_matruh", "uk") == {"uk.fighter": 1, "uk.bomber": 2}
    assert R.prompt(s).kind == "orders" and R.prompt(s).role == "axis"  # step 1 follows


def test_t7_two_air_defense_units_fire_at_every_attacking_air_unit():
    s = mersa_matruh_under_air_attack(guns=2)
    dice = ScriptedDice([3, 4, 5, 6, 7])
    s, ev = play(s, "allies", "resolve mersa_matruh", dice)
    assert dice.remaining == [] and any("5 shot(s)" in e.text for e in ev)


def aaa_in_tobruk():
    s = position("ger", "combat_move", [("ger", "ger.bomber", "benghazi", 2), ("uk", "uk.aaa", "tobruk", 1)],
                 supply={"tobruk": 2}, control={"benghazi": "ger", "tobruk": "uk", "cairo": "uk"})
    s, _ = play(s, "axis", "move 2 bomber benghazi tobruk")
    s, _ = play(s, "axis", "done")
    return s


def test_a52_aaa_alone_survives_when_every_attacking_bomber_falls():
    s = aaa_in_tobruk()
    s, _ = play(s, "axis", "resolve tobruk", ScriptedDice([1, 2]))
    assert at(s, "tobruk") == {"uk.aaa": 1} and s.control["tobruk"] == "uk"


def test_a52_aaa_alone_is_destroyed_when_a_bomber_survives_and_collateral_damage_burns_a_token():
    """AA dice 1 and 5: one bomber falls, the other destroys the AAA (L1155) and 1 supply
    token (L1243); bombers alone take no territory (L853)."""
    s = aaa_in_tobruk()
    s, ev = play(s, "axis", "resolve tobruk bomb", ScriptedDice([1, 5]))
    assert at(s, "tobruk") == {"ger.bomber": 1}
    assert s.supply["tobruk"] == 1 and s.control["tobruk"] == "uk"
    assert any("Collateral Damage" in e.text for e in ev)


def test_collateral_damage_needs_an_attacking_bomber():
    s = position("uk", "combat_move", [("uk", "uk.fighter", "cairo", 1), ("ger", "ger.infantry", "mersa_matruh", 1)],
                 supply={"mersa_matruh": 1}, control=UK_CONTROL)
    s, _ = play(s, "allies", "move 1 fighter cairo mersa_matruh")
    s, _ = play(s, "allies", "done")
    refused(s, "allies", "resolve mersa_matruh bomb", "Collateral Damage")


def test_air_units_join_the_land_attack_and_never_count_against_the_stacking_limit():
    """8 UK infantry and a fighter take Mersa Matruh: the fighter is in the air, so all 8
    infantry move in (L853) and the fighter lands in Phase 5."""
    s = position("uk", "combat_move",
                 [("uk", "uk.infantry", "el_alamein", 8), ("uk", "uk.fighter", "cairo", 1),
                  ("ger", "ger.infantry", "mersa_matruh", 1)],
                 supply={"el_alamein": 2}, control=UK_CONTROL)  # fmt: skip
    s, _ = play(s, "allies", "move 1 fighter cairo mersa_matruh")
    s, _ = play(s, "allies", "declare el_alamein mersa_matruh")
    s, _ = play(s, "allies", "done")
    # no supply for the defender: it must retreat (L765); the attackers roll 9 times
    s, _ = play(s, "allies", "resolve mersa_matruh", ScriptedDice([9] * 9))
    s, _ = play(s, "axis", "retreat tobruk")
    assert s.battle is None
    assert at(s, "mersa_matruh", "uk") == {"uk.infantry": 8, "uk.fighter": 1}
    assert R.invariant_problems(s) == []


def test_l769_defenders_may_retreat_into_a_territory_attacked_by_air_units_only():
    s = position("uk", "combat_move",
                 [("uk", "uk.infantry", "el_alamein", 1), ("uk", "uk.bomber", "cairo", 1),
                  ("ger", "ger.infantry", "mersa_matruh", 1), ("ger", "ger.infantry", "tobruk", 1)],
                 control=UK_CONTROL)  # fmt: skip
    s, _ = play(s, "allies", "move 1 bomber cairo el_alamein mersa_matruh tobruk")
    s.supply["el_alamein"] = 1
    s, _ = play(s, "allies", "declare el_alamein mersa_matruh")
    s, _ = play(s, "allies", "done")
    s, _ = play(s, "allies", "resolve mersa_matruh", ScriptedDice([9]))
    # the lone German infantry cannot pay and retreats; Tobruk, attacked by air only, is open
    assert "tobruk" in [o.to for o in R.legal_orders(s, "axis")]
    s, _ = play(s, "axis", "retreat tobruk")
    assert at(s, "tobruk", "ger") == {"ger.infantry": 2}


# ------------------------------------------------------------------ Phase 5 landing (T13)


def t13():
    """A UK fighter (move 4) flies 2 from Cairo to Mersa Matruh, which UK infantry take."""
    s = position("uk", "combat_move",
                 [("uk", "uk.infantry", "el_alamein", 1), ("uk", "uk.fighter", "cairo", 1),
                  ("ger", "ger.infantry", "mersa_matruh", 1), ("ger", "ger.infantry", "tripoli", 1)],
                 supply={"el_alamein": 1, "mersa_matruh": 1}, control=UK_CONTROL)  # fmt: skip
    s, _ = play(s, "allies", "move 1 fighter cairo mersa_matruh")
    s, _ = play(s, "allies", "declare el_alamein mersa_matruh")
    s, _ = play(s, "allies", "done")
    s, _ = play(s, "allies", "resolve mersa_matruh")
    s, _ = play(s, "axis", "fight", ScriptedDice([1, 2, 9]))  # both hit; the defender misses
    s, _ = play(s, "allies", "done")
    assert s.phase == "noncombat" and at(s, "mersa_matruh", "uk") == {"uk.infantry": 1, "uk.fighter": 1}
    return s


def test_t13_an_air_unit_lands_only_where_its_side_held_control_at_the_start_of_the_turn():
    s = t13()
    e = refused(s, "allies", "move 1 fighter mersa_matruh tobruk", "Air Unit Movement")
    assert "L897" in e.reason
    refused(s, "allies", "done", "must land")  # done would lose the fighter silently (L899)
    s, _ = play(s, "allies", "move 1 fighter mersa_matruh cairo")
    assert at(s, "cairo") == {"uk.fighter": 1}
    s, _ = play(s, "allies", "done")
    assert s.phase == "deploy"


def test_t13_an_air_unit_with_nowhere_to_land_is_destroyed_at_the_end_of_phase_5():
    s = t13()
    s.control["cairo"] = "ger"
    s.start_control["cairo"] = "ger"
    s, ev = play(s, "allies", "done")
    assert not [u for u in s.units if u.type == "uk.fighter"]
    assert any("nowhere to land" in e.text for e in ev)


def test_l946_convoy_escorts_land_at_the_start_of_their_powers_next_turn():
    """An Italian fighter escorting the Tripoli convoy lands in Tripoli when Italy's turn
    begins (L555, L946; RULINGS: Phase 1)."""
    s = position("uk", "deploy", [("ita", "ita.fighter", "tripoli_csz", 1), ("uk", "uk.infantry", "cairo", 1),
                                  ("ita", "ita.infantry", "tripoli", 1)], control={"tripoli": "ita", "cairo": "uk"})
    s, ev = play(s, "allies", "done")
    assert s.power == "ita" and at(s, "tripoli") == {"ita.fighter": 1, "ita.infantry": 1}
    assert any("lands in Tripoli" in e.text for e in ev)


def test_l944_an_air_unit_that_has_not_moved_flies_up_to_two_spaces_to_escort_a_convoy():
    s = position("uk", "deploy", [("uk", "uk.fighter", "malta", 2), ("ger", "ger.infantry", "tripoli", 1),
                                  ("uk", "uk.infantry", "cairo", 1)], control={"tripoli": "ita", "cairo": "uk"})
    s.units[1].ncm = True  # this fighter moved in Phase 5
    e = refused(s, "allies", f"move {s.units[1].id} malta malta_csz", "Convoy Escorts")
    assert s.units[1].at == "malta" and e
    refused(s, "allies", "move 1 fighter malta sz16", "Convoy Escorts")  # not a convoy zone
    s, _ = play(s, "allies", f"move {s.units[0].id} malta malta_csz")
    assert at(s, "malta_csz") == {"uk.fighter": 1}


def test_l1245_a_german_bomber_aims_its_hit_at_a_kind_of_land_unit():
    """A Stuka hits in Tobruk; Germany aims the hit at tanks, so the UK must lose its tank,
    not an infantry (L1245)."""
    s = position("ger", "combat_move",
                 [("ger", "ger.bomber", "benghazi", 1), ("uk", "uk.tank", "tobruk", 1), ("uk", "uk.infantry", "tobruk", 2)],
                 supply={"tobruk": 1}, control={"benghazi": "ger", "tobruk": "uk", "cairo": "uk"})  # fmt: skip
    s, _ = play(s, "axis", "move 1 bomber benghazi tobruk")
    s, _ = play(s, "axis", "done")
    s, _ = play(s, "axis", "resolve tobruk")
    s, _ = play(s, "allies", "fight", ScriptedDice([1]))
    assert R.prompt(s).kind == "bomber_targets" and R.prompt(s).role == "axis"
    refused(s, "axis", "target 1 artillery", "casualties")
    s, _ = play(s, "axis", "target 1 tank")
    assert [o.text() for o in R.legal_orders(s, "allies")] == ["casualties 1 tank"]
    refused(s, "allies", "casualties 1 infantry", "casualties")
    s, _ = play(s, "allies", "casualties 1 tank", ScriptedDice([8, 8, 8]))
    assert at(s, "tobruk", "uk") == {"uk.infantry": 2}


def test_the_torch_landing_force_stays_put_but_air_units_that_attacked_there_may_land():
    """OT round 7: the UK infantry landed at Algiers may not move (L1034-1035, L1055); a UK
    bomber from Gibraltar that attacked Oran lands again in Phase 5."""
    from tests.aa_na.helpers import start

    s = start("ot")
    s.new_unit("uk.bomber", "uk", "gibraltar")
    s, _ = play(s, "allies", "done")  # no requisition
    refused(s, "allies", "move 1 inf algiers constantine", "round 7")
    s, _ = play(s, "allies", "move 1 bomber gibraltar oran")
    s, _ = play(s, "allies", "done")
    assert [a["target"] for a in s.attacks] == ["oran"]
    s, _ = play(s, "allies", "resolve oran", ScriptedDice([9, 9, 9, 9]))
    while R.prompt(s).kind != "noncombat":
        p = R.prompt(s)
        s, _ = R.apply(s, p.role, R.legal_orders(s, p.role)[0], ScriptedDice([9] * 20))
    s, _ = play(s, "allies", "move 1 bomber oran gibraltar")
    assert at(s, "gibraltar") == {"uk.fighter": 1, "uk.bomber": 1} and at(s, "algiers", "uk") == {"uk.infantry": 3}
