"""Phase 4, Conduct Combat: the battles of a turn, one at a time, in the attacker's order.

The rounds themselves are :mod:`engine.games.aa_revised.battle`'s: this module sets each
battle up from the board (who attacks, who defends, antiaircraft fire, bombarding
ships), answers its needs (dice from the game's dice; casualties, press or retreat and
submerging from the players, or from their standing orders), and carries the outcome
back to the board (losses, retreats, submerged submarines, capture).

Antiaircraft fire is done here, before the battle value is made, for every battle
(Revised: Opening Fire, Antiaircraft Guns): it can only hit aircraft, nothing fires back
in that step, and its casualties leave at step 3 whatever else happens, so it gives the
same result as firing inside the opening-fire step, and it lets Radar and Superfortresses
(Appendix 3) change it.
"""

from __future__ import annotations

import dataclasses

from engine.games.aa_revised import air, bombing, modifiers, movement
from engine.games.aa_revised import battle as bt
from engine.games.aa_revised.capture import capture
from engine.games.aa_revised.context import Ctx, listing, refuse, units_phrase
from engine.games.aa_revised.orders import Attack, CallOff, Casualties, Press, Retreat, Submerge
from engine.games.aa_revised.state import POWER_NAME, SIDE, TURN_ORDER, ActiveBattle, Unit, uid_key

R_COMBAT = "Revised: Phase 4, Conduct Combat"
R_STEP7 = "Revised: Step 7, Press Attack or Retreat"
R_AMPHIB = "Revised: Special Combats, Amphibious Assaults"


# ------------------------------------------------------------------ the battle list


def begin(ctx: Ctx) -> None:
    """End of the combat move: list the battles and raids (Revised: Phase 4), fire the
    antiaircraft guns that aircraft flew over on the way (Phase 3, Antiaircraft Guns:
    resolved along each aircraft's path, before its battle)."""
    s = ctx.state
    power = s.power
    s.battles, s.raids = battle_spaces(ctx)
    s.phase = "combat"
    flyers = sorted(
        (
            u
            for u in s.units.values()
            if u.owner in ctx.commanded() and u.path and ctx.kind(u) == "air"
        ),
        key=lambda u: uid_key(u.id),
    )
    for u in flyers:
        for t in air.overflown_guns(ctx, power, u.path):
            if not air.antiaircraft_fire(ctx, t, [u], "as it flies over"):
                break
    from engine.games.aa_revised.advantages import before_combat

    before_combat(ctx)
    summary = s.battles + [f"raid on {r}" for r in s.raids]
    ctx.log(
        "phase",
        f"{POWER_NAME[power]} conducts combat: {listing(ctx.geo.name(b) for b in summary) if summary else 'no battles'}.",
        battles=list(s.battles),
        raids=list(s.raids),
    )


def battle_spaces(ctx: Ctx) -> tuple[list[str], list[str]]:
    """The spaces with a battle and those with a bombing raid, after the combat move."""
    power = ctx.power
    battles: set[str] = set()
    raids: set[str] = set()
    mine = ctx.commanded()
    for u in ctx.state.units.values():
        if u.owner not in mine:
            continue
        if u.landing:
            battles.add(u.landing)
            battles.add(u.at)
            continue
        if u.aboard is not None:
            continue
        if u.raid:
            raids.add(u.at)
            continue
        if ctx.hostile(u.at, power):
            battles.add(u.at)
    return sorted(b for b in battles if _has_battle(ctx, b)), sorted(raids)


def _has_battle(ctx: Ctx, space: str) -> bool:
    power = ctx.power
    if space in ctx.geo.sea:
        return ctx.hostile_zone(space, power) or any(u.landing for u in ctx.at(space))
    return not ctx.friendly_territory(space, power)


def blocked_by(ctx: Ctx, space: str) -> str | None:
    """The sea zone whose battle must be fought before the landing in ``space``
    (Revised: Amphibious Assaults: sea combat first)."""
    s = ctx.state
    for u in s.units.values():
        if u.owner in ctx.commanded() and u.landing == space and u.at in s.battles:
            return u.at
    return None


def choosable(ctx: Ctx) -> list[str]:
    s = ctx.state
    out = [b for b in s.battles if blocked_by(ctx, b) is None]
    out += [r for r in s.raids if r not in out]
    return sorted(out)


def attack(ctx: Ctx, order: Attack) -> None:
    """The attacker picks the next battle (Revised: Phase 4: the attacker decides the
    order; FAQ: each combat is finished before the next)."""
    s = ctx.state
    g = ctx.geo
    space = order.space
    if space not in s.battles and space not in s.raids:
        raise refuse(
            R_COMBAT,
            f"There is no battle to fight in {g.name(space)}.",
            f"Battles left: {listing(g.name(b) for b in choosable(ctx))}.",
        )
    zone = blocked_by(ctx, space)
    if zone and space not in s.raids:
        raise refuse(
            R_AMPHIB,
            f"The sea battle in {g.name(zone)} must be fought before the landing in {g.name(space)}.",
            f"attack {zone}",
        )
    start(ctx, space)


def call_off_options(ctx: Ctx) -> list[str]:
    """Territories whose amphibious landing the attacker may still call off: cargo
    waiting for its sea zone to be cleared, or units that went ashore in the combat move
    while the battle there has not begun (Revised: Amphibious Assaults)."""
    s = ctx.state
    g = ctx.geo
    out = set()
    ashore = set()
    for u in s.units.values():
        if u.owner not in ctx.commanded() or ctx.kind(u) != "land":
            continue
        if u.landing:
            out.add(u.landing)
        elif u.at in s.battles and u.at in g.land and u.cm and u.prev in g.sea:
            ashore.add(u.at)
    # units ashore go back aboard only if their transports are still there to take them
    # (a Lightning Assaults transport may have sailed on)
    return sorted(out | {t for t in ashore if _reboarding(ctx, t) is not None})


def _ashore(ctx: Ctx, target: str) -> list[Unit]:
    """Units that went ashore in ``target`` from the sea in this combat move, the
    heaviest first (for reboarding)."""
    g = ctx.geo
    return sorted(
        (u for u in ctx.at(target)
         if u.owner in ctx.commanded() and ctx.kind(u) == "land" and u.cm and u.prev in g.sea),
        key=lambda u: (-(ctx.info(u.type).transport_cost or 0), uid_key(u.id)),
    )  # fmt: skip


def _reboarding(ctx: Ctx, target: str) -> dict[str, str] | None:
    """Unit id -> transport id taking each unit ashore in ``target`` back aboard, or
    ``None`` if the transports they came from cannot take them all."""
    boarding: dict[str, str] = {}
    room: dict[str, int] = {}
    for u in _ashore(ctx, target):
        ships = _landing_ships(ctx, u.prev, target)
        for t in ships:
            room.setdefault(t.id, movement.transport_room(ctx, t))
        cost = ctx.info(u.type).transport_cost or 0
        ship = next(
            (t for t in ships if room[t.id] >= cost
             and (t.type != "destroyer" or u.type == "infantry")),
            None,
        )  # fmt: skip
        if ship is None:
            return None
        room[ship.id] -= cost
        boarding[u.id] = ship.id
    return boarding


def call_off(ctx: Ctx, order: CallOff) -> None:
    """Revised: Amphibious Assaults: in the conduct combat phase the attacker may call
    off a landing declared in the combat move (but not send it elsewhere). The cargo
    stays aboard: units that already went ashore go back aboard the transports they
    came from (so not once such a transport has sailed on after a Lightning Assault),
    and a transport that called off its landing still counts as having moved and
    offloaded nothing (RULINGS Q-20)."""
    s = ctx.state
    g = ctx.geo
    target = order.space
    if target not in call_off_options(ctx):
        raise refuse(
            R_AMPHIB,
            f"There is no amphibious landing in {g.name(target)} left to call off.",
            "Landings you may call off: "
            + listing(g.name(t) for t in call_off_options(ctx))
            + " (a landing cannot be called off once its battle has begun).",
        )
    waiting = [u for u in s.units.values() if u.owner in ctx.commanded() and u.landing == target]
    ashore = _ashore(ctx, target)
    boarding = _reboarding(ctx, target) or {}
    for u in waiting:
        u.landing = None
    for u in ashore:
        u.aboard = boarding[u.id]
        ctx.place_at(u, u.prev)
    for u in [*waiting, *ashore]:
        t = s.units.get(u.aboard) if u.aboard else None
        if t is not None and t.offloaded == target:
            t.offloaded = None
    left = [u for u in s.units.values()
            if u.owner in ctx.commanded() and (u.at == target or u.landing == target)]  # fmt: skip
    if not left and target in s.battles:
        s.battles.remove(target)
    for u in s.units.values():
        if u.bombard == target and not any(a.prev == u.at and ctx.kind(a) == "land" for a in left):
            u.bombard = None
    stay = [*waiting, *ashore]
    ctx.log(
        "landing",
        f"{POWER_NAME[ctx.power]} calls off the landing in {g.name(target)}: "
        f"{units_phrase(stay)} stay{'s' if len(stay) == 1 else ''} aboard"
        + ("." if left else "; there is no battle there now."),
        space=target,
    )


def _landing_ships(ctx: Ctx, zone: str, target: str) -> list[Unit]:
    """Transports (and Tokyo Express destroyers) in ``zone`` that offloaded into
    ``target`` this turn, the phasing power's first."""
    rec = ctx.state.na.get("lightning", {})
    ships = [
        t for t in ctx.at(zone)
        if movement.is_carrier_of_land(ctx, t) and SIDE[t.owner] == SIDE[ctx.power]
        and (t.offloaded == target or target in rec.get(t.id, {}).get("targets", []))
    ]  # fmt: skip
    return sorted(ships, key=lambda t: (t.owner != ctx.power, uid_key(t.id)))


def start(ctx: Ctx, space: str) -> None:
    s = ctx.state
    if space in s.raids:
        bombing.resolve_raid(ctx, space)
        if space not in s.battles or blocked_by(ctx, space):
            return
    if space in ctx.geo.sea:
        _start_sea(ctx, space)
    else:
        _start_land(ctx, space)


def owner_techs(ctx: Ctx, units: list[Unit]) -> dict[str, frozenset[str]]:
    """Each fighting power's own developments (Revised: Phase 1: powers cannot share
    their technology; RULINGS R-35): a U.K. jet fighter defends at 5 beside a U.S.
    fighter at 4, and U.K. units in a Joint Strike attack with the U.K.'s developments."""
    return {p: ctx.techs(p) for p in sorted({u.owner for u in units})}


def _lead_defender(ctx: Ctx, space: str, defenders: list[Unit]) -> str:
    """Who decides for a multinational defence: the territory's controller, or in a
    sea zone the power with the most units there (RULINGS R-34; Revised: Multinational
    Defense)."""
    if space in ctx.geo.land:
        return ctx.state.control[space]
    counts = {p: 0 for p in TURN_ORDER}
    for u in defenders:
        counts[u.owner] += 1
    return max(TURN_ORDER, key=lambda p: (counts[p], -TURN_ORDER.index(p)))


def _bu(u: Unit) -> bt.Unit:
    return bt.Unit(u.id, u.type, u.owner)


def _start_land(ctx: Ctx, space: str) -> None:
    s = ctx.state
    g = ctx.geo
    power = s.power
    side = SIDE[power]
    s.battles.remove(space)
    attackers = sorted(
        (
            u
            for u in ctx.at(space)
            if u.owner in ctx.commanded() and not u.raid and u.aboard is None
        ),
        key=lambda u: uid_key(u.id),
    )
    if not attackers:
        ctx.log("battle", f"No {POWER_NAME[power]} units are left to attack {g.name(space)}.")
        return
    s.contested.append(space)
    planes = [u for u in attackers if ctx.kind(u) == "air" and not u.kamikaze]
    if planes and air.enemy_gun(ctx, space, power):
        air.antiaircraft_fire(ctx, space, planes, "as they attack")
        attackers = [u for u in attackers if u.id in s.units]
    for u in attackers:
        u.fought = True
    defenders = sorted(
        (u for u in ctx.at(space) if SIDE[u.owner] != side and u.type != "aa_gun"),
        key=lambda u: uid_key(u.id),
    )
    if not attackers:
        ctx.log("battle", f"The attack on {g.name(space)} is over: every attacker was shot down.")
        return
    capturers = [u for u in attackers if "can_capture" in ctx.info(u.type).flags]
    if not defenders:
        if capturers:
            capture(ctx, space, power)
        else:
            ctx.log(
                "battle",
                f"{g.name(space)} has no defenders, but aircraft alone never capture a "
                "territory (Revised: Step 8).",
            )
        return
    amphibious = any(u.prev in g.sea for u in attackers if ctx.kind(u) == "land")
    bombard = sorted(
        (u for u in s.units.values()
         if u.owner in ctx.commanded() and u.bombard == space and not u.fought
         and any(a.prev == u.at for a in attackers))
        , key=lambda u: uid_key(u.id))  # fmt: skip
    for u in bombard:
        u.fought = True
    lead = _lead_defender(ctx, space, defenders)
    from engine.games.aa_revised.advantages import battle_rules

    b = bt.new_battle(
        [_bu(u) for u in attackers],
        [_bu(u) for u in defenders],
        sea=False,
        bombarding=[_bu(u) for u in bombard] if amphibious else (),
        amphibious=amphibious,
        attacker_techs=ctx.techs(power),
        owner_techs=owner_techs(ctx, attackers + defenders + bombard),
        rules=battle_rules(ctx),
    )
    land_origins = sorted({u.prev for u in attackers if ctx.kind(u) == "land" and u.prev in g.land})
    _announce(ctx, space, attackers, defenders, bombard)
    s.battle = ActiveBattle(space, False, power, lead, b, land_origins=land_origins)
    s.battle.flags = modifiers.start_flags(ctx, s.battle, attackers) + _joint(attackers)
    _flush(ctx)


def _start_sea(ctx: Ctx, space: str) -> None:
    s = ctx.state
    power = s.power
    side = SIDE[power]
    s.battles.remove(space)
    here = ctx.at(space)
    attackers = []
    for u in here:
        if u.owner not in ctx.commanded() or u.submerged:
            continue
        kind = ctx.kind(u)
        if kind == "sea" and u.aboard is None:
            attackers.append(u)
        elif kind == "air" and not u.raid:
            carrier = s.units.get(u.aboard) if u.aboard else None
            if carrier is None or not (carrier.cm or carrier.moved):
                attackers.append(u)
    defenders = [
        u for u in here
        if SIDE[u.owner] != side and not u.submerged and ctx.kind(u) in ("sea", "air")
        and (ctx.kind(u) == "air" or u.aboard is None)
    ]  # fmt: skip
    if not attackers or not defenders:
        _land_deferred(ctx, space, won=bool(attackers))
        return
    s.contested.append(space)
    attackers.sort(key=lambda u: uid_key(u.id))
    defenders.sort(key=lambda u: uid_key(u.id))
    carrier_fighters = [u.id for u in defenders if ctx.kind(u) == "air"]
    for u in defenders:
        if ctx.kind(u) == "air":
            u.aboard = None
    for u in attackers:
        u.fought = True
        if ctx.kind(u) == "air":
            u.aboard = None
    lead = _lead_defender(ctx, space, defenders)
    from engine.games.aa_revised.advantages import battle_rules

    b = bt.new_battle(
        [_bu(u) for u in attackers],
        [_bu(u) for u in defenders],
        sea=True,
        attacker_techs=ctx.techs(power),
        owner_techs=owner_techs(ctx, attackers + defenders),
        rules=battle_rules(ctx),
    )
    sea_origins = sorted({u.prev for u in attackers if ctx.kind(u) == "sea" and u.prev})
    _announce(ctx, space, attackers, defenders, [])
    s.battle = ActiveBattle(
        space, True, power, lead, b, sea_origins=sea_origins, carrier_fighters=carrier_fighters
    )
    s.battle.flags = modifiers.start_flags(ctx, s.battle, attackers) + _joint(attackers)
    s.battle.kamikaze = [u.id for u in attackers if u.kamikaze]
    _flush(ctx)


def _joint(attackers: list[Unit]) -> list[str]:
    """A Joint Strike battle: U.S. and U.K. units attack together (Appendix 3)."""
    return ["joint"] if len({u.owner for u in attackers}) > 1 else []


def _announce(ctx: Ctx, space, attackers, defenders, bombard) -> None:
    g = ctx.geo
    power = ctx.power
    text = (
        f"Battle in {g.name(space)}: {POWER_NAME[power]} attacks with {units_phrase(attackers)} "
        f"against {units_phrase(defenders)}"
    )
    if bombard:
        text += f"; {units_phrase(bombard)} bombard from the sea"
    ctx.log("battle", text + ".", space=space)
    ctx.mark("battle", power, [space], "battle")


# ------------------------------------------------------------------ running a battle


def _flush(ctx: Ctx) -> None:
    """Move the battle's new events into the log and its losses onto the board."""
    a = ctx.state.battle
    b = a.b
    if b.events:
        ctx.events.extend(b.events)
        b = dataclasses.replace(b, events=())
        a.b = b
    s = ctx.state
    for bu in (*b.attackers_lost, *b.defenders_lost):
        u = s.units.get(bu.uid)
        if u is None:
            continue
        cargo = ctx.cargo(u)
        if cargo:
            ctx.log(
                "destroyed",
                f"{units_phrase(cargo).capitalize()} aboard {ctx.info(u.type).name.lower()} "
                f"{u.id} {'is' if len(cargo) == 1 else 'are'} lost with it.",
                units=[c.id for c in cargo],
            )
        if u.type == "tank" and u.owner == a.attacker:
            a.tanks_lost = True
        ctx.destroy(u, quiet=True)


def kaiten_candidates(ctx: Ctx, a: ActiveBattle) -> list[str]:
    """Kaiten Torpedoes: defending Japanese submarines in a sea zone next to an orange
    territory or island group Japan controls (Appendix 3). The rule ties the kaiten to
    "this cycle of combat", not the first: Japan may designate them at the start of any
    cycle (RULINGS Q-32)."""
    s = ctx.state
    if a.attacker == "japan" or not ctx.has("japan", "kaiten_torpedoes") or not a.sea:
        return []
    g = ctx.geo
    near = any(
        s.control.get(t) == "japan" and (g.original.get(t) == "japan" or t in g.island)
        for t in g.coast[a.space]
    )
    if not near:
        return []
    return [u.uid for u in a.b.defenders if u.type == "submarine" and u.owner == "japan"]


def _ask_kaiten(ctx: Ctx, a: ActiveBattle) -> bool:
    """At the start of each cycle's opening fire, Japan is asked once which of its
    eligible defending submarines strike as kaiten (Appendix 3, Kaiten Torpedoes)."""
    mark = f"kaiten_asked:{a.b.cycle}"
    if a.b.step != bt.OPENING_FIRE or mark in a.flags or not kaiten_candidates(ctx, a):
        return False
    a.flags += [mark, "kaiten_ask"]
    a.kaiten = []
    return True


def kaiten(ctx: Ctx, order) -> None:
    """Japan designates kaiten among its defending submarines (or none) for this cycle."""
    a = ctx.state.battle
    pool = kaiten_candidates(ctx, a)
    n = order.units.get("submarine", 0)
    if set(order.units) - {"submarine"} or n > len(pool):
        raise refuse(
            "Revised: Appendix 3, Kaiten Torpedoes",
            f"Only defending Japanese submarines become kaiten; {len(pool)} can here.",
            f"kaiten {len(pool)} sub, or kaiten none.",
        )
    a.kaiten = sorted(pool, key=uid_key)[:n]
    a.flags.remove("kaiten_ask")
    if n:
        ctx.log("advantage", f"Kaiten Torpedoes: {n} Japanese submarine(s) strike as kaiten.")


def decider(ctx: Ctx) -> str | None:
    """The power whose decision the active battle waits for, or None."""
    a = ctx.state.battle
    if a is None:
        return None
    if "kaiten_ask" in a.flags:
        return "japan"
    need = bt.needs(a.b)
    if need.kind == "casualties":
        if need.side == bt.DEFENDER:
            return a.defender
        if a.proposal:
            return "uk"  # Joint Strike: the U.K. agrees, or not
        return a.defender if "joint_defender_picks" in a.flags else a.attacker
    if need.kind == "press_or_retreat":
        return a.attacker
    if need.kind == "submerge":
        return a.defender
    return None


def step(ctx: Ctx) -> bool:
    """Run the active battle until it needs a player; True when it waits for one."""
    s = ctx.state
    for _ in range(10000):
        a = s.battle
        if a is None:
            return False
        if "kaiten_ask" in a.flags:
            return True
        need = bt.needs(a.b)
        if need.kind == "dice":
            if _ask_kaiten(ctx, a):
                return True
            changed = modifiers.roll(ctx, a)
            a.b = changed if changed is not None else bt.roll(a.b, ctx.dice)
            _flush(ctx)
            continue
        if need.kind == "nothing":
            finish(ctx)
            return False
        if need.kind == "casualties":
            if need.count == 0:
                a.b = bt.choose_casualties(a.b, need.side, [])
                continue
            joint = need.side == bt.ATTACKER and "joint" in a.flags
            if joint and a.proposal:
                return True  # the U.K. has to agree or not
            if joint and "joint_defender_picks" in a.flags:
                picks = _defender_picks_attackers(ctx, a, need)
                if picks is None:
                    return True
                _choose(ctx, a, need.side, picks)
                continue
            picks, standing = _auto_casualties(ctx, a, need)
            if picks is None:
                return True
            if joint and standing and needs_agreement(ctx):
                _propose(ctx, a, picks)
                continue
            _choose(ctx, a, need.side, picks)
            continue
        if need.kind == "press_or_retreat":
            if retreat_options(ctx) or _submergible(ctx, a, bt.ATTACKER):
                return True
            a.b = bt.press(a.b)
            _flush(ctx)
            continue
        if need.kind == "submerge":
            choice = _standing(ctx, a.defender, "submerge")
            if choice == "ask":
                return True
            subs = [u.uid for u in need.candidates] if choice == "always" else []
            a.b = bt.defender_submerge(a.b, subs)
            _flush(ctx)
            continue
    raise AssertionError("the battle did not come to rest")  # pragma: no cover


def _standing(ctx: Ctx, power: str, what: str):
    st = ctx.state.standing.get(power, {})
    if what == "submerge":
        return st.get("submerge", ctx.opts.auto_submerge)
    return st.get("casualties")


def _forced(ctx: Ctx, a: ActiveBattle, need: bt.Need) -> bool:
    """No real choice (RULINGS R-39): every candidate alike, or all must go. In a Joint
    Strike a U.S. and a U.K. unit of one type are not alike; nor are two ships carrying
    different cargo, since the cargo goes down with its ship (the owner chooses, L384,
    L464; RULINGS R-53)."""
    joint = need.side == bt.ATTACKER and "joint" in a.flags
    slots = {
        (u.type, u.hits, u.owner if joint else "", _cargo_key(ctx, u.uid)) for u in need.candidates
    }
    return len(slots) <= 1 or need.count >= _capacity(ctx, a, need)


def _cargo_key(ctx: Ctx, uid: str) -> tuple[tuple[str, str], ...]:
    """What a unit carries, by type and owner, for telling casualties apart."""
    return tuple(sorted((c.type, c.owner) for c in ctx.cargo_of_id(uid)))


def _auto_casualties(ctx: Ctx, a: ActiveBattle, need: bt.Need) -> tuple[list[str] | None, bool]:
    """Casualties chosen without asking: when there is no real choice, or by the
    option, or by the power's standing order (ARCHITECTURE: standing orders); the
    second value tells whether a standing order chose them."""
    power = a.attacker if need.side == bt.ATTACKER else a.defender
    forced = _forced(ctx, a, need)
    keep = need.side == bt.ATTACKER
    standing = _standing(ctx, power, "casualties")
    if forced or (ctx.opts.auto_casualties and not standing):
        return bt.suggest_casualties(a.b, bt.CasualtyOrder(keep_land_unit=keep)), False
    if standing:
        order = bt.CasualtyOrder(first=tuple(standing), keep_land_unit=keep)
        return bt.suggest_casualties(a.b, order), True
    return None, False


# ------------------------------------------------------------------ Joint Strike casualties


def needs_agreement(ctx: Ctx) -> bool:
    """Joint Strike (Appendix 3): the U.S. and U.K. players must agree on the attacking
    casualties; with one player holding both, or the U.K.'s standing order to agree,
    the U.S. choice stands at once (RULINGS R-50)."""
    from engine.games.aa_revised.rules import SEATINGS

    seats = SEATINGS[ctx.state.scenario]
    same = any("uk" in powers and "usa" in powers for powers in seats.values())
    return not same and ctx.state.standing.get("uk", {}).get("joint") != "agree"


def _propose(ctx: Ctx, a: ActiveBattle, picks: list[str]) -> None:
    a.proposal = list(picks)
    ctx.log(
        "casualties",
        f"Joint Strike: the United States would take {_named(ctx, a, picks)} as attacking "
        "casualties; the United Kingdom agrees, or the defender chooses them.",
        units=list(picks),
    )


def _named(ctx: Ctx, a: ActiveBattle, uids: list[str]) -> str:
    by = {u.uid: u for u in a.b.attackers}
    parts = []
    for uid in uids:
        u = by.get(uid)
        parts.append(f"{POWER_NAME[u.owner]}'s {ctx.info(u.type).name.lower()} {uid}" if u else uid)
    return ", ".join(parts)


def agree(ctx: Ctx, order) -> None:
    """Joint Strike: the U.K. agrees; the U.S. choice of casualties is taken."""
    a = ctx.state.battle
    picks, a.proposal = a.proposal, []
    ctx.log("casualties", "Joint Strike: the United Kingdom agrees.")
    _choose(ctx, a, bt.ATTACKER, picks)


def disagree(ctx: Ctx, order) -> None:
    """Joint Strike (Appendix 3): the U.K. does not agree, so the defending player
    chooses the attacking casualties."""
    a = ctx.state.battle
    a.proposal = []
    a.flags.append("joint_defender_picks")
    ctx.log(
        "casualties",
        f"Joint Strike: the United Kingdom does not agree; {POWER_NAME[a.defender]} chooses "
        "the attacking casualties.",
    )


def _defender_picks_attackers(ctx: Ctx, a: ActiveBattle, need: bt.Need) -> list[str] | None:
    """The defender's choice among the attackers, made by the engine when there is no
    real choice or the casualty option is on (then the dearest units go first)."""
    if _forced(ctx, a, need):
        return bt.suggest_casualties(a.b, bt.CasualtyOrder())
    if not ctx.opts.auto_casualties:
        return None
    dear = sorted({u.type for u in need.candidates}, key=lambda t: -ctx.info(t).cost)
    order = bt.CasualtyOrder(first=tuple(dear), damage_battleships_first=False)
    return bt.suggest_casualties(a.b, order)


def _capacity(ctx: Ctx, a: ActiveBattle, need: bt.Need) -> int:
    stats = a.b.stats(need.side)
    return sum(stats[u.type].hit_points - u.hits for u in need.candidates)


def _submergible(ctx: Ctx, a: ActiveBattle, side: str) -> bool:
    b = a.b
    if not b.sea:
        return False
    mine = [u for u in b.units(side) if u.type == "submarine"]
    other = b.units(bt.DEFENDER if side == bt.ATTACKER else bt.ATTACKER)
    return bool(mine) and not any(u.type == "destroyer" for u in other)


def retreat_options(ctx: Ctx) -> list[str]:
    """Where the attacker may retreat now: ``"air"`` for aircraft alone, else the
    spaces the land or sea units may all go to (Revised: Attacker Retreats; FAQ:
    Retreats). Empty when no retreat is possible."""
    s = ctx.state
    a = s.battle
    b = a.b
    if not bt.alive(b, bt.DEFENDER):
        return []
    power = a.attacker
    kinds = {ctx.kind(s.units[u.uid]) for u in b.attackers if u.uid in s.units}
    if b.amphibious:
        return ["air"] if "air" in kinds else []
    if kinds <= {"air"}:
        return ["air"] if kinds else []
    if a.sea:
        return [z for z in a.sea_origins if not ctx.hostile_zone(z, power)]
    return [t for t in a.land_origins if ctx.friendly_territory(t, power)]


# ------------------------------------------------------------------ the players' answers


def casualties(ctx: Ctx, order: Casualties) -> None:
    """The owner of the units hit chooses them (Revised: Conduct Combat; FAQ: the
    defender chooses before firing back). Battleships named take their first hit as
    damage (Battleship Damage). In a Joint Strike the U.S. choice waits for the U.K.'s
    agreement (Appendix 3); units named by type are the U.S.'s first."""
    a = ctx.state.battle
    need = bt.needs(a.b)
    first = a.attacker if need.side == bt.ATTACKER else None
    cands = list(need.candidates)
    picks: list[str] = []
    hits_on: dict[str, int] = {}
    stats = a.b.stats(need.side)
    for uid in order.ids:
        match = [u for u in cands if u.uid == uid]
        if not match:
            raise refuse(R_COMBAT, f"{uid} cannot take this hit.", _choices(ctx, need))
        picks.append(uid)
        hits_on[uid] = hits_on.get(uid, 0) + 1
    for t, n in order.units.items():
        pool = sorted((u for u in cands if u.type == t),
                      key=lambda u: (u.owner != first, u.hits, uid_key(u.uid)))  # fmt: skip
        if not pool:
            rule, why = _why_not(ctx, a, need, t)
            raise refuse(rule, why, _choices(ctx, need))
        for _ in range(n):
            # an undamaged battleship first, then the damaged ones (Battleship Damage)
            pool.sort(key=lambda u: (u.owner != first, u.hits + hits_on.get(u.uid, 0),
                                     uid_key(u.uid)))  # fmt: skip
            u = next(
                (u for u in pool if hits_on.get(u.uid, 0) + u.hits < stats[u.type].hit_points),
                None,
            )
            if u is None:
                raise refuse(
                    R_COMBAT,
                    f"There are not enough {ctx.info(t).plural.lower()} to take {n} hits.",
                    _choices(ctx, need),
                )
            picks.append(u.uid)
            hits_on[u.uid] = hits_on.get(u.uid, 0) + 1
    if len(picks) != need.count:
        raise refuse(
            R_COMBAT,
            f"{need.count} casualt{'y is' if need.count == 1 else 'ies are'} due, not {len(picks)}.",
            _choices(ctx, need),
        )
    if (
        need.side == bt.ATTACKER
        and "joint" in a.flags
        and "joint_defender_picks" not in a.flags
        and needs_agreement(ctx)
    ):
        _propose(ctx, a, picks)
        return
    _choose(ctx, a, need.side, picks)


def _choose(ctx: Ctx, a: ActiveBattle, side: str, picks: list[str]) -> None:
    """Give the pending hits to ``picks`` (Revised: Conduct Combat)."""
    a.b = bt.choose_casualties(a.b, side, picks)
    if side == bt.ATTACKER and "joint_defender_picks" in a.flags:
        a.flags.remove("joint_defender_picks")
    _flush(ctx)


def _why_not(ctx: Ctx, a: ActiveBattle, need: bt.Need, t: str) -> tuple[str, str]:
    """Why units of type ``t`` cannot take the hits now: the rule and a sentence."""
    name = ctx.info(t).plural.lower()
    source = a.b.pending[0].source if a.b.pending else bt.FIRE
    in_battle = any(u.type == t for u in a.b.units(need.side))
    if source == bt.SUBMARINES and in_battle:
        return (
            "Revised: Opening Fire, Submarines",
            f"Hits scored by submarines go only to ships, not to {name}.",
        )
    if source == bt.BOMBARDMENT and in_battle:
        return (
            "Revised: Opening Fire, Battleship Bombardment",
            f"Shore bombardment hits only land units, not {name}.",
        )
    if t == "aa_gun":
        return ("Revised: Appendix 1, Antiaircraft Guns", "Antiaircraft guns are never casualties.")
    if in_battle:
        return (R_COMBAT, f"Every one of the {name} is already a casualty this cycle.")
    return (R_COMBAT, f"No {name} of this side are in the battle.")


def _cargo_text(ctx: Ctx, uid: str) -> str:
    cargo = ctx.cargo_of_id(uid)
    return f"carrying {units_phrase(cargo)}" if cargo else "empty"


def _choices(ctx: Ctx, need: bt.Need) -> str:
    counts: dict[str, int] = {}
    for u in need.candidates:
        counts[u.type] = counts.get(u.type, 0) + 1
    words = ", ".join(f"{n} {ctx.short(t)}" for t, n in counts.items())
    loaded = {u.type for u in need.candidates if ctx.cargo_of_id(u.uid)}
    if loaded:  # ships with cargo are told apart by id: the cargo goes down with them
        words += "; by id: " + ", ".join(
            f"{ctx.short(u.type)} {u.uid} ({_cargo_text(ctx, u.uid)})"
            for u in need.candidates
            if u.type in loaded
        )
    owners = {u.owner for u in need.candidates}
    if len(owners) > 1 and need.side == bt.ATTACKER:  # a Joint Strike: name them by id
        words += "; " + "; ".join(
            f"{POWER_NAME[p]}: " + " ".join(u.uid for u in need.candidates if u.owner == p)
            for p in sorted(owners)
        )
    return f"Choose {need.count} from: {words}."


def _subs(ctx: Ctx, a: ActiveBattle, side: str, counts: dict[str, int]) -> list[str]:
    if not counts:
        return []
    if set(counts) != {"submarine"}:
        raise refuse("Revised: Appendix 1, Submarines", "Only submarines submerge.")
    pool = sorted((u.uid for u in a.b.units(side) if u.type == "submarine"), key=uid_key)
    n = counts["submarine"]
    if n > len(pool):
        raise refuse(
            "Revised: Appendix 1, Submarines",
            f"Only {len(pool)} submarine{'s are' if len(pool) != 1 else ' is'} in this battle.",
        )
    return pool[:n]


def press(ctx: Ctx, order: Press) -> None:
    a = ctx.state.battle
    subs = _subs(ctx, a, bt.ATTACKER, order.submerge)
    a.b = bt.press(a.b, subs)
    _flush(ctx)


def retreat(ctx: Ctx, order: Retreat) -> None:
    """Revised: Attacker Retreats: land and sea units all go to one adjacent friendly
    space some of them came from; aircraft leave with them and land in the noncombat
    move; in an amphibious assault only the aircraft may leave (FAQ: Retreats)."""
    s = ctx.state
    g = ctx.geo
    a = s.battle
    options = retreat_options(ctx)
    to = order.to or "air"
    if to not in options:
        if not options:
            raise refuse(
                R_STEP7,
                "No retreat is possible: "
                + (
                    "land units in an amphibious assault never retreat"
                    if a.b.amphibious
                    else "no friendly space adjacent is one the attacking units came from"
                )
                + ".",
                "press",
            )
        legal = listing(o if o == "air" else g.name(o) for o in options)
        raise refuse(
            R_STEP7,
            (
                "Only the aircraft may retreat from the land battle of an amphibious assault."
                if a.b.amphibious
                else f"The attackers may retreat only to an adjacent friendly space some of "
                f"them came from, not {g.name(to) if to != 'air' else 'away by air alone'}."
            ),
            f"Retreat to: {legal}.",
        )
    subs = _subs(ctx, a, bt.ATTACKER, order.submerge)
    leaving = [u.uid for u in a.b.attackers if u.uid not in subs]
    a.b = bt.retreat(a.b, air_only=a.b.amphibious, submerge=subs)
    for uid in leaving:
        u = s.units.get(uid)
        if u is None:
            continue
        if a.b.amphibious and ctx.kind(u) != "air":
            continue
        u.retreated = True
        u.stopped = True
        if ctx.kind(u) != "air" and to != "air":
            ctx.place_at(u, to)
            for c in ctx.cargo(u):
                c.landing = None
    where = "by air" if to == "air" else f"to {g.name(to)}"
    ctx.log("retreat", f"{POWER_NAME[a.attacker]} retreats from {g.name(a.space)} {where}.",
            space=a.space, to=to)  # fmt: skip
    ctx.mark("retreat", a.attacker, [a.space] + ([to] if to != "air" else []), "retreat")
    _flush(ctx)


def submerge(ctx: Ctx, order: Submerge) -> None:
    a = ctx.state.battle
    subs = _subs(ctx, a, bt.DEFENDER, order.units)
    a.b = bt.defender_submerge(a.b, subs)
    _flush(ctx)


# ------------------------------------------------------------------ the end of a battle


def finish(ctx: Ctx) -> None:
    """Carry a finished battle back to the board (Revised: Step 7 and Step 8)."""
    s = ctx.state
    g = ctx.geo
    a = s.battle
    b = a.b
    _flush(ctx)
    for bu in (*b.attackers_submerged, *b.defenders_submerged):
        u = s.units.get(bu.uid)
        if u is not None:
            u.submerged = True
            u.fought = True
    for bu in (*b.attackers, *b.retreated):
        u = s.units.get(bu.uid)
        if u is not None:
            u.fought = True
    outcome = b.outcome
    s.battle = None
    if a.sea:
        _reseat_defenders(ctx, a)
        _land_deferred(ctx, a.space, won=outcome == bt.ATTACKER_WON)
    elif outcome == bt.ATTACKER_WON:
        if any(u.uid in s.units and "can_capture" in ctx.info(u.type).flags for u in b.attackers):
            capture(ctx, a.space, a.attacker)
        else:
            ctx.log(
                "battle",
                f"Only aircraft survive in {g.name(a.space)}; they cannot capture it "
                "(Revised: Step 8).",
            )
    from engine.games.aa_revised.advantages import after_battle

    after_battle(ctx, a)


def _land_deferred(ctx: Ctx, zone: str, won: bool) -> None:
    """After the sea battle of an amphibious assault, the waiting cargo lands if the
    zone was cleared, and stays aboard otherwise (Revised: Amphibious Assaults)."""
    s = ctx.state
    g = ctx.geo
    power = s.power
    waiting = [u for u in ctx.at(zone) if u.owner in ctx.commanded() and u.landing]
    cleared = won and not ctx.hostile_zone(zone, power)
    for u in sorted(waiting, key=lambda u: uid_key(u.id)):
        target = u.landing
        u.landing = None
        if cleared:
            u.aboard = None
            u.prev = zone
            ctx.place_at(u, target)
            if target not in s.battles and not ctx.friendly_territory(target, power):
                s.battles.append(target)
                s.battles.sort()
        else:
            t = s.units.get(u.aboard) if u.aboard else None
            if t is not None and t.offloaded == target:
                t.offloaded = None
    if waiting:
        if cleared:
            ctx.log("landing", f"The sea zone {g.name(zone)} is clear: {units_phrase(waiting)} "
                    "go ashore.", space=zone)  # fmt: skip
        else:
            ctx.log("landing", f"The landing from {g.name(zone)} is called off; "
                    f"{units_phrase(waiting)} stay aboard.", space=zone)  # fmt: skip
    # a landing target whose attackers are all gone has no battle left
    for t in list(s.battles):
        if t in g.land and not any(
            u.owner in ctx.commanded() and (u.at == t or u.landing == t) for u in s.units.values()
        ):
            s.battles.remove(t)


def _reseat_defenders(ctx: Ctx, a: ActiveBattle) -> None:
    """Defending fighters go back aboard surviving carriers; those without a deck must
    fly one space to safety after the combat phase (Appendix 1, Fighters; FAQ)."""
    s = ctx.state
    zone = a.space
    fighters = [s.units[f] for f in a.carrier_fighters if f in s.units]
    carriers = sorted(
        (u for u in ctx.at(zone) if u.type == "carrier" and SIDE[u.owner] != SIDE[a.attacker]),
        key=lambda u: uid_key(u.id),
    )
    room = {
        c.id: air.CARRIER_ROOM - sum(1 for x in ctx.at(zone) if x.aboard == c.id) for c in carriers
    }
    for f in sorted(fighters, key=lambda u: uid_key(u.id)):
        decks = sorted(carriers, key=lambda c: (c.owner != f.owner, uid_key(c.id)))
        deck = next((c for c in decks if room[c.id] > 0), None)
        if deck is None:
            s.stranded.append(f.id)
            continue
        f.aboard = deck.id
        room[deck.id] -= 1


def escape_stranded(ctx: Ctx) -> None:
    """Fighters whose carrier sank fly one space to a friendly territory or carrier
    not contested this turn, or are lost (FAQ: Combat; RULINGS R-36: the engine picks
    the nearest safe deck, a carrier before a territory)."""
    s = ctx.state
    g = ctx.geo
    contested = set(s.contested)
    for fid in list(s.stranded):
        f = s.units.get(fid)
        if f is None:
            continue
        side = SIDE[f.owner]
        best = None
        for n in g.air_adj[f.at]:
            if n in contested:
                continue
            if n in g.sea:
                for c in sorted(ctx.at(n), key=lambda u: uid_key(u.id)):
                    if (
                        c.type == "carrier"
                        and SIDE[c.owner] == side
                        and not ctx.hostile_zone(n, f.owner)
                    ):
                        if sum(1 for x in ctx.at(n) if x.aboard == c.id) < air.CARRIER_ROOM:
                            best = (0, n, c.id)
                            break
            elif ctx.friendly_territory(n, f.owner):
                cand = (1, n, None)
                if best is None or cand < best:
                    best = cand
            if best and best[0] == 0:
                break
        if best is None:
            ctx.destroy(f, ": its carrier sank and no friendly deck or territory is one space away")
            continue
        _, where, carrier = best
        ctx.place_at(f, where)
        f.aboard = carrier
        ctx.log("escape", f"{POWER_NAME[f.owner]}'s fighter {f.id}, its carrier sunk, flies to "
                f"{g.name(where)}.", unit=f.id, to=where)  # fmt: skip
    s.stranded = []
