"""Phase 7, Collect Income; the end of a turn and of a round; victory (Revised: Phase 7;
Order of Play; How the War Is Won; Check for Victory)."""

from __future__ import annotations

from engine.games.aa_revised.context import Ctx
from engine.games.aa_revised.state import POWER_NAME, SIDE, SIDE_NAME, TURN_ORDER


def collect(ctx: Ctx) -> None:
    """A power collects its national production, unless an enemy holds its capital
    (Revised: Phase 7; Capturing and Liberating Capitals)."""
    s = ctx.state
    power = s.power
    from engine.games.aa_revised.advantages import income_adjustment

    if not ctx.capital_held(power):
        ctx.log(
            "income", f"{POWER_NAME[power]}'s capital is in enemy hands: it collects no income."
        )
        return
    amount = ctx.production(power)
    cut = income_adjustment(ctx, power)
    got = max(0, amount - cut)
    s.ipcs[power] = s.ipcs.get(power, 0) + got
    text = f"{POWER_NAME[power]} collects {got} IPCs"
    if cut:
        text += f" ({amount} less {cut} to U-Boat Interdiction)"
    ctx.log("income", text + f" and now has {s.ipcs[power]}.", power=power, amount=got)


def victory_cities(ctx: Ctx) -> dict[str, int]:
    counts = {"allies": 0, "axis": 0}
    for t in ctx.geo.victory_city:
        counts[SIDE[ctx.state.control[t]]] += 1
    return counts


def end_turn(ctx: Ctx) -> None:
    """Pass play to the next power; after the United States, check for victory (Revised:
    Order of Play; Check for Victory)."""
    s = ctx.state
    for u in s.units.values():
        u.new_turn()
    last = s.turn == len(TURN_ORDER) - 1
    if last and check_victory(ctx):
        return
    if last:
        s.round += 1
        s.turn = 0
    else:
        s.turn += 1
    start_turn(ctx)


def start_turn(ctx: Ctx) -> None:
    s = ctx.state
    s.phase = "research"
    s.start_control = dict(s.control)
    s.researched = False
    s.pending = {}
    s.placed = {}
    s.fresh = []
    s.carrier_ics = {}
    s.captured = []
    s.contested = []
    s.battles = []
    s.raids = []
    s.rocket_from = []
    s.rocket_at = []
    s.stranded = []
    s.recent = []
    power = s.power
    note = "" if ctx.capital_held(power) else " (its capital is in enemy hands)"
    ctx.log(
        "turn", f"Round {s.round}: {POWER_NAME[power]}'s turn{note}.", round=s.round, power=power
    )
    from engine.games.aa_revised.advantages import on_turn_start

    on_turn_start(ctx)


def check_victory(ctx: Ctx) -> bool:
    """At the end of a round, a side holding the agreed number of victory cities wins;
    past the round limit (RULINGS R-40) the side holding more wins on points."""
    s = ctx.state
    from engine.games.aa_revised import pack

    need = {v.id: v.cities for v in pack.load_tables().victory_levels}[ctx.opts.victory_level]
    counts = victory_cities(ctx)
    for side in ("axis", "allies"):
        if counts[side] >= need:
            _end(ctx, side, ctx.opts.victory_level,
                 f"The {SIDE_NAME[side]} hold {counts[side]} victory cities at the end of round "
                 f"{s.round}: a {ctx.opts.victory_level} victory.")  # fmt: skip
            return True
    ctx.log("victory", f"End of round {s.round}: the Allies hold {counts['allies']} victory "
            f"cities, the Axis {counts['axis']}; {need} are needed.")  # fmt: skip
    limit = ctx.opts.max_rounds
    if limit is not None and s.round >= limit:
        _on_points(ctx, limit, counts)
        return True
    return False


def _on_points(ctx: Ctx, limit: int, counts: dict[str, int]) -> None:
    """RULINGS R-40: at the round limit the side with more victory cities wins on points;
    with the cities shared equally, the side with the greater national production; with
    that equal too, a draw."""
    income = {"allies": 0, "axis": 0}
    for p in TURN_ORDER:
        income[SIDE[p]] += ctx.production(p)
    head = f"The round limit ({limit}) is reached"
    if counts["allies"] != counts["axis"]:
        side = "allies" if counts["allies"] > counts["axis"] else "axis"
        other = "axis" if side == "allies" else "allies"
        _end(ctx, side, "points", f"{head}; the {SIDE_NAME[side]} hold more victory cities "
             f"({counts[side]} to {counts[other]}) and win on points.")  # fmt: skip
    elif income["allies"] != income["axis"]:
        side = "allies" if income["allies"] > income["axis"] else "axis"
        other = "axis" if side == "allies" else "allies"
        _end(ctx, side, "points", f"{head} with the victory cities shared "
             f"{counts['allies']}-{counts['axis']}; the {SIDE_NAME[side]} have the greater "
             f"national production ({income[side]} to {income[other]}) and win on points.")  # fmt: skip
    else:
        _end(ctx, None, "draw", f"{head} with victory cities and production equal: a draw.")


def _end(ctx: Ctx, side: str | None, level: str, text: str) -> None:
    s = ctx.state
    s.over = True
    s.phase = "over"
    s.winner = side
    s.level = level
    if side and ctx.opts.individual_winner:
        gains = {
            p: ctx.production(p) - s.start_production.get(p, 0)
            for p in TURN_ORDER
            if SIDE[p] == side
        }
        best = max(gains.values())
        top = [POWER_NAME[p] for p, v in gains.items() if v == best]
        text += (
            f" Individual winner: {' and '.join(top)} (national production "
            f"{'+' if best >= 0 else ''}{best})."
        )
    s.result_text = text
    ctx.log("victory", text, winner=side, level=level)
