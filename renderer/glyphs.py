"""Generic drawing primitives: terrain motifs, icons, NATO symbol strokes, lines, arrows.

Everything here is game-neutral and sized in pixels by the caller; a style file decides
which primitive each terrain, feature, piece or marker gets. Shapes are meant to be drawn
on a supersampled canvas and scaled down, which is what smooths their edges.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import lru_cache

from PIL import ImageColor, ImageDraw

from renderer.fonts import font, printable

Point = tuple[float, float]
RGBA = tuple[int, int, int, int]


@lru_cache(maxsize=512)
def rgba(colour: str) -> RGBA:
    """``#rrggbb`` or ``#rrggbbaa`` as an RGBA tuple."""
    c = ImageColor.getrgb(colour)
    return (c[0], c[1], c[2], c[3] if len(c) == 4 else 255)


def mix(colour: str, other: str, t: float) -> RGBA:
    """``colour`` moved a share ``t`` of the way towards ``other``."""
    a, b = rgba(colour), rgba(other)
    return tuple(round(a[i] + (b[i] - a[i]) * t) for i in range(4))  # type: ignore[return-value]


# -- lines -----------------------------------------------------------------------------


def thick_line(
    d: ImageDraw.ImageDraw, pts: Sequence[Point], fill: RGBA | str, width: float
) -> None:
    """A polyline with round ends and joints."""
    w = max(1, round(width))
    if len(pts) >= 2:
        d.line([tuple(p) for p in pts], fill=fill, width=w, joint="curve")
    r = width / 2
    for x, y in (pts[0], pts[-1]):
        d.ellipse((x - r, y - r, x + r, y + r), fill=fill)


def dashed_line(
    d: ImageDraw.ImageDraw,
    a: Point,
    b: Point,
    fill: RGBA | str,
    width: float,
    dash: float,
    gap: float,
    phase: float = 0.0,
) -> None:
    """A straight dashed segment; ``phase`` shifts where the first dash starts."""
    length = math.dist(a, b)
    if length == 0:
        return
    ux, uy = (b[0] - a[0]) / length, (b[1] - a[1]) / length
    t = -phase
    while t < length:
        s, e = max(t, 0.0), min(t + dash, length)
        if e > s:
            thick_line(
                d, [(a[0] + ux * s, a[1] + uy * s), (a[0] + ux * e, a[1] + uy * e)], fill, width
            )
        t += dash + gap


def wall(d: ImageDraw.ImageDraw, a: Point, b: Point, fill: RGBA | str, width: float) -> None:
    """A hexside that may not be crossed: a heavy line with ticks on both faces."""
    thick_line(d, [a, b], fill, width)
    length = math.dist(a, b)
    ux, uy = (b[0] - a[0]) / length, (b[1] - a[1]) / length
    nx, ny = -uy, ux
    tick = width * 1.5
    for t in (0.2, 0.4, 0.6, 0.8):
        mx, my = a[0] + ux * length * t, a[1] + uy * length * t
        d.line(
            (mx - nx * tick, my - ny * tick, mx + nx * tick, my + ny * tick),
            fill=fill,
            width=max(1, round(width * 0.55)),
        )


def bridge(
    d: ImageDraw.ImageDraw, a: Point, b: Point, fill: RGBA | str, ink: RGBA | str, width: float
) -> None:
    """A bridge across the side ``a``-``b``: a deck at right angles with flared ends."""
    mx, my = (a[0] + b[0]) / 2, (a[1] + b[1]) / 2
    length = math.dist(a, b)
    ux, uy = (b[0] - a[0]) / length, (b[1] - a[1]) / length
    nx, ny = -uy, ux
    half_len, half_w = width * 1.9, width * 0.95

    def at(along: float, across: float) -> Point:
        return (mx + nx * along + ux * across, my + ny * along + uy * across)

    deck = [
        at(-half_len, -half_w),
        at(half_len, -half_w),
        at(half_len, half_w),
        at(-half_len, half_w),
    ]
    d.polygon(deck, fill=fill)
    for side in (-1, 1):
        rail = [
            at(-half_len - width * 0.6, side * (half_w + width * 0.7)),
            at(-half_len, side * half_w),
            at(half_len, side * half_w),
            at(half_len + width * 0.6, side * (half_w + width * 0.7)),
        ]
        d.line(rail, fill=ink, width=max(1, round(width * 0.38)), joint="curve")


def arrow(
    d: ImageDraw.ImageDraw,
    pts: Sequence[Point],
    fill: RGBA | str,
    width: float,
    casing: RGBA | str | None,
    dash: bool = False,
) -> None:
    """A path ending in an arrowhead at its last point."""
    if len(pts) < 2:
        return
    head_len, head_w = width * 3.2, width * 2.2
    (x1, y1), (x2, y2) = pts[-2], pts[-1]
    seg = math.dist((x1, y1), (x2, y2)) or 1.0
    ux, uy = (x2 - x1) / seg, (y2 - y1) / seg
    base = (x2 - ux * head_len, y2 - uy * head_len)
    head = [
        (x2 + ux * width * 0.3, y2 + uy * width * 0.3),
        (base[0] - uy * head_w, base[1] + ux * head_w),
        (base[0] + uy * head_w, base[1] - ux * head_w),
    ]
    shaft = list(pts[:-1]) + [base]
    if casing is not None:
        thick_line(d, shaft, casing, width * 1.9)
        d.polygon(_grow(head, width * 0.45), fill=casing)
    if dash:
        for a, b in zip(shaft, shaft[1:], strict=False):
            dashed_line(d, a, b, fill, width, width * 1.8, width * 1.3)
    else:
        thick_line(d, shaft, fill, width)
    d.polygon(head, fill=fill)


def _grow(poly: Sequence[Point], by: float) -> list[Point]:
    cx = sum(p[0] for p in poly) / len(poly)
    cy = sum(p[1] for p in poly) / len(poly)
    out = []
    for x, y in poly:
        dist = math.dist((x, y), (cx, cy)) or 1.0
        out.append((x + (x - cx) / dist * by * 1.6, y + (y - cy) / dist * by * 1.6))
    return out


def smooth(pts: Sequence[Point], rounds: int = 2) -> list[Point]:
    """Chaikin corner cutting: a path through hex centres drawn as a gentle curve."""
    out = list(pts)
    for _ in range(rounds):
        if len(out) < 3:
            return out
        nxt = [out[0]]
        for a, b in zip(out, out[1:], strict=False):
            nxt.append((a[0] * 0.75 + b[0] * 0.25, a[1] * 0.75 + b[1] * 0.25))
            nxt.append((a[0] * 0.25 + b[0] * 0.75, a[1] * 0.25 + b[1] * 0.75))
        nxt.append(out[-1])
        out = nxt
    return out


def trim(pts: Sequence[Point], start: float, end: float) -> list[Point]:
    """The path with ``start`` pixels cut from its beginning and ``end`` from its end."""

    def cut(path: list[Point], amount: float) -> list[Point]:
        while len(path) >= 2 and amount > 0:
            seg = math.dist(path[0], path[1])
            if seg > amount:
                t = amount / seg
                path[0] = (
                    path[0][0] + (path[1][0] - path[0][0]) * t,
                    path[0][1] + (path[1][1] - path[0][1]) * t,
                )
                return path
            amount -= seg
            path.pop(0)
        return path

    out = cut(list(pts), start)
    out = cut(out[::-1], end)[::-1]
    return out


def polyline_length(pts: Sequence[Point]) -> float:
    return sum(math.dist(a, b) for a, b in zip(pts, pts[1:], strict=False))


# -- terrain motifs ----------------------------------------------------------------------


def motif(d: ImageDraw.ImageDraw, kind: str, x: float, y: float, s: float, ink: RGBA) -> None:
    """One terrain motif of size ``s`` centred on ``(x, y)`` (for lattice patterns)."""
    w = max(1, round(s * 0.14))
    if kind == "dots":
        r = s * 0.09
        d.ellipse((x - r, y - r, x + r, y + r), fill=ink)
    elif kind == "humps":
        d.arc((x - s * 0.5, y - s * 0.32, x + s * 0.5, y + s * 0.5), 195, 345, fill=ink, width=w)
    elif kind == "peaks":
        d.polygon(
            [(x - s * 0.5, y + s * 0.3), (x, y - s * 0.45), (x + s * 0.5, y + s * 0.3)], fill=ink
        )
        light = (255, 255, 255, 120)
        d.polygon(
            [(x, y - s * 0.45), (x + s * 0.5, y + s * 0.3), (x + s * 0.1, y + s * 0.3)], fill=light
        )
    elif kind == "tufts":
        d.line((x - s * 0.45, y + s * 0.2, x + s * 0.45, y + s * 0.2), fill=ink, width=w)
        for dx, top in ((-0.22, -0.15), (0.0, -0.3), (0.22, -0.15)):
            d.line((x + s * dx, y + s * 0.2, x + s * dx * 1.4, y + s * top), fill=ink, width=w)
    elif kind == "waves":
        for dy in (-0.12, 0.18):
            pts = [
                (x + s * (t / 8 - 0.5), y + s * dy + math.sin(t / 8 * 2 * math.pi) * s * 0.08)
                for t in range(9)
            ]
            d.line(pts, fill=ink, width=max(1, round(s * 0.08)), joint="curve")
    elif kind == "hatch":
        d.line((x - s * 0.4, y + s * 0.4, x + s * 0.4, y - s * 0.4), fill=ink, width=w)


LATTICE_PATTERNS = {"dots", "humps", "peaks", "tufts", "waves", "hatch"}


def hex_motif(
    d: ImageDraw.ImageDraw, kind: str, corners: Sequence[Point], r: float, ink: RGBA, count: int
) -> None:
    """Motifs drawn once per hex rather than as a texture (fortified lines, built-up areas)."""
    cx = sum(p[0] for p in corners) / 6
    cy = sum(p[1] for p in corners) / 6
    if kind == "teeth":
        w = max(1, round(r * 0.06))
        inner = [(cx + (x - cx) * 0.8, cy + (y - cy) * 0.8) for x, y in corners]
        d.line(inner + [inner[0]], fill=ink, width=w, joint="curve")
        for i in range(6):
            a, b = inner[i], inner[(i + 1) % 6]
            for t in (0.25, 0.5, 0.75):
                mx, my = a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t
                ux, uy = (cx - mx), (cy - my)
                n = math.hypot(ux, uy) or 1.0
                d.line((mx, my, mx + ux / n * r * 0.13, my + uy / n * r * 0.13), fill=ink, width=w)
    elif kind == "blocks":
        s = r * 0.13
        spots = [
            (-0.45, -0.05),
            (-0.3, 0.2),
            (0.35, -0.15),
            (0.5, 0.12),
            (0.15, 0.42),
            (-0.1, -0.4),
        ]
        for dx, dy in spots[: max(1, count)]:
            x, y = cx + dx * r, cy + dy * r
            d.rectangle((x - s, y - s, x + s, y + s), fill=ink)


# -- icons ----------------------------------------------------------------------------


def star_points(
    cx: float, cy: float, r: float, points: int = 5, inner: float = 0.45
) -> list[Point]:
    out = []
    for i in range(points * 2):
        rad = r if i % 2 == 0 else r * inner
        ang = -math.pi / 2 + i * math.pi / points
        out.append((cx + rad * math.cos(ang), cy + rad * math.sin(ang)))
    return out


def icon(
    d: ImageDraw.ImageDraw,
    kind: str,
    cx: float,
    cy: float,
    s: float,
    fill: RGBA,
    ink: RGBA,
    text: str = "",
) -> None:
    """A map or counter icon about ``s`` pixels across, centred on ``(cx, cy)``."""
    h = s / 2
    edge = max(1, round(s * 0.07))
    if kind == "town":
        for dx, dy, k in ((-0.28, 0.12, 0.26), (0.18, 0.2, 0.3), (-0.02, -0.2, 0.28)):
            x, y, q = cx + dx * s, cy + dy * s, k * s
            d.rectangle((x - q, y - q, x + q, y + q), fill=fill, outline=ink, width=edge)
    elif kind == "anchor":
        d.ellipse((cx - h, cy - h, cx + h, cy + h), fill=fill, outline=ink, width=edge)
        w = max(1, round(s * 0.09))
        ring = s * 0.09
        d.ellipse(
            (cx - ring, cy - h * 0.72, cx + ring, cy - h * 0.72 + 2 * ring), outline=ink, width=w
        )
        d.line((cx, cy - h * 0.5, cx, cy + h * 0.7), fill=ink, width=w)
        d.line((cx - h * 0.38, cy - h * 0.25, cx + h * 0.38, cy - h * 0.25), fill=ink, width=w)
        d.arc(
            (cx - h * 0.62, cy - h * 0.35, cx + h * 0.62, cy + h * 0.72), 20, 160, fill=ink, width=w
        )
    elif kind == "plane":
        wing = [
            (cx - h, cy + h * 0.05),
            (cx - h * 0.1, cy - h * 0.25),
            (cx + h * 0.1, cy - h * 0.25),
            (cx + h, cy + h * 0.05),
            (cx + h, cy + h * 0.22),
            (cx - h, cy + h * 0.22),
        ]
        body = (cx - h * 0.13, cy - h * 0.95, cx + h * 0.13, cy + h * 0.9)
        tail = [(cx - h * 0.42, cy + h * 0.85), (cx + h * 0.42, cy + h * 0.85), (cx, cy + h * 0.55)]
        d.polygon(wing, fill=fill, outline=ink, width=edge)
        d.polygon(tail, fill=fill, outline=ink, width=edge)
        d.rounded_rectangle(body, radius=h * 0.13, fill=fill, outline=ink, width=edge)
    elif kind == "shield":
        shape = [
            (cx - h * 0.85, cy - h),
            (cx + h * 0.85, cy - h),
            (cx + h * 0.85, cy + h * 0.15),
            (cx, cy + h),
            (cx - h * 0.85, cy + h * 0.15),
        ]
        d.polygon(shape, fill=fill, outline=(20, 20, 20, 255), width=edge)
        w = max(1, round(s * 0.16))
        d.line((cx, cy - h * 0.8, cx, cy + h * 0.75), fill=ink, width=w)
        d.line((cx - h * 0.65, cy - h * 0.25, cx + h * 0.65, cy - h * 0.25), fill=ink, width=w)
    elif kind == "banner":
        d.rectangle(
            (cx - h, cy - h * 0.62, cx + h, cy + h * 0.62), fill=fill, outline=ink, width=edge
        )
        if text:
            d.text((cx, cy), printable(text), font=font(s * 0.62), fill=ink, anchor="mm")
    elif kind == "star":
        d.polygon(star_points(cx, cy, h), fill=fill, outline=ink, width=edge)
    elif kind == "stars":
        for dx in (-0.5, 0.5):
            d.polygon(star_points(cx + dx * h, cy, h * 0.55), fill=fill, outline=ink, width=edge)
    elif kind == "circle":
        d.ellipse((cx - h, cy - h, cx + h, cy + h), fill=fill, outline=ink, width=edge)
        if text:
            d.text((cx, cy), printable(text), font=font(s * 0.6), fill=ink, anchor="mm")
    elif kind == "square":
        d.rectangle((cx - h, cy - h, cx + h, cy + h), fill=fill, outline=ink, width=edge)
        if text:
            d.text((cx, cy), printable(text), font=font(s * 0.6), fill=ink, anchor="mm")


# -- NATO unit symbols ----------------------------------------------------------------


def nato(
    d: ImageDraw.ImageDraw,
    primitives: Sequence[str],
    box: tuple[float, float, float, float],
    ink: RGBA,
    paper: RGBA,
    frame: bool = True,
) -> None:
    """A unit-type symbol composed of ``primitives`` inside (or, unframed, filling) ``box``."""
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    lw = max(1, round(min(w, h) * 0.09))
    if frame:
        d.rectangle(box, fill=paper, outline=ink, width=lw)
    for p in primitives:
        if p == "cross":
            d.line((x0, y0, x1, y1), fill=ink, width=lw)
            d.line((x0, y1, x1, y0), fill=ink, width=lw)
        elif p == "oval":
            d.rounded_rectangle(
                (x0 + w * 0.18, y0 + h * 0.24, x1 - w * 0.18, y1 - h * 0.24),
                radius=h * 0.26,
                outline=ink,
                width=lw,
            )
        elif p == "dot":
            r = h * 0.17
            d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=ink)
        elif p == "canopy":
            d.arc(
                (cx - w * 0.2, y1 - h * 0.42, cx + w * 0.2, y1 + h * 0.05),
                180,
                360,
                fill=ink,
                width=lw,
            )
        elif p == "chevron":
            d.line((x0, y1, cx, y0, x1, y1), fill=ink, width=lw, joint="curve")
        elif p == "bridge":
            d.line((x0 + w * 0.2, y1 - h * 0.25, x0 + w * 0.2, y0 + h * 0.3), fill=ink, width=lw)
            d.line((x1 - w * 0.2, y1 - h * 0.25, x1 - w * 0.2, y0 + h * 0.3), fill=ink, width=lw)
            d.line((x0 + w * 0.2, y0 + h * 0.3, x1 - w * 0.2, y0 + h * 0.3), fill=ink, width=lw)
            d.line((cx, y0 + h * 0.3, cx, y1 - h * 0.25), fill=ink, width=lw)
        elif p == "diagonal":
            d.line((x0, y1, x1, y0), fill=ink, width=lw)
        elif p == "wheels":
            r = h * 0.12
            for fx in (0.32, 0.5, 0.68):
                x = x0 + w * fx
                d.ellipse((x - r, y1 - h * 0.3 - r, x + r, y1 - h * 0.3 + r), outline=ink, width=lw)
        elif p in ("anchor", "plane", "star", "stars"):
            size = min(w, h) * (0.8 if frame else 1.0)
            icon(d, p, cx, cy, size, ink if p != "anchor" else paper, ink)


# -- result markers ----------------------------------------------------------------------


def marker(d: ImageDraw.ImageDraw, shape: str, cx: float, cy: float, r: float, fill: RGBA) -> None:
    """A result marker of radius ``r``: a burst, disc, cross or square with a dark rim."""
    rim = (27, 27, 27, 255)
    w = max(1, round(r * 0.12))
    if shape == "burst":
        d.polygon(star_points(cx, cy, r, points=9, inner=0.66), fill=fill, outline=rim, width=w)
    elif shape == "circle":
        d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=fill, outline=rim, width=w)
    elif shape == "square":
        q = r * 0.85
        d.rectangle((cx - q, cy - q, cx + q, cy + q), fill=fill, outline=rim, width=w)
    elif shape == "cross":
        q = r * 0.72
        for a, b in (((cx - q, cy - q), (cx + q, cy + q)), ((cx - q, cy + q), (cx + q, cy - q))):
            thick_line(d, [a, b], (255, 255, 255, 255), r * 0.55)
        for a, b in (((cx - q, cy - q), (cx + q, cy + q)), ((cx - q, cy + q), (cx + q, cy - q))):
            thick_line(d, [a, b], fill, r * 0.34)
