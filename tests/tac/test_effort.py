"""Optional Maximum Effort and Determined Defense (TAC 18.4, 18.5): used together, one of
them per side per game turn, Italians only with Rommel on or next to them."""

from __future__ import annotations

import pytest

from engine.core.dice import ScriptedDice
from engine.core.errors import IllegalOrder
from engine.games.tac import effort
from engine.games.tac.state import ALLIED, AXIS
from tests.tac.kit import B, R, empty, go, put, refused

BOTH = {"18.4": True, "18.5": True}


def declared(options=BOTH):
    """21st Panzer (9-8) has declared its attack on 2nd Armoured (4-6): 2-1 (L509)."""
    s = empty(AXIS, turn=20, phase="combat", options=options)
    put(s, "ge_21pz", "1726")
    put(s, "uk_2armd", "1727")
    s, _ = go(s, AXIS, "attack ge_21pz 1727")
    s, _ = go(s, AXIS, "done")
    return s


def test_the_two_rules_come_together():
    with pytest.raises(IllegalOrder) as e:
        R.setup("campaign", {"18.4": True}, ScriptedDice([]))
    assert e.value.rule == "TAC 18.0"


def test_maximum_effort_succeeds_on_1_or_2_two_columns_right():
    s = declared()
    assert "resolve 1727 max" in [o.text() for o in R.legal_orders(s, AXIS)]
    s, ev = go(s, AXIS, "resolve 1727 max", dice=[2, 1])  # effort 2: 2-1 -> 4-1, then a 1
    assert ev[0].data["column"] == "4-1" and ev[1].data["odds"] == "4-1"
    assert s.efforts == {AXIS: 20}


def test_maximum_effort_failing_shifts_left_and_costs_a_step():
    """3-6: 2-1 -> 1-1 and the attacker loses one more step, even on a good result."""
    s = declared()
    s, ev = go(s, AXIS, "resolve 1727 max", dice=[5, 6])  # 1-1, a 6: no attacker result
    assert ev[0].data["column"] == "1-1" and ev[1].data["attacker"] is None
    assert s.units["ge_21pz"].step == 1  # the extra step all the same


def test_one_effort_a_turn_and_none_without_the_options():
    s = declared()
    s.efforts[AXIS] = 20
    refused(s, AXIS, "resolve 1727 max", "TAC 18.4", dice=[1, 1])
    s = declared(options={})
    refused(s, AXIS, "resolve 1727 max", "TAC 18.4", dice=[1, 1])
    assert all(not getattr(o, "effort", False) for o in R.legal_orders(s, AXIS))


def test_italians_need_rommel_on_or_next_to_them():
    s = empty(AXIS, turn=20, phase="combat", options=BOTH)
    put(s, "it_102", "1726")
    assert not effort.italians_led(B, s, [s.units["it_102"]])
    put(s, "ge_dak", "1725")
    assert effort.italians_led(B, s, [s.units["it_102"]])


def test_determined_defense_holds_on_1_or_2():
    """18.5: on 2-1 a 5 is DR for the defender, who may then declare: 1-2 cancels the
    retreat; 3-6 costs one more step and the retreat stands; done declines."""
    s = declared()
    s, _ = go(s, AXIS, "resolve 1727", dice=[5])
    assert (R.prompt(s).kind, R.prompt(s).role) == ("defend", ALLIED)
    refused(s, AXIS, "defend", "TAC 6.1")
    held, _ = go(s, ALLIED, "defend", dice=[1])
    assert (held.units["uk_2armd"].hex, held.units["uk_2armd"].step, held.efforts) == (
        "1727",
        0,
        {ALLIED: 20},
    )
    assert held.fight is None  # the hex was not vacated: no advance
    failed, _ = go(s, ALLIED, "defend", dice=[4])
    assert failed.units["uk_2armd"].step == 1 and R.prompt(failed).kind == "retreat"
    declined, _ = go(s, ALLIED, "done")
    assert declined.units["uk_2armd"].step == 0 and R.prompt(declined).kind == "retreat"
    assert declined.efforts == {}
