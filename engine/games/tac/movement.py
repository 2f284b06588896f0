"""The Movement Phase (TAC 8.0): paths, terrain, roads, ridges and passes, zones of
control, the minimum move, Strategic Movement and Axis fuel, stacking at the end.

Costs are counted in fifths of a Movement Point, so that road movement (1/5 MP, 8.3.1)
stays exact.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.core.errors import IllegalOrder
from engine.core.events import Event
from engine.core.hexgrid_rows import neighbours
from engine.games.tac.board import Board
from engine.games.tac.orders import Move
from engine.games.tac.state import AXIS, State, Unit, enemy

FIFTHS = 5
#: fuel is spent by an Axis unit that moves more than this many MP (TAC 8.2.6, 8.5.4)
FUEL_FREE = 2
#: stacking limit in divisions (TAC 5.1.1)
STACK_LIMIT = 2.0
#: units that never spend fuel (TAC 8.2.6): Rommel's HQ
FUEL_EXEMPT = {"ge_dak"}


def enemy_zoc(b: Board, state: State, side: str) -> set[str]:
    """Hexes in the zone of control of ``side``'s enemies (TAC 4.1-4.3.6): every enemy
    combat unit with a combat factor above zero controls its neighbours (4.1, 4.2);
    several units add nothing (4.3.4) and friendly zones do not cancel them (4.3.5, 4.3.6)."""
    out: set[str] = set()
    for u in state.on_map(enemy(side)):
        attack, defence, _ = b.values(u.id, u.step)
        if max(attack, defence) > 0 and u.hex is not None:
            out.update(b.zoc(u.hex))
    return out


@dataclass
class Walker:
    """A stack on its way along a path (TAC 8.0-8.5, 12.3). Counts each unit's Movement
    Points from where it joined the stack (8.2.3), in fifths."""

    b: Board
    state: State
    side: str
    strategic: bool
    here: str | None
    stack: list[Unit] = field(default_factory=list)
    spent: dict[str, int] = field(default_factory=dict)
    began_in_zoc: set[str] = field(default_factory=set)
    entered: list[str] = field(default_factory=list)
    overrun: list[str] = field(default_factory=list)
    on_road: bool = False
    #: the stack entered a ridge hex this phase (8.2.5)
    locked: bool = False
    #: the end of a pass the stack came in by (8.2.5)
    pass_from: str | None = None
    steps: int = 0

    def zoc(self) -> set[str]:
        return enemy_zoc(self.b, self.state, self.side)

    def join(self, units: list[Unit]) -> None:
        zoc = self.zoc()
        for u in units:
            self.stack.append(u)
            self.spent[u.id] = 0
            if u.where == "map" and u.hex in zoc:
                self.began_in_zoc.add(u.id)

    def step(self, there: str) -> None:
        """Enter the adjacent hex ``there`` (the cases are listed in :func:`move`)."""
        b, here = self.b, self.here
        if not b.playable(there):
            raise IllegalOrder("TAC 2.2", f"{there} is not part of the playing area.")
        road = False
        leaving_pass = False
        entered_pass = None
        if here is None:
            if there not in b.west_edge:
                raise IllegalOrder(
                    "TAC 12.3",
                    f"Units from Tripoli enter on a western edge hex; {there} is not one.",
                    f"Western edge: {', '.join(b.west_edge)}.",
                )
            cost = 2 * FIFTHS
        else:
            if not b.crossable(here, there):
                if frozenset((here, there)) in b.prohibited:
                    raise IllegalOrder("TAC 8.2.7", f"The hexside {here}-{there} is prohibited.")
                raise IllegalOrder(
                    "TAC 8.0",
                    f"{there} is not next to {here}; a path enters adjacent hexes in turn.",
                )
            road = b.is_road(here, there)
            entered_pass = b.pass_between(here, there) if b.has(there, "pass") else None
            p = (
                b.pass_between(self.pass_from, here)
                if self.pass_from and b.has(here, "pass")
                else None
            )
            leaving_pass = p is not None and there in p.ends and there != self.pass_from
            if self.on_road and not road:
                for k, v in self.spent.items():  # 8.3.2: the fraction is lost
                    self.spent[k] = -(-v // FIFTHS) * FIFTHS
            if road:
                cost = 1
            elif entered_pass is not None or leaving_pass:
                cost = FIFTHS
            else:
                cost = int(round((b.tables.terrain[b.terrain(there)].mp or 0) * FIFTHS))
            ridge_here, ridge_there = b.terrain(here) == "ridge", b.terrain(there) == "ridge"
            if ridge_here and not ridge_there and self.locked and not road and not leaving_pass:
                raise IllegalOrder(
                    "TAC 8.2.5",
                    f"A unit that entered the ridge this phase may not leave it at {there} "
                    "except across a road hexside or through a pass.",
                )
            if ridge_there and not ridge_here:
                self.locked = True
        if entered_pass is not None:
            self.pass_from = here
        elif not b.has(there, "pass"):
            self.pass_from = None
        if any(u.hex == there for u in self.state.on_map(enemy(self.side))):
            raise IllegalOrder(
                "TAC 8.2.1",
                f"{there} holds an enemy unit; no unit may enter it (overrun it with x{there}).",
            )
        zoc = self.zoc()
        if there in zoc:
            if self.strategic:
                raise IllegalOrder(
                    "TAC 8.5.1",
                    f"A strategic move may not enter the enemy zone of control at {there}.",
                )
            fresh = [
                u.id for u in self.stack if self.spent[u.id] == 0 and u.id in self.began_in_zoc
            ]
            if fresh:
                raise IllegalOrder(
                    "TAC 4.3.3",
                    f"{fresh[0]} starts in an enemy zone of control and may not move straight into another ({there}).",
                    "Step first to an uncontrolled hex.",
                )
        for u in self.stack:
            self.spent[u.id] += cost
        self.on_road = road
        self.here = there
        self.entered.append(there)
        self.steps += 1

    def attack(self, target: str) -> Event:
        """Overrun (TAC 8.4): the stack, on one hex and within the stacking limit (8.4.3,
        8.4.5), not moving strategically (8.5.3) and in no enemy zone of control but the
        target's (8.4.3), removes the adjacent enemy stack it would attack at 9-1 or better
        (8.4.1, 9.3); replacements alone are overrun by any combat unit (8.4.1)."""
        from engine.games.tac import combat

        b, here = self.b, self.here
        if here is None or target not in neighbours(here):
            raise IllegalOrder("TAC 8.4.1", f"An overrun is made from a hex next to {target}.")
        if not b.crossable(here, target):
            raise IllegalOrder(
                "TAC 8.2.7", f"No overrun across the prohibited hexside {here}-{target}."
            )
        if self.strategic:
            raise IllegalOrder("TAC 8.5.3", "Units using Strategic Movement may not overrun.")
        defenders = [u for u in self.state.at(target) if u.side != self.side]
        if not defenders:
            raise IllegalOrder("TAC 8.4.1", f"{target} holds no enemy unit to overrun.")
        load = sum(b.stacking(u.id) for u in self.stack)
        if load > STACK_LIMIT:
            raise IllegalOrder(
                "TAC 8.4.5",
                f"The stack counts {load:g} divisions; an overrun may not be made overstacked.",
            )
        others = [u for u in self.state.on_map(enemy(self.side)) if u.hex != target]
        for u in others:
            a, d, _ = b.values(u.id, u.step)
            if max(a, d) > 0 and here in b.zoc(u.hex):
                raise IllegalOrder(
                    "TAC 8.4.3",
                    f"The stack is in the zone of control of {b.units[u.id].name} at {u.hex}, which it is not overrunning.",
                )
        attack = sum(combat.attack_factor(b, u) for u in self.stack)
        if all(b.units[u.id].type == "replacement" for u in defenders) and attack > 0:
            column = "DE"
            defence = 0
        else:
            defence = combat.defence_total(b, defenders, [here])
            column = combat.odds(attack, defence)
        if column != "DE":
            raise IllegalOrder(
                "TAC 8.4.1",
                f"{attack} against {defence} is {column}; an overrun needs 9-1 or better.",
            )
        for u in defenders:
            u.where, u.hex = "dead", None
        self.overrun.append(target)
        names = ", ".join(b.units[u.id].name for u in defenders)
        return Event(kind="overrun", text=f"Overrun at {b.name(target)}, {attack} against {defence}: {names} eliminated (8.4).",
                     data={"hex": target, "attack": attack, "defence": defence, "units": [u.id for u in defenders]})  # fmt: skip


def _mp(fifths: int) -> str:
    whole, part = divmod(fifths, FIFTHS)
    return f"{whole}" if not part else f"{whole} {part}/5"


def move(b: Board, state: State, side: str, order: Move) -> list[Event]:
    """A unit or stack moves (TAC 8.0-8.5, 12.3); changes ``state``.

    * 8.2.7: no crossing a prohibited hexside; sea and the Qattara Depression are outside
      the playing area (RULINGS D4). 8.2.1: no entering a hex with an enemy unit.
    * 8.3.1: 1/5 MP from road hex to road hex along a road hexside; 8.3.2: leaving the
      road loses the fraction of a Movement Point left (RULINGS R4).
    * 8.2.5: a stack that enters a ridge hex may move along the ridge but not leave it
      this phase, except across a road hexside or out of the far end of a pass it entered
      from one end; the pass costs 2 MP in all (RULINGS D2, R2, R3).
    * 4.3.2, 8.2.2: entering an enemy-controlled hex ends the move, unless the stack
      overruns the units controlling it (8.4.1); 4.3.3, 4.4.1: a unit starting in an enemy
      zone first steps to an uncontrolled hex; 8.5.1: a strategic move never enters one.
    * 8.0, 8.1.2: at most each unit's allowance (doubled by Strategic Movement, 8.5.1),
      except that a unit not starting in an enemy zone may always move one hex.
    * 8.2.3, 8.4.4: units on a hex of the path are picked up there.
    * 8.2.6: an Axis unit moving more than 2 MP (4 strategic) spends 1 Fuel; none for
      replacements or Rommel's HQ; with no Fuel it moves at most 2 (4) MP (RULINGS R5).
    """
    strategic = order.verb == "strategic"
    if not order.units or len(set(order.units)) != len(order.units) or not order.path:
        raise IllegalOrder("TAC 8.0", "A move names each moving unit once and at least one hex.")
    units: list[Unit] = []
    for uid in order.units:
        u = state.units.get(uid)
        if u is None or u.side != side:
            raise IllegalOrder("TAC 8.0", f"You have no unit {uid!r}.")
        if u.where not in ("map", "tripoli"):
            raise IllegalOrder("TAC 8.0", f"{uid} is not in play ({u.where}).")
        if uid in state.moved:
            raise IllegalOrder("TAC 8.0", f"{uid} has already moved this phase.")
        units.append(u)
    first = units[0]
    start = first.hex if first.where == "map" else None
    leaders = [u for u in units if (u.hex if u.where == "map" else None) == start]
    joiners = [u for u in units if u not in leaders]
    hexes = [h for h in order.path if not h.startswith("x")]
    for u in joiners:
        if u.where != "map" or u.hex not in hexes:
            raise IllegalOrder(
                "TAC 8.2.3",
                f"{u.id} is neither with {first.id} nor on a hex of the path, so the stack cannot pick it up.",
            )
    if strategic:
        zoc = enemy_zoc(b, state, side)
        if state.turn == 1:
            raise IllegalOrder(
                "TAC 8.5.4", "Neither side may use Strategic Movement on the first turn."
            )
        for u in units:
            if u.arrived == state.turn:
                raise IllegalOrder(
                    "TAC 8.5.4", f"{u.id} arrived this turn and may not move strategically."
                )
            if b.units[u.id].type == "replacement":
                raise IllegalOrder("TAC 8.5.1", "Replacements cannot use Strategic Movement.")
            if u.where == "tripoli":
                raise IllegalOrder(
                    "TAC 12.3", "Units entering from Tripoli may not move strategically."
                )
            if u.hex in zoc:
                raise IllegalOrder(
                    "TAC 8.5.1",
                    f"{u.id} starts in an enemy zone of control ({u.hex}) and may not move strategically.",
                )
    w = Walker(b, state, side, strategic, start)
    w.join(leaders)
    events: list[Event] = []
    for token in order.path:
        if w.here is not None and w.here in w.zoc() and w.steps and not token.startswith("x"):
            raise IllegalOrder(
                "TAC 4.3.2", f"{w.here} is in an enemy zone of control; the move must stop there."
            )
        if token.startswith("x"):
            events.append(w.attack(token[1:]))
            continue
        w.step(token)
        w.join([u for u in joiners if u.hex == token and u not in w.stack])
    if not w.entered:
        raise IllegalOrder("TAC 8.0", "A move enters at least one hex.")
    factor = 2 if strategic else 1
    one_hex = len(order.path) == 1 and start is not None and not w.began_in_zoc
    for u in w.stack:
        allowance = b.values(u.id, u.step)[2] * factor
        if w.spent[u.id] > allowance * FIFTHS and not one_hex:
            raise IllegalOrder(
                "TAC 8.0",
                f"That path costs {b.units[u.id].name} {_mp(w.spent[u.id])} Movement Points; its allowance is {allowance}.",
            )
    fuel_due = 0
    if side == AXIS:
        free = FUEL_FREE * factor * FIFTHS
        fuel_due = sum(
            1 for u in w.stack
            if b.units[u.id].type != "replacement" and u.id not in FUEL_EXEMPT and w.spent[u.id] > free
        )  # fmt: skip
        if fuel_due > state.fuel:
            raise IllegalOrder(
                "TAC 8.2.6",
                f"That move costs {fuel_due} Fuel and {state.fuel} is left; "
                f"without fuel a unit moves at most {FUEL_FREE * factor} MP.",
            )
        state.fuel -= fuel_due
    dest = w.entered[-1]
    for u in w.stack:
        u.where, u.hex = "map", dest
        state.moved.add(u.id)
        if strategic:
            state.strategic.add(u.id)
    for h in w.entered:
        if h in state.control or any(b.has(h, f) for f in ("city", "port", "fort")):
            state.control[h] = side
    names = ", ".join(b.units[u.id].name for u in w.stack)
    how = "strategic move" if strategic else "move"
    spent = max(w.spent.values())
    text = f"{names}: {how} to {b.name(dest)} ({_mp(spent)} MP"
    if one_hex and spent > min(b.values(u.id, u.step)[2] for u in w.stack) * FIFTHS:
        text += ", the one-hex minimum move of 8.1.2"
    if fuel_due:
        text += f"; {fuel_due} Fuel spent, {state.fuel} left"
    text += ")."
    return [*events, Event(kind="move", text=text, data={"units": [u.id for u in w.stack], "path": w.entered,
                                                         "fifths": spent, "fuel": fuel_due})]  # fmt: skip


def overstacked(b: Board, state: State, side: str) -> dict[str, float]:
    """Hexes where ``side`` has more than two divisions (TAC 5.1.1), with their load."""
    load: dict[str, float] = {}
    for u in state.on_map(side):
        load[u.hex] = load.get(u.hex, 0.0) + b.stacking(u.id)
    return {h: v for h, v in sorted(load.items()) if v > STACK_LIMIT}
