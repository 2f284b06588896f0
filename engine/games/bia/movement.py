"""Phase 5, Movement: ground movement of blocks (7.5, L1243-1429).

Implemented: contiguous paths, terrain costs with the mountain and cavalry reductions
(7.5.1), restricted hexes and hexsides (7.5.2), red arrows (7.5.3), the stop on entering
an enemy hex (7.5, L1310-1311), free movement in enemy ZOC (L1312-1313), halved MP when
out of supply (4.4) with the 1 MP minimum (3.21), stacking (3.13) and hex control (3.3).
The same moves serve Armoured Exploitation (7.10, L1839-1857), for the eligible blocks
in supply as it opens, never into an enemy hex, and under the advanced rules the
non-phasing side's armour in Reserve Mode reacting in the Defender Reaction, to a battle
hex or a hex free of the enemy (AR Appendix, L2458-2472; :mod:`engine.games.bia.reserve`).
Ground units entering an airbase where the enemy has only air units on the ground make
them evacuate (L1650-1656, :func:`engine.games.bia.air.evacuate`) and fight no battle.
Air Transfer and Air Attack are :mod:`engine.games.bia.air`.
Sea Transport (7.5.4) is :mod:`engine.games.bia.sea`. Under the advanced rules armour out
of fuel moves at half its MP and attacks no one (AR 11.10; :mod:`engine.games.bia.fuel`);
an unsupplied TECH 2-3 or 0-step ground unit may attack by a Desperate Attack (AR 10.2,
:func:`desperate`), and a Supreme Leader's AP moves one unsupplied unit as if in supply
(``move BLOCK HEX... LEADER``, L1944-1946; :func:`engine.games.bia.hq.check_oos_move`).

Rulebook line numbers (``L123``) refer to ``shared/rules/003_19684674ce068529.txt``.
"""

from __future__ import annotations

import heapq

from engine.core.errors import IllegalOrder
from engine.core.events import Event, private
from engine.games.bia import ledger, special, supply
from engine.games.bia.board import SIDE_NAME, Board, enemy
from engine.games.bia.context import Ctx, refuse
from engine.games.bia.orders import Move
from engine.games.bia.pack import Block
from engine.games.bia.state import BlockState, State

#: the Play Aid's TECH track for each firepower row (3.16)
TECH_TRACK = {"tankette": "tankette", "tank": "tank", "artillery": "artillery"}


def is_ground(block: Block) -> bool:
    return block.unit_class not in ("air", "naval")


def allowance(board: Board, state: State, b: BlockState) -> int:
    """A block's Movement Points this phase (7.5.1, L1349-1352): by type and TECH from the
    Play Aid; cavalry +1 (6.1.4, L840); motorized infantry moves as armour from infantry TECH 2
    (L906-909, digest A61); static infantry 0 (6.1.2, L821-826). Out of supply: halved, rounded down,
    never below 1 (4.4 L691-695, 3.21 L603-605). Out of fuel under the advanced rules:
    halved, quartered if also out of supply (AR 11.10, L2254-2257; 10.2 L1978-1979)."""
    block = board.block(b.id)
    tables = board.pack.tables
    kind_rule = tables.unit_kinds.get(block.kind, {})
    if "mp" in kind_rule:
        mp = kind_rule["mp"]
    else:
        key = board.fire_key(block)
        tech = tables.tech(block.power, TECH_TRACK.get(key, key), state.turn)
        from_infantry = kind_rule.get("armor_mp_from_infantry_tech")
        if from_infantry and tech >= from_infantry:
            key = "tank"
            tech = tables.tech(block.power, "tank", state.turn)
        mp = tables.firepower[key][str(tech)].mp or 0
        mp += kind_rule.get("mp_plus", 0)
    if mp and b.oos:
        mp = max(1, mp // 2)
    if mp and out_of_fuel(board, state, b):  # AR 11.10 (L2254-2257): halved again if also OOS
        mp = max(1, mp // 2)
    return mp


def fuel_kind(board: Board, b: BlockState) -> str | None:
    """What fuel a unit needs under the advanced rules (AR 11.0, L2044-2048: armour and
    aircraft, the blocks with the white border): ``armour`` for tanks and tankettes, ``air``
    for air units, None for the rest: infantry-class units (motorized ones too) and the
    armoured HQs, which move their full allowance before they activate (11.9, L2228-2229;
    RULINGS B74)."""
    block = board.block(b.id)
    if block.unit_class == "air":
        return "air"
    if block.unit_class == "armored" and block.kind in ("tank", "tankette"):
        return "armour"
    return None


def out_of_fuel(board: Board, state: State, b: BlockState) -> bool:
    """AR 11.10 (L2254-2265), option ``advanced``: a unit needing fuel that no HQ has
    fuelled for this phase (``state.fuelled``, :mod:`engine.games.bia.fuel`). A unit in
    Reserve Mode moving in the Exploitation Phase had an AP spent on it (16.0, L2440-2442)
    and counts as fuelled there (RULINGS B76), as does one in Reserve Mode for a reaction
    moving in the Defender Reaction (Appendix L2458-2459; RULINGS B93)."""
    if not state.options.get("advanced") or b.id in state.fuelled:
        return False
    if state.phase == "exploitation" and b.id in state.reserve:
        return False
    if state.reacting() and b.id in state.reaction_reserve:
        return False  # the AP that put it in reserve fuels its reaction (RULINGS B93)
    return fuel_kind(board, b) is not None


def as_supplied(b: BlockState) -> BlockState:
    """A copy of a block without its white barrel: what it would be in supply (its MP
    by :func:`allowance`), for a Supreme Leader's move of an unsupplied unit (AR,
    L1944-1946)."""
    out = b.copy()
    out.oos = False
    return out


def desperate(board: Board, state: State, b: BlockState) -> bool:
    """Whether an unsupplied ground unit may attack by a Desperate Attack (AR 10.2,
    L1973-1985; the 0-step special case L2010-2013), option ``advanced``: a unit of TECH
    2 or 3 on the Play Aid track it moves by, or a unit whose track has a 0-strength edge
    (artillery and the other 0-step units). Its MP are :func:`allowance`'s: halved for
    supply, halved again out of fuel (L1978-1979, L2258-2262); an armoured unit out of fuel
    may try it too (L1984-1985). If the first round of ground combat leaves enemy ground
    units in the hex, it surrenders (:func:`engine.games.bia.combat.surrender_desperate`)."""
    if not state.options.get("advanced") or not b.oos:
        return False
    block = board.block(b.id)
    if not is_ground(block):
        return False
    if block.track[0][0] == 0:
        return True
    key = board.fire_key(block)
    tables = board.pack.tables
    if tables.unit_kinds.get(block.kind, {}).get("armor_mp_from_infantry_tech"):
        key = "infantry"  # motorized infantry's TECH is the infantry's (L906-909)
    return tables.tech(block.power, TECH_TRACK.get(key, key), state.turn) >= 2


def exploits(board: Board, state: State, b: BlockState) -> bool:
    """Whether a block may move in Armoured Exploitation (7.10, L1839-1857; 6.2.1,
    L863-864): armoured-class units, tankettes only from TECH 2, and motorized infantry
    from infantry TECH 2; not one out of supply when the phase began (``state.barred``;
    RULINGS B29)."""
    block = board.block(b.id)
    if b.id in state.reaction_reserve:  # held for the enemy's Reaction (AR 16.0, L2436-2437)
        return False
    if b.id in state.reserve:  # Reserve Mode by Motorization (AR 16.0, L2428-2432)
        return b.id not in state.barred
    if b.id in state.barred or block.unit_class != "armored" and block.kind != "motorized":
        return False
    tables = board.pack.tables
    if block.kind == "tankette":
        return tables.tech(block.power, "tankette", state.turn) >= 2
    if block.kind == "motorized":
        need = tables.unit_kinds["motorized"].get("armor_mp_from_infantry_tech", 2)
        return tables.tech(block.power, "infantry", state.turn) >= need
    return True


def entry_cost(board: Board, block: Block, hex_id: str) -> int | None:
    """MP to enter a hex (7.5.1, L1390-1404; the cost list L1391-1395): by terrain; mountain units pay 1 less in
    hills and mountains, cavalry 1 less in swamp; armour may not enter mountains (Play
    Aid). ``None``: the block may not enter at all."""
    row = board.pack.tables.terrain[board.hex(hex_id).terrain]
    if row.mp is None or (block.unit_class == "armored" and not row.armor):
        return None
    if block.kind == "mountain" and row.mountain_units_mp is not None:
        return row.mountain_units_mp
    if block.kind == "cavalry" and row.cavalry_mp is not None:
        return row.cavalry_mp
    return row.mp


def _step(ctx: Ctx, b: BlockState, block: Block, here: str, there: str) -> int:
    """The MP of one step of a path, or a refusal naming the rule it breaks."""
    board, s = ctx.board, ctx.state
    strait = frozenset((here, there)) in board.straits
    if there not in board.adjacent(here):
        raise refuse(
            "BIA 7.5",
            f"{there} is not next to {here}: hexes must be entered one after another, never skipped.",
        )
    if not board.is_land(there):
        raise refuse(
            "BIA 7.5.2",
            f"{ctx.where(there)} is not a playable land hex: ground units may not enter sea, "
            "partial hexes (Tehran excepted), the Chotts or the Qattara Depression.",
        )
    special.check_entry(ctx, b, there, here)  # the scenario's special rules (D10-D14)
    country = board.hex(there).country
    if country in board.pack.scenario(s.scenario).neutral:
        raise refuse(
            "BIA scenario",
            f"{ctx.where(there)} lies in {board.pack.map.countries[country].name}, which is "
            "neutral in this scenario (RULINGS B13).",
        )
    feats = board.features(here, there)
    for f in feats:
        if board.pack.tables.hexsides.get(f, {}).get("mp", 0) is None:
            raise refuse(
                "BIA 7.5.2",
                f"Ground units may not cross the {f.replace('_', ' ')} hexside between {here} and {there}.",
            )
    if strait:
        side = b.side
        both = s.control.get(here) == side and s.control.get(there) == side
        if not both and block.unit_class != "infantry":
            raise refuse(
                "BIA 7.5.3",
                f"The red arrow {here}-{there} may be crossed only by infantry-class units "
                f"unless the {SIDE_NAME[side]} side controls both ends.",
            )
        return board.pack.tables.red_arrow_mp
    cost = entry_cost(board, block, there)
    if cost is None:
        raise refuse(
            "BIA 7.5.1",
            f"{ctx.name(b)} may not enter {board.hex(there).terrain} ({ctx.where(there)}): "
            "armoured units never enter mountains.",
        )
    return cost


def check_move(ctx: Ctx, order: Move) -> tuple[BlockState, list[str], bool]:
    """Validate a ground move; returns the block, its full path (start first) and whether
    it ends in an enemy-occupied hex (a battle hex, 3.23). Changes nothing."""
    board, s = ctx.board, ctx.state
    b = _own_block(ctx, order.block)
    block = board.block(b.id)
    if not is_ground(block):
        raise refuse(
            "BIA 7.5",
            f"{ctx.name(b)} is not a ground unit: air units fly by Air Attack "
            "('attack BLOCK HEX') or Air Transfer ('fly BLOCK HEX').",
        )
    if s.reacting():  # armour in Reserve Mode reacts (AR Appendix, L2458-2472; 7.8)
        from engine.games.bia import reserve  # reserve imports this module

        reserve.check_reacting(ctx, b)
    if b.id in s.reaction_reserve and s.phase == "exploitation":
        raise refuse(
            "BIA 16.0",
            f"{ctx.name(b)} is in Reserve Mode for a reaction: it moves in the enemy's next "
            "Defender Reaction, not in this phase (L2433-2438).",
        )
    if b.id in s.reserve and s.phase == "movement":
        raise refuse(
            "BIA 16.0",
            f"{ctx.name(b)} is in Reserve Mode: it moves in the Exploitation Phase, not now "
            "(L2428-2432).",
        )
    if b.id in s.moved:
        raise refuse(
            "BIA 7.5.1",
            f"{ctx.name(b)} has already moved this phase; unused MP are lost (RULINGS B7).",
        )
    exploiting = s.phase == "exploitation"
    if exploiting and not exploits(board, s, b):
        raise refuse(
            "BIA 7.10",
            f"{ctx.name(b)} may not exploit: only armoured units (tankettes from TECH 2), "
            "TECH 2 motorized infantry and units in Reserve Mode (AR 16.0) move again, and "
            "only if in supply when the phase began.",
        )
    mp = allowance(board, s, b)
    if order.by is not None:  # a Supreme Leader moves it as if in supply (AR, L1944-1946)
        from engine.games.bia import hq  # hq imports this module

        mp = hq.check_oos_move(ctx, b, order)
    if mp <= 0:
        raise refuse(
            "BIA 6.1.2",
            f"{ctx.name(b)} is static infantry: it moves only by SRM or sea transport.",
        )
    foe = {x.at for x in s.on_map(enemy(b.side))}
    path = [b.at, *order.path]
    left = mp
    for i, (here, there) in enumerate(zip(path, path[1:], strict=False)):
        if here in foe and i > 0:
            raise refuse(
                "BIA 7.5",
                f"Movement ends on entering {ctx.where(here)}, which holds enemy units "
                "(L1310-1311).",
                f"End the move at {here}.",
            )
        cost = _step(ctx, b, block, here, there)
        if cost > left:
            raise refuse(
                "BIA 7.5.1",
                f"{ctx.name(b)} has {left} MP left, not enough to enter {ctx.where(there)} "
                f"(cost {cost}).",
                f"Its allowance this phase is {mp} MP.",
            )
        left -= cost
    dest = path[-1]
    battle = dest in foe
    if battle and s.reacting() and dest not in s.battles:
        raise refuse(
            "BIA AR Appendix",
            f"{ctx.where(dest)} holds enemy units but is no battle hex: a reaction reinforces "
            "the battles already opened or moves to a hex free of the enemy, and opens none "
            "(L2469-2472; RULINGS B93).",
        )
    if battle and exploiting:
        raise refuse(
            "BIA 7.10",
            f"Exploiting units start no new battle: {ctx.where(dest)} holds enemy units (L1853-1855).",
        )
    if battle:
        if out_of_fuel(board, s, b) and not b.oos:  # an OOS one may try 10.2 (L2258-2262)
            raise refuse(
                "BIA 11.10",
                f"{ctx.name(b)} is out of fuel and cannot attack, so it may not enter "
                f"{ctx.where(dest)}, which holds enemy units: fuel it first ('fuel BLOCK HQ').",
            )
        if b.oos and order.by is not None:
            raise refuse(
                "BIA 10.2",
                f"A Supreme Leader's AP moves {ctx.name(b)} as if in supply, not into a battle: "
                f"{ctx.where(dest)} holds enemy units, and an unsupplied unit attacks only by "
                "a Desperate Attack on its own halved MP (L1973-1985; RULINGS B81).",
            )
        if b.oos and not desperate(board, s, b):
            raise refuse(
                "BIA 4.4",
                f"{ctx.name(b)} is out of supply and cannot attack, so it may not enter "
                f"{ctx.where(dest)}, which holds enemy units"
                + (
                    " (a Desperate Attack is for TECH 2 and 3 units and 0-step units, "
                    "L1973-1985, L2010-2013)."
                    if s.options.get("advanced")
                    else "."
                ),
            )
        friends = [x for x in s.at_hex(dest) if x.side == b.side]
        if block.role != "gcu" and not any(board.block(x.id).role == "gcu" for x in friends):
            raise refuse(
                "BIA 3.12",
                f"{ctx.name(b)} is a support unit: it enters an enemy hex only where a "
                "friendly combat unit already fights (RULINGS B9).",
            )
    _check_stacking(ctx, b, dest)
    return b, path, battle


def _check_stacking(ctx: Ctx, b: BlockState, dest: str) -> None:
    """At most three ground units of a faction in a hex, of which at most two combat
    units, friendly or enemy hex alike (3.13, L524-529); passing through may overstack
    (L1308-1309). Only the mover's own blocks are counted: nothing hidden is told."""
    board = ctx.board
    stack = [
        x for x in ctx.state.at_hex(dest)
        if x.side == b.side and x.id != b.id and is_ground(board.block(x.id))
    ]  # fmt: skip
    limits = board.pack.tables.stacking
    if len(stack) + 1 > limits.ground_units:
        raise refuse(
            "BIA 3.13",
            f"{ctx.where(dest)} already holds {len(stack)} of your ground units; a hex "
            f"holds at most {limits.ground_units}.",
        )
    if board.block(b.id).role == "gcu":
        gcu = sum(1 for x in stack if board.block(x.id).role == "gcu")
        if gcu + 1 > limits.ground_combat_units:
            raise refuse(
                "BIA 3.13",
                f"{ctx.where(dest)} already holds {gcu} of your combat units; a hex holds at "
                f"most {limits.ground_combat_units}.",
            )


def _own_block(ctx: Ctx, name: str) -> BlockState:
    """The mover's block named by id or token: the phasing side's, the non-phasing side's
    in the Defender Reaction (AR Appendix); the same sentence for an enemy block and for a
    name that is nobody's, so a refusal tells nothing (1.3)."""
    s = ctx.state
    side = enemy(s.player) if s.reacting() else s.player
    b = s.blocks.get(name) or s.by_token(name.upper())
    if b is None or b.side != side or b.where != "map":
        raise refuse("BIA 7.5", f"You have no block called {name!r} on the map.")
    return b


def apply_move(ctx: Ctx, order: Move) -> None:
    """Move the block; take control of the hexes entered (3.3, RULINGS B8); a hex with
    enemy units becomes a battle hex (3.23, L645-647)."""
    b, path, battle = check_move(ctx, order)
    s = ctx.state
    if order.by is not None:  # the Supreme Leader's AP (AR, L1944-1946)
        from engine.games.bia import hq  # hq imports this module

        hq.spend_oos_move(ctx, b, order)
    foe = {x.at for x in s.on_map(enemy(b.side))}
    b.at = path[-1]
    s.moved.append(b.id)
    if battle and _air_units_alone(ctx, path[-1], b.side):
        from engine.games.bia import air  # air imports combat, which imports this module

        for x in sorted(s.at_hex(path[-1]), key=lambda x: x.token):
            if x.side != b.side:
                air.evacuate(ctx, x)  # Air Evacuation (L1650-1656): no battle
        battle = False
        foe.discard(path[-1])
    for h in path[1:]:
        if h not in foe:
            ledger.take_control(ctx, h, b.side)
    route = " -> ".join(path)
    ctx.events.append(
        private(
            "move",
            f"{ctx.name(b)} moves {route}.",
            (b.side,),
            f"{b.token} moves {route}.",
            block=b.token,
            path=path,
        )
    )
    if battle and not s.reacting():  # a reacting unit defends (AR Appendix)
        s.entered_from[b.id] = path[-2]  # river crossings (7.7.6)
    if battle and path[-1] not in s.battles:
        s.battles.append(path[-1])
        ctx.events.append(
            Event("battle", f"A battle hex opens at {ctx.where(path[-1])}.", {"hex": path[-1]})
        )


def _air_units_alone(ctx: Ctx, h: str, side: str) -> bool:
    """Whether the enemy has only air units on the ground in ``h`` (L1650-1652)."""
    foes = [x for x in ctx.state.at_hex(h) if x.side != side]
    return bool(foes) and all(
        not is_ground(ctx.board.block(x.id)) and x.id not in ctx.state.aloft for x in foes
    )


def destinations(ctx: Ctx, b: BlockState, by: str | None = None) -> list[Move]:
    """Every legal move of a block, one per destination, by its cheapest path; with ``by``
    those of an unsupplied block moved as if in supply for that leader's AP (AR,
    L1944-1946; :func:`engine.games.bia.hq.oos_move_orders`)."""
    board, s = ctx.board, ctx.state
    block = board.block(b.id)
    if not is_ground(block) or b.id in s.moved:
        return []
    if s.phase == "movement" and b.id in s.reserve:
        return []
    if s.phase == "exploitation" and not exploits(board, s, b):
        return []
    mp = allowance(board, s, as_supplied(b) if by else b)
    foe = {x.at for x in s.on_map(enemy(b.side))}
    best = {b.at: 0}
    parent: dict[str, str] = {}
    heap = [(0, b.at)]
    while heap:
        spent, h = heapq.heappop(heap)
        if spent > best.get(h, 99) or (h in foe and h != b.at):
            continue
        for n in board.adjacent(h):
            try:
                cost = _step(ctx, b, block, h, n)
            except IllegalOrder:  # a refused step: not a way forward
                continue
            if spent + cost <= mp and spent + cost < best.get(n, 99):
                best[n] = spent + cost
                parent[n] = h
                heapq.heappush(heap, (spent + cost, n))
    out = []
    for dest in sorted(parent):
        path = [dest]
        while path[-1] in parent:
            path.append(parent[path[-1]])
        order = Move(block=b.id, path=list(reversed(path))[1:], by=by)
        try:
            check_move(ctx, order)
        except IllegalOrder:
            continue
        out.append(order)
    return out


def start_exploitation(ctx: Ctx) -> None:
    """7.10 (L1845-1851): the eligible blocks out of supply as the phase begins may not
    exploit. They are marked for the phase only (``state.barred``) and never surrender
    for it. The white barrels are public, so the others read the tokens of every block of
    the side out of supply, never which of them are barred: that would tell which are
    armour, or in Reserve Mode under ``hidden_reserves`` (RULINGS F6)."""
    s, board, side = ctx.state, ctx.board, ctx.state.player
    s.barred = []
    s.moved = []
    out = supply.out_of_supply(board, s, side)
    armour = [
        i for i in out
        if board.block(i).unit_class == "armored" or board.block(i).kind == "motorized"
    ]  # fmt: skip
    s.barred = [i for i in out if i in armour or i in s.reserve]
    if out:  # told whenever a block is out, so that no line is itself a tell
        blocks = sorted((s.blocks[i] for i in s.barred), key=lambda b: b.token)
        told = sorted((s.blocks[i] for i in out), key=lambda b: b.token)
        barred = ", ".join(ctx.name(b) for b in blocks) or "none"
        ctx.events.append(
            private(
                "supply",
                f"Exploitation: out of supply, may not move: {barred}.",
                (side,),
                f"Exploitation: {SIDE_NAME[side]} blocks out of supply: "
                f"{', '.join(b.token for b in told)}.",
            )
        )
