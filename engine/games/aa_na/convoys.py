"""Phase 1: Advance Convoys (Order of Play, L549-555; Convoy Sea Zones, L515).

Only the exception paragraph of this phase survives in the text (L551-555); the rest is
ruled in RULINGS.md ("Phase 1") from the convoy rules of L515, L930-932 and L1332.
"""

from __future__ import annotations

from engine.games.aa_na import pack
from engine.games.aa_na.context import Ctx, chart
from engine.games.aa_na.state import SIDE

R_CONVOY = "North Africa: Phase 1, Advance Convoys (L549-555)"


def route_open(ctx: Ctx, convoy: pack.Convoy, power: str) -> bool:
    """A permanent emblem keeps the route always open to its power; two ghosted emblems
    open it while either depicted power controls the port (L515)."""
    if power not in convoy.emblems:
        return False
    if convoy.permanent:
        return True
    owner = ctx.controller(convoy.port) if convoy.port else None
    return owner is not None and owner in convoy.emblems and SIDE[owner] == SIDE[power]


def advance(ctx: Ctx) -> None:
    """Move the active power's convoy cargo one step: along the UK route (Atlantic ->
    Indian Ocean -> Suez Canal) or into the port; a closed route sends land units and
    supply back to the Reinforcements Zone (L551-553). Land units that would break the
    port's stacking limit go back to the Reinforcements Zone as well (RULINGS: Phase 1)."""
    s = ctx.state
    power = ctx.power
    reserve = s.reserves.setdefault(power, {})
    # what sits in each zone before anything moves: cargo advances one step a turn
    loads = []
    for convoy in pack.load_board().pack.convoys:
        cargo = [u for u in ctx.units_at(convoy.id) if u.power == power and ctx.kind(u) == "land"]
        supply = s.convoy_supply.get(convoy.id, {}).pop(power, 0)
        if cargo or supply:
            loads.append((convoy, cargo, supply))
    land_escorts(ctx)
    for convoy, cargo, supply in loads:
        if convoy.next:
            for u in cargo:
                u.at = convoy.next
            _move_supply(s, convoy.next, power, supply, into_convoy=True)
            ctx.log("convoy", f"{ctx.who(power)}'s convoy sails from {ctx.name(convoy.id)} to {ctx.name(convoy.next)}.")
            continue
        port = convoy.port
        if not route_open(ctx, convoy, power):
            for u in cargo:
                s.units.remove(u)
                reserve[u.type] = reserve.get(u.type, 0) + 1
            if supply:
                reserve["supply"] = reserve.get("supply", 0) + supply
            ctx.log(
                "convoy",
                f"The route to {ctx.name(port)} is closed: {ctx.who(power)}'s convoy returns "
                "to the Reinforcements Zone.",
            )
            continue
        room = ctx.limit(port) - ctx.stacked(port, SIDE[power])
        landed = back = 0
        for u in cargo:
            if chart()[u.type].combat and room <= 0:
                s.units.remove(u)
                reserve[u.type] = reserve.get(u.type, 0) + 1
                back += 1
                continue
            if chart()[u.type].combat:
                room -= 1
            u.at = port
            landed += 1
        _move_supply(s, port, power, supply, into_convoy=False)
        text = f"{ctx.who(power)}'s convoy arrives in {ctx.name(port)}: {landed} unit(s), {supply} supply."
        if back:
            text += f" {back} unit(s) find no room under the stacking limit and return to the Reinforcements Zone."
        ctx.log("convoy", text)


def _move_supply(s, to: str, power: str, amount: int, *, into_convoy: bool) -> None:
    """Put ``amount`` of supply, already taken off its zone, into the next zone on the
    power's marker (L930) or into the port territory."""
    if not amount:
        return
    if into_convoy:
        s.convoy_supply.setdefault(to, {})[power] = s.convoy_supply.get(to, {}).get(power, 0) + amount
    else:
        s.supply[to] = s.supply.get(to, 0) + amount


def land_escorts(ctx: Ctx) -> None:
    """Air units on convoy escort must land at the start of their power's next turn or be
    destroyed (L555, L946): each lands in the convoy's port if it may land there, otherwise
    in the nearest territory where it may, within its move (RULINGS: Phase 1)."""
    from engine.games.aa_na import air

    s = ctx.state
    zones = {c.id: c for c in pack.load_board().pack.convoys}
    for u in [u for u in s.units if u.power == ctx.power and u.at in zones and ctx.kind(u) == "air"]:
        mov = chart()[u.type].movement
        ok = air.landing_within(ctx, u.at, mov)
        reach = air.distances(ctx, u.at, mov)
        port = zones[u.at].port
        if not ok:
            s.units.remove(u)
            ctx.log("convoy", f"{u.id} ({chart()[u.type].name}) finds nowhere to land from {ctx.name(u.at)}: "
                    "destroyed (L555).")
            continue
        to = port if port in ok else min(ok, key=lambda t: (reach[t], t))
        ctx.log("convoy", f"{u.id} ({chart()[u.type].name}) lands in {ctx.name(to)} from {ctx.name(u.at)} (L555).")
        u.at = to
