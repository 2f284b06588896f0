"""Optional Event Chits (TAC 18.7, L805-931; 18.6.2 L803): fourteen two-sided chits drawn
into hidden hands, played at the moments their texts give, each on a die roll of 1-4.

``state.chits`` is a plain dict (empty when 18.7 is off):
``cup``: chit ids still to draw; ``hands``: side -> the ids it holds (seen by that side
only, 18.7.1); ``spent``: played chits set aside until Turn 25 (18.7.6, 18.7.4);
``done``: the play windows closed this turn (see :func:`window`); ``queue``: chits
declared and not yet rolled for, the last on top (a Counter-Intelligence goes on top of
the chit it aims at); ``secret``: chits chosen in a battle's windows, revealed together
(18.7.7); ``resolving``: the battle waiting for those windows (``hex``, ``effort``);
``marks``: what the played events do to that battle; ``arrive``: unit -> the turn it
arrives instead of its Order of Battle turn (Force K, Late Allied Reinforcements, Early
Convoy Arrival, Rommel on Leave); ``malta``, ``luftflotte``: the turn those events apply
to; ``weather``: the Bad Weather chit (``hex``, ``turn``, ``player``); ``captured``:
``[turn, hexes]`` the Axis took from the Allies this player turn; ``rommel``: Rommel has
arrived once (18.7.3).

A chit id is ``c<n>``, the index into ``tables.events.chits``; a side plays the face of
its own side. Event names in orders are written as slugs: ``play malta-convoy``,
``play bad-weather 1127``, ``play flak-88 uk_7arm`` (:func:`slug`).
"""

from __future__ import annotations

import re
from typing import Any

from engine.core.errors import IllegalOrder
from engine.core.events import ORDER, Event
from engine.core.hexgrid_rows import distance
from engine.core.ruleset import Dice
from engine.games.tac.board import Board
from engine.games.tac.state import ALLIED, AXIS, State, Unit, enemy

#: the success rolls of an event (18.7.6, L821)
SUCCESS = (1, 2, 3, 4)
#: the hex the Long Range Desert Group measures from (L855)
LRDG_HEX = "0701"
#: how far Bad Weather reaches from its chit (L831, L877)
WEATHER_RANGE = 3
SIDE = {ALLIED: "Allied", AXIS: "Axis"}

#: events played in the window at the start of a player turn, by whose turn it is:
#: (side of the chit, phasing?) -> slugs (L831-871, L877-921; RULINGS R60)
START = {
    (ALLIED, True): {"extra-mines", "rommel-on-leave", "ultra-intelligence", "tank-recovery"},
    (ALLIED, False): {"bad-weather", "rommel-on-leave", "ultra-intelligence", "malta-convoy",
                      "royal-navy-force-k"},
    (AXIS, True): {"extra-mines", "early-convoy-arrival", "fuel-ammo-reserves", "panzer-recovery"},
    (AXIS, False): {"bad-weather", "late-allied-reinforcements", "luftflotte-2"},
}  # fmt: skip
#: events of a battle, by the side of the chit (L843, L851, L897, L931)
BATTLE = {
    ALLIED: {"naval-support", "italian-disorganization"},
    AXIS: {"flak-88", "poor-attack-coordination"},
}
#: events that name a hex or a unit after the slug
ARGS = {"bad-weather": "hex", "pioneers": "hex", "long-range-desert-group": "unit",
        "royal-navy-force-k": "unit", "early-convoy-arrival": "unit",
        "late-allied-reinforcements": "unit", "flak-88": "unit",
        "poor-attack-coordination": "unit"}  # fmt: skip


def slug(name: str) -> str:
    """An event's name as an order writes it: ``Royal Navy "Force K"`` -> ``royal-navy-force-k``."""
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")


def on(state: State) -> bool:
    return bool(state.options.get("18.7")) and bool(state.chits)


def face(b: Board, chit: str, side: str) -> str:
    """The event ``side`` plays with ``chit`` (18.7 commentary: the face of its owner)."""
    c = b.tables.events.chits[int(chit[1:])]
    return c.allied if side == ALLIED else c.axis


def face_slug(b: Board, chit: str, side: str) -> str:
    return slug(face(b, chit, side))


def initial(b: Board, state: State, dice: Dice) -> list[Event]:
    """Set-up (18.7.1, L811): the fourteen chits in the cup; the Allies draw three, then
    the Axis two, each seeing only his own."""
    e = b.tables.events
    state.chits = {"cup": [f"c{i}" for i in range(len(e.chits))],
                   "hands": {ALLIED: [], AXIS: []}, "spent": [], "done": [], "queue": [],
                   "secret": [], "resolving": None, "marks": {}, "arrive": {}, "malta": 0,
                   "luftflotte": 0, "weather": None, "captured": [0, []], "rommel": False}  # fmt: skip
    out: list[Event] = []
    for side in (ALLIED, AXIS):
        for _ in range(e.initial_draw[side]):
            out += draw(b, state, side, dice, "18.7.1")
    return out


def draw(b: Board, state: State, side: str, dice: Dice, rule: str) -> list[Event]:
    """``side`` draws one chit at random from the cup into his hand, unless he holds the
    most a hand may (18.7.5, L819) or the cup is empty. Only he learns which."""
    c = state.chits
    hand, cup = c["hands"][side], c["cup"]
    if len(hand) >= b.tables.events.hand_limit:
        return [Event(kind="chits", text=f"The {SIDE[side]} player holds {len(hand)} event chits, the most a hand may hold, and draws none (18.7.5).")]  # fmt: skip
    if not cup:
        return [Event(kind="chits", text=f"The event chit cup is empty: the {SIDE[side]} player draws none ({rule}).")]  # fmt: skip
    k = dice.roll(len(cup), "event chit draw") - 1 if len(cup) > 1 else 0
    chit = cup.pop(k)
    hand.append(chit)
    return [Event(kind="chits", text=f"{SIDE[side]} draws event chit {chit}: {face(b, chit, side)} ({rule}).",
                  seen_by=(side,), others=f"The {SIDE[side]} player draws an event chit ({rule}).",
                  data={"chit": chit}, reveals=True)]  # fmt: skip


def new_turn(b: Board, state: State, dice: Dice) -> list[Event]:
    """The start of a game turn (18.7.2, 18.7.4, L813-817): on Turn 25 the chits set aside go
    back to the cup first; on the draw turns each player draws one, the Allies first
    (RULINGS R61: a draw costs nothing, so the engine makes it)."""
    if not on(state):
        return []
    c, e, t = state.chits, b.tables.events, state.turn
    c["done"] = [k for k in c["done"] if k.startswith(f"{t}:")]
    out: list[Event] = []
    if t == e.reshuffle_turn and c["spent"]:
        c["cup"] += c["spent"]
        c["spent"] = []
        out.append(Event(kind="chits", text=f"Turn {t}: the event chits played so far go back into the cup (18.7.4)."))  # fmt: skip
    if t in e.draw_turns:
        for side in (ALLIED, AXIS):
            out += draw(b, state, side, dice, "18.7.2")
    return out


def after_reinforce(b: Board, state: State, dice: Dice) -> list[Event]:
    """After the automatic steps of a Reinforcement Phase: Rommel's first arrival gives the
    Axis a chit (18.7.3, L815); Luftflotte 2 takes up to two of the Allied infantry
    replacements the turn gave (L914-917: never ones received earlier)."""
    if not on(state):
        return []
    c, out = state.chits, []
    dak = state.units.get("ge_dak")
    if not c["rommel"] and dak is not None and dak.where in ("tripoli", "map"):
        c["rommel"] = True
        out += draw(b, state, AXIS, dice, "18.7.3")
    if c["luftflotte"] == state.turn and state.player == ALLIED:
        c["luftflotte"] = 0
        t = state.turn
        given = b.turns[t].allied_infantry_replacements if t >= 3 and t % 2 else 0
        cut = min(2, given, state.replacements.get("allied_infantry", 0))
        if cut:
            state.replacements["allied_infantry"] -= cut
        out.append(Event(kind="chits", text=f"Luftflotte 2: the Allies receive {cut} infantry replacement(s) fewer this turn (L914)."))  # fmt: skip
    return out


# -- reading the state for other modules -------------------------------------------------


def arrives(state: State, unit: Any, turn: int) -> bool:
    """Whether the Order of Battle unit ``unit`` is due this ``turn``: its printed entry
    turn, or the turn an event moved it to."""
    moved = (state.chits.get("arrive") or {}).get(unit.id) if state.chits else None
    if moved is not None:
        return moved == turn
    return unit.entry is not None and unit.entry.turn == turn


def rommel_seen(state: State) -> bool:
    """Whether Rommel has already arrived once (for 18.2.2 and 18.7.3)."""
    return bool(state.chits.get("rommel")) if state.chits else False


def table_penalty(state: State) -> int:
    """Malta Convoy (L847): +1 to the Axis roll on the Replacement and Fuel Table this turn
    (one roll gives all three results; RULINGS D3 reads a 7 as the 6 row)."""
    return 1 if state.chits and state.chits.get("malta") == state.turn else 0


def weather_in_force(state: State) -> dict[str, Any] | None:
    """The Bad Weather chit played this player turn (``hex``, ``turn``, ``player``), if
    any: it lasts the player turn it was played in (L831, L877; RULINGS R62)."""
    w = state.chits.get("weather") if state.chits else None
    return w if w and w["turn"] == state.turn and w["player"] == state.player else None


def weather(b: Board, state: State) -> set[str]:
    """The hexes under Bad Weather now (L831, L877): the chit's hex and every hex within
    three of it, for the player turn it was played in (RULINGS R62)."""
    w = weather_in_force(state)
    if w is None:
        return set()
    return {h for h in b.hex if distance(h, w["hex"]) <= WEATHER_RANGE}


def marks_for_battle(b: Board, state: State, attackers: list[Unit]) -> dict[str, Any]:
    """What the events played for this battle do, taken out of the state: ``cut``, the
    attack factors lost (Italian Disorganization L843, Poor Attack Coordination L931,
    fractions dropped); ``shift``, columns to the right (Naval Support L851, one column
    in the Allies' favour); ``flak``, the unit that takes the first attacker step
    (Flak 88 L897)."""
    if not state.chits:
        return {}
    m = state.chits.get("marks") or {}
    state.chits["marks"] = {}
    if not m:
        return {}
    from engine.games.tac.combat import attack_factor

    cut = 0
    for u in attackers:
        x = b.units[u.id]
        a = attack_factor(b, u)
        halve = u.id in m.get("halve", []) or (
            m.get("disorg") and x.nationality == "IT" and x.type == "infantry"
        )
        if halve:
            cut += a - a // 2
    shift = 0
    if m.get("naval"):
        shift = 1 if state.player == ALLIED else -1
    return {"cut": cut, "shift": shift, "flak": m.get("flak")}


# -- windows ---------------------------------------------------------------------------


def window(b: Board, state: State) -> tuple[str, str, str] | None:
    """The play window open now, as ``(side, key, kind)``, or ``None``. Windows are asked
    only of a player holding chits (how many he holds is known to both, so being asked
    tells nothing). In order: the answer to a declared chit (Counter-Intelligence, L835,
    L885); the start of a player turn, the phasing player first (RULINGS R60); the start
    of the Axis Movement Phase for the Long Range Desert Group (L855); before a battle,
    the attacker then the defender (18.7.7, L825)."""
    if not on(state) or state.phase == "over":
        return None
    c, t, p = state.chits, state.turn, state.player
    # a player with ``standing events pass`` is not asked (RULINGS R73)
    hands = {side: [] if state.standing.get(side, {}).get("events") == "pass" else h
             for side, h in c["hands"].items()}  # fmt: skip
    q = c["queue"]
    if q:
        top = q[-1]
        foe = enemy(top["side"])
        if not top.get("asked") and hands[foe]:
            return foe, "", "ci"
        return None
    if c["resolving"]:
        h = c["resolving"]["hex"]
        for side, who in ((p, "att"), (enemy(p), "def")):
            key = f"{t}:{p}:battle:{h}:{who}"
            if key not in c["done"] and hands[side]:
                return side, key, "battle"
        return None
    if state.phase == "reinforce":
        for side in (p, enemy(p)):
            key = f"{t}:{p}:start:{side}"
            if key not in c["done"] and hands[side]:
                return side, key, "start"
        return None
    if state.phase == "move" and p == AXIS:
        key = f"{t}:{p}:lrdg"
        if key not in c["done"] and hands[ALLIED]:
            return ALLIED, key, "lrdg"
    return None


def window_prompt(b: Board, state: State, w: tuple[str, str, str]) -> tuple[str, str]:
    """The text of a window for its player and for everyone else."""
    side, _, kind = w
    fits = sorted({face_slug(b, x, side) for x in state.chits["hands"][side]
                   if fits_window(b, state, side, face_slug(b, x, side), kind)})  # fmt: skip
    what = {
        "ci": "an event chit was declared against you: play counter-intelligence, or done (L835, L885)",
        "start": f"start of the {SIDE[state.player]} player turn: play an event chit, or done (18.7)",
        "lrdg": "start of the Axis Movement Phase: play an event chit, or done (L855)",
        "battle": "before this battle is resolved, choose the event chits to play in it, then done (18.7.7)",
    }[kind]
    mine = f"{SIDE[side]}: {what}. Playable now: {', '.join(fits) or 'none of your chits'}."
    public = f"The {SIDE[side]} player may play an event chit (18.7)."
    return mine, public


def fits_window(b: Board, state: State, side: str, ev: str, kind: str) -> bool:
    """Whether event ``ev`` of ``side`` is played in a window of ``kind``."""
    p = state.player
    if kind == "ci":
        return ev == "counter-intelligence"
    if kind == "start":
        return ev in START[(side, side == p)]
    if kind == "lrdg":
        return ev == "long-range-desert-group"
    if kind == "battle":
        return ev in BATTLE[side]
    return False


# -- playing -----------------------------------------------------------------------------


def playable(b: Board, state: State, side: str) -> list[tuple[str, str]]:
    """The (chit, event slug) pairs ``side`` may declare now, arguments aside."""
    if not on(state):
        return []
    w = window(b, state)
    out = []
    for chit in state.chits["hands"][side]:
        ev = face_slug(b, chit, side)
        if w is not None:
            if w[0] == side and fits_window(b, state, side, ev, w[2]):
                out.append((chit, ev))
        elif _free_play(state, side, ev):
            out.append((chit, ev))
    return out


def _free_play(state: State, side: str, ev: str) -> bool:
    """Events the Axis plays at a moment of its own player turn rather than in a window:
    Pioneers in its Movement Phase (L925), Captured Supplies after taking an Allied city
    that player turn (L881; RULINGS R63)."""
    if side != AXIS or state.player != AXIS:
        return False
    if ev == "pioneers":
        return state.phase == "move" and bool(state.mines.get("map"))
    if ev == "captured-supplies":
        t, hexes = state.chits["captured"]
        return t == state.turn and bool(hexes)
    return False


def args_for(b: Board, state: State, side: str, ev: str) -> list[str | None]:
    """What a legal ``play`` of ``ev`` may name (every valid unit; for Bad Weather the hexes
    of the opponent's units, though any hex is taken when typed)."""
    kind = ARGS.get(ev)
    out: list[str | None] = []
    if kind is None:
        cands: list[str | None] = [None]
    elif ev == "bad-weather":
        cands = sorted({u.hex for u in state.on_map(enemy(side))})
    elif ev == "pioneers":
        cands = sorted(state.mines.get("map", {}))
    else:
        cands = sorted(state.units)
    for a in cands:
        try:
            _check(b, state, side, ev, a)
        except IllegalOrder:
            continue
        out.append(a)
    return out


def _check(b: Board, state: State, side: str, ev: str, arg: str | None) -> None:
    """Refuse a play whose target the event's text does not allow."""
    kind = ARGS.get(ev)
    rule = "TAC 18.7"
    if kind is None:
        if arg is not None:
            raise IllegalOrder(rule, f"{ev} names nothing after it.")
    elif arg is None:
        raise IllegalOrder(rule, f"{ev} names a {kind}: play {ev} <{kind}>.")
    elif kind == "hex" and arg not in b.hex:
        raise IllegalOrder(rule, f"{arg} is not a hex of the map.")
    elif kind == "unit" and arg not in state.units:
        raise IllegalOrder(rule, f"There is no unit {arg!r}.")
    t, c = state.turn, state.chits
    f = c.get("resolving")
    battle = next((x for x in state.battles if f and f["hex"] in x["targets"]), None)
    if ev == "naval-support" and battle is not None:
        if not any(b.has(h, "port") for h in battle["targets"]):
            raise IllegalOrder("TAC 18.7 (L851)", "Naval Support helps only in a battle for a port hex.")
    if ev == "italian-disorganization" and battle is not None:
        if not any(b.units[u].nationality == "IT" and b.units[u].type == "infantry"
                   for u in battle["attackers"]):  # fmt: skip
            raise IllegalOrder("TAC 18.7 (L843)", "No Italian infantry unit attacks in this battle.")
    if ev in ("flak-88", "poor-attack-coordination"):
        if state.player != ALLIED:
            raise IllegalOrder(f"TAC 18.7 ({'L897' if ev == 'flak-88' else 'L931'})", "This event is played in an Allied attack.")
        if battle is None or arg not in battle["attackers"]:
            raise IllegalOrder(f"TAC 18.7 ({'L897' if ev == 'flak-88' else 'L931'})",
                               f"{arg} is not one of the attacking units of this battle.")  # fmt: skip
        if ev == "flak-88" and b.units[arg].type != "armor":
            raise IllegalOrder("TAC 18.7 (L897)", f"{arg} is not an Allied armoured unit.")
    if ev == "long-range-desert-group":
        u = state.units[arg]
        if u.side != AXIS or u.where != "map":
            raise IllegalOrder("TAC 18.7 (L855)", f"{arg} is not an Axis unit on the map.")
        near = min((distance(u.hex, a.hex) for a in state.on_map(ALLIED)), default=10**6)
        if distance(u.hex, LRDG_HEX) >= near:
            raise IllegalOrder("TAC 18.7 (L855)", f"{arg} is not closer to hex {LRDG_HEX} than to every Allied unit.")  # fmt: skip
    if ev in ("royal-navy-force-k", "late-allied-reinforcements"):
        u = state.units[arg]
        x = b.units[arg]
        if u.side != enemy(side) or u.where != "pool" or not arrives(state, x, t):
            raise IllegalOrder("TAC 18.7 (L859, L909)", f"{arg} is not an enemy unit due to arrive this turn.")  # fmt: skip
    if ev == "early-convoy-arrival":
        u = state.units[arg]
        if u.side != AXIS or u.where != "pool" or not arrives(state, b.units[arg], t + 1):
            raise IllegalOrder("TAC 18.7 (L889)", f"{arg} is not an Axis reinforcement due next turn.")  # fmt: skip
    if ev == "rommel-on-leave":
        dak = state.units.get("ge_dak")
        if dak is None or dak.where != "map":
            raise IllegalOrder("TAC 18.7 (L863)", "The Rommel HQ is not on the map.")
    if ev == "pioneers" and arg not in state.mines.get("map", {}):
        raise IllegalOrder("TAC 18.7 (L925)", f"No minefield lies at {arg}.")
    if ev == "ultra-intelligence" and not c["hands"][AXIS]:
        raise IllegalOrder("TAC 18.7 (L871)", "The Axis player holds no event chit.")


def play(b: Board, state: State, side: str, ev: str, arg: str | None) -> list[Event]:
    """Declare an event chit (18.7.6, L821): the chit leaves the hand face up, or, in a
    battle's window, stays secret until both players have chosen (18.7.7, L825). The
    success roll comes once the opponent has had his chance to answer with
    Counter-Intelligence (L835)."""
    if not state.options.get("18.7"):
        raise IllegalOrder("TAC 18.7", "Event Chits (18.7) are not in play in this game.")
    ev = slug(ev)
    mine = [x for x in state.chits["hands"][side] if face_slug(b, x, side) == ev]
    if not mine:
        raise IllegalOrder("TAC 18.7.1", f"You hold no {ev} event chit.")
    if (mine[0], ev) not in playable(b, state, side):
        raise IllegalOrder("TAC 18.7", f"{face(b, mine[0], side)} may not be played now: {_when(b, side, ev)}.")
    _check(b, state, side, ev, arg)
    chit = mine[0]
    c = state.chits
    w = window(b, state)  # before the hand shrinks: an emptied hand closes the window
    c["hands"][side].remove(chit)
    item = {"side": side, "chit": chit, "event": ev, "arg": arg}
    if w is not None and w[2] == "battle":
        c["secret"].append(item)
        typed = f"play {ev}" + (f" {arg}" if arg else "")
        return [Event(kind=ORDER, text=typed, seen_by=(side,), others="play (an event chit for this battle)"),
                Event(kind="chits", text=f"{SIDE[side]} will play {face(b, chit, side)} ({chit}) in this battle (18.7.7).",
                      seen_by=(side,), others=f"The {SIDE[side]} player will play an event chit in this battle (18.7.7).",
                      data={"chit": chit})]  # fmt: skip
    if w is not None and w[2] == "ci":
        item["target"] = len(c["queue"]) - 1
        c["queue"][-1]["asked"] = True
    c["queue"].append(item)
    return [_declared(b, item)]


def _declared(b: Board, item: dict[str, Any]) -> Event:
    side, chit = item["side"], item["chit"]
    on_ = f" on {item['arg']}" if item["arg"] else ""
    return Event(kind="chits", text=f"The {SIDE[side]} player plays event chit {chit}: {face(b, chit, side)}{on_} (18.7.6).",
                 data={"chit": chit, "event": item["event"]}, reveals=True)  # fmt: skip


def _when(b: Board, side: str, ev: str) -> str:
    name = next(n for n in {**b.tables.events.allied, **b.tables.events.axis} if slug(n) == ev)
    table = b.tables.events.allied if side == ALLIED else b.tables.events.axis
    return table.get(name, "")


def close_window(b: Board, state: State) -> list[Event]:
    """``done`` in a window: the player plays nothing more there."""
    side, key, kind = window(b, state)
    c = state.chits
    if kind == "ci":
        c["queue"][-1]["asked"] = True
        return []
    c["done"].append(key)
    return []


def settle(b: Board, state: State, dice: Dice) -> tuple[list[Event], bool]:
    """Play out what waits on no one: reveal a battle's chits once both sides have chosen
    (18.7.7), roll for the declared chits from the top (18.7.6), then resolve a battle
    whose windows are closed. Returns the events and whether a window now waits."""
    if not on(state):
        return [], False
    c = state.chits
    out: list[Event] = []
    while True:
        w = window(b, state)
        if w is not None:
            return out, True
        if c["queue"]:
            out += _resolve_top(b, state, dice)
            continue
        if c["secret"]:
            for item in c["secret"]:
                out.append(_declared(b, item))
            c["queue"] = list(reversed(c["secret"]))
            c["secret"] = []
            continue
        if c["resolving"]:
            from engine.games.tac import battle

            r = c["resolving"]
            c["resolving"] = None
            out += battle.start(b, state, r["hex"], dice, r["effort"])
            continue
        return out, False


def _resolve_top(b: Board, state: State, dice: Dice) -> list[Event]:
    c = state.chits
    item = c["queue"].pop()
    c["spent"].append(item["chit"])
    who = SIDE[item["side"]]
    name = face(b, item["chit"], item["side"])
    if item.get("cancelled"):
        return [Event(kind="chits", text=f"{who} {name} is cancelled by Counter-Intelligence (L835).")]
    roll = dice.roll(6, f"event: {name}")
    if roll not in SUCCESS:
        return [Event(kind="chits", text=f"{who} {name}: roll {roll}, the event is cancelled (18.7.6).",
                      data={"roll": roll})]  # fmt: skip
    head = Event(kind="chits", text=f"{who} {name}: roll {roll}, the event occurs (18.7.6).", data={"roll": roll})
    return [head] + _effect(b, state, item, dice)


def _effect(b: Board, state: State, item: dict[str, Any], dice: Dice) -> list[Event]:
    """What each event does when its roll succeeds (L831-931)."""
    from engine.games.tac import mines

    c, t, side, ev, arg = state.chits, state.turn, item["side"], item["event"], item["arg"]

    def say(text: str) -> list[Event]:
        return [Event(kind="chits", text=text)]

    if ev == "counter-intelligence":
        k = item.get("target", len(c["queue"]) - 1)
        if 0 <= k < len(c["queue"]):
            c["queue"][k]["cancelled"] = True
        return []
    if ev == "bad-weather":
        c["weather"] = {"hex": arg, "turn": t, "player": state.player}
        return say(f"Bad Weather around {b.name(arg)} until the end of this player turn: +1 MP off the roads within {WEATHER_RANGE} hexes, no air units there (L831, L877).")  # fmt: skip
    if ev == "extra-mines":
        m = state.mines
        if not m.get("cup"):
            return say("Extra Mines: the minefield cup is empty (L839).")
        k = dice.roll(len(m["cup"]), "minefield draw") - 1 if len(m["cup"]) > 1 else 0
        mine = m["cup"].pop(k)
        m["hands"][side].append(mine)
        return [Event(kind="mines", text=f"{SIDE[side]} draws minefield {mine}: {mines.describe(b, mine)} (Extra Mines, not one of the three calls, L839).",
                      seen_by=(side,), others=f"The {SIDE[side]} player draws a free minefield (Extra Mines, L839).",
                      data={"mine": mine}, reveals=True)]  # fmt: skip
    if ev == "italian-disorganization":
        c["marks"]["disorg"] = True
        return say("Italian Disorganization: attacking Italian infantry attack at half strength (L843).")
    if ev == "poor-attack-coordination":
        c["marks"].setdefault("halve", []).append(arg)
        return say(f"Poor Attack Coordination: {b.units[arg].name} attacks at half strength (L931).")
    if ev == "naval-support":
        c["marks"]["naval"] = True
        return say("Naval Support: one column in the Allies' favour (L851).")
    if ev == "flak-88":
        c["marks"]["flak"] = arg
        return say(f"Flak 88: the first attacker step loss falls on {b.units[arg].name} (L897).")
    if ev == "malta-convoy":
        c["malta"] = t
        return say("Malta Convoy: +1 to the Axis roll on the Replacement and Fuel Table this turn (L847).")
    if ev == "luftflotte-2":
        c["luftflotte"] = t
        return say("Luftflotte 2: the Allies receive two infantry replacements fewer this turn (L914).")
    if ev == "long-range-desert-group":
        state.delayed[arg] = t
        return say(f"Long Range Desert Group: {b.units[arg].name} may not move this Movement Phase (L855).")
    if ev in ("royal-navy-force-k", "late-allied-reinforcements"):
        c["arrive"][arg] = t + 1
        return say(f"{b.units[arg].name} is delayed one turn, to Turn {t + 1} ({'L859' if side == ALLIED else 'L909'}).")
    if ev == "early-convoy-arrival":
        c["arrive"][arg] = t
        return say(f"Early Convoy Arrival: {b.units[arg].name} arrives this turn (L889).")
    if ev == "rommel-on-leave":
        dak = state.units["ge_dak"]
        dak.where, dak.hex = "pool", None
        c["arrive"]["ge_dak"] = t + 2
        state.moved.discard("ge_dak")
        return say(f"Rommel on Leave: the Rommel HQ leaves the map and arrives again on Turn {t + 2} (L863).")
    if ev in ("tank-recovery", "panzer-recovery"):
        key = "allied_armour" if ev == "tank-recovery" else "axis_german_armour"
        state.replacements[key] = state.replacements.get(key, 0) + 1
        return say(f"{'Tank' if side == ALLIED else 'Panzer'} Recovery: one more {'Allied' if side == ALLIED else 'German'} armour replacement (L867, L921).")  # fmt: skip
    if ev in ("fuel-ammo-reserves", "captured-supplies"):
        top = b.tables.fuel_track.max
        gained = 1 if state.fuel < top else 0
        state.fuel += gained
        if ev == "captured-supplies":
            c["captured"] = [0, []]
        return say(f"{face(b, item['chit'], side)}: {gained} Fuel (track at {state.fuel}; L881, L903).")
    if ev == "pioneers":
        mine = state.mines["map"].pop(arg, None)
        if mine is not None:
            state.mines["cup"].append(mine)
        return say(f"Pioneers: the minefield at {b.name(arg)} has no effect and is lifted unseen (L925).")
    if ev == "ultra-intelligence":
        hand = c["hands"][AXIS]
        if not hand:
            return say("Ultra Intelligence: the Axis player holds no event chit now (L871).")
        k = dice.roll(len(hand), "Ultra Intelligence draw") - 1 if len(hand) > 1 else 0
        taken = hand.pop(k)
        c["cup"].append(taken)
        return say(f"Ultra Intelligence: the Allies take Axis event chit {taken}, {face(b, taken, AXIS)}, and it goes back into the cup (L871).")  # fmt: skip
    raise ValueError(f"unknown event {ev!r}")  # pragma: no cover - slugs come from the pack


def note_captures(b: Board, before: dict[str, str], state: State) -> None:
    """Remember the cities the Axis took from the Allies in this Axis player turn (for
    Captured Supplies, L881)."""
    if not on(state) or state.player != AXIS:
        return
    took = [h for h, side in state.control.items()
            if side == AXIS and before.get(h) == ALLIED and b.has(h, "city")]  # fmt: skip
    if not took:
        return
    c = state.chits
    if c["captured"][0] != state.turn:
        c["captured"] = [state.turn, []]
    c["captured"][1] = sorted(set(c["captured"][1]) | set(took))


def view(b: Board, state: State, role: str | None, everyone: str) -> dict[str, Any]:
    """The chits as ``role`` may see them: how many each side holds, the chits played
    (face up) and set aside, and the faces in ``role``'s own hand only."""
    if not on(state):
        return {}
    c = state.chits
    out: dict[str, Any] = {
        "held": {s: len(h) for s, h in c["hands"].items()}, "cup": len(c["cup"]),
        "spent": list(c["spent"]), "weather": c["weather"],
    }  # fmt: skip
    for side, hand in c["hands"].items():
        if role in (side, everyone):
            out[f"{side}_hand"] = [{"id": x, "event": face(b, x, side)} for x in hand]
    for item in c["secret"]:
        if role in (item["side"], everyone):
            out.setdefault(f"{item['side']}_chosen", []).append(item["chit"])
    return out
