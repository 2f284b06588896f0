"""The worked examples the rulebook prints, played through the turn engine with scripted
dice (Revised: Example of Combat; Tanks and Blitzing; Attacker Retreats; Amphibious
Assaults; Transports; Fighters: the sinking of a defending and of an attacking carrier;
Antiaircraft fire; the two illustrated amphibious assaults; Strategic Bombing Raids;
Develop Weapons and its chart)."""

from __future__ import annotations

from engine.games.aa_revised.context import Ctx
from engine.games.aa_revised.geography import geography
from engine.games.aa_revised.options import Options
from tests.aa_revised_rules.helpers import board, legal, play, prompt, put, refused, scene


def production(state, power):
    return Ctx(geography(), Options(), state, None).production(power)


def test_example_of_combat_germany_takes_india():
    """Revised: Example of Combat. German infantry, tank and fighter attack India (U.K.
    tank, infantry, antiaircraft gun); the gun downs the fighter, the attack takes India
    in two cycles, and with it Calcutta and 3 IPCs of production."""
    s = scene("germany")
    s.control["persia"] = s.start_control["persia"] = "germany"
    put(s, "germany", "persia", infantry=1, tank=1, fighter=1)
    put(s, "uk", "india", tank=1, infantry=1, aa_gun=1)
    before_ger, before_uk = production(s, "germany"), production(s, "uk")
    # Step 2: the gun rolls a 1 on the fighter. Step 4: infantry 4 (miss), tank 2 (hit).
    s, log = play(
        s, "move 1 inf 1 arm persia india", "move 1 ftr persia india", "done", dice=[1, 4, 2]
    )
    assert any("shot down" in line for line in log)
    assert prompt(s) == ("uk", "casualties")
    # The U.K. chooses its infantry; step 5: tank 4, infantry 5 (both miss, the casualty fires).
    s, log = play(s, "casualties 1 inf", dice=[4, 5])
    assert prompt(s) == ("germany", "press")
    # Second cycle: the infantry rolls 1; the tank does not roll (nothing left to hit); the
    # U.K. tank, now a casualty, rolls 2 and hits.
    s, log = play(s, "press", dice=[1, 2])
    assert prompt(s) == ("germany", "casualties")
    s, log = play(s, "casualties 1 inf")
    assert s.control["india"] == "germany"
    assert board(s, "india") == {"germany": {"tank": 1, "aa_gun": 1}}
    assert production(s, "germany") == before_ger + 3
    assert production(s, "uk") == before_uk - 3
    assert any("Calcutta" in line for line in log)
    assert prompt(s) == ("germany", "noncombat")


def _cargo(state, transport_id, power, **counts):
    ids = put(state, power, state.units[transport_id].at, **counts)
    for uid in ids:
        state.units[uid].aboard = transport_id
    return ids


def test_sinking_of_a_defending_carrier_its_fighters_fly_one_space_to_safety():
    """Appendix 1, Fighters: "The Sinking of a Defending Carrier". A Japanese submarine
    sinks the U.K. carrier carrying a U.K. and a U.S. fighter, then submerges; both
    fighters fly one space, to New Zealand or onto the U.S. carrier."""
    s = scene("japan")
    put(s, "japan", "sz45", submarine=1)
    carrier, uk_ftr = put(s, "uk", "sz41", carrier=1, fighter=1)
    us_ftr = put(s, "usa", "sz41", fighter=1)[0]
    s.units[us_ftr].aboard = carrier
    us_carrier = put(s, "usa", "sz46", carrier=1)[0]
    # the submarine hits (1); the carrier is gone at step 3; the fighters fire 6, 6
    s, log = play(s, "move 1 sub sz45 sz41", "done", dice=[1, 6, 6])
    assert carrier not in s.units
    assert prompt(s) == ("japan", "press")
    s, log = play(s, "press submerge 1 sub")
    for f in (uk_ftr, us_ftr):
        u = s.units[f]
        assert (u.at, u.aboard) in (("new_zealand", None), ("sz46", us_carrier))


def test_sinking_of_an_attacking_carrier_destroys_its_cargo_but_not_launched_fighters():
    """Appendix 1, Fighters: "The Sinking of an Attacking Carrier". The U.S. fighter on the
    U.K. carrier is cargo and sinks with it; the U.K. fighter, launched first, survives and
    flies on to land."""
    s = scene("uk")
    carrier, uk_ftr = put(s, "uk", "sz46", carrier=1, fighter=1)
    us_ftr = put(s, "usa", "sz46", fighter=1)[0]
    s.units[us_ftr].aboard = carrier
    put(s, "japan", "sz41", submarine=1)
    s, log = play(s, "move 1 ftr sz46 sz41", "move 1 cv sz46 sz41")
    assert s.units[us_ftr].at == "sz41" and s.units[us_ftr].aboard == carrier
    # defending submarine 1 (hit: the carrier, the only ship); the U.K. fighter rolls 6
    s, log = play(s, "done", dice=[1, 6])
    assert carrier not in s.units and us_ftr not in s.units
    assert any("lost with it" in line for line in log)
    assert prompt(s) == ("uk", "press")
    s, _ = play(s, "retreat air")
    s, _ = play(s, "move 1 ftr sz41 new_zealand")
    assert s.units[uk_ftr].at == "new_zealand"


def test_transporting_friendly_units_takes_three_turns():
    """Appendix 1, Transports: "Transporting Friendly Units". U.S. infantry board a U.K.
    transport on the U.S. turn, the U.K. moves it, and the infantry land on a later U.S.
    turn (FAQ: even when the transport does not move)."""
    s = scene("usa", phase="noncombat")
    trn = put(s, "uk", "sz19", transport=1)[0]
    inf = put(s, "usa", "west_indies", infantry=1)[0]
    s, _ = play(s, "move 1 inf west_indies sz19")
    assert s.units[inf].aboard == trn
    err = refused(s, "move 1 inf sz19 panama")
    assert "later turn of its owner" in str(err)
    for u in s.units.values():
        u.new_turn()
    s.turn, s.phase, s.round = 2, "noncombat", 2  # the U.K.'s next turn
    s, _ = play(s, "move 1 trn sz19 sz20")
    assert s.units[inf].at == "sz20"
    refused(s, "move 1 inf sz20 panama")  # not the infantry's owner's turn: no such unit here
    for u in s.units.values():
        u.new_turn()
    s.turn, s.phase = 4, "noncombat"
    s, _ = play(s, "move 1 inf sz20 panama")
    assert s.units[inf].at == "panama" and s.units[inf].aboard is None


def test_the_german_transport_example_what_it_cannot_do():
    """Appendix 1, Transports: the German transport in Sea Zone 14 cannot load a tank that
    has moved, take both artillery, offload where a U.K. destroyer holds the sea zone,
    land in neutral Spain, or pass its cargo to another transport."""
    s = scene("germany", phase="noncombat")
    trn = put(s, "germany", "sz14", transport=1)[0]
    put(s, "germany", "southern_europe", artillery=2)
    put(s, "germany", "germany", tank=1)
    put(s, "uk", "sz15", destroyer=1)
    s, _ = play(s, "move 1 arm germany southern_europe")
    err = refused(s, "move 1 arm southern_europe sz14")
    assert "only before it moves" in str(err)
    err = refused(s, "move 2 art southern_europe sz14")
    assert "one land unit plus one infantry" in str(err)
    s, _ = play(s, "move 1 art southern_europe sz14")
    err = refused(s, "move 1 trn sz14 sz15")
    assert "noncombat" in str(err) or "enemy" in str(err)
    refused(s, "move 1 art sz14 spain")
    put(s, "germany", "sz13", transport=1)
    err = refused(s, "move 1 art sz14 sz13")
    assert "territory" in str(err)
    assert s.units[trn].id == trn


def test_a_transport_cannot_load_or_offload_in_a_sea_zone_with_enemy_ships():
    """Appendix 1, Transports: not in a hostile sea zone (the destroyer in Sea Zone 15)."""
    s = scene("germany", phase="noncombat")
    put(s, "germany", "sz15", transport=1)
    put(s, "uk", "sz15", destroyer=1)
    s.control["trans_jordan"] = s.start_control["trans_jordan"] = "germany"
    put(s, "germany", "trans_jordan", infantry=1)
    err = refused(s, "move 1 inf trans_jordan sz15")
    assert "Enemy units" in str(err)


def test_antiaircraft_fire_one_die_at_each_aircraft_of_each_group():
    """Revised: Opening Fire, Antiaircraft Guns (figure): two U.S. fighters and a bomber
    fly into a German territory with a gun; one die is rolled at each aircraft."""
    s = scene("usa")
    put(s, "usa", "gibraltar", fighter=2)
    put(s, "usa", "united_kingdom", bomber=1)
    put(s, "germany", "algeria", aa_gun=1, infantry=1)
    s, log = play(s, "move 2 ftr gibraltar algeria", "move 1 bmb united_kingdom algeria",
                  "done", dice=[2, 3, 4, 6, 6, 6, 6])  # fmt: skip
    assert sum(line.startswith("Antiaircraft fire in Algeria") for line in log) == 3
    assert not any("shot down" in line for line in log)


def test_air_units_are_fired_on_by_each_gun_they_fly_over_in_path_order():
    """Revised: Phase 3, Air Units: a gun in a hostile territory fires at aircraft that
    enter it on the way to their target, before the battle; a route through a named
    space is followed, one without avoids the gun."""
    s = scene("uk")
    bomber = put(s, "uk", "united_kingdom", bomber=1)[0]
    put(s, "germany", "western_europe", aa_gun=1)
    put(s, "germany", "southern_europe", infantry=1)
    s1, log = play(s, "move 1 bmb united_kingdom western_europe southern_europe", "done",
                   dice=[1])  # fmt: skip
    assert bomber not in s1.units
    assert log[1].startswith("Antiaircraft fire in Western Europe as it flies over")
    s2, log = play(s, "move 1 bmb united_kingdom southern_europe")
    assert "western_europe" in log[0]  # 3 spaces out and 3 back: no way round the gun
    s.techs["uk"] = ["long_range_aircraft"]
    s3, log = play(s, "move 1 bmb united_kingdom southern_europe")
    assert "western_europe" not in log[0]  # with range to spare the route goes round it


# -- Amphibious Assaults: the two illustrated assaults (L587-589) ---------------------------


def _japanese_assault_on_hawaii(us_carrier: bool):
    """The scene of L587-589 on the real board: a Japanese battleship and a transport with
    an infantry and a tank sail from Sea Zone 51 into Sea Zone 52, next to the U.S.-held
    Hawaiian Islands (two U.S. infantry); in the second case a U.S. carrier with its
    fighter lies in Sea Zone 52, a Japanese carrier sails along to fight it, and a Japanese
    fighter from Wake Island joins the land battle."""
    s = scene("japan")
    bb, trn = put(s, "japan", "sz51", battleship=1, transport=1)
    _cargo(s, trn, "japan", infantry=1, tank=1)
    ftr = None
    if us_carrier:
        put(s, "japan", "sz51", carrier=1)
        ftr = put(s, "japan", "wake_island", fighter=1)[0]
        put(s, "usa", "sz52", carrier=1, fighter=1)
    us_inf = put(s, "usa", "hawaiian_islands", infantry=2)
    return s, bb, ftr, us_inf


def _first_assault_declared():
    s, bb, _, us_inf = _japanese_assault_on_hawaii(us_carrier=False)
    # the landing is ordered first; the battleship then joins it to bombard (RULINGS Q-08)
    s, log = play(s, "move 1 trn sz51 sz52", "move 1 inf 1 arm sz52 hawaiian_islands",
                  "move 1 bb sz51 sz52", "done")  # fmt: skip
    assert any("to bombard Hawaiian Islands" in line for line in log)
    return s, bb, us_inf


def test_amphibious_assault_example_one_the_battleship_bombards_and_a_4_kills_an_infantry():
    """Revised: Amphibious Assaults, first illustrated assault (L587; L428, L593, L835).
    No enemy ships in Sea Zone 52, so the battleship fires in the opening fire step, a 4 is
    a hit, and the U.S. infantry it hits is removed at step 3 without firing back."""
    s, bb, us_inf = _first_assault_declared()
    # opening fire: the battleship 4. Step 4: infantry 6, tank 3. Step 5: the last U.S.
    # infantry (now a casualty) 6.
    s, log = play(s, "attack hawaiian_islands", dice=[4, 6, 3, 6])
    assert "against 2 infantry; 1 battleship bombard from the sea" in log[0]
    assert log[1] == f"battleship {bb} rolls 4, needs 4 or less: hit."
    assert "bombardment hits" in log[2]
    bombarded = next(u for u in us_inf if u in log[2])
    assert not any(bombarded in line and "rolls" in line for line in log)  # no return fire
    assert sum("rolls" in line for line in log) == 4  # the battleship fired once only
    assert s.control["hawaiian_islands"] == "japan"
    assert board(s, "hawaiian_islands") == {"japan": {"infantry": 1, "tank": 1}}
    assert s.units[bb].at == "sz52"  # a bombarding battleship goes back to the board


def test_amphibious_assault_example_one_a_bombardment_roll_of_5_misses():
    """Revised: Amphibious Assaults, first illustrated assault (L587): only 4 or less
    hits, so on a 5 both U.S. infantry stand and fire in step 5."""
    s, bb, us_inf = _first_assault_declared()
    # opening fire: the battleship 5. Step 4: infantry 1, tank 3. Step 5: 6, 6.
    s, log = play(s, "attack hawaiian_islands", dice=[5, 1, 3, 6, 6])
    assert log[1] == f"battleship {bb} rolls 5, needs 4 or less: miss."
    assert not any("bombardment hits" in line for line in log)
    for u in us_inf:
        assert any(u in line and "rolls 6" in line for line in log)  # both fired back
    assert s.control["hawaiian_islands"] == "japan"


def test_amphibious_assault_example_two_sea_battle_first_no_bombardment_only_air_retreats():
    """Revised: Amphibious Assaults, second illustrated assault (L589; L580-582, L593,
    L595). With a U.S. carrier and its fighter in Sea Zone 52, every Japanese ship there
    (the transport too) fights the sea battle first, the battleship firing with the rest
    at step 4; it may not bombard; the U.S. fighter defends only at sea; in the land
    battle the tank and infantry may not retreat, the Japanese fighter may."""
    s, bb, ftr, us_inf = _japanese_assault_on_hawaii(us_carrier=True)
    s, log = play(s, "move 1 bb 1 cv 1 trn sz51 sz52", "move 1 inf 1 arm sz52 hawaiian_islands",
                  "move 1 ftr wake_island hawaiian_islands")  # fmt: skip
    assert any("they land once the sea zone is cleared" in line for line in log)
    err = refused(s, "bombard 1 bb sz52 hawaiian_islands")
    assert "do not bombard" in str(err)
    s, _ = play(s, "done")
    # Sea battle: battleship 1 (hit), carrier 1 (hit); the U.S. carrier and fighter fire
    # back 6, 6. The cargo then goes ashore.
    s, log = play(s, "attack sz52", dice=[1, 1, 6, 6])
    sea = next(line for line in log if line.startswith("Battle in Sea Zone 52"))
    attackers, defenders = sea.split(" against ")
    for ship in ("1 battleship", "1 aircraft carrier", "1 transport"):
        assert ship in attackers
    assert "fighter" not in attackers and defenders == "1 fighter, 1 aircraft carrier."
    assert log.index(sea) < log.index(f"battleship {bb} rolls 1, needs 4 or less: hit.")
    assert any("go ashore" in line for line in log)
    # Land battle: fighter, infantry, tank 6 6 6; the two U.S. infantry 6 6.
    s, log = play(s, "attack hawaiian_islands", dice=[6, 6, 6, 6, 6])
    attackers, defenders = log[0].split(" against ")
    assert all(u in attackers for u in ("1 fighter", "1 infantry", "1 tank"))
    assert defenders == "2 infantry."  # the U.S. fighter on its carrier defended at sea only
    assert not any("bombard" in line for line in log)
    assert not any(f"battleship {bb}" in line for line in log)
    assert prompt(s) == ("japan", "press")
    assert legal(s) == {"press", "retreat air"}
    err = refused(s, "retreat sz52")
    assert "Only the aircraft may retreat" in str(err)
    # the fighter leaves; the infantry and tank fight on: 1 and 3 hit, the defence 6 6
    s, log = play(s, "retreat air", dice=[1, 3, 6, 6])
    assert s.units[ftr].retreated and s.units[ftr].at == "hawaiian_islands"
    assert s.control["hawaiian_islands"] == "japan"
    # the retreated fighter waits there, out of the battle, to fly in the noncombat move
    assert board(s, "hawaiian_islands") == {"japan": {"infantry": 1, "tank": 1, "fighter": 1}}
    s, _ = play(s, "move 1 ftr hawaiian_islands sz52")  # back to its carrier
    assert s.units[ftr].at == "sz52"


# -- Strategic Bombing Raids (L622-630; FAQ L1366-1368) --------------------------------


def _raid_on_caucasus(bombers: int, soviet_ipcs: int):
    s = scene("germany")
    ids = put(s, "germany", "germany", bomber=bombers)
    put(s, "ussr", "caucasus", aa_gun=1, infantry=1)
    s.ipcs["ussr"] = soviet_ipcs
    s, log = play(s, f"bomb {bombers} bmb germany caucasus")
    assert "raids with" in log[0]
    return s, ids


def test_strategic_bombing_raid_the_gun_fires_first_and_the_survivors_die_is_the_loss():
    """Revised: Strategic Bombing Raids (L626-630): only bombers and the gun take part;
    the gun fires one die at each bomber in the opening fire; a 1 downs it before it can
    bomb; the surviving bomber's die is the IPC loss, paid to the bank; the Soviet
    infantry does not fight; the bomber then flies home."""
    s, (b1, b2) = _raid_on_caucasus(bombers=2, soviet_ipcs=24)
    # the gun: 1 at the first bomber (shot down), 3 at the second; the survivor rolls 2
    s, log = play(s, "done", dice=[1, 3, 2])
    aa = [i for i, line in enumerate(log) if line.startswith("Antiaircraft fire in Caucasus")]
    damage = [i for i, line in enumerate(log) if "IPC damage" in line]
    assert len(aa) == 2 and len(damage) == 1 and max(aa) < damage[0]
    assert b1 in log[aa[0]] and "shot down" in log[aa[0]]
    assert b1 not in s.units
    assert f"Bomber {b2} rolls 2: 2 IPC damage" in log[damage[0]]
    assert s.ipcs["ussr"] == 22 and s.ipcs["germany"] == 40  # to the bank, not to Germany
    assert board(s, "caucasus")["ussr"] == {"aa_gun": 1, "infantry": 1}
    assert s.control["caucasus"] == "ussr"
    assert prompt(s) == ("germany", "noncombat")
    s, _ = play(s, "move 1 bmb caucasus germany")
    assert s.units[b2].at == "germany"


def test_strategic_bombing_raid_loss_is_capped_per_bomber_and_by_the_victims_treasury():
    """Revised: Strategic Bombing Raids (L628; FAQ L1366-1368: the cap is per bomber):
    Caucasus is worth 4, so rolls of 6 and 5 cost 4 each, 8 in all; the Soviet Union has
    only 5 and surrenders all 5. (L628 says "whichever is the greater"; read as the lesser,
    as L620 says for rockets: RULINGS Q-01.)"""
    s, _ = _raid_on_caucasus(bombers=2, soviet_ipcs=5)
    s, log = play(s, "done", dice=[2, 3, 6, 5])
    assert sum("4 IPC damage (at most 4" in line for line in log) == 2
    assert any("costs Soviet Union 5 IPCs (all it had; the damage was 8)" in line for line in log)
    assert s.ipcs["ussr"] == 0


def test_strategic_bombing_raid_heavy_bombers_two_dice_still_capped_at_the_value():
    """Revised: Heavy Bombers (L252, L811): two dice for a raiding bomber, their total
    still no more than the territory's value."""
    s, (b1,) = _raid_on_caucasus(bombers=1, soviet_ipcs=24)
    s.techs["germany"] = ["heavy_bombers"]
    s, log = play(s, "done", dice=[2, 6, 5])
    assert f"Bomber {b1} rolls 6, 5: 4 IPC damage" in " ".join(log)
    assert s.ipcs["ussr"] == 20


def test_strategic_bombing_raid_and_an_attack_on_the_same_territory_use_different_units():
    """Revised: Strategic Bombing Raids (L626, L630): a raid and an ordinary attack on
    one territory in one turn; the raid goes first and its bomber takes no part in the
    land battle (RULINGS Q-17)."""
    s = scene("germany")
    bomber = put(s, "germany", "germany", bomber=1)[0]
    put(s, "germany", "ukraine_ssr", tank=1)
    put(s, "ussr", "caucasus", aa_gun=1, infantry=1)
    s, _ = play(s, "bomb 1 bmb germany caucasus", "move 1 arm ukraine_ssr caucasus")
    # the gun 3 at the bomber; the bomber 4; then the tank 6, the infantry 6
    s, log = play(s, "done", dice=[3, 4, 6, 6])
    assert log.index(next(x for x in log if "strategic bombing raid" in x)) < log.index(
        next(x for x in log if x.startswith("Battle in Caucasus"))
    )
    assert "Germany attacks with 1 tank against 1 infantry" in " ".join(log)
    land = log[log.index(next(x for x in log if x.startswith("Battle in Caucasus"))) :]
    assert not any(bomber in line for line in land)
    assert s.ipcs["ussr"] == 20


# -- Phase 1, Develop Weapons (L207-253) ----------------------------------------------


CHART = [
    ("jet_fighters", 1), ("rockets", 2), ("super_submarines", 3),
    ("long_range_aircraft", 4), ("combined_bombardment", 5), ("heavy_bombers", 6),
]  # fmt: skip


def test_weapons_development_chart_each_development_needs_its_own_number():
    """Revised: Phase 1, Weapons Developments chart (L237-252): the chosen development
    is made when any die shows its number, and by no other number."""
    for tech, number in CHART:
        s = scene("germany", phase="research", ipcs=10)
        misses = [n for n in range(1, 7) if n != number]
        s1, log = play(s, f"research {tech} 1", dice=[misses[0]])
        assert s1.techs["germany"] == [] and "no breakthrough" in log[0], tech
        s2, log = play(s, f"research {tech} 2", dice=[misses[-1], number])
        assert s2.techs["germany"] == [tech] and "success" in log[0], tech


def test_weapons_development_dice_bought_at_5_rolled_at_once_for_the_chosen_development():
    """Revised: Phase 1, Develop Weapons (L219-233): the development is chosen first
    (Super Submarines, needing a 3); three dice cost 15 IPCs and are rolled together; a
    3 among them is the breakthrough (a 6 is nothing special); the development works
    from this very turn: the submarine attacks at 3 in the combat."""
    s = scene("germany", phase="research", ipcs=20)
    put(s, "germany", "sz8", submarine=1)
    put(s, "uk", "sz7", transport=1)
    s, log = play(s, "research super_submarines 3", dice=[6, 3, 6])
    assert len(log) == 1 and "rolls 6, 3, 6: success" in log[0]
    assert s.ipcs["germany"] == 5
    assert s.techs["germany"] == ["super_submarines"]
    assert prompt(s) == ("germany", "purchase")
    s, _ = play(s, "done", "move 1 sub sz8 sz7")
    s, log = play(s, "done", dice=[3])
    assert any("rolls 3, needs 3 or less: hit" in line for line in log)


def test_weapons_development_a_6_does_not_give_another_development():
    """Revised: Phase 1, Develop Weapons (L221, L229): only the development chosen can be
    made; rolling 6s for Super Submarines gains nothing (not even Heavy Bombers)."""
    s = scene("germany", phase="research", ipcs=20)
    s, log = play(s, "research super_submarines 2", dice=[6, 6])
    assert "no breakthrough" in log[0]
    assert s.techs["germany"] == [] and s.ipcs["germany"] == 10
    assert prompt(s) == ("germany", "purchase")


def test_weapons_development_failed_dice_are_lost_and_next_turn_is_paid_again():
    """Revised: Phase 1, Develop Weapons (L225, L229): research dice do not carry over;
    after a failure the power tries again only on its next turn, with newly bought dice
    (exactly the one die bought is rolled, and paid for)."""
    s = scene("germany", phase="research", ipcs=20)
    s, _ = play(s, "research super_submarines 2", dice=[6, 6])
    refused(s, "research super_submarines 1")  # no second try this turn
    while prompt(s) != ("germany", "research"):
        s, _ = play(s, "done")
    assert s.round == 2
    before = s.ipcs["germany"]
    s, log = play(s, "research super_submarines 1", dice=[3])
    assert "spends 5 IPCs on 1 research die" in log[0]
    assert s.ipcs["germany"] == before - 5
    assert s.techs["germany"] == ["super_submarines"]
