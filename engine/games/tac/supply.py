"""Supply (TAC 13.0-13.3) and the Supply Check Phase (6.1 B5, C5).

A unit is in supply when it is within 1 hex of a city its side controls (13.3), or a line
runs from it to a supply source (13.1, 13.2) with at most 15 hexes off the road: the
part along road hexsides may be of any length (13.0). The line passes through no enemy
unit and no enemy zone of control.
"""

from __future__ import annotations

from collections import deque

from engine.core.events import Event
from engine.core.hexgrid_rows import neighbours
from engine.games.tac.board import Board
from engine.games.tac.movement import enemy_zoc
from engine.games.tac.state import AXIS, State, enemy

#: the longest supply line off the road (TAC 13.0)
LINE = 15


def controls(b: Board, state: State, side: str, h: str) -> bool:
    """Whether ``side`` controls the city ``h`` (TAC 13.3): it occupies it, or the city is
    empty of the enemy, outside the enemy's zones and ``side`` last occupied it or had it
    in its zone of control (RULINGS R19, R44; the record is kept by :func:`mark_control`)."""
    here = {u.side for u in state.at(h)}
    if side in here:
        return True
    if enemy(side) in here or h in enemy_zoc(b, state, side):
        return False
    return state.control.get(h) == side


def mark_control(b: Board, state: State) -> None:
    """Record who last occupied each city, port or fort, or last had a city in its zone
    of control (TAC 13.3 L637, 12.0 L609; RULINGS R9, R44): a hex held by the units of
    one side is that side's; an empty city in the zones of one side only becomes that
    side's (a city in both sides' zones keeps its record, and neither controls it while
    both zones lie on it). Counted where units stand after each order."""
    held: dict[str, set[str]] = {}
    zoc_from: dict[str, set[str]] = {}  # hex -> the sides with a unit there exerting a zone
    for u in state.on_map():
        held.setdefault(u.hex, set()).add(u.side)
        if max(b.values(u.id, u.step)[:2]) > 0:  # 4.1 (RULINGS R11)
            zoc_from.setdefault(u.hex, set()).add(u.side)
    for h, sides in held.items():
        if len(sides) == 1 and (h in state.control or b.has(h, "city") or b.has(h, "port")
                                or b.has(h, "fort")):  # fmt: skip
            state.control[h] = next(iter(sides))
    for h in b.cities:
        if h in held:
            continue
        ours: set[str] = set()
        for n in neighbours(h):
            if n in zoc_from and h in b.zoc(n):
                ours |= zoc_from[n]
        if len(ours) == 1:
            state.control[h] = next(iter(ours))


def sources(b: Board, state: State, side: str) -> set[str]:
    """Supply sources (TAC 13.1, 13.2): every western (Axis) or eastern (Allied) board hex,
    and Benghazi and Tobruk when friendly."""
    g = b.map.grid
    col = g.first_col if side == AXIS else g.last_col
    out = {h for h in b.hex if int(h[2:]) == col and b.playable(h)}
    for h, x in b.hex.items():
        if x.name in ("Benghazi", "Tobruk") and controls(b, state, side, h):
            out.add(h)
    return out


def supplied_hexes(b: Board, state: State, side: str) -> set[str]:
    """Every hex from which a unit of ``side`` traces supply (TAC 13.0-13.3)."""
    blocked = enemy_zoc(b, state, side) | {u.hex for u in state.on_map(enemy(side))}
    src = sources(b, state, side) - blocked
    # walked back from the sources: a step along a road hexside is free, any other step
    # counts one hex of the 15 (13.0; RULINGS R18)
    dist = dict.fromkeys(src, 0)
    todo = deque(src)
    while todo:
        here = todo.popleft()
        if here in blocked:
            continue
        for n in neighbours(here):
            if not b.crossable(here, n):
                continue
            cost = dist[here] + (0 if b.is_road(here, n) else 1)
            if cost > LINE or dist.get(n, LINE + 1) <= cost:
                continue
            dist[n] = cost
            if cost == dist[here]:
                todo.appendleft(n)
            else:
                todo.append(n)
    # a unit's own hex may lie in an enemy zone: the line starts by leaving it (RULINGS R18)
    out = set(dist)
    for h, x in b.hex.items():
        if "city" in x.features and controls(b, state, side, h):
            out.update(n for n in (h, *neighbours(h)) if b.playable(n))
    return out


def check(b: Board, state: State) -> list[Event]:
    """The Supply Check Phase (TAC 6.1 B5/C5, 13.0): each phasing unit out of supply loses
    one step (9.10.1), or is eliminated on its last step (9.10.2)."""
    side = state.player
    ok = supplied_hexes(b, state, side)
    events = []
    for u in sorted(state.on_map(side), key=lambda u: u.id):
        if u.hex in ok:
            continue
        steps = b.units[u.id].steps
        if u.step + 1 >= len(steps):
            u.where, u.hex = "dead", None
            events.append(
                Event(
                    kind="supply",
                    text=f"{b.units[u.id].name} is out of supply and eliminated (13.0).",
                )
            )
        else:
            u.step += 1
            events.append(
                Event(
                    kind="supply",
                    text=f"{b.units[u.id].name} is out of supply and loses a step, now {steps[u.step]} (13.0).",
                )
            )
    return events
