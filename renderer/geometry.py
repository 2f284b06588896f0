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


# -- pointy-topped row grids --------------------------------------------------------------

#: the grids a :class:`~engine.core.view.HexMapView` may name besides PFV's flat-topped
#: odd-q columns: for each, whether the id is row-first (``AABB``: The African Campaign,
#: ``engine.core.hexgrid_rows``) and the parity of the rows sitting half a hex east (TAC:
#: even rows; Blocks in Afrika, ``engine.games.bia.pack``: odd rows, ids ``CCRR``)
ROW_GRIDS: dict[str, tuple[bool, int]] = {"even-r-AABB": (True, 0), "odd-r-CCRR": (False, 1)}


def row_cell(grid: str, hex_: str) -> tuple[int, int]:
    """``(row, col)`` of a hex id on a row grid. Raises ``ValueError`` on a bad id."""
    if len(hex_) != 4 or not hex_.isdigit():
        raise ValueError(f"{hex_!r} is not a four-digit hex number")
    a, b = int(hex_[:2]), int(hex_[2:])
    return (a, b) if ROW_GRIDS[grid][0] else (b, a)


def row_id(grid: str, row: int, col: int) -> str:
    return f"{row:02d}{col:02d}" if ROW_GRIDS[grid][0] else f"{col:02d}{row:02d}"


@dataclass(frozen=True)
class RowLayout(Layout):
    """Pixel geometry of a pointy-topped row grid: rows 1.5 radii apart, hexes √3 radii
    wide, the shifted rows half a hex east. The map spans the whole width; the panel is a
    strip under it (these maps are two to three times wider than tall)."""

    grid: str = "even-r-AABB"

    @classmethod
    def for_rows(cls, grid: str, hexes: Iterable[str], width: int, panel_height: int) -> RowLayout:
        """Fit every hex of ``hexes`` across ``width``, with a ``panel_height`` strip below."""
        cells = [row_cell(grid, h) for h in hexes]
        if not cells:
            raise ValueError("a map needs at least one hex")
        shifted = ROW_GRIDS[grid][1]
        xs = [(c + (0.5 if r % 2 == shifted else 0.0)) * SQRT3 for r, c in cells]
        ys = [r * 1.5 for r, _ in cells]
        unit_w = max(xs) - min(xs) + SQRT3
        unit_h = max(ys) - min(ys) + 2
        radius = (width - 2 * MARGIN) / unit_w
        map_h = math.ceil(unit_h * radius + 2 * MARGIN)
        origin = (
            MARGIN + SQRT3 / 2 * radius - min(xs) * radius,
            MARGIN + radius - min(ys) * radius,
        )
        return cls(
            width=width,
            height=map_h + panel_height,
            radius=radius,
            map_box=(0, 0, width, map_h),
            panel_box=(0, map_h, width, map_h + panel_height),
            origin=origin,
            grid=grid,
        )

    @classmethod
    def like(cls, layout: Layout, grid: str) -> RowLayout:
        """``layout`` (read back from the disk cache as a plain one) on ``grid``."""
        return cls(
            width=layout.width,
            height=layout.height,
            radius=layout.radius,
            map_box=layout.map_box,
            panel_box=layout.panel_box,
            origin=layout.origin,
            grid=grid,
        )

    def scaled(self, factor: int) -> RowLayout:
        return RowLayout.like(super().scaled(factor), self.grid)

    def center(self, hex_: str) -> Point:
        p = self._centres.get(hex_)
        if p is None:
            row, col = row_cell(self.grid, hex_)
            shift = 0.5 if row % 2 == ROW_GRIDS[self.grid][1] else 0.0
            p = (
                self.origin[0] + (col + shift) * SQRT3 * self.radius,
                self.origin[1] + row * 1.5 * self.radius,
            )
            self._centres[hex_] = p
        return p

    def corners(self, hex_: str, scale: float = 1.0) -> list[Point]:
        """The six corners, top first then clockwise on screen, at ``scale`` of the radius."""
        cx, cy = self.center(hex_)
        r = self.radius * scale
        return [
            (
                cx + r * math.cos(math.radians(60 * i - 90)),
                cy + r * math.sin(math.radians(60 * i - 90)),
            )
            for i in range(6)
        ]

    def hex_at(self, x: float, y: float) -> str | None:
        """The id of the grid position under pixel ``(x, y)`` (``None`` off the numbering):
        the nearest centre of the two rows around it."""
        shifted = ROW_GRIDS[self.grid][1]
        fy = (y - self.origin[1]) / (1.5 * self.radius)
        best: tuple[float, int, int] | None = None
        for row in (math.floor(fy), math.floor(fy) + 1):
            shift = 0.5 if row % 2 == shifted else 0.0
            col = round((x - self.origin[0]) / (SQRT3 * self.radius) - shift)
            cx = self.origin[0] + (col + shift) * SQRT3 * self.radius
            cy = self.origin[1] + row * 1.5 * self.radius
            d = (cx - x) ** 2 + (cy - y) ** 2
            if best is None or d < best[0]:
                best = (d, row, col)
        assert best is not None
        _, row, col = best
        if not (0 <= row <= 99 and 0 <= col <= 99):
            return None
        return row_id(self.grid, row, col)
