"""The board and unit table as the turn engine reads them: an adapter over the data pack
(:mod:`engine.games.aa_revised.pack`), computed once.

Revised: Spaces on the Game Board. Neutral territories are impassable to everyone,
aircraft included, so they are left out of every graph here. Land units move along
land borders, ships between sea zones, aircraft along any border (FAQ: Movement, canals
and aircraft). The Panama and Suez canals are sea-zone links that only a side holding
the canal at the start of its turn may sail (Revised: Canals); the Strait of Gibraltar
is an ordinary link (FAQ: Map).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache

from engine.games.aa_revised import pack
from engine.games.aa_revised.battle import unit_stats

#: unit types in the order the view and the legal-order list show them
UNIT_ORDER = (
    "infantry", "artillery", "tank", "aa_gun", "industrial_complex", "fighter", "bomber",
    "battleship", "destroyer", "carrier", "transport", "submarine",
)  # fmt: skip

#: the short names used when the engine writes an order back as text
SHORT = {
    "infantry": "inf", "artillery": "art", "tank": "arm", "aa_gun": "aa",
    "industrial_complex": "ic", "fighter": "ftr", "bomber": "bmb", "battleship": "bb",
    "destroyer": "dd", "carrier": "cv", "transport": "trn", "submarine": "sub",
}  # fmt: skip


@dataclass
class Geography:
    version: str
    names: dict[str, str]
    kind: dict[str, str]
    land: frozenset[str]
    sea: frozenset[str]
    neutral: frozenset[str]
    ipc: dict[str, int]
    original: dict[str, str]
    capital: dict[str, str]  # power -> territory
    capital_of: dict[str, str]  # territory -> power
    victory_city: dict[str, str]  # territory -> city name
    island: frozenset[str]
    start_ics: tuple[str, ...]
    land_adj: dict[str, tuple[str, ...]]
    sea_adj: dict[str, tuple[str, ...]]
    #: territory -> adjacent sea zones; sea zone -> adjacent (passable) territories
    coast: dict[str, tuple[str, ...]]
    air_adj: dict[str, tuple[str, ...]]
    #: frozenset of two sea zones -> the territories that control the canal between them
    canals: dict[frozenset[str], tuple[str, ...]]
    canal_names: dict[frozenset[str], str]

    def name(self, space: str) -> str:
        return self.names.get(space, space)

    def is_sea(self, space: str) -> bool:
        return space in self.sea

    def is_land(self, space: str) -> bool:
        return space in self.land

    def find(self, word: str) -> str | None:
        s = pack.load_board().find(word)
        if s is None:
            return None
        return s.id

    def air_distances(self, start: str) -> dict[str, int]:
        return _air_distances(start)


@cache
def geography() -> Geography:
    board = pack.load_board()
    spaces = board.spaces
    neutral = frozenset(s.id for s in board.land() if s.impassable)
    land = frozenset(s.id for s in board.land() if not s.impassable)
    sea = frozenset(s.id for s in board.sea())
    canals = {}
    canal_names = {}
    for c in board.pack.canals:
        key = frozenset(c.sea_zones)
        canals[key] = tuple(c.controlled_by)
        canal_names[key] = c.name

    def adj(sid: str, allowed: frozenset[str]) -> tuple[str, ...]:
        return tuple(sorted(n for n in board.neighbours(sid) if n in allowed))

    land_adj = {t: adj(t, land) for t in land}
    sea_adj = {z: adj(z, sea) for z in sea}
    coast = {t: adj(t, sea) for t in land}
    coast.update({z: adj(z, land) for z in sea})
    passable = land | sea
    air_adj = {s: adj(s, passable) for s in passable}
    return Geography(
        version=board.pack.header.version,
        names={s.id: s.name for s in spaces.values()},
        kind={s.id: s.kind for s in spaces.values()},
        land=land,
        sea=sea,
        neutral=neutral,
        ipc={s.id: s.ipc for s in spaces.values()},
        original={s.id: s.original_owner for s in spaces.values() if s.original_owner},
        capital={s.capital_of: s.id for s in spaces.values() if s.capital_of},
        capital_of={s.id: s.capital_of for s in spaces.values() if s.capital_of},
        victory_city={s.id: s.victory_city for s in spaces.values() if s.victory_city},
        island=frozenset(s.id for s in spaces.values() if s.island),
        start_ics=tuple(sorted(s.id for s in spaces.values() if s.industrial_complex)),
        land_adj=land_adj,
        sea_adj=sea_adj,
        coast=coast,
        air_adj=air_adj,
        canals=canals,
        canal_names=canal_names,
    )


@cache
def _air_distances(start: str) -> dict[str, int]:
    """Spaces entered to fly from ``start`` to each space (Appendix 1, Air Units: every
    space entered after take-off counts, islands and their sea zones separately)."""
    g = geography()
    dist = {start: 0}
    queue = deque([start])
    while queue:
        s = queue.popleft()
        for n in g.air_adj[s]:
            if n not in dist:
                dist[n] = dist[s] + 1
                queue.append(n)
    return dist


def multi_source_distances(
    starts: Iterable[str], adjacency: dict[str, tuple[str, ...]]
) -> dict[str, int]:
    """Shortest number of steps from the nearest of ``starts`` to every space."""
    dist: dict[str, int] = {}
    queue: deque[str] = deque()
    for s in starts:
        if s not in dist:
            dist[s] = 0
            queue.append(s)
    while queue:
        s = queue.popleft()
        d = dist[s] + 1
        for n in adjacency.get(s, ()):
            if n not in dist:
                dist[n] = d
                queue.append(n)
    return dist


# ------------------------------------------------------------------ units


@dataclass(frozen=True)
class UnitInfo:
    id: str
    name: str
    plural: str
    kind: str
    cost: int
    movement: int
    transport_cost: int | None
    transport_capacity: int
    carrier_capacity: int
    flags: frozenset[str]


@cache
def units() -> dict[str, UnitInfo]:
    out = {}
    for u in pack.load_units().units:
        out[u.id] = UnitInfo(
            u.id, u.name, u.plural, u.kind, u.cost, u.movement, u.transport_cost,
            u.transport_capacity, u.carrier_capacity, frozenset(u.flags),
        )  # fmt: skip
    return out


@cache
def movement_changes() -> dict[str, dict[str, int]]:
    """tech id -> unit type -> movement, from the weapons development table."""
    out: dict[str, dict[str, int]] = {}
    for tech in pack.load_tables().techs:
        for uid, change in tech.units.items():
            if change.movement is not None:
                out.setdefault(tech.id, {})[uid] = change.movement
    return out


@cache
def _unit_words() -> dict[str, str]:
    out: dict[str, str] = {}
    for u in pack.load_units().units:
        for word in (u.id, u.name, u.plural, *u.aliases):
            out[_key(word)] = u.id
    for uid, short in SHORT.items():
        out[_key(short)] = uid
    return out


def find_unit_type(word: str) -> str | None:
    """The unit type a player means by ``word`` (``inf``, ``arm``, ``Bombers``...)."""
    return _unit_words().get(_key(word))


def _key(word: str) -> str:
    return "".join(ch for ch in word.lower() if ch.isalnum())


def stats(techs: Iterable[str]):
    """The combat table of :mod:`battle` with ``techs`` applied."""
    return unit_stats(frozenset(techs))


@cache
def techs_by_word() -> dict[str, str]:
    out = {}
    for t in pack.load_tables().techs:
        out[_key(t.id)] = t.id
        out[_key(t.name)] = t.id
        out[str(t.die)] = t.id
    extra = {
        "jet": "jet_fighters", "jets": "jet_fighters", "rocket": "rockets",
        "supersubs": "super_submarines", "supersub": "super_submarines",
        "longrange": "long_range_aircraft", "lra": "long_range_aircraft",
        "combined": "combined_bombardment", "bombardment": "combined_bombardment",
        "heavy": "heavy_bombers", "hb": "heavy_bombers",
    }  # fmt: skip
    out.update(extra)
    return out
