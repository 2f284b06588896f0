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

from pydantic import BaseModel, ConfigDict, Field

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


class SeaZoneView(_View):
    """One sea zone and whose units are in it (fighters on carriers included)."""

    units: UnitCounts = {}


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
