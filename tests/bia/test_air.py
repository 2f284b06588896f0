"""BIA Air Transfer (7.5, L1334-1348; 3.4.1, L299-309; 4.4, L697-699): airfield to
airfield within the Play Aid range, doubled in supply and halved out of it, one air unit
per airfield, tokens only for the enemy. Refusals name the rule and change nothing."""

from __future__ import annotations

from engine.core.events import PUBLIC, lines_for, order_line
from engine.games.bia import air, combat
from engine.games.bia.board import ALLIED, AXIS
from engine.games.bia.pack import distance
from tests.bia.test_combat import RULES, B, bare, order, put, refused

P = B.pack.places
BENGASI, DERNA, TRIPOLI = P["Bengasi"], P["Derna"], P["Tripoli"]


def stuka_at_bengasi():
    s = bare()  # BIA6, June 1942: the Stuka is a TECH 2 bomber, range 10
    put(s, "de_stuka", BENGASI)
    return s


def test_a_supplied_air_unit_transfers_within_double_its_range():
    """L1348: supplied, the Stuka's 10 hexes become 20: Bengasi to Tripoli (9 hexes and
    more) is in reach, and every airfield offered is a friendly city or bunker."""
    s = stuka_at_bengasi()
    b = s.blocks["de_stuka"]
    assert air.transfer_range(B, s, b) == 2 * B.pack.tables.air_range["bomber"]["2"]
    fields = air.airfields(B, s, b)
    assert TRIPOLI in fields and DERNA in fields and BENGASI not in fields
    for h in fields:
        assert s.control[h] == AXIS and distance(BENGASI, h) <= 20
        assert B.pack.tables.localities[combat.locality(B, s, h)].airfield
    s2, ev = order(s, AXIS, f"fly de_stuka {TRIPOLI}")
    assert s2.blocks["de_stuka"].at == TRIPOLI
    token = b.token
    for audience in (ALLIED, PUBLIC):
        seen = " ".join(lines_for(ev, audience)) + (
            order_line(f"fly de_stuka {TRIPOLI}", ev, audience) or ""
        )
        assert token in seen and "de_stuka" not in seen and "Stuka" not in seen
    assert "fly" in RULES.prompt(s2).verbs
    assert "already moved" in refused(s2, AXIS, f"fly de_stuka {DERNA}").reason  # once a phase


def test_an_air_unit_out_of_supply_flies_half_its_range():
    """4.4 (L697-699): out of supply only a transfer, at half range (10 // 2 = 5)."""
    s = stuka_at_bengasi()
    s.blocks["de_stuka"].oos = True
    fields = air.airfields(B, s, s.blocks["de_stuka"])
    assert fields and all(distance(BENGASI, h) <= 5 for h in fields)
    assert TRIPOLI not in fields
    err = refused(s, AXIS, f"fly de_stuka {TRIPOLI}")
    assert err.rule == "BIA 7.5" and "within 5 hexes" in err.reason


def test_one_air_unit_per_airfield_and_never_an_enemy_hex():
    """3.4.1 (L305): only one air unit per airfield; an airfield the enemy holds or stands
    in is no landing place."""
    s = stuka_at_bengasi()
    put(s, "it_rex", DERNA)
    assert DERNA not in air.airfields(B, s, s.blocks["de_stuka"])
    refused(s, AXIS, f"fly de_stuka {DERNA}")
    tobruk = P["Tobruk"]
    assert s.control[tobruk] == ALLIED
    refused(s, AXIS, f"fly de_stuka {tobruk}")
    put(s, "uk_7armd", TRIPOLI)  # an enemy block in the hex
    assert TRIPOLI not in air.airfields(B, s, s.blocks["de_stuka"])


def test_ground_units_do_not_fly_and_enemy_air_units_read_as_nobody():
    s = stuka_at_bengasi()
    put(s, "de_dak", BENGASI)
    put(s, "uk_7armd", P["Alexandria"])
    refused(s, AXIS, f"fly de_dak {DERNA}")
    foe = s.blocks["uk_7armd"]
    a = refused(s, AXIS, f"fly {foe.id} {DERNA}").reason.replace(foe.id, "X")
    assert a == refused(s, AXIS, f"fly nobody {DERNA}").reason.replace("nobody", "X")
