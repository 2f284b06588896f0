"""Phase 6 deployment (L909-936), Phase 1 convoy arrival (L515, L549-555) and the
scenario events on the round track (L1010-1028)."""

from __future__ import annotations

import pytest

from engine.core.errors import IllegalOrder
from tests.aa_na.helpers import R, at, play, position, start


def refused(s, role, text, rule_word):
    before = R.dump_state(s)
    with pytest.raises(IllegalOrder) as e:
        play(s, role, text)
    assert rule_word in e.value.rule, e.value.rule
    assert R.dump_state(s) == before
    return e.value


def to_deploy(s, role):
    while s.phase != "deploy":
        s, _ = play(s, role, "done")
    return s


def italy_turn():
    """RLP round 1: Germany and the UK pass; Italy buys 2 infantry and 3 supply."""
    s = start(players=4)
    for role in ("germany", "uk"):
        s = to_deploy(s, role)
        s, _ = play(s, role, "done")
    assert s.power == "ita"
    s, _ = play(s, "italy", "buy 2 inf")
    s, _ = play(s, "italy", "supply 3")
    return to_deploy(s, "italy")


def test_reinforcements_must_be_deployed_before_the_turn_ends():
    s = italy_turn()
    e = refused(s, "italy", "done", "Phase 6")
    assert "infantry" in e.legal


def test_rlp_round_1_tunis_convoy_is_closed_and_land_units_stay_off_the_islands():
    s = italy_turn()
    e = refused(s, "italy", "deploy 1 inf tunis_csz", "Phase 6")
    assert "Tripoli" in e.legal and "Italy" in e.legal
    refused(s, "italy", "deploy 1 inf sicily", "Phase 6")  # only AAA, air, German ATG (L936)


def test_a_convoy_arrives_in_its_port_on_the_next_turn():
    s = italy_turn()
    s, _ = play(s, "italy", "deploy 2 inf 3 supply tripoli_csz")
    assert at(s, "tripoli_csz", "ita") == {"ita.infantry": 2}
    assert s.convoy_supply["tripoli_csz"] == {"ita": 3}
    s, _ = play(s, "italy", "done")
    tripoli = s.supply["tripoli"]
    # round 2: Germany, then the UK, then Italy's phase 1 lands the convoy (L930-932)
    for role in ("germany", "uk"):
        s = to_deploy(s, role)
        s, _ = play(s, role, "done")
    assert (s.round, s.power, s.phase) == (2, "ita", "requisition")
    assert at(s, "tripoli_csz") == {}
    assert at(s, "tripoli", "ita")["ita.infantry"] == 2 + 2
    assert s.supply["tripoli"] == tripoli + 3 and s.convoy_supply["tripoli_csz"] == {}


def test_a_convoy_to_a_lost_port_goes_back_to_the_reinforcements_zone():
    s = italy_turn()
    s, _ = play(s, "italy", "deploy 2 inf 3 supply tripoli_csz")
    s, _ = play(s, "italy", "done")
    s.control["tripoli"] = "uk"  # the Allies took Tripoli meanwhile
    for role in ("germany", "uk"):
        s = to_deploy(s, role)
        s, _ = play(s, role, "done")
    assert s.reserves["ita"] == {"ita.infantry": 2, "supply": 3}
    assert at(s, "tripoli_csz") == {}


def test_the_uk_route_runs_atlantic_indian_suez_cairo_one_step_a_turn():
    s = position("uk", "deploy", [], control={"cairo": "uk"})
    s.reserves["uk"] = {"uk.infantry": 1, "supply": 2}
    refused(s, "allies", "deploy 1 inf suez_canal_csz", "Phase 6")
    refused(s, "allies", "deploy 1 inf malta_csz", "Phase 6")  # land units other than AAA (L923)
    s, _ = play(s, "allies", "deploy 1 inf 2 supply atlantic_ocean_csz")
    s, _ = play(s, "allies", "done")
    seen = []
    for _ in range(3):
        while s.power != "uk":
            s = to_deploy(s, R.prompt(s).role)
            s, _ = play(s, R.prompt(s).role, "done")
        where = [u.at for u in s.units if u.type == "uk.infantry"]
        seen.append(where[0])
        s = to_deploy(s, "allies")
        s, _ = play(s, "allies", "done")
    assert seen == ["indian_ocean_csz", "suez_canal_csz", "cairo"]
    assert s.supply.get("cairo", 0) == 2


def test_sea_units_deploy_in_their_power_zone_even_if_hostile():
    s = position("ita", "deploy", [("uk", "uk.destroyer", "sz16", 1)])
    s.reserves["ita"] = {"ita.destroyer": 1}
    refused(s, "axis", "deploy 1 dd tripoli_csz", "Deploying Sea Units")
    s, _ = play(s, "axis", "deploy 1 dd sz16")
    assert at(s, "sz16", "ita") == {"ita.destroyer": 1}


def test_the_us_without_an_open_convoy_loses_its_reinforcements():
    s = position("us", "deploy", [], control={}, round_=8)
    s.reserves["us"] = {"us.infantry": 2, "supply": 4, "us.destroyer": 1}
    refused(s, "allies", "done", "Phase 6")  # the destroyer still has a zone
    s, _ = play(s, "allies", "deploy 1 dd sz2")
    s, ev = play(s, "allies", "done")
    assert any("destroyed" in e.text for e in ev)
    assert s.reserves["us"] == {}


def test_rlp_round_4_shermans_and_round_7_events():
    s = start(players=4)
    s.round = 4
    s.power, s.phase = "uk", "noncombat"
    s, _ = play(s, "uk", "done")
    assert at(s, "atlantic_ocean_csz", "uk") == {"uk.sherman": 2}
    s.round, s.power, s.phase = 6, "ita", "deploy"
    s, _ = play(s, "italy", "done")
    assert (s.round, s.power) == (7, "ger")
    assert s.control["tunis"] == "ger" and s.control["mareth"] == "ita"
    assert s.convoy_markers["tunis_csz"] == ["ger", "ita"]
    assert at(s, "casablanca", "us") == {"us.infantry": 5} and s.supply["algiers"] == 5
    assert [a["target"] for a in s.scenario_attacks] == ["casablanca", "oran", "algiers"]
    assert s.set_aside.get("ger.truck", 0) == 0


def test_supply_in_consecutive_uk_zones_advances_without_merging():
    s = position("uk", "convoys", [], control={"cairo": "uk"})
    s.convoy_supply = {"atlantic_ocean_csz": {"uk": 2}, "indian_ocean_csz": {"uk": 3}, "suez_canal_csz": {"uk": 4}}
    s.phase = "deploy"
    s.power = "ger"
    s, _ = play(s, "axis", "done")  # the UK's turn opens with phase 1
    assert s.power == "uk"
    assert s.convoy_supply["indian_ocean_csz"] == {"uk": 2}
    assert s.convoy_supply["suez_canal_csz"] == {"uk": 3}
    assert s.supply["cairo"] == 4
