"""Close-ups of A&A: North Africa's area map: cut from aa-na's own raster and board, not
A&A Revised's (the two maps share the area renderer and only a few space ids)."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from engine.core.game import Game
from renderer.closeup import (
    CLOSEUP_WIDTH,
    MAX_HEIGHT,
    closeup,
    closeup_png,
    map_places,
    places_named,
)


@pytest.fixture(scope="module")
def na() -> Game:
    return Game.new("aa-na", "rlp-2", secret=b"n" * 32, game_id="close-na")


def test_the_places_are_north_africas_own(na):
    view = na.ruleset.view(na.state, None)
    places = map_places(view)
    # spaces only North Africa's board has, and none only Revised's has
    assert {"tobruk", "el_alamein", "malta", "kasserine_pass"} <= places
    assert "west_russia" not in places and "archangel" not in places
    assert places_named(view, ["move 2 infantry tobruk el_alamein"]) == ["tobruk", "el_alamein"]


def test_a_close_up_of_the_desert_holds_the_territories_named(na):
    view = na.ruleset.view(na.state, "axis")
    cut = closeup(view, ["tobruk", "bir_hacheim"])
    assert cut is not None
    assert cut.image.width == CLOSEUP_WIDTH and cut.image.height <= MAX_HEIGHT
    assert set(cut.points) == {"tobruk", "bir_hacheim"}
    for x, y in cut.points.values():
        assert 0 <= x <= cut.image.width and 0 <= y <= cut.image.height
    png = closeup_png(view, ["tobruk", "bir_hacheim"])
    assert png is not None
    assert Image.open(io.BytesIO(png)).size == cut.image.size


def test_places_not_on_the_map_give_no_close_up(na):
    view = na.ruleset.view(na.state, None)
    assert closeup(view, ["west_russia", "caucasus"]) is None
