"""Views of the A&A Revised board for the area-map tests and the benchmark.

The opening comes from the data pack (:func:`renderer.areaview.opening_view`); the middle
game below is that opening with a scripted round and a half of play applied by hand
(no rules engine yet): captured territories, crowded and contested sea zones, several
powers sharing a territory, a built industrial complex, two-digit stacks, and a list of
battles.
"""

from __future__ import annotations

from renderer.areaview import AreaMapView, BattleView, SeaZoneView, TerritoryView, opening_view


def midgame_view(viewer: str | None = None) -> AreaMapView:
    view = opening_view(viewer)
    t, sz = view.territories, view.sea_zones

    def land(space: str, owner: str | None, **units: dict[str, int]) -> None:
        t[space] = TerritoryView(
            owner=owner, units=units, industrial_complex=t[space].industrial_complex
        )

    def sea(space: str, **units: dict[str, int]) -> None:
        sz[space] = SeaZoneView(units=units)

    land(
        "karelia_ssr",
        "germany",
        germany={"infantry": 4, "artillery": 1, "tank": 3, "fighter": 2},
    )
    land("west_russia", "ussr", ussr={"infantry": 6, "artillery": 2, "tank": 2})
    land(
        "russia",
        "ussr",
        ussr={"infantry": 12, "artillery": 3, "tank": 4, "aa_gun": 1, "fighter": 2},
        uk={"fighter": 2},
    )
    land("libya", "uk", uk={"infantry": 2, "tank": 1})
    land("anglo_egypt", "uk", uk={"infantry": 3, "artillery": 1, "fighter": 1})
    land("china", "japan", japan={"infantry": 4, "fighter": 1})
    land("india", "uk", uk={"infantry": 5, "artillery": 1, "aa_gun": 1})
    t["india"].industrial_complex = True
    land(
        "united_kingdom",
        "uk",
        uk={"infantry": 4, "artillery": 1, "tank": 1, "aa_gun": 1, "fighter": 2, "bomber": 1},
        usa={"infantry": 2, "tank": 2},
    )
    land(
        "germany",
        "germany",
        germany={
            "infantry": 7,
            "artillery": 2,
            "tank": 4,
            "aa_gun": 1,
            "fighter": 3,
            "bomber": 1,
        },
    )
    land("eastern_europe", "germany", germany={"infantry": 5, "tank": 2})
    land("ukraine_ssr", "germany", germany={"infantry": 2, "tank": 1})
    sea(
        "sz7",
        uk={"battleship": 1, "destroyer": 2, "carrier": 1, "fighter": 2, "transport": 2},
        usa={"destroyer": 1, "transport": 2},
    )
    sea("sz5", germany={"destroyer": 1, "transport": 2})
    sea(
        "sz35",
        japan={"battleship": 2, "carrier": 2, "fighter": 4, "destroyer": 1, "transport": 3},
        uk={"submarine": 1},
    )
    sea("sz2")
    sea("sz8", germany={"submarine": 3})
    view.round = 3
    view.power = "germany"
    view.phase = "Noncombat Move"
    view.income = {"ussr": 22, "germany": 43, "uk": 29, "japan": 36, "usa": 42}
    view.bank = {"ussr": 4, "germany": 12, "uk": 0, "japan": 7, "usa": 19}
    view.battles = [
        BattleView(
            territory="karelia_ssr",
            text="Germany captured it; the Soviet Union lost 3 infantry and a fighter, "
            "Germany 2 infantry.",
        ),
        BattleView(territory="sz7", text="The Allied fleet held; Germany lost 2 submarines."),
        BattleView(territory="anglo_egypt", text="United Kingdom held; Germany lost 2 tanks."),
        BattleView(territory="West Russia", text="Soviet Union held; Germany lost 4 infantry."),
    ]
    return view
