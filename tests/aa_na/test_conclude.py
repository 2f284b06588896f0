"""Phase 4 for attacks with no actual combat (L734) and Step 6, Conclude Combat
(L851-859): advancing up to the stacking limit, control, trucks, convoy routes, and the
Instant Total Victory of a captured capital (L250-254)."""

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


def declared(units, target, source, control, supply=None, round_=1):
    s = position("uk", "combat_move", units, supply=supply or {}, control=control, round_=round_)
    s, _ = play(s, "allies", f"declare {source} {target}")
    s, _ = play(s, "allies", "done")
    assert s.phase == "combat"
    return s


def test_an_undefended_port_is_taken_and_its_axis_convoy_route_closes():
    s = declared([("uk", "uk.infantry", "agedabia", 2), ("ita", "ita.truck", "benghazi", 1),
                  ("ita", "ita.infantry", "benghazi_csz", 1)],
                 "benghazi", "agedabia", {"benghazi": "ita", "cairo": "uk"})
    s.convoy_markers["benghazi_csz"] = ["ger", "ita"]
    refused(s, "allies", "done", "Conduct Combat")  # every declared attack is carried out (L726)
    s, ev = play(s, "allies", "resolve benghazi")
    assert s.control["benghazi"] == "uk"
    assert at(s, "benghazi") == {"uk.infantry": 2, "uk.truck": 1}  # the Italian truck replaced (L748)
    assert "benghazi_csz" not in s.convoy_markers
    s, _ = play(s, "allies", "done")
    assert s.phase == "noncombat"
    # at Italy's next phase 1 the cargo bound for Benghazi returns to the Reinforcements Zone (L551-553)
    s, _ = play(s, "allies", "done")
    s, _ = play(s, "allies", "done")
    assert s.power == "ita"
    assert s.reserves["ita"] == {"ita.infantry": 1}


def test_aaa_alone_is_destroyed_without_combat():
    s = declared([("uk", "uk.infantry", "derna", 1), ("ita", "ita.aaa", "benghazi", 1)],
                 "benghazi", "derna", {"benghazi": "ita", "cairo": "uk"}, supply={"derna": 1})
    s, ev = play(s, "allies", "resolve benghazi")
    assert at(s, "benghazi") == {"uk.infantry": 1}
    assert any("AAA" in e.text for e in ev) and s.supply == {"derna": 1}


def test_the_advance_fills_the_stacking_limit_with_units_of_the_attackers_choice():
    s = position("uk", "combat_move", [("uk", "uk.infantry", "derna", 7), ("uk", "uk.artillery", "derna", 2)],
                 control={"benghazi": "ita", "cairo": "uk"})
    s, _ = play(s, "allies", "declare derna benghazi")
    s, _ = play(s, "allies", "done")
    e = refused(s, "allies", "resolve benghazi", "Conclude")
    assert "Only 8" in e.reason
    refused(s, "allies", "resolve benghazi 6 inf", "Conclude")  # all that fit must advance (L853)
    s, _ = play(s, "allies", "resolve benghazi 6 inf 2 art")
    assert at(s, "benghazi") == {"uk.infantry": 6, "uk.artillery": 2}
    assert at(s, "derna") == {"uk.infantry": 1}


def test_capturing_tunis_is_an_instant_allied_victory():
    s = declared([("uk", "uk.infantry", "sfax", 1)], "tunis", "sfax",
                 {"tunis": "ger", "cairo": "uk"}, round_=8)
    s, ev = play(s, "allies", "resolve tunis")
    assert s.over and s.winner == "allies" and "Instant Total Victory" in s.result_text
    assert R.prompt(s).role is None and R.legal_orders(s) == []
    with pytest.raises(IllegalOrder):
        play(s, "axis", "done")


def test_scout_cars_raid_supply_in_a_neutral_territory_and_stay_put():
    s = position("uk", "combat_move", [("uk", "uk.scout_car", "kufra", 1)], supply={"zella": 2},
                 control={"cairo": "uk"})
    s, _ = play(s, "allies", "declare kufra zella")
    assert s.attacks[0]["paid"] == 0
    s, _ = play(s, "allies", "done")
    s, ev = play(s, "allies", "resolve zella raid")
    assert s.supply == {"zella": 1} and at(s, "kufra") == {"uk.scout_car": 1} and s.attacks == []


def test_only_scout_cars_raid_and_only_where_supply_lies():
    s = declared([("uk", "uk.infantry", "agedabia", 1)], "benghazi", "agedabia", {"benghazi": "ita", "cairo": "uk"})
    refused(s, "allies", "resolve benghazi raid", "Supply Raider")
