"""PFV data pack: the shipped reconstruction passes the rulebook's checks, broken copies
loaded through ``UMPIRE_DATAPACKS`` are reported on the right file and line, and the
reconstructed map puts the rulebook's hexes on the right places."""

from __future__ import annotations

import importlib.util
import json
from collections import Counter, deque
from collections.abc import Callable
from pathlib import Path

import pytest

from engine.core.datapack import GAMES_DIR
from engine.core.hexgrid import distance
from engine.core.hexmap import HexMap
from engine.games.pfv import checks, pack

DATA = GAMES_DIR / "pfv" / "data"
ROOT = Path(__file__).resolve().parents[2]


def _clear_caches() -> None:
    pack.load_map.cache_clear()
    pack.load_counters.cache_clear()
    pack.load_scenario.cache_clear()


@pytest.fixture(autouse=True)
def shipped(monkeypatch):
    monkeypatch.delenv("UMPIRE_DATAPACKS", raising=False)
    _clear_caches()
    yield
    _clear_caches()


def shipped_text(name: str) -> str:
    return (DATA / f"{name}.json").read_text(encoding="utf-8")


def override(tmp_path: Path, monkeypatch, name: str, text: str) -> Path:
    """Write ``text`` as the ``pfv/<name>.json`` override and point the loader at it."""
    folder = tmp_path / "packs" / "pfv"
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{name}.json"
    path.write_text(text, encoding="utf-8")
    monkeypatch.setenv("UMPIRE_DATAPACKS", str(tmp_path / "packs"))
    _clear_caches()
    return path


def line_of(text: str, fragment: str) -> int:
    """The 1-based number of the one line containing ``fragment``."""
    found = [i for i, line in enumerate(text.splitlines(), 1) if fragment in line]
    assert len(found) == 1, (fragment, found)
    return found[0]


def edit_item(text: str, fragment: str, change: Callable[[dict], None]) -> str:
    """Change the one-line JSON object (a hex, hexside or counter) containing ``fragment``."""
    lines = text.splitlines()
    i = line_of(text, fragment) - 1
    body = lines[i].strip()
    comma = body.endswith(",")
    item = json.loads(body.rstrip(","))
    change(item)
    indent = lines[i][: len(lines[i]) - len(lines[i].lstrip())]
    lines[i] = indent + json.dumps(item) + ("," if comma else "")
    return "\n".join(lines) + "\n"


def problems_in(path: Path) -> list[tuple[int | None, str]]:
    return [(line, message) for file, line, message in checks.pack_problems() if Path(file) == path]


# --------------------------------------------------------------------------------------
# The shipped pack
# --------------------------------------------------------------------------------------


def test_shipped_pack_breaks_no_rulebook_requirement():
    assert checks.pack_problems() == []


def test_shipped_pack_is_a_labelled_reconstruction():
    for name, loaded in (
        ("map", pack.load_map().pack),
        ("counters", pack.load_counters()),
        ("scenario", pack.load_scenario()),
    ):
        assert loaded.header.game == "pfv", name
        assert loaded.header.version == "0.1", name
        assert loaded.header.provenance == "reconstruction", name
        assert loaded.header.sources, name


def test_map_has_one_hex_per_line_for_useful_error_lines():
    text = shipped_text("map")
    m = pack.load_map()
    for h in m.pack.hexes:
        assert line_of(text, f'{{"id": "{h.id}"') > 0


def test_generator_reproduces_the_shipped_map_exactly():
    spec = importlib.util.spec_from_file_location("pfv_mapgen", ROOT / "tools" / "pfv_mapgen.py")
    assert spec and spec.loader
    mapgen = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mapgen)
    built, _notes, errors = mapgen.build()
    assert errors == []
    assert mapgen.dumps(built) == shipped_text("map")


# --------------------------------------------------------------------------------------
# Broken copies are reported on the right file and line
# --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("hex_id", "change", "expected"),
    [
        ("8306", lambda h: h.update(region="algeria"), "8306 must be in Tunisia"),
        ("8519", lambda h: h.update(region="algeria"), "8519 must be in Tunisia"),
        ("7607", lambda h: h.update(region="tunisia"), "7607 (Bone) must be in Algeria"),
        ("7607", lambda h: h.update(features=["airfield_allied"]), "must be a village"),
        ("8722", lambda h: h.pop("features", None), "8722 must carry the 8th Army crest"),
        ("8821", lambda h: h.update(features=["village"]), "Allied aircraft silhouette"),
        ("8720", lambda h: h.update(terrain=["marsh"]), "8720, cited by the rulebook"),
        ("8306", lambda h: h.update(terrain=["swamp"]), "unknown terrain 'swamp'"),
        ("8014", lambda h: h.update(region="algeria"), "II Corps hex 8014"),
        ("8507", lambda h: h.update(name="Carthage"), "five ports named"),
    ],
)
def test_map_rule_hex_broken_is_reported_on_its_line(
    tmp_path, monkeypatch, hex_id, change, expected
):
    text = edit_item(shipped_text("map"), f'{{"id": "{hex_id}"', change)
    path = override(tmp_path, monkeypatch, "map", text)
    found = problems_in(path)
    assert any(expected in message for _, message in found), found
    line = next(line for line, message in found if expected in message)
    if "five ports" in expected:
        assert line == line_of(text, '"hexes": [')
    else:
        assert line == line_of(text, f'{{"id": "{hex_id}"')


def test_map_port_cut_off_from_the_others_is_reported_on_the_port(tmp_path, monkeypatch):
    text = shipped_text("map")
    m = pack.load_map()
    for n in m.grid.neighbours("8715"):
        if m.land[n]:
            text = edit_item(text, f'{{"id": "{n}"', lambda h: h.update(terrain=["marsh"]))
    path = override(tmp_path, monkeypatch, "map", text)
    found = problems_in(path)
    cut_off = [line for line, msg in found if msg.startswith("port 8715 cannot be reached")]
    assert cut_off == [line_of(text, '{"id": "8715"')]


def test_map_eighth_army_crest_on_a_seventh_hex_is_reported(tmp_path, monkeypatch):
    text = edit_item(
        shipped_text("map"), '{"id": "8621"', lambda h: h["features"].append("crest_8th_army")
    )
    path = override(tmp_path, monkeypatch, "map", text)
    assert any(
        line == line_of(text, '{"id": "8621"') and "lists only" in msg
        for line, msg in problems_in(path)
    )


def test_map_too_few_allied_silhouettes_for_the_allied_air(tmp_path, monkeypatch):
    text = shipped_text("map")
    for hex_id in ("7209", "7411", "7812"):
        text = edit_item(
            text, f'{{"id": "{hex_id}"', lambda h: h["features"].remove("airfield_allied")
        )
    path = override(tmp_path, monkeypatch, "map", text)
    assert any("4 allied air pieces but only 3" in msg for _, msg in problems_in(path))


def test_map_missing_hex_of_the_rectangle_is_reported_on_the_grid(tmp_path, monkeypatch):
    lines = shipped_text("map").splitlines()
    lines = [line for line in lines if not line.strip().startswith('{"id": "7203"')]
    text = "\n".join(lines) + "\n"
    path = override(tmp_path, monkeypatch, "map", text)
    found = problems_in(path)
    assert any(line == line_of(text, '"grid": {') and "7203" in msg for line, msg in found)


def test_map_with_a_malformed_hex_number_is_reported_by_the_loader(tmp_path, monkeypatch):
    text = edit_item(shipped_text("map"), '{"id": "8306"', lambda h: h.update(id="83O6"))
    path = override(tmp_path, monkeypatch, "map", text)
    found = problems_in(path)
    assert found and found[0][0] == line_of(text, '{"id": "83O6"')
    assert "four-digit" in found[0][1]


def test_map_that_is_not_json_is_reported_with_its_line(tmp_path, monkeypatch):
    text = shipped_text("map").replace('"hex_miles": 20', '"hex_miles": 20,,', 1)
    path = override(tmp_path, monkeypatch, "map", text)
    found = problems_in(path)
    assert found == [(line_of(text, '"hex_miles"'), found[0][1])]
    assert "not valid JSON" in found[0][1]


@pytest.mark.parametrize(
    ("counter_id", "change", "expected"),
    [
        ("broich", lambda c: c.update(fixed_hex="7607"), "Axis pieces set up in Tunisia"),
        ("broich", lambda c: c.update(fixed_hex="8307"), "broich: must set up in 8306"),
        (
            "la_spezia",
            lambda c: c.update(kind="support", front={"modifier": 2, "move": 3}, back=None),
            "la_spezia: must be an axis unit",
        ),
        ("para", lambda c: c.update(fixed_hex="7608"), "para: must set up in 7607"),
        ("6arm", lambda c: c.update(tags=["8th_army"]), "erratum"),
        ("1arm", lambda c: c.pop("upgrade_to"), "needs upgrade_to"),
        ("1arm", lambda c: c.update(upgrade_to="td2"), "same kind of piece"),
        ("1arm", lambda c: c.update(upgrade_to="1inf2"), "same kind of piece"),
        ("1arm2", lambda c: c.update(tags=["two_star"]), "two-star pieces are II Corps"),
        ("rommel", lambda c: c.update(front={"modifier": 7, "move": 6}), "modifier 7 is outside"),
        ("daf", lambda c: c.update(front={"modifier": 3, "range": 60}), "range 60 is outside"),
        ("10pz", lambda c: c.update(front={"combat": 6, "range": 6}), "a unit front face"),
        ("bg_axis_1", lambda c: c.update(back={"combat": 1, "move": 4}), "no back face"),
        ("tigers", lambda c: c.update(tags=["chrome"]), "unknown tags"),
    ],
)
def test_counter_breaking_a_rule_is_reported_on_its_line(
    tmp_path, monkeypatch, counter_id, change, expected
):
    text = edit_item(shipped_text("counters"), f'{{"id": "{counter_id}"', change)
    path = override(tmp_path, monkeypatch, "counters", text)
    found = problems_in(path)
    assert any(expected in message for _, message in found), found
    line = next(line for line, message in found if expected in message)
    assert line == line_of(text, f'{{"id": "{counter_id}"')


def test_counters_second_unit_fixed_at_mareth_breaks_stacking(tmp_path, monkeypatch):
    text = edit_item(
        shipped_text("counters"), '{"id": "15pz"', lambda c: c.update(fixed_hex="8519")
    )
    path = override(tmp_path, monkeypatch, "counters", text)
    stacked = [(line, msg) for line, msg in problems_in(path) if "break stacking" in msg]
    assert len(stacked) == 1
    line, message = stacked[0]
    assert "15pz" in message and "la_spezia" in message
    assert line in (line_of(text, '{"id": "15pz"'), line_of(text, '{"id": "la_spezia"'))


def test_counters_seventh_8th_army_unit_does_not_fit_the_crest_hexes(tmp_path, monkeypatch):
    text = edit_item(
        shipped_text("counters"), '{"id": "78inf"', lambda c: c.update(tags=["8th_army"])
    )
    path = override(tmp_path, monkeypatch, "counters", text)
    assert any(
        "7 8th Army units cannot set up one per hex in the 6 8th Army hexes" in msg
        for _, msg in problems_in(path)
    )


def test_counters_without_the_marines_name_the_missing_piece(tmp_path, monkeypatch):
    lines = [
        line
        for line in shipped_text("counters").splitlines()
        if not line.strip().startswith('{"id": "marines"')
    ]
    path = override(tmp_path, monkeypatch, "counters", "\n".join(lines) + "\n")
    assert any("'marines' is missing" in msg for _, msg in problems_in(path))


@pytest.mark.parametrize(
    ("old", "new", "key", "expected"),
    [
        ('"patton_forced_turn": 3', '"patton_forced_turn": 4', '"patton_forced_turn"', "turn 3"),
        ('"rommel_last_turns": 3', '"rommel_last_turns": 2', '"rommel_last_turns"', "last three"),
        ('"patton": "patton"', '"patton": "georges"', '"patton":', "names no counter"),
        ('"rommel": "rommel"', '"rommel": "broich"', '"rommel": "broich"', "must be an Axis general"),
        ('"allied": 2}', '"allied": 3}', '"replacements"', "2 per Allied"),
        ('{"turn": 4, ', '{"turn": 5, ', '{"turn": 5, "label": "7 Mar', "numbered 5"),
        (', "8821"]', "]", '"eighth_army_hexes"', "and the airbase"),
        ('"mareth_hex": "8519"', '"mareth_hex": "8419"', '"mareth_hex"', "Mareth is hex 8519"),
    ],
)
def test_scenario_breaking_a_special_rule_is_reported_on_its_line(
    tmp_path, monkeypatch, old, new, key, expected
):
    shipped_scenario = shipped_text("scenario")
    assert old in shipped_scenario
    text = shipped_scenario.replace(old, new, 1)
    path = override(tmp_path, monkeypatch, "scenario", text)
    found = problems_in(path)
    assert any(expected in message for _, message in found), found
    line = next(line for line, message in found if expected in message)
    assert line == line_of(text, key)


def test_override_reaches_the_game_loader_once_its_cache_is_cleared(tmp_path, monkeypatch):
    assert pack.load_map().hex["8306"].name == "Mateur"
    text = edit_item(shipped_text("map"), '{"id": "8306"', lambda h: h.update(name="Djedeida"))
    override(tmp_path, monkeypatch, "map", text)
    assert pack.load_map().hex["8306"].name == "Djedeida"


# --------------------------------------------------------------------------------------
# The reconstructed geography (digest 004, section 3.4)
# --------------------------------------------------------------------------------------


@pytest.fixture
def m() -> HexMap:
    return pack.load_map()


def test_rulebook_hexes_fall_on_the_towns_the_projection_predicts(m):
    assert m.hex["7607"].name == "Bone" and m.region("7607") == "algeria"
    assert m.hex["8306"].name == "Mateur" and m.region("8306") == "tunisia"
    assert m.hex["8519"].name == "Mareth"
    assert m.hex["8820"].name == "Zarzis"
    assert m.hex["8821"].name == "Ben Gardane"
    for h in checks.EIGHTH_ARMY_CRESTS:  # the Medenine - Ben Gardane - Tataouine belt
        assert distance(h, "8621") <= 3 and distance(h, "8821") <= 3, h


def test_victory_ports_sit_at_the_digest_hexes(m):
    ports = {h: m.hex[h].name for h in m.hexes_with("port")}
    assert ports == {
        "8305": "Bizerte",
        "8507": "Tunis",
        "8611": "Sousse",
        "8715": "Sfax",
        "8419": "Gabes",
    }
    assert all("village" in m.hex[h].terrain for h in ports)


def test_ii_corps_hexes_are_feriana_kasserine_and_sbeitla(m):
    names = {m.hex[h].name for h in m.hexes_with("crest_ii_corps")}
    assert names == {"Feriana", "Kasserine", "Sbeitla"}


def test_border_puts_tebessa_and_la_calle_in_algeria_and_tabarka_and_gafsa_in_tunisia(m):
    assert m.region("7712") == "algeria" and m.hex["7712"].name == "Tebessa"
    assert m.region("7807") == "algeria" and m.hex["7807"].name == "La Calle"
    assert m.region("8007") == "tunisia" and m.hex["8007"].name == "Tabarka"
    assert m.region("7916") == "tunisia" and m.hex["7916"].name == "Gafsa"


def test_mareth_is_fortified_behind_the_wadi_zigzaou(m):
    assert "fortified" in m.hex["8519"].terrain
    assert "river" in m.sides_of("8519", "8520")
    assert "river" in m.sides_of("8519", "8620")


def test_medjerda_is_bridged_at_medjez_el_bab(m):
    assert any({"river", "bridge"} <= m.sides_of("8208", n) for n in m.grid.neighbours("8208"))


def _steps(m: HexMap, start: str, goal: str, closed: set[str]) -> int | None:
    seen = {start: 0}
    todo = deque([start])
    while todo:
        here = todo.popleft()
        for nxt in m.grid.neighbours(here):
            if nxt in seen or nxt in closed or not checks.passable(m, nxt):
                continue
            if checks.blocked_side(m, here, nxt):
                continue
            seen[nxt] = seen[here] + 1
            todo.append(nxt)
    return seen.get(goal)


def test_chotts_leave_wadi_akarit_as_the_only_short_way_north_from_gabes(m):
    assert m.hex["8418"].name == "Wadi Akarit"
    assert "river" in m.sides_of("8418", "8419")
    assert "impassable" in m.sides_of("8317", "8318")  # Chott el Fedjadj
    direct = _steps(m, "8419", "8715", set())
    around = _steps(m, "8419", "8715", {"8418"})
    assert direct is not None and direct <= 6
    assert around is not None and around >= 3 * direct  # round the Chott el Djerid


def test_coast_road_runs_from_tunis_to_ben_gardane(m):
    road = {h: set() for h in m.road_hexes}
    for side in m.road_sides:
        a, b = side.split("|")
        road[a].add(b)
        road[b].add(a)
    seen = {"8507"}
    todo = ["8507"]
    while todo:
        for nxt in road[todo.pop()]:
            if nxt not in seen:
                seen.add(nxt)
                todo.append(nxt)
    assert {"8611", "8715", "8419", "8519", "8821", "7607", "8014"} <= seen


# --------------------------------------------------------------------------------------
# Set-up is possible (PFV 5, 6)
# --------------------------------------------------------------------------------------


def test_every_axis_piece_can_be_set_up_legally_in_tunisia(m):
    counters = pack.load_counters()
    scenario = pack.load_scenario()
    axis = [
        c for c in checks.setup_pieces(counters, frozenset({scenario.patton})) if c.side == "axis"
    ]
    allowed = checks.axis_setup_hexes(m)
    units: dict[str, str] = {}
    support = Counter()
    air_free = list(checks.axis_setup_airfields(m))
    placed = {}
    for c in sorted(axis, key=lambda c: c.fixed_hex is None):
        if c.kind == "air":
            placed[c.id] = air_free.pop(0)
            continue
        if c.fixed_hex:
            hex_id = c.fixed_hex
        elif c.kind == "unit":
            hex_id = next(h for h in allowed if h not in units)
        else:
            hex_id = next(h for h in allowed if support[h] < 2)
        assert hex_id in allowed, (c.id, hex_id)
        if c.kind == "unit":
            assert hex_id not in units, (c.id, hex_id, units.get(hex_id))
            units[hex_id] = c.id
        else:
            support[hex_id] += 1
            assert support[hex_id] <= 2, (c.id, hex_id)
        placed[c.id] = hex_id
    assert len(placed) == len(axis)
    assert all(m.region(h) == "tunisia" for h in placed.values())


def test_every_allied_air_piece_has_its_own_silhouette_in_algeria_or_8821(m):
    air = [c for c in pack.load_counters().counters if c.side == "allied" and c.kind == "air"]
    silhouettes = checks.allied_setup_airfields(m)
    assert len(air) <= len(silhouettes)
    for piece, hex_id in zip(air, silhouettes, strict=False):
        assert m.has(hex_id, "airfield_allied"), piece.id
        assert m.region(hex_id) == "algeria" or hex_id == "8821", piece.id


def test_sixth_armoured_has_room_in_algeria_within_four_of_bone(m):
    sixth = next(c for c in pack.load_counters().counters if c.near_hex == "7607")
    assert sixth.within == 4 and "8th_army" not in sixth.tags
    room = [h for h in checks.allied_setup_hexes(m) if h != "7607" and distance(h, "7607") <= 4]
    assert room
