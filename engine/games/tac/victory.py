"""Exited Axis units and the victory conditions (TAC 3.0 L182-188, 7.5 L343, 8.6 L433-455,
12.4 L623, 13.4 L639).

Axis units that leave by the eastern edge wait on the Turn Record Track in the space two
turns on (``state.exit_space``); at the end of each turn after their exit they trace
supply from an eastern edge hex, and once a turn ends in their space with supply they go
to the Exited Axis Units box (space 0) and count for victory (``state.exit_counted``).
"""

from __future__ import annotations

from engine.core.events import Event
from engine.games.tac import supply
from engine.games.tac.board import Board
from engine.games.tac.state import ALLIED, AXIS, State

#: the combat factors the Axis must get off the eastern edge and keep supplied (TAC 3.0)
EXIT_FACTORS = 12
LAST_TURN = 50


def exited_supplied(b: Board, state: State) -> bool:
    """Whether exited Axis units trace supply (TAC 13.4): a line from some eastern edge
    hex, as an Axis unit standing there would trace it (13.0-13.3)."""
    ok = supply.supplied_hexes(b, state, AXIS)
    return any(h in ok for h in b.east_edge)


def end_of_turn(b: Board, state: State) -> list[Event]:
    """The exited units at the end of a turn (TAC 8.6.1 procedure and example L439-451,
    13.4): checked from the end of the turn after the exit; in supply at the end of the
    turn of their space, they reach the box; out of supply, each loses a step and moves
    to the next space."""
    waiting = sorted(u for u, sp in state.exit_space.items() if sp and state.turn >= sp - 1)
    if not waiting:
        return []
    events: list[Event] = []
    if exited_supplied(b, state):
        done = [u for u in waiting if state.turn >= state.exit_space[u]]
        for uid in done:
            state.exit_space[uid] = 0
            if uid not in state.exit_counted:  # 8.6.2: never counted twice
                u = state.units[uid]
                state.exit_counted[uid] = b.values(uid, u.step)[0]
        if done:
            names = ", ".join(b.units[u].name for u in done)
            events.append(
                Event(
                    kind="exit",
                    text=f"Exited Axis units supplied for a month reach the Exited Axis Units box: {names} (8.6.1).",
                )
            )
        return events
    for uid in waiting:
        u = state.units[uid]
        ladder = b.units[uid].steps
        if u.step + 1 >= len(ladder):
            u.where = "dead"
            del state.exit_space[uid]
            events.append(
                Event(
                    kind="exit",
                    text=f"{b.units[uid].name}, off the map, is out of supply and eliminated (8.6.1, 13.4).",
                )
            )
            continue
        u.step += 1
        state.exit_space[uid] = max(state.exit_space[uid], state.turn) + 1
        events.append(Event(kind="exit", text=f"{b.units[uid].name}, off the map, is out of supply: now {ladder[u.step]}, "
                                              f"moved to the Turn {state.exit_space[uid]} space (8.6.1, 13.4)."))  # fmt: skip
    return events


def axis_exit_factors(state: State) -> int:
    return sum(state.exit_counted.values())


def check(b: Board, state: State) -> list[Event]:
    """Whether a side has won now (TAC 3.0, 6.0: the game ends the moment a side meets its
    conditions): the Axis with 12 combat factors counted in the Exited box; the Allies
    when no Axis unit is left in play (on the map, at Tripoli or off the eastern edge;
    RULINGS R26)."""
    if state.phase == "over":
        return []
    if axis_exit_factors(state) >= EXIT_FACTORS:
        state.winner = AXIS
        state.result_text = (f"The Axis has {axis_exit_factors(state)} combat factors off the eastern edge, "
                             "supplied for a month: Axis victory (3.0).")  # fmt: skip
    elif not any(
        u.side == AXIS and u.where in ("map", "tripoli", "exited") for u in state.units.values()
    ):
        state.winner = ALLIED
        state.result_text = "Every Axis unit in play is eliminated: Allied victory (3.0)."
    else:
        return []
    state.phase = "over"
    state.fight = None
    return [Event(kind="over", text=state.result_text)]


def final(b: Board, state: State) -> list[Event]:
    """After Turn 50 (TAC 3.0): the Allies win by holding Tobruk, else a draw."""
    tobruk = next(h for h, x in b.hex.items() if x.name == "Tobruk")
    if supply.controls(b, state, ALLIED, tobruk):
        state.winner, state.result_text = ALLIED, "The Allies hold Tobruk on Turn 50 (3.0)."
    else:
        state.result_text = "Neither side met its victory conditions: a draw (3.0)."
    state.phase = "over"
    return [Event(kind="over", text=state.result_text)]


def axis_off_map(state: State) -> bool:
    """Whether Axis units that left by the eastern edge are still off the map (TAC 7.5)."""
    return any(u.side == AXIS and u.where == "exited" for u in state.units.values())
