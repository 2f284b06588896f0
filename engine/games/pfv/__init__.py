"""Patton's First Victory: Tunisia 1943 (Decision Games, 2010): the complete rules.

Rulebook sections are cited as ``PFV n``; rulings on its ambiguities are in RULINGS.md.
"""

from engine.core.registry import register
from engine.games.pfv.rules import RULESET, PattonsFirstVictory

register(RULESET)

__all__ = ["RULESET", "PattonsFirstVictory"]
