"""BIA Strategic Rail Movement paid with an AP (7.4 L1223-1228, L1276-1280; the Supreme
Leaders' one free SRM, L1940-1951; Goering's for a German air unit, L1987-1992; the ME Air
Command's, L2080-2092; RULINGS B80): the SRM example of L2005-2009 and L2179-2181 with
its numbers, the yellow PP kept as the other payment, refusals that name the rule and
change nothing, and the orders offered."""

from __future__ import annotations

from engine.core.dice import ScriptedDice
from engine.core.events import PUBLIC, lines_for, order_line
from engine.games.bia import hq, srm
from engine.games.bia.board import ALLIED, AXIS
from engine.games.bia.context import Ctx
from engine.games.bia.orders import Rail, parse_order
from tests.bia.test_combat import RULES, B, bare, order, put, refused, value

P = B.pack.places
TARANTO, BENGASI, TRIPOLI, BARI = P["Taranto"], P["Bengasi"], P["Tripoli"], P["Bari"]
ALEXANDRIA, SUEZ = P["Alexandria"], P["Suez"]


def srm_phase(scenario: str = "BIA6", turn: int = 33, side: str = AXIS, advanced: bool = True):
    s = bare(scenario, turn=turn, side=side, phase="srm")
    s.options["advanced"] = advanced
    return s


def public(ev, text: str) -> str:
    return " ".join(lines_for(ev, PUBLIC)) + (order_line(text, ev, PUBLIC) or "")


def test_the_srm_example_hitler_rails_the_la_from_berlin_then_ships_it_to_bengasi():
    """L2005-2009 and L2179-2181, June 1941 (turn 22, the Desert Fox): one Hitler AP rails
    the 3-step LA from Berlin to Taranto in the SRM Phase, no PP paid; his second ships it
    to Bengasi in the Movement Phase, the Mine Die rolls 5 and the LA is down to 2 steps.
    Hitler has 2 AP (L2003): none is left. Every reader learns Hitler paid and the token."""
    s = srm_phase("BIA4", turn=22)
    s.control[BENGASI] = AXIS  # retaken in April 1941, before the example's June
    la = s.blocks["de_la"]
    la.where, la.at = "box", "berlin"
    la.steps = max(i for i, v in enumerate(B.block("de_la").values()) if v == 3) + 1
    pp = {k: dict(v) for k, v in s.pp.items()}
    assert Rail(block="de_la", to=TARANTO, by="hitler") in RULES.legal_orders(s, AXIS)
    text = f"rail de_la {TARANTO} hitler"
    s2, ev = order(s, AXIS, text)
    assert (s2.blocks["de_la"].where, s2.blocks["de_la"].at) == ("map", TARANTO)
    assert s2.leader_ap == {"hitler": ["srm"]} and hq.ap_left(B, s2, "hitler") == 1
    assert s2.pp == pp  # the AP paid, not a yellow PP
    seen = public(ev, text)
    token = s2.blocks["de_la"].token
    assert "Hitler spends 1 AP" in seen and token in seen and "Berlin" in seen
    assert "de_la" not in seen and B.block("de_la").name not in seen
    # Germany made its SRM and nobody else has one to make: the Movement Phase opens
    assert s2.phase == "movement" and s2.srm_used == ["germany"]
    s4, ev = order(s2, AXIS, f"ship de_la {BENGASI}", dice=[5])
    assert s4.leader_ap == {"hitler": ["srm", "sea"]} and hq.ap_left(B, s4, "hitler") == 0
    assert s4.blocks["de_la"].at == BENGASI and value(s4, "de_la") == 2
    assert "Hitler spends 1 AP, mine die roll 5" in " ".join(lines_for(ev, PUBLIC))


def test_a_yellow_pp_still_pays_and_the_nation_makes_one_srm_either_way():
    """7.4 (L1227, L1277-1278): 'rail BLOCK HEX' pays 1 yellow PP as before; an AP is the
    other payment, not a second SRM of the nation (RULINGS B80). Hitler pays an Italian
    SRM (11.8); then a German one is Germany's own, paid with a PP."""
    s = srm_phase()
    put(s, "it_10c", TARANTO)
    put(s, "it_21c", TARANTO)
    put(s, "de_dak", TARANTO)
    s2, _ = order(s, AXIS, f"rail it_10c {BARI} hitler")
    assert s2.leader_ap == {"hitler": ["srm"]} and s2.pp == s.pp
    err = refused(s2, AXIS, f"rail it_21c {BARI} mussolini")
    assert err.rule == "BIA 7.4" and "one SRM" in err.reason
    err = refused(s2, AXIS, f"rail de_dak {BARI} hitler")
    assert err.rule == "BIA 11.2" and "one free SRM a turn" in err.reason
    s3, _ = order(s2, AXIS, f"rail de_dak {BARI}")
    assert s3.pp["germany"]["yellow"] == s.pp["germany"]["yellow"] - 1
    assert s3.leader_ap == {"hitler": ["srm"]}


def test_an_srm_for_an_ap_is_refused_in_the_basic_game_and_by_the_wrong_leader():
    """The AP are an advanced rule (B60); Mussolini commands no German unit and Goering
    only German air units (L1987-1992, 11.8 L2205-2221); a name that is no leader is
    refused in one sentence. Nothing changes."""
    basic = srm_phase(advanced=False)
    put(basic, "de_dak", TARANTO)
    err = refused(basic, AXIS, f"rail de_dak {BARI} hitler")
    assert err.rule == "BIA 7.4" and "advanced rule" in err.reason
    s = srm_phase()
    put(s, "de_dak", TARANTO)
    err = refused(s, AXIS, f"rail de_dak {BARI} mussolini")
    assert err.rule == "BIA 11.8" and "Mussolini does not command" in err.reason
    err = refused(s, AXIS, f"rail de_dak {BARI} goering")
    assert err.rule == "BIA 11.8" and "German air units only" in err.reason
    err = refused(s, AXIS, f"rail de_dak {BARI} churchill")
    assert err.rule == "BIA 11.8"
    err = refused(s, AXIS, f"rail de_dak {BARI} rommel")
    assert err.rule == "BIA 7.4" and "no Supreme Leader" in err.reason


def test_goering_rails_a_german_air_unit_to_a_free_airfield():
    """L1987-1992: Goering's one AP pays the SRM of a German air unit (7.4: air units
    are eligible, L1281-1283); it lands at an airfield holding none of its side's air
    units (3.4.1). Hitler keeps his AP."""
    s = srm_phase()
    put(s, "de_stuka", TRIPOLI)
    put(s, "it_macchi", P["Garian"])
    err = refused(s, AXIS, f"rail de_stuka {P['Garian']} goering")
    assert err.rule == "BIA 3.4.1"
    s2, ev = order(s, AXIS, f"rail de_stuka {P['Zuara']} goering")
    assert s2.blocks["de_stuka"].at == P["Zuara"] and s2.leader_ap == {"goering": ["srm"]}
    assert hq.ap_left(B, s2, "hitler") == 2 and hq.ap_left(B, s2, "goering") == 0
    assert "Goering spends 1 AP" in public(ev, f"rail de_stuka {P['Zuara']} goering")


def test_the_me_air_command_rails_a_british_air_unit_and_is_activated():
    """L2080-2092: the ME Air Command, activated in the SRM Phase, can SRM one air unit:
    it is laid face up with its AP (AR 11.3) and one is spent; the order is read by the
    others with both tokens. It pays for no ground unit."""
    s = srm_phase(side=ALLIED)
    put(s, "uk_meac", P["Cairo"], 3)
    put(s, "uk_daf", ALEXANDRIA)
    put(s, "uk_9aus", ALEXANDRIA)
    err = refused(s, ALLIED, f"rail uk_9aus {SUEZ} uk_meac")
    assert err.rule == "BIA 11.2" and "air unit of its own power only" in err.reason
    text = f"rail uk_daf {SUEZ} uk_meac"
    s2, ev = order(s, ALLIED, text)
    meac = s2.blocks["uk_meac"]
    assert s2.blocks["uk_daf"].at == SUEZ and meac.revealed and s2.hq_active["uk_meac"] == 2
    assert s2.leader_ap == {}
    seen = public(ev, text)
    assert s2.blocks["uk_daf"].token in seen and meac.token in seen and "uk_daf" not in seen


def test_the_order_reads_back_and_every_offered_srm_is_accepted():
    """'rail BLOCK HEX' keeps its meaning; 'rail BLOCK HEX LEADER' reads back the same.
    Under the advanced rules the SRM Phase offers each unit's PP and AP payments, and
    every one offered is accepted."""
    assert parse_order(f"rail de_la {TARANTO}") == Rail(block="de_la", to=TARANTO)
    o = parse_order(f"rail de_la {TARANTO} hitler")
    assert o.by == "hitler" and parse_order(o.text()) == o
    s = srm_phase()
    put(s, "de_dak", TARANTO)
    put(s, "it_10c", TRIPOLI)
    offered = srm.rail_orders(Ctx(B, s, None))
    assert {o.by for o in offered} == {None, "hitler", "mussolini"}
    for o in offered[::7]:
        RULES.apply(s, AXIS, o, ScriptedDice([]))
