"""Replacement counters as pieces on the map (TAC 10.0-10.2 L541-555, 5.1.1 L246, 8.4.1
L409, 12.0-12.3 L605-621; RULINGS R27, R47).

Replacements a side receives are held off the map (``state.replacements``, per kind) until
a counter carries them: ``place <kind> <hex>`` lands one at a port the side may use (the
rolls of Tobruk and Benghazi as for any landing; a counter delayed there waits at sea and
rolls again at its side's next Reinforcement Phase), ``carry <counter> <hex>`` moves it up
to 7 MP (the Repl 0-7 counter) to a unit that needs it. A unit takes the counter standing
in its hex (10.0 procedure). A counter has no combat value and no zone of control; alone
in an enemy zone, or with an enemy unit in its hex, it is destroyed (10.2, 8.4.1), and it
counts half a division for stacking (5.1.1). A side has as many counters as the counter
mix gives it (10 Allied, 9 Axis, 10.1); ``state.pieces`` holds those in play:
``{id: {"kind", "hex", "sea", "retry", "moved"}}``.
"""

from __future__ import annotations

from typing import Any

from engine.core.errors import IllegalOrder
from engine.core.events import Event
from engine.core.hexgrid_rows import neighbours
from engine.core.ruleset import Dice
from engine.games.tac.board import Board
from engine.games.tac.movement import FIFTHS, enemy_zoc
from engine.games.tac.state import ALLIED, AXIS, State, enemy

#: the kinds of replacement each side holds (TAC 10.0, 10.3-10.6)
KINDS = {
    ALLIED: ("allied_infantry", "allied_armour"),
    AXIS: ("axis_german_infantry", "axis_german_armour", "axis_italian_infantry",
           "axis_italian_armour"),
}  # fmt: skip
#: the Movement Allowance printed on a replacement counter (Repl 0-7, L250)
MA = 7
#: a replacement counts half a division for stacking (TAC 5.1.1)
STACKING = 0.5
#: Movement Points spent entering from Tripoli by a western edge hex (TAC 12.3)
TRIPOLI_MP = 2


def counter_ids(b: Board, side: str) -> list[str]:
    """The ids of ``side``'s replacement counters (TAC 10.1: as many as the counter mix)."""
    n = b.oob.counter_mix.replacement_counters[side]
    return [f"rp_{side}_{i}" for i in range(1, n + 1)]


def side_of(pid: str) -> str:
    return ALLIED if pid.startswith("rp_allied_") else AXIS


def on_map(state: State, side: str | None = None) -> dict[str, dict[str, Any]]:
    return {
        k: p for k, p in state.pieces.items()
        if p["hex"] is not None and (side is None or side_of(k) == side)
    }  # fmt: skip


def in_play(state: State, side: str) -> int:
    """How many of ``side``'s counters are on the map or at sea (TAC 10.1)."""
    return sum(1 for k in state.pieces if side_of(k) == side)


def load(state: State, side: str) -> dict[str, float]:
    """The stacking load of ``side``'s counters per hex (TAC 5.1.1)."""
    out: dict[str, float] = {}
    for p in on_map(state, side).values():
        out[p["hex"]] = out.get(p["hex"], 0.0) + STACKING
    return out


def _phase_key(state: State) -> str:
    return f"{state.turn}:{state.player}"


def check_place(b: Board, state: State, side: str, kind: str, h: str,
                landing: dict[str, str] | None = None, zoc: set[str] | None = None) -> tuple[str, str]:  # fmt: skip
    """The counter that :func:`place` would land at ``h`` and the port's name, or
    :class:`IllegalOrder` (TAC 10.0, 10.1, 10.2, 12.0); changes nothing."""
    from engine.games.tac import replace

    if kind not in KINDS[side]:
        raise IllegalOrder("TAC 10.0", f"{kind!r} is not a kind of {side} replacement.",
                           "Kinds: " + ", ".join(KINDS[side]) + ".")  # fmt: skip
    if state.replacements.get(kind, 0) <= 0:
        raise IllegalOrder("TAC 10.0", f"You hold no {kind.replace('_', ' ')} replacement to place.")
    free = [c for c in counter_ids(b, side) if c not in state.pieces]
    if not free:
        raise IllegalOrder("TAC 10.1", "Every replacement counter of yours is already in play.")
    landing = replace.ports(b, state, side) if landing is None else landing
    if h not in landing:
        raise IllegalOrder("TAC 12.0", f"A replacement lands at a port your side may use; {h} is not one.",
                           f"Open: {', '.join(sorted(set(landing.values())))}.")  # fmt: skip
    if any(u.side != side for u in state.at(h)):
        raise IllegalOrder("TAC 12.0", f"Enemy units hold {h}.")
    zoc = enemy_zoc(b, state, side) if zoc is None else zoc
    if not any(u.side == side for u in state.at(h)) and h in zoc:
        raise IllegalOrder("TAC 10.2", f"A replacement alone in the enemy zone of control at {h} would be destroyed at once.")
    return free[0], landing[h]


def place(b: Board, state: State, side: str, kind: str, h: str, dice: Dice) -> list[Event]:
    """Land a replacement held off the map at a port (TAC 7.1, 10.1, 12.0-12.3; RULINGS
    R47): Tobruk or Benghazi when the side controls them (a 4-5 at Tobruk, a 5 at Benghazi
    keeps it at sea to roll again next turn; a 6 sinks it), Alexandria for the Allies
    (not while Axis units are off the map, 7.5), any western edge hex for the Axis, which
    comes on from Tripoli having spent 2 MP (12.3)."""
    from engine.games.tac import replace

    pid, port = check_place(b, state, side, kind, h)
    state.replacements[kind] -= 1
    roll, fate = replace._port_roll(b, port, dice, f"replacement {pid} lands")
    shown = f" (port roll {roll})" if roll else ""
    what = kind.replace("_", " ")
    if fate == "sunk":
        return [Event(kind="replace", text=f"A {what} replacement is sunk off {port}{shown} (12.1, 12.2).")]
    if fate == "delayed":
        state.pieces[pid] = {"kind": kind, "hex": None, "sea": h, "retry": state.turn + 1, "moved": None}
        return [Event(kind="replace", text=f"A {what} replacement ({pid}) is delayed at sea off {port}{shown}; "
                                           "it rolls again next turn (12.1, 12.2).")]  # fmt: skip
    spent = TRIPOLI_MP * FIFTHS if side == AXIS and h in b.west_edge else 0
    state.pieces[pid] = {"kind": kind, "hex": h, "sea": None, "retry": None,
                         "moved": None, "spent": [_phase_key(state), spent]}  # fmt: skip
    return [Event(kind="replace", text=f"A {what} replacement ({pid}) lands at {b.name(h)}{shown} (10.1).")]


def destinations(b: Board, state: State, pid: str) -> dict[str, tuple[str, ...]]:
    """Where the counter ``pid`` may be carried this phase, with the cheapest path (TAC
    8.0-8.3, 4.3.2 with its 7 MP): not into an enemy unit, a minefield, a hex holding an
    enemy counter, or alone into an enemy zone (10.2)."""
    from engine.games.tac import legal

    p = state.pieces[pid]
    side = side_of(pid)
    key = _phase_key(state)
    spent = p.get("spent", [None, 0])
    cap = MA * FIFTHS - (spent[1] if spent[0] == key else 0)
    zoc = enemy_zoc(b, state, side)
    foes = {u.hex for u in state.on_map(enemy(side))}
    found, _ = legal._search(b, state, "map", p["hex"], cap, False, zoc, foes)
    mined = state.mines.get("map", {}) if state.mines else {}
    theirs = {q["hex"] for q in on_map(state, enemy(side)).values()}
    mine = {u.hex for u in state.on_map(side)}
    out = {}
    for h, (cost, path) in found.items():
        if cost > cap or h == p["hex"] or h in mined or h in theirs:
            continue
        if h in zoc and h not in mine:
            continue
        if any(x in theirs or x in mined for x in path):
            continue
        out[h] = path
    return out


def carry(b: Board, state: State, side: str, pid: str, dest: str) -> list[Event]:
    """Move a replacement counter (TAC 10.0 procedure: it must stack with the unit it
    replaces; 8.0 with its 7 MP; RULINGS R47): once a phase, to a hex the search of
    :func:`destinations` reaches."""
    p = state.pieces.get(pid)
    if p is None or side_of(pid) != side or p["hex"] is None:
        mine = sorted(on_map(state, side))
        raise IllegalOrder("TAC 10.0", f"{pid!r} is not a replacement counter of yours on the map.",
                           f"Yours: {', '.join(mine) or 'none'}.")  # fmt: skip
    if p.get("moved") == _phase_key(state):
        raise IllegalOrder("TAC 8.0", f"{pid} has already moved this phase.")
    reach = destinations(b, state, pid)
    if dest not in reach:
        raise IllegalOrder("TAC 8.0", f"{pid} at {p['hex']} cannot reach {dest} this phase (7 MP; not into "
                                      "an enemy unit, a minefield or alone into an enemy zone, 10.2).")  # fmt: skip
    start = p["hex"]
    p["hex"], p["moved"] = dest, _phase_key(state)
    return [Event(kind="move", text=f"Replacement {pid}: {start} to {b.name(dest)}.",
                  data={"units": [pid], "path": [start, *reach[dest]]})]  # fmt: skip


def take(state: State, h: str, kinds: list[str], side: str) -> str | None:
    """Use up a counter of ``side`` standing in ``h`` whose kind is the first of ``kinds``
    found there (TAC 10.0 procedure); its kind, or None."""
    here = {k: p for k, p in on_map(state, side).items() if p["hex"] == h}
    for kind in kinds:
        for k in sorted(here):
            if here[k]["kind"] == kind:
                del state.pieces[k]
                return kind
    return None


def kinds_at(state: State, h: str, side: str) -> list[str]:
    return sorted(p["kind"] for p in on_map(state, side).values() if p["hex"] == h)


def sweep(b: Board, state: State) -> list[Event]:
    """Counters with an enemy unit in their hex, or alone in an enemy zone of control, are
    destroyed (TAC 10.2, 8.4.1). Checked after every order."""
    if not state.pieces:
        return []
    events = []
    counters = on_map(state)
    if not counters:
        return []
    near = {n for p in counters.values() for n in (p["hex"], *neighbours(p["hex"]))}
    here: dict[str, set[str]] = {}
    zoc_from: dict[str, set[str]] = {}
    for u in state.on_map():
        if u.hex in near:
            here.setdefault(u.hex, set()).add(u.side)
            if max(b.values(u.id, u.step)[:2]) > 0:  # 4.1 (RULINGS R11)
                zoc_from.setdefault(u.hex, set()).add(u.side)
    for k in sorted(counters):
        p = state.pieces[k]
        side, h = side_of(k), p["hex"]
        sides = here.get(h, set())
        caught = any(enemy(side) in zoc_from.get(n, ()) and h in b.zoc(n) for n in neighbours(h))
        if enemy(side) in sides or (side not in sides and caught):
            del state.pieces[k]
            events.append(Event(kind="eliminate", text=f"The {side.title()} replacement {k} at {b.name(p['hex'])} "
                                                       "is destroyed (10.2)."))  # fmt: skip
    return events


def overrun(b: Board, state: State, side: str, path: list[str]) -> list[Event]:
    """The enemy counters in the hexes a ``side`` stack entered are destroyed: combat units
    moving overrun replacements alone (TAC 10.2, 8.4.1 L409)."""
    events = []
    entered = set(path)
    for k, p in sorted(on_map(state, enemy(side)).items()):
        if p["hex"] in entered:
            del state.pieces[k]
            events.append(Event(kind="eliminate", text=f"The {enemy(side).title()} replacement {k} at "
                                                       f"{b.name(p['hex'])} is overrun (10.2, 8.4.1)."))  # fmt: skip
    return events


def at_sea(b: Board, state: State, dice: Dice) -> list[Event]:
    """Counters delayed at sea roll again at their side's Reinforcement Phase (TAC 12.1,
    12.2): landed, delayed again, or sunk; a port no longer the side's sends the counter's
    replacement back to those held off the map."""
    from engine.games.tac import replace, supply

    events = []
    side = state.player
    for k in sorted(state.pieces):
        p = state.pieces[k]
        if side_of(k) != side or p["hex"] is not None or p["retry"] != state.turn:
            continue
        h = p["sea"]
        if not supply.controls(b, state, side, h) or any(u.side != side for u in state.at(h)):
            del state.pieces[k]
            state.replacements[p["kind"]] = state.replacements.get(p["kind"], 0) + 1
            events.append(Event(kind="replace", text=f"Replacement {k} cannot land at {b.name(h)} and is held off the map again (12.0)."))
            continue
        roll, fate = replace._port_roll(b, b.hex[h].name, dice, f"replacement {k} lands")
        if fate == "sunk":
            del state.pieces[k]
            events.append(Event(kind="replace", text=f"Replacement {k} is sunk off {b.name(h)} (roll {roll}, 12.1, 12.2)."))
        elif fate == "delayed":
            p["retry"] = state.turn + 1
            events.append(Event(kind="replace", text=f"Replacement {k} is delayed again off {b.name(h)} (roll {roll})."))
        else:
            p.update({"hex": h, "sea": None, "retry": None})
            events.append(Event(kind="replace", text=f"Replacement {k} lands at {b.name(h)} (roll {roll}, 12.1, 12.2)."))
    return events
