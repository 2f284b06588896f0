"""Small helpers for the PFV rules tests, on top of the lead's ``fixtures.py``.

``refused`` applies an order that must fail and proves the state was not touched;
``legal`` lists the orders the engine offers as text; ``hex_of`` and ``stack`` say where
pieces are. ``BYSTANDER`` and ``KEEP_FIGHTING`` are pieces far from the action that keep a
scene from running on by itself (see their comments).
"""

from __future__ import annotations

import pytest

from engine.core.dice import ScriptedDice
from engine.core.errors import IllegalOrder
from engine.core.events import ORDER
from tests.pfv.fixtures import counter, play

#: A lone Axis unit far from the action. With no Axis piece left in play the Allies win at
#: once (PFV 4), so a scene of Allied pieces keeps this one on the map.
BYSTANDER = {"z": "8808"}

#: An Axis unit next to an Allied unit, far from the action: the phasing side still has an
#: attack it could make, so after a battle the combat phase waits for orders instead of
#: running on to Return to Base, replacements and supply.
KEEP_FIGHTING = {"15pz": "8617", "6arm": "8618"}


def refused(rules, state, role: str, text: str, dice=()) -> IllegalOrder:
    """Apply an order the rules forbid: it raises IllegalOrder and the state is unchanged."""
    before = rules.dump_state(state)
    with pytest.raises(IllegalOrder) as info:
        play(rules, state, role, text, dice)
    assert rules.dump_state(state) == before, "a refused order changed the state"
    return info.value


def legal(rules, state, role: str | None = None) -> set[str]:
    """The legal orders now, written as a player would type them."""
    return {o.text() for o in rules.legal_orders(state, role)}


def hex_of(state, piece: str) -> str:
    """The hex a piece stands in, or its box ("rtb", "dead", "pool", "removed")."""
    p = state.pieces[piece]
    return p.hex if p.where == "map" else p.where


def stack(state, hex_id: str) -> set[str]:
    return {p.id for p in state.pieces.values() if p.where == "map" and p.hex == hex_id}


def prompt_of(rules, state) -> tuple[str | None, str]:
    """Whose decision it is and of which kind (``("allied", "retreat")``)."""
    p = rules.prompt(state)
    return p.role, p.kind


def slow_unit(side: str = "allied", move: int = 2):
    """A two-step unit with a small movement factor, for the MP examples of PFV 8."""
    return counter("slow", side, "unit", "Slow column", combat=3, reduced=1, move=move)


def fight(rules, state, text: str, dice=()):
    """Declare an attack and, if the defender is asked for air support, answer 'air none';
    ``dice`` are all the rolls of the battle. Returns the state, the log and the air answers
    the defender was offered (empty when no prompt was made)."""
    d = ScriptedDice(list(dice))
    attacker = rules.prompt(state).role
    state, events = rules.apply(state, attacker, rules.parse_order(text), d)
    offered: set[str] = set()
    p = rules.prompt(state)
    if p.kind == "air":
        offered = legal(rules, state)
        state, more = rules.apply(state, p.role, rules.parse_order("air none"), d)
        events += more
    assert not d.remaining, f"unused scripted dice: {d.remaining}"
    return state, [e.text for e in events if e.kind != ORDER], offered
