"""A game's look as data: ``renderer/styles/<game>.json``.

The renderer knows how to draw generic things (a hex fill with a motif, a line along a
hexside, an icon, a NATO frame built from primitives, an arrow); the style says which of
them each terrain, hexside feature, map feature, piece kind, symbol and marker of a game
uses, in which colours, and what its legend entry says. A second hex game becomes
drawable by adding its data pack and a style file, without touching code.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Collection
from functools import cache, cached_property
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, ValidationError

STYLES_DIR = Path(__file__).resolve().parent / "styles"

Colour = str
"""``#rrggbb`` or ``#rrggbbaa``."""

#: Motifs drawn inside a hex on top of its fill.
PatternKind = Literal[
    "none", "dots", "humps", "peaks", "tufts", "waves", "blocks", "teeth", "hatch"
]
#: Small pictures for map features and counter tags.
IconKind = Literal[
    "town", "anchor", "plane", "shield", "banner", "star", "stars", "circle", "square"
]
#: Strokes a NATO unit symbol is composed of (drawn inside the frame unless ``frame`` is off).
Primitive = Literal[
    "cross",
    "oval",
    "dot",
    "canopy",
    "chevron",
    "bridge",
    "diagonal",
    "anchor",
    "plane",
    "star",
    "stars",
    "wheels",
]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Pattern(_Strict):
    kind: PatternKind = "none"
    colour: Colour = "#00000080"
    #: how many motifs per hex (humps, peaks, tufts, waves, blocks, dots)
    count: int = 3
    #: motif size relative to the hex
    scale: float = 1.0


class TerrainStyle(_Strict):
    fill: Colour
    pattern: Pattern = Pattern()
    legend: str


class HexsideStyle(_Strict):
    """``line``: a band along the side; ``wall``: a band with ticks on both faces;
    ``bridge``: a crossing drawn over the side (``under`` names the style drawn first)."""

    draw: Literal["line", "wall", "bridge"]
    colour: Colour
    #: line width as a fraction of the hex radius
    width: float = 0.12
    casing: Colour | None = None
    under: str | None = None
    legend: str


class IconStyle(_Strict):
    icon: IconKind
    fill: Colour
    ink: Colour = "#202020"
    text: str = ""
    #: also outline the hex just inside its edge in this colour (visible under counters)
    outline: Colour | None = None
    legend: str


class LineStyle(_Strict):
    colour: Colour
    width: float = 0.1
    casing: Colour | None = None
    dash: bool = False
    legend: str


class RegionStyle(_Strict):
    label: str
    #: where to print the label; default: the middle of the region's land hexes
    label_hex: str | None = None


class SideStyle(_Strict):
    name: str
    #: counter body, the band at the top, text on the band, printed factors
    fill: Colour
    band: Colour
    band_text: Colour = "#ffffff"
    factor: Colour
    #: fill of a piece whose face the viewer may not see
    back: Colour


class KindStyle(_Strict):
    """How a piece kind prints its numbers and what the legend calls it."""

    #: left number: ``combat`` or ``modifier`` (printed with a minus sign)
    left: Literal["combat", "modifier"]
    #: right number: ``move`` (white hexagon) or ``range`` (yellow hexagon)
    right: Literal["move", "range"]
    right_fill: Colour = "#ffffff"
    #: a thin frame inside the counter, to tell support pieces from units at a glance
    inner_frame: bool = False
    legend: str


class SymbolStyle(_Strict):
    draw: list[Primitive]
    frame: bool = True
    legend: str


class TagStyle(_Strict):
    icon: IconKind
    fill: Colour
    ink: Colour = "#202020"
    text: str = ""
    legend: str


class ArrowStyle(_Strict):
    #: a colour, or ``"side"`` for the band colour of the acting side
    colour: Colour
    width: float = 0.13
    dash: bool = False
    #: drawn over the pieces (short arrows between adjacent hexes would vanish under them)
    over_pieces: bool = False
    legend: str


class MarkerStyle(_Strict):
    shape: Literal["burst", "circle", "cross", "square"]
    fill: Colour
    ink: Colour = "#ffffff"
    legend: str


class ControlStyle(_Strict):
    """How ``view.control`` (who holds each hex) is drawn.

    Where two land hexes held by different sides meet, each gets a translucent band of its
    holder's colour along that side (the front). A small disc in the holder's colour
    marks held hexes carrying one of ``features`` (all held hexes if ``None``).
    """

    features: list[str] | None = []
    front: bool = True
    #: depth of the band along the front, as a fraction of the hex radius, and its opacity
    width: float = 0.16
    alpha: int = 110
    legend: str = "Front: each side's colour on the ground it holds"
    disc_legend: str = "Held by (side colour)"


class Palette(_Strict):
    background: Colour = "#f4efe2"
    panel: Colour = "#fbf8f0"
    ink: Colour = "#1d1d1d"
    muted: Colour = "#5c5648"
    grid: Colour = "#5a4a3066"
    offmap: Colour = "#d8d2c4"
    hex_number: Colour = "#4a4234"
    place_name: Colour = "#1d1d1d"
    region_label: Colour = "#5a4a3055"
    badge: Colour = "#1d1d1d"
    badge_text: Colour = "#ffffff"


class Style(_Strict):
    game: str
    version: str
    title: str
    #: the side panel's share of the image width
    panel_share: float = 0.27
    palette: Palette = Palette()
    terrain: dict[str, TerrainStyle]
    hexsides: dict[str, HexsideStyle] = {}
    features: dict[str, IconStyle] = {}
    roads: LineStyle
    border: LineStyle
    coast: LineStyle
    regions: dict[str, RegionStyle] = {}
    sides: dict[str, SideStyle]
    kinds: dict[str, KindStyle]
    symbols: dict[str, SymbolStyle]
    tags: dict[str, TagStyle] = {}
    arrows: dict[str, ArrowStyle]
    markers: dict[str, MarkerStyle] = {}
    default_marker: MarkerStyle
    control: ControlStyle = ControlStyle()
    #: (long, short) pairs tried in order on a counter name that does not fit its band
    abbreviations: list[tuple[str, str]] = []
    #: counter edge as a fraction of the hex radius
    counter_scale: float = 0.98
    #: print the terrain chart (MP and modifier from the map pack) in the legend
    legend_chart: bool = True
    #: headings of the legend's sections, replacing the defaults by section id
    #: (terrain, lines, features, pieces, symbols, markings, actions)
    legend_titles: dict[str, str] = {}

    @cached_property
    def fingerprint(self) -> str:
        return hashlib.sha256(self.model_dump_json().encode()).hexdigest()[:16]

    def side(self, side: str) -> SideStyle:
        """The style of ``side``; an unknown side gets a neutral grey rather than a crash."""
        return self.sides.get(side) or SideStyle(
            name=side, fill="#e6e6e6", band="#5f5f5f", factor="#202020", back="#8c8c8c"
        )

    def marker(self, kind: str) -> MarkerStyle:
        return self.markers.get(kind, self.default_marker)


class StyleError(Exception):
    """A style file that is missing or invalid; the message says which and why."""


def style_path(game: str) -> Path:
    return STYLES_DIR / f"{game}.json"


def load_style_file(path: Path) -> Style:
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except OSError:
        raise StyleError(f"There is no map style for this game: {path.name} is missing.") from None
    except json.JSONDecodeError as exc:
        raise StyleError(f"{path.name} line {exc.lineno}: not valid JSON ({exc.msg}).") from None
    try:
        return Style.model_validate(raw)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        raise StyleError(f"{path.name}: {where}: {first['msg']}.") from None


@cache
def load_style(game: str) -> Style:
    """The style of ``game`` from ``renderer/styles/<game>.json`` (read once)."""
    return load_style_file(style_path(game))


def coverage_problems(
    style: Style,
    terrain: Collection[str],
    hexside_types: Collection[str],
    features: Collection[str],
    regions: Collection[str] = (),
    kinds: Collection[str] = (),
    symbols: Collection[str] = (),
    tags: Collection[str] = (),
    sides: Collection[str] = (),
) -> list[str]:
    """What a data pack uses that the style cannot draw or does not explain in the legend."""
    out = []
    checks = [
        ("terrain type", terrain, style.terrain),
        ("hexside feature", hexside_types, style.hexsides),
        ("map feature", features, style.features),
        ("region", regions, style.regions),
        ("piece kind", kinds, style.kinds),
        ("unit symbol", symbols, style.symbols),
        ("counter marking", tags, style.tags),
        ("side", sides, style.sides),
    ]
    for what, names, table in checks:
        for name in sorted(names):
            entry = table.get(name)
            if entry is None:
                out.append(f"{what} {name!r} has no drawing in the {style.game} style")
            elif hasattr(entry, "legend") and not entry.legend.strip():
                out.append(f"{what} {name!r} has no legend text in the {style.game} style")
    for name, hs in style.hexsides.items():
        if hs.under is not None and hs.under not in style.hexsides:
            out.append(f"hexside feature {name!r} is drawn over {hs.under!r}, which has no style")
    return out
