"""Which rule handles an order at each prompt of a North Africa turn (the phases of
Order of Play, L55-62, and the decisions inside Phase 4 and mine detonation)."""

from __future__ import annotations

from engine.core.orders import Order
from engine.games.aa_na import (
    air,
    combat_move,
    conclude,
    deploy,
    events,
    land_combat,
    land_conclude,
    mines,
    noncombat,
    optional,
    requisition,
    sea_combat,
    sea_mines,
    sea_move,
)
from engine.games.aa_na.context import Ctx, listing, refuse
from engine.games.aa_na.orders import (
    Advance,
    Blitz,
    Buy,
    Cargo,
    Casualties,
    Cease,
    Declare,
    Deploy,
    Detonate,
    Done,
    Escape,
    Fight,
    LandMine,
    Move,
    Press,
    Reinforce,
    Repair,
    Resolve,
    RetreatTo,
    SeaMine,
    Submerge,
    Supply,
    Target,
    TurnBack,
    Withdraw,
)  # fmt: skip
from engine.games.aa_na.state import POWER_NAME

R_SEQ = "North Africa: Order of Play (L55-62; RULINGS: turn order)"
R_COMBAT = "North Africa: Phase 4, Conduct Combat (L724-730)"


def dispatch(ctx: Ctx, kind: str, order: Order) -> None:
    """Hand the order to the rule that handles it at this prompt (``kind``)."""
    s = ctx.state
    match kind, order:
        case "requisition", Buy():
            requisition.buy(ctx, order)
        case "requisition", Supply():
            requisition.buy_supply(ctx, order)
        case "requisition", LandMine():
            requisition.land_mine(ctx, order)
        case "requisition", SeaMine():
            requisition.sea_mine(ctx, order)
        case "requisition", Repair():
            requisition.repair(ctx)
        case "requisition", Done():
            if s.rp:
                ctx.log("income", f"{POWER_NAME[s.power]} leaves {s.rp} RP unspent; they are lost (L565).")
            s.rp = 0
            s.phase = "combat_move"
        case "combat_move", Blitz():
            combat_move.blitz(ctx, order)
        case "combat_move", Move():
            if air.names_air(ctx, order):
                air.combat_fly(ctx, order)
            elif sea_move.names_sea(ctx, order):
                sea_move.combat_sail(ctx, order)
            else:
                combat_move.move(ctx, order)
        case "combat_move", Declare():
            sea_move.check_done(ctx)  # moves end with the first declaration (L634)
            combat_move.declare(ctx, order)
        case "combat_move", Done():
            combat_move.check_done(ctx)
            sea_move.check_done(ctx)
            air.declare_air_attacks(ctx)
            sea_move.declare_sea_attacks(ctx)
            optional.pay_reserve(ctx)
            conclude.declare_torch(ctx)
            mines.pending(ctx)
            s.phase = "combat"
        case "combat", Resolve():
            conclude.resolve(ctx, order)
        case "orders", Fight():
            land_combat.fight(ctx, order)
        case "orders", Withdraw():
            land_combat.withdraw(ctx, order)
        case "bomber_targets", Target():
            land_combat.target(ctx, order)
        case ("def_casualties" | "att_casualties"), Casualties():
            land_combat.casualties(ctx, order)
        case "retreat", RetreatTo():
            land_combat.retreat_to(ctx, order)
        case "press", Press():
            land_conclude.press(ctx, order)
        case "press", Cease():
            land_conclude.cease(ctx, order)
        case "press", Reinforce():
            optional.reinforce(ctx, order)
        case "advance", Advance():
            land_conclude.advance(ctx, order)
        case "combat", Done():
            if s.attacks:
                raise refuse(R_COMBAT, "Every declared attack must be carried out (L726).",
                             f"Declared: {listing(ctx.name(a['target']) for a in s.attacks)}.")
            s.phase = "noncombat"
        case "subs", Submerge():
            sea_combat.submerge(ctx, order)
        case "sea_casualties", Casualties():
            sea_combat.casualties(ctx, order)
        case "cargo", Cargo():
            sea_combat.cargo(ctx, order)
        case "sea_targets", Target():
            sea_combat.target(ctx, order)
        case "escape", Escape():
            sea_combat.escape(ctx, order)
        case "sea_press", Press():
            sea_combat.press(ctx)
        case "sea_press", Cease():
            ctx.log("battle", "The attacker ceases the sea attack.")
            sea_combat.conclude(ctx)
        case "mines", Detonate():
            mines.detonate(ctx, order)
        case "turnback", TurnBack():
            mines.turn_back(ctx, order)
        case "aa_casualties", Casualties():
            air.aa_casualties(ctx, order)
        case "noncombat", Move():
            noncombat.move(ctx, order)
        case "noncombat", Done():
            noncombat.done(ctx)
            s.phase = "deploy"
            events.run(ctx, s.round, s.power, 6)
        case "deploy", Deploy():
            deploy.deploy(ctx, order)
        case "deploy", Move():
            air.escort_fly(ctx, order)
        case "deploy", Done():
            deploy.finish(ctx)
            sea_mines.pending(ctx)
            s.bought["turn_done"] = True
        case "seamines", Detonate():
            sea_mines.detonate(ctx, order)
        case "seamine_hits", Casualties():
            sea_mines.casualties(ctx, order)
        case "seamine_cargo", Cargo():
            sea_mines.cargo(ctx, order)
        case _:  # pragma: no cover - verbs are checked against the prompt first
            raise refuse(R_SEQ, f"'{order.verb}' is not accepted now.")
