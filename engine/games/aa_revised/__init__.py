"""Axis & Allies Revised (2004, with the errata and FAQ): the whole game as a ruleset.

The data pack (:mod:`.pack`), the battle rules (:mod:`.battle`) and battle odds
(:mod:`.odds`) come with the turn engine that registers the ``aa-revised`` ruleset
(:mod:`.rules`). Rulebook sections are cited as ``Revised: ...``; rulings on its
ambiguities are in RULINGS.md.
"""

from engine.core.registry import register
from engine.games.aa_revised.rules import RULESET, AxisAndAlliesRevised

register(RULESET)

__all__ = ["RULESET", "AxisAndAlliesRevised"]
