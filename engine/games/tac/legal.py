"""The orders open now (ARCHITECTURE: legal orders), for autocomplete, menus and random
play: a bounded list, one move per reachable destination of each unit and stack (the
cheapest path found), not every path.

:func:`destinations` walks the movement rules of :mod:`engine.games.tac.movement` as a
search over (hex, on a road, locked on a ridge, pass entered from) in fifths of a
Movement Point (TAC 4.3 L210-224, 8.0-8.6 L347-455, 12.3 L621, 15.2 L667, 16.1-16.3
L681-685); :func:`engine.games.tac.movement.move` stays the judge of every order.
"""

from __future__ import annotations

from collections.abc import Iterator

from engine.core.errors import IllegalOrder
from engine.core.hexgrid_rows import neighbours
from engine.core.orders import MAX_WORD, Order
from engine.games.tac import air, battle, combat, effort, movement, pieces, replace
from engine.games.tac import events as chits
from engine.games.tac.board import Board
from engine.games.tac.movement import FIFTHS, FUEL_EXEMPT, FUEL_FREE, enemy_zoc
from engine.games.tac.orders import (
    Advance,
    Attack,
    Call,
    Carry,
    Defend,
    Done,
    Eliminate,
    First,
    Interdict,
    Lose,
    Move,
    Place,
    Resolve,
    Retreat,
    UnitOrder,
)
from engine.games.tac.state import AXIS, State, Unit, enemy

Node = tuple[str, bool, bool, str | None] | str
#: searches of the current Movement Phase (see :func:`move_orders`); the engine stays pure:
#: a hit returns what the same search would
_CACHE: dict = {}


class _NoRoll:
    """Dice for trying an order on a copy: every roll is a 1 (no port delay)."""

    def roll(self, sides: int, purpose: str = "") -> int:
        return 1


def _step_cost(b: Board, node: Node, there: str) -> tuple[int, bool, bool, str | None, bool] | None:
    """What entering ``there`` from ``node`` costs (as :meth:`movement.Walker.step`):
    ``(fifths, road, locked, pass_from, round_up)``, or ``None`` when the ridge forbids it."""
    here, on_road, locked, pass_from = node
    road = b.is_road(here, there)
    entered = b.pass_between(here, there) if b.has(there, "pass") else None
    p = b.pass_between(pass_from, here) if pass_from and b.has(here, "pass") else None
    leaving = p is not None and there in p.ends and there != pass_from
    if road:
        cost = 1
    elif entered is not None or leaving:
        cost = FIFTHS
    else:
        cost = int(round((b.tables.terrain[b.terrain(there)].mp or 0) * FIFTHS))
    ridge_here, ridge_there = b.terrain(here) == "ridge", b.terrain(there) == "ridge"
    if ridge_here and not ridge_there and locked and not road and not leaving:
        return None
    new_locked = locked or (ridge_there and not ridge_here)
    new_from = here if entered is not None else (None if not b.has(there, "pass") else pass_from)
    return cost, road, new_locked, new_from, on_road and not road


Edge = tuple[str, bool, int, bool, bool]


def _edges(b: Board) -> dict[str, list[Edge]]:
    """Per hex, the hexes a unit may step to, with what never changes: ``(there, road,
    cost in fifths, leaves a ridge for a non-ridge hex, a pass is involved)``; kept on the
    board."""
    cached = getattr(b, "_legal_edges", None)
    if cached is not None:
        return cached
    out: dict[str, list[Edge]] = {}
    for h in b.hex:
        if not b.playable(h):
            continue
        row = []
        for n in neighbours(h):
            if not b.crossable(h, n):
                continue
            road = b.is_road(h, n)
            cost = 1 if road else int(round((b.tables.terrain[b.terrain(n)].mp or 0) * FIFTHS))
            ridge_off = b.terrain(h) == "ridge" and b.terrain(n) != "ridge"
            ridge_on = b.terrain(n) == "ridge" and b.terrain(h) != "ridge"
            special = b.has(h, "pass") or b.has(n, "pass")
            row.append((n, road, cost, ridge_off, special, ridge_on))
        out[h] = row
    b._legal_edges = out  # type: ignore[attr-defined]
    return out


def destinations(
    b: Board, state: State, units: list[Unit], strategic: bool, zoc: set[str], foes: set[str]
) -> dict[str, tuple[str, ...]]:
    start = units[0].hex if units[0].where == "map" else None
    cap = _cap(b, state, units, strategic)
    found, _ = _search(b, state, units[0].where, start, cap, strategic, zoc, foes)
    return {h: path for h, (cost, path) in found.items() if cost <= cap}


def _search(
    b: Board,
    state: State,
    where: str,
    start: str | None,
    cap: int,
    strategic: bool,
    zoc: set[str],
    foes: set[str],
) -> tuple[dict[str, tuple[int, tuple[str, ...]]], frozenset[str]]:
    """The search of :func:`destinations` for a stack starting at ``start`` (or entering
    from Tripoli or the eastern edge) with ``cap`` fifths to spend: each hex -> (the
    cheapest cost, its path); a one-hex move beyond the cap (8.1.2) costs 0 here, as any
    stack may make it; and the hexes one step away that the one-hex move may enter."""
    side = state.player
    edges = _edges(b)
    blocked = foes | set(state.mines.get("closed", ()))
    mined = state.mines.get("map", {})
    wet = chits.weather(b, state)
    began_in_zoc = start is not None and start in zoc
    best: dict[Node, int] = {}
    east = b.east_edge if side == AXIS else ()
    # costs are small whole numbers of fifths: a bucket per cost serves as the queue
    buckets: list[list[Node]] = [[] for _ in range(cap + 1)]
    parent: dict[Node, Node | None] = {}
    ends: dict[str, tuple[int, Node]] = {}
    if start is None:
        if strategic:
            return {}, frozenset()
        gates = movement.reentry_hexes(b, state) if where == "exited" else b.west_edge
        for h in gates:
            if h in blocked or not b.playable(h):
                continue
            cost = (
                2 * FIFTHS
                if where == "tripoli"
                else int(round((b.tables.terrain[b.terrain(h)].mp or 0) * FIFTHS))
            )
            if cost <= cap:
                best[h], parent[h] = cost, None
                buckets[cost].append(h)
    else:
        best[start], parent[start] = 0, None
        buckets[0].append(start)
    exit_at: tuple[int, Node] | None = None
    one_hex: list[str] = []
    for spent in range(cap + 1):
        for node in buckets[spent]:
            if best[node] != spent:
                continue
            # a node is its hex alone, off the road and free of ridge and pass, else a tuple
            if node.__class__ is str:
                here, on_road, locked, pass_from = node, False, False, None
            else:
                here, on_road, locked, pass_from = node
            moved = here != start
            if moved:
                if here not in ends:
                    ends[here] = (spent, node)
                if here in zoc or here in mined:
                    continue  # 4.3.2, 16.1: the move ends here
                if here in east and exit_at is None:
                    road_exit = here in b.road_exits
                    base = -(-spent // FIFTHS) * FIFTHS if on_road and not road_exit else spent
                    if base + (1 if road_exit else FIFTHS) <= cap:
                        exit_at = (base + (1 if road_exit else FIFTHS), node)
            for there, road, cost, ridge_off, special, ridge_on in edges[here]:
                if there in blocked:
                    continue
                if there in zoc and (strategic or (not moved and began_in_zoc)):
                    continue
                if special or pass_from is not None:
                    step = _step_cost(b, (here, on_road, locked, pass_from), there)
                    if step is None:
                        continue
                    cost, road, new_locked, new_from, round_up = step
                else:
                    if ridge_off and locked and not road:
                        continue
                    new_locked, new_from, round_up = locked or ridge_on, None, on_road and not road
                if wet and not road and there in wet:
                    cost += FIFTHS  # Bad Weather (18.7 L831, L877)
                total = (-(-spent // FIFTHS) * FIFTHS if round_up else spent) + cost
                if not moved and start is not None and not began_in_zoc:
                    one_hex.append(there)  # 8.1.2: a unit may always move one hex
                if total > cap:
                    continue
                nxt = (
                    (there, road, new_locked, new_from) if road or new_locked or new_from else there
                )
                if best.get(nxt, cap + 1) <= total:
                    continue
                best[nxt] = total
                parent[nxt] = node
                buckets[total].append(nxt)
    built: dict[Node, tuple[str, ...]] = {}

    def path_of(node: Node) -> tuple[str, ...]:
        chain = []
        while node is not None and node not in built:
            chain.append(node)
            node = parent[node]
        path = built.get(node, ()) if node is not None else ()
        for n in reversed(chain):
            h = n if n.__class__ is str else n[0]
            path = (*path, h) if h != start else path
            built[n] = path
        return path

    out: dict[str, tuple[int, tuple[str, ...]]] = {h: (c, path_of(n)) for h, (c, n) in ends.items()}
    for h in one_hex:
        out.setdefault(h, (0, (h,)))
    if exit_at is not None:
        out["exit"] = (exit_at[0], (*path_of(exit_at[1]), "exit"))
    if start is not None:
        out.pop(start, None)
    return out, frozenset(one_hex)


def _move(verb: str, units: tuple[str, ...], path: tuple[str, ...]) -> Move:
    """A Move built from values already checked (thousands per call: pydantic's own
    constructor would take most of the time); equal to ``Move(verb=..., ...)``."""
    o = Move.__new__(Move)
    object.__setattr__(o, "__dict__", {"verb": verb, "units": units, "path": path})
    object.__setattr__(o, "__pydantic_fields_set__", {"verb", "units", "path"})
    object.__setattr__(o, "__pydantic_extra__", None)
    object.__setattr__(o, "__pydantic_private__", None)
    return o


def _cap(b: Board, state: State, units: list[Unit], strategic: bool) -> int:
    factor = 2 if strategic else 1
    cap = min(movement.allowance_of(b, state, u) for u in units) * factor * FIFTHS
    if units[0].side == AXIS:
        payers = sum(
            1 for u in units if b.units[u.id].type != "replacement" and u.id not in FUEL_EXEMPT
        )
        if payers > state.fuel:
            cap = min(cap, FUEL_FREE * factor * FIFTHS)
    return cap


def _movers(state: State, side: str) -> list[Unit]:
    return sorted(
        (u for u in state.units.values()
         if u.side == side and u.id not in state.moved and u.where in ("map", "tripoli", "exited")
         and state.delayed.get(u.id) != state.turn and u.id not in state.replaced),
        key=lambda u: u.id,
    )  # fmt: skip


#: a path entering more hexes than this is offered by its destination alone (RULINGS R43)
SHORT_PATH = 10


def short(path: tuple[str, ...], start: str | None) -> tuple[str, ...]:
    """``path`` as offered: a long one (more than :data:`SHORT_PATH` hexes) by its last hex
    alone, or for units off the map (``start`` None) by the edge hex they enter and their
    last hex (12.3), ``mine`` first and ``exit`` last kept; unless that last hex is next to
    the hex before it in the short form (which would read as a one-hex step). See
    :func:`expand`."""
    pre = 1 if path and path[0].startswith("mine") else 0
    post = 1 if path and path[-1] == "exit" else 0
    hexes = path[pre : len(path) - post]
    if len(hexes) <= SHORT_PATH:
        return path
    last = hexes[-1]
    kept = (last,) if start is not None else (hexes[0], last)
    if len(last) != 4 or not last.isdigit() or last in neighbours(start or hexes[0]):
        return path
    return (*path[:pre], *kept, *path[len(path) - post :])


def expand(b: Board, state: State, order: Move) -> Move:
    """The move ``order`` gives: itself, or, when it names one hex of the map that is not
    next to where its units stand (units off the map: the edge hex they enter and one hex
    not next to it), the move along the path :func:`move_orders` found to that
    destination (RULINGS R43). A destination it does not reach is refused."""
    path = order.path
    pre = 1 if path and path[0].startswith("mine") else 0
    post = 1 if path and path[-1] == "exit" else 0
    hexes = path[pre : len(path) - post]
    first = state.units.get(order.units[0]) if order.units else None
    if first is None:
        return order
    start = first.hex if first.where == "map" else None
    if len(hexes) != (1 if start is not None else 2):
        return order
    dest = hexes[-1]
    if len(dest) != 4 or not dest.isdigit() or dest == start:
        return order
    if dest in neighbours(start or hexes[0]) or (start is None and not hexes[0].isdigit()):
        return order
    for o in move_orders(b, state, full=True):
        if (
            o.verb == order.verb
            and o.units == order.units
            and o.path[0].startswith("mine") == bool(pre)
            and short(o.path, start) == path
        ):
            return _move(order.verb, order.units, o.path)
    raise IllegalOrder(
        "TAC 8.0",
        f"{', '.join(order.units)} cannot reach {dest} this phase by any path found.",
        "Name a reachable destination, or the hexes of the path one by one.",
    )


def move_orders(b: Board, state: State, full: bool = False) -> Iterator[Order]:
    """Moves of the Movement Phase: for each unit alone and each group of units standing
    together, one move per reachable destination; a strategic move where it reaches
    further (8.5); a minefield laid by the first unit that may lay one (16.0). A long
    path is given by its destination (:func:`short`) unless ``full``."""
    side = state.player
    zoc = enemy_zoc(b, state, side)
    foes = {u.hex for u in state.on_map(enemy(side))}
    movers = _movers(state, side)
    groups: dict[tuple[str, str | None], list[Unit]] = {}
    for u in movers:
        groups.setdefault((u.where, u.hex), []).append(u)
    # a group is offered when its unit list is one word an order may hold
    stacks = [[u] for u in movers] + [
        g for g in groups.values() if len(g) > 1 and len(",".join(u.id for u in g)) <= MAX_WORD
    ]
    can_strategic = state.turn > 1
    hand = state.mines["hands"][side] if state.mines else []
    laid = False
    # what a search depends on besides its start: kept between calls of one phase
    board_key = (id(b), side, frozenset(zoc), frozenset(foes), tuple(state.mines.get("closed", ())),
                 tuple(sorted(state.mines.get("map", {}))), state.turn,
                 (state.chits or {}).get("weather") and str(state.chits["weather"]))  # fmt: skip
    if _CACHE.get("key") != board_key:
        _CACHE.clear()
        _CACHE["key"] = board_key

    def may_go_strategic(stack: list[Unit]) -> bool:
        return can_strategic and len(stack) == 1 and not any(
            u.where != "map" or u.hex in zoc or u.arrived == state.turn or u.id in state.interdicted
            or b.units[u.id].type == "replacement" for u in stack
        )  # fmt: skip

    def reach(stack: list[Unit], strategic: bool) -> dict[str, tuple[str, ...]]:
        # one search per start hex serves every unit there, moving normally or
        # strategically: as far as the farthest allowance, enemy zones ending paths; a
        # normal move reads off the hexes its allowance pays for (and the one-hex move,
        # 8.1.2), a strategic one those out of enemy zones its doubled allowance pays for
        where, start = stack[0].where, stack[0].hex
        key = (where, start)
        if key not in _CACHE:
            here = groups[(where, start)]
            cap = max(_cap(b, state, [u], False) for u in here)
            cap = max([cap] + [_cap(b, state, [u], True) for u in here if may_go_strategic([u])])
            _CACHE[key] = _search(
                b, state, where, start if where == "map" else None, cap, False, zoc, foes
            )
        found, direct = _CACHE[key]
        cap = _cap(b, state, stack, strategic)
        if strategic:
            return {h: p for h, (cost, p) in found.items() if cost <= cap and h not in zoc}
        out = {h: p for h, (cost, p) in found.items() if cost <= cap}
        for h in direct:
            out.setdefault(h, (h,))
        return out

    def offered(path: tuple[str, ...], start: str | None) -> tuple[str, ...]:
        return path if full or len(path) <= SHORT_PATH else short(path, start)

    for stack in stacks:
        ids = tuple(u.id for u in stack)
        start = stack[0].hex if stack[0].where == "map" else None
        normal = reach(stack, False)
        for path in normal.values():
            yield _move("move", ids, offered(path, start))
        if hand and not laid and len(stack) == 1 and stack[0].where == "map" and normal:
            u = stack[0]
            a, d, _ = b.values(u.id, u.step)
            if max(a, d) > 0 and u.hex not in zoc and u.hex not in state.mines["map"]:
                laid = True
                first = next(iter(normal.values()))
                yield _move("move", ids, offered(("mine", *first), start))
        if not may_go_strategic(stack):
            continue
        for h, path in reach(stack, True).items():
            if h not in normal:
                yield _move("strategic", ids, offered(path, start))


def _tries(b: Board, state: State, side: str, order: UnitOrder) -> bool:
    """Whether ``order`` would be accepted (tried on a copy, port rolls set aside)."""
    from engine.games.tac import replace as r

    s = state.clone()
    fn = {"replace": r.replace, "rebuild": r.rebuild, "sail": r.sail, "land": r.land}.get(order.verb)
    try:
        if fn is not None:
            fn(b, s, side, order.unit, _NoRoll())
        elif order.verb == "breakdown":
            r.breakdown(b, s, side, order.unit)
        else:
            r.buildup(b, s, side, order.unit)
    except IllegalOrder:
        return False
    return True


def piece_orders(b: Board, state: State, ports: dict[str, str]) -> list[Order]:
    """Replacement counters (TAC 10.0-10.2; RULINGS R47): one ``place`` per kind held and
    port (for the Axis, the western edge hex of the coast road), and ``carry`` of each
    counter on the map to a hex where a unit of its side could take it, or, while the
    side has a unit to rebuild, to the city where it is rebuilt (10.7)."""
    side = state.player
    out: list[Order] = []
    free = len(pieces.counter_ids(b, side)) - pieces.in_play(state, side)
    held = [k for k in pieces.KINDS[side] if state.replacements.get(k, 0) > 0]
    if free > 0 and held:
        west = [h for h in b.west_edge if h in b.road_exits or any(b.is_road(h, n) for n in neighbours(h))]
        hexes = sorted(h for h in ports if h not in b.west_edge) + (west or b.west_edge)[:1]
        zoc = enemy_zoc(b, state, side)
        for kind in held:
            for h in hexes:
                try:
                    pieces.check_place(b, state, side, kind, h, ports, zoc)
                except IllegalOrder:
                    continue
                out.append(Place(kind=kind, hex=h))
    mine = pieces.on_map(state, side)
    if not mine:
        return out
    key = f"{state.turn}:{state.player}"
    wanted = {u.hex for u in state.on_map(side) if u.step > 0}
    if any(u.side == side and u.where == "dead" and b.units[u.id].type != "hq" for u in state.units.values()):
        wanted.add(next(h for h in b.cities if b.hex[h].name == replace.REBUILD_AT[side]))
    for k, p in sorted(mine.items()):
        if p.get("moved") == key:
            continue
        reach = pieces.destinations(b, state, k)
        out += [Carry(piece=k, hex=h) for h in sorted(wanted & reach.keys())]
    return out


def phase_orders(b: Board, state: State) -> list[Order]:
    """The other orders of the Movement Phase: interdiction (15.2), replacements and
    rebuilding (10.0, 10.7), breakdown and buildup (11.0), sailing from Tobruk and
    landing reinforcements there (12.1)."""
    side = state.player
    out: list[Order] = []
    if air.available(b, state):
        for h in sorted({u.hex for u in state.on_map(enemy(side))}):
            if air.in_range(b, state, h) and not air.under_weather(b, state, [h]) and not all(
                u.id in state.interdicted for u in state.at(h)
            ):
                out.append(Interdict(hex=h))
    ports = replace.ports(b, state, side)
    counters = {p["hex"] for p in pieces.on_map(state, side).values()}
    out += piece_orders(b, state, ports)
    alex = b.home_base("allied")
    # reinforcements may land at Tobruk instead (12.1; RULINGS R46)
    tobruk_open = any(x.name == "Tobruk" for x in (b.hex[h] for h in ports))
    for u in sorted(state.units.values(), key=lambda u: u.id):
        if u.side != side:
            continue
        x = b.units[u.id]
        tries = []
        if u.where == "map" and u.step > 0 and (u.hex in ports or u.hex in counters):
            tries.append("replace")
        if u.where == "dead" and x.type != "hq":
            tries.append("rebuild")
        if u.where == "map" and x.components and u.step == 0 and u.id not in state.moved:
            tries.append("breakdown")
        if (
            u.where == "pool"
            and (x.components or u.id == "nz_2_7")
            and (x.entry is None or x.entry.turn is None)
        ):
            tries.append("buildup")
        if u.where == "map" and b.name(u.hex).endswith("(Tobruk)") and u.id not in state.moved:
            tries.append("sail")
        if tobruk_open and state.landing.get(u.id) == state.turn and (
            u.where in ("held", "tripoli") or u.where == "map" and u.hex == alex
        ):
            tries.append("land")
        for verb in tries:
            o = UnitOrder(verb=verb, unit=u.id)
            if _tries(b, state, side, o):
                out.append(o)
    return out


def orders(b: Board, state: State, role: str | None, prompt_role: str | None) -> list[Order]:
    """Everything ``role`` may order now (see the module docstring)."""
    if prompt_role is None or (role is not None and role != prompt_role):
        return []
    if state.phase == "initiative":
        return [First(side="allied"), First(side="axis")]
    if state.phase == "mines":
        return [Call(), Done()]
    if state.phase == "withdraw":  # the engine's own choice first (RULINGS R45)
        c = state.withdrawal["choice"]
        return [UnitOrder(verb=c["kind"], unit=u) for u in c["options"]]
    if state.phase == "overstack":
        bad = movement.overstacked(b, state, state.player)
        out = [Eliminate(unit=u.id) for u in state.on_map(state.player) if u.hex in bad]
        return out + [Eliminate(unit=k) for k, p in sorted(pieces.on_map(state, state.player).items())
                      if p["hex"] in bad]  # fmt: skip
    if state.phase == "move":
        return [*move_orders(b, state), *phase_orders(b, state), Done()]
    if state.phase == "resolve":
        return _battle_orders(b, state)
    out: list[Order] = []
    left = air.available(b, state)
    for h, targets in combat.engagements(b, state, state.player).items():
        mine = tuple(u.id for u in state.at(h)
                     if u.side == state.player and u.id not in state.replaced and u.id not in state.strategic)  # fmt: skip
        if not mine:
            continue
        done_here = {
            t for x in state.battles for t in x["targets"] if set(mine) <= set(x["attackers"])
        }
        # a stack too long to name in one word attacks unit by unit; the attacks combine (R16)
        busy = {(u, t) for x in state.battles for u in x["attackers"] for t in x["targets"]}
        for t in sorted(targets - done_here):
            if len(",".join(mine)) <= MAX_WORD:
                words = [mine]
            else:
                words = [(m,) for m in mine if (m, t) not in busy]
            for units in words:
                for n in sorted({0, left}):
                    o = Attack(units=units, targets=(t,), air=n)
                    try:
                        combat.declare(b, state.clone(), state.player, o.units, o.targets, o.air)
                    except IllegalOrder:
                        continue
                    out.append(o)
    if combat.undeclared(b, state, state.player):
        return out
    return [*out, Done()]


def _battle_orders(b: Board, s: State) -> list[Order]:
    """The decisions open while attacks are resolved (TAC 9.0, 9.8, 9.9, 9.10)."""
    f = s.fight
    if f is None:
        out = [Resolve(hex=x["targets"][0]) for x in s.battles]
        for x in s.battles:
            units = [s.units[u] for u in x["attackers"] if s.units[u].where == "map"]
            foes = any(u.side != s.player for h in x["targets"] for u in s.at(h))
            if units and foes and effort.why_not(b, s, s.player, units, "18.4.2") is None:
                out.append(Resolve(hex=x["targets"][0], effort=True))
        return out
    who = battle.decider(s)
    if f["stage"] == "defend":
        return [Defend(), Done()]
    if f["stage"] == "loss":
        return [Lose(unit=u.id) for u in battle.loss_candidates(s, f, who)]
    if f["stage"] == "retreat":
        return [
            Retreat(unit=m, path=p)
            for m in f["moving"] if s.units[m].side == who
            for p in battle.retreat_paths(b, s, s.units[m], f["retreat"][who])
        ]  # fmt: skip
    out: list[Order] = []
    for h in f["targets"]:
        if s.at(h):
            continue
        for u in s.on_map(who):
            if u.id in f["attackers"] and b.crossable(u.hex, h):
                out.append(Advance(units=(u.id,), hex=h))
    return [*out, Done()]
