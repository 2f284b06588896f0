"""Where things go on the image: hex centres, corners and sides in pixels, and the panels.

Hexes are flat-topped with odd columns half a hex lower (``engine.core.hexgrid.center``);
the map fills the left part of the image and the side panel the rest.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, field

from engine.core.hexgrid import center, hex_id, parse_hex

SQRT3 = math.sqrt(3)
MARGIN = 14

Point = tuple[float, float]
Box = tuple[int, int, int, int]


@dataclass(frozen=True)
class Layout:
    """Pixel geometry of one image size for one map grid."""

    width: int
    height: int
    radius: float
    map_box: Box
    panel_box: Box
    #: the pixel position of the origin of ``hexgrid.center`` coordinates
    origin: Point
    _centres: dict[str, Point] = field(default_factory=dict, compare=False, repr=False)

    @classmethod
    def for_grid(
        cls, hexes: Iterable[str], width: int, panel_share: float, min_height: int = 0
    ) -> Layout:
        """Fit every hex of ``hexes`` (the whole grid rectangle) into the map part of the image."""
        cells = [parse_hex(h) for h in hexes]
        if not cells:
            raise ValueError("a map needs at least one hex")
        xs = [c * 1.5 for c, _ in cells]
        ys = [(r + 0.5 * (c & 1)) * SQRT3 for c, r in cells]
        unit_w = max(xs) - min(xs) + 2
        unit_h = max(ys) - min(ys) + SQRT3
        map_w = round(width * (1 - panel_share))
        radius = (map_w - 2 * MARGIN) / unit_w
        map_h = math.ceil(unit_h * radius + 2 * MARGIN)
        height = max(map_h, min_height)
        origin = (
            MARGIN + radius - min(xs) * radius,
            MARGIN + SQRT3 / 2 * radius - min(ys) * radius + (height - map_h) / 2,
        )
        return cls(
            width=width,
            height=height,
            radius=radius,
            map_box=(0, 0, map_w, height),
            panel_box=(map_w, 0, width, height),
            origin=origin,
        )

    def scaled(self, factor: int) -> Layout:
        """The same layout drawn ``factor`` times larger (for supersampled drawing)."""
        return Layout(
            width=self.width * factor,
            height=self.height * factor,
            radius=self.radius * factor,
            map_box=tuple(v * factor for v in self.map_box),  # type: ignore[arg-type]
            panel_box=tuple(v * factor for v in self.panel_box),  # type: ignore[arg-type]
            origin=(self.origin[0] * factor, self.origin[1] * factor),
        )

    def center(self, hex_: str) -> Point:
        p = self._centres.get(hex_)
        if p is None:
            x, y = center(hex_, self.radius)
            p = (self.origin[0] + x, self.origin[1] + y)
            self._centres[hex_] = p
        return p

    def corners(self, hex_: str, scale: float = 1.0) -> list[Point]:
        """The six corners, east first then clockwise on screen, at ``scale`` of the radius."""
        cx, cy = self.center(hex_)
        r = self.radius * scale
        return [
            (cx + r * math.cos(math.radians(60 * i)), cy + r * math.sin(math.radians(60 * i)))
            for i in range(6)
        ]

    def side(self, a: str, b: str) -> tuple[Point, Point]:
        """The two ends of the side shared by adjacent hexes ``a`` and ``b``."""
        ax, ay = self.center(a)
        bx, by = self.center(b)
        ang = math.atan2(by - ay, bx - ax)
        r = self.radius
        return (
            (ax + r * math.cos(ang - math.pi / 6), ay + r * math.sin(ang - math.pi / 6)),
            (ax + r * math.cos(ang + math.pi / 6), ay + r * math.sin(ang + math.pi / 6)),
        )

    def hex_at(self, x: float, y: float) -> str | None:
        """The id of the grid position under pixel ``(x, y)`` (``None`` off the numbering)."""
        qx = (x - self.origin[0]) / self.radius
        qy = (y - self.origin[1]) / self.radius
        # fractional axial coordinates of a flat-topped grid, then cube rounding
        q = qx * 2 / 3
        r = -qx / 3 + qy / SQRT3
        cx, cz = q, r
        cy = -cx - cz
        rx, ry, rz = round(cx), round(cy), round(cz)
        dx, dy, dz = abs(rx - cx), abs(ry - cy), abs(rz - cz)
        if dx > dy and dx > dz:
            rx = -ry - rz
        elif dy > dz:
            ry = -rx - rz
        else:
            rz = -rx - ry
        col = rx
        row = rz + (rx - (rx & 1)) // 2
        if not (0 <= col <= 99 and 0 <= row <= 99):
            return None
        return hex_id(col, row)
