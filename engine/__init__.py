"""Umpire's rules engine: pure rulesets for each game, with no I/O.

>>> import engine
>>> game = engine.Game.new("pfv")
>>> game.prompt().role
'allied'
"""

from engine.core.errors import IllegalOrder, OrderSyntaxError
from engine.core.game import Action, Game
from engine.core.registry import available, ruleset

__all__ = ["Action", "Game", "IllegalOrder", "OrderSyntaxError", "available", "ruleset"]
