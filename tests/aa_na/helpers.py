"""Positions for the North Africa rules tests: the RLP set-up with the pieces a test
needs put where the example puts them."""

from __future__ import annotations

from engine.core.dice import NoDice
from engine.games.aa_na.rules import RULESET
from engine.games.aa_na.state import State

R = RULESET


def start(scenario: str = "rlp", players: int = 2) -> State:
    return R.setup(scenario, {"players": players}, NoDice())


def position(
    power: str,
    phase: str,
    units: list[tuple[str, str, str, int]],
    supply: dict[str, int] | None = None,
    control: dict[str, str] | None = None,
    round_: int = 1,
    players: int = 2,
) -> State:
    """An RLP board emptied of pieces and supply, holding only ``units``
    (``(power, chart row, space, count)``) and ``supply``, with ``power`` to act in ``phase``."""
    s = start(players=players)
    s.units = []
    s.supply = dict(supply or {})
    s.land_mines = []
    if control is not None:
        s.control = dict(control)
    s.start_control = dict(s.control)  # the turn starts here: where air units may land (L897)
    for power_, type_, at, n in units:
        for _ in range(n):
            s.new_unit(type_, power_, at)
    s.power, s.phase, s.round = power, phase, round_
    s.bought = {"supply": 0, "land_mines": [], "sea_mines": [], "french": []}
    return s


def play(state: State, role: str, text: str, dice=None):
    return R.apply(state, role, R.parse_order(text), dice or NoDice())


def at(state: State, space: str, power: str | None = None) -> dict[str, int]:
    out: dict[str, int] = {}
    for u in state.units:
        if u.at == space and (power is None or u.power == power):
            out[u.type] = out.get(u.type, 0) + 1
    return out
