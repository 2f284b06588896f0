"""The Revised data pack against the rulebook's facts (Revised: setup, Spaces on the Game
Board, Canals, FAQ: Map, Appendix 1)."""

from __future__ import annotations

import json
import shutil
from collections import Counter, deque
from pathlib import Path

import pytest

from engine.core.datapack import load_file
from engine.core.errors import DataPackError
from engine.games.aa_revised import pack

DATA = Path(pack.__file__).parent / "data"


@pytest.fixture(scope="module")
def board() -> pack.Board:
    return pack.load_board()


@pytest.fixture(scope="module")
def tables() -> pack.TablesPack:
    return pack.load_tables()


def reachable(board: pack.Board, start: str, allowed) -> set[str]:
    seen = {start}
    todo = deque([start])
    while todo:
        here = todo.popleft()
        for nb in board.neighbours(here):
            if nb not in seen and allowed(board.spaces[nb]):
                seen.add(nb)
                todo.append(nb)
    return seen


def test_each_file_names_the_game_and_its_provenance():
    headers = {
        "board": pack.load_board().pack.header,
        "setup": pack.load_setup().header,
        "units": pack.load_units().header,
        "tables": pack.load_tables().header,
    }
    for name, header in headers.items():
        assert header.game == "aa-revised"
        assert header.name == name
    assert headers["board"].provenance == "public-data"
    assert headers["setup"].provenance == "public-data"
    assert headers["units"].provenance == "rulebook"
    assert headers["tables"].provenance == "rulebook"


def test_starting_ipcs_are_the_rulebooks(tables):
    """Revised: IPCs table: USSR 24, Germany 40, UK 30, Japan 30, USA 42."""
    printed = {"ussr": 24, "germany": 40, "uk": 30, "japan": 30, "usa": 42}
    assert {p.id: p.starting_ipcs for p in tables.powers} == printed


def test_territory_values_add_up_to_each_powers_starting_income(board, tables):
    """Revised: the starting national production equals the circled numbers of the
    territories a power controls, and equals its starting IPCs."""
    income = Counter()
    for s in board.land():
        if s.original_owner:
            income[s.original_owner] += s.ipc
    assert dict(income) == {p.id: p.starting_ipcs for p in tables.powers}


def test_turn_order_and_sides_follow_the_rulebook(tables):
    """Revised: Order of Play (USSR, Germany, UK, Japan, USA); sides as in the intro."""
    ordered = [p.id for p in sorted(tables.powers, key=lambda p: p.turn_order)]
    assert ordered == ["ussr", "germany", "uk", "japan", "usa"]
    assert {p.id for p in tables.powers if p.side == "axis"} == {"germany", "japan"}


def test_board_without_neutrals_is_one_connected_graph(board):
    """Every passable space can be reached from every other (sea lanes included)."""
    passable = [s.id for s in board.pack.spaces if not s.impassable]
    seen = reachable(board, "germany", lambda s: not s.impassable)
    assert set(passable) == seen


def test_land_masses_are_separate_where_the_board_has_oceans(board):
    """Land moves only along land borders: the Americas, Eurasia-Africa and Australia
    are apart; Japan and the United Kingdom have no land neighbours (FAQ: Map)."""

    def land(s: pack.Space) -> bool:
        return s.kind == "land" and not s.impassable

    americas = reachable(board, "eastern_united_states", land)
    eurasia = reachable(board, "germany", land)
    assert {"alaska", "panama", "mexico", "eastern_canada"} <= americas
    # Brazil touches only neutrals by land (Venezuela, Peru, Argentina)
    assert reachable(board, "brazil", land) == {"brazil"}
    assert {"russia", "india", "union_of_south_africa", "china", "anglo_egypt"} <= eurasia
    assert not americas & eurasia
    assert "australia" not in eurasia | americas
    assert reachable(board, "japan", land) == {"japan"}
    assert reachable(board, "united_kingdom", land) == {"united_kingdom"}


def test_the_pacific_is_one_ocean_across_the_board_edge(board):
    """Revised: Spaces on the Game Board, the board wraps around horizontally, so the
    Pacific zones by Japan reach the American west coast without crossing another
    ocean (zones 45-64 are the Pacific)."""
    pacific = reachable(board, "sz60", lambda s: s.kind == "sea" and s.number >= 45)
    west_coast = {"western_united_states", "alaska", "mexico", "western_canada"}
    assert any(board.neighbours(z) & west_coast for z in pacific)


def test_map_facts_from_the_faq(board):
    """FAQ: Map."""
    assert not board.adjacent("sz14", "balkans")
    assert not board.adjacent("sz35", "french_indochina")
    assert board.adjacent("sz40", "sz39") and board.adjacent("sz40", "sz41")
    assert board.spaces["gibraltar"].original_owner == "uk"
    assert board.spaces["gibraltar"].ipc == 0
    for free_french in ("french_west_africa", "french_equatorial_africa", "belgian_congo"):
        assert board.spaces[free_french].original_owner == "uk"
    assert board.adjacent("anglo_egypt", "trans_jordan")  # the canal never blocks land


def test_canals_join_the_rulebooks_sea_zones_and_name_their_controllers(board):
    """Revised: Canals. Panama joins 19 and 20 and is held with Panama; Suez joins 15
    and 34 and is held with both Anglo-Egypt and Trans-Jordan."""
    canals = {c.id: c for c in board.pack.canals}
    assert set(canals) == {"panama", "suez"}
    assert set(canals["panama"].sea_zones) == {"sz19", "sz20"}
    assert canals["panama"].controlled_by == ["panama"]
    assert set(canals["suez"].sea_zones) == {"sz15", "sz34"}
    assert set(canals["suez"].controlled_by) == {"anglo_egypt", "trans_jordan"}
    for c in canals.values():
        assert board.adjacent(*c.sea_zones)
    strait = board.pack.straits[0]
    assert set(strait.sea_zones) == {"sz12", "sz13"}
    assert board.adjacent("sz13", "gibraltar") and board.adjacent("sz12", "algeria")


def test_neutral_territories_are_unowned_and_worth_nothing(board):
    """Revised: Neutral Territories (e.g. Turkey, Mongolia, Sahara)."""
    neutrals = {s.id for s in board.land() if s.impassable}
    assert {"turkey", "mongolia", "sahara", "spain", "sweden", "switzerland"} <= neutrals
    for sid in neutrals:
        s = board.spaces[sid]
        assert s.original_owner is None and s.ipc == 0 and not s.industrial_complex
    passable_land = [s for s in board.land() if not s.impassable]
    assert all(s.original_owner for s in passable_land)


def test_islands_lie_in_one_sea_zone_and_the_big_islands_are_not_islands(board):
    """Revised: Islands; FAQ: Japan, the United Kingdom and Australia are not islands."""
    for s in board.land():
        if s.island:
            nbs = board.neighbours(s.id)
            assert len(nbs) == 1 and board.spaces[next(iter(nbs))].kind == "sea"
    for big in ("japan", "united_kingdom", "australia"):
        assert not board.spaces[big].island
    assert board.spaces["hawaiian_islands"].island
    assert board.spaces["philippine_islands"].island


def test_capitals_are_the_rulebooks_five(board):
    """Revised: Capturing and Liberating Capitals: Washington, Moscow, London, Berlin,
    Tokyo."""
    capitals = {s.victory_city: s.capital_of for s in board.land() if s.capital_of}
    assert capitals == {
        "Washington": "usa",
        "Moscow": "ussr",
        "London": "uk",
        "Berlin": "germany",
        "Tokyo": "japan",
    }
    for s in board.land():
        if s.capital_of:
            assert s.original_owner == s.capital_of


def test_victory_cities_start_six_and_six_as_the_rulebook_says(board, tables):
    """Revised: How the War Is Won: the Allies start with Washington, London, Leningrad,
    Moscow, Calcutta and Los Angeles; the Axis with Berlin, Paris, Rome, Shanghai,
    Manila and Tokyo."""
    side = {p.id: p.side for p in tables.powers}
    held = {s.victory_city: side[s.original_owner] for s in board.land() if s.victory_city}
    allies = {"Washington", "London", "Leningrad", "Moscow", "Calcutta", "Los Angeles"}
    axis = {"Berlin", "Paris", "Rome", "Shanghai", "Manila", "Tokyo"}
    assert {c for c, s in held.items() if s == "allies"} == allies
    assert {c for c, s in held.items() if s == "axis"} == axis
    assert tables.victory_cities == held
    assert board.find("Calcutta").ipc == 3  # Revised: Example of Combat, India is worth 3
    assert [v.cities for v in tables.victory_levels] == [8, 10, 12]


def test_industrial_complexes_stand_in_owned_territories_with_income(board):
    """Revised: Industrial Complexes; every capital starts with one."""
    for s in board.land():
        if s.industrial_complex:
            assert s.original_owner and s.ipc >= 1
        if s.capital_of:
            assert s.industrial_complex


def test_every_placement_is_on_an_existing_space_of_a_legal_kind():
    problems = pack.pack_problems(
        pack.load_board().pack, pack.load_setup(), pack.load_units(), pack.load_tables()
    )
    assert problems == []


def test_the_checker_reports_a_ship_placed_on_land():
    setup = pack.load_setup().model_copy(deep=True)
    setup.placements.append(
        pack.Placement(power="germany", space="germany", unit="battleship", count=1)
    )
    problems = pack.pack_problems(
        pack.load_board().pack, setup, pack.load_units(), pack.load_tables()
    )
    assert problems == ["setup: 1 battleship of germany in germany: ships start only in sea zones"]


def test_fighters_at_sea_fit_on_their_powers_carriers():
    """Revised: Aircraft Carriers carry up to two fighters."""
    units = {u.id: u for u in pack.load_units().units}
    at_sea: Counter = Counter()
    decks: Counter = Counter()
    board = pack.load_board()
    for p in pack.load_setup().placements:
        if board.spaces[p.space].kind != "sea":
            continue
        if units[p.unit].kind == "air":
            assert p.unit == "fighter"
            at_sea[(p.power, p.space)] += p.count
        decks[(p.power, p.space)] += p.count * units[p.unit].carrier_capacity
    assert at_sea
    for where, n in at_sea.items():
        assert n <= decks[where], where


def test_germany_starts_with_three_infantry_in_germany():
    """Revised: Combat Forces, the example of Germany's reference chart."""
    placed = [
        p.count
        for p in pack.load_setup().placements
        if (p.power, p.space, p.unit) == ("germany", "germany", "infantry")
    ]
    assert placed == [3]


def test_unit_table_matches_appendix_1():
    """Revised: Appendix 1, Unit Profiles (cost, attack, defense, move)."""
    printed = {
        "infantry": (3, 1, 2, 1),
        "artillery": (4, 2, 2, 1),
        "tank": (5, 3, 3, 2),
        "aa_gun": (5, None, 1, 1),
        "industrial_complex": (15, None, None, 0),
        "fighter": (10, 3, 4, 4),
        "bomber": (15, 4, 1, 6),
        "battleship": (24, 4, 4, 2),
        "destroyer": (12, 3, 3, 2),
        "carrier": (16, 1, 3, 2),
        "transport": (8, 0, 1, 2),
        "submarine": (8, 2, 2, 2),
    }
    units = {u.id: (u.cost, u.attack, u.defense, u.movement) for u in pack.load_units().units}
    assert units == printed
    by_id = {u.id: u for u in pack.load_units().units}
    assert by_id["battleship"].hit_points == 2
    assert by_id["carrier"].carrier_capacity == 2
    # one land unit plus one infantry: 2 infantry fit, 2 tanks do not
    cap = by_id["transport"].transport_capacity
    assert 2 * by_id["infantry"].transport_cost <= cap
    assert by_id["tank"].transport_cost + by_id["infantry"].transport_cost <= cap
    assert 2 * by_id["tank"].transport_cost > cap


def test_weapons_developments_match_their_die_numbers(tables):
    """Revised: Phase 1, Develop Weapons, the chart numbered 1-6."""
    assert [(t.die, t.id) for t in sorted(tables.techs, key=lambda t: t.die)] == [
        (1, "jet_fighters"),
        (2, "rockets"),
        (3, "super_submarines"),
        (4, "long_range_aircraft"),
        (5, "combined_bombardment"),
        (6, "heavy_bombers"),
    ]
    assert tables.research_die_cost == 5


def test_names_resolve_with_the_rulebooks_and_triplea_spellings(board):
    assert board.find("Kwantung") is board.find("Kwangtung")
    assert board.find("Philipine Islands").id == "philippine_islands"
    assert board.find("England").id == "united_kingdom"
    assert board.find("15 Sea Zone").id == "sz15"
    assert board.find("Narnia") is None


def test_a_broken_replacement_pack_is_reported_with_its_line(tmp_path, monkeypatch):
    """A transcribed pack that names a space that does not exist fails on load, naming
    the line (ARCHITECTURE: Data packs)."""
    game_dir = tmp_path / "aa-revised"
    game_dir.mkdir()
    text = (DATA / "board.json").read_text()
    broken = text.replace('["alaska", "sz63"]', '["alaska", "sz99"]', 1)
    assert broken != text
    (game_dir / "board.json").write_text(broken)
    with pytest.raises(DataPackError) as err:
        load_file(game_dir / "board.json", pack.BoardPack)
    assert "sz99" in str(err.value)
    monkeypatch.setenv("UMPIRE_DATAPACKS", str(tmp_path))
    shutil.copy(DATA / "units.json", game_dir / "units.json")
    units = json.loads((game_dir / "units.json").read_text())
    units["units"][0]["flags"].append("flies")
    (game_dir / "units.json").write_text(json.dumps(units, indent=1))
    with pytest.raises(DataPackError) as err:
        pack.datapack.load("aa-revised", "units", pack.UnitsPack)
    line, message = err.value.problems[0]
    assert "flags" in message and line is not None
