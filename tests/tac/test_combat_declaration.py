"""Declaring attacks in the Combat Phase (TAC 9.0): compulsory combat, one attack per
unit and per defending hex, forts (9.5), prohibited hexsides (8.2.7), Strategic Movement
(8.5.3), odds (9.6) and the Allied +2 of December 1940 (17.4)."""

from __future__ import annotations

import pytest

from engine.core.dice import ScriptedDice
from engine.core.errors import IllegalOrder
from engine.games.tac.rules import TheAfricanCampaign
from engine.games.tac.state import ALLIED, AXIS, State

R = TheAfricanCampaign()


def combat_phase(player: str = AXIS, turn: int = 20) -> State:
    s = R.setup("campaign", {}, ScriptedDice([]))
    for u in s.units.values():
        u.where, u.hex = "pool", None
    s.units["ge_ramcke"].where = "tripoli"  # one Axis unit in play, off the map (3.0)
    s.turn, s.player, s.phase = turn, player, "combat"
    return s


def put(s: State, uid: str, h: str) -> None:
    s.units[uid].where, s.units[uid].hex = "map", h


def go(s: State, role: str, text: str):
    return R.apply(s, role, R.parse_order(text), ScriptedDice([]))


def refused(s: State, role: str, text: str, rule: str) -> None:
    before = s.to_dict()
    with pytest.raises(IllegalOrder) as e:
        go(s, role, text)
    assert e.value.rule == rule, str(e.value)
    assert s.to_dict() == before


def test_example_of_9_7_odds():
    """21st Panzer (9-8) against 2nd Armoured (4-6): 9 to 4, 2-1."""
    s = combat_phase()
    put(s, "ge_21pz", "1126")
    put(s, "uk_2armd", "1127")
    s2, ev = go(s, AXIS, "attack ge_21pz 1127")
    assert (ev[0].data["attack"], ev[0].data["defence"], ev[0].data["odds"]) == (9, 4, "2-1")
    assert s2.battles == [{"attackers": ["ge_21pz"], "targets": ["1127"]}]


def test_combat_is_compulsory_for_every_adjacent_unit_and_enemy():
    s = combat_phase()
    put(s, "ge_90", "1126")
    put(s, "ge_8pz", "1126")
    put(s, "uk_2armd", "1127")
    put(s, "uk_22gds", "1026")
    refused(s, AXIS, "done", "TAC 9.0")
    # units in one hex may fight two battles (9.0)
    s2, _ = go(s, AXIS, "attack ge_90 1127")
    refused(s2, AXIS, "done", "TAC 9.0")
    assert "1026" in R.prompt(s2).text
    s3, _ = go(s2, AXIS, "attack ge_8pz 1026")
    s4, _ = go(s3, AXIS, "done")
    assert (s4.turn, s4.player, s4.phase) == (20, AXIS, "resolve")
    assert len(s4.battles) == 2 and R.prompt(s4).verbs == ["resolve"]


def test_attacks_sharing_a_unit_or_hex_combine():
    s = combat_phase()
    put(s, "ge_90", "1126")
    put(s, "ge_8pz", "1126")
    put(s, "uk_2armd", "1127")
    put(s, "uk_22gds", "1026")
    s2, _ = go(s, AXIS, "attack ge_90 1127")
    refused(s2, AXIS, "attack ge_8pz 1125", "TAC 9.0")  # no enemy there
    # naming 1127 again adds the 8th Panzer to that attack: one battle per defender (R16)
    s3, ev = go(s2, AXIS, "attack ge_8pz 1127")
    assert s3.battles == [{"attackers": ["ge_90", "ge_8pz"], "targets": ["1127"]}]
    # naming the 90th with 1026 makes one combined attack on both hexes (9.0)
    s4, _ = go(s3, AXIS, "attack ge_90 1026")
    assert s4.battles == [{"attackers": ["ge_90", "ge_8pz"], "targets": ["1127", "1026"]}]
    assert ev[0].data["attack"] == 9


def test_attacker_must_be_adjacent_and_not_across_prohibited_hexside():
    s = combat_phase(player=ALLIED)
    put(s, "uk_22gds", "1043")
    put(s, "it_102", "1044")
    refused(s, ALLIED, "attack uk_22gds 1044", "TAC 9.0")
    s2, _ = go(s, ALLIED, "done")  # nothing compulsory across the prohibited hexside
    assert s2.player == AXIS


def test_forts_are_optional_targets():
    s = combat_phase(player=ALLIED)
    put(s, "uk_2armd", "1047")
    put(s, "ge_90", "1048")  # Tobruk
    assert "Every compulsory attack is declared" in R.prompt(s).text
    s2, ev = go(s, ALLIED, "attack uk_2armd 1048")
    assert ev[0].data["defence"] == 10  # 5 doubled by the fort (9.5)


def test_strategic_movers_may_not_attack():
    s = combat_phase()
    put(s, "ge_90", "1126")
    put(s, "uk_2armd", "1127")
    s.strategic.add("ge_90")
    refused(s, AXIS, "attack ge_90 1127", "TAC 8.5.3")


def test_allied_bonus_of_december_1940_is_announced():
    s = combat_phase(player=ALLIED, turn=1)
    put(s, "uk_2armd", "1126")
    put(s, "ge_90", "1127")
    _, ev = go(s, ALLIED, "attack uk_2armd 1127")
    assert "17.4" in ev[0].text


def test_legal_orders_in_combat():
    s = combat_phase()
    put(s, "ge_90", "1126")
    put(s, "uk_2armd", "1127")
    orders = R.legal_orders(s, AXIS)
    assert [o.text() for o in orders] == ["attack ge_90 1127"]
    s2, _ = R.apply(s, AXIS, orders[0], ScriptedDice([]))
    assert [o.text() for o in R.legal_orders(s2, AXIS)] == ["done"]
