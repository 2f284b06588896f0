"""The African Campaign data pack: the shipped reconstruction loads and passes its checks,
every fact the rulebook keeps holds on it (one test per fact, named by its line), the
generator writes exactly the shipped files, and broken copies are reported on the right
file and line."""

from __future__ import annotations

import importlib.util
import json
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from engine.core.datapack import GAMES_DIR
from engine.core.hexgrid_rows import adjacent, distance, neighbours
from engine.games.tac import pack

DATA = GAMES_DIR / "tac" / "data"
ROOT = Path(__file__).resolve().parents[2]


def _clear() -> None:
    for loader in (pack.load_map, pack.load_tables, pack.load_turns, pack.load_oob):
        loader.cache_clear()


@pytest.fixture(autouse=True)
def shipped(monkeypatch):
    monkeypatch.delenv("UMPIRE_DATAPACKS", raising=False)
    _clear()
    yield
    _clear()


def _generator():
    spec = importlib.util.spec_from_file_location("tac_pack", ROOT / "tools" / "tac_pack.py")
    module = importlib.util.module_from_spec(spec)
    assert spec.loader is not None
    spec.loader.exec_module(module)
    return module


# ------------------------------------------------------------------------------------
# The shipped pack
# ------------------------------------------------------------------------------------


def test_the_pack_loads():
    m, t, turns, oob = pack.load_map(), pack.load_tables(), pack.load_turns(), pack.load_oob()
    assert len(m.hexes) == (m.grid.last_row - m.grid.first_row + 1) * (
        m.grid.last_col - m.grid.first_col + 1
    )
    assert len(t.crt.columns) == 13
    assert len(turns.turns) == 50
    assert len(oob.units) > 60
    for f in (m, t, turns, oob):
        assert f.header.provenance == "reconstruction"
        assert f.header.game == "tac"


def test_check_finds_nothing_on_the_shipped_pack():
    assert pack.check() == []


def test_the_generator_writes_exactly_the_shipped_files():
    gen = _generator()
    for name, data in gen.build_all().items():
        assert gen.dump(data) == (DATA / f"{name}.json").read_text(encoding="utf-8"), name


def test_the_pack_stays_small():
    assert sum(p.stat().st_size for p in DATA.glob("*.json")) < 2_000_000


# ------------------------------------------------------------------------------------
# Every fact the rulebook keeps, one per test
# ------------------------------------------------------------------------------------


def _hex(h: str):
    return next(x for x in pack.load_map().hexes if x.id == h)


def _playable(h: str) -> bool:
    return _hex(h).terrain not in ("sea", "offmap")


def _prohibited() -> set[frozenset[str]]:
    return {frozenset(s.between) for s in pack.load_map().hexsides if "prohibited" in s.features}


def _roads() -> set[frozenset[str]]:
    return {
        frozenset(p) for r in pack.load_map().roads for p in zip(r.hexes, r.hexes[1:], strict=False)
    }


def _named(name: str):
    return next(x for x in pack.load_map().hexes if x.name == name)


def _unit(uid: str):
    return next(u for u in pack.load_oob().units if u.id == uid)


def _zoc(h: str) -> list[str]:
    return [n for n in neighbours(h) if _playable(n) and frozenset((h, n)) not in _prohibited()]


def _odds(attack: int, defence: int) -> str:
    """9.6 (L493): the ratio rounded in the defender's favour."""
    crt = pack.load_tables().crt
    if attack >= defence:
        n = attack // defence
        return crt.above_highest if n >= 9 else f"{n}-1"
    k = -(-defence // attack)
    return crt.below_lowest if k > 6 else f"1-{k}"


def _cell(odds: str, die: int) -> tuple[str | None, str | None]:
    crt = pack.load_tables().crt
    return tuple(crt.rows[str(die)][crt.columns.index(odds)])


FACTS: list[tuple[str, str, Callable[[], bool]]] = [
    (
        "L208",
        "0803 and its six neighbours are playable with no prohibited side",
        lambda: all(_playable(h) for h in ("0803", *neighbours("0803"))) and len(_zoc("0803")) == 6,
    ),
    (
        "L208",
        "1043|1044 is a prohibited hexside",
        lambda: frozenset(("1043", "1044")) in _prohibited(),
    ),
    ("L208", "a unit in 1043 controls exactly three hexes", lambda: len(_zoc("1043")) == 3),
    ("L208", "1044 is playable", lambda: _playable("1044")),
    (
        "L385",
        "1028 touches both pass hexes 1128 and 1129",
        lambda: adjacent("1028", "1128") and adjacent("1028", "1129"),
    ),
    (
        "L385",
        "1228 touches both pass hexes",
        lambda: adjacent("1228", "1128") and adjacent("1228", "1129"),
    ),
    (
        "L385",
        "1128 and 1129 are ridge hexes marked pass",
        lambda: all(
            _hex(h).terrain == "ridge" and "pass" in _hex(h).features for h in ("1128", "1129")
        ),
    ),
    (
        "L387",
        "1128 and 1129 each leave the ridge by road hexsides to 1028 and 1228",
        lambda: all(
            frozenset((p, e)) in _roads() for p in ("1128", "1129") for e in ("1028", "1228")
        ),
    ),
    (
        "L385",
        "1028 and 1228 are playable and not ridge",
        lambda: all(_playable(h) and _hex(h).terrain != "ridge" for h in ("1028", "1228")),
    ),
    (
        "L391",
        "1030 and 0931 are adjacent ridge hexes marked pass",
        lambda: (
            adjacent("1030", "0931")
            and all(
                _hex(h).terrain == "ridge" and "pass" in _hex(h).features for h in ("1030", "0931")
            )
        ),
    ),
    (
        "L375",
        "there are passes near Sollum",
        lambda: any(
            "pass" in h.features and distance(h.id, _named("Sollum").id) <= 2
            for h in pack.load_map().hexes
        ),
    ),
    (
        "L419",
        "1023, 1125 and 1127 are playable, two hexes apart in turn",
        lambda: (
            all(_playable(h) for h in ("1023", "1125", "1127"))
            and distance("1023", "1125") == 2
            and distance("1125", "1127") == 2
        ),
    ),
    (
        "L419",
        "1127 doubles no defender (neither ridge nor fort)",
        lambda: _hex("1127").terrain != "ridge" and "fort" not in _hex("1127").features,
    ),
    (
        "L419",
        "90th (5-7) and 8th Panzer (4-7) against a 1-5 are 9-1: an overrun",
        lambda: (
            _odds(
                pack.step_values(_unit("ge_90").steps[0])[0]
                + pack.step_values(_unit("ge_8pz").steps[0])[0],
                1,
            )
            == "DE"
            and "1-5" in _unit("uk_1armd").steps
        ),
    ),
    ("L855", "0701 is on the playing area", lambda: _playable("0701")),
    (
        "L489",
        "Tobruk and Benghazi are the forts",
        lambda: (
            sorted(h.name for h in pack.load_map().hexes if "fort" in h.features)
            == ["Benghazi", "Tobruk"]
        ),
    ),
    (
        "L609",
        "the ports on the map are Tobruk, Benghazi and Alexandria",
        lambda: (
            sorted(h.name for h in pack.load_map().hexes if "port" in h.features)
            == ["Alexandria", "Benghazi", "Tobruk"]
        ),
    ),
    (
        "L569",
        "El Agheila and Alexandria are cities",
        lambda: "city" in _named("El Agheila").features and "city" in _named("Alexandria").features,
    ),
    (
        "L623",
        "Alexandria is the Allied Home Base",
        lambda: "home_base" in _named("Alexandria").features,
    ),
    ("L473", "26 against 9 is 2-1", lambda: _odds(26, 9) == "2-1"),
    ("L485", "worse than 1-6 is AE without a roll", lambda: _odds(2, 13) == "AE"),
    (
        "L485",
        "9-1 is DE without a roll; 8-1 is on the table",
        lambda: _odds(18, 2) == "DE" and _odds(17, 2) == "8-1",
    ),
    ("L509", "21st Panzer (9-8) against 2nd Armoured (4-6) is 2-1", lambda: _odds(9, 4) == "2-1"),
    ("L509", "2-1 with a die of 1 is A2R over D1", lambda: _cell("2-1", 1) == ("A2R", "D1")),
    (
        "L509",
        "two steps take 21st Panzer from 9-8 to 5-7",
        lambda: _unit("ge_21pz").steps[0] == "9-8" and _unit("ge_21pz").steps[2] == "5-7",
    ),
    (
        "L509",
        "one step takes 2nd Armoured from 4-6 to 3-6",
        lambda: _unit("uk_2armd").steps[:2] == ["4-6", "3-6"],
    ),
    (
        "L565",
        "only an armour replacement restores the 21st Panzer's 9-8",
        lambda: _unit("ge_21pz").armour_steps == 1 and _unit("ge_21pz").steps[1] == "7-7",
    ),
    (
        "L653",
        "March 1941 with a die of 4 gives 3 Fuel",
        lambda: (
            pack.load_tables()
            .axis_table[next(t.segment for t in pack.load_turns().turns if t.turn == 7)]
            .rows[3][2]
            == 3
        ),
    ),
    (
        "L643",
        "the fuel track runs 0-10 from 2",
        lambda: pack.load_tables().fuel_track.model_dump() == {"min": 0, "max": 10, "start": 2},
    ),
    (
        "L162",
        "10 standard and 6 bonus minefields",
        lambda: (
            (len(pack.load_tables().minefields.standard), len(pack.load_tables().minefields.bonus))
            == (10, 6)
        ),
    ),
    ("L809", "fourteen two-sided event chits", lambda: len(pack.load_tables().events.chits) == 14),
    (
        "L813",
        "chits are drawn on Turns 3, 9, 15, 19, 25, 33 and 41",
        lambda: pack.load_tables().events.draw_turns == [3, 9, 15, 19, 25, 33, 41],
    ),
    ("L56", "176 counters", lambda: pack.load_oob().counter_mix.total == 176),
    (
        "L86",
        "7th Australian Division 5-6 enters on Turn 9",
        lambda: (_unit("au_7").steps[0], _unit("au_7").entry.turn) == ("5-6", 9),
    ),
    (
        "L90",
        "8th Panzer Regiment of the 15th Panzer, 4-7, enters on Turn 10",
        lambda: (
            (_unit("ge_8pz").steps[0], _unit("ge_8pz").entry.turn, _unit("ge_8pz").parent)
            == ("4-7", 10, "ge_15pz")
        ),
    ),
    (
        "L131",
        "6th Australian Division: four steps, 5-6 flipped to 4-6",
        lambda: len(_unit("au_6").steps) == 4 and _unit("au_6").steps[:2] == ["5-6", "4-6"],
    ),
    (
        "L250",
        "DAK HQ 3-10 arrives on Turn 5",
        lambda: (_unit("ge_dak").steps, _unit("ge_dak").entry.turn) == (["3-10"], 5),
    ),
    (
        "L250",
        "HQ 0 + division 1 + three half-division counters is 2.5, over the limit",
        lambda: sum(pack.stacking_value(s) for s in ("XXXX", "XX", "III", "III", "X")) == 2.5,
    ),
    (
        "L337",
        "2nd New Zealand leaves on Turn 28 and returns on Turn 37 as 5-6",
        lambda: (
            [(w.turn, w.return_turn, w.return_step) for w in _unit("nz_2").withdrawals]
            == [(28, 37, "5-6")]
        ),
    ),
    (
        "L337",
        "the track shows the New Zealanders leaving on Turn 28 and back on Turn 37",
        lambda: (
            "nz_2" in pack.load_turns().turns[27].withdrawals
            and "nz_2" in pack.load_turns().turns[36].returns
        ),
    ),
    (
        "L337",
        "18/7 Australian Brigade is removed for good",
        lambda: [w.return_turn for w in _unit("au_18_7").withdrawals] == [None],
    ),
    (
        "L593",
        "201 Guards Brigade enters on Turn 27 and is a brigade of the 1st Armoured",
        lambda: _unit("uk_201gds").entry.turn == 27 and "uk_201gds" in _unit("uk_1armd").components,
    ),
    (
        "L593",
        "1st Armoured is a 7-6 formed by 11.4 with the Lancers",
        lambda: (
            _unit("uk_1armd").steps[0] == "7-6"
            and _unit("uk_1armd").entry.rule == "11.4"
            and "uk_lancers" in _unit("uk_1armd").components
        ),
    ),
    (
        "L583",
        "7th Armoured breaks down into three units",
        lambda: len(_unit("uk_7armd").components) == 3,
    ),
    (
        "L599",
        "the New Zealand 7-6 forms by 11.5 and is not armoured",
        lambda: _unit("nz_2_7").steps[0] == "7-6" and _unit("nz_2_7").type != "armor",
    ),
    (
        "L989",
        "2nd Brigade of the 1st Armoured, 2-6, on Turn 25",
        lambda: (_unit("uk_2armdbde").steps[0], _unit("uk_2armdbde").entry.turn) == ("2-6", 25),
    ),
    (
        "L992",
        "3rd Indian Motor Brigade 2-6 on Turn 8",
        lambda: (_unit("in_3mot").steps[0], _unit("in_3mot").entry.turn) == ("2-6", 8),
    ),
    (
        "L992",
        "1st Greek Brigade 1-6 on Turn 37",
        lambda: (_unit("gr_1").steps[0], _unit("gr_1").entry.turn) == ("1-6", 37),
    ),
    (
        "L208",
        "Trento is an Italian motorized division",
        lambda: (_unit("it_102").nationality, _unit("it_102").type) == ("IT", "motorized"),
    ),
    (
        "L94",
        "a flak unit attacks 1 and defends 3",
        lambda: any(
            pack.step_values(u.steps[0])[:2] == (1, 3)
            for u in pack.load_oob().units
            if u.type == "flak"
        ),
    ),
    (
        "L259",
        "fifty turns",
        lambda: [t.turn for t in pack.load_turns().turns] == list(range(1, 51)),
    ),
    (
        "L703",
        "Turns 1 and 2 are December 1940; Turn 50 is December II 1942",
        lambda: (
            [pack.load_turns().turns[i].date for i in (0, 1, 49)]
            == ["December I 1940", "December II 1940", "December II 1942"]
        ),
    ),
    (
        "L545",
        "Allied infantry replacements only on odd turns from Turn 3",
        lambda: all(
            t.allied_infantry_replacements == 0
            for t in pack.load_turns().turns
            if t.turn < 3 or t.turn % 2 == 0
        ),
    ),
    (
        "L701",
        "no Axis roll on Turn 1: no segment before Turn 3",
        lambda: (
            pack.load_turns().turns[0].segment is None
            and pack.load_turns().turns[2].segment is not None
        ),
    ),
]


@pytest.mark.parametrize(("line", "fact", "holds"), FACTS, ids=[f"{a} {b}" for a, b, _ in FACTS])
def test_rulebook_fact(line, fact, holds):
    assert holds(), f"{fact} ({line})"


# ------------------------------------------------------------------------------------
# Broken copies
# ------------------------------------------------------------------------------------


def _copy(tmp_path: Path) -> Path:
    folder = tmp_path / "pack"
    shutil.copytree(DATA, folder)
    return folder


def _mutate(folder: Path, name: str, change: Callable[[dict], None]) -> str:
    gen = _generator()
    data = json.loads((folder / f"{name}.json").read_text(encoding="utf-8"))
    change(data)
    text = gen.dump(data)
    (folder / f"{name}.json").write_text(text, encoding="utf-8")
    return text


def _line(text: str, needle: str) -> int:
    return next(i for i, line in enumerate(text.splitlines(), 1) if needle in line)


def _hexes(data: dict, h: str) -> dict:
    return next(x for x in data["hexes"] if x["id"] == h)


def _units(data: dict, uid: str) -> dict:
    return next(u for u in data["units"] if u["id"] == uid)


def _expect(folder: Path, name: str, line: int | None, fragment: str) -> None:
    found = pack.check(folder)
    want = str(folder / f"{name}.json")
    assert any(f == want and n == line and fragment in m for f, n, m in found), found


def test_a_missing_prohibited_hexside_is_reported(tmp_path):
    folder = _copy(tmp_path)
    text = _mutate(folder, "map", lambda d: d.update(hexsides=[]))
    _expect(folder, "map", _line(text, '"hexsides"'), "1043|1044 must be prohibited")


def test_a_pass_hex_turned_clear_is_reported_on_its_line(tmp_path):
    folder = _copy(tmp_path)
    text = _mutate(folder, "map", lambda d: _hexes(d, "1128").update(terrain="clear"))
    _expect(folder, "map", _line(text, '"id": "1128"'), "1128 must be a ridge hex marked pass")


def test_land_in_the_gulf_of_bomba_gives_1043_a_fourth_zoc_hex(tmp_path):
    folder = _copy(tmp_path)
    text = _mutate(folder, "map", lambda d: _hexes(d, "0944").update(terrain="clear"))
    _expect(folder, "map", _line(text, '"id": "1043"'), "must control exactly 3 hexes")


def test_a_changed_crt_cell_is_reported(tmp_path):
    folder = _copy(tmp_path)

    def change(d: dict) -> None:
        d["crt"]["rows"]["1"][6] = ["A1", "D1"]

    text = _mutate(folder, "tables", change)
    # each cell is on a line of its own: the seventh after the row's opening line
    _expect(folder, "tables", _line(text, '"1": [') + 7, "A2R over D1")


def test_a_wrong_march_fuel_roll_is_reported(tmp_path):
    folder = _copy(tmp_path)

    def change(d: dict) -> None:
        d["axis_table"]["I"]["rows"][3][2] = 2

    text = _mutate(folder, "tables", change)
    # the fourth row (die 4) of segment I's table
    _expect(folder, "tables", _line(text, '"I": {') + 7, "3 Fuel")


def test_a_wrong_entry_turn_is_reported_on_the_unit(tmp_path):
    folder = _copy(tmp_path)
    text = _mutate(folder, "oob", lambda d: _units(d, "au_7")["entry"].update(turn=10))
    _expect(folder, "oob", _line(text, '"id": "au_7"'), "enters on Turn 9 (L86)")


def test_a_duplicate_unit_id_is_reported_on_the_second(tmp_path):
    folder = _copy(tmp_path)
    text = _mutate(folder, "oob", lambda d: d["units"].append(dict(_units(d, "gr_1"))))
    last = max(i for i, line in enumerate(text.splitlines(), 1) if '"id": "gr_1"' in line)
    _expect(folder, "oob", last, "used twice")


def test_a_missing_turn_is_reported(tmp_path):
    folder = _copy(tmp_path)
    text = _mutate(folder, "turns", lambda d: d["turns"].pop())
    _expect(folder, "turns", _line(text, '"turns"'), "Turns 1 to 50")


def test_invalid_json_is_reported_on_its_line(tmp_path):
    folder = _copy(tmp_path)
    path = folder / "turns.json"
    lines = path.read_text(encoding="utf-8").splitlines()
    lines[20] = lines[20].replace('"turn":', '"turn"', 1)
    path.write_text("\n".join(lines), encoding="utf-8")
    _expect(folder, "turns", 21, "not valid JSON")


def test_a_field_of_the_wrong_type_is_reported_on_its_line(tmp_path):
    folder = _copy(tmp_path)
    text = _mutate(folder, "oob", lambda d: _units(d, "ge_90").update(size="XXX"))
    _expect(folder, "oob", _line(text, '"id": "ge_90"'), "units.")


def test_the_override_folder_is_what_check_reads(tmp_path, monkeypatch):
    folder = tmp_path / "packs" / "tac"
    folder.mkdir(parents=True)
    shutil.copy(DATA / "tables.json", folder / "tables.json")
    text = _mutate(folder, "tables", lambda d: d["fuel_track"].update(start=3))
    monkeypatch.setenv("UMPIRE_DATAPACKS", str(tmp_path / "packs"))
    found = pack.check()
    want = (str(folder / "tables.json"), _line(text, '"fuel_track"'))
    assert any((f, n) == want and "starts at 2" in m for f, n, m in found), found
    assert all(f == str(folder / "tables.json") for f, _n, _m in found)


def test_the_doctests_of_the_grid_and_the_pack_pass():
    import doctest

    from engine.core import hexgrid_rows

    for module in (hexgrid_rows, pack):
        result = doctest.testmod(module)
        assert result.attempted > 0 and result.failed == 0, module.__name__


@pytest.mark.parametrize(
    ("name", "change"),
    [
        ("map", lambda d: d["hexsides"].append({"between": ["ab12", "1043"], "features": []})),
        ("map", lambda d: d["hexes"][0].update(id="x1")),
        ("map", lambda d: d["roads"][0]["hexes"].insert(1, "9999")),
        ("map", lambda d: d["passes"][0].update(hexes=["zz"])),
        ("oob", lambda d: d["units"][0].update(steps=["x-y"])),
        ("oob", lambda d: d["units"][0].update(steps=[])),
        ("oob", lambda d: d["units"][0].update(setup={"code": "Q"})),
        ("oob", lambda d: _units(d, "au_7").pop("entry")),
        ("tables", lambda d: d["crt"]["rows"].pop("1")),
        ("tables", lambda d: d["axis_table"].clear()),
        ("turns", lambda d: d["turns"].clear()),
    ],
)
def test_malformed_values_give_problems_not_tracebacks(tmp_path, name, change):
    folder = _copy(tmp_path)
    _mutate(folder, name, change)
    found = pack.check(folder)
    assert found, "a broken copy must give at least one problem"
    assert all(isinstance(m, str) and m for _f, _n, m in found)


def test_a_missing_file_is_one_clear_problem(tmp_path):
    folder = _copy(tmp_path)
    (folder / "oob.json").unlink()
    found = pack.check(folder)
    assert [(f, n) for f, n, _m in found] == [(str(folder / "oob.json"), None)]
    assert "cannot read the file" in found[0][2]


def test_check_has_the_shape_the_datapack_command_calls(monkeypatch):
    # the lead wires it with one entry in engine.core.datapack.CHECKS
    from engine.core import datapack

    monkeypatch.setitem(datapack.CHECKS, "tac", "engine.games.tac.pack:check")
    assert datapack.check("tac") == []
