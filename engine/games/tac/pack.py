"""The African Campaign data pack: map, charts and tables, turn track, orders of battle.

The rulebook text lost every chart, so the shipped pack is a reconstruction
(``provenance: reconstruction``) written by ``tools/tac_pack.py`` from real geography and
the historical orders of battle, held to every number, name and hex id the text keeps. A
transcription of the physical game replaces these files through ``UMPIRE_DATAPACKS``.

Four files:

``map``: every hex of the grid (layout ``even-r-AABB``, :mod:`engine.core.hexgrid_rows`)
with its terrain (clear, ridge, plateau; sea and the Qattara Depression lie outside the
playing area), features (city, port, fort, pass, home_base), name and initial control;
prohibited hexsides, roads, railways (decoration) and the passes with the hexes either side.
``tables``: terrain effects, the combat results table, the Axis Infantry Replacement and
Fuel Table, the fuel track, minefield values, the event chits.
``turns``: the turn record track. ``oob``: units with step ladders, set-up and arrival,
withdrawals, breakdowns, armour replacements and the counter mix.

:func:`check` lists, by file and line, everything in a pack that breaks what the rulebook
says (``umpire datapack check tac``):

>>> check()
[]
"""

from __future__ import annotations

import re
from collections import Counter as Tally
from collections import deque
from dataclasses import dataclass, field
from functools import cache
from itertools import pairwise
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

from engine.core import datapack
from engine.core.datapack import PackFile, Problem, json_line_index, line_of, load_file
from engine.core.errors import DataPackError
from engine.core.hexgrid_rows import LAYOUT, adjacent, distance, neighbours

Side = Literal["axis", "allied"]
FILES = ("map", "tables", "turns", "oob")


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


# ------------------------------------------------------------------------------------
# map.json
# ------------------------------------------------------------------------------------


class Grid(_Strict):
    first_row: int
    last_row: int
    first_col: int
    last_col: int
    hex_miles: float


class MapHex(_Strict):
    id: str
    terrain: str
    name: str | None = None
    features: list[Literal["city", "port", "fort", "pass", "home_base"]] = []
    control: Side | None = None


class Hexside(_Strict):
    between: tuple[str, str]
    features: list[Literal["prohibited"]]
    note: str = ""


class Line(_Strict):
    name: str
    hexes: list[str]


class Pass(_Strict):
    name: str
    hexes: list[str]
    #: a hex either side of the pass (sides A and B of the 8.2.5 illustrations)
    ends: tuple[str, str]


class MapPack(PackFile):
    layout: str
    grid: Grid
    terrain_types: dict[str, str]
    hexes: list[MapHex]
    hexsides: list[Hexside] = []
    roads: list[Line] = []
    railways: list[Line] = []
    passes: list[Pass] = []


# ------------------------------------------------------------------------------------
# tables.json
# ------------------------------------------------------------------------------------


class Effect(_Strict):
    mp: float | None
    defence: int = 1
    rule: str = ""


class SideEffect(_Strict):
    mp: float | None
    rule: str = ""


class Crt(_Strict):
    columns: list[str]
    below_lowest: str
    above_highest: str
    codes: list[str]
    #: die roll -> one [attacker result, defender result] per column (None: no effect)
    rows: dict[str, list[tuple[str | None, str | None]]]


class Segment(_Strict):
    months: str
    turns: tuple[int, int]
    #: per die 1-6: [Italian, German, Fuel]; 1 = one replacement, None = "-"
    rows: list[tuple[int | None, int | None, int]]


class FuelTrack(_Strict):
    min: int
    max: int
    start: int


class Minefield(_Strict):
    steps: int
    delay: int


class Minefields(_Strict):
    standard: list[Minefield]
    bonus: list[Minefield]


class Chit(_Strict):
    allied: str
    axis: str


class Events(_Strict):
    allied: dict[str, str]
    axis: dict[str, str]
    chits: list[Chit]
    draw_turns: list[int]
    reshuffle_turn: int
    hand_limit: int
    initial_draw: dict[Side, int]


class TablesPack(PackFile):
    terrain: dict[str, Effect]
    hex_features: dict[str, Effect]
    hexside_features: dict[str, SideEffect]
    crt: Crt
    axis_table: dict[str, Segment]
    fuel_track: FuelTrack
    minefields: Minefields
    events: Events


# ------------------------------------------------------------------------------------
# turns.json
# ------------------------------------------------------------------------------------


class Air(_Strict):
    allied: int
    axis: int


class Turn(_Strict):
    turn: int
    date: str
    segment: str | None
    air: Air
    allied_infantry_replacements: int
    reinforcements: list[Side] = []
    #: units leaving for other theatres this turn, and units coming back (7.2)
    withdrawals: list[str] = []
    returns: list[str] = []


class TurnsPack(PackFile):
    turns: list[Turn]


# ------------------------------------------------------------------------------------
# oob.json
# ------------------------------------------------------------------------------------


class Setup(_Strict):
    hex: str | None = None
    place: str | None = None
    code: str | None = None


class Entry(_Strict):
    turn: int | None = None
    step: str | None = None
    #: the rule that brings the unit into play instead of a turn: breakdown (11.1),
    #: buildup (11.2), 1st Armoured (11.4), New Zealand 7-6 (11.5)
    rule: Literal["11.1", "11.2", "11.4", "11.5"] | None = None


class Withdrawal(_Strict):
    turn: int
    min_step: str
    #: ``None``: removed for good ("Remove" on the OOB)
    return_turn: int | None
    return_step: str | None = None


class Unit(_Strict):
    id: str
    name: str
    side: Side
    nationality: Literal["GE", "IT", "UK", "AU", "FR", "GR", "IN", "NZ", "PL", "SA"]
    type: Literal[
        "infantry", "parachute", "motorized", "recon", "flak", "hq", "armor", "replacement"
    ]
    size: Literal["II", "III", "X", "XX", "XXXX"]
    #: strongest first: "5-6" (combat-movement) or, for flak, "1-3-6"
    steps: list[str]
    #: how many top steps only an armour replacement restores (10.5)
    armour_steps: int = 0
    setup: Setup | None = None
    entry: Entry | None = None
    parent: str | None = None
    components: list[str] = []
    withdrawals: list[Withdrawal] = []


class LocationCode(_Strict):
    name: str
    hexes: list[str]


class CounterMix(_Strict):
    total: int
    unit_counters: int
    replacement_counters: dict[Side, int]
    markers: dict[str, int]


class OobPack(PackFile):
    location_codes: dict[str, LocationCode]
    units: list[Unit]
    armour_replacements: dict[str, dict[str, int]]
    counter_mix: CounterMix


MODELS: dict[str, type[PackFile]] = {
    "map": MapPack,
    "tables": TablesPack,
    "turns": TurnsPack,
    "oob": OobPack,
}


@cache
def load_map() -> MapPack:
    return datapack.load("tac", "map", MapPack)


@cache
def load_tables() -> TablesPack:
    return datapack.load("tac", "tables", TablesPack)


@cache
def load_turns() -> TurnsPack:
    return datapack.load("tac", "turns", TurnsPack)


@cache
def load_oob() -> OobPack:
    return datapack.load("tac", "oob", OobPack)


# ------------------------------------------------------------------------------------
# Values of a step: "5-6" -> (5, 5, 6); flak "1-3-6" -> (1, 3, 6)
# ------------------------------------------------------------------------------------

STEP = re.compile(r"^(\d+)-(\d+)(?:-(\d+))?$")


def step_values(step: str) -> tuple[int, int, int]:
    """``(attack, defence, movement)`` of a printed step (TAC 2.4.2, 9.1).

    >>> step_values("9-8"), step_values("1-3-6")
    ((9, 9, 8), (1, 3, 6))
    """
    m = STEP.match(step)
    if not m:
        raise ValueError(f"{step!r} is not a printed step such as 5-6 or 1-3-6")
    if m[3] is None:
        return int(m[1]), int(m[1]), int(m[2])
    return int(m[1]), int(m[2]), int(m[3])


def stacking_value(size: str) -> float:
    """Divisions a unit counts for stacking (TAC 5.1.1)."""
    return {"XX": 1.0, "XXXX": 0.0}.get(size, 0.5)


# ------------------------------------------------------------------------------------
# The checks
# ------------------------------------------------------------------------------------


@dataclass
class _File:
    path: Path
    lines: dict[tuple[Any, ...], int]
    found: list[Problem] = field(default_factory=list)

    def add(self, message: str, *loc: Any) -> None:
        self.found.append((str(self.path), line_of(self.lines, loc) if loc else None, message))


def _valid(h: str) -> bool:
    return len(h) == 4 and h.isdigit()


def _adjacent(a: str, b: str) -> bool:
    """Adjacency that answers ``False`` for anything that is not a hex number."""
    return _valid(a) and _valid(b) and adjacent(a, b)


class _Board:
    """Lookups over a loaded map (hexes with a malformed number are left out)."""

    def __init__(self, m: MapPack) -> None:
        self.m = m
        self.index = {h.id: i for i, h in enumerate(m.hexes)}
        self.hex = {h.id: h for h in m.hexes if _valid(h.id)}
        self.prohibited = {frozenset(s.between) for s in m.hexsides if "prohibited" in s.features}
        self.road = {frozenset(p) for r in m.roads for p in pairwise(r.hexes)}
        self.named = {h.name: h.id for h in m.hexes if h.name and _valid(h.id)}

    def playable(self, h: str) -> bool:
        return h in self.hex and self.hex[h].terrain not in ("sea", "offmap")

    def has(self, h: str, feature: str) -> bool:
        return h in self.hex and feature in self.hex[h].features

    def crossable(self, a: str, b: str) -> bool:
        return self.playable(b) and frozenset((a, b)) not in self.prohibited

    def zoc(self, h: str) -> list[str]:
        """Hexes a unit in ``h`` controls (TAC 4.1, 4.2)."""
        if self.has(h, "fort"):
            return []
        return [n for n in neighbours(h) if self.crossable(h, n) and not self.has(n, "fort")]

    def reach(self, start: str) -> set[str]:
        seen = {start}
        todo = deque([start])
        while todo:
            here = todo.popleft()
            for n in neighbours(here):
                if n not in seen and self.crossable(here, n):
                    seen.add(n)
                    todo.append(n)
        return seen

    def edge(self, col: int) -> list[str]:
        return [h for h in self.hex if int(h[2:]) == col and self.playable(h)]


def check(path: Path | str | None = None) -> list[Problem]:
    """Everything in the ``tac`` pack that breaks the rulebook, as ``(file, line, message)``.

    ``path`` is a folder holding ``map.json``, ``tables.json``, ``turns.json`` and
    ``oob.json``; without it each file is read where the game reads it (the
    ``UMPIRE_DATAPACKS`` override first, else the shipped pack).
    """
    out: list[Problem] = []
    loaded: dict[str, tuple[_File, Any]] = {}
    for name in FILES:
        file_path = Path(path) / f"{name}.json" if path else datapack.pack_path("tac", name)
        try:
            pack = load_file(file_path, MODELS[name])
        except DataPackError as err:
            out.extend((str(file_path), line, message) for line, message in err.problems)
            continue
        f = _File(file_path, json_line_index(file_path.read_text(encoding="utf-8")))
        if pack.header.game != "tac":
            f.add(
                f"header.game is {pack.header.game!r}, but this file belongs to 'tac'",
                "header",
                "game",
            )
        loaded[name] = (f, pack)
    board = None
    if "map" in loaded:
        board = _check_map(*loaded["map"])
    if "tables" in loaded:
        _check_tables(*loaded["tables"])
    if "turns" in loaded:
        _check_turns(*loaded["turns"], loaded.get("tables", (None, None))[1])
    if "oob" in loaded:
        _check_oob(*loaded["oob"], board, loaded.get("turns", (None, None))[1])
    for f, _pack in loaded.values():
        out.extend(f.found)
    return out


# ------------------------------------------------------------------------------------
# map.json
# ------------------------------------------------------------------------------------

#: the hexes the rulebook cites and the lines that cite them (digest 002, 3.2)
PASS_HEXES = {"1128": "L385-395", "1129": "L385-395", "1030": "L391", "0931": "L391"}


def _check_map(f: _File, m: MapPack) -> _Board | None:
    if m.layout != LAYOUT:
        f.add(
            f"layout is {m.layout!r}; the rulebook's examples need {LAYOUT!r} (rows AA north "
            "to south, even rows shifted east: 1028 touches 1128 and 1129, L385)",
            "layout",
        )
        return None
    b = _Board(m)
    g = m.grid
    counts = Tally(h.id for h in m.hexes)
    for i, h in enumerate(m.hexes):
        if not re.fullmatch(r"\d{4}", h.id):
            f.add(f"hex id {h.id!r} is not four digits AABB", "hexes", i, "id")
            continue
        row, col = int(h.id[:2]), int(h.id[2:])
        if not (g.first_row <= row <= g.last_row and g.first_col <= col <= g.last_col):
            f.add(f"hex {h.id} lies outside the grid", "hexes", i, "id")
        if counts[h.id] > 1 and b.index[h.id] != i:
            f.add(f"hex {h.id} appears more than once", "hexes", i, "id")
        if h.terrain not in m.terrain_types:
            f.add(
                f"hex {h.id}: unknown terrain {h.terrain!r}; the map knows "
                f"{', '.join(sorted(m.terrain_types))} (2.2)",
                "hexes",
                i,
                "terrain",
            )
        if not b.playable(h.id) and (h.features or h.control):
            f.add(f"hex {h.id} is outside the playing area but has features", "hexes", i)
        if h.control and "city" not in h.features:
            f.add(f"hex {h.id} has an initial controller but is not a city (13.3)", "hexes", i)
    missing = [
        f"{r:02d}{c:02d}"
        for r in range(g.first_row, g.last_row + 1)
        for c in range(g.first_col, g.last_col + 1)
        if f"{r:02d}{c:02d}" not in b.hex
    ]
    if missing:
        f.add(
            f"{len(missing)} hexes of the grid are missing ({', '.join(missing[:6])} ...); "
            'give hexes outside the playing area terrain "sea" or "offmap"',
            "hexes",
        )

    for i, s in enumerate(m.hexsides):
        a, c = s.between
        if not _adjacent(a, c):
            f.add(f"hexside {a}|{c}: the hexes are not adjacent", "hexsides", i)
    for i, road in enumerate(m.roads):
        for h in road.hexes:
            if not b.playable(h):
                f.add(f"road {road.name!r} runs through {h}, outside the playing area", "roads", i)
        for a, c in pairwise(road.hexes):
            if not _adjacent(a, c):
                f.add(f"road {road.name!r}: {a} and {c} are not adjacent", "roads", i)
            elif frozenset((a, c)) in b.prohibited:
                f.add(
                    f"road {road.name!r} crosses the prohibited hexside {a}|{c} (8.2.7)", "roads", i
                )
    for i, p in enumerate(m.passes):
        for h in p.hexes:
            if not b.has(h, "pass") or b.hex[h].terrain != "ridge":
                f.add(f"pass {p.name!r}: {h} must be a ridge hex marked pass (8.2.5)", "passes", i)
            for end in p.ends:
                if not _adjacent(h, end) or not b.playable(end):
                    f.add(
                        f"pass {p.name!r}: {end} must be a playable hex next to {h} (8.2.5)",
                        "passes",
                        i,
                    )
            if not _valid(h) or not any(frozenset((h, n)) in b.road for n in neighbours(h)):
                f.add(
                    f"pass {p.name!r}: {h} needs a road hexside to leave the ridge by "
                    "(8.2.5, L387)",
                    "passes",
                    i,
                )

    def at(h: str, message: str) -> None:
        if h in b.index:
            f.add(message, "hexes", b.index[h])
        else:
            f.add(message, "hexes")

    # every hex the rulebook cites, where its example needs it
    if not b.playable("0701"):
        at("0701", "hex 0701, the LRDG reference hex, must be on the playing area (L855)")
    for h in ("0803", *neighbours("0803")):
        if not b.crossable("0803", h) and h != "0803" or not b.playable(h):
            at(
                h,
                f"hex {h}: 0803 (Trento) controls all six hexes around it, so 0803 and "
                "its neighbours must be playable with no prohibited side (L208)",
            )
    if frozenset(("1043", "1044")) not in b.prohibited:
        f.add("the hexside 1043|1044 must be prohibited (L208)", "hexsides")
    if not b.playable("1043") or not b.playable("1044"):
        at("1043", "hexes 1043 and 1044 must both be playable (L208)")
    elif len(b.zoc("1043")) != 3:
        at(
            "1043",
            f"a unit in 1043 must control exactly 3 hexes (L208); it controls "
            f"{', '.join(b.zoc('1043')) or 'none'}",
        )
    for h in ("1023", "1024", "1124", "1125", "1126", "1127"):
        if not b.playable(h):
            at(h, f"hex {h} is on the path of the overrun example and must be playable (L419)")
    if b.playable("1127") and (b.hex["1127"].terrain == "ridge" or b.has("1127", "fort")):
        at("1127", "hex 1127 must double no defender: a 1-5 there is overrun at 9-1 (L419)")
    for h, line in PASS_HEXES.items():
        if not b.has(h, "pass") or b.hex[h].terrain != "ridge":
            at(h, f"hex {h} must be a ridge hex marked pass ({line})")
    for h in ("1028", "1228"):
        if not b.playable(h) or b.hex[h].terrain == "ridge":
            at(h, f"hex {h} lies either side of the 1128/1129 pass: playable, not ridge (L385)")
    for h in ("1128", "1129"):
        for end in ("1028", "1228"):
            if frozenset((h, end)) not in b.road:
                at(
                    h,
                    f"the pass through {h} needs a road hexside {h}|{end}: a unit from "
                    "1028 crosses through 1128 or 1129 to 1228 (L385-387)",
                )

    # named places (3.0, 9.5, 10.7, 12.0, 8.2.5)
    wants = {
        "Alexandria": {"city", "port", "home_base"},
        "Tobruk": {"city", "port", "fort"},
        "Benghazi": {"city", "port", "fort"},
        "El Agheila": {"city"},
        "Sollum": set(),
    }
    for name, feats in wants.items():
        h = b.named.get(name)
        if h is None:
            f.add(f"no hex is named {name} (3.0, 9.5, 10.7, 12.0, 8.2.5)", "hexes")
        elif missing_feats := feats - set(b.hex[h].features):
            at(h, f"{name} ({h}) must be {', '.join(sorted(missing_feats))}")
    ports = sorted(b.hex[h].name or h for h in b.hex if b.has(h, "port"))
    if ports != ["Alexandria", "Benghazi", "Tobruk"]:
        f.add(
            f"the ports on the map must be Alexandria, Benghazi and Tobruk (12.0, L609; "
            f"Tripoli lies off the map); found {', '.join(ports) or 'none'}",
            "hexes",
        )
    forts = sorted(b.hex[h].name or h for h in b.hex if b.has(h, "fort"))
    if forts != ["Benghazi", "Tobruk"]:
        f.add(
            f"the forts must be Tobruk and Benghazi (4.1, 9.5); found {', '.join(forts) or 'none'}",
            "hexes",
        )
    if sollum := b.named.get("Sollum"):
        near = [h for h in b.hex if b.has(h, "pass") and distance(h, sollum) <= 2]
        if not near:
            at(sollum, "there must be passes near Sollum (8.2.5, L375)")

    west, east = b.edge(g.first_col), b.edge(g.last_col)
    if not west:
        f.add(
            "the west edge has no playable hex: Axis supply and Tripoli arrivals (12.3, 13.1)",
            "grid",
        )
    if not east:
        f.add(
            "the east edge has no playable hex: Allied supply and the Axis exit (8.6.1, 13.2)",
            "grid",
        )
    tobruk, alex = b.named.get("Tobruk"), b.named.get("Alexandria")
    if west and east and tobruk and alex and b.playable(tobruk):
        reach = b.reach(tobruk)
        if alex not in reach or not reach & set(west) or not reach & set(east):
            at(tobruk, "Tobruk must be reachable over land from both map edges and Alexandria")
    return b


# ------------------------------------------------------------------------------------
# tables.json
# ------------------------------------------------------------------------------------

RESULT = re.compile(r"^(AR|AE|A\dR?|C|DR|DE|D\dR?)$")
ALLIED_EVENTS = {
    "Bad Weather",
    "Counter-Intelligence",
    "Extra Mines",
    "Italian Disorganization",
    "Malta Convoy",
    "Naval Support",
    "Long Range Desert Group",
    'Royal Navy "Force K"',
    "Rommel on Leave",
    "Tank Recovery",
    "Ultra Intelligence",
}
AXIS_EVENTS = {
    "Bad Weather",
    "Captured Supplies",
    "Counter-Intelligence",
    "Early Convoy Arrival",
    "Extra Mines",
    "Flak 88",
    "Fuel/Ammo Reserves",
    "Late Allied Reinforcements",
    "Luftflotte 2",
    "Panzer Recovery",
    "Pioneers",
    "Poor Attack Coordination",
}


def _check_tables(f: _File, t: TablesPack) -> None:
    crt = t.crt
    if not crt.columns or crt.columns[0] != "1-6" or crt.columns[-1] != "8-1":
        f.add(
            "the CRT runs from 1-6 to 8-1: worse than 1-6 is AE, 9-1 or better DE (9.3, L485)",
            "crt",
            "columns",
        )
    if crt.below_lowest != "AE" or crt.above_highest != "DE":
        f.add("beyond the CRT: below 1-6 is AE, 9-1 and above is DE (9.3, L485)", "crt")
    for code in crt.codes:
        if not RESULT.match(code):
            f.add(f"CRT code {code!r} is not a result of 9.7 (L497-505)", "crt", "codes")
    if sorted(crt.rows) != [str(d) for d in range(1, 7)]:
        f.add("the CRT has one row per die roll 1-6 (2.1, 9.6)", "crt", "rows")
    for die, row in crt.rows.items():
        if len(row) != len(crt.columns):
            f.add(
                f"CRT row {die} has {len(row)} cells for {len(crt.columns)} columns",
                "crt",
                "rows",
                die,
            )
        for i, (att, dfn) in enumerate(row):
            for part, who in ((att, "A"), (dfn, "D")):
                if part is None:
                    continue
                if part not in crt.codes or (part != "C" and not part.startswith(who)):
                    f.add(
                        f"CRT row {die}, column {i + 1}: {part!r} is not an {who} result of 9.7",
                        "crt",
                        "rows",
                        die,
                        i,
                    )
            if (att == "C") != (dfn == "C"):
                f.add(
                    f"CRT row {die}, column {i + 1}: contact (C) applies to both sides (9.7)",
                    "crt",
                    "rows",
                    die,
                    i,
                )
    if "2-1" in crt.columns and "1" in crt.rows:
        i = crt.columns.index("2-1")
        row = crt.rows["1"]
        if i < len(row) and tuple(row[i]) != ("A2R", "D1"):
            f.add(
                "CRT 2-1 with a die of 1 must read A2R over D1 (9.7 example, L509)",
                "crt",
                "rows",
                "1",
                i,
            )

    turns_seen: dict[int, str] = {}
    for name, seg in t.axis_table.items():
        if len(seg.rows) != 6:
            f.add(f"segment {name} needs one row per die roll 1-6 (10.3)", "axis_table", name)
        for i, (ita, ger, fuel) in enumerate(seg.rows):
            if ita not in (None, 1) or ger not in (None, 1) or fuel < 0:
                f.add(
                    f"segment {name}, die {i + 1}: replacements are 1 or - and fuel is not "
                    "negative (10.3, 14.0)",
                    "axis_table",
                    name,
                    "rows",
                    i,
                )
        for turn in range(seg.turns[0], seg.turns[1] + 1):
            if turn % 2 and turn in turns_seen:
                f.add(
                    f"turn {turn} is in segments {turns_seen[turn]} and {name} (10.3)",
                    "axis_table",
                    name,
                    "turns",
                )
            turns_seen.setdefault(turn, name)
    for turn in range(3, 51, 2):
        if turn not in turns_seen:
            f.add(f"turn {turn} (the first of a month) is in no segment (10.3, L559)", "axis_table")
    march = turns_seen.get(7)
    if march:
        rows = t.axis_table[march].rows
        if len(rows) >= 4 and rows[3][2] != 3:
            f.add(
                "March 1941 with a die of 4 gives 3 Fuel (14.0 example, L653)",
                "axis_table",
                march,
                "rows",
                3,
            )
    ft = t.fuel_track
    if (ft.min, ft.max, ft.start) != (0, 10, 2):
        f.add(
            "the fuel track runs 0-10 and starts at 2 (8.2.6 L397, 14.0 L643, 17.1)", "fuel_track"
        )
    mf = t.minefields
    if len(mf.standard) != 10:
        f.add(
            f"there are 10 standard minefields, not {len(mf.standard)} (L162, 16.0)",
            "minefields",
            "standard",
        )
    if len(mf.bonus) != 6:
        f.add(
            f"there are 6 bonus minefields, not {len(mf.bonus)} (L162, 18.6.1)",
            "minefields",
            "bonus",
        )
    kinds = {(m.steps > 0, m.delay > 0) for m in mf.standard}
    if not {(False, False), (False, True), (True, False)} <= kinds:
        f.add(
            "standard minefields must include no effect, delay and step losses (16.0, L673)",
            "minefields",
            "standard",
        )
    for kind, counters in (("standard", mf.standard), ("bonus", mf.bonus)):
        for i, m in enumerate(counters):
            if m.steps < 0 or m.delay < 0:
                f.add("minefield effects are not negative", "minefields", kind, i)
    ev = t.events
    if set(ev.allied) != ALLIED_EVENTS:
        f.add(
            f"the Allied events must be those of L827-871: missing "
            f"{sorted(ALLIED_EVENTS - set(ev.allied))}, unknown "
            f"{sorted(set(ev.allied) - ALLIED_EVENTS)}",
            "events",
            "allied",
        )
    if set(ev.axis) != AXIS_EVENTS:
        f.add(
            f"the Axis events must be those of L873-931: missing "
            f"{sorted(AXIS_EVENTS - set(ev.axis))}, unknown "
            f"{sorted(set(ev.axis) - AXIS_EVENTS)}",
            "events",
            "axis",
        )
    if len(ev.chits) != 14:
        f.add(f"there are 14 event chits, not {len(ev.chits)} (18.7, L809)", "events", "chits")
    for i, chit in enumerate(ev.chits):
        if chit.allied not in ev.allied or chit.axis not in ev.axis:
            f.add(f"chit {i + 1} names an event the lists lack", "events", "chits", i)
    unused = (set(ev.allied) - {c.allied for c in ev.chits}) | (
        set(ev.axis) - {c.axis for c in ev.chits}
    )
    if unused:
        f.add(f"events on no chit: {sorted(unused)} (18.7)", "events", "chits")
    if ev.draw_turns != [3, 9, 15, 19, 25, 33, 41]:
        f.add(
            "event chits are drawn on Turns 3, 9, 15, 19, 25, 33 and 41 (18.7.2, L813)",
            "events",
            "draw_turns",
        )
    if ev.reshuffle_turn != 25 or ev.hand_limit != 4:
        f.add("spent chits return on Turn 25 and a hand holds 4 (18.7.4-5, L817-819)", "events")
    if ev.initial_draw != {"allied": 3, "axis": 2}:
        f.add(
            "the Allies draw 3 chits at the start, the Axis 2 (18.7.1, L811)",
            "events",
            "initial_draw",
        )

    def effect(table: dict[str, Any], key: str, attr: str, want: Any, rule: str) -> None:
        if key not in table:
            f.add(f"the terrain chart lacks {key!r} ({rule})", "terrain")
        elif getattr(table[key], attr) != want:
            f.add(
                f"{key}: {attr} must be {want} ({rule})",
                *(
                    (
                        "hex_features"
                        if table is t.hex_features
                        else "hexside_features"
                        if table is t.hexside_features
                        else "terrain"
                    ),
                    key,
                    attr,
                ),
            )

    effect(t.terrain, "clear", "mp", 1, "8.6.1")
    effect(t.terrain, "ridge", "defence", 2, "9.4, L487")
    effect(t.hex_features, "fort", "defence", 2, "9.5, L489")
    effect(t.hex_features, "pass", "mp", 2, "8.2.5, L375")
    effect(t.hexside_features, "road", "mp", 0.2, "8.3.1, L403")
    effect(t.hexside_features, "prohibited", "mp", None, "8.2.7, L399")


# ------------------------------------------------------------------------------------
# turns.json
# ------------------------------------------------------------------------------------

MONTHS = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
]


def turn_date(turn: int) -> str:
    """Turn 1 is the first half of December 1940, two turns a month (L25, 2.8, 17.4).

    >>> turn_date(1), turn_date(7), turn_date(50)
    ('December I 1940', 'March I 1941', 'December II 1942')
    """
    month = (turn + 1) // 2
    return f"{MONTHS[(month + 10) % 12]} {'I' if turn % 2 else 'II'} {1940 + (month + 10) // 12}"


def _check_turns(f: _File, tp: TurnsPack, tables: TablesPack | None) -> None:
    numbers = [t.turn for t in tp.turns]
    if numbers != list(range(1, 51)):
        f.add("the turn record track holds Turns 1 to 50 in order (6.0, L259)", "turns")
    for i, t in enumerate(tp.turns):
        if t.date != turn_date(t.turn):
            f.add(
                f"Turn {t.turn} is {turn_date(t.turn)}, not {t.date} (L25, 17.4)",
                "turns",
                i,
                "date",
            )
        first_of_month = t.turn % 2 == 1 and t.turn >= 3
        if first_of_month != (t.segment is not None):
            f.add(
                f"Turn {t.turn}: only the first turn of a month from Turn 3 has a segment "
                "(10.3, 17.3)",
                "turns",
                i,
                "segment",
            )
        if t.segment and tables and t.segment not in tables.axis_table:
            f.add(
                f"Turn {t.turn}: segment {t.segment!r} is not on the Axis table (10.3)",
                "turns",
                i,
                "segment",
            )
        elif t.segment and tables:
            lo, hi = tables.axis_table[t.segment].turns
            if not lo <= t.turn <= hi:
                f.add(
                    f"Turn {t.turn} is not within segment {t.segment} ({lo}-{hi})",
                    "turns",
                    i,
                    "segment",
                )
        if t.allied_infantry_replacements and not first_of_month:
            f.add(
                f"Turn {t.turn}: Allied replacements come on odd turns from Turn 3 (10.0, L545)",
                "turns",
                i,
                "allied_infantry_replacements",
            )
        if t.air.allied < 0 or t.air.axis < 0 or t.allied_infantry_replacements < 0:
            f.add(f"Turn {t.turn}: counts are not negative", "turns", i)


# ------------------------------------------------------------------------------------
# oob.json
# ------------------------------------------------------------------------------------

#: unit facts the rulebook states: (unit id, line, what must hold, test)
UNIT_FACTS: list[tuple[str, str, str, Any]] = [
    (
        "au_7",
        "L86",
        "the 7th Australian Infantry Division is 5-6 and enters on Turn 9",
        lambda u: (
            (u.nationality, u.type, u.size, u.steps[0], _turn(u))
            == ("AU", "infantry", "XX", "5-6", 9)
        ),
    ),
    (
        "ge_8pz",
        "L90",
        "the 8th Panzer Regiment of the 15th Panzer is 4-7 and enters on Turn 10",
        lambda u: (
            (u.type, u.size, u.steps[0], _turn(u), u.parent)
            == ("armor", "III", "4-7", 10, "ge_15pz")
        ),
    ),
    (
        "au_6",
        "L131, L533",
        "the 6th Australian Division has 4 steps, 5-6 then 4-6",
        lambda u: len(u.steps) == 4 and u.steps[:2] == ["5-6", "4-6"],
    ),
    (
        "nz_2",
        "L337",
        "the 2nd New Zealand Division leaves on Turn 28 and returns on Turn 37 as a 5-6",
        lambda u: any(
            (w.turn, w.return_turn, w.return_step) == (28, 37, "5-6") for w in u.withdrawals
        ),
    ),
    (
        "au_18_7",
        "L337",
        "the 18/7 Australian Infantry Brigade is removed for good",
        lambda u: u.size == "X" and any(w.return_turn is None for w in u.withdrawals),
    ),
    (
        "uk_7armd",
        "L133, L583",
        "the 7th Armoured Division breaks down into three units",
        lambda u: u.type == "armor" and len(u.components) == 3,
    ),
    (
        "uk_1armd",
        "L419, L593",
        "the 1st Armoured Division is a 7-6 with a 1-5 step, formed "
        "by 11.4 from three brigades and the Lancers",
        lambda u: (
            u.steps[0] == "7-6"
            and "1-5" in u.steps
            and u.entry is not None
            and u.entry.rule == "11.4"
            and len(u.components) == 4
            and "uk_201gds" in u.components
        ),
    ),
    (
        "uk_2armdbde",
        "L989",
        "the 2nd Brigade of the 1st Armoured is 2-6 and enters on Turn 25",
        lambda u: (u.steps[0], _turn(u), u.parent) == ("2-6", 25, "uk_1armd"),
    ),
    (
        "uk_201gds",
        "L593",
        "201 Guards Infantry Brigade enters on Turn 27",
        lambda u: (u.type, u.size, _turn(u)) == ("infantry", "X", 27),
    ),
    (
        "uk_22gds",
        "L208",
        "the 22nd Guards is a motorized brigade",
        lambda u: (u.type, u.size) == ("motorized", "X"),
    ),
    (
        "uk_2armd",
        "L509",
        "the 2nd Armoured Division is 4-6, then 3-6",
        lambda u: u.steps[:2] == ["4-6", "3-6"],
    ),
    (
        "in_3mot",
        "L992",
        "the 3rd Indian Motor Brigade is 2-6 and enters on Turn 8",
        lambda u: (u.nationality, u.steps[0], _turn(u)) == ("IN", "2-6", 8),
    ),
    (
        "gr_1",
        "L992",
        "the 1st Greek Infantry Brigade is 1-6 and enters on Turn 37",
        lambda u: (u.nationality, u.steps[0], _turn(u)) == ("GR", "1-6", 37),
    ),
    (
        "uk_8army",
        "L148",
        "the 8th Army HQ is an army HQ",
        lambda u: (u.type, u.size) == ("hq", "XXXX"),
    ),
    (
        "ge_dak",
        "L250, L727",
        "the DAK HQ (Rommel) is 3-10 and arrives on Turn 5",
        lambda u: (u.type, u.size, u.steps, _turn(u)) == ("hq", "XXXX", ["3-10"], 5),
    ),
    (
        "ge_21pz",
        "L509, L565",
        "the 21st Panzer Division steps 9-8, 7-7, 5-7 and only an "
        "armour replacement restores the 9-8",
        lambda u: u.steps[:3] == ["9-8", "7-7", "5-7"] and u.armour_steps == 1,
    ),
    (
        "ge_15pz",
        "L90",
        "the 15th Panzer Division breaks down (the 8th Panzer is its part)",
        lambda u: "ge_8pz" in u.components,
    ),
    (
        "ge_90",
        "L419",
        "the 90th Motorized Division is a 5-7",
        lambda u: (u.type, u.size, u.steps[0]) == ("motorized", "XX", "5-7"),
    ),
    (
        "it_102",
        "L208",
        "Trento is an Italian motorized division",
        lambda u: (u.nationality, u.type, u.size) == ("IT", "motorized", "XX"),
    ),
    (
        "nz_2_7",
        "L599-603",
        "the New Zealand 7-6 forms by 11.5 and is not armoured",
        lambda u: (
            u.steps[0] == "7-6"
            and u.entry is not None
            and u.entry.rule == "11.5"
            and u.type != "armor"
        ),
    ),
]


def _turn(u: Unit) -> int | None:
    return u.entry.turn if u.entry else None


def _check_oob(f: _File, o: OobPack, board: _Board | None, turns: TurnsPack | None) -> None:
    ids: dict[str, int] = {}
    for i, u in enumerate(o.units):
        if u.id in ids:
            f.add(f"unit id {u.id!r} is used twice", "units", i, "id")
        ids.setdefault(u.id, i)
    by_id = {u.id: u for u in o.units}

    for i, u in enumerate(o.units):
        try:
            values = [step_values(s) for s in u.steps]
        except ValueError as err:
            f.add(f"{u.id}: {err}", "units", i, "steps")
            continue
        if not values:
            f.add(f"{u.id} has no steps", "units", i, "steps")
            continue
        flak = [len(s.split("-")) == 3 for s in u.steps]
        if any(flak) != (u.type == "flak"):
            f.add(f"{u.id}: only flak prints attack-defence-movement (9.1)", "units", i, "steps")
        if any(a < b for a, b in pairwise(v[0] for v in values)):
            f.add(
                f"{u.id}: each step is no stronger than the one before (9.10)", "units", i, "steps"
            )
        if u.armour_steps and (u.type != "armor" or u.armour_steps >= len(u.steps)):
            f.add(
                f"{u.id}: only an armoured unit with a lower step has armour-only top steps (10.5)",
                "units",
                i,
                "armour_steps",
            )
        if (u.setup is None) == (u.entry is None):
            f.add(
                f"{u.id}: a unit either starts on the map or enters later (17.1, 2.6)", "units", i
            )
        if u.setup:
            if u.side == "axis" and not u.setup.hex:
                f.add(f"{u.id}: Axis units start on a printed hex (2.4.2, L96)", "units", i)
            if u.side == "allied" and u.setup.code not in o.location_codes:
                f.add(
                    f"{u.id}: Allied units start on a location code of the list (2.4.2, L96)",
                    "units",
                    i,
                    "setup",
                )
            if u.setup.hex and board and not board.playable(u.setup.hex):
                f.add(
                    f"{u.id} sets up on {u.setup.hex}, outside the playing area",
                    "units",
                    i,
                    "setup",
                )
        if u.entry:
            if u.entry.turn is not None and not 1 <= u.entry.turn <= 50:
                f.add(f"{u.id}: entry turn {u.entry.turn} is not 1-50", "units", i, "entry")
            if u.entry.step and u.entry.step not in u.steps:
                f.add(
                    f"{u.id}: enters at {u.entry.step}, which is not one of its steps (7.6)",
                    "units",
                    i,
                    "entry",
                )
            if (u.entry.turn is None) == (u.entry.rule is None):
                f.add(f"{u.id}: an entry names a turn or a rule", "units", i, "entry")
        for w in u.withdrawals:
            if w.min_step not in u.steps or (w.return_step and w.return_step not in u.steps):
                f.add(
                    f"{u.id}: a withdrawal names a step the unit lacks (7.3)",
                    "units",
                    i,
                    "withdrawals",
                )
            if w.return_turn is not None and w.return_turn <= w.turn:
                f.add(
                    f"{u.id}: a withdrawn unit returns after it leaves (7.2)",
                    "units",
                    i,
                    "withdrawals",
                )
            if u.side != "allied":
                f.add(f"{u.id}: only the Allies withdraw units (7.0)", "units", i, "withdrawals")
        if u.parent and (u.parent not in by_id or u.id not in by_id[u.parent].components):
            f.add(
                f"{u.id}: its parent {u.parent!r} must list it as a component (11.1)",
                "units",
                i,
                "parent",
            )
        for c in u.components:
            if c not in by_id or by_id[c].parent != u.id:
                f.add(
                    f"{u.id}: component {c!r} must exist and name {u.id} as parent (11.1)",
                    "units",
                    i,
                    "components",
                )

    for uid, line, says, test in UNIT_FACTS:
        u = by_id.get(uid)
        if u is None:
            f.add(f"no unit {uid!r}: {says} ({line})", "units")
            continue
        try:
            ok = bool(test(u))
        except (IndexError, TypeError, AttributeError, ValueError):
            ok = False
        if not ok:
            f.add(f"{uid}: {says} ({line})", "units", ids[uid])
    if not any(u.type == "flak" and u.steps[:1] == ["1-3-6"] for u in o.units):
        f.add("there is a 1-3-6 flak unit (L94, L250)", "units")

    # set-up stacking (5.1.1) and location codes
    load: dict[str, float] = {}
    for u in o.units:
        if u.setup and u.setup.hex:
            load[u.setup.hex] = load.get(u.setup.hex, 0) + stacking_value(u.size)
    for h, total in sorted(load.items()):
        if total > 2:
            first = next(i for i, u in enumerate(o.units) if u.setup and u.setup.hex == h)
            f.add(
                f"{h} starts with {total:g} divisions; the limit is 2 (5.1.1)",
                "units",
                first,
                "setup",
            )
    for code, loc in o.location_codes.items():
        total = sum(stacking_value(u.size) for u in o.units if u.setup and u.setup.code == code)
        if total > 2 * len(loc.hexes):
            f.add(
                f"location code {code} holds {total:g} divisions in {len(loc.hexes)} hexes (5.1.1)",
                "location_codes",
                code,
            )
        for h in loc.hexes:
            if board and not board.playable(h):
                f.add(
                    f"location code {code}: {h} is outside the playing area", "location_codes", code
                )
        axis_start = {u.setup.hex for u in o.units if u.side == "axis" and u.setup}
        for h in loc.hexes:
            if any(_adjacent(h, a) or h == a for a in axis_start if a):
                f.add(
                    f"location code {code}: {h} touches an Axis set-up hex; the armies "
                    "start out of contact (17.1, 19.0)",
                    "location_codes",
                    code,
                )

    if turns:
        for t in turns.turns:
            leaving = [u.id for u in o.units for w in u.withdrawals if w.turn == t.turn]
            back = [u.id for u in o.units for w in u.withdrawals if w.return_turn == t.turn]
            if sorted(leaving) != sorted(t.withdrawals) or sorted(back) != sorted(t.returns):
                f.add(
                    f"Turn {t.turn}: the track's withdrawals and returns "
                    f"({t.withdrawals}, {t.returns}) differ from the OOB's ({leaving}, "
                    f"{back}) (7.2)",
                    "units",
                )
            due = sorted({u.side for u in o.units if u.entry and u.entry.turn == t.turn})
            if due != sorted(t.reinforcements):
                f.add(
                    f"Turn {t.turn}: the track flags reinforcements for {t.reinforcements}, "
                    f"the OOB brings them for {due} (6.1, 7.0)",
                    "units",
                )

    mix = o.counter_mix
    unit_counters = sum((len(u.steps) + 1) // 2 for u in o.units)
    if mix.unit_counters != unit_counters:
        f.add(
            f"the units need {unit_counters} counters (two steps a counter, 2.7), not "
            f"{mix.unit_counters}",
            "counter_mix",
            "unit_counters",
        )
    counted = mix.unit_counters + sum(mix.replacement_counters.values()) + sum(mix.markers.values())
    if mix.total != 176 or counted != 176:
        f.add(
            f"the counter sheet holds 176 counters (2.1, L56); the mix adds up to {counted}",
            "counter_mix",
            "total",
        )
    if mix.markers.get("minefield") != 16 or mix.markers.get("event_chit") != 14:
        f.add(
            "the mix holds 16 minefield markers and 14 event chits (L162, 18.7)",
            "counter_mix",
            "markers",
        )
    if turns:
        for side in ("allied", "axis"):
            need = max((getattr(t.air, side) for t in turns.turns), default=0)
            if mix.markers.get(f"air_{side}", 0) < need:
                f.add(
                    f"the mix holds too few {side} air units for the track ({need}, 15.0)",
                    "counter_mix",
                    "markers",
                )
    for key, schedule in o.armour_replacements.items():
        for turn in schedule:
            if not turn.isdigit() or int(turn) % 2 == 0 or int(turn) < 3:
                f.add(
                    f"{key}: armour replacements come on odd turns from Turn 3 (10.0)",
                    "armour_replacements",
                    key,
                    turn,
                )
