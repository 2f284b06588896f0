"""Optional Event Chits (TAC 18.7, L805-931): the draws and the hidden hands, the windows
each event is played in, every event's effect with scripted dice, the refusals, and a
scan of everything the opponent is given for the chits in a hand."""

from __future__ import annotations

import json
import random

import pytest

from engine.core.dice import ScriptedDice
from engine.core.errors import IllegalOrder
from engine.core.events import lines_for, order_line
from engine.games.tac import events as chits
from engine.games.tac import legal, turn
from engine.games.tac.state import ALLIED, AXIS, State
from tests.tac.kit import B, R, go, put, refused

OPTS = {"18.6": True, "18.7": True}
# the fourteen chits of the pack (tables.events.chits): Allied face / Axis face
BAD_WEATHER, COUNTER_INTEL, EXTRA_MINES, DISORG_POOR, MALTA_FUEL = "c0", "c1", "c2", "c3", "c4"
NAVAL_FLAK, LRDG_PIONEERS, FORCEK_EARLY, LEAVE_LATE, TANK_PANZER = "c5", "c6", "c7", "c8", "c9"
ULTRA_LUFTFLOTTE, CI_CAPTURED = "c10", "c11"


def game(player=AXIS, turn_=20, phase="move", allied=(), axis=(), options=None) -> State:
    """Turn ``turn_``, ``player``'s ``phase``, no unit on the map (one Axis unit waits at
    Tripoli), the hands as given and every other chit in the cup."""
    s = R.setup("campaign", {**OPTS, **(options or {})}, ScriptedDice([1] * 5))
    for u in s.units.values():
        u.where, u.hex = "pool", None
    s.units["ge_ramcke"].where = "tripoli"
    s.turn, s.player, s.phase, s.fuel, s.first = turn_, player, phase, 5, ALLIED
    s.air_bases = []
    c = s.chits
    c["hands"] = {ALLIED: list(allied), AXIS: list(axis)}
    c["cup"] = [f"c{i}" for i in range(14) if f"c{i}" not in (*allied, *axis)]
    c["rommel"] = True
    return s


def lines(events, audience) -> str:
    return " | ".join(lines_for(events, audience))


# -- set-up, draws, hands ---------------------------------------------------------------


def test_set_up_draws_three_allied_then_two_axis_each_hidden_from_the_other():
    s = R.setup("campaign", OPTS, ScriptedDice([14, 1, 1, 11, 2]))
    assert s.chits["hands"] == {ALLIED: ["c13", "c0", "c1"], AXIS: ["c12", "c3"]}
    assert len(s.chits["cup"]) == 9
    allied, axis = R.details(s, ALLIED)["chits"], R.details(s, AXIS)["chits"]
    assert [x["event"] for x in allied["allied_hand"]] == ["Tank Recovery", "Bad Weather", "Counter-Intelligence"]
    assert "axis_hand" not in allied and "allied_hand" not in axis
    assert allied["held"] == axis["held"] == {ALLIED: 3, AXIS: 2}
    assert "allied_hand" not in R.details(s, None)["chits"]


def test_the_option_needs_the_bonus_minefields():
    with pytest.raises(IllegalOrder) as e:
        R.setup("campaign", {"18.7": True}, ScriptedDice([1] * 5))
    assert e.value.rule == "TAC 18.6.2"
    assert R.setup("campaign", {}, ScriptedDice([])).chits == {}


def test_draw_turns_each_player_draws_one_and_a_full_hand_draws_none():
    s = game(AXIS, turn_=8, phase="supply", allied=["c0", "c1", "c2", "c3"], axis=[])
    ev = turn.end_turn(B, s, ScriptedDice([1]))  # Turn 9: the Allies hold 4 (18.7.5)
    assert s.turn == 9 and len(s.chits["hands"][ALLIED]) == 4
    assert s.chits["hands"][AXIS] == ["c4"]
    text = lines(ev, ALLIED)
    assert "draws none (18.7.5)" in text and "c4" not in text and "Malta" not in text
    assert "Axis draws event chit c4: Fuel/Ammo Reserves (18.7.2)" in lines(ev, AXIS)


def test_turn_25_puts_the_played_chits_back_in_the_cup_before_drawing():
    s = game(AXIS, turn_=24, phase="supply")
    s.chits["spent"] = ["c5", "c6"]
    s.chits["cup"] = [c for c in s.chits["cup"] if c not in ("c5", "c6")]
    turn.end_turn(B, s, ScriptedDice([14, 13]))
    assert s.chits["spent"] == [] and s.chits["hands"] == {ALLIED: ["c6"], AXIS: ["c5"]}
    assert R.invariant_problems(s) == []


def test_rommel_arriving_gives_the_axis_a_chit():
    s = game(AXIS, turn_=5, phase="reinforce")
    s.chits["rommel"] = False
    events = R._settle(s, ScriptedDice([1, 1]))  # the Axis table's roll, then the draw
    assert s.units["ge_dak"].where == "tripoli" and s.chits["hands"][AXIS] == ["c0"]
    assert "(18.7.3)" in lines(events, ALLIED) and "c0" not in lines(events, ALLIED)


# -- playing: the roll, the windows, refusals ------------------------------------------


def test_a_roll_of_5_or_6_cancels_the_event_and_the_chit_is_set_aside():
    s = game(AXIS, turn_=20, phase="reinforce", axis=[MALTA_FUEL])
    assert (R.prompt(s).role, R.prompt(s).kind) == (AXIS, "chits")
    s, ev = go(s, AXIS, "play fuel-ammo-reserves", dice=[5])
    assert s.fuel == 5 and s.chits["spent"] == [MALTA_FUEL] and s.chits["hands"][AXIS] == []
    assert "roll 5, the event is cancelled (18.7.6)" in lines(ev, ALLIED)


def test_refusals_name_the_rule_and_change_nothing():
    s = game(AXIS, turn_=20, phase="reinforce", allied=[MALTA_FUEL], axis=[TANK_PANZER])
    # the phasing Axis decides first; Malta Convoy is the Allies', not now
    refused(s, ALLIED, "play malta-convoy", "TAC 18.7")
    refused(s, AXIS, "play fuel-ammo-reserves", "TAC 18.7.1")  # not held
    refused(s, AXIS, "play panzer-recovery 1127", "TAC 18.7")  # names nothing
    refused(s, AXIS, "move ge_ramcke 0101", "TAC 6.1")  # the window first
    s, _ = go(s, AXIS, "done")
    assert (R.prompt(s).role, R.prompt(s).kind) == (ALLIED, "chits")
    refused(s, ALLIED, "play tank-recovery", "TAC 18.7.1")
    # Tank Recovery is played in the Allied Reinforcement Phase, not the Axis one
    s2 = game(AXIS, turn_=20, phase="reinforce", allied=[TANK_PANZER])
    msg = refused(s2, ALLIED, "play tank-recovery", "TAC 18.7")
    assert "Allied Reinforcement/Withdrawal Phase" in msg
    s3 = game(AXIS, turn_=20, phase="move", axis=[TANK_PANZER])
    refused(s3, AXIS, "play panzer-recovery", "TAC 18.7")  # its moment has passed
    s4 = R.setup("campaign", {"18.6": True}, ScriptedDice([]))
    refused(s4, ALLIED, "play malta-convoy", "TAC 18.7")  # the option is off


def test_counter_intelligence_cancels_before_the_success_roll():
    s = game(AXIS, turn_=21, phase="reinforce", allied=[MALTA_FUEL], axis=[COUNTER_INTEL])
    s, _ = go(s, AXIS, "done")  # the Axis plays nothing at the start of its turn
    s, ev = go(s, ALLIED, "play malta-convoy")
    p = R.prompt(s)
    assert (p.role, p.kind) == (AXIS, "chits") and "counter-intelligence" in p.text
    refused(s, AXIS, "play fuel-ammo-reserves", "TAC 18.7.1")
    s, ev = go(s, AXIS, "play counter-intelligence", dice=[4, 3])  # CI 4, then the table's 3
    assert s.chits["malta"] == 0 and sorted(s.chits["spent"]) == [COUNTER_INTEL, MALTA_FUEL]
    text = lines(ev, ALLIED)
    assert "Counter-Intelligence: roll 4, the event occurs" in text
    assert "Malta Convoy is cancelled by Counter-Intelligence" in text
    assert [e.data.get("roll") for e in ev if e.kind == "fuel"] == [3]


# -- every event ---------------------------------------------------------------------------


def table_fuel(t: int, roll: int) -> int:
    return B.tables.axis_table[B.turns[t].segment].rows[roll - 1][2]


def test_malta_convoy_adds_one_to_the_axis_table_roll():
    s = game(AXIS, turn_=21, phase="reinforce", allied=[MALTA_FUEL])
    s, ev = go(s, ALLIED, "play malta-convoy", dice=[2, 3])
    fuel = [e for e in ev if e.kind == "fuel"][0]
    assert fuel.data == {"roll": 4, "fuel": table_fuel(21, 4)}
    assert s.fuel == min(10, 5 + table_fuel(21, 4))


def test_fuel_ammo_reserves_and_panzer_recovery():
    s = game(AXIS, turn_=20, phase="reinforce", axis=[MALTA_FUEL, TANK_PANZER])
    s, _ = go(s, AXIS, "play fuel-ammo-reserves", dice=[1])
    assert s.fuel == 6
    s, _ = go(s, AXIS, "play panzer-recovery", dice=[4])
    assert s.replacements.get("axis_german_armour") == 1
    s, _ = go(s, AXIS, "done")
    assert s.phase in ("mines", "move")


def test_tank_recovery_and_extra_mines_at_the_start_of_the_allied_turn():
    s = game(ALLIED, turn_=20, phase="reinforce", allied=[TANK_PANZER, EXTRA_MINES])
    calls = dict(s.mines["calls"])
    s, _ = go(s, ALLIED, "play tank-recovery", dice=[3])
    assert s.replacements.get("allied_armour") == 1
    s, ev = go(s, ALLIED, "play extra-mines", dice=[1, 2])  # success, then the cup's 2nd
    mine = s.mines["hands"][ALLIED][0]
    assert s.mines["calls"] == calls and len(s.mines["hands"][ALLIED]) == 1
    assert mine in lines(ev, ALLIED) and mine not in lines(ev, AXIS) + lines(ev, None)
    assert "draws a free minefield" in lines(ev, AXIS)


def test_luftflotte_2_takes_two_infantry_replacements_of_this_turn():
    s = game(ALLIED, turn_=21, phase="reinforce", axis=[ULTRA_LUFTFLOTTE])
    s.replacements["allied_infantry"] = 3  # held from before: not touched
    s, _ = go(s, AXIS, "play luftflotte-2", dice=[1])
    assert s.replacements["allied_infantry"] == 3 + B.turns[21].allied_infantry_replacements - 2


def test_force_k_delays_an_axis_arrival_one_turn():
    s = game(AXIS, turn_=21, phase="reinforce", allied=[FORCEK_EARLY])
    refused(s, ALLIED, "play royal-navy-force-k ge_90", "TAC 18.7 (L859, L909)")  # due on 23
    s, _ = go(s, ALLIED, "play royal-navy-force-k it_gf", dice=[1, 1])
    assert s.units["it_gf"].where == "pool" and s.chits["arrive"]["it_gf"] == 22
    s.turn, s.phase, s.player = 22, "reinforce", AXIS
    s, _ = go(s, AXIS, "done") if R.prompt(s).kind == "chits" else (s, R._settle(s, ScriptedDice([1] * 3)))
    assert s.units["it_gf"].where == "tripoli"


def test_late_allied_reinforcements_and_early_convoy_arrival():
    s = game(ALLIED, turn_=21, phase="reinforce", axis=[LEAVE_LATE])
    s, _ = go(s, AXIS, "play late-allied-reinforcements uk_22armd", dice=[1, 1, 1])
    assert s.units["uk_22armd"].where == "pool" and s.units["in_5"].where == "map"
    s = game(AXIS, turn_=22, phase="reinforce", axis=[FORCEK_EARLY])
    refused(s, AXIS, "play early-convoy-arrival it_gf", "TAC 18.7 (L889)")
    s, _ = go(s, AXIS, "play early-convoy-arrival ge_90", dice=[1])
    assert s.units["ge_90"].where == "tripoli"


def test_rommel_on_leave_comes_back_two_turns_later():
    s = game(AXIS, turn_=20, phase="reinforce", allied=[LEAVE_LATE])
    refused(s, ALLIED, "play rommel-on-leave", "TAC 18.7 (L863)")  # not on the map
    put(s, "ge_dak", "1726")
    s, ev = go(s, ALLIED, "play rommel-on-leave", dice=[1])
    assert s.units["ge_dak"].where == "pool" and s.chits["arrive"]["ge_dak"] == 22
    s.turn, s.phase, s.player = 22, "reinforce", AXIS
    R._settle(s, ScriptedDice([1] * 3))
    assert s.units["ge_dak"].where == "tripoli"


def test_ultra_intelligence_takes_an_axis_chit_back_to_the_cup():
    s = game(ALLIED, turn_=20, phase="reinforce", allied=[ULTRA_LUFTFLOTTE], axis=[NAVAL_FLAK, DISORG_POOR])
    s, _ = go(s, ALLIED, "play ultra-intelligence")
    # the Axis holds chits, so it is asked whether to answer with Counter-Intelligence
    assert (R.prompt(s).role, R.prompt(s).kind) == (AXIS, "chits")
    s, ev = go(s, AXIS, "done", dice=[2, 2])
    assert s.chits["hands"][AXIS] == [NAVAL_FLAK] and DISORG_POOR in s.chits["cup"]
    assert "Poor Attack Coordination" in lines(ev, None)  # shown (L871)


def test_bad_weather_slows_movement_and_keeps_air_units_out():
    s = game(AXIS, turn_=20, phase="reinforce", allied=[BAD_WEATHER])
    put(s, "ge_21pz", "1726")
    before = legal.destinations(B, s, [s.units["ge_21pz"]], False, set(), set())
    s, _ = go(s, ALLIED, "play bad-weather 1726", dice=[1])
    assert R.prompt(s).kind in ("mines", "move")
    s.phase = "move"
    after = legal.destinations(B, s, [s.units["ge_21pz"]], False, set(), set())
    lost = sorted(set(before) - set(after))
    assert lost and set(after) <= set(before)
    far = before[lost[0]]
    refused(s, AXIS, "move ge_21pz " + " ".join(far), "TAC 8.0")
    put(s, "uk_2armd", "1728")
    s.air_bases = ["1726"]
    refused(s, AXIS, "interdict 1728", "TAC 18.7")
    # the chit is gone with the end of the Axis player turn
    s.player = ALLIED
    assert chits.weather(B, s) == set()


def battle(attacker, units, defenders, options=None, allied=(), axis=()):
    s = game(attacker, turn_=20, phase="combat", allied=allied, axis=axis, options=options)
    for uid, h in {**units, **defenders}.items():
        put(s, uid, h)
    targets = sorted(set(defenders.values()))
    s, _ = go(s, attacker, f"attack {','.join(units)} {','.join(targets)}")
    s, _ = go(s, attacker, "done")
    return s


def test_italian_disorganization_halves_attacking_italian_infantry():
    # it_1lib and ge_21pz against the 2nd Armoured: the Italian's factor is halved
    plain = battle(AXIS, {"ge_21pz": "1726", "it_1lib": "1826"}, {"uk_2armd": "1727"})
    _, ev = go(plain, AXIS, "resolve 1727", dice=[6])
    full = [e for e in ev if e.kind == "battle"][0].text
    s = battle(AXIS, {"ge_21pz": "1726", "it_1lib": "1826"}, {"uk_2armd": "1727"}, allied=[DISORG_POOR])
    s, _ = go(s, AXIS, "resolve 1727")
    assert (R.prompt(s).role, R.prompt(s).kind) == (ALLIED, "chits")
    # the last chit of the hand closes the window: both sides' choices are shown, then rolled
    s, ev = go(s, ALLIED, "play italian-disorganization", dice=[1, 6])
    secret = [e for e in ev if "will play" in (e.text_for(AXIS) or "")]
    assert secret and "italian" not in secret[0].text_for(AXIS).lower()
    assert "play (an event chit" in order_line("play italian-disorganization", ev, AXIS)
    text = [e for e in ev if e.kind == "battle"][0].text
    a = B.values("it_1lib", 0)[0]
    assert f"{9 + a} against" in full and f"{9 + a // 2} against" in text
    # Poor Attack Coordination and Flak 88 are for Allied attacks only (L897, L931)
    s = battle(AXIS, {"ge_21pz": "1726"}, {"uk_2armd": "1727"}, axis=[DISORG_POOR])
    s, _ = go(s, AXIS, "resolve 1727")
    assert (R.prompt(s).role, R.prompt(s).kind) == (AXIS, "chits")
    assert [o.text() for o in R.legal_orders(s, AXIS)] == ["done"]
    refused(s, AXIS, "play poor-attack-coordination ge_21pz", "TAC 18.7 (L931)")


def test_poor_attack_coordination_and_flak_88():
    """7th Armoured (8) and 2nd Armoured (4) attack 21st Panzer (9): Poor Attack
    Coordination halves the 7th (8 against 9, 1-2); on a 2 (A1) Flak 88 puts the step
    on the 2nd Armoured, though the 7th could have taken it."""
    s = battle(ALLIED, {"uk_7armd": "1726", "uk_2armd": "1826"}, {"ge_21pz": "1727"},
               axis=[DISORG_POOR, NAVAL_FLAK])
    s, _ = go(s, ALLIED, "resolve 1727")
    assert (R.prompt(s).role, R.prompt(s).kind) == (AXIS, "chits")  # the attacker holds none
    refused(s, AXIS, "play flak-88 ge_21pz", "TAC 18.7 (L897)")
    refused(s, AXIS, "play flak-88 uk_20", "TAC 18.7")
    s, _ = go(s, AXIS, "play poor-attack-coordination uk_7armd")
    s, ev = go(s, AXIS, "play flak-88 uk_2armd", dice=[1, 1, 2])
    text = lines(ev, ALLIED)
    assert "Poor Attack Coordination" in text and "Flak 88" in text
    fight = [e for e in ev if e.kind == "battle"][0]
    assert "8 against 9" in fight.text and fight.data["attacker"] == "A1"
    assert (s.units["uk_2armd"].step, s.units["uk_7armd"].step) == (1, 0)


def test_naval_support_shifts_a_battle_for_a_port_one_column():
    units, foe = {"uk_7armd": "1475"}, {"ge_21pz": "1476"}
    plain = battle(ALLIED, units, foe)
    _, ev = go(plain, ALLIED, "resolve 1476", dice=[6])
    col = [e for e in ev if e.kind == "battle"][0].data["odds"]
    s = battle(ALLIED, units, foe, allied=[NAVAL_FLAK])
    s, _ = go(s, ALLIED, "resolve 1476")
    s, ev = go(s, ALLIED, "play naval-support", dice=[1, 6])
    cols = B.tables.crt.columns
    assert [e for e in ev if e.kind == "battle"][0].data["odds"] == cols[cols.index(col) + 1]


def test_long_range_desert_group_holds_a_unit_far_from_the_allies():
    s = game(AXIS, turn_=20, phase="mines", allied=[LRDG_PIONEERS])
    put(s, "ge_21pz", "0710")
    put(s, "uk_2armd", "1760")
    s.mines["month"][AXIS] = 19  # no call this month: straight to movement
    s, _ = go(s, AXIS, "done")
    assert (R.prompt(s).role, R.prompt(s).kind) == (ALLIED, "chits")
    s, _ = go(s, ALLIED, "play long-range-desert-group ge_21pz", dice=[3])
    assert s.delayed["ge_21pz"] == 20
    assert not [o for o in R.legal_orders(s, AXIS) if o.verb == "move" and "ge_21pz" in o.text()]


def test_pioneers_lift_a_minefield_unseen():
    s = game(AXIS, turn_=20, phase="move", axis=[LRDG_PIONEERS])
    put(s, "ge_21pz", "1726")
    s.mines["map"]["1727"] = s.mines["cup"].pop()
    s, ev = go(s, AXIS, "play pioneers 1727", dice=[2])
    assert "1727" not in s.mines["map"] and len(s.mines["cup"]) == 16
    s, ev = go(s, AXIS, "move ge_21pz 1727 1728")
    assert s.units["ge_21pz"].hex == "1728"


def test_captured_supplies_after_taking_an_allied_city():
    s = game(AXIS, turn_=20, phase="move", axis=[CI_CAPTURED])
    put(s, "ge_21pz", "1362")
    s.control["1364"] = ALLIED
    refused(s, AXIS, "play captured-supplies", "TAC 18.7")
    s, _ = go(s, AXIS, "move ge_21pz 1363 1364")
    assert s.control["1364"] == AXIS
    s, _ = go(s, AXIS, "play captured-supplies", dice=[1])
    assert s.fuel == 6


# -- what the opponent is given ---------------------------------------------------------------


def secret_words(s: State, audience: str) -> set[str]:
    """Words naming a chit in the other hand: its id, and the names on its faces that no
    other chit bears (those alone say which chit it is)."""
    faces = [n for x in B.tables.events.chits for n in (x.allied, x.axis)]
    out = set()
    c = s.chits
    held = [x for side, h in c["hands"].items() if side != audience for x in h]
    held += [i["chit"] for i in c["secret"] if i["side"] != audience]
    for chit in held:
        x = B.tables.events.chits[int(chit[1:])]
        out.add(chit)
        out |= {w for n in (x.allied, x.axis) if faces.count(n) == 1 for w in (n, chits.slug(n))}
    return out


def found(words: set[str], texts: list[str]) -> str | None:
    import re

    for w in words:
        for t in texts:
            if re.search(rf"(?<![\w*]){re.escape(w)}(?![\w*])", t):
                return f"{w!r} in {t[:200]!r}"
    return None


def test_no_view_line_prompt_or_order_names_a_chit_in_the_other_hand():
    """Random play with 18.7 and 18.3 on: after every order touching the chits (and every
    tenth other), what each side and the public are shown (details, map view, prompt,
    their legal orders) names no chit of the other hand, and what they are told of the
    order (log lines, the order as it reads to them, event data) names none that is in the
    other hand once it is done (a chit just drawn among them)."""
    rng = random.Random(5)
    dice = type("D", (), {"roll": lambda self, n, p="": rng.randint(1, n)})()
    s = R.setup("campaign", {**OPTS, "18.3": True}, dice)
    scanned = 0
    for n in range(900):
        p = R.prompt(s)
        if p.role is None or s.turn > 20:
            break
        orders = R.legal_orders(s, p.role)
        done = [o for o in orders if o.verb == "done"]
        o = rng.choice(done if done and rng.random() < 0.3 else orders)
        s, ev = R.apply(s, p.role, o, dice)
        touched = o.verb == "play" or p.kind == "chits" or any(e.kind == "chits" for e in ev)
        if not touched and n % 10:
            continue
        for audience in (ALLIED, AXIS, None):
            now = secret_words(s, audience)  # a chit just drawn counts: it is hidden now
            shown = [json.dumps(R.details(s, audience)), R.view(s, audience).model_dump_json(),
                     R.prompt(s).text_for(audience)]  # fmt: skip
            if audience is not None:
                shown += [x.text() for x in R.legal_orders(s, audience)]
            told = [*lines_for(ev, audience), order_line(o.text(), ev, audience) or ""]
            told += [json.dumps(e.data_for(audience)) for e in ev]
            assert found(now, shown) is None, (audience, found(now, shown))
            assert found(now, told) is None, (audience, found(now, told))
            scanned += len(shown) + len(told)
    assert scanned > 500 and len(s.chits["spent"]) >= 3  # chits were drawn and played


def test_standing_events_pass_stops_the_questions_and_ask_brings_them_back():
    s = game(AXIS, turn_=20, phase="reinforce", allied=[MALTA_FUEL], axis=[TANK_PANZER])
    s, _ = go(s, AXIS, "done")
    assert (R.prompt(s).role, R.prompt(s).kind) == (ALLIED, "chits")
    s, ev = go(s, ALLIED, "standing events pass")
    assert R.prompt(s).role == AXIS and R.prompt(s).kind in ("mines", "move")  # no LRDG question
    assert lines(ev, AXIS) == "" and "Standing order: events pass." in lines(ev, ALLIED)
    assert s.chits["hands"][ALLIED] == [MALTA_FUEL]
    s.phase = "move"
    refused(s, AXIS, "standing advantage pass", "TAC 18.3")  # not in play here
    s.player, s.phase = ALLIED, "move"
    s, _ = go(s, ALLIED, "standing events ask")
    s.player, s.phase = AXIS, "move"
    s.chits["done"] = []
    assert (R.prompt(s).role, R.prompt(s).kind) == (ALLIED, "chits")  # LRDG asked again
