"""Air units (TAC 15.0-15.2, L655-667; erratum L999): how many a side has this player turn, their range, Close
Support in attacks and Interdiction of enemy stacks.
"""

from __future__ import annotations

from engine.core.errors import IllegalOrder
from engine.core.events import Event
from engine.core.hexgrid_rows import distance
from engine.games.tac import supply
from engine.games.tac.board import Board
from engine.games.tac.state import AXIS, State

#: how far an air unit reaches from its base (TAC 15.0)
RANGE = 25


def bases(b: Board, state: State, side: str) -> list[str]:
    """The cities ``side`` controls as its player turn begins (TAC 15.0: a city taken
    during the Movement Phase is no base that turn)."""
    return sorted(
        h for h, x in b.hex.items() if "city" in x.features and supply.controls(b, state, side, h)
    )


def available(b: Board, state: State) -> int:
    """Air units the phasing side may still use this player turn (TAC 15.0: the Turn
    Record Track's number; unused ones are not kept)."""
    a = b.turns[state.turn].air
    return max(0, (a.axis if state.player == AXIS else a.allied) - state.air_used)


def in_range(b: Board, state: State, h: str) -> bool:
    """Whether ``h`` lies within 25 hexes of an air base of the phasing side (TAC 15.0): a
    city it held as the turn began, or its own map edge (west for the Axis, east for the
    Allies), measured as columns to the edge."""
    g = b.map.grid
    col = int(h[2:])
    edge = col - g.first_col if state.player == AXIS else g.last_col - col
    return edge <= RANGE or any(distance(c, h) <= RANGE for c in state.air_bases)


def under_weather(b: Board, state: State, hexes: list[str]) -> list[str]:
    """The hexes of ``hexes`` under Bad Weather, where no air unit may be placed (Optional
    18.7, L831, L877)."""
    from engine.games.tac.events import weather

    wet = weather(b, state)
    return [h for h in hexes if h in wet]


def check_support(b: Board, state: State, n: int, targets: list[str]) -> None:
    """Close Support (TAC 15.1): each air unit adds 1 to an attack by ground units, all of
    a side's air units may join one attack; the defending hexes must be in range."""
    if n <= 0:
        return
    left = available(b, state)
    if n > left:
        raise IllegalOrder("TAC 15.1", f"You have {left} air unit(s) left this turn, not {n}.")
    wet = under_weather(b, state, targets)
    if wet:
        raise IllegalOrder("TAC 18.7", f"Bad Weather at {', '.join(wet)}: no air unit may be placed there (L831, L877).")
    far = [h for h in targets if not in_range(b, state, h)]
    if far:
        raise IllegalOrder(
            "TAC 15.0", f"{', '.join(far)} is beyond the 25-hex range of your air bases."
        )


def interdict(b: Board, state: State, side: str, h: str) -> Event:
    """Interdiction (TAC 15.2, erratum L999): in the friendly Movement Phase an air unit not
    used otherwise is put on an enemy stack; each of its units has half its Movement
    Allowance and no Strategic Movement in its next Movement Phase."""
    foes = [u for u in state.at(h) if u.side != side]
    if not foes:
        raise IllegalOrder("TAC 15.2", f"{h} holds no enemy unit to interdict.")
    if available(b, state) < 1:
        raise IllegalOrder("TAC 15.2", "You have no air unit left this turn.")
    if not in_range(b, state, h):
        raise IllegalOrder("TAC 15.0", f"{h} is beyond the 25-hex range of your air bases.")
    if under_weather(b, state, [h]):
        raise IllegalOrder("TAC 18.7", f"Bad Weather at {h}: no air unit may be placed there (L831, L877).")
    if all(u.id in state.interdicted for u in foes):
        raise IllegalOrder("TAC 15.2", f"The stack at {h} is already interdicted.")
    state.air_used += 1
    state.interdicted.update(u.id for u in foes)
    names = ", ".join(b.units[u.id].name for u in foes)
    return Event(
        kind="air",
        text=f"Air unit interdicts {b.name(h)}: {names} move at half allowance next Movement Phase (15.2).",
    )
