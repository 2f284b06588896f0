"""Blocks in Afrika (Ventonuovo Games, 2014; game id ``bia``): the data pack and the rules
engine that registers the ``bia`` ruleset (:mod:`.rules`), its fog-of-war view
(:mod:`.view`) and its map view (:mod:`.mapview`). Rulings on the rulebook's ambiguities,
and what is not adjudicated yet, are in RULINGS.md."""

from engine.core.registry import register
from engine.games.bia.rules import RULESET, BlocksInAfrika

register(RULESET)

__all__ = ["RULESET", "BlocksInAfrika"]
