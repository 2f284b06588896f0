"""The Allied player chooses the donor division (TAC 7.3 L339) and the substitute (7.4
L341) of a withdrawal (RULINGS R45): a prompt with the legal choices, the engine's own
choice (R40, R41) listed first so that a passed deadline applies it, and the standing
order ``standing withdraw engine`` so that he is never asked."""

from __future__ import annotations

from bot.discord.standing import choose
from engine.core.dice import ScriptedDice
from engine.games.tac.state import ALLIED, AXIS
from tests.tac.kit import B, R, empty, go, put, refused


def _turn_two(standing: str | None = None):
    """Turn 2, the Allied Reinforcement Phase: the 4th Indian (due out at 4-6 or more) is
    at 2-6 with no replacement held; the 7th Armoured and the 1st South African can give
    steps, and the 6th Australian lands at Alexandria this turn (it can too)."""
    s = empty(ALLIED, turn=2, phase="reinforce")
    put(s, "in_4", "1362", step=3)
    put(s, "uk_7armd", "1363")
    put(s, "sa_1", "1364", step=1)
    if standing:
        s.standing = {ALLIED: {"withdraw": standing}}
    R._settle(s, ScriptedDice([]))
    return s


def test_the_allied_player_is_asked_for_each_step_a_donor_gives():
    s = _turn_two()
    p = R.prompt(s)
    assert (s.phase, p.role, p.kind) == ("withdraw", ALLIED, "withdraw")
    assert p.verbs == ["donor", "standing"] and "7.3" in p.text
    # the engine's own choice first: the division with the most steps left (R40)
    offered = [o.text() for o in R.legal_orders(s, ALLIED)]
    assert offered[0] in ("donor au_6", "donor uk_7armd") and "donor sa_1" in offered
    assert "donor in_4" not in offered and R.legal_orders(s, AXIS) == []
    s2, ev = go(s, ALLIED, "donor sa_1")
    assert s2.units["sa_1"].step == 2 and s2.phase == "withdraw"  # a second step is owed
    assert any("1st South African" in e.text and "gives a step" in e.text for e in ev)
    s3, ev = go(s2, ALLIED, "donor uk_7armd")
    assert s3.units["uk_7armd"].step == 1 and s3.phase == "move"
    assert s3.units["in_4"].where == "withdrawn"
    assert B.units["in_4"].steps[s3.units["in_4"].step] == "4-6"
    assert s3.withdrawal is None


def test_a_donor_that_is_not_offered_is_refused_and_nothing_changes():
    s = _turn_two()
    refused(s, ALLIED, "donor in_4", "TAC 7.3")  # the withdrawing unit itself
    refused(s, ALLIED, "donor uk_7rtr", "TAC 7.3")  # not on the map, not a division
    refused(s, ALLIED, "substitute uk_7armd", "TAC 6.1")  # a donor is asked, not a substitute
    refused(s, AXIS, "donor uk_7armd", "TAC 6.1")  # not the Axis player's decision


def test_standing_withdraw_engine_lets_the_engine_choose_now_and_later():
    s = _turn_two()
    s2, ev = go(s, ALLIED, "standing withdraw engine")
    assert s2.phase == "move" and s2.units["in_4"].where == "withdrawn"
    # the engine's choice (R40): the most steps left; sa_1 (already down one) gives none
    assert s2.units["sa_1"].step == 1
    assert s2.standing == {ALLIED: {"withdraw": "engine"}}
    assert all(e.seen_by == (ALLIED,) for e in ev if e.kind == "standing")
    # given beforehand, he is not asked at all
    s3 = _turn_two("engine")
    assert s3.phase == "move" and s3.units["in_4"].where == "withdrawn"
    assert R.parse_order("standing withdraw ask").text() == "standing withdraw ask"


def test_the_axis_has_no_withdrawals_to_order():
    s = empty(AXIS, turn=20)
    refused(s, AXIS, "standing withdraw engine", "TAC 7.2")


def test_a_passed_deadline_applies_the_engine_s_choice_or_the_player_s_preference():
    """ARCHITECTURE: Asynchronous play: the bot's default is the first legal order, which
    is the engine's own choice; a seat's standing preference ``donor: sa_1`` names a unit."""
    s = _turn_two()
    legal = R.legal_orders(s, ALLIED)
    assert choose(legal, {}).order == legal[0]
    assert choose(legal, {"donor": ["sa_1"]}).order.text() == "donor sa_1"


def test_the_substitute_for_a_destroyed_unit_is_the_allied_player_s_choice():
    """7.4: the 6th Australian (due out on Turn 7 at 4-6) is destroyed; the 9th
    Australian and the 4th Indian (5-6 each) can go in its place, the 16th (2-6) cannot."""
    s = empty(ALLIED, turn=7, phase="reinforce")
    s.units["au_6"].where = "dead"
    put(s, "uk_16", "1362")
    put(s, "au_9", "1363")
    put(s, "in_4", "1364")
    R._settle(s, ScriptedDice([]))
    assert s.phase == "withdraw" and R.prompt(s).verbs == ["substitute", "standing"]
    offered = [o.text() for o in R.legal_orders(s, ALLIED)]
    assert offered[0] == "substitute au_9" and "substitute in_4" in offered
    refused(s, ALLIED, "substitute uk_16", "TAC 7.4")  # too weak
    s2, ev = go(s, ALLIED, "substitute in_4")
    assert s2.units["in_4"].where == "removed" and s2.units["au_9"].where == "map"
    assert "in its place" in " ".join(e.text for e in ev)
    assert s2.phase in ("mines", "move")  # Turn 7: a minefield may be called (16.0)


def test_one_possible_choice_is_made_without_asking():
    s = empty(ALLIED, turn=7, phase="reinforce")
    s.units["au_6"].where = "dead"
    put(s, "au_9", "1363")
    R._settle(s, ScriptedDice([]))
    assert s.phase in ("mines", "move") and s.units["au_9"].where == "removed"


def test_a_game_stored_while_a_choice_waits_plays_on_the_same():
    s = _turn_two()
    back = R.load_state(R.dump_state(s))
    assert back.to_dict() == s.to_dict()
    a, _ = go(s, ALLIED, "donor sa_1")
    b, _ = go(back, ALLIED, "donor sa_1")
    assert a.to_dict() == b.to_dict()
