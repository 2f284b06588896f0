"""``umpire odds GAME``: North Africa land battles and The African Campaign's table next to
Axis & Allies Revised (issues 12 and 13); bad input is one sentence and exit code 2."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest

from bot import odds_games
from bot.discord.cogs.odds import BattleQuestion, aa_na, tac
from engine.games.aa_na.odds import land_odds
from engine.games.aa_revised.odds import battle_odds
from engine.games.tac.board import Board
from engine.games.tac.odds import column_odds
from tests.console.conftest import run

NA_ATTACKER = "3 ger.infantry, 1 ger tank, 1 ger.scout_car flank"
NA_MAIN = {"ger.infantry": 3, "ger.tank": 1}
NA_FLANK = {"ger.scout_car": 1}


def test_without_a_game_the_battle_is_revised_as_before(capsys):
    plain = run(capsys, "odds", "--attacker", "3 inf, 1 art", "--defender", "2 inf")
    named = run(capsys, "odds", "aa-revised", "--attacker", "3 inf, 1 art", "--defender", "2 inf")
    exact = battle_odds({"infantry": 3, "artillery": 1}, {"infantry": 2})
    assert plain[0] == 0 and plain == named
    assert f"attacker wins   {exact.attacker_win:7.2%}" in plain[1]


def test_north_africa_reports_the_exact_odds_with_flanking_and_the_assumptions(capsys):
    code, out, err = run(
        capsys, "odds", "aa-na", "--attacker", NA_ATTACKER, "--defender", "3 uk.infantry"
    )
    exact = land_odds(NA_MAIN, {"uk.infantry": 3}, NA_FLANK)
    assert code == 0 and not err
    lines = out.splitlines()
    assert lines[0] == "attacker: 3 ger.infantry, 1 ger.tank; flanking: 1 ger.scout_car"
    assert f"attacker wins    {100 * exact.attacker:6.2f}%" in lines
    assert f"territory taken  {100 * exact.taken:6.2f}%" in lines
    # the casualty order the odds follow, and the supply they assume, are said
    assert (
        "attacker loses   ger.infantry, ger.scout_car (flanking), ger.tank (first to last)" in lines
    )
    assert lines[-1].startswith("assumes: both sides have the supply")


def test_north_africa_json_honours_the_defensive_bonus_and_vichy_defenders(capsys):
    args = ["odds", "aa-na", "--attacker", "4 uk.infantry, 1 uk.artillery"]
    code, out, _ = run(capsys, *args, "--defender", "3 ger.infantry", "--bonus", "--json")
    data = json.loads(out)
    with_bonus = land_odds(
        {"uk.infantry": 4, "uk.artillery": 1}, {"ger.infantry": 3}, bonus=(9, 10)
    )
    without = land_odds({"uk.infantry": 4, "uk.artillery": 1}, {"ger.infantry": 3})
    assert code == 0 and data["game"] == "aa-na" and data["defensive_bonus"] is True
    assert data["attacker_wins"] == with_bonus.attacker
    assert data["defender_holds"] == with_bonus.defender
    assert with_bonus.defender > without.defender  # the reroll helps the defender
    assert "supply" in data["assumes"]
    code, out, _ = run(capsys, *args, "--defender", "2 fra.infantry", "--vichy", "--json")
    vichy = land_odds({"uk.infantry": 4, "uk.artillery": 1}, {"fra.infantry": 2}, vichy=True)
    plain = land_odds({"uk.infantry": 4, "uk.artillery": 1}, {"fra.infantry": 2})
    assert code == 0 and json.loads(out)["attacker_wins"] == vichy.attacker
    assert vichy.attacker > plain.attacker  # a round without a hit ends it


def test_tac_prints_the_column_and_the_chance_of_each_result(capsys):
    code, out, err = run(
        capsys, "odds", "tac", "--attack", "12", "--defense", "4", "--air", "2", "--ridge"
    )
    assert code == 0 and not err
    lines = out.splitlines()
    assert lines[0] == "attack 12 + 2 air (15.1) = 14; defence 4 doubled (ridge, 9.4) = 8"
    assert lines[1] == "column 1-1"
    expected = column_odds(Board(), "1-1", 0)
    assert len(lines) == 2 + len(expected)
    for line, x in zip(lines[2:], expected, strict=True):
        assert line == (
            f"  {float(x.chance):7.2%}  attacker {x.attacker or '-'}, defender {x.defender or '-'}"
        )


def test_tac_json_with_a_fort_a_ridge_and_the_allied_die_modifier(capsys):
    code, out, _ = run(
        capsys,
        "odds",
        "tac",
        "--attack",
        "20",
        "--defence",
        "3",
        "--ridge",
        "--fort",
        "--modifier",
        "2",
        "--json",
    )
    data = json.loads(out)
    assert code == 0 and (data["attack"], data["defence"]) == (20, 12)
    assert data["column"] == "1-1" and data["modifier"] == 2
    expected = column_odds(Board(), "1-1", 2)
    assert [(o["attacker"], o["defender"], Fraction(o["fraction"])) for o in data["outcomes"]] == [
        (x.attacker, x.defender, x.chance) for x in expected
    ]
    assert sum(Fraction(o["fraction"]) for o in data["outcomes"]) == 1


def test_tac_automatic_columns_need_no_roll(capsys):
    _, out, _ = run(capsys, "odds", "tac", "--attack", "1", "--defense", "9", "--json")
    assert json.loads(out)["outcomes"] == [
        {"attacker": "AE", "defender": None, "chance": 1.0, "fraction": "1"}
    ]


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["chess", "--attacker", "1 inf", "--defender", "1 inf"], "no game 'chess'"),
        (["aa-na", "--attacker", "3 ger.inf", "--defender", "1 uk.infantry"], "'3 ger.inf'"),
        (["aa-na", "--attacker", "1 ger.infantry"], "--defender is missing"),
        (
            ["aa-na", "--attacker", "1 ger.infantry", "--defender", "1 uk.infantry", "--sea"],
            "--sea is for aa-revised",
        ),
        (
            [
                "aa-na",
                "--attacker",
                "1 ger.infantry",
                "--defender",
                "1 uk.infantry",
                "--attacker-order",
                "tank, panzer",
            ],
            "--attacker-order: 'panzer' is neither a unit of the charts nor a kind",
        ),
        (
            ["aa-na", "--attacker", "1 ger.infantry", "--defender", "1 uk.infantry"]
            + ["--order", "uk.cavalry"],
            "--order: 'uk.cavalry' is neither",
        ),
        (["aa-na", "--attacker", "31 ger.infantry", "--defender", "1 uk.infantry"], "at most 30"),
        (["tac", "--attack", "12"], "--defense is missing"),
        (["tac", "--attack", "0", "--defense", "2"], "from 1 to 999"),
        (["tac", "--attack", "3", "--defense", "2", "--air", "10"], "close support"),
        (["tac", "--attack", "3", "--defense", "2", "--modifier", "7"], "die modifier"),
        (["tac", "--attack", "3", "--defense", "2", "--bonus"], "--bonus is for aa-na"),
        (["tac", "--attacker", "3 inf", "--attack", "3", "--defense", "2"], "--attacker is for"),
        (["--attacker", "1 inf", "--defender", "1 inf", "--ridge"], "--ridge is for tac"),
    ],
)
def test_bad_input_is_one_sentence_and_exit_code_2(capsys, argv, words):
    code, out, err = run(capsys, "odds", *argv)
    assert code == 2 and out == ""
    assert err.startswith("umpire: ") and err.count("\n") == 1, err
    assert words in err and "Traceback" not in err


def test_the_cli_and_odds_in_discord_read_and_report_alike(capsys):
    """One parser and one report for both front ends (bot/odds_games.py)."""
    _, na_out, _ = run(
        capsys, "odds", "aa-na", "--attacker", NA_ATTACKER, "--defender", "2 uk.infantry"
    )
    assert na_out.rstrip("\n") == aa_na(BattleQuestion(NA_ATTACKER, "2 uk.infantry"))
    _, tac_out, _ = run(
        capsys, "odds", "tac", "--attack", "9", "--defense", "4", "--air", "1", "--modifier", "2"
    )
    typed = tac(BattleQuestion("9, 1 air, die +2", "4"))
    assert tac_out.rstrip("\n") == typed
    assert typed == odds_games.tac_odds(9, 4, air=1, modifier=2).text()


def test_north_africa_follows_the_casualty_order_given_and_says_so(capsys):
    """--attacker-order and --defender-order, typed as units or kinds of unit (L785: the
    owner's choice), move the odds as the engine does; --order gives both sides one."""
    code, out, err = run(
        capsys,
        "odds",
        "aa-na",
        "--attacker",
        NA_ATTACKER,
        "--defender",
        "3 uk.infantry, 1 uk tank",
        "--attacker-order",
        "tank, scout car",
        "--defender-order",
        "uk tank",
    )
    defenders = {"uk.infantry": 3, "uk.tank": 1}
    exact = land_odds(
        NA_MAIN,
        defenders,
        NA_FLANK,
        attacker_loses=["tank", "scout_car"],
        defender_loses=["uk.tank"],
    )
    default = land_odds(NA_MAIN, defenders, NA_FLANK)
    assert code == 0 and not err
    lines = out.splitlines()
    assert f"attacker wins    {100 * exact.attacker:6.2f}%" in lines
    assert f"{100 * exact.attacker:6.2f}" != f"{100 * default.attacker:6.2f}"
    assert (
        "attacker loses   ger.tank, ger.scout_car (flanking), ger.infantry (first to last, "
        "as given)" in lines
    )
    assert "defender loses   uk.tank, uk.infantry (first to last, as given)" in lines
    report = odds_games.na_odds(NA_ATTACKER, "3 uk.infantry, 1 uk.tank", order="tank").to_json()
    assert report["attacker_casualty_order"][0] == "ger.tank"
    assert report["defender_casualty_order"] == ["uk.tank", "uk.infantry"]
    assert report["casualty_orders_given"] == {"attacker": True, "defender": True}
    both = land_odds(NA_MAIN, defenders, NA_FLANK, attacker_loses=["tank"], defender_loses=["tank"])
    assert report["attacker_wins"] == both.attacker
