"""BIA combat and the rest of the land turn (issue 11): the battle rounds of 7.7 with the
rulebook's worked examples (Gazala, Bir Hackeim, the modifier examples of 7.7.6-7.7.7),
hits and shields, retreats, the Blitz, Exploitation, SRM, Strategic Warfare and power
conquest. Every battle uses scripted dice."""

from __future__ import annotations

import json

import pytest

from engine.core.dice import ScriptedDice
from engine.core.errors import IllegalOrder
from engine.core.events import PUBLIC, lines_for, order_line
from engine.games.bia import combat, firepower, supply
from engine.games.bia.board import ALLIED, AXIS
from engine.games.bia.context import Ctx
from engine.games.bia.rules import BlocksInAfrika

RULES = BlocksInAfrika()
B = RULES.board
GAZALA, BIR_HACKEIM, MECHILI, TOBRUK = "1916", "1817", "1816", "2016"


def bare(scenario: str = "BIA6", turn: int = 33, side: str = AXIS, phase: str = "movement"):
    """A scenario's state with every block off the map: the test places what it needs."""
    s = RULES.setup(scenario, {}, ScriptedDice([1, 2, 3, 4] + [1] * 10))
    for b in s.blocks.values():
        b.where, b.at, b.oos, b.revealed = "pool", None, False, False
    s.turn, s.player, s.phase, s.battles, s.fight = turn, side, phase, [], None
    return s


def put(s, block_id: str, hex_id: str, value: int | None = None) -> None:
    b = s.blocks[block_id]
    b.where, b.at = "map", hex_id
    if value is not None:
        b.steps = max(i for i, v in enumerate(B.block(block_id).values()) if v == value) + 1
    side = b.side
    s.control[hex_id] = (
        s.control.get(hex_id, side) if any(x.side != side for x in s.at_hex(hex_id)) else side
    )


def order(s, role: str, text: str, dice=()):
    d = ScriptedDice(list(dice))
    s2, ev = RULES.apply(s, role, RULES.parse_order(text), d)
    assert d._values == [], f"dice left over: {d._values}"
    assert RULES.invariant_problems(s2) == []
    return s2, ev


def refused(s, role: str, text: str) -> IllegalOrder:
    before = json.dumps(RULES.dump_state(s), sort_keys=True)
    with pytest.raises(IllegalOrder) as err:
        RULES.apply(s, role, RULES.parse_order(text), ScriptedDice([]))
    assert json.dumps(RULES.dump_state(s), sort_keys=True) == before
    assert "\n" not in str(err.value)
    return err.value


def value(s, block_id: str) -> int:
    return firepower.value(B, s.blocks[block_id])


def by_token(s, *ids: str) -> list[str]:
    return sorted(ids, key=lambda i: s.blocks[i].token)


# -- the worked examples -------------------------------------------------------------------


def gazala():
    """The Battle of Gazala (L1449-1649), May 1942: DAK (5), Ariete (3) and Rommel (3)
    attack the Desert Rats (3) in Gazala from Mechili."""
    s = bare()
    for block, v in (("de_dak", 5), ("it_ariete", 3), ("de_rommel", 3)):
        put(s, block, MECHILI, v)
    put(s, "uk_7armd", GAZALA, 3)
    s.control[GAZALA] = ALLIED
    for block in ("de_dak", "it_ariete", "de_rommel"):
        s, _ = order(s, AXIS, f"move {block} {GAZALA}")
    return s


def test_gazala_ground_combat_as_the_rulebook_plays_it():
    """Rommel (elite armoured HQ) fires as artillery, 3 dice at 4-6, then drops 3 -> 2;
    the Desert Rats (elite) fire first in the ground step, 3 dice at 4-6, 3 hits: DAK
    5 -> 3 (its shield takes two), then Ariete 3 -> 2 (tied with the DAK at 3, the
    weaker firer takes it, as the Axis player chose); DAK 3 dice at 4-6 miss, Ariete 2
    dice at 6 hit once: the Desert Rats' third shield hit takes them 3 -> 0, and a
    0-strength unit alone against enemy combat units is eliminated (L1573-1577).
    Without the example's air units (the whole example, air steps included, is
    tests/bia/test_air_combat.py) Rommel scores both shield marks of the first two steps."""
    s = gazala()
    assert s.battles == [GAZALA]
    rommel = [4, 5, 1]
    rats = [6, 5, 4]
    fire = {"de_dak": [1, 2, 3], "it_ariete": [6, 1]}
    attackers = [d for i in by_token(s, "de_dak", "it_ariete") for d in fire[i]]
    s, ev = order(s, AXIS, "done", rommel + rats + attackers)
    text = " ".join(lines_for(ev, PUBLIC))
    assert "3 dice at 4+" in text  # Rommel and the DAK: TECH 2 tanks (5) with the elite Bonus
    assert "Ariete Armoured Division" in text and "2 dice at 6+" in text
    assert value(s, "de_rommel") == 2  # ammunition (7.7.4)
    assert value(s, "de_dak") == 3 and value(s, "it_ariete") == 2
    assert s.blocks["uk_7armd"].where == "dead"
    assert s.control[GAZALA] == AXIS and s.battles == [] and s.fight is None
    assert s.phase == "blitz" and RULES.prompt(s).role == AXIS  # the DAK may blitz now


def test_bir_hackeim_blitz_after_gazala():
    """Bir Hackeim (L2189-2252): after Gazala the DAK (3) and Ariete (2) blitz into Bir
    Hackeim with their free MP against the FF Brigade (2). The FF Brigade fires first
    (basic rules: Panzers Attack! is advanced, AR 14.0) and misses; DAK and Ariete score 3
    hits: the FF Brigade is eliminated and the extra hits are lost."""
    s = gazala()
    put(s, "ff_brigade", BIR_HACKEIM, 2)
    s.control[BIR_HACKEIM] = ALLIED
    fire = {"de_dak": [1, 2, 3], "it_ariete": [6, 1]}
    attackers = [d for i in by_token(s, "de_dak", "it_ariete") for d in fire[i]]
    s, _ = order(s, AXIS, "done", [4, 5, 1, 6, 5, 4] + attackers)
    assert "uk_7armd" not in [b.id for b in s.on_map()]
    s, ev = order(s, AXIS, f"blitz de_dak {BIR_HACKEIM}")
    assert s.battles == [BIR_HACKEIM] and "blitz battle opens" in " ".join(lines_for(ev, PUBLIC))
    assert "already blitzed" in refused(s, AXIS, f"blitz de_dak {GAZALA}").reason
    s, _ = order(s, AXIS, f"blitz it_ariete {BIR_HACKEIM}")
    refused(s, AXIS, "done")  # the blitz battle must be fought first
    fire = {"de_dak": [4, 5, 1], "it_ariete": [6, 2]}
    attackers = [d for i in by_token(s, "de_dak", "it_ariete") for d in fire[i]]
    s, ev = order(s, AXIS, f"fight {BIR_HACKEIM}", [1, 2] + attackers)
    text = " ".join(lines_for(ev, PUBLIC))
    assert "Free French Brigade" in text and "find no target and are lost" in text
    assert s.blocks["ff_brigade"].where == "dead" and s.control[BIR_HACKEIM] == AXIS


def test_bonus_and_malus_examples_of_7_7_6_and_7_7_7():
    """Italian TECH 1 tanks defend at 5-6, at 4-6 with a Bonus (L1661-1664). A German
    5-step tank rolls 2 dice with one Malus and 1 with two (forest and a river, L1669-
    1674). A defending TECH 1 infantry hits at 4-6 behind a river in a major city
    (L1675-1679). A German TECH 2 armour of 3 and an Italian TECH 1 infantry of 3
    attacking into forest roll 3 dice, 1 at 5-6 and 2 at 6 (merging dice, L1681-1691)."""
    s = bare(scenario="BIA4", turn=21)
    a, h = next((a, h) for a, h in _river_pairs() if B.hex(h).terrain == "clear")
    put(s, "it_ariete", h, 3)
    assert firepower.hit_number(B, s, s.blocks["it_ariete"], h, attacking=False) == 5
    s.localities[h] = "capital"  # one Bonus for the city
    assert firepower.hit_number(B, s, s.blocks["it_ariete"], h, attacking=False) == 4
    put(s, "it_10c", h, 3)
    put(s, "uk_7armd", a, 3)
    s.blocks["uk_7armd"].at = h
    s.entered_from["uk_7armd"] = a  # attacked across the river
    assert firepower.hit_number(B, s, s.blocks["it_10c"], h, attacking=False) == 4
    s = bare(scenario="BIA4", turn=21)
    s.localities[h] = "capital"
    put(s, "uk_7armd", h, 3)
    put(s, "de_dak", h, 5)
    s.entered_from["de_dak"] = a
    _, malus = firepower.modifiers(B, s, s.blocks["de_dak"], h, attacking=True)
    assert malus == 2  # the city and the river
    assert firepower.fire_plan(B, s, [s.blocks["de_dak"]], h, True)[0][1] == 1
    forest = next(x.id for x in B.pack.map.hexes if x.terrain == "forest" and B.is_land(x.id))
    s = bare(scenario="BIA4", turn=21)
    put(s, "de_dak", forest, 5)
    assert [d for _, d, _ in firepower.fire_plan(B, s, [s.blocks["de_dak"]], forest, True)] == [2]
    put(s, "de_dak", forest, 3)  # a German TECH 2 armour of 3 (elite besides: 4-6)
    put(s, "it_10c", forest, 3)
    plan = firepower.fire_plan(B, s, [s.blocks["de_dak"], s.blocks["it_10c"]], forest, True)
    dice = sorted((need, n) for _, n, need in plan)
    assert dice == [(4, 1), (6, 2)]  # the extra die goes to the weaker firer


def _river_pairs():
    from engine.games.bia.pack import neighbours

    return [
        (h.id, n)
        for h in B.pack.map.hexes
        for n in neighbours(h.id)
        if B.is_land(h.id) and B.is_land(n) and "river" in B.features(h.id, n)
    ]


def test_a_fortress_quarters_the_attacker_and_falls_to_a_bunker():
    """Fortress (L1727-1733): attackers roll a quarter (at least 1 die), defending combat
    units get two Bonuses; taken, it becomes a bunker, and a taken bunker is destroyed."""
    s = bare(scenario="BIA3", turn=16)
    assert firepower.locality(B, s, TOBRUK) == "fortress"
    put(s, "it_10c", TOBRUK, 3)
    s.control[TOBRUK] = AXIS
    assert firepower.hit_number(B, s, s.blocks["it_10c"], TOBRUK, attacking=False) == 4
    s.player = ALLIED
    put(s, "uk_7armd", GAZALA, 3)
    s.control[GAZALA] = ALLIED
    s, _ = order(s, ALLIED, f"move uk_7armd {TOBRUK}")
    plan = firepower.fire_plan(B, s, [s.blocks["uk_7armd"]], TOBRUK, True)
    assert plan[0][1] == 1
    # it_10c fires 3 dice and misses, the Desert Rats 1 die and hit, three times over
    s, ev = order(s, ALLIED, "done", [1, 1, 1, 6, 1, 1, 6, 1, 6])
    assert s.blocks["it_10c"].where == "dead" and s.control[TOBRUK] == ALLIED
    assert firepower.locality(B, s, TOBRUK) == "bunker"


def test_shields_carry_hits_and_folgore_needs_three():
    """7.7.8.1-7.7.8.2 (L1704-1720): the Folgore goes 3 -> 0 only on its third hit; the
    carried hits are public once the battle has revealed it."""
    s = bare(scenario="BIA5", turn=38)
    put(s, "it_folgore", "2417", 3)
    s.control["2417"] = AXIS
    s.player = ALLIED
    ctx = Ctx(B, s, ScriptedDice([]))
    s.battles = ["2417"]
    s.fight = {"hex": "2417", "attacker": ALLIED, "round": 1, "step": 0,
               "pending": {"side": AXIS, "hits": 2}, "shield": {}, "wait": None}  # fmt: skip
    foe = next(b.id for b in s.blocks.values() if b.side == ALLIED and B.block(b.id).role == "gcu")
    put(s, foe, "2417")
    combat._give_hits(ctx)
    assert value(s, "it_folgore") == 3 and s.fight["shield"] == {"it_folgore": 2}
    s.fight["pending"] = {"side": AXIS, "hits": 1}
    combat._give_hits(ctx)
    assert value(s, "it_folgore") == 0 and s.fight["shield"] == {}


# -- decisions: standing orders, ties, retreats --------------------------------------------


def test_a_tie_asks_the_owner_when_its_standing_order_says_so():
    """3.18 (L586-588): on a tie of the strongest the owner chooses. With 'standing hits
    ask' the battle waits on that side, who names one of the tied blocks."""
    s = gazala()
    s.standing = {AXIS: {"hits": "ask"}}
    s, _ = order(s, AXIS, "done", [1, 2, 3, 6, 6, 6])  # Rommel misses, the Rats hit 3 times
    p = RULES.prompt(s)
    assert p.role == AXIS and p.kind == "hit" and "tied" in p.text
    assert {o.text() for o in RULES.legal_orders(s, AXIS) if o.verb == "hit"} == {
        "hit de_dak", "hit it_ariete"
    }  # fmt: skip
    assert "strongest" in refused(s, AXIS, "hit de_rommel").reason
    fire = {"de_dak": [6, 6, 6], "it_ariete": [1, 1, 1]}
    dice = [d for i in by_token(s, "de_dak", "it_ariete") for d in fire[i]]
    s, _ = order(s, AXIS, "hit de_dak", dice)  # a shield hit: the DAK stays at 3
    assert value(s, "de_dak") == 3 and value(s, "it_ariete") == 3
    assert s.blocks["uk_7armd"].where == "dead" and s.fight is None


def test_retreat_is_asked_after_the_ground_step_and_only_to_safe_hexes():
    """7.7.11 (L1767-1815): with 'standing retreat ask' the defender, then the attacker,
    may retreat after the ground step; never into enemy ZOC, enemy units or another
    battle; a bad retreat is refused and changes nothing; 'stay' fights on."""
    s = gazala()
    s.standing = {ALLIED: {"retreat": "ask"}}
    guard = next(b.id for b in s.blocks.values() if b.side == AXIS and b.where == "pool"
                 and B.block(b.id).role == "gcu" and B.block(b.id).kind != "static")  # fmt: skip
    put(s, guard, BIR_HACKEIM)
    s, _ = order(s, AXIS, "done", [1] * 14)  # Rommel, the Rats, DAK and Ariete all miss
    p = RULES.prompt(s)
    assert p.role == ALLIED and p.kind == "retreat"
    legal = [o for o in RULES.legal_orders(s, ALLIED) if o.verb == "retreat"]
    axis_zoc = supply.zoc(B, s, AXIS)
    assert legal and not {o.to for o in legal} & (axis_zoc | {BIR_HACKEIM})
    assert "may not retreat" in refused(s, ALLIED, f"retreat uk_7armd {BIR_HACKEIM}").reason
    s2, ev = order(s, ALLIED, legal[0].text())
    assert s2.blocks["uk_7armd"].at == legal[0].to and s2.control[GAZALA] == AXIS
    assert s2.fight is None and "retreats" in " ".join(lines_for(ev, PUBLIC))
    s3, _ = order(s, ALLIED, "stay", [1] * 13)  # round 2: Rommel now rolls 2 dice
    assert s3.fight and s3.fight["round"] == 2 and RULES.prompt(s3).kind == "retreat"
    fire = {"de_dak": [6, 6, 6, 1, 1], "it_ariete": [1, 1, 1]}
    dice = [1, 1, 1, 1] + [d for i in by_token(s, "de_dak", "it_ariete") for d in fire[i]]
    s4, _ = order(s3, ALLIED, "standing retreat stay", dice)  # no more asking: round 3
    assert s4.fight is None and s4.blocks["uk_7armd"].where == "dead"
    assert s4.blocks["de_rommel"].where == "dead"  # it spent its last step (RULINGS B25)


def test_standing_orders_are_private_and_change_nothing_else():
    s = gazala()
    s2, ev = order(s, AXIS, "standing hits ask")
    assert s2.standing[AXIS]["hits"] == "ask"
    assert lines_for(ev, ALLIED) == [] and lines_for(ev, PUBLIC) == []
    assert order_line("standing hits ask", ev, ALLIED) is None
    assert order_line("standing hits ask", ev, PUBLIC) is None
    assert RULES.dump_state(s2)["blocks"] == RULES.dump_state(s)["blocks"]
    with pytest.raises(IllegalOrder):
        RULES.parse_order("standing hits sometimes")


# -- exploitation, SRM, strategic warfare, conquest ---------------------------------------


def test_exploitation_moves_supplied_armour_only_and_never_into_the_enemy():
    """7.10 (L1839-1857): armour (and TECH 2 motorized infantry) moves again, never into
    an enemy hex; infantry does not; TECH 1 tankettes do not (L863-864)."""
    s = bare(scenario="BIA6", turn=34, phase="exploitation")
    put(s, "de_dak", MECHILI, 5)
    foot = next(
        b.id for b in s.blocks.values() if b.side == AXIS and B.block(b.id).kind == "infantry"
    )
    put(s, foot, "1815")
    put(s, "uk_7armd", GAZALA, 3)
    s.control[GAZALA] = ALLIED
    assert "may not exploit" in refused(s, AXIS, f"move {foot} 1715").reason
    assert "no new battle" in refused(s, AXIS, f"move de_dak {GAZALA}").reason
    legal = RULES.legal_orders(s, AXIS)
    assert {o.block for o in legal if o.verb == "move"} == {"de_dak"}
    s.barred = ["de_dak"]
    assert "may not exploit" in refused(s, AXIS, "move de_dak 1817").reason


def test_srm_one_unit_per_nation_along_friendly_rail_away_from_the_enemy():
    """7.4 (L1273-1297): one SRM per nation; rail hexes of the side, none next to an
    enemy unit."""
    s = bare(scenario="BIA5", turn=38, phase="srm")
    rail = sorted(B.rail_hexes)
    line = next(x for x in B.pack.map.rails if len(x.hexes) > 6)
    start, far = line.hexes[0], line.hexes[5]
    for h in line.hexes:
        s.control[h] = AXIS
    put(s, "de_164", start, 3)
    put(s, "de_la", line.hexes[1], 4)
    italian = next(b.id for b in s.blocks.values() if B.block(b.id).power == "italy"
                   and B.block(b.id).role == "gcu" and B.block(b.id).kind != "static")  # fmt: skip
    put(s, italian, line.hexes[2])
    assert rail
    s2, ev = order(s, AXIS, f"rail de_164 {far}")
    assert s2.blocks["de_164"].at == far and s2.phase == "srm"
    assert "de_164" not in " ".join(lines_for(ev, ALLIED))
    assert "one SRM" in refused(s2, AXIS, f"rail de_la {far}").reason
    foe = next(b.id for b in s.blocks.values() if b.side == ALLIED and B.block(b.id).role == "gcu")
    put(s, foe, line.hexes[3])
    s.control[line.hexes[3]] = ALLIED
    assert "cannot reach" in refused(s, AXIS, f"rail de_164 {far}").reason


def test_strategic_warfare_rolls_the_scenario_dice_and_sixes_cost_pp():
    """7.1 (L1007-1016): BIA4 rolls 2 dice against the Axis; each 6 is 1 PP lost."""
    s = RULES.setup("BIA4", {}, ScriptedDice([1, 2, 3, 4, 6, 3]))
    assert s.pp_lost[AXIS] == 1


def test_iraq_is_conquered_when_baghdad_falls():
    """5.1 (L757-768): in the Victory Phase a power whose capital the enemy holds is
    conquered: its units leave play and its land passes to the conqueror."""
    s = bare(scenario="BIA2", turn=21, side=ALLIED, phase="exploitation")
    baghdad = B.pack.places["Baghdad"]
    s.control[baghdad] = ALLIED
    iraqi = [b.id for b in s.blocks.values() if B.block(b.id).power == "iraq"]
    put(s, iraqi[0], "4414")
    s.control["4414"] = AXIS
    s, ev = order(s, ALLIED, "done")
    assert "iraq" in s.conquered and s.blocks[iraqi[0]].where == "removed"
    assert s.control["4414"] == ALLIED
    assert "Iraq is conquered" in " ".join(lines_for(ev, PUBLIC))


# -- units that cannot fight, air units on the ground, followers ---------------------------


def test_air_units_alone_in_a_hex_evacuate_when_ground_units_enter():
    """Air Evacuation (L1650-1656): enemy ground units entering a hex held only by air
    units take it without a fight, as they enter; the air unit loses a step and lands at
    the nearest airbase of its side in range, a supplied one outside enemy ZOC (3.4.1,
    L306-307; 7.7.11). The others read its token only."""
    from engine.games.bia import air
    from engine.games.bia.pack import distance

    s = bare()
    put(s, "uk_daf", GAZALA, 5)
    s.control[GAZALA] = ALLIED
    s.control[TOBRUK] = ALLIED
    put(s, "de_dak", MECHILI, 5)
    s, ev = order(s, AXIS, f"move de_dak {GAZALA}")
    daf = s.blocks["uk_daf"]
    assert value(s, "uk_daf") == 3 and s.control[GAZALA] == AXIS
    assert daf.at != GAZALA and distance(GAZALA, daf.at) <= air.standard_range(B, s, daf)
    assert s.control[daf.at] == ALLIED and daf.at not in supply.zoc(B, s, AXIS)
    assert TOBRUK in supply.zoc(B, s, AXIS)  # next to the DAK: no safe airbase
    assert s.battles == []  # no battle is fought
    seen = " ".join(lines_for(ev, PUBLIC))
    assert f"{daf.token} evacuates" in seen and "Desert Air" not in seen
    assert "Desert Air Force" in " ".join(lines_for(ev, ALLIED))


def test_support_units_alone_are_eliminated_without_a_roll():
    """3.11 (L510-515) and 7.7.10 (L1763-1766): artillery attacked with no friendly combat
    unit beside it cannot fire and is eliminated (RULINGS B20)."""
    s = bare()
    put(s, "uk_8art", GAZALA, 5)
    s.control[GAZALA] = ALLIED
    put(s, "it_ariete", MECHILI, 3)
    s, _ = order(s, AXIS, f"move it_ariete {GAZALA}")
    s, ev = order(s, AXIS, "done")  # no dice at all
    assert s.blocks["uk_8art"].where == "dead" and s.control[GAZALA] == AXIS


def test_only_attackers_blitz_and_artillery_follows_its_leader():
    """7.8 (L1820-1827, L1866-1867): tanks that attacked lead; artillery of the same
    battle follows a leader into the hex it entered; a block that did not attack stays."""
    s = bare(scenario="BIA5", turn=38)
    for block, v in (("de_dak", 5), ("it_art", 2)):
        put(s, block, MECHILI, v)
    put(s, "it_ariete", "1715", 3)
    put(s, "uk_8art", GAZALA, 1)
    s.control[GAZALA] = ALLIED
    s, _ = order(s, AXIS, f"move de_dak {GAZALA}")
    s, _ = order(s, AXIS, f"move it_art {GAZALA}")
    s, _ = order(s, AXIS, "done")  # the artillery is alone: eliminated, no roll
    assert s.phase == "blitz" and s.control[GAZALA] == AXIS
    assert "may not blitz" in refused(s, AXIS, "blitz it_ariete 1716").reason
    assert "may not blitz" in refused(s, AXIS, f"blitz it_art {BIR_HACKEIM}").reason
    s, _ = order(s, AXIS, f"blitz de_dak {BIR_HACKEIM}")
    s, _ = order(s, AXIS, f"blitz it_art {BIR_HACKEIM}")
    assert s.blocks["it_art"].at == BIR_HACKEIM and s.control[BIR_HACKEIM] == AXIS


def test_the_phasing_side_chooses_the_order_of_its_battles():
    """7.7 (L1437-1445): battles are fought one at a time in the order the phasing player
    picks; a hex with no battle is refused; the last one is fought without asking."""
    s = bare()
    put(s, "de_dak", MECHILI, 5)
    put(s, "it_ariete", "1817", 3)
    put(s, "uk_7armd", GAZALA, 3)
    put(s, "ff_brigade", "1917", 2)
    s.control.update({GAZALA: ALLIED, "1917": ALLIED})
    s, _ = order(s, AXIS, f"move de_dak {GAZALA}")
    s, _ = order(s, AXIS, "move it_ariete 1917")
    s, _ = order(s, AXIS, "done")
    p = RULES.prompt(s)
    assert p.kind == "combat" and p.verbs == ["fight", "standing"]
    assert {o.text() for o in RULES.legal_orders(s, AXIS) if o.verb == "fight"} == {
        f"fight {GAZALA}", "fight 1917"
    }  # fmt: skip
    assert "no battle" in refused(s, AXIS, f"fight {MECHILI}").reason
    # 1917: the FF Brigade misses with 2 dice, Ariete hits twice with 3: eliminated;
    # then Gazala follows by itself: the Rats miss with 3, the DAK hits 3 times with 5
    s, ev = order(s, AXIS, "fight 1917", [1, 1, 6, 6, 1] + [1, 1, 1, 6, 6, 6, 1, 1])
    ends = [e.data["hex"] for e in ev if e.kind == "battle_end"]
    assert ends == ["1917", GAZALA]
    assert s.blocks["ff_brigade"].where == "dead" and s.blocks["uk_7armd"].where == "dead"


def test_armour_out_of_supply_as_exploitation_opens_is_barred_publicly_by_token():
    """7.10 (L1844-1851): the check opens the phase; the others read only tokens."""
    s = bare(scenario="BIA6", turn=34, phase="final_supply")
    far = next(h.id for h in B.pack.map.hexes if B.is_land(h.id) and B.hex(h.id).country == "egypt"
               and B.hex(h.id).terrain == "clear" and h.id not in B.rail_hexes
               and h.id not in B.road_hexes and h.id > "3000")  # fmt: skip
    put(s, "de_dak", far, 5)
    ctx = Ctx(B, s, ScriptedDice([]))
    from engine.games.bia.rules import next_phase

    next_phase(ctx)
    assert s.phase == "exploitation" and s.barred == ["de_dak"]
    token = s.blocks["de_dak"].token
    theirs = " ".join(lines_for(ctx.events, ALLIED))
    assert token in theirs and "Afrikakorps" not in theirs
