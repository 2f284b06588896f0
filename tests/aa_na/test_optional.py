"""The optional rules (L1365-1441), each a set-up option off by default: bidding, Tiger
tanks, Air Transport, Mining the Suez Canal, Choice of US Landing Zones, ANZAC
Reinforcements and the Strategic Supply Reserve."""

from __future__ import annotations

import pytest

from engine.core.dice import NoDice, ScriptedDice
from engine.core.errors import IllegalOrder
from engine.games.aa_na.context import Ctx
from engine.games.aa_na.deploy import open_convoys
from tests.aa_na.helpers import R, at, play, position


def refused(s, role, text, rule_word):
    before = R.dump_state(s)
    with pytest.raises(IllegalOrder) as e:
        play(s, role, text)
    assert rule_word in e.value.rule, e.value.rule
    assert R.dump_state(s) == before


def setup_refused(scenario, options, rule_word):
    with pytest.raises(IllegalOrder) as e:
        R.setup(scenario, {"players": 2, **options}, NoDice())
    assert rule_word in e.value.rule and e.value.reason


def test_bad_options_are_refused_at_set_up_with_one_sentence():
    setup_refused("rlp", {"tiger_tanks": "yes"}, "Optional Rules")
    setup_refused("rlp", {"bid": {"ger": 3, "uk": 2}}, "Bidding")  # one side only (L1371)
    setup_refused("rlp", {"bid": {"us": 3}}, "Bidding")  # the US has no turn in RLP round 1 (L1018)
    setup_refused("ot", {"bid": {"ger": 3}}, "Bidding")  # Germany sits out OT round 7 (L1054)
    setup_refused("rlp", {"bid": {"ger": 0}}, "Bidding")


def test_the_bid_adds_to_the_first_rounds_rp_only():
    plain = R.setup("rlp", {"players": 2}, NoDice())
    s = R.setup("rlp", {"players": 2, "bid": {"ger": 3, "ita": 2}}, NoDice())
    assert s.power == "ger" and s.rp == plain.rp + 3
    s.round = 2
    s.phase = "convoys"
    from engine.games.aa_na.rules import settle
    ctx = Ctx(s.clone(), NoDice())
    settle(ctx)
    assert ctx.state.rp == plain.rp  # round 2: no bid


def test_tigers_one_a_turn_from_round_8_with_the_option():
    s = position("ger", "requisition", [("ger", "ger.infantry", "tripoli", 1)], control={"tripoli": "ita"}, round_=8)
    s.rp = 30
    refused(s, "axis", "buy 1 tiger", "Optional Rules")  # option off
    s.options = {"tiger_tanks": True}
    s.round = 7
    refused(s, "axis", "buy 1 tiger", "Tiger Tanks")
    s.round = 8
    refused(s, "axis", "buy 2 tiger", "Tiger Tanks")
    s, _ = play(s, "axis", "buy 1 tiger")
    assert s.reserves["ger"]["ger.tiger"] == 1 and s.rp == 21
    refused(s, "axis", "buy 1 tiger", "Tiger Tanks")
    assert "buy 1 tiger" not in [o.text() for o in R.legal_orders(s, "axis")]


def test_mining_the_suez_canal_needs_a_bomber_on_crete():
    s = position("ger", "requisition", [("ger", "ger.infantry", "tripoli", 1)], control={"tripoli": "ita"})
    s.rp = 10
    refused(s, "axis", "seamine suez_canal_csz", "Sea Mine Tokens")  # option off: L589 forbids it
    s.options = {"suez_mines": True}
    refused(s, "axis", "seamine suez_canal_csz", "Mining the Suez Canal")
    s.new_unit("ger.bomber", "ger", "crete")
    s, _ = play(s, "axis", "seamine suez_canal_csz")
    assert s.sea_mines["suez_canal_csz"] == {"ger": 1} and s.rp == 8


def test_air_transport_carries_one_unit_per_bomber_from_italy():
    s = position("ger", "noncombat", [("ger", "ger.bomber", "italy", 1), ("ger", "ger.infantry", "italy", 2),
                                      ("ger", "ger.tank", "italy", 1), ("uk", "uk.infantry", "cairo", 1)],
                 control={"cairo": "uk"})
    refused(s, "axis", "move 1 bomber italy sz16 sicily carry 1 infantry", "Air Transport")  # option off
    s.options = {"air_transport": True}
    assert any(o.text().endswith(" italy sicily carry 1 infantry") for o in R.legal_orders(s, "axis"))
    refused(s, "axis", "move 1 bomber italy sz16 sicily carry 2 infantry", "Air Transport")
    refused(s, "axis", "move 1 bomber italy sz16 sicily carry 1 tank", "Air Transport")
    s, _ = play(s, "axis", "move 1 bomber italy sz16 sicily carry 1 infantry")
    assert at(s, "sicily") == {"ger.bomber": 1, "ger.infantry": 1}


def test_choice_of_us_landing_zones_lifts_the_round_7_casablanca_rule():
    s = position("us", "deploy", [("us", "us.infantry", "casablanca", 1), ("uk", "uk.infantry", "oran", 1)],
                 control={"casablanca": "us", "oran": "uk"}, round_=7)
    assert open_convoys(Ctx(s, NoDice()), "us") == ["casablanca_csz"]
    s.options = {"us_landing_choice": True}
    assert "oran_csz" in open_convoys(Ctx(s, NoDice()), "us")


def test_anzac_one_uk_infantry_a_turn_straight_to_the_indian_ocean():
    s = position("uk", "deploy", [("uk", "uk.infantry", "cairo", 1)], control={"cairo": "uk"})
    s.reserves = {"uk": {"uk.infantry": 3}}
    refused(s, "allies", "deploy 1 inf indian_ocean_csz", "Phase 6")  # option off
    s.options = {"anzac": True}
    refused(s, "allies", "deploy 2 inf indian_ocean_csz", "ANZAC")
    s, _ = play(s, "allies", "deploy 1 inf indian_ocean_csz")
    assert at(s, "indian_ocean_csz") == {"uk.infantry": 1}
    refused(s, "allies", "deploy 1 inf indian_ocean_csz", "Phase 6")  # once a turn


def test_the_strategic_reserve_starts_in_the_staging_territories_and_pays_for_air_attacks():
    plain = R.setup("rlp", {"players": 2}, NoDice())
    s = R.setup("rlp", {"players": 2, "strategic_reserve": True}, NoDice())
    assert s.supply.get("italy", 0) == plain.supply.get("italy", 0) + 4
    assert s.supply.get("gibraltar", 0) == plain.supply.get("gibraltar", 0) + 9
    s = position("uk", "combat_move", [("uk", "uk.fighter", "malta", 2), ("ita", "ita.destroyer", "sz16", 1),
                                       ("ita", "ita.infantry", "tripoli", 1)],
                 control={"tripoli": "ita", "malta": "uk"})
    s.options = {"strategic_reserve": True}
    refused(s, "allies", "move 2 fighter malta malta_csz sz16", "Strategic Supply Reserve")  # the reserve is empty
    s.supply = {"gibraltar": 1}
    s, _ = play(s, "allies", "move 2 fighter malta malta_csz sz16")
    s, ev = play(s, "allies", "done")
    assert "gibraltar" not in s.supply and any("strategic reserve" in e.text for e in ev)


def test_reinforcing_land_attacks_joins_units_next_to_the_battle_before_pressing():
    """Germany attacks Agedabia from El Agheila; at step 5 the infantry in Zella, next to
    Agedabia and in no attack, join from a new source, which flanks (L1383-1385)."""
    s = position("ger", "combat_move",
                 [("ger", "ger.tank", "el_agheila", 1), ("ger", "ger.infantry", "zella", 2),
                  ("ger", "ger.scout_car", "zella", 1), ("uk", "uk.infantry", "agedabia", 2)],
                 supply={"el_agheila": 2, "zella": 1, "agedabia": 2}, control={"tripoli": "ita"})
    s, _ = play(s, "axis", "declare el_agheila agedabia")
    s, _ = play(s, "axis", "done")
    s, _ = play(s, "axis", "resolve agedabia")
    s, _ = play(s, "allies", "fight", ScriptedDice([9, 9, 9]))  # nobody hits
    assert R.prompt(s).kind == "press"
    refused(s, "axis", "reinforce zella 1 inf", "Reinforcing Land Attacks")  # option off
    s.options = {"reinforcing_attacks": True}
    assert {o.text() for o in R.legal_orders(s, "axis")} == {"press", "cease", "reinforce zella 1 infantry"}
    refused(s, "axis", "reinforce zella 1 scout", "Reinforcing Land Attacks")  # scout cars never reinforce
    refused(s, "axis", "reinforce sirte 1 inf", "Reinforcing Land Attacks")
    s, _ = play(s, "axis", "reinforce zella 2 inf")
    assert s.battle["flank"] == ["zella"] and len(s.battle["sources"]["zella"]) == 2
    s, _ = play(s, "axis", "press")  # one token for El Agheila's tank, one for Zella's infantry
    assert s.supply.get("el_agheila", 0) == 0 and s.supply.get("zella", 0) == 0
