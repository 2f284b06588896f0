"""The Bad Weather chit on the map (18.7, L831, L877; RULINGS R62): once played it is
public, so every map marks its hex and says the area in the panel, for as long as it is
in force and no longer."""

from __future__ import annotations

from engine.games.tac.state import ALLIED, AXIS
from renderer.rows import render
from tests.tac.kit import R, go, put
from tests.tac.test_events import BAD_WEATHER, game


def test_every_map_marks_the_bad_weather_while_it_is_in_force():
    s = game(AXIS, turn_=20, phase="reinforce", allied=[BAD_WEATHER])
    put(s, "ge_21pz", "1726")
    for role in (None, ALLIED, AXIS):
        assert not [m for m in R.view(s, role).markers if m.kind == "weather"]
    s, _ = go(s, ALLIED, "play bad-weather 1726", dice=[1])
    for role in (None, ALLIED, AXIS):
        v = R.view(s, role)
        assert [m.hex for m in v.markers if m.kind == "weather"] == ["1726"]
        assert any("Bad Weather (18.7) within 3 hexes of 1726" in n for n in v.notes)
    drawn = render(R.view(s, None))
    assert [m.hex for m in drawn.markers if m.kind == "weather"] == ["1726"]
    assert any("Bad Weather" in line for line in drawn.legend)
    s.player = ALLIED  # the Axis player turn it was played in is over
    assert not [m for m in R.view(s, None).markers if m.kind == "weather"]
    assert not any("Bad Weather" in n for n in R.view(s, None).notes)
