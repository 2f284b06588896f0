"""Phase 2: Requisition Reinforcements (L557-611), in the rulebook's words: RP from
controlled territories plus the National Basic RP, Malta's upkeep, the supply cap, the
reinforcements deployed at once, mines and battleship repair."""

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


def uk_turn(malta_supply: int = 2):
    """Round 1: Germany passes, then the UK opens phase 2 (L563)."""
    s = start()
    s.supply["malta"] = malta_supply
    for _ in range(5):
        s, _ = play(s, "axis", "done")
    assert (s.power, s.phase) == ("uk", "requisition")
    return s


def test_uk_pays_one_malta_supply_for_its_15_rp():
    s = uk_turn(2)
    # 12 national basic + Cairo 8 + Tobruk 3 + Benghazi 3 + Malta 15 (L563, L565)
    assert s.rp == 12 + 8 + 3 + 3 + 15
    assert s.supply["malta"] == 1


def test_without_a_malta_token_its_rp_do_not_count():
    s = uk_turn(0)
    assert s.rp == 12 + 8 + 3 + 3
    assert s.supply["malta"] == 0


def test_units_go_to_the_reinforcements_zone_and_cost_rp():
    s = start()
    s, ev = play(s, "axis", "buy 2 inf 1 tank")
    assert s.reserves["ger"] == {"ger.infantry": 2, "ger.tank": 1}
    assert s.rp == 18 - 2 * 3 - 6
    assert "requisitions" in ev[0].text


def test_german_submarines_deploy_at_once_in_sea_zone_1():
    s = start()
    n = at(s, "sz1", "ger").get("ger.submarine", 0)
    s, _ = play(s, "axis", "buy 1 sub")
    assert at(s, "sz1", "ger")["ger.submarine"] == n + 1
    assert "ger.submarine" not in s.reserves["ger"]


def test_too_expensive_is_refused():
    s = start()
    e = refused(s, "axis", "buy 2 fighter", "Requisition")
    assert "20 RP" in e.reason and "18 RP" in e.reason


def test_the_uk_may_never_requisition_shermans():
    s = uk_turn()
    refused(s, "allies", "buy 1 sherman", "Requisition")


def test_a_unit_not_on_the_chart_is_refused():
    s = uk_turn()
    e = refused(s, "allies", "buy 1 mech", "Requisition")
    assert "reference chart" in e.reason


def test_five_supply_a_turn_and_ten_for_the_us():
    s = start()
    s, _ = play(s, "axis", "supply 3")
    s, _ = play(s, "axis", "supply 2")
    assert s.reserves["ger"]["supply"] == 5
    refused(s, "axis", "supply 1", "Requisition")
    us = position("us", "requisition", [], round_=8)
    us.rp = 30
    us, _ = play(us, "allies", "supply 10")
    assert us.reserves["us"]["supply"] == 10


def test_the_us_buys_no_air_units_in_round_7():
    s = position("us", "requisition", [], round_=7)
    s.rp = 30
    refused(s, "allies", "buy 1 fighter", "round 7")
    s.round = 8
    s, _ = play(s, "allies", "buy 1 fighter")
    assert s.reserves["us"] == {"us.fighter": 1}


def test_free_french_need_allied_oran_and_come_one_of_each_a_turn():
    s = position("us", "requisition", [], control={"oran": "us"}, round_=8)
    s.rp = 30
    s, _ = play(s, "allies", "buy 1 ff_inf")
    assert at(s, "oran", "free_french") == {"fra.infantry": 1}
    refused(s, "allies", "buy 1 ff_inf", "deployed at once")
    s2 = position("us", "requisition", [], control={"oran": "ger"}, round_=8)
    s2.rp = 30
    refused(s2, "allies", "buy 1 ff_tank", "deployed at once")
    full = position("us", "requisition", [("us", "us.infantry", "oran", 8)], control={"oran": "us"}, round_=8)
    full.rp = 30
    refused(full, "allies", "buy 1 ff_tank", "deployed at once")


def test_land_mines_deploy_then_upgrade_once_a_turn_per_territory():
    s = position("ger", "requisition", [("ger", "ger.infantry", "el_agheila", 1)])
    s.rp = 5
    s, _ = play(s, "axis", "landmine el_agheila agedabia")
    assert s.land_mines == [{"territory": "el_agheila", "facing": "agedabia", "tokens": [1]}]
    refused(s, "axis", "landmine el_agheila sirte", "Land Mine")
    s.bought["land_mines"] = []  # next turn
    s, _ = play(s, "axis", "landmine el_agheila agedabia")
    assert s.land_mines[0]["tokens"] == [2] and s.rp == 3


def test_land_mines_only_where_the_power_controls_or_stands():
    s = position("ger", "requisition", [("uk", "uk.infantry", "agedabia", 1)])
    s.rp = 5
    refused(s, "axis", "landmine agedabia el_agheila", "Land Mine")
    refused(s, "axis", "landmine el_agheila tobruk", "Land Mine")  # not adjacent


def test_sea_mines_once_per_zone_and_never_where_the_axis_may_not():
    s = position("ita", "requisition", [("uk", "uk.destroyer", "sz18", 1)])
    s.rp = 10
    refused(s, "axis", "seamine sz18", "Sea Mine")  # enemy combat sea units (L589)
    refused(s, "axis", "seamine sz31", "Sea Mine")  # never SZ 31 for the Axis (L589)
    refused(s, "axis", "seamine sz2", "Sea Mine")  # the US deployment zone (L589)
    s, _ = play(s, "axis", "seamine sz14")
    assert s.sea_mines == {"sz14": {"ita": 1}} and s.rp == 8
    refused(s, "axis", "seamine sz14", "Sea Mine")


def test_battleship_repair_takes_a_cairo_token():
    s = position("uk", "requisition", [("uk", "uk.battleship", "sz31", 1)], supply={"cairo": 1},
                 control={"cairo": "uk"})
    refused(s, "allies", "repair", "Repair")
    s.units[0].hits = 1
    s, _ = play(s, "allies", "repair")
    assert s.units[0].hits == 0 and s.supply["cairo"] == 0


def test_unspent_rp_are_lost():
    s = start()
    s, ev = play(s, "axis", "done")
    assert s.rp == 0 and "lost" in ev[0].text
