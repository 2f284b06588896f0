"""A hex-and-counter view as a picture: the cached map, then this turn's overlays.

The renderer draws exactly what the :class:`~engine.core.view.HexMapView` holds: a stack
the viewer may not look into arrives with its top counter and a count, and is drawn as
that counter over blank backs with a count badge. Alongside the image it returns what it
drew and where (:class:`Rendering`), which tests and alt texts read instead of pixels.
"""

from __future__ import annotations

import io
import math
import struct
import threading
import zlib
from dataclasses import dataclass, field

from PIL import Image, ImageDraw

from engine.core.view import ArrowView, BoxView, CounterView, HexMapView, MarkerView, StackView
from renderer import glyphs
from renderer.base import BaseLayer, base_layer
from renderer.board import Board, load_board
from renderer.counters import Sprite, back_sprite, badge, counter_sprite
from renderer.fonts import Font, draw_text, fit, font, wrap
from renderer.geometry import Box, Layout, Point
from renderer.style import Style, load_style

ARROW_SUPERSAMPLE = 2


@dataclass(frozen=True)
class DrawnPiece:
    """One counter picture on the image: a face (``id`` set) or a blank back (``id`` None)."""

    id: str | None
    side: str
    #: the hex it stands in, or ``None`` when it is in an off-map box
    hex: str | None
    #: the off-map box it is in, or ``None`` on the map
    box: str | None
    bbox: Box


@dataclass(frozen=True)
class DrawnBadge:
    hex: str
    count: int
    bbox: Box


@dataclass(frozen=True)
class DrawnArrow:
    kind: str
    path: tuple[str, ...]
    bbox: Box


@dataclass(frozen=True)
class DrawnMarker:
    hex: str
    kind: str
    text: str
    bbox: Box


@dataclass
class Rendering:
    """The image and a record of what was drawn on it."""

    image: Image.Image
    layout: Layout
    pieces: list[DrawnPiece] = field(default_factory=list)
    badges: list[DrawnBadge] = field(default_factory=list)
    arrows: list[DrawnArrow] = field(default_factory=list)
    markers: list[DrawnMarker] = field(default_factory=list)
    legend: list[str] = field(default_factory=list)
    #: pieces a box had no room for, per box id (they are counted in a "+N more" note)
    overflow: dict[str, int] = field(default_factory=dict)
    #: stacks, arrows or markers naming hexes the map does not have (drawn nowhere)
    off_map: list[str] = field(default_factory=list)
    #: the base layer's palette, used to encode the PNG quickly
    palette: Image.Image | None = field(default=None, repr=False)

    def pieces_at(self, hex_: str) -> list[DrawnPiece]:
        return [p for p in self.pieces if p.hex == hex_]

    def png(self) -> bytes:
        return encode_png(self.image, self.palette)


def encode_png(image: Image.Image, palette: Image.Image | None = None) -> bytes:
    """A compact PNG: the picture reduced to 256 colours (maps have few), mapped onto
    ``palette`` when given (fast) or onto a palette fitted to it."""
    if palette is not None:
        paletted = image.quantize(palette=palette, dither=Image.Dither.NONE)
    else:
        paletted = image.quantize(256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    return paletted_png(paletted)


_PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def paletted_png(image: Image.Image) -> bytes:
    """A 256-colour (``P``) picture as PNG bytes, written here rather than by
    ``Image.save``: saving loads Pillow's BMP, GIF, JPEG, PPM and PNG plugins first, which
    cost a new process (one console ``map``) more than the encoding. The same rows, the
    same zlib level as ``save(compress_level=2)`` with no filter (what Pillow writes for
    a paletted image), so the same pixels; a picture of another mode is saved by Pillow."""
    colours = image.getpalette() if image.mode == "P" else None
    if not colours or len(colours) % 3 or len(colours) > 768 or "transparency" in image.info:
        buf = io.BytesIO()
        image.save(buf, "PNG", compress_level=2)
        return buf.getvalue()
    width, height = image.size
    pixels = memoryview(image.tobytes())
    rows = bytearray((width + 1) * height)  # each row after a 0 byte: filter "none"
    view = memoryview(rows)
    for y in range(height):
        start = y * (width + 1) + 1
        view[start : start + width] = pixels[y * width : (y + 1) * width]
    header = struct.pack(">IIBBBBB", width, height, 8, 3, 0, 0, 0)
    return b"".join(
        (
            _PNG_SIGNATURE,
            _png_chunk(b"IHDR", header),
            _png_chunk(b"PLTE", bytes(colours)),
            _png_chunk(b"IDAT", zlib.compress(rows, 2)),
            _png_chunk(b"IEND", b""),
        )
    )


def _png_chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def render(
    view: HexMapView,
    width: int = 1600,
    *,
    board: Board | None = None,
    style: Style | None = None,
) -> Rendering:
    """Draw ``view`` on its game's map, ``width`` pixels wide.

    ``board`` and ``style`` default to the game's shipped map pack and
    ``renderer/styles/<game>.json``. A view on a pointy-topped row grid (TAC, BIA) is
    drawn by :mod:`renderer.rows`.
    """
    if view.grid != "odd-q-CCRR":
        from renderer.rows import render as render_rows

        return render_rows(view, width, board=board, style=style)  # type: ignore[arg-type]
    style = style or load_style(view.game)
    board = board or load_board(view.game)
    # one drawing at a time: callers render in worker threads, and the caches and the
    # font objects are shared (the work holds the GIL anyway)
    with _render_lock:
        base = base_layer(board, style, width)
        img = base.image.copy()
        out = Rendering(
            image=img, layout=base.layout, legend=list(base.legend), palette=base.palette
        )
        _Overlay(view, board, style, base, out).draw()
    return out


_render_lock = threading.RLock()


def render_png(view: HexMapView, width: int = 1600) -> bytes:
    """``view`` as PNG bytes, about ``width`` pixels wide."""
    return render(view, width).png()


class _Overlay:
    def __init__(
        self, view: HexMapView, board: Board, style: Style, base: BaseLayer, out: Rendering
    ) -> None:
        self.view = view
        self.map = board.hexmap
        self.style = style
        self.base = base
        self.out = out
        self.img = out.image
        self.L = base.layout
        self.R = base.layout.radius
        self.d = ImageDraw.Draw(self.img, "RGBA")
        self.size = max(12, round(self.R * style.counter_scale))

    def draw(self) -> None:
        self.control()
        # arrows go under the pieces, so that they hide no counter's numbers, except those
        # the style wants on top (an attack between adjacent hexes would vanish)
        under = [a for a in self.view.arrows if not self._over(a)]
        over = [a for a in self.view.arrows if self._over(a)]
        labels = [self.arrow(arrow) for arrow in under]
        for stack in sorted(self.view.stacks, key=lambda s: self._y_order(s.hex)):
            self.stack(stack)
        labels += [self.arrow(arrow) for arrow in over]
        for label in labels:
            if label is not None:
                self.arrow_label(*label)
        by_hex: dict[str, list[MarkerView]] = {}
        for m in self.view.markers:
            by_hex.setdefault(m.hex, []).append(m)
        for hex_, markers in by_hex.items():
            self.markers(hex_, markers)
        self.panel().draw()

    def panel(self) -> _Panel:
        return _Panel(self.view, self.style, self.base, self.out, self.size)

    def face(self, counter: CounterView, size: int) -> Sprite:
        """The picture of a piece whose face the viewer sees."""
        return counter_sprite(counter, self.style, size)

    def _over(self, arrow: ArrowView) -> bool:
        st = self.style.arrows.get(arrow.kind)
        return bool(st and st.over_pieces)

    def _y_order(self, hex_: str) -> tuple[float, float]:
        if hex_ not in self.map.hex:
            return (0.0, 0.0)
        x, y = self.L.center(hex_)
        return (y, x)

    def _on_map(self, hex_: str) -> bool:
        if hex_ in self.map.hex:
            return True
        self.out.off_map.append(hex_)
        return False

    # -- control -------------------------------------------------------------------

    def control(self) -> None:
        cs = self.style.control
        if cs.front:
            self.front()
        marked = None if cs.features is None else set(cs.features)
        r = self.R * 0.13
        for hex_, side in self.view.control.items():
            if not self._on_map(hex_):
                continue
            if marked is not None and not (self.map.features.get(hex_, frozenset()) & marked):
                continue
            cx, cy = self.L.center(hex_)
            x, y = cx - self.R * 0.6, cy + self.R * 0.45
            colour = glyphs.rgba(self.style.side(side).band)
            self.d.ellipse((x - r - 1, y - r - 1, x + r + 1, y + r + 1), fill=(255, 255, 255, 255))
            self.d.ellipse((x - r, y - r, x + r, y + r), fill=colour)

    def front(self) -> None:
        """A translucent band in each side's colour along the edges of the ground it holds,
        where that ground meets ground held by another side."""
        control = self.view.control
        depth = self.R * self.style.control.width
        t = depth / (self.R * 0.866)
        for hex_, side in control.items():
            if hex_ not in self.map.hex or not self.map.land.get(hex_):
                continue
            colour = glyphs.rgba(self.style.side(side).band)[:3] + (self.style.control.alpha,)
            cx, cy = self.L.center(hex_)
            for n in self.map.grid.neighbours(hex_):
                other = control.get(n)
                if other is None or other == side or not self.map.land.get(n):
                    continue
                (ax, ay), (bx, by) = self.L.side(hex_, n)
                inner_a = (ax + (cx - ax) * t, ay + (cy - ay) * t)
                inner_b = (bx + (cx - bx) * t, by + (cy - by) * t)
                self.d.polygon([(ax, ay), (bx, by), inner_b, inner_a], fill=colour)

    # -- stacks --------------------------------------------------------------------

    def stack(self, stack: StackView) -> None:
        if not self._on_map(stack.hex):
            return
        S = self.size
        unseen = max(0, stack.count - len(stack.counters))
        layers: list[CounterView | None] = [None] * min(unseen, 3) + list(reversed(stack.counters))
        step = max(2, round(S * 0.09))
        cx, cy = self.L.center(stack.hex)
        n = len(layers)
        top_box: Box | None = None
        for i, counter in enumerate(layers):
            off = (i - (n - 1) / 2) * step
            x, y = round(cx - S / 2 + off), round(cy - S / 2 - off)
            self.d.rounded_rectangle(
                (x + 2, y + 2, x + S + 1, y + S + 1), radius=S * 0.08, fill=(0, 0, 0, 70)
            )
            side = counter.side if counter is not None else stack.side
            sprite = (
                self.face(counter, S)
                if counter is not None
                else back_sprite(side, self.style, S)
            )
            sprite.paste_on(self.img, (x, y))
            box = (x, y, x + S, y + S)
            self.out.pieces.append(
                DrawnPiece(counter.id if counter is not None else None, side, stack.hex, None, box)
            )
            top_box = box
        if stack.count > 1 and top_box is not None:
            self.count_badge(stack, top_box)

    def count_badge(self, stack: StackView, top_box: Box) -> None:
        """The badge on the top right of a stack's top piece: how many pieces it holds."""
        r = max(6.0, self.size * 0.19)
        bx, by = top_box[2] + r * 0.15, top_box[1] - r * 0.15
        badge(self.d, bx, by, r, stack.count, self.style)
        self.out.badges.append(
            DrawnBadge(
                stack.hex,
                stack.count,
                (round(bx - r), round(by - r), round(bx + r), round(by + r)),
            )
        )

    # -- arrows --------------------------------------------------------------------

    def arrow(self, arrow: ArrowView) -> tuple[str, Point, float] | None:
        """Draw ``arrow``; returns its label, where it goes and the arrow's width."""
        hexes = [h for h in arrow.path if self._on_map(h)]
        pts = [self.L.center(h) for h in hexes]
        if not pts:
            return None
        st = self.style.arrows.get(arrow.kind)
        colour = st.colour if st else "#333333"
        if colour == "side":
            colour = self.style.side(arrow.side).band
        width = self.R * (st.width if st else 0.12)
        if len(pts) == 1:
            return self.ring(arrow, pts[0], colour, width, bool(st and st.dash))
        if st and st.over_pieces:
            path = glyphs.trim(glyphs.smooth(pts), self.R * 0.4, self.R * 0.45)
        else:
            path = glyphs.trim(glyphs.smooth(pts), self.R * 0.3, self.R * 0.58)
        if len(path) < 2 or glyphs.polyline_length(path) < width * 3:
            return None
        margin = width * 4
        x0 = max(0, int(min(p[0] for p in path) - margin))
        y0 = max(0, int(min(p[1] for p in path) - margin))
        x1 = min(self.img.width, int(max(p[0] for p in path) + margin) + 1)
        y1 = min(self.img.height, int(max(p[1] for p in path) + margin) + 1)
        ss = ARROW_SUPERSAMPLE
        patch = Image.new("RGBA", ((x1 - x0) * ss, (y1 - y0) * ss), (0, 0, 0, 0))
        pd = ImageDraw.Draw(patch)
        local = [((x - x0) * ss, (y - y0) * ss) for x, y in path]
        glyphs.arrow(
            pd,
            local,
            glyphs.rgba(colour),
            width * ss,
            glyphs.rgba("#ffffffd0"),
            bool(st and st.dash),
        )
        patch = patch.reduce(ss)
        self.img.paste(patch, (x0, y0), patch)
        self.out.arrows.append(DrawnArrow(arrow.kind, tuple(arrow.path), (x0, y0, x1, y1)))
        return (arrow.label, _midpoint(path), width) if arrow.label else None

    def ring(
        self, arrow: ArrowView, at: Point, colour: str, width: float, dash: bool
    ) -> tuple[str, Point, float] | None:
        """An action aimed at one hex (an air strike on it): a ring just inside the hex."""
        cx, cy = at
        r = self.R * 0.8
        ss = ARROW_SUPERSAMPLE
        side = round(2 * r + 4 * width)
        x0, y0 = round(cx - side / 2), round(cy - side / 2)
        patch = Image.new("RGBA", (side * ss, side * ss), (0, 0, 0, 0))
        pd = ImageDraw.Draw(patch)
        c, w = side * ss / 2, width * ss * 0.8
        pd.ellipse(
            (c - r * ss, c - r * ss, c + r * ss, c + r * ss),
            outline=(255, 255, 255, 210),
            width=round(w * 1.9),
        )
        if dash:
            for k in range(0, 360, 30):
                pd.arc(
                    (c - r * ss, c - r * ss, c + r * ss, c + r * ss),
                    k,
                    k + 18,
                    fill=glyphs.rgba(colour),
                    width=round(w),
                )
        else:
            pd.ellipse(
                (c - r * ss, c - r * ss, c + r * ss, c + r * ss),
                outline=glyphs.rgba(colour),
                width=round(w),
            )
        patch = patch.reduce(ss)
        self.img.paste(patch, (x0, y0), patch)
        self.out.arrows.append(
            DrawnArrow(arrow.kind, tuple(arrow.path), (x0, y0, x0 + side, y0 + side))
        )
        return (arrow.label, (cx, cy - r), width) if arrow.label else None

    def arrow_label(self, text: str, at: Point, width: float) -> None:
        f = font(max(10, self.R * 0.3))
        mx, my = at
        draw_text(
            self.d,
            (mx, my - width * 1.8),
            text,
            f,
            glyphs.rgba("#1d1d1d"),
            bold=True,
            halo=(255, 255, 255, 235),
        )

    # -- markers -------------------------------------------------------------------

    MAX_MARKERS = 3

    def markers(self, hex_: str, markers: list[MarkerView]) -> None:
        """Result markers down the left edge of the hex's pieces. A short text (a die roll)
        goes inside; longer texts are in the panel's list of results."""
        if not self._on_map(hex_):
            return
        cx, cy = self.L.center(hex_)
        r = self.R * 0.24
        ss = ARROW_SUPERSAMPLE
        x = cx - self.R * 0.6
        shown = markers if len(markers) <= self.MAX_MARKERS else markers[: self.MAX_MARKERS]
        for i, m in enumerate(shown):
            y = cy - self.R * 0.42 + i * r * 2.05
            ms = self.style.marker(m.kind)
            side = round(r * 2.4)
            patch = Image.new("RGBA", (side * ss, side * ss), (0, 0, 0, 0))
            glyphs.marker(
                ImageDraw.Draw(patch),
                ms.shape,
                side * ss / 2,
                side * ss / 2,
                r * ss,
                glyphs.rgba(ms.fill),
            )
            patch = patch.reduce(ss)
            x0, y0 = round(x - side / 2), round(y - side / 2)
            self.img.paste(patch, (x0, y0), patch)
            text = m.text.strip()
            if text.lower() in (m.kind.lower(), ms.legend.lower()):
                text = ""  # the marker's shape already says it
            if i == len(shown) - 1 and len(markers) > len(shown):
                text = f"+{len(markers) - len(shown)}"
            if text and len(text) <= 3:
                f = fit(text, r * 1.5, r * 1.05, min_size=8)
                draw_text(self.d, (x, y + 0.5), text, f, glyphs.rgba(ms.ink), bold=True)
            self.out.markers.append(
                DrawnMarker(hex_, m.kind, m.text, (x0, y0, x0 + side, y0 + side))
            )


def _midpoint(path: list[Point]) -> Point:
    half = glyphs.polyline_length(path) / 2
    for a, b in zip(path, path[1:], strict=False):
        seg = math.dist(a, b)
        if seg >= half:
            t = half / seg if seg else 0
            return (a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t)
        half -= seg
    return path[-1]


class _Panel:
    """The per-turn part of the side panel: title, turn, whose decision, off-map boxes."""

    def __init__(
        self, view: HexMapView, style: Style, base: BaseLayer, out: Rendering, size: int
    ) -> None:
        self.view = view
        self.style = style
        self.out = out
        self.img = out.image
        self.d = ImageDraw.Draw(self.img, "RGBA")
        self.x0, self.y0, self.x1, self.y1 = base.dynamic_box
        self.w = self.x1 - self.x0
        self.size = size
        self.ink = glyphs.rgba(style.palette.ink)
        self.muted = glyphs.rgba(style.palette.muted)

    def face(self, counter: CounterView, size: int) -> Sprite:
        return counter_sprite(counter, self.style, size)

    def _role_name(self, role: str | None) -> str:
        if role is None:
            return ""
        named = {s.id: s.name for s in self.view.sides}
        if role in named:
            return named[role]
        side = self.style.sides.get(role)
        return side.name if side else role.replace("_", " ").title()

    def _text_block(
        self, y: float, text: str, f: Font, fill: glyphs.RGBA, bold: bool = False
    ) -> float:
        for line in wrap(text, f, self.w):
            draw_text(self.d, (self.x0, y), line, f, fill, anchor="lt", bold=bold)
            y += f.size + 4
        return y

    def draw(self) -> None:
        v = self.view
        y = float(self.y0)
        y = self._text_block(y, v.title, font(22), self.ink, bold=True) + 2
        if not v.turn_label:
            turn = f"Turn {v.turn}"
        elif str(v.turn) in v.turn_label:
            turn = v.turn_label
        else:
            turn = f"Turn {v.turn}: {v.turn_label}"
        y = self._text_block(y, turn, font(18), self.ink, bold=True)
        if v.phase:
            y = self._text_block(y, v.phase, font(16), self.ink)
        seen = f"Seen by {self._role_name(v.viewer)}" if v.viewer else "Public view"
        y = self._text_block(y + 2, seen, font(13), self.muted) + 8
        y = self.decision(y) + 10
        notes_h = sum(len(wrap(n, font(13), self.w)) * 17 for n in v.notes)
        # the results list takes what is left once every box has at least its heading
        room = self.y1 - notes_h - (8 if notes_h else 0) - y
        room -= len(v.boxes) * (self.BOX_HEAD + self.BOX_GAP)
        results = self.result_lines(max(0, int((room - 28) // 17)))
        results_h = (22 + len(results) * 17 + 6) if results else 0
        self.boxes(y, self.y1 - notes_h - results_h - (8 if notes_h else 0))
        if results:
            ry = self.y1 - notes_h - results_h - (8 if notes_h else 0) + 6
            draw_text(self.d, (self.x0, ry), "Results", font(15), self.ink, anchor="lt", bold=True)
            ry += 22
            for line in results:
                draw_text(
                    self.d,
                    (self.x0, ry),
                    line,
                    fit(line, self.w, 13, min_size=9),
                    self.ink,
                    anchor="lt",
                )
                ry += 17
        ny = self.y1 - notes_h
        for n in v.notes:
            ny = self._text_block(ny, n, font(13), self.muted)

    MAX_RESULT_LINES = 8

    def result_lines(self, fits: int | None = None) -> list[str]:
        """The markers as text (``8114  Hit``), for readers who cannot zoom into the map:
        at most ``MAX_RESULT_LINES``, or the ``fits`` lines the panel has room for (none
        when it has no room for two), the last saying how many more the map shows."""
        lines = []
        for m in self.view.markers:
            legend = self.style.marker(m.kind).legend
            text = m.text.strip()
            extra = f": {text}" if text and text.lower() != legend.lower() else ""
            lines.append(f"{m.hex}  {legend}{extra}")
        most = self.MAX_RESULT_LINES if fits is None else min(self.MAX_RESULT_LINES, fits)
        if len(lines) > most:
            if most < 2:
                return []
            more = len(lines) - most + 1
            lines = lines[: most - 1] + [f"... and {more} more on the map"]
        return lines

    def decision(self, y: float) -> float:
        v = self.view
        if v.active_role is None:
            head, colour = "No decision pending", self.muted
        else:
            head = f"{self._role_name(v.active_role)} to act"
            side = self.style.sides.get(v.active_role)
            colour = glyphs.rgba(side.band) if side else self.ink
        f_head, f_body = font(17), font(14)
        body = wrap(v.prompt, f_body, self.w - 22) if v.prompt else []
        h = 10 + f_head.size + 6 + len(body) * (f_body.size + 4) + 8
        self.d.rounded_rectangle(
            (self.x0, y, self.x1, y + h),
            radius=6,
            fill=glyphs.mix("#ffffff", "#000000", 0.02),
            outline=colour,
            width=2,
        )
        self.d.rectangle((self.x0, y + 3, self.x0 + 6, y + h - 3), fill=colour)
        draw_text(self.d, (self.x0 + 16, y + 9), head, f_head, colour, anchor="lt", bold=True)
        ty = y + 10 + f_head.size + 6
        for line in body:
            draw_text(self.d, (self.x0 + 16, ty), line, f_body, self.ink, anchor="lt")
            ty += f_body.size + 4
        return y + h

    def boxes(self, top: float, bottom: float) -> None:
        self._column(list(self.view.boxes), top, bottom)

    def _column(self, boxes: list[BoxView], top: float, bottom: float) -> None:
        """``boxes`` one under the other between ``top`` and ``bottom``."""
        if not boxes:
            return
        # the largest counter size (down to 60%) at which every box fits in full
        full = min(self.size, round(self.w / 8.5))
        size = full
        while size > full * 0.6 and self._boxes_height(boxes, size) > bottom - top:
            size -= 2
        y = top
        for i, b in enumerate(boxes):
            later = sum(self.BOX_HEAD + self.BOX_GAP for _ in boxes[i + 1 :])
            y = self.box(b, y, size, bottom - later) + self.BOX_GAP

    BOX_HEAD = 30
    BOX_GAP = 8

    def _per_row(self, size: int) -> int:
        return max(1, int((self.w - 16 + 4) // (size + 4)))

    def _box_height(self, b: BoxView, size: int, rows: int | None = None) -> float:
        if rows is None:
            rows = math.ceil(len(b.counters) / self._per_row(size))
        return self.BOX_HEAD + (rows * (size + 4) + 4 if rows else 0)

    def _boxes_height(self, boxes: list[BoxView], size: int) -> float:
        return sum(self._box_height(b, size) + self.BOX_GAP for b in boxes)

    def box(self, b: BoxView, y: float, size: int, bottom: float) -> float:
        colour = glyphs.rgba(self.style.side(b.side).band) if b.side else self.muted
        per_row = self._per_row(size)
        rows_fit = max(0, int((bottom - y - self.BOX_HEAD - 4) // (size + 4)))
        rows = min(math.ceil(len(b.counters) / per_row), rows_fit)
        if b.counters and rows == 0:
            rows = 1
        h = self._box_height(b, size, rows)
        self.d.rounded_rectangle(
            (self.x0, y, self.x1, y + h),
            radius=6,
            fill=glyphs.mix("#ffffff", "#000000", 0.03),
            outline=colour,
            width=2,
        )
        count = f"  ({len(b.counters)})" if b.counters else "  (empty)"
        draw_text(
            self.d,
            (self.x0 + 10, y + 15),
            b.title + count,
            font(15),
            colour,
            anchor="lm",
            bold=True,
        )
        room = rows * per_row
        shown = b.counters if len(b.counters) <= room else b.counters[: room - 1]
        for i, c in enumerate(shown):
            x = round(self.x0 + 8 + (i % per_row) * (size + 4))
            cy = round(y + self.BOX_HEAD + (i // per_row) * (size + 4))
            self.face(c, size).paste_on(self.img, (x, cy))
            self.out.pieces.append(
                DrawnPiece(c.id, c.side, None, b.id, (x, cy, x + size, cy + size))
            )
        hidden = len(b.counters) - len(shown)
        if hidden:
            i = len(shown)
            x = self.x0 + 8 + (i % per_row) * (size + 4)
            cy = y + self.BOX_HEAD + (i // per_row) * (size + 4)
            draw_text(
                self.d,
                (x + size / 2, cy + size / 2),
                f"+{hidden}",
                font(size * 0.4),
                self.ink,
                bold=True,
            )
            self.out.overflow[b.id] = hidden
        return y + h
