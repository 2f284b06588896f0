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
sea battle reveals it (1.3, L134-138; the Crete example reveals the blocks, L2715).

This module sets the fleets up, activates the Navy HQs, scores the naval victory and says
who decides what; the fleets' places, fuel and movement are :mod:`naval_movement`, the
convoy boxes' battles :mod:`convoy` and the combat itself :mod:`naval`. The names of the
first two are reached here too. Rulebook line numbers (``L123``) refer to
``shared/rules/003_19684674ce068529.txt``; rulings are ``RULINGS.md`` B63-B72 and
B85-B88.
"""

from __future__ import annotations

from engine.core.events import Event, private
from engine.games.bia import combat
from engine.games.bia.board import ALLIED, AXIS, SIDE_NAME, Board, enemy
from engine.games.bia.context import Ctx, refuse

# the naval scenarios' parts, also reached here by the turn and the tests
from engine.games.bia.convoy import (  # noqa: F401
    apply_discard,
    apply_hit,
    choice,
    choice_names,
    convoy_step,
    end_step,
    waiting_side,
)
from engine.games.bia.naval_movement import (  # noqa: F401
    apply_sail,
    is_naval,
    navy_hqs,
    sail_orders,
    ships_at,
)
from engine.games.bia.orders import STANDING, Activate
from engine.games.bia.state import BlockState, State

#: the countries whose ports are each side's naval bases in the naval scenarios, which
#: give no control of the land (RULINGS B71): Italy's and Britain's own lands of
#: 1940-42; Greece, Vichy France's lands and Turkey are nobody's base
BASES = {
    AXIS: ("italy", "libya", "albania", "dodecanese"),
    ALLIED: ("egypt", "malta", "palestine", "cyprus"),
}


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


# -- victory ----------------------------------------------------------------------------


def points(board: Board, state: State) -> dict[str, int]:
    """The naval scenarios' victory points (Scenario Booklet, data pack): the enemy's naval
    steps lost, and one for each step of the side's own ships in a convoy box it
    escorts (RULINGS B72)."""
    sc = board.pack.scenario(state.scenario)
    lost = state.naval.get("lost", {})
    out = {side: lost.get(enemy(side), 0) for side in (AXIS, ALLIED)}
    for key, side in sc.victory.convoys.items():
        out[side] += sum(b.steps for b in ships_at(board, state, f"convoy:{key}") if b.side == side)
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
    if wait is not None and wait["who"] == "cancel":
        return discard_prompt(ctx, head, base, wait)
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


def discard_prompt(ctx: Ctx, head: str, base: dict, wait: dict):
    """The side holding the naval TECH advantage, with its discard of the round unused, is
    asked whether the hit about to fall on its ships is the one it discards (L2642-2644,
    L2706-2709; RULINGS B105). It reads the fire that hit and the ship it falls on (or its
    tied strongest), all face up in the battle (L2716); the other side reads only that
    the choice is pending."""
    from engine.core.ruleset import Prompt

    box = ctx.board.pack.strategic.convoy_boxes[wait["key"]].name
    names = "; ".join(choice_names(ctx, wait))
    side = SIDE_NAME[wait["side"]]
    if len(wait["among"]) == 1:
        on, take = f"falls on your {names}", "'take' to suffer it"
    else:
        on, take = (f"falls on one of your tied strongest ships: {names}",
                    "'hit BLOCK' to suffer it on that ship")  # fmt: skip
    text = (f"{head}, sea battle in the {box} convoy box: a hit of the {wait['why']} {on}. "
            "Your naval TECH advantage may discard one hit this round, and you have not used "
            f"it: 'cancel' to discard this hit, or {take} and keep the discard for a later "
            "one; or leave it to the engine ('standing naval engine': the first hit of each "
            "round is discarded).")  # fmt: skip
    public = (f"{head}, sea battle in the {box} convoy box: waiting for the {side} player's "
              "choice on a hit (naval TECH, 17.0).")  # fmt: skip
    verbs = ["cancel", "take", "hit", "standing"]
    return Prompt(role=wait["side"], kind="naval_discard", verbs=verbs, text=text,
                  public=public, **base)  # fmt: skip


def legal(ctx: Ctx, role: str) -> list:
    from engine.games.bia.orders import Cancel, Done, Hit, Standing, Take

    s = ctx.state
    now = combat.standing(s, role, "naval")
    standing = [Standing(topic="naval", value=v) for v in STANDING["naval"] if v != now]
    wait = choice(s)
    if wait is not None and wait["who"] == "cancel":  # own ships, by id (RULINGS B105)
        take = [Take()] if len(wait["among"]) == 1 else [Hit(block=i) for i in wait["among"]]
        return [*standing, Cancel(), *take]
    if wait is not None:
        ids = wait["among"] if wait["who"] == "own" else [s.blocks[i].token for i in wait["among"]]
        return [*standing, *(Hit(block=i) for i in ids)]
    if s.phase == "srm":
        return [*standing, *activate_orders(ctx), Done()]
    return [*standing, *sail_orders(ctx, role), Done()]
