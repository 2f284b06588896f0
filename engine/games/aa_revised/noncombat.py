"""Phase 5, Noncombat Move: the end of the phase (Revised; Completing Air Units' Move;
Appendix 1, Fighters and Submarines).

The moves themselves are :mod:`movement`'s. When the player is done, carriers go to the
fighters waiting for them (a carrier that can reach fighters at sea must, FAQ:
Transports and Carriers), aircraft land, those with nowhere to land are lost, and
submerged submarines resurface (without combat).
"""

from __future__ import annotations

from engine.games.aa_revised import air
from engine.games.aa_revised.context import Ctx, units_phrase
from engine.games.aa_revised.movement import carrier_reach
from engine.games.aa_revised.state import POWER_NAME, SIDE, uid_key


def finish(ctx: Ctx) -> None:
    s = ctx.state
    power = s.power
    _follow_through(ctx)
    _land_aircraft(ctx)
    risen = [u for u in s.units.values() if u.submerged]
    for u in risen:
        u.submerged = False
    if risen:
        ctx.log("surface", f"Submerged submarines surface: {units_phrase(risen)} "
                "(no combat follows).")  # fmt: skip
    from engine.games.aa_revised.advantages import after_noncombat

    after_noncombat(ctx)
    ctx.log("phase", f"{POWER_NAME[power]}'s noncombat move is over.")


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


def _land_aircraft(ctx: Ctx) -> None:
    """Revised: Completing Air Units' Move: aircraft land at the very end of the
    noncombat move (FAQ), in a territory friendly since the start of the turn, or
    (fighters) on a friendly carrier with room; the others are lost."""
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
                ctx.destroy(
                    u, ": it has no friendly territory to land in (Completing Air Units' Move)"
                )
            continue
        if u.type != "fighter":
            ctx.destroy(u, ": bombers cannot land at sea")
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
            ctx.destroy(u, ": no friendly carrier has room for it")
            continue
        u.aboard = deck.id
        u.deck = None
