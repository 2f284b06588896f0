"""The static layer: terrain, hexsides, roads, features, labels and the legend.

None of it changes during a game, so it is drawn once per map pack, style and image width
and kept in memory (and on disk, for the next process); each turn copies it and draws only
the pieces and the last actions. Shapes are drawn at twice the size and scaled down
(smooth edges); text is drawn after, at full size, so that it stays crisp.
"""

from __future__ import annotations

import math
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Protocol

from PIL import Image, ImageChops, ImageDraw

from engine.core.view import CounterView
from renderer import diskcache, glyphs
from renderer.board import Board
from renderer.counters import Sprite, badge, counter_sprite
from renderer.fonts import Font, draw_text, fit, font, printable, width_of
from renderer.geometry import Layout, Point
from renderer.style import HexsideStyle, Style

SUPERSAMPLE = 2
#: the piece kinds a view can carry; a style's other kinds (a battlegroup) print as units
VIEW_KINDS = ("unit", "support", "air")
PAD = 14
#: the least height left above the legend for turn, prompt and off-map boxes
DYNAMIC_MIN = 560


@dataclass
class BaseLayer:
    image: Image.Image
    layout: Layout
    #: where the per-turn part of the side panel may draw: (x0, y0, x1, y1)
    dynamic_box: tuple[int, int, int, int]
    #: the legend's entries, in the order drawn (for tests and for alt text)
    legend: list[str] = field(default_factory=list)
    #: a 256-colour palette fitted to this layer, which holds nearly every colour a turn
    #: adds too (the legend shows sample counters, arrows and markers): turns are encoded
    #: against it instead of fitting a new palette each time
    palette: Image.Image | None = None


class LayerCache:
    """Static layers kept in memory, the least recently used dropped past ``most``, and
    (with ``disk``) on disk through :mod:`renderer.diskcache` for the next process. One
    lock: a layer is drawn once even when two threads ask for it together. PFV's maps and
    the row maps (:mod:`renderer.rows`) keep theirs here; the area map could too."""

    def __init__(self, most: int, disk: bool = True) -> None:
        self.most = most
        self.disk = disk
        self.lock = threading.Lock()
        self.layers: OrderedDict[tuple[str, ...], BaseLayer] = OrderedDict()

    def get(
        self,
        key: tuple[str, ...],
        draw: Callable[[], BaseLayer],
        restore: Callable[[BaseLayer], None] | None = None,
    ) -> BaseLayer:
        """The layer under ``key``: from memory, else from disk (passed to ``restore``,
        which puts back what the disk copy does not keep), else drawn by ``draw``."""
        with self.lock:
            hit = self.layers.get(key)
            if hit is not None:
                self.layers.move_to_end(key)
                return hit
            layer = diskcache.load(key) if self.disk else None
            if layer is not None and restore is not None:
                restore(layer)
            if layer is None:
                layer = draw()
                if self.disk:
                    diskcache.save(key, layer)
            self.layers[key] = layer
            while len(self.layers) > self.most:
                self.layers.popitem(last=False)
            return layer

    def clear(self) -> None:
        with self.lock:
            self.layers.clear()


_layers = LayerCache(8)


def base_layer(board: Board, style: Style, width: int) -> BaseLayer:
    """The cached static layer for this map, style and width: drawn on first use, or read
    back from the disk copy an earlier process left (:mod:`renderer.diskcache`)."""
    key = (board.game, board.fingerprint, style.fingerprint, str(width))
    return _layers.get(key, lambda: draw_base(board, style, width))


def clear_cache() -> None:
    _layers.clear()


def draw_base(board: Board, style: Style, width: int) -> BaseLayer:
    panel_w = round(width * style.panel_share)
    legend = Legend(board, style, panel_w - 2 * PAD)
    layout = Layout.for_grid(
        board.grid_hexes(), width, style.panel_share, min_height=legend.height + DYNAMIC_MIN
    )
    px0 = layout.panel_box[0]
    legend_top = layout.height - legend.height - PAD

    def rule(d: ImageDraw.ImageDraw) -> None:
        mx1 = layout.map_box[2]
        d.line((mx1, 0, mx1, layout.height), fill=glyphs.rgba(style.palette.muted), width=2)

    return compose(
        layout,
        style,
        lambda img, at: _MapPainter(board, style, img, at),
        legend,
        (px0 + PAD, legend_top),
        (px0 + PAD, PAD, layout.width - PAD, legend_top - PAD),
        rule,
    )


class _Key(Protocol):
    """What :func:`compose` needs of a map's key (:class:`Legend`, the row maps' own)."""

    @property
    def labels(self) -> list[str]: ...

    def draw_shapes(self, img: Image.Image, x0: float, y0: float, ss: int) -> None: ...

    def draw_text(self, img: Image.Image, x0: float, y0: float) -> None: ...


class _Painting(Protocol):
    """What :func:`compose` needs of a map painter: shapes, then text."""

    def paint(self) -> None: ...

    def label(self) -> None: ...


def compose(
    layout: Layout,
    style: Style,
    painter: Callable[[Image.Image, Layout], _Painting],
    key: _Key,
    key_at: tuple[int, int],
    dynamic_box: tuple[int, int, int, int],
    rules: Callable[[ImageDraw.ImageDraw], None],
) -> BaseLayer:
    """The steps every hex map's static layer takes, whatever its grid: the map's shapes
    and the key's swatches drawn at :data:`SUPERSAMPLE` times the size on the panel's
    colour and reduced; then the map's text, the panel's ``rules`` and the key's text at
    full size (crisp); and the palette turns are encoded against. ``painter`` makes the
    map's painter for an image and its layout; the key's top left corner is ``key_at``."""
    ss = SUPERSAMPLE
    big = Image.new("RGB", (layout.width * ss, layout.height * ss), style.palette.background)
    big_layout = layout.scaled(ss)
    painter(big, big_layout).paint()
    ImageDraw.Draw(big).rectangle(big_layout.panel_box, fill=style.palette.panel)
    kx, ky = key_at
    key.draw_shapes(big, kx * ss, ky * ss, ss)
    img = big.reduce(ss)
    painter(img, layout).label()
    rules(ImageDraw.Draw(img, "RGBA"))
    key.draw_text(img, kx, ky)
    return BaseLayer(
        image=img,
        layout=layout,
        dynamic_box=dynamic_box,
        legend=key.labels,
        palette=img.quantize(256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE),
    )


class Painter:
    """A map painter's tools: the style, the image and its layout (``L``, with the hex
    radius ``R``) and a drawing on it that blends (PFV's and the row maps' painters)."""

    def __init__(self, style: Style, img: Image.Image, layout: Layout) -> None:
        self.style = style
        self.img = img
        self.L = layout
        self.R = layout.radius
        self.d = ImageDraw.Draw(img, "RGBA")


class _MapPainter(Painter):
    """Draws the map part of the base layer onto ``img`` laid out by ``layout``."""

    def __init__(self, board: Board, style: Style, img: Image.Image, layout: Layout) -> None:
        super().__init__(style, img, layout)
        self.board = board
        self.map = board.hexmap

    # -- shapes (supersampled) ------------------------------------------------------

    def paint(self) -> None:
        self.offmap()
        self.terrain()
        self.patterns()
        self.region_labels()
        self.grid()
        self.roads()
        self.coast()
        self.hexsides()
        self.border()
        self.outlines()
        self.icons()

    def offmap(self) -> None:
        fill = glyphs.rgba(self.style.palette.offmap)
        for h in self.board.grid_hexes():
            if h not in self.map.hex:
                self.d.polygon(self.L.corners(h, 1.01), fill=fill)

    def terrain(self) -> None:
        for h, mh in self.map.hex.items():
            ts = self.style.terrain.get(mh.terrain[0])
            fill = glyphs.rgba(ts.fill) if ts else (255, 0, 255, 255)
            self.d.polygon(self.L.corners(h, 1.01), fill=fill)

    def patterns(self) -> None:
        for name, ts in self.style.terrain.items():
            pat = ts.pattern
            hexes = [h for h, mh in self.map.hex.items() if name in mh.terrain]
            if not hexes or pat.kind == "none":
                continue
            ink = glyphs.rgba(pat.colour)
            if pat.kind in glyphs.LATTICE_PATTERNS:
                self._lattice(set(hexes), pat.kind, ink, pat.count, pat.scale)
            else:
                for h in hexes:
                    glyphs.hex_motif(self.d, pat.kind, self.L.corners(h), self.R, ink, pat.count)

    def _lattice(
        self, hexes: set[str], kind: str, ink: glyphs.RGBA, count: int, scale: float
    ) -> None:
        """A texture of motifs over the hexes of one terrain, clipped to their outline."""
        x0, y0, x1, y1 = self._bounds(hexes)
        w, h = x1 - x0, y1 - y0
        layer = Image.new("RGBA", (w, h), (0, 0, 0, 0))
        mask = Image.new("L", (w, h), 0)
        ld, md = ImageDraw.Draw(layer), ImageDraw.Draw(mask)
        for hx in hexes:
            md.polygon([(x - x0, y - y0) for x, y in self.L.corners(hx, 1.01)], fill=255)
        # about ``count`` motifs per hex on a staggered lattice with a fixed jitter
        step = self.R * math.sqrt(2.6 / max(1, count))
        size = self.R * 0.42 * scale
        rows = int(h / (step * 0.8)) + 2
        cols = int(w / step) + 2
        seed = 12345
        for j in range(rows):
            for i in range(cols):
                seed = (seed * 1103515245 + 12345) & 0x7FFFFFFF
                jx = ((seed >> 8) % 1000 / 1000 - 0.5) * step * 0.35
                jy = ((seed >> 18) % 1000 / 1000 - 0.5) * step * 0.3
                x = i * step + (step / 2 if j % 2 else 0) + jx
                y = j * step * 0.8 + jy
                under = self.L.hex_at(x + x0, y + y0)
                if under in hexes or any(n in hexes for n in self.map.grid.neighbours(under or "")):
                    glyphs.motif(ld, kind, x, y, size, ink)
        alpha = ImageChops.multiply(layer.getchannel("A"), mask)
        self.img.paste(layer.convert("RGB"), (x0, y0), alpha)

    def _bounds(self, hexes: set[str]) -> tuple[int, int, int, int]:
        pts = [p for h in hexes for p in self.L.corners(h, 1.02)]
        return (
            max(0, int(min(p[0] for p in pts))),
            max(0, int(min(p[1] for p in pts))),
            int(max(p[0] for p in pts)) + 2,
            int(max(p[1] for p in pts)) + 2,
        )

    def region_labels(self) -> None:
        if not self.style.regions:
            return
        colour = glyphs.rgba(self.style.palette.region_label)
        for region, rs in self.style.regions.items():
            land = [h for h, mh in self.map.hex.items() if mh.region == region and self.map.land[h]]
            if not land:
                continue
            if rs.label_hex and rs.label_hex in self.map.hex:
                x, y = self.L.center(rs.label_hex)
            else:
                x = sum(self.L.center(h)[0] for h in land) / len(land)
                y = sum(self.L.center(h)[1] for h in land) / len(land)
            text = " ".join(printable(rs.label).upper())
            f = fit(text, self.R * 5, self.R * 0.6, min_size=8)
            self.d.text((x, y), text, font=f, fill=colour, anchor="mm")

    def grid(self) -> None:
        colour = glyphs.rgba(self.style.palette.grid)
        width = max(1, round(self.R * 0.028))
        seen: set[tuple[int, int, int, int]] = set()
        for h in self.map.hex:
            c = self.L.corners(h)
            for i in range(6):
                a, b = c[i], c[(i + 1) % 6]
                key = tuple(sorted([(round(a[0]), round(a[1])), (round(b[0]), round(b[1]))]))
                flat = (key[0][0], key[0][1], key[1][0], key[1][1])
                if flat in seen:
                    continue
                seen.add(flat)
                self.d.line((a, b), fill=colour, width=width)

    def roads(self) -> None:
        rs = self.style.roads
        for chain in self.map.pack.roads:
            pts = [self.L.center(h) for h in chain if h in self.map.hex]
            if len(pts) < 2:
                continue
            if rs.casing:
                glyphs.thick_line(self.d, pts, glyphs.rgba(rs.casing), self.R * rs.width * 1.7)
        for chain in self.map.pack.roads:
            pts = [self.L.center(h) for h in chain if h in self.map.hex]
            if len(pts) >= 2:
                glyphs.thick_line(self.d, pts, glyphs.rgba(rs.colour), self.R * rs.width)

    def coast(self) -> None:
        draw_coast(
            self.d, self.L, self.map.hex, self.map.land, self.map.grid.neighbours, self.style
        )

    def hexsides(self) -> None:
        order = HEXSIDE_ORDER
        items = []
        for key, features in self.map.side_features.items():
            a, b = key.split("|")
            if a not in self.map.hex or b not in self.map.hex:
                continue
            for f in features:
                hs = self.style.hexsides.get(f)
                if hs is None:
                    continue
                if hs.under and hs.under not in features and hs.under in self.style.hexsides:
                    items.append((order["line"], a, b, self.style.hexsides[hs.under]))
                items.append((order[hs.draw], a, b, hs))
        draw_hexsides(self.d, self.L, items)

    def border(self) -> None:
        zones = {h: mh.region for h, mh in self.map.hex.items()}
        draw_borders(
            self.d, self.L, zones, self.map.land, self.map.grid.neighbours, self.style, 0.22, 0.11
        )

    def outlines(self) -> None:
        for h, mh in self.map.hex.items():
            inset = 0.9
            for f in mh.features:
                fs = self.style.features.get(f)
                if fs is None or fs.outline is None:
                    continue
                pts = self.L.corners(h, inset)
                self.d.line(
                    pts + [pts[0]],
                    fill=glyphs.rgba(fs.outline),
                    width=max(1, round(self.R * 0.085)),
                    joint="curve",
                )
                inset -= 0.1

    #: where feature icons go in a hex, as fractions of the radius: left, right, then corners
    SLOTS = ((-0.7, 0.0), (0.7, 0.0), (-0.42, -0.56), (0.42, -0.56), (-0.42, 0.56), (0.42, 0.56))

    def icons(self) -> None:
        size = self.R * 0.36
        for h, mh in self.map.hex.items():
            cx, cy = self.L.center(h)
            shown = [f for f in mh.features if f in self.style.features]
            for (sx, sy), f in zip(self.SLOTS, shown, strict=False):
                fs = self.style.features[f]
                glyphs.icon(
                    self.d,
                    fs.icon,
                    cx + sx * self.R,
                    cy + sy * self.R,
                    size,
                    glyphs.rgba(fs.fill),
                    glyphs.rgba(fs.ink),
                    fs.text,
                )

    # -- text (full size) ------------------------------------------------------------

    def label(self) -> None:
        pal = self.style.palette
        number_font = font(max(8, self.R * 0.25))
        number_colour = glyphs.rgba(pal.hex_number)
        for h, mh in self.map.hex.items():
            cx, cy = self.L.center(h)
            colour = (
                number_colour if self.map.land[h] else glyphs.mix(pal.hex_number, "#ffffff", 0.35)
            )
            self.d.text((cx, cy - self.R * 0.69), h, font=number_font, fill=colour, anchor="mm")
            if mh.name:
                f = fit(mh.name, self.R * 1.9, self.R * 0.3, min_size=8)
                draw_text(
                    self.d,
                    (cx, cy + self.R * 0.66),
                    mh.name,
                    f,
                    glyphs.rgba(pal.place_name),
                    halo=glyphs.rgba("#ffffffc0"),
                )


# -- drawing shared with the row maps (renderer.rows) ------------------------------------

#: hexside features are drawn lines first, then walls, then bridges (over what they cross)
HEXSIDE_ORDER = {"line": 0, "wall": 1, "bridge": 2}


def draw_hexsides(
    d: ImageDraw.ImageDraw, layout: Layout, items: Iterable[tuple[int, str, str, HexsideStyle]]
) -> None:
    """Each ``(rank, a, b, style)`` on the side between hexes ``a`` and ``b``, the lower
    ranks (:data:`HEXSIDE_ORDER`) first and in the given order within a rank."""
    for _, a, b, hs in sorted(items, key=lambda t: t[0]):
        draw_hexside(d, hs, layout.side(a, b), layout.radius)


def draw_coast(
    d: ImageDraw.ImageDraw,
    layout: Layout,
    hexes: Iterable[str],
    land: Mapping[str, bool],
    neighbours: Callable[[str], Iterable[str]],
    style: Style,
) -> None:
    """The coastline: every side between a land hex of ``hexes`` and a sea neighbour."""
    cs = style.coast
    colour = glyphs.rgba(cs.colour)
    for h in hexes:
        if not land[h]:
            continue
        for n in neighbours(h):
            if not land[n]:
                glyphs.thick_line(d, layout.side(h, n), colour, layout.radius * cs.width)


def draw_borders(
    d: ImageDraw.ImageDraw,
    layout: Layout,
    zones: Mapping[str, str | None],
    land: Mapping[str, bool],
    neighbours: Callable[[str], Iterable[str]],
    style: Style,
    gap: float,
    phase: float,
) -> None:
    """Borders: once on every side between land hexes of two different zones (PFV's
    regions, BIA's countries; a hex of no zone has none), in the style's border look; a
    dashed one has dashes of 0.28 radius, ``gap`` radii apart, starting ``phase`` radii back."""
    bs = style.border
    colour = glyphs.rgba(bs.colour)
    R = layout.radius
    done: set[frozenset[str]] = set()
    for h, zone in zones.items():
        if zone is None or not land[h]:
            continue
        for n in neighbours(h):
            other = zones[n]
            key = frozenset((h, n))
            if key in done or other is None or other == zone or not land[n]:
                continue
            done.add(key)
            a, b = layout.side(h, n)
            if bs.casing:
                glyphs.thick_line(d, [a, b], glyphs.rgba(bs.casing), R * bs.width * 1.8)
            if bs.dash:
                glyphs.dashed_line(d, a, b, colour, R * bs.width, R * 0.28, R * gap, -R * phase)
            else:
                glyphs.thick_line(d, [a, b], colour, R * bs.width)


def hexagon(cx: float, cy: float, r: float, start: int = 0) -> list[Point]:
    """The corners of a hexagon of radius ``r`` around ``(cx, cy)``, the first at
    ``start`` degrees (0: flat-topped, -90: pointy-topped), then clockwise on screen."""
    return [
        (
            cx + r * math.cos(math.radians(60 * i + start)),
            cy + r * math.sin(math.radians(60 * i + start)),
        )
        for i in range(6)
    ]


def paste_centred(img: Image.Image, sprite: Sprite, x: float, y: float, w: float, h: float) -> None:
    """``sprite`` pasted in the middle of the cell ``(x, y, w, h)`` (a key's swatch)."""
    sprite.paste_on(img, (round(x + (w - sprite.width) / 2), round(y + (h - sprite.height) / 2)))


def draw_heading(
    d: ImageDraw.ImageDraw, at: Point, text: str, size: float, colour: glyphs.RGBA
) -> None:
    """A key's title or section heading: bold, ``size`` pixels, starting at ``at``."""
    draw_text(d, at, text, font(size), colour, anchor="lm", bold=True)


#: a key's swatch: draws into the cell ``(x, y, w, h)`` of the draw given (supersampled)
Swatch = Callable[[ImageDraw.ImageDraw, float, float, float, float], None]


def arrow_swatch(style: Style, kind: str, scale: float) -> Swatch:
    """The swatch of the last actions' arrow ``kind`` (coloured as the style's first side
    when it takes the side's colour), as thick as on a hex ``scale`` cells high."""
    a = style.arrows[kind]
    first_side = next(iter(style.sides.values()), None)
    colour = a.colour if a.colour != "side" else (first_side.band if first_side else "#333333")

    def draw(d: ImageDraw.ImageDraw, x: float, y: float, w: float, h: float) -> None:
        glyphs.arrow(
            d,
            [(x + 2, y + h / 2), (x + w - 2, y + h / 2)],
            glyphs.rgba(colour),
            h * scale * a.width * 0.8,
            glyphs.rgba("#ffffff"),
            a.dash,
        )

    return draw


def marker_swatch(shape: str, fill: str, share: float) -> Swatch:
    """The swatch of a marker, ``share`` of the cell's height in radius."""

    def draw(d: ImageDraw.ImageDraw, x: float, y: float, w: float, h: float) -> None:
        glyphs.marker(d, shape, x + w / 2, y + h / 2, h * share, glyphs.rgba(fill))

    return draw


def disc_swatch(bands: list[str], left: float, step: float, halo: float) -> Swatch:
    """The swatch of control discs: one a side in its colour on a white ring ``halo``
    times its radius, the first ``left`` of the cell's width in, the next ``step`` on."""

    def draw(d: ImageDraw.ImageDraw, x: float, y: float, w: float, h: float) -> None:
        r = h * 0.2
        for i, band in enumerate(bands):
            cx, cy = x + w * (left + step * i), y + h / 2
            d.ellipse(
                (cx - r * halo, cy - r * halo, cx + r * halo, cy + r * halo),
                fill=(255, 255, 255, 255),
            )
            d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=glyphs.rgba(band))

    return draw


def draw_hexside(
    d: ImageDraw.ImageDraw, hs: HexsideStyle, ends: tuple[Point, Point], radius: float
) -> None:
    a, b = ends
    w = radius * hs.width
    if hs.draw == "line":
        if hs.casing:
            glyphs.thick_line(d, [a, b], glyphs.rgba(hs.casing), w * 1.6)
        glyphs.thick_line(d, [a, b], glyphs.rgba(hs.colour), w)
    elif hs.draw == "wall":
        glyphs.wall(d, a, b, glyphs.rgba(hs.colour), w)
    else:
        glyphs.bridge(d, a, b, glyphs.rgba(hs.colour), glyphs.rgba(hs.casing or "#1b1b1b"), w)


# -- the legend ----------------------------------------------------------------------


@dataclass
class _Entry:
    label: str
    shape: Callable[[ImageDraw.ImageDraw, float, float, float, float], None] | None = None
    sprite: Sprite | None = None
    #: a stack badge showing this count (drawn at full size, with the text)
    badge: int | None = None


@dataclass
class _Section:
    title: str
    columns: int
    row: int
    entries: list[_Entry]


class Legend:
    """The key to the map, built from the style for what this map and its pieces use."""

    SWATCH_W = 36
    #: the narrowest legend column, in pixels; fewer columns are used on narrow images
    MIN_COLUMN = 125

    def __init__(self, board: Board, style: Style, width: int) -> None:
        self.board = board
        self.style = style
        self.width = width
        self.sections = [s for s in self._sections() if s.entries]
        for s in self.sections:
            s.columns = max(1, min(s.columns, int(width // self.MIN_COLUMN)))
        self.height = 26 + sum(
            22 + math.ceil(len(s.entries) / s.columns) * s.row + 6 for s in self.sections
        )

    @property
    def labels(self) -> list[str]:
        return [e.label for s in self.sections for e in s.entries]

    TITLES = {
        "terrain": "Terrain",
        "lines": "Hexsides and lines",
        "features": "Map features",
        "pieces": "Pieces",
        "symbols": "Unit types",
        "markings": "Markings",
        "actions": "Last actions",
    }

    def _title(self, section: str) -> str:
        return self.style.legend_titles.get(section, self.TITLES[section])

    def _sections(self) -> list[_Section]:
        st, pack = self.style, self.board.pack
        used_terrain = {t for h in pack.hexes for t in h.terrain}
        used_sides = {f for s in pack.hexsides for f in s.features}
        used_features = {f for h in pack.hexes for f in h.features}
        terrain = [
            _Entry(self._chart(ts.legend, name, hexside=False), self._terrain_swatch(name))
            for name, ts in st.terrain.items()
            if name in used_terrain
        ]
        lines = [
            _Entry(self._chart(hs.legend, name, hexside=True), self._hexside_swatch(hs))
            for name, hs in st.hexsides.items()
            if name in used_sides
        ]
        if pack.roads:
            lines.append(
                _Entry(
                    st.roads.legend,
                    self._line_swatch(st.roads.colour, st.roads.width, st.roads.casing),
                )
            )
        lines.append(_Entry(st.coast.legend, self._coast_swatch()))
        if len({h.region for h in pack.hexes} - {None}) > 1:
            lines.append(_Entry(st.border.legend, self._border_swatch()))
        # a feature that is also a terrain of the same name is explained by the terrain entry
        merged = {n for n in used_terrain if n in st.features and st.terrain.get(n)}
        features = [
            _Entry(fs.legend, self._icon_swatch(fs.icon, fs.fill, fs.ink, fs.text, fs.outline))
            for name, fs in st.features.items()
            if name in used_features and name not in merged
        ]
        cs = st.control
        if cs.front and len(st.sides) >= 2:
            features.append(_Entry(cs.legend, self._front_swatch()))
        if cs.features is None or cs.features:
            features.append(_Entry(cs.disc_legend, self._disc_swatch()))
        pieces = self._piece_entries()
        symbols = [
            _Entry(sy.legend, self._symbol_swatch(sy.draw, sy.frame)) for sy in st.symbols.values()
        ]
        tags = [
            _Entry(tg.legend, self._icon_swatch(tg.icon, tg.fill, tg.ink, tg.text, None))
            for tg in st.tags.values()
        ]
        arrows = [_Entry(a.legend, self._arrow_swatch(name)) for name, a in st.arrows.items()]
        markers = [
            _Entry(m.legend, self._marker_swatch(m.shape, m.fill))
            for m in [*st.markers.values(), st.default_marker]
        ]
        return [
            _Section(self._title("terrain"), 2, 26, terrain),
            _Section(self._title("lines"), 2, 24, lines),
            _Section(self._title("features"), 2, 24, features),
            _Section(self._title("pieces"), 2, 42, pieces),
            _Section(self._title("symbols"), 3, 22, symbols),
            _Section(self._title("markings"), 3, 22, tags),
            _Section(self._title("actions"), 3, 22, arrows + markers),
        ]

    def _chart(self, label: str, name: str, hexside: bool) -> str:
        """``label`` followed by the printed chart's numbers for ``name``, when asked for."""
        if not self.style.legend_chart:
            return label
        table = self.board.pack.hexside_types if hexside else self.board.pack.terrain
        row = table.get(name)
        if row is None:
            return label
        if row.mp is None:
            cost = "no crossing" if hexside else "no entry"
        else:
            cost = f"+{row.mp:g} MP" if hexside else f"{row.mp:g} MP"
        drm = f", {row.drm:+d}" if row.drm else ""
        return f"{label}: {cost}{drm}"

    # swatches: each draws into a box (x, y, w, h) given in supersampled pixels

    def _terrain_swatch(self, name: str) -> Callable[..., None]:
        ts = self.style.terrain[name]
        feature = self.style.features.get(name)

        def draw(d: ImageDraw.ImageDraw, x: float, y: float, w: float, h: float) -> None:
            r = h * 0.62
            cx, cy = x + w / 2, y + h / 2
            corners = hexagon(cx, cy, r)
            d.polygon(
                corners, fill=glyphs.rgba(ts.fill), outline=glyphs.rgba(self.style.palette.muted)
            )
            ink = glyphs.rgba(ts.pattern.colour)
            if ts.pattern.kind in glyphs.LATTICE_PATTERNS:
                for dx, dy in ((-0.42, -0.3), (0.38, -0.28), (0.0, 0.35)):
                    glyphs.motif(
                        d,
                        ts.pattern.kind,
                        cx + dx * r,
                        cy + dy * r,
                        r * 0.62 * ts.pattern.scale,
                        ink,
                    )
            elif ts.pattern.kind != "none":
                glyphs.hex_motif(d, ts.pattern.kind, corners, r, ink, ts.pattern.count)
            elif feature is not None:
                glyphs.icon(
                    d,
                    feature.icon,
                    cx,
                    cy,
                    r * 0.9,
                    glyphs.rgba(feature.fill),
                    glyphs.rgba(feature.ink),
                    feature.text,
                )

        return draw

    def _hexside_swatch(self, hs: HexsideStyle) -> Callable[..., None]:
        def draw(d: ImageDraw.ImageDraw, x: float, y: float, w: float, h: float) -> None:
            r = h * 1.3
            if hs.under and hs.under in self.style.hexsides:
                draw_hexside(
                    d,
                    self.style.hexsides[hs.under],
                    ((x + 2, y + h / 2), (x + w - 2, y + h / 2)),
                    r,
                )
            draw_hexside(d, hs, ((x + 2, y + h / 2), (x + w - 2, y + h / 2)), r)

        return draw

    def _line_swatch(self, colour: str, width: float, casing: str | None) -> Callable[..., None]:
        def draw(d: ImageDraw.ImageDraw, x: float, y: float, w: float, h: float) -> None:
            r = h * 1.3
            pts = [(x + 3, y + h / 2), (x + w - 3, y + h / 2)]
            if casing:
                glyphs.thick_line(d, pts, glyphs.rgba(casing), r * width * 1.7)
            glyphs.thick_line(d, pts, glyphs.rgba(colour), r * width)

        return draw

    def _coast_swatch(self) -> Callable[..., None]:
        sea = next((t for t in self.style.terrain.values() if t.pattern.kind == "waves"), None)

        def draw(d: ImageDraw.ImageDraw, x: float, y: float, w: float, h: float) -> None:
            if sea is not None:
                d.rectangle((x + 2, y + h / 2, x + w - 2, y + h - 2), fill=glyphs.rgba(sea.fill))
            glyphs.thick_line(
                d,
                [(x + 2, y + h / 2), (x + w - 2, y + h / 2)],
                glyphs.rgba(self.style.coast.colour),
                h * 1.3 * self.style.coast.width,
            )

        return draw

    def _border_swatch(self) -> Callable[..., None]:
        bs = self.style.border

        def draw(d: ImageDraw.ImageDraw, x: float, y: float, w: float, h: float) -> None:
            r = h * 1.3
            a, b = (x + 2, y + h / 2), (x + w - 2, y + h / 2)
            if bs.casing:
                glyphs.thick_line(d, [a, b], glyphs.rgba(bs.casing), r * bs.width * 1.8)
            if bs.dash:
                glyphs.dashed_line(
                    d, a, b, glyphs.rgba(bs.colour), r * bs.width, r * 0.28, r * 0.22
                )
            else:
                glyphs.thick_line(d, [a, b], glyphs.rgba(bs.colour), r * bs.width)

        return draw

    def _icon_swatch(
        self, kind: str, fill: str, ink: str, text: str, outline: str | None
    ) -> Callable[..., None]:
        def draw(d: ImageDraw.ImageDraw, x: float, y: float, w: float, h: float) -> None:
            cx, cy = x + w / 2, y + h / 2
            if outline:
                pts = hexagon(cx, cy, h * 0.6)
                d.line(
                    pts + [pts[0]],
                    fill=glyphs.rgba(outline),
                    width=max(1, round(h * 0.12)),
                    joint="curve",
                )
            glyphs.icon(d, kind, cx, cy, h * 0.78, glyphs.rgba(fill), glyphs.rgba(ink), text)

        return draw

    def _symbol_swatch(self, prims: list[str], frame: bool) -> Callable[..., None]:
        def draw(d: ImageDraw.ImageDraw, x: float, y: float, w: float, h: float) -> None:
            bw, bh = w * 0.7, h * 0.62
            box = (x + (w - bw) / 2, y + (h - bh) / 2, x + (w + bw) / 2, y + (h + bh) / 2)
            glyphs.nato(d, prims, box, glyphs.rgba("#1b1b1b"), glyphs.rgba("#ffffff"), frame)

        return draw

    def _arrow_swatch(self, kind: str) -> Swatch:
        return arrow_swatch(self.style, kind, 1.3)

    def _marker_swatch(self, shape: str, fill: str) -> Swatch:
        return marker_swatch(shape, fill, 0.48)

    def _front_swatch(self) -> Callable[..., None]:
        a, b = list(self.style.sides.values())[:2]

        alpha = self.style.control.alpha

        def draw(d: ImageDraw.ImageDraw, x: float, y: float, w: float, h: float) -> None:
            cy = y + h / 2
            band = h * 0.3
            d.rectangle((x + 2, cy - band, x + w - 2, cy), fill=glyphs.rgba(a.band)[:3] + (alpha,))
            d.rectangle((x + 2, cy, x + w - 2, cy + band), fill=glyphs.rgba(b.band)[:3] + (alpha,))
            d.line(
                (x + 2, cy, x + w - 2, cy),
                fill=glyphs.rgba(self.style.palette.grid),
                width=max(1, round(h * 0.05)),
            )

        return draw

    def _disc_swatch(self) -> Swatch:
        bands = [side.band for side in list(self.style.sides.values())[:2]]
        return disc_swatch(bands, 0.33, 0.34, 1.2)

    def _piece_entries(self) -> list[_Entry]:
        st = self.style
        size = 38
        out = []
        framed = next((k for k, s in st.symbols.items() if s.frame), next(iter(st.symbols), ""))
        for side_id, side in st.sides.items():
            sample = CounterView(
                id="legend",
                side=side_id,
                kind="unit",
                name=side.name,
                symbol=framed,
                combat=6,
                move=4,
            )
            out.append(_Entry(f"{side.name} piece", sprite=counter_sprite(sample, st, size)))
        side_id = next(iter(st.sides), "")
        for kind, ks in st.kinds.items():
            sample = CounterView(
                id="legend",
                side=side_id,
                kind=kind if kind in VIEW_KINDS else "unit",
                name=kind.capitalize(),
                symbol=kind if kind in st.symbols else framed,
                combat=6 if ks.left == "combat" else None,
                modifier=2 if ks.left == "modifier" else None,
                move=4 if ks.right == "move" else None,
                range=5 if ks.right == "range" else None,
            )
            out.append(_Entry(ks.legend, sprite=counter_sprite(sample, st, size)))
        reduced = CounterView(
            id="legend",
            side=side_id,
            kind="unit",
            name="Reduced",
            symbol=framed,
            combat=3,
            move=4,
            reduced=True,
        )
        out.append(_Entry("Reduced (back face)", sprite=counter_sprite(reduced, st, size)))
        out.append(_Entry("Stack: how many pieces", badge=3))
        return out

    # drawing

    def _cells(
        self, x0: float, y0: float
    ) -> Iterator[tuple[str, _Section, _Entry | None, float, float]]:
        y = y0 + 26
        for s in self.sections:
            yield ("title", s, None, x0, y)
            y += 22
            col_w = self.width / s.columns
            for i, e in enumerate(s.entries):
                cx = x0 + (i % s.columns) * col_w
                cy = y + (i // s.columns) * s.row
                yield ("entry", s, e, cx, cy)
            y += math.ceil(len(s.entries) / s.columns) * s.row + 6

    def draw_shapes(self, img: Image.Image, x0: float, y0: float, ss: int) -> None:
        d = ImageDraw.Draw(img, "RGBA")
        for what, s, e, x, y in self._cells(x0 / ss, y0 / ss):
            if what == "entry" and e.shape is not None:
                sw = self.SWATCH_W if s.row < 40 else 40
                d_h = min(s.row - 4, 22) if s.row < 40 else 22
                e.shape(d, x * ss, (y + (s.row - d_h) / 2) * ss, sw * ss, d_h * ss)

    def draw_text(self, img: Image.Image, x0: float, y0: float) -> None:
        d = ImageDraw.Draw(img, "RGBA")
        ink = glyphs.rgba(self.style.palette.ink)
        draw_heading(d, (x0, y0 + 10), "Key to the map", 17, ink)
        for what, s, e, x, y in self._cells(x0, y0):
            if what == "title":
                draw_heading(d, (x, y + 10), s.title, 14, glyphs.rgba(self.style.palette.muted))
                continue
            sw = self.SWATCH_W if s.row < 40 else 40
            if e.sprite is not None:
                paste_centred(img, e.sprite, x, y, sw, s.row)
            if e.badge is not None:
                badge(d, x + sw / 2, y + s.row / 2, 8, e.badge, self.style)
            col_w = self.width / s.columns
            f, lines = _label_lines(e.label, col_w - sw - 8, s.row)
            for k, line in enumerate(lines):
                dy = (k - (len(lines) - 1) / 2) * (f.size + 1)
                draw_text(d, (x + sw + 6, y + s.row / 2 + dy), line, f, ink, anchor="lm")


def _label_lines(label: str, room: float, row: int) -> tuple[Font, list[str]]:
    """One line at a comfortable size, else two smaller lines, else one line cut short."""
    f = fit(label, room, 13, min_size=11)
    if width_of(label, f) <= room:
        return f, [label]
    lines = _split_two(label)
    if len(lines) == 2:
        f2 = fit(max(lines, key=len), room, 12, min_size=9)
        if all(width_of(line, f2) <= room for line in lines) and 2 * (f2.size + 1) <= row + 4:
            return f2, lines
    f = font(9)
    text = label
    while len(text) > 1 and width_of(text + "...", f) > room:
        text = text[:-1]
    return f, [text.rstrip() + "..." if text != label else text]


def _split_two(text: str) -> list[str]:
    words = text.split()
    if len(words) < 2:
        return [text]
    best = min(
        range(1, len(words)), key=lambda i: abs(len(" ".join(words[:i])) - len(" ".join(words[i:])))
    )
    return [" ".join(words[:best]), " ".join(words[best:])]
