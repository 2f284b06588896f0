"""The orders open now (ARCHITECTURE: legal orders), for autocomplete, menus and random
play: a bounded list, one move per reachable destination of each unit and stack (the
cheapest path found), not every path.

:func:`destinations` walks the movement rules of :mod:`engine.games.tac.movement` as a
search over (hex, on a road, locked on a ridge, pass entered from) in fifths of a
Movement Point (TAC 4.3 L210-224, 8.0-8.6 L347-455, 12.3 L621, 15.2 L667, 16.1-16.3
L681-685); :func:`engine.games.tac.movement.move` stays the judge of every order.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Iterator

from engine.core.errors import IllegalOrder
from engine.core.hexgrid_rows import neighbours
from engine.core.orders import MAX_WORD, Order
from engine.games.tac import air, battle, combat, effort, movement, pieces, replace
from engine.games.tac import events as chits
from engine.games.tac.board import Board
from engine.games.tac.movement import FIFTHS, FUEL_FREE, enemy_zoc
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


class _Phase:
    """The searches of one position of a Movement Phase, by start (see :func:`move_orders`):
    the position is told by its key (the side, the enemy zones and units, the minefields,
    the weather: all a search reads besides its start), which own units moving leave alone."""

    __slots__ = ("board", "trees")

    def __init__(self, board: Board) -> None:
        self.board = board  # held, so that no other board takes its id while it is kept
        self.trees: dict[tuple[str, str | None], _Tree] = {}


#: the searches of recent Movement Phase positions, the most recently used last: several
#: games and threads share the table, which a lock guards (a thread keeps the
#: :class:`_Phase` it took); the engine stays pure, as a hit returns what the same search would
_PHASES: OrderedDict[tuple, _Phase] = OrderedDict()
_PHASES_KEPT = 2
_LOCK = threading.Lock()
#: the hexes under Bad Weather by the chit's marks (see :func:`_wet`)
_WET: dict[tuple, frozenset[str]] = {}


def _phase(b: Board, key: tuple) -> _Phase:
    with _LOCK:
        found = _PHASES.get(key)
        if found is None:
            found = _PHASES[key] = _Phase(b)
            while len(_PHASES) > _PHASES_KEPT:
                _PHASES.popitem(last=False)
        else:
            _PHASES.move_to_end(key)
        return found


def _wet(b: Board, state: State) -> frozenset[str]:
    """:func:`engine.games.tac.events.weather`, kept by the chit's marks (the hexes within
    three of a hex are the same every time they are asked for)."""
    w = state.chits.get("weather") if state.chits else None
    if not w:
        return frozenset()
    key = (id(b), w["hex"], w["turn"], w["player"], state.turn, state.player)
    found = _WET.get(key)
    if found is None:
        found = frozenset(chits.weather(b, state))
        with _LOCK:
            if len(_WET) >= 16:
                _WET.clear()
            _WET[key] = found
    return found


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


Edge = tuple[str, bool, int, bool, bool, bool, str, str]


def _edges(b: Board) -> dict[str, list[Edge]]:
    """Per hex, the hexes a unit may step to, with what never changes: ``(there, road,
    cost in fifths, leaves a ridge for a non-ridge hex, a pass is involved, enters a ridge
    from a non-ridge hex, the node of the step unlocked, locked)``; kept on the board with
    the nodes' meanings (see :func:`_nodes`) and the costs of steps near a pass once
    worked out."""
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
            row.append((n, road, cost, ridge_off, special, ridge_on, _node(n, road, False), _node(n, road, True)))
        out[h] = row
    b._legal_nodes = {  # type: ignore[attr-defined]
        _node(h, road, locked): (h, road, locked, None)
        for h in b.hex for road in (False, True) for locked in (False, True)
    }  # fmt: skip
    b._legal_steps = {}  # type: ignore[attr-defined]
    b._legal_edges = out  # type: ignore[attr-defined]
    return out


def _node(h: str, road: bool, locked: bool) -> str:
    """A node of the search free of any pass as one word: its hex alone off the road and
    the ridge, else the hex marked (strings hash once; tuples every time they are used)."""
    return h if not road and not locked else f"{h}{'r' if road else ''}{'l' if locked else ''}"


def _nodes(b: Board) -> dict[str, tuple[str, bool, bool, None]]:
    """What each node written as a word stands for: (hex, on a road, locked on a ridge,
    no pass); a node with a pass stays a tuple of these and the hex it was entered from."""
    _edges(b)
    return b._legal_nodes  # type: ignore[attr-defined]


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
    t = _grow(b, state, where, start, cap, strategic, zoc, foes, _wet(b, state))
    out = {h: (t.best[n], t.path(n)) for h, n in t.ends.items()}
    for h in t.one_hex:
        out.setdefault(h, (0, (h,)))
    if t.exits:
        cost, node = t.exits[0]
        out["exit"] = (cost, (*t.path(node), "exit"))
    if start is not None:
        out.pop(start, None)
    return out, t.direct


class _Tree:
    """What one search of :func:`_grow` found from its start with ``cap`` fifths: each hex
    reached -> the node that first reached it, in the order reached; each node's cheapest
    cost, its parent and the number of hexes on its path; the hexes the one-hex move may
    enter (8.1.2); the nodes the eastern edge may be left from, in the order met, with the
    cost of leaving (8.6). Restricted to a smaller cap it is what a search with that cap
    finds (a node costing more is never the parent of one costing less). Paths are built
    when first asked for and kept, as are the moves offered along them."""

    __slots__ = ("start", "cap", "nodes", "ends", "best", "parent", "depth", "one_hex", "direct", "exits",
                 "paths", "found", "moves", "made")  # fmt: skip

    def __init__(self, start: str | None, cap: int, nodes: dict[str, tuple]) -> None:
        self.start, self.cap, self.nodes = start, cap, nodes
        self.ends: dict[str, Node] = {}
        self.best: dict[Node, int] = {}
        self.parent: dict[Node, Node | None] = {}
        self.depth: dict[Node, int] = {}
        #: the hexes the one-hex move may enter, each with what that step costs (8.2.6:
        #: beyond the fuel-free 2 MP it costs Fuel)
        self.one_hex: dict[str, int] = {}
        self.direct: frozenset[str] = frozenset()
        self.exits: list[tuple[int, Node]] = []
        self.paths: dict[Node, tuple[str, ...]] = {}
        self.found: dict[int, tuple[dict[str, Node | None], int | None]] = {}
        self.moves: dict[tuple, tuple[list, list, tuple[str, ...] | None]] = {}
        self.made: dict[tuple, tuple[list[Move], list[Move]]] = {}

    def path(self, node: Node) -> tuple[str, ...]:
        """The hexes entered on the way to ``node`` (its start left out)."""
        built, parent, start, nodes = self.paths, self.parent, self.start, self.nodes
        chain = []
        while node is not None and node not in built:
            chain.append(node)
            node = parent[node]
        path = built[node] if node is not None else ()
        for n in reversed(chain):
            h = nodes[n][0] if n.__class__ is str else n[0]
            path = (*path, h) if h != start else path
            built[n] = path
        return path

    def offer(self, node: Node, leave: bool, full: bool) -> tuple[str, ...]:
        """The path to ``node`` (then off the eastern edge when ``leave``) as offered:
        what :func:`short` makes of it, built only as far as it needs."""
        if full or self.depth[node] <= SHORT_PATH:
            path = self.path(node)
            return (*path, "exit") if leave else path
        nodes = self.nodes
        last = nodes[node][0] if node.__class__ is str else node[0]
        first = self.start
        if first is None:
            n: Node | None = node
            while n is not None:
                first, n = (nodes[n][0] if n.__class__ is str else n[0]), self.parent[n]
        if len(last) != 4 or not last.isdigit() or last in neighbours(first):
            path = self.path(node)
            return (*path, "exit") if leave else path
        kept = _one(last) if self.start is not None else (first, last)
        return (*kept, "exit") if leave else kept


def _grow(
    b: Board,
    state: State,
    where: str,
    start: str | None,
    cap: int,
    strategic: bool,
    zoc: set[str],
    foes: set[str],
    wet: frozenset[str],
) -> _Tree:
    """The search over (hex, on a road, locked on a ridge, pass entered from), a bucket
    of nodes per cost in fifths (costs are small whole numbers); see :class:`_Tree`."""
    side = state.player
    edges = _edges(b)
    nodes = _nodes(b)
    steps = b._legal_steps  # type: ignore[attr-defined]
    blocked = foes | set(state.mines.get("closed", ()))
    mined = state.mines.get("map", {})
    began_in_zoc = start is not None and start in zoc
    tree = _Tree(start, cap, nodes)
    best = tree.best
    east = b.east_edge if side == AXIS else ()
    buckets: list[list[Node]] = [[] for _ in range(cap + 1)]
    parent, depth, ends, exits, one_hex = tree.parent, tree.depth, tree.ends, tree.exits, tree.one_hex
    over = cap + 1
    if start is None:
        if strategic:
            return tree
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
                best[h], parent[h], depth[h] = cost, None, 1
                buckets[cost].append(h)
    else:
        best[start], parent[start], depth[start] = 0, None, 0
        buckets[0].append(start)
    for spent in range(over):
        bucket = buckets[spent]
        if not bucket:
            continue
        rounded = -(-spent // FIFTHS) * FIFTHS
        for node in bucket:
            if best[node] != spent:
                continue
            here, on_road, locked, pass_from = nodes[node] if node.__class__ is str else node
            moved = here != start
            if moved:
                if here not in ends:
                    ends[here] = node
                if here in zoc or here in mined:
                    continue  # 4.3.2, 16.1: the move ends here
                if here in east:
                    road_exit = here in b.road_exits
                    base = rounded if on_road and not road_exit else spent
                    if base + (1 if road_exit else FIFTHS) <= cap:
                        exits.append((base + (1 if road_exit else FIFTHS), node))
            # 8.1.2: a unit may always move one hex
            first_step = not moved and start is not None and not began_in_zoc
            no_zoc = strategic or (not moved and began_in_zoc)
            below = depth[node] + 1
            for there, road, cost, ridge_off, special, ridge_on, open_node, locked_node in edges[here]:
                if there in blocked:
                    continue
                if no_zoc and there in zoc:
                    continue
                if special or pass_from is not None:
                    step = steps.get((node, there), steps)
                    if step is steps:  # a step's cost is the board's: worked out once
                        step = steps[(node, there)] = _step_cost(b, (here, on_road, locked, pass_from), there)
                    if step is None:
                        continue
                    cost, road, new_locked, new_from, round_up = step
                    if new_from:
                        nxt: Node = (there, road, new_locked, new_from)
                    else:
                        nxt = locked_node if new_locked else open_node
                else:
                    if ridge_off and locked and not road:
                        continue
                    nxt = locked_node if locked or ridge_on else open_node
                    round_up = on_road and not road
                if wet and not road and there in wet:
                    cost += FIFTHS  # Bad Weather (18.7 L831, L877)
                total = (rounded if round_up else spent) + cost
                if first_step and (there not in one_hex or total < one_hex[there]):
                    one_hex[there] = total
                if total > cap or best.get(nxt, over) <= total:
                    continue
                best[nxt] = total
                parent[nxt] = node
                depth[nxt] = below if there != start else below - 1
                buckets[total].append(nxt)
    tree.direct = frozenset(one_hex)
    return tree


def _move(verb: str, units: tuple[str, ...], path: tuple[str, ...]) -> Move:
    """A Move built from values already checked (thousands per call: pydantic's own
    constructor would take most of the time); equal to ``Move(verb=..., ...)``."""
    o = _new(Move)
    _set(o, "__dict__", {"verb": verb, "units": units, "path": path})
    _set(o, "__pydantic_fields_set__", _MOVE_FIELDS)  # one set for all: a Move is frozen
    _set(o, "__pydantic_extra__", None)
    _set(o, "__pydantic_private__", None)
    return o


_new, _set = Move.__new__, object.__setattr__
_MOVE_FIELDS = {"verb", "units", "path"}


def _cap(b: Board, state: State, units: list[Unit], strategic: bool) -> int:
    factor = 2 if strategic else 1
    cap = min(movement.allowance_of(b, state, u) for u in units) * factor * FIFTHS
    if _short_of_fuel(b, state, units):
        cap = min(cap, FUEL_FREE * factor * FIFTHS)
    return cap


def _short_of_fuel(b: Board, state: State, units: list[Unit]) -> bool:
    """Whether an Axis stack has fewer Fuel than units that pay it (8.2.6): then it moves
    at most the fuel-free 2 MP, the one-hex move of 8.1.2 included."""
    if units[0].side != AXIS:
        return False
    payers = sum(1 for u in units if movement.pays_fuel(b, u))
    return payers > state.fuel


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
    for o in move_orders(b, state, full=True, only=tuple(order.units)):
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


def _found(t: _Tree, cap: int) -> tuple[dict[str, Node | None], int | None]:
    """What a search with ``cap`` fifths gives from ``t``'s start, as :func:`_search` lists
    it (in its order), each hex with its node (None for a one-hex move, 8.1.2; ``exit``
    for leaving by the eastern edge); and the cost of leaving."""
    got = t.found.get(cap)
    if got is None:
        best = t.best
        found: dict[str, Node | None] = {h: n for h, n in t.ends.items() if best[n] <= cap}
        for h in t.one_hex:
            found.setdefault(h, None)
        leave = next((cn for cn in t.exits if cn[0] <= cap), None)
        if leave is not None:
            found["exit"] = leave[1]
        if t.start is not None:
            found.pop(t.start, None)
        got = t.found[cap] = (found, leave[0] if leave is not None else None)
    return got


#: one-hex paths, one tuple each (fewer objects made and kept)
_ONES: dict[str, tuple[str]] = {}


def _one(h: str) -> tuple[str]:
    got = _ONES.get(h)
    return got if got is not None else _ONES.setdefault(h, (h,))


def _offered(t: _Tree, h: str, node: Node | None, full: bool) -> tuple[str, ...]:
    if node is None:
        return _one(h)
    if h != "exit" and (full or t.depth[node] <= SHORT_PATH):
        got = t.paths.get(node)  # most paths are built already, as prefixes of others
        return got if got is not None else t.path(node)
    return t.offer(node, h == "exit", full)


def _stack_paths(
    t: _Tree, search_cap: int, cap: int, strategic_cap: int | None, zoc: set[str], full: bool,
    unfuelled: bool = False,
) -> tuple[list[tuple[str, ...]], list[tuple[str, ...]], tuple[str, ...] | None]:
    """The paths offered from ``t`` searched with ``search_cap`` to a stack with ``cap``
    fifths (and the one-hex move) and, moving strategically, ``strategic_cap`` (out of
    enemy zones, where no normal move goes); and the whole path of the first normal move.
    Kept on ``t``, as are the moves made of them for each stack (a listing made again
    allocates almost nothing, so the garbage collector is seldom woken)."""
    key = (search_cap, cap, strategic_cap, full, unfuelled)
    got = t.moves.get(key)
    if got is not None:
        return got
    found, leave = _found(t, search_cap)
    cost = t.best.get  # a one-hex move (node None) costs 0 here
    # a stack short of fuel makes the one-hex move of 8.1.2 only within the fuel-free 2 MP
    # (8.2.6)
    free = FUEL_FREE * FIFTHS if unfuelled else None
    normal = {h: n for h, n in found.items() if (leave if h == "exit" else cost(n, 0)) <= cap
              and not (n is None and free is not None and t.one_hex[h] > free)}  # fmt: skip
    for h in t.direct:
        if free is None or t.one_hex[h] <= free:
            normal.setdefault(h, None)
    near = [_offered(t, h, n, full) for h, n in normal.items()]
    first = None
    if normal:
        h, n = next(iter(normal.items()))
        first = (h,) if n is None else (*t.path(n), "exit") if h == "exit" else t.path(n)
    far = []
    if strategic_cap is not None:
        far = [_offered(t, h, n, full) for h, n in found.items()
               if (leave if h == "exit" else cost(n, 0)) <= strategic_cap and h not in zoc and h not in normal]  # fmt: skip
    got = t.moves[key] = (near, far, first)
    return got


def move_orders(
    b: Board, state: State, full: bool = False, only: tuple[str, ...] | None = None
) -> Iterator[Order]:
    """Moves of the Movement Phase: for each unit alone and each group of units standing
    together, one move per reachable destination; a strategic move where it reaches
    further (8.5); a minefield laid by the first unit that may lay one (16.0). A long
    path is given by its destination (:func:`short`) unless ``full``; with ``only``, the
    moves of that stack alone."""
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
    wet = _wet(b, state)
    # what a search depends on besides its start: its trees kept while it stays the same
    phase = _phase(b, (id(b), side, frozenset(zoc), frozenset(foes), tuple(state.mines.get("closed", ())),
                    tuple(sorted(state.mines.get("map", {}))), state.turn, wet))  # fmt: skip

    def may_go_strategic(stack: list[Unit]) -> bool:
        return can_strategic and len(stack) == 1 and not any(
            u.where != "map" or u.hex in zoc or u.arrived == state.turn or u.id in state.interdicted
            or b.units[u.id].type == "replacement" for u in stack
        )  # fmt: skip

    def tree(where: str, start: str | None) -> tuple[_Tree, int]:
        # one search per start hex serves every unit there, moving normally or
        # strategically: as far as the farthest allowance there, enemy zones ending paths;
        # a tree grown further serves too (see _Tree)
        here = groups[(where, start)]
        cap = max(_cap(b, state, [u], False) for u in here)
        cap = max([cap] + [_cap(b, state, [u], True) for u in here if may_go_strategic([u])])
        t = phase.trees.get((where, start))
        if t is None or t.cap < cap:
            t = _grow(b, state, where, start if where == "map" else None, cap, False, zoc, foes, wet)
            phase.trees[(where, start)] = t
        return t, cap

    def offered(path: tuple[str, ...], start: str | None) -> tuple[str, ...]:
        return path if full or len(path) <= SHORT_PATH else short(path, start)

    for stack in stacks:
        ids = tuple(u.id for u in stack)
        wanted = only is None or ids == only
        start = stack[0].hex if stack[0].where == "map" else None
        t, search_cap = tree(stack[0].where, stack[0].hex)
        cap = _cap(b, state, stack, False)
        far_cap = _cap(b, state, stack, True) if may_go_strategic(stack) else None
        unfuelled = _short_of_fuel(b, state, stack)
        near, far, first = _stack_paths(t, search_cap, cap, far_cap, zoc, full and wanted, unfuelled)
        made = t.made.get((ids, search_cap, cap, far_cap, full, unfuelled)) if wanted else None
        if wanted and made is None:
            made = t.made[(ids, search_cap, cap, far_cap, full, unfuelled)] = (
                [_move("move", ids, path) for path in near],
                [_move("strategic", ids, path) for path in far],
            )
        if made is not None:
            yield from made[0]
        if hand and not laid and len(stack) == 1 and stack[0].where == "map" and first is not None:
            u = stack[0]
            a, d, _ = b.values(u.id, u.step)
            if max(a, d) > 0 and u.hex not in zoc and u.hex not in state.mines["map"]:
                laid = True
                if wanted:
                    yield _move("move", ids, offered(("mine", *first), start))
        if made is not None:
            yield from made[1]


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
        wet = _wet(b, state)  # as air.under_weather, worked out once
        for h in sorted({u.hex for u in state.on_map(enemy(side))}):
            if air.in_range(b, state, h) and h not in wet and not all(
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
