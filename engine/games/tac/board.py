"""The map and the order of battle of The African Campaign, read once from the data pack.

:class:`Board` answers the questions the rules ask of the map: what a hex is, whether a
hexside may be crossed (TAC 8.2.7), whether two hexes are joined by a road (8.3), which
passes there are (8.2.5) and which hexes a unit controls (4.1, 4.2).
"""

from __future__ import annotations

from itertools import pairwise

from engine.core.hexgrid_rows import neighbours
from engine.games.tac import pack

#: the Allied Home Base, where Allied reinforcements land (TAC 12.4)
HOME = {"allied": "home_base"}


class Board:
    def __init__(
        self,
        m: pack.MapPack | None = None,
        t: pack.TablesPack | None = None,
        turns: pack.TurnsPack | None = None,
        oob: pack.OobPack | None = None,
    ) -> None:
        self.map = m or pack.load_map()
        self.tables = t or pack.load_tables()
        self.turns = {x.turn: x for x in (turns or pack.load_turns()).turns}
        self.oob = oob or pack.load_oob()
        self.hex = {h.id: h for h in self.map.hexes}
        self.prohibited = {
            frozenset(s.between) for s in self.map.hexsides if "prohibited" in s.features
        }
        self.road = {frozenset(p) for r in self.map.roads for p in pairwise(r.hexes)}
        self.passes = list(self.map.passes)
        self.units = {u.id: u for u in self.oob.units}
        #: the city hexes (TAC 13.3)
        self.cities = sorted(h for h, x in self.hex.items() if "city" in x.features)
        self.west_edge = sorted(
            h for h in self.hex if int(h[2:]) == self.map.grid.first_col and self.playable(h)
        )
        self.east_edge = sorted(
            h for h in self.hex if int(h[2:]) == self.map.grid.last_col and self.playable(h)
        )
        #: eastern edge hexes where a road runs off the map (8.6.1: 1/5 MP to exit there)
        self.road_exits = {
            end
            for r in self.map.roads
            for end in (r.hexes[0], r.hexes[-1])
            if end in self.east_edge
        }
        self.version = "/".join(
            f"{p.header.name}-{p.header.version}"
            for p in (self.map, self.tables, turns or pack.load_turns(), self.oob)
        )

    # -- hexes ---------------------------------------------------------------------------

    def playable(self, h: str) -> bool:
        """Whether ``h`` is part of the playing area (sea and the Qattara Depression are not)."""
        x = self.hex.get(h)
        return x is not None and x.terrain not in ("sea", "offmap")

    def terrain(self, h: str) -> str:
        return self.hex[h].terrain

    def has(self, h: str, feature: str) -> bool:
        x = self.hex.get(h)
        return x is not None and feature in x.features

    def name(self, h: str) -> str:
        x = self.hex.get(h)
        return f"{h} ({x.name})" if x is not None and x.name else h

    def home_base(self, side: str) -> str | None:
        """The hex of a side's on-map Home Base: Alexandria for the Allies (TAC 12.4);
        the Axis Home Base, Tripoli, is off the map (12.3)."""
        if side != "allied":
            return None
        return next((h for h, x in sorted(self.hex.items()) if "home_base" in x.features), None)

    # -- hexsides ------------------------------------------------------------------------

    def crossable(self, a: str, b: str) -> bool:
        """Whether a unit may cross from ``a`` to the adjacent ``b``: ``b`` is in the
        playing area and the hexside is not prohibited (TAC 8.2.7)."""
        return b in neighbours(a) and self.playable(b) and frozenset((a, b)) not in self.prohibited

    def is_road(self, a: str, b: str) -> bool:
        """Whether the hexside between ``a`` and ``b`` is a road hexside (TAC 8.3.1)."""
        return frozenset((a, b)) in self.road

    def pass_between(self, end: str, pass_hex: str) -> pack.Pass | None:
        """The pass whose hex ``pass_hex`` is entered from its end ``end`` (TAC 8.2.5)."""
        for p in self.passes:
            if pass_hex in p.hexes and end in p.ends:
                return p
        return None

    # -- zones of control ----------------------------------------------------------------

    def zoc(self, h: str) -> list[str]:
        """The hexes a combat unit in ``h`` controls (TAC 4.1, 4.2): the six around it,
        none into or out of a Fort hex, none across a prohibited hexside."""
        if self.has(h, "fort"):
            return []
        return [n for n in neighbours(h) if self.crossable(h, n) and not self.has(n, "fort")]

    # -- units ---------------------------------------------------------------------------

    def values(self, unit_id: str, step: int) -> tuple[int, int, int]:
        """``(attack, defence, movement)`` of a unit at ``step`` (0 = full strength)."""
        return pack.step_values(self.units[unit_id].steps[step])

    def stacking(self, unit_id: str) -> float:
        """Divisions the unit counts for stacking (TAC 5.1.1)."""
        return pack.stacking_value(self.units[unit_id].size)
