"""The steps of the sequence of play that need no decision (TAC 6.1): reinforcements,
withdrawals and replacements (7.0), the Axis fuel roll (14.0), the end of the turn.
"""

from __future__ import annotations

from engine.core.events import Event
from engine.core.ruleset import Dice
from engine.games.tac.board import Board
from engine.games.tac.state import ALLIED, State

LAST_TURN = 50


def first_fit_setup(b: Board, state: State) -> None:
    """Set-up (TAC 17.1): Axis units on their printed hexes; Allied units by location
    code, filling the code's hexes in order within the stacking limit (RULINGS R7)."""
    load: dict[str, float] = {}
    for x in b.oob.units:
        u = state.units[x.id]
        if x.setup is None:
            continue
        if x.setup.hex:
            h = x.setup.hex
        else:
            hexes = b.oob.location_codes[x.setup.code].hexes
            h = next((c for c in hexes if load.get(c, 0) + b.stacking(x.id) <= 2), hexes[-1])
        load[h] = load.get(h, 0) + b.stacking(x.id)
        u.where, u.hex = "map", h


def reinforce(b: Board, state: State, dice: Dice) -> list[Event]:
    """The Reinforcement/Withdrawal (Allied) or Reinforcement/Fuel (Axis) Phase (TAC 6.1
    B1, C1; 7.0-7.3, 10.0, 12.3, 12.4, 14.0, 17.3)."""
    side, t = state.player, state.turn
    events: list[Event] = []
    arrived: list[str] = []
    for x in b.oob.units:
        if x.side != side:
            continue
        u = state.units[x.id]
        due = u.where == "pool" and x.entry is not None and x.entry.turn == t
        back = (
            next((w for w in x.withdrawals if w.return_turn == t), None)
            if u.where == "withdrawn"
            else None
        )
        if due and x.entry and x.entry.step:
            u.step = x.steps.index(x.entry.step)
        if back is not None and back.return_step:
            u.step = x.steps.index(back.return_step)
        if due or back is not None:
            # 7.1: reinforcements land at a port; here each side's Home Base (RULINGS R8)
            if side == ALLIED:
                u.where, u.hex = "map", b.home_base(ALLIED)
            else:
                u.where, u.hex = "tripoli", None
            u.arrived = t
            arrived.append(x.name)
    if arrived:
        where = (
            b.name(b.home_base(ALLIED))
            if side == ALLIED
            else "Tripoli (enter by the western edge, 12.3)"
        )
        events.append(
            Event(kind="reinforce", text=f"Reinforcements at {where}: {', '.join(arrived)}.")
        )
    if side == ALLIED:
        events += _withdraw(b, state)
    events += _replacements(b, state, dice)
    return events


def _withdraw(b: Board, state: State) -> list[Event]:
    """Withdrawals (TAC 7.2): each unit due this turn leaves the map, to return on its
    return turn or be removed for good. The top-up of 7.3 and the substitute of 7.4 are
    not yet adjudicated: a unit not on the map is reported and nothing else happens."""
    events = []
    for x in b.oob.units:
        w = next((w for w in x.withdrawals if w.turn == state.turn), None)
        if w is None or x.side != state.player:
            continue
        u = state.units[x.id]
        if u.where != "map":
            events.append(
                Event(
                    kind="withdraw",
                    text=f"{x.name} is due to withdraw but is not on the map (7.4).",
                )
            )
            continue
        u.where, u.hex = ("withdrawn" if w.return_turn else "removed"), None
        state.moved.discard(x.id)
        back = f"returns on Turn {w.return_turn}" if w.return_turn else "removed for good"
        events.append(Event(kind="withdraw", text=f"{x.name} withdraws ({back})."))
    return events


def _replacements(b: Board, state: State, dice: Dice) -> list[Event]:
    """Replacements and fuel of the turn (TAC 6.1 B1/C1, 10.0, 14.0, 17.3): odd turns
    from Turn 3 only; the Axis rolls once on its table for the turn's segment."""
    t, side = state.turn, state.player
    events: list[Event] = []
    armour = b.oob.armour_replacements
    r = state.replacements
    if side == ALLIED:
        n = b.turns[t].allied_infantry_replacements if t >= 3 and t % 2 else 0
        a = armour.get("allied", {}).get(str(t), 0)
        if n:
            r["allied_infantry"] = r.get("allied_infantry", 0) + n
        if a:
            r["allied_armour"] = r.get("allied_armour", 0) + a
        if n or a:
            events.append(
                Event(kind="replacements", text=f"Allied replacements: {n} infantry, {a} armour.")
            )
        return events
    for key, label in (("axis_german", "German"), ("axis_italian", "Italian")):
        a = armour.get(key, {}).get(str(t), 0)
        if a:
            r[f"{key}_armour"] = r.get(f"{key}_armour", 0) + a
            events.append(Event(kind="replacements", text=f"{label} armour replacement: {a}."))
    if t < 3 or not t % 2:
        return events
    seg = b.turns[t].segment
    if seg is None:
        return events
    roll = dice.roll(6, "Axis Infantry Replacement and Fuel Table")
    italian, german, fuel = b.tables.axis_table[seg].rows[roll - 1]
    r["axis_italian_infantry"] = r.get("axis_italian_infantry", 0) + (italian or 0)
    r["axis_german_infantry"] = r.get("axis_german_infantry", 0) + (german or 0)
    top = b.tables.fuel_track.max
    lost = max(0, state.fuel + fuel - top)
    state.fuel = min(top, state.fuel + fuel)
    text = (f"Axis table, segment {seg}, roll {roll}: {italian or 0} Italian and {german or 0} "
            f"German infantry replacements, {fuel} Fuel (track at {state.fuel}"
            + (f"; {lost} over 10 lost" if lost else "") + ").")  # fmt: skip
    events.append(Event(kind="fuel", text=text, data={"roll": roll, "fuel": fuel}))
    return events


def end_turn(b: Board, state: State) -> list[Event]:
    """The Game Turn End Phase (TAC 6.1 D) and, after Turn 50, the end of the game (3.0):
    the Allies win by holding Tobruk; the Axis exit victory is not yet adjudicated."""
    if state.turn >= LAST_TURN:
        tobruk = next(h for h, x in b.hex.items() if x.name == "Tobruk")
        if state.control.get(tobruk) == ALLIED:
            state.winner, state.result_text = ALLIED, "The Allies hold Tobruk on Turn 50 (3.0)."
        else:
            state.result_text = "Neither side met its victory conditions: a draw (3.0)."
        state.phase = "over"
        return [Event(kind="over", text=state.result_text)]
    state.turn += 1
    state.player = ALLIED  # 17.2
    state.phase = "reinforce"
    return [Event(kind="turn", text=f"Turn {state.turn}: {b.turns[state.turn].date}.")]
