"""The Turn Record Track and the Axis Fuel Track in the map's panel (issue 12, Map; TAC
6.0, 10.3 L559, 14.0 L643-651), and TAC's lines in the Discord ``/help`` guide."""

from __future__ import annotations

from engine.core.dice import ScriptedDice
from renderer.rows import render
from tests.tac.kit import R


def _state(turn: int, fuel: int):
    s = R.setup("campaign", {}, ScriptedDice([]))
    s.turn, s.fuel = turn, fuel
    return s


def test_the_view_carries_both_tracks_with_their_markers():
    v = R.view(_state(7, 5), "axis")
    turns, fuel = v.tracks
    assert (turns.id, len(turns.spaces), turns.spaces[turns.at]) == ("turns", 50, "7")
    # the Segments of the Axis table stand under the first turn of each month from Turn 3
    assert 0 not in turns.marks and 1 not in turns.marks and turns.marks[2]
    assert (fuel.id, fuel.spaces[0], fuel.spaces[-1], fuel.spaces[fuel.at]) == (
        "fuel",
        "0",
        "10",
        "5",
    )
    assert R.view(_state(7, 5), None).tracks == v.tracks  # public: the same for everyone


def test_the_panel_draws_the_markers_where_the_tracks_put_them():
    a = render(R.view(_state(7, 5), None)).image
    b = render(R.view(_state(7, 6), None)).image
    c = render(R.view(_state(8, 5), None)).image
    w, h = a.size
    panel = (0, h * 3 // 4, w, h)
    assert a.crop(panel).tobytes() != b.crop(panel).tobytes()  # the fuel marker moved
    assert a.crop(panel).tobytes() != c.crop(panel).tobytes()  # the turn marker moved
    map_part = (0, 0, w, h // 2)
    assert a.crop(map_part).tobytes() == b.crop(map_part).tobytes()


def test_help_has_a_guide_to_the_game():
    from bot.discord.cogs.guide import GUIDES, guide

    text = guide("tac")
    assert "tac" in GUIDES and "The African Campaign" in text
    for word in ("`land`", "`standing withdraw", "`/odds`", "RULINGS.md"):
        assert word in text
    assert len(text) < 2000  # one Discord message
