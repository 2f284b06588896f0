"""Strategic Rail Movement of coastal submarines and destroyers (7.4, L1276-1284; RULINGS
B96): eligible at 2 SRM a step, while a nation has 1 SRM a turn, so no ship of the ten
scenarios ever moves by rail. The order is refused in one sentence that says so, and
changes nothing; the naval scenarios' ships are never in port at their SRM Phase."""

from __future__ import annotations

import pytest

from engine.core.dice import ActionDice, ScriptedDice
from engine.games.bia import srm
from engine.games.bia.board import AXIS
from engine.games.bia.state import BlockState
from tests.bia.test_combat import RULES, B, bare, refused

NAVAL = ("BIA7", "BIA8", "BIA9", "BIA10")
TARANTO, NAPLES = B.pack.places["Taranto"], B.pack.places["Naples"]


def in_port(s, block_id: str, steps: int) -> BlockState:
    """A ship laid in Taranto, on the rail to Naples, in a land scenario's SRM Phase."""
    b = BlockState(block_id, AXIS, "box", f"port:{TARANTO}", steps, token="ITN-99")
    s.blocks[block_id] = b
    return b


@pytest.mark.parametrize("steps, cost", [(1, 2), (3, 6)])
def test_a_destroyer_on_any_step_costs_more_srm_than_a_nation_has(steps, cost):
    """L1284: 2 SRM a step; L1277-1278: 1 SRM a nation. A destroyer is refused by rail
    from Taranto, on its last step as on its third, and the order changes nothing."""
    s = bare("BIA6", phase="srm")
    in_port(s, "itn_dd1", steps)
    err = refused(s, AXIS, f"rail itn_dd1 {NAPLES}")
    assert err.rule == "BIA 7.4"
    assert f"would take {cost} SRM (2 a step, L1284)" in err.reason
    assert "has 1 SRM a turn (L1277-1278)" in err.reason


def test_a_submarine_is_eligible_as_a_destroyer_and_a_battleship_is_not():
    """L1284 names coastal submarines; BIA uses every submarine alike (L2524-2525), so the
    pack's submarines cost 2 SRM a step too; a battleship is no eligible unit at all."""
    s = bare("BIA6", phase="srm")
    sub = in_port(s, "itn_ss1", 2)
    assert srm.ship_rail_cost(B, sub) == 4
    assert "would take 4 SRM" in refused(s, AXIS, f"rail itn_ss1 {NAPLES}").reason
    s = bare("BIA6", phase="srm")
    in_port(s, "itn_cesare", 2)
    err = refused(s, AXIS, f"rail itn_cesare {NAPLES}")
    assert err.rule == "BIA 7.4" and "only coastal submarines and destroyers" in err.reason


@pytest.mark.parametrize("scenario", NAVAL)
def test_a_naval_scenarios_destroyers_and_submarines_are_at_sea_in_its_one_srm_phase(scenario):
    """B96: the naval scenarios last one turn, and before its SRM Phase a ship only moves
    from the sea into a convoy box (17.0, L2558-2563), so no destroyer or submarine stands
    on a rail hex then; the Axis SRM Phase offers no rail and refuses one."""
    sc = B.pack.scenario(scenario)
    assert sc.first_turn == sc.last_turn
    s = RULES.setup(scenario, {}, ScriptedDice([1, 2, 3, 4]))
    for _ in range(4):
        if s.phase == "srm":
            break
        p = RULES.prompt(s)
        s, _ = RULES.apply(s, p.role, RULES.parse_order("done"), ScriptedDice([6] * 200))
    assert (s.phase, s.player) == ("srm", AXIS)
    ships = [b for b in s.blocks.values() if B.block(b.id).kind in srm.RAIL_SHIPS]
    assert ships
    assert not [b for b in ships if b.where == "box" and b.at.startswith("port:")]
    assert not [o for o in RULES.legal_orders(s, AXIS) if o.verb == "rail"]
    dd = next(b for b in ships if b.side == AXIS and b.where == "box")
    assert refused(s, AXIS, f"rail {dd.id} {TARANTO}").rule == "BIA 7.0"


def test_no_land_scenario_has_a_naval_unit():
    """B63, B96: the land scenarios' set-ups and reinforcements hold no naval unit, so no
    ship is ever on their map to rail."""
    land = [sc for sc in B.pack.scenarios.scenarios if sc.kind != "naval"]
    assert len(land) == 6
    for sc in land:
        units = [x.unit for x in sc.setup] + [x.unit for x in sc.reinforcements]
        s = RULES.setup(sc.id, {}, ActionDice(b"rail", sc.id, 0))
        assert units and set(units) <= set(s.blocks)
        assert not [i for i in s.blocks if B.block(i).unit_class == "naval"]
