"""Fleets in the naval scenarios BIA7-BIA10 (17.0 Naval Rules, L2477-2651; 3.4.2,
L310-315): set-up, the Navy HQs' activation and fuel, naval movement, the convoy boxes'
battles in Strategic Warfare with the players' choices of where hits fall, and the naval
victory.

A naval block is a :class:`~engine.games.bia.state.BlockState` with ``where == "box"``
and one of three kinds of place as ``at`` (L313-314: At Sea, in a Convoy Box, In Port):

* ``port:HEX``: in port at a naval base;
* ``sea:BODY/fN``: at sea in a body of water, in fleet ``fN`` (several fleets may be at
  sea in one body of water, L2537-2540);
* ``convoy:KEY``: in a convoy box of the Strategic Map (one fleet per power, L2537).

Where a block is, its nation and its token are public; its face is its owner's until a
sea battle reveals it (1.3, L134-138; the Crete example reveals the blocks, L2715). The
combat itself is :mod:`engine.games.bia.naval`. Rulebook line numbers (``L123``) refer to
``shared/rules/003_19684674ce068529.txt``; rulings are ``RULINGS.md`` B63-B72 and
B85-B89.
"""

from __future__ import annotations

from engine.core.events import Event, private
from engine.games.bia import combat, naval
from engine.games.bia.board import ALLIED, AXIS, SIDE_NAME, Board, enemy
from engine.games.bia.context import Ctx, refuse
from engine.games.bia.orders import STANDING, Activate, Sail
from engine.games.bia.state import BlockState, State

#: the countries whose ports are each side's naval bases in the naval scenarios, which
#: give no control of the land (RULINGS B71): Italy's and Britain's own lands of
#: 1940-42; Greece, Vichy France's lands and Turkey are nobody's base
BASES = {
    AXIS: ("italy", "libya", "albania", "dodecanese"),
    ALLIED: ("egypt", "malta", "palestine", "cyprus"),
}
#: the most blocks in one fleet (17.0, L2536)
FLEET_MAX = 5
SHIP_KINDS = frozenset(naval.CLASS)


def is_naval(board: Board, state: State) -> bool:
    return board.pack.scenario(state.scenario).kind == "naval"


def is_ship(board: Board, b: BlockState) -> bool:
    return board.block(b.id).kind in SHIP_KINDS


def afloat(board: Board, state: State, side: str | None = None) -> list[BlockState]:
    """The naval blocks (not the HQs) in play, of one side or both."""
    return [
        b for b in state.blocks.values()
        if b.where == "box" and is_ship(board, b) and (side is None or b.side == side)
    ]  # fmt: skip


# -- set-up ---------------------------------------------------------------------------


def setup(board: Board, state: State, edge) -> None:
    """Place the scenario's fleets (Scenario Booklet; 17.0): each fleet at sea gets a
    public number, the other fleets their port or convoy box. The naval bases of
    :data:`BASES` are controlled by their side. ``edge(block, value)`` gives the edge
    position of a printed value (3.14)."""
    sc = board.pack.scenario(state.scenario)
    state.naval = {"lost": {AXIS: 0, ALLIED: 0}, "fleets": 0, "sw": None}
    for f in sc.fleets:
        place = f.at
        if place.startswith("sea:"):
            state.naval["fleets"] += 1
            place = f"{place}/f{state.naval['fleets']}"
        side = board.side_of_power(f.power)
        for fb in f.blocks:
            state.blocks[fb.unit] = BlockState(
                fb.unit, side, "box", place, edge(board, fb.unit, fb.steps)
            )
    for h in board.pack.map.hexes:
        for side, countries in BASES.items():
            if h.country in countries and board.is_land(h.id):
                state.control[h.id] = side


# -- places -----------------------------------------------------------------------------


def bodies(board: Board, place: str) -> tuple[str, ...]:
    """The bodies of water a place lies on (3.4.2, L373-380)."""
    kind, _, rest = place.partition(":")
    if kind == "port":
        return board.ports.get(rest, ())
    if kind == "sea":
        return (rest.split("/")[0],)
    if kind == "convoy":
        box = board.pack.strategic.convoy_boxes.get(rest)
        return (box.body,) if box else ()
    return ()


def fleets_out(
    board: Board, state: State, power: str, moved: BlockState | None = None, to: str = ""
) -> set[str]:
    """The places where ``power`` has a fleet at sea or in a convoy box, as they would be
    with ``moved`` sent to ``to``: each needs fuel (L2541-2547)."""
    out = set()
    for b in afloat(board, state):
        if board.block(b.id).power != power:
            continue
        at = to if b is moved else b.at
        if at.startswith(("sea:", "convoy:")):
            out.add(at)
    return out


def navy_hqs(board: Board, state: State, power: str | None = None) -> list[BlockState]:
    """The Navy HQs in play (in port), of one power or all."""
    return [
        b for b in state.blocks.values()
        if b.where == "box" and board.block(b.id).kind == "navy_hq"
        and (power is None or board.block(b.id).power == power)
    ]  # fmt: skip


def fuel(board: Board, state: State, power: str) -> int:
    """The fleets a power may keep At Sea or in the convoy boxes: one per AP of its Navy
    HQs activated this turn, their strength (L2544-2550; RULINGS B87), and one for its
    Supreme Leader, active in every turn (L2546, L1997-2004; RULINGS B70)."""
    active = state.naval.get("active", [])
    n = sum(board.block(b.id).values()[b.steps - 1] for b in navy_hqs(board, state, power)
            if b.id in active)  # fmt: skip
    leaders = board.pack.units.leaders.values()
    return n + sum(1 for x in leaders if x.power == power and x.kind == "supreme")


def _ships_at(board: Board, state: State, place: str, power: str | None = None) -> list[BlockState]:
    return [
        b for b in afloat(board, state)
        if b.at == place and (power is None or board.block(b.id).power == power)
    ]  # fmt: skip


def _base_room(board: Board, state: State, hex_id: str) -> int:
    """A naval base holds 5 naval blocks in a major port, 1 in a minor (L2541, L354-358)."""
    cap = board.pack.tables.ports[board.hex(hex_id).port].naval_units
    return cap - len(_ships_at(board, state, f"port:{hex_id}"))


def destinations(board: Board, state: State, b: BlockState, convoy_only: bool = False) -> list[str]:
    """Where a naval block may sail from its place (17.0; 3.4.2): anywhere on a body of
    water it lies on, no distance counted (RULINGS B71): a new fleet at sea
    (``sea:BODY``), a fleet of its power at sea, the convoy box of that body (joining the
    power's one fleet there), or a naval base of its side with room. A fleet holds at
    most five blocks (L2536); the fleets at sea and in convoy boxes need fuel (L2541)."""
    power = board.block(b.id).power
    out = []
    for body in bodies(board, b.at):
        places = [
            f"convoy:{k}"
            for k, box in board.pack.strategic.convoy_boxes.items()
            if box.body == body
        ]
        if not convoy_only:
            places += [f"sea:{body}"]
            places += sorted({x.at for x in afloat(board, state) if x.at.startswith(f"sea:{body}/")
                              and board.block(x.id).power == power})  # fmt: skip
            places += [
                f"port:{h}" for h, bs in sorted(board.ports.items())
                if body in bs and state.control.get(h) == b.side and _base_room(board, state, h) > 0
            ]  # fmt: skip
        for p in places:
            if p == b.at or (
                p == f"sea:{body}"
                and b.at.startswith("sea:")
                and len(_ships_at(board, state, b.at)) == 1
            ):
                continue  # nowhere, or a fleet of one splitting from itself
            if (
                not p.startswith("port:")
                and p != f"sea:{body}"
                and len(_ships_at(board, state, p, power)) >= FLEET_MAX
            ):
                continue
            target = p if p != f"sea:{body}" else f"sea:{body}/new"
            if not convoy_only and _beyond_fuel(board, state, power, b, target):
                continue
            if p not in out:
                out.append(p)
    return out


def _beyond_fuel(board: Board, state: State, power: str, b: BlockState, to: str) -> bool:
    """Whether sending ``b`` to ``to`` adds a fleet out beyond the power's fuel
    (L2541-2547; RULINGS B87). A move that adds none stays possible: fleets already out
    with no fuel for them stay where they are and may come home or merge (the Crete
    example sends a fleet back to port to free its fuel, L2674-2677). Joining a convoy
    box in Strategic Warfare needs no AP (L2581-2585) and is not checked."""
    after = len(fleets_out(board, state, power, b, to))
    return after > fuel(board, state, power) and after > len(fleets_out(board, state, power))


def sail_orders(ctx: Ctx, role: str) -> list[Sail]:
    """The Sail orders ``role`` may give now: in its Movement Phase any of its ships not
    moved yet; in Strategic Warfare the ships that may join a convoy box (L2558-2563)."""
    s, board = ctx.state, ctx.board
    out = []
    for b in sorted(afloat(board, s, role), key=lambda x: x.id):
        if s.phase == "movement":
            if b.id not in s.moved:
                out.extend(Sail(block=b.id, to=p) for p in destinations(board, s, b))
        elif s.phase == "strategic_warfare" and b.id not in s.moved and _joins_convoy(ctx, b):
            out.extend(Sail(block=b.id, to=p) for p in destinations(board, s, b, convoy_only=True))
    return out


def _joins_convoy(ctx: Ctx, b: BlockState) -> bool:
    """Which ships enter a convoy box in Strategic Warfare (L2558-2563, L2580-2584): the
    non-phasing side's submarines and carriers at sea, then the phasing side's carriers
    at sea."""
    s = ctx.state
    kind = ctx.board.block(b.id).kind
    if not b.at.startswith("sea:"):
        return False
    if s.naval.get("sw") == "enemy":
        return b.side == enemy(s.player) and kind in ("ss", "cv")
    return s.naval.get("sw") == "own" and b.side == s.player and kind == "cv"


def apply_sail(ctx: Ctx, order: Sail) -> None:
    """Move one naval block (17.0): one move per block per phase (as 7.5, RULINGS B7)."""
    s, board = ctx.state, ctx.board
    b = s.blocks.get(order.block) or s.by_token(order.block.upper())
    role = (
        s.player
        if s.phase == "movement"
        else (enemy(s.player) if s.naval.get("sw") == "enemy" else s.player)
    )
    if b is None or b.side != role or b.where != "box" or not is_ship(board, b):
        raise refuse("BIA 17.0", "Name one of your naval blocks in play (its id or token).")
    to = _place(order.to, b)
    legal = [o.to for o in sail_orders(ctx, role) if o.block == b.id]
    if to not in legal:
        why = ("in Strategic Warfare only submarines and carriers at sea join a convoy box "
               "(L2558-2563)" if s.phase == "strategic_warfare" else
               "a naval block moves once a phase, on a body of water it lies on, to a fleet of at "
               "most five blocks, a friendly naval base with room, and within its Navy HQ's fuel "
               "(L2536-2547)")  # fmt: skip
        raise refuse("BIA 17.0", f"{b.token} may not sail to {order.to}: {why}.",
                     f"It may sail to: {', '.join(legal) or 'nowhere'}.")  # fmt: skip
    if to.startswith("sea:") and "/" not in to:
        s.naval["fleets"] = s.naval.get("fleets", 0) + 1
        to = f"{to}/f{s.naval['fleets']}"
    b.at = to
    s.moved.append(b.id)


def _place(text: str, b: BlockState) -> str:
    """An order's destination as a place: a port hex, a convoy box key, ``sea`` or
    ``sea:BODY``, or a fleet at sea (``sea:mediterranean/f2`` or ``f2``)."""
    t = text.strip().lower()
    if t.isdigit() and len(t) == 4:
        return f"port:{t}"
    if t.startswith(("port:", "convoy:", "sea:")):
        return t
    if t == "sea" and b.at:
        return f"sea:{b.at.split(':')[1].split('/')[0]}" if b.at.startswith("sea:") else t
    if t.startswith("f") and t[1:].isdigit() and b.at.startswith("sea:"):
        return f"sea:{b.at.split(':')[1].split('/')[0]}/f{t[1:]}"
    return f"convoy:{t}"


# -- Strategic Warfare: the convoy boxes ---------------------------------------------------


def convoy_step(ctx: Ctx) -> bool:
    """17.0 In a Convoy Box (L2553-2564): in the Strategic Warfare Phase the non-phasing
    side may add its submarines and carriers at sea to a convoy box of their body of
    water, then the phasing side its carriers at sea; then a sea battle of one round is
    fought in every convoy box holding both sides' ships, in the order of their keys.
    True while a side decides: what to add, or where a hit falls (RULINGS B85)."""
    s = ctx.state
    while True:
        step = s.naval.get("sw")
        if step is None:
            s.naval["sw"], s.moved = "enemy", []
            continue
        if step in ("enemy", "own"):
            role = enemy(s.player) if step == "enemy" else s.player
            if sail_orders(ctx, role):
                return True
            s.naval["sw"] = "own" if step == "enemy" else "fight"
            continue
        fought = s.naval.setdefault("fought", [])
        for key in sorted(ctx.board.pack.strategic.convoy_boxes):
            if key in fought:
                continue
            if not convoy_battle(ctx, key):
                return True  # a side chooses where a hit falls
            fought.append(key)
        s.naval["sw"], s.moved = None, []
        s.naval.pop("fought", None)
        return False


def end_step(ctx: Ctx) -> None:
    """``done`` in Strategic Warfare: the deciding side has added what it wanted."""
    s = ctx.state
    s.naval["sw"] = "own" if s.naval.get("sw") == "enemy" else "fight"


def waiting_side(state: State) -> str | None:
    """The side adding ships to the convoy boxes in Strategic Warfare, if any (not the
    side choosing where a hit falls: :func:`choice`)."""
    step = state.naval.get("sw")
    if state.phase != "strategic_warfare" or step not in ("enemy", "own"):
        return None
    return enemy(state.player) if step == "enemy" else state.player


def choice(state: State) -> dict | None:
    """The choice a sea battle waits on (RULINGS B85): ``side``, ``who`` ("own" or
    "aim"), the ships ``among`` it picks from (ids), ``why`` (the fire that hit) and the
    convoy box ``key``; None when no battle waits."""
    fight = state.naval.get("battle")
    return fight.get("wait") if fight and state.phase == "strategic_warfare" else None


def _side_tech(board: Board, state: State, ships: list[BlockState], side: str, cls: str) -> int:
    """A side's TECH in a sea battle: that of its power with most blocks there, the
    higher on a tie (3.16; RULINGS B68)."""
    count: dict[str, int] = {}
    for b in ships:
        if b.side == side:
            p = board.block(b.id).power
            count[p] = count.get(p, 0) + 1
    if not count:
        return 1
    best = max(count.values())
    return max(board.pack.tables.tech(p, cls, state.turn) for p, n in count.items() if n == best)


def ship_name(board: Board, sh: naval.Ship) -> str:
    return f"{board.block(sh.id).name} ({sh.token})"


class _Wait(Exception):
    """A sea battle stops for a side's choice of where a hit falls (RULINGS B85)."""

    def __init__(self, wait: dict) -> None:
        self.wait = wait


class _Replay:
    """The dice of a round being fought again after a choice: the rolls already made, in
    their order, then new ones, kept (RULINGS B86)."""

    def __init__(self, dice, rolls: list[int]) -> None:
        self.dice, self.rolls, self.i = dice, rolls, 0

    def roll(self, sides: int, purpose: str = "") -> int:
        if self.i == len(self.rolls):
            self.rolls.append(self.dice.roll(sides, purpose))
        self.i += 1
        return self.rolls[self.i - 1]


def convoy_battle(ctx: Ctx, key: str) -> bool:
    """One round of naval combat in a convoy box (L2553-2564): both sides' blocks there
    are revealed (L2716) and fight one round (:func:`engine.games.bia.naval.fight_round`);
    a block that loses its last edge is sunk (eliminated). Each side's steps lost count
    for the naval victory (RULINGS B72). Where a side may choose where a hit falls and its
    standing order ``naval`` says ``ask``, the round stops there (False) with what has
    happened so far on the blocks and in the log; each ``hit`` given fights the round
    again with the same dice and the choices made, to the next choice or its end (True;
    RULINGS B85-B86)."""
    s, board = ctx.state, ctx.board
    fight = s.naval.get("battle")
    if fight is None or fight["key"] != key:
        here = sorted(_ships_at(board, s, f"convoy:{key}"), key=lambda b: (b.side, b.token))
        if {b.side for b in here} != {AXIS, ALLIED}:
            return True
        for b in here:
            b.revealed = True
        box = board.pack.strategic.convoy_boxes[key].name
        parts = []
        for side in (AXIS, ALLIED):
            parts.append(f"{SIDE_NAME[side]}: " + ", ".join(
                f"{board.block(b.id).name} ({b.token}, {naval.KIND_NAME[board.block(b.id).kind]} "
                f"{board.block(b.id).values()[b.steps - 1]})" for b in here if b.side == side))  # fmt: skip
        ctx.events.append(Event("reveal", f"Sea battle in the {box} convoy box, blocks revealed. "
                                f"{'; '.join(parts)}.", {"tokens": [b.token for b in here]},
                                reveals=True))  # fmt: skip
        fight = {"key": key, "ships": [[b.id, b.side, b.steps] for b in here],
                 "tech": {x: _side_tech(board, s, here, x, "navy") for x in (AXIS, ALLIED)},
                 "bombers": {x: _side_tech(board, s, here, x, "bomber") for x in (AXIS, ALLIED)},
                 "rolls": [], "choices": [], "said": 0, "wait": None}  # fmt: skip
        s.naval["battle"] = fight
    ships = []
    for i, side, pos in fight["ships"]:  # a list: a database may sort a mapping's keys
        blk = board.block(i)
        ships.append(naval.Ship(i, side, blk.kind, blk.values(), pos, s.blocks[i].token,
                                max(blk.planes.values(), default=0)))  # fmt: skip
    battle = naval.Battle(ships, dict(fight["tech"]), dict(fight["bombers"]), convoy=True)
    made = iter(list(fight["choices"]))

    def choose(who: str, side: str, among: list[naval.Ship], why: str) -> naval.Ship:
        pick = next(made, None)
        if pick is None:
            if combat.standing(s, side, "naval") == "ask":
                raise _Wait({"key": key, "side": side, "who": who, "why": why,
                             "among": [x.id for x in among]})  # fmt: skip
            pick = naval.engine_pick(who, among).id
            fight["choices"].append(pick)
        return next(x for x in among if x.id == pick)

    try:
        naval.fight_round(battle, _Replay(ctx.dice, fight["rolls"]),
                          lambda sh: ship_name(board, sh), choose)  # fmt: skip
        done = True
    except _Wait as w:
        fight["wait"], done = w.wait, False
    for line in battle.lines[fight["said"] :]:
        ctx.events.append(Event("naval", line))
    fight["said"] = len(battle.lines)
    for sh in battle.ships:
        b = s.blocks[sh.id]
        if sh.pos == 0:
            b.where, b.at, b.steps = "dead", None, 1
        else:
            b.steps = sh.pos
    if done:
        lost = s.naval.setdefault("lost", {AXIS: 0, ALLIED: 0})
        for sh, (_, _, pos) in zip(battle.ships, fight["ships"], strict=True):
            lost[sh.side] = lost.get(sh.side, 0) + pos - sh.pos
        s.naval.pop("battle")
    return done


def choice_names(ctx: Ctx, wait: dict) -> list[str]:
    """The ships a waiting choice is among, by name and token: every ship of a convoy
    battle is face up to both sides from its start (L2716; RULINGS B85)."""
    out = []
    for i in wait["among"]:
        b, blk = ctx.state.blocks[i], ctx.board.block(i)
        out.append(
            f"{blk.name} ({b.token}, {naval.KIND_NAME[blk.kind]} {blk.values()[b.steps - 1]})"
        )
    return out


def apply_hit(ctx: Ctx, role: str, name: str) -> None:
    """``hit BLOCK`` in a sea battle: the waiting side's choice of the ship the hit falls
    on, among those the prompt names; the round then goes on (RULINGS B85)."""
    s = ctx.state
    wait = choice(s)
    if wait is None or wait["side"] != role:
        raise refuse("BIA 17.0", "No sea battle waits on your choice of where a hit falls.")
    b = s.blocks.get(name) or s.by_token(name.upper())
    if b is None or b.id not in wait["among"]:
        rule = "the strongest of your ships in the battle (L2639)" if wait["who"] == "own" else \
            "an enemy ship your fire may hit (L2645, L2649)"  # fmt: skip
        raise refuse("BIA 17.0", f"The hit must fall on {rule}.",
                     f"Those are: {', '.join(choice_names(ctx, wait))}.")  # fmt: skip
    fight = s.naval["battle"]
    fight["choices"].append(b.id)
    fight["wait"] = None


# -- victory ----------------------------------------------------------------------------


def points(board: Board, state: State) -> dict[str, int]:
    """The naval scenarios' victory points (Scenario Booklet, data pack): the enemy's naval
    steps lost, and one for each step of the side's own ships in a convoy box it
    escorts (RULINGS B72)."""
    sc = board.pack.scenario(state.scenario)
    lost = state.naval.get("lost", {})
    out = {side: lost.get(enemy(side), 0) for side in (AXIS, ALLIED)}
    for key, side in sc.victory.convoys.items():
        out[side] += sum(
            b.steps for b in _ships_at(board, state, f"convoy:{key}") if b.side == side
        )
    return out


def victory(ctx: Ctx) -> None:
    s, board = ctx.state, ctx.board
    sc = board.pack.scenario(s.scenario)
    pts = points(board, s)
    a, c = pts[AXIS], pts[ALLIED]
    s.winner = AXIS if a > c else ALLIED if c > a else None
    s.phase = "over"
    score = f"Naval points: Axis {a}, Allied {c}."
    s.result_text = (
        f"{SIDE_NAME[s.winner]} victory. {score} {sc.victory.text}"
        if s.winner
        else f"A draw. {score} {sc.victory.text}"
    )
    ctx.events.append(Event("result", s.result_text))


# -- the Navy HQs ----------------------------------------------------------------------------


def activate_orders(ctx: Ctx) -> list[Activate]:
    """The Navy HQs the phasing side may activate in its SRM Phase (17.0, L2544): those
    in play not activated yet this turn."""
    s = ctx.state
    if s.phase != "srm":
        return []
    active = s.naval.get("active", [])
    return [Activate(block=b.id) for b in sorted(navy_hqs(ctx.board, s), key=lambda b: b.id)
            if b.side == s.player and b.id not in active]  # fmt: skip


def apply_activate(ctx: Ctx, role: str, name: str) -> None:
    """Activate a Navy HQ in the SRM Phase (17.0 L2544-2550; 11.2-11.3 L2094-2131): it is
    laid face up for both sides (as 11.4 L2164-2165 has it stand up again on
    deactivation) and fuels one fleet At Sea or in a convoy box per AP, its strength, for
    this turn; it loses a step at the end of the Blitz Phase (:func:`deactivate`;
    RULINGS B87)."""
    s, board = ctx.state, ctx.board
    hq = s.blocks.get(name) or s.by_token(name.upper())
    mine = [o.block for o in activate_orders(ctx)] if role == s.player else []
    if hq is None or hq.id not in mine:
        raise refuse("BIA 17.0", "Name a Navy HQ of yours in port that is not activated yet "
                     "(its id or token); Navy HQs are activated in your SRM Phase (L2544).",
                     f"You may activate: {', '.join(mine) or 'none'}.")  # fmt: skip
    s.naval.setdefault("active", []).append(hq.id)
    hq.revealed = True
    blk = board.block(hq.id)
    ap = blk.values()[hq.steps - 1]
    ctx.events.append(Event(
        "reveal",
        f"{blk.name} ({hq.token}) is activated and laid face up at {ctx.where(hq.at[5:])}: "
        f"{ap} AP, fuel for {ap} fleet(s) at sea or in the convoy boxes this turn (17.0).",
        {"tokens": [hq.token]}, reveals=True,
    ))  # fmt: skip


def deactivate(ctx: Ctx) -> None:
    """At the end of the Blitz Phase each activated Navy HQ loses a step and stands up
    again, hidden; one activated on its last step is used up and leaves play (11.4,
    L2158-2165, L2175-2176, L2274-2278; RULINGS B87). Its step is no naval step the enemy
    sank (RULINGS B88)."""
    s, board = ctx.state, ctx.board
    for i in s.naval.get("active", []):
        hq = s.blocks[i]
        if hq.where != "box":
            continue
        name = board.block(i).name
        if hq.steps > 1:
            hq.steps -= 1
            hq.revealed = False
            ap = board.block(i).values()[hq.steps - 1]
            ctx.events.append(private(
                "deactivate", f"{name} ({hq.token}) is deactivated: it loses a step (now {ap} AP).",
                (hq.side,), f"{hq.token} is deactivated and stands up again (11.4).",
            ))  # fmt: skip
        else:
            hq.where, hq.at, hq.revealed = "dead", None, False
            ctx.events.append(Event("deactivate", f"{name} ({hq.token}) is used up and leaves "
                                    "play (11.4: an activated 1-step HQ is depleted)."))  # fmt: skip
    if s.naval.get("active"):
        s.naval["active"] = []


def shown(ctx: Ctx, order) -> str:
    """An order naming a block as the other side and the public read it: with its token
    (1.3); the blocks these orders name are face up anyway (a sea battle's, an activated
    HQ)."""
    b = ctx.state.blocks.get(order.block) or ctx.state.by_token(order.block.upper())
    return f"{order.verb} {b.token}" if b else order.verb


# -- prompts --------------------------------------------------------------------------------


def prompt(ctx: Ctx, head: str, base: dict):
    """Who decides in a naval scenario, and what: the side choosing where a hit falls in a
    sea battle (RULINGS B85), a side adding ships to the convoy boxes in Strategic Warfare
    (L2558-2563), the phasing side activating its Navy HQ in the SRM Phase (L2544,
    RULINGS B87) or moving in its Movement Phase; every other phase passes (the naval
    scenarios have no ground or air units, 6.0 L789-799)."""
    from engine.core.ruleset import Prompt

    s = ctx.state
    wait = choice(s)
    if wait is not None:
        box = ctx.board.pack.strategic.convoy_boxes[wait["key"]].name
        names = "; ".join(choice_names(ctx, wait))
        if wait["who"] == "own":
            what = (f"the strongest of your ships are tied for the next hit of the {wait['why']}: "
                    f"{names}. Say which is reduced")  # fmt: skip
        else:
            what = (f"your {wait['why'].split(' ', 1)[1]} hit; choose the enemy ship it falls on: "
                    f"{names}. Say which")  # fmt: skip
        text = (f"{head}, sea battle in the {box} convoy box: {what} ('hit BLOCK'), or leave "
                "such choices to the engine ('standing naval engine').")  # fmt: skip
        return Prompt(role=wait["side"], kind="naval_hit", verbs=["hit", "standing"], text=text,
                      **base)  # fmt: skip
    side = waiting_side(s)
    if side is not None:
        what = "submarines and carriers" if side != s.player else "carriers"
        text = (f"{head}: add {what} at sea to a convoy box of their body of water "
                "('sail BLOCK BOX'), then 'done'; the convoy battles follow.")  # fmt: skip
        return Prompt(role=side, kind="convoy", verbs=["sail", "done", "standing"], text=text,
                      **base)  # fmt: skip
    if s.phase == "srm":
        text = (f"{head}: activate your Navy HQ ('activate HQ'): it fuels one fleet at sea or in "
                "a convoy box per AP this turn and loses a step at the end of the Blitz Phase; "
                "or 'done'.")  # fmt: skip
        return Prompt(role=s.player, kind="srm", verbs=["activate", "done", "standing"],
                      text=text, **base)  # fmt: skip
    text = (f"{head}: move your naval blocks ('sail BLOCK PLACE': a port hex, a convoy box, "
            "'sea' for a new fleet at sea, or a fleet at sea such as f2), then 'done'.")  # fmt: skip
    return Prompt(role=s.player, kind=s.phase, verbs=["sail", "done", "standing"], text=text,
                  **base)  # fmt: skip


def legal(ctx: Ctx, role: str) -> list:
    from engine.games.bia.orders import Done, Hit, Standing

    s = ctx.state
    now = combat.standing(s, role, "naval")
    standing = [Standing(topic="naval", value=v) for v in STANDING["naval"] if v != now]
    wait = choice(s)
    if wait is not None:
        ids = wait["among"] if wait["who"] == "own" else [s.blocks[i].token for i in wait["among"]]
        return [*standing, *(Hit(block=i) for i in ids)]
    if s.phase == "srm":
        return [*standing, *activate_orders(ctx), Done()]
    return [*standing, *sail_orders(ctx, role), Done()]
