"""What every rule handler works with while one order is applied: the board, the state
being changed (a clone), the dice and the events written so far."""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.core.errors import IllegalOrder
from engine.core.events import Event
from engine.core.ruleset import Dice
from engine.games.bia.board import Board
from engine.games.bia.state import BlockState, State


def refuse(rule: str, reason: str, legal: str = "") -> IllegalOrder:
    return IllegalOrder(rule, reason, legal)


def own_block(
    ctx: Ctx, name: str, rule: str, places: tuple[str, ...] | None = ("map", "box")
) -> BlockState:
    """The phasing side's block, by id or token, standing in one of ``places`` (anywhere
    when None: the pool, the dead); the same sentence for an enemy block and for a name
    that is nobody's, so a refusal tells nothing (1.3)."""
    s = ctx.state
    b = s.blocks.get(name) or s.by_token(name.upper())
    if b is None or b.side != s.player or (places is not None and b.where not in places):
        where = " on the map or in a box" if places == ("map", "box") else ""
        raise refuse(rule, f"You have no block called {name!r}{where}.")
    return b


@dataclass
class Ctx:
    board: Board
    state: State
    dice: Dice
    events: list[Event] = field(default_factory=list)

    def name(self, b: BlockState) -> str:
        """A block as its owner reads it: ``10th Corps (it_10c)``."""
        return f"{self.board.block(b.id).name} ({b.id})"

    def where(self, hex_id: str) -> str:
        """A hex with its place name when it has one: ``2016 (Tobruk)``."""
        h = self.board.hex(hex_id)
        return f"{hex_id} ({h.name})" if h is not None and h.name else hex_id
