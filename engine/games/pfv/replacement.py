"""PFV 7 phase 7, Replacements: the phasing player rebuilds reduced pieces in place and
brings eliminated support assets back from the dead pile: one for the Axis, two for the
Allies, any mix, unused capacity lost. Eliminated units never return."""

from __future__ import annotations

from engine.games.pfv.context import SIDE_NAME, Ctx, listing, refuse
from engine.games.pfv.orders import Rebuild, Replace
from engine.games.pfv.state import enemy


def rebuildable(ctx: Ctx) -> list[str]:
    """Reduced pieces that may flip back: units outside an enemy zone of control (even with
    a friend in the hex, PFV 9), and two-sided supports anywhere (RULINGS R18)."""
    b, s = ctx.board, ctx.state
    ezoc = b.zoc(s, enemy(s.player))
    out = []
    for p in s.pieces.values():
        if p.where != "map" or not p.reduced or b.side(p.id) != s.player:
            continue
        if b.is_unit(p.id) and p.hex in ezoc:
            continue
        out.append(p.id)
    return sorted(out)


def replaceable(ctx: Ctx) -> list[str]:
    """Eliminated support assets of the phasing side with somewhere to go; Rommel once
    recalled never returns (PFV 17)."""
    b, s = ctx.board, ctx.state
    out = []
    for p in s.pieces.values():
        if p.where == "dead" and b.side(p.id) == s.player and b.is_support(p.id):
            if placements(ctx, p.id):
                out.append(p.id)
    return sorted(out)


def placements(ctx: Ctx, piece: str) -> list[str]:
    """Air: a friendly airfield with no air asset, outside an enemy zone of control.
    Other supports: a village or port your side holds, outside an enemy zone of control,
    with room in the stack (PFV 7 phase 7)."""
    b, s = ctx.board, ctx.state
    side = b.side(piece)
    ezoc = b.zoc(s, enemy(side))
    stacks = b.stacks(s)
    if b.is_air(piece):
        pool = b.friendly_airfields(s, side, ctx.options)
    else:
        pool = sorted(h for h in set(b.villages) | set(b.ports) if s.control.get(h) == side)
    out = []
    for h in pool:
        here = stacks.get(h, [])
        if h in ezoc or (here and b.side(here[0]) != side):
            continue
        if b.stacking_problem(here + [piece]):
            continue
        out.append(h)
    return out


def rebuild(ctx: Ctx, order: Rebuild) -> None:
    b, s = ctx.board, ctx.state
    _capacity(ctx)
    pid = order.piece
    options = rebuildable(ctx)
    if pid not in options:
        if pid in b.counters and s.pieces[pid].where == "dead":
            why = (
                "an eliminated unit never returns"
                if b.is_unit(pid)
                else "an eliminated support asset comes back with 'replace', not 'rebuild'"
            )
        elif (
            pid in b.counters
            and s.pieces[pid].where == "map"
            and s.pieces[pid].reduced
            and b.is_unit(pid)
        ):
            why = f"{b.name(pid)} is in an enemy zone of control"
        elif pid in b.counters and b.counter(pid).kind == "battlegroup":
            why = "a battlegroup has no full-strength side to flip to"
        else:
            why = f"{pid!r} is not one of your reduced pieces on the map"
        raise refuse(
            "PFV 7", f"That cannot be rebuilt: {why}.", f"Rebuildable now: {listing(options)}."
        )
    s.pieces[pid].reduced = False
    s.replacements_left -= 1
    ctx.log(
        "rebuild",
        f"{b.name(pid)} is rebuilt to full strength in {s.pieces[pid].hex}.",
        about=[pid],
        others=f"{ctx.subject([pid])} is rebuilt to full strength in {s.pieces[pid].hex}.",
        piece=pid,
    )


def replace(ctx: Ctx, order: Replace) -> None:
    b, s = ctx.board, ctx.state
    _capacity(ctx)
    pid = order.piece
    if pid not in b.counters or b.side(pid) != s.player:
        raise refuse(
            "PFV 7",
            f"{pid!r} is not one of your pieces.",
            f"Replaceable now: {listing(replaceable(ctx))}.",
        )
    p = s.pieces[pid]
    if p.where == "removed" and pid == b.scenario.rommel:
        raise refuse("PFV 17", "Rommel has been recalled and has left the game for good.")
    if p.where != "dead":
        raise refuse(
            "PFV 7",
            f"{b.name(pid)} is not in the dead pile.",
            f"Replaceable now: {listing(replaceable(ctx))}.",
        )
    if b.is_unit(pid):
        raise refuse(
            "PFV 7",
            f"{b.name(pid)} is a unit, and an eliminated unit may never return.",
            "Only eliminated support assets are replaced.",
        )
    hexes = placements(ctx, pid)
    if order.hex not in hexes:
        where = (
            "a friendly airfield with no air asset, outside enemy zones of control"
            if b.is_air(pid)
            else "a village or port your side holds, outside enemy zones of control, with room in the stack"
        )
        raise refuse(
            "PFV 7",
            f"{b.name(pid)} may not be placed in {order.hex}; it must go to {where}.",
            f"Legal hexes: {listing(hexes)}."
            if hexes
            else "There is no such hex now, so it cannot be replaced this turn.",
        )
    p.where, p.hex, p.reduced = "map", order.hex, False
    s.replacements_left -= 1
    ctx.log(
        "replace",
        f"{b.name(pid)} returns to play in {order.hex}.",
        about=[pid],
        others=f"{ctx.subject([pid])} returns to play in {order.hex}.",
        piece=pid,
        hex=order.hex,
    )


def _capacity(ctx: Ctx) -> None:
    s = ctx.state
    if s.replacements_left <= 0:
        n = ctx.board.scenario.replacements[s.player]
        raise refuse(
            "PFV 7",
            f"The {SIDE_NAME[s.player]} player has used all {n} replacement(s) this turn.",
            "Type 'done'.",
        )


def anything_to_do(ctx: Ctx) -> bool:
    return ctx.state.replacements_left > 0 and bool(rebuildable(ctx) or replaceable(ctx))
