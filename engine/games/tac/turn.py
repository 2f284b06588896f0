"""The steps of the sequence of play that need no decision (TAC 6.1): reinforcements,
withdrawals and replacements (7.0), the Axis fuel roll (14.0), the end of the turn.
"""

from __future__ import annotations

from engine.core.errors import IllegalOrder
from engine.core.events import Event
from engine.core.ruleset import Dice
from engine.games.tac import air, replace, supply, tactical, victory
from engine.games.tac import events as chits
from engine.games.tac.board import Board
from engine.games.tac.movement import enemy_zoc
from engine.games.tac.state import ALLIED, AXIS, State, enemy

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
        due = u.where == "pool" and chits.arrives(state, x, t)  # the OOB turn, or an event's (18.7)
        back = (
            next((w for w in x.withdrawals if w.return_turn == t), None)
            if u.where == "withdrawn"
            else None
        )
        stood_in = u.where == "withdrawn" and state.substitutes.get(x.id) == t
        if stood_in:
            del state.substitutes[x.id]  # 7.4: back in the place of the unit it replaced
        if due and x.entry and x.entry.step:
            u.step = x.steps.index(x.entry.step)
        if back is not None and back.return_step:
            u.step = x.steps.index(back.return_step)
        # 3.0: held-up Allied arrivals land once the exited Axis units are back
        freed = u.where == "held" and not victory.axis_off_map(state) and _alexandria_open(b, state)
        if due or back is not None or freed or stood_in:
            # 7.1: reinforcements land at a port; here each side's Home Base (RULINGS R8)
            if side == ALLIED and (victory.axis_off_map(state) or not _alexandria_open(b, state)):
                u.where, u.hex = "held", None  # 7.5, 12.4
            elif side == ALLIED:
                u.where, u.hex = "map", b.home_base(ALLIED)
            else:
                u.where, u.hex = "tripoli", None
            u.arrived = t
            state.landing[x.id] = t  # it may land at Tobruk instead (12.1; RULINGS R46)
            if u.where != "held":
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
    held = [
        b.units[u.id].name for u in state.units.values() if u.where == "held" and u.side == side
    ]
    state.landing.update({u.id: t for u in state.units.values() if u.where == "held" and u.side == side})
    if held:
        events.append(
            Event(
                kind="reinforce",
                text=f"Held off Alexandria while Axis units are off the map or the port is lost (7.5): {', '.join(held)}.",
            )
        )
    if side == ALLIED:
        state.withdrawal = None
        events += _withdraw(b, state)
        if state.withdrawal is not None:
            return events  # the Allied player chooses a donor or a substitute (7.3, 7.4)
    return events + _after_withdrawals(b, state, dice)


def resume(b: Board, state: State, dice: Dice) -> list[Event]:
    """Go on with the Allied Reinforcement Phase once a donor or substitute is chosen
    (TAC 7.3, 7.4): the withdrawals left, then the rest of the phase."""
    events = _withdraw(b, state)
    if state.withdrawal is not None:
        return events
    return events + _after_withdrawals(b, state, dice)


def _after_withdrawals(b: Board, state: State, dice: Dice) -> list[Event]:
    """The Reinforcement Phase after the withdrawals (TAC 10.0, 10.1, 10.7, 14.0, 15.0)."""
    side = state.player
    from engine.games.tac import pieces

    events = pieces.at_sea(b, state, dice)  # counters delayed at sea roll again (12.1, 12.2)
    events += _replacements(b, state, dice)
    events += replace.cap_pool(b, state)
    events += replace.hq_return(b, state, dice)
    state.air_used = 0
    state.air_bases = air.bases(b, state, side)
    state.replaced.clear()
    return events


def _alexandria_open(b: Board, state: State) -> bool:
    """Whether Allied arrivals may land at Alexandria (TAC 3.0, 12.0): it holds no Axis unit."""
    alex = b.home_base(ALLIED)
    return not any(u.side != ALLIED for u in state.at(alex))


def _withdraw(b: Board, state: State) -> list[Event]:
    """Withdrawals (TAC 7.2-7.4 L335-341): each unit due this turn leaves the map, to
    return on its return turn or be removed for good. Below the strength the OOB requires
    it is first built up with replacements, and what they cannot give is taken as step
    losses from other Allied divisions (7.3; RULINGS R40). A unit destroyed or surrounded
    (out of supply) is replaced by another of at least its combat value, which comes back
    in its place (7.4; RULINGS R41). The Allied player chooses the donor and the
    substitute when there is more than one (RULINGS R45); ``state.withdrawal`` keeps the
    units still to go while he does, and is None once all have gone."""
    events: list[Event] = []
    if state.withdrawal is None:
        due = [x.id for x in b.oob.units
               if x.side == ALLIED and any(w_.turn == state.turn for w_ in x.withdrawals)]  # fmt: skip
        state.withdrawal = {"todo": due, "choice": None}
    w = state.withdrawal
    while w["todo"]:
        uid = w["todo"][0]
        x = b.units[uid]
        wd = next(w_ for w_ in x.withdrawals if w_.turn == state.turn)
        u = state.units[uid]
        need = x.steps.index(wd.min_step)
        if u.where == "map" and u.hex not in supply.supplied_hexes(b, state, x.side):
            done, more = _substitute(b, state, uid, need, wd.return_turn, "is surrounded")
        elif u.where != "map":
            done, more = _substitute(b, state, uid, need, wd.return_turn, "is not on the map")
        else:
            done, more = _top_up(b, state, uid, need)
            if done:
                u.where, u.hex = ("withdrawn" if wd.return_turn else "removed"), None
                state.moved.discard(uid)
                back = f"returns on Turn {wd.return_turn}" if wd.return_turn else "removed for good"
                more.append(Event(kind="withdraw", text=f"{x.name} withdraws ({back})."))
        events += more
        if not done:
            return events  # waiting for the Allied player's choice
        w["todo"].pop(0)
    state.withdrawal = None
    return events


def standing(state: State, side: str, topic: str) -> str:
    """A side's standing order on ``topic`` (``withdraw``: ask, the default, or engine)."""
    return state.standing.get(side, {}).get(topic, STANDING[topic][0])


#: the standing orders and their values, the default first (RULINGS R45)
STANDING = {"withdraw": ("ask", "engine")}


def _pick(state: State, kind: str, uid: str, options: list[str]) -> str | None:
    """The unit chosen as ``kind`` (donor or substitute) for ``uid`` among ``options``,
    the engine's own choice first (RULINGS R40, R41, R45): the only one, the one the
    Allied player gave, or the engine's when his standing order says so; None when he is
    asked (``state.withdrawal["choice"]`` then holds the question)."""
    w = state.withdrawal
    asked = w["choice"] if w is not None else None
    if asked and asked["kind"] == kind and asked["unit"] == uid and asked.get("pick"):
        w["choice"] = None
        return asked["pick"]
    if len(options) == 1 or w is None or standing(state, ALLIED, "withdraw") == "engine":
        return options[0]
    w["choice"] = {"kind": kind, "unit": uid, "options": list(options)}
    return None


def donors(b: Board, state: State, uid: str) -> list[str]:
    """The Allied divisions that may give a step to ``uid`` (TAC 7.3): on the map, able to
    lose a step without being eliminated; the one with the most steps left first (the
    engine's choice, RULINGS R40)."""
    ds = [d for d in state.on_map(ALLIED) if d.id != uid and b.units[d.id].size == "XX"
          and d.step + 1 < len(b.units[d.id].steps)]  # fmt: skip
    return [d.id for d in sorted(ds, key=lambda d: (d.step - len(b.units[d.id].steps), d.id))]


def _top_up(b: Board, state: State, uid: str, need: int) -> tuple[bool, list[Event]]:
    """Bring a withdrawing unit up to its required step (TAC 7.3): replacements first
    (infantry, then armour), then steps from other Allied divisions on the map, chosen by
    the Allied player (RULINGS R45). ``(False, events)`` while a donor is asked for."""
    u = state.units[uid]
    used = 0
    for k in ("allied_infantry", "allied_armour"):
        while u.step > need and state.replacements.get(k, 0) > 0:
            state.replacements[k] -= 1
            u.step -= 1
            used += 1
    events = (
        [
            Event(
                kind="withdraw",
                text=f"{b.units[uid].name} takes {used} replacement(s) to withdraw at strength (7.3).",
            )
        ]
        if used
        else []
    )
    while u.step > need:
        ds = donors(b, state, uid)
        if not ds:
            break
        pick = _pick(state, "donor", uid, ds)
        if pick is None:
            return False, events
        d = state.units[pick]
        d.step += 1
        u.step -= 1
        events.append(
            Event(
                kind="withdraw",
                text=f"{b.units[d.id].name} gives a step so that {b.units[uid].name} withdraws at strength (7.3).",
            )
        )
    return True, events


def substitutes(b: Board, state: State, uid: str, need: int) -> list[str]:
    """The Allied units that may withdraw in ``uid``'s place (TAC 7.4): combat units (not
    HQs) in supply whose combat factor is at least ``uid``'s at its required step; the
    weakest out of enemy zones first (the engine's choice, RULINGS R41)."""
    value = b.values(uid, need)[0]
    zoc = enemy_zoc(b, state, ALLIED)
    fed = supply.supplied_hexes(b, state, ALLIED)
    cands = [d for d in state.on_map(ALLIED) if d.id != uid and b.units[d.id].type != "hq"
             and b.values(d.id, d.step)[0] >= value and d.hex in fed]  # fmt: skip
    return [d.id for d in sorted(cands, key=lambda d: (d.hex in zoc, b.values(d.id, d.step)[0], d.id))]


def _substitute(
    b: Board, state: State, uid: str, need: int, back: int | None, why: str
) -> tuple[bool, list[Event]]:
    """Withdraw another unit of equal or greater combat value (TAC 7.4), chosen by the
    Allied player (RULINGS R41, R45). ``(False, [])`` while he is asked."""
    x = b.units[uid]
    cands = substitutes(b, state, uid, need)
    if not cands:
        value = b.values(uid, need)[0]
        return True, [
            Event(
                kind="withdraw",
                text=f"{x.name} {why} and no Allied unit of {value} or more can go in its place (7.4).",
            )
        ]
    pick = _pick(state, "substitute", uid, cands)
    if pick is None:
        return False, []
    d = state.units[pick]
    d.where, d.hex = ("withdrawn" if back else "removed"), None
    state.moved.discard(d.id)
    if back:
        state.substitutes[d.id] = back
    when = f"returns on Turn {back}" if back else "removed for good"
    return True, [
        Event(
            kind="withdraw",
            text=f"{x.name} {why}: {b.units[d.id].name} withdraws in its place ({when}, 7.4).",
        )
    ]


def choose(b: Board, state: State, kind: str, uid: str) -> None:
    """Record the Allied player's donor or substitute (TAC 7.3, 7.4; RULINGS R45); the
    phase goes on with :func:`resume`."""
    c = state.withdrawal["choice"] if state.withdrawal else None
    if c is None or c["kind"] != kind:
        want = c["kind"] if c else "nothing"
        raise IllegalOrder("TAC 7.3" if kind == "donor" else "TAC 7.4",
                           f"No {kind} is asked for now (asked: {want}).")  # fmt: skip
    if uid not in c["options"]:
        rule = "TAC 7.3" if kind == "donor" else "TAC 7.4"
        why = ("must be an Allied division on the map that can lose a step" if kind == "donor"
               else "must be an Allied combat unit in supply of at least the withdrawing unit's combat factor")  # fmt: skip
        raise IllegalOrder(rule, f"{uid!r} cannot be the {kind}: it {why}.",
                           f"Choose from: {', '.join(c['options'])}.")  # fmt: skip
    c["pick"] = uid


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
    roll = min(6, roll + chits.table_penalty(state))  # Malta Convoy (18.7 L847; RULINGS D3)
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


def end_turn(b: Board, state: State, dice: Dice) -> list[Event]:
    """The Game Turn End Phase (TAC 6.1 D): exited Axis units are checked (8.6.1, 13.4),
    then victory (3.0); after Turn 50 the game ends (3.0). The next turn begins with the
    Allies (17.2) or by Initiative (18.2)."""
    events = victory.end_of_turn(b, state) + victory.check(b, state)
    if state.phase == "over":
        return events
    if state.turn >= LAST_TURN:
        return events + victory.final(b, state)
    state.turn += 1
    state.landing = {u: t for u, t in state.landing.items() if t >= state.turn}
    state.phase = "reinforce"
    events.append(Event(kind="turn", text=f"Turn {state.turn}: {b.turns[state.turn].date}."))
    events += tactical.new_turn(state) + chits.new_turn(b, state, dice)  # 18.3.3; 18.7.2, 18.7.4
    if state.options.get("18.2"):
        events += initiative(b, state, dice)
    else:
        state.first = ALLIED
    state.player = state.first
    return events


def initiative(b: Board, state: State, dice: Dice) -> list[Event]:
    """Initiative (Optional 18.2.1, 18.2.2): Rommel's first turn goes to the Axis; otherwise
    a die, +1 while Rommel is in play: 1-4 the Allies first, 5-6 the Axis, 7 the Axis
    choose (then ``state.phase`` becomes "initiative")."""
    rommel = state.units.get("ge_dak")
    entry = b.units["ge_dak"].entry
    first = not chits.rommel_seen(state) and chits.arrives(state, b.units["ge_dak"], state.turn)
    if rommel is not None and rommel.where == "pool" and entry and first:
        state.first = AXIS
        return [
            Event(kind="initiative", text="Rommel arrives: the Axis player turn is first (18.2.2).")
        ]
    bonus = 1 if rommel is not None and rommel.where in ("map", "tripoli") else 0
    roll = dice.roll(6, "Initiative")
    total = roll + bonus
    shown = f"roll {roll}" + (" +1 for Rommel" if bonus else "")
    if total >= 7:
        state.first = AXIS
        state.phase = "initiative"
        return [
            Event(
                kind="initiative",
                text=f"Initiative: {shown} = 7: the Axis player chooses who goes first (18.2.1).",
            )
        ]
    state.first = ALLIED if total <= 4 else AXIS
    return [
        Event(
            kind="initiative",
            text=f"Initiative: {shown}: the {state.first.title()} player turn is first (18.2.1).",
        )
    ]


def second_player(state: State) -> str:
    return enemy(state.first)
