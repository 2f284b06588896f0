"""What every rule handler asks of the board and the state while one order is applied.

``Ctx`` holds the board, the charts, the state being changed (a clone), the events written
so far and the dice, with the questions every phase asks: friendly, hostile or neutral
(Spaces on the Game Board, L497-501), whose supply a side may use (Supply Tokens,
L698-700), how many units stack in a territory (L487-491).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
from typing import Any

from engine.core.errors import IllegalOrder
from engine.core.events import Event
from engine.core.ruleset import Dice
from engine.games.aa_na import pack
from engine.games.aa_na.state import POWER_NAME, SIDE, State, Unit


def refuse(rule: str, reason: str, legal: str = "") -> IllegalOrder:
    return IllegalOrder(rule, reason, legal)


def listing(items, limit: int = 12) -> str:
    items = list(items)
    if not items:
        return "none"
    if len(items) > limit:
        return ", ".join(items[:limit]) + f" and {len(items) - limit} more"
    return ", ".join(items)


@cache
def chart() -> dict[str, pack.UnitType]:
    return {u.id: u for u in pack.load_units().units}


def chart_order(counts: dict[str, int]) -> list[tuple[str, int]]:
    """``counts`` (unit type -> number) in the unit chart's order, supply last. A state
    loaded from the database has its keys sorted as text, so nothing a player reads, and
    no event a replay compares, may follow a dict's own order."""
    rank = _chart_rank()
    return sorted(counts.items(), key=lambda kv: (rank.get(kv[0], len(rank)), kv[0]))


@cache
def _chart_rank() -> dict[str, int]:
    return {t: i for i, t in enumerate(chart())}


def has(type_id: str, characteristic: str) -> bool:
    return characteristic in chart()[type_id].characteristics


@dataclass
class Ctx:
    state: State
    dice: Dice
    events: list[Event] = field(default_factory=list)

    @property
    def board(self) -> pack.Board:
        return pack.load_board()

    @property
    def power(self) -> str:
        return self.state.power

    @property
    def side(self) -> str:
        return SIDE[self.state.power]

    def log(self, kind: str, text: str, **data: Any) -> None:
        self.events.append(Event(kind, text, data, False))

    def name(self, space: str) -> str:
        s = self.board.spaces.get(space)
        return s.name if s else space

    def find(self, word: str, rule: str) -> str:
        s = self.board.find(word)
        if s is None:
            raise refuse(rule, f"There is no space called {word!r} on the board.")
        return s.id

    # -- units -----------------------------------------------------------------

    def units_at(self, space: str) -> list[Unit]:
        return [u for u in self.state.units if u.at == space]

    def mine(self, u: Unit) -> bool:
        """A unit the active power moves and attacks with: its own, and for the US the Free
        French, who act as US units on its turn (L1083)."""
        return u.power == self.state.power or (self.state.power == "us" and u.power == "free_french")

    def standing(self, space: str) -> list[Unit]:
        """The units in ``space`` other than attacking air units still in the air (L853)."""
        return [u for u in self.state.units if u.at == space and not u.airborne]

    @staticmethod
    def is_combat(u: Unit) -> bool:
        """Trucks are logistical units, not combat units (Trucks, L1215)."""
        return chart()[u.type].combat

    @staticmethod
    def kind(u: Unit) -> str:
        return chart()[u.type].kind

    # -- friendly, hostile, neutral (L497-501) ----------------------------------

    def controller(self, territory: str) -> str | None:
        """The power whose marker is on ``territory``; a permanent emblem counts as one (L475)."""
        sp = self.board.spaces[territory]
        if sp.permanent:
            return sp.permanent
        return self.state.control.get(territory)

    def hostile(self, space: str, side: str) -> bool:
        """Hostile: an enemy control marker and/or enemy combat units (L499). In a sea zone
        only enemy surface warships and air units make it hostile (Sea Zones, L509)."""
        sp = self.board.spaces[space]
        if sp.kind == "sea":
            for u in self.units_at(space):
                info = chart()[u.type]
                if SIDE[u.power] != side and (
                    info.kind == "air" or (info.kind == "sea" and info.type != "submarine")
                ):
                    return True
            return False
        owner = self.controller(space)
        if owner is not None and SIDE[owner] != side:
            return True
        return any(SIDE[u.power] != side and self.is_combat(u) for u in self.standing(space))

    def friendly(self, space: str, side: str) -> bool:
        """Friendly: a marker and/or combat units of the side, and not hostile (L498)."""
        if self.hostile(space, side):
            return False
        owner = self.controller(space)
        if owner is not None and SIDE[owner] == side:
            return True
        return any(SIDE[u.power] == side and self.is_combat(u) for u in self.standing(space))

    def neutral(self, space: str) -> bool:
        """Neither a control marker nor combat units (L501)."""
        return self.controller(space) is None and not any(
            self.is_combat(u) for u in self.standing(space)
        )

    def enemy_combat_units(self, space: str, side: str) -> list[Unit]:
        return [u for u in self.standing(space) if SIDE[u.power] != side and self.is_combat(u)]

    # -- supply (Supply Tokens, L696-704) ----------------------------------------

    def supply_usable(self, territory: str, side: str) -> bool:
        """Tokens in a territory controlled by and/or holding combat units of a power are
        that side's alone; tokens in a neutral territory are anybody's (L700)."""
        return self.friendly(territory, side) or self.neutral(territory)

    # -- stacking (L487-491) ------------------------------------------------------

    def stacked(self, territory: str, side: str) -> int:
        """Combat land and air units of ``side`` counting against the stacking limit:
        trucks and tokens do not count (L489)."""
        return sum(
            1
            for u in self.standing(territory)
            if SIDE[u.power] == side and self.is_combat(u) and self.kind(u) in ("land", "air")
        )

    def limit(self, territory: str) -> int:
        return self.board.stacking_limit(territory, pack.load_tables().limits["default_stacking_limit"])

    # -- scenario ---------------------------------------------------------------

    def scenario(self) -> pack.Scenario:
        return next(s for s in pack.load_setup().scenarios if s.id == self.state.scenario)

    def mat_open(self, side: str) -> bool:
        """Whether ``side`` may enter Morocco, Algeria and Tunisia this round (L477, L1006-1046)."""
        for e in self.scenario().mat_entry:
            if e.from_round <= self.state.round <= e.to_round:
                return side in e.sides
        return True

    def who(self, power: str) -> str:
        return POWER_NAME[power]
