"""Build the Blocks in Afrika data pack (game ``bia``) from real geography and history.

The rulebook text (shared/rules/003) prints no map, no order of battle, no play aid and
no scenario booklet, so every file this script writes is a reconstruction
(``provenance: reconstruction``), kept consistent with every number, name and example
the rulebook does give. The tables below are the author's own latitude/longitude
approximations (coasts, ranges, rivers, borders of 1940-43, rail and roads as they ran
then) and his own summary of the historical orders of battle; the script projects them
onto the game's hex grid and writes five JSON files into ``engine/games/bia/data``:

``map.json``        hexes (terrain, country, locality, port and its body of water,
                    production), rivers and impassable borders, rail, roads, red arrows
``strategic.json``  the Strategic Map: home boxes, the Atlantic, South Africa, convoy boxes
``units.json``      every block used in BIA with its step track (value, edge colour)
``tables.json``     firepower, movement, terrain chart, tech dates, costs, AA, MDR
``scenarios.json``  BIA1-BIA10

Grid (see data/README.md): pointy-topped hexes in rows, odd rows half a hex east
(the rulebook's "hex West of Alam Halfa" and "hex west of El Agheila" name W neighbours,
which only rows of pointy hexes have), id ``CCRR`` = column then row from the north-west
corner, 75 km between hex centres (the rulebook: "approximately 44 miles (70 km)";
75 km is what makes Nicosia-Heraklion 10 hexes and Bengasi-Bir Hackeim 4, as its
examples require). Equirectangular projection, standard parallel 35N.

Run ``python tools/bia_pack.py`` to rewrite the pack (deterministic output; standard
library only) or ``python tools/bia_pack.py --show`` to print an ASCII map as well.
"""

from __future__ import annotations

import json
import math
import sys
from pathlib import Path

OUT = Path(__file__).resolve().parent.parent / "engine" / "games" / "bia" / "data"
VERSION = "0.1"
SOURCES_RULEBOOK = "Blocks in Afrika Rules Manual, Ventonuovo Games 2014 (shared/rules/003)"
SOURCES_DIGEST = "Adjudication digest shared/rules/digests/003_blocks_in_afrika.md"

LatLon = tuple[float, float]

# --------------------------------------------------------------------------------------
# Grid and projection
# --------------------------------------------------------------------------------------

HEX_KM = 75.0
LON_WEST = 7.8  # column 0 (even rows) sits on this meridian
LAT_NORTH = 41.6  # row 0 sits on this parallel: Rome (41.9N) stays off the map
FIRST_COL, LAST_COL = 0, 53
FIRST_ROW, LAST_ROW = 0, 24
#: columns of the A4 Tripolitania Extension Map (west of about 18.5E); the rest is the mapboard
EXTENSION_LAST_COL = 12
_ROW_KM = HEX_KM * math.sqrt(3) / 2
_KM_PER_DEG_LON = 111.32 * math.cos(math.radians(35.0))
_KM_PER_DEG_LAT = 111.2


def plane(lat: float, lon: float) -> tuple[float, float]:
    """Fractional (x, y) in hex units: x along a row, y counted in rows from the north."""
    return (lon - LON_WEST) * _KM_PER_DEG_LON / HEX_KM, (
        LAT_NORTH - lat
    ) * _KM_PER_DEG_LAT / _ROW_KM


def to_latlon(x: float, y: float) -> LatLon:
    return LAT_NORTH - y * _ROW_KM / _KM_PER_DEG_LAT, LON_WEST + x * HEX_KM / _KM_PER_DEG_LON


def centre(col: int, row: int) -> tuple[float, float]:
    return col + 0.5 * (row & 1), float(row)


def hex_id(col: int, row: int) -> str:
    return f"{col:02d}{row:02d}"


def parse(h: str) -> tuple[int, int]:
    return int(h[:2]), int(h[2:])


_ODD = ((1, 0), (1, -1), (0, -1), (-1, 0), (0, 1), (1, 1))  # E NE NW W SW SE
_EVEN = ((1, 0), (0, -1), (-1, -1), (-1, 0), (-1, 1), (0, 1))
DIRECTIONS = ("E", "NE", "NW", "W", "SW", "SE")


def neighbour(h: str, direction: str) -> str:
    c, r = parse(h)
    dc, dr = (_ODD if r & 1 else _EVEN)[DIRECTIONS.index(direction)]
    return hex_id(c + dc, r + dr)


def neighbours(h: str) -> list[str]:
    c, r = parse(h)
    out = []
    for dc, dr in _ODD if r & 1 else _EVEN:
        nc, nr = c + dc, r + dr
        if FIRST_COL <= nc <= LAST_COL and FIRST_ROW <= nr <= LAST_ROW:
            out.append(hex_id(nc, nr))
    return out


def distance(a: str, b: str) -> int:
    def cube(h: str) -> tuple[int, int, int]:
        c, r = parse(h)
        x = c - (r - (r & 1)) // 2
        return x, -x - r, r

    ax, ay, az = cube(a)
    bx, by, bz = cube(b)
    return max(abs(ax - bx), abs(ay - by), abs(az - bz))


def hex_at_xy(x: float, y: float) -> str:
    """The hex whose centre is nearest to the point (ties to the lower id)."""
    best: tuple[float, str] | None = None
    r0 = round(y)
    for r in range(r0 - 1, r0 + 2):
        c0 = round(x - 0.5 * (r & 1))
        for c in range(c0 - 1, c0 + 2):
            cx, cy = centre(c, r)
            d = ((cx - x) ** 2 + ((cy - y) * math.sqrt(3) / 2) ** 2, hex_id(c, r))
            if best is None or d < best:
                best = d
    assert best is not None
    return best[1]


def hex_at(lat: float, lon: float) -> str:
    return hex_at_xy(*plane(lat, lon))


def on_map(h: str) -> bool:
    c, r = parse(h)
    return FIRST_COL <= c <= LAST_COL and FIRST_ROW <= r <= LAST_ROW


def all_hexes() -> list[str]:
    return [
        hex_id(c, r) for r in range(FIRST_ROW, LAST_ROW + 1) for c in range(FIRST_COL, LAST_COL + 1)
    ]


def is_partial(h: str) -> bool:
    """Hexes the map frame cuts: the west column of even rows and the whole east column
    (the frame runs through the centres of the even rows' end hexes; Tehran's meridian)."""
    c, r = parse(h)
    return (c == FIRST_COL and r % 2 == 0) or c == LAST_COL


# --------------------------------------------------------------------------------------
# Geometry helpers
# --------------------------------------------------------------------------------------


def inside(lat: float, lon: float, poly: list[LatLon]) -> bool:
    hit = False
    n = len(poly)
    for i in range(n):
        (y1, x1), (y2, x2) = poly[i], poly[(i + 1) % n]
        if (y1 > lat) != (y2 > lat):
            xc = x1 + (lat - y1) * (x2 - x1) / (y2 - y1)
            if lon < xc:
                hit = not hit
    return hit


def km_to_polyline(lat: float, lon: float, line: list[LatLon]) -> float:
    px, py = lon * _KM_PER_DEG_LON, lat * _KM_PER_DEG_LAT
    best = float("inf")
    for (a_lat, a_lon), (b_lat, b_lon) in zip(line, line[1:], strict=False):
        ax, ay = a_lon * _KM_PER_DEG_LON, a_lat * _KM_PER_DEG_LAT
        bx, by = b_lon * _KM_PER_DEG_LON, b_lat * _KM_PER_DEG_LAT
        dx, dy = bx - ax, by - ay
        t = (
            0.0
            if dx == dy == 0
            else max(0.0, min(1.0, ((px - ax) * dx + (py - ay) * dy) / (dx * dx + dy * dy)))
        )
        best = min(best, math.hypot(px - ax - t * dx, py - ay - t * dy))
    return best


def samples(h: str, n: int = 5) -> list[LatLon]:
    """Points spread over a hex (a square grid clipped to the inscribed circle)."""
    cx, cy = centre(*parse(h))
    out = []
    for i in range(n):
        for j in range(n):
            dx = (i - (n - 1) / 2) / n
            dy = (j - (n - 1) / 2) / n * 1.15
            if dx * dx + (dy / 1.15) ** 2 <= 0.3:
                out.append(to_latlon(cx + dx, cy + dy))
    return out


def segments_cross(p1, p2, p3, p4) -> bool:  # noqa: ANN001 - plain tuples
    def orient(a, b, c):  # noqa: ANN001, ANN202
        return (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])

    d1, d2 = orient(p3, p4, p1), orient(p3, p4, p2)
    d3, d4 = orient(p1, p2, p3), orient(p1, p2, p4)
    return (d1 > 0) != (d2 > 0) and (d3 > 0) != (d4 > 0)


def crossed_sides(line: list[LatLon]) -> set[tuple[str, str]]:
    """Every hexside whose centre-to-centre segment the polyline crosses."""
    pts = [plane(*p) for p in line]
    found: set[tuple[str, str]] = set()
    for a, b in zip(pts, pts[1:], strict=False):
        steps = max(2, int(math.hypot(b[0] - a[0], b[1] - a[1]) * 6))
        near = {
            hex_at_xy(a[0] + (b[0] - a[0]) * t / steps, a[1] + (b[1] - a[1]) * t / steps)
            for t in range(steps + 1)
        }
        cand = set(near)
        for h in near:
            cand.update(neighbours(h))
        for h in cand:
            if not on_map(h):
                continue
            for n in neighbours(h):
                if h < n:
                    ch = centre(*parse(h))
                    cn = centre(*parse(n))
                    if segments_cross(a, b, ch, cn):
                        found.add((h, n))
    return found


def chain(line: list[LatLon]) -> list[str]:
    """The hexes a polyline passes through, each adjacent to the next."""
    pts = [plane(*p) for p in line]
    out: list[str] = []
    for a, b in zip(pts, pts[1:], strict=False):
        steps = max(2, int(math.hypot(b[0] - a[0], b[1] - a[1]) * 10))
        for t in range(steps + 1):
            h = hex_at_xy(a[0] + (b[0] - a[0]) * t / steps, a[1] + (b[1] - a[1]) * t / steps)
            if not out or out[-1] != h:
                if out and h not in neighbours(out[-1]):
                    common = sorted(set(neighbours(out[-1])) & set(neighbours(h)))
                    if common:
                        out.append(common[0])
                out.append(h)
    return [h for h in out if on_map(h)]


# --------------------------------------------------------------------------------------
# Geography tables (lat, lon), the author's approximations; coarse on purpose: one hex is
# 75 km, so a point every 50-150 km is enough.
# --------------------------------------------------------------------------------------

# fmt: off
#: land masses; points beyond the map frame close them
LAND: dict[str, list[LatLon]] = {
    "africa_asia": [
        (37.0, 7.0), (36.95, 7.8), (37.0, 8.7), (37.3, 9.5), (37.33, 9.86), (37.1, 10.25),
        (36.82, 10.3), (37.08, 11.05), (36.45, 10.75), (35.83, 10.64), (35.5, 11.06),
        (35.0, 11.05), (34.74, 10.77), (34.3, 10.15), (33.88, 10.1), (33.7, 10.45),
        (33.85, 10.95), (33.5, 11.1), (33.17, 11.55), (32.93, 12.08), (32.85, 13.18),
        (32.65, 14.26), (32.4, 15.2), (31.75, 15.4), (31.2, 16.6), (30.8, 17.6),
        (30.5, 18.55), (30.27, 19.2), (30.41, 19.58), (31.0, 19.95), (31.7, 20.0),
        (32.12, 20.07), (32.53, 20.57), (32.9, 21.6), (32.92, 22.17), (32.77, 22.64),
        (32.6, 23.1), (32.2, 23.3), (32.08, 23.96), (31.77, 25.0), (31.57, 25.15),
        (31.61, 25.93), (31.35, 27.24), (31.07, 27.9), (30.83, 28.95), (31.2, 29.92),
        (31.32, 30.35), (31.45, 30.4), (31.55, 31.0), (31.45, 31.8), (31.26, 32.3),
        (31.13, 33.8), (31.5, 34.45), (32.08, 34.77), (32.82, 34.99), (33.27, 35.2),
        (33.9, 35.5), (34.43, 35.83), (34.9, 35.87), (35.52, 35.78), (35.9, 35.85),
        (36.59, 36.17), (36.8, 36.0), (36.57, 35.37), (36.8, 34.64), (36.38, 33.93),
        (36.08, 32.83), (36.54, 32.0), (36.88, 30.7), (36.3, 30.5), (36.2, 29.64),
        (36.75, 28.3), (37.03, 27.43), (37.55, 27.2), (38.42, 27.14), (38.67, 26.75),
        (39.32, 26.69), (39.48, 26.07), (40.05, 26.2), (40.15, 26.4), (40.4, 26.7),
        (40.35, 27.3), (40.35, 27.97), (40.38, 29.0), (40.76, 29.9), (40.95, 29.2),
        (41.2, 29.1), (41.12, 30.65), (41.45, 31.79), (41.75, 32.4), (41.98, 33.76),
        (42.1, 35.15), (41.3, 36.34), (40.98, 37.88), (40.9, 38.4), (41.0, 39.72),
        (41.05, 40.5), (41.64, 41.64), (42.5, 41.6), (43.0, 41.0), (43.0, 55.0),
        (26.0, 55.0), (26.0, 7.0),
    ],
    "balkans": [
        (43.0, 19.0), (42.0, 19.35), (41.32, 19.45), (40.47, 19.49), (40.0, 19.8),
        (39.87, 20.0), (39.3, 20.3), (38.95, 20.75), (38.35, 21.1), (38.25, 21.35),
        (37.65, 21.3), (37.0, 21.65), (36.8, 22.1), (36.39, 22.48), (36.8, 22.75),
        (36.44, 23.2), (37.0, 22.95), (37.5, 22.8), (37.3, 23.2), (37.7, 23.2),
        (37.94, 23.65), (37.65, 24.02), (38.0, 24.1), (38.0, 24.58), (38.6, 24.1),
        (39.0, 23.5), (39.2, 23.2), (39.7, 22.9), (40.3, 22.6), (40.63, 22.94),
        (40.2, 23.3), (40.2, 23.8), (40.15, 24.4), (40.6, 23.9), (40.85, 24.0),
        (40.94, 24.4), (40.95, 25.1), (40.85, 25.87), (40.7, 26.05), (40.6, 26.4),
        (40.05, 26.2), (40.4, 26.65), (40.6, 27.1), (40.98, 27.51), (41.0, 28.6),
        (41.0, 28.97), (41.2, 29.05), (41.6, 28.1), (42.0, 27.95), (42.5, 27.6),
        (43.0, 27.6),
    ],
    "italy": [
        (42.5, 11.0), (41.9, 12.2), (41.25, 13.2), (40.85, 14.25), (40.6, 14.4),
        (40.25, 14.9), (40.0, 15.5), (39.4, 16.0), (38.9, 16.2), (38.6, 15.85),
        (38.2, 15.65), (37.95, 15.7), (38.0, 16.1), (38.45, 16.55), (38.9, 16.6),
        (39.05, 17.1), (39.45, 17.15), (39.9, 16.6), (40.2, 16.8), (40.47, 17.24),
        (40.3, 17.7), (40.1, 18.0), (39.8, 18.35), (40.15, 18.5), (40.64, 17.95),
        (41.13, 16.87), (41.6, 15.9), (41.9, 16.2), (42.5, 14.5),
    ],
    "sicily": [
        (38.3, 15.6), (38.1, 13.36), (38.2, 12.8), (38.02, 12.5), (37.6, 12.6),
        (37.2, 13.6), (36.7, 14.6), (36.7, 15.1), (37.08, 15.29), (37.5, 15.1),
        (38.0, 15.4),
    ],
    "sardinia": [
        (41.25, 9.2), (40.9, 9.7), (40.3, 9.75), (39.5, 9.65), (39.1, 9.55), (39.2, 9.1),
        (38.9, 8.6), (39.3, 8.4), (40.0, 8.45), (40.6, 8.15), (41.0, 8.3), (40.95, 8.8),
    ],
    "crete": [(35.6, 23.55), (35.55, 24.2), (35.45, 25.0), (35.35, 25.8), (35.25, 26.3),
              (35.0, 26.1), (34.95, 25.0), (35.2, 24.0), (35.25, 23.55)],
    "cyprus": [(35.4, 32.3), (35.3, 33.0), (35.45, 34.6), (35.1, 34.05), (34.6, 33.1),
               (34.65, 32.4)],
    "rhodes": [(36.45, 27.95), (36.45, 28.3), (35.9, 28.25), (35.9, 27.7)],
    "malta": [(36.08, 14.2), (36.05, 14.6), (35.8, 14.6), (35.8, 14.3)],
}

#: water inside the land masses, by body of water
WATER: list[tuple[str, str, list[LatLon]]] = [
    ("caspian", "Caspian Sea", [
        (43.0, 47.5), (42.0, 48.1), (41.3, 49.1), (40.6, 49.6), (40.55, 50.35),
        (40.3, 50.2), (39.7, 49.45), (38.9, 49.0), (38.45, 48.95), (37.47, 49.46),
        (37.0, 50.4), (36.7, 51.5), (36.72, 52.6), (36.85, 53.9), (37.5, 54.0),
        (40.0, 53.0), (42.0, 52.5), (43.0, 51.5)]),
    ("indian_ocean", "Gulf of Suez and Red Sea", [
        (29.95, 32.5), (29.3, 32.55), (28.3, 33.1), (27.75, 34.25), (28.9, 34.65),
        (29.5, 34.95), (29.0, 34.95), (28.0, 34.85), (27.0, 35.6), (26.0, 36.5),
        (26.0, 34.0), (27.0, 33.9), (27.7, 33.55), (28.5, 32.85), (29.4, 32.4)]),
    ("indian_ocean", "Persian Gulf", [
        (29.95, 48.0), (30.0, 48.6), (30.35, 49.1), (30.05, 50.15), (29.5, 50.5),
        (28.95, 50.84), (28.0, 51.3), (27.0, 52.5), (26.0, 53.5), (26.0, 50.0),
        (27.0, 49.7), (28.0, 48.8), (28.8, 48.3), (29.35, 48.1), (29.4, 47.7)]),
]

#: hexes the coarse tables leave land but which must be water, with their body: the
#: narrow gulfs that carry the Indian Ocean ports Suez and Aqaba
FORCED_SEA: list[tuple[LatLon, str]] = [
    ((29.55, 32.6), "indian_ocean"),
    ((28.9, 34.7), "indian_ocean"),
    ((30.0, 48.6), "indian_ocean"),
    ((29.92, 48.1), "indian_ocean"),  # the Shatt al-Arab below Basra and Abadan
    ((34.01, 10.68), "mediterranean"),  # the Gulf of Gabes
    ((40.75, 28.4), "mediterranean"),  # the Sea of Marmara, Istanbul's Mediterranean side
]

BODIES = {
    "mediterranean": "Mediterranean Sea",
    "indian_ocean": "Indian Ocean (Red Sea and Persian Gulf)",
    "black_sea": "Black Sea",
    "caspian": "Caspian Sea",
}


def body_of(lat: float, lon: float) -> str:
    """The body of water a sea point belongs to (rulebook BIA abstraction 1: four)."""
    for body, _name, poly in WATER:
        if inside(lat, lon, poly):
            return body
    if lat > 40.9 and lon > 28.95:
        return "black_sea"
    if lat > 41.15 and lon > 27.9:
        return "black_sea"
    return "mediterranean"


#: impassable areas (rulebook 7.5.2: the Tunisian Chotts and the Qattara Depression)
# fmt: off
IMPASSABLE: dict[str, list[LatLon]] = {
    "Chott el Djerid": [
        (34.15, 7.7), (34.2, 8.5), (33.95, 9.0), (33.95, 9.65), (33.75, 9.65), (33.7, 8.9),
        (33.45, 8.35), (33.6, 7.7),
    ],
    "Qattara Depression": [
        (29.95, 26.2), (30.25, 27.3), (29.85, 28.0), (29.55, 28.6), (29.3, 28.6), (29.1, 27.8),
        (29.1, 26.8), (29.4, 26.1),
    ],
}
# fmt: on

#: ranges and other terrain bands: (name, terrain, half-width km, polyline); the first
#: band a hex falls in wins, so mountains come before forest and hills
# fmt: off
BANDS: list[tuple[str, str, float, list[LatLon]]] = [
    ("Taurus", "mountain", 55, [(36.9, 29.8), (37.1, 31.5), (37.0, 32.8), (37.2, 34.5),
        (37.6, 35.8), (38.0, 37.0), (38.3, 38.5), (38.5, 40.0), (38.4, 42.0), (37.8, 43.5),
        (37.3, 44.3)]),
    ("Pontic Mountains", "mountain", 45, [(40.6, 36.5), (40.6, 38.0), (40.7, 39.5), (40.8, 40.6),
        (41.2, 42.0)]),
    ("Armenian Highlands", "mountain", 65, [(39.9, 40.0), (39.9, 41.5), (39.7, 43.0),
        (39.7, 44.3)]),
    ("Zagros", "mountain", 95, [(37.0, 45.0), (35.5, 46.3), (34.3, 47.2), (33.3, 48.2),
        (32.2, 49.6), (30.8, 50.9), (29.5, 52.0)]),
    ("Elburz", "mountain", 40, [(37.0, 48.6), (36.6, 49.5), (36.25, 50.5), (36.0, 51.5),
        (35.95, 52.5), (36.3, 53.5)]),
    ("Lesser Caucasus", "mountain", 45, [(41.2, 43.0), (40.8, 44.5), (40.2, 45.8), (39.5, 46.3)]),
    ("Lebanon", "mountain", 28, [(33.3, 35.6), (33.9, 35.9), (34.4, 36.3)]),
    ("Sinai", "mountain", 40, [(28.8, 33.6), (28.4, 34.0)]),
    ("Hejaz", "mountain", 45, [(29.0, 35.3), (28.0, 35.8), (27.0, 36.6)]),
    ("Pindus", "mountain", 45, [(40.5, 20.8), (39.5, 21.2), (38.7, 21.8), (38.2, 22.2)]),
    ("Rhodope", "mountain", 30, [(41.5, 24.0), (41.45, 25.5)]),
    ("Southern Apennines", "mountain", 35, [(41.6, 14.0), (40.8, 15.3), (40.3, 15.9), (39.5, 16.2),
        (38.8, 16.3), (38.2, 15.9)]),
    ("Etna", "mountain", 15, [(37.75, 15.0), (37.76, 15.01)]),
    ("Mesopotamian Marshes", "swamp", 40, [(31.0, 46.6), (31.3, 47.2), (31.0, 47.5), (30.7, 47.2)]),
    ("Black Sea forest", "forest", 40, [(41.1, 30.8), (41.45, 32.5), (41.5, 34.0), (41.3, 35.8)]),
    ("Eastern Pontic forest", "forest", 25, [(41.0, 38.5), (41.1, 40.5), (41.5, 41.5)]),
    ("Hyrcanian forest", "forest", 28, [(38.3, 48.85), (37.3, 49.5), (36.85, 50.8), (36.65, 52.5),
        (36.8, 53.8)]),
    ("Istranca", "forest", 25, [(41.75, 27.5), (41.4, 28.4)]),
    ("Sila", "forest", 20, [(39.3, 16.5), (39.35, 16.6)]),
    ("Tunisian Dorsale", "hills", 35, [(36.5, 8.4), (36.0, 9.2), (35.7, 9.8), (36.2, 10.2)]),
    ("Matmata and Dahar", "hills", 28, [(33.6, 9.9), (32.6, 10.4)]),
    ("Jebel Nafusa", "hills", 25, [(32.0, 10.9), (31.95, 12.0), (32.1, 13.0), (32.2, 13.8)]),
    ("Jebel Akhdar", "hills", 30, [(32.4, 20.9), (32.62, 21.6), (32.68, 22.3), (32.58, 22.75)]),
    ("Western Anatolia", "hills", 70, [(39.2, 28.3), (38.8, 30.5), (39.5, 32.5)]),
    ("Central Anatolia", "hills", 60, [(40.2, 32.0), (40.2, 34.5), (39.8, 36.5), (39.3, 38.5)]),
    ("Judean Hills", "hills", 20, [(31.3, 35.1), (32.3, 35.25)]),
    ("Transjordan Plateau", "hills", 25, [(30.3, 35.6), (32.3, 35.9)]),
    ("Jebel Druze", "hills", 25, [(32.7, 36.7), (32.6, 36.75)]),
    ("Jebel Ansariya", "hills", 20, [(35.0, 36.1), (35.8, 36.15)]),
    ("Zagros foothills", "hills", 40, [(36.5, 44.0), (34.8, 45.2), (33.5, 46.3)]),
    ("Iranian Plateau", "hills", 80, [(35.0, 48.5), (34.0, 50.0), (33.0, 51.5)]),
    ("Sicilian hills", "hills", 30, [(37.6, 13.2), (37.7, 14.3)]),
    ("Sardinian hills", "hills", 40, [(40.8, 9.2), (39.5, 9.3)]),
    ("Peloponnese", "hills", 40, [(37.2, 22.0), (37.8, 22.2)]),
    ("Macedonian hills", "hills", 30, [(40.0, 22.0), (41.2, 21.5)]),
    ("Red Sea Hills", "hills", 40, [(29.5, 32.2), (28.0, 32.7), (27.0, 33.2)]),
    ("Crete", "hills", 20, [(35.3, 23.8), (35.2, 25.5)]),
]
# fmt: on

#: rivers (rulebook 7.7.6: a river gives the defender a Bonus and the attacker a Malus)
# fmt: off
RIVERS: dict[str, list[LatLon]] = {
    "Nile": [(27.0, 31.0), (28.1, 30.75), (29.0, 31.1), (30.05, 31.25), (30.6, 31.0),
        (31.45, 30.37)],
    "Nile (Damietta branch)": [(30.6, 31.0), (31.0, 31.4), (31.5, 31.85)],
    "Tigris": [(37.1, 42.35), (36.34, 43.13), (34.6, 43.68), (33.32, 44.42), (32.5, 45.82),
        (31.84, 47.15), (31.0, 47.43), (30.5, 47.82), (29.97, 48.48)],
    "Euphrates": [(39.7, 39.5), (38.8, 38.8), (37.03, 37.98), (36.82, 38.0), (35.95, 39.0),
        (35.33, 40.14), (34.45, 40.92), (34.13, 42.38), (33.42, 43.3), (33.35, 43.78), (32.48, 44.42),
        (31.31, 45.28), (31.05, 46.26), (31.0, 47.43)],
    "Kizilirmak": [(39.75, 37.4), (39.2, 36.0), (38.9, 35.0), (39.3, 34.0), (40.0, 33.6),
        (40.7, 34.4), (41.3, 35.4), (41.72, 35.95)],
    "Sakarya": [(39.2, 31.0), (39.6, 30.6), (40.0, 30.1), (40.4, 30.3), (40.75, 30.4),
        (41.12, 30.65)],
    "Orontes": [(34.4, 36.4), (34.73, 36.72), (35.13, 36.75), (35.8, 36.35), (36.2, 36.55),
        (36.1, 35.95)],
    "Jordan": [(33.2, 35.62), (32.7, 35.57), (31.76, 35.55)],
    "Aras": [(39.75, 44.8), (39.2, 45.5), (38.9, 46.5), (39.4, 47.2), (39.7, 47.9), (40.0, 48.5)],
    "Kura": [(41.7, 44.8), (41.3, 46.0), (40.6, 47.5), (40.0, 48.5), (39.3, 49.3)],
    "Karun": [(32.4, 48.8), (31.32, 48.68), (30.43, 48.17)],
    "Medjerda": [(36.3, 8.2), (36.5, 8.8), (36.6, 9.5), (36.9, 10.1), (37.1, 10.2)],
    "Evros": [(41.7, 26.35), (41.33, 26.6), (40.73, 26.03)],
    "Vardar": [(41.6, 22.3), (41.1, 22.5), (40.6, 22.7)],
    "Struma": [(41.6, 23.2), (41.2, 23.3), (40.8, 23.8)],
    "Suez Canal": [(31.26, 32.3), (30.6, 32.3), (29.97, 32.55)],
}
# fmt: on

#: countries as they stood in 1940: (id, name, regions, polygon); the first that holds a
#: hex centre wins. Regions: rulebook BIA abstraction ("AFRIKA" = africa + middle_east;
#: Egypt is in both, Turkey in europe and middle_east).
# fmt: off
COUNTRIES: list[tuple[str, str, list[str], list[LatLon]]] = [
    ("malta", "Malta (British)", ["europe"], [(36.2, 14.0), (36.2, 14.8), (35.6, 14.8),
        (35.6, 14.0)]),
    ("cyprus", "Cyprus (British)", ["middle_east"], [(35.9, 32.0), (35.9, 34.8), (34.4, 34.8),
        (34.4, 32.0)]),
    ("dodecanese", "Dodecanese (Italian)", ["europe"], [(36.9, 26.8), (36.9, 28.5), (35.7, 28.5),
        (35.7, 26.8)]),
    ("algeria", "Algeria (Vichy France)", ["africa"], [(37.5, 7.0), (37.0, 8.6), (35.5, 8.3),
        (34.0, 7.9), (33.0, 8.3), (31.0, 9.0), (30.2, 9.5), (26, 9.5), (26, 7.0)]),
    ("tunisia", "Tunisia (Vichy France)", ["africa"], [(37.5, 7.0), (37.5, 11.6), (33.17, 11.55),
        (32.0, 10.75), (30.2, 9.5), (26, 7.0)]),
    ("libya", "Libya (Italian)", ["africa"], [(34.5, 11.55), (34.5, 25.15), (31.6, 25.15),
        (31.0, 24.87), (29.0, 25.0), (26, 25.0), (26, 9.5), (30.2, 9.5), (32.0, 10.75),
        (33.17, 11.55)]),
    ("egypt", "Egypt", ["africa", "middle_east"], [(31.6, 25.15), (33, 25.15), (33, 34.23),
        (31.28, 34.23), (29.49, 34.9), (28.0, 34.6), (26, 35.8), (26, 25.0)]),
    ("palestine", "Palestine and Transjordan (British)", ["middle_east"], [(33.1, 34.0),
        (33.1, 35.6), (32.7, 35.65), (32.4, 36.0), (32.3, 37.0), (33.37, 38.8), (32.5, 39.3),
        (32.2, 39.2), (31.5, 37.0), (30.3, 38.0), (29.9, 36.8), (29.2, 35.6), (29.2, 34.95),
        (29.49, 34.9), (31.28, 34.23), (31.5, 34.0)]),
    ("levant", "Syria and Lebanon (Vichy France)", ["middle_east"], [(35.92, 35.0), (35.92, 35.92),
        (35.95, 36.35), (36.65, 36.7), (36.82, 38.0), (37.07, 41.2), (37.1, 42.35), (36.4, 41.3),
        (34.45, 40.95), (33.37, 38.8), (32.3, 37.0), (32.4, 36.0), (32.7, 35.65), (33.1, 35.6),
        (33.1, 34.0)]),
    ("kuwait", "Kuwait (British)", ["middle_east"], [(30.1, 47.95), (29.95, 48.55), (28.5, 48.5),
        (28.55, 47.7), (29.1, 46.5)]),
    ("iraq", "Iraq", ["middle_east"], [(37.1, 42.35), (37.35, 43.5), (37.15, 44.8), (36.0, 45.5),
        (35.4, 45.9), (34.4, 45.55), (33.6, 46.0), (32.8, 46.9), (32.0, 47.5), (31.0, 47.7),
        (30.4, 48.0), (29.95, 48.55), (30.1, 47.95), (29.1, 46.5), (29.1, 44.7), (31.5, 41.5),
        (32.2, 39.2), (32.5, 39.3), (33.37, 38.8), (34.45, 40.95), (36.4, 41.3)]),
    ("ussr", "Soviet Union", ["europe"], [(41.55, 41.5), (41.2, 42.8), (40.6, 43.65), (40.0, 43.9),
        (39.75, 44.5), (39.2, 45.4), (38.9, 46.5), (39.4, 47.2), (39.7, 47.9), (38.9, 48.1),
        (38.43, 48.87), (38.4, 55), (43, 55), (43, 41.5)]),
    ("persia", "Persia", ["middle_east"], [(39.75, 44.5), (39.2, 45.4), (38.9, 46.5), (39.4, 47.2),
        (39.7, 47.9), (38.9, 48.1), (38.43, 48.87), (38.4, 55), (26, 55), (26, 50.5), (29.95, 48.55),
        (30.4, 48.0), (31.0, 47.7), (32.0, 47.5), (32.8, 46.9), (33.6, 46.0), (34.4, 45.55),
        (35.4, 45.9), (36.0, 45.5), (37.15, 44.8), (38.3, 44.3)]),
    ("saudi_arabia", "Saudi Arabia", ["middle_east"], [(29.2, 34.95), (29.2, 35.6), (29.9, 36.8),
        (30.3, 38.0), (31.5, 37.0), (32.2, 39.2), (31.5, 41.5), (29.1, 44.7), (29.1, 46.5),
        (28.55, 47.7), (28.5, 48.5), (26, 50.5), (26, 35.8), (28.0, 34.6)]),
    ("turkey", "Turkey", ["europe", "middle_east"], [(35.92, 35.92), (35.95, 36.35), (36.65, 36.7),
        (36.82, 38.0), (37.07, 41.2), (37.1, 42.35), (37.35, 43.5), (37.15, 44.8), (38.3, 44.3),
        (39.75, 44.5), (40.0, 43.9), (40.6, 43.65), (41.2, 42.8), (41.55, 41.5), (42.5, 41.5),
        (42.5, 28.0), (41.97, 28.0), (42.0, 27.5), (41.75, 26.4), (41.7, 26.35), (41.33, 26.6),
        (40.73, 26.03), (40.0, 25.9), (39.5, 26.0), (38.5, 26.45), (37.5, 26.95), (36.5, 27.5),
        (36.0, 29.0), (35.8, 32.0), (35.92, 35.5)]),
    ("albania", "Albania (Italian)", ["europe"], [(42.7, 19.0), (42.6, 19.8), (42.0, 20.6),
        (41.3, 20.6), (40.85, 20.98), (40.1, 20.6), (39.65, 20.0), (39.65, 19.0), (42.7, 18.5)]),
    ("yugoslavia", "Yugoslavia", ["europe"], [(42.7, 19.0), (42.6, 19.8), (42.0, 20.6),
        (41.3, 20.6), (40.85, 20.98), (41.0, 21.0), (41.15, 22.5), (41.35, 22.95), (42.7, 22.9)]),
    ("bulgaria", "Bulgaria", ["europe"], [(42.7, 22.9), (41.35, 22.95), (41.5, 24.0), (41.6, 25.0),
        (41.3, 26.0), (41.33, 26.6), (41.7, 26.35), (41.75, 26.4), (42.0, 27.5), (41.97, 28.0),
        (42.7, 28.2)]),
    ("greece", "Greece", ["europe"], [(39.65, 19.0), (40.1, 20.6), (40.85, 20.98), (41.0, 21.0),
        (41.15, 22.5), (41.35, 22.95), (41.5, 24.0), (41.6, 25.0), (41.3, 26.0), (41.33, 26.6),
        (40.73, 26.03), (39.8, 25.6), (37.0, 27.3), (35.5, 27.0), (34.5, 26.5), (34.5, 23.0),
        (36.0, 20.8), (38.5, 19.8)]),
    ("italy", "Italy", ["europe"], [(43, 7.8), (43, 18.8), (40.0, 19.0), (38.0, 17.3), (36.3, 15.5),
        (35.3, 12.3), (36.9, 11.65), (37.6, 11.6), (38.5, 8.2), (39.0, 7.8)]),
]
# fmt: on

#: every named place: (name, lat, lon, locality, port, production). Localities follow
#: rulebook 3.3 (capital, major, minor, fortress, bunker; battle_site = the historical
#: battle sites of its note, "no function at all"); ports follow 3.4.2 (major, minor).
#: Production: yellow (major cities, mining), red/blue factories, white shipyards, oil.
PLACES: list[tuple[str, float, float, str | None, str | None, dict[str, int]]] = [
    # Tunisia and eastern Algeria (Tripolitania Extension Map)
    ("Bizerte", 37.27, 9.87, "minor", "major", {"white": 1}),
    ("Tunis", 36.8, 10.18, "major", "major", {"yellow": 1}),
    ("Sousse", 35.83, 10.64, "minor", "minor", {}),
    ("Sfax", 34.74, 10.76, "minor", "minor", {}),
    ("Gafsa", 34.42, 8.78, "minor", None, {"yellow": 1}),
    ("Kasserine", 35.17, 8.83, "battle_site", None, {}),
    ("Tebessa", 35.4, 8.12, "minor", None, {}),
    ("Gabes", 33.88, 10.1, "minor", "minor", {}),
    ("Mareth Line", 33.5, 10.35, "bunker", None, {}),
    # Libya
    ("Zuara", 32.93, 12.08, "minor", "minor", {}),
    ("Tripoli", 32.89, 13.18, "major", "major", {"yellow": 1}),
    ("Garian", 32.17, 13.02, "minor", None, {}),
    ("Al Khums", 32.65, 14.26, "minor", "minor", {}),
    ("Misurata", 32.38, 15.09, "minor", "minor", {}),
    ("Sirte", 31.21, 16.59, "minor", "minor", {}),
    ("El Agheila", 30.27, 19.2, "battle_site", None, {}),
    ("Mersa Brega", 30.41, 19.58, "minor", "minor", {}),
    ("Agedabia", 30.76, 20.23, "minor", None, {}),
    ("Bengasi", 32.12, 20.07, "major", "major", {"yellow": 1}),
    ("Barce", 32.5, 20.83, "minor", None, {}),
    ("Msus", 31.6, 21.05, "battle_site", None, {}),
    ("Mechili", 32.1, 22.25, "battle_site", None, {}),
    ("Derna", 32.77, 22.64, "minor", "minor", {}),
    ("Gazala", 32.15, 23.35, "minor", None, {}),
    ("Bir Hackeim", 31.6, 23.48, "battle_site", None, {}),
    ("Tobruk", 32.08, 23.96, "fortress", "major", {}),
    ("Sidi Rezegh", 31.75, 24.3, "battle_site", None, {}),
    ("Bardia", 31.76, 25.08, "minor", "minor", {}),
    ("Giarabub", 29.74, 24.52, "minor", None, {}),
    ("Jalo", 29.03, 21.55, "minor", None, {}),
    # Egypt
    ("Sidi Barrani", 31.61, 25.93, "minor", None, {}),
    ("Siwa", 29.2, 25.52, "minor", None, {}),
    ("Mersa Matruh", 31.35, 27.24, "minor", "minor", {}),
    ("El Alamein", 30.83, 28.95, "battle_site", None, {}),
    ("Alam Halfa", 30.62, 29.15, "battle_site", None, {}),
    ("Alexandria", 31.2, 29.92, "major", "major", {"yellow": 1, "white": 1}),
    ("Cairo", 30.04, 31.24, "major", None, {"yellow": 2}),
    ("Port Said", 31.26, 32.3, "minor", "minor", {}),
    ("Ismailia", 30.6, 32.27, "minor", None, {}),
    ("Suez", 29.97, 32.55, "minor", "major", {}),
    ("El Arish", 31.13, 33.8, "minor", None, {}),
    ("Beni Suef", 29.07, 31.1, "minor", None, {}),
    # Palestine and Transjordan
    ("Gaza", 31.5, 34.47, "minor", None, {}),
    ("Jaffa", 32.05, 34.75, "minor", "minor", {}),
    ("Jerusalem", 31.78, 35.22, "major", None, {}),
    ("Haifa", 32.82, 34.99, "major", "major", {}),
    ("Amman", 31.95, 35.93, "minor", None, {}),
    ("Ma'an", 30.19, 35.73, "minor", None, {}),
    ("Aqaba", 29.53, 35.0, "minor", "minor", {}),
    ("H4", 32.5, 38.2, "minor", None, {}),
    # Syria and Lebanon
    ("Beirut", 33.89, 35.5, "capital", "major", {"yellow": 1}),
    ("Tripoli of Syria", 34.43, 35.83, "minor", "minor", {}),
    ("Damascus", 33.51, 36.29, "major", None, {"yellow": 1}),
    ("Deraa", 32.62, 36.1, "minor", None, {}),
    ("Homs", 34.73, 36.71, "minor", None, {}),
    ("Palmyra", 34.55, 38.27, "minor", None, {}),
    ("Latakia", 35.52, 35.78, "minor", "minor", {}),
    ("Aleppo", 36.2, 37.16, "major", None, {"yellow": 1}),
    ("Deir ez-Zor", 35.33, 40.14, "minor", None, {}),
    ("Merdjayoun", 33.36, 35.59, "battle_site", None, {}),
    # Iraq and Kuwait
    ("Rutbah", 33.04, 40.28, "minor", None, {}),
    ("Haditha", 34.13, 42.38, "minor", None, {}),
    ("Habbaniya", 33.37, 43.57, "minor", None, {}),
    ("Baghdad", 33.32, 44.42, "capital", None, {"yellow": 1}),
    ("Mosul", 36.34, 43.13, "major", None, {}),
    ("Kirkuk", 35.47, 44.39, "minor", None, {"oil": 2}),
    ("Kut", 32.5, 45.82, "minor", None, {}),
    ("Nasiriyah", 31.05, 46.26, "minor", None, {}),
    ("Basra", 30.5, 47.82, "major", "major", {}),
    ("Kuwait", 29.37, 47.98, "minor", "minor", {}),
    # Persia
    ("Abadan", 30.34, 48.3, "minor", "minor", {"oil": 3}),
    ("Bandar Shahpur", 30.43, 49.08, "minor", "minor", {}),
    ("Ahvaz", 31.32, 48.68, "minor", None, {}),
    ("Masjed Soleyman", 31.93, 49.3, None, None, {"oil": 2}),
    ("Bushehr", 28.97, 50.84, "minor", "minor", {}),
    ("Kermanshah", 34.31, 47.07, "minor", None, {}),
    ("Hamadan", 34.8, 48.51, "minor", None, {}),
    ("Qazvin", 36.27, 50.0, "minor", None, {}),
    ("Tehran", 35.69, 51.39, "capital", None, {"yellow": 1}),
    ("Tabriz", 38.08, 46.29, "major", None, {}),
    ("Bandar Pahlavi", 37.47, 49.46, "minor", "minor", {}),
    # Turkey
    ("Istanbul", 41.01, 28.97, "capital", "major", {"yellow": 2, "white": 1}),
    ("Edirne", 41.68, 26.56, "minor", None, {}),
    ("Kannakhale", 40.15, 26.41, "fortress", "minor", {}),
    ("Izmir", 38.42, 27.14, "major", "major", {"yellow": 1}),
    ("Bursa", 40.19, 29.06, "minor", None, {}),
    ("Eskisehir", 39.78, 30.52, "minor", None, {}),
    ("Ankara", 39.93, 32.86, "capital", None, {"yellow": 1}),
    ("Zonguldak", 41.45, 31.79, "minor", "minor", {"yellow": 1}),
    ("Konya", 37.87, 32.49, "minor", None, {}),
    ("Antalya", 36.88, 30.7, "minor", "minor", {}),
    ("Mersin", 36.8, 34.64, "minor", "minor", {}),
    ("Iskenderun", 36.59, 36.17, "minor", "minor", {}),
    ("Kayseri", 38.73, 35.48, "minor", None, {"blue": 1}),
    ("Samsun", 41.29, 36.33, "minor", "minor", {}),
    ("Sivas", 39.75, 37.02, "minor", None, {}),
    ("Malatya", 38.35, 38.31, "minor", None, {}),
    ("Diyarbakir", 37.91, 40.24, "minor", None, {}),
    ("Erzurum", 39.9, 41.27, "minor", None, {}),
    ("Trabzon", 41.0, 39.72, "minor", "minor", {}),
    ("Kars", 40.6, 43.1, "minor", None, {}),
    # Caucasus (Soviet)
    ("Batumi", 41.62, 41.62, "minor", "minor", {}),
    ("Tbilisi", 41.55, 44.8, "major", None, {}),
    ("Leninakan", 40.79, 43.85, "minor", None, {}),
    ("Yerevan", 40.18, 44.51, "minor", None, {}),
    ("Kirovabad", 40.68, 46.36, "minor", None, {}),
    ("Baku", 40.38, 49.87, "major", "major", {"oil": 3}),
    ("Lenkoran", 38.75, 48.85, "minor", None, {}),
    # Cyprus, Crete, Dodecanese, Malta
    ("Nicosia", 35.17, 33.36, "minor", "minor", {}),
    ("Heraklion", 35.34, 25.13, "minor", "minor", {}),
    ("Chania", 35.51, 24.02, "minor", "minor", {}),
    ("Rhodes", 36.43, 28.22, "minor", "minor", {}),
    ("Valletta", 35.9, 14.51, "minor", "major", {}),
    # Greece, Albania
    ("Athens", 37.98, 23.73, "major", "major", {"yellow": 1}),
    ("Patras", 38.25, 21.73, "minor", "minor", {}),
    ("Kalamata", 37.04, 22.11, "minor", "minor", {}),
    ("Larissa", 39.64, 22.42, "minor", None, {}),
    ("Ioannina", 39.66, 20.85, "minor", None, {}),
    ("Thessaloniki", 40.64, 22.94, "major", "major", {}),
    ("Metaxas Line", 41.35, 23.3, "bunker", None, {}),
    ("Kavala", 40.94, 24.41, "minor", "minor", {}),
    ("Alexandroupoli", 40.85, 25.87, "minor", "minor", {}),
    ("Durazzo", 41.32, 19.45, "minor", "minor", {}),
    ("Tirana", 41.33, 19.82, "minor", None, {}),
    ("Valona", 40.47, 19.49, "minor", "minor", {}),
    ("Korce", 40.62, 20.78, "minor", None, {}),
    # Southern Italy, Sicily, Sardinia
    ("Naples", 40.85, 14.27, "major", "major", {"yellow": 1, "blue": 1, "white": 1}),
    ("Foggia", 41.46, 15.55, "minor", None, {}),
    ("Bari", 41.12, 16.87, "major", "minor", {}),
    ("Brindisi", 40.64, 17.94, "minor", "minor", {}),
    ("Taranto", 40.47, 17.24, "major", "major", {"white": 1}),
    ("Potenza", 40.64, 15.8, "minor", None, {}),
    ("Cosenza", 39.3, 16.25, "minor", None, {}),
    ("Reggio Calabria", 38.11, 15.65, "minor", "minor", {}),
    ("Messina", 38.19, 15.55, "minor", "minor", {}),
    ("Palermo", 38.12, 13.36, "major", "major", {"yellow": 1, "white": 1}),
    ("Trapani", 38.02, 12.51, "minor", "minor", {}),
    ("Catania", 37.5, 15.09, "minor", "minor", {}),
    ("Syracuse", 37.08, 15.29, "minor", "minor", {}),
    ("Cagliari", 39.22, 9.11, "major", "major", {}),
    ("Sassari", 40.73, 8.56, "minor", None, {}),
    ("Pantelleria", 36.83, 11.94, "minor", "minor", {}),
]

#: places moved off their projected hex, each with the rulebook fact that needs it
FORCED: dict[str, tuple[str, str]] = {
    # Gazala and Tobruk are 60 km apart; Tobruk takes the next hex east
    "Tobruk": ("E of Gazala", "L1751-1756: Tobruk and Gazala are distinct localities"),
    # L2007-2009: the DAK moves its 4 MP from Bengasi to Bir Hackeim
    "Bir Hackeim": (
        "SW of Gazala",
        "L2007-2009 and L2211-2249: 4 MP from Bengasi, blitz from Gazala",
    ),
}

VICTORY_CITIES = {"Baku"}  # rulebook 3.3 example: the BIE victory city icon

#: the hexside nothing crosses (rulebook 7.5.2 example): between Alam Halfa's W and SW
#: neighbours; more yellow border follows the Qattara escarpment westward
YELLOW_BORDER: list[LatLon] = [(30.45, 28.85), (30.35, 28.3), (30.3, 27.6)]

Waypoint = str | LatLon

#: standard-gauge and metre-gauge lines open in 1940-43 (SRM and 3-hex supply, 3.9, 7.4)
# fmt: off
RAILWAYS: dict[str, list[Waypoint]] = {
    "Tunis-Algeria": ["Tunis", (36.6, 9.5), (36.5, 8.8), "Tebessa"],
    "Tunis-Bizerte": ["Tunis", "Bizerte"],
    "Tunisian coast": ["Tunis", "Sousse", "Sfax", (34.3, 10.2), "Gabes"],
    "Sousse-Kairouan": ["Sousse", (35.68, 10.1)],
    "Sfax-Gafsa": ["Sfax", "Gafsa", "Tebessa"],
    "Tripoli lines": ["Zuara", "Tripoli", "Garian"],
    "Bengasi-Barce": ["Bengasi", "Barce"],
    "Western Desert Railway": ["Alexandria", "El Alamein", "Mersa Matruh"],
    "Alexandria-Cairo": ["Alexandria", (30.8, 30.9), "Cairo"],
    "Upper Nile": ["Cairo", "Beni Suef"],
    "Cairo-Ismailia": ["Cairo", "Ismailia", "Port Said"],
    "Cairo-Suez": ["Cairo", "Suez", "Ismailia"],
    "Palestine Railways": ["Ismailia", "El Arish", "Gaza", "Jaffa", "Haifa"],
    "Haifa-Beirut-Tripoli": ["Haifa", "Beirut", "Tripoli of Syria", "Homs"],
    "Jezreel Valley": ["Haifa", "Deraa"],
    "Hejaz Railway": ["Damascus", "Deraa", "Amman", "Ma'an"],
    "Beirut-Damascus": ["Beirut", "Damascus"],
    "Rayak-Aleppo": ["Damascus", "Homs", (35.13, 36.75), "Aleppo"],
    "Baghdad Railway": ["Istanbul", (40.76, 29.9), "Eskisehir", (38.76, 30.54), "Konya",
        (37.3, 34.0), (37.0, 35.32), (36.9, 36.6), "Aleppo", (36.7, 38.9), (37.05, 41.2), "Mosul",
        (34.9, 43.5), "Baghdad", "Kut", "Nasiriyah", "Basra"],
    "Adana-Mersin": [(37.0, 35.32), "Mersin"],
    "Toprakkale-Iskenderun": [(36.9, 36.4), "Iskenderun"],
    "Baghdad-Kirkuk": ["Baghdad", "Kirkuk"],
    "Anatolian Railway": ["Eskisehir", "Ankara", "Kayseri", "Sivas", "Erzurum", "Kars", "Leninakan",
        "Tbilisi"],
    "Izmir lines": ["Izmir", (38.76, 30.54)],
    "Ankara-Zonguldak": ["Ankara", (40.6, 32.6), "Zonguldak"],
    "Sivas-Samsun": ["Sivas", "Samsun"],
    "Sivas-Diyarbakir": ["Sivas", "Malatya", "Diyarbakir"],
    "Transcaucasian": ["Batumi", "Tbilisi", "Kirovabad", "Baku"],
    "Leninakan-Julfa": ["Leninakan", "Yerevan", (38.95, 45.63), "Tabriz"],
    "Trans-Iranian": [(36.6, 53.0), (36.3, 52.5), "Tehran", (34.64, 50.88), (33.5, 49.0), "Ahvaz",
        "Bandar Shahpur"],
    "Ahvaz-Khorramshahr": ["Ahvaz", "Abadan"],
    "Orient line": ["Istanbul", "Edirne", (41.75, 26.2)],
    "Edirne-Alexandroupoli": ["Edirne", "Alexandroupoli", "Kavala", "Thessaloniki"],
    "Greek State Railways": [(41.6, 22.45), "Thessaloniki", "Larissa", "Athens", (37.94, 22.93),
        "Patras"],
    "Italian Adriatic": [(41.6, 15.2), "Foggia", "Bari", "Brindisi", (40.35, 18.17)],
    "Bari-Taranto": ["Bari", "Taranto"],
    "Naples-Reggio": [(41.55, 13.9), "Naples", (40.68, 14.77), (40.0, 15.6), "Cosenza",
        "Reggio Calabria"],
    "Naples-Foggia": ["Naples", (41.1, 14.8), "Foggia"],
    "Ionian line": ["Taranto", (39.6, 16.6), (38.9, 16.6), "Reggio Calabria"],
    "Sicilian lines": ["Messina", "Palermo", "Trapani"],
    "Messina-Syracuse": ["Messina", "Catania", "Syracuse"],
    "Catania-Palermo": ["Catania", (37.56, 14.28), "Palermo"],
    "Sardinian line": ["Cagliari", "Sassari"],
}
# fmt: on

#: roads (2-hex supply, no SRM, 3.9)
# fmt: off
ROADS: dict[str, list[Waypoint]] = {
    "Via Balbia": ["Gabes", (33.35, 10.5), (33.15, 11.2), "Zuara", "Tripoli", "Al Khums",
        "Misurata", "Sirte", "El Agheila", "Mersa Brega", "Agedabia", "Bengasi", "Barce", "Derna",
        "Gazala", "Tobruk", "Bardia"],
    "Egyptian coast road": ["Bardia", "Sidi Barrani", "Mersa Matruh", "El Alamein", "Alexandria"],
    "Desert road": ["Alexandria", "Cairo"],
    "Tunisian roads": ["Tunis", (35.68, 10.1), "Kasserine", "Tebessa"],
    "Gafsa-Gabes": ["Gafsa", (34.3, 9.6), "Gabes"],
    "Trigh el Abd": ["Tobruk", "Bir Hackeim", "Mechili", "Msus", "Agedabia"],
    "Giarabub track": ["Bardia", "Giarabub", "Siwa", "Mersa Matruh"],
    "Sinai roads": ["Ismailia", (30.6, 33.6), (30.8, 34.3), "Gaza"],
    "Suez-Aqaba": ["Suez", (29.9, 33.75), "Aqaba"],
    "Aqaba-Amman": ["Aqaba", "Ma'an", "Amman"],
    "Haifa-Baghdad": ["Haifa", "Deraa", (32.35, 36.9), "H4", "Rutbah", "Habbaniya", "Baghdad"],
    "Damascus-Palmyra": ["Damascus", "Palmyra", "Deir ez-Zor", (34.45, 40.92), "Haditha",
        "Habbaniya"],
    "Jerusalem roads": ["Jaffa", "Jerusalem", "Amman"],
    "Basra-Kuwait": ["Basra", "Kuwait"],
    "Persian corridor": ["Baghdad", (34.0, 45.5), "Kermanshah", "Hamadan", "Qazvin", "Tehran"],
    "Tabriz road": ["Tabriz", (37.2, 47.5), "Qazvin", "Bandar Pahlavi"],
    "Mosul-Kirkuk": ["Mosul", "Kirkuk"],
    "Ahvaz-Kermanshah": ["Ahvaz", (32.4, 48.4), (33.5, 47.8), "Kermanshah"],
    "Bushehr road": ["Bushehr", (30.0, 50.3), "Bandar Shahpur"],
    "Anatolian roads": ["Ankara", "Konya", "Antalya"],
    "Erzurum-Trabzon": ["Erzurum", "Trabzon"],
    "Diyarbakir-Aleppo": ["Diyarbakir", (37.1, 38.8), "Aleppo"],
    "Kannakhale road": ["Kannakhale", "Izmir"],
    "Greek roads": ["Ioannina", "Larissa"],
    "Albanian roads": ["Durazzo", "Tirana", "Korce", (40.6, 21.4), "Thessaloniki"],
    "Valona road": ["Valona", "Durazzo"],
}
# fmt: on

#: red arrows (7.5.3): crossings of straits between land hexes, and links to off-map boxes
STRAITS: list[tuple[str, Waypoint, Waypoint]] = [
    ("Strait of Messina", "Messina", "Reggio Calabria"),
    ("Dardanelles", (40.3, 26.45), "Kannakhale"),
    ("Bosphorus", "Istanbul", (40.95, 29.4)),
]
OFFMAP_LINKS: list[tuple[str, str, Waypoint]] = [
    ("Rome", "rome", (41.55, 13.9)),
    ("Berlin by the Vardar", "berlin", (41.6, 22.45)),
    ("Berlin by the Orient line", "berlin", (41.75, 26.2)),
]


# --------------------------------------------------------------------------------------
# Building the map
# --------------------------------------------------------------------------------------
# fmt: on


def is_land_point(lat: float, lon: float) -> bool:
    if not any(inside(lat, lon, poly) for poly in LAND.values()):
        return False
    return not any(inside(lat, lon, poly) for _b, _n, poly in WATER)


def share_of_land(h: str) -> float:
    pts = samples(h)
    return sum(is_land_point(*p) for p in pts) / len(pts)


def place_hexes(errors: list[str]) -> dict[str, str]:
    """Place name -> hex, after the forced moves; two places may not share a hex."""
    where = {name: hex_at(lat, lon) for name, lat, lon, *_ in PLACES}
    for name, (rule, _why) in FORCED.items():
        direction, _of, anchor = rule.split(" ", 2)
        where[name] = neighbour(where[anchor], direction)
    seen: dict[str, str] = {}
    for name, h in where.items():
        if not on_map(h):
            errors.append(f"{name} falls off the map at {h}")
        elif h in seen:
            errors.append(f"{name} and {seen[h]} fall in the same hex {h}")
        seen[h] = name
    return where


def waypoint_hex(w: Waypoint, where: dict[str, str]) -> LatLon:
    if isinstance(w, str):
        c, r = parse(where[w])
        return to_latlon(*centre(c, r))
    return w


def build_map() -> tuple[dict, list[str]]:
    errors: list[str] = []
    where = place_hexes(errors)
    place_at = {h: name for name, h in where.items()}
    info = {p[0]: p for p in PLACES}
    land: dict[str, bool] = {}
    for h in all_hexes():
        land[h] = share_of_land(h) >= 0.5 or h in place_at
    # a hex a rail or road runs through is land if any real share of it is (a coast road)
    for spec in (*RAILWAYS.values(), *ROADS.values()):
        for h in chain([waypoint_hex(w, where) for w in spec]):
            if not land[h] and share_of_land(h) > 0:
                land[h] = True
    for (lat, lon), _body in FORCED_SEA:
        h = hex_at(lat, lon)
        if h not in place_at:
            land[h] = False
    hexes: dict[str, dict] = {}
    for h in all_hexes():
        c, r = parse(h)
        lat, lon = to_latlon(*centre(c, r))
        rec: dict = {"id": h}
        if not land[h]:
            rec["terrain"] = "sea"
            forced = [b for (p, b) in FORCED_SEA if hex_at(*p) == h]
            rec["body"] = forced[0] if forced else body_of(lat, lon)
        else:
            rec["terrain"] = land_terrain(h, lat, lon, h in place_at)
            country = next((cid for cid, _n, _r, poly in COUNTRIES if inside(lat, lon, poly)), None)
            if country is None:
                country = next(
                    (
                        cid
                        for p in samples(h)
                        for cid, _n, _r, poly in COUNTRIES
                        if inside(*p, poly)
                    ),
                    None,
                )
            if country is None:
                errors.append(f"hex {h} ({lat:.2f}N {lon:.2f}E) lies in no country")
            rec["country"] = country
        if is_partial(h):
            rec["partial"] = True
            rec["playable"] = False
        hexes[h] = rec
    for h, rec in hexes.items():
        if rec["terrain"] != "sea" and any(hexes[n]["terrain"] == "sea" for n in neighbours(h)):
            rec["coastal"] = True
    for name, h in where.items():
        if not on_map(h):
            continue
        _n, lat, lon, locality, port, production = info[name]
        rec = hexes[h]
        rec["name"] = name
        # a named place's hex belongs to the place's own country, where the hex's centre
        # may fall across a border (Bardia in Libya, Korce in Albania, the Metaxas Line
        # in Greece)
        rec["country"] = next(
            (cid for cid, _n, _r, poly in COUNTRIES if inside(lat, lon, poly)), rec["country"]
        )
        if locality:
            rec["locality"] = locality
        if name in VICTORY_CITIES:
            rec["victory_city"] = True
        if port:
            rec["port"] = port
            bodies = sorted(
                {hexes[n]["body"] for n in neighbours(h) if hexes[n]["terrain"] == "sea"}
            )
            if not bodies:
                errors.append(f"port {name} ({h}) touches no sea hex")
            rec["bodies"] = bodies
        if production:
            rec["production"] = dict(sorted(production.items()))
        if rec.get("partial") and name == "Tehran":
            rec["playable"] = True  # rulebook 7.5.2: the only playable partial hex
    sides: dict[tuple[str, str], set[str]] = {}

    def add_side(a: str, b: str, feature: str) -> None:
        key = (a, b) if a < b else (b, a)
        if hexes[a]["terrain"] == "sea" or hexes[b]["terrain"] == "sea":
            return
        sides.setdefault(key, set()).add(feature)

    for line in RIVERS.values():
        for a, b in crossed_sides(line):
            add_side(a, b, "river")
    alam = where["Alam Halfa"]
    yellow = crossed_sides(YELLOW_BORDER) | {(neighbour(alam, "W"), neighbour(alam, "SW"))}
    for a, b in yellow:
        if hexes[a]["terrain"] != "impassable" and hexes[b]["terrain"] != "impassable":
            add_side(a, b, "yellow_border")
    links = []
    strait_sides = set()
    for name, a_w, b_w in STRAITS:
        a, b = hex_at(*waypoint_hex(a_w, where)), hex_at(*waypoint_hex(b_w, where))
        links.append({"name": name, "kind": "strait", "between": sorted([a, b])})
        strait_sides.add(tuple(sorted([a, b])))
    for name, box, w in OFFMAP_LINKS:
        links.append(
            {
                "name": name,
                "kind": "offmap",
                "between": [hex_at(*waypoint_hex(w, where)), f"box:{box}"],
            }
        )
    linked = {
        (a, b) if a < b else (b, a)
        for spec in (*RAILWAYS.values(), *ROADS.values())
        for a, b in zip(
            dry_chain(chain([waypoint_hex(w, where) for w in spec]), land),
            dry_chain(chain([waypoint_hex(w, where) for w in spec]), land)[1:],
            strict=False,
        )
    }
    for h in all_hexes():
        for n in neighbours(h):
            if (
                h < n
                and hexes[h]["terrain"] != "sea"
                and hexes[n]["terrain"] != "sea"
                and (h, n) not in strait_sides
            ):
                a_x, a_y = centre(*parse(h))
                b_x, b_y = centre(*parse(n))
                # water all across the middle of the crossing between two true land hexes
                # (not coast strips a road or town made land): a channel, not a coast
                if (h, n) in linked or min(share_of_land(h), share_of_land(n)) < 0.5:
                    continue
                if not any(
                    is_land_point(*to_latlon(a_x + (b_x - a_x) * t, a_y + (b_y - a_y) * t))
                    for t in (0.3, 0.5, 0.7)
                ):
                    add_side(h, n, "deep_water")

    def dry(spec: list[Waypoint]) -> list[str]:
        return dry_chain(chain([waypoint_hex(w, where) for w in spec]), land)

    def playable(h: str) -> bool:
        return hexes[h]["terrain"] not in ("sea", "impassable") and hexes[h].get("playable", True)

    def trimmed(line: list[str]) -> list[str]:
        """A line leaving the map through the frame stops at the last playable hex."""
        while line and not playable(line[0]):
            line = line[1:]
        while line and not playable(line[-1]):
            line = line[:-1]
        return line

    rails = [{"name": k, "hexes": trimmed(dry(v))} for k, v in RAILWAYS.items()]
    roads = [{"name": k, "hexes": trimmed(dry(v))} for k, v in ROADS.items()]
    for line in rails + roads:
        wet = [h for h in line["hexes"] if hexes[h]["terrain"] == "sea"]
        if wet:
            errors.append(f"{line['name']} runs through sea hexes {wet}")
    pack = {
        "header": header(
            "map", "The hex map: terrain, countries, localities, ports, rivers, rail, roads"
        ),
        "grid": {
            "orientation": "pointy",
            "shifted_rows": "odd",
            "id": "CCRR",
            "first_col": FIRST_COL,
            "last_col": LAST_COL,
            "first_row": FIRST_ROW,
            "last_row": LAST_ROW,
            "hex_km": HEX_KM,
            "projection": {
                "kind": "equirectangular",
                "standard_parallel": 35.0,
                "lon_of_col_0": LON_WEST,
                "lat_of_row_0": LAT_NORTH,
            },
            "sheets": {
                "tripolitania_extension": [FIRST_COL, EXTENSION_LAST_COL],
                "mapboard": [EXTENSION_LAST_COL + 1, LAST_COL],
            },
        },
        "countries": {
            cid: {"name": name, "regions": regions} for cid, name, regions, _p in COUNTRIES
        },
        "bodies_of_water": BODIES,
        "hexes": [hexes[h] for h in all_hexes()],
        "hexsides": [{"between": list(k), "features": sorted(v)} for k, v in sorted(sides.items())],
        "rails": rails,
        "roads": roads,
        "links": links,
    }
    return pack, errors


def dry_chain(hexes: list[str], land: dict[str, bool]) -> list[str]:
    """A rail or road chain kept on land: a sea hex between two land hexes is replaced by
    a land hex next to both, or dropped when they already touch."""
    out = list(hexes)
    i = 1
    while i < len(out) - 1:
        if not land[out[i]] and land[out[i - 1]] and land[out[i + 1]]:
            a, b = out[i - 1], out[i + 1]
            if b in neighbours(a) or a == b:
                del out[i]
                continue
            detour = sorted(n for n in set(neighbours(a)) & set(neighbours(b)) if land[n])
            if detour:
                out[i] = detour[0]
        i += 1
    dedup = [h for k, h in enumerate(out) if k == 0 or out[k - 1] != h]
    return dedup


def land_terrain(h: str, lat: float, lon: float, is_place: bool) -> str:
    pts = samples(h)
    for poly in IMPASSABLE.values():
        if not is_place and sum(inside(*p, poly) for p in pts) / len(pts) >= 0.4:
            return "impassable"
    for _name, terrain, width, line in BANDS:
        if km_to_polyline(lat, lon, line) <= width:
            # a locality is never mountain: armour must be able to take it (6.2)
            return "hills" if terrain == "mountain" and is_place else terrain
    return "clear"


def header(name: str, description: str, extra_sources: list[str] | None = None) -> dict:
    return {
        "game": "bia",
        "name": name,
        "version": VERSION,
        "provenance": "reconstruction",
        "description": description,
        "sources": [SOURCES_RULEBOOK, SOURCES_DIGEST, *(extra_sources or [])],
    }


def show(pack: dict) -> str:
    """An ASCII picture: ~ sea, . clear, ^ mountain, n hills, f forest, s swamp, x impassable,
    letters for localities (C capital, M major, m minor, F fortress, B bunker, b battle site)."""
    glyph = {
        "sea": "~",
        "clear": ".",
        "mountain": "^",
        "hills": "n",
        "forest": "f",
        "swamp": "s",
        "impassable": "x",
    }
    loc = {
        "capital": "C",
        "major": "M",
        "minor": "m",
        "fortress": "F",
        "bunker": "B",
        "battle_site": "b",
    }
    rows = []
    by_id = {h["id"]: h for h in pack["hexes"]}
    for r in range(FIRST_ROW, LAST_ROW + 1):
        line = " " if r & 1 else ""
        for c in range(FIRST_COL, LAST_COL + 1):
            h = by_id[hex_id(c, r)]
            line += (loc.get(h.get("locality", ""), "") or glyph[h["terrain"]]) + " "
        rows.append(f"{r:02d} {line}")
    return "\n".join(rows)


def dumps(pack: dict) -> str:
    """JSON with one hex, hexside, rail, road, link, block or set-up line per line, so a
    problem found in a transcribed pack is reported on a line that means something."""
    return _fmt(pack, 0) + "\n"


def _nested(value: object) -> bool:
    if isinstance(value, list):
        return any(isinstance(v, dict) for v in value)
    if isinstance(value, dict):
        return any(_nested(v) or isinstance(v, dict) for v in value.values())
    return False


def _fmt(value: object, depth: int) -> str:
    pad = "  " * (depth + 1)
    if depth > 0 and len(json.dumps(value, ensure_ascii=False)) <= 320:
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, dict) and (depth == 0 or _nested(value)):
        items = [f"{pad}{json.dumps(k)}: {_fmt(v, depth + 1)}" for k, v in value.items()]
        return "{\n" + ",\n".join(items) + "\n" + "  " * depth + "}"
    if isinstance(value, list) and _nested(value):
        items = [f"{pad}{_fmt(v, depth + 1)}" for v in value]
        return "[\n" + ",\n".join(items) + "\n" + "  " * depth + "]"
    return json.dumps(value, ensure_ascii=False)


def build() -> tuple[dict[str, dict], list[str]]:
    """Every file of the pack, and the rulebook constraints the build breaks (none when
    the tables are right)."""
    errors: list[str] = []
    files: dict[str, dict] = {}
    files["map"], map_errors = build_map()
    errors += map_errors
    for name, maker in EXTRA_FILES:
        files[name] = maker()
    return files, errors


EXTRA_FILES: list = []


def main(argv: list[str]) -> int:
    files, errors = build()
    if errors:
        print("\n".join(errors), file=sys.stderr)
        return 1
    OUT.mkdir(parents=True, exist_ok=True)
    for name, pack in files.items():
        (OUT / f"{name}.json").write_text(dumps(pack), encoding="utf-8")
    if "--show" in argv:
        print(show(files["map"]))
    return 0


# --------------------------------------------------------------------------------------
# The Strategic Map (rulebook BIA abstraction 1-2; 4.1; 7.3 special arrival)
# --------------------------------------------------------------------------------------


def build_strategic() -> dict:
    boxes = {
        "rome": {"name": "Rome (Italy)", "kind": "home", "power": "italy", "capital": True},
        "berlin": {"name": "Berlin (Germany)", "kind": "home", "power": "germany", "capital": True},
        "london": {
            "name": "London (United Kingdom)",
            "kind": "home",
            "power": "uk",
            "capital": True,
        },
        "atlantic": {"name": "Atlantic Ocean", "kind": "sea", "body": "atlantic"},
        "south_africa": {"name": "South Africa", "kind": "staging", "power": "uk"},
    }
    links = [
        {"between": ["box:berlin", "box:rome"], "kind": "rail"},
        {"between": ["box:london", "box:atlantic"], "kind": "sea", "mdr": True},
        {"between": ["box:atlantic", "box:south_africa"], "kind": "sea", "mdr": True},
        *(
            {
                "between": ["box:south_africa", f"port:{p}"],
                "kind": "sea",
                "body": "indian_ocean",
                "mdr": False,
            }
            for p in INDIAN_OCEAN_PORTS
        ),
    ]
    return {
        "header": header(
            "strategic", "The Strategic Map: home boxes, the Atlantic, South Africa, convoy boxes"
        ),
        "boxes": boxes,
        "links": links,
        "indian_ocean_ports": list(INDIAN_OCEAN_PORTS),
        "off_map_bodies": {"atlantic": "Atlantic Ocean"},
        "convoy_boxes": {
            "western_med": {"name": "Western Mediterranean", "body": "mediterranean"},
            "central_med": {"name": "Central Mediterranean", "body": "mediterranean"},
            "eastern_med": {"name": "Eastern Mediterranean", "body": "mediterranean"},
            "indian_ocean": {"name": "Indian Ocean", "body": "indian_ocean"},
        },
        "dieppe_raid_turn": 36,
    }


#: rulebook 3.7 and 7.3: the four Indian Ocean ports (British arrivals, Wilson Force rebuilds)
INDIAN_OCEAN_PORTS = ("Aqaba", "Suez", "Basra", "Abadan")
EXTRA_FILES.append(("strategic", build_strategic))


# --------------------------------------------------------------------------------------
# Units (rulebook 1.2, 3.6-3.8, 6.0; the Order of Battle sheets are absent)
# --------------------------------------------------------------------------------------

#: block colour of each power (rulebook 1.2)
POWERS = {
    "germany": {"name": "Germany", "side": "axis", "major": True, "block": "black"},
    "italy": {"name": "Italy", "side": "axis", "major": True, "block": "light green"},
    "vichy": {"name": "Vichy France", "side": "axis", "major": False, "block": "light blue"},
    "persia": {
        "name": "Persia",
        "side": "axis",
        "major": False,
        "block": "brown",
        "capital": "Tehran",
    },
    "iraq": {
        "name": "Iraq",
        "side": "axis",
        "major": False,
        "block": "brown",
        "capital": "Baghdad",
    },
    "uk": {
        "name": "United Kingdom and Commonwealth",
        "side": "allied",
        "major": True,
        "block": "blue",
    },
    "free_france": {"name": "Free France", "side": "allied", "major": False, "block": "light blue"},
    "usa": {"name": "United States", "side": "allied", "major": True, "block": "dark green"},
    "turkey": {
        "name": "Turkey",
        "side": "neutral",
        "major": False,
        "block": "brown",
        "capitals": ["Istanbul", "Ankara"],
    },
}
POWERS["vichy"]["capitals_by_territory"] = {"levant": "Beirut", "tunisia": "Tunis"}

EDGE = {"k": "black", "w": "white", "r": "red", "b": "blue", "g": "green"}

# fmt: off
#: (id, name, power, kind, track, flags); track: value + edge colour, weakest edge first
#: (k black, w white, r red, b blue, g green); flags below
UNITS: list[tuple[str, str, str, str, str, str]] = [
    # Germany: black blocks; the tan-background elites (9.0) are Rommel, DAK and LA
    ("de_dak", "Deutsches Afrikakorps (DAK)", "germany", "tank", "1r 3r 5r", "elite tropical"),
    ("de_la", "Leichte Afrika Division (LA)", "germany", "motorized", "1w 2k 3k 4w", "elite tropical"),
    ("de_164", "164th Light Division", "germany", "infantry", "1k 2k 3k", "tropical"),
    ("de_ramcke", "Ramcke Parachute Brigade", "germany", "para", "1w 2w", "tropical"),
    ("de_5pzarmee", "5th Panzer Army", "germany", "tank", "1r 2r 3r 4r", ""),
    ("de_rommel", "Rommel", "germany", "armored_hq", "1k 2k 3k 4k", "elite tropical"),
    ("de_stuka", "Tropicalized Stuka", "germany", "bomber", "1w 2w 3w 4w", "tropical"),
    ("de_jg27", "JG 27", "germany", "fighter", "1w 2w 3w 4w", "tropical"),
    ("de_xfk", "X Fliegerkorps", "germany", "bomber", "1w 2w 3w 4w", ""),
    ("de_flfirak", "Fliegerfuehrer Irak", "germany", "fighter", "1w 2w", "tropical"),
    # Italy: light green blocks
    ("it_ariete", "Ariete Armoured Division", "italy", "tank", "1r 2r 3r", "tropical"),
    ("it_littorio", "Littorio Armoured Division", "italy", "tank", "1r 2r 3r", "tropical"),
    ("it_maletti", "Raggruppamento Maletti", "italy", "tankette", "1r 2r", "tropical"),
    ("it_20mot", "20th Motorized Corps", "italy", "motorized", "1w 2k 3k 4w", "tropical italian_mot"),
    ("it_10c", "10th Corps", "italy", "infantry", "1k 2k 3k", "tropical"),
    ("it_21c", "21st Corps", "italy", "infantry", "1k 2k 3k", "tropical"),
    ("it_23c", "23rd Corps", "italy", "infantry", "1k 2k 3k", "tropical"),
    ("it_libyan", "Libyan Divisions", "italy", "infantry", "1k 2k 3k", "tropical"),
    ("it_folgore", "Folgore Parachute Division", "italy", "para", "0w 3w", "elite_defence"),
    ("it_art", "Italian Army Artillery", "italy", "artillery", "0r 1k 2w", "tropical"),
    ("it_static_tripoli", "Tripoli Garrison", "italy", "static", "0k 1k 2k", "resident"),
    ("it_static_bengasi", "Bengasi Garrison", "italy", "static", "0k 1k 2k", "resident"),
    ("it_static_tobruk", "Tobruk Garrison", "italy", "static", "0k 1k 2k", "resident"),
    ("it_rex", "Rex", "italy", "bomber", "1w 2w 3w", "tropical"),
    ("it_sm79", "Sparviero", "italy", "bomber", "1w 2w 3w", "tropical"),
    ("it_macchi", "Macchi", "italy", "fighter", "1w 2w 3w", "tropical"),
    ("it_5sa", "5th Squadra Aerea", "italy", "air_hq", "1k 2k 3k 4k", "tropical"),
    # United Kingdom and Commonwealth: blue blocks
    ("uk_7armd", "7th Armoured Division (Desert Rats)", "uk", "tank", "0r 3r", "elite tropical"),
    ("uk_1armd", "1st Armoured Division", "uk", "tank", "1r 2r 3r 4r", "tropical"),
    ("uk_7rtr", "7th Royal Tank Regiment", "uk", "tankette", "1r 2r", "tropical"),
    ("uk_xiii", "XIII Corps", "uk", "infantry", "1k 2k 3k 4k", "tropical"),
    ("uk_xxx", "XXX Corps", "uk", "infantry", "1k 2k 3k 4k", "tropical"),
    ("uk_6aus", "6th Australian Division", "uk", "infantry", "1k 2k 3k", "tropical"),
    ("uk_7aus", "7th Australian Division", "uk", "infantry", "1k 2k 3k", "tropical"),
    ("uk_9aus", "9th Australian Division", "uk", "infantry", "1k 2k 3k", "tropical"),
    ("uk_2nz", "2nd New Zealand Division", "uk", "infantry", "1k 2k 3k", "tropical"),
    ("uk_4ind", "4th Indian Division", "uk", "infantry", "1k 2k 3k", "tropical"),
    ("uk_21ind", "21st Indian Motorized Infantry", "uk", "motorized", "1w 2k 3k 4w", "resident"),
    ("uk_sa_garrison", "South African Garrison", "uk", "static", "0k 2w", "resident"),
    ("uk_8art", "8th Army Artillery", "uk", "artillery", "0r 1k 3w 5w", "tropical"),
    ("uk_13marine", "13th Marine Infantry", "uk", "marines", "1w 2w 3w 4w 5w", ""),
    ("uk_habforce", "Habforce", "uk", "motorized", "1w 2k 3k 4w", "resident wilson"),
    ("uk_1cav", "1st Cavalry Division", "uk", "cavalry", "1k 2k 3k", "resident wilson"),
    ("uk_6div", "6th Infantry Division", "uk", "infantry", "1k 2k 3k", "resident wilson"),
    ("uk_10ind", "10th Indian Division", "uk", "infantry", "1k 2k 3k", "resident wilson"),
    ("uk_daf", "Desert Air Force", "uk", "fighter", "1w 3w 5w", "tropical"),
    ("uk_aasf", "AASF Bombers", "uk", "bomber", "1w 2w 3w 4w", "tropical"),
    ("uk_meac", "Middle East Air Command", "uk", "strategic_air_hq", "1k 2k 3k", "tropical"),
    ("uk_monty", "Montgomery", "uk", "armored_hq", "1k 2k 3k 4k", "tropical"),
    # Free France (counts as British, 3.5); Vichy France (blue cadre, territory flags)
    ("ff_brigade", "Free French Brigade", "free_france", "infantry", "1k 2k", "resident"),
    ("vf_morocco_1", "Moroccan Division", "vichy", "infantry", "1b 2k 3k", "resident territory:morocco"),
    ("vf_morocco_2", "Moroccan Spahis", "vichy", "cavalry", "1b 2k", "resident territory:morocco"),
    ("vf_morocco_3", "Casablanca Division", "vichy", "infantry", "1b 2k 3k", "resident territory:morocco"),
    ("vf_algeria_1", "Algiers Division", "vichy", "infantry", "1b 2k 3k", "resident territory:algeria"),
    ("vf_algeria_2", "Constantine Division", "vichy", "infantry", "1b 2k 3k", "resident territory:algeria"),
    ("vf_tunisia_1", "Tunisian Division", "vichy", "infantry", "1b 2k 3k", "resident territory:tunisia"),
    ("vf_tunisia_2", "Tunisian Light Mechanized Group", "vichy", "tankette", "1b 2r", "resident territory:tunisia"),
    ("vf_levant_1", "Armee du Levant", "vichy", "infantry", "1b 2k 3k 4k", "resident territory:levant"),
    ("vf_levant_2", "Levant Air Group", "vichy", "fighter", "1b 2w 3w", "resident territory:levant"),
    # Axis minor allies and Turkey: brown blocks
    ("ir_army", "Iraqi Army", "iraq", "infantry", "1b 2k 3k", "resident"),
    ("pe_rp", "Reza Pahlavi (RP)", "persia", "minor_shq", "1r 2k 3k", "resident"),
    ("tr_leader", "Turkish Leader", "turkey", "minor_shq", "1r 2k 3k", "resident"),
    ("tr_2c", "2nd Infantry Corps", "turkey", "infantry", "1k 2k 3k", "resident"),
    ("tr_1c", "1st Infantry Corps", "turkey", "infantry", "1b 2k 3k", "resident"),
    ("tr_3c", "3rd Infantry Corps", "turkey", "infantry", "1b 2k 3k", "resident"),
    ("tr_4c", "4th Infantry Corps", "turkey", "infantry", "1b 2k 3k", "resident"),
    ("tr_5c", "5th Infantry Corps", "turkey", "infantry", "1b 2k 3k", "resident"),
    ("tr_6c", "6th Infantry Corps", "turkey", "infantry", "1b 2k 3k", "resident"),
    ("tr_7c", "7th Infantry Corps", "turkey", "infantry", "1b 2k 3k", "resident"),
    ("tr_8c", "8th Infantry Corps", "turkey", "infantry", "1b 2k 3k", "resident"),
    ("tr_9c", "9th Infantry Corps", "turkey", "infantry", "1b 2k 3k", "resident"),
    ("tr_cav", "Turkish Cavalry Corps", "turkey", "cavalry", "1b 2k", "resident"),
    ("tr_mtn", "Turkish Mountain Corps", "turkey", "mountain", "1b 2k 3k", "resident"),
    ("tr_air", "Turkish Air Force", "turkey", "fighter", "1b 2w", "resident"),
    # Navies (17.0): Axis grey, Western Allies white; hull and deck of a carrier are green
    ("itn_cesare", "Giulio Cesare", "italy", "bb", "1k 2k", "navy"),
    ("itn_cavour", "Conte di Cavour", "italy", "bb", "1k 2k", "navy"),
    ("itn_vveneto", "Vittorio Veneto", "italy", "bb", "1k 2k 3k", "navy"),
    ("itn_1div", "1st Cruiser Division (Zara, Pola, Fiume)", "italy", "ca", "1k 2k", "navy"),
    ("itn_3div", "3rd Cruiser Division (Trento, Trieste, Bolzano)", "italy", "ca", "1k 2k", "navy"),
    ("itn_7div", "7th Cruiser Division (Eugenio di Savoia, Montecuccoli)", "italy", "ca", "1k 2k", "navy"),
    ("itn_dd1", "Destroyer Squadrons I", "italy", "dd", "1k 2k 3k", "navy"),
    ("itn_dd2", "Destroyer Squadrons II", "italy", "dd", "1k 2k 3k", "navy"),
    ("itn_ss1", "Submarine Group I", "italy", "ss", "1k 2k", "navy"),
    ("itn_ss2", "Submarine Group II", "italy", "ss", "1k 2k", "navy"),
    ("den_uboat", "U-boats Type VII", "germany", "ss", "1k 2k", "navy"),
    ("itn_supermarina", "Supermarina", "italy", "navy_hq", "1k 2k 3k", "navy"),
    ("ukn_warspite", "Warspite", "uk", "bb", "1k 2k 3k", "navy"),
    ("ukn_malaya", "Malaya", "uk", "bb", "1k 2k", "navy"),
    ("ukn_rsov", "Royal Sovereign", "uk", "bb", "1k 2k", "navy"),
    ("ukn_barham", "Barham and Valiant", "uk", "bb", "1k 2k 3k", "navy"),
    ("ukn_renown", "Renown", "uk", "bb", "1k 2k", "navy"),
    ("ukn_eagle", "Eagle", "uk", "cv", "0g 1g 2w", "navy planes:2=1"),
    ("ukn_formidable", "Formidable", "uk", "cv", "0g 1g 2w", "navy planes:2=2"),
    ("ukn_arkroyal", "Ark Royal", "uk", "cv", "0g 1g 2w", "navy planes:2=2"),
    ("ukn_argus", "Argus", "uk", "cve", "1w 2w", "navy"),
    ("ukn_7cs", "7th Cruiser Squadron", "uk", "ca", "1k 2k 3k 4k", "navy"),
    ("ukn_18cs", "18th Cruiser Squadron", "uk", "ca", "1k 2k 3k", "navy"),
    ("ukn_cairo", "Cairo (anti-aircraft cruiser)", "uk", "ca", "1k 2k", "navy"),
    ("ukn_dd1", "Mediterranean Fleet Destroyers", "uk", "dd", "1k 2k 3k 4k", "navy"),
    ("ukn_dd2", "Force H Destroyers", "uk", "dd", "1k 2k 3k", "navy"),
    ("ukn_ss", "Malta Submarines", "uk", "ss", "1k 2k", "navy"),
    ("ukn_cunningham", "Cunningham", "uk", "navy_hq", "1k 2k 3k 4k", "navy"),
    ("ukn_somerville", "Somerville", "uk", "navy_hq", "1k 2k", "navy"),
]
# fmt: on


#: the rulebook's worked costs (7.3.1) and named facts, checked when building
KIND_CLASS = {
    "infantry": "infantry",
    "static": "infantry",
    "mountain": "infantry",
    "cavalry": "infantry",
    "artillery": "infantry",
    "para": "infantry",
    "marines": "infantry",
    "motorized": "infantry",
    "air_hq": "infantry",
    "tank": "armored",
    "tankette": "armored",
    "armored_hq": "armored",
    "fighter": "air",
    "bomber": "air",
    "strategic_air_hq": "hq",
    "minor_shq": "hq",
    "bb": "naval",
    "ca": "naval",
    "dd": "naval",
    "ss": "naval",
    "cv": "naval",
    "cve": "naval",
    "navy_hq": "hq",
}
ROLE = {  # rulebook 3.11-3.12: artillery and HQs support, they never fight alone
    "artillery": "gsu",
    "air_hq": "gsu",
    "armored_hq": "gsu",
    "strategic_air_hq": "gsu",
    "minor_shq": "gsu",
}


def build_units() -> dict:
    blocks = []
    for uid, name, power, kind, track, flags in UNITS:
        rec: dict = {
            "id": uid,
            "name": name,
            "power": power,
            "kind": kind,
            "class": KIND_CLASS[kind],
        }
        if kind in KIND_CLASS and KIND_CLASS[kind] not in ("air", "naval"):
            rec["role"] = ROLE.get(kind, "gcu")
        rec["track"] = [[int(e[:-1]), EDGE[e[-1]]] for e in track.split()]
        for flag in flags.split():
            key, _, value = flag.partition(":")
            if key == "planes":
                step, _, n = value.partition("=")
                rec.setdefault("planes", {})[step] = int(n)
            elif value:
                rec[key] = value
            else:
                rec[key] = True
        blocks.append(rec)
    return {
        "header": header(
            "units", "Every block used in BIA with its step track, weakest edge first"
        ),
        "powers": POWERS,
        "leaders": {
            "churchill": {"power": "uk", "ap": 4, "at": "box:london", "kind": "supreme"},
            "mussolini": {"power": "italy", "ap": 3, "at": "box:rome", "kind": "supreme"},
            "hitler": {"power": "germany", "ap": 2, "at": "box:berlin", "kind": "supreme"},
            "goering": {"power": "germany", "ap": 1, "at": "box:berlin", "kind": "luftwaffe"},
        },
        "blocks": blocks,
    }


EXTRA_FILES.append(("units", build_units))


# --------------------------------------------------------------------------------------
# The play aid (rulebook 3.16-3.17, 6.0-6.5, 7.5.1, 7.7.6, 12.0; the Play Aid is absent)
# --------------------------------------------------------------------------------------

# fmt: off
#: hit numbers: a die hits when it shows at least this; None: cannot fire in that mode.
#: (attack, defence, MP or air range) per unit class and TECH
FIREPOWER = {
    "infantry": {1: (6, 6, 3), 2: (6, 5, 4), 3: (5, 5, 4)},
    "artillery": {1: (6, 6, 3), 2: (5, 5, 4), 3: (4, 5, 4)},
    "tank": {1: (6, 5, 3), 2: (5, 5, 4), 3: (4, 4, 4)},
    "tankette": {1: (6, 6, 3), 2: (6, 5, 4), 3: (5, 4, 4)},
    "fighter": {1: (None, 6, 5), 2: (6, 5, 5), 3: (5, 4, 10)},
    "bomber": {1: (6, None, 10), 2: (5, 6, 10), 3: (4, 5, 15)},
}

#: the turn each power's class reaches TECH 2 and TECH 3 (campaign turns, 1 = September
#: 1939; absent = never within 1939-45); the POWER TECH DEVELOPMENT TABLE
TECH_DATES = {
    "germany": {"infantry": (1, 49), "artillery": (1, 49), "tank": (1, 42), "tankette": (1, None),
                "fighter": (1, 38), "bomber": (1, 61), "navy": (1, None)},
    "italy": {"infantry": (37, None), "artillery": (37, None), "tank": (38, None), "tankette": (38, None),
              "fighter": (27, 65), "bomber": (37, None), "navy": (None, None)},
    "uk": {"infantry": (30, 49), "artillery": (30, 49), "tank": (33, 52), "tankette": (33, None),
           "fighter": (27, 46), "bomber": (28, 44), "navy": (1, 40)},
    "usa": {"infantry": (40, 52), "artillery": (40, 52), "tank": (40, 52), "tankette": (40, None),
            "fighter": (40, 50), "bomber": (40, 48), "navy": (1, 40)},
}

TERRAIN = {
    "clear": {"mp": 1, "attacker_malus": 0, "defender_bonus": 0, "supply": True, "recon": 0,
              "armor": True, "desert_recon": True},
    "forest": {"mp": 2, "attacker_malus": 1, "defender_bonus": 0, "supply": True, "recon": 2, "armor": True},
    "hills": {"mp": 2, "attacker_malus": 1, "defender_bonus": 0, "supply": True, "recon": 2, "armor": True,
              "mountain_units_mp": 1},
    "mountain": {"mp": 3, "attacker_malus": 1, "defender_bonus": 0, "supply": False, "recon": 2,
                 "armor": False, "mountain_units_mp": 2},
    "swamp": {"mp": 3, "attacker_malus": 1, "defender_bonus": 0, "supply": True, "recon": 2, "armor": True,
              "cavalry_mp": 2, "armor_attacking_malus": 2, "armor_defending_malus": 1},
    "impassable": {"mp": None, "supply": False, "armor": False},
    "sea": {"mp": None, "supply": False, "armor": False, "land": False},
}
HEXSIDES = {
    "river": {"attacker_malus": 1, "defender_bonus": 1, "blocks_zoc": True, "mp": 0},
    "yellow_border": {"mp": None, "blocks_supply": True},
    "deep_water": {"mp": None, "blocks_zoc": True, "blocks_supply": True},
}
LOCALITIES = {
    "capital": {"aa_dice": 2, "aa_hit": 6, "attacker_malus": 1, "defender_bonus": 1, "recon": 2,
                "airfield": True, "supply_source": True},
    "major": {"aa_dice": 2, "aa_hit": 6, "attacker_malus": 1, "defender_bonus": 1, "recon": 2, "airfield": True},
    "minor": {"aa_dice": 1, "aa_hit": 6, "attacker_malus": 0, "defender_bonus": 0, "recon": 0, "airfield": True},
    "fortress": {"aa_dice": 2, "aa_hit": 5, "attacker_malus": 2, "defender_bonus": 2, "recon": 4,
                 "airfield": True, "when_captured": "bunker"},
    "bunker": {"aa_dice": 1, "aa_hit": 5, "attacker_malus": 1, "defender_bonus": 1, "recon": 2,
               "airfield": True, "when_captured": "destroyed", "frontal_only": True},
    "battle_site": {"aa_dice": 0, "airfield": False},
}
# fmt: on


def build_tables() -> dict:
    return {
        "header": header(
            "tables", "The play aid: firepower, tech dates, terrain, costs, AA, sea transport"
        ),
        "firepower": {
            cls: {
                str(t): {
                    "attack": a,
                    "defence": d,
                    ("range" if cls in ("fighter", "bomber") else "mp"): m,
                }
                for t, (a, d, m) in v.items()
            }
            for cls, v in FIREPOWER.items()
        },
        "unit_kinds": {
            "static": {"as": "infantry", "mp": 0, "moves_by": ["srm", "sea"], "retreats": False},
            "mountain": {
                "as": "infantry",
                "hills_mountain_mp_less": 1,
                "no_malus_in": ["hills", "mountain"],
                "defence_bonus_in": ["hills", "mountain"],
            },
            "cavalry": {"as": "infantry", "mp_plus": 1, "swamp_mp": 2},
            "para": {"as": "infantry"},
            "marines": {"as": "infantry"},
            "motorized": {"as": "infantry", "armor_mp_from_infantry_tech": 2},
            "armored_hq": {"as": "tank", "fires_as": "artillery"},
            "air_hq": {"aa_as": "artillery"},
            "strategic_air_hq": {"aa_as": "tank"},
            "minor_shq": {"aa_as": "tank", "fires_as": "artillery"},
            "navy_hq": {},
        },
        "tech_dates": {
            p: {c: {"2": t2, "3": t3} for c, (t2, t3) in v.items()} for p, v in TECH_DATES.items()
        },
        "tech_deduction_ypp": {"germany": 0, "italy": 0, "uk": 0},
        "terrain": TERRAIN,
        "hexsides": HEXSIDES,
        "localities": LOCALITIES,
        "edge_cost_ypp": {"black": 1, "white": 2, "red": 3, "blue": None, "green": 2},
        "pairing": {
            "armored": "red",
            "para": "blue",
            "air": "blue",
            "naval": "white",
            "marines": "white",
            "hq": "oil",
            "armored_hq": "oil",
            "air_hq": "oil",
            "infantry": None,
        },
        "motorized_edges_paired_red": [1, 4],
        "surrender_gain": {
            "any": {"yellow": 1},
            "armored": {"red": 1},
            "air": {"blue": 1},
            "para": {"blue": 1},
            "marines": {"white": 1},
            "naval": {"white": 1},
            "hq": {"oil": 1},
        },
        "mine_die_roll": {
            "1": "safe",
            "2": "safe",
            "3": "safe",
            "4": "lose_step",
            "5": "lose_step",
            "6": "destroyed",
        },
        "stacking": {
            "ground_units": 3,
            "ground_combat_units": 2,
            "air_units_per_airfield": 1,
            "air_units_per_side_per_battle": 2,
            "new_units_per_hex": 1,
            "new_units_per_capital": 2,
        },
        "ports": {
            "major": {
                "supply_units": 5,
                "siege_supply_units": 4,
                "naval_units": 5,
                "pp_per_turn": 5,
            },
            "minor": {
                "supply_units": 1,
                "siege_supply_units": 1,
                "naval_units": 1,
                "pp_per_turn": 1,
            },
        },
        "supply_range": {"rail": 3, "port": 3, "road": 2, "red_arrow_cost": 3},
        "srm_per_nation_ypp": 1,
        "red_arrow_mp": 3,
        "air_range": {"fighter": {"1": 5, "2": 5, "3": 10}, "bomber": {"1": 10, "2": 10, "3": 15}},
        "recon": {
            "range_by_fighter_tech": {"1": 5, "2": 10, "3": 15},
            "success_at_most": 4,
            "fighter_tech_modifier": {"2": -2, "3": -4},
            "fortress_modifier": 4,
            "rough_modifier": 2,
        },
        "naval": {
            "class": {"bb": 1, "ca": 2, "dd": 3, "ss": 4, "cv": 5, "cve": 5},
            "hit": 6,
            "interception_hit": 6,
            "max_fleet_blocks": 5,
        },
    }


EXTRA_FILES.append(("tables", build_tables))


# --------------------------------------------------------------------------------------
# Scenarios (rulebook scenarios overview L35-44; the Scenario Booklet is absent)
# --------------------------------------------------------------------------------------


def turn(year: int, month: int) -> int:
    """Campaign turn of a month: turn 1 is September 1939, so Montgomery's August 1942
    is turn 36 (rulebook 7.3.2) and January 1945 turn 65 (3.16)."""
    return (year - 1939) * 12 + month - 8


#: a spot is a place name, "<DIR> of <spot>" (E, NE, NW, W, SW, SE) or a hex id
Spot = str

# fmt: off
LAND_CONTROL_1940 = {"libya": "axis", "albania": "axis", "dodecanese": "axis", "italy": "axis",
                     "egypt": "allied", "palestine": "allied", "cyprus": "allied", "malta": "allied",
                     "kuwait": "allied"}

#: the powers of the Allied side that fight in the land scenarios
ALLIED_POWERS = ["uk", "free_france"]

SCENARIOS: list[dict] = [
    {
        "id": "BIA1", "name": "Operation Exporter", "difficulty": 1, "kind": "land",
        "dates": "June - July 1941", "first_turn": turn(1941, 6), "last_turn": turn(1941, 7),
        "history": "The British, Commonwealth and Free French invasion of Vichy Syria and Lebanon, "
                   "8 June - 12 July 1941.",
        "control": {**LAND_CONTROL_1940, "levant": "axis", "iraq": "allied"},
        "neutral": ["turkey", "persia", "saudi_arabia"],
        "powers": ["vichy", "uk", "free_france"],
        "tobruk": "fortress",
        "income": {"uk": {"yellow": 3}, "vichy": {"yellow": 1}},
        "strategic_warfare_dice": {"against_axis": 0, "against_allied": 0},
        "leader_ap": {"churchill": 2},
        "setup": {
            "axis": [("vf_levant_1", "Damascus", 4), ("vf_levant_2", "Beirut", 3)],
            "allied": [("uk_7aus", "Haifa", 3), ("uk_1cav", "Haifa", 3), ("ff_brigade", "Amman", 2),
                       ("uk_habforce", "H4", 4), ("uk_6div", "Jerusalem", 3), ("uk_daf", "Jaffa", 3)],
        },
        "reinforcements": [], "removals": [],
        "special_rules": [
            {"kind": "confine", "powers": ["vichy"], "countries": ["levant"],
             "text": "Vichy units may not leave the Levant."},
            {"kind": "no_entry", "powers": ALLIED_POWERS, "countries": ["turkey"],
             "text": "Allied units may not enter Turkey."},
            {"kind": "in_play", "countries": ["levant", "palestine", "iraq", "cyprus"],
             "text": "Only the Levant, Palestine and Transjordan, Iraq and Cyprus are in play."},
        ],
        "victory": {"rules": [{"side": "allied", "all": ["Beirut", "Damascus"]}], "otherwise": "axis"},
    },
    {
        "id": "BIA2", "name": "Middle-East Uprising", "difficulty": 2, "kind": "land",
        "dates": "May - September 1941", "first_turn": turn(1941, 5), "last_turn": turn(1941, 9),
        "history": "Rashid Ali's coup in Iraq and the siege of Habbaniya (May), Exporter in Syria "
                   "(June-July) and the Anglo-Soviet invasion of Persia (August 1941).",
        "control": {**LAND_CONTROL_1940, "levant": "axis", "iraq": "axis", "persia": "axis"},
        "hex_control": {"Habbaniya": "allied", "Basra": "allied"},
        "neutral": ["turkey", "saudi_arabia"],
        "powers": ["iraq", "vichy", "persia", "germany", "uk", "free_france"],
        "tobruk": "fortress",
        "income": {"uk": {"yellow": 4}, "iraq": {"yellow": 1}, "persia": {"yellow": 1, "oil": 1}},
        "strategic_warfare_dice": {"against_axis": 0, "against_allied": 0},
        "leader_ap": {"churchill": 3, "hitler": 1, "goering": 1},
        "setup": {
            "axis": [("ir_army", "Baghdad", 3), ("de_flfirak", "Mosul", 2), ("vf_levant_1", "Damascus", 4),
                     ("vf_levant_2", "Beirut", 3), ("pe_rp", "Tehran", 3)],
            "allied": [("uk_aasf", "Habbaniya", 2), ("uk_10ind", "Basra", 3), ("uk_habforce", "H4", 4),
                       ("uk_1cav", "Haifa", 3), ("uk_7aus", "Haifa", 3), ("ff_brigade", "Amman", 2)],
        },
        "reinforcements": [{"turn": turn(1941, 6), "unit": "uk_6div", "at": "Jerusalem", "steps": 3},
                           {"turn": turn(1941, 8), "unit": "uk_21ind", "at": "Basra", "steps": 4}],
        "removals": [{"turn": turn(1941, 7), "unit": "de_flfirak"}],
        "special_rules": [
            {"kind": "no_entry", "powers": ALLIED_POWERS, "countries": ["persia"],
             "before_turn": turn(1941, 8), "text": "Persia may be attacked only from August 1941 (turn 24)."},
            {"kind": "air_route", "powers": ["germany"], "countries": ["iraq"], "via": ["levant"],
             "text": "German air units reach Iraq only through Vichy Syria's airfields."},
        ],
        "victory": {"rules": [{"side": "allied", "all": ["Baghdad", "Beirut", "Tehran"]},
                              {"side": "axis", "at_least": 2, "of": ["Baghdad", "Beirut", "Tehran"]}],
                    "otherwise": "draw"},
    },
    {
        "id": "BIA3", "name": "Operation Compass", "difficulty": 3, "kind": "land",
        "dates": "November 1940 - March 1941", "first_turn": turn(1940, 11), "last_turn": turn(1941, 3),
        "history": "The Western Desert Force destroys the Italian 10th Army: Sidi Barrani, Bardia, "
                   "Tobruk, Beda Fomm (9 December 1940 - 7 February 1941); the Germans land in Tripoli.",
        "control": {**LAND_CONTROL_1940, "greece": "allied"},
        "neutral": ["turkey", "tunisia"],
        "powers": ["italy", "germany", "uk"],
        "tobruk": "fortress",
        "income": {"italy": {"yellow": 4, "red": 1, "blue": 1}, "uk": {"yellow": 4, "red": 1, "blue": 1},
                   "germany": {"yellow": 2, "red": 1, "blue": 1}},
        "strategic_warfare_dice": {"against_axis": 1, "against_allied": 1},
        "leader_ap": {},
        "setup": {
            "axis": [("it_10c", "Sidi Barrani", 3), ("it_libyan", "SW of Sidi Barrani", 3),
                     ("it_maletti", "SW of Sidi Barrani", 2), ("it_23c", "Bardia", 3), ("it_art", "Bardia", 2),
                     ("it_21c", "Tobruk", 3), ("it_static_tobruk", "Tobruk", 2), ("it_static_bengasi", "Bengasi", 2),
                     ("it_static_tripoli", "Tripoli", 2), ("it_macchi", "Bardia", 3), ("it_sm79", "Derna", 3),
                     ("it_rex", "Bengasi", 3)],
            "allied": [("uk_7armd", "Mersa Matruh", 3), ("uk_4ind", "Mersa Matruh", 3), ("uk_7rtr", "El Alamein", 2),
                       ("uk_6aus", "Alexandria", 3), ("uk_daf", "Mersa Matruh", 3), ("uk_aasf", "Alexandria", 4),
                       ("uk_meac", "Cairo", 3)],
        },
        "reinforcements": [{"turn": turn(1941, 1), "unit": "de_xfk", "at": "box:berlin", "steps": 4},
                           {"turn": turn(1941, 1), "unit": "it_ariete", "at": "box:rome", "steps": 3},
                           {"turn": turn(1941, 2), "unit": "de_dak", "at": "box:berlin", "steps": 3},
                           {"turn": turn(1941, 2), "unit": "de_rommel", "at": "box:berlin", "steps": 3}],
        "removals": [{"turn": turn(1940, 12), "unit": "uk_4ind"}, {"turn": turn(1941, 3), "unit": "uk_6aus"}],
        "special_rules": [
            {"kind": "locality", "hex": "Tobruk", "locality": "fortress", "held_by": "axis",
             "text": "Tobruk is an Italian Fortress (7.7.9 special cases)."},
            {"kind": "no_entry", "powers": ["germany"], "countries": ["egypt"], "before_turn": turn(1941, 2),
             "text": "German units may not enter Egypt before February 1941 (turn 18)."},
        ],
        "victory": {"rules": [{"side": "allied", "all": ["Bengasi"]}, {"side": "axis", "all": ["Tobruk"]}],
                    "otherwise": "draw"},
    },
    {
        "id": "BIA4", "name": "The Desert Fox", "difficulty": 4, "kind": "land",
        "dates": "April - August 1941", "first_turn": turn(1941, 4), "last_turn": turn(1941, 8),
        "history": "Rommel's first offensive retakes Cyrenaica and besieges Tobruk; Brevity and "
                   "Battleaxe fail to relieve it (April - June 1941).",
        "control": {**LAND_CONTROL_1940, "greece": "axis"},
        "hex_control": {"Tobruk": "allied", "Bengasi": "allied", "Barce": "allied", "Derna": "allied",
                        "Agedabia": "allied", "Gazala": "allied", "Bardia": "allied"},
        "neutral": ["turkey", "tunisia"],
        "powers": ["italy", "germany", "uk"],
        "tobruk": "bunker",
        "income": {"italy": {"yellow": 4, "red": 1, "blue": 1}, "germany": {"yellow": 3, "red": 2, "blue": 1},
                   "uk": {"yellow": 5, "red": 2, "blue": 1}},
        "strategic_warfare_dice": {"against_axis": 2, "against_allied": 1},
        "leader_ap": {},
        "setup": {
            "axis": [("de_dak", "El Agheila", 3), ("de_rommel", "El Agheila", 3), ("it_ariete", "W of El Agheila", 3),
                     ("it_10c", "Sirte", 3), ("it_art", "Sirte", 2), ("it_21c", "Tripoli", 3),
                     ("it_static_tripoli", "Tripoli", 2), ("it_5sa", "Misurata", 4), ("it_macchi", "Sirte", 3),
                     ("it_rex", "Tripoli", 3), ("de_stuka", "Misurata", 4)],
            "allied": [("uk_9aus", "Bengasi", 3), ("uk_7rtr", "Agedabia", 2), ("uk_21ind", "Mechili", 3),
                       ("uk_sa_garrison", "Tobruk", 2), ("uk_xiii", "Tobruk", 3), ("uk_7armd", "Alexandria", 3),
                       ("uk_meac", "Alexandria", 3), ("uk_4ind", "Mersa Matruh", 3), ("uk_daf", "Tobruk", 3),
                       ("uk_aasf", "Cairo", 4)],
        },
        "reinforcements": [{"turn": turn(1941, 6), "unit": "de_la", "at": "box:berlin", "steps": 3}],
        "removals": [],
        "special_rules": [
            {"kind": "locality", "hex": "Tobruk", "locality": "bunker", "held_by": "allied",
             "text": "Tobruk is a British-held Bunker (7.7.9 special cases)."},
            {"kind": "example", "turn": turn(1941, 6), "lines": "L2336-2345",
             "text": "The Advanced Rules example of June 1941 (turn 22) starts from this set-up."},
        ],
        "victory": {"rules": [{"side": "axis", "any": ["Tobruk", "Alexandria", "Cairo"]},
                              {"side": "allied", "all": ["Bengasi"]}],
                    "otherwise": "draw"},
    },
    {
        "id": "BIA5", "name": "El Alamein", "difficulty": 5, "kind": "land",
        "dates": "October 1942 - February 1943", "first_turn": turn(1942, 10), "last_turn": turn(1943, 2),
        "history": "Second El Alamein (23 October - 4 November 1942), the pursuit across Cyrenaica and "
                   "Tripolitania, Tripoli taken on 23 January 1943; the Axis holds Tunisia after Torch.",
        "control": {**LAND_CONTROL_1940, "greece": "axis", "tunisia": "axis"},
        "hex_control": {"El Alamein": "allied", "Alam Halfa": "allied", "SE of Alam Halfa": "allied"},
        "neutral": ["turkey"],
        "powers": ["italy", "germany", "uk", "free_france"],
        "tobruk": "minor",
        "income": {"italy": {"yellow": 3, "red": 1, "blue": 1}, "germany": {"yellow": 4, "red": 2, "blue": 2, "oil": 1},
                   "uk": {"yellow": 8, "red": 3, "blue": 2, "oil": 1}},
        "strategic_warfare_dice": {"against_axis": 3, "against_allied": 1},
        "leader_ap": {},
        "setup": {
            "axis": [("de_164", "W of El Alamein", 3), ("it_10c", "W of El Alamein", 2),
                     ("it_folgore", "W of Alam Halfa", 3), ("it_ariete", "W of Alam Halfa", 3),
                     ("de_dak", "W of W of El Alamein", 5), ("it_littorio", "W of W of El Alamein", 3),
                     ("it_20mot", "W of W of Alam Halfa", 3), ("de_la", "W of W of Alam Halfa", 3),
                     ("it_21c", "Mersa Matruh", 3), ("de_rommel", "Mersa Matruh", 4), ("it_art", "Mersa Matruh", 2),
                     ("de_ramcke", "Sidi Barrani", 2), ("it_static_tobruk", "Tobruk", 2),
                     ("it_5sa", "Tobruk", 3), ("it_static_bengasi", "Bengasi", 2), ("it_static_tripoli", "Tripoli", 2),
                     ("de_stuka", "Mersa Matruh", 4), ("de_jg27", "Sidi Barrani", 4), ("it_macchi", "Tobruk", 3),
                     ("it_rex", "Derna", 3), ("de_xfk", "Heraklion", 4)],
            "allied": [("uk_xxx", "El Alamein", 4), ("uk_9aus", "El Alamein", 3), ("uk_8art", "El Alamein", 5),
                       ("uk_xiii", "Alam Halfa", 4), ("uk_7armd", "Alam Halfa", 3), ("uk_monty", "Alam Halfa", 4),
                       ("uk_1armd", "Alexandria", 4), ("uk_2nz", "Alexandria", 3), ("uk_meac", "Alexandria", 3),
                       ("uk_4ind", "Cairo", 3), ("uk_sa_garrison", "Cairo", 2), ("ff_brigade", "SE of Alam Halfa", 2),
                       ("uk_daf", "Alexandria", 5), ("uk_aasf", "Cairo", 4)],
        },
        "reinforcements": [{"turn": turn(1942, 11), "unit": "de_5pzarmee", "at": "Tunis", "steps": 3}],
        "removals": [{"turn": turn(1943, 1), "unit": "uk_9aus"}],
        "special_rules": [
            {"kind": "locality", "hex": "Tobruk", "locality": "minor", "held_by": "axis",
             "text": "Tobruk is an Axis Minor City (7.7.9: it fell on 21 June 1942)."},
            {"kind": "dieppe_from", "turn": turn(1942, 9),
             "text": "The Dieppe Raid bonus (7.3.2) is in force for the whole scenario."},
            {"kind": "control", "countries": ["tunisia"], "side": "axis",
             "text": "Tunisia is Axis-controlled from the start (Operation Torch, November 1942)."},
        ],
        "victory": {"rules": [{"side": "allied", "all": ["Tripoli"]}, {"side": "axis", "any": ["Alexandria", "Cairo"]}],
                    "otherwise": "draw"},
    },
    {
        "id": "BIA6", "name": "Tobruk", "difficulty": 6, "kind": "land",
        "dates": "June - October 1942", "first_turn": turn(1942, 6), "last_turn": turn(1942, 10),
        "history": "Gazala and Bir Hackeim, the fall of Tobruk (21 June 1942), First El Alamein and "
                   "Alam Halfa; Montgomery takes the 8th Army in August 1942.",
        "control": {**LAND_CONTROL_1940, "greece": "axis"},
        "hex_control": {"Gazala": "allied", "Bir Hackeim": "allied", "Tobruk": "allied", "SE of Gazala": "allied",
                        "Bardia": "allied", "Sidi Rezegh": "allied"},
        "neutral": ["turkey", "tunisia"],
        "powers": ["italy", "germany", "uk", "free_france"],
        "tobruk": "bunker",
        "income": {"italy": {"yellow": 3, "red": 1, "blue": 1}, "germany": {"yellow": 4, "red": 2, "blue": 2, "oil": 1},
                   "uk": {"yellow": 7, "red": 3, "blue": 2, "oil": 1}},
        "strategic_warfare_dice": {"against_axis": 2, "against_allied": 1},
        "leader_ap": {},
        "setup": {
            "axis": [("de_dak", "W of Gazala", 5), ("it_ariete", "W of Gazala", 3), ("de_rommel", "W of Gazala", 3),
                     ("it_20mot", "SW of Bir Hackeim", 3), ("de_la", "Derna", 3), ("it_10c", "Derna", 3),
                     ("it_5sa", "Derna", 3), ("it_21c", "Bengasi", 3), ("it_static_bengasi", "Bengasi", 2),
                     ("it_folgore", "W of El Agheila", 3), ("it_static_tripoli", "Tripoli", 2),
                     ("de_stuka", "Heraklion", 4), ("it_rex", "Chania", 3), ("de_jg27", "Derna", 4),
                     ("it_macchi", "Bengasi", 3)],
            "allied": [("uk_7armd", "Gazala", 3), ("uk_daf", "Gazala", 1), ("ff_brigade", "Bir Hackeim", 2),
                       ("uk_xxx", "SE of Gazala", 4), ("uk_1armd", "SE of Gazala", 4), ("uk_8art", "SE of Gazala", 3),
                       ("uk_xiii", "Tobruk", 3), ("uk_sa_garrison", "Tobruk", 2), ("uk_2nz", "Mersa Matruh", 3),
                       ("uk_9aus", "Alexandria", 3), ("uk_meac", "Alexandria", 3), ("uk_4ind", "Cairo", 3),
                       ("uk_aasf", "Cairo", 4)],
        },
        "reinforcements": [{"turn": turn(1942, 8), "unit": "uk_monty", "at": "box:london", "steps": 4}],
        "removals": [],
        "special_rules": [
            {"kind": "locality", "hex": "Tobruk", "locality": "bunker", "held_by": "allied",
             "when_captured": "minor",
             "text": "Tobruk is a British-held Bunker; if the Axis takes it, it becomes a Minor City (7.7.9)."},
            {"kind": "dieppe_from", "turn": turn(1942, 9),
             "text": "The Dieppe Raid bonus (7.3.2) applies from September 1942 (turn 37)."},
        ],
        "victory": {"rules": [{"side": "axis", "any": ["Alexandria", "Cairo"]}, {"side": "allied", "all": ["Tobruk"]}],
                    "otherwise": "draw"},
    },
]

NAVAL_SCENARIOS: list[dict] = [
    {
        "id": "BIA7", "name": "Punta Stilo", "difficulty": 1, "kind": "naval", "dates": "9 July 1940",
        "first_turn": turn(1940, 7), "last_turn": turn(1940, 7),
        "history": "Campioni's battle fleet, covering a convoy to Bengasi, meets Cunningham's "
                   "Mediterranean Fleet covering Malta convoys off Calabria.",
        "fleets": [
            {"id": "it_battle_fleet", "power": "italy", "at": "sea:mediterranean",
             "blocks": [("itn_cesare", 2), ("itn_cavour", 2), ("itn_1div", 2), ("itn_3div", 2), ("itn_dd1", 3)]},
            {"id": "it_convoy_escort", "power": "italy", "at": "convoy:central_med", "blocks": [("itn_dd2", 3)]},
            {"id": "it_submarines", "power": "italy", "at": "sea:mediterranean", "blocks": [("itn_ss1", 2)]},
            {"id": "it_hq", "power": "italy", "at": "port:Taranto", "blocks": [("itn_supermarina", 3)]},
            {"id": "uk_battle_fleet", "power": "uk", "at": "sea:mediterranean",
             "blocks": [("ukn_warspite", 3), ("ukn_malaya", 2), ("ukn_rsov", 2), ("ukn_eagle", 2), ("ukn_7cs", 4)]},
            {"id": "uk_convoy_escort", "power": "uk", "at": "convoy:eastern_med", "blocks": [("ukn_dd1", 4)]},
            {"id": "uk_hq", "power": "uk", "at": "port:Alexandria", "blocks": [("ukn_cunningham", 4)]},
        ],
        "victory": {"kind": "naval_points", "convoys": {"central_med": "axis", "eastern_med": "allied"}},
    },
    {
        "id": "BIA8", "name": "Capo Matapan", "difficulty": 1, "kind": "naval", "dates": "28-29 March 1941",
        "first_turn": turn(1941, 3), "last_turn": turn(1941, 3),
        "history": "Iachino's sortie against the British convoys to Greece ends in the night action "
                   "off Cape Matapan.",
        "fleets": [
            {"id": "it_battle_fleet", "power": "italy", "at": "sea:mediterranean",
             "blocks": [("itn_vveneto", 3), ("itn_1div", 2), ("itn_3div", 2), ("itn_dd1", 3)]},
            {"id": "it_submarines", "power": "italy", "at": "sea:mediterranean", "blocks": [("itn_ss1", 2)]},
            {"id": "it_hq", "power": "italy", "at": "port:Taranto", "blocks": [("itn_supermarina", 3)]},
            {"id": "uk_battle_fleet", "power": "uk", "at": "sea:mediterranean",
             "blocks": [("ukn_warspite", 3), ("ukn_barham", 3), ("ukn_formidable", 2), ("ukn_7cs", 4), ("ukn_dd1", 4)]},
            {"id": "uk_convoy_escort", "power": "uk", "at": "convoy:eastern_med", "blocks": [("ukn_18cs", 3)]},
            {"id": "uk_hq", "power": "uk", "at": "port:Alexandria", "blocks": [("ukn_cunningham", 4)]},
        ],
        "victory": {"kind": "naval_points", "convoys": {"eastern_med": "allied"}},
    },
    {
        "id": "BIA9", "name": "Capo Teulada", "difficulty": 2, "kind": "naval", "dates": "27 November 1940",
        "first_turn": turn(1940, 11), "last_turn": turn(1940, 11),
        "history": "Force H covers Operation Collar's convoy to Malta; Campioni engages off Cape "
                   "Spartivento (Teulada), south of Sardinia.",
        "fleets": [
            {"id": "it_battle_fleet", "power": "italy", "at": "sea:mediterranean",
             "blocks": [("itn_vveneto", 3), ("itn_cesare", 2), ("itn_1div", 2), ("itn_3div", 2), ("itn_dd1", 3)]},
            {"id": "it_hq", "power": "italy", "at": "port:Cagliari", "blocks": [("itn_supermarina", 3)]},
            {"id": "uk_force_h", "power": "uk", "at": "sea:mediterranean",
             "blocks": [("ukn_renown", 2), ("ukn_arkroyal", 2), ("ukn_18cs", 3), ("ukn_dd2", 3)]},
            {"id": "uk_convoy_escort", "power": "uk", "at": "convoy:western_med",
             "blocks": [("ukn_rsov", 2), ("ukn_dd1", 4)]},
            {"id": "uk_hq", "power": "uk", "at": "port:Valletta", "blocks": [("ukn_somerville", 2)]},
        ],
        "victory": {"kind": "naval_points", "convoys": {"western_med": "allied"}},
    },
    {
        "id": "BIA10", "name": "Harpoon Convoy", "difficulty": 3, "kind": "naval", "dates": "21 June 1942",
        "first_turn": turn(1942, 6), "last_turn": turn(1942, 6),
        "history": "Operation Harpoon's convoy from Gibraltar to Malta is attacked by Da Zara's 7th "
                   "Cruiser Division, submarines and aircraft off Pantelleria (mid-June 1942).",
        "fleets": [
            {"id": "it_7th_division", "power": "italy", "at": "sea:mediterranean",
             "blocks": [("itn_7div", 2), ("itn_dd1", 3)]},
            {"id": "it_submarines", "power": "italy", "at": "sea:mediterranean", "blocks": [("itn_ss1", 2)]},
            {"id": "de_uboats", "power": "germany", "at": "sea:mediterranean", "blocks": [("den_uboat", 2)]},
            {"id": "it_hq", "power": "italy", "at": "port:Palermo", "blocks": [("itn_supermarina", 3)]},
            {"id": "uk_convoy_escort", "power": "uk", "at": "convoy:western_med",
             "blocks": [("ukn_cairo", 2), ("ukn_dd2", 3), ("ukn_argus", 2)]},
            {"id": "uk_cover", "power": "uk", "at": "sea:mediterranean",
             "blocks": [("ukn_malaya", 2), ("ukn_eagle", 2), ("ukn_18cs", 3)]},
            {"id": "uk_hq", "power": "uk", "at": "port:Valletta", "blocks": [("ukn_somerville", 2)]},
        ],
        "victory": {"kind": "naval_points", "convoys": {"western_med": "allied"}},
    },
]
# fmt: on


def resolve_spot(spot: Spot, where: dict[str, str]) -> str:
    """A place name, ``"<DIR> of <spot>"`` or ``box:<id>``, as a hex id (or the box)."""
    if spot.startswith("box:"):
        return spot
    first, _, rest = spot.partition(" of ")
    if rest and first in DIRECTIONS:
        return neighbour(resolve_spot(rest, where), first)
    return where[spot]


def build_scenarios() -> dict:
    where = place_hexes([])
    out = []
    for sc in SCENARIOS:
        rec = {
            k: v
            for k, v in sc.items()
            if k not in ("setup", "hex_control", "reinforcements", "victory")
        }
        rec["hex_control"] = {
            resolve_spot(s, where): side for s, side in sc.get("hex_control", {}).items()
        }
        rec["special_rules"] = [
            {**r, "hex": where[r["hex"]], "place": r["hex"]} if "hex" in r else r
            for r in sc.get("special_rules", [])
        ]
        rec["setup"] = [
            {"side": side, "unit": u, "hex": resolve_spot(s, where), "at": s, "steps": n}
            for side, items in sc["setup"].items()
            for u, s, n in items
        ]
        rec["reinforcements"] = [
            {**r, "at": resolve_spot(r["at"], where), "place": r["at"]}
            for r in sc["reinforcements"]
        ]
        vic = sc["victory"]
        rec["victory"] = {
            "rules": [
                {k: ([where[p] for p in v] if isinstance(v, list) else v) for k, v in rule.items()}
                for rule in vic["rules"]
            ],
            "otherwise": vic["otherwise"],
            "text": victory_text(vic),
        }
        out.append(rec)
    for sc in NAVAL_SCENARIOS:
        rec = {k: v for k, v in sc.items() if k != "fleets"}
        rec["fleets"] = []
        for fleet in sc["fleets"]:
            at = fleet["at"]
            if at.startswith("port:"):
                at = f"port:{where[at[5:]]}"
            rec["fleets"].append(
                {
                    **fleet,
                    "at": at,
                    "place": fleet["at"],
                    "blocks": [{"unit": u, "steps": n} for u, n in fleet["blocks"]],
                }
            )
        rec["victory"] = {
            **sc["victory"],
            "text": "The side that eliminates more enemy naval steps wins; "
            "each step of a side's own fleet left in a convoy box it escorts at the end scores "
            "one more point; equal points are a draw.",
        }
        out.append(rec)
    return {
        "header": header(
            "scenarios", "BIA1-BIA10: turns, control, income, set-up, reinforcements, victory"
        ),
        "turn_numbering": "campaign turn 1 = September 1939; one turn a month",
        "scenarios": out,
    }


def victory_text(vic: dict) -> str:
    parts = []
    for rule in vic["rules"]:
        side = "The Allies" if rule["side"] == "allied" else "The Axis"
        if "all" in rule:
            parts.append(f"{side} win if they control {' and '.join(rule['all'])} at the end.")
        elif "any" in rule:
            parts.append(f"{side} win if they control {' or '.join(rule['any'])} at the end.")
        else:
            parts.append(
                f"{side} win if they control at least {rule['at_least']} of {', '.join(rule['of'])}."
            )
    parts.append(
        {
            "draw": "Otherwise the game is a draw.",
            "axis": "Otherwise the Axis wins.",
            "allied": "Otherwise the Allies win.",
        }[vic["otherwise"]]
    )
    return " ".join(parts)


EXTRA_FILES.append(("scenarios", build_scenarios))


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
