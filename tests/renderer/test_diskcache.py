"""The base layer's copy on disk (renderer/diskcache.py): a new process reads the static
layer back instead of drawing it cold; a damaged or foreign file is ignored and redrawn."""

from __future__ import annotations

import pytest

import renderer
from renderer import base, diskcache
from renderer.style import load_style
from tests.renderer.conftest import make_view

WIDTH = 900


@pytest.fixture(autouse=True)
def cache_home(tmp_path, monkeypatch):
    """A cache folder of the test's own, and an empty in-memory cache before and after."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    renderer.clear_cache()
    yield tmp_path / "cache" / "umpire" / "base"
    renderer.clear_cache()


@pytest.fixture
def draws(monkeypatch) -> list[int]:
    """Counts the cold draws of a base layer."""
    calls: list[int] = []
    real = base.draw_base

    def counted(*args, **kwargs):
        calls.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(base, "draw_base", counted)
    return calls


def _same_layer(a: base.BaseLayer, b: base.BaseLayer) -> None:
    assert a.image.tobytes() == b.image.tobytes()
    assert a.image.size == b.image.size and a.image.mode == b.image.mode
    assert a.layout == b.layout
    assert a.dynamic_box == b.dynamic_box
    assert a.legend == b.legend
    assert a.palette is not None and b.palette is not None
    assert a.palette.getpalette() == b.palette.getpalette()
    assert a.palette.tobytes() == b.palette.tobytes()


def _key(board, style) -> tuple[str, ...]:
    return (board.game, board.fingerprint, style.fingerprint, str(WIDTH))


def test_a_new_process_reads_the_layer_from_disk_instead_of_drawing_it(board, cache_home, draws):
    style = load_style("pfv")
    drawn = base.base_layer(board, style, WIDTH)
    assert len(draws) == 1
    assert [p.name for p in cache_home.iterdir()] == [diskcache.path_for(_key(board, style)).name]
    png = renderer.render(make_view(), WIDTH, board=board).png()

    renderer.clear_cache()  # as a new process starts: nothing in memory
    read = base.base_layer(board, style, WIDTH)
    assert len(draws) == 1  # no second draw
    assert read is not drawn
    _same_layer(read, drawn)
    assert renderer.render(make_view(), WIDTH, board=board).png() == png


def test_another_width_style_or_pack_is_drawn_and_stored_apart(board, cache_home, draws):
    style = load_style("pfv")
    base.base_layer(board, style, WIDTH)
    base.base_layer(board, style, WIDTH + 100)
    other = renderer.Board(board.game, board.hexmap, board.fingerprint + "-changed")
    base.base_layer(other, style, WIDTH)
    assert len(draws) == 3
    assert len(list(cache_home.glob("*.layer"))) == 3


@pytest.mark.parametrize(
    "damage",
    [
        lambda blob: b"",
        lambda blob: blob[: len(blob) // 2],  # cut short
        lambda blob: b"not a layer at all\n" + blob,
        lambda blob: blob[:-200] + bytes(200),  # pixels overwritten
        lambda blob: blob.replace(b'"legend"', b'"legenX"', 1),  # header missing a field
    ],
    ids=["empty", "truncated", "foreign", "corrupt-pixels", "bad-header"],
)
def test_a_damaged_cache_file_is_ignored_and_drawn_again(board, cache_home, draws, damage):
    style = load_style("pfv")
    drawn = base.base_layer(board, style, WIDTH)
    path = diskcache.path_for(_key(board, style))
    path.write_bytes(damage(path.read_bytes()))

    renderer.clear_cache()
    again = base.base_layer(board, style, WIDTH)
    assert len(draws) == 2  # the damaged file was not used
    _same_layer(again, drawn)
    # and the file was written whole again, so the next process reads it
    renderer.clear_cache()
    _same_layer(base.base_layer(board, style, WIDTH), drawn)
    assert len(draws) == 2


def test_a_file_holding_another_key_is_not_used(board, cache_home, draws):
    style = load_style("pfv")
    base.base_layer(board, style, WIDTH + 100)
    wide = diskcache.path_for((board.game, board.fingerprint, style.fingerprint, str(WIDTH + 100)))
    diskcache.path_for(_key(board, style)).write_bytes(wide.read_bytes())

    renderer.clear_cache()
    layer = base.base_layer(board, style, WIDTH)
    assert len(draws) == 2
    assert layer.image.width == WIDTH


def test_a_cache_folder_that_cannot_be_written_costs_only_the_saving(
    board, tmp_path, monkeypatch, draws
):
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("a file where the cache folder would go")
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocker))
    style = load_style("pfv")
    first = base.base_layer(board, style, WIDTH)
    renderer.clear_cache()
    second = base.base_layer(board, style, WIDTH)
    assert len(draws) == 2
    _same_layer(first, second)
    assert blocker.read_text() == "a file where the cache folder would go"


def test_the_cache_folder_follows_xdg_cache_home_else_the_home(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "x"))
    assert diskcache.cache_dir() == tmp_path / "x" / "umpire" / "base"
    monkeypatch.delenv("XDG_CACHE_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert diskcache.cache_dir() == tmp_path / "home" / ".cache" / "umpire" / "base"


def test_the_folder_keeps_only_the_newest_files(board, cache_home, monkeypatch):
    monkeypatch.setattr(diskcache, "KEEP", 2)
    style = load_style("pfv")
    for width in (500, 600, 700):
        base.base_layer(board, style, width)
    kept = {p.name for p in cache_home.glob("*.layer")}
    assert len(kept) == 2
    assert diskcache.path_for(_key(board, style)[:3] + ("700",)).name in kept
