"""Phase 5: Noncombat Move (L883-907): land moves through friendly and neutral territories
only, Coast Road Movement (L1113, L1195, L1207), trucks carrying units and supply
(L1209-1213), scout cars' Long-Range Patrol (L1169), the Axis taking Vichy territories
(L1069), and sea moves (L901-903, L527)."""

from __future__ import annotations

import pytest

from engine.core.errors import IllegalOrder
from tests.aa_na.helpers import R, at, play, position

CONTROL = {"tripoli": "ita", "benghazi": "ger", "tobruk": "uk", "cairo": "uk"}


def refused(s, role, text, rule_word):
    before = R.dump_state(s)
    with pytest.raises(IllegalOrder) as e:
        play(s, role, text)
    assert rule_word in e.value.rule, e.value.rule
    assert R.dump_state(s) == before
    return e.value


def ncm(units, supply=None, power="ger", control=CONTROL):
    """Round 8, when every power may enter Morocco, Algeria and Tunisia (L1042)."""
    return position(power, "noncombat", units + [("uk", "uk.infantry", "cairo", 1), ("ger", "ger.infantry", "sfax", 1)],
                    supply=supply, control=control, round_=8)


def test_a_land_unit_moves_up_to_its_move_value_through_friendly_or_neutral_territories():
    s = ncm([("ger", "ger.infantry", "misurata", 1)])
    refused(s, "axis", "move 1 inf misurata zella el_agheila", "Land Unit Movement")
    s, _ = play(s, "axis", "move 1 inf misurata sirte")
    assert at(s, "sirte") == {"ger.infantry": 1}
    refused(s, "axis", "move 1 inf sirte el_agheila", "Land Unit Movement")  # it has moved (L885)


def test_no_noncombat_move_enters_a_hostile_territory_even_an_empty_one():
    """Tobruk is UK-controlled with no units in it: still hostile (L889)."""
    s = ncm([("ger", "ger.tank", "derna", 1)])
    e = refused(s, "axis", "move 1 tank derna tobruk", "Land Unit Movement")
    assert "hostile" in e.reason


def test_coast_road_movement_takes_five_spaces_starting_and_staying_on_the_road():
    s = ncm([("ger", "ger.tank", "tripoli", 2)])
    s2, _ = play(s, "axis", "move 1 tank tripoli misurata sirte el_agheila agedabia benghazi")
    assert at(s2, "benghazi") == {"ger.tank": 1}
    e = refused(s, "axis", "move 1 tank tripoli misurata zella el_agheila", "Coast Road")
    assert "coast road" in e.reason


def test_a_truck_carries_at_most_six_units_and_supply_points():
    s = ncm([("ger", "ger.truck", "tripoli", 1), ("ger", "ger.infantry", "tripoli", 2)], supply={"tripoli": 5})
    refused(s, "axis", "move 1 truck tripoli misurata carry 2 inf 5 supply", "Land Transport")
    s, ev = play(s, "axis", "move 1 truck tripoli misurata carry 2 inf 4 supply")
    assert at(s, "misurata") == {"ger.truck": 1, "ger.infantry": 2}
    assert s.supply == {"tripoli": 1, "misurata": 4}
    refused(s, "axis", "move 1 inf misurata sirte", "Land Unit Movement")  # cargo never moves on its own


def test_a_truck_carries_only_its_own_powers_infantry_artillery_guns_and_aaa():
    s = ncm([("ger", "ger.truck", "tripoli", 1), ("ita", "ita.infantry", "tripoli", 1), ("ger", "ger.tank", "tripoli", 1)])
    refused(s, "axis", "move 1 truck tripoli misurata carry 1 inf", "Land Transport")
    refused(s, "axis", "move 1 truck tripoli misurata carry 1 tank", "Land Transport")


def test_units_that_combat_moved_or_fought_stay_but_scout_cars_patrol_with_what_is_left():
    s = ncm([("ger", "ger.tank", "sirte", 1), ("ger", "ger.scout_car", "sirte", 1)])
    for u in s.units:
        if u.at == "sirte":
            u.moved = 1
            s.engaged.append(u.id)
    refused(s, "axis", "move 1 tank sirte misurata", "Land Unit Movement")
    # move 4, 1 spent moving and 1 on the attack: 2 left (L1169; RULINGS: A42)
    refused(s, "axis", "move 1 scout sirte el_agheila agedabia benghazi", "Long-Range Patrol")
    s, _ = play(s, "axis", "move 1 scout sirte el_agheila agedabia")
    assert at(s, "agedabia") == {"ger.scout_car": 1}


def test_l1069_german_units_ending_their_move_among_vichy_units_take_control():
    s = ncm([("ger", "ger.infantry", "kasserine_pass", 1), ("vichy", "fra.infantry", "tunis", 1)],
            control=dict(CONTROL))
    s, ev = play(s, "axis", "move 1 inf kasserine_pass tunis")
    assert s.control["tunis"] == "ger"
    assert any("Vichy" in e.text for e in ev)


def test_l527_allied_sea_units_never_pass_the_strait_of_messina():
    s = position("uk", "noncombat", [("uk", "uk.destroyer", "sz11", 1), ("ita", "ita.destroyer", "sz11", 1),
                                     ("uk", "uk.infantry", "cairo", 1), ("ger", "ger.infantry", "tripoli", 1)],
                 control=CONTROL)
    e = refused(s, "allies", "move 1 destroyer sz11 sz16", "Sea Unit Movement")
    assert "Strait of Messina" in e.reason


def test_sea_units_move_through_friendly_zones_only_but_submarines_slip_through():
    s = position("uk", "noncombat",
                 [("uk", "uk.destroyer", "sz13", 1), ("uk", "uk.submarine", "sz13", 1), ("ita", "ita.destroyer", "sz15", 1),
                  ("uk", "uk.infantry", "cairo", 1), ("ger", "ger.infantry", "tripoli", 1)], control=CONTROL)
    refused(s, "allies", "move 1 destroyer sz13 sz15 sz14", "Sea Unit Movement")
    # a submarine stops on entering a zone with an enemy destroyer (L903)
    refused(s, "allies", "move 1 sub sz13 sz15 sz14", "Sea Unit Movement")
    s, _ = play(s, "allies", "move 1 sub sz13 sz15")
    assert at(s, "sz15", "uk") == {"uk.submarine": 1}
    s, _ = play(s, "allies", "move 1 destroyer sz13 sz12")
    assert at(s, "sz12") == {"uk.destroyer": 1}


def test_a_truck_loads_where_it_starts_and_on_its_way_but_not_where_it_stops():
    """L1211: cargo joins the truck at its start or at any space it passes; nothing is
    loaded at the end of its move."""
    s = ncm([("ger", "ger.truck", "tripoli", 1), ("ger", "ger.infantry", "misurata", 1),
             ("ger", "ger.artillery", "sirte", 1)], supply={"tripoli": 2, "misurata": 3})
    refused(s, "axis", "move 1 truck tripoli misurata sirte carry 1 artillery", "Land Transport")
    refused(s, "axis", "move 1 truck tripoli misurata sirte carry 6 supply", "Land Transport")
    s, _ = play(s, "axis", "move 1 truck tripoli misurata sirte carry 1 inf 4 supply")
    assert at(s, "sirte") == {"ger.truck": 1, "ger.infantry": 1, "ger.artillery": 1}
    assert s.supply.get("tripoli", 0) == 0 and s.supply["misurata"] == 1 and s.supply["sirte"] == 4
    refused(s, "axis", "move 1 inf sirte el_agheila", "Land Unit Movement")  # carried: it may not move on its own
