"""Battles with scripted dice, step by step, traced to the Revised combat rules."""

from __future__ import annotations

import pytest

from engine.core.dice import ScriptedDice
from engine.core.errors import IllegalOrder
from engine.games.aa_revised.battle import (
    ATTACKER,
    ATTACKER_FIRE,
    ATTACKER_RETREATED,
    ATTACKER_WON,
    DEFENDER,
    DEFENDER_FIRE,
    DEFENDER_WON,
    MUTUAL_DESTRUCTION,
    OVER,
    PRESS_OR_RETREAT,
    STALEMATE,
    CasualtyOrder,
    Rules,
    Unit,
    choose_casualties,
    fight,
    needs,
    new_battle,
    press,
    retreat,
    roll,
    suggest_casualties,
    unit_stats,
)


def ids(units) -> list[str]:
    return [u.uid for u in units]


def rolled(dice: ScriptedDice) -> list[int]:
    return [r.value for r in dice.rolls]


# ------------------------------------------------------------------ the printed example


def test_rulebook_example_of_combat_germany_attacks_india():
    """Revised: Example of Combat. Germany (infantry, tank, fighter) attacks India (tank,
    infantry, antiaircraft gun)."""
    b = new_battle(
        [Unit("ger-inf", "infantry"), Unit("ger-tank", "tank"), Unit("ger-ftr", "fighter")],
        [Unit("uk-tank", "tank"), Unit("uk-inf", "infantry"), Unit("uk-aa", "aa_gun")],
    )
    # Step 2: the gun rolls a 1 against the fighter; step 3 removes it.
    assert needs(b).kind == "dice"
    b = roll(b, ScriptedDice([1]))
    assert ids(b.attackers_lost) == ["ger-ftr"]
    # Step 4: infantry 4 (miss), tank 2 (hit); the UK chooses its infantry.
    b = roll(b, ScriptedDice([4, 2]))
    need = needs(b)
    assert (need.kind, need.side, need.count) == ("casualties", DEFENDER, 1)
    b = choose_casualties(b, DEFENDER, ["uk-inf"])
    # Step 5: the UK tank and the infantry (a casualty, still firing) roll 4 and 5.
    assert b.step == DEFENDER_FIRE
    dice = ScriptedDice([4, 5])
    b = roll(b, dice)
    assert rolled(dice) == [4, 5]
    # Step 6 removes the UK infantry; step 7: Germany presses on.
    assert ids(b.defenders_lost) == ["uk-inf"]
    assert b.step == PRESS_OR_RETREAT
    b = press(b)
    # Second cycle: no opening fire; the German infantry rolls a 1. The tank does not
    # roll, because the UK's last unit is already hit.
    assert (b.cycle, b.step) == (2, ATTACKER_FIRE)
    dice = ScriptedDice([1])
    b = roll(b, dice)
    assert rolled(dice) == [1]
    b = choose_casualties(b, DEFENDER, ["uk-tank"])
    # The UK tank, now a casualty, rolls 2 and hits; Germany loses its infantry.
    b = roll(b, ScriptedDice([2]))
    b = choose_casualties(b, ATTACKER, ["ger-inf"])
    assert b.outcome == ATTACKER_WON
    assert ids(b.attackers) == ["ger-tank"]
    assert ids(b.defenders) == ["uk-aa"]  # the gun is never a casualty; it is captured


def test_rulebook_example_played_automatically_with_cheapest_casualties_first():
    b = new_battle(
        [Unit("ger-inf", "infantry"), Unit("ger-tank", "tank"), Unit("ger-ftr", "fighter")],
        [Unit("uk-tank", "tank"), Unit("uk-inf", "infantry"), Unit("uk-aa", "aa_gun")],
    )
    dice = ScriptedDice([1, 4, 2, 4, 5, 1, 2])
    b = fight(b, dice)
    assert dice.remaining == []
    assert b.outcome == ATTACKER_WON and ids(b.attackers) == ["ger-tank"]
    assert ids(b.defenders_lost) == ["uk-inf", "uk-tank"]


# ------------------------------------------------------------------ land combat values


def test_artillery_supports_infantry_one_for_one_on_attack():
    """Revised: Artillery Supporting Infantry; FAQ: the artillery rolls its own die too.
    5 infantry and 2 artillery, every die a 2: two infantry hit at 2, three miss at 1,
    both artillery hit."""
    attackers = [Unit(f"inf{i}", "infantry") for i in range(5)]
    attackers += [Unit("art0", "artillery"), Unit("art1", "artillery")]
    b = new_battle(attackers, [Unit(f"d{i}", "infantry") for i in range(8)])
    dice = ScriptedDice([2] * 7)
    b = roll(b, dice)
    assert len(dice.rolls) == 7
    assert needs(b).count == 4


def test_infantry_get_no_artillery_support_on_defense():
    """Revised: artillery does not support infantry on defense; infantry defend at 2."""
    b = new_battle(
        [Unit("a", "tank")],
        [Unit("art", "artillery"), Unit("inf", "infantry")],
    )
    b = roll(b, ScriptedDice([6]))
    assert b.step == DEFENDER_FIRE
    b = roll(b, ScriptedDice([3, 3]))
    assert ids(b.attackers) == ["a"]  # neither 3 hits: both defend at 2


def test_heavy_bombers_roll_two_dice_and_jet_fighters_defend_at_five():
    """Revised: Heavy Bombers (two dice attacking), Jet Fighters (defense 5)."""
    b = new_battle(
        [Unit("b", "bomber"), Unit("i", "infantry")],
        [Unit(f"d{i}", "infantry") for i in range(3)] + [Unit("f", "fighter")],
        attacker_techs={"heavy_bombers"},
        defender_techs={"jet_fighters"},
    )
    dice = ScriptedDice([4, 4, 6])
    b = roll(b, dice)
    assert needs(b).count == 2
    b = choose_casualties(b, DEFENDER, ["d0", "d1"])
    b = roll(b, ScriptedDice([6, 6, 6, 5]))
    assert needs(b).count == 1  # only the jet fighter's 5 hit
    assert "needs 5 or less: hit" in b.events[-1].text


def test_each_power_fights_with_its_own_developments():
    """Revised: Phase 1, Develop Weapons: powers cannot share their technology. A U.K.
    jet fighter defends at 5 beside a U.S. fighter at 4; a U.S. heavy bomber rolls two
    dice beside a U.K. bomber's one."""
    b = new_battle(
        [Unit("us-bmb", "bomber", "usa"), Unit("uk-bmb", "bomber", "uk")],
        [Unit("uk-ftr", "fighter", "uk"), Unit("us-ftr", "fighter", "usa")]
        + [Unit(f"i{n}", "infantry", "usa") for n in range(3)],
        owner_techs={"uk": {"jet_fighters"}, "usa": {"heavy_bombers"}},
    )
    dice = ScriptedDice([6, 6, 6])
    b = roll(b, dice)
    assert len(dice.rolls) == 3  # two dice for the U.S. bomber, one for the U.K. one
    dice = ScriptedDice([5, 5, 6, 6, 6])
    b = roll(b, dice)
    assert needs(b).count == 1  # the U.K. jet's 5 hits, the U.S. fighter's 5 misses
    texts = [e.text for e in b.events[-5:-3]]
    assert texts == [
        "fighter uk-ftr rolls 5, needs 5 or less: hit.",
        "fighter us-ftr rolls 5, needs 4 or less: miss.",
    ]


def test_of_two_units_of_a_type_the_standing_order_loses_the_weaker_one_first():
    """The default casualty order gives up the U.S. fighter (defending at 4) before the
    U.K. jet fighter (5): the same type, the lower value first."""
    b = new_battle(
        [Unit("a", "tank")],
        [Unit("uk-ftr", "fighter", "uk"), Unit("us-ftr", "fighter", "usa")],
        owner_techs={"uk": {"jet_fighters"}},
    )
    b = roll(b, ScriptedDice([1]))
    assert suggest_casualties(b) == ["us-ftr"]


# ------------------------------------------------------------------ antiaircraft guns


def test_one_antiaircraft_gun_fires_one_aimed_die_per_aircraft():
    """Revised: Opening Fire, Antiaircraft Guns (only one gun fires); FAQ: each die is
    aimed at a specific aircraft, so the owner cannot choose which one falls."""
    b = new_battle(
        [Unit("ftr-a", "fighter"), Unit("ftr-b", "fighter"), Unit("bmb", "bomber")],
        [Unit("aa1", "aa_gun"), Unit("aa2", "aa_gun"), Unit("inf", "infantry")],
    )
    dice = ScriptedDice([1, 4, 1])
    b = roll(b, dice)
    assert len(dice.rolls) == 3
    assert ids(b.attackers_lost) == ["ftr-a", "bmb"]
    assert [r.purpose for r in dice.rolls][0] == "antiaircraft fire at ftr-a"
    # Shot-down aircraft never fire: only ftr-b rolls at step 4.
    dice = ScriptedDice([6])
    b = roll(b, dice)
    assert len(dice.rolls) == 1 and b.step == DEFENDER_FIRE


def test_antiaircraft_guns_fire_only_in_the_first_cycle():
    """FAQ: Combat, guns and bombarding ships fire in the first opening fire only."""
    b = new_battle(
        [Unit("f", "fighter"), Unit("i", "infantry")],
        [Unit("aa", "aa_gun"), Unit("d1", "infantry"), Unit("d2", "infantry")],
    )
    b = roll(b, ScriptedDice([6]))  # gun misses
    b = roll(b, ScriptedDice([6, 6]))
    b = roll(b, ScriptedDice([6, 6]))
    b = press(b)
    assert (b.cycle, b.step) == (2, ATTACKER_FIRE)


def test_a_territory_held_only_by_a_gun_falls_without_dice_to_land_units():
    """Revised: Step 7, the battle ends when a side has no units; guns do not count."""
    b = new_battle([Unit("t", "tank")], [Unit("aa", "aa_gun")])
    assert b.outcome == ATTACKER_WON and needs(b).kind == "nothing"


def test_a_gun_alone_that_downs_every_plane_holds_its_territory():
    b = new_battle([Unit("f", "fighter")], [Unit("aa", "aa_gun")])
    b = roll(b, ScriptedDice([1]))
    assert b.outcome == DEFENDER_WON


# ------------------------------------------------------------------ bombardment


def test_bombardment_hits_only_land_units_and_fires_only_in_the_first_cycle():
    """Revised: Battleship Bombardment; Appendix 1, Battleships; FAQ: once only."""
    b = new_battle(
        [Unit("j1", "infantry"), Unit("j2", "infantry")],
        [Unit("us1", "infantry"), Unit("us2", "infantry"), Unit("usf", "fighter")],
        bombarding=[Unit("bb", "battleship")],
        amphibious=True,
    )
    b = roll(b, ScriptedDice([3]))
    need = needs(b)
    assert (need.side, need.count) == (DEFENDER, 1)
    assert ids(need.candidates) == ["us1", "us2"]
    with pytest.raises(IllegalOrder) as err:
        choose_casualties(b, DEFENDER, ["usf"])
    assert "(Revised: Opening Fire, Battleship Bombardment)" in str(err.value)
    b = choose_casualties(b, DEFENDER, ["us1"])
    assert ids(b.defenders_lost) == ["us1"]  # removed at step 3, never fires back
    b = roll(b, ScriptedDice([6, 6]))
    dice = ScriptedDice([6, 6])
    b = roll(b, dice)
    assert len(dice.rolls) == 2  # us2 and the fighter; us1 is gone
    # Land units in an amphibious assault cannot retreat and have no aircraft: the
    # next cycle starts at once, with no bombardment.
    assert (b.cycle, b.step) == (2, ATTACKER_FIRE)


def test_ships_do_not_bombard_a_territory_without_defending_land_units():
    b = new_battle(
        [Unit("i", "infantry")],
        [Unit("f", "fighter")],
        bombarding=[Unit("bb", "battleship")],
        amphibious=True,
    )
    assert b.step == ATTACKER_FIRE


def test_only_battleships_bombard_unless_destroyers_have_combined_bombardment():
    """Appendix 1, Destroyers: Combined Bombardment lets destroyers bombard at 3."""
    land = ([Unit("i", "infantry")], [Unit("d", "infantry")])
    with pytest.raises(IllegalOrder, match="Destroyers cannot bombard"):
        new_battle(*land, bombarding=[Unit("dd", "destroyer")], amphibious=True)
    b = new_battle(
        *land,
        bombarding=[Unit("dd", "destroyer")],
        amphibious=True,
        attacker_techs={"combined_bombardment"},
    )
    b = roll(b, ScriptedDice([3]))
    assert needs(b).count == 1
    with pytest.raises(IllegalOrder, match="only in the land part of an amphibious"):
        new_battle(*land, bombarding=[Unit("bb", "battleship")])


# ------------------------------------------------------------------ submarines


def test_submarine_hits_go_only_to_ships_and_leave_before_firing_back():
    """Appendix 1, Submarines: Sneak Attack; Aircraft Carriers: a fighter can't be a
    sub's casualty. Without a destroyer the carrier is removed at step 3."""
    b = new_battle(
        [Unit("u-boat", "submarine")],
        [Unit("cv", "carrier"), Unit("f1", "fighter"), Unit("f2", "fighter")],
        sea=True,
    )
    b = roll(b, ScriptedDice([2]))
    assert ids(needs(b).candidates) == ["cv"]
    with pytest.raises(IllegalOrder):
        choose_casualties(b, DEFENDER, ["f1"])
    b = choose_casualties(b, DEFENDER, ["cv"])
    assert ids(b.defenders_lost) == ["cv"]
    # subs never fire at step 4; at step 5 only the two fighters roll
    assert b.step == DEFENDER_FIRE
    dice = ScriptedDice([6, 6])
    b = roll(b, dice)
    assert len(dice.rolls) == 2


def test_a_destroyer_lets_submarine_casualties_fire_back_and_stops_submerging():
    """Revised: Destroyers and Submarine Casualties; FAQ: Submarines (the carrier hit
    while a destroyer is present shoots back); Appendix 1, Destroyers (no submerging)."""
    b = new_battle(
        [Unit("u-boat", "submarine")],
        [Unit("dd", "destroyer"), Unit("cv", "carrier")],
        sea=True,
    )
    b = roll(b, ScriptedDice([2]))
    b = choose_casualties(b, DEFENDER, ["cv"])
    assert ids(b.defenders) == ["dd", "cv"] and "cv" in b.marked
    dice = ScriptedDice([6, 6])
    b = roll(b, dice)
    assert len(dice.rolls) == 2  # the carrier fired before leaving
    assert ids(b.defenders_lost) == ["cv"]
    with pytest.raises(IllegalOrder) as err:
        press(b, submerge=["u-boat"])
    assert "(Revised: Appendix 1, Destroyers)" in str(err.value)


def test_a_destroyer_kept_victim_is_still_removed_when_the_other_side_is_gone_at_step_3():
    """Revised: Destroyers and Submarine Casualties; Step 7: the U.K. destroyer hit by
    the German submarine stays on the board (the U.K. has a destroyer), but the German
    submarine is sunk at step 3 by the U.K. submarine. Steps 4 to 6 still take place:
    the destroyer has nothing to fire at and is removed at step 6."""
    b = new_battle(
        [Unit("dd", "destroyer", "uk"), Unit("sub", "submarine", "uk")],
        [Unit("u-boat", "submarine", "germany")],
        sea=True,
    )
    dice = ScriptedDice([1, 1])
    b = roll(b, dice)
    b = choose_casualties(b, DEFENDER, ["u-boat"])
    b = choose_casualties(b, ATTACKER, ["dd"])
    assert b.outcome == ATTACKER_WON
    assert ids(b.attackers) == ["sub"]
    assert ids(b.attackers_lost) == ["dd"] and ids(b.defenders_lost) == ["u-boat"]
    assert not b.marked and len(dice.rolls) == 2


def test_a_sub_may_submerge_once_the_destroyer_it_hit_is_gone():
    """FAQ: Submarines; the destroyer hit by a sub still fires, then leaves, and then
    nothing stops the sub from submerging."""
    b = new_battle(
        [Unit("u-boat", "submarine")],
        [Unit("dd", "destroyer"), Unit("cv", "carrier")],
        sea=True,
    )
    b = roll(b, ScriptedDice([1]))
    b = choose_casualties(b, DEFENDER, ["dd"])
    dice = ScriptedDice([6, 6])
    b = roll(b, dice)
    assert len(dice.rolls) == 2
    b = press(b, submerge=["u-boat"])
    assert b.outcome == ATTACKER_RETREATED
    assert ids(b.attackers_submerged) == ["u-boat"]


def test_a_lone_sub_needs_two_cycles_to_sink_a_battleship_which_fires_back_once():
    """Revised: Battleship Damage; FAQ: Submarines (a battleship always takes two hits;
    after the second it sinks before firing)."""
    b = new_battle([Unit("sub", "submarine")], [Unit("bb", "battleship")], sea=True)
    b = roll(b, ScriptedDice([1]))
    b = choose_casualties(b, DEFENDER, ["bb"])
    assert b.defenders[0].hits == 1 and not b.defenders_lost
    b = roll(b, ScriptedDice([6]))  # the damaged battleship fires at full value
    b = press(b)
    dice = ScriptedDice([2])
    b = roll(b, dice)
    b = choose_casualties(b, DEFENDER, ["bb"])
    assert b.outcome == ATTACKER_WON and ids(b.defenders_lost) == ["bb"]
    assert rolled(dice) == [2]


def test_a_damaged_battleship_is_repaired_when_the_combat_ends():
    b = new_battle([Unit("sub", "submarine")], [Unit("bb", "battleship")], sea=True)
    b = roll(b, ScriptedDice([1]))
    b = choose_casualties(b, DEFENDER, ["bb"])
    b = roll(b, ScriptedDice([6]))
    b = press(b, submerge=["sub"])
    assert b.outcome == ATTACKER_RETREATED
    assert b.defenders == (Unit("bb", "battleship"),)


def test_two_submarine_hits_in_one_volley_sink_a_battleship():
    b = new_battle(
        [Unit("s1", "submarine"), Unit("s2", "submarine")],
        [Unit("bb", "battleship")],
        sea=True,
    )
    b = roll(b, ScriptedDice([1, 2]))
    assert needs(b).count == 2
    b = choose_casualties(b, DEFENDER, ["bb", "bb"])
    assert b.outcome == ATTACKER_WON


def test_submarines_cannot_hit_aircraft_but_aircraft_can_hit_submarines():
    """FAQ: Submarines (a lone fighter against subs); Appendix 1, Submarines (any sea or
    air unit can hit a submarine)."""
    b = new_battle([Unit("f", "fighter")], [Unit("s1", "submarine")], sea=True)
    b = roll(b, ScriptedDice([1]))  # the sub's hit has no target
    assert b.step == ATTACKER_FIRE
    b = roll(b, ScriptedDice([3]))
    assert ids(needs(b).candidates) == ["s1"]
    b = choose_casualties(b, DEFENDER, ["s1"])
    assert b.outcome == ATTACKER_WON


def test_variant_aircraft_need_a_destroyer_to_hit_submarines():
    """Not a Revised rule: with ``Rules(air_needs_destroyer=True)`` aircraft hits cannot
    go to submarines unless their side has a destroyer."""
    variant = Rules(air_needs_destroyer=True)
    b = new_battle(
        [Unit("f1", "fighter"), Unit("f2", "fighter")],
        [Unit("s", "submarine"), Unit("t", "transport")],
        sea=True,
        rules=variant,
    )
    b = roll(b, ScriptedDice([6]))
    b = roll(b, ScriptedDice([1, 1]))
    assert needs(b).count == 1
    with pytest.raises(IllegalOrder, match="aircraft cannot go to submarines"):
        choose_casualties(b, DEFENDER, ["s"])
    b = choose_casualties(b, DEFENDER, ["t"])
    b = roll(b, ScriptedDice([6]))  # the transport, already a casualty, fires back
    assert b.outcome == STALEMATE


def test_submarines_fire_in_every_cycle():
    """FAQ: Submarines, every round."""
    b = new_battle([Unit("s", "submarine")], [Unit("dd", "destroyer")], sea=True)
    b = roll(b, ScriptedDice([6]))
    b = roll(b, ScriptedDice([6]))
    b = press(b)
    dice = ScriptedDice([6])
    b = roll(b, dice)
    assert dice.rolls[0].purpose == "attacker submarine s"


def test_the_defender_assigns_submarine_hits_before_the_attacker():
    """FAQ: Combat, the defender chooses casualties first."""
    b = new_battle(
        [Unit("as", "submarine"), Unit("add", "destroyer")],
        [Unit("ds", "submarine"), Unit("ddd", "destroyer")],
        sea=True,
    )
    b = roll(b, ScriptedDice([1, 1]))
    assert [h.side for h in b.pending] == [DEFENDER, ATTACKER]


# ------------------------------------------------------------------ transports, end, retreat


def test_transports_never_fire_on_attack_and_defend_at_one():
    """Appendix 1, Transports: attack 0, defense 1; FAQ: two lone transports."""
    b = new_battle([Unit("t1", "transport")], [Unit("t2", "transport")], sea=True)
    assert b.step == DEFENDER_FIRE
    b = roll(b, ScriptedDice([1]))
    b = choose_casualties(b, ATTACKER, ["t1"])
    assert b.outcome == DEFENDER_WON


def test_a_lone_transport_retreats_after_surviving_the_defenders_fire():
    b = new_battle([Unit("t1", "transport")], [Unit("t2", "transport")], sea=True)
    b = roll(b, ScriptedDice([2]))
    b = retreat(b)
    assert b.outcome == ATTACKER_RETREATED and ids(b.retreated) == ["t1"]


def test_both_sides_destroyed_is_no_victory():
    """Revised: Step 8, if every unit on both sides is destroyed nobody wins."""
    b = fight(new_battle([Unit("a", "infantry")], [Unit("d", "infantry")]), ScriptedDice([1, 1]))
    assert b.outcome == MUTUAL_DESTRUCTION


def test_land_units_in_an_amphibious_assault_cannot_retreat_but_aircraft_can():
    """Revised: Amphibious Assaults; FAQ: Retreats (all aircraft together)."""
    b = new_battle(
        [Unit("i", "infantry"), Unit("f1", "fighter"), Unit("f2", "fighter")],
        [Unit("d1", "infantry"), Unit("d2", "infantry"), Unit("d3", "infantry")],
        amphibious=True,
    )
    b = roll(b, ScriptedDice([6, 6, 6]))
    b = roll(b, ScriptedDice([6, 6, 6]))
    assert b.step == PRESS_OR_RETREAT
    with pytest.raises(IllegalOrder, match="cannot retreat"):
        retreat(b)
    b = retreat(b, air_only=True)
    assert ids(b.retreated) == ["f1", "f2"] and ids(b.attackers) == ["i"]
    assert b.step == ATTACKER_FIRE and b.cycle == 2


def test_no_partial_retreat_outside_an_amphibious_assault():
    b = new_battle([Unit("i", "infantry"), Unit("f", "fighter")], [Unit("d", "infantry")])
    b = roll(b, ScriptedDice([6, 6]))
    b = roll(b, ScriptedDice([6]))
    with pytest.raises(IllegalOrder, match="must retreat together"):
        retreat(b, air_only=True)
    b = retreat(b)
    assert b.outcome == ATTACKER_RETREATED and ids(b.retreated) == ["i", "f"]


def test_orders_at_the_wrong_moment_are_refused():
    b = new_battle([Unit("i", "infantry")], [Unit("d", "infantry")])
    with pytest.raises(IllegalOrder, match="cannot retreat now"):
        retreat(b)
    with pytest.raises(IllegalOrder, match="no hits to take now"):
        choose_casualties(b, DEFENDER, ["d"])


def test_the_wrong_number_of_casualties_is_refused_with_the_rule():
    b = new_battle(
        [Unit("t1", "tank"), Unit("t2", "tank")],
        [Unit("d1", "infantry"), Unit("d2", "infantry"), Unit("d3", "infantry")],
    )
    b = roll(b, ScriptedDice([1, 1]))
    with pytest.raises(IllegalOrder) as err:
        choose_casualties(b, DEFENDER, ["d1"])
    assert str(err.value) == (
        "The defender must choose 2 casualties, not 1. (Revised: Conduct Combat, "
        "steps 4-5) Choose from: d1, d2, d3."
    )
    with pytest.raises(IllegalOrder, match="cannot take 2 hits"):
        choose_casualties(b, DEFENDER, ["d1", "d1"])


@pytest.mark.parametrize(
    ("attackers", "defenders", "sea", "message"),
    [
        ([Unit("i", "infantry")], [Unit("d", "infantry")], True, "fight only in territories"),
        ([Unit("b", "battleship")], [Unit("d", "infantry")], False, "fight only in sea zones"),
        ([Unit("a", "aa_gun")], [Unit("d", "infantry")], False, "never attack"),
        ([Unit("i", "infantry")], [Unit("c", "industrial_complex")], False, "never take part"),
        ([Unit("i", "infantry")], [Unit("i", "infantry")], False, "listed twice"),
        ([Unit("x", "zeppelin")], [], False, "no unit type called 'zeppelin'"),
        ([], [Unit("d", "infantry")], False, "at least one attacker"),
    ],
)
def test_forces_that_cannot_fight_there_are_refused(attackers, defenders, sea, message):
    with pytest.raises(IllegalOrder, match=message):
        new_battle(attackers, defenders, sea=sea)


def test_an_unknown_weapons_development_is_refused():
    with pytest.raises(IllegalOrder, match="no weapons development called 'lasers'"):
        unit_stats(frozenset({"lasers"}))


# ------------------------------------------------------------------ casualty orders


def test_default_order_damages_battleships_first_then_loses_the_cheapest():
    """Revised: Which units should I choose as casualties? and Battleship Damage."""
    defenders = [Unit("dd", "destroyer"), Unit("bb", "battleship"), Unit("tr", "transport")]
    b = new_battle([Unit(f"s{i}", "submarine") for i in range(3)], defenders, sea=True)
    b = roll(b, ScriptedDice([1, 1, 1]))
    assert suggest_casualties(b) == ["bb", "tr", "dd"]
    assert suggest_casualties(b, CasualtyOrder(first=("destroyer",))) == ["bb", "dd", "tr"]
    no_damage = CasualtyOrder(damage_battleships_first=False)
    assert suggest_casualties(b, no_damage) == ["tr", "dd", "bb"]


def test_keep_land_unit_gives_up_aircraft_before_the_last_land_unit():
    b = new_battle([Unit("i", "infantry"), Unit("f", "fighter")], [Unit("d", "infantry")])
    b = roll(b, ScriptedDice([6, 6]))
    b = roll(b, ScriptedDice([1]))
    assert suggest_casualties(b) == ["i"]
    assert suggest_casualties(b, CasualtyOrder(keep_land_unit=True)) == ["f"]


def test_fight_retreats_by_its_standing_order():
    b = new_battle(
        [Unit("a1", "infantry"), Unit("a2", "infantry")],
        [Unit("d1", "infantry"), Unit("d2", "infantry")],
    )
    out = fight(b, ScriptedDice([6, 6, 1, 6]), retreat_when=1)
    assert out.outcome == ATTACKER_RETREATED and ids(out.retreated) == ["a2"]
    out = fight(b, ScriptedDice([6, 6, 6, 6]), max_rounds=1)
    assert out.outcome == ATTACKER_RETREATED and out.cycle == 1
    assert out.step == OVER
