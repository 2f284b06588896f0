"""Land mines going off against declared attacks (Mine Token Detonation, L950-972) with
scripted dice: the digest's scenario T10."""

from __future__ import annotations

import pytest

from engine.core.dice import ScriptedDice
from engine.core.errors import IllegalOrder
from tests.aa_na.helpers import R, at, play, position


def t10(tokens=(2,), units=(("ger.infantry", 2), ("ger.tank", 1))):
    """Germany attacks Mersa Matruh from Tobruk with 3 units; a UK "2 mines" token guards
    Mersa Matruh's border facing Tobruk; the UK infantry there makes the mines active and
    UK-owned (L956)."""
    s = position("ger", "combat_move",
                 [*(("ger", t, "tobruk", n) for t, n in units), ("uk", "uk.infantry", "mersa_matruh", 1)],
                 supply={"tobruk": 1}, control={"tobruk": "ger", "cairo": "uk"})  # fmt: skip
    s.land_mines = [{"territory": "mersa_matruh", "facing": "tobruk", "tokens": list(tokens)}]
    s, _ = play(s, "axis", "declare tobruk mersa_matruh")
    s, _ = play(s, "axis", "done")
    return s


def test_t10_the_owner_sets_off_one_icon_and_two_hits_turn_two_attackers_back():
    s = t10()
    p = R.prompt(s)
    assert p.kind == "mines" and p.role == "allies" and "2 mine icon(s)" in p.text
    before = R.dump_state(s)
    with pytest.raises(IllegalOrder):
        play(s, "allies", "detonate 3")
    assert R.dump_state(s) == before
    s, ev = play(s, "allies", "detonate 1", ScriptedDice([2, 3, 7]))
    assert s.land_mines == [{"territory": "mersa_matruh", "facing": "tobruk", "tokens": [1]}]  # flipped (L966)
    assert R.prompt(s).kind == "turnback" and R.prompt(s).role == "axis"
    s, ev = play(s, "axis", "turnback 2 inf")
    attack = s.attacks[0]
    assert [u.type for u in s.units if u.id in attack["units"]] == ["ger.tank"]
    assert at(s, "tobruk") == {"ger.infantry": 2, "ger.tank": 1}  # they stay where they were
    assert s.supply == {}  # the token spent on the declaration is not refunded
    assert R.prompt(s).kind == "combat"


def test_t10_three_hits_turn_every_attacker_back_and_the_attack_is_off():
    s = t10()
    s, ev = play(s, "allies", "detonate 1", ScriptedDice([1, 2, 3]))
    assert s.attacks == [] and any("attack is off" in e.text for e in ev)
    assert s.land_mines == [{"territory": "mersa_matruh", "facing": "tobruk", "tokens": [1]}]


def test_mines_that_all_miss_end_the_border_and_the_owner_is_not_asked_again():
    """L966: every icon on a border is decided before any goes off; after the dice, with
    no hit, nothing is left to decide there (it was asked again, with the spent icons)."""
    s = t10()
    dice = ScriptedDice([7, 8, 9])
    s, ev = play(s, "allies", "detonate 1", dice)
    assert dice.remaining == [] and s.mine_queue == [] and R.prompt(s).kind == "combat"
    assert s.land_mines[0]["tokens"] == [1] and len(s.attacks[0]["units"]) == 3


def test_mines_need_not_go_off():
    s = t10()
    s, _ = play(s, "allies", "detonate 0")
    assert len(s.attacks[0]["units"]) == 3 and s.land_mines[0]["tokens"] == [2]


def test_turned_back_units_may_not_move_in_phase_5():
    s = t10()
    s, _ = play(s, "allies", "detonate 1", ScriptedDice([2, 3, 7]))
    s, _ = play(s, "axis", "turnback 2 inf")
    s.attacks = []
    s, _ = play(s, "axis", "done")
    with pytest.raises(IllegalOrder):
        play(s, "axis", "move 1 inf tobruk derna")


def test_mines_with_no_marker_and_no_combat_units_are_inactive():
    """L956: scout cars raid neutral Mersa Matruh (no marker, no combat units, 1 supply):
    the mines on its border sleep, so no one is asked."""
    s = position("ger", "combat_move", [("ger", "ger.scout_car", "tobruk", 1), ("uk", "uk.infantry", "cairo", 1)],
                 supply={"mersa_matruh": 1}, control={"tobruk": "ger", "cairo": "uk"})
    s.land_mines = [{"territory": "mersa_matruh", "facing": "tobruk", "tokens": [2]}]
    s, _ = play(s, "axis", "declare tobruk mersa_matruh")
    s, _ = play(s, "axis", "done")
    assert R.prompt(s).kind == "combat" and s.mine_queue == []


def blitz_into_mines():
    """A German tank and mechanized infantry blitz from Agedabia into UK-held Benghazi (no
    UK units there), whose border facing Agedabia holds a UK "1 mine" token (L960-962)."""
    s = position("ger", "combat_move",
                 [("ger", "ger.tank", "agedabia", 1), ("ger", "ger.mech_infantry", "agedabia", 1),
                  ("uk", "uk.infantry", "cairo", 1)],
                 control={"benghazi": "uk", "tripoli": "ita", "cairo": "uk"})  # fmt: skip
    s.land_mines = [{"territory": "benghazi", "facing": "agedabia", "tokens": [1]}]
    s, _ = play(s, "axis", "blitz 1 tank 1 mech agedabia benghazi derna")
    assert s.control["benghazi"] == "uk"  # nothing is captured before the owner decides
    assert R.prompt(s).kind == "mines" and R.prompt(s).role == "allies"
    return s


def test_l962_a_mine_turns_the_tank_back_and_the_mechanized_infantry_carries_on():
    s = blitz_into_mines()
    s, _ = play(s, "allies", "detonate 1", ScriptedDice([2, 8, 9]))
    s, _ = play(s, "axis", "turnback 1 tank")
    assert at(s, "agedabia") == {"ger.tank": 1}
    assert at(s, "derna") == {"ger.mech_infantry": 1}  # L648: it completes the move
    assert s.control["benghazi"] == "ger" and "benghazi" in s.blitzed
    with pytest.raises(IllegalOrder):
        play(s, "axis", "move 1 tank agedabia el_agheila")  # it has made its combat move (L968)


def test_l968_when_every_blitzer_is_turned_back_the_territory_is_not_captured():
    s = blitz_into_mines()
    s, ev = play(s, "allies", "detonate 1", ScriptedDice([1, 2, 9]))
    assert at(s, "agedabia") == {"ger.tank": 1, "ger.mech_infantry": 1}
    assert s.control["benghazi"] == "uk" and "benghazi" not in s.blitzed
    assert any("not captured" in e.text for e in ev)
    s, _ = play(s, "axis", "done")  # turned-back blitzers need not attack
    assert s.phase == "combat"


def test_us_and_free_french_infantry_are_turned_back_by_the_one_word_infantry():
    """The US attacks with 2 US infantry, 1 Free French infantry and 1 tank: 3 hits may
    fall on the three infantry, named together as 'infantry' (L968)."""
    s = position("us", "combat_move",
                 [("us", "us.infantry", "tobruk", 2), ("free_french", "fra.infantry", "tobruk", 1),
                  ("us", "us.tank", "tobruk", 1), ("ger", "ger.infantry", "mersa_matruh", 1)],
                 supply={"tobruk": 1}, control={"tobruk": "uk", "cairo": "uk"}, round_=8)
    s.land_mines = [{"territory": "mersa_matruh", "facing": "tobruk", "tokens": [2]}]
    s, _ = play(s, "allies", "declare tobruk mersa_matruh")
    s, _ = play(s, "allies", "done")
    s, _ = play(s, "axis", "detonate 1", ScriptedDice([1, 2, 3]))
    assert R.prompt(s).kind == "turnback"
    legal = [o.text() for o in R.legal_orders(s, "allies")]
    assert legal == ["turnback 3 infantry", "turnback 2 infantry 1 tank"]
    s, _ = play(s, "allies", "turnback 3 infantry")
    assert [u.type for u in s.units if u.id in s.attacks[0]["units"]] == ["us.tank"]
