"""Phase 4, Strategic Rail Movement (7.4, L1223-1241, L1273-1297).

One unit per nation a turn (L1277-1278; RULINGS B23, B80), ground or air (L1281-1283),
in supply since the Supply Phase, on a rail hex of its side not next to an enemy unit,
moves any distance along friendly rail (L1279-1285, L1229-1236). Coastal submarines and
destroyers are eligible at 2 SRM a step (L1284), more than a nation's one: refused (RULINGS
B96). The Strategic Map's rail
counts: the Berlin-Rome link and the arrows off the north edge, so a unit in the Rome or
Berlin box reaches Taranto or Athens by rail (L1287-1289, L2005-2009; RULINGS B80).

It is paid with a yellow PP (``rail BLOCK HEX``) or, under the advanced rules, with an
AP (``rail BLOCK HEX LEADER``, L1227, L1279-1280): a Supreme Leader's one free SRM of the
turn (L1940-1951, recorded in ``state.leader_ap`` as kind ``srm``), Goering's for a German
air unit (L1987-1992), or the ME Air Command's for a British air unit (L2080-2092), which
activates that HQ (AR 11.4). The SRM example (L2005-2009): Hitler's AP rails the LA from
Berlin to Taranto, his second ships it to Bengasi in the Movement Phase (sea.py).

Rulebook line numbers (``L123``) refer to ``shared/rules/003_19684674ce068529.txt``.
"""

from __future__ import annotations

from collections import deque
from functools import cache

from engine.core.errors import IllegalOrder
from engine.core.events import private
from engine.games.bia import combat, fuel, hq, ledger, sea, special, supply
from engine.games.bia.board import Board, enemy
from engine.games.bia.context import Ctx, own_block, refuse
from engine.games.bia.movement import _check_stacking, is_ground
from engine.games.bia.orders import Rail
from engine.games.bia.pack import neighbours
from engine.games.bia.state import BlockState, State

RULE = "BIA 7.4"
#: what one SRM costs in PP (7.4, L1226-1227)
SRM_COST = {"yellow": 1}
#: the home boxes on the Strategic Map's rail (L1287-1289; strategic.json's rail links)
HOME_RAIL = ("rome", "berlin")
#: the HQs on the map whose AP pay an SRM of their power's units, and whether of air units
#: only: the ME Air Command (L2080-2092) and a minor power's Supreme HQ (7.4, L1276-1279)
SRM_HQS = {"strategic_air_hq": True, "minor_shq": False}
#: the SRM a nation has a turn in BIA (L1277-1278; RULINGS B23, B80)
SRM_PER_NATION = 1
#: the SRM a coastal submarine or a destroyer costs per step (L1284; RULINGS B96)
SHIP_SRM_PER_STEP = 2
#: the naval kinds 7.4 makes eligible (L1284): destroyers, and submarines, which BIA uses
#: all alike (L2524-2525)
RAIL_SHIPS = ("dd", "ss")


@cache
def rail_graph(board: Board) -> dict[str, frozenset[str]]:
    """Node -> the nodes one rail step away: the map's rail lines, the Strategic Map's
    rail link (Berlin-Rome) and the arrows off the map's north edge to the home boxes
    (``box:berlin``), as supply's network reads them (4.2)."""
    out: dict[str, set[str]] = {}
    for line in board.pack.map.rails:
        for a, b in zip(line.hexes, line.hexes[1:], strict=False):
            out.setdefault(a, set()).add(b)
            out.setdefault(b, set()).add(a)
    for a, ends in supply._links(board).items():
        out.setdefault(a, set()).update(ends)
    return {k: frozenset(v) for k, v in out.items()}


def _node(b: BlockState) -> str:
    return f"box:{b.at}" if b.where == "box" else b.at or ""


def rail_reach(board: Board, state: State, b: BlockState) -> set[str]:
    """The map rail hexes a block may reach by SRM (7.4, L1229-1236, L1279-1297; digest
    6.3): along rail through hexes its side controls that hold no enemy unit and lie next
    to none, from a start that is such a hex or its side's home box on the Strategic
    Map's rail; the home boxes of its side are passed through (RULINGS B80)."""
    foes = {x.at for x in state.on_map(enemy(b.side))}
    near = foes | {n for h in foes for n in neighbours(h)}
    graph = rail_graph(board)
    boxes = board.pack.strategic.boxes

    def ok(h: str) -> bool:
        if h.startswith("box:"):
            box = boxes.get(h[4:])
            return (
                box is not None
                and h[4:] in HOME_RAIL
                and bool(box.power)
                and (board.side_of_power(box.power) == b.side)
            )
        return h in graph and state.control.get(h) == b.side and h not in near

    start = _node(b)
    if start not in graph or not ok(start):
        return set()
    seen = {start}
    todo = deque([start])
    while todo:
        h = todo.popleft()
        for n in graph[h]:
            if n not in seen and ok(n) and _special_ok(board, state, b, h, n):
                seen.add(n)
                todo.append(n)
    return {h for h in seen if not h.startswith("box:")} - {start}


def _special_ok(board: Board, state: State, b: BlockState, h: str, n: str) -> bool:
    """Whether the scenario's special rules let ``b`` ride on from ``h`` into map hex ``n``
    (RULINGS D10-D14); boxes are no country's."""
    if n.startswith("box:"):
        return True
    return special.may_enter(board, state, b, n, None if h.startswith("box:") else h)


def _srm_hq(ctx: Ctx, name: str) -> BlockState | None:
    """The phasing side's HQ on the map named ``name`` whose AP may pay an SRM."""
    s = ctx.state
    x = s.blocks.get(name) or s.by_token(name.upper())
    if x is None or x.side != s.player or x.where != "map":
        return None
    return x if ctx.board.block(x.id).kind in SRM_HQS else None


def _hq_why_not(ctx: Ctx, x: BlockState, b: BlockState) -> str | None:
    """Why the HQ ``x`` may not pay ``b``'s SRM now, or None: a unit of its own power
    (an air unit for the ME Air Command, L2080-2092; 11.8 L2210-2213), the HQ active or
    activated now (AR 11.3, :func:`engine.games.bia.fuel.why_not_activate`), an AP left
    and no SRM yet since its activation (one, L2092; one of each kind, L1940-1951)."""
    board, s = ctx.board, ctx.state
    hq_block, block = board.block(x.id), board.block(b.id)
    if block.power != hq_block.power or SRM_HQS[hq_block.kind] and is_ground(block):
        what = "air unit" if SRM_HQS[hq_block.kind] else "unit"
        return f"{ctx.name(x)} pays the SRM of one {what} of its own power only (L2080-2092)"
    if x.id not in s.hq_active:
        why = fuel.why_not_activate(ctx, x)
        if why:
            return why
    if fuel.ap_left(ctx, x) <= 0:
        return f"{ctx.name(x)} has no AP left"
    if "srm" in s.hq_done.get(x.id, []):
        return f"{ctx.name(x)} has paid its one SRM"
    return None


def _payer(ctx: Ctx, b: BlockState, by: str | None) -> tuple[str | None, BlockState | None]:
    """Who pays this SRM: (a Supreme Leader, None), (None, an air HQ), or (None, None) for
    a yellow PP; refuses a payer that may not. Changes nothing."""
    s, board = ctx.state, ctx.board
    block = board.block(b.id)
    is_air = not is_ground(block)
    if by is None:
        if not ledger.can_pay(s, ledger.payer(board, s, block.power), SRM_COST):
            raise refuse(
                RULE,
                "An SRM costs 1 yellow PP, and you hold none for this nation"
                + (
                    " (or name a leader to pay with an AP: 'rail BLOCK HEX LEADER')."
                    if hq.playing(s)
                    else "."
                ),
            )
        return None, None
    if not hq.playing(s):
        raise refuse(
            RULE,
            "An SRM paid with an AP is an advanced rule (HQ action points); this game plays "
            "the basic rules: pay it with a yellow PP ('rail BLOCK HEX').",
        )
    leader = by.lower()
    if leader in hq.NAMES:
        if leader not in hq.leaders_for(board, block.power, is_air):
            only = " (German air units only, L1987-1992)" if leader == "goering" else ""
            raise refuse(
                "BIA 11.8",
                f"{hq.name(leader)} does not command {ctx.name(b)}{only}: a Supreme Leader "
                "commands his own power's units, Hitler an Axis ally's too (L2205-2221).",
            )
        if not hq.can(board, s, leader, ("srm",)):
            raise refuse(
                "BIA 11.2",
                f"{hq.name(leader)} cannot pay this SRM: he has "
                f"{hq.ap_left(board, s, leader)} AP left and takes one free SRM a turn "
                "(L1940-1951).",
            )
        return leader, None
    x = _srm_hq(ctx, by)
    if x is None:
        names = ", ".join(hq.NAMES)
        raise refuse(
            RULE,
            f"{by!r} is no Supreme Leader ({names}) and no HQ of yours that pays an SRM "
            "(the ME Air Command for an air unit, a minor power's Supreme HQ).",
        )
    why = _hq_why_not(ctx, x, b)
    if why:
        raise refuse("BIA 11.2", f"{why}.")
    return None, x


def check_rail(ctx: Ctx, order: Rail) -> tuple[BlockState, str | None, BlockState | None]:
    """Validate an SRM (7.4, L1223-1236, L1273-1297): one unit per nation a turn
    (L1277-1278; RULINGS B23, B80), a ground or air unit (L1281-1283), supplied since the
    Supply Phase, along friendly rail (:func:`rail_reach`), a ground unit within the
    stacking limits, an air unit to an airfield of its side holding none of its air
    units (3.4.1); paid with 1 yellow PP of the block's paying power or an AP
    (:func:`_payer`). Returns the block and its payer. Changes nothing."""
    s, board = ctx.state, ctx.board
    b = own_block(ctx, order.block, RULE)
    block = board.block(b.id)
    if block.unit_class == "naval":
        raise refuse(RULE, ship_rail_refusal(board, b, ctx.name(b)))
    if b.where == "box" and b.at not in HOME_RAIL:
        raise refuse(RULE, f"{ctx.name(b)} is in a box no railway leaves (L1287-1289).")
    if b.where == "box" and not is_ground(block):
        raise refuse(
            "BIA 7.3.5",
            f"{ctx.name(b)} is an air unit: Italian and German air units fly to AFRIKA by "
            "themselves a turn after they are built ('fly', L1110-1111).",
        )
    used = [x for x in s.moved if board.block(x).power == block.power]
    if used:
        raise refuse(
            RULE,
            f"{board.pack.units.powers[block.power].name} has made its one SRM this turn "
            f"({ctx.name(s.blocks[used[0]])}; L1277-1278).",
        )
    if b.oos:
        raise refuse(RULE, f"{ctx.name(b)} is out of supply and may not move by rail (L1229).")
    leader, air_hq = _payer(ctx, b, order.by)
    if board.hex(order.to) is not None:  # the scenario's special rules (D10-D14)
        special.check_entry(ctx, b, order.to, b.at if b.where == "map" else None)
    if order.to not in rail_reach(board, s, b):
        raise refuse(
            RULE,
            f"{ctx.name(b)} cannot reach {ctx.where(order.to)} by rail: the unit and every "
            "hex of the way must be on friendly rail, free of and not next to enemy units.",
        )
    if is_ground(block):
        _check_stacking(ctx, b, order.to)
    else:
        sea._check_landing(ctx, b, order.to)
    return b, leader, air_hq


def ship_rail_cost(board: Board, b: BlockState) -> int | None:
    """The SRM a naval block's rail move would cost (7.4, L1281-1284): 2 a step for a
    destroyer or a submarine, None for the other ships, which never move by rail."""
    return SHIP_SRM_PER_STEP * b.steps if board.block(b.id).kind in RAIL_SHIPS else None


def ship_rail_refusal(board: Board, b: BlockState, name: str) -> str:
    """Why a naval block does not move by rail (RULINGS B96): a destroyer or submarine
    costs more SRM than a nation has in a turn, even on its last step; any other ship is
    not eligible."""
    cost = ship_rail_cost(board, b)
    if cost is None:
        return (f"{name} is a naval unit: of the ships only coastal submarines and destroyers "
                "move by rail (L1281-1284).")  # fmt: skip
    return (f"{name} would take {cost} SRM ({SHIP_SRM_PER_STEP} a step, L1284), and a nation "
            f"has {SRM_PER_NATION} SRM a turn (L1277-1278).")  # fmt: skip


def apply_rail(ctx: Ctx, order: Rail) -> None:
    b, leader, air_hq = check_rail(ctx, order)
    s, board = ctx.state, ctx.board
    paid = paid_public = ""
    if leader is not None:
        hq.spend(s, leader, ("srm",))
        paid = paid_public = f"{hq.name(leader)} spends 1 AP: "
    elif air_hq is not None:
        fuel.activate(ctx, air_hq)
        fuel.spend(ctx, air_hq, "srm")
        paid = f"{combat.name(board, air_hq)} spends 1 AP: "
        paid_public = f"{air_hq.token} spends 1 AP: "
    else:
        ledger.pay(s, ledger.payer(board, s, board.block(b.id).power), SRM_COST)
    here = b.at if b.where == "map" else board.pack.strategic.boxes[b.at].name
    b.where, b.at = "map", order.to
    s.moved.append(b.id)
    ctx.events.append(
        private(
            "rail",
            f"{paid}{ctx.name(b)} moves by rail {here} -> {order.to}.",
            (b.side,),
            f"{paid_public}{b.token} moves by rail {here} -> {order.to}.",
            token=b.token,
            leader=leader,
        )
    )


def shown_payer(ctx: Ctx, order: Rail) -> str:
    """The payer's word of an SRM order as every reader may read it: a Supreme Leader by
    name (public, RULINGS B60), an HQ by its token; nothing for a PP."""
    if order.by is None:
        return ""
    if order.by.lower() in hq.NAMES:
        return f" {order.by.lower()}"
    x = _srm_hq(ctx, order.by)
    return f" {x.token}" if x is not None else ""


def _payers(ctx: Ctx, b: BlockState, hqs: list[BlockState]) -> list[str | None]:
    """The payments offered for a block's SRM: a yellow PP when held, and under the
    advanced rules the first leader able to pay (11.8 order) and each HQ able to."""
    s, board = ctx.state, ctx.board
    block = board.block(b.id)
    out: list[str | None] = []
    if ledger.can_pay(s, ledger.payer(board, s, block.power), SRM_COST):
        out.append(None)
    if not hq.playing(s):
        return out
    leader = hq.commander(board, s, block.power, not is_ground(block), ("srm",))
    if leader is not None:
        out.append(leader)
    out += [x.id for x in hqs if _hq_why_not(ctx, x, b) is None]
    return out


def rail_orders(ctx: Ctx) -> list[Rail]:
    """Every SRM the phasing side may order now, for each payment it may make."""
    s, board = ctx.state, ctx.board
    done = {board.block(x).power for x in s.moved}
    hqs = [x for x in s.on_map(s.player) if board.block(x.id).kind in SRM_HQS]
    out = []
    mine = [
        b for b in s.blocks.values()
        if b.side == s.player and (b.where == "map" or b.where == "box" and b.at in HOME_RAIL)
    ]  # fmt: skip
    for b in sorted(mine, key=lambda b: b.id):
        block = board.block(b.id)
        if b.oos or block.unit_class == "naval" or block.power in done:
            continue
        if b.where == "box" and not is_ground(block):
            continue
        payers = _payers(ctx, b, hqs)
        if not payers:
            continue
        for h in sorted(rail_reach(board, s, b)):
            try:
                if is_ground(block):
                    _check_stacking(ctx, b, h)
                else:
                    sea._check_landing(ctx, b, h)
            except IllegalOrder:  # a full hex is simply not offered
                continue
            out.extend(Rail(block=b.id, to=h, by=by) for by in payers)
    return out
