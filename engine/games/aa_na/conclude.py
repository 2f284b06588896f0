"""Phase 4 for attacks where no actual combat occurs, and the conclusion of a won land
attack (Phase 4: Conduct Combat, L734; Step 6, Conclude Combat, L851-865), with the Instant
Total Victory it may bring (How the Campaign Is Won, L250-254).

Built: hostile territories holding no enemy combat units other than AAA (after their Air
Defense fire), scout cars raids on neutral territories holding supply (L1177), and the
Torch landings' attacks (L1034, L1052). Attacks with a combat start a battle in
``land_combat`` (ending in :func:`occupy`) or ``sea_combat``.
"""

from __future__ import annotations

from engine.games.aa_na import pack
from engine.games.aa_na.combat_move import capture_trucks, is_scout
from engine.games.aa_na.context import Ctx, has, listing, refuse
from engine.games.aa_na.orders import Resolve
from engine.games.aa_na.state import SIDE, SIDE_NAME

R_COMBAT = "North Africa: Phase 4, Conduct Combat (L724-734)"
R_CONCLUDE = "North Africa: Phase 4, Step 6, Conclude Combat (L851-859)"
R_RAID = "North Africa: Scout Cars, Supply Raider (L1177)"
R_WIN = "North Africa: How the Campaign Is Won, Instant Total Victory (L250-254)"


def resolve(ctx: Ctx, order: Resolve) -> None:
    """Carry out the declared attack on ``target``. With no enemy combat units but AAA
    there, the AAA fires at attacking air units and is then destroyed, and the attack goes
    straight to step 6 (L734, L1155). The attacker picks the order of the attacks (L730)."""
    from engine.games.aa_na import air

    s = ctx.state
    target = ctx.find(order.target, R_COMBAT)
    mine = [a for a in s.attacks if a["target"] == target]
    if not mine:
        raise refuse(R_COMBAT, f"No attack on {ctx.name(target)} was declared.",
                     f"Declared: {listing(ctx.name(a['target']) for a in s.attacks)}.")
    attackers = [u for u in s.units if any(u.id in a["units"] for a in mine)]
    if ctx.board.spaces[target].kind == "sea":
        from engine.games.aa_na import sea_combat

        if order.units or order.ids or order.raid or order.bomb or order.main:
            raise refuse(R_COMBAT, "A sea battle takes no more than 'resolve ZONE'.")
        sea_combat.start(ctx, target)
        return
    if order.bomb:
        air.bomb_allowed(ctx, target)
    if ctx.enemy_combat_units(target, ctx.side) and any(a["combat"] for a in mine):
        from engine.games.aa_na import land_combat

        if order.units or order.ids:
            raise refuse(R_COMBAT, "Units to advance are named after the battle ('advance UNITS').")
        if order.raid:  # immediately before the first attack dice (L1177)
            raid(ctx, target, attackers)
        land_combat.start(ctx, target, order.main and ctx.find(order.main, R_COMBAT), bomb=order.bomb)
        return
    flyers = [u for u in attackers if air.is_air(u)]
    movers = [u for u in attackers if not is_scout(u) and not air.is_air(u)]
    if order.raid:
        raid(ctx, target, attackers)
    if not movers and not flyers:
        # scout cars never advance (Hit and Run, L1167): the attack ends here
        s.attacks = [a for a in s.attacks if a["target"] != target]
        ctx.log("combat", f"The scout cars' attack on {ctx.name(target)} is over; they stay where they are (L1167).")
        return
    room = ctx.limit(target) - ctx.stacked(target, ctx.side)
    if order.units or order.ids:
        chosen = [u for u in movers if u.id in order.ids]
        if len(chosen) != len(set(order.ids)):
            raise refuse(R_CONCLUDE, "Name advancing units from among the attackers.")
        for word, n in order.units.items():
            fit = [u for u in movers if u.type == f"{ctx.power}.{word}" and u not in chosen]
            if len(fit) < n:
                raise refuse(R_CONCLUDE, f"Only {len(fit)} attacking {word.replace('_', ' ')} may advance, not {n}.")
            chosen += fit[:n]
        if len(chosen) < min(room, len(movers)):
            raise refuse(R_CONCLUDE, f"Attacking land units must move in until all have or the stacking limit "
                         f"is reached: {min(room, len(movers))} must advance (L853).")
        movers = chosen
    if len(movers) > room:
        raise refuse(R_CONCLUDE, f"Only {room} unit(s) fit under the stacking limit of {ctx.name(target)}; name "
                     "which advance ('resolve TARGET UNITS') (L853).")
    s.battle = {
        "target": target, "round": 1, "attacker": s.power, "attacker_side": ctx.side,
        "sources": {"@air": [u.id for u in flyers]}, "flank": [], "nocombat": True,
        "movers": [u.id for u in movers], "bomb": order.bomb, "step": "aa",
        "defenders": [u.id for u in ctx.enemy_combat_units(target, ctx.side)],
        "fighting": [], "retreating": [], "hits": {}, "casualties": [], "def_hits": 0,
    }
    air.air_defense(ctx)


def finish_nocombat(ctx: Ctx) -> None:
    """Step 6 of an attack without actual combat: AAA there is destroyed, unless only air
    units attacked and none survived the Air Defense (L734, L1155; RULINGS: A52); the land
    units move in."""
    from engine.games.aa_na import air

    s = ctx.state
    b = s.battle
    target = b["target"]
    flyers = air.attacking_air(ctx)
    movers = [u for u in s.units if u.id in b["movers"]]
    s.battle = None
    aaa = [u for u in ctx.enemy_combat_units(target, ctx.side) if has(u.type, "No Defense Value")]
    if aaa and (movers or flyers):
        for u in aaa:
            s.units.remove(u)
        ctx.log("combat", f"{len(aaa)} AAA in {ctx.name(target)} destroyed: no actual combat (L734).")
    s.attacks = [a for a in s.attacks if a["target"] != target]
    if movers:
        occupy(ctx, target, movers)
    else:
        ctx.log("combat", f"The air attack on {ctx.name(target)} is over; air units alone capture nothing (L853).")


def declare_torch(ctx: Ctx) -> None:
    """The Torch landings' attacks, declared by the scenario, join the United States'
    attacks of round 7 with no supply spent; the UK units in Algiers fight alongside
    (L1034, L1037, L1052, L1058)."""
    s = ctx.state
    if s.power != "us" or not s.scenario_attacks:
        return
    for sa in s.scenario_attacks:
        target = sa["target"]
        ids = [u.id for u in ctx.standing(target) if u.power in sa["powers"] and ctx.is_combat(u)]
        if not ids or not ctx.enemy_combat_units(target, ctx.side):
            continue
        a = {"id": len(s.attacks) + 1, "source": target, "target": target, "units": ids, "paid": 0,
             "combat": True, "torch": True}
        s.attacks.append(a)
        s.engaged += ids
        ctx.log("declare", f"The Operation Torch landing at {ctx.name(target)} attacks with {len(ids)} unit(s), "
                "declared by the scenario (L1034, L1052).", **a)
    s.scenario_attacks = []


def raid(ctx: Ctx, target: str, attackers) -> None:
    """Supply Raider: attacking scout cars may destroy 1 supply token in the territory they
    attack, also where no actual combat occurs and in a neutral territory (L1177)."""
    s = ctx.state
    if not any(is_scout(u) for u in attackers):
        raise refuse(R_RAID, "Only attacking scout cars raid supply.")
    if s.supply.get(target, 0) < 1:
        raise refuse(R_RAID, f"{ctx.name(target)} holds no supply token to destroy.")
    s.supply[target] -= 1
    if not s.supply[target]:
        del s.supply[target]
    ctx.log("raid", f"Scout cars destroy 1 supply token in {ctx.name(target)} (Supply Raider).")


def occupy(ctx: Ctx, target: str, movers) -> None:
    """The winners move in: trucks there are captured, the control marker changes where
    the territory has an RP value, and the convoy route of its port opens for the new
    owner's side or closes (L853-857). Capturing the enemy capital wins at once (L250)."""
    s = ctx.state
    for u in movers:
        u.at = target
    trucks = capture_trucks(ctx, target)
    sp = ctx.board.spaces[target]
    text = f"{ctx.who(ctx.power)} moves {len(movers)} unit(s) into {ctx.name(target)}"
    if sp.rp:
        s.control[target] = ctx.power
        text += " and takes control of it"
    if trucks:
        text += f", capturing {trucks} truck(s)"
    ctx.log("capture", text + ".", target=target)
    for c in pack.load_board().pack.convoys:
        if c.port != target or c.permanent:
            continue
        if all(SIDE[p] == ctx.side for p in c.emblems):
            s.convoy_markers[c.id] = list(c.emblems)
            ctx.log("convoy", f"The {ctx.name(c.id)} route opens (L855-857).")
        elif s.convoy_markers.pop(c.id, None):
            ctx.log("convoy", f"The {ctx.name(c.id)} route closes (L855-857).")
    for side, cap in ctx.scenario().victory.instant.items():
        if cap.capture == target and side == ctx.side:
            s.over = True
            s.winner = side
            who = SIDE_NAME[side]
            s.result_text = f"{who[0].upper()}{who[1:]} capture {ctx.name(target)}: Instant Total Victory (L250-254)."
            ctx.log("victory", s.result_text)
