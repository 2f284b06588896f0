"""The Axis & Allies: North Africa area map: the generated raster against the board pack,
and a turn drawn from the game's own state (engine/games/aa_na/mapview.py)."""

from __future__ import annotations

import numpy as np
import pytest

from engine.core.dice import NoDice
from engine.games.aa_na.mapview import map_view, unit_key
from engine.games.aa_na.pack import load_board
from engine.games.aa_na.rules import RULESET
from renderer import areamap
from renderer.areaview import AreaMapView, area_board, space_map_path
from tools import aa_na_map


@pytest.fixture(scope="module")
def smap() -> areamap.SpaceMap:
    return areamap.load_space_map(space_map_path("aa-na"))


@pytest.fixture(scope="module")
def raster(smap) -> np.ndarray:
    return np.asarray(smap.raster)


def _touching(raster: np.ndarray) -> set[tuple[int, int]]:
    pairs: set[tuple[int, int]] = set()
    for a, b in ((raster[:, :-1], raster[:, 1:]), (raster[:-1, :], raster[1:, :])):
        m = a != b
        pairs |= {(min(u, v), max(u, v)) for u, v in zip(a[m].tolist(), b[m].tolist(), strict=True)}
    return pairs


def test_the_raster_is_generated_from_this_board_and_this_generator(smap):
    board = load_board()
    assert list(smap.ids) == [s.id for s in board.pack.spaces]
    assert smap.fingerprint == aa_na_map.fingerprint(), "rerun tools/aa_na_map.py"


def test_every_territory_lies_where_the_pack_puts_it(smap, raster):
    """The pack's point of each territory falls in its own space, or (for points on the
    coast) within 4 pixels (about 12 km) of it."""
    h, w = raster.shape
    ys, xs = np.mgrid[0:h, 0:w]
    for sp in load_board().pack.spaces:
        n = smap.number(sp.id)
        assert (raster == n).sum() >= 20, sp.id
        if sp.kind != "territory":
            continue
        x, y = aa_na_map.to_pixels(sp.lat, sp.lon, (w, h))
        near = (xs - x) ** 2 + (ys - y) ** 2 <= 16
        assert (raster[near] == n).any(), sp.id


def test_every_land_border_of_the_pack_is_a_shared_edge(smap, raster):
    board = load_board()
    land = {s.id for s in board.pack.spaces if s.kind == "territory"}
    touching = _touching(raster)
    missing = [
        (a, b)
        for a, b in board.pack.borders
        if a in land
        and b in land
        and (min(smap.number(a), smap.number(b)), max(smap.number(a), smap.number(b)))
        not in touching
    ]
    assert missing == []


def test_convoy_zones_are_boxes(smap, raster):
    style = areamap.load_area_style("aa-na")
    assert sorted(style.boxes) == sorted(c.id for c in load_board().pack.convoys)
    for sid in style.boxes:
        ys, xs = np.nonzero(raster == smap.number(sid))
        box = (xs.max() - xs.min() + 1) * (ys.max() - ys.min() + 1)
        assert box == len(xs), sid


def test_islands_and_places_out_of_play(smap, raster):
    """Sicily, Sardinia, Crete, Malta and Gibraltar are there; Corsica (French) and Cyprus
    are land out of play, the Red Sea water out of play."""
    w, h = raster.shape[1], raster.shape[0]

    def at(lat, lon):
        x, y = aa_na_map.to_pixels(lat, lon, (w, h))
        return int(raster[int(y), int(x)])

    for sid in ("sicily", "sardinia", "crete", "malta", "gibraltar"):
        sp = load_board().spaces[sid]
        assert at(sp.lat, sp.lon) == smap.number(sid)
    assert at(42.15, 9.1) == aa_na_map.LAND_OUT  # Corsica
    assert at(35.1, 33.2) == aa_na_map.LAND_OUT  # Cyprus
    assert at(23.0, 36.5) == aa_na_map.WATER_OUT  # the Red Sea


@pytest.fixture(scope="module", params=["rlp", "ot"])
def opening(request):
    state = RULESET.setup(request.param, {"players": 2}, NoDice())
    view = AreaMapView.model_validate(map_view(state, "axis"))
    return state, view, areamap.render_area(view, 1600)


def test_the_view_holds_every_unit_and_token_of_the_state(opening):
    state, view, _ = opening
    assert view.unknown_spaces() == []
    board = area_board("aa-na")
    on_board = [u for u in state.units if board.find(u.at) is not None]
    counted = sum(
        n
        for holder in [*view.territories.values(), *view.sea_zones.values()]
        for units in holder.units.values()
        for n in units.values()
    )
    assert counted == len(on_board) > 0
    for u in on_board[:10]:
        holder = view.territories.get(u.at) or view.sea_zones[u.at]
        assert holder.units[u.power][unit_key(u.type)] >= 1
    for t, value in state.supply.items():
        assert view.territories[t].tokens["supply"] == value
    for sp in load_board().pack.spaces:
        if sp.permanent:
            assert view.territories[sp.id].owner == sp.permanent


def test_the_map_draws_every_unit_and_token(opening):
    state, view, r = opening
    assert r.off_map == []
    for name, holder in [*view.territories.items(), *view.sea_zones.items()]:
        assert r.units_in(name) == {
            p: {u: n for u, n in c.items() if n} for p, c in holder.units.items()
        }
    drawn = {(s, k): n for s, k, n, _ in r.tokens}
    for name, holder in [*view.territories.items(), *view.sea_zones.items()]:
        for k, n in holder.tokens.items():
            assert drawn[(name, k)] == n
    assert any(line.startswith("Round ") for line in r.panel)
    assert "Convoy zone (box)" in r.legend and "Scout car" in r.legend
    assert "Capital" not in r.legend and "Canal" not in r.legend


def test_a_convoy_box_is_drawn_framed_in_its_own_colours(opening):
    _, _, r = opening
    base = areamap.base_layer(areamap.load_area_style("aa-na"), 1600)
    style = areamap.load_area_style("aa-na")
    ys, xs = np.nonzero(
        np.asarray(base.spaces)
        == areamap.load_space_map(space_map_path("aa-na")).number("malta_csz")
    )
    inside = base.image.getpixel((int(xs.min()) + 3, int(ys.max()) - 3))
    frame = base.image.getpixel((int(xs.min()), int(ys.min()) + 8))

    def rgb(c):
        return tuple(int(c[i : i + 2], 16) for i in (1, 3, 5))

    assert max(abs(a - b) for a, b in zip(inside, rgb(style.palette.box), strict=True)) < 8
    assert max(abs(a - b) for a, b in zip(frame, rgb(style.palette.box_frame), strict=True)) < 40


def test_a_view_of_an_unknown_game_or_space_is_refused_or_reported():
    with pytest.raises(ValueError, match="no area map for the game 'chess'"):
        AreaMapView(game="chess")
    view = AreaMapView(
        game="aa-na", territories={"Tobruk": {}, "Atlantis": {}}, sea_zones={"Malta Convoy": {}}
    )
    assert view.unknown_spaces() == ["Atlantis"]
    assert areamap.render_area(view, 1200).off_map == ["Atlantis"]
