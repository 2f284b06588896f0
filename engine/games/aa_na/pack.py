"""The Axis & Allies: North Africa data pack: board, unit charts, scenarios and tables.

Four files under ``data/``, each opening with a :class:`~engine.core.datapack.PackHeader`
(``provenance: reconstruction``, written by ``tools/aa_na_pack.py``; ``data/README.md``
says what is reconstructed from what). Rulebook lines are cited ``L<n>`` of
``000_6064d7d6e5e4d9cf.txt``.

``board.json``
    Every territory and sea zone (real latitude and longitude, region, RP value, printed
    stacking limit, coast road, Sahara, impassable, Morocco/Algeria/Tunisia, island,
    port, permanent emblem, staging, defensive bonus), every border, the coast road in
    order, the convoy sea zones with their ports and routes, the Strait of Messina and the
    other restricted zones, and the sea unit deployment zones (Spaces on the Game Board,
    L467-547).
``units.json``
    Each power's reference chart: cost, attack, defense, movement, pieces, unit
    characteristics (L317-330, L1087-1297), and the supply and mine items.
``setup.json``
    Rommel's Last Push and Operation Torch: starting units, supply, control markers,
    mines, UK variable reinforcements, round-track events, entry into Morocco, Algeria and
    Tunisia, the Torch attacks and the victory chart (L240-259, L352-413, L1000-1059).
``tables.json``
    Powers, turn order, National Basic RP, 2-4 player splits, components and limits.

:func:`check` reports every problem of a pack (shape, references, the validators the
rules digest lists, the facts the rulebook states) with its file and line.
"""

from __future__ import annotations

from collections import Counter, deque
from functools import cache
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from engine.core import datapack
from engine.core.datapack import PackFile, Problem

GAME = "aa-na"

PowerId = Literal["ger", "uk", "ita", "us", "fra"]
SideId = Literal["axis", "allies"]
UnitKind = Literal["land", "air", "sea"]

#: every unit characteristic the rulebook names (Unit Profiles, L1087-1297), plus the
#: chart notes "Noncombat Move Only" and "Cannot Be Requisitioned" (L323, L325)
Characteristic = Literal[
    "Air Defense",
    "Anti-Submarine Vessel",
    "Blitz",
    "Cannot Attack",
    "Cannot Be Hit by Air Units",
    "Cannot Be Requisitioned",
    "Cannot Hit Air Units",
    "Coast Road Movement",
    "Collateral Damage",
    "Does Not Block Enemy Movement",
    "Elite Crews",
    "Hit and Run",
    "Land Transport",
    "Logistical Unit",
    "Long-Range Patrol",
    "No Defense Value",
    "Noncombat Move Only",
    "Sahara Desert Movement",
    "Self-Sufficient",
    "Submersible",
    "Supply Raider",
    "Supported by Artillery",
    "Supports Infantry",
    "Surprise Strike",
    "Targeted Attack - Air Units",
    "Targeted Attack - Combat Land Units",
    "Targeted Attack - Sea Units",
    "Targeted Fire - Tanks",
    "Treat Hostile Sea Zones as Friendly",
    "Two Hits to Destroy",
]


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid")


# ---------------------------------------------------------------- board.json


class DefensiveBonus(_Model):
    """Printed defensive bonus (L495, L807): ``against`` is ``all`` or ``from:<id>``;
    in step 3 defending units reroll the listed results."""

    against: str
    reroll: list[int]


class Space(_Model):
    """A territory or a sea zone (Spaces on the Game Board, L467-547)."""

    id: str
    name: str
    aliases: list[str] = []
    kind: Literal["territory", "sea"]
    lat: float = Field(ge=20, le=46)
    lon: float = Field(ge=-20, le=40)
    region: str = ""
    #: number printed in a numbered sea zone
    number: int | None = None
    #: Reinforcement Points, 1-15 printed circled (L481); 0 = cannot be controlled (L485)
    rp: int = Field(default=0, ge=0, le=15)
    #: printed stacking limit; ``None`` = the default 8 (L491)
    stacking_limit: int | None = Field(default=None, ge=1)
    coast_road: bool = False
    sahara: bool = False
    impassable: bool = False
    #: Morocco, Algeria or Tunisia: west of the white line (L477)
    mat: bool = False
    island: bool = False
    port: bool = False
    #: power whose emblem is printed on it: never invaded by enemy land units (L475)
    permanent: PowerId | None = None
    staging_for: list[PowerId] = []
    defensive_bonus: DefensiveBonus | None = None


class Convoy(_Model):
    """A convoy route printed in a sea zone (L515): its port, its emblems (one permanent
    emblem, or two ghosted ones), and for the UK route the zone it advances to next."""

    id: str
    port: str | None
    emblems: list[PowerId]
    permanent: bool
    next: str | None


class Passage(_Model):
    """A border between two sea zones only one side's sea units cross (L525-527)."""

    id: str
    name: str
    between: tuple[str, str]
    sea_units_of: SideId
    note: str = ""


class BoardPack(PackFile):
    spaces: list[Space]
    #: undirected borders, each listed once
    borders: list[tuple[str, str]]
    #: coast-road territories west to east, consecutive ones bordering (L539-543)
    coast_road: list[str]
    convoys: list[Convoy]
    passages: list[Passage]
    entry_only_from: dict[str, list[str]]
    closed_except: dict[str, list[PowerId]]
    sea_deploy_zones: dict[PowerId, list[str]]
    no_axis_sea_mines: list[str]
    axis_island_deploy: list[str]
    naval_base: str


# ---------------------------------------------------------------- units.json


class UnitType(_Model):
    """A row of a power's reference chart. ``cost`` is ``None`` where the unit cannot be
    requisitioned; ``attack``/``defense`` ``None`` where the chart prints a dash; a unit
    hits on a d10 roll of its value or less (L238, L785)."""

    id: str
    power: PowerId
    #: the family the rules name (``tank`` for Matilda, Sherman, Panzer IV...)
    type: str
    name: str
    kind: UnitKind
    cost: int | None = Field(ge=1)
    attack: int | None = Field(ge=1, le=10)
    defense: int | None = Field(ge=1, le=10)
    movement: int = Field(ge=0)
    hits: Literal[1, 2] = 1
    #: trucks are logistical units, not combat units (L1215)
    combat: bool = True
    pieces: int = Field(ge=0)
    characteristics: list[Characteristic] = []
    #: set for a unit only an optional rule brings in
    optional: str | None = None


class Item(_Model):
    id: Literal["supply", "sea_mine", "land_mine"]
    name: str
    cost: int = Field(ge=1)
    note: str = ""


class UnitsPack(PackFile):
    units: list[UnitType]
    items: list[Item]


# ---------------------------------------------------------------- setup.json


class Placement(_Model):
    power: PowerId
    #: ``None`` only in an event that adds units to a power's pool
    space: str | None
    unit: str
    count: int = Field(ge=1)


class SupplyStack(_Model):
    space: str
    value: int = Field(ge=1)


class LandMines(_Model):
    """Mine tokens on one border of ``territory``, facing ``facing`` (L587, L954)."""

    territory: str
    facing: str
    tokens: list[Literal[1, 2]]


class SetAside(_Model):
    unit: str
    count: int = Field(ge=1)


class SkippedTurn(_Model):
    round: int = Field(ge=1, le=14)
    power: PowerId


class MatEntry(_Model):
    """Which sides may enter Morocco, Algeria and Tunisia in these rounds (L1006-1046)."""

    from_round: int = Field(ge=1, le=14)
    to_round: int = Field(ge=1, le=14)
    sides: list[SideId]


class DeclaredAttack(_Model):
    target: str
    powers: list[PowerId]
    controller_if_won: PowerId | None = None


class RoundRule(_Model):
    round: int = Field(ge=1, le=14)
    rule: str
    text: str


class Event(_Model):
    """A round-track event (L438-443, L1010-1042): ``phase`` 0 = before the round."""

    round: int = Field(ge=1, le=14)
    power: PowerId | None
    phase: int = Field(ge=0, le=6)
    kind: Literal[
        "place_units",
        "add_to_pool",
        "control",
        "open_convoy",
        "place_supply",
        "declared_attacks",
    ]
    source: str = ""
    units: list[Placement] = []
    control: dict[str, PowerId] = {}
    convoy_markers: dict[str, list[PowerId]] = {}
    supply: list[SupplyStack] = []
    attacks: list[DeclaredAttack] = []


class Capture(_Model):
    capture: str


class VictoryLevel(_Model):
    side: SideId
    level: Literal["total", "major", "minor"]
    #: territories to control; all of them, or any one when ``any`` ("and/or", L257)
    control: list[str]
    any: bool = False


class Victory(_Model):
    instant: dict[SideId, Capture]
    levels: list[VictoryLevel]


class Scenario(_Model):
    id: Literal["rlp", "ot"]
    name: str
    date: str
    first_round: int = Field(ge=1, le=14)
    source: str = ""
    skipped_turns: list[SkippedTurn]
    mat_entry: list[MatEntry]
    uk_variable_reinforcements: dict[str, int]
    declared_attacks: list[DeclaredAttack]
    round_rules: list[RoundRule]
    strategic_reserve: dict[SideId, int]
    victory: Victory
    set_aside: list[SetAside]
    control: dict[str, PowerId]
    convoy_markers: dict[str, list[PowerId]]
    placements: list[Placement]
    supply: list[SupplyStack]
    land_mines: list[LandMines]
    events: list[Event]


class SetupPack(PackFile):
    scenarios: list[Scenario]


# ---------------------------------------------------------------- tables.json


class Power(_Model):
    id: PowerId
    name: str
    side: Literal["axis", "allies", "neutral"]
    colour: str
    #: place in the round, 1 = first; 0 for France, which never takes a turn (L1067)
    turn_order: int = Field(ge=0)
    #: National Basic RP printed on the board (L565)
    national_basic_rp: int = Field(ge=0)
    takes_turns: bool


class TablesPack(PackFile):
    powers: list[Power]
    #: number of players -> the powers each player controls (L277-301)
    players: dict[str, list[list[str]]]
    components: dict[str, int]
    limits: dict[str, int]
    round_track: list[int]


# ---------------------------------------------------------------- loading

#: the pack's files and the model each is validated by
FILES: dict[str, type[PackFile]] = {
    "board": BoardPack,
    "units": UnitsPack,
    "setup": SetupPack,
    "tables": TablesPack,
}


class Board:
    """The board as a graph, with lookups by id, name or alias."""

    def __init__(self, pack: BoardPack) -> None:
        self.pack = pack
        self.spaces: dict[str, Space] = {s.id: s for s in pack.spaces}
        adj: dict[str, set[str]] = {s.id: set() for s in pack.spaces}
        for a, b in pack.borders:
            if a in adj and b in adj:
                adj[a].add(b)
                adj[b].add(a)
        self._adjacent = {k: frozenset(v) for k, v in adj.items()}
        self._names: dict[str, str] = {}
        for s in pack.spaces:
            for word in (s.id, s.name, *s.aliases):
                self._names.setdefault(_key(word), s.id)

    def neighbours(self, space_id: str) -> frozenset[str]:
        return self._adjacent[space_id]

    def adjacent(self, a: str, b: str) -> bool:
        return b in self._adjacent.get(a, frozenset())

    def find(self, name: str) -> Space | None:
        """The space called ``name`` (any spelling in its aliases), or ``None``."""
        sid = self._names.get(_key(name))
        return self.spaces[sid] if sid else None

    def stacking_limit(self, space_id: str, default: int = 8) -> int:
        return self.spaces[space_id].stacking_limit or default


def _key(word: str) -> str:
    return "".join(ch for ch in word.lower() if ch.isalnum())


@cache
def load_board() -> Board:
    return Board(datapack.load(GAME, "board", BoardPack))


@cache
def load_units() -> UnitsPack:
    return datapack.load(GAME, "units", UnitsPack)


@cache
def load_setup() -> SetupPack:
    return datapack.load(GAME, "setup", SetupPack)


@cache
def load_tables() -> TablesPack:
    return datapack.load(GAME, "tables", TablesPack)


# ---------------------------------------------------------------- checking

#: ``(file name, JSON path, message)`` before the path becomes a line number
_Found = tuple[str, tuple[Any, ...], str]

#: places the rulebook names (section 3.2 of the digest): each must be a space
NAMED_PLACES = {
    "cairo": "L250",
    "mersa_matruh": "L483",
    "siwa": "L813",
    "qattara_depression": "L475",
    "bir_hacheim": "L813",
    "tobruk": "L256",
    "benghazi": "L256",
    "el_agheila": "L244",
    "sirte": "L390",
    "zella": "L358",
    "tripoli": "L256",
    "mareth": "L256",
    "tunis": "L250",
    "kasserine_pass": "L1021",
    "el_oued": "L773",
    "laghouat": "L773",
    "constantine": "L483",
    "algiers": "L257",
    "oran": "L407",
    "casablanca": "L406",
    "spanish_morocco": "L543",
    "italy": "L475",
    "sicily": "L356",
    "sardinia": "L936",
    "crete": "L936",
    "malta": "L475",
    "gibraltar": "L503",
    "sz1": "L572",
    "sz5": "L533",
    "sz8": "L377",
    "sz10": "L370",
    "sz11": "L527",
    "sz13": "L371",
    "sz16": "L527",
    "sz31": "L579",
}
#: borders the rulebook's examples rely on (digest 3.5)
REQUIRED_BORDERS = [
    ("mersa_matruh", "tobruk", "L813"),
    ("mersa_matruh", "bir_hacheim", "L813"),
    ("mersa_matruh", "siwa", "L813, L865"),
    ("tripoli", "mareth", "L495"),
    ("el_oued", "laghouat", "L773"),
    ("el_oued", "kasserine_pass", "L773"),
    ("sz11", "sz16", "L527"),
    ("indian_ocean_csz", "suez_canal_csz", "L507"),
]
#: territories the text names as RP territories (controlled, L485, L250-257, L855, L1021)
RP_TERRITORIES = [
    "cairo",
    "tobruk",
    "benghazi",
    "tripoli",
    "mareth",
    "tunis",
    "kasserine_pass",
    "algiers",
    "oran",
    "casablanca",
    "malta",
]
#: ports with a convoy route, and the emblems printed in their zone (L515, L855-857, L925)
PORT_EMBLEMS = {
    "casablanca": {"uk", "us"},
    "oran": {"uk", "us"},
    "algiers": {"uk", "us"},
    "tunis": {"ger", "ita"},
    "tripoli": {"ger", "ita"},
    "benghazi": {"ger", "ita"},
    "malta": {"uk"},
}
#: the UK's safe route (L515, L926)
UK_ROUTE = ["atlantic_ocean_csz", "indian_ocean_csz", "suez_canal_csz"]
#: pieces in the box per power and type (Unit List, L119-177)
PIECES = {
    "ger": {
        "infantry": 12,
        "mech_infantry": 6,
        "artillery": 6,
        "anti_tank_gun": 6,
        "scout_car": 4,
        "tank": 10,
        "truck": 2,
        "fighter": 5,
        "bomber": 4,
        "submarine": 3,
    },
    "uk": {
        "infantry": 12,
        "artillery": 6,
        "anti_tank_gun": 8,
        "aaa": 6,
        "scout_car": 6,
        "tank": 10,
        "truck": 6,
        "fighter": 6,
        "bomber": 3,
        "battleship": 2,
        "destroyer": 4,
        "submarine": 2,
    },
    "ita": {
        "infantry": 12,
        "artillery": 6,
        "aaa": 4,
        "scout_car": 4,
        "tank": 7,
        "truck": 2,
        "fighter": 3,
        "bomber": 2,
        "destroyer": 3,
        "submarine": 3,
    },
    "us": {
        "infantry": 12,
        "artillery": 6,
        "aaa": 4,
        "tank": 8,
        "truck": 2,
        "fighter": 3,
        "bomber": 3,
        "destroyer": 2,
    },
    "fra": {"infantry": 7, "tank": 4},
}
SIDE_OF = {"ger": "axis", "ita": "axis", "uk": "allies", "us": "allies"}


def check(path: Path | str | None = None) -> list[Problem]:
    """Every problem of a pack as ``(file, line, message)``: ``umpire datapack check
    aa-na``. ``path`` is a folder holding ``board.json``, ``units.json``, ``setup.json``
    and ``tables.json``; without it, the pack the game plays with (shipped, or replaced
    under ``UMPIRE_DATAPACKS``).

    Each file is validated for shape, then for its own references and the rulebook's
    facts, then the four against each other.

    >>> check()
    []
    """
    out: list[Problem] = []
    loaded: dict[str, tuple[str, dict[tuple[Any, ...], int], Any]] = {}
    for name, model in FILES.items():
        file = Path(path) / f"{name}.json" if path is not None else datapack.pack_path(GAME, name)
        try:
            text = file.read_text(encoding="utf-8")
        except OSError as exc:
            out.append((str(file), None, f"cannot read the file: {exc.strerror}"))
            continue
        pack, lines, problems = datapack.validate_text(file, text, model)
        out.extend(problems)
        if pack is not None:
            loaded[name] = (str(file), lines, pack)
    found: list[_Found] = []
    board = loaded.get("board", (None, None, None))[2]
    units = loaded.get("units", (None, None, None))[2]
    setup = loaded.get("setup", (None, None, None))[2]
    tables = loaded.get("tables", (None, None, None))[2]
    if board is not None:
        found += board_problems(board)
    if units is not None:
        found += units_problems(units)
    if tables is not None:
        found += tables_problems(tables)
    if board is not None and units is not None and setup is not None:
        found += setup_problems(board, units, setup)
    for name, loc, message in found:
        file, lines, _ = loaded[name]
        out.append((file, datapack.line_of(lines, loc), message))
    return out


def board_problems(board: BoardPack) -> list[_Found]:
    """References inside ``board.json`` and the board facts of the rulebook and digest."""
    out: list[_Found] = []

    def bad(loc: tuple[Any, ...], message: str) -> None:
        out.append(("board", loc, message))

    spaces: dict[str, Space] = {}
    index: dict[str, int] = {}
    names: dict[str, str] = {}
    for i, s in enumerate(board.spaces):
        if s.id in spaces:
            bad(("spaces", i, "id"), f"space id {s.id!r} is listed twice")
            continue
        spaces[s.id] = s
        index[s.id] = i
        for word in (s.id, s.name, *s.aliases):
            if names.setdefault(_key(word), s.id) != s.id:
                bad(("spaces", i), f"the name {word!r} names both {names[_key(word)]} and {s.id}")
        if s.kind == "sea":
            land_only = [
                f
                for f in (
                    "rp",
                    "stacking_limit",
                    "coast_road",
                    "sahara",
                    "impassable",
                    "mat",
                    "island",
                    "port",
                    "permanent",
                    "defensive_bonus",
                )
                if getattr(s, f)
            ]
            if land_only or s.staging_for:
                what = ", ".join(land_only or ["staging_for"])
                bad(("spaces", i), f"{s.id}: a sea zone has no {what} (L233, L481)")
        else:
            if s.number is not None:
                bad(("spaces", i, "number"), f"{s.id}: only sea zones are numbered")
            if s.rp and (s.impassable or s.sahara):
                bad(("spaces", i, "rp"), f"{s.id}: an impassable or Sahara territory has no RP")
            if s.sahara and s.port:
                bad(("spaces", i, "port"), f"{s.id}: a Sahara territory has no port (digest 3.7)")
            if s.impassable and (s.port or s.permanent or s.staging_for):
                bad(("spaces", i), f"{s.id}: an impassable territory is entered by no one")
    adj: dict[str, set[str]] = {sid: set() for sid in spaces}
    for i, (a, b) in enumerate(board.borders):
        missing = [end for end in (a, b) if end not in spaces]
        if missing:
            bad(("borders", i), f"border {a} - {b}: no space called {missing[0]!r}")
        elif a == b:
            bad(("borders", i), f"border {a} - {b} joins a space to itself")
        elif b in adj[a]:
            bad(("borders", i), f"border {a} - {b} is listed twice")
        else:
            adj[a].add(b)
            adj[b].add(a)

    def where(sid: str) -> tuple[Any, ...]:
        return ("spaces", index[sid]) if sid in index else ("spaces",)

    # sea zone numbers: 1..N without gaps, 31 the highest the text names (L579)
    numbers = Counter(s.number for s in spaces.values() if s.number is not None)
    for n, times in sorted(numbers.items()):
        if times > 1:
            bad(("spaces",), f"sea zone number {n} is used {times} times")
    if numbers and sorted(numbers) != list(range(1, max(numbers) + 1)):
        gaps = sorted(set(range(1, max(numbers) + 1)) - set(numbers))
        bad(
            ("spaces",),
            f"sea zones are not numbered 1 to {max(numbers)} without gaps: {gaps} missing",
        )
    if max(numbers, default=0) < 31:
        bad(("spaces",), "the text names sea zone 31 (L579): there are at least 31 sea zones")
    # islands: a territory touching sea zones only (L533)
    for sid, s in spaces.items():
        if s.kind == "territory":
            land = [n for n in adj[sid] if spaces[n].kind == "territory"]
            if s.island and land:
                bad(where(sid), f"{sid}: an island borders no territory, but borders {land[0]}")
            if s.island and not adj[sid]:
                bad(where(sid), f"{sid}: an island must touch a sea zone")
        if s.defensive_bonus and s.defensive_bonus.against != "all":
            src = s.defensive_bonus.against.removeprefix("from:")
            if src not in adj[sid]:
                bad(
                    where(sid) + ("defensive_bonus",),
                    f"{sid}: its defensive bonus names {src!r}, which is not a neighbour",
                )
    # the coast road: one chain, consecutive territories bordering, broken only by
    # impassable Spanish Morocco (L539-543; digest 3.7)
    seen_road: set[str] = set()
    for i, sid in enumerate(board.coast_road):
        loc = ("coast_road", i)
        s = spaces.get(sid)
        if s is None or s.kind != "territory":
            bad(loc, f"coast road: {sid!r} is not a territory")
            continue
        if sid in seen_road:
            bad(loc, f"coast road: {sid} appears twice")
        seen_road.add(sid)
        if not s.coast_road:
            bad(loc, f"coast road: {sid} is on the road but not flagged coast_road")
        if s.impassable and sid != "spanish_morocco":
            bad(loc, f"coast road: only Spanish Morocco breaks the road (L543), not {sid}")
        if i and board.coast_road[i - 1] in spaces and sid not in adj[board.coast_road[i - 1]]:
            bad(loc, f"coast road: {board.coast_road[i - 1]} and {sid} do not share a border")
    for sid, s in spaces.items():
        if s.coast_road and sid not in seen_road:
            bad(where(sid), f"{sid} is flagged coast_road but is not on the road's chain")
    if "spanish_morocco" in spaces and not spaces["spanish_morocco"].impassable:
        bad(where("spanish_morocco"), "Spanish Morocco is impassable (L543)")
    # convoys: each zone holds one route; a port route's zone borders its port; ghosted
    # routes carry the two emblems of one side; the UK route runs Atlantic-Indian-Suez
    convoy_at: dict[str, int] = {}
    ports: Counter[str] = Counter()
    for i, c in enumerate(board.convoys):
        loc = ("convoys", i)
        zone = spaces.get(c.id)
        if zone is None or zone.kind != "sea":
            bad(loc, f"convoy {c.id}: no sea zone of that id")
            continue
        if c.id in convoy_at:
            bad(loc, f"convoy {c.id}: a zone holds one convoy route")
        convoy_at[c.id] = i
        if c.port is not None:
            port = spaces.get(c.port)
            if port is None or port.kind != "territory":
                bad(loc + ("port",), f"convoy {c.id}: its port {c.port!r} is not a territory")
            else:
                ports[c.port] += 1
                if c.port not in adj[c.id]:
                    bad(loc + ("port",), f"convoy {c.id} does not border its port {c.port}")
                if not port.port:
                    bad(loc + ("port",), f"convoy {c.id}: {c.port} is not flagged as a port")
        elif c.id not in UK_ROUTE:
            bad(
                loc,
                f"convoy {c.id}: a convoy zone has a port unless it is on the UK's "
                "Atlantic route (L515)",
            )
        sides = {SIDE_OF.get(p, "neutral") for p in c.emblems}
        if c.permanent and len(c.emblems) != 1:
            bad(loc + ("emblems",), f"convoy {c.id}: a permanent route has one emblem")
        if not c.permanent and (len(c.emblems) != 2 or len(sides) != 1):
            bad(
                loc + ("emblems",),
                f"convoy {c.id}: a ghosted route shows two emblems of one side (L515)",
            )
        if c.next is not None and (c.next not in spaces or c.next not in adj[c.id]):
            bad(
                loc + ("next",),
                f"convoy {c.id}: its next leg {c.next!r} is not a neighbouring zone",
            )
    for sid, s in spaces.items():
        if s.port and ports[sid] != 1:
            bad(where(sid), f"{sid} is flagged as a port but {ports[sid]} convoy routes lead to it")
    for port, emblems in PORT_EMBLEMS.items():
        routes = [c for c in board.convoys if c.port == port]
        if port in spaces and (not routes or set(routes[0].emblems) != emblems):
            bad(
                where(port),
                f"{port}: its convoy zone shows the emblems "
                f"{sorted(emblems)} (L515, L855-857, L925)",
            )
    chain = [c.id for c in board.convoys if c.id in UK_ROUTE]
    if sorted(chain) != sorted(UK_ROUTE):
        bad(
            ("convoys",),
            "the UK route needs the Atlantic Ocean, Indian Ocean and Suez "
            "Canal convoy zones (L515)",
        )
    else:
        by_id = {c.id: c for c in board.convoys}
        for a, b in zip(UK_ROUTE, UK_ROUTE[1:], strict=False):
            if by_id[a].next != b:
                bad(("convoys", convoy_at[a], "next"), f"the UK route runs {a} -> {b} (L515)")
        if by_id["suez_canal_csz"].port != "cairo":
            bad(
                ("convoys", convoy_at["suez_canal_csz"], "port"),
                "the Suez Canal convoy ends at Cairo (L515)",
            )
    # restricted sea passages and zones (L507, L513, L525-527)
    messina = [p for p in board.passages if set(p.between) == {"sz11", "sz16"}]
    if not messina or messina[0].sea_units_of != "axis":
        bad(
            ("passages",),
            "the Strait of Messina (sz11 - sz16) is crossed by Axis sea units only (L525-527)",
        )
    for i, p in enumerate(board.passages):
        a, b = p.between
        if a not in spaces or b not in spaces or b not in adj[a]:
            bad(("passages", i), f"{p.name}: {a} and {b} are not neighbouring zones")
    if board.entry_only_from.get("suez_canal_csz") != ["indian_ocean_csz"]:
        bad(
            ("entry_only_from",),
            "the Suez Canal convoy zone is entered from the Indian Ocean convoy zone only (L507)",
        )
    for zone, sources in board.entry_only_from.items():
        for src in sources:
            if zone not in adj or src not in adj[zone]:
                bad(("entry_only_from", zone), f"{zone}: {src!r} is not a neighbour")
    for zone in board.closed_except:
        if spaces.get(zone) is None or spaces[zone].kind != "sea":
            bad(("closed_except", zone), f"{zone!r} is not a sea zone")
    if board.closed_except.get("atlantic_ocean_csz") != ["uk"]:
        bad(("closed_except",), "no other power enters the Atlantic Ocean convoy zone (L513)")
    # deployment zones (L511-513, L572), mines (L589), islands (L936), base (L579)
    for power, zones in board.sea_deploy_zones.items():
        want = 2 if power == "uk" else 1
        if len(zones) != want:
            bad(
                ("sea_deploy_zones", power),
                f"{power} has {want} sea unit deployment zone(s), not {len(zones)} (L511)",
            )
        for z in zones:
            if spaces.get(z) is None or spaces[z].kind != "sea":
                bad(("sea_deploy_zones", power), f"{power}: {z!r} is not a sea zone")
    if board.sea_deploy_zones.get("ger") != ["sz1"]:
        bad(("sea_deploy_zones",), "Germany's sea unit deployment zone is sea zone 1 (L572)")
    for need in ("sz31", *UK_ROUTE):
        if need not in board.no_axis_sea_mines:
            bad(("no_axis_sea_mines",), f"the Axis lay no sea mines in {need} (L589)")
    for i, sid in enumerate(board.axis_island_deploy):
        if spaces.get(sid) is None or not spaces[sid].island:
            bad(("axis_island_deploy", i), f"{sid!r} is not an island")
    if sorted(board.axis_island_deploy) != ["crete", "sardinia", "sicily"]:
        bad(
            ("axis_island_deploy",),
            "Axis direct deployment goes to Sicily, Sardinia and Crete (L936)",
        )
    if board.naval_base != "sz31":
        bad(("naval_base",), "the UK naval base is in sea zone 31 (L579)")
    # the facts the text states about named places
    for sid, line in NAMED_PLACES.items():
        if sid not in spaces:
            bad(("spaces",), f"the rulebook names {sid} ({line}): it must be a space")
    for a, b, line in REQUIRED_BORDERS:
        if a in spaces and b in spaces and b not in adj[a]:
            bad(where(a), f"{a} borders {b} ({line})")
    for sid in RP_TERRITORIES:
        if sid in spaces and not spaces[sid].rp:
            bad(where(sid), f"{sid} is an RP territory (it can be controlled, L485)")
    for sid, rp in (("malta", 15), ("constantine", 0), ("mersa_matruh", 0)):
        if sid in spaces and spaces[sid].rp != rp:
            bad(where(sid), f"{sid} has RP {rp} (L483, L563)")
    if "mersa_matruh" in spaces and spaces["mersa_matruh"].stacking_limit not in (None, 8):
        bad(where("mersa_matruh"), "Mersa Matruh has the default stacking limit 8 (L865)")
    for sid in ("qattara_depression", "spanish_morocco"):
        if sid in spaces and not spaces[sid].impassable:
            bad(where(sid), f"{sid} is impassable (L475, L543)")
    for sid, power in (("italy", "ita"), ("malta", "uk"), ("gibraltar", "uk")):
        if sid in spaces and spaces[sid].permanent != power:
            bad(where(sid), f"{sid} carries the {power} emblem (L475, L503)")
    for sid, powers in (("italy", ["ger", "ita"]), ("gibraltar", ["uk"])):
        if sid in spaces and sorted(spaces[sid].staging_for) != powers:
            bad(where(sid), f"{sid} is the staging territory of {powers} (L503)")
    staging = {sid for sid, s in spaces.items() if s.staging_for}
    if staging - {"italy", "gibraltar"}:
        bad(("spaces",), "only Italy and Gibraltar are staging territories; the US has none (L503)")
    if "gibraltar" in spaces and not spaces["gibraltar"].island:
        bad(where("gibraltar"), "Gibraltar counts as an island (L533)")
    for sid, against in (("tobruk", "all"), ("mareth", "from:tripoli")):
        bonus = spaces[sid].defensive_bonus if sid in spaces else None
        if sid in spaces and (bonus is None or bonus.against != against):
            bad(where(sid), f"{sid}'s defensive bonus applies against {against} (L495)")
    for sid in (
        "casablanca",
        "oran",
        "algiers",
        "tunis",
        "kasserine_pass",
        "mareth",
        "el_oued",
        "laghouat",
        "constantine",
    ):
        if sid in spaces and not spaces[sid].mat:
            bad(where(sid), f"{sid} lies in Morocco, Algeria or Tunisia (L477, L1006)")
    for sid in ("tripoli", "benghazi", "tobruk", "cairo", "el_agheila"):
        if sid in spaces and spaces[sid].mat:
            bad(where(sid), f"{sid} lies east of the white line (L477)")
    if not any(s.sahara for s in spaces.values()):
        bad(("spaces",), "the board has Sahara territories (L547)")
    # every space but the impassable ones is reachable from Cairo
    passable = {sid for sid, s in spaces.items() if not s.impassable}
    if "cairo" in passable:
        reach = _reach("cairo", adj, passable)
        for sid in sorted(passable - reach):
            bad(where(sid), f"{sid} cannot be reached from the rest of the board")
    return out


def _reach(start: str, adj: dict[str, set[str]], allowed: set[str]) -> set[str]:
    seen = {start}
    todo = deque([start])
    while todo:
        for n in adj[todo.popleft()]:
            if n in allowed and n not in seen:
                seen.add(n)
                todo.append(n)
    return seen


def units_problems(units: UnitsPack) -> list[_Found]:
    """The reference charts: ids, pieces in the box (L119-177), the kinds of unit."""
    out: list[_Found] = []
    seen: set[str] = set()
    pieces: dict[tuple[str, str], int] = {}
    first: dict[tuple[str, str], int] = {}
    for i, u in enumerate(units.units):
        loc = ("units", i)
        if u.id in seen:
            out.append(("units", loc + ("id",), f"unit id {u.id!r} is listed twice"))
        seen.add(u.id)
        if not u.id.startswith(f"{u.power}."):
            out.append(
                ("units", loc + ("id",), f"{u.id}: the id starts with its power {u.power!r}")
            )
        if u.optional is None:
            key = (u.power, u.type)
            pieces[key] = pieces.get(key, 0) + u.pieces
            first.setdefault(key, i)
        if not u.combat and (u.attack or u.defense or u.type != "truck"):
            out.append(("units", loc, f"{u.id}: only trucks are non-combat units (L1215)"))
        if u.type == "truck" and u.combat:
            out.append(("units", loc, f"{u.id}: a truck is a logistical unit (L1215)"))
        if u.hits == 2 and u.type != "battleship":
            out.append(("units", loc, f"{u.id}: only battleships take two hits (L1265)"))
        if u.type == "aaa" and (u.attack or u.defense):
            out.append(("units", loc, f"{u.id}: AAA has no attack or defense value (L1153)"))
        if u.kind == "sea" and u.type not in ("battleship", "destroyer", "submarine"):
            out.append(("units", loc, f"{u.id}: {u.type} is not a sea unit type"))
    for power, types in PIECES.items():
        for utype, count in types.items():
            if pieces.get((power, utype), 0) != count:
                out.append(
                    (
                        "units",
                        ("units", first[(power, utype)], "pieces")
                        if (power, utype) in first
                        else ("units",),
                        f"{power} has {count} {utype} pieces "
                        f"(L119-177), not {pieces.get((power, utype), 0)}",
                    )
                )
    for key in sorted(set(pieces) - {(p, t) for p, ts in PIECES.items() for t in ts}):
        out.append(("units", ("units",), f"{key[0]} has no {key[1]} pieces in the box (L119-177)"))
    items = {it.id: (i, it) for i, it in enumerate(units.items)}
    for item_id, cost, line in (
        ("supply", 1, "L319"),
        ("sea_mine", 2, "L589"),
        ("land_mine", 1, "L587"),
    ):
        if item_id not in items or items[item_id][1].cost != cost:
            out.append(("units", ("items",), f"a {item_id} costs {cost} RP ({line})"))
    return out


def tables_problems(tables: TablesPack) -> list[_Found]:
    """Powers, turn order, player splits and components."""
    out: list[_Found] = []
    ids = [p.id for p in tables.powers]
    if sorted(ids) != sorted(["ger", "uk", "ita", "us", "fra"]):
        out.append(
            (
                "tables",
                ("powers",),
                "the powers are Germany, the UK, Italy, the US and France (L273)",
            )
        )
    turns = sorted(p.turn_order for p in tables.powers if p.takes_turns)
    if turns != list(range(1, len(turns) + 1)):
        out.append(("tables", ("powers",), f"turn orders {turns} are not 1 to {len(turns)}"))
    for i, p in enumerate(tables.powers):
        if p.id in SIDE_OF and p.side != SIDE_OF[p.id]:
            out.append(
                ("tables", ("powers", i, "side"), f"{p.id} is on the {SIDE_OF[p.id]} side (L273)")
            )
        if p.id == "fra" and p.takes_turns:
            out.append(("tables", ("powers", i), "France never takes a turn (L1067, L1083)"))
    order = {p.id: p.turn_order for p in tables.powers}
    if order.get("ger", 0) > order.get("uk", 0) or order.get("us") != max(turns, default=0):
        out.append(
            ("tables", ("powers",), "Germany plays before the UK (L246) and the US last (L1018)")
        )
    side_of_role = {**SIDE_OF, "vichy": "axis", "free_french": "allies"}
    for n in ("2", "3", "4"):
        split = tables.players.get(n)
        if split is None or len(split) != int(n):
            out.append(("tables", ("players",), f"the {n}-player split has {n} players (L277-301)"))
            continue
        flat = [r for hand in split for r in hand]
        if sorted(flat) != sorted(side_of_role):
            out.append(
                (
                    "tables",
                    ("players", n),
                    f"the {n}-player split must give every power to exactly one player",
                )
            )
        for j, hand in enumerate(split):
            if len({side_of_role.get(r) for r in hand}) != 1:
                out.append(
                    ("tables", ("players", n, j), "a player's powers are all on one side (L277)")
                )
    for key, value in (
        ("supply_1", 40),
        ("supply_5", 15),
        ("land_mines", 20),
        ("sea_mines_allied", 6),
        ("sea_mines_axis", 9),
        ("chips_grey", 50),
        ("chips_green", 15),
        ("national_control_markers", 48),
        ("die_sides", 10),
    ):
        if tables.components.get(key) != value:
            out.append(("tables", ("components", key), f"the box holds {value} {key} (L96-115)"))
    if tables.round_track != list(range(1, 15)):
        out.append(("tables", ("round_track",), "the round track runs 1 to 14 (L438-443)"))
    return out


def setup_problems(board: BoardPack, units: UnitsPack, setup: SetupPack) -> list[_Found]:
    """The scenarios against the board and the unit charts."""
    out: list[_Found] = []
    spaces = {s.id: s for s in board.spaces}
    adj: dict[str, set[str]] = {sid: set() for sid in spaces}
    for a, b in board.borders:
        if a in adj and b in adj:
            adj[a].add(b)
            adj[b].add(a)
    types = {u.id: u for u in units.units}
    convoys = {c.id: c for c in board.convoys}
    ids = [sc.id for sc in setup.scenarios]
    if sorted(ids) != ["ot", "rlp"]:
        out.append(
            ("setup", ("scenarios",), "the two scenarios are rlp and ot, once each (L240-246)")
        )
    for si, sc in enumerate(setup.scenarios):
        base = ("scenarios", si)

        def bad(loc: tuple[Any, ...], message: str, sc: Scenario = sc, base: tuple = base) -> None:
            out.append(("setup", base + loc, f"{sc.id}: {message}"))

        first = {"rlp": 1, "ot": 7}[sc.id]
        if sc.first_round != first:
            bad(("first_round",), f"the scenario starts in round {first} (L244-246)")
        skips = sorted((t.round, t.power) for t in sc.skipped_turns)
        want = [(r, "us") for r in range(1, 7)] if sc.id == "rlp" else [(7, "ger")]
        if skips != want:
            bad(("skipped_turns",), f"the skipped turns are {want} (L244-246)")
        covered: list[int] = []
        for m in sc.mat_entry:
            covered += range(m.from_round, m.to_round + 1)
        if sorted(covered) != list(range(sc.first_round, 15)):
            bad(
                ("mat_entry",),
                "the entry rules must cover each round from the first to 14 exactly once",
            )
        mat_sides = {
            r: set(m.sides) for m in sc.mat_entry for r in range(m.from_round, m.to_round + 1)
        }
        facts = (
            {1: set(), 6: set(), 7: {"allies"}, 8: {"axis", "allies"}}
            if sc.id == "rlp"
            else {7: {"axis", "allies"}}
        )
        for r, sides in facts.items():
            if r in mat_sides and mat_sides[r] != sides:
                bad(
                    ("mat_entry",),
                    f"in round {r} Morocco, Algeria and Tunisia are open to "
                    f"{sorted(sides) or 'no one'} (L1006, L1030, L1042, L1046)",
                )
        for zone in sc.uk_variable_reinforcements:
            if zone not in UK_ROUTE:
                bad(("uk_variable_reinforcements", zone), f"{zone!r} is not a UK route convoy zone")
        if sc.id == "rlp" and sc.uk_variable_reinforcements != dict.fromkeys(UK_ROUTE, 12):
            bad(
                ("uk_variable_reinforcements",),
                "12 RP in each of the Atlantic, Indian Ocean and Suez Canal convoy zones (L1336)",
            )
        # pieces on the board
        on_board: Counter[str] = Counter()
        stacks: dict[tuple[str, str], int] = {}
        for i, p in enumerate(sc.placements):
            loc = ("placements", i)
            found = _placement_problems(p, spaces, types, convoys)
            for message in found:
                bad(loc, message)
            if found or p.space is None:
                continue
            unit = types[p.unit]
            on_board[p.unit] += p.count
            space = spaces[p.space]
            if space.kind == "territory" and unit.kind in ("land", "air") and unit.combat:
                side = SIDE_OF.get(p.power, "axis")  # Vichy units are Axis at the start
                stacks[(p.space, side)] = stacks.get((p.space, side), 0) + p.count
            if (
                sc.id == "rlp"
                and space.mat
                and p.power != "fra"
                and not mat_sides.get(sc.first_round)
            ):
                bad(
                    loc,
                    f"no unit may be in {p.space} at the start: Morocco, Algeria and "
                    "Tunisia are closed (L1006)",
                )
        for (sid, side), n in sorted(stacks.items()):
            limit = spaces[sid].stacking_limit or 8
            if n > limit:
                i = next(i for i, p in enumerate(sc.placements) if p.space == sid)
                bad(
                    ("placements", i),
                    f"{n} {side} combat land and air units in {sid} "
                    f"exceed its stacking limit {limit} (L487-491)",
                )
        aside = Counter({a.unit: a.count for a in sc.set_aside})
        for i, a in enumerate(sc.set_aside):
            if a.unit not in types:
                bad(("set_aside", i), f"no unit type {a.unit!r}")
        added: Counter[str] = Counter()
        returned: Counter[str] = Counter()
        for ev in sc.events:
            for p in ev.units:
                (returned if ev.kind == "add_to_pool" else added)[p.unit] += p.count
        if returned != aside:
            bad(
                ("events",),
                "the units set aside at the start are the ones an event "
                "returns to the pool (L423, L1020)",
            )
        for uid in sorted(set(on_board) | set(aside) | set(added)):
            unit = types.get(uid)
            if unit is None:
                continue
            total = on_board[uid] + aside[uid] + added[uid]
            if unit.kind == "land" and unit.combat:
                continue  # chips extend combat land units (L463); counted below
            if total > unit.pieces:
                bad(
                    ("placements",),
                    f"{total} {uid} are used but the box holds {unit.pieces} (L461)",
                )
        if sc.id == "rlp":
            for power in ("ger", "ita"):
                uid = f"{power}.truck"
                if on_board[uid] > 1 or aside[uid] != 1:
                    bad(
                        ("set_aside",),
                        f"{power} starts with one truck and sets the other "
                        "aside until round 7 (L423, L1008)",
                    )
        # supply, control, convoys, mines, attacks
        supply = 0
        for i, s in enumerate(sc.supply):
            supply += s.value
            if s.space not in spaces or spaces[s.space].impassable:
                bad(("supply", i), f"supply in {s.space!r}: no such passable space")
        for ev in sc.events:
            supply += sum(s.value for s in ev.supply)
        if supply > 40 + 5 * 15:
            bad(("supply",), f"{supply} supply exceeds the 40 ones and 15 fives (L105-106)")
        for sid, power in sc.control.items():
            s = spaces.get(sid)
            if s is None or not s.rp:
                bad(("control", sid), f"{sid!r} has no RP value and cannot be controlled (L485)")
            elif power == "fra":
                bad(("control", sid), "France places no control markers")
            elif s.permanent:
                bad(("control", sid), f"{sid} is permanently marked; it takes no marker")
        for zone, powers in sc.convoy_markers.items():
            c = convoys.get(zone)
            if c is None or c.permanent or not set(powers) <= set(c.emblems):
                bad(
                    ("convoy_markers", zone),
                    f"{zone!r}: markers go only on a ghosted "
                    "convoy zone showing those emblems (L515)",
                )
            elif c.port and sc.control.get(c.port) not in c.emblems:
                bad(
                    ("convoy_markers", zone),
                    f"{zone} is open but its port {c.port} is not held by a depicted power (L515)",
                )
        for i, m in enumerate(sc.land_mines):
            if m.territory not in spaces or m.facing not in adj.get(m.territory, set()):
                bad(
                    ("land_mines", i),
                    f"mines in {m.territory!r} face {m.facing!r}, which "
                    "is not a neighbouring territory",
                )
            elif spaces[m.facing].kind != "territory":
                bad(("land_mines", i), "a land mine faces a territory")
            elif not (
                m.territory in sc.control
                or stacks.get((m.territory, "allies"))
                or stacks.get((m.territory, "axis"))
            ):
                bad(
                    ("land_mines", i),
                    f"mines in {m.territory} are inactive: no control "
                    "marker and no combat unit (L954-956)",
                )
        if sum(len(m.tokens) for m in sc.land_mines) > 20:
            bad(("land_mines",), "more than the 20 land mine tokens (L107)")
        attacks = sc.declared_attacks + [a for ev in sc.events for a in ev.attacks]
        for a in attacks:
            if a.target not in spaces or spaces[a.target].kind != "territory":
                bad(("declared_attacks",), f"attack on {a.target!r}: no such territory")
        torch = sorted(a.target for a in attacks)
        if torch != ["algiers", "casablanca", "oran"]:
            bad(
                ("declared_attacks",),
                "the Torch attacks are on Casablanca, Oran and Algiers (L1026-1034, L1050)",
            )
        for ei, ev in enumerate(sc.events):
            loc = ("events", ei)
            if ev.round < sc.first_round:
                bad(loc, f"an event in round {ev.round}, before the scenario starts")
            for j, p in enumerate(ev.units):
                for message in _placement_problems(p, spaces, types, convoys):
                    bad(loc + ("units", j), message)
                if (p.space is None) != (ev.kind == "add_to_pool"):
                    bad(
                        loc + ("units", j),
                        f"{p.unit}: units placed on the board name their "
                        "space; units added to a pool do not",
                    )
            for sid in ev.control:
                if sid not in spaces or not spaces[sid].rp:
                    bad(loc + ("control", sid), f"{sid!r} cannot be controlled (L485)")
        for li, lv in enumerate(sc.victory.levels):
            for sid in lv.control:
                if sid not in spaces or not spaces[sid].rp:
                    bad(
                        ("victory", "levels", li),
                        f"victory names {sid!r}, which has no RP and cannot be controlled (L485)",
                    )
        for side, cap in sc.victory.instant.items():
            want = {"axis": "cairo", "allies": "tunis"}[side]
            if cap.capture != want:
                bad(("victory", "instant", side), f"{side} win at once by taking {want} (L250)")
    return out


def _placement_problems(
    p: Placement,
    spaces: dict[str, Space],
    types: dict[str, UnitType],
    convoys: dict[str, Convoy],
) -> list[str]:
    where = f"{p.count} {p.unit} of {p.power} in {p.space}"
    unit = types.get(p.unit)
    if unit is None:
        return [f"{where}: no such unit type"]
    if unit.power != p.power:
        return [f"{where}: the unit belongs to {unit.power}"]
    if p.space is None:
        return []
    space = spaces.get(p.space)
    if space is None:
        return [f"{where}: no such space"]
    found: list[str] = []
    if space.impassable:
        found.append(f"{where}: nothing enters an impassable territory (L475)")
    if unit.kind == "sea" and space.kind != "sea":
        found.append(f"{where}: sea units never enter territories (L469)")
    if unit.kind == "land" and space.kind == "sea" and p.space not in convoys:
        found.append(f"{where}: land units are at sea only as convoy cargo (L505)")
    if space.sahara and unit.type != "scout_car":
        found.append(f"{where}: only scout cars enter the Sahara (L547, L1219)")
    if (
        space.permanent
        and unit.kind == "land"
        and p.power != "fra"
        and SIDE_OF[p.power] != SIDE_OF.get(space.permanent)
    ):
        found.append(f"{where}: enemy land units never enter {p.space} (L475)")
    if unit.optional:
        found.append(f"{where}: {unit.id} exists only under an optional rule")
    return found


def pieces_in_box(units: UnitsPack) -> int:
    """Miniatures the charts count (spares excluded), for the L115 total."""
    return sum(u.pieces for u in units.units if u.optional is None)
