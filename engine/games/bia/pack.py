"""The Blocks in Afrika data pack: map, Strategic Map, units, play aid and scenarios.

The rulebook text prints none of these (the mapboard, the Tripolitania Extension and
Strategic Maps, the Play Aid, the Order of Battle sheets and the Scenario Booklet are
all absent), so the shipped pack is a reconstruction built by ``tools/bia_pack.py`` from
real geography and history and kept consistent with every number, name and worked
example the rulebook gives. A transcription of the physical game replaces any file
through ``UMPIRE_DATAPACKS`` (see ``data/README.md``); :func:`check` then lists, by file
and line, everything in it that contradicts the rulebook.

The grid is pointy-topped hexes in rows, odd rows half a hex east, ids ``CCRR`` (column,
row): the rulebook names the W neighbour of a hex (L1329-1332, L2146), which only rows of
pointy hexes have, so the flat-topped geometry of ``engine.core.hexgrid`` does not apply.

Rulebook line numbers (``L123``) refer to ``shared/rules/003_19684674ce068529.txt``.

>>> check()
[]
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from engine.core.datapack import PackFile, json_line_index, line_of, load_file, pack_path
from engine.core.errors import DataPackError

GAME = "bia"
FILES = ("map", "strategic", "units", "tables", "scenarios")

Side = Literal["axis", "allied"]
Colour = Literal["yellow", "red", "blue", "white", "oil"]
EdgeColour = Literal["black", "white", "red", "blue", "green"]
Locality = Literal["capital", "major", "minor", "fortress", "bunker", "battle_site"]
#: ``(file, line, message)``, the line where the offending value starts (``None`` when
#: the problem is about the file as a whole); the shape of ``engine.core.datapack.Problem``
Problem = tuple[str, int | None, str]


def _strict() -> ConfigDict:
    return ConfigDict(extra="forbid")


def _hex_id(v: str) -> str:
    if len(v) != 4 or not v.isdigit():
        raise ValueError(f"{v!r} is not a four-digit CCRR hex number")
    return v


# --------------------------------------------------------------------------------------
# map.json
# --------------------------------------------------------------------------------------


class Grid(BaseModel):
    model_config = _strict()

    orientation: Literal["pointy"]
    shifted_rows: Literal["odd"]
    id: Literal["CCRR"]
    first_col: int
    last_col: int
    first_row: int
    last_row: int
    hex_km: float
    projection: dict[str, Any] = {}
    sheets: dict[str, tuple[int, int]] = {}


class Country(BaseModel):
    model_config = _strict()

    name: str
    regions: list[Literal["africa", "middle_east", "europe"]]


class Hex(BaseModel):
    model_config = _strict()

    id: str
    terrain: str
    body: str | None = None
    country: str | None = None
    coastal: bool = False
    partial: bool = False
    playable: bool = True
    name: str | None = None
    locality: Locality | None = None
    victory_city: bool = False
    port: Literal["major", "minor"] | None = None
    bodies: list[str] = []
    production: dict[Colour, int] = {}

    @field_validator("id")
    @classmethod
    def _four_digits(cls, v: str) -> str:
        return _hex_id(v)


class Hexside(BaseModel):
    model_config = _strict()

    between: tuple[str, str]
    features: list[str]


class Line(BaseModel):
    model_config = _strict()

    name: str
    hexes: list[str]


class Link(BaseModel):
    """A red arrow (7.5.3): across a strait, or from a map hex to an off-map box."""

    model_config = _strict()

    name: str
    kind: Literal["strait", "offmap"]
    between: tuple[str, str]


class MapFile(PackFile):
    grid: Grid
    countries: dict[str, Country]
    bodies_of_water: dict[str, str]
    hexes: list[Hex]
    hexsides: list[Hexside] = []
    rails: list[Line] = []
    roads: list[Line] = []
    links: list[Link] = []


# --------------------------------------------------------------------------------------
# strategic.json
# --------------------------------------------------------------------------------------


class Box(BaseModel):
    model_config = _strict()

    name: str
    kind: Literal["home", "sea", "staging"]
    power: str | None = None
    capital: bool = False
    body: str | None = None


class StrategicLink(BaseModel):
    model_config = _strict()

    between: tuple[str, str]
    kind: Literal["rail", "sea"]
    body: str | None = None
    mdr: bool = False


class ConvoyBox(BaseModel):
    model_config = _strict()

    name: str
    body: str


class StrategicFile(PackFile):
    boxes: dict[str, Box]
    links: list[StrategicLink]
    indian_ocean_ports: list[str]
    off_map_bodies: dict[str, str] = {}
    convoy_boxes: dict[str, ConvoyBox]
    dieppe_raid_turn: int


# --------------------------------------------------------------------------------------
# units.json
# --------------------------------------------------------------------------------------

Kind = Literal[
    "infantry",
    "static",
    "mountain",
    "cavalry",
    "artillery",
    "para",
    "marines",
    "motorized",
    "air_hq",
    "tank",
    "tankette",
    "armored_hq",
    "fighter",
    "bomber",
    "strategic_air_hq",
    "minor_shq",
    "bb",
    "ca",
    "dd",
    "ss",
    "cv",
    "cve",
    "navy_hq",
]
#: the unit class of each kind (rulebook 6.1-6.4, 17.0); HQs of no class pay oil (7.3.1)
KIND_CLASS: dict[str, str] = {
    "infantry": "infantry",
    "static": "infantry",
    "mountain": "infantry",
    "cavalry": "infantry",
    "artillery": "infantry",
    "para": "infantry",
    "marines": "infantry",
    "motorized": "infantry",
    "air_hq": "infantry",
    "tank": "armored",
    "tankette": "armored",
    "armored_hq": "armored",
    "fighter": "air",
    "bomber": "air",
    "strategic_air_hq": "hq",
    "minor_shq": "hq",
    "bb": "naval",
    "ca": "naval",
    "dd": "naval",
    "ss": "naval",
    "cv": "naval",
    "cve": "naval",
    "navy_hq": "hq",
}
#: ground support units (3.11-3.12): artillery and HQs never fight alone
SUPPORT_KINDS = {"artillery", "air_hq", "armored_hq", "strategic_air_hq", "minor_shq"}
HQ_KINDS = {"air_hq", "armored_hq", "strategic_air_hq", "minor_shq", "navy_hq"}
NAVAL_KINDS = {"bb", "ca", "dd", "ss", "cv", "cve"}
AIR_KINDS = {"fighter", "bomber"}


class Power(BaseModel):
    model_config = _strict()

    name: str
    side: Literal["axis", "allied", "neutral"]
    major: bool
    block: str
    capital: str | None = None
    capitals: list[str] = []
    capitals_by_territory: dict[str, str] = {}


class Leader(BaseModel):
    """An abstract Strategic Leader of BIA (rulebook BIA abstraction 3, 11.0)."""

    model_config = _strict()

    power: str
    ap: int
    at: str
    kind: Literal["supreme", "luftwaffe"]


class Block(BaseModel):
    model_config = ConfigDict(extra="forbid", populate_by_name=True)

    id: str
    name: str
    power: str
    kind: Kind
    unit_class: str = Field(alias="class")
    role: Literal["gcu", "gsu"] | None = None
    #: printed values and edge colours, weakest edge first (3.14, 3.18, 7.3.1)
    track: list[tuple[int, EdgeColour]]
    elite: bool = False
    elite_defence: bool = False
    tropical: bool = False
    resident: bool = False
    wilson: bool = False
    italian_mot: bool = False
    navy: bool = False
    territory: str | None = None
    #: carrier aircraft per printed value (17.0)
    planes: dict[str, int] = {}

    @property
    def full(self) -> int:
        return self.track[-1][0]

    def values(self) -> list[int]:
        return [v for v, _ in self.track]


class UnitsFile(PackFile):
    powers: dict[str, Power]
    leaders: dict[str, Leader]
    blocks: list[Block]


# --------------------------------------------------------------------------------------
# tables.json
# --------------------------------------------------------------------------------------


class Fire(BaseModel):
    """Hit numbers (a die hits at this or more; ``None``: cannot fire) and MP or range."""

    model_config = _strict()

    attack: int | None
    defence: int | None
    mp: int | None = None
    range: int | None = None


class TerrainRow(BaseModel):
    model_config = _strict()

    mp: int | None
    attacker_malus: int = 0
    defender_bonus: int = 0
    supply: bool = True
    recon: int = 0
    armor: bool = True
    land: bool = True
    desert_recon: bool = False
    mountain_units_mp: int | None = None
    cavalry_mp: int | None = None
    armor_attacking_malus: int = 0
    armor_defending_malus: int = 0


class LocalityRow(BaseModel):
    model_config = _strict()

    aa_dice: int
    aa_hit: int | None = None
    attacker_malus: int = 0
    defender_bonus: int = 0
    recon: int = 0
    airfield: bool
    supply_source: bool = False
    when_captured: Literal["bunker", "destroyed"] | None = None
    frontal_only: bool = False


class Stacking(BaseModel):
    model_config = _strict()

    ground_units: int
    ground_combat_units: int
    air_units_per_airfield: int
    air_units_per_side_per_battle: int
    new_units_per_hex: int
    new_units_per_capital: int


class PortRow(BaseModel):
    model_config = _strict()

    supply_units: int
    siege_supply_units: int
    naval_units: int
    pp_per_turn: int


class TablesFile(PackFile):
    firepower: dict[str, dict[str, Fire]]
    unit_kinds: dict[str, dict[str, Any]]
    tech_dates: dict[str, dict[str, dict[str, int | None]]]
    tech_deduction_ypp: dict[str, int]
    terrain: dict[str, TerrainRow]
    hexsides: dict[str, dict[str, Any]]
    localities: dict[str, LocalityRow]
    edge_cost_ypp: dict[str, int | None]
    pairing: dict[str, Colour | None]
    motorized_edges_paired_red: list[int]
    surrender_gain: dict[str, dict[Colour, int]]
    mine_die_roll: dict[str, Literal["safe", "lose_step", "destroyed"]]
    stacking: Stacking
    ports: dict[Literal["major", "minor"], PortRow]
    supply_range: dict[str, int]
    srm_per_nation_ypp: int
    red_arrow_mp: int
    air_range: dict[str, dict[str, int]]
    recon: dict[str, Any]
    naval: dict[str, Any]

    def tech(self, power: str, unit_class: str, turn: int) -> int:
        """The TECH of a power's class on a campaign turn (3.16: fixed by date)."""
        dates = self.tech_dates.get(power, {}).get(unit_class, {})
        level = 1
        for lvl in ("2", "3"):
            t = dates.get(lvl)
            if t is not None and turn >= t:
                level = int(lvl)
        return level


# --------------------------------------------------------------------------------------
# scenarios.json
# --------------------------------------------------------------------------------------


class Placement(BaseModel):
    model_config = _strict()

    side: Side
    unit: str
    hex: str
    at: str
    steps: int


class Reinforcement(BaseModel):
    model_config = _strict()

    turn: int
    unit: str
    at: str
    place: str
    steps: int


class Removal(BaseModel):
    model_config = _strict()

    turn: int
    unit: str


class FleetBlock(BaseModel):
    model_config = _strict()

    unit: str
    steps: int


class Fleet(BaseModel):
    model_config = _strict()

    id: str
    power: str
    at: str
    place: str
    blocks: list[FleetBlock]


class VictoryRule(BaseModel):
    model_config = _strict()

    side: Side
    all: list[str] = []
    any: list[str] = []
    at_least: int | None = None
    of: list[str] = []


class Victory(BaseModel):
    model_config = _strict()

    rules: list[VictoryRule] = []
    otherwise: Literal["axis", "allied", "draw"] | None = None
    kind: Literal["naval_points"] | None = None
    convoys: dict[str, Side] = {}
    text: str


class _Special(BaseModel):
    """A scenario special rule (Scenario Booklet, data pack; RULINGS D10-D16): ``text``
    is the sentence players read, the other fields what the engine enforces."""

    model_config = _strict()

    text: str


class NoEntry(_Special):
    """Units of ``powers`` may not enter a hex of ``countries`` (by any move, rail, sea
    transport, air move or air attack), on turns before ``before_turn`` when given."""

    kind: Literal["no_entry"]
    powers: list[str]
    countries: list[str]
    before_turn: int | None = None


class Confine(_Special):
    """Units of ``powers`` may not enter a hex outside ``countries``."""

    kind: Literal["confine"]
    powers: list[str]
    countries: list[str]


class InPlay(_Special):
    """Only hexes of ``countries`` are in play: no unit enters any other hex."""

    kind: Literal["in_play"]
    countries: list[str]


class AirRoute(_Special):
    """Air units of ``powers`` enter a hex of ``countries`` from outside them only by
    taking off from a hex of ``via``."""

    kind: Literal["air_route"]
    powers: list[str]
    countries: list[str]
    via: list[str]


class LocalityRule(_Special):
    """The locality of ``hex`` (named ``place``) in this scenario, the side holding it at
    the start, and what it becomes when captured when that differs from the table."""

    kind: Literal["locality"]
    hex: str
    place: str
    locality: Locality
    held_by: Side
    when_captured: Locality | None = None


class ControlRule(_Special):
    """``countries`` are controlled by ``side`` from the start."""

    kind: Literal["control"]
    countries: list[str]
    side: Side


class DieppeFrom(_Special):
    """The Dieppe Raid bonus (7.3.2, L1200-1206) is in force from ``turn``."""

    kind: Literal["dieppe_from"]
    turn: int


class ExampleFrom(_Special):
    """A worked example of the rulebook (``lines``) on ``turn`` starts from this set-up:
    a note for players, nothing to enforce."""

    kind: Literal["example"]
    turn: int
    lines: str


SpecialRule = Annotated[
    NoEntry | Confine | InPlay | AirRoute | LocalityRule | ControlRule | DieppeFrom | ExampleFrom,
    Field(discriminator="kind"),
]


class Scenario(BaseModel):
    model_config = _strict()

    id: str
    name: str
    difficulty: int
    kind: Literal["land", "naval"]
    dates: str
    first_turn: int
    last_turn: int
    history: str = ""
    control: dict[str, Side] = {}
    hex_control: dict[str, Side] = {}
    neutral: list[str] = []
    powers: list[str] = []
    tobruk: Literal["fortress", "bunker", "minor"] | None = None
    income: dict[str, dict[Colour, int]] = {}
    strategic_warfare_dice: dict[Literal["against_axis", "against_allied"], int] = {}
    leader_ap: dict[str, int] = {}
    setup: list[Placement] = []
    reinforcements: list[Reinforcement] = []
    removals: list[Removal] = []
    fleets: list[Fleet] = []
    special_rules: list[SpecialRule] = []
    victory: Victory


class ScenariosFile(PackFile):
    turn_numbering: str
    scenarios: list[Scenario]


MODELS: dict[str, type[PackFile]] = {
    "map": MapFile,
    "strategic": StrategicFile,
    "units": UnitsFile,
    "tables": TablesFile,
    "scenarios": ScenariosFile,
}


# --------------------------------------------------------------------------------------
# Geometry of the grid (pointy-topped rows, odd rows half a hex east)
# --------------------------------------------------------------------------------------

DIRECTIONS = ("E", "NE", "NW", "W", "SW", "SE")
_ODD = ((1, 0), (1, -1), (0, -1), (-1, 0), (0, 1), (1, 1))
_EVEN = ((1, 0), (0, -1), (-1, -1), (-1, 0), (-1, 1), (0, 1))


def parse_hex(h: str) -> tuple[int, int]:
    return int(h[:2]), int(h[2:])


def neighbour(h: str, direction: str) -> str:
    """The hex beside ``h`` in a compass direction (whether or not it is on the map)."""
    c, r = parse_hex(h)
    dc, dr = (_ODD if r & 1 else _EVEN)[DIRECTIONS.index(direction)]
    return f"{c + dc:02d}{r + dr:02d}" if c + dc >= 0 and r + dr >= 0 else "----"


def neighbours(h: str) -> tuple[str, ...]:
    return tuple(neighbour(h, d) for d in DIRECTIONS)


def distance(a: str, b: str) -> int:
    """Hexes between ``a`` and ``b`` counted as a unit walks (adjacent = 1)."""

    def cube(h: str) -> tuple[int, int, int]:
        c, r = parse_hex(h)
        x = c - (r - (r & 1)) // 2
        return x, -x - r, r

    (ax, ay, az), (bx, by, bz) = cube(a), cube(b)
    return max(abs(ax - bx), abs(ay - by), abs(az - bz))


def month_turn(year: int, month: int) -> int:
    """Campaign turn of a month: 1 is September 1939 (Montgomery's August 1942 is turn 36,
    L1189; the Italian TECH 3 fighters' January 1945 is turn 65, L555)."""
    return (year - 1939) * 12 + month - 8


# --------------------------------------------------------------------------------------
# Loading
# --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Pack:
    """The five files of a pack, with lookups the rules and the checks share."""

    map: MapFile
    strategic: StrategicFile
    units: UnitsFile
    tables: TablesFile
    scenarios: ScenariosFile
    hexes: dict[str, Hex] = field(default_factory=dict)
    places: dict[str, str] = field(default_factory=dict)
    blocks: dict[str, Block] = field(default_factory=dict)

    @classmethod
    def of(cls, files: dict[str, Any]) -> Pack:
        m: MapFile = files["map"]
        return cls(
            m,
            files["strategic"],
            files["units"],
            files["tables"],
            files["scenarios"],
            hexes={h.id: h for h in m.hexes},
            places={h.name: h.id for h in m.hexes if h.name},
            blocks={b.id: b for b in files["units"].blocks},
        )

    def place(self, name: str) -> Hex:
        return self.hexes[self.places[name]]

    def scenario(self, scenario_id: str) -> Scenario:
        return next(s for s in self.scenarios.scenarios if s.id == scenario_id)


def file_path(name: str, folder: Path | None = None) -> Path:
    """Where ``<name>.json`` is read from: ``folder`` if given, else the override folder
    ``UMPIRE_DATAPACKS/bia`` when it holds the file, else the shipped pack."""
    return folder / f"{name}.json" if folder is not None else pack_path(GAME, name)


@cache
def load() -> Pack:
    """The pack the game plays with; raises :class:`DataPackError` if a file is invalid."""
    return Pack.of({name: load_file(file_path(name), model) for name, model in MODELS.items()})


# --------------------------------------------------------------------------------------
# Checking a pack against the rulebook
# --------------------------------------------------------------------------------------


@dataclass
class _File:
    """One loaded pack file with the line of every JSON value in it."""

    path: Path
    lines: dict[tuple[Any, ...], int]
    found: list[Problem] = field(default_factory=list)

    def add(self, message: str, *loc: Any) -> None:
        self.found.append((str(self.path), line_of(self.lines, loc) if loc else None, message))


def check(path: Path | str | None = None) -> list[Problem]:
    """Everything in the pack that contradicts the rulebook, as ``(file, line, message)``.

    ``path`` is a folder holding the five files (``map.json``, ``strategic.json``,
    ``units.json``, ``tables.json``, ``scenarios.json``); ``None`` checks the pack the
    game plays with (``UMPIRE_DATAPACKS`` overrides, else the shipped files).
    """
    folder = Path(path) if path is not None else None
    out: list[Problem] = []
    files: dict[str, Any] = {}
    where: dict[str, _File] = {}
    for name, model in MODELS.items():
        p = file_path(name, folder)
        try:
            files[name] = load_file(p, model)
        except DataPackError as err:
            out.extend((str(p), line, message) for line, message in err.problems)
            continue
        where[name] = _File(p, json_line_index(p.read_text(encoding="utf-8")))
        if files[name].header.game != GAME:
            where[name].add(
                f"header.game is {files[name].header.game!r}; this pack is {GAME!r}",
                "header",
                "game",
            )
    if len(files) == len(MODELS):
        _Checker(Pack.of(files), where).run()
    for f in where.values():
        out.extend(f.found)
    return out


#: block boxes of each colour in the game box (rulebook 1.2, L162-172, L222-233)
BOX_COUNTS = {
    "black": 29,
    "light green": 22,
    "blue": 22,
    "light blue": 15,
    "brown": 66,
    "dark green": 1,
}
NAVY_BOX_COUNTS = {"axis": 23, "allied": 46}
#: the ten scenarios of the overview (L35-44): name, difficulty
SCENARIO_NAMES = {
    "BIA1": ("Operation Exporter", 1),
    "BIA2": ("Middle-East Uprising", 2),
    "BIA3": ("Operation Compass", 3),
    "BIA4": ("The Desert Fox", 4),
    "BIA5": ("El Alamein", 5),
    "BIA6": ("Tobruk", 6),
    "BIA7": ("Punta Stilo", 1),
    "BIA8": ("Capo Matapan", 1),
    "BIA9": ("Capo Teulada", 2),
    "BIA10": ("Harpoon Convoy", 3),
}
NAVAL_SCENARIOS = {"BIA7", "BIA8", "BIA9", "BIA10"}
MONTHS = (
    "january",
    "february",
    "march",
    "april",
    "may",
    "june",
    "july",
    "august",
    "september",
    "october",
    "november",
    "december",
)
#: places the rulebook names and what it says of them: (locality or None, rule)
NAMED_PLACES: dict[str, tuple[str | None, str]] = {
    "Ankara": ("capital", "3.3 (L265): Ankara is the example of a capital"),
    "Istanbul": ("capital", "5.1 (L759-760): Turkey has two capitals, Istanbul and Ankara"),
    "Tehran": ("capital", "4.1 (L672-673): Tehran is a national capital"),
    "Alexandria": ("major", "3.3 (L266): Alexandria is the example of a major city"),
    "Gazala": ("minor", "3.3 (L267): Gazala is the example of a minor city"),
    "Kannakhale": ("fortress", "3.3 (L278-279) and 7.7.9 (L1728): Kannakhale is a fortress"),
    "Tobruk": (
        "fortress",
        "7.7.9 (L1728): Tobruk is a fortress (scenarios may make it a bunker or a minor city)",
    ),
    "Metaxas Line": ("bunker", "3.3 (L268): the Metaxas Line is the example of a bunker"),
    "El Alamein": ("battle_site", "3.3 note (L295-297): El Alamein is a historical battle site"),
    "Bir Hackeim": ("battle_site", "12.0 example (L2217): Bir Hackeim has no AA, so it is no city"),
    "Alam Halfa": (None, "7.5.2 (L1329-1332)"),
    "El Agheila": (None, "11.3 example (L2146-2148)"),
    "Bengasi": (None, "4.3 example (L683-686)"),
    "Taranto": (None, "4.3 example (L683-684)"),
    "Athens": (None, "7.5 example (L1289-1292)"),
    "Cairo": (None, "11.3 example (L2155): AASF bombers are based at Cairo"),
    "Beirut": (None, "BIA abstraction (L405-408): the FF Brigade is rebuilt in Beirut"),
    "Baku": (None, "3.3 (L284): Baku is the example of a victory city"),
    "Heraklion": (None, "17.0 example (L2672)"),
    "Nicosia": (None, "17.0 example (L2672)"),
    "Suez": (None, "3.7 (L480-482): one of the four Indian Ocean ports"),
    "Aqaba": (None, "3.7 (L480-482): one of the four Indian Ocean ports"),
    "Basra": (None, "3.7 (L480-482): one of the four Indian Ocean ports"),
    "Abadan": (None, "3.7 (L480-482): one of the four Indian Ocean ports"),
}
#: rulebook facts about named blocks: id -> (expected track or None, rule)
TRACKS: dict[str, tuple[list[tuple[int, str]], str]] = {
    "uk_7armd": (
        [(0, "red"), (3, "red")],
        "7.3.1 (L1127-1130) and 7.7.8.2 (L1714-1718): Desert Rats 0 red, 3 red",
    ),
    "uk_8art": (
        [(0, "red"), (1, "black"), (3, "white"), (5, "white")],
        "7.3.1 (L1083-1091): 8th Army artillery",
    ),
    "uk_sa_garrison": ([(0, "black"), (2, "white")], "7.3.1 (L1065-1070): South African Garrison"),
    "pe_rp": (
        [(1, "red"), (2, "black"), (3, "black")],
        "7.3.1 (L1141-1145): Persian Supreme Leader I red, II-III black",
    ),
}


# fmt: off
#: firepower, movement and range the rulebook prints: (class, TECH, field, value, rule);
#: a hit number is the lowest die that hits, ``None`` a unit that cannot fire that way
FIRE_FACTS = (
    ("tank", "1", "attack", 6, "TECH 1 tanks attack at 6 (3.17, L567; 6.2.2, L873-874)"),
    ("tank", "1", "defence", 5, "TECH 1 tanks defend at 5-6 (3.17, L567; 6.2.2, L873-874)"),
    ("tank", "2", "attack", 5, "TECH 2 tanks attack at 5-6 (6.2.2, L875-876)"),
    ("tank", "3", "attack", 4, "TECH 3 tanks attack at 4-6 (6.2.2, L878-879)"),
    ("tank", "3", "defence", 4, "TECH 3 tanks defend at 4-6 (6.2.2, L878-879)"),
    ("fighter", "1", "attack", None, "TECH 1 fighters cannot attack (3.17, L571)"),
    ("fighter", "2", "attack", 6, "TECH 2 fighters strafe at 6 (3.17, L571-572)"),
    ("fighter", "2", "defence", 5, "TECH 2 fighters fight in the air at 5-6 (3.17, L571-572)"),
    ("fighter", "3", "attack", 5, "TECH 3 fighters strafe at 5-6 (6.3.1, L915-917)"),
    ("fighter", "3", "defence", 4, "TECH 3 fighters fight in the air at 4-6 (6.3.1, L915-917)"),
    ("bomber", "1", "attack", 6, "TECH 1 bombers bomb at 6 (3.17, L573-575)"),
    ("bomber", "1", "defence", None, "TECH 1 bombers cannot fight in the air (3.17, L573-575)"),
    ("bomber", "2", "attack", 5, "TECH 2 bombers bomb at 5-6 (3.17, L575-577)"),
    ("bomber", "2", "defence", 6, "TECH 2 bombers fight in the air at 6 (3.17, L575-577)"),
    ("bomber", "3", "attack", 4, "TECH 3 bombers bomb at 4-6 (6.3.2, L945-947)"),
    ("bomber", "3", "defence", 5, "TECH 3 bombers fight in the air at 5-6 (6.3.2, L945-947)"),
    ("infantry", "1", "defence", 6, "TECH 1 infantry defends at 6 (7.7.7 example 2, L1675)"),
    ("artillery", "2", "defence", 5, "TECH 2 artillery fires its AA at 5-6 (6.5 example, L891-894)"),
    ("infantry", "1", "mp", 3, "a TECH 1 ground unit has 3 MP (7.5.1, L1352)"),
    ("infantry", "2", "mp", 4, "a TECH 2 ground unit has 4 MP (7.5.1, L1352)"),
    ("tank", "2", "mp", 4, "TECH 2 tanks have 4 MP (6.2.2, L876)"),
    ("fighter", "1", "range", 5, "fighters have range 5 (7.7.11.2, L1817-1818)"),
    ("fighter", "3", "range", 10, "TECH 3 fighters have range 10 (6.3.1, L915)"),
    ("bomber", "1", "range", 10, "bombers have range 10 (7.7.11.2, L1817-1818)"),
    ("bomber", "3", "range", 15, "TECH 3 bombers have range 15 (6.3.2, L945)"),
)
#: TECH levels the rulebook's dated examples fix: (power, class, turn, level, rule)
TECH_FACTS = (
    ("italy", "fighter", 22, 1, "Italian fighters are TECH 1 in June 1941 (12.0 example, L2406)"),
    ("italy", "bomber", 22, 1, "the Italian Rex bomber is TECH 1 in June 1941 (7.7 example, L1450-1453)"),
    ("italy", "tank", 22, 1, "Ariete is a TECH 1 tank in June 1941 (7.7.5 example, L1645-1646)"),
    ("italy", "infantry", 22, 1, "a TECH 1 Italian ground unit has 3 MP (7.5.1, L1352)"),
    ("germany", "infantry", 22, 2, "a TECH 2 German ground unit has 4 MP (7.5.1, L1352)"),
    ("germany", "tank", 22, 2, "the DAK is a TECH 2 tank in 1941 (7.5 example, L1295)"),
    ("germany", "bomber", 22, 2, "the Stuka is TECH 2 in June 1941 (11.5 example, L2211-2215)"),
    ("germany", "bomber", 34, 2, "the Stuka is TECH 2 in June 1942 (6.5 example, L891-896)"),
    ("uk", "bomber", 22, 1, "the AASF bombers are TECH 1 in June 1941 (7.7.1 example, L1455-1457)"),
    ("uk", "artillery", 34, 2, "the 8th Army artillery is TECH 2 in June 1942 (6.5 example, L891-894)"),
)
# fmt: on


class _Checker:
    """The rulebook's requirements on a loaded pack, each reported on its file and line."""

    def __init__(self, pack: Pack, where: dict[str, _File]) -> None:
        self.p = pack
        self.m = where["map"]
        self.s = where["strategic"]
        self.u = where["units"]
        self.t = where["tables"]
        self.sc = where["scenarios"]
        self.hex_index = {h.id: i for i, h in enumerate(pack.map.hexes)}
        self.block_index = {b.id: i for i, b in enumerate(pack.units.blocks)}

    def run(self) -> None:
        self.grid()
        self.hexes()
        self.named_places()
        self.rulebook_geometry()
        self.hexsides()
        self.lines()
        self.links()
        self.strategic()
        self.units()
        self.tables()
        self.scenarios()

    # ----------------------------------------------------------------------- the map

    def at_hex(self, h: str, message: str, *more: Any) -> None:
        i = self.hex_index.get(h)
        self.m.add(message, *(("hexes", i, *more) if i is not None else ("hexes",)))

    def land(self, h: str) -> bool:
        x = self.p.hexes.get(h)
        return (
            x is not None
            and self.p.tables.terrain.get(x.terrain) is not None
            and self.p.tables.terrain[x.terrain].land
        )

    def enterable(self, h: str) -> bool:
        """A land hex a ground unit may enter (7.5.2: no sea, no Chott or Qattara, no
        partial hex but Tehran)."""
        x = self.p.hexes.get(h)
        if x is None or not self.land(h) or not x.playable:
            return False
        return self.p.tables.terrain[x.terrain].mp is not None

    def grid(self) -> None:
        g = self.p.map.grid
        expected = {
            f"{c:02d}{r:02d}"
            for c in range(g.first_col, g.last_col + 1)
            for r in range(g.first_row, g.last_row + 1)
        }
        seen: set[str] = set()
        for i, h in enumerate(self.p.map.hexes):
            if h.id in seen:
                self.m.add(f"hex {h.id} appears twice", "hexes", i)
            elif h.id not in expected:
                self.m.add(f"hex {h.id} lies outside the grid's columns and rows", "hexes", i)
            seen.add(h.id)
        missing = sorted(expected - seen)
        if missing:
            self.m.add(
                f"the grid lacks hexes {', '.join(missing[:10])}{'...' if len(missing) > 10 else ''}",
                "grid",
            )
        if not 60 <= g.hex_km <= 80:
            self.m.add(
                f"a hex is {g.hex_km} km across; the rulebook's scale is about 70 km (L79-80)",
                "grid",
                "hex_km",
            )
        if len(self.p.map.bodies_of_water) != 4:
            self.m.add(
                f"{len(self.p.map.bodies_of_water)} bodies of water; the BIA map shows four "
                "(BIA abstraction 1, L373-380)",
                "bodies_of_water",
            )

    def hexes(self) -> None:
        terrain = self.p.tables.terrain
        for i, h in enumerate(self.p.map.hexes):
            if h.terrain not in terrain:
                self.m.add(
                    f"hex {h.id}: unknown terrain {h.terrain!r}; the terrain chart has "
                    f"{', '.join(terrain)}",
                    "hexes",
                    i,
                    "terrain",
                )
                continue
            if not terrain[h.terrain].land:
                if h.body not in self.p.map.bodies_of_water:
                    self.m.add(
                        f"sea hex {h.id} belongs to no body of water (BIA abstraction 1)",
                        "hexes",
                        i,
                    )
                if h.name or h.port or h.locality:
                    self.m.add(f"sea hex {h.id} carries a place", "hexes", i)
                continue
            if h.country not in self.p.map.countries:
                self.m.add(
                    f"land hex {h.id} belongs to no known country ({h.country!r})", "hexes", i
                )
            if h.partial and h.playable and h.name != "Tehran":
                self.m.add(
                    f"partial hex {h.id} is playable; the only playable partial hex is Tehran "
                    "(7.5.2, L1359-1363)",
                    "hexes",
                    i,
                )
            if h.port:
                bodies = {
                    self.p.hexes[n].body
                    for n in neighbours(h.id)
                    if n in self.p.hexes and not self.land(n)
                }
                if not h.bodies:
                    self.m.add(
                        f"port {h.name or h.id} belongs to no body of water (7.5.4)", "hexes", i
                    )
                for b in h.bodies:
                    if b not in bodies:
                        self.m.add(
                            f"port {h.name or h.id} lies on the {b} but touches no sea hex of it (7.5.4)",
                            "hexes",
                            i,
                        )
            if h.locality and not h.name:
                self.m.add(f"hex {h.id} has a {h.locality} with no name", "hexes", i)
            if h.locality and terrain[h.terrain].mp is None:
                self.m.add(f"{h.name} lies in impassable terrain", "hexes", i)
            for colour, n in h.production.items():
                if n < 1:
                    self.m.add(f"{h.name or h.id} produces {n} {colour} PP", "hexes", i)
        partial_playable = [h for h in self.p.map.hexes if h.partial and h.playable]
        if len(partial_playable) > 1:
            self.m.add(
                f"{len(partial_playable)} playable partial hexes; Tehran is the only one (L1362-1363)",
                "hexes",
            )
        names: dict[str, int] = {}
        for i, h in enumerate(self.p.map.hexes):
            if h.name in names:
                self.m.add(f"two hexes are named {h.name}", "hexes", i)
            if h.name:
                names[h.name] = i

    def named_places(self) -> None:
        for name, (locality, rule) in NAMED_PLACES.items():
            if name not in self.p.places:
                self.m.add(f"no hex is named {name}; the rulebook cites it: {rule}", "hexes")
                continue
            h = self.p.place(name)
            if locality and h.locality != locality:
                self.at_hex(
                    h.id,
                    f"{name} must be a {locality.replace('_', ' ')}, not "
                    f"{(h.locality or 'no locality').replace('_', ' ')}: {rule}",
                )
            if not self.enterable(h.id):
                self.at_hex(h.id, f"{name} must be a playable land hex: {rule}")
        for name in ("Rome", "Berlin", "London"):
            if name in self.p.places:
                self.at_hex(
                    self.p.places[name],
                    f"{name} is on the Strategic Map, not the mapboard (4.1, L655-658)",
                )
        if "Tehran" in self.p.places:
            t = self.p.place("Tehran")
            if not (t.partial and t.playable):
                self.at_hex(
                    t.id, "Tehran must be a partial hex that is playable (7.5.2, L1362-1363)"
                )
        if "Baku" in self.p.places and not self.p.place("Baku").victory_city:
            self.at_hex(self.p.places["Baku"], "Baku must carry the victory city icon (3.3, L284)")
        for name in ("Gazala", "Bir Hackeim"):
            if name in self.p.places and self.p.place(name).terrain != "clear":
                self.at_hex(
                    self.p.places[name],
                    f"{name} must be clear desert: the recon at Gazala succeeds "
                    "automatically (12.0, L2406-2410) and Panzers Attack! at Bir Hackeim needs clear "
                    "terrain (14.0, L2238-2243)",
                )
        for name in ("Suez", "Aqaba", "Basra", "Abadan"):
            if name in self.p.places:
                h = self.p.place(name)
                if h.port is None or "indian_ocean" not in h.bodies:
                    self.at_hex(h.id, f"{name} must be a port on the Indian Ocean (3.7, L480-482)")
        for name in ("Bengasi", "Taranto", "Athens", "Alexandria", "Heraklion", "Nicosia"):
            if name in self.p.places:
                h = self.p.place(name)
                if h.port is None or "mediterranean" not in h.bodies:
                    self.at_hex(
                        h.id,
                        f"{name} must be a port on the Mediterranean: the rulebook ships units "
                        "from or to it (4.3 L683-686, 7.5 L1289-1292, 17.0 L2658-2672)",
                    )
        if not any(h.terrain == "impassable" and h.country == "tunisia" for h in self.p.map.hexes):
            self.m.add("no impassable Chott hex in Tunisia (7.5.2, L1364-1368)", "hexes")
        if not any(h.terrain == "impassable" and h.country == "egypt" for h in self.p.map.hexes):
            self.m.add("no impassable Qattara Depression hex in Egypt (7.5.2, L1364-1368)", "hexes")

    def rulebook_geometry(self) -> None:
        """The distances and neighbours the rulebook's worked examples rely on."""
        pl = self.p.places
        if {"Gazala", "Bir Hackeim"} <= pl.keys() and distance(
            pl["Gazala"], pl["Bir Hackeim"]
        ) != 1:
            self.at_hex(
                pl["Bir Hackeim"],
                "Bir Hackeim must be next to Gazala: the armour that won at Gazala "
                "blitzes into it for 1 MP (7.8 and the example at L2211-2249)",
            )
        if {"Bengasi", "Bir Hackeim"} <= pl.keys() and distance(
            pl["Bengasi"], pl["Bir Hackeim"]
        ) > 4:
            self.at_hex(
                pl["Bir Hackeim"],
                "Bir Hackeim must be at most 4 hexes from Bengasi: the DAK moves its "
                "4 MP from Bengasi to Bir Hackeim (7.5 example, L1292-1296)",
            )
        if {"Bengasi", "Bir Hackeim"} <= pl.keys() and distance(
            pl["Bengasi"], pl["Bir Hackeim"]
        ) <= 4:
            cost = self.ground_cost(pl["Bengasi"], pl["Bir Hackeim"])
            if cost is None or cost > 4:
                self.at_hex(
                    pl["Bir Hackeim"],
                    "a ground unit must reach Bir Hackeim from Bengasi for 4 MP: the DAK "
                    "does (7.5 example, L1292-1296); the cheapest way costs "
                    f"{'more' if cost is None else cost} MP",
                )
        if {"Nicosia", "Heraklion"} <= pl.keys() and distance(pl["Nicosia"], pl["Heraklion"]) != 10:
            self.at_hex(
                pl["Heraklion"],
                f"Nicosia to Heraklion is {distance(pl['Nicosia'], pl['Heraklion'])} "
                "hexes; the naval example says 10 (17.0, L2672-2673)",
            )
        if "Alam Halfa" in pl:
            w, sw = neighbour(pl["Alam Halfa"], "W"), neighbour(pl["Alam Halfa"], "SW")
            features = self.side_features(w, sw)
            if not (self.enterable(w) and self.enterable(sw) and "yellow_border" in features):
                self.at_hex(
                    pl["Alam Halfa"],
                    f"the hexes W ({w}) and SW ({sw}) of Alam Halfa must be playable "
                    "and separated by a yellow border (7.5.2 example, L1329-1332)",
                )
        if "El Agheila" in pl and not self.enterable(neighbour(pl["El Agheila"], "W")):
            self.at_hex(
                pl["El Agheila"],
                "the hex west of El Agheila must be playable land: Folgore comes "
                "from it (11.3 example, L2146-2148)",
            )
        if "Gazala" in pl and not self.enterable(neighbour(pl["Gazala"], "SW")):
            self.at_hex(
                pl["Gazala"],
                "the hex southwest of Gazala must be playable land: the 20th Motorized "
                "Corps closes on Gazala from it (11.3 example, L2147-2149)",
            )

    def ground_cost(self, start: str, goal: str, budget: int = 12) -> int | None:
        """The fewest MP a ground unit spends from ``start`` to ``goal`` (7.5.1), or None."""
        blocked = {
            tuple(sorted(s.between))
            for s in self.p.map.hexsides
            if {"yellow_border", "deep_water"} & set(s.features)
        }
        best = {start: 0}
        frontier = [start]
        while frontier:
            frontier.sort(key=best.__getitem__)
            here = frontier.pop(0)
            for n in neighbours(here):
                if not self.enterable(n) or tuple(sorted((here, n))) in blocked:
                    continue
                cost = best[here] + (self.p.tables.terrain[self.p.hexes[n].terrain].mp or 0)
                if cost <= budget and cost < best.get(n, budget + 1):
                    best[n] = cost
                    frontier.append(n)
        return best.get(goal)

    def side_features(self, a: str, b: str) -> set[str]:
        key = (a, b) if a < b else (b, a)
        return {
            f for s in self.p.map.hexsides if tuple(sorted(s.between)) == key for f in s.features
        }

    def hexsides(self) -> None:
        known = self.p.tables.hexsides
        for i, s in enumerate(self.p.map.hexsides):
            a, b = s.between
            if a not in self.p.hexes or b not in self.p.hexes:
                self.m.add(f"hexside {a}|{b}: a hex is not on the map", "hexsides", i)
            elif b not in neighbours(a):
                self.m.add(f"hexside {a}|{b}: the hexes are not adjacent", "hexsides", i)
            elif not (self.land(a) and self.land(b)):
                self.m.add(
                    f"hexside {a}|{b} touches the sea; rivers and borders run between land hexes",
                    "hexsides",
                    i,
                )
            for f in s.features:
                if f not in known:
                    self.m.add(
                        f"hexside {a}|{b}: unknown feature {f!r}; the chart has {', '.join(known)}",
                        "hexsides",
                        i,
                    )

    def lines(self) -> None:
        for key, what in (("rails", "railway"), ("roads", "road")):
            for i, line in enumerate(getattr(self.p.map, key)):
                for a, b in zip(line.hexes, line.hexes[1:], strict=False):
                    if b not in neighbours(a):
                        self.m.add(
                            f"{what} {line.name}: {a} and {b} are not adjacent (3.3)", key, i
                        )
                        break
                for h in line.hexes:
                    if not self.enterable(h):
                        self.m.add(
                            f"{what} {line.name} runs through {h}, which no unit may enter", key, i
                        )
                        break

    def links(self) -> None:
        boxes = self.p.strategic.boxes
        for i, link in enumerate(self.p.map.links):
            a, b = link.between
            for end in (a, b):
                if end.startswith("box:"):
                    if link.kind != "offmap" or end[4:] not in boxes:
                        self.m.add(
                            f"red arrow {link.name}: {end} is no box of the Strategic Map",
                            "links",
                            i,
                        )
                elif not self.enterable(end):
                    self.m.add(
                        f"red arrow {link.name} ends in {end}, which no unit may enter (7.5.3)",
                        "links",
                        i,
                    )

    # ------------------------------------------------------------- the Strategic Map

    def strategic(self) -> None:
        st = self.p.strategic
        for box, power in (("rome", "italy"), ("berlin", "germany"), ("london", "uk")):
            b = st.boxes.get(box)
            if b is None or b.kind != "home" or b.power != power or not b.capital:
                self.s.add(
                    f"the Strategic Map needs the {box} box, {power}'s capital and main supply source "
                    "(4.1, L655-658; BIA abstraction 2, L381-391)",
                    "boxes",
                )
        if "south_africa" not in st.boxes:
            self.s.add(
                "the Strategic Map needs South Africa, where British units from the UK stop "
                "(7.3.2, L1191-1199)",
                "boxes",
            )
        if sorted(st.indian_ocean_ports) != ["Abadan", "Aqaba", "Basra", "Suez"]:
            self.s.add(
                "the Indian Ocean ports are Aqaba, Suez, Basra and Abadan (3.7, L480-482)",
                "indian_ocean_ports",
            )
        for i, name in enumerate(st.indian_ocean_ports):
            if name not in self.p.places:
                self.s.add(f"Indian Ocean port {name} is not on the map", "indian_ocean_ports", i)
        for box, body in (
            ("western_med", "mediterranean"),
            ("central_med", "mediterranean"),
            ("eastern_med", "mediterranean"),
            ("indian_ocean", "indian_ocean"),
        ):
            c = st.convoy_boxes.get(box)
            if c is None or c.body != body:
                self.s.add(
                    f"the {box} convoy box of the {body} is missing (17.0 example, L2659-2662)",
                    "convoy_boxes",
                )
        for i, link in enumerate(st.links):
            for end in link.between:
                kind, _, ref = end.partition(":")
                if kind == "box" and ref not in st.boxes:
                    self.s.add(f"link to unknown box {ref!r}", "links", i)
                elif kind == "port" and (
                    ref not in self.p.places or self.p.place(ref).port is None
                ):
                    self.s.add(f"link to {ref!r}, which is no port on the map", "links", i)
        if st.dieppe_raid_turn != month_turn(1942, 8):
            self.s.add(
                "the Dieppe Raid is August 1942, turn 36; its bonus applies from September 1942 "
                "(7.3.2, L1200-1206)",
                "dieppe_raid_turn",
            )

    # ---------------------------------------------------------------------- the units

    def at_block(self, uid: str, message: str, *more: Any) -> None:
        i = self.block_index.get(uid)
        self.u.add(message, *(("blocks", i, *more) if i is not None else ("blocks",)))

    def units(self) -> None:
        u = self.p.units
        seen: set[str] = set()
        colours: dict[str, int] = {}
        navy: dict[str, int] = {}
        for i, b in enumerate(u.blocks):
            if b.id in seen:
                self.u.add(f"block {b.id} appears twice", "blocks", i)
            seen.add(b.id)
            if b.power not in u.powers:
                self.u.add(f"block {b.id}: unknown power {b.power!r}", "blocks", i, "power")
                continue
            if b.unit_class != KIND_CLASS[b.kind]:
                self.u.add(
                    f"block {b.id}: a {b.kind} is of the {KIND_CLASS[b.kind]} class (6.0), not "
                    f"{b.unit_class}",
                    "blocks",
                    i,
                    "class",
                )
            self.track(i, b)
            if b.kind in NAVAL_KINDS or b.kind == "navy_hq":
                side = u.powers[b.power].side
                navy[side] = navy.get(side, 0) + 1
            else:
                colour = u.powers[b.power].block
                colours[colour] = colours.get(colour, 0) + 1
        for colour, n in colours.items():
            if n > BOX_COUNTS.get(colour, 0):
                self.u.add(
                    f"{n} {colour} blocks; the box holds {BOX_COUNTS.get(colour, 0)} (1.2, L162-172)",
                    "blocks",
                )
        for side, n in navy.items():
            if n > NAVY_BOX_COUNTS.get(side, 0):
                self.u.add(
                    f"{n} {side} naval blocks; the box holds {NAVY_BOX_COUNTS.get(side, 0)} (1.2, L170-172)",
                    "blocks",
                )
        self.roster_facts()
        for name, ap in (("churchill", 4), ("mussolini", 3), ("hitler", 2), ("goering", 1)):
            leader = u.leaders.get(name)
            if leader is None or leader.ap != ap:
                self.u.add(
                    f"{name.title()} has {ap} AP in BIA (BIA abstraction 3, L392-403)",
                    *(("leaders", name, "ap") if leader else ("leaders",)),
                )

    def track(self, i: int, b: Block) -> None:
        values = b.values()
        if not values:
            self.u.add(f"block {b.id} has no edges", "blocks", i, "track")
            return
        if any(x >= y for x, y in zip(values, values[1:], strict=False)):
            self.u.add(
                f"block {b.id}: its edges must rise from the weakest, {values} do not (3.18)",
                "blocks",
                i,
                "track",
            )
        for k, (_v, colour) in enumerate(b.track):
            if colour == "blue" and k > 0:
                self.u.add(
                    f"block {b.id}: only the cadre (first) edge may be blue (BIA abstraction, L420-421)",
                    "blocks",
                    i,
                    "track",
                )
            if colour == "green" and b.kind not in ("cv", "cve"):
                self.u.add(
                    f"block {b.id}: green edges are a carrier's hull and deck (17.0, L2495-2499)",
                    "blocks",
                    i,
                    "track",
                )
        if b.kind == "motorized":
            colours = [c for _v, c in b.track]
            if (
                len(colours) != 4
                or colours[1:3] != ["black", "black"]
                or colours[3] != "white"
                or colours[0] not in ("white", "blue")
            ):
                self.u.add(
                    f"motorized block {b.id}: four edges, the 1st and 4th white (2 YPP + 2 RPP), the 2nd "
                    "and 3rd black: 6 YPP and 4 RPP in all (7.3.1, L1146-1158)",
                    "blocks",
                    i,
                    "track",
                )
        if b.kind == "cv" and (
            values[:2] != [0, 1] or [c for _v, c in b.track[:2]] != ["green", "green"]
        ):
            self.u.add(
                f"carrier {b.id}: its hull (0) and deck (1) are green steps (17.0, L2495-2499)",
                "blocks",
                i,
                "track",
            )

    def roster_facts(self) -> None:
        u = self.p.units
        blocks = self.p.blocks
        for uid, (track, rule) in TRACKS.items():
            b = blocks.get(uid)
            if b is None:
                self.u.add(f"block {uid} is missing: {rule}", "blocks")
            elif [(v, c) for v, c in b.track] != track:
                self.at_block(uid, f"{b.name}: the track must be {track}: {rule}", "track")

        def need(uid: str, ok: bool, message: str) -> None:
            if uid not in blocks:
                self.u.add(f"block {uid} is missing: {message}", "blocks")
            elif not ok:
                self.at_block(uid, f"{blocks[uid].name}: {message}")

        def top_two(uid: str) -> list[int]:
            return blocks[uid].values()[-2:] if uid in blocks else []

        need(
            "de_dak",
            top_two("de_dak") == [3, 5] and blocks["de_dak"].kind == "tank",
            "the DAK is a tank at 5 that needs 2 hits to drop to 3 (7.7.5 example, L1642)",
        )
        need(
            "uk_daf",
            top_two("uk_daf") == [3, 5] and blocks["uk_daf"].kind == "fighter",
            "the DAF is a 5-step fighter that needs 2 hits to drop to 3 (3.18, L589-591)",
        )
        need(
            "it_folgore",
            blocks.get("it_folgore") is not None
            and blocks["it_folgore"].values()[:2] == [0, 3]
            and blocks["it_folgore"].kind == "para"
            and blocks["it_folgore"].elite_defence,
            "Folgore is a para unit, 3 to 0 in one edge (7.7.8.2, L1714-1718), elite in defence (9.0, L1937)",
        )
        need(
            "de_stuka",
            blocks.get("de_stuka") is not None
            and blocks["de_stuka"].kind == "bomber"
            and [c for _v, c in blocks["de_stuka"].track] == ["white"] * 4
            and blocks["de_stuka"].tropical,
            "the Tropicalized Stuka is a bomber of four white edges (7.3.1, L1131-1133)",
        )
        need(
            "de_la",
            blocks.get("de_la") is not None and blocks["de_la"].full >= 3,
            "the LA fields at least 3 steps (7.5 example, L2008)",
        )
        need(
            "it_5sa",
            blocks.get("it_5sa") is not None
            and blocks["it_5sa"].kind == "air_hq"
            and blocks["it_5sa"].full == 4,
            "the 5th Squadra Aerea is a 4-step tactical air HQ (12.0, L2337)",
        )
        need(
            "uk_aasf",
            blocks.get("uk_aasf") is not None
            and blocks["uk_aasf"].kind == "bomber"
            and blocks["uk_aasf"].full == 4,
            "the AASF are 4-step bombers (11.3 example, L2155)",
        )
        need(
            "uk_meac",
            blocks.get("uk_meac") is not None and blocks["uk_meac"].kind == "strategic_air_hq",
            "ME Air Command is a strategic air HQ (11.1, L2080-2092)",
        )
        need(
            "uk_13marine",
            blocks.get("uk_13marine") is not None
            and blocks["uk_13marine"].kind == "marines"
            and blocks["uk_13marine"].full == 5,
            "the 13th Marine Infantry has 5 steps (17.0 example, L2744)",
        )
        need(
            "ukn_cunningham",
            blocks.get("ukn_cunningham") is not None
            and blocks["ukn_cunningham"].kind == "navy_hq"
            and blocks["ukn_cunningham"].full == 4,
            "Cunningham is a 4-step Navy HQ (17.0 example, L2667)",
        )
        for hq in ("de_rommel", "uk_monty"):
            need(
                hq,
                blocks.get(hq) is not None
                and blocks[hq].kind == "armored_hq"
                and blocks[hq].full <= 4,
                "Rommel and Montgomery are armoured HQs of at most 4 AP (6.4 L959-965; 11.1 L2054-2057)",
            )
        turkish_inf = [
            b
            for b in u.blocks
            if b.power == "turkey"
            and b.kind == "infantry"
            and [(v, c) for v, c in b.track] == [(1, "blue"), (2, "black"), (3, "black")]
        ]
        if not turkish_inf:
            self.u.add(
                "no Turkish infantry has the track 1 blue, 2 black, 3 black (7.3.1, L1075-1078)",
                "blocks",
            )
        elites = sorted(b.id for b in u.blocks if b.elite)
        if elites != sorted(["de_dak", "de_la", "de_rommel", "uk_7armd"]):
            self.u.add(
                f"the elite units are Rommel, the DAK, the LA and the Desert Rats (9.0, L1933-1936), "
                f"not {elites}",
                "blocks",
            )

        def count(label: str, pred: Any, n: int, rule: str) -> None:
            got = [b for b in u.blocks if pred(b)]
            if len(got) != n:
                self.u.add(f"{len(got)} {label}; the rulebook has {n} ({rule})", "blocks")

        count("Turkish blocks", lambda b: b.power == "turkey", 13, "3.6, L450")
        count("Vichy blocks", lambda b: b.power == "vichy", 9, "BIA abstraction, L409")
        count(
            "French North Africa blocks",
            lambda b: b.territory in ("morocco", "algeria", "tunisia"),
            7,
            "3.6, L447",
        )
        count("Levant blocks", lambda b: b.territory == "levant", 2, "3.6, L448")
        count("Iraqi blocks", lambda b: b.power == "iraq", 1, "3.6, L446")
        count("Persian blocks", lambda b: b.power == "persia", 1, "3.6, L445")
        count("Wilson Force blocks", lambda b: b.wilson, 4, "3.6-3.7, L451 and L466-469")
        count(
            "Free French blocks", lambda b: b.power == "free_france", 1, "BIA abstraction, L405-408"
        )
        count(
            "dromedary blocks (Italian and South African static, 21st Indian)",
            lambda b: b.resident and b.power in ("italy", "uk") and not b.wilson,
            5,
            "3.6, L431-435",
        )
        for b in u.blocks:
            if b.power in ("iraq", "vichy") and b.track[0][1] != "blue":
                self.at_block(
                    b.id, f"{b.name}: Iraqi and Vichy units have a blue cadre (L420-421)", "track"
                )
            if b.power == "turkey":
                rebuildable = b.id in ("tr_leader", "tr_2c")
                if rebuildable == (b.track[0][1] == "blue"):
                    self.at_block(
                        b.id,
                        f"{b.name}: only the Turkish Leader and 2nd Infantry Corps lack a blue "
                        "cadre (L422-425)",
                        "track",
                    )
        for uid, power in (("pe_rp", "persia"), ("tr_leader", "turkey")):
            if uid in blocks and (blocks[uid].kind != "minor_shq" or blocks[uid].power != power):
                self.at_block(
                    uid, f"{blocks[uid].name} is a minor power's Supreme Leader (L422-425, L1919)"
                )
        if not any(
            b.kind == "cv" and b.planes.get(str(b.full)) == 2 and b.power == "uk" for b in u.blocks
        ):
            self.u.add(
                "no British carrier has 2 aircraft at full strength (17.0 example, L2495-2497)",
                "blocks",
            )

    # ------------------------------------------------------------------------ tables

    def tables(self) -> None:
        t = self.p.tables

        def want(ok: bool, message: str, *loc: Any) -> None:
            if not ok:
                self.t.add(message, *loc)

        for name, mp in (("clear", 1), ("forest", 2), ("hills", 2), ("mountain", 3), ("swamp", 3)):
            row = t.terrain.get(name)
            want(
                row is not None and row.mp == mp,
                f"{name} costs {mp} MP (7.5.1, L1390-1395)",
                "terrain",
                name,
            )
        if "mountain" in t.terrain:
            want(
                not t.terrain["mountain"].armor,
                "armour may not enter mountains (6.2, L938-939)",
                "terrain",
                "mountain",
            )
            want(
                not t.terrain["mountain"].supply,
                "supply lines do not cross mountains (4.3, L627)",
                "terrain",
                "mountain",
            )

        for cls, tech, key, value, rule in FIRE_FACTS:
            row = t.firepower.get(cls, {}).get(tech)
            want(row is not None and getattr(row, key) == value, rule, "firepower", cls, tech)
        for name, dice, hit in (
            ("minor", 1, 6),
            ("major", 2, 6),
            ("bunker", 1, 5),
            ("fortress", 2, 5),
        ):
            row = t.localities.get(name)
            want(
                row is not None and row.aa_dice == dice and row.aa_hit == hit,
                f"a {name} fires {dice} AA {'die' if dice == 1 else 'dice'} at {hit}-6 (6.5, L975-982)",
                "localities",
                name,
            )
        fort = t.localities.get("fortress")
        want(
            fort is not None
            and fort.attacker_malus == 2
            and fort.defender_bonus == 2
            and fort.when_captured == "bunker",
            "a fortress gives a double Malus and double Bonus and becomes "
            "a bunker when taken (7.7.9, L1728-1733)",
            "localities",
            "fortress",
        )
        site = t.localities.get("battle_site")
        want(
            site is not None and not site.airfield and site.aa_dice == 0,
            "historical battle sites are no airfields and have no AA (3.4.1, L306-309; L2217)",
            "localities",
            "battle_site",
        )
        want(
            t.edge_cost_ypp.get("black") == 1
            and t.edge_cost_ypp.get("white") == 2
            and t.edge_cost_ypp.get("red") == 3
            and t.edge_cost_ypp.get("blue") is None,
            "edges cost black 1, white 2, red 3 YPP; blue cannot be rebuilt (7.3.1, L1054-1059)",
            "edge_cost_ypp",
        )
        want(
            t.mine_die_roll
            == {
                "1": "safe",
                "2": "safe",
                "3": "safe",
                "4": "lose_step",
                "5": "lose_step",
                "6": "destroyed",
            },
            "the Mine Die Roll: 1-3 safe, 4-5 one step lost, 6 destroyed (7.5.4, L1411-1416)",
            "mine_die_roll",
        )
        st = t.stacking
        want(
            (
                st.ground_units,
                st.ground_combat_units,
                st.air_units_per_airfield,
                st.air_units_per_side_per_battle,
            )
            == (3, 2, 1, 2),
            "stacking: 3 ground units of which 2 GCU, 1 air unit per airfield, 2 per side in a battle "
            "(3.13, L524-533)",
            "stacking",
        )
        major, minor = t.ports.get("major"), t.ports.get("minor")
        want(
            major is not None
            and major.supply_units == 5
            and major.pp_per_turn == 5
            and minor is not None
            and minor.supply_units == 1
            and minor.pp_per_turn == 1,
            "a major port supplies 5 units and ships 5 PP, a minor port 1 and 1 (3.4.2, L354-358)",
            "ports",
        )
        want(
            t.supply_range == {"rail": 3, "port": 3, "road": 2, "red_arrow_cost": 3},
            "supply runs 3 hexes from rail and ports, 2 from roads; a red arrow uses 3 (3.9, L490-495; "
            "7.5.3, L1370-1375)",
            "supply_range",
        )
        self.tech_facts()

    def tech_facts(self) -> None:
        t = self.p.tables
        sept42 = month_turn(1942, 9)
        for power, cls, when, level, rule in TECH_FACTS:
            if t.tech(power, cls, when) != level:
                self.t.add(rule, "tech_dates", power, cls)
        if t.tech_dates.get("italy", {}).get("fighter", {}).get("3") != 65:
            self.t.add(
                "the Italian TECH 3 fighters' breakthrough happens on turn 65 (3.16, L555)",
                "tech_dates",
                "italy",
                "fighter",
            )
        if not t.tech("uk", "navy", sept42) > t.tech("italy", "navy", sept42):
            self.t.add(
                "in September 1942 the Royal Navy's TECH is higher than the Regia Marina's "
                "(17.0 example, L2687-2690)",
                "tech_dates",
            )

    # --------------------------------------------------------------------- scenarios

    def scenarios(self) -> None:
        ids = [s.id for s in self.p.scenarios.scenarios]
        for sid, (name, _difficulty) in SCENARIO_NAMES.items():
            if ids.count(sid) != 1:
                self.sc.add(
                    f"{sid} {name} must appear once, not {ids.count(sid)} times (scenarios overview, L35-44)",
                    "scenarios",
                )
        for i, s in enumerate(self.p.scenarios.scenarios):
            here = ("scenarios", i)
            expected = SCENARIO_NAMES.get(s.id)
            if expected is None:
                self.sc.add(f"{s.id} is no BIA scenario (L35-44)", *here, "id")
                continue
            if (s.name, s.difficulty) != expected:
                self.sc.add(
                    f"{s.id} is {expected[0]}, difficulty {expected[1]} (L35-44)", *here, "name"
                )
            if (s.kind == "naval") != (s.id in NAVAL_SCENARIOS):
                self.sc.add(
                    f"{s.id}: the four naval scenarios are BIA7-BIA10 (17.0, L2478-2482)",
                    *here,
                    "kind",
                )
            length = s.last_turn - s.first_turn + 1
            if not 1 <= length <= 5:
                self.sc.add(
                    f"{s.id} lasts {length} turns; scenarios last 1 to 5 (L31-32)",
                    *here,
                    "last_turn",
                )
            dates = _turns_of(s.dates)
            if dates and dates != (s.first_turn, s.last_turn):
                self.sc.add(
                    f"{s.id}: {s.dates} is turns {dates[0]}-{dates[1]}, not {s.first_turn}-{s.last_turn} "
                    "(L35-44; turn 36 is August 1942, L1189)",
                    *here,
                    "first_turn",
                )
            if s.kind == "land":
                self.land_scenario(i, s)
            else:
                self.naval_scenario(i, s)
            self.special_rules(i, s)

    def special_rules(self, i: int, s: Scenario) -> None:
        """Every reference of a scenario's special rules exists (powers, countries, hexes,
        turns within the scenario), and a rule carried by other data agrees with it:
        Tobruk's type (``tobruk``, D6), the hex's side at the start, the countries'
        control, the Dieppe Raid's turn (D9); a confinement or ban is not broken by the
        set-up or the reinforcements (RULINGS D10-D16)."""
        p = self.p

        def add(k: int, msg: str, key: str = "text") -> None:
            self.sc.add(
                f"{s.id} special rule {k + 1}: {msg}", "scenarios", i, "special_rules", k, key
            )

        def country(h: str) -> str | None:
            return p.hexes[h].country if h in p.hexes else None

        def holder(h: str) -> str | None:
            sides = {pl.side for pl in s.setup if pl.hex == h}
            if len(sides) == 1:
                return next(iter(sides))
            return s.hex_control.get(h, s.control.get(country(h) or ""))

        placed = [(pl.unit, pl.hex) for pl in s.setup]
        placed += [(r.unit, r.at) for r in s.reinforcements if not r.at.startswith("box:")]
        for k, r in enumerate(s.special_rules):
            for power in getattr(r, "powers", []):
                if power not in p.units.powers:
                    add(k, f"unknown power {power!r}", "powers")
            for c in [*getattr(r, "countries", []), *getattr(r, "via", [])]:
                if c not in p.map.countries:
                    add(k, f"unknown country {c!r}", "countries")
            powers = set(getattr(r, "powers", []))
            mine = [(u, h) for u, h in placed if u in p.blocks and p.blocks[u].power in powers]
            if isinstance(r, NoEntry):
                if r.before_turn is not None and not s.first_turn < r.before_turn <= s.last_turn:
                    add(k, f"turn {r.before_turn} is not within turns {s.first_turn + 1}-"
                        f"{s.last_turn}, so the ban is always or never in force", "before_turn")  # fmt: skip
                for u, h in mine:
                    if country(h) in r.countries:
                        add(k, f"{p.blocks[u].name} stands in {country(h)}, where it may not enter")
            elif isinstance(r, Confine):
                for u, h in mine:
                    if country(h) not in r.countries:
                        add(
                            k, f"{p.blocks[u].name} stands in {country(h)}, outside its confinement"
                        )
            elif isinstance(r, InPlay):
                for u, h in placed:
                    if country(h) not in r.countries:
                        who = p.blocks[u].name if u in p.blocks else u
                        add(k, f"{who} stands in {country(h)}, which is not in play")
                for rule in s.victory.rules:
                    for h in (*rule.all, *rule.any, *rule.of):
                        if country(h) not in r.countries:
                            add(k, f"victory names {h}, in {country(h)}, which is not in play")
            elif isinstance(r, AirRoute):
                if not any(p.blocks[u].kind in AIR_KINDS for u, _ in mine):
                    add(k, "no air unit of these powers is in the scenario", "powers")
                fields = [
                    h.id for h in p.map.hexes
                    if h.country in r.via and h.locality
                    and p.tables.localities[h.locality].airfield
                ]  # fmt: skip
                if not fields:
                    add(k, f"{', '.join(r.via)} has no airfield to fly through", "via")
            elif isinstance(r, LocalityRule):
                h = p.hexes.get(r.hex)
                if h is None or h.name != r.place or h.locality is None:
                    add(k, f"{r.hex} is not the locality {r.place} on the map", "hex")
                    continue
                now = s.tobruk if r.place == "Tobruk" and s.tobruk else h.locality
                if now != r.locality:
                    add(k, f"{r.place} is a {now} in this scenario's data, not a {r.locality}",
                        "locality")  # fmt: skip
                if holder(r.hex) != r.held_by:
                    add(k, f"{r.place} is held by the {holder(r.hex)} at the start, not the "
                        f"{r.held_by}", "held_by")  # fmt: skip
            elif isinstance(r, ControlRule):
                for c in r.countries:
                    if s.control.get(c) != r.side or c in s.neutral:
                        add(k, f"{c} is {s.control.get(c) or 'nobody'}'s at the start"
                            f"{' and neutral' if c in s.neutral else ''}, not the {r.side}'s",
                            "countries")  # fmt: skip
            elif isinstance(r, DieppeFrom):
                if r.turn != p.strategic.dieppe_raid_turn + 1:
                    add(k, f"the Dieppe Raid bonus applies from turn "
                        f"{p.strategic.dieppe_raid_turn + 1} (7.3.2, L1200-1206; D9)", "turn")  # fmt: skip
                if r.turn > s.last_turn:
                    add(k, "the bonus would never be in force in the scenario", "turn")
            elif isinstance(r, ExampleFrom) and not s.first_turn <= r.turn <= s.last_turn:
                add(k, f"turn {r.turn} is outside the scenario", "turn")

    def land_scenario(self, i: int, s: Scenario) -> None:
        here = ("scenarios", i)
        p = self.p
        tobruk = {"BIA3": "fortress", "BIA4": "bunker", "BIA6": "bunker", "BIA5": "minor"}.get(s.id)
        if tobruk and s.tobruk != tobruk:
            self.sc.add(
                f"{s.id}: Tobruk is a {tobruk} then: an Italian fortress until January 1941, a British "
                "bunker until 21 June 1942, an Axis minor city after (7.7.9, L1751-1756)",
                *here,
                "tobruk",
            )
        for country in [*s.control, *s.neutral]:
            if country not in p.map.countries:
                self.sc.add(f"{s.id}: unknown country {country!r}", *here, "control")
        for h in s.hex_control:
            if h not in p.hexes:
                self.sc.add(
                    f"{s.id}: hex_control names {h}, which is not on the map", *here, "hex_control"
                )
        for power in s.income:
            if power not in p.units.powers:
                self.sc.add(f"{s.id}: income for unknown power {power!r}", *here, "income", power)
        seen: set[str] = set()
        stacks: dict[tuple[str, str], list[Block]] = {}
        for k, pl in enumerate(s.setup):
            at = (*here, "setup", k)
            b = p.blocks.get(pl.unit)
            if b is None:
                self.sc.add(f"{s.id}: unknown unit {pl.unit!r}", *at)
                continue
            if pl.unit in seen:
                self.sc.add(f"{s.id}: {b.name} is set up twice", *at)
            seen.add(pl.unit)
            side = p.units.powers[b.power].side
            if side != pl.side:
                self.sc.add(f"{s.id}: {b.name} fights for the {side}, not the {pl.side}", *at)
            if pl.steps not in b.values() or pl.steps == 0 and b.kind in AIR_KINDS:
                self.sc.add(
                    f"{s.id}: {b.name} cannot stand at {pl.steps}; its edges are {b.values()} (3.14)",
                    *at,
                )
            if not self.enterable(pl.hex):
                self.sc.add(
                    f"{s.id}: {b.name} is set up in {pl.hex}, which no unit may enter (7.5.2)", *at
                )
                continue
            country = p.hexes[pl.hex].country
            if country in s.neutral:
                self.sc.add(f"{s.id}: {b.name} stands in neutral {country}", *at)
            stacks.setdefault((pl.hex, pl.side), []).append(b)
            if b.kind in AIR_KINDS:
                self.airfield(s, pl, at)
        for (h, side), units in stacks.items():
            ground = [b for b in units if b.kind not in AIR_KINDS]
            combat = [b for b in ground if b.kind not in SUPPORT_KINDS]
            air = [b for b in units if b.kind in AIR_KINDS]
            k = next(k for k, pl in enumerate(s.setup) if pl.hex == h and pl.side == side)
            if len(ground) > 3 or len(combat) > 2:
                self.sc.add(
                    f"{s.id}: {len(ground)} ground units ({len(combat)} combat) of the {side} in {h}; at "
                    "most 3, of which 2 combat units (3.13, L524-529)",
                    *here,
                    "setup",
                    k,
                )
            if len(air) > 1:
                self.sc.add(
                    f"{s.id}: {len(air)} air units on the airfield {h}; one at most (3.4.1, L304-305)",
                    *here,
                    "setup",
                    k,
                )
            if (h, "axis" if side == "allied" else "allied") in stacks:
                self.sc.add(f"{s.id}: both sides set up in {h}", *here, "setup", k)
        for k, r in enumerate(s.reinforcements):
            at = (*here, "reinforcements", k)
            b = p.blocks.get(r.unit)
            if b is None:
                self.sc.add(f"{s.id}: unknown reinforcement {r.unit!r}", *at)
                continue
            if r.unit in seen:
                self.sc.add(f"{s.id}: {b.name} is both set up and a reinforcement", *at)
            if not s.first_turn <= r.turn <= s.last_turn:
                self.sc.add(f"{s.id}: {b.name} arrives on turn {r.turn}, outside the scenario", *at)
            box = r.at[4:] if r.at.startswith("box:") else None
            if (
                box is not None
                and box not in p.strategic.boxes
                or box is None
                and not self.enterable(r.at)
            ):
                self.sc.add(
                    f"{s.id}: {b.name} arrives at {r.place}, which is neither a box nor a playable hex",
                    *at,
                )
            if r.steps not in b.values():
                self.sc.add(
                    f"{s.id}: {b.name} cannot arrive at {r.steps}; its edges are {b.values()}", *at
                )
            if r.unit == "uk_monty" and (r.turn != month_turn(1942, 8) or r.steps != b.full):
                self.sc.add(
                    f"{s.id}: Montgomery arrives at full strength on turn 36 (7.3.2, L1186-1189)",
                    *at,
                )
        for k, r in enumerate(s.removals):
            if r.unit not in p.blocks:
                self.sc.add(f"{s.id}: unknown unit {r.unit!r} to remove", *here, "removals", k)
        for k, rule in enumerate(s.victory.rules):
            for h in (*rule.all, *rule.any, *rule.of):
                if h not in p.hexes or p.hexes[h].locality is None:
                    self.sc.add(
                        f"{s.id}: victory names {h}, which is no locality on the map",
                        *here,
                        "victory",
                        "rules",
                        k,
                    )

    def airfield(self, s: Scenario, pl: Placement, at: tuple[Any, ...]) -> None:
        """Air units stand on an airfield: a controlled city or bunker (3.4.1, L301-309)."""
        h = self.p.hexes[pl.hex]
        row = self.p.tables.localities.get(h.locality or "")
        if row is None or not row.airfield:
            self.sc.add(
                f"{s.id}: {self.p.blocks[pl.unit].name} is set up in {pl.hex}, which is no airfield "
                "(3.4.1, L306-309)",
                *at,
            )
        owner = s.hex_control.get(pl.hex, s.control.get(h.country or ""))
        occupied = {
            q.side
            for q in s.setup
            if q.hex == pl.hex
            and self.p.blocks.get(q.unit) is not None
            and self.p.blocks[q.unit].kind not in AIR_KINDS
        }
        if occupied:
            owner = next(iter(occupied)) if len(occupied) == 1 else owner
        if owner != pl.side:
            self.sc.add(
                f"{s.id}: the airfield {pl.hex} of {self.p.blocks[pl.unit].name} is not {pl.side}-controlled "
                "(3.4.1, L306-307)",
                *at,
            )

    def naval_scenario(self, i: int, s: Scenario) -> None:
        here = ("scenarios", i)
        p = self.p
        seen: set[str] = set()
        in_port: dict[str, int] = {}
        convoy: set[tuple[str, str]] = set()
        fuel_needed: dict[str, int] = {}
        hq_ap: dict[str, int] = {}
        for k, f in enumerate(s.fleets):
            at = (*here, "fleets", k)
            if len(f.blocks) > 5:
                self.sc.add(
                    f"{s.id}: fleet {f.id} has {len(f.blocks)} blocks; a fleet has 1 to 5 (17.0, L2536)",
                    *at,
                )
            side = p.units.powers[f.power].side if f.power in p.units.powers else None
            for j, fb in enumerate(f.blocks):
                b = p.blocks.get(fb.unit)
                if b is None or not (b.kind in NAVAL_KINDS or b.kind == "navy_hq"):
                    self.sc.add(
                        f"{s.id}: {fb.unit} in fleet {f.id} is no naval block", *at, "blocks", j
                    )
                    continue
                if fb.unit in seen:
                    self.sc.add(f"{s.id}: {b.name} sails in two fleets", *at, "blocks", j)
                seen.add(fb.unit)
                if fb.steps not in b.values():
                    self.sc.add(
                        f"{s.id}: {b.name} cannot stand at {fb.steps}; its edges are {b.values()}",
                        *at,
                        "blocks",
                        j,
                    )
                if p.units.powers[b.power].side != side:
                    self.sc.add(
                        f"{s.id}: {b.name} does not belong to fleet {f.id}'s side", *at, "blocks", j
                    )
                if b.kind == "navy_hq" and side:
                    hq_ap[side] = hq_ap.get(side, 0) + fb.steps
            kind, _, ref = f.at.partition(":")
            if kind == "port":
                h = p.hexes.get(ref)
                if h is None or h.port is None:
                    self.sc.add(
                        f"{s.id}: fleet {f.id} is in {f.place}, which is no port", *at, "at"
                    )
                    continue
                in_port[ref] = in_port.get(ref, 0) + len(f.blocks)
                cap = p.tables.ports[h.port].naval_units
                if in_port[ref] > cap:
                    self.sc.add(
                        f"{s.id}: {in_port[ref]} naval blocks in {h.name}; a {h.port} port holds {cap} "
                        "(17.0, L2537-2543)",
                        *at,
                        "at",
                    )
            elif kind == "sea":
                if ref not in p.map.bodies_of_water:
                    self.sc.add(
                        f"{s.id}: fleet {f.id} is at sea on unknown body {ref!r}", *at, "at"
                    )
                if side:
                    fuel_needed[side] = fuel_needed.get(side, 0) + 1
            elif kind == "convoy":
                if ref not in p.strategic.convoy_boxes:
                    self.sc.add(f"{s.id}: fleet {f.id} is in unknown convoy box {ref!r}", *at, "at")
                if (f.power, ref) in convoy:
                    self.sc.add(
                        f"{s.id}: two {f.power} fleets in the {ref} convoy box; one per power (17.0, L2537)",
                        *at,
                        "at",
                    )
                convoy.add((f.power, ref))
                if side:
                    fuel_needed[side] = fuel_needed.get(side, 0) + 1
            else:
                self.sc.add(
                    f"{s.id}: fleet {f.id} is at {f.at!r}; use port:, sea: or convoy:", *at, "at"
                )
        for side, n in fuel_needed.items():
            if n > hq_ap.get(side, 0) + 1:
                self.sc.add(
                    f"{s.id}: the {side} keeps {n} fleets at sea or in convoy boxes but its Navy HQs and "
                    f"Supreme Leader fuel only {hq_ap.get(side, 0) + 1} (17.0, L2544-2547)",
                    *here,
                    "fleets",
                )
        sides = {p.units.powers[f.power].side for f in s.fleets if f.power in p.units.powers}
        if not {"axis", "allied"} <= sides:
            self.sc.add(f"{s.id}: a naval scenario needs fleets of both sides", *here, "fleets")
        for box in s.victory.convoys:
            if box not in p.strategic.convoy_boxes:
                self.sc.add(f"{s.id}: victory names unknown convoy box {box!r}", *here, "victory")


def _turns_of(dates: str) -> tuple[int, int] | None:
    """The campaign turns a scenario's dates span ("June - July 1941" is 22-23)."""
    words = dates.replace("-", " ").replace(",", " ").lower().split()
    months: list[int] = []
    years: list[int] = []
    for w in words:
        if w in MONTHS:
            months.append(MONTHS.index(w) + 1)
        elif w.isdigit() and len(w) == 4:
            years.append(int(w))
    if not months or not years:
        return None
    first_year = years[0]
    last_year = years[-1]
    if len(years) == 1 and len(months) == 2 and months[1] < months[0]:
        first_year -= 1
    return month_turn(first_year, months[0]), month_turn(last_year, months[-1])
