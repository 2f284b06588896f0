"""PFV 15 Breakthroughs (digest T11; BT- rules, RULINGS R15).

T11: the Allied 1st Armored** (CF 6, MF 6) and Patton in 8113; Axis unit X in 8213, Axis
unit Y in 8413 (its zone of control covers 8313 and 8414). X is hit, fails its defence and
retreats via 8212 to 8111; the 1st Armored** and Patton advance into 8213.
"""

import pytest

from tests.pfv.fixtures import fixture_board, play, scene
from tests.pfv.helpers import KEEP_FIGHTING, hex_of, legal, prompt_of, refused, stack


def t11(where=None, attack_dice=(3, 12), **kw):
    pieces = {"1arm2": "8113", "patton": "8113", "x": "8213", "y": "8413", **KEEP_FIGHTING}
    pieces.update(where or {})
    rules, s = scene(fixture_board(), pieces, phase="combat", player="allied", **kw)
    s, log = play(rules, s, "allied", "attack 1arm2 8213", list(attack_dice))
    return rules, s, log


def t11_cleared(advance="advance 1arm2 patton", **kw):
    rules, s, _ = t11(**kw)
    s, _ = play(rules, s, "axis", "retreat x 8212 8111")
    s, log = play(rules, s, "allied", advance)
    return rules, s, log


def test_unit_with_a_general_that_clears_its_target_may_break_through_T11_BT1():
    rules, s, log = t11_cleared()
    assert stack(s, "8213") == {"1arm2", "patton"}
    assert log[-1] == (
        "1st Armored**, stacked with Patton, may break through: move again and attack "
        "again this combat phase (PFV 15)."
    )
    assert s.breakthrough == {"1arm2": "eligible"}
    assert "move 1arm2,patton 8313" in legal(rules, s)


def test_breakthrough_move_is_not_stopped_by_enemy_zoc_T11_BT2_Z2():
    rules, s, _ = t11_cleared()
    s, log = play(rules, s, "allied", "move 1arm2,patton 8313 8414")  # 8313 is in Y's ZOC
    assert log == ["1st Armored** and Patton break through 8213 → 8313 → 8414."]
    assert stack(s, "8414") == {"1arm2", "patton"}


def test_breakthrough_attack_is_resolved_normally_and_may_advance_again_T11_BT4():
    """R15: the unit and the supports that break through with it attack a second time,
    so Patton's -2 counts again (L216), and Y defends again (L98)."""
    rules, s, _ = t11_cleared()
    s, _ = play(rules, s, "allied", "move 1arm2,patton 8313 8414")
    s, log = play(rules, s, "allied", "attack 1arm2 8413", [8, 12])
    assert (
        log[0] == "1st Armored** attacks 8413 from 8414 (breakthrough attack), supported by Patton."
    )
    assert log[1] == "Attack: 1st Armored** rolls 8 -2 support = 6, needs 6 or less: success."
    assert log[2].startswith("Defence: Unit Y rolls 12")
    s, _ = play(rules, s, "axis", "retreat y 8512 8612")
    assert prompt_of(rules, s) == ("allied", "advance")
    s, _ = play(rules, s, "allied", "advance 1arm2 patton")
    assert stack(s, "8413") == {"1arm2", "patton"}
    assert s.breakthrough["1arm2"] == "used"


def test_nothing_more_after_the_breakthrough_is_completed_T11_BT5():
    rules, s, _ = t11_cleared()
    s, _ = play(rules, s, "allied", "move 1arm2,patton 8313 8414")
    s, _ = play(rules, s, "allied", "attack 1arm2 8413", [8, 12])
    s, _ = play(rules, s, "axis", "retreat y 8512 8612")
    s, _ = play(rules, s, "allied", "advance 1arm2 patton")
    err = refused(rules, s, "allied", "move 1arm2,patton 8412")
    assert "(PFV" in str(err)
    assert not any(o.startswith(("move", "attack 1arm2")) for o in legal(rules, s))


def test_breakthrough_unit_moves_only_once_BT5():
    rules, s, _ = t11_cleared()
    s, _ = play(rules, s, "allied", "move 1arm2,patton 8313")
    assert s.breakthrough == {"1arm2": "moved"}
    err = refused(rules, s, "allied", "move 1arm2,patton 8314")
    assert "(PFV" in str(err)
    assert not any(o.startswith("move") for o in legal(rules, s))


def test_breakthrough_may_be_just_an_attack_BT2():
    rules, s, _ = t11_cleared(where={"y": "8313"})  # Y next to 8213 this time
    s, log = play(rules, s, "allied", "attack 1arm2 8313", [12, 12])
    assert "(breakthrough attack)" in log[0]
    assert s.breakthrough["1arm2"] == "used"
    err = refused(rules, s, "allied", "move 1arm2,patton 8214")
    assert "(PFV" in str(err)


def test_breakthrough_may_be_just_a_move_BT2():
    rules, s, _ = t11_cleared()
    s, _ = play(rules, s, "allied", "move 1arm2,patton 8212 8211")
    assert stack(s, "8211") == {"1arm2", "patton"}
    assert s.breakthrough == {"1arm2": "moved"}
    assert "done" in legal(rules, s)  # the attack is optional


def test_breakthrough_allowed_even_without_advancing_BT2():
    rules, s, _ = t11_cleared(advance="advance none")
    assert s.breakthrough == {"1arm2": "eligible"}
    s, _ = play(rules, s, "allied", "move 1arm2,patton 8214 8314")
    assert stack(s, "8314") == {"1arm2", "patton"}


def test_only_pieces_that_stay_with_the_general_break_through_BT3():
    rules, s, _ = t11_cleared(advance="advance 1arm2")  # Patton left behind in 8113
    assert s.breakthrough == {}
    err = refused(rules, s, "allied", "move 1arm2 8313")
    assert "(PFV" in str(err)


def test_breakthrough_move_names_the_unit_and_its_general_together_BT3():
    rules, s, _ = t11_cleared()
    err = refused(rules, s, "allied", "move 1arm2 8313")
    assert "general" in str(err) and "(PFV 15)" in str(err)


def test_breakthrough_move_is_stack_checked_at_once_R4():
    rules, s, _ = t11_cleared(where={"6arm": "8313", "15pz": "8717"})
    err = refused(rules, s, "allied", "move 1arm2,patton 8313")
    assert "(PFV 6)" in str(err)


def test_breakthrough_move_uses_normal_mp_BT2():
    rules, s, _ = t11_cleared()
    refused(rules, s, "allied", "move 1arm2,patton 8212 8211 8210 8209 8208 8207 8206")  # 7 > 6


def test_no_breakthrough_without_a_general_T11():
    rules, s, _ = t11(where={"patton": "7610"})
    s, _ = play(rules, s, "axis", "retreat x 8212 8111")
    s, _ = play(rules, s, "allied", "advance 1arm2")
    assert s.breakthrough == {}
    err = refused(rules, s, "allied", "attack 1arm2 8313")
    assert "already attacked" in str(err) and "(PFV 11)" in str(err)
    err = refused(rules, s, "allied", "move 1arm2 8313")
    assert "(PFV 7)" in str(err)


def test_no_breakthrough_when_the_defender_holds_its_hex_T11_BT1():
    rules, s, _ = t11(attack_dice=(3, 2))  # X's defence succeeds: no retreat
    assert hex_of(s, "x") == "8213" and s.breakthrough == {}
    assert prompt_of(rules, s) == ("allied", "loss")
    s, _ = play(rules, s, "allied", "loss 1arm2")
    assert s.breakthrough == {}


def test_no_breakthrough_after_a_failed_attack_even_if_the_hex_empties_BT1():
    rules, s = scene(
        fixture_board(),
        {"1arm2": "8113", "patton": "8113", "88s": "8213", "y": "8413", **KEEP_FIGHTING},
        phase="combat",
        player="allied",
    )
    s, _ = play(rules, s, "allied", "attack 1arm2 8213", [12])  # a lone support, missed
    s, _ = play(rules, s, "axis", "retreat 88s 8312 8311")
    s, _ = play(rules, s, "allied", "advance 1arm2 patton")
    assert s.breakthrough == {}


@pytest.mark.parametrize("loss, eligible", [("patton", False), ("1arm2", True)])
def test_no_breakthrough_once_the_general_is_lost_T11(loss, eligible):
    """Z (one step, CF 3) is hit and defends successfully: Z is eliminated, the hex is
    cleared, and the Allies choose the step loss. Losing Patton ends the breakthrough."""
    rules, s = scene(
        fixture_board(),
        {"1arm2": "8113", "patton": "8113", "z": "8213", "y": "8413", **KEEP_FIGHTING},
        phase="combat",
        player="allied",
    )
    s, _ = play(rules, s, "allied", "attack 1arm2 8213", [3, 2])
    assert hex_of(s, "z") == "dead"
    s, _ = play(rules, s, "allied", f"loss {loss}")
    s, _ = play(rules, s, "allied", "advance none")
    assert (s.breakthrough.get("1arm2") == "eligible") == eligible


def test_breakthrough_attack_by_another_unit_than_the_eligible_one_is_refused_BT1():
    rules, s, _ = t11_cleared(where={"34th": "7810"})
    # the 34th has not attacked and has no general: it may not move in the combat phase
    err = refused(rules, s, "allied", "move 34th 7811")
    assert "(PFV 15)" in str(err)


def test_support_that_already_attacked_does_not_support_a_breakthrough_attack_AT1_BT6():
    """X attacks from 8313 with the 88s and advances alone; 10th Panzer and Rommel then break
    through into 8313, where the spent 88s still stands, and attack the 6th Armoured."""
    where = {
        "x": "8313",
        "88s": "8313",
        "34th": "8413",
        "10pz": "8213",
        "rommel": "8213",
        "1arm": "8113",
        "6arm": "8314",
        "para": "8618",
        "15pz": "8617",
    }
    rules, s = scene(fixture_board(), where, phase="combat", player="axis")
    s, log = play(rules, s, "axis", "attack x 8413", [1, 12])
    assert log[0] == "Unit X attacks 8413 from 8313, supported by 88s."
    s, _ = play(rules, s, "allied", "retreat 34th 8513 8613")
    s, _ = play(rules, s, "axis", "advance x")
    s, _ = play(rules, s, "axis", "attack 10pz 8113", [1, 12])
    s, _ = play(rules, s, "allied", "retreat 1arm 8013 7913")
    s, _ = play(rules, s, "axis", "advance none")
    s, _ = play(rules, s, "axis", "move 10pz,rommel 8313")
    s, log = play(rules, s, "axis", "attack 10pz 8314", [12, 12])
    assert (
        log[0] == "10th Panzer attacks 8314 from 8313 (breakthrough attack), supported by Rommel."
    )
