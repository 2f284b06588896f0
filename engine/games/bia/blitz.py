"""Phase 8, Blitz (7.8, L1820-1879): the free MP of the armour that attacked, the units
that follow it, and the blitz battles (fought by :mod:`engine.games.bia.combat`).

Under the advanced rules (option ``advanced``) the non-phasing side may react to a blitz
battle with its armour in Reserve Mode for a reaction, never with air units (7.8 ADVANCED
GAME, L1876-1879; L2213-2215): when the phasing side orders the battle fought, before it
begins, as the Defender Reaction comes between a move and its combat (Appendix
L2451-2453, L2473-2474), into that battle's hex only, asked under the standing order
``react pass|ask`` (RULINGS B97-B99).

Rulebook line numbers (``L123``) refer to ``shared/rules/003_19684674ce068529.txt``.
"""

from __future__ import annotations

from typing import Any

from engine.core.errors import IllegalOrder
from engine.core.events import Event, private
from engine.core.orders import Order
from engine.core.ruleset import Prompt
from engine.games.bia import air, combat, ledger, movement, reserve, special
from engine.games.bia.board import SIDE_NAME, Board, enemy
from engine.games.bia.context import Ctx, refuse
from engine.games.bia.movement import _air_units_alone, _check_stacking, _own_block, entry_cost
from engine.games.bia.orders import Blitz, Move, React
from engine.games.bia.state import BlockState, State


def block_is_air(board: Board, b: BlockState) -> bool:
    return board.block(b.id).unit_class == "air"


#: the kinds that lead a Blitz (tankettes only from TECH 2) and those that may follow
LEADERS = ("tank", "armored_hq", "tankette")
FOLLOWERS = ("artillery", "motorized")


def leads(board: Board, state: State, b: BlockState) -> bool:
    """Tanks, armoured HQs and TECH 2 tankettes that attacked in this Combat Phase lead a
    Blitz (L1820-1827); motorized infantry does not."""
    block = board.block(b.id)
    if b.id not in state.attacked or block.kind not in LEADERS:
        return False
    if block.kind == "tankette":
        return board.pack.tables.tech(block.power, "tankette", state.turn) >= 2
    return True


def follows(board: Board, state: State, b: BlockState) -> set[str]:
    """The hexes a follower may enter: those a leader from its own battle blitzed into
    (artillery and motorized infantry of the original combat, and its TECH 2 air units,
    L1865-1866, L2189-2192; the Rex, TECH 1, may not, L2201-2202)."""
    block = board.block(b.id)
    if b.id not in state.attacked:
        return set()
    if block.unit_class == "air":
        if board.pack.tables.tech(block.power, block.kind, state.turn) < 2:
            return set()
    elif block.kind not in FOLLOWERS:
        return set()
    origin = state.attacked[b.id]
    return {h for x, h in state.blitzed.items() if state.attacked.get(x) == origin}


def check_blitz(ctx: Ctx, order: Blitz) -> tuple[BlockState, bool]:
    """Validate a Blitz move (RULINGS B28); returns the block and whether it enters an
    enemy hex."""
    s, board = ctx.state, ctx.board
    b = _own_block(ctx, order.block)
    if b.id in s.moved:
        raise refuse("BIA 7.8", f"{ctx.name(b)} has already blitzed this phase.")
    lead = leads(board, s, b)
    targets = follows(board, s, b)
    if not lead and order.to not in targets:
        raise refuse(
            "BIA 7.8",
            f"{ctx.name(b)} may not blitz to {order.to}: tanks, armoured HQs and TECH 2 "
            "tankettes that attacked this phase lead; artillery and motorized infantry of "
            "the same battle, and its TECH 2 air units, only follow them into a hex they entered.",
        )
    if block_is_air(board, b):
        return b, air.check_follow(ctx, b, order.to)
    if order.to not in combat.neighbours(b.at) or not board.is_land(order.to):
        raise refuse(
            "BIA 7.8",
            f"The free MP takes {ctx.name(b)} one land hex next to {b.at}, not {order.to}.",
        )
    block = board.block(b.id)
    special.check_entry(ctx, b, order.to, b.at)  # the scenario's special rules (D10-D14)
    neutral = board.pack.scenario(s.scenario).neutral
    blocked = any(
        board.pack.tables.hexsides.get(f, {}).get("mp", 0) is None
        for f in board.features(b.at, order.to)
    )
    if (
        entry_cost(board, block, order.to) is None
        or blocked
        or board.hex(order.to).country in neutral
    ):
        raise refuse(
            "BIA 7.5.2",
            f"{ctx.name(b)} may not enter {ctx.where(order.to)} (terrain, hexside or neutral country).",
        )
    foe = {x.at for x in s.on_map(enemy(b.side))}
    battle = order.to in foe
    if battle and b.oos:
        raise refuse("BIA 4.4", f"{ctx.name(b)} is out of supply and cannot attack.")
    if b.at in s.battles:
        raise refuse("BIA 7.8", f"{ctx.name(b)} is in a battle still to be fought.")
    friends = [x for x in s.at_hex(order.to) if x.side == b.side and x.id != b.id]
    if battle and block.role != "gcu" and not any(board.block(x.id).role == "gcu" for x in friends):
        raise refuse(
            "BIA 3.12",
            f"{ctx.name(b)} is a support unit: it enters an enemy hex only where a "
            "friendly combat unit already fights (RULINGS B9).",
        )
    _check_stacking(ctx, b, order.to)
    return b, battle


def apply_blitz(ctx: Ctx, order: Blitz) -> None:
    """Spend the free MP (L1823-1827): the block enters the hex; an enemy hex becomes a
    blitz battle, fought when the phasing side orders it (L1871-1874), unless the enemy
    has only air units on the ground there, which evacuate (L1650-1656)."""
    s = ctx.state
    b, battle = check_blitz(ctx, order)
    here = b.at
    b.at = order.to
    s.moved.append(b.id)
    if leads(ctx.board, s, b):
        s.blitzed[b.id] = order.to
    if battle and not block_is_air(ctx.board, b) and _air_units_alone(ctx, order.to, b.side):
        for x in sorted(s.at_hex(order.to), key=lambda x: x.token):
            if x.side != b.side:
                air.evacuate(ctx, x)  # Air Evacuation (L1650-1656): no battle
        battle = False
    if battle:
        s.entered_from[b.id] = here
        if order.to not in s.battles:
            s.battles.append(order.to)
            ctx.events.append(
                Event(
                    "battle", f"A blitz battle opens at {ctx.where(order.to)}.", {"hex": order.to}
                )
            )
    elif not block_is_air(ctx.board, b):
        ledger.take_control(ctx, order.to, b.side)
    shown = f"{combat.name(ctx.board, b)} blitzes {here} -> {order.to}."
    hidden = f"{b.token} blitzes {here} -> {order.to}."
    ctx.events.append(private("blitz", shown, (b.side,), shown if b.revealed else hidden))


def blitz_orders(ctx: Ctx) -> list[Blitz]:
    s = ctx.state
    out = []
    for b in sorted(s.on_map(s.player), key=lambda b: b.id):
        if b.id in s.moved or b.id not in s.attacked:
            continue
        for n in combat.neighbours(b.at):
            order = Blitz(block=b.id, to=n)
            try:
                check_blitz(ctx, order)
            except IllegalOrder:  # a refused blitz is simply not offered
                continue
            out.append(order)
    return out


# -- the reaction to a blitz battle (7.8 ADVANCED GAME, L1876-1879) -----------------------


def fight(ctx: Ctx, h: str) -> None:
    """The phasing side orders the blitz battle at ``h`` fought (L1871-1874): its moves into
    it are over. Under the advanced rules the non-phasing side may first move armour in
    Reserve Mode into it (L1876-1879; RULINGS B97): the battle waits for that while the
    side's standing order asks and such a move exists (RULINGS B99), else it begins."""
    s = ctx.state
    s.blitz_reaction = h
    if reaction_waits(ctx):
        side = SIDE_NAME[enemy(s.player)]
        ctx.events.append(
            Event(
                "blitz_reaction",
                f"Before the blitz battle at {ctx.where(h)} the {side} side may react with "
                "armour in Reserve Mode (7.8, AR 16.0).",
                {"hex": h},
            )
        )


def reaction_waits(ctx: Ctx) -> bool:
    """Whether the blitz battle ordered waits on the non-phasing side's reaction: under
    ``react ask`` while one of its units in Reserve Mode may still move into it (RULINGS
    B99); under ``hidden_reserves`` while it has any unit in Reserve Mode for a reaction,
    so the wait tells no more than the public count of reserves (RULINGS F6, B99). When it
    no longer does, the battle begins (:func:`begin`)."""
    s = ctx.state
    if s.blitz_reaction is None:
        return False
    if combat.standing(s, enemy(s.player), "react") == "ask":
        held = [i for i in reserve.reacting(s) if i not in s.moved]
        if reaction_orders(ctx) or (reserve.hidden(s) and held):
            return True
    begin(ctx)
    return False


def begin(ctx: Ctx) -> None:
    """The reaction is over (``done``, or nothing left to move): the blitz battle begins,
    its blocks face up, the reacting ones with the others (L1446-1447)."""
    s = ctx.state
    h, s.blitz_reaction = s.blitz_reaction, None
    if h is not None:
        combat.start(ctx, h)


def reaction_orders(ctx: Ctx) -> list[Move]:
    """Every move of the non-phasing side's armour in Reserve Mode into the blitz battle
    about to be fought (RULINGS B97)."""
    s = ctx.state
    h = s.blitz_reaction
    if h is None or not reserve.playing(s):
        return []
    out: list[Move] = []
    for i in reserve.reacting(s):
        b = s.blocks[i]
        try:
            reserve.check_reacting(ctx, b)
        except IllegalOrder:  # engaged, out of supply: not offered
            continue
        out += [m for m in movement.destinations(ctx, b) if m.path[-1] == h]
    return out


def check_reaction(ctx: Ctx, order: Order) -> None:
    """Validate a reaction to the blitz battle about to be fought; changes nothing. Air
    units never react to a blitz (L1876-1878); the armour moves by the Defender
    Reaction's rules (RULINGS B93) and only into that battle's hex (RULINGS B97)."""
    s = ctx.state
    h = s.blitz_reaction
    assert h is not None
    b = s.blocks.get(order.block) or s.by_token(order.block.upper())  # type: ignore[attr-defined]
    air_unit = b is not None and b.side != s.player and air.is_air(ctx.board, b)
    if isinstance(order, React) or air_unit:
        raise refuse(
            "BIA 7.8",
            "Air units do not react to a blitz battle: the non-phasing side reacts only "
            "with armour in Reserve Mode ('move BLOCK HEX...', L1876-1879).",
        )
    if not isinstance(order, Move):
        raise refuse("BIA 7.8", f"'{order.verb}' is no reaction to a blitz battle.")
    movement.check_move(ctx, order)  # by the Defender Reaction's rules: state.reacting()
    if order.path[-1] != h:
        raise refuse(
            "BIA 7.8",
            f"In the Blitz your armour in Reserve Mode reacts only into the blitz battle about "
            f"to be fought, at {ctx.where(h)} (L1876-1879; RULINGS B97).",
        )


def apply_reaction(ctx: Ctx, order: Order) -> None:
    """Move the reacting unit into the blitz battle's hex (RULINGS B97); the others read
    its token (RULINGS B99), the battle reveals it as it begins."""
    check_reaction(ctx, order)
    assert isinstance(order, Move)
    movement.apply_move(ctx, order)


def reaction_prompt(ctx: Ctx, head: str, base: dict[str, Any]) -> Prompt:
    """The non-phasing side's decision before a blitz battle (RULINGS B99)."""
    s = ctx.state
    h = s.blitz_reaction
    assert h is not None
    text = (
        f"{head}, blitz battle at {ctx.where(h)}: react with armour in Reserve Mode "
        f"('move BLOCK HEX...' into {h}); air units do not react to a blitz (7.8); then 'done'."
    )
    return Prompt(
        role=enemy(s.player), kind="blitz_reaction", verbs=["move", "react", "done", "standing"],
        text=text, **base,
    )  # fmt: skip
