"""Multi-hex moves in the legal orders, dropping units off a moving stack (TAC 8.2.3),
retreating toward supply (9.8.1), the optional rules at set-up (18.0-18.2, 18.6)."""

from __future__ import annotations

import pytest

from engine.core.dice import ScriptedDice
from engine.core.errors import IllegalOrder
from engine.core.hexgrid_rows import neighbours
from engine.games.tac import battle, legal, supply, turn
from engine.games.tac.state import ALLIED, AXIS
from tests.tac.kit import B, R, empty, go, put, refused


def test_legal_orders_offer_each_reachable_hex_once_and_each_applies():
    """8.0: the 90th Light (5-7) on open desert reaches hexes up to 7 MP away; one move per
    destination, each accepted as offered."""
    s = empty(AXIS, turn=20)
    put(s, "ge_90", "1727")
    moves = [o for o in R.legal_orders(s, AXIS) if o.verb == "move" and o.units == ("ge_90",)]
    ends = [o.path[-1] for o in moves]
    assert len(ends) == len(set(ends)) and "1734" in ends and "1735" not in ends
    full = [legal.expand(B, s, o).path for o in moves]
    assert all(len(p) >= 1 and p[0] in neighbours("1727") for p in full)
    for o in moves:
        R.apply(s, AXIS, o, ScriptedDice([]))
    strategic = [
        o for o in R.legal_orders(s, AXIS) if o.verb == "strategic" and o.units == ("ge_90",)
    ]
    assert strategic and not set(o.path[-1] for o in strategic) & set(ends)
    for o in strategic:
        R.apply(s, AXIS, o, ScriptedDice([]))


def test_a_long_move_is_offered_by_its_destination_and_moves_along_the_path_found():
    """RULINGS R43 (8.0): a path of more than 10 hexes is offered as its last hex; that
    order moves the unit exactly as the whole path written out does, and a destination
    out of reach is refused in one sentence with nothing changed."""
    s = empty(AXIS, turn=20)
    put(s, "ge_90", "1727")
    offered = [o for o in R.legal_orders(s, AXIS) if getattr(o, "units", ()) == ("ge_90",)]
    short = [o for o in offered if o.verb in ("move", "strategic") and len(o.path) == 1
             and o.path[0] not in neighbours("1727")]  # fmt: skip
    assert short, [o.text() for o in offered]
    assert all(len(o.text()) <= 40 for o in short)
    for o in short[:5]:
        whole = legal.expand(B, s, o)
        assert len(whole.path) > legal.SHORT_PATH and whole.path[-1] == o.path[0]
        a, ea = R.apply(s, AXIS, o, ScriptedDice([]))
        b, eb = R.apply(s, AXIS, whole, ScriptedDice([]))
        assert a.to_dict() == b.to_dict() and [e.text for e in ea] == [e.text for e in eb]
        assert a.units["ge_90"].hex == o.path[0]
    far = refused(s, AXIS, "move ge_90 5050", "TAC 8.0")
    assert "cannot reach 5050" in far


def test_legal_moves_stop_in_enemy_zones_and_respect_fuel():
    """4.3.2: no offered path goes on past an enemy-controlled hex; 8.2.6: with no Fuel
    only moves of 2 MP or less are offered."""
    s = empty(AXIS, turn=20)
    put(s, "ge_90", "1727")
    put(s, "uk_50", "1730")
    zoc = set(B.zoc("1730"))
    for o in R.legal_orders(s, AXIS):
        if o.verb == "move":
            assert not zoc & set(o.path[:-1]), o.text()
    s.fuel = 0
    ends = {
        o.path[-1] for o in R.legal_orders(s, AXIS) if o.verb == "move" and o.units == ("ge_90",)
    }
    assert "1725" in ends and "1724" not in ends


def test_units_dropped_off_stay_where_the_stack_left_them():
    """8.2.3 (RULINGS R1): ``-<unit>`` leaves a unit of the stack on the hex it stands on."""
    s = empty(AXIS, turn=20)
    put(s, "ge_90", "1727")
    put(s, "ge_8pz", "1727")
    s2, ev = go(s, AXIS, "move ge_90,ge_8pz 1728 -ge_8pz 1729 1730")
    assert (s2.units["ge_8pz"].hex, s2.units["ge_90"].hex) == ("1728", "1730")
    assert {"ge_8pz", "ge_90"} <= s2.moved and ev[-1].data["dropped"] == {"ge_8pz": "1728"}
    refused(s, AXIS, "move ge_90 1728 -ge_8pz 1729", "TAC 8.2.3")  # not in the stack
    refused(s, AXIS, "move ge_90,ge_8pz 1728 -ge_90,ge_8pz", "TAC 8.2.3")  # nobody left
    refused(s, AXIS, "move ge_90,ge_8pz -ge_8pz 1728", "TAC 8.2.3")  # before the first hex


def test_a_dropped_unit_pays_fuel_for_what_it_moved():
    """8.2.6: the unit dropped after 2 MP spends none; the one going on to 4 MP spends 1."""
    s = empty(AXIS, turn=20)
    put(s, "ge_90", "1727")
    put(s, "ge_8pz", "1727")
    s2, ev = go(s, AXIS, "move ge_90,ge_8pz 1728 1729 -ge_8pz 1730 1731")
    assert ev[-1].data["fuel"] == 1 and s2.fuel == 4


def retreat_setup(options=None):
    s = empty(ALLIED, turn=20, phase="combat", options=options)
    put(s, "uk_22gds", "1729")  # 2-6, two steps
    put(s, "uk_16", "1730")  # a friendly unit in the Axis zone
    put(s, "ge_90", "1731")
    return s


def test_optional_18_1_retreat_through_a_friendly_unit_in_an_enemy_zone_costs_a_step():
    """Digest scenario 13: without 18.1 the zone hex with a friend is closed to the retreat;
    with 18.1.1 it may be crossed at one more step lost."""
    s = retreat_setup()
    u = s.units["uk_22gds"]
    assert not any("1730" in p for p in battle.retreat_paths(B, s, u, 1))
    s = retreat_setup({"18.1": True})
    u = s.units["uk_22gds"]
    paths = battle.retreat_paths(B, s, u, 1)
    assert ("1730",) in paths or any("1730" in p for p in paths)
    assert battle.retreat_cost(B, s, u, ("1730",)) == 1
    s.fight = {"attackers": ["ge_90"], "defenders": ["uk_22gds"], "targets": ["1729"], "side": AXIS,
               "foe": ALLIED, "stage": "retreat", "due": {AXIS: 0, ALLIED: 0}, "taken": {},
               "retreat": {AXIS: 0, ALLIED: 1}, "moving": ["uk_22gds"]}  # fmt: skip
    path = next(p for p in paths if p[-1] == "1730")
    battle.retreat(B, s, "uk_22gds", path)
    assert (s.units["uk_22gds"].hex, s.units["uk_22gds"].step) == ("1730", 1)


def test_units_retreat_toward_their_supply_when_they_can():
    """9.8.1 (RULINGS R20): where some retreat ends in supply, the others are closed."""
    s = empty(ALLIED, turn=20)
    fed = supply.supplied_hexes(B, s, ALLIED)
    edge = next(h for h in sorted(fed) if B.playable(h) and any(
        B.playable(n) and n not in fed for n in neighbours(h)) and int(h[:2]) > 20)  # fmt: skip
    put(s, "uk_22gds", edge)
    paths = battle.retreat_paths(B, s, s.units["uk_22gds"], 1)
    assert paths and all(p[-1] in fed for p in paths)


def test_options_are_chosen_at_set_up_and_off_by_default():
    s = R.setup("campaign", {}, ScriptedDice([]))
    assert s.options == {} and len(s.mines["cup"]) == 10 and s.first == ALLIED
    for bad, rule in (
        ({"18.9": True}, "TAC 18.0"),
        ({"18.7": True}, "TAC 18.6.2"),  # Event Chits need the bonus minefields
        ({"18.1": "yes"}, "TAC 18.0"),
    ):
        with pytest.raises(IllegalOrder) as e:
            R.setup("campaign", bad, ScriptedDice([]))
        assert e.value.rule == rule
    s = R.setup(
        "campaign", {"18.1": True, "18.2": True, "18.6": True, "18.3": False}, ScriptedDice([])
    )
    assert s.first == ALLIED and s.player == ALLIED  # 18.2.2: Turn 1 is the Allies'


@pytest.mark.parametrize(
    ("roll", "rommel", "first"),
    [(4, False, ALLIED), (5, False, AXIS), (4, True, AXIS), (3, True, ALLIED)],
)
def test_initiative_18_2_1(roll, rommel, first):
    s = empty(AXIS, turn=10, phase="supply", options={"18.2": True})
    s.units["ge_dak"].where = "tripoli" if rommel else "dead"
    ev = turn.end_turn(B, s, ScriptedDice([roll]))
    assert (s.turn, s.first, s.player, s.phase) == (11, first, first, "reinforce")
    assert any(e.kind == "initiative" for e in ev)


def test_initiative_7_lets_the_axis_choose_and_rommels_arrival_goes_first():
    s = empty(AXIS, turn=10, phase="supply", options={"18.2": True})
    s.units["ge_dak"].where = "tripoli"
    turn.end_turn(B, s, ScriptedDice([6]))
    assert s.phase == "initiative" and R.prompt(s).role == AXIS
    assert [o.text() for o in R.legal_orders(s, AXIS)] == ["first allied", "first axis"]
    refused(s, ALLIED, "first allied", "TAC 6.1")
    s2, _ = R.apply(s, AXIS, R.parse_order("first allied"), ScriptedDice([]))
    assert (s2.first, s2.player, s2.phase) == (ALLIED, ALLIED, "mines")
    s = empty(AXIS, turn=4, phase="supply", options={"18.2": True})
    turn.end_turn(B, s, ScriptedDice([]))  # 18.2.2: Rommel's turn, no roll
    assert (s.turn, s.first) == (5, AXIS)


def test_the_second_player_turn_follows_the_first_and_then_the_turn_ends():
    """18.2: with the Axis first, the Allied player turn follows the Axis Supply Check."""
    s = empty(AXIS, turn=10, phase="supply", options={"18.2": True})
    s.first = AXIS
    R._settle(s, ScriptedDice([]))
    assert (s.turn, s.player, s.phase) == (10, ALLIED, "mines")


def test_the_legal_search_matches_the_movement_rules_on_a_ridge_and_pass():
    """The search of :mod:`engine.games.tac.legal` and the judge in movement agree where
    the ridge and pass rules bite (8.2.5)."""
    s = empty(AXIS, turn=20)
    put(s, "ge_90", "1027")
    zoc, foes = set(), set()
    ends = legal.destinations(B, s, [s.units["ge_90"]], False, zoc, foes)
    for path in ends.values():
        R.apply(s, AXIS, R.parse_order("move ge_90 " + " ".join(path)), ScriptedDice([]))
    assert ends
