"""Write the Axis & Allies Revised data pack from the public TripleA board definition.

    python tools/aa_revised_pack.py [--xml PATH] [--out DIR] [--check]

Reads ``ww2v2.xml`` (territories, sea zones, connections, income values, capitals,
victory cities, canals, starting owners and units, starting IPCs, unit numbers) with
``xml.etree`` and writes ``board.json``, ``setup.json``, ``units.json`` and
``tables.json`` into ``engine/games/aa_revised/data``. The XML itself is not shipped.

Where the XML carries switches that are not Revised rules (bids, a 9-city victory,
Industrial Technology, air battles) they are ignored; the rulebook's own facts (names
of cities and powers, victory levels, weapons developments, unit abilities) are
tables below, and the numbers the XML shares with the rulebook (unit costs and values,
starting IPCs, capitals, victory cities) are checked against them: a disagreement stops
the script. ``--check`` compares the files that would be written with those on disk and
exits 1 if they differ.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_XML = Path("/work/shared/data/aa_revised/ww2v2.xml")
DEFAULT_OUT = ROOT / "engine" / "games" / "aa_revised" / "data"
VERSION = "1"
GAME = "aa-revised"
XML_SOURCE = (
    "TripleA map triplea-maps/world_war_ii_revised, map/games/ww2v2.xml "
    "(World War II Revised 1.4.1)"
)
RULEBOOK = "Axis & Allies Revised rulebook with the errata and FAQ"

# ------------------------------------------------------------------ rulebook facts

#: TripleA player name -> (id, name, side, colour, turn order, starting IPCs).
#: Revised: National Production Chart and IPCs; Combat Forces (colours); Order of Play.
POWERS = {
    "Russians": ("ussr", "Soviet Union", "allies", "red", 1, 24),
    "Germans": ("germany", "Germany", "axis", "gray", 2, 40),
    "British": ("uk", "United Kingdom", "allies", "tan", 3, 30),
    "Japanese": ("japan", "Japan", "axis", "orange", 4, 30),
    "Americans": ("usa", "United States", "allies", "green", 5, 42),
}

#: Victory city in each territory (Revised: How the War Is Won; Capturing Capitals).
VICTORY_CITIES = {
    "Eastern United States": "Washington",
    "Western United States": "Los Angeles",
    "United Kingdom": "London",
    "Karelia S.S.R.": "Leningrad",
    "Russia": "Moscow",
    "India": "Calcutta",
    "Germany": "Berlin",
    "Western Europe": "Paris",
    "Southern Europe": "Rome",
    "Kwantung": "Shanghai",
    "Philipine Islands": "Manila",
    "Japan": "Tokyo",
}

#: Capital cities and their powers (Revised: Capturing and Liberating Capitals).
CAPITALS = {
    "Washington": "usa",
    "Moscow": "ussr",
    "London": "uk",
    "Berlin": "germany",
    "Tokyo": "japan",
}

#: TripleA spelling -> (the name the rulebook uses, extra aliases).
NAMES = {
    "Anglo Egypt": ("Anglo-Egypt", ["Egypt"]),
    "Kwantung": ("Kwangtung", []),
    "Philipine Islands": ("Philippine Islands", ["Philippines"]),
    "Hawaiian Islands": ("Hawaiian Islands", ["Hawaii"]),
    "United Kingdom": ("United Kingdom", ["England"]),
    "Eastern United States": ("Eastern United States", ["Eastern US"]),
    "Central United States": ("Central United States", ["Central US"]),
    "Western United States": ("Western United States", ["Western US"]),
    "Karelia S.S.R.": ("Karelia S.S.R.", ["Karelia"]),
    "Ukraine S.S.R.": ("Ukraine S.S.R.", ["Ukraine"]),
    "Kazakh S.S.R.": ("Kazakh S.S.R.", ["Kazakh", "Kazakhstan"]),
    "Yakut S.S.R.": ("Yakut S.S.R.", ["Yakut"]),
    "Buryatia S.S.R.": ("Buryatia S.S.R.", ["Buryatia"]),
    "Evenki National Okrug": ("Evenki National Okrug", ["Evenki"]),
    "Union of South Africa": ("Union of South Africa", ["South Africa"]),
    "French Indochina": ("French Indochina", ["Indochina"]),
}

#: TripleA unit -> our unit row. ``printed`` is (cost, attack, defense, movement) as
#: Appendix 1 prints them (None for a dash); the XML's numbers must agree.
UNITS = {
    "infantry": {
        "id": "infantry",
        "name": "Infantry",
        "plural": "Infantry",
        "aliases": ["inf", "infantries", "i"],
        "kind": "land",
        "printed": (3, 1, 2, 1),
        "flags": ["can_capture", "supported_by_artillery"],
    },
    "artillery": {
        "id": "artillery",
        "name": "Artillery",
        "plural": "Artillery",
        "aliases": ["art", "arty", "artilleries", "a"],
        "kind": "land",
        "printed": (4, 2, 2, 1),
        "flags": ["can_capture", "supports_infantry"],
    },
    "armour": {
        "id": "tank",
        "name": "Tank",
        "plural": "Tanks",
        "aliases": ["arm", "armor", "armour", "armours", "armors", "tnk", "tk", "t"],
        "kind": "land",
        "printed": (5, 3, 3, 2),
        "flags": ["can_capture", "blitz"],
    },
    "aaGun": {
        "id": "aa_gun",
        "name": "Antiaircraft Gun",
        "plural": "Antiaircraft Guns",
        "aliases": ["aa", "aag", "aa gun", "aa guns", "aagun", "flak", "anti-aircraft gun"],
        "kind": "land",
        "printed": (5, None, 1, 1),
        "flags": ["antiaircraft", "never_a_casualty", "noncombat_move_only"],
    },
    "factory": {
        "id": "industrial_complex",
        "name": "Industrial Complex",
        "plural": "Industrial Complexes",
        "aliases": ["ic", "factory", "factories", "complex"],
        "kind": "land",
        "printed": (15, None, None, 0),
        "flags": ["production", "immobile", "never_a_casualty", "not_on_battle_board"],
    },
    "fighter": {
        "id": "fighter",
        "name": "Fighter",
        "plural": "Fighters",
        "aliases": ["ftr", "fig", "figs", "ftrs", "f"],
        "kind": "air",
        "printed": (10, 3, 4, 4),
        "flags": ["lands_on_carriers"],
    },
    "bomber": {
        "id": "bomber",
        "name": "Bomber",
        "plural": "Bombers",
        "aliases": ["bmb", "bom", "bmbs", "b"],
        "kind": "air",
        "printed": (15, 4, 1, 6),
        "flags": ["strategic_bombing"],
    },
    "battleship": {
        "id": "battleship",
        "name": "Battleship",
        "plural": "Battleships",
        "aliases": ["bb", "bs", "bbs"],
        "kind": "sea",
        "printed": (24, 4, 4, 2),
        "flags": ["two_hits", "shore_bombardment"],
    },
    "destroyer": {
        "id": "destroyer",
        "name": "Destroyer",
        "plural": "Destroyers",
        "aliases": ["dd", "des", "dst", "dds", "ds"],
        "kind": "sea",
        "printed": (12, 3, 3, 2),
        "flags": ["cancels_submarines"],
    },
    "carrier": {
        "id": "carrier",
        "name": "Aircraft Carrier",
        "plural": "Aircraft Carriers",
        "aliases": ["cv", "ac", "car", "cvs", "carrier", "carriers"],
        "kind": "sea",
        "printed": (16, 1, 3, 2),
        "flags": [],
    },
    "transport": {
        "id": "transport",
        "name": "Transport",
        "plural": "Transports",
        "aliases": ["trn", "tp", "tpt", "trans", "tran", "trns", "tps", "tt"],
        "kind": "sea",
        "printed": (8, 0, 1, 2),
        "flags": [],
    },
    "submarine": {
        "id": "submarine",
        "name": "Submarine",
        "plural": "Submarines",
        "aliases": ["sub", "subs", "ss", "sb"],
        "kind": "sea",
        "printed": (8, 2, 2, 2),
        "flags": [
            "opening_fire",
            "hits_sea_units_only",
            "may_submerge",
            "moves_through_enemy_zones",
        ],
    },
}

#: Revised: Phase 1, Develop Weapons, and the unit profiles each development changes.
TECHS = [
    {
        "id": "jet_fighters",
        "die": 1,
        "name": "Jet Fighters",
        "effect": "Fighters defend at 5; their attack is unchanged.",
        "units": {"fighter": {"defense": 5}},
    },
    {
        "id": "rockets",
        "die": 2,
        "name": "Rockets",
        "effect": "Each territory's antiaircraft gun may strike an enemy industrial "
        "complex within 3 spaces, once per turn, for up to that territory's income value.",
        "units": {"aa_gun": {"add_flags": ["rocket_launcher"]}},
    },
    {
        "id": "super_submarines",
        "die": 3,
        "name": "Super Submarines",
        "effect": "Submarines attack at 3; their defense is unchanged.",
        "units": {"submarine": {"attack": 3}},
    },
    {
        "id": "long_range_aircraft",
        "die": 4,
        "name": "Long-Range Aircraft",
        "effect": "Fighters move 6 and bombers move 8.",
        "units": {"fighter": {"movement": 6}, "bomber": {"movement": 8}},
    },
    {
        "id": "combined_bombardment",
        "die": 5,
        "name": "Combined Bombardment",
        "effect": "Destroyers may bombard in amphibious assaults like battleships, at their "
        "attack of 3.",
        "units": {"destroyer": {"add_flags": ["shore_bombardment"]}},
    },
    {
        "id": "heavy_bombers",
        "die": 6,
        "name": "Heavy Bombers",
        "effect": "Attacking bombers roll two dice each, in combat and in bombing raids; "
        "they still roll one die on defense.",
        "units": {"bomber": {"attack_dice": 2}},
    },
]

#: Revised: How the War Is Won.
VICTORY_LEVELS = [
    {"id": "minor", "name": "Minor victory", "cities": 8},
    {"id": "major", "name": "Major victory", "cities": 10},
    {"id": "total", "name": "Total victory", "cities": 12},
]

#: FAQ: Map. The western entrance to the Mediterranean can never be closed.
STRAITS = [
    {
        "id": "gibraltar",
        "name": "Strait of Gibraltar",
        "sea_zones": ["sz12", "sz13"],
        "note": "Open to everyone whoever holds Gibraltar and Algeria (FAQ: Map).",
    }
]


# ------------------------------------------------------------------ transcription


def slug(name: str) -> str:
    """``"Karelia S.S.R."`` -> ``"karelia_ssr"``; ``"15 Sea Zone"`` -> ``"sz15"``."""
    m = re.fullmatch(r"(\d+) Sea Zone", name)
    if m:
        return f"sz{m.group(1)}"
    words = re.sub(r"[^a-z0-9 ]", "", name.lower().replace("-", " ")).split()
    return "_".join(words)


def space_id(xml_name: str) -> str:
    """Our id for a TripleA territory: the slug of the name the rulebook uses."""
    return slug(NAMES.get(xml_name, (xml_name, []))[0])


def options(attachment: ET.Element) -> dict[str, str]:
    return {o.get("name", ""): o.get("value", "") for o in attachment.iter("option")}


def header(name: str, provenance: str, description: str, sources: list[str]) -> dict:
    return {
        "game": GAME,
        "name": name,
        "version": VERSION,
        "provenance": provenance,
        "description": description,
        "sources": sources,
    }


def build(xml_path: Path) -> dict[str, dict]:
    root = ET.parse(xml_path).getroot()
    fail: list[str] = []

    players = {p.get("name") for p in root.iter("player")}
    if players != set(POWERS):
        fail.append(f"the XML's players {sorted(players)} are not the five powers")
    power = {k: v[0] for k, v in POWERS.items()}

    # ---- spaces
    raw = [
        (t.get("name", ""), t.get("water") == "true") for t in root.find("map").iter("territory")
    ]
    attach: dict[str, dict[str, str]] = {}
    canal_attach: dict[str, dict[str, str]] = {}
    unit_attach: dict[str, dict[str, str]] = {}
    for a in root.iter("attachment"):
        kind, target = a.get("name"), a.get("attachTo", "")
        if kind == "territoryAttachment":
            attach[target] = options(a)
        elif kind == "canalAttachment":
            canal_attach[target] = options(a)
        elif kind == "unitAttachment":
            unit_attach[target] = options(a)
    owners = {o.get("territory"): power[o.get("owner")] for o in root.iter("territoryOwner")}
    factories = {}
    placements = []
    for p in root.iter("unitPlacement"):
        where, unit, count, who = (
            p.get("territory"),
            p.get("unitType"),
            int(p.get("quantity", "0")),
            power[p.get("owner")],
        )
        if unit == "factory":
            factories[where] = who
        else:
            placements.append((who, space_id(where), UNITS[unit]["id"], count))

    edges: list[tuple[str, str]] = []
    for c in root.find("map").iter("connection"):
        edges.append((c.get("t1", ""), c.get("t2", "")))
    water = {name: is_water for name, is_water in raw}
    neighbours: dict[str, set[str]] = {name: set() for name, _ in raw}
    for a, b in edges:
        neighbours[a].add(b)
        neighbours[b].add(a)

    spaces = []
    for name, is_water in sorted(raw, key=lambda r: (r[1], _sort_key(r[0]))):
        sid = space_id(name)
        if is_water:
            number = int(name.split()[0])
            spaces.append(
                {
                    "id": sid,
                    "name": f"Sea Zone {number}",
                    "aliases": [name, f"SZ {number}"],
                    "kind": "sea",
                    "number": number,
                }
            )
            continue
        opts = attach.get(name, {})
        shown, extra = NAMES.get(name, (name, []))
        aliases = [a for a in [name if name != shown else None, *extra] if a]
        city = VICTORY_CITIES.get(name)
        if city:
            aliases.append(city)
        if ("victoryCity" in opts) != (city is not None):
            fail.append(f"{name}: the XML and the rulebook disagree on its victory city")
        capital = opts.get("capital")
        capital_of = power[capital] if capital else None
        if capital_of != (CAPITALS.get(city) if city else None):
            fail.append(f"{name}: the XML and the rulebook disagree on its capital")
        land_nb = [n for n in neighbours[name] if not water[n]]
        sea_nb = [n for n in neighbours[name] if water[n]]
        impassable = opts.get("isImpassable") == "true"
        space = {
            "id": sid,
            "name": shown,
            "aliases": aliases,
            "kind": "land",
            "ipc": int(opts.get("production", "0")),
            "original_owner": owners.get(name),
            "capital_of": capital_of,
            "victory_city": city,
            "industrial_complex": name in factories,
            "impassable": impassable,
            # FAQ: an island lies wholly within one sea zone and touches no other land
            "island": not impassable and not land_nb and len(sea_nb) == 1,
        }
        if name in factories and factories[name] != owners.get(name):
            fail.append(f"{name}: its industrial complex starts with another power")
        spaces.append({k: v for k, v in space.items() if k == "ipc" or v not in (None, False, [])})

    connections = sorted(
        (tuple(sorted((space_id(a), space_id(b)), key=_sort_key)) for a, b in edges),
        key=lambda e: (_sort_key(e[0]), _sort_key(e[1])),
    )

    canals: dict[str, dict] = {}
    for zone, opts in canal_attach.items():
        name = opts["canalName"]
        canal = canals.setdefault(
            name,
            {
                "id": slug(name.replace(" Canal", "")),
                "name": name,
                "sea_zones": [],
                "controlled_by": [space_id(t) for t in opts["landTerritories"].split(":")],
            },
        )
        canal["sea_zones"].append(space_id(zone))
    for canal in canals.values():
        canal["sea_zones"].sort(key=_sort_key)

    # ---- starting IPCs: the XML must give the rulebook's figures
    for r in root.iter("resourceGiven"):
        who = r.get("player", "")
        if int(r.get("quantity", "0")) != POWERS[who][5]:
            fail.append(f"{who}: the XML's starting IPCs differ from the rulebook")

    # ---- units
    costs = {}
    for rule in root.iter("productionRule"):
        if rule.get("name", "").endswith("IndustrialTechnology"):
            continue  # Industrial Technology is not a Revised development
        result = rule.find("result")
        cost = rule.find("cost")
        costs[result.get("resourceOrUnit")] = int(cost.get("quantity"))
    units = []
    for xml_name, row in UNITS.items():
        opts = unit_attach.get(xml_name, {})
        attack = int(opts["attack"]) if "attack" in opts else None
        defense = int(opts["defense"]) if "defense" in opts else None
        movement = int(opts.get("movement", "0"))
        cost = costs.get(xml_name)
        if xml_name == "aaGun":
            # The XML models the gun's fire elsewhere; the chart prints "1, opening fire only".
            defense = row["printed"][2]
        if (cost, attack, defense, movement) != row["printed"]:
            fail.append(
                f"{xml_name}: XML {(cost, attack, defense, movement)} differs from the "
                f"rulebook's {row['printed']}"
            )
        hit_points = int(opts.get("hitPoints", "1"))
        if (hit_points == 2) != ("two_hits" in row["flags"]):
            fail.append(f"{xml_name}: hit points disagree with the rulebook")
        unit = {
            "id": row["id"],
            "name": row["name"],
            "plural": row["plural"],
            "aliases": row["aliases"],
            "kind": row["kind"],
            "cost": cost,
            "attack": attack,
            "defense": defense,
            "movement": movement,
            "hit_points": hit_points,
            "transport_cost": int(opts["transportCost"]) if "transportCost" in opts else None,
            "transport_capacity": int(opts.get("transportCapacity", "0")),
            "carrier_capacity": int(opts.get("carrierCapacity", "0")),
            "carrier_cost": int(opts["carrierCost"]) if "carrierCost" in opts else None,
            "flags": row["flags"],
        }
        units.append({k: v for k, v in unit.items() if v not in (None, 0) or k in _KEEP})

    if fail:
        raise SystemExit("the XML disagrees with the rulebook:\n  " + "\n  ".join(fail))

    vc_side = {}
    for name, city in VICTORY_CITIES.items():
        vc_side[city] = POWERS_BY_ID[owners[name]][2]

    placements.sort(key=lambda p: (POWER_ORDER[p[0]], _sort_key(p[1]), UNIT_ORDER[p[2]]))
    return {
        "board": {
            "header": header(
                "board",
                "public-data",
                "Territories, sea zones, connections (with the wrap-around) and canals of "
                "the Revised board.",
                [XML_SOURCE, RULEBOOK + ": Spaces on the Game Board, Canals; FAQ: Map"],
            ),
            "spaces": spaces,
            "connections": [list(e) for e in connections],
            "canals": list(canals.values()),
            "straits": STRAITS,
        },
        "setup": {
            "header": header(
                "setup",
                "public-data",
                "Starting units of each power (the reference charts). Fighters in a sea "
                "zone are on their power's carrier there; industrial complexes are "
                "flagged on their territories in board.json.",
                [XML_SOURCE],
            ),
            "placements": [
                {"power": p, "space": s, "unit": u, "count": n} for p, s, u, n in placements
            ],
        },
        "units": {
            "header": header(
                "units",
                "rulebook",
                "The unit table: cost, attack, defense, movement and special abilities.",
                [RULEBOOK + ": Appendix 1, Unit Profiles", XML_SOURCE + " (checked)"],
            ),
            "units": units,
        },
        "tables": {
            "header": header(
                "tables",
                "rulebook",
                "Powers, starting IPCs, victory levels and weapons developments.",
                [
                    RULEBOOK + ": Setup (National Production Chart, IPCs), Order of Play, "
                    "How the War Is Won, Phase 1: Develop Weapons"
                ],
            ),
            "powers": [
                {
                    "id": v[0],
                    "name": v[1],
                    "side": v[2],
                    "colour": v[3],
                    "turn_order": v[4],
                    "starting_ipcs": v[5],
                }
                for v in sorted(POWERS.values(), key=lambda v: v[4])
            ],
            "victory_levels": VICTORY_LEVELS,
            "victory_cities": vc_side,
            "techs": TECHS,
            "research_die_cost": 5,
        },
    }


_KEEP = {"attack", "defense", "movement", "cost", "flags", "aliases"}
POWERS_BY_ID = {v[0]: v for v in POWERS.values()}
POWER_ORDER = {v[0]: v[4] for v in POWERS.values()}
UNIT_ORDER = {row["id"]: i for i, row in enumerate(UNITS.values())}


def _sort_key(name: str) -> tuple:
    m = re.fullmatch(r"(?:sz(\d+)|(\d+) Sea Zone)", name)
    if m:
        return (1, int(m.group(1) or m.group(2)), "")
    return (0, 0, name.lower())


def render(doc: dict) -> str:
    """JSON with one space, connection or placement per line: readable and diffable."""
    parts = []
    for key, value in doc.items():
        if key in ONE_PER_LINE:
            rows = ",\n".join("  " + json.dumps(v, ensure_ascii=False) for v in value)
            parts.append(f" {json.dumps(key)}: [\n{rows}\n ]")
        else:
            body = json.dumps(value, indent=1, ensure_ascii=False).replace("\n", "\n ")
            parts.append(f" {json.dumps(key)}: {body}")
    return "{\n" + ",\n".join(parts) + "\n}\n"


ONE_PER_LINE = {
    "spaces",
    "connections",
    "canals",
    "straits",
    "placements",
    "powers",
    "victory_levels",
}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--xml", type=Path, default=DEFAULT_XML)
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    parser.add_argument("--check", action="store_true", help="compare, do not write")
    args = parser.parse_args(argv)
    docs = build(args.xml)
    stale = []
    for name, doc in docs.items():
        path = args.out / f"{name}.json"
        text = render(doc)
        if args.check:
            if not path.exists() or path.read_text(encoding="utf-8") != text:
                stale.append(str(path))
            continue
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        print(f"wrote {path}")
    if stale:
        print("out of date: " + ", ".join(stale), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
