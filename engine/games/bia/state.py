"""The state of a game of Blocks in Afrika.

Plain dataclasses with a hand-written ``clone`` (the engine copies the state on every
order) and ``to_dict``/``from_dict`` for the JSON kept in snapshots. The state holds the
whole truth; :mod:`engine.games.bia.view` gives each side only what it may see (1.3).
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any

#: where a block is: on the map (``hex``), in a Strategic Map box (``box``), waiting to
#: arrive (``pool``), eliminated (``dead``), or withdrawn by the scenario (``removed``)
LOCATIONS = ("map", "box", "pool", "dead", "removed")

#: the phases of one side's half of a turn, in order (7.0, L995-1005)
PHASES = (
    "strategic_warfare",
    "supply",
    "production",
    "srm",
    "movement",
    "reaction",
    "combat",
    "blitz",
    "final_supply",
    "exploitation",
)


@dataclass(slots=True)
class BlockState:
    id: str
    side: str
    where: str = "pool"
    #: the hex (``where == "map"``) or the box key (``where == "box"``)
    at: str | None = None
    #: the edge it stands on: its position on the block's track, 1 = the weakest edge
    #: (the strength is that edge's printed value, 3.14)
    steps: int = 0
    #: its public anonymous token (stable while it is in play; issue 11 point 3)
    token: str = ""
    #: the white barrel: out of supply since this side's Supply Phase (7.2)
    oos: bool = False
    #: face up to the enemy after a battle or a recon, until Final Supply (L2416-2417)
    revealed: bool = False

    def copy(self) -> BlockState:
        return BlockState(
            self.id, self.side, self.where, self.at, self.steps, self.token, self.oos,
            self.revealed,
        )  # fmt: skip


@dataclass(slots=True)
class State:
    scenario: str
    options: dict[str, Any]
    pack_version: str
    turn: int = 1
    last_turn: int = 1
    #: the phasing side (7.0: the Axis first, L988-990)
    player: str = "axis"
    #: one of :data:`PHASES`, or "over"
    phase: str = "supply"
    blocks: dict[str, BlockState] = field(default_factory=dict)
    #: hex -> controlling side, for every land hex a side controls (3.3)
    control: dict[str, str] = field(default_factory=dict)
    #: blocks that have moved in this Movement Phase (7.5: one move each, L1400-1402)
    moved: list[str] = field(default_factory=list)
    #: battle hexes made this phase (3.23, L645-647)
    battles: list[str] = field(default_factory=list)
    winner: str | None = None
    result_text: str = ""
    #: the battle being fought (combat.py): its hex, round, step, carried shield hits and
    #: any decision it waits on; None between battles
    fight: dict[str, Any] | None = None
    #: block -> the battle hex it attacked in this Combat Phase (the Blitz, 7.8)
    attacked: dict[str, str] = field(default_factory=dict)
    #: block -> the hex it entered its battle hex from (river crossings, 7.7.6)
    entered_from: dict[str, str] = field(default_factory=dict)
    #: each side's standing orders: ``hits`` (engine or ask) and ``retreat`` (stay or ask);
    #: the first of each is the default (orders.STANDING)
    standing: dict[str, dict[str, str]] = field(default_factory=dict)
    #: hex -> locality changed in play (a captured fortress is a bunker, a captured
    #: bunker is gone: 7.7.9 special cases); None for no locality
    localities: dict[str, str | None] = field(default_factory=dict)
    #: blocks that may not exploit this phase: out of supply at its start (7.10)
    barred: list[str] = field(default_factory=list)
    #: powers conquered (5.1)
    conquered: list[str] = field(default_factory=list)
    #: blitzing block -> the hex it entered with its free MP this Blitz Phase (7.8)
    blitzed: dict[str, str] = field(default_factory=dict)
    #: side -> PP its production loses this turn to Strategic Warfare (7.1), for the PP
    #: ledger to come
    pp_lost: dict[str, int] = field(default_factory=dict)
    #: power -> colour -> Production Points it holds (7.3, 7.3.1; engine.games.bia.ledger)
    pp: dict[str, dict[str, int]] = field(default_factory=dict)
    #: hex -> new blocks placed there in this Production Phase (7.3.2, L1165-1169)
    arrivals: dict[str, int] = field(default_factory=dict)
    #: blocks disbanded this Production Phase: rebuilt from the next turn (7.3.6)
    disbanded: list[str] = field(default_factory=list)
    #: hexes whose factories were destroyed by a power's conquest (5.1, L765-766)
    factories_lost: list[str] = field(default_factory=list)
    #: air unit -> the airfield it flew from, for every air unit flying a mission or
    #: taking part in a battle (its ``at`` is the battle hex); it rebases at the end of
    #: the Blitz Phase (7.8.1) or when its battle is lost (7.7.11.2)
    aloft: dict[str, str] = field(default_factory=dict)
    #: Italian and German air units in their home box that may fly to Africa in this
    #: Production Phase: built a turn or more before (L1110-1111)
    air_due: list[str] = field(default_factory=list)
    #: on-map HQ -> action points it has left; an HQ listed here is activated (face up)
    #: until the end of the Blitz Phase, or of the Exploitation Phase it was activated in
    #: (AR 11.2-11.4, 11.10; engine.games.bia.fuel); fuel and reserves spend it, recon
    #: attempts are counted apart in ``hq_done`` (RULINGS B73)
    hq_active: dict[str, int] = field(default_factory=dict)
    #: hexes an air recon revealed this turn (AR 12.0: no Malus for the attacker there)
    reconned: list[str] = field(default_factory=list)
    #: power -> the block it moved by Sea Transport in this Movement Phase (7.5.4; one
    #: per power, its Supreme Leader's one action of that kind, L1940-1951; RULINGS B57)
    shipped: dict[str, str] = field(default_factory=dict)
    #: the powers that made their SRM in this side's SRM Phase (7.4): a crossing from a
    #: home box is that SRM and a Sea Transport together (L1121-1124, L1193-1194)
    srm_used: list[str] = field(default_factory=list)
    #: Supreme Leader -> the kinds of action it took this turn, one AP each (advanced
    #: rules, L1940-1951, L1994-2004; engine.games.bia.hq)
    leader_ap: dict[str, list[str]] = field(default_factory=dict)
    #: the naval scenarios (17.0; engine.games.bia.fleet): ``wait`` is the side adding
    #: ships to the convoy boxes in Strategic Warfare, ``lost`` the naval steps each side
    #: has lost, ``fleets`` the number of the last fleet formed at sea
    naval: dict[str, Any] = field(default_factory=dict)
    #: the phasing side's blocks in Reserve Mode (AR 16.0, Motorization): they stay put in
    #: the Movement Phase and move in the Exploitation Phase; public (the black barrel)
    reserve: list[str] = field(default_factory=list)
    #: activated HQ -> the kinds of action it took since its activation (a minor power's
    #: Supreme HQ takes one of each, L1940-1951, and one recon attempt, L2311-2314)
    hq_done: dict[str, list[str]] = field(default_factory=dict)
    #: unit -> the HQ (block id) or Supreme Leader that fuelled it for the phases its
    #: activation lasts (AR 11.0, 11.10); its owner's to read (RULINGS B75)
    fuelled: dict[str, str] = field(default_factory=dict)
    #: hex -> ``failed`` (the recon die) or ``negated`` (the AA interdiction): the recon
    #: attempts of this turn that revealed nothing there, public (AR 12.0; RULINGS B83)
    recon_failed: dict[str, str] = field(default_factory=dict)
    #: blocks an armoured HQ put in Reserve Mode in their side's Exploitation Phase (AR
    #: 16.0 Reaction, L2433-2438): they stay put there and may move in the enemy's next
    #: Defender Reaction, at whose end the mode ends; public (the black barrel, RULINGS B92)
    reaction_reserve: list[str] = field(default_factory=list)
    #: the blitz battle about to be fought that the non-phasing side is asked to react to
    #: with its armour in Reserve Mode before it begins (7.8 L1876-1879; RULINGS B97-B99)
    blitz_reaction: str | None = None
    #: reinforcement -> the edge it arrived on, for those that arrived by themselves in
    #: this Production Phase: its owner may still hold them back, and the others read
    #: their arrival only as the phase ends (7.3.5; RULINGS B100)
    fresh: dict[str, int] = field(default_factory=dict)
    #: reinforcement -> the turn it was held back by choice: it waits for its owner's
    #: ``release`` in a later Production Phase (7.3.5, L1261-1265; RULINGS B100-B101)
    held: dict[str, int] = field(default_factory=dict)

    def clone(self) -> State:
        return State(
            self.scenario, dict(self.options), self.pack_version, self.turn, self.last_turn,
            self.player, self.phase, {k: b.copy() for k, b in self.blocks.items()},
            dict(self.control), list(self.moved), list(self.battles), self.winner,
            self.result_text, copy.deepcopy(self.fight), dict(self.attacked),
            dict(self.entered_from), {k: dict(v) for k, v in self.standing.items()},
            dict(self.localities), list(self.barred), list(self.conquered),
            dict(self.blitzed), dict(self.pp_lost),
            {k: dict(v) for k, v in self.pp.items()}, dict(self.arrivals),
            list(self.disbanded), list(self.factories_lost), dict(self.aloft),
            list(self.air_due), dict(self.hq_active), list(self.reconned),
            dict(self.shipped), list(self.srm_used),
            {k: list(v) for k, v in self.leader_ap.items()}, copy.deepcopy(self.naval),
            list(self.reserve), {k: list(v) for k, v in self.hq_done.items()},
            dict(self.fuelled), dict(self.recon_failed), list(self.reaction_reserve),
            self.blitz_reaction, dict(self.fresh), dict(self.held),
        )  # fmt: skip

    def reacting(self) -> bool:
        """Whether the non-phasing side is the one moving: in the Defender Reaction (7.6, AR
        Appendix) or with its armour in Reserve Mode before a blitz battle (7.8 L1876-1879;
        RULINGS B97)."""
        return self.phase == "reaction" or self.blitz_reaction is not None

    def on_map(self, side: str | None = None) -> list[BlockState]:
        return [
            b for b in self.blocks.values()
            if b.where == "map" and (side is None or b.side == side)
        ]  # fmt: skip

    def at_hex(self, hex_id: str) -> list[BlockState]:
        return [b for b in self.blocks.values() if b.where == "map" and b.at == hex_id]

    def by_token(self, token: str) -> BlockState | None:
        return next((b for b in self.blocks.values() if b.token == token), None)

    def to_dict(self) -> dict[str, Any]:
        return {
            "scenario": self.scenario,
            "options": self.options,
            "pack_version": self.pack_version,
            "turn": self.turn,
            "last_turn": self.last_turn,
            "player": self.player,
            "phase": self.phase,
            "blocks": {
                k: [b.side, b.where, b.at, b.steps, b.token, b.oos, b.revealed]
                for k, b in self.blocks.items()
            },
            "control": self.control,
            "moved": self.moved,
            "battles": self.battles,
            "winner": self.winner,
            "result_text": self.result_text,
            "fight": self.fight,
            "attacked": self.attacked,
            "entered_from": self.entered_from,
            "standing": self.standing,
            "localities": self.localities,
            "barred": self.barred,
            "conquered": self.conquered,
            "blitzed": self.blitzed,
            "pp_lost": self.pp_lost,
            "pp": self.pp,
            "arrivals": self.arrivals,
            "disbanded": self.disbanded,
            "factories_lost": self.factories_lost,
            "aloft": self.aloft,
            "air_due": self.air_due,
            "hq_active": self.hq_active,
            "reconned": self.reconned,
            "shipped": self.shipped,
            "srm_used": self.srm_used,
            "leader_ap": self.leader_ap,
            "naval": self.naval,
            "reserve": self.reserve,
            "hq_done": self.hq_done,
            "fuelled": self.fuelled,
            "recon_failed": self.recon_failed,
            "reaction_reserve": self.reaction_reserve,
            "blitz_reaction": self.blitz_reaction,
            "fresh": self.fresh,
            "held": self.held,
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> State:
        blocks = {k: BlockState(k, *v) for k, v in d["blocks"].items()}
        return cls(
            d["scenario"], d["options"], d["pack_version"], d["turn"], d["last_turn"],
            d["player"], d["phase"], blocks, dict(d["control"]), list(d["moved"]),
            list(d["battles"]), d["winner"], d["result_text"], copy.deepcopy(d.get("fight")),
            dict(d.get("attacked", {})), dict(d.get("entered_from", {})),
            {k: dict(v) for k, v in d.get("standing", {}).items()},
            dict(d.get("localities", {})), list(d.get("barred", [])),
            list(d.get("conquered", [])), dict(d.get("blitzed", {})),
            dict(d.get("pp_lost", {})),
            {k: dict(v) for k, v in d.get("pp", {}).items()}, dict(d.get("arrivals", {})),
            list(d.get("disbanded", [])), list(d.get("factories_lost", [])),
            dict(d.get("aloft", {})), list(d.get("air_due", [])),
            dict(d.get("hq_active", {})), list(d.get("reconned", [])),
            dict(d.get("shipped", {})), list(d.get("srm_used", [])),
            {k: list(v) for k, v in d.get("leader_ap", {}).items()},
            copy.deepcopy(d.get("naval", {})), list(d.get("reserve", [])),
            {k: list(v) for k, v in d.get("hq_done", {}).items()}, dict(d.get("fuelled", {})),
            dict(d.get("recon_failed", {})), list(d.get("reaction_reserve", [])),
            d.get("blitz_reaction"), dict(d.get("fresh", {})), dict(d.get("held", {})),
        )  # fmt: skip
