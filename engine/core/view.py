"""What a role may see of a hex-and-counter game, in a form any renderer can draw.

A ruleset's ``view(state, role)`` builds a :class:`HexMapView`; the renderer draws only
what is in it. Hidden information is left out here, never "hidden" by the renderer: a
stack an enemy may not look into carries its top counter and a count, nothing more.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel


class CounterView(BaseModel):
    """One counter as printed. ``symbol`` is a NATO-style type: ``armor``, ``infantry``,
    ``airborne``, ``mechanized``, ``battlegroup``, ``artillery``, ``antitank``, ``general``,
    ``engineer``, ``naval``, ``air``, ``marines``."""

    id: str
    side: str
    kind: Literal["unit", "support", "air"]
    name: str
    symbol: str
    combat: int | None = None
    move: int | None = None
    modifier: int | None = None
    range: int | None = None
    reduced: bool = False
    tags: list[str] = []


class StackView(BaseModel):
    """The counters in one hex, top first. ``count`` may exceed ``len(counters)`` when the
    viewer may only see the top piece."""

    hex: str
    side: str
    counters: list[CounterView]
    count: int
    hidden: bool = False


class BoxView(BaseModel):
    """An off-map box: Return to Base, eliminated pieces, reinforcements."""

    id: str
    title: str
    side: str | None = None
    counters: list[CounterView] = []


class ArrowView(BaseModel):
    kind: Literal["move", "attack", "retreat", "advance", "air", "breakthrough"]
    side: str
    path: list[str]
    label: str = ""


class MarkerView(BaseModel):
    """A result drawn on a hex: ``"hit"``, ``"miss"``, ``"eliminated"``, ``"battle"``..."""

    hex: str
    kind: str
    text: str = ""


class SideView(BaseModel):
    id: str
    name: str


class TrackView(BaseModel):
    """A track printed on the map (a turn record track, a fuel track): its spaces as
    labelled, the index of the space the marker stands on (None: off the track), and a
    few words under some spaces (``marks``: space index -> text)."""

    id: str
    title: str
    spaces: list[str]
    at: int | None = None
    marks: dict[int, str] = {}


class HexMapView(BaseModel):
    game: str
    viewer: str | None
    title: str
    turn: int
    turn_label: str
    phase: str
    active_role: str | None
    prompt: str
    sides: list[SideView]
    stacks: list[StackView]
    boxes: list[BoxView] = []
    arrows: list[ArrowView] = []
    markers: list[MarkerView] = []
    control: dict[str, str] = {}
    notes: list[str] = []
    #: tracks drawn in the panel (The African Campaign's turn record and fuel tracks)
    tracks: list[TrackView] = []
    #: the hex grid the ids are on: PFV's flat-topped odd-q columns (``CCRR``), or the
    #: pointy-topped rows of The African Campaign (``AABB``, even rows shifted) or of
    #: Blocks in Afrika (``CCRR``, odd rows shifted); the renderer draws each its own way
    grid: Literal["odd-q-CCRR", "even-r-AABB", "odd-r-CCRR"] = "odd-q-CCRR"
