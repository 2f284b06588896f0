"""Optional Tactical Advantage (TAC 18.3, L729-747): the Allies hold the marker first; its
holder may have any die just rolled rolled again, the new roll final; once used it passes
to the other side at the start of the next turn; refusals name the rule and change
nothing; random play with 18.3 and 18.7 together."""

from __future__ import annotations

from engine.core.dice import ScriptedDice
from engine.games.tac import turn
from engine.games.tac.state import ALLIED, AXIS
from tests.tac.kit import B, R, empty, go, put, refused
from tests.tac.test_random_play import play_random

TA = {"18.3": True}


def declared(options=TA):
    """21st Panzer (9-8) has declared its attack on 2nd Armoured (4-6): 2-1 (L509)."""
    s = empty(AXIS, turn=20, phase="combat", options=options)
    put(s, "ge_21pz", "1726")
    put(s, "uk_2armd", "1727")
    s, _ = go(s, AXIS, "attack ge_21pz 1727")
    s, _ = go(s, AXIS, "done")
    return s


def test_the_allies_hold_the_marker_at_the_start():
    s = R.setup("campaign", TA, ScriptedDice([]))
    assert s.advantage == {"holder": ALLIED, "used": 0, "pending": None}
    assert R.details(s, AXIS)["advantage"] == {"holder": ALLIED, "used": 0, "deciding": False}
    assert R.setup("campaign", {}, ScriptedDice([])).advantage == {}


def test_the_holder_has_the_combat_roll_rolled_again_and_the_new_roll_stands():
    s = declared()
    s, ev = go(s, AXIS, "resolve 1727", dice=[1])  # 2-1, a 1: A2R / D1
    p = R.prompt(s)
    assert (p.role, p.kind) == (ALLIED, "advantage") and "Combat Results Table: 1" in p.text
    assert R.legal_orders(s, AXIS) == []
    assert [o.text() for o in R.legal_orders(s, ALLIED)] == ["reroll 1", "done"]
    assert s.units["ge_21pz"].step == 2  # the first roll's result, pending the holder
    s, ev = go(s, ALLIED, "reroll 1", dice=[5])  # 2-1, a 5: DR
    assert "the Combat Results Table roll of 1 is rolled again: 5" in ev[0].text
    fight = [e for e in ev if e.kind == "battle"][0]
    assert fight.data == {"odds": "2-1", "roll": 5, "attacker": None, "defender": "DR"}
    assert s.units["ge_21pz"].step == 0 and s.units["uk_2armd"].step == 0
    assert s.advantage == {"holder": ALLIED, "used": 20, "pending": None}
    assert (R.prompt(s).role, R.prompt(s).kind) == (ALLIED, "retreat")


def test_a_reroll_may_go_against_its_player_and_then_stands():
    s = declared()
    s, _ = go(s, AXIS, "resolve 1727", dice=[5])  # DR for the Allies
    s, ev = go(s, ALLIED, "reroll", dice=[1])  # worse for the Axis attacker, but final
    assert [e for e in ev if e.kind == "battle"][0].data["roll"] == 1
    assert R.prompt(s).kind != "advantage"


def test_later_rolls_of_the_order_keep_their_values():
    """Maximum Effort's die, then the combat die: rolling the first again keeps the second."""
    s = declared({**TA, "18.4": True, "18.5": True})
    s, ev = go(s, AXIS, "resolve 1727 max", dice=[2, 1])  # 2-1 -> 4-1, a 1
    assert "1) Maximum Effort: 2; 2) Combat Results Table: 1" in R.prompt(s).text
    s, ev = go(s, ALLIED, "reroll 1", dice=[5])  # the effort fails: 1-1, the same 1
    fight = [e for e in ev if e.kind == "battle"][0]
    assert fight.data["odds"] == "1-1" and fight.data["roll"] == 1


def test_declining_keeps_the_marker_for_later():
    s = declared()
    s, _ = go(s, AXIS, "resolve 1727", dice=[4])
    kept, ev = go(s, ALLIED, "done")
    assert ev == [] and kept.advantage == {"holder": ALLIED, "used": 0, "pending": None}
    assert kept.units == s.units and R.prompt(kept).kind != "advantage"
    # 18.3.5: unused, it stays with its holder into the next turn
    kept.phase = "supply"
    turn.end_turn(B, kept, ScriptedDice([]))
    assert kept.advantage["holder"] == ALLIED


def test_the_marker_passes_at_the_start_of_the_next_turn():
    s = declared()
    s, _ = go(s, AXIS, "resolve 1727", dice=[1])
    s, _ = go(s, ALLIED, "reroll", dice=[5])
    s.fight, s.battles, s.phase = None, [], "supply"
    ev = turn.end_turn(B, s, ScriptedDice([]))
    assert s.turn == 21 and s.advantage == {"holder": AXIS, "used": 0, "pending": None}
    assert any("passes to the Axis player (18.3.3)" in e.text for e in ev)


def test_refusals_name_the_rule_and_change_nothing():
    s = declared()
    refused(s, AXIS, "reroll", "TAC 18.3.2")  # no die rolled yet
    s, _ = go(s, AXIS, "resolve 1727", dice=[1])
    refused(s, AXIS, "reroll", "TAC 18.3.2")  # not the holder
    refused(s, AXIS, "retreat ge_21pz 1725", "TAC 18.3.2")  # the window first
    refused(s, ALLIED, "reroll 2", "TAC 18.3.2")  # one roll only
    s, _ = go(s, ALLIED, "reroll", dice=[5])
    refused(s, ALLIED, "reroll", "TAC 18.3.2")  # spent this turn


def test_an_event_chits_success_roll_may_be_rolled_again():
    """18.3.4: an Event Chit's roll too. The Axis plays Fuel/Ammo Reserves and rolls 2;
    the Allies have it rolled again: a 6 cancels it."""
    s = R.setup("campaign", {**TA, "18.6": True, "18.7": True}, ScriptedDice([1] * 5))
    s.chits["hands"] = {ALLIED: [], AXIS: ["c4"]}
    s.chits["cup"] = [f"c{i}" for i in range(14) if i != 4]
    s.turn, s.player, s.phase, s.fuel = 20, AXIS, "reinforce", 5
    s, _ = go(s, AXIS, "play fuel-ammo-reserves", dice=[2])
    assert s.fuel == 6 and R.prompt(s).kind == "advantage"
    s, ev = go(s, ALLIED, "reroll", dice=[6])
    assert s.fuel == 5 and "c4" in s.chits["spent"]
    assert any("roll 6, the event is cancelled" in e.text for e in ev)


def test_random_play_with_event_chits_and_tactical_advantage_replays_the_same():
    options = {k: True for k in ("18.1", "18.2", "18.3", "18.4", "18.5", "18.6", "18.7")}
    a, n = play_random(21, options, done_rate=0.3, last_turn=8)
    b, m = play_random(21, options, done_rate=0.3, last_turn=8)
    assert a.turn == 9 and n == m and R.dump_state(a) == R.dump_state(b)
    assert a.chits["spent"] and (a.advantage["used"] or a.advantage["holder"] == AXIS)


def test_standing_advantage_pass_answers_now_and_stops_the_questions():
    s = declared()
    s, _ = go(s, AXIS, "resolve 1727", dice=[1])
    s, ev = go(s, ALLIED, "standing advantage pass")
    assert s.advantage == {"holder": ALLIED, "used": 0, "pending": None}
    assert R.prompt(s).kind != "advantage" and ev[0].text_for(AXIS) is None
    s2 = declared()
    s2.standing[ALLIED] = {"advantage": "pass"}
    s2, _ = go(s2, AXIS, "resolve 1727", dice=[1])
    assert R.prompt(s2).kind != "advantage" and s2.advantage["pending"] is None
