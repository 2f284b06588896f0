"""Choices in BIA's sea battles and the Navy HQs (17.0; RULINGS B85-B89): the owner picks
which of its tied strongest ships a gun hit reduces (L2639, L2710-2712), the firer picks
the target of its submarines and carrier aircraft (L2649, L2699-2700, L2726), each with
the standing order ``naval engine|ask``; a Navy HQ is activated in the SRM Phase to fuel
fleets and loses a step at the end of the Blitz Phase (L2544-2550; 11.4 L2158-2176)."""

from __future__ import annotations

import random

import pytest

from engine.core.dice import ScriptedDice
from engine.core.errors import IllegalOrder
from engine.core.events import PUBLIC, lines_for, order_line
from engine.games.bia import naval, naval_movement
from engine.games.bia.board import ALLIED, AXIS
from engine.games.bia.rules import BlocksInAfrika
from tests.bia.test_naval import crete, strengths
from tests.bia.test_random_play import Dice, _check_face_up, _check_leaks

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


# -- the battle off Crete with the players choosing ------------------------------------------


def test_the_battle_off_crete_with_other_choices_than_the_examples():
    """The same battle (L2697-2744), the players choosing otherwise than the text: the
    British bombers hit the cruisers, the Italians give the destroyers' hit to their
    battleship (tied at 2 with the sub) and aim the sub at the British cruiser. Each side
    is asked only where the text gives it the choice, with the ships it may choose."""
    b = crete()
    asked = []
    picks = iter(["itn_1div", "itn_cesare", "ukn_7cs"])

    def choose(who, side, among, why):
        asked.append((who, side, sorted(s.id for s in among), why))
        pick = next(picks)
        return next(s for s in among if s.id == pick)

    dice = ScriptedDice(
        [5, 1]  # the CV's two planes: a hit (the British choose the CA) and the flak
        + [3, 4]  # the Italian BB, still at 2, rolls 2 dice at 5-6 and misses
        + [1, 2, 3, 4]  # the British cruisers fire first and miss
        + [6]  # the Italian CA, now at 1: a hit, discarded by TECH: nobody is asked
        + [4, 4, 3, 6]  # the British destroyers: a hit; the Italian BB and SS tie at 2
        + [6, 2]  # the Italian sub, still at 2: a hit, aimed at the British cruiser
    )
    naval.fight_round(b, dice, choose=choose)
    assert dice.remaining == []
    assert asked == [
        ("aim", "allied", ["itn_1div", "itn_cesare", "itn_ss1"], "Allied torpedo bombers"),
        ("own", "axis", ["itn_cesare", "itn_ss1"], "Allied destroyer fire"),
        ("aim", "axis", ["ukn_7cs", "ukn_dd1", "ukn_formidable"], "Axis submarine fire"),
    ]
    assert strengths(b) == {
        "ukn_formidable": 1,  # the flak's air step only: the deck and its one plane are kept
        "ukn_7cs": 3,  # the sub's choice
        "ukn_dd1": 4,
        "itn_cesare": 1,  # the Italian choice among the tied
        "itn_1div": 1,  # the bombers' choice
        "itn_ss1": 2,
    }


def test_without_a_chooser_the_engine_makes_the_examples_choices():
    b = crete()
    dice = ScriptedDice([5, 1, 3, 1, 2, 3, 4, 3, 6, 4, 4, 3, 6, 6])
    naval.fight_round(b, dice, choose=None)
    assert strengths(b)["itn_cesare"] == 1 and strengths(b)["itn_ss1"] == 1
    assert (
        naval.engine_pick("own", [s for s in b.ships if s.side == "axis" and s.strength == 2]).id
        == "itn_1div"
    )


# -- through the game: asked, refused, resumed ------------------------------------------------


def _to_the_battle(ask: tuple[str, ...], dice=(6, 2)):
    """Capo Matapan: the Italian battleship and cruisers enter the Eastern Med convoy box;
    in the Allied Strategic Warfare the Italian sub and the British carrier join. The
    carrier's bombers roll 6, 2: one hit, the British choice of target."""
    s = RULES.setup("BIA8", {}, ScriptedDice([1, 2, 3, 4]))
    for side in ask:
        s, ev = go(s, side, "standing naval ask")
        other = ALLIED if side == AXIS else AXIS
        assert lines_for(ev, other) == lines_for(ev, PUBLIC) == []  # private (7.0)
        assert order_line("standing naval ask", ev, other) in (None, "")
    s, _ = go(s, ALLIED, "done")
    s, _ = go(s, AXIS, "activate itn_supermarina")
    s, _ = go(s, AXIS, "sail itn_vveneto eastern_med")
    s, _ = go(s, AXIS, "sail itn_1div eastern_med")
    s, _ = go(s, AXIS, "done")
    s, _ = go(s, AXIS, "sail itn_ss1 eastern_med")
    return go(s, ALLIED, "sail ukn_formidable eastern_med", dice)


def test_the_firer_chooses_its_bombers_target_and_the_owner_among_its_tied():
    s, ev = _to_the_battle((AXIS, ALLIED))
    p = RULES.prompt(s)
    assert (p.role, p.kind, p.verbs) == (ALLIED, "naval_hit", ["hit", "standing"])
    # the enemy ships are face up from the battle's start (L2716): named with their tokens
    t = {k: s.blocks[k].token for k in ("itn_1div", "itn_vveneto", "itn_ss1")}
    assert "Vittorio Veneto" in p.text and "torpedo bombers" in p.text
    assert [o.text() for o in RULES.legal_orders(s, ALLIED)] == [
        "standing naval engine",
        *(f"hit {t[k]}" for k in ("itn_1div", "itn_vveneto", "itn_ss1")),
    ]
    assert RULES.legal_orders(s, AXIS) == []
    # refusals: an own ship, a ship not in the battle (hidden: said as of nobody), 'done'
    err = refused(s, ALLIED, "hit ukn_18cs")
    assert err.rule == "BIA 17.0" and "Vittorio Veneto" in err.legal
    hidden = refused(s, ALLIED, "hit itn_dd1")
    assert hidden.reason == refused(s, ALLIED, "hit nobody").reason
    assert "itn_dd1" not in hidden.legal and "Destroyer" not in hidden.legal
    refused(s, ALLIED, "done")
    refused(s, AXIS, f"hit {t['itn_ss1']}")  # not the Axis's choice
    before = [e.text for e in ev if e.kind == "naval"]
    assert before == [
        "Allied carrier aircraft roll 2 dice (hit 6+, flak on 1 or less): 6, 2: 1 hit(s), 0 lost to flak."
    ]
    # the British bombers take the cruisers, not the battleship the engine would take;
    # the BB's 3 dice at 5+ hit once (discarded by TECH), the British cruisers first: 2 hits,
    # the BB 3 to 2, then the BB and the SS tie at 2: the Italians choose
    s, ev = go(s, ALLIED, f"hit {t['itn_1div']}", [5, 1, 1, 6, 6, 1])
    assert s.blocks["itn_1div"].steps == 1 and s.blocks["itn_vveneto"].steps == 2
    lines = [e.text for e in ev if e.kind == "naval"]
    assert (
        lines[0].startswith("Allied torpedo bombers: 1st Cruiser Division")
        and before[0] not in lines
    )
    assert order_line(f"hit {t['itn_1div']}", ev, AXIS) == f"hit {t['itn_1div']}"
    p = RULES.prompt(s)
    assert (p.role, p.kind) == (AXIS, "naval_hit") and "tied" in p.text
    assert [o.text() for o in RULES.legal_orders(s, AXIS)] == [
        "standing naval engine",
        "hit itn_vveneto",
        "hit itn_ss1",
    ]
    # what the enemy and the public read names no Italian ship outside the battle
    assert not any(
        "itn_dd1" in x or "itn_3div" in x for x in lines_for(ev, ALLIED) + lines_for(ev, PUBLIC)
    )
    again = RULES.load_state(RULES.dump_state(s))  # a stored game resumes the same
    # the Italian CA's die hits, the SS (still 2) misses twice
    s, ev = go(again, AXIS, "hit itn_vveneto", [6, 3, 2])
    assert order_line("hit itn_vveneto", ev, ALLIED) == f"hit {t['itn_vveneto']}"
    assert RULES.prompt(s).kind == "srm" and "battle" not in s.naval
    assert {k: s.blocks[k].steps for k in ("itn_vveneto", "itn_1div", "itn_ss1", "ukn_18cs")} == {
        "itn_vveneto": 1,
        "itn_1div": 1,
        "itn_ss1": 2,
        "ukn_18cs": 2,
    }
    assert s.naval["lost"] == {AXIS: 3, ALLIED: 1}


def test_a_standing_order_of_engine_answers_the_waiting_choice():
    s, _ = _to_the_battle((ALLIED,))
    assert RULES.prompt(s).role == ALLIED
    # the Axis leaves its choices to the engine (the default): only the British are asked
    # the engine then chooses the battleship for the bombers (3 to 2), as in
    # test_naval_scenarios: its 2 dice at 5+ (5, 1: a hit discarded by TECH); the British
    # CA first (6, 6, 1): the three Italians tie at 2 and the Axis leaves the choice to
    # the engine, lowest class first: the SS, then the CA; the Italian CA (6), the SS (3)
    s, _ = go(s, ALLIED, "standing naval engine", [5, 1, 6, 6, 1, 6, 3])
    assert RULES.prompt(s).kind == "srm"
    assert {k: s.blocks[k].steps for k in ("itn_vveneto", "itn_1div", "itn_ss1", "ukn_18cs")} == {
        "itn_vveneto": 2,
        "itn_1div": 1,
        "itn_ss1": 1,
        "ukn_18cs": 2,
    }
    assert s.naval["lost"] == {AXIS: 3, ALLIED: 1}


def test_the_engine_default_asks_nobody():
    # the dice of test_naval_scenarios' convoy battle: the whole round at once
    s, ev = _to_the_battle((), (6, 2, 5, 1, 6, 6, 1, 6, 3))
    assert RULES.prompt(s).kind == "srm" and "battle" not in s.naval
    assert {k: s.blocks[k].steps for k in ("itn_vveneto", "itn_1div", "itn_ss1", "ukn_18cs")} == {
        "itn_vveneto": 2,
        "itn_1div": 1,
        "itn_ss1": 1,
        "ukn_18cs": 2,
    }
    assert len([e for e in ev if e.kind == "naval"]) == len(
        {e.text for e in ev if e.kind == "naval"}
    )


def test_the_naval_standing_order_is_refused_in_a_land_game():
    s = RULES.setup("BIA1", {}, ScriptedDice([1, 2, 3, 4] * 10))
    role = RULES.prompt(s).role
    err = refused(s, role, "standing naval ask")
    assert err.rule == "BIA 17.0" and "naval scenarios" in err.reason
    assert not any(o.text().startswith("standing naval") for o in RULES.legal_orders(s, role))


# -- the Navy HQs --------------------------------------------------------------------------------


def test_a_navy_hq_activated_in_the_srm_fuels_fleets_and_loses_a_step():
    s = RULES.setup("BIA7", {}, ScriptedDice([1, 2, 3, 4]))
    s, _ = go(s, ALLIED, "done")
    p = RULES.prompt(s)
    assert (p.role, p.phase, p.kind) == (AXIS, "srm", "srm") and "activate" in p.verbs
    assert [o.text() for o in RULES.legal_orders(s, AXIS)][-2:] == [
        "activate itn_supermarina",
        "done",
    ]
    refused(s, AXIS, "activate ukn_cunningham")  # the enemy's
    refused(s, ALLIED, "activate ukn_cunningham")  # not the Allied SRM
    assert naval_movement.fuel(B, s, "italy") == 1  # Mussolini's only (L2546)
    hq = s.blocks["itn_supermarina"]
    s, ev = go(s, AXIS, f"activate {hq.token}")
    assert naval_movement.fuel(B, s, "italy") == 4  # 3 AP and Mussolini's (L2544-2550)
    reveal = next(e for e in ev if e.kind == "reveal")
    assert "Supermarina" in reveal.text and "3 AP" in " ".join(lines_for(ev, ALLIED))
    assert s.blocks["itn_supermarina"].revealed and s.phase == "movement"
    s, _ = go(s, AXIS, "done")  # through the Blitz: deactivated (11.4)
    assert s.blocks["itn_supermarina"].steps == 2 and not s.blocks["itn_supermarina"].revealed
    assert s.naval["lost"] == {AXIS: 0, ALLIED: 0}  # no step the enemy sank (B88)


def test_an_hq_activated_on_its_last_step_is_used_up():
    s = RULES.setup("BIA9", {}, ScriptedDice([1, 2, 3, 4]))
    s, _ = go(s, ALLIED, "done")  # Ark Royal stays out of the Western Med box
    s, _ = go(s, AXIS, "done")  # no Axis activation
    s, _ = go(s, AXIS, "done")  # the Axis Movement
    while RULES.prompt(s).phase != "srm":
        p = RULES.prompt(s)
        s, _ = go(s, p.role, "done", [3] * 40)
    s.blocks["ukn_somerville"].steps = 1
    s, ev = go(s, ALLIED, "activate ukn_somerville")
    assert naval_movement.fuel(B, s, "uk") == 1 + 1
    s, ev = go(s, ALLIED, "done")
    assert s.blocks["ukn_somerville"].where == "dead"
    assert any("used up" in x for x in lines_for(ev, AXIS))


def test_unfuelled_fleets_stay_out_but_no_fleet_is_added():
    s = RULES.setup("BIA7", {}, ScriptedDice([1, 2, 3, 4]))
    s, _ = go(s, ALLIED, "done")
    s, _ = go(s, AXIS, "done")  # Supermarina left in port: one fleet's fuel, three out
    assert len(naval_movement.fleets_out(B, s, "italy")) == 3 and naval_movement.fuel(B, s, "italy") == 1
    err = refused(s, AXIS, "sail itn_cesare sea")  # a fourth fleet
    assert "fuel" in err.reason
    s, _ = go(s, AXIS, "sail itn_cesare central_med")  # into a fleet already out
    s, _ = go(s, AXIS, "sail itn_ss1 1102")  # home to Taranto: two out
    assert len(naval_movement.fleets_out(B, s, "italy")) == 2


# -- random play with every choice asked ----------------------------------------------------


def _random_game(scenario: str, seed: int) -> set[str]:
    """One random game with both sides asking for every choice of where a hit falls:
    returns the kinds of prompt and order met."""
    rng = random.Random(seed)
    s = RULES.setup(scenario, {}, Dice(rng))
    s.standing = {side: {"naval": "ask"} for side in (AXIS, ALLIED)}
    names = {side: {B.block(b.id).name for b in s.blocks.values() if b.side == side}
             for side in (AXIS, ALLIED)}  # fmt: skip
    seen: set[str] = set()
    face_up: set[str] = set()
    for _ in range(200):
        p = RULES.prompt(s)
        if p.role is None:
            break
        legal = RULES.legal_orders(s, p.role)
        assert legal, p.text
        # towards the convoy boxes, where the battles are
        joins = [
            o
            for o in legal
            if o.verb in ("hit", "activate") or o.verb == "sail" and "convoy:" in o.to
        ]
        order = rng.choice(joins) if joins and rng.random() < 0.8 else legal[-1]
        assert RULES.parse_order(order.text()) == order
        before = s
        s, ev = RULES.apply(s, p.role, order, Dice(rng))
        seen |= {p.kind, f"order:{order.verb}"}
        assert RULES.invariant_problems(s) == []
        _check_leaks(s, before, order, ev, names)
        face_up = _check_face_up(before, s, ev, face_up)
        assert RULES.dump_state(RULES.load_state(RULES.dump_state(s))) == RULES.dump_state(s)
    assert RULES.result(s) is not None and "Naval points:" in RULES.result(s).text
    return seen


@pytest.mark.parametrize("scenario", ["BIA7", "BIA8", "BIA9", "BIA10"])
def test_random_naval_play_with_every_choice_asked(scenario):
    """Both sides ask for every choice: random games reach the naval victory with no dead
    end, the invariants hold, a stored game loads the same, and nothing a reader
    receives names a ship hidden from it (the leak scan of test_random_play)."""
    seen: set[str] = set()
    for seed in range(4):
        seen |= _random_game(scenario, seed)
    assert {"srm", "movement", "order:activate"} <= seen, seen


def test_random_naval_play_asks_and_answers_where_hits_fall():
    seen: set[str] = set()
    for seed in range(8):
        seen |= _random_game("BIA10", seed)  # Harpoon: subs, carriers and ties
    assert {"naval_hit", "order:hit"} <= seen, seen
