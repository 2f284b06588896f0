"""Illegal orders of every kind are refused with a sentence that names the rule, and
change nothing (ARCHITECTURE: The rules contract)."""

from __future__ import annotations

import pytest

from engine.core.errors import OrderSyntaxError
from tests.aa_revised_rules.helpers import RULES, play, put, refused, scene


def _err(state, text, role=None):
    err = refused(state, text, role)
    assert err.rule, f"no rule named in: {err}"
    return str(err)


# -- movement -------------------------------------------------------------------------


def test_infantry_cannot_move_two_territories():
    s = scene("germany")
    put(s, "germany", "ukraine_ssr", infantry=1)
    put(s, "ussr", "russia", infantry=1)
    msg = _err(s, "move 1 inf ukraine_ssr russia")
    assert "2 territories" in msg and "move 1" in msg


def test_a_tank_cannot_move_three_territories():
    s = scene("germany")
    put(s, "germany", "eastern_europe", tank=1)
    msg = _err(s, "move 1 arm eastern_europe russia")
    assert "can move 2" in msg


def test_a_ship_cannot_move_three_sea_zones():
    s = scene("germany")
    put(s, "germany", "sz5", destroyer=1)
    put(s, "uk", "sz2", transport=1)
    msg = _err(s, "move 1 dd sz5 sz2")
    assert "sea zones" in msg and "can move 2" in msg


def test_a_fighter_cannot_fly_beyond_its_range():
    s = scene("germany")
    put(s, "germany", "germany", fighter=1)
    put(s, "ussr", "novosibirsk", infantry=1)
    msg = _err(s, "move 1 ftr germany novosibirsk")
    assert "spaces from Germany" in msg


def test_a_bomber_may_not_attack_where_it_cannot_come_back_from():
    """No suicide runs (Revised: Completing Air Units' Move)."""
    s = scene("germany")
    put(s, "germany", "germany", bomber=1)
    put(s, "ussr", "novosibirsk", infantry=1)
    msg = _err(s, "move 1 bmb germany novosibirsk")
    assert "no place to land" in msg


def test_loading_a_full_transport_is_refused():
    s = scene("uk")
    trn = put(s, "uk", "sz6", transport=1)[0]
    for uid in put(s, "uk", "sz6", tank=1, infantry=1):
        s.units[uid].aboard = trn
    put(s, "uk", "united_kingdom", infantry=1)
    msg = _err(s, "move 1 inf united_kingdom sz6")
    assert "no room" in msg or "can take cargo" in msg


def test_a_submarine_cannot_attack_a_territory():
    s = scene("germany")
    put(s, "germany", "sz5", submarine=1)
    msg = _err(s, "move 1 sub sz5 karelia_ssr")
    assert "cannot enter a territory" in msg


def test_land_units_go_to_sea_only_aboard_a_transport():
    s = scene("germany")
    put(s, "germany", "germany", infantry=1)
    msg = _err(s, "move 1 inf germany sz5")
    assert "transport" in msg


def test_a_combat_move_must_end_in_a_hostile_territory():
    s = scene("germany")
    put(s, "germany", "germany", infantry=1)
    msg = _err(s, "move 1 inf germany balkans")
    assert "hostile" in msg and "noncombat" in msg


def test_a_noncombat_move_may_not_enter_hostile_territory():
    s = scene("germany", phase="noncombat")
    put(s, "germany", "ukraine_ssr", infantry=1)
    msg = _err(s, "move 1 inf ukraine_ssr caucasus")
    assert "hostile" in msg


def test_antiaircraft_guns_make_no_combat_move():
    s = scene("germany")
    put(s, "germany", "ukraine_ssr", aa_gun=1)
    msg = _err(s, "move 1 aa ukraine_ssr caucasus")
    assert "antiaircraft guns never make combat moves" in msg.lower()


def test_industrial_complexes_never_move():
    s = scene("germany", phase="noncombat")
    msg = _err(s, "move 1 ic germany balkans")
    assert "never move" in msg


def test_no_unit_enters_a_neutral_territory():
    s = scene("germany")
    put(s, "germany", "western_europe", tank=1)
    msg = _err(s, "move 1 arm western_europe spain")
    assert "neutral" in msg


def test_aircraft_never_fly_over_a_neutral_territory():
    s = scene("germany", phase="noncombat")
    put(s, "germany", "southern_europe", fighter=1)
    msg = _err(s, "move 1 ftr southern_europe switzerland germany")
    assert "neutral" in msg


def test_units_that_are_not_there_cannot_move():
    s = scene("germany")
    msg = _err(s, "move 1 inf germany eastern_europe")
    assert "no infantry in Germany" in msg


def test_another_powers_units_cannot_be_moved():
    s = scene("germany")
    put(s, "japan", "germany", fighter=1)
    msg = _err(s, "move 1 ftr germany karelia_ssr")
    assert "no fighters" in msg


def test_a_unit_that_moved_in_the_combat_move_stays_put_in_the_noncombat_move():
    s = scene("germany")
    put(s, "germany", "ukraine_ssr", tank=1)
    s, _ = play(s, "move 1 arm ukraine_ssr caucasus", "done")
    assert s.control["caucasus"] == "germany"
    msg = _err(s, "move 1 arm caucasus ukraine_ssr")
    assert "combat move" in msg


def test_a_submarine_may_not_end_a_noncombat_move_in_a_hostile_sea_zone():
    s = scene("germany", phase="noncombat")
    put(s, "germany", "sz5", submarine=1)
    put(s, "uk", "sz6", transport=1)
    msg = _err(s, "move 1 sub sz5 sz6")
    assert "enemy units" in msg


def test_a_bomber_never_lands_at_sea():
    s = scene("germany", phase="noncombat")
    put(s, "germany", "germany", bomber=1)
    put(s, "germany", "sz5", carrier=1)
    msg = _err(s, "move 1 bmb germany sz5")
    assert "Only fighters land at sea" in msg


def test_a_fighter_may_not_end_at_sea_where_no_carrier_can_be():
    s = scene("germany", phase="noncombat")
    put(s, "germany", "germany", fighter=1)
    msg = _err(s, "move 1 ftr germany sz5")
    assert "No friendly carrier" in msg


def test_a_captured_antiaircraft_gun_cannot_move_that_turn():
    """FAQ: Movement: a gun captured this turn does not move."""
    s = scene("germany")
    put(s, "germany", "ukraine_ssr", tank=1)
    put(s, "ussr", "caucasus", aa_gun=1)
    s, _ = play(s, "move 1 arm ukraine_ssr caucasus", "done")
    assert s.phase == "noncombat"
    msg = _err(s, "move 1 aa caucasus ukraine_ssr")
    assert "captured" in msg


def test_a_transport_that_moved_in_the_combat_move_cannot_offload_in_the_noncombat_move():
    """Revised: Phase 5 (Q-09)."""
    s = scene("uk")
    trn = put(s, "uk", "sz8", transport=1)[0]
    inf = put(s, "uk", "sz8", infantry=1)[0]
    s.units[inf].aboard = trn
    s, _ = play(s, "move 1 trn sz8 sz7", "done")
    msg = _err(s, "move 1 inf sz7 united_kingdom")
    assert "moved in the combat move" in msg


def test_a_transport_that_retreated_cannot_offload():
    """FAQ: Retreats: the cargo of a retreated transport stays aboard."""
    s = scene("uk")
    trn, dd = put(s, "uk", "sz8", transport=1, destroyer=1)
    inf = put(s, "uk", "sz8", infantry=1)[0]
    s.units[inf].aboard = trn
    put(s, "germany", "sz7", destroyer=1)
    s, _ = play(s, "move 1 trn 1 dd sz8 sz7", "done", dice=[6, 6])
    s, _ = play(s, "retreat sz8")
    msg = _err(s, "move 1 inf sz8 united_kingdom")
    assert "retreated" in msg


def test_bombarding_needs_an_amphibious_assault_from_that_sea_zone():
    s = scene("germany")
    put(s, "germany", "sz14", battleship=1)
    msg = _err(s, "bombard 1 bb sz14 anglo_egypt")
    assert "No amphibious assault" in msg


def test_only_bombers_raid_without_dive_bombers():
    s = scene("germany")
    put(s, "germany", "western_europe", fighter=1)
    msg = _err(s, "bomb 1 ftr western_europe united_kingdom")
    assert "Only bombers" in msg


def test_a_raid_needs_an_enemy_industrial_complex():
    s = scene("germany")
    put(s, "germany", "germany", bomber=1)
    msg = _err(s, "bomb 1 bmb germany karelia_ssr")
    assert "industrial complex" in msg


# -- the order of play ---------------------------------------------------------------


def test_only_the_player_whose_decision_it_is_may_order():
    s = scene("germany")
    msg = _err(s, "done", role="ussr")
    assert "germany player's decision" in msg


def test_orders_of_another_phase_are_refused():
    s = scene("germany")
    msg = _err(s, "buy 1 inf")
    assert "'buy' is not an order in this step" in msg


def test_buying_more_than_the_treasury_holds():
    s = scene("germany", phase="purchase", ipcs=20)
    msg = _err(s, "buy 2 bb")
    assert "cost 48 IPCs" in msg and "has 20" in msg


def test_research_once_a_turn_owned_developments_and_its_price():
    s = scene("germany", phase="research", ipcs=12)
    msg = _err(s, "research jet 3")
    assert "cost 15 IPCs" in msg
    s.techs["germany"] = ["jet_fighters"]
    msg = _err(s, "research jet 1")
    assert "already has Jet Fighters" in msg


def test_all_battles_are_fought_before_the_combat_phase_ends():
    s = scene("germany")
    put(s, "germany", "ukraine_ssr", infantry=2)
    put(s, "ussr", "caucasus", infantry=1)
    put(s, "ussr", "west_russia", infantry=1)
    s.control["west_russia"] = s.start_control["west_russia"] = "ussr"
    s, _ = play(s, "move 1 inf ukraine_ssr caucasus", "move 1 inf ukraine_ssr west_russia", "done")
    msg = _err(s, "done")
    assert "Every battle must be fought" in msg
    msg = _err(s, "attack russia")
    assert "no battle" in msg


def test_casualties_must_match_the_hits():
    s = scene("germany")
    put(s, "germany", "ukraine_ssr", infantry=1, artillery=1)
    put(s, "ussr", "caucasus", infantry=1, tank=1)
    s, _ = play(s, "move 1 inf 1 art ukraine_ssr caucasus", "done", dice=[1, 6])
    msg = _err(s, "casualties 1 inf 1 arm")
    assert "1 casualty is due, not 2" in msg
    msg = _err(s, "casualties 1 art")
    assert "No artillery" in msg


# -- mobilization ----------------------------------------------------------------------


def test_placing_beyond_an_industrial_complexs_income_value():
    s = scene("germany", phase="mobilize")
    s.pending = {"infantry": 7}
    msg = _err(s, "place 7 inf southern_europe")
    assert "at most 6 units" in msg


def test_ships_are_placed_next_to_an_industrial_complex():
    s = scene("germany", phase="mobilize")
    s.pending = {"destroyer": 1, "infantry": 1}
    msg = _err(s, "place 1 dd sz12")
    assert "not next to an industrial complex" in msg
    msg = _err(s, "place 1 inf sz5")
    assert "never at sea" in msg


def test_new_industrial_complexes_need_income_and_one_per_territory():
    s = scene("uk", phase="mobilize")
    s.pending = {"industrial_complex": 2}
    msg = _err(s, "place 1 ic gibraltar")
    assert "no income value" in msg
    msg = _err(s, "place 1 ic united_kingdom")
    assert "already has an industrial complex" in msg


def test_only_bought_units_are_placed():
    s = scene("germany", phase="mobilize")
    s.pending = {"infantry": 1}
    msg = _err(s, "place 1 arm germany")
    assert "0 tanks waiting" in msg


# -- rockets ---------------------------------------------------------------------------


def test_rockets_need_the_development_and_a_target_in_range():
    s = scene("germany", phase="combat")
    put(s, "germany", "western_europe", aa_gun=1)
    msg = _err(s, "rocket western_europe united_kingdom")
    assert "has not developed Rockets" in msg
    s.techs["germany"] = ["rockets"]
    msg = _err(s, "rocket western_europe russia")
    assert "more than 3 spaces" in msg


# -- the grammar -----------------------------------------------------------------------


@pytest.mark.parametrize(
    "text, words",
    [
        ("", "empty"),
        ("fly 2 ftr germany russia", "not an order"),
        ("move 2 foo germany russia", "not a unit type"),
        ("move 2 inf narnia russia", "not a territory or sea zone"),
        ("buy", "counts and unit types"),
        ("research warp 2", "not a weapons development"),
        ("move 2 inf germany", "where they go"),
        ("done now", "takes nothing"),
    ],
)
def test_unreadable_orders_say_how_to_write_them(text, words):
    with pytest.raises(OrderSyntaxError) as info:
        RULES.parse_order(text)
    assert words in str(info.value)
