"""Land mine detonation against declared attacks (Mine Token Detonation, L950-972).

After every attack is declared (L722, L972), the owner of the active mine tokens on each
border an attack crosses may set off any number of their mine icons: 3 dice per icon,
each 3 or less turns back one attacking unit crossing that border (L966-968). Mines are
owned and active as L956 says, and only go off on an enemy power's turn (L952).

Blitzing units crossing a mined border wait at the border while the owner decides; those
not turned back go on with the blitz they were ordered (L962; RULINGS: land mines).
"""

from __future__ import annotations

from engine.games.aa_na.context import Ctx, chart, listing, refuse
from engine.games.aa_na.orders import Detonate, TurnBack
from engine.games.aa_na.state import SIDE, TURN_ORDER, Unit

R_MINES = "North Africa: Land Mine Tokens, detonation (L954-972)"
R_BACK = "North Africa: Land Mine Tokens, turning attackers back (L968)"


def owner(ctx: Ctx, territory: str) -> str | None:
    """Mines are active only where a control marker or combat units are; the controller
    owns them, otherwise the power with the most combat units there. On a tie the power
    first in the turn order decides for both (L956; RULINGS: joint mines)."""
    c = ctx.controller(territory)
    if c is not None:
        return c
    counts: dict[str, int] = {}
    for u in ctx.standing(territory):
        if ctx.is_combat(u):
            p = "ger" if u.power == "vichy" else ("us" if u.power == "free_french" else u.power)
            counts[p] = counts.get(p, 0) + 1
    if not counts:
        return None
    best = max(counts.values())
    return min((p for p, n in counts.items() if n == best), key=TURN_ORDER.index)


def pending(ctx: Ctx) -> None:
    """List the borders under attack where enemy mines may go off, one entry per border."""
    s = ctx.state
    out = []
    for a in s.attacks:
        if a.get("air") or a.get("torch") or not a["units"]:
            continue
        icons = sum(sum(m["tokens"]) for m in s.land_mines
                    if m["territory"] == a["target"] and m["facing"] == a["source"])
        who = owner(ctx, a["target"]) if icons else None
        if who and SIDE[who] != ctx.side:
            out.append({"attack": a["id"], "target": a["target"], "source": a["source"], "icons": icons,
                        "owner": who, "hits": 0})
    s.mine_queue = out


def blitz_mines(ctx: Ctx, movers: list[Unit], path: list[str]) -> bool:
    """Queue the mines on the border the blitzers cross into ``path[1]``, if an enemy owns
    active ones there; True when the blitz waits on them (L960-962)."""
    start, step1 = path[0], path[1]
    icons = sum(sum(m["tokens"]) for m in ctx.state.land_mines if m["territory"] == step1 and m["facing"] == start)
    who = owner(ctx, step1) if icons else None
    if not who or SIDE[who] == ctx.side:
        return False
    ctx.state.mine_queue.append({"attack": None, "blitz": {"units": [u.id for u in movers], "path": path},
                                 "target": step1, "source": start, "icons": icons, "owner": who, "hits": 0})
    ctx.log("blitz", f"{ctx.who(ctx.power)}'s {len(movers)} blitzing unit(s) reach the mined border of "
            f"{ctx.name(step1)}.")
    return True


def queue(ctx: Ctx) -> list[dict]:
    return ctx.state.mine_queue


def detonate(ctx: Ctx, order: Detonate) -> None:
    """Set off ``count`` mine icons on the border at the head of the queue: tokens totalling
    that many icons leave the border, a "2 mines" token flipping to "1" where only one of its
    icons goes (L966); 3 dice per icon, each 3 or less a hit (L968)."""
    s = ctx.state
    item = queue(ctx)[0]
    if not 0 <= order.count <= item["icons"]:
        raise refuse(R_MINES, f"The border of {ctx.name(item['target'])} facing {ctx.name(item['source'])} holds "
                     f"{item['icons']} mine icon(s): set off 0 to {item['icons']}.")
    if order.count == 0:
        queue(ctx).pop(0)
        ctx.log("mines", f"No mines go off on the border of {ctx.name(item['target'])} facing "
                f"{ctx.name(item['source'])}.")
        _turn_back(ctx, item, [])
        return
    left = order.count
    for m in [m for m in s.land_mines if m["territory"] == item["target"] and m["facing"] == item["source"]]:
        kept = []
        for t in sorted(m["tokens"], reverse=True):
            use = min(t, left)
            left -= use
            if t - use:
                kept.append(t - use)
        m["tokens"] = kept
    s.land_mines = [m for m in s.land_mines if m["tokens"]]
    rolls = [ctx.dice.roll(10, "land mine") for _ in range(3 * order.count)]
    hits = sum(1 for r in rolls if r <= 3)
    ctx.log("mines", f"{ctx.who(item['owner'])} sets off {order.count} mine icon(s) on the border of "
            f"{ctx.name(item['target'])} facing {ctx.name(item['source'])}: {' '.join(map(str, rolls))}: "
            f"{hits} hit(s).")
    crossing = _crossing(ctx, item)
    if not hits or hits >= len(crossing) or len({u.type for u in crossing}) == 1:  # no choice to make
        queue(ctx).pop(0)
        _turn_back(ctx, item, crossing[:hits])
    else:
        item["hits"] = hits


def _crossing(ctx: Ctx, item: dict) -> list[Unit]:
    if item.get("blitz"):
        ids = item["blitz"]["units"]
    else:
        ids = next(a for a in ctx.state.attacks if a["id"] == item["attack"])["units"]
    return [u for u in ctx.state.units if u.id in ids]


def turn_back(ctx: Ctx, order: TurnBack) -> None:
    """The acting player picks which crossing units the hits turn back (L968)."""
    item = queue(ctx)[0]
    pool = _crossing(ctx, item)
    chosen = [u for u in pool if u.id in order.ids]
    if len(chosen) != len(set(order.ids)):
        raise refuse(R_BACK, "Name units of this attack.")
    for word, n in order.units.items():
        fit = [u for u in pool if u.type.split(".", 1)[1] == word and u not in chosen]
        if len(fit) < n:
            raise refuse(R_BACK, f"This attack has {len(fit)} {word.replace('_', ' ')} to turn back, not {n}.")
        chosen += fit[:n]
    if len(chosen) != item["hits"]:
        raise refuse(R_BACK, f"Turn back exactly {item['hits']} unit(s) crossing this border.")
    queue(ctx).pop(0)
    _turn_back(ctx, item, chosen)


def turnback_orders(ctx: Ctx):
    """For listing: the hits on each kind first, the rest on the others, kinds counted by
    the word an order names them with (US and Free French infantry are both 'infantry')."""
    item = queue(ctx)[0]
    words: dict[str, int] = {}
    for u in _crossing(ctx, item):
        w = u.type.split(".", 1)[1]
        words[w] = words.get(w, 0) + 1
    for first in sorted(words):
        units = {first: min(item["hits"], words[first])}
        rest = item["hits"] - units[first]
        for other in sorted(set(words) - {first}):
            if rest:
                units[other] = min(rest, words[other])
                rest -= units[other]
        yield TurnBack(units=units)


def _turn_back(ctx: Ctx, item: dict, units: list[Unit]) -> None:
    """Turned-back units stay where they attacked from, take no part and may not move
    again this turn; scout cars lose their Long-Range Patrol (L968, L1171). An attack left
    with no unit loses its arrow; its supply is not refunded."""
    s = ctx.state
    if item.get("blitz"):
        _blitz_goes_on(ctx, item, units)
        return
    a = next(a for a in s.attacks if a["id"] == item["attack"])
    gone = {u.id for u in units}
    a["units"] = [i for i in a["units"] if i not in gone]
    for u in units:
        u.ncm = True
    if units:
        ctx.log("mines", f"{len(units)} unit(s) attacking {ctx.name(item['target'])} from "
                f"{ctx.name(item['source'])} are turned back ({listing(chart()[u.type].name for u in units)}).")
    if not a["units"]:
        s.attacks.remove(a)
        ctx.log("mines", f"Every unit attacking {ctx.name(item['target'])} from {ctx.name(item['source'])} is "
                "turned back: that attack is off (L968).")


def _blitz_goes_on(ctx: Ctx, item: dict, back: list[Unit]) -> None:
    """Turned-back blitzers stay where they started, having made their combat move; the
    others, a mechanized infantry even without its tank (L648), carry on (L962, L968)."""
    from engine.games.aa_na.combat_move import complete_blitz

    path = item["blitz"]["path"]
    for u in back:
        u.moved = 1
        u.path = path[:1]
        u.blitz = True
        u.ncm = True
    on = [u for u in _crossing(ctx, item) if u not in back]
    if back:
        ctx.log("mines", f"{len(back)} blitzing unit(s) are turned back to {ctx.name(path[0])}.")
    if on:
        complete_blitz(ctx, on, path)
    else:
        ctx.log("mines", f"Every blitzing unit is turned back: {ctx.name(path[1])} is not captured (L968).")
