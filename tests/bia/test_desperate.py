"""BIA unsupplied units under the advanced rules, and the marker of a failed air recon:
a Supreme Leader's AP moves one unsupplied unit as if in supply (L1944-1946; RULINGS
B81); the Desperate Attack of unsupplied TECH 2 and 3 ground units and 0-step units,
and their surrender when the first round of ground combat leaves the enemy in the hex
(AR 10.2 L1973-1985, L2010-2013, L2258-2262; RULINGS B82); a recon attempt that reveals
nothing stays on every map as a marker (AR 12.0 L2311-2320; RULINGS B83). Scripted dice;
refusals name the rule and change nothing."""

from __future__ import annotations

from engine.core.dice import ScriptedDice
from engine.core.events import PUBLIC, lines_for, order_line
from engine.core.view import MarkerView
from engine.games.bia import combat, hq, ledger
from engine.games.bia.board import ALLIED, AXIS
from engine.games.bia.context import Ctx
from engine.games.bia.rules import final_supply_phase
from tests.bia.test_combat import GAZALA, MECHILI, RULES, B, bare, order, put, refused, value
from tests.bia.test_recon import RATS, gazala_seen_from_the_air

ACROMA = "1616"


def advanced(side: str = AXIS):
    s = bare(side=side)
    s.options["advanced"] = True
    return s


def public(ev, text: str) -> str:
    return " ".join(lines_for(ev, PUBLIC)) + (order_line(text, ev, PUBLIC) or "")


# -- a Supreme Leader moves an unsupplied unit as if in supply (L1944-1946) --------------------


def test_mussolini_moves_an_unsupplied_infantry_corps_with_its_full_mp():
    """The 10th Corps out of supply has 1 MP of its 3 (4.4: halved); Mussolini's AP moves
    it with all 3, once a turn (L1940-1951); Hitler may move a second Italian unit (11.8).
    The unit stays out of supply. Every reader learns the leader and the token only."""
    s = advanced()
    for block in ("it_10c", "it_21c"):
        put(s, block, ACROMA)
        s.blocks[block].oos = True
    offered = hq.oos_move_orders(Ctx(B, s, None))
    far = next(o for o in offered if o.block == "it_10c")
    assert far.by == "mussolini" and len(far.path) >= 2
    hexes = " ".join(far.path)
    err = refused(s, AXIS, f"move it_10c {hexes}")
    assert err.rule == "BIA 7.5.1" and "1 MP" in err.legal
    text = f"move it_10c {hexes} mussolini"
    s2, ev = order(s, AXIS, text)
    assert s2.blocks["it_10c"].at == far.path[-1] and s2.blocks["it_10c"].oos
    assert s2.leader_ap == {"mussolini": ["oos_move"]}
    seen = public(ev, text)
    assert "Mussolini spends 1 AP" in seen and s2.blocks["it_10c"].token in seen
    assert "it_10c" not in seen and B.block("it_10c").name not in seen
    second = next(o for o in offered if o.block == "it_21c")
    err = refused(s2, AXIS, f"move it_21c {' '.join(second.path)} mussolini")
    assert err.rule == "BIA 11.2" and "one such unit a turn" in err.reason
    s3, _ = order(s2, AXIS, f"move it_21c {' '.join(second.path)} hitler")
    assert s3.leader_ap == {"mussolini": ["oos_move"], "hitler": ["oos_move"]}
    assert not hq.oos_move_orders(Ctx(B, s3, None))


def test_a_leader_moves_no_supplied_unit_attacks_no_one_and_plays_only_advanced():
    """Refusals, each in one sentence and changing nothing: a unit in supply needs no AP;
    Goering commands no ground unit (L1987-1992); the leader's move never ends in an
    enemy hex (RULINGS B81); the basic game has no AP (B60)."""
    s = advanced()
    put(s, "it_10c", MECHILI)
    err = refused(s, AXIS, f"move it_10c {GAZALA} mussolini")
    assert err.rule == "BIA 11.1" and "in supply" in err.reason
    s.blocks["it_10c"].oos = True
    put(s, "uk_9aus", GAZALA)
    s.control[GAZALA] = ALLIED
    err = refused(s, AXIS, f"move it_10c {GAZALA} goering")
    assert err.rule == "BIA 11.8"
    err = refused(s, AXIS, f"move it_10c {GAZALA} mussolini")
    assert err.rule == "BIA 10.2" and "not into a battle" in err.reason
    basic = bare()
    put(basic, "it_10c", MECHILI)
    basic.blocks["it_10c"].oos = True
    err = refused(basic, AXIS, "move it_10c 1717 mussolini")
    assert err.rule == "BIA 11.1" and "advanced rule" in err.reason
    assert not hq.oos_move_orders(Ctx(B, basic, None))


# -- the Desperate Attack (AR 10.2) -----------------------------------------------------------


def dak_out_of_supply_at_mechili(defender: str = "uk_7armd", strength: int = 3):
    s = advanced()
    put(s, "de_dak", MECHILI, 5)
    s.blocks["de_dak"].oos = True
    put(s, defender, GAZALA, strength)
    s.control[GAZALA] = ALLIED
    return s


def test_only_tech2_and_0_step_units_out_of_supply_may_attack_and_only_advanced():
    """4.4 (L695-696): an unsupplied unit attacks no one, except by a Desperate Attack
    under the advanced rules: the DAK (TECH 2 tanks) and the Folgore (a 0-step unit,
    L2010-2013) may enter Gazala; the 10th Corps (TECH 1 infantry) may not; nor may the
    DAK in the basic game."""
    s = dak_out_of_supply_at_mechili()
    s2, _ = order(s, AXIS, f"move de_dak {GAZALA}")
    assert s2.battles == [GAZALA] and s2.blocks["de_dak"].oos
    put(s, "it_10c", MECHILI)
    s.blocks["it_10c"].oos = True
    err = refused(s, AXIS, f"move it_10c {GAZALA}")
    assert err.rule == "BIA 4.4" and "Desperate Attack is for TECH 2 and 3" in err.reason
    s.blocks["it_10c"].where = "pool"
    put(s, "it_folgore", MECHILI, 3)
    s.blocks["it_folgore"].oos = True
    s3, _ = order(s, AXIS, f"move it_folgore {GAZALA}")
    assert s3.battles == [GAZALA]
    basic = bare()
    put(basic, "de_dak", MECHILI, 5)
    basic.blocks["de_dak"].oos = True
    put(basic, "uk_7armd", GAZALA, 3)
    basic.control[GAZALA] = ALLIED
    err = refused(basic, AXIS, f"move de_dak {GAZALA}")
    assert err.rule == "BIA 4.4" and "Desperate" not in err.reason


def fight(s, dice: list[int]):
    """Fight the battle at Gazala in the Combat Phase with these dice."""
    s.phase = "combat"
    ctx = Ctx(B, s, ScriptedDice(list(dice)))
    combat.start(ctx, GAZALA)
    combat.advance(ctx, auto_start=False)
    assert ctx.dice._values == [], f"dice left over: {ctx.dice._values}"
    return ctx


def test_a_desperate_attack_that_leaves_the_enemy_in_the_hex_surrenders_after_round_1():
    """10.2 (L1980-1983): the DAK (5) attacks the Desert Rats (3); in round 1 the Rats
    miss with 3 dice and the DAK misses with 5: the hex is not cleared, so the DAK
    surrenders at once, and the British gain the PP of a surrendering armoured unit
    (4.5, L714-723: 1 yellow, 1 red; RULINGS B82). The battle is over."""
    s = dak_out_of_supply_at_mechili()
    s, _ = order(s, AXIS, f"move de_dak {GAZALA}")
    before = dict(s.pp.get("uk", {}))
    ctx = fight(s, [1, 1, 1] + [1] * 5)
    text = " ".join(lines_for(ctx.events, PUBLIC))
    assert "surrenders after a failed Desperate Attack" in text
    assert s.blocks["de_dak"].where == "dead" and s.fight is None and s.battles == []
    assert s.control[GAZALA] == ALLIED and value(s, "uk_7armd") == 3
    gain = ledger.surrender_gain(B, B.block("de_dak"))
    assert gain == {"yellow": 1, "red": 1}
    assert all(s.pp["uk"].get(c, 0) == before.get(c, 0) + n for c, n in gain.items())


def test_a_supplied_attacker_fights_on_when_the_desperate_one_surrenders():
    """Only the unsupplied attacker surrenders (10.2 names 'those units'): the 10th Corps,
    in supply, fights round 2 and takes Gazala with three hits (the Rats' shields,
    7.7.8.1, then alone at 0 against a combat unit, L742-744)."""
    s = dak_out_of_supply_at_mechili()
    put(s, "it_10c", MECHILI, 3)
    s, _ = order(s, AXIS, f"move de_dak {GAZALA}")
    s, _ = order(s, AXIS, f"move it_10c {GAZALA}")
    ctx = fight(s, [1, 1, 1] + [1] * 8 + [1, 1, 1] + [6, 6, 6])
    assert s.blocks["de_dak"].where == "dead" and s.blocks["it_10c"].at == GAZALA
    assert s.blocks["uk_7armd"].where == "dead" and s.control[GAZALA] == AXIS
    assert "round 2" in " ".join(lines_for(ctx.events, PUBLIC))


def test_a_desperate_attack_that_clears_the_hex_holds_it():
    """10.2: the DAK charges the 9th Australian (1) (Panzers Attack!, AR 14.0: no armour
    defends) and its 5 dice hit: the hex is clear of enemy ground units after round 1,
    so nothing surrenders and the DAK holds Gazala, still out of supply until the Final
    Supply Check."""
    s = dak_out_of_supply_at_mechili("uk_9aus", 1)
    s, _ = order(s, AXIS, f"move de_dak {GAZALA}")
    ctx = fight(s, [6] * 5)
    assert s.blocks["de_dak"].at == GAZALA and s.blocks["de_dak"].oos
    assert s.control[GAZALA] == AXIS
    assert "surrenders" not in " ".join(lines_for(ctx.events, PUBLIC))


def test_a_0_step_unit_surrenders_too_when_its_desperate_attack_fails():
    """L2010-2013, L2040-2042: a 0-step unit that fails a Desperate Attack surrenders,
    the one case it does; the Folgore does not drop to its 0 edge and stay."""
    s = dak_out_of_supply_at_mechili("uk_9aus", 3)
    s.blocks["de_dak"].where = "pool"
    put(s, "it_folgore", MECHILI, 3)
    s.blocks["it_folgore"].oos = True
    s, _ = order(s, AXIS, f"move it_folgore {GAZALA}")
    fight(s, [1, 1, 1] + [1, 1, 1])
    assert s.blocks["it_folgore"].where == "dead" and s.blocks["uk_9aus"].at == GAZALA


# -- a failed recon attempt leaves a marker (AR 12.0) ------------------------------------------


def markers(s, audience):
    return [m for m in RULES.view(s, audience).markers if m.kind == "recon"]


def test_a_negated_recon_attempt_stays_on_every_map_until_the_final_supply_check():
    """12.0 (L2314-2320): the attempt on Gazala is declared and the AA negates it: every
    map shows the recon marker there with 'negated', and nothing it may not see (the
    Rats stay face down, the AA dice stay British). A success on the same hex replaces
    it with the plain recon marker; the Final Supply Check clears both (L2416-2417)."""
    s = gazala_seen_from_the_air()
    s, _ = order(s, AXIS, f"recon it_5sa {GAZALA}", [6, 1, 1, 1])
    assert s.recon_failed == {GAZALA: "negated"}
    for audience in (AXIS, ALLIED, PUBLIC):
        assert markers(s, audience) == [MarkerView(hex=GAZALA, kind="recon", text="negated")]
    for audience in (AXIS, PUBLIC):
        shown = RULES.view(s, audience).model_dump_json()
        assert RATS not in shown and "uk_7armd" not in shown and "6 at 6+" not in shown
    s, _ = order(s, AXIS, f"recon it_5sa {GAZALA}", [5, 3, 2, 1])
    assert s.recon_failed == {} and markers(s, PUBLIC) == [MarkerView(hex=GAZALA, kind="recon")]
    s.recon_failed = {"2011": "failed"}
    final_supply_phase(Ctx(B, s, ScriptedDice([])))
    assert s.recon_failed == {} and markers(s, PUBLIC) == []


def test_a_recon_die_that_fails_leaves_a_failed_marker():
    """12.0 (L2317-2330): the Desert Air Force alone in the hills at 2011 fires no AA; the
    recon die rolls 3, +2 for the hills: 5 fails. The marker says 'failed' to all."""
    s = gazala_seen_from_the_air()
    put(s, "uk_daf", "2011", 1)
    s, ev = order(s, AXIS, "recon it_5sa 2011", [3])
    assert s.recon_failed == {"2011": "failed"} and not s.blocks["uk_daf"].revealed
    assert markers(s, ALLIED) == [MarkerView(hex="2011", kind="recon", text="failed")]
    assert "Desert Air Force" not in RULES.view(s, PUBLIC).model_dump_json()
    assert RULES.load_state(RULES.dump_state(s)).recon_failed == {"2011": "failed"}


# -- random play under the advanced rules, reaching the new orders ----------------------------


def test_random_play_pays_srm_and_moves_with_ap_and_attacks_desperately_without_leaks():
    """Random play of two desert scenarios under ``advanced``, choosing an SRM for an AP,
    a leader's move of an unsupplied unit and a Desperate Attack whenever offered: every
    state keeps its invariants and survives a reload, and no action names a hidden block
    to a reader (the leak scan of test_random_play)."""
    import random

    from tests.bia import test_random_play as rp

    seen: set[str] = set()
    for scenario, seed in (("BIA5", 2), ("BIA6", 3)):
        rng = random.Random(seed)
        s = RULES.setup(scenario, {"advanced": True}, rp.Dice(rng))
        names = {
            side: {B.block(b.id).name for b in s.blocks.values() if b.side == side}
            for side in (AXIS, ALLIED)
        }
        for _ in range(400):
            p = RULES.prompt(s)
            if p.role is None:
                break
            legal = RULES.legal_orders(s, p.role)
            foes = {b.at for b in s.on_map() if b.side != p.role}
            desperate = [
                o for o in legal
                if o.verb == "move" and s.blocks[o.block].oos and o.path[-1] in foes
            ]  # fmt: skip
            eager = [o for o in legal if getattr(o, "by", None)]
            done = [o for o in legal if o.verb == "done"]
            if desperate:
                o = rng.choice(desperate)
            elif eager and rng.random() < 0.7:
                o = rng.choice(eager)
            elif done and rng.random() < 0.2:
                o = done[0]
            else:
                o = rng.choice([x for x in legal if x.verb != "disband"] or legal)
            before = s
            s, ev = RULES.apply(s, p.role, o, rp.Dice(rng))
            if getattr(o, "by", None):
                seen.add(f"{o.verb} by")
            if o.verb == "move" and before.blocks[o.block].oos and o.path[-1] in foes:
                seen.add("desperate")
            seen |= {e.kind for e in ev}
            assert RULES.invariant_problems(s) == [], o.text()
            rp._check_leaks(s, before, o, ev, names)
            assert RULES.dump_state(RULES.load_state(RULES.dump_state(s))) == RULES.dump_state(s)
    assert {"rail by", "oos_move", "desperate"} <= seen, seen
