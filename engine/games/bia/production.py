"""Phase 3, Production (7.3, L1026-1271): the income (:mod:`ledger`), the Order of
Battle's forced removals and free reinforcements (7.2 L1022-1024, 7.3.2-7.3.4), then the
player's purchases (repairs and rebuilds) and disbanding (:mod:`spending`), and the
storage of what is left at the end. Voluntary hold-back (7.3.5) is not offered yet.

Rulebook line numbers (``L123``) refer to ``shared/rules/003_19684674ce068529.txt``.
"""

from __future__ import annotations

from engine.core.events import private
from engine.games.bia import air, ledger, supply
from engine.games.bia.board import SIDE_NAME
from engine.games.bia.context import Ctx


def open_phase(ctx: Ctx) -> None:
    """The automatic start of the Production Phase (7.3, L1029-1033; 7.3.3 L1217-1219:
    removals before any purchase): income, removals, reinforcements. Blocks disbanded in
    this side's last Production Phase may be rebuilt from now on (7.3.6, L1269). Italian
    and German air units waiting at home since an earlier turn may fly to Africa in this
    phase (L1110-1111, :func:`engine.games.bia.air.due_from_home`)."""
    s = ctx.state
    s.arrivals, s.disbanded = {}, []
    s.air_due = air.due_from_home(ctx)  # before this turn's arrivals: a turn later (L1110-1111)
    ledger.collect_income(ctx)
    removals(ctx)
    reinforcements(ctx)
    air.arrival_note(ctx)


def removals(ctx: Ctx) -> None:
    """7.3.3 (L1213-1222): a unit the scenario withdraws this month leaves play before
    anything is bought; one out of supply goes in the first later turn it is supplied.
    One eliminated instead costs its paying power its full rebuild in PP, as far as the
    stock goes (RULINGS B34); one never arrived is simply withdrawn."""
    s, board, side = ctx.state, ctx.board, ctx.state.player
    for r in board.pack.scenario(s.scenario).removals:
        b = s.blocks.get(r.unit)
        if b is None or b.side != side or r.turn > s.turn or b.where == "removed":
            continue
        if b.where == "map" and b.oos:
            ctx.events.append(
                private(
                    "removal",
                    f"Removal of {ctx.name(b)} is postponed: it is out of supply (7.3.3).",
                    (side,),
                )
            )
            continue
        was = b.at if b.where == "map" else None
        if b.where == "dead":
            _pay_removal(ctx, b)
        b.where, b.at, b.oos = "removed", None, False
        ctx.events.append(
            private(
                "removal",
                f"{ctx.name(b)} leaves the theatre (scenario removal, 7.3.3).",
                (side,),
                f"{b.token} leaves the theatre from {was}." if was else None,
            )
        )


def _pay_removal(ctx: Ctx, b) -> None:
    s, board = ctx.state, ctx.board
    block = board.block(b.id)
    power = ledger.payer(board, s, block.power)
    cost = ledger.full_cost(board, block) or {}
    if power is None or not cost:
        return
    stock = s.pp.setdefault(power, {})
    paid = {c: min(n, stock.get(c, 0)) for c, n in cost.items()}
    ledger.pay(s, power, paid)
    ctx.events.append(
        private(
            "removal",
            f"{ctx.name(b)} is not in play: its removal costs {ledger.show(paid)} PP "
            f"(its full rebuild is {ledger.show(cost)}, 7.3.3).",
            (b.side,),
        )
    )


def reinforcements(ctx: Ctx) -> None:
    """7.3.2 and 7.3.4 (L1159-1172, L1253-1260): the blocks the scenario sends this month,
    and those held back before, arrive at their place. A place on the map must be
    controlled and able to act as a supply source (4.2), and takes one new block (two in
    a national capital); otherwise the block is held back to a later turn (7.3.5,
    digest A62). A Strategic Map box always takes it."""
    s, board, side = ctx.state, ctx.board, ctx.state.player
    limits = board.pack.tables.stacking
    arrived = s.arrivals
    sources: dict[str, dict[str, int]] = {}
    for r in board.pack.scenario(s.scenario).reinforcements:
        b = s.blocks.get(r.unit)
        if b is None or b.side != side or r.turn > s.turn or b.where != "pool":
            continue
        if r.place.startswith("box:"):
            b.where, b.at = "box", r.place[4:]
            box = board.pack.strategic.boxes[b.at].name
            ctx.events.append(
                private(
                    "arrive",
                    f"{ctx.name(b)} arrives in {box}.",
                    (side,),
                    f"{b.token} arrives in {box}.",
                )
            )
            continue
        hex_id = board.pack.places[r.place]
        power = board.block(b.id).power
        if power not in sources:
            sources[power] = supply.sources(board, s, power)
        local = board.hex(hex_id).locality
        room = limits.new_units_per_capital if local == "capital" else limits.new_units_per_hex
        if s.control.get(hex_id) != side or hex_id not in sources[power]:
            why = "is not a friendly supply source"
        elif arrived.get(hex_id, 0) >= room:
            why = f"already took {room} new block(s) this turn"
        else:
            arrived[hex_id] = arrived.get(hex_id, 0) + 1
            b.where, b.at = "map", hex_id
            ctx.events.append(
                private(
                    "arrive",
                    f"{ctx.name(b)} arrives at {ctx.where(hex_id)}.",
                    (side,),
                    f"A new {SIDE_NAME[side]} block, {b.token}, arrives at {ctx.where(hex_id)}.",
                )
            )
            continue
        ctx.events.append(
            private(
                "arrive",
                f"{ctx.name(b)} is held back: {ctx.where(hex_id)} {why} (7.3.4).",
                (side,),
            )
        )
