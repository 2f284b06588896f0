"""Economic attacks: strategic bombing raids and rocket strikes (Revised: Phase 4,
Special Combats: Strategic Bombing Raids, Rocket Strikes)."""

from __future__ import annotations

from engine.games.aa_revised import air
from engine.games.aa_revised.context import Ctx, listing, refuse
from engine.games.aa_revised.orders import Rocket
from engine.games.aa_revised.state import POWER_NAME, SIDE, uid_key

R_ROCKET = "Revised: Rocket Strikes"
ROCKET_RANGE = 3


def resolve_raid(ctx: Ctx, territory: str) -> None:
    """Strategic bombing raid (Revised: Strategic Bombing Raids; FAQ: the cap is per
    bomber). One antiaircraft gun fires at each raider; each survivor rolls one die (two
    with Heavy Bombers; a Luftwaffe dive-bomber half a die, rounded up), capped at the
    territory's income value; the controller surrenders the total, or all it has
    (RULINGS Q-01)."""
    s = ctx.state
    g = ctx.geo
    power = s.power
    raiders = sorted(
        (u for u in ctx.at(territory) if u.owner in ctx.commanded() and u.raid),
        key=lambda u: uid_key(u.id),
    )
    s.raids.remove(territory)
    if not raiders:
        return
    ctx.log("raid", f"{POWER_NAME[power]} makes a strategic bombing raid on {g.name(territory)} "
            f"with {len(raiders)} aircraft.", space=territory)  # fmt: skip
    survivors = air.antiaircraft_fire(ctx, territory, raiders, "at the raid")
    cap = g.ipc[territory]
    victim = s.control[territory]
    total = 0
    for u in survivors:
        u.fought = True
        heavy = "heavy_bombers" in ctx.techs(u.owner)  # each power its own (Phase 1)
        if u.type == "bomber":
            rolls = [
                ctx.dice.roll(6, f"bombing damage by {u.id}") for _ in range(2 if heavy else 1)
            ]
            damage = min(sum(rolls), cap)
        else:  # Luftwaffe Dive-Bombers (Appendix 3)
            r = ctx.dice.roll(6, f"dive-bombing damage by {u.id}")
            rolls = [r]
            damage = min((r + 1) // 2, cap)
        total += damage
        ctx.log("raid", f"{ctx.info(u.type).name} {u.id} rolls {', '.join(map(str, rolls))}: "
                f"{damage} IPC damage (at most {cap}, the territory's value).",
                unit=u.id, rolls=rolls, damage=damage)  # fmt: skip
    paid = min(total, s.ipcs.get(victim, 0))
    s.ipcs[victim] = s.ipcs.get(victim, 0) - paid
    if survivors:
        ctx.log(
            "raid",
            f"The raid on {g.name(territory)} costs {POWER_NAME[victim]} {paid} IPCs"
            + (f" (all it had; the damage was {total})" if paid < total else "")
            + f"; it has {s.ipcs[victim]} left.",
            victim=victim,
            paid=paid,
        )
    for u in raiders:
        if u.id in s.units:
            s.units[u.id].fought = True
    ctx.mark("battle", power, [territory], "raid")


def _launchers(ctx: Ctx, at: str | None = None) -> list:
    """Antiaircraft guns the phasing player may fire as rockets: its own power's, and
    in a Joint Strike the U.K.'s, each with its own power's Rockets (Revised: Phase 1)."""
    return sorted(
        (u for u in (ctx.at(at) if at else ctx.state.units.values())
         if u.owner in ctx.commanded() and u.type == "aa_gun" and not u.pinned
         and u.aboard is None and u.at in ctx.geo.land and "rockets" in ctx.techs(u.owner)),
        key=lambda u: uid_key(u.id),
    )  # fmt: skip


def rocket_options(ctx: Ctx) -> list[tuple[str, str]]:
    """(launch territory, target) pairs open to the phasing power now (RULINGS Q-15)."""
    s = ctx.state
    power = s.power
    out = []
    launch = sorted({u.at for u in _launchers(ctx)})
    for origin in launch:
        if origin in s.rocket_from:
            continue
        dists = ctx.geo.air_distances(origin)
        for t in s.ics:
            if t in s.rocket_at or ctx.friendly_territory(t, power):
                continue
            if dists.get(t, 99) <= ROCKET_RANGE:
                out.append((origin, t))
    return out


def rocket(ctx: Ctx, order: Rocket) -> None:
    """Rocket strike: one antiaircraft gun per territory, once a turn, on an enemy
    industrial complex within 3 spaces that no other rocket hit this turn; one die of
    damage capped at the territory's value; no defence (Revised: Rocket Strikes; FAQ:
    Strategic Bombing and Rockets)."""
    s = ctx.state
    g = ctx.geo
    power = s.power
    origin, target = order.origin, order.target
    if not any("rockets" in ctx.techs(p) for p in ctx.commanded()):
        raise refuse(R_ROCKET, f"{POWER_NAME[power]} has not developed Rockets.",
                     "Research Rockets (die 2) in the develop weapons phase.")  # fmt: skip
    options = rocket_options(ctx)
    if (origin, target) not in options:
        why = _rocket_problem(ctx, origin, target)
        legal = listing(f"rocket {o} {t}" for o, t in options)
        raise refuse(R_ROCKET, why, f"Possible strikes: {legal}.")
    s.rocket_from.append(origin)
    s.rocket_at.append(target)
    gun = _launchers(ctx, origin)[0]
    gun.pinned = True
    victim = s.control[target]
    r = ctx.dice.roll(6, f"rocket from {origin} at {target}")
    damage = min(r, g.ipc[target])
    paid = min(damage, s.ipcs.get(victim, 0))
    s.ipcs[victim] -= paid
    ctx.log(
        "rocket",
        f"{POWER_NAME[power]} fires a rocket from {g.name(origin)} at {g.name(target)}: rolls "
        f"{r}, {damage} IPC damage; {POWER_NAME[victim]} surrenders {paid} and has "
        f"{s.ipcs[victim]} left.",
        origin=origin,
        target=target,
        roll=r,
        paid=paid,
    )
    ctx.mark("rocket", power, [origin, target], "rocket")


def _rocket_problem(ctx: Ctx, origin: str, target: str) -> str:
    s = ctx.state
    g = ctx.geo
    power = s.power
    if origin in s.rocket_from:
        return f"A rocket was already fired from {g.name(origin)} this turn (one per territory)."
    guns = [u for u in ctx.at(origin) if u.owner in ctx.commanded() and u.type == "aa_gun"]
    if not guns:
        return f"{POWER_NAME[power]} has no antiaircraft gun in {g.name(origin)}."
    if all(u.pinned for u in guns):
        return f"The gun in {g.name(origin)} was captured this turn and cannot fire a rocket (RULINGS Q-16)."
    if target not in s.ics or ctx.friendly_territory(target, power):
        return f"{g.name(target)} holds no enemy industrial complex."
    if target in s.rocket_at:
        return f"{g.name(target)} was already hit by a rocket this turn."
    return f"{g.name(target)} is more than {ROCKET_RANGE} spaces from {g.name(origin)}."


def side_name(power: str) -> str:
    return SIDE[power]
