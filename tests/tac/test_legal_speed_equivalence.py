"""The Movement Phase listing of :mod:`engine.games.tac.legal` (issue 12: legal orders
for autocomplete under 50 ms p99) offers exactly the moves it offered before its searches
were kept per position and its paths built lazily: :func:`reference_moves` below is that
listing as it stood (each search from scratch, every path built whole), and random
campaigns (several seeds, the optional rules off, all on, events alone) compare the two
at every position of their Movement Phases, the long moves expanded the same way too.
Kept searches serve another game's or thread's listing at the same time unharmed."""

from __future__ import annotations

import random
import threading
from collections.abc import Iterator
from itertools import zip_longest

import pytest

from engine.core.hexgrid_rows import neighbours
from engine.core.orders import MAX_WORD
from engine.games.tac import events as chits
from engine.games.tac import legal, movement
from engine.games.tac.board import Board
from engine.games.tac.movement import FIFTHS, enemy_zoc
from engine.games.tac.orders import Move
from engine.games.tac.state import AXIS, State, Unit, enemy
from tests.tac.kit import B, R
from tests.tac.test_random_play import SeededDice

# -- the reference: the listing before the change ----------------------------------------

Node = tuple[str, bool, bool, str | None] | str
_EDGES: dict[int, dict] = {}

Edge = tuple[str, bool, int, bool, bool]


def reference_edges(b: Board) -> dict[str, list[Edge]]:
    """Per hex, the hexes a unit may step to, with what never changes: ``(there, road,
    cost in fifths, leaves a ridge for a non-ridge hex, a pass is involved)``; kept on the
    board."""
    cached = _EDGES.get(id(b))
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
    _EDGES[id(b)] = out
    return out


def reference_search(
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
    edges = reference_edges(b)
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
                    step = legal._step_cost(b, (here, on_road, locked, pass_from), there)
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


def reference_moves(b: Board, state: State, full: bool = False) -> Iterator[Move]:
    """Moves of the Movement Phase: for each unit alone and each group of units standing
    together, one move per reachable destination; a strategic move where it reaches
    further (8.5); a minefield laid by the first unit that may lay one (16.0). A long
    path is given by its destination (:func:`short`) unless ``full``."""
    side = state.player
    zoc = enemy_zoc(b, state, side)
    foes = {u.hex for u in state.on_map(enemy(side))}
    movers = legal._movers(state, side)
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
    cache: dict = {}

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
        if key not in cache:
            here = groups[(where, start)]
            cap = max(legal._cap(b, state, [u], False) for u in here)
            cap = max([cap] + [legal._cap(b, state, [u], True) for u in here if may_go_strategic([u])])
            cache[key] = reference_search(
                b, state, where, start if where == "map" else None, cap, False, zoc, foes
            )
        found, direct = cache[key]
        cap = legal._cap(b, state, stack, strategic)
        if strategic:
            return {h: p for h, (cost, p) in found.items() if cost <= cap and h not in zoc}
        out = {h: p for h, (cost, p) in found.items() if cost <= cap}
        for h in direct:
            out.setdefault(h, (h,))
        return out

    def offered(path: tuple[str, ...], start: str | None) -> tuple[str, ...]:
        return path if full or len(path) <= legal.SHORT_PATH else legal.short(path, start)

    for stack in stacks:
        ids = tuple(u.id for u in stack)
        start = stack[0].hex if stack[0].where == "map" else None
        normal = reach(stack, False)
        for path in normal.values():
            yield Move(verb="move", units=ids, path=offered(path, start))
        if hand and not laid and len(stack) == 1 and stack[0].where == "map" and normal:
            u = stack[0]
            a, d, _ = b.values(u.id, u.step)
            if max(a, d) > 0 and u.hex not in zoc and u.hex not in state.mines["map"]:
                laid = True
                first = next(iter(normal.values()))
                yield Move(verb="move", units=ids, path=offered(("mine", *first), start))
        if not may_go_strategic(stack):
            continue
        for h, path in reach(stack, True).items():
            if h not in normal:
                yield Move(verb="strategic", units=ids, path=offered(path, start))


def reference_expand(state: State, order: Move) -> Move | None:
    """The whole move a shortened one stands for, found in :func:`reference_moves`."""
    first = state.units[order.units[0]]
    start = first.hex if first.where == "map" else None
    mine = order.path[0].startswith("mine")
    for o in reference_moves(B, state, full=True):
        if (o.verb, o.units) == (order.verb, order.units) and o.path[0].startswith("mine") == mine:
            if legal.short(o.path, start) == order.path:
                return o
    return None


def key(o: Move) -> tuple:
    return (o.verb, o.units, o.path)


# -- the comparison ---------------------------------------------------------------------


def play_and_compare(seed: int, options: dict, last_turn: int, every: int = 1) -> int:
    """Random play to the end of ``last_turn``; at every ``every``-th position of a
    Movement Phase the moves of ``legal_orders`` are those of the reference (and their
    long paths expand the same). Returns the positions compared."""
    rng = random.Random(seed)
    dice = SeededDice(random.Random(seed + 1))
    state = R.setup("campaign", options, dice)
    compared = n = 0
    while R.prompt(state).role is not None and state.turn <= last_turn:
        role = R.prompt(state).role
        orders = R.legal_orders(state, role)
        if R.prompt(state).kind == "move":
            n += 1
            if n % every == 0:
                mine = [key(o) for o in orders if isinstance(o, Move)]
                theirs = [key(o) for o in reference_moves(B, state)]
                assert len(mine) == len(set(mine))
                assert set(mine) == set(theirs), (seed, state.turn, set(mine) ^ set(theirs))
                compared += 1
                by_end = [o for o in orders if isinstance(o, Move) and len(o.path) == 1]
                if compared % 4 == 1 and by_end:  # mostly long moves given by their last hex
                    o = rng.choice(by_end)
                    assert key(legal.expand(B, state, o)) == key(reference_expand(state, o))
        finishing = [o for o in orders if o.verb == "done"]
        others = [o for o in orders if o.verb != "done"]
        pick = rng.choice(finishing) if finishing and (not others or rng.random() < 0.15) else rng.choice(others)
        state, _ = R.apply(state, role, pick, dice)
    return compared


@pytest.mark.parametrize("seed", [1, 2, 3, 4, 5, 6])
def test_the_moves_listed_are_the_reference_moves(seed):
    """Options by seed as ``umpire fuzz`` chooses them: none, all of section 18, event
    chits with Tactical Advantage (18.3, 18.6, 18.7)."""
    _, options = R.fuzz_setup(seed)
    assert play_and_compare(seed, options, last_turn=10) > 60


@pytest.mark.parametrize("seed", [7, 8])
def test_the_moves_listed_are_the_reference_moves_late_in_a_campaign(seed):
    """Later turns, with more units on the map and longer moves (every third position;
    no option, then all of section 18)."""
    _, options = R.fuzz_setup(seed - 1)
    assert play_and_compare(seed, options, last_turn=32, every=3) > 100


def positions(seed: int, count: int) -> list[State]:
    """``count`` positions of Movement Phases of a random campaign, some turns apart."""
    rng = random.Random(seed)
    dice = SeededDice(random.Random(seed + 1))
    state = R.setup("campaign", {}, dice)
    out: list[State] = []
    while len(out) < count and R.prompt(state).role is not None:
        role = R.prompt(state).role
        orders = R.legal_orders(state, role)
        if state.phase == "move" and state.turn >= 4 + 3 * len(out):
            out.append(state)
        finishing = [o for o in orders if o.verb == "done"]
        others = [o for o in orders if o.verb != "done"]
        pick = rng.choice(finishing) if finishing and (not others or rng.random() < 0.3) else rng.choice(others)
        state, _ = R.apply(state, role, pick, dice)
    return out


def test_listings_taken_turn_about_or_in_two_threads_do_not_mix():
    """Two positions listed a stack at a time by turns (one generator each), then by two
    threads at once: each gets its own position's moves, the reference's."""
    first, second = positions(7, 2)
    want = [{key(o) for o in reference_moves(B, s)} for s in (first, second)]
    legal._PHASES.clear()
    a, b = legal.move_orders(B, first), legal.move_orders(B, second)
    got: list[set] = [set(), set()]
    for x, y in zip_longest(a, b):
        for i, o in enumerate((x, y)):
            if o is not None:
                got[i].add(key(o))
    assert got == want
    legal._PHASES.clear()
    seen: list[set | None] = [None, None]

    def work(i: int, s: State) -> None:
        for _ in range(3):
            seen[i] = {key(o) for o in legal.move_orders(B, s)}

    threads = [threading.Thread(target=work, args=(i, s)) for i, s in enumerate((first, second))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert seen == want


def test_a_position_seen_again_after_other_games_is_listed_the_same(monkeypatch):
    """Three positions listed in turn, twice, by a table keeping two (the oldest dropped):
    every listing is the reference's."""
    monkeypatch.setattr(legal, "_PHASES_KEPT", 2)
    states = positions(8, 3)
    want = [{key(o) for o in reference_moves(B, s)} for s in states]
    for _ in range(2):
        for s, w in zip(states, want, strict=True):
            assert {key(o) for o in legal.move_orders(B, s)} == w
    assert len(legal._PHASES) <= legal._PHASES_KEPT
