"""Phase 4, Strategic Rail Movement (7.4, L1273-1297).

Rulebook line numbers (``L123``) refer to ``shared/rules/003_19684674ce068529.txt``.
"""

from __future__ import annotations

from collections import deque

from engine.core.errors import IllegalOrder
from engine.core.events import private
from engine.games.bia import ledger
from engine.games.bia.board import Board, enemy
from engine.games.bia.context import Ctx, refuse
from engine.games.bia.movement import _check_stacking, _own_block, is_ground
from engine.games.bia.orders import Rail
from engine.games.bia.pack import neighbours
from engine.games.bia.state import BlockState, State

#: what one SRM costs in PP (7.4, L1226-1227)
SRM_COST = {"yellow": 1}


def rail_graph(board: Board) -> dict[str, set[str]]:
    out: dict[str, set[str]] = {}
    for line in board.pack.map.rails:
        for a, b in zip(line.hexes, line.hexes[1:], strict=False):
            out.setdefault(a, set()).add(b)
            out.setdefault(b, set()).add(a)
    return out


def rail_reach(board: Board, state: State, b: BlockState) -> set[str]:
    """The rail hexes a block may reach by SRM (7.4, L1279-1297; digest 6.3): along rail
    lines of the map, through hexes its side controls that hold no enemy unit and lie
    next to none, from a start that is itself such a hex."""
    foes = {x.at for x in state.on_map(enemy(b.side))}
    near = foes | {n for h in foes for n in neighbours(h)}
    graph = rail_graph(board)

    def ok(h: str) -> bool:
        return h in graph and state.control.get(h) == b.side and h not in near

    if not ok(b.at or ""):
        return set()
    seen = {b.at}
    todo = deque([b.at])
    while todo:
        h = todo.popleft()
        for n in graph[h]:
            if n not in seen and ok(n):
                seen.add(n)
                todo.append(n)
    return seen - {b.at}


def check_rail(ctx: Ctx, order: Rail) -> BlockState:
    """Validate an SRM: one ground unit per nation per phase (L1277-1278, RULINGS B23),
    in supply since the Supply Phase, along friendly rail (``rail_reach``), paid with 1
    yellow PP of the block's paying power (L1226-1227; HQ AP are not written)."""
    s, board = ctx.state, ctx.board
    b = _own_block(ctx, order.block)
    block = board.block(b.id)
    if not is_ground(block):
        raise refuse(
            "BIA 7.4",
            f"{ctx.name(b)} is not a ground unit; air units are not moved by this engine yet.",
        )
    used = [x for x in s.moved if board.block(x).power == block.power]
    if used:
        raise refuse(
            "BIA 7.4",
            f"{board.pack.units.powers[block.power].name} has made its one SRM this turn "
            f"({ctx.name(s.blocks[used[0]])}).",
        )
    if b.oos:
        raise refuse("BIA 7.4", f"{ctx.name(b)} is out of supply and may not move by rail.")
    if not ledger.can_pay(s, ledger.payer(board, s, block.power), SRM_COST):
        raise refuse("BIA 7.4", "An SRM costs 1 yellow PP, and you hold none for this nation.")
    if order.to not in rail_reach(board, s, b):
        raise refuse(
            "BIA 7.4",
            f"{ctx.name(b)} cannot reach {ctx.where(order.to)} by rail: the unit and every "
            "hex of the way must be on friendly rail, free of and not next to enemy units.",
        )
    _check_stacking(ctx, b, order.to)
    return b


def apply_rail(ctx: Ctx, order: Rail) -> None:
    b = check_rail(ctx, order)
    ledger.pay(ctx.state, ledger.payer(ctx.board, ctx.state, ctx.board.block(b.id).power), SRM_COST)
    here = b.at
    b.at = order.to
    ctx.state.moved.append(b.id)
    ctx.events.append(
        private(
            "rail",
            f"{ctx.name(b)} moves by rail {here} -> {order.to}.",
            (b.side,),
            f"{b.token} moves by rail {here} -> {order.to}.",
        )
    )


def rail_orders(ctx: Ctx) -> list[Rail]:
    s, board = ctx.state, ctx.board
    done = {board.block(x).power for x in s.moved}
    out = []
    for b in sorted(s.on_map(s.player), key=lambda b: b.id):
        block = board.block(b.id)
        if b.oos or not is_ground(block) or block.power in done:
            continue
        if not ledger.can_pay(s, ledger.payer(board, s, block.power), SRM_COST):
            continue
        for h in sorted(rail_reach(board, s, b)):
            order = Rail(block=b.id, to=h)
            try:
                _check_stacking(ctx, b, h)
            except IllegalOrder:  # a full hex is simply not offered
                continue
            out.append(order)
    return out
