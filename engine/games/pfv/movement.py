"""PFV 8 Movement and PFV 9 Zones of control, with the breakthrough move of PFV 15.

A move names the hexes entered, in order (``move 10pz 8213 8313``), or only the
destination, in which case the cheapest legal path is taken. Pieces stacked together may
move as one group (``move 10pz,rommel ...``, PFV 7 phase 1); each pays its own way, and a
support that runs out of MP stops where it is while the unit goes on (L78).

Stacking is checked when the movement phase ends, not in transit (PFV 6, L68), so a piece
may end its move on pieces that will still leave; a move that would leave a hex over-stacked
with no piece left that could make room is refused, because the phase could never end
(RULINGS R34).
"""

from __future__ import annotations

import heapq

from engine.core.events import private
from engine.games.pfv.board import Board
from engine.games.pfv.context import SIDE_NAME, Ctx, listing, refuse
from engine.games.pfv.options import Options
from engine.games.pfv.orders import Done, Move
from engine.games.pfv.state import State, enemy

Tree = dict[str, tuple[float, str | None]]


def movement_factor(board: Board, state: State, piece_id: str) -> float:
    face = board.face(piece_id, state.pieces[piece_id].reduced)
    return float(face.move or 0)


def reachable(
    board: Board,
    options: Options,
    state: State,
    start: str,
    mf: float,
    side: str,
    breakthrough: bool = False,
    stacks: dict[str, list[str]] | None = None,
    ezoc: set[str] | None = None,
) -> Tree:
    """Every hex a piece of ``side`` with ``mf`` MP can reach from ``start`` (PFV 8, 9).

    Entering an enemy zone of control ends the move (PFV 9) except in a breakthrough
    (PFV 15). A piece may always move a single hex whatever it costs (PFV 8).
    """
    stacks = board.stacks(state) if stacks is None else stacks
    ezoc = board.zoc(state, enemy(side)) if ezoc is None else ezoc
    foe = enemy(side)
    costs = board.step_costs(options)
    neighbours = board.grid.adjacent
    blocked = {h for h, pieces in stacks.items() if board.side(pieces[0]) == foe}

    best: Tree = {start: (0.0, None)}
    heap = [(0.0, start)]
    while heap:
        cost, here = heapq.heappop(heap)
        if cost > best[here][0]:
            continue
        if here != start and here in ezoc and not breakthrough:
            continue  # PFV 9: the move ends on entering an enemy zone of control
        for nxt in neighbours[here]:
            if nxt in blocked:
                continue
            step = costs[(here, nxt)]
            if step is None:
                continue
            total = cost + step
            if total > mf and not (here == start):
                continue
            if total > mf:
                total = mf  # the one-hex minimum move (PFV 8): it may go no further
            if nxt not in best or total < best[nxt][0]:
                best[nxt] = (total, here)
                heapq.heappush(heap, (total, nxt))
    return best


def check_path(ctx: Ctx, pieces: list[str], path: list[str], breakthrough: bool) -> list[str]:
    """Validate an explicit path for a group of pieces, or find one to a lone destination.
    Returns the hexes entered."""
    b, s, opts = ctx.board, ctx.state, ctx.options
    start = s.pieces[pieces[0]].hex
    side = b.side(pieces[0])
    lead = leader(b, s, pieces)
    mf = movement_factor(b, s, lead)
    stacks = b.stacks(s)
    ezoc = b.zoc(s, enemy(side))
    names = b.name(lead)
    for h in path:
        if h not in b.map.hex:
            raise refuse("PFV 8", f"{h} is not a hex of the map; pieces may not leave it.")
    if len(path) == 1 and path[0] not in b.grid.neighbours(start):
        tree = reachable(b, opts, s, start, mf, side, breakthrough, stacks, ezoc)
        goal = path[0]
        if goal not in tree or goal == start:
            legal = sorted(h for h in tree if h != start)
            raise refuse(
                "PFV 8",
                f"{names} cannot reach {goal} from {start} this phase.",
                f"Reachable hexes: {listing(legal)}.",
            )
        route = []
        here: str | None = goal
        while here is not None and here != start:
            route.append(here)
            here = tree[here][1]
        return route[::-1]
    spent = 0.0
    here = start
    for i, nxt in enumerate(path):
        if nxt not in b.grid.neighbours(here):
            raise refuse(
                "PFV 8", f"{nxt} is not next to {here}; a path must be a chain of adjacent hexes."
            )
        occupant = b.occupant_side(stacks, nxt)
        if occupant is not None and occupant != side:
            raise refuse(
                "PFV 8",
                f"{nxt} holds enemy pieces; no piece may enter an enemy-occupied hex.",
                "To fight it, attack it in the combat phase.",
            )
        if not b.passable(here, nxt):
            raise refuse("PFV 8", f"The hexside between {here} and {nxt} is impassable.")
        step = b.step_cost(here, nxt, opts)
        if step is None:
            raise refuse("PFV 8", f"{nxt} is prohibited terrain ({_terrain_names(b, nxt)}).")
        spent += step
        if spent > mf and i > 0:
            raise refuse(
                "PFV 8",
                f"{names} would need {_mp(spent)} MP to reach {nxt} but has {_mp(mf)}.",
                "A piece may always move one hex, but no further once it lacks the MP."
                + (
                    " Supports moving with a unit go as far as their own MP allow (PFV 7)."
                    if len(pieces) > 1
                    else ""
                ),
            )
        if nxt in ezoc and not breakthrough and i < len(path) - 1:
            raise refuse(
                "PFV 9",
                f"{nxt} is in an enemy zone of control, so the move must end there.",
                f"Stop at {nxt}.",
            )
        here = nxt
    return list(path)


def leader(b: Board, s: State, pieces: list[str]) -> str:
    """The piece a group's path is measured against: its unit, or, for supports moving
    together, the one with the most MP. The others go with it as far as their own MP allow
    (PFV 7 phase 1, L78)."""
    units = [p for p in pieces if b.is_unit(p)]
    if units:
        return units[0]
    return max(sorted(pieces), key=lambda p: movement_factor(b, s, p))


def how_far(
    b: Board, options: Options, s: State, pieces: list[str], route: list[str]
) -> dict[str, int]:
    """How many hexes of ``route`` each piece of a group travels (PFV 7 phase 1, PFV 8).

    Each piece pays its own MP for every hex (L138) and stops when it lacks the MP for the
    next one (L78, L148); every piece may always enter the first hex, whatever it costs
    (L144). The leader's path was checked already, so it travels the whole route."""
    start = s.pieces[pieces[0]].hex
    out = {}
    for p in pieces:
        mf = movement_factor(b, s, p)
        spent, here, n = 0.0, start, 0
        for i, nxt in enumerate(route):
            spent += b.step_cost(here, nxt, options) or 0.0
            if spent > mf and i > 0:
                break
            n, here = i + 1, nxt
        out[p] = n
    return out


def unstacking_plan(
    b: Board,
    options: Options,
    s: State,
    side: str,
    stacks: dict[str, list[str]],
    moved: set[str],
    reach: dict[str, list[str]] | None = None,
    check: set[str] | None = None,
) -> tuple[list[tuple[str, str]] | None, str]:
    """Moves of pieces that have not moved yet which would leave no hex over-stacked, found
    by trying them one at a time (PFV 6, L68; RULINGS R34).

    Returns ``(plan, "")``, the plan empty when nothing is over-stacked, or ``(None, hex)``
    naming a hex nothing could put right. A piece's reach does not depend on where its
    friends stand, so each step of a plan is a legal move when its turn comes, and the plan
    is conservative: when it finds none, the move that led here is refused. ``reach``
    caches each piece's destinations, cheapest first; ``check`` names the only hexes that
    can be over-stacked (the caller knows the others are not), which changes nothing but
    the time taken."""
    hexes = stacks if check is None else [h for h in check if h in stacks]
    bad = sorted(h for h in hexes if b.stacking_problem(stacks[h]))
    if not bad:
        return [], ""
    reach = {} if reach is None else reach
    sim = dict(stacks)  # lists are replaced, never changed in place
    plan: list[tuple[str, str]] = []
    for h in bad:
        while b.stacking_problem(sim[h]):
            mine = [p for p in sim[h] if p not in moved and b.side(p) == side]
            units = [p for p in sim[h] if b.is_unit(p)]
            ground = [p for p in sim[h] if b.counter(p).kind == "support"]
            if len(units) > 1:
                movers = [p for p in mine if b.is_unit(p)]
            elif len(ground) > 2:
                movers = [p for p in mine if b.counter(p).kind == "support"]
            else:
                movers = []  # air never moves in the movement phase (PFV 8)
            step = None
            for p in sorted(movers):
                if p not in reach:
                    tree = reachable(b, options, s, h, movement_factor(b, s, p), side)
                    reach[p] = [
                        d for _, d in sorted((c, d) for d, (c, _) in tree.items()) if d != h
                    ]
                for d in reach[p]:
                    if b.stacking_problem(sim.get(d, []) + [p]) is None:
                        step = (p, d)
                        break
                if step:
                    break
            if step is None:
                return None, h
            p, d = step
            sim[h] = [q for q in sim[h] if q != p]  # never emptied: some piece stays
            sim[d] = sim.get(d, []) + [p]
            plan.append(step)
    return plan, ""


def _stacks_after(stacks: dict[str, list[str]], ends: dict[str, str]) -> dict[str, list[str]]:
    """The stacks once each piece of ``ends`` stands in its hex."""
    after = {h: [p for p in ps if p not in ends] for h, ps in stacks.items()}
    for p, h in ends.items():
        after.setdefault(h, []).append(p)
    return {h: ps for h, ps in after.items() if ps}


def _mp(x: float) -> str:
    return str(int(x)) if x == int(x) else f"{x:g}"


def _terrain_names(b: Board, h: str) -> str:
    return ", ".join(b.map.terrain_types[t].name for t in b.map.hex[h].terrain)


def move(ctx: Ctx, order: Move) -> None:
    """PFV 7 phase 1 and PFV 8: move one piece, or supports with their unit, along a path."""
    b, s = ctx.board, ctx.state
    side = s.player
    pieces = order.pieces
    _check_group(ctx, pieces, side)
    breakthrough = s.phase == "combat"
    if breakthrough:
        _check_breakthrough_group(ctx, pieces)
    else:
        for p in pieces:
            if p in s.moved:
                raise refuse(
                    "PFV 8", f"{b.name(p)} has already moved this phase; each piece moves once."
                )
    route = check_path(ctx, pieces, order.path, breakthrough)
    dest = route[-1]
    reach = how_far(b, ctx.options, s, pieces, route)
    ends = {p: route[reach[p] - 1] for p in pieces}
    after = _stacks_after(b.stacks(s), ends)
    if breakthrough:
        for h in sorted(set(ends.values())):
            why = b.stacking_problem(after[h])
            if why:
                raise refuse("PFV 6", f"{h} would be over-stacked: {why}.")
    else:
        plan, stuck = unstacking_plan(b, ctx.options, s, side, after, s.moved | set(pieces))
        if plan is None:
            raise refuse(
                "PFV 6",
                f"{stuck} would be over-stacked ({b.stacking_problem(after[stuck])}), and no "
                "piece there that has not moved yet could leave it, so the movement phase "
                "could never end.",
                "Stacking is checked when movement ends: end the move in a hex with room, or "
                "first move away the pieces that are to make room.",
            )
    start = s.pieces[pieces[0]].hex
    for p in pieces:
        ctx.put(p, ends[p])
        s.moved.add(p)
        ctx.entered(p, route[: reach[p]])
    for p in pieces:
        if ends[p] != dest:
            ctx.events.append(
                private(
                    kind="move",
                    text=f"{b.name(p)} lacks the MP to go on and stops in {ends[p]} (PFV 7).",
                    roles=[side],
                    piece=p,
                    hex=ends[p],
                )
            )
    if breakthrough:
        unit = next(p for p in pieces if b.is_unit(p))
        s.breakthrough[unit] = "moved"
    names = " and ".join(b.name(p) for p in pieces)
    kind = "breakthrough" if breakthrough else "move"
    ctx.mark(kind, side, [start] + route)
    ctx.log(
        kind,
        f"{names} {_verb(breakthrough, len(pieces))} {start} → {' → '.join(route)}.",
        reveals=_reveals(ctx, pieces, dest),
        about=pieces,
        others=f"{ctx.subject(pieces)} {_verb(breakthrough, len(pieces))} "
        f"{start} → {' → '.join(route)}.",
        pieces=pieces,
        path=[start] + route,
    )


def _verb(breakthrough: bool, n: int) -> str:
    if breakthrough:
        return "breaks through" if n == 1 else "break through"
    return "moves" if n == 1 else "move"


def _check_group(ctx: Ctx, pieces: list[str], side: str) -> None:
    b, s = ctx.board, ctx.state
    if len(set(pieces)) != len(pieces):
        raise refuse("PFV 8", "A piece is named twice in that move.")
    for p in pieces:
        if p not in b.counters:
            mine = sorted(
                q
                for q, pc in s.pieces.items()
                if pc.where == "map" and b.side(q) == side and not b.is_air(q)
            )
            raise refuse(
                "PFV 8",
                f"There is no piece called {p!r}.",
                f"Your pieces on the map: {listing(mine, 20)}.",
            )
        if b.side(p) != side:
            raise refuse("PFV 8", f"{b.name(p)} is an enemy piece; you move only your own.")
        if s.pieces[p].where != "map":
            raise refuse("PFV 8", f"{b.name(p)} is not on the map.")
        if b.is_air(p):
            raise refuse(
                "PFV 8",
                f"{b.name(p)} is an air support asset; air never moves in the movement phase.",
                "Air flies to battles when you attack (PFV 7 phase 3).",
            )
    hexes = {s.pieces[p].hex for p in pieces}
    if len(hexes) > 1:
        raise refuse("PFV 7", "Only pieces stacked in the same hex may move together.")
    if sum(1 for p in pieces if b.is_unit(p)) > 1:
        raise refuse("PFV 6", "Two units never share a hex, so they cannot move as one group.")


def _check_breakthrough_group(ctx: Ctx, pieces: list[str]) -> None:
    """PFV 15: in the combat phase only a breakthrough stack moves: the unit that earned the
    breakthrough and the general it is stacked with (and any support staying with them)."""
    b, s = ctx.board, ctx.state
    units = [p for p in pieces if b.is_unit(p)]
    eligible = sorted(u for u, st in s.breakthrough.items() if st == "eligible")
    if not units or s.breakthrough.get(units[0]) != "eligible":
        if units and s.breakthrough.get(units[0]) in ("moved", "used"):
            raise refuse("PFV 15", f"{b.name(units[0])} has already made its breakthrough move.")
        raise refuse(
            "PFV 15",
            "Pieces move in the combat phase only in a breakthrough, after a successful attack by a unit stacked with a general.",
            f"Units that may break through now: {listing([b.name(u) for u in eligible])}."
            if eligible
            else "No unit may break through now.",
        )
    if not any(b.is_general(p) for p in pieces):
        raise refuse(
            "PFV 15", "A breakthrough moves the unit together with its general; name both."
        )
    party = set(s.party.get(units[0], []))
    strangers = [p for p in pieces if not b.is_unit(p) and p not in party]
    if strangers:
        raise refuse(
            "PFV 15",
            f"{listing([b.name(p) for p in strangers])} did not break through with "
            f"{b.name(units[0])}; only pieces that stayed stacked with the general move again.",
        )


def _reveals(ctx: Ctx, pieces: list[str], dest: str) -> bool:
    """A unit ending next to an enemy stack lets its player look under the top piece (PFV 6)."""
    b, s = ctx.board, ctx.state
    if ctx.options.open_information or not any(b.is_unit(p) for p in pieces):
        return False
    stacks = b.stacks(s)
    foe = enemy(b.side(pieces[0]))
    return any(
        len(stacks.get(n, [])) > 1 and b.side(stacks[n][0]) == foe for n in b.grid.neighbours(dest)
    )


def over_stacked(ctx: Ctx) -> list[str]:
    """The over-stacked hexes, each with the reason (PFV 6)."""
    b = ctx.board
    problems = []
    for h, pieces in sorted(b.stacks(ctx.state).items()):
        why = b.stacking_problem(pieces)
        if why:
            problems.append(f"{h} ({why})")
    return problems


def end_movement(ctx: Ctx, order: Done) -> None:
    """End the movement phase: stacking is checked now, not in transit (PFV 6)."""
    s = ctx.state
    problems = over_stacked(ctx)
    if problems:
        raise refuse(
            "PFV 6",
            f"Stacking is checked at the end of movement, and {listing(problems)} is over-stacked.",
            "Move a piece that has not moved yet out of that hex, or take back a move.",
        )
    ctx.log("phase", f"The {SIDE_NAME[s.player]} movement phase ends.")
    s.phase = "combat"


def legal_moves(ctx: Ctx, breakthrough: bool = False) -> list[Move]:
    """Every single-piece move and group move that ends stack-legal and, when a hex is
    over-stacked already, leaves it a way to be put right (for autocomplete and random play:
    moves that leave a hex over-stacked until another piece moves are legal but not listed,
    and groups are listed going only where all of them arrive)."""
    b, s, opts = ctx.board, ctx.state, ctx.options
    side = s.player
    stacks = b.stacks(s)
    ezoc = b.zoc(s, enemy(side))
    out: list[Move] = []
    crowded = set() if breakthrough else {h for h, ps in stacks.items() if b.stacking_problem(ps)}
    reach: dict[str, list[str]] = {}
    groups: list[list[str]] = []
    for here in stacks.values():
        mine = [p for p in here if b.side(p) == side and not b.is_air(p)]
        if breakthrough:
            units = [p for p in mine if b.is_unit(p) and s.breakthrough.get(p) == "eligible"]
            if units:
                party = [p for p in mine if p in s.party.get(units[0], ())]
                if any(b.is_general(p) for p in party):
                    groups.append(units[:1] + party)
            continue
        mine = [p for p in mine if p not in s.moved]
        for p in mine:
            groups.append([p])
        unit = [p for p in mine if b.is_unit(p)]
        sas = [p for p in mine if not b.is_unit(p)]
        if len(mine) > 1:
            groups.append(unit + sas)
    for group in groups:
        start = s.pieces[group[0]].hex
        mf = min(movement_factor(b, s, p) for p in group)
        tree = reachable(b, opts, s, start, mf, side, breakthrough, stacks, ezoc)
        for dest in sorted(tree):
            if dest == start:
                continue
            if b.stacking_problem(stacks.get(dest, []) + group):
                continue
            if crowded:  # a hex is over-stacked already: keep its way out open (RULINGS R34)
                after = dict(stacks)
                after[start] = [p for p in stacks[start] if p not in group]
                after[dest] = stacks.get(dest, []) + group
                moved = s.moved | set(group)
                check = crowded | {start, dest}
                if unstacking_plan(b, opts, s, side, after, moved, reach, check)[0] is None:
                    continue
            path = []
            here: str | None = dest
            while here is not None and here != start:
                path.append(here)
                here = tree[here][1]
            out.append(Move(pieces=group, path=path[::-1]))
    return out
