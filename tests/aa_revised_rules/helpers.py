"""Scenes for the Axis & Allies Revised rules tests: an empty board with the starting
control of territories, units put where a rulebook example has them, and orders played
with scripted dice.

``scene`` clears every unit, so a test shows exactly what takes part; ``put`` adds units;
``play`` applies orders (each with its own dice) and returns the log lines; ``refused``
applies an order that must fail and proves the state was not touched.
"""

from __future__ import annotations

import pytest

from engine.core.dice import NoDice, ScriptedDice
from engine.core.errors import IllegalOrder
from engine.games.aa_revised.rules import RULESET
from engine.games.aa_revised.state import TURN_ORDER, State

RULES = RULESET


def scene(
    power: str = "germany",
    phase: str = "combat_move",
    scenario: str = "five-players",
    ipcs: int | None = None,
    **options,
) -> State:
    """An empty board at ``phase`` of ``power``'s turn in round 1."""
    s = RULES.setup(scenario, options, NoDice())
    s.units = {}
    s.next_id = 1
    s.turn = TURN_ORDER.index(power)
    s.phase = phase
    s.start_control = dict(s.control)
    if ipcs is not None:
        s.ipcs[power] = ipcs
    return s


def put(state: State, power: str, space: str, **counts: int) -> list[str]:
    """Put units of ``power`` in ``space``: ``put(s, "uk", "india", infantry=3)``; returns
    their ids in the order made. Fighters put in a sea zone go aboard a carrier there."""
    ids = []
    for t, n in counts.items():
        for _ in range(n):
            uid = f"u{state.next_id}"
            state.next_id += 1
            from engine.games.aa_revised.state import Unit

            u = Unit(uid, t, power, space)
            state.units[uid] = u
            ids.append(uid)
    if space.startswith("sz"):
        for uid in ids:
            u = state.units[uid]
            if u.type == "fighter":
                for c in sorted(state.units.values(), key=lambda x: int(x.id[1:])):
                    if c.type == "carrier" and c.at == space and c.owner == power:
                        if sum(1 for x in state.units.values() if x.aboard == c.id) < 2:
                            u.aboard = c.id
                            break
    return ids


def board(state: State, space: str) -> dict[str, dict[str, int]]:
    """{power: {type: count}} in a space."""
    out: dict[str, dict[str, int]] = {}
    for u in state.units.values():
        if u.at == space:
            out.setdefault(u.owner, {})
            out[u.owner][u.type] = out[u.owner].get(u.type, 0) + 1
    return out


def play(state: State, *orders: str, dice=(), role: str | None = None):
    """Apply orders in turn, each as whoever the prompt names (or ``role``); all the
    ``dice`` must be used. Returns the new state and the log lines."""
    d = ScriptedDice(list(dice))
    lines: list[str] = []
    for text in orders:
        who = role or RULES.prompt(state).role
        state, events = RULES.apply(state, who, RULES.parse_order(text), d)
        lines += [e.text for e in events]
    assert not d.remaining, f"unused scripted dice: {d.remaining}"
    return state, lines


def refused(state: State, text: str, role: str | None = None, dice=()) -> IllegalOrder:
    """An order the rules forbid: IllegalOrder, and the state unchanged."""
    before = RULES.dump_state(state)
    who = role or RULES.prompt(state).role
    with pytest.raises(IllegalOrder) as info:
        RULES.apply(state, who, RULES.parse_order(text), ScriptedDice(list(dice)))
    assert RULES.dump_state(state) == before, "a refused order changed the state"
    return info.value


def legal(state: State) -> set[str]:
    return {o.text() for o in RULES.legal_orders(state)}


def prompt(state: State):
    p = RULES.prompt(state)
    return p.role, p.kind
