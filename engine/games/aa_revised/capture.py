"""Taking territory: capture, liberation, capitals and their treasuries.

Revised: Step 8, Capture Territory; Liberating a Territory; Capturing and Liberating
Capitals; Capturing a Victory City. National production is never stored: it is the sum
of the income values of the territories a power controls, so moving a control marker is
all the bookkeeping the National Production Chart needs.
"""

from __future__ import annotations

from engine.games.aa_revised.context import Ctx
from engine.games.aa_revised.state import POWER_NAME, SIDE


def new_controller(ctx: Ctx, territory: str, power: str) -> str:
    """Who controls ``territory`` when ``power`` takes it.

    Taken from the enemy, it becomes ``power``'s; if it was originally a friendly power's,
    that power gets it back (liberation), unless that power's capital is in enemy hands,
    in which case the liberator holds it for now (Revised: Liberating a Territory). A
    capital always goes back to its own power (Capturing and Liberating Capitals)."""
    g = ctx.geo
    original = g.original.get(territory)
    if original is None or SIDE[original] != SIDE[power] or original == power:
        return power
    if g.capital_of.get(territory) == original:
        return original
    if ctx.capital_held(original):
        return original
    return power


def capture(ctx: Ctx, territory: str, power: str, blitz: bool = False) -> None:
    """``power`` takes ``territory`` (Revised: Step 8; Phase 3, Tanks and Blitzing)."""
    s = ctx.state
    g = ctx.geo
    old = s.control[territory]
    if SIDE[old] == SIDE[power]:
        return
    new = new_controller(ctx, territory, power)
    s.control[territory] = new
    if territory not in s.captured:
        s.captured.append(territory)
    ipc = g.ipc[territory]
    how = "blitzes through and captures" if blitz else "captures"
    if new != power:
        text = (
            f"{POWER_NAME[power]} liberates {g.name(territory)}: it returns to "
            f"{POWER_NAME[new]} with its {ipc} IPC income."
        )
    else:
        text = (
            f"{POWER_NAME[power]} {how} {g.name(territory)} from {POWER_NAME[old]}: "
            f"national production {POWER_NAME[power]} +{ipc}, {POWER_NAME[old]} -{ipc}."
        )
    city = g.victory_city.get(territory)
    if city:
        text += f" The victory city of {city} passes to the {SIDE[new].capitalize()}."
    ctx.log("capture", text, space=territory, power=new, previous=old)
    ctx.mark("capture", new, [territory], g.name(territory))
    for u in ctx.at(territory):
        if u.type == "aa_gun" and SIDE[u.owner] != SIDE[power]:
            u.owner = new
            u.pinned = True
    if territory in s.ics:
        ctx.log(
            "capture",
            f"The industrial complex in {g.name(territory)} now belongs to {POWER_NAME[new]}; "
            "it cannot be used before that power's next turn.",
            space=territory,
        )
    victim = g.capital_of.get(territory)
    if victim == old:
        plunder = s.ipcs.get(old, 0)
        s.ipcs[old] = 0
        s.ipcs[power] = s.ipcs.get(power, 0) + plunder
        ctx.log(
            "plunder",
            f"{POWER_NAME[power]} captures the capital of {POWER_NAME[old]} and takes its "
            f"{plunder} unspent IPCs. {POWER_NAME[old]} collects no income and buys nothing "
            "until its capital is liberated.",
            power=power,
            victim=old,
            ipcs=plunder,
        )
    if g.capital_of.get(territory) == new and new != power:
        _restore_originals(ctx, new)
    from engine.games.aa_revised.advantages import on_capture

    on_capture(ctx, territory, power, old, new)


def _restore_originals(ctx: Ctx, owner: str) -> None:
    """A liberated capital's power takes back its original territories held by friendly
    powers (RULINGS Q-13)."""
    s = ctx.state
    g = ctx.geo
    back = []
    for t, p in sorted(s.control.items()):
        if g.original.get(t) == owner and p != owner and SIDE[p] == SIDE[owner]:
            s.control[t] = owner
            back.append(g.name(t))
    if back:
        ctx.log(
            "liberation",
            f"With its capital free, {POWER_NAME[owner]} takes back {', '.join(back)}.",
            power=owner,
        )
