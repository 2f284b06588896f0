"""Real games of Patton's First Victory drawn end to end: a fresh set-up and a seeded
random game part-way through its first turn, from every seat and the public."""

from __future__ import annotations

import io
import math
import random

import pytest
from PIL import Image

import engine
import renderer
from engine.core.view import HexMapView
from renderer.style import load_style


def _new_game():
    game = engine.Game.new("pfv", secret=b"renderer-gallery", game_id="renderer-gallery")
    for order in ("auto", "done", "auto", "done"):
        game.play(order)
    return game


@pytest.fixture(scope="module")
def fresh():
    return _new_game()


@pytest.fixture(scope="module")
def midgame():
    """Nineteen random legal orders into turn 1: moves, an attack, results, eliminations."""
    game = _new_game()
    rng = random.Random(1)
    for _ in range(19):
        game.play(rng.choice(game.legal_orders()))
    return game


def check_rendering(view: HexMapView, r: renderer.Rendering, png: bytes) -> None:
    img = Image.open(io.BytesIO(png))
    assert img.width == 1600 and 1200 < img.height < 2400
    assert len(png) < 2_000_000
    # every counter the view holds is drawn once, in its hex, plus one blank back per
    # unseen piece (at most three) under a hidden stack
    for stack in view.stacks:
        drawn = r.pieces_at(stack.hex)
        assert [p.id for p in drawn if p.id] == [c.id for c in reversed(stack.counters)]
        assert sum(p.id is None for p in drawn) == min(stack.count - len(stack.counters), 3)
        cx, cy = r.layout.center(stack.hex)
        for p in drawn:
            centre = ((p.bbox[0] + p.bbox[2]) / 2, (p.bbox[1] + p.bbox[3]) / 2)
            assert math.dist(centre, (cx, cy)) < r.layout.radius * 0.6
    on_map = sum(len(s.counters) for s in view.stacks)
    assert sum(1 for p in r.pieces if p.hex and p.id) == on_map
    in_boxes = sum(len(b.counters) for b in view.boxes)
    assert sum(1 for p in r.pieces if p.box) + sum(r.overflow.values()) == in_boxes
    assert {b.hex: b.count for b in r.badges} == {
        s.hex: s.count for s in view.stacks if s.count > 1
    }
    # the legend is there: its heading area is not blank panel
    style = load_style("pfv")
    assert style.terrain["hills"].legend in " ".join(r.legend)
    x0 = r.layout.panel_box[0]
    legend_area = img.convert("RGB").crop((x0, img.height - 300, img.width, img.height))
    assert len(legend_area.getcolors(100000) or []) > 20


@pytest.mark.parametrize("role", [None, "allied", "axis"])
def test_fresh_pfv_game_is_drawn_for_every_seat(fresh, role, tmp_path):
    view = fresh.view(role)
    r = renderer.render(view)
    png = r.png()
    (tmp_path / f"fresh-{role or 'public'}.png").write_bytes(png)
    check_rendering(view, r, png)
    assert len(view.stacks) > 30


def test_fresh_pfv_game_hides_axis_stacks_from_the_allied_player(fresh):
    """PFV 6: with no unit next to it, an enemy stack shows only its top piece."""
    axis, allied = fresh.view("axis"), fresh.view("allied")
    full = {s.hex: s for s in axis.stacks if s.side == "axis" and s.count > 1}
    seen = {s.hex: s for s in allied.stacks if s.hex in full}
    hidden = [h for h, s in seen.items() if s.hidden]
    assert hidden, "the set-up should leave some Axis stack out of Allied sight"
    r = renderer.render(allied)
    drawn = {p.id for p in r.pieces}
    for h in hidden:
        top, *under = [c.id for c in full[h].counters]
        assert [p.id for p in r.pieces_at(h)][-1] == top
        assert not set(under) & drawn
        assert [b.count for b in r.badges if b.hex == h] == [full[h].count]


@pytest.mark.parametrize("role", [None, "allied"])
def test_midgame_pfv_game_is_drawn_with_its_last_actions(midgame, role, tmp_path):
    view = midgame.view(role)
    r = renderer.render(view)
    png = r.png()
    (tmp_path / f"midgame-{role or 'public'}.png").write_bytes(png)
    check_rendering(view, r, png)
    drawable = [a for a in view.arrows if len(a.path) >= 1]
    assert len(r.arrows) == len(drawable) > 0
    assert [(m.hex, m.kind) for m in r.markers] == [(m.hex, m.kind) for m in view.markers]
