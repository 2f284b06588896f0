"""Axis & Allies: North Africa (2024): the data pack and the rules engine (issue 13),
registered as ``aa-na`` (:mod:`.rules`); its map view is :mod:`.mapview`, its exact
land-battle odds :mod:`.odds`. Rulings on the rulebook's gaps are in RULINGS.md."""

from engine.core.registry import register
from engine.games.aa_na.rules import RULESET, AxisAndAlliesNorthAfrica

register(RULESET)

__all__ = ["RULESET", "AxisAndAlliesNorthAfrica"]
