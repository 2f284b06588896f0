"""Phase 7, Combat (7.7, L1437-1818), and the battles of the Blitz (7.8).

Before any battle each side reveals every unit in every battle hex (L1446-1447; 3.23,
L645-656); they stay face up until the Final Supply Check (L2416-2417), where
:func:`engine.games.bia.turn.final_supply_phase` stands them up again.

A battle is fought in rounds (L1465-1469, L1635-1637): in the first round only,
Air-to-Air in as many air rounds as it takes, each followed by the air units' withdrawals
(7.7.1); then AA fire (7.7.2) and Air-to-Ground (7.7.3), both in :mod:`air_combat`; the
artillery step (the attacker's artillery, then the defender's, 7.7.4) and the ground step
(the defender's combat units, then the attacker's, 7.7.5); then the defender and the
attacker may retreat (7.7.11); under the advanced rules, before the first round's
retreats, an unsupplied attacker whose Desperate Attack left enemy ground units in the hex
surrenders (AR 10.2, :func:`surrender_desperate`). Rounds go on until one side has no
ground unit left in the hex (RULINGS B16); an air strike with no attacking ground unit
lasts one round (B42). Air units of the side that loses a battle fly off to an airbase at
once (7.7.11.2); the others stay over the hex until the end of the Blitz Phase (7.8.1,
:mod:`air`).

This module runs the rounds; who fires and how well is :mod:`firepower`, where the hits
fall :mod:`hits`, and the retreats :mod:`retreat`. Their names are reached here too.

The battle being fought is ``state.fight``: its hex, attacker, round, step, the shield
hits carried (7.7.8.1) and the decision it waits on. Every decision of the side taking
hits or retreating has a standing order (``state.standing``), so a battle waits on a
player only when that player asked to be asked.

Rulebook line numbers (``L123``) refer to ``shared/rules/003_19684674ce068529.txt``.
"""

from __future__ import annotations

from engine.core.events import Event
from engine.games.bia import air, air_combat, charge, ledger, special
from engine.games.bia.board import SIDE_NAME, enemy
from engine.games.bia.context import Ctx

# the battle's parts, also reached here by the other phases and the tests
from engine.games.bia.firepower import (  # noqa: F401
    BEST_HIT,
    STEPS,
    can_fight,
    fire_plan,
    fires_in_artillery_step,
    ground,
    hit_number,
    locality,
    modifiers,
    name,
    standing,
    value,
)
from engine.games.bia.hits import (  # noqa: F401
    aim_choice,
    aimed,
    eliminate,
    engine_choice,
    lose_step,
    strongest,
    take_hit,
    tied,
)
from engine.games.bia.pack import neighbours  # noqa: F401
from engine.games.bia.retreat import CITIES, do_retreat, end_retreats, retreat_hexes, retreats  # noqa: F401


def reveal_battles(ctx: Ctx, hexes: list[str] | None = None) -> None:
    """Turn face up every block in the battle hexes and tell both sides what is there
    (L1446-1447): in the Combat Phase every battle hex at once, in the Blitz the hex of
    each blitz battle as it is fought."""
    s, board = ctx.state, ctx.board
    for h in s.battles if hexes is None else hexes:
        blocks = sorted(s.at_hex(h), key=lambda b: (b.side != s.player, b.token))
        if not blocks:
            continue
        parts = []
        for side in (s.player, enemy(s.player)):
            shown = ", ".join(
                f"{board.block(b.id).name} ({b.token}, {value(board, b)})"
                for b in blocks
                if b.side == side
            )
            parts.append(f"{SIDE_NAME[side]}: {shown or 'nothing'}")
        for b in blocks:
            b.revealed = True
        ctx.events.append(
            Event(
                "reveal",
                f"Battle at {ctx.where(h)}, blocks revealed. {'; '.join(parts)}.",
                {"hex": h, "tokens": [b.token for b in blocks]},
                reveals=True,
            )
        )


def start(ctx: Ctx, h: str) -> None:
    """Open the battle at ``h``: its blocks face up, the attackers noted for the Blitz
    (7.8, L1820-1822). The air units based in the hex join the battle (they rebase after
    it, 7.8.1); the defender's bombers among them start on the ground (7.7.1, L1536-1539)."""
    s, board = ctx.state, ctx.board
    if any(not b.revealed for b in s.at_hex(h)):
        reveal_battles(ctx, [h])
    s.fight = {"hex": h, "attacker": s.player, "round": 1, "step": 0, "pending": None,
               "queue": [], "shield": {}, "wait": None, "a2a": 0, "grounded": []}  # fmt: skip
    for b in ground(board, s, h, s.player) + air_combat.air_in(board, s, h, s.player):
        s.attacked[b.id] = h  # who may blitz or follow from this battle (7.8)
    for b in s.at_hex(h):
        if air.is_air(board, b) and b.id not in s.aloft:
            s.aloft[b.id] = h
            if b.side != s.player and board.block(b.id).kind == "bomber":
                s.fight["grounded"].append(b.id)
    ctx.events.append(Event("battle", f"The battle at {ctx.where(h)} begins.", {"hex": h}))
    _lone(ctx)


def advance(ctx: Ctx, auto_start: bool) -> bool:
    """Fight on until a player must decide; True when one must. With ``auto_start`` a
    single battle left is begun without asking which (7.7: the phasing side's choice
    only matters among several)."""
    s = ctx.state
    while True:
        if s.fight is None:
            if not s.battles or not auto_start or len(s.battles) > 1:
                return bool(s.battles)
            start(ctx, s.battles[0])
            continue
        if s.fight["wait"]:
            return True
        _step(ctx)


def _step(ctx: Ctx) -> None:
    """One step of the battle: hits still to give, a volley, a retreat, or a new round."""
    s, board, f = ctx.state, ctx.board, ctx.state.fight
    assert f is not None
    h, att = f["hex"], f["attacker"]
    if f["pending"]:
        _give_hits(ctx)
        return
    if _over(ctx):
        return
    if f["round"] == 1 and f["step"] == STEPS.index("retreat_defender") and "desperate" not in f:
        f["desperate"] = True  # checked once, as the first round's ground combat ends
        if surrender_desperate(ctx):
            return
    if f["step"] >= len(STEPS):
        f["round"] += 1
        f["step"] = 0
        ctx.events.append(Event("round", f"Battle at {ctx.where(h)}: round {f['round']}."))
        return
    step = STEPS[f["step"]]
    side = att if step.endswith("attacker") else enemy(att)
    if step.startswith(("retreat", "withdraw")):
        if standing(s, side, "retreat") == "ask" and retreats(ctx, side):
            f["wait"] = f"retreat:{side}"
        else:
            end_retreats(ctx)
        return
    if step == "a2a" and not (f["round"] == 1 and air_combat.a2a_happens(board, s, h)):
        f["step"] = STEPS.index("aa")
        return
    f["step"] += 1
    if step == "charge_attacker":  # Panzers Attack! and Cavalry Charge! (AR 13.0, 14.0)
        f["charged"] = [x.id for x in charge.chargers(board, s, h)]
    if step in ("a2a", "aa", "air_to_ground"):
        {"a2a": air_combat.air_to_air, "aa": air_combat.anti_aircraft,
         "air_to_ground": air_combat.air_to_ground}[step](ctx)  # fmt: skip
        return
    units = ground(board, s, h, side)
    if not ground(board, s, h, enemy(side)):
        return  # nothing on the ground to fire at (an air strike, RULINGS B42)
    if step.startswith("art"):
        if not can_fight(board, s, h, side):
            return  # artillery never fires alone (3.12, L517-520)
        firers = [
            x
            for x in units
            if fires_in_artillery_step(board.block(x.id), board.pack.tables.unit_kinds)
        ]
    else:
        firers = [x for x in units if board.block(x.id).role == "gcu"]
        charged = f.get("charged", [])
        if step == "charge_attacker":
            firers = [x for x in firers if x.id in charged]
        elif step == "ground_attacker":
            firers = [x for x in firers if x.id not in charged]
    plan = fire_plan(board, s, firers, h, side == att)
    if not plan:
        return
    hits, said = 0, []
    for b, dice, need in plan:
        rolls = [ctx.dice.roll(6, f"{b.token} fires at {h}") for _ in range(dice)]
        hits += sum(r >= need for r in rolls)
        said.append(f"{name(board, b)} {dice} dice at {need}+: {' '.join(map(str, rolls))}")
    kind = {"art": "Artillery", "cha": "Charge (AR 13.0-14.0)"}.get(step[:3], "Ground fire")
    ctx.events.append(
        Event(
            "fire",
            f"{kind} at {ctx.where(h)}, {SIDE_NAME[side]}: {'; '.join(said)}. {hits} hit(s).",
            {"hex": h, "side": side, "hits": hits},
        )  # fmt: skip
    )
    if step.startswith("art"):
        for b, _, _ in plan:  # ammunition spent after the roll (7.7.4, L1590-1593)
            lose_step(ctx, b, "fires and spends a step of ammunition")
    if hits:
        first = f.get("charged", []) if step == "ground_defender" else []
        f["pending"] = {"side": enemy(side), "hits": hits, "air": False, "first": first}
        if step.startswith("art"):  # who fired, for the targeting of AR 12.1
            f["pending"]["firers"] = [b.id for b, _, _ in plan]


def _give_hits(ctx: Ctx) -> None:
    """Give the pending hits one by one (7.7.8-7.7.10), asking the owner on a tie when
    its standing order says so; then the next side's hits of a simultaneous volley."""
    s, board, f = ctx.state, ctx.board, ctx.state.fight
    pend = f["pending"]
    while pend["hits"] > 0:
        among = tied(board, s)
        if not among:
            ctx.events.append(
                Event(
                    "hits",
                    f"{pend['hits']} hit(s) at {ctx.where(f['hex'])} find no target and are lost.",
                )
            )
            break
        if len(among) > 1 and aimed(board, s):  # the firer picks (AR 12.1; RULINGS B61)
            if standing(s, f["attacker"], "aim") == "ask":
                f["wait"] = f"aim:{f['attacker']}"
                return
            take_hit(ctx, aim_choice(board, s, among, f["hex"]))
            continue
        if len(among) > 1 and standing(s, pend["side"], "hits") == "ask":
            f["wait"] = f"hit:{pend['side']}"
            return
        take_hit(ctx, engine_choice(board, s, among, f["hex"]))
    queue = f.get("queue") or []
    f["pending"], f["queue"] = (queue[0], queue[1:]) if queue else (None, [])
    _lone(ctx)


def surrender_desperate(ctx: Ctx) -> bool:
    """AR 10.2 (L1980-1983, L2010-2013, L2258-2262), option ``advanced``: the attacker's
    unsupplied ground units in the battle made a Desperate Attack (the only way they
    entered, :func:`engine.games.bia.movement.desperate`); when the first round of ground
    combat is over and enemy ground units still stand in the hex (air units do not
    count), each surrenders at once, before any retreat: it is eliminated, 0-step units
    too, and the enemy gains the PP of 4.5 (L714-723; RULINGS B82). True when one did."""
    s, board, f = ctx.state, ctx.board, ctx.state.fight
    h, att = f["hex"], f["attacker"]
    if not s.options.get("advanced") or not ground(board, s, h, enemy(att)):
        return False
    gave = [b for b in ground(board, s, h, att) if b.oos]
    for b in gave:
        block = board.block(b.id)
        eliminate(ctx, b, "surrenders after a failed Desperate Attack (AR 10.2)")
        ledger.grant(
            ctx, enemy(att), ledger.surrender_gain(board, block),
            f"{b.token} surrendered after a failed Desperate Attack (10.2, 4.5)",
        )  # fmt: skip
    return bool(gave)


def _lone(ctx: Ctx) -> None:
    """A side that can no longer fire in the ground step loses its blocks in the hex
    while the enemy still can (0-strength blocks, 4.5 L742-744 and 7.7.10 L1763-1766;
    support units never fight alone, 3.11 L510-515; RULINGS B20)."""
    s, board, f = ctx.state, ctx.board, ctx.state.fight
    h = f["hex"]
    for side in (enemy(f["attacker"]), f["attacker"]):
        if can_fight(board, s, h, side) or not can_fight(board, s, h, enemy(side)):
            continue
        for b in ground(board, s, h, side):
            eliminate(ctx, b, "is left without a combat unit facing enemy ones and is eliminated")


def _over(ctx: Ctx) -> bool:
    """End the battle when a side has no ground unit left in the hex (RULINGS B16); when
    neither side can fire any more, the attacker's blocks there are lost (B20). An
    attacker with air units only fights one round (B42). The losing side's air units fly
    off to an airbase now (7.7.11.2); the holder's stay until the end of the Blitz."""
    s, board, f = ctx.state, ctx.board, ctx.state.fight
    h, att = f["hex"], f["attacker"]
    if ground(board, s, h, att) and ground(board, s, h, enemy(att)):
        if can_fight(board, s, h, att) or can_fight(board, s, h, enemy(att)):
            return False
        for b in ground(board, s, h, att):
            eliminate(ctx, b, "cannot fight on and is eliminated")
    foes = any(x.side != att for x in s.at_hex(h))
    strike = not ground(board, s, h, att) and bool(air_combat.air_in(board, s, h, att))
    if strike and foes and f["round"] == 1:
        return False
    winner = att if ground(board, s, h, att) else enemy(att)
    loser = enemy(winner)
    if winner == att and s.control.get(h) != att:
        ledger.take_control(ctx, h, att)
        place = locality(board, s, h)
        after = special.when_captured(board, s, h, place, att) or (
            board.pack.tables.localities[place].when_captured if place else None
        )
        if after:
            s.localities[h] = None if after == "destroyed" else after
            ctx.events.append(Event("locality", f"{ctx.where(h)}: the {place} falls and is now "
                                    f"{'destroyed' if after == 'destroyed' else 'a ' + after}."))  # fmt: skip
    ctx.events.append(Event("battle_end", f"The battle at {ctx.where(h)} is over: the "
                            f"{SIDE_NAME[winner]} side holds the hex.", {"hex": h, "winner": winner}))  # fmt: skip
    for b in air_combat.air_in(board, s, h, loser):
        air.fly_off(ctx, b)
    s.battles = [x for x in s.battles if x != h]
    s.fight = None
    return True
