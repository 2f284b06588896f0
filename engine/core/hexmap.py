"""A hex map as data: terrain per hex, features on hexes and hexsides, roads.

This schema is shared by every hex game and by the renderer; a game adds its own rules
about what the features mean. Terrain and hexside types carry the numbers of the printed
terrain chart (movement cost, combat modifier), so a transcribed chart drops in as data.
"""

from __future__ import annotations

from functools import cached_property

from pydantic import BaseModel, ConfigDict, field_validator

from engine.core.datapack import PackFile
from engine.core.hexgrid import HexGrid, hexside, is_hex_id, neighbours_of


class TerrainType(BaseModel):
    """A row of the terrain chart. ``mp=None`` means the terrain may not be entered."""

    model_config = ConfigDict(extra="forbid")

    name: str
    mp: float | None = 1
    drm: int = 0
    land: bool = True


class HexsideType(BaseModel):
    """A hexside feature: extra MP to cross (``None``: may not be crossed) and its DRM."""

    model_config = ConfigDict(extra="forbid")

    name: str
    mp: float | None = 0
    drm: int = 0


class FeatureType(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: str
    description: str = ""


class MapHex(BaseModel):
    model_config = ConfigDict(extra="forbid")

    id: str
    terrain: list[str]
    region: str | None = None
    name: str | None = None
    features: list[str] = []

    @field_validator("id")
    @classmethod
    def _four_digits(cls, v: str) -> str:
        if not is_hex_id(v):
            raise ValueError(f"{v!r} is not a four-digit CCRR hex number")
        return v


class MapHexside(BaseModel):
    model_config = ConfigDict(extra="forbid")

    between: tuple[str, str]
    features: list[str]


class Grid(BaseModel):
    model_config = ConfigDict(extra="forbid")

    first_col: int
    last_col: int
    first_row: int
    last_row: int
    hex_miles: float | None = None


class MapPack(PackFile):
    """``map.json`` of a hex game."""

    grid: Grid
    regions: dict[str, str] = {}
    terrain: dict[str, TerrainType]
    hexside_types: dict[str, HexsideType] = {}
    feature_types: dict[str, FeatureType] = {}
    hexes: list[MapHex]
    hexsides: list[MapHexside] = []
    roads: list[list[str]] = []


class HexMap:
    """Fast lookups over a validated :class:`MapPack`."""

    def __init__(self, pack: MapPack) -> None:
        self.pack = pack
        self.hex: dict[str, MapHex] = {h.id: h for h in pack.hexes}
        self.grid = HexGrid(self.hex)
        self.terrain_types = pack.terrain
        self.side_features: dict[str, frozenset[str]] = {}
        for side in pack.hexsides:
            key = hexside(*side.between)
            self.side_features[key] = self.side_features.get(key, frozenset()) | frozenset(
                side.features
            )
        self.road_sides: set[str] = set()
        for chain in pack.roads:
            for a, b in zip(chain, chain[1:], strict=False):
                self.road_sides.add(hexside(a, b))
        self.features: dict[str, frozenset[str]] = {h.id: frozenset(h.features) for h in pack.hexes}
        # unknown terrain counts as land here; problems() reports it by name
        self.land: dict[str, bool] = {
            h.id: all(pack.terrain[t].land for t in h.terrain if t in pack.terrain) for h in pack.hexes
        }

    @cached_property
    def road_hexes(self) -> frozenset[str]:
        return frozenset(h for side in self.road_sides for h in side.split("|"))

    def has(self, hex_id: str, feature: str) -> bool:
        return feature in self.features.get(hex_id, ())

    def hexes_with(self, feature: str) -> list[str]:
        return sorted(h for h, f in self.features.items() if feature in f)

    def region(self, hex_id: str) -> str | None:
        h = self.hex.get(hex_id)
        return h.region if h else None

    def sides_of(self, a: str, b: str) -> frozenset[str]:
        return self.side_features.get(hexside(a, b), frozenset())

    def problems(self) -> list[str]:
        """Consistency problems a loader can report (unknown names, non-adjacent sides)."""
        out = []
        p = self.pack
        for h in p.hexes:
            for t in h.terrain:
                if t not in p.terrain:
                    out.append(f"hex {h.id}: unknown terrain {t!r}")
            for f in h.features:
                if f not in p.feature_types:
                    out.append(f"hex {h.id}: unknown feature {f!r}")
            if h.region is not None and p.regions and h.region not in p.regions:
                out.append(f"hex {h.id}: unknown region {h.region!r}")
        if len(self.hex) != len(p.hexes):
            out.append("some hex numbers appear twice")
        for s in p.hexsides:
            a, b = s.between
            if a not in self.hex or b not in self.hex:
                out.append(f"hexside {a}|{b}: a hex is not on the map")
            elif b not in neighbours_of(a):
                out.append(f"hexside {a}|{b}: the hexes are not adjacent")
            for f in s.features:
                if f not in p.hexside_types:
                    out.append(f"hexside {a}|{b}: unknown feature {f!r}")
        for i, chain in enumerate(p.roads):
            for a, b in zip(chain, chain[1:], strict=False):
                if a not in self.hex or b not in self.hex:
                    out.append(f"road {i}: {a}-{b} leaves the map")
                elif b not in neighbours_of(a):
                    out.append(f"road {i}: {a} and {b} are not adjacent")
        return out
