"""The Axis & Allies Revised data pack: board, opening setup, unit table and charts.

Four files under ``data/``, each opening with a :class:`~engine.core.datapack.PackHeader`:

``board.json`` (``public-data``)
    Every territory and sea zone with its income value, capital, victory city, starting
    industrial complex and starting controller; every connection (the horizontal wrap of
    the board included); the canals and the territories that control them. Transcribed
    from the public TripleA map of the Revised board by ``tools/aa_revised_pack.py``; the
    rulebook prints no board (Revised: Spaces on the Game Board).
``setup.json`` (``public-data``)
    The starting units of each power, per territory or sea zone (Revised: Reference
    Charts). Industrial complexes are not listed here: they are a flag on their territory.
    Fighters listed in a sea zone sit on a carrier of their power there.
``units.json`` (``rulebook``)
    The unit table of Appendix 1: cost, attack, defense, movement, kind and the special
    abilities as flags.
``tables.json`` (``rulebook``)
    The powers (side, colour, turn order, starting IPCs), the victory levels and the six
    weapons developments with their effect on the unit table.

The models below validate every reference inside a file (a connection to a space that
does not exist fails with its line number); :func:`pack_problems` checks the files
against each other.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache, cached_property
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, ValidationInfo, model_validator

from engine.core import datapack
from engine.core.datapack import PackFile

GAME = "aa-revised"

PowerId = Literal["ussr", "germany", "uk", "japan", "usa"]
SideId = Literal["allies", "axis"]
UnitKind = Literal["land", "sea", "air"]

#: Special abilities a unit type may carry (Revised: Appendix 1, Unit Profiles).
UnitFlag = Literal[
    "can_capture",  # may take control of a hostile territory (infantry, artillery, tanks)
    "supported_by_artillery",  # attacks at 2 when paired one-for-one with an artillery
    "supports_infantry",  # raises one paired infantry's attack to 2
    "blitz",  # may move through an empty hostile territory and on
    "antiaircraft",  # opening fire on attacking aircraft, one die each, hits on its value
    "never_a_casualty",  # cannot be chosen to take a hit
    "noncombat_move_only",  # never moves in the combat move phase
    "immobile",  # never moves, is never transported
    "not_on_battle_board",  # takes no part in combat at all
    "production",  # mobilization site (industrial complex)
    "lands_on_carriers",  # fighters
    "strategic_bombing",  # may make strategic bombing raids
    "shore_bombardment",  # may bombard in an amphibious assault
    "two_hits",  # needs two hits in one combat to be destroyed
    "cancels_submarines",  # destroyer: enemy subs lose their special abilities
    "opening_fire",  # fires only in the opening fire step, every cycle (submarines)
    "hits_sea_units_only",  # its hits may go to sea units only (submarines)
    "may_submerge",  # may leave a combat by submerging
    "moves_through_enemy_zones",  # submarines pass hostile sea zones
    "rocket_launcher",  # with Rockets: strikes an industrial complex within 3 spaces
]


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid")


# ---------------------------------------------------------------- board.json


class Space(_Model):
    """A territory or a sea zone (Revised: Spaces on the Game Board)."""

    id: str
    name: str
    #: other spellings players use (the rulebook's, TripleA's, short forms)
    aliases: list[str] = []
    kind: Literal["land", "sea"]
    #: sea zone number printed on the board
    number: int | None = None
    #: income value (the circled number); 0 for sea zones, neutrals and a few islands
    ipc: int = 0
    #: controller at the start of the game, which is also the "original controller" of
    #: the liberation rule; ``None`` for neutrals and sea zones
    original_owner: PowerId | None = None
    capital_of: PowerId | None = None
    #: the city's name (``"Calcutta"``) if the territory holds a victory city
    victory_city: str | None = None
    #: an industrial complex stands here at the start of the game
    industrial_complex: bool = False
    #: a neutral territory: never entered, attacked or flown over
    impassable: bool = False
    #: an island group inside one sea zone (derived: no land neighbour, one sea zone)
    island: bool = False


class Canal(_Model):
    """A canal joins two sea zones; a side may sail it if it controls every listed
    territory at the start of its turn (Revised: Canals)."""

    id: str
    name: str
    sea_zones: tuple[str, str]
    controlled_by: list[str]


class Strait(_Model):
    """A narrow passage between two sea zones that no one can close (FAQ: Map)."""

    id: str
    name: str
    sea_zones: tuple[str, str]
    note: str = ""


class BoardPack(PackFile):
    spaces: list[Space]
    #: undirected edges, each listed once
    connections: list[tuple[str, str]]
    canals: list[Canal]
    straits: list[Strait] = []

    @model_validator(mode="after")
    def _references(self, info: ValidationInfo) -> BoardPack:
        if not lenient(info):
            for _loc, message in board_problems(self)[:1]:
                raise ValueError(message)
        return self


def lenient(info: ValidationInfo) -> bool:
    """Whether a validator should leave cross-references to :func:`check_pack`, which
    reports every problem with its line instead of the first one for the whole file."""
    return bool(info.context and info.context.get("lenient"))


def board_problems(board: BoardPack) -> list[tuple[tuple[str | int, ...], str]]:
    """Broken references inside ``board.json``, each with the JSON path of its value."""
    out: list[tuple[tuple[str | int, ...], str]] = []
    seen: set[str] = set()
    for i, s in enumerate(board.spaces):
        if s.id in seen:
            out.append((("spaces", i, "id"), f"space id {s.id!r} is listed twice"))
        seen.add(s.id)
    kinds = {s.id: s.kind for s in board.spaces}
    edges: set[frozenset[str]] = set()
    for i, (a, b) in enumerate(board.connections):
        where = ("connections", i)
        missing = [end for end in (a, b) if end not in kinds]
        if missing:
            out.append((where, f"connection {a} - {b}: no space called {missing[0]!r}"))
        elif a == b:
            out.append((where, f"connection {a} - {b} joins a space to itself"))
        elif frozenset((a, b)) in edges:
            out.append((where, f"connection {a} - {b} is listed twice"))
        edges.add(frozenset((a, b)))
    for group in ("canals", "straits"):
        for i, link in enumerate(getattr(board, group)):
            a, b = link.sea_zones
            where = (group, i, "sea_zones")
            if kinds.get(a) != "sea" or kinds.get(b) != "sea":
                out.append((where, f"{link.name}: {a} and {b} must both be sea zones"))
            elif frozenset((a, b)) not in edges:
                out.append((where, f"{link.name}: {a} and {b} are not connected"))
    for i, canal in enumerate(board.canals):
        for t in canal.controlled_by:
            if kinds.get(t) != "land":
                out.append(
                    (("canals", i, "controlled_by"), f"{canal.name}: {t!r} is not a territory")
                )
    for i, s in enumerate(board.spaces):
        if s.kind == "sea" and (s.ipc or s.original_owner or s.capital_of or s.victory_city):
            out.append((("spaces", i), f"{s.id}: a sea zone has no income, owner or city"))
        if s.impassable and s.original_owner:
            out.append((("spaces", i), f"{s.id}: a neutral territory has no owner"))
    return out


# ---------------------------------------------------------------- setup.json


class Placement(_Model):
    """``count`` units of ``unit`` belonging to ``power`` start in ``space``."""

    power: PowerId
    space: str
    unit: str
    count: int


class SetupPack(PackFile):
    placements: list[Placement]


# ---------------------------------------------------------------- units.json


class UnitType(_Model):
    """A row of the unit table (Revised: Appendix 1, Unit Profiles).

    ``attack``/``defense`` are ``None`` where the chart prints a dash; a unit hits when
    its die shows that number or less. ``transport_cost`` against a transport's
    ``transport_capacity`` of 5 encodes "one land unit plus one infantry" (infantry 2,
    every other land unit 3).
    """

    id: str
    name: str
    plural: str
    aliases: list[str] = []
    kind: UnitKind
    cost: int
    attack: int | None
    defense: int | None
    movement: int
    #: dice rolled per unit when attacking (2 for bombers with Heavy Bombers)
    attack_dice: int = 1
    hit_points: int = 1
    transport_cost: int | None = None
    transport_capacity: int = 0
    carrier_capacity: int = 0
    carrier_cost: int | None = None
    flags: list[UnitFlag] = []


class UnitsPack(PackFile):
    units: list[UnitType]

    @model_validator(mode="after")
    def _unique(self) -> UnitsPack:
        names: dict[str, str] = {}
        for u in self.units:
            for word in (u.id, u.name.lower(), u.plural.lower(), *u.aliases):
                if names.setdefault(word, u.id) != u.id:
                    raise ValueError(f"{word!r} names both {names[word]} and {u.id}")
        return self


# ---------------------------------------------------------------- tables.json


class Power(_Model):
    id: PowerId
    name: str
    side: SideId
    colour: str
    #: 1 = first to play in a round
    turn_order: int
    starting_ipcs: int


class UnitChange(_Model):
    """What a weapons development changes on one unit type."""

    attack: int | None = None
    defense: int | None = None
    movement: int | None = None
    attack_dice: int | None = None
    add_flags: list[UnitFlag] = []


class Tech(_Model):
    """A weapons development (Revised: Phase 1, Develop Weapons): research succeeds when
    any die shows ``die``."""

    id: str
    die: int
    name: str
    effect: str
    units: dict[str, UnitChange] = {}


class VictoryLevel(_Model):
    id: str
    name: str
    cities: int


class TablesPack(PackFile):
    powers: list[Power]
    victory_levels: list[VictoryLevel]
    #: the twelve victory cities and who holds each at the start
    victory_cities: dict[str, SideId]
    techs: list[Tech]
    #: price of one research die in IPCs
    research_die_cost: int


# ---------------------------------------------------------------- loading


class Board:
    """The board as a graph, with lookups by id, name or alias."""

    def __init__(self, pack: BoardPack) -> None:
        self.pack = pack
        self.spaces: dict[str, Space] = {s.id: s for s in pack.spaces}
        adj: dict[str, set[str]] = {s.id: set() for s in pack.spaces}
        for a, b in pack.connections:
            adj[a].add(b)
            adj[b].add(a)
        self._adjacent = {k: frozenset(v) for k, v in adj.items()}

    def neighbours(self, space_id: str) -> frozenset[str]:
        return self._adjacent[space_id]

    def adjacent(self, a: str, b: str) -> bool:
        return b in self._adjacent[a]

    @cached_property
    def _names(self) -> dict[str, str]:
        out: dict[str, str] = {}
        for s in self.pack.spaces:
            for word in (s.id, s.name, *s.aliases):
                out[_key(word)] = s.id
        return out

    def find(self, name: str) -> Space | None:
        """The space called ``name`` (any spelling in its aliases), or ``None``."""
        sid = self._names.get(_key(name))
        return self.spaces[sid] if sid else None

    def land(self) -> Iterable[Space]:
        return (s for s in self.pack.spaces if s.kind == "land")

    def sea(self) -> Iterable[Space]:
        return (s for s in self.pack.spaces if s.kind == "sea")


def _key(word: str) -> str:
    return "".join(ch for ch in word.lower() if ch.isalnum())


@cache
def load_board() -> Board:
    return Board(datapack.load(GAME, "board", BoardPack))


@cache
def load_setup() -> SetupPack:
    return datapack.load(GAME, "setup", SetupPack)


@cache
def load_units() -> UnitsPack:
    return datapack.load(GAME, "units", UnitsPack)


@cache
def load_tables() -> TablesPack:
    return datapack.load(GAME, "tables", TablesPack)


def pack_problems(
    board: BoardPack, setup: SetupPack, units: UnitsPack, tables: TablesPack
) -> list[str]:
    """What is inconsistent between the four files (empty when the pack is sound)."""
    return [message for _file, _loc, message in _cross_problems(board, setup, units, tables)]


def _cross_problems(
    board: BoardPack, setup: SetupPack, units: UnitsPack, tables: TablesPack
) -> list[tuple[str, tuple[str | int, ...], str]]:
    """:func:`pack_problems` with the file and the JSON path each problem is found at."""
    problems: list[tuple[str, tuple[str | int, ...], str]] = []
    spaces = {s.id: s for s in board.spaces}
    unit_types = {u.id: u for u in units.units}
    powers = {p.id for p in tables.powers}
    for i, p in enumerate(setup.placements):
        where = f"setup: {p.count} {p.unit} of {p.power} in {p.space}"
        space = spaces.get(p.space)
        unit = unit_types.get(p.unit)
        found: list[str] = []
        if space is None:
            found.append(f"{where}: no such space")
        elif unit is None:
            found.append(f"{where}: no such unit type")
        else:
            if p.count < 1:
                found.append(f"{where}: the count must be at least 1")
            if space.impassable:
                found.append(f"{where}: neutral territories hold no units")
            if unit.kind == "sea" and space.kind != "sea":
                found.append(f"{where}: ships start only in sea zones")
            if unit.kind == "land" and space.kind != "land":
                found.append(f"{where}: land units start only in territories")
            if space.kind == "land" and space.original_owner != p.power:
                found.append(f"{where}: the territory belongs to {space.original_owner}")
            if "production" in unit.flags:
                found.append(f"{where}: industrial complexes are a flag on the territory")
        problems.extend(("setup", ("placements", i), message) for message in found)
    for i, tech in enumerate(tables.techs):
        for uid in tech.units:
            if uid not in unit_types:
                message = f"tables: {tech.name} changes an unknown unit type {uid!r}"
                problems.append(("tables", ("techs", i, "units", uid), message))
    for i, s in enumerate(board.spaces):
        if s.original_owner and s.original_owner not in powers:
            message = f"board: {s.id} belongs to an unknown power"
            problems.append(("board", ("spaces", i, "original_owner"), message))
    return problems


#: the pack's files and the model each is validated by
FILES: dict[str, type[PackFile]] = {
    "board": BoardPack,
    "setup": SetupPack,
    "units": UnitsPack,
    "tables": TablesPack,
}


def check_pack() -> list[datapack.Problem]:
    """Every problem of the pack this game plays with (shipped, or replaced under
    ``UMPIRE_DATAPACKS``) as ``(file, line, message)``: ``umpire datapack check aa-revised``.

    Each file is validated on its own (shape, then the references inside ``board.json``,
    all of them rather than the first), then the four against each other.

    >>> check_pack()
    []
    """
    out: list[datapack.Problem] = []
    loaded: dict[str, tuple[str, dict[tuple[Any, ...], int], PackFile]] = {}
    for name, model in FILES.items():
        path = datapack.pack_path(GAME, name)
        try:
            text = path.read_text(encoding="utf-8")
        except OSError as exc:
            out.append((str(path), None, f"cannot read the file: {exc.strerror}"))
            continue
        pack, lines, problems = datapack.validate_text(path, text, model, {"lenient": True})
        out.extend(problems)
        if pack is not None:
            loaded[name] = (str(path), lines, pack)
    if "board" in loaded:
        path, lines, board = loaded["board"]
        assert isinstance(board, BoardPack)
        out.extend((path, datapack.line_of(lines, loc), m) for loc, m in board_problems(board))
    if len(loaded) == len(FILES):
        packs = [loaded[name][2] for name in FILES]
        for name, loc, message in _cross_problems(*packs):  # type: ignore[arg-type]
            path, lines, _ = loaded[name]
            out.append((path, datapack.line_of(lines, loc), message))
    return out
