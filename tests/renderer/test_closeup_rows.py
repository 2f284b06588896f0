"""Close-ups of the row-grid maps (issue 15 item 4 for The African Campaign and Blocks in
Afrika): cut in the row grid's geometry from :mod:`renderer.rows`' pictures, at about
PFV's hex sizes, and, for BIA's fog of war (1.3, L134-138), from the reader's own view."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from engine.core.dice import ActionDice, ScriptedDice
from engine.games.bia.board import ALLIED, AXIS
from engine.games.bia.mapview import map_view as bia_map
from engine.games.bia.rules import BlocksInAfrika
from engine.games.bia.view import view as bia_view
from engine.games.tac.mapview import map_view as tac_map
from engine.games.tac.rules import TheAfricanCampaign
from renderer.closeup import (
    CLOSEUP_WIDTH,
    HEX_ZOOMS,
    MAX_HEIGHT,
    ROW_ZOOMS,
    closeup,
    closeup_png,
    map_places,
    places_named,
)
from renderer.hexmap import render

BIA = BlocksInAfrika()


@pytest.fixture(scope="module")
def tac():
    """The campaign's opening as the Allied player sees it (every unit is seen, TAC 5.0)."""
    return tac_map(TheAfricanCampaign().setup("campaign", {}, ScriptedDice([])), "allied")


@pytest.fixture(scope="module")
def bia3():
    return BIA.setup("BIA3", {}, ActionDice(b"closeup", "closeup-rows", 0))


def inside(point: tuple[float, float], image: Image.Image) -> bool:
    return 0 <= point[0] <= image.width and 0 <= point[1] <= image.height


def radius_at(view, width: int) -> float:
    return render(view, width).layout.radius


def assert_closest_cut(view, named: list[str]):
    """The close-up of ``named`` at the game's closest zoom: every place in it, inside
    the preview's size, with the pieces standing there drawn. Returns it."""
    cut = closeup(view, named)
    assert cut is not None and cut.places == tuple(named)
    assert cut.zoom == ROW_ZOOMS[view.game][0]
    assert cut.image.width == CLOSEUP_WIDTH and cut.image.height <= MAX_HEIGHT
    assert all(inside(p, cut.image) for p in cut.points.values())
    there = {c.id for s in view.stacks if s.hex in named for c in s.counters}
    assert there and there <= {p.id for p in cut.pieces}
    return cut


def test_a_tac_close_up_holds_the_hexes_named_at_about_pfvs_closest_zoom(tac):
    named = places_named(tac, ["move it_64 1256 1258", "attack 1359"])
    assert named == ["1256", "1258", "1359"]
    cut = assert_closest_cut(tac, named)
    # legible: hexes as big as PFV's closest close-up, not the whole map shrunk to 550 px
    zoomed = radius_at(tac, cut.zoom)
    assert zoomed >= 0.95 * radius_at_pfv(HEX_ZOOMS[0])
    assert zoomed >= 5 * radius_at(tac, CLOSEUP_WIDTH)


def radius_at_pfv(width: int) -> float:
    from renderer.base import base_layer
    from renderer.board import load_board
    from renderer.style import load_style

    return base_layer(load_board("pfv"), load_style("pfv"), width).layout.radius


def test_a_wide_tac_action_shows_its_busiest_part_no_smaller_than_pfvs_least_zoom(tac):
    cut = closeup(tac, ["0602", "1256", "1258", "1359", "1364"])
    assert cut is not None and cut.zoom == ROW_ZOOMS["tac"][-1]
    assert cut.places == ("1256", "1258", "1359", "1364")  # 0602 lies far to the west
    assert cut.image.width == CLOSEUP_WIDTH and cut.image.height <= MAX_HEIGHT
    assert all(inside(p, cut.image) for p in cut.points.values())
    assert radius_at(tac, cut.zoom) >= 0.95 * radius_at_pfv(HEX_ZOOMS[-1])


def test_a_row_maps_places_are_its_own_hexes_and_nothing_else_gives_none(tac):
    assert "1256" in map_places(tac) and "7315" not in map_places(tac)
    assert closeup(tac, ["9999", "nowhere"]) is None
    png = closeup_png(tac, ["1256"])
    assert png is not None and Image.open(io.BytesIO(png)).size[0] == CLOSEUP_WIDTH


def test_a_bia_close_up_holds_the_hexes_named_with_their_blocks(bia3):
    mine = bia_map(bia_view(BIA.board, bia3, AXIS))
    named = places_named(mine, ["2217 2218 2317"])
    assert named == ["2217", "2218", "2317"]
    cut = assert_closest_cut(mine, named)
    assert radius_at(mine, cut.zoom) >= 0.95 * radius_at_pfv(HEX_ZOOMS[0])


def test_a_bia_enemys_close_up_holds_no_hidden_block_identity(bia3):
    """BIA 1.3 (L134-138): a side sees the enemy's blocks standing, their faces hidden.
    The Axis close-up of a hex the Commonwealth holds is cut from the Axis view: its
    blocks are drawn by nation and token only, while the owner's close-up names them."""
    enemy_view = bia_map(bia_view(BIA.board, bia3, AXIS))
    owner_view = bia_map(bia_view(BIA.board, bia3, ALLIED))
    hex_ = next(s.hex for s in owner_view.stacks if s.side == ALLIED and s.count >= 2)
    hidden = [
        b
        for b in bia3.blocks.values()
        if b.side == ALLIED and b.where == "map" and b.at == hex_ and not b.revealed
    ]
    assert len(hidden) >= 2
    secrets = {b.id for b in hidden} | {BIA.board.block(b.id).name for b in hidden}

    enemys = closeup(enemy_view, [hex_])
    owners = closeup(owner_view, [hex_])
    assert enemys is not None and owners is not None
    drawn_there = [p for p in enemys.pieces if p.hex == hex_]
    assert len(drawn_there) == len(hidden)  # every block stands there, faces hidden
    drawn = {p.id for p in enemys.pieces}
    assert not drawn & secrets
    assert drawn <= {c.id for s in enemy_view.stacks for c in s.counters}
    # the view the cut is drawn from names no hidden block either
    enemy_text = enemy_view.model_dump_json()
    assert not [s for s in secrets if f'"{s}"' in enemy_text]
    # the owner's own close-up shows which blocks they are
    assert {b.id for b in hidden} <= {p.id for p in owners.pieces}
    assert enemys.png() != owners.png()
