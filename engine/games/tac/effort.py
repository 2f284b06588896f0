"""Optional Maximum Effort and Determined Defense (TAC 18.4 L749-768, 18.5 L770-791), used
together (18.0 commentary L709): each side may make one of them per game turn.

``state.efforts`` holds, per side, the turn it last used either marker.
"""

from __future__ import annotations

from engine.core.errors import IllegalOrder
from engine.core.events import Event
from engine.core.hexgrid_rows import distance
from engine.core.ruleset import Dice
from engine.games.tac.board import Board
from engine.games.tac.state import State, Unit

#: the rolls that make Maximum Effort and Determined Defense succeed (18.4, 18.5 procedures)
SUCCESS = (1, 2)


def italians_led(b: Board, state: State, units: list[Unit]) -> bool:
    """Whether the units may make the effort though Italians are among them (18.4.2,
    18.5.3): none is Italian, or Rommel's HQ is on or next to one of the Italians."""
    italians = [u for u in units if b.units[u.id].nationality == "IT"]
    if not italians:
        return True
    rommel = state.units.get("ge_dak")
    if rommel is None or rommel.where != "map":
        return False
    return any(distance(rommel.hex, u.hex) <= 1 for u in italians)


def why_not(b: Board, state: State, side: str, units: list[Unit], rule: str) -> str | None:
    """Why ``side`` may not make the effort with ``units`` now, or ``None``."""
    if not (state.options.get("18.4") and state.options.get("18.5")):
        return "Maximum Effort and Determined Defense are not in play"
    if state.efforts.get(side) == state.turn:
        return "a side makes one Maximum Effort or Determined Defense a game turn (18.4.1, 18.5.1)"
    if not italians_led(b, state, units):
        return f"Italian units take part without Rommel on or next to them ({rule})"
    return None


def shift(b: Board, column: str, by: int) -> str:
    """Move ``by`` columns right (positive) or left on the CRT; beyond the ends lie the
    automatic AE and DE (9.3)."""
    cols = b.tables.crt.columns
    i = -1 if column == "AE" else len(cols) if column == "DE" else cols.index(column)
    i += by
    return "AE" if i < 0 else "DE" if i >= len(cols) else cols[i]


def maximum_effort(
    b: Board, state: State, attackers: list[Unit], column: str, dice: Dice
) -> tuple[str, int, Event]:
    """Maximum Effort (TAC 18.4.2-18.4.3, procedure): 1-2 shifts the odds two columns right;
    3-6 one column left and one more attacker step loss. Returns the new column and the
    extra loss."""
    why = why_not(b, state, state.player, attackers, "18.4.2")
    if why is not None:
        raise IllegalOrder("TAC 18.4", f"No Maximum Effort: {why}.")
    state.efforts[state.player] = state.turn
    roll = dice.roll(6, "Maximum Effort")
    if roll in SUCCESS:
        new, extra = shift(b, column, 2), 0
    else:
        new, extra = shift(b, column, -1), 1
    text = (f"Maximum Effort: roll {roll}, " + ("success" if not extra else "failure, one more step to lose")
            + f": {column} becomes {new} (18.4).")  # fmt: skip
    return new, extra, Event(kind="effort", text=text, data={"roll": roll, "column": new})


def may_defend(b: Board, state: State, fight: dict) -> bool:
    """Whether the defender may now declare a Determined Defense (TAC 18.5.2-18.5.3): its
    stack is called to retreat and it has not been asked in this battle."""
    if fight.get("dd") or not fight["retreat"][fight["foe"]]:
        return False
    units = [state.units[u] for u in fight["defenders"] if state.units[u].where == "map"]
    return bool(units) and why_not(b, state, fight["foe"], units, "18.5.3") is None


def determined_defense(b: Board, state: State, dice: Dice) -> Event:
    """Determined Defense (TAC 18.5 procedure): 1-2 cancels the defender's retreat (its
    losses stand); 3-6 it retreats all the same and loses one more step."""
    fight = state.fight
    foe = fight["foe"]
    fight["dd"] = "made"
    state.efforts[foe] = state.turn
    roll = dice.roll(6, "Determined Defense")
    if roll in SUCCESS:
        fight["retreat"][foe] = 0
        return Event(
            kind="effort", text=f"Determined Defense: roll {roll}, the defenders hold (18.5)."
        )
    fight["due"][foe] += 1
    fight["stage"] = "loss"
    return Event(
        kind="effort",
        text=f"Determined Defense: roll {roll}, failure: the defenders lose one more step and retreat (18.5).",
    )
