"""The odds of an attack before it is made (issue 12): the CRT column and the exact
chance of every result (TAC 9.0, 9.3, 9.6, 9.7, 15.1, 17.4)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from engine.core.errors import IllegalOrder
from engine.games.tac import combat, odds
from engine.games.tac.state import ALLIED, AXIS
from tests.tac.kit import B, empty, put


def test_example_of_9_7_as_odds():
    """L509: 21st Panzer (9-8) against 2nd Armoured (4-6) is 9-4, the 2-1 column; a 1 is
    A2R for the attacker and D1 for the defender, one chance in six."""
    s = empty(AXIS, turn=20, phase="combat")
    put(s, "ge_21pz", "1726")
    put(s, "uk_2armd", "1727")
    before = s.to_dict()
    r = odds.attack_odds(B, s, AXIS, ("ge_21pz",), ("1727",))
    assert (r.attack, r.defence, r.column, r.modifier) == (9, 4, "2-1", 0)
    assert odds.Outcome("A2R", "D1", Fraction(1, 6)) in r.outcomes
    assert sum(x.chance for x in r.outcomes) == 1
    assert s.to_dict() == before and "2-1" in r.text()


def test_each_column_sums_to_one_and_matches_the_table():
    for column in B.tables.crt.columns:
        outs = odds.column_odds(B, column, 0)
        assert sum(x.chance for x in outs) == 1
        for die in range(1, 7):
            a, d = combat.result(B, column, die)
            assert any((x.attacker, x.defender) == (a, d) for x in outs)


def test_automatic_results_need_no_roll():
    """9.3: worse than 1-6 is AE, 9-1 and better DE, certainly."""
    assert odds.column_odds(B, "AE", 0) == [odds.Outcome("AE", None, Fraction(1))]
    assert odds.column_odds(B, "DE", 0) == [odds.Outcome(None, "DE", Fraction(1))]


def test_the_allied_december_1940_bonus_moves_the_chances_down_the_table():
    """17.4: +2 on Turns 1-2; rolls of 4, 5 and 6 all read the 6 row (RULINGS R13)."""
    s = empty(ALLIED, turn=1, phase="combat")
    put(s, "uk_2armd", "1726")
    put(s, "it_102", "1727")
    r = odds.attack_odds(B, s, ALLIED, ("uk_2armd",), ("1727",))
    six = combat.result(B, r.column, 6)
    assert r.modifier == 2
    assert next(x.chance for x in r.outcomes if (x.attacker, x.defender) == six) >= Fraction(1, 2)


def test_air_support_counts_in_the_odds_and_bad_questions_are_refused():
    s = empty(ALLIED, turn=20, phase="combat")
    put(s, "uk_2armd", "1726")
    put(s, "ge_90", "1727")
    assert odds.attack_odds(B, s, ALLIED, ("uk_2armd",), ("1727",), air=2).column == "1-1"
    for units, targets, rule in ((("ge_90",), ("1727",), "TAC 9.0"), (("uk_2armd",), ("1728",), "TAC 9.0"),
                                 (("uk_2armd",), ("1729",), "TAC 9.0")):  # fmt: skip
        with pytest.raises(IllegalOrder) as e:
            odds.attack_odds(B, s, ALLIED, units, targets)
        assert e.value.rule == rule
