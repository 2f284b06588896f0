"""Minefields (TAC 16.0-16.6, L669-691; 18.6, L793-803): the cup, the hidden hands, calls, placement and
what happens to a stack that enters one.

``state.mines`` is a plain dict:
``cup``: counter ids still to draw; ``hands``: side -> the ids it holds (seen by that side
only); ``map``: hex -> the id lying there face down (seen by nobody, 16.0 procedure);
``calls``: side -> calls made; ``month``: side -> the month (first turn of it) of its last
call; ``closed``: hexes closed for the rest of this Movement Phase (16.3).

A counter id is ``s<n>`` (standard, white lettering) or ``b<n>`` (bonus, 18.6), the index
into ``tables.minefields``.
"""

from __future__ import annotations

from typing import Any

from engine.core.errors import IllegalOrder
from engine.core.events import Event
from engine.core.ruleset import Dice
from engine.games.tac.board import Board
from engine.games.tac.state import State, Unit, enemy

#: the first turn a minefield may be called for, and the calls each side has (TAC 16.0)
FIRST_TURN = 5
CALLS = 3


def initial(b: Board, bonus: bool) -> dict[str, Any]:
    """The cup at set-up (TAC 16.0 procedure): the ten standard counters, and the six bonus
    ones when 18.6 is in play."""
    cup = [f"s{i}" for i in range(len(b.tables.minefields.standard))]
    if bonus:
        cup += [f"b{i}" for i in range(len(b.tables.minefields.bonus))]
    return {"cup": cup, "hands": {"allied": [], "axis": []}, "map": {}, "calls": {},
            "month": {}, "closed": []}  # fmt: skip


def value(b: Board, mine: str) -> tuple[int, int]:
    """``(steps lost, delay)`` printed on a minefield counter."""
    pool = b.tables.minefields.standard if mine[0] == "s" else b.tables.minefields.bonus
    m = pool[int(mine[1:])]
    return m.steps, m.delay


def describe(b: Board, mine: str) -> str:
    steps, delay = value(b, mine)
    if steps:
        return f"{steps} step loss{'es' if steps > 1 else ''}"
    return "delay" if delay else "no effect"


def why_no_call(state: State, side: str) -> str | None:
    """Why ``side`` may not call for a minefield now, or ``None`` (TAC 16.0, 6.1 B2/C2):
    from Turn 5, once a month, three times a game, while the cup holds two counters."""
    m = state.mines
    month = state.turn - (0 if state.turn % 2 else 1)
    if state.turn < FIRST_TURN:
        return f"minefields may be called for from Turn {FIRST_TURN}"
    if m["calls"].get(side, 0) >= CALLS:
        return f"each side calls for a minefield at most {CALLS} times a game"
    if m["month"].get(side) == month:
        return "a side calls for a minefield at most once a month"
    if len(m["cup"]) < 2:
        return "the cup does not hold a counter for each player"
    return None


def call(b: Board, state: State, side: str, dice: Dice) -> list[Event]:
    """Call for a minefield (TAC 16.0 procedure): the caller draws first, then the other
    player; each sees only his own counter."""
    why = why_no_call(state, side)
    if why is not None:
        raise IllegalOrder("TAC 16.0", f"No minefield call now: {why}.")
    m = state.mines
    m["calls"][side] = m["calls"].get(side, 0) + 1
    m["month"][side] = state.turn - (0 if state.turn % 2 else 1)
    events = [Event(kind="mines", text=f"The {side.title()} player calls for a minefield "
                    f"({m['calls'][side]} of {CALLS}); both players draw one (16.0).")]  # fmt: skip
    for who in (side, enemy(side)):
        # the last counter in the cup is drawn without a roll (a die has two sides or more)
        k = dice.roll(len(m["cup"]), "minefield draw") - 1 if len(m["cup"]) > 1 else 0
        mine = m["cup"].pop(k)
        m["hands"][who].append(mine)
        events.append(Event(kind="mines", text=f"{who.title()} draws minefield {mine}: {describe(b, mine)}.",
                            seen_by=(who,), others=f"{who.title()} draws a minefield.",
                            data={"mine": mine}, reveals=True))  # fmt: skip
    return events


def take_from_hand(b: Board, state: State, side: str, token: str, leaders: list[Unit]) -> str:
    """Which counter a ``mine``/``mine<n>`` token lays (the n-th held, 1 first), checked
    against the placing unit (TAC 16.0: a combat unit that began its turn out of enemy
    zones lays it on its own hex before it moves)."""
    from engine.games.tac.movement import enemy_zoc

    hand = state.mines["hands"][side]
    n = token[4:] or "1"
    if not n.isdigit() or not 1 <= int(n) <= len(hand):
        raise IllegalOrder(
            "TAC 16.0", f"You hold {len(hand)} minefield counter(s); {token!r} names none of them."
        )
    if not leaders or leaders[0].where != "map":
        raise IllegalOrder("TAC 16.0", "A minefield is laid by a unit on the map, on its own hex.")
    zoc = enemy_zoc(b, state, side)
    u = leaders[0]
    a, d, _ = b.values(u.id, u.step)
    if max(a, d) == 0:
        raise IllegalOrder("TAC 16.0", f"{u.id} is not a combat unit and may not lay a minefield.")
    if u.hex in zoc or u.id in state.moved:
        raise IllegalOrder(
            "TAC 16.0", f"{u.id} did not begin the turn out of enemy zones of control."
        )
    if u.hex in state.mines["map"]:
        raise IllegalOrder("TAC 16.0", f"{u.hex} already holds a minefield.")
    return hand[int(n) - 1]


def place(b: Board, state: State, side: str, h: str, mine: str) -> Event:
    """Lay ``mine`` face down on ``h`` (TAC 16.0 procedure): from now on nobody sees its value."""
    state.mines["hands"][side].remove(mine)
    state.mines["map"][h] = mine
    return Event(kind="mines", text=f"{side.title()} lays minefield {mine} ({describe(b, mine)}) at {b.name(h)}.",
                 seen_by=(side,), others=f"{side.title()} lays a minefield at {b.name(h)}.",
                 data={"hex": h})  # fmt: skip


def trigger(b: Board, state: State, h: str, units: list[Unit]) -> Event:
    """A stack entered the minefield at ``h`` (TAC 16.1-16.3): it stops (done by the walk),
    the counter is turned up, its losses hit each unit that entered (RULINGS R25) or its
    delay holds them through their next Movement Phase (RULINGS D5); the counter goes back
    to the cup and the hex is closed for the rest of the phase."""
    mine = state.mines["map"].pop(h)
    state.mines["cup"].append(mine)
    state.mines["closed"].append(h)
    steps, delay = value(b, mine)
    hit = []
    for u in units:
        for _ in range(steps):
            if u.where != "map":
                break
            ladder = b.units[u.id].steps
            if u.step + 1 >= len(ladder):
                u.where, u.hex = "dead", None
            else:
                u.step += 1
        if delay and u.where == "map":
            state.delayed[u.id] = state.turn + 1
        hit.append(
            f"{b.units[u.id].name} ({'eliminated' if u.where == 'dead' else b.units[u.id].steps[u.step]})"
        )
    text = f"Minefield at {b.name(h)} set off: {describe(b, mine)}"
    text += f"; {', '.join(hit)}" if steps or delay else ""
    return Event(
        kind="mines", text=text + " (16.1-16.3).", data={"hex": h, "mine": mine}, reveals=True
    )


def end_phase(state: State) -> None:
    """Minefield hexes open again when the Movement Phase ends (TAC 16.3)."""
    state.mines["closed"] = []
