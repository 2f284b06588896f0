"""Write the Axis & Allies: North Africa data pack (a reconstruction).

    python tools/aa_na_pack.py [--out DIR] [--check]

The rulebook text (``/work/shared/rules/000_6064d7d6e5e4d9cf.txt``, cited ``L<n>``) keeps
the rules but not the board, the Axis/US/French reference charts or most set-up rows.
This script holds the reconstruction as readable tables: every place at its real
latitude and longitude, the coast road and borders as they ran in 1940-43, the orders
of battle of January and November 1942, and every number, name and event the text does
give (cited line by line). It writes ``board.json``, ``units.json``, ``setup.json`` and
``tables.json`` into ``engine/games/aa_na/data`` (deterministic output: same tables,
same bytes). ``--check`` compares with the files on disk and exits 1 when they differ.
What is invented and why is in ``engine/games/aa_na/data/README.md``.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_OUT = ROOT / "engine" / "games" / "aa_na" / "data"
GAME = "aa-na"
VERSION = "1"
RULEBOOK = "Axis & Allies: North Africa rulebook (2024), text extraction 000_6064d7d6e5e4d9cf"
HISTORY = (
    "Orders of battle: Playfair, The Mediterranean and Middle East vol. III-IV (HMSO); "
    "Howe, Northwest Africa: Seizing the Initiative in the West (US Army CMH)"
)
GEOGRAPHY = "Coordinates of the named places (WGS84, town centre or feature centre)"

# ------------------------------------------------------------------ territories
# id: (name, lat, lon, region, rp, stacking limit or None for the default 8, flags)
# flags: c = coast road, s = Sahara, x = impassable, m = Morocco/Algeria/Tunisia (west
# of the white line, L477), i = island, p = port.  RP values other than Malta's (L563)
# are invented; RP territories are those the text names as controllable (L250-257,
# L855, L1021-1022).  Constantine and Mersa Matruh have no RP (L483).
TERRITORIES: dict[str, tuple[str, float, float, str, int, int | None, str]] = {
    # Morocco
    "casablanca": ("Casablanca", 33.57, -7.59, "morocco", 3, None, "cmp"),
    "marrakech": ("Marrakech", 31.63, -7.99, "morocco", 0, None, "m"),
    "fez": ("Fez", 34.03, -5.00, "morocco", 0, None, "m"),
    "spanish_morocco": ("Spanish Morocco", 35.25, -4.60, "morocco", 0, None, "cxm"),
    "colomb_bechar": ("Colomb-Béchar", 31.62, -2.22, "algeria", 0, None, "sm"),
    # Algeria
    "oran": ("Oran", 35.70, -0.63, "algeria", 2, None, "cmp"),
    "algiers": ("Algiers", 36.75, 3.06, "algeria", 3, None, "cmp"),
    "constantine": ("Constantine", 36.37, 6.61, "algeria", 0, None, "cm"),
    "laghouat": ("Laghouat", 33.80, 2.87, "algeria", 0, None, "m"),
    "el_oued": ("El Oued", 33.37, 6.87, "algeria", 0, None, "m"),
    "ghardaia": ("Ghardaïa", 32.49, 3.67, "algeria", 0, None, "sm"),
    "grand_erg_oriental": ("Grand Erg Oriental", 31.00, 8.00, "algeria", 0, None, "sm"),
    # Tunisia
    "tunis": ("Tunis", 36.80, 10.18, "tunisia", 5, 10, "cmp"),
    "kasserine_pass": ("Kasserine Pass", 35.17, 8.83, "tunisia", 1, None, "m"),
    "sfax": ("Sfax", 34.74, 10.76, "tunisia", 0, None, "cm"),
    "mareth": ("Mareth", 33.62, 10.28, "tunisia", 2, None, "cm"),
    # Libya
    "tripoli": ("Tripoli", 32.89, 13.19, "libya", 5, None, "cp"),
    "fezzan": ("Fezzan", 26.50, 14.00, "libya", 0, None, "s"),
    "misurata": ("Misurata", 32.38, 15.09, "libya", 0, None, "c"),
    "sirte": ("Sirte", 31.21, 16.59, "libya", 0, None, "c"),
    "zella": ("Zella", 28.56, 17.58, "libya", 0, None, ""),
    "el_agheila": ("El Agheila", 30.27, 19.20, "libya", 0, None, "c"),
    "agedabia": ("Agedabia", 30.76, 20.23, "libya", 0, None, "c"),
    "benghazi": ("Benghazi", 32.12, 20.07, "libya", 3, None, "cp"),
    "derna": ("Derna", 32.77, 22.64, "libya", 0, None, "c"),
    "bir_hacheim": ("Bir Hacheim", 31.60, 23.47, "libya", 0, None, ""),
    "tobruk": ("Tobruk", 32.08, 23.96, "libya", 3, 10, "c"),
    "kufra": ("Kufra", 24.20, 23.30, "libya", 0, None, "s"),
    # Egypt
    "mersa_matruh": ("Mersa Matruh", 31.35, 27.24, "egypt", 0, None, "c"),
    "siwa": ("Siwa", 29.20, 25.52, "egypt", 0, None, ""),
    "qattara_depression": ("Qattara Depression", 29.60, 27.40, "egypt", 0, None, "x"),
    "great_sand_sea": ("Great Sand Sea", 26.50, 26.20, "egypt", 0, None, "s"),
    "el_alamein": ("El Alamein", 30.83, 28.95, "egypt", 0, None, "c"),
    "cairo": ("Cairo", 30.04, 31.24, "egypt", 8, 12, "cp"),
    # Europe and the islands
    "italy": ("Italy", 41.90, 12.50, "europe", 0, 16, ""),
    "greece": ("Greece", 38.50, 22.30, "europe", 0, None, ""),
    "sardinia": ("Sardinia", 40.10, 9.00, "islands", 0, None, "i"),
    "sicily": ("Sicily", 37.60, 14.00, "islands", 0, None, "i"),
    "crete": ("Crete", 35.24, 24.80, "islands", 0, None, "i"),
    "malta": ("Malta", 35.90, 14.40, "islands", 15, 4, "ip"),
    "gibraltar": ("Gibraltar", 36.14, -5.35, "islands", 0, 4, "i"),
}

#: other spellings the rulebook uses (L357, L366, L378, L813)
ALIASES = {
    "mersa_matruh": ["Mersa Metruh", "Matruh"],
    "el_agheila": ["Ei Agheila", "Agheila"],
    "algiers": ["Algers", "Alger"],
    "kasserine_pass": ["Kasserine", "Kasserl"],
    "bir_hacheim": ["Bir Hakeim", "Bir Hakim"],
    "qattara_depression": ["Qattara"],
    "colomb_bechar": ["Colomb-Bechar", "Bechar"],
    "ghardaia": ["Ghardaia"],
    "fez": ["Fes"],
}

#: a power's emblem printed on the territory: never invaded by enemy land units (L475,
#: L503, L527). Italy, Malta and Gibraltar are stated; Sicily (Messina, L527), Sardinia and
#: Crete (Axis direct deployment, L936) and Greece ("can't invade ... Greece", L232) ruled.
PERMANENT = {
    "italy": "ita",
    "sicily": "ita",
    "sardinia": "ita",
    "greece": "ger",
    "crete": "ger",
    "malta": "uk",
    "gibraltar": "uk",
}

#: staging territories (L503)
STAGING = {"italy": ["ger", "ita"], "gibraltar": ["uk"]}

#: defensive bonus text (L495, L807, L867-869): Tobruk against every attack, Mareth only
#: while land units attack from Tripoli; the effect is reconstructed from the fragments
#: "and Defend" / "Reroll 9s &": defending units reroll results of 9 and 10 in step 3.
DEFENSIVE_BONUS = {
    "tobruk": {"against": "all", "reroll": [9, 10]},
    "mareth": {"against": "from:tripoli", "reroll": [9, 10]},
}

# ------------------------------------------------------------------ sea zones
# Numbered zones run west to east (SZ 1 south of Portugal, L572; SZ 5 holds the unnamed
# Balearic islets, L533; SZ 11 north and SZ 16 east of Sicily, L527; SZ 31 north of the
# Suez Canal, L579, the highest number in the text).
SEA_ZONES: dict[int, tuple[str, float, float]] = {
    1: ("Gulf of Cádiz", 36.30, -8.00),
    2: ("Atlantic off Morocco", 34.40, -10.20),
    3: ("Alboran Sea", 36.00, -3.50),
    4: ("Western Algerian Basin", 37.20, 0.60),
    5: ("Balearic Sea", 39.30, 2.60),
    6: ("Gulf of Bougie", 37.40, 5.20),
    7: ("Gulf of Lion", 42.00, 5.20),
    8: ("Sardinia Channel", 38.20, 8.00),
    9: ("Ligurian Sea", 43.30, 9.00),
    10: ("Tyrrhenian Sea", 40.20, 11.50),
    11: ("Southern Tyrrhenian Sea", 38.90, 14.00),
    12: ("Strait of Sicily", 37.40, 11.30),
    13: ("Malta Channel", 36.40, 12.70),
    14: ("Gulf of Gabès", 34.20, 11.30),
    15: ("Libyan Sea off Tripolitania", 34.30, 15.00),
    16: ("Ionian Sea off Sicily", 37.80, 16.50),
    17: ("Central Ionian Sea", 36.20, 18.50),
    18: ("Gulf of Sirte", 31.70, 17.80),
    19: ("Strait of Otranto", 40.50, 18.90),
    20: ("Ionian Sea off Cyrenaica", 34.30, 20.60),
    21: ("Ionian Sea off Greece", 37.60, 20.70),
    22: ("Sea off Derna", 33.40, 22.60),
    23: ("Sea of Crete approaches", 36.40, 22.80),
    24: ("Sea off Tobruk", 32.70, 24.50),
    25: ("Libyan Sea south of Crete", 34.20, 25.60),
    26: ("Aegean Sea", 38.20, 25.00),
    27: ("Sea east of Crete", 35.40, 27.80),
    28: ("Sea off Mersa Matruh", 31.90, 27.00),
    29: ("Sea off El Alamein", 31.40, 29.00),
    30: ("Levantine Sea", 34.00, 32.00),
    31: ("Sea off Alexandria", 31.70, 31.00),
}

# Convoy sea zones (L505-515): spaces of their own named by the convoy route printed in
# them. id: (name, lat, lon, port, emblems, permanent, next leg).  The three UK route
# zones are boxes off the map's edge; the port ones sit at their ports.
CONVOYS: dict[str, tuple[str, float, float, str | None, list[str], bool, str | None]] = {
    "atlantic_ocean_csz": (
        "Atlantic Ocean Convoy",
        33.00,
        -14.00,
        None,
        ["uk"],
        True,
        "indian_ocean_csz",
    ),
    "indian_ocean_csz": ("Indian Ocean Convoy", 25.00, 35.50, None, ["uk"], True, "suez_canal_csz"),
    "suez_canal_csz": ("Suez Canal Convoy", 30.60, 32.30, "cairo", ["uk"], True, None),
    "malta_csz": ("Malta Convoy", 35.60, 14.60, "malta", ["uk"], True, None),
    "casablanca_csz": ("Casablanca Convoy", 33.80, -8.30, "casablanca", ["uk", "us"], False, None),
    "oran_csz": ("Oran Convoy", 36.00, -0.80, "oran", ["uk", "us"], False, None),
    "algiers_csz": ("Algiers Convoy", 37.00, 3.10, "algiers", ["uk", "us"], False, None),
    "tunis_csz": ("Tunis Convoy", 37.10, 10.60, "tunis", ["ger", "ita"], False, None),
    "tripoli_csz": ("Tripoli Convoy", 33.20, 13.30, "tripoli", ["ger", "ita"], False, None),
    "benghazi_csz": ("Benghazi Convoy", 32.40, 19.60, "benghazi", ["ger", "ita"], False, None),
}

#: sea unit deployment zones (L511-513): the UK has two, every other power one; Germany's
#: is SZ 1 (L572). The UK's are its Atlantic convoy zone (the only zone other powers may
#: not enter, L513) and the naval base zone; Italy's is off Taranto; the US's off Morocco.
SEA_DEPLOY = {"ger": ["sz1"], "uk": ["atlantic_ocean_csz", "sz31"], "ita": ["sz16"], "us": ["sz2"]}

# ------------------------------------------------------------------ borders
#: the coast road west to east (L539-543): one chain, broken only by impassable
#: Spanish Morocco. Consecutive entries share a border.
COAST_ROAD = [
    "casablanca",
    "spanish_morocco",
    "oran",
    "algiers",
    "constantine",
    "tunis",
    "sfax",
    "mareth",
    "tripoli",
    "misurata",
    "sirte",
    "el_agheila",
    "agedabia",
    "benghazi",
    "derna",
    "tobruk",
    "mersa_matruh",
    "el_alamein",
    "cairo",
]

#: land borders off the coast road (the coast road's own links are added from COAST_ROAD)
LAND_BORDERS = """
casablanca marrakech | casablanca fez | marrakech fez | marrakech colomb_bechar
fez spanish_morocco | fez oran | fez colomb_bechar
oran colomb_bechar | oran laghouat | algiers laghouat | constantine laghouat
constantine kasserine_pass | laghouat el_oued | laghouat ghardaia | laghouat colomb_bechar
colomb_bechar ghardaia | ghardaia el_oued | ghardaia grand_erg_oriental
el_oued kasserine_pass | el_oued grand_erg_oriental
tunis kasserine_pass | kasserine_pass sfax | kasserine_pass mareth
mareth grand_erg_oriental | grand_erg_oriental fezzan | tripoli fezzan
misurata fezzan | misurata zella | sirte zella | zella fezzan | zella el_agheila
zella kufra | fezzan kufra | agedabia zella | agedabia kufra | agedabia bir_hacheim
derna bir_hacheim | tobruk bir_hacheim | bir_hacheim mersa_matruh | bir_hacheim siwa
kufra siwa | kufra great_sand_sea | siwa great_sand_sea | siwa mersa_matruh
siwa qattara_depression | mersa_matruh qattara_depression | el_alamein qattara_depression
qattara_depression great_sand_sea | cairo great_sand_sea
"""

#: which sea zones each territory or zone touches (land-sea and sea-sea borders)
SEA_BORDERS = """
sz1: atlantic_ocean_csz sz2 sz3 casablanca_csz gibraltar
sz2: atlantic_ocean_csz casablanca_csz
casablanca_csz: casablanca
sz3: gibraltar spanish_morocco sz4 sz5 oran_csz
oran_csz: oran sz4
sz4: sz5 sz6 algiers_csz
sz5: sz6 sz7
algiers_csz: algiers sz6
sz6: constantine sz7 sz8
sz7: sz8 sz9 sardinia
sz8: sardinia sz10 sz12 tunis_csz constantine
sz9: italy sz10
sz10: sardinia italy sz11 sz12
sz11: italy sicily sz12 sz16
sz12: sicily tunis_csz sz13 sz14
tunis_csz: tunis
sz13: sicily malta_csz sz14 sz15
sz14: sfax mareth tripoli_csz sz15
malta_csz: malta sz15 sz16
sz15: tripoli_csz sz16 sz17 sz18
tripoli_csz: tripoli
sz16: sicily italy sz17 sz19
sz17: sz18 sz19 sz20 sz21
sz18: misurata sirte el_agheila agedabia benghazi_csz sz20
benghazi_csz: benghazi sz20
sz19: italy greece sz21
sz20: sz21 sz22 sz23
sz21: greece sz23
sz22: derna sz23 sz24 sz25
sz23: greece crete sz25 sz26
sz24: tobruk sz25 sz28
sz25: crete sz26 sz27 sz28
sz26: greece crete sz27
sz27: crete sz28 sz29 sz30
sz28: mersa_matruh sz29
sz29: el_alamein sz30 sz31
sz30: sz31
sz31: cairo suez_canal_csz
suez_canal_csz: cairo indian_ocean_csz
indian_ocean_csz: atlantic_ocean_csz
"""

#: passages with a restriction (L507, L513, L525-527)
PASSAGES = [
    {
        "id": "messina",
        "name": "Strait of Messina",
        "between": ["sz11", "sz16"],
        "sea_units_of": "axis",
        "note": "only Axis sea units cross; air units of both sides may",
    },
]
#: zones entered from one neighbour only, and zones closed to all but some powers
ENTRY_ONLY_FROM = {"suez_canal_csz": ["indian_ocean_csz"]}
CLOSED_EXCEPT = {"atlantic_ocean_csz": ["uk"], "indian_ocean_csz": ["uk"]}
#: Axis may lay no sea mines here (L589)
NO_AXIS_SEA_MINES = ["sz31", "atlantic_ocean_csz", "indian_ocean_csz", "suez_canal_csz"]
#: Axis direct deployment of AAA, air units and German anti-tank guns (L936)
AXIS_ISLAND_DEPLOY = ["sicily", "sardinia", "crete"]
NAVAL_BASE = "sz31"  # UK battleship repair (L579)

# ------------------------------------------------------------------ units
# (type, model name, cost or None = cannot be requisitioned, ATK, DEF, MOV, pieces,
#  characteristics).  UK rows are the printed chart (L317-330) read as the digest
#  reconstructs it; the battleship row is missing and invented.  Pieces: L119-177.
TARGET_AIR = "Targeted Attack - Air Units"
UNIT_CHARTS: dict[str, list[tuple]] = {
    "ger": [
        ("infantry", "Infantry", 3, 2, 3, 1, 12, ["Supported by Artillery"]),
        (
            "mech_infantry",
            "Sd.Kfz 251 Halftrack",
            4,
            2,
            3,
            2,
            6,
            ["Blitz", "Coast Road Movement", "Supported by Artillery"],
        ),
        ("artillery", "10.5cm Howitzer", 4, 3, 3, 1, 6, ["Supports Infantry"]),
        ("anti_tank_gun", "Flak 41 8.8cm", 5, 2, 4, 1, 6, ["Air Defense", "Targeted Fire - Tanks"]),
        (
            "scout_car",
            "Sd.Kfz 231",
            4,
            2,
            1,
            4,
            4,
            [
                "Coast Road Movement",
                "Hit and Run",
                "Long-Range Patrol",
                "Sahara Desert Movement",
                "Self-Sufficient",
                "Supply Raider",
                TARGET_AIR,
            ],
        ),
        ("tank", "Panzer IV", 6, 5, 4, 2, 10, ["Blitz", "Coast Road Movement"]),
        (
            "truck",
            "Truck",
            2,
            None,
            None,
            2,
            2,
            ["Coast Road Movement", "Land Transport", "Logistical Unit"],
        ),
        ("fighter", "Bf-109", 10, 4, 5, 4, 5, []),
        (
            "bomber",
            "Ju-87 Stuka",
            10,
            5,
            1,
            5,
            4,
            [
                "Collateral Damage",
                "Targeted Attack - Combat Land Units",
                "Targeted Attack - Sea Units",
            ],
        ),
        (
            "submarine",
            "Type VII",
            6,
            4,
            2,
            4,
            3,
            [
                "Cannot Be Hit by Air Units",
                "Cannot Hit Air Units",
                "Does Not Block Enemy Movement",
                "Elite Crews",
                "Submersible",
                "Surprise Strike",
                "Treat Hostile Sea Zones as Friendly",
            ],
        ),
    ],
    "uk": [
        ("infantry", "Infantry", 3, 2, 3, 1, 12, ["Supported by Artillery"]),
        ("artillery", "25 Pounder", 4, 3, 3, 1, 6, ["Supports Infantry"]),
        ("anti_tank_gun", "6-Pounder", 4, 2, 3, 1, 8, ["Targeted Fire - Tanks"]),
        (
            "aaa",
            "QF 3.7 inch",
            3,
            None,
            None,
            1,
            6,
            ["Air Defense", "Cannot Attack", "No Defense Value", "Noncombat Move Only"],
        ),
        (
            "scout_car",
            "LRDG Jeep",
            4,
            2,
            1,
            4,
            6,
            [
                "Coast Road Movement",
                "Hit and Run",
                "Long-Range Patrol",
                "Sahara Desert Movement",
                "Self-Sufficient",
                "Supply Raider",
                TARGET_AIR,
            ],
        ),
        ("tank", "Matilda II", 5, 4, 5, 1, 8, ["Coast Road Movement"]),
        (
            "sherman",
            "Lend-Lease Sherman",
            None,
            5,
            4,
            2,
            2,
            ["Blitz", "Coast Road Movement", "Cannot Be Requisitioned"],
        ),
        (
            "truck",
            "Truck",
            2,
            None,
            None,
            2,
            6,
            ["Coast Road Movement", "Land Transport", "Logistical Unit"],
        ),
        ("fighter", "Spitfire", 10, 4, 5, 4, 6, []),
        ("bomber", "Halifax", 10, 6, 1, 6, 3, ["Collateral Damage"]),
        ("battleship", "Royal Oak", 16, 7, 7, 4, 2, ["Two Hits to Destroy"]),
        ("destroyer", "Saumarez", 8, 4, 4, 4, 4, ["Anti-Submarine Vessel"]),
        (
            "submarine",
            "Truculent",
            6,
            4,
            2,
            4,
            2,
            [
                "Cannot Be Hit by Air Units",
                "Cannot Hit Air Units",
                "Does Not Block Enemy Movement",
                "Submersible",
                "Surprise Strike",
                "Treat Hostile Sea Zones as Friendly",
            ],
        ),
    ],
    "ita": [
        ("infantry", "Infantry", 3, 2, 3, 1, 12, ["Supported by Artillery"]),
        ("artillery", "Cannone da 75/32", 4, 3, 3, 1, 6, ["Supports Infantry"]),
        (
            "aaa",
            "Cannone da 90/53",
            3,
            None,
            None,
            1,
            4,
            ["Air Defense", "Cannot Attack", "No Defense Value", "Noncombat Move Only"],
        ),
        (
            "scout_car",
            "Sd.Kfz 231",
            4,
            2,
            1,
            4,
            4,
            [
                "Coast Road Movement",
                "Hit and Run",
                "Long-Range Patrol",
                "Sahara Desert Movement",
                "Self-Sufficient",
                "Supply Raider",
                TARGET_AIR,
            ],
        ),
        ("tank", "M15/42", 5, 4, 4, 2, 7, ["Blitz", "Coast Road Movement"]),
        (
            "truck",
            "Truck",
            2,
            None,
            None,
            2,
            2,
            ["Coast Road Movement", "Land Transport", "Logistical Unit"],
        ),
        ("fighter", "C.202", 10, 4, 5, 4, 3, []),
        ("bomber", "SM.79", 10, 5, 1, 6, 2, ["Collateral Damage", "Targeted Attack - Sea Units"]),
        ("destroyer", "Soldati", 8, 4, 4, 4, 3, ["Anti-Submarine Vessel"]),
        (
            "submarine",
            "Marconi",
            6,
            4,
            2,
            4,
            3,
            [
                "Cannot Be Hit by Air Units",
                "Cannot Hit Air Units",
                "Does Not Block Enemy Movement",
                "Submersible",
                "Surprise Strike",
                "Treat Hostile Sea Zones as Friendly",
            ],
        ),
    ],
    "us": [
        ("infantry", "Infantry", 3, 2, 3, 1, 12, ["Supported by Artillery"]),
        ("artillery", "105mm Howitzer", 4, 3, 3, 1, 6, ["Supports Infantry"]),
        (
            "aaa",
            "M1 90mm",
            3,
            None,
            None,
            1,
            4,
            ["Air Defense", "Cannot Attack", "No Defense Value", "Noncombat Move Only"],
        ),
        ("tank", "Sherman", 6, 5, 4, 2, 8, ["Blitz", "Coast Road Movement"]),
        (
            "truck",
            "Truck",
            2,
            None,
            None,
            2,
            2,
            ["Coast Road Movement", "Land Transport", "Logistical Unit"],
        ),
        ("fighter", "P-38", 10, 4, 5, 4, 3, []),
        ("bomber", "B-17", 10, 6, 1, 6, 3, ["Collateral Damage"]),
        ("destroyer", "Johnston", 8, 4, 4, 4, 2, ["Anti-Submarine Vessel"]),
    ],
    # Vichy French units are never requisitioned (L1067); the US buys Free French at
    # these costs, one of each type per turn while the Allies hold Oran (L573, L1083).
    "fra": [
        ("infantry", "Infantry", 3, 2, 3, 1, 7, ["Self-Sufficient", "Supported by Artillery"]),
        ("tank", "SOMUA S35", 5, 4, 4, 1, 4, ["Coast Road Movement", "Self-Sufficient"]),
    ],
}
UNIT_KIND = {
    "fighter": "air",
    "bomber": "air",
    "battleship": "sea",
    "destroyer": "sea",
    "submarine": "sea",
}
#: the type family a row belongs to (the Sherman is a tank, L1191-1197)
UNIT_CLASS = {"sherman": "tank"}
#: optional Axis advantage (L1393-1401)
OPTIONAL_UNITS = [
    (
        "ger",
        "tiger",
        "Tiger",
        9,
        6,
        7,
        2,
        0,
        ["Blitz"],
        "optional rule Tiger Tanks: at most 1 a turn, from round 8",
    ),
]
ITEMS = [
    {
        "id": "supply",
        "name": "Supply token",
        "cost": 1,
        "note": "1-5 tokens take one convoy cargo slot; at most 5 a turn (US 10), L565",
    },
    {
        "id": "sea_mine",
        "name": "Sea mine",
        "cost": 2,
        "note": "placed when bought; 1 per sea zone per turn, L589",
    },
    {
        "id": "land_mine",
        "name": "Land mine",
        "cost": 1,
        "note": "placed or upgraded when bought; 1 per territory per turn, L587",
    },
]

# ------------------------------------------------------------------ powers and tables
#: id: (name, side, colour (L121-177), turn order (digest 1: inferred), national basic
#: RP (invented; printed top right of the board, L565), takes turns)
POWERS = {
    "ger": ("Germany", "axis", "black", 1, 18, True),
    "uk": ("United Kingdom", "allies", "tan", 2, 12, True),
    "ita": ("Italy", "axis", "brown", 3, 12, True),
    "us": ("United States", "allies", "green", 4, 24, True),
    "fra": ("France (Vichy and Free French)", "neutral", "blue", 0, 0, False),
}
#: who plays which powers (L277-301); Vichy goes with Germany, Free French with the US
PLAYERS = {
    "2": [["ger", "ita", "vichy"], ["uk", "us", "free_french"]],
    "3": [["ger", "vichy"], ["ita"], ["uk", "us", "free_french"]],
    "4": [["ger", "vichy"], ["ita"], ["uk"], ["us", "free_french"]],
}
COMPONENTS = {
    "national_control_markers": 48,
    "supply_1": 40,
    "supply_5": 15,
    "land_mines": 20,
    "sea_mines_allied": 6,
    "sea_mines_axis": 9,
    "chips_grey": 50,
    "chips_green": 15,
    "dice": 8,
    "die_sides": 10,
    "miniatures": 254,
}
LIMITS = {
    "supply_per_turn": 5,
    "supply_per_turn_us": 10,
    "default_stacking_limit": 8,
    "coast_road_steps": 5,
    "truck_capacity": 6,
    "supply_per_convoy_slot": 5,
    "transport_cargo_bays": 2,
    "air_defense_shots": 3,
    "air_defense_hits_on": 2,
    "flank_reroll_from": 8,
    "supply_per_attackers": 5,
    "escort_move": 2,
    "malta_supply_limit": 3,
    "last_round": 14,
}


def victory(
    axis_total: list[str],
    axis_major: list[str],
    axis_minor: list[str],
    allies_major: list[str],
    allies_minor: list[str],
    minor_any: bool,
) -> dict:
    """One scenario's column pair of the victory chart (L252-259)."""
    return {
        "instant": {"axis": {"capture": "cairo"}, "allies": {"capture": "tunis"}},
        "levels": [
            {"side": "axis", "level": "total", "control": axis_total, "any": False},
            {"side": "axis", "level": "major", "control": axis_major, "any": False},
            {"side": "axis", "level": "minor", "control": axis_minor, "any": minor_any},
            {"side": "allies", "level": "major", "control": allies_major, "any": False},
            {"side": "allies", "level": "minor", "control": allies_minor, "any": False},
        ],
    }


# ------------------------------------------------------------------ set-up
# (power, space, unit type, count).  Rows the text prints are cited; the rest follow
# the positions of 21 January 1942 (RLP) and 8 November 1942 (OT).
RLP_UNITS = [
    # Germany: the Afrika Korps at El Agheila, Fliegerkorps II in Sicily
    ("ger", "tripoli", "mech_infantry", 1),
    ("ger", "tripoli", "fighter", 1),
    ("ger", "tripoli", "bomber", 1),  # L355
    ("ger", "sicily", "bomber", 1),  # L356
    ("ger", "el_agheila", "infantry", 2),
    ("ger", "el_agheila", "mech_infantry", 1),
    ("ger", "el_agheila", "tank", 3),
    ("ger", "el_agheila", "anti_tank_gun", 1),
    ("ger", "el_agheila", "truck", 1),
    ("ger", "zella", "scout_car", 1),
    ("ger", "sicily", "fighter", 1),
    ("ger", "sz1", "submarine", 1),
    # Italy: Ariete and Trieste forward, X and XXI Corps behind, the fleet at Taranto
    ("ita", "tripoli", "infantry", 2),
    ("ita", "tripoli", "truck", 1),  # L386
    ("ita", "el_agheila", "tank", 1),
    ("ita", "sirte", "infantry", 2),
    ("ita", "sirte", "artillery", 1),
    ("ita", "sirte", "tank", 1),
    ("ita", "misurata", "infantry", 1),
    ("ita", "sicily", "fighter", 1),
    ("ita", "sardinia", "bomber", 1),
    ("ita", "sz16", "destroyer", 1),
    ("ita", "sz10", "destroyer", 1),
    ("ita", "sz8", "submarine", 1),
    # United Kingdom: Eighth Army strung from Agedabia back to the Delta
    ("uk", "cairo", "infantry", 1),
    ("uk", "cairo", "anti_tank_gun", 1),
    ("uk", "cairo", "aaa", 1),
    ("uk", "cairo", "fighter", 1),  # L383
    ("uk", "el_alamein", "infantry", 1),
    ("uk", "agedabia", "infantry", 2),
    ("uk", "agedabia", "tank", 2),
    ("uk", "agedabia", "artillery", 1),
    ("uk", "benghazi", "infantry", 2),
    ("uk", "benghazi", "anti_tank_gun", 1),
    ("uk", "tobruk", "infantry", 2),
    ("uk", "tobruk", "artillery", 1),
    ("uk", "tobruk", "aaa", 1),
    ("uk", "tobruk", "fighter", 1),
    ("uk", "bir_hacheim", "infantry", 1),
    ("uk", "mersa_matruh", "truck", 1),
    ("uk", "mersa_matruh", "tank", 1),
    ("uk", "siwa", "scout_car", 1),
    ("uk", "kufra", "scout_car", 1),  # the LRDG base of 1942
    ("uk", "malta", "fighter", 1),
    ("uk", "malta", "aaa", 1),
    ("uk", "gibraltar", "infantry", 1),
    ("uk", "sz31", "battleship", 1),
    ("uk", "sz31", "destroyer", 1),
    ("uk", "sz3", "destroyer", 1),
    ("uk", "sz13", "submarine", 1),
    # Vichy France: the garrisons of the three ports (owned by the Germany player, L1063)
    ("fra", "casablanca", "infantry", 3),
    ("fra", "casablanca", "tank", 2),
    ("fra", "oran", "infantry", 2),
    ("fra", "oran", "tank", 1),
    ("fra", "algiers", "infantry", 2),
    ("fra", "algiers", "tank", 1),
]
RLP_SUPPLY = [
    ("tripoli", 3),
    ("el_agheila", 3),
    ("cairo", 5),
    ("tobruk", 2),
    ("agedabia", 2),
    ("benghazi", 1),
    ("malta", 2),
]  # Tripoli L386, Cairo L383
RLP_CONTROL = {"tripoli": "ita", "cairo": "uk", "tobruk": "uk", "benghazi": "uk"}
RLP_CONVOY_MARKERS = {"tripoli_csz": ["ger", "ita"]}
#: (territory, the neighbour the border faces, mine tokens by value): "3 Land Mines on
#: Mersa Matruh Border" (L383) as a 2 and a 1 on El Alamein's border
RLP_MINES = [("el_alamein", "mersa_matruh", [2, 1])]

OT_UNITS = [
    # Germany: Panzerarmee Afrika retreating through Mersa Matruh; XC Corps in Tunisia
    ("ger", "mersa_matruh", "infantry", 2),
    ("ger", "mersa_matruh", "tank", 2),
    ("ger", "mersa_matruh", "anti_tank_gun", 1),
    ("ger", "mersa_matruh", "truck", 1),
    ("ger", "tobruk", "infantry", 1),
    ("ger", "tobruk", "artillery", 1),
    ("ger", "tobruk", "fighter", 1),
    ("ger", "benghazi", "mech_infantry", 1),
    ("ger", "tunis", "infantry", 2),
    ("ger", "tunis", "anti_tank_gun", 1),
    ("ger", "tunis", "fighter", 1),
    ("ger", "sicily", "bomber", 1),
    ("ger", "crete", "bomber", 1),
    ("ger", "sz1", "submarine", 1),
    # Italy
    ("ita", "tripoli", "infantry", 2),
    ("ita", "tripoli", "artillery", 1),
    ("ita", "tripoli", "truck", 1),
    ("ita", "el_agheila", "infantry", 2),
    ("ita", "el_agheila", "tank", 1),
    ("ita", "benghazi", "infantry", 1),
    ("ita", "mareth", "infantry", 1),
    ("ita", "sicily", "fighter", 1),
    ("ita", "sz16", "destroyer", 2),
    ("ita", "sz11", "submarine", 1),
    # United Kingdom: Eighth Army after El Alamein; First Army's van in Algiers
    ("uk", "el_alamein", "infantry", 3),
    ("uk", "el_alamein", "artillery", 2),
    ("uk", "el_alamein", "tank", 3),
    ("uk", "el_alamein", "truck", 1),
    ("uk", "cairo", "infantry", 2),
    ("uk", "cairo", "anti_tank_gun", 1),
    ("uk", "cairo", "aaa", 1),
    ("uk", "cairo", "fighter", 1),
    ("uk", "cairo", "bomber", 1),
    ("uk", "siwa", "scout_car", 1),
    ("uk", "malta", "fighter", 1),
    ("uk", "malta", "aaa", 1),
    ("uk", "gibraltar", "fighter", 1),
    ("uk", "sz31", "battleship", 1),
    ("uk", "sz31", "destroyer", 1),
    ("uk", "sz3", "destroyer", 1),
    ("uk", "malta_csz", "submarine", 1),
    ("uk", "suez_canal_csz", "sherman", 2),  # L1048
    ("uk", "algiers", "infantry", 3),  # L1028, L1052
    # United States: the Western and Centre Task Forces ashore (L405-408)
    ("us", "casablanca", "infantry", 5),
    ("us", "oran", "infantry", 5),
    ("us", "algiers", "infantry", 3),
    ("us", "sz2", "destroyer", 1),
    # Vichy France
    ("fra", "casablanca", "infantry", 3),
    ("fra", "casablanca", "tank", 2),
    ("fra", "oran", "infantry", 2),
    ("fra", "oran", "tank", 1),
    ("fra", "algiers", "infantry", 2),
    ("fra", "algiers", "tank", 1),
]
OT_SUPPLY = [
    ("mersa_matruh", 2),
    ("tobruk", 1),
    ("tunis", 2),
    ("tripoli", 2),
    ("el_agheila", 1),
    ("el_alamein", 3),
    ("cairo", 3),
    ("malta", 2),
    ("casablanca", 4),
    ("oran", 4),
    ("algiers", 5),
]  # the Torch rows, L405-408
OT_CONTROL = {
    "tripoli": "ita",
    "benghazi": "ita",
    "tobruk": "ger",
    "tunis": "ger",
    "kasserine_pass": "ger",
    "mareth": "ita",
    "cairo": "uk",
}
OT_CONVOY_MARKERS = {
    "tripoli_csz": ["ger", "ita"],
    "benghazi_csz": ["ger", "ita"],
    "tunis_csz": ["ger", "ita"],
}
OT_MINES = [("el_alamein", "mersa_matruh", [1])]

TORCH_ATTACKS = [
    {"target": "casablanca", "powers": ["us"]},
    {"target": "oran", "powers": ["us"]},
    {"target": "algiers", "powers": ["us", "uk"], "controller_if_won": "us"},
]

RLP_EVENTS = [
    {
        "round": 4,
        "power": "uk",
        "phase": 6,
        "kind": "place_units",
        "units": [["uk", "atlantic_ocean_csz", "sherman", 2]],
        "source": "L1014",
    },
    {
        "round": 7,
        "power": None,
        "phase": 0,
        "kind": "add_to_pool",
        "units": [["ger", None, "truck", 1], ["ita", None, "truck", 1]],
        "source": "L1020",
    },
    {
        "round": 7,
        "power": None,
        "phase": 0,
        "kind": "control",
        "control": {"tunis": "ger", "kasserine_pass": "ger", "mareth": "ita"},
        "source": "L1021-1022",
    },
    {
        "round": 7,
        "power": None,
        "phase": 0,
        "kind": "open_convoy",
        "convoy_markers": {"tunis_csz": ["ger", "ita"]},
        "source": "L1023",
    },
    {
        "round": 7,
        "power": None,
        "phase": 0,
        "kind": "place_supply",
        "supply": [["tunis", 3], ["casablanca", 4], ["oran", 4], ["algiers", 5]],
        "source": "L1024-1028",
    },
    {
        "round": 7,
        "power": None,
        "phase": 0,
        "kind": "place_units",
        "units": [
            ["us", "casablanca", "infantry", 5],
            ["us", "oran", "infantry", 5],
            ["uk", "algiers", "infantry", 3],
            ["us", "algiers", "infantry", 3],
        ],
        "source": "L1026-1028",
    },
    {
        "round": 7,
        "power": None,
        "phase": 0,
        "kind": "declared_attacks",
        "attacks": TORCH_ATTACKS,
        "source": "L1026-1034",
    },
]

SCENARIOS = [
    {
        "id": "rlp",
        "name": "Rommel's Last Push",
        "date": "1942-01-21",
        "first_round": 1,
        "source": "L244, L1002-1042",
        "skipped_turns": [{"round": r, "power": "us"} for r in range(1, 7)],
        "mat_entry": [
            {"from_round": 1, "to_round": 6, "sides": []},
            {"from_round": 7, "to_round": 7, "sides": ["allies"]},
            {"from_round": 8, "to_round": 14, "sides": ["axis", "allies"]},
        ],
        "set_aside": [["ger", "truck", 1], ["ita", "truck", 1]],
        "uk_variable_reinforcements": {
            "atlantic_ocean_csz": 12,
            "indian_ocean_csz": 12,
            "suez_canal_csz": 12,
        },
        "units": RLP_UNITS,
        "supply": RLP_SUPPLY,
        "control": RLP_CONTROL,
        "convoy_markers": RLP_CONVOY_MARKERS,
        "land_mines": RLP_MINES,
        "declared_attacks": [],
        "round_rules": [
            {
                "round": 7,
                "rule": "torch_round",
                "text": "Torch attacks pressed in the US turn; UK units in Algiers sit out the "
                "UK turn; the US buys no air units and deploys to the Casablanca convoy "
                "if it holds Casablanca (L1032-1038)",
            },
        ],
        "events": RLP_EVENTS,
        "strategic_reserve": {"axis": 4, "allies": 9},
        "victory": victory(
            [],
            ["tobruk", "mareth"],
            ["tripoli", "algiers"],
            ["tobruk", "tripoli"],
            ["mareth"],
            True,
        ),
    },
    {
        "id": "ot",
        "name": "Operation Torch",
        "date": "1942-11-08",
        "first_round": 7,
        "source": "L246, L1044-1059",
        "skipped_turns": [{"round": 7, "power": "ger"}],
        "mat_entry": [{"from_round": 7, "to_round": 14, "sides": ["axis", "allies"]}],
        "set_aside": [],
        "uk_variable_reinforcements": {
            "atlantic_ocean_csz": 6,
            "indian_ocean_csz": 6,
            "suez_canal_csz": 6,
        },
        "units": OT_UNITS,
        "supply": OT_SUPPLY,
        "control": OT_CONTROL,
        "convoy_markers": OT_CONVOY_MARKERS,
        "land_mines": OT_MINES,
        "declared_attacks": TORCH_ATTACKS,
        "round_rules": [
            {
                "round": 7,
                "rule": "torch_round",
                "text": "as in Rommel's Last Push round 7, and Italy may deploy only to the "
                "Tripoli convoy (L1050-1059)",
            },
        ],
        "events": [],
        "strategic_reserve": {"axis": 6, "allies": 4},
        "victory": victory(
            ["benghazi"],
            ["tripoli", "mareth"],
            ["tripoli", "algiers"],
            ["benghazi", "tripoli"],
            ["benghazi", "mareth"],
            True,
        ),
    },
]


# ------------------------------------------------------------------ building


def header(name: str, description: str, sources: list[str]) -> dict:
    return {
        "game": GAME,
        "name": name,
        "version": VERSION,
        "provenance": "reconstruction",
        "description": description,
        "sources": sources,
    }


def _pairs(text: str) -> list[tuple[str, str]]:
    out = []
    for chunk in text.replace("\n", "|").split("|"):
        words = chunk.split()
        if words:
            a, b = words
            out.append((a, b))
    return out


def _sea_pairs(text: str) -> list[tuple[str, str]]:
    out = []
    for line in text.strip().splitlines():
        head, _, rest = line.partition(":")
        out.extend((head.strip(), other) for other in rest.split())
    return out


def build_board() -> dict:
    spaces = []
    for tid, (name, lat, lon, region, rp, sl, flags) in TERRITORIES.items():
        row: dict = {
            "id": tid,
            "name": name,
            "kind": "territory",
            "lat": lat,
            "lon": lon,
            "region": region,
        }
        if ALIASES.get(tid):
            row["aliases"] = ALIASES[tid]
        if rp:
            row["rp"] = rp
        if sl:
            row["stacking_limit"] = sl
        for letter, key in (
            ("c", "coast_road"),
            ("s", "sahara"),
            ("x", "impassable"),
            ("m", "mat"),
            ("i", "island"),
            ("p", "port"),
        ):
            if letter in flags:
                row[key] = True
        if tid in PERMANENT:
            row["permanent"] = PERMANENT[tid]
        if tid in STAGING:
            row["staging_for"] = STAGING[tid]
        if tid in DEFENSIVE_BONUS:
            row["defensive_bonus"] = DEFENSIVE_BONUS[tid]
        spaces.append(row)
    for n, (name, lat, lon) in SEA_ZONES.items():
        spaces.append(
            {
                "id": f"sz{n}",
                "name": name,
                "kind": "sea",
                "number": n,
                "lat": lat,
                "lon": lon,
                "aliases": [f"Sea Zone {n}", f"SZ {n}"],
            }
        )
    for cid, (name, lat, lon, *_rest) in CONVOYS.items():
        short = name.replace(" Convoy", "")
        spaces.append(
            {
                "id": cid,
                "name": name,
                "kind": "sea",
                "lat": lat,
                "lon": lon,
                "aliases": [f"{short} CSZ", f"{short} convoy sea zone"],
            }
        )
    edges: list[tuple[str, str]] = []
    edges += list(zip(COAST_ROAD, COAST_ROAD[1:], strict=False))
    edges += _pairs(LAND_BORDERS)
    edges += _sea_pairs(SEA_BORDERS)
    convoys = [
        {"id": cid, "port": port, "emblems": emblems, "permanent": permanent, "next": nxt}
        for cid, (_n, _la, _lo, port, emblems, permanent, nxt) in CONVOYS.items()
    ]
    return {
        "header": header(
            "board",
            "Territories, sea zones and convoy sea zones at their real positions, borders, "
            "the coast road, convoy routes and the restrictions the rulebook places on "
            "spaces. Reconstructed: the rulebook prints no board.",
            [
                RULEBOOK + ": Spaces on the Game Board (L467-547), Phase 2 (L563-608), "
                "Phase 6 (L909-946)",
                GEOGRAPHY,
                "tools/aa_na_pack.py",
            ],
        ),
        "spaces": spaces,
        "borders": [list(e) for e in edges],
        "coast_road": COAST_ROAD,
        "convoys": convoys,
        "passages": PASSAGES,
        "entry_only_from": ENTRY_ONLY_FROM,
        "closed_except": CLOSED_EXCEPT,
        "sea_deploy_zones": SEA_DEPLOY,
        "no_axis_sea_mines": NO_AXIS_SEA_MINES,
        "axis_island_deploy": AXIS_ISLAND_DEPLOY,
        "naval_base": NAVAL_BASE,
    }


def build_units() -> dict:
    units = []
    for power, rows in UNIT_CHARTS.items():
        for utype, model, cost, atk, dfn, mov, pieces, chars in rows:
            units.append(
                {
                    "id": f"{power}.{utype}",
                    "power": power,
                    "type": UNIT_CLASS.get(utype, utype),
                    "name": model,
                    "kind": UNIT_KIND.get(utype, "land"),
                    "cost": cost,
                    "attack": atk,
                    "defense": dfn,
                    "movement": mov,
                    "hits": 2 if utype == "battleship" else 1,
                    "combat": utype != "truck",
                    "pieces": pieces,
                    "characteristics": chars,
                }
            )
    for power, utype, model, cost, atk, dfn, mov, pieces, chars, note in OPTIONAL_UNITS:
        units.append(
            {
                "id": f"{power}.{utype}",
                "power": power,
                "type": "tank",
                "name": model,
                "kind": "land",
                "cost": cost,
                "attack": atk,
                "defense": dfn,
                "movement": mov,
                "hits": 1,
                "combat": True,
                "pieces": pieces,
                "characteristics": chars,
                "optional": note,
            }
        )
    return {
        "header": header(
            "units",
            "The reference chart of every power: cost in RP, attack, defense, movement, "
            "pieces in the box and unit characteristics; the items every power may buy. "
            "The UK rows follow the printed chart; the rest are reconstructed.",
            [
                RULEBOOK + ": Allies Reference Chart (L317-330), Unit List (L119-177), "
                "Unit Profiles (L1087-1297), Tiger Tanks (L1393-1401)",
                "Piece directory (L1344-1361)",
            ],
        ),
        "units": units,
        "items": ITEMS,
    }


def _placements(rows: list[tuple]) -> list[dict]:
    return [{"power": p, "space": s, "unit": f"{p}.{u}", "count": n} for p, s, u, n in rows]


def build_setup() -> dict:
    scenarios = []
    for sc in SCENARIOS:
        out = {
            k: v
            for k, v in sc.items()
            if k
            not in (
                "units",
                "supply",
                "control",
                "convoy_markers",
                "land_mines",
                "set_aside",
                "events",
            )
        }
        out["set_aside"] = [{"unit": f"{p}.{u}", "count": n} for p, u, n in sc["set_aside"]]
        out["control"] = sc["control"]
        out["convoy_markers"] = sc["convoy_markers"]
        out["placements"] = _placements(sc["units"])
        out["supply"] = [{"space": s, "value": n} for s, n in sc["supply"]]
        out["land_mines"] = [
            {"territory": t, "facing": f, "tokens": tok} for t, f, tok in sc["land_mines"]
        ]
        events = []
        for ev in sc["events"]:
            ev = dict(ev)
            if "units" in ev:
                ev["units"] = [
                    {"power": p, "space": s, "unit": f"{p}.{u}", "count": n}
                    for p, s, u, n in ev["units"]
                ]
            if "supply" in ev:
                ev["supply"] = [{"space": s, "value": n} for s, n in ev["supply"]]
            events.append(ev)
        out["events"] = events
        scenarios.append(out)
    return {
        "header": header(
            "setup",
            "The two scenarios: starting units, supply, control markers, mines, UK "
            "variable reinforcements, the round-track events, entry into Morocco, "
            "Algeria and Tunisia, and the victory chart. Printed rows are cited; the "
            "rest follow the positions of 21 January and 8 November 1942.",
            [
                RULEBOOK + ": Setup Charts (L352-413), How the Campaign Is Won (L240-259), "
                "Special Rules for the Scenarios (L1000-1059), Strategic Reserve (L1425-1435)",
                HISTORY,
            ],
        ),
        "scenarios": scenarios,
    }


def build_tables() -> dict:
    return {
        "header": header(
            "tables",
            "Powers (side, colour, turn order, National Basic RP), how 2-4 players share "
            "them, component counts and the limits the rules state.",
            [RULEBOOK + ": The Combatants (L270-301), Components (L90-177), Phase 2 (L565)"],
        ),
        "powers": [
            {
                "id": pid,
                "name": v[0],
                "side": v[1],
                "colour": v[2],
                "turn_order": v[3],
                "national_basic_rp": v[4],
                "takes_turns": v[5],
            }
            for pid, v in POWERS.items()
        ],
        "players": PLAYERS,
        "components": COMPONENTS,
        "limits": LIMITS,
        "round_track": list(range(1, 15)),
    }


def build() -> dict[str, dict]:
    return {
        "board": build_board(),
        "units": build_units(),
        "setup": build_setup(),
        "tables": build_tables(),
    }


ONE_PER_LINE = {
    "spaces",
    "borders",
    "units",
    "placements",
    "supply",
    "convoys",
    "powers",
    "items",
    "events",
    "levels",
    "skipped_turns",
    "mat_entry",
    "land_mines",
}


def _dump(value, key: str | None, indent: int) -> str:
    pad = " " * indent
    if key in ONE_PER_LINE and isinstance(value, list) and value:
        rows = ",\n".join(pad + " " + json.dumps(v, ensure_ascii=False) for v in value)
        return "[\n" + rows + "\n" + pad + "]"
    if isinstance(value, dict) and value:
        items = ",\n".join(
            f"{pad} {json.dumps(k)}: {_dump(v, k, indent + 1)}" for k, v in value.items()
        )
        return "{\n" + items + "\n" + pad + "}"
    if isinstance(value, list) and value and any(isinstance(v, dict) for v in value):
        rows = ",\n".join(pad + " " + _dump(v, None, indent + 1) for v in value)
        return "[\n" + rows + "\n" + pad + "]"
    return json.dumps(value, ensure_ascii=False)


def render(doc: dict) -> str:
    """JSON with one space, border, unit or placement per line: readable and diffable."""
    return _dump(doc, None, 0) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    parser.add_argument("--check", action="store_true", help="compare, do not write")
    args = parser.parse_args(argv)
    stale = []
    for name, doc in build().items():
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
