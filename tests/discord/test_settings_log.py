"""``UMPIRE_LOG_LEVEL`` (issue 15 item 7): what ``umpire bot`` and the mail loop log,
INFO unless it says otherwise; a level that is not one is refused in one sentence before
anything starts."""

from __future__ import annotations

import logging

import pytest

from bot.cli import main
from bot.discord.config import Settings, log_level


@pytest.fixture(autouse=True)
def _elsewhere(tmp_path, monkeypatch):
    """A failure's log goes to the test's folder, not the working tree."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("UMPIRE_ERROR_LOG", str(tmp_path / "errors.log"))


def test_the_log_level_is_info_unless_the_environment_says_otherwise():
    assert Settings.from_env({}).log_level == logging.INFO
    assert Settings.from_env({"UMPIRE_LOG_LEVEL": " warning "}).log_level == logging.WARNING
    assert log_level({"UMPIRE_LOG_LEVEL": "DEBUG"}) == logging.DEBUG
    with pytest.raises(ValueError, match="UMPIRE_LOG_LEVEL must be one of DEBUG, INFO"):
        log_level({"UMPIRE_LOG_LEVEL": "loud"})


def test_umpire_bot_logs_at_the_level_asked_for(tmp_path, monkeypatch):
    levels: list[int] = []
    started: list[str] = []

    async def run_bot(settings: Settings, *more: object) -> None:
        started.append(settings.db_path)

    monkeypatch.setattr("bot.discord.cli.run_bot", run_bot)
    monkeypatch.setattr("discord.utils.setup_logging", lambda **kw: levels.append(kw["level"]))
    monkeypatch.setenv("DISCORD_TOKEN", "t")
    monkeypatch.setenv("UMPIRE_LOG_LEVEL", "debug")
    db = str(tmp_path / "u.db")
    assert main(["bot", "--env", str(tmp_path / "none.env"), "--db", db]) == 0
    assert levels == [logging.DEBUG] and started == [db]


def test_a_bad_log_level_stops_the_bot_in_one_sentence_before_it_starts(
    tmp_path, monkeypatch, capsys
):
    started: list[object] = []

    async def run_bot(settings: Settings, *more: object) -> None:
        started.append(settings)

    monkeypatch.setattr("bot.discord.cli.run_bot", run_bot)
    monkeypatch.setenv("DISCORD_TOKEN", "t")
    monkeypatch.setenv("UMPIRE_LOG_LEVEL", "chatty")
    assert main(["bot", "--env", str(tmp_path / "none.env"), "--db", str(tmp_path / "u.db")]) == 2
    err = capsys.readouterr().err
    assert err == (
        "umpire: UMPIRE_LOG_LEVEL must be one of DEBUG, INFO, WARNING, ERROR, CRITICAL, "
        "not 'chatty'\n"
    )
    assert started == []


def test_the_mail_loop_logs_at_the_level_asked_for(monkeypatch, capsys):
    levels: list[int] = []
    monkeypatch.setattr("bot.email.cli._config", lambda args: object())
    monkeypatch.setattr("bot.email.cli._run", lambda work: 0)
    monkeypatch.setattr("logging.basicConfig", lambda **kw: levels.append(kw["level"]))
    monkeypatch.setenv("UMPIRE_LOG_LEVEL", "ERROR")
    assert main(["email", "--once"]) == 0
    assert levels == [logging.ERROR]
    monkeypatch.setenv("UMPIRE_LOG_LEVEL", "0")
    assert main(["email", "--once"]) == 2
    assert "UMPIRE_LOG_LEVEL must be one of" in capsys.readouterr().err
    assert levels == [logging.ERROR]  # nothing more was set up
