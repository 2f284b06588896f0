"""Maps as PNG files for Discord: rendered off the event loop, shrunk to fit the upload limit.

ARCHITECTURE: Rendering runs off the event loop, so ``render`` hands the renderer to a
worker thread (``asyncio.to_thread``). A picture larger than the guild's upload limit is
drawn again narrower until it fits (text stays crisp, unlike scaling a bitmap down).
"""

from __future__ import annotations

import asyncio
import logging
import math
from collections.abc import Callable
from typing import Any

log = logging.getLogger(__name__)

MIN_WIDTH = 480
ATTEMPTS = 4

Renderer = Callable[[Any, int], bytes]


def default_renderer() -> Renderer | None:
    """The project's renderer, or None where it is not installed."""
    try:
        from renderer import render_png
    except ModuleNotFoundError as exc:
        if exc.name and exc.name.split(".")[0] == "renderer":
            return None
        raise
    return render_png


def drawable(view: Any) -> bool:
    """Whether the renderer knows how to draw this kind of view (a hex or an area map)."""
    try:
        from renderer.views import can_draw
    except ModuleNotFoundError:
        return False
    return can_draw(view)


def fit_png(draw: Renderer, view: Any, width: int, limit: int) -> tuple[bytes, int] | None:
    """The view drawn at ``width``, or narrower until it is at most ``limit`` bytes; with
    the width used. None if even the narrowest picture is too large."""
    for _ in range(ATTEMPTS):
        png = draw(view, width)
        if len(png) <= limit:
            return png, width
        if width <= MIN_WIDTH:
            break
        # PNG size grows with area: shrink both sides by the square root of the excess.
        width = max(MIN_WIDTH, int(width * math.sqrt(limit / len(png)) * 0.9))
    return None


async def render(
    view: Any, width: int, limit: int, draw: Renderer | None = None
) -> tuple[bytes | None, str]:
    """The map as PNG bytes, and a note for the reader when there is no picture or it was
    shrunk. Never raises: a failing renderer is logged and the message goes without map."""
    draw = draw or default_renderer()
    if draw is None or not drawable(view):
        return None, ""
    try:
        fitted = await asyncio.to_thread(fit_png, draw, view, width, limit)
    except Exception:
        log.exception("the renderer failed on the view of game %s", getattr(view, "game", "?"))
        return None, "(The map could not be drawn this time; the error is logged.)"
    if fitted is None:
        return None, f"(The map is larger than this server's upload limit of {limit} bytes.)"
    png, used = fitted
    note = (
        "" if used == width else f"(The map was drawn {used} pixels wide to fit the upload limit.)"
    )
    return png, note
