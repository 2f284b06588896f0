"""Land combat, steps 5 and 6: press or cease, and conclude (Step 5, L829-839; Step 6,
L849-865), with the Operation Torch landings that press on by themselves (L1034, L1052),
and ``settle``, which takes every answer that is the only one.
"""

from __future__ import annotations

from math import ceil

from engine.games.aa_na.combat_move import is_scout
from engine.games.aa_na.conclude import occupy
from engine.games.aa_na.context import Ctx, chart, refuse
from engine.games.aa_na.land_combat import (
    _pool,
    _source,
    _take,
    fight,
    order_options,
    supply_sources,
    withdraw,
)
from engine.games.aa_na.orders import Advance, Cease, Fight, Press, Withdraw
from engine.games.aa_na.state import Unit

R_PRESS = "North Africa: Combat Step 5, Press or Cease the Attack (L829-839)"
R_ADVANCE = "North Africa: Combat Step 6, Conclude Combat (L853)"


def step5(ctx: Ctx) -> None:
    """Step 5: the battle ends when one side has no units left; scout cars leave after
    the first round (Hit and Run, L839, L1167); otherwise the attacker presses or ceases."""
    s = ctx.state
    b = s.battle
    attackers = _pool(ctx, False)
    if not b["defenders"]:
        conclude(ctx, won=True)
        return
    if not attackers:
        conclude(ctx, won=False)
        return
    scouts = [u for u in attackers if is_scout(u)]
    if scouts:
        for ids in b["sources"].values():
            ids[:] = [i for i in ids if i not in {u.id for u in scouts}]
        ctx.log("battle", f"{len(scouts)} scout car(s) break off after the round (Hit and Run).")
        if not _pool(ctx, False):
            conclude(ctx, won=False)
            return
    b["step"] = "press"


def press_cost(ctx: Ctx, keep: list[Unit]) -> dict[str, int]:
    b = ctx.state.battle
    cost: dict[str, int] = {}
    for src in b["sources"]:
        n = sum(1 for u in keep if _source(b, u.id) == src and not is_scout(u) and chart()[u.type].kind == "land")
        if n:
            cost[src] = ceil(n / 5)
    return cost


def press(ctx: Ctx, order: Press) -> None:
    """Press: pay 1 supply token per 5 units (or fraction) that go on attacking from each
    source, from the source or a friendly or neutral territory next to it; the rest
    retreat and take no further part (L835-837)."""
    b = ctx.state.battle
    attackers = _pool(ctx, False)
    leave = [u for u in attackers if u.id in order.ids]
    if len(leave) != len(set(order.ids)):
        raise refuse(R_PRESS, "Name units that are attacking in this battle.")
    for word, n in order.units.items():
        fit = [u for u in attackers if u.type.split(".", 1)[1] == word and u not in leave]
        if len(fit) < n:
            raise refuse(R_PRESS, f"{len(fit)} attacking {word.replace('_', ' ')}, not {n}.")
        leave += fit[:n]
    keep = [u for u in attackers if u not in leave]
    if not keep:
        raise refuse(R_PRESS, "Pressing needs at least one attacking unit; 'cease' ends the attack.")
    side = b["attacker_side"]
    plan: list[str] = []
    budget = dict(ctx.state.supply)
    for src, n in press_cost(ctx, keep).items():
        places = [t for t in supply_sources(ctx, src, side) if t != b["target"]]
        got = []
        for t in places:
            while budget.get(t, 0) > 0 and len(got) < n:
                budget[t] -= 1
                got.append(t)
        if len(got) < n:
            raise refuse(R_PRESS, f"Units attacking from {ctx.name(src)} need {n} supply token(s) to press; only "
                         f"{len(got)} are within reach. Withdraw some of them ('press UNITS' names those that leave).")
        plan += got
    _take(ctx, plan, len(plan))
    keep_ids = {u.id for u in keep}
    for ids in b["sources"].values():
        ids[:] = [i for i in ids if i in keep_ids]
    b["round"] += 1
    b["step"] = "orders"
    ctx.log("battle", f"The attacker presses on in {ctx.name(b['target'])} with {len(keep)} unit(s), spending "
            f"{len(plan)} supply" + (f"; {len(leave)} unit(s) withdraw." if leave else "."))


def torch_press(ctx: Ctx) -> None:
    """The Torch landings press on with every unit until one side is gone (L1034, L1052),
    paying as usual (L835) from the supply landed with them (L1026-1028). A landing force
    that cannot pay has no territory to withdraw to and is lost, as defenders with nowhere
    to retreat are (L821; RULINGS: A36)."""
    s = ctx.state
    b = s.battle
    target = b["target"]
    attackers = _pool(ctx, False)
    n = ceil(sum(1 for u in attackers if not is_scout(u) and chart()[u.type].kind == "land") / 5)
    if s.supply.get(target, 0) >= n:
        _take(ctx, [target] * n, n)
        b["round"] += 1
        b["step"] = "orders"
        ctx.log("battle", f"The landing force presses on in {ctx.name(target)}, spending {n} supply (L1034).")
        return
    for u in attackers:
        s.units.remove(u)
    for ids in b["sources"].values():
        ids.clear()
    ctx.log("battle", f"The landing force in {ctx.name(target)} cannot pay to press on and has nowhere to go: "
            f"{len(attackers)} unit(s) lost (RULINGS: A36).")
    conclude(ctx, won=False)


def cease(ctx: Ctx, order: Cease) -> None:
    ctx.log("battle", f"The attacker ceases the attack on {ctx.name(ctx.state.battle['target'])}.")
    conclude(ctx, won=False)


def conclude(ctx: Ctx, won: bool) -> None:
    """Step 6: with every defender gone and attacking land units other than scout cars
    left, they move in until all have or the stacking limit is reached (L853); when not
    all fit, the attacker names those that go. A Torch landing force already in the
    territory takes it where it stands and leaves only the rest of the limit to attackers
    from outside (L1026-1028, L487-489). The battle and its arrows end (L859)."""
    s = ctx.state
    b = s.battle
    target = b["target"]
    in_place = _in_place(ctx)
    movers = advancers(ctx)
    _disband_over_limit(ctx, target)  # surrendered Vichy beside Allied units standing there
    room = max(ctx.limit(target) - ctx.stacked(target, b["attacker_side"]), 0)
    if won and movers and len(movers) > room:
        b["step"] = "advance"
        b["room"] = room
        return
    _end(ctx)
    if won and (movers or in_place):
        occupy(ctx, target, in_place + movers)
    else:
        ctx.log("battle", f"{ctx.name(target)} stays in the defender's hands.")


def advancers(ctx: Ctx) -> list[Unit]:
    """Attacking land units other than scout cars outside the territory: those that may
    move in (L853), within the room the stacking limit leaves."""
    target = ctx.state.battle["target"]
    return [u for u in _pool(ctx, False) if not is_scout(u) and chart()[u.type].kind == "land" and u.at != target]


def _in_place(ctx: Ctx) -> list[Unit]:
    """Attacking land units already standing in the territory: a Torch landing force
    (L1026-1028), which takes it without moving and already counts against its limit."""
    target = ctx.state.battle["target"]
    return [u for u in _pool(ctx, False) if chart()[u.type].kind == "land" and u.at == target]


def _disband_over_limit(ctx: Ctx, target: str) -> None:
    """Free French who surrender where Allied units (a landing force) already fill the
    territory disband beyond its stacking limit, whoever attacked: the limit is absolute
    and no rule moves them (L487-489, L1083; RULINGS: Torch)."""
    s = ctx.state
    side = s.battle["attacker_side"]
    extra = ctx.stacked(target, side) - ctx.limit(target)
    french = [u for u in ctx.standing(target) if u.power == "free_french"]
    gone = french[-extra:] if extra > 0 else []
    for u in gone:
        s.units.remove(u)
    if gone:
        ctx.log("battle", f"{len(gone)} Free French unit(s) in {ctx.name(target)} disband: Allied units already fill "
                "the stacking limit (RULINGS: Torch).")


def advance(ctx: Ctx, order: Advance) -> None:
    b = ctx.state.battle
    pool = advancers(ctx)
    chosen = [u for u in pool if u.id in order.ids]
    if len(chosen) != len(set(order.ids)):
        raise refuse(R_ADVANCE, "Name attacking land units other than scout cars.")
    for word, n in order.units.items():
        fit = [u for u in pool if u.type.split(".", 1)[1] == word and u not in chosen]
        if len(fit) < n:
            raise refuse(R_ADVANCE, f"{len(fit)} attacking {word.replace('_', ' ')} may advance, not {n}.")
        chosen += fit[:n]
    if len(chosen) != b["room"]:
        raise refuse(R_ADVANCE, f"Exactly {b['room']} unit(s) move in: as many as the stacking limit allows (L853).")
    target = b["target"]
    in_place = _in_place(ctx)
    _end(ctx)
    occupy(ctx, target, in_place + chosen)


def _end(ctx: Ctx) -> None:
    s = ctx.state
    target = s.battle["target"]
    s.attacks = [a for a in s.attacks if a["target"] != target]
    s.battle = None


def settle(ctx: Ctx) -> bool:
    """Take every answer that is the only one: the defender's step-1 answer, and the Torch
    landing force's pressing on; True while the battle waits on a player."""
    while True:
        b = ctx.state.battle
        if b is None:
            return False
        before = (b["step"], b["round"])
        if b["step"] == "press" and b.get("torch"):
            torch_press(ctx)
        elif b["step"] == "orders":
            opts = order_options(ctx)
            if opts["fight"] and not opts["withdraw"] and not opts["stay"]:
                fight(ctx, Fight())
            elif not opts["fight"] and (opts["withdraw"] != opts["stay"]):
                ctx.log("battle", "No supply token is within reach of the defenders: they must retreat (L765)"
                        + (", but for the exempt units." if opts["stay"] else "."))
                withdraw(ctx, Withdraw(stay=opts["stay"]))
        b = ctx.state.battle
        if b is None or (b["step"], b["round"]) == before:
            return b is not None
