"""Blocks in Afrika's map in the naval scenarios BIA7-BIA10 (17.0; 3.4.2 L310-315; RULINGS
B70-B72), the markers of the advanced rules (Reserve Mode's black barrel, AR 16.0 and
B62; recon, AR 12.0 and B47), the Supreme Leaders' AP among their own side's notes only
(L1994-2004, B60; F2), and the option ``advanced`` in ``umpire new --help``.

A naval block in port stands on its port hex; a fleet at sea and a convoy box are boxes
of the panel. Where a block is, its nation and its token are public, its face is its
owner's unless a sea battle revealed it (1.3, L134-138; digest 4.2)."""

from __future__ import annotations

import random
import zlib

import pytest

from bot.console_text import option_lines
from engine.core.dice import ActionDice
from engine.core.events import EVERYONE
from engine.fuzz import random_order
from engine.games.bia import naval_movement
from engine.games.bia.board import ALLIED, AXIS
from engine.games.bia.options import ADVANCED
from engine.games.bia.rules import OPTIONS, BlocksInAfrika
from renderer.hexmap import render
from tests.renderer.test_rows_bia import png_chunks

RULES = BlocksInAfrika()
B = RULES.board
WIDTH = 1800
NAVAL = ["BIA7", "BIA8", "BIA9", "BIA10"]
VIEWERS = [AXIS, ALLIED, None]


def opening(scenario: str, options: dict | None = None):
    return RULES.setup(scenario, options or {}, ActionDice(b"rows", f"naval-{scenario}", 0))


def hidden(state, viewer) -> set[str]:
    """Every word that would name a block ``viewer`` may not see the face of: the words
    the fuzzer's leak scan looks for (``hidden_words``)."""
    return {w for words in RULES.hidden_words(state, viewer).values() for w in words}


def png_text(png: bytes) -> bytes:
    return png + zlib.decompress(b"".join(d for k, d in png_chunks(png) if k == b"IDAT"))


def assert_nothing_hidden_drawn(state, viewer):
    mv = RULES.view(state, viewer)
    secret = hidden(state, viewer)
    dumped = mv.model_dump_json()
    assert not [s for s in secret if s in dumped]
    r = render(mv, WIDTH)
    assert not {p.id for p in r.pieces} & secret
    png = r.png()
    assert {k for k, _ in png_chunks(png)} <= {b"IHDR", b"PLTE", b"IDAT", b"IEND"}
    raw = png_text(png)
    assert not [s for s in secret if s.encode() in raw]
    return mv, r


@pytest.mark.parametrize("scenario", NAVAL)
@pytest.mark.parametrize("viewer", VIEWERS)
def test_every_naval_block_is_drawn_in_port_at_sea_or_in_a_convoy_box(scenario, viewer):
    state = opening(scenario)
    mv, r = assert_nothing_hidden_drawn(state, viewer)
    assert hidden(state, viewer)
    drawn = {p.id: (p.hex, p.box) for p in r.pieces}
    afloat = [b for b in state.blocks.values() if b.where == "box"]
    assert afloat and len(r.pieces) == len(afloat)
    at_sea = 0
    for b in afloat:
        key = b.id if viewer == b.side else b.token
        assert key in drawn, (b.id, b.at)
        kind, _, place = b.at.partition(":")
        if kind == "port":
            assert drawn[key] == (place, None)
        elif kind == "sea":
            at_sea += 1
            assert drawn[key] == (None, f"fleet:{place}")
        else:
            assert drawn[key] == (None, f"convoy:{place}")
    assert at_sea
    # each fleet at sea its own box, its count of blocks in the title
    fleets = {b.at for b in afloat if b.at.startswith("sea:")}
    boxes = {x.id: x for x in mv.boxes}
    for place in fleets:
        box = boxes[f"fleet:{place[4:]}"]
        n = sum(1 for b in afloat if b.at == place)
        assert len(box.counters) == n
        assert box.title.startswith(f"At sea: fleet {place.rpartition('/f')[2]}, ")
    for key in B.pack.strategic.convoy_boxes:
        if key in B.pack.scenario(scenario).victory.convoys:
            assert f"convoy:{key}" in boxes
    # the naval scenarios' home boxes are empty and left out
    assert not [x for x in mv.boxes if x.id.startswith("box:")]


@pytest.mark.parametrize("scenario", NAVAL)
def test_an_enemy_ship_is_a_blank_block_and_an_own_ship_shows_its_face(scenario):
    state = opening(scenario)
    mv = RULES.view(state, AXIS)
    counters = [c for x in mv.boxes for c in x.counters] + [
        c for st in mv.stacks for c in st.counters
    ]
    for b in state.blocks.values():
        if b.where != "box":
            continue
        block = B.block(b.id)
        if b.side == AXIS:
            c = next(c for c in counters if c.id == b.id)
            assert c.symbol == block.kind and c.combat == block.values()[b.steps - 1]
        elif not b.revealed:
            c = next(c for c in counters if c.id == b.token)
            assert (c.symbol, c.combat, c.name, c.side) == ("block", None, b.token, block.power)


def test_a_hidden_ships_strength_changes_nothing_in_the_enemys_picture():
    state = opening("BIA8")
    weaker = state.clone()
    ship = next(b for b in naval_movement.afloat(B, weaker, ALLIED) if b.steps > 1 and not b.revealed)
    ship.steps -= 1
    assert (
        render(RULES.view(state, AXIS), WIDTH).png()
        == render(RULES.view(weaker, AXIS), WIDTH).png()
    )
    assert (
        render(RULES.view(state, ALLIED), WIDTH).png()
        != render(RULES.view(weaker, ALLIED), WIDTH).png()
    )


@pytest.mark.parametrize("scenario", NAVAL)
def test_random_naval_play_never_shows_a_hidden_block(scenario):
    """Every position of a random game (convoy battles revealing ships, fleets formed and
    merged, ships sunk): the served view of each reader names no block hidden from it;
    the last position's pictures neither."""
    rng = random.Random(scenario)
    state = opening(scenario)
    moves = 0
    for n in range(1, 80):
        if RULES.prompt(state).role is None:
            break
        for viewer in VIEWERS:
            dumped = RULES.view(state, viewer).model_dump_json()
            assert not [s for s in hidden(state, viewer) if s in dumped], (n, viewer)
        role, order = random_order(RULES, state, rng)
        moves += order.verb == "sail"
        state, _ = RULES.apply(state, role, order, ActionDice(b"rows", f"naval-{scenario}", n))
    assert moves
    for viewer in VIEWERS:
        assert_nothing_hidden_drawn(state, viewer)


def test_a_revealed_ship_in_a_convoy_box_shows_its_face_to_the_enemy():
    state = opening("BIA7")
    ship = next(b for b in naval_movement.afloat(B, state, ALLIED) if b.at.startswith("convoy:"))
    ship.revealed = True
    mv = RULES.view(state, AXIS)
    box = next(x for x in mv.boxes if x.id == ship.at)
    face = next(c for c in box.counters if c.id == ship.id)
    assert face.symbol == B.block(ship.id).kind and "revealed" in face.tags


# -- the advanced rules' markers and notes ------------------------------------------------


@pytest.fixture(scope="module")
def advanced():
    return opening("BIA3", {"advanced": True})


@pytest.mark.parametrize("viewer", VIEWERS)
def test_reserve_mode_is_a_black_barrel_all_readers_see(advanced, viewer):
    """AR 16.0 (RULINGS B62): the black barrel stands on the map, read by both sides."""
    s = advanced.clone()
    held = s.on_map(AXIS)[0]
    s.reserve.append(held.id)
    mv, r = assert_nothing_hidden_drawn(s, viewer)
    key = held.id if viewer == AXIS else held.token
    c = next(c for st in mv.stacks for c in st.counters if c.id == key)
    assert "reserve" in c.tags
    others = [c for st in mv.stacks for c in st.counters if c.id not in (held.id, held.token)]
    assert others and not [c for c in others if "reserve" in c.tags]
    assert any("Reserve Mode" in n for n in mv.notes)
    assert any("Black barrel" in label for label in r.legend)
    # the barrel is drawn: the picture differs from the one without it
    assert r.png() != render(RULES.view(advanced, viewer), WIDTH).png()


def test_recon_and_battle_hexes_are_marked_for_every_reader(advanced):
    s = advanced.clone()
    foe = s.on_map(ALLIED)[0]
    s.reconned.append(foe.at)
    s.battles.append(s.on_map(AXIS)[0].at)
    for viewer in VIEWERS:
        _, r = assert_nothing_hidden_drawn(s, viewer)
        assert sorted((m.hex, m.kind) for m in r.markers) == sorted(
            [(foe.at, "recon"), (s.battles[0], "battle")]
        )


def test_leaders_ap_are_in_their_own_sides_notes_only(advanced):
    """L1994-2004 (RULINGS B60, F2): each side reads its own Supreme Leaders' AP left."""
    s = advanced.clone()
    s.leader_ap = {"mussolini": ["sea"], "churchill": ["reserve", "sea"]}
    notes = {v: " ".join(RULES.view(s, v).notes) for v in (*VIEWERS, EVERYONE)}
    assert "Mussolini 2, Hitler 2, Goering 1" in notes[AXIS]
    assert "Churchill" not in notes[AXIS]
    assert "Churchill 2" in notes[ALLIED]
    assert not [x for x in ("Mussolini", "Hitler", "Goering") if x in notes[ALLIED]]
    assert "AP" not in notes[None]
    assert "Mussolini 2" in notes[EVERYONE] and "Churchill 2" in notes[EVERYONE]
    # the Allied picture does not change with the Axis leaders' spending; the Axis one does
    axis_spent = advanced.clone()
    axis_spent.leader_ap = {"mussolini": ["sea"]}
    for viewer, same in ((ALLIED, True), (None, True), (AXIS, False)):
        before = render(RULES.view(advanced, viewer), WIDTH).png()
        assert (render(RULES.view(axis_spent, viewer), WIDTH).png() == before) is same


def test_no_leaders_ap_under_the_basic_rules_nor_in_a_naval_scenario():
    basic = opening("BIA3")
    naval = opening("BIA7", {"advanced": True})
    for s in (basic, naval):
        for v in (AXIS, ALLIED):
            assert not [n for n in RULES.view(s, v).notes if "AP" in n]


# -- the option in the help ----------------------------------------------------------------


def test_the_advanced_option_is_listed_with_what_it_turns_on():
    lines = option_lines(RULES)  # the optional rules' lines: tests/bia/test_options.py
    assert lines[0] == f"    advanced=true|false (default false): {ADVANCED}"
    assert OPTIONS["advanced"] == ADVANCED
    for part in ("recon", "Panzers Attack!", "action points", "Reserve Mode", "aimed hits",
                 "siege supply"):  # fmt: skip
        assert part in ADVANCED


def test_umpire_new_help_shows_the_bia_option(capsys):
    from bot.cli import main

    with pytest.raises(SystemExit):
        main(["new", "--help"])
    out = capsys.readouterr().out
    bia = out[out.index("  bia: Blocks in Afrika") :]
    assert f"advanced=true|false (default false): {ADVANCED}" in bia
