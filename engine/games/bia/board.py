"""The static game of Blocks in Afrika as the rules read it: the data pack with the
look-ups every phase needs (terrain, hexsides, red arrows, rails, roads, ports, the
Strategic Map and the blocks' printed values).

Rulebook line numbers (``L123``) refer to ``shared/rules/003_19684674ce068529.txt``.
"""

from __future__ import annotations

from functools import cached_property

from engine.games.bia import pack as bia_pack
from engine.games.bia.pack import Block, Pack, neighbours

AXIS = "axis"
ALLIED = "allied"
SIDES = (AXIS, ALLIED)
SIDE_NAME = {AXIS: "Axis", ALLIED: "Allied"}

#: the short nation tag of an anonymous token (the block colour is public, 1.3, L162-172)
TOKEN_TAG = {
    "germany": "DE",
    "italy": "IT",
    "vichy": "VF",
    "persia": "PE",
    "iraq": "IQ",
    "uk": "UK",
    "free_france": "FF",
    "usa": "US",
    "turkey": "TR",
}


def enemy(side: str) -> str:
    return ALLIED if side == AXIS else AXIS


class Board:
    """The pack and the derived tables. Built once per process; never changed."""

    def __init__(self, pack: Pack | None = None) -> None:
        self.pack = pack or bia_pack.load()

    @cached_property
    def version(self) -> str:
        p = self.pack
        return "+".join(f"{name}:{getattr(p, name).header.version}" for name in bia_pack.FILES)

    # -- hexes and hexsides -----------------------------------------------------

    def hex(self, hex_id: str):
        return self.pack.hexes.get(hex_id)

    @cached_property
    def hexside_features(self) -> dict[frozenset[str], tuple[str, ...]]:
        """Features of each hexside (river, yellow border, deep water), by its two hexes."""
        return {frozenset(s.between): tuple(s.features) for s in self.pack.map.hexsides}

    def features(self, a: str, b: str) -> tuple[str, ...]:
        return self.hexside_features.get(frozenset((a, b)), ())

    @cached_property
    def straits(self) -> dict[frozenset[str], str]:
        """The red arrows across straits (7.5.3, L1370-1375), by their two hexes."""
        return {
            frozenset(link.between): link.name
            for link in self.pack.map.links
            if link.kind == "strait"
        }

    def adjacent(self, h: str) -> tuple[str, ...]:
        """The map hexes one step from ``h``: the six neighbours on the map and the far
        end of any strait arrow (7.5.3). Worked out once per hex (movement and supply
        ask it hundreds of thousands of times a game)."""
        found = self._adjacent.get(h)
        if found is None:
            out = [n for n in neighbours(h) if n in self.pack.hexes]
            out += [next(iter(pair - {h})) for pair in self.straits if h in pair]
            found = self._adjacent[h] = tuple(out)
        return found

    @cached_property
    def _adjacent(self) -> dict[str, tuple[str, ...]]:
        return {}

    def is_land(self, h: str) -> bool:
        """A hex a ground unit may stand on: land, playable (partial hexes are not,
        Tehran excepted, 7.5.2 L1362-1363), not the Chotts or Qattara (L1364-1366)."""
        x = self.hex(h)
        if x is None or not x.playable:
            return False
        row = self.pack.tables.terrain.get(x.terrain)
        return bool(row and row.land and row.mp is not None)

    def in_afrika(self, h: str) -> bool:
        """AFRIKA is Africa and the Middle East (L332-351): a hex of a country in either
        region (Turkey and Egypt belong to two)."""
        country = self.hex(h).country
        row = self.pack.map.countries.get(country) if country else None
        return row is not None and bool({"africa", "middle_east"} & set(row.regions))

    # -- rails, roads and ports ---------------------------------------------------

    @cached_property
    def rail_hexes(self) -> set[str]:
        return {h for line in self.pack.map.rails for h in line.hexes}

    @cached_property
    def road_hexes(self) -> set[str]:
        return {h for line in self.pack.map.roads for h in line.hexes}

    @cached_property
    def line_links(self) -> dict[str, set[str]]:
        """Hex -> the hexes next to it along a railway or road (4.2: the network)."""
        out: dict[str, set[str]] = {}
        for line in [*self.pack.map.rails, *self.pack.map.roads]:
            for a, b in zip(line.hexes, line.hexes[1:], strict=False):
                out.setdefault(a, set()).add(b)
                out.setdefault(b, set()).add(a)
        return out

    @cached_property
    def ports(self) -> dict[str, tuple[str, ...]]:
        """Port hex -> the bodies of water it lies on (3.4.2, L373-380)."""
        return {h.id: tuple(h.bodies) for h in self.pack.map.hexes if h.port}

    # -- blocks -------------------------------------------------------------------

    def block(self, block_id: str) -> Block:
        return self.pack.blocks[block_id]

    def side_of_power(self, power: str) -> str:
        return self.pack.units.powers[power].side

    def fire_key(self, block: Block) -> str:
        """The firepower row (Play Aid) a block's movement comes from."""
        if block.kind in self.pack.tables.firepower:
            return block.kind
        rule = self.pack.tables.unit_kinds.get(block.kind, {})
        return rule.get("as", "infantry")

    def main_sources(self, power: str) -> list[str]:
        """A power's main supply sources: its capital box on the Strategic Map (Rome,
        Berlin, London, 4.1 L671-677) or its capitals on the map (Tehran, Ankara...)."""
        boxes = [
            f"box:{key}"
            for key, box in self.pack.strategic.boxes.items()
            if box.capital and box.power == power
        ]
        p = self.pack.units.powers[power]
        on_map = [self.pack.places[c] for c in [p.capital, *p.capitals] if c in self.pack.places]
        on_map += [
            self.pack.places[c] for c in p.capitals_by_territory.values() if c in self.pack.places
        ]
        return boxes + on_map
