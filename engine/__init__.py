"""Umpire's rules engine: pure rulesets for each game, with no I/O.

>>> import engine
>>> game = engine.Game.new("pfv")
>>> game.prompt().role
'allied'
"""

import os

# The exact-odds solvers (numpy) multiply many small matrices. OpenBLAS would start a
# thread per core for each product, and on a bot host those threads only contend with
# each other and the event loop: one thread made the slowest battle of bench/bench_odds.py
# 420-470 ms wall instead of 480-680 (issue 9). Read when numpy loads; a setting in the
# environment wins.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

from engine.core.errors import IllegalOrder, OrderSyntaxError  # noqa: E402
from engine.core.game import Action, Game  # noqa: E402
from engine.core.registry import available, ruleset  # noqa: E402

__all__ = ["Action", "Game", "IllegalOrder", "OrderSyntaxError", "available", "ruleset"]
