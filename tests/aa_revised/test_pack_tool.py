"""tools/aa_revised_pack.py regenerates the shipped pack from the public board XML."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
TOOL = ROOT / "tools" / "aa_revised_pack.py"


def load_tool():
    spec = importlib.util.spec_from_file_location("aa_revised_pack", TOOL)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def tool():
    module = load_tool()
    if not module.DEFAULT_XML.exists():
        pytest.skip("the TripleA board XML is not available here")
    return module


def test_the_generator_reproduces_the_shipped_files(tool):
    assert tool.main(["--check"]) == 0


def test_the_generator_stops_when_the_xml_disagrees_with_the_rulebook(tool, tmp_path):
    text = tool.DEFAULT_XML.read_text()
    changed = text.replace(
        '<resourceGiven player="Germans" resource="PUs" quantity="40"/>',
        '<resourceGiven player="Germans" resource="PUs" quantity="41"/>',
    )
    assert changed != text
    xml = tmp_path / "ww2v2.xml"
    xml.write_text(changed)
    with pytest.raises(SystemExit) as stop:
        tool.build(xml)
    assert "Germans: the XML's starting IPCs differ from the rulebook" in str(stop.value)


def test_ids_are_slugs_of_the_rulebooks_names(tool):
    assert tool.space_id("Philipine Islands") == "philippine_islands"
    assert tool.space_id("Karelia S.S.R.") == "karelia_ssr"
    assert tool.space_id("15 Sea Zone") == "sz15"
    assert tool.space_id("Anglo Egypt") == "anglo_egypt"
