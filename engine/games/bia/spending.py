"""Spending Production Points in the Production Phase (7.3, L1040-1099; 7.3.2, L1159-1212;
7.3.6, L1266-1271): repairing steps of supplied blocks, rebuilding eliminated ones and
disbanding. SRM's yellow PP is paid in :mod:`engine.games.bia.srm`.

Every order names one of the phasing side's own blocks; a name that is not one gets the
same sentence whoever it belongs to (1.3).

Rulebook line numbers (``L123``) refer to ``shared/rules/003_19684674ce068529.txt``.
"""

from __future__ import annotations

from collections import deque

from engine.core.errors import IllegalOrder
from engine.core.events import private
from engine.games.bia import ledger, supply
from engine.games.bia.board import TOKEN_TAG, Board
from engine.games.bia.context import Ctx, own_block, refuse
from engine.games.bia.orders import Disband, Rebuild, Repair
from engine.games.bia.srm import rail_graph
from engine.games.bia.state import BlockState, State

#: the digest's rebuild site of the Free French brigade (RULINGS B35)
FREE_FRENCH_SITE = "Beirut"


def _supplied(b: BlockState) -> bool:
    """On the map without the white barrel, or in a Strategic Map box (RULINGS B12)."""
    return (b.where == "map" and not b.oos) or b.where == "box"


def port_linked(board: Board, state: State, hex_id: str, side: str) -> bool:
    """The desert limit's test (7.3, L1048-1053): a controlled port, or a rail hex joined
    by rail through controlled hexes free of enemy units to a controlled port. A besieged
    port (L359-361; RULINGS B53) links nothing: cut off from the sea, it is no port to
    the limit (RULINGS B33)."""

    def ok(h: str) -> bool:
        foes = any(x.side != side for x in state.at_hex(h))
        return state.control.get(h) == side and not foes

    barred = supply.enemy_presence(board, state, side)
    graph = rail_graph(board)
    seen, todo = {hex_id}, deque([hex_id])
    while todo:
        h = todo.popleft()
        if h in board.ports and ok(h) and not supply.besieged(board, state, h, side, barred):
            return True
        for n in graph.get(h, ()):
            if n not in seen and ok(n):
                seen.add(n)
                todo.append(n)
    return False


# -- repair ---------------------------------------------------------------------------------


def check_repair(ctx: Ctx, order: Repair) -> tuple[BlockState, str, dict[str, int]]:
    """7.3 (L1040-1047, L710-712): one more edge for a supplied block of the phasing side,
    up to its full strength, paid by edge colour and pairing (:func:`ledger.step_cost`).
    In AFRIKA the last edge is bought only in a controlled port or on rail joined to one
    (L1048-1053, RULINGS B33). Nothing is bought once disbanding has begun (7.3.6)."""
    s, board = ctx.state, ctx.board
    b = own_block(ctx, order.block, "BIA 7.3", None)
    block = board.block(b.id)
    _before_disbanding(ctx)
    if b.where not in ("map", "box") or not _supplied(b):
        raise refuse(
            "BIA 7.3", f"{ctx.name(b)} is not a supplied block in play; only those are repaired."
        )
    if b.steps >= len(block.track):
        raise refuse("BIA 7.3", f"{ctx.name(b)} is at full strength.")
    cost = ledger.step_cost(board, block, b.steps + 1)
    if cost is None:
        raise refuse("BIA 7.3.1", f"The next edge of {ctx.name(b)} cannot be bought (a blue "
                     "edge, or the Italian motorized fourth edge).")  # fmt: skip
    last = b.steps + 1 == len(block.track)
    if last and b.where == "map" and not port_linked(board, s, b.at, b.side):
        raise refuse("BIA 7.3", f"{ctx.name(b)} may reach full strength only in a controlled "
                     "port or on a railway joined to one (Desert limited production).")  # fmt: skip
    power = _paying(ctx, b, cost)
    return b, power, cost


def _paying(ctx: Ctx, b: BlockState, cost: dict[str, int]) -> str:
    board, s = ctx.board, ctx.state
    power = ledger.payer(board, s, board.block(b.id).power)
    if not ledger.can_pay(s, power, cost):
        have = ledger.show(s.pp.get(power or "", {}))
        raise refuse("BIA 7.3.1", f"That costs {ledger.show(cost)} PP; you hold {have}.")
    return power


def _before_disbanding(ctx: Ctx) -> None:
    if ctx.state.disbanded:
        raise refuse("BIA 7.3.6", "Disbanding comes after all production: nothing more may "
                     "be bought this phase.")  # fmt: skip


def apply_repair(ctx: Ctx, order: Repair) -> None:
    b, power, cost = check_repair(ctx, order)
    ledger.pay(ctx.state, power, cost)
    b.steps += 1
    ctx.events.append(
        private(
            "repair",
            f"{ctx.name(b)} is repaired to edge {b.steps} for {ledger.show(cost)} PP.",
            (b.side,),
        )  # fmt: skip
    )


# -- rebuild -------------------------------------------------------------------------------


def sites(ctx: Ctx, b: BlockState) -> list[str]:
    """7.3.2 (L1159-1212): where an eliminated block may come back. German, Italian and
    British blocks in their home box (L1104-1108); resident static infantry in any
    controlled AFRIKA major port (L1138-1139, L1211-1212); the Wilson Force and the 21st
    Indian in an Indian Ocean port (L1209-1210, L479-482); the Free French brigade at
    Beirut (RULINGS B35); minor powers at their capitals. A hex must be controlled, a
    supply source of the power (4.2) and have room: 1 new block a hex, 2 in a capital,
    counting this phase's arrivals (L1165-1169)."""
    s, board = ctx.state, ctx.board
    block = board.block(b.id)
    pack = board.pack
    if block.resident and block.kind == "static":
        names = [h.id for h in pack.map.hexes if h.port == "major" and board.in_afrika(h.id)]
    elif block.wilson or b.id == "uk_21ind":
        names = [pack.places[p] for p in pack.strategic.indian_ocean_ports if p in pack.places]
    else:
        boxes = [
            f"box:{k}" for k, box in pack.strategic.boxes.items()
            if box.kind == "home" and box.power == block.power
        ]  # fmt: skip
        if boxes:
            return boxes
        if block.power == "free_france":
            names = [pack.places[FREE_FRENCH_SITE]] if FREE_FRENCH_SITE in pack.places else []
        else:
            names = [h for h in board.main_sources(block.power) if not h.startswith("box:")]
    src = supply.sources(board, s, block.power)
    limits = pack.tables.stacking
    out = []
    for h in sorted(set(names)):
        room = (limits.new_units_per_capital if board.hex(h).locality == "capital"
                else limits.new_units_per_hex)  # fmt: skip
        if s.control.get(h) == b.side and h in src and s.arrivals.get(h, 0) < room:
            out.append(h)
    return out


def check_rebuild(ctx: Ctx, order: Rebuild) -> tuple[BlockState, str, str, dict[str, int]]:
    """7.3 (L1045, L1059): an eliminated block comes back on its weakest edge, paid as that
    edge (its other edges are repairs, RULINGS B36); a blue first edge never comes back; a
    block disbanded this phase only from the next turn (L1269)."""
    s, board = ctx.state, ctx.board
    b = own_block(ctx, order.block, "BIA 7.3", None)
    _before_disbanding(ctx)
    if b.where != "dead" or b.id in s.disbanded:
        raise refuse(
            "BIA 7.3", f"{ctx.name(b)} is not an eliminated block that may be rebuilt now."
        )
    cost = ledger.step_cost(board, board.block(b.id), 1)
    if cost is None:
        raise refuse("BIA 7.3.1", f"{ctx.name(b)} has a blue cadre and is never rebuilt.")
    places = sites(ctx, b)
    if order.at is None:
        at = places[0] if len(places) == 1 else None
        if at is None:
            raise refuse("BIA 7.3.2", f"Say where {ctx.name(b)} comes back ('rebuild BLOCK HEX').",
                         f"It may come back at: {', '.join(places) or 'nowhere this turn'}.")  # fmt: skip
    elif order.at in places:
        at = order.at
    else:
        raise refuse("BIA 7.3.2", f"{ctx.name(b)} may not come back at {ctx.where(order.at)}.",
                     f"It may come back at: {', '.join(places) or 'nowhere this turn'}.")  # fmt: skip
    return b, at, _paying(ctx, b, cost), cost


def apply_rebuild(ctx: Ctx, order: Rebuild) -> None:
    """A rebuilt block takes a fresh public token (RULINGS B37)."""
    b, at, power, cost = check_rebuild(ctx, order)
    s = ctx.state
    ledger.pay(s, power, cost)
    b.steps, b.oos, b.revealed = 1, False, False
    if at.startswith("box:"):
        b.where, b.at = "box", at[4:]
        place = ctx.board.pack.strategic.boxes[b.at].name
    else:
        b.where, b.at = "map", at
        s.arrivals[at] = s.arrivals.get(at, 0) + 1
        place = ctx.where(at)
    b.token = _fresh_token(ctx.board, s, b)
    ctx.events.append(
        private(
            "rebuild",
            f"{ctx.name(b)} is rebuilt at {place} for {ledger.show(cost)} PP.",
            (b.side,),
            f"A new block, {b.token}, is placed at {place}.",
        )  # fmt: skip
    )


def _fresh_token(board: Board, s: State, b: BlockState) -> str:
    tag = TOKEN_TAG.get(board.block(b.id).power, "XX")
    used = [int(x.token.split("-")[1]) for x in s.blocks.values() if x.token.startswith(tag + "-")]
    return f"{tag}-{max(used, default=0) + 1:02d}"


# -- disband -------------------------------------------------------------------------------


def check_disband(ctx: Ctx, order: Disband) -> BlockState:
    """7.3.6 (L1266-1271): after all purchases, a supplied block of the phasing side may
    be disbanded for 1 yellow PP; it may be rebuilt from the next turn."""
    b = own_block(ctx, order.block, "BIA 7.3.6", None)
    if b.where not in ("map", "box") or not _supplied(b):
        raise refuse(
            "BIA 7.3.6", f"{ctx.name(b)} is not a supplied block in play; only those are disbanded."
        )
    return b


def apply_disband(ctx: Ctx, order: Disband) -> None:
    b = check_disband(ctx, order)
    s, board = ctx.state, ctx.board
    was = b.at if b.where == "map" else board.pack.strategic.boxes[b.at].name
    b.where, b.at, b.oos = "dead", None, False
    s.disbanded.append(b.id)
    seen = s.fresh.pop(b.id, None) is None  # a fresh arrival, unseen by the others (B100)
    power = ledger.payer(board, s, board.block(b.id).power)
    if power is not None:
        ledger.credit(s, power, {"yellow": 1})
    ctx.events.append(
        private(
            "disband",
            f"{ctx.name(b)} is disbanded at {was}: 1 yellow PP (7.3.6).",
            (b.side,),
            f"{b.token} is disbanded at {was}." if seen else None,
        )  # fmt: skip
    )


# -- what may be ordered ---------------------------------------------------------------------


def orders(ctx: Ctx) -> list:
    """Every repair, rebuild and disband the phasing side may order now."""
    s = ctx.state
    mine = sorted((b for b in s.blocks.values() if b.side == s.player), key=lambda b: b.id)
    out: list = []
    for b in mine:
        tries: list = []
        if b.where in ("map", "box"):
            tries = [Repair(block=b.id)]
        elif b.where == "dead" and not s.disbanded:
            tries = [Rebuild(block=b.id, at=None if h.startswith("box:") else h)
                     for h in sites(ctx, b)]  # fmt: skip
        for o in tries:
            try:
                (check_repair if isinstance(o, Repair) else check_rebuild)(ctx, o)
            except IllegalOrder:
                continue
            out.append(o)
    out += [Disband(block=b.id) for b in mine if b.where in ("map", "box") and _supplied(b)]
    return out
