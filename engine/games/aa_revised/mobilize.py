"""Phase 6, Mobilize New Units (Revised; Appendix 1, Industrial Complexes).

Units bought this turn are placed at industrial complexes the power has controlled since
the start of its turn, up to each territory's income value: land units and bombers in
the territory, ships in an adjacent sea zone (even a hostile one: no combat follows),
fighters in the territory or aboard a carrier built this turn. Fighters already in the
territory of the complex that built a carrier, or in its sea zone, may go aboard it
(FAQ: Mobilize Units, allies' fighters too). A new industrial complex
goes in any territory worth at least 1 that the power has held since the start of its
turn, one per territory; it produces from the next turn. Units left unplaced are lost
(FAQ: Mobilize Units).
"""

from __future__ import annotations

from engine.games.aa_revised import air
from engine.games.aa_revised.context import Ctx, count_text, listing, refuse, units_phrase
from engine.games.aa_revised.orders import Move, Place
from engine.games.aa_revised.state import POWER_NAME, SIDE, uid_key

R_MOB = "Revised: Phase 6, Mobilize New Units"


def eligible_ics(ctx: Ctx, power: str | None = None) -> list[str]:
    """Industrial complexes ``power`` may place at now (MOB-01; RULINGS Q-14)."""
    s = ctx.state
    power = power or s.power
    out = []
    for t in s.ics:
        if t in s.fresh:
            continue
        owner = s.control[t]
        start = s.start_control.get(t, owner)
        if owner == power and start == power:
            out.append(t)
        elif (
            ctx.opts.allied_ic_when_capital_lost == "literal"
            and SIDE[owner] == SIDE[power]
            and owner != power
            and start == owner
            and not ctx.capital_held(owner)
        ):
            out.append(t)
    return sorted(out)


def room(ctx: Ctx, ic: str) -> int:
    return ctx.geo.ipc[ic] - ctx.state.placed.get(ic, 0)


def capacity_left(ctx: Ctx) -> int:
    return sum(max(0, room(ctx, t)) for t in eligible_ics(ctx))


def new_carrier_room(ctx: Ctx, zone: str) -> int:
    s = ctx.state
    power = s.power
    total = 0
    for u in ctx.at(zone):
        if u.type == "carrier" and u.owner == power and u.id in s.fresh:
            total += air.CARRIER_ROOM - sum(1 for x in ctx.at(zone) if x.aboard == u.id)
    return total


def place(ctx: Ctx, order: Place) -> None:
    s = ctx.state
    g = ctx.geo
    power = s.power
    at = order.at
    from engine.games.aa_revised.advantages import chinese_division_sites

    if order.units == {"infantry": 1} and at in chinese_division_sites(ctx):
        _chinese_division(ctx, at)
        return
    for t, n in order.units.items():
        if s.pending.get(t, 0) < n:
            raise refuse(
                R_MOB,
                f"{POWER_NAME[power]} has {s.pending.get(t, 0)} {ctx.info(t).plural.lower()} "
                f"waiting to be placed, not {n}.",
                f"Waiting: {count_text(s.pending)}.",
            )
    if "industrial_complex" in order.units:
        if len(order.units) != 1 or order.units["industrial_complex"] != 1:
            raise refuse(R_MOB, "Place an industrial complex on its own, one per order.")
        _place_ic(ctx, at)
        return
    ics = eligible_ics(ctx)
    if not ics:
        raise refuse(
            R_MOB,
            f"{POWER_NAME[power]} has no industrial complex it has held since the start of "
            "its turn, so it can place nothing.",
        )
    count = sum(order.units.values())
    kinds = {t: ctx.info(t).kind for t in order.units}
    if at in g.land:
        if at not in ics:
            raise refuse(
                R_MOB,
                f"{g.name(at)} has no industrial complex {POWER_NAME[power]} has held since the "
                "start of its turn (one captured or built this turn produces from the next).",
                f"Place at: {listing(g.name(t) for t in ics)}.",
            )
        if any(k == "sea" for k in kinds.values()):
            raise refuse(R_MOB, "Ships are placed in a sea zone next to the industrial complex.",
                         f"Sea zones next to {g.name(at)}: {listing(g.coast[at])}.")  # fmt: skip
        if room(ctx, at) < count:
            raise refuse(
                R_MOB,
                f"The industrial complex in {g.name(at)} mobilizes at most {g.ipc[at]} units a "
                f"turn (its income value) and has room for {room(ctx, at)} more.",
                _elsewhere(ctx, ics),
            )
        ic = at
    else:
        for t, k in kinds.items():
            if k == "land" or t == "bomber":
                raise refuse(
                    R_MOB,
                    f"{ctx.info(t).plural} are placed in the territory of an industrial "
                    "complex, never at sea.",
                    f"Place at: {listing(g.name(t) for t in ics)}.",
                )
        nearby = [t for t in ics if t in g.coast[at]]
        if not nearby:
            raise refuse(
                R_MOB,
                f"{g.name(at)} is not next to an industrial complex {POWER_NAME[power]} may use.",
                "Sea zones you may use: "
                + listing(sorted({z for t in ics for z in g.coast[t]}))
                + ".",
            )
        fighters = order.units.get("fighter", 0)
        carriers = order.units.get("carrier", 0)
        if fighters > carriers * air.CARRIER_ROOM + new_carrier_room(ctx, at):
            raise refuse(
                R_MOB,
                "New fighters go to sea only aboard carriers built this turn, two to a carrier "
                "(FAQ: Mobilize Units).",
                "Place the carrier first, or place the fighters in the territory.",
            )
        nearby.sort(key=lambda t: (-room(ctx, t), t))
        ic = nearby[0]
        if room(ctx, ic) < count:
            raise refuse(
                R_MOB,
                f"The industrial complexes next to {g.name(at)} have room for "
                f"{room(ctx, ic)} more units this turn, not {count}.",
                _elsewhere(ctx, ics),
            )
    _put(ctx, order.units, at, ic)


def _chinese_division(ctx: Ctx, at: str) -> None:
    """Chinese Divisions (Appendix 3): one free U.S. infantry a round in China, Sinkiang,
    Kwangtung or French Indochina, if the U.S. controls it (FAQ: one a round)."""
    s = ctx.state
    u = ctx.new_unit("infantry", "usa", at)
    s.fresh.append(u.id)
    s.na["chinese_division_round"] = s.round
    ctx.log("advantage", f"Chinese Divisions: a free U.S. infantry is raised in {ctx.geo.name(at)}.",
            at=at)  # fmt: skip


def _elsewhere(ctx: Ctx, ics: list[str]) -> str:
    rooms = [f"{ctx.geo.name(t)} {room(ctx, t)}" for t in ics if room(ctx, t) > 0]
    return f"Room left: {listing(rooms)}." if rooms else "No industrial complex has room left."


def _put(ctx: Ctx, counts: dict[str, int], at: str, ic: str) -> None:
    s = ctx.state
    power = s.power
    new = []
    order = sorted(counts, key=lambda t: t != "carrier")
    for t in order:
        for _ in range(counts[t]):
            u = ctx.new_unit(t, power, at)
            s.fresh.append(u.id)
            if t == "carrier":
                s.carrier_ics[u.id] = ic
            new.append(u)
        s.pending[t] -= counts[t]
        if not s.pending[t]:
            del s.pending[t]
    if at in ctx.geo.sea:
        for u in new:
            if u.type == "fighter":
                deck = next(
                    c for c in sorted(ctx.at(at), key=lambda c: uid_key(c.id))
                    if c.type == "carrier" and c.id in s.fresh
                    and sum(1 for x in ctx.at(at) if x.aboard == c.id) < air.CARRIER_ROOM
                )  # fmt: skip
                u.aboard = deck.id
    s.placed[ic] = s.placed.get(ic, 0) + sum(counts.values())
    where = ctx.geo.name(at)
    via = f" (from the industrial complex in {ctx.geo.name(ic)})" if ic != at else ""
    ctx.log("place", f"{POWER_NAME[power]} mobilizes {count_text(counts)} in {where}{via}.",
            at=at, ic=ic, units=[u.id for u in new])  # fmt: skip
    ctx.mark("place", power, [at], count_text(counts))


# ------------------------------------------------------------------ existing fighters


def new_decks(ctx: Ctx, zone: str) -> list:
    """The phasing power's carriers built this turn in ``zone`` with room left."""
    s = ctx.state
    return [
        c for c in sorted(ctx.at(zone), key=lambda c: uid_key(c.id))
        if c.type == "carrier" and c.owner == s.power and c.id in s.fresh
        and air.CARRIER_ROOM - sum(1 for x in ctx.at(zone) if x.aboard == c.id) > 0
    ]  # fmt: skip


def boarding_fighters(ctx: Ctx, start: str, zone: str) -> list:
    """Fighters that may go aboard a carrier built this turn in ``zone`` from ``start``:
    the territory of the complex that built one of them, or ``zone`` itself (fighters
    on other carriers there); any friendly power's, the phasing power's first (FAQ:
    Mobilize Units)."""
    s = ctx.state
    g = ctx.geo
    decks = new_decks(ctx, zone)
    if not decks:
        return []
    sources = {s.carrier_ics.get(c.id) for c in decks} | {zone}
    if start not in sources:
        return []
    new = {c.id for c in decks} | set(s.carrier_ics)
    side = SIDE[s.power]
    out = [
        u for u in ctx.at(start)
        if u.type == "fighter" and SIDE[u.owner] == side
        and (u.aboard is None if start in g.land else u.aboard not in new and u.aboard is not None)
    ]  # fmt: skip
    return sorted(out, key=lambda u: (u.owner != s.power, uid_key(u.id)))


def deck_fighters(ctx: Ctx, order: Move) -> None:
    """Existing fighters go aboard carriers built this turn (FAQ: Mobilize Units): from
    the territory of the industrial complex that built the carrier, or from the sea zone
    it was placed in; an ally's fighters as well (RULINGS R-51)."""
    s = ctx.state
    g = ctx.geo
    if len(order.path) != 2 or order.path[1] not in g.sea:
        raise refuse(
            R_MOB,
            "In the mobilize phase only fighters move, onto a carrier built this turn: "
            "'move N ftr FROM ZONE'.",
            _deck_hint(ctx),
        )
    start, zone = order.path
    decks = new_decks(ctx, zone)
    if not decks:
        raise refuse(
            R_MOB,
            f"No carrier built this turn in {g.name(zone)} has room for a fighter.",
            _deck_hint(ctx),
        )
    pool = boarding_fighters(ctx, start, zone)
    if set(order.units) - {"fighter"}:
        raise refuse(R_MOB, "Only fighters go aboard a new carrier.", _deck_hint(ctx))
    chosen = []
    for uid in order.ids:
        u = s.units.get(uid)
        if u is None or u not in pool:
            raise refuse(
                R_MOB,
                f"{uid} is not a friendly fighter that may board a new carrier from "
                f"{g.name(start)}: fighters come from the territory of the complex that "
                "built the carrier, or from its own sea zone (FAQ: Mobilize Units).",
                _deck_hint(ctx),
            )
        chosen.append(u)
    want = order.units.get("fighter", 0)
    rest = [u for u in pool if u not in chosen]
    if len(rest) < want:
        raise refuse(
            R_MOB,
            f"{g.name(start)} has {len(rest)} fighter{'s' if len(rest) != 1 else ''} that may "
            f"board the new carriers in {g.name(zone)}, not {want} (fighters come from the "
            "territory of the complex that built the carrier, or from its sea zone).",
            _deck_hint(ctx),
        )
    chosen += rest[:want]
    room = {
        c.id: air.CARRIER_ROOM - sum(1 for x in ctx.at(zone) if x.aboard == c.id) for c in decks
    }
    if len(chosen) > sum(room.values()):
        raise refuse(
            R_MOB,
            f"The new carriers in {g.name(zone)} have room for {sum(room.values())} more "
            "fighters, two to a carrier.",
        )
    for u in chosen:
        deck = next(c for c in decks if room[c.id] > 0)
        room[deck.id] -= 1
        u.aboard = deck.id
        ctx.place_at(u, zone)
    owners = " and ".join(sorted({POWER_NAME[u.owner] for u in chosen}))
    ctx.log(
        "place",
        f"{units_phrase(chosen).capitalize()} ({owners}) in {g.name(start)} "
        f"go{'es' if len(chosen) == 1 else ''} aboard the new carrier"
        f"{'s' if len(decks) > 1 else ''} in {g.name(zone)}.",
        units=[u.id for u in chosen],
        path=[start, zone],
    )
    ctx.mark("move", s.power, [start, zone] if start != zone else [zone], units_phrase(chosen))


def deck_moves(ctx: Ctx):
    """One-fighter moves onto new carriers, for the list of legal orders."""
    s = ctx.state
    zones = sorted({ctx.state.units[c].at for c in s.carrier_ics if c in s.units})
    for zone in zones:
        decks = new_decks(ctx, zone)
        for start in sorted({s.carrier_ics.get(c.id) for c in decks} | {zone}):
            if start and boarding_fighters(ctx, start, zone):
                yield Move(units={"fighter": 1}, path=[start, zone])


def _deck_hint(ctx: Ctx) -> str:
    moves = [m.text() for m in deck_moves(ctx)]
    return f"Possible: {listing(moves)}." if moves else "No fighter can board a new carrier now."


def ic_sites(ctx: Ctx) -> list[str]:
    s = ctx.state
    power = s.power
    return sorted(
        t for t, p in s.control.items()
        if p == power and s.start_control.get(t) == power and ctx.geo.ipc[t] >= 1
        and t not in s.ics
    )  # fmt: skip


def _place_ic(ctx: Ctx, at: str) -> None:
    s = ctx.state
    g = ctx.geo
    power = s.power
    if at not in ic_sites(ctx):
        if at in s.ics:
            why = f"{g.name(at)} already has an industrial complex; one per territory."
        elif at not in g.land:
            why = "An industrial complex goes in a territory, not at sea."
        elif g.ipc.get(at, 0) < 1:
            why = f"{g.name(at)} has no income value; a complex needs a territory worth 1 or more."
        else:
            why = (
                f"{POWER_NAME[power]} has not controlled {g.name(at)} since the start of its turn."
            )
        raise refuse(R_MOB, why, f"Possible sites: {listing(g.name(t) for t in ic_sites(ctx))}.")
    s.ics.append(at)
    s.ics.sort()
    s.fresh.append(at)
    s.pending["industrial_complex"] -= 1
    if not s.pending["industrial_complex"]:
        del s.pending["industrial_complex"]
    ctx.log("place", f"{POWER_NAME[power]} builds an industrial complex in {g.name(at)}.", at=at)
    ctx.mark("place", power, [at], "industrial complex")


def placeable_now(ctx: Ctx) -> dict[str, list[str]]:
    """Each unit type waiting to be placed that still has a place, with those places."""
    out: dict[str, list[str]] = {}
    for order in legal_places(ctx):
        for t in order.units:
            out.setdefault(t, []).append(order.at)
    return out


def check_done(ctx: Ctx, confirm: bool) -> None:
    """The player's ``done`` is refused while units waiting to be placed still have room
    at a factory (they would be lost, FAQ: Mobilize Units), unless confirmed (issue 9:
    no work lost silently; RULINGS R-54)."""
    room_for = placeable_now(ctx)
    if confirm or not room_for:
        return
    s = ctx.state
    g = ctx.geo
    where = "; ".join(
        f"{ctx.info(t).plural.lower()} in {listing(g.name(x) for x in sorted(set(places)))}"
        for t, places in room_for.items()
    )
    t, places = next(iter(room_for.items()))
    example = f"place 1 {ctx.info(t).name.lower().replace(' ', '_')} {sorted(places)[0]}"
    raise refuse(
        R_MOB,
        f"Ending mobilization now would lose {count_text(s.pending)} still waiting to be "
        f"placed, and there is room for them: {where}.",
        f"Place them (e.g. '{example}'), or write 'done confirm' to end the phase and lose them.",
    )


def finish(ctx: Ctx) -> None:
    """End of Phase 6: what is still in the mobilization zone is lost (FAQ)."""
    s = ctx.state
    if s.pending:
        ctx.log(
            "lost",
            f"{POWER_NAME[s.power]} could not place {count_text(s.pending)}; "
            "they are lost (FAQ: Mobilize Units).",
        )
        s.pending = {}


def legal_places(ctx: Ctx):
    from engine.games.aa_revised.orders import Place as P

    s = ctx.state
    g = ctx.geo
    ics = [t for t in eligible_ics(ctx) if room(ctx, t) > 0]
    for t in sorted(s.pending):
        if t == "industrial_complex":
            for site in ic_sites(ctx):
                yield P(units={t: 1}, at=site)
            continue
        kind = ctx.info(t).kind
        if kind == "sea":
            for z in sorted({z for ic in ics for z in g.coast[ic]}):
                yield P(units={t: 1}, at=z)
            continue
        for ic in ics:
            yield P(units={t: 1}, at=ic)
        if t == "fighter":
            for z in sorted({z for ic in ics for z in g.coast[ic]}):
                if new_carrier_room(ctx, z) > 0:
                    yield P(units={t: 1}, at=z)
