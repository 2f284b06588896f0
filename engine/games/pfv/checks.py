"""What the Patton's First Victory rulebook implies about a data pack, checked.

A pack (shipped or transcribed under ``UMPIRE_DATAPACKS``) can be valid JSON of the right
shape and still be unplayable: the Broich unit set up in Algeria, seven 8th Army units for
six crest hexes, a port that cannot be reached. :func:`pack_problems` reads the three files
of the pack through the same loader the game uses and lists every such problem as
``(file, line, message)``, the line being where the offending value starts (``None`` when
the problem is about the file as a whole).

>>> pack_problems()
[]
"""

from __future__ import annotations

import re
from collections import Counter as Tally
from collections import deque
from dataclasses import dataclass, field
from itertools import pairwise
from pathlib import Path
from typing import Any, TypeVar

from engine.core.datapack import PackFile, json_line_index, line_of, load_file, pack_path
from engine.core.errors import DataPackError
from engine.core.hexgrid import distance, is_hex_id, parse_hex
from engine.core.hexmap import HexMap, MapPack
from engine.games.pfv.pack import Counter, CountersPack, ScenarioPack

Problem = tuple[str, int | None, str]
P = TypeVar("P", bound=PackFile)

#: Hexes the rulebook cites by number (PFV 5, 17).
BONE = "7607"
BROICH_HEX = "8306"
MARETH = "8519"
AIRBASE = "8821"
EIGHTH_ARMY_CRESTS = ("8720", "8721", "8722", "8723", "8820", "8822")
RULE_HEXES = (BONE, BROICH_HEX, MARETH, *EIGHTH_ARMY_CRESTS, AIRBASE)
#: The five victory ports (PFV 4).
PORTS = ("Bizerte", "Tunis", "Sousse", "Sfax", "Gabes")
KNOWN_TAGS = {"8th_army", "ii_corps", "two_star", "general"}
COUNTER_ID = re.compile(r"^[a-z0-9_]+$")
#: Printed values a counter could plausibly carry.
VALUE_RANGES = {"combat": (1, 9), "move": (1, 9), "modifier": (1, 4), "range": (1, 40)}
#: Which face values each kind of piece prints (PFV 2).
FACE_FIELDS = {
    "unit": {"combat", "move"},
    "battlegroup": {"combat", "move"},
    "support": {"modifier", "move"},
    "air": {"modifier", "range"},
}


@dataclass
class _File:
    """One loaded pack file with the line of every JSON value in it."""

    path: Path
    lines: dict[tuple[Any, ...], int]
    found: list[Problem] = field(default_factory=list)

    def line(self, *loc: Any) -> int | None:
        return line_of(self.lines, loc) if loc else None

    def add(self, message: str, *loc: Any) -> None:
        self.found.append((str(self.path), self.line(*loc), message))


def pack_problems() -> list[Problem]:
    """Every way the ``pfv`` pack breaks what the rulebook implies, grouped by file."""
    out: list[Problem] = []
    map_file, map_pack = _load("map", MapPack, out)
    counters_file, counters = _load("counters", CountersPack, out)
    scenario_file, scenario = _load("scenario", ScenarioPack, out)
    hexmap = None
    if map_file and map_pack and not _unknown_terrain(map_pack, map_file):
        hexmap = HexMap(map_pack)
        _check_map(hexmap, map_file)
    if counters_file and counters:
        _check_counters(counters, counters_file)
    if scenario_file and scenario:
        _check_scenario(scenario, scenario_file)
    if hexmap and map_file and counters and counters_file:
        _check_setup(hexmap, map_file, counters, counters_file)
    if scenario and scenario_file and counters:
        _check_scenario_pieces(scenario, scenario_file, counters)
    if scenario and scenario_file and hexmap:
        _check_scenario_hexes(scenario, scenario_file, hexmap)
    for f in (map_file, counters_file, scenario_file):
        if f:
            out.extend(f.found)
    return out


def _load(name: str, model: type[P], out: list[Problem]) -> tuple[_File | None, P | None]:
    path = pack_path("pfv", name)
    try:
        pack = load_file(path, model)
    except DataPackError as err:
        out.extend((str(path), line, message) for line, message in err.problems)
        return None, None
    return _File(path, json_line_index(path.read_text(encoding="utf-8"))), pack


# ------------------------------------------------------------------------------------
# The map
# ------------------------------------------------------------------------------------


def _unknown_terrain(pack: MapPack, f: _File) -> bool:
    """Report hexes naming terrain the chart lacks; the map cannot be built without it."""
    found = False
    for i, h in enumerate(pack.hexes):
        for t in h.terrain:
            if t not in pack.terrain:
                f.add(
                    f"hex {h.id}: unknown terrain {t!r}; the terrain chart has "
                    f"{', '.join(sorted(pack.terrain))} (PFV 8)",
                    "hexes",
                    i,
                )
                found = True
    return found


class _Where:
    """Lines of hexes, hexsides and roads in ``map.json``."""

    def __init__(self, m: HexMap) -> None:
        self.hex: dict[str, int] = {}
        for i, h in enumerate(m.pack.hexes):
            self.hex.setdefault(h.id, i)
        self.side = {tuple(s.between): i for i, s in enumerate(m.pack.hexsides)}


def passable(m: HexMap, hex_id: str) -> bool:
    """A land hex whose every terrain may be entered (PFV 8: no chott, no sea)."""
    h = m.hex.get(hex_id)
    if h is None or not m.land.get(hex_id, False):
        return False
    return all(t in m.terrain_types and m.terrain_types[t].mp is not None for t in h.terrain)


def blocked_side(m: HexMap, a: str, b: str) -> bool:
    """A hexside nothing may cross (PFV 8: impassable)."""
    types = m.pack.hexside_types
    return any(f in types and types[f].mp is None for f in m.sides_of(a, b))


def land_component(m: HexMap, start: str) -> set[str]:
    """Every hex reachable from ``start`` over passable land and crossable hexsides."""
    if not passable(m, start):
        return set()
    seen = {start}
    todo = deque([start])
    while todo:
        here = todo.popleft()
        for nxt in m.grid.neighbours(here):
            if nxt not in seen and passable(m, nxt) and not blocked_side(m, here, nxt):
                seen.add(nxt)
                todo.append(nxt)
    return seen


def _check_map(m: HexMap, f: _File) -> None:
    """PFV 3-5 and 17 on the map alone."""
    where = _Where(m)
    pack = m.pack

    def at_hex(h: str, message: str) -> None:
        if h in where.hex:
            f.add(message, "hexes", where.hex[h])
        else:
            f.add(message, "hexes")

    for message in m.problems():
        _report_hexmap_problem(message, f, where)
    counts = Tally(h.id for h in pack.hexes)
    for i, h in enumerate(pack.hexes):
        if counts[h.id] > 1 and where.hex[h.id] != i:
            f.add(f"hex {h.id} appears more than once", "hexes", i)

    g = pack.grid
    for i, h in enumerate(pack.hexes):
        col, row = parse_hex(h.id)
        if not (g.first_col <= col <= g.last_col and g.first_row <= row <= g.last_row):
            f.add(
                f"hex {h.id} lies outside the grid {g.first_col}-{g.last_col} x "
                f"{g.first_row:02d}-{g.last_row:02d}",
                "hexes",
                i,
            )
    missing = [
        f"{c:02d}{r:02d}"
        for c in range(g.first_col, g.last_col + 1)
        for r in range(g.first_row, g.last_row + 1)
        if f"{c:02d}{r:02d}" not in m.hex
    ]
    if missing:
        shown = ", ".join(missing[:8]) + (" ..." if len(missing) > 8 else "")
        f.add(
            f"{len(missing)} hexes of the grid rectangle are missing ({shown}); "
            'give sea hexes terrain ["sea"]',
            "grid",
        )

    for i, h in enumerate(pack.hexes):
        kinds = {pack.terrain[t].land for t in h.terrain if t in pack.terrain}
        if not h.terrain:
            f.add(f"hex {h.id} has no terrain", "hexes", i)
        elif kinds == {True, False}:
            f.add(f"hex {h.id} mixes sea with land terrain", "hexes", i)
        elif m.land[h.id] and h.region is None:
            f.add(f"land hex {h.id} has no region (algeria or tunisia; PFV 5)", "hexes", i)
        elif not m.land[h.id] and (h.region is not None or h.features):
            f.add(f"sea hex {h.id} has a region or features", "hexes", i)

    for i, s in enumerate(pack.hexsides):
        feats = set(s.features)
        if "bridge" in feats and "river" not in feats:
            f.add(
                f"hexside {s.between[0]}|{s.between[1]} has a bridge but no river (PFV 8)",
                "hexsides",
                i,
            )
    for i, chain in enumerate(pack.roads):
        if len(chain) < 2:
            f.add(f"road {i} has fewer than two hexes", "roads", i)
        for h in chain:
            if h in m.hex and not passable(m, h):
                f.add(f"road {i} runs through {h}, which may not be entered (PFV 8)", "roads", i)
        for a, b in pairwise(chain):
            if a in m.hex and b in m.hex and blocked_side(m, a, b):
                f.add(f"road {i} crosses the impassable hexside {a}|{b} (PFV 8)", "roads", i)

    for h in RULE_HEXES:
        if h not in m.hex:
            f.add(f"hex {h}, cited by the rulebook (PFV 5, 17), is not on the map", "hexes")
        elif not passable(m, h):
            at_hex(h, f"hex {h}, cited by the rulebook (PFV 5, 17), must be enterable land")
    if BONE in m.hex:
        if m.region(BONE) != "algeria":
            at_hex(BONE, f"hex {BONE} (Bone) must be in Algeria (PFV 5)")
        if not m.has(BONE, "village"):
            at_hex(BONE, f"hex {BONE} (Bone) must be a village (PFV 5)")
    for h in (BROICH_HEX, MARETH):
        if h in m.hex and m.region(h) != "tunisia":
            at_hex(h, f"hex {h} must be in Tunisia: Axis pieces set up there (PFV 5)")
    if AIRBASE in m.hex:
        if not m.has(AIRBASE, "airfield_allied"):
            at_hex(AIRBASE, f"hex {AIRBASE} must carry an Allied aircraft silhouette (PFV 5, 17)")
        if m.region(AIRBASE) != "tunisia":
            at_hex(AIRBASE, f"hex {AIRBASE} must be in Tunisia (PFV 5)")

    crests = set(m.hexes_with("crest_8th_army"))
    for h in EIGHTH_ARMY_CRESTS:
        if h in m.hex and h not in crests:
            at_hex(h, f"hex {h} must carry the 8th Army crest (PFV 5, 17)")
    for h in sorted(crests - set(EIGHTH_ARMY_CRESTS)):
        at_hex(
            h,
            f"hex {h} carries the 8th Army crest, but the rulebook lists only "
            f"{', '.join(EIGHTH_ARMY_CRESTS)} (PFV 17)",
        )
    for h in sorted(crests):
        if m.region(h) != "tunisia":
            at_hex(h, f"8th Army hex {h} must be in Tunisia (PFV 5)")

    ports = m.hexes_with("port")
    names = [m.hex[h].name or "" for h in ports]
    if sorted(names) != sorted(PORTS):
        shown = ", ".join(f"{h} {n or '(unnamed)'}" for h, n in zip(ports, names, strict=True))
        f.add(
            f"the map needs exactly five ports named {', '.join(PORTS)} (PFV 4); "
            f"it has {shown or 'none'}",
            "hexes",
        )
    for h in ports:
        if not passable(m, h):
            at_hex(h, f"port {h} must be enterable land (PFV 4)")
    good_ports = [h for h in ports if passable(m, h)]
    if good_ports:
        reach = land_component(m, good_ports[0])
        for h in good_ports[1:]:
            if h not in reach:
                at_hex(
                    h,
                    f"port {h} cannot be reached over land from port {good_ports[0]}, "
                    "so the Allies could never hold all five (PFV 4)",
                )

    ii_corps = m.hexes_with("crest_ii_corps")
    if not ii_corps:
        f.add("no hex carries the II Corps crest (PFV 5)", "hexes")
    for h in ii_corps:
        if m.region(h) != "tunisia" or not passable(m, h):
            at_hex(h, f"II Corps hex {h} must be enterable land in Tunisia (PFV 5)")
        if h in crests:
            at_hex(h, f"hex {h} carries both the II Corps and the 8th Army crest (PFV 5)")

    for h in sorted(set(m.hexes_with("airfield_allied")) | set(m.hexes_with("airfield_axis"))):
        if not passable(m, h):
            at_hex(h, f"airfield {h} must be enterable land (PFV 5, 7)")
        if m.has(h, "airfield_allied") and m.has(h, "airfield_axis"):
            at_hex(h, f"hex {h} carries both an Allied and an Axis silhouette (PFV 5)")


def _report_hexmap_problem(message: str, f: _File, where: _Where) -> None:
    """Place a :meth:`HexMap.problems` message on its line."""
    if match := re.match(r"hex (\d{4}):", message):
        f.add(message, "hexes", where.hex.get(match[1], 0))
    elif match := re.match(r"hexside (\d{4})\|(\d{4}):", message):
        i = where.side.get((match[1], match[2]))
        f.add(message, *(("hexsides", i) if i is not None else ("hexsides",)))
    elif match := re.match(r"road (\d+):", message):
        f.add(message, "roads", int(match[1]))
    elif not message.startswith("some hex numbers appear twice"):
        f.add(message)


# ------------------------------------------------------------------------------------
# The counters
# ------------------------------------------------------------------------------------


def setup_pieces(counters: CountersPack, later: frozenset[str] = frozenset()) -> list[Counter]:
    """Pieces placed at the start: no battlegroups or two-star pieces (PFV 5).

    ``later`` names other pieces that enter during play, such as the scenario's Patton.
    """
    return [
        c
        for c in counters.counters
        if c.kind != "battlegroup" and "two_star" not in c.tags and c.id not in later
    ]


def _check_counters(pack: CountersPack, f: _File) -> None:
    """PFV 1, 2, 5, 13 and 16 on the counter sheet alone."""
    by_id: dict[str, int] = {}
    for i, c in enumerate(pack.counters):
        if c.id in by_id:
            f.add(f"counter id {c.id!r} is used twice", "counters", i, "id")
        by_id.setdefault(c.id, i)
        if not COUNTER_ID.match(c.id):
            f.add(
                f"counter id {c.id!r} must be lowercase letters, digits and _", "counters", i, "id"
            )
        unknown = set(c.tags) - KNOWN_TAGS
        if unknown:
            f.add(
                f"{c.id}: unknown tags {sorted(unknown)}; known: {sorted(KNOWN_TAGS)}",
                "counters",
                i,
                "tags",
            )
        for face_name, face in (("front", c.front), ("back", c.back)):
            if face is None:
                continue
            printed = {k for k, v in face.model_dump().items() if v is not None}
            wanted = FACE_FIELDS[c.kind]
            if printed != wanted:
                f.add(
                    f"{c.id}: a {c.kind} {face_name} face prints {sorted(wanted)}, "
                    f"not {sorted(printed)} (PFV 2)",
                    "counters",
                    i,
                    face_name,
                )
            for key in printed & wanted:
                low, high = VALUE_RANGES[key]
                value = getattr(face, key)
                if not low <= value <= high:
                    f.add(
                        f"{c.id}: {face_name} {key} {value} is outside {low}-{high}",
                        "counters",
                        i,
                        face_name,
                        key,
                    )
        if c.kind == "battlegroup":
            if c.back is not None:
                f.add(
                    f"{c.id}: a battlegroup is eliminated when reduced, so it has no back "
                    "face (PFV 13)",
                    "counters",
                    i,
                    "back",
                )
            if c.tags or c.fixed_hex or c.near_hex:
                f.add(
                    f"{c.id}: a battlegroup never sets up and carries no crest (PFV 5)",
                    "counters",
                    i,
                )
        if "general" in c.tags and c.kind != "support":
            f.add(f"{c.id}: a general is a non-air support asset (PFV 15)", "counters", i, "tags")
        if "8th_army" in c.tags and "ii_corps" in c.tags:
            f.add(f"{c.id}: a piece has one crest, not both (PFV 5)", "counters", i, "tags")
        if c.kind == "air" and {"8th_army", "ii_corps"} & set(c.tags):
            f.add(
                f"{c.id}: air sets up on airfields, so it cannot be tied to crest hexes (PFV 5)",
                "counters",
                i,
                "tags",
            )
        if "two_star" in c.tags and "ii_corps" not in c.tags:
            f.add(f"{c.id}: two-star pieces are II Corps pieces (PFV 16)", "counters", i, "tags")
        if (c.near_hex is None) != (c.within is None):
            f.add(f"{c.id}: near_hex and within go together (PFV 5)", "counters", i)
        if c.kind == "air" and (c.fixed_hex or c.near_hex):
            f.add(
                f"{c.id}: air sets up on any own airfield, never a fixed hex (PFV 5)", "counters", i
            )
        for key in ("fixed_hex", "near_hex"):
            value = getattr(c, key)
            if value is not None and not is_hex_id(value):
                f.add(f"{c.id}: {key} {value!r} is not a hex number", "counters", i, key)

    counters = pack.counters
    targets = Tally(c.upgrade_to for c in counters if c.upgrade_to)
    for i, c in enumerate(counters):
        is_old = "ii_corps" in c.tags and "two_star" not in c.tags
        if c.upgrade_to and not is_old:
            f.add(
                f"{c.id}: only one-star II Corps pieces are upgraded (PFV 16)",
                "counters",
                i,
                "upgrade_to",
            )
        if is_old and not c.upgrade_to:
            f.add(
                f"{c.id}: a II Corps piece needs upgrade_to, the two-star piece that replaces "
                "it when Patton arrives (PFV 16)",
                "counters",
                i,
            )
        if is_old and c.upgrade_to:
            j = by_id.get(c.upgrade_to)
            new = counters[j] if j is not None else None
            if new is None:
                f.add(
                    f"{c.id}: upgrade_to {c.upgrade_to!r} names no counter (PFV 16)",
                    "counters",
                    i,
                    "upgrade_to",
                )
            elif not {"ii_corps", "two_star"} <= set(new.tags):
                f.add(
                    f"{c.id}: upgrade_to {new.id!r} is not a two-star II Corps piece (PFV 16)",
                    "counters",
                    i,
                    "upgrade_to",
                )
            elif new.kind != c.kind or new.side != c.side or _unstarred(new.name) != c.name:
                f.add(
                    f"{c.id}: upgrade_to {new.id!r} must be the same kind of piece with the "
                    f"same name ({c.kind} {c.name!r}; PFV 16)",
                    "counters",
                    i,
                    "upgrade_to",
                )
            elif targets[c.upgrade_to] > 1:
                f.add(
                    f"{c.id}: {c.upgrade_to!r} is the upgrade of more than one piece (PFV 16)",
                    "counters",
                    i,
                    "upgrade_to",
                )
        if "two_star" in c.tags and targets[c.id] == 0:
            f.add(
                f"{c.id}: no II Corps piece upgrades to this two-star piece (PFV 16)", "counters", i
            )

    for side in ("axis", "allied"):
        if not any(c.side == side and c.kind == "battlegroup" for c in counters):
            f.add(
                f"the {side} side has no battlegroup to replace a twice-reduced unit (PFV 13)",
                "counters",
            )

    _named_piece(f, by_id, counters, "broich", "axis", {"unit"}, BROICH_HEX, "PFV 5")
    _named_piece(f, by_id, counters, "la_spezia", "axis", {"unit"}, MARETH, "PFV 5")
    _named_piece(f, by_id, counters, "marines", "axis", {"support"}, MARETH, "PFV 5")
    _named_piece(f, by_id, counters, "messe", "axis", {"support"}, MARETH, "PFV 5")
    _named_piece(f, by_id, counters, "para", "allied", {"unit"}, BONE, "PFV 5")

    armoured = [i for i, c in enumerate(counters) if c.near_hex is not None]
    if not any(counters[i].near_hex == BONE and counters[i].within == 4 for i in armoured):
        f.add(
            "no Allied unit sets up within 4 hexes of Bone (near_hex 7607, within 4): the "
            "British 6th Armoured needs one (PFV 5)",
            "counters",
        )
    for i in armoured:
        c = counters[i]
        if c.side != "allied" or c.kind != "unit" or {"8th_army", "ii_corps"} & set(c.tags):
            f.add(
                f"{c.id}: the piece set up near Bone is an Allied unit without a crest; the "
                "6th Armoured's printed 8th Army crest is an erratum (PFV 5)",
                "counters",
                i,
            )

    fixed: dict[str, list[int]] = {}
    for i, c in enumerate(counters):
        if c.fixed_hex:
            fixed.setdefault(c.fixed_hex, []).append(i)
    for h, idx in fixed.items():
        pieces = [counters[i] for i in idx]
        overflow = _first_overstacked(pieces)
        if overflow is not None:
            f.add(
                f"the pieces fixed to {h} ({', '.join(c.id for c in pieces)}) break stacking: "
                "one side, at most one unit and two non-air support assets (PFV 6)",
                "counters",
                idx[overflow],
                "fixed_hex",
            )


def _first_overstacked(pieces: list[Counter]) -> int | None:
    """Index of the first piece that a legal stack could not take (PFV 6)."""
    units = ground = 0
    for i, c in enumerate(pieces):
        units += c.kind in ("unit", "battlegroup")
        ground += c.kind == "support"
        if units > 1 or ground > 2 or c.side != pieces[0].side:
            return i
    return None


def _unstarred(name: str) -> str:
    """A two-star piece's name without its stars ("1st Armored**" -> "1st Armored")."""
    return name.rstrip("*\u2605 ").strip()


def _named_piece(
    f: _File,
    by_id: dict[str, int],
    counters: list[Counter],
    piece_id: str,
    side: str,
    kinds: set[str],
    hex_id: str,
    rule: str,
) -> None:
    i = by_id.get(piece_id)
    if i is None:
        f.add(f"counter {piece_id!r} is missing: the special rules name it ({rule})", "counters")
        return
    c = counters[i]
    if c.side != side or c.kind not in kinds:
        f.add(f"{piece_id}: must be an {side} {' or '.join(sorted(kinds))} ({rule})", "counters", i)
    if c.fixed_hex != hex_id:
        f.add(f"{piece_id}: must set up in {hex_id} (fixed_hex; {rule})", "counters", i)


# ------------------------------------------------------------------------------------
# The counters on the map
# ------------------------------------------------------------------------------------


def allied_setup_airfields(m: HexMap) -> list[str]:
    """Allied silhouettes air may set up on: Algeria or the airbase 8821 (PFV 5)."""
    return [h for h in m.hexes_with("airfield_allied") if m.region(h) == "algeria" or h == AIRBASE]


def axis_setup_hexes(m: HexMap) -> list[str]:
    """Tunisian land the Axis may set up in: no 8th Army or II Corps hex (PFV 5), and not
    8821 either. By default the Axis may set up in 8821 (RULINGS R26); the pack is checked
    against the stricter reading so that it is playable under both."""
    crests = set(m.hexes_with("crest_8th_army")) | set(m.hexes_with("crest_ii_corps"))
    return sorted(
        h
        for h in m.hex
        if m.region(h) == "tunisia" and passable(m, h) and h not in crests and h != AIRBASE
    )


def axis_setup_airfields(m: HexMap) -> list[str]:
    """Axis silhouettes in Tunisia outside the Allied set-up hexes (PFV 5)."""
    allowed = set(axis_setup_hexes(m))
    return [h for h in m.hexes_with("airfield_axis") if h in allowed]


def allied_setup_hexes(m: HexMap) -> list[str]:
    """Algerian land, where Allied pieces without a crest set up (PFV 5)."""
    return sorted(h for h in m.hex if m.region(h) == "algeria" and passable(m, h))


def _check_setup(m: HexMap, mf: _File, pack: CountersPack, cf: _File) -> None:
    """PFV 5 and 6: every piece set up at the start has a legal hex, and they all fit."""
    where = _Where(m)
    counters = pack.counters
    index = {c.id: i for i, c in enumerate(counters)}
    crest_8 = set(m.hexes_with("crest_8th_army"))
    crest_2 = set(m.hexes_with("crest_ii_corps"))
    axis_hexes = set(axis_setup_hexes(m))
    algeria = set(allied_setup_hexes(m))

    for c in counters:
        i = index[c.id]
        for key in ("fixed_hex", "near_hex"):
            h = getattr(c, key)
            if h is None or not is_hex_id(h):
                continue
            if h not in m.hex:
                cf.add(f"{c.id}: {key} {h} is not on the map", "counters", i, key)
            elif key == "fixed_hex" and not passable(m, h):
                cf.add(f"{c.id}: fixed_hex {h} may not be entered", "counters", i, key)
        h = c.fixed_hex
        if h is None or h not in m.hex or not passable(m, h):
            continue
        if c.side == "axis" and h not in axis_hexes:
            cf.add(
                f"{c.id}: Axis pieces set up in Tunisia outside the 8th Army and II Corps "
                f"hexes, and {h} is not such a hex (PFV 5)",
                "counters",
                i,
                "fixed_hex",
            )
        elif c.side == "allied":
            if "8th_army" in c.tags and h not in crest_8:
                cf.add(
                    f"{c.id}: an 8th Army piece sets up in an 8th Army hex, not {h} (PFV 5)",
                    "counters",
                    i,
                    "fixed_hex",
                )
            elif "ii_corps" in c.tags and h not in crest_2:
                cf.add(
                    f"{c.id}: a II Corps piece sets up in a II Corps hex, not {h} (PFV 5)",
                    "counters",
                    i,
                    "fixed_hex",
                )
            elif not {"8th_army", "ii_corps"} & set(c.tags) and h not in algeria:
                cf.add(
                    f"{c.id}: Allied pieces set up in Algeria, and {h} is not (PFV 5)",
                    "counters",
                    i,
                    "fixed_hex",
                )

    pieces = setup_pieces(pack)
    fixed_units = {c.fixed_hex for c in pieces if c.fixed_hex and c.kind == "unit"}
    for c in pieces:
        if c.near_hex and c.within is not None and c.near_hex in m.hex:
            room = [
                h for h in algeria if distance(h, c.near_hex) <= c.within and h not in fixed_units
            ]
            if not room:
                cf.add(
                    f"{c.id}: no free Algerian land hex within {c.within} of {c.near_hex} (PFV 5)",
                    "counters",
                    index[c.id],
                )

    def fits(tag: str, hexes: set[str], what: str) -> list[Counter]:
        group = [c for c in pieces if tag in c.tags]
        units = [c for c in group if c.kind == "unit"]
        ground = [c for c in group if c.kind == "support"]
        if len(units) > len(hexes):
            cf.add(
                f"{len(units)} {what} units cannot set up one per hex in the "
                f"{len(hexes)} {what} hexes (PFV 5, 6)",
                "counters",
                index[units[-1].id],
            )
        if len(ground) > 2 * len(hexes):
            cf.add(
                f"{len(ground)} {what} support assets exceed two per {what} hex (PFV 6)",
                "counters",
                index[ground[-1].id],
            )
        return group

    fits("8th_army", crest_8, "8th Army")
    ii_group = fits("ii_corps", crest_2, "II Corps")
    if crest_2 and len(ii_group) < len(crest_2):
        mf.add(
            f"{len(crest_2)} II Corps hexes but only {len(ii_group)} II Corps pieces to set "
            "up, and every II Corps hex needs one (PFV 5)",
            "hexes",
            where.hex[sorted(crest_2)[-1]],
        )

    for side, airfields, what in (
        ("allied", allied_setup_airfields(m), "Allied silhouettes in Algeria or 8821"),
        ("axis", axis_setup_airfields(m), "Axis silhouettes in Tunisia"),
    ):
        air = [c for c in counters if c.side == side and c.kind == "air"]
        if len(air) > len(airfields):
            mf.add(
                f"{len(air)} {side} air pieces but only {len(airfields)} {what}; each sets up "
                "on its own airfield (PFV 5)",
                "hexes",
            )

    axis_units = [c for c in pieces if c.side == "axis" and c.kind == "unit"]
    if len(axis_units) > len(axis_hexes):
        mf.add(
            f"{len(axis_units)} Axis units but only {len(axis_hexes)} Tunisian hexes they may "
            "set up in (PFV 5, 6)",
            "hexes",
        )
    plain = [
        c
        for c in pieces
        if c.side == "allied" and c.kind == "unit" and not {"8th_army", "ii_corps"} & set(c.tags)
    ]
    if len(plain) > len(algeria):
        mf.add(
            f"{len(plain)} Allied units set up in Algeria but it has only {len(algeria)} "
            "land hexes (PFV 5, 6)",
            "hexes",
        )


# ------------------------------------------------------------------------------------
# The scenario
# ------------------------------------------------------------------------------------


def _check_scenario(s: ScenarioPack, f: _File) -> None:
    """PFV 7 (replacements), 16 and 17 on the turn track and named hexes."""
    for i, box in enumerate(s.turns):
        if box.turn != i + 1:
            f.add(
                f"turn box {i + 1} is numbered {box.turn}; number the track 1, 2, 3, ...",
                "turns",
                i,
                "turn",
            )
        if not box.label.strip():
            f.add(f"turn {box.turn} has no label", "turns", i, "label")
    if len(s.turns) < 4:
        f.add(
            f"the turn track has {len(s.turns)} turns; Patton's turn 3 and Rommel's last "
            "three turns need at least 4 (PFV 16, 17)",
            "turns",
        )
    if s.replacements != {"axis": 1, "allied": 2}:
        f.add(
            "replacements are 1 per Axis and 2 per Allied player turn (PFV 7, phase 7)",
            "replacements",
        )
    if s.patton_forced_turn != 3:
        f.add(
            "Patton arrives at the latest at the end of game turn 3 (PFV 16)", "patton_forced_turn"
        )
    if s.rommel_last_turns != 3:
        f.add(
            "Rommel's recall is rolled in the last three game turns (PFV 17)", "rommel_last_turns"
        )
    if s.mareth_hex != MARETH:
        f.add(f"Mareth is hex {MARETH} (PFV 5, 17)", "mareth_hex")
    listed = set(s.eighth_army_hexes)
    wanted = {*EIGHTH_ARMY_CRESTS, AIRBASE}
    if listed != wanted or len(s.eighth_army_hexes) != len(wanted):
        f.add(
            f"eighth_army_hexes must be {', '.join(sorted(wanted))}: the 8th Army hexes and the "
            "airbase (PFV 17)",
            "eighth_army_hexes",
        )


def _check_scenario_pieces(s: ScenarioPack, f: _File, pack: CountersPack) -> None:
    by_id = {c.id: c for c in pack.counters}
    patton = by_id.get(s.patton)
    if patton is None:
        f.add(f"patton {s.patton!r} names no counter (PFV 16)", "patton")
    elif (
        patton.side != "allied"
        or patton.kind != "support"
        or "general" not in patton.tags
        or patton.fixed_hex
    ):
        f.add(
            f"patton {s.patton!r} must be an Allied general support asset that does not set "
            "up (PFV 15, 16)",
            "patton",
        )
    rommel = by_id.get(s.rommel)
    if rommel is None:
        f.add(f"rommel {s.rommel!r} names no counter (PFV 17)", "rommel")
    elif rommel.side != "axis" or rommel.kind != "support" or "general" not in rommel.tags:
        f.add(f"rommel {s.rommel!r} must be an Axis general support asset (PFV 15, 17)", "rommel")
    for piece in s.default_setup:
        if piece not in by_id:
            f.add(f"default_setup names {piece!r}, which is no counter", "default_setup", piece)


def _check_scenario_hexes(s: ScenarioPack, f: _File, m: HexMap) -> None:
    for i, h in enumerate([s.mareth_hex, *s.eighth_army_hexes]):
        loc = ("mareth_hex",) if i == 0 else ("eighth_army_hexes", i - 1)
        if h not in m.hex:
            f.add(f"hex {h} is not on the map (PFV 17)", *loc)
    for piece, h in s.default_setup.items():
        if h not in m.hex or not m.land.get(h):
            f.add(
                f"default_setup puts {piece} in {h}, which is not a land hex of the map",
                "default_setup",
                piece,
            )


__all__ = [
    "allied_setup_airfields",
    "allied_setup_hexes",
    "axis_setup_airfields",
    "axis_setup_hexes",
    "blocked_side",
    "land_component",
    "pack_problems",
    "passable",
    "setup_pieces",
]
