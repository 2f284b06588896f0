"""The close-up of a turn's action (issue 15 item 4): cut from the reader's own view,
around the places named, legible at Discord's inline preview width of 550 pixels."""

from __future__ import annotations

import io
import random

import pytest
from PIL import Image

from engine.core.game import Game
from engine.fuzz import random_order
from renderer.closeup import (
    CLOSEUP_WIDTH,
    HEX_ZOOMS,
    MAX_HEIGHT,
    action_places,
    closeup,
    closeup_png,
    places_named,
)
from renderer.hexmap import render


def played(ruleset_id: str, actions: int, seed: int = 2, **options) -> Game:
    game = Game.new(ruleset_id, options=options, secret=b"c" * 32, game_id=f"close-{seed}")
    rng = random.Random(seed)
    for _ in range(actions):
        if game.ruleset.prompt(game.state).role is None:
            break
        role, order = random_order(game.ruleset, game.state, rng)
        game.play(order, role)
    return game


@pytest.fixture(scope="module")
def pfv() -> Game:
    return played("pfv", 300)


@pytest.fixture(scope="module")
def aa() -> Game:
    return played("aa-revised", 150, max_rounds=8)


def inside(point: tuple[float, float], image: Image.Image) -> bool:
    return 0 <= point[0] <= image.width and 0 <= point[1] <= image.height


def test_a_local_action_is_cut_at_the_closest_zoom_without_scaling(pfv):
    view = pfv.ruleset.view(pfv.state, None)
    cut = closeup(view, ["7315", "7415"])
    assert cut is not None and cut.places == ("7315", "7415")
    assert cut.zoom == HEX_ZOOMS[0]
    assert cut.image.width == CLOSEUP_WIDTH and cut.image.height <= MAX_HEIGHT
    assert all(inside(p, cut.image) for p in cut.points.values())
    # legible: a hex is drawn far larger than on the whole map shrunk to the same width
    whole = render(view, 1600)
    shrunk_radius = whole.layout.radius * CLOSEUP_WIDTH / whole.image.width
    zoomed_radius = render(view, cut.zoom).layout.radius
    assert zoomed_radius >= 3 * shrunk_radius


def test_a_wide_action_shows_its_busiest_part_at_a_legible_zoom(pfv):
    view = pfv.ruleset.view(pfv.state, None)
    # three places near the top of the map, one far south: the three are shown
    places = ["7308", "7409", "7508", "8822"]
    cut = closeup(view, places)
    assert cut is not None and cut.zoom == HEX_ZOOMS[-1]
    assert cut.image.width == CLOSEUP_WIDTH and cut.image.height <= MAX_HEIGHT
    assert cut.places == ("7308", "7409", "7508")
    assert all(inside(p, cut.image) for p in cut.points.values())
    # a zoom that keeps hexes legible: far larger than the whole map at 550 pixels
    assert render(view, cut.zoom).layout.radius >= 2 * render(view, CLOSEUP_WIDTH).layout.radius


def test_the_png_is_the_picture_and_nothing_on_the_map_gives_none(pfv):
    view = pfv.ruleset.view(pfv.state, None)
    png = closeup_png(view, ["7315"])
    assert png is not None and Image.open(io.BytesIO(png)).size[0] == CLOSEUP_WIDTH
    assert closeup(view, ["0000", "nowhere"]) is None
    assert closeup(view, []) is None


def test_places_are_read_from_orders_and_the_view_records_its_own_actions(pfv):
    view = pfv.ruleset.view(pfv.state, None)
    texts = ["move 10pz 7710 7711", "attack trieste 8720 air jg77", "rolls 6 on 9999"]
    assert places_named(view, texts) == ["7710", "7711", "8720"]
    recorded = action_places(view)
    assert recorded and all(
        p in {h for a in view.arrows for h in a.path} | {m.hex for m in view.markers}
        for p in recorded
    )
    assert closeup(view) is not None  # by default, around what the view records


def test_an_area_map_close_up_holds_the_territories_named(aa):
    view = aa.ruleset.view(aa.state, None)
    assert places_named(view, ["move 1 inf archangel west_russia"]) == [
        "archangel",
        "west_russia",
    ]
    cut = closeup(view, ["west_russia", "caucasus"])
    assert cut is not None
    assert cut.image.width == CLOSEUP_WIDTH and cut.image.height <= MAX_HEIGHT
    assert set(cut.points) == {"west_russia", "caucasus"}
    assert all(inside(p, cut.image) for p in cut.points.values())
    assert action_places(view)  # the view's recent moves name where the action was


def test_an_enemys_close_up_shows_only_the_top_of_a_hidden_stack():
    """PFV 6 (L70; RULINGS R3, R38): only the top of an enemy stack is seen unless a unit
    is adjacent. The close-up is cut from the enemy's own view, so the pieces under the
    top one are blank backs there, while the owner's close-up shows them."""
    game = Game.new("pfv", secret=b"c" * 32, game_id="hidden")
    rng = random.Random(2)
    found = None
    for _ in range(40):
        role, order = random_order(game.ruleset, game.state, rng)
        game.play(order, role)
        for viewer, owner in (("axis", "allied"), ("allied", "axis")):
            hidden = [s for s in game.ruleset.view(game.state, viewer).stacks if s.hidden]
            if hidden and hidden[0].count >= 2:
                found = (viewer, owner, hidden[0].hex)
                break
        if found:
            break
    assert found, "no stack was hidden from the enemy in the opening set-up"
    viewer, owner, hex_ = found
    enemy_view = game.ruleset.view(game.state, viewer)
    owner_view = game.ruleset.view(game.state, owner)
    seen = {c.id for s in enemy_view.stacks if s.hex == hex_ for c in s.counters}
    held = {c.id for s in owner_view.stacks if s.hex == hex_ for c in s.counters}
    secret = held - seen
    assert secret, (seen, held)

    enemys = closeup(enemy_view, [hex_])
    owners = closeup(owner_view, [hex_])
    assert enemys is not None and owners is not None
    drawn_there = [p for p in enemys.pieces if p.hex == hex_]
    assert {p.id for p in drawn_there if p.id} == seen
    assert len(drawn_there) == len(held)  # the rest as blank backs, counted
    assert not secret & {p.id for p in enemys.pieces}
    # everything the enemy's close-up draws is in the enemy's view
    assert {p.id for p in enemys.pieces if p.id} <= {
        c.id for s in enemy_view.stacks for c in s.counters
    }
    assert secret <= {p.id for p in owners.pieces}
    assert enemys.png() != owners.png()
