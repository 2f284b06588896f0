"""What a player may see of an area-map game (Axis & Allies Revised), in a form the
area-map renderer draws.

The rules engine builds an :class:`AreaMapView` for a viewer; the renderer draws only what
is in it. Until the A&A turn engine exists, :func:`opening_view` builds the view of the
game as it is set up, from the data pack (Revised: Reference Charts, starting set-up).

>>> from renderer.areaview import opening_view
>>> view = opening_view()
>>> view.territories["germany"].owner, view.territories["germany"].units["germany"]["tank"]
('germany', 2)
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, field_validator

from engine.games.aa_revised.pack import load_board, load_setup, load_tables

#: power -> unit type -> how many
UnitCounts = dict[str, dict[str, int]]


class _View(BaseModel):
    model_config = ConfigDict(extra="forbid")


class TerritoryView(_View):
    """One land territory: who controls it (``None`` for a neutral) and whose units stand
    there. An industrial complex is a flag, not a unit (it is drawn as a building)."""

    owner: str | None = None
    units: UnitCounts = {}
    industrial_complex: bool = False
    #: markers that are no unit, by the style's token name -> how many (A&A:NA: supply
    #: tokens' value, land mines)
    tokens: dict[str, int] = {}


class SeaZoneView(_View):
    """One sea zone and whose units are in it (fighters on carriers included)."""

    units: UnitCounts = {}
    #: markers that are no unit (A&A:NA: sea mines, supply on a convoy's markers)
    tokens: dict[str, int] = {}


class BattleView(_View):
    """A battle of the last turn, where it was fought and what came of it."""

    territory: str
    text: str


class AreaMapView(_View):
    """The board as ``viewer`` sees it at one moment.

    Territories and sea zones are keyed by their id in the board pack (``"eastern_canada"``,
    ``"sz12"``); a name or alias the pack knows (``"Eastern Canada"``) is accepted too.
    Powers are the pack's ids (``ussr``, ``germany``, ``uk``, ``japan``, ``usa``).
    """

    #: the game whose board, raster and style draw the view (:data:`AREA_GAMES`)
    game: str = "aa-revised"
    viewer: str | None = None
    #: the panel's heading; the style's title when empty
    title: str = ""
    round: int = 1
    #: the power whose turn it is, or ``None`` between turns
    power: str | None = None
    phase: str = ""
    #: what each power collects at the end of its turn
    income: dict[str, int] = {}
    #: IPCs each power holds now, when the viewer may know it
    bank: dict[str, int] = {}
    territories: dict[str, TerritoryView] = {}
    sea_zones: dict[str, SeaZoneView] = {}
    #: the battles of the last turn, in the order they were fought
    battles: list[BattleView] = Field(default_factory=list)
    #: short lines shown under the battles (a victory note, a hint)
    notes: list[str] = []

    @field_validator("game")
    @classmethod
    def _known_game(cls, game: str) -> str:
        if game not in AREA_GAMES:
            raise ValueError(f"there is no area map for the game {game!r}")
        return game

    def unknown_spaces(self) -> list[str]:
        """The names this view uses that its game's board has no space of that kind for
        (the renderer draws them nowhere and lists them in ``off_map``)."""
        board = area_board(self.game)
        out = []
        for kind, names in (("land", self.territories), ("sea", self.sea_zones)):
            for name in names:
                space = board.find(name)
                if space is None or space.kind != kind:
                    out.append(name)
        return out


def opening_view(viewer: str | None = None) -> AreaMapView:
    """The game as it is set up, before the Soviet Union's first turn (Revised: Game Set-up;
    the starting units are the pack's ``setup.json``). Income is the sum of the income
    values of the territories each power controls (Revised: Collect Income)."""
    board = load_board()
    territories: dict[str, TerritoryView] = {}
    sea_zones: dict[str, SeaZoneView] = {}
    for space in board.pack.spaces:
        if space.kind == "land":
            territories[space.id] = TerritoryView(
                owner=space.original_owner, industrial_complex=space.industrial_complex
            )
        else:
            sea_zones[space.id] = SeaZoneView()
    for p in load_setup().placements:
        holder = territories.get(p.space) or sea_zones[p.space]
        holder.units.setdefault(p.power, {})[p.unit] = (
            holder.units.get(p.power, {}).get(p.unit, 0) + p.count
        )
    powers = sorted(load_tables().powers, key=lambda p: p.turn_order)
    income = {
        p.id: sum(board.spaces[t].ipc for t, tv in territories.items() if tv.owner == p.id)
        for p in powers
    }
    return AreaMapView(
        viewer=viewer,
        round=1,
        power=powers[0].id,
        phase="Develop Weapons",
        income=income,
        bank={p.id: p.starting_ipcs for p in powers},
        territories=territories,
        sea_zones=sea_zones,
    )


# -- the boards of the area-map games ------------------------------------------------


@dataclass(frozen=True)
class AreaSpace:
    """A space as the area-map renderer reads it, whatever the game's own pack says:
    ``kind`` is ``land`` or ``sea``; ``ipc`` is the value printed in its badge."""

    id: str
    name: str
    kind: str
    number: int | None = None
    ipc: int = 0
    impassable: bool = False
    capital_of: str | None = None
    victory_city: str | None = None
    original_owner: str | None = None
    industrial_complex: bool = False


@dataclass(frozen=True)
class _AreaPack:
    spaces: list[AreaSpace]


class AreaBoard:
    """A game's board in the shape the renderer reads (Revised's own pack ``Board`` has
    it already): ``pack.spaces`` in the raster's order, ``spaces`` by id, ``land()``,
    ``sea()``, and ``find`` by id, name or alias through the game's own lookup."""

    def __init__(self, spaces: list[AreaSpace], find: Callable[[str], str | None]) -> None:
        self.pack = _AreaPack(spaces)
        self.spaces = {s.id: s for s in spaces}
        self._find = find

    def land(self) -> list[AreaSpace]:
        return [s for s in self.pack.spaces if s.kind == "land"]

    def sea(self) -> list[AreaSpace]:
        return [s for s in self.pack.spaces if s.kind == "sea"]

    def find(self, name: str) -> AreaSpace | None:
        sid = self._find(name)
        return self.spaces.get(sid) if sid else None


#: A&A:NA: who holds each region's land at the start (The Combatants, L273; the set-up):
#: French North Africa is Vichy, Libya Italian, Egypt British; only used to fit the
#: image palette, never drawn as control
_NA_REGION_OWNER = {
    "morocco": "vichy",
    "algeria": "vichy",
    "tunisia": "vichy",
    "libya": "ita",
    "egypt": "uk",
}


def _na_board() -> AreaBoard:
    from engine.games.aa_na.pack import load_board as na_board

    board = na_board()
    spaces = [
        AreaSpace(
            id=s.id,
            name=s.name,
            kind="land" if s.kind == "territory" else "sea",
            number=s.number,
            ipc=s.rp,
            impassable=s.impassable,
            original_owner=s.permanent or _NA_REGION_OWNER.get(s.region),
        )
        for s in board.pack.spaces
    ]

    def find(name: str) -> str | None:
        space = board.find(name)
        return space.id if space else None

    return AreaBoard(spaces, find)


_DATA = Path(__file__).resolve().parent / "data"
#: game -> (its board for the renderer, its generated space raster)
AREA_GAMES: dict[str, tuple[Callable[[], Any], Path]] = {
    "aa-revised": (load_board, _DATA / "aa-revised-map.json"),
    "aa-na": (_na_board, _DATA / "aa-na-map.json"),
}


@cache
def area_board(game: str) -> Any:
    """The board of ``game`` as the renderer reads it (read once)."""
    if game not in AREA_GAMES:
        raise ValueError(f"There is no area map for the game {game!r}.")
    return AREA_GAMES[game][0]()


def space_map_path(game: str) -> Path:
    if game not in AREA_GAMES:
        raise ValueError(f"There is no area map for the game {game!r}.")
    return AREA_GAMES[game][1]
