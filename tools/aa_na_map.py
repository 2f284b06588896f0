"""Rasterise North Africa and the Mediterranean into the Axis & Allies: North Africa space map.

    pip install global-land-mask      # authoring time only: the GLOBE 1 km land mask
    .venv/bin/python tools/aa_na_map.py [--preview out.png]

Writes ``renderer/data/aa-na-map.json`` in the format of ``renderer/data/aa-revised-map.json``
(see ``tools/aa_worldmap.py``): a raster in which every pixel holds the 1-based number of
its space in the board's order, ``0`` for water out of play (the Red Sea, the Black Sea, the
Bay of Biscay) and ``254`` for land out of play (Spain, France, the Balkans, Turkey, the
Levant, the deep Sahara), zlib-compressed in base64, with each space's label point.

Where the geography comes from (provenance: reconstruction; the rulebook prints no map):

- land and sea: the GLOBE land mask (NOAA's public-domain 30" elevation grid, as the
  ``global-land-mask`` package ships it), sampled at each pixel's centre;
- the countries of 1940 (French Morocco and its Spanish zone, Algeria, Tunisia, Libya,
  Egypt, Italy, Greece, Sardinia, Sicily, Crete) as polygons authored here from their
  real borders, a few points each, cut off where the game's territories end (the deep
  Sahara of Morocco and Algeria, Upper Egypt); land outside every one is out of play;
- each territory: the country's land nearest the territory's point in the board pack
  (``lat``/``lon``) or one of the extra points in ``EXTRA_SEEDS`` here;
- each sea zone: the sea in play nearest its pack point or an extra point; the sea in play
  is the water joined to the open Mediterranean, less the waters in ``OUT_WATERS``;
- Malta and Gibraltar, too small at this scale, as discs;
- the convoy sea zones as boxes (RULINGS: convoy zones are spaces of their own, the UK
  routes boxes off the map): each port's box on the water off its port, the Atlantic,
  Indian Ocean and Suez boxes at the map's edges.

The projection is equirectangular, longitude scaled by cos(34 deg) so that shapes near the
middle of the map keep their proportions.
"""

from __future__ import annotations

import argparse
import base64
import hashlib
import json
import sys
import zlib
from pathlib import Path

import numpy as np
from PIL import Image, ImageDraw

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine.games.aa_na.pack import load_board  # noqa: E402
from tools.aa_worldmap import label_points, preview  # noqa: E402

OUT = ROOT / "renderer" / "data" / "aa-na-map.json"
#: the map's extent in degrees
WEST, EAST, SOUTH, NORTH = -15.5, 37.0, 22.5, 45.0
BASE_WIDTH = 1600
MID_LAT = 34.0
#: raster values that are no space
WATER_OUT, LAND_OUT = 0, 254

LatLon = tuple[float, float]

#: the countries in play, as (lat, lon) polygons that may run out to sea; only their land
#: counts. Borders follow the real ones of 1940 through their main turning points.
_MOROCCO_ALGERIA: list[LatLon] = [
    (35.1, -2.2),
    (34.7, -1.75),
    (34.0, -1.7),
    (33.2, -1.6),
    (32.5, -1.2),
    (32.1, -1.2),
    (31.4, -3.6),
    (30.4, -4.8),
    (29.9, -6.5),
    (29.3, -8.7),
]
_SPANISH_ZONE_SOUTH: list[LatLon] = [
    (35.15, -6.6),
    (34.85, -5.6),
    (34.85, -4.0),
    (35.0, -3.0),
    (34.85, -1.92),
]
_ALGERIA_TUNISIA: list[LatLon] = [
    (37.6, 8.62),
    (36.95, 8.62),
    (36.4, 8.3),
    (35.5, 8.35),
    (34.9, 8.2),
    (34.5, 7.8),
    (34.1, 7.6),
    (33.0, 7.7),
    (32.0, 8.3),
    (31.8, 10.57),
]
#: south of about 31.8N the Grand Erg Oriental spills over into Tunisia: the game's
#: territory takes that tip (the pack borders Mareth on it, and Fezzan, not Tripoli)
_ALGERIA_LIBYA: list[LatLon] = [(31.8, 10.57), (31.3, 10.25), (30.25, 9.55), (28.5, 9.9)]
_TUNISIA_LIBYA: list[LatLon] = [
    (31.8, 10.57),
    (32.0, 10.7),
    (32.6, 11.45),
    (33.17, 11.56),
]
_LIBYA_EGYPT: list[LatLon] = [(33.5, 25.15), (31.6, 25.15), (22.0, 25.0)]

REGIONS: dict[str, list[LatLon]] = {
    # the Spanish zone is drawn out to the Algerian border, as the pack's borders with
    # Casablanca and Oran have it (reconstruction)
    "spanish_morocco": [(35.93, -6.6), *_SPANISH_ZONE_SOUTH, (35.1, -2.2), (35.93, -2.2)],
    "morocco": [
        (35.5, -11.5),
        *_SPANISH_ZONE_SOUTH,
        *_MOROCCO_ALGERIA,
        (29.0, -8.7),
        (29.0, -12.0),
    ],
    "algeria": [
        (37.6, -2.2),
        *_MOROCCO_ALGERIA,
        (28.5, -8.7),
        *reversed(_ALGERIA_LIBYA),
        *reversed(_ALGERIA_TUNISIA),
    ],
    "tunisia": [
        *_ALGERIA_TUNISIA,
        *_TUNISIA_LIBYA[1:],
        (34.0, 11.7),
        (37.6, 11.7),
    ],
    "libya": [
        *reversed(_TUNISIA_LIBYA),
        *_ALGERIA_LIBYA[1:],
        (26.2, 10.0),
        (24.3, 10.3),
        (22.0, 11.9),
        (22.0, 25.0),
        (31.6, 25.15),
        (33.8, 25.15),
        (33.8, 11.6),
    ],
    "egypt": [
        (33.0, 25.15),
        (22.0, 25.0),
        (22.0, 29.5),
        (27.0, 29.5),
        (27.0, 34.0),
        (29.9, 32.6),
        (31.3, 32.35),
        (32.6, 32.3),
        (32.6, 25.15),
    ],
    "italy": [
        (45.5, 6.6),
        (44.1, 7.65),
        (43.7, 7.6),
        (43.55, 9.9),
        (42.2, 10.6),
        (40.6, 12.6),
        (39.0, 15.2),
        (38.3, 15.64),
        (38.0, 15.6),
        (37.5, 16.5),
        (38.5, 18.0),
        (39.6, 18.8),
        (40.4, 19.1),
        (41.5, 18.0),
        (42.5, 16.3),
        (43.4, 15.0),
        (44.3, 13.6),
        (45.5, 13.7),
    ],
    "sicily": [
        (38.35, 11.9),
        (38.35, 15.6),
        (38.3, 15.64),
        (38.0, 15.6),
        (37.5, 15.4),
        (36.55, 15.3),
        (36.55, 11.9),
    ],
    "sardinia": [(41.31, 7.9), (41.31, 10.2), (38.7, 10.2), (38.7, 7.9)],
    "greece": [
        (39.65, 20.0),
        (40.1, 20.65),
        (40.85, 21.0),
        (41.1, 22.0),
        (41.3, 23.0),
        (41.6, 24.5),
        (41.7, 26.1),
        (40.8, 26.05),
        (38.0, 26.0),
        (36.1, 26.0),
        (36.1, 21.0),
        (38.5, 19.6),
    ],
    "crete": [(35.8, 23.3), (35.8, 26.5), (34.75, 26.5), (34.75, 23.3)],
}
#: which pack region or island each territory's land is taken from
REGION_OF_ISLAND = {"sardinia": "sardinia", "sicily": "sicily", "crete": "crete"}
#: spaces too small for the raster at this scale: a disc (lat, lon, radius in pixels)
DISCS: dict[str, tuple[float, float, float]] = {
    "malta": (35.92, 14.38, 7.0),
    "gibraltar": (36.13, -5.35, 6.0),
}
#: waters joined to the sea that are out of play, as polygons
OUT_WATERS: list[list[LatLon]] = [
    [(45.5, -16.0), (45.5, -1.0), (38.8, -1.0), (38.8, -16.0)],  # Portugal's coast, Biscay
    [(45.5, 26.2), (45.5, 37.5), (40.25, 37.5), (40.25, 26.2)],  # Marmara, the Black Sea
    [(30.2, 32.1), (30.2, 37.5), (22.0, 37.5), (22.0, 32.1)],  # the Gulf of Suez, Red Sea
]
#: more points for the nearest-point rule, where the pack's one point alone draws a
#: territory or a sea zone out of its real shape
EXTRA_SEEDS: dict[str, list[LatLon]] = {
    "cairo": [(28.0, 31.0), (30.9, 31.2)],
    "el_alamein": [(30.1, 29.6)],
    "great_sand_sea": [(24.0, 27.5), (28.2, 29.0)],
    "kufra": [(23.0, 22.0), (28.0, 24.3)],
    "fezzan": [(24.5, 12.5), (30.4, 10.6), (28.5, 10.8)],
    "misurata": [(30.4, 15.0)],
    "zella": [(28.4, 19.8)],
    "agedabia": [(29.6, 21.4), (29.6, 22.3)],
    "benghazi": [(31.6, 21.3)],
    "tobruk": [(31.85, 24.85)],
    "bir_hacheim": [(31.0, 24.2), (30.3, 24.6)],
    "ghardaia": [(29.3, 3.0)],
    "laghouat": [(34.8, 5.8)],
    "kasserine_pass": [(34.0, 8.3)],
    "grand_erg_oriental": [(29.5, 7.0), (32.8, 8.0)],
    "casablanca": [(34.5, -6.4), (34.95, -6.1)],
    "colomb_bechar": [(29.5, -2.5)],
    "marrakech": [(30.0, -9.0)],
    "italy": [(44.5, 10.5), (40.5, 16.0), (39.0, 16.5)],
    "greece": [(37.5, 22.3), (40.5, 23.0)],
    "sz2": [(31.0, -12.0), (36.5, -12.5)],
    "sz1": [(37.8, -10.5)],
    "sz7": [(43.0, 4.5)],
    "sz19": [(43.5, 15.0), (42.0, 17.5)],
    "sz26": [(39.5, 24.0)],
    "sz30": [(33.0, 34.0), (35.5, 33.0)],
}
#: convoy boxes: centre (lat, lon) and size in pixels (the three UK route boxes larger)
BOXES: dict[str, tuple[float, float, int, int]] = {
    "atlantic_ocean_csz": (29.2, -13.2, 92, 30),
    "casablanca_csz": (33.75, -9.5, 58, 26),
    "oran_csz": (36.2, -0.8, 58, 26),
    "algiers_csz": (37.35, 2.95, 58, 26),
    "tunis_csz": (37.75, 10.15, 52, 24),
    "malta_csz": (35.3, 14.95, 52, 24),
    "tripoli_csz": (33.45, 13.1, 58, 26),
    "benghazi_csz": (32.2, 18.85, 58, 26),
    "suez_canal_csz": (31.2, 33.9, 82, 30),
    "indian_ocean_csz": (27.3, 35.0, 82, 30),
}


def base_size() -> tuple[int, int]:
    kx = np.cos(np.radians(MID_LAT))
    return BASE_WIDTH, round(BASE_WIDTH * (NORTH - SOUTH) / ((EAST - WEST) * kx))


def to_pixels(lat: float, lon: float, size: tuple[int, int]) -> tuple[float, float]:
    return (lon - WEST) / (EAST - WEST) * size[0], (NORTH - lat) / (NORTH - SOUTH) * size[1]


def polygon_mask(points: list[LatLon], size: tuple[int, int]) -> np.ndarray:
    img = Image.new("L", size, 0)
    ImageDraw.Draw(img).polygon([to_pixels(a, b, size) for a, b in points], fill=255)
    return np.asarray(img) > 0


def land_mask(size: tuple[int, int]) -> np.ndarray:
    try:
        from global_land_mask import globe
    except ImportError:
        raise SystemExit(
            "tools/aa_na_map.py needs the GLOBE land mask: pip install global-land-mask"
        ) from None
    w, h = size
    lons = WEST + (np.arange(w) + 0.5) / w * (EAST - WEST)
    lats = NORTH - (np.arange(h) + 0.5) / h * (NORTH - SOUTH)
    lon_grid, lat_grid = np.meshgrid(lons, lats)
    return np.asarray(globe.is_land(lat_grid, lon_grid), dtype=bool)


def open_sea(land: np.ndarray, size: tuple[int, int]) -> np.ndarray:
    """The water joined to the open Mediterranean (flood-filled from the Ionian Sea)."""
    img = Image.fromarray(np.where(land, 0, 255).astype(np.uint8)).copy()
    x, y = to_pixels(35.0, 18.0, size)
    ImageDraw.floodfill(img, (round(x), round(y)), 128)
    return np.asarray(img) == 128


def nearest(mask: np.ndarray, seeds: list[tuple[int, float, float]], out: np.ndarray) -> None:
    """Give each pixel of ``mask`` the value of its nearest seed (value, x, y)."""
    ys, xs = np.nonzero(mask)
    if not len(xs) or not seeds:
        return
    values = np.array([s[0] for s in seeds], dtype=np.uint8)
    sx = np.array([s[1] for s in seeds], dtype=np.float32)
    sy = np.array([s[2] for s in seeds], dtype=np.float32)
    best = np.full(len(xs), np.inf, dtype=np.float32)
    label = np.zeros(len(xs), dtype=np.uint8)
    for v, x, y in zip(values, sx, sy, strict=True):
        d = (xs + 0.5 - x) ** 2 + (ys + 0.5 - y) ** 2
        closer = d < best
        best[closer] = d[closer]
        label[closer] = v
    out[ys, xs] = label


def space_raster(board) -> np.ndarray:  # noqa: ANN001 - the A&A:NA pack's Board
    size = base_size()
    w, h = size
    number = {s.id: i + 1 for i, s in enumerate(board.pack.spaces)}
    land = land_mask(size)
    out = np.full((h, w), LAND_OUT, dtype=np.uint8)
    sea = open_sea(land, size)
    for water in OUT_WATERS:
        sea &= ~polygon_mask(water, size)
    out[~land] = WATER_OUT

    def seeds(sid: str) -> list[tuple[int, float, float]]:
        sp = board.spaces[sid]
        pts = [(sp.lat, sp.lon), *EXTRA_SEEDS.get(sid, [])]
        return [(number[sid], *to_pixels(a, b, size)) for a, b in pts]

    by_region: dict[str, list[str]] = {}
    for sp in board.pack.spaces:
        if sp.kind != "territory" or sp.id in DISCS:
            continue
        region = REGION_OF_ISLAND.get(sp.id) or (sp.id if sp.id in REGIONS else sp.region)
        by_region.setdefault(region, []).append(sp.id)
    for region, ids in by_region.items():
        if region not in REGIONS:
            raise SystemExit(f"no outline for region {region!r} ({', '.join(ids)})")
        mask = land & polygon_mask(REGIONS[region], size)
        # the Spanish zone is its own region; French Morocco must not take it again
        if region == "morocco":
            mask &= ~polygon_mask(REGIONS["spanish_morocco"], size)
        nearest(mask, [s for sid in ids for s in seeds(sid)], out)
    sea_ids = [s.id for s in board.pack.spaces if s.kind == "sea" and s.id not in BOXES]
    nearest(sea, [s for sid in sea_ids for s in seeds(sid)], out)
    img = Image.fromarray(out).copy()
    draw = ImageDraw.Draw(img)
    for sid, (lat, lon, r) in DISCS.items():
        x, y = to_pixels(lat, lon, size)
        draw.ellipse((x - r, y - r, x + r, y + r), fill=number[sid])
    for sid, (lat, lon, bw, bh) in BOXES.items():
        x, y = to_pixels(lat, lon, size)
        draw.rectangle(
            (round(x - bw / 2), round(y - bh / 2), round(x + bw / 2) - 1, round(y + bh / 2) - 1),
            fill=number[sid],
        )
    return np.asarray(img)


def fingerprint() -> str:
    """What the raster was made from: this script and the board's spaces."""
    h = hashlib.sha256(Path(__file__).read_bytes())
    h.update(json.dumps([s.id for s in load_board().pack.spaces]).encode())
    return h.hexdigest()[:16]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--preview", type=Path, help="also draw the spaces in colour here")
    args = parser.parse_args()
    board = load_board()
    ids = [s.id for s in board.pack.spaces]
    raster = Image.fromarray(space_raster(board))
    missing = [sid for i, sid in enumerate(ids, start=1) if raster.histogram()[i] == 0]
    if missing:
        raise SystemExit(f"spaces with no pixel: {', '.join(missing)}")
    data = {
        "about": "Generated by tools/aa_na_map.py from the GLOBE land mask and the outlines there; do not edit.",
        "fingerprint": fingerprint(),
        "width": raster.width,
        "height": raster.height,
        "spaces": ids,
        "labels": label_points(raster, ids),
        "raster": base64.b64encode(zlib.compress(raster.tobytes(), 9)).decode("ascii"),
    }
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps(data, separators=(",", ":")) + "\n", encoding="utf-8")
    print(f"{OUT}: {raster.width}x{raster.height}, {OUT.stat().st_size / 1024:.0f} KB")
    if args.preview:
        land = {s.id for s in board.pack.spaces if s.kind == "territory"}
        _preview(raster, ids, land, args.preview, board)


def _preview(raster: Image.Image, ids: list[str], land: set[str], path: Path, board) -> None:  # noqa: ANN001
    """The spaces in colour with the pack's points (tools/aa_worldmap.py's preview reads
    Revised's seeds, so the points are drawn here)."""
    import renderer.worldgeo as worldgeo

    saved = worldgeo.SEEDS
    worldgeo.SEEDS = {sid: [] for sid in ids}
    try:
        preview(raster, ids, land, path)
    finally:
        worldgeo.SEEDS = saved
    img = Image.open(path).convert("RGB")
    d = ImageDraw.Draw(img)
    for sp in board.pack.spaces:
        for lat, lon in [(sp.lat, sp.lon), *EXTRA_SEEDS.get(sp.id, [])]:
            x, y = to_pixels(lat, lon, raster.size)
            d.ellipse((x - 2, y - 2, x + 2, y + 2), fill=(200, 0, 0))
    img.save(path)


if __name__ == "__main__":
    main()
