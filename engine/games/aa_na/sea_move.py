"""Phase 3 for sea units (Sea Unit Movement, L662-666; Submarines, L670-672; Sea Units
Starting in Enemy-Occupied Sea Zones, L674-680) and the sea attacks they declare by where
they end (Declaration of Attacks, L688-692, L706).
"""

from __future__ import annotations

from engine.core.errors import IllegalOrder
from engine.games.aa_na import optional, sea_mines
from engine.games.aa_na.context import Ctx, chart, listing, refuse
from engine.games.aa_na.orders import Move
from engine.games.aa_na.state import SIDE, Unit

R_SEA = "North Africa: Phase 3, Sea Unit Movement (L662-680)"
R_DECLARE = "North Africa: Declaration of Attacks, air and sea units (L688-692)"


def is_sea(u: Unit) -> bool:
    return chart()[u.type].kind == "sea"


def names_sea(ctx: Ctx, order: Move) -> bool:
    start = ctx.board.find(order.path[0]) if order.path else None
    return start is not None and start.kind == "sea"


def enemy_destroyer(ctx: Ctx, zone: str) -> bool:
    return any(SIDE[u.power] != ctx.side and chart()[u.type].type == "destroyer" for u in ctx.units_at(zone))


def enemy_cargo(ctx: Ctx, zone: str, side: str) -> bool:
    """Enemy reinforcements at sea in ``zone``: the land units and supply of a convoy, on
    virtual transports (Transports, L612-620)."""
    if any(SIDE[u.power] != side and chart()[u.type].kind == "land" for u in ctx.units_at(zone)):
        return True
    return any(n for p, n in ctx.state.convoy_supply.get(zone, {}).items() if SIDE[p] != side)


def enemies_at_sea(ctx: Ctx, zone: str, side: str) -> bool:
    """Anything of the other side to attack in ``zone``: sea and air units or cargo."""
    return enemy_cargo(ctx, zone, side) or any(
        SIDE[u.power] != side and chart()[u.type].kind in ("sea", "air") for u in ctx.units_at(zone)
    )


def check_step(ctx: Ctx, a: str, b: str, rule: str) -> None:
    """A border one sea unit may cross: sea zones only, Messina for Axis sea units only
    (L527), the Suez Canal zone only from the Indian Ocean (L507), the Atlantic and Indian
    Ocean zones only by the UK (L513; RULINGS: A15)."""
    board = ctx.board
    if not board.adjacent(a, b) or board.spaces[b].kind != "sea":
        raise refuse(rule, f"{ctx.name(b)} is not a sea zone bordering {ctx.name(a)}.")
    for p in board.pack.passages:
        if {a, b} == set(p.between) and p.sea_units_of != ctx.side:
            raise refuse(rule, f"Only {p.sea_units_of} sea units pass the {p.name} (L527).")
    only = board.pack.entry_only_from.get(b)
    if only and a not in only:
        raise refuse(rule, f"{ctx.name(b)} is entered only from {listing(ctx.name(x) for x in only)} (L507).")
    closed = board.pack.closed_except.get(b)
    if closed and ctx.power not in closed:
        raise refuse(rule, f"{ctx.name(b)} is closed to {ctx.who(ctx.power)} (L513).")


def combat_sail(ctx: Ctx, order: Move) -> None:
    """Sea units move up to their move value and stop on entering a hostile zone; submarines
    pass hostile zones but stop where an enemy destroyer is (L664, L672). They end in attack
    position: a hostile zone, or a zone holding enemy submarines or transports (L626, L666),
    unless they are leaving a hostile zone they started in (L678), or stop on entering a
    zone mined by the enemy, from where they may go on (L984)."""
    from engine.games.aa_na.combat_move import moves_first, pick

    moves_first(ctx)
    path = [ctx.find(w, R_SEA) for w in order.path]
    start, end = path[0], path[-1]
    movers = pick(ctx, start, order.units, order.ids, R_SEA,
                  lambda u: is_sea(u) and (not u.moved or sea_mines.may_go_on(ctx, u)))
    if not movers or len(path) < 2 or order.cargo:
        raise refuse(R_SEA, "Name the sea units and the zones they sail through.")
    mov = min(sea_mines.budget(ctx, u) for u in movers)
    if len(path) - 1 > mov:
        raise refuse(R_SEA, f"These sea units move at most {mov} more space(s).")
    subs = all(chart()[u.type].type == "submarine" for u in movers)
    for i, (a, b) in enumerate(zip(path, path[1:], strict=False)):
        check_step(ctx, a, b, R_SEA)
        last = i == len(path) - 2
        if not last and (enemy_destroyer(ctx, b) if subs else ctx.hostile(b, ctx.side)):
            raise refuse(R_SEA, f"{ctx.name(b)} holds enemy warships: the move ends on entering it (L664, L672).")
    sea_mines.check_path(ctx, movers, path)
    escaping = ctx.hostile(movers[0].path[0] if movers[0].path else start, ctx.side)
    if not enemies_at_sea(ctx, end, ctx.side) and not escaping and not sea_mines.enemy_mined(ctx, end):
        raise refuse(R_SEA, f"{ctx.name(end)} is not an attack position: sea units end a combat move in a hostile zone "
                     "or one holding enemy submarines or transports (L626, L680).")
    for u in movers:
        u.at = end
        u.moved += len(path) - 1
        u.path = (u.path or [start]) + path[1:]
    optional.check_reserve(ctx)
    ctx.log("move", f"{ctx.who(ctx.power)} sails {len(movers)} sea unit(s) from {ctx.name(start)} to {ctx.name(end)}.",
            units=[u.id for u in movers], path=path)
    sea_mines.moved(ctx, movers, path)


def _combat_step(ctx: Ctx, u: Unit):
    subs = chart()[u.type].type == "submarine"

    def step(a: str, b: str) -> str | None:
        try:
            check_step(ctx, a, b, R_SEA)
        except IllegalOrder:
            return None
        return "stop" if (enemy_destroyer(ctx, b) if subs else ctx.hostile(b, ctx.side)) else "on"
    return step


def stranded(ctx: Ctx) -> list[tuple[Unit, list[list[str]]]]:
    """Sea units stopped by sea mines out of attack position, with the paths that still
    take them into one (L626, L984)."""
    out = []
    for u in ctx.state.units:
        if not ctx.mine(u) or not is_sea(u) or not sea_mines.may_go_on(ctx, u):
            continue
        if enemies_at_sea(ctx, u.at, ctx.side) or ctx.hostile(u.path[0] if u.path else u.at, ctx.side):
            continue
        paths = [p for p in sea_mines.onward(ctx, u, _combat_step(ctx, u)) if enemies_at_sea(ctx, p[-1], ctx.side)]
        if paths:
            out.append((u, paths))
    return out


def check_done(ctx: Ctx) -> None:
    """Sea units stopped by mines on the way must go on to an attack position while they
    still can (L626, L984), before the phase ends or the first attack is declared, after
    which no unit moves (L634); those that cannot stay where they are."""
    left = stranded(ctx)
    if left:
        raise refuse(sea_mines.R_MOVING, "Sea units stopped by sea mines must first go on to an attack position: "
                     f"{listing(f'{u.id} in {ctx.name(u.at)}' for u, _ in left)} can still reach one (L626, L634, "
                     "L984).")


def declare_sea_attacks(ctx: Ctx) -> None:
    """Sea and air units in a hostile zone must attack; in a zone holding only enemy
    submarines or transports they must attack if one of them moved in, and the others there
    join (L690-692; RULINGS: optional sea attacks)."""
    s = ctx.state
    zones = sorted({u.at for u in s.units if u.power == ctx.power and ctx.board.spaces[u.at].kind == "sea"
                    and (is_sea(u) or u.airborne)})
    for z in zones:
        mine = [u for u in ctx.units_at(z) if u.power == ctx.power and (is_sea(u) or u.airborne)]
        if not mine or not enemies_at_sea(ctx, z, ctx.side):
            continue
        if not ctx.hostile(z, ctx.side) and not any(u.moved for u in mine):
            continue
        ids = [u.id for u in mine]
        a = {"id": len(s.attacks) + 1, "source": z, "target": z, "units": ids, "paid": 0, "combat": True, "sea": True}
        s.attacks.append(a)
        s.engaged += ids
        ctx.log("declare", f"{ctx.who(ctx.power)} attacks in {ctx.name(z)} with {len(ids)} unit(s).", **a)


def legal_sails(ctx: Ctx):
    """For listing: each sea unit one zone on into an attack position or an enemy-mined
    zone, and the ways on for units stopped by mines."""
    seen = set()
    for u, paths in stranded(ctx):
        for p in paths:
            yield Move(ids=[u.id], path=p)
    for u in ctx.state.units:
        if u.power != ctx.power or not is_sea(u) or u.moved:
            continue
        for b in sorted(ctx.board.neighbours(u.at)):
            if (ctx.board.spaces[b].kind == "sea" and (enemies_at_sea(ctx, b, ctx.side) or sea_mines.enemy_mined(ctx, b))
                    and (u.type, u.at, b) not in seen):
                seen.add((u.type, u.at, b))
                yield Move(ids=[u.id], path=[u.at, b])
