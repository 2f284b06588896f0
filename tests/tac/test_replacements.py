"""Replacements, rebuilding, breakdown and buildup, ports (TAC 10.0-10.8, 11.1-11.5,
12.1-12.4), with the example of 10.5 and the digest's quick checks."""

from __future__ import annotations

from engine.core.dice import ScriptedDice
from engine.games.tac import replace
from engine.games.tac.state import ALLIED, AXIS
from tests.tac.kit import B, R, empty, go, put, refused

ALEXANDRIA, TOBRUK, BENGHAZI, EL_AGHEILA, WEST = "1476", "1048", "0928", "0815", "0601"


def test_a_replacement_adds_a_step_and_ends_the_units_move():
    s = empty(ALLIED, turn=21)
    put(s, "au_6", ALEXANDRIA, step=2)
    s.replacements = {"allied_infantry": 1}
    s, ev = go(s, ALLIED, "replace au_6")
    assert s.units["au_6"].step == 1 and s.replacements["allied_infantry"] == 0
    assert "au_6" in s.replaced and "au_6" in s.moved
    s.replacements["allied_infantry"] = 1
    refused(s, ALLIED, "replace au_6", "TAC 10.0")  # one a turn
    s.moved.discard("au_6")
    refused(s, ALLIED, "move au_6 1475", "TAC 10.0")  # may not move on


def test_a_unit_that_took_a_replacement_may_not_attack():
    s = empty(ALLIED, turn=21, phase="combat")
    put(s, "au_6", "1475", step=1)
    put(s, "ge_90", "1474")
    s.replaced.add("au_6")
    refused(s, ALLIED, "attack au_6 1474", "TAC 10.0")
    assert R.legal_orders(s, ALLIED)[-1].verb == "done"  # and no attack is owed for it


def test_replacements_only_out_of_enemy_zones_and_where_counters_land():
    s = empty(ALLIED, turn=21)
    s.replacements = {"allied_infantry": 2}
    put(s, "au_6", "1300", step=1)
    assert "not at one" in refused(s, ALLIED, "replace au_6", "TAC 10.0")
    put(s, "au_6", ALEXANDRIA, step=1)
    put(s, "ge_90", "1475")
    refused(s, ALLIED, "replace au_6", "TAC 10.0")


def test_example_of_10_5_armour_regains_its_top_step_only_with_armour():
    """21st Panzer at 7-7 with a German infantry replacement stays 7-7; at 5-7 it is
    rebuilt to 7-7; only an armour replacement makes it a 9-8."""
    s = empty(AXIS, turn=21)
    put(s, "ge_21pz", WEST, step=1)
    s.replacements = {"axis_german_infantry": 1}
    refused(s, AXIS, "replace ge_21pz", "TAC 10.5")
    s.units["ge_21pz"].step = 2
    s2, _ = go(s, AXIS, "replace ge_21pz")
    assert B.units["ge_21pz"].steps[s2.units["ge_21pz"].step] == "7-7"
    s.units["ge_21pz"].step = 1
    s.replacements = {"axis_german_armour": 1}
    s3, _ = go(s, AXIS, "replace ge_21pz")
    assert B.units["ge_21pz"].steps[s3.units["ge_21pz"].step] == "9-8"


def test_german_replacements_do_not_rebuild_italian_units():
    """10.4; Allied replacements serve every Allied nationality."""
    s = empty(AXIS, turn=21)
    put(s, "it_102", WEST, step=1)
    s.replacements = {"axis_german_infantry": 1}
    refused(s, AXIS, "replace it_102", "TAC 10.4")
    assert replace.kinds(B, "in_4", False) == ["allied_infantry", "allied_armour"]


def test_tobruk_port_rolls_for_a_replacement():
    """12.1: 4 or 5 delays the counter (kept for next turn), 6 sinks it."""
    s = empty(ALLIED, turn=21)
    put(s, "uk_70", TOBRUK, step=1)
    s.control[TOBRUK] = ALLIED
    s.replacements = {"allied_infantry": 1}
    s2, ev = go(s, ALLIED, "replace uk_70", dice=[4])
    assert (
        s2.units["uk_70"].step == 1
        and s2.replacements["allied_infantry"] == 1
        and "delayed" in ev[0].text
    )
    s3, ev = go(s, ALLIED, "replace uk_70", dice=[6])
    assert (
        s3.units["uk_70"].step == 1
        and s3.replacements["allied_infantry"] == 0
        and "sunk" in ev[0].text
    )
    s4, _ = go(s, ALLIED, "replace uk_70", dice=[3])
    assert s4.units["uk_70"].step == 0


def test_benghazi_delays_on_a_5_only():
    s = empty(AXIS, turn=21)
    put(s, "it_102", BENGHAZI, step=1)
    s.control[BENGHAZI] = AXIS
    s.replacements = {"axis_italian_infantry": 1}
    s2, _ = go(s, AXIS, "replace it_102", dice=[4])
    assert s2.units["it_102"].step == 0
    s3, ev = go(s, AXIS, "replace it_102", dice=[5])
    assert s3.units["it_102"].step == 1 and "delayed" in ev[0].text


def test_rebuilding_takes_three_replacements_at_the_home_city():
    """10.7: eliminated units come back at their lowest step, at Alexandria or El Agheila."""
    s = empty(ALLIED, turn=21)
    s.units["au_6"].where = "dead"
    s.replacements = {"allied_infantry": 2}
    refused(s, ALLIED, "rebuild au_6", "TAC 10.7")
    s.replacements = {"allied_infantry": 2, "allied_armour": 1}
    s2, _ = go(s, ALLIED, "rebuild au_6")
    u = s2.units["au_6"]
    assert (u.where, u.hex, B.units["au_6"].steps[u.step]) == ("map", ALEXANDRIA, "2-6")
    assert s2.replacements == {"allied_infantry": 0, "allied_armour": 0}
    s = empty(AXIS, turn=21)
    s.units["it_102"].where = "dead"
    s.replacements = {"axis_italian_infantry": 3}
    s.control[EL_AGHEILA] = ALLIED
    refused(s, AXIS, "rebuild it_102", "TAC 10.7")
    s.control[EL_AGHEILA] = AXIS
    s3, _ = go(s, AXIS, "rebuild it_102")
    assert s3.units["it_102"].hex == EL_AGHEILA


def test_an_eliminated_hq_returns_on_a_6():
    from engine.games.tac import turn

    s = empty(AXIS, turn=22, phase="reinforce")
    s.units["ge_dak"].where = "dead"
    turn.reinforce(B, s, ScriptedDice([3]))
    assert s.units["ge_dak"].where == "dead"
    turn.reinforce(B, s, ScriptedDice([6]))
    assert s.units["ge_dak"].where == "tripoli"


def test_replacements_beyond_the_counters_are_lost():
    """10.1: the Axis has 9 replacement counters."""
    s = empty(AXIS, turn=22)
    s.replacements = {"axis_german_infantry": 6, "axis_italian_infantry": 5}
    ev = replace.cap_pool(B, s)
    assert sum(s.replacements.values()) == 9 and "2 Axis replacement(s) lost" in ev[0].text


def test_example_of_11_1_the_7th_armoured_breaks_into_three():
    s = empty(ALLIED, turn=21)
    put(s, "uk_7armd", "1300")
    s2, _ = go(s, ALLIED, "breakdown uk_7armd")
    assert s2.units["uk_7armd"].where == "pool"
    assert {u: s2.units[u].hex for u in ("uk_4armd", "uk_7armdbde", "uk_7sg")} == dict.fromkeys(
        ("uk_4armd", "uk_7armdbde", "uk_7sg"), "1300"
    )
    s.units["uk_7armd"].step = 1
    refused(s, ALLIED, "breakdown uk_7armd", "TAC 11.1")
    refused(s, ALLIED, "breakdown au_6", "TAC 11.1")


def test_buildup_needs_the_components_together_and_takes_their_strength():
    """11.2, 11.2.1: 3-6, 2-6 (reduced 7th Armoured Brigade) and 2-6 total 7: the
    division comes back at the highest step not above 7, 6-6."""
    s = empty(ALLIED, turn=21)
    put(s, "uk_7armd", "1300")
    s, _ = go(s, ALLIED, "breakdown uk_7armd")
    s.units["uk_7sg"].hex = "1301"
    refused(s, ALLIED, "buildup uk_7armd", "TAC 11.2")
    s.units["uk_7sg"].hex = "1300"
    s.units["uk_7armdbde"].step = 1
    s2, _ = go(s, ALLIED, "buildup uk_7armd")
    assert B.units["uk_7armd"].steps[s2.units["uk_7armd"].step] == "6-6"
    assert {s2.units[c].where for c in ("uk_4armd", "uk_7armdbde", "uk_7sg")} == {"pool"}


def test_first_armoured_division_adds_the_lancers_the_first_time():
    """11.4: the three brigades together become the 7-6 with the Lancers."""
    s = empty(ALLIED, turn=27)
    for c in ("uk_2armdbde", "uk_22armd", "uk_201gds"):
        put(s, c, "1300")
    s2, _ = go(s, ALLIED, "buildup uk_1armd")
    assert B.units["uk_1armd"].steps[s2.units["uk_1armd"].step] == "7-6"
    s2.moved.clear()
    s3, _ = go(s2, ALLIED, "breakdown uk_1armd")
    assert s3.units["uk_lancers"].hex == "1300"


def test_new_zealand_7_6_from_turn_43():
    s = empty(ALLIED, turn=42)
    put(s, "nz_2", "1300")
    put(s, "uk_22armd", "1300")
    refused(s, ALLIED, "buildup nz_2_7", "TAC 11.5")
    s.turn = 43
    s.units["uk_22armd"].step = 1
    refused(s, ALLIED, "buildup nz_2_7", "TAC 11.5")
    s.units["uk_22armd"].step = 0
    s2, _ = go(s, ALLIED, "buildup nz_2_7")
    assert s2.units["nz_2_7"].hex == "1300" and s2.units["nz_2"].where == "removed"


def test_sailing_from_tobruk():
    """12.1: a 4 or 5 delays the unit for the turn; a 6 costs a step; otherwise it reaches
    Alexandria."""
    s = empty(ALLIED, turn=21)
    put(s, "uk_70", TOBRUK)
    s.control[TOBRUK] = ALLIED
    s2, _ = go(s, ALLIED, "sail uk_70", dice=[2])
    assert s2.units["uk_70"].hex == ALEXANDRIA and "uk_70" in s2.moved
    s3, _ = go(s, ALLIED, "sail uk_70", dice=[5])
    assert s3.units["uk_70"].hex == TOBRUK and "uk_70" in s3.moved
    s4, _ = go(s, ALLIED, "sail uk_70", dice=[6])
    assert (s4.units["uk_70"].hex, s4.units["uk_70"].step) == (ALEXANDRIA, 1)
    s.control[TOBRUK] = AXIS
    put(s, "uk_70", "1047")
    refused(s, ALLIED, "sail uk_70", "TAC 12.1")


def test_a_withdrawal_below_its_strength_is_topped_up_then_paid_by_another_division():
    """7.3: the 4th Indian (withdrawing Turn 2 at 4-6 or more) at 2-6 takes the one
    replacement there is, then another Allied division gives the last step."""
    from engine.games.tac import turn

    s = empty(ALLIED, turn=2, phase="reinforce")
    put(s, "in_4", "1362", step=3)
    put(s, "uk_7armd", "1363")
    s.replacements = {"allied_infantry": 1}
    ev = turn._withdraw(B, s)
    assert (
        s.units["in_4"].where == "withdrawn"
        and B.units["in_4"].steps[s.units["in_4"].step] == "4-6"
    )
    assert s.replacements["allied_infantry"] == 0 and s.units["uk_7armd"].step == 1
    assert [e.text.split(" ")[0] for e in ev][-1] == "4th"


def test_a_destroyed_unit_due_to_withdraw_is_replaced_by_one_as_strong():
    """7.4: the 6th Australian (due Turn 7 at 4-6) is gone: an Allied unit of 4 or more
    leaves for good in its place; a substitute for a returning unit comes back with it."""
    from engine.games.tac import turn

    s = empty(ALLIED, turn=7, phase="reinforce")
    s.units["au_6"].where = "dead"
    put(s, "uk_16", "1362")  # 2-6: too weak
    put(s, "au_9", "1363")  # 5-6
    ev = turn._withdraw(B, s)
    assert s.units["au_9"].where == "removed" and s.units["uk_16"].where == "map"
    assert "in its place" in ev[-1].text
    s = empty(ALLIED, turn=2, phase="reinforce")
    s.units["in_4"].where = "dead"
    put(s, "au_9", "1363")
    turn._withdraw(B, s)
    assert s.substitutes == {"au_9": 13}
    s.turn = 13
    put(s, "au_7", "1475")  # due to leave on Turn 13 itself
    turn.reinforce(B, s, ScriptedDice([]))
    assert (
        s.units["au_9"].where == "map"
        and s.substitutes == {}
        and s.units["au_7"].where == "removed"
    )
