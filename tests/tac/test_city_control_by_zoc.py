"""Gaining cities through zones of control (TAC 13.3 L637; RULINGS R44): a city empty of
both sides becomes the side's whose zone alone lies on it, keeps its record while both
zones lie on it (neither controls it then), and no zone reaches into a fort (4.1, L1067)."""

from __future__ import annotations

from engine.core.dice import ScriptedDice
from engine.games.tac import supply
from engine.games.tac.state import ALLIED, AXIS
from tests.tac.kit import B, R, empty, go, put

DERNA, TOBRUK = "0840", "1048"


def test_a_city_in_one_side_s_zone_only_becomes_that_side_s():
    s = empty(ALLIED, turn=20)
    assert s.control[DERNA] == AXIS and supply.controls(B, s, AXIS, DERNA)
    put(s, "au_9", "1041")
    s2, _ = go(s, ALLIED, "move au_9 0941")  # next to Derna: its zone covers the city
    assert s2.control[DERNA] == ALLIED
    assert supply.controls(B, s2, ALLIED, DERNA) and not supply.controls(B, s2, AXIS, DERNA)
    # 13.3: a unit next to a city its side controls is in supply
    assert "0941" in supply.supplied_hexes(B, s2, ALLIED)
    # the unit leaves: the record stays Allied (the last to have it in its zone)
    s2.moved.clear()
    s3, _ = go(s2, ALLIED, "move au_9 1041")
    assert s3.control[DERNA] == ALLIED and supply.controls(B, s3, ALLIED, DERNA)


def test_a_city_in_both_zones_keeps_its_record_and_neither_controls_it():
    s = empty(ALLIED, turn=20)
    put(s, "it_60", "0839")  # an Axis zone on Derna
    put(s, "au_9", "1041")
    s2, _ = go(s, ALLIED, "move au_9 0941")  # stops in the Axis zone (4.3.2), both zones on Derna
    assert s2.control[DERNA] == AXIS
    assert not supply.controls(B, s2, ALLIED, DERNA) and not supply.controls(B, s2, AXIS, DERNA)
    # the Axis unit is gone (destroyed elsewhere, say): the Allied zone alone takes the city
    s2.units["it_60"].where, s2.units["it_60"].hex = "dead", None
    s3, _ = go(s2, ALLIED, "done")
    assert s3.control[DERNA] == ALLIED


def test_a_unit_with_no_combat_factor_or_a_fort_takes_no_city_by_its_zone():
    s = empty(ALLIED, turn=20)
    put(s, "au_9", "1049")  # next to Tobruk, a fort: no zone reaches into it (4.1)
    s2, _ = go(s, ALLIED, "done")
    assert s2.control[TOBRUK] == AXIS and supply.controls(B, s2, AXIS, TOBRUK)


def test_occupying_a_city_by_advance_or_arrival_records_it_too():
    """13.3 "occupies": the record follows whoever stands in the city after any order,
    not only after a move (a rebuilt or arriving unit, an advance after combat)."""
    s = empty(ALLIED, turn=20)
    put(s, "au_9", DERNA)
    s2, _ = go(s, ALLIED, "done")
    assert s2.control[DERNA] == ALLIED


def test_set_up_records_the_zones_of_the_opening_position():
    s = R.setup("campaign", {}, ScriptedDice([]))
    for h in B.cities:
        here = {u.side for u in s.at(h)}
        if len(here) == 1:
            assert s.control[h] == next(iter(here))
