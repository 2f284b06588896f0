"""Land combat (Phase 4: Conduct Combat, L724-865; General Combat Sequence, L1569-1607),
for attacks by land units, the only attackers Phase 3 moves so far.

A battle lives in ``state.battle`` and runs step by step. It stops for each decision: the
defender fights or retreats (step 1), the defender and then the attacker choose casualties
(steps 2-3), the defender picks where survivors retreat (step 4), and the attacker presses
or ceases (step 5, ``land_conclude``). When only one answer is possible the engine takes
it without asking.
Dice are d10; a unit hits on its value or less (L238, L785).
"""

from __future__ import annotations

from typing import Any

from engine.games.aa_na.combat_move import is_scout
from engine.games.aa_na.context import Ctx, chart, has, listing, refuse
from engine.games.aa_na.orders import Casualties, Fight, RetreatTo, Target, Withdraw
from engine.games.aa_na.state import SIDE, Unit

R_ORDERS = "North Africa: Combat Step 1, Defender Fight or Retreat (L757-767)"
R_FIRE = "North Africa: Combat Steps 2-3, casualties (L783-809)"
R_RETREAT = "North Africa: Combat Step 4, Resolve Retreats (L819-821)"
R_FLANK = "North Africa: Flanking Attacks (L736-740)"


# ------------------------------------------------------------------ helpers


def _units(ctx: Ctx, ids) -> list[Unit]:
    want = set(ids)
    return [u for u in ctx.state.units if u.id in want]


def exempt(u: Unit) -> bool:
    """Air, scout car and French units need no supply to defend (L765)."""
    return chart()[u.type].kind == "air" or is_scout(u) or u.power in ("vichy", "free_french")


def defender_side(b: dict[str, Any]) -> str:
    return "allies" if b["attacker_side"] == "axis" else "axis"


def defending_power(ctx: Ctx, b: dict[str, Any]) -> str:
    """The power whose player answers for the defenders: the one with most units there.
    Vichy units are run by the Germany player (L287, L1063; RULINGS: multinational defence)."""
    counts: dict[str, int] = {}
    for u in _units(ctx, b["defenders"]):
        p = "ger" if u.power == "vichy" else ("us" if u.power == "free_french" else u.power)
        counts[p] = counts.get(p, 0) + 1
    return max(sorted(counts), key=lambda p: counts[p]) if counts else "ger"


def supply_sources(ctx: Ctx, at: str, side: str) -> list[str]:
    """Territories a side may take supply from for a combat at or from ``at``: ``at``
    itself and the friendly or neutral territories next to it (L704, L763, L835)."""
    out = []
    for t in (at, *sorted(ctx.board.neighbours(at))):
        if ctx.board.spaces[t].kind == "territory" and ctx.state.supply.get(t, 0) > 0:
            if ctx.friendly(t, side) or ctx.neutral(t) or (t == at and _defending_here(ctx, t, side)):
                out.append(t)
    return out


def _defending_here(ctx: Ctx, t: str, side: str) -> bool:
    return any(SIDE[u.power] == side and ctx.is_combat(u) for u in ctx.units_at(t))


def _take(ctx: Ctx, places: list[str], n: int) -> None:
    for t in places[:n]:
        ctx.state.supply[t] -= 1
        if not ctx.state.supply[t]:
            del ctx.state.supply[t]


# ------------------------------------------------------------------ start


def start(ctx: Ctx, target: str, main: str | None, bomb: bool = False) -> None:
    """Open the battle: the source with the most attacking land units is the main attack,
    the others flank (L738); on a tie the attacker names the main source. Attacking air
    units fight from the air (``@air``) and never flank; Air Defense fires first (L732)."""
    from engine.games.aa_na import air

    s = ctx.state
    attacks = [a for a in s.attacks if a["target"] == target]
    sources: dict[str, list[str]] = {}
    for a in attacks:
        sources.setdefault("@air" if a.get("air") else a["source"], []).extend(a["units"])
    land = {src: v for src, v in sources.items() if src != "@air"}
    if land:
        most = max(len(v) for v in land.values())
        tied = sorted(src for src, v in land.items() if len(v) == most)
        if main is None:
            if len(tied) > 1:
                raise refuse(R_FLANK, f"The main attack on {ctx.name(target)} is tied between "
                             f"{listing(ctx.name(t) for t in tied)}: name it ('resolve {target} from SOURCE').")
            main = tied[0]
        elif main not in tied:
            raise refuse(R_FLANK, "The main attack is the source with the most attacking land units (L738).",
                         f"Main attack: {listing(ctx.name(t) for t in tied)}.")
    s.battle = {
        "target": target,
        "round": 1,
        "attacker": s.power,
        "attacker_side": ctx.side,
        "sources": sources,
        "flank": sorted(src for src in land if src != main),
        "defenders": [u.id for u in ctx.enemy_combat_units(target, ctx.side)],
        "fighting": [],
        "retreating": [],
        "step": "aa",
        "hits": {},
        "casualties": [],
        "def_hits": 0,
        "bomb": bomb,
        "torch": any(a.get("torch") for a in attacks),
    }
    if land:  # an attack by air units alone leaves retreats open (L769)
        s.attacked.append(target)
    text = f"Battle for {ctx.name(target)}: {sum(len(v) for v in sources.values())} attacking unit(s) against "
    text += f"{len(s.battle['defenders'])} defending unit(s)"
    if s.battle["flank"]:
        text += f"; flanking from {listing(ctx.name(t) for t in s.battle['flank'])} (reroll 8+, L740)"
    ctx.log("battle", text + ".")
    air.air_defense(ctx)


# ------------------------------------------------------------------ step 1


def order_options(ctx: Ctx) -> dict[str, bool]:
    """What the defender may answer in step 1 (L761-767): ``fight`` needs a supply token
    unless every defender is exempt; ``withdraw`` sends everyone away; ``stay`` lets the
    exempt units fight while the others retreat. Vichy units never retreat (L1067): beside
    other units they stay, as exempt units may (L767; RULINGS: A25)."""
    b = ctx.state.battle
    ds = _units(ctx, b["defenders"])
    side = defender_side(b)
    if any(u.power == "vichy" for u in ds):
        all_exempt = all(exempt(u) for u in ds)
        return {"fight": all_exempt or bool(supply_sources(ctx, b["target"], side)),
                "withdraw": False, "stay": not all_exempt}
    all_exempt = all(exempt(u) for u in ds)
    has_exempt = any(exempt(u) for u in ds)
    can_pay = bool(supply_sources(ctx, b["target"], side))
    return {"fight": all_exempt or can_pay, "withdraw": True, "stay": has_exempt and not all_exempt}


def fight(ctx: Ctx, order: Fight) -> None:
    s = ctx.state
    b = s.battle
    ds = _units(ctx, b["defenders"])
    side = defender_side(b)
    if all(exempt(u) for u in ds):
        if order.pay:
            raise refuse(R_ORDERS, "These defenders are all exempt: no supply is spent, and none may be (L765).")
        paid = []
    else:
        options = supply_sources(ctx, b["target"], side)
        if order.pay:
            place = ctx.find(order.pay, R_ORDERS)
            if place not in options:
                raise refuse(R_ORDERS, f"The defence's token comes from {ctx.name(b['target'])} or a friendly or "
                             "neutral territory next to it (L763).", f"Supply within reach: {listing(options)}.")
            paid = [place]
        elif options:
            paid = [options[0]]
        else:
            raise refuse(R_ORDERS, "No supply token is within reach: the defenders must retreat (L765).")
        _take(ctx, paid, 1)
    b["fighting"] = list(b["defenders"])
    b["retreating"] = []
    ctx.log("battle", f"The defenders of {ctx.name(b['target'])} fight"
            + (f", spending 1 supply from {ctx.name(paid[0])}." if paid else "."))
    fire_attackers(ctx)


def withdraw(ctx: Ctx, order: Withdraw) -> None:
    b = ctx.state.battle
    opts = order_options(ctx)
    if order.stay and not opts["stay"]:
        raise refuse(R_ORDERS, "Only exempt units (air, scout cars, French) may stay while the others retreat (L767).")
    if not order.stay and not opts["withdraw"]:
        raise refuse(R_ORDERS, "Vichy French units never retreat (L1067).", "'withdraw stay' keeps them fighting.")
    ds = _units(ctx, b["defenders"])
    stay = [u.id for u in ds if order.stay and exempt(u)]
    b["fighting"] = stay
    b["retreating"] = [u.id for u in ds if u.id not in stay]
    ctx.log("battle", f"{len(b['retreating'])} defender(s) of {ctx.name(b['target'])} will retreat"
            + (f"; {len(stay)} exempt unit(s) stay and fight." if stay else "."))
    fire_attackers(ctx)


# ------------------------------------------------------------------ steps 2 and 3


def _attack_values(ctx: Ctx, attackers: list[Unit]) -> dict[str, int]:
    """Attack values with artillery support: each artillery raises one infantry or
    mechanized infantry to 3 (L1121-1123). Support goes to flanking units first, where
    it is worth most to the attacker (RULINGS: artillery pairing)."""
    b = ctx.state.battle
    values = {u.id: chart()[u.type].attack or 0 for u in attackers}
    arts = sum(1 for u in attackers if has(u.type, "Supports Infantry"))
    backed = [u for u in attackers if has(u.type, "Supported by Artillery")]
    backed.sort(key=lambda u: (_source(b, u.id) not in b["flank"], u.id))
    for u in backed[:arts]:
        values[u.id] = max(values[u.id], 3)
    return values


def _num(u: Unit) -> int:
    """Dice are rolled in the order the units were created: a fixed order for replays."""
    return int(u.id[1:])


def _source(b: dict[str, Any], uid: str) -> str:
    return next(src for src, ids in b["sources"].items() if uid in ids)


def _roll(ctx: Ctx, value: int, reroll: tuple[int, ...], again: bool, purpose: str) -> int:
    r = ctx.dice.roll(10, purpose)
    while r in reroll:
        r = ctx.dice.roll(10, purpose + " (reroll)")
        if not again:
            break
    return r


def fire_attackers(ctx: Ctx) -> None:
    """Step 2: each attacking unit rolls; flanking units reroll 8, 9 and 10, rerolls
    included (L740). In the first round anti-tank guns' hits fall on tanks and scout
    cars' on air units where there are any (L1137, L1179; RULINGS: targeted fire); the
    attacker names the kind of combat land unit each German bomber hit falls on (L1245)."""
    s = ctx.state
    b = s.battle
    attackers = _units(ctx, [i for ids in b["sources"].values() for i in ids])
    values = _attack_values(ctx, attackers)
    hits = {"any": 0, "tank": 0, "air": 0, "bomber": 0}
    rolls = []
    for u in sorted(attackers, key=lambda x: (values[x.id], _num(x))):
        if not values[u.id]:
            continue
        flank = _source(b, u.id) in b["flank"]
        r = _roll(ctx, values[u.id], (8, 9, 10) if flank else (), True, f"{u.id} attacks")
        rolls.append(str(r))
        if r <= values[u.id]:
            if b["round"] == 1 and has(u.type, "Targeted Fire - Tanks"):
                hits["tank"] += 1
            elif has(u.type, "Targeted Attack - Air Units"):
                hits["air"] += 1
            elif has(u.type, "Targeted Attack - Combat Land Units"):
                hits["bomber"] += 1
            else:
                hits["any"] += 1
    b["hits"] = hits
    n = sum(hits.values())
    ctx.log("dice", f"Round {b['round']} in {ctx.name(b['target'])}: the attackers roll {' '.join(rolls) or 'nothing'}: "
            f"{n} hit(s).", hits=hits)
    if hits["bomber"] and len(bomber_kinds(ctx)) > 1:
        b["step"] = "bomber_targets"
        return
    _target(ctx, {k: hits["bomber"] for k in bomber_kinds(ctx)})


def bomber_kinds(ctx: Ctx) -> list[str]:
    """The kinds of defending combat land units a bomber hit may be aimed at (L1245)."""
    return sorted({chart()[u.type].type for u in _pool(ctx, True) if chart()[u.type].kind == "land"})


def _target(ctx: Ctx, aims: dict[str, int]) -> None:
    b = ctx.state.battle
    hits = b["hits"]
    n = hits.pop("bomber", 0)
    for kind, k in aims.items():
        hits[f"f:{kind}"] = hits.get(f"f:{kind}", 0) + k
        n -= k
    hits["any"] += n
    b["step"] = "def_casualties"
    _auto_casualties(ctx, defender=True)


def target(ctx: Ctx, order: Target) -> None:
    """The attacker aims its bomber hits at kinds of defending combat land units; hits not
    aimed fall as the defender chooses (L1245: an option of the firing player)."""
    b = ctx.state.battle
    kinds = bomber_kinds(ctx)
    if order.ids or set(order.units) - set(kinds) or sum(order.units.values()) > b["hits"]["bomber"]:
        raise refuse(R_FIRE, f"Aim at most {b['hits']['bomber']} bomber hit(s) at kinds of defending land units.",
                     f"Kinds: {listing(kinds)}.")
    _target(ctx, order.units)


def _targeted(hits: dict[str, int], pool: list[Unit]) -> tuple[dict[str, int], int, int]:
    """Hits that must fall on each kind of land unit (anti-tank guns' on tanks, bombers' on
    the kind named), on air units, and on anything: a targeted hit with no such unit left
    falls like any other ("if possible", L1137, L1179, L1245)."""
    demands: dict[str, int] = {"tank": hits.get("tank", 0)}
    for k, v in hits.items():
        if k.startswith("f:"):
            demands[k[2:]] = demands.get(k[2:], 0) + v
    have: dict[str, int] = {}
    for u in pool:
        if chart()[u.type].kind == "land":
            have[chart()[u.type].type] = have.get(chart()[u.type].type, 0) + 1
    air = sum(1 for u in pool if chart()[u.type].kind == "air")
    t = {f: min(n, have.get(f, 0)) for f, n in demands.items()}
    a = min(hits.get("air", 0), air)
    other = hits.get("any", 0) + sum(demands.values()) - sum(t.values()) + hits.get("air", 0) - a
    return t, a, other


def targeted(hits: dict[str, int]) -> bool:
    return any(v for k, v in hits.items() if k != "any")


def max_assignable(hits: dict[str, int], pool: list[Unit]) -> int:
    t, a, other = _targeted(hits, pool)
    fixed = sum(t.values()) + a
    return fixed + min(other, len(pool) - fixed)


def fits(hits: dict[str, int], chosen: list[Unit], pool: list[Unit]) -> bool:
    """Whether the chosen casualties can take the hits: targeted hits on their targets,
    the rest on anything (L785, L1137, L1179, L1245)."""
    t, a, other = _targeted(hits, pool)
    got: dict[str, int] = {}
    for u in chosen:
        if chart()[u.type].kind == "land":
            got[chart()[u.type].type] = got.get(chart()[u.type].type, 0) + 1
    ca = sum(1 for u in chosen if chart()[u.type].kind == "air")
    if ca < a or any(got.get(f, 0) < n for f, n in t.items()):
        return False
    return len(chosen) - sum(t.values()) - a <= other


def _pool(ctx: Ctx, defender: bool) -> list[Unit]:
    b = ctx.state.battle
    if defender:
        return _units(ctx, b["defenders"])
    return _units(ctx, [i for ids in b["sources"].values() for i in ids])


def _auto_casualties(ctx: Ctx, defender: bool) -> None:
    """Take the casualties at once when the choice makes no difference: no hits, every
    unit lost, or one kind of unit only."""
    b = ctx.state.battle
    hits = b["hits"] if defender else _att_hits(b)
    pool = _pool(ctx, defender)
    need = max_assignable(hits, pool)
    types = {u.type for u in pool}
    if need == 0 or need == len(pool) or (len(types) == 1 and not targeted(hits)):
        _apply_casualties(ctx, defender, pool[:need])


def casualties(ctx: Ctx, order: Casualties) -> None:
    b = ctx.state.battle
    defender = b["step"] == "def_casualties"
    hits = b["hits"] if defender else _att_hits(b)
    pool = _pool(ctx, defender)
    chosen: list[Unit] = []
    for i in order.ids:
        u = next((x for x in pool if x.id == i and x not in chosen), None)
        if u is None:
            raise refuse(R_FIRE, f"{i} is not a unit that can be taken as a casualty here.")
        chosen.append(u)
    for word, n in order.units.items():
        fit = [u for u in pool if u.type.split(".", 1)[1] == word and u not in chosen]
        if len(fit) < n:
            raise refuse(R_FIRE, f"There are {len(fit)} {word.replace('_', ' ')} to take, not {n}.")
        chosen += fit[:n]
    need = max_assignable(hits, pool)
    if len(chosen) != need or not fits(hits, chosen, pool):
        raise refuse(R_FIRE, f"Choose exactly {need} casualt{'y' if need == 1 else 'ies'}, taking as many hits as "
                     "possible: targeted hits fall on tanks or air units where there are any (L785).")
    _apply_casualties(ctx, defender, chosen)


def casualty_orders(ctx: Ctx, defender: bool, limit: int = 60):
    """The legal casualty choices by unit type, for listing (at most ``limit``)."""
    from itertools import combinations_with_replacement

    b = ctx.state.battle
    hits = b["hits"] if defender else _att_hits(b)
    pool = _pool(ctx, defender)
    need = max_assignable(hits, pool)
    by_type: dict[str, list[Unit]] = {}  # by the word an order names them with
    for u in pool:
        by_type.setdefault(u.type.split(".", 1)[1], []).append(u)
    n = 0
    for combo in combinations_with_replacement(sorted(by_type), need):
        counts: dict[str, int] = {}
        for t in combo:
            counts[t] = counts.get(t, 0) + 1
        if any(counts[t] > len(by_type[t]) for t in counts):
            continue
        chosen = [u for t, k in counts.items() for u in by_type[t][:k]]
        if not fits(hits, chosen, pool):
            continue
        yield Casualties(units=counts)
        n += 1
        if n >= limit:
            return


def _apply_casualties(ctx: Ctx, defender: bool, chosen: list[Unit]) -> None:
    s = ctx.state
    b = s.battle
    if defender:
        # defending casualties fire back before they are removed (L785, L801)
        b["casualties"] = [u.id for u in chosen]
        if chosen:
            ctx.log("battle", f"The defender takes {_names(chosen)} as casualties; they still fire back.")
        fire_defenders(ctx)
        return
    for u in chosen:
        s.units.remove(u)
        for ids in b["sources"].values():
            if u.id in ids:
                ids.remove(u.id)
    if chosen:
        ctx.log("battle", f"The attacker loses {_names(chosen)}.")
    step4(ctx)


def _names(us: list[Unit]) -> str:
    counts: dict[str, int] = {}
    for u in us:
        counts[chart()[u.type].name] = counts.get(chart()[u.type].name, 0) + 1
    return ", ".join(f"{n} {t}" for t, n in counts.items())


def _att_hits(b: dict[str, Any]) -> dict[str, int]:
    """The defenders' hits on the attackers: those of defending anti-tank guns in the
    first round fall on tanks where there are any (L1137)."""
    tanks = b.get("def_tank_hits", 0)
    return {"any": b["def_hits"] - tanks, "tank": tanks}


def fire_defenders(ctx: Ctx) -> None:
    """Step 3: each fighting defender with a defence value rolls, casualties included.
    Tobruk's bonus (and Mareth's against attacks from Tripoli) rerolls results of 9 and
    10 once (L495, L807; RULINGS: A14). Defending anti-tank guns' hits in the first round
    fall on attacking tanks where there are any ("whether attacking or defending", L1137).
    Then the attacker chooses his casualties."""
    b = ctx.state.battle
    sp = ctx.board.spaces[b["target"]]
    bonus: tuple[int, ...] = ()
    if sp.defensive_bonus:
        against = sp.defensive_bonus.against
        if against == "all" or (against.startswith("from:") and against[5:] in b["sources"]):
            bonus = tuple(sp.defensive_bonus.reroll)
    hits = tanks = 0
    rolls = []
    for u in sorted(_units(ctx, b["fighting"]), key=_num):
        d = chart()[u.type].defense
        if not d:
            continue
        r = _roll(ctx, d, bonus, False, f"{u.id} defends")
        rolls.append(str(r))
        hits += r <= d
        tanks += r <= d and b["round"] == 1 and has(u.type, "Targeted Fire - Tanks")
    b["def_hits"] = hits
    b["def_tank_hits"] = tanks
    ctx.log("dice", f"The defenders roll {' '.join(rolls) or 'nothing'}: {hits} hit(s).")
    b["step"] = "att_casualties"
    _auto_casualties(ctx, defender=False)


# ------------------------------------------------------------------ step 4


def retreat_options(ctx: Ctx) -> list[str]:
    """Adjacent friendly or neutral territories under their stacking limit, not attacked
    by land units this turn and not blitzed through (L769, L821), and open to the units:
    Sahara territories only for scout cars (L547), Morocco, Algeria and Tunisia only when
    the scenario lets the side in (L1006, L1030)."""
    s = ctx.state
    b = s.battle
    side = defender_side(b)
    scouts = all(is_scout(u) for u in _units(ctx, b["retreating"]))
    out = []
    for t in sorted(ctx.board.neighbours(b["target"])):
        sp = ctx.board.spaces[t]
        if sp.kind != "territory" or sp.impassable or t in s.attacked or t in s.blitzed:
            continue
        if (sp.sahara and not scouts) or (sp.mat and not ctx.mat_open(side)):
            continue
        if not (ctx.friendly(t, side) or ctx.neutral(t)):
            continue
        if ctx.stacked(t, side) >= ctx.limit(t):
            continue
        out.append(t)
    return out


def step4(ctx: Ctx) -> None:
    """Step 4: the defender's casualties go; units that chose to retreat leave (L817-821);
    Vichy defenders that scored no hit surrender and become Free French (L1071-1073)."""
    s = ctx.state
    b = s.battle
    dead = _units(ctx, b["casualties"])
    for u in dead:
        s.units.remove(u)
    b["defenders"] = [i for i in b["defenders"] if i not in b["casualties"]]
    b["fighting"] = [i for i in b["fighting"] if i not in b["casualties"]]
    b["retreating"] = [i for i in b["retreating"] if i not in b["casualties"]]
    b["casualties"] = []
    ds = _units(ctx, b["defenders"])
    if ds and all(u.power == "vichy" for u in ds) and b["def_hits"] == 0:
        for u in ds:
            u.power = "free_french"
        b["defenders"] = []
        b["fighting"] = []
        ctx.log("battle", f"The Vichy French in {ctx.name(b['target'])} scored no hit: {len(ds)} unit(s) surrender "
                "and join the Allies as Free French (L1071-1073).")
    b["step"] = "retreat"
    _auto_retreat(ctx)


def _room(ctx: Ctx, t: str) -> int:
    return ctx.limit(t) - ctx.stacked(t, defender_side(ctx.state.battle))


def _auto_retreat(ctx: Ctx) -> None:
    """Retreat without asking where only one answer exists: no territory left (the
    retreating units are destroyed, L821), or one territory with room for all of them,
    or units all of one kind."""
    from engine.games.aa_na.land_conclude import step5

    b = ctx.state.battle
    if not b["retreating"]:
        step5(ctx)
        return
    pool = _units(ctx, b["retreating"])
    opts = retreat_options(ctx)
    if not opts:
        _retreat(ctx, pool, None)
    elif len(opts) == 1 and (_room(ctx, opts[0]) >= len(pool) or len({u.type for u in pool}) == 1):
        _retreat(ctx, pool[: _room(ctx, opts[0])], opts[0])


def retreat_to(ctx: Ctx, order: RetreatTo) -> None:
    b = ctx.state.battle
    to = ctx.find(order.to, R_RETREAT)
    opts = retreat_options(ctx)
    if to not in opts:
        raise refuse(R_RETREAT, f"The defenders may not retreat to {ctx.name(to)}.",
                     f"Retreats: {listing(ctx.name(t) for t in opts)}.")
    pool = _units(ctx, b["retreating"])
    chosen = [u for u in pool if u.id in order.ids]
    if len(chosen) != len(set(order.ids)):
        raise refuse(R_RETREAT, "Name units that are retreating from this battle.")
    for word, n in order.units.items():
        fit = [u for u in pool if u.type.split(".", 1)[1] == word and u not in chosen]
        if len(fit) < n:
            raise refuse(R_RETREAT, f"{len(fit)} retreating {word.replace('_', ' ')}, not {n}.")
        chosen += fit[:n]
    chosen = chosen or pool
    room = _room(ctx, to)
    if len(chosen) > room:
        raise refuse(R_RETREAT, f"{ctx.name(to)} has room for {room} more unit(s) under its stacking limit (L821).")
    _retreat(ctx, chosen, to)


def _retreat(ctx: Ctx, units: list[Unit], to: str | None) -> None:
    s = ctx.state
    b = s.battle
    for u in units:
        if to is None:
            s.units.remove(u)
        else:
            u.at = to
    ids = {u.id for u in units}
    b["retreating"] = [i for i in b["retreating"] if i not in ids]
    b["defenders"] = [i for i in b["defenders"] if i not in ids]
    if to is None:
        ctx.log("battle", f"{_names(units)} find no territory to retreat to and are destroyed (L821).")
    else:
        ctx.log("battle", f"{_names(units)} retreat to {ctx.name(to)}.")
    _auto_retreat(ctx)
