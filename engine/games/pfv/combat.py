"""PFV 7 phases 2-4 (attack, air support, combat), PFV 10-13.

Battles are fought one at a time: the attacker declares one unit against one adjacent
hex, with air if wanted; the defender may answer with air; air combat; the attack roll and
the defence roll, which take effect together; step losses, chosen by each stack's owner.
Retreat and advance follow in ``retreat.py``.
"""

from __future__ import annotations

from engine.core.hexgrid import distance
from engine.games.pfv.board import Board
from engine.games.pfv.context import SIDE_NAME, Ctx, capital, listing, refuse
from engine.games.pfv.options import Options
from engine.games.pfv.orders import Air, Attack, Loss
from engine.games.pfv.state import Battle, State, enemy

MAX_GROUND_SUPPORT = 2


def air_in_range(
    board: Board, state: State, side: str, hex_id: str, defending: bool = False
) -> list[str]:
    """Air support assets of ``side`` on an airfield within range of ``hex_id`` (PFV 7 phase 3).

    Range is counted from the airfield to the hex, so air based in the hex under attack is
    at range 0 and may fly to its defence (L88, RULINGS R32), unless it is alone there: a
    lone air asset attacked on its airfield is what L190 and L202 dispose of, and it cannot
    be both the piece attacked and the air defending it. The option ``air_defends_own_hex``
    keeps air based in the hex on the ground."""
    home = defending and Options.model_validate(state.options).air_defends_own_hex
    out = []
    for p in state.pieces.values():
        if defending and p.hex == hex_id and not (home and _has_company(board, state, p.id)):
            continue
        if p.where == "map" and board.is_air(p.id) and board.side(p.id) == side:
            rng = board.face(p.id, p.reduced).range or 0
            if distance(p.hex, hex_id) <= rng:
                out.append(p.id)
    return sorted(out)


def _has_company(board: Board, state: State, air: str) -> bool:
    """Whether another piece of the air asset's side shares its hex."""
    hex_id, side = state.pieces[air].hex, board.side(air)
    return any(
        q.where == "map" and q.hex == hex_id and q.id != air and board.side(q.id) == side
        for q in state.pieces.values()
    )


def attack_targets(ctx: Ctx, unit: str) -> list[str]:
    """Adjacent enemy-occupied hexes across a passable hexside (PFV 11)."""
    b, s = ctx.board, ctx.state
    here = s.pieces[unit].hex
    stacks = b.stacks(s)
    foe = enemy(b.side(unit))
    return [
        n
        for n in b.grid.neighbours(here)
        if b.occupant_side(stacks, n) == foe and b.passable(here, n)
    ]


def may_attack(ctx: Ctx, unit: str) -> bool:
    """A unit attacks once per combat phase, or once more in its breakthrough (PFV 11, 15)."""
    s = ctx.state
    if unit in s.attacked:
        bt = s.breakthrough.get(unit)
        return bt in ("eligible", "moved") and _general_with(ctx, unit) is not None
    return True


def _general_with(ctx: Ctx, unit: str) -> str | None:
    b, s = ctx.board, ctx.state
    here = s.pieces[unit].hex
    for p in b.stacks(s).get(here, []):
        if b.is_general(p) and b.side(p) == b.side(unit):
            return p
    return None


def attackers(ctx: Ctx) -> list[str]:
    b, s = ctx.board, ctx.state
    return sorted(
        p.id for p in s.pieces.values()
        if p.where == "map" and b.is_unit(p.id) and b.side(p.id) == s.player and may_attack(ctx, p.id)
    )  # fmt: skip


def declare(ctx: Ctx, order: Attack) -> None:
    """PFV 7 phase 2 and 3, PFV 11: one unit attacks one adjacent enemy-occupied hex; the
    attacker announces air support first."""
    b, s = ctx.board, ctx.state
    side = s.player
    unit = order.unit
    if unit not in b.counters or s.pieces[unit].where != "map":
        raise refuse(
            "PFV 11",
            f"There is no unit {unit!r} on the map.",
            f"Units that may attack: {listing([f'{u} ({b.name(u)})' for u in attackers(ctx)])}.",
        )
    if b.side(unit) != side:
        raise refuse(
            "PFV 11", f"{b.name(unit)} is not yours; the {SIDE_NAME[side]} player is attacking."
        )
    if not b.is_unit(unit):
        raise refuse(
            "PFV 7",
            f"{b.name(unit)} is a support asset; support assets never attack by themselves.",
            "Attack with a unit; supports in its hex add their modifiers.",
        )
    if not may_attack(ctx, unit):
        if s.breakthrough.get(unit) == "used":
            raise refuse("PFV 15", f"{b.name(unit)} has already made its breakthrough attack.")
        raise refuse(
            "PFV 11",
            f"{b.name(unit)} has already attacked this combat phase.",
            "Only a unit stacked with a general that cleared its first target may attack again (PFV 15).",
        )
    here = s.pieces[unit].hex
    targets = attack_targets(ctx, unit)
    if order.target not in targets:
        if (
            order.target in b.grid.neighbours(here)
            and order.target in b.stacks(s)
            and not b.passable(here, order.target)
        ):
            raise refuse(
                "PFV 11",
                f"{b.name(unit)} cannot attack across the impassable hexside into {order.target}.",
            )
        raise refuse(
            "PFV 11",
            f"{order.target} is not an enemy-occupied hex next to {b.name(unit)} in {here}.",
            f"It may attack: {listing(targets)}." if targets else "It has no enemy next to it.",
        )
    breakthrough = unit in s.attacked
    air = order.air
    if air is not None:
        _check_air(ctx, side, air, here, "attacking unit")
    stacks = b.stacks(s)
    supports = [
        p for p in stacks.get(here, []) if b.counter(p).kind == "support" and b.side(p) == side
    ]
    party = s.party.get(unit, []) if breakthrough else []
    supports = [p for p in supports if p not in s.supported or p in party]
    supports = supports[:MAX_GROUND_SUPPORT]
    s.attacked.add(unit)
    s.supported.update(supports)
    if breakthrough:
        s.breakthrough[unit] = "used"
    general = _general_with(ctx, unit)
    s.battle = Battle(
        attacker=unit,
        attack_hex=here,
        target=order.target,
        breakthrough=breakthrough,
        attacker_air=air,
        general=general,
        supports=supports,
    )
    if air:
        ctx.put(air, here)  # flown over the attacking unit's hex
    text = shown = f"{b.name(unit)} attacks {order.target} from {here}"
    if breakthrough:
        text += " (breakthrough attack)"
        shown += " (breakthrough attack)"
    if supports:
        text += f", supported by {' and '.join(b.name(p) for p in supports)}"
        shown += f", supported by {ctx.group_called(supports)}"
    if air:
        text += f", with {b.name(air)} flying in"
        shown += f", with {air_called(ctx, air)} flying in"
    ctx.log(
        "attack",
        text + ".",
        about=[unit, *supports, *([air] if air else [])],
        others=shown + ".",
        unit=unit,
        target=order.target,
    )
    ctx.mark("attack", side, [here, order.target])
    if not air_in_range(b, s, enemy(side), order.target, defending=True):
        resolve(ctx)
    else:
        s.battle.stage = "defender_air"


def _check_air(
    ctx: Ctx, side: str, air: str, hex_id: str, what: str, defending: bool = False
) -> None:
    b, s = ctx.board, ctx.state
    options = air_in_range(b, s, side, hex_id, defending)
    if air not in b.counters or b.side(air) != side or not b.is_air(air):
        raise refuse(
            "PFV 7",
            f"{air!r} is not one of your air support assets.",
            f"Air in range: {listing(options)}." if options else "You have no air in range.",
        )
    p = s.pieces[air]
    if p.where != "map":
        raise refuse(
            "PFV 7",
            f"{b.name(air)} is not on an airfield (it is {'in the Return to Base box' if p.where == 'rtb' else 'out of play'}).",
        )
    if defending and p.hex == hex_id and air not in options:
        raise refuse(
            "PFV 14",
            f"{b.name(air)} is on the ground in the hex under attack; it cannot fly to its defence"
            + (
                " (RULINGS R32)."
                if not ctx.options.air_defends_own_hex
                else ": nothing else of yours is there to defend (PFV 12, L190, L202)."
            ),
        )
    if air not in options:
        rng = b.face(air, p.reduced).range
        raise refuse(
            "PFV 7",
            f"{b.name(air)} at {p.hex} has range {rng}, and the {what} in {hex_id} is {distance(p.hex, hex_id)} hexes away.",
            f"Air in range: {listing(options)}." if options else "You have no air in range.",
        )


def defender_air(ctx: Ctx, order: Air) -> None:
    """PFV 7 phase 3: after the attacker, the defender may fly one air support asset to the
    defending hex, even to a hex holding only support assets."""
    b, s = ctx.board, ctx.state
    battle = s.battle
    side = enemy(s.player)
    if order.piece is not None:
        _check_air(ctx, side, order.piece, battle.target, "defending hex", defending=True)
        battle.defender_air = order.piece
        ctx.put(order.piece, battle.target)
        ctx.log(
            "air",
            f"{b.name(order.piece)} flies in to defend {battle.target}.",
            about=[order.piece],
            others=f"{capital(air_called(ctx, order.piece))} flies in to defend {battle.target}.",
            piece=order.piece,
        )
        ctx.mark("air", side, [battle.target])
    else:
        ctx.log("air", f"The {SIDE_NAME[side]} player sends no air to {battle.target}.")
    resolve(ctx)


def air_combat(ctx: Ctx) -> None:
    """PFV 10: each side rolls a d12 and subtracts its air's modifier; the lower result wins.
    A tie, or both results zero or less, costs both a step. A loser leaves for Return to Base
    at once (or is eliminated if it could take no more steps)."""
    b, s = ctx.board, ctx.state
    battle = s.battle
    att, dfn = battle.attacker_air, battle.defender_air
    ra = ctx.roll(f"air combat: {att}")
    rd = ctx.roll(f"air combat: {dfn}")
    fa = ra - (b.face(att, s.pieces[att].reduced).modifier or 0)
    fd = rd - (b.face(dfn, s.pieces[dfn].reduced).modifier or 0)
    ctx.log(
        "air-combat",
        f"Air combat over {battle.target}: {b.name(att)} rolls {ra} → {fa}, "
        f"{b.name(dfn)} rolls {rd} → {fd}.",
        about=[att, dfn],
        others=f"Air combat over {battle.target}: {air_called(ctx, att)} rolls {ra} → {fa}, "
        f"{air_called(ctx, dfn)} rolls {rd} → {fd}.",
        rolls=[ra, rd],
    )
    if fa == fd or (fa <= 0 and fd <= 0):
        losers = [att, dfn]
    else:
        losers = [dfn] if fa < fd else [att]
    for air in losers:
        _air_loses(ctx, air)
    if battle.attacker_air in losers:
        battle.attacker_air = None
    if battle.defender_air in losers:
        battle.defender_air = None


def _air_loses(ctx: Ctx, air: str) -> None:
    b, s = ctx.board, ctx.state
    p = s.pieces[air]
    if p.reduced or b.counter(air).back is None:
        ctx.eliminate(air, " in air combat")
    else:
        p.reduced = True
        ctx.to_rtb(air)
        ctx.log(
            "air-combat",
            f"{b.name(air)} is reduced and returns to base.",
            about=[air],
            others=f"{capital(air_called(ctx, air))} is reduced and returns to base.",
            piece=air,
        )


def air_called(ctx: Ctx, air: str) -> str:
    """An air support asset as the public may name it: by name when in plain sight, else
    only as its side's air (PFV 6, L70; RULINGS R38)."""
    return ctx.name(air) if ctx.sees(None, air) else f"the {SIDE_NAME[ctx.board.side(air)]} air"


def success(roll: int, final: int, factor: int) -> bool:
    """PFV 11, 12: a natural 1 always succeeds, a natural 12 always fails; otherwise the
    modified roll must be at most the combat factor."""
    if roll == 1:
        return True
    if roll == 12:
        return False
    return final <= factor


def resolve(ctx: Ctx) -> None:
    """PFV 7 phase 4, PFV 11-12: roll the attack, then the defence; both take effect together."""
    b, s, opts = ctx.board, ctx.state, ctx.options
    battle = s.battle
    if battle.attacker_air and battle.defender_air:
        air_combat(ctx)
    stacks = b.stacks(s)
    foe = enemy(s.player)
    unit = battle.attacker
    cf = b.face(unit, s.pieces[unit].reduced).combat or 0
    terrain = b.terrain_drm(battle.attack_hex, battle.target, opts)
    support = sum(
        b.face(p, s.pieces[p].reduced).modifier or 0
        for p in battle.supports
        if s.pieces[p].where == "map"
    )
    if battle.attacker_air:
        support += b.face(battle.attacker_air, s.pieces[battle.attacker_air].reduced).modifier or 0
    ra = ctx.roll(f"attack: {unit}")
    fa = ra + terrain - support
    battle.attack_hit = success(ra, fa, cf)
    ctx.log(
        "roll",
        f"Attack: {b.name(unit)} rolls {ra}{_mods(terrain, support)} = {fa}, needs {cf} or less"
        f"{_natural(ra)}: {'success' if battle.attack_hit else 'no effect'}.",
        roll=ra,
        final=fa,
        factor=cf,
    )
    in_target = [p for p in stacks.get(battle.target, []) if b.side(p) == foe]
    defender = next((p for p in in_target if b.is_unit(p)), None)
    battle.defending_unit = defender
    if defender is not None:
        dcf = b.face(defender, s.pieces[defender].reduced).combat or 0
        dsup = sum(
            b.face(p, s.pieces[p].reduced).modifier or 0
            for p in in_target
            if b.counter(p).kind == "support"
        )
        if battle.defender_air:
            dsup += b.face(battle.defender_air, s.pieces[battle.defender_air].reduced).modifier or 0
        rd = ctx.roll(f"defence: {defender}")
        fd = rd - dsup
        battle.defense_hit = success(rd, fd, dcf)
        ctx.log(
            "roll",
            f"Defence: {b.name(defender)} rolls {rd}{_mods(0, dsup)} = {fd}, needs {dcf} or less"
            f"{_natural(rd)}: {'success' if battle.defense_hit else 'no effect'}.",
            roll=rd,
            final=fd,
            factor=dcf,
        )
    else:
        ctx.log("roll", "No unit defends the hex, so there is no defence roll (PFV 12).")
    # flown air that survived leaves the battle for Return to Base (PFV 7 phase 4)
    for air in (battle.attacker_air, battle.defender_air):
        if air and s.pieces[air].where == "map":
            ctx.to_rtb(air)
    ctx.mark(
        "hit" if battle.attack_hit else "miss",
        s.player,
        [battle.target],
        "hit" if battle.attack_hit else "miss",
    )
    if battle.defense_hit:
        ctx.mark("hit", foe, [battle.attack_hex], "hit")
    if battle.attack_hit:
        lone_air = [
            p for p in b.stacks(s).get(battle.target, []) if b.is_air(p) and b.side(p) == foe
        ]
        if not loss_candidates(ctx, battle.target, foe) and lone_air:
            for air in lone_air:
                ctx.eliminate(air, ": a lone air support asset hit on the ground (PFV 13)")
        else:
            battle.losses_due.append(foe)
    if battle.defense_hit:
        battle.losses_due.append(s.player)
    battle.stage = "loss"


def _mods(terrain: int, support: int) -> str:
    out = ""
    if terrain:
        out += f" +{terrain} terrain"
    if support:
        out += f" -{support} support"
    return out


def _natural(roll: int) -> str:
    return (
        " (a natural 1 always succeeds)"
        if roll == 1
        else " (a natural 12 always fails)"
        if roll == 12
        else ""
    )


def loss_candidates(ctx: Ctx, hex_id: str, side: str) -> list[str]:
    """Pieces of ``side`` in ``hex_id`` that may take a step loss: the unit and non-air
    supports; air is never chosen (PFV 13)."""
    b, s = ctx.board, ctx.state
    return [p for p in b.stacks(s).get(hex_id, []) if b.side(p) == side and not b.is_air(p)]


def loss_hex(ctx: Ctx, side: str) -> str:
    battle = ctx.state.battle
    return battle.attack_hex if side == ctx.state.player else battle.target


def take_loss(ctx: Ctx, order: Loss, side: str) -> None:
    """PFV 13: the owner picks which piece of the stack loses the step."""
    b = ctx.board
    hex_id = loss_hex(ctx, side)
    candidates = loss_candidates(ctx, hex_id, side)
    if order.piece not in candidates:
        if order.piece in b.counters and b.is_air(order.piece):
            raise refuse(
                "PFV 13",
                f"{b.name(order.piece)} is an air support asset; air may never be chosen to take a loss.",
                f"Choose one of: {listing(candidates)}.",
            )
        raise refuse(
            "PFV 13",
            f"{order.piece!r} is not one of your pieces in {hex_id} that can take the loss.",
            f"Choose one of: {listing(candidates)}.",
        )
    apply_loss(ctx, side, order.piece)


def apply_loss(ctx: Ctx, side: str, piece: str) -> None:
    s = ctx.state
    battle = s.battle
    ctx.lose_step(piece)
    battle.losses_due.remove(side)
    if piece == battle.attacker and s.pieces[piece].where != "map":
        bg = next((p.id for p in s.pieces.values() if p.origin == piece and p.where == "map"), None)
        if bg is not None:
            battle.attacker = bg
            s.attacked.add(bg)
