"""Fleets' places, fuel and movement in the naval scenarios BIA7-BIA10 (17.0 Naval Rules,
L2536-2584; 3.4.2, L310-315).

A naval block is in port at a naval base (``port:HEX``), at sea in a numbered fleet
(``sea:BODY/fN``) or in a convoy box (``convoy:KEY``); see :mod:`engine.games.bia.fleet`.
It sails anywhere on a body of water it lies on (RULINGS B71), in fleets of at most five
blocks, and the fleets a power keeps at sea or in the convoy boxes need the fuel of its
activated Navy HQs and its Supreme Leader (RULINGS B70, B87).

Rulebook line numbers (``L123``) refer to ``shared/rules/003_19684674ce068529.txt``.
"""

from __future__ import annotations

from engine.games.bia import naval
from engine.games.bia.board import Board, enemy
from engine.games.bia.context import Ctx, refuse
from engine.games.bia.orders import Sail
from engine.games.bia.state import BlockState, State

#: the most blocks in one fleet (17.0, L2536)
FLEET_MAX = 5
SHIP_KINDS = frozenset(naval.CLASS)


def is_naval(board: Board, state: State) -> bool:
    return board.pack.scenario(state.scenario).kind == "naval"


def is_ship(board: Board, b: BlockState) -> bool:
    return board.block(b.id).kind in SHIP_KINDS


def afloat(board: Board, state: State, side: str | None = None) -> list[BlockState]:
    """The naval blocks (not the HQs) in play, of one side or both."""
    return [
        b for b in state.blocks.values()
        if b.where == "box" and is_ship(board, b) and (side is None or b.side == side)
    ]  # fmt: skip


def bodies(board: Board, place: str) -> tuple[str, ...]:
    """The bodies of water a place lies on (3.4.2, L373-380)."""
    kind, _, rest = place.partition(":")
    if kind == "port":
        return board.ports.get(rest, ())
    if kind == "sea":
        return (rest.split("/")[0],)
    if kind == "convoy":
        box = board.pack.strategic.convoy_boxes.get(rest)
        return (box.body,) if box else ()
    return ()


def fleets_out(
    board: Board, state: State, power: str, moved: BlockState | None = None, to: str = ""
) -> set[str]:
    """The places where ``power`` has a fleet at sea or in a convoy box, as they would be
    with ``moved`` sent to ``to``: each needs fuel (L2541-2547)."""
    out = set()
    for b in afloat(board, state):
        if board.block(b.id).power != power:
            continue
        at = to if b is moved else b.at
        if at.startswith(("sea:", "convoy:")):
            out.add(at)
    return out


def navy_hqs(board: Board, state: State, power: str | None = None) -> list[BlockState]:
    """The Navy HQs in play (in port), of one power or all."""
    return [
        b for b in state.blocks.values()
        if b.where == "box" and board.block(b.id).kind == "navy_hq"
        and (power is None or board.block(b.id).power == power)
    ]  # fmt: skip


def fuel(board: Board, state: State, power: str) -> int:
    """The fleets a power may keep At Sea or in the convoy boxes: one per AP of its Navy
    HQs activated this turn, their strength (L2544-2550; RULINGS B87), and one for its
    Supreme Leader, active in every turn (L2546, L1997-2004; RULINGS B70)."""
    active = state.naval.get("active", [])
    n = sum(board.block(b.id).values()[b.steps - 1] for b in navy_hqs(board, state, power)
            if b.id in active)  # fmt: skip
    leaders = board.pack.units.leaders.values()
    return n + sum(1 for x in leaders if x.power == power and x.kind == "supreme")


def ships_at(board: Board, state: State, place: str, power: str | None = None) -> list[BlockState]:
    return [
        b for b in afloat(board, state)
        if b.at == place and (power is None or board.block(b.id).power == power)
    ]  # fmt: skip


def _base_room(board: Board, state: State, hex_id: str) -> int:
    """A naval base holds 5 naval blocks in a major port, 1 in a minor (L2541, L354-358)."""
    cap = board.pack.tables.ports[board.hex(hex_id).port].naval_units
    return cap - len(ships_at(board, state, f"port:{hex_id}"))


def destinations(board: Board, state: State, b: BlockState, convoy_only: bool = False) -> list[str]:
    """Where a naval block may sail from its place (17.0; 3.4.2): anywhere on a body of
    water it lies on, no distance counted (RULINGS B71): a new fleet at sea
    (``sea:BODY``), a fleet of its power at sea, the convoy box of that body (joining the
    power's one fleet there), or a naval base of its side with room. A fleet holds at
    most five blocks (L2536); the fleets at sea and in convoy boxes need fuel (L2541)."""
    power = board.block(b.id).power
    out = []
    for body in bodies(board, b.at):
        places = [
            f"convoy:{k}"
            for k, box in board.pack.strategic.convoy_boxes.items()
            if box.body == body
        ]
        if not convoy_only:
            places += [f"sea:{body}"]
            places += sorted({x.at for x in afloat(board, state) if x.at.startswith(f"sea:{body}/")
                              and board.block(x.id).power == power})  # fmt: skip
            places += [
                f"port:{h}" for h, bs in sorted(board.ports.items())
                if body in bs and state.control.get(h) == b.side and _base_room(board, state, h) > 0
            ]  # fmt: skip
        for p in places:
            if p == b.at or (
                p == f"sea:{body}"
                and b.at.startswith("sea:")
                and len(ships_at(board, state, b.at)) == 1
            ):
                continue  # nowhere, or a fleet of one splitting from itself
            if (
                not p.startswith("port:")
                and p != f"sea:{body}"
                and len(ships_at(board, state, p, power)) >= FLEET_MAX
            ):
                continue
            target = p if p != f"sea:{body}" else f"sea:{body}/new"
            if not convoy_only and _beyond_fuel(board, state, power, b, target):
                continue
            if p not in out:
                out.append(p)
    return out


def _beyond_fuel(board: Board, state: State, power: str, b: BlockState, to: str) -> bool:
    """Whether sending ``b`` to ``to`` adds a fleet out beyond the power's fuel
    (L2541-2547; RULINGS B87). A move that adds none stays possible: fleets already out
    with no fuel for them stay where they are and may come home or merge (the Crete
    example sends a fleet back to port to free its fuel, L2674-2677). Joining a convoy
    box in Strategic Warfare needs no AP (L2581-2585) and is not checked."""
    after = len(fleets_out(board, state, power, b, to))
    return after > fuel(board, state, power) and after > len(fleets_out(board, state, power))


def sail_orders(ctx: Ctx, role: str) -> list[Sail]:
    """The Sail orders ``role`` may give now: in its Movement Phase any of its ships not
    moved yet; in Strategic Warfare the ships that may join a convoy box (L2558-2563)."""
    s, board = ctx.state, ctx.board
    out = []
    for b in sorted(afloat(board, s, role), key=lambda x: x.id):
        if s.phase == "movement":
            if b.id not in s.moved:
                out.extend(Sail(block=b.id, to=p) for p in destinations(board, s, b))
        elif s.phase == "strategic_warfare" and b.id not in s.moved and _joins_convoy(ctx, b):
            out.extend(Sail(block=b.id, to=p) for p in destinations(board, s, b, convoy_only=True))
    return out


def _joins_convoy(ctx: Ctx, b: BlockState) -> bool:
    """Which ships enter a convoy box in Strategic Warfare (L2558-2563, L2580-2584): the
    non-phasing side's submarines and carriers at sea, then the phasing side's carriers
    at sea."""
    s = ctx.state
    kind = ctx.board.block(b.id).kind
    if not b.at.startswith("sea:"):
        return False
    if s.naval.get("sw") == "enemy":
        return b.side == enemy(s.player) and kind in ("ss", "cv")
    return s.naval.get("sw") == "own" and b.side == s.player and kind == "cv"


def apply_sail(ctx: Ctx, order: Sail) -> None:
    """Move one naval block (17.0): one move per block per phase (as 7.5, RULINGS B7)."""
    s, board = ctx.state, ctx.board
    b = s.blocks.get(order.block) or s.by_token(order.block.upper())
    role = (
        s.player
        if s.phase == "movement"
        else (enemy(s.player) if s.naval.get("sw") == "enemy" else s.player)
    )
    if b is None or b.side != role or b.where != "box" or not is_ship(board, b):
        raise refuse("BIA 17.0", "Name one of your naval blocks in play (its id or token).")
    to = _place(order.to, b)
    legal = [o.to for o in sail_orders(ctx, role) if o.block == b.id]
    if to not in legal:
        why = ("in Strategic Warfare only submarines and carriers at sea join a convoy box "
               "(L2558-2563)" if s.phase == "strategic_warfare" else
               "a naval block moves once a phase, on a body of water it lies on, to a fleet of at "
               "most five blocks, a friendly naval base with room, and within its Navy HQ's fuel "
               "(L2536-2547)")  # fmt: skip
        raise refuse("BIA 17.0", f"{b.token} may not sail to {order.to}: {why}.",
                     f"It may sail to: {', '.join(legal) or 'nowhere'}.")  # fmt: skip
    if to.startswith("sea:") and "/" not in to:
        s.naval["fleets"] = s.naval.get("fleets", 0) + 1
        to = f"{to}/f{s.naval['fleets']}"
    b.at = to
    s.moved.append(b.id)


def _place(text: str, b: BlockState) -> str:
    """An order's destination as a place: a port hex, a convoy box key, ``sea`` or
    ``sea:BODY``, or a fleet at sea (``sea:mediterranean/f2`` or ``f2``)."""
    t = text.strip().lower()
    if t.isdigit() and len(t) == 4:
        return f"port:{t}"
    if t.startswith(("port:", "convoy:", "sea:")):
        return t
    if t == "sea" and b.at:
        return f"sea:{b.at.split(':')[1].split('/')[0]}" if b.at.startswith("sea:") else t
    if t.startswith("f") and t[1:].isdigit() and b.at.startswith("sea:"):
        return f"sea:{b.at.split(':')[1].split('/')[0]}/f{t[1:]}"
    return f"convoy:{t}"
