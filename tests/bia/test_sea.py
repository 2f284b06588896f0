"""BIA Sea Transport and the Mine Die Roll (7.5.4, L1376-1389, L1405-1429; new units from
home, L1103-1124, L1191-1206): port to port on one body of water, one crossing per power
per turn, the MDR with scripted dice, the worked examples of the LA (L2179-2181) and the
DAK (L1287-1296), the British route by South Africa, and refusals that name the rule and
change nothing."""

from __future__ import annotations

from engine.core.events import PUBLIC, lines_for, order_line
from engine.games.bia import sea
from engine.games.bia.board import ALLIED, AXIS
from engine.games.bia.context import Ctx
from engine.games.bia.orders import Ship
from tests.bia.test_combat import RULES, B, bare, order, put, refused, value

P = B.pack.places
TARANTO, BENGASI, TRIPOLI, ATHENS = P["Taranto"], P["Bengasi"], P["Tripoli"], P["Athens"]
SUEZ, ALEXANDRIA = P["Suez"], P["Alexandria"]


def test_the_la_crosses_from_taranto_to_bengasi_and_loses_a_step_on_a_5():
    """L2179-2181: the LA sails Taranto -> Bengasi, the MDR is 5 and the LA goes down to
    2 steps. The enemy reads the token, the ports and the roll, not the block."""
    s = bare()
    put(s, "de_la", TARANTO, value=3)
    assert Ship(block="de_la", to=BENGASI) in RULES.legal_orders(s, AXIS)
    s2, ev = order(s, AXIS, f"ship de_la {BENGASI}", dice=[5])
    la = s2.blocks["de_la"]
    assert (la.where, la.at, value(s2, "de_la")) == ("map", BENGASI, 2)
    assert "de_la" in s2.moved  # it moves no farther this phase (L1381-1382)
    assert "already moved" in refused(s2, AXIS, f"move de_la {P['Derna']}").reason
    for audience in (ALLIED, PUBLIC):
        seen = " ".join(lines_for(ev, audience))
        seen += order_line(f"ship de_la {BENGASI}", ev, audience) or ""
        assert la.token in seen and "mine die roll 5" in seen and "loses 1 step" in seen
        assert "de_la" not in seen and B.block("de_la").name not in seen


def test_the_mine_die_1_to_3_safe_6_destroyed_and_the_last_step_lost():
    """L1411-1429: 1-3 the unit arrives whole; 6 it is lost; a 4 or 5 on its last step
    ends it too (3.18, RULINGS B59)."""
    s = bare()
    put(s, "de_la", TARANTO, value=4)
    s2, _ = order(s, AXIS, f"ship de_la {TRIPOLI}", dice=[3])
    assert (s2.blocks["de_la"].at, value(s2, "de_la")) == (TRIPOLI, 4)
    s3, ev = order(s, AXIS, f"ship de_la {TRIPOLI}", dice=[6])
    assert s3.blocks["de_la"].where == "dead" and "lost at sea" in " ".join(lines_for(ev, ALLIED))
    put(s, "de_la", TARANTO, value=1)
    s4, _ = order(s, AXIS, f"ship de_la {TRIPOLI}", dice=[4])
    assert s4.blocks["de_la"].where == "dead"


def test_one_sea_transport_per_power_per_turn_and_only_from_port_to_port():
    """One crossing per power (RULINGS B57); the unit starts in a port, the destination
    is a friendly port on the same body of water (L1377-1380)."""
    s = bare()
    put(s, "de_la", TARANTO, value=3)
    put(s, "de_dak", TARANTO)
    put(s, "it_10c", P["Bari"])
    s2, _ = order(s, AXIS, f"ship de_la {BENGASI}", dice=[1])
    err = refused(s2, AXIS, f"ship de_dak {TRIPOLI}")
    assert err.rule == "BIA 7.5.4" and "one Sea Transport" in err.reason
    assert not [o for o in RULES.legal_orders(s2, AXIS) if o.verb == "ship" and o.block == "de_dak"]
    order(s2, AXIS, f"ship it_10c {TRIPOLI}", dice=[2])  # Italy has its own
    put(s, "it_21c", "1520")
    assert "not in a port" in refused(s, AXIS, f"ship it_21c {TRIPOLI}").reason
    assert "not a port" in refused(s, AXIS, "ship de_dak 1520").reason
    assert "not a friendly port" in refused(s, AXIS, f"ship de_dak {ALEXANDRIA}").reason
    err = refused(s, AXIS, f"ship de_dak {P['Baku']}")
    assert err.rule == "BIA 7.5.4"


def test_moved_blocks_enemy_blocks_and_resident_units_may_not_sail():
    s = bare()
    put(s, "de_dak", BENGASI)
    put(s, "it_static_tripoli", TRIPOLI)
    s2, _ = order(s, AXIS, "move de_dak 1616")
    assert "already moved" in refused(s2, AXIS, f"ship de_dak {TRIPOLI}").reason
    err = refused(s, AXIS, f"ship it_static_tripoli {TARANTO}")
    assert "never leaves AFRIKA" in err.reason
    order(s, AXIS, f"ship it_static_tripoli {BENGASI}", dice=[1])  # static units may sail
    put(s, "uk_9aus", P["Tobruk"])
    a = refused(s, AXIS, f"ship uk_9aus {BENGASI}").reason.replace("uk_9aus", "X")
    assert a == refused(s, AXIS, f"ship nobody {BENGASI}").reason.replace("nobody", "X")


def test_the_dak_crosses_from_berlin_with_the_srm_and_exploits_from_bengasi():
    """L1287-1296: the DAK leaves Berlin by SRM and Sea Transport to Bengasi (MDR), and
    moves again in the Exploitation Phase. Here the two are one order from the home
    box, which takes Germany's SRM of the turn (RULINGS B58)."""
    s = bare()
    dak = s.blocks["de_dak"]
    dak.where, dak.at = "box", "berlin"
    s2, ev = order(s, AXIS, f"ship de_dak {BENGASI}", dice=[2])
    assert (s2.blocks["de_dak"].where, s2.blocks["de_dak"].at) == ("map", BENGASI)
    assert s2.srm_used == ["germany"] and "Berlin" in " ".join(lines_for(ev, PUBLIC))
    s.srm_used = ["germany"]
    assert "made its SRM" in refused(s, AXIS, f"ship de_dak {BENGASI}").reason
    s.srm_used = []
    s.control[P["Basra"]] = AXIS  # a friendly port, but not on the Mediterranean
    assert "Mediterranean" in refused(s, AXIS, f"ship de_dak {P['Basra']}").reason
    s2.phase = "exploitation"
    s2.moved, s2.barred = [], []
    assert any(
        o.verb == "move"
        for o in RULES.legal_orders(s2, AXIS)
        if getattr(o, "block", "") == "de_dak"
    )


def test_british_units_stop_in_south_africa_then_reach_an_indian_ocean_port():
    """L1191-1199: London -> Atlantic (MDR) -> South Africa, where they stop; in a later
    turn on to Suez, Aqaba, Basra or Abadan with no MDR. After the Dieppe Raid (turn 37,
    RULINGS D9) London -> an Indian Ocean port in one turn, with the Atlantic MDR."""
    s = bare(side=ALLIED)
    b = s.blocks["uk_9aus"]
    b.where, b.at = "box", "london"
    assert "Dieppe" in refused(s, ALLIED, f"ship uk_9aus {SUEZ}").reason
    s2, _ = order(s, ALLIED, "ship uk_9aus south_africa", dice=[1])
    assert (s2.blocks["uk_9aus"].where, s2.blocks["uk_9aus"].at) == ("box", "south_africa")
    s2.shipped, s2.moved = {}, []  # a later turn
    assert "Indian Ocean" in refused(s2, ALLIED, f"ship uk_9aus {ALEXANDRIA}").reason
    s3, ev = order(s2, ALLIED, f"ship uk_9aus {SUEZ}")  # no die: none is rolled
    assert s3.blocks["uk_9aus"].at == SUEZ and "no mine die roll" in " ".join(lines_for(ev, PUBLIC))
    s.turn = B.pack.strategic.dieppe_raid_turn + 1
    s4, _ = order(s, ALLIED, f"ship uk_9aus {SUEZ}", dice=[5])
    assert s4.blocks["uk_9aus"].at == SUEZ and value(s4, "uk_9aus") == value(s, "uk_9aus") - 1


def test_an_air_unit_sails_to_a_free_airfield_only():
    s = bare(side=ALLIED)
    put(s, "uk_daf", ALEXANDRIA)
    put(s, "uk_aasf", P["Haifa"])
    assert "air units" in refused(s, ALLIED, f"ship uk_daf {P['Haifa']}").reason
    s2, _ = order(s, ALLIED, f"ship uk_daf {P['Port Said']}", dice=[1])
    assert s2.blocks["uk_daf"].at == P["Port Said"]


def test_sea_transport_orders_offered_are_all_accepted():
    s = bare()
    put(s, "de_la", TARANTO, value=3)
    ships = sea.ship_orders(Ctx(B, s, None))
    assert ships and all(o.to in B.ports and B.ports[o.to] for o in ships)
    assert "ship" in RULES.prompt(s).verbs
