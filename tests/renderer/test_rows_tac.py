"""The African Campaign's map: the row grid's geometry, the base layer and its caches,
and the opening drawn from the state through ``engine.games.tac.mapview``."""

from __future__ import annotations

import math

import pytest

from engine.core import hexgrid_rows
from engine.core.dice import ScriptedDice
from engine.games.bia import pack as bia_pack
from engine.games.tac.mapview import map_view
from engine.games.tac.rules import TheAfricanCampaign
from renderer import rows
from renderer.geometry import SQRT3, RowLayout
from renderer.hexmap import render

RULES = TheAfricanCampaign()
WIDTH = 1800


@pytest.fixture(scope="module")
def opening():
    return RULES.setup("campaign", {}, ScriptedDice([]))


@pytest.mark.parametrize(
    ("grid", "hexes", "neighbours"),
    [
        ("even-r-AABB", ["1028", "1043", "0803", "1129", "2978"], hexgrid_rows.neighbours),
        ("odd-r-CCRR", ["2117", "0000", "1301", "2218", "5324"], bia_pack.neighbours),
    ],
)
def test_row_grid_neighbours_are_one_hex_apart_and_found_under_their_centres(
    grid, hexes, neighbours
):
    """The drawing puts the engine's neighbours (TAC: hexgrid_rows; BIA: its pack) one
    hex width apart, and a pixel at a hex's centre, or just inside a corner, is that hex."""
    layout = RowLayout.for_rows(
        grid, [f"{a:02d}{b:02d}" for a in range(30) for b in range(80)], 2000, 0
    )
    for h in hexes:
        cx, cy = layout.center(h)
        assert layout.hex_at(cx, cy) == h
        for corner in layout.corners(h, 0.9):
            assert layout.hex_at(*corner) == h
        for n in neighbours(h):
            if "-" in n:
                continue
            assert math.dist((cx, cy), layout.center(n)) == pytest.approx(SQRT3 * layout.radius)
            a, b = layout.side(h, n)
            assert math.dist(a, b) == pytest.approx(layout.radius)


def test_tac_opening_draws_every_unit_in_its_hex(opening):
    view = map_view(opening, "allied")
    r = render(view, WIDTH)
    on_map = {u.id: u.hex for u in opening.units.values() if u.where == "map"}
    assert on_map, "the set-up puts units on the map"
    drawn = {p.id: p for p in r.pieces if p.hex is not None}
    assert set(drawn) == set(on_map)
    for uid, piece in drawn.items():
        cx, cy = r.layout.center(on_map[uid])
        x0, y0, x1, y1 = piece.bbox
        assert (
            abs((x0 + x1) / 2 - cx) < r.layout.radius and abs((y0 + y1) / 2 - cy) < r.layout.radius
        )
    assert r.off_map == []
    assert r.image.width == WIDTH and r.image.height < WIDTH
    for stack in view.stacks:
        if stack.count > 1:
            assert any(b.hex == stack.hex and b.count == stack.count for b in r.badges)


def test_tac_counter_prints_its_step_factors(opening):
    """TAC 2.4.2: a unit's factors are those of its current step; a reduced one its back."""
    s = opening.clone()
    uid = next(
        u.id
        for u in s.units.values()
        if u.where == "map" and len(RULES.board.units[u.id].steps) > 1
    )
    s.units[uid].step = 1
    face = next(c for st in map_view(s, None).stacks for c in st.counters if c.id == uid)
    attack, _, move = RULES.board.values(uid, 1)
    assert (face.combat, face.move, face.reduced) == (attack, move, True)


def test_tac_every_role_sees_every_piece(opening):
    """TAC 5.0: stacks may be inspected by either player, so no view hides a counter."""
    views = [map_view(opening, role) for role in ("allied", "axis", None)]
    stacks = [[(s.hex, [c.id for c in s.counters], s.count) for s in v.stacks] for v in views]
    assert stacks[0] == stacks[1] == stacks[2]
    assert all(len(s.counters) == s.count for s in views[1].stacks)


def test_tac_key_explains_the_terrain_lines_and_places_of_the_map(opening):
    r = render(map_view(opening, None), WIDTH)
    for text in ("Ridge (escarpment)", "Qattara Depression", "Road", "Railway",
                 "Prohibited hexside", "Fort", "Port", "City", "Pass hex", "Coastline"):  # fmt: skip
        assert any(text in label for label in r.legend), text


def test_tac_base_layer_is_drawn_once_per_pack_style_and_width(opening, monkeypatch):
    calls = []
    real = rows.draw_base
    monkeypatch.setattr(rows, "draw_base", lambda *a: calls.append(a) or real(*a))
    rows.clear_cache()
    view = map_view(opening, None)
    first = render(view, 1000).png()
    rows.clear_cache()  # a new process: the copy on disk is read back instead
    second = render(view, 1000)
    assert len(calls) == 1
    assert isinstance(second.layout, RowLayout) and second.layout.grid == "even-r-AABB"
    assert second.png() == first
    render(view, 1000)
    assert len(calls) == 1


def test_a_view_naming_the_wrong_grid_is_refused_in_one_sentence(opening):
    view = map_view(opening, None).model_copy(update={"grid": "odd-r-CCRR"})
    with pytest.raises(
        ValueError, match=r"^The tac map is on the even-r-AABB grid, not odd-r-CCRR\.$"
    ):
        render(view, 800)


def test_a_minefield_shows_where_it_lies_and_its_value_only_in_its_holders_hand(opening):
    """TAC 16.0 procedure (L677): drawn without showing the opponent; once placed, neither
    player may look at its reverse. The map marks the hex for all, with no value; the
    counters in a hand are listed in that side's view alone."""
    from engine.games.tac import mines

    s = opening.clone()
    s.mines = mines.initial(RULES.board, bonus=False)
    s.mines["map"] = {"1359": "s0"}
    s.mines["hands"]["axis"] = ["s1"]
    held = mines.describe(RULES.board, "s1")
    views = {role: map_view(s, role) for role in ("allied", "axis", None)}
    for role, v in views.items():
        assert [(m.hex, m.kind, m.text) for m in v.markers] == [("1359", "minefield", "")]
        assert "s0" not in v.model_dump_json()
        in_hand = [n for n in v.notes if "minefields in hand" in n]
        assert in_hand == ([f"Your minefields in hand (16.0): {held}."] if role == "axis" else [])
    r = render(views["allied"], WIDTH)
    assert [(m.hex, m.kind) for m in r.markers] == [("1359", "minefield")]


def test_front_ends_get_row_maps_at_the_wide_default_width(opening):
    """``render_png`` with no width draws a row map at rows.DEFAULT_WIDTH (PFV: 1600)."""
    from renderer.views import render_png

    png = render_png(map_view(opening, "axis"))
    assert png[:8] == b"\x89PNG\r\n\x1a\n" and png[12:16] == b"IHDR"
    assert int.from_bytes(png[16:20], "big") == rows.DEFAULT_WIDTH


def test_renderer_clear_cache_forgets_the_row_maps_too(opening):
    """One call empties every picture kept in memory, row maps included (as a new
    process starts); the next map is read back from the disk copy, the same to the byte."""
    import renderer
    from renderer import base, counters

    view = map_view(opening, None)
    first = render(view, 1000).png()
    assert rows._layers.layers and rows._boards and counters._SPRITES
    renderer.clear_cache()
    assert not rows._layers.layers and not rows._boards and not base._layers.layers
    assert not counters._SPRITES
    assert render(view, 1000).png() == first
