"""Replacement counters as pieces on the map (TAC 10.0-10.2 L541-555, 5.1.1 L246, 10.7
L569, 12.1-12.3 L613-621; RULINGS R47): landed at a port, carried up to 7 MP to the unit
that takes them, destroyed alone in an enemy zone, half a division for stacking."""

from __future__ import annotations

from engine.core.dice import ScriptedDice
from engine.games.tac import pieces
from engine.games.tac.state import ALLIED, AXIS
from tests.tac.kit import B, R, empty, go, put, refused

ALEXANDRIA, TOBRUK = "1476", "1048"


def _allied(**held):
    s = empty(ALLIED, turn=21)
    s.replacements = {"allied_infantry": 0, "allied_armour": 0, **held}
    return s


def test_a_counter_lands_at_alexandria_and_is_carried_to_the_unit_that_takes_it():
    s = _allied(allied_infantry=2)
    put(s, "au_9", "1474", step=1)
    assert "place allied_infantry 1476" in [o.text() for o in R.legal_orders(s, ALLIED)]
    s2, ev = go(s, ALLIED, "place allied_infantry 1476")
    assert s2.pieces["rp_allied_1"]["hex"] == ALEXANDRIA and s2.replacements["allied_infantry"] == 1
    assert "carry rp_allied_1 1474" in [o.text() for o in R.legal_orders(s2, ALLIED)]
    s3, _ = go(s2, ALLIED, "carry rp_allied_1 1474")
    assert s3.pieces["rp_allied_1"]["hex"] == "1474"
    refused(s3, ALLIED, "carry rp_allied_1 1475", "TAC 8.0")  # once a phase
    s4, ev = go(s3, ALLIED, "replace au_9")
    assert s4.units["au_9"].step == 0 and "rp_allied_1" not in s4.pieces
    assert s4.replacements["allied_infantry"] == 1  # the one held off the map is untouched
    assert "au_9" in s4.replaced


def test_a_counter_moves_seven_movement_points_at_most():
    s = _allied(allied_infantry=1)
    s2, _ = go(s, ALLIED, "place allied_infantry 1476")
    reach = pieces.destinations(B, s2, "rp_allied_1")
    assert reach and all(len(path) <= 7 * 5 for path in reach.values())
    far = next(h for h in sorted(B.hex) if B.playable(h) and h not in reach and h != ALEXANDRIA)
    refused(s2, ALLIED, f"carry rp_allied_1 {far}", "TAC 8.0")


def test_tobruk_delays_a_counter_at_sea_and_it_rolls_again_next_turn():
    s = _allied(allied_armour=1)
    s.control[TOBRUK] = ALLIED
    s2, ev = go(s, ALLIED, "place allied_armour 1048", dice=[4])
    p = s2.pieces["rp_allied_1"]
    assert (p["hex"], p["sea"], p["retry"]) == (None, TOBRUK, 22) and "delayed" in ev[0].text
    v = R.view(s2, None)
    assert any(b.id == "at_sea" and b.counters[0].id == "rp_allied_1" for b in v.boxes)
    s2.turn, s2.phase = 22, "reinforce"
    R._settle(s2, ScriptedDice([2]))
    assert s2.pieces["rp_allied_1"]["hex"] == TOBRUK
    s3, ev = go(s, ALLIED, "place allied_armour 1048", dice=[6])
    assert s3.pieces == {} and s3.replacements["allied_armour"] == 0 and "sunk" in ev[0].text


def test_an_axis_counter_comes_on_by_the_western_edge_having_spent_2_mp():
    s = empty(AXIS, turn=21)
    s.replacements = {"axis_german_infantry": 1}
    edge = B.west_edge[0]
    s2, _ = go(s, AXIS, f"place axis_german_infantry {edge}")
    fresh = pieces.destinations(B, s2, "rp_axis_1")
    s2.pieces["rp_axis_1"]["spent"] = ["", 0]  # as if it had landed before this phase
    assert set(fresh) < set(pieces.destinations(B, s2, "rp_axis_1"))


def test_a_counter_alone_in_an_enemy_zone_is_destroyed_and_one_with_friends_is_not():
    s = _allied(allied_infantry=2)
    s2, _ = go(s, ALLIED, "place allied_infantry 1476")
    s2.pieces["rp_allied_2"] = dict(s2.pieces["rp_allied_1"], hex="1474")
    put(s2, "au_9", ALEXANDRIA)
    put(s2, "it_61", "1475")  # next to both
    s3, ev = go(s2, ALLIED, "done")
    assert "rp_allied_2" not in s3.pieces and "rp_allied_1" in s3.pieces
    assert any("destroyed (10.2)" in e.text for e in ev)


def test_an_enemy_unit_entering_its_hex_destroys_it():
    s = empty(AXIS, turn=21)
    s.pieces["rp_allied_1"] = {
        "kind": "allied_infantry",
        "hex": "1127",
        "sea": None,
        "retry": None,
        "moved": None,
    }
    put(s, "ge_90", "1125")
    s2, ev = go(s, AXIS, "move ge_90 1126 1127")
    assert "rp_allied_1" not in s2.pieces
    s.pieces["rp_allied_1"]["hex"] = "1126"  # passing through its hex overruns it too
    s3, ev = go(s, AXIS, "move ge_90 1126 1127")
    assert "rp_allied_1" not in s3.pieces and any("overrun (10.2" in e.text for e in ev)


def test_counters_count_half_a_division_for_stacking():
    s = _allied(allied_infantry=1)
    put(s, "au_9", ALEXANDRIA)
    put(s, "uk_50", ALEXANDRIA)
    s2, _ = go(s, ALLIED, "place allied_infantry 1476")
    s3, _ = go(s2, ALLIED, "done")
    assert s3.phase == "overstack"
    assert "eliminate rp_allied_1" in [o.text() for o in R.legal_orders(s3, ALLIED)]
    refused(s3, AXIS, "eliminate rp_allied_1", "TAC 6.1")
    s4, _ = go(s3, ALLIED, "eliminate rp_allied_1")
    assert s4.phase == "combat" and s4.pieces == {}


def test_three_counters_in_alexandria_rebuild_a_unit():
    s = _allied()
    s.units["uk_50"].where = "dead"
    for i in (1, 2, 3):
        s.pieces[f"rp_allied_{i}"] = {
            "kind": "allied_infantry",
            "hex": ALEXANDRIA,
            "sea": None,
            "retry": None,
            "moved": None,
        }
    s2, _ = go(s, ALLIED, "rebuild uk_50")
    assert s2.units["uk_50"].hex == ALEXANDRIA and s2.pieces == {}
    s.pieces.pop("rp_allied_3")
    refused(s, ALLIED, "rebuild uk_50", "TAC 10.7")


def test_placing_is_refused_with_the_rule_and_nothing_changes():
    s = _allied(allied_infantry=1)
    refused(s, ALLIED, "place allied_armour 1476", "TAC 10.0")  # none held
    refused(s, ALLIED, "place axis_german_infantry 1476", "TAC 10.0")  # not an Allied kind
    refused(s, ALLIED, "place allied_infantry 1475", "TAC 12.0")  # not a port
    refused(s, ALLIED, "place allied_infantry 1048", "TAC 12.0")  # Tobruk is the Axis's
    for i in range(1, 11):
        s.pieces[f"rp_allied_{i}"] = {
            "kind": "allied_infantry",
            "hex": "1474",
            "sea": None,
            "retry": None,
            "moved": None,
        }
    refused(s, ALLIED, "place allied_infantry 1476", "TAC 10.1")  # all ten in play
    refused(s, ALLIED, "carry rp_axis_1 1474", "TAC 10.0")


def test_counters_in_play_leave_fewer_for_the_held_replacements():
    """10.1: replacements beyond the free counters are lost at the Reinforcement Phase."""
    s = empty(ALLIED, turn=22, phase="reinforce")
    for i in range(1, 9):
        s.pieces[f"rp_allied_{i}"] = {
            "kind": "allied_infantry",
            "hex": "1474",
            "sea": None,
            "retry": None,
            "moved": None,
        }
    s.replacements = {"allied_infantry": 5}
    put(s, "au_9", "1474")
    R._settle(s, ScriptedDice([]))
    assert s.replacements["allied_infantry"] == 2


def test_a_game_with_counters_in_play_is_stored_and_played_on_the_same():
    s = _allied(allied_infantry=2)
    s2, _ = go(s, ALLIED, "place allied_infantry 1476")
    back = R.load_state(R.dump_state(s2))
    assert back.to_dict() == s2.to_dict() and R.invariant_problems(back) == []
    v = R.view(s2, AXIS)
    assert any(c.id == "rp_allied_1" for st in v.stacks for c in st.counters)
