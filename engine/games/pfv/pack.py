"""The Patton's First Victory data pack: map, counters and scenario, as validated data.

The rulebook prints none of these (its map, counter sheet and turn track are missing
from the text), so the shipped pack is a reconstruction (``provenance: reconstruction``)
built by ``tools/pfv_mapgen.py`` from real geography and the historical order of battle.
A transcription of the physical game replaces these files without touching code.

Map features a ruleset reads (PFV 3, 5, 7, 16, 17):

``village``, ``port``: named places; ports are the five victory hexes (PFV 4).
``airfield_allied``, ``airfield_axis``: aircraft silhouettes (PFV 5, phase 6).
``crest_8th_army``, ``crest_ii_corps``: set-up hexes of those formations (PFV 5).
Regions ``algeria`` and ``tunisia`` lie either side of the orange dashed border.
"""

from __future__ import annotations

from functools import cache
from typing import Literal

from pydantic import BaseModel, ConfigDict

from engine.core import datapack
from engine.core.datapack import PackFile
from engine.core.hexmap import HexMap, MapPack

Side = Literal["axis", "allied"]


class Face(BaseModel):
    """One printed side of a counter.

    Units print a combat factor and a movement factor; support assets a modifier (stored as
    a positive number: a printed "-3" is ``modifier: 3``) and a movement factor, or for air
    a range factor instead.
    """

    model_config = ConfigDict(extra="forbid")

    combat: int | None = None
    modifier: int | None = None
    move: int | None = None
    range: int | None = None


class Counter(BaseModel):
    model_config = ConfigDict(extra="forbid")

    id: str
    name: str
    side: Side
    kind: Literal["unit", "battlegroup", "support", "air"]
    symbol: str
    nationality: str
    #: ``8th_army``, ``ii_corps``, ``two_star``, ``general``
    tags: list[str] = []
    front: Face
    #: the reduced face; ``None`` for a one-step piece (PFV 13)
    back: Face | None = None
    #: II Corps pieces: the id of the two-star piece that replaces them (PFV 16)
    upgrade_to: str | None = None
    #: a hex the piece must be set up in (PFV 5)
    fixed_hex: str | None = None
    #: for the 6th Armoured: the hex it must set up within ``within`` hexes of (PFV 5)
    near_hex: str | None = None
    within: int | None = None
    historical: str = ""


class CountersPack(PackFile):
    counters: list[Counter]


class TurnBox(BaseModel):
    model_config = ConfigDict(extra="forbid")

    turn: int
    label: str


class ScenarioPack(PackFile):
    """The turn track and the named pieces and hexes of the special rules."""

    turns: list[TurnBox]
    #: replacements per player turn (PFV 7, phase 7)
    replacements: dict[Side, int]
    #: Patton arrives by die roll or at the latest at the end of this game turn (PFV 16)
    patton: str
    patton_forced_turn: int
    #: Rommel may be recalled at the end of each of the last N game turns (PFV 17)
    rommel: str
    rommel_last_turns: int
    mareth_hex: str
    #: an Axis unit ever entering these makes the -1 recall modifier unavailable (PFV 17)
    eighth_army_hexes: list[str]
    #: piece -> hex used by ``auto`` set-up when still legal (a historical default, not a rule)
    default_setup: dict[str, str] = {}


@cache
def load_map() -> HexMap:
    return HexMap(datapack.load("pfv", "map", MapPack))


@cache
def load_counters() -> CountersPack:
    return datapack.load("pfv", "counters", CountersPack)


@cache
def load_scenario() -> ScenarioPack:
    return datapack.load("pfv", "scenario", ScenarioPack)
