"""Where a battle's hits fall (3.18, 7.7.8-7.7.10, L1693-1766; advanced rules 12.1).

The strongest blocks of the side hit take each hit (:func:`strongest`, :func:`tied`): the
owner picks among them when its standing order asks, else the engine does (RULINGS B19);
after air recon the attacker aims its artillery's and aircraft's hits instead (RULINGS
B61). A hit costs a step, or marks a shield hit while the next edge is more than one
lower (7.7.8.1); a block that loses its last step is eliminated, a 0-strength edge stays.
The battle that gives the hits is :mod:`engine.games.bia.combat`.

Rulebook line numbers (``L123``) refer to ``shared/rules/003_19684674ce068529.txt``.
"""

from __future__ import annotations

from engine.core.events import Event
from engine.games.bia import air_combat
from engine.games.bia.board import Board
from engine.games.bia.context import Ctx
from engine.games.bia.firepower import STEPS, ground, hit_number, name, value
from engine.games.bia.state import BlockState, State


def strongest(
    board: Board, state: State, h: str, side: str, air_units: bool = False
) -> list[BlockState]:
    """The blocks of ``side`` the next hit must fall on: the strongest that a hit can
    still reduce (3.18, L586-588; 7.7.9, L1721-1723), among its air units for air-to-air
    and AA hits, among its ground units otherwise. A 0-strength block is not reduced by
    hits (7.7.10, L1762-1766)."""
    pool = air_combat.air_in if air_units else ground
    units = [x for x in pool(board, state, h, side) if value(board, x) > 0]
    if not units:
        return []
    top = max(value(board, x) for x in units)
    return [x for x in units if value(board, x) == top]


def engine_choice(board: Board, state: State, tied: list[BlockState], h: str) -> BlockState:
    """The engine's standing rule for a tie of the strongest (RULINGS B19): the block
    that fires worst in this battle takes the hit, then the one with more edges left,
    then the first token."""
    att = state.fight["attacker"] if state.fight else state.player

    def worst(x: BlockState) -> tuple[int, int, str]:
        need = hit_number(board, state, x, h, x.side == att)
        return (-(need or 7), -x.steps, x.token)

    return min(tied, key=worst)


def aimed(board: Board, state: State) -> bool:
    """Whether the attacker picks which of the tied strongest takes the pending hit
    (advanced rules 12.1, L2345-2350; RULINGS B61): the hex was revealed by the attacker's
    air recon this turn, the weather is sunny (always in BIA, L993-994) and the hits are
    the attacker's from its artillery step or Air-to-Ground, every unit firing in it an
    artillery or air unit of TECH 2 or better."""
    f = state.fight
    pend = f["pending"] if f else None
    if not pend or not state.options.get("advanced") or f["hex"] not in state.reconned:
        return False
    att = f["attacker"]
    if pend["side"] == att or pend.get("air") or f["step"] < 1:
        return False
    step = STEPS[f["step"] - 1]
    if step == "art_attacker":
        firers = [board.block(i) for i in pend.get("firers", ())]
        kinds = ["artillery"] * len(firers)
    elif step == "air_to_ground":
        firers = [board.block(x.id) for x in air_combat.air_in(board, state, f["hex"], att)]
        kinds = [x.kind for x in firers]
    else:
        return False
    tables = board.pack.tables
    return bool(firers) and all(
        x.kind == k and tables.tech(x.power, k, state.turn) >= 2
        for x, k in zip(firers, kinds, strict=True)
    )


def aim_choice(board: Board, state: State, tied: list[BlockState], h: str) -> BlockState:
    """The engine's aim for the attacker (``standing aim engine``, RULINGS B61): the tied
    block that fires best in this battle, then the one with fewer edges left, then the
    first token."""

    def best(x: BlockState) -> tuple[int, int, str]:
        need = hit_number(board, state, x, h, False)
        return (need or 7, x.steps, x.token)

    return min(tied, key=best)


def tied(board: Board, state: State) -> list[BlockState]:
    """The blocks the next pending hit of the battle must fall on (:func:`strongest`)."""
    f = state.fight
    pend = f["pending"]
    among = strongest(board, state, f["hex"], pend["side"], bool(pend.get("air")))
    first = [x for x in among if x.id in pend.get("first", ())]
    if pend.get("first") and not first:  # the chargers take the answering hits first
        units = [state.blocks[i] for i in pend["first"]]
        units = [x for x in units if x.where == "map" and x.at == f["hex"] and value(board, x) > 0]
        top = max((value(board, x) for x in units), default=0)
        first = [x for x in units if value(board, x) == top] if units else []
    return first or among


def take_hit(ctx: Ctx, b: BlockState) -> None:
    """One hit on a block: a step lost, or a shield hit carried when its next edge is
    more than one lower (7.7.8.1-7.7.8.2, L1704-1720: the difference of the printed
    values is the hits needed)."""
    board, f = ctx.board, ctx.state.fight
    f["pending"]["hits"] -= 1
    track = board.block(b.id).track
    need = track[b.steps - 1][0] - track[b.steps - 2][0] if b.steps > 1 else 1
    carried = f["shield"].get(b.id, 0) + 1
    if carried < need:
        f["shield"][b.id] = carried
        ctx.events.append(
            Event("hit", f"{name(board, b)} marks a shield hit ({carried} of {need}).")
        )
        return
    f["shield"].pop(b.id, None)
    lose_step(ctx, b, "takes a hit")


def lose_step(ctx: Ctx, b: BlockState, why: str) -> None:
    """One step off a block (3.18, L580-584); on its last step it leaves the map, unless
    that edge is a 0-strength one, which stays (7.7.10; RULINGS B25)."""
    board = ctx.board
    if b.steps > 1:
        b.steps -= 1
        ctx.events.append(Event("hit", f"{name(board, b)} {why}: now {value(board, b)}."))
        return
    if value(board, b) == 0:
        return  # a 0-strength block loses nothing more (7.7.10)
    eliminate(ctx, b, f"{why} and is eliminated")


def eliminate(ctx: Ctx, b: BlockState, why: str) -> None:
    where = b.at
    ctx.events.append(Event("eliminated", f"{name(ctx.board, b)} {why} at {ctx.where(where)}."))
    b.where, b.at, b.oos = "dead", None, False
    ctx.state.aloft.pop(b.id, None)
    if ctx.state.fight:
        ctx.state.fight["shield"].pop(b.id, None)
