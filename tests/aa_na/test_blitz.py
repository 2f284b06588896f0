"""Blitzing (Tanks, Mechanized Infantry, and Blitzing, L644-648; Capturing Trucks,
L744-748): the digest's test scenario T14 on the real board."""

from __future__ import annotations

import pytest

from engine.core.errors import IllegalOrder
from tests.aa_na.helpers import R, at, play, position


def refused(s, role, text, rule_word):
    before = R.dump_state(s)
    with pytest.raises(IllegalOrder) as e:
        play(s, role, text)
    assert rule_word in e.value.rule, e.value.rule
    assert R.dump_state(s) == before
    return e.value


def t14():
    """A German tank and mechanized infantry in Agedabia; Benghazi is British with no
    British combat units but a British truck; British infantry hold Derna."""
    return position(
        "ger", "combat_move",
        [("ger", "ger.tank", "agedabia", 1), ("ger", "ger.mech_infantry", "agedabia", 2),
         ("ger", "ger.infantry", "agedabia", 1),
         ("uk", "uk.truck", "benghazi", 1), ("uk", "uk.infantry", "derna", 1)],
        supply={"agedabia": 2}, control={"benghazi": "uk", "tripoli": "ita"},
    )  # fmt: skip


def test_t14_blitz_takes_control_captures_the_truck_and_may_attack():
    s = t14()
    s, ev = play(s, "axis", "blitz 1 tank 1 mech agedabia benghazi")
    assert s.control["benghazi"] == "ger"
    assert at(s, "benghazi") == {"ger.tank": 1, "ger.mech_infantry": 1, "uk.truck": 1}
    truck = next(u for u in s.units if u.type == "uk.truck")
    assert truck.power == "ger" and truck.captured  # Allied trucks change owner (L748)
    assert "captured" in ev[0].text
    # they are in attack position against Derna and must attack (L688)
    refused(s, "axis", "done", "Declaration")
    s, _ = play(s, "axis", "declare benghazi derna pay agedabia")
    s, _ = play(s, "axis", "done")
    assert s.phase == "combat"


def test_t14_no_other_unit_combat_moves_through_a_blitzed_territory():
    s = t14()
    s, _ = play(s, "axis", "blitz 1 tank 1 mech agedabia benghazi")
    refused(s, "axis", "move 1 mech agedabia benghazi", "Blitzing")


def test_a_blitz_that_moves_on_need_not_attack():
    s = t14()
    s.units = [u for u in s.units if u.at != "derna"]
    s, _ = play(s, "axis", "blitz 1 tank agedabia benghazi derna")
    assert at(s, "derna") == {"ger.tank": 1}
    s, _ = play(s, "axis", "done")
    assert s.phase == "combat"


def test_blitz_refusals():
    s = t14()
    refused(s, "axis", "blitz 1 tank 2 mech agedabia benghazi", "Blitzing")  # 1 mech per tank (L648)
    refused(s, "axis", "blitz 1 mech agedabia benghazi", "Blitzing")  # mech never blitzes alone
    refused(s, "axis", "blitz 1 inf agedabia benghazi", "Blitzing")
    refused(s, "axis", "blitz 1 tank agedabia derna", "Blitzing")  # not adjacent
    e = refused(s, "axis", "blitz 1 tank agedabia bir_hacheim", "Blitzing")  # neutral, no trucks
    assert "neutral" in e.reason
    s.new_unit("uk.infantry", "uk", "benghazi")
    refused(s, "axis", "blitz 1 tank agedabia benghazi", "Blitzing")  # enemy combat units there


def test_blitz_into_a_neutral_territory_with_enemy_trucks_leaves_it_neutral():
    s = position("uk", "combat_move",
                 [("uk", "uk.tank", "siwa", 1), ("ger", "ger.truck", "bir_hacheim", 1)], round_=4)
    s.units[0].type = "uk.sherman"
    s, _ = play(s, "allies", "blitz 1 sherman siwa bir_hacheim mersa_matruh")
    assert "bir_hacheim" not in s.control
    # the Axis truck is replaced by a British one (L748)
    assert at(s, "bir_hacheim") == {"uk.truck": 1}
    assert at(s, "mersa_matruh") == {"uk.sherman": 1}
