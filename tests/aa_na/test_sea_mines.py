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
