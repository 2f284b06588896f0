"""The state of a game of The African Campaign.

Plain dataclasses copied by hand on every order (as in Patton's First Victory);
``to_dict``/``from_dict`` give the JSON stored in snapshots.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any

AXIS = "axis"
ALLIED = "allied"
SIDES = (ALLIED, AXIS)

#: where a unit is: on the map; not yet arrived (or broken down into its components, 11.1);
#: waiting at Tripoli, the off-map Axis Home Base (TAC 12.3); withdrawn and due back;
#: eliminated; removed for good (7.2); off the eastern edge (8.6.1); an Allied arrival held
#: off Alexandria while Axis units are off the map (7.5)
LOCATIONS = ("map", "pool", "tripoli", "withdrawn", "dead", "removed", "exited", "held")

#: the phases of a player turn (TAC 6.1 B and C); "overstack" is the elimination 5.1.2
#: asks for when stacking is broken at the end of the Movement Phase
PHASES = ("reinforce", "mines", "move", "overstack", "combat", "supply", "over")


def enemy(side: str) -> str:
    return ALLIED if side == AXIS else AXIS


@dataclass(slots=True)
class Unit:
    id: str
    side: str
    where: str = "pool"
    hex: str | None = None
    #: index into the unit's step ladder; 0 is full strength
    step: int = 0
    #: turn the unit last arrived on (new arrivals may not move strategically, TAC 8.5.4)
    arrived: int = 0

    def copy(self) -> Unit:
        return Unit(self.id, self.side, self.where, self.hex, self.step, self.arrived)


@dataclass(slots=True)
class State:
    scenario: str
    options: dict[str, Any]
    pack_version: str
    turn: int = 1
    player: str = ALLIED
    phase: str = "move"
    units: dict[str, Unit] = field(default_factory=dict)
    #: hexes with a city, port or fort -> the side that last occupied them (TAC 12.0)
    control: dict[str, str] = field(default_factory=dict)
    #: the Axis Fuel Track (TAC 14.0, 8.2.6)
    fuel: int = 2
    #: units that have finished moving this Movement Phase (TAC 8.0 procedure, 8.2.3)
    moved: set[str] = field(default_factory=set)
    #: units that moved strategically this turn: no combat or overrun for them (TAC 8.5.3)
    strategic: set[str] = field(default_factory=set)
    #: replacements received and not yet used, per kind (TAC 10.0, 14.0): "allied_infantry",
    #: "allied_armour", "axis_italian", "axis_german"
    replacements: dict[str, int] = field(default_factory=dict)
    winner: str | None = None
    result_text: str = ""
    #: the attacks declared this Combat Phase (TAC 9.0 procedure): each
    #: ``{"attackers": [unit ids], "targets": [hexes]}``
    battles: list[dict[str, list[str]]] = field(default_factory=list)
    #: the battle being resolved (TAC 9.6-9.10): see :mod:`engine.games.tac.battle`
    fight: dict[str, Any] | None = None
    #: Axis units off the eastern edge -> the Turn Record Track space they wait in, 0 once
    #: in the Exited Axis Units box (TAC 8.6.1, 13.4)
    exit_space: dict[str, int] = field(default_factory=dict)
    #: units counted toward the Axis victory -> the combat factors they counted (3.0, 8.6.2)
    exit_counted: dict[str, int] = field(default_factory=dict)
    #: the minefields (TAC 16.0, 18.6): see :mod:`engine.games.tac.mines`
    mines: dict[str, Any] = field(default_factory=dict)
    #: air units spent this player turn (TAC 15.0) and units interdicted for their next
    #: Movement Phase (15.2)
    air_used: int = 0
    #: the cities the phasing side controlled as its player turn began: its air bases (15.0)
    air_bases: list[str] = field(default_factory=list)
    interdicted: set[str] = field(default_factory=set)
    #: units that took a replacement this turn (TAC 10.0 procedure, 8.5.1)
    replaced: set[str] = field(default_factory=set)
    #: units delayed at a port or by a minefield -> the turn in whose Movement Phase they
    #: may not move (TAC 12.1, 16.1; RULINGS D5)
    delayed: dict[str, int] = field(default_factory=dict)
    #: units withdrawn in another's place -> the turn they come back (TAC 7.4)
    substitutes: dict[str, int] = field(default_factory=dict)
    #: per side, the turn it last made a Maximum Effort or Determined Defense (18.4, 18.5)
    efforts: dict[str, int] = field(default_factory=dict)
    #: the side that moves first this turn (TAC 17.2; 18.2 Initiative)
    first: str = ALLIED
    #: the withdrawals of this Allied Reinforcement Phase still to make (TAC 7.2-7.4):
    #: ``{"todo": [unit ids], "choice": {...} or None}``, the choice being the donor (7.3)
    #: or substitute (7.4) the Allied player is asked for (see :mod:`engine.games.tac.turn`)
    withdrawal: dict[str, Any] | None = None
    #: each side's standing orders, topic -> value (``withdraw``: ask or engine)
    standing: dict[str, dict[str, str]] = field(default_factory=dict)
    #: reinforcements that may land at Tobruk -> the turn they may (TAC 12.1; RULINGS R46):
    #: the turn they arrived, or the next one after a delayed landing
    landing: dict[str, int] = field(default_factory=dict)
    #: the event chits (Optional 18.7): see :mod:`engine.games.tac.events`
    chits: dict[str, Any] = field(default_factory=dict)
    #: the Tactical Advantage marker (Optional 18.3): see :mod:`engine.games.tac.tactical`
    advantage: dict[str, Any] = field(default_factory=dict)
    #: replacement counters in play, on the map or at sea (TAC 10.1, 10.2; RULINGS R47):
    #: see :mod:`engine.games.tac.pieces`
    pieces: dict[str, dict[str, Any]] = field(default_factory=dict)

    def clone(self) -> State:
        return State(
            self.scenario, dict(self.options), self.pack_version, self.turn, self.player,
            self.phase, {k: u.copy() for k, u in self.units.items()}, dict(self.control),
            self.fuel, set(self.moved), set(self.strategic), dict(self.replacements),
            self.winner, self.result_text,
            [{k: list(v) for k, v in x.items()} for x in self.battles],
            copy.deepcopy(self.fight), dict(self.exit_space), dict(self.exit_counted),
            copy.deepcopy(self.mines), self.air_used, list(self.air_bases), set(self.interdicted), set(self.replaced),
            dict(self.delayed), dict(self.substitutes), dict(self.efforts), self.first,
            copy.deepcopy(self.withdrawal), {k: dict(v) for k, v in self.standing.items()},
            dict(self.landing), copy.deepcopy(self.chits), copy.deepcopy(self.advantage),
            copy.deepcopy(self.pieces),
        )  # fmt: skip

    def canonical(self) -> State:
        """Put every mapping in key order, in place, and return the state: the order the
        database reads a stored state back in (JSON with sorted keys). Rules iterate these
        mappings (units into event texts, say), so a game played on from a stored state
        must meet them in the same order as the game played in memory."""
        self.units = dict(sorted(self.units.items()))
        for name in ("options", "control", "replacements", "exit_space", "exit_counted",
                     "mines", "delayed", "substitutes", "efforts", "standing", "landing",
                     "chits", "advantage", "pieces"):  # fmt: skip
            setattr(self, name, _sorted(getattr(self, name)))
        self.battles = _sorted(self.battles)
        self.fight = _sorted(self.fight)
        self.withdrawal = _sorted(self.withdrawal)
        return self

    def on_map(self, side: str | None = None) -> list[Unit]:
        return [
            u for u in self.units.values()
            if u.where == "map" and (side is None or u.side == side)
        ]  # fmt: skip

    def at(self, h: str) -> list[Unit]:
        return [u for u in self.units.values() if u.where == "map" and u.hex == h]

    def to_dict(self) -> dict[str, Any]:
        return {
            "scenario": self.scenario, "options": dict(self.options),
            "pack_version": self.pack_version, "turn": self.turn, "player": self.player,
            "phase": self.phase,
            "units": {k: {"id": u.id, "side": u.side, "where": u.where, "hex": u.hex,
                          "step": u.step, "arrived": u.arrived} for k, u in self.units.items()},
            "control": dict(self.control), "fuel": self.fuel, "moved": sorted(self.moved),
            "strategic": sorted(self.strategic), "replacements": dict(self.replacements),
            "winner": self.winner, "result_text": self.result_text,
            "battles": [{k: list(v) for k, v in x.items()} for x in self.battles],
            "fight": copy.deepcopy(self.fight), "exit_space": dict(self.exit_space),
            "exit_counted": dict(self.exit_counted), "mines": copy.deepcopy(self.mines),
            "air_used": self.air_used, "air_bases": list(self.air_bases), "interdicted": sorted(self.interdicted),
            "replaced": sorted(self.replaced), "delayed": dict(self.delayed),
            "substitutes": dict(self.substitutes), "efforts": dict(self.efforts),
            "first": self.first, "withdrawal": copy.deepcopy(self.withdrawal),
            "standing": {k: dict(v) for k, v in self.standing.items()}, "landing": dict(self.landing),
            "chits": copy.deepcopy(self.chits), "advantage": copy.deepcopy(self.advantage),
            "pieces": copy.deepcopy(self.pieces),
        }  # fmt: skip

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> State:
        d = dict(d)
        d["units"] = {k: Unit(**v) for k, v in d["units"].items()}
        d["moved"] = set(d["moved"])
        d["strategic"] = set(d["strategic"])
        d["battles"] = [dict(x) for x in d.get("battles", [])]
        for k in ("interdicted", "replaced"):
            d[k] = set(d.get(k, ()))
        return cls(**d).canonical()


def _sorted(x: Any) -> Any:
    """``x`` with every dict in it rebuilt in key order (lists keep theirs)."""
    if isinstance(x, dict):
        return {k: _sorted(x[k]) for k in sorted(x)}
    if isinstance(x, list):
        return [_sorted(v) for v in x]
    return x
