"""Replacements, rebuilding, division breakdown and buildup, and sailing from Tobruk
(TAC 10.0-10.8 L541-573, 11.1-11.5 L575-603, 12.1-12.2 L613-615): orders of the Movement
Phase.

Replacements held off the map are counts per kind in ``state.replacements`` (RULINGS
R27); the counters that carry them on the map are :mod:`engine.games.tac.pieces` (R47): a
unit takes one standing in its hex, or one landing where it stands at a port.
"""

from __future__ import annotations

from engine.core.errors import IllegalOrder
from engine.core.events import Event
from engine.core.ruleset import Dice
from engine.games.tac import supply, victory
from engine.games.tac.board import Board
from engine.games.tac.movement import enemy_zoc
from engine.games.tac.state import ALLIED, AXIS, State, Unit

#: the cities where eliminated units are rebuilt (TAC 10.7)
REBUILD_AT = {AXIS: "El Agheila", ALLIED: "Alexandria"}
#: the die rolls that delay and sink at the ports that need them (TAC 12.1, 12.2)
PORT_ROLLS = {"Tobruk": ((4, 5), 6), "Benghazi": ((5,), 6)}
#: three replacements rebuild an eliminated unit (TAC 10.7)
REBUILD_COST = 3
#: the earliest turn the New Zealand 7-6 may form (TAC 11.5)
NZ_TURN = 43


def kinds(b: Board, uid: str, armour: bool) -> list[str]:
    """The replacement kinds that may give ``uid`` a step (TAC 10.4-10.6): German for
    German units, Italian for Italian, any Allied for the Allies; only armour for an
    armoured unit's top steps, armour or infantry below them."""
    x = b.units[uid]
    if x.side == ALLIED:
        base = "allied"
    else:
        base = "axis_german" if x.nationality == "GE" else "axis_italian"
    return [f"{base}_armour"] if armour else [f"{base}_infantry", f"{base}_armour"]


def ports(b: Board, state: State, side: str) -> dict[str, str]:
    """The hexes where a replacement counter of ``side`` lands now -> the port's name
    (TAC 7.1, 12.0-12.4; RULINGS R27): Tobruk and Benghazi when controlled; Alexandria for
    the Allies unless Axis units are off the eastern edge (7.5); any western edge hex for
    the Axis, where counters from Tripoli come on (12.3)."""
    out = {}
    for h, x in b.hex.items():
        if x.name in PORT_ROLLS and supply.controls(b, state, side, h):
            out[h] = x.name
    if side == ALLIED:
        alex = b.home_base(ALLIED)
        if alex and not victory.axis_off_map(state) and supply.controls(b, state, ALLIED, alex):
            out[alex] = "Alexandria"
    else:
        out.update(dict.fromkeys(b.west_edge, "the western edge"))
    return out


def _port_roll(b: Board, name: str, dice: Dice, what: str) -> tuple[int | None, str]:
    """Roll for one crossing at Tobruk or Benghazi (TAC 12.1, 12.2): "ok", "delayed" or "sunk"."""
    if name not in PORT_ROLLS:
        return None, "ok"
    delay, sunk = PORT_ROLLS[name]
    roll = dice.roll(6, f"{name} port: {what}")
    return roll, ("sunk" if roll == sunk else "delayed" if roll in delay else "ok")


def _mine(state: State, side: str, uid: str) -> Unit:
    u = state.units.get(uid)
    if u is None or u.side != side:
        raise IllegalOrder("TAC 10.0", f"You have no unit {uid!r}.")
    return u


def replace(b: Board, state: State, side: str, uid: str, dice: Dice) -> list[Event]:
    """A unit takes a replacement (TAC 10.0 procedure, 10.4-10.6, 10.8, 12.1, 12.2): out of
    enemy zones, once a turn, not after Strategic Movement (8.5.1), standing where a
    counter lands; it moves no further and may not attack this turn."""
    u = _mine(state, side, uid)
    if u.where != "map":
        raise IllegalOrder(
            "TAC 10.8", f"{uid} is not on the map; only units on the map take replacements."
        )
    if u.step == 0:
        raise IllegalOrder("TAC 10.0", f"{uid} is at full strength.")
    if uid in state.replaced:
        raise IllegalOrder("TAC 10.0", f"{uid} has had its one replacement this turn.")
    if uid in state.strategic:
        raise IllegalOrder(
            "TAC 8.5.1", f"{uid} moved strategically this turn and may not take a replacement."
        )
    if u.hex in enemy_zoc(b, state, side):
        raise IllegalOrder(
            "TAC 10.0", f"{uid} is in an enemy zone of control and may not take a replacement."
        )
    armour = u.step - 1 < b.units[uid].armour_steps
    # a replacement counter standing in the unit's hex (10.0 procedure; RULINGS R47)
    from engine.games.tac import pieces

    used = pieces.take(state, u.hex, kinds(b, uid, armour), side) if state.pieces else None
    if used is not None:
        u.step -= 1
        state.replaced.add(uid)
        state.moved.add(uid)
        return [Event(kind="replace", text=f"{b.units[uid].name} takes the {used.replace('_', ' ')} replacement in its hex: "
                                           f"now {b.units[uid].steps[u.step]} (10.0).")]  # fmt: skip
    landing = ports(b, state, side)
    if u.hex not in landing:
        raise IllegalOrder("TAC 10.0", f"Replacements land at ports (7.1, 12.0); {uid} at {u.hex} is not at one "
                                       "and no replacement counter of the right kind stands with it.",
                           f"Open: {', '.join(sorted(set(landing.values())))}.")  # fmt: skip
    have = [k for k in kinds(b, uid, armour) if state.replacements.get(k, 0) > 0]
    if not have:
        need = (
            "an armour replacement (10.5)" if armour else "a replacement of its nationality (10.4)"
        )
        raise IllegalOrder(
            "TAC 10.5" if armour else "TAC 10.4", f"{uid} needs {need} and none is left."
        )
    k = have[0]
    roll, fate = _port_roll(b, landing[u.hex], dice, "replacement")
    shown = f" (port roll {roll})" if roll else ""
    if fate == "delayed":
        return [Event(kind="replace", text=f"The replacement for {b.units[uid].name} is delayed at {landing[u.hex]}{shown}; "
                                           "it may try again next turn (12.1, 12.2).")]  # fmt: skip
    state.replacements[k] -= 1
    if fate == "sunk":
        return [
            Event(
                kind="replace",
                text=f"The replacement for {b.units[uid].name} is sunk at {landing[u.hex]}{shown} (12.1, 12.2).",
            )
        ]
    u.step -= 1
    state.replaced.add(uid)
    state.moved.add(uid)
    return [
        Event(
            kind="replace",
            text=f"{b.units[uid].name} takes a replacement{shown}: now {b.units[uid].steps[u.step]} (10.0).",
        )
    ]


def rebuild(b: Board, state: State, side: str, uid: str, dice: Dice) -> list[Event]:
    """Rebuild an eliminated unit (TAC 10.7): three replacements of its nationality at El
    Agheila (Axis) or Alexandria (Allies), held by the side; it comes back on its lowest
    step and does not move this phase (RULINGS R28). HQs come back by the die instead."""
    u = _mine(state, side, uid)
    if u.where != "dead":
        raise IllegalOrder("TAC 10.7", f"{uid} has not been eliminated.")
    if b.units[uid].type == "hq":
        raise IllegalOrder(
            "TAC 10.7", "An eliminated HQ comes back on a 6, rolled each turn, not by replacements."
        )
    city = next(h for h, x in b.hex.items() if x.name == REBUILD_AT[side])
    if not supply.controls(b, state, side, city) or any(x.side != side for x in state.at(city)):
        raise IllegalOrder(
            "TAC 10.7", f"Units are rebuilt at {b.name(city)}, which you do not hold."
        )
    if side == ALLIED and victory.axis_off_map(state):
        raise IllegalOrder(
            "TAC 7.5",
            "No Allied replacements arrive at Alexandria while Axis units are off the eastern edge.",
        )
    pools = kinds(b, uid, False)
    from engine.games.tac import pieces

    here = [k for k in pieces.kinds_at(state, city, side) if k in pools]
    if len(here) + sum(state.replacements.get(k, 0) for k in pools) < REBUILD_COST:
        raise IllegalOrder(
            "TAC 10.7",
            f"Rebuilding {uid} takes {REBUILD_COST} replacements of its nationality (10.4).",
        )
    owed = REBUILD_COST
    # the counters standing in the city first (RULINGS R47), then those held off the map
    while owed and pieces.take(state, city, pools, side) is not None:
        owed -= 1
    for k in pools:
        n = min(owed, state.replacements.get(k, 0))
        state.replacements[k] = state.replacements.get(k, 0) - n
        owed -= n
    u.where, u.hex, u.step, u.arrived = "map", city, len(b.units[uid].steps) - 1, state.turn
    state.moved.add(uid)
    state.replaced.add(uid)
    return [
        Event(
            kind="rebuild",
            text=f"{b.units[uid].name} is rebuilt at {b.name(city)} as {b.units[uid].steps[u.step]} (10.7).",
        )
    ]


def hq_return(b: Board, state: State, dice: Dice) -> list[Event]:
    """An eliminated HQ comes back to its Home Base on a 6, rolled once each turn (TAC 10.7)."""
    events = []
    for x in b.oob.units:
        u = state.units[x.id]
        if x.side != state.player or x.type != "hq" or u.where != "dead":
            continue
        roll = dice.roll(6, f"{x.name} returns on a 6")
        if roll != 6:
            events.append(Event(kind="rebuild", text=f"{x.name}: roll {roll}, stays out (10.7)."))
            continue
        u.step, u.arrived = 0, state.turn
        if x.side == ALLIED:
            u.where, u.hex = "map", b.home_base(ALLIED)
        else:
            u.where, u.hex = "tripoli", None
        events.append(
            Event(kind="rebuild", text=f"{x.name}: roll 6, back at its Home Base (10.7).")
        )
    return events


def breakdown(b: Board, state: State, side: str, uid: str) -> list[Event]:
    """Break a full-strength division into its components on its hex (TAC 11.1, 11.3):
    components come on at full strength, eliminated ones reappearing."""
    u = _mine(state, side, uid)
    x = b.units[uid]
    if not x.components:
        raise IllegalOrder("TAC 11.1", f"{x.name} has no components to break down into.")
    if u.where != "map" or u.id in state.moved:
        raise IllegalOrder("TAC 11.1", f"{uid} must be on the map and not yet moved this phase.")
    if u.step != 0:
        raise IllegalOrder(
            "TAC 11.1", f"{x.name} breaks down only at full strength ({x.steps[0]})."
        )
    for c in x.components:
        cu = state.units[c]
        cu.where, cu.hex, cu.step, cu.arrived = "map", u.hex, 0, state.turn
    u.where, u.hex = "pool", None
    names = ", ".join(b.units[c].name for c in x.components)
    return [Event(kind="breakdown", text=f"{x.name} breaks down into {names} (11.1).")]


def buildup(b: Board, state: State, side: str, uid: str) -> list[Event]:
    """Build a division up from its components stacked together (TAC 11.2, 11.2.1, 11.4)
    or form the New Zealand 7-6 (11.5). The division does not move on this phase."""
    u = _mine(state, side, uid)
    x = b.units[uid]
    if uid == "nz_2_7":
        return _new_zealand(b, state, u)
    if not x.components:
        raise IllegalOrder("TAC 11.2", f"{x.name} is not built from components.")
    if u.where != "pool":
        raise IllegalOrder("TAC 11.2", f"{x.name} is not broken down.")
    first_1armd = uid == "uk_1armd" and state.units["uk_lancers"].where == "pool"
    parts = [state.units[c] for c in x.components if state.units[c].where not in ("dead", "removed")
             and not (first_1armd and c == "uk_lancers")]  # fmt: skip
    hexes = {p.hex for p in parts}
    if len(parts) < 2 or any(p.where != "map" for p in parts) or len(hexes) != 1:
        raise IllegalOrder("TAC 11.2", f"{x.name} is built up when all its surviving components stand together on one hex.",
                           "Components: " + ", ".join(x.components) + ".")  # fmt: skip
    total = sum(b.values(p.id, p.step)[0] for p in parts)
    if first_1armd:
        total += b.values("uk_lancers", 0)[0]  # 11.4: the Lancers join the first time
    step = next(
        (i for i, v in enumerate(x.steps) if b.values(uid, i)[0] <= total), len(x.steps) - 1
    )
    h = parts[0].hex
    for p in parts:
        p.where, p.hex = "pool", None
        state.moved.discard(p.id)
    if first_1armd:
        state.units["uk_lancers"].where = "pool"
    u.where, u.hex, u.step, u.arrived = "map", h, step, state.turn
    state.moved.add(uid)
    return [
        Event(
            kind="buildup", text=f"{x.name} is built up at {b.name(h)} as {x.steps[step]} (11.2)."
        )
    ]


def _new_zealand(b: Board, state: State, u: Unit) -> list[Event]:
    """The New Zealand 7-6 (TAC 11.5): from Turn 43, the full-strength 2nd NZ Division and
    a full-strength armoured brigade on one hex become the 7-6, for good."""
    nz = state.units["nz_2"]
    if state.turn < NZ_TURN:
        raise IllegalOrder("TAC 11.5", f"The New Zealand 7-6 forms from Turn {NZ_TURN}.")
    if u.where != "pool" or nz.where != "map" or nz.step != 0:
        raise IllegalOrder(
            "TAC 11.5", "The 2nd New Zealand Division must be on the map at full strength."
        )
    bde = next((x for x in sorted(state.at(nz.hex), key=lambda x: x.id)
                if b.units[x.id].type == "armor" and b.units[x.id].size == "X" and x.step == 0), None)  # fmt: skip
    if bde is None:
        raise IllegalOrder(
            "TAC 11.5",
            "A full-strength armoured brigade must stand with the 2nd New Zealand Division.",
        )
    h = nz.hex
    for x in (nz, bde):
        x.where, x.hex = "removed", None
    u.where, u.hex, u.step, u.arrived = "map", h, 0, state.turn
    state.moved.add(u.id)
    return [
        Event(
            kind="buildup",
            text=f"The 2nd New Zealand Division and {b.units[bde.id].name} become the 7-6 at {b.name(h)} (11.5).",
        )
    ]


def sail(b: Board, state: State, side: str, uid: str, dice: Dice) -> list[Event]:
    """A combat unit sails from Tobruk to its Home Base (TAC 12.1): a roll of 4 or 5
    delays it for the turn, a 6 costs it a step; it spends the phase at sea and arrives
    at Alexandria (Allies) or Tripoli (Axis)."""
    u = _mine(state, side, uid)
    tobruk = next(h for h, x in b.hex.items() if x.name == "Tobruk")
    if u.where != "map" or u.hex != tobruk or uid in state.moved:
        raise IllegalOrder("TAC 12.1", f"{uid} must stand in Tobruk and not have moved this phase.")
    if not supply.controls(b, state, side, tobruk):
        raise IllegalOrder("TAC 12.1", "Only the side that controls Tobruk may use its port.")
    if b.units[uid].type == "replacement":
        raise IllegalOrder("TAC 12.1", "Only combat units sail home from Tobruk.")
    alex = b.home_base(ALLIED)
    if side == ALLIED and (
        victory.axis_off_map(state) or any(x.side != side for x in state.at(alex))
    ):
        raise IllegalOrder("TAC 7.5", "Alexandria takes no Allied arrivals now.")
    roll, fate = _port_roll(b, "Tobruk", dice, f"{uid} sails")
    state.moved.add(uid)
    if fate == "delayed":
        return [
            Event(
                kind="sail", text=f"{b.units[uid].name} is delayed in Tobruk (roll {roll}, 12.1)."
            )
        ]
    text = f"{b.units[uid].name} sails from Tobruk (roll {roll})"
    if fate == "sunk":
        if u.step + 1 >= len(b.units[uid].steps):
            u.where, u.hex = "dead", None
            return [Event(kind="sail", text=text + ": lost at sea (12.1).")]
        u.step += 1
        text += f", losing a step ({b.units[uid].steps[u.step]})"
    if side == ALLIED:
        u.hex = alex
    else:
        u.where, u.hex = "tripoli", None
    return [
        Event(
            kind="sail", text=text + f" to {'Alexandria' if side == ALLIED else 'Tripoli'} (12.1)."
        )
    ]


def land(b: Board, state: State, side: str, uid: str, dice: Dice) -> list[Event]:
    """A reinforcement lands at Tobruk instead of its Home Base (TAC 7.1 L331, 12.0 L609,
    12.1 L613; RULINGS R8, R46): a unit that arrived this turn at Alexandria (or is held
    off it, 7.5) or at Tripoli, and has not moved, sails to Tobruk when its side
    controls it. On 1-3 it lands and may move this phase; on 4-5 it is delayed, stays at
    its Home Base without moving and may try again next turn; on 6 it loses a step and
    lands (lost at sea on its last step). Benghazi takes replacements only (12.2)."""
    u = _mine(state, side, uid)
    tobruk = next(h for h, x in b.hex.items() if x.name == "Tobruk")
    alex = b.home_base(ALLIED)
    at_home = (
        u.where == "held"
        or (side == ALLIED and u.where == "map" and u.hex == alex)
        or (side == AXIS and u.where == "tripoli")
    )
    fresh = state.landing.get(uid) == state.turn
    if b.units[uid].type == "replacement" or not at_home or not fresh or uid in state.moved:
        raise IllegalOrder(
            "TAC 12.1",
            f"{uid} is not a reinforcement waiting at its Home Base this turn; only those land at Tobruk.",
        )
    if not supply.controls(b, state, side, tobruk):
        raise IllegalOrder("TAC 12.1", "Only the side that controls Tobruk may land units there.")
    roll, fate = _port_roll(b, "Tobruk", dice, f"{uid} lands")
    name = b.units[uid].name
    if fate == "delayed":
        state.landing[uid] = state.turn + 1
        state.moved.add(uid)
        return [Event(kind="land", text=f"{name} is delayed at sea off Tobruk (roll {roll}); it may try again "
                                        "next turn (12.1).")]  # fmt: skip
    state.landing.pop(uid, None)
    text = f"{name} lands at Tobruk (roll {roll}"
    if fate == "sunk":
        if u.step + 1 >= len(b.units[uid].steps):
            u.where, u.hex = "dead", None
            return [Event(kind="land", text=f"{name} is lost at sea off Tobruk (roll {roll}, 12.1).")]
        u.step += 1
        text += f", losing a step: {b.units[uid].steps[u.step]}"
    u.where, u.hex, u.arrived = "map", tobruk, state.turn
    return [Event(kind="land", text=text + "; it may move this phase, 12.1).")]


def cap_pool(b: Board, state: State) -> list[Event]:
    """Replacements beyond the side's replacement counters are lost (TAC 10.1; RULINGS
    R27): the counters already in play carry their own (RULINGS R47)."""
    side = state.player
    from engine.games.tac import pieces

    limit = b.oob.counter_mix.replacement_counters[side] - pieces.in_play(state, side)
    keys = sorted(k for k in state.replacements if k.startswith(side))
    total = sum(state.replacements[k] for k in keys)
    lost = 0
    for k in keys:
        while total > limit and state.replacements[k] > 0:
            state.replacements[k] -= 1
            total -= 1
            lost += 1
    if not lost:
        return []
    return [
        Event(
            kind="replacements",
            text=f"{lost} {side.title()} replacement(s) lost: only {limit} counters (10.1).",
        )
    ]
