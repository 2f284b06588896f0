"""The naval scenarios BIA7-BIA10 (17.0, L2477-2651): fleets set up as blocks at sea, in
convoy boxes and in port; naval movement and its refusals; the convoy boxes' sea battle
in Strategic Warfare with scripted dice; fog of war; the naval victory."""

from __future__ import annotations

import pytest

from engine.core.dice import ScriptedDice
from engine.core.errors import IllegalOrder
from engine.core.events import PUBLIC, lines_for
from engine.games.bia import fleet, naval_movement
from engine.games.bia.board import ALLIED, AXIS
from engine.games.bia.rules import BlocksInAfrika

RULES = BlocksInAfrika()
B = RULES.board


def go(s, role, text, dice=()):
    return RULES.apply(s, role, RULES.parse_order(text), ScriptedDice(list(dice)))


def refused(s, role, text) -> IllegalOrder:
    before = RULES.dump_state(s)
    with pytest.raises(IllegalOrder) as err:
        go(s, role, text)
    assert RULES.dump_state(s) == before  # a refusal changes nothing
    return err.value


def matapan():
    s = RULES.setup("BIA8", {}, ScriptedDice([1, 2, 3, 4]))
    assert RULES.prompt(s).role == ALLIED  # the Allied carrier may join a convoy box
    s, _ = go(s, ALLIED, "done")
    assert (RULES.prompt(s).role, s.phase) == (AXIS, "srm")  # the Navy HQ (17.0, L2544)
    s, _ = go(s, AXIS, "activate itn_supermarina")
    assert (RULES.prompt(s).role, s.phase) == (AXIS, "movement")
    return s


@pytest.mark.parametrize("scenario", ["BIA7", "BIA8", "BIA9", "BIA10"])
def test_every_naval_scenario_sets_its_fleets_up(scenario):
    s = RULES.setup(scenario, {}, ScriptedDice([1, 2, 3, 4]))
    sc = B.pack.scenario(scenario)
    units = {fb.unit for f in sc.fleets for fb in f.blocks}
    assert {b.id for b in s.blocks.values()} == units
    for f in sc.fleets:
        places = {s.blocks[fb.unit].at for fb in f.blocks}
        assert len(places) == 1  # a fleet stays together
        place = places.pop()
        assert place.split("/")[0] == f.at
    # the naval bases of the HQs are their own side's (RULINGS: naval bases)
    for f in sc.fleets:
        if f.at.startswith("port:"):
            assert s.control[f.at[5:]] == B.side_of_power(f.power)
    assert RULES.invariant_problems(s) == []


def test_the_public_sees_fleets_as_tokens_and_places_only():
    s = RULES.setup("BIA7", {}, ScriptedDice([1, 2, 3, 4]))
    public = RULES.fog_view(s, PUBLIC)
    ships = [b for b in public.blocks if b.at and b.at.startswith(("sea:", "convoy:"))]
    assert ships and all(b.id is None and b.strength is None for b in ships)
    own = RULES.fog_view(s, AXIS)
    assert {b.id for b in own.blocks if b.side == AXIS} >= {"itn_cesare", "itn_ss1"}
    assert all(b.id is None for b in own.blocks if b.side == ALLIED)
    text = RULES.view(s, AXIS).model_dump_json()
    assert "Warspite" not in text and "ukn_" not in text


def test_naval_movement_and_its_refusals():
    s = matapan()
    s, ev = go(s, AXIS, "sail itn_vveneto eastern_med")
    assert s.blocks["itn_vveneto"].at == "convoy:eastern_med"
    # the enemy reads the token and the place, never the block (1.3)
    public = " ".join(lines_for(ev, PUBLIC)) if lines_for(ev, PUBLIC) else ""
    assert "itn_vveneto" not in public and "Vittorio" not in public
    err = refused(s, AXIS, "sail itn_vveneto sea")  # one move a phase
    assert err.rule == "BIA 17.0" and "may not sail" in err.reason
    refused(s, AXIS, "sail itn_ss1 2718")  # Alexandria is no Axis naval base
    refused(s, AXIS, "sail ukn_warspite sea")  # not one of the Axis blocks
    assert (
        refused(s, AXIS, "sail ukn_warspite sea").reason
        == refused(s, AXIS, "sail nobody sea").reason
    )
    # fuel (L2541-2547): Supermarina's 3 AP and Mussolini's 1 keep four fleets out
    assert naval_movement.fuel(B, s, "italy") == 4
    s, _ = go(s, AXIS, "sail itn_dd1 sea")  # a third fleet at sea, the fourth out
    assert len(naval_movement.fleets_out(B, s, "italy")) == 4
    err = refused(s, AXIS, "sail itn_3div sea")
    assert "fuel" in err.reason
    s, _ = go(s, AXIS, "sail itn_3div 1102")  # back to Taranto: a fleet less
    assert s.blocks["itn_3div"].at == "port:1102"


def test_a_fleet_holds_five_blocks_at_most():
    s = RULES.setup("BIA7", {}, ScriptedDice([1, 2, 3, 4]))
    s, _ = go(s, ALLIED, "done")  # Punta Stilo: no British sub or carrier joins a box
    s, _ = go(s, AXIS, "done")  # Supermarina not activated: Mussolini's fuel only
    assert s.phase == "movement"
    for unit in ("itn_cesare", "itn_cavour", "itn_1div", "itn_3div"):
        s, _ = go(s, AXIS, f"sail {unit} central_med")  # joining the convoy escort
    assert len([b for b in s.blocks.values() if b.at == "convoy:central_med"]) == 5
    err = refused(s, AXIS, "sail itn_dd1 central_med")  # a sixth block (L2536)
    assert "five blocks" in err.reason and "central_med" not in err.legal


def test_a_convoy_box_battle_in_strategic_warfare():
    """The Italian battle fleet enters the Eastern Med convoy box; in the Allied
    Strategic Warfare Phase the Italian sub and the British carrier join, and one round
    is fought (L2553-2564) with scripted dice, worked by hand from 17.0's rules."""
    s = matapan()
    s, _ = go(s, AXIS, "sail itn_vveneto eastern_med")
    s, _ = go(s, AXIS, "sail itn_1div eastern_med")
    s, _ = go(s, AXIS, "done")
    assert (s.player, s.phase, RULES.prompt(s).role) == (ALLIED, "strategic_warfare", AXIS)
    refused(s, AXIS, "sail itn_3div eastern_med")  # a cruiser does not join in this phase
    s, _ = go(s, AXIS, "sail itn_ss1 eastern_med")  # its only choice: the step passes on
    assert RULES.prompt(s).role == ALLIED  # the British carrier may join
    dice = [6, 2]  # Formidable's two TECH 1 torpedo bombers: one hit (BB 3 to 2), no flak
    dice += [5, 1]  # the Italian BB, 2 dice at 5+: a hit on the British CA, discarded (TECH)
    dice += [6, 6, 1]  # the British CA first (air superiority): the SS and the CA hit
    dice += [6]  # the Italian CA, now 1 die: the British CA from 3 to 2
    dice += [3]  # the Italian SS, opposed by the carrier: no Bonus, a miss
    # its only choice too: the battle follows at once
    s, ev = go(s, ALLIED, "sail ukn_formidable eastern_med", dice)
    assert (s.phase, RULES.prompt(s).role) == ("srm", ALLIED)
    s, _ = go(s, ALLIED, "activate ukn_cunningham")
    assert (s.phase, RULES.prompt(s).role) == ("movement", ALLIED)
    steps = {
        k: s.blocks[k].steps
        for k in ("itn_vveneto", "itn_1div", "itn_ss1", "ukn_18cs", "ukn_formidable")
    }
    assert steps == {
        "itn_vveneto": 2,
        "itn_1div": 1,
        "itn_ss1": 1,
        "ukn_18cs": 2,
        "ukn_formidable": 3,
    }
    assert s.naval["lost"] == {AXIS: 3, ALLIED: 1}
    reveal = next(e for e in ev if e.kind == "reveal")
    assert "Vittorio Veneto" in reveal.text and "Formidable" in reveal.text
    assert any("discarded by naval TECH superiority" in e.text for e in ev if e.kind == "naval")
    # the revealed ships are face up to the enemy; the others stay hidden
    axis_sees = {b.id for b in RULES.fog_view(s, AXIS).blocks if b.side == ALLIED and b.id}
    assert axis_sees == {"ukn_18cs", "ukn_formidable", "ukn_cunningham"}  # and the HQ activated
    assert s.blocks["itn_supermarina"].steps == 2  # deactivated after the Axis Blitz (11.4)
    s, _ = go(s, ALLIED, "done")  # the Allied Movement Phase, and the end
    assert s.blocks["ukn_cunningham"].steps == 3
    assert not any(b.revealed for b in s.blocks.values())  # hidden again at Final Supply
    assert fleet.points(B, s) == {AXIS: 1, ALLIED: 3 + 2 + 3}
    assert s.winner == ALLIED and "Naval points: Axis 1, Allied 8." in s.result_text
