"""Console tests run ``umpire`` in-process over a real database file; the console's own
files (line history, the last game played) go to a temporary folder, never the home."""

from __future__ import annotations

import pytest

from bot.cli import main


@pytest.fixture(autouse=True)
def console_state(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    return tmp_path / "state" / "umpire"


@pytest.fixture
def db(tmp_path) -> str:
    return str(tmp_path / "umpire.db")


def run(capsys, *argv: str) -> tuple[int, str, str]:
    """``umpire ARGV``: the exit code, standard output and standard error."""
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def feed(monkeypatch, *lines: str) -> None:
    """Type ``lines`` at the console's prompt, then end the input."""
    it = iter(lines)

    def read(prompt: str) -> str:
        try:
            return next(it)
        except StopIteration:
            raise EOFError from None

    monkeypatch.setattr("builtins.input", read)
