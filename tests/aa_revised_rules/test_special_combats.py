"""Special combats and multinational forces (Revised: Rocket Strikes; Multinational
Forces; Appendix 1: Carriers, Submarines)."""

from __future__ import annotations

from tests.aa_revised_rules.helpers import board, legal, play, prompt, put, refused, scene


def test_a_rocket_costs_the_target_up_to_its_income_value_once_a_turn():
    """Revised: Rocket Strikes; FAQ: one rocket per territory, each complex once a turn."""
    s = scene("germany", phase="combat")
    s.techs["germany"] = ["rockets"]
    s.ics.append("karelia_ssr")
    put(s, "germany", "western_europe", aa_gun=2)
    put(s, "germany", "germany", aa_gun=1)
    s.ipcs["uk"] = 30
    assert "rocket western_europe united_kingdom" in legal(s)
    s, log = play(s, "rocket western_europe united_kingdom", dice=[6])
    assert s.ipcs["uk"] == 24  # 6, at most the United Kingdom's 8
    err = refused(s, "rocket germany united_kingdom")
    assert "already hit by a rocket" in str(err)
    err = refused(s, "rocket western_europe karelia_ssr")
    assert "already fired from Western Europe" in str(err)


def test_a_rocket_takes_at_most_what_the_victim_holds():
    s = scene("germany", phase="combat")
    s.techs["germany"] = ["rockets"]
    put(s, "germany", "western_europe", aa_gun=1)
    s.ipcs["uk"] = 2
    s, log = play(s, "rocket western_europe united_kingdom", dice=[5])
    assert s.ipcs["uk"] == 0 and "surrenders 2" in log[0]


def test_a_gun_that_fired_a_rocket_does_not_move_that_turn():
    """FAQ: Movement."""
    s = scene("germany", phase="combat")
    s.techs["germany"] = ["rockets"]
    put(s, "germany", "western_europe", aa_gun=1)
    s, _ = play(s, "rocket western_europe united_kingdom", dice=[1])
    assert prompt(s) == ("germany", "noncombat")  # nothing else to fight: the phase ends
    err = refused(s, "move 1 aa western_europe germany")
    assert "rocket" in str(err)


def test_multinational_defenders_fight_together_and_the_controller_chooses():
    """Revised: Multinational Defense: all defend; one decides the casualties (R-34)."""
    s = scene("germany")
    put(s, "germany", "ukraine_ssr", tank=2)
    put(s, "ussr", "caucasus", infantry=1)
    put(s, "uk", "caucasus", tank=1)
    s, log = play(s, "move 2 arm ukraine_ssr caucasus", "done", dice=[1, 6])
    assert prompt(s) == ("ussr", "casualties")
    s, log = play(s, "casualties 1 arm", dice=[6, 6])
    assert board(s, "caucasus")["ussr"] == {"infantry": 1}


def test_fighters_on_a_defending_carrier_defend_and_may_take_ordinary_hits():
    """Appendix 1, Aircraft Carriers: Fighter Defense."""
    s = scene("germany")
    put(s, "germany", "germany", bomber=1)
    cv, f1 = put(s, "uk", "sz6", carrier=1, fighter=1)
    s, log = play(s, "move 1 bmb germany sz6", "done", dice=[1])
    assert prompt(s) == ("uk", "casualties")
    s, log = play(s, "casualties 1 ftr", dice=[6, 6])
    assert f1 not in s.units and cv in s.units


def test_an_allied_fighter_on_an_attacking_carrier_is_cargo():
    """FAQ: Combat: it cannot take part and is lost with the carrier."""
    s = scene("uk")
    cv = put(s, "uk", "sz6", carrier=1)[0]
    us = put(s, "usa", "sz6", fighter=1)[0]
    s.units[us].aboard = cv
    put(s, "germany", "sz5", destroyer=1)
    s, log = play(s, "move 1 cv sz6 sz5", "done", dice=[6, 1])
    assert cv not in s.units and us not in s.units
    assert not any(us in line and "rolls" in line for line in log)


def test_an_undefended_territory_is_taken_without_dice():
    s = scene("japan")
    trn = put(s, "japan", "sz60", transport=1)[0]
    for uid in put(s, "japan", "sz60", infantry=1):
        s.units[uid].aboard = trn
    s.control["buryatia_ssr"] = s.start_control["buryatia_ssr"] = "ussr"
    s, log = play(s, "move 1 inf sz60 buryatia_ssr", "done", "attack buryatia_ssr")
    assert s.control["buryatia_ssr"] == "japan"
    assert not any("rolls" in line for line in log)


# -- calling off a landing (Revised: Special Combats, Amphibious Assaults, L578) -----------


def _loaded(s, power, zone, **cargo):
    trn = put(s, power, zone, transport=1)[0]
    ids = put(s, power, zone, **cargo)
    for uid in ids:
        s.units[uid].aboard = trn
    return trn, ids


def test_a_landing_already_ashore_is_called_off_and_the_cargo_goes_back_aboard():
    """L578: in the conduct combat phase the attacker may call off the landing. The
    infantry return to their transport, the battleship does not bombard, no battle is
    fought, and the transport's move is over (RULINGS Q-20)."""
    s = scene("japan")
    trn, inf = _loaded(s, "japan", "sz52", infantry=2)
    bb = put(s, "japan", "sz52", battleship=1)[0]
    put(s, "usa", "hawaiian_islands", infantry=1)
    s, _ = play(s, "move 2 inf sz52 hawaiian_islands", "bombard 1 bb sz52 hawaiian_islands",
                "done")  # fmt: skip
    assert prompt(s) == ("japan", "combat")
    assert {"attack hawaiian_islands", "calloff hawaiian_islands"} <= legal(s)
    s, log = play(s, "calloff hawaiian_islands")
    assert any("calls off the landing in Hawaiian Islands" in line for line in log)
    assert all(s.units[u].aboard == trn and s.units[u].at == "sz52" for u in inf)
    assert s.units[trn].offloaded is None and s.units[bb].bombard is None
    assert board(s, "hawaiian_islands") == {"usa": {"infantry": 1}}
    assert prompt(s) == ("japan", "noncombat")
    refused(s, "move 1 trn sz52 sz51")
    refused(s, "move 1 inf sz52 hawaiian_islands")


def test_a_landing_waiting_on_a_sea_battle_is_called_off_before_the_battle():
    """L578: the landing declared from a sea zone with an enemy submarine is called off;
    the transport still fights the sea battle, and its cargo stays aboard after it."""
    s = scene("uk")
    trn, (inf,) = _loaded(s, "uk", "sz7", infantry=1)
    put(s, "uk", "sz7", destroyer=1)
    put(s, "germany", "sz6", submarine=1)
    s, log = play(s, "move 1 trn 1 dd sz7 sz6", "move 1 inf sz6 western_europe", "done")
    assert "calloff western_europe" in legal(s)
    # the submarine misses (6); the destroyer sinks it (1)
    s, log = play(s, "calloff western_europe", dice=[6, 1])
    assert s.units[inf].aboard == trn and s.units[inf].landing is None
    assert s.control["western_europe"] == "germany"
    assert not any("go ashore" in line for line in log)
    assert prompt(s) == ("uk", "noncombat")


def test_calling_off_a_landing_leaves_the_overland_attack_which_may_then_retreat():
    """The attack by land goes on without the landing; no unit came from the sea, so it
    is no amphibious assault and its land units may retreat (RULINGS Q-21)."""
    s = scene("japan")
    _loaded(s, "japan", "sz60", infantry=1)
    put(s, "japan", "manchuria", tank=1)
    put(s, "ussr", "buryatia_ssr", infantry=2)
    s.control["buryatia_ssr"] = s.start_control["buryatia_ssr"] = "ussr"
    s, _ = play(s, "move 1 inf sz60 buryatia_ssr", "move 1 arm manchuria buryatia_ssr", "done")
    # the land battle is the only one left and starts at once: tank 6, infantry 6 6
    s, log = play(s, "calloff buryatia_ssr", dice=[6, 6, 6])
    assert board(s, "buryatia_ssr")["japan"] == {"tank": 1}
    assert prompt(s) == ("japan", "press")
    assert "retreat manchuria" in legal(s)


def test_only_a_declared_landing_can_be_called_off_and_only_before_its_battle():
    s = scene("japan")
    _loaded(s, "japan", "sz52", infantry=1)
    put(s, "usa", "hawaiian_islands", infantry=1, artillery=1)
    s, _ = play(s, "move 1 inf sz52 hawaiian_islands", "done")
    err = refused(s, "calloff china")
    assert "no amphibious landing in China" in str(err)
    s, _ = play(s, "attack hawaiian_islands", dice=[1])
    assert prompt(s) == ("usa", "casualties")  # the battle has begun
    refused(s, "calloff hawaiian_islands", role="japan")
