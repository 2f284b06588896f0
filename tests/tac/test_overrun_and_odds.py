"""Overrun (TAC 8.4), odds and the Combat Results Table (9.0-9.7), picking up units
(8.2.3), entering from Tripoli (12.3), Strategic Movement (8.5) and the minimum move (8.1.2)."""

from __future__ import annotations

import pytest

from engine.core.dice import ScriptedDice
from engine.core.errors import IllegalOrder
from engine.games.tac import combat
from engine.games.tac.board import Board
from engine.games.tac.rules import TheAfricanCampaign
from engine.games.tac.state import ALLIED, AXIS, State

R = TheAfricanCampaign()


def empty(player: str = AXIS, turn: int = 20) -> State:
    s = R.setup("campaign", {}, ScriptedDice([]))
    for u in s.units.values():
        u.where, u.hex = "pool", None
    s.units["ge_ramcke"].where = "tripoli"  # one Axis unit in play, off the map (3.0)
    s.turn, s.player, s.phase, s.fuel = turn, player, "move", 5
    return s


def put(s: State, uid: str, h: str, step: int = 0) -> None:
    u = s.units[uid]
    u.where, u.hex, u.step = "map", h, step


def go(s: State, role: str, text: str):
    return R.apply(s, role, R.parse_order(text), ScriptedDice([]))


def refused(s: State, role: str, text: str, rule: str) -> None:
    before = s.to_dict()
    with pytest.raises(IllegalOrder) as e:
        go(s, role, text)
    assert e.value.rule == rule, str(e.value)
    assert s.to_dict() == before


def test_overrun_example_of_8_4_4():
    """90th Light (5-7) from 1023 picks up 8th Panzer (4-7) in 1125 and overruns the
    broken 1st Armoured (1-5) in 1127 at 9-1; the British unit is eliminated."""
    s = empty()
    put(s, "ge_90", "1023")
    put(s, "ge_8pz", "1125")
    put(s, "uk_1armd", "1127", step=3)
    s2, ev = go(s, AXIS, "move ge_90,ge_8pz 1024 1125 1126 x1127")
    assert s2.units["uk_1armd"].where == "dead"
    assert s2.units["ge_90"].hex == s2.units["ge_8pz"].hex == "1126"
    over = next(e for e in ev if e.kind == "overrun")
    assert (over.data["attack"], over.data["defence"]) == (9, 1)
    assert s2.fuel == 4  # only the 90th moved more than 2 MP (8.2.6)
    # with MP left the stack may go on after the overrun (8.4.1)
    s3, _ = go(s, AXIS, "move ge_90,ge_8pz 1024 1125 1126 x1127 1127")
    assert s3.units["ge_90"].hex == "1127"


def test_overrun_short_of_nine_to_one_refused():
    s = empty()
    put(s, "ge_90", "1023")
    put(s, "uk_1armd", "1127", step=2)  # 3-6: 5 against 3
    refused(s, AXIS, "move ge_90 1024 1125 1126 x1127", "TAC 8.4.1")


def test_overrun_in_another_units_zoc_refused():
    s = empty()
    put(s, "ge_90", "1023")
    put(s, "ge_8pz", "1125")
    put(s, "uk_1armd", "1127", step=3)
    put(s, "uk_2armd", "1026")  # its zone covers 1126, not 1024 or 1125
    refused(s, AXIS, "move ge_90,ge_8pz 1024 1125 1126 x1127", "TAC 8.4.3")


def test_no_overrun_when_strategic():
    s = empty()
    put(s, "ge_90", "1123")
    put(s, "uk_1armd", "1125", step=3)
    refused(s, AXIS, "strategic ge_90 x1124", "TAC 8.5.3")


def test_pick_up_needs_the_unit_on_the_path():
    s = empty()
    put(s, "ge_90", "1023")
    put(s, "ge_8pz", "1225")
    refused(s, AXIS, "move ge_90,ge_8pz 1024 1125", "TAC 8.2.3")


def test_odds_and_the_example_of_9_7():
    """21st Panzer (9-8) against 2nd Armoured (4-6): 9 to 4 is 2-1; a 1 reads A2R / D1."""
    assert combat.odds(9, 4) == "2-1"
    assert combat.odds(26, 9) == "2-1"
    assert combat.result(R.board, "2-1", 1) == ("A2R", "D1")
    assert combat.result(R.board, combat.odds(1, 7), 6) == ("AE", None)
    assert combat.result(R.board, combat.odds(45, 5), 1) == (None, "DE")
    assert combat.result(R.board, "2-1", 8) == combat.result(R.board, "2-1", 6)


def test_ridge_and_fort_double_defence():
    s = empty()
    put(s, "uk_2armd", "1130")
    d = [s.units["uk_2armd"]]
    assert combat.defence_total(R.board, d, ["1029"]) == 8  # ridge (9.4)
    assert combat.defence_total(R.board, d, ["1029", "1131"]) == 4  # attacker on a plateau
    put(s, "uk_2armd", "1048")
    assert combat.defence_total(R.board, d, ["1047"]) == 8  # Tobruk (9.5)


def test_entering_from_tripoli():
    s = empty()
    s.units["ge_90"].where = "tripoli"
    s2, ev = go(s, AXIS, "move ge_90 0601")
    assert s2.units["ge_90"].hex == "0601" and s2.fuel == 5 and ev[-1].data["fifths"] == 10
    s3, _ = go(s, AXIS, "move ge_90 0601 0602")
    assert s3.fuel == 4  # past 2 MP: fuel (12.3, 8.2.6)
    refused(s, AXIS, "move ge_90 0602", "TAC 12.3")


def test_strategic_movement_doubles_the_allowance():
    s = empty(player=ALLIED, turn=2)
    put(s, "uk_22gds", "1246")  # 2-6
    path = "1245 1244 1243 1242 1241 1240 1239"
    refused(s, ALLIED, f"move uk_22gds {path}", "TAC 8.0")
    s2, _ = go(s, ALLIED, f"strategic uk_22gds {path}")
    assert s2.units["uk_22gds"].hex == "1239" and "uk_22gds" in s2.strategic
    s.units["uk_22gds"].arrived = 2
    refused(s, ALLIED, f"strategic uk_22gds {path}", "TAC 8.5.4")


def test_one_hex_minimum_move():
    t = R.board.tables.model_copy(deep=True)
    t.terrain["ridge"].mp = 9
    r = TheAfricanCampaign(Board(t=t))
    s = empty(player=ALLIED)
    put(s, "uk_22gds", "1146")
    s2, ev = r.apply(s, ALLIED, r.parse_order("move uk_22gds 1147"), ScriptedDice([]))
    assert s2.units["uk_22gds"].hex == "1147" and "8.1.2" in ev[-1].text
    with pytest.raises(IllegalOrder):
        r.apply(s, ALLIED, r.parse_order("move uk_22gds 1046 1147"), ScriptedDice([]))


def test_every_legal_order_applies():
    s = R.setup("campaign", {}, ScriptedDice([]))
    orders = R.legal_orders(s, ALLIED)
    assert orders[-1].verb == "done" and len(orders) > 1
    assert R.legal_orders(s, AXIS) == []
    for o in orders:
        R.apply(s, ALLIED, o, ScriptedDice([]))


def test_compulsory_engagements_skip_forts_and_prohibited_hexsides():
    s = empty(player=ALLIED)
    put(s, "uk_22gds", "1043")
    put(s, "it_102", "1044")  # across the prohibited hexside (8.2.7)
    put(s, "uk_2armd", "1047")
    put(s, "ge_90", "1048")  # in Tobruk (9.5)
    put(s, "uk_7rtr", "1143")
    put(s, "ge_8pz", "1142")
    assert combat.engagements(R.board, s, ALLIED) == {"1143": {"1142"}}
    assert combat.engagements(R.board, s, AXIS) == {"1142": {"1143"}}


def test_pass_without_roads_costs_two_and_leads_only_to_its_far_end():
    """8.2.5: 1028 to 1228 through either Er Regima pass hex, 2 MP in all; the pass does
    not open the ridge's other sides (RULINGS D2, R2, R3). Roads removed to see the pass alone."""
    m = R.board.map.model_copy(update={"roads": []})
    r = TheAfricanCampaign(Board(m=m))
    for via in ("1128", "1129"):
        s = empty(player=ALLIED)
        put(s, "uk_22gds", "1028")
        s2, ev = r.apply(s, ALLIED, r.parse_order(f"move uk_22gds {via} 1228"), ScriptedDice([]))
        assert s2.units["uk_22gds"].hex == "1228" and ev[-1].data["fifths"] == 10
    s = empty(player=ALLIED)
    put(s, "uk_22gds", "1028")
    with pytest.raises(IllegalOrder) as e:
        r.apply(s, ALLIED, r.parse_order("move uk_22gds 1129 1229"), ScriptedDice([]))
    assert e.value.rule == "TAC 8.2.5"
