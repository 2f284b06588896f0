"""The generated space raster against the board (renderer/worldgeo.py, tools/aa_worldmap.py).

Every territory and sea zone must get pixels and a label point inside them, and the
raster's borders must agree with the board's connections: two spaces the board connects
should touch in the picture.
"""

from __future__ import annotations

from collections import Counter
from itertools import groupby

import pytest

from engine.games.aa_revised.pack import load_board
from renderer import worldgeo
from renderer.areamap import ICE, LAKE, load_space_map, stale_space_map


def touching_pairs() -> set[frozenset[int]]:
    """Pairs of raster values that meet across a pixel edge (the left and right edges of
    the board meet too: the Pacific wraps round)."""
    smap = load_space_map()
    w, h = smap.raster.size
    data = smap.raster.tobytes()
    pairs: set[frozenset[int]] = set()
    prev = None
    for y in range(h):
        row = data[y * w : (y + 1) * w]
        pairs.update(frozenset(p) for p in zip(row, row[1:], strict=False) if p[0] != p[1])
        if row[0] != row[-1]:
            pairs.add(frozenset((row[0], row[-1])))
        if prev is not None:
            pairs.update(frozenset(p) for p in zip(prev, row, strict=True) if p[0] != p[1])
        prev = row
    return pairs


@pytest.fixture(scope="module")
def raster_adjacency() -> set[frozenset[str]]:
    smap = load_space_map()
    return {
        frozenset(smap.ids[v - 1] for v in pair)
        for pair in touching_pairs()
        if not pair & {LAKE, ICE}
    }


def pieces(min_share: float) -> Counter[int]:
    """How many separate pieces of the raster each value forms, counting only pieces with
    at least ``min_share`` of that value's pixels (the board's left and right edges are
    joined). One pass over the rows, joining runs of a value that touch the row above."""
    smap = load_space_map()
    w, h = smap.raster.size
    data = smap.raster.tobytes()
    parent: list[int] = []
    size: list[int] = []
    value_of: list[int] = []

    def find(a: int) -> int:
        while parent[a] != a:
            parent[a] = parent[parent[a]]
            a = parent[a]
        return a

    def union(a: int, b: int) -> None:
        ra, rb = find(a), find(b)
        if ra != rb:
            parent[ra] = rb

    prev: list[tuple[int, int, int]] = []
    for y in range(h):
        row = data[y * w : (y + 1) * w]
        runs: list[tuple[int, int, int]] = []
        x = 0
        for value, group in groupby(row):
            n = sum(1 for _ in group)
            rid = len(parent)
            parent.append(rid)
            size.append(n)
            value_of.append(value)
            runs.append((x, x + n, rid))
            x += n
        if len(runs) > 1 and value_of[runs[0][2]] == value_of[runs[-1][2]]:
            union(runs[0][2], runs[-1][2])
        j = 0
        for start, end, rid in runs:
            while j < len(prev) and prev[j][1] <= start:
                j += 1
            k = j
            while k < len(prev) and prev[k][0] < end:
                if value_of[prev[k][2]] == value_of[rid]:
                    union(rid, prev[k][2])
                k += 1
        prev = runs
    piece_size: Counter[int] = Counter()
    for rid in range(len(parent)):
        piece_size[find(rid)] += size[rid]
    totals: Counter[int] = Counter()
    for root, n in piece_size.items():
        totals[value_of[root]] += n
    out: Counter[int] = Counter()
    for root, n in piece_size.items():
        if n >= min_share * totals[value_of[root]]:
            out[value_of[root]] += 1
    return out


def test_space_raster_was_generated_from_the_current_geography_and_board():
    assert stale_space_map() is None


def test_every_territory_and_sea_zone_has_pixels_and_a_label_point_inside_it():
    smap = load_space_map()
    board = load_board()
    counts = smap.raster.histogram()
    for space in board.pack.spaces:
        n = smap.number(space.id)
        assert counts[n] > 0, f"{space.name} has no pixels"
        x, y, depth = smap.labels[space.id]
        assert smap.raster.getpixel((x, y)) == n, f"{space.name}'s label point is not in it"
        assert depth >= 1
    # nothing in the raster but the board's spaces, inland water and polar ice
    used = {v for v, c in enumerate(counts) if c}
    assert used <= set(range(1, len(board.pack.spaces) + 1)) | {LAKE, ICE}


def test_the_board_projection_gives_europe_room_and_islands_stay_visible():
    """Germany is a twentieth of Brazil on the globe; on this board it gets at least half
    Brazil's pixels. Midway is a speck on the globe; here it is a visible dot, still far
    smaller than its sea zone."""
    smap = load_space_map()
    counts = smap.raster.histogram()
    germany = counts[smap.number("germany")]
    brazil = counts[smap.number("brazil")]
    midway = counts[smap.number("midway")]
    sz52 = counts[smap.number("sz52")]
    assert germany > brazil * 0.5
    assert 50 < midway < sz52 / 20


def test_board_connections_share_a_border_in_the_raster(raster_adjacency):
    board = load_board()
    kinds = {s.id: s.kind for s in board.pack.spaces}
    shares = {}
    for kind in ("land-land", "land-sea", "sea-sea"):
        edges = [
            (a, b)
            for a, b in board.pack.connections
            if "-".join(sorted((kinds[a], kinds[b]))) == kind
        ]
        found = [e for e in edges if frozenset(e) in raster_adjacency]
        shares[kind] = len(found) / len(edges)
        print(f"{kind}: {len(found)} of {len(edges)} board connections share a border")
    # measured when the geography was authored: 113/114, 96/97, 136/137
    assert shares["land-land"] >= 0.95
    assert shares["land-sea"] >= 0.95
    assert shares["sea-sea"] >= 0.95


def test_no_territory_touches_a_sea_zone_far_from_it(raster_adjacency):
    """A border the board does not have is tolerated between neighbours on the picture,
    but a territory touching a sea zone that is not even next to one of its board
    neighbours means a seed is badly placed."""
    board = load_board()
    for pair in raster_adjacency:
        a, b = sorted(pair, key=lambda s: board.spaces[s].kind)
        if board.spaces[a].kind != "land" or board.spaces[b].kind != "sea":
            continue
        if board.adjacent(a, b):
            continue
        near = set(board.neighbours(b)) | {
            n for m in board.neighbours(b) for n in board.neighbours(m)
        }
        assert a in near, f"{a} touches {b} on the map, far from it on the board"


def test_mainland_territories_are_one_piece_each():
    """A territory on a continent is one piece of it (islands and islets it owns come on
    top); a sea zone is one piece once the board's edges are joined. Slivers under 8% of
    a space (a bay an island cuts off at this scale) are not counted."""
    smap = load_space_map()
    board = load_board()
    extra = Counter()
    for mass in worldgeo.LANDMASSES:
        for sid in mass.spaces:
            extra[sid] += 1
    for islet in worldgeo.ISLETS:
        extra[islet.space] += 1
    counted = pieces(0.08)
    for space in board.pack.spaces:
        n = counted[smap.number(space.id)]
        allowed = max(1, extra[space.id]) if space.kind == "land" else 1
        assert n <= allowed, f"{space.name} is in {n} pieces"
