"""Sea mines going off on reinforcements deployed in Phase 6 (Mine Token Detonation, Sea
Mine Tokens, L974-994; Phase 6, L934) and on sea units moving in Phases 3 and 5 (L982-986).

After every deployment (L980), each enemy power owning sea mines in a zone that received
units or supply may set off any of its tokens there, zone by zone. One die per token,
each 3 or less a hit; the acting player gives every hit to what was just deployed there:
sea units (destroyed, a battleship taking two) or transports, each transport hit
destroying two new cargo items, the acting player picking the first and the mine's owner
naming the kind of the second (L992-994).

A sea move that enters a zone mined by an enemy power stops there (L984 step 1); the
owners then decide, zone by zone, and the acting player gives the hits to the sea units
that just moved in (L992). Survivors may move on with what is left of their move, never
into a zone they already entered this phase (L984 steps 1 and 3).
"""

from __future__ import annotations

from math import ceil

from engine.games.aa_na.context import Ctx, chart, listing, refuse
from engine.games.aa_na.orders import Cargo, Casualties, Detonate
from engine.games.aa_na.state import SIDE, TURN_ORDER, Unit

R_SEA_MINES = "North Africa: Sea Mine Tokens, detonation (L974-994)"
R_MOVING = "North Africa: Sea Mine Tokens, sea units moving in Phases 3 and 5 (L982-986)"


def record(ctx: Ctx, zone: str, units: list[Unit], supply: int) -> None:
    """Note what is deployed into a sea zone this turn: only that can be hit (L992)."""
    got = ctx.state.bought.setdefault("arrivals", {}).setdefault(zone, {"units": [], "supply": 0})
    got["units"] += [u.id for u in units]
    got["supply"] += supply


def pending(ctx: Ctx) -> None:
    """Queue, zone by zone, every enemy power's sea mines where something arrived."""
    s = ctx.state
    out = []
    for zone in sorted(s.bought.get("arrivals", {})):
        for p, n in sorted(s.sea_mines.get(zone, {}).items(), key=lambda kv: TURN_ORDER.index(kv[0])):
            if n and SIDE[p] != ctx.side:
                out.append({"zone": zone, "owner": p, "tokens": n, "hits": 0, "cargo_hits": 0, "pick": 0})
    s.sea_mine_queue = out


def _new_units(ctx: Ctx, item: dict) -> list[Unit]:
    if "moved" in item:
        ids = set(item["moved"])
    else:
        ids = set(ctx.state.bought["arrivals"][item["zone"]]["units"])
    return [u for u in ctx.state.units if u.id in ids]


def _new_ships(ctx: Ctx, item: dict) -> list[Unit]:
    return [u for u in _new_units(ctx, item) if chart()[u.type].kind == "sea"]


def _new_cargo(ctx: Ctx, item: dict) -> list[Unit]:
    return [u for u in _new_units(ctx, item) if chart()[u.type].kind == "land"]


def _new_supply(ctx: Ctx, item: dict) -> int:
    if "moved" in item:  # sea units moving carry no cargo (Transports, L612-620)
        return 0
    got = ctx.state.bought["arrivals"][item["zone"]]["supply"]
    return min(got, ctx.state.convoy_supply.get(item["zone"], {}).get(ctx.power, 0))


def _items(ctx: Ctx, item: dict) -> int:
    return len(_new_cargo(ctx, item)) + ceil(_new_supply(ctx, item) / 5)


def detonate(ctx: Ctx, order: Detonate) -> None:
    s = ctx.state
    item = s.sea_mine_queue[0]
    item["tokens"] = min(item["tokens"], s.sea_mines.get(item["zone"], {}).get(item["owner"], 0))
    if not 0 <= order.count <= item["tokens"]:
        raise refuse(R_SEA_MINES, f"{ctx.who(item['owner'])} has {item['tokens']} sea mine(s) in "
                     f"{ctx.name(item['zone'])}: set off 0 to {item['tokens']}.")
    if order.count == 0:
        s.sea_mine_queue.pop(0)
        return
    mines = s.sea_mines[item["zone"]]
    mines[item["owner"]] -= order.count
    if not mines[item["owner"]]:
        del mines[item["owner"]]
    rolls = [ctx.dice.roll(10, "sea mine") for _ in range(order.count)]
    hits = sum(1 for r in rolls if r <= 3)
    ctx.log("mines", f"{ctx.who(item['owner'])} sets off {order.count} sea mine(s) in {ctx.name(item['zone'])}: "
            f"{' '.join(map(str, rolls))}: {hits} hit(s) (L992).")
    item["hits"] = min(hits, _capacity(ctx, item))
    item["fired"] = True
    _settle(ctx)


def _capacity(ctx: Ctx, item: dict) -> int:
    return sum(chart()[u.type].hits - u.hits for u in _new_ships(ctx, item)) + ceil(_items(ctx, item) / 2)


def options(ctx: Ctx) -> list[dict[str, int]]:
    """The ways to take the hits: by kind of new sea unit, and ``transport``."""
    item = ctx.state.sea_mine_queue[0]
    caps: dict[str, int] = {}
    for u in _new_ships(ctx, item):
        k = chart()[u.type].type
        caps[k] = caps.get(k, 0) + chart()[u.type].hits - u.hits
    if _items(ctx, item):
        caps["transport"] = ceil(_items(ctx, item) / 2)
    out: list[dict[str, int]] = []

    def rec(keys, left, take):
        if not keys:
            if not left:
                out.append({k: v for k, v in take.items() if v})
            return
        for n in range(min(caps[keys[0]], left) + 1):
            rec(keys[1:], left - n, {**take, keys[0]: n})

    rec(sorted(caps), item["hits"], {})
    return out


def casualties(ctx: Ctx, order: Casualties) -> None:
    want = {k: n for k, n in order.units.items() if n}
    opts = options(ctx)
    if order.ids or want not in opts:
        raise refuse(R_SEA_MINES, "Give every hit to the sea units or transports just deployed in the zone.",
                     f"Legal: {listing(' '.join(f'{n} {k}' for k, n in o.items()) for o in opts)}.")
    _take(ctx, want)


def _take(ctx: Ctx, take: dict[str, int]) -> None:
    s = ctx.state
    item = s.sea_mine_queue[0]
    for k, n in take.items():
        if k == "transport":
            item["cargo_hits"] = n
            continue
        for u in sorted((u for u in _new_ships(ctx, item) if chart()[u.type].type == k), key=lambda x: -x.hits):
            while n and u in s.units:
                u.hits += 1
                n -= 1
                if u.hits >= chart()[u.type].hits:
                    s.units.remove(u)
                    ctx.log("mines", f"{chart()[u.type].name} ({u.id}) sinks on a mine.")
    item["hits"] = 0
    _settle(ctx)


def cargo_kinds(ctx: Ctx) -> list[str]:
    item = ctx.state.sea_mine_queue[0]
    out = sorted({chart()[u.type].type for u in _new_cargo(ctx, item)})
    return out + (["supply"] if _new_supply(ctx, item) else [])


def cargo(ctx: Ctx, order: Cargo) -> None:
    item = ctx.state.sea_mine_queue[0]
    if order.kind not in cargo_kinds(ctx):
        raise refuse(R_SEA_MINES, f"No new {order.kind.replace('_', ' ')} is in the convoy.",
                     f"It holds: {listing(cargo_kinds(ctx))}.")
    _lose(ctx, item, order.kind)
    _settle(ctx)


def _lose(ctx: Ctx, item: dict, kind: str) -> None:
    s = ctx.state
    if kind == "supply":
        n = min(5, _new_supply(ctx, item))
        s.convoy_supply[item["zone"]][ctx.power] -= n
        s.bought["arrivals"][item["zone"]]["supply"] -= n
        ctx.log("mines", f"A transport goes down with {n} supply.")
    else:
        u = min((u for u in _new_cargo(ctx, item) if chart()[u.type].type == kind),
                key=lambda x: (chart()[x.type].cost or 0, x.id))
        s.units.remove(u)
        ctx.log("mines", f"A transport goes down with {chart()[u.type].name} ({u.id}).")
    item["pick"] += 1
    if item["pick"] == 2 or not _items(ctx, item):
        item["pick"] = 0
        item["cargo_hits"] -= 1
        if not _items(ctx, item):
            item["cargo_hits"] = 0


def _settle(ctx: Ctx) -> None:
    """Take what needs no decision; drop the zone from the queue once it is done."""
    s = ctx.state
    while s.sea_mine_queue:
        item = s.sea_mine_queue[0]
        if item["hits"]:
            opts = options(ctx)
            if len(opts) > 1:
                return
            _take(ctx, opts[0] if opts else {})
            return
        if item["cargo_hits"]:
            if len(cargo_kinds(ctx)) > 1:
                return
            _lose(ctx, item, cargo_kinds(ctx)[0])
            continue
        if item.get("fired"):
            s.sea_mine_queue.pop(0)
            continue
        return


def step(s) -> str:
    """What the head of the queue waits for: the owner's count, the acting player's hits,
    or a cargo pick (the acting player's first, the owner's second)."""
    item = s.sea_mine_queue[0]
    if item["hits"]:
        return "seamine_hits"
    if item["cargo_hits"]:
        return "seamine_cargo"
    return "seamines"


# ------------------------------------------------------------------ sea units moving (L982-986)


def enemy_mined(ctx: Ctx, zone: str) -> bool:
    """A zone holding sea mine tokens of a power of the other side."""
    return any(n and SIDE[p] != ctx.side for p, n in ctx.state.sea_mines.get(zone, {}).items())


def _leg(ctx: Ctx, u: Unit) -> dict | None:
    leg = ctx.state.bought.get("sea_legs", {}).get(u.id)
    return leg if leg and leg["phase"] == ctx.state.phase else None


def may_go_on(ctx: Ctx, u: Unit) -> bool:
    """A sea unit stopped by entering a mined zone this phase, with move left (L984 step 3)."""
    leg = _leg(ctx, u)
    return bool(leg and leg["stopped"] and leg["spent"] < chart()[u.type].movement)


def budget(ctx: Ctx, u: Unit) -> int:
    leg = _leg(ctx, u)
    return chart()[u.type].movement - (leg["spent"] if leg else 0)


def check_path(ctx: Ctx, movers: list[Unit], path: list[str]) -> None:
    """No zone entered twice in a phase, and no passing through an enemy-mined zone: the
    move stops on entering it (L984 step 1)."""
    for u in movers:
        leg = _leg(ctx, u)
        again = [z for z in path[1:] if leg and z in leg["zones"]]
        if again:
            raise refuse(R_MOVING, f"{u.id} already entered {ctx.name(again[0])} in this phase: no sea unit moves "
                         "into or through the same zone twice in a phase (L984).")
    for z in path[1:-1]:
        if enemy_mined(ctx, z):
            raise refuse(R_MOVING, f"{ctx.name(z)} is mined by the enemy: sea units stop on entering it, and may move "
                         "on once the mines there are settled (L984). End this move there.")


def moved(ctx: Ctx, movers: list[Unit], path: list[str]) -> None:
    """Note the leg; on entering an enemy-mined zone, queue the owners' decisions there."""
    legs = ctx.state.bought.setdefault("sea_legs", {})
    end = path[-1]
    stopped = enemy_mined(ctx, end)
    for u in movers:
        leg = _leg(ctx, u) or {"phase": ctx.state.phase, "spent": 0, "zones": []}
        leg["spent"] += len(path) - 1
        leg["zones"] += path[1:]
        leg["stopped"] = stopped
        legs[u.id] = leg
    if not stopped:
        return
    ids = [u.id for u in movers]
    for p, n in sorted(ctx.state.sea_mines[end].items(), key=lambda kv: TURN_ORDER.index(kv[0])):
        if n and SIDE[p] != ctx.side:
            ctx.state.sea_mine_queue.append({"zone": end, "owner": p, "tokens": n, "hits": 0, "cargo_hits": 0,
                                             "pick": 0, "moved": ids})


def onward(ctx: Ctx, u: Unit, step) -> list[list[str]]:
    """Every path a stopped sea unit may still take: ``step(a, b)`` says whether it may
    cross from a to b (None: no; "on": and go on; "stop": and stop there); a path also ends
    on entering an enemy-mined zone."""
    leg = _leg(ctx, u)
    seen = set(leg["zones"]) if leg else set()
    out: list[list[str]] = []
    frontier = [[u.at]]
    for _ in range(budget(ctx, u)):
        nxt = []
        for path in frontier:
            for b in sorted(ctx.board.neighbours(path[-1])):
                how = None if b in seen or b in path else step(path[-1], b)
                if how is None:
                    continue
                out.append([*path, b])
                if how == "on" and not enemy_mined(ctx, b):
                    nxt.append([*path, b])
        frontier = nxt
    return out
