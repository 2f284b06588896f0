"""``umpire odds`` refuses, in one sentence, input that would keep it busy for long:
more than 60 units a side (issue 9's bound), a round limit beyond 50 (as ``/odds``)."""

from __future__ import annotations

import time

import pytest

from bot import cli
from engine.games.aa_revised.odds import battle_odds


@pytest.fixture
def umpire(monkeypatch):
    monkeypatch.setattr(cli, "COMMAND_MODULES", ["bot.commands_odds"])
    return cli.main


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--attacker", "1 inf", "--defender", "1 inf", "--rounds", "51"], "from 1 to 50"),
        (["--attacker", "1 inf", "--defender", "1 inf", "--rounds", "0"], "from 1 to 50"),
        (
            ["--attacker", "1 inf", "--defender", "1 inf", "--rounds", "100000000"],
            "from 1 to 50",
        ),
        (["--attacker", "1 inf", "--defender", "1 inf", "--retreat", "-1"], "from 0 to 60"),
        (["--attacker", "1 inf", "--defender", "1 inf", "--retreat", "61"], "from 0 to 60"),
        (["--attacker", "30 inf, 31 tank", "--defender", "1 inf"], "more than the 60 per side"),
        (["--attacker", "1 inf", "--defender", "61 inf"], "more than the 60 per side"),
        (["--attacker", "1 inf", "--defender", "1 inf", "--bombard", "61 bb"], "more than"),
    ],
)
def test_input_beyond_the_bounds_is_one_sentence(umpire, capsys, argv, message):
    started = time.process_time()
    code = umpire(["odds", *argv])
    err = capsys.readouterr().err
    assert code == 2
    assert message in err
    assert err.startswith("umpire: ") and "Traceback" not in err
    assert len(err.strip().splitlines()) == 1
    assert time.process_time() - started < 1.0  # refused before any odds are worked out


def test_the_largest_accepted_battle_with_the_longest_round_limit_answers(umpire, capsys):
    """Issue 9's battle, 60 against 60 with a gun, limited to 50 rounds."""
    code = umpire(
        [
            "odds",
            "--attacker",
            "30 inf, 10 art, 10 arm, 5 ftr, 5 bmb",
            "--defender",
            "40 inf, 10 art, 5 arm, 4 ftr, 1 aa",
            "--rounds",
            "50",
        ]
    )
    out = capsys.readouterr().out
    assert code == 0
    expected = battle_odds(
        {"infantry": 30, "artillery": 10, "tank": 10, "fighter": 5, "bomber": 5},
        {"infantry": 40, "artillery": 10, "tank": 5, "fighter": 4, "aa_gun": 1},
        rounds=50,
    )
    assert f"attacker wins    {expected.attacker_win:.2%}" in out
