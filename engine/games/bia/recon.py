"""Air Reconnaissance (advanced rules 12.0, L2280-2343, L2396-2417), played with the
set-up option ``advanced``.

In the Movement Phase an air HQ of the phasing side makes as many recon attempts as it
has action points on activation, a minor power's Supreme HQ one (L2311-2314; RULINGS
B73): a count of its own, apart from the AP its fuel spends, as the example's 3-AP HQ
fuels three air units and also makes three attempts (L2336-2339). The first attempt activates the HQ if it may be activated in
this phase (:mod:`engine.games.bia.fuel`): it is laid face up for all to see and, at the
end of the Blitz Phase, loses a step and stands up again, a 1-step HQ being used up (AR
11.4, L2271-2278; RULINGS B47). A target hex lies within 5/10/15 hexes of the HQ by the TECH of its nation's
fighters (L2305-2310). The enemy units there fire their AA, and the city its own: any
hit stops the attempt (the interdiction; its dice are the defender's to see, the
attacker learns only the outcome). Otherwise the recon die succeeds on 1-4 after the
modifiers (L2317-2330); a clear hex in Africa or the Middle East needs no roll (L2331-
2334). A success turns every enemy unit in the hex face up until the Final Supply Check
(L2416-2417), where :func:`engine.games.bia.turn.final_supply_phase` stands them up, and
spares the attacker the first-round Malus there (L2290-2297, :mod:`air_combat`). An
attempt that reveals nothing, negated by the AA or failed on the die, leaves its marker
on the hex for every reader until the same check (``state.recon_failed``; RULINGS B83):
the hex was declared aloud (L2314) and both read the outcome, never the AA dice.

Rulebook line numbers (``L123``) refer to ``shared/rules/003_19684674ce068529.txt``.
"""

from __future__ import annotations

from engine.core.events import Event, private
from engine.games.bia import air_combat, combat, fuel
from engine.games.bia.board import SIDE_NAME, Board, enemy
from engine.games.bia.context import Ctx, refuse
from engine.games.bia.orders import Recon
from engine.games.bia.pack import distance
from engine.games.bia.state import BlockState, State

#: the HQ kinds that fly recon: air HQs their AP in attempts, minor Supreme HQs one
RECON_HQS = ("air_hq", "strategic_air_hq", "minor_shq")


def attempts(board: Board, b: BlockState) -> int:
    """An HQ's recon attempts in a Movement Phase: its AP on activation (its strength,
    halved out of supply, AR 11.10) for an air HQ, one for a minor power's Supreme HQ
    (12.0 Procedure 1, L2311-2314). A count of their own: the AP its fuel spends leave
    them whole (L2336-2339; RULINGS B73)."""
    return 1 if board.block(b.id).kind == "minor_shq" else fuel.activation_ap(board, b)


def attempts_left(board: Board, state: State, b: BlockState) -> int:
    """The recon attempts an HQ has left in this phase (12.0 Procedure 1, L2311-2314;
    RULINGS B73): :func:`attempts` less those it made since its activation."""
    return attempts(board, b) - state.hq_done.get(b.id, []).count("recon")


def recon_range(board: Board, state: State, b: BlockState) -> int:
    """5, 10 or 15 hexes by the TECH of the HQ's nation's fighters (L2305-2310)."""
    tech = board.pack.tables.tech(board.block(b.id).power, "fighter", state.turn)
    return board.pack.tables.recon["range_by_fighter_tech"][str(tech)]


def die_modifier(board: Board, state: State, hq: BlockState, h: str) -> int | None:
    """What the recon die adds (L2321-2330): -2 or -4 for the nation's TECH 2 or 3
    fighters; +2 for forest, hills, mountains or swamp, a major city (a capital counts
    as one) or a bunker; +4 for a fortress; the larger of terrain and locality counts, as
    one condition (RULINGS B48). None: a clear hex in AFRIKA, no roll needed (L2331)."""
    tables = board.pack.tables
    terrain = tables.terrain[board.hex(h).terrain]
    place = combat.locality(board, state, h)
    row = tables.localities.get(place) if place else None
    if terrain.desert_recon and board.in_afrika(h) and not (row and row.recon):
        return None
    tech = tables.tech(board.block(hq.id).power, "fighter", state.turn)
    plus = tables.recon["fighter_tech_modifier"].get(str(tech), 0)
    return plus + max(terrain.recon, row.recon if row else 0)


def _own_hq(ctx: Ctx, name: str) -> BlockState:
    s = ctx.state
    b = s.blocks.get(name) or s.by_token(name.upper())
    if b is None or b.side != s.player or b.where != "map":
        raise refuse("BIA 12.0", f"You have no HQ called {name!r} on the map.")
    if ctx.board.block(b.id).kind not in RECON_HQS:
        raise refuse(
            "BIA 12.0", f"{ctx.name(b)} is no air HQ or minor Supreme HQ: it makes no recon."
        )
    return b


def check_recon(ctx: Ctx, order: Recon) -> BlockState:
    """Validate a recon attempt; returns the HQ. Changes nothing."""
    s, board = ctx.state, ctx.board
    if not s.options.get("advanced"):
        raise refuse("BIA 12.0", "Air recon is an advanced rule; this game plays the basic rules.")
    if s.phase != "movement":
        raise refuse("BIA 12.0", "Recon attempts are made in the Movement Phase.")
    hq = _own_hq(ctx, order.block)
    if hq.id not in s.hq_active:
        why = fuel.why_not_activate(ctx, hq)
        if why:
            raise refuse("BIA 11.3", f"{why}: it makes no recon until it is active.")
    if attempts_left(board, s, hq) <= 0:
        raise refuse(
            "BIA 12.0",
            f"{ctx.name(hq)} has made all its recon attempts this turn: as many as its action "
            "points on activation, whatever its fuel spent (one for a minor Supreme HQ; "
            "L2311-2314, L2336-2339; RULINGS B73).",
        )
    reach = recon_range(board, s, hq)
    if distance(hq.at, order.to) > reach:
        raise refuse(
            "BIA 12.0", f"{ctx.where(order.to)} is beyond the recon range of {reach} hexes."
        )
    if not [x for x in s.at_hex(order.to) if x.side != hq.side]:
        raise refuse("BIA 12.0", f"{ctx.where(order.to)} holds no enemy unit to reveal.")
    return hq



def apply_recon(ctx: Ctx, order: Recon) -> None:
    s, board = ctx.state, ctx.board
    hq = check_recon(ctx, order)
    h = order.to
    fuel.activate(ctx, hq)
    s.hq_done.setdefault(hq.id, []).append("recon")  # an attempt, not an AP (RULINGS B73)
    if _interdicted(ctx, hq, h):
        s.recon_failed[h] = "negated"  # the attempt stays on the map for all (B83)
        return
    plus = die_modifier(board, s, hq, h)
    if plus is None:
        said = "a clear hex in Africa: no recon die needed"
    else:
        roll = ctx.dice.roll(6, f"recon die at {h}")
        said = f"recon die {roll}{plus:+d}"
        if roll + plus > board.pack.tables.recon["success_at_most"]:
            ctx.events.append(
                Event("recon", f"Recon of {ctx.where(h)}: {said}, it fails.", {"hex": h})
            )
            s.recon_failed[h] = "failed"
            return
    foes = sorted((x for x in s.at_hex(h) if x.side != hq.side), key=lambda x: x.token)
    for x in foes:
        x.revealed = True
    if h not in s.reconned:
        s.reconned.append(h)
    s.recon_failed.pop(h, None)  # a success there replaces an earlier failure's marker
    shown = ", ".join(
        f"{board.block(x.id).name} ({x.token}, {combat.value(board, x)})" for x in foes
    )
    ctx.events.append(
        Event(
            "reveal",
            f"Recon of {ctx.where(h)} succeeds ({said}): revealed {shown}.",
            {"hex": h, "tokens": [x.token for x in foes]},
            reveals=True,
        )
    )


def _interdicted(ctx: Ctx, hq: BlockState, h: str) -> bool:
    """The interdiction (12.0 Procedure 3, L2315-2316): each enemy ground unit in the
    hex rolls its AA dice, and the city rolls its own for the side that holds it; any hit
    stops the attempt. Air units have no AA (L975; 'a Fighter, which has no AA
    capability', L2402-2403). The dice are the defender's; both sides read the outcome."""
    s, board = ctx.state, ctx.board
    side = enemy(hq.side)
    rolls: list[str] = []
    hit = False
    place = combat.locality(board, s, h)
    row = board.pack.tables.localities.get(place) if place else None
    if row is not None and row.aa_dice and s.control.get(h) == side:
        dice = [ctx.dice.roll(6, f"{place} AA at {h}") for _ in range(row.aa_dice)]
        hit |= any(d >= row.aa_hit for d in dice)
        rolls.append(f"{place} {' '.join(map(str, dice))} at {row.aa_hit}+")
    for b in combat.ground(board, s, h, side):
        need = air_combat.aa_number(board, s, b)
        if need is None or combat.value(board, b) <= 0:
            continue
        dice = [ctx.dice.roll(6, f"{b.token} AA at {h}") for _ in range(combat.value(board, b))]
        hit |= any(d >= need for d in dice)
        rolls.append(f"{ctx.name(b)} {' '.join(map(str, dice))} at {need}+")
    outcome = "interdicted: the attempt fails" if hit else "not interdicted"
    ctx.events.append(
        private(
            "recon",
            f"Recon of {ctx.where(h)}: your AA fire {'; '.join(rolls) or 'none'}: {outcome}.",
            (side,),
            f"Recon of {ctx.where(h)} by the {SIDE_NAME[hq.side]} side: {outcome}.",
            hex=h,
        )
    )
    return hit


def recon_orders(ctx: Ctx) -> list[Recon]:
    """Every recon attempt the phasing side may make now."""
    s, board = ctx.state, ctx.board
    if not s.options.get("advanced") or s.phase != "movement":
        return []
    foes = sorted({x.at for x in s.on_map(enemy(s.player)) if not x.revealed})
    out = []
    for hq in sorted(s.on_map(s.player), key=lambda b: b.id):
        if board.block(hq.id).kind not in RECON_HQS:
            continue
        if hq.id not in s.hq_active and fuel.why_not_activate(ctx, hq):
            continue
        if attempts_left(board, s, hq) <= 0:
            continue
        reach = recon_range(board, s, hq)
        out += [Recon(block=hq.id, to=h) for h in foes if distance(hq.at, h) <= reach]
    return out
