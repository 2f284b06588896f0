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


def pays_fuel(b: Board, u: Unit) -> bool:
    """Whether an Axis unit moving more than the fuel-free MP spends Fuel (TAC 8.2.6):
    every one but Rommel's HQ and the replacement counters."""
    return b.units[u.id].type != "replacement" and u.id not in FUEL_EXEMPT


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
    #: where units without a hex come from: "tripoli" (12.3) or "east" (exited Axis
    #: units coming back, 3.0, 8.6.2)
    entry: str = "tripoli"
    #: units left behind on the way (8.2.3): unit id -> hex
    dropped: dict[str, str] = field(default_factory=dict)
    #: the minefield hex that stopped the stack (16.1)
    mined: str | None = None
    exited: bool = False
    _zoc: set[str] | None = None
    _wet: set[str] | None = None

    @property
    def wet(self) -> set[str]:
        """The hexes under Bad Weather (Optional 18.7, L831, L877)."""
        if self._wet is None:
            from engine.games.tac.events import weather

            self._wet = weather(self.b, self.state)
        return self._wet

    def zoc(self) -> set[str]:
        if self._zoc is None:
            self._zoc = enemy_zoc(self.b, self.state, self.side)
        return self._zoc

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
        if self.mined is not None:
            raise IllegalOrder(
                "TAC 16.1",
                f"The stack entered the minefield at {self.mined} and moves no further this turn.",
            )
        if self.exited:
            raise IllegalOrder("TAC 8.6.1", "The stack has left the map; the path ends there.")
        if there in self.state.mines.get("closed", ()):
            raise IllegalOrder(
                "TAC 16.3",
                f"A minefield was set off at {there} this phase; no other unit may enter it.",
            )
        if here is None and self.entry == "east":
            gates = reentry_hexes(b, self.state)
            if there not in gates:
                raise IllegalOrder("TAC 3.0", f"Exited units come back at Alexandria or the eastern edge hex nearest it outside Allied zones; {there} is not one.",
                                   f"Open: {', '.join(gates) or 'none'}.")  # fmt: skip
            cost = int(round((b.tables.terrain[b.terrain(there)].mp or 0) * FIFTHS))
        elif here is None:
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
            if not road and there in self.wet:
                cost += FIFTHS  # Bad Weather (18.7 L831, L877): +1 MP off the roads
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
        if there in self.state.mines.get("map", {}):
            self.mined = there

    def drop(self, uids: list[str]) -> None:
        """Leave units of the stack on the hex it stands on (TAC 8.2.3: a unit may stop
        while the rest of its stack goes on)."""
        if not self.entered:
            raise IllegalOrder(
                "TAC 8.2.3",
                "Units are dropped off on a hex of the path, after the stack has entered it.",
            )
        for uid in uids:
            u = next((x for x in self.stack if x.id == uid), None)
            if u is None:
                raise IllegalOrder(
                    "TAC 8.2.3",
                    f"{uid} is not in the moving stack here, so it cannot be dropped off.",
                )
            self.stack.remove(u)
            self.dropped[uid] = self.here
        if not self.stack:
            raise IllegalOrder("TAC 8.2.3", "Every unit was dropped off; end the path instead.")

    def exit_map(self) -> None:
        """Leave the map by the eastern edge (TAC 8.6.1): Axis units only, from an eastern
        edge hex, at the cost of one more hex (1 MP, or 1/5 MP where a road leaves the map)."""
        b, here = self.b, self.here
        if self.side != AXIS:
            raise IllegalOrder("TAC 8.6.1", "Only Axis units may leave the map.")
        if here is None or here not in b.east_edge:
            raise IllegalOrder("TAC 8.6.1", "Units leave the map only from an eastern edge hex.",
                               f"Eastern edge: {', '.join(b.east_edge)}.")  # fmt: skip
        road = here in b.road_exits
        if self.on_road and not road:
            for k, v in self.spent.items():
                self.spent[k] = -(-v // FIFTHS) * FIFTHS
        for u in self.stack:
            self.spent[u.id] += 1 if road else FIFTHS
        self.exited = True

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
        self._zoc = None
        self.overrun.append(target)
        names = ", ".join(b.units[u.id].name for u in defenders)
        return Event(kind="overrun", text=f"Overrun at {b.name(target)}, {attack} against {defence}: {names} eliminated (8.4).",
                     data={"hex": target, "attack": attack, "defence": defence, "units": [u.id for u in defenders]})  # fmt: skip


def _mp(fifths: int) -> str:
    whole, part = divmod(fifths, FIFTHS)
    return f"{whole}" if not part else f"{whole} {part}/5"


def move(b: Board, state: State, side: str, order: Move) -> list[Event]:
    """A unit or stack moves (TAC 8.0-8.6, 12.3, 15.2, 16.0); changes ``state``.

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
    * 8.0, 8.1.2: at most each unit's allowance (doubled by Strategic Movement, 8.5.1,
      halved by Interdiction, 15.2), except that a unit not starting in an enemy zone may
      always move one hex.
    * 8.2.3, 8.4.4: units on a hex of the path are picked up there; ``-<unit>`` drops a
      unit off where the stack stands (RULINGS R1).
    * 8.2.6: an Axis unit moving more than 2 MP (4 strategic) spends 1 Fuel; none for
      replacements or Rommel's HQ; with no Fuel it moves at most 2 (4) MP (RULINGS R5).
    * 8.6.1: ``exit`` at the end leaves the map by the eastern edge (Axis only); 3.0,
      8.6.2: exited units come back at Alexandria or the edge hex nearest it.
    * 16.0: ``mine`` (or ``mine2``...) first places a minefield from the hand on the hex
      the unit leaves; 16.1-16.3: a stack entering a minefield stops there and sets it off.
    """
    from engine.games.tac import mines

    strategic = order.verb == "strategic"
    if not order.units or len(set(order.units)) != len(order.units) or not order.path:
        raise IllegalOrder("TAC 8.0", "A move names each moving unit once and at least one hex.")
    units: list[Unit] = []
    for uid in order.units:
        u = state.units.get(uid)
        if u is None or u.side != side:
            raise IllegalOrder("TAC 8.0", f"You have no unit {uid!r}.")
        if u.where not in ("map", "tripoli", "exited"):
            raise IllegalOrder("TAC 8.0", f"{uid} is not in play ({u.where}).")
        if uid in state.moved:
            raise IllegalOrder("TAC 8.0", f"{uid} has already moved this phase.")
        if state.delayed.get(uid) == state.turn:
            raise IllegalOrder(
                "TAC 16.1", f"{uid} is delayed (a minefield or a port) and may not move this phase."
            )
        if uid in state.replaced:
            raise IllegalOrder("TAC 10.0", f"{uid} took a replacement and may not move on.")
        units.append(u)
    first = units[0]
    start = first.hex if first.where == "map" else None
    leaders = [u for u in units if u.where == first.where and u.hex == first.hex]
    joiners = [u for u in units if u not in leaders]
    tokens = list(order.path)
    hexes = [h for h in tokens if h.isdigit()]
    for u in joiners:
        if u.where != "map" or u.hex not in hexes:
            raise IllegalOrder(
                "TAC 8.2.3",
                f"{u.id} is neither with {first.id} nor on a hex of the path, so the stack cannot pick it up.",
            )
    interdicted = [u.id for u in units if u.id in state.interdicted]
    if strategic:
        zoc = enemy_zoc(b, state, side)
        if state.turn == 1:
            raise IllegalOrder(
                "TAC 8.5.4", "Neither side may use Strategic Movement on the first turn."
            )
        if interdicted:
            raise IllegalOrder(
                "TAC 15.2", f"{interdicted[0]} is interdicted and may not use Strategic Movement."
            )
        for u in units:
            if u.arrived == state.turn:
                raise IllegalOrder(
                    "TAC 8.5.4", f"{u.id} arrived this turn and may not move strategically."
                )
            if b.units[u.id].type == "replacement":
                raise IllegalOrder("TAC 8.5.1", "Replacements cannot use Strategic Movement.")
            if u.where != "map":
                raise IllegalOrder("TAC 12.3", "Units entering the map may not move strategically.")
            if u.hex in zoc:
                raise IllegalOrder(
                    "TAC 8.5.1",
                    f"{u.id} starts in an enemy zone of control ({u.hex}) and may not move strategically.",
                )
    events: list[Event] = []
    mine = None
    if tokens and tokens[0].startswith("mine"):
        mine = mines.take_from_hand(b, state, side, tokens.pop(0), leaders)
    w = Walker(
        b, state, side, strategic, start, entry="east" if first.where == "exited" else "tripoli"
    )
    w.join(leaders)
    for i, token in enumerate(tokens):
        if token.startswith("-"):
            w.drop([x for x in token[1:].split(",") if x])
            continue
        if w.here is not None and w.here in w.zoc() and w.steps and not token.startswith("x"):
            raise IllegalOrder(
                "TAC 4.3.2", f"{w.here} is in an enemy zone of control; the move must stop there."
            )
        if token == "exit":
            if i != len(tokens) - 1:
                raise IllegalOrder("TAC 8.6.1", "'exit' ends the path: nothing follows it.")
            w.exit_map()
            continue
        if token.startswith("x"):
            events.append(w.attack(token[1:]))
            continue
        w.step(token)
        w.join([u for u in joiners if u.hex == token and u not in w.stack])
    if not w.entered:
        raise IllegalOrder("TAC 8.0", "A move enters at least one hex.")
    factor = 2 if strategic else 1
    one_hex = len(w.entered) == 1 and not w.exited and start is not None and not w.began_in_zoc
    for u in [*w.stack, *(state.units[x] for x in w.dropped)]:
        allowance = allowance_of(b, state, u) * factor
        if w.spent[u.id] > allowance * FIFTHS and not one_hex:
            raise IllegalOrder(
                "TAC 15.2" if u.id in state.interdicted else "TAC 8.0",
                f"That path costs {b.units[u.id].name} {_mp(w.spent[u.id])} Movement Points; its allowance is {allowance}.",
            )
    fuel_due = 0
    moving = [*w.stack, *(state.units[x] for x in w.dropped)]
    if side == AXIS:
        free = FUEL_FREE * factor * FIFTHS
        fuel_due = sum(
            1 for u in moving
            if pays_fuel(b, u) and w.spent[u.id] > free
        )  # fmt: skip
        if fuel_due > state.fuel:
            raise IllegalOrder(
                "TAC 8.2.6",
                f"That move costs {fuel_due} Fuel and {state.fuel} is left; "
                f"without fuel a unit moves at most {FUEL_FREE * factor} MP.",
            )
        state.fuel -= fuel_due
    if mine is not None:
        events.append(mines.place(b, state, side, start, mine))
    dest = w.entered[-1]
    for u in moving:
        u.where, u.hex = "map", w.dropped.get(u.id, dest)
        state.moved.add(u.id)
        if strategic:
            state.strategic.add(u.id)
    if w.exited:
        for u in w.stack:
            u.where, u.hex = "exited", None
            state.exit_space[u.id] = state.turn + 2
    for u in moving:
        if u.id in state.exit_space and u.where == "map":
            del state.exit_space[u.id]  # back on the map (8.6.2)
    for h in w.entered:
        if h in state.control or any(b.has(h, f) for f in ("city", "port", "fort")):
            state.control[h] = side
    names = ", ".join(b.units[u.id].name for u in w.stack)
    how = "strategic move" if strategic else "move"
    spent = max(w.spent.values())
    where = "off the eastern edge (8.6.1)" if w.exited else b.name(dest)
    text = f"{names}: {how} to {where} ({_mp(spent)} MP"
    if one_hex and spent > min(allowance_of(b, state, u) for u in w.stack) * FIFTHS:
        text += ", the one-hex minimum move of 8.1.2"
    if fuel_due:
        text += f"; {fuel_due} Fuel spent, {state.fuel} left"
    text += ")."
    if w.dropped:
        text += " Dropped off: " + ", ".join(f"{x} at {h}" for x, h in w.dropped.items()) + "."
    events.append(Event(kind="move", text=text, data={"units": [u.id for u in w.stack], "path": w.entered,
                                                      "fifths": spent, "fuel": fuel_due,
                                                      "dropped": dict(w.dropped), "exited": w.exited}))  # fmt: skip
    if w.mined is not None:
        events.append(mines.trigger(b, state, w.mined, [u for u in w.stack if u.where == "map"]))
    return events


def allowance_of(b: Board, state: State, u: Unit) -> int:
    """A unit's Movement Allowance now: halved, fractions dropped, when interdicted (TAC
    15.2, erratum L999; RULINGS R23)."""
    ma = b.values(u.id, u.step)[2]
    return ma // 2 if u.id in state.interdicted else ma


def reentry_hexes(b: Board, state: State) -> list[str]:
    """Where exited Axis units come back (TAC 3.0, 8.6.2): Alexandria, or else the eastern
    edge hexes nearest it outside Allied zones of control (RULINGS R24)."""
    from engine.core.hexgrid_rows import distance

    alex = b.home_base("allied")
    zoc = enemy_zoc(b, state, AXIS)
    foes = {u.hex for u in state.on_map() if u.side != AXIS}
    out = []
    if alex and alex not in foes:
        out.append(alex)
    edge = [h for h in b.east_edge if h not in zoc and h not in foes]
    if edge:
        near = min(distance(alex, h) for h in edge) if alex else 0
        out += [h for h in edge if not alex or distance(alex, h) == near]
    return out


def overstacked(b: Board, state: State, side: str) -> dict[str, float]:
    """Hexes where ``side`` has more than two divisions (TAC 5.1.1), with their load;
    replacement counters count half a division (5.1.1, :mod:`engine.games.tac.pieces`)."""
    from engine.games.tac.pieces import load as piece_load

    load: dict[str, float] = piece_load(state, side) if state.pieces else {}
    for u in state.on_map(side):
        load[u.hex] = load.get(u.hex, 0.0) + b.stacking(u.id)
    return {h: v for h, v in sorted(load.items()) if v > STACK_LIMIT}
