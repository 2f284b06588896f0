"""The adjudication digest's fifteen test scenarios (digest §11.5, T01-T15), each with
scripted dice, traced to the rulebook lines the digest cites."""

from __future__ import annotations

from engine.games.aa_revised.context import Ctx
from engine.games.aa_revised.geography import geography
from engine.games.aa_revised.options import Options
from engine.games.aa_revised.rules import settle
from tests.aa_revised_rules.helpers import board, legal, play, prompt, put, refused, scene


def settled(state):
    """Run the automatic steps on a scene built by hand (as every applied order does)."""
    ctx = Ctx(geography(), Options.model_validate(state.options), state.clone(), None)
    settle(ctx)
    return ctx.state


def cargo(state, transport_id, power, **counts):
    ids = put(state, power, state.units[transport_id].at, **counts)
    for uid in ids:
        state.units[uid].aboard = transport_id
    return ids


def production(state, power):
    return Ctx(geography(), Options(), state, None).production(power)


# T01 ------------------------------------------------------------------------------------


def test_t01_artillery_pairs_one_for_one_with_attacking_infantry():
    """CBT-10 (L599, L702; FAQ L1305-1307): 5 infantry and 2 artillery attack; every die
    shows 2: two supported infantry and both artillery hit, three infantry miss: 4 hits.
    Defending infantry get no support and defend at 2."""
    s = scene("germany")
    put(s, "germany", "ukraine_ssr", infantry=5, artillery=2)
    put(s, "ussr", "caucasus", infantry=4, artillery=1)
    s, log = play(s, "move 5 inf 2 art ukraine_ssr caucasus", "done", dice=[2] * 7)
    fire = [line for line in log if "rolls 2" in line]
    assert sum("needs 2 or less: hit" in line for line in fire) == 4
    assert sum("needs 1 or less: miss" in line for line in fire) == 3
    assert prompt(s) == ("ussr", "casualties")
    s, log = play(s, "casualties 4 inf", dice=[3, 3, 3, 3, 3])
    assert all("needs 2 or less" in line for line in log if "rolls 3" in line)


# T02 ------------------------------------------------------------------------------------


def test_t02_one_antiaircraft_gun_fires_one_aimed_die_per_aircraft():
    """AA-01/02/06 (L343, L415, L740; FAQ L1285-1287): two German guns, three U.S.
    aircraft: exactly three dice, each at a named aircraft; those hit never fire."""
    s = scene("usa")
    fa, fb, bomber = put(s, "usa", "gibraltar", fighter=2, bomber=1)
    put(s, "germany", "algeria", aa_gun=2, infantry=1)
    s, log = play(s, "move 2 ftr 1 bmb gibraltar algeria", "done", dice=[1, 4, 1, 6, 6])
    aa = [line for line in log if line.startswith("Antiaircraft fire")]
    assert len(aa) == 3
    assert fa in aa[0] and "shot down" in aa[0]
    assert fb in aa[1] and "miss" in aa[1]
    assert bomber in aa[2] and "shot down" in aa[2]
    assert fa not in s.units and bomber not in s.units and fb in s.units
    assert [line for line in log if "rolls 6" in line and fb in line]  # only FTR-b fires
    assert prompt(s) == ("usa", "press")


# T03 ------------------------------------------------------------------------------------


def test_t03_submarine_hits_go_to_ships_and_fighters_of_a_sunk_carrier_fly_one_space():
    """SUB-02, CBT-20, AIR-12 (L436, L863, L782; FAQ L1317-1319): a submarine's hit cannot
    be given to a fighter; the carrier sinks at step 3 without firing; its fighters
    defend, and after combat fly one space to safety."""
    s = scene("germany")
    put(s, "germany", "sz8", submarine=1)
    carrier, f1, f2, _transport = put(s, "uk", "sz7", carrier=1, fighter=2, transport=1)
    s, log = play(s, "move 1 sub sz8 sz7", "done", dice=[2])
    assert prompt(s) == ("uk", "casualties")
    err = refused(s, "casualties 1 ftr")
    assert "go only to ships" in str(err) and "Submarines" in err.rule
    s, log = play(s, "casualties 1 cv", dice=[5, 5, 5])
    assert carrier not in s.units
    assert not any(carrier in line and "rolls" in line for line in log)  # the carrier never fired
    assert sum("needs 4 or less" in line for line in log) == 2  # both fighters defend at 4
    s, log = play(s, "press submerge 1 sub")
    assert s.units[f1].at == s.units[f2].at == "united_kingdom"
    assert any("flies to United Kingdom" in line for line in log)


# T04 ------------------------------------------------------------------------------------


def _t04(choice):
    s = scene("germany")
    sub = put(s, "germany", "sz8", submarine=1)[0]
    dd, cv = put(s, "uk", "sz7", destroyer=1, carrier=1)
    s, _ = play(s, "move 1 sub sz8 sz7", "done", dice=[1])
    assert prompt(s) == ("uk", "casualties")
    s, log = play(s, f"casualties 1 {choice}", dice=[6, 6])
    return s, log, sub, dd, cv


def test_t04_a_destroyer_lets_the_submarines_victim_fire_back_and_stops_submerging():
    """SUB-03, SUB-08, Q-34 (L444, L847, L952; FAQ L1209-1215): the carrier hit by the
    submarine is protected by the destroyer, fires at step 5 and goes at step 6; with the
    destroyer still there the submarine may not submerge."""
    s, log, sub, dd, cv = _t04("cv")
    assert any(cv in line and "needs 3 or less" in line for line in log)  # the carrier fired
    assert cv not in s.units and dd in s.units
    err = refused(s, "press submerge 1 sub")
    assert "destroyer" in str(err)
    assert "retreat sz8" in legal(s)


def test_t04_variant_the_destroyer_taken_as_casualty_no_longer_stops_submerging():
    s, log, sub, dd, cv = _t04("dd")
    assert any(dd in line and "rolls 6" in line for line in log)  # the destroyer fired back
    assert dd not in s.units and cv in s.units
    s, log = play(s, "press submerge 1 sub")
    assert s.units[sub].submerged
    assert any("submerges" in line for line in log)


# T05 ------------------------------------------------------------------------------------


def test_t05_a_lone_submarine_needs_two_cycles_to_sink_a_battleship():
    """BB-01..03 (L603; FAQ L1225-1227, L1301-1303): cycle 1 the submarine damages the
    battleship, which fires back; cycle 2 the second hit sinks it before it fires."""
    s = scene("japan")
    put(s, "japan", "sz51", submarine=1)
    bb = put(s, "usa", "sz52", battleship=1)[0]
    s, log = play(s, "move 1 sub sz51 sz52", "done", dice=[1, 5])
    assert any("is damaged" in line for line in log)
    assert any(bb in line and "rolls 5" in line for line in log)
    assert prompt(s) == ("japan", "press")
    s, log = play(s, "press", dice=[2])
    assert bb not in s.units
    assert not any(bb in line and "rolls" in line for line in log)


def test_t05_variant_a_damaged_battleship_is_repaired_when_the_battle_ends():
    s = scene("japan")
    sub = put(s, "japan", "sz51", submarine=1)[0]
    bb = put(s, "usa", "sz52", battleship=1)[0]
    s, _ = play(s, "move 1 sub sz51 sz52", "done", dice=[1, 5])
    s, log = play(s, "press submerge 1 sub")
    assert s.units[sub].submerged and bb in s.units
    assert s.battle is None  # the damage lived only in the battle


# T06 ------------------------------------------------------------------------------------


def _t06():
    s = scene("germany")
    s.ics.remove("caucasus")
    tank = put(s, "germany", "west_russia", tank=1)[0]
    put(s, "ussr", "russia", infantry=1)
    put(s, "ussr", "caucasus", aa_gun=1)
    return s, tank


def test_t06a_a_tank_blitzes_through_an_empty_hostile_territory_and_takes_it_at_once():
    """MOV-L04/L05 (L359-365): Archangel is captured as the tank passes; the battle is in
    Russia."""
    s, tank = _t06()
    before = production(s, "germany")
    s, log = play(s, "move 1 arm west_russia archangel russia")
    assert s.control["archangel"] == "germany"
    assert production(s, "germany") == before + 2
    assert s.units[tank].at == "russia"


def test_t06b_a_tank_must_stop_in_a_territory_holding_only_an_antiaircraft_gun():
    """MOV-L06 (L365): the gun stops the tank; Caucasus is taken in the combat phase."""
    s, tank = _t06()
    err = refused(s, "move 1 arm west_russia caucasus russia")
    assert "must stop" in str(err)
    s, log = play(s, "move 1 arm west_russia caucasus", "done")
    assert s.control["caucasus"] == "germany"
    assert board(s, "caucasus")["germany"] == {"tank": 1, "aa_gun": 1}


def test_t06c_a_tank_may_blitz_and_come_back_where_it_started():
    """MOV-L07 (L362-364; FAQ L1309-1311)."""
    s, tank = _t06()
    s, log = play(s, "move 1 arm west_russia archangel west_russia")
    assert s.control["archangel"] == "germany"
    assert s.units[tank].at == "west_russia"


def test_t06d_a_tank_offloaded_this_turn_cannot_move_on():
    """MOV-L09 (L886; FAQ L1251-1253): riding a transport is the tank's whole move."""
    s = scene("germany")
    trn = put(s, "germany", "sz4", transport=1)[0]
    cargo(s, trn, "germany", tank=1)
    s, _ = play(s, "move 1 arm sz4 archangel")
    err = refused(s, "move 1 arm archangel russia")
    assert "movement is over" in str(err)


# T07 ------------------------------------------------------------------------------------


def test_t07_transport_capacity_one_territory_and_no_move_after_offloading():
    """TRN-01/02/05/06/08 (L877, L886, L900, L926; FAQ L1267-1269)."""
    s = scene("uk")
    put(s, "uk", "united_kingdom", artillery=2, tank=1, infantry=1)
    put(s, "uk", "sz6", transport=1)
    err = refused(s, "move 2 art united_kingdom sz6")
    assert "one land unit plus one infantry" in str(err)
    s, _ = play(s, "move 1 arm 1 inf united_kingdom sz6")
    s, _ = play(s, "move 1 arm sz6 western_europe")
    err = refused(s, "move 1 inf sz6 norway")
    assert "one territory per turn" in str(err)
    refused(s, "move 1 trn sz6 sz5")
    err = refused(s, "move 1 arm western_europe germany")
    assert "movement is over" in str(err)
    s, log = play(s, "done")
    # the landing may still be called off, so its battle waits for the order (L578)
    assert prompt(s) == ("uk", "combat") and "calloff western_europe" in legal(s)
    s, log = play(s, "attack western_europe")
    # Western Europe was empty: the tank takes it, and in the noncombat move the
    # infantry joins it from the same transport (FAQ L1269).
    assert s.control["western_europe"] == "uk"
    assert prompt(s) == ("uk", "noncombat")
    s, _ = play(s, "move 1 inf sz6 western_europe")
    assert board(s, "western_europe")["uk"] == {"tank": 1, "infantry": 1}


# T08 ------------------------------------------------------------------------------------


def test_t08_amphibious_assault_sea_battle_first_then_landing_and_no_land_retreat():
    """AMP-02..07, RET-05/06 (L580-595, L835): the battleship fires at step 4 of the sea
    battle and does not bombard; one fighter fights at sea, the other over the island;
    after the zone is cleared the infantry land; they may not retreat, the fighter may."""
    s = scene("japan")
    s.techs["japan"] = ["long_range_aircraft"]
    bb, cv, trn, f1, f2 = put(s, "japan", "sz51", battleship=1, carrier=1, transport=1, fighter=2)
    cargo(s, trn, "japan", infantry=2)
    put(s, "usa", "sz52", carrier=1)
    put(s, "usa", "hawaiian_islands", infantry=1)
    s, log = play(
        s,
        f"move {f1} sz51 sz52",
        f"move {f2} sz51 hawaiian_islands",
        "move 1 bb 1 cv 1 trn sz51 sz52",
        "move 2 inf sz52 hawaiian_islands",
    )
    assert any("declares an amphibious assault" in line for line in log)
    # sea battle: the battleship rolls 1 (a hit at 4, in step 4); with the only target hit
    # nobody else rolls; the U.S. carrier fires back 6. Land battle: fighter, infantry,
    # infantry 6 6 6; the defending infantry 6.
    # the landing may still be called off (L578), so each battle waits for its order
    s, log = play(s, "done", "attack sz52", dice=[1, 6])
    s, more = play(s, "attack hawaiian_islands", dice=[6, 6, 6, 6])
    log += more
    assert any(bb in line and "needs 4 or less: hit" in line for line in log)
    assert not any("bombard" in line.lower() for line in log)
    assert not any(
        f2 in line and "rolls" in line
        for line in log[: log.index(next(x for x in log if "go ashore" in x))]
    )
    assert prompt(s) == ("japan", "press")
    err = refused(s, "retreat sz52")
    assert "Only the aircraft may retreat" in str(err)
    s, log = play(s, "retreat air", dice=[1, 6])  # one infantry hits; the other need not roll
    assert s.units[f2].retreated
    assert s.control["hawaiian_islands"] == "japan"


# T09 ------------------------------------------------------------------------------------


def test_t09_bombardment_hits_only_land_units_in_the_first_cycle():
    """AMP-08/09/11, CBT-20 (L428, L593, L835; FAQ L1297-1299)."""
    s = scene("japan")
    bb, trn = put(s, "japan", "sz52", battleship=1, transport=1)
    cargo(s, trn, "japan", infantry=2)
    put(s, "usa", "hawaiian_islands", infantry=1, artillery=1, fighter=1)
    s, log = play(s, "move 2 inf sz52 hawaiian_islands", "bombard 1 bb sz52 hawaiian_islands",
                  "done", "attack hawaiian_islands", dice=[3])  # fmt: skip
    assert prompt(s) == ("usa", "casualties")
    err = refused(s, "casualties 1 ftr")
    assert "hits only land units" in str(err)
    # the bombarded infantry goes at step 3; attack 6 6, defence (artillery, fighter) 6 6;
    # cycle 2: no bombardment; attack 1 1, defence 6 6
    s, log = play(s, "casualties 1 inf", dice=[6, 6, 6, 6, 1, 1, 6, 6])
    assert sum("bombardment" in line.lower() and "rolls" in line for line in log) == 0
    assert s.control["hawaiian_islands"] == "japan"
    assert prompt(s) == ("japan", "noncombat")
    err = refused(s, "move 1 bb sz52 sz51")
    assert "combat" in str(err)


# T10 ------------------------------------------------------------------------------------


def test_t10_land_units_retreat_together_to_a_space_a_land_unit_came_from():
    """RET-02/03/05 (L481, L497-499; FAQ L1339-1349)."""
    s = scene("japan")
    put(s, "japan", "kwangtung", infantry=2)
    put(s, "japan", "manchuria", tank=1)
    fighter = put(s, "japan", "french_indochina", fighter=1)[0]
    put(s, "usa", "china", infantry=3)
    s, _ = play(s, "move 2 inf kwangtung china", "move 1 arm manchuria china",
                "move 1 ftr french_indochina china", "done", dice=[6, 6, 6, 6, 6, 6, 6])  # fmt: skip
    assert prompt(s) == ("japan", "press")
    assert {"retreat kwangtung", "retreat manchuria"} <= legal(s)
    err = refused(s, "retreat french_indochina")
    assert "came from" in str(err)
    s, _ = play(s, "retreat kwangtung")
    assert board(s, "kwangtung")["japan"] == {"infantry": 2, "tank": 1}
    assert s.units[fighter].at == "china" and s.units[fighter].retreated
    assert prompt(s) == ("japan", "noncombat")
    s, _ = play(s, "move 1 ftr china french_indochina")
    assert s.units[fighter].at == "french_indochina"


def test_t10_no_retreat_once_every_defender_is_gone():
    s = scene("japan")
    put(s, "japan", "kwangtung", infantry=2)
    put(s, "usa", "china", infantry=1)
    s, _ = play(s, "move 2 inf kwangtung china", "done", dice=[1, 6])
    assert s.control["china"] == "japan"
    refused(s, "retreat kwangtung")


# T11 ------------------------------------------------------------------------------------


def test_t11_aircraft_never_land_in_a_territory_captured_this_turn():
    """AIR-08/10 (L514, L640, L764)."""
    s = scene("usa")
    put(s, "usa", "china", infantry=2)
    f1 = put(s, "usa", "sinkiang", fighter=1)[0]
    f3 = put(s, "usa", "china", fighter=1)[0]
    put(s, "japan", "kwangtung", infantry=1)
    s, _ = play(s, "move 2 inf china kwangtung", "move 1 ftr sinkiang kwangtung", "done",
                dice=[1, 6])  # fmt: skip
    assert s.control["kwangtung"] == "usa"
    err = refused(s, "move 1 ftr china kwangtung")
    assert "captured this turn" in str(err)
    err = refused(s, "done")  # f1 can still fly back: ending now needs a confirmation
    assert f"fighter {f1} in Kwangtung can still land in" in str(err)
    s2, log = play(s, "done confirm")
    assert f1 not in s2.units and f3 in s2.units
    s3, _ = play(s, f"move {f1} kwangtung china", "done")
    assert s3.units[f1].at == "china"


def test_t11_no_kamikaze_a_fighter_needs_a_carrier_that_can_reach_it():
    """AIR-05/06, CV-05 (L516, L768): Hawaii to Sea Zone 42 is 3 spaces, leaving 1, and no
    land is one space from that open ocean: with no deck in reach the attack is refused;
    with a carrier that can come, it is accepted and the carrier is committed."""
    s = scene("usa")
    put(s, "usa", "hawaiian_islands", fighter=1)
    put(s, "japan", "sz42", destroyer=1)
    err = refused(s, "move 1 ftr hawaiian_islands sz42")
    assert "place to land" in str(err)
    carrier = put(s, "usa", "sz53", carrier=1)[0]
    s2, log = play(s, "move 1 ftr hawaiian_islands sz42")
    assert s2.units[carrier].pickup in ("sz41", "sz43", "sz44")
    assert any("committed" in line for line in log)
    err = refused(s2, "move 1 cv sz53 sz55")
    assert "landing deck" in str(err)


# T12 ------------------------------------------------------------------------------------


def test_t12_suez_is_closed_when_its_two_territories_were_split_at_the_start_of_the_turn():
    """SEA-05 (L178-180): Germany took Trans-Jordan; the U.K. may not sail 15 -> 34 this
    turn, even after retaking it; the U.S. may on its next turn."""
    s = scene("uk")
    s.control["trans_jordan"] = s.start_control["trans_jordan"] = "germany"
    put(s, "uk", "sz15", destroyer=1)
    put(s, "germany", "sz34", submarine=1)
    err = refused(s, "move 1 dd sz15 sz34")
    assert "canal" in str(err)
    s.phase = "noncombat"
    s.control["trans_jordan"] = "uk"  # retaken in this turn's combat
    s.units = {k: u for k, u in s.units.items() if u.owner == "uk"}
    err = refused(s, "move 1 dd sz15 sz34")
    assert "canal" in str(err)
    us = scene("usa", phase="noncombat")
    put(us, "usa", "sz15", destroyer=1)
    us, _ = play(us, "move 1 dd sz15 sz34")
    assert board(us, "sz34") == {"usa": {"destroyer": 1}}


def test_t12_germany_cannot_use_suez_while_control_is_split():
    s = scene("germany")
    s.control["trans_jordan"] = s.start_control["trans_jordan"] = "germany"
    put(s, "germany", "sz15", destroyer=1)
    put(s, "uk", "sz34", transport=1)
    refused(s, "move 1 dd sz15 sz34")


# T13 ------------------------------------------------------------------------------------


def test_t13_capturing_a_capital_takes_its_treasury_and_stops_its_economy():
    """CAP-06, TURN-04 (L526-528)."""
    s = scene("germany")
    put(s, "germany", "west_russia", tank=1)
    put(s, "ussr", "russia", infantry=1)
    s.ipcs["ussr"], s.ipcs["germany"] = 18, 0
    before = production(s, "germany")
    s, log = play(s, "move 1 arm west_russia russia", "done", dice=[1, 6])
    assert s.control["russia"] == "germany"
    assert (s.ipcs["germany"], s.ipcs["ussr"]) == (18, 0)
    assert production(s, "germany") == before + 8
    assert any("Moscow passes to the Axis" in line for line in log)
    # the Soviet turn: no research, no purchase; combat and noncombat moves; no income
    s.turn, s.phase = 0, "research"
    s.ipcs["ussr"] = 10
    s = settled(s)
    assert prompt(s) == ("ussr", "combat_move")
    refused(s, "research jet 1")
    refused(s, "buy 1 inf")
    s, log = play(s, "done", "done")
    assert any("collects no income" in line for line in log)
    assert s.ipcs["ussr"] == 10 and s.power == "germany"


def test_t13_liberating_while_the_capital_is_lost_and_liberating_the_capital():
    """CAP-04/05/07, Q-13 (L518-528): the U.K. keeps Karelia while Moscow is German;
    liberating Moscow returns it and Karelia to the Soviet Union."""
    s = scene("uk")
    s.control["russia"] = s.start_control["russia"] = "germany"
    s.control["karelia_ssr"] = s.start_control["karelia_ssr"] = "germany"
    put(s, "uk", "archangel", infantry=2)
    s.control["archangel"] = s.start_control["archangel"] = "uk"
    s, _ = play(s, "move 1 inf archangel karelia_ssr", "move 1 inf archangel russia", "done")
    s, _ = play(s, "attack karelia_ssr")
    # Karelia was taken first, while Moscow was still German: the U.K. holds it (CAP-05);
    # then Moscow falls to the U.K. attack and goes back to the Soviet Union with Karelia
    assert s.control["russia"] == "ussr"
    assert s.control["karelia_ssr"] == "ussr"
    assert s.control["archangel"] == "ussr"


def test_t13_a_liberated_territory_stays_with_the_liberator_while_the_capital_is_lost():
    s = scene("uk")
    s.control["russia"] = s.start_control["russia"] = "germany"
    s.control["karelia_ssr"] = s.start_control["karelia_ssr"] = "germany"
    put(s, "uk", "archangel", infantry=1)
    s.control["archangel"] = s.start_control["archangel"] = "uk"
    s, log = play(s, "move 1 inf archangel karelia_ssr", "done")
    assert s.control["karelia_ssr"] == "uk"


# T14 ------------------------------------------------------------------------------------


def test_t14_mobilization_limits_sites_and_new_carriers():
    """MOB-01..06 (L654-662, L510; FAQ L1410-1420)."""
    s = scene("germany", phase="mobilize")
    s.control["caucasus"] = "germany"  # captured this turn
    put(s, "germany", "sz14", carrier=1)
    s.pending = {"infantry": 4, "carrier": 1, "fighter": 2, "industrial_complex": 1}
    s, _ = play(s, "place 4 inf southern_europe")
    err = refused(s, "place 1 ftr sz14")
    assert "carriers built this turn" in str(err)
    s, _ = play(s, "place 1 cv 1 ftr sz14")
    assert board(s, "sz14")["germany"] == {"carrier": 2, "fighter": 1}
    err = refused(s, "place 1 ftr southern_europe")
    assert "room for 0 more" in str(err)
    err = refused(s, "place 1 ftr caucasus")
    assert "since the start of its turn" in str(err)
    s, _ = play(s, "place 1 ic balkans")
    assert "balkans" in s.ics
    refused(s, "place 1 ftr balkans")
    s, log = play(s, "place 1 ftr germany")
    assert s.pending == {}


def test_t14_units_left_in_the_mobilization_zone_are_lost():
    s = scene("germany", phase="mobilize")
    s.pending = {"fighter": 1}
    s.ics.remove("germany")
    s.placed["southern_europe"] = 6
    s, log = play(s, "done")
    assert any("are lost" in line or "they are lost" in line for line in log)
    assert s.pending == {}


# T15 ------------------------------------------------------------------------------------


def test_t15_strategic_bombing_damage_is_capped_per_bomber_and_by_the_treasury():
    """SBR-01..05, Q-01/02 (L624-630, L809-811; FAQ L1366-1368)."""
    s = scene("usa")
    s.techs["usa"] = ["heavy_bombers"]
    b1, b2 = put(s, "usa", "united_kingdom", bomber=2)
    put(s, "germany", "southern_europe", aa_gun=1)
    s.ipcs["germany"] = 4
    s, log = play(s, "bomb 2 bmb united_kingdom southern_europe", "done", dice=[1, 5, 6, 5])
    assert b1 not in s.units and b2 in s.units
    assert any("11" in line or "6, 5" in line for line in log)
    assert any("6 IPC damage" in line for line in log)
    assert s.ipcs["germany"] == 0
    assert "southern_europe" in s.ics
    assert not any(line.startswith("Battle in Southern Europe") for line in log)
    assert prompt(s) == ("usa", "noncombat")
    s, _ = play(s, "move 1 bmb southern_europe united_kingdom")
    assert s.units[b2].at == "united_kingdom"


def test_t14_existing_fighters_go_aboard_a_carrier_built_this_turn():
    """FAQ L1410-1416: fighters already in the territory of the industrial complex that
    built a carrier (an ally's too) may go aboard it at once; not from elsewhere, and two
    to a carrier (RULINGS R-51)."""
    s = scene("uk", phase="mobilize")
    uk_f = put(s, "uk", "united_kingdom", fighter=1)[0]
    us_f = put(s, "usa", "united_kingdom", fighter=2)
    put(s, "uk", "eastern_canada", fighter=1)
    s.pending = {"carrier": 1}
    s, _ = play(s, "place 1 cv sz7")
    assert prompt(s) == ("uk", "mobilize")  # the fighters may still board: no end yet
    assert "move 1 ftr united_kingdom sz7" in legal(s)
    err = refused(s, "move 1 ftr eastern_canada sz7")
    assert "territory of the complex that built the carrier" in str(err)
    err = refused(s, "move 1 ftr united_kingdom sz6")
    assert "No carrier built this turn in Sea Zone 6" in str(err)
    s, log = play(s, f"move {us_f[0]} united_kingdom sz7", "move 1 ftr united_kingdom sz7")
    assert "1 fighter (United States) in United Kingdom goes aboard" in log[0]
    carrier = next(u for u in s.units.values() if u.type == "carrier")
    aboard = {u.id for u in s.units.values() if u.aboard == carrier.id}
    assert aboard == {us_f[0], uk_f}  # the U.K.'s own fighter is taken first by type
    assert s.units[us_f[1]].at == "united_kingdom"
    assert s.power == "japan"  # the carrier is full: nothing is left to decide


def test_t14_a_fighter_on_an_old_carrier_moves_to_the_new_one_in_its_sea_zone():
    """FAQ L1412: a fighter "in the sea zone where the aircraft carrier is built"."""
    s = scene("uk", phase="mobilize")
    old, f = put(s, "uk", "sz7", carrier=1, fighter=1)
    assert s.units[f].aboard == old
    s.pending = {"carrier": 1}
    s, _ = play(s, "place 1 cv sz7", "move 1 ftr sz7 sz7")
    new = next(u.id for u in s.units.values() if u.type == "carrier" and u.id != old)
    assert s.units[f].aboard == new
