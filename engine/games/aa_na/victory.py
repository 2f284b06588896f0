"""How the Campaign Is Won (L240-259): Instant Total Victory by eliminating every enemy
combat unit in the territories of North Africa (L250, L254) and the victory levels at the
end of round 14 (L250, L255-259). Capturing the enemy capital is in ``conclude.occupy``.
"""

from __future__ import annotations

from engine.games.aa_na import pack
from engine.games.aa_na.context import Ctx
from engine.games.aa_na.state import SIDE, SIDE_NAME

R_WIN = "North Africa: How the Campaign Is Won (L250-259)"
#: the regions of the African mainland (RULINGS: A45)
AFRICA = ("morocco", "algeria", "tunisia", "libya", "egypt")
LEVELS = ("minor", "major", "total")
OTHER = {"axis": "allies", "allies": "axis"}
ENEMY_ADJ = {"axis": "Allied", "allies": "Axis"}


def in_north_africa(ctx: Ctx, space: str) -> bool:
    sp = ctx.board.spaces.get(space)
    return sp is not None and sp.kind == "territory" and sp.region in AFRICA


def side_present(ctx: Ctx, side: str) -> bool:
    """Whether ``side`` has a combat unit in a territory of North Africa; Vichy units count
    for the Axis and Free French for the Allies (L273; RULINGS: A46)."""
    return any(
        SIDE[u.power] == side and ctx.is_combat(u) and in_north_africa(ctx, u.at) for u in ctx.state.units
    )


def presence(ctx: Ctx) -> dict[str, bool]:
    return {side: side_present(ctx, side) for side in ("axis", "allies")}


def check_elimination(ctx: Ctx, before: dict[str, bool]) -> None:
    """Instant Total Victory when an order eliminates the last combat unit of the other side
    in the territories of North Africa (L250, L254); ``before`` says who had units there
    before the order."""
    s = ctx.state
    if s.over:
        return
    for side in ("axis", "allies"):
        enemy = OTHER[side]
        if before[enemy] and not side_present(ctx, enemy) and side_present(ctx, side):
            _win(ctx, side, f"{_cap(SIDE_NAME[side])} have eliminated every {ENEMY_ADJ[side]} combat unit in "
                 "North Africa: Instant Total Victory (L250-254).")
            return


def reached(ctx: Ctx, side: str) -> str | None:
    """The highest level ``side`` reaches by control of territories (L255-257)."""
    best = None
    for lv in ctx.scenario().victory.levels:
        if lv.side != side or not lv.control:
            continue
        owned = [SIDE.get(ctx.controller(t) or "", None) == side for t in lv.control]
        if (any(owned) if lv.any else all(owned)) and (best is None or LEVELS.index(lv.level) > LEVELS.index(best)):
            best = lv.level
    return best


def land_rp(ctx: Ctx, side: str) -> int:
    """The draw's tie-break: the chart cost of the side's combat land units in territories;
    units with no cost count as the same type of their side's partner power (RULINGS: A47)."""
    total = 0
    for u in ctx.state.units:
        row = pack_row(u.type)
        if SIDE[u.power] != side or row.kind != "land" or not row.combat:
            continue
        if ctx.board.spaces[u.at].kind != "territory":
            continue
        total += row.cost or _stand_in(row)
    return total


def pack_row(tid: str) -> pack.UnitType:
    return {u.id: u for u in pack.load_units().units}[tid]


def _stand_in(row: pack.UnitType) -> int:
    """A cost for rows the charts leave blank: the Sherman is the US tank (L1353-1360)."""
    for u in pack.load_units().units:
        if u.power == "us" and u.type == row.type and u.cost:
            return u.cost
    return 0


def end_of_round_14(ctx: Ctx) -> None:
    """The victory levels at the end of round 14 (L250, L255-259): the higher level wins; a
    draw when neither side reaches one or both reach Minor (L259). With the option
    ``break_draws`` the RP of each side's land units in territories decides a draw."""
    s = ctx.state
    a, b = reached(ctx, "axis"), reached(ctx, "allies")
    rank = {None: -1, **{lv: i for i, lv in enumerate(LEVELS)}}
    if rank[a] > rank[b]:
        _win(ctx, "axis", f"Round 14 is over: {SIDE_NAME['axis']} win a {a.title()} Victory (L255-257).")
        return
    if rank[b] > rank[a]:
        _win(ctx, "allies", f"Round 14 is over: {SIDE_NAME['allies']} win a {b.title()} Victory (L255-257).")
        return
    why = "neither side reached a victory objective" if a is None else f"both sides reached a {a.title()} Victory"
    text = f"Round 14 is over and {why}: a draw (L259)."
    if s.options.get("break_draws"):
        ra, rb = land_rp(ctx, "axis"), land_rp(ctx, "allies")
        if ra != rb:
            side = "axis" if ra > rb else "allies"
            _win(ctx, side, text[:-1] + f", broken by the RP of land units in territories ({ra} to {rb}) in favour "
                 f"of {SIDE_NAME[side]} (L259).")
            return
    s.over = True
    s.winner = None
    s.result_text = text
    ctx.log("victory", text)


def _cap(text: str) -> str:
    return text[0].upper() + text[1:]


def _win(ctx: Ctx, side: str, text: str) -> None:
    s = ctx.state
    s.over = True
    s.winner = side
    s.result_text = text
    ctx.log("victory", text)
