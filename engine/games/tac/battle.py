"""Resolving the declared attacks of the Combat Phase (TAC 9.6-9.10, 17.4): the roll,
step losses, retreats and the advance after combat.

A battle in progress is ``state.fight``, a plain dict:
``attackers``/``targets`` as declared; ``side`` (attacker) and ``foe``; ``stage``: "loss",
"retreat" or "advance"; ``due``: steps each side still owes; ``taken``: steps each unit
has lost in this battle (9.10.3); ``retreat``: hexes each side must retreat (0: none; 1:
one or two; 2: exactly two); ``moving``: units still to retreat, in order.
"""

from __future__ import annotations

import re

from engine.core.errors import IllegalOrder
from engine.core.events import Event
from engine.core.hexgrid_rows import neighbours
from engine.core.ruleset import Dice
from engine.games.tac import combat
from engine.games.tac import events as chits
from engine.games.tac.board import Board
from engine.games.tac.effort import maximum_effort, may_defend, shift
from engine.games.tac.movement import STACK_LIMIT
from engine.games.tac.state import ALLIED, State, Unit, enemy

CODE = re.compile(r"^([AD])(\d)?(R)?$")


def start(b: Board, state: State, target: str, dice: Dice, effort: bool = False) -> list[Event]:
    """Resolve the declared attack on ``target`` (TAC 9.0 procedure, 9.3, 9.6, 9.7, 17.4):
    the attacker picks the order of battles; the roll reads the CRT column of the odds.
    ``effort``: a Maximum Effort first shifts the column (Optional 18.4)."""
    battle = next((x for x in state.battles if target in x["targets"]), None)
    if battle is None:
        raise IllegalOrder("TAC 9.0", f"No declared attack is waiting on {target}.")
    state.battles.remove(battle)
    side = state.player
    attackers = [state.units[u] for u in battle["attackers"] if state.units[u].where == "map"]
    defenders = [u for h in battle["targets"] for u in state.at(h) if u.side != side]
    fight = {"attackers": [u.id for u in attackers], "defenders": [u.id for u in defenders],
             "targets": list(battle["targets"]), "side": side, "foe": enemy(side),
             "stage": "loss", "due": {side: 0, enemy(side): 0}, "taken": {},
             "retreat": {side: 0, enemy(side): 0}, "moving": []}  # fmt: skip
    marks = chits.marks_for_battle(b, state, attackers)  # the events played for it (18.7)
    attack = sum(combat.attack_factor(b, u) for u in attackers) + battle.get("air", [0])[0]
    attack -= marks.get("cut", 0)
    if marks.get("flak"):
        fight["flak"] = marks["flak"]
    defence = sum(
        combat.defence_total(b, [d for d in defenders if d.hex == h], [u.hex for u in attackers])
        for h in battle["targets"]
    )
    column = combat.odds(attack, defence) if defenders and attackers else "C"
    if marks.get("shift") and column != "C":  # Naval Support (18.7 L851)
        column = shift(b, column, marks["shift"])
    events: list[Event] = []
    extra = 0
    if effort:
        if column == "C":
            raise IllegalOrder(
                "TAC 18.4", "There is no battle left here to make a Maximum Effort in."
            )
        column, extra, line = maximum_effort(b, state, attackers, column, dice)
        events.append(line)
    bonus = 2 if side == ALLIED and state.turn <= 2 else 0  # 17.4
    roll = None
    if column in ("AE", "DE") or not defenders or not attackers:
        a_res, d_res = combat.result(b, column, 1) if column in ("AE", "DE") else (None, None)
    else:
        roll = dice.roll(6, "Combat Results Table")
        a_res, d_res = combat.result(b, column, roll + bonus)
    shown = f"roll {roll}" + (f" +2 = {roll + bonus}" if bonus else "") if roll else "no roll"
    text = (f"Battle for {', '.join(b.name(h) for h in battle['targets'])}: {attack} against "
            f"{defence}, {column}, {shown}: attacker {a_res or '-'}, defender {d_res or '-'}.")  # fmt: skip
    events.append(
        Event(
            kind="battle",
            text=text,
            data={"odds": column, "roll": roll, "attacker": a_res, "defender": d_res},
        )
    )
    events += _apply(b, state, fight, side, a_res)
    if extra and a_res not in ("AE",):
        fight["due"][side] += extra  # 18.4: one more step, whatever the result
    events += _apply(b, state, fight, fight["foe"], d_res)
    if fight["retreat"][fight["foe"]] == 2 and fight["retreat"][side]:
        fight["retreat"][fight["foe"]] = (
            1  # 9.8.1: DR is two hexes unless the attacker retreats too
        )
    state.fight = fight
    return events + settle(b, state)


def _apply(b: Board, state: State, fight: dict, who: str, code: str | None) -> list[Event]:
    """Read one side's CRT result (TAC 9.7)."""
    if code is None or code == "C":
        return []
    units = fight["attackers"] if who == fight["side"] else fight["defenders"]
    if code in ("AE", "DE"):
        for uid in units:
            _kill(state, uid)
        names = ", ".join(b.units[u].name for u in units)
        return [Event(kind="eliminated", text=f"{names} eliminated (9.7).")]
    m = CODE.match(code)
    if m is None:
        raise ValueError(f"unknown CRT code {code!r}")
    fight["due"][who] = int(m[2] or 0)
    if m[3] == "R":
        fight["retreat"][who] = 2 if code == "DR" else 1
    return []


def _kill(state: State, uid: str) -> None:
    u = state.units[uid]
    u.where, u.hex = "dead", None


def _alive(state: State, uids: list[str]) -> list[Unit]:
    return [state.units[u] for u in uids if state.units[u].where == "map"]


def loss_candidates(state: State, fight: dict, who: str) -> list[Unit]:
    """Units of ``who`` that may take the next step loss: the ones that have lost the fewest
    steps in this battle (TAC 9.10.3)."""
    units = _alive(state, fight["attackers"] if who == fight["side"] else fight["defenders"])
    if not units:
        return []
    flak = fight.get("flak")
    if flak and who == fight["side"] and not any(fight["taken"].get(u.id) for u in units):
        if any(u.id == flak for u in units):  # Flak 88 (18.7 L897): the first step is his
            return [u for u in units if u.id == flak]
    low = min(fight["taken"].get(u.id, 0) for u in units)
    return [u for u in units if fight["taken"].get(u.id, 0) == low]


def lose(b: Board, state: State, uid: str) -> Event:
    """One step lost (TAC 9.10, 9.10.1, 9.10.2): the next smaller step, or elimination
    when the unit has none left."""
    fight = state.fight
    u = state.units[uid]
    fight["taken"][uid] = fight["taken"].get(uid, 0) + 1
    fight["due"][u.side] -= 1
    steps = b.units[uid].steps
    if u.step + 1 >= len(steps):
        _kill(state, uid)
        return Event(
            kind="loss", text=f"{b.units[uid].name} loses its last step and is eliminated (9.10.2)."
        )
    u.step += 1
    return Event(
        kind="loss", text=f"{b.units[uid].name} loses a step, now {steps[u.step]} (9.10.1)."
    )


def retreat_paths(b: Board, state: State, u: Unit, distance: int) -> list[tuple[str, ...]]:
    """Where ``u`` may retreat (TAC 9.8.1, 9.8.2, 4.5): ``distance`` 1 means one or two
    hexes, 2 exactly two; never into an enemy unit, an enemy ZOC (friendly units do not
    negate it, 4.5.2), across a prohibited hexside or off the map, nor into a hex where it
    would break the stacking limit. With 18.1.1 a ZOC hex holding a friendly unit may be
    crossed at the price of a step (:func:`retreat_cost`). Units retreat toward their
    supply (9.8.1): when some path ends where the unit traces supply, only those are open
    (RULINGS R20)."""
    from engine.games.tac import supply
    from engine.games.tac.movement import enemy_zoc

    zoc = enemy_zoc(b, state, u.side)
    foes = {x.hex for x in state.on_map(enemy(u.side))}
    friends = {x.hex for x in state.on_map(u.side) if x.id != u.id}
    lenient = bool(state.options.get("18.1"))

    def ok(a: str, c: str) -> bool:
        if not b.crossable(a, c) or c in foes:
            return False
        return c not in zoc or (lenient and c in friends)

    def room(h: str) -> bool:
        load = sum(b.stacking(x.id) for x in state.at(h) if x.side == u.side and x.id != u.id)
        return load + b.stacking(u.id) <= STACK_LIMIT

    first = [h for h in neighbours(u.hex) if ok(u.hex, h)]
    out: list[tuple[str, ...]] = []
    if distance == 1:
        out += [(h,) for h in first if room(h)]
    out += [(h, c) for h in first for c in neighbours(h) if c != u.hex and ok(h, c) and room(c)]
    if len(out) > 1:
        fed = supply.supplied_hexes(b, state, u.side)
        toward = [p for p in out if p[-1] in fed]
        if toward:
            out = toward
    return out


def retreat_cost(b: Board, state: State, u: Unit, path: tuple[str, ...]) -> int:
    """Steps a retreat costs under Optional 18.1.1: one for each enemy-controlled hex the
    path enters where a friendly unit stands (RULINGS R29)."""
    from engine.games.tac.movement import enemy_zoc

    zoc = enemy_zoc(b, state, u.side)
    return sum(1 for h in path if h in zoc)


def retreat(b: Board, state: State, uid: str, path: tuple[str, ...]) -> Event:
    """A unit retreats along ``path`` (TAC 9.8.2, 9.8.3: its owner picks the path)."""
    fight = state.fight
    u = state.units[uid]
    due = [m for m in fight["moving"] if state.units[m].side == decider(state)]
    if uid not in due:
        raise IllegalOrder(
            "TAC 9.8.2", f"{uid} is not a unit that must retreat now ({', '.join(due)})."
        )
    legal = retreat_paths(b, state, u, fight["retreat"][u.side])
    if tuple(path) not in legal:
        raise IllegalOrder(
            "TAC 9.8.2",
            f"{uid} cannot retreat by {' '.join(path) or 'nowhere'}.",
            "Open: "
            + "; ".join(" ".join(p) for p in legal[:12])
            + ("; ..." if len(legal) > 12 else ""),
        )
    fight["moving"].remove(uid)
    extra = retreat_cost(b, state, u, tuple(path))
    u.hex = path[-1]
    text = f"{b.units[uid].name} retreats to {b.name(path[-1])} (9.8)."
    for _ in range(extra):
        if u.step + 1 >= len(b.units[uid].steps):
            _kill(state, uid)
            return Event(
                kind="retreat",
                text=text[:-1] + ", through enemy zones, and is eliminated (18.1.1).",
            )
        u.step += 1
    if extra:
        text = (
            text[:-1]
            + f", losing {extra} step(s) through enemy zones: now {b.units[uid].steps[u.step]} (18.1.1)."
        )
    return Event(kind="retreat", text=text)


def advance(b: Board, state: State, units: tuple[str, ...], target: str) -> Event:
    """Advance after combat (TAC 9.9.1): surviving attackers not called to retreat may
    enter a vacated defending hex next to them, within the stacking limit."""
    fight = state.fight
    if target not in fight["targets"] or state.at(target):
        raise IllegalOrder("TAC 9.9.1", f"{target} is not a vacated defending hex of this battle.")
    load = 0.0
    for uid in units:
        u = state.units.get(uid)
        if u is None or uid not in fight["attackers"] or u.where != "map":
            raise IllegalOrder("TAC 9.9.1", f"{uid} is not a surviving attacker of this battle.")
        if not b.crossable(u.hex, target):
            raise IllegalOrder("TAC 9.9.1", f"{uid} at {u.hex} is not next to {target}.")
        load += b.stacking(uid)
    if load > STACK_LIMIT:
        raise IllegalOrder(
            "TAC 9.9.1", f"Advancing would put {load:g} divisions in {target}; the limit is 2."
        )
    for uid in units:
        state.units[uid].hex = target
    fight["attackers"] = [a for a in fight["attackers"] if a not in units]
    names = ", ".join(b.units[u].name for u in units)
    return Event(kind="advance", text=f"{names} advance into {b.name(target)} (9.9).")


def settle(b: Board, state: State) -> list[Event]:
    """Take every step of the battle that needs no choice; stop at the next decision or
    close the battle (TAC 9.10.3, 9.10.4, 9.8.4, 9.9)."""
    events: list[Event] = []
    fight = state.fight
    while fight is not None:
        if fight["stage"] == "loss":
            who = next((w for w in (fight["foe"], fight["side"]) if fight["due"][w] > 0), None)
            if who is None:
                if may_defend(b, state, fight):
                    fight["stage"] = "defend"  # 18.5: the defender may make a stand
                    return events
                fight["stage"] = "retreat"
                fight["moving"] = _retreaters(b, state, fight)
                continue
            cands = loss_candidates(state, fight, who)
            if not cands:
                fight["due"][who] = 0  # 9.10.4: every unit is gone
                continue
            if len(cands) > 1:
                return events
            events.append(lose(b, state, cands[0].id))
        elif fight["stage"] == "retreat":
            # 9.8.2: units retreat one by one, in any order their owner likes; a unit with
            # no way out is destroyed (4.5.1), checked as its side's turn to retreat comes
            fight["moving"] = [m for m in fight["moving"] if state.units[m].where == "map"]
            if not fight["moving"]:
                fight["stage"] = "advance"
                continue
            who = state.units[fight["moving"][0]].side
            stuck = [m for m in fight["moving"] if state.units[m].side == who
                     and not retreat_paths(b, state, state.units[m], fight["retreat"][who])]  # fmt: skip
            for m in stuck:
                fight["moving"].remove(m)
                _kill(state, m)
                events.append(
                    Event(
                        kind="eliminated",
                        text=f"{b.units[m].name} cannot retreat and is destroyed (9.8.2, 4.5.1).",
                    )
                )
            if stuck:
                continue
            return events
        else:
            open_hex = [h for h in fight["targets"] if not state.at(h)]
            can = _alive(state, fight["attackers"]) and not fight["retreat"][fight["side"]]
            if open_hex and can:
                return events
            state.fight = fight = None
    return events


def _retreaters(b: Board, state: State, fight: dict) -> list[str]:
    """Units that must retreat, the defender's first (TAC 9.8.4); units in a Fort never
    retreat (9.5)."""
    out = []
    if fight["retreat"][fight["foe"]]:
        out += [u.id for u in _alive(state, fight["defenders"]) if not b.has(u.hex, "fort")]
    if fight["retreat"][fight["side"]]:
        out += [u.id for u in _alive(state, fight["attackers"])]
    return out


def decider(state: State) -> str | None:
    """The side whose decision the battle waits on."""
    fight = state.fight
    if fight is None:
        return None
    if fight["stage"] == "loss":
        return next(w for w in (fight["foe"], fight["side"]) if fight["due"][w] > 0)
    if fight["stage"] == "retreat":
        return state.units[fight["moving"][0]].side
    if fight["stage"] == "defend":
        return fight["foe"]
    return fight["side"]
