"""The convoy boxes in Strategic Warfare in the naval scenarios (17.0 In a Convoy Box,
L2553-2564): ships joining a box, the one-round sea battle in every box holding both
sides' ships, and the players' choices of where its hits fall and which of them the TECH
advantage discards (RULINGS B85-B86, B105).

The round itself is :func:`engine.games.bia.naval.fight_round`; this module keeps the
battle in the state between choices and writes its results on the blocks. Rulebook line
numbers (``L123``) refer to ``shared/rules/003_19684674ce068529.txt``.
"""

from __future__ import annotations

from engine.core.events import Event
from engine.games.bia import combat, naval
from engine.games.bia.board import ALLIED, AXIS, SIDE_NAME, Board, enemy
from engine.games.bia.context import Ctx, refuse
from engine.games.bia.naval_movement import sail_orders, ships_at
from engine.games.bia.state import BlockState, State


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


#: a side's answer, among the choices a battle stores, that its TECH advantage discards
#: the hit (the other answers are ship ids; RULINGS B105)
CANCEL = "cancel"


def choice(state: State) -> dict | None:
    """The choice a sea battle waits on (RULINGS B85, B105): ``side``, ``who`` ("own",
    "aim" or "cancel"), the ships ``among`` it picks from (ids; for "cancel" the ship or
    tied ships the hit falls on), ``why`` (the fire that hit) and the convoy box ``key``;
    None when no battle waits."""
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
    standing order ``naval`` says ``ask``, or where a hit is about to fall on the ships
    of a side holding an unused TECH discard whose standing order asks, the round stops
    there (False) with what has happened so far on the blocks and in the log; each answer
    given (``hit``, ``cancel``, ``take``) fights the round again with the same dice and
    the choices made, to the next choice or its end (True; RULINGS B85-B86, B105)."""
    s, board = ctx.state, ctx.board
    fight = s.naval.get("battle")
    if fight is None or fight["key"] != key:
        here = sorted(ships_at(board, s, f"convoy:{key}"), key=lambda b: (b.side, b.token))
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
                 "rolls": [], "choices": [], "said": 0, "wait": None,
                 "tech_choice": True}  # fmt: skip
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
            # the engine's answers: B67's ship, and the round's first hit discarded (B68)
            pick = CANCEL if who == "cancel" else naval.engine_pick(who, among).id
            fight["choices"].append(pick)
        return None if pick == CANCEL else next(x for x in among if x.id == pick)

    try:  # a battle stored before the discard was a side's choice replays without it
        naval.fight_round(battle, _Replay(ctx.dice, fight["rolls"]),
                          lambda sh: ship_name(board, sh), choose,
                          ask_discard=fight.get("tech_choice", False))  # fmt: skip
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
        rule = {"own": "the strongest of your ships in the battle (L2639)",
                "aim": "an enemy ship your fire may hit (L2645, L2649)",
                "cancel": "one of the ships your prompt names (L2639, L2649)"}[wait["who"]]  # fmt: skip
        raise refuse("BIA 17.0", f"The hit must fall on {rule}.",
                     f"Those are: {', '.join(choice_names(ctx, wait))}.")  # fmt: skip
    _answer(s, b.id)


def apply_discard(ctx: Ctx, role: str, cancel: bool) -> None:
    """``cancel`` or ``take`` in a sea battle: the side holding the naval TECH advantage,
    asked as a hit is about to fall on its ships, discards this hit (its one discard of the
    round) or suffers it, on the one ship the prompt names (L2642-2644, L2706-2709;
    RULINGS B105). Among tied ships it suffers it with ``hit BLOCK``."""
    s = ctx.state
    wait = choice(s)
    if wait is None or wait["side"] != role or wait["who"] != "cancel":
        raise refuse("BIA 17.0", "No sea battle waits on your choice to discard a hit with your "
                     "naval TECH advantage.")  # fmt: skip
    if cancel:
        _answer(s, CANCEL)
    elif len(wait["among"]) == 1:
        _answer(s, wait["among"][0])
    else:
        raise refuse("BIA 17.0", "The hit falls on one of your tied strongest ships (L2639): "
                     "say which suffers it ('hit BLOCK'), or 'cancel'.",
                     f"Those are: {', '.join(choice_names(ctx, wait))}.")  # fmt: skip


def _answer(s: State, pick: str) -> None:
    fight = s.naval["battle"]
    fight["choices"].append(pick)
    fight["wait"] = None
