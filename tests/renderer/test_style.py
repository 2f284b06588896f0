"""The look of a game is data: every style file covers everything its data pack uses."""

from __future__ import annotations

import json

import pytest

import renderer
from engine.core import datapack
from engine.core.hexmap import MapPack
from engine.core.view import CounterView, HexMapView, SideView, StackView
from renderer.style import (
    STYLES_DIR,
    Style,
    StyleError,
    coverage_problems,
    load_style,
    load_style_file,
)


def pack_problems(style: Style, pack: MapPack, counters: list[dict] = ()) -> list[str]:
    return coverage_problems(
        style,
        terrain={t for h in pack.hexes for t in h.terrain} | set(pack.terrain),
        hexside_types={f for s in pack.hexsides for f in s.features} | set(pack.hexside_types),
        features={f for h in pack.hexes for f in h.features} | set(pack.feature_types),
        regions={h.region for h in pack.hexes if h.region} | set(pack.regions),
        kinds={c["kind"] for c in counters},
        symbols={c["symbol"] for c in counters},
        tags={t for c in counters for t in c.get("tags") or []},
        sides={c["side"] for c in counters},
    )


def test_pfv_style_covers_the_renderer_test_map(board):
    assert pack_problems(load_style("pfv"), board.pack) == []


def test_pfv_style_covers_every_terrain_feature_and_piece_of_the_shipped_pack():
    pack = datapack.load("pfv", "map", MapPack)
    counters = json.loads(datapack.pack_path("pfv", "counters").read_text())["counters"]
    assert counters, "the counters pack lists no counters"
    assert pack_problems(load_style("pfv"), pack, counters) == []


def test_a_terrain_the_style_does_not_draw_is_reported(board):
    raw = load_style("pfv").model_dump()
    del raw["terrain"]["marsh"]
    raw["kinds"]["air"]["legend"] = " "
    problems = pack_problems(
        Style.model_validate(raw), board.pack, [{"kind": "air", "symbol": "air", "side": "axis"}]
    )
    assert "terrain type 'marsh' has no drawing in the pfv style" in problems
    assert "piece kind 'air' has no legend text in the pfv style" in problems


def test_every_shipped_style_file_is_valid():
    files = sorted(STYLES_DIR.glob("*.json"))
    assert files
    for path in files:
        if "powers" in json.loads(path.read_text()):
            from renderer.areamap import load_area_style

            assert load_area_style(path.stem).powers  # an area-map style (A&A)
            continue
        style = load_style_file(path)
        assert style.game == path.stem


def test_a_missing_or_broken_style_is_one_sentence(tmp_path):
    with pytest.raises(StyleError, match="no map style for this game"):
        load_style_file(tmp_path / "nogame.json")
    bad = tmp_path / "bad.json"
    bad.write_text('{"game": "bad", "version": "1", "title": "x"}')
    with pytest.raises(StyleError, match="bad.json: terrain: Field required"):
        load_style_file(bad)


def test_a_second_hex_game_is_drawn_from_its_data_and_style_alone():
    """Nothing of PFV is needed: invented terrain, hexsides, features, sides and symbols."""
    pack = MapPack.model_validate(
        {
            "header": {
                "game": "keep",
                "name": "Castle map",
                "version": "1",
                "provenance": "reconstruction",
            },
            "grid": {"first_col": 1, "last_col": 4, "first_row": 1, "last_row": 3},
            "regions": {"north": "North", "south": "South"},
            "terrain": {
                "plain": {"name": "Plain"},
                "forest": {"name": "Forest", "mp": 2},
                "lake": {"name": "Lake", "mp": None, "land": False},
            },
            "hexside_types": {"wall": {"name": "Wall", "mp": None}},
            "feature_types": {"castle": {"name": "Castle"}},
            "hexes": [
                {
                    "id": f"{c:02d}{r:02d}",
                    "terrain": ["lake" if (c, r) == (4, 3) else "forest" if c == 2 else "plain"],
                    "region": None if (c, r) == (4, 3) else "north" if r == 1 else "south",
                }
                | ({"features": ["castle"], "name": "Keep"} if (c, r) == (1, 1) else {})
                for c in range(1, 5)
                for r in range(1, 4)
            ],
            "hexsides": [{"between": ["0101", "0201"], "features": ["wall"]}],
            "roads": [["0102", "0202", "0302"]],
        }
    )
    style = Style.model_validate(
        {
            "game": "keep",
            "version": "1",
            "title": "Keep",
            "terrain": {
                "plain": {"fill": "#e8e0b0", "legend": "Plain"},
                "forest": {
                    "fill": "#7fa36b",
                    "pattern": {"kind": "dots", "colour": "#2f5a2a"},
                    "legend": "Forest",
                },
                "lake": {"fill": "#8ab4e0", "pattern": {"kind": "waves"}, "legend": "Lake"},
            },
            "hexsides": {"wall": {"draw": "wall", "colour": "#333333", "legend": "Wall"}},
            "features": {
                "castle": {"icon": "square", "fill": "#999999", "text": "K", "legend": "Castle"}
            },
            "roads": {"colour": "#555555", "legend": "Track"},
            "border": {"colour": "#aa00aa", "dash": True, "legend": "Shire line"},
            "coast": {"colour": "#224488", "legend": "Shore"},
            "regions": {"north": {"label": "North"}, "south": {"label": "South"}},
            "sides": {
                "red": {
                    "name": "Red",
                    "fill": "#f3d0d0",
                    "band": "#b02020",
                    "factor": "#b02020",
                    "back": "#c06060",
                },
                "gold": {
                    "name": "Gold",
                    "fill": "#f3ecc8",
                    "band": "#a07a00",
                    "factor": "#6b5200",
                    "back": "#c0a040",
                },
            },
            "kinds": {"unit": {"left": "combat", "right": "move", "legend": "Troop"}},
            "symbols": {"knight": {"draw": ["oval", "dot"], "legend": "Knights"}},
            "arrows": {"move": {"colour": "side", "legend": "March"}},
            "default_marker": {"shape": "burst", "fill": "#ff9900", "legend": "Fight"},
        }
    )
    board = renderer.Board.from_pack(pack)
    assert pack_problems(style, pack) == []
    knights = CounterView(
        id="k1", side="gold", kind="unit", name="Knights", symbol="knight", combat=5, move=3
    )
    view = HexMapView(
        game="keep", viewer=None, title="Keep", turn=1, turn_label="", phase="March", active_role="red",
        prompt="Red to march.", sides=[SideView(id="red", name="Red"), SideView(id="gold", name="Gold")],
        stacks=[StackView(hex="0202", side="gold", counters=[knights], count=1)],
    )  # fmt: skip
    r = renderer.render(view, width=900, board=board, style=style)
    assert [p.id for p in r.pieces_at("0202")] == ["k1"]
    assert {
        "Plain: 1 MP",
        "Forest: 2 MP",
        "Lake: no entry",
        "Wall: no crossing",
        "Castle",
        "Knights",
    } <= set(r.legend)
    assert r.image.width == 900
