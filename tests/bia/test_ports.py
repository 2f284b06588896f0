"""BIA port supply capacity (4.2.1, L599-608; 3.4.2, L343-361) and siege supply (advanced
rules 10.1, L1959-1971): a port supplies at most 5 blocks (major) or 1 (minor) of those
whose every supply line ends at a port; a port completely surrounded by enemy units or
ZOC is no supply source (L359-361); with the option ``advanced`` up to 4 (major) or 1
(minor) blocks in it are in siege supply and lose a step at the Final Supply Check
instead of surrendering, surrendering on their last step."""

from __future__ import annotations

from engine.core.dice import ScriptedDice
from engine.core.events import PUBLIC, lines_for
from engine.games.bia import ports, supply, turn
from engine.games.bia.board import ALLIED, AXIS
from engine.games.bia.context import Ctx
from tests.bia.test_combat import B, bare, put, value

P = B.pack.places
MERSA_BREGA, TOBRUK = P["Mersa Brega"], P["Tobruk"]
CHANIA, HERAKLION = P["Chania"], P["Heraklion"]


def test_libya_is_supplied_by_the_sea_leg_from_taranto():
    """4.2 (L679-686): from Rome by rail to Taranto, by sea to Bengasi; by land alone
    the Italian network never reaches Libya."""
    s = bare()
    full = supply.network(B, s, "italy")
    assert {P["Taranto"], P["Bengasi"]} <= full
    land = supply.network(B, s, "italy", sea=False)
    assert P["Taranto"] in land and P["Bengasi"] not in land


def capacity_of(h: str) -> int:
    return ports.capacity(B, h)


def test_a_minor_port_supplies_one_block_of_those_only_it_reaches():
    """4.2.1 (L607-608): south of Mersa Brega the only source in reach is the minor port;
    of two blocks there, the one first in token order takes its place (RULINGS B52), the
    other is out of supply. A third block on the coast road is supplied by the road."""
    s = bare()
    put(s, "it_10c", "1422")
    put(s, "it_21c", "1521")
    first, second = sorted(("it_10c", "it_21c"), key=lambda i: s.blocks[i].token)
    assert supply.out_of_supply(B, s, AXIS) == [second]
    assert capacity_of(MERSA_BREGA) == 1
    s.blocks[first].where = "pool"
    assert supply.out_of_supply(B, s, AXIS) == []


def test_two_minor_ports_of_crete_share_their_places():
    """Chania and Heraklion (1 each) both reach the hexes between them: two of three
    blocks there are supplied, one is not; a major port takes 5 (L599-601)."""
    s = bare()
    for i in ("it_10c", "it_21c", "it_5sa"):  # two combat units and a support unit (3.13)
        put(s, i, "2011")
    here = [b.id for b in s.at_hex("2011")]
    assert len(here) == 3
    oos = supply.out_of_supply(B, s, AXIS)
    assert oos == [max(here, key=lambda i: s.blocks[i].token)]
    assert capacity_of(P["Bengasi"]) == 5 and capacity_of(CHANIA) == 1


def besieged_tobruk(advanced: bool = False):
    """Tobruk (a major port) held by three British blocks; Axis blocks at 1916 and 2017
    hold two of its land neighbours and put the third (1917) in their ZOC."""
    s = bare(side=ALLIED, phase="supply")
    s.options["advanced"] = advanced
    for i in ("uk_9aus", "uk_2nz", "uk_8art"):
        put(s, i, TOBRUK)
    put(s, "it_10c", "1916")
    put(s, "it_21c", "2017")
    return s


def test_a_port_surrounded_by_enemy_units_and_zoc_is_no_supply_source():
    """L359-361: besieged, Tobruk supplies nobody, and its blocks get the white barrel;
    with one neighbour free, it is a port again."""
    s = besieged_tobruk()
    assert supply.besieged(B, s, TOBRUK, ALLIED)
    assert TOBRUK not in supply.sources(B, s, "uk")
    assert set(supply.out_of_supply(B, s, ALLIED)) == {"uk_9aus", "uk_2nz", "uk_8art"}
    s.blocks["it_21c"].where = "pool"
    assert not supply.besieged(B, s, TOBRUK, ALLIED)
    assert TOBRUK in supply.sources(B, s, "uk")
    assert supply.out_of_supply(B, s, ALLIED) == []


def final_check(s):
    ctx = Ctx(B, s, ScriptedDice([]))
    turn.supply_phase(ctx)
    turn.final_supply_phase(ctx)
    return ctx.events


def test_basic_rules_besieged_blocks_surrender_at_the_final_check():
    s = besieged_tobruk()
    final_check(s)
    assert s.blocks["uk_9aus"].where == "dead" and s.blocks["uk_2nz"].where == "dead"
    assert s.blocks["uk_8art"].where == "map"  # a 0-strength edge stays (L738-740)


def test_siege_supply_costs_a_step_and_the_last_step_surrenders():
    """AR 10.1 (L1964-1971): out of supply, but a step lost instead of surrendering;
    once on its last step a block surrenders like the others. The enemy reads tokens."""
    s = besieged_tobruk(advanced=True)
    s.blocks["uk_2nz"].steps = 1
    aus = value(s, "uk_9aus")
    ev = final_check(s)
    assert s.blocks["uk_9aus"].where == "map" and value(s, "uk_9aus") < aus
    assert s.blocks["uk_2nz"].where == "dead"
    public = " ".join(lines_for(ev, PUBLIC))
    assert "siege supply" in public and s.blocks["uk_9aus"].token in public
    assert "Australian" not in public and "uk_9aus" not in public


def test_a_minor_port_gives_siege_supply_to_one_block_only():
    """L1960: 1 block in a minor port, 4 in a major one, 4 in the side's own capital."""
    s = bare(side=AXIS, phase="supply")
    s.options["advanced"] = True
    assert B.hex(MERSA_BREGA).port == "minor"
    put(s, "it_10c", MERSA_BREGA)
    put(s, "it_21c", MERSA_BREGA)
    ring = [n for n in B.adjacent(MERSA_BREGA) if B.is_land(n)]
    for n, foe in zip(ring, ("uk_xiii", "uk_xxx", "uk_4ind", "uk_9aus", "uk_2nz"), strict=False):
        put(s, foe, n)
    assert supply.besieged(B, s, MERSA_BREGA, AXIS)
    oos = supply.out_of_supply(B, s, AXIS)
    assert {"it_10c", "it_21c"} <= set(oos)
    sheltered = ports.in_siege_supply(B, s, AXIS, oos)
    assert len(sheltered & {"it_10c", "it_21c"}) == 1
    s.options["advanced"] = False
    assert ports.in_siege_supply(B, s, AXIS, oos) == set()


def test_a_besieged_capital_supplies_its_blocks_only_in_the_basic_game():
    """Basic rules: a capital is its power's main source whatever surrounds it (4.1);
    advanced (AR 10.1, RULINGS B54-B55): surrounded, Baghdad is no source and the Iraqi
    army in it is in siege supply."""
    s = bare("BIA2", turn=23, side=AXIS, phase="supply")
    baghdad = P["Baghdad"]
    put(s, "ir_army", baghdad)
    for foe, h in zip(("uk_10ind", "uk_1cav", "uk_7aus"), ("4614", "4413", "4415"), strict=True):
        put(s, foe, h)
    assert supply.besieged(B, s, baghdad, AXIS)
    assert "ir_army" not in supply.out_of_supply(B, s, AXIS)
    s.options["advanced"] = True
    oos = supply.out_of_supply(B, s, AXIS)
    assert "ir_army" in oos
    assert ports.in_siege_supply(B, s, AXIS, oos) == {"ir_army"}
