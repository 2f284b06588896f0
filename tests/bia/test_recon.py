"""BIA air recon (advanced rules 12.0, L2280-2417) with the rulebook's example at Gazala
(L2336-2409) as a test with scripted dice, and the visibility it gives: the enemy units of
the hex face up to both sides and the public until the Final Supply Check, the
interdiction dice the defender's alone, the HQ face up while it is active."""

from __future__ import annotations

from engine.core.dice import ScriptedDice
from engine.core.events import PUBLIC, lines_for
from engine.games.bia import air_combat, recon
from engine.games.bia.board import ALLIED, AXIS
from engine.games.bia.context import Ctx
from engine.games.bia.rules import final_supply_phase
from tests.bia.test_combat import GAZALA, RULES, B, bare, order, put, refused, value

DERNA = B.pack.places["Derna"]
RATS = "7th Armoured"


def gazala_seen_from_the_air():
    """June 1941 (turn 22), advanced rules: the 5th Squadra Aerea (4 steps, at 3) stands
    at Derna, five hexes' TECH 1 range from Gazala, held by the Desert Rats (3) and the
    Desert Air Force (a fighter)."""
    s = bare(turn=22)
    s.options["advanced"] = True
    put(s, "it_5sa", DERNA, 3)
    put(s, "uk_7armd", GAZALA, 3)
    put(s, "uk_daf", GAZALA, 1)
    s.control[GAZALA] = ALLIED
    return s


def names_seen(s, audience) -> str:
    return RULES.view(s, audience).model_dump_json()


def test_the_recon_example_at_gazala():
    """L2336-2409: three attempts for the 3 AP of the 5th Squadra Aerea. 1: the city rolls
    a 6, interdicted. 2: the city 5, the Desert Rats (elite, 4-6) 4-2-1, interdicted.
    3: the Rats 3-2-1 and the city 5, no hit; Gazala is a clear hex in Africa, so the
    recon succeeds with no die (L2331-2334, L2406-2409): both British units face up. A
    fourth attempt is refused. The fighter fires no AA (L2402-2403)."""
    s = gazala_seen_from_the_air()
    assert RATS not in names_seen(s, AXIS)
    s, ev = order(s, AXIS, f"recon it_5sa {GAZALA}", [6, 1, 1, 1])
    assert s.hq_active == {"it_5sa": 3} and s.blocks["it_5sa"].revealed  # AP kept (B73)
    assert "5th Squadra Aerea" in " ".join(lines_for(ev, PUBLIC))
    axis = " ".join(lines_for(ev, AXIS))
    assert "interdicted" in axis and "Desert Rats" not in axis and RATS not in axis
    assert "6 at 6+" in " ".join(lines_for(ev, ALLIED))  # the dice are the defender's
    s, ev = order(s, AXIS, f"recon it_5sa {GAZALA}", [5, 4, 2, 1])
    assert "interdicted: the attempt fails" in " ".join(lines_for(ev, AXIS))
    assert RATS not in names_seen(s, AXIS) and s.reconned == []
    s, ev = order(s, AXIS, f"recon it_5sa {GAZALA}", [5, 3, 2, 1])
    text = " ".join(lines_for(ev, PUBLIC))
    assert "succeeds" in text and "no recon die needed" in text
    assert s.blocks["uk_7armd"].revealed and s.blocks["uk_daf"].revealed
    assert s.reconned == [GAZALA]
    for audience in (AXIS, PUBLIC):
        assert RATS in names_seen(s, audience) and "Desert Air Force" in names_seen(s, audience)
    err = refused(s, AXIS, f"recon it_5sa {GAZALA}")
    assert err.rule == "BIA 12.0" and "all its recon attempts" in err.reason
    ctx = Ctx(B, s, ScriptedDice([]))
    final_supply_phase(ctx)  # face down again at the Final Supply Check (L2416-2417)
    assert RATS not in names_seen(s, AXIS) and not s.blocks["uk_7armd"].revealed


def test_the_hq_stands_up_again_and_loses_a_step_after_the_blitz():
    """AR 11.4 (L2271-2278): the activated HQ loses a step at the end of the Blitz Phase
    and is hidden again; one activated on its last step is used up."""
    s = gazala_seen_from_the_air()
    put(s, "de_dak", B.pack.places["Tripoli"], 5)  # to exploit: the turn waits there
    s, _ = order(s, AXIS, f"recon it_5sa {GAZALA}", [6, 1, 1, 1])
    s.phase = "blitz"
    s, ev = order(s, AXIS, "done")
    hq = s.blocks["it_5sa"]
    assert value(s, "it_5sa") == 2 and not hq.revealed and s.hq_active == {}
    assert "5th Squadra" not in " ".join(lines_for(ev, ALLIED))
    s = gazala_seen_from_the_air()
    put(s, "it_5sa", DERNA, 1)
    put(s, "de_dak", B.pack.places["Tripoli"], 5)
    s, _ = order(s, AXIS, f"recon it_5sa {GAZALA}", [6, 1, 1, 1])
    s.phase = "blitz"
    s, _ = order(s, AXIS, "done")
    assert s.blocks["it_5sa"].where == "dead"


def test_the_recon_die_and_its_modifiers():
    """L2317-2330: success on 1-4 after the modifiers; a forest hex adds 2, so TECH 1
    fighters need 1-2 there; TECH 2 fighters take 2 off; a fortress adds 4."""
    s = gazala_seen_from_the_air()
    hq = s.blocks["it_5sa"]
    forest = next(
        h.id for h in B.pack.map.hexes
        if B.is_land(h.id) and B.hex(h.id).terrain == "forest" and not B.hex(h.id).locality
    )  # fmt: skip
    assert recon.die_modifier(B, s, hq, forest) == 2
    assert recon.die_modifier(B, s, hq, GAZALA) is None  # desert: no die at all
    tobruk = B.pack.places["Tobruk"]
    s.localities[tobruk] = "fortress"
    assert recon.die_modifier(B, s, hq, tobruk) == 4
    s.turn = 38  # Italian fighters at TECH 2: -2 (tables: turn 27)
    assert recon.die_modifier(B, s, hq, forest) == 0
    s.turn = 22
    near = forest
    put(s, "it_5sa", next(n for n in B.adjacent(forest) if B.is_land(n)), 3)
    foe = next(b for b in s.blocks.values() if b.side == ALLIED and b.where == "pool"
               and B.block(b.id).kind == "infantry")  # fmt: skip
    put(s, foe.id, near, 1)
    s.control[near] = ALLIED
    aa = [1] * value(s, foe.id)
    s1, ev = order(s, AXIS, f"recon it_5sa {near}", aa + [3])
    assert "fails" in " ".join(lines_for(ev, PUBLIC)) and not s1.blocks[foe.id].revealed
    s2, ev = order(s, AXIS, f"recon it_5sa {near}", aa + [2])
    assert s2.blocks[foe.id].revealed


def test_recon_is_an_advanced_rule_and_refusals_change_nothing():
    s = gazala_seen_from_the_air()
    s.options = {}
    assert "not an order in this step" in refused(s, AXIS, f"recon it_5sa {GAZALA}").reason
    assert not [o for o in RULES.legal_orders(s, AXIS) if o.verb == "recon"]
    assert "recon" not in RULES.prompt(s).verbs
    s = gazala_seen_from_the_air()
    assert f"recon it_5sa {GAZALA}" in {o.text() for o in RULES.legal_orders(s, AXIS)}
    assert "recon" in RULES.prompt(s).verbs and "'recon HQ HEX'" in RULES.prompt(s).text
    put(s, "de_dak", DERNA, 5)
    assert "no air HQ" in refused(s, AXIS, f"recon de_dak {GAZALA}").reason
    far = next(h.id for h in B.pack.map.hexes if B.is_land(h.id) and B.hex(h.id).country == "iraq")
    put(s, "uk_8art", far, 3)
    assert "beyond the recon range" in refused(s, AXIS, f"recon it_5sa {far}").reason
    assert "no enemy unit" in refused(s, AXIS, "recon it_5sa 1816").reason
    foe = s.blocks["uk_7armd"]
    a = refused(s, AXIS, f"recon {foe.id} {GAZALA}").reason.replace(foe.id, "X")
    assert a == refused(s, AXIS, f"recon nobody {GAZALA}").reason.replace("nobody", "X")


def test_without_recon_the_attackers_air_and_artillery_take_a_malus_in_round_one():
    """12.0 (L2290-2297), advanced rules: attacking air units and artillery fire with 1
    Malus in the first round where no recon succeeded; from round 2, or after a recon,
    none. The basic game has no such Malus (the Gazala example fires at full strength)."""
    s = gazala_seen_from_the_air()
    put(s, "de_stuka", GAZALA, 4)
    s.fight = {"hex": GAZALA, "attacker": AXIS, "round": 1}
    assert air_combat.a2g_rate(B, s, s.blocks["de_stuka"], GAZALA) == (5, 1)
    s.reconned = [GAZALA]
    assert air_combat.a2g_rate(B, s, s.blocks["de_stuka"], GAZALA) == (5, 0)
    s.reconned, s.fight["round"] = [], 2
    assert air_combat.a2g_rate(B, s, s.blocks["de_stuka"], GAZALA) == (5, 0)
    s.options, s.fight["round"] = {}, 1
    assert air_combat.a2g_rate(B, s, s.blocks["de_stuka"], GAZALA) == (5, 0)
