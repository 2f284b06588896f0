"""The sequence of play of Blocks in Afrika (7.0, L984-1005): which phase comes next,
the phases that run by themselves, whose decision each waiting phase is, the orders it
takes, and applying one.

A side's half of the turn runs Strategic Warfare (7.1), Supply (7.2), Production (7.3),
Strategic Rail Movement (7.4), Movement (7.5), Defender Reaction (7.6), Combat (7.7),
Blitz (7.8), Final Supply (7.9) and Armoured Exploitation (7.10); after both halves the
Victory Phase (7.11, 5.1). A phase waits on a player only while that player has a
decision to take in it.

Rulebook line numbers (``L123``) refer to ``shared/rules/003_19684674ce068529.txt``.
"""

from __future__ import annotations

from engine.core.events import ORDER, Event, private
from engine.core.orders import Order
from engine.core.ruleset import Prompt
from engine.games.bia import (
    air,
    blitz,
    combat,
    ledger,
    movement,
    production,
    spending,
    srm,
    strategic_warfare,
    supply,
)
from engine.games.bia.board import ALLIED, AXIS, SIDE_NAME, Board, enemy
from engine.games.bia.context import Ctx, refuse
from engine.games.bia.orders import (
    STANDING,
    STANDING_SIDE,
    Blitz,
    Disband,
    Done,
    Fight,
    Fly,
    Hit,
    Move,
    Rail,
    Rebuild,
    Repair,
    Retreat,
    Standing,
    Stay,
)  # fmt: skip
from engine.games.bia.state import PHASES, BlockState

PHASE_NAMES = {
    "strategic_warfare": "Strategic Warfare (phase 1)",
    "supply": "Supply (phase 2)",
    "production": "Production (phase 3)",
    "srm": "Strategic Rail Movement (phase 4)",
    "movement": "Movement (phase 5)",
    "reaction": "Defender Reaction (phase 6)",
    "combat": "Combat (phase 7)",
    "blitz": "Blitz (phase 8)",
    "final_supply": "Final Supply Status (phase 9)",
    "exploitation": "Armor Exploitation (phase 10)",
    "over": "Game over",
}


# -- the flow of phases ---------------------------------------------------------------


def next_phase(ctx: Ctx) -> None:
    """Step to the next phase of 7.0 and open it: after a side's phase 10 comes the other
    side's phase 1, and after the Allied phase 10 the Victory Phase and a new turn."""
    s = ctx.state
    s.moved = []
    if s.phase == "production":
        ledger.store(ctx)
    i = PHASES.index(s.phase)
    if i + 1 < len(PHASES):
        s.phase = PHASES[i + 1]
        if s.phase == "production":
            production.open_phase(ctx)
        elif s.phase == "combat":
            combat.reveal_battles(ctx)
        elif s.phase == "blitz":
            s.blitzed = {}
        elif s.phase == "exploitation":
            movement.start_exploitation(ctx)
        return
    s.battles, s.barred, s.attacked, s.entered_from, s.blitzed = [], [], {}, {}, {}
    if s.player == AXIS:
        s.player, s.phase = ALLIED, PHASES[0]
        return
    victory_phase(ctx)


def settle(ctx: Ctx) -> None:
    """Run every phase that takes no decision, and every step of a battle that takes
    none, until a player must decide or the game ends."""
    s = ctx.state
    while s.phase != "over":
        if s.phase == "strategic_warfare":
            strategic_warfare.strategic_warfare(ctx)
        elif s.phase == "supply":
            supply_phase(ctx)
        elif s.phase == "final_supply":
            final_supply_phase(ctx)
        elif waits(ctx):
            return
        next_phase(ctx)


def waits(ctx: Ctx) -> bool:
    """Whether the phase (one that may take orders) waits on a player now. Movement
    always does; the others only while an order is possible (Defender Reaction moves air
    units, which this engine does not take yet: RULINGS B17)."""
    s = ctx.state
    if s.phase == "movement":
        return True
    if s.phase == "production":
        return bool(spending.orders(ctx))
    if s.phase == "srm":
        return bool(srm.rail_orders(ctx))
    if s.phase == "combat":
        return combat.advance(ctx, auto_start=True)
    if s.phase == "blitz":  # blitz battles are fought when ordered (L1871-1874)
        return combat.advance(ctx, auto_start=False) or bool(blitz.blitz_orders(ctx))
    if s.phase == "exploitation":
        return any(movement.destinations(ctx, b) for b in s.on_map(s.player))
    return False


# -- prompts and legal orders ------------------------------------------------------------


def prompt(ctx: Ctx) -> Prompt:
    s, board = ctx.state, ctx.board
    base = {"turn": s.turn, "phase": s.phase}
    if s.phase == "over":
        return Prompt(role=None, kind="over", text=f"The game is over. {s.result_text}", **base)
    head = f"Turn {s.turn}, {SIDE_NAME[s.player]} {PHASE_NAMES[s.phase]}"
    f = s.fight
    if f and f["wait"]:
        what, side = f["wait"].split(":")
        where = ctx.where(f["hex"])
        if what == "hit":
            tied = combat.strongest(board, s, f["hex"], side)
            names = ", ".join(combat.name(board, b) for b in tied)
            text = (f"{head}, battle at {where}: {f['pending']['hits']} hit(s) on your blocks; "
                    f"the strongest are tied: {names}. Say which takes the next ('hit BLOCK').")  # fmt: skip
            return Prompt(role=side, kind="hit", verbs=["hit", "standing"], text=text, **base)
        text = (f"{head}, battle at {where}, round {f['round']}: retreat blocks "
                "('retreat BLOCK HEX'), or 'stay'.")  # fmt: skip
        return Prompt(
            role=side, kind="retreat", verbs=["retreat", "stay", "standing"], text=text, **base
        )
    verbs = {
        "production": (["repair", "rebuild", "disband", "done", "standing"], "repair ('repair BLOCK') or rebuild ('rebuild BLOCK [HEX]') blocks, then disband ('disband BLOCK') if you wish, then 'done'"),
        "srm": (["rail", "done", "standing"], "move a unit by rail ('rail BLOCK HEX'), then 'done'"),
        "movement": (["move", "fly", "done", "standing"], "move your blocks ('move BLOCK HEX...', air units 'fly BLOCK HEX'), then 'done'"),
        "combat": (["fight", "standing"], f"choose the next battle ('fight HEX'): {', '.join(s.battles)}"),
        "blitz": (["blitz", "fight", "done", "standing"], "blitz ('blitz BLOCK HEX'), fight blitz battles ('fight HEX'), then 'done'"),
        "exploitation": (["move", "done", "standing"], "exploit with armour ('move BLOCK HEX...'), then 'done'"),
    }[s.phase]  # fmt: skip
    return Prompt(role=s.player, kind=s.phase, verbs=verbs[0], text=f"{head}: {verbs[1]}.", **base)


def legal(ctx: Ctx, role: str) -> list[Order]:
    """Every order ``role`` may give now."""
    s = ctx.state
    p = prompt(ctx)
    if p.role is None or role != p.role:
        return []
    out: list[Order] = []
    f = s.fight
    if p.kind == "hit":
        tied = combat.strongest(ctx.board, s, f["hex"], role)
        out = [Hit(block=b.id) for b in tied]
    elif p.kind == "retreat":
        out = [Retreat(block=b.id, to=n) for b, n in combat.retreats(ctx, role)]
        out.append(Stay())
    elif s.phase == "production":
        out = [*spending.orders(ctx), Done()]
    elif s.phase == "srm":
        out = [*srm.rail_orders(ctx), Done()]
    elif s.phase in ("movement", "exploitation"):
        for b in sorted(s.on_map(role), key=lambda b: b.id):
            out.extend(movement.destinations(ctx, b))
        if s.phase == "movement":
            out.extend(air.fly_orders(ctx))
        out.append(Done())
    elif s.phase == "combat":
        out = [Fight(hex=h) for h in s.battles]
    elif s.phase == "blitz":
        out = [*blitz.blitz_orders(ctx), *(Fight(hex=h) for h in s.battles)]
        if not s.battles:
            out.append(Done())
    standing = [
        Standing(topic=topic, value=v)
        for topic, values in STANDING.items()
        for v in values
        if v != combat.standing(s, role, topic) and STANDING_SIDE.get(topic, role) == role
    ]
    done = [o for o in out if isinstance(o, Done)]
    return standing + [o for o in out if not isinstance(o, Done)] + done


# -- applying an order --------------------------------------------------------------------


def dispatch(ctx: Ctx, role: str, order: Order) -> None:
    """Apply one order the prompt admits (check_turn ran before)."""
    s = ctx.state
    if isinstance(order, Standing):
        if STANDING_SIDE.get(order.topic, role) != role:
            raise refuse(
                "BIA 7.1", "The Allied player chooses the colours Strategic Warfare takes."
            )
        s.standing.setdefault(role, {})[order.topic] = order.value
        ctx.events.append(private(ORDER, order.text(), (role,)))  # the other side reads nothing
        ctx.events.append(
            private("standing", f"Standing order: {order.topic} {order.value}.", (role,))
        )
        f = s.fight
        waiting = {"hits": "hit", "retreat": "retreat"}.get(order.topic)
        if f and f["wait"] == f"{waiting}:{role}":
            if order.value == STANDING[order.topic][0]:
                if order.topic == "retreat":
                    combat.end_retreats(ctx)
                else:
                    f["wait"] = None
        settle(ctx)
        return
    if isinstance(order, Move):
        movement.apply_move(ctx, order)
        _keep_order_private(ctx, role, order, order.block, " ".join(order.path))
    elif isinstance(order, Fly):
        air.apply_fly(ctx, order)
        _keep_order_private(ctx, role, order, order.block, order.to)
    elif isinstance(order, Rail):
        srm.apply_rail(ctx, order)
        _keep_order_private(ctx, role, order, order.block, order.to)
    elif isinstance(order, Repair):
        spending.apply_repair(ctx, order)
        ctx.events.insert(0, private(ORDER, order.text(), (role,)))  # purchases are private
    elif isinstance(order, Rebuild):
        spending.apply_rebuild(ctx, order)
        ctx.events.insert(0, private(ORDER, order.text(), (role,)))
    elif isinstance(order, Disband):
        spending.apply_disband(ctx, order)
        ctx.events.insert(0, private(ORDER, order.text(), (role,)))
    elif isinstance(order, Blitz):
        blitz.apply_blitz(ctx, order)
        _keep_order_private(ctx, role, order, order.block, order.to)
    elif isinstance(order, Fight):
        if s.fight or order.hex not in s.battles:
            raise refuse("BIA 7.7", f"There is no battle to fight at {order.hex}.",
                         f"Battles to fight: {', '.join(s.battles) or 'none'}.")  # fmt: skip
        combat.start(ctx, order.hex)
    elif isinstance(order, Hit):
        tied = combat.strongest(ctx.board, s, s.fight["hex"], role)
        b = _named(ctx, order.block, tied)
        if b is None:
            raise refuse("BIA 7.7.9", "The next hit must fall on one of your strongest blocks in the battle.",
                         f"Those are: {', '.join(combat.name(ctx.board, x) for x in tied)}.")  # fmt: skip
        combat.take_hit(ctx, b)
        s.fight["wait"] = None
    elif isinstance(order, Retreat):
        mine = combat.ground(ctx.board, s, s.fight["hex"], role)
        b = _named(ctx, order.block, mine)
        if b is None or order.to not in combat.retreat_hexes(ctx, b):
            raise refuse("BIA 7.7.11", f"{order.block} may not retreat to {order.to}: a block of yours in "
                         "the battle retreats one hex to a safe hex (friendly, a friendly city, or on a "
                         "supply line), never into enemy ZOC, enemy units or another battle.")  # fmt: skip
        combat.do_retreat(ctx, b, order.to)
    elif isinstance(order, Stay):
        combat.end_retreats(ctx)
    elif isinstance(order, Done):
        if s.phase == "blitz" and s.battles:
            raise refuse("BIA 7.8", f"Fight the blitz battles first: {', '.join(s.battles)}.")
        ctx.events.append(Event("done", f"{SIDE_NAME[role]} ends {PHASE_NAMES[s.phase]}."))
        next_phase(ctx)
    settle(ctx)


def _named(ctx: Ctx, name: str, among: list[BlockState]) -> BlockState | None:
    b = ctx.state.blocks.get(name) or ctx.state.by_token(name.upper())
    return b if b is not None and b in among else None


def _keep_order_private(ctx: Ctx, role: str, order: Order, block: str, rest: str) -> None:
    """An order naming a block: the giver reads it whole, everyone else reads it with
    the block's public token instead (1.3; ARCHITECTURE: the log is a view)."""
    b = ctx.state.blocks.get(block) or ctx.state.by_token(block.upper())
    shown = f"{order.verb} {b.token} {rest}"
    ctx.events.insert(0, private(ORDER, order.text(), (role,), shown))


# -- the phases that run by themselves ------------------------------------------------------


def supply_phase(ctx: Ctx) -> None:
    """7.2 (L1018-1021): the phasing side's blocks that trace no supply line (4.3) get the
    white barrel; the others lose it. The barrel is public (digest 4.2): the others
    read the tokens of the blocks under it."""
    s, side = ctx.state, ctx.state.player
    oos = set(supply.out_of_supply(ctx.board, s, side))
    for b in s.on_map(side):
        b.oos = b.id in oos
    blocks = sorted((s.blocks[i] for i in oos), key=lambda b: b.token)
    if not blocks:
        ctx.events.append(
            Event("supply", f"Supply: every {SIDE_NAME[side]} block on the map is in supply.")
        )
        return
    ctx.events.append(
        private(
            "supply",
            f"Supply: out of supply: {', '.join(ctx.name(b) for b in blocks)}.",
            (side,),
            f"Supply: {SIDE_NAME[side]} blocks out of supply: {', '.join(b.token for b in blocks)}.",
            tokens=[b.token for b in blocks],
        )
    )


def final_supply_phase(ctx: Ctx) -> None:
    """7.9 (L1891-1896): each block of the phasing side with a white barrel is checked
    again. Back in supply: the barrel goes. Still out: it surrenders and leaves the map
    (4.5) and gives the enemy PP (4.5, L714-723: ``ledger.surrender_gain``), except static
    infantry, which stays (4.4.1, L703-706), and a block with a
    0-step edge, which drops to it and stays (L738-740, L1833-1835). Then every block
    turned face up by a battle or a recon stands up again (L2416-2417)."""
    s, board, side = ctx.state, ctx.board, ctx.state.player
    marked = [b for b in s.on_map(side) if b.oos]
    if marked:
        still = set(supply.out_of_supply(board, s, side))
        for b in sorted(marked, key=lambda b: b.token):
            block = board.block(b.id)
            if b.id not in still:
                b.oos = False
                ctx.events.append(
                    private(
                        "supply",
                        f"Final supply: {ctx.name(b)} is back in supply.",
                        (side,),
                        f"Final supply: {b.token} is back in supply.",
                    )
                )
            elif block.kind == "static":
                ctx.events.append(
                    private(
                        "supply",
                        f"Final supply: {ctx.name(b)} stays out of supply; static infantry never surrenders.",
                        (side,),
                        f"Final supply: {b.token} stays out of supply.",
                    )
                )
            elif block.track[0][0] == 0:
                b.steps = 1
                ctx.events.append(
                    private(
                        "supply",
                        f"Final supply: {ctx.name(b)} stays out of supply and drops to its 0-step edge.",
                        (side,),
                        f"Final supply: {b.token} stays out of supply.",
                    )
                )
            else:
                where = b.at
                b.where, b.at, b.oos = "dead", None, False
                gain = ledger.surrender_gain(board, block)
                ledger.grant(ctx, enemy(side), gain, f"{b.token} surrendered (4.5)")
                ctx.events.append(
                    private(
                        "surrender",
                        f"Final supply: {ctx.name(b)} is still out of supply at {where} and surrenders.",
                        (side,),
                        f"Final supply: {b.token} is still out of supply at {where} and surrenders.",
                    )
                )
    for b in s.blocks.values():
        b.revealed = False


def victory_phase(ctx: Ctx) -> None:
    """7.11 (L1859-1869): first the powers whose capitals the enemy holds surrender (5.1,
    :func:`conquest`); then, at the end of the scenario's last turn, its victory
    conditions are read against hex control; otherwise a new turn begins with the
    Weather, which is always good in BIA (7.0 A, L993-994)."""
    s, sc = ctx.state, ctx.board.pack.scenario(ctx.state.scenario)
    conquest(ctx)
    if s.turn < s.last_turn:
        s.turn += 1
        s.player, s.phase = AXIS, PHASES[0]
        ctx.events.append(Event("turn", f"Turn {s.turn} begins. Weather: good (7.0 A)."))
        return
    winner: str | None = None
    for rule in sc.victory.rules:
        held = {h for h, side in s.control.items() if side == rule.side}
        ok = (not rule.all or all(h in held for h in rule.all)) and (
            not rule.any or any(h in held for h in rule.any)
        )
        if rule.at_least is not None:
            ok = ok and sum(h in held for h in rule.of) >= rule.at_least
        if ok:
            winner = rule.side
            break
    if winner is None and sc.victory.otherwise in (AXIS, ALLIED):
        winner = sc.victory.otherwise
    s.winner = winner
    s.phase = "over"
    s.result_text = (
        f"{SIDE_NAME[winner]} victory. {sc.victory.text}"
        if winner
        else f"A draw. {sc.victory.text}"
    )
    ctx.events.append(Event("result", s.result_text))


# -- power conquest (5.1) --------------------------------------------------------------------


def capitals(board: Board, power: str) -> list[str]:
    p = board.pack.units.powers[power]
    names = [p.capital, *p.capitals, *p.capitals_by_territory.values()]
    return [board.pack.places[c] for c in names if c and c in board.pack.places]


def conquest(ctx: Ctx) -> None:
    """5.1 (L757-768): a power of the scenario whose every capital on the map is enemy
    controlled in the Victory Phase is conquered: its blocks leave play (those with a
    0-strength edge drop to it and stay until engaged), and the hexes of its countries
    its side controls pass to the conqueror (RULINGS B24). The conqueror gains 1 yellow
    PP for every block of the power in play that leaves it (L764) and 1 PP of its colour
    for every factory of its lands, destroyed (L765-766; ``ledger.factories``)."""
    s, board = ctx.state, ctx.board
    for power in board.pack.scenario(s.scenario).powers:
        side = board.side_of_power(power)
        caps = capitals(board, power)
        if power in s.conquered or not caps or side not in ("axis", "allied"):
            continue
        if not all(s.control.get(h) == enemy(side) for h in caps):
            continue
        s.conquered.append(power)
        lands = set(board.pack.units.powers[power].capitals_by_territory) or {power}
        for h in board.pack.map.hexes:
            if h.country in lands and s.control.get(h.id) == side:
                s.control[h.id] = enemy(side)
        gone = 0
        for b in s.blocks.values():
            if board.block(b.id).power != power or b.where in ("dead", "removed"):
                continue
            if b.where == "map" and board.block(b.id).track[0][0] == 0:
                b.steps = 1
            else:
                gone += b.where in ("map", "box")
                b.where, b.at, b.oos = "removed", None, False
        gain = ledger.factories(board, lands)
        s.factories_lost += sorted(
            h.id for h in board.pack.map.hexes
            if h.country in lands and any(c != "yellow" for c in h.production)
        )  # fmt: skip
        if gone:
            gain["yellow"] = gain.get("yellow", 0) + gone
        ledger.grant(
            ctx, enemy(side), gain, f"the conquest of {board.pack.units.powers[power].name} (5.1)"
        )
        ctx.events.append(
            Event(
                "conquest",
                f"{board.pack.units.powers[power].name} is conquered: its capital is "
                f"{SIDE_NAME[enemy(side)]} controlled (5.1). Its units leave play and its "
                "land passes to the conqueror.",
            )
        )
