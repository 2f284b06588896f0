"""PFV 5, Set-up: the Allied player sets up first, then the Axis player.

Pieces with a printed set-up hex (the Para Brigade at Bone, Broich at 8306, La Spezia,
the Marines and Messe at Mareth) are placed automatically: the player has no choice.
Every other piece is placed with ``place PIECE HEX``, or all at once with ``auto``.
"""

from __future__ import annotations

from engine.core.events import private
from engine.core.hexgrid import cube, distance
from engine.games.pfv.board import Board
from engine.games.pfv.context import SIDE_NAME, Ctx, listing, refuse
from engine.games.pfv.options import Options
from engine.games.pfv.orders import Auto, Done, Place
from engine.games.pfv.state import ALLIED, AXIS, State


def setup_pieces(board: Board, state: State, side: str) -> list[str]:
    """The pieces ``side`` sets up (PFV 5): no battlegroups, no two-star pieces, not Patton."""
    cache = board.cache.setdefault("setup-pieces", {})
    if side not in cache:
        cache[side] = _setup_pieces(board, side)
    return cache[side]


def _setup_pieces(board: Board, side: str) -> list[str]:
    out = []
    for pid, c in board.counters.items():
        if c.side != side or c.kind == "battlegroup" or "two_star" in c.tags:
            continue
        if pid == board.scenario.patton:
            continue
        out.append(pid)
    return sorted(out)


def unplaced(board: Board, state: State, side: str) -> list[str]:
    return [p for p in setup_pieces(board, state, side) if state.pieces[p].where == "pool"]


def zone(board: Board, piece_id: str, options: Options) -> tuple[list[str], str]:
    """The hexes a piece may be set up in, ignoring other pieces, and the rule that says so."""
    cache = board.cache.setdefault(f"setup-zone-{options.axis_setup_in_8821}", {})
    if piece_id not in cache:
        cache[piece_id] = _zone(board, piece_id, options)
    return cache[piece_id]


def _zone(board: Board, piece_id: str, options: Options) -> tuple[list[str], str]:
    c = board.counter(piece_id)
    land = [h for h in board.map.hex if board.map.land[h] and board.enter_cost(h) is not None]
    if c.fixed_hex:
        return [c.fixed_hex], f"{c.name} sets up in {c.fixed_hex}"
    airbase = set(board.scenario.eighth_army_hexes) & set(board.airfields[ALLIED])
    if c.side == ALLIED:
        if c.kind == "air":
            hexes = [
                h for h in board.airfields[ALLIED] if board.region(h) == "algeria" or h in airbase
            ]
            return hexes, "Allied air sets up on an Allied airfield in Algeria or at the airbase"
        if "8th_army" in c.tags:
            return list(board.crest_8th), "8th Army pieces set up in the 8th Army hexes"
        if "ii_corps" in c.tags:
            return list(board.crest_ii), "II Corps pieces set up in the II Corps hexes"
        hexes = [h for h in land if board.region(h) == "algeria"]
        if c.near_hex and c.within is not None:
            hexes = [h for h in hexes if distance(h, c.near_hex) <= c.within]
            return hexes, f"{c.name} sets up in Algeria within {c.within} hexes of {c.near_hex}"
        return hexes, "Allied pieces set up in Algeria"
    if c.kind == "air":
        hexes = [h for h in board.airfields[AXIS] if board.region(h) == "tunisia"]
        hexes = [h for h in hexes if h not in board.crest_8th and h not in board.crest_ii]
        return hexes, "Axis air sets up on an Axis airfield in Tunisia"
    # L60 keeps the Axis out of the 8th Army and II Corps hexes only; L226 names the airbase
    # 8821 apart from the 8th Army hexes, so it is open to the Axis (RULINGS R26).
    banned = set(board.crest_8th) | set(board.crest_ii) | set(board.scenario.eighth_army_hexes)
    if options.axis_setup_in_8821:
        banned -= airbase - set(board.crest_8th) - set(board.crest_ii)
        return (
            [h for h in land if board.region(h) == "tunisia" and h not in banned],
            "Axis pieces set up in Tunisia, outside the 8th Army and II Corps hexes",
        )
    hexes = [h for h in land if board.region(h) == "tunisia" and h not in banned]
    return hexes, (
        "Axis pieces set up in Tunisia, outside the 8th Army and II Corps hexes and the "
        "airbase (RULINGS R26)"
    )


def placement_problem(
    ctx: Ctx, piece_id: str, hex_id: str, stacks: dict[str, list[str]] | None = None
) -> str | None:
    """Why ``piece_id`` may not be set up in ``hex_id`` now, or ``None``."""
    b, s = ctx.board, ctx.state
    hexes, rule = zone(b, piece_id, ctx.options)
    if hex_id not in hexes:
        return rule
    stacks = b.stacks(s) if stacks is None else stacks
    here = stacks.get(hex_id, [])
    if here and b.side(here[0]) != b.side(piece_id):
        return "a piece may not set up in a hex held by the enemy"
    why = b.stacking_problem(here + [piece_id])
    if why:
        return why
    return reservation_problem(ctx, piece_id, hex_id, stacks)


def reservation_problem(
    ctx: Ctx, piece_id: str, hex_id: str, stacks: dict[str, list[str]]
) -> str | None:
    """Placements that would leave a later piece with nowhere legal to go (PFV 5)."""
    b, s = ctx.board, ctx.state
    side = b.side(piece_id)
    rest = [p for p in unplaced(b, s, side) if p != piece_id]
    c = b.counter(piece_id)
    if "ii_corps" in c.tags:
        uncovered = [
            h
            for h in b.crest_ii
            if not any("ii_corps" in b.counter(p).tags for p in stacks.get(h, []))
        ]
        left = [p for p in rest if "ii_corps" in b.counter(p).tags]
        still = [h for h in uncovered if h != hex_id]
        if len(still) > len(left):
            return f"every II Corps hex needs a II Corps piece, and {listing(still)} would be left without one"
    constrained = [p for p in rest if b.counter(p).fixed_hex or b.counter(p).near_hex]
    if not constrained:
        return None
    after = dict(stacks)
    after[hex_id] = stacks.get(hex_id, []) + [piece_id]
    for other in constrained:
        oc = b.counter(other)
        hexes, _ = zone(b, other, ctx.options)
        if not any(b.stacking_problem(after.get(h, []) + [other]) is None for h in hexes):
            return f"{oc.name} would have no legal set-up hex left"
    return None


def legal_placements(ctx: Ctx, piece_id: str) -> list[str]:
    hexes, _ = zone(ctx.board, piece_id, ctx.options)
    stacks = ctx.board.stacks(ctx.state)
    return [h for h in sorted(hexes) if placement_problem(ctx, piece_id, h, stacks) is None]


def place_fixed(ctx: Ctx, side: str) -> None:
    """Pieces with a printed set-up hex go there at once (PFV 5)."""
    for pid in unplaced(ctx.board, ctx.state, side):
        c = ctx.board.counter(pid)
        if c.fixed_hex:
            ctx.put(pid, c.fixed_hex)
            ctx.entered(pid, [c.fixed_hex])
            log_setup(ctx, pid, f"{c.fixed_hex}, as the rules require (PFV 5)")


def log_setup(ctx: Ctx, pid: str, where: str) -> None:
    """A set-up placement, read whole by its side only when it is a support asset: a unit is
    always the top piece, but a support placed now may be covered by the next placement, so
    the other side reads only that a support asset went there (PFV 5, PFV 6 L70; RULINGS R38)."""
    b = ctx.board
    hex_id = ctx.state.pieces[pid].hex
    text = f"{b.name(pid)} sets up in {where}."
    if b.is_unit(pid) or ctx.options.open_information:
        ctx.log("setup", text, piece=pid, hex=hex_id)
        return
    side = b.side(pid)
    others = f"An {SIDE_NAME[side]} support asset sets up in {where}."
    ctx.events.append(private("setup", text, [side], others, piece=pid, hex=hex_id))


def place(ctx: Ctx, order: Place) -> None:
    """``place PIECE HEX`` during set-up (PFV 5)."""
    b, s = ctx.board, ctx.state
    pid = order.piece
    side = s.player
    if pid not in b.counters:
        raise refuse(
            "PFV 5",
            f"There is no piece called {pid!r}.",
            f"Pieces to set up: {listing(unplaced(b, s, side))}.",
        )
    if b.side(pid) != side:
        raise refuse(
            "PFV 5",
            f"{b.name(pid)} is not a {SIDE_NAME[side]} piece; the {SIDE_NAME[side]} player is setting up.",
        )
    if pid not in setup_pieces(b, s, side):
        raise refuse(
            "PFV 5",
            f"{b.name(pid)} is not set up at the start: battlegroups, two-star pieces and Patton enter later.",
        )
    if s.pieces[pid].where != "pool":
        raise refuse("PFV 5", f"{b.name(pid)} is already set up in {s.pieces[pid].hex}.")
    if order.hex not in b.map.hex:
        raise refuse("PFV 3", f"{order.hex} is not a hex of the map.")
    why = placement_problem(ctx, pid, order.hex)
    if why:
        legal = legal_placements(ctx, pid)
        raise refuse(
            "PFV 5",
            f"{b.name(pid)} may not set up in {order.hex}: {why}.",
            f"Legal hexes: {listing(legal)}.",
        )
    ctx.put(pid, order.hex)
    ctx.entered(pid, [order.hex])  # a unit set up in a hex occupies it (PFV 17, R26)
    log_setup(ctx, pid, order.hex)


def auto(ctx: Ctx, order: Auto) -> None:
    """Set up every remaining piece of the side: in the scenario's default (historical) hex
    where that is still legal, otherwise in the legal hex nearest the front, supports beside
    a unit where they can (PFV 5, L50-62: each placement obeys the zones and stacking
    that ``place`` checks; the choice of hex is ours, the rulebook having no ``auto``).

    The map's stacks are kept up to date as pieces go down rather than counted again for
    each piece, and each hex's distance to the front is worked out once (the Allied front,
    Tunisia, once per board): the same choices as counting everything again, at a fraction
    of the cost (issue 16: ``auto`` took about 10 ms on a crowded set-up)."""
    b, s = ctx.board, ctx.state
    side = s.player
    if side == ALLIED:
        near = _near_front(b, b.cache.setdefault("setup-front-allied", {}), _allied_front(b))
    else:
        front = [
            p.hex for p in s.pieces.values() if p.where == "map" and b.side(p.id) == ALLIED
        ] or [h for h in b.map.hex if b.map.land[h] and b.region(h) == "algeria"]
        near = _near_front(b, {}, front)

    def priority(pid: str) -> tuple[int, str]:
        c = b.counter(pid)
        rank = 0 if "ii_corps" in c.tags else 1 if c.near_hex else 2 if b.is_unit(pid) else 3
        return rank, pid

    stacks = b.stacks(s)
    for pid in sorted(
        unplaced(b, s, side), key=lambda p: (p not in b.scenario.default_setup, priority(p))
    ):
        preferred = b.scenario.default_setup.get(pid)
        if preferred and placement_problem(ctx, pid, preferred, stacks) is None:
            _put_down(ctx, stacks, pid, preferred)
            continue
        hexes, _ = zone(b, pid, ctx.options)
        options = [h for h in sorted(hexes) if placement_problem(ctx, pid, h, stacks) is None]
        if not options:
            raise refuse(
                "PFV 5",
                f"{b.name(pid)} has no legal set-up hex left.",
                "Place it by hand, or undo.",
            )
        best = min(options, key=_default_hex_score(b, pid, stacks, near))
        _put_down(ctx, stacks, pid, best)


def _put_down(ctx: Ctx, stacks: dict[str, list[str]], pid: str, hex_id: str) -> None:
    """Set ``pid`` up in ``hex_id`` (PFV 5) and add it to ``stacks``, in the order
    :meth:`Board.stacks` gives (units first: RULINGS R3)."""
    b = ctx.board
    ctx.put(pid, hex_id)
    ctx.entered(pid, [hex_id])
    log_setup(ctx, pid, hex_id)
    stacks[hex_id] = sorted(
        [*stacks.get(hex_id, []), pid], key=lambda p: (not b.is_unit(p), b.is_air(p), p)
    )


def _allied_front(b: Board) -> list[str]:
    """Where the Allies' ``auto`` set-up leans towards: the land of Tunisia."""
    return [h for h in b.map.hex if b.map.land[h] and b.region(h) == "tunisia"]


def _near_front(b: Board, known: dict[str, int], front: list[str]):
    """``near(hex)``: the fewest hexes from ``hex`` to one of ``front`` (0 with no front),
    each worked out once into ``known``."""
    cubes = [cube(f) for f in dict.fromkeys(front)]

    def near(h: str) -> int:
        found = known.get(h)
        if found is None:
            x, y, z = cube(h)
            found = known[h] = min(
                (max(abs(x - fx), abs(y - fy), abs(z - fz)) for fx, fy, fz in cubes), default=0
            )
        return found

    return near


def _default_hex_score(b: Board, pid: str, stacks: dict[str, list[str]], near):
    """Units prefer empty hexes near the front; supports prefer a hex with a friendly unit."""
    is_unit = b.is_unit(pid)

    def score(h: str) -> tuple[int, int, int, str]:
        here = stacks.get(h, [])
        crowded = len(here)
        lonely = 0 if (not is_unit and any(b.is_unit(p) for p in here)) else 1
        return (crowded if is_unit else lonely), near(h), crowded, h

    return score


def done(ctx: Ctx, order: Done) -> None:
    """End a side's set-up: everything placed, every II Corps hex holding a II Corps piece."""
    b, s = ctx.board, ctx.state
    side = s.player
    left = unplaced(b, s, side)
    if left:
        raise refuse(
            "PFV 5",
            f"{len(left)} piece(s) are not set up yet: {listing([p for p in left])}.",
            "Place them, or type 'auto' to set them up in default hexes.",
        )
    if side == ALLIED:
        stacks = b.stacks(s)
        empty = [
            h
            for h in b.crest_ii
            if not any("ii_corps" in b.counter(p).tags for p in stacks.get(h, []))
        ]
        if empty:
            raise refuse(
                "PFV 5",
                f"Every II Corps hex needs at least one II Corps piece; {listing(empty)} has none.",
            )
        ctx.log("phase", "The Allied player has set up. The Axis player sets up next (PFV 5).")
        s.player = AXIS
        place_fixed(ctx, AXIS)
        return
    ctx.log("phase", "Both sides are set up. Game turn 1 begins with the Axis player turn (PFV 7).")
    s.turn, s.player, s.phase = 1, AXIS, "move"
