"""BIA air units in battle (issue 11): the air steps of combat (7.7.1-7.7.3), Air Attack
(7.5), Defender Reaction (7.6), retreat and rebasing (7.7.11.2, 7.8.1), the arrival of
Italian and German air units from home (L1110-1111), with the rulebook's Gazala and
Stuka examples as tests with scripted dice. Refusals name the rule and change nothing."""

from __future__ import annotations

from engine.core.dice import ScriptedDice
from engine.core.events import PUBLIC, lines_for, order_line
from engine.games.bia import air, air_combat, combat
from engine.games.bia.board import ALLIED, AXIS
from engine.games.bia.context import Ctx
from engine.games.bia.pack import distance
from tests.bia.test_combat import (
    BIR_HACKEIM,
    GAZALA,
    MECHILI,
    RULES,
    B,
    bare,
    by_token,
    order,
    put,
    refused,
    value,
)

P = B.pack.places
DERNA, BENGASI, BARDIA, TOBRUK = P["Derna"], P["Bengasi"], P["Bardia"], P["Tobruk"]


def gazala_in_the_air():
    """Gazala (L1449-1649) with its air units, in June 1941 (turn 22, the month the
    recon example gives the same scene, L2336; RULINGS B49): the Stuka (TECH 2, 4) and
    the Rex (TECH 1, 3) fly from Derna and Bengasi with the DAK, Ariete and Rommel; the
    Desert Air Force is based in Gazala on its 1 edge, and the AASF (TECH 1, 4) waits at
    Bardia. The Allied side is asked about reactions and retreats."""
    s = bare(turn=22)
    for block, v in (("de_dak", 5), ("it_ariete", 3), ("de_rommel", 3)):
        put(s, block, MECHILI, v)
    put(s, "de_stuka", DERNA, 4)
    put(s, "it_rex", BENGASI, 3)
    put(s, "uk_7armd", GAZALA, 3)
    put(s, "uk_daf", GAZALA, 1)
    put(s, "uk_aasf", BARDIA, 4)
    s.control[GAZALA] = ALLIED
    s.standing = {ALLIED: {"react": "ask", "retreat": "ask"}}
    for block in ("de_dak", "it_ariete", "de_rommel"):
        s, _ = order(s, AXIS, f"move {block} {GAZALA}")
    s, _ = order(s, AXIS, f"attack de_stuka {GAZALA}")
    s, _ = order(s, AXIS, f"attack it_rex {GAZALA}")
    return s


def test_gazala_with_its_air_battle_as_the_rulebook_plays_it():
    """The British AASF reacts (7.6). Air-to-Air: the Desert Air Force scrambles; the
    Stuka rolls 4 dice at 6 and hits once, the Rex (TECH 1) cannot fire, the fighter's
    die misses; the strongest British air unit, the AASF, drops 4 -> 3 (L1449-1475). The
    British withdraw both. AA: the Desert Rats (elite) 3 dice at 4-6 and the minor city 1
    at 6 score 2 hits: Stuka 4 -> 3, then the Rex 3 -> 2, the weaker bomber (L1504-1532).
    Air-to-Ground: Stuka 3 dice at 5-6, Rex 2 at 6, one hit, a shield mark on the Desert
    Rats (L1556-1571). Rommel's one hit is their second mark; the ground step ends as in
    the text: the Rats eliminated, Gazala Axis. At the end of the Blitz both bombers land
    where they came from (7.8.1)."""
    s = gazala_in_the_air()
    s, ev = order(s, AXIS, "done")
    p = RULES.prompt(s)
    assert p.role == ALLIED and p.kind == "reaction" and s.phase == "reaction"
    assert "react uk_aasf 1916" in {o.text() for o in RULES.legal_orders(s, ALLIED)}
    # the last possible reaction ends the phase and the battle begins: air round 1,
    # the Stuka's dice, then the Desert Air Force's
    s, ev = order(s, ALLIED, f"react uk_aasf {GAZALA}", [6, 2, 3, 1] + [4])
    assert s.aloft["uk_aasf"] == BARDIA
    text = " ".join(lines_for(ev, PUBLIC))
    assert "Tropicalized Stuka" in text and "4 dice at 6+: 6 2 3 1" in text
    assert (
        "Desert Air Force" in text
        and "1 dice at 6+: 4" in text
        and "Rex" not in text.split("Air-to-air")[1].split(".")[0]
    )
    assert value(s, "uk_aasf") == 3 and value(s, "uk_daf") == 1
    p = RULES.prompt(s)
    assert p.role == ALLIED and p.kind == "retreat" and "withdraw air units" in p.text
    ways = {o.text() for o in RULES.legal_orders(s, ALLIED) if o.verb == "retreat"}
    assert f"retreat uk_aasf {BARDIA}" in ways and not any("uk_7armd" in w for w in ways)
    s, _ = order(s, ALLIED, f"retreat uk_aasf {BARDIA}")
    assert s.blocks["uk_aasf"].at == BARDIA and "uk_aasf" not in s.aloft
    a2g = {"de_stuka": [6, 1, 2], "it_rex": [3, 4]}
    tail = [d for i in by_token(s, "de_stuka", "it_rex") for d in a2g[i]]
    fire = {"de_dak": [1, 2, 3], "it_ariete": [6, 2]}
    tail += [4, 1, 2] + [5, 6, 4] + [d for i in by_token(s, "de_dak", "it_ariete") for d in fire[i]]
    s, ev = order(s, ALLIED, f"retreat uk_daf {TOBRUK}", [5, 2, 1, 6] + tail)
    text = " ".join(lines_for(ev, PUBLIC))
    assert "AA fire" in text and "3 dice at 4+: 5 2 1" in text and "1 dice at 6+: 6" in text
    assert "Air-to-ground" in text and "marks a shield hit (1 of 3)" in text
    assert "marks a shield hit (2 of 3)" in text  # Rommel's
    assert (value(s, "de_stuka"), value(s, "it_rex")) == (3, 2)
    assert (value(s, "de_rommel"), value(s, "de_dak"), value(s, "it_ariete")) == (2, 3, 2)
    assert s.blocks["uk_7armd"].where == "dead" and s.control[GAZALA] == AXIS
    assert s.phase == "blitz" and s.aloft == {"de_stuka": DERNA, "it_rex": BENGASI}
    s, ev = order(s, AXIS, "done")
    assert s.aloft == {} and (s.blocks["de_stuka"].at, s.blocks["it_rex"].at) == (DERNA, BENGASI)
    assert "rebases" in " ".join(lines_for(ev, PUBLIC))


def gazala_fought(s):
    """The orders and dice of the Gazala example, from the end of the Axis movement to
    the Blitz Phase (as :func:`test_gazala_with_its_air_battle_as_the_rulebook_plays_it`)."""
    s, _ = order(s, AXIS, "done")
    s, _ = order(s, ALLIED, f"react uk_aasf {GAZALA}", [6, 2, 3, 1, 4])
    s, _ = order(s, ALLIED, f"retreat uk_aasf {BARDIA}")
    a2g = {"de_stuka": [6, 1, 2], "it_rex": [3, 4]}
    tail = [d for i in by_token(s, "de_stuka", "it_rex") for d in a2g[i]]
    fire = {"de_dak": [1, 2, 3], "it_ariete": [6, 2]}
    tail += [4, 1, 2] + [5, 6, 4] + [d for i in by_token(s, "de_dak", "it_ariete") for d in fire[i]]
    s, _ = order(s, ALLIED, f"retreat uk_daf {TOBRUK}", [5, 2, 1, 6] + tail)
    assert s.phase == "blitz" and s.control[GAZALA] == AXIS
    return s


def test_the_stuka_strike_on_the_8th_army_artillery():
    """6.4 (L891-903), June 1942: the 8th Army artillery (3) alone in the open is struck by the Stuka
    (4). AA: 3 dice at 5-6 (TECH 2), one hit: Stuka 4 -> 3; the artillery spends no
    ammunition on AA. The Stuka's one hit is only a mark (3 -> 1 needs two); with three
    hits the artillery drops to 0 and stays, since air attack never eliminates a
    0-strength unit. An air strike lasts one round; the Stuka flies home."""
    for a2g, left in (([6, 2, 2], 3), ([6, 5, 6], 0)):
        s = bare(turn=34)
        put(s, "de_dak", P["Tripoli"], 5)  # to exploit later: the turn stops there
        put(s, "uk_8art", MECHILI, 3)  # a battle site: no AA of its own (L2217)
        put(s, "de_stuka", DERNA, 4)
        s.control[MECHILI] = ALLIED
        s, _ = order(s, AXIS, f"attack de_stuka {MECHILI}")
        assert s.battles == [MECHILI]
        s, ev = order(s, AXIS, "done", [5, 1, 2] + a2g)
        text = " ".join(lines_for(ev, PUBLIC))
        assert "3 dice at 5+: 5 1 2" in text and "3 dice at 5+: " + " ".join(map(str, a2g)) in text
        assert value(s, "de_stuka") == 3 and s.blocks["uk_8art"].where == "map"
        assert value(s, "uk_8art") == left and s.control[MECHILI] == ALLIED
        assert s.battles == [] and s.blocks["de_stuka"].at == DERNA and s.aloft == {}


def test_air_attack_refusals_name_the_rule_and_change_nothing():
    """7.5 (L1336-1343), 3.4.1 (L302-304): only a supplied air unit attacks, within its
    range, a hex holding enemy units, at most two of a side in a battle; a TECH 1 fighter
    only escorts a bomber of its side flying there (RULINGS B45)."""
    s = bare(turn=22)
    put(s, "de_stuka", DERNA, 4)
    put(s, "it_rex", BENGASI, 3)
    put(s, "it_macchi", P["Tripoli"], 3)
    put(s, "de_dak", MECHILI, 5)
    put(s, "uk_7armd", GAZALA, 3)
    s.control[GAZALA] = ALLIED
    assert "no enemy unit" in refused(s, AXIS, f"attack de_stuka {MECHILI}").reason
    far = next(h.id for h in B.pack.map.hexes if B.is_land(h.id) and distance(DERNA, h.id) > 10)
    put(s, "uk_8art", far, 3)
    assert "beyond" in refused(s, AXIS, f"attack de_stuka {far}").reason
    s.blocks["it_macchi"].at = P["Derna"]
    s.blocks["de_stuka"].at = P["Bengasi"]
    s.blocks["it_rex"].at = P["Agedabia"]
    err = refused(s, AXIS, f"attack it_macchi {GAZALA}")
    assert err.rule == "BIA 7.5" and "escorts a bomber" in err.reason
    s, _ = order(s, AXIS, f"attack de_stuka {GAZALA}")
    s, _ = order(s, AXIS, f"attack it_macchi {GAZALA}")  # escorting the Stuka
    assert "2 of your air units" in refused(s, AXIS, f"attack it_rex {GAZALA}").reason
    assert "already flown" in refused(s, AXIS, f"attack de_stuka {GAZALA}").reason
    s.blocks["it_rex"].oos = True
    assert "in supply" in refused(s, AXIS, f"attack it_rex {GAZALA}").reason
    foe = s.blocks["uk_7armd"]
    a = refused(s, AXIS, f"attack {foe.id} {GAZALA}").reason.replace(foe.id, "X")
    assert a == refused(s, AXIS, f"attack nobody {GAZALA}").reason.replace("nobody", "X")


def test_defender_reaction_waits_only_when_asked():
    """7.6 (L1431-1436): the non-phasing side flies air units to battles that exist. Its
    standing order 'react pass' (the default) lets the phase pass without asking; with
    'react ask' the phase waits on it; 'standing react pass' while asked ends it. A
    hex that is no battle is refused."""
    s = bare(turn=22)
    put(s, "de_dak", MECHILI, 5)
    put(s, "uk_7armd", GAZALA, 3)
    put(s, "uk_aasf", BARDIA, 4)
    s.control[GAZALA] = ALLIED
    s, _ = order(s, AXIS, f"move de_dak {GAZALA}")
    fight = [1, 1, 1, 6, 6, 6, 1, 1]  # the Rats miss, the DAK's three hits eliminate them
    s1, _ = order(s, AXIS, "done", fight)  # no reaction asked: straight into the battle
    assert s1.blocks["uk_aasf"].at == BARDIA and s1.phase != "reaction"
    s.standing = {ALLIED: {"react": "ask"}}
    s2, _ = order(s, AXIS, "done")
    assert RULES.prompt(s2).role == ALLIED and RULES.legal_orders(s2, AXIS) == []
    err = refused(s2, ALLIED, f"react uk_aasf {BIR_HACKEIM}")
    assert err.rule == "BIA 7.6" and "no battle hex" in err.reason
    s3, ev = order(s2, ALLIED, "standing react pass", fight)
    assert s3.phase != "reaction" and s3.blocks["uk_aasf"].at == BARDIA
    assert lines_for(ev, AXIS) == [] or "react" not in " ".join(lines_for(ev, AXIS))


def test_a_reacting_order_reads_as_a_token_to_the_enemy():
    s = bare(turn=22)
    put(s, "de_dak", MECHILI, 5)
    put(s, "uk_7armd", GAZALA, 3)
    put(s, "uk_aasf", BARDIA, 4)
    s.control[GAZALA] = ALLIED
    s.standing = {ALLIED: {"react": "ask"}}
    s, _ = order(s, AXIS, f"move de_dak {GAZALA}")
    s, _ = order(s, AXIS, "done")
    # DAK's AA and the AASF's bombs miss; the Rats miss; the DAK eliminates them
    dice = [1] * 5 + [1] * 4 + [1, 1, 1] + [6, 6, 6, 1, 1]
    s, ev = order(s, ALLIED, f"react uk_aasf {GAZALA}", dice)
    assert s.blocks["uk_7armd"].where == "dead" and s.blocks["uk_aasf"].at != GAZALA
    token = s.blocks["uk_aasf"].token
    for audience in (AXIS, PUBLIC):  # the battle reveals it later, not the reaction
        said = [x for x in lines_for(ev, audience) if "reacts" in x]
        said.append(order_line(f"react uk_aasf {GAZALA}", ev, audience) or "")
        seen = " ".join(said)
        assert token in seen and "AASF" not in seen and "uk_aasf" not in seen


def test_rebasing_takes_the_nearest_free_airfield_or_loses_the_unit():
    """7.8.1 (L1880-1886): air units that fought rebase at the end of the Blitz, the
    defender first, within their standard range; when the airfield they came from is
    taken the nearest free one serves; with none in range the unit is lost."""
    s = bare(turn=22, phase="blitz")
    put(s, "de_stuka", GAZALA, 3)
    s.control[GAZALA] = AXIS
    s.aloft = {"de_stuka": DERNA}
    put(s, "it_rex", DERNA, 3)  # Derna is taken now
    ctx = Ctx(B, s, ScriptedDice([]))
    air.rebase_all(ctx)
    at = s.blocks["de_stuka"].at
    assert at not in (DERNA, None) and distance(GAZALA, at) <= 10 and s.aloft == {}
    assert B.pack.tables.localities[combat.locality(B, s, at)].airfield
    s = bare(turn=22, phase="blitz")
    far = next(
        h.id for h in B.pack.map.hexes if B.is_land(h.id) and B.hex(h.id).country == "persia"
    )
    put(s, "de_stuka", far, 3)
    s.aloft = {"de_stuka": far}
    ctx = Ctx(B, s, ScriptedDice([]))
    air.rebase_all(ctx)
    assert s.blocks["de_stuka"].where == "dead"
    assert s.blocks["de_stuka"].token in " ".join(lines_for(ctx.events, ALLIED))
    assert "Stuka" not in " ".join(lines_for(ctx.events, ALLIED))


def test_italian_and_german_air_units_fly_from_home_a_turn_after_they_are_built():
    """L1110-1111: an air unit in Berlin or Rome as the Production Phase opens (built in
    an earlier turn) flies to any airfield its side controls, with no AP; one that
    reaches its home box this turn waits. British air units do not fly in (L1191-1199)."""
    from engine.games.bia import production

    s = bare(turn=22, phase="production")
    s.blocks["de_stuka"].where, s.blocks["de_stuka"].at = "box", "berlin"
    s.blocks["uk_aasf"].where, s.blocks["uk_aasf"].at = "box", "london"
    ctx = Ctx(B, s, ScriptedDice([]))
    production.open_phase(ctx)
    assert s.air_due == ["de_stuka"]
    assert "Tropicalized Stuka" in " ".join(lines_for(ctx.events, AXIS))
    fields = {o.to for o in RULES.legal_orders(s, AXIS) if o.verb == "fly"}
    assert DERNA in fields and all(s.control[h] == AXIS for h in fields)
    assert "no free airfield" in refused(s, AXIS, f"fly de_stuka {GAZALA}").reason
    assert "waiting at home" in refused(s, AXIS, f"fly uk_aasf {DERNA}").reason
    s2, ev = order(s, AXIS, f"fly de_stuka {DERNA}")
    assert (s2.blocks["de_stuka"].where, s2.blocks["de_stuka"].at) == ("map", DERNA)
    assert s2.air_due == [] and "Stuka" not in " ".join(lines_for(ev, ALLIED))
    s3, _ = order(s, AXIS, "done")
    assert s3.blocks["de_stuka"].where == "box"  # not flown: it waits for a later turn


def test_bir_hackeim_with_the_stuka_following_the_blitz():
    """Bir Hackeim (L2189-2252): after Gazala the DAK and Ariete blitz and the Stuka
    (TECH 2) follows them; the Rex (TECH 1) may not (L2201-2202). No air reaction in a blitz
    battle. AA: the FF Brigade (2) scores 1 hit, the battle site fires none: Stuka 3 -> 2.
    The Stuka's 2 dice score 1 hit: FF Brigade 2 -> 1. In the basic game the FF Brigade
    fires first (Panzers Attack! is advanced, 14.0) and misses; the tanks' 3 hits
    eliminate it, the extra hits lost. Then the air units rebase (L2250-2252)."""
    s = gazala_in_the_air()
    put(s, "ff_brigade", BIR_HACKEIM, 2)
    s.control[BIR_HACKEIM] = ALLIED
    s = gazala_fought(s)
    assert "may not blitz" in refused(s, AXIS, f"blitz de_stuka {BIR_HACKEIM}").reason  # lead first
    s, _ = order(s, AXIS, f"blitz de_dak {BIR_HACKEIM}")
    s, _ = order(s, AXIS, f"blitz it_ariete {BIR_HACKEIM}")
    assert "may not blitz" in refused(s, AXIS, f"blitz it_rex {BIR_HACKEIM}").reason
    s, _ = order(s, AXIS, f"blitz de_stuka {BIR_HACKEIM}")
    assert s.blocks["de_stuka"].at == BIR_HACKEIM and s.control[BIR_HACKEIM] == ALLIED
    fire = {"de_dak": [4, 5, 6], "it_ariete": [1, 1]}
    tail = [d for i in by_token(s, "de_dak", "it_ariete") for d in fire[i]]
    s, ev = order(s, AXIS, f"fight {BIR_HACKEIM}", [6, 1] + [5, 1] + [1] + tail)
    text = " ".join(lines_for(ev, PUBLIC))
    assert "AA fire" in text and "Bir Hackeim (" not in text.split("AA fire")[1].split(".")[0]
    assert value(s, "de_stuka") == 2 and "Free French Brigade" in text
    assert s.blocks["ff_brigade"].where == "dead" and "find no target" in text
    s, ev = order(s, AXIS, "done")
    assert s.aloft == {} and s.blocks["de_stuka"].at == DERNA


def test_a_bomber_on_the_ground_sits_out_the_first_air_round_but_can_be_hit():
    """7.7.1 (L1536-1539, L1548-1554): the defender's bomber based in the battle hex stays on the
    ground in the first air round: JG 27 (TECH 2, 4 dice at 5-6) fires, the AASF (TECH 2,
    air-to-air at 6) does not, and JG 27's hit reduces it; then the British withdraw it.
    The other steps follow: AA of the Desert Rats and of Gazala at JG 27, its strafing
    (TECH 2 fighters at 6) on the Rats, whose third shield mark leaves them at 0 and
    alone against the DAK: eliminated (RULINGS B41)."""
    s = bare(turn=34)
    put(s, "uk_aasf", GAZALA, 4)
    put(s, "uk_7armd", GAZALA, 3)
    put(s, "de_jg27", DERNA, 4)
    put(s, "de_dak", MECHILI, 5)
    s.control[GAZALA] = ALLIED
    s.standing = {ALLIED: {"retreat": "ask"}}
    s, _ = order(s, AXIS, f"move de_dak {GAZALA}")
    s, _ = order(s, AXIS, f"attack de_jg27 {GAZALA}")
    s, ev = order(s, AXIS, "done", [5, 1, 1, 1])
    text = " ".join(lines_for(ev, PUBLIC))
    assert (
        "JG 27 (" in text
        and "4 dice at 5+: 5 1 1 1" in text
        and "AASF Bombers (" not in text.split("Air-to-air")[1].split(". ")[0]
    )
    assert value(s, "uk_aasf") == 3 and s.aloft["uk_aasf"] == GAZALA
    assert RULES.prompt(s).kind == "retreat"
    s, ev = order(s, ALLIED, f"retreat uk_aasf {TOBRUK}", [1, 1, 1, 1] + [6, 6, 6, 1])
    text = " ".join(lines_for(ev, PUBLIC))
    assert "Air-to-ground" in text and "4 dice at 6+: 6 6 6 1" in text
    assert s.blocks["uk_7armd"].where == "dead" and s.control[GAZALA] == AXIS
    assert s.blocks["uk_aasf"].at == TOBRUK and "uk_aasf" not in s.aloft


def test_aa_fire_is_simultaneous():
    """7.7.2 (L1477-1503): with air units on both sides and no fighter, there is no
    Air-to-Air; in the AA step the DAK fires at the AASF based in Gazala and the Desert
    Rats and the city fire at the Stuka, all dice rolled before any hit is given."""
    s = bare(turn=34)
    put(s, "uk_aasf", GAZALA, 4)
    put(s, "uk_7armd", GAZALA, 3)
    put(s, "de_stuka", DERNA, 4)
    put(s, "de_dak", MECHILI, 5)
    s.control[GAZALA] = ALLIED
    s.standing = {ALLIED: {"retreat": "ask"}, AXIS: {"retreat": "ask"}}
    s, _ = order(s, AXIS, f"move de_dak {GAZALA}")
    s, _ = order(s, AXIS, f"attack de_stuka {GAZALA}")
    # AA: the DAK 5 dice at 4-6 (two hits), then the Rats 3 at 4-6 and Gazala 1 at 6 (one);
    # air-to-ground: the Stuka (3) 3 dice at 5-6, the AASF (2) 2 dice at 5-6, all miss;
    # ground: the Rats 3 dice miss, the DAK 5 dice miss; both sides are asked to retreat
    dice = [4, 4, 1, 1, 1] + [6, 1, 1, 1] + [1, 1, 1] + [1, 1] + [1, 1, 1] + [1] * 5
    s, ev = order(s, AXIS, "done", dice)
    text = " ".join(lines_for(ev, PUBLIC))
    assert "Air-to-air" not in text
    axis_aa = text.index("AA fire at 1916 (Gazala), Axis")
    allied_aa = text.index("AA fire at 1916 (Gazala), Allied")
    assert axis_aa < allied_aa and "takes a hit" not in text[axis_aa:allied_aa]
    assert (value(s, "uk_aasf"), value(s, "de_stuka")) == (2, 3)
    assert RULES.prompt(s).kind == "retreat" and RULES.prompt(s).role == ALLIED


def test_fortress_and_bunker_halve_attacking_air_units():
    """7.7.9 special cases (L1727-1748): attacking air units take the fortress's double
    Malus and the bunker's single one; the defender's do not."""
    s = bare(turn=34)
    put(s, "de_stuka", TOBRUK, 4)
    s.fight = {"hex": TOBRUK, "attacker": AXIS, "round": 1}
    for place, malus in (("fortress", 2), ("bunker", 1), ("minor", 0)):
        s.localities[TOBRUK] = place
        assert air_combat.a2g_rate(B, s, s.blocks["de_stuka"], TOBRUK) == (5, malus)
    s.fight["attacker"] = ALLIED
    s.localities[TOBRUK] = "fortress"
    assert air_combat.a2g_rate(B, s, s.blocks["de_stuka"], TOBRUK) == (5, 0)


def test_a_blitz_into_an_airbase_held_by_air_units_alone_makes_them_evacuate():
    """L1650-1656 in the Blitz: after Gazala the Desert Air Force (1) sits alone at
    Tobruk; the DAK's free MP takes it there, and the fighter, on its last step, is lost
    evacuating. No battle is fought."""
    s = gazala_fought(gazala_in_the_air())
    assert [b.id for b in s.at_hex(TOBRUK)] == ["uk_daf"]
    s, ev = order(s, AXIS, f"blitz de_dak {TOBRUK}")
    assert s.blocks["uk_daf"].where == "dead" and s.battles == [] and s.control[TOBRUK] == AXIS
    assert "evacuates with its last step" in " ".join(lines_for(ev, AXIS))
