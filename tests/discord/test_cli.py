"""``umpire bot`` and its settings: the token from the environment or ``.env``, and the
console when there is no token."""

from __future__ import annotations

from bot.cli import main
from bot.discord.cli import NO_TOKEN, token_configured
from bot.discord.config import HOUR, Settings, load_env_file, parse_durations, read_env_file


def test_env_file_lines_comments_quotes_and_export(tmp_path):
    env = tmp_path / ".env"
    env.write_text(
        "# a comment\n\nDISCORD_TOKEN='abc def'\nexport UMPIRE_DB=games.db  # where\n"
        'UMPIRE_MODERATOR_ROLE="Game Masters"\nnot a line\n'
    )
    assert read_env_file(env) == {
        "DISCORD_TOKEN": "abc def",
        "UMPIRE_DB": "games.db",
        "UMPIRE_MODERATOR_ROLE": "Game Masters",
    }
    assert read_env_file(tmp_path / "missing") == {}


def test_the_environment_wins_over_the_env_file(tmp_path):
    env = tmp_path / ".env"
    env.write_text("DISCORD_TOKEN=from-file\nUMPIRE_DB=file.db\n")
    environ = {"DISCORD_TOKEN": "from-env"}
    load_env_file(env, environ)
    assert environ == {"DISCORD_TOKEN": "from-env", "UMPIRE_DB": "file.db"}


def test_settings_from_the_environment():
    s = Settings.from_env(
        {
            "DISCORD_TOKEN": " t ",
            "UMPIRE_DEADLINE_HOURS": "24",
            "UMPIRE_REMINDERS": "2h, 30m",
            "UMPIRE_MODERATOR_ROLE": "",
        }
    )
    assert (s.token, s.deadline_hours, s.reminders, s.moderator_role) == (
        "t",
        24.0,
        (2 * HOUR, 1800.0),
        None,
    )
    assert parse_durations("1d,12") == (86400.0, 12 * HOUR)


def test_umpire_bot_without_a_token_says_how_to_get_one_and_starts_the_console(
    tmp_path, monkeypatch, capsys
):
    played = []
    monkeypatch.setattr("bot.console.cmd_play", lambda args: played.append(args.db) or 0)
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    env = tmp_path / ".env"
    env.write_text("# nothing here yet\nDISCORD_TOKEN=\n")
    db = str(tmp_path / "games.db")
    assert not token_configured(str(env))
    assert main(["bot", "--env", str(env), "--db", db]) == 0
    assert capsys.readouterr().err == NO_TOKEN + "\n"
    assert "https://discord.com/developers/applications" in NO_TOKEN
    assert played == [db]
