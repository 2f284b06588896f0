"""Drawing an A&A Revised view on the world map: units, control, marks, panel, key,
caching and size (ARCHITECTURE: Rendering)."""

from __future__ import annotations

import io
import json

import pytest
from PIL import Image

from engine.games.aa_revised.pack import load_board, load_tables, load_units
from renderer import areamap
from renderer.areamap import (
    AreaStyle,
    base_layer,
    load_area_style,
    load_space_map,
    render_area,
    render_area_png,
)
from renderer.areaview import AreaMapView, BattleView, SeaZoneView, TerritoryView, opening_view
from renderer.style import StyleError


def expected_units(view: AreaMapView) -> dict[str, dict[str, dict[str, int]]]:
    """What should be drawn: every unit of the view, keyed by board id, without the
    industrial complexes (drawn as buildings) and empty entries."""
    board = load_board()
    out: dict[str, dict[str, dict[str, int]]] = {}
    spaces = {**view.territories, **view.sea_zones}
    for name, sv in spaces.items():
        sid = board.find(name).id
        for power, units in sv.units.items():
            for unit, n in units.items():
                if n > 0 and unit != "industrial_complex":
                    out.setdefault(sid, {}).setdefault(power, {})[unit] = n
    return out


def drawn_units(rendering: areamap.AreaRendering) -> dict[str, dict[str, dict[str, int]]]:
    out: dict[str, dict[str, dict[str, int]]] = {}
    for u in rendering.units:
        assert u.unit not in out.get(u.space, {}).get(u.power, {}), "drawn twice"
        out.setdefault(u.space, {}).setdefault(u.power, {})[u.unit] = u.count
    return out


def blank_pixel_of(space: str, width: int = areamap.DEFAULT_WIDTH) -> tuple[int, int]:
    """A pixel of ``space`` on which the static layer drew nothing (no name, border or
    hatching), so that it shows the territory's tint alone."""
    base = base_layer(load_area_style(), width)
    number = load_space_map().number(space)
    spaces = base.spaces.load()
    image = base.image.load()
    w, h = base.spaces.size
    for y in range(8, h - 8, 3):
        for x in range(8, w - 8, 3):
            if spaces[x, y] == number and image[x, y] == (255, 255, 255):
                around = [spaces[x + dx, y + dy] for dx in (-6, 0, 6) for dy in (-6, 0, 6)]
                if all(v == number for v in around):
                    return x, y
    raise AssertionError(f"no blank pixel in {space}")


# -- units -------------------------------------------------------------------------


def test_opening_every_unit_of_the_setup_is_drawn_with_its_count(opening, opening_render):
    assert drawn_units(opening_render) == expected_units(opening)
    # spot checks against the printed set-up (Revised: Reference Charts)
    assert opening_render.units_in("germany")["germany"] == {
        "infantry": 3,
        "tank": 2,
        "aa_gun": 1,
        "fighter": 1,
        "bomber": 1,
    }
    assert opening_render.units_in("sz35") == {
        "uk": {"fighter": 1, "destroyer": 1, "carrier": 1, "transport": 1}
    }


def test_midgame_shared_and_contested_spaces_show_every_power_with_its_counts(
    midgame, midgame_render
):
    assert drawn_units(midgame_render) == expected_units(midgame)
    assert set(midgame_render.units_in("united_kingdom")) == {"uk", "usa"}
    assert set(midgame_render.units_in("sz35")) == {"japan", "uk"}
    assert midgame_render.units_in("russia")["ussr"]["infantry"] == 12
    # a power's row is drawn in its turn order: the Soviet row above the British one
    russia = [u for u in midgame_render.units if u.space == "russia"]
    top = {p: min(u.bbox[1] for u in russia if u.power == p) for p in ("ussr", "uk")}
    assert top["ussr"] < top["uk"]


def test_each_count_is_drawn_as_a_picture_and_a_number_inside_the_map(midgame_render):
    img = midgame_render.image
    mx0, my0, mx1, my1 = midgame_render.map_box
    for u in midgame_render.units:
        x0, y0, x1, y1 = u.bbox
        assert mx0 <= x0 < x1 <= mx1 and my0 <= y0 < y1 <= my1, u
        colours = img.crop(u.bbox).getcolors(4096)
        assert colours is None or len(colours) > 8, f"nothing drawn for {u}"


def test_unit_blocks_never_cover_each_other_and_stay_near_their_space(
    opening_render, midgame_render
):
    for rendering in (opening_render, midgame_render):
        boxes = rendering.units
        for i, a in enumerate(boxes):
            for b in boxes[i + 1 :]:
                if a.space == b.space:
                    continue
                w = min(a.bbox[2], b.bbox[2]) - max(a.bbox[0], b.bbox[0])
                h = min(a.bbox[3], b.bbox[3]) - max(a.bbox[1], b.bbox[1])
                assert w <= 0 or h <= 0, f"{a} covers {b}"
        for u in boxes:
            ax, ay = rendering.labels[u.space]
            cx, cy = (u.bbox[0] + u.bbox[2]) / 2, (u.bbox[1] + u.bbox[3]) / 2
            assert abs(cx - ax) < 170 and abs(cy - ay) < 130, f"{u} is far from {u.space}"


def test_a_unit_type_or_power_the_style_does_not_know_is_drawn_in_grey_not_refused(opening):
    view = opening.model_copy(deep=True)
    view.sea_zones["sz12"] = SeaZoneView(units={"france": {"cruiser": 2}})
    r = render_area(view)
    assert r.units_in("sz12") == {"france": {"cruiser": 2}}


# -- control, marks ----------------------------------------------------------------


def test_territory_tint_follows_the_controller_in_the_view(opening):
    """Revised: Territory control. Karelia drawn Soviet at the start, German once taken."""
    style = load_area_style()
    x, y = blank_pixel_of("karelia_ssr")
    before = render_area(opening).image.getpixel((x, y))
    taken = opening.model_copy(deep=True)
    taken.territories["karelia_ssr"] = TerritoryView(owner="germany")
    after = render_area(taken).image.getpixel((x, y))
    assert before == tuple(int(style.powers["ussr"].tint[i : i + 2], 16) for i in (1, 3, 5))
    assert after == tuple(int(style.powers["germany"].tint[i : i + 2], 16) for i in (1, 3, 5))


def test_a_territory_the_view_leaves_out_is_drawn_unknown_grey(opening):
    style = load_area_style()
    x, y = blank_pixel_of("brazil")
    view = opening.model_copy(deep=True)
    del view.territories["brazil"]
    colour = render_area(view).image.getpixel((x, y))
    assert colour == tuple(int(style.palette.unknown[i : i + 2], 16) for i in (1, 3, 5))


def test_industrial_complexes_drawn_where_the_view_has_them(opening_render, midgame_render):
    board = load_board()
    at_start = {s.id for s in board.land() if s.industrial_complex}
    assert {s for s, _ in opening_render.factories} == at_start
    assert {s for s, _ in midgame_render.factories} == at_start | {"india"}


def test_battles_are_marked_on_their_spaces_numbered_in_order(midgame, midgame_render):
    assert [(b.space, b.number) for b in midgame_render.battles] == [
        ("karelia_ssr", 1),
        ("sz7", 2),
        ("anglo_egypt", 3),
        ("west_russia", 4),
    ]
    for b in midgame_render.battles:
        ax, ay = midgame_render.labels[b.space]
        cx, cy = (b.bbox[0] + b.bbox[2]) / 2, (b.bbox[1] + b.bbox[3]) / 2
        assert abs(cx - ax) < 120 and abs(cy - ay) < 60


def test_names_and_aliases_are_accepted_and_unknown_names_reported(opening):
    view = opening.model_copy(deep=True)
    view.territories["Eastern Canada"] = view.territories.pop("eastern_canada")
    view.territories["Eastern Canada"].units = {"uk": {"tank": 3}}
    view.territories["Atlantis"] = TerritoryView(owner="uk", units={"uk": {"infantry": 1}})
    view.battles = [BattleView(territory="Lemuria", text="nothing happened")]
    r = render_area(view)
    assert r.units_in("eastern_canada") == {"uk": {"tank": 3}}
    assert "Atlantis" in r.off_map and "Lemuria" in r.off_map
    assert not r.battles


# -- side panel and key --------------------------------------------------------------


def test_panel_shows_round_phase_power_to_play_income_and_battles(midgame_render):
    text = "\n".join(midgame_render.panel)
    assert "Round 3: Noncombat Move" in text
    assert "Seen by Germany" in text
    assert "Germany to play" in text
    assert "Germany  12  43" in midgame_render.panel
    assert "Soviet Union  4  22" in midgame_render.panel
    assert "Last turn's battles" in text
    assert "Karelia S.S.R.: Germany captured it" in text
    assert "Sea Zone 7: The Allied fleet held" in text
    x0 = midgame_render.panel_box[0]
    assert x0 >= midgame_render.map_box[2]


def test_opening_panel_has_the_starting_income_of_every_power(opening_render):
    """Revised: Game Set-up; each power's income at the start equals its starting IPCs."""
    for power in load_tables().powers:
        line = f"{power.name}  {power.starting_ipcs}  {power.starting_ipcs}"
        assert line in opening_render.panel, line
    assert "Soviet Union to play" in opening_render.panel
    assert "Public view" in opening_render.panel


def test_key_lists_every_power_unit_type_and_map_mark(opening_render):
    style = load_area_style()
    legend = opening_render.legend
    for ps in style.powers.values():
        assert ps.name in legend
    for us in style.units.values():
        assert us.legend in legend
    for mark in (
        "Neutral",
        "Income value (IPCs)",
        "Industrial complex",
        "Capital",
        "Victory city",
        "Battle last turn",
        "Sea zone number",
        "Canal",
    ):
        assert mark in legend
    # the key is drawn in the panel, below the per-turn part
    base = base_layer(style, areamap.DEFAULT_WIDTH)
    px0, _, px1, py1 = base.panel_box
    key = opening_render.image.crop((px0 + 4, base.dynamic_box[3], px1, py1))
    assert len(key.getcolors(65536) or range(999)) > 50


def test_style_covers_every_power_and_unit_type_of_the_pack():
    style = load_area_style()
    assert set(style.powers) == {p.id for p in load_tables().powers}
    units = {u.id for u in load_units().units if "production" not in u.flags}
    assert set(style.units) == units
    board = load_board()
    assert set(style.labels) <= set(board.spaces)


def test_a_broken_style_file_is_refused_with_its_name_and_the_field(tmp_path, monkeypatch):
    bad = tmp_path / "aa-broken.json"
    data = json.loads(areamap.style_path("aa-revised").read_text())
    data["powers"]["ussr"]["tint"] = 7
    bad.write_text(json.dumps(data))
    monkeypatch.setattr(areamap, "style_path", lambda game: bad)
    with pytest.raises(StyleError, match=r"aa-broken.json: powers.ussr.tint"):
        load_area_style.__wrapped__("aa-broken")


# -- the picture, the cache ----------------------------------------------------------


def test_png_is_a_wide_map_with_a_side_panel_and_stays_small(midgame):
    png = render_area_png(midgame)
    img = Image.open(io.BytesIO(png))
    assert img.width == areamap.DEFAULT_WIDTH
    assert 0.4 < img.height / img.width < 0.5
    assert len(png) < 600_000
    # sea, land tints and unit colours all survive the 256-colour encoding
    assert len(img.convert("RGB").getcolors(1 << 16)) > 100


def test_other_widths_scale_the_map_and_keep_every_unit(opening):
    r = render_area(opening, 1600)
    assert r.image.width == 1600
    assert drawn_units(r) == expected_units(opening)


def test_static_layer_is_drawn_once_per_width_and_a_turn_redraws_the_same_picture(opening):
    style = load_area_style()
    first = base_layer(style, areamap.DEFAULT_WIDTH)
    assert base_layer(style, areamap.DEFAULT_WIDTH) is first
    a = render_area(opening)
    b = render_area(opening)
    assert a.image.tobytes() == b.image.tobytes()
    assert base_layer(style, areamap.DEFAULT_WIDTH) is first


def test_a_style_with_other_colours_draws_in_them(opening):
    style = load_area_style()
    data = style.model_dump()
    data["powers"]["ussr"]["tint"] = "#00ff00"
    green = AreaStyle.model_validate(data)
    x, y = blank_pixel_of("russia")
    assert render_area(opening, style=green).image.getpixel((x, y)) == (0, 255, 0)


def test_opening_view_comes_from_the_data_pack():
    view = opening_view("uk")
    board = load_board()
    assert view.viewer == "uk" and view.power == "ussr" and view.round == 1
    assert {t for t, tv in view.territories.items() if tv.owner is None} == {
        s.id for s in board.land() if s.original_owner is None
    }
    assert view.territories["russia"].units["ussr"]["infantry"] == 3
    assert view.sea_zones["sz4"].units == {"ussr": {"submarine": 1}}
    assert view.territories["japan"].industrial_complex
