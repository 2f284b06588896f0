"""Phase 8, Blitz (7.8, L1820-1879): the free MP of the armour that attacked, the units
that follow it, and the blitz battles (fought by :mod:`engine.games.bia.combat`).

Rulebook line numbers (``L123``) refer to ``shared/rules/003_19684674ce068529.txt``.
"""

from __future__ import annotations

from engine.core.errors import IllegalOrder
from engine.core.events import Event, private
from engine.games.bia import air, combat, special
from engine.games.bia.board import Board, enemy
from engine.games.bia.context import Ctx, refuse
from engine.games.bia.movement import _air_units_alone, _check_stacking, _own_block, entry_cost
from engine.games.bia.orders import Blitz
from engine.games.bia.state import BlockState, State


def block_is_air(board: Board, b: BlockState) -> bool:
    return board.block(b.id).unit_class == "air"


#: the kinds that lead a Blitz (tankettes only from TECH 2) and those that may follow
LEADERS = ("tank", "armored_hq", "tankette")
FOLLOWERS = ("artillery", "motorized")


def leads(board: Board, state: State, b: BlockState) -> bool:
    """Tanks, armoured HQs and TECH 2 tankettes that attacked in this Combat Phase lead a
    Blitz (L1820-1827); motorized infantry does not."""
    block = board.block(b.id)
    if b.id not in state.attacked or block.kind not in LEADERS:
        return False
    if block.kind == "tankette":
        return board.pack.tables.tech(block.power, "tankette", state.turn) >= 2
    return True


def follows(board: Board, state: State, b: BlockState) -> set[str]:
    """The hexes a follower may enter: those a leader from its own battle blitzed into
    (artillery and motorized infantry of the original combat, and its TECH 2 air units,
    L1865-1866, L2189-2192; the Rex, TECH 1, may not, L2201-2202)."""
    block = board.block(b.id)
    if b.id not in state.attacked:
        return set()
    if block.unit_class == "air":
        if board.pack.tables.tech(block.power, block.kind, state.turn) < 2:
            return set()
    elif block.kind not in FOLLOWERS:
        return set()
    origin = state.attacked[b.id]
    return {h for x, h in state.blitzed.items() if state.attacked.get(x) == origin}


def check_blitz(ctx: Ctx, order: Blitz) -> tuple[BlockState, bool]:
    """Validate a Blitz move (RULINGS B28); returns the block and whether it enters an
    enemy hex."""
    s, board = ctx.state, ctx.board
    b = _own_block(ctx, order.block)
    if b.id in s.moved:
        raise refuse("BIA 7.8", f"{ctx.name(b)} has already blitzed this phase.")
    lead = leads(board, s, b)
    targets = follows(board, s, b)
    if not lead and order.to not in targets:
        raise refuse(
            "BIA 7.8",
            f"{ctx.name(b)} may not blitz to {order.to}: tanks, armoured HQs and TECH 2 "
            "tankettes that attacked this phase lead; artillery and motorized infantry of "
            "the same battle, and its TECH 2 air units, only follow them into a hex they entered.",
        )
    if block_is_air(board, b):
        return b, air.check_follow(ctx, b, order.to)
    if order.to not in combat.neighbours(b.at) or not board.is_land(order.to):
        raise refuse(
            "BIA 7.8",
            f"The free MP takes {ctx.name(b)} one land hex next to {b.at}, not {order.to}.",
        )
    block = board.block(b.id)
    special.check_entry(ctx, b, order.to, b.at)  # the scenario's special rules (D10-D14)
    neutral = board.pack.scenario(s.scenario).neutral
    blocked = any(
        board.pack.tables.hexsides.get(f, {}).get("mp", 0) is None
        for f in board.features(b.at, order.to)
    )
    if (
        entry_cost(board, block, order.to) is None
        or blocked
        or board.hex(order.to).country in neutral
    ):
        raise refuse(
            "BIA 7.5.2",
            f"{ctx.name(b)} may not enter {ctx.where(order.to)} (terrain, hexside or neutral country).",
        )
    foe = {x.at for x in s.on_map(enemy(b.side))}
    battle = order.to in foe
    if battle and b.oos:
        raise refuse("BIA 4.4", f"{ctx.name(b)} is out of supply and cannot attack.")
    if b.at in s.battles:
        raise refuse("BIA 7.8", f"{ctx.name(b)} is in a battle still to be fought.")
    friends = [x for x in s.at_hex(order.to) if x.side == b.side and x.id != b.id]
    if battle and block.role != "gcu" and not any(board.block(x.id).role == "gcu" for x in friends):
        raise refuse(
            "BIA 3.12",
            f"{ctx.name(b)} is a support unit: it enters an enemy hex only where a "
            "friendly combat unit already fights (RULINGS B9).",
        )
    _check_stacking(ctx, b, order.to)
    return b, battle


def apply_blitz(ctx: Ctx, order: Blitz) -> None:
    """Spend the free MP (L1823-1827): the block enters the hex; an enemy hex becomes a
    blitz battle, fought when the phasing side orders it (L1871-1874), unless the enemy
    has only air units on the ground there, which evacuate (L1650-1656)."""
    s = ctx.state
    b, battle = check_blitz(ctx, order)
    here = b.at
    b.at = order.to
    s.moved.append(b.id)
    if leads(ctx.board, s, b):
        s.blitzed[b.id] = order.to
    if battle and not block_is_air(ctx.board, b) and _air_units_alone(ctx, order.to, b.side):
        for x in sorted(s.at_hex(order.to), key=lambda x: x.token):
            if x.side != b.side:
                air.evacuate(ctx, x)  # Air Evacuation (L1650-1656): no battle
        battle = False
    if battle:
        s.entered_from[b.id] = here
        if order.to not in s.battles:
            s.battles.append(order.to)
            ctx.events.append(
                Event(
                    "battle", f"A blitz battle opens at {ctx.where(order.to)}.", {"hex": order.to}
                )
            )
    elif not block_is_air(ctx.board, b):
        s.control[order.to] = b.side
    shown = f"{combat.name(ctx.board, b)} blitzes {here} -> {order.to}."
    hidden = f"{b.token} blitzes {here} -> {order.to}."
    ctx.events.append(private("blitz", shown, (b.side,), shown if b.revealed else hidden))


def blitz_orders(ctx: Ctx) -> list[Blitz]:
    s = ctx.state
    out = []
    for b in sorted(s.on_map(s.player), key=lambda b: b.id):
        if b.id in s.moved or b.id not in s.attacked:
            continue
        for n in combat.neighbours(b.at):
            order = Blitz(block=b.id, to=n)
            try:
                check_blitz(ctx, order)
            except IllegalOrder:  # a refused blitz is simply not offered
                continue
            out.append(order)
    return out
