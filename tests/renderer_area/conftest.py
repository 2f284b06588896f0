"""Shared renders for the area-map tests: each view is drawn once per session."""

from __future__ import annotations

import pytest

from renderer import areamap
from renderer.areaview import AreaMapView, opening_view
from tests.renderer_area.views import midgame_view


@pytest.fixture(scope="session")
def opening() -> AreaMapView:
    return opening_view()


@pytest.fixture(scope="session")
def midgame() -> AreaMapView:
    return midgame_view("germany")


@pytest.fixture(scope="session")
def opening_render(opening: AreaMapView) -> areamap.AreaRendering:
    return areamap.render_area(opening)


@pytest.fixture(scope="session")
def midgame_render(midgame: AreaMapView) -> areamap.AreaRendering:
    return areamap.render_area(midgame)
