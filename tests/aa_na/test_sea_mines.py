"""Sea mines going off on reinforcements deployed in Phase 6 (L934, L974-994) with
scripted dice: the digest's scenario T11."""

from __future__ import annotations

import pytest

from engine.core.dice import ScriptedDice
from engine.core.errors import IllegalOrder
from tests.aa_na.helpers import R, at, play, position


def t11():
    """A UK sea mine in the Tripoli convoy zone; Italy deploys 2 infantry, 1 artillery and 5
    supply there, beside an Italian infantry already at sea (immune, L992)."""
    s = position("ita", "deploy", [("ita", "ita.infantry", "tripoli_csz", 1), ("uk", "uk.infantry", "cairo", 1),
                                   ("ita", "ita.infantry", "tripoli", 1)], control={"tripoli": "ita", "cairo": "uk"})
    s.reserves = {"ita": {"ita.infantry": 2, "ita.artillery": 1, "supply": 5}}
    s.sea_mines = {"tripoli_csz": {"uk": 1}}
    s, _ = play(s, "axis", "deploy 2 inf 1 art 5 supply tripoli_csz")
    s, _ = play(s, "axis", "done")
    return s


def test_t11_a_hit_destroys_two_new_cargo_items_the_owner_naming_the_second():
    s = t11()
    p = R.prompt(s)
    assert p.kind == "seamines" and p.role == "allies" and s.power == "ita"
    s, ev = play(s, "allies", "detonate 1", ScriptedDice([3]))
    assert not s.sea_mines.get("tripoli_csz")  # the token is used up
    assert R.prompt(s).kind == "seamine_cargo" and R.prompt(s).role == "axis"  # the acting player picks first
    s, _ = play(s, "axis", "cargo supply")
    assert R.prompt(s).role == "allies"
    before = R.dump_state(s)
    with pytest.raises(IllegalOrder):
        play(s, "allies", "cargo tank")
    assert R.dump_state(s) == before
    s, _ = play(s, "allies", "cargo artillery")
    assert at(s, "tripoli_csz") == {"ita.infantry": 3}
    assert s.convoy_supply["tripoli_csz"]["ita"] == 0
    assert (s.round, s.power) == (2, "ger")  # Italy's turn is over; the US sits out RLP round 1


def test_t11_a_miss_does_nothing_but_the_token_is_gone():
    s = t11()
    s, _ = play(s, "allies", "detonate 1", ScriptedDice([4]))
    assert at(s, "tripoli_csz") == {"ita.infantry": 3, "ita.artillery": 1}
    assert not s.sea_mines["tripoli_csz"] and s.convoy_supply["tripoli_csz"]["ita"] == 5


# -- sea units moving into mined zones in Phases 3 and 5 (L982-986) ------------------------

ASHORE = [("uk", "uk.infantry", "cairo", 1), ("ita", "ita.infantry", "tripoli", 1)]
CONTROL = {"cairo": "uk", "tripoli": "ita", "tobruk": "uk"}


def refused(s, role, text, rule_word):
    before = R.dump_state(s)
    with pytest.raises(IllegalOrder) as e:
        play(s, role, text)
    assert rule_word in e.value.rule, e.value.rule
    assert R.dump_state(s) == before


def mined_path():
    """A UK destroyer in SZ 29 and a battleship already in SZ 27, which Italy has mined with
    2 tokens; an Italian destroyer waits in SZ 25 to be attacked."""
    s = position("uk", "combat_move", [("uk", "uk.destroyer", "sz29", 1), ("uk", "uk.battleship", "sz27", 1),
                                       ("ita", "ita.destroyer", "sz25", 1), *ASHORE], control=CONTROL)
    s.sea_mines = {"sz27": {"ita": 2}}
    return s


def test_a_sea_move_may_not_pass_through_a_mined_zone_it_stops_there():
    s = mined_path()
    refused(s, "allies", "move 1 destroyer sz29 sz27 sz25", "L982-986")
    s, _ = play(s, "allies", "move 1 destroyer sz29 sz27")
    p = R.prompt(s)
    # the engine's own answer comes first: what a passed deadline applies (RULINGS: standing orders)
    assert p.kind == "seamines" and p.role == "axis" and [o.text() for o in R.legal_orders(s, "axis")] == [
        "detonate 2", "detonate 0", "detonate 1"]


def test_a_mine_hit_falls_on_the_unit_that_moved_in_not_on_the_one_already_there():
    s = mined_path()
    s, _ = play(s, "allies", "move 1 destroyer sz29 sz27")
    s, _ = play(s, "axis", "detonate 2", ScriptedDice([3, 8]))  # one hit: the destroyer is the only new unit
    assert at(s, "sz27") == {"uk.battleship": 1} and not s.sea_mines.get("sz27")
    assert [u.hits for u in s.units if u.type == "uk.battleship"] == [0]
    assert R.prompt(s).kind == "combat_move"


def test_survivors_move_on_with_what_is_left_of_their_move_and_must_reach_an_attack_position():
    s = mined_path()
    s, _ = play(s, "allies", "move 1 destroyer sz29 sz27")
    s, _ = play(s, "axis", "detonate 1", ScriptedDice([7]))  # a miss; one token is left
    assert s.sea_mines["sz27"] == {"ita": 1}
    refused(s, "allies", "done", "L982-986")  # it can still reach the Italian destroyer
    legal = [o.text() for o in R.legal_orders(s, "allies") if o.verb == "move" and "destroyer" not in o.text()]
    assert any(t.endswith("sz27 sz25") for t in legal), legal
    refused(s, "allies", "move 1 destroyer sz27 sz25 sz22 sz20", "Phase 3")  # 2 of its 4 spaces are left
    s, _ = play(s, "allies", "move 1 destroyer sz27 sz25")
    s, _ = play(s, "allies", "done")
    assert [a["target"] for a in s.attacks] == ["sz25"]


def test_no_sea_unit_enters_the_same_zone_twice_in_a_phase():
    s = mined_path()
    s.phase = "noncombat"
    s, _ = play(s, "allies", "move 1 destroyer sz29 sz27")  # Phase 5: a noncombat move stops on the mines too
    assert R.prompt(s).kind == "seamines"
    s, _ = play(s, "axis", "detonate 0")
    refused(s, "allies", "move 1 destroyer sz27 sz29 sz27", "L982-986")
    s, _ = play(s, "allies", "move 1 destroyer sz27 sz30")
    assert at(s, "sz30") == {"uk.destroyer": 1}
