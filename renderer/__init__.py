"""Game views as pictures (ARCHITECTURE: Rendering).

>>> from renderer import render_png  # doctest: +SKIP
>>> png = render_png(engine.Game.new("pfv").view("allied"))  # doctest: +SKIP

The static part of a map (terrain, hexsides, roads, labels, legend) is drawn once per data
pack, style and width and cached; each call draws the pieces and last actions on a copy.
Everything a game looks like comes from ``renderer/styles/<game>.json``.
"""

import sys

from renderer.board import Board, load_board
from renderer.hexmap import (
    DrawnArrow,
    DrawnBadge,
    DrawnMarker,
    DrawnPiece,
    Rendering,
    encode_png,
    render,
)
from renderer.style import Style, StyleError, coverage_problems, load_style
from renderer.views import render_png


def clear_cache() -> None:
    """Forget every picture and map pack the renderer keeps in memory, as a new process
    starts: the PFV-format base layers and boards, the row maps' (TAC, BIA) layers and
    boards, the area maps' layers and sprites, and the counter sprites. The copies on disk
    (:mod:`renderer.diskcache`) stay. A drawing module not imported yet holds nothing, so
    it is not imported for this."""
    for name in ("renderer.base", "renderer.rows", "renderer.areamap"):
        module = sys.modules.get(name)
        if module is not None:
            module.clear_cache()
    from renderer import board, counters

    with board._lock:
        board._boards.clear()
    with counters._sprites_lock:
        counters._SPRITES.clear()


__all__ = [
    "Board",
    "DrawnArrow",
    "DrawnBadge",
    "DrawnMarker",
    "DrawnPiece",
    "Rendering",
    "Style",
    "StyleError",
    "clear_cache",
    "coverage_problems",
    "encode_png",
    "load_board",
    "load_style",
    "render",
    "render_png",
]
