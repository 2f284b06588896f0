"""The African Campaign rules engine, first part: set-up, sequence of play, zones of
control, stacking and movement, read against the rulebook's cases and examples."""

from __future__ import annotations

import pytest

from engine.core.dice import ScriptedDice
from engine.core.errors import IllegalOrder
from engine.games.tac.rules import TheAfricanCampaign
from engine.games.tac.state import ALLIED, AXIS, State

R = TheAfricanCampaign()


def fresh() -> State:
    return R.setup("campaign", {}, ScriptedDice([]))


def clear_map(s: State) -> State:
    for u in s.units.values():
        u.where, u.hex = "pool", None
    s.units["ge_ramcke"].where = "tripoli"  # one Axis unit in play, off the map (3.0)
    return s


def put(s: State, uid: str, h: str) -> None:
    u = s.units[uid]
    u.where, u.hex = "map", h


def order(s: State, role: str, text: str, dice=()) -> tuple[State, list]:
    return R.apply(s, role, R.parse_order(text), ScriptedDice(list(dice)))


def refused(s: State, role: str, text: str, rule: str) -> None:
    before = s.to_dict()
    with pytest.raises(IllegalOrder) as e:
        order(s, role, text)
    assert e.value.rule == rule, str(e.value)
    assert s.to_dict() == before


def axis_move_phase(s: State) -> State:
    s.player, s.phase = AXIS, "move"
    return s


def test_setup_follows_17_1_to_17_3():
    s = fresh()
    assert (s.turn, s.player, s.phase, s.fuel) == (1, ALLIED, "move", 2)
    assert R.invariant_problems(s) == []
    assert s.units["ge_90"].where == "pool"
    assert {u.hex for u in s.on_map(ALLIED)} <= {
        "1362",
        "1363",
        "1462",
        "1364",
        "1365",
        "1476",
        "1477",
    }
    assert len(s.on_map(AXIS)) == 15
    assert State.from_dict(s.to_dict()) == s


def test_zoc_example_of_4_2():
    b = R.board
    assert len(b.zoc("0803")) == 6
    assert sorted(b.zoc("1043")) == ["1042", "1143", "1144"]
    assert b.zoc("1048") == []  # Tobruk is a fort (4.1)


def test_road_costs_a_fifth_and_leaving_it_loses_the_fraction():
    s = axis_move_phase(clear_map(fresh()))
    put(s, "ge_90", "0601")
    s.fuel = 5
    s2, ev = order(s, AXIS, "move ge_90 0602 0603 0604 0605 0606")
    assert s2.units["ge_90"].hex == "0606"
    assert ev[0].data["fifths"] == 5 and s2.fuel == 5  # 1 MP: no fuel (8.2.6)
    s = axis_move_phase(clear_map(fresh()))
    put(s, "ge_90", "0601")
    off_road = next(
        n
        for n in ("0501", "0502", "0702", "0701")
        if R.board.playable(n) and not R.board.is_road("0602", n)
    )
    s2, ev = order(s, AXIS, f"move ge_90 0602 {off_road}")
    assert ev[0].data["fifths"] == 10  # 1/5 rounded up to 1, then 1 MP (8.3.2)


def test_prohibited_hexside_refused_and_nothing_changes():
    s = clear_map(fresh())
    put(s, "uk_22gds", "1043")
    refused(s, ALLIED, "move uk_22gds 1044", "TAC 8.2.7")


def test_entering_enemy_zoc_stops_the_move():
    s = clear_map(fresh())
    put(s, "it_102", "0803")
    put(s, "uk_22gds", "0805")
    refused(s, ALLIED, "move uk_22gds 0804 0704", "TAC 4.3.2")
    s2, _ = order(s, ALLIED, "move uk_22gds 0804")
    assert s2.units["uk_22gds"].hex == "0804"


def test_from_one_zoc_straight_to_another_refused():
    s = clear_map(fresh())
    put(s, "it_102", "0803")
    put(s, "uk_22gds", "0804")
    refused(s, ALLIED, "move uk_22gds 0704", "TAC 4.3.3")
    refused(s, ALLIED, "move uk_22gds 0803", "TAC 8.2.1")


def test_ridge_entered_cannot_be_left_the_same_phase():
    s = clear_map(fresh())
    put(s, "uk_22gds", "1146")
    refused(s, ALLIED, "move uk_22gds 1147 1247", "TAC 8.2.5")
    s2, ev = order(s, ALLIED, "move uk_22gds 1147")
    assert ev[0].data["fifths"] == 10


def test_unit_already_on_ridge_may_leave():
    s = clear_map(fresh())
    put(s, "uk_22gds", "1147")
    s2, _ = order(s, ALLIED, "move uk_22gds 1247")
    assert s2.units["uk_22gds"].hex == "1247"


def test_pass_costs_two_in_all():
    s = clear_map(fresh())
    put(s, "uk_22gds", "1028")
    s2, ev = order(s, ALLIED, "move uk_22gds 1128 1228")
    assert s2.units["uk_22gds"].hex == "1228"
    assert ev[0].data["fifths"] <= 10


def test_axis_fuel_spent_beyond_two_mp_and_refused_without_fuel():
    s = axis_move_phase(clear_map(fresh()))
    put(s, "ge_90", "1023")
    s2, _ = order(s, AXIS, "move ge_90 1024 1025 1026")
    assert s2.fuel == 1
    s.fuel = 0
    refused(s, AXIS, "move ge_90 1024 1025 1026", "TAC 8.2.6")
    s3, _ = order(s, AXIS, "move ge_90 1024 1025")
    assert s3.fuel == 0


def test_no_strategic_movement_on_turn_one():
    s = clear_map(fresh())
    put(s, "uk_22gds", "1146")
    refused(s, ALLIED, "strategic uk_22gds 1046", "TAC 8.5.4")


def test_out_of_turn_and_after_moving_refused():
    s = fresh()
    refused(s, AXIS, "done", "TAC 6.1")
    uid = s.on_map(ALLIED)[0].id
    s = clear_map(s)
    put(s, uid, "1146")
    s2, _ = order(s, ALLIED, f"move {uid} 1046")
    refused(s2, ALLIED, f"move {uid} 1146", "TAC 8.0")


def test_overstack_at_end_of_movement_forces_elimination():
    s = clear_map(fresh())
    for uid in ("uk_7armd", "in_4", "uk_16"):
        put(s, uid, "1362")
    s2, _ = order(s, ALLIED, "done")
    assert s2.phase == "overstack"
    refused(s2, ALLIED, "done", "TAC 6.1")
    s3, _ = order(s2, ALLIED, "eliminate uk_16")
    assert s3.units["uk_16"].where == "dead" and s3.phase == "combat"


def test_sequence_and_march_1941_fuel_roll():
    s = fresh()
    s, _ = order(s, ALLIED, "done")
    s, _ = order(s, ALLIED, "done")
    assert (s.player, s.phase) == (AXIS, "move")
    s.turn = 7  # March I 1941
    s.player, s.phase = AXIS, "combat"
    s, ev = order(s, AXIS, "done", dice=[])
    assert (s.turn, s.player) == (8, ALLIED)
    s.turn, s.player, s.phase, s.fuel = 7, AXIS, "supply", 2
    s.phase = "reinforce"
    events = R._settle(s, ScriptedDice([4]))
    assert s.fuel == 5  # 2 + 3: the example of 14.0
    assert any(e.kind == "fuel" and "roll 4" in e.text for e in events)


def test_allied_reinforcements_and_withdrawal_turn_two():
    s = fresh()
    s, _ = order(s, ALLIED, "done")
    s, _ = order(s, ALLIED, "done")
    s, _ = order(s, AXIS, "done")
    s, ev = order(s, AXIS, "done")
    assert s.turn == 2
    assert s.units["au_6"].hex == "1476"
    assert s.units["in_4"].where == "withdrawn"
    texts = " ".join(e.text for e in ev)
    assert "6th Australian" in texts and "returns on Turn 13" in texts


def test_view_is_open_to_both_sides():
    """5.0: every unit is open to both; only a side's own minefield hand (16.0) is not."""
    s = fresh()
    views = [R.details(s, r) for r in (ALLIED, AXIS, None)]
    mines = [v.pop("mines") for v in views]
    assert views[0] == views[1] == views[2]
    assert (
        "allied_hand" in mines[0] and "allied_hand" not in mines[1] and "axis_hand" not in mines[2]
    )


def test_bad_text_is_one_sentence():
    for text in ("", "move", "move x 12", "fly uk_16 1146", "move a,a 1146"):
        with pytest.raises(IllegalOrder):
            R.parse_order(text)


@pytest.mark.parametrize(
    "data",
    [
        {"verb": "move", "units": [], "path": ["1146"]},
        {"verb": "move", "units": ["uk_16", "uk_16"], "path": ["1146"]},
        {"verb": "move", "units": ["uk_16"], "path": []},
        {"verb": "move", "units": ["uk_16"], "path": ["zzzz"]},
        {"verb": "move", "units": ["uk_16"], "path": ["x9999"]},
        {"verb": "move", "units": ["ge_90"], "path": ["1363"]},
        {"verb": "move", "units": ["nobody"], "path": ["1363"]},
        {"verb": "eliminate", "unit": "uk_16"},
    ],
)
def test_hostile_stored_orders_refused_and_nothing_changes(data):
    s = fresh()
    before = s.to_dict()
    with pytest.raises(IllegalOrder) as e:
        R.apply(s, ALLIED, R.load_order(data), ScriptedDice([]))
    assert "\n" not in str(e.value) and "Traceback" not in str(e.value)
    assert s.to_dict() == before


def test_load_order_rejects_junk():
    for data in (
        {},
        {"verb": "fly"},
        {"verb": "move", "units": "x"},
        {"verb": "done", "extra": 1},
        [],
    ):
        with pytest.raises(IllegalOrder):
            R.load_order(data)
