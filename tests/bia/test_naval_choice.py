"""Choices in BIA's sea battles and the Navy HQs (17.0; RULINGS B85-B89, B105): the owner
picks which of its tied strongest ships a gun hit reduces (L2639, L2710-2712), the firer
picks the target of its submarines and carrier aircraft (L2649, L2699-2700, L2726), the
side holding the naval TECH advantage which hit of the round it discards (L2642-2644,
L2706-2709), each with the standing order ``naval engine|ask``; a Navy HQ is activated in the SRM Phase to fuel
fleets and loses a step at the end of the Blitz Phase (L2544-2550; 11.4 L2158-2176)."""

from __future__ import annotations

import random

import pytest

from engine.core.dice import ScriptedDice
from engine.core.events import PUBLIC, lines_for, order_line
from engine.games.bia import naval, naval_movement
from engine.games.bia.board import ALLIED, AXIS
from tests.bia.test_naval import crete, strengths
from tests.bia.test_naval_scenarios import RULES, B, go, refused
from tests.bia.test_random_play import Dice, _check_face_up, _check_leaks

# -- the battle off Crete with the players choosing ------------------------------------------


def test_the_battle_off_crete_with_other_choices_than_the_examples():
    """The same battle (L2697-2744), the players choosing otherwise than the text: the
    British bombers hit the cruisers, the Italians give the destroyers' hit to their
    battleship (tied at 2 with the sub) and aim the sub at the British cruiser; the British
    discard the cruisers' hit, as in the text. Each side is asked only where the text gives
    it the choice, with the ships it may choose; once the discard is spent, nobody is
    asked about it again in the round."""
    b = crete()
    asked = []
    picks = iter(["itn_1div", "itn_cesare", "ukn_7cs"])

    def choose(who, side, among, why):
        asked.append((who, side, sorted(s.id for s in among), why))
        if who == "cancel":
            return None  # the TECH advantage discards this hit (L2708-2709)
        pick = next(picks)
        return next(s for s in among if s.id == pick)

    dice = ScriptedDice(
        [5, 1]  # the CV's two planes: a hit (the British choose the CA) and the flak
        + [3, 4]  # the Italian BB, still at 2, rolls 2 dice at 5-6 and misses
        + [1, 2, 3, 4]  # the British cruisers fire first and miss
        + [6]  # the Italian CA, now at 1: a hit on the tied British CA and DD, discarded
        + [4, 4, 3, 6]  # the British destroyers: a hit; the Italian BB and SS tie at 2
        + [6, 2]  # the Italian sub, still at 2: a hit, aimed at the British cruiser
    )
    naval.fight_round(b, dice, choose=choose)
    assert dice.remaining == []
    assert asked == [
        ("aim", "allied", ["itn_1div", "itn_cesare", "itn_ss1"], "Allied torpedo bombers"),
        ("cancel", "allied", ["ukn_7cs", "ukn_dd1"], "Axis cruiser fire"),
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


def test_the_battle_off_crete_the_british_keeping_their_discard_for_the_sub():
    """The example's dice (L2697-2729), but the British suffer the Italian cruisers' hit
    on their cruiser (which has fired) and keep the TECH discard for the submarine's hit on the carrier's
    deck, which is then cancelled: the carrier keeps its deck and its one aircraft
    (L2642-2644; RULINGS B105). They are asked once per hit while the discard is unused,
    told the fire and the ship (or the tied ships) it falls on."""
    b = crete()
    asked = []
    answers = iter(["itn_cesare", "ukn_7cs", "itn_ss1", "ukn_formidable", None])

    def choose(who, side, among, why):
        asked.append((who, side, sorted(s.id for s in among), why))
        pick = next(answers)
        return None if pick is None else next(s for s in among if s.id == pick)

    dice = ScriptedDice([5, 1] + [3] + [1, 2, 3, 4] + [3, 6] + [4, 4, 3, 6] + [6])
    naval.fight_round(b, dice, choose=choose)
    assert dice.remaining == []
    assert asked == [
        ("aim", "allied", ["itn_1div", "itn_cesare", "itn_ss1"], "Allied torpedo bombers"),
        ("cancel", "allied", ["ukn_7cs", "ukn_dd1"], "Axis cruiser fire"),  # taken
        ("own", "axis", ["itn_1div", "itn_ss1"], "Allied destroyer fire"),
        ("aim", "axis", ["ukn_7cs", "ukn_dd1", "ukn_formidable"], "Axis submarine fire"),
        ("cancel", "allied", ["ukn_formidable"], "Axis submarine fire"),  # discarded
    ]
    assert strengths(b) == {
        "ukn_formidable": 1,  # the flak's air step only: the sub's hit on the deck is void
        "ukn_7cs": 3,  # the cruisers' hit, suffered
        "ukn_dd1": 4,
        "itn_cesare": 1,
        "itn_1div": 2,
        "itn_ss1": 1,
    }
    assert b.ship_hits == {"allied": 1, "axis": 2}  # the flak's is on the air component
    assert b.lines[-1] == (
        "Axis submarine fire: a hit on ukn_formidable (aircraft carrier), discarded by naval "
        "TECH superiority."
    )


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
    # the BB's 3 dice at 5+ hit once: the British, holding the TECH advantage, are asked
    s, ev = go(s, ALLIED, f"hit {t['itn_1div']}", [5, 1, 1])
    assert s.blocks["itn_1div"].steps == 1 and s.blocks["itn_vveneto"].steps == 3
    lines = [e.text for e in ev if e.kind == "naval"]
    assert (
        lines[0].startswith("Allied torpedo bombers: 1st Cruiser Division")
        and before[0] not in lines
    )
    assert order_line(f"hit {t['itn_1div']}", ev, AXIS) == f"hit {t['itn_1div']}"
    assert RULES.prompt(s).kind == "naval_discard"
    # they discard it; the British cruisers first: 2 hits, the BB 3 to 2, then the BB and
    # the SS tie at 2: the Italians choose
    s, ev = go(s, ALLIED, "cancel", [6, 6, 1])
    assert s.blocks["itn_vveneto"].steps == 2 and s.blocks["ukn_18cs"].steps == 3
    assert [e.text for e in ev if e.kind == "naval"][0] == (
        "Axis battleship fire: a hit on 18th Cruiser Squadron (UK-06), discarded by naval "
        "TECH superiority."
    )
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


# -- the TECH advantage's discard, chosen by its side (RULINGS B105) -------------------------


def play(s, role, text, dice=()):
    """An order with exactly the dice it needs: nothing rolled twice, none left over."""
    d = ScriptedDice(list(dice))
    s, ev = RULES.apply(s, role, RULES.parse_order(text), d)
    assert d.remaining == []
    return s, ev


def _keep_the_discard(reload: bool):
    """Capo Matapan with the British asking (``naval ask``): their bombers hit the Italian
    cruisers; the Italian BB's hit falls on the British cruisers, which suffer it; the
    Italian cruisers' hit falls on the tied carrier and cruisers, and is discarded. With
    ``reload``, the game is stored and loaded at every choice."""
    s, ev = _to_the_battle((ALLIED,))
    lines = [e.text for e in ev if e.kind == "naval"]
    prompts = []
    steps = [
        (f"hit {s.blocks['itn_1div'].token}", [5, 1, 1]),  # bombers' target; BB 3 dice: a hit
        ("take", [6, 1, 6]),  # British CA (2 dice): BB 3 to 2; Italian CA (1 die): a hit
        ("cancel", [3, 2]),  # the Italian SS (2 dice at 6: a CV opposes it) misses
    ]
    for text, dice in steps:
        if reload:
            s = RULES.load_state(RULES.dump_state(s))
        prompts.append(RULES.prompt(s))
        s, ev = play(s, ALLIED, text, dice)
        lines += [e.text for e in ev if e.kind == "naval"]
    return s, prompts, lines


def test_the_british_suffer_one_hit_and_discard_a_later_one():
    s, prompts, lines = _keep_the_discard(reload=False)
    assert [p.kind for p in prompts] == ["naval_hit", "naval_discard", "naval_discard"]
    assert RULES.prompt(s).kind == "srm" and "battle" not in s.naval
    assert {k: s.blocks[k].steps for k in
            ("itn_vveneto", "itn_1div", "itn_ss1", "ukn_18cs", "ukn_formidable")} == {
        "itn_vveneto": 2, "itn_1div": 1, "itn_ss1": 2, "ukn_18cs": 2, "ukn_formidable": 3,
    }  # fmt: skip
    assert s.naval["lost"] == {AXIS: 2, ALLIED: 1}
    assert len(lines) == len(set(lines))  # each line given once
    assert lines[2:] == [
        "Axis battleships fire 3 dice at 5+: 5, 1, 1: 1 hit(s).",
        "Axis battleship fire: 18th Cruiser Squadron (UK-06) is hit and reduced to 2.",
        "Allied cruisers fire 2 dice at 6+: 6, 1: 1 hit(s).",
        "Allied cruiser fire: Vittorio Veneto (IT-03) is hit and reduced to 2.",
        "Axis cruisers fire 1 dice at 6+: 6: 1 hit(s).",
        "Axis cruiser fire: a hit on Formidable (UK-05), discarded by naval TECH superiority.",
        "Axis submarines fire 2 dice at 6+: 3, 2: 0 hit(s).",
    ]


def test_a_game_stored_and_loaded_at_each_choice_resumes_the_same():
    straight, _, lines = _keep_the_discard(reload=False)
    again, _, reloaded = _keep_the_discard(reload=True)
    assert RULES.dump_state(again) == RULES.dump_state(straight) and reloaded == lines


def test_the_discard_prompt_names_the_hit_to_its_side_only():
    s, _ = _to_the_battle((ALLIED,))
    s, _ = play(s, ALLIED, f"hit {s.blocks['itn_1div'].token}", [5, 1, 1])
    p = RULES.prompt(s)
    assert (p.role, p.kind, p.verbs) == (
        ALLIED,
        "naval_discard",
        ["cancel", "take", "hit", "standing"],
    )
    assert p.text == (
        "Turn 19, Allied Strategic Warfare (phase 1), sea battle in the Eastern Mediterranean "
        "convoy box: a hit of the Axis battleship fire falls on your 18th Cruiser Squadron "
        "(UK-06, cruiser 3). Your naval TECH advantage may discard one hit this round, and you "
        "have not used it: 'cancel' to discard this hit, or 'take' to suffer it and keep the "
        "discard for a later one; or leave it to the engine ('standing naval engine': the "
        "first hit of each round is discarded)."
    )
    pending = (
        "Turn 19, Allied Strategic Warfare (phase 1), sea battle in the Eastern Mediterranean "
        "convoy box: waiting for the Allied player's choice on a hit (naval TECH, 17.0)."
    )
    assert p.text_for(AXIS) == p.text_for(PUBLIC) == pending
    assert [o.text() for o in RULES.legal_orders(s, ALLIED)] == [
        "standing naval engine", "cancel", "take",
    ]  # fmt: skip
    assert RULES.legal_orders(s, AXIS) == []
    err = refused(s, AXIS, "cancel")  # not the Axis's choice: it reads only what waits
    assert err.legal == f"Waiting for: {pending}"
    refused(s, ALLIED, "done")
    err = refused(s, ALLIED, "hit ukn_formidable")  # not the ship the hit falls on
    assert err.rule == "BIA 17.0" and "18th Cruiser Squadron" in err.legal
    assert refused(s, ALLIED, f"hit {s.blocks['itn_ss1'].token}").reason == err.reason
    # the second hit falls on tied ships: the prompt names both, 'take' alone is refused
    s, _ = play(s, ALLIED, "take", [6, 1, 6])
    p = RULES.prompt(s)
    assert (
        "one of your tied strongest ships: Formidable (UK-05, aircraft carrier 2); 18th "
        "Cruiser Squadron (UK-06, cruiser 2)"
        in p.text
        and "'hit BLOCK' to suffer it" in p.text
    )
    assert [o.text() for o in RULES.legal_orders(s, ALLIED)] == [
        "standing naval engine", "cancel", "hit ukn_formidable", "hit ukn_18cs",
    ]  # fmt: skip
    err = refused(s, ALLIED, "take")
    assert "hit BLOCK" in err.reason and "Formidable" in err.legal
    s, ev = play(s, ALLIED, "hit ukn_formidable", [3, 2])  # suffered by the carrier
    assert s.blocks["ukn_formidable"].steps == 2 and "battle" not in s.naval
    assert order_line("hit ukn_formidable", ev, AXIS) == "hit UK-05"


def test_a_standing_order_of_engine_discards_the_pending_hit():
    s, _ = _to_the_battle((ALLIED,))
    s, _ = play(s, ALLIED, f"hit {s.blocks['itn_1div'].token}", [5, 1, 1])
    assert RULES.prompt(s).kind == "naval_discard"
    # the engine's answer: this first hit of the round is discarded (RULINGS B68)
    # the British CA, unharmed, fires 3 dice (6, 1, 6): the BB 3 to 2, then the SS (tied
    # with the BB, the Axis's engine choice); the Italian CA (3) and SS (2) miss
    s, ev = play(s, ALLIED, "standing naval engine", [6, 1, 6, 3, 2])
    assert any("discarded by naval TECH" in e.text and "18th Cruiser" in e.text for e in ev)
    assert {k: s.blocks[k].steps for k in ("ukn_18cs", "itn_vveneto", "itn_ss1")} == {
        "ukn_18cs": 3, "itn_vveneto": 2, "itn_ss1": 1,
    }  # fmt: skip
    assert RULES.prompt(s).kind == "srm"


def test_the_firer_aims_whatever_the_enemys_private_standing_order():
    """The Axis asks, the British leave the discard to the engine: the Italian sub's hit,
    the round's first on a British ship, is aimed by the Axis though the engine then
    discards it, so being asked tells the Axis nothing of the British standing order
    (RULINGS B105); the British are never asked."""
    s, _ = _to_the_battle((AXIS,), (6, 2, 1, 1, 1, 1, 1, 1, 1, 6, 1))
    p = RULES.prompt(s)
    assert (p.role, p.kind) == (AXIS, "naval_hit") and "submarine" in p.text
    s, ev = play(s, AXIS, f"hit {s.blocks['ukn_formidable'].token}")
    assert [e.text for e in ev if e.kind == "naval"] == [
        "Axis submarine fire: a hit on Formidable (UK-05), discarded by naval TECH superiority."
    ]
    assert s.blocks["ukn_formidable"].steps == 3 and RULES.prompt(s).kind == "srm"


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
    assert (
        len(naval_movement.fleets_out(B, s, "italy")) == 3
        and naval_movement.fuel(B, s, "italy") == 1
    )
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
            if o.verb in ("hit", "activate", "cancel", "take")
            or o.verb == "sail"
            and "convoy:" in o.to
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


def test_random_naval_play_asks_which_hit_the_tech_advantage_discards():
    seen: set[str] = set()
    for seed in range(8):
        seen |= _random_game("BIA8", seed)  # Matapan: the British hold the TECH advantage
        if {"naval_discard", "order:cancel", "order:take"} <= seen:
            break
    assert {"naval_discard", "order:cancel", "order:take"} <= seen, seen
