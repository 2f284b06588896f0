"""Blocks in Afrika's map, drawn from each side's fog-of-war view (1.3, L134-138; digest
4.2): own blocks face up, enemy blocks as their colour and token unless revealed, the
white barrel, battle hexes and the Strategic Map boxes."""

from __future__ import annotations

import struct
import zlib

import pytest

from engine.core.dice import ActionDice
from engine.games.bia.board import ALLIED, AXIS, enemy
from engine.games.bia.mapview import block_counter, map_view
from engine.games.bia.rules import BlocksInAfrika
from engine.games.bia.view import view
from renderer.hexmap import render

RULES = BlocksInAfrika()
B = RULES.board
WIDTH = 1800


def opening(scenario: str = "BIA3"):
    return RULES.setup(scenario, {}, ActionDice(b"rows", "rows-test", 0))


@pytest.fixture(scope="module")
def bia3():
    return opening()


def drawn(state, viewer):
    mv = map_view(view(B, state, viewer))
    return mv, render(mv, WIDTH)


def png_chunks(png: bytes) -> list[tuple[bytes, bytes]]:
    out, i = [], 8
    while i < len(png):
        (n,) = struct.unpack(">I", png[i : i + 4])
        out.append((png[i + 4 : i + 8], png[i + 8 : i + 8 + n]))
        i += 12 + n
    return out


def secrets_of(state, side: str) -> set[str]:
    """Everything that would name a block of ``side`` hidden from its enemy: its id,
    name and (with its kind) its type, for every block not face up."""
    out = set()
    for b in state.blocks.values():
        if b.side == side and b.where in ("map", "box") and not b.revealed:
            block = B.block(b.id)
            out |= {b.id, block.name}
    return out


def test_bia_opening_draws_every_block_in_its_hex_and_the_strategic_boxes(bia3):
    mv, r = drawn(bia3, AXIS)
    on_map = [b for b in bia3.blocks.values() if b.where == "map"]
    assert on_map
    at = {p.hex for p in r.pieces if p.hex is not None}
    assert at == {b.at for b in on_map}
    assert len([p for p in r.pieces if p.hex is not None]) == len(on_map)
    assert r.off_map == []
    titles = [b.title for b in mv.boxes]
    for box in B.pack.strategic.boxes.values():
        assert f"Strategic Map: {box.name}" in titles


def test_own_blocks_show_strength_type_and_steps(bia3):
    mv, _ = drawn(bia3, AXIS)
    faces = {c.id: c for s in mv.stacks for c in s.counters}
    for b in bia3.on_map(AXIS):
        c = faces[b.id]
        block = B.block(b.id)
        assert c.combat == block.track[b.steps - 1][0]
        assert c.symbol == block.kind
        assert f"steps:{b.steps}/{len(block.track)}" in c.tags


@pytest.mark.parametrize("viewer", [AXIS, ALLIED, None])
def test_a_side_map_carries_no_identity_of_a_hidden_enemy_block(bia3, viewer):
    """Digest 4.2: only a block's position, nation and token are public. Neither the
    drawing's inputs (the map view), nor what the renderer reports drawing, nor the PNG's
    chunks (no text chunks at all) name a block hidden from the viewer."""
    mv, r = drawn(bia3, viewer)
    hidden = set()
    for side in (AXIS, ALLIED):
        if side != viewer:
            hidden |= secrets_of(bia3, side)
    assert hidden
    dumped = mv.model_dump_json()
    assert not [s for s in hidden if s in dumped]
    assert not {p.id for p in r.pieces} & hidden
    png = r.png()
    kinds = [k for k, _ in png_chunks(png)]
    assert kinds[0] == b"IHDR" and kinds[-1] == b"IEND"
    assert set(kinds) <= {b"IHDR", b"PLTE", b"IDAT", b"IEND"}
    raw = png + zlib.decompress(b"".join(d for k, d in png_chunks(png) if k == b"IDAT"))
    assert not [s for s in hidden if s.encode() in raw]
    blanks = [c for s in mv.stacks for c in s.counters if c.symbol == "block"]
    assert blanks and all(c.combat is None and c.id == c.name for c in blanks)


def test_a_hidden_enemy_blocks_strength_changes_nothing_in_the_picture(bia3):
    """The Axis picture is the same whatever the Allied blocks' hidden strength; the
    Allied picture (their owner's) shows the change."""
    weaker = bia3.clone()
    changed = next(b for b in weaker.on_map(ALLIED) if b.steps > 1)
    changed.steps -= 1
    assert drawn(bia3, AXIS)[1].png() == drawn(weaker, AXIS)[1].png()
    assert drawn(bia3, ALLIED)[1].png() != drawn(weaker, ALLIED)[1].png()


def test_a_revealed_block_shows_its_face_to_the_enemy_until_hidden_again(bia3):
    """L2416-2417: face up after a battle or a recon, for both sides."""
    s = bia3.clone()
    target = s.on_map(ALLIED)[0]
    target.revealed = True
    mv, r = drawn(s, AXIS)
    face = next(c for st in mv.stacks for c in st.counters if c.id == target.id)
    assert face.symbol == B.block(target.id).kind and "revealed" in face.tags
    assert any(p.id == target.id for p in r.pieces)


def test_out_of_supply_blocks_and_battle_hexes_are_marked(bia3):
    """7.2: the white barrel is public; 3.23: a battle hex is marked for both sides."""
    s = bia3.clone()
    enemy_block = s.on_map(ALLIED)[0]
    enemy_block.oos = True
    s.battles.append(enemy_block.at)
    mv, r = drawn(s, AXIS)
    blank = next(c for st in mv.stacks for c in st.counters if c.id == enemy_block.token)
    assert blank.tags == ["oos"] and blank.symbol == "block"
    assert [(m.hex, m.kind) for m in r.markers] == [(enemy_block.at, "battle")]
    assert any("out of supply" in n for n in mv.notes)


def test_blocks_in_strategic_boxes_are_drawn_in_the_panel(bia3):
    s = bia3.clone()
    mine = s.on_map(AXIS)[0]
    mine.where, mine.at = "box", "rome"
    theirs = s.on_map(ALLIED)[0]
    theirs.where, theirs.at = "box", "london"
    _, r = drawn(s, AXIS)
    boxed = {p.id: p.box for p in r.pieces if p.box is not None}
    assert boxed[mine.id] == "box:rome"
    assert boxed[theirs.token] == "box:london"
    assert theirs.id not in boxed


def test_block_counter_of_a_hidden_block_is_its_token_and_colour(bia3):
    b = bia3.on_map(ALLIED)[0]
    seen = view(B, bia3, enemy(b.side))
    bv = next(x for x in seen.blocks if x.token == b.token)
    c = block_counter(bv)
    assert (c.id, c.side, c.symbol, c.combat) == (b.token, B.block(b.id).power, "block", None)


def test_bia_key_explains_rivers_borders_ports_and_production(bia3):
    _, r = drawn(bia3, None)
    for text in ("River", "Country border", "Major port", "Production", "Impassable",
                 "Railway", "White barrel", "Red arrow"):  # fmt: skip
        assert any(text in label for label in r.legend), text


def test_a_battle_hex_fans_out_every_block_of_both_sides(bia3):
    """Three blocks a side (stacking) meet in a battle hex: all six are drawn, each
    higher than the one in front, so that every top edge shows."""
    s = bia3.clone()
    hex_ = next(h for h in sorted(B.pack.hexes) if B.is_land(h) and not s.at_hex(h))
    for side in (AXIS, ALLIED):
        for b in [b for b in s.blocks.values() if b.side == side and b.where in ("map", "pool")][
            :3
        ]:
            b.where, b.at = "map", hex_
    s.battles.append(hex_)
    _, r = drawn(s, AXIS)
    here = r.pieces_at(hex_)
    assert len(here) == len(s.at_hex(hex_)) == 6
    tops = [p.bbox[1] for p in here]
    assert tops == sorted(tops) and len(set(tops)) == 6
    assert [b.count for b in r.badges if b.hex == hex_] == [6]
