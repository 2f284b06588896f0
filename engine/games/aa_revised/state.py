"""The state of a game of Axis & Allies Revised.

Plain dataclasses, because the engine copies the state on every order: ``clone`` is a
hand-written copy, several times faster than ``copy.deepcopy``. ``to_dict``/``from_dict``
give the JSON stored in snapshots. The battle in progress is a value of
:mod:`engine.games.aa_revised.battle` (immutable, so clones share it); it is written out
field by field by :func:`battle_to_dict`.

Per-turn unit flags (``moved``, ``cm``, ``fought``...) are cleared when a power's turn
ends (Revised: Order of Play); ``boarded`` survives, because a friendly power's cargo
may only get off on a later turn of its owner (Appendix 1, Transports).
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any

from engine.games.aa_revised import battle as bt

#: Revised: Order of Play
TURN_ORDER = ("ussr", "germany", "uk", "japan", "usa")
SIDE = {"ussr": "allies", "germany": "axis", "uk": "allies", "japan": "axis", "usa": "allies"}
POWER_NAME = {
    "ussr": "Soviet Union",
    "germany": "Germany",
    "uk": "United Kingdom",
    "japan": "Japan",
    "usa": "United States",
}
SIDE_NAME = {"allies": "Allies", "axis": "Axis"}

#: Revised: Turn Sequence. "over" once the game has ended.
PHASES = ("research", "purchase", "combat_move", "combat", "noncombat", "mobilize", "income")
PHASE_NAME = {
    "research": "Develop weapons",
    "purchase": "Purchase units",
    "combat_move": "Combat move",
    "combat": "Conduct combat",
    "noncombat": "Noncombat move",
    "mobilize": "Mobilize new units",
    "income": "Collect income",
    "enigma": "Enigma Decoded (U.K.)",
    "over": "Game over",
}


def uid_key(uid: str) -> int:
    """Units sort by the number in their id (``u9`` before ``u10``)."""
    return int(uid[1:])


def side_of(power: str) -> str:
    return SIDE[power]


def enemy_side(side: str) -> str:
    return "axis" if side == "allies" else "allies"


@dataclass(slots=True)
class Unit:
    """One piece on the board (or aboard a transport or carrier: ``aboard``)."""

    id: str
    type: str
    owner: str
    at: str
    #: id of the transport or carrier carrying it (cargo), else None
    aboard: str | None = None
    #: spaces moved this turn (for aircraft: range spent, combat and noncombat together)
    moved: int = 0
    #: the space it was in before entering the one it stands in now (retreat origin)
    prev: str | None = None
    #: moved in the combat move phase (or stayed to fight in a contested sea zone)
    cm: bool = False
    fought: bool = False
    retreated: bool = False
    #: its movement is over for this turn (entered a hostile space, loaded, offloaded...)
    stopped: bool = False
    submerged: bool = False
    #: cargo: the serial of the power-turn in which it boarded (Appendix 1, Transports)
    boarded: int = -1
    #: a transport: the territory it offloaded into this turn
    offloaded: str | None = None
    #: a transport: it loaded cargo this turn
    loaded: bool = False
    #: cargo declared to land in this territory once its sea zone is cleared
    landing: str | None = None
    #: a ship bombarding this territory in an amphibious assault
    bombard: str | None = None
    #: an aircraft on a strategic bombing raid against the territory it is in
    raid: bool = False
    #: an antiaircraft gun captured or that fired a rocket this turn: it may not move
    pinned: bool = False
    #: spaces entered this turn by an aircraft in the combat move, in order (AA fire)
    path: list[str] = field(default_factory=list)
    #: a carrier committed to pick up fighters in this sea zone (Appendix 1, Fighters)
    pickup: str | None = None
    #: a fighter: the carrier it is promised a place on at the end of the turn
    deck: str | None = None
    #: Japan's kamikaze aircraft (national advantage)
    kamikaze: bool = False
    #: Panzerblitz (national advantage): may move one territory in noncombat
    blitz_again: bool = False

    def copy(self) -> Unit:
        return Unit(
            self.id, self.type, self.owner, self.at, self.aboard, self.moved, self.prev,
            self.cm, self.fought, self.retreated, self.stopped, self.submerged,
            self.boarded, self.offloaded, self.loaded, self.landing, self.bombard,
            self.raid, self.pinned, list(self.path), self.pickup, self.deck, self.kamikaze,
            self.blitz_again,
        )  # fmt: skip

    def new_turn(self) -> None:
        """Clear the flags that last one turn (Revised: Order of Play)."""
        self.moved = 0
        self.prev = None
        self.cm = self.fought = self.retreated = self.stopped = False
        self.offloaded = self.landing = self.bombard = self.pickup = self.deck = None
        self.loaded = self.raid = self.pinned = self.kamikaze = self.blitz_again = False
        if self.path:
            self.path = []


@dataclass(slots=True)
class ActiveBattle:
    """The battle being fought now (Revised: Conduct Combat), around a battle value."""

    space: str
    sea: bool
    attacker: str
    #: the defending power who chooses casualties and submerging for the defenders
    defender: str
    b: Any  # battle.Battle
    #: spaces the attacking land / sea units came from (retreat destinations, Step 7)
    land_origins: list[str] = field(default_factory=list)
    sea_origins: list[str] = field(default_factory=list)
    #: the attacker's aircraft that are kamikazes (national advantage)
    kamikaze: list[str] = field(default_factory=list)
    #: defending fighters "in the air" off carriers (Appendix 1, Fighters)
    carrier_fighters: list[str] = field(default_factory=list)
    #: red territory, Salvage bookkeeping: an attacking tank was lost
    tanks_lost: bool = False
    #: national advantages fixed when the battle began ("banzai", "wolf_packs", "joint"
    #: for a Joint Strike's U.S. and U.K. attackers), and the battle's progress with them
    #: ("kaiten_ask" while Japan chooses its kaiten, "kaiten_asked:N" for cycle N,
    #: "kamikaze_done", "joint_defender_picks" after the U.K. disagreed)
    flags: list[str] = field(default_factory=list)
    #: defending Japanese submarines designated as kaiten torpedoes this cycle
    kaiten: list[str] = field(default_factory=list)
    #: Joint Strike: attacking casualties the U.S. chose, waiting for the U.K. to agree
    proposal: list[str] = field(default_factory=list)

    def copy(self) -> ActiveBattle:
        return ActiveBattle(
            self.space, self.sea, self.attacker, self.defender, self.b,
            list(self.land_origins), list(self.sea_origins), list(self.kamikaze),
            list(self.carrier_fighters), self.tanks_lost, list(self.flags), list(self.kaiten),
            list(self.proposal),
        )  # fmt: skip


@dataclass(slots=True)
class State:
    scenario: str
    options: dict[str, Any]
    pack_version: str
    round: int = 1
    #: index into TURN_ORDER of the power whose turn it is
    turn: int = 0
    phase: str = "research"
    units: dict[str, Unit] = field(default_factory=dict)
    next_id: int = 1
    #: passable territory -> controlling power
    control: dict[str, str] = field(default_factory=dict)
    #: the controllers at the start of the phasing power's turn
    start_control: dict[str, str] = field(default_factory=dict)
    #: territories holding an industrial complex (its owner is the territory's controller)
    ics: list[str] = field(default_factory=list)
    ipcs: dict[str, int] = field(default_factory=dict)
    techs: dict[str, list[str]] = field(default_factory=dict)
    #: national production at the start of the game (individual winner)
    start_production: dict[str, int] = field(default_factory=dict)
    # -- this turn ------------------------------------------------------------------
    researched: bool = False
    #: units bought and waiting in the mobilization zone: type -> count
    pending: dict[str, int] = field(default_factory=dict)
    #: industrial complex territory -> units placed there this turn
    placed: dict[str, int] = field(default_factory=dict)
    #: ids of the units mobilized this turn (new carriers take new fighters)
    fresh: list[str] = field(default_factory=list)
    #: carriers mobilized this turn -> the territory of the complex that built each
    carrier_ics: dict[str, str] = field(default_factory=dict)
    #: territories captured (or liberated) this turn
    captured: list[str] = field(default_factory=list)
    #: spaces where combat was fought this turn
    contested: list[str] = field(default_factory=list)
    #: spaces with a battle still to fight this turn
    battles: list[str] = field(default_factory=list)
    #: territories with a strategic bombing raid still to resolve
    raids: list[str] = field(default_factory=list)
    battle: ActiveBattle | None = None
    #: rocket strikes this turn: launch territories and target territories
    rocket_from: list[str] = field(default_factory=list)
    rocket_at: list[str] = field(default_factory=list)
    #: defending fighters of a sunk carrier that must fly one space: (unit id, zone)
    stranded: list[str] = field(default_factory=list)
    # -- players' standing orders and the optional rules ------------------------------
    #: power -> {"casualties": [type, ...] or [], "submerge": "ask"|"always"|"never",
    #: "retreat": "ask"|"press"}
    standing: dict[str, dict[str, Any]] = field(default_factory=dict)
    #: power -> the national advantages it holds (Appendix 3)
    advantages: dict[str, list[str]] = field(default_factory=dict)
    #: once-per-game and running national-advantage state, by name
    na: dict[str, Any] = field(default_factory=dict)
    # -- the end ------------------------------------------------------------------------
    winner: str | None = None
    level: str = ""
    result_text: str = ""
    over: bool = False
    #: moves and battles of the current turn, for the map: {kind, power, path, text}
    recent: list[dict[str, Any]] = field(default_factory=list)

    @property
    def power(self) -> str:
        return TURN_ORDER[self.turn]

    @property
    def serial(self) -> int:
        """A number for each power-turn of the game, increasing."""
        return self.round * 10 + self.turn

    def clone(self) -> State:
        return State(
            self.scenario, self.options, self.pack_version, self.round, self.turn, self.phase,
            {k: u.copy() for k, u in self.units.items()}, self.next_id, dict(self.control),
            dict(self.start_control), list(self.ics), dict(self.ipcs),
            {k: list(v) for k, v in self.techs.items()}, dict(self.start_production),
            self.researched, dict(self.pending), dict(self.placed), list(self.fresh),
            dict(self.carrier_ics), list(self.captured),
            list(self.contested), list(self.battles), list(self.raids),
            self.battle.copy() if self.battle else None, list(self.rocket_from),
            list(self.rocket_at), list(self.stranded),
            {k: _copy_standing(v) for k, v in self.standing.items()},
            {k: list(v) for k, v in self.advantages.items()}, _copy_na(self.na),
            self.winner, self.level, self.result_text, self.over, list(self.recent),
        )  # fmt: skip

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {}
        for f in fields(self):
            value = getattr(self, f.name)
            if f.name == "units":
                value = {k: _unit_dict(u) for k, u in value.items()}
            elif f.name == "battle":
                value = _active_dict(value) if value else None
            d[f.name] = value
        return _jsonable(d)

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> State:
        d = dict(d)
        # in the order they were made (``u1``, ``u2``, ... ``u10``), as play holds them:
        # the database keeps the keys sorted as text, and the order shows in events
        made = sorted(d["units"], key=_unit_number)
        d["units"] = {k: Unit(**d["units"][k]) for k in made}
        if d.get("battle"):
            a = dict(d["battle"])
            a.pop("doomed", None)  # snapshots from before battle.py removed them itself
            a["b"] = battle_from_dict(a["b"])
            d["battle"] = ActiveBattle(**a)
        return cls(**d)


def _copy_standing(v: dict[str, Any]) -> dict[str, Any]:
    return {k: list(x) if isinstance(x, list) else x for k, x in v.items()}


def _copy_na(na: dict[str, Any]) -> dict[str, Any]:
    return {k: (list(v) if isinstance(v, list) else dict(v) if isinstance(v, dict) else v)
            for k, v in na.items()}  # fmt: skip


def _unit_dict(u: Unit) -> dict[str, Any]:
    return {f.name: getattr(u, f.name) for f in fields(u)}


def _active_dict(a: ActiveBattle) -> dict[str, Any]:
    out = {f.name: getattr(a, f.name) for f in fields(a)}
    out["b"] = battle_to_dict(a.b)
    return out


def _jsonable(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_jsonable(v) for v in value]
    if isinstance(value, (set, frozenset)):
        return sorted(value)
    return value


# -------------------------------------------------------------- battle values as JSON


def battle_to_dict(b: bt.Battle) -> dict[str, Any]:
    """A battle of :mod:`battle` as plain JSON (events are never stored: the turn engine
    moves them into its log as they happen)."""

    def units(us: tuple[bt.Unit, ...]) -> list[list[Any]]:
        return [[u.uid, u.type, u.owner, u.hits] for u in us]

    return {
        "sea": b.sea,
        "attackers": units(b.attackers),
        "defenders": units(b.defenders),
        "bombarding": units(b.bombarding),
        "amphibious": b.amphibious,
        "attacker_techs": sorted(b.attacker_techs),
        "defender_techs": sorted(b.defender_techs),
        "owner_techs": {owner: sorted(techs) for owner, techs in b.owner_techs},
        "air_needs_destroyer": b.rules.air_needs_destroyer,
        "cycle": b.cycle,
        "step": b.step,
        "pending": [[h.side, h.source, h.count, h.from_air, h.now] for h in b.pending],
        "resume": b.resume,
        "marked": sorted(b.marked),
        "marked_now": sorted(b.marked_now),
        "destroyer_at_start": list(b.destroyer_at_start),
        "attackers_lost": units(b.attackers_lost),
        "defenders_lost": units(b.defenders_lost),
        "retreated": units(b.retreated),
        "attackers_submerged": units(b.attackers_submerged),
        "defenders_submerged": units(b.defenders_submerged),
        "outcome": b.outcome,
    }


def battle_from_dict(d: dict[str, Any]) -> bt.Battle:
    def units(rows: list[list[Any]]) -> tuple[bt.Unit, ...]:
        return tuple(bt.Unit(r[0], r[1], r[2], r[3]) for r in rows)

    return bt.Battle(
        sea=d["sea"],
        attackers=units(d["attackers"]),
        defenders=units(d["defenders"]),
        bombarding=units(d["bombarding"]),
        amphibious=d["amphibious"],
        attacker_techs=frozenset(d["attacker_techs"]),
        defender_techs=frozenset(d["defender_techs"]),
        owner_techs=tuple(
            sorted((owner, frozenset(t)) for owner, t in d.get("owner_techs", {}).items())
        ),
        rules=bt.Rules(air_needs_destroyer=d["air_needs_destroyer"]),
        cycle=d["cycle"],
        step=d["step"],
        pending=tuple(bt.Hits(p[0], p[1], p[2], p[3], p[4]) for p in d["pending"]),
        resume=d["resume"],
        marked=frozenset(d["marked"]),
        marked_now=frozenset(d["marked_now"]),
        destroyer_at_start=tuple(d["destroyer_at_start"]),
        attackers_lost=units(d["attackers_lost"]),
        defenders_lost=units(d["defenders_lost"]),
        retreated=units(d["retreated"]),
        attackers_submerged=units(d["attackers_submerged"]),
        defenders_submerged=units(d["defenders_submerged"]),
        outcome=d["outcome"],
    )


def _unit_number(unit_id: str) -> tuple[int, str]:
    """``"u12"`` -> ``(12, "")``: units numbered as :meth:`Ctx.new_unit` numbers them
    sort by that number (any other id after them, as text)."""
    digits = unit_id[1:]
    return (int(digits), "") if digits.isdigit() else (1 << 62, unit_id)
