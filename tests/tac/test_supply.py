"""Supply (TAC 13.0-13.3) and the Supply Check Phase (6.1 B5, C5)."""

from __future__ import annotations

from engine.core.dice import ScriptedDice
from engine.core.hexgrid_rows import distance, neighbours
from engine.games.tac import supply
from engine.games.tac.rules import TheAfricanCampaign
from engine.games.tac.state import ALLIED, AXIS, State

R = TheAfricanCampaign()
B = R.board


def fresh() -> State:
    return R.setup("campaign", {}, ScriptedDice([]))


def empty(turn: int = 20) -> State:
    s = fresh()
    for u in s.units.values():
        u.where, u.hex = "pool", None
    s.units["ge_ramcke"].where = "tripoli"  # one Axis unit in play, off the map (3.0)
    s.turn, s.player, s.phase = turn, ALLIED, "combat"
    return s


def put(s: State, uid: str, h: str, step: int = 0) -> None:
    u = s.units[uid]
    u.where, u.hex, u.step = "map", h, step


def test_every_at_start_unit_is_in_supply():
    s = fresh()
    for side in (ALLIED, AXIS):
        ok = supply.supplied_hexes(B, s, side)
        assert [u.id for u in s.on_map(side) if u.hex not in ok] == []


def surround(s: State, home: str) -> None:
    """Axis units two hexes from ``home`` whose zones cover every hex around it."""
    ring = [
        h
        for h in sorted({n for m in neighbours(home) for n in neighbours(m)})
        if distance(home, h) == 2
    ]
    axis = [
        u.id
        for u in s.units.values()
        if u.side == AXIS and u.where == "pool" and B.values(u.id, 0)[0] > 0
    ]
    need = set(neighbours(home))
    for h in ring:
        if need & set(B.zoc(h)):
            put(s, axis.pop(), h)
            need -= set(B.zoc(h))
    assert not need


def test_the_road_part_of_the_line_has_any_length():
    """13.0: on an empty map the Via Balbia and the coast road join the western edge to
    the eastern, so an Allied line from Misurata's neighbourhood runs east along them."""
    s = empty()
    assert "0601" in supply.supplied_hexes(B, s, ALLIED)
    assert "0601" in supply.supplied_hexes(B, s, AXIS)


def test_enemy_zones_cut_the_line():
    """13.0: the line may not pass through enemy zones of control."""
    s = empty()
    put(s, "uk_22gds", "2040")
    assert "2040" in supply.supplied_hexes(B, s, ALLIED)
    surround(s, "2040")
    assert "2040" not in supply.supplied_hexes(B, s, ALLIED)


def test_out_of_supply_loses_a_step_at_the_supply_check():
    s = empty()
    put(s, "uk_2armd", "2040")
    put(s, "uk_22gds", "2040", step=1)  # on its last step: eliminated
    surround(s, "2040")
    s, ev = R.apply(s, ALLIED, R.parse_order("done"), ScriptedDice([]))
    assert s.units["uk_2armd"].step == 1
    assert s.units["uk_22gds"].where == "dead"
    assert sum(e.kind == "supply" for e in ev) == 2
    assert s.player == AXIS


def test_friendly_city_supplies_its_neighbours():
    """13.3: within 1 hex of a friendly-controlled city a unit is supplied."""
    s = empty()
    city = next(h for h, x in B.hex.items() if x.name == "Mersa Matruh")
    s.control[city] = AXIS
    ok = supply.supplied_hexes(B, s, AXIS)
    assert city in ok and all(n in ok for n in neighbours(city) if B.playable(n))
