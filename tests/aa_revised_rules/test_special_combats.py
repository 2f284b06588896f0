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
    s, log = play(s, "move 1 inf sz60 buryatia_ssr", "done")
    assert s.control["buryatia_ssr"] == "japan"
    assert not any("rolls" in line for line in log)
