"""Blocks in Afrika's maps show HQ activation (advanced rules 11.0-11.10; RULINGS B73-B75):
an activated HQ lies face up with its AP left, drawn on its block on every map, and the
units its owner fuelled are marked on the owner's map only. The scene is the rulebook's
HQ example at Gazala (L2130-2157), as tests/bia/test_fuel.py plays it."""

from __future__ import annotations

import zlib

import pytest

from engine.core.events import EVERYONE
from engine.games.bia.board import ALLIED, AXIS
from engine.games.bia.mapview import bia_map_view
from engine.games.bia.view import view
from renderer.hexmap import render
from tests.bia.test_combat import MECHILI, B, order
from tests.bia.test_fuel import gazala_june_1941
from tests.renderer.test_rows_bia import png_chunks

WIDTH = 1800


@pytest.fixture(scope="module")
def rommel_fuels_the_dak():
    """Rommel activated at Mechili (3 AP), one AP spent on the DAK's fuel (L2140-2143)."""
    s = gazala_june_1941()
    s, _ = order(s, AXIS, "activate de_rommel")
    s, _ = order(s, AXIS, "fuel de_dak de_rommel")
    assert s.hq_active == {"de_rommel": 2} and s.fuelled == {"de_dak": "de_rommel"}
    return s


def counters(mv):
    return {c.id: c for st in mv.stacks for c in st.counters}


@pytest.mark.parametrize("viewer", [AXIS, ALLIED, None])
def test_an_activated_hqs_ap_left_are_on_its_block_for_every_reader(rommel_fuels_the_dak, viewer):
    """AR 11.3: the HQ is laid face up, so both sides and the public read its AP left
    (RULINGS B73), on the block and in the notes."""
    mv = bia_map_view(view(B, rommel_fuels_the_dak, viewer))
    rommel = counters(mv)["de_rommel"]
    assert "ap:2" in rommel.tags
    assert "Activated HQs, AP left (white disc): Rommel (DE-02) 2." in mv.notes
    others = [c for c in counters(mv).values() if c.id != "de_rommel"]
    assert others and not [c for c in others if any(t.startswith("ap:") for t in c.tags)]


def test_the_ap_left_change_every_readers_picture(rommel_fuels_the_dak):
    """The AP an HQ spends are public (B75: the others read that an AP went on fuel), so
    one more AP spent changes the public's and the enemy's pictures too."""
    spent = rommel_fuels_the_dak.clone()
    spent.hq_active["de_rommel"] = 1
    for viewer in (AXIS, ALLIED, None):
        before = render(bia_map_view(view(B, rommel_fuels_the_dak, viewer)), WIDTH).png()
        after = render(bia_map_view(view(B, spent, viewer)), WIDTH).png()
        assert before != after


def test_a_fuelled_unit_is_marked_on_its_owners_map_only(rommel_fuels_the_dak):
    """B75: which unit was fuelled is its owner's to know. The Axis map tags the DAK and
    counts it in the notes; the Allied and public maps carry no trace of it, and their
    pictures are the same pixels as if nothing were fuelled."""
    s = rommel_fuels_the_dak
    own = bia_map_view(view(B, s, AXIS))
    assert "fuelled" in counters(own)["de_dak"].tags
    assert [c.id for c in counters(own).values() if "fuelled" in c.tags] == ["de_dak"]
    assert "Your units fuelled (amber dot, seen by you only): 1." in own.notes
    unfuelled = s.clone()
    unfuelled.fuelled = {}
    for viewer in (ALLIED, None):
        mv = bia_map_view(view(B, s, viewer))
        dumped = mv.model_dump_json()
        assert "fuelled" not in dumped.replace('"fuelled":false', "")  # notes, tags, blocks
        assert not [c for c in counters(mv).values() if "fuelled" in c.tags]
        same = render(bia_map_view(view(B, unfuelled, viewer)), WIDTH).png()
        assert render(mv, WIDTH).png() == same
    changed = render(bia_map_view(view(B, unfuelled, AXIS)), WIDTH).png()
    assert render(own, WIDTH).png() != changed
    audit = bia_map_view(view(B, s, EVERYONE))
    assert "fuelled" in counters(audit)["de_dak"].tags


@pytest.mark.parametrize("viewer", [ALLIED, None])
def test_the_enemys_and_the_publics_png_name_no_hidden_block(rommel_fuels_the_dak, viewer):
    """Digest 4.2: the PNG has no text chunk, and neither its bytes nor its pixels' stream
    hold the id or name of an Axis block still hidden (the DAK fuelled among them)."""
    s = rommel_fuels_the_dak
    hidden = {
        x
        for b in s.blocks.values()
        if b.side == AXIS and b.where == "map" and not b.revealed
        for x in (b.id, B.block(b.id).name)
    }
    assert "de_dak" in hidden and "de_rommel" not in hidden
    png = render(bia_map_view(view(B, s, viewer)), WIDTH).png()
    kinds = {k for k, _ in png_chunks(png)}
    assert kinds <= {b"IHDR", b"PLTE", b"IDAT", b"IEND"}
    raw = png + zlib.decompress(b"".join(d for k, d in png_chunks(png) if k == b"IDAT"))
    assert not [x for x in hidden if x.encode() in raw]
    assert MECHILI in {p.hex for p in render(bia_map_view(view(B, s, viewer)), WIDTH).pieces}
