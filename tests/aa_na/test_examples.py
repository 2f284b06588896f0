"""The rulebook's worked examples of retreats and pressing, with scripted dice: the partial
retreat in El Oued (L773) and the UK withdrawing its anti-tank guns to press on with less
supply (L845)."""

from __future__ import annotations

import pytest

from engine.core.dice import ScriptedDice
from engine.core.errors import IllegalOrder
from tests.aa_na.helpers import R, at, play, position


def test_l773_free_french_stay_while_the_us_infantry_retreat_into_a_territory_attacked_from_the_air():
    """German scout cars attack El Oued (2 US infantry, 1 Free French infantry) and a German
    fighter attacks Kasserine Pass; the Allies have no supply in reach, so the US infantry
    must retreat; the Free French, Self-Sufficient, stay and fight (L767). A retreating
    infantry is still hit; the survivor may retreat to Laghouat (empty) or Kasserine Pass
    (attacked by air units only)."""
    s = position("ger", "combat_move",
                 [("ger", "ger.scout_car", "ghardaia", 2), ("ger", "ger.fighter", "tunis", 1),
                  ("us", "us.infantry", "el_oued", 2), ("free_french", "fra.infantry", "el_oued", 1),
                  ("uk", "uk.infantry", "cairo", 1)],
                 control={"tunis": "ger", "kasserine_pass": "us", "cairo": "uk"}, round_=8)  # fmt: skip
    s, _ = play(s, "axis", "move 1 fighter tunis kasserine_pass")
    s, _ = play(s, "axis", "declare ghardaia el_oued")
    s, _ = play(s, "axis", "done")
    s, _ = play(s, "axis", "resolve kasserine_pass")  # air only: no combat, nothing captured
    s, _ = play(s, "axis", "resolve el_oued")
    assert R.prompt(s).role == "allies" and {o.text() for o in R.legal_orders(s)} == {"withdraw", "withdraw stay"}
    s, _ = play(s, "allies", "withdraw stay", ScriptedDice([1, 9]))  # one scout car hits
    us = [u.id for u in s.units if u.type == "us.infantry"]
    s, _ = play(s, "allies", f"casualties {us[0]}", ScriptedDice([9]))  # the Free French miss
    assert {o.to for o in R.legal_orders(s)} == {"laghouat", "kasserine_pass"}
    s, _ = play(s, "allies", "retreat kasserine_pass")
    assert at(s, "kasserine_pass") == {"us.infantry": 1, "ger.fighter": 1}
    assert at(s, "el_oued") == {"fra.infantry": 1}


def test_l845_withdrawing_the_anti_tank_guns_lowers_the_cost_of_pressing():
    """4 UK infantry and 2 anti-tank guns attack Mersa Matruh (2 tokens); after round 1 one
    token is left: pressing with all 6 needs 2 and is refused, pressing without the guns
    needs 1 (L835-837)."""
    s = position("uk", "combat_move",
                 [("uk", "uk.infantry", "el_alamein", 4), ("uk", "uk.anti_tank_gun", "el_alamein", 2),
                  ("ger", "ger.infantry", "mersa_matruh", 3), ("ger", "ger.infantry", "tripoli", 1)],
                 supply={"el_alamein": 3, "mersa_matruh": 1}, control={"cairo": "uk", "tobruk": "ger"})  # fmt: skip
    s, _ = play(s, "allies", "declare el_alamein mersa_matruh")
    s, _ = play(s, "allies", "done")
    s, _ = play(s, "allies", "resolve mersa_matruh")
    s, _ = play(s, "axis", "fight", ScriptedDice([9] * 6 + [9] * 3))
    assert R.prompt(s).kind == "press" and s.supply["el_alamein"] == 1
    before = R.dump_state(s)
    with pytest.raises(IllegalOrder) as e:
        play(s, "allies", "press")
    assert "Press or Cease" in e.value.rule and R.dump_state(s) == before
    # round 2: the defenders have no token left and must retreat (L765); 4 infantry roll
    s, ev = play(s, "allies", "press 2 atg", ScriptedDice([9] * 4))
    assert "el_alamein" not in s.supply and s.battle["round"] == 2
    assert any("2 unit(s) withdraw" in e.text for e in ev)


def test_a25_vichy_units_stay_and_fight_when_their_german_neighbours_must_retreat():
    """No Axis supply in reach: the German infantry in Casablanca must retreat (L765); the
    Vichy infantry never retreat (L1067) and, exempt, fight on their own (L767)."""
    s = position("us", "combat_move", [("us", "us.infantry", "fez", 2), ("vichy", "fra.infantry", "casablanca", 1),
                                       ("ger", "ger.infantry", "casablanca", 1), ("ger", "ger.infantry", "tripoli", 1)],
                 supply={"fez": 1}, control={"tripoli": "ita"}, round_=8)
    s, _ = play(s, "allies", "declare fez casablanca")
    s, _ = play(s, "allies", "done")
    s, ev = play(s, "allies", "resolve casablanca", ScriptedDice([9, 9, 9]))
    assert any("but for the exempt units" in e.text for e in ev)
    assert s.battle["fighting"] == [u.id for u in s.units if u.power == "vichy"]


def test_a_move_may_not_take_away_the_target_of_units_already_moved_to_attack_it():
    """A UK scout car moves to Algiers to raid neutral Constantine's supply; a second scout
    car may not then end its move in Constantine, which would make it friendly and leave the
    first with nothing to attack (L624, L688; RULINGS: no dead end)."""
    s = position("uk", "combat_move",
                 [("uk", "uk.scout_car", "oran", 1), ("uk", "uk.scout_car", "el_oued", 1),
                  ("ger", "ger.infantry", "tunis", 1)],
                 supply={"constantine": 1}, control={"tunis": "ger", "oran": "uk", "algiers": "uk"}, round_=8)  # fmt: skip
    s, _ = play(s, "allies", "move 1 scout oran algiers")
    before = R.dump_state(s)
    with pytest.raises(IllegalOrder) as e:
        play(s, "allies", "move 1 scout el_oued laghouat constantine")
    assert "nothing to attack" in e.value.reason and R.dump_state(s) == before
