"""Sea combat (Phase 4: Conduct Combat, L724-857; Submarines, L1279-1297; Destroyers,
L1267-1277; Battleships, L1257-1265; Transports, L612-620).

A sea battle lives in ``state.battle`` (``sea``: True) and runs by stages: the submarines'
Surprise Strike or Submerge (step 1, attacker first), the attackers' fire (2), the
defenders' fire (3), the defender's casualties and a convoy's escape (4), and the free
press or cease (5). Hits are classed by who fired them (``sub``, ``air``, ``other``) for the
target rules; transports (the defender's convoy cargo) are hit once no escort the hit could
reach is left (L787; RULINGS: A28). Each transport hit destroys two cargo items, the
defender picking the first and the attacker naming the kind of the second (L789-791).
Bombers with Targeted Attack - Sea Units let the attacker aim their hits at a kind of sea
unit or at the transports (L1247-1249).
"""

from __future__ import annotations

from math import ceil
from typing import Any

from engine.games.aa_na.context import Ctx, chart, listing, refuse
from engine.games.aa_na.orders import Cargo, Casualties, Escape, Submerge, Target
from engine.games.aa_na.state import SIDE, Unit

R_SUBS = "North Africa: Submarines, Surprise Strike and Submersible (L777-779, L1293-1295)"
R_HITS = "North Africa: Combat Steps 2-3, casualties at sea (L785-791, L809, L1287-1289)"
R_CARGO = "North Africa: Transports taken as casualties (L789-791)"
R_ESCAPE = "North Africa: Combat Step 4, convoy escape (L823)"
R_AIM = "North Africa: Bombers, Targeted Attack - Sea Units (L1247-1249)"
KINDS = ("sub", "air", "other")


def _units(ctx: Ctx, ids) -> list[Unit]:
    want = set(ids)
    return [u for u in ctx.state.units if u.id in want]


def fam(u: Unit) -> str:
    return chart()[u.type].type


def start(ctx: Ctx, zone: str) -> None:
    s = ctx.state
    ids = [i for a in s.attacks if a["target"] == zone for i in a["units"]]
    side = ctx.side
    defenders = [u.id for u in ctx.units_at(zone) if SIDE[u.power] != side and chart()[u.type].kind in ("sea", "air")]
    s.battle = {"sea": True, "target": zone, "round": 1, "attacker": s.power, "attacker_side": side,
                "sources": {"@sea": ids}, "flank": [], "defenders": defenders, "submerged": [],
                "escaped": [], "escaped_supply": {}, "stage": "subs_att", "step": "sea", "hits": {},
                "marked": {}, "att_marked": [], "fired": [], "cargo_hits": 0, "cargo_pick": 0}
    ctx.log("battle", f"Sea battle in {ctx.name(zone)}: {len(ids)} attacking unit(s) against "
            f"{len(defenders)} defending unit(s)" + (" and a convoy" if cargo_items(ctx) else "") + ".")
    run(ctx)


# ------------------------------------------------------------------ who is in it


def attackers(ctx: Ctx) -> list[Unit]:
    b = ctx.state.battle
    return [u for u in _units(ctx, b["sources"]["@sea"]) if u.id not in b["submerged"]]


def defenders(ctx: Ctx) -> list[Unit]:
    b = ctx.state.battle
    return [u for u in _units(ctx, b["defenders"]) if u.id not in b["submerged"]]


def cargo_units(ctx: Ctx) -> list[Unit]:
    b = ctx.state.battle
    return [u for u in ctx.units_at(b["target"]) if SIDE[u.power] != b["attacker_side"]
            and chart()[u.type].kind == "land" and u.id not in b["escaped"]]


def cargo_supply(ctx: Ctx) -> dict[str, int]:
    b = ctx.state.battle
    return {p: n for p, n in ctx.state.convoy_supply.get(b["target"], {}).items()
            if SIDE[p] != b["attacker_side"] and n}


def cargo_items(ctx: Ctx) -> int:
    """Land units, and supply by fives or what is left, on the defender's transports
    (L620; RULINGS: transports)."""
    return len(cargo_units(ctx)) + ceil(sum(cargo_supply(ctx).values()) / 5)


def defending_power(ctx: Ctx) -> str:
    ds = defenders(ctx) or cargo_units(ctx)
    counts: dict[str, int] = {}
    for u in ds:
        counts[u.power] = counts.get(u.power, 0) + 1
    if not counts:
        counts = {p: 1 for p in cargo_supply(ctx)} or {"uk" if ctx.state.battle["attacker_side"] == "axis" else "ger": 1}
    return max(sorted(counts), key=lambda p: counts[p])


def has_destroyer(units: list[Unit]) -> bool:
    return any(fam(u) == "destroyer" for u in units)


# ------------------------------------------------------------------ the stages


def run(ctx: Ctx) -> None:
    """Drive the battle until a player must decide or it ends."""
    while ctx.state.battle is not None and ctx.state.battle["step"] == "sea":
        b = ctx.state.battle
        st = b["stage"]
        if st == "subs_att":
            b["stage"] = "subs_def"
            if _strikers(ctx, attacking=True):
                b["step"] = "subs"
        elif st == "subs_def":
            b["stage"] = "strike_att"
            if _strikers(ctx, attacking=False):
                b["step"] = "subs"
        elif st == "strike_att":
            b["stage"] = "strike_def"
            _fire(ctx, [u for u in _strikers(ctx, True) if u.id not in b["submerged"]], attacking=True, strike=True)
        elif st == "strike_def":
            b["stage"] = "strike_end"
            _fire(ctx, [u for u in _strikers(ctx, False) if u.id not in b["submerged"]], attacking=False, strike=True)
        elif st == "strike_end":
            _remove_marked(ctx)
            b["stage"] = "fire_att"
        elif st == "fire_att":
            b["stage"] = "fire_def"
            _fire(ctx, [u for u in attackers(ctx) if u.id not in b["fired"]], attacking=True, strike=False)
        elif st == "fire_def":
            b["stage"] = "remove"
            _fire(ctx, [u for u in defenders(ctx) if u.id not in b["fired"] and chart()[u.type].defense],
                  attacking=False, strike=False)
        elif st == "remove":
            _remove_marked(ctx)
            b["stage"] = "end"
            if cargo_items(ctx) > 2:
                b["step"] = "escape"
            elif cargo_items(ctx):
                _escape(ctx, cargo_units(ctx), sum(cargo_supply(ctx).values()))
        elif st == "end":
            _round_end(ctx)


def _strikers(ctx: Ctx, attacking: bool) -> list[Unit]:
    """Submarines that may Surprise Strike or submerge: the other side has no destroyer in
    the combat (L777, L1277)."""
    mine, theirs = (attackers(ctx), defenders(ctx)) if attacking else (defenders(ctx), attackers(ctx))
    if has_destroyer(theirs):
        return []
    return [u for u in mine if fam(u) == "submarine"]


def submerge(ctx: Ctx, order: Submerge) -> None:
    """The submarines named dive and take no further part; the others strike (L1293)."""
    b = ctx.state.battle
    attacking = b["stage"] == "subs_def"  # the stage already moved on past the attacker's choice
    pool = _strikers(ctx, attacking)
    chosen = [u for u in pool if u.id in order.ids]
    n = order.units.get("submarine", 0)
    if len(chosen) != len(set(order.ids)) or set(order.units) - {"submarine"} or n > len(pool) - len(chosen):
        raise refuse(R_SUBS, f"Only submarines in this battle submerge; {len(pool)} may.")
    chosen += [u for u in pool if u not in chosen][:n]
    b["submerged"] += [u.id for u in chosen]
    if chosen:
        ctx.log("battle", f"{len(chosen)} submarine(s) submerge and leave the battle (L1293).")
    b["step"] = "sea"
    run(ctx)


def _fire(ctx: Ctx, units: list[Unit], attacking: bool, strike: bool) -> None:
    """Each unit rolls its attack or defence value or less to hit (L783-785, L807); nothing
    is rolled when the other side has nothing left in the battle."""
    b = ctx.state.battle
    if not (defenders(ctx) or cargo_items(ctx) if attacking else attackers(ctx)):
        return
    hits = {k: 0 for k in KINDS}
    bombs = 0
    rolls = []
    for u in sorted(units, key=lambda x: int(x.id[1:])):
        value = chart()[u.type].attack if attacking else chart()[u.type].defense
        b["fired"].append(u.id)
        if not value:
            continue
        r = ctx.dice.roll(10, f"{u.id} fires")
        rolls.append(str(r))
        if r <= value:
            k = "sub" if fam(u) == "submarine" else ("air" if chart()[u.type].kind == "air" else "other")
            hits[k] += 1
            bombs += attacking and "Targeted Attack - Sea Units" in chart()[u.type].characteristics
    if not units:
        return
    who = "attackers" if attacking else "defenders"
    ctx.log("dice", f"{'Surprise Strike: the ' if strike else 'The '}{who} in {ctx.name(b['target'])} roll "
            f"{' '.join(rolls) or 'nothing'}: {sum(hits.values())} hit(s).", hits=hits)
    if sum(hits.values()):
        b["hits"] = hits
        b["taker"] = "def" if attacking else "att"
        b["strike"] = strike
        b["step"] = "sea_casualties"
        b["bomber_hits"] = bombs
        kinds = aim_kinds(ctx)
        if bombs and kinds and not (len(kinds) == 1 and {fam(u) for u in defenders(ctx)} == set(kinds)):
            b["step"] = "sea_targets"  # aiming at the only kind there would change nothing
            return
        _auto_casualties(ctx)


def aim_kinds(ctx: Ctx) -> list[str]:
    """What bomber hits may be aimed at: the kinds of defending sea units, submarines only
    with an attacking destroyer, and the transports of a convoy (L1247-1249)."""
    ds = {fam(u) for u in defenders(ctx) if chart()[u.type].kind == "sea"}
    if not has_destroyer(attackers(ctx)):
        ds.discard("submarine")
    return sorted(ds) + (["transport"] if cargo_items(ctx) else [])


def target(ctx: Ctx, order: Target) -> None:
    """The attacker aims bomber hits at kinds of sea unit or at the transports; the
    defender then takes them there if possible, the rest falling as usual (L1247-1249)."""
    b = ctx.state.battle
    kinds = aim_kinds(ctx)
    if order.ids or set(order.units) - set(kinds) or sum(order.units.values()) > b["bomber_hits"]:
        raise refuse(R_AIM, f"Aim at most {b['bomber_hits']} bomber hit(s) at kinds of defending sea units or at "
                     "transports.", f"Kinds: {listing(kinds)}.")
    b["aimed"] = {k: n for k, n in order.units.items() if n}
    if b["aimed"]:
        ctx.log("battle", f"The bombers' hits are aimed: {', '.join(f'{n} at {k}' for k, n in b['aimed'].items())} "
                "(L1247-1249).")
    b["step"] = "sea_casualties"
    _auto_casualties(ctx)


# ------------------------------------------------------------------ casualties


def _targets(ctx: Ctx) -> tuple[dict[str, list[Unit]], int]:
    """The families that may take the pending hits, and the transports' capacity."""
    b = ctx.state.battle
    pool = defenders(ctx) if b["taker"] == "def" else attackers(ctx)
    pool = [u for u in pool if u.id not in b["att_marked"] and u.id not in b["marked"]]
    groups: dict[str, list[Unit]] = {}
    for u in pool:
        groups.setdefault(fam(u), []).append(u)
    transports = ceil(cargo_items(ctx) / 2) if b["taker"] == "def" else 0
    return groups, transports


def _cap(u: Unit) -> int:
    return chart()[u.type].hits - u.hits


def _room(b: dict[str, Any], us: list[Unit]) -> int:
    return sum(_cap(u) for u in us)


def _allowed(ctx: Ctx, kind: str, family: str) -> bool:
    """Submarines never hit air units (L1289); air units hit submarines only with a
    destroyer of the firing side in the combat, the attacker's own power's (L1287)."""
    b = ctx.state.battle
    air = family in ("fighter", "bomber")
    if kind == "sub":
        return not air
    if kind == "air" and family == "submarine":
        firing = attackers(ctx) if b["taker"] == "def" else defenders(ctx)
        if b["taker"] == "def":
            return any(fam(u) == "destroyer" and u.power == b["attacker"] for u in firing)
        return has_destroyer(firing)
    return True


def _feasible(ctx: Ctx, hits: dict[str, int], groups: dict[str, list[Unit]], take: dict[str, int],
              fixed: dict[str, int] | None = None) -> bool:
    """Whether the hits can be spread exactly as ``take`` says (families and ``transport``)
    under the target rules; a hit reaches the transports only when every escort it could hit
    is full (L787, L1289). ``fixed`` hits (aimed bombs) are already on their families."""
    b = ctx.state.battle
    fixed = fixed or {}
    cols = [g for g in take if take[g]]
    edges = {}
    for k in KINDS:
        for g in cols:
            if g == "transport":
                ok = all(take.get(f, 0) + fixed.get(f, 0) >= _room(b, us)
                         for f, us in groups.items() if _allowed(ctx, k, f))
            else:
                ok = _allowed(ctx, k, g)
            edges[(k, g)] = ok
    # a tiny flow: kinds -> targets, by augmenting one hit at a time
    flow = {key: 0 for key in edges}
    used = {g: 0 for g in cols}
    sent = dict.fromkeys(KINDS, 0)

    for k in KINDS:
        while sent[k] < hits.get(k, 0) and _push(k, set(), cols, edges, used, take, flow):
            sent[k] += 1
    return sum(used.values()) == sum(take.values())


def _push(k, seen, cols, edges, used, take, flow) -> bool:
    """One more hit of kind ``k`` into :func:`_feasible`'s flow, rerouting others' hits if
    need be. (A module function: a nested function calling itself is a reference cycle,
    freed only by the cycle collector, whose passes then stall a busy bot process.)"""
    for g in cols:
        if not edges[(k, g)] or (k, g) in seen:
            continue
        seen.add((k, g))
        if used[g] < take[g]:
            flow[(k, g)] += 1
            used[g] += 1
            return True
        for k2 in KINDS:  # reroute a hit of another kind already on g
            if flow[(k2, g)] and k2 != k and _push(k2, seen, cols, edges, used, take, flow):
                flow[(k2, g)] -= 1
                flow[(k, g)] += 1
                return True
    return False


def _splits(keys, caps, i, left, take, found, limit) -> None:
    """Every way to share ``left`` hits over ``keys[i:]`` within ``caps``, into ``found``
    (at most ``limit`` and one more), for :func:`options`."""
    if len(found) > limit:
        return
    if i == len(keys):
        found.append(dict(take))
        return
    for n in range(min(caps[i], left) + 1):
        take[keys[i]] = n
        _splits(keys, caps, i + 1, left - n, take, found, limit)
    take.pop(keys[i], None)


def options(ctx: Ctx, limit: int = 400) -> list[dict[str, int]]:
    """Every legal way to take the hits by family: as many hits as possible (L785, L809)."""
    b = ctx.state.battle
    groups, tcap = _targets(ctx)
    fixed = {}
    for f, n in (b.get("aimed") or {}).items():  # aimed bomber hits land on their kind if possible
        fixed[f] = min(n, tcap if f == "transport" else _room(b, groups.get(f, [])))
    hits = dict(b["hits"])
    hits["air"] = hits.get("air", 0) - sum(fixed.values())
    total = sum(hits.values())
    keys = sorted(groups) + (["transport"] if tcap else [])
    caps = [(_room(b, groups[k]) if k != "transport" else tcap) - fixed.get(k, 0) for k in keys]
    found: list[dict[str, int]] = []
    _splits(keys, caps, 0, total, {}, found, limit)
    good = [t for t in found if _feasible(ctx, hits, groups, t, fixed)]
    best = max((sum(t.values()) for t in good), default=0)
    out = [{k: t.get(k, 0) + fixed.get(k, 0) for k in sorted(set(t) | set(fixed))} for t in good if sum(t.values()) == best]
    return [{k: v for k, v in t.items() if v} for t in out]


def _auto_casualties(ctx: Ctx) -> None:
    opts = options(ctx)
    if len(opts) <= 1:
        _take(ctx, opts[0] if opts else {})


def casualties(ctx: Ctx, order: Casualties) -> None:
    if order.ids:
        raise refuse(R_HITS, "At sea, name casualties by kind: 'casualties 1 destroyer 1 transport'.")
    want = {k: n for k, n in order.units.items() if n}
    opts = options(ctx)
    if want not in opts:
        raise refuse(R_HITS, "That does not take as many hits as possible within the target rules (submarines never "
                     "hit air units; transports only once the escorts a hit could reach are gone).",
                     f"Legal: {listing(' '.join(f'{n} {k}' for k, n in o.items()) or 'nothing' for o in opts)}.")
    _take(ctx, want)


def _take(ctx: Ctx, take: dict[str, int]) -> None:
    """Hits land: defenders are marked (a battleship's first hit damages it at once) and
    fire back; attackers hit by defenders fall now, by a Surprise Strike at the end of
    step 1 (L785, L807, L1265, L1295)."""
    s = ctx.state
    b = s.battle
    groups, _ = _targets(ctx)
    lost = []
    new: dict[str, int] = {}
    for family, n in take.items():
        if family == "transport":
            b["cargo_hits"] += n
            continue
        for u in sorted(groups[family], key=lambda x: (-x.hits, int(x.id[1:]))):
            while n and new.get(u.id, 0) < _cap(u):
                new[u.id] = new.get(u.id, 0) + 1
                n -= 1
    for u in [x for x in s.units if x.id in new]:
        if new[u.id] < _cap(u):  # a battleship's first hit: damaged, still in the fight
            u.hits += new[u.id]
        elif b["taker"] == "def":
            b["marked"][u.id] = new[u.id]
        elif b["strike"]:
            b["att_marked"].append(u.id)
        else:
            lost.append(u)
    _sink(ctx, lost)
    text = ", ".join(f"{n} {k}" for k, n in take.items())
    ctx.log("battle", f"The {'defender' if b['taker'] == 'def' else 'attacker'} takes the hits: {text or 'none'}.")
    b["hits"] = {}
    b.pop("aimed", None)
    b["step"] = "cargo" if b["cargo_hits"] else "sea"
    b["cargo_pick"] = 0
    _auto_cargo(ctx)
    run(ctx)


def _sink(ctx: Ctx, units: list[Unit]) -> None:
    b = ctx.state.battle
    gone = {u.id for u in units}
    for u in units:
        ctx.state.units.remove(u)
    b["sources"]["@sea"] = [i for i in b["sources"]["@sea"] if i not in gone]
    b["defenders"] = [i for i in b["defenders"] if i not in gone]
    for a in ctx.state.attacks:
        a["units"] = [i for i in a["units"] if i not in gone]


def _remove_marked(ctx: Ctx) -> None:
    s = ctx.state
    b = s.battle
    gone = set(b["marked"]) | set(b["att_marked"])
    _sink(ctx, [u for u in s.units if u.id in gone])
    b["marked"] = {}
    b["att_marked"] = []
    if gone:
        ctx.log("battle", f"{len(gone)} unit(s) sink or fall.")


# ------------------------------------------------------------------ transports


def cargo_kinds(ctx: Ctx) -> list[str]:
    out = sorted({fam(u) for u in cargo_units(ctx)})
    return out + (["supply"] if cargo_supply(ctx) else [])


def cargo(ctx: Ctx, order: Cargo) -> None:
    """A transport hit: the defender picks one item, then the attacker names the kind of the
    second, which the defender gives from that kind (the cheapest piece; RULINGS:
    transports); "supply" is 5 tokens or all that are left (L789-791)."""
    b = ctx.state.battle
    if order.kind not in cargo_kinds(ctx):
        raise refuse(R_CARGO, f"The convoy holds no {order.kind.replace('_', ' ')}.",
                     f"It holds: {listing(cargo_kinds(ctx))}.")
    _lose(ctx, order.kind)
    b["cargo_pick"] += 1
    if b["cargo_pick"] == 2 or not cargo_items(ctx):
        b["cargo_hits"] -= 1
        b["cargo_pick"] = 0
        if not b["cargo_hits"] or not cargo_items(ctx):
            b["cargo_hits"] = 0
            b["step"] = "sea"
    _auto_cargo(ctx)
    run(ctx)


def _auto_cargo(ctx: Ctx) -> None:
    b = ctx.state.battle
    while b is not None and b["step"] == "cargo" and len(cargo_kinds(ctx)) == 1:
        kind = cargo_kinds(ctx)[0]
        _lose(ctx, kind)
        b["cargo_pick"] += 1
        if b["cargo_pick"] == 2 or not cargo_items(ctx):
            b["cargo_hits"] -= 1
            b["cargo_pick"] = 0
            if not b["cargo_hits"] or not cargo_items(ctx):
                b["cargo_hits"] = 0
                b["step"] = "sea"


def _lose(ctx: Ctx, kind: str) -> None:
    s = ctx.state
    b = s.battle
    if kind == "supply":
        left = 5
        stacks = s.convoy_supply[b["target"]]
        for p in sorted(cargo_supply(ctx), key=lambda p: -stacks[p]):
            take = min(left, stacks[p])
            stacks[p] -= take
            left -= take
        ctx.log("battle", f"A transport goes down with {5 - left} supply.")
        return
    u = min((u for u in cargo_units(ctx) if fam(u) == kind), key=lambda x: (chart()[x.type].cost or 0, x.id))
    s.units.remove(u)
    ctx.log("battle", f"A transport goes down with {chart()[u.type].name} ({u.id}).")


def _escape(ctx: Ctx, units: list[Unit], supply: int) -> None:
    b = ctx.state.battle
    b["escaped"] += [u.id for u in units]
    stacks = ctx.state.convoy_supply.get(b["target"], {})
    for p in sorted(cargo_supply(ctx), key=lambda p: -stacks[p]):
        take = min(supply, stacks[p])
        stacks[p] -= take
        b["escaped_supply"][p] = b["escaped_supply"].get(p, 0) + take
        supply -= take
    ctx.log("battle", f"A transport escapes the battle in {ctx.name(b['target'])} (L823).")


def escape(ctx: Ctx, order: Escape) -> None:
    """Up to 2 cargo items escape: land units, or 5 supply (all if fewer) per item (L823)."""
    b = ctx.state.battle
    pool = cargo_units(ctx)
    chosen: list[Unit] = []
    supply = 0
    for word, n in order.units.items():
        if word == "supply":
            supply = min(5 * n, sum(cargo_supply(ctx).values()))
            continue
        fit = [u for u in pool if fam(u) == word and u not in chosen]
        if len(fit) < n:
            raise refuse(R_ESCAPE, f"The convoy holds {len(fit)} {word.replace('_', ' ')}, not {n}.")
        chosen += fit[:n]
    if len(chosen) + order.units.get("supply", 0) > 2:
        raise refuse(R_ESCAPE, "One transport escapes: at most 2 items (a land unit, or 5 supply each).")
    _escape(ctx, chosen, supply)
    b["step"] = "sea"
    run(ctx)


# ------------------------------------------------------------------ step 5 and the end


def _can_hit(ctx: Ctx, firing: list[Unit], attacking: bool) -> bool:
    b = ctx.state.battle
    targets = defenders(ctx) if attacking else attackers(ctx)
    fams = {fam(u) for u in targets} | ({"transport"} if attacking and cargo_items(ctx) else set())
    for u in firing:
        kind = "sub" if fam(u) == "submarine" else ("air" if chart()[u.type].kind == "air" else "other")
        value = chart()[u.type].attack if attacking else chart()[u.type].defense
        if value and any(f == "transport" or _allowed_for(ctx, b, kind, f, attacking) for f in fams):
            return True
    return False


def _allowed_for(ctx: Ctx, b: dict[str, Any], kind: str, family: str, attacking: bool) -> bool:
    saved = b.get("taker")
    b["taker"] = "def" if attacking else "att"
    try:
        return _allowed(ctx, kind, family)
    finally:
        b["taker"] = saved


def _round_end(ctx: Ctx) -> None:
    """Step 5: the battle ends when no unit left on either side can fire at a valid target
    (L831; RULINGS: A31); otherwise the attacker presses on (free at sea) or ceases (L833)."""
    b = ctx.state.battle
    att, dfn = attackers(ctx), defenders(ctx)
    if not att or not (dfn or cargo_items(ctx)) or not (_can_hit(ctx, att, True) or _can_hit(ctx, dfn, False)):
        conclude(ctx)
        return
    b["step"] = "sea_press"


def press(ctx: Ctx) -> None:
    b = ctx.state.battle
    b["round"] += 1
    b["stage"] = "subs_att"
    b["step"] = "sea"
    b["fired"] = []
    ctx.log("battle", f"The attacker presses on in {ctx.name(b['target'])}.")
    run(ctx)


def conclude(ctx: Ctx) -> None:
    """Step 6: the attackers stay in the zone, with the defenders after a cease; escaped
    cargo rejoins its convoy (L823, L851)."""
    s = ctx.state
    b = s.battle
    for p, n in b["escaped_supply"].items():
        s.convoy_supply.setdefault(b["target"], {})[p] = s.convoy_supply.get(b["target"], {}).get(p, 0) + n
    stacks = s.convoy_supply.get(b["target"], {})
    for p in [p for p, n in stacks.items() if not n]:
        del stacks[p]
    target = b["target"]
    s.attacks = [a for a in s.attacks if a["target"] != target]
    s.battle = None
    ctx.log("battle", f"The sea battle in {ctx.name(target)} is over.")
