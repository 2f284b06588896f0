"""Issue 9, item 4: the rules the audit found, each as the rulebook says it
(/work/shared/rules/001_da0b5ab321fa047b.txt, line numbers as Lnnn)."""

from __future__ import annotations

from engine.core.dice import ScriptedDice
from tests.aa_revised_rules.helpers import RULES, legal, play, put, refused, scene

# -- fighters left aboard a moving carrier are cargo (L349, L766, L861) ------------------


def test_fighters_not_launched_before_their_carrier_moves_are_cargo_and_do_not_fight():
    """L349: fighters not launched before the carrier moves are cargo, and cargo takes no
    part in combat. The U.S. carrier sails into Sea Zone 54 with its fighter aboard:
    the battle is the carrier alone against the submarine."""
    s = scene("usa")
    put(s, "japan", "sz54", submarine=1)
    cv, f = put(s, "usa", "sz53", carrier=1, fighter=1)
    s, _ = play(s, f"move {cv} sz53 sz54")
    dice = ScriptedDice([6, 6])  # the submarine misses, the carrier misses
    s, events = RULES.apply(s, "usa", RULES.parse_order("done"), dice)
    lines = [e.text for e in events]
    battle = "Battle in Sea Zone 54: United States attacks with 1 aircraft carrier against 1 "
    assert battle + "submarine." in lines
    assert not any(f in line for line in lines)
    assert f not in {u.uid for u in s.battle.b.attackers}
    assert s.units[f].aboard == cv


def test_a_fighter_carried_as_cargo_keeps_no_range_to_take_off_afterwards():
    """L766: to take part in combat a fighter takes off before its carrier moves,
    otherwise it is cargo; L861: if the carrier moves first, the fighters aboard are
    cargo. Once carried, the fighter has no range left this turn: it may not take off
    from the carrier's new sea zone to attack elsewhere, in the combat move or after."""
    s = scene("usa")
    put(s, "japan", "sz54", submarine=1)
    put(s, "japan", "sz42", destroyer=1)
    cv, f = put(s, "usa", "sz53", carrier=1, fighter=1)
    s, _ = play(s, f"move {cv} sz53 sz54")
    err = refused(s, f"move {f} sz54 sz42")
    assert "cargo" in err.message and "take off before its carrier moves" in err.message
    assert not any(o.startswith("move 1 ftr sz54") for o in legal(s))


def test_a_fighter_launched_before_its_carrier_moves_attacks_as_usual():
    """L349, L766: the fighter takes off from the carrier's first sea zone, then the
    carrier moves: the fighter is no cargo and fights."""
    s = scene("usa")
    put(s, "japan", "sz54", submarine=1)
    cv, f = put(s, "usa", "sz53", carrier=1, fighter=1)
    s, _ = play(s, f"move {f} sz53 sz54", f"move {cv} sz53 sz54")
    assert s.units[f].aboard is None
    dice = ScriptedDice([6, 6, 6])  # submarine, carrier, fighter: all miss
    s, events = RULES.apply(s, "usa", RULES.parse_order("done"), dice)
    assert f in {u.uid for u in s.battle.b.attackers}


def test_in_the_noncombat_move_cargo_fighters_stay_aboard_their_carrier():
    """L861: the carrier moved with the fighter aboard, so the fighter is cargo for the
    rest of the turn and lands with its carrier."""
    s = scene("usa", phase="noncombat")
    cv, f = put(s, "usa", "sz53", carrier=1, fighter=1)
    s, _ = play(s, f"move {cv} sz53 sz54")
    err = refused(s, f"move {f} sz54 hawaiian_islands")
    assert "cargo" in err.message
    s, _ = play(s, "done")
    assert s.units[f].aboard == cv and s.units[f].at == "sz54"


# -- the owner chooses which transport is lost (L384, L464) -------------------------------


def _two_german_transports_one_loaded():
    s = scene("uk")
    t1, t2 = put(s, "germany", "sz5", transport=2)
    for i in put(s, "germany", "sz5", infantry=2):
        s.units[i].aboard = t1
    put(s, "uk", "united_kingdom", bomber=1)
    s, _ = play(s, "move 1 bmb united_kingdom sz5")
    return s, t1, t2


def test_the_owner_chooses_which_transport_is_lost_when_their_cargo_differs():
    """L384: the owner of the units hit decides which take the hits; L464: you might
    lose one transport rather than another that carries units you need. Of two
    German transports, one carries two infantry: losing it or the empty one is a real
    choice, so Germany is asked, by id."""
    s, loaded, empty = _two_german_transports_one_loaded()
    dice = ScriptedDice([1])  # the bomber hits
    s, events = RULES.apply(s, "uk", RULES.parse_order("done"), dice)
    p = RULES.prompt(s)
    assert (p.role, p.kind) == ("germany", "casualties")
    assert f"trn {loaded} (carrying 2 infantry)" in p.text and f"trn {empty} (empty)" in p.text
    assert {f"casualties {loaded}", f"casualties {empty}"} <= legal(s)
    s, log = play(s, f"casualties {empty}", dice=[6, 6])  # the transports fire back: miss
    assert empty not in s.units and loaded in s.units


def test_transports_with_the_same_cargo_are_no_choice_and_one_goes_without_asking():
    """R-39: with nothing to choose (both transports empty) the engine takes one."""
    s = scene("uk")
    t1, t2 = put(s, "germany", "sz5", transport=2)
    put(s, "uk", "united_kingdom", bomber=1)
    s, _ = play(s, "move 1 bmb united_kingdom sz5")
    dice = ScriptedDice([1, 6, 6])
    s, events = RULES.apply(s, "uk", RULES.parse_order("done"), dice)
    assert RULES.prompt(s).kind == "press"
    assert len([t for t in (t1, t2) if t in s.units]) == 1


# -- an impossible sea route says why (Appendix 1, Sea Units) -----------------------------


def test_a_route_too_long_through_its_stops_says_how_long_it_is_on_an_empty_board():
    """A battleship moves 2 sea zones (Appendix 1); going to Sea Zone 7 by way of Sea
    Zone 3 takes 3. The board is empty: no enemy ships are in the way."""
    s = scene("uk", phase="noncombat")
    put(s, "uk", "sz6", battleship=1)
    err = refused(s, "move 1 bb sz6 sz3 sz7")
    assert err.message.startswith(
        "The route from Sea Zone 6 through Sea Zone 3 to Sea Zone 7 is 3 sea zones long; "
        "1 battleship can move 2 this turn."
    )
    assert "enemy" not in err.message


def test_a_route_naming_a_sea_zone_twice_or_a_territory_as_a_stop_says_so():
    s = scene("uk", phase="noncombat")
    put(s, "uk", "sz6", battleship=1)
    assert "names Sea Zone 7 twice" in refused(s, "move 1 bb sz6 sz7 sz7").message
    assert "is not a sea zone" in refused(s, "move 1 bb sz6 united_kingdom sz7").message


def test_enemy_ships_in_the_way_are_still_named_as_the_reason():
    """Appendix 1, Sea Units: ships other than submarines stop in a sea zone with enemy
    ships; in the noncombat move they may not enter it at all."""
    s = scene("uk", phase="noncombat")
    put(s, "uk", "sz6", battleship=1)
    put(s, "germany", "sz7", destroyer=1)
    err = refused(s, "move 1 bb sz6 sz7 sz8")
    assert "enemy" in err.message
