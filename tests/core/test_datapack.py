"""Data packs report problems with the line they are on."""

import json

import pytest

from engine.core.datapack import PackFile, json_line_index, load_file
from engine.core.errors import DataPackError
from engine.core.hexmap import MapPack


def test_line_index_points_at_values():
    text = '{\n "a": 1,\n "b": [\n  {"x": 2},\n  {"x": 3}\n ]\n}'
    index = json_line_index(text)
    assert index[("a",)] == 2
    assert index[("b", 1, "x")] == 5


def test_validation_error_names_the_line(tmp_path):
    pack = {
        "header": {"game": "t", "name": "map", "version": "1", "provenance": "reconstruction"},
        "grid": {"first_col": 1, "last_col": 2, "first_row": 1, "last_row": 2},
        "terrain": {"open": {"name": "Open"}},
        "hexes": [{"id": "0101", "terrain": ["open"]}, {"id": "01x2", "terrain": ["open"]}],
    }
    path = tmp_path / "map.json"
    path.write_text(json.dumps(pack, indent=1))
    with pytest.raises(DataPackError) as err:
        load_file(path, MapPack)
    line, message = err.value.problems[0]
    assert "hexes.1.id" in message
    assert path.read_text().splitlines()[line - 1].strip().startswith('"id": "01x2"')


def test_unreadable_json_is_reported_with_its_line(tmp_path):
    path = tmp_path / "bad.json"
    path.write_text('{\n "header": ,\n}')
    with pytest.raises(DataPackError) as err:
        load_file(path, PackFile)
    assert err.value.problems[0][0] == 2
