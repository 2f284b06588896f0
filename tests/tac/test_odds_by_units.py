"""Odds of a proposed attack given by its units and the defender's hex (issue 12, "Odds
before you attack"; TAC 9.0 L457-467, 9.1, 9.4 L487, 9.5 L489, 15.1 L665): the strengths
come from the counters and the terrain; totals are still accepted; bad input is one
sentence naming the rule (console exit code 2)."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest

from bot import odds_games
from bot.cli import UserError
from bot.discord.cogs.odds import BattleQuestion, tac
from engine.core.errors import IllegalOrder
from engine.games.tac.odds import proposal
from tests.console.conftest import run
from tests.tac.kit import B


def test_the_l509_example_by_its_units():
    """L509: the 21st Panzer (9-8) against the 2nd Armoured (4-6) in the open is 9-4, the
    2-1 column; a 1 there is A2R/D1."""
    p = proposal(B, [("ge_21pz", None, "1126")], "1127", [("uk_2armd", None)])
    assert (p.attack, p.defence, p.ridge, p.fort) == (9, 4, False, False)
    r = odds_games.tac_typed("ge_21pz 1126", "1127: uk_2armd")
    assert r.odds.column == "2-1"
    assert ("A2R", "D1", Fraction(1, 6)) in [
        (x.attacker, x.defender, x.chance) for x in r.odds.outcomes
    ]
    assert sum(x.chance for x in r.odds.outcomes) == 1
    assert r.text().splitlines()[0].startswith("21st Panzer")


def test_steps_air_and_the_die_modifier_are_read_from_the_units_line():
    r = odds_games.tac_typed(
        "ge_21pz 7-7, ge_90 4-7, 2 air, die +1", "1127: uk_2armd 3-6, uk_7sg 1-6"
    )
    assert (r.attack, r.air, r.defence, r.odds.attack, r.odds.modifier) == (11, 2, 4, 13, 1)
    assert r.odds.column == "3-1"


def test_a_ridge_doubles_the_defence_unless_an_attacker_stands_on_the_plateau():
    """9.4: 1128 is a pass hex (ridge); 1228 is the plateau above it and 1028 the plain."""
    low = proposal(B, [("ge_21pz", None, "1028")], "1128", [("uk_2armd", None)])
    high = proposal(
        B, [("ge_21pz", None, "1028"), ("ge_90", None, "1228")], "1128", [("uk_2armd", None)]
    )
    unknown = proposal(B, [("ge_21pz", None, None)], "1128", [("uk_2armd", None)])
    assert low.ridge and unknown.ridge and not high.ridge
    assert odds_games.tac_typed("ge_21pz 1028", "1128: uk_2armd").odds.defence == 8


def test_a_fort_doubles_the_defence():
    """9.5: Tobruk (1048) is a fort."""
    p = proposal(B, [("uk_7armd", None, "1047")], "1048", [("it_61", None)])
    assert p.fort and not p.ridge
    r = odds_games.tac_typed("uk_7armd 1047", "1048 it_61")
    assert (r.defence, r.odds.defence, r.odds.column) == (4, 8, "1-1")


def test_flak_attacks_with_its_left_number_and_defends_with_its_middle_one():
    """9.1: the Flak 1-3-6."""
    assert proposal(B, [("ge_flak33", None, None)], "1127", [("uk_2armd", None)]).attack == 1
    assert proposal(B, [("uk_2armd", None, None)], "1127", [("ge_flak33", None)]).defence == 3


@pytest.mark.parametrize(
    ("attackers", "where", "defenders", "rule"),
    [
        ([("ge_21pz", "9-9", None)], "1127", [("uk_2armd", None)], "TAC 9.1"),
        ([("zz_1", None, None)], "1127", [("uk_2armd", None)], "TAC 9.1"),
        ([("ge_21pz", None, None)], "1127", [("it_61", None)], "TAC 9.0"),
        ([("ge_21pz", None, "1125")], "1127", [("uk_2armd", None)], "TAC 9.0"),
        ([("ge_21pz", None, "1043")], "1044", [("uk_2armd", None)], "TAC 8.2.7"),
        ([("ge_21pz", None, None)], "0101", [("uk_2armd", None)], "TAC 9.0"),
        (
            [("ge_21pz", None, None), ("ge_21pz", None, None)],
            "1127",
            [("uk_2armd", None)],
            "TAC 9.0",
        ),
        ([], "1127", [("uk_2armd", None)], "TAC 9.0"),
    ],
)
def test_a_bad_proposal_names_the_rule(attackers, where, defenders, rule):
    with pytest.raises(IllegalOrder) as e:
        proposal(B, attackers, where, defenders)
    assert e.value.rule == rule


def test_discord_odds_takes_units_or_totals_and_refuses_in_one_sentence():
    by_units = tac(BattleQuestion("ge_21pz 1126", "1127: uk_2armd"))
    assert "2-1" in by_units and "21st Panzer" in by_units
    assert "column 2-1" in tac(BattleQuestion("9", "4"))
    for attacker, defender in (("ge_21pz", "uk_2armd"), ("ge_21pz 9-9", "1127: uk_2armd"),
                               ("ge_21pz foo", "1127: uk_2armd"), ("ge_21pz 1127", "1127: uk_2armd")):  # fmt: skip
        with pytest.raises(UserError) as e:
            tac(BattleQuestion(attacker, defender))
        assert "\n" not in str(e.value)


def test_the_console_takes_units_and_refuses_mixing_them_with_totals(capsys):
    code, out, err = run(capsys, "odds", "tac", "--attacker", "ge_21pz 1126", "--defender",
                         "1127: uk_2armd", "--air", "1", "--json")  # fmt: skip
    data = json.loads(out)
    assert (
        code == 0
        and not err
        and (data["attack"], data["defence"], data["column"]) == (10, 4, "2-1")
    )
    assert "21st Panzer" in data["units"]
    for argv, words in (
        (
            ["--attacker", "ge_21pz", "--defender", "1127: uk_2armd", "--ridge"],
            "--ridge and --fort",
        ),
        (["--attacker", "ge_21pz", "--attack", "3", "--defense", "2"], "--attacker is for"),
        (["--attacker", "ge_21pz"], "--defender is missing"),
        (["--attacker", "ge_21pz 7-8", "--defender", "1127: uk_2armd"], "no step '7-8'"),
    ):
        code, out, err = run(capsys, "odds", "tac", *argv)
        assert code == 2 and out == "" and words in err and err.count("\n") == 1, err
