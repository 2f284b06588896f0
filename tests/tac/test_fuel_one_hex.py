"""The one-hex move of 8.1.2 for an Axis stack short of fuel (8.2.6): it is listed only
where that one step costs no more than the fuel-free 2 MP, so that every move the menus
offer is one the movement rule accepts (random play found a listed move into a ridge hex
under Bad Weather, 3 MP, refused for want of fuel)."""

from __future__ import annotations

from engine.games.tac.state import AXIS
from tests.tac.kit import R, go, put, refused
from tests.tac.test_events import game


def _moves(s, unit: str) -> list[str]:
    return [o.text() for o in R.legal_orders(s, AXIS) if o.text().startswith(f"move {unit} ")]


def test_without_fuel_the_one_hex_move_stops_at_two_mp():
    s = game(AXIS, turn_=20, phase="move")
    put(s, "it_63", "1358")
    s.fuel = 0
    s.chits["weather"] = {"hex": "1259", "turn": s.turn, "player": AXIS}  # 1357, a ridge: 3 MP
    listed = _moves(s, "it_63")
    assert listed and "move it_63 1357" not in listed
    refused(s, AXIS, "move it_63 1357", "TAC 8.2.6")
    for text in listed:  # everything offered is accepted
        go(s.clone(), AXIS, text)
    s.fuel = 1  # with fuel the step is the one-hex move again
    assert "move it_63 1357" in _moves(s, "it_63")
