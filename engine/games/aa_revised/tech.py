"""Phase 1, Develop Weapons (Revised): one development a turn, research dice at 5 IPCs
each, success when any die shows the development's number; the effect starts at once
and lasts the game."""

from __future__ import annotations

from engine.games.aa_revised import pack
from engine.games.aa_revised.context import Ctx, listing, refuse
from engine.games.aa_revised.orders import Research
from engine.games.aa_revised.state import POWER_NAME

R_TECH = "Revised: Phase 1, Develop Weapons"


def tech_table() -> dict[str, pack.Tech]:
    return {t.id: t for t in pack.load_tables().techs}


def die_cost() -> int:
    return pack.load_tables().research_die_cost


def open_techs(ctx: Ctx, power: str) -> list[str]:
    owned = set(ctx.state.techs.get(power, ()))
    return [t for t in tech_table() if t not in owned]


def research(ctx: Ctx, order: Research) -> None:
    s = ctx.state
    power = s.power
    table = tech_table()
    cost = die_cost()
    if s.researched:
        raise refuse(R_TECH, "You have already researched this turn; one development a turn.",
                     "Say 'done' to go on to the purchase.")  # fmt: skip
    if order.tech not in table:
        raise refuse(R_TECH, f"{order.tech!r} is not a weapons development.",
                     f"Choose one of: {listing(table)}.")  # fmt: skip
    tech = table[order.tech]
    if order.tech in s.techs.get(power, ()):
        raise refuse(R_TECH, f"{POWER_NAME[power]} already has {tech.name}.",
                     f"Research one of: {listing(table[t].name for t in open_techs(ctx, power))}.")  # fmt: skip
    if order.dice < 1:
        raise refuse(R_TECH, "Research needs at least one die.")
    price = cost * order.dice
    have = s.ipcs.get(power, 0)
    if price > have:
        raise refuse(
            R_TECH,
            f"{order.dice} research dice cost {price} IPCs; {POWER_NAME[power]} has {have}.",
            f"Buy at most {have // cost} dice.",
        )
    s.ipcs[power] = have - price
    s.researched = True
    rolls = [ctx.dice.roll(6, f"research die for {tech.name}") for _ in range(order.dice)]
    success = tech.die in rolls
    ctx.log(
        "research",
        f"{POWER_NAME[power]} spends {price} IPCs on {order.dice} research "
        f"di{'e' if order.dice == 1 else 'ce'} for {tech.name} (needs a {tech.die}): rolls "
        f"{', '.join(map(str, rolls))}: "
        + (f"success! {tech.effect}" if success else "no breakthrough."),
        power=power,
        tech=tech.id,
        rolls=rolls,
        success=success,
    )
    if success:
        s.techs.setdefault(power, []).append(tech.id)
        s.techs[power].sort()


def can_research(ctx: Ctx) -> bool:
    s = ctx.state
    power = s.power
    return (
        not s.researched
        and ctx.capital_held(power)
        and s.ipcs.get(power, 0) >= die_cost()
        and bool(open_techs(ctx, power))
    )
