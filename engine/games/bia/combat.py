"""Phase 7, Combat (7.7, L1437-1818). Done so far: the reveal that opens it.

Before any battle is fought each player reveals all his units in every battle hex
(L1446-1447; 3.23, L645-656: until then they stand hidden, even face to face). They stay
face up until the Final Supply Check (L2416-2417, digest A42), where
:func:`engine.games.bia.rules.final_supply_phase` stands them up again. The combat
sequence itself (air-to-air, AA, air-to-ground, artillery, ground combat; rounds,
retreats) is not written yet: the battle hexes stay as they are until the end of the
phasing side's half of the turn.
"""

from __future__ import annotations

from engine.core.events import Event
from engine.games.bia.board import ALLIED, AXIS, SIDE_NAME
from engine.games.bia.context import Ctx


def reveal_battles(ctx: Ctx) -> None:
    """Turn face up every block in every battle hex and tell both sides what is there."""
    s, board = ctx.state, ctx.board
    for h in s.battles:
        blocks = sorted(s.at_hex(h), key=lambda b: (b.side != s.player, b.token))
        if not blocks:
            continue
        parts = []
        for side in (s.player, ALLIED if s.player == AXIS else AXIS):
            mine = [b for b in blocks if b.side == side]
            shown = ", ".join(
                f"{board.block(b.id).name} ({b.token}, {board.block(b.id).track[b.steps - 1][0]})"
                for b in mine
            )
            parts.append(f"{SIDE_NAME[side]}: {shown or 'nothing'}")
        for b in blocks:
            b.revealed = True
        ctx.events.append(
            Event(
                "reveal",
                f"Battle at {ctx.where(h)}, blocks revealed. {'; '.join(parts)}.",
                {"hex": h, "tokens": [b.token for b in blocks]},
                reveals=True,
            )
        )
