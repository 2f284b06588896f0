"""Build The African Campaign data pack (``tac``) from real geography and history.

The rulebook text lost every chart (map, terrain chart, combat table, turn track, Axis
replacement and fuel table, orders of battle, minefield values, event chit pairings), so
``engine/games/tac/data/*.json`` is a reconstruction. Everything authored is a readable
table below; the output is deterministic. Run ``python tools/tac_pack.py`` to rewrite the
pack, ``--show`` to print an ASCII picture of the map as well. Standard library only.

The map: hexes are numbered ``AABB`` (row from north, position from west), even rows half
a hex east (layout ``even-r-AABB``, :mod:`engine.core.hexgrid_rows`), 12 miles a hex (TAC
2.8). Real places are placed by a *coast-following projection*: the coast from Homs to
Rosetta is a chain of real places, each pinned to a map position (``COAST``); a point on
land is carried to the stretch of coast nearest to it and then moved inland (south on the
map) by its real distance from that coast, one row per 16.7 km. The map thus unrolls the
Gulf of Sirte and flattens the Cyrenaican bulge, as printed maps of this campaign do, while
every distance inland stays true. The pins are chosen so that every hex the rulebook cites
falls where its example needs it (see ``FORCED``).
"""

from __future__ import annotations

import json
import math
import sys
from itertools import pairwise
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "engine" / "games" / "tac" / "data"
VERSION = "0.1"
FIRST_ROW, LAST_ROW, FIRST_COL, LAST_COL = 1, 29, 1, 78
ROW_KM = 19.31 * math.sqrt(3) / 2  # 12-mile hexes: rows 16.7 km apart
RULEBOOK = "The African Campaign, Designer Signature Edition rules (Compass Games)"

# ------------------------------------------------------------------------------------
# Grid (even-r, AABB): the same arithmetic as engine/core/hexgrid_rows.py, repeated so
# that the script runs without the project installed.
# ------------------------------------------------------------------------------------


def hid(row: int, col: int) -> str:
    return f"{row:02d}{col:02d}"


def parse(h: str) -> tuple[int, int]:
    return int(h[:2]), int(h[2:])


def centre_x(row: int, col: int) -> float:
    return col + (0.5 if row % 2 == 0 else 0.0)


def neighbours(h: str) -> list[str]:
    row, col = parse(h)
    shift = 0 if row % 2 else 1
    out = [(row, col - 1), (row, col + 1)]
    out += [(row + dr, col + shift + dc) for dr in (-1, 1) for dc in (-1, 0)]
    return [hid(r, c) for r, c in out if 0 <= r <= 99 and 0 <= c <= 99]


def on_grid(h: str) -> bool:
    row, col = parse(h)
    return FIRST_ROW <= row <= LAST_ROW and FIRST_COL <= col <= LAST_COL


def hex_at(x: float, y: float) -> str:
    """The hex whose centre is nearest to map point (x in hex widths, y in rows)."""
    best: tuple[float, str] | None = None
    for row in range(math.floor(y) - 1, math.floor(y) + 3):
        for col in range(math.floor(x) - 1, math.floor(x) + 3):
            dx = centre_x(row, col) - x
            dy = (row - y) * math.sqrt(3) / 2
            d = dx * dx + dy * dy
            if best is None or d < best[0]:
                best = (d, hid(row, col))
    assert best is not None
    return best[1]


# ------------------------------------------------------------------------------------
# The coast: real places (lat, lon) pinned to map positions (x = position in hex widths
# from the west, y = the row of the shoreline; hexes whose row is greater are land).
# ------------------------------------------------------------------------------------

COAST = [
    ("Homs", 32.65, 14.26, -3.0, 5.2),
    ("Zliten", 32.47, 14.57, -0.5, 5.3),
    ("Misurata", 32.37, 15.09, 2.5, 5.4),
    ("Tawurgha shore", 31.95, 15.40, 5.0, 5.5),
    ("Buerat", 31.40, 15.73, 7.0, 5.9),
    ("Sirte", 31.21, 16.59, 9.5, 6.3),
    ("Ras Lanuf", 30.50, 18.55, 13.5, 6.8),
    ("El Agheila", 30.27, 19.20, 16.0, 7.2),
    ("Mersa Brega", 30.41, 19.58, 18.0, 7.5),
    ("Zuwaytinah", 30.95, 20.12, 21.5, 8.0),
    ("Ghemines shore", 31.65, 19.95, 25.5, 8.4),
    ("Benghazi", 32.12, 20.07, 28.3, 8.5),
    ("Tocra", 32.53, 20.57, 30.5, 8.4),
    ("Tolmeita", 32.71, 20.95, 32.5, 7.8),
    ("Apollonia", 32.90, 21.97, 37.0, 7.0),
    ("Ras al Hilal", 32.92, 22.19, 38.2, 6.9),
    ("Derna", 32.77, 22.64, 40.5, 7.2),
    ("Ras et Tin", 32.60, 23.12, 42.2, 8.0),
    ("Gulf of Bomba, west shore", 32.45, 23.05, 42.6, 9.5),
    ("Gulf of Bomba, head", 32.35, 23.10, 44.4, 9.6),
    ("Gazala", 32.15, 23.30, 45.6, 9.2),
    ("Tobruk", 32.08, 23.96, 48.5, 9.3),
    ("Gambut shore", 31.97, 24.50, 51.5, 9.5),
    ("Bardia", 31.76, 25.08, 54.0, 10.3),
    ("Sollum", 31.56, 25.15, 55.3, 11.3),
    ("Buq Buq", 31.52, 25.55, 57.0, 11.4),
    ("Sidi Barrani", 31.61, 25.93, 59.0, 11.2),
    ("Mersa Matruh", 31.35, 27.24, 64.5, 12.2),
    ("Fuka", 31.07, 27.93, 67.5, 12.8),
    ("El Daba", 31.03, 28.44, 69.5, 13.1),
    ("El Alamein", 30.83, 28.95, 71.6, 13.8),
    ("Alexandria", 31.20, 29.90, 76.3, 13.3),
    ("Abu Qir", 31.32, 30.07, 77.5, 13.0),
    ("Rosetta", 31.40, 30.42, 80.0, 12.8),
]

_KM_LON = 111.32 * math.cos(math.radians(31.5))
_KM_LAT = 110.95


def _km(lat: float, lon: float) -> tuple[float, float]:
    return (lon - 20.0) * _KM_LON, (lat - 31.5) * _KM_LAT


def project(lat: float, lon: float) -> tuple[float, float]:
    """Real (lat, lon) -> map point (x, y): along the nearest stretch of coast, then inland."""
    px, py = _km(lat, lon)
    best = None
    for a, b in pairwise(COAST):
        ax, ay = _km(a[1], a[2])
        bx, by = _km(b[1], b[2])
        vx, vy = bx - ax, by - ay
        length2 = vx * vx + vy * vy
        t = max(0.0, min(1.0, ((px - ax) * vx + (py - ay) * vy) / length2))
        fx, fy = ax + t * vx, ay + t * vy
        dist = math.hypot(px - fx, py - fy)
        # land lies on the right of the coast walked from west to east
        side = (px - fx) * vy - (py - fy) * vx
        d = dist if side >= 0 else -dist
        if best is None or dist < best[0]:
            best = (dist, a, b, t, d)
    assert best is not None
    _, a, b, t, d = best
    return a[3] + t * (b[3] - a[3]), a[4] + t * (b[4] - a[4]) + d / ROW_KM


def shore_row(x: float) -> float:
    for a, b in pairwise(COAST):
        if a[3] <= x <= b[3]:
            return a[4] + (x - a[3]) / (b[3] - a[3]) * (b[4] - a[4])
    return COAST[0][4] if x < COAST[0][3] else COAST[-1][4]


# ------------------------------------------------------------------------------------
# Places (real positions, approximate to a few km). kinds: city, port, fort, home_base.
# ------------------------------------------------------------------------------------

PLACES = [
    # name, lat, lon, kinds
    ("Misurata", 32.37, 15.09, ["city"]),
    ("Buerat", 31.40, 15.73, []),
    ("Sirte", 31.21, 16.59, ["city"]),
    ("Ras Lanuf", 30.50, 18.55, []),
    ("El Agheila", 30.27, 19.20, ["city"]),
    ("Mersa Brega", 30.41, 19.58, []),
    ("Agedabia", 30.76, 20.22, ["city"]),
    ("Beda Fomm", 31.33, 20.08, []),
    ("Antelat", 31.28, 20.17, []),
    ("Ghemines", 31.67, 20.02, []),
    ("Soluch", 31.67, 20.25, []),
    ("Benghazi", 32.12, 20.07, ["city", "port", "fort"]),
    ("Tocra", 32.53, 20.57, []),
    ("Barce", 32.49, 20.83, ["city"]),
    ("Msus", 31.58, 21.02, []),
    ("Cyrene", 32.82, 21.86, []),
    ("Derna", 32.76, 22.64, ["city"]),
    ("Mechili", 32.17, 22.27, []),
    ("Martuba", 32.58, 22.77, []),
    ("Tmimi", 32.32, 23.07, []),
    ("Gazala", 32.15, 23.30, []),
    ("Bir Hakeim", 31.60, 23.48, []),
    ("Knightsbridge", 31.98, 23.67, []),
    ("Acroma", 32.03, 23.72, []),
    ("Tobruk", 32.08, 23.96, ["city", "port", "fort"]),
    ("El Adem", 31.86, 23.93, []),
    ("Bir el Gubi", 31.70, 23.65, []),
    ("Sidi Rezegh", 31.93, 24.17, []),
    ("Gambut", 31.90, 24.45, []),
    ("Gabr Saleh", 31.50, 24.60, []),
    ("Bardia", 31.76, 25.08, ["city"]),
    ("Fort Capuzzo", 31.62, 25.02, []),
    ("Sidi Omar", 31.45, 25.00, []),
    ("Fort Maddalena", 31.38, 24.93, []),
    ("Sollum", 31.56, 25.15, ["city"]),
    ("Halfaya", 31.53, 25.22, []),
    ("Buq Buq", 31.52, 25.55, []),
    ("Sofafi", 31.30, 25.90, []),
    ("Nibeiwa", 31.45, 25.83, []),
    ("Maktila", 31.60, 26.03, []),
    ("Bir Enba", 31.35, 26.12, []),
    ("Sidi Barrani", 31.61, 25.93, ["city"]),
    ("Mersa Matruh", 31.35, 27.24, ["city"]),
    ("Fuka", 31.07, 27.93, []),
    ("El Daba", 31.03, 28.44, []),
    ("El Alamein", 30.83, 28.95, []),
    ("Ruweisat Ridge", 30.74, 28.90, []),
    ("Alam Halfa", 30.66, 29.05, []),
    ("Qaret el Himeimat", 30.10, 28.23, []),
    ("Amiriya", 31.03, 29.80, []),
    ("Alexandria", 31.20, 29.90, ["city", "port", "home_base"]),
    ("Jarabub", 29.75, 24.52, []),
    ("Siwa", 29.20, 25.52, []),
    ("Jalo", 29.03, 21.55, []),
    ("Marada", 29.23, 19.21, []),
]

# Hexes forced so that the rulebook's examples hold on this map (each with its reason).
FORCED_PLACES = {
    "Benghazi": "0928",  # beside 1028, the plain below the Er Regima pass (L385)
    "Tocra": "0930",  # side A of the Tocra pass 1030/0931 (L391)
    "Barce": "1032",  # on the plateau beyond both passes
    "Tobruk": "1048",
    "Tmimi": "1144",  # the road rounds the Gulf of Bomba south of 1043|1044
    "Sollum": "1255",  # both passes near Sollum (8.2.5) touch the town
    "Fort Capuzzo": "1253",
    "Halfaya": "1356",
    "Sidi Omar": "1455",
    "Nibeiwa": "1359",  # its own camp, south of Sidi Barrani (5.1.1 at set-up)
}
#: hex -> terrain, for the hexes the rulebook's examples cite (digest 002, 3.2)
FORCED_TERRAIN = {
    "1128": "ridge",  # pass hexes of the Er Regima escarpment (TAC 8.2.5, L385-395)
    "1129": "ridge",
    "1030": "ridge",  # pass hexes of the Tocra escarpment (L391)
    "0931": "ridge",
    "1130": "ridge",  # the escarpment between the two passes
    "1227": "ridge",
    "1029": "clear",
    "1256": "clear",  # the plain end of the Halfaya pass
    "1456": "plateau",  # its plateau end
    "1028": "clear",  # the plain side of the Er Regima pass
    "1228": "plateau",  # the far side of the pass (L385)
    "1031": "plateau",  # the far side of the Tocra pass
    "0930": "clear",
    "1023": "clear",  # the overrun example (L419): start, pick-up, path and target
    "1024": "clear",
    "1124": "clear",
    "1125": "clear",
    "1126": "clear",
    "1127": "clear",  # a 1-5 unit here is overrun at 9-1: neither ridge nor fort
    "0943": "sea",  # the Gulf of Bomba: 1043 keeps a zone of control in 3 hexes (L208)
    "0944": "sea",
    "1043": "clear",
    "1044": "clear",
    "1042": "clear",
    "1143": "clear",
    "1144": "clear",
    "0701": "clear",  # LRDG reference hex, Axis rear (L855)
}
# 0803 (Trento, L208) and its six neighbours: open land, no prohibited side
for _h in ["0803", "0802", "0804", "0703", "0704", "0903", "0904"]:
    FORCED_TERRAIN[_h] = "clear"
PASSES = [
    # name, pass hexes, the two hexes either side (A, B), the real place
    ("Er Regima", ["1128", "1129"], ["1028", "1228"]),
    ("Tocra", ["1030", "0931"], ["0930", "1031"]),
    ("Sollum", ["SOLLUM_PASS"], []),
    ("Halfaya", ["HALFAYA_PASS"], []),
]
PROHIBITED = [("1043", "1044", "the head of the Gulf of Bomba runs between them (L208)")]

# ------------------------------------------------------------------------------------
# Escarpments (ridge hexes), plateaus, the Qattara Depression (outside the playing area)
# ------------------------------------------------------------------------------------

RIDGES = {
    "Jebel Akhdar escarpment": [
        "1621",
        "1523",
        "1424",
        "1325",
        "1226",
        "1227",
        "1128",
        "1129",
        "1130",
        "1030",
        "0931",
        (32.66, 20.92),
        (32.78, 21.40),
        (32.86, 21.90),
        (32.84, 22.25),
        (32.72, 22.58),
    ],
    "Tobruk escarpment": [(31.88, 23.50), (31.80, 23.90), (31.78, 24.30), (31.76, 24.70)],
    "Sollum escarpment": [
        (31.72, 24.98),
        "SOLLUM_PASS",
        "HALFAYA_PASS",
        (31.36, 25.55),
        (31.26, 25.95),
        (31.18, 26.35),
        (31.10, 26.80),
    ],
    "Ruweisat Ridge": [(30.74, 28.78), (30.74, 29.02)],
    "Alam Halfa Ridge": [(30.66, 29.00), (30.65, 29.20)],
}
PLATEAUS = {
    "Jebel Akhdar": [
        (32.05, 20.45),
        (32.45, 20.70),
        (32.62, 21.00),
        (32.75, 21.50),
        (32.80, 22.00),
        (32.70, 22.55),
        (32.35, 22.70),
        (32.05, 22.20),
        (31.85, 21.40),
        (31.80, 20.60),
    ],
    "Marmarica plateau (above Sollum and Halfaya)": [
        (31.70, 24.90),
        (31.55, 25.08),
        (31.48, 25.30),
        (31.40, 25.60),
        (31.30, 26.00),
        (31.18, 26.40),
        (31.00, 26.40),
        (31.00, 24.80),
    ],
}
QATTARA = [
    (30.20, 29.40),
    (30.08, 28.70),
    (30.06, 28.20),
    (29.95, 27.60),
    (29.80, 27.00),
    (29.55, 26.45),
    (29.25, 26.10),
    (28.00, 26.10),
    (28.00, 29.40),
]

# ------------------------------------------------------------------------------------
# Roads (1940-43) and railways: chains of places, hexes or real points
# ------------------------------------------------------------------------------------

ROADS = {
    "Via Balbia": [
        "Misurata",
        "Buerat",
        "Sirte",
        "Ras Lanuf",
        "El Agheila",
        "Mersa Brega",
        "Agedabia",
        "Beda Fomm",
        "Ghemines",
        "Benghazi",
        "1028",
        "1128",
        "1228",
        "1229",
        "1230",
        "1131",
        "Barce",
        "Cyrene",
        "Derna",
        "Martuba",
        "1042",
        "1143",
        "Tmimi",
        "Gazala",
        "Acroma",
        "Tobruk",
        "Gambut",
        "Bardia",
        "Fort Capuzzo",
        "SOLLUM_PASS",
        "Sollum",
    ],
    "Er Regima, second track": ["1028", "1129", "1228"],
    "Tocra road": ["Benghazi", "Tocra", "0931", "1031", "Barce"],
    "Tocra, second track": ["0930", "1030", "1031"],
    "Halfaya road": ["Sollum", "1256", "HALFAYA_PASS", "1456", "Sidi Omar"],
    "Egyptian coast road": [
        "Sollum",
        "Buq Buq",
        "Sidi Barrani",
        "Mersa Matruh",
        "Fuka",
        "El Daba",
        "El Alamein",
        "Amiriya",
        "Alexandria",
    ],
}
# the west end of the Via Balbia runs on from Misurata to the map edge (towards Tripoli)
WEST_ROAD_ENTRY = "0601"
RAILWAYS = {
    "Western Desert Railway (to Matruh 1940, to Belhamed late 1941)": [
        "Alexandria",
        "Amiriya",
        "El Alamein",
        "El Daba",
        "Fuka",
        "Mersa Matruh",
        (31.45, 26.30),
        (31.45, 25.40),
        "Fort Capuzzo",
        (31.95, 24.10),
    ],
    "Benghazi-Barce railway": ["Benghazi", "1028", "Barce"],
    "Benghazi-Soluch railway": ["Benghazi", "Soluch"],
}


def polygon_hexes(poly: list[tuple[float, float]]) -> set[str]:
    pts = [project(lat, lon) for lat, lon in poly]
    out = set()
    for row in range(FIRST_ROW, LAST_ROW + 1):
        for col in range(FIRST_COL, LAST_COL + 1):
            x, y = centre_x(row, col), float(row)
            inside = False
            for (x1, y1), (x2, y2) in zip(pts, pts[1:] + pts[:1], strict=True):
                if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
                    inside = not inside
            if inside:
                out.add(hid(row, col))
    return out


def chain(points: list[str], step: float = 0.15) -> list[str]:
    """The hexes a line through map points passes, each adjacent to the next, without
    corners a straighter line would cut (the hexes of the points themselves stay)."""
    out = _line(points, step)
    keep = {hex_at(x, y) for x, y in points}
    i = 1
    while i < len(out) - 1:
        if out[i] not in keep and out[i + 1] in neighbours(out[i - 1]):
            del out[i]
        else:
            i += 1
    return out


def _line(points: list[str], step: float) -> list[str]:
    out: list[str] = []
    for (x1, y1), (x2, y2) in pairwise(points):
        n = max(1, int(math.hypot(x2 - x1, (y2 - y1) * 0.866) / step))
        for i in range(n + 1):
            h = hex_at(x1 + (x2 - x1) * i / n, y1 + (y2 - y1) * i / n)
            if not out or out[-1] != h:
                if out and h not in neighbours(out[-1]):
                    _add(out, _between(out[-1], h))
                _add(out, h)
    return out


def _add(out: list[str], h: str) -> None:
    """Append ``h``, cutting out any loop that would bring the line back to a hex it
    already passed."""
    if h in out:
        del out[out.index(h) + 1 :]
    else:
        out.append(h)


def _between(a: str, b: str) -> str:
    common = [h for h in neighbours(a) if b in neighbours(h)]
    return sorted(common)[0]


def hex_point(h: str) -> tuple[float, float]:
    row, col = parse(h)
    return centre_x(row, col), float(row)


# ------------------------------------------------------------------------------------
# Building the map
# ------------------------------------------------------------------------------------


PLACE_HEX: dict[str, str] = {}


def build_map() -> dict:
    terrain: dict[str, str] = {}
    for row in range(FIRST_ROW, LAST_ROW + 1):
        for col in range(FIRST_COL, LAST_COL + 1):
            land = row > shore_row(centre_x(row, col))
            terrain[hid(row, col)] = "clear" if land else "sea"
    for h in polygon_hexes(QATTARA):
        if terrain[h] != "sea":
            terrain[h] = "offmap"
    for poly in PLATEAUS.values():
        for h in polygon_hexes(poly):
            if terrain[h] == "clear":
                terrain[h] = "plateau"

    place_hex: dict[str, str] = {}
    for name, lat, lon, _kinds in PLACES:
        if name in FORCED_PLACES:
            place_hex[name] = FORCED_PLACES[name]
            continue
        x, y = project(lat, lon)
        h = hex_at(x, y)
        if terrain.get(h) in (None, "sea", "offmap"):
            # a shore town: the nearest land hex
            cands = [
                (abs(centre_x(*parse(c)) - x) + abs(parse(c)[0] - y), c)
                for c in terrain
                if terrain[c] not in ("sea", "offmap")
                and abs(parse(c)[0] - y) < 3
                and abs(centre_x(*parse(c)) - x) < 3
            ]
            h = min(cands)[1]
        place_hex[name] = h
    # the two passes near Sollum (TAC 8.2.5): the escarpment hexes beside Sollum town
    sollum = place_hex["Sollum"]
    place_hex["SOLLUM_PASS"] = SOLLUM_PASS
    place_hex["HALFAYA_PASS"] = HALFAYA_PASS
    assert SOLLUM_PASS in neighbours(sollum) and HALFAYA_PASS in neighbours(sollum), sollum

    def point(p: object) -> tuple[float, float]:
        if isinstance(p, tuple):
            return project(*p)
        assert isinstance(p, str)
        return hex_point(place_hex.get(p, p))

    for line in RIDGES.values():
        for h in chain([point(p) for p in line]):
            if h in terrain and terrain[h] not in ("sea", "offmap"):
                terrain[h] = "ridge"
    for h in (SOLLUM_PASS, HALFAYA_PASS):
        terrain[h] = "ridge"
    terrain.update(FORCED_TERRAIN)
    for name, h in place_hex.items():
        kinds = next((k for n, _a, _b, k in PLACES if n == name), [])
        if kinds and terrain[h] in ("ridge", "sea", "offmap"):
            terrain[h] = "clear"

    roads = []
    for name, line in ROADS.items():
        pts = [point(p) for p in line]
        if name == "Via Balbia":
            pts = [hex_point(WEST_ROAD_ENTRY)] + pts
        hexes = [h for h in chain(pts) if on_grid(h)]
        for h in hexes:
            assert terrain[h] not in ("sea", "offmap"), (name, h)
        roads.append({"name": name, "hexes": hexes})
    rail = []
    for name, line in RAILWAYS.items():
        hexes = [h for h in chain([point(p) for p in line]) if on_grid(h)]
        rail.append({"name": name, "hexes": hexes})

    features: dict[str, list[str]] = {}
    names: dict[str, str] = {}
    # a city's name wins its hex; otherwise the first place listed
    for name, _lat, _lon, kinds in sorted(PLACES, key=lambda p: not p[3]):
        h = place_hex[name]
        if h not in names:
            names[h] = name
        for k in kinds:
            features.setdefault(h, []).append(k)
    passes = []
    for name, hexes, ends in PASSES:
        real = [place_hex.get(h, h) for h in hexes]
        for h in real:
            features.setdefault(h, []).append("pass")
        passes.append({"name": name, "hexes": real, "ends": ends or PASS_ENDS[name]})
    control = {place_hex[n]: side for n, side in INITIAL_CONTROL.items()}
    PLACE_HEX.clear()
    PLACE_HEX.update(place_hex)

    hexes = []
    for h in sorted(terrain):
        entry: dict = {"id": h, "terrain": terrain[h]}
        if h in names:
            entry["name"] = names[h]
        if h in features:
            entry["features"] = sorted(set(features[h]))
        if h in control:
            entry["control"] = control[h]
        hexes.append(entry)
    return {
        "header": header(
            "map",
            "The African Campaign map (reconstruction)",
            "Libya and western Egypt from Misurata to Alexandria, 12 miles a hex, rebuilt by "
            "tools/tac_pack.py from real geography with a coast-following projection pinned "
            "so that every hex the rulebook cites holds its example. Replace with a "
            "transcription of the printed map.",
            [
                f"{RULEBOOK}: hexes 0701, 0803, 1023, 1028, 1030, 0931, 1043, 1044, 1125, "
                "1127, 1128, 1129, 1228 (L208, L385-395, L419, L855); terrain list (2.2); "
                "passes near Sollum (8.2.5); ports (12.0); forts Tobruk, Benghazi (9.5)",
                "Umpire digest 002 section 3.2 (even-r AABB adjacency) and 3.6 (authoring route)",
                "tools/tac_pack.py: the author's own latitude/longitude approximations of the "
                "coast, escarpments, roads (Via Balbia, Egyptian coast road) and railways",
            ],
        ),
        "layout": "even-r-AABB",
        "grid": {
            "first_row": FIRST_ROW,
            "last_row": LAST_ROW,
            "first_col": FIRST_COL,
            "last_col": LAST_COL,
            "hex_miles": 12,
        },
        "terrain_types": {
            "clear": "Clear",
            "ridge": "Ridge (escarpment)",
            "plateau": "Plateau",
            "sea": "Sea (not part of the playing area)",
            "offmap": "Qattara Depression (not part of the playing area)",
        },
        "hexes": hexes,
        "hexsides": [
            {"between": [a, b], "features": ["prohibited"], "note": note}
            for a, b, note in PROHIBITED
        ],
        "roads": roads,
        "railways": rail,
        "passes": passes,
    }


SOLLUM_PASS = "1254"  # the Via Balbia climbs from Sollum town to Fort Capuzzo
HALFAYA_PASS = "1356"  # Halfaya ("Hellfire") Pass, south-east of Sollum
PASS_ENDS = {"Sollum": ["1255", "1253"], "Halfaya": ["1256", "1456"]}
INITIAL_CONTROL = {
    "Misurata": "axis",
    "Sirte": "axis",
    "El Agheila": "axis",
    "Agedabia": "axis",
    "Benghazi": "axis",
    "Barce": "axis",
    "Derna": "axis",
    "Tobruk": "axis",
    "Bardia": "axis",
    "Sollum": "axis",
    "Sidi Barrani": "axis",  # occupied by the Italian 10th Army since September 1940
    "Mersa Matruh": "allied",
    "Alexandria": "allied",
}


def header(name: str, title: str, description: str, sources: list[str]) -> dict:
    return {
        "game": "tac",
        "name": title,
        "version": VERSION,
        "provenance": "reconstruction",
        "description": description,
        "sources": sources,
    }


# ------------------------------------------------------------------------------------
# Tables: terrain effects, combat results, Axis replacements and fuel, minefields, events
# ------------------------------------------------------------------------------------

#: terrain effects chart. mp: cost to enter (None: may not be entered); defence: the
#: multiplier of 9.4/9.5. Values the rulebook states are marked with their case.
TEC = {
    "clear": {"mp": 1, "defence": 1, "rule": "8.6.1 (an ordinary hex costs 1 MP)"},
    "plateau": {"mp": 1, "defence": 1, "rule": "9.4 (cancels ridge doubling for the defender)"},
    "ridge": {"mp": 2, "defence": 2, "rule": "8.2.5, 9.4 (entry cost invented: 2 MP)"},
    "sea": {"mp": None, "defence": 1, "rule": "not part of the playing area"},
    "offmap": {"mp": None, "defence": 1, "rule": "not part of the playing area"},
}
HEX_FEATURES = {
    "city": {"mp": None, "defence": 1, "rule": "13.3 supply within 1 hex; 15.0 air base"},
    "port": {"mp": None, "defence": 1, "rule": "12.0 landing of reinforcements"},
    "fort": {"mp": None, "defence": 2, "rule": "4.1, 9.5: no ZOC in or out, never retreats"},
    "pass": {"mp": 2, "defence": 2, "rule": "8.2.5: crossing the pass costs 2 MP in all"},
    "home_base": {"mp": None, "defence": 1, "rule": "12.4 Allied Home Base"},
}
HEXSIDE_FEATURES = {
    "road": {"mp": 0.2, "rule": "8.3.1: 1/5 MP from road hex to road hex along the road"},
    "prohibited": {"mp": None, "rule": "8.2.7: no movement, combat or ZOC across"},
}
CRT_COLUMNS = [
    "1-6",
    "1-5",
    "1-4",
    "1-3",
    "1-2",
    "1-1",
    "2-1",
    "3-1",
    "4-1",
    "5-1",
    "6-1",
    "7-1",
    "8-1",
]
#: results from worst to best for the attacker; a cell's level is column + die - 1, so
#: 2-1 with a 1 reads level 6, the one cell the text keeps (L509: A2R over D1)
CRT_LADDER = [
    ["AE", None],
    ["AE", None],
    ["A2R", None],
    ["A1R", None],
    ["AR", None],
    ["A1", None],
    ["A2R", "D1"],
    ["C", "C"],
    ["A1", "D1"],
    [None, "D1"],
    [None, "DR"],
    ["A1", "D1R"],
    [None, "D1R"],
    ["A1", "D2R"],
    [None, "D2R"],
    ["A1", "DE"],
    [None, "DE"],
    [None, "DE"],
]
#: Axis Infantry Replacement and Fuel Table (10.3, 14.0): per segment, per die 1-6,
#: [Italian, German, Fuel]; 1 = one replacement, None = "-"
AXIS_TABLE = {
    "I": {
        "months": "January-May 1941",
        "turns": [3, 12],
        "rows": [
            [1, 1, 5],
            [1, None, 4],
            [1, None, 4],
            [1, None, 3],
            [None, None, 2],
            [None, None, 1],
        ],
    },
    "II": {
        "months": "June-October 1941",
        "turns": [13, 22],
        "rows": [
            [1, 1, 4],
            [1, 1, 3],
            [1, None, 3],
            [None, None, 2],
            [None, None, 2],
            [None, None, 1],
        ],
    },
    "III": {
        "months": "November 1941-January 1942 (Force K)",
        "turns": [23, 28],
        "rows": [
            [1, 1, 3],
            [1, None, 2],
            [None, None, 2],
            [None, None, 1],
            [None, None, 1],
            [None, None, 0],
        ],
    },
    "IV": {
        "months": "February-June 1942 (Malta neutralised)",
        "turns": [29, 38],
        "rows": [[1, 1, 5], [1, 1, 5], [1, 1, 4], [1, None, 3], [None, None, 3], [None, None, 2]],
    },
    "V": {
        "months": "July-December 1942",
        "turns": [39, 50],
        "rows": [
            [1, 1, 3],
            [1, 1, 3],
            [None, None, 2],
            [None, None, 2],
            [None, None, 1],
            [None, None, 0],
        ],
    },
}
MINEFIELDS = {
    # id: effect; standard counters (16.0) then the bonus ones with an asterisk (18.6)
    "standard": [
        {"steps": 0, "delay": 0},
        {"steps": 0, "delay": 0},
        {"steps": 0, "delay": 0},
        {"steps": 0, "delay": 1},
        {"steps": 0, "delay": 1},
        {"steps": 0, "delay": 1},
        {"steps": 1, "delay": 0},
        {"steps": 1, "delay": 0},
        {"steps": 1, "delay": 0},
        {"steps": 2, "delay": 0},
    ],
    "bonus": [
        {"steps": 0, "delay": 0},
        {"steps": 0, "delay": 1},
        {"steps": 1, "delay": 0},
        {"steps": 1, "delay": 0},
        {"steps": 1, "delay": 1},
        {"steps": 2, "delay": 0},
    ],
}
#: the events of 18.7 in the rulebook's own names, with when each may be played
ALLIED_EVENTS = {
    "Bad Weather": "start of the Axis player-turn (L831)",
    "Counter-Intelligence": "any time, before the opponent's success roll (L835)",
    "Extra Mines": "start of the Allied player-turn (L839)",
    "Italian Disorganization": "after Axis attackers are declared (L843)",
    "Malta Convoy": "before the Axis replacement and fuel rolls (L847)",
    "Naval Support": "an Allied attack or defence of a port hex (L851)",
    "Long Range Desert Group": "start of the Axis Movement Phase (L855)",
    'Royal Navy "Force K"': "Axis Reinforcement Phase (L859)",
    "Rommel on Leave": "start of a player-turn or the initiative phase (L863)",
    "Tank Recovery": "Allied Reinforcement/Withdrawal Phase (L867)",
    "Ultra Intelligence": "start of a player-turn (L871)",
}
AXIS_EVENTS = {
    "Bad Weather": "start of the Allied player-turn (L877)",
    "Captured Supplies": "after capturing an Allied-controlled city (L881)",
    "Counter-Intelligence": "any time, before the opponent's success roll (L885)",
    "Early Convoy Arrival": "start of the Axis Reinforcement Phase (L889)",
    "Extra Mines": "start of the Axis player-turn (L893)",
    "Flak 88": "an Allied attack that includes armour (L897)",
    "Fuel/Ammo Reserves": "Axis Reinforcement/Fuel Phase (L903)",
    "Late Allied Reinforcements": "Allied Reinforcement/Withdrawal Phase (L909)",
    "Luftflotte 2": "Allied Reinforcement/Withdrawal Phase (L914)",
    "Panzer Recovery": "Axis Reinforcement/Fuel Phase (L921)",
    "Pioneers": "before an Axis unit enters a minefield hex (L925)",
    "Poor Attack Coordination": "before an Allied attack is resolved (L931)",
}
#: the fourteen chits, Allied face / Axis face, paired by theme
CHITS = [
    ("Bad Weather", "Bad Weather"),
    ("Counter-Intelligence", "Counter-Intelligence"),
    ("Extra Mines", "Extra Mines"),
    ("Italian Disorganization", "Poor Attack Coordination"),
    ("Malta Convoy", "Fuel/Ammo Reserves"),
    ("Naval Support", "Flak 88"),
    ("Long Range Desert Group", "Pioneers"),
    ('Royal Navy "Force K"', "Early Convoy Arrival"),
    ("Rommel on Leave", "Late Allied Reinforcements"),
    ("Tank Recovery", "Panzer Recovery"),
    ("Ultra Intelligence", "Luftflotte 2"),
    ("Counter-Intelligence", "Captured Supplies"),
    ("Malta Convoy", "Fuel/Ammo Reserves"),
    ("Tank Recovery", "Panzer Recovery"),
]


def build_tables() -> dict:
    crt = {
        str(die): [
            CRT_LADDER[min(len(CRT_LADDER) - 1, c + die - 1)] for c in range(len(CRT_COLUMNS))
        ]
        for die in range(1, 7)
    }
    return {
        "header": header(
            "tables",
            "The African Campaign charts and tables (reconstruction)",
            "Terrain effects, combat results, the Axis Infantry Replacement and Fuel Table, "
            "the fuel track, minefield values and the fourteen event chits. Values the "
            "rulebook states are kept; every other value is invented within its constraints "
            "(see data/README.md).",
            [
                f"{RULEBOOK}: result codes 9.7 (L497-505), automatic results 9.3 (L485), the "
                "2-1 / die 1 cell A2R/D1 (L509), March 1941 die 4 = 3 Fuel (L653), fuel track "
                "0-10 starting at 2 (14.0, 17.1), 10 + 6 minefields (L162, 16.0, 18.6), event "
                "texts (L827-931)",
                "tools/tac_pack.py: the ladder of results, segments and minefield values",
            ],
        ),
        "terrain": TEC,
        "hex_features": HEX_FEATURES,
        "hexside_features": HEXSIDE_FEATURES,
        "crt": {
            "columns": CRT_COLUMNS,
            "below_lowest": "AE",
            "above_highest": "DE",
            "codes": [
                "AR",
                "AE",
                "A1",
                "A2",
                "A1R",
                "A2R",
                "C",
                "DR",
                "DE",
                "D1",
                "D2",
                "D1R",
                "D2R",
            ],
            "rows": crt,
        },
        "axis_table": AXIS_TABLE,
        "fuel_track": {"min": 0, "max": 10, "start": 2},
        "minefields": MINEFIELDS,
        "events": {
            "allied": ALLIED_EVENTS,
            "axis": AXIS_EVENTS,
            "chits": [{"allied": a, "axis": x} for a, x in CHITS],
            "draw_turns": [3, 9, 15, 19, 25, 33, 41],
            "reshuffle_turn": 25,
            "hand_limit": 4,
            "initial_draw": {"allied": 3, "axis": 2},
        },
    }


# ------------------------------------------------------------------------------------
# Turn record track
# ------------------------------------------------------------------------------------

MONTHS = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
]
#: air units available per turn, from the historical balance in the air
AIR = [
    # first turn, last turn, allied, axis
    (1, 4, 2, 1),  # Compass: the RAF against the Regia Aeronautica
    (5, 14, 1, 2),  # Fliegerfuehrer Afrika and X Fliegerkorps
    (15, 22, 2, 1),
    (23, 26, 3, 1),  # Crusader
    (27, 34, 2, 2),  # Luftflotte 2 over Malta and Cyrenaica
    (35, 38, 2, 3),  # Gazala and Tobruk
    (39, 44, 3, 2),  # First Alamein and Alam Halfa
    (45, 50, 3, 1),  # Second Alamein and the pursuit
]
#: Allied infantry replacements on the first turn of each month (10.0)
ALLIED_INF = [(3, 17, 1), (19, 37, 2), (39, 50, 3)]


def segment_of(turn: int) -> str | None:
    for name, seg in AXIS_TABLE.items():
        if seg["turns"][0] <= turn <= seg["turns"][1]:
            return name
    return None


def build_turns(units: list[dict]) -> dict:
    turns = []
    for t in range(1, 51):
        month = (t + 1) // 2  # December 1940 is month 1
        year = 1940 + (month + 10) // 12
        name = MONTHS[(month + 10) % 12]
        half = "I" if t % 2 else "II"
        air = next((al, ax) for a, b, al, ax in AIR if a <= t <= b)
        inf = 0
        if t % 2 == 1 and t >= 3:
            inf = next(n for a, b, n in ALLIED_INF if a <= t <= b)
        arrivals = sorted({u["side"] for u in units if u.get("entry", {}).get("turn") == t})
        leaving = [u["id"] for u in units for w in u.get("withdrawals", []) if w["turn"] == t]
        back = [u["id"] for u in units for w in u.get("withdrawals", []) if w["return_turn"] == t]
        turns.append(
            {
                "turn": t,
                "date": f"{name} {half} {year}",
                "segment": segment_of(t) if t % 2 == 1 and t >= 3 else None,
                "air": {"allied": air[0], "axis": air[1]},
                "allied_infantry_replacements": inf,
                "reinforcements": arrivals,
                "withdrawals": leaving,
                "returns": back,
            }
        )
    return {
        "header": header(
            "turns",
            "The African Campaign turn record track (reconstruction)",
            "Fifty half-month turns, December 1940 to December 1942: date, segment of the "
            "Axis table, air units per side, Allied infantry replacements, the sides "
            "receiving reinforcements, and the units withdrawn and returning (7.2).",
            [
                f"{RULEBOOK}: 50 turns (6.0), 2 per month from December 1940 (L25, 2.8, 17.4), "
                "replacements on odd turns from Turn 3 (10.0), air units per turn (15.0)",
                "tools/tac_pack.py: air balance and replacement rates from the history",
            ],
        ),
        "turns": turns,
    }


# ------------------------------------------------------------------------------------
# Orders of battle (historical forces, December 1940 to December 1942)
# ------------------------------------------------------------------------------------

#: Allied set-up location codes (2.4.2: Allied at-start units carry a code, not a hex)
LOCATION_CODES = {
    "F": {
        "name": "Western Desert Force, forward (Bir Enba gap)",
        "hexes": ["1362", "1363", "1462"],
    },
    "M": {"name": "Mersa Matruh", "hexes": ["1364", "1365"]},
    "A": {"name": "Alexandria and the Delta", "hexes": ["1476", "1477"]},
}
# id, name, nationality, type, size, steps (strongest first), armour steps, where/when, more
# where/when: "@Place" (Axis at-start hex), "code:X" (Allied location code), a turn of entry,
# or the rule that brings the unit into play ("11.1", "11.4", "11.5").
ALLIED = [
    (
        "uk_7armd",
        "7th Armoured Division",
        "UK",
        "armor",
        "XX",
        "8-6 6-6 4-6 2-6",
        1,
        "code:F",
        {"components": ["uk_4armd", "uk_7armdbde", "uk_7sg"]},
    ),
    (
        "uk_4armd",
        "4th Armoured Brigade",
        "UK",
        "armor",
        "X",
        "3-6 2-6",
        1,
        "11.1",
        {"parent": "uk_7armd"},
    ),
    (
        "uk_7armdbde",
        "7th Armoured Brigade",
        "UK",
        "armor",
        "X",
        "3-6 2-6",
        1,
        "11.1",
        {"parent": "uk_7armd"},
    ),
    (
        "uk_7sg",
        "7th Support Group",
        "UK",
        "motorized",
        "X",
        "2-6 1-6",
        0,
        "11.1",
        {"parent": "uk_7armd"},
    ),
    (
        "in_4",
        "4th Indian Division",
        "IN",
        "infantry",
        "XX",
        "5-6 4-6 3-6 2-6",
        0,
        "code:F",
        {"withdrawals": [{"turn": 2, "min_step": "4-6", "return_turn": 13}]},
    ),
    ("uk_16", "16th Infantry Brigade", "UK", "infantry", "X", "2-6 1-6", 0, "code:F", {}),
    ("uk_7rtr", "7th Royal Tank Regiment", "UK", "armor", "II", "2-6 1-6", 1, "code:F", {}),
    ("uk_selby", "Selby Force", "UK", "motorized", "X", "1-6", 0, "code:M", {}),
    ("uk_8army", "8th Army HQ", "UK", "hq", "XXXX", "2-8", 0, "code:M", {}),
    ("uk_11hussars", "11th Hussars", "UK", "recon", "II", "1-8", 0, "code:F", {}),
    (
        "au_6",
        "6th Australian Infantry Division",
        "AU",
        "infantry",
        "XX",
        "5-6 4-6 3-6 2-6",
        0,
        2,
        {"withdrawals": [{"turn": 7, "min_step": "4-6", "return_turn": None}]},
    ),
    ("uk_2armd", "2nd Armoured Division", "UK", "armor", "XX", "4-6 3-6", 1, 4, {}),
    (
        "au_9",
        "9th Australian Infantry Division",
        "AU",
        "infantry",
        "XX",
        "5-6 4-6 3-6 2-6",
        0,
        7,
        {"withdrawals": [{"turn": 20, "min_step": "4-6", "return_turn": 39}]},
    ),
    (
        "uk_22gds",
        "22nd Guards Motorized Brigade",
        "UK",
        "motorized",
        "X",
        "2-6 1-6",
        0,
        7,
        {"withdrawals": [{"turn": 26, "min_step": "1-6", "return_turn": None}]},
    ),
    ("in_3mot", "3rd Indian Motor Brigade", "IN", "motorized", "X", "2-6", 0, 8, {}),
    (
        "au_7",
        "7th Australian Infantry Division",
        "AU",
        "infantry",
        "XX",
        "5-6 4-6",
        0,
        9,
        {"withdrawals": [{"turn": 13, "min_step": "4-6", "return_turn": None}]},
    ),
    (
        "au_18_7",
        "18/7 Australian Infantry Brigade",
        "AU",
        "infantry",
        "X",
        "2-6 1-6",
        0,
        9,
        {"withdrawals": [{"turn": 18, "min_step": "1-6", "return_turn": None}]},
    ),
    (
        "pl_carpathian",
        "Polish Carpathian Brigade",
        "PL",
        "infantry",
        "X",
        "2-6 1-6",
        0,
        17,
        {"withdrawals": [{"turn": 31, "min_step": "1-6", "return_turn": None}]},
    ),
    ("sa_1", "1st South African Division", "SA", "infantry", "XX", "5-6 4-6 3-6 2-6", 0, 19, {}),
    (
        "nz_2",
        "2nd New Zealand Infantry Division",
        "NZ",
        "infantry",
        "XX",
        "5-6 4-6 3-6 2-6",
        0,
        20,
        {
            "entry_step": "4-6",
            "withdrawals": [
                {"turn": 28, "min_step": "4-6", "return_turn": 37, "return_step": "5-6"}
            ],
        },
    ),
    (
        "uk_70",
        "70th Infantry Division",
        "UK",
        "infantry",
        "XX",
        "5-6 4-6 3-6 2-6",
        0,
        20,
        {"withdrawals": [{"turn": 29, "min_step": "4-6", "return_turn": None}]},
    ),
    ("uk_32tank", "32nd Army Tank Brigade", "UK", "armor", "X", "3-6 2-6", 1, 20, {}),
    ("in_5", "5th Indian Division", "IN", "infantry", "XX", "5-6 4-6 3-6 2-6", 0, 21, {}),
    (
        "uk_22armd",
        "22nd Armoured Brigade",
        "UK",
        "armor",
        "X",
        "3-6 2-6",
        1,
        21,
        {"parent": "uk_1armd"},
    ),
    ("uk_1tank", "1st Army Tank Brigade", "UK", "armor", "X", "3-6 2-6", 1, 22, {}),
    ("sa_2", "2nd South African Division", "SA", "infantry", "XX", "4-6 3-6 2-6 1-6", 0, 23, {}),
    (
        "uk_2armdbde",
        "2nd Brigade, 1st Armoured Division",
        "UK",
        "armor",
        "X",
        "2-6 1-6",
        1,
        25,
        {"parent": "uk_1armd"},
    ),
    (
        "uk_201gds",
        "201 Guards Infantry Brigade",
        "UK",
        "infantry",
        "X",
        "2-6 1-6",
        0,
        27,
        {"parent": "uk_1armd"},
    ),
    ("uk_lancers", "12th Lancers", "UK", "recon", "II", "1-6", 0, "11.4", {"parent": "uk_1armd"}),
    (
        "uk_1armd",
        "1st Armoured Division",
        "UK",
        "armor",
        "XX",
        "7-6 5-6 3-6 1-5",
        1,
        "11.4",
        {"components": ["uk_2armdbde", "uk_22armd", "uk_201gds", "uk_lancers"]},
    ),
    ("fr_1", "1st Free French Brigade", "FR", "infantry", "X", "2-6 1-6", 0, 27, {}),
    ("uk_50", "50th Infantry Division", "UK", "infantry", "XX", "5-6 4-6 3-6 2-6", 0, 30, {}),
    ("gr_1", "1st Greek Infantry Brigade", "GR", "infantry", "X", "1-6", 0, 37, {}),
    ("in_10", "10th Indian Division", "IN", "infantry", "XX", "5-6 4-6 3-6 2-6", 0, 37, {}),
    ("fr_2", "2nd Free French Brigade", "FR", "infantry", "X", "1-6", 0, 38, {}),
    ("uk_23armd", "23rd Armoured Brigade", "UK", "armor", "X", "3-6 2-6", 1, 40, {}),
    ("uk_44", "44th Infantry Division", "UK", "infantry", "XX", "5-6 4-6 3-6 2-6", 0, 41, {}),
    ("uk_51", "51st Highland Division", "UK", "infantry", "XX", "5-6 4-6 3-6 2-6", 0, 42, {}),
    ("uk_10armd", "10th Armoured Division", "UK", "armor", "XX", "7-6 5-6 3-6 1-6", 1, 43, {}),
    (
        "nz_2_7",
        "2nd New Zealand Division (with armour)",
        "NZ",
        "infantry",
        "XX",
        "7-6 5-6 3-6 2-6",
        0,
        "11.5",
        {},
    ),
    ("uk_9armd", "9th Armoured Brigade", "UK", "armor", "X", "3-6 2-6", 1, 45, {}),
]
AXIS = [
    ("it_1lib", "1st Libyan Division", "IT", "infantry", "XX", "3-4 2-4", 0, "@Maktila", {}),
    ("it_2lib", "2nd Libyan Division", "IT", "infantry", "XX", "3-4 2-4", 0, "@Sidi Barrani", {}),
    (
        "it_4ccnn",
        "4th Blackshirt Division 3 Gennaio",
        "IT",
        "infantry",
        "XX",
        "3-4 2-4",
        0,
        "@Sidi Barrani",
        {},
    ),
    ("it_maletti", "Maletti Group", "IT", "motorized", "X", "2-6 1-6", 0, "@Nibeiwa", {}),
    (
        "it_63",
        "63rd Infantry Division Cirene",
        "IT",
        "infantry",
        "XX",
        "4-4 3-4 2-4",
        0,
        "@Sofafi",
        {},
    ),
    (
        "it_64",
        "64th Infantry Division Catanzaro",
        "IT",
        "infantry",
        "XX",
        "4-4 3-4 2-4",
        0,
        "@Buq Buq",
        {},
    ),
    (
        "it_62",
        "62nd Infantry Division Marmarica",
        "IT",
        "infantry",
        "XX",
        "4-4 3-4 2-4",
        0,
        "@Halfaya",
        {},
    ),
    (
        "it_1ccnn",
        "1st Blackshirt Division 23 Marzo",
        "IT",
        "infantry",
        "XX",
        "3-4 2-4",
        0,
        "@Bardia",
        {},
    ),
    (
        "it_2ccnn",
        "2nd Blackshirt Division 28 Ottobre",
        "IT",
        "infantry",
        "XX",
        "3-4 2-4",
        0,
        "@Bardia",
        {},
    ),
    (
        "it_61",
        "61st Infantry Division Sirte",
        "IT",
        "infantry",
        "XX",
        "4-4 3-4 2-4",
        0,
        "@Tobruk",
        {},
    ),
    (
        "it_60",
        "60th Infantry Division Sabratha",
        "IT",
        "infantry",
        "XX",
        "4-4 3-4 2-4",
        0,
        "@Derna",
        {},
    ),
    ("it_babini", "Babini Armoured Brigade", "IT", "armor", "X", "3-6 2-6", 1, "@Mechili", {}),
    (
        "it_17",
        "17th Infantry Division Pavia",
        "IT",
        "infantry",
        "XX",
        "4-4 3-4 2-4",
        0,
        "@Misurata",
        {},
    ),
    (
        "it_25",
        "25th Infantry Division Bologna",
        "IT",
        "infantry",
        "XX",
        "4-4 3-4 2-4",
        0,
        "@Sirte",
        {},
    ),
    (
        "it_27",
        "27th Infantry Division Brescia",
        "IT",
        "infantry",
        "XX",
        "4-4 3-4 2-4",
        0,
        "@El Agheila",
        {},
    ),
    (
        "it_ariete",
        "132nd Armoured Division Ariete",
        "IT",
        "armor",
        "XX",
        "5-6 4-6 3-6 2-6",
        1,
        5,
        {},
    ),
    ("ge_dak", "Deutsches Afrika Korps HQ (Rommel)", "GE", "hq", "XXXX", "3-10", 0, 5, {}),
    ("ge_aa3", "3rd Reconnaissance Battalion", "GE", "recon", "II", "2-7", 0, 6, {}),
    ("ge_flak33", "I/33 Flak Battalion", "GE", "flak", "II", "1-3-6", 0, 7, {}),
    (
        "ge_21pz",
        "21st Panzer Division (5th Light)",
        "GE",
        "armor",
        "XX",
        "9-8 7-7 5-7 3-7",
        1,
        7,
        {},
    ),
    (
        "it_102",
        "102nd Motorized Division Trento",
        "IT",
        "motorized",
        "XX",
        "4-6 3-6 2-6 1-6",
        0,
        9,
        {},
    ),
    (
        "ge_8pz",
        "8th Panzer Regiment",
        "GE",
        "armor",
        "III",
        "4-7 2-7",
        1,
        10,
        {"parent": "ge_15pz"},
    ),
    (
        "ge_115",
        "115th Rifle Regiment",
        "GE",
        "motorized",
        "III",
        "3-7 2-7",
        0,
        10,
        {"parent": "ge_15pz"},
    ),
    (
        "ge_33aa",
        "33rd Reconnaissance Battalion",
        "GE",
        "recon",
        "II",
        "2-7",
        0,
        11,
        {"parent": "ge_15pz"},
    ),
    (
        "ge_15pz",
        "15th Panzer Division",
        "GE",
        "armor",
        "XX",
        "9-8 7-7 5-7 3-7",
        1,
        "11.2",
        {"components": ["ge_8pz", "ge_115", "ge_33aa"]},
    ),
    ("it_55", "55th Infantry Division Savona", "IT", "infantry", "XX", "4-4 3-4 2-4", 0, 15, {}),
    (
        "it_101",
        "101st Motorized Division Trieste",
        "IT",
        "motorized",
        "XX",
        "4-6 3-6 2-6 1-6",
        0,
        17,
        {},
    ),
    ("it_gf", "Giovani Fascisti Regiment", "IT", "infantry", "III", "2-5 1-5", 0, 21, {}),
    ("ge_90", "90th Light Division", "GE", "motorized", "XX", "5-7 4-7 3-7 2-7", 0, 23, {}),
    ("ge_288", "Sonderverband 288", "GE", "motorized", "III", "2-7 1-7", 0, 30, {}),
    (
        "it_133",
        "133rd Armoured Division Littorio",
        "IT",
        "armor",
        "XX",
        "5-6 4-6 3-6 2-6",
        1,
        35,
        {},
    ),
    (
        "it_185",
        "185th Parachute Division Folgore",
        "IT",
        "parachute",
        "XX",
        "4-5 3-5 2-5",
        0,
        40,
        {},
    ),
    ("ge_164", "164th Light Division", "GE", "motorized", "XX", "5-6 4-6 3-6 2-6", 0, 40, {}),
    ("ge_ramcke", "Ramcke Parachute Brigade", "GE", "parachute", "X", "2-6 1-6", 0, 41, {}),
]
#: armour replacements on the first turn of these months (10.0): turn -> count
ARMOUR_REPLACEMENTS = {
    "allied": {
        3: 1,
        11: 1,
        19: 1,
        21: 1,
        23: 2,
        25: 1,
        29: 1,
        33: 1,
        37: 2,
        41: 2,
        43: 2,
        45: 2,
        47: 1,
    },
    "axis_german": {11: 1, 15: 1, 19: 1, 25: 1, 29: 1, 33: 1, 37: 1, 43: 1},
    "axis_italian": {9: 1, 21: 1, 31: 1, 39: 1},
}
#: markers of 2.5 and 18.0 (the air units are counted from the turn record track)
MARKERS = {
    "turn": 1,
    "fuel": 1,
    "minefield": 16,
    "initiative": 1,
    "tactical_advantage": 1,
    "maximum_effort": 2,
    "determined_defense": 2,
    "event_chit": 14,
    "arrival_delayed": 4,
}
COUNTER_TOTAL = 176  # 2.1 (L56)


def _unit(side: str, row: tuple, place_hex: dict[str, str]) -> dict:
    uid, name, nat, kind, size, steps, armour, where, more = row
    u: dict = {
        "id": uid,
        "name": name,
        "side": side,
        "nationality": nat,
        "type": kind,
        "size": size,
        "steps": steps.split(),
    }
    if armour:
        u["armour_steps"] = armour
    if isinstance(where, int):
        u["entry"] = {"turn": where}
        if "entry_step" in more:
            u["entry"]["step"] = more["entry_step"]
    elif where.startswith("@"):
        u["setup"] = {"hex": place_hex[where[1:]], "place": where[1:]}
    elif where.startswith("code:"):
        u["setup"] = {"code": where[5:]}
    else:
        u["entry"] = {"rule": where}
    for key in ("parent", "components", "withdrawals"):
        if key in more:
            u[key] = more[key]
    return u


def build_oob(place_hex: dict[str, str], turns_air: list[tuple[int, int]]) -> dict:
    units = [_unit("allied", r, place_hex) for r in ALLIED]
    units += [_unit("axis", r, place_hex) for r in AXIS]
    unit_counters = sum((len(u["steps"]) + 1) // 2 for u in units)
    air = {"allied": max(a for a, _ in turns_air), "axis": max(x for _, x in turns_air)}
    markers = dict(MARKERS)
    markers["air_allied"] = air["allied"]
    markers["air_axis"] = air["axis"]
    spare = COUNTER_TOTAL - unit_counters - sum(markers.values())
    replacements = {"allied": spare - spare // 2, "axis": spare // 2}
    return {
        "header": header(
            "oob",
            "The African Campaign orders of battle (reconstruction)",
            "Both sides' units with their step ladders, set-up, reinforcements, withdrawals, "
            "breakdowns, armour replacements and the counter mix, from the historical forces "
            "of December 1940 to December 1942 and every unit fact the rulebook gives.",
            [
                f"{RULEBOOK}: units of 2.4.2 (L86, L90), 7.2 (L337), 8.4 (L419), 9.7 (L509), "
                "9.10.1 (L533), 10.5 (L565), 11.4 (L593), 11.5 (L599), errata (L989, L992), "
                "stacking example (L250), 176 counters (L56)",
                "tools/tac_pack.py: the historical order of battle (Italian 10th Army and "
                "Western Desert Force, December 1940; arrivals and departures to December 1942)",
            ],
        ),
        "location_codes": LOCATION_CODES,
        "units": units,
        "armour_replacements": {
            k: {str(t): n for t, n in v.items()} for k, v in ARMOUR_REPLACEMENTS.items()
        },
        "counter_mix": {
            "total": COUNTER_TOTAL,
            "unit_counters": unit_counters,
            "replacement_counters": replacements,
            "markers": markers,
        },
    }


def dump(obj: dict) -> str:
    """JSON with each list item (hex, unit, turn...) on a line of its own."""

    def inner(value: object, indent: str) -> str:
        if isinstance(value, dict) and indent.count(" ") < 4:
            items = [
                f"{indent} {json.dumps(k)}: {inner(v, indent + ' ')}" for k, v in value.items()
            ]
            return "{\n" + ",\n".join(items) + f"\n{indent}}}" if items else "{}"
        if isinstance(value, list) and value and isinstance(value[0], (dict, list)):
            items = [f"{indent} {json.dumps(v, ensure_ascii=False)}" for v in value]
            return "[\n" + ",\n".join(items) + f"\n{indent}]"
        return json.dumps(value, ensure_ascii=False)

    return inner(obj, "") + "\n"


def build_all() -> dict[str, dict]:
    mp = build_map()
    tables = build_tables()
    air = [(a, x) for _f, _l, a, x in AIR]
    oob = build_oob(PLACE_HEX, air)
    turns = build_turns(oob["units"])
    return {"map": mp, "tables": tables, "turns": turns, "oob": oob}


def write() -> dict[str, dict]:
    packs = build_all()
    OUT.mkdir(parents=True, exist_ok=True)
    for name, data in packs.items():
        (OUT / f"{name}.json").write_text(dump(data), encoding="utf-8")
    return packs


# ------------------------------------------------------------------------------------
# A quick look
# ------------------------------------------------------------------------------------


def show(m: dict) -> str:
    glyph = {"sea": "~", "offmap": "#", "clear": ".", "ridge": "^", "plateau": "="}
    t = {h["id"]: h for h in m["hexes"]}
    road = {h for r in m["roads"] for h in r["hexes"]}
    lines = []
    for row in range(FIRST_ROW, LAST_ROW + 1):
        s = " " if row % 2 == 0 else ""
        for col in range(FIRST_COL, LAST_COL + 1):
            h = t[hid(row, col)]
            g = glyph[h["terrain"]]
            if h["id"] in road and g in ".=":
                g = "+"
            if "city" in h.get("features", []):
                g = "C"
            if "pass" in h.get("features", []):
                g = "P"
            s += g + " "
        lines.append(f"{row:02d} {s}")
    return "\n".join(lines)


if __name__ == "__main__":
    written = write()
    if "--show" in sys.argv:
        print(show(written["map"]))
