"""Phase 5, Noncombat Move: the end of the phase (Revised; Completing Air Units' Move;
Appendix 1, Fighters and Submarines).

The moves themselves are :mod:`movement`'s. When the player is done, carriers go to the
fighters waiting for them (a carrier that can reach fighters at sea must, FAQ:
Transports and Carriers), aircraft land, those with nowhere to land are lost, and
submerged submarines resurface (without combat).
"""

from __future__ import annotations

from engine.games.aa_revised import air
from engine.games.aa_revised.context import Ctx, listing, refuse, units_phrase
from engine.games.aa_revised.movement import cannot_move, carrier_reach, destinations, remaining
from engine.games.aa_revised.state import POWER_NAME, SIDE, Unit, uid_key

R_LANDING = "Revised: Completing Air Units' Move"


def finish(ctx: Ctx, confirm: bool = False) -> None:
    """The player's ``done``: refused while it would lose aircraft that can still land,
    unless confirmed (issue 9: no work lost silently; RULINGS R-54)."""
    s = ctx.state
    power = s.power
    lost = aircraft_lost_if_done(ctx)
    savable = {u.id: sorted(destinations(ctx, u, u.at)) for u in lost}
    if not confirm and any(savable.values()):
        raise refuse(R_LANDING, *_lost_aircraft_refusal(ctx, lost, savable))
    why = {u.id: why_cannot_land(ctx, u) if not savable[u.id] else "it did not fly on to land "
           "although it could ('done confirm')" for u in lost}  # fmt: skip
    _follow_through(ctx)
    _land_aircraft(ctx, why)
    risen = [u for u in s.units.values() if u.submerged]
    for u in risen:
        u.submerged = False
    if risen:
        ctx.log("surface", f"Submerged submarines surface: {units_phrase(risen)} "
                "(no combat follows).")  # fmt: skip
    from engine.games.aa_revised.advantages import after_noncombat

    after_noncombat(ctx)
    ctx.log("phase", f"{POWER_NAME[power]}'s noncombat move is over.")


def aircraft_lost_if_done(ctx: Ctx) -> list[Unit]:
    """The aircraft the end of the noncombat move would destroy now: those still in the
    air with no landing place where they are (carriers that must follow through do)."""
    trial = Ctx(ctx.geo, ctx.opts, ctx.state.clone(), ctx.dice)
    _follow_through(trial)
    _land_aircraft(trial, {})
    left = trial.state.units
    return sorted(
        (u for u in ctx.state.units.values() if ctx.kind(u) == "air" and u.id not in left),
        key=lambda u: uid_key(u.id),
    )


def why_cannot_land(ctx: Ctx, u: Unit) -> str:
    """Why aircraft ``u`` has no landing place it can still reach, in a player's words."""
    where = ctx.geo.name(u.at)
    why = cannot_move(ctx, u, "air")
    if why:
        return f"it cannot fly on from {where} ({why}) and cannot land there"
    fighter = u.type == "fighter"
    left = remaining(ctx, u)
    near = air.distance_to_landing(ctx, u.owner, fighter).get(u.at)
    places = "friendly territory" + (" or carrier with a free place" if fighter else "")
    if near is None:
        return f"no {places} can be reached from {where}"
    if near == 0:
        return f"no carrier in {where} has a free place left for it"
    return (
        f"it has {_spaces(left)} of movement left and the nearest {places} is {_spaces(near)} "
        f"from {where}"
    )


def _spaces(n: int) -> str:
    return f"{n} space{'' if n == 1 else 's'}"


def _lost_aircraft_refusal(ctx: Ctx, lost: list[Unit], savable: dict[str, list[str]]):
    g = ctx.geo
    can = [u for u in lost if savable[u.id]]
    cannot = [u for u in lost if not savable[u.id]]

    def named(u: Unit) -> str:
        return f"{ctx.info(u.type).name.lower()} {u.id} in {g.name(u.at)}"

    reason = (
        "Ending the noncombat move now would lose aircraft that have not landed: "
        + "; ".join(
            f"{named(u)} can still land in {listing(g.name(t) for t in savable[u.id])}" for u in can
        )
        + "."
    )
    if cannot:
        reason += (
            " Lost in any case: "
            + "; ".join(f"{named(u)} ({why_cannot_land(ctx, u)})" for u in cannot)
            + "."
        )
    first = can[0]
    example = f"move {first.id} {first.at} {savable[first.id][0]}"
    return (
        reason,
        f"Fly them to a landing place (e.g. '{example}'), or write 'done confirm' to end the "
        "phase and lose them.",
    )


def _unseated(ctx: Ctx, zone: str) -> int:
    """Fighters of the phasing player in ``zone`` beyond the room on friendly carriers."""
    mine = ctx.commanded()
    side = SIDE[ctx.power]
    here = ctx.at(zone)
    room = sum(
        air.CARRIER_ROOM - sum(1 for x in here if x.aboard == c.id)
        for c in here
        if c.type == "carrier" and SIDE[c.owner] == side
    )
    loose = sum(1 for u in here if u.owner in mine and u.type == "fighter" and u.aboard is None)
    return loose - room


def _follow_through(ctx: Ctx) -> None:
    """A fighter that ended its move at sea must be picked up by a carrier that can get
    there (Revised: Completing Air Units' Move: the carrier must follow through): each
    carrier committed to a sea zone where fighters count on it goes there; then, for
    fighters still without a deck, any carrier of the player's that has not moved and
    can get there does."""
    s = ctx.state
    mine = ctx.commanded()
    for c in sorted(s.units.values(), key=lambda u: uid_key(u.id)):
        if (
            c.type == "carrier" and c.owner in mine and c.pickup and c.at != c.pickup
            and not (c.cm or c.fought or c.stopped or c.moved or c.retreated)
            and c.pickup in carrier_reach(ctx, c)
            and any(f.deck == c.id and f.aboard is None and f.at == c.pickup
                    for f in s.units.values())
        ):  # fmt: skip
            _sail(ctx, c, c.pickup)
    zones = sorted({u.at for u in s.units.values()
                    if u.owner in mine and u.type == "fighter" and u.aboard is None
                    and u.at in ctx.geo.sea})  # fmt: skip
    for zone in zones:
        while _unseated(ctx, zone) > 0:
            carrier = next(
                (c for c in sorted(s.units.values(), key=lambda u: uid_key(u.id))
                 if c.owner in mine and c.type == "carrier" and c.at != zone
                 and not (c.cm or c.fought or c.stopped or c.moved or c.retreated)
                 and zone in carrier_reach(ctx, c)),
                None,
            )  # fmt: skip
            if carrier is None:
                break
            _sail(ctx, carrier, zone)


def _sail(ctx: Ctx, carrier, zone: str) -> None:
    start = carrier.at
    carrier.moved = ctx.movement(carrier)
    carrier.stopped = True
    ctx.place_at(carrier, zone)
    ctx.log(
        "move",
        f"{POWER_NAME[carrier.owner]}'s carrier {carrier.id} moves from {ctx.geo.name(start)} "
        f"to {ctx.geo.name(zone)} to take the fighters waiting there.",
        unit=carrier.id,
    )


def _land_aircraft(ctx: Ctx, why: dict[str, str]) -> None:
    """Revised: Completing Air Units' Move: aircraft land at the very end of the
    noncombat move (FAQ), in a territory friendly since the start of the turn, or
    (fighters) on a friendly carrier with room; the others are lost, each with ``why``
    it could not land when the reason is known."""
    s = ctx.state
    g = ctx.geo
    power = s.power
    side = SIDE[power]
    safe = air.landing_territories(ctx, power)
    mine = ctx.commanded()
    # fighters promised a deck land first: the places they count on are theirs
    for u in sorted((u for u in s.units.values() if u.owner in mine and ctx.kind(u) == "air"),
                    key=lambda u: (u.deck is None, uid_key(u.id))):  # fmt: skip
        if u.aboard is not None:
            continue
        if u.at in g.land:
            if u.at not in safe:
                reason = why.get(u.id, "it has no friendly territory to land in")
                ctx.destroy(u, f": {reason} (Completing Air Units' Move)")
            continue
        if u.type != "fighter":
            reason = why.get(u.id, "bombers cannot land at sea")
            ctx.destroy(u, f": {reason} (Completing Air Units' Move)")
            continue
        here = ctx.at(u.at)
        deck = None
        promised = s.units.get(u.deck) if u.deck else None
        if promised is not None and promised.at == u.at and not ctx.hostile_zone(u.at, power):
            if sum(1 for x in here if x.aboard == promised.id) < air.CARRIER_ROOM:
                deck = promised
        if deck is None and not ctx.hostile_zone(u.at, power):
            for c in sorted(here, key=lambda c: (c.owner != u.owner, uid_key(c.id))):
                if c.type == "carrier" and SIDE[c.owner] == side:
                    if sum(1 for x in here if x.aboard == c.id) < air.CARRIER_ROOM:
                        deck = c
                        break
        if deck is None:
            reason = why.get(u.id, "no friendly carrier has room for it")
            ctx.destroy(u, f": {reason} (Completing Air Units' Move)")
            continue
        u.aboard = deck.id
        u.deck = None
