"""National Advantages (Revised: Appendix 3, Optional Rules), each a hook the phases
call. An advantage counts only for its own power; one that names a colour ("red
territory") means a territory that power controlled at the start of the game and still
controls.

Here: setup (Colonial Garrison), the start of a turn (the end of a Russian Winter),
before combat (Nonaggression Treaty), after a battle (Salvage, Panzerblitz), on capture
(French Resistance), income (U-Boat Interdiction), Russian Winter's declaration,
Chinese Divisions' sites, Lend-Lease, Mobile Industry, Mideast Oil, Enigma Decoded and
the Joint Strike's declaration (the U.S. commanding U.K. units: ``Ctx.commanded``, used
by :mod:`movement`, :mod:`combat_phase` and :mod:`noncombat`; the casualty agreement in
:mod:`combat_phase`).
Elsewhere: combat values (Russian Winter, Atlantic Wall, Wolf Packs, Fortress Europe,
Dug-In Defenders, Banzai Attacks, Marines, Kamikaze Attacks, Kaiten Torpedoes) in
:mod:`modifiers`; movement (Trans-Siberian Railway, Mechanized Infantry, Fast Carriers,
Tokyo Express, Lightning Assaults, Kamikaze declarations) in :mod:`movement`; Island
Bases in :mod:`air`; Radar and Superfortresses with antiaircraft fire in :mod:`air`;
Luftwaffe Dive-Bombers with the raids in :mod:`bombing`.
"""

from __future__ import annotations

from engine.games.aa_revised import battle as bt
from engine.games.aa_revised.context import Ctx, refuse
from engine.games.aa_revised.options import ADVANTAGES
from engine.games.aa_revised.state import POWER_NAME, SIDE, ActiveBattle

CHINESE_DIVISION_SITES = ("china", "sinkiang", "kwangtung", "french_indochina")


def problems(advantages: dict[str, list[str]]) -> list[str]:
    out = []
    for power, names in advantages.items():
        if power not in ADVANTAGES:
            out.append(f"{power!r} is not a power")
            continue
        for name in names:
            if name not in ADVANTAGES[power]:
                out.append(
                    f"{name!r} is not a national advantage of {POWER_NAME[power]} "
                    f"(they are: {', '.join(ADVANTAGES[power])})"
                )
    return out


def roll_advantages(dice, count: int, chosen: dict[str, list[str]]) -> dict[str, list[str]]:
    """Appendix 3: roll ``count`` advantages per power on the table; a repeat is rolled
    again (RULINGS Q-22)."""
    out = {p: list(v) for p, v in chosen.items()}
    for power, table in ADVANTAGES.items():
        have = out.setdefault(power, [])
        usable = [a for a in table if a not in have]
        want = min(count, len(usable))
        got = 0
        while got < want:
            r = dice.roll(6, f"national advantage for {power}")
            name = table[r - 1]
            if name in have:
                continue
            have.append(name)
            got += 1
    return {p: v for p, v in out.items() if v}


def red(ctx: Ctx, power: str, territory: str) -> bool:
    """A territory of ``power``'s colour: its own at the start, and still (Appendix 3)."""
    return ctx.geo.original.get(territory) == power and ctx.state.control.get(territory) == power


# ------------------------------------------------------------------ hooks


def setup(ctx: Ctx) -> None:
    """Colonial Garrison: one more U.K. industrial complex in a tan territory worth 1 or
    more (RULINGS R-31: the territory is a setup option)."""
    s = ctx.state
    if ctx.has("uk", "colonial_garrison"):
        t = ctx.opts.colonial_garrison_territory
        g = ctx.geo
        if g.original.get(t) != "uk" or g.ipc.get(t, 0) < 1 or t in s.ics:
            raise ValueError(
                f"Colonial Garrison needs a U.K. territory worth 1 or more without an "
                f"industrial complex; {t!r} is not one"
            )
        s.ics.append(t)
        s.ics.sort()


def on_turn_start(ctx: Ctx) -> None:
    """A severe winter lasts until the start of the next Soviet turn; per-turn records of
    the advantages are cleared."""
    s = ctx.state
    for key in ("ic_moved", "oil_used", "lightning"):
        s.na.pop(key, None)
    if s.power == "ussr" and s.na.get("winter"):
        s.na["winter"] = False
        ctx.log("advantage", "The Russian winter is over.")


def winter_available(ctx: Ctx) -> bool:
    s = ctx.state
    return (
        s.power == "ussr"
        and ctx.has("ussr", "russian_winter")
        and not s.na.get("winter_used")
        and ctx.capital_held("ussr")
    )


def winter(ctx: Ctx) -> None:
    """Russian Winter: once a game, at the Soviet collect income phase, Soviet infantry
    defend at 3 until the start of the next Soviet turn (the value is applied by
    :mod:`modifiers`)."""
    if not winter_available(ctx):
        raise refuse(
            "Revised: Appendix 3, Russian Winter",
            "A Russian Winter can be declared once a game, by the Soviet Union holding the "
            "advantage, in its collect income phase.",
            "Say 'done'.",
        )
    s = ctx.state
    s.na["winter"] = True
    s.na["winter_used"] = True
    ctx.log("advantage", "Russian Winter: until the next Soviet turn, Soviet infantry defend at 3.")


def before_combat(ctx: Ctx) -> None:
    """Nonaggression Treaty: the first time Japan attacks a red territory, the Soviet
    Union places four free infantry there before combat (the first such territory in
    board order when several are attacked: RULINGS R-37). A Soviet attack on Japan before
    that ends the treaty (FAQ: National Advantages)."""
    s = ctx.state
    if not ctx.has("ussr", "nonaggression_treaty") or s.na.get("treaty_over"):
        return
    if s.power == "ussr":
        if any(s.control.get(t) == "japan" for t in s.battles if t in ctx.geo.land):
            s.na["treaty_over"] = True
            ctx.log(
                "advantage", "The Soviet Union attacks Japan: the Nonaggression Treaty is over."
            )
        return
    if s.power != "japan":
        return
    targets = [t for t in s.battles if t in ctx.geo.land and red(ctx, "ussr", t)]
    if not targets:
        return
    t = targets[0]
    for _ in range(4):
        ctx.new_unit("infantry", "ussr", t)
    s.na["treaty_over"] = True
    ctx.log(
        "advantage",
        f"Nonaggression Treaty: Japan attacks {ctx.geo.name(t)}; the Soviet Union places four "
        "infantry there before the battle.",
        space=t,
    )


def battle_rules(ctx: Ctx) -> bt.Rules:
    return bt.REVISED


def after_battle(ctx: Ctx, a: ActiveBattle) -> None:
    """Salvage: the Soviet Union wins a defence of a red territory in which an attacking
    tank was destroyed: one free tank there."""
    b = a.b
    if (
        not a.sea
        and b.outcome in (bt.DEFENDER_WON, bt.ATTACKER_RETREATED)
        and ctx.has("ussr", "salvage")
        and a.tanks_lost
        and red(ctx, "ussr", a.space)
    ):
        ctx.new_unit("tank", "ussr", a.space)
        ctx.log("advantage", f"Salvage: the Soviet Union gains a tank in {ctx.geo.name(a.space)}.")
    if (
        not a.sea
        and b.outcome == bt.ATTACKER_WON
        and a.attacker == "germany"
        and ctx.has("germany", "panzerblitz")
        and b.cycle == 1
    ):
        for u in b.attackers:
            unit = ctx.state.units.get(u.uid)
            if unit is not None and unit.type == "tank":
                unit.blitz_again = True


def on_capture(ctx: Ctx, territory: str, power: str, old: str, new: str) -> None:
    """French Resistance: the first time Western Europe becomes Allied, the U.K. places
    three free infantry there."""
    s = ctx.state
    if (
        territory == "western_europe"
        and SIDE[new] == "allies"
        and ctx.has("uk", "french_resistance")
        and not s.na.get("french_resistance_used")
    ):
        s.na["french_resistance_used"] = True
        for _ in range(3):
            ctx.new_unit("infantry", "uk", territory)
        ctx.log("advantage", "French Resistance: three U.K. infantry rise in Western Europe.")


def after_noncombat(ctx: Ctx) -> None:
    return None


def income_adjustment(ctx: Ctx, power: str) -> int:
    """U-Boat Interdiction: the U.K. and the U.S. each collect 1 IPC less per German
    submarine on the board."""
    if power not in ("uk", "usa") or not ctx.has("germany", "u_boat_interdiction"):
        return 0
    return sum(
        1 for u in ctx.state.units.values() if u.owner == "germany" and u.type == "submarine"
    )


def chinese_division_sites(ctx: Ctx) -> list[str]:
    """Chinese Divisions: once a round, at mobilization, one free U.S. infantry in China,
    Sinkiang, Kwangtung or French Indochina, if the U.S. controls it."""
    s = ctx.state
    if s.power != "usa" or not ctx.has("usa", "chinese_divisions"):
        return []
    if s.na.get("chinese_division_round") == s.round:
        return []
    return [t for t in CHINESE_DIVISION_SITES if s.control.get(t) == "usa"]


# ------------------------------------------------------------------ Lend-Lease


def lend_lease_options(ctx: Ctx) -> list[tuple[str, str]]:
    """(unit type, red territory) pairs a Soviet purchase phase may convert (RULINGS Q-23:
    the friendly units standing in red territories during the Soviet purchase phase)."""
    s = ctx.state
    if s.power != "ussr" or s.phase != "purchase" or not ctx.has("ussr", "lend_lease"):
        return []
    out = set()
    for u in s.units.values():
        if u.owner in ("uk", "usa") and u.aboard is None and red(ctx, "ussr", u.at):
            out.add((u.type, u.at))
    return sorted(out)


def convert(ctx: Ctx, order) -> None:
    """Lend-Lease: during its purchase phase the Soviet Union may turn friendly units in
    red territories into Soviet units of the same kind."""
    s = ctx.state
    g = ctx.geo
    rule = "Revised: Appendix 3, Lend-Lease"
    if not ctx.has("ussr", "lend_lease") or s.power != "ussr":
        raise refuse(rule, "Only the Soviet Union with Lend-Lease converts friendly units.")
    if not red(ctx, "ussr", order.at):
        raise refuse(
            rule, f"{g.name(order.at)} is not a red territory the Soviet Union still holds."
        )
    changed = []
    for t, n in order.units.items():
        pool = sorted(
            (
                u
                for u in ctx.at(order.at)
                if u.type == t and u.owner in ("uk", "usa") and u.aboard is None
            ),
            key=lambda u: (u.owner, int(u.id[1:])),
        )
        if len(pool) < n:
            raise refuse(rule, f"{g.name(order.at)} holds {len(pool)} friendly "
                         f"{ctx.info(t).plural.lower()} to convert, not {n}.")  # fmt: skip
        changed += pool[:n]
    for u in changed:
        u.owner = "ussr"
    ctx.log("advantage", f"Lend-Lease: {len(changed)} friendly unit(s) in {g.name(order.at)} "
            "become Soviet.", units=[u.id for u in changed])  # fmt: skip


# ------------------------------------------------------------------ Mobile Industry


def ic_moves(ctx: Ctx) -> list[tuple[str, str]]:
    """(from, to) moves of Soviet industrial complexes open now (Mobile Industry: one
    territory in the noncombat move; a complex an enemy captured never moves)."""
    s = ctx.state
    if s.power != "ussr" or s.phase != "noncombat" or not ctx.has("ussr", "mobile_industry"):
        return []
    moved = set(s.na.get("ic_moved", []))
    out = []
    for t in s.ics:
        if s.control.get(t) != "ussr" or t in moved or t in s.fresh:
            continue
        for n in ctx.geo.land_adj[t]:
            if s.control.get(n) == "ussr" and n not in s.ics:
                out.append((t, n))
    return out


def move_ic(ctx: Ctx, start: str, end: str) -> None:
    s = ctx.state
    g = ctx.geo
    if (start, end) not in ic_moves(ctx):
        raise refuse(
            "Revised: Appendix 3, Mobile Industry",
            f"The industrial complex cannot move from {g.name(start)} to {g.name(end)}: a Soviet "
            "complex moves one territory, in the noncombat move, into a Soviet territory "
            "without a complex, once a turn.",
            "Moves open: " + (", ".join(f"{a}->{b}" for a, b in ic_moves(ctx)) or "none") + ".",
        )
    s.ics.remove(start)
    s.ics.append(end)
    s.ics.sort()
    s.na.setdefault("ic_moved", []).append(end)
    ctx.log("advantage", f"Mobile Industry: the Soviet industrial complex moves from "
            f"{g.name(start)} to {g.name(end)}.", path=[start, end])  # fmt: skip
    ctx.mark("move", "ussr", [start, end], "industrial complex")


# ------------------------------------------------------------------ Mideast Oil

OIL = ("anglo_egypt", "trans_jordan", "persia")


def mideast_oil(ctx: Ctx, plane, end: str) -> None:
    """Mideast Oil: a U.K. aircraft that lands in Anglo-Egypt, Trans-Jordan or Persia in
    the noncombat move may move again as far as its normal move."""
    s = ctx.state
    if (
        plane.owner != "uk"
        or ctx.power != "uk"  # "your noncombat move": not a U.S. one in a Joint Strike
        or end not in OIL
        or not ctx.has("uk", "mideast_oil")
        or s.control.get(end) != "uk"
        or plane.id in s.na.get("oil_used", [])
    ):
        return
    s.na.setdefault("oil_used", []).append(plane.id)
    plane.moved -= ctx.movement(plane)
    ctx.log("advantage", f"Mideast Oil: U.K. aircraft {plane.id} refuels in {ctx.geo.name(end)} "
            "and may fly on.", unit=plane.id)  # fmt: skip


# ------------------------------------------------------------------ Enigma Decoded

R_ENIGMA = "Revised: Appendix 3, Enigma Decoded"


def enigma_available(ctx: Ctx) -> bool:
    s = ctx.state
    return (
        s.power == "germany"
        and ctx.has("uk", "enigma_decoded")
        and not s.na.get("enigma_used")
        and bool(enigma_targets(ctx))
    )


def enigma_targets(ctx: Ctx) -> list[str]:
    """Spaces Germany attacks: its battles, and sea zones its ships entered this turn
    (FAQ: even a sea zone with no British units)."""
    from engine.games.aa_revised.combat_phase import battle_spaces

    battles, _ = battle_spaces(ctx)
    zones = {u.at for u in ctx.state.units.values()
             if u.owner == "germany" and u.cm and u.at in ctx.geo.sea}  # fmt: skip
    return sorted(set(battles) | zones)


def _uk_destination_ok(ctx: Ctx, units, end: str, attacked: set[str]) -> str | None:
    g = ctx.geo
    for u in units:
        kind = ctx.kind(u)
        if kind == "air" and end in g.sea:
            return "aircraft may not move into a sea zone with Enigma Decoded (FAQ)"
        if kind == "land" and end not in g.land:
            return "land units go only to a territory"
        if kind == "sea" and end not in g.sea:
            return "ships go only to a sea zone"
    if end in g.land and not ctx.friendly_territory(end, "uk"):
        return f"{g.name(end)} is not friendly"
    if end in g.sea and end not in attacked and ctx.hostile_zone(end, "uk"):
        return f"{g.name(end)} holds enemy units"
    return None


def enigma_move(ctx: Ctx, order) -> None:
    """Enigma Decoded: once a game, between Germany's combat move and its combat, the U.K.
    moves units from any one adjacent space into one friendly space Germany attacks, or
    out of such a space into an adjacent friendly space leaving at least one unit (of any
    friendly power) behind; otherwise as a noncombat move (FAQ: Enigma Decoded)."""
    s = ctx.state
    g = ctx.geo
    start, end = order.path[0], order.path[-1]
    attacked = set(enigma_targets(ctx))
    if len(order.path) != 2 or end not in g.air_adj.get(start, ()):
        raise refuse(R_ENIGMA, "The Enigma move goes one space, to an adjacent space.")
    if end not in attacked and start not in attacked:
        raise refuse(
            R_ENIGMA,
            "The Enigma move goes into, or out of, a space Germany is attacking.",
            f"Germany attacks: {', '.join(g.name(t) for t in sorted(attacked))}.",
        )
    here = sorted((u for u in ctx.at(start) if u.owner == "uk" and u.aboard is None),
                  key=lambda u: int(u.id[1:]))  # fmt: skip
    chosen = []
    for uid in order.ids:
        u = s.units.get(uid)
        if u is None or u not in here:
            raise refuse(R_ENIGMA, f"{uid} is not a U.K. unit in {g.name(start)}.")
        chosen.append(u)
    for t, n in order.units.items():
        pool = [u for u in here if u.type == t and u not in chosen]
        if len(pool) < n or t == "industrial_complex":
            raise refuse(R_ENIGMA, f"The U.K. has {len(pool)} {ctx.info(t).plural.lower()} "
                         f"in {g.name(start)}, not {n}.")  # fmt: skip
        chosen += pool[:n]
    for u in chosen:
        kind = ctx.kind(u)
        if kind == "land" and end not in g.land_adj.get(start, ()):
            raise refuse(R_ENIGMA, "Land units move along a land border.")
        if kind == "sea" and end not in g.sea_adj.get(start, ()):
            raise refuse(R_ENIGMA, "Ships move between adjacent sea zones.")
    why = _uk_destination_ok(ctx, chosen, end, attacked)
    if why:
        raise refuse(R_ENIGMA, why + ".")
    if start in attacked and end not in attacked:
        left = [u for u in ctx.at(start) if SIDE[u.owner] == "allies" and u not in chosen
                and u.aboard is None]  # fmt: skip
        if not left:
            raise refuse(R_ENIGMA, f"At least one friendly unit must stay in {g.name(start)}.")
    for u in chosen:
        ctx.place_at(u, end)
    s.na["enigma_used"] = True
    ctx.log("advantage", f"Enigma Decoded: the U.K. moves {len(chosen)} unit(s) from "
            f"{g.name(start)} to {g.name(end)} before Germany's battles.",
            path=[start, end])  # fmt: skip
    ctx.mark("move", "uk", [start, end], "Enigma")


def enigma_moves(ctx: Ctx):
    """One-unit Enigma moves, for the list of legal orders."""
    from engine.games.aa_revised.orders import Move

    g = ctx.geo
    attacked = set(enigma_targets(ctx))
    seen = set()
    for u in sorted(ctx.state.units.values(), key=lambda u: int(u.id[1:])):
        if u.owner != "uk" or u.aboard is not None or u.type == "industrial_complex":
            continue
        kind = ctx.kind(u)
        adj = g.land_adj if kind == "land" else g.sea_adj if kind == "sea" else g.air_adj
        for end in adj.get(u.at, ()):
            if end not in attacked and u.at not in attacked:
                continue
            key = (u.type, u.at, end)
            if key in seen or _uk_destination_ok(ctx, [u], end, attacked):
                continue
            if u.at in attacked and end not in attacked:
                left = [x for x in ctx.at(u.at)
                        if SIDE[x.owner] == "allies" and x is not u and x.aboard is None]  # fmt: skip
                if not left:
                    continue
            seen.add(key)
            yield Move(units={u.type: 1}, path=[u.at, end])


# ------------------------------------------------------------------ Joint Strike

R_JOINT = "Revised: Appendix 3, Joint Strike"


def joint_strike_problem(ctx: Ctx) -> str | None:
    """Why the U.K. may not declare its Joint Strike now, or ``None``."""
    s = ctx.state
    if not ctx.has("uk", "joint_strike"):
        return "Only the United Kingdom holding Joint Strike may declare one."
    if s.na.get("joint_strike_used"):
        return "The Joint Strike is declared once a game, and the U.K. has used it."
    if s.power != "uk" or s.phase != "combat_move":
        return "The U.K. declares its Joint Strike on its own turn, instead of its combat move."
    if any(u.owner == "uk" and (u.cm or u.raid) for u in s.units.values()):
        return "The U.K. has already made combat moves this turn; a Joint Strike skips them."
    return None


def declare_joint_strike(ctx: Ctx) -> None:
    """Joint Strike (Appendix 3): once a game, on its turn, the U.K. skips its combat move
    and conduct combat phases (its units may still make noncombat moves); on the next
    U.S. turn the U.S. player moves U.K. units in the combat move and fights with them
    as if they were American (FAQ: any U.K. unit, those that moved in the U.K.
    noncombat move or were mobilized included). Each power keeps its own developments
    and advantages (Revised: Phase 1; Appendix 3: advantages are not shared), and the
    casualties among the attackers are agreed between the two players, or chosen by the
    defender (RULINGS R-50)."""
    why = joint_strike_problem(ctx)
    if why:
        raise refuse(R_JOINT, why, "Make your combat move, or say 'done'.")
    s = ctx.state
    s.na["joint_strike_used"] = True
    s.na["joint_strike"] = s.round
    s.phase = "noncombat"
    ctx.log(
        "advantage",
        "Joint Strike: the United Kingdom skips its combat move and combat; on its turn this "
        "round the United States may move and attack with U.K. units.",
    )
