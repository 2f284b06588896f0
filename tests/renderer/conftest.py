"""Shared pieces for the renderer tests: the small test map and hand-built views."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.core import datapack
from engine.core.hexmap import MapPack
from engine.core.view import (
    ArrowView,
    BoxView,
    CounterView,
    HexMapView,
    MarkerView,
    SideView,
    StackView,
)
from renderer import Board

TEST_MAP = Path(__file__).parent / "data" / "pfv" / "map.json"


@pytest.fixture(scope="session")
def board() -> Board:
    """Forty-one invented hexes holding every terrain, hexside type, feature and region of
    the Patton's First Victory pack."""
    return Board.from_pack(datapack.load_file(TEST_MAP, MapPack))


def piece(
    id_: str, side: str, name: str, symbol: str = "infantry", kind: str = "unit", **kw
) -> CounterView:
    if kind == "unit":
        kw.setdefault("combat", 4)
        kw.setdefault("move", 4)
    elif kind == "support":
        kw.setdefault("modifier", 2)
        kw.setdefault("move", 4)
    else:
        kw.setdefault("modifier", 2)
        kw.setdefault("range", 6)
    return CounterView(id=id_, side=side, kind=kind, name=name, symbol=symbol, **kw)


PANZER = piece("10pz", "axis", "10th Panzer", "armor", combat=6, move=6)
FLAK = piece("flak88", "axis", "88s", "antitank", kind="support", modifier=2)
STUKAS = piece("stg3", "axis", "Stukas", "air", kind="air", modifier=3, range=12)
TIGERS = piece("tigers", "axis", "Tigers", "armor", kind="support", modifier=3)
PARA = piece("para", "allied", "Para. Brigade", "airborne", combat=3, move=3)
ARMOURED = piece(
    "1arm", "allied", "1st Armored", "armor", combat=2, move=6, reduced=True, tags=["ii_corps"]
)
PATTON = piece("patton", "allied", "Patton", "general", kind="support", tags=["general"])


def make_view(
    viewer: str | None = "axis",
    axis_stack: list[CounterView] | None = None,
    axis_count: int = 3,
    **changes,
) -> HexMapView:
    """A mid-turn view of the test map. ``axis_stack`` is what the viewer sees of the Axis
    stack in 1405 (all three pieces by default) and ``axis_count`` how many are there."""
    seen = [PANZER, FLAK, STUKAS] if axis_stack is None else axis_stack
    fields = dict(
        game="pfv",
        viewer=viewer,
        title="Patton's First Victory",
        turn=3,
        turn_label="Turn 3 of 6: 24 Feb 43",
        phase="Allied combat",
        active_role="axis",
        prompt="Axis: retreat 10th Panzer two hexes, or lose a step.",
        sides=[SideView(id="axis", name="Axis"), SideView(id="allied", name="Allied")],
        stacks=[
            StackView(hex="1202", side="allied", counters=[PARA], count=1),
            StackView(hex="1304", side="allied", counters=[ARMOURED, PATTON], count=2),
            StackView(
                hex="1405",
                side="axis",
                counters=seen,
                count=axis_count,
                hidden=len(seen) < axis_count,
            ),
        ],
        boxes=[
            BoxView(id="rtb-axis", title="Axis Return to Base", side="axis", counters=[]),
            BoxView(
                id="dead-allied",
                title="Allied eliminated",
                side="allied",
                counters=[piece("34inf", "allied", "34th Infantry")],
            ),
        ],
        arrows=[
            ArrowView(kind="move", side="allied", path=["1202", "1203", "1204", "1304"]),
            ArrowView(kind="attack", side="allied", path=["1304", "1405"], label="-5"),
        ],
        markers=[MarkerView(hex="1405", kind="hit", text="9")],
        control={"1302": "axis", "1202": "allied"},
    )
    fields.update(changes)
    return HexMapView(**fields)
