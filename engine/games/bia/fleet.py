"""Fleets in the naval scenarios BIA7-BIA10 (17.0 Naval Rules, L2477-2651; 3.4.2,
L310-315): set-up, naval movement, the convoy boxes' battles in Strategic Warfare, and
the naval victory.

A naval block is a :class:`~engine.games.bia.state.BlockState` with ``where == "box"``
and one of three kinds of place as ``at`` (L313-314: At Sea, in a Convoy Box, In Port):

* ``port:HEX``: in port at a naval base;
* ``sea:BODY/fN``: at sea in a body of water, in fleet ``fN`` (several fleets may be at
  sea in one body of water, L2537-2540);
* ``convoy:KEY``: in a convoy box of the Strategic Map (one fleet per power, L2537).

Where a block is, its nation and its token are public; its face is its owner's until a
sea battle reveals it (1.3, L134-138; the Crete example reveals the blocks, L2715). The
combat itself is :mod:`engine.games.bia.naval`. Rulebook line numbers (``L123``) refer to
``shared/rules/003_19684674ce068529.txt``; rulings are ``RULINGS.md`` B63-B72.
"""

from __future__ import annotations

from engine.core.events import Event
from engine.games.bia import naval
from engine.games.bia.board import ALLIED, AXIS, SIDE_NAME, Board, enemy
from engine.games.bia.context import Ctx, refuse
from engine.games.bia.orders import Sail
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


def fuel(board: Board, state: State, power: str) -> int:
    """The fleets a power may keep At Sea or in the convoy boxes: one per AP of its Navy
    HQs in play, their strength (L2544-2550), and one for its Supreme Leader (L2546;
    RULINGS B70: the scenarios' HQs count as activated throughout)."""
    n = sum(
        board.block(b.id).values()[b.steps - 1]
        for b in state.blocks.values()
        if b.where == "box"
        and board.block(b.id).kind == "navy_hq"
        and board.block(b.id).power == power
    )
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
            if len(fleets_out(board, state, power, b, target)) > fuel(board, state, power):
                continue
            if p not in out:
                out.append(p)
    return out


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
    fought in every convoy box holding both sides' ships. True while a side decides."""
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
        for key in sorted(ctx.board.pack.strategic.convoy_boxes):
            convoy_battle(ctx, key)
        s.naval["sw"], s.moved = None, []
        return False


def end_step(ctx: Ctx) -> None:
    """``done`` in Strategic Warfare: the deciding side has added what it wanted."""
    s = ctx.state
    s.naval["sw"] = "own" if s.naval.get("sw") == "enemy" else "fight"


def waiting_side(state: State) -> str | None:
    step = state.naval.get("sw")
    if state.phase != "strategic_warfare" or step not in ("enemy", "own"):
        return None
    return enemy(state.player) if step == "enemy" else state.player


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


def convoy_battle(ctx: Ctx, key: str) -> None:
    """One round of naval combat in a convoy box (L2553-2564): both sides' blocks there
    are revealed (L2716) and fight one round (:func:`engine.games.bia.naval.fight_round`);
    a block that loses its last edge is sunk (eliminated). Each side's steps lost count
    for the naval victory (RULINGS B72)."""
    s, board = ctx.state, ctx.board
    here = sorted(_ships_at(board, s, f"convoy:{key}"), key=lambda b: (b.side, b.token))
    if {b.side for b in here} != {AXIS, ALLIED}:
        return
    ships = []
    for b in here:
        blk = board.block(b.id)
        b.revealed = True
        ships.append(naval.Ship(b.id, b.side, blk.kind, blk.values(), b.steps, b.token,
                                max(blk.planes.values(), default=0)))  # fmt: skip
    box = board.pack.strategic.convoy_boxes[key].name
    parts = []
    for side in (AXIS, ALLIED):
        parts.append(f"{SIDE_NAME[side]}: " + ", ".join(
            f"{board.block(b.id).name} ({b.token}, {naval.KIND_NAME[board.block(b.id).kind]} "
            f"{board.block(b.id).values()[b.steps - 1]})" for b in here if b.side == side))  # fmt: skip
    ctx.events.append(Event("reveal", f"Sea battle in the {box} convoy box, blocks revealed. "
                            f"{'; '.join(parts)}.", {"tokens": [b.token for b in here]},
                            reveals=True))  # fmt: skip
    battle = naval.Battle(
        ships,
        {x: _side_tech(board, s, here, x, "navy") for x in (AXIS, ALLIED)},
        {x: _side_tech(board, s, here, x, "bomber") for x in (AXIS, ALLIED)},
        convoy=True,
    )
    naval.fight_round(battle, ctx.dice, lambda sh: f"{board.block(sh.id).name} ({sh.token})")
    lost = s.naval.setdefault("lost", {AXIS: 0, ALLIED: 0})
    for sh in battle.ships:
        b = s.blocks[sh.id]
        lost[b.side] = lost.get(b.side, 0) + b.steps - sh.pos
        b.steps = sh.pos
        if sh.pos == 0:
            b.where, b.at, b.steps = "dead", None, 1
    for line in battle.lines:
        ctx.events.append(Event("naval", line))


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


# -- prompts --------------------------------------------------------------------------------


def prompt(ctx: Ctx, head: str, base: dict):
    """Who decides in a naval scenario, and what: a side adding ships to the convoy boxes
    in Strategic Warfare (L2558-2563), the phasing side in its Movement Phase; every other
    phase passes (the naval scenarios have no ground or air units, 6.0 L789-799)."""
    from engine.core.ruleset import Prompt

    s = ctx.state
    side = waiting_side(s)
    if side is not None:
        what = "submarines and carriers" if side != s.player else "carriers"
        text = (f"{head}: add {what} at sea to a convoy box of their body of water "
                "('sail BLOCK BOX'), then 'done'; the convoy battles follow.")  # fmt: skip
        return Prompt(role=side, kind="convoy", verbs=["sail", "done"], text=text, **base)
    text = (f"{head}: move your naval blocks ('sail BLOCK PLACE': a port hex, a convoy box, "
            "'sea' for a new fleet at sea, or a fleet at sea such as f2), then 'done'.")  # fmt: skip
    return Prompt(role=s.player, kind=s.phase, verbs=["sail", "done"], text=text, **base)


def legal(ctx: Ctx, role: str) -> list:
    from engine.games.bia.orders import Done

    return [*sail_orders(ctx, role), Done()]
