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


def own_carrier(ctx: Ctx, carrier: Unit, power: str) -> bool:
    """Whether ``power``'s player moves ``carrier`` this turn: its own, or in a Joint
    Strike a U.K. carrier for the U.S. (Appendix 3)."""
    mine = ctx.commanded()
    return carrier.owner == power or (power in mine and carrier.owner in mine)


def free_room(ctx: Ctx, carrier: Unit, ignore: frozenset[str] = frozenset()) -> int:
    """Places left on ``carrier`` at the end of the turn: two (Appendix 1, Aircraft
    Carriers), less the fighters aboard (any friendly power's) and those promised a
    place on it (:attr:`Unit.deck`); fighters in ``ignore`` (the ones moving now) are
    not counted."""
    taken = 0
    for u in ctx.state.units.values():
        if u.type != "fighter" or u.id in ignore:
            continue
        if u.aboard == carrier.id or (u.deck == carrier.id and u.aboard is None):
            taken += 1
    return CARRIER_ROOM - taken


def fixed_zone(ctx: Ctx, carrier: Unit, power: str) -> str | None:
    """Where ``carrier`` will be at the end of ``power``'s turn, or ``None`` while it may
    still move: a friendly power's carrier stays put; one of the player's own stays
    where it is once it has moved (or fought), and goes where it is committed to
    (Revised: Completing Air Units' Move)."""
    if not own_carrier(ctx, carrier, power):
        return carrier.at
    if carrier.pickup:
        return carrier.pickup
    if carrier.cm or carrier.fought or carrier.stopped or carrier.moved or carrier.retreated:
        return carrier.at
    if ctx.state.phase not in ("combat_move", "combat", "noncombat"):
        return carrier.at
    return None


def carrier_zones(ctx: Ctx, power: str, ignore: frozenset[str] = frozenset()) -> set[str]:
    """Sea zones where a friendly carrier with a free place will be at the end of the
    turn, or where one of ``power``'s carriers that has not moved yet can be (Appendix
    1, Fighters; FAQ: fighters land on carriers in cleaned sea zones). Places are
    counted exactly (:func:`free_room`), on every carrier."""
    from engine.games.aa_revised.movement import carrier_reach

    side = SIDE[power]
    zones: set[str] = set()
    for u in ctx.state.units.values():
        if u.type != "carrier" or SIDE[u.owner] != side or free_room(ctx, u, ignore) <= 0:
            continue
        zone = fixed_zone(ctx, u, power)
        if zone is not None:
            zones.add(zone)
        else:
            zones.add(u.at)
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


def decks_for(ctx: Ctx, fighters: list[Unit], end: str, left: int) -> list[tuple[Unit, str]] | None:
    """The carrier each of ``fighters``, ending a move in ``end`` with ``left`` spaces to
    spare, is promised, with the sea zone where that carrier will be: ``[(carrier,
    zone), ...]`` in the fighters' order, or ``None`` if the free places do not suffice.

    Revised: Completing Air Units' Move: a fighter that would end the combat move at sea
    needs a carrier the player declares will move there, and follows through; in the
    noncombat move (``left`` 0) it needs a carrier with a place in ``end``. A carrier
    whose zone is settled (a friendly power's, one that has moved, one committed) is
    used first, the player's own before a friendly power's; else one of the player's
    own carriers that has not moved is committed to a zone in reach, where it stands if
    it can. Places are counted exactly (:func:`free_room`)."""
    from engine.games.aa_revised.movement import carrier_reach

    power = fighters[0].owner
    side = SIDE[power]
    dists = distances(ctx, power, end)
    near = {z for z in ctx.geo.sea if dists.get(z, 99) <= left}
    ignore = frozenset(f.id for f in fighters)
    carriers = sorted(
        (c for c in ctx.state.units.values() if c.type == "carrier" and SIDE[c.owner] == side),
        key=lambda c: (not own_carrier(ctx, c, power), uid_key(c.id)),
    )
    room = {c.id: free_room(ctx, c, ignore) for c in carriers}
    zone_of = {c.id: fixed_zone(ctx, c, power) for c in carriers}
    fixed = [c for c in carriers if zone_of[c.id] is not None]
    movable = [c for c in carriers if zone_of[c.id] is None]
    out: list[tuple[Unit, str]] = []
    for _ in fighters:
        pick = next((c for c in fixed if room[c.id] > 0 and zone_of[c.id] in near), None)
        if pick is None:
            for c in movable:
                if room[c.id] <= 0:
                    continue
                options = ({c.at} | carrier_reach(ctx, c)) & near
                if options:
                    zone_of[c.id] = (
                        c.at if c.at in options else min(options, key=lambda z: (dists[z], z))
                    )
                    movable.remove(c)
                    fixed.append(c)  # its zone is settled for the next fighters
                    pick = c
                    break
        if pick is None:
            return None
        room[pick.id] -= 1
        out.append((pick, zone_of[pick.id]))
    return out


def promise_decks(ctx: Ctx, fighters: list[Unit], decks: list[tuple[str, str]]) -> None:
    """Record the places promised by :func:`decks_for` (carrier ids and zones, in the
    fighters' order): each fighter's deck, and the player's own carriers committed to
    be in that zone at the end of the turn (Revised: Completing Air Units' Move)."""
    s = ctx.state
    g = ctx.geo
    for f, (cid, zone) in zip(fighters, decks, strict=True):
        f.deck = cid
        c = s.units[cid]
        if not own_carrier(ctx, c, f.owner) or c.pickup == zone:
            continue
        unmoved = not (c.cm or c.fought or c.stopped or c.moved)
        c.pickup = zone
        if unmoved:
            ctx.log("pickup", f"{POWER_NAME[c.owner]}'s carrier {c.id} is committed to be in "
                    f"{g.name(zone)} at the end of the turn, to take the fighters.",
                    unit=c.id, zone=zone)  # fmt: skip


def release_decks(ctx: Ctx, fighters: list[Unit]) -> None:
    """Fighters moving again give up the places they were promised; a carrier no fighter
    counts on any more is no longer committed (Revised: Completing Air Units' Move)."""
    s = ctx.state
    for f in fighters:
        cid, f.deck = f.deck, None
        c = s.units.get(cid) if cid else None
        if c is None or c.pickup is None:
            continue
        if not any(u.deck == cid and u.aboard is None for u in s.units.values()):
            c.pickup = None
