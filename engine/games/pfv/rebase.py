"""PFV 7 phase 6, Return to Base: the phasing player returns his flown air first, then the
other player. Each air asset goes to any friendly airfield holding no other air asset; air
that finds no airfield is eliminated."""

from __future__ import annotations

from engine.games.pfv.context import SIDE_NAME, Ctx, listing, refuse
from engine.games.pfv.orders import Rebase
from engine.games.pfv.state import enemy


def in_box(ctx: Ctx, side: str) -> list[str]:
    b, s = ctx.board, ctx.state
    return sorted(p.id for p in s.pieces.values() if p.where == "rtb" and b.side(p.id) == side)


def open_airfields(ctx: Ctx, side: str) -> list[str]:
    """Friendly airfields with no air asset in them and no enemy piece (PFV 7 phase 6).
    An enemy zone of control does not bar rebasing (RULINGS R16)."""
    b, s = ctx.board, ctx.state
    stacks = b.stacks(s)
    out = []
    for h in b.friendly_airfields(s, side, ctx.options):
        here = stacks.get(h, [])
        if any(b.is_air(p) for p in here) or (here and b.side(here[0]) != side):
            continue
        out.append(h)
    return out


def rebase(ctx: Ctx, order: Rebase) -> None:
    b, s = ctx.board, ctx.state
    side = s.rebasing
    box = in_box(ctx, side)
    if order.piece not in box:
        raise refuse(
            "PFV 7",
            f"{order.piece!r} is not in the {SIDE_NAME[side]} Return to Base box.",
            f"In the box: {listing(box)}.",
        )
    fields = open_airfields(ctx, side)
    if order.hex not in fields:
        raise refuse(
            "PFV 7",
            f"{order.hex} is not a free friendly airfield: air returns to an airfield your side holds that has no other air asset.",
            f"Free airfields: {listing(fields)}.",
        )
    ctx.put(order.piece, order.hex)
    ctx.log(
        "rebase",
        f"{b.name(order.piece)} returns to base at {order.hex}.",
        about=[order.piece],
        others=f"{ctx.subject([order.piece])} returns to base at {order.hex}.",
        piece=order.piece,
        hex=order.hex,
    )


def settle(ctx: Ctx) -> bool:
    """Advance Return to Base as far as it goes without a decision. Returns ``True`` when
    the phase is over."""
    s = ctx.state
    while True:
        side = s.rebasing
        box = in_box(ctx, side)
        if box and not open_airfields(ctx, side):
            for air in box:
                ctx.eliminate(air, ": no free friendly airfield is left for it (PFV 7 phase 6)")
            box = []
        if box:
            return False
        if side == s.player:
            s.rebasing = enemy(s.player)
            continue
        s.rebasing = None
        return True
