"""Aircraft: where they may land, how far that is, and antiaircraft fire on their way.

Revised: Phase 3, Air Units; Completing Air Units' Move; Appendix 1, Air Units. An air
unit lands only in a territory that was friendly at the start of its power's turn (and
still is), or, a fighter, on a friendly carrier in the sea zone where that carrier ends
its move (a carrier may still come to it in the noncombat move). Every move it makes must
leave it a landing place within range (no suicide runs, no kamikaze).
"""

from __future__ import annotations

from collections import deque

from engine.games.aa_revised.context import Ctx
from engine.games.aa_revised.geography import multi_source_distances
from engine.games.aa_revised.state import POWER_NAME, SIDE, Unit, uid_key

CARRIER_ROOM = 2


def landing_territories(ctx: Ctx, power: str) -> set[str]:
    """Territories friendly to ``power`` now and at the start of its turn, captured this
    turn excepted (Revised: Completing Air Units' Move; FAQ: an ally's earlier capture
    is a landing place)."""
    s = ctx.state
    side = SIDE[power]
    captured = set(s.captured)
    return {
        t for t, p in s.control.items()
        if SIDE[p] == side and SIDE[s.start_control.get(t, p)] == side and t not in captured
    }  # fmt: skip


def carrier_zones(ctx: Ctx, power: str) -> set[str]:
    """Sea zones where a friendly carrier is, or where one of ``power``'s carriers that
    has not moved yet can be at the end of the noncombat move (Appendix 1, Fighters;
    FAQ: fighters land on carriers in cleaned sea zones)."""
    from engine.games.aa_revised.movement import carrier_reach

    side = SIDE[power]
    zones: set[str] = set()
    for u in ctx.state.units.values():
        if u.type != "carrier" or SIDE[u.owner] != side:
            continue
        if u.owner != power:
            aboard = sum(1 for c in ctx.at(u.at) if c.aboard == u.id)
            if aboard >= CARRIER_ROOM:
                continue
            zones.add(u.at)
            continue
        unmoved = not (u.cm or u.fought or u.stopped or u.moved)
        if unmoved and u.pickup:
            zones.add(u.pickup)
            continue
        zones.add(u.at)
        if unmoved and ctx.state.phase in ("combat_move", "combat", "noncombat"):
            zones |= carrier_reach(ctx, u)
    return zones


def landing_spaces(ctx: Ctx, power: str, fighter: bool) -> set[str]:
    spaces = landing_territories(ctx, power)
    if fighter:
        spaces |= carrier_zones(ctx, power)
    return spaces


def distance_to_landing(ctx: Ctx, power: str, fighter: bool) -> dict[str, int]:
    """For every space, the fewest spaces an aircraft must fly from it to land."""
    key = (power, fighter, ctx.state.phase)
    cache = ctx.__dict__.setdefault("_landing_cache", {})
    if key not in cache:
        cache[key] = multi_distances(ctx, power, sorted(landing_spaces(ctx, power, fighter)))
    return cache[key]


def multi_land_distance(ctx: Ctx, power: str) -> dict[str, int]:
    """For every space, the fewest spaces to a landing territory (no carriers)."""
    key = (power, "land", ctx.state.phase)
    cache = ctx.__dict__.setdefault("_landing_cache", {})
    if key not in cache:
        cache[key] = multi_distances(ctx, power, sorted(landing_territories(ctx, power)))
    return cache[key]


# ------------------------------------------------------------------ counting spaces


def island_bases(ctx: Ctx, power: str) -> bool:
    return power == "usa" and ctx.has("usa", "island_bases")


def step_cost(ctx: Ctx, power: str, a: str, b: str) -> int:
    """Spaces an aircraft pays to fly from ``a`` into the adjacent ``b``: 1 (Appendix 1,
    Air Units), except that with Island Bases a U.S. aircraft moves between an island
    group its side controls and the sea zone around it for nothing (Appendix 3)."""
    if not island_bases(ctx, power):
        return 1
    g = ctx.geo
    island = a if a in g.island else b if b in g.island else None
    if island is None or g.coast[island] != ((b,) if island == a else (a,)):
        return 1
    return 0 if ctx.friendly_territory(island, power) else 1


def route_cost(ctx: Ctx, power: str, route: list[str]) -> int:
    return sum(step_cost(ctx, power, a, b) for a, b in zip(route, route[1:], strict=False))


def distances(ctx: Ctx, power: str, start: str) -> dict[str, int]:
    """Spaces an aircraft of ``power`` pays to fly from ``start`` to every space."""
    if not island_bases(ctx, power):
        return ctx.geo.air_distances(start)
    return multi_distances(ctx, power, [start])


def multi_distances(ctx: Ctx, power: str, starts: list[str]) -> dict[str, int]:
    if not island_bases(ctx, power):
        return multi_source_distances(starts, ctx.geo.air_adj)
    dist: dict[str, int] = {}
    queue: deque[str] = deque()
    for s0 in starts:
        if s0 not in dist:
            dist[s0] = 0
            queue.append(s0)
    while queue:  # 0-1 breadth-first search
        here = queue.popleft()
        for n in ctx.geo.air_adj[here]:
            d = dist[here] + step_cost(ctx, power, here, n)
            if d < dist.get(n, 1 << 30):
                dist[n] = d
                if d == dist[here]:
                    queue.appendleft(n)
                else:
                    queue.append(n)
    return dist


def forget_landings(ctx: Ctx) -> None:
    ctx.__dict__.pop("_landing_cache", None)


def is_fighter(u: Unit) -> bool:
    return u.type == "fighter"


# ------------------------------------------------------------------ antiaircraft fire


def enemy_gun(ctx: Ctx, territory: str, power: str) -> Unit | None:
    """The antiaircraft gun that fires in ``territory`` at ``power``'s aircraft: one gun
    only, whoever owns the others (Revised: Opening Fire, Antiaircraft Guns). A gun of a
    power with Radar in its own original territory is chosen first (it hits on 2)."""
    side = SIDE[power]
    guns = [u for u in ctx.at(territory) if u.type == "aa_gun" and SIDE[u.owner] != side]
    if not guns:
        return None
    guns.sort(key=lambda g: (-aa_value(ctx, g, territory), uid_key(g.id)))
    return guns[0]


def aa_value(ctx: Ctx, gun: Unit, territory: str) -> int:
    """An antiaircraft gun hits on a 1; with Radar, a U.K. gun in a tan territory the U.K.
    still controls hits on 2 (Appendix 3, Radar)."""
    if (
        gun.owner == "uk"
        and ctx.has("uk", "radar")
        and ctx.geo.original.get(territory) == "uk"
        and ctx.state.control.get(territory) == "uk"
    ):
        return 2
    return 1


def immune(ctx: Ctx, plane: Unit) -> bool:
    """Superfortresses: U.S. bombers are never fired on by antiaircraft guns (Appendix 3)."""
    return plane.type == "bomber" and ctx.has(plane.owner, "superfortresses")


def antiaircraft_fire(ctx: Ctx, territory: str, planes: list[Unit], why: str) -> list[Unit]:
    """One gun in ``territory`` fires one die at each aircraft; those hit are destroyed
    (Revised: Opening Fire, Antiaircraft Guns; FAQ: each die is aimed at one aircraft).
    Returns the aircraft that survive."""
    if not planes:
        return []
    gun = enemy_gun(ctx, territory, planes[0].owner)
    if gun is None:
        return list(planes)
    need = aa_value(ctx, gun, territory)
    survivors = []
    name = ctx.geo.name(territory)
    for plane in planes:
        if immune(ctx, plane):
            survivors.append(plane)
            continue
        r = ctx.dice.roll(6, f"antiaircraft fire in {territory} at {plane.id}")
        hit = r <= need
        ctx.log(
            "antiaircraft",
            f"Antiaircraft fire in {name} {why} at {POWER_NAME[plane.owner]}'s "
            f"{ctx.info(plane.type).name.lower()} {plane.id}: rolls {r}, needs {need}: "
            f"{'shot down' if hit else 'miss'}.",
            space=territory,
            target=plane.id,
            roll=r,
            hit=hit,
        )
        if hit:
            ctx.destroy(plane, " by antiaircraft fire", quiet=True)
        else:
            survivors.append(plane)
    return survivors


def overflown_guns(ctx: Ctx, power: str, path: list[str]) -> list[str]:
    """Hostile territories of ``path`` (its end excepted) holding an enemy antiaircraft
    gun: the gun fires at aircraft flying over (Revised: Phase 3, Antiaircraft Guns)."""
    out = []
    for t in path[1:-1]:
        if t in ctx.geo.land and not ctx.friendly_territory(t, power):
            if enemy_gun(ctx, t, power) is not None:
                out.append(t)
    return out


def deck_for(ctx: Ctx, fighter: Unit, end: str, left: int) -> tuple[Unit | None, str | None]:
    """The carrier a fighter ending its combat move in ``end`` with ``left`` spaces to
    spare will land on, when no territory is in reach: ``(carrier, zone)``; the carrier is
    one of the power's own that has not moved (it is then committed to be in ``zone`` at
    the end of the turn), or ``None`` if a carrier already there will take it.

    Revised: Completing Air Units' Move: the player must have a carrier move to pick up a
    fighter that would end the combat move at sea, declare it, and follow through."""
    from engine.games.aa_revised.movement import carrier_reach

    power = fighter.owner
    side = SIDE[power]
    dists = distances(ctx, power, end)
    near = {z for z in ctx.geo.sea if dists.get(z, 99) <= left}
    carriers = sorted(
        (c for c in ctx.state.units.values() if c.type == "carrier" and SIDE[c.owner] == side),
        key=lambda c: (c.owner != power, uid_key(c.id)),
    )
    for c in carriers:
        free = c.owner != power or c.cm or c.fought or c.stopped or c.moved
        if free and c.at in near and (c.owner == power or _room(ctx, c) > 0):
            return None, c.at
    for c in carriers:
        if c.owner != power or c.cm or c.fought or c.stopped or c.moved:
            continue
        options = ({c.at} | carrier_reach(ctx, c)) & near
        if c.pickup:
            options &= {c.pickup}
        if options:
            zone = c.pickup or (
                c.at if c.at in options else min(options, key=lambda z: (dists[z], z))
            )
            return c, zone
    return None, None


def _room(ctx: Ctx, carrier: Unit) -> int:
    return CARRIER_ROOM - sum(1 for x in ctx.at(carrier.at) if x.aboard == carrier.id)
