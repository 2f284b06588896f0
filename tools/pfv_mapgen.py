"""Build the Patton's First Victory map pack from approximate real geography.

The rulebook text has no map, so ``engine/games/pfv/data/map.json`` is a reconstruction:
the coastline, salt marshes (chotts), ranges, rivers, roads and places below are the
author's own rough latitude/longitude approximations of Tunisia and eastern Algeria in
1943, projected with the calibration of the adjudication digest (004, section 3.4: Bone
36.90N 7.77E is hex 7607, Mareth 33.63N 10.30E is hex 8519, hexes flat-topped in columns,
odd columns half a hex lower) and snapped to hexes and hexsides:

- a hex is sea, marsh, mountain or hills by the share of sample points inside each area;
- a river or impassable line lies on every hexside whose centre-to-centre segment it
  crosses, which always gives an unbroken chain of hexsides;
- a road is the chain of hexes its polyline passes through, bridged where it crosses a
  river.

Run ``python tools/pfv_mapgen.py`` to rewrite the map (the output is deterministic), or
``python tools/pfv_mapgen.py --show`` to print an ASCII picture of it as well. Standard
library only, so it runs without the project installed.
"""

from __future__ import annotations

import json
import math
import sys
from collections.abc import Iterable, Sequence
from itertools import pairwise
from pathlib import Path

OUT = Path(__file__).resolve().parent.parent / "engine" / "games" / "pfv" / "data" / "map.json"

FIRST_COL, LAST_COL, FIRST_ROW, LAST_ROW = 72, 89, 3, 24
VERSION = "0.1"

LatLon = tuple[float, float]
Point = tuple[float, float]

# --------------------------------------------------------------------------------------
# Projection (digest 004, section 3.4): a local equirectangular fit on Bone and Mareth.
# --------------------------------------------------------------------------------------

_KM_PER_DEG_LON = 111.32 * math.cos(math.radians(35.27))
_COL_KM = 29.55 * 0.8660
_ROW_KM = 29.02
_KM_PER_DEG_LAT = 110.95
_HALF_ROOT3 = math.sqrt(3) / 2


def grid_position(lat: float, lon: float) -> tuple[float, float]:
    """Fractional (column, Y) where Y is the row measured on even columns."""
    col = 76 + (lon - 7.766) * _KM_PER_DEG_LON / _COL_KM
    y = 7 + (36.90 - lat) * _KM_PER_DEG_LAT / _ROW_KM
    return col, y


def plane(lat: float, lon: float) -> Point:
    """A point in grid space, where adjacent hex centres are one unit apart."""
    col, y = grid_position(lat, lon)
    return col * _HALF_ROOT3, y


def centre(col: int, row: int) -> Point:
    return col * _HALF_ROOT3, row + 0.5 * (col & 1)


def hex_id(col: int, row: int) -> str:
    return f"{col:02d}{row:02d}"


def parse(hex_: str) -> tuple[int, int]:
    return int(hex_[:2]), int(hex_[2:])


def hex_at(p: Point) -> str:
    """The hex whose centre is nearest to ``p`` (ties go to the lower id)."""
    col0 = round(p[0] / _HALF_ROOT3)
    best: tuple[float, str] | None = None
    for col in range(col0 - 1, col0 + 2):
        row0 = round(p[1] - 0.5 * (col & 1))
        for row in range(row0 - 1, row0 + 2):
            cx, cy = centre(col, row)
            d = (cx - p[0]) ** 2 + (cy - p[1]) ** 2
            key = (round(d, 12), hex_id(col, row))
            if best is None or key < best:
                best = key
    assert best is not None
    return best[1]


def neighbours(hex_: str) -> list[str]:
    """Same convention as engine/core/hexgrid.py (odd columns lower)."""
    c, r = parse(hex_)
    steps = (
        ((1, 0), (1, 1), (0, -1), (-1, 0), (-1, 1), (0, 1))
        if c & 1
        else ((1, -1), (1, 0), (0, -1), (-1, -1), (-1, 0), (0, 1))
    )
    return [hex_id(c + dc, r + dr) for dc, dr in steps]


def side_key(a: str, b: str) -> tuple[str, str]:
    return (a, b) if a < b else (b, a)


# --------------------------------------------------------------------------------------
# Geography: the author's approximations (latitude N, longitude E, degrees).
# --------------------------------------------------------------------------------------

#: The mainland, walked west to east along the coast, then closed far off the map.
MAINLAND: list[LatLon] = [
    (36.90, 6.00),
    (37.00, 6.40),
    (37.08, 6.47),  # Cap Bougaroun
    (36.99, 6.57),  # Collo
    (36.90, 6.75),
    (36.88, 6.91),  # Philippeville
    (36.93, 7.05),
    (37.08, 7.17),  # Cap de Fer
    (37.07, 7.38),
    (37.00, 7.55),
    (36.97, 7.79),  # Cap de Garde
    (36.90, 7.76),  # Bone
    (36.85, 7.80),
    (36.84, 7.95),
    (36.88, 8.10),
    (36.95, 8.24),  # Cap Rosa
    (36.90, 8.44),  # La Calle
    (36.94, 8.62),
    (36.96, 8.76),  # Tabarka
    (37.05, 8.95),
    (37.16, 9.10),
    (37.23, 9.21),  # Cap Serrat
    (37.20, 9.40),
    (37.25, 9.60),
    (37.34, 9.75),
    (37.34, 9.85),  # Cap Blanc
    (37.27, 9.87),  # Bizerte
    (37.25, 9.95),
    (37.27, 10.06),
    (37.17, 10.27),  # Cap Farina
    (37.06, 10.20),
    (36.95, 10.22),
    (36.88, 10.32),  # Carthage
    (36.80, 10.28),  # La Goulette
    (36.73, 10.35),  # Hammam Lif
    (36.70, 10.45),
    (36.84, 10.58),
    (36.95, 10.73),
    (37.05, 10.92),
    (37.08, 11.05),  # Cap Bon
    (36.85, 11.10),  # Kelibia
    (36.70, 11.00),
    (36.58, 10.86),  # Korba
    (36.45, 10.73),  # Nabeul
    (36.40, 10.62),  # Hammamet
    (36.30, 10.53),
    (36.15, 10.50),
    (36.03, 10.51),  # Hergla
    (35.92, 10.60),
    (35.83, 10.64),  # Sousse
    (35.77, 10.82),  # Monastir
    (35.65, 10.90),
    (35.62, 11.05),  # Ras Dimass
    (35.50, 11.07),  # Mahdia
    (35.23, 11.16),  # Chebba
    (35.05, 11.05),
    (34.90, 10.92),
    (34.74, 10.76),  # Sfax
    (34.60, 10.60),
    (34.53, 10.50),  # Mahares
    (34.40, 10.30),
    (34.30, 10.07),  # La Skhira
    (34.10, 10.05),
    (33.88, 10.11),  # Gabes
    (33.80, 10.18),
    (33.70, 10.36),  # Zarat
    (33.68, 10.55),
    (33.69, 10.75),  # Djorf
    (33.60, 10.72),
    (33.52, 10.68),  # Bou Grara
    (33.48, 10.80),
    (33.53, 10.93),
    (33.60, 10.98),  # El Kantara causeway
    (33.57, 11.07),
    (33.50, 11.12),  # Zarzis
    (33.40, 11.15),
    (33.25, 11.25),  # El Bibane
    (33.16, 11.56),  # Ras Ajdir
    (33.05, 11.85),
    (32.93, 12.08),  # Zuara
    (32.90, 12.60),
    (31.00, 12.60),
    (31.00, 5.50),
    (36.90, 5.50),
]

ISLANDS: dict[str, list[LatLon]] = {
    "Djerba": [
        (33.88, 10.78),
        (33.89, 10.90),
        (33.85, 11.00),
        (33.80, 11.07),
        (33.70, 11.05),
        (33.63, 10.97),
        (33.65, 10.85),
        (33.71, 10.74),
    ],
    "Kerkennah": [(34.70, 11.05), (34.78, 11.15), (34.88, 11.30), (34.80, 11.30), (34.68, 11.12)],
}

#: Salt marshes (chotts): prohibited terrain.
CHOTTS: dict[str, list[LatLon]] = {
    "Chott el Djerid": [
        (33.95, 7.98),
        (33.93, 8.30),
        (34.08, 8.55),
        (34.08, 8.85),
        (34.00, 9.05),
        (33.80, 9.00),
        (33.62, 8.92),
        (33.50, 8.75),
        (33.45, 8.45),
        (33.52, 8.18),
        (33.68, 7.98),
        (33.85, 7.92),
    ],
    "Chott el Gharsa": [(34.20, 7.70), (34.18, 8.10), (34.05, 8.20), (33.98, 7.95), (34.05, 7.70)],
    "Chott Melrhir": [(34.40, 5.80), (34.30, 6.45), (34.10, 6.85), (33.85, 6.70), (33.90, 6.20)],
}

#: The narrow Chott el Fedjadj, east of the Djerid: too thin for whole hexes, so its
#: length is drawn as impassable hexsides (it closes the Gabes gap to the Wadi Akarit).
IMPASSABLE_LINES: dict[str, list[LatLon]] = {
    "Chott el Fedjadj": [(33.95, 8.80), (33.95, 9.20), (33.95, 9.50), (33.95, 9.78)],
    "Aures crest (Djebel Chelia)": [(35.10, 6.35), (35.32, 6.63), (35.45, 6.95)],
}

#: Ranges as polylines with a half-width in km: (kind, half-width, points).
RANGES: dict[str, tuple[str, float, list[LatLon]]] = {
    "Aures": ("mountain", 24, [(35.05, 6.10), (35.30, 6.55), (35.45, 6.95)]),
    "Djebel Chambi": ("mountain", 10, [(35.12, 8.55), (35.22, 8.70)]),
    "Djebel Serj and Bargou": ("mountain", 9, [(35.90, 9.40), (36.10, 9.65)]),
    "Djebel Zaghouan": ("mountain", 6, [(36.36, 10.09), (36.39, 10.13)]),
    "Edough": ("hills", 8, [(36.92, 7.35), (36.96, 7.62)]),
    "Tell of Guelma": ("hills", 14, [(36.45, 6.65), (36.50, 7.05), (36.38, 7.40)]),
    "Medjerda mountains and Kroumirie": (
        "hills",
        15,
        [(36.25, 7.65), (36.45, 8.05), (36.72, 8.55), (36.92, 8.95)],
    ),
    "Mogods": ("hills", 12, [(36.92, 8.95), (37.05, 9.35), (37.02, 9.58)]),
    "Ouenza and Mellegue hills": ("hills", 10, [(35.80, 7.85), (36.10, 8.30)]),
    "Nemencha": ("hills", 16, [(35.05, 7.00), (35.18, 7.60), (35.20, 8.05)]),
    "High Tell of Le Kef and Maktar": (
        "hills",
        14,
        [(35.62, 8.55), (35.85, 8.80), (35.95, 9.10)],
    ),
    "Grand Dorsal": (
        "hills",
        14,
        [
            (35.10, 8.45),
            (35.25, 8.70),
            (35.40, 8.95),
            (35.55, 9.00),
            (35.80, 9.30),
            (36.05, 9.60),
            (36.30, 10.00),
            (36.60, 10.40),
            (36.95, 10.95),
        ],
    ),
    "Eastern Dorsal": (
        "hills",
        10,
        [(36.05, 9.78), (35.75, 9.72), (35.45, 9.66), (35.15, 9.64), (34.90, 9.62), (34.65, 9.52)],
    ),
    "Gafsa ranges": ("hills", 9, [(34.65, 8.45), (34.55, 8.85), (34.60, 9.25)]),
    "Djebel Orbata and Berda": ("hills", 9, [(34.40, 8.95), (34.30, 9.25), (34.18, 9.55)]),
    "Djebel Cherb": ("hills", 8, [(34.17, 8.45), (34.20, 9.00)]),
    "Djebel Tebaga": ("hills", 7, [(33.78, 9.10), (33.74, 9.65)]),
    "Matmata hills and Dahar": (
        "hills",
        14,
        [
            (33.60, 9.90),
            (33.45, 10.10),
            (33.20, 10.28),
            (32.95, 10.40),
            (32.55, 10.48),
            (32.10, 10.55),
        ],
    ),
}

#: Dune seas (the Grand Erg Oriental): rough going, drawn as hills.
DUNES: dict[str, list[LatLon]] = {
    "Grand Erg Oriental": [
        (33.62, 6.40),
        (33.62, 7.60),
        (33.40, 8.30),
        (33.28, 9.05),
        (32.90, 9.35),
        (32.00, 9.50),
        (32.00, 6.40),
    ],
}

#: Rivers, each from source to mouth.
RIVERS: dict[str, list[LatLon]] = {
    "Medjerda": [
        (36.22, 7.85),
        (36.30, 7.98),
        (36.45, 8.44),  # Ghardimaou
        (36.50, 8.78),  # Souk el Arba
        (36.61, 8.97),  # Souk el Khemis
        (36.55, 9.44),  # Testour
        (36.65, 9.61),  # Medjez el Bab
        (36.83, 9.84),  # Tebourba
        (36.87, 9.95),  # Djedeida
        (37.06, 10.14),
    ],
    "Oued Mellegue": [
        (35.62, 7.80),
        (35.85, 8.05),
        (36.02, 8.25),
        (36.15, 8.55),
        (36.30, 8.76),
        (36.48, 8.83),
    ],
    "Oued Siliana": [(36.00, 9.30), (36.20, 9.38), (36.52, 9.45)],
    "Oued Miliane": [(36.30, 9.85), (36.40, 9.95), (36.55, 10.10), (36.76, 10.27)],
    "Seybouse": [(36.15, 7.25), (36.46, 7.43), (36.60, 7.72), (36.80, 7.75), (36.87, 7.80)],
    "Wadi Akarit": [(33.99, 9.78), (33.96, 9.95), (33.99, 10.10)],
    "Wadi Zigzaou": [(33.42, 10.08), (33.55, 10.22), (33.61, 10.33), (33.69, 10.42)],
}

#: Villages and ports: (latitude, longitude, hex the digest proposes or None, features).
PLACES: dict[str, tuple[float, float, str | None, tuple[str, ...]]] = {
    # Algeria
    "Constantine": (36.36, 6.61, "7209", ("village", "airfield_allied")),
    "Philippeville": (36.88, 6.91, None, ("village",)),
    "Guelma": (36.46, 7.43, "7508", ("village",)),
    "Bone": (36.90, 7.77, "7607", ("village", "airfield_allied")),
    "La Calle": (36.90, 8.44, "7807", ("village",)),
    "Souk Ahras": (36.29, 7.95, "7709", ("village",)),
    "Ain Beida": (35.80, 7.39, None, ("village",)),
    "Khenchela": (35.43, 7.14, None, ("village",)),
    "Canrobert": (35.84, 7.12, None, ("village", "airfield_allied")),
    "Tebessa": (35.40, 8.12, "7712", ("village", "airfield_allied")),  # with Youks-les-Bains
    "Le Kouif": (35.52, 8.31, None, ("airfield_allied",)),
    "Bir el Ater": (34.74, 8.06, None, ("village",)),
    "El Oued": (33.37, 6.86, None, ("village",)),
    # Northern Tunisia
    "Tabarka": (36.96, 8.76, "8007", ("village",)),
    "Sedjenane": (37.06, 9.24, None, ("village",)),
    "Bizerte": (37.27, 9.87, "8305", ("port", "airfield_axis")),
    "Mateur": (37.04, 9.66, "8306", ("village",)),
    "Souk el Arba": (36.50, 8.78, "7908", ("village",)),
    "Souk el Khemis": (36.61, 8.97, None, ("village",)),
    "Beja": (36.73, 9.18, "8107", ("village",)),
    "Tebourba": (36.83, 9.84, None, ("village",)),
    "Medjez el Bab": (36.65, 9.61, "8208", ("village",)),
    "Tunis": (36.80, 10.18, "8507", ("port", "airfield_axis")),
    "Teboursouk": (36.46, 9.25, None, ("village",)),
    "Le Kef": (36.18, 8.71, "7909", ("village",)),
    "Siliana": (36.08, 9.37, None, ("village",)),
    "Pont du Fahs": (36.37, 9.90, "8409", ("village",)),
    "Kelibia": (36.85, 11.10, None, ("village",)),
    "Nabeul": (36.45, 10.73, None, ("village",)),
    "Hammamet": (36.40, 10.62, "8609", ("village",)),
    "Enfidaville": (36.13, 10.38, "8509", ("village",)),
    # Central Tunisia
    "Thala": (35.57, 8.67, "7912", ("village",)),
    "Sbiba": (35.55, 9.07, None, ("village",)),
    "Maktar": (35.86, 9.20, None, ("village",)),
    "Kasserine": (35.17, 8.83, "8014", ("village",)),
    "Sbeitla": (35.24, 9.13, "8113", ("village",)),
    "Feriana": (34.95, 8.57, "7914", ("village",)),
    "Hadjeb el Aioun": (35.39, 9.54, "8213", ("village",)),
    "Fondouk": (35.55, 9.66, None, ("village",)),
    "Kairouan": (35.68, 10.10, "8412", ("village", "airfield_axis")),
    "Sousse": (35.83, 10.64, "8611", ("port",)),
    "Monastir": (35.77, 10.83, None, ("village",)),
    "Mahdia": (35.50, 11.07, "8812", ("village",)),
    "El Djem": (35.30, 10.71, "8613", ("village",)),
    "Sidi Bou Zid": (35.04, 9.48, "8214", ("village",)),
    "Sfax": (34.74, 10.76, "8715", ("port", "airfield_axis")),
    # Southern Tunisia
    "Gafsa": (34.42, 8.78, "7916", ("village",)),
    "El Guettar": (34.34, 8.95, "8017", ("village",)),
    "Maknassy": (34.61, 9.60, None, ("village",)),
    "Mahares": (34.53, 10.50, None, ("village",)),
    "La Skhira": (34.30, 10.07, None, ("village",)),
    "Tozeur": (33.92, 8.13, "7718", ("village",)),
    "Kebili": (33.70, 8.97, "8019", ("village",)),
    "Douz": (33.46, 9.02, None, ("village",)),
    "El Hamma": (33.89, 9.80, "8318", ("village",)),
    "Gabes": (33.88, 10.10, "8419", ("port", "airfield_axis")),
    "Mareth": (33.63, 10.30, "8519", ("village",)),
    "Matmata": (33.54, 9.97, "8420", ("village",)),
    "Ksar Rhilane": (33.00, 9.64, None, ("village",)),
    "Medenine": (33.35, 10.50, "8621", ("village",)),
    "Tataouine": (32.93, 10.45, "8622", ("village",)),
    "Djerba": (33.87, 10.86, "8718", ("village",)),  # Houmt Souk
    "Zarzis": (33.50, 11.11, "8820", ("village",)),
    "Ben Gardane": (33.14, 11.22, "8821", ("village", "airfield_allied")),
}

#: Names for hexes that hold no village (passes, capes, battlefields).
LANDMARKS: dict[str, tuple[float, float, str | None]] = {
    "Kasserine Pass": (35.27, 8.72, None),
    "Faid Pass": (34.95, 9.68, "8314"),
    "Wadi Akarit": (34.05, 9.98, "8418"),
    "Cap Bon": (37.05, 11.01, None),
    "Tebaga Gap": (33.68, 9.55, None),
    "Ras Ajdir": (33.15, 11.50, "8921"),
}

#: Extra terrain fixed by history rather than by area: the Mareth Line and Wadi Akarit.
FORTIFIED = ("8519", "8418")

#: Set-up crests (PFV 5): the 8th Army hexes the rulebook lists, and II Corps hexes at
#: Feriana, Kasserine and Sbeitla, where II Corps stood in February 1943.
CREST_8TH_ARMY = ("8720", "8721", "8722", "8723", "8820", "8822")
CREST_II_CORPS = ("7914", "8014", "8113")

#: Roads: each is a list of place names or (lat, lon) waypoints.
ROADS: dict[str, list[str | LatLon]] = {
    "Coast road, Tunis to Libya": [
        "Tunis",
        (36.73, 10.34),
        (36.60, 10.50),
        (36.30, 10.45),
        "Enfidaville",
        (35.96, 10.47),
        "Sousse",
        (35.73, 10.58),
        "El Djem",
        "Sfax",
        "Mahares",
        "La Skhira",
        (34.05, 10.02),
        "Gabes",
        "Mareth",
        "Medenine",
        "Ben Gardane",
        (33.15, 11.50),
    ],
    "Bone to Sfax by Tebessa and Kasserine": [
        "Bone",
        (36.47, 7.73),
        "Souk Ahras",
        (36.08, 7.82),
        (35.67, 8.01),
        "Tebessa",
        (35.30, 8.40),
        "Kasserine Pass",
        "Kasserine",
        "Sbeitla",
        "Faid Pass",
        (34.73, 10.09),
        "Sfax",
    ],
    "Tebessa to Gabes by Gafsa": [
        "Tebessa",
        (35.17, 8.45),
        (35.05, 8.50),
        "Feriana",
        "Gafsa",
        "El Guettar",
        (34.28, 9.30),
        (34.12, 9.80),
        (34.05, 10.02),
    ],
    "Kasserine to Tunis by Thala and Le Kef": [
        "Kasserine Pass",
        "Thala",
        "Le Kef",
        "Teboursouk",
        "Medjez el Bab",
        (36.72, 9.90),
        "Tunis",
    ],
    "Tunis to Sbeitla by Kairouan": [
        "Tunis",
        "Pont du Fahs",
        (35.95, 10.00),
        "Kairouan",
        "Hadjeb el Aioun",
        "Sbeitla",
    ],
    "Bizerte to Tunis by Mateur": ["Bizerte", "Mateur", (36.87, 9.93), "Tunis"],
    "Bone to Constantine": ["Bone", (36.60, 7.55), "Guelma", (36.40, 7.00), "Constantine"],
    "Constantine to Tebessa": ["Constantine", "Ain Beida", (35.63, 7.67), "Tebessa"],
    "Souk Ahras to Medjez el Bab by the Medjerda valley": [
        "Souk Ahras",
        (36.45, 8.44),
        "Souk el Arba",
        "Souk el Khemis",
        "Beja",
        "Medjez el Bab",
    ],
    "Bone to Mateur by the coast": [
        "Bone",
        (36.84, 8.10),
        "La Calle",
        (36.85, 8.60),
        "Tabarka",
        "Sedjenane",
        "Mateur",
    ],
    "Beja to Mateur": ["Beja", (36.90, 9.40), "Mateur"],
    "Le Kef to Souk el Arba": ["Le Kef", "Souk el Arba"],
    "Sousse to Kairouan": ["Sousse", "Kairouan"],
    "Gafsa to Sfax by Maknassy": ["Gafsa", (34.53, 9.25), "Maknassy", (34.58, 9.85), "Sfax"],
    "Medenine to Tataouine": ["Medenine", "Tataouine"],
    "Gabes to Kebili by El Hamma": ["Gabes", "El Hamma", (33.70, 9.40), "Kebili"],
    "Tozeur to Gafsa": ["Tozeur", (34.25, 8.45), "Gafsa"],
}

#: Regions: Tunisia and Libya as polygons; any other land hex is Algeria.
TUNISIA: list[LatLon] = [
    (37.60, 8.62),
    (36.94, 8.62),
    (36.80, 8.58),
    (36.65, 8.45),
    (36.50, 8.42),
    (36.40, 8.40),
    (36.25, 8.33),
    (36.10, 8.28),
    (35.90, 8.28),
    (35.75, 8.30),
    (35.55, 8.36),
    (35.35, 8.38),
    (35.20, 8.42),
    (35.00, 8.35),
    (34.80, 8.25),
    (34.60, 8.05),
    (34.40, 7.85),
    (34.20, 7.62),
    (34.00, 7.55),
    (33.75, 7.52),
    (33.50, 7.65),
    (33.00, 7.98),
    (32.50, 8.25),
    (31.50, 8.80),
    (31.50, 10.80),
    (32.05, 10.80),
    (32.35, 11.05),
    (32.60, 11.30),
    (32.90, 11.48),
    (33.16, 11.56),
    (33.60, 12.00),
    (37.60, 12.00),
]
LIBYA: list[LatLon] = [
    (33.16, 11.56),
    (32.90, 11.48),
    (32.60, 11.30),
    (32.35, 11.05),
    (32.05, 10.80),
    (31.00, 10.80),
    (31.00, 13.00),
    (33.60, 13.00),
    (33.60, 12.00),
]

# Thresholds on the share of a hex's sample points.
LAND_SHARE = 0.45  # below: sea (unless a place forces land)
MARSH_SHARE = 0.45  # of the land samples
RELIEF_SHARE = 0.35  # of the land samples, for mountain and for hills


# --------------------------------------------------------------------------------------
# Geometry in grid space.
# --------------------------------------------------------------------------------------


def project(points: Iterable[LatLon]) -> list[Point]:
    return [plane(lat, lon) for lat, lon in points]


class Polygon:
    def __init__(self, points: Sequence[LatLon]) -> None:
        self.pts = project(points)
        xs = [p[0] for p in self.pts]
        ys = [p[1] for p in self.pts]
        self.box = (min(xs), min(ys), max(xs), max(ys))

    def contains(self, p: Point) -> bool:
        x, y = p
        if not (self.box[0] <= x <= self.box[2] and self.box[1] <= y <= self.box[3]):
            return False
        inside = False
        pts = self.pts
        j = len(pts) - 1
        for i in range(len(pts)):
            xi, yi = pts[i]
            xj, yj = pts[j]
            if (yi > y) != (yj > y) and x < (xj - xi) * (y - yi) / (yj - yi) + xi:
                inside = not inside
            j = i
        return inside


class Band:
    """The points within ``half_width_km`` of a polyline."""

    def __init__(self, points: Sequence[LatLon], half_width_km: float) -> None:
        self.pts = project(points)
        self.width = half_width_km / _ROW_KM
        xs = [p[0] for p in self.pts]
        ys = [p[1] for p in self.pts]
        w = self.width
        self.box = (min(xs) - w, min(ys) - w, max(xs) + w, max(ys) + w)

    def contains(self, p: Point) -> bool:
        x, y = p
        if not (self.box[0] <= x <= self.box[2] and self.box[1] <= y <= self.box[3]):
            return False
        return any(_segment_distance(p, a, b) <= self.width for a, b in pairwise(self.pts))


def _segment_distance(p: Point, a: Point, b: Point) -> float:
    ax, ay = a
    dx, dy = b[0] - ax, b[1] - ay
    length2 = dx * dx + dy * dy
    t = 0.0 if length2 == 0 else max(0.0, min(1.0, ((p[0] - ax) * dx + (p[1] - ay) * dy) / length2))
    return math.hypot(p[0] - ax - t * dx, p[1] - ay - t * dy)


def _cross(o: Point, a: Point, b: Point) -> float:
    return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])


def segments_cross(p1: Point, p2: Point, q1: Point, q2: Point) -> bool:
    d1 = _cross(q1, q2, p1)
    d2 = _cross(q1, q2, p2)
    d3 = _cross(p1, p2, q1)
    d4 = _cross(p1, p2, q2)
    return (d1 > 0) != (d2 > 0) and (d3 > 0) != (d4 > 0) and d1 != 0 and d2 != 0


def _sample_offsets(step: float = 0.1) -> list[Point]:
    """Points of a square lattice inside a hex of unit width between flats."""
    out = []
    n = int(0.6 / step) + 1
    for i in range(-n, n + 1):
        for j in range(-n, n + 1):
            dx, dy = i * step, j * step
            if abs(dy) <= 0.5 and math.sqrt(3) * abs(dx) + abs(dy) <= 1.0:
                out.append((dx, dy))
    return out


# --------------------------------------------------------------------------------------
# Building the map.
# --------------------------------------------------------------------------------------


def all_hexes() -> list[str]:
    return [
        hex_id(c, r) for c in range(FIRST_COL, LAST_COL + 1) for r in range(FIRST_ROW, LAST_ROW + 1)
    ]


def place_hexes() -> tuple[dict[str, str], list[str]]:
    """``{hex: place name}`` for villages, ports and landmarks; and any disagreements."""
    out: dict[str, str] = {}
    errors = []
    for name, (lat, lon, expected, *_) in [*PLACES.items(), *LANDMARKS.items()]:
        got = hex_at(plane(lat, lon))
        if expected is not None and got != expected:
            errors.append(f"{name} projects to {got}, not {expected}")
        if got in out:
            errors.append(f"{name} and {out[got]} share hex {got}")
        out[got] = name
    return out, errors


def classify() -> dict[str, dict]:
    """Terrain and region of every hex from the sampled areas."""
    land = [Polygon(MAINLAND), *(Polygon(p) for p in ISLANDS.values())]
    marsh = [Polygon(p) for p in CHOTTS.values()]
    dunes = [Polygon(p) for p in DUNES.values()]
    mountains = [Band(pts, w) for kind, w, pts in RANGES.values() if kind == "mountain"]
    hills = [Band(pts, w) for kind, w, pts in RANGES.values() if kind == "hills"]
    tunisia, libya = Polygon(TUNISIA), Polygon(LIBYA)
    offsets = _sample_offsets()
    places, _ = place_hexes()
    out: dict[str, dict] = {}
    for h in all_hexes():
        cx, cy = centre(*parse(h))
        counts = {"land": 0, "marsh": 0, "mountain": 0, "hills": 0}
        regions = {"algeria": 0, "tunisia": 0, "libya": 0}
        for dx, dy in offsets:
            p = (cx + dx, cy + dy)
            if not any(poly.contains(p) for poly in land):
                continue
            counts["land"] += 1
            if any(m.contains(p) for m in marsh):
                counts["marsh"] += 1
            if any(m.contains(p) for m in mountains):
                counts["mountain"] += 1
            elif any(b.contains(p) for b in hills) or any(d.contains(p) for d in dunes):
                counts["hills"] += 1
            region = (
                "tunisia" if tunisia.contains(p) else "libya" if libya.contains(p) else "algeria"
            )
            regions[region] += 1
        n_land = counts["land"]
        is_land = n_land / len(offsets) >= LAND_SHARE or h in places
        if not is_land:
            out[h] = {"terrain": ["sea"], "region": None}
            continue
        share = {k: v / max(n_land, 1) for k, v in counts.items()}
        if share["marsh"] >= MARSH_SHARE and h not in places:
            terrain = ["marsh"]
        elif share["mountain"] >= RELIEF_SHARE:
            terrain = ["mountain"]
        elif share["mountain"] + share["hills"] >= RELIEF_SHARE:
            terrain = ["hills"]
        else:
            terrain = ["open"]
        if n_land:
            region = max(regions, key=lambda k: (regions[k], k == "algeria"))
        else:
            pc = (cx, cy)
            region = (
                "tunisia" if tunisia.contains(pc) else "libya" if libya.contains(pc) else "algeria"
            )
        out[h] = {"terrain": terrain, "region": region}
    return out


def drop_islets(cells: dict[str, dict]) -> list[str]:
    """Turn land hexes cut off from the mainland into sea; returns the ones changed."""
    land = {h for h, c in cells.items() if c["terrain"] != ["sea"]}
    start = "7607"
    seen = {start}
    todo = [start]
    while todo:
        h = todo.pop()
        for n in neighbours(h):
            if n in land and n not in seen:
                seen.add(n)
                todo.append(n)
    dropped = sorted(land - seen)
    for h in dropped:
        cells[h] = {"terrain": ["sea"], "region": None}
    return dropped


def line_sides(points: Sequence[LatLon], cells: dict[str, dict]) -> set[tuple[str, str]]:
    """Hexsides between land hexes whose centre-to-centre segment the line crosses."""
    pts = project(points)
    out = set()
    for h in sorted(cells):
        if cells[h]["terrain"] == ["sea"]:
            continue
        a = centre(*parse(h))
        for n in neighbours(h):
            if n not in cells or n < h or cells[n]["terrain"] == ["sea"]:
                continue
            b = centre(*parse(n))
            if any(segments_cross(a, b, p, q) for p, q in pairwise(pts)):
                out.add(side_key(h, n))
    return out


def snap_road(
    waypoints: Sequence[str | LatLon], protected: set[str], passable: set[str]
) -> list[str]:
    """The chain of adjacent passable hexes along a road's waypoints.

    Where the polyline clips a sea or marsh hex, the chain stays in the hex before it;
    where it passes a hex corner, it steps through the nearer passable common neighbour.
    """
    coords: list[LatLon] = []
    for w in waypoints:
        if isinstance(w, str):
            lat, lon, *_ = PLACES.get(w) or LANDMARKS[w]
            coords.append((lat, lon))
        else:
            coords.append(w)
    pts = project(coords)
    chain = [hex_at(pts[0])]
    for a, b in pairwise(pts):
        steps = max(1, int(math.hypot(b[0] - a[0], b[1] - a[1]) / 0.04))
        for k in range(1, steps + 1):
            p = (a[0] + (b[0] - a[0]) * k / steps, a[1] + (b[1] - a[1]) * k / steps)
            h = hex_at(p)
            if h == chain[-1] or (h not in passable and k < steps):
                continue
            if h not in neighbours(chain[-1]):
                common = [n for n in neighbours(chain[-1]) if n in neighbours(h) and n in passable]
                if not common:
                    continue
                common.sort(key=lambda n: (math.dist(centre(*parse(n)), p), n))
                chain.append(common[0])
            chain.append(h)
    # cut loops that visit no named place, then corners that skip no named place
    out: list[str] = []
    for h in chain:
        if h in out and not protected & set(out[out.index(h) + 1 :]):
            del out[out.index(h) + 1 :]
        else:
            out.append(h)
    changed = True
    while changed:
        changed = False
        for i in range(1, len(out) - 1):
            if out[i] not in protected and out[i + 1] in neighbours(out[i - 1]):
                del out[i]
                changed = True
                break
    return out


def build() -> tuple[dict, list[str], list[str]]:
    """The map pack as a dict, notes on what the generator decided, and errors."""
    notes: list[str] = []
    _, errors = place_hexes()
    cells = classify()
    for h in drop_islets(cells):
        notes.append(f"{h}: land cut off from the mainland, drawn as sea")
    village_hexes = {
        hex_at(plane(lat, lon)): (name, feats) for name, (lat, lon, _, feats) in PLACES.items()
    }
    landmark_hexes = {hex_at(plane(lat, lon)): name for name, (lat, lon, _) in LANDMARKS.items()}

    sides: dict[tuple[str, str], set[str]] = {}
    for name, pts in RIVERS.items():
        found = line_sides(pts, cells)
        if not found:
            notes.append(f"river {name}: crosses no hexside between land hexes")
        for key in found:
            sides.setdefault(key, set()).add("river")
    for name, pts in IMPASSABLE_LINES.items():
        found = line_sides(pts, cells)
        if not found:
            notes.append(f"impassable line {name}: crosses no hexside between land hexes")
        for key in found:
            sides.setdefault(key, set()).add("impassable")

    roads = []
    passable = {h for h, c in cells.items() if c["terrain"][0] not in ("sea", "marsh")}
    for name, waypoints in ROADS.items():
        chain = snap_road(waypoints, set(village_hexes) | set(landmark_hexes), passable)
        for h in chain:
            if cells[h]["terrain"] in (["sea"], ["marsh"]):
                errors.append(f"road {name!r} runs through {h}, which is {cells[h]['terrain'][0]}")
        for a, b in pairwise(chain):
            if b not in neighbours(a):
                errors.append(f"road {name!r} jumps from {a} to {b}")
            key = side_key(a, b)
            feats = sides.get(key, set())
            if "impassable" in feats:
                errors.append(f"road {name!r} crosses the impassable hexside {a}|{b}")
            if "river" in feats:
                feats.add("bridge")
        roads.append(chain)

    hexes = []
    for h in all_hexes():
        cell = cells[h]
        terrain = list(cell["terrain"])
        entry: dict = {"id": h, "terrain": terrain, "region": cell["region"]}
        features: list[str] = []
        if h in village_hexes:
            name, feats = village_hexes[h]
            entry["name"] = name
            if "village" in feats or "port" in feats:
                terrain.append("village")
            features.extend(feats)
        elif h in landmark_hexes:
            entry["name"] = landmark_hexes[h]
        if h in FORTIFIED:
            terrain.append("fortified")
        if h in CREST_8TH_ARMY:
            features.append("crest_8th_army")
        if h in CREST_II_CORPS:
            features.append("crest_ii_corps")
        if features:
            entry["features"] = features
        hexes.append(entry)

    hexsides = [
        {"between": list(key), "features": sorted(feats)} for key, feats in sorted(sides.items())
    ]
    pack = {
        "header": {
            "game": "pfv",
            "name": "Patton's First Victory map (reconstruction)",
            "version": VERSION,
            "provenance": "reconstruction",
            "description": (
                "Tunisia and eastern Algeria, February-March 1943, rebuilt from approximate "
                "real geography by tools/pfv_mapgen.py because the rulebook text has no map. "
                "Only the hex numbers the rulebook cites are from the game; every other hex, "
                "and the terrain chart values other than open ground, rivers and roads, are "
                "reconstructions. Replace with a transcription of the printed map."
            ),
            "sources": [
                "Patton's First Victory: Tunisia 1943 rules (Decision Games, 2010): hexes 7607 "
                "Bone, 8306 Broich, 8519 Mareth, 8720-8723, 8820, 8822 8th Army, 8821 airbase; "
                "open 1 MP, river +3 MP, road 0.5 MP; 20 miles per hex",
                "Umpire digest 004 section 3.4: grid convention, calibrated projection, proposed "
                "hex numbers for places, border and II Corps hexes",
                "tools/pfv_mapgen.py: the author's own latitude/longitude approximations of "
                "coast, chotts, ranges, rivers, roads and towns",
            ],
        },
        "grid": {
            "first_col": FIRST_COL,
            "last_col": LAST_COL,
            "first_row": FIRST_ROW,
            "last_row": LAST_ROW,
            "hex_miles": 20,
        },
        "regions": {"algeria": "Algeria", "tunisia": "Tunisia", "libya": "Libya"},
        "terrain": {
            "open": {"name": "Open ground", "mp": 1, "drm": 0},
            "hills": {"name": "Hills", "mp": 2, "drm": 1},
            "mountain": {"name": "Mountains", "mp": 3, "drm": 2},
            "marsh": {"name": "Salt marsh (chott)", "mp": None, "drm": 0},
            "village": {"name": "Village or port", "mp": 1, "drm": 1},
            "fortified": {"name": "Fortified line", "mp": 1, "drm": 2},
            "sea": {"name": "Sea", "mp": None, "drm": 0, "land": False},
        },
        "hexside_types": {
            "river": {"name": "River", "mp": 3, "drm": 1},
            "bridge": {"name": "Bridge", "mp": 0, "drm": 0},
            "impassable": {"name": "Impassable", "mp": None, "drm": 0},
        },
        "feature_types": {
            "village": {"name": "Village", "description": "non-air replacements (PFV 7)"},
            "port": {"name": "Port", "description": "one of the five victory ports (PFV 4)"},
            "airfield_allied": {"name": "Allied aircraft silhouette", "description": "PFV 5, 7"},
            "airfield_axis": {"name": "Axis aircraft silhouette", "description": "PFV 5, 7"},
            "crest_8th_army": {"name": "8th Army crest", "description": "set-up hex (PFV 5)"},
            "crest_ii_corps": {"name": "II Corps crest", "description": "set-up hex (PFV 5)"},
        },
        "hexes": hexes,
        "hexsides": hexsides,
        "roads": roads,
    }
    return pack, notes, errors


def dumps(pack: dict) -> str:
    """JSON with one hex, hexside or road per line, so errors point at a useful line."""
    lines = ["{"]
    keys = list(pack)
    for i, key in enumerate(keys):
        comma = "," if i < len(keys) - 1 else ""
        value = pack[key]
        if key in ("hexes", "hexsides", "roads"):
            lines.append(f"  {json.dumps(key)}: [")
            for j, item in enumerate(value):
                tail = "," if j < len(value) - 1 else ""
                lines.append("    " + json.dumps(item, ensure_ascii=False) + tail)
            lines.append("  ]" + comma)
        else:
            body = json.dumps(value, indent=2, ensure_ascii=False).replace("\n", "\n  ")
            lines.append(f"  {json.dumps(key)}: {body}{comma}")
    lines.append("}")
    return "\n".join(lines) + "\n"


def picture(pack: dict) -> str:
    """The map as text, odd columns on the half lines: terrain, region, then a mark.

    Terrain: ``~`` sea, ``.`` open, ``h`` hills, ``M`` mountains, ``#`` marsh. Region:
    ``a`` Algeria, ``t`` Tunisia, ``l`` Libya. Marks: ``P`` port, ``8`` or ``2`` a crest,
    ``+`` an airfield, ``v`` a village, ``=`` a road.
    """
    glyph = {"sea": "~", "open": ".", "hills": "h", "mountain": "M", "marsh": "#"}
    cells = {h["id"]: h for h in pack["hexes"]}
    road_hexes = {h for chain in pack["roads"] for h in chain}
    cols = range(FIRST_COL, LAST_COL + 1)
    out = ["      " + "".join(f"{c:<4d}" for c in cols)]
    for r in range(FIRST_ROW, LAST_ROW + 1):
        for half in (0, 1):
            row = []
            for c in cols:
                if (c & 1) != half:
                    row.append("    ")
                    continue
                h = cells[hex_id(c, r)]
                t = glyph[h["terrain"][0]]
                region = {"algeria": "a", "tunisia": "t", "libya": "l"}.get(h["region"], " ")
                feats = h.get("features", [])
                mark = (
                    "P"
                    if "port" in feats
                    else "8"
                    if "crest_8th_army" in feats
                    else "2"
                    if "crest_ii_corps" in feats
                    else "+"
                    if any(f.startswith("airfield") for f in feats)
                    else "v"
                    if "village" in feats
                    else "="
                    if h["id"] in road_hexes
                    else " "
                )
                row.append(f"{t}{region}{mark} ")
            out.append(f"{r:02d}{'+' if half else ' '}   " + "".join(row))
    return "\n".join(out)


def main(argv: list[str]) -> int:
    pack, notes, errors = build()
    if errors:
        if "--show" in argv:
            print(picture(pack))
        print("the geography tables have problems; nothing written:", file=sys.stderr)
        for error in errors:
            print("  " + error, file=sys.stderr)
        return 1
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(dumps(pack), encoding="utf-8")
    for note in notes:
        print("note:", note)
    land = sum(1 for h in pack["hexes"] if h["terrain"] != ["sea"])
    print(
        f"wrote {OUT}: {len(pack['hexes'])} hexes ({land} land), "
        f"{len(pack['hexsides'])} hexsides, {len(pack['roads'])} roads"
    )
    if "--show" in argv:
        print(picture(pack))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
