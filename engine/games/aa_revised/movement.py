"""Moving units: the combat move and the noncombat move (Revised: Phase 3 and Phase 5).

One ``move`` order names units in one space and where they go; the engine finds the route
(through any ``via`` spaces given) that the rules allow, preferring routes that capture
nothing by blitzing and fly over no antiaircraft gun. The same checks list the legal
moves for autocomplete (:func:`legal_moves`), so every listed move is accepted.

Five ways a unit moves, each with its rules:

``land``   along land borders (Phase 3: Land units; Tanks and Blitzing; Phase 5)
``load``   a land unit from a territory onto a transport in an adjacent sea zone
           (Appendix 1, Transports: Loading and Offloading)
``unload`` cargo from a sea zone into an adjacent territory: in the combat move an
           amphibious assault (Special Combats), in the noncombat move a landing
``sea``    ships between sea zones (Appendix 1, Sea Units; Canals; Submarines)
``air``    aircraft over any space but neutrals (Phase 3, Air Units; Appendix 1)
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field

from engine.core.errors import IllegalOrder
from engine.games.aa_revised import air
from engine.games.aa_revised.context import Ctx, count_text, listing, refuse, units_phrase
from engine.games.aa_revised.geography import SHORT, multi_source_distances
from engine.games.aa_revised.orders import Bomb, Bombard, Move
from engine.games.aa_revised.state import POWER_NAME, SIDE, Unit, uid_key

R_LAND = "Revised: Phase 3, Combat Move"
R_NCM = "Revised: Phase 5, Noncombat Move"
R_BLITZ = "Revised: Phase 3, Tanks and Blitzing"
R_AIR = "Revised: Appendix 1, Air Units"
R_SEA = "Revised: Appendix 1, Sea Units"
R_TRN = "Revised: Appendix 1, Transports"
R_CANAL = "Revised: Canals"
R_SBR = "Revised: Strategic Bombing Raids"
R_AMPHIB = "Revised: Special Combats, Amphibious Assaults"

#: Trans-Siberian Railway (Appendix 3): the four territories of the railway
RAILWAY = frozenset({"russia", "novosibirsk", "yakut_ssr", "buryatia_ssr"})


@dataclass
class Plan:
    """A validated move of one group of units, ready to carry out."""

    mode: str
    units: list[Unit]
    route: list[str]
    #: territories captured by blitzing on the way (Phase 3: Tanks and Blitzing)
    blitzed: list[str] = field(default_factory=list)
    #: for ``load``: unit id -> transport id
    boarding: dict[str, str] = field(default_factory=dict)
    #: ships that will bombard this territory (Phase 3: warships joining an assault)
    bombard: str | None = None
    #: cargo that waits for its sea zone to be cleared before landing
    deferred: bool = False
    raid: bool = False
    #: fighters' landing decks, in the order of ``units``: (carrier id, sea zone where
    #: that carrier will be at the end of the turn) (Completing Air Units' Move)
    decks: list[tuple[str, str]] | None = None
    kamikaze: bool = False


# ------------------------------------------------------------------ small questions


def combat(ctx: Ctx) -> bool:
    return ctx.state.phase == "combat_move"


def remaining(ctx: Ctx, u: Unit) -> int:
    return ctx.movement(u) - u.moved


def transport_room(ctx: Ctx, transport: Unit) -> int:
    used = sum(ctx.info(c.type).transport_cost or 0 for c in ctx.cargo(transport))
    return capacity(ctx, transport) - used


def capacity(ctx: Ctx, ship: Unit) -> int:
    """Transport capacity in points (infantry 2, other land units 3; Appendix 1). With
    Tokyo Express a Japanese destroyer carries one infantry (Appendix 3)."""
    if ship.type == "transport":
        return ctx.info("transport").transport_capacity
    if ship.type == "destroyer" and ctx.has(ship.owner, "tokyo_express"):
        return 2
    return 0


def is_carrier_of_land(ctx: Ctx, ship: Unit) -> bool:
    return capacity(ctx, ship) > 0


def canal_open(ctx: Ctx, a: str, b: str, power: str) -> bool:
    """Revised: Canals: a side sails a canal only if it controlled the canal (both
    Anglo-Egypt and Trans-Jordan for Suez) at the start of the moving power's turn."""
    key = frozenset((a, b))
    holders = ctx.geo.canals.get(key)
    if holders is None:
        return True
    start = ctx.state.start_control
    side = SIDE[power]
    return all(SIDE[start.get(t, ctx.state.control[t])] == side for t in holders)


def started_contested(ctx: Ctx, u: Unit) -> bool:
    """MOV-09: a sea unit in a zone that held enemy units at the start of the turn may
    leave it in the combat move and end in a friendly space (Revised: Phase 3)."""
    return u.moved == 0 and ctx.geo.is_sea(u.at) and ctx.hostile_zone(u.at, u.owner)


def assault_targets_from(ctx: Ctx, zone: str, power: str) -> list[str]:
    """Territories this power assaults from ``zone`` this turn (units already ashore,
    or cargo waiting to land; in a Joint Strike, U.K. units' assaults too)."""
    owners = ctx.commanded() if power in ctx.commanded() else (power,)
    out = set()
    for u in ctx.at(zone):
        if u.owner in owners and u.landing:
            out.add(u.landing)
    for t in ctx.geo.coast[zone]:
        for u in ctx.at(t):
            if u.owner in owners and u.prev == zone and u.cm and ctx.kind(u) == "land":
                out.add(t)
    return sorted(out)


def can_bombard(ctx: Ctx, ship: Unit) -> bool:
    """Battleships bombard; destroyers too with Combined Bombardment (Appendix 1)."""
    if ship.type == "battleship":
        return True
    return ship.type == "destroyer" and "combined_bombardment" in ctx.techs(ship.owner)


# ------------------------------------------------------------------ which units may move


def cannot_move(ctx: Ctx, u: Unit, mode: str) -> str | None:
    """Why ``u`` may not make a move of ``mode`` now, or ``None``."""
    cm = combat(ctx)
    info = ctx.info(u.type)
    if "immobile" in info.flags:
        return "industrial complexes never move (Appendix 1)"
    if u.submerged:
        return "it is submerged until the end of the noncombat move (Appendix 1, Submarines)"
    why = joint_strike_bar(ctx, u)
    if why:
        return why
    if mode == "air":
        why = cargo_fighter_problem(ctx, u)
        if why:
            return why
        if cm and u.cm:
            return "it has already made its combat move"
        if remaining(ctx, u) <= 0:
            return "it has no movement left"
        if not cm and u.kamikaze:
            return "it was a kamikaze"
        return None
    if mode == "unload":
        return None  # checked with the transport
    if u.aboard is not None:
        return "it is cargo and moves only with its transport"
    if u.stopped and cm:
        return "its movement is over for this turn"
    if cm:
        if u.type == "aa_gun" and mode != "load":
            return (
                "antiaircraft guns never make combat moves except aboard a transport (Appendix 1)"
            )
        if u.cm and u.type != "transport":
            return "it has already made its combat move"
    else:
        if u.blitz_again:
            return None
        if u.retreated:
            return "it retreated from combat this turn (Revised: Phase 5)"
        if u.cm:
            return "it moved in the combat move (Revised: Phase 5)"
        if u.fought:
            return "it took part in combat this turn (Revised: Phase 5)"
        if u.pinned:
            return "an antiaircraft gun captured or fired as a rocket this turn may not move (FAQ: Movement)"
    if u.stopped:
        return "its movement is over for this turn"
    if mode == "load" and u.moved:
        return "a land unit may board a transport only before it moves (Appendix 1, Transports)"
    if remaining(ctx, u) <= 0:
        return "it has no movement left"
    return None


def cargo_fighter_problem(ctx: Ctx, u: Unit) -> str | None:
    """A fighter still aboard a carrier that has moved this turn is cargo: it takes no
    part in combat and has no range left to take off with (Revised: Phase 3, Aircraft
    Carriers, rulebook L349; Range, L766; Appendix 1, Carry Fighters, L861; RULINGS R-52)."""
    carrier = ctx.state.units.get(u.aboard) if u.aboard else None
    if carrier is None or not carrier.moved:
        return None
    return (
        f"it stayed aboard carrier {carrier.id} when the carrier moved, so it is cargo for "
        "the rest of the turn (a fighter must take off before its carrier moves)"
    )


def joint_strike_bar(ctx: Ctx, u: Unit) -> str | None:
    """Appendix 3, Joint Strike: the U.S. player commands U.K. units in his combat move
    (and their combat); in the noncombat move only the U.K. aircraft that attacked fly
    on to land, and a U.K. carrier committed to take fighters goes to them."""
    if combat(ctx) or u.owner == ctx.power:
        return None
    if (ctx.kind(u) == "air" and u.cm) or (u.type == "carrier" and u.pickup):
        return None
    return (
        "the U.S. moves U.K. units only in its combat move (Appendix 3, Joint Strike); "
        "now only U.K. aircraft that attacked fly on to land, and a U.K. carrier "
        "committed to take fighters goes to them"
    )


def mode_for(ctx: Ctx, u: Unit, start: str, end: str) -> str:
    kind = ctx.kind(u)
    if kind == "air":
        return "air"
    if kind == "sea":
        return "sea"
    if ctx.geo.is_sea(start):
        return "unload"
    if ctx.geo.is_sea(end):
        return "load"
    return "land"


# ------------------------------------------------------------------ routes


def _paths(
    ctx: Ctx, adjacency, start: str, budget: int, step, back: bool = False
) -> Iterator[tuple[list[str], list[str]]]:
    """Every simple path from ``start`` of at most ``budget`` steps, as (path, flags):
    ``step(prev, space)`` says "pass", "stop", "blitz" or "no" for entering ``space``.
    With ``back`` a path may also end where it began (a tank blitzing and returning)."""
    yield from _walk(adjacency, budget, step, back, [start], [], 0)


def _walk(
    adjacency, budget: int, step, back: bool, path: list[str], flags: list[str], depth: int
) -> Iterator[tuple[list[str], list[str]]]:
    """The paths of :func:`_paths` that extend ``path`` (``depth`` steps so far). A module
    function, not a closure calling itself: such a closure is a reference cycle, and it
    kept each order's whole search (and the state it read) alive until the cycle
    collector's next pass, which then took up to 250 ms in a busy bot process."""
    if depth == budget:
        return
    start, here = path[0], path[-1]
    for n in adjacency.get(here, ()):
        # simple paths, except that a blitzing tank may come back to where it began
        if n in path and not (back and n == start and depth > 0):
            continue
        verdict = step(here, n)
        if verdict == "no":
            continue
        path.append(n)
        flags.append(verdict)
        yield list(path), list(flags)
        if verdict in ("pass", "blitz") and n != start:
            yield from _walk(adjacency, budget, step, back, path, flags, depth + 1)
        path.pop()
        flags.pop()


def _through(path: list[str], waypoints: list[str]) -> bool:
    i = 0
    for s in path[1:-1]:
        if i < len(waypoints) and s == waypoints[i]:
            i += 1
    return i == len(waypoints)


def land_step(ctx: Ctx, power: str, blitz: bool):
    cm = combat(ctx)
    ics = set(ctx.state.ics)

    def step(_prev: str, n: str) -> str:
        if ctx.friendly_territory(n, power):
            return "pass"
        if not cm:
            return "no"
        if blitz and not ctx.enemies_at(n, power, submerged=True) and n not in ics:
            return "blitz"
        return "stop"

    return step


def land_budget(ctx: Ctx, group: list[Unit], start: str) -> int:
    budget = min(remaining(ctx, u) for u in group)
    if (
        not combat(ctx)
        and start in RAILWAY
        and all(u.owner == "ussr" and u.type in ("infantry", "artillery", "aa_gun") for u in group)
        and ctx.has("ussr", "trans_siberian_railway")
        and all(u.moved == 0 for u in group)
    ):
        budget = max(budget, 2)
    if any(u.blitz_again for u in group):
        budget = 1
    return budget


def land_route(ctx: Ctx, group: list[Unit], start: str, waypoints: list[str], end: str) -> Plan:
    """Revised: Phase 3, Combat Move (land units stop on meeting enemy units; blitzing)
    and Phase 5 (land units move only through friendly territory)."""
    power = group[0].owner
    cm = combat(ctx)
    g = ctx.geo
    names = units_phrase(group)
    if end not in g.land:
        raise refuse(
            R_TRN, f"{names.capitalize()} cannot go to sea except by boarding a transport."
        )
    budget = land_budget(ctx, group, start)
    railway = budget == 2 and not cm and all(ctx.movement(u) < 2 for u in group)
    blitz = cm and all(
        "blitz" in ctx.info(u.type).flags
        or (u.type == "infantry" and ctx.has(u.owner, "mechanized_infantry"))
        for u in group
    )
    step = land_step(ctx, power, blitz)
    adjacency = g.land_adj
    if railway:
        adjacency = {t: tuple(n for n in g.land_adj[t] if n in RAILWAY) for t in RAILWAY}
    best = None
    for path, flags in _paths(ctx, adjacency, start, budget, step, back=end == start):
        if path[-1] != end or not _through(path, waypoints):
            continue
        ended_hostile = flags[-1] in ("stop", "blitz") and not ctx.friendly_territory(end, power)
        blitzed = [s for s, f in zip(path[1:-1], flags[:-1], strict=True) if f == "blitz"]
        if cm and not ended_hostile and not blitzed:
            continue
        key = (len(blitzed), len(path))
        if best is None or key < best[0]:
            best = (key, path, blitzed)
    if best is not None:
        return Plan("land", group, best[1], blitzed=best[2])
    raise _land_refusal(ctx, group, start, end, budget, blitz)


def _land_refusal(ctx: Ctx, group, start, end, budget, blitz) -> IllegalOrder:
    g = ctx.geo
    power = group[0].owner
    cm = combat(ctx)
    names = units_phrase(group)
    dist = _graph_distance(g.land_adj, start, end)
    if dist is None:
        return refuse(R_LAND, f"{g.name(end)} cannot be reached over land from {g.name(start)}.",
                      "Land units cross the sea only aboard transports.")  # fmt: skip
    if dist > budget:
        return refuse(
            "Revised: Appendix 1, Land Units",
            f"{g.name(end)} is {dist} territories from {g.name(start)}; {names} can move "
            f"{budget} this turn.",
            _legal_hint(ctx, group, start),
        )
    if cm and ctx.friendly_territory(end, power):
        return refuse(
            R_LAND,
            f"In the combat move, land units must end in a hostile territory; "
            f"{g.name(end)} is friendly.",
            "Move into friendly territory in the noncombat move. " + _legal_hint(ctx, group, start),
        )
    if not cm and not ctx.friendly_territory(end, power):
        return refuse(
            R_NCM,
            f"{g.name(end)} is hostile; in the noncombat move land units enter only friendly "
            "territory.",
            "Attack it in the combat move. " + _legal_hint(ctx, group, start),
        )
    if cm:
        why = (
            "blitzing is only through an empty hostile territory (no units, no antiaircraft gun or industrial complex)"
            if blitz
            else "land units stop when they enter a hostile territory"
        )
        return refuse(
            R_BLITZ if blitz else R_LAND,
            f"Every route from {g.name(start)} to {g.name(end)} passes a hostile territory "
            f"where the units must stop: {why}.",
            _legal_hint(ctx, group, start),
        )
    return refuse(
        R_NCM,
        f"Every route from {g.name(start)} to {g.name(end)} passes hostile territory.",
        _legal_hint(ctx, group, start),
    )


def _graph_distance(adjacency, start: str, end: str) -> int | None:
    from engine.games.aa_revised.geography import multi_source_distances

    return multi_source_distances([start], adjacency).get(end)


def sea_step(ctx: Ctx, power: str, group: list[Unit]):
    cm = combat(ctx)
    subs_only = all(u.type == "submarine" for u in group)
    has_destroyer = any(u.type == "destroyer" for u in group)

    def step(prev: str, n: str) -> str:
        if not canal_open(ctx, prev, n, power):
            return "no"
        enemies = ctx.enemies_at(n, power, submerged=True)
        if not enemies:
            return "pass"
        surfaced = [e for e in enemies if not e.submerged]
        if surfaced:
            if subs_only and not any(e.type == "destroyer" for e in surfaced):
                return "pass"
            return "stop" if cm else ("no" if not subs_only else "no")
        if has_destroyer:
            return "stop"  # a destroyer reveals submerged submarines (Phase 3)
        return "pass"

    return step


def sea_end_ok(ctx: Ctx, group: list[Unit], end: str, flags_last: str) -> tuple[bool, str | None]:
    """Whether a sea move may end in ``end``; also the territory warships bombard."""
    power = group[0].owner
    hostile = ctx.hostile_zone(end, power)
    if not combat(ctx):
        return (not hostile, None)
    if hostile:
        return True, None
    if all(u.type == "transport" for u in group):
        return True, None
    if all(started_contested(ctx, u) for u in group):
        return True, None
    if ctx.opts.allow_escort_in_cm:
        return True, None
    if all(can_bombard(ctx, u) for u in group):
        targets = assault_targets_from(ctx, end, power)
        if targets:
            return True, targets[0]
    return False, None


def sea_route(ctx: Ctx, group: list[Unit], start: str, waypoints: list[str], end: str) -> Plan:
    """Appendix 1, Sea Units: up to 2 sea zones (3 for Fast Carriers); ships other than
    submarines stop in a hostile sea zone; submarines pass unless an enemy destroyer is
    there; canals need the side to have held them at the start of the turn."""
    g = ctx.geo
    power = group[0].owner
    names = units_phrase(group)
    if end not in g.sea:
        raise refuse(R_SEA, f"{names.capitalize()} cannot enter a territory.",
                     "Ships stay at sea; land units go ashore from transports.")  # fmt: skip
    for u in group:
        if combat(ctx) and u.type == "carrier" and u.pickup and u.pickup != end:
            raise refuse(
                "Revised: Completing Air Units' Move",
                f"Carrier {u.id} is the landing deck promised to fighters in "
                f"{g.name(u.pickup)}; it must end the turn there.",
                f"Move it to {u.pickup}, or leave it to move in the noncombat move.",
            )
    if not combat(ctx):
        for u in group:
            if u.type == "carrier" and u.pickup and u.pickup != end and _needs_pickup(ctx, u):
                raise refuse(
                    "Revised: Completing Air Units' Move",
                    f"Carrier {u.id} must go to {g.name(u.pickup)}, where fighters wait for it.",
                    f"Move it to {u.pickup}.",
                )
    budget = min(remaining(ctx, u) for u in group)
    step = sea_step(ctx, power, group)
    best = None
    bombard_target = None
    for path, flags in _paths(ctx, g.sea_adj, start, budget, step):
        if path[-1] != end or not _through(path, waypoints):
            continue
        ok, target = sea_end_ok(ctx, group, end, flags[-1])
        if not ok:
            continue
        key = len(path)
        if best is None or key < best[0]:
            best, bombard_target = (key, path), target
    if best is not None:
        return Plan("sea", group, best[1], bombard=bombard_target)
    raise _sea_refusal(ctx, group, start, end, budget, waypoints)


def _route_length(adjacency, legs: list[str]) -> int | None:
    """Sea zones entered along the shortest route through ``legs`` in order."""
    total = 0
    for a, b in zip(legs, legs[1:], strict=False):
        d = _graph_distance(adjacency, a, b)
        if d is None:
            return None
        total += d
    return total


def _sea_refusal(ctx: Ctx, group, start, end, budget, waypoints=()) -> IllegalOrder:
    """The real reason no sea route fits (issue 9): a stop that is no sea zone or is
    named twice, the length of the route asked for, a canal, the end, enemy ships."""
    g = ctx.geo
    power = group[0].owner
    names = units_phrase(group)
    legs = [start, *waypoints, end]
    hint = _legal_hint(ctx, group, start)
    for w in waypoints:
        if w not in g.sea:
            return refuse(R_SEA, f"{g.name(w)} is not a sea zone; ships move only through sea "
                          "zones.", hint)  # fmt: skip
    twice = next((z for i, z in enumerate(legs) if z in legs[:i]), None)
    if twice is not None:
        return refuse(R_SEA, f"The route names {g.name(twice)} twice; a ship's route enters "
                      "each sea zone once.", hint)  # fmt: skip
    dist = _route_length(g.sea_adj, legs)
    if dist is None:
        return refuse(R_SEA, f"{g.name(end)} cannot be reached by sea from {g.name(start)}.", hint)
    through = f" through {listing(g.name(w) for w in waypoints)}" if waypoints else ""
    # the canal the shortest route would need
    open_adj = {z: tuple(n for n in g.sea_adj[z] if canal_open(ctx, z, n, power)) for z in g.sea}
    open_dist = _route_length(open_adj, legs)
    if dist <= budget and (open_dist is None or open_dist > budget):
        return refuse(
            R_CANAL,
            f"The route from {g.name(start)} to {g.name(end)} needs a canal your side did not "
            "control at the start of this turn.",
            hint,
        )
    if dist > budget:
        return refuse(
            R_SEA,
            (
                f"The route from {g.name(start)}{through} to {g.name(end)} is {dist} sea zones long"
                if waypoints
                else f"{g.name(end)} is {dist} sea zones from {g.name(start)}"
            )
            + f"; {names} can move {budget} this turn.",
            hint,
        )
    hostile = ctx.hostile_zone(end, power)
    if combat(ctx) and not hostile:
        return refuse(
            R_LAND,
            f"In the combat move, ships end in a sea zone with enemy units; {g.name(end)} has "
            "none (warships may join an assault from there only after the landing is ordered).",
            "Move there in the noncombat move. " + hint,
        )
    if not combat(ctx) and hostile:
        return refuse(R_NCM, f"{g.name(end)} holds enemy units; no ship ends a noncombat move "
                      "there.", hint)  # fmt: skip
    near = multi_source_distances([start], g.sea_adj)
    if any(ctx.enemies_at(z, power) for z, d in near.items() if 0 < d < budget):
        return refuse(
            R_SEA,
            f"Every route from {g.name(start)} to {g.name(end)}{through} passes a sea zone "
            "with enemy ships, where ships other than submarines must stop.",
            hint,
        )
    return refuse(
        R_SEA,
        f"No route from {g.name(start)} to {g.name(end)}{through} of at most {budget} sea "
        f"zones is open to {names} now.",
        hint,
    )


def carrier_reach(ctx: Ctx, carrier: Unit) -> set[str]:
    """Sea zones a carrier that has not moved can end a noncombat move in."""
    power = carrier.owner
    reach = set()
    budget = ctx.movement(carrier) - carrier.moved
    frontier = [carrier.at]
    seen = {carrier.at}
    for _ in range(budget):
        nxt = []
        for z in frontier:
            for n in ctx.geo.sea_adj[z]:
                if n in seen or not canal_open(ctx, z, n, power):
                    continue
                seen.add(n)
                if ctx.hostile_zone(n, power):
                    continue
                reach.add(n)
                nxt.append(n)
        frontier = nxt
    return reach


def _needs_pickup(ctx: Ctx, carrier: Unit) -> bool:
    """Whether fighters count on ``carrier`` being in its committed zone."""
    return any(
        u.type == "fighter" and u.aboard is None
        and (u.deck == carrier.id or (u.owner == carrier.owner and u.at == carrier.pickup))
        for u in ctx.state.units.values()
    )  # fmt: skip


def air_route(
    ctx: Ctx,
    group: list[Unit],
    start: str,
    waypoints: list[str],
    end: str,
    raid: bool = False,
    kamikaze: bool = False,
) -> Plan:
    """Revised: Phase 3, Air Units and Appendix 1, Air Units: aircraft fly over any space
    but neutral territories; a combat move must end where there is something to attack
    and leave the aircraft a landing place within range; a noncombat move ends where
    the aircraft can land."""
    g = ctx.geo
    power = group[0].owner
    cm = combat(ctx)
    names = units_phrase(group)
    budget = min(remaining(ctx, u) for u in group)
    fighters = all(u.type == "fighter" for u in group)
    dist = air.distances(ctx, power, start).get(end)
    hint = _legal_hint(ctx, group, start, raid)
    if dist is None:
        raise refuse(R_AIR, f"{g.name(end)} cannot be reached by air.", hint)
    if dist > budget:
        raise refuse(
            R_AIR,
            f"{g.name(end)} is {dist} spaces from {g.name(start)}; {names} have {budget} "
            "left this turn.",
            hint,
        )
    if raid:
        why = raid_target_problem(ctx, group, end)
        if why:
            raise refuse(R_SBR, why, hint)
    need_after = 0
    if kamikaze:
        why = kamikaze_problem(ctx, power, end)
        if why:
            raise refuse("Revised: Appendix 3, Kamikaze Attacks", why, hint)
        route = _air_path(ctx, power, start, waypoints, end, budget)
        if route is None:
            raise refuse(R_AIR, f"No route reaches {g.name(end)} in range.", hint)
        return Plan("air", group, route, kamikaze=True)
    if cm:
        if not raid:
            why = air_target_problem(ctx, power, end)
            if why:
                raise refuse(R_LAND, why, hint)
        land = air.distance_to_landing(ctx, power, fighters)
        need_after = land.get(end, 99)
        if dist + need_after > budget:
            kind = "fighters" if fighters else "these aircraft"
            raise refuse(
                "Revised: Completing Air Units' Move",
                f"After attacking {g.name(end)}, {names} would have {budget - dist} spaces left "
                f"and no place to land within reach (no suicide runs: {kind} land in territory "
                "friendly since the start of the turn"
                + (" or on a friendly carrier with a free place" if fighters else "")
                + ").",
                hint,
            )
    else:
        why = landing_problem(ctx, group, end)
        if why:
            raise refuse(R_NCM, why, hint)
    route = _air_path(ctx, power, start, waypoints, end, budget - need_after)
    if route is None:
        raise refuse(
            R_AIR, f"No route through {listing(waypoints)} reaches {g.name(end)} in range.", hint
        )
    plan = Plan("air", group, route, raid=raid)
    if cm and fighters:
        ashore = air.multi_land_distance(ctx, power).get(end, 99)
        left = budget - air.route_cost(ctx, power, route)
        if ashore > left:
            decks = air.decks_for(ctx, group, end, left)
            if decks is None:
                raise refuse(
                    "Revised: Completing Air Units' Move",
                    f"After attacking {g.name(end)}, no carrier with a free place for "
                    f"{names} can be within {left} spaces at the end of the turn (no kamikaze "
                    "attacks; a carrier takes two fighters, those aboard or promised to it "
                    "included).",
                    hint,
                )
            plan.decks = [(c.id, z) for c, z in decks]
    elif not cm and end in g.sea:
        decks = air.decks_for(ctx, group, end, 0)
        if decks is not None:  # landing_problem has checked it
            plan.decks = [(c.id, z) for c, z in decks]
    return plan


def kamikaze_problem(ctx: Ctx, power: str, end: str) -> str | None:
    """Kamikaze Attacks: Japanese aircraft, declared in the combat move, against a sea
    zone with enemy ships (only a ship can be their casualty; FAQ: they may hit subs)."""
    if power != "japan" or not ctx.has("japan", "kamikaze_attacks"):
        return "Only Japan, with Kamikaze Attacks, makes kamikaze attacks."
    if not combat(ctx):
        return "Kamikaze attacks are declared in the combat move."
    if end not in ctx.geo.sea or not any(ctx.kind(u) == "sea" for u in ctx.enemies_at(end, power)):
        return f"{ctx.geo.name(end)} holds no enemy ships for a kamikaze attack."
    return None


def air_target_problem(ctx: Ctx, power: str, end: str) -> str | None:
    """What is wrong with ``end`` as the target of an aircraft's combat move."""
    g = ctx.geo
    if end in g.sea:
        if ctx.hostile_zone(end, power):
            return None
        return (
            f"In the combat move, aircraft end where they attack; {g.name(end)} holds no enemy "
            "ships (Revised: Phase 3)."
        )
    if not ctx.friendly_territory(end, power):
        return None
    return (
        f"In the combat move, aircraft end where they attack; {g.name(end)} is friendly "
        "(move there in the noncombat move)."
    )


def raid_target_problem(ctx: Ctx, group: list[Unit], end: str) -> str | None:
    g = ctx.geo
    power = group[0].owner
    for u in group:
        if u.type == "fighter" and ctx.has(power, "luftwaffe_dive_bombers"):
            continue
        if u.type != "bomber":
            return "Only bombers make strategic bombing raids."
    if end not in g.land or ctx.friendly_territory(end, power) or end not in ctx.state.ics:
        return f"{g.name(end)} is not an enemy territory with an industrial complex."
    return None


def landing_problem(ctx: Ctx, group: list[Unit], end: str) -> str | None:
    """Why aircraft may not end a noncombat move in ``end`` (Phase 5: Air Units)."""
    g = ctx.geo
    power = group[0].owner
    if end in g.sea:
        if any(u.type != "fighter" for u in group):
            return "Only fighters land at sea, on carriers; bombers land in territories."
        if air.decks_for(ctx, group, end, 0) is not None:
            return None
        ignore = frozenset(u.id for u in group)
        if end in air.carrier_zones(ctx, power, ignore):
            return (
                f"The friendly carriers that can be in {g.name(end)} at the end of the turn "
                f"have too few free places for {units_phrase(group)} (two fighters to a "
                "carrier, those aboard or promised to it included)."
            )
        return (
            f"No friendly carrier with a free place is in {g.name(end)} or can reach it this turn."
        )
    if end in air.landing_territories(ctx, power):
        return None
    if end in ctx.state.captured:
        return f"{g.name(end)} was captured this turn; aircraft may not land there yet."
    return f"{g.name(end)} was not friendly at the start of the turn; aircraft may not land there."


def _air_path(
    ctx: Ctx, power: str, start: str, waypoints: list[str], end: str, budget: int
) -> list[str] | None:
    """The route with the fewest antiaircraft guns overflown, then the shortest, through
    the waypoints in order, within ``budget`` spaces."""
    g = ctx.geo
    cm = combat(ctx)
    avoid_hostile = not cm and not ctx.opts.ncm_air_overflight
    legs = [start, *waypoints, end]

    def guns(space: str) -> int:
        if space in g.land and not ctx.friendly_territory(space, power):
            return 1 if air.enemy_gun(ctx, space, power) else 0
        return 0

    def may_enter(n: str, b: str) -> bool:
        return not (
            avoid_hostile and n != b and n in g.land and not ctx.friendly_territory(n, power)
        )

    def widen(layer, b):
        # moves that cost nothing (Island Bases) stay within the same layer
        for s0, (c, p) in list(layer.items()):
            for n in g.air_adj[s0]:
                if air.step_cost(ctx, power, s0, n) == 0 and may_enter(n, b):
                    nc = c + (guns(n) if n != b else 0)
                    if n not in layer or nc < layer[n][0]:
                        layer[n] = (nc, [*p, n])

    route = [start]
    spent = 0
    for i in range(len(legs) - 1):
        a, b = legs[i], legs[i + 1]
        after = sum(
            air.distances(ctx, power, legs[j]).get(legs[j + 1], 99)
            for j in range(i + 1, len(legs) - 1)
        )
        leg_budget = budget - spent - after
        # layered search: layer k holds, for each space reached for exactly k spaces of
        # movement, the fewest guns flown over and the path
        layer = {a: (0, [a])}
        widen(layer, b)
        found = layer.get(b) if b != a else None
        for _k in range(leg_budget):
            if found is not None and found[0] == 0:
                break
            nxt: dict[str, tuple[int, list[str]]] = {}
            for s0, (c, p) in layer.items():
                for n in g.air_adj[s0]:
                    if air.step_cost(ctx, power, s0, n) == 0 or not may_enter(n, b):
                        continue
                    nc = c + (guns(n) if n != b else 0)
                    if n not in nxt or nc < nxt[n][0]:
                        nxt[n] = (nc, [*p, n])
            widen(nxt, b)
            layer = nxt
            if b in layer and (found is None or layer[b][0] < found[0]):
                found = layer[b]
        if found is None:
            return None
        route += found[1][1:]
        spent = air.route_cost(ctx, power, route)
    return route


# ------------------------------------------------------------------ choosing units


def plan_unload(ctx: Ctx, group: list[Unit], start: str, end: str) -> Plan:
    """Cargo going ashore (Appendix 1, Transports; Special Combats, Amphibious Assaults)."""
    g = ctx.geo
    power = group[0].owner
    cm = combat(ctx)
    if end not in g.coast[start] or end not in g.land:
        raise refuse(R_TRN, f"Cargo in {g.name(start)} can go ashore only in a territory on its coast.",
                     f"Coastal territories: {listing(g.name(t) for t in g.coast[start])}.")  # fmt: skip
    hostile_zone = ctx.hostile_zone(start, power)
    friendly_end = ctx.friendly_territory(end, power)
    if cm and friendly_end:
        raise refuse(
            "Revised: Phase 3, Transports",
            f"In the combat move, cargo goes ashore only to attack; {g.name(end)} is friendly.",
            "Land in friendly territory in the noncombat move.",
        )
    if not cm and not friendly_end:
        raise refuse(
            R_NCM, f"{g.name(end)} is hostile; in the noncombat move cargo lands only in friendly "
            "territory.", "Make an amphibious assault in the combat move.")  # fmt: skip
    if not cm and hostile_zone:
        raise refuse(R_TRN, f"Enemy units in {g.name(start)} prevent offloading.",
                     "Clear the sea zone first.")  # fmt: skip
    for u in group:
        if cm and u.type == "aa_gun":
            raise refuse(
                "Revised: Appendix 1, Antiaircraft Guns",
                "Antiaircraft guns never attack, so they cannot land in an amphibious assault.",
                "Unload the gun in friendly territory in the noncombat move (RULINGS Q-07).",
            )
        why = unload_problem(ctx, u, end)
        if why:
            raise refuse(R_TRN, why)
    return Plan("unload", group, [start, end], deferred=cm and hostile_zone)


def unload_problem(ctx: Ctx, u: Unit, end: str) -> str | None:
    s = ctx.state
    t = s.units[u.aboard] if u.aboard else None
    if t is None:
        return "it is not aboard a transport"
    if u.landing:
        return f"it is already landing in {ctx.geo.name(u.landing)}"
    mine = ctx.commanded()
    if t.owner != u.owner and u.boarded >= s.serial and not (t.owner in mine and u.owner in mine):
        return (
            f"it boarded {POWER_NAME[t.owner]}'s transport this turn; cargo on a friendly "
            "power's transport goes ashore on a later turn of its owner"
        )
    if t.offloaded and t.offloaded != end and not lightning_second(ctx, t, end):
        return (
            f"transport {t.id} already offloaded into {ctx.geo.name(t.offloaded)} this turn; a "
            "transport offloads into one territory per turn"
        )
    pending = {c.landing for c in ctx.cargo(t) if c.landing}
    if pending and end not in pending:
        return f"transport {t.id} already lands cargo in {ctx.geo.name(pending.pop())}"
    if not combat(ctx) and t.owner in ctx.commanded():
        if t.retreated:
            return (
                f"transport {t.id} retreated from combat, so its cargo stays aboard (FAQ: Retreats)"
            )
        if t.cm and not t.fought:
            return f"transport {t.id} moved in the combat move, so it cannot offload now (Phase 5)"
        if t.fought and t.loaded:
            return (
                f"transport {t.id} was in combat and has loaded; it may load or offload, not both"
            )
    return None


def plan_load(ctx: Ctx, group: list[Unit], start: str, end: str) -> Plan:
    """Land units board transports (Appendix 1, Transports: capacity one land unit plus
    one infantry; not in a hostile sea zone; only before they move)."""
    g = ctx.geo
    power = group[0].owner
    if end not in g.coast[start]:
        raise refuse(R_TRN, f"{g.name(end)} is not next to {g.name(start)}.",
                     f"Sea zones on its coast: {listing(g.coast[start])}.")  # fmt: skip
    if ctx.hostile_zone(end, power):
        raise refuse(R_TRN, f"Enemy units in {g.name(end)} prevent loading.",
                     "Load only in a sea zone free of enemy ships.")  # fmt: skip
    for u in group:
        if ctx.info(u.type).transport_cost is None:
            raise refuse(R_TRN, f"{ctx.info(u.type).plural} cannot be transported.")
    ships = [t for t in ctx.at(end) if can_take_cargo(ctx, t, power)]
    if not ships:
        raise refuse(
            R_TRN,
            f"No friendly transport in {g.name(end)} can take cargo now.",
            "A transport loads unless it has offloaded this turn (and in the noncombat move, "
            "unless it moved in the combat move or retreated).",
        )
    room = {t.id: transport_room(ctx, t) for t in ships}
    for t in ships:
        rec = lightning(ctx, t)
        if rec is not None and rec["points"]:
            # the capacity is for the whole turn (FAQ: Lightning Assaults)
            room[t.id] -= rec["points"]
    ships.sort(key=lambda t: (t.owner != power, room[t.id] == capacity(ctx, t), uid_key(t.id)))
    boarding = {}
    for u in sorted(group, key=lambda u: -(ctx.info(u.type).transport_cost or 0)):
        cost = ctx.info(u.type).transport_cost or 0
        for t in ships:
            if t.type == "destroyer" and u.type != "infantry":
                continue
            if room[t.id] >= cost:
                room[t.id] -= cost
                boarding[u.id] = t.id
                break
        else:
            raise refuse(
                R_TRN,
                f"The transports in {g.name(end)} have no room for {units_phrase(group)}.",
                "A transport carries one land unit plus one infantry.",
            )
    return Plan("load", group, [start, end], boarding=boarding)


def lightning(ctx: Ctx, t: Unit) -> dict | None:
    """Lightning Assaults (Appendix 3): the record of a Japanese transport's assaults this
    turn, or None when the advantage does not apply to it."""
    if not (combat(ctx) and t.owner == "japan" and ctx.power == "japan"
            and ctx.has("japan", "lightning_assaults") and t.type == "transport"):  # fmt: skip
        return None
    return ctx.state.na.get("lightning", {}).get(t.id, {"targets": [], "zones": [], "points": 0})


def lightning_second(ctx: Ctx, t: Unit, end: str) -> bool:
    """A second assault, into another hostile territory, from another sea zone (FAQ:
    Lightning Assaults split the landings between two sea zones)."""
    rec = lightning(ctx, t)
    return bool(
        rec is not None
        and len(rec["targets"]) == 1
        and end not in rec["targets"]
        and t.at not in rec["zones"]
        and not ctx.hostile_zone(t.at, t.owner)
    )


def can_take_cargo(ctx: Ctx, t: Unit, power: str) -> bool:
    if not is_carrier_of_land(ctx, t) or SIDE[t.owner] != SIDE[power]:
        return False
    if t.offloaded:
        rec = lightning(ctx, t)
        if rec is None or len(rec["targets"]) != 1:
            return False
    if t.submerged:
        return False
    if combat(ctx) or t.owner not in ctx.commanded():
        return True
    # Phase 5: a transport that moved in the combat move loads only if it fought (and
    # then not after a retreat); one that fought may load or offload, not both
    if t.retreated:
        return False
    return not (t.cm and not t.fought)


def select(ctx: Ctx, order: Move) -> list[Plan]:
    """The units an order names and the plan each group follows."""
    g = ctx.geo
    s = ctx.state
    power = s.power
    path = order.path
    start, end = path[0], path[-1]
    if start == end and len(path) < 3:
        raise refuse(
            R_LAND, "A move must go somewhere else.", "Name the space the units go to last."
        )
    waypoints = list(path[1:-1])
    raid = isinstance(order, Bomb)
    kamikaze = bool(getattr(order, "kamikaze", False))
    for space in path:
        if space in g.neutral:
            raise refuse(
                "Revised: Neutral Territories",
                f"{g.name(space)} is neutral: no unit may enter it or fly over it.",
                "Go round it.",
            )
    if "industrial_complex" in order.units:
        raise refuse(
            "Revised: Appendix 1, Industrial Complexes",
            "Industrial complexes never move; they stay where they were built.",
        )
    mine = ctx.commanded()
    here = [u for u in ctx.at(start) if u.owner in mine]
    chosen: list[Unit] = []
    for uid in order.ids:
        u = s.units.get(uid)
        if u is None or u.owner not in mine or u.at != start:
            raise refuse(R_LAND, f"{uid} is not a {POWER_NAME[power]} unit in {g.name(start)}.")
        chosen.append(u)
    for t, n in order.units.items():
        pool = [u for u in here if u.type == t and u not in chosen]
        mode = mode_for(ctx, pool[0], start, end) if pool else None
        ready = [
            u for u in pool if cannot_move(ctx, u, mode) is None and _in_mode(ctx, u, start, mode)
        ]
        if len(ready) < n:
            raise _shortage(ctx, power, t, n, start, pool, mode)
        picked = _best_fit(ctx, ready, n, start, waypoints, end, mode, raid, kamikaze)
        chosen += picked
    for u in chosen:
        why = cannot_move(ctx, u, mode_for(ctx, u, start, end))
        if why:
            raise refuse(R_LAND if combat(ctx) else R_NCM, f"Unit {u.id} cannot move: {why}.")
    groups: dict[str, list[Unit]] = {}
    for u in chosen:
        groups.setdefault(mode_for(ctx, u, start, end), []).append(u)
    if raid and set(groups) != {"air"}:
        raise refuse(R_SBR, "Only aircraft make strategic bombing raids.")
    plans = []
    if kamikaze and set(groups) != {"air"}:
        raise refuse(
            "Revised: Appendix 3, Kamikaze Attacks", "Only aircraft make kamikaze attacks."
        )
    for mode, group in groups.items():
        plans.append(plan_group(ctx, mode, group, start, waypoints, end, raid, kamikaze))
    return plans


def _in_mode(ctx: Ctx, u: Unit, start: str, mode: str | None) -> bool:
    if mode == "unload":
        return u.aboard is not None and not u.landing
    if mode in ("land", "load", "sea"):
        return u.aboard is None
    return True


def plan_group(ctx, mode, group, start, waypoints, end, raid=False, kamikaze=False) -> Plan:
    if mode == "air":
        return air_route(ctx, group, start, waypoints, end, raid, kamikaze)
    if waypoints and mode in ("load", "unload"):
        raise refuse(R_TRN, "Boarding or going ashore is a single step, with no via.")
    if mode == "land":
        return land_route(ctx, group, start, waypoints, end)
    if mode == "sea":
        return sea_route(ctx, group, start, waypoints, end)
    if mode == "load":
        return plan_load(ctx, group, start, end)
    return plan_unload(ctx, group, start, end)


def _best_fit(ctx, ready, n, start, waypoints, end, mode, raid, kamikaze=False) -> list[Unit]:
    """The ``n`` units that can make the move and have the least movement to spare."""
    ready = sorted(
        ready,
        key=lambda u: (
            u.owner != ctx.power,  # a Joint Strike: the U.S. units first, then the U.K.'s
            remaining(ctx, u),
            -len(ctx.cargo(u)) if mode == "sea" else 0,
            uid_key(u.id),
        ),
    )
    picked: list[Unit] = []
    last_error: IllegalOrder | None = None
    tried: set[tuple] = set()
    for u in ready:
        key = (
            u.type,
            remaining(ctx, u),
            u.aboard if mode == "unload" else None,
            bool(ctx.cargo(u)) if mode == "sea" else None,
        )
        if key in tried and last_error is not None:
            continue
        try:
            plan_group(ctx, mode, [u], start, waypoints, end, raid, kamikaze)
        except IllegalOrder as exc:
            last_error = exc
            tried.add(key)
            continue
        picked.append(u)
        if len(picked) == n:
            return picked
    if last_error is not None:
        raise last_error
    raise refuse(R_LAND, "Those units cannot make that move.")


def _shortage(ctx: Ctx, power, t, n, start, pool, mode) -> IllegalOrder:
    g = ctx.geo
    name = ctx.info(t).plural.lower()
    if not pool:
        have = [u for u in ctx.at(start) if u.owner in ctx.commanded()]
        return refuse(
            R_LAND if combat(ctx) else R_NCM,
            f"{POWER_NAME[power]} has no {name} in {g.name(start)}.",
            f"There: {units_phrase(have) if have else 'no units of yours'}.",
        )
    reasons = sorted({cannot_move(ctx, u, mode) or "" for u in pool} - {""})
    ready = len(pool) - sum(1 for u in pool if cannot_move(ctx, u, mode))
    text = f"Only {ready} of the {len(pool)} {name} in {g.name(start)} can move now"
    if reasons:
        text += f" (the others: {reasons[0]})"
    return refuse(R_LAND if combat(ctx) else R_NCM, text + ".", f"Move at most {ready}.")


def _legal_hint(ctx: Ctx, group: list[Unit], start: str, raid: bool = False) -> str:
    try:
        dests = sorted(destinations(ctx, group[0], start, raid))
    except Exception:  # noqa: BLE001 - a hint must never hide the real refusal
        return ""
    if not dests:
        return "It has no legal move now."
    return "It may go to: " + listing(dests, 10) + "."


# ------------------------------------------------------------------ carrying out


def execute(ctx: Ctx, plans: list[Plan]) -> None:
    s = ctx.state
    cm = combat(ctx)
    power = s.power
    g = ctx.geo
    for p in plans:
        route = p.route
        start, end = route[0], route[-1]
        steps = air.route_cost(ctx, p.units[0].owner, route) if p.mode == "air" else len(route) - 1
        what = units_phrase(p.units)
        if p.mode == "load":
            for u in p.units:
                t = s.units[p.boarding[u.id]]
                u.aboard, u.prev, u.boarded = t.id, start, s.serial
                u.moved += 1
                u.stopped = True
                u.cm = u.cm or cm
                t.loaded = True
                ctx.place_at(u, end)
            ctx.log("move", f"{POWER_NAME[power]} loads {what} from {g.name(start)} onto "
                    f"transports in {g.name(end)}.", units=[u.id for u in p.units])  # fmt: skip
            ctx.mark("move", power, route, what)
            continue
        if p.mode == "unload":
            _unload(ctx, p)
            continue
        for u in p.units:
            if p.mode == "air" and u.aboard:
                u.aboard = None
            u.moved += steps
            u.prev = route[-2]
            if cm:
                u.cm = True
        if p.mode == "land":
            _land_move(ctx, p)
        elif p.mode == "sea":
            _sea_move(ctx, p)
            for f in (f for c in p.units for f in ctx.cargo(c) if ctx.kind(f) == "air"):
                f.moved = max(f.moved, ctx.movement(f))  # cargo keeps no range (L766)
        else:
            _air_move(ctx, p)
    air.forget_landings(ctx)


def _land_move(ctx: Ctx, p: Plan) -> None:
    from engine.games.aa_revised.capture import capture

    s = ctx.state
    power = s.power
    g = ctx.geo
    cm = combat(ctx)
    what = units_phrase(p.units)
    route = p.route
    for t in p.blitzed:
        capture(ctx, t, power, blitz=True)
    for u in p.units:
        ctx.place_at(u, route[-1])
        if cm:
            u.stopped = True
        if u.blitz_again:
            u.blitz_again = False
            u.stopped = True
    via = f" through {', '.join(g.name(t) for t in route[1:-1])}" if len(route) > 2 else ""
    verb = "attacks" if cm and not ctx.friendly_territory(route[-1], power) else "moves"
    ctx.log("move", f"{POWER_NAME[power]} {verb} with {what} from {g.name(route[0])}{via} "
            f"to {g.name(route[-1])}.", path=route, units=[u.id for u in p.units])  # fmt: skip
    ctx.mark("attack" if verb == "attacks" else "move", power, route, what)


def _sea_move(ctx: Ctx, p: Plan) -> None:
    s = ctx.state
    power = s.power
    g = ctx.geo
    cm = combat(ctx)
    route = p.route
    end = route[-1]
    hostile = ctx.hostile_zone(end, power)
    for u in p.units:
        ctx.place_at(u, end)
        if cm and (hostile or u.type != "transport"):
            u.stopped = True
        if p.bombard:
            u.bombard = p.bombard
    what = units_phrase(p.units)
    verb = "attacks" if cm and hostile else "moves"
    tail = f" to bombard {g.name(p.bombard)}" if p.bombard else ""
    ctx.log("move", f"{POWER_NAME[power]} {verb} with {what} from {g.name(route[0])} to "
            f"{g.name(end)}{tail}.", path=route, units=[u.id for u in p.units])  # fmt: skip
    ctx.mark("attack" if verb == "attacks" else "move", power, route, what)


def _air_move(ctx: Ctx, p: Plan) -> None:
    s = ctx.state
    power = s.power
    g = ctx.geo
    cm = combat(ctx)
    route = p.route
    end = route[-1]
    what = units_phrase(p.units)
    air.release_decks(ctx, p.units)
    for u in p.units:
        ctx.place_at(u, end)
        if cm:
            u.stopped = True
            u.raid = p.raid
            u.kamikaze = p.kamikaze
            u.path = list(route)
    if p.decks:
        air.promise_decks(ctx, p.units, p.decks)
    verb = (
        "raids"
        if p.raid
        else ("makes a kamikaze attack" if p.kamikaze else "attacks" if cm else "flies")
    )
    ctx.log("move", f"{POWER_NAME[power]} {verb} with {what} from {g.name(route[0])} to "
            f"{g.name(end)} (route: {', '.join(route[1:])}).", path=route,
            units=[u.id for u in p.units])  # fmt: skip
    ctx.mark("air", power, route, what)
    if not cm:
        from engine.games.aa_revised.advantages import mideast_oil

        for u in p.units:
            mideast_oil(ctx, u, end)
        # noncombat flights are fired on at once (RULINGS Q-06)
        guns = air.overflown_guns(ctx, power, route)
        planes = list(p.units)
        for t in guns:
            planes = air.antiaircraft_fire(ctx, t, planes, "on the way")
            if not planes:
                break


def _unload(ctx: Ctx, p: Plan) -> None:
    s = ctx.state
    power = s.power
    g = ctx.geo
    cm = combat(ctx)
    start, end = p.route
    what = units_phrase(p.units)
    for u in p.units:
        t = s.units[u.aboard]
        if p.deferred:
            u.landing = end
        else:
            u.aboard = None
            u.prev = start
            ctx.place_at(u, end)
        u.moved = max(u.moved, 1)
        u.stopped = True
        u.cm = u.cm or cm
        rec = lightning(ctx, t)
        if rec is not None and not p.deferred:
            if end not in rec["targets"]:
                rec["targets"].append(end)
                rec["zones"].append(start)
            rec["points"] += ctx.info(u.type).transport_cost or 0
            s.na.setdefault("lightning", {})[t.id] = rec
        t.offloaded = end
        if t.owner in ctx.commanded() and (rec is None or p.deferred or len(rec["targets"]) >= 2):
            t.stopped = True
    if p.deferred:
        ctx.log("move", f"{POWER_NAME[power]} declares an amphibious assault on {g.name(end)} "
                f"with {what} from {g.name(start)}; they land once the sea zone is cleared.",
                path=p.route)  # fmt: skip
    else:
        verb = "lands" if not cm else "makes an amphibious assault with"
        ctx.log("move", f"{POWER_NAME[power]} {verb} {what} from {g.name(start)} "
                f"{'in' if not cm else 'on'} {g.name(end)}.", path=p.route)  # fmt: skip
    ctx.mark("attack" if cm else "move", power, p.route, what)


def move(ctx: Ctx, order: Move) -> None:
    if order.units == {"industrial_complex": 1} and not order.ids and len(order.path) == 2:
        from engine.games.aa_revised.advantages import move_ic

        if ctx.has(ctx.power, "mobile_industry") and not isinstance(order, Bomb):
            move_ic(ctx, order.path[0], order.path[1])
            return
    plans = select(ctx, order)
    execute(ctx, plans)


def bombard(ctx: Ctx, order: Bombard) -> None:
    """Revised: Opening Fire, Battleship Bombardment: battleships (and destroyers with
    Combined Bombardment) in the sea zone an assault lands from fire at its defenders,
    if they fight no sea battle; each ship bombards one territory (FAQ: Lightning
    Assaults)."""
    s = ctx.state
    g = ctx.geo
    power = s.power
    zone, target = order.zone, order.target
    if zone not in g.sea:
        raise refuse(R_AMPHIB, f"{g.name(zone)} is not a sea zone.")
    if ctx.hostile_zone(zone, power):
        raise refuse(
            R_AMPHIB,
            f"Enemy ships in {g.name(zone)} must be fought first; ships in a sea battle do "
            "not bombard.",
        )
    targets = assault_targets_from(ctx, zone, power)
    if target not in targets:
        raise refuse(
            R_AMPHIB,
            f"No amphibious assault on {g.name(target)} lands from {g.name(zone)}.",
            f"Assaults from there: {listing(g.name(t) for t in targets)}.",
        )
    here = [u for u in ctx.at(zone) if u.owner in ctx.commanded() and u.aboard is None]
    chosen = []
    for uid in order.ids:
        u = s.units.get(uid)
        if u is None or u not in here:
            raise refuse(R_AMPHIB, f"{uid} is not a ship of yours in {g.name(zone)}.")
        chosen.append(u)
    for t, n in order.units.items():
        pool = [u for u in here if u.type == t and u not in chosen and can_bombard(ctx, u)
                and not u.fought and (u.bombard in (None, target))]  # fmt: skip
        pool.sort(key=lambda u: (u.bombard is not None, uid_key(u.id)))
        if len(pool) < n:
            raise refuse(
                "Revised: Opening Fire, Battleship Bombardment",
                f"{g.name(zone)} has {len(pool)} {ctx.info(t).plural.lower()} able to bombard, not {n}.",
                "Battleships bombard (destroyers too with Combined Bombardment), once each.",
            )
        chosen += pool[:n]
    for u in chosen:
        if not can_bombard(ctx, u):
            raise refuse("Revised: Opening Fire, Battleship Bombardment",
                         f"{ctx.info(u.type).plural} cannot bombard.")  # fmt: skip
    for u in chosen:
        u.bombard = target
        u.cm = u.stopped = True
    ctx.log("bombard", f"{POWER_NAME[power]}'s {units_phrase(chosen)} in {g.name(zone)} will "
            f"bombard {g.name(target)}.", units=[u.id for u in chosen])  # fmt: skip


# ------------------------------------------------------------------ listing legal moves


def destinations(ctx: Ctx, u: Unit, start: str, raid: bool = False) -> set[str]:
    """Every space ``u`` may move to now, by the checks :func:`select` makes."""
    g = ctx.geo
    kind = ctx.kind(u)
    out: set[str] = set()
    cm = combat(ctx)
    if joint_strike_bar(ctx, u):
        return out
    if kind == "air":
        if cannot_move(ctx, u, "air"):
            return out
        budget = remaining(ctx, u)
        dists = air.distances(ctx, u.owner, start)
        fighter = u.type == "fighter"
        if cm:
            land = air.distance_to_landing(ctx, u.owner, fighter)
            for t, d in dists.items():
                if t == start or d > budget or d + land.get(t, 99) > budget:
                    continue
                if raid:
                    if raid_target_problem(ctx, [u], t) is None:
                        out.add(t)
                elif air_target_problem(ctx, u.owner, t) is None:
                    out.add(t)
        else:
            if raid:
                return out
            spaces = air.landing_territories(ctx, u.owner)
            if fighter:
                spaces |= air.carrier_zones(ctx, u.owner, frozenset({u.id}))
            for t in spaces:
                d = dists.get(t)
                if t != start and d is not None and d <= budget:
                    out.add(t)
            if not ctx.opts.ncm_air_overflight:
                out = {t for t in out if _air_path(ctx, u.owner, start, [], t, budget)}
        return out
    if raid:
        return out
    if kind == "sea":
        if cannot_move(ctx, u, "sea"):
            return out
        budget = remaining(ctx, u)
        step = sea_step(ctx, u.owner, [u])
        for path, flags in _paths(ctx, g.sea_adj, start, budget, step):
            if path[-1] in out:
                continue
            if sea_end_ok(ctx, [u], path[-1], flags[-1])[0]:
                out.add(path[-1])
        if u.type == "carrier" and u.pickup and (cm or _needs_pickup(ctx, u)):
            out &= {u.pickup}
        return out
    # land units
    if u.aboard is not None:
        if g.is_sea(start):
            for t in g.coast[start]:
                try:
                    plan_unload(ctx, [u], start, t)
                except IllegalOrder:
                    continue
                out.add(t)
        return out
    if cannot_move(ctx, u, "land") is None:
        budget = land_budget(ctx, [u], start)
        blitz = cm and (
            "blitz" in ctx.info(u.type).flags
            or (u.type == "infantry" and ctx.has(u.owner, "mechanized_infantry"))
        )
        adjacency = g.land_adj
        if budget == 2 and not cm and ctx.movement(u) < 2:
            adjacency = {t: tuple(n for n in g.land_adj[t] if n in RAILWAY) for t in RAILWAY}
        step = land_step(ctx, u.owner, blitz)
        for path, flags in _paths(ctx, adjacency, start, budget, step):
            end = path[-1]
            if end in out:
                continue
            if cm:
                hostile_end = not ctx.friendly_territory(end, u.owner)
                if hostile_end or "blitz" in flags[:-1]:
                    out.add(end)
            else:
                out.add(end)
    if cannot_move(ctx, u, "load") is None and ctx.info(u.type).transport_cost is not None:
        for z in g.coast[start]:
            if ctx.hostile_zone(z, u.owner):
                continue
            try:
                plan_load(ctx, [u], start, z)
            except IllegalOrder:
                continue
            out.add(z)
    return out


def _movers(ctx: Ctx) -> dict[tuple[str, str], list[Unit]]:
    """The phasing player's units by (space, type), cargo included (in a Joint Strike the
    U.K.'s as well)."""
    mine = ctx.commanded()
    out: dict[tuple[str, str], list[Unit]] = {}
    for u in ctx.state.units.values():
        if u.owner in mine:
            out.setdefault((u.at, u.type), []).append(u)
    return out


def legal_moves(ctx: Ctx) -> Iterator[Move]:
    """One-unit-type moves of a single unit to every space it can reach (the list the
    fuzzer and autocomplete use; moves of several units are equally legal)."""
    cm = combat(ctx)
    for (space, t), us in sorted(_movers(ctx).items()):
        dests: set[str] = set()
        seen: set[tuple] = set()
        raids: set[str] = set()
        for u in us:
            key = (remaining(ctx, u), u.aboard is None, u.stopped, u.cm, u.fought, u.pinned,
                   u.boarded, u.aboard if ctx.kind(u) == "land" else None)  # fmt: skip
            if key in seen:
                continue
            seen.add(key)
            dests |= destinations(ctx, u, space)
            if cm and ctx.kind(u) == "air":
                raids |= destinations(ctx, u, space, raid=True)
        for d in sorted(dests):
            yield Move(units={t: 1}, path=[space, d])
        for d in sorted(raids):
            yield Bomb(units={t: 1}, path=[space, d])
    if cm and ctx.has(ctx.power, "kamikaze_attacks"):
        for (space, t), us in sorted(_movers(ctx).items()):
            if ctx.info(t).kind != "air":
                continue
            best = max(
                (remaining(ctx, u) for u in us if cannot_move(ctx, u, "air") is None), default=0
            )
            for z, d in air.distances(ctx, ctx.power, space).items():
                if z != space and d <= best and kamikaze_problem(ctx, ctx.power, z) is None:
                    yield Move(units={t: 1}, path=[space, z], kamikaze=True)
    from engine.games.aa_revised.advantages import ic_moves

    for a, b in ic_moves(ctx):
        yield Move(units={"industrial_complex": 1}, path=[a, b])


def legal_bombards(ctx: Ctx) -> Iterator[Bombard]:
    power = ctx.power
    mine = ctx.commanded()
    zones = sorted({u.at for u in ctx.state.units.values()
                    if u.owner in mine and can_bombard(ctx, u) and u.aboard is None
                    and not u.fought and u.bombard is None and ctx.geo.is_sea(u.at)})  # fmt: skip
    for z in zones:
        if ctx.hostile_zone(z, power):
            continue
        targets = assault_targets_from(ctx, z, power)
        if not targets:
            continue
        types = sorted({u.type for u in ctx.at(z) if u.owner in mine and can_bombard(ctx, u)
                        and u.aboard is None and not u.fought and u.bombard is None})  # fmt: skip
        for t in types:
            for target in targets:
                yield Bombard(units={t: 1}, zone=z, target=target)


def describe(counts: dict[str, int]) -> str:
    return count_text(counts)


__all__ = ["SHORT", "bombard", "destinations", "legal_bombards", "legal_moves", "move", "select"]
