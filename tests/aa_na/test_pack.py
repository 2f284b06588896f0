"""The Axis & Allies: North Africa data pack: it loads, passes its own check, keeps every
fact the rulebook states (each test names its line ``L<n>`` of 000_6064d7d6e5e4d9cf.txt),
and its check catches broken copies with the file and line of each problem."""

from __future__ import annotations

import shutil
from collections import deque
from pathlib import Path

import pytest

from engine.games.aa_na import pack

DATA = Path(pack.__file__).parent / "data"
BOARD = pack.load_board()
UNITS = {u.id: u for u in pack.load_units().units}
SETUP = {sc.id: sc for sc in pack.load_setup().scenarios}
TABLES = pack.load_tables()
RLP, OT = SETUP["rlp"], SETUP["ot"]


def units_at(sc: pack.Scenario, space: str, power: str) -> dict[str, int]:
    return {p.unit: p.count for p in sc.placements if p.space == space and p.power == power}


def supply_at(sc: pack.Scenario, space: str) -> int:
    return sum(s.value for s in sc.supply if s.space == space)


def land_neighbours(space: str) -> set[str]:
    return {
        n
        for n in BOARD.neighbours(space)
        if BOARD.spaces[n].kind == "territory" and not BOARD.spaces[n].impassable
    }


def coast_road_steps(a: str, b: str) -> int | None:
    """Fewest moves from ``a`` to ``b`` along coast-road territories only."""
    ids = {s.id for s in BOARD.spaces.values() if s.coast_road and not s.impassable}
    seen = {a: 0}
    todo = deque([a])
    while todo:
        here = todo.popleft()
        for n in BOARD.neighbours(here):
            if n in ids and n not in seen:
                seen[n] = seen[here] + 1
                todo.append(n)
    return seen.get(b)


# ---------------------------------------------------------------- the pack loads


def test_every_file_loads_with_a_reconstruction_header() -> None:
    for loaded in (BOARD.pack, pack.load_units(), pack.load_setup(), TABLES):
        assert loaded.header.game == "aa-na"
        assert loaded.header.provenance == "reconstruction"
        assert loaded.header.sources


def test_the_shipped_pack_has_no_problem() -> None:
    assert pack.check() == []


def test_the_generator_reproduces_the_shipped_files() -> None:
    import importlib.util

    spec = importlib.util.spec_from_file_location(
        "aa_na_pack", Path(__file__).parents[2] / "tools" / "aa_na_pack.py"
    )
    assert spec and spec.loader
    tool = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tool)
    assert tool.main(["--check"]) == 0


def test_the_pack_is_small() -> None:
    assert sum(p.stat().st_size for p in DATA.glob("*.json")) < 2_000_000


def test_names_and_aliases_find_spaces() -> None:
    assert BOARD.find("Mersa Metruh").id == "mersa_matruh"  # L813 spelling
    assert BOARD.find("Algers").id == "algiers"  # L362 spelling
    assert BOARD.find("Sea Zone 31").id == "sz31"
    assert BOARD.find("Atlantic Ocean CSZ").id == "atlantic_ocean_csz"
    assert BOARD.find("Atlantis") is None


# ---------------------------------------------------------------- board facts

NAMED = sorted(pack.NAMED_PLACES.items())


@pytest.mark.parametrize(("space", "line"), NAMED, ids=[f"{v} {k}" for k, v in NAMED])
def test_every_place_the_rulebook_names_is_a_space(space: str, line: str) -> None:
    assert space in BOARD.spaces, line


BORDERS = [(a, b, line) for a, b, line in pack.REQUIRED_BORDERS]


@pytest.mark.parametrize(
    ("a", "b", "line"), BORDERS, ids=[f"{line} {a}-{b}" for a, b, line in BORDERS]
)
def test_borders_the_examples_use(a: str, b: str, line: str) -> None:
    assert BOARD.adjacent(a, b), line


def test_L813_mersa_matruh_retreat_leaves_tobruk_only() -> None:
    # Bir Hacheim was attacked by land, Siwa holds a UK scout car, and the UK's main
    # attack came from its side (El Alamein): Tobruk is the only way out
    options = land_neighbours("mersa_matruh") - {"bir_hacheim", "siwa", "el_alamein"}
    assert options == {"tobruk"}


def test_L773_el_oued_retreat_options_are_laghouat_and_kasserine() -> None:
    # the US infantry cannot enter the Sahara, so these two are the only choices
    no_sahara = {n for n in land_neighbours("el_oued") if not BOARD.spaces[n].sahara}
    assert no_sahara == {"laghouat", "kasserine_pass"}


def test_L865_siwa_is_not_sahara_so_a_scout_there_matters_for_retreat() -> None:
    assert not BOARD.spaces["siwa"].sahara


def test_L865_mersa_matruh_has_the_default_stacking_limit_8() -> None:
    assert BOARD.stacking_limit("mersa_matruh") == 8


def test_L491_default_stacking_limit_is_8() -> None:
    assert TABLES.limits["default_stacking_limit"] == 8


def test_L483_constantine_has_no_rp() -> None:
    assert BOARD.spaces["constantine"].rp == 0


def test_L483_mersa_matruh_has_no_rp() -> None:
    assert BOARD.spaces["mersa_matruh"].rp == 0


def test_L563_malta_gives_15_rp() -> None:
    assert BOARD.spaces["malta"].rp == 15


def test_L481_rp_values_run_1_to_15() -> None:
    assert {s.rp for s in BOARD.spaces.values() if s.rp} <= set(range(1, 16))


@pytest.mark.parametrize("space", pack.RP_TERRITORIES)
def test_L485_territories_the_text_controls_have_rp(space: str) -> None:
    assert BOARD.spaces[space].rp > 0


def test_L475_qattara_depression_is_impassable() -> None:
    assert BOARD.spaces["qattara_depression"].impassable


def test_L543_spanish_morocco_is_impassable_and_breaks_the_coast_road() -> None:
    road = BOARD.pack.coast_road
    i = road.index("spanish_morocco")
    assert BOARD.spaces["spanish_morocco"].impassable
    assert road[i - 1 : i + 2] == ["casablanca", "spanish_morocco", "oran"]
    assert coast_road_steps("casablanca", "oran") is None


def test_L539_the_coast_road_runs_from_morocco_to_egypt() -> None:
    road = BOARD.pack.coast_road
    assert BOARD.spaces[road[0]].region == "morocco"
    assert road[-1] == "cairo"


def test_L1324_tripoli_reaches_tunis_by_the_coast_road_in_one_move() -> None:
    assert coast_road_steps("tripoli", "tunis") <= TABLES.limits["coast_road_steps"]


def test_L547_the_sahara_is_beige_territories_along_the_bottom() -> None:
    # each Sahara territory lies south of the coast road at its longitude
    sahara = [s for s in BOARD.spaces.values() if s.sahara]
    road = [BOARD.spaces[t] for t in BOARD.pack.coast_road]
    assert sahara
    for s in sahara:
        nearest = min(road, key=lambda r: abs(r.lon - s.lon))
        assert s.lat < nearest.lat, s.id


def test_L475_italy_carries_the_italian_emblem() -> None:
    assert BOARD.spaces["italy"].permanent == "ita"


def test_L475_malta_carries_the_uk_emblem() -> None:
    assert BOARD.spaces["malta"].permanent == "uk"


def test_L503_italy_is_the_axis_staging_territory() -> None:
    assert sorted(BOARD.spaces["italy"].staging_for) == ["ger", "ita"]


def test_L503_gibraltar_is_the_uk_staging_territory() -> None:
    assert BOARD.spaces["gibraltar"].staging_for == ["uk"]


def test_L503_the_us_has_no_staging_territory() -> None:
    assert not any("us" in s.staging_for for s in BOARD.spaces.values())


def test_L533_gibraltar_counts_as_an_island() -> None:
    assert BOARD.spaces["gibraltar"].island
    assert land_neighbours("gibraltar") == set()


def test_L527_sicily_lies_between_sea_zones_11_and_16() -> None:
    assert {"sz11", "sz16"} <= BOARD.neighbours("sicily")
    assert {"sz11", "sz16"} <= BOARD.neighbours("italy")
    assert not BOARD.adjacent("italy", "sicily")


def test_L527_only_axis_sea_units_cross_the_strait_of_messina() -> None:
    (messina,) = BOARD.pack.passages
    assert set(messina.between) == {"sz11", "sz16"}
    assert messina.sea_units_of == "axis"


def test_L507_the_suez_canal_convoy_is_entered_from_the_indian_ocean_only() -> None:
    assert BOARD.pack.entry_only_from == {"suez_canal_csz": ["indian_ocean_csz"]}


def test_L513_no_other_power_enters_the_atlantic_ocean_convoy() -> None:
    assert BOARD.pack.closed_except["atlantic_ocean_csz"] == ["uk"]


def test_L515_uk_route_runs_atlantic_indian_suez_to_cairo() -> None:
    convoys = {c.id: c for c in BOARD.pack.convoys}
    assert convoys["atlantic_ocean_csz"].next == "indian_ocean_csz"
    assert convoys["indian_ocean_csz"].next == "suez_canal_csz"
    assert convoys["suez_canal_csz"].port == "cairo"


@pytest.mark.parametrize(("port", "emblems"), sorted(pack.PORT_EMBLEMS.items()))
def test_L515_each_port_has_its_convoy_with_its_emblems(port: str, emblems: set[str]) -> None:
    (route,) = [c for c in BOARD.pack.convoys if c.port == port]
    assert set(route.emblems) == emblems and BOARD.adjacent(route.id, port)


def test_L572_germany_deploys_sea_units_in_sea_zone_1() -> None:
    assert BOARD.pack.sea_deploy_zones["ger"] == ["sz1"]


def test_L511_the_uk_has_two_sea_deployment_zones_the_others_one() -> None:
    zones = BOARD.pack.sea_deploy_zones
    assert len(zones["uk"]) == 2 and len(zones["ita"]) == 1 and len(zones["us"]) == 1


def test_L579_the_naval_base_is_sea_zone_31_north_of_the_suez_canal() -> None:
    assert BOARD.pack.naval_base == "sz31"
    assert BOARD.adjacent("sz31", "suez_canal_csz")
    assert BOARD.spaces["sz31"].lat > BOARD.spaces["suez_canal_csz"].lat


def test_L589_axis_lay_no_sea_mines_off_suez_or_on_the_uk_route() -> None:
    assert set(BOARD.pack.no_axis_sea_mines) == {
        "sz31",
        "atlantic_ocean_csz",
        "indian_ocean_csz",
        "suez_canal_csz",
    }


def test_L936_axis_deploy_directly_to_sicily_sardinia_and_crete() -> None:
    assert sorted(BOARD.pack.axis_island_deploy) == ["crete", "sardinia", "sicily"]


def test_L495_tobruk_bonus_applies_against_every_attack() -> None:
    assert BOARD.spaces["tobruk"].defensive_bonus.against == "all"


def test_L495_mareth_bonus_applies_against_attacks_from_tripoli() -> None:
    assert BOARD.spaces["mareth"].defensive_bonus.against == "from:tripoli"


def test_L477_the_white_line_puts_tunisia_west_and_libya_east() -> None:
    assert BOARD.spaces["mareth"].mat and BOARD.spaces["tunis"].mat
    assert not BOARD.spaces["tripoli"].mat


def test_L579_there_are_at_least_31_numbered_sea_zones() -> None:
    numbers = sorted(s.number for s in BOARD.spaces.values() if s.number)
    assert numbers == list(range(1, len(numbers) + 1)) and len(numbers) >= 31


# ---------------------------------------------------------------- units facts

UK_CHART = {  # L320-330 as printed: cost, ATK, DEF, MOV
    "uk.infantry": (3, 2, 3, 1),
    "uk.artillery": (4, 3, 3, 1),
    "uk.anti_tank_gun": (4, 2, 3, 1),
    "uk.aaa": (3, None, None, 1),
    "uk.scout_car": (4, 2, 1, 4),
    "uk.tank": (5, 4, 5, 1),
    "uk.sherman": (None, 5, 4, 2),
    "uk.truck": (2, None, None, 2),
    "uk.fighter": (10, 4, 5, 4),
    "uk.bomber": (10, 6, 1, 6),
    "uk.destroyer": (8, 4, 4, 4),
    "uk.submarine": (6, 4, 2, 4),
}


@pytest.mark.parametrize(("uid", "row"), sorted(UK_CHART.items()))
def test_L317_330_uk_chart_as_printed(uid: str, row: tuple) -> None:
    u = UNITS[uid]
    assert (u.cost, u.attack, u.defense, u.movement) == row


@pytest.mark.parametrize(
    ("power", "utype", "count"),
    [(p, t, n) for p, types in sorted(pack.PIECES.items()) for t, n in sorted(types.items())],
)
def test_L119_177_pieces_per_power(power: str, utype: str, count: int) -> None:
    have = sum(
        u.pieces
        for u in UNITS.values()
        if u.power == power and u.type == utype and u.optional is None
    )
    assert have == count


def test_L115_254_miniatures_of_which_226_are_in_the_charts() -> None:
    assert pack.pieces_in_box(pack.load_units()) == 226
    assert TABLES.components["miniatures"] == 254


def test_L565_supply_is_capped_at_5_a_turn_and_10_for_the_us() -> None:
    assert (TABLES.limits["supply_per_turn"], TABLES.limits["supply_per_turn_us"]) == (5, 10)


def test_L319_589_587_item_costs() -> None:
    costs = {it.id: it.cost for it in pack.load_units().items}
    assert costs == {"supply": 1, "sea_mine": 2, "land_mine": 1}


def test_L567_the_uk_cannot_requisition_shermans() -> None:
    assert UNITS["uk.sherman"].cost is None
    assert "Cannot Be Requisitioned" in UNITS["uk.sherman"].characteristics


def test_L1109_1115_mechanized_infantry_abilities() -> None:
    assert {"Blitz", "Coast Road Movement", "Supported by Artillery"} <= set(
        UNITS["ger.mech_infantry"].characteristics
    )


def test_L1135_the_german_88_has_air_defense_the_uk_6_pounder_not() -> None:
    assert "Air Defense" in UNITS["ger.anti_tank_gun"].characteristics
    assert "Air Defense" not in UNITS["uk.anti_tank_gun"].characteristics


def test_L1233_fighters_have_no_characteristics() -> None:
    assert all(not u.characteristics for u in UNITS.values() if u.type == "fighter")


def test_L1243_every_bomber_has_collateral_damage() -> None:
    assert all(
        "Collateral Damage" in u.characteristics for u in UNITS.values() if u.type == "bomber"
    )


def test_L1101_1197_french_units_are_self_sufficient() -> None:
    assert all("Self-Sufficient" in u.characteristics for u in UNITS.values() if u.power == "fra")


def test_L1215_trucks_are_not_combat_units() -> None:
    assert all(not u.combat for u in UNITS.values() if u.type == "truck")


def test_L1265_battleships_take_two_hits() -> None:
    assert UNITS["uk.battleship"].hits == 2


def test_L1393_1401_the_optional_tiger() -> None:
    tiger = UNITS["ger.tiger"]
    assert (tiger.cost, tiger.attack, tiger.defense, tiger.movement) == (9, 6, 7, 2)
    assert "Blitz" in tiger.characteristics
    assert "Coast Road Movement" not in tiger.characteristics
    assert tiger.optional


def test_L1195_every_other_tank_has_coast_road_movement() -> None:
    tanks = [u for u in UNITS.values() if u.type == "tank" and u.id != "ger.tiger"]
    assert all("Coast Road Movement" in u.characteristics for u in tanks)


def test_L325_the_matilda_has_no_blitz() -> None:
    assert "Blitz" not in UNITS["uk.tank"].characteristics


# ---------------------------------------------------------------- tables facts


def test_L273_sides() -> None:
    sides = {p.id: p.side for p in TABLES.powers}
    assert (sides["ger"], sides["ita"], sides["uk"], sides["us"]) == (
        "axis",
        "axis",
        "allies",
        "allies",
    )


def test_L246_L1018_germany_before_the_uk_and_the_us_last() -> None:
    order = {p.id: p.turn_order for p in TABLES.powers if p.takes_turns}
    assert order["ger"] < order["uk"] and order["us"] == max(order.values())


def test_L1067_france_never_takes_a_turn() -> None:
    assert not next(p for p in TABLES.powers if p.id == "fra").takes_turns


def test_L283_two_players_split_by_side() -> None:
    assert TABLES.players["2"] == [["ger", "ita", "vichy"], ["uk", "us", "free_french"]]


def test_L289_three_players() -> None:
    assert TABLES.players["3"] == [["ger", "vichy"], ["ita"], ["uk", "us", "free_french"]]


def test_L295_four_players() -> None:
    assert TABLES.players["4"] == [["ger", "vichy"], ["ita"], ["uk"], ["us", "free_french"]]


def test_L96_109_components() -> None:
    c = TABLES.components
    assert (c["supply_1"], c["supply_5"], c["land_mines"]) == (40, 15, 20)
    assert (c["sea_mines_allied"], c["sea_mines_axis"], c["national_control_markers"]) == (6, 9, 48)
    assert (c["chips_grey"], c["chips_green"], c["die_sides"]) == (50, 15, 10)


def test_L438_the_round_track_runs_1_to_14() -> None:
    assert TABLES.round_track == list(range(1, 15))


# ---------------------------------------------------------------- scenario facts


def test_L244_rlp_starts_in_round_1_and_skips_the_us_to_round_6() -> None:
    assert RLP.first_round == 1
    assert sorted((t.round, t.power) for t in RLP.skipped_turns) == [(r, "us") for r in range(1, 7)]


def test_L246_ot_starts_in_round_7_without_germany() -> None:
    assert OT.first_round == 7
    assert [(t.round, t.power) for t in OT.skipped_turns] == [(7, "ger")]


def test_L355_rlp_germany_in_tripoli() -> None:
    assert units_at(RLP, "tripoli", "ger") == {
        "ger.mech_infantry": 1,
        "ger.fighter": 1,
        "ger.bomber": 1,
    }


def test_L356_rlp_germany_in_sicily_has_a_bomber() -> None:
    assert units_at(RLP, "sicily", "ger").get("ger.bomber") == 1


def test_L383_rlp_uk_in_cairo() -> None:
    assert units_at(RLP, "cairo", "uk") == {
        "uk.infantry": 1,
        "uk.anti_tank_gun": 1,
        "uk.aaa": 1,
        "uk.fighter": 1,
    }
    assert supply_at(RLP, "cairo") == 5


def test_L383_rlp_three_land_mines_on_the_mersa_matruh_border() -> None:
    (mines,) = RLP.land_mines
    assert mines.facing == "mersa_matruh" and sum(mines.tokens) == 3
    assert BOARD.adjacent(mines.territory, "mersa_matruh")


def test_L386_rlp_italy_in_tripoli() -> None:
    assert units_at(RLP, "tripoli", "ita") == {"ita.infantry": 2, "ita.truck": 1}
    assert supply_at(RLP, "tripoli") == 3
    assert RLP.control["tripoli"] == "ita"


def test_L1322_rlp_tripoli_is_the_only_axis_convoy_at_the_start() -> None:
    assert RLP.convoy_markers == {"tripoli_csz": ["ger", "ita"]}
    assert RLP.control.get("benghazi") not in ("ger", "ita")


def test_L1324_rlp_no_axis_units_in_tunisia_at_the_start() -> None:
    tunisia = {s.id for s in BOARD.spaces.values() if s.region == "tunisia"}
    assert not [p for p in RLP.placements if p.space in tunisia and p.power in ("ger", "ita")]


def test_L1324_ot_axis_have_free_units_in_tunisia() -> None:
    tunisia = {s.id for s in BOARD.spaces.values() if s.region == "tunisia"}
    assert [p for p in OT.placements if p.space in tunisia and p.power in ("ger", "ita")]


def test_L1328_L1340_ot_axis_hold_tobruk_and_benghazi() -> None:
    assert RLP.control["tobruk"] == "uk"
    assert {OT.control["tobruk"], OT.control["benghazi"]} <= {"ger", "ita"}


def test_L423_rlp_each_axis_power_sets_a_truck_aside() -> None:
    assert sorted((a.unit, a.count) for a in RLP.set_aside) == [("ger.truck", 1), ("ita.truck", 1)]


def test_L1336_rlp_uk_variable_reinforcements_are_12_rp_in_each_route_zone() -> None:
    assert RLP.uk_variable_reinforcements == {
        "atlantic_ocean_csz": 12,
        "indian_ocean_csz": 12,
        "suez_canal_csz": 12,
    }


def test_L1014_rlp_round_4_shermans_reach_the_atlantic_convoy() -> None:
    (event,) = [e for e in RLP.events if e.round == 4]
    assert (event.power, event.phase) == ("uk", 6)
    assert [(u.space, u.unit, u.count) for u in event.units] == [
        ("atlantic_ocean_csz", "uk.sherman", 2)
    ]


def test_L1020_1028_rlp_round_7_events() -> None:
    events = [e for e in RLP.events if e.round == 7]
    assert all(e.phase == 0 for e in events)
    control = {k: v for e in events for k, v in e.control.items()}
    assert control == {"tunis": "ger", "kasserine_pass": "ger", "mareth": "ita"}
    markers = {k: v for e in events for k, v in e.convoy_markers.items()}
    assert markers == {"tunis_csz": ["ger", "ita"]}
    supply = {s.space: s.value for e in events for s in e.supply}
    assert supply == {"tunis": 3, "casablanca": 4, "oran": 4, "algiers": 5}
    landed = sorted(
        (u.power, u.space, u.count) for e in events if e.kind == "place_units" for u in e.units
    )
    assert landed == [
        ("uk", "algiers", 3),
        ("us", "algiers", 3),
        ("us", "casablanca", 5),
        ("us", "oran", 5),
    ]


def test_L1006_L1030_L1042_rlp_entry_into_morocco_algeria_tunisia() -> None:
    sides = {r: set(m.sides) for m in RLP.mat_entry for r in range(m.from_round, m.to_round + 1)}
    assert sides[1] == sides[6] == set()
    assert sides[7] == {"allies"}
    assert sides[8] == sides[14] == {"axis", "allies"}


def test_L1046_ot_entry_is_open_to_everyone() -> None:
    assert [set(m.sides) for m in OT.mat_entry] == [{"axis", "allies"}]


def test_L1048_ot_uk_shermans_start_in_the_suez_canal_convoy() -> None:
    assert units_at(OT, "suez_canal_csz", "uk") == {"uk.sherman": 2}


def test_L405_408_ot_torch_landings() -> None:
    assert units_at(OT, "casablanca", "us") == {"us.infantry": 5}
    assert units_at(OT, "oran", "us") == {"us.infantry": 5}
    assert units_at(OT, "algiers", "us") == {"us.infantry": 3}
    assert units_at(OT, "algiers", "uk") == {"uk.infantry": 3}
    assert [supply_at(OT, t) for t in ("casablanca", "oran", "algiers")] == [4, 4, 5]
    assert sorted(a.target for a in OT.declared_attacks) == ["algiers", "casablanca", "oran"]


def test_L1037_the_us_takes_algiers_if_the_joint_attack_wins() -> None:
    (algiers,) = [a for a in OT.declared_attacks if a.target == "algiers"]
    assert sorted(algiers.powers) == ["uk", "us"] and algiers.controller_if_won == "us"


def test_L174_177_vichy_garrisons_use_the_french_pieces() -> None:
    for sc in (RLP, OT):
        infantry = sum(p.count for p in sc.placements if p.unit == "fra.infantry")
        tanks = sum(p.count for p in sc.placements if p.unit == "fra.tank")
        assert (infantry, tanks) == (7, 4)


def test_L250_capture_of_the_capitals_wins_at_once() -> None:
    for sc in (RLP, OT):
        assert sc.victory.instant["axis"].capture == "cairo"
        assert sc.victory.instant["allies"].capture == "tunis"


def levels(sc: pack.Scenario) -> dict[tuple[str, str], list[str]]:
    return {(lv.side, lv.level): sorted(lv.control) for lv in sc.victory.levels if lv.control}


def test_L255_257_rlp_victory_chart() -> None:
    assert levels(RLP) == {
        ("axis", "major"): ["mareth", "tobruk"],
        ("axis", "minor"): ["algiers", "tripoli"],
        ("allies", "major"): ["tobruk", "tripoli"],
        ("allies", "minor"): ["mareth"],
    }


def test_L255_257_ot_victory_chart() -> None:
    assert levels(OT) == {
        ("axis", "total"): ["benghazi"],
        ("axis", "major"): ["mareth", "tripoli"],
        ("axis", "minor"): ["algiers", "tripoli"],
        ("allies", "major"): ["benghazi", "tripoli"],
        ("allies", "minor"): ["benghazi", "mareth"],
    }


def test_L257_axis_minor_is_tripoli_and_or_algiers() -> None:
    for sc in (RLP, OT):
        (minor,) = [lv for lv in sc.victory.levels if (lv.side, lv.level) == ("axis", "minor")]
        assert minor.any


def test_L1425_1435_strategic_reserves() -> None:
    assert RLP.strategic_reserve == {"axis": 4, "allies": 9}
    assert OT.strategic_reserve == {"axis": 6, "allies": 4}


# ---------------------------------------------------------------- check() on broken copies


@pytest.fixture
def copy(tmp_path: Path) -> Path:
    for f in DATA.glob("*.json"):
        shutil.copy(f, tmp_path / f.name)
    return tmp_path


def mutate(folder: Path, name: str, old: str, new: str) -> int:
    """Replace the first ``old`` in ``name``.json; the line of the change."""
    path = folder / f"{name}.json"
    text = path.read_text(encoding="utf-8")
    assert old in text, old
    at = text.index(old)
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return text.count("\n", 0, at) + 1


def problems_at(folder: Path, name: str) -> list[tuple[int | None, str]]:
    file = str(folder / f"{name}.json")
    return [(line, message) for f, line, message in pack.check(folder) if f == file]


def assert_reported(folder: Path, name: str, line: int | None, words: str) -> None:
    found = problems_at(folder, name)
    assert any(at == line and words in message for at, message in found), found


def test_a_clean_copy_has_no_problem(copy: Path) -> None:
    assert pack.check(copy) == []


def test_a_border_to_a_missing_space(copy: Path) -> None:
    line = mutate(copy, "board", '["bir_hacheim", "siwa"]', '["bir_hacheim", "siwah"]')
    assert_reported(copy, "board", line, "no space called 'siwah'")


def test_a_wrong_malta_rp(copy: Path) -> None:
    line = mutate(copy, "board", '"rp": 15', '"rp": 14')
    assert_reported(copy, "board", line, "malta has RP 15")


def test_a_lost_rulebook_border(copy: Path) -> None:
    mutate(copy, "board", '["mareth", "tripoli"]', '["mareth", "misurata"]')
    text = (copy / "board.json").read_text(encoding="utf-8").splitlines()
    tripoli = next(i for i, row in enumerate(text, 1) if '{"id": "tripoli"' in row)
    road = next(i for i, row in enumerate(text, 1) if '"coast_road": [' in row)
    assert_reported(copy, "board", tripoli, "tripoli borders mareth (L495)")
    # the coast road chain breaks there too
    assert_reported(copy, "board", road, "mareth and tripoli do not share a border")


def test_a_second_entry_into_suez(copy: Path) -> None:
    line = mutate(
        copy, "board", '"suez_canal_csz": ["indian_ocean_csz"]', '"suez_canal_csz": ["sz31"]'
    )
    assert_reported(copy, "board", line - 1, "entered from the Indian Ocean")


def test_an_extra_fighter_piece(copy: Path) -> None:
    line = mutate(
        copy,
        "units",
        '"name": "Spitfire", "kind": "air", "cost": 10, "attack": 4, '
        '"defense": 5, "movement": 4, "hits": 1, "combat": true, "pieces": 6',
        '"name": "Spitfire", "kind": "air", "cost": 10, "attack": 4, '
        '"defense": 5, "movement": 4, "hits": 1, "combat": true, "pieces": 7',
    )
    assert_reported(copy, "units", line, "uk has 6 fighter pieces")


def test_an_attack_value_off_the_die(copy: Path) -> None:
    line = mutate(copy, "units", '"attack": 6, "defense": 7', '"attack": 11, "defense": 7')
    assert_reported(copy, "units", line, "less than or equal to 10")


def test_a_tank_in_the_sahara(copy: Path) -> None:
    old = '{"power": "ger", "space": "el_agheila", "unit": "ger.tank", "count": 3}'
    line = mutate(copy, "setup", old, old.replace("el_agheila", "fezzan"))
    assert_reported(copy, "setup", line, "only scout cars enter the Sahara")


def test_an_overstacked_territory(copy: Path) -> None:
    old = '{"power": "ger", "space": "el_agheila", "unit": "ger.tank", "count": 3}'
    mutate(copy, "setup", old, old.replace('"count": 3', '"count": 6'))
    text = (copy / "setup.json").read_text(encoding="utf-8").splitlines()
    first = next(i for i, row in enumerate(text, 1) if '"space": "el_agheila"' in row)
    assert_reported(copy, "setup", first, "exceed its stacking limit 8")


def test_a_control_marker_on_a_territory_without_rp(copy: Path) -> None:
    line = mutate(copy, "setup", '"tobruk": "uk"', '"agedabia": "uk"')
    assert_reported(copy, "setup", line, "has no RP value and cannot be controlled")


def test_too_many_supply_tokens_in_the_box(copy: Path) -> None:
    line = mutate(copy, "tables", '"supply_1": 40', '"supply_1": 45')
    assert_reported(copy, "tables", line, "the box holds 40 supply_1")


def test_a_file_that_is_not_json(copy: Path) -> None:
    line = mutate(copy, "tables", '"supply_5": 15,', '"supply_5": 15')
    found = problems_at(copy, "tables")
    assert len(found) == 1 and "not valid JSON" in found[0][1]
    assert found[0][0] in (line, line + 1)


def test_every_reference_broken_gives_sentences_not_a_traceback(copy: Path) -> None:
    # the scenarios now name a space the board does not have, everywhere
    path = copy / "setup.json"
    path.write_text(path.read_text(encoding="utf-8").replace("tripoli", "tripolis"))
    found = pack.check(copy)
    assert len(found) > 10
    assert all(isinstance(line, int) and message for _file, line, message in found)


def test_a_missing_file(copy: Path) -> None:
    (copy / "units.json").unlink()
    found = problems_at(copy, "units")
    assert found == [(None, "cannot read the file: No such file or directory")]


def test_the_override_folder_is_checked(copy: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    override = copy / "override" / "aa-na"
    override.mkdir(parents=True)
    shutil.copy(copy / "board.json", override / "board.json")
    line = mutate(override, "board", '"rp": 15', '"rp": 14')
    monkeypatch.setenv("UMPIRE_DATAPACKS", str(copy / "override"))
    problems = pack.check()
    assert (str(override / "board.json"), line, "malta has RP 15 (L483, L563)") in problems
