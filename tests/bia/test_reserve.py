"""BIA Reserve Mode by the armoured HQs (advanced rules 16.0, L2418-2448: Motorization in
the Movement Phase, Reaction in the Exploitation Phase) and the advanced Defender Reaction
(Appendix, L2450-2474): armour in Reserve Mode and fuelled air units moving to a battle or
another hex in range. Scripted dice; refusals name the rule and change nothing; the enemy
reads the HQ, the token and the black barrel, never the block."""

from __future__ import annotations

from engine.core.dice import ScriptedDice
from engine.core.events import PUBLIC, lines_for, order_line
from engine.games.bia import air, reserve, turn
from engine.games.bia.board import ALLIED, AXIS
from engine.games.bia.context import Ctx
from engine.games.bia.pack import distance
from tests.bia.test_combat import GAZALA, MECHILI, RULES, B, bare, order, put, refused

P = B.pack.places
DERNA, TRIPOLI, TOBRUK, ALEXANDRIA = P["Derna"], P["Tripoli"], P["Tobruk"], P["Alexandria"]
DAK = B.block("de_dak").name


def advanced(side: str = AXIS, phase: str = "movement", turn: int = 33):
    s = bare(turn=turn, side=side, phase=phase)
    s.options["advanced"] = True
    return s


def seen_by(ev, text: str, audience) -> str:
    return " ".join(lines_for(ev, audience)) + (order_line(text, ev, audience) or "")


def test_rommel_puts_units_in_reserve_within_his_radius_for_his_ap():
    """16.0 Motorization (L2425-2432, L2440-2442; RULINGS B91): Rommel, activated by the
    order, spends 1 AP a unit on TECH 2 German units within 5 hexes; each stays put in the
    Movement Phase. The Allies read Rommel (face up) and the token, never the block."""
    s = advanced()
    put(s, "de_rommel", MECHILI, 3)
    put(s, "de_dak", DERNA, 5)
    put(s, "de_la", TRIPOLI)
    put(s, "it_ariete", MECHILI)
    assert "reserve" in RULES.prompt(s).verbs
    legal = {o.text() for o in RULES.legal_orders(s, AXIS)}
    assert {"reserve de_dak de_rommel", "reserve de_dak", "reserve de_la"} <= legal
    assert "reserve de_la de_rommel" not in legal  # Tripoli is beyond the radius
    s2, ev = order(s, AXIS, "reserve de_dak de_rommel")
    assert s2.reserve == ["de_dak"] and s2.hq_active == {"de_rommel": 2}
    assert s2.blocks["de_rommel"].revealed and s2.leader_ap == {}  # no Supreme Leader AP
    token = s2.blocks["de_dak"].token
    for audience in (ALLIED, PUBLIC):
        seen = seen_by(ev, "reserve de_dak de_rommel", audience)
        assert "spends 1 AP" in seen and token in seen and "Reserve Mode" in seen
        assert s2.blocks["de_rommel"].token in seen and "Rommel" in seen  # face up
        assert "de_dak" not in seen and DAK not in seen
        dak = next(b for b in RULES.fog_view(s2, audience).blocks if b.token == token)
        assert dak.reserve and dak.name is None  # the black barrel, on a blank block
    err = refused(s2, AXIS, f"move de_dak {MECHILI}")
    assert err.rule == "BIA 16.0" and "Exploitation Phase" in err.reason
    err = refused(s2, AXIS, "reserve de_la de_rommel")
    assert err.rule == "BIA 11.9" and "command radius" in err.reason
    assert "TECH 2" in refused(s2, AXIS, "reserve it_ariete de_rommel").reason  # TECH 1 in 1942
    s.turn = 38  # Italian tanks at TECH 2: now only the nationality stands in the way
    assert refused(s, AXIS, "reserve it_ariete de_rommel").rule == "BIA 11.8"
    err = refused(s2, AXIS, "reserve de_rommel de_rommel")  # active: its move is made (B73)
    assert err.rule == "BIA 16.0" and "has moved" in err.reason
    assert refused(s2, AXIS, "reserve de_dak de_rommel").reason.endswith("Reserve Mode already.")
    # the Supreme Leader's form stands beside it, by name or the first who may (B62)
    s3, _ = order(s2, AXIS, "reserve de_la hitler")
    assert s3.reserve == ["de_dak", "de_la"] and s3.leader_ap == {"hitler": ["reserve"]}
    assert refused(s, AXIS, "reserve de_la goering").rule == "BIA 11.8"


def test_an_hq_with_no_ap_left_or_no_armour_puts_nothing_in_reserve():
    """11.2 (one AP a unit), 16.0 (only armoured HQs and Supreme Leaders, L2423-2427),
    11.3 (Rommel activates in the Movement and Exploitation Phases), and the basic game."""
    s = advanced()
    put(s, "de_rommel", MECHILI, 1)
    put(s, "de_dak", DERNA, 5)
    put(s, "de_la", MECHILI)
    put(s, "it_5sa", DERNA, 3)
    s2, _ = order(s, AXIS, "reserve de_dak de_rommel")
    assert s2.hq_active == {"de_rommel": 0}
    err = refused(s2, AXIS, "reserve de_la de_rommel")
    assert err.rule == "BIA 11.2" and "no AP left" in err.reason
    err = refused(s, AXIS, "reserve de_dak it_5sa")
    assert err.rule == "BIA 16.0" and "puts no unit in Reserve Mode" in err.reason
    assert "You have no HQ called 'nobody'" in refused(s, AXIS, "reserve de_dak nobody").reason
    s.phase = "srm"
    assert "not an order in this step" in refused(s, AXIS, "reserve de_dak de_rommel").reason
    basic = bare()
    put(basic, "de_rommel", MECHILI, 3)
    put(basic, "de_dak", DERNA, 5)
    assert "not an order in this step" in refused(basic, AXIS, "reserve de_dak de_rommel").reason


def test_rommel_puts_himself_in_reserve_as_he_activates_in_place():
    """L2066-2067 (the armoured HQs "can put themselves in reserve"; RULINGS B91): Rommel's
    first action, activating him where he stands; he is then held like any reserve, and
    still fuels with the AP left."""
    s = advanced()
    put(s, "de_rommel", MECHILI, 3)
    put(s, "de_dak", DERNA, 5)
    s, _ = order(s, AXIS, "reserve de_rommel de_rommel")
    assert s.reserve == ["de_rommel"] and s.hq_active == {"de_rommel": 2}
    assert "de_rommel" not in s.moved
    assert refused(s, AXIS, f"move de_rommel {DERNA}").rule == "BIA 16.0"
    s, _ = order(s, AXIS, "fuel de_dak de_rommel")
    assert s.hq_active == {"de_rommel": 1}


def reaction_set_up():
    """The Axis Exploitation Phase of turn 33: Rommel (3) at Mechili, the DAK (5) and the
    Leichte Afrika at Derna, the Ariete holding Gazala; the Desert Rats at Tobruk."""
    s = advanced(phase="exploitation")
    put(s, "de_rommel", MECHILI, 3)
    put(s, "de_dak", DERNA, 5)
    put(s, "de_la", DERNA)
    put(s, "it_ariete", GAZALA, 3)
    put(s, "uk_7armd", TOBRUK, 3)
    assert distance(DERNA, GAZALA) == 1 and distance(TOBRUK, GAZALA) == 1
    return s


def test_rommel_holds_the_dak_back_for_the_enemys_reaction_phase():
    """16.0 Reaction (L2433-2438, L2443-2446; RULINGS B92): in the Exploitation Phase only
    an armoured HQ puts a TECH 2 armoured-class unit in Reserve Mode; it does not exploit
    and takes no fuel. The barrel stays through the phase's end and Rommel's deactivation."""
    s = reaction_set_up()
    assert "reserve" in RULES.prompt(s).verbs
    err = refused(s, AXIS, "reserve de_dak")
    assert err.rule == "BIA 16.0" and "only an armoured HQ" in err.reason
    err = refused(s, AXIS, "reserve de_la de_rommel")  # motorized infantry: infantry class
    assert err.rule == "BIA 16.0" and "armoured-class" in err.reason
    assert "reserve de_dak de_rommel" in {o.text() for o in RULES.legal_orders(s, AXIS)}
    s, ev = order(s, AXIS, "reserve de_dak de_rommel")
    assert s.reaction_reserve == ["de_dak"] and s.reserve == [] and s.hq_active == {"de_rommel": 2}
    assert "enemy's next Defender Reaction" in seen_by(ev, "reserve de_dak de_rommel", ALLIED)
    err = refused(s, AXIS, f"move de_dak {MECHILI}")
    assert err.rule == "BIA 16.0" and "for a reaction" in err.reason
    assert refused(s, AXIS, "fuel de_dak de_rommel").rule == "BIA 16.0"
    assert not [o for o in RULES.legal_orders(s, AXIS) if getattr(o, "block", "") == "de_dak"]
    ctx = Ctx(B, s, ScriptedDice([]))
    turn.next_phase(ctx)  # the Axis phase 10 ends: the Allied half-turn begins
    assert s.player == ALLIED and s.reaction_reserve == ["de_dak"] and s.hq_active == {}
    token = s.blocks["de_dak"].token
    dak = next(b for b in RULES.fog_view(s, ALLIED).blocks if b.token == token)
    assert dak.reserve and dak.name is None


def allied_attack_on_gazala(standing: str = "ask"):
    """After the Axis put the DAK in reserve for a reaction, the Allied Movement Phase: the
    Desert Rats, fuelled by Churchill, attack the Ariete at Gazala; then 'done'. Rommel
    put himself in reserve too, so the phase still waits once the DAK has reacted."""
    s = reaction_set_up()
    s, _ = order(s, AXIS, "reserve de_rommel de_rommel")  # himself first, in place (B91)
    s, _ = order(s, AXIS, "reserve de_dak de_rommel")
    assert s.reaction_reserve == ["de_rommel", "de_dak"]
    s.player, s.phase, s.moved, s.hq_active, s.hq_done = ALLIED, "movement", [], {}, {}
    s.standing = {AXIS: {"react": standing}}
    s, _ = order(s, ALLIED, "fuel uk_7armd churchill")
    s, _ = order(s, ALLIED, f"move uk_7armd {GAZALA}")
    assert s.battles == [GAZALA]
    return s


def test_the_dak_reacts_into_the_battle_of_gazala():
    """Appendix (L2453-2472; RULINGS B93, B95): the Axis, asked by its standing order, moves
    the DAK in Reserve Mode into the battle hex with its full MP (its reserve AP fuels it);
    the engaged Ariete and the unreserved Leichte Afrika stay; an enemy hex outside the
    battles is no destination. The Allies read the token. The DAK's mode ends with the
    phase; Rommel, who did not move, keeps his for the Allied Blitz (RULINGS B98)."""
    s = allied_attack_on_gazala()
    s, _ = order(s, ALLIED, "done")
    p = RULES.prompt(s)
    assert s.phase == "reaction" and p.role == AXIS and "move" in p.verbs
    assert "Reserve Mode" in p.text_for(AXIS)
    legal = {o.text() for o in RULES.legal_orders(s, AXIS)}
    assert f"move de_dak {GAZALA}" in legal and f"move de_dak {MECHILI}" in legal
    assert not [o for o in legal if o.startswith(("move de_la", "move it_ariete"))]
    err = refused(s, AXIS, f"move it_ariete {MECHILI}")
    assert err.rule == "BIA AR Appendix" and "engaged" in err.reason
    err = refused(s, AXIS, f"move de_la {MECHILI}")
    assert err.rule == "BIA AR Appendix" and "not in Reserve Mode for a reaction" in err.reason
    put(s, "uk_xiii", MECHILI)  # an enemy hex that is no battle hex
    err = refused(s, AXIS, f"move de_dak {MECHILI}")
    assert err.rule == "BIA AR Appendix" and "no battle hex" in err.reason
    s.blocks["uk_xiii"].where, s.blocks["uk_xiii"].at = "pool", None
    s2, ev = order(s, AXIS, f"move de_dak {GAZALA}")
    assert s2.blocks["de_dak"].at == GAZALA and s2.phase == "reaction"
    token = s2.blocks["de_dak"].token
    seen = seen_by(ev, f"move de_dak {GAZALA}", ALLIED)
    assert token in seen and "de_dak" not in seen and DAK not in seen
    assert refused(s2, AXIS, f"move de_dak {DERNA}").rule == "BIA AR Appendix"  # engaged now
    ctx = Ctx(B, s2, ScriptedDice([]))
    turn.next_phase(ctx)  # the reaction ends; the Combat Phase opens
    assert s2.phase == "combat" and s2.reaction_reserve == ["de_rommel"]
    assert s2.blocks["de_dak"].revealed  # face up in its battle like the others


def test_the_reaction_waits_only_on_a_standing_order_and_a_battle():
    """RULINGS B46, B95: with 'react pass' (the default) the phase passes; with 'ask' it waits
    while a reaction is possible; with no battle there is nothing to react to."""
    s = allied_attack_on_gazala(standing="pass")
    s.phase = "reaction"
    assert not turn.waits(Ctx(B, s, ScriptedDice([])))
    s.standing = {AXIS: {"react": "ask"}}
    assert turn.waits(Ctx(B, s, ScriptedDice([])))
    s.battles = []
    assert not turn.waits(Ctx(B, s, ScriptedDice([])))
    assert reserve.reaction_orders(Ctx(B, s, ScriptedDice([]))) == []


def test_a_fuelled_air_unit_reacts_to_an_airfield_in_range():
    """Appendix (L2463-2472; RULINGS B94): in the advanced Defender Reaction the ME Air
    Command, activated in place, fuels the AASF, which may move to an airfield of its side
    within its standard range instead of a battle, landing there. Unfuelled it may not; in
    the basic game and with no battle only battle hexes are reacted to (7.6)."""
    s = advanced(phase="reaction")
    put(s, "de_dak", GAZALA, 5)
    put(s, "uk_7armd", GAZALA, 3)
    s.battles = [GAZALA]
    s.standing = {ALLIED: {"react": "ask"}}
    put(s, "uk_meac", ALEXANDRIA, 3)
    put(s, "uk_aasf", ALEXANDRIA, 4)
    fields = air.reaction_fields(B, s, s.blocks["uk_aasf"])
    assert fields and ALEXANDRIA not in fields
    to = fields[0]
    put(s, "uk_daf", fields[-1], 1)  # another air unit the HQ could fuel: the phase waits
    assert refused(s, ALLIED, f"react uk_aasf {to}").rule == "BIA 11.10"
    s, _ = order(s, ALLIED, "fuel uk_aasf uk_meac")
    assert f"react uk_aasf {to}" in {o.text() for o in RULES.legal_orders(s, ALLIED)}
    s2, ev = order(s, ALLIED, f"react uk_aasf {to}")
    assert s2.blocks["uk_aasf"].at == to and "uk_aasf" not in s2.aloft
    assert s2.blocks["uk_aasf"].token in seen_by(ev, f"react uk_aasf {to}", AXIS)
    assert refused(s2, ALLIED, f"react uk_aasf {GAZALA}").rule == "BIA 7.6"  # flown already
    s.battles = []
    assert refused(s, ALLIED, f"react uk_aasf {to}").rule == "BIA 7.6"
    s.battles = [GAZALA]
    s.options["advanced"] = False
    assert refused(s, ALLIED, f"react uk_aasf {to}").rule == "BIA 7.6"


def test_random_play_reserves_and_reacts_without_leaks():
    """Random play of BIA6 under ``advanced`` with both sides asking to react, choosing
    Reserve Mode, activations and reaction moves whenever offered: the armoured HQs'
    reserves of both kinds and an armour reaction happen, every state keeps its invariants
    and survives a reload, reserves stay put in their phase, and no action names a hidden
    block to a reader (the leak scan of test_random_play)."""
    import random

    from tests.bia import test_random_play as rp

    rng = random.Random(1)
    s = RULES.setup("BIA6", {"advanced": True}, rp.Dice(rng))
    s.standing = {side: {"react": "ask"} for side in (AXIS, ALLIED)}
    names = {
        side: {B.block(b.id).name for b in s.blocks.values() if b.side == side}
        for side in (AXIS, ALLIED)
    }
    seen: set[str] = set()
    for _ in range(400):
        p = RULES.prompt(s)
        if p.role is None:
            break
        legal = RULES.legal_orders(s, p.role)
        eager = [
            o for o in legal
            if o.verb in ("reserve", "activate") or (s.phase == "reaction" and o.verb == "move")
        ]  # fmt: skip
        done = [o for o in legal if o.verb == "done"]
        if eager and rng.random() < 0.6:
            o = rng.choice(eager)
        elif done and rng.random() < 0.15:
            o = done[0]
        else:
            o = rng.choice([x for x in legal if x.verb not in ("disband", "standing")] or legal)
        if o.verb == "reserve" and o.by and o.by not in ("hitler", "mussolini", "churchill"):
            seen.add(f"reserve by an HQ in {s.phase}")
        if s.phase == "reaction" and o.verb == "move":
            seen.add("armour reacts")
            assert o.block in s.reaction_reserve
        before = s
        s, ev = RULES.apply(s, p.role, o, rp.Dice(rng))
        assert RULES.invariant_problems(s) == [], o.text()
        rp._check_leaks(s, before, o, ev, names)
        assert RULES.dump_state(RULES.load_state(RULES.dump_state(s))) == RULES.dump_state(s)
        if s.phase == "movement":
            assert not set(s.reserve) & set(s.moved), o.text()
        if s.phase == "exploitation":
            assert not set(s.reaction_reserve) & set(s.moved), o.text()
    assert seen == {
        "reserve by an HQ in movement", "reserve by an HQ in exploitation", "armour reacts"
    }, seen  # fmt: skip
