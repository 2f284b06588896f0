"""One entry point for every game's view: hex maps for hex games, the area map for A&A.

A ruleset's ``view`` is either a :class:`~engine.core.view.HexMapView` or a JSON-able dict
carrying a ``map`` in the shape of :class:`~renderer.areaview.AreaMapView`; this module
picks the drawing for it, so front ends never need to know which game they show.
"""

from __future__ import annotations

from typing import Any

from engine.core.view import HexMapView


class UnknownView(ValueError):
    """A view no renderer knows how to draw."""


def can_draw(view: Any) -> bool:
    """Whether :func:`render_png` knows this kind of view."""
    if isinstance(view, HexMapView):
        return True
    from renderer.areaview import AreaMapView

    return isinstance(view, AreaMapView) or (isinstance(view, dict) and "map" in view)


def render_png(view: Any, width: int | None = None) -> bytes:
    """PNG bytes of any game's view, about ``width`` pixels wide (a sensible default per kind)."""
    if isinstance(view, HexMapView):
        from renderer.hexmap import render_png as hex_png

        if view.grid != "odd-q-CCRR" and not width:
            from renderer.rows import DEFAULT_WIDTH  # the row maps (TAC, BIA) are wide and low

            width = DEFAULT_WIDTH
        return hex_png(view, width or 1600)
    from renderer.areaview import AreaMapView

    area = view
    if isinstance(view, dict) and "map" in view:
        area = AreaMapView.model_validate(view["map"])
    if isinstance(area, AreaMapView):
        from renderer.areamap import render_area_png

        return render_area_png(area, width or 2000)
    raise UnknownView(f"no renderer draws a view of type {type(view).__name__}")
