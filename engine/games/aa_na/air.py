"""Air units: their range, combat moves and landing (Air Unit Movement, L652-658, L893-899;
Air Units, L1217-1223), and the Air Defense fire before a land combat (L732, L1145-1155).

Air attacks are declared by flying into a hostile space (L690, L706); in a territory they
join the land attack there or make an attack of their own; at sea they fight with the
sea units (``sea_move``, ``sea_combat``).
"""

from __future__ import annotations

from collections import deque

from engine.games.aa_na import optional
from engine.games.aa_na.context import Ctx, chart, has, listing, refuse
from engine.games.aa_na.orders import Casualties, Move
from engine.games.aa_na.state import SIDE, Unit

R_AIR = "North Africa: Phase 3, Air Unit Movement (L652-658, L1219-1223)"
R_LAND = "North Africa: Phase 5, Air Unit Movement (L893-899)"
R_AA = "North Africa: Anti-Aircraft Artillery, Air Defense (L1145-1151)"
R_BOMB = "North Africa: Bombers, Collateral Damage (L1243)"


def is_air(u: Unit) -> bool:
    return chart()[u.type].kind == "air"


def names_air(ctx: Ctx, order: Move) -> bool:
    """Whether a ``move`` names air units (``move 1 fighter ...`` or an air unit's id)."""
    for word in order.units:
        tid = word if "." in word else f"{ctx.power}.{word}"
        if tid in chart() and chart()[tid].kind == "air":
            return True
    ids = set(order.ids)
    return bool(ids) and any(u.id in ids and is_air(u) for u in ctx.state.units)


def can_enter(ctx: Ctx, space: str, came_from: str) -> bool:
    """Air units enter any space but impassable and Sahara territories (L1219), Morocco,
    Algeria and Tunisia while the scenario closes them (L1006; RULINGS: A44), the Suez
    Canal zone only from the Indian Ocean zone and the Atlantic and Indian Ocean zones
    only as the UK (L507, L513; RULINGS: A15)."""
    b = ctx.board
    sp = b.spaces[space]
    if sp.impassable or sp.sahara:
        return False
    if sp.mat and not ctx.mat_open(ctx.side):
        return False
    only = b.pack.entry_only_from.get(space)
    if only and came_from not in only:
        return False
    closed = b.pack.closed_except.get(space)
    return not (closed and ctx.power not in closed)


def distances(ctx: Ctx, start: str, limit: int) -> dict[str, int]:
    """Spaces within ``limit`` borders of ``start``: each border crossed costs 1, over land
    or sea alike (L1221; RULINGS: A51)."""
    out = {start: 0}
    todo = deque([start])
    while todo:
        at = todo.popleft()
        if out[at] >= limit:
            continue
        for nb in sorted(ctx.board.neighbours(at)):
            if nb not in out and can_enter(ctx, nb, at):
                out[nb] = out[at] + 1
                todo.append(nb)
    return out


def landing_spaces(ctx: Ctx) -> list[str]:
    """Territories a friendly power controlled at the start of this turn, permanent
    emblems included; never one taken this turn or one with no RP value (L897)."""
    out = []
    for sp in ctx.board.pack.spaces:
        if sp.kind != "territory":
            continue
        owner = sp.permanent or ctx.state.start_control.get(sp.id)
        if owner and SIDE[owner] == ctx.side and ctx.controller(sp.id) and SIDE[ctx.controller(sp.id)] == ctx.side:
            out.append(sp.id)
    return out


def landing_within(ctx: Ctx, at: str, left: int, n: int = 1) -> list[str]:
    """Landing territories within ``left`` spaces of ``at`` with room for ``n`` more air
    units under the stacking limit (L487-491)."""
    reach = distances(ctx, at, left)
    return [t for t in landing_spaces(ctx) if t in reach and ctx.stacked(t, ctx.side) + n <= ctx.limit(t)]


def _path_cost(ctx: Ctx, path: list[str], mov: int, rule: str) -> int:
    used = 0
    for a, b in zip(path, path[1:], strict=False):
        d = distances(ctx, a, mov).get(b)
        if d is None:
            raise refuse(rule, f"{ctx.name(b)} is out of reach from {ctx.name(a)} for these air units "
                         "(impassable, Sahara or closed spaces are never entered).")
        used += d
    return used


def _movers(ctx: Ctx, order: Move, start: str, rule: str, ok) -> list[Unit]:
    from engine.games.aa_na.combat_move import pick

    movers = pick(ctx, start, order.units, order.ids, rule, lambda u: is_air(u) and ok(u))
    if not movers:
        raise refuse(rule, "Name the air units to move.")
    return movers


def combat_fly(ctx: Ctx, order: Move) -> None:
    """A combat move of air units into a hostile territory, through any spaces, keeping
    enough movement to reach a landing territory in Phase 5 (L630, L654-656, L1223)."""
    from engine.games.aa_na.combat_move import moves_first

    moves_first(ctx)
    if order.cargo:
        raise refuse(R_AIR, "Air units carry nothing in this game's standard rules.")
    path = [ctx.find(w, R_AIR) for w in order.path]
    start, end = path[0], path[-1]
    movers = _movers(ctx, order, start, R_AIR, lambda u: not u.moved)
    mov = min(chart()[u.type].movement for u in movers)
    used = _path_cost(ctx, path, mov, R_AIR)
    from engine.games.aa_na.sea_move import enemies_at_sea

    at_sea = ctx.board.spaces[end].kind == "sea"
    if not (ctx.hostile(end, ctx.side) or (at_sea and enemies_at_sea(ctx, end, ctx.side))):
        raise refuse(R_AIR, f"{ctx.name(end)} is not an attack position: an air unit's combat move ends in a hostile "
                     "space, or a sea zone holding enemy submarines or transports (L626, L630).")
    if used > mov:
        raise refuse(R_AIR, f"The flight to {ctx.name(end)} takes {used} spaces; these air units move {mov}.")
    if not landing_within(ctx, end, mov - used, len(movers)):
        raise refuse(R_AIR, f"From {ctx.name(end)} these air units would have {mov - used} move(s) left and no "
                     "friendly territory within reach to land in: no air unit is sent out of range (L654, L1223).")
    for u in movers:
        u.at = end
        u.moved = used
        u.path = list(path)
        u.airborne = True
    optional.check_reserve(ctx)
    ctx.log("move", f"{ctx.who(ctx.power)} flies {len(movers)} air unit(s) from {ctx.name(start)} to attack "
            f"{ctx.name(end)}.", units=[u.id for u in movers], path=path)


def legal_flights(ctx: Ctx):
    """For listing: each air unit that has not moved, to each hostile space it can attack
    and still land from."""
    from engine.games.aa_na.combat_move import moves_first

    try:
        moves_first(ctx)
    except Exception:  # noqa: BLE001 - no more moves once attacks are declared
        return
    seen = set()
    for u in ctx.state.units:
        if u.power != ctx.power or not is_air(u) or u.moved or u.airborne:
            continue
        mov = chart()[u.type].movement
        for t, d in sorted(distances(ctx, u.at, mov - 1).items()):
            if not d or not ctx.hostile(t, ctx.side) or (u.type, u.at, t) in seen:
                continue
            seen.add((u.type, u.at, t))
            if landing_within(ctx, t, mov - d):
                yield Move(units={u.type.split(".", 1)[1]: 1}, path=[u.at, t])


def declare_air_attacks(ctx: Ctx) -> None:
    """Air units in a hostile territory must attack it; the attack is implicit (L690, L706)."""
    s = ctx.state
    groups: dict[str, list[str]] = {}
    for u in s.units:
        if u.power == ctx.power and u.airborne and ctx.board.spaces[u.at].kind == "territory":
            groups.setdefault(u.at, []).append(u.id)
    for target, ids in sorted(groups.items()):
        enemies = [u for u in ctx.enemy_combat_units(target, ctx.side) if not has(u.type, "No Defense Value")]
        a = {"id": len(s.attacks) + 1, "source": target, "target": target, "units": ids, "paid": 0,
             "combat": bool(enemies), "air": True}
        s.attacks.append(a)
        s.engaged += ids
        ctx.log("declare", f"{ctx.who(ctx.power)}'s {len(ids)} air unit(s) attack {ctx.name(target)}.", **a)


# ------------------------------------------------------------------ Phase 5


def flight_left(u: Unit) -> int:
    return chart()[u.type].movement - u.moved


def noncombat_fly(ctx: Ctx, order: Move) -> None:
    """Land air units: those that attacked use what their combat move left; the others
    may move their whole allowance, ending in a landing territory (L895-897)."""
    path = [ctx.find(w, R_LAND) for w in order.path]
    start, end = path[0], path[-1]
    movers = _movers(ctx, order, start, R_LAND, lambda u: u.airborne or (not u.moved and not u.ncm))
    cargo = optional.airlift(ctx, movers, start, order.cargo) if order.cargo else []
    left = min(flight_left(u) for u in movers)
    used = _path_cost(ctx, path, left, R_LAND)
    if used > left:
        raise refuse(R_LAND, f"The flight takes {used} spaces; these air units have {left} left.")
    if end not in landing_spaces(ctx):
        raise refuse(R_LAND, f"Air units may not land in {ctx.name(end)}: only territories a friendly power "
                     "controlled at the start of the turn (L897).",
                     f"Within reach: {listing(ctx.name(t) for t in landing_within(ctx, start, left, len(movers)))}.")
    if ctx.stacked(end, ctx.side) + len(movers) + len(cargo) > ctx.limit(end):
        raise refuse("North Africa: Stacking Limits (L487-491)",
                     f"{ctx.name(end)} takes at most {ctx.limit(end)} combat land and air units of a side.")
    for u in movers:
        u.at = end
        u.moved += used
        u.airborne = False
        u.ncm = True
    for u in cargo:
        u.at = end
        u.ncm = True
    ctx.log("move", f"{ctx.who(ctx.power)} lands {len(movers)} air unit(s) in {ctx.name(end)}.",
            units=[u.id for u in movers], path=path)


R_ESCORT = "North Africa: Phase 6, Assigning Convoy Escorts (L940-946)"


def escort_zones(ctx: Ctx) -> list[str]:
    from engine.games.aa_na.deploy import open_convoys

    return open_convoys(ctx, ctx.power)


def escort_fly(ctx: Ctx, order: Move) -> None:
    """Air units that moved in neither Phase 3 nor Phase 5 may fly up to two spaces into a
    sea zone holding one of the power's open convoy routes, through any spaces (L944;
    RULINGS: A35)."""
    if order.cargo:
        raise refuse(R_ESCORT, "Air units carry nothing in this game's standard rules.")
    path = [ctx.find(w, R_ESCORT) for w in order.path]
    start, end = path[0], path[-1]
    movers = _movers(ctx, order, start, R_ESCORT, lambda u: not u.moved and not u.ncm)
    used = _path_cost(ctx, path, 2, R_ESCORT)
    if used > 2 or end not in escort_zones(ctx):
        raise refuse(R_ESCORT, f"Escorts fly at most 2 spaces into a convoy zone open to {ctx.who(ctx.power)}.",
                     f"Open convoy zones: {listing(ctx.name(z) for z in escort_zones(ctx))}.")
    for u in movers:
        u.at = end
        u.ncm = True
    ctx.log("move", f"{ctx.who(ctx.power)} sends {len(movers)} air unit(s) from {ctx.name(start)} to escort the "
            f"convoy in {ctx.name(end)}.", units=[u.id for u in movers], path=path)


def legal_escorts(ctx: Ctx):
    zones = set(escort_zones(ctx))
    seen = set()
    for u in ctx.state.units:
        if u.power != ctx.power or not is_air(u) or u.moved or u.ncm or ctx.board.spaces[u.at].kind != "territory":
            continue
        for z, d in sorted(distances(ctx, u.at, 2).items()):
            if z in zones and d and (u.type, u.at, z) not in seen:
                seen.add((u.type, u.at, z))
                yield Move(ids=[u.id], path=[u.at, z])


def stranded(ctx: Ctx) -> list[Unit]:
    """Air units of the active power still in the air."""
    return [u for u in ctx.state.units if u.power == ctx.power and u.airborne]


def can_still_land(ctx: Ctx) -> list[Unit]:
    return [u for u in stranded(ctx) if landing_within(ctx, u.at, flight_left(u))]


def crash(ctx: Ctx) -> None:
    """Air units not in a landing space at the end of Phase 5 are destroyed (L899)."""
    lost = stranded(ctx)
    for u in lost:
        ctx.state.units.remove(u)
    if lost:
        ctx.log("move", f"{len(lost)} air unit(s) of {ctx.who(ctx.power)} find nowhere to land and are destroyed (L899).")


# ------------------------------------------------------------------ Air Defense


def guns(ctx: Ctx, target: str, attacker_side: str) -> list[Unit]:
    return [u for u in ctx.enemy_combat_units(target, attacker_side) if has(u.type, "Air Defense")]


def attacking_air(ctx: Ctx) -> list[Unit]:
    b = ctx.state.battle
    ids = {i for v in b["sources"].values() for i in v}
    return [u for u in ctx.state.units if u.id in ids and is_air(u)]


def air_defense(ctx: Ctx) -> None:
    """Before a land combat (or the no-combat conclusion of an attack), each defending unit
    with Air Defense fires up to 3 shots, one per attacking air unit at most; each roll of
    2 or less downs one air unit of the attacker's choice (L732, L734, L1147-1149; German
    anti-tank guns fire as AAA do, RULINGS: A41). Tobruk's and Mareth's bonus does not apply
    (L1151). Then the bombers' Collateral Damage, if asked for (L1243)."""
    b = ctx.state.battle
    air = attacking_air(ctx)
    gun = guns(ctx, b["target"], b["attacker_side"])
    if air and gun:
        n = min(3 * len(gun), len(air))
        rolls = [ctx.dice.roll(10, "air defense") for _ in range(n)]
        hits = sum(1 for r in rolls if r <= 2)
        ctx.log("dice", f"Air Defense in {ctx.name(b['target'])} fires {n} shot(s): "
                f"{' '.join(map(str, rolls))}: {hits} hit(s).")
        if hits:
            if hits >= len(air) or len({u.type for u in air}) == 1:
                _down(ctx, air[:hits])
            else:
                b["aa_hits"] = hits
                b["step"] = "aa_casualties"
                return
    after_air_defense(ctx)


def aa_casualties(ctx: Ctx, order: Casualties) -> None:
    b = ctx.state.battle
    pool = attacking_air(ctx)
    chosen: list[Unit] = [u for u in pool if u.id in order.ids]
    if len(chosen) != len(set(order.ids)):
        raise refuse(R_AA, "Name attacking air units.")
    for word, n in order.units.items():
        fit = [u for u in pool if u.type.split(".", 1)[1] == word and u not in chosen]
        if len(fit) < n:
            raise refuse(R_AA, f"There are {len(fit)} attacking {word} to take, not {n}.")
        chosen += fit[:n]
    if len(chosen) != b["aa_hits"]:
        raise refuse(R_AA, f"Choose exactly {b['aa_hits']} attacking air unit(s) as casualties of the Air Defense fire.")
    _down(ctx, chosen)
    after_air_defense(ctx)


def aa_orders(ctx: Ctx):
    b = ctx.state.battle
    kinds = sorted({u.type for u in attacking_air(ctx)})
    n = b["aa_hits"]
    for k in kinds:
        left = n
        counts = {k.split(".", 1)[1]: min(left, sum(1 for u in attacking_air(ctx) if u.type == k))}
        left -= counts[k.split(".", 1)[1]]
        for other in kinds:
            if other != k and left:
                take = min(left, sum(1 for u in attacking_air(ctx) if u.type == other))
                counts[other.split(".", 1)[1]] = take
                left -= take
        yield Casualties(units=counts)


def _down(ctx: Ctx, units: list[Unit]) -> None:
    b = ctx.state.battle
    gone = {u.id for u in units}
    for u in units:
        ctx.state.units.remove(u)
    for ids in b["sources"].values():
        ids[:] = [i for i in ids if i not in gone]
    for a in ctx.state.attacks:
        a["units"] = [i for i in a["units"] if i not in gone]
    ctx.log("battle", f"{len(units)} attacking air unit(s) shot down before the combat.")


def after_air_defense(ctx: Ctx) -> None:
    """Collateral Damage when asked for and a bomber is left (L1243), then the combat
    begins with step 1, or the attack without actual combat concludes (L734)."""
    s = ctx.state
    b = s.battle
    if b.pop("bomb", False):
        target = b["target"]
        if any(chart()[u.type].type == "bomber" for u in attacking_air(ctx)) and s.supply.get(target, 0):
            s.supply[target] -= 1
            if not s.supply[target]:
                del s.supply[target]
            ctx.log("raid", f"Bombers destroy 1 supply token in {ctx.name(target)} (Collateral Damage).")
    b.pop("aa_hits", None)
    b["step"] = "orders"
    if b.get("nocombat"):
        from engine.games.aa_na import conclude

        conclude.finish_nocombat(ctx)
        return
    from engine.games.aa_na import land_combat, land_conclude

    if not land_combat._pool(ctx, False):  # every attacker shot down
        land_conclude.conclude(ctx, won=False)


def bomb_allowed(ctx: Ctx, target: str) -> None:
    if not any(chart()[u.type].type == "bomber" for u in ctx.state.units
               if u.airborne and u.at == target and u.power == ctx.power):
        raise refuse(R_BOMB, "Only attacking bombers cause Collateral Damage.")
    if not ctx.state.supply.get(target, 0):
        raise refuse(R_BOMB, f"{ctx.name(target)} holds no supply token to destroy.")

