"""The worked examples the rulebook prints, played through the turn engine with scripted
dice (Revised: Example of Combat; Tanks and Blitzing; Attacker Retreats; Amphibious
Assaults; Transports; Fighters: the sinking of a defending and of an attacking carrier;
Antiaircraft fire)."""

from __future__ import annotations

from engine.games.aa_revised.context import Ctx
from engine.games.aa_revised.geography import geography
from engine.games.aa_revised.options import Options
from tests.aa_revised_rules.helpers import board, play, prompt, put, refused, scene


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
