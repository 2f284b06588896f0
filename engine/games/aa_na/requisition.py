"""Phase 2: Requisition Reinforcements (L557-611)."""

from __future__ import annotations

from engine.games.aa_na import optional, pack
from engine.games.aa_na.context import Ctx, chart, listing, refuse
from engine.games.aa_na.orders import Buy, LandMine, SeaMine, Supply
from engine.games.aa_na.state import SIDE

R_REQ = "North Africa: Phase 2, Requisition Reinforcements (L559-567)"
R_MALTA = "North Africa: Phase 2, Malta (L563)"
R_IMMEDIATE = "North Africa: Phase 2, reinforcements deployed at once (L569-573)"
R_LIMITS = "North Africa: Component Limits (L565; Game Components, L96-177)"
R_LAND_MINE = "North Africa: Mine Token Deployment, Land Mine Tokens (L587)"
R_SEA_MINE = "North Africa: Mine Token Deployment, Sea Mine Tokens (L589)"
R_REPAIR = "North Africa: Phase 2, Battleship Repair (L577-579)"
R_US_AIR = "North Africa: Special Rules for the Scenarios, the US in round 7 (L1036, L1057)"


def begin(ctx: Ctx) -> None:
    """Work out the RP to spend: the RP of every territory the power controls plus its
    National Basic RP (L565). The UK first spends 1 supply from Malta to count Malta's
    15 RP (L563); it does so automatically whenever Malta holds a token (RULINGS: Malta)."""
    s = ctx.state
    power = ctx.power
    board = ctx.board
    total = next(p.national_basic_rp for p in pack.load_tables().powers if p.id == power)
    parts = [f"{total} national basic"]
    for sid, sp in board.spaces.items():
        if sp.kind != "territory" or not sp.rp or ctx.controller(sid) != power:
            continue
        if sid == "malta":
            if s.supply.get("malta", 0) >= 1:
                s.supply["malta"] -= 1
                ctx.log("malta", "The United Kingdom spends 1 supply token from Malta to count its 15 RP.")
            else:
                ctx.log("malta", "Malta holds no supply token: its 15 RP do not count this turn.")
                continue
        total += sp.rp
        parts.append(f"{sp.rp} {sp.name}")
    bid = optional.bid_rp(ctx)
    if bid:
        total += bid
        parts.append(f"{bid} from the bid (L1373)")
    s.rp = total
    s.bought = {"supply": 0, "land_mines": [], "sea_mines": [], "french": []}
    ctx.log("income", f"{ctx.who(power)} has {total} RP to spend ({' + '.join(parts)}).", rp=total)


def resolve_type(ctx: Ctx, word: str) -> str:
    """A word of a ``buy`` order as a row of the active power's chart."""
    power = ctx.power
    rows = chart()
    if word.startswith("fra."):
        if power != "us":
            raise refuse(R_IMMEDIATE, "Only the United States requisitions Free French units (L573, L1083).")
        return word
    tid = f"{power}.{word}"
    if tid not in rows:
        have = sorted(r.id.split(".", 1)[1] for r in rows.values() if r.power == power and r.cost)
        raise refuse(R_REQ, f"{ctx.who(power)} has no {word.replace('_', ' ')} on its reference chart.",
                     f"It can requisition: {listing(have)}.")
    return tid


def in_play(ctx: Ctx, type_id: str) -> int:
    s = ctx.state
    n = sum(1 for u in s.units if u.type == type_id)
    return n + sum(r.get(type_id, 0) for r in s.reserves.values())


def buy(ctx: Ctx, order: Buy) -> None:
    s = ctx.state
    power = ctx.power
    rows = chart()
    wanted = {resolve_type(ctx, w): n for w, n in order.units.items()}
    cost = 0
    for tid, n in wanted.items():
        row = rows[tid]
        if row.cost is None:
            raise refuse(R_REQ, f"The {row.name} cannot be requisitioned (L567: Shermans come only by Lend-Lease).")
        used, pieces = optional.check_unit(ctx, tid, n) if row.optional else (in_play(ctx, tid), row.pieces)
        if power == "us" and row.kind == "air" and s.round == 7:
            raise refuse(R_US_AIR, "The United States may not requisition air units in round 7.")
        aside = s.set_aside.get(tid, 0)
        if used + aside + n > pieces:
            raise refuse(R_LIMITS, f"Only {pieces} {row.name} pieces exist; {used} are in play"
                         + (f" and {aside} set aside (L1008)." if aside else "."))
        cost += row.cost * n
    if cost > s.rp:
        raise refuse(R_REQ, f"That costs {cost} RP; {ctx.who(power)} has {s.rp} RP left.")
    for tid, n in wanted.items():
        if tid.startswith("fra."):
            _free_french(ctx, tid, n)
    s.rp -= cost
    reserve = s.reserves.setdefault(power, {})
    placed = []
    for tid, n in wanted.items():
        row = rows[tid]
        for _ in range(n):
            if tid.startswith("fra."):
                s.new_unit(tid, "free_french", "oran")
            elif power == "ger" and row.type == "submarine":
                s.new_unit(tid, power, "sz1")
            else:
                reserve[tid] = reserve.get(tid, 0) + 1
        if tid.startswith("fra."):
            placed.append(f"{n} {row.name} in Oran")
        elif power == "ger" and row.type == "submarine":
            placed.append(f"{n} {row.name} in sea zone 1")
    text = f"{ctx.who(power)} requisitions " + ", ".join(f"{n} {rows[t].name}" for t, n in wanted.items())
    text += f" for {cost} RP ({s.rp} left)."
    if placed:
        text += f" Deployed at once: {', '.join(placed)}."
    ctx.log("buy", text, units=wanted, cost=cost)


def _free_french(ctx: Ctx, tid: str, n: int) -> None:
    """Free French units: an Allied power must control Oran, at most one of each type a
    turn, and Oran must be under its stacking limit (L573, L1083)."""
    s = ctx.state
    owner = ctx.controller("oran")
    if owner is None or SIDE[owner] != "allies":
        raise refuse(R_IMMEDIATE, "Free French units are requisitioned only while the Allies control Oran (L1083).")
    if n > 1 or tid in s.bought["french"]:
        raise refuse(R_IMMEDIATE, f"At most 1 Free French {chart()[tid].name} may be requisitioned each turn (L1083).")
    if ctx.stacked("oran", "allies") >= ctx.limit("oran"):
        raise refuse(R_IMMEDIATE, "Oran has reached its stacking limit: no Free French unit can be deployed there (L573).")
    s.bought["french"].append(tid)


R_STOCK = "North Africa: Component Limits, supply tokens (L105-106, L459-461, L696)"


def supply_holdings(s) -> list[int]:  # noqa: ANN001
    """The value of each separate holding of supply tokens in play: each territory, each
    power's stack in each convoy sea zone, each power's Reinforcements Zone and what
    escaped a convoy battle (RULINGS: supply token stock)."""
    out = [v for v in s.supply.values() if v]
    out += [v for stacks in s.convoy_supply.values() for v in stacks.values() if v]
    out += [r.get("supply", 0) for r in s.reserves.values() if r.get("supply", 0)]
    if s.battle is not None:
        out += [v for v in s.battle.get("escaped_supply", {}).values() if v]
    return out


def ones_needed(holdings: list[int]) -> int:
    """The fewest "1 Supply" tokens that can make up these holdings, each exactly, with
    the 15 "5 Supply" tokens (L105-106) used wherever a holding has 5 or more: each holding
    needs its value modulo 5 in ones, and every five-token short of the 15 needed costs five
    ones more. The holdings can be made up by the stock exactly when this is at most 40."""
    comps = pack.load_tables().components
    fives = sum(v // 5 for v in holdings)
    return sum(v % 5 for v in holdings) + 5 * max(0, fives - comps["supply_5"])


def check_stock(ctx: Ctx, before: list[int], after: list[int], what: str, legal: str = "") -> None:
    """Supply tokens are limited to the 40 ones and 15 fives supplied (L105-106, L459-461),
    and they are not exchanged in the Reinforcements Zone or while being deployed (L696):
    refuse ``what`` when the stock could not make up every holding after it, unless the
    shortfall was already there before it (RULINGS: supply token stock)."""
    ones = pack.load_tables().components["supply_1"]
    need = ones_needed(after)
    if need > ones and need > ones_needed(before):
        raise refuse(R_STOCK, f"{what} would take more supply tokens than the game has "
                     f"(40 of 1 and 15 of 5, L105-106, L459-461).", legal)


def stock_amounts(s, power: str, most: int) -> list[int]:  # noqa: ANN001
    """The amounts of supply, 1 to ``most``, that ``power`` could requisition now with the
    stock the holdings leave (L105-106, L459-461): the tokens bought join its holding in
    the Reinforcements Zone, where they are not exchanged (L696)."""
    before = supply_holdings(s)
    mine = s.reserves.get(power, {}).get("supply", 0)
    rest = list(before)
    if mine:
        rest.remove(mine)
    ones = pack.load_tables().components["supply_1"]
    base = ones_needed(before)
    return [n for n in range(1, most + 1) if ones_needed([*rest, mine + n]) <= max(ones, base)]


def buy_supply(ctx: Ctx, order: Supply) -> None:
    """At most 5 supply tokens a turn, 10 for the United States, at 1 RP each (L565),
    and no more than the stock of tokens left (L105-106, L459-461; :func:`check_stock`)."""
    s = ctx.state
    power = ctx.power
    limits = pack.load_tables().limits
    cap = limits["supply_per_turn_us"] if power == "us" else limits["supply_per_turn"]
    if order.amount < 1:
        raise refuse(R_REQ, "Requisition at least 1 supply token.")
    if s.bought["supply"] + order.amount > cap:
        raise refuse(R_REQ, f"{ctx.who(power)} may requisition at most {cap} supply tokens a turn; "
                     f"{s.bought['supply']} already this turn.")
    if order.amount > s.rp:
        raise refuse(R_REQ, f"That costs {order.amount} RP; {ctx.who(power)} has {s.rp} RP left.")
    before = supply_holdings(s)
    mine = s.reserves.get(power, {}).get("supply", 0)
    after = list(before)
    if mine:
        after.remove(mine)
    after.append(mine + order.amount)
    ones = pack.load_tables().components["supply_1"]
    if ones_needed(after) > ones and ones_needed(after) > ones_needed(before):
        room = stock_amounts(s, power, min(cap - s.bought["supply"], s.rp))
        raise refuse(R_STOCK, f"Only 40 one-supply and 15 five-supply tokens exist (L105-106, L459-461): "
                     f"with those in play, {ctx.who(power)} can requisition "
                     + (f"only these amounts of supply this turn: {listing(str(n) for n in room)}." if room else "no more supply until some is spent."))
    s.rp -= order.amount
    s.bought["supply"] += order.amount
    r = s.reserves.setdefault(power, {})
    r["supply"] = r.get("supply", 0) + order.amount
    ctx.log("buy", f"{ctx.who(power)} requisitions {order.amount} supply ({s.rp} RP left).", supply=order.amount)


def land_mine(ctx: Ctx, order: LandMine) -> None:
    """1 RP; in a territory the power controls or holds combat land units in; one deploy
    or upgrade per territory a turn; facing one adjacent territory; a "1 mine" token
    already on that border is upgraded instead (L587). 20 tokens exist (L96-109)."""
    s = ctx.state
    power = ctx.power
    t = ctx.find(order.territory, R_LAND_MINE)
    f = ctx.find(order.facing, R_LAND_MINE)
    if ctx.board.spaces[t].kind != "territory" or ctx.board.spaces[f].kind != "territory":
        raise refuse(R_LAND_MINE, "Land mines go on the border between two territories.")
    if not ctx.board.adjacent(t, f):
        raise refuse(R_LAND_MINE, f"{ctx.name(t)} does not border {ctx.name(f)}.")
    mine_units = any(u.power == power and ctx.is_combat(u) and ctx.kind(u) == "land" for u in ctx.units_at(t))
    if ctx.controller(t) != power and not mine_units:
        raise refuse(R_LAND_MINE, f"{ctx.who(power)} neither controls {ctx.name(t)} nor has combat land units there.")
    if t in s.bought["land_mines"]:
        raise refuse(R_LAND_MINE, f"A land mine was already deployed or upgraded in {ctx.name(t)} this turn.")
    if s.rp < 1:
        raise refuse(R_LAND_MINE, "A land mine costs 1 RP; none are left.")
    entry = next((m for m in s.land_mines if m["territory"] == t and m["facing"] == f), None)
    if entry is not None and 1 in entry["tokens"]:
        entry["tokens"][entry["tokens"].index(1)] = 2
        what = "upgrades the land mine"
    else:
        if sum(len(m["tokens"]) for m in s.land_mines) >= pack.load_tables().components["land_mines"]:
            raise refuse(R_LIMITS, "All 20 land mine tokens are on the board.")
        if entry is None:
            entry = {"territory": t, "facing": f, "tokens": []}
            s.land_mines.append(entry)
        entry["tokens"].append(1)
        what = "deploys a land mine"
    s.rp -= 1
    s.bought["land_mines"].append(t)
    ctx.log("mine", f"{ctx.who(power)} {what} in {ctx.name(t)} facing {ctx.name(f)} ({s.rp} RP left).")


def sea_mine(ctx: Ctx, order: SeaMine) -> None:
    """2 RP; not in a zone with enemy combat sea units or an enemy sea unit deployment
    zone; the Axis never in SZ 31 or the Atlantic, Indian Ocean and Suez Canal convoy
    zones; 1 token per zone a turn (L589). Axis 9 and Allied 6 tokens exist (L589)."""
    s = ctx.state
    power = ctx.power
    side = SIDE[power]
    board = ctx.board.pack
    z = ctx.find(order.zone, R_SEA_MINE)
    if ctx.board.spaces[z].kind != "sea":
        raise refuse(R_SEA_MINE, f"{ctx.name(z)} is not a sea zone.")
    if any(SIDE[u.power] != side and ctx.kind(u) == "sea" and ctx.is_combat(u) for u in ctx.units_at(z)):
        raise refuse(R_SEA_MINE, f"{ctx.name(z)} holds enemy combat sea units.")
    if any(SIDE[p] != side and z in zones for p, zones in board.sea_deploy_zones.items()):
        raise refuse(R_SEA_MINE, f"{ctx.name(z)} is an enemy sea unit deployment zone.")
    if side == "axis" and z in board.no_axis_sea_mines and not optional.suez_mine(ctx, z):
        raise refuse(R_SEA_MINE, f"The Axis may not deploy sea mines in {ctx.name(z)}.")
    if z in s.bought["sea_mines"]:
        raise refuse(R_SEA_MINE, f"{ctx.who(power)} already deployed a sea mine in {ctx.name(z)} this turn.")
    if s.rp < 2:
        raise refuse(R_SEA_MINE, f"A sea mine costs 2 RP; {s.rp} are left.")
    pool = pack.load_tables().components["sea_mines_axis" if side == "axis" else "sea_mines_allied"]
    used = sum(n for zone in s.sea_mines.values() for p, n in zone.items() if SIDE[p] == side)
    if used >= pool:
        raise refuse(R_LIMITS, f"All {pool} sea mine tokens of {side} are on the board.")
    s.rp -= 2
    s.sea_mines.setdefault(z, {})[power] = s.sea_mines.get(z, {}).get(power, 0) + 1
    s.bought["sea_mines"].append(z)
    ctx.log("mine", f"{ctx.who(power)} deploys a sea mine in {ctx.name(z)} ({s.rp} RP left).")


def repair(ctx: Ctx) -> None:
    """Damaged UK battleships in SZ 31 are repaired for 1 supply token each from Cairo (L579)."""
    s = ctx.state
    if ctx.power != "uk":
        raise refuse(R_REPAIR, "Only the United Kingdom repairs battleships.")
    base = ctx.board.pack.naval_base
    damaged = [u for u in ctx.units_at(base) if u.power == "uk" and u.hits and chart()[u.type].hits == 2]
    if not damaged:
        raise refuse(R_REPAIR, f"No damaged UK battleship is in {ctx.name(base)}.")
    if s.supply.get("cairo", 0) < len(damaged) or not ctx.supply_usable("cairo", "allies"):
        raise refuse(R_REPAIR, f"Repairing {len(damaged)} battleship(s) takes as many supply tokens from Cairo.")
    s.supply["cairo"] -= len(damaged)
    for u in damaged:
        u.hits = 0
    ctx.log("repair", f"The United Kingdom repairs {len(damaged)} battleship(s) in {ctx.name(base)}.")
