"""Resolving attacks (TAC 9.3, 9.5-9.10, 17.4), read against the rulebook's examples."""

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


def put(s: State, uid: str, h: str, step: int = 0) -> None:
    u = s.units[uid]
    u.where, u.hex, u.step = "map", h, step


def go(s: State, role: str, text: str, dice=()):
    return R.apply(s, role, R.parse_order(text), ScriptedDice(list(dice)))


def refused(s: State, role: str, text: str, rule: str) -> None:
    before = s.to_dict()
    with pytest.raises(IllegalOrder) as e:
        go(s, role, text, dice=[1])
    assert e.value.rule == rule, str(e.value)
    assert s.to_dict() == before


def test_example_of_9_7():
    """21st Panzer (9-8) attacks 2nd Armoured (4-6) at 2-1 and rolls a 1: A2R / D1. The
    21st becomes a 5-7 and retreats; the 2nd Armoured becomes a 3-6 and holds."""
    s = combat_phase()
    put(s, "ge_21pz", "1126")
    put(s, "uk_2armd", "1127")
    s, _ = go(s, AXIS, "attack ge_21pz 1127")
    s, ev = go(s, AXIS, "done")
    s, ev = go(s, AXIS, "resolve 1127", dice=[1])
    assert ev[0].data == {"odds": "2-1", "roll": 1, "attacker": "A2R", "defender": "D1"}
    assert R.board.units["ge_21pz"].steps[s.units["ge_21pz"].step] == "5-7"
    assert R.board.units["uk_2armd"].steps[s.units["uk_2armd"].step] == "3-6"
    p = R.prompt(s)
    assert (p.role, p.kind) == (AXIS, "retreat")
    refused(s, AXIS, "retreat ge_21pz 1027", "TAC 9.8.2")  # into the 2nd Armoured's zone
    s, _ = go(s, AXIS, "retreat ge_21pz 1125")
    assert s.units["ge_21pz"].hex == "1125" and s.units["uk_2armd"].hex == "1127"
    assert (s.turn, s.player) == (21, ALLIED)  # the battle and the Axis turn are over


def test_losses_shared_evenly_then_retreat_and_advance():
    """4-1 (18 against 4) and a 6: A1 / D2R. Each defender loses one step (9.10.3), both
    retreat, and the attacker may advance into the vacated hex (9.9.1)."""
    s = combat_phase()
    put(s, "ge_21pz", "1126")
    put(s, "ge_90", "1126")
    put(s, "ge_8pz", "1026")
    put(s, "uk_22gds", "1127")
    put(s, "uk_2armdbde", "1127")
    s, _ = go(s, AXIS, "attack ge_21pz,ge_90,ge_8pz 1127")
    s, _ = go(s, AXIS, "done")
    s, ev = go(s, AXIS, "resolve 1127", dice=[6])
    assert ev[0].data["odds"] == "4-1" and (ev[0].data["attacker"], ev[0].data["defender"]) == (
        "A1",
        "D2R",
    )
    assert (R.prompt(s).role, R.prompt(s).kind) == (ALLIED, "loss")
    refused(s, ALLIED, "lose ge_90", "TAC 9.10.3")
    s, _ = go(s, ALLIED, "lose uk_22gds")
    assert s.units["uk_22gds"].step == 1 and s.units["uk_2armdbde"].step == 1
    assert (R.prompt(s).role, R.prompt(s).kind) == (AXIS, "loss")
    s, _ = go(s, AXIS, "lose ge_8pz")
    assert s.units["ge_8pz"].step == 1
    assert (R.prompt(s).role, R.prompt(s).kind) == (ALLIED, "retreat")
    s, _ = go(s, ALLIED, "retreat uk_22gds 1128")
    s, _ = go(s, ALLIED, "retreat uk_2armdbde 1227 1228")
    assert (R.prompt(s).role, R.prompt(s).kind) == (AXIS, "advance")
    refused(s, AXIS, "advance ge_21pz,ge_90,ge_8pz 1127", "TAC 9.9.1")  # 2.5 divisions
    s, _ = go(s, AXIS, "advance ge_21pz,ge_90 1127")
    assert (
        s.units["ge_21pz"].hex == "1127" and s.phase == "mines" and s.player == ALLIED
    )  # 16.0: a call is open from Turn 5


def test_dr_is_two_hexes():
    """9 against 4 is 2-1; a 5 reads DR: both defenders retreat exactly two hexes (9.8.1),
    in the order their owner likes (9.8.2); the attacker may decline to advance (9.9.1)."""
    s = combat_phase()
    put(s, "ge_90", "1126")
    put(s, "ge_8pz", "1026")
    put(s, "uk_22gds", "1127")
    put(s, "uk_2armdbde", "1127")
    s, _ = go(s, AXIS, "attack ge_90,ge_8pz 1127")
    s, _ = go(s, AXIS, "done")
    s, ev = go(s, AXIS, "resolve 1127", dice=[5])
    assert (ev[0].data["odds"], ev[0].data["defender"]) == ("2-1", "DR")
    refused(s, ALLIED, "retreat uk_2armdbde 1128", "TAC 9.8.2")
    s, _ = go(s, ALLIED, "retreat uk_2armdbde 1128 1228")
    s, _ = go(s, ALLIED, "retreat uk_22gds 1227 1228")
    assert s.units["uk_2armdbde"].hex == s.units["uk_22gds"].hex == "1228"
    assert R.prompt(s).kind == "advance"
    s, _ = go(s, AXIS, "done")
    assert s.units["ge_90"].hex == "1126" and (s.turn, s.player) == (21, ALLIED)


def test_surrounded_defender_is_destroyed_instead_of_retreating():
    """9 against 2 is 4-1; a 5 reads D1R. The 22nd Guards loses a step; every way out of
    1127 is in an Axis zone (the 21st Panzer in 1228 covers 1128 and 1227), so it is
    destroyed (4.5.1, 9.8.2)."""
    s = combat_phase()
    put(s, "ge_90", "1126")
    put(s, "ge_8pz", "1026")
    put(s, "ge_21pz", "1228")
    put(s, "uk_22gds", "1127")
    s, _ = go(s, AXIS, "attack ge_90,ge_8pz 1127")
    s, _ = go(s, AXIS, "done")
    s, ev = go(s, AXIS, "resolve 1127", dice=[5])
    assert ev[0].data["defender"] == "D1R"
    assert s.units["uk_22gds"].where == "dead"
    assert any("cannot retreat" in e.text for e in ev)
    assert R.prompt(s).kind == "advance"


def test_fort_defenders_never_retreat():
    s = combat_phase(player=ALLIED)
    put(s, "uk_2armd", "1047")
    put(s, "it_102", "1048")  # Tobruk: 4 doubled to 8; 4 against 8 is 1-2
    s, _ = go(s, ALLIED, "attack uk_2armd 1048")
    s, _ = go(s, ALLIED, "done")
    s, ev = go(s, ALLIED, "resolve 1048", dice=[3])  # 1-2, 3: A2R / D1
    assert ev[0].data["defender"] == "D1"
    assert s.units["it_102"].hex == "1048"


def test_allied_plus_two_in_december_1940():
    s = combat_phase(player=ALLIED, turn=1)
    put(s, "uk_2armd", "1126")
    put(s, "ge_90", "1127")  # 4 against 5: 1-2
    s, _ = go(s, ALLIED, "attack uk_2armd 1127")
    s, _ = go(s, ALLIED, "done")
    s, ev = go(s, ALLIED, "resolve 1127", dice=[4])  # reads row 6: -/D1
    assert ev[0].data["defender"] == "D1" and "+2 = 6" in ev[0].text


def test_every_offered_battle_order_applies():
    s = combat_phase()
    put(s, "ge_90", "1126")
    put(s, "ge_8pz", "1026")
    put(s, "uk_22gds", "1127")
    put(s, "uk_2armdbde", "1127")
    s, _ = go(s, AXIS, "attack ge_90,ge_8pz 1127")
    s, _ = go(s, AXIS, "done")
    assert [o.text() for o in R.legal_orders(s, AXIS)] == ["resolve 1127"]
    s, _ = go(s, AXIS, "resolve 1127", dice=[5])  # DR
    offered = R.legal_orders(s, ALLIED)
    assert offered and all(o.verb == "retreat" and len(o.path) == 2 for o in offered)
    assert R.legal_orders(s, AXIS) == []
    for o in offered:
        R.apply(s, ALLIED, o, ScriptedDice([]))
