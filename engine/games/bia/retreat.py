"""Retreat from a battle (7.7.11-7.7.11.2, L1767-1815).

After the ground step the defender, then the attacker, may retreat its ground blocks to
an adjacent hex that the rules allow (:func:`retreat_hexes`); air units withdraw after
each air round and at the end of a round, to an airbase. A side's standing order
``retreat`` says whether it is asked or stays. The battle that calls these steps is
:mod:`engine.games.bia.combat`.

Rulebook line numbers (``L123``) refer to ``shared/rules/003_19684674ce068529.txt``.
"""

from __future__ import annotations

from engine.core.events import Event
from engine.games.bia import air, air_combat, ledger, special, supply
from engine.games.bia.board import enemy
from engine.games.bia.context import Ctx
from engine.games.bia.firepower import STEPS, ground, locality, name
from engine.games.bia.movement import entry_cost
from engine.games.bia.pack import neighbours
from engine.games.bia.state import BlockState

#: the localities a retreating block may enter alone when its side holds them (7.7.11 b)
CITIES = ("capital", "major", "minor", "fortress")


def retreat_hexes(ctx: Ctx, b: BlockState) -> list[str]:
    """Where a ground block may retreat from its battle (7.7.11-7.7.11.1, L1767-1815): an
    adjacent playable hex it could enter, outside enemy ZOC, holding no enemy unit, not
    another battle hex, across no forbidden hexside or red arrow, with room under the
    stacking limits; and either holding friendly units only or a friendly city (b), or
    on a supply line of its power (a; RULINGS B21). Static infantry never retreats. An
    air unit retreats to an airbase (7.7.11.2, :func:`engine.games.bia.air.retreat_fields`)."""
    s, board = ctx.state, ctx.board
    block = board.block(b.id)
    if air.is_air(board, b):
        return air.retreat_fields(board, s, b)
    if board.pack.tables.unit_kinds.get(block.kind, {}).get("retreats") is False:
        return []
    foe_zoc = supply.zoc(board, s, enemy(b.side))
    foes = {x.at for x in s.on_map(enemy(b.side))}
    neutral = set(board.pack.scenario(s.scenario).neutral)
    lines: set[str] | None = None
    out = []
    for n in neighbours(b.at):
        if not board.is_land(n) or n in foes or n in foe_zoc or n in s.battles:
            continue
        if board.hex(n).country in neutral or entry_cost(board, block, n) is None:
            continue
        if not special.may_enter(board, s, b, n, b.at):  # scenario special rules (D10-D14)
            continue
        if any(
            board.pack.tables.hexsides.get(x, {}).get("mp", 0) is None
            for x in board.features(b.at, n)
        ):
            continue
        mine = [x for x in ground(board, s, n, b.side)]
        gcu = sum(board.block(x.id).role == "gcu" for x in mine)
        limits = board.pack.tables.stacking
        if len(mine) >= limits.ground_units or (
            block.role == "gcu" and gcu >= limits.ground_combat_units
        ):
            continue
        city = locality(board, s, n) in CITIES and s.control.get(n) == b.side
        if mine or city:
            out.append(n)
            continue
        if lines is None:
            lines = supply.supplied_hexes(board, s, block.power)
        if n in lines:
            out.append(n)
    return out


def retreats(ctx: Ctx, side: str) -> list[tuple[BlockState, str]]:
    """Every (block, hex) retreat of ``side`` from the battle being fought: air units
    after any air round and at the end of a round, ground units only after the ground
    step (7.7.11, L1770-1774; RULINGS B43)."""
    s, board, f = ctx.state, ctx.board, ctx.state.fight
    units = air_combat.air_in(board, s, f["hex"], side)
    if STEPS[min(f["step"], len(STEPS) - 1)].startswith("retreat"):
        units = ground(board, s, f["hex"], side) + units
    return [(b, n) for b in units for n in retreat_hexes(ctx, b)]


def do_retreat(ctx: Ctx, b: BlockState, to: str) -> None:
    """Move a retreating block; a ground block takes control of the hex it enters
    (RULINGS B8), an air unit lands at its airbase (7.7.11.2)."""
    s = ctx.state
    here = b.at
    b.at = to
    if air.is_air(ctx.board, b):
        s.aloft.pop(b.id, None)
    else:
        ledger.take_control(ctx, to, b.side)
    ctx.events.append(Event("retreat", f"{name(ctx.board, b)} retreats from {ctx.where(here)} "
                            f"to {ctx.where(to)}.", {"token": b.token, "to": to}))  # fmt: skip
    if not retreats(ctx, b.side):
        end_retreats(ctx)  # nothing left to retreat: the step ends


def end_retreats(ctx: Ctx) -> None:
    """'stay': the side whose retreat step it is keeps its remaining blocks in the hex.
    After the attacker's withdrawals Air-to-Air goes on while it may (7.7.1, L1544-1546)."""
    s, f = ctx.state, ctx.state.fight
    f["wait"] = None
    f["step"] += 1
    if STEPS[f["step"] - 1] == "withdraw_attacker" and air_combat.a2a_happens(
        ctx.board, s, f["hex"]
    ):
        f["step"] = STEPS.index("a2a")
