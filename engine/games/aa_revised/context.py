"""What every rule handler works with while one order is applied.

``Ctx`` holds the static board, the options, the state being changed (a clone: the state
the caller passed in is never touched), the events written so far and the dice, with the
questions every phase asks: who is friendly, what stands in a space, how far a unit moves.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from engine.core.errors import IllegalOrder
from engine.core.events import Event
from engine.core.ruleset import Dice
from engine.games.aa_revised.geography import SHORT, Geography, UnitInfo, movement_changes, units
from engine.games.aa_revised.options import Options
from engine.games.aa_revised.state import POWER_NAME, SIDE, TURN_ORDER, State, Unit


def refuse(rule: str, reason: str, legal: str = "") -> IllegalOrder:
    return IllegalOrder(rule, reason, legal)


def listing(items, limit: int = 12) -> str:
    items = list(items)
    if not items:
        return "none"
    if len(items) > limit:
        return ", ".join(items[:limit]) + f" and {len(items) - limit} more"
    return ", ".join(items)


def count_text(counts: dict[str, int]) -> str:
    """``{"infantry": 2, "tank": 1}`` -> ``"2 infantry, 1 tank"``, in the order of the
    unit table whatever the order of ``counts`` (a state loaded from the database holds
    its counts in another order than the play that made them)."""
    info = units()
    parts = []
    for t in sorted(counts, key=list(info).index):
        if n := counts[t]:
            parts.append(f"{n} {(info[t].name if n == 1 else info[t].plural).lower()}")
    return ", ".join(parts) or "nothing"


def units_phrase(us: list[Unit]) -> str:
    counts: dict[str, int] = {}
    for u in us:
        counts[u.type] = counts.get(u.type, 0) + 1
    return count_text(counts)


@dataclass
class Ctx:
    geo: Geography
    opts: Options
    state: State
    dice: Dice
    events: list[Event] = field(default_factory=list)
    _index: dict[str, list[Unit]] | None = None

    # -- the log ---------------------------------------------------------------

    def log(self, kind: str, text: str, reveals: bool = False, **data: Any) -> None:
        self.events.append(Event(kind, text, data, reveals))

    def mark(self, kind: str, power: str, path: list[str], text: str = "") -> None:
        """Remember an arrow or a battle marker for the map of this turn."""
        self.state.recent.append({"kind": kind, "power": power, "path": list(path), "text": text})
        if len(self.state.recent) > 120:
            del self.state.recent[:-120]

    # -- powers ------------------------------------------------------------------

    @property
    def power(self) -> str:
        return self.state.power

    @staticmethod
    def side(power: str) -> str:
        return SIDE[power]

    def allies_of(self, power: str) -> list[str]:
        return [p for p in TURN_ORDER if SIDE[p] == SIDE[power]]

    def commanded(self) -> tuple[str, ...]:
        """The powers whose units the phasing player moves and fights with: its own,
        and in the U.S. turn after the U.K. declared a Joint Strike, the U.K.'s as well,
        as though they were American (Appendix 3, Joint Strike)."""
        s = self.state
        if (
            s.power == "usa"
            and s.na.get("joint_strike") == s.round
            and s.phase in ("combat_move", "combat", "noncombat")
        ):
            return ("usa", "uk")
        return (s.power,)

    def techs(self, power: str) -> frozenset[str]:
        return frozenset(self.state.techs.get(power, ()))

    def has(self, power: str, advantage: str) -> bool:
        """Whether ``power`` holds a national advantage (Appendix 3)."""
        return advantage in self.state.advantages.get(power, ())

    def capital_held(self, power: str) -> bool:
        """Revised: Capturing and Liberating Capitals: a power whose capital an enemy
        holds skips research, purchase, mobilization and income."""
        cap = self.geo.capital[power]
        return SIDE[self.state.control[cap]] == SIDE[power]

    def production(self, power: str) -> int:
        """Revised: Phase 7: the income values of the territories a power controls."""
        ipc = self.geo.ipc
        return sum(ipc[t] for t, p in self.state.control.items() if p == power)

    # -- spaces ------------------------------------------------------------------

    def index(self) -> dict[str, list[Unit]]:
        if self._index is None:
            idx: dict[str, list[Unit]] = defaultdict(list)
            for u in self.state.units.values():
                idx[u.at].append(u)
            self._index = idx
        return self._index

    def touch(self) -> None:
        self._index = None

    def at(self, space: str) -> list[Unit]:
        return self.index().get(space, [])

    def friendly_territory(self, territory: str, power: str) -> bool:
        owner = self.state.control.get(territory)
        return owner is not None and SIDE[owner] == SIDE[power]

    def enemies_at(self, space: str, power: str, submerged: bool = False) -> list[Unit]:
        """Enemy units in ``space``; submerged submarines only if ``submerged``."""
        side = SIDE[power]
        return [
            u for u in self.at(space)
            if SIDE[u.owner] != side and (submerged or not u.submerged)
        ]  # fmt: skip

    def hostile_zone(self, zone: str, power: str) -> bool:
        """Revised: Spaces on the Game Board: a sea zone is hostile when enemy units are in
        it; submerged submarines do not count (Appendix 1, Submarines: Submerge)."""
        side = SIDE[power]
        return any(SIDE[u.owner] != side and not u.submerged for u in self.at(zone))

    def hostile(self, space: str, power: str) -> bool:
        if space in self.geo.sea:
            return self.hostile_zone(space, power)
        return not self.friendly_territory(space, power)

    # -- units ---------------------------------------------------------------------

    def info(self, unit_type: str) -> UnitInfo:
        return units()[unit_type]

    def movement(self, u: Unit) -> int:
        """A unit's move, after weapons developments and national advantages
        (Appendix 1; Long-Range Aircraft; Mechanized Infantry; Fast Carriers)."""
        base = units()[u.type].movement
        for tech in self.state.techs.get(u.owner, ()):
            base = movement_changes().get(tech, {}).get(u.type, base)
        if u.type == "infantry" and self.has(u.owner, "mechanized_infantry"):
            base = 2
        if u.type == "carrier" and self.has(u.owner, "fast_carriers"):
            base = 3
        return base

    def kind(self, u: Unit) -> str:
        return units()[u.type].kind

    def cargo(self, carrier: Unit) -> list[Unit]:
        return [u for u in self.at(carrier.at) if u.aboard == carrier.id]

    def new_unit(self, unit_type: str, owner: str, at: str) -> Unit:
        s = self.state
        u = Unit(f"u{s.next_id}", unit_type, owner, at)
        s.next_id += 1
        s.units[u.id] = u
        self.touch()
        return u

    def destroy(self, u: Unit, why: str = "", quiet: bool = False) -> None:
        """Remove a unit from play, with its cargo (Appendix 1: Transports, Carriers)."""
        s = self.state
        if u.id not in s.units:
            return
        for c in self.cargo(u):
            self.destroy(c, f" with the {units()[u.type].name.lower()} carrying it", quiet)
        del s.units[u.id]
        self.touch()
        if not quiet:
            self.log(
                "destroyed",
                f"{POWER_NAME[u.owner]}'s {units()[u.type].name.lower()} {u.id} in "
                f"{self.geo.name(u.at)} is destroyed{why}.",
                unit=u.id,
                space=u.at,
            )

    def place_at(self, u: Unit, space: str) -> None:
        """Put a unit in ``space``; a ship's cargo goes with it."""
        u.at = space
        self.touch()
        if units()[u.type].kind == "sea":
            for c in self.cargo_of_id(u.id):
                c.at = space

    def cargo_of_id(self, uid: str) -> list[Unit]:
        return [c for c in self.state.units.values() if c.aboard == uid]

    @staticmethod
    def short(unit_type: str) -> str:
        return SHORT.get(unit_type, unit_type)
