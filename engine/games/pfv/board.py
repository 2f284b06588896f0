"""The static board: map, counters and scenario, with the questions the rules ask of them.

Nothing here changes during a game. Questions about pieces take the state as an argument.
"""

from __future__ import annotations

from engine.core.hexmap import HexMap
from engine.games.pfv.options import Options
from engine.games.pfv.pack import Counter, CountersPack, Face, ScenarioPack, Side
from engine.games.pfv.state import ALLIED, AXIS, State

ROAD_COST = 0.5


class Board:
    def __init__(self, hexmap: HexMap, counters: CountersPack, scenario: ScenarioPack) -> None:
        self.map = hexmap
        self.grid = hexmap.grid
        self.counters: dict[str, Counter] = {c.id: c for c in counters.counters}
        self.scenario = scenario
        self.version = "/".join(
            f"{p.header.name}-{p.header.version}" for p in (hexmap.pack, counters, scenario)
        )
        self.ports = hexmap.hexes_with("port")
        self.villages = hexmap.hexes_with("village")
        self.airfields = {
            AXIS: hexmap.hexes_with("airfield_axis"),
            ALLIED: hexmap.hexes_with("airfield_allied"),
        }
        self.all_airfields = sorted(set(self.airfields[AXIS]) | set(self.airfields[ALLIED]))
        self.crest_8th = hexmap.hexes_with("crest_8th_army")
        self.crest_ii = hexmap.hexes_with("crest_ii_corps")
        self._enter_mp: dict[str, float | None] = {}
        self._drm: dict[str, int] = {}
        for h, mh in hexmap.hex.items():
            costs = [hexmap.terrain_types[t].mp for t in mh.terrain]
            self._enter_mp[h] = None if any(c is None for c in costs) else max(costs, default=1)
            self._drm[h] = max((hexmap.terrain_types[t].drm for t in mh.terrain), default=0)
        self.last_turn = scenario.turns[-1].turn
        #: memoised answers to static questions (set-up zones and the like)
        self.cache: dict[str, dict] = {}

    # -- counters --------------------------------------------------------------

    def counter(self, piece_id: str) -> Counter:
        return self.counters[piece_id]

    def face(self, piece_id: str, reduced: bool) -> Face:
        c = self.counters[piece_id]
        return c.back if reduced and c.back is not None else c.front

    def side(self, piece_id: str) -> Side:
        return self.counters[piece_id].side

    def is_unit(self, piece_id: str) -> bool:
        return self.counters[piece_id].kind in ("unit", "battlegroup")

    def is_air(self, piece_id: str) -> bool:
        return self.counters[piece_id].kind == "air"

    def is_support(self, piece_id: str) -> bool:
        """A support asset of either kind, air or ground (PFV 2)."""
        return self.counters[piece_id].kind in ("support", "air")

    def is_general(self, piece_id: str) -> bool:
        return "general" in self.counters[piece_id].tags

    def two_step(self, piece_id: str) -> bool:
        return self.counters[piece_id].back is not None

    def name(self, piece_id: str) -> str:
        return self.counters[piece_id].name

    # -- terrain (PFV 8, 11) ---------------------------------------------------

    def region(self, hex_id: str) -> str | None:
        return self.map.region(hex_id)

    def enter_cost(self, hex_id: str) -> float | None:
        """The single highest MP cost among the hex's terrain; ``None`` if prohibited (PFV 8)."""
        return self._enter_mp.get(hex_id)

    def passable(self, a: str, b: str) -> bool:
        """Whether the hexside between two adjacent hexes may be crossed (PFV 8, 11)."""
        for f in self.map.sides_of(a, b):
            if self.map.pack.hexside_types[f].mp is None:
                return False
        return True

    def enterable(self, a: str, b: str) -> bool:
        """Legally enterable land: on the map, not prohibited terrain, passable side (PFV 8)."""
        return self._enter_mp.get(b) is not None and self.passable(a, b)

    def river_unbridged(self, a: str, b: str) -> bool:
        sides = self.map.sides_of(a, b)
        return "river" in sides and "bridge" not in sides

    def step_costs(self, options: Options) -> dict[tuple[str, str], float | None]:
        """Every adjacent pair's :meth:`step_cost`, computed once per board and setting."""
        key = f"step-costs-{options.road_ignores_river}"
        if key not in self.cache:
            self.cache[key] = {
                (a, n): self.step_cost(a, n, options)
                for a in self.map.hex
                for n in self.grid.neighbours(a)
            }
        return self.cache[key]

    def step_cost(self, a: str, b: str, options: Options) -> float | None:
        """MP to step from ``a`` into adjacent ``b`` (PFV 8): half a point along a road,
        otherwise the hex's cost; plus 3 across an unbridged river."""
        enter = self._enter_mp.get(b)
        if enter is None or not self.passable(a, b):
            return None
        river = self.river_unbridged(a, b)
        if f"{a}|{b}" in self.map.road_sides or f"{b}|{a}" in self.map.road_sides:
            if river and not options.road_ignores_river:
                return ROAD_COST + self.map.pack.hexside_types["river"].mp
            return ROAD_COST
        if river:
            return enter + self.map.pack.hexside_types["river"].mp
        return enter

    def terrain_drm(self, attack_hex: str, target: str, options: Options) -> int:
        """The single highest terrain modifier: the target hex's terrain or the hexside
        crossed; the attacker's own hex never counts (PFV 11)."""
        best = max(self._drm.get(target, 0), 0)
        sides = self.map.sides_of(attack_hex, target)
        bridged = "bridge" in sides and options.bridge_negates_river_drm  # RULINGS R9
        for f in sides:
            if not (f == "river" and bridged):
                best = max(best, self.map.pack.hexside_types[f].drm)
        return best

    # -- pieces on the board ---------------------------------------------------

    def stacks(self, state: State) -> dict[str, list[str]]:
        """hex -> pieces in it, units first (the unit is the top piece: RULINGS R3)."""
        out: dict[str, list[str]] = {}
        for p in state.pieces.values():
            if p.where == "map":
                out.setdefault(p.hex, []).append(p.id)
        for pieces in out.values():
            pieces.sort(key=lambda pid: (not self.is_unit(pid), self.is_air(pid), pid))
        return out

    def occupant_side(self, stacks: dict[str, list[str]], hex_id: str) -> str | None:
        pieces = stacks.get(hex_id)
        return self.side(pieces[0]) if pieces else None

    def zoc(self, state: State, side: str) -> set[str]:
        """Hexes in the zone of control of ``side``'s units (PFV 9): the six hexes around
        each unit, whatever their terrain. Support assets project none."""
        out: set[str] = set()
        for p in state.pieces.values():
            if p.where == "map" and self.is_unit(p.id) and self.side(p.id) == side:
                out.update(self.grid.neighbours(p.hex))
        return out

    def stacking_problem(self, pieces: list[str]) -> str | None:
        """Why a set of pieces may not share a hex, or ``None`` (PFV 6; RULINGS R4)."""
        units = [p for p in pieces if self.is_unit(p)]
        ground = [p for p in pieces if self.counters[p].kind == "support"]
        air = [p for p in pieces if self.is_air(p)]
        if len(units) > 1:
            return "only one unit may stand in a hex"
        if len(air) > 1:
            return "only one air support asset may be based in a hex"
        if len(ground) > 2:
            return "at most two non-air support assets may share a hex"
        return None

    def friendly_airfields(self, state: State, side: str, options: Options) -> list[str]:
        """Airfield hexes ``side`` may use (PFV 7 phases 6-8; RULINGS R17)."""
        pool = (
            self.airfields[side] if options.airfield_use == "own_silhouette" else self.all_airfields
        )
        return [h for h in pool if state.control.get(h) == side]

    def initial_control(self) -> dict[str, str]:
        """Who controls each land hex at the start (RULINGS R17, CT-1): Algeria, the 8th Army
        and II Corps set-up hexes and the Allied airbase are Allied; the rest of Tunisia Axis."""
        control = {}
        allied_hexes = (
            set(self.crest_8th) | set(self.crest_ii) | set(self.scenario.eighth_army_hexes)
        )
        for h, mh in self.map.hex.items():
            if not self.map.land[h]:
                continue
            if mh.region == "tunisia" and h not in allied_hexes:
                control[h] = AXIS
            else:
                control[h] = ALLIED
        return control

    def ports_held(self, state: State, how: str = "occupied") -> list[str]:
        """Ports the Allies hold: occupied by an Allied unit (PFV 4), or controlled."""
        if how == "controlled":
            return [h for h in self.ports if state.control.get(h) == ALLIED]
        held = set()
        for p in state.pieces.values():
            if (
                p.where == "map"
                and p.hex in self.ports
                and self.side(p.id) == ALLIED
                and self.is_unit(p.id)
            ):
                held.add(p.hex)
        return sorted(held)
