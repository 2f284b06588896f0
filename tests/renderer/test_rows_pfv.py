"""Patton's First Victory is drawn as before the row grids came: on its own flat-topped
odd-q geometry, never through :mod:`renderer.rows`."""

from __future__ import annotations

import pytest

from engine.core.view import HexMapView
from renderer import rows
from renderer.geometry import Layout, RowLayout
from renderer.hexmap import render
from tests.renderer.conftest import make_view


def test_a_pfv_view_never_reaches_the_row_renderer(board, monkeypatch):
    def refuse(*args, **kwargs):
        raise AssertionError("a PFV view was sent to the row-grid renderer")

    monkeypatch.setattr(rows, "render", refuse)
    r = render(make_view(), 900, board=board)
    assert type(r.layout) is Layout and not isinstance(r.layout, RowLayout)


def test_a_view_without_a_grid_is_pfvs_and_draws_the_same_pixels(board):
    """Views stored before the field existed load as odd-q, and naming the default grid
    changes nothing in the picture."""
    plain = make_view()
    data = plain.model_dump(mode="json")
    del data["grid"]
    assert HexMapView.model_validate(data).grid == "odd-q-CCRR"
    named = plain.model_copy(update={"grid": "odd-q-CCRR"})
    assert (
        render(plain, 900, board=board).image.tobytes()
        == render(named, 900, board=board).image.tobytes()
    )


def test_an_unknown_grid_is_refused_by_the_view():
    with pytest.raises(ValueError, match="grid"):
        HexMapView.model_validate({**make_view().model_dump(mode="json"), "grid": "hexagons"})
