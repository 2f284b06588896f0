"""``umpire odds``: reading forces, printing odds, refusing bad input with exit code 2."""

from __future__ import annotations

import json

import pytest

from bot import cli, commands_odds
from bot.cli import UserError
from engine.games.aa_revised.odds import battle_odds


@pytest.fixture
def umpire(monkeypatch):
    """``umpire`` with only the odds command, so other front ends do not matter here."""
    monkeypatch.setattr(cli, "COMMAND_MODULES", ["bot.commands_odds"])
    return cli.main


def test_plain_output_reports_the_exact_odds(umpire, capsys):
    code = umpire(
        [
            "odds",
            "--attacker",
            "3 infantry, 1 artillery, 1 tank",
            "--defender",
            "2 infantry, 1 fighter",
        ]
    )
    out = capsys.readouterr().out
    exact = battle_odds({"infantry": 3, "artillery": 1, "tank": 1}, {"infantry": 2, "fighter": 1})
    assert code == 0
    assert out.splitlines()[0] == (
        "3 infantry, 1 artillery, 1 tank attack 2 infantry, 1 fighter (land battle)"
    )
    assert f"attacker wins   {exact.attacker_win:7.2%}" in out
    assert f"both destroyed  {exact.draw:7.2%}" in out


def test_json_output_has_the_probabilities_and_survivors(umpire, capsys):
    code = umpire(
        ["odds", "--attacker", "2 sub, 1 dd", "--defender", "1 bb, 1 cv, 2 ftr", "--sea", "--json"]
    )
    data = json.loads(capsys.readouterr().out)
    exact = battle_odds(
        {"submarine": 2, "destroyer": 1},
        {"battleship": 1, "carrier": 1, "fighter": 2},
        sea=True,
    )
    assert code == 0
    assert data["attacker_win"] == exact.attacker_win
    assert data["defender_win"] == exact.defender_win
    assert data["draw"] == exact.draw
    assert abs(sum(data["attacker_survivors"].values()) - 1) < 1e-12
    assert abs(sum(data["defender_survivors"].values()) - 1) < 1e-12
    assert "2 fighters, 1 aircraft carrier, 1 battleship" in data["defender_survivors"]


@pytest.mark.parametrize(
    "text",
    [
        "3 infantry, 1 artillery, 2 tanks",
        "3 inf, 1 art, 2 arm",
        "3 inf 1 arty 2 armour",
        "inf x3, artillery, 2 tank",
        "3 Infantry + 1 Artillery and 2 Tanks",
    ],
)
def test_unit_names_accept_plurals_and_abbreviations(text):
    assert commands_odds.parse_force(text, "--attacker") == {
        "infantry": 3,
        "artillery": 1,
        "tank": 2,
    }


def test_every_unit_has_a_short_name():
    shorts = "inf art arm aa ic ftr bmb bb dd cv trn sub"
    parsed = commands_odds.parse_force(", ".join(f"1 {s}" for s in shorts.split()), "--x")
    assert len(parsed) == 12


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--attacker", "3 inf", "--defender", "2 widgets"], "there is no unit called 'widgets'"),
        (["--attacker", "inf 3", "--defender", "1 inf"], "write each count before its unit"),
        (["--attacker", "1 bb", "--defender", "1 dd"], "add --sea"),
        (["--attacker", "1 aa", "--defender", "1 inf"], "Antiaircraft guns never attack"),
        (
            ["--attacker", "2 inf", "--defender", "1 inf", "--bombard", "1 bb", "--rounds", "1"],
            "cannot retreat",
        ),
        (
            ["--attacker", "1 inf", "--defender", "1 inf", "--attacker-tech", "lasers"],
            "not a weapons",
        ),
        (["--attacker", "0 inf", "--defender", "1 inf"], "at least one attacking unit"),
        (["--attacker", "61 inf", "--defender", "1 inf"], "more than the 60 per side"),
    ],
)
def test_bad_input_is_one_sentence_and_exit_code_2(umpire, capsys, argv, message):
    code = umpire(["odds", *argv])
    err = capsys.readouterr().err
    assert code == 2
    assert message in err
    assert err.startswith("umpire: ") and "Traceback" not in err
    assert len(err.strip().splitlines()) == 1


def test_casualty_order_options_reach_the_odds(umpire, capsys):
    argv = ["odds", "--attacker", "1 inf, 2 ftr", "--defender", "2 inf", "--json"]
    umpire([*argv, "--keep-land"])
    keep = json.loads(capsys.readouterr().out)
    umpire([*argv, "--attacker-order", "ftr, inf"])
    planes_first = json.loads(capsys.readouterr().out)
    umpire(argv)
    cheapest = json.loads(capsys.readouterr().out)
    # losing fighters before the infantry is what --keep-land does here
    assert keep["attacker_expected"] == pytest.approx(planes_first["attacker_expected"])
    assert keep["attacker_expected"]["infantry"] > cheapest["attacker_expected"]["infantry"]


def test_weapons_developments_reach_the_odds(umpire, capsys):
    argv = ["odds", "--attacker", "3 inf, 1 tank", "--defender", "1 inf, 1 ftr", "--json"]
    umpire(argv)
    plain = json.loads(capsys.readouterr().out)
    umpire([*argv, "--defender-tech", "jets"])
    jets = json.loads(capsys.readouterr().out)
    assert jets["attacker_win"] < plain["attacker_win"]


def test_weapons_developments_are_read_by_name():
    assert commands_odds.parse_techs("heavy bombers, Jet Fighters", "--x") == {
        "heavy_bombers",
        "jet_fighters",
    }
    assert commands_odds.parse_techs("super subs", "--x") == {"super_submarines"}
    with pytest.raises(UserError):
        commands_odds.parse_techs("radar", "--x")
