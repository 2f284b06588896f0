"""BIA data pack: the shipped reconstruction loads and passes its checks, every fact the
rulebook prints about map, units, tables and scenarios holds in it (one test per fact,
naming the line of shared/rules/003), and broken copies are reported on the right file
and line."""

from __future__ import annotations

import importlib.util
import json
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from engine.core.datapack import GAMES_DIR
from engine.games.bia import pack

DATA = GAMES_DIR / "bia" / "data"
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True)
def shipped(monkeypatch):
    monkeypatch.delenv("UMPIRE_DATAPACKS", raising=False)
    pack.load.cache_clear()
    yield
    pack.load.cache_clear()


@pytest.fixture(scope="module")
def p() -> pack.Pack:
    return pack.Pack.of(
        {name: pack.load_file(DATA / f"{name}.json", model) for name, model in pack.MODELS.items()}
    )


def hex_of(p: pack.Pack, name: str) -> pack.Hex:
    return p.place(name)


def edge_cost(p: pack.Pack, block: pack.Block) -> dict[str, int]:
    """What rebuilding a block costs by the tables (7.3.1): YPP by edge colour, each YPP
    matched by as many PP of the class's colour; a motorized unit pairs only its edges
    1 and 4, with red."""
    t = p.tables
    pair = t.pairing.get(block.kind, t.pairing.get(block.unit_class))
    total: dict[str, int] = {}
    for k, (_value, colour) in enumerate(block.track, start=1):
        y = t.edge_cost_ypp[colour]
        assert y is not None, f"{block.id} edge {k} cannot be rebuilt"
        total["yellow"] = total.get("yellow", 0) + y
        paired = (
            ("red" if k in t.motorized_edges_paired_red else None)
            if block.kind == "motorized"
            else pair
        )
        if paired:
            total[paired] = total.get(paired, 0) + y
    return total


# --------------------------------------------------------------------------------------
# The shipped pack
# --------------------------------------------------------------------------------------


def test_shipped_pack_breaks_no_rulebook_requirement():
    assert pack.check() == []


def test_shipped_pack_loads_every_file_as_a_labelled_reconstruction():
    loaded = pack.load()
    for name in pack.FILES:
        header = getattr(loaded, name).header
        assert (header.game, header.version, header.provenance) == (
            "bia",
            "0.1",
            "reconstruction",
        ), name
        assert header.sources, name
    assert len(loaded.scenarios.scenarios) == 10
    assert len(loaded.map.hexes) == 54 * 25


def test_shipped_pack_is_small():
    assert sum(f.stat().st_size for f in DATA.glob("*.json")) < 2_000_000


def test_generator_reproduces_the_shipped_pack_exactly():
    spec = importlib.util.spec_from_file_location("bia_pack", ROOT / "tools" / "bia_pack.py")
    assert spec and spec.loader
    gen = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(gen)
    files, errors = gen.build()
    assert errors == []
    for name, built in files.items():
        assert gen.dumps(built) == (DATA / f"{name}.json").read_text(encoding="utf-8"), name


# --------------------------------------------------------------------------------------
# Rulebook facts: the map (one per fact, with its line)
# --------------------------------------------------------------------------------------


def test_L80_a_hex_is_about_70_km(p):
    assert 60 <= p.map.grid.hex_km <= 80


def test_L265_ankara_is_a_capital(p):
    assert hex_of(p, "Ankara").locality == "capital"


def test_L759_istanbul_is_turkeys_second_capital(p):
    assert hex_of(p, "Istanbul").locality == "capital"


def test_L266_alexandria_is_a_major_city(p):
    assert hex_of(p, "Alexandria").locality == "major"


def test_L267_gazala_is_a_minor_city(p):
    assert hex_of(p, "Gazala").locality == "minor"


def test_L268_the_metaxas_line_is_a_bunker(p):
    assert hex_of(p, "Metaxas Line").locality == "bunker"


def test_L279_kannakhale_is_a_fortress(p):
    assert hex_of(p, "Kannakhale").locality == "fortress"


def test_L1728_tobruk_is_a_fortress_on_the_map(p):
    assert hex_of(p, "Tobruk").locality == "fortress"


def test_L284_baku_is_a_victory_city(p):
    assert hex_of(p, "Baku").victory_city


def test_L296_el_alamein_is_a_historical_battle_site(p):
    assert hex_of(p, "El Alamein").locality == "battle_site"


def test_L2217_bir_hackeim_has_no_city_aa(p):
    assert hex_of(p, "Bir Hackeim").locality == "battle_site"


def test_L674_rome_berlin_london_are_off_the_map_on_the_strategic_map(p):
    assert not {"Rome", "Berlin", "London"} & set(p.places)
    assert {b for b, box in p.strategic.boxes.items() if box.kind == "home"} == {
        "rome",
        "berlin",
        "london",
    }


def test_L373_the_map_shows_four_bodies_of_water(p):
    assert len(p.map.bodies_of_water) == 4


def test_L482_the_four_indian_ocean_ports(p):
    assert sorted(p.strategic.indian_ocean_ports) == ["Abadan", "Aqaba", "Basra", "Suez"]
    assert all("indian_ocean" in hex_of(p, n).bodies for n in p.strategic.indian_ocean_ports)


def test_L1362_tehran_is_the_only_playable_partial_hex(p):
    tehran = hex_of(p, "Tehran")
    assert tehran.partial and tehran.playable
    assert [h.name for h in p.map.hexes if h.partial and h.playable] == ["Tehran"]


def test_L1364_chotts_and_qattara_are_impassable(p):
    countries = {h.country for h in p.map.hexes if h.terrain == "impassable"}
    assert {"tunisia", "egypt"} <= countries


def test_L1330_a_yellow_border_parts_the_hexes_w_and_sw_of_alam_halfa(p):
    ah = hex_of(p, "Alam Halfa").id
    w, sw = pack.neighbour(ah, "W"), pack.neighbour(ah, "SW")
    sides = [s for s in p.map.hexsides if sorted(s.between) == sorted([w, sw])]
    assert sides and "yellow_border" in sides[0].features
    assert p.hexes[w].terrain == "clear" and p.hexes[sw].terrain == "clear"


def test_L1296_bengasi_to_bir_hackeim_is_4_mp_of_desert(p):
    assert pack.distance(hex_of(p, "Bengasi").id, hex_of(p, "Bir Hackeim").id) == 4


def test_L2211_bir_hackeim_is_next_to_gazala(p):
    assert hex_of(p, "Bir Hackeim").id in pack.neighbours(hex_of(p, "Gazala").id)


def test_L2672_nicosia_to_heraklion_is_10_hexes(p):
    assert pack.distance(hex_of(p, "Nicosia").id, hex_of(p, "Heraklion").id) == 10


def test_L2148_the_hex_west_of_el_agheila_is_land(p):
    west = pack.neighbour(hex_of(p, "El Agheila").id, "W")
    assert p.hexes[west].terrain == "clear" and p.hexes[west].country == "libya"


def test_L2407_gazala_is_a_desert_hex(p):
    assert hex_of(p, "Gazala").terrain == "clear"


def test_L684_bengasi_and_taranto_are_mediterranean_ports(p):
    assert "mediterranean" in hex_of(p, "Bengasi").bodies
    assert "mediterranean" in hex_of(p, "Taranto").bodies


def test_L408_beirut_is_on_the_map_for_the_ff_brigade(p):
    assert hex_of(p, "Beirut").locality in ("capital", "major")


# --------------------------------------------------------------------------------------
# Rulebook facts: the units
# --------------------------------------------------------------------------------------


def test_L1070_south_african_garrison_costs_3_ypp(p):
    b = p.blocks["uk_sa_garrison"]
    assert b.kind == "static" and edge_cost(p, b) == {"yellow": 3}


def test_L1078_turkish_infantry_has_a_blue_cadre_and_two_black_steps(p):
    assert any(
        b.track == [(1, "blue"), (2, "black"), (3, "black")]
        for b in p.units.blocks
        if b.power == "turkey"
    )


def test_L1091_eighth_army_artillery_costs_8_ypp(p):
    b = p.blocks["uk_8art"]
    assert b.track == [(0, "red"), (1, "black"), (3, "white"), (5, "white")]
    assert edge_cost(p, b) == {"yellow": 8}


def test_L1130_desert_rats_cost_6_ypp_and_6_rpp(p):
    assert edge_cost(p, p.blocks["uk_7armd"]) == {"yellow": 6, "red": 6}


def test_L1133_tropicalized_stuka_costs_8_ypp_and_8_bpp(p):
    assert edge_cost(p, p.blocks["de_stuka"]) == {"yellow": 8, "blue": 8}


def test_L1145_persian_leader_costs_5_ypp_and_5_oil(p):
    assert edge_cost(p, p.blocks["pe_rp"]) == {"yellow": 5, "oil": 5}


def test_L1158_every_motorized_infantry_costs_6_ypp_and_4_rpp(p):
    motorized = [b for b in p.units.blocks if b.kind == "motorized" and b.track[0][1] != "blue"]
    assert motorized and all(edge_cost(p, b) == {"yellow": 6, "red": 4} for b in motorized)


def test_L1642_the_dak_drops_from_5_to_3(p):
    assert p.blocks["de_dak"].values()[-2:] == [3, 5]


def test_L591_the_daf_fighter_drops_from_5_to_3(p):
    assert p.blocks["uk_daf"].values()[-2:] == [3, 5]


def test_L1717_folgore_and_desert_rats_fall_from_3_to_0(p):
    assert p.blocks["it_folgore"].values() == [0, 3]
    assert p.blocks["uk_7armd"].values() == [0, 3]


def test_L400_leaders_action_points(p):
    assert {k: v.ap for k, v in p.units.leaders.items()} == {
        "churchill": 4,
        "mussolini": 3,
        "hitler": 2,
        "goering": 1,
    }


def test_L450_turkey_has_13_units(p):
    assert sum(b.power == "turkey" for b in p.units.blocks) == 13


def test_L409_vichy_france_has_9_units_7_in_north_africa(p):
    vichy = [b for b in p.units.blocks if b.power == "vichy"]
    assert len(vichy) == 9
    assert sum(b.territory in ("morocco", "algeria", "tunisia") for b in vichy) == 7


def test_L466_wilson_force_has_4_units(p):
    assert sum(b.wilson for b in p.units.blocks) == 4


def test_L1933_the_elites_are_rommel_dak_la_and_the_desert_rats(p):
    assert sorted(b.id for b in p.units.blocks if b.elite) == [
        "de_dak",
        "de_la",
        "de_rommel",
        "uk_7armd",
    ]


def test_L2337_the_5th_squadra_aerea_has_4_steps(p):
    assert p.blocks["it_5sa"].full == 4


def test_L2667_cunningham_has_4_steps(p):
    assert p.blocks["ukn_cunningham"].full == 4


# --------------------------------------------------------------------------------------
# Rulebook facts: the tables
# --------------------------------------------------------------------------------------


def test_L1391_movement_costs(p):
    assert {
        t: p.tables.terrain[t].mp for t in ("clear", "forest", "hills", "mountain", "swamp")
    } == {"clear": 1, "forest": 2, "hills": 2, "mountain": 3, "swamp": 3}


def test_L567_tech_1_tanks_attack_at_6_defend_at_5(p):
    fire = p.tables.firepower["tank"]["1"]
    assert (fire.attack, fire.defence) == (6, 5)


def test_L978_city_and_fortress_aa(p):
    loc = p.tables.localities
    assert [(loc[k].aa_dice, loc[k].aa_hit) for k in ("minor", "major", "bunker", "fortress")] == [
        (1, 6),
        (2, 6),
        (1, 5),
        (2, 5),
    ]


def test_L1414_mine_die_roll(p):
    assert [p.tables.mine_die_roll[str(d)] for d in range(1, 7)] == [
        "safe",
        "safe",
        "safe",
        "lose_step",
        "lose_step",
        "destroyed",
    ]


def test_L555_italian_tech_3_fighters_on_turn_65(p):
    assert p.tables.tech("italy", "fighter", 64) == 2
    assert p.tables.tech("italy", "fighter", 65) == 3


def test_L1352_tech_1_italian_and_tech_2_german_ground_units_in_1941(p):
    june41 = pack.month_turn(1941, 6)
    assert p.tables.tech("italy", "infantry", june41) == 1
    assert p.tables.tech("germany", "infantry", june41) == 2
    assert (
        p.tables.firepower["infantry"]["1"].mp == 3 and p.tables.firepower["infantry"]["2"].mp == 4
    )


# --------------------------------------------------------------------------------------
# Rulebook facts: the scenarios
# --------------------------------------------------------------------------------------


def test_L35_the_ten_scenarios_names_and_difficulties(p):
    got = {s.id: (s.name, s.difficulty) for s in p.scenarios.scenarios}
    assert got == pack.SCENARIO_NAMES


def test_L32_every_scenario_lasts_1_to_5_turns(p):
    assert all(1 <= s.last_turn - s.first_turn + 1 <= 5 for s in p.scenarios.scenarios)


def test_L2478_the_four_naval_scenarios_are_bia7_to_bia10(p):
    assert {s.id for s in p.scenarios.scenarios if s.kind == "naval"} == {
        "BIA7",
        "BIA8",
        "BIA9",
        "BIA10",
    }


def test_L1189_montgomery_arrives_at_full_strength_on_turn_36(p):
    r = next(r for r in p.scenario("BIA6").reinforcements if r.unit == "uk_monty")
    assert (r.turn, r.steps) == (36, p.blocks["uk_monty"].full)


def test_L1732_tobruk_status_follows_its_history(p):
    assert {
        s.id: s.tobruk for s in p.scenarios.scenarios if s.id in ("BIA3", "BIA4", "BIA5", "BIA6")
    } == {"BIA3": "fortress", "BIA4": "bunker", "BIA5": "minor", "BIA6": "bunker"}


def test_L2008_the_la_reaches_berlin_with_3_steps_in_june_1941(p):
    r = next(r for r in p.scenario("BIA4").reinforcements if r.unit == "de_la")
    assert (r.turn, r.at, r.steps) == (pack.month_turn(1941, 6), "box:berlin", 3)


def test_L2139_the_desert_rats_stand_at_gazala_with_a_1_step_fighter(p):
    gazala = hex_of(p, "Gazala").id
    at_gazala = {(s.unit, s.steps) for s in p.scenario("BIA6").setup if s.hex == gazala}
    assert at_gazala == {("uk_7armd", 3), ("uk_daf", 1)}


# --------------------------------------------------------------------------------------
# Broken copies are reported on the right file and line
# --------------------------------------------------------------------------------------


def copy_pack(tmp_path: Path) -> Path:
    folder = tmp_path / "bia"
    shutil.copytree(DATA, folder, ignore=shutil.ignore_patterns("*.md"))
    return folder


def line_with(text: str, fragment: str) -> int:
    found = [i for i, line in enumerate(text.splitlines(), 1) if fragment in line]
    assert len(found) == 1, (fragment, found)
    return found[0]


def edit_line(folder: Path, name: str, fragment: str, change: Callable[[dict], None]) -> str:
    """Change the one-line JSON object containing ``fragment``; return the new text."""
    path = folder / f"{name}.json"
    lines = path.read_text(encoding="utf-8").splitlines()
    i = line_with("\n".join(lines), fragment) - 1
    body = lines[i].strip()
    comma = body.endswith(",")
    keyed = body.startswith('"')  # a '"key": {...}' member rather than a list item
    item = json.loads("{" + body.rstrip(",") + "}" if keyed else body.rstrip(","))
    change(item)
    new = json.dumps(item)[1:-1] if keyed else json.dumps(item)
    lines[i] = lines[i][: len(lines[i]) - len(lines[i].lstrip())] + new + ("," if comma else "")
    text = "\n".join(lines) + "\n"
    path.write_text(text, encoding="utf-8")
    return text


def problems(folder: Path, name: str) -> list[tuple[int | None, str]]:
    return [
        (line, msg)
        for file, line, msg in pack.check(folder)
        if Path(file) == folder / f"{name}.json"
    ]


def assert_reported(folder: Path, name: str, line: int, words: str) -> None:
    found = problems(folder, name)
    assert any(ln == line and words in msg for ln, msg in found), found


def test_tehran_made_unplayable_is_reported_on_its_hex(tmp_path):
    folder = copy_pack(tmp_path)
    text = edit_line(folder, "map", '"name": "Tehran"', lambda h: h.update(playable=False))
    assert_reported(
        folder, "map", line_with(text, '"name": "Tehran"'), "Tehran must be a partial hex"
    )


def test_gazala_in_the_hills_is_reported_on_its_hex(tmp_path):
    folder = copy_pack(tmp_path)
    text = edit_line(folder, "map", '"name": "Gazala"', lambda h: h.update(terrain="hills"))
    assert_reported(folder, "map", line_with(text, '"name": "Gazala"'), "must be clear desert")


def test_alam_halfa_without_its_yellow_border_is_reported_on_alam_halfa(tmp_path, p):
    folder = copy_pack(tmp_path)
    ah = hex_of(p, "Alam Halfa").id
    pair = sorted([pack.neighbour(ah, "W"), pack.neighbour(ah, "SW")])
    edit_line(
        folder,
        "map",
        json.dumps({"between": pair}).rstrip("}"),
        lambda s: s.update(features=["river"]),
    )
    text = (folder / "map.json").read_text(encoding="utf-8")
    assert_reported(folder, "map", line_with(text, '"name": "Alam Halfa"'), "yellow border")


def test_a_rail_through_the_sea_is_reported_on_its_line(tmp_path, p):
    folder = copy_pack(tmp_path)
    sea = next(h.id for h in p.map.hexes if h.terrain == "sea")
    text = edit_line(folder, "map", '"name": "Bengasi-Barce"', lambda r: r["hexes"].append(sea))
    assert_reported(folder, "map", line_with(text, '"name": "Bengasi-Barce"'), "Bengasi-Barce")


def test_desert_rats_with_the_wrong_track_are_reported_on_their_block(tmp_path):
    folder = copy_pack(tmp_path)
    text = edit_line(
        folder, "units", '"id": "uk_7armd"', lambda b: b.update(track=[[1, "red"], [3, "red"]])
    )
    assert_reported(folder, "units", line_with(text, '"id": "uk_7armd"'), "L1127-1130")


def test_a_missing_turkish_unit_is_reported_on_the_roster(tmp_path):
    folder = copy_pack(tmp_path)
    path = folder / "units.json"
    lines = [
        ln for ln in path.read_text(encoding="utf-8").splitlines() if '"id": "tr_9c"' not in ln
    ]
    text = "\n".join(lines) + "\n"
    path.write_text(text, encoding="utf-8")
    assert_reported(folder, "units", line_with(text, '"blocks": ['), "12 Turkish blocks")


def test_clear_terrain_at_2_mp_is_reported_on_its_row(tmp_path):
    folder = copy_pack(tmp_path)
    text = edit_line(folder, "tables", '"clear": {', lambda row: row["clear"].update(mp=2))
    assert_reported(folder, "tables", line_with(text, '"clear": {'), "clear costs 1 MP")


def test_suez_dropped_from_the_indian_ocean_ports_is_reported(tmp_path):
    folder = copy_pack(tmp_path)
    path = folder / "strategic.json"
    text = path.read_text(encoding="utf-8").replace('"Aqaba", "Suez", ', '"Aqaba", ')
    path.write_text(text, encoding="utf-8")
    assert_reported(
        folder,
        "strategic",
        line_with(text, '"indian_ocean_ports"'),
        "Aqaba, Suez, Basra and Abadan",
    )


def test_tobruk_a_fortress_in_1941_is_reported_on_the_scenario(tmp_path):
    folder = copy_pack(tmp_path)
    path = folder / "scenarios.json"
    text = path.read_text(encoding="utf-8")
    start = text.index('"id": "BIA4"')
    fixed = text[:start] + text[start:].replace('"tobruk": "bunker"', '"tobruk": "fortress"', 1)
    path.write_text(fixed, encoding="utf-8")
    line = fixed[: fixed.index('"tobruk": "fortress"', start)].count("\n") + 1
    assert_reported(folder, "scenarios", line, "BIA4: Tobruk is a bunker")


def replace_in_scenario(folder: Path, sid: str, old: str, new: str) -> str:
    """Replace the first ``old`` after scenario ``sid`` opens; return the new text."""
    path = folder / "scenarios.json"
    text = path.read_text(encoding="utf-8")
    start = text.index(f'"id": "{sid}"')
    assert old in text[start:], old
    text = text[:start] + text[start:].replace(old, new, 1)
    path.write_text(text, encoding="utf-8")
    return text


def test_a_third_combat_unit_in_a_hex_is_reported_on_the_stacks_first_line(tmp_path, p):
    folder = copy_pack(tmp_path)
    alexandria, matruh = hex_of(p, "Alexandria").id, hex_of(p, "Mersa Matruh").id
    replace_in_scenario(
        folder,
        "BIA3",
        f'"unit": "uk_4ind", "hex": "{matruh}"',
        f'"unit": "uk_4ind", "hex": "{alexandria}"',
    )
    alamein = hex_of(p, "El Alamein").id
    text = replace_in_scenario(
        folder,
        "BIA3",
        f'"unit": "uk_7rtr", "hex": "{alamein}"',
        f'"unit": "uk_7rtr", "hex": "{alexandria}"',
    )
    first = line_with(text, f'"unit": "uk_4ind", "hex": "{alexandria}"')
    assert_reported(folder, "scenarios", first, "BIA3: 3 ground units (3 combat) of the allied")


def test_a_fleet_of_six_blocks_is_reported_on_the_fleet(tmp_path):
    folder = copy_pack(tmp_path)
    path = folder / "scenarios.json"
    text = path.read_text(encoding="utf-8")
    anchor = '"id": "uk_battle_fleet"'
    start = text.index('"id": "BIA8"')
    pos = text.index(anchor, start)
    text = text[:pos] + text[pos:].replace(
        '{"unit": "ukn_dd1", "steps": 4}',
        '{"unit": "ukn_dd1", "steps": 4}, {"unit": "ukn_ss", "steps": 2}',
        1,
    )
    path.write_text(text, encoding="utf-8")
    line = text[:pos].count("\n") + 1
    assert_reported(folder, "scenarios", line, "BIA8: fleet uk_battle_fleet has 6 blocks")


def test_a_malformed_hex_number_is_reported_by_the_loader(tmp_path):
    folder = copy_pack(tmp_path)
    text = edit_line(folder, "map", '"name": "Gazala"', lambda h: h.update(id="19I6"))
    found = problems(folder, "map")
    assert found and found[0][0] == line_with(text, '"id": "19I6"') and "four-digit" in found[0][1]


def test_a_file_that_is_not_json_is_reported_with_its_line(tmp_path):
    folder = copy_pack(tmp_path)
    path = folder / "tables.json"
    text = path.read_text(encoding="utf-8").replace('"red_arrow_mp": 3', '"red_arrow_mp": 3,,', 1)
    path.write_text(text, encoding="utf-8")
    found = problems(folder, "tables")
    assert (
        len(found) == 1
        and found[0][0] == line_with(text, '"red_arrow_mp"')
        and "not valid JSON" in found[0][1]
    )


def test_an_override_in_umpire_datapacks_is_what_check_reads(tmp_path, monkeypatch):
    folder = copy_pack(tmp_path)
    for name in ("map", "strategic", "units", "scenarios"):
        (folder / f"{name}.json").unlink()
    text = edit_line(folder, "tables", '"clear": {', lambda row: row["clear"].update(mp=2))
    monkeypatch.setenv("UMPIRE_DATAPACKS", str(tmp_path))
    found = [(Path(f), line, msg) for f, line, msg in pack.check()]
    assert (
        folder / "tables.json",
        line_with(text, '"clear": {'),
        "clear costs 1 MP (7.5.1, L1390-1395)",
    ) in found
    # the other four files are the shipped ones (the 2-MP desert now also breaks the DAK's
    # 4-MP drive from Bengasi to Bir Hackeim, reported on the shipped map)
    assert {f for f, _, _ in found} == {folder / "tables.json", DATA / "map.json"}


def test_italian_tech_3_fighters_moved_off_turn_65_are_reported_on_the_tech_table(tmp_path):
    folder = copy_pack(tmp_path)
    text = edit_line(
        folder, "tables", '"italy": {', lambda row: row["italy"]["fighter"].update({"3": 64})
    )
    assert_reported(folder, "tables", line_with(text, '"italy": {'), "turn 65 (3.16, L555)")


def test_nicosia_and_heraklion_eleven_hexes_apart_are_reported(tmp_path, p):
    folder = copy_pack(tmp_path)
    heraklion = hex_of(p, "Heraklion").id
    west = pack.neighbour(heraklion, "W")
    edit_line(folder, "map", '"name": "Heraklion"', lambda h: h.update(name="Heraklion (old)"))
    text = edit_line(
        folder,
        "map",
        f'"id": "{west}"',
        lambda h: h.update(
            name="Heraklion", locality="minor", port="minor", bodies=["mediterranean"]
        ),
    )
    assert_reported(
        folder, "map", line_with(text, '"name": "Heraklion"'), "the naval example says 10"
    )
