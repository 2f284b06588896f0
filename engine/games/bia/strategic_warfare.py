"""Phase 1, Strategic Warfare (7.1, L1007-1016).

Rulebook line numbers (``L123``) refer to ``shared/rules/003_19684674ce068529.txt``.
"""

from __future__ import annotations

from engine.core.events import Event
from engine.games.bia.board import SIDE_NAME
from engine.games.bia.context import Ctx


def strategic_warfare(ctx: Ctx) -> None:
    """7.1 (L1007-1016): the other side rolls the scenario's dice against the phasing
    side's production; each 6 takes 1 PP from this month's income. The hits are kept
    in ``state.pp_lost`` for the PP ledger, which is not written yet (RULINGS B22)."""
    s = ctx.state
    key = "against_axis" if s.player == "axis" else "against_allied"
    n = ctx.board.pack.scenario(s.scenario).strategic_warfare_dice.get(key, 0)
    s.pp_lost[s.player] = 0
    if not n:
        return
    rolls = [ctx.dice.roll(6, "strategic warfare") for _ in range(n)]
    hits = sum(r == 6 for r in rolls)
    s.pp_lost[s.player] = hits
    ctx.events.append(
        Event(
            "strategic_warfare",
            f"Strategic Warfare against the {SIDE_NAME[s.player]} side: {n} dice, "
            f"{' '.join(map(str, rolls))}: {hits} PP lost this month.",
            {"hits": hits},
        )
    )
