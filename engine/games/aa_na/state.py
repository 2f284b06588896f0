"""The dynamic state of an Axis & Allies: North Africa game (digest 11.1).

The board, the charts and the scenarios are static data (``pack``); this holds only what
changes: where each unit is, who controls which territory, the supply tokens on the board
and in convoys, the Reinforcements Zone, the mines, and where the turn stands.
"""

from __future__ import annotations

import copy
from dataclasses import asdict, dataclass, field
from typing import Any

#: powers that take turns, in the ruled turn order (RULINGS: turn order; digest 1)
TURN_ORDER = ("ger", "uk", "ita", "us")
#: every power whose units stand on the board: France splits into Vichy (Axis, owned by
#: the Germany player) and Free France (Allies, run by the US player) (The Combatants, L273;
#: Special Rules for the Scenarios, L1063-1083)
SIDE = {"ger": "axis", "ita": "axis", "vichy": "axis", "uk": "allies", "us": "allies", "free_french": "allies"}
POWER_NAME = {
    "ger": "Germany",
    "ita": "Italy",
    "vichy": "Vichy France",
    "uk": "the United Kingdom",
    "us": "the United States",
    "free_french": "Free France",
}
SIDE_NAME = {"axis": "the Axis", "allies": "the Allies"}
#: the phases of a power's turn (Order of Play, L55-62)
PHASES = ("convoys", "requisition", "combat_move", "combat", "noncombat", "deploy")
PHASE_NAME = {
    "convoys": "Phase 1: Advance Convoys",
    "requisition": "Phase 2: Requisition Reinforcements",
    "combat_move": "Phase 3: Combat Move and Attack Declaration",
    "combat": "Phase 4: Conduct Combat",
    "noncombat": "Phase 5: Noncombat Move",
    "deploy": "Phase 6: Deploy Reinforcements and Assign Convoy Escorts",
}


@dataclass
class Unit:
    id: str
    #: the row of the reference chart (``ger.tank``, ``fra.infantry``)
    type: str
    power: str
    at: str
    #: movement points spent in the combat move this turn (Land Unit Movement, L636-638)
    moved: int = 0
    #: the path of this turn's combat move, start included
    path: list[str] = field(default_factory=list)
    #: hits taken (battleships take two, L579)
    hits: int = 0
    #: moved this turn by a blitz (Tanks, Mechanized Infantry, and Blitzing, L644-648)
    blitz: bool = False
    #: a truck captured this turn, which may not make a noncombat move (L748)
    captured: bool = False
    #: an air unit that combat moved and has not landed yet: "in the air", it counts
    #: against no stacking limit and makes no space hostile (L853, L863)
    airborne: bool = False
    #: moved in Phase 5, or carried by a truck this turn (L885, L1211)
    ncm: bool = False

    def copy(self) -> Unit:
        c = Unit.__new__(Unit)
        c.__dict__ = dict(self.__dict__)
        c.path = list(self.path)
        return c


@dataclass
class State:
    scenario: str
    players: int
    options: dict[str, Any]
    round: int
    power: str
    phase: str
    units: list[Unit]
    #: RP territory -> controlling power (only RP territories carry markers, L485)
    control: dict[str, str]
    #: convoy sea zone -> powers whose control markers are in it (Convoy Sea Zones, L515)
    convoy_markers: dict[str, list[str]]
    #: territory -> total value of the supply tokens in it (1s and 5s trade freely there, L696)
    supply: dict[str, int]
    #: convoy sea zone -> power -> supply stacked on that power's marker (L698-700)
    convoy_supply: dict[str, dict[str, int]]
    #: power -> the Reinforcements Zone: unit type -> count, and ``supply`` -> tokens' value
    reserves: dict[str, dict[str, int]]
    #: land mines: {"territory", "facing", "tokens": [1|2, ...]} (L587)
    land_mines: list[dict[str, Any]]
    #: sea zone -> power -> sea mine tokens (power-specific, L589)
    sea_mines: dict[str, dict[str, int]]
    #: RP left to spend this phase 2 (unspent RP are lost, L565)
    rp: int = 0
    #: what was placed this turn, for the once-a-turn limits of phase 2 (L565-589)
    bought: dict[str, Any] = field(default_factory=dict)
    #: declared attacks: {"id","source","target","units","paid","combat"} (L700-722)
    attacks: list[dict[str, Any]] = field(default_factory=list)
    #: chart row -> pieces set aside until an event adds them to the pool (L1008, L1020)
    set_aside: dict[str, int] = field(default_factory=dict)
    #: attacks the scenario declares for Phase 4 of round 7 (L1034, L1052)
    scenario_attacks: list[dict[str, Any]] = field(default_factory=list)
    #: territories blitzed into or through this turn: no combat move into or through
    #: them (L634), no retreat into them (L769)
    blitzed: list[str] = field(default_factory=list)
    #: territories attacked by land units this turn: no retreat into them (L769, L821)
    attacked: list[str] = field(default_factory=list)
    #: units that took part in an attack this turn: no noncombat move but the scout
    #: cars' Long-Range Patrol (L885, L1169)
    engaged: list[str] = field(default_factory=list)
    #: territory -> controlling power at the start of the turn: where air units may land
    #: (L897); permanent emblems are read from the board
    start_control: dict[str, str] = field(default_factory=dict)
    #: borders under attack where enemy land mines may go off, in turn (``mines``)
    mine_queue: list[dict[str, Any]] = field(default_factory=list)
    #: sea zones where enemy sea mines may go off on this turn's deployments (``sea_mines``)
    sea_mine_queue: list[dict[str, Any]] = field(default_factory=list)
    #: the land combat being fought (``land_combat``), or None
    battle: dict[str, Any] | None = None
    #: power -> topic -> value: how the engine answers that power's decisions in another
    #: power's turn without asking (``standing``; RULINGS: standing orders). Each role
    #: sees only its own powers' (``rules.view``).
    standing: dict[str, dict[str, Any]] = field(default_factory=dict)
    next_id: int = 1
    over: bool = False
    winner: str | None = None
    result_text: str = ""

    def clone(self) -> State:
        """A deep copy, written out: the rules clone the state for every order tried."""
        c = copy.copy(self)
        c.options = copy.deepcopy(self.options)
        c.units = [u.copy() for u in self.units]
        c.control = dict(self.control)
        c.convoy_markers = {k: list(v) for k, v in self.convoy_markers.items()}
        c.supply = dict(self.supply)
        c.convoy_supply = {k: dict(v) for k, v in self.convoy_supply.items()}
        c.reserves = {k: dict(v) for k, v in self.reserves.items()}
        c.land_mines = copy.deepcopy(self.land_mines)
        c.sea_mines = {k: dict(v) for k, v in self.sea_mines.items()}
        c.bought = copy.deepcopy(self.bought)
        c.attacks = copy.deepcopy(self.attacks)
        c.set_aside = dict(self.set_aside)
        c.scenario_attacks = copy.deepcopy(self.scenario_attacks)
        c.blitzed = list(self.blitzed)
        c.attacked = list(self.attacked)
        c.engaged = list(self.engaged)
        c.start_control = dict(self.start_control)
        c.battle = copy.deepcopy(self.battle)
        c.mine_queue = copy.deepcopy(self.mine_queue)
        c.sea_mine_queue = copy.deepcopy(self.sea_mine_queue)
        c.standing = copy.deepcopy(self.standing)
        return c

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> State:
        d = dict(data)
        d["units"] = [Unit(**u) for u in d["units"]]
        return cls(**d)

    def new_unit(self, type_id: str, power: str, at: str) -> Unit:
        u = Unit(id=f"u{self.next_id}", type=type_id, power=power, at=at)
        self.next_id += 1
        self.units.append(u)
        return u
