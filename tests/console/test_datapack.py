"""``umpire datapack check GAME`` for every game that ships a data pack: the problems of
a pack (shipped, or replaced under ``UMPIRE_DATAPACKS``) by file and line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.core import datapack, registry
from engine.games.aa_revised import pack as aa_pack
from tests.console.conftest import run

AA_DATA = Path(aa_pack.__file__).parent / "data"


def games_with_packs() -> list[str]:
    return [rid for rid in registry.available() if datapack.shipped_files(rid)]


def test_every_registered_game_ships_a_pack():
    assert games_with_packs() == registry.available()


def test_the_packs_of_games_still_to_build_are_checked_too():
    assert {"pfv", "aa-revised", "bia"} <= set(datapack.games_with_packs())


@pytest.mark.parametrize("game", datapack.games_with_packs())
def test_every_shipped_pack_checks_clean(capsys, game):
    """Every pack in the tree, the packs of games not playable yet (bia) included."""
    code, out, err = run(capsys, "datapack", "check", game)
    assert (code, out, err) == (0, f"{game}: the data pack is valid\n", "")


def override(tmp_path, monkeypatch, name: str, change) -> Path:
    """A copy of the shipped aa-revised ``name.json`` under UMPIRE_DATAPACKS, changed by
    ``change(data)`` and written one value a line, as a transcriber would."""
    data = json.loads((AA_DATA / f"{name}.json").read_text())
    change(data)
    folder = tmp_path / "packs" / "aa-revised"
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{name}.json"
    path.write_text(json.dumps(data, indent=1))
    monkeypatch.setenv("UMPIRE_DATAPACKS", str(tmp_path / "packs"))
    return path


def line_of(path: Path, needle: str, last: bool = False) -> int:
    """The line (from 1) of the first, or the last, line of ``path`` holding ``needle``."""
    found = [i for i, text in enumerate(path.read_text().splitlines(), 1) if needle in text]
    return found[-1] if last else found[0]


def test_aa_revised_reports_every_broken_reference_with_its_file_and_line(
    capsys, tmp_path, monkeypatch
):
    board = override(
        tmp_path,
        monkeypatch,
        "board",
        lambda d: d["connections"].extend([["germany", "atlantis"], ["germany", "germany"]]),
    )
    setup = override(
        tmp_path,
        monkeypatch,
        "setup",
        lambda d: d["placements"].append(
            {"power": "germany", "space": "germany", "unit": "battleship", "count": 1}
        ),
    )
    code, out, _ = run(capsys, "datapack", "check", "aa-revised")
    assert code == 1
    atlantis = line_of(board, '"atlantis"') - 2  # the pair's opening bracket
    battleship = line_of(setup, '"unit": "battleship"', last=True) - 3  # its opening brace
    assert out.splitlines() == [
        f"{board}:{atlantis}: connection germany - atlantis: no space called 'atlantis'",
        f"{board}:{atlantis + 4}: connection germany - germany joins a space to itself",
        f"{setup}:{battleship}: setup: 1 battleship of germany in germany: ships start "
        "only in sea zones",
        "aa-revised: 3 problem(s)",
    ]


def test_aa_revised_reports_a_value_of_the_wrong_type_at_its_line(capsys, tmp_path, monkeypatch):
    units = override(tmp_path, monkeypatch, "units", lambda d: d["units"][0].update(cost="three"))
    code, out, _ = run(capsys, "datapack", "check", "aa-revised")
    assert code == 1
    assert out.splitlines()[0] == (
        f"{units}:{line_of(units, 'three')}: units.0.cost: Input should be a valid integer, "
        "unable to parse string as an integer"
    )


def test_aa_revised_reports_a_file_that_is_not_json(capsys, tmp_path, monkeypatch):
    folder = tmp_path / "packs" / "aa-revised"
    folder.mkdir(parents=True)
    (folder / "tables.json").write_text('{\n "header": {\n}\n,,\n')
    monkeypatch.setenv("UMPIRE_DATAPACKS", str(tmp_path / "packs"))
    code, out, _ = run(capsys, "datapack", "check", "aa-revised")
    assert code == 1
    assert out.splitlines()[0].startswith(f"{folder / 'tables.json'}:4: not valid JSON")


def test_a_game_without_its_own_checks_gets_the_checks_every_pack_must_pass(
    capsys, tmp_path, monkeypatch
):
    monkeypatch.delitem(datapack.CHECKS, "aa-revised")
    assert run(capsys, "datapack", "check", "aa-revised")[:2] == (
        0,
        "aa-revised: the data pack is valid\n",
    )
    tables = override(tmp_path, monkeypatch, "tables", lambda d: d["header"].update(game="pfv"))
    code, out, _ = run(capsys, "datapack", "check", "aa-revised")
    assert code == 1
    assert out.splitlines()[0] == (
        f"{tables}:{line_of(tables, 'game')}: header.game is 'pfv', but this file belongs "
        "to 'aa-revised'"
    )


def test_checking_a_game_there_is_not_is_one_sentence(capsys):
    code, out, err = run(capsys, "datapack", "check", "chess")
    assert code == 2 and out == ""
    assert err.startswith("umpire: there is no game called 'chess'; the games with a data pack are: ")
    assert "aa-revised, bia" in err and err.count("\n") == 1
