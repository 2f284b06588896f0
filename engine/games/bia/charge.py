"""Panzers Attack! (advanced rules 14.0, L2365-2386) and Cavalry Charge! (13.0, L2344-2356):
in a clear hex, under sunny skies (always, in BIA: RULINGS B51), an attacker with armour
facing no armour, or with cavalry facing neither cavalry nor armour, may charge: the
charging units fire in the ground step before the defender, and the defender's answering
hits fall on them first. TECH 1 tankettes count as armour on neither side (L2380-2381).

The declaration is the attacker's standing order ``charge declare|hold`` (declare by
default), played with the set-up option ``advanced``.

Rulebook line numbers (``L123``) refer to ``shared/rules/003_19684674ce068529.txt``.
"""

from __future__ import annotations

from engine.games.bia import combat
from engine.games.bia.board import Board, enemy
from engine.games.bia.state import BlockState, State


def armour(board: Board, state: State, b: BlockState) -> bool:
    """An armoured combat unit for a charge: tanks, and tankettes from TECH 2 (L2380-2381);
    an armoured HQ fires in the artillery step and does not charge (RULINGS B51)."""
    block = board.block(b.id)
    if block.unit_class != "armored" or block.role != "gcu":
        return False
    return (
        block.kind != "tankette" or board.pack.tables.tech(block.power, "tankette", state.turn) >= 2
    )


def chargers(board: Board, state: State, h: str) -> list[BlockState]:
    """The attacker's units that charge in this round's ground step at ``h``: its armour
    when the defender has none (14.0), its cavalry when the defender has neither cavalry
    nor armour (13.0); none unless the hex is clear, the advanced rules are on and the
    attacker's standing order declares (``charge declare``)."""
    f = state.fight
    att = f["attacker"]
    if not state.options.get("advanced") or combat.standing(state, att, "charge") != "declare":
        return []
    if board.hex(h).terrain != "clear":
        return []
    mine = [x for x in combat.ground(board, state, h, att) if combat.value(board, x) > 0]
    theirs = combat.ground(board, state, h, enemy(att))
    out = []
    if not any(armour(board, state, x) for x in theirs):
        out += [x for x in mine if armour(board, state, x)]
        if not any(board.block(x.id).kind == "cavalry" for x in theirs):
            out += [x for x in mine if board.block(x.id).kind == "cavalry"]
    return out
