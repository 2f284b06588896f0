"""BIA HQ activation, fuel and Out Of Fuel (advanced rules 11.0-11.10, L2044-2290) with the
rulebook's HQ example at Gazala (L2130-2157, June 1941) as a test with scripted dice:
Mussolini's AP fuel the Rex and the Ariete, Rommel moves into the battle hex, activates
and fuels the DAK, Goering fuels the Stuka, and in the Defender Reaction the ME Air
Command fuels the AASF bombers. Refusals name the rule and change nothing; the enemy never
learns which block was fuelled."""

from __future__ import annotations

from engine.core.dice import ScriptedDice
from engine.core.errors import IllegalOrder
from engine.core.events import PUBLIC, lines_for, order_line
from engine.games.bia import air, hq, movement, turn
from engine.games.bia.board import ALLIED, AXIS
from engine.games.bia.context import Ctx
from engine.games.bia.orders import React
from engine.games.bia.pack import distance
from engine.games.bia.state import BlockState
from tests.bia.test_combat import GAZALA, MECHILI, RULES, B, bare, order, put, refused, value

P = B.pack.places
DERNA, HERAKLION, CHANIA, ALEXANDRIA = P["Derna"], P["Heraklion"], P["Chania"], P["Alexandria"]
TRIPOLI = P["Tripoli"]


def advanced(turn: int = 22, side: str = AXIS, phase: str = "movement", scenario: str = "BIA6"):
    s = bare(scenario, turn=turn, side=side, phase=phase)
    s.options["advanced"] = True
    return s


def gazala_june_1941():
    """The scene of the HQ example (L2130-2157) on the pack's map: the Desert Rats (3) and
    a 1-step Desert Air Force in Gazala; the 5th Squadra Aerea (3) at Derna; Ariete (2),
    DAK (3) and Rommel (3) at Mechili next to Gazala; the Rex at Heraklion and the Stuka
    at Chania on Crete; the 20th Motorized Corps south-west of Gazala; ME Air Command and
    the AASF (4) at Alexandria (the pack's Cairo lies 11 hexes from Gazala, beyond a TECH 1
    bomber's 10, so the bombers start from Alexandria, 9 hexes away). The Allies ask to
    react (7.6)."""
    s = advanced()
    for block, at, v in (
        ("uk_7armd", GAZALA, 3), ("uk_daf", GAZALA, 1), ("it_5sa", DERNA, 3),
        ("it_ariete", MECHILI, 2), ("de_dak", MECHILI, 3), ("de_rommel", MECHILI, 3),
        ("it_rex", HERAKLION, 3), ("de_stuka", CHANIA, 3), ("it_20mot", "1717", None),
        ("uk_meac", ALEXANDRIA, 3), ("uk_aasf", ALEXANDRIA, 4),
    ):  # fmt: skip
        put(s, block, at, v)
    s.control[GAZALA] = ALLIED
    s.standing = {ALLIED: {"react": "ask"}}
    return s


def test_the_hq_example_at_gazala():
    """L2130-2157, step by step."""
    s = gazala_june_1941()
    # Rommel fuels German units only (L2023-2025): not the Ariete
    assert refused(s, AXIS, "fuel it_ariete de_rommel").rule == "BIA 11.8"
    # the 5th Squadra Aerea's radius does not cross the sea to Crete (L2133-2136) ...
    err = refused(s, AXIS, "fuel it_rex it_5sa")
    assert err.rule == "BIA 11.9" and "command radius" in err.reason
    assert refused(s, AXIS, f"attack it_rex {GAZALA}").rule == "BIA 11.10"  # out of fuel
    # ... so a Mussolini AP fuels the Rex, and the other fuels the Ariete (L2136-2139)
    s, ev = order(s, AXIS, "fuel it_rex mussolini")
    s, _ = order(s, AXIS, "fuel it_ariete mussolini")
    assert s.leader_ap == {"mussolini": ["fuel_air", "fuel_armour"]}
    assert hq.ap_left(B, s, "mussolini") == 1
    # the 5th Squadra Aerea's three recon attempts (L2336-2409): its 3 AP
    for dice in ([6, 1, 1, 1], [5, 4, 2, 1], [5, 3, 2, 1]):
        s, _ = order(s, AXIS, f"recon it_5sa {GAZALA}", dice)
    assert s.blocks["uk_7armd"].revealed and s.hq_active["it_5sa"] == 3  # AP kept (B73)
    s, _ = order(s, AXIS, f"move it_ariete {GAZALA}")
    # Rommel moves into the battle hex, then activates there (11.9, L2228-2229; L2140-2141)
    s, _ = order(s, AXIS, f"move de_rommel {GAZALA}")
    s, ev = order(s, AXIS, "activate de_rommel")
    assert s.hq_active == {"it_5sa": 3, "de_rommel": 3} and s.blocks["de_rommel"].revealed
    assert "Rommel" in " ".join(lines_for(ev, PUBLIC))  # laid face up for all
    s, ev = order(s, AXIS, "fuel de_dak de_rommel")  # the DAK, in its command radius
    assert s.hq_active["de_rommel"] == 2 and s.fuelled["de_dak"] == "de_rommel"
    s, _ = order(s, AXIS, f"move de_dak {GAZALA}")
    # Goering fuels the Stuka, sent to Gazala (L2144-2145); the Rex flies too
    assert refused(s, AXIS, "fuel de_stuka it_5sa").rule == "BIA 11.8"  # an Italian HQ
    s, _ = order(s, AXIS, "fuel de_stuka goering")
    assert hq.ap_left(B, s, "goering") == 0
    s, _ = order(s, AXIS, f"attack de_stuka {GAZALA}")
    s, _ = order(s, AXIS, f"attack it_rex {GAZALA}")
    # the 20th Motorized moves with no fuel: infantry class, no white border (B74)
    assert refused(s, AXIS, "fuel it_20mot mussolini").rule == "BIA 11.0"
    assert not movement.out_of_fuel(B, s, s.blocks["it_20mot"])
    s, _ = order(s, AXIS, "move it_20mot 1817")
    # Defender Reaction (L2151-2156): Churchill cannot act in it; ME Air Command can
    s, _ = order(s, AXIS, "done")
    assert s.phase == "reaction" and RULES.prompt(s).role == ALLIED
    assert {"activate", "fuel"} <= set(RULES.prompt(s).verbs)
    assert refused(s, ALLIED, "fuel uk_aasf churchill").rule == "BIA 11.3"
    assert refused(s, ALLIED, f"react uk_aasf {GAZALA}").rule == "BIA 11.10"
    s, ev = order(s, ALLIED, "activate uk_meac")
    assert s.hq_active["uk_meac"] == 3 and s.blocks["uk_meac"].revealed
    s, ev = order(s, ALLIED, "fuel uk_aasf uk_meac")  # no radius: anywhere in AFRIKA
    assert s.fuelled["uk_aasf"] == "uk_meac" and s.hq_active["uk_meac"] == 2
    ctx = Ctx(B, s.clone(), ScriptedDice([]))
    air.apply_react(ctx, React(block="uk_aasf", to=GAZALA))  # the bombers fly to Gazala
    assert ctx.state.blocks["uk_aasf"].at == GAZALA


def test_fuel_stays_hidden_from_the_enemy():
    """RULINGS B75: the enemy and the public read that Mussolini (or a face-up HQ) spent an
    AP on fuel, never which block; the owner reads the block. The view tells the owner
    only."""
    s = gazala_june_1941()
    s2, ev = order(s, AXIS, "fuel it_ariete mussolini")
    s3, ev3 = order(s2, AXIS, "fuel de_dak de_rommel")
    for audience in (ALLIED, PUBLIC):
        for evs, text in ((ev, "fuel it_ariete mussolini"), (ev3, "fuel de_dak de_rommel")):
            seen = " ".join(lines_for(evs, audience)) + (order_line(text, evs, audience) or "")
            for block in ("it_ariete", "de_dak"):
                assert block not in seen and B.block(block).name not in seen
                assert s3.blocks[block].token not in seen
        assert "spends 1 AP on fuel" in " ".join(lines_for(ev, audience))
        assert not any(b.fuelled for b in RULES.fog_view(s3, audience).blocks)
    assert "Ariete" in " ".join(lines_for(ev, AXIS))
    mine = {b.id for b in RULES.fog_view(s3, AXIS).blocks if b.fuelled}
    assert mine == {"it_ariete", "de_dak"}
    token = s3.blocks["de_rommel"].token
    rommel = next(b for b in RULES.fog_view(s3, ALLIED).blocks if b.token == token)
    assert rommel.name == "Rommel" and rommel.active_ap == 2  # face up, with its AP
    # a fuel order naming an enemy block reads the same as one naming nobody (1.3)
    one = refused(s, AXIS, "fuel uk_7armd mussolini").reason.replace("uk_7armd", "X")
    two = refused(s, AXIS, "fuel nobody mussolini").reason.replace("nobody", "X")
    assert one == two


def test_out_of_fuel_armour_moves_at_half_mp_and_attacks_no_one():
    """11.10 (L2254-2262): the DAK (German tanks TECH 2, 4 MP) has 2 MP unfuelled and may
    not enter an enemy hex; out of supply as well, 1 MP (quartered), and then 11.10 lets
    the Desperate Attack of 10.2 be tried, so the fuel bar does not refuse it. Fuelled, 4
    MP. The basic game knows no fuel."""
    s = advanced()
    put(s, "de_dak", MECHILI, 3)
    put(s, "uk_7armd", GAZALA, 3)
    s.control[GAZALA] = ALLIED
    dak = s.blocks["de_dak"]
    assert movement.allowance(B, s, dak) == 2
    err = refused(s, AXIS, f"move de_dak {GAZALA}")
    assert err.rule == "BIA 11.10" and "out of fuel" in err.reason
    dak.oos = True
    assert movement.allowance(B, s, dak) == 1
    try:  # whatever 10.2 decides, 11.10 does not bar it (L2258-2262)
        RULES.apply(s, AXIS, RULES.parse_order(f"move de_dak {GAZALA}"), ScriptedDice([]))
    except IllegalOrder as err:
        assert err.rule != "BIA 11.10", err
    dak.oos = False
    s2, _ = order(s, AXIS, "fuel de_dak hitler")
    assert movement.allowance(B, s2, s2.blocks["de_dak"]) == 4
    s3, _ = order(s2, AXIS, f"move de_dak {GAZALA}")
    assert GAZALA in s3.battles
    basic = bare(turn=22)
    put(basic, "de_dak", MECHILI, 3)
    assert movement.allowance(B, basic, basic.blocks["de_dak"]) == 4
    assert "fuel" not in RULES.prompt(basic).verbs
    assert refused(basic, AXIS, "fuel de_dak hitler").rule == "BIA 7.0"  # not a verb now


def test_the_prompt_says_what_needs_fuel_to_its_owner_only():
    s = gazala_june_1941()
    p = RULES.prompt(s)
    assert "out of fuel now:" in p.text_for(AXIS) and "Ariete" in p.text_for(AXIS)
    assert "Ariete" not in p.text_for(ALLIED) and "out of fuel" in p.text_for(PUBLIC)
    verbs = {o.verb for o in RULES.legal_orders(s, AXIS)}
    assert {"activate", "fuel"} <= verbs


def test_leaders_fuel_one_unit_of_each_kind_and_command_by_nation():
    """L1940-1945, L1987-1992, 11.8 (L2204-2221): Mussolini fuels one armoured unit a turn,
    a supplied one; Hitler, the FHQ, fuels the Ariete; Goering German air units only;
    Rommel German units only; 'fuel' refuses what needs none."""
    s = advanced(scenario="BIA3")
    for block, at in (("it_ariete", MECHILI), ("it_maletti", "1717"), ("de_dak", "1717"),
                      ("de_rommel", MECHILI), ("it_rex", DERNA)):  # fmt: skip
        put(s, block, at)
    s2, _ = order(s, AXIS, "fuel it_ariete mussolini")
    err = refused(s2, AXIS, "fuel it_maletti mussolini")
    assert err.rule == "BIA 11.2" and "one action of each kind" in err.reason
    s3, _ = order(s2, AXIS, "fuel it_maletti hitler")  # the FHQ commands the allies too
    assert s3.fuelled["it_maletti"] == "hitler"
    assert refused(s, AXIS, "fuel de_dak mussolini").rule == "BIA 11.8"
    assert refused(s, AXIS, "fuel it_rex goering").rule == "BIA 11.8"
    assert refused(s, AXIS, "fuel de_dak goering").rule == "BIA 11.8"
    assert refused(s, AXIS, "fuel it_ariete de_rommel").rule == "BIA 11.8"
    assert refused(s, AXIS, "fuel de_rommel hitler").rule == "BIA 11.0"  # an HQ needs none
    s.blocks["it_ariete"].oos = True
    assert "supplied" in refused(s, AXIS, "fuel it_ariete mussolini").reason
    assert refused(s, AXIS, "fuel it_rex nobody").reason == "You have no HQ called 'nobody' on the map."


def test_activation_windows_minimum_command_and_the_radius():
    """11.3 (RULINGS B73): ME Air Command is activated in the SRM and Reaction Phases, not
    in the Movement Phase; an armoured HQ not in Reaction. 11.10 Minimum Command: out of
    supply a 4-step HQ has 2 AP, a 3-step one 1. 11.9: 5 hexes, not through enemy ZOC."""
    s = advanced(side=ALLIED)
    put(s, "uk_meac", ALEXANDRIA, 3)
    put(s, "uk_monty", ALEXANDRIA, 4)
    err = refused(s, ALLIED, "activate uk_meac")
    assert err.rule == "BIA 11.3" and "SRM and Defender Reaction" in err.reason
    s.blocks["uk_monty"].oos = True
    s2, ev = order(s, ALLIED, "activate uk_monty")
    assert s2.hq_active == {"uk_monty": 2} and "half its AP" in " ".join(lines_for(ev, PUBLIC))
    assert refused(s2, ALLIED, "move uk_monty 2719").rule == "BIA 7.5.1"  # moved, then active
    s.blocks["uk_monty"].steps = 3
    s3, _ = order(s, ALLIED, "activate uk_monty")
    assert s3.hq_active == {"uk_monty": 1}
    s4 = advanced(side=ALLIED, phase="srm")
    put(s4, "uk_meac", ALEXANDRIA, 3)
    s4, _ = order(s4, ALLIED, "activate uk_meac")
    assert s4.hq_active == {"uk_meac": 3}
    # the radius: the DAK six hexes from Rommel at Tripoli is out of reach; five is in,
    # until the Desert Rats' ZOC cuts the way
    s = advanced()
    put(s, "de_rommel", TRIPOLI, 3)
    put(s, "de_dak", "0320", 3)
    assert distance(TRIPOLI, "0320") == 6 and distance(TRIPOLI, "0620") == 5
    assert refused(s, AXIS, "fuel de_dak de_rommel").rule == "BIA 11.9"
    put(s, "de_dak", "0620", 3)
    s5, _ = order(s, AXIS, "fuel de_dak de_rommel")
    assert s5.fuelled == {"de_dak": "de_rommel"}
    put(s, "uk_7armd", "0618", 3)
    assert refused(s, AXIS, "fuel de_dak de_rommel").rule == "BIA 11.9"


def test_a_3_ap_air_hq_fuels_three_units_and_makes_three_recon_attempts():
    """12.0 Procedure 1 (L2311-2314) and the recon example (L2336-2339; RULINGS B73): the
    5th Squadra Aerea at 3 steps fuels three air units in its radius with its 3 AP and makes
    its three recon attempts besides, a count of their own; a fourth of either is refused,
    each by its own rule."""
    s = gazala_june_1941()
    # the SM.79s are not in BIA6's order of battle: brought in for the test, token unused
    s.blocks["it_sm79"] = BlockState("it_sm79", AXIS, token="IT-90")
    put(s, "it_rex", P["Barce"], 3)
    put(s, "it_sm79", P["Bengasi"], 3)
    put(s, "it_macchi", DERNA, 3)
    for unit in ("it_rex", "it_sm79", "it_macchi"):
        s, _ = order(s, AXIS, f"fuel {unit} it_5sa")
    assert s.hq_active == {"it_5sa": 0}
    assert set(s.fuelled) == {"it_rex", "it_sm79", "it_macchi"}
    spent = s.clone()
    del spent.fuelled["it_macchi"]  # a unit still to fuel: the HQ has no AP for it
    err = refused(spent, AXIS, "fuel it_macchi it_5sa")
    assert err.rule == "BIA 11.2" and "no AP left" in err.reason
    for dice in ([6, 1, 1, 1], [5, 4, 2, 1], [5, 3, 2, 1]):  # the example's three attempts
        s, _ = order(s, AXIS, f"recon it_5sa {GAZALA}", dice)
    assert s.hq_active == {"it_5sa": 0} and s.reconned == [GAZALA]
    assert s.hq_done["it_5sa"].count("recon") == 3
    err = refused(s, AXIS, f"recon it_5sa {GAZALA}")
    assert err.rule == "BIA 12.0" and "all its recon attempts" in err.reason
    s2 = gazala_june_1941()  # the other way round: attempts first, the AP still whole
    put(s2, "it_macchi", DERNA, 3)
    s2, _ = order(s2, AXIS, f"recon it_5sa {GAZALA}", [6, 1, 1, 1])
    assert s2.hq_active == {"it_5sa": 3}
    s2, _ = order(s2, AXIS, "fuel it_macchi it_5sa")
    assert s2.hq_active == {"it_5sa": 2}


def test_deactivation_after_the_blitz_and_again_after_exploiting():
    """11.4 (L2158-2178): at the end of the Blitz Phase every activated HQ loses a step
    and stands up hidden, and the fuel ends; Rommel may be activated again in the
    Exploitation Phase, fuel the DAK to exploit at its full MP, and is deactivated again
    at its end. A 1-step HQ activated is used up."""
    s = advanced()
    put(s, "de_rommel", MECHILI, 3)
    put(s, "de_dak", MECHILI, 3)
    put(s, "it_ariete", TRIPOLI, 2)
    s, _ = order(s, AXIS, "fuel de_dak de_rommel")
    s.phase = "blitz"
    s, ev = order(s, AXIS, "done")
    assert s.phase == "exploitation" and s.hq_active == {} and s.fuelled == {}
    assert value(s, "de_rommel") == 2 and not s.blocks["de_rommel"].revealed
    assert "Rommel" not in " ".join(lines_for(ev, ALLIED))
    assert movement.allowance(B, s, s.blocks["de_dak"]) == 2  # unfuelled to exploit
    assert "fuel de_dak de_rommel" in {o.text() for o in RULES.legal_orders(s, AXIS)}
    assert refused(s, AXIS, "fuel it_ariete mussolini").rule == "BIA 11.3"
    s, _ = order(s, AXIS, "fuel de_dak de_rommel")
    assert s.hq_active == {"de_rommel": 1} and movement.allowance(B, s, s.blocks["de_dak"]) == 4
    ctx = Ctx(B, s.clone(), ScriptedDice([]))
    turn.next_phase(ctx)  # the end of the Exploitation Phase
    s = ctx.state
    assert s.player == ALLIED and s.hq_active == {} and s.fuelled == {}
    assert value(s, "de_rommel") == 1
    s = advanced()
    put(s, "de_rommel", MECHILI, 1)
    put(s, "de_dak", TRIPOLI, 3)  # to exploit: the turn waits there
    s, _ = order(s, AXIS, "activate de_rommel")
    s.phase = "blitz"
    s, ev = order(s, AXIS, "done")
    assert s.blocks["de_rommel"].where == "dead" and "used up" in " ".join(lines_for(ev, PUBLIC))
