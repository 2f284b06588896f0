"""Phase 6: Deploy Reinforcements and Assign Convoy Escorts (L909-946).

Built: deploying sea units, land and air units and supply from the Reinforcements Zone,
redeploying from the staging territory, the UK and Axis exceptions, the round-7 rules
(L1036-1038, L1056-1058) and the US losing what it cannot deploy (L928); sea mines going
off on what was deployed (L934) are in ``sea_mines``. Moving air units up to two spaces as
escorts (L944) is ``air.escort_fly``.
"""

from __future__ import annotations

from engine.games.aa_na import optional, pack, sea_mines
from engine.games.aa_na.context import Ctx, chart, chart_order, listing, refuse
from engine.games.aa_na.convoys import route_open
from engine.games.aa_na.orders import Deploy
from engine.games.aa_na.requisition import check_stock, resolve_type, supply_holdings
from engine.games.aa_na.state import SIDE

R_DEPLOY = "North Africa: Phase 6, Deploying Land and Air Units and Supply Tokens (L917-936)"
R_SEA = "North Africa: Phase 6, Deploying Sea Units (L913-915)"
R_ROUND7 = "North Africa: Special Rules for the Scenarios, round 7 (L1038, L1056-1058)"


def staging(power: str) -> list[str]:
    """Italy for both Axis powers, Gibraltar for the UK, none for the US (L503)."""
    return [s.id for s in pack.load_board().pack.spaces if power in s.staging_for]


def open_convoys(ctx: Ctx, power: str) -> list[str]:
    """The convoy sea zones this power may deploy to now (L515, L919-925, L1056)."""
    s = ctx.state
    out = []
    for c in pack.load_board().pack.convoys:
        if not route_open(ctx, c, power):
            continue
        if power == "uk" and c.id in ("indian_ocean_csz", "suez_canal_csz"):
            continue  # only through the Atlantic (L925)
        if s.round == 7 and s.scenario == "ot" and power == "ita" and c.id != "tripoli_csz":
            continue  # L1056
        if (s.round == 7 and power == "us" and ctx.controller("casablanca") == "us" and c.id != "casablanca_csz"
                and not optional.on(s, "us_landing_choice")):
            continue  # L1038, L1058; the optional Choice of US Landing Zones lifts it (L1415-1417)
        out.append(c.id)
    return out


def places(ctx: Ctx, tid: str, source: str | None) -> list[str]:
    """Where one reinforcement of row ``tid`` (or ``supply``) may go."""
    power = ctx.power
    if tid != "supply" and chart()[tid].kind == "sea":
        return [] if source else list(pack.load_board().pack.sea_deploy_zones.get(power, []))
    out = [] if source else staging(power)
    for z in open_convoys(ctx, power):
        if z == "malta_csz" and tid != "supply" and chart()[tid].kind == "land" and chart()[tid].type != "aaa":
            continue  # L923
        out.append(z)
    if SIDE[power] == "axis" and tid != "supply":
        row = chart()[tid]
        if row.kind == "air" or row.type == "aaa" or (power == "ger" and row.type == "anti_tank_gun"):
            out += list(pack.load_board().pack.axis_island_deploy)  # L936
    return out + ([] if source else optional.extra_places(ctx, tid))


def deploy(ctx: Ctx, order: Deploy) -> None:
    s = ctx.state
    power = ctx.power
    reserve = s.reserves.setdefault(power, {})
    source = ctx.find(order.source, R_DEPLOY) if order.source else None
    if source and source not in staging(power):
        raise refuse(R_DEPLOY, f"Units are redeployed only from {ctx.who(power)}'s staging territory "
                     f"({listing(ctx.name(t) for t in staging(power))}) (L921).")
    to = ctx.find(order.to, R_DEPLOY)
    wanted = {("supply" if w == "supply" else resolve_type(ctx, w)): n for w, n in order.units.items()}
    for tid, n in wanted.items():
        name = "supply" if tid == "supply" else chart()[tid].name
        have = (s.supply.get(source, 0) if tid == "supply" else
                sum(1 for u in ctx.units_at(source) if u.type == tid and u.power == power)) if source else reserve.get(tid, 0)
        if have < n:
            where = ctx.name(source) if source else "the Reinforcements Zone"
            raise refuse(R_DEPLOY, f"{where} holds {have} {name} of {ctx.who(power)}, not {n}.")
        ok = places(ctx, tid, source)
        if source and to in pack.load_board().pack.axis_island_deploy and tid != "supply":
            row = chart()[tid]
            if row.kind == "air" or row.type == "aaa" or (power == "ger" and row.type == "anti_tank_gun"):
                ok = [*ok, to]
        if to not in ok:
            rule = R_SEA if tid != "supply" and chart()[tid].kind == "sea" else R_DEPLOY
            raise refuse(rule, f"{name} may not be deployed to {ctx.name(to)}.",
                         f"It may go to: {listing(ctx.name(t) for t in ok)}.")
    if to == optional.ANZAC_ZONE and ctx.power == "uk":
        if set(wanted) != {"uk.infantry"} or wanted["uk.infantry"] > 1:
            raise refuse("North Africa: Optional Rules, ANZAC Reinforcements (L1419-1421)",
                         "One UK infantry a turn goes straight to the Indian Ocean convoy zone, nothing else.")
        s.bought["anzac"] = True
    sp = ctx.board.spaces[to]
    if sp.kind == "territory":
        add = sum(n for t, n in wanted.items() if t != "supply" and chart()[t].combat)
        if ctx.stacked(to, SIDE[power]) + add > ctx.limit(to):
            raise refuse("North Africa: Stacking Limits (L487-491, L503)",
                         f"{ctx.name(to)} takes at most {ctx.limit(to)} combat land and air units of a side.")
    if wanted.get("supply"):
        _check_supply_stock(ctx, source, to, wanted["supply"])
    arrived = []
    for tid, n in wanted.items():
        if tid == "supply":
            if source:
                s.supply[source] -= n
            else:
                reserve["supply"] -= n
            if sp.kind == "sea":
                s.convoy_supply.setdefault(to, {})[power] = s.convoy_supply.get(to, {}).get(power, 0) + n
                sea_mines.record(ctx, to, [], n)
            else:
                s.supply[to] = s.supply.get(to, 0) + n
            continue
        if source:
            for u in [u for u in ctx.units_at(source) if u.type == tid and u.power == power][:n]:
                u.at = to
                arrived.append(u)
        else:
            reserve[tid] -= n
            arrived += [s.new_unit(tid, power, to) for _ in range(n)]
    if sp.kind == "sea":
        sea_mines.record(ctx, to, arrived, 0)
    for k in [k for k, v in reserve.items() if not v]:
        del reserve[k]
    for k in [k for k, v in s.supply.items() if not v]:
        del s.supply[k]
    what = ", ".join(f"{n} {'supply' if t == 'supply' else chart()[t].name}" for t, n in wanted.items())
    frm = f" from {ctx.name(source)}" if source else ""
    ctx.log("deploy", f"{ctx.who(power)} deploys {what}{frm} to {ctx.name(to)}.")


def _check_supply_stock(ctx: Ctx, source: str | None, to: str, n: int) -> None:
    """Tokens are not exchanged while deployed (L696): splitting a holding may need
    1-tokens the stock no longer has (L105-106, L459-461); deploying all of a holding to
    one place never does (RULINGS: supply token stock)."""
    s = ctx.state
    before = supply_holdings(s)
    after = list(before)
    have = s.supply.get(source, 0) if source else s.reserves.get(ctx.power, {}).get("supply", 0)
    after.remove(have)
    after.append(have - n)
    sp = ctx.board.spaces[to]
    there = (s.convoy_supply.get(to, {}).get(ctx.power, 0) if sp.kind == "sea"
             else s.supply.get(to, 0))
    if there:
        after.remove(there)
    after.append(there + n)
    check_stock(ctx, before, [v for v in after if v], f"Deploying {n} of the {have} supply",
                f"Tokens are not exchanged while deployed (L696): deploy all {have} to one place.")


def finish(ctx: Ctx) -> None:
    """Every reinforcement must be deployed (L911). What has nowhere to go is lost; for
    the US with no open convoy this is the rule of L928 (RULINGS: Phase 6)."""
    s = ctx.state
    reserve = s.reserves.setdefault(ctx.power, {})
    def room(t: str, at: str) -> bool:
        sp = ctx.board.spaces[at]
        combat = t != "supply" and chart()[t].combat
        return sp.kind == "sea" or not combat or ctx.stacked(at, SIDE[ctx.power]) < ctx.limit(at)

    stuck = [t for t, n in chart_order(reserve) if n and any(room(t, at) for at in places(ctx, t, None))]
    if stuck:
        raise refuse(R_DEPLOY, "Every reinforcement must be deployed before the turn ends (L911).",
                     f"Still in the Reinforcements Zone: {listing(f'{reserve[t]} {t}' for t in stuck)}.")
    if reserve:
        lost = ", ".join(f"{n} {t}" for t, n in chart_order(reserve))
        ctx.log("deploy", f"{ctx.who(ctx.power)} has nowhere to deploy {lost}: destroyed (L928).")
        reserve.clear()
