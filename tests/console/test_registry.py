"""A game whose code is broken is reported where it is used, never dropped from the list
of games (and so never turned into skipped tests or a shorter game list on Discord)."""

from __future__ import annotations

import sys

import pytest

from engine.core import registry
from engine.core.registry import GameLoadError
from tests.console.conftest import run


@pytest.fixture
def broken_game(tmp_path, monkeypatch):
    """A game package ``brokengame`` whose rules module imports a module that is not
    there: the failure a typo in ``engine/games/pfv`` caused."""
    package = tmp_path / "brokengame"
    package.mkdir()
    (package / "__init__.py").write_text("from brokengame import rules  # noqa\n")
    (package / "rules.py").write_text("import brokengame.movment  # a typo\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setitem(registry.KNOWN, "broken", "brokengame")
    yield "broken"
    for name in [m for m in sys.modules if m.startswith("brokengame")]:
        del sys.modules[name]


def test_a_game_that_fails_to_import_is_still_listed(broken_game):
    assert broken_game in registry.available()
    assert "pfv" in registry.available() and "aa-revised" in registry.available()


def test_using_a_game_that_fails_to_import_names_the_module_and_the_cause(broken_game):
    with pytest.raises(GameLoadError) as caught:
        registry.ruleset(broken_game)
    message = str(caught.value)
    assert message.startswith("the game 'broken' cannot be loaded: brokengame failed to import")
    assert "No module named 'brokengame.movment'" in message
    assert "rules.py, line 1" in message
    # asked again, it fails again: a broken game never turns into "no such game"
    with pytest.raises(GameLoadError):
        registry.ruleset(broken_game)


def test_a_game_module_that_registers_nothing_is_an_error(tmp_path, monkeypatch):
    (tmp_path / "emptygame.py").write_text('"""A game module that forgot to register."""\n')
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setitem(registry.KNOWN, "empty", "emptygame")
    with pytest.raises(GameLoadError, match="emptygame imports but registers no ruleset"):
        registry.ruleset("empty")
    sys.modules.pop("emptygame", None)


def test_a_game_whose_module_is_missing_is_an_error_not_an_absence(monkeypatch):
    monkeypatch.setitem(registry.KNOWN, "ghost", "engine.games.ghost")
    with pytest.raises(GameLoadError, match="engine.games.ghost failed to import"):
        registry.ruleset("ghost")


def test_an_id_no_game_has_is_a_key_error_naming_the_games():
    games = ", ".join(sorted(registry.available()))
    with pytest.raises(KeyError, match=f"no game called 'chess'; the games are: {games}"):
        registry.ruleset("chess")


def test_the_console_reports_a_broken_game_in_one_sentence(capsys, broken_game, tmp_path):
    code, out, err = run(capsys, "new", broken_game, "--db", str(tmp_path / "u.db"))
    assert code == 70
    assert err.count("\n") == 1 and "Traceback" not in err + out
    assert err.startswith("umpire: the game 'broken' cannot be loaded: brokengame failed")


def test_both_shipped_games_load():
    """The games the tests are parametrised over are there: a broken import fails here
    (and in every test of that game) instead of shrinking the test run."""
    assert registry.ruleset("pfv").id == "pfv"
    assert registry.ruleset("aa-revised").id == "aa-revised"
