"""Phase 3: Combat Move and Attack Declaration, land units (L622-722).

Combat moves of land units (L636-640), blitzing (L644-648) and the declaration of land
attacks with their supply cost (L694-722). Air and sea moves are in ``air`` and
``sea_move``, land mines going off after the declarations (L722) and under blitzers as they
cross (L962) in ``mines``.
"""

from __future__ import annotations

from math import ceil

from engine.games.aa_na.context import Ctx, chart, has, listing, refuse
from engine.games.aa_na.orders import Blitz, Declare, Move
from engine.games.aa_na.state import SIDE, Unit

R_MOVE = "North Africa: Phase 3, Land Unit Movement (L636-640)"
R_SPACES = "North Africa: Spaces on the Game Board (L473-547)"
R_POSITION = "North Africa: Phase 3, attack position (L626)"
R_STACK = "North Africa: Stacking Limits (L487-491)"
R_DECLARE = "North Africa: Declaration of Attacks (L688-692, L704-722)"
R_SUPPLY = "North Africa: Supply Tokens, declaring an attack (L700-716)"
R_ORDER = "North Africa: Phase 3, combat movement before declarations (L634)"
R_BLITZ = "North Africa: Tanks, Mechanized Infantry, and Blitzing (L634, L644-648)"
R_MAT = "North Africa: Morocco, Algeria and Tunisia (L477, L1006-1046)"
R_TORCH = "North Africa: Special Rules for the Scenarios, round 7 (L1034-1035, L1052-1055)"


def can_combat_move(u: Unit) -> bool:
    """AAA and trucks never move in this phase (L640)."""
    row = chart()[u.type]
    return row.kind == "land" and row.combat and not has(u.type, "Noncombat Move Only")


def can_attack(u: Unit) -> bool:
    row = chart()[u.type]
    return row.kind == "land" and row.combat and not has(u.type, "Cannot Attack")


def is_scout(u: Unit) -> bool:
    return chart()[u.type].type == "scout_car"


def _attacking_ids(ctx: Ctx) -> set[str]:
    return {i for a in ctx.state.attacks for i in a["units"]}


def pick(ctx: Ctx, at: str, units: dict[str, int], ids: list[str], rule: str, ok) -> list[Unit]:
    """The active power's units in ``at`` named by an order; ``ok`` says which may act."""
    power = ctx.power
    here = [u for u in ctx.units_at(at) if ctx.mine(u)]
    torch = next((a for a in ctx.state.scenario_attacks if a["target"] == at), None)
    if torch:  # the landing force itself stays put; air units that attacked there may land
        here = [u for u in here if u.airborne or ctx.kind(u) != "land" or u.power not in torch["powers"]]
        if not here:
            raise refuse(R_TORCH, f"The landing forces in {ctx.name(at)} attack only there, in Phase 4 of the "
                         "United States' turn (L1034-1035, L1052-1055).")
    chosen: list[Unit] = []
    for i in ids:
        u = next((x for x in here if x.id == i), None)
        if u is None:
            raise refuse(rule, f"{ctx.who(power)} has no unit {i} in {ctx.name(at)}.")
        if not ok(u):
            raise refuse(rule, f"{u.id} ({chart()[u.type].name}) may not do that.")
        chosen.append(u)
    for word, n in units.items():
        tid = f"{power}.{word}" if "." not in word else word
        fit = [u for u in here if u.type == tid and u not in chosen and ok(u)]
        if len(fit) < n:
            named = chart()[tid].name if tid in chart() else word
            raise refuse(rule, f"{ctx.name(at)} holds {len(fit)} {named} of {ctx.who(power)} that may do that, not {n}.")
        chosen += fit[:n]
    return chosen


def _check_space(ctx: Ctx, space: str, movers: list[Unit], rule: str) -> None:
    sp = ctx.board.spaces[space]
    if sp.kind != "territory":
        raise refuse(R_SPACES, f"Land units may not enter {ctx.name(space)}: it is a sea zone (L505).")
    if sp.impassable:
        raise refuse(R_SPACES, f"{ctx.name(space)} is impassable (L475).")
    if sp.sahara and not all(has(u.type, "Sahara Desert Movement") for u in movers):
        raise refuse(R_SPACES, f"Only scout cars may enter {ctx.name(space)}, a Sahara territory (L547).")
    if sp.mat and not ctx.mat_open(ctx.side):
        raise refuse(R_MAT, f"{ctx.name(space)} lies west of the white line: the scenario keeps "
                     f"{ctx.side} out of it in round {ctx.state.round}.")
    if sp.permanent and SIDE[sp.permanent] != ctx.side:
        raise refuse(R_SPACES, f"{ctx.name(space)} bears an enemy emblem: enemy land units never invade it (L475).")


def targets(ctx: Ctx, at: str, scouts_only: bool) -> list[str]:
    """Territories next to ``at`` its land units may attack: hostile ones, and for scout
    cars neutral ones holding supply (L700-702); never Sahara but by scouts (L547), never
    an enemy emblem's territory (L475), and west of the white line only when the scenario
    allows (L477)."""
    out = []
    for t in sorted(ctx.board.neighbours(at)):
        sp = ctx.board.spaces[t]
        if sp.kind != "territory" or sp.impassable:
            continue
        if sp.sahara and not scouts_only:
            continue
        if sp.permanent and SIDE[sp.permanent] != ctx.side:
            continue
        if sp.mat and not ctx.mat_open(ctx.side):
            continue
        if ctx.hostile(t, ctx.side) or (scouts_only and ctx.neutral(t) and ctx.state.supply.get(t, 0) > 0):
            out.append(t)
    return out


def supply_within(ctx: Ctx, at: str) -> int:
    """Supply the side may spend for an attack from ``at``: in ``at`` or a friendly or
    neutral territory next to it (L704)."""
    total = 0
    for t in (at, *ctx.board.neighbours(at)):
        if ctx.board.spaces[t].kind == "territory" and ctx.supply_usable(t, ctx.side):
            total += ctx.state.supply.get(t, 0)
    return total


def _token_places(ctx: Ctx, at: str) -> list[str]:
    """Where tokens for an attack from ``at`` may come from, the source first (L704)."""
    out = []
    for t in (at, *sorted(ctx.board.neighbours(at))):
        if ctx.board.spaces[t].kind == "territory" and ctx.supply_usable(t, ctx.side) and ctx.state.supply.get(t, 0):
            out.append(t)
    return out


def payable(ctx: Ctx, needs: dict[str, int], supply: dict[str, int] | None = None) -> bool:
    """Whether every source in ``needs`` (source -> tokens) can be paid at once from the
    tokens within its reach, no token counted twice (RULINGS: A23). A small matching of
    tokens to needs, by augmenting paths."""
    supply = dict(ctx.state.supply if supply is None else supply)
    slots = [(src, i) for src, n in needs.items() for i in range(n)]
    tokens = [(t, k) for t, v in supply.items() for k in range(v)]
    reach = {src: set(_token_places(ctx, src)) for src in needs}
    owner: dict[tuple[str, int], tuple[str, int]] = {}
    return all(_augment(slot, set(), tokens, reach, owner) for slot in slots)


def _augment(slot, seen, tokens, reach, owner) -> bool:
    """An augmenting path for ``slot`` in :func:`payable`'s matching. (A module function:
    a nested function calling itself is a reference cycle, freed only by the cycle
    collector, whose passes then stall a busy bot process.)"""
    for tok in tokens:
        if tok[0] in reach[slot[0]] and tok not in seen:
            seen.add(tok)
            if tok not in owner or _augment(owner[tok], seen, tokens, reach, owner):
                owner[tok] = slot
                return True
    return False


def open_needs(ctx: Ctx, extra: dict[str, list[Unit]] | None = None) -> dict[str, int]:
    """Supply still owed by units that combat moved and have no declared attack yet, by
    the territory they stand in (only where a target holds enemy combat units costs)."""
    busy = _attacking_ids(ctx)
    groups: dict[str, list[Unit]] = {}
    for u in ctx.state.units:
        if ctx.mine(u) and u.moved and u.id not in busy and not u.blitz and not is_scout(u) and ctx.kind(u) == "land":
            groups.setdefault(u.at, []).append(u)
    for at, us in (extra or {}).items():
        groups.setdefault(at, []).extend(x for x in us if not is_scout(x))
    return {at: ceil(len(us) / 5) for at, us in groups.items() if us}


def in_attack_position(ctx: Ctx, at: str, units: list[Unit]) -> bool:
    """Next to a hostile territory with supply enough to declare the attack; scout cars
    also next to a neutral territory holding supply, and pay nothing (L626, L714)."""
    if all(is_scout(u) for u in units):
        return bool(targets(ctx, at, True))
    if not targets(ctx, at, False):
        return False
    need = ceil(sum(1 for u in units if not is_scout(u)) / 5)
    return supply_within(ctx, at) >= need


def move(ctx: Ctx, order: Move) -> None:
    """A combat move of land units: a path of at most MOV - 1 spaces, since the attack
    takes the last point (L636-638), through friendly or neutral territories and ending
    in one (L628), in attack position (L626), under the stacking limit (L487-491)."""
    moves_first(ctx)
    if order.cargo:
        raise refuse("North Africa: Trucks, Land Transport (L1213)", "Trucks carry cargo only in the Noncombat Move phase.")
    path = [ctx.find(w, R_MOVE) for w in order.path]
    start, end = path[0], path[-1]
    movers = pick(ctx, start, order.units, order.ids, R_MOVE, lambda u: can_combat_move(u) and not u.moved)
    if not movers:
        raise refuse(R_MOVE, "Name the units to move.")
    steps = len(path) - 1
    for u in movers:
        mov = chart()[u.type].movement
        if steps > mov - 1:
            raise refuse(R_MOVE, f"{chart()[u.type].name} ({u.id}) moves {mov}: it may combat move at most "
                         f"{max(mov - 1, 0)} space(s), keeping 1 to attack (L636-638).")
    for a, b in zip(path, path[1:], strict=False):
        if not ctx.board.adjacent(a, b):
            raise refuse(R_MOVE, f"{ctx.name(a)} does not border {ctx.name(b)}.")
        _check_space(ctx, b, movers, R_MOVE)
        if b in ctx.state.blitzed:
            raise refuse(R_BLITZ, f"{ctx.name(b)} was captured by blitzing units this phase: no other land "
                         "unit combat moves into or through it (L634).")
        if not (ctx.friendly(b, ctx.side) or ctx.neutral(b)):
            raise refuse(R_MOVE, f"{ctx.name(b)} is hostile: land units combat move only through and into "
                         "friendly or neutral territories, and attack from next door (L628).")
    combat = [u for u in movers if chart()[u.type].combat]
    if ctx.stacked(end, ctx.side) + len(combat) > ctx.limit(end):
        raise refuse(R_STACK, f"{ctx.name(end)} takes at most {ctx.limit(end)} combat land and air units of a side; "
                     f"{ctx.stacked(end, ctx.side)} are there.")
    old = [(u, u.at) for u in movers]
    for u in movers:
        u.at = end
    if not in_attack_position(ctx, end, movers) or not payable(ctx, open_needs(ctx, {end: movers})):
        for u, at in old:
            u.at = at
        raise refuse(R_POSITION, f"{ctx.name(end)} is not an attack position for these units: no hostile "
                     "territory next to it, or not enough supply within reach to declare the attack (with the "
                     "units already moved there or nearby).")
    for u in movers:
        u.moved = steps
        u.path = list(path)
    keep_positions(ctx)
    trucks = capture_trucks(ctx, end)  # ending a move with enemy trucks captures them (L746)
    text = f"{ctx.who(ctx.power)} combat moves {len(movers)} unit(s) from {ctx.name(start)} to {ctx.name(end)}"
    text += f", capturing {trucks} enemy truck(s)." if trucks else "."
    ctx.log("move", text, units=[u.id for u in movers], path=path)


def moves_first(ctx: Ctx) -> None:
    """All combat movement is completed before any attack is declared (L634)."""
    if ctx.state.attacks:
        raise refuse(R_ORDER, "Attacks have been declared: all combat movement comes before the first declaration.")


def blitz(ctx: Ctx, order: Blitz) -> None:
    """A tank with Blitz spends its first movement point entering an adjacent hostile
    territory with no enemy combat units, taking control of it at once, or an adjacent
    neutral territory holding enemy trucks; trucks there are captured. It may then stay
    to attack, or spend its second point entering an adjacent friendly or neutral
    territory. One mechanized infantry may go with each tank (L644-648, L1111, L1191;
    RULINGS: A21)."""
    s = ctx.state
    side = ctx.side
    moves_first(ctx)
    path = [ctx.find(w, R_BLITZ) for w in order.path]
    start, step1 = path[0], path[1]
    movers = pick(ctx, start, order.units, order.ids, R_BLITZ,
                  lambda u: not u.moved and chart()[u.type].type in ("tank", "mech_infantry"))
    tanks = [u for u in movers if chart()[u.type].type == "tank"]
    mechs = [u for u in movers if chart()[u.type].type == "mech_infantry"]
    if not tanks or any(not has(u.type, "Blitz") or chart()[u.type].movement < 2 for u in tanks):
        raise refuse(R_BLITZ, "Only tanks with the Blitz characteristic blitz.")
    if len(mechs) > len(tanks):
        raise refuse(R_BLITZ, "At most 1 mechanized infantry goes with each blitzing tank (L648).")
    if not ctx.board.adjacent(start, step1):
        raise refuse(R_BLITZ, f"{ctx.name(start)} does not border {ctx.name(step1)}.")
    _check_space(ctx, step1, movers, R_BLITZ)
    enemy_trucks = [u for u in ctx.units_at(step1) if SIDE[u.power] != side and not ctx.is_combat(u)]
    empty_hostile = ctx.hostile(step1, side) and not ctx.enemy_combat_units(step1, side)
    if not (empty_hostile or (ctx.neutral(step1) and enemy_trucks)):
        raise refuse(R_BLITZ, f"{ctx.name(step1)} is not a hostile territory without enemy combat units, nor a "
                     "neutral one holding enemy trucks.")
    if step1 in s.blitzed:
        raise refuse(R_BLITZ, f"{ctx.name(step1)} was already blitzed this phase (L634).")
    end = path[-1]
    if len(path) == 3:
        if not ctx.board.adjacent(step1, end):
            raise refuse(R_BLITZ, f"{ctx.name(step1)} does not border {ctx.name(end)}.")
        _check_space(ctx, end, movers, R_BLITZ)
        if not (ctx.friendly(end, side) or ctx.neutral(end)) or end in s.blitzed:
            raise refuse(R_BLITZ, f"The second step goes into a friendly or neutral territory; {ctx.name(end)} is not one.")
    if ctx.stacked(end, side) + len(movers) > ctx.limit(end):
        raise refuse(R_STACK, f"{ctx.name(end)} takes at most {ctx.limit(end)} combat land and air units of a side.")
    from engine.games.aa_na import mines

    if mines.blitz_mines(ctx, movers, path):  # the owner decides before anything is captured (L962)
        return
    complete_blitz(ctx, movers, path)


def complete_blitz(ctx: Ctx, movers: list[Unit], path: list[str]) -> None:
    """The blitzers not turned back by mines enter, capture and go on (L644-648, L962)."""
    s = ctx.state
    start, step1, end = path[0], path[1], path[-1]
    # capture: the marker changes at once where the territory can be controlled (L485, L644)
    if ctx.board.spaces[step1].rp and ctx.controller(step1) != ctx.power:
        s.control[step1] = ctx.power
    captured = capture_trucks(ctx, step1)
    s.blitzed.append(step1)
    for u in movers:
        u.at = end
        u.moved = len(path) - 1
        u.path = list(path)
        u.blitz = True
    if end != step1:
        captured += capture_trucks(ctx, end)  # ending the move there captures them too (L746)
    keep_positions(ctx)
    text = f"{ctx.who(ctx.power)} blitzes {len(movers)} unit(s) from {ctx.name(start)} into {ctx.name(step1)}"
    text += f" and on to {ctx.name(end)}." if len(path) == 3 else "."
    if captured:
        text += f" {captured} enemy truck(s) captured."
    ctx.log("blitz", text, units=[u.id for u in movers], path=path)


def capture_trucks(ctx: Ctx, territory: str) -> int:
    """Enemy trucks in ``territory`` are captured: Allied trucks change owner, Axis trucks
    are replaced by the captor's own truck while one is left in its pool, or destroyed
    (Capturing Trucks, L744-748)."""
    s = ctx.state
    power = ctx.power
    trucks = [u for u in ctx.units_at(territory) if SIDE[u.power] != ctx.side and not ctx.is_combat(u)]
    for u in trucks:
        if SIDE[u.power] == "allies":
            u.power = power
            u.captured = True
            continue
        s.units.remove(u)
        mine = f"{power}.truck"
        row = chart().get(mine)
        used = sum(1 for x in s.units if x.type == mine) + s.reserves.get(power, {}).get(mine, 0)
        if row is not None and used < row.pieces:
            t = s.new_unit(mine, power, territory)
            t.captured = True
    return len(trucks)


def declare(ctx: Ctx, order: Declare) -> None:
    """Declare a land attack from ``source`` on an adjacent ``target`` (L702-722). If the
    target holds enemy combat units the attack costs 1 supply token per 5 attacking units
    or fraction, scout cars not counted, taken from the source or a friendly or neutral
    territory next to it (L704, L710); all-scout attacks and attacks on territories
    without enemy combat units pay nothing, and may not pay (L714-716)."""
    s = ctx.state
    src = ctx.find(order.source, R_DECLARE)
    tgt = ctx.find(order.target, R_DECLARE)
    if not ctx.board.adjacent(src, tgt):
        raise refuse(R_DECLARE, f"{ctx.name(tgt)} does not border {ctx.name(src)}: land units attack only an adjacent territory (L702).")
    busy = _attacking_ids(ctx)
    ok = lambda u: can_attack(u) and u.id not in busy  # noqa: E731
    if order.units or order.ids:
        units = pick(ctx, src, order.units, order.ids, R_DECLARE, ok)
    else:
        units = [u for u in ctx.units_at(src) if ctx.mine(u) and ok(u)]
    if not units:
        raise refuse(R_DECLARE, f"{ctx.who(ctx.power)} has no unit in {ctx.name(src)} free to attack.")
    scouts_only = all(is_scout(u) for u in units)
    if tgt not in targets(ctx, src, scouts_only):
        raise refuse(R_DECLARE, f"{ctx.name(tgt)} may not be attacked by these units from {ctx.name(src)}.",
                     f"Targets: {listing(ctx.name(t) for t in targets(ctx, src, scouts_only))}.")
    # a territory whose only combat units are AAA has no actual combat (L734; RULINGS: A22)
    enemies = [u for u in ctx.enemy_combat_units(tgt, ctx.side) if not has(u.type, "No Defense Value")]
    cost = ceil(sum(1 for u in units if not is_scout(u)) / 5) if enemies else 0
    if cost == 0 and order.pay:
        raise refuse(R_SUPPLY, "This attack costs no supply, and none may be spent on it (L714-716); "
                     "the arrow comes from the pool.")
    if order.pay:
        pay = [ctx.find(w, R_SUPPLY) for w in order.pay]
    else:  # the source's own tokens first, then its neighbours' in order (RULINGS: payment)
        pay = []
        for t in _token_places(ctx, src):
            pay += [t] * min(s.supply.get(t, 0), cost - len(pay))
        pay = pay if len(pay) == cost else [src] * cost
    if len(pay) != cost:
        raise refuse(R_SUPPLY, f"This attack costs exactly {cost} supply token(s) ({len(units)} attacking units, "
                     "1 per 5 or fraction, scout cars not counted); no more may be spent (L700, L710).")
    want: dict[str, int] = {}
    for t in pay:
        want[t] = want.get(t, 0) + 1
    for t, n in want.items():
        if t != src and not ctx.board.adjacent(src, t):
            raise refuse(R_SUPPLY, f"Supply for an attack from {ctx.name(src)} comes from it or a territory next to it (L710).")
        if ctx.board.spaces[t].kind != "territory" or not ctx.supply_usable(t, ctx.side):
            raise refuse(R_SUPPLY, f"The supply in {ctx.name(t)} is not {ctx.side}'s to use (L700).")
        if s.supply.get(t, 0) < n:
            raise refuse(R_SUPPLY, f"This attack costs {cost} supply token(s) ({len(units)} attacking units, 1 per 5 "
                         f"or fraction, scout cars not counted); {ctx.name(t)} holds {s.supply.get(t, 0)}, not {n}.",
                         f"Supply within reach of {ctx.name(src)}: {supply_within(ctx, src)}.")
    left = dict(s.supply)
    for t, n in want.items():
        left[t] -= n
    declared = {u.id for u in units}
    still = [u for u in s.units if ctx.mine(u) and u.moved and u.id not in _attacking_ids(ctx)
             and u.id not in declared and not u.blitz and not is_scout(u) and ctx.kind(u) == "land"]
    others = {}
    for u in still:
        others[u.at] = others.get(u.at, 0) + 1
    if not payable(ctx, {at: ceil(n / 5) for at, n in others.items()}, left):
        raise refuse(R_SUPPLY, "Paying this way would leave units that combat moved without the supply to "
                     "declare their own attack (L688); pay from elsewhere ('pay SPACE ...').")
    before = dict(s.supply)
    for t, n in want.items():
        s.supply[t] -= n
        if not s.supply[t]:
            del s.supply[t]
    stranded = [u for u in s.units if ctx.mine(u) and u.moved and u.id not in _attacking_ids(ctx)
                and u.id not in declared and not u.blitz and is_scout(u) and not targets(ctx, u.at, True)]
    if stranded:
        s.supply = before
        raise refuse(R_SUPPLY, "Paying this way would leave scout cars that combat moved with nothing to attack "
                     "(L688); pay from elsewhere ('pay SPACE ...').")
    a = {
        "id": len(s.attacks) + 1,
        "source": src,
        "target": tgt,
        "units": [u.id for u in units],
        "paid": cost,
        "combat": bool(enemies),
    }
    s.attacks.append(a)
    s.engaged += a["units"]
    text = f"{ctx.who(ctx.power)} declares an attack on {ctx.name(tgt)} from {ctx.name(src)} with {len(units)} unit(s)"
    text += f", spending {cost} supply." if cost else " (no supply needed)."
    ctx.log("declare", text, **a)


def keep_positions(ctx: Ctx) -> None:
    """No move or blitz may take away the target of units that already moved to attack it
    (a blitz capturing it, scout cars making a neutral territory friendly): they would be
    left with a combat move and no attack (L624, L688)."""
    busy = _attacking_ids(ctx)
    groups: dict[str, list[Unit]] = {}
    for u in ctx.state.units:
        if ctx.mine(u) and u.moved and u.id not in busy and not u.blitz and ctx.kind(u) == "land":
            groups.setdefault(u.at, []).append(u)
    for at, us in groups.items():
        if not in_attack_position(ctx, at, us):
            raise refuse(R_POSITION, f"This would leave the units that moved to {ctx.name(at)} with nothing to "
                         "attack: every combat move ends in an attack (L624, L688).")


def check_done(ctx: Ctx) -> None:
    """Every land unit that combat moved must be in a declared attack (L688)."""
    busy = _attacking_ids(ctx)
    loose = [
        u
        for u in ctx.state.units
        if ctx.mine(u) and u.moved and u.id not in busy and ctx.kind(u) == "land"
        # a blitzer that moved on, or stopped where it cannot attack, need not attack (L646, L688)
        and not (u.blitz and (u.moved == 2 or not in_attack_position(ctx, u.at, [u])))
    ]
    if loose:
        raise refuse(R_DECLARE, "Land units that combat moved must attack: "
                     f"{listing(f'{u.id} in {ctx.name(u.at)}' for u in loose)} have no declared attack (L688).")


def legal_moves(ctx: Ctx):
    """One-unit-type combat moves, each as ``move 1 TYPE FROM ... TO``."""
    from engine.games.aa_na.orders import Move as M

    seen = set()
    for u in ctx.state.units:
        if u.power != ctx.power or u.moved or not can_combat_move(u):
            continue
        mov = chart()[u.type].movement - 1
        if mov < 1:
            continue
        frontier = {u.at: [u.at]}
        for _ in range(mov):
            nxt = {}
            for at, path in frontier.items():
                for b in sorted(ctx.board.neighbours(at)):
                    if b in path or b in nxt:
                        continue
                    try:
                        _check_space(ctx, b, [u], R_MOVE)
                    except Exception:  # noqa: BLE001 - a refused space is simply not a path
                        continue
                    if ctx.friendly(b, ctx.side) or ctx.neutral(b):
                        nxt[b] = [*path, b]
            for b, path in nxt.items():
                key = (u.type, tuple(path))
                if ctx.stacked(b, ctx.side) >= ctx.limit(b) or not in_attack_position(ctx, b, [u]):
                    continue
                if key not in seen:
                    seen.add(key)
                    yield M(units={u.type.split(".", 1)[1] if u.power == ctx.power else u.type: 1}, path=path)
            frontier = nxt


def legal_blitzes(ctx: Ctx):
    from engine.games.aa_na.orders import Blitz as B

    seen = set()
    for u in ctx.state.units:
        if u.power != ctx.power or u.moved or chart()[u.type].type != "tank" or not has(u.type, "Blitz"):
            continue
        for a in sorted(ctx.board.neighbours(u.at)):
            for tail in ([], *([b] for b in sorted(ctx.board.neighbours(a)) if b != u.at)):
                key = (u.type, u.at, a, *tail)
                if key in seen:
                    continue
                seen.add(key)
                yield B(units={u.type.split(".", 1)[1]: 1}, path=[u.at, a, *tail])


def legal_declarations(ctx: Ctx):
    """Per source and target: every free unit, and (if different) only the units that
    combat moved there; the rules engine filters out what cannot be paid."""
    busy = _attacking_ids(ctx)
    for src in sorted({u.at for u in ctx.state.units if ctx.mine(u)}):
        free = [u for u in ctx.units_at(src) if ctx.mine(u) and can_attack(u) and u.id not in busy]
        if not free:
            continue
        moved = [u for u in free if u.moved]
        for group in ([free, moved] if moved and len(moved) < len(free) else [free]):
            scouts = all(is_scout(u) for u in group)
            for t in targets(ctx, src, scouts):
                if group is free:
                    yield Declare(source=src, target=t)
                else:
                    yield Declare(source=src, target=t, ids=sorted((u.id for u in group), key=lambda i: int(i[1:])))
