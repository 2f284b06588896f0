"""Game views as pictures (ARCHITECTURE: Rendering).

>>> from renderer import render_png  # doctest: +SKIP
>>> png = render_png(engine.Game.new("pfv").view("allied"))  # doctest: +SKIP

The static part of a map (terrain, hexsides, roads, labels, legend) is drawn once per data
pack, style and width and cached; each call draws the pieces and last actions on a copy.
Everything a game looks like comes from ``renderer/styles/<game>.json``.
"""

from renderer.base import clear_cache
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
