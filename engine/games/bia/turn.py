"""The sequence of play of Blocks in Afrika (7.0, L984-1005): which phase comes next,
the phases that run by themselves, whether a phase waits on a player, and applying an
order. The prompts and the legal orders are :mod:`engine.games.bia.prompts`.

A side's half of the turn runs Strategic Warfare (7.1), Supply (7.2), Production (7.3),
Strategic Rail Movement (7.4), Movement (7.5), Defender Reaction (7.6), Combat (7.7),
Blitz (7.8), Final Supply (7.9) and Armoured Exploitation (7.10); after both halves the
Victory Phase (7.11, 5.1). A phase waits on a player only while that player has a
decision to take in it.

Rulebook line numbers (``L123``) refer to ``shared/rules/003_19684674ce068529.txt``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine.core.events import ORDER, Event, private
from engine.core.orders import Order
from engine.games.bia import (
    air,
    blitz,
    combat,
    fleet,
    fuel,
    ledger,
    movement,
    ports,
    production,
    recon,
    reserve,
    sea,
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
    Activate,
    Attack,
    Blitz,
    Cancel,
    Disband,
    Done,
    Fight,
    Fly,
    Fuel,
    Hit,
    Hold,
    Move,
    Rail,
    React,
    Rebuild,
    Recon,
    Release,
    Repair,
    Reserve,
    Retreat,
    Sail,
    Ship,
    Standing,
    Stay,
    Take,
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
    if s.phase == "srm":  # a crossing from home takes the nation's SRM (L1121-1124)
        s.srm_used = sorted({ctx.board.block(i).power for i in s.moved})
    elif s.phase == "reaction":  # a reserve that reacted is spent (AR 16.0; RULINGS B98)
        reserve.spend_reactions(ctx)
    s.moved = []
    if s.phase == "production":
        ledger.store(ctx)
        production.close_phase(ctx)  # the others read the arrivals (7.3.5; RULINGS B100)
        s.air_due = []
    elif s.phase == "blitz":
        reserve.end_reaction(ctx)  # the enemy's reaction reserves, to its Blitz (RULINGS B98)
        air.rebase_all(ctx)  # 7.8.1 (L1880-1886)
        fuel.deactivate(ctx)  # AR 11.4 (L2158-2178, L2271-2278): the HQs and their fuel
        fleet.deactivate(ctx)  # the Navy HQs likewise (17.0 L2544; RULINGS B87)
    i = PHASES.index(s.phase)
    if i + 1 < len(PHASES):
        s.phase = PHASES[i + 1]
        if s.phase == "production":
            production.open_phase(ctx)
        elif s.phase == "combat":
            combat.reveal_battles(ctx)
        elif s.phase == "srm":
            s.leader_ap = {}  # the Supreme Leaders' AP come back each turn (RULINGS B60)
        elif s.phase == "movement":
            s.shipped = {}  # one Sea Transport per power per turn (RULINGS B57)
        elif s.phase == "blitz":
            s.blitzed = {}
        elif s.phase == "exploitation":
            movement.start_exploitation(ctx)
        return
    fuel.deactivate(ctx)  # the HQs activated again to exploit (AR 11.4, L2161-2163)
    s.battles, s.barred, s.attacked, s.entered_from, s.blitzed = [], [], {}, {}, {}
    s.reserve = []  # Reserve Mode by Motorization ends with the exploitation (AR 16.0)
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
            if fleet.is_naval(ctx.board, s) and fleet.convoy_step(ctx):
                return  # a side adds ships to the convoy boxes (17.0, L2558-2563)
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
    always does; the others only while an order is possible. Defender Reaction waits on
    the non-phasing side only when its standing order asks it (7.6; RULINGS B46)."""
    s = ctx.state
    if s.phase == "movement":
        return True
    if fleet.is_naval(ctx.board, s):  # only fleets, which move in Movement (17.0), and
        return s.phase == "srm" and bool(fleet.activate_orders(ctx))  # Navy HQs (B87)
    if s.phase == "reaction":
        asks = combat.standing(s, enemy(s.player), "react") == "ask"
        if not asks or not s.battles:
            return False  # a reaction reinforces battles (7.6; AR Appendix, RULINGS B94)
        if reserve.reaction_orders(ctx):  # armour in Reserve Mode (AR Appendix)
            return True
        could = air.react_orders(ctx, fuelled_only=False)  # fuelled or not (AR 11.10)
        if any(not movement.out_of_fuel(ctx.board, s, s.blocks[o.block]) for o in could):
            return True
        return bool(could) and bool(fuel.fuel_orders(ctx))  # an HQ may yet fuel one
    if s.phase == "production":
        return (bool(spending.orders(ctx)) or bool(air.arrival_orders(ctx))
                or bool(production.choice_orders(ctx)))  # fmt: skip
    if s.phase == "srm":
        return bool(srm.rail_orders(ctx)) or bool(fuel.activate_orders(ctx))
    if s.phase == "combat":
        return combat.advance(ctx, auto_start=True)
    if s.phase == "blitz":  # blitz battles are fought when ordered (L1871-1874)
        if blitz.reaction_waits(ctx):  # armour in Reserve Mode reacts first (RULINGS B97)
            return True
        return combat.advance(ctx, auto_start=False) or bool(blitz.blitz_orders(ctx))
    if s.phase == "exploitation":  # or an armoured HQ's Reaction reserve (AR 16.0)
        moves = any(movement.destinations(ctx, b) for b in s.on_map(s.player))
        return moves or bool(reserve.reserve_orders(ctx))
    return False


# -- applying an order --------------------------------------------------------------------


def dispatch(ctx: Ctx, role: str, order: Order) -> None:
    """Apply one order the prompt admits (check_turn ran before)."""
    s = ctx.state
    if isinstance(order, Standing):
        if order.topic == "naval" and not fleet.is_naval(ctx.board, s):
            raise refuse("BIA 17.0", "The standing order 'naval' serves the naval scenarios "
                         "(BIA7-BIA10) only; this game has no sea battles.")  # fmt: skip
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
        waiting = {"hits": "hit", "retreat": "retreat", "aim": "aim"}.get(order.topic)
        if f and f["wait"] == f"{waiting}:{role}":
            if order.value == STANDING[order.topic][0]:
                if order.topic == "retreat":
                    combat.end_retreats(ctx)
                else:
                    f["wait"] = None
        settle(ctx)
        return
    if s.blitz_reaction is not None and not isinstance(order, Done):
        blitz.apply_reaction(ctx, order)  # armour in Reserve Mode, never air (7.8; B97)
        _keep_order_private(ctx, role, order, order.block, " ".join(order.path))  # type: ignore[attr-defined]
        settle(ctx)
        return
    moving = _BLOCK_TO.get(type(order))
    purchase = _PURCHASES.get(type(order))
    if moving is not None:
        moving(ctx, order)
        rest = order.to  # type: ignore[attr-defined]
        if isinstance(order, Rail):
            rest += srm.shown_payer(ctx, order)  # who paid is read by all (B60, B80)
        _keep_order_private(ctx, role, order, order.block, rest)  # type: ignore[attr-defined]
    elif purchase is not None:
        purchase(ctx, order)
        ctx.events.insert(0, private(ORDER, order.text(), (role,)))  # purchases are private
    elif isinstance(order, Move):
        movement.apply_move(ctx, order)
        by = [order.by] if order.by else []  # a Supreme Leader's AP is read by all (B60, B81)
        _keep_order_private(ctx, role, order, order.block, " ".join([*order.path, *by]))
    elif isinstance(order, Reserve):
        reserve.apply_reserve(ctx, order)  # the token and who paid are read by all (B95)
        ctx.events.insert(0, private(ORDER, order.text(), (role,), reserve.shown(ctx, order)))
    elif isinstance(order, Recon):
        recon.apply_recon(ctx, order)
        ctx.events.insert(0, private(ORDER, order.text(), (role,), f"recon {order.to}"))
    elif isinstance(order, Fight):
        if s.fight or order.hex not in s.battles:
            raise refuse("BIA 7.7", f"There is no battle to fight at {order.hex}.",
                         f"Battles to fight: {', '.join(s.battles) or 'none'}.")  # fmt: skip
        if s.phase == "blitz":
            blitz.fight(ctx, order.hex)  # after the enemy's reaction, if any (RULINGS B97)
        else:
            combat.start(ctx, order.hex)
    elif isinstance(order, Activate) and not fleet.is_naval(ctx.board, s):
        fuel.apply_activate(ctx, order)  # an HQ on the map (AR 11.3; the HQ turns face up)
        b = s.blocks.get(order.block) or s.by_token(order.block.upper())
        ctx.events.insert(0, private(ORDER, order.text(), (role,), f"activate {b.token}"))
    elif isinstance(order, Fuel):
        fuel.apply_fuel(ctx, order)  # the others never read which unit (RULINGS B75)
        ctx.events.insert(0, private(ORDER, order.text(), (role,), fuel.shown(ctx, order)))
    elif isinstance(order, Activate) and fleet.is_naval(ctx.board, s):
        fleet.apply_activate(ctx, role, order.block)  # a Navy HQ (17.0; RULINGS B87)
        ctx.events.insert(0, private(ORDER, order.text(), (role,), fleet.shown(ctx, order)))
    elif isinstance(order, (Cancel, Take)):  # the naval TECH discard (RULINGS B105)
        fleet.apply_discard(ctx, role, isinstance(order, Cancel))
    elif isinstance(order, Hit) and fleet.is_naval(ctx.board, s):
        fleet.apply_hit(ctx, role, order.block)  # where a sea battle's hit falls (B85)
        ctx.events.insert(0, private(ORDER, order.text(), (role,), fleet.shown(ctx, order)))
    elif isinstance(order, Hit):
        tied = combat.tied(ctx.board, s)
        b = _named(ctx, order.block, tied)
        aiming = bool(s.fight and (s.fight["wait"] or "").startswith("aim:"))
        if b is None and aiming:
            raise refuse("BIA 12.1", "Your aimed hit must fall on one of the strongest enemy blocks in the battle.",
                         f"Those are: {', '.join(combat.name(ctx.board, x) for x in tied)}.")  # fmt: skip
        if b is None:
            raise refuse("BIA 7.7.9", "The next hit must fall on one of your strongest blocks in the battle.",
                         f"Those are: {', '.join(combat.name(ctx.board, x) for x in tied)}.")  # fmt: skip
        if aiming:  # every reader sees the token; the block is face up in its battle
            ctx.events.insert(0, private(ORDER, order.text(), (role,), f"hit {b.token}"))
        combat.take_hit(ctx, b)
        s.fight["wait"] = None
    elif isinstance(order, Retreat):
        ways = combat.retreats(ctx, role)
        b = _named(ctx, order.block, [x for x, _ in ways])
        if b is None or (b.id, order.to) not in {(x.id, n) for x, n in ways}:
            raise refuse("BIA 7.7.11", f"{order.block} may not retreat to {order.to}: a ground block of "
                         "yours retreats after the ground step one hex to a safe hex (friendly, a friendly "
                         "city, or on a supply line), never into enemy ZOC, enemy units or another "
                         "battle; an air unit to a supplied airbase of yours in its range.")  # fmt: skip
        combat.do_retreat(ctx, b, order.to)
    elif isinstance(order, Stay):
        combat.end_retreats(ctx)
    elif isinstance(order, Done) and s.blitz_reaction is not None:
        ctx.events.append(Event("done", f"{SIDE_NAME[role]} ends its reaction to the blitz "
                                f"battle at {ctx.where(s.blitz_reaction)}."))  # fmt: skip
        blitz.begin(ctx)
    elif isinstance(order, Done):
        if s.phase == "blitz" and s.battles:
            raise refuse("BIA 7.8", f"Fight the blitz battles first: {', '.join(s.battles)}.")
        ctx.events.append(Event("done", f"{SIDE_NAME[role]} ends {PHASE_NAMES[s.phase]}."))
        if fleet.waiting_side(s) is not None:
            fleet.end_step(ctx)  # done adding ships to the convoy boxes (17.0)
        else:
            next_phase(ctx)
    settle(ctx)


def _named(ctx: Ctx, name: str, among: list[BlockState]) -> BlockState | None:
    b = ctx.state.blocks.get(name) or ctx.state.by_token(name.upper())
    return b if b is not None and b in among else None


#: the orders that take one block to one place, each with the rule applying it: the others
#: read them with the block's token (:func:`_keep_order_private`)
_BLOCK_TO: dict[type[Order], Callable[[Ctx, Any], None]] = {
    Sail: fleet.apply_sail,
    Ship: sea.apply_ship,
    Fly: air.apply_fly,
    Attack: air.apply_attack,
    React: air.apply_react,
    Rail: srm.apply_rail,
    Blitz: blitz.apply_blitz,
}
#: the Production Phase's purchases and choices, whose orders only their giver reads (a
#: reinforcement held back is never seen, RULINGS B100)
_PURCHASES: dict[type[Order], Callable[[Ctx, Any], None]] = {
    Repair: spending.apply_repair,
    Rebuild: spending.apply_rebuild,
    Disband: spending.apply_disband,
    Hold: production.apply_hold,
    Release: production.apply_release,
}


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
    again. Back in supply: the barrel goes. In siege supply (AR 10.1, L1959-1971, option
    ``advanced``: in a besieged port or own capital, ``ports.in_siege_supply``) and above
    its last step: it loses a step and stays. Still out: it surrenders and leaves the map
    (4.5) and gives the enemy PP (4.5, L714-723: ``ledger.surrender_gain``), except static
    infantry, which stays (4.4.1, L703-706), and a block with a
    0-step edge, which drops to it and stays (L738-740, L1833-1835). Then every block
    turned face up by a battle or a recon stands up again (L2416-2417)."""
    s, board, side = ctx.state, ctx.board, ctx.state.player
    marked = [b for b in s.on_map(side) if b.oos]
    if marked:
        still = set(supply.out_of_supply(board, s, side))
        siege = ports.in_siege_supply(board, s, side, sorted(still))
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
            elif b.id in siege and b.steps > 1:
                b.steps -= 1
                ctx.events.append(
                    private(
                        "supply",
                        f"Final supply: {ctx.name(b)} is besieged at {ctx.where(b.at)} and loses a "
                        "step instead of surrendering (siege supply, AR 10.1).",
                        (side,),
                        f"Final supply: {b.token} is besieged at {ctx.where(b.at)} and loses a step "
                        "instead of surrendering (siege supply, AR 10.1).",
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
    s.reconned = []  # a recon serves the battles of the turn it was made in (12.0)
    s.recon_failed = {}  # and the markers of the attempts that failed go with it (B83)


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
    if fleet.is_naval(ctx.board, s):
        fleet.victory(ctx)
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
                ledger.take_control(ctx, h.id, enemy(side))
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
