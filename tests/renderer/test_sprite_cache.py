"""Counter pictures kept on disk (renderer/diskcache.py, renderer/counters.py) and the PNG
written without Pillow's plugins (renderer/hexmap.py): a new process reads the faces an
earlier one drew instead of drawing them again, a damaged or foreign file is ignored and
drawn afresh, and the map's PNG holds exactly the pixels Pillow's own PNG would."""

from __future__ import annotations

import io
from collections import OrderedDict

import pytest
from PIL import Image

import renderer
from renderer import counters, diskcache
from renderer.hexmap import encode_png, paletted_png
from renderer.style import load_style
from tests.renderer.conftest import PANZER, PARA, make_view

WIDTH = 900
SIZE = 40


@pytest.fixture(autouse=True)
def sprite_home(tmp_path, monkeypatch):
    """A cache folder of the test's own, and no counter picture in memory."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setattr(counters, "_SPRITES", OrderedDict())
    renderer.clear_cache()
    yield tmp_path / "cache" / "umpire" / "sprites"
    renderer.clear_cache()


@pytest.fixture
def draws(monkeypatch) -> list[str]:
    """Counts the faces and backs drawn cold."""
    calls: list[str] = []
    face, back = counters._sprite, counters._back

    def counted_face(*args, **kwargs):
        calls.append("face")
        return face(*args, **kwargs)

    def counted_back(*args, **kwargs):
        calls.append("back")
        return back(*args, **kwargs)

    monkeypatch.setattr(counters, "_sprite", counted_face)
    monkeypatch.setattr(counters, "_back", counted_back)
    return calls


def _new_process(monkeypatch) -> None:
    """As a new process starts: no counter picture and no base layer in memory."""
    monkeypatch.setattr(counters, "_SPRITES", OrderedDict())
    renderer.clear_cache()


def _pixels(sprite: counters.Sprite) -> tuple[bytes, bytes]:
    return sprite.rgb.tobytes(), sprite.mask.tobytes()


def test_a_new_process_reads_the_counters_from_disk_and_draws_the_same_map(
    board, sprite_home, draws, monkeypatch
):
    png = renderer.render(make_view(), WIDTH, board=board).png()
    drawn = len(draws)
    assert drawn > 0
    assert len(list(sprite_home.glob("*.sprite"))) == drawn  # one file a picture

    _new_process(monkeypatch)
    assert renderer.render(make_view(), WIDTH, board=board).png() == png
    assert len(draws) == drawn  # not one counter drawn again


def test_a_face_read_back_is_the_face_drawn(sprite_home, draws, monkeypatch):
    style = load_style("pfv")
    drawn = counters.counter_sprite(PANZER, style, SIZE)
    back = counters.back_sprite("allied", style, SIZE)
    _new_process(monkeypatch)
    assert _pixels(counters.counter_sprite(PANZER, style, SIZE)) == _pixels(drawn)
    assert _pixels(counters.back_sprite("allied", style, SIZE)) == _pixels(back)
    assert draws == ["face", "back"]


def test_another_face_size_or_style_is_drawn_and_stored_apart(sprite_home, draws, monkeypatch):
    style = load_style("pfv")
    counters.counter_sprite(PANZER, style, SIZE)
    counters.counter_sprite(PARA, style, SIZE)
    counters.counter_sprite(PANZER, style, SIZE + 2)
    other = type(style).model_validate({**style.model_dump(), "counter_scale": 0.9})
    assert other.fingerprint != style.fingerprint
    counters.counter_sprite(PANZER, other, SIZE)
    assert len(draws) == 4
    assert len(list(sprite_home.glob("*.sprite"))) == 4


@pytest.mark.parametrize(
    "damage",
    [
        lambda blob: b"",
        lambda blob: blob[: len(blob) // 2],  # cut short
        lambda blob: b"not a sprite at all\n" + blob,
        lambda blob: blob[:-64] + bytes(64),  # pixels overwritten
        lambda blob: blob.replace(b'"width"', b'"widtX"', 1),  # header missing a field
        lambda blob: blob.replace(b'"width": ', b'"width": 9', 1),  # a size the pixels lack
    ],
    ids=["empty", "truncated", "foreign", "corrupt-pixels", "bad-header", "bad-size"],
)
def test_a_damaged_counter_file_is_ignored_and_drawn_again(sprite_home, draws, monkeypatch, damage):
    style = load_style("pfv")
    drawn = counters.counter_sprite(PANZER, style, SIZE)
    (path,) = sprite_home.glob("*.sprite")
    path.write_bytes(damage(path.read_bytes()))

    _new_process(monkeypatch)
    assert _pixels(counters.counter_sprite(PANZER, style, SIZE)) == _pixels(drawn)
    assert draws == ["face", "face"]  # the damaged file was not used
    _new_process(monkeypatch)  # and it was written whole again
    assert _pixels(counters.counter_sprite(PANZER, style, SIZE)) == _pixels(drawn)
    assert draws == ["face", "face"]


def test_a_file_holding_another_face_is_not_used(sprite_home, draws, monkeypatch):
    style = load_style("pfv")
    counters.counter_sprite(PARA, style, SIZE)
    (para,) = sprite_home.glob("*.sprite")
    blob = para.read_bytes()
    counters.counter_sprite(PANZER, style, SIZE)
    (panzer,) = set(sprite_home.glob("*.sprite")) - {para}
    panzer.write_bytes(blob)  # the Para's picture under the Panzer's name

    _new_process(monkeypatch)
    sprite = counters.counter_sprite(PANZER, style, SIZE)
    assert len(draws) == 3
    _new_process(monkeypatch)
    assert _pixels(counters.counter_sprite(PANZER, style, SIZE)) == _pixels(sprite)
    assert _pixels(sprite) != _pixels(counters.counter_sprite(PARA, style, SIZE))


def test_a_cache_folder_that_cannot_be_written_costs_only_the_saving(tmp_path, monkeypatch, draws):
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("a file where the cache folder would go")
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocker))
    style = load_style("pfv")
    first = counters.counter_sprite(PANZER, style, SIZE)
    _new_process(monkeypatch)
    assert _pixels(counters.counter_sprite(PANZER, style, SIZE)) == _pixels(first)
    assert draws == ["face", "face"]
    assert blocker.read_text() == "a file where the cache folder would go"


def test_the_counter_folder_keeps_only_the_newest_files(sprite_home, monkeypatch):
    monkeypatch.setattr(diskcache, "KEEP_SPRITES", 2)
    monkeypatch.setattr(diskcache, "_PRUNE_EVERY", 1)
    style = load_style("pfv")
    for size in (30, 32, 34):
        counters.counter_sprite(PANZER, style, size)
    assert len(list(sprite_home.glob("*.sprite"))) == 2


def test_a_key_that_is_not_plain_data_is_drawn_each_time_and_never_stored(sprite_home):
    key = ("face", "style", object(), SIZE)
    picture = Image.new("RGBA", (SIZE, SIZE), (10, 20, 30, 255))
    diskcache.save_sprite(key, picture)
    assert diskcache.load_sprite(key) is None
    assert not sprite_home.exists()


def test_the_map_png_holds_the_pixels_and_colours_pillow_would_write(board):
    rendering = renderer.render(make_view(), WIDTH, board=board)
    paletted = rendering.image.quantize(palette=rendering.palette, dither=Image.Dither.NONE)
    ours = Image.open(io.BytesIO(rendering.png()))
    buf = io.BytesIO()
    paletted.save(buf, "PNG", compress_level=2)
    pillows = Image.open(io.BytesIO(buf.getvalue()))
    assert ours.format == "PNG" and ours.mode == pillows.mode == "P"
    assert ours.size == pillows.size == rendering.image.size
    assert ours.tobytes() == pillows.tobytes()
    assert ours.getpalette() == pillows.getpalette()
    assert ours.convert("RGB").tobytes() == paletted.convert("RGB").tobytes()


def test_a_picture_without_a_palette_is_left_to_pillow():
    rgb = Image.new("RGB", (5, 3), (200, 10, 10))
    back = Image.open(io.BytesIO(paletted_png(rgb)))
    assert back.mode == "RGB" and back.tobytes() == rgb.tobytes()
    # encode_png with no palette fits one, and the colours survive
    assert Image.open(io.BytesIO(encode_png(rgb))).convert("RGB").tobytes() == rgb.tobytes()
