"""BIA Supreme Leaders' Action Points (advanced rules 11.0-11.8, L1940-2004; Sea Transport
with an AP, L1121-1124, L1191-1206, L1409-1410, L2179-2181) and the desert limit's
besieged port (7.3 L1048-1053, L359-361). Scripted dice throughout; refusals name the
rule and change nothing."""

from __future__ import annotations

from engine.core.dice import ScriptedDice
from engine.core.events import PUBLIC, lines_for, order_line
from engine.games.bia import hq, sea, spending, turn
from engine.games.bia.board import ALLIED, AXIS
from engine.games.bia.context import Ctx
from engine.games.bia.orders import Ship
from tests.bia.test_combat import RULES, B, bare, order, put, refused, value
from tests.bia.test_ports import TOBRUK, besieged_tobruk

P = B.pack.places
TARANTO, BENGASI, TRIPOLI, BARI, SUEZ = (
    P["Taranto"], P["Bengasi"], P["Tripoli"], P["Bari"], P["Suez"]
)  # fmt: skip


def advanced(side: str = AXIS):
    s = bare(side=side)
    s.options["advanced"] = True
    return s


# -- the desert limit and a besieged port (B33, B53) ---------------------------------------


def test_a_besieged_port_links_nothing_for_the_desert_limit():
    """7.3 (L1048-1053) with L359-361: Tobruk surrounded by enemy units and ZOC is no port
    to buy a last edge at; with one neighbour free it is one again."""
    s = besieged_tobruk()
    assert not spending.port_linked(B, s, TOBRUK, ALLIED)
    s.blocks["it_21c"].where = "pool"
    assert spending.port_linked(B, s, TOBRUK, ALLIED)


# -- Sea Transport for a Supreme Leader's AP (L1940-1951, L2179-2181) ------------------------


def test_the_la_sails_for_a_hitler_ap_as_in_the_srm_example():
    """L2179-2181: the second Hitler AP ships the LA from Taranto to Bengasi, MDR 5, the
    LA down to 2 steps. Both sides read that Hitler paid (RULINGS B60)."""
    s = advanced()
    put(s, "de_la", TARANTO, value=3)
    s2, ev = order(s, AXIS, f"ship de_la {BENGASI}", dice=[5])
    assert s2.leader_ap == {"hitler": ["sea"]}
    assert hq.ap_left(B, s2, "hitler") == 1 and value(s2, "de_la") == 2
    for audience in (AXIS, ALLIED, PUBLIC):
        assert "Hitler spends 1 AP, mine die roll 5" in " ".join(lines_for(ev, audience))
    assert s.leader_ap == {}  # the order worked on a copy


def test_one_sea_transport_per_leader_and_hitler_ships_an_ally():
    """A leader takes one action of each kind a turn (L1940-1951): Hitler's one Sea
    Transport spent, a second German unit cannot sail; Mussolini ships an Italian unit,
    and Hitler, the FHQ, may ship a second Italian one while his is unspent, never the
    reverse (11.8, L2205-2221)."""
    s = advanced()
    put(s, "de_la", TARANTO, value=3)
    put(s, "de_dak", TARANTO)
    put(s, "it_10c", BARI)
    put(s, "it_21c", BARI)
    s2, _ = order(s, AXIS, f"ship de_la {BENGASI}", dice=[1])
    err = refused(s2, AXIS, f"ship de_dak {TRIPOLI}")
    assert err.rule == "BIA 11.2" and "Hitler already spent an AP on a Sea Transport" in err.reason
    assert not [o for o in RULES.legal_orders(s2, AXIS) if o.verb == "ship" and o.block == "de_dak"]
    s3, _ = order(s2, AXIS, f"ship it_10c {TRIPOLI}", dice=[2])
    assert s3.leader_ap == {"hitler": ["sea"], "mussolini": ["sea"]}
    assert "Mussolini already spent" in refused(s3, AXIS, f"ship it_21c {TRIPOLI}").reason
    # Italian units first: Mussolini's crossing, then Hitler's for the second
    s4, _ = order(s, AXIS, f"ship it_10c {TRIPOLI}", dice=[2])
    s5, ev = order(s4, AXIS, f"ship it_21c {TRIPOLI}", dice=[3])
    assert s5.leader_ap == {"mussolini": ["sea"], "hitler": ["sea"]}
    assert "Hitler spends 1 AP" in " ".join(lines_for(ev, PUBLIC))
    assert "Hitler already spent" in refused(s5, AXIS, f"ship de_la {BENGASI}").reason


def test_leaving_berlin_takes_two_hitler_ap_and_his_sea_transport():
    """L1135-1137, L1287-1293: the DAK from Berlin takes an SRM AP and a Sea Transport AP,
    Hitler's two; nothing is left for an Italian crossing by Hitler."""
    s = advanced()
    dak = s.blocks["de_dak"]
    dak.where, dak.at = "box", "berlin"
    put(s, "it_10c", BARI)
    put(s, "it_21c", BARI)
    s2, ev = order(s, AXIS, f"ship de_dak {BENGASI}", dice=[2])
    assert s2.leader_ap == {"hitler": ["srm", "sea"]} and hq.ap_left(B, s2, "hitler") == 0
    assert "Hitler spends 2 AP" in " ".join(lines_for(ev, ALLIED))
    s3, _ = order(s2, AXIS, f"ship it_10c {TRIPOLI}", dice=[1])  # Mussolini's
    err = refused(s3, AXIS, f"ship it_21c {TRIPOLI}")
    assert (
        "Hitler already spent an AP on a Sea Transport" in err.reason and "Mussolini" in err.reason
    )


def test_churchill_pays_two_ap_from_london_and_commands_the_free_french():
    """L1191-1196: London to South Africa is 1 SRM and a Sea Transport, two Churchill
    AP; the Free French brigade counts as British (L405-408) and so waits for
    Churchill's Sea Transport of the next turn."""
    s = advanced(side=ALLIED)
    b = s.blocks["uk_9aus"]
    b.where, b.at = "box", "london"
    put(s, "ff_brigade", P["Haifa"])
    s2, _ = order(s, ALLIED, "ship uk_9aus south_africa", dice=[1])
    assert s2.leader_ap == {"churchill": ["srm", "sea"]} and hq.ap_left(B, s2, "churchill") == 2
    err = refused(s2, ALLIED, f"ship ff_brigade {P['Port Said']}")
    assert (
        err.rule == "BIA 11.2" and "Churchill already spent an AP on a Sea Transport" in err.reason
    )


def test_the_leaders_ap_come_back_at_the_next_srm_phase():
    """L1994-2004: the abstract leaders have their AP every turn (RULINGS B60)."""
    s = advanced()
    s.phase = "production"
    s.leader_ap = {"hitler": ["srm", "sea"], "churchill": ["sea"]}
    ctx = Ctx(B, s, ScriptedDice([]))
    turn.next_phase(ctx)
    assert s.phase == "srm" and s.leader_ap == {} and hq.ap_left(B, s, "hitler") == 2


def test_the_basic_game_keeps_one_crossing_per_power_and_spends_no_ap():
    """Without ``advanced`` the stand-in of RULINGS B57 holds: one Sea Transport per
    power, no AP counted; an Italian unit never sails on Germany's crossing."""
    s = bare()
    put(s, "it_10c", BARI)
    put(s, "it_21c", BARI)
    s2, ev = order(s, AXIS, f"ship it_10c {TRIPOLI}", dice=[1])
    assert s2.leader_ap == {} and "AP" not in " ".join(lines_for(ev, PUBLIC))
    assert refused(s2, AXIS, f"ship it_21c {TRIPOLI}").rule == "BIA 7.5.4"


def test_offered_sea_transports_under_the_advanced_rules_are_all_accepted():
    s = advanced()
    put(s, "de_la", TARANTO, value=3)
    put(s, "it_10c", BARI)
    s2, _ = order(s, AXIS, f"ship de_la {BENGASI}", dice=[1])
    ships = sea.ship_orders(Ctx(B, s2, None))
    assert ships and {o.block for o in ships} == {"it_10c"}
    for o in ships[:3]:
        RULES.apply(s2, AXIS, o, ScriptedDice([1]))
    assert Ship(block="it_10c", to=TRIPOLI) in ships


# -- Air and Artillery Targeting after a recon (AR 12.1, L2345-2350) ------------------------

GAZALA = "1916"


def artillery_hit_at_gazala(turn_no: int = 33):
    """The British 8th Army artillery (TECH 2 from turn 30) has just fired at Gazala,
    which the Allies reconned this turn, and scored 1 hit; the Italian 10th and 21st
    Corps stand there tied on 1 each."""
    s = advanced(side=ALLIED)
    s.turn, s.phase = turn_no, "combat"
    put(s, "it_10c", GAZALA, 1)
    put(s, "it_21c", GAZALA, 1)
    s.control[GAZALA] = AXIS
    put(s, "uk_8art", GAZALA, 3)
    put(s, "uk_9aus", GAZALA, 3)
    s.battles, s.reconned = [GAZALA], [GAZALA]
    step = turn_step("art_attacker") + 1
    s.fight = {"hex": GAZALA, "attacker": ALLIED, "round": 1, "step": step, "queue": [],
               "shield": {}, "wait": None, "a2a": 0, "grounded": [],
               "pending": {"side": AXIS, "hits": 1, "air": False, "first": [],
                           "firers": ["uk_8art"]}}  # fmt: skip
    for b in s.at_hex(GAZALA):
        b.revealed = True
    return s


def turn_step(name: str) -> int:
    from engine.games.bia import combat

    return combat.STEPS.index(name)


def test_the_attacker_aims_tech2_artillery_hits_only_after_a_recon():
    """12.1: sunny (always, L993-994), a successful recon and TECH 2 artillery or air: the
    attacker, not the owner, picks among the tied strongest. No recon, TECH 1 artillery,
    the basic game or the defender's own fire: the owner's choice as before (7.7.9)."""
    from engine.games.bia import combat

    s = artillery_hit_at_gazala()
    assert combat.aimed(B, s)
    for change in (
        lambda x: setattr(x, "reconned", []),
        lambda x: setattr(x, "turn", 29),  # British artillery still TECH 1
        lambda x: x.options.update(advanced=False),
        lambda x: x.fight["pending"].update(side=ALLIED),
        lambda x: x.fight.update(step=turn_step("ground_attacker") + 1),
    ):
        t = artillery_hit_at_gazala()
        change(t)
        assert not combat.aimed(B, t)


def test_aimed_hits_wait_on_the_attacker_who_names_an_enemy_token():
    """With 'standing aim ask' the battle waits on the Allies, offered the two tied blocks
    by token; they name the 21st Corps, which is eliminated; the 10th fires (a 1 misses)
    and falls to the Australians' three 6s. A name outside the tie is refused."""
    s = artillery_hit_at_gazala()
    for axis_block, uk_block, h in (("de_dak", "uk_2nz", "1817"), ("de_la", "uk_4ind", "1818")):
        put(s, axis_block, h)
        put(s, uk_block, h)
        s.battles.append(h)  # two battles left: the Allies choose the next
    s2, _ = order(s, ALLIED, "standing aim ask")
    assert s2.fight["wait"] == f"aim:{ALLIED}" and RULES.prompt(s2).role == ALLIED
    offered = {o.block for o in RULES.legal_orders(s2, ALLIED) if o.verb == "hit"}
    assert offered == {s2.blocks["it_10c"].token, s2.blocks["it_21c"].token}
    assert RULES.legal_orders(s2, AXIS) == []
    assert refused(s2, ALLIED, "hit uk_9aus").rule == "BIA 12.1"
    token = s2.blocks["it_21c"].token
    dice = ScriptedDice([1, 6, 6, 6])
    s3, ev = RULES.apply(s2, ALLIED, RULES.parse_order(f"hit {token}"), dice)
    assert dice.remaining == []
    assert s3.blocks["it_21c"].where == "dead" and s3.blocks["it_10c"].where == "dead"
    assert s3.fight is None and s3.control[GAZALA] == ALLIED
    for audience in (AXIS, PUBLIC):  # the order reads the same token to everyone
        assert order_line(f"hit {token}", ev, audience) == f"hit {token}"


def test_the_engine_aims_at_the_tied_block_that_fires_best_by_default():
    """'standing aim engine' (the default, RULINGS B61): the Allies are never asked; of
    the tied blocks the one that fires best takes the hit, then fewer edges, then token."""
    from engine.games.bia import combat

    s = artillery_hit_at_gazala()
    first = min(("it_10c", "it_21c"), key=lambda i: s.blocks[i].token)
    ctx = Ctx(B, s, ScriptedDice([]))
    combat._give_hits(ctx)
    assert s.blocks[first].where == "dead" and s.fight["wait"] is None


# -- Reserve Mode by a Supreme Leader (AR 16.0, L2418-2446) ---------------------------------


def test_hitler_puts_the_dak_in_reserve_and_it_stays_put_until_exploitation():
    """16.0 Motorization (L2428-2432, L2439-2442): one Hitler AP puts the DAK (TECH 2) in
    Reserve Mode; it may neither move nor sail in the Movement Phase, and both sides read
    its token under the black barrel, never its name."""
    s = advanced()
    put(s, "de_dak", "1616")
    put(s, "de_la", "1617")
    assert "reserve" in RULES.prompt(s).verbs
    assert RULES.parse_order("reserve de_dak") in RULES.legal_orders(s, AXIS)
    s2, ev = order(s, AXIS, "reserve de_dak")
    assert s2.reserve == ["de_dak"] and s2.leader_ap == {"hitler": ["reserve"]}
    token = s2.blocks["de_dak"].token
    for audience in (ALLIED, PUBLIC):
        seen = " ".join(lines_for(ev, audience)) + (
            order_line("reserve de_dak", ev, audience) or ""
        )
        assert token in seen and "Reserve Mode" in seen
        assert "de_dak" not in seen and B.block("de_dak").name not in seen
    err = refused(s2, AXIS, "move de_dak 1516")
    assert err.rule == "BIA 16.0" and "Exploitation Phase" in err.reason
    assert not [o for o in RULES.legal_orders(s2, AXIS) if getattr(o, "block", "") == "de_dak"]
    err = refused(s2, AXIS, "reserve de_la")  # Hitler's one reserve of the turn
    assert err.rule == "BIA 16.0" and "Hitler already spent an AP on a Reserve Mode" in err.reason


def test_only_tech2_ground_units_that_have_not_moved_go_into_reserve():
    """L2428-2430: TECH 2 infantry and armoured-class units; the Ariete is TECH 1 until
    turn 38 (Italian tanks), then Mussolini's AP puts it in reserve, and Hitler's the
    20th Motorized as the FHQ (11.8). Not in the basic game, not after moving."""
    s = advanced()
    put(s, "it_ariete", "1616")
    put(s, "it_20mot", "1617")
    put(s, "de_la", "1618")
    assert "TECH 2" in refused(s, AXIS, "reserve it_ariete").reason
    s.turn = 38
    s2, _ = order(s, AXIS, "reserve it_ariete")
    s3, ev = order(s2, AXIS, "reserve it_20mot")
    assert s3.leader_ap == {"mussolini": ["reserve"], "hitler": ["reserve"]}
    assert "Hitler spends 1 AP" in " ".join(lines_for(ev, PUBLIC))
    s4, _ = order(s, AXIS, "move de_la 1518")
    assert "has moved" in refused(s4, AXIS, "reserve de_la").reason
    basic = bare()
    put(basic, "de_dak", "1616")
    assert "not an order in this step" in refused(basic, AXIS, "reserve de_dak").reason
    assert "reserve" not in RULES.prompt(basic).verbs


def test_a_british_infantry_unit_in_reserve_moves_in_the_exploitation_phase():
    """L2430-2432: the 9th Australian (infantry TECH 2 from turn 30), held back by a
    Churchill AP, moves in the Exploitation Phase, which infantry never does otherwise;
    its Reserve Mode ends with that phase."""
    s = advanced(side=ALLIED)
    put(s, "uk_9aus", P["Alexandria"])
    put(s, "uk_2nz", P["Port Said"])
    s2, _ = order(s, ALLIED, "reserve uk_9aus")
    assert s2.leader_ap == {"churchill": ["reserve"]}
    s2.phase = "exploitation"
    ctx = Ctx(B, s2, ScriptedDice([]))
    from engine.games.bia import movement

    movement.start_exploitation(ctx)
    moves = {o.block for o in RULES.legal_orders(s2, ALLIED) if o.verb == "move"}
    assert moves == {"uk_9aus"}
    assert "Reserve Mode" in refused(s2, ALLIED, f"move uk_2nz {P['Suez']}").reason
    s2.phase = "exploitation"
    turn.next_phase(ctx)  # the Allied phase 10 ends: victory check and a new turn
    assert s2.reserve == []


# -- random play under the advanced rules, reaching the new orders ---------------------------


def test_random_play_puts_units_in_reserve_and_ships_for_ap_without_leaks():
    """Random play of two desert scenarios under ``advanced``, choosing Reserve Mode and
    Sea Transport whenever offered and asked on every aimed hit: every state keeps its
    invariants and survives a reload, and no action names a hidden block to a reader
    (the leak scan of test_random_play)."""
    import random

    from tests.bia import test_random_play as rp

    seen: set[str] = set()
    for scenario, seed in (("BIA5", 2), ("BIA6", 3)):
        rng = random.Random(seed)
        s = RULES.setup(scenario, {"advanced": True}, rp.Dice(rng))
        s.standing = {side: {"aim": "ask"} for side in (AXIS, ALLIED)}
        names = {
            side: {B.block(b.id).name for b in s.blocks.values() if b.side == side}
            for side in (AXIS, ALLIED)
        }
        for _ in range(300):
            p = RULES.prompt(s)
            if p.role is None:
                break
            legal = RULES.legal_orders(s, p.role)
            eager = [o for o in legal if o.verb in ("reserve", "ship", "hit")]
            done = [o for o in legal if o.verb == "done"]
            if eager and rng.random() < 0.5:
                o = rng.choice(eager)
            elif done and rng.random() < 0.2:
                o = done[0]
            else:
                o = rng.choice([x for x in legal if x.verb != "disband"] or legal)
            before = s
            s, ev = RULES.apply(s, p.role, o, rp.Dice(rng))
            seen.add(o.verb)
            seen |= {e.kind for e in ev}
            assert RULES.invariant_problems(s) == [], o.text()
            rp._check_leaks(s, before, o, ev, names)
            assert RULES.dump_state(RULES.load_state(RULES.dump_state(s))) == RULES.dump_state(s)
            if s.phase == "movement":
                assert not set(s.reserve) & set(s.moved), o.text()  # reserves stay put
    assert {"reserve", "ship"} <= seen, seen
