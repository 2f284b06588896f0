"""Drawing a view: what is drawn where, hidden stacks, caching, size (ARCHITECTURE: Rendering)."""

from __future__ import annotations

import io
import math
import os

from PIL import Image, ImageFont

import renderer
from engine.core.view import ArrowView, BoxView, MarkerView, StackView
from renderer import fonts
from renderer.base import base_layer
from renderer.fonts import printable
from renderer.style import load_style
from tests.renderer.conftest import FLAK, PANZER, STUKAS, TIGERS, make_view, piece


def faces(rendering: renderer.Rendering, hex_: str) -> list[str | None]:
    return [p.id for p in rendering.pieces_at(hex_)]


def test_hidden_stack_opponent_image_shows_only_the_top_piece_and_a_count(board):
    owner = renderer.render(make_view("axis", [PANZER, FLAK, STUKAS]), board=board)
    opponent = renderer.render(make_view("allied", [PANZER], axis_count=3), board=board)

    # the owner sees all three faces; the opponent the top face over two blank backs
    assert sorted(i for i in faces(owner, "1405") if i) == ["10pz", "flak88", "stg3"]
    assert faces(opponent, "1405") == [None, None, "10pz"]
    drawn_ids = {p.id for p in opponent.pieces}
    assert "flak88" not in drawn_ids and "stg3" not in drawn_ids
    assert [(b.hex, b.count) for b in opponent.badges if b.hex == "1405"] == [("1405", 3)]
    # what lies under the top piece changes the owner's picture of the stack, not the opponent's
    x0, y0, x1, y1 = owner.pieces_at("1405")[0].bbox
    area = (x0 - 4, y0 - 4, x1 + 30, y1 + 4)
    other_owner = renderer.render(make_view("axis", [PANZER, TIGERS, STUKAS]), board=board)
    assert owner.image.crop(area).tobytes() != other_owner.image.crop(area).tobytes()
    assert owner.image.crop(area).tobytes() != opponent.image.crop(area).tobytes()


def test_every_counter_is_drawn_in_its_hex_top_piece_last(board):
    view = make_view("axis")
    r = renderer.render(view, board=board)
    radius = r.layout.radius
    for stack in view.stacks:
        drawn = r.pieces_at(stack.hex)
        assert [p.id for p in drawn] == [c.id for c in reversed(stack.counters)]
        cx, cy = r.layout.center(stack.hex)
        for p in drawn:
            x0, y0, x1, y1 = p.bbox
            assert math.dist(((x0 + x1) / 2, (y0 + y1) / 2), (cx, cy)) < radius * 0.5
    assert {b.hex: b.count for b in r.badges} == {"1304": 2, "1405": 3}


def test_pieces_in_off_map_boxes_are_drawn_in_their_box(board):
    r = renderer.render(make_view(), board=board)
    in_boxes = [(p.id, p.box) for p in r.pieces if p.box is not None]
    assert in_boxes == [("34inf", "dead-allied")]
    px0 = r.layout.panel_box[0]
    assert all(p.bbox[0] >= px0 for p in r.pieces if p.box is not None)


def test_a_box_too_full_draws_what_fits_and_counts_the_rest(board):
    crowd = [piece(f"p{i}", "allied", f"Unit {i}") for i in range(200)]
    view = make_view(
        boxes=[BoxView(id="dead-allied", title="Allied eliminated", side="allied", counters=crowd)]
    )
    r = renderer.render(view, board=board)
    shown = [p for p in r.pieces if p.box == "dead-allied"]
    assert 0 < len(shown) < 200
    assert r.overflow == {"dead-allied": 200 - len(shown)}


def test_arrows_and_markers_are_drawn_over_the_hexes_they_name(board):
    view = make_view(
        arrows=[
            ArrowView(kind="retreat", side="axis", path=["1405", "1505", "1506"]),
            ArrowView(kind="air", side="axis", path=["1304"]),
        ],
        markers=[MarkerView(hex="1304", kind="miss", text="4"), MarkerView(hex="1304", kind="hit")],
    )
    r = renderer.render(view, board=board)
    assert [(a.kind, a.path) for a in r.arrows] == [
        ("retreat", ("1405", "1505", "1506")),
        ("air", ("1304",)),
    ]
    retreat = r.arrows[0].bbox
    for h in ("1505",):
        x, y = r.layout.center(h)
        assert retreat[0] <= x <= retreat[2] and retreat[1] <= y <= retreat[3]
    assert [(m.hex, m.kind) for m in r.markers] == [("1304", "miss"), ("1304", "hit")]
    cx, cy = r.layout.center("1304")
    for m in r.markers:
        mx, my = (m.bbox[0] + m.bbox[2]) / 2, (m.bbox[1] + m.bbox[3]) / 2
        assert math.dist((mx, my), (cx, cy)) < r.layout.radius


def test_hexes_the_map_lacks_are_reported_and_drawn_nowhere(board):
    view = make_view(
        stacks=[StackView(hex="9999", side="axis", counters=[PANZER], count=1)],
        arrows=[ArrowView(kind="move", side="axis", path=["9998", "9999"])],
        markers=[MarkerView(hex="9999", kind="hit")],
    )
    r = renderer.render(view, board=board)
    assert r.pieces_at("9999") == [] and r.arrows == [] and r.markers == []
    assert set(r.off_map) == {"9998", "9999"}


def test_png_of_a_full_view_is_1600_wide_and_well_under_2_mb(board):
    png = renderer.render(make_view(), board=board).png()
    img = Image.open(io.BytesIO(png))
    assert img.format == "PNG" and img.width == 1600
    assert len(png) < 2_000_000


def test_the_same_view_always_gives_the_same_png(board):
    assert (
        renderer.render(make_view(), board=board).png()
        == renderer.render(make_view(), board=board).png()
    )


def test_base_layer_is_drawn_once_per_pack_style_and_width(board):
    style = load_style("pfv")
    first = base_layer(board, style, 1600)
    assert base_layer(board, style, 1600) is first
    assert base_layer(board, style, 1200) is not first
    other = renderer.Board(board.game, board.hexmap, board.fingerprint + "-changed")
    assert base_layer(other, style, 1600) is not first
    # a turn's drawing never touches the cached layer
    before = first.image.tobytes()
    renderer.render(make_view(), board=board)
    assert first.image.tobytes() == before


def test_the_legend_explains_every_terrain_hexside_and_feature_of_the_map(board):
    style = load_style("pfv")
    legend = " | ".join(renderer.render(make_view(), board=board).legend)
    pack = board.pack
    for t in {t for h in pack.hexes for t in h.terrain}:
        assert style.terrain[t].legend in legend
    for f in {f for s in pack.hexsides for f in s.features}:
        assert style.hexsides[f].legend in legend
    for f in {f for h in pack.hexes for f in h.features} - set(style.terrain):
        assert style.features[f].legend in legend
    for kind in style.kinds.values():
        assert kind.legend in legend
    # the printed chart's numbers come from the pack
    assert "Hills: 2 MP, +1" in legend and "River: +3 MP, +1" in legend


def test_no_font_file_is_ever_opened_only_the_one_inside_pillow(board, monkeypatch):
    opened = []
    original = ImageFont.truetype

    def watch(font=None, *args, **kwargs):
        if isinstance(font, (str, os.PathLike)):
            opened.append(font)
        return original(font, *args, **kwargs)

    monkeypatch.setattr(ImageFont, "truetype", watch)
    fonts.font.cache_clear()
    renderer.clear_cache()
    renderer.render(make_view(turn_label="Tour 4: Médenine \u2212 Göring"), width=1000, board=board)
    assert opened == []


def test_text_is_folded_to_what_the_bundled_face_can_print():
    assert printable("Médenine \u2212 Göring \u2014 Straße") == "Medenine - Goring - Strasse"
    assert printable("\u2605") == "?"
