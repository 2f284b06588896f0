"""The state of a game of Patton's First Victory.

Plain dataclasses, because the engine copies the state on every order: ``clone`` is a
hand-written copy, several times faster than ``copy.deepcopy``. ``to_dict``/``from_dict``
give the JSON stored in snapshots.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

#: where a piece is: on the map, in its side's Return to Base box, in the dead pile, not
#: yet in play (battlegroups, two-star pieces, Patton), or gone for good (Rommel recalled,
#: II Corps pieces swapped out)
LOCATIONS = ("map", "rtb", "dead", "pool", "removed")

AXIS = "axis"
ALLIED = "allied"
SIDES = (AXIS, ALLIED)


def enemy(side: str) -> str:
    return ALLIED if side == AXIS else AXIS


@dataclass(slots=True)
class Piece:
    id: str
    where: str = "pool"
    hex: str | None = None
    reduced: bool = False
    #: a battlegroup: the piece it replaced (PFV 13; needed by PFV 16's swap)
    origin: str | None = None

    def copy(self) -> Piece:
        return Piece(self.id, self.where, self.hex, self.reduced, self.origin)


@dataclass(slots=True)
class Battle:
    """One battle of the combat segment (PFV 7 phases 2-5), from declaration to advance."""

    attacker: str
    attack_hex: str
    target: str
    breakthrough: bool = False
    attacker_air: str | None = None
    defender_air: str | None = None
    #: what the battle waits for: "defender_air", "loss", "retreat", "advance"
    stage: str = "defender_air"
    general: str | None = None
    supports: list[str] = field(default_factory=list)
    defending_unit: str | None = None
    attack_hit: bool = False
    defense_hit: bool = False
    #: sides that still owe a step loss, in the order they choose
    losses_due: list[str] = field(default_factory=list)
    #: defending pieces that must still retreat
    retreating: list[str] = field(default_factory=list)

    def copy(self) -> Battle:
        return Battle(
            self.attacker, self.attack_hex, self.target, self.breakthrough,
            self.attacker_air, self.defender_air, self.stage, self.general,
            list(self.supports), self.defending_unit, self.attack_hit, self.defense_hit,
            list(self.losses_due), list(self.retreating),
        )  # fmt: skip


@dataclass(slots=True)
class State:
    scenario: str
    options: dict[str, Any]
    pack_version: str
    turn: int = 1
    #: the phasing player (during set-up: the side setting up)
    player: str = ALLIED
    #: "setup", "move", "combat", "rtb", "replace", "patton", "over"
    phase: str = "setup"
    pieces: dict[str, Piece] = field(default_factory=dict)
    #: land hex -> controlling side (PFV 7 phases 6-7, 16, 17; RULINGS R17)
    control: dict[str, str] = field(default_factory=dict)
    moved: set[str] = field(default_factory=set)
    attacked: set[str] = field(default_factory=set)
    supported: set[str] = field(default_factory=set)
    #: unit id -> "eligible" | "moved" | "used" (PFV 15)
    breakthrough: dict[str, str] = field(default_factory=dict)
    #: unit id -> the supports stacked with it when it earned its breakthrough (PFV 15)
    party: dict[str, list[str]] = field(default_factory=dict)
    battle: Battle | None = None
    #: during Return to Base: whose air is being returned now
    rebasing: str | None = None
    replacements_left: int = 0
    patton_arrived: bool = False
    #: pieces waiting for the Allied player to place them (PFV 16)
    to_place: list[str] = field(default_factory=list)
    rommel_recalled: bool = False
    axis_entered_8th_army: bool = False
    winner: str | None = None
    result_text: str = ""
    #: recent arrows and markers for the map: dicts with turn, player, kind, side, path, text
    recent: list[dict[str, Any]] = field(default_factory=list)
    #: Patton arrived by force at the end of the forced turn, not on a roll (PFV 16, R22)
    patton_forced: bool = False

    def clone(self) -> State:
        return State(
            self.scenario, self.options, self.pack_version, self.turn, self.player,
            self.phase, {k: p.copy() for k, p in self.pieces.items()}, dict(self.control),
            set(self.moved), set(self.attacked), set(self.supported),
            dict(self.breakthrough), {k: list(v) for k, v in self.party.items()},
            self.battle.copy() if self.battle else None,
            self.rebasing, self.replacements_left, self.patton_arrived,
            list(self.to_place), self.rommel_recalled, self.axis_entered_8th_army,
            self.winner, self.result_text, list(self.recent), self.patton_forced,
        )  # fmt: skip

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready; written by hand because ``dataclasses.asdict`` is slow on a snapshot path."""
        b = self.battle
        return {
            "scenario": self.scenario, "options": dict(self.options), "pack_version": self.pack_version,
            "turn": self.turn, "player": self.player, "phase": self.phase,
            "pieces": {k: {"id": p.id, "where": p.where, "hex": p.hex, "reduced": p.reduced, "origin": p.origin}
                       for k, p in self.pieces.items()},
            "control": dict(self.control), "moved": sorted(self.moved), "attacked": sorted(self.attacked),
            "supported": sorted(self.supported), "breakthrough": dict(self.breakthrough),
            "party": {k: list(v) for k, v in self.party.items()},
            "battle": None if b is None else {
                "attacker": b.attacker, "attack_hex": b.attack_hex, "target": b.target,
                "breakthrough": b.breakthrough, "attacker_air": b.attacker_air, "defender_air": b.defender_air,
                "stage": b.stage, "general": b.general, "supports": list(b.supports),
                "defending_unit": b.defending_unit, "attack_hit": b.attack_hit, "defense_hit": b.defense_hit,
                "losses_due": list(b.losses_due), "retreating": list(b.retreating),
            },
            "rebasing": self.rebasing, "replacements_left": self.replacements_left,
            "patton_arrived": self.patton_arrived, "to_place": list(self.to_place),
            "rommel_recalled": self.rommel_recalled, "axis_entered_8th_army": self.axis_entered_8th_army,
            "winner": self.winner, "result_text": self.result_text, "recent": [dict(r) for r in self.recent],
            "patton_forced": self.patton_forced,
        }  # fmt: skip

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> State:
        d = dict(d)
        d["pieces"] = {k: Piece(**v) for k, v in d["pieces"].items()}
        d["battle"] = Battle(**d["battle"]) if d.get("battle") else None
        for key in ("moved", "attacked", "supported"):
            d[key] = set(d[key])
        return cls(**d)
