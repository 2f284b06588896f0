"""Rasterise the authored world of ``renderer/worldgeo.py`` into the A&A Revised space map.

    .venv/bin/python tools/aa_worldmap.py [--preview out.png]

Writes ``renderer/data/aa-revised-map.json``: a raster ``width`` x ``height`` pixels in
which every pixel holds the number of the space it belongs to (1-based, in the order of
``spaces``; 0 for inland water and 254 for the frozen Arctic, which belong to no space), stored zlib-compressed and in
base64, and for every space the point where its label goes and how much room there is
around it.

How pixels are given out: the land of each landmass goes to the nearest seed among the
territories that landmass is shared by (a territory in ``worldgeo.HEAVY`` counts its
distances several times over, so its share stays small), and the sea to the nearest
sea-zone seed, measured across the left and right edges too (the Pacific wraps round).

The label point is the middle of the widest box, twice as wide as tall, that fits in the
space: names and unit counts are written in lines, so a wide spot suits them better than
the centre of the largest circle.

``--preview`` also draws each space in its own colour with the seeds marked, for checking
the geography by eye.
"""

from __future__ import annotations

import argparse
import array
import base64
import colorsys
import json
import sys
import zlib
from pathlib import Path

from PIL import Image, ImageChops, ImageDraw, ImageFilter, ImageMath

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.games.aa_revised.pack import load_board  # noqa: E402
from renderer import worldgeo  # noqa: E402

OUT = Path(__file__).resolve().parent.parent / "renderer" / "data" / "aa-revised-map.json"
#: the raster's width; the renderer scales it to the image it draws
BASE_WIDTH = 1600
#: raster values that are no space: inland water, and the frozen sea out of play
LAKE = 0
ICE = 254
#: group numbers in the landmass raster
SEA_GROUP = 0
ICE_GROUP = 254
LAKE_GROUP = 255


def base_size() -> tuple[int, int]:
    return BASE_WIDTH, round(BASE_WIDTH * worldgeo.WORLD_HEIGHT / worldgeo.WORLD_WIDTH)


def to_pixels(lat: float, lon: float, size: tuple[int, int]) -> tuple[float, float]:
    u, v = worldgeo.project(lat, lon)
    return u * size[0], v * size[1]


def landmass_groups(size: tuple[int, int]) -> tuple[Image.Image, dict[int, tuple[str, ...]]]:
    """A raster of landmass numbers (0 sea, 254 polar ice, 255 lake) and the spaces each
    number's land is shared by."""
    groups = Image.new("L", size, SEA_GROUP)
    draw = ImageDraw.Draw(groups)
    spaces: dict[int, tuple[str, ...]] = {}
    number = 0
    for water in worldgeo.POLAR_WATERS:
        draw.polygon([to_pixels(lat, lon, size) for lat, lon in water], fill=ICE_GROUP)
    for mass in worldgeo.LANDMASSES:
        number += 1
        spaces[number] = mass.spaces
        outline = [to_pixels(lat, lon, size) for lat, lon in mass.outline]
        if mass.within is None:
            draw.polygon(outline, fill=number)
            continue
        shape = Image.new("L", size, 0)
        ImageDraw.Draw(shape).polygon(outline, fill=255)
        cut = Image.new("L", size, 0)
        ImageDraw.Draw(cut).polygon([to_pixels(a, b, size) for a, b in mass.within], fill=255)
        groups.paste(number, (0, 0), ImageChops.multiply(shape, cut))
    for lake in worldgeo.LAKES:
        draw.polygon([to_pixels(lat, lon, size) for lat, lon in lake], fill=LAKE_GROUP)
    for islet in worldgeo.ISLETS:
        number += 1
        spaces[number] = (islet.space,)
        x, y = to_pixels(*islet.at, size)
        r = islet.radius * size[0] / 1000
        draw.ellipse((x - r, y - r, x + r, y + r), fill=number)
    return groups, spaces


def coordinates(size: tuple[int, int]) -> tuple[Image.Image, Image.Image]:
    w, h = size
    xs = array.array("f", [float(x) for x in range(w)]) * h
    ys = array.array("f", [float(y) for y in range(h) for _ in range(w)])
    return Image.frombytes("F", size, xs.tobytes()), Image.frombytes("F", size, ys.tobytes())


def voronoi(
    seeds: list[tuple[int, float, float, float]], X: Image.Image, Y: Image.Image
) -> Image.Image:
    """For each pixel, the label of its nearest seed; seeds are (label, x, y, weight) and
    a weight multiplies the distance."""
    best = Image.new("F", X.size, 1e18)
    label = Image.new("F", X.size, 0.0)
    for value, sx, sy, weight in seeds:
        w2 = weight * weight
        dist = ImageMath.lambda_eval(
            lambda a, sx=sx, sy=sy, w2=w2: (
                ((a["X"] - sx) * (a["X"] - sx) + (a["Y"] - sy) * (a["Y"] - sy)) * w2
            ),
            X=X,
            Y=Y,
        )
        nearer = ImageMath.lambda_eval(lambda a: a["D"] < a["B"], D=dist, B=best)
        label = ImageMath.lambda_eval(
            lambda a, value=value: a["L"] * (1 - a["m"]) + value * a["m"], L=label, m=nearer
        )
        best = ImageMath.lambda_eval(lambda a: a["min"](a["D"], a["B"]), D=dist, B=best)
    return label.convert("L")


def space_raster(ids: list[str], land_ids: set[str]) -> Image.Image:
    size = base_size()
    number = {sid: i + 1 for i, sid in enumerate(ids)}
    groups, group_spaces = landmass_groups(size)
    X, Y = coordinates(size)
    out = Image.new("L", size, LAKE)
    for group, spaces in group_spaces.items():
        mask = groups.point(lambda v, g=group: 255 if v == g else 0)
        box = mask.getbbox()
        if box is None:
            continue
        if len(spaces) == 1:
            out.paste(number[spaces[0]], box, mask.crop(box))
            continue
        seeds = [
            (number[sid], x, y, worldgeo.HEAVY.get(sid, 1.0))
            for sid in spaces
            for x, y in (to_pixels(lat, lon, size) for lat, lon in worldgeo.SEEDS[sid])
        ]
        cells = voronoi(seeds, X.crop(box), Y.crop(box))
        out.paste(cells, box, mask.crop(box))
    sea = groups.point(lambda v: 255 if v == SEA_GROUP else 0)
    seeds = []
    for sid in ids:
        if sid in land_ids:
            continue
        for lat, lon in worldgeo.SEEDS[sid]:
            x, y = to_pixels(lat, lon, size)
            for shift in (-size[0], 0, size[0]):
                seeds.append((number[sid], x + shift, y, 1.0))
    out.paste(voronoi(seeds, X, Y), (0, 0), sea)
    out.paste(ICE, (0, 0), groups.point(lambda v: 255 if v == ICE_GROUP else 0))
    return out


def label_points(raster: Image.Image, ids: list[str]) -> dict[str, list[int]]:
    """For each space: the middle of the widest 2:1 box inside it, and that box's half
    height (its depth), in raster pixels."""
    out: dict[str, list[int]] = {}
    for i, sid in enumerate(ids, start=1):
        mask = raster.point(lambda v, i=i: 255 if v == i else 0)
        box = mask.getbbox()
        if box is None:
            continue
        x0, y0, x1, y1 = box
        # a blank frame round the crop, so that the image edge counts as the space's edge
        crop = Image.new("L", (x1 - x0 + 4, y1 - y0 + 2), 0)
        crop.paste(mask.crop(box), (2, 1))
        # halve the width (a pixel survives only if both halves were inside), so that
        # square erosion below eats a 2:1 box
        narrow = crop.resize((max(1, crop.width // 2), crop.height), Image.Resampling.BOX)
        narrow = narrow.point(lambda v: 255 if v >= 255 else 0)
        squeeze = 2
        if narrow.getbbox() is None:  # a sliver: no 2:1 box fits at all
            narrow, squeeze = crop, 1
        depth = 0
        last = narrow
        while True:
            smaller = last.filter(ImageFilter.MinFilter(3))
            if smaller.getbbox() is None:
                break
            last = smaller
            depth += 1
        px = [
            (x, y) for y in range(last.height) for x in range(last.width) if last.getpixel((x, y))
        ]
        cx = sum(p[0] for p in px) / len(px)
        cy = sum(p[1] for p in px) / len(px)
        bx, by = min(px, key=lambda p: (p[0] - cx) ** 2 + (p[1] - cy) ** 2)
        out[sid] = [x0 + bx * squeeze + squeeze // 2 - 2, y0 + by - 1, depth + 1]
    return out


def preview(raster: Image.Image, ids: list[str], land_ids: set[str], path: Path) -> None:
    palette = [200, 200, 200] * 256
    for i, sid in enumerate(ids, start=1):
        hue = (i * 0.618) % 1.0
        if sid in land_ids:
            r, g, b = colorsys.hsv_to_rgb(0.05 + hue * 0.3, 0.35 + 0.3 * ((i * 7) % 3) / 2, 0.95)
        else:
            r, g, b = colorsys.hsv_to_rgb(0.5 + hue * 0.2, 0.15 + 0.25 * ((i * 5) % 3) / 2, 1.0)
        palette[i * 3 : i * 3 + 3] = [round(r * 255), round(g * 255), round(b * 255)]
    img = raster.copy()
    img.putpalette(palette)
    img = img.convert("RGB")
    edges = ImageChops.difference(
        raster.filter(ImageFilter.MaxFilter(3)), raster.filter(ImageFilter.MinFilter(3))
    ).point(lambda v: 255 if v else 0)
    img.paste((40, 40, 40), (0, 0), edges)
    draw = ImageDraw.Draw(img)
    size = raster.size
    for sid in ids:
        for k, (lat, lon) in enumerate(worldgeo.SEEDS[sid]):
            x, y = to_pixels(lat, lon, size)
            r = 3 if k == 0 else 2
            draw.ellipse((x - r, y - r, x + r, y + r), fill=(200, 0, 0))
    labels = label_points(raster, ids)
    for sid, (x, y, _depth) in labels.items():
        draw.text((x, y), sid.removesuffix("_ssr")[:12], fill=(0, 0, 0), anchor="mm")
    img.save(path)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--preview", type=Path, help="also draw the spaces in colour here")
    args = parser.parse_args()
    board = load_board()
    ids = [s.id for s in board.pack.spaces]
    land_ids = {s.id for s in board.land()}
    missing = [sid for sid in ids if sid not in worldgeo.SEEDS]
    if missing:
        raise SystemExit(f"worldgeo.SEEDS has no seed for {', '.join(missing)}")
    raster = space_raster(ids, land_ids)
    data = {
        "about": "Generated by tools/aa_worldmap.py from renderer/worldgeo.py; do not edit.",
        "fingerprint": worldgeo.fingerprint(),
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
        preview(raster, ids, land_ids, args.preview)


if __name__ == "__main__":
    main()
