"""PFV 14 Retreating and advancing after combat, PFV 7 phase 5, and the start of PFV 15.

After the losses of a battle: if the attack succeeded and the defence did not (or only
support assets defended), every surviving defending piece retreats exactly two hexes,
each by its own path; a piece with no legal retreat is eliminated where it stands. Then,
if the defending hex is empty, the attacking unit may advance into it with its supports.
"""

from __future__ import annotations

from engine.core.hexgrid import distance
from engine.games.pfv.combat import air_called
from engine.games.pfv.context import Ctx, capital, listing, refuse
from engine.games.pfv.orders import Advance, Retreat
from engine.games.pfv.state import enemy


def must_retreat(ctx: Ctx) -> bool:
    """PFV 14 (and PFV 12 for lone supports; RULINGS R12)."""
    battle = ctx.state.battle
    if battle.defending_unit is None:
        return battle.attack_hit or ctx.options.lone_sa_retreat_always
    return battle.attack_hit and not battle.defense_hit


def start_retreats(ctx: Ctx) -> None:
    """Decide who retreats. Air on its airfield never retreats: hit, it is eliminated; a
    lone air asset merely attacked goes to Return to Base (PFV 12, 14)."""
    b, s = ctx.board, ctx.state
    battle = s.battle
    foe = enemy(s.player)
    here = [p for p in b.stacks(s).get(battle.target, []) if b.side(p) == foe]
    if battle.defending_unit is None and not battle.attack_hit:
        for p in [p for p in here if b.is_air(p)]:
            ctx.to_rtb(p)
            ctx.log(
                "air",
                f"{b.name(p)} was attacked on its airfield and leaves for Return to Base (PFV 12).",
                about=[p],
                others=f"{capital(air_called(ctx, p))} was attacked on its airfield and leaves "
                "for Return to Base (PFV 12).",
            )
        here = [p for p in here if not b.is_air(p)]
    if not here or not must_retreat(ctx):
        battle.retreating = []
        return
    for p in here:
        if b.is_air(p):
            if battle.attack_hit:
                ctx.eliminate(p, ": air on an airfield cannot retreat (PFV 14)")
            else:
                ctx.to_rtb(p)
                ctx.log(
                    "air",
                    f"{b.name(p)} was attacked on its airfield and leaves for Return to Base (PFV 12).",
                    about=[p],
                    others=f"{capital(air_called(ctx, p))} was attacked on its airfield and "
                    "leaves for Return to Base (PFV 12).",
                )
    battle.retreating = [p for p in here if not b.is_air(p)]


def retreat_paths(ctx: Ctx, piece: str) -> list[list[str]]:
    """Every legal two-hex retreat ``[via, to]`` for a piece leaving the battle hex (PFV 14):
    through and into hexes free of enemy pieces and of enemy zones of control (friendly
    pieces do not cancel them here), over passable hexsides onto enterable terrain, ending
    exactly two hexes away and not over-stacked."""
    b, s = ctx.board, ctx.state
    battle = s.battle
    origin = battle.target
    side = b.side(piece)
    foe = enemy(side)
    stacks = b.stacks(s)
    ezoc = b.zoc(s, foe)

    def open_hex(a: str, h: str) -> bool:
        if not b.enterable(a, h) or h in ezoc:
            return False
        return b.occupant_side(stacks, h) != foe

    out = []
    for via in b.grid.neighbours(origin):
        if not open_hex(origin, via):
            continue
        for to in b.grid.neighbours(via):
            if distance(origin, to) != 2 or not open_hex(via, to):
                continue
            if b.stacking_problem([p for p in stacks.get(to, []) if p != piece] + [piece]):
                continue
            out.append([via, to])
    return out


def retreat(ctx: Ctx, order: Retreat) -> None:
    b, s = ctx.board, ctx.state
    battle = s.battle
    if order.piece not in battle.retreating:
        raise refuse(
            "PFV 14",
            f"{order.piece!r} is not retreating from {battle.target}.",
            f"Retreating now: {listing(battle.retreating)}.",
        )
    paths = retreat_paths(ctx, order.piece)
    chosen = None
    if len(order.path) == 2:
        chosen = order.path if order.path in paths else None
    else:
        matches = [p for p in paths if p[1] == order.path[0]]
        chosen = matches[0] if matches else None
    if chosen is None:
        dests = sorted({p[1] for p in paths})
        raise refuse(
            "PFV 14",
            f"{b.name(order.piece)} cannot retreat {'via ' + order.path[0] + ' to ' + order.path[1] if len(order.path) == 2 else 'to ' + order.path[0]}: "
            "a retreat goes exactly two hexes, never into or through enemy pieces, an enemy zone of control or prohibited terrain, and may not end over-stacked.",
            f"Legal destinations: {listing(dests)}.",
        )
    do_retreat(ctx, order.piece, chosen)


def do_retreat(ctx: Ctx, piece: str, path: list[str]) -> None:
    b, s = ctx.board, ctx.state
    origin = s.battle.target
    ctx.put(piece, path[-1])
    ctx.entered(piece, path)
    s.battle.retreating.remove(piece)
    ctx.log(
        "retreat",
        f"{ctx.name(piece)} retreats {origin} → {path[0]} → {path[1]}.",
        about=[piece],
        others=f"{ctx.subject([piece])} retreats {origin} → {path[0]} → {path[1]}.",
        piece=piece,
        path=[origin] + path,
    )
    ctx.mark("retreat", b.side(piece), [origin] + path)


def eliminate_unretreatable(ctx: Ctx, piece: str) -> None:
    ctx.state.battle.retreating.remove(piece)
    ctx.eliminate(piece, " in place: it has no legal two-hex retreat (PFV 14)")


def advance_options(ctx: Ctx) -> list[str]:
    """The pieces that may advance: the attacking unit and the non-air supports stacked with it."""
    b, s = ctx.board, ctx.state
    battle = s.battle
    unit = battle.attacker
    if s.pieces[unit].where != "map" or s.pieces[unit].hex != battle.attack_hex:
        return []
    if b.stacks(s).get(battle.target):
        return []
    sas = [
        p
        for p in b.stacks(s).get(battle.attack_hex, [])
        if p != unit and b.counter(p).kind == "support" and b.side(p) == s.player
    ]
    return [unit] + sas


def advance(ctx: Ctx, order: Advance) -> None:
    """PFV 7 phase 5, PFV 14: advancing is free and optional, into the emptied hex only;
    supports go only with their unit (RULINGS R13)."""
    b, s = ctx.board, ctx.state
    battle = s.battle
    allowed = advance_options(ctx)
    if not order.pieces:
        ctx.log("advance", f"{b.name(battle.attacker)} does not advance.")
        return
    for p in order.pieces:
        if p not in allowed:
            raise refuse(
                "PFV 14",
                f"{p!r} may not advance into {battle.target}.",
                f"Only the attacking unit and the supports stacked with it may: {listing(allowed)}, or 'advance none'.",
            )
    if battle.attacker not in order.pieces:
        raise refuse(
            "PFV 14",
            "Supports advance only together with the attacking unit.",
            f"For example: advance {' '.join(allowed)}.",
        )
    for p in order.pieces:
        ctx.put(p, battle.target)
        ctx.entered(p, [battle.target])
    names = " and ".join(b.name(p) for p in order.pieces)
    ctx.log(
        "advance",
        f"{names} advance into {battle.target}.",
        about=order.pieces,
        others=f"{ctx.subject(order.pieces)} advance into {battle.target}.",
        pieces=list(order.pieces),
    )
    ctx.mark("advance", s.player, [battle.attack_hex, battle.target])


def finish_battle(ctx: Ctx) -> None:
    """Close the battle; a successful attack that cleared its hex by a unit stacked with a
    general earns a breakthrough (PFV 15)."""
    b, s = ctx.board, ctx.state
    battle = s.battle
    unit = battle.attacker
    foe = enemy(s.player)
    cleared = not any(b.side(p) == foe for p in b.stacks(s).get(battle.target, []))
    if battle.breakthrough:
        s.breakthrough[unit] = "used"
    elif battle.attack_hit and cleared and battle.general and s.pieces[unit].where == "map":
        general_alive = s.pieces[battle.general].where == "map"
        if general_alive and s.pieces[battle.general].hex == s.pieces[unit].hex:
            s.breakthrough[unit] = "eligible"
            stacked = b.stacks(s).get(s.pieces[unit].hex, [])
            s.party[unit] = [
                p for p in stacked if b.counter(p).kind == "support" and b.side(p) == s.player
            ]
            ctx.log(
                "breakthrough",
                f"{b.name(unit)}, stacked with {b.name(battle.general)}, may break through: "
                "move again and attack again this combat phase (PFV 15).",
                about=[unit, battle.general],
                others=f"{b.name(unit)} may break through: move again and attack again this "
                "combat phase (PFV 15).",
            )
    s.battle = None
