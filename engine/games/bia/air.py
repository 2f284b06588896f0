"""Air Transfer in the Movement Phase (7.5, L1334-1348; 3.4.1, L299-309; 4.4, L697-699).

An air unit moves from airfield to airfield: a city or bunker hex its side controls that
can act as a supply source of its power (4.2), holding no enemy unit and no other air
unit of its side (one per airfield, L305). Its range is the Play Aid's by type and TECH,
doubled when it is supplied (L1348) and halved when it is out of supply (L697-699). The
air attack (combat move), Defender Reaction and the air steps of combat are not written
(RULINGS B17).

Rulebook line numbers (``L123``) refer to ``shared/rules/003_19684674ce068529.txt``.
"""

from __future__ import annotations

from engine.core.events import private
from engine.games.bia import supply
from engine.games.bia.board import Board
from engine.games.bia.combat import locality
from engine.games.bia.context import Ctx, refuse
from engine.games.bia.orders import Fly
from engine.games.bia.pack import distance
from engine.games.bia.state import BlockState, State


def is_air(board: Board, b: BlockState) -> bool:
    return board.block(b.id).unit_class == "air"


def transfer_range(board: Board, state: State, b: BlockState) -> int:
    """The Play Aid range of the block's type at its TECH (3.16; fighters 5/5/10, bombers
    10/10/15), doubled in supply (L1348), halved out of supply (L697-699)."""
    block = board.block(b.id)
    tech = board.pack.tables.tech(block.power, block.kind, state.turn)
    reach = board.pack.tables.air_range.get(block.kind, {}).get(str(tech), 5)
    return reach // 2 if b.oos else reach * 2


def airfields(board: Board, state: State, b: BlockState) -> list[str]:
    """The airfields the block may land at by Air Transfer, nearest first."""
    power = board.block(b.id).power
    src = supply.sources(board, state, power)
    reach = transfer_range(board, state, b)
    taken = {x.at for x in state.on_map(b.side) if is_air(board, x) and x.id != b.id}
    foes = {x.at for x in state.on_map() if x.side != b.side}
    out = []
    for h in src:
        place = locality(board, state, h)
        row = board.pack.tables.localities.get(place) if place else None
        if (
            row is not None and row.airfield and state.control.get(h) == b.side
            and h != b.at and h not in taken and h not in foes and distance(b.at, h) <= reach
        ):  # fmt: skip
            out.append(h)
    return sorted(out, key=lambda h: (distance(b.at, h), h))


def _own_air(ctx: Ctx, name: str) -> BlockState:
    s = ctx.state
    b = s.blocks.get(name) or s.by_token(name.upper())
    if b is None or b.side != s.player or b.where != "map" or not is_air(ctx.board, b):
        raise refuse("BIA 7.5", f"You have no air unit called {name!r} on the map.")
    return b


def check_fly(ctx: Ctx, order: Fly) -> BlockState:
    """7.5 (L1344-1348): one Air Transfer per air unit per Movement Phase (RULINGS B7),
    from the airfield it stands on to one of :func:`airfields`."""
    s, board = ctx.state, ctx.board
    b = _own_air(ctx, order.block)
    if b.id in s.moved:
        raise refuse("BIA 7.5", f"{ctx.name(b)} has already moved this phase.")
    if b.at in s.battles:
        raise refuse("BIA 7.5", f"{ctx.name(b)} stands in a battle hex and stays for the battle.")
    if order.to not in airfields(board, s, b):
        reach = transfer_range(board, s, b)
        raise refuse(
            "BIA 7.5",
            f"{ctx.name(b)} cannot transfer to {ctx.where(order.to)}: it lands at an airfield "
            f"of its side within {reach} hexes that can act as a supply source, with no enemy "
            "unit and no other air unit of yours.",
        )
    return b


def apply_fly(ctx: Ctx, order: Fly) -> None:
    b = check_fly(ctx, order)
    here = b.at
    b.at = order.to
    ctx.state.moved.append(b.id)
    ctx.events.append(
        private(
            "fly",
            f"{ctx.name(b)} transfers by air {here} -> {order.to}.",
            (b.side,),
            f"{b.token} transfers by air {here} -> {order.to}.",
        )
    )


def fly_orders(ctx: Ctx) -> list[Fly]:
    s, board = ctx.state, ctx.board
    out = []
    for b in sorted(s.on_map(s.player), key=lambda b: b.id):
        if is_air(board, b) and b.id not in s.moved and b.at not in s.battles:
            out += [Fly(block=b.id, to=h) for h in airfields(board, s, b)]
    return out
