"""PFV 7 phase 8, Supply: at the end of his player turn, each of the phasing player's
pieces on the map needs a path of land hexes to a friendly airfield. The path may not enter
enemy-occupied hexes, nor enemy zones of control unless a friendly piece stands there.
Pieces without one lose a step (an already reduced unit is eliminated: RULINGS R20)."""

from __future__ import annotations

from collections import deque

from engine.games.pfv.context import SIDE_NAME, Ctx
from engine.games.pfv.state import enemy


def supplied_hexes(ctx: Ctx, side: str) -> set[str]:
    """Every hex from which a supply path reaches a friendly airfield, found by one search
    outward from the airfields (paths are symmetric)."""
    b, s = ctx.board, ctx.state
    stacks = b.stacks(s)
    foe = enemy(side)
    ezoc = b.zoc(s, foe)

    def open_hex(h: str) -> bool:
        pieces = stacks.get(h)
        if pieces and b.side(pieces[0]) == foe:
            return False
        if h in ezoc and not pieces:
            return False
        return b.map.land.get(h, False) and b.enter_cost(h) is not None

    sources = [h for h in b.friendly_airfields(s, side, ctx.options) if open_hex(h)]
    seen = set(sources)
    queue = deque(sources)
    while queue:
        here = queue.popleft()
        for n in b.grid.neighbours(here):
            if n not in seen and b.passable(here, n) and open_hex(n):
                seen.add(n)
                queue.append(n)
    return seen


def check_supply(ctx: Ctx) -> None:
    b, s = ctx.board, ctx.state
    side = s.player
    ok = supplied_hexes(ctx, side)
    cut = sorted(
        p.id
        for p in s.pieces.values()
        if p.where == "map" and b.side(p.id) == side and p.hex not in ok
    )
    if not cut:
        ctx.log(
            "supply", f"Supply: every {SIDE_NAME[side]} piece traces a path to a friendly airfield."
        )
        return
    for pid in cut:
        ctx.log(
            "supply",
            f"{ctx.name(pid)} in {s.pieces[pid].hex} is out of supply (PFV 7 phase 8).",
            about=[pid],
            others=f"{ctx.subject([pid])} in {s.pieces[pid].hex} is out of supply (PFV 7 phase 8).",
        )
        ctx.lose_step(pid, battlegroup=ctx.options.supply_loss_battlegroup)
