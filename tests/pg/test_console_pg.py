"""Issue 16: every console command's ``--db`` (and ``UMPIRE_DB``) takes a PostgreSQL URL
as it takes a file; an unreachable server is one sentence and exit status 1."""

from __future__ import annotations

import pytest

import tests.service.toy  # noqa: F401  (registers the "toy" ruleset)
from bot.cli import main


@pytest.fixture(autouse=True)
def console_state(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))


def umpire(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_commands_work_on_a_postgresql_url(capsys, pg_url, monkeypatch):
    code, out, _ = umpire(capsys, "new", "toy", "--option", "pile=30", "--db", pg_url)
    assert code == 0
    game = out.split()[0]
    code, out, _ = umpire(capsys, "order", game, "--as", "north", "take", "2", "--db", pg_url)
    assert code == 0 and out.splitlines()[0] == "1. north: take 2"
    monkeypatch.setenv("UMPIRE_DB", pg_url)  # the same database without --db
    code, out, _ = umpire(capsys, "log", game)
    assert code == 0 and out.splitlines()[0].strip() == "1. north: take 2"
    code, out, _ = umpire(capsys, "list")
    assert out.splitlines()[0].split()[:2] == [game, "toy"]


def test_an_unreachable_server_is_one_sentence(capsys, pg_server):
    url = f"postgresql://umpire:pw@127.0.0.1:{pg_server.port + 1}/postgres?connect_timeout=2"
    code, out, err = umpire(capsys, "list", "--db", url)
    lines = [line for line in err.splitlines() if line.strip()]
    assert code != 0 and len(lines) == 1 and lines[0].startswith("umpire: ")
    assert "cannot be reached" in err and ":pw@" not in err and "Traceback" not in err + out
