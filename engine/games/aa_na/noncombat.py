"""Phase 5: Noncombat Move (L883-907): land units (Coast Road Movement, Land Transport by
truck, Long-Range Patrol of scout cars), air units landing, sea units, the Axis taking
Vichy territories (L1069) and trucks captured at the end of a move (L746).

Sea units entering a zone mined by the enemy stop there for the mines (``sea_mines``,
L982-986) and may then move on.
"""

from __future__ import annotations

from engine.games.aa_na import air, sea_mines
from engine.games.aa_na.combat_move import _check_space, capture_trucks, is_scout, pick
from engine.games.aa_na.context import Ctx, chart, has, listing, refuse
from engine.games.aa_na.orders import Move
from engine.games.aa_na.requisition import check_stock, supply_holdings
from engine.games.aa_na.state import SIDE, Unit

R_NCM = "North Africa: Phase 5, Land Unit Movement (L885-889)"
R_ROAD = "North Africa: Coast Road Movement (L1113, L1195, L1207)"
R_TRUCK = "North Africa: Trucks, Land Transport (L1209-1213)"
R_SEA = "North Africa: Phase 5, Sea Unit Movement (L901-903)"
R_LRP = "North Africa: Scout Cars, Long-Range Patrol (L1169)"
R_DONE = "North Africa: Phase 5, air units must land (L897-899)"

CARGO_TYPES = ("infantry", "artillery", "anti_tank_gun", "aaa")
ROAD_MOVE = 5


def move(ctx: Ctx, order: Move) -> None:
    if air.names_air(ctx, order):
        air.noncombat_fly(ctx, order)
        return
    start = ctx.find(order.path[0], R_NCM)
    if ctx.board.spaces[start].kind == "sea":
        sail(ctx, order)
        return
    land_move(ctx, order)


def allowance(ctx: Ctx, u: Unit) -> int:
    """What a land unit may still move in this phase: its move value, or for a scout car
    that attacked what its combat move and the attack left (L885, L1169; RULINGS: A42)."""
    mov = chart()[u.type].movement
    if is_scout(u) and (u.moved or u.id in ctx.state.engaged):
        return max(mov - u.moved - (1 if u.id in ctx.state.engaged else 0), 0)
    return mov


def may_move(ctx: Ctx, u: Unit) -> bool:
    """Land units that neither combat moved nor fought this turn, scout cars on patrol, and
    not trucks captured this turn or units already moved or carried (L748, L885, L1211)."""
    if chart()[u.type].kind != "land" or u.ncm or u.captured or u.power == "vichy":
        return False
    if is_scout(u):
        return allowance(ctx, u) > 0
    return not u.moved and u.id not in ctx.state.engaged


def land_move(ctx: Ctx, order: Move) -> None:
    """Through and into friendly or neutral territories only, captured ones included, never
    a hostile one (L889); up to the move value, or 5 along the coast road for units with
    Coast Road Movement that start on it and stay on it (L1113, L1195, L1207)."""
    s = ctx.state
    path = [ctx.find(w, R_NCM) for w in order.path]
    start, end = path[0], path[-1]
    movers = pick(ctx, start, order.units, order.ids, R_NCM, lambda u: may_move(ctx, u))
    if not movers:
        raise refuse(R_NCM, "Name the units to move.")
    steps = len(path) - 1
    if steps < 1 or start == end:
        raise refuse(R_NCM, "A move ends in another territory.")
    for a, b in zip(path, path[1:], strict=False):
        if not ctx.board.adjacent(a, b):
            raise refuse(R_NCM, f"{ctx.name(a)} does not border {ctx.name(b)}.")
        _check_space(ctx, b, movers, R_NCM)
        if not (ctx.friendly(b, ctx.side) or ctx.neutral(b)):
            raise refuse(R_NCM, f"{ctx.name(b)} is hostile: noncombat moves go only through and into friendly or "
                         "neutral territories (L889).")
    road = all(ctx.board.spaces[t].coast_road for t in path)
    for u in movers:
        reach = allowance(ctx, u)
        patrol = is_scout(u) and (u.moved or u.id in s.engaged)
        if road and has(u.type, "Coast Road Movement") and not patrol:
            reach = max(reach, ROAD_MOVE)
        if steps > reach:
            roads = has(u.type, "Coast Road Movement") and not patrol
            rule = R_LRP if patrol else (R_ROAD if roads else R_NCM)
            raise refuse(rule, f"{chart()[u.type].name} ({u.id}) may move {reach} space(s) now, not {steps}"
                         + ("; 5 only along the coast road, starting on it" if roads and not road else "") + ".")
    cargo, loads = _load(ctx, movers, path, order.cargo)
    units = movers + cargo
    combat = sum(1 for u in units if chart()[u.type].combat)
    if ctx.stacked(end, ctx.side) + combat > ctx.limit(end):
        raise refuse("North Africa: Stacking Limits (L487-491)",
                     f"{ctx.name(end)} takes at most {ctx.limit(end)} combat land and air units of a side; "
                     f"{ctx.stacked(end, ctx.side)} are there.")
    supply = sum(loads.values())
    _check_load_stock(ctx, loads, end)
    for t, n in loads.items():
        s.supply[t] -= n
        if not s.supply[t]:
            del s.supply[t]
    if supply:
        s.supply[end] = s.supply.get(end, 0) + supply
    for u in units:
        u.at = end
        u.ncm = True
    text = f"{ctx.who(ctx.power)} moves {len(units)} unit(s) from {ctx.name(start)} to {ctx.name(end)}"
    if supply:
        text += f" with {supply} supply"
    trucks = capture_trucks(ctx, end) if combat else 0
    if trucks:
        text += f", capturing {trucks} enemy truck(s)"
    ctx.log("move", text + ".", units=[u.id for u in units], path=path)
    _vichy_takeover(ctx, end, units)


def _load(ctx: Ctx, movers: list[Unit], path: list[str], cargo: dict[str, int]) -> tuple[list[Unit], dict[str, int]]:
    """Trucks carry up to 6 each, a unit or a supply point counting 1: infantry, artillery,
    anti-tank guns and AAA of the truck's power that did not combat move or fight, and
    supply the side may use (L704, L1209-1213). Cargo is loaded where the trucks start and
    at any space on the way, never where they stop (L1211): each item from the first space
    of the path that holds it (RULINGS: loading on the way). Returns the units and the
    supply taken from each space."""
    if not cargo:
        return [], {}
    s = ctx.state
    if not all(chart()[u.type].type == "truck" for u in movers):
        raise refuse(R_TRUCK, "Only trucks carry cargo, and they move on their own with it.")
    if sum(cargo.values()) > 6 * len(movers):
        raise refuse(R_TRUCK, f"{len(movers)} truck(s) carry at most {6 * len(movers)} units and supply "
                     "tokens (a 5-token counts as five).")
    stops = list(dict.fromkeys(path[:-1]))
    units: list[Unit] = []
    supply: dict[str, int] = {}
    for word, n in cargo.items():
        if word == "supply":
            for t in stops:
                if n and ctx.supply_usable(t, ctx.side) and s.supply.get(t, 0):
                    supply[t] = min(n, s.supply[t])
                    n -= supply[t]
            if n:
                raise refuse(R_TRUCK, f"The trucks' path holds {sum(supply.values())} supply {ctx.side} may load, "
                             f"not {cargo[word]} (L704, L1211).")
            continue
        if word not in CARGO_TYPES:
            raise refuse(R_TRUCK, f"Trucks carry {listing(w.replace('_', ' ') for w in CARGO_TYPES)} and supply.")
        power = movers[0].power
        fit = [u for t in stops for u in ctx.units_at(t) if u.type == f"{power}.{word}" and u.power == power
               and not u.moved and not u.ncm and u.id not in s.engaged and u not in units]
        if len(fit) < n:
            raise refuse(R_TRUCK, f"The trucks' path holds {len(fit)} {word.replace('_', ' ')} of the trucks' power "
                         f"free to be carried, not {n} (L1211).")
        units += fit[:n]
    return units, supply


def _check_load_stock(ctx: Ctx, loads: dict[str, int], end: str) -> None:
    """Tokens may be exchanged in a territory (L696), but only for tokens the stock still
    has (L105-106, L459-461): a load that splits a holding needs 1-tokens as change, and
    is refused when none are left to make it (RULINGS: supply token stock). Loading all
    of a territory's supply, or none, never needs change."""
    if not loads:
        return
    s = ctx.state
    before = supply_holdings(s)
    after = list(before)
    new = dict(s.supply)
    for t, n in loads.items():
        new[t] -= n
    new[end] = new.get(end, 0) + sum(loads.values())
    for t in {*loads, end}:
        if s.supply.get(t, 0):
            after.remove(s.supply[t])
        if new[t]:
            after.append(new[t])
    split = listing(f"{n} of the {s.supply[t]} supply in {ctx.name(t)}" for t, n in loads.items() if n < s.supply[t])
    check_stock(ctx, before, after, f"Loading {split or f'{sum(loads.values())} supply'}",
                "Load all of a territory's supply, or an amount its tokens make without change (L696).")


def _vichy_takeover(ctx: Ctx, end: str, units: list[Unit]) -> None:
    """German or Italian combat land units ending their move where only Vichy units stand
    take control of it, if it can be controlled (L1069; RULINGS: Vichy takeover)."""
    if ctx.power not in ("ger", "ita") or not ctx.board.spaces[end].rp:
        return
    if not any(chart()[u.type].combat for u in units) or ctx.controller(end) == ctx.power:
        return
    others = [u for u in ctx.standing(end) if u not in units and ctx.is_combat(u)]
    if others and all(u.power == "vichy" for u in others):
        ctx.state.control[end] = ctx.power
        ctx.log("capture", f"{ctx.who(ctx.power)} takes control of {ctx.name(end)}, held by Vichy French units (L1069).")


def sail(ctx: Ctx, order: Move) -> None:
    """Sea units move up to their move value through friendly sea zones; submarines also
    through hostile ones, but stop on entering a zone with an enemy destroyer (L903, L1297);
    only Axis sea units cross the Strait of Messina (L527); the Suez Canal zone is entered
    only from the Indian Ocean zone (L507), the Atlantic and Indian Ocean zones only by the
    UK (RULINGS: A15); a zone mined by the enemy stops them until its mines are settled
    (L984)."""
    path = [ctx.find(w, R_SEA) for w in order.path]
    movers = pick(ctx, path[0], order.units, order.ids, R_SEA,
                  lambda u: chart()[u.type].kind == "sea" and (sea_mines.may_go_on(ctx, u) or (
                      not u.moved and not u.ncm and u.id not in ctx.state.engaged)))
    if not movers or len(path) < 2:
        raise refuse(R_SEA, "Name the sea units and where they go.")
    if len(path) - 1 > min(sea_mines.budget(ctx, u) for u in movers):
        raise refuse(R_SEA, f"These sea units move at most {min(sea_mines.budget(ctx, u) for u in movers)} more space(s).")
    subs = all(chart()[u.type].type == "submarine" for u in movers)
    board = ctx.board
    for i, (a, b) in enumerate(zip(path, path[1:], strict=False)):
        if not board.adjacent(a, b) or board.spaces[b].kind != "sea":
            raise refuse(R_SEA, f"{ctx.name(b)} is not a sea zone bordering {ctx.name(a)}.")
        for p in board.pack.passages:
            if {a, b} == set(p.between) and p.sea_units_of != ctx.side:
                raise refuse(R_SEA, f"Only {p.sea_units_of} sea units pass the {p.name} (L527).")
        only = board.pack.entry_only_from.get(b)
        if only and a not in only:
            raise refuse(R_SEA, f"{ctx.name(b)} is entered only from {listing(ctx.name(x) for x in only)} (L507).")
        closed = board.pack.closed_except.get(b)
        if closed and ctx.power not in closed:
            raise refuse(R_SEA, f"{ctx.name(b)} is closed to {ctx.who(ctx.power)} (L513).")
        destroyer = any(SIDE[u.power] != ctx.side and chart()[u.type].type == "destroyer" for u in ctx.units_at(b))
        if subs:
            if destroyer and i < len(path) - 2:
                raise refuse(R_SEA, f"Submarines stop on entering {ctx.name(b)}: an enemy destroyer is there (L903).")
        elif ctx.hostile(b, ctx.side):
            raise refuse(R_SEA, f"{ctx.name(b)} is hostile: sea units make noncombat moves through friendly zones only (L903).")
    sea_mines.check_path(ctx, movers, path)
    for u in movers:
        u.at = path[-1]
        u.ncm = True
    ctx.log("move", f"{ctx.who(ctx.power)} moves {len(movers)} sea unit(s) from {ctx.name(path[0])} to "
            f"{ctx.name(path[-1])}.", units=[u.id for u in movers], path=path)
    sea_mines.moved(ctx, movers, path)


def done(ctx: Ctx) -> None:
    """Ending Phase 5 destroys air units still in the air (L899): refused while one of them
    can still reach a landing territory, so none is lost by a slip."""
    can = air.can_still_land(ctx)
    if can:
        raise refuse(R_DONE, "Air units that attacked must land before the phase ends; "
                     f"{listing(f'{u.id} in {ctx.name(u.at)}' for u in can)} can still reach a friendly territory.",
                     "Land them with 'move UNITS FROM TO'.")
    air.crash(ctx)


def legal_moves(ctx: Ctx):
    """A short list of noncombat moves for listing: each air unit in the air to each landing
    territory in reach, one unit of each kind one space on, trucks with what they can
    carry, sea units one zone on."""
    seen = set()
    for u in air.stranded(ctx):
        for t in air.landing_within(ctx, u.at, air.flight_left(u)):
            key = (u.type, u.at, t)
            if key not in seen:
                seen.add(key)
                yield Move(ids=[u.id], path=[u.at, t])
    yield from _airlifts(ctx)
    for u in ctx.state.units:
        if not ctx.mine(u) or u.airborne:
            continue
        kind = chart()[u.type].kind
        if kind == "land" and not may_move(ctx, u):
            continue
        if kind == "sea" and (u.moved or u.ncm):
            continue
        if kind == "air":
            continue
        for b in sorted(ctx.board.neighbours(u.at)):
            key = (u.type, u.at, b)
            if key in seen:
                continue
            seen.add(key)
            word = u.type.split(".", 1)[1] if u.power == ctx.power else u.type
            yield Move(units={word: 1}, path=[u.at, b])
            if kind == "land" and chart()[u.type].type == "truck":
                load = min(ctx.state.supply.get(u.at, 0), 6)
                if load:
                    yield Move(units={word: 1}, path=[u.at, b], cargo={"supply": load})


def _airlifts(ctx: Ctx):
    """With Air Transport (L1405): a bomber in Italy carrying one unit to each landing
    territory in reach."""
    from engine.games.aa_na.optional import AIRLIFT_TYPES, on

    if not on(ctx.state, "air_transport"):
        return
    here = ctx.units_at("italy")
    bomber = next((u for u in here if u.power == ctx.power and chart()[u.type].type == "bomber"
                   and not u.moved and not u.ncm), None)
    words = sorted({chart()[u.type].type for u in here if u.power == ctx.power and may_move(ctx, u)} & set(AIRLIFT_TYPES))
    if bomber is None or not words:
        return
    for t in [t for t in air.landing_within(ctx, "italy", air.flight_left(bomber), 2) if t != "italy"]:
        for w in words:
            yield Move(ids=[bomber.id], path=["italy", t], cargo={w: 1})
