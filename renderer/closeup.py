"""A close-up of where a turn's action was, legible at Discord's inline preview width.

A full map shrunk to the ~550 pixels a chat client shows inline loses its hex numbers and
counter values. The close-up is cut from the same picture the reader's view gives (so it
shows exactly what that reader may see, hidden stacks as backs), around the places a
turn's orders and events name, and drawn at a zoom where those places fit the preview
without scaling: the largest of a few fixed picture widths whose cut holds them all
(fixed, so the base layers stay cached). The cut is never scaled: when the action
spans more than the least zoomed cut holds, the close-up shows its busiest part.

>>> from renderer.closeup import closeup_png  # doctest: +SKIP
>>> png = closeup_png(game.view("axis"), ["8113", "8114"])  # doctest: +SKIP

Every game with a map gets one: hex maps (:class:`~engine.core.view.HexMapView`: PFV's
columns, and the row grids of The African Campaign and Blocks in Afrika, cut in their own
geometry from :mod:`renderer.rows`' pictures) and the area map (A&A's world map), through
:func:`closeup`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from PIL import Image

from engine.core.view import HexMapView
from renderer.geometry import ROW_GRIDS, Box, Point
from renderer.hexmap import DrawnPiece, encode_png

#: Discord's inline preview width, in pixels
CLOSEUP_WIDTH = 550
#: heights of the cut: a chat client shows an image up to about this tall inline
MAX_HEIGHT = 400
MIN_HEIGHT = 280
#: picture widths a close-up is cut from, most zoomed first (hex maps, the area map)
HEX_ZOOMS = (2000, 1600, 1100)
#: the same for the row-grid maps, whose hexes are smaller for the picture's width (the
#: maps are wide and low): widths giving about PFV's hex radii at its zooms (52, 41 and
#: 28 pixels), so that hex numbers, place names and block values read as well
ROW_ZOOMS = {"tac": (7200, 5600, 4000), "bia": (5000, 4000, 2800)}
AREA_ZOOMS = (3200, 2400, 1600)
#: room kept around a hex's centre, in hex radii (its counters and a ring of neighbours' edges)
HEX_ROOM = 1.25
#: room kept around an area's label, in pixels at the area map's default width
AREA_ROOM = 70.0

_WORD = re.compile(r"[A-Za-z0-9_]+")


@dataclass
class Closeup:
    """The cut picture and where it came from: tests and alt texts read these."""

    image: Image.Image
    #: the places it shows (those the map has; the busiest part of them when the
    #: action spans more than one cut at the least zoom holds), in the order given
    places: tuple[str, ...]
    #: the width of the whole picture the cut was taken from
    zoom: int
    #: the cut, in that picture's pixels (the close-up is that part at its own size)
    box: Box
    #: each place's point in the close-up
    points: dict[str, Point] = field(default_factory=dict)
    #: counters drawn inside the cut (hex maps): what a reader of the close-up sees
    pieces: list[DrawnPiece] = field(default_factory=list)
    palette: Image.Image | None = field(default=None, repr=False)

    def png(self) -> bytes:
        return encode_png(self.image, self.palette)


# -- which places ----------------------------------------------------------------------


def _area_map(view: Any) -> Any | None:
    """The area-map part of a view (A&A's dict or an ``AreaMapView``), else None."""
    from renderer.areaview import AreaMapView

    if isinstance(view, AreaMapView):
        return view
    if isinstance(view, dict) and "map" in view:
        return AreaMapView.model_validate(view["map"])
    return None


def _on_rows(view: Any) -> bool:
    """Whether ``view`` is a hex map drawn on a row grid (TAC, BIA) by :mod:`renderer.rows`."""
    return isinstance(view, HexMapView) and view.grid in ROW_GRIDS


def map_places(view: Any) -> frozenset[str]:
    """Every place id of the view's map: hexes, or territories and sea zones."""
    if _on_rows(view):
        from renderer.rows import load_row_board

        return frozenset(load_row_board(view.game).hex)
    if isinstance(view, HexMapView):
        from renderer.board import load_board

        return frozenset(load_board(view.game).hexmap.hex)
    area = _area_map(view)
    if area is None:
        return frozenset()
    from renderer.areamap import load_space_map
    from renderer.areaview import space_map_path

    return frozenset(load_space_map(space_map_path(area.game)).ids)


def places_named(view: Any, texts: Iterable[str]) -> list[str]:
    """The places of the view's map that ``texts`` name (orders, events), first
    mention first: ``["7710", "7711"]`` from ``"move 10pz 7710 7711"``."""
    known = map_places(view)
    out: dict[str, None] = {}
    for text in texts:
        for word in _WORD.findall(text):
            if word in known:
                out[word] = None
            elif word.lower() in known:
                out[word.lower()] = None
    return list(out)


def action_places(view: Any) -> list[str]:
    """The places of the actions a view itself records as recent: a hex map's arrows
    and markers, the area map's recent moves and battles."""
    out: dict[str, None] = {}
    if isinstance(view, HexMapView):
        for arrow in view.arrows:
            out.update(dict.fromkeys(arrow.path))
        out.update(dict.fromkeys(m.hex for m in view.markers))
        return list(out)
    if isinstance(view, dict):
        for recent in view.get("recent") or []:
            out.update(dict.fromkeys(recent.get("path") or []))
    area = _area_map(view)
    if area is not None:
        out.update(dict.fromkeys(b.territory for b in area.battles))
    return list(out)


# -- where they are, at each zoom ---------------------------------------------------------


@dataclass
class _Frame:
    """One zoom of one map: the picture's map box and each place's room in its pixels."""

    zoom: int
    map_box: Box
    rooms: dict[str, tuple[float, float, float, float]]
    points: dict[str, Point]


def _hex_frame(view: HexMapView, zoom: int, places: list[str]) -> _Frame:
    from renderer.style import load_style

    if _on_rows(view):
        from renderer import rows

        layer = rows.base_layer(rows.load_row_board(view.game), load_style(view.game), zoom)
    else:
        from renderer.base import base_layer
        from renderer.board import load_board

        layer = base_layer(load_board(view.game), load_style(view.game), zoom)
    layout = layer.layout
    room = layout.radius * HEX_ROOM
    points = {p: layout.center(p) for p in places}
    rooms = {p: (x - room, y - room, x + room, y + room) for p, (x, y) in points.items()}
    return _Frame(zoom, layout.map_box, rooms, points)


def _area_frame(game: str, zoom: int, places: list[str]) -> _Frame:
    from renderer.areamap import DEFAULT_WIDTH, base_layer, load_area_style

    layer = base_layer(load_area_style(game), zoom)
    pad = AREA_ROOM * zoom / DEFAULT_WIDTH
    rooms: dict[str, tuple[float, float, float, float]] = {}
    points: dict[str, Point] = {}
    for p in places:
        label = layer.labels.get(p)
        if label is None:
            continue
        x, y = label.anchor
        x0, y0, x1, y1 = label.box
        rooms[p] = (min(x0, x - pad), min(y0, y - pad), max(x1, x + pad), max(y1, y + pad))
        points[p] = (x, y)
    return _Frame(zoom, layer.map_box, rooms, points)


def _needed(frame: _Frame) -> tuple[float, float, float, float]:
    boxes = list(frame.rooms.values())
    return (
        min(b[0] for b in boxes),
        min(b[1] for b in boxes),
        max(b[2] for b in boxes),
        max(b[3] for b in boxes),
    )


def _clamp(start: float, size: float, low: float, high: float) -> float:
    """``start`` moved so that ``[start, start + size]`` lies in ``[low, high]`` (or
    starts at ``low`` when it cannot)."""
    return max(low, min(start, high - size))


def _cut(frame: _Frame, width: int) -> Box:
    """The crop at this zoom: ``width`` wide and as tall as the places need (from
    :data:`MIN_HEIGHT`), centred on them and kept on the map."""
    x0, y0, x1, y1 = _needed(frame)
    mx0, my0, mx1, my1 = frame.map_box
    w = min(width, mx1 - mx0)
    h = min(max(MIN_HEIGHT, y1 - y0, 1), MAX_HEIGHT, my1 - my0)
    left = _clamp((x0 + x1 - w) / 2, w, mx0, mx1)
    top = _clamp((y0 + y1 - h) / 2, h, my0, my1)
    return (round(left), round(top), round(left + w), round(top + h))


def _fits(frame: _Frame, width: int, factor: float = 1.0) -> bool:
    """Whether the places fit the preview at this zoom, or at ``factor`` times it."""
    x0, y0, x1, y1 = _needed(frame)
    return (x1 - x0) * factor <= width and (y1 - y0) * factor <= MAX_HEIGHT


def _zoom_for(zooms: tuple[int, ...], frame_at: Any, width: int) -> _Frame | None:
    """The frame of the most zoomed picture whose cut holds every place; when even the
    least zoomed one cannot, that one narrowed to its busiest part (:func:`_busiest`).
    Places scale with the picture's width, so one frame tells which zoom fits; only
    that zoom's base layer is drawn (or read from the cache)."""
    first = frame_at(zooms[0])
    if not first.rooms:
        return None
    for zoom in zooms:
        if _fits(first, width, zoom / zooms[0]):
            return first if zoom == zooms[0] else frame_at(zoom)
    last = frame_at(zooms[-1])
    return _busiest(last, width)


def _busiest(frame: _Frame, width: int) -> _Frame:
    """The frame kept to the most places one cut holds: around each place in turn, the
    nearest others are added while they fit; the largest group wins, the earliest
    named place breaking ties. A turn that moved pieces all over the map is shown where
    most of it happened, legibly, rather than shrunk until nothing can be read."""

    def centre(p: str) -> Point:
        x0, y0, x1, y1 = frame.rooms[p]
        return ((x0 + x1) / 2, (y0 + y1) / 2)

    best: list[str] = []
    for anchor in frame.rooms:
        ax, ay = centre(anchor)
        by_distance = sorted(
            frame.rooms, key=lambda p: (centre(p)[0] - ax) ** 2 + (centre(p)[1] - ay) ** 2
        )
        group: list[str] = []
        bounds = frame.rooms[anchor]
        for p in by_distance:
            r = frame.rooms[p]
            joined = (
                min(bounds[0], r[0]),
                min(bounds[1], r[1]),
                max(bounds[2], r[2]),
                max(bounds[3], r[3]),
            )
            if joined[2] - joined[0] <= width and joined[3] - joined[1] <= MAX_HEIGHT:
                group.append(p)
                bounds = joined
        if len(group) > len(best):
            best = group
    order = [p for p in frame.rooms if p in best]  # as named
    return _Frame(
        frame.zoom,
        frame.map_box,
        {p: frame.rooms[p] for p in order},
        {p: frame.points[p] for p in order},
    )


# -- the picture ------------------------------------------------------------------------


def closeup(
    view: Any, places: Iterable[str] | None = None, width: int = CLOSEUP_WIDTH
) -> Closeup | None:
    """The close-up of ``view`` around ``places`` (default: the actions the view records,
    :func:`action_places`), ``width`` pixels wide at most; None when none of the places
    is on the view's map. Drawn from ``view`` alone: a reader's close-up shows what that
    reader's view holds, nothing more."""
    wanted = list(dict.fromkeys(places if places is not None else action_places(view)))
    known = map_places(view)
    on_map = [p for p in wanted if p in known]
    if not on_map:
        return None
    if isinstance(view, HexMapView):
        hex_zooms = ROW_ZOOMS.get(view.game, HEX_ZOOMS) if _on_rows(view) else HEX_ZOOMS
        zooms, frame_at = hex_zooms, lambda z: _hex_frame(view, z, on_map)
    else:
        area = _area_map(view)
        if area is None:
            return None
        zooms, frame_at = AREA_ZOOMS, lambda z: _area_frame(area.game, z, on_map)
    frame = _zoom_for(zooms, frame_at, width)
    if frame is None:
        return None
    box = _cut(frame, width)
    pieces: list[DrawnPiece] = []
    if isinstance(view, HexMapView):
        from renderer.hexmap import render  # the row grids' maps through renderer.rows

        drawn = render(view, frame.zoom)
        image, palette = drawn.image, drawn.palette
        pieces = [p for p in drawn.pieces if p.hex is not None and _overlaps(p.bbox, box)]
    else:
        from renderer.areamap import render_area

        drawn_area = render_area(area, frame.zoom)  # type: ignore[arg-type]
        image, palette = drawn_area.image, drawn_area.palette
    points = {p: (x - box[0], y - box[1]) for p, (x, y) in frame.points.items()}
    return Closeup(image.crop(box), tuple(frame.points), frame.zoom, box, points, pieces, palette)


def _overlaps(a: Box, b: Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def closeup_png(
    view: Any, places: Iterable[str] | None = None, width: int = CLOSEUP_WIDTH
) -> bytes | None:
    """:func:`closeup` as PNG bytes; None when it has nothing to show."""
    cut = closeup(view, places, width)
    return cut.png() if cut is not None else None
