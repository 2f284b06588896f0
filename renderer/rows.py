"""Maps on pointy-topped row grids: The African Campaign (``AABB``, even rows shifted)
and Blocks in Afrika (``CCRR``, odd rows shifted, blocks instead of counters).

The same contract as :mod:`renderer.hexmap`: a :class:`~engine.core.view.HexMapView`
whose ``grid`` names a row grid is drawn on its game's map pack, and only what the view
holds is drawn (an enemy block arrives as its nation and token, and is drawn as that).
The static layer (terrain, hexsides, rivers, roads, rails, places, borders, labels and
the key) is drawn once per pack, style and width, kept in memory and on disk through
:mod:`renderer.diskcache` like PFV's; the pieces, arrows, markers and panel are drawn by
PFV's overlay on a copy of it, with blocks for BIA. These maps are wide and low, so the
panel is a strip under the map rather than a column beside it.
"""

from __future__ import annotations

import hashlib
import math
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from PIL import Image, ImageDraw

from engine.core import datapack
from engine.core.view import CounterView, HexMapView, StackView, TrackView
from renderer import glyphs
from renderer.base import (
    HEXSIDE_ORDER,
    BaseLayer,
    LayerCache,
    Painter,
    Swatch,
    arrow_swatch,
    compose,
    disc_swatch,
    draw_borders,
    draw_coast,
    draw_heading,
    draw_hexside,
    draw_hexsides,
    hexagon,
    marker_swatch,
    paste_centred,
)
from renderer.counters import Sprite, _cached, counter_sprite
from renderer.fonts import draw_condensed, draw_text, fit, font, printable, width_of
from renderer.geometry import ROW_GRIDS, Box, Point, RowLayout, row_cell, row_id
from renderer.hexmap import DrawnPiece, Rendering, _Overlay, _Panel
from renderer.style import HexsideStyle, IconStyle, LineStyle, Style, load_style

PAD = 14
#: the width a row map is drawn at when the caller names none (the maps are wide)
DEFAULT_WIDTH = 3200
#: the least height of the strip under the map (turn, prompt, off-map boxes)
STRIP_MIN = 430
#: the share of the strip's width the per-turn part takes; the key has the rest
DYNAMIC_SHARE = 0.56
#: railways are not in the shared style schema: one look for both games
RAIL = LineStyle(colour="#262626", width=0.055, legend="Railway")
#: production colours of BIA's economy (Play Aid), drawn as pips in the hex
PRODUCTION = {
    "yellow": "#f2c811",
    "red": "#d32f2f",
    "blue": "#1e63c4",
    "white": "#ffffff",
    "oil": "#1d1d1d",
}
#: the least block size (pixels) that prints the block's name under its symbol
BLOCK_NAME_MIN = 48
#: the size (pixels) BIA's blocks are drawn at in the panel's boxes when they fit (the
#: fleets at sea and the convoy boxes of the naval scenarios among them), however small
#: the hexes: big enough to read a block's strength and type
PANEL_BLOCK = 30
#: block edge colours (the numeral's colour on a block's edge: its firepower class)
EDGES = {
    "black": "#1d1d1d",
    "white": "#ffffff",
    "red": "#d32f2f",
    "blue": "#1e63c4",
    "green": "#2e7d32",
}


# -- the board ---------------------------------------------------------------------------


@dataclass(frozen=True)
class RowHex:
    id: str
    terrain: str
    name: str | None = None
    features: frozenset[str] = frozenset()
    country: str | None = None
    #: part of the playing area (a partial hex at the map's edge is not, BIA 7.5.2)
    playable: bool = True
    #: BIA production (colour -> points)
    production: tuple[tuple[str, int], ...] = ()


@dataclass
class _Neighbours:
    grid: str
    on_map: dict[str, RowHex]

    def neighbours(self, hex_: str) -> list[str]:
        row, col = row_cell(self.grid, hex_)
        shifted = ROW_GRIDS[self.grid][1]
        east = 1 if row % 2 == shifted else 0  # a shifted row's diagonal neighbours lie east
        steps = ((0, -1), (0, 1), (-1, east - 1), (-1, east), (1, east - 1), (1, east))
        out = []
        for dr, dc in steps:
            r, c = row + dr, col + dc
            if 0 <= r <= 99 and 0 <= c <= 99:
                n = row_id(self.grid, r, c)
                if n in self.on_map:
                    out.append(n)
        return out


@dataclass
class RowBoard:
    """A row-grid map pack in the shape the drawing needs; ``hexmap`` is itself, so PFV's
    overlay (which reads ``hex``, ``land``, ``features`` and ``grid``) draws on it too."""

    game: str
    grid_name: str
    fingerprint: str
    hex: dict[str, RowHex]
    land: dict[str, bool]
    #: (a, b, feature) for every hexside feature
    sides: list[tuple[str, str, str]] = field(default_factory=list)
    roads: list[list[str]] = field(default_factory=list)
    rails: list[list[str]] = field(default_factory=list)
    #: the red arrows across straits: (a, b, name)
    straits: list[tuple[str, str, str]] = field(default_factory=list)
    #: map hexes joined to an off-map box: (hex, name)
    exits: list[tuple[str, str]] = field(default_factory=list)
    #: big faint labels: (text, hexes it lies over)
    regions: list[tuple[str, list[str]]] = field(default_factory=list)
    #: terrain names as the pack gives them (for the key)
    terrain_names: dict[str, str] = field(default_factory=dict)

    @property
    def hexmap(self) -> RowBoard:
        return self

    @cached_property
    def grid(self) -> _Neighbours:
        return _Neighbours(self.grid_name, self.hex)

    @cached_property
    def features(self) -> dict[str, frozenset[str]]:
        return {h: x.features for h, x in self.hex.items()}


def _fingerprint(*packs: Any) -> str:
    h = hashlib.sha256()
    for p in packs:
        h.update(p.model_dump_json().encode())
    return f"{packs[0].header.version}:{h.hexdigest()[:16]}"


def _tac_board() -> RowBoard:
    from engine.games.tac.pack import MapPack

    p = datapack.load_file(datapack.pack_path("tac", "map"), MapPack)
    hexes = {
        h.id: RowHex(h.id, h.terrain, h.name, frozenset(h.features), playable=True) for h in p.hexes
    }
    land = {h: x.terrain not in ("sea",) for h, x in hexes.items()}
    depression = [h for h, x in hexes.items() if x.terrain == "offmap"]
    regions = []
    if depression:
        regions.append(
            (p.terrain_types.get("offmap", "Qattara Depression").split(" (")[0], depression)
        )
    sea = [h for h, x in hexes.items() if x.terrain == "sea"]
    if sea:
        regions.append(("Mediterranean Sea", sea))
    return RowBoard(
        game="tac",
        grid_name="even-r-AABB",
        fingerprint=_fingerprint(p),
        hex=hexes,
        land=land,
        sides=[(s.between[0], s.between[1], f) for s in p.hexsides for f in s.features],
        roads=[r.hexes for r in p.roads],
        rails=[r.hexes for r in p.railways],
        regions=regions,
        terrain_names=dict(p.terrain_types),
    )


def _bia_board() -> RowBoard:
    from engine.games.bia.pack import MapFile, TablesFile

    p = datapack.load_file(datapack.pack_path("bia", "map"), MapFile)
    tables = datapack.load_file(datapack.pack_path("bia", "tables"), TablesFile)
    hexes: dict[str, RowHex] = {}
    for h in p.hexes:
        feats = set()
        if h.locality:
            feats.add(h.locality)
        if h.port:
            feats.add(f"port_{h.port}")
        if h.victory_city:
            feats.add("victory_city")
        hexes[h.id] = RowHex(
            h.id,
            h.terrain,
            h.name,
            frozenset(feats),
            h.country,
            h.playable and not h.partial,
            tuple(sorted(h.production.items())),
        )
    land = {
        h: bool(getattr(tables.terrain.get(x.terrain), "land", x.terrain != "sea"))
        for h, x in hexes.items()
    }
    regions: list[tuple[str, list[str]]] = []
    for key, country in p.countries.items():
        ids = [h for h, x in hexes.items() if x.country == key and land[h]]
        if len(ids) >= 3:
            regions.append((country.name.split(" (")[0], ids))
    for key, name in p.bodies_of_water.items():
        ids = [h.id for h in p.hexes if h.body == key and not land[h.id]]
        if len(ids) >= 6:
            regions.append((name.split(" (")[0], ids))
    for country, label in (("egypt", "Qattara Depression"), ("tunisia", "Chotts")):
        ids = [h for h, x in hexes.items() if x.terrain == "impassable" and x.country == country]
        if ids:
            regions.append((label, ids))
    return RowBoard(
        game="bia",
        grid_name="odd-r-CCRR",
        fingerprint=_fingerprint(p, tables),
        hex=hexes,
        land=land,
        sides=[(s.between[0], s.between[1], f) for s in p.hexsides for f in s.features],
        roads=[r.hexes for r in p.roads],
        rails=[r.hexes for r in p.rails],
        straits=[(*link.between, link.name) for link in p.links if link.kind == "strait"],
        exits=[
            (a if not a.startswith("box:") else b, link.name)
            for link in p.links
            if link.kind == "offmap"
            for a, b in [link.between]
        ],
        regions=regions,
    )


_LOADERS: dict[str, Callable[[], RowBoard]] = {"tac": _tac_board, "bia": _bia_board}
_boards_lock = threading.Lock()
_boards: dict[tuple[str, tuple[tuple[str, int, int], ...]], RowBoard] = {}


def load_row_board(game: str) -> RowBoard:
    """The map pack of ``game`` (shipped, or replaced through ``UMPIRE_DATAPACKS``), read
    again only when a file changes. Raises ``DataPackError`` when it is invalid and
    ``ValueError`` for a game drawn on no row grid."""
    if game not in _LOADERS:
        raise ValueError(f"There is no row-grid map for the game {game!r}.")
    files = ("map", "tables") if game == "bia" else ("map",)
    stamp = []
    for name in files:
        path = datapack.pack_path(game, name)
        st = path.stat() if path.exists() else None
        stamp.append((str(path), st.st_mtime_ns if st else 0, st.st_size if st else 0))
    key = (game, tuple(stamp))
    with _boards_lock:
        board = _boards.get(key)
        if board is None:
            board = _LOADERS[game]()
            for old in [k for k in _boards if k[0] == game]:
                del _boards[old]
            _boards[key] = board
        return board


# -- the base layer ----------------------------------------------------------------------

_layers = LayerCache(6)


def base_layer(board: RowBoard, style: Style, width: int) -> BaseLayer:
    """The cached static layer for this map, style and width: drawn on first use, or read
    back from the disk copy an earlier process left (its layout made a row grid's again)."""
    key = (board.game, board.fingerprint, style.fingerprint, str(width), board.grid_name)

    def restore(layer: BaseLayer) -> None:
        layer.layout = RowLayout.like(layer.layout, board.grid_name)

    return _layers.get(key, lambda: draw_base(board, style, width), restore)


def clear_cache() -> None:
    _layers.clear()
    with _boards_lock:
        _boards.clear()


def draw_base(board: RowBoard, style: Style, width: int) -> BaseLayer:
    legend = _Legend(board, style, round(width * (1 - DYNAMIC_SHARE)) - 2 * PAD)
    layout = RowLayout.for_rows(
        board.grid_name, board.hex, width, max(STRIP_MIN, legend.height + 2 * PAD)
    )
    top = layout.panel_box[1]
    lx = round(width * DYNAMIC_SHARE) + PAD

    def rules(d: ImageDraw.ImageDraw) -> None:
        muted = glyphs.rgba(style.palette.muted)
        d.line((0, top, layout.width, top), fill=muted, width=2)
        d.line((lx - PAD, top + PAD, lx - PAD, layout.height - PAD), fill=muted, width=1)

    return compose(
        layout,
        style,
        lambda img, at: _Painter(board, style, img, at),  # type: ignore[arg-type]
        legend,
        (lx, top + PAD),
        (PAD, top + PAD, lx - 2 * PAD, layout.height - PAD),
        rules,
    )


class _Painter(Painter):
    """Draws the map part onto ``img`` laid out by ``layout``."""

    L: RowLayout

    #: where feature icons go in a hex, as fractions of the radius
    SLOTS = ((-0.5, -0.05), (0.5, -0.05), (-0.3, 0.4), (0.3, 0.4), (0.0, -0.45), (0.0, 0.6))

    def __init__(self, board: RowBoard, style: Style, img: Image.Image, layout: RowLayout) -> None:
        super().__init__(style, img, layout)
        self.b = board

    def paint(self) -> None:
        x0, y0, x1, y1 = self.L.map_box
        self.d.rectangle((x0, y0, x1, y1), fill=glyphs.rgba(self.style.palette.offmap))
        self.terrain()
        self.unplayable()
        self.grid()
        self.borders()
        self.coast()
        self.hexsides()
        self.lines()
        self.links()
        self.icons()

    def terrain(self) -> None:
        spots = ((-0.38, -0.22), (0.38, -0.22), (0.0, 0.32), (-0.05, -0.55))
        for h, x in self.b.hex.items():
            ts = self.style.terrain.get(x.terrain)
            fill = glyphs.rgba(ts.fill) if ts else (255, 0, 255, 255)
            corners = self.L.corners(h, 1.01)
            self.d.polygon(corners, fill=fill)
            if ts is None or ts.pattern.kind == "none":
                continue
            pat = ts.pattern
            ink = glyphs.rgba(pat.colour)
            if pat.kind in glyphs.LATTICE_PATTERNS:
                cx, cy = self.L.center(h)
                for dx, dy in spots[: max(1, min(pat.count, len(spots)))]:
                    glyphs.motif(
                        self.d, pat.kind, cx + dx * self.R, cy + dy * self.R,
                        self.R * 0.5 * pat.scale, ink,
                    )  # fmt: skip
            else:
                glyphs.hex_motif(self.d, pat.kind, self.L.corners(h), self.R, ink, pat.count)

    def unplayable(self) -> None:
        wash = glyphs.rgba(self.style.palette.offmap)[:3] + (150,)
        for h, x in self.b.hex.items():
            if not x.playable:
                self.d.polygon(self.L.corners(h, 1.01), fill=wash)

    def grid(self) -> None:
        colour = glyphs.rgba(self.style.palette.grid)
        width = max(1, round(self.R * 0.03))
        for h in self.b.hex:
            c = self.L.corners(h)
            # each hex draws its three upper sides; the lower ones are its neighbours' upper
            # sides, or the map's edge (drawn by the last row's own)
            self.d.line([c[4], c[5], c[0], c[1]], fill=colour, width=width)
            if not any(self._below(h)):
                self.d.line([c[1], c[2], c[3], c[4]], fill=colour, width=width)
            else:
                self.d.line([c[1], c[2]], fill=colour, width=width)
                self.d.line([c[3], c[4]], fill=colour, width=width)

    def _below(self, h: str) -> list[str]:
        row, _ = row_cell(self.L.grid, h)
        return [n for n in self.b.grid.neighbours(h) if row_cell(self.L.grid, n)[0] > row]

    def borders(self) -> None:
        """BIA's national borders (its map's countries), between land hexes only."""
        zones = {h: x.country for h, x in self.b.hex.items()}
        draw_borders(
            self.d, self.L, zones, self.b.land, self.b.grid.neighbours, self.style, 0.2, 0.1
        )

    def coast(self) -> None:
        draw_coast(self.d, self.L, self.b.hex, self.b.land, self.b.grid.neighbours, self.style)

    def hexsides(self) -> None:
        items = [
            (HEXSIDE_ORDER[hs.draw], a, b, hs)
            for a, b, f in self.b.sides
            if (hs := self.style.hexsides.get(f)) is not None
            and a in self.b.hex
            and b in self.b.hex
        ]
        draw_hexsides(self.d, self.L, items)

    def lines(self) -> None:
        rs = self.style.roads
        chains = [[self.L.center(h) for h in c if h in self.b.hex] for c in self.b.roads]
        chains = [c for c in chains if len(c) >= 2]
        if rs.casing:
            for pts in chains:
                glyphs.thick_line(self.d, pts, glyphs.rgba(rs.casing), self.R * rs.width * 1.8)
        for pts in chains:
            glyphs.thick_line(self.d, pts, glyphs.rgba(rs.colour), self.R * rs.width)
        ink = glyphs.rgba(RAIL.colour)
        for chain in self.b.rails:
            pts = [self.L.center(h) for h in chain if h in self.b.hex]
            if len(pts) < 2:
                continue
            offset = [(x + self.R * 0.12, y + self.R * 0.12) for x, y in pts]
            glyphs.thick_line(self.d, offset, ink, self.R * RAIL.width)
            _ties(self.d, offset, self.R * 0.45, self.R * 0.13, ink, max(1, round(self.R * 0.04)))

    def links(self) -> None:
        red = glyphs.rgba("#d32f2f")
        for a, b, _name in self.b.straits:
            if a in self.b.hex and b in self.b.hex:
                pa, pb = self.L.center(a), self.L.center(b)
                glyphs.arrow(self.d, [pa, pb], red, self.R * 0.14, glyphs.rgba("#ffffffd0"), False)
        for h, _name in self.b.exits:
            if h not in self.b.hex:
                continue
            cx, cy = self.L.center(h)
            tip = (cx, max(self.L.map_box[1] + self.R * 0.2, cy - self.R * 1.3))
            glyphs.arrow(
                self.d, [(cx, cy - self.R * 0.2), tip], red, self.R * 0.14,
                glyphs.rgba("#ffffffd0"), False,
            )  # fmt: skip

    def icons(self) -> None:
        size = self.R * 0.4
        for h, x in self.b.hex.items():
            cx, cy = self.L.center(h)
            shown = [f for f in sorted(x.features, key=self._rank) if f in self.style.features]
            slot = 0
            for f in shown:
                fs = self.style.features[f]
                if fs.outline:
                    pts = self.L.corners(h, 0.88)
                    self.d.line(
                        pts + [pts[0]], fill=glyphs.rgba(fs.outline),
                        width=max(1, round(self.R * 0.09)), joint="curve",
                    )  # fmt: skip
                if fs.icon == "circle" and fs.text == "" and f.startswith("victory"):
                    continue
                if slot >= len(self.SLOTS):
                    break
                sx, sy = self.SLOTS[slot]
                slot += 1
                glyphs.icon(
                    self.d, fs.icon, cx + sx * self.R, cy + sy * self.R, size,
                    glyphs.rgba(fs.fill), glyphs.rgba(fs.ink), fs.text,
                )  # fmt: skip
            pips = [colour for colour, n in x.production for _ in range(n)]
            for i, colour in enumerate(pips):
                r = self.R * 0.1
                px = cx + (i - (len(pips) - 1) / 2) * r * 2.6
                py = cy + self.R * 0.3
                self.d.ellipse(
                    (px - r, py - r, px + r, py + r), fill=glyphs.rgba(PRODUCTION.get(colour, "#888888")),
                    outline=glyphs.rgba("#1d1d1d"), width=max(1, round(r * 0.3)),
                )  # fmt: skip

    def _rank(self, feature: str) -> int:
        order = list(self.style.features)
        return order.index(feature) if feature in order else len(order)

    # -- text, drawn at full size -----------------------------------------------------

    def label(self) -> None:
        pal = self.style.palette
        region = glyphs.rgba(pal.region_label)
        for text, hexes in self.b.regions:
            pts = [self.L.center(h) for h in hexes]
            x = sum(p[0] for p in pts) / len(pts)
            y = sum(p[1] for p in pts) / len(pts)
            spaced = " ".join(printable(text).upper())
            xs = [p[0] for p in pts]
            room = max(self.R * 4, min(max(xs) - min(xs), self.R * 16))
            f = fit(spaced, room, self.R * 0.75, min_size=9)
            self.d.text((x, y), spaced, font=f, fill=region, anchor="mm")
        number = font(max(7, self.R * 0.27))
        colour = glyphs.rgba(pal.hex_number)
        faint = glyphs.mix(pal.hex_number, "#ffffff", 0.45)
        for h in self.b.hex:
            cx, cy = self.L.center(h)
            ink = colour if self.b.land[h] else faint
            self.d.text((cx, cy - self.R * 0.66), h, font=number, fill=ink, anchor="mm")
        place = glyphs.rgba(pal.place_name)
        halo = glyphs.rgba("#ffffffc8")
        for h, x in self.b.hex.items():
            if not x.name:
                continue
            cx, cy = self.L.center(h)
            f = fit(x.name, self.R * 2.3, max(9, self.R * 0.36), min_size=8)
            draw_text(self.d, (cx, cy + self.R * 0.72), x.name, f, place, halo=halo)
        for h, name in self.b.exits:
            if h in self.b.hex:
                cx, cy = self.L.center(h)
                tip_y = max(self.L.map_box[1] + self.R * 0.2, cy - self.R * 1.3)
                f = font(max(9, self.R * 0.36))
                draw_text(
                    self.d, (cx + self.R * 0.25, tip_y + self.R * 0.1), name, f,
                    glyphs.rgba("#b71c1c"), anchor="lm", halo=halo,
                )  # fmt: skip


def _ties(
    d: ImageDraw.ImageDraw, pts: list[Point], every: float, half: float, ink: glyphs.RGBA, w: int
) -> None:
    """Short strokes across a railway every ``every`` pixels."""
    carry = every / 2
    for (ax, ay), (bx, by) in zip(pts, pts[1:], strict=False):
        seg = math.dist((ax, ay), (bx, by))
        if seg == 0:
            continue
        ux, uy = (bx - ax) / seg, (by - ay) / seg
        t = carry
        while t < seg:
            x, y = ax + ux * t, ay + uy * t
            d.line((x - uy * half, y + ux * half, x + uy * half, y - ux * half), fill=ink, width=w)
            t += every
        carry = t - seg


# -- the key -----------------------------------------------------------------------------


@dataclass
class _Entry:
    label: str
    shape: Callable[[ImageDraw.ImageDraw, float, float, float, float], None] | None = None
    sprite: Sprite | None = None


class _Legend:
    """The key in the strip's right part: columns of swatches with their labels."""

    ROW = 22
    SWATCH = 34
    HEAD = 24

    def __init__(self, board: RowBoard, style: Style, width: int) -> None:
        self.b = board
        self.style = style
        self.width = width
        self.sections = [s for s in self._sections() if s[1]]
        self.columns = self._columns()
        self.height = self.HEAD + max(
            (sum(22 + len(s[1]) * self.ROW + 6 for s in col) for col in self.columns), default=0
        )

    @property
    def labels(self) -> list[str]:
        return [e.label for _, entries in self.sections for e in entries]

    def _sections(self) -> list[tuple[str, list[_Entry]]]:
        st, b = self.style, self.b
        used = {x.terrain for x in b.hex.values()}
        terrain = [_Entry(ts.legend, self._hex(n)) for n, ts in st.terrain.items() if n in used]
        sides = {f for _, _, f in b.sides}
        lines = [_Entry(hs.legend, self._side(hs)) for n, hs in st.hexsides.items() if n in sides]
        if b.roads:
            lines.append(_Entry(st.roads.legend, self._line(st.roads)))
        if b.rails:
            lines.append(_Entry(RAIL.legend, self._rail()))
        lines.append(_Entry(st.coast.legend, self._line(st.coast)))
        if any(x.country for x in b.hex.values()):
            lines.append(_Entry(st.border.legend, self._border()))
        if b.straits or b.exits:
            lines.append(_Entry("Red arrow: strait, or to an off-map box", self._arrow()))
        feats = {f for x in b.hex.values() for f in x.features}
        places = [_Entry(fs.legend, self._icon(fs)) for n, fs in st.features.items() if n in feats]
        if any(x.production for x in b.hex.values()):
            places.append(_Entry("Production (yellow, red, blue, white, oil)", self._pips()))
        return [
            ("Terrain", terrain),
            ("Lines and hexsides", lines),
            ("Places", places),
            ("Pieces", self._pieces()),
            ("Actions and markers", self._markings()),
        ]

    def _markings(self) -> list[_Entry]:
        st = self.style
        out = [_Entry(a.legend, self._action(name)) for name, a in st.arrows.items()]
        out += [_Entry(m.legend, self._marker(m.shape, m.fill)) for m in st.markers.values()]
        if st.control.features is None or st.control.features:
            out.append(_Entry(st.control.disc_legend, self._discs()))
        return out

    def _action(self, kind: str) -> Swatch:
        return arrow_swatch(self.style, kind, 1.2)

    def _marker(self, shape: str, fill: str) -> Swatch:
        return marker_swatch(shape, fill, 0.45)

    def _discs(self) -> Swatch:
        bands = [self.style.side(s).band for s in ("allied", "axis")]
        return disc_swatch(bands, 0.3, 0.4, 1.25)

    def _columns(self) -> list[list[tuple[str, list[_Entry]]]]:
        n = 3 if self.width >= 660 else 2
        total = sum(len(e) + 1 for _, e in self.sections)
        cols: list[list[tuple[str, list[_Entry]]]] = [[]]
        count = 0
        for s in self.sections:
            if cols[-1] and count + len(s[1]) / 2 > total / n and len(cols) < n:
                cols.append([])
                count = 0
            cols[-1].append(s)
            count += len(s[1]) + 1
        return cols

    def _cells(self, x0: float, y0: float):  # noqa: ANN202 - yields drawing positions
        col_w = self.width / max(1, len(self.columns))
        for i, col in enumerate(self.columns):
            x = x0 + i * col_w
            y = y0 + self.HEAD
            for title, entries in col:
                yield "title", title, None, x, y, col_w
                y += 22
                for e in entries:
                    yield "entry", "", e, x, y, col_w
                    y += self.ROW
                y += 6

    def draw_shapes(self, img: Image.Image, x0: float, y0: float, ss: int) -> None:
        d = ImageDraw.Draw(img, "RGBA")
        for what, _, e, x, y, _ in self._cells(x0 / ss, y0 / ss):
            if what == "entry" and e.shape is not None:
                e.shape(d, x * ss, (y + 2) * ss, self.SWATCH * ss, (self.ROW - 4) * ss)

    def draw_text(self, img: Image.Image, x0: float, y0: float) -> None:
        d = ImageDraw.Draw(img, "RGBA")
        ink = glyphs.rgba(self.style.palette.ink)
        muted = glyphs.rgba(self.style.palette.muted)
        draw_heading(d, (x0, y0 + 9), "Key to the map", 16, ink)
        for what, title, e, x, y, col_w in self._cells(x0, y0):
            if what == "title":
                draw_heading(d, (x, y + 10), title, 13, muted)
                continue
            if e.sprite is not None:
                paste_centred(img, e.sprite, x, y, self.SWATCH, self.ROW)
            room = col_w - self.SWATCH - 12
            f = fit(e.label, room, 12, min_size=9)
            text = e.label
            while len(text) > 1 and width_of(text, f) > room:
                text = text[:-2] + "."
            draw_text(d, (x + self.SWATCH + 6, y + self.ROW / 2), text, f, ink, anchor="lm")

    # swatches, drawn into (x, y, w, h) in supersampled pixels

    def _hex(self, name: str) -> Callable[..., None]:
        ts = self.style.terrain[name]

        def draw(d: ImageDraw.ImageDraw, x: float, y: float, w: float, h: float) -> None:
            r = h * 0.58
            cx, cy = x + w / 2, y + h / 2
            pts = hexagon(cx, cy, r, -90)
            d.polygon(pts, fill=glyphs.rgba(ts.fill), outline=glyphs.rgba(self.style.palette.muted))
            if ts.pattern.kind in glyphs.LATTICE_PATTERNS:
                glyphs.motif(d, ts.pattern.kind, cx, cy, r * 0.9, glyphs.rgba(ts.pattern.colour))
            elif ts.pattern.kind != "none":
                glyphs.hex_motif(d, ts.pattern.kind, pts, r, glyphs.rgba(ts.pattern.colour), 2)

        return draw

    def _side(self, hs: HexsideStyle) -> Callable[..., None]:
        def draw(d: ImageDraw.ImageDraw, x: float, y: float, w: float, h: float) -> None:
            draw_hexside(d, hs, ((x + 2, y + h / 2), (x + w - 2, y + h / 2)), h * 1.2)

        return draw

    def _line(self, ls: LineStyle) -> Callable[..., None]:
        def draw(d: ImageDraw.ImageDraw, x: float, y: float, w: float, h: float) -> None:
            pts = [(x + 2, y + h / 2), (x + w - 2, y + h / 2)]
            if ls.casing:
                glyphs.thick_line(d, pts, glyphs.rgba(ls.casing), h * 1.2 * ls.width * 1.8)
            glyphs.thick_line(d, pts, glyphs.rgba(ls.colour), h * 1.2 * ls.width)

        return draw

    def _rail(self) -> Callable[..., None]:
        def draw(d: ImageDraw.ImageDraw, x: float, y: float, w: float, h: float) -> None:
            pts = [(x + 2, y + h / 2), (x + w - 2, y + h / 2)]
            ink = glyphs.rgba(RAIL.colour)
            glyphs.thick_line(d, pts, ink, h * 1.2 * RAIL.width)
            _ties(d, pts, h * 0.5, h * 0.16, ink, max(1, round(h * 0.06)))

        return draw

    def _border(self) -> Callable[..., None]:
        bs = self.style.border

        def draw(d: ImageDraw.ImageDraw, x: float, y: float, w: float, h: float) -> None:
            a, b = (x + 2, y + h / 2), (x + w - 2, y + h / 2)
            r = h * 1.2
            glyphs.dashed_line(d, a, b, glyphs.rgba(bs.colour), r * bs.width, r * 0.28, r * 0.2)

        return draw

    def _arrow(self) -> Callable[..., None]:
        def draw(d: ImageDraw.ImageDraw, x: float, y: float, w: float, h: float) -> None:
            glyphs.arrow(
                d, [(x + 2, y + h / 2), (x + w - 2, y + h / 2)], glyphs.rgba("#d32f2f"),
                h * 0.2, glyphs.rgba("#ffffff"), False,
            )  # fmt: skip

        return draw

    def _icon(self, fs: IconStyle) -> Callable[..., None]:
        def draw(d: ImageDraw.ImageDraw, x: float, y: float, w: float, h: float) -> None:
            cx, cy = x + w / 2, y + h / 2
            if fs.outline:
                pts = hexagon(cx, cy, h * 0.58, -90)
                d.line(pts + [pts[0]], fill=glyphs.rgba(fs.outline), width=max(1, round(h * 0.1)))
            glyphs.icon(
                d, fs.icon, cx, cy, h * 0.7, glyphs.rgba(fs.fill), glyphs.rgba(fs.ink), fs.text
            )

        return draw

    def _pips(self) -> Callable[..., None]:
        def draw(d: ImageDraw.ImageDraw, x: float, y: float, w: float, h: float) -> None:
            r = h * 0.16
            for i, colour in enumerate(PRODUCTION.values()):
                px, py = x + r * 1.3 + i * r * 2.5, y + h / 2
                d.ellipse(
                    (px - r, py - r, px + r, py + r), fill=glyphs.rgba(colour),
                    outline=glyphs.rgba("#1d1d1d"), width=max(1, round(r * 0.3)),
                )  # fmt: skip

        return draw

    def _pieces(self) -> list[_Entry]:
        size = 20
        out = []
        if self.b.game != "bia":
            # the printed colours (TAC 2.4.1); "axis" is the stacks' and holders' colour
            for side_id, side in self.style.sides.items():
                if side_id != "axis":
                    sample = CounterView(
                        id="key", side=side_id, kind="unit", name=side.name, symbol="infantry",
                        combat=4, move=6,
                    )  # fmt: skip
                    out.append(
                        _Entry(
                            f"{side.name}: combat, movement",
                            sprite=face(self.b.game, sample, self.style, size),
                        )
                    )
            reduced = CounterView(
                id="key", side="allied", kind="unit", name="", symbol="armor", combat=2, move=6,
                reduced=True,
            )  # fmt: skip
            out.append(
                _Entry(
                    "Reduced (a lower step)", sprite=face(self.b.game, reduced, self.style, size)
                )
            )
            return out
        for side_id, side in self.style.sides.items():
            if side_id in ("axis", "allied"):
                continue
            blank = CounterView(id="key", side=side_id, kind="unit", name="", symbol="block")
            out.append(_Entry(side.name, sprite=face(self.b.game, blank, self.style, size)))
        own = CounterView(
            id="key", side="uk", kind="unit", name="Block", symbol="infantry", combat=3,
            tags=["edge:white", "steps:3/4"],
        )  # fmt: skip
        out.append(
            _Entry(
                "Own block: strength on top, type, steps", sprite=face("bia", own, self.style, size)
            )
        )
        oos = CounterView(id="key", side="uk", kind="unit", name="", symbol="block", tags=["oos"])
        out.append(_Entry("White barrel: out of supply", sprite=face("bia", oos, self.style, size)))
        held = CounterView(id="key", side="italy", kind="unit", name="", symbol="block",
                           tags=["reserve"])  # fmt: skip
        out.append(_Entry("Black barrel: in reserve", sprite=face("bia", held, self.style, size)))
        seen = CounterView(
            id="key", side="germany", kind="unit", name="Block", symbol="tank", combat=4,
            tags=["edge:red", "revealed"],
        )  # fmt: skip
        out.append(_Entry("Eye: enemy block revealed", sprite=face("bia", seen, self.style, size)))
        hq = CounterView(id="key", side="germany", kind="unit", name="", symbol="block",
                         tags=["ap:2"])  # fmt: skip
        out.append(_Entry("Disc: activated HQ, AP left", sprite=face("bia", hq, self.style, size)))
        gas = CounterView(id="key", side="uk", kind="unit", name="", symbol="block",
                          tags=["fuelled"])  # fmt: skip
        out.append(_Entry("Amber dot: own unit fuelled", sprite=face("bia", gas, self.style, size)))
        return out


# -- blocks -----------------------------------------------------------------------------


def face(game: str, counter: CounterView, style: Style, size: int) -> Sprite:
    """The picture of a piece: a block for BIA, a printed counter otherwise."""
    if game != "bia":
        return counter_sprite(counter, style, size)
    # what the block shows: the name only when big enough to print it, the token always
    named = counter.symbol == "block" or size >= BLOCK_NAME_MIN
    key = (
        counter.side, counter.name if named else "", counter.symbol, counter.combat,
        tuple(counter.tags),
    )  # fmt: skip
    return _cached(("block", style.fingerprint, key, size), lambda: _block(counter, style, size))


def _block(counter: CounterView, style: Style, size: int) -> Image.Image:
    """A wooden block seen from above: the nation's colour; the face the owner sees has
    the strength on the top edge (on a strip in the edge's colour), the type's symbol and
    the name, and step pips; a block whose face is hidden shows only its colour. Tags:
    ``edge:<colour>``, ``steps:<n>/<max>``, ``oos`` (white barrel), ``reserve`` (black
    barrel, Reserve Mode: beside the white one when both), ``revealed`` (eye), ``ap:<n>``
    (an activated HQ's AP left, on a white disc over its symbol) and ``fuelled`` (an amber
    dot on the strip's left end)."""
    s = style.side(counter.side)
    tags = dict(t.split(":", 1) if ":" in t else (t, "") for t in counter.tags)
    ss = 3
    S = size * ss
    big = Image.new("RGBA", (S, S), (0, 0, 0, 0))
    d = ImageDraw.Draw(big)
    ink = glyphs.rgba("#1b1b1b")
    d.rounded_rectangle((0, 0, S - 1, S - 1), radius=S * 0.1, fill=ink)
    edge = max(ss, round(S * 0.045))
    body = glyphs.rgba(s.fill)
    d.rounded_rectangle((edge, edge, S - 1 - edge, S - 1 - edge), radius=S * 0.07, fill=body)
    shown = counter.symbol != "block"
    strip = S * 0.3
    if shown:
        colour = glyphs.rgba(EDGES.get(tags.get("edge", ""), s.band))
        d.rectangle((edge, edge, S - 1 - edge, strip), fill=colour)
        sym = style.symbols.get(counter.symbol)
        if sym is not None:
            box = (S * 0.26, S * 0.38, S * 0.74, S * 0.66)
            if not sym.frame:
                box = (S * 0.34, S * 0.36, S * 0.66, S * 0.68)
            glyphs.nato(d, sym.draw, box, glyphs.rgba(s.band_text), body, sym.frame)
        n, _, most = tags.get("steps", "").partition("/")
        if n.isdigit() and most.isdigit():
            n, most = int(n), min(int(most), 6)
            r = S * 0.045
            for i in range(most):
                px = S / 2 + (i - (most - 1) / 2) * r * 2.8
                py = S * 0.92 - r
                fill = glyphs.rgba(s.band_text) if i < n else None
                d.ellipse(
                    (px - r, py - r, px + r, py + r),
                    fill=fill,
                    outline=glyphs.rgba(s.band_text),
                    width=max(1, ss),
                )
    if "oos" in tags:
        # the white barrel, on the lower right corner
        bx, by, bw, bh = S * 0.66, S * 0.6, S * 0.26, S * 0.34
        d.rounded_rectangle(
            (bx, by, bx + bw, by + bh),
            radius=bw * 0.3,
            fill=(255, 255, 255, 255),
            outline=ink,
            width=ss,
        )
        for t in (0.33, 0.66):
            d.line((bx, by + bh * t, bx + bw, by + bh * t), fill=ink, width=ss)
    if "reserve" in tags:
        # the black barrel of Reserve Mode (BIA AR 16.0), hooped in white
        bx = S * (0.38 if "oos" in tags else 0.66)
        by, bw, bh = S * 0.6, S * 0.26, S * 0.34
        white = (255, 255, 255, 255)
        d.rounded_rectangle(
            (bx, by, bx + bw, by + bh), radius=bw * 0.3, fill=ink, outline=white, width=ss
        )
        for t in (0.33, 0.66):
            d.line((bx, by + bh * t, bx + bw, by + bh * t), fill=white, width=ss)
    if "revealed" in tags:
        cx, cy, r = S * 0.18, S * 0.78, S * 0.12
        d.ellipse(
            (cx - r, cy - r * 0.6, cx + r, cy + r * 0.6),
            fill=(255, 255, 255, 255),
            outline=ink,
            width=ss,
        )
        d.ellipse((cx - r * 0.35, cy - r * 0.35, cx + r * 0.35, cy + r * 0.35), fill=ink)
    if "fuelled" in tags:
        # an amber dot on the strip's left end, which a fanned stack leaves in sight
        cx, cy, r = S * 0.16, S * 0.16, S * 0.11
        d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=glyphs.rgba("#ffb300"), outline=ink,
                  width=ss)  # fmt: skip
    ap = tags.get("ap", "")
    if ap:
        # a white disc over the symbol: big enough to read on the map's smallest blocks
        cx, cy, r = S * 0.5, S * 0.64, S * 0.27
        d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=(255, 255, 255, 255), outline=ink,
                  width=ss)  # fmt: skip
    img = big.reduce(ss)
    t = ImageDraw.Draw(img)
    if ap:
        draw_text(t, (size * 0.5, size * 0.645), ap, font(size * 0.4), ink, bold=True)
    if shown:
        if counter.combat is not None:
            text_colour = _contrast(EDGES.get(tags.get("edge", ""), s.band))
            draw_text(
                t,
                (size / 2, size * 0.16),
                str(counter.combat),
                font(size * 0.3),
                text_colour,
                bold=True,
            )
        if counter.name and size >= BLOCK_NAME_MIN:
            draw_condensed(
                img,
                (size / 2, size * 0.8),
                counter.name,
                size * 0.17,
                size * 0.86,
                glyphs.rgba(s.band_text),
            )
    elif counter.name and size >= 22:
        draw_text(
            t,
            (size / 2, size / 2),
            counter.name,
            font(size * 0.24),
            glyphs.rgba(s.band_text),
            bold=True,
        )
    return img


def _contrast(colour: str) -> glyphs.RGBA:
    r, g, b, _ = glyphs.rgba(colour)
    return glyphs.rgba("#1b1b1b") if 0.3 * r + 0.59 * g + 0.11 * b > 150 else glyphs.rgba("#ffffff")


# -- the overlay -------------------------------------------------------------------------


class _RowPanel(_Panel):
    #: the height of one track drawn in the panel: title, spaces, marks
    TRACK_H = 64

    def face(self, counter: CounterView, size: int) -> Sprite:
        return face(self.view.game, counter, self.style, size)

    def boxes(self, top: float, bottom: float) -> None:
        """BIA's boxes (the Strategic Map, fleets at sea, convoy boxes) hold blocks of
        :data:`PANEL_BLOCK` pixels, shrunk only as far as they must to fit, so that an own
        block's strength reads even where the map's hexes are small."""
        if self.view.game != "bia":
            super().boxes(top, bottom)
            return
        self.size = max(self.size, PANEL_BLOCK)
        boxes = list(self.view.boxes)
        if len(boxes) < 2 or self._boxes_height(boxes, self.size) <= bottom - top:
            self._column(boxes, top, bottom)
            return
        # two columns, the first half of the boxes on the left, the rest on the right
        x0, x1, w = self.x0, self.x1, self.w
        half, gap = (len(boxes) + 1) // 2, 12
        try:
            for i, part in enumerate((boxes[:half], boxes[half:])):
                self.w = (w - gap) / 2
                self.x0 = x0 + i * (self.w + gap)
                self.x1 = self.x0 + self.w
                self._column(part, top, bottom)
        finally:
            self.x0, self.x1, self.w = x0, x1, w

    def draw(self) -> None:
        """The panel, with the view's tracks (TAC's turn record and fuel tracks) drawn
        along its foot, under the off-map boxes and notes."""
        tracks = self.view.tracks
        if not tracks:
            super().draw()
            return
        bottom = self.y1
        self.y1 = bottom - len(tracks) * self.TRACK_H
        super().draw()
        self.y1 = bottom
        y = bottom - len(tracks) * self.TRACK_H
        for t in tracks:
            self.track(t, y + 6)
            y += self.TRACK_H

    def track(self, t: TrackView, y: float) -> None:
        """One track: its title, a row of numbered spaces, the marker's space filled."""
        draw_text(self.d, (self.x0, y), t.title, font(14), self.ink, anchor="lt", bold=True)
        n = max(1, len(t.spaces))
        cell = min(self.w / n, 48.0)
        top, h = y + 20, 22
        f, small = fit("50", cell - 2, 12, min_size=7), font(10)
        marker = glyphs.rgba(self.style.palette.ink)
        for i, label in enumerate(t.spaces):
            x = self.x0 + i * cell
            here = i == t.at
            self.d.rectangle((x, top, x + cell - 2, top + h), fill=marker if here else (255, 255, 255, 200),
                             outline=self.muted)  # fmt: skip
            ink = glyphs.rgba("#ffffff") if here else self.ink
            draw_text(self.d, (x + (cell - 2) / 2, top + h / 2), label, f, ink, anchor="mm", bold=here)
            mark = t.marks.get(i)
            if mark:
                draw_text(self.d, (x + (cell - 2) / 2, top + h + 2), mark, small, self.muted, anchor="mt")


class _RowOverlay(_Overlay):
    #: blocks in one hex are fanned upwards by this share of their size, so that the top
    #: edge (the strength) of each shows above the one in front (at most FAN_MAX of them;
    #: a hex holds three ground blocks a side, BIA stacking)
    FAN = 0.3
    FAN_MAX = 6

    def face(self, counter: CounterView, size: int) -> Sprite:
        return face(self.view.game, counter, self.style, size)

    def stack(self, stack: StackView) -> None:
        if self.view.game != "bia":
            super().stack(stack)
            return
        if not self._on_map(stack.hex):
            return
        S = self.size
        shown = list(reversed(stack.counters[: self.FAN_MAX]))  # the bottom one first
        n = len(shown)
        # a big stack (a battle hex holds both sides) is fanned tighter, within about a hex
        step = (
            S * self.FAN
            if n < 2
            else min(S * self.FAN, max(S * 0.18, (self.R * 2.4 - S) / (n - 1)))
        )
        cx, cy = self.L.center(stack.hex)
        top_box: Box | None = None
        for i, counter in enumerate(shown):
            x = round(cx - S / 2 + (i - (n - 1) / 2) * S * 0.06)
            y = round(cy - S / 2 + (i - (n - 1) / 2) * step)
            self.d.rectangle((x + 2, y + 2, x + S + 1, y + S + 1), fill=(0, 0, 0, 70))
            self.face(counter, S).paste_on(self.img, (x, y))
            box = (x, y, x + S, y + S)
            self.out.pieces.append(DrawnPiece(counter.id, counter.side, stack.hex, None, box))
            top_box = box if top_box is None else top_box
        if stack.count > 1 and top_box is not None:
            self.count_badge(stack, top_box)

    def panel(self) -> _Panel:
        return _RowPanel(self.view, self.style, self.base, self.out, self.size)


_render_lock = threading.RLock()


def render(
    view: HexMapView,
    width: int = DEFAULT_WIDTH,
    *,
    board: RowBoard | None = None,
    style: Style | None = None,
) -> Rendering:
    """Draw ``view`` on its game's row-grid map, ``width`` pixels wide."""
    if view.grid not in ROW_GRIDS:
        raise ValueError(f"The grid {view.grid!r} is not a row grid.")
    style = style or load_style(view.game)
    board = board or load_row_board(view.game)
    if board.grid_name != view.grid:
        raise ValueError(f"The {view.game} map is on the {board.grid_name} grid, not {view.grid}.")
    with _render_lock:
        base = base_layer(board, style, width)
        out = Rendering(
            image=base.image.copy(), layout=base.layout, legend=list(base.legend),
            palette=base.palette,
        )  # fmt: skip
        _RowOverlay(view, board, style, base, out).draw()  # type: ignore[arg-type]
    return out
