"""National Advantages (Revised: Appendix 3), each chosen at setup."""

from __future__ import annotations

import json

import pytest

from engine.core.dice import NoDice, ScriptedDice
from engine.games.aa_revised import battle as bt
from engine.games.aa_revised import modifiers
from engine.games.aa_revised.context import Ctx
from engine.games.aa_revised.geography import geography
from engine.games.aa_revised.options import Options
from engine.games.aa_revised.state import ActiveBattle
from tests.aa_revised_rules.helpers import RULES, board, legal, play, prompt, put, refused, scene


def na(power: str, *names: str) -> dict:
    return {"advantages": {power: list(names)}}


def test_an_advantage_of_another_power_is_refused_at_setup_with_the_reason():
    """Appendix 3: each power chooses among its own six (Joint Strike, once refused here
    as not carried out, is now played: see the Joint Strike tests)."""
    with pytest.raises(ValueError) as info:
        RULES.setup("five-players", na("japan", "radar"), NoDice())
    assert "'radar' is not a national advantage of Japan" in str(info.value)
    assert RULES.setup("five-players", na("uk", "joint_strike"), NoDice()).advantages == {
        "uk": ["joint_strike"]
    }


def test_advantages_may_be_rolled_at_setup_and_repeats_are_rolled_again():
    """Appendix 3; RULINGS Q-22."""
    s = RULES.setup("five-players", {"random_advantages": 1},
                    ScriptedDice([1, 6, 6, 1, 6]))  # fmt: skip
    assert s.advantages["ussr"] == ["russian_winter"]
    assert s.advantages["germany"] == ["fortress_europe"]
    assert s.advantages["uk"] == ["colonial_garrison"]
    assert s.advantages["japan"] == ["tokyo_express"]
    assert s.advantages["usa"] == ["superfortresses"]


# -- combat values ----------------------------------------------------------------------


def _battle_state(attackers, defenders, sea=False, amphibious=False):
    b = bt.new_battle(attackers, defenders, sea=sea, amphibious=amphibious)
    return ActiveBattle("x", sea, "germany", "ussr", b)


def test_the_value_adapter_rolls_exactly_as_the_battle_rules_do_when_nothing_changes():
    """modifiers._volley against battle.roll: the same dice give the same battle."""
    units_a = [bt.Unit("a1", "infantry"), bt.Unit("a2", "artillery"), bt.Unit("a3", "infantry"),
               bt.Unit("a4", "bomber")]  # fmt: skip
    units_d = [bt.Unit("d1", "infantry"), bt.Unit("d2", "tank"), bt.Unit("d3", "fighter")]
    b = bt.new_battle(units_a, units_d, attacker_techs={"heavy_bombers"})
    ours = modifiers._volley(b, bt.ATTACKER, ScriptedDice([2, 3, 2, 1, 5]), {})
    theirs = bt.roll(b, ScriptedDice([2, 3, 2, 1, 5]))
    assert ours.pending == theirs.pending
    assert [e.text for e in ours.events] == [e.text for e in theirs.events]
    subs = bt.new_battle([bt.Unit("s1", "submarine"), bt.Unit("s2", "submarine")],
                         [bt.Unit("t1", "transport"), bt.Unit("d1", "destroyer")], sea=True)  # fmt: skip
    ours = modifiers._submarines(subs, ScriptedDice([1, 4]), {bt.ATTACKER: {}, bt.DEFENDER: {}})
    theirs = bt.roll(subs, ScriptedDice([1, 4]))
    assert ours.pending == theirs.pending


def test_russian_winter_soviet_infantry_defend_at_three_until_the_next_soviet_turn():
    s = scene("ussr", phase="income", **na("ussr", "russian_winter"))
    assert "winter" in legal(s)
    s, log = play(s, "winter")
    assert s.na["winter"] and s.power == "germany"
    put(s, "germany", "ukraine_ssr", infantry=1)
    put(s, "ussr", "caucasus", infantry=1)
    s.phase = "combat_move"
    s, log = play(s, "move 1 inf ukraine_ssr caucasus", "done", dice=[6, 3])
    assert any("needs 3 or less: hit" in line for line in log)
    refused(s, "winter")


def test_fortress_europe_german_artillery_defends_at_three_in_gray_territory():
    s = scene("ussr", **na("germany", "fortress_europe"))
    put(s, "ussr", "caucasus", infantry=1)
    put(s, "germany", "ukraine_ssr", artillery=1)
    s, log = play(s, "move 1 inf caucasus ukraine_ssr", "done", dice=[6, 3])
    assert any("artillery" in line and "needs 3 or less: hit" in line for line in log)


def test_dug_in_defenders_japanese_infantry_on_islands_defend_at_three():
    s = scene("usa", **na("japan", "dug_in_defenders"))
    trn = put(s, "usa", "sz37", transport=1)[0]
    for uid in put(s, "usa", "sz37", infantry=1):
        s.units[uid].aboard = trn
    put(s, "japan", "east_indies", infantry=1)
    s, log = play(s, "move 1 inf sz37 east_indies", "done", "attack east_indies", dice=[6, 3])
    assert any("needs 3 or less: hit" in line for line in log)


def test_banzai_an_all_infantry_attack_hits_on_two():
    s = scene("japan", **na("japan", "banzai_attacks"))
    put(s, "japan", "kwangtung", infantry=1)
    put(s, "usa", "china", infantry=1)
    s, log = play(s, "move 1 inf kwangtung china", "done", dice=[2, 6])
    assert any("needs 2 or less: hit" in line for line in log)


def test_banzai_does_not_apply_when_aircraft_join_the_attack():
    s = scene("japan", **na("japan", "banzai_attacks"))
    put(s, "japan", "kwangtung", infantry=1, fighter=1)
    put(s, "usa", "china", infantry=2)
    s, log = play(s, "move 1 inf kwangtung china", "move 1 ftr kwangtung china", "done",
                  dice=[2, 6, 6, 6])  # fmt: skip
    assert any("infantry" in line and "needs 1 or less: miss" in line for line in log)


def test_marines_us_infantry_attack_at_two_in_the_first_cycle_of_an_assault():
    s = scene("usa", **na("usa", "marines"))
    trn = put(s, "usa", "sz37", transport=1)[0]
    for uid in put(s, "usa", "sz37", infantry=1):
        s.units[uid].aboard = trn
    put(s, "japan", "east_indies", infantry=1)
    s, log = play(s, "move 1 inf sz37 east_indies", "done", "attack east_indies", dice=[2, 6])
    assert any("needs 2 or less: hit" in line for line in log)


def test_atlantic_wall_german_infantry_defend_at_three_against_the_first_assault_cycle():
    s = scene("uk", **na("germany", "atlantic_wall"))
    trn = put(s, "uk", "sz7", transport=1)[0]
    for uid in put(s, "uk", "sz7", infantry=2):
        s.units[uid].aboard = trn
    put(s, "germany", "western_europe", infantry=1)
    # cycle 1: the attackers miss, the German infantry hits on its 3; cycle 2: the
    # remaining attacker hits and the infantry, back to 2, misses
    s, log = play(s, "move 2 inf sz7 western_europe", "done", "attack western_europe",
                  dice=[6, 6, 3, 1, 3])  # fmt: skip
    assert "needs 3 or less: hit" in [line for line in log if "rolls 3" in line][0]
    assert "needs 2 or less: miss" in [line for line in log if "rolls 3" in line][1]
    assert s.control["western_europe"] == "uk"


def test_wolf_packs_three_submarines_attack_at_three_for_the_whole_battle():
    s = scene("germany", **na("germany", "wolf_packs"))
    put(s, "germany", "sz8", submarine=3)
    put(s, "uk", "sz7", battleship=1, transport=1)
    s, log = play(s, "move 3 sub sz8 sz7", "done", dice=[3, 6, 6])
    assert sum("needs 3 or less" in line for line in log) == 3
    assert prompt(s) == ("uk", "casualties")


# -- the others -------------------------------------------------------------------------


def test_u_boat_interdiction_costs_the_uk_one_ipc_per_german_submarine():
    s = scene("uk", phase="mobilize", ipcs=0, **na("germany", "u_boat_interdiction"))
    put(s, "germany", "sz5", submarine=2)
    s, log = play(s, "done")
    assert s.ipcs["uk"] == 28
    assert any("U-Boat Interdiction" in line for line in log)


def test_colonial_garrison_gives_the_uk_a_second_industrial_complex():
    s = RULES.setup("five-players", {**na("uk", "colonial_garrison"),
                                     "colonial_garrison_territory": "australia"}, NoDice())  # fmt: skip
    assert "australia" in s.ics
    with pytest.raises(ValueError):
        RULES.setup("five-players", {**na("uk", "colonial_garrison"),
                                     "colonial_garrison_territory": "gibraltar"}, NoDice())  # fmt: skip


def test_french_resistance_three_uk_infantry_when_western_europe_turns_allied():
    s = scene("usa", **na("uk", "french_resistance"))
    trn = put(s, "usa", "sz7", transport=1)[0]
    for uid in put(s, "usa", "sz7", infantry=1):
        s.units[uid].aboard = trn
    s, log = play(s, "move 1 inf sz7 western_europe", "done", "attack western_europe")
    assert board(s, "western_europe") == {"usa": {"infantry": 1}, "uk": {"infantry": 3}}
    assert s.na["french_resistance_used"]


def test_salvage_a_free_soviet_tank_after_a_defence_that_destroyed_an_attacking_tank():
    s = scene("germany", **na("ussr", "salvage"))
    put(s, "germany", "ukraine_ssr", tank=1)
    put(s, "ussr", "caucasus", infantry=1)
    s, log = play(s, "move 1 arm ukraine_ssr caucasus", "done", dice=[6, 1])
    assert board(s, "caucasus") == {"ussr": {"infantry": 1, "tank": 1}}


def test_nonaggression_treaty_four_soviet_infantry_meet_the_first_japanese_attack():
    s = scene("japan", **na("ussr", "nonaggression_treaty"))
    put(s, "japan", "manchuria", infantry=1)
    s, log = play(s, "move 1 inf manchuria buryatia_ssr", "done", dice=[6, 6, 6, 6, 6])
    assert any("Nonaggression Treaty" in line for line in log)
    assert board(s, "buryatia_ssr")["ussr"] == {"infantry": 4}


def test_panzerblitz_tanks_that_won_in_one_cycle_move_one_more_territory():
    s = scene("germany", **na("germany", "panzerblitz"))
    tank = put(s, "germany", "ukraine_ssr", tank=1)[0]
    put(s, "ussr", "caucasus", infantry=1)
    s, _ = play(s, "move 1 arm ukraine_ssr caucasus", "done", dice=[1, 6])
    s, _ = play(s, "move 1 arm caucasus ukraine_ssr")
    assert s.units[tank].at == "ukraine_ssr"


def test_luftwaffe_dive_bombers_fighters_raid_for_half_a_die():
    s = scene("germany", **na("germany", "luftwaffe_dive_bombers"))
    put(s, "germany", "western_europe", fighter=1)
    s.ipcs["uk"] = 30
    s, log = play(s, "bomb 1 ftr western_europe united_kingdom", "done", dice=[5])
    assert s.ipcs["uk"] == 27  # 5 halved, rounded up


def test_radar_uk_guns_in_tan_territory_hit_on_two():
    s = scene("germany", **na("uk", "radar"))
    f = put(s, "germany", "western_europe", fighter=1)[0]
    put(s, "uk", "united_kingdom", aa_gun=1, infantry=1)
    s, log = play(s, "move 1 ftr western_europe united_kingdom", "done", dice=[2])
    assert f not in s.units and any("needs 2: shot down" in line for line in log)


def test_superfortresses_us_bombers_are_never_fired_on():
    s = scene("usa", **na("usa", "superfortresses"))
    put(s, "usa", "united_kingdom", bomber=1)
    put(s, "germany", "germany", aa_gun=1)
    s, log = play(s, "bomb 1 bmb united_kingdom germany", "done", dice=[4])
    assert s.ipcs["germany"] == 36
    assert not any("Antiaircraft" in line for line in log)


def test_mechanized_infantry_us_infantry_move_two_and_blitz():
    s = scene("usa", **na("usa", "mechanized_infantry"))
    put(s, "usa", "china", infantry=1)
    s, _ = play(s, "move 1 inf china kwangtung french_indochina")
    assert s.control["kwangtung"] == "usa"


def test_fast_carriers_us_carriers_move_three():
    s = scene("usa", phase="noncombat", **na("usa", "fast_carriers"))
    put(s, "usa", "sz52", carrier=1)
    s, _ = play(s, "move 1 cv sz52 sz53 sz43 sz42")
    assert board(s, "sz42") == {"usa": {"carrier": 1}}


def test_trans_siberian_railway_two_territories_along_the_railway_in_noncombat():
    s = scene("ussr", phase="noncombat", **na("ussr", "trans_siberian_railway"))
    put(s, "ussr", "russia", infantry=1)
    s, _ = play(s, "move 1 inf russia novosibirsk yakut_ssr")
    assert board(s, "yakut_ssr") == {"ussr": {"infantry": 1}}
    s2 = scene("ussr", phase="noncombat", **na("ussr", "trans_siberian_railway"))
    put(s2, "ussr", "russia", infantry=1)
    refused(s2, "move 1 inf russia kazakh_ssr novosibirsk")


def test_tokyo_express_a_japanese_destroyer_carries_one_infantry():
    s = scene("japan", phase="noncombat", **na("japan", "tokyo_express"))
    put(s, "japan", "sz60", destroyer=1)
    put(s, "japan", "japan", infantry=2, tank=1)
    refused(s, "move 1 arm japan sz60")
    s, _ = play(s, "move 1 inf japan sz60")
    refused(s, "move 1 inf japan sz60")


def test_chinese_divisions_one_free_infantry_a_round():
    s = scene("usa", phase="mobilize", **na("usa", "chinese_divisions"))
    s.pending = {"tank": 1}
    assert "place 1 inf china" in legal(s)
    s, _ = play(s, "place 1 inf china")
    assert board(s, "china") == {"usa": {"infantry": 1}}
    assert "place 1 inf sinkiang" not in legal(s)


def test_the_settings_model_rejects_unknown_options():
    from pydantic import ValidationError

    with pytest.raises(ValidationError):
        Options.model_validate({"no_such_option": True})
    assert Ctx(geography(), Options(), scene("usa"), None).power == "usa"


def test_lend_lease_turns_friendly_units_in_red_territory_soviet():
    s = scene("ussr", phase="purchase", ipcs=0, **na("ussr", "lend_lease"))
    put(s, "uk", "archangel", tank=1, fighter=1)
    assert "convert 1 arm archangel" in legal(s)
    s, log = play(s, "convert 1 arm 1 ftr archangel")
    assert board(s, "archangel") == {"ussr": {"tank": 1, "fighter": 1}}
    refused(s, "convert 1 arm archangel")


def test_mobile_industry_a_soviet_complex_moves_one_territory_in_the_noncombat_move():
    s = scene("ussr", phase="noncombat", **na("ussr", "mobile_industry"))
    s, log = play(s, "move 1 ic russia novosibirsk")
    assert "novosibirsk" in s.ics and "russia" not in s.ics
    refused(s, "move 1 ic novosibirsk yakut_ssr")  # once a turn
    s2 = scene("ussr", **na("ussr", "mobile_industry"))
    refused(s2, "move 1 ic russia novosibirsk")  # never in the combat move


def test_mideast_oil_uk_aircraft_refuel_in_the_middle_east():
    s = scene("uk", phase="noncombat", **na("uk", "mideast_oil"))
    f = put(s, "uk", "india", fighter=1)[0]
    s, _ = play(s, "move 1 ftr india persia")
    s, _ = play(s, "move 1 ftr persia trans_jordan anglo_egypt")
    s, _ = play(s, "move 1 ftr anglo_egypt italian_east_africa kenya")
    assert s.units[f].at == "kenya"
    s2 = scene("uk", phase="noncombat")
    put(s2, "uk", "india", fighter=1)
    s2, _ = play(s2, "move 1 ftr india persia")
    s2, _ = play(s2, "move 1 ftr persia trans_jordan anglo_egypt")
    err = refused(s2, "move 1 ftr anglo_egypt italian_east_africa kenya")
    assert "1 left" in str(err)


def test_lightning_assaults_a_transport_lands_twice_from_two_sea_zones():
    """Appendix 3; FAQ: load two infantry, land one, move on, land the other elsewhere;
    the transport's capacity is for the whole turn."""
    s = scene("japan", **na("japan", "lightning_assaults"))
    trn = put(s, "japan", "sz59", transport=1)[0]
    a, b = put(s, "japan", "sz59", infantry=2)
    s.units[a].aboard = s.units[b].aboard = trn
    s.control["kwangtung"] = s.start_control["kwangtung"] = "usa"
    s.control["philippine_islands"] = s.start_control["philippine_islands"] = "usa"
    put(s, "japan", "japan", tank=1)
    s, _ = play(s, f"move {a} sz59 kwangtung", "move 1 trn sz59 sz49")
    s, _ = play(s, f"move {b} sz49 philippine_islands")
    assert s.units[a].at == "kwangtung" and s.units[b].at == "philippine_islands"
    refused(s, "move 1 trn sz49 sz60")  # two assaults: now it stops


def test_without_lightning_assaults_a_transport_offloads_once():
    s = scene("japan")
    trn = put(s, "japan", "sz59", transport=1)[0]
    a, b = put(s, "japan", "sz59", infantry=2)
    s.units[a].aboard = s.units[b].aboard = trn
    s.control["kwangtung"] = s.start_control["kwangtung"] = "usa"
    s, _ = play(s, f"move {a} sz59 kwangtung")
    refused(s, "move 1 trn sz59 sz49")


def test_kamikaze_aircraft_strike_ships_in_the_opening_fire_and_are_lost():
    """Appendix 3, Kamikaze Attacks; FAQ: the defender chooses the ship hit; RULINGS Q-32."""
    s = scene("japan", **na("japan", "kamikaze_attacks"))
    f = put(s, "japan", "japan", fighter=1)[0]
    put(s, "usa", "sz57", battleship=1, transport=1)
    refused(s, "move 1 ftr japan sz57 sz56")  # no landing and not declared kamikaze
    s, log = play(s, "move 1 ftr japan sz57 kamikaze", "done", dice=[2])
    assert prompt(s) == ("usa", "casualties")
    refused(s, "casualties 1 ftr")
    s, log = play(s, "casualties 1 trn")
    assert f not in s.units  # lost as it strikes, and it never fires again
    assert board(s, "sz57") == {"usa": {"battleship": 1}}


def test_kaiten_torpedoes_defend_at_three_and_are_lost():
    s = scene("usa", **na("japan", "kaiten_torpedoes"))
    put(s, "usa", "sz52", destroyer=1, transport=1)
    sub = put(s, "japan", "sz60", submarine=1)[0]
    s.units[sub].at = "sz61"
    put(s, "japan", "sz61", transport=1)
    dd = put(s, "usa", "sz60", destroyer=1)[0]
    s, log = play(s, "move 1 dd sz60 sz61", "done")
    assert prompt(s) == ("japan", "kaiten")
    # the kaiten hits on 3; the destroyer, its victim, fires back (6); the transport has
    # nothing left to hit and does not roll; the destroyer goes at step 6
    s, log = play(s, "kaiten 1 sub", dice=[3, 6])
    assert any("needs 3 or less: hit" in line for line in log)
    assert sub not in s.units and dd not in s.units


def test_kaiten_japan_is_asked_again_at_the_start_of_every_cycle():
    """Appendix 3, Kaiten Torpedoes: a kaiten is lost "in this cycle of combat", any
    cycle: Japan declines in the first cycle and strikes in the second."""
    s = scene("usa", **na("japan", "kaiten_torpedoes"))
    sub = put(s, "japan", "sz61", submarine=1)[0]
    put(s, "japan", "sz61", transport=1)
    dd = put(s, "usa", "sz60", destroyer=1)[0]
    s, _ = play(s, "move 1 dd sz60 sz61", "done")
    assert prompt(s) == ("japan", "kaiten")
    # cycle 1: the submarine (2), the destroyer and the transport all miss
    s, log = play(s, "kaiten none", dice=[6, 6, 6])
    assert any("submarine" in line and "needs 2 or less: miss" in line for line in log)
    assert prompt(s) == ("usa", "press")
    s, _ = play(s, "press")
    assert prompt(s) == ("japan", "kaiten") and "cycle 2" in RULES.prompt(s).text
    # cycle 2: the kaiten hits on 3 and is lost; the destroyer fires back (6) and goes
    # at step 6; the transport has nothing left to hit and does not roll
    s, log = play(s, "kaiten 1 sub", dice=[3, 6])
    assert any("needs 3 or less: hit" in line for line in log)
    assert sub not in s.units and dd not in s.units
    assert board(s, "sz61") == {"japan": {"transport": 1}}


def test_a_kaiten_and_its_destroyer_victim_both_go_and_nobody_wins():
    """The kaiten is lost at step 3 and was Japan's only ship; its victim, kept on the
    board by the U.S. destroyer's presence, has nothing to fire at and goes at step 6
    (Revised: Destroyers and Submarine Casualties; Step 7 d)."""
    s = scene("usa", **na("japan", "kaiten_torpedoes"))
    sub = put(s, "japan", "sz61", submarine=1)[0]
    dd = put(s, "usa", "sz60", destroyer=1)[0]
    s, _ = play(s, "move 1 dd sz60 sz61", "done")
    s, log = play(s, "kaiten 1 sub", dice=[1])
    assert sub not in s.units and dd not in s.units
    assert any("removed at step 6" in line for line in log)
    assert any("mutual destruction" in line for line in log)


def test_a_destroyer_hit_by_a_submarine_is_lost_even_when_the_battle_ends_at_step_3():
    """Revised: Destroyers and Submarine Casualties: the victim fires back and goes at
    step 6; here the enemy submarine is already gone at step 3 (RULINGS R-44)."""
    s = scene("uk")
    dd, sub = put(s, "uk", "sz7", destroyer=1, submarine=1)
    put(s, "germany", "sz6", submarine=1)
    s, log = play(s, "move 1 dd 1 sub sz7 sz6", "done", dice=[1, 1])
    assert prompt(s) == ("uk", "casualties")
    s, log = play(s, "casualties 1 dd")
    assert dd not in s.units and sub in s.units


def test_island_bases_us_aircraft_count_an_island_and_its_sea_zone_as_one_space():
    """Appendix 3, Island Bases: Hawaii to the East Indies with a move of 4."""
    s = scene("usa", phase="noncombat", **na("usa", "island_bases"))
    s.control["east_indies"] = s.start_control["east_indies"] = "usa"
    f = put(s, "usa", "hawaiian_islands", fighter=1)[0]
    s, log = play(s, "move 1 ftr hawaiian_islands east_indies")
    assert s.units[f].at == "east_indies" and s.units[f].moved <= 4
    s2 = scene("usa", phase="noncombat")
    s2.control["east_indies"] = s2.start_control["east_indies"] = "usa"
    put(s2, "usa", "hawaiian_islands", fighter=1)
    err = refused(s2, "move 1 ftr hawaiian_islands east_indies")
    assert "spaces from" in str(err)


def test_enigma_decoded_the_uk_reinforces_a_space_germany_attacks():
    """Appendix 3, Enigma Decoded; FAQ: from any one adjacent space, once a game."""
    s = scene("germany", **na("uk", "enigma_decoded"))
    s.control["archangel"] = s.start_control["archangel"] = "uk"
    put(s, "uk", "archangel", infantry=2)
    put(s, "germany", "belorussia", infantry=1)
    put(s, "ussr", "karelia_ssr", infantry=1)
    s, _ = play(s, "move 1 inf belorussia karelia_ssr", "done")
    assert prompt(s) == ("uk", "enigma")
    assert "move 1 inf archangel karelia_ssr" in legal(s)
    err = refused(s, "move 1 inf archangel russia")
    assert "Germany is attacking" in str(err)
    s, log = play(s, "move 2 inf archangel karelia_ssr", dice=[6, 6, 6, 6])
    assert board(s, "karelia_ssr")["uk"] == {"infantry": 2}
    assert s.na["enigma_used"]


def test_enigma_decoded_a_withdrawal_leaves_one_unit_behind():
    s = scene("germany", **na("uk", "enigma_decoded"))
    s.control["archangel"] = s.start_control["archangel"] = "uk"
    s.control["karelia_ssr"] = s.start_control["karelia_ssr"] = "uk"
    put(s, "uk", "karelia_ssr", infantry=1)
    put(s, "germany", "belorussia", infantry=1)
    s, _ = play(s, "move 1 inf belorussia karelia_ssr", "done")
    err = refused(s, "move 1 inf karelia_ssr archangel")
    assert "must stay" in str(err)
    s, _ = play(s, "done", dice=[6, 6])
    assert s.phase == "combat" or s.phase == "noncombat"


# -- Joint Strike (Appendix 3; FAQ L1482-1484; RULINGS R-50) -----------------------------


def _joint_strike(scenario: str = "five-players"):
    """The U.K. declares its Joint Strike; play passes to the U.S. combat move. In Anglo-
    Egypt: a U.K. infantry (u1) and fighter (u2), a U.S. tank (u3); in Trans-Jordan a U.K.
    infantry (u4); two German infantry hold Libya."""
    s = scene("uk", scenario=scenario, **na("uk", "joint_strike"))
    put(s, "uk", "anglo_egypt", infantry=1, fighter=1)
    put(s, "usa", "anglo_egypt", tank=1)
    put(s, "uk", "trans_jordan", infantry=1)
    put(s, "germany", "libya", infantry=2)
    assert "joint" in legal(s)
    s, log = play(s, "joint")
    assert any("Joint Strike: the United Kingdom skips its combat move" in x for x in log)
    assert prompt(s)[1] == "noncombat"  # the U.K. still makes its noncombat move
    while s.power != "usa" or s.phase != "combat_move":
        s, _ = play(s, "done")
    return s


def test_joint_strike_the_us_attacks_with_uk_units_and_the_uk_agrees_to_the_casualties():
    """Appendix 3, Joint Strike: the U.S. player moves U.K. units in his combat move and
    fights with them as if they were American; the two players agree on the attacking
    casualties. The U.S. takes what it captures (RULINGS R-50)."""
    s = _joint_strike()
    assert "with U.K. units too" in RULES.prompt(s).text
    assert "move 1 inf anglo_egypt libya" in legal(s)
    s, _ = play(s, "move 1 inf 1 arm anglo_egypt libya", "move u2 anglo_egypt libya")
    assert {s.units[u].at for u in ("u1", "u2", "u3")} == {"libya"}
    # cycle 1: U.K. infantry 1 (hit), fighter 6, U.S. tank 6; Germany 1 (hit) and 6
    s, log = play(s, "done", dice=[1, 6, 6, 1, 6])
    assert prompt(s) == ("usa", "casualties")
    assert "United Kingdom: u1 u2" in RULES.prompt(s).text
    s, log = play(s, "casualties 1 inf")
    assert prompt(s) == ("uk", "agree") and "u1" in RULES.prompt(s).text
    assert "u1" in s.units  # nothing is taken before the U.K. agrees
    assert RULES.load_state(json.loads(json.dumps(RULES.dump_state(s)))) == s
    s, log = play(s, "agree")
    assert "u1" not in s.units
    # cycle 2: the fighter hits; the last German infantry misses
    s, log = play(s, "press", dice=[1, 6])
    assert s.control["libya"] == "usa"
    assert prompt(s) == ("usa", "noncombat")
    # only the U.K. aircraft that attacked may still move, to land
    err = refused(s, "move 1 inf trans_jordan anglo_egypt")
    assert "Joint Strike" in str(err)
    s, _ = play(s, "move u2 libya anglo_egypt", "done")
    assert s.units["u2"].at == "anglo_egypt"


def test_joint_strike_if_the_uk_disagrees_the_defender_chooses_the_attacking_casualties():
    """Appendix 3, Joint Strike: "or the opposing player gets to choose them"."""
    s = _joint_strike()
    s, _ = play(s, "move 1 inf 1 arm anglo_egypt libya", "done", dice=[6, 6, 1, 6])
    s, _ = play(s, "casualties 1 inf")
    s, log = play(s, "disagree")
    assert prompt(s) == ("germany", "casualties")
    assert "among the attackers" in RULES.prompt(s).text
    s, log = play(s, "casualties u3")
    assert "u3" not in s.units and "u1" in s.units
    assert prompt(s) == ("usa", "press")


def test_joint_strike_one_player_holding_both_powers_chooses_alone():
    """With the U.S. and the U.K. in one player's hands there is nobody to agree with;
    the U.K.'s standing order to agree does the same when they are two (RULINGS R-50)."""
    s = _joint_strike("two-players")
    s, _ = play(s, "move 1 inf 1 arm anglo_egypt libya", "done", dice=[6, 6, 1, 6])
    s, _ = play(s, "casualties u3")
    assert "u3" not in s.units and prompt(s) == ("allies", "press")
    s = _joint_strike()
    s, _ = play(s, "standing joint agree", role="uk")
    s, _ = play(s, "move 1 inf 1 arm anglo_egypt libya", "done", dice=[6, 6, 1, 6])
    s, _ = play(s, "casualties 1 arm")
    assert "u3" not in s.units and prompt(s) == ("usa", "press")


def test_joint_strike_is_declared_once_a_game_before_any_uk_combat_move():
    s = scene("uk", **na("uk", "joint_strike"))
    put(s, "uk", "anglo_egypt", infantry=2)
    put(s, "germany", "libya", infantry=1)
    s2, _ = play(s, "move 1 inf anglo_egypt libya")
    err = refused(s2, "joint")
    assert "already made combat moves" in str(err)
    s.na["joint_strike_used"] = True
    err = refused(s, "joint")
    assert "once a game" in str(err)
    assert "joint" not in legal(s)
    plain = scene("uk")
    err = refused(plain, "joint")
    assert "holding Joint Strike" in str(err)


def test_joint_strike_ends_with_the_us_turn():
    """The U.K. units are the U.S. player's for that U.S. turn only."""
    s = _joint_strike()
    while s.power == "usa":
        s, _ = play(s, "done")
    assert s.power == "ussr"
    from engine.games.aa_revised.context import Ctx

    assert Ctx(geography(), Options(), s, None).commanded() == ("ussr",)
    while s.power != "usa" or s.phase != "combat_move":
        s, _ = play(s, "done")
    refused(s, "move 1 inf anglo_egypt libya")
