"""Helpers shared by the tests of the rest of the rules (issue 12): a campaign state with
the map cleared, units put where a test needs them, orders applied with scripted dice,
refusals checked to name their rule and change nothing."""

from __future__ import annotations

import pytest

from engine.core.dice import ScriptedDice
from engine.core.errors import IllegalOrder
from engine.games.tac.rules import TheAfricanCampaign
from engine.games.tac.state import AXIS, State

R = TheAfricanCampaign()
B = R.board


def empty(
    player: str = AXIS, turn: int = 20, phase: str = "move", options: dict | None = None
) -> State:
    """Turn ``turn``, ``player``'s ``phase``, no unit on the map; one Axis unit waits at
    Tripoli so that the Axis is still in play (3.0)."""
    s = R.setup("campaign", options or {}, ScriptedDice([]))
    for u in s.units.values():
        u.where, u.hex = "pool", None
    s.units["ge_ramcke"].where = "tripoli"
    s.turn, s.player, s.phase, s.fuel = turn, player, phase, 5
    s.first = "allied"
    s.air_bases = []
    return s


def put(s: State, uid: str, h: str, step: int = 0) -> None:
    u = s.units[uid]
    u.where, u.hex, u.step = "map", h, step


def go(s: State, role: str, text: str, dice=()) -> tuple[State, list]:
    return R.apply(s, role, R.parse_order(text), ScriptedDice(list(dice)))


def refused(s: State, role: str, text: str, rule: str, dice=()) -> str:
    before = s.to_dict()
    with pytest.raises(IllegalOrder) as e:
        go(s, role, text, dice)
    assert e.value.rule == rule, str(e.value)
    assert s.to_dict() == before
    return str(e.value)
