"""PFV 8 Movement and PFV 9 Zones of control, with the breakthrough move of PFV 15.

A move names the hexes entered, in order (``move 10pz 8213 8313``), or only the
destination, in which case the cheapest legal path is taken. Pieces stacked together may
move as one group (``move 10pz,rommel ...``, PFV 7 phase 1); each pays its own way.
"""

from __future__ import annotations

import heapq

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
    mf = min(movement_factor(b, s, p) for p in pieces)
    stacks = b.stacks(s)
    ezoc = b.zoc(s, enemy(side))
    names = " and ".join(b.name(p) for p in pieces)
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
                "A piece may always move one hex, but no further once it lacks the MP.",
            )
        if nxt in ezoc and not breakthrough and i < len(path) - 1:
            raise refuse(
                "PFV 9",
                f"{nxt} is in an enemy zone of control, so the move must end there.",
                f"Stop at {nxt}.",
            )
        here = nxt
    return list(path)


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
    if breakthrough:
        stacks = b.stacks(s)
        staying = [p for p in stacks.get(dest, []) if p not in pieces]
        why = b.stacking_problem(staying + pieces)
        if why:
            raise refuse("PFV 6", f"{dest} would be over-stacked: {why}.")
    start = s.pieces[pieces[0]].hex
    for p in pieces:
        ctx.put(p, dest)
        s.moved.add(p)
        ctx.entered(p, route)
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


def end_movement(ctx: Ctx, order: Done) -> None:
    """End the movement phase: stacking is checked now, not in transit (PFV 6)."""
    b, s = ctx.board, ctx.state
    problems = []
    for h, pieces in sorted(b.stacks(s).items()):
        why = b.stacking_problem(pieces)
        if why:
            problems.append(f"{h} ({why})")
    if problems:
        raise refuse(
            "PFV 6",
            f"Stacking is checked at the end of movement, and {listing(problems)} is over-stacked.",
            "Move a piece that has not moved yet out of that hex, or take back a move.",
        )
    ctx.log("phase", f"The {SIDE_NAME[s.player]} movement phase ends.")
    s.phase = "combat"


def legal_moves(ctx: Ctx, breakthrough: bool = False) -> list[Move]:
    """Every single-piece move and group move that ends stack-legal (for autocomplete and
    random play: moves that leave a hex over-stacked until another piece moves are legal
    but not listed)."""
    b, s, opts = ctx.board, ctx.state, ctx.options
    side = s.player
    stacks = b.stacks(s)
    ezoc = b.zoc(s, enemy(side))
    out: list[Move] = []
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
            path = []
            here: str | None = dest
            while here is not None and here != start:
                path.append(here)
                here = tree[here][1]
            out.append(Move(pieces=group, path=path[::-1]))
    return out
