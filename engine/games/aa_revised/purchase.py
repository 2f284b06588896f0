"""Phase 2, Purchase Units (Revised): any unit of the table, as many as the power can pay
for; they wait in the mobilization zone until Phase 6."""

from __future__ import annotations

from engine.games.aa_revised.context import Ctx, count_text, listing, refuse
from engine.games.aa_revised.geography import UNIT_ORDER, units
from engine.games.aa_revised.orders import Buy
from engine.games.aa_revised.state import POWER_NAME

R_BUY = "Revised: Phase 2, Purchase Units"


def cheapest() -> int:
    return min(u.cost for u in units().values())


def log_nothing_to_buy(ctx: Ctx) -> None:
    """Say why the purchase phase ended by itself (issue 9: a phase that ends itself says
    so): a power without its capital buys nothing (Revised: Capturing and Liberating
    Capitals, rulebook L528); one with fewer IPCs than the cheapest unit cannot."""
    s = ctx.state
    power = s.power
    name = POWER_NAME[power]
    if not ctx.capital_held(power):
        why = f"{name} does not hold its capital, so it buys no units"
        rule = "Revised: Capturing and Liberating Capitals"
    else:
        why = (
            f"{name} has {s.ipcs.get(power, 0)} IPCs, less than the cheapest unit "
            f"({cheapest()} IPCs)"
        )
        rule = R_BUY
    ctx.log("phase", f"{why}: the purchase phase ends by itself ({rule}).", power=power)


def buy(ctx: Ctx, order: Buy) -> None:
    s = ctx.state
    power = s.power
    info = units()
    total = 0
    for t, n in order.units.items():
        if t not in info:
            raise refuse(R_BUY, f"There is no unit type {t!r}.", f"Buy: {listing(UNIT_ORDER)}.")
        if n < 1:
            raise refuse(R_BUY, "Counts of units start at 1.")
        total += info[t].cost * n
    have = s.ipcs.get(power, 0)
    if total > have:
        raise refuse(
            R_BUY,
            f"{count_text(order.units).capitalize()} cost {total} IPCs; {POWER_NAME[power]} has {have}.",
            f"Spend at most {have} IPCs (infantry cost 3).",
        )
    s.ipcs[power] = have - total
    for t, n in order.units.items():
        s.pending[t] = s.pending.get(t, 0) + n
    ctx.log(
        "buy",
        f"{POWER_NAME[power]} buys {count_text(order.units)} for {total} IPCs "
        f"({s.ipcs[power]} left).",
        power=power,
        units=dict(order.units),
        cost=total,
    )
    from engine.games.aa_revised.mobilize import capacity_left

    placeable = sum(n for t, n in s.pending.items() if t != "industrial_complex")
    room = capacity_left(ctx)
    if placeable > room:
        ctx.log(
            "warning",
            f"Warning: {POWER_NAME[power]}'s industrial complexes can mobilize {room} units this "
            f"turn; {placeable} are bought, and units not placed in Phase 6 are lost "
            "(FAQ: Mobilize Units).",
        )
