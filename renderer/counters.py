"""Counters as small pictures: side colours, NATO symbol, name, factors, reduced mark.

A counter's picture depends only on what its face shows and its size, so each is drawn
once (graphics supersampled, text at full resolution for crispness), kept in memory and
on disk for the next process, and then pasted wherever it appears. A piece the viewer
may not see is drawn as its side's blank back.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable

from PIL import Image, ImageDraw

from engine.core.view import CounterView
from renderer import diskcache, glyphs
from renderer.fonts import draw_condensed, draw_text, font, width_of
from renderer.style import KindStyle, Style

SUPERSAMPLE = 3
_FALLBACK_KIND = KindStyle(left="combat", right="move", legend="piece")


class Sprite:
    """A counter picture ready to paste: its colours and its shape (the rounded corners)."""

    __slots__ = ("rgb", "mask", "size")

    def __init__(self, rgba: Image.Image) -> None:
        self.rgb = rgba.convert("RGB")
        self.mask = rgba.getchannel("A")
        self.size = rgba.size

    @property
    def width(self) -> int:
        return self.size[0]

    @property
    def height(self) -> int:
        return self.size[1]

    def paste_on(self, img: Image.Image, xy: tuple[int, int]) -> None:
        img.paste(self.rgb, xy, self.mask)


def counter_sprite(counter: CounterView, style: Style, size: int) -> Sprite:
    """The picture of ``counter``, ``size`` pixels square."""
    key = (
        counter.side,
        counter.kind,
        counter.name,
        counter.symbol,
        counter.combat,
        counter.move,
        counter.modifier,
        counter.range,
        counter.reduced,
        tuple(counter.tags),
    )
    return _cached(("face", style.fingerprint, key, size), lambda: _sprite(key, style, size))


def back_sprite(side: str, style: Style, size: int) -> Sprite:
    """A piece of ``side`` whose face the viewer may not see."""
    return _cached(("back", style.fingerprint, side, size), lambda: _back(side, style, size))


_SPRITES: OrderedDict[tuple[object, ...], Sprite] = OrderedDict()
_SPRITES_MAX = 2048
_sprites_lock = threading.Lock()


def _cached(key: tuple[object, ...], make: Callable[[], Image.Image]) -> Sprite:
    """The sprite for ``key``: from memory, else from the copy on disk an earlier process
    left (:mod:`renderer.diskcache`), else drawn by ``make`` (and stored there)."""
    with _sprites_lock:
        img = _SPRITES.get(key)
        if img is not None:
            _SPRITES.move_to_end(key)
            return img
    picture = diskcache.load_sprite(key)
    if picture is None:
        picture = make()
        diskcache.save_sprite(key, picture)
    img = Sprite(picture)
    with _sprites_lock:
        _SPRITES[key] = img
        while len(_SPRITES) > _SPRITES_MAX:
            _SPRITES.popitem(last=False)
    return img


def _sprite(key: tuple[object, ...], style: Style, size: int) -> Image.Image:
    side, kind, name, symbol, combat, move, modifier, range_, reduced, tags = key
    s = style.side(side)
    k = style.kinds.get(kind, _FALLBACK_KIND)
    sym = style.symbols.get(symbol)
    ss = SUPERSAMPLE
    big = Image.new("RGBA", (size * ss, size * ss), (0, 0, 0, 0))
    d = ImageDraw.Draw(big)
    S = size * ss
    body = glyphs.mix(s.fill, "#ffffff", 0.5) if reduced else glyphs.rgba(s.fill)
    ink = glyphs.rgba("#1b1b1b")
    radius = S * 0.08
    d.rounded_rectangle((0, 0, S - 1, S - 1), radius=radius, fill=ink)
    edge = max(ss, round(S * 0.035))
    d.rounded_rectangle((edge, edge, S - 1 - edge, S - 1 - edge), radius=radius * 0.7, fill=body)
    band_h = S * 0.27
    # a reduced piece (its back face) shows a pale band with the name in the side's colour
    band = glyphs.mix(s.band, "#ffffff", 0.62) if reduced else glyphs.rgba(s.band)
    band_text = glyphs.rgba(s.band) if reduced else glyphs.rgba(s.band_text)
    d.rounded_rectangle((edge, edge, S - 1 - edge, band_h), radius=radius * 0.7, fill=band)
    d.rectangle((edge, band_h * 0.5, S - 1 - edge, band_h), fill=band)
    if k.inner_frame:
        inset = S * 0.09
        d.rectangle(
            (inset, band_h + S * 0.03, S - inset, S - inset),
            outline=glyphs.rgba(s.band),
            width=max(1, round(S * 0.025)),
        )
    if sym is not None:
        box = (S * 0.27, S * 0.33, S * 0.73, S * 0.6)
        if not sym.frame:
            box = (S * 0.35, S * 0.3, S * 0.65, S * 0.62)
        glyphs.nato(d, sym.draw, box, ink, glyphs.rgba("#ffffff"), sym.frame)
    for i, tag in enumerate(t for t in tags if t in style.tags):
        if i > 1:
            break
        ts = style.tags[tag]
        x = S * (0.135 if i == 0 else 0.865)
        glyphs.icon(
            d, ts.icon, x, S * 0.465, S * 0.2, glyphs.rgba(ts.fill), glyphs.rgba(ts.ink), ts.text
        )
    right_value = move if k.right == "move" else range_
    hx, hy, hr = S * 0.73, S * 0.79, S * 0.165
    if right_value is not None:
        hexagon = [
            (hx + hr * dx, hy + hr * dy)
            for dx, dy in ((1, 0), (0.5, 0.87), (-0.5, 0.87), (-1, 0), (-0.5, -0.87), (0.5, -0.87))
        ]
        d.polygon(
            hexagon, fill=glyphs.rgba(k.right_fill), outline=ink, width=max(1, round(S * 0.02))
        )
    img = big.reduce(ss)

    t = ImageDraw.Draw(img)
    factor = glyphs.rgba(s.factor)
    label = short_name(name, style, size)
    draw_condensed(img, (size / 2, size * 0.145), label, size * 0.26, size * 0.9, band_text)
    left_value = (
        combat if k.left == "combat" else (f"-{modifier}" if modifier is not None else None)
    )
    if left_value is not None:
        draw_text(
            t, (size * 0.3, size * 0.79), str(left_value), font(size * 0.36), factor, bold=True
        )
    if right_value is not None:
        draw_text(t, (hx / ss, hy / ss + 0.5), str(right_value), font(size * 0.27), ink, bold=True)
    return img


def _back(side: str, style: Style, size: int) -> Image.Image:
    s = style.side(side)
    ss = SUPERSAMPLE
    S = size * ss
    big = Image.new("RGBA", (S, S), (0, 0, 0, 0))
    d = ImageDraw.Draw(big)
    radius = S * 0.08
    d.rounded_rectangle((0, 0, S - 1, S - 1), radius=radius, fill=glyphs.rgba("#1b1b1b"))
    edge = max(ss, round(S * 0.035))
    d.rounded_rectangle((edge, edge, S - 1 - edge, S - 1 - edge), radius=radius * 0.7, fill=s.back)
    img = big.reduce(ss)
    t = ImageDraw.Draw(img)
    draw_text(t, (size / 2, size / 2), "?", font(size * 0.5), glyphs.rgba(s.band_text), bold=True)
    return img


def short_name(name: str, style: Style, size: int) -> str:
    """``name`` shortened with the style's abbreviations, one at a time, until it fits the
    band at a readable size (at most all of them)."""
    room = size * 0.9 / 0.7  # what fits once squeezed sideways (see draw_condensed)
    readable = font(size * 0.26)
    label = name
    for long, short in style.abbreviations:
        if width_of(label, readable) <= room:
            break
        label = label.replace(long, short)
    return label


def badge(d: ImageDraw.ImageDraw, x: float, y: float, r: float, count: int, style: Style) -> None:
    """The count of pieces in a stack, in a disc centred on ``(x, y)``."""
    pal = style.palette
    d.ellipse((x - r - 1, y - r - 1, x + r + 1, y + r + 1), fill=glyphs.rgba("#ffffff"))
    d.ellipse((x - r, y - r, x + r, y + r), fill=glyphs.rgba(pal.badge))
    draw_text(d, (x, y + 0.5), str(count), font(r * 1.35), glyphs.rgba(pal.badge_text), bold=True)
