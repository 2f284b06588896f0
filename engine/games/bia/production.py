"""Phase 3, Production (7.3, L1026-1271): the income (:mod:`ledger`), the Order of
Battle's forced removals and free reinforcements (7.2 L1022-1024, 7.3.2-7.3.4), then the
player's purchases (repairs and rebuilds) and disbanding (:mod:`spending`), and the
storage of what is left at the end. A reinforcement may be held back by choice as it
arrives (``hold BLOCK``) and brought into play in a later Production Phase (``release
BLOCK [HEX]``, 7.3.5; RULINGS B14, B100-B101).

Rulebook line numbers (``L123``) refer to ``shared/rules/003_19684674ce068529.txt``.
"""

from __future__ import annotations

from engine.core.errors import IllegalOrder
from engine.core.events import private
from engine.games.bia import air, ledger, supply
from engine.games.bia.board import SIDE_NAME
from engine.games.bia.context import Ctx, own_block, refuse
from engine.games.bia.orders import Hold, Release
from engine.games.bia.pack import Reinforcement
from engine.games.bia.state import BlockState


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
        s.held.pop(b.id, None)  # a reinforcement held back is withdrawn with the rest
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
    and those held back by force before, arrive at their place. A place on the map must
    be controlled and able to act as a supply source (4.2), and takes one new block (two
    in a national capital); otherwise the block is held back to a later turn (7.3.5,
    digest A62). A Strategic Map box always takes it. A block held back by choice waits
    for its owner's ``release`` (7.3.5, L1261-1265; RULINGS B100). The owner reads each
    arrival at once and may still hold the block back in this phase; the others read it
    as the phase ends (:func:`close_phase`), so a block held back is never seen (B100)."""
    s, side = ctx.state, ctx.state.player
    sources: dict[str, set[str]] = {}
    for r in _due(ctx):
        b = s.blocks[r.unit]
        if b.id in s.held:
            continue
        why = _place_refusal(ctx, b, r.place, sources)
        if why is None:
            s.fresh[b.id] = b.steps
            _place(ctx, b, r.place, public=False)
            continue
        ctx.events.append(
            private(
                "arrive",
                f"{ctx.name(b)} is held back: {ctx.where(ctx.board.pack.places[r.place])} "
                f"{why} (7.3.4).",
                (side,),
            )
        )


def _due(ctx: Ctx) -> list[Reinforcement]:
    """The scenario's reinforcements of the phasing side due by this turn and not yet in
    play (in the pool: never arrived, or held back)."""
    s = ctx.state
    return [
        r for r in ctx.board.pack.scenario(s.scenario).reinforcements
        if r.unit in s.blocks and s.blocks[r.unit].side == s.player
        and r.turn <= s.turn and s.blocks[r.unit].where == "pool"
    ]  # fmt: skip


def _place_refusal(
    ctx: Ctx, b: BlockState, place: str, sources: dict[str, set[str]] | None = None
) -> str | None:
    """Why a reinforcement's arrival place cannot take it now (7.3.2 L1159-1169, 7.3.4
    L1253-1260), as the end of a sentence naming the place; None when it can. A box
    always can."""
    if place.startswith("box:"):
        return None
    s, board = ctx.state, ctx.board
    hex_id = board.pack.places[place]
    power = board.block(b.id).power
    sources = {} if sources is None else sources
    if power not in sources:
        sources[power] = supply.sources(board, s, power)
    limits = board.pack.tables.stacking
    capital = board.hex(hex_id).locality == "capital"
    room = limits.new_units_per_capital if capital else limits.new_units_per_hex
    if s.control.get(hex_id) != s.player or hex_id not in sources[power]:
        return "is not a friendly supply source"
    if s.arrivals.get(hex_id, 0) >= room:
        return f"already took {room} new block(s) this turn"
    return None


def _place(ctx: Ctx, b: BlockState, place: str, public: bool) -> None:
    """Put a reinforcement at its place: the owner reads it now, the others now only when
    ``public`` (a release), else as the phase ends (:func:`close_phase`)."""
    s, side = ctx.state, ctx.state.player
    if place.startswith("box:"):
        b.where, b.at = "box", place[4:]
        spot = f"in {ctx.board.pack.strategic.boxes[b.at].name}"
    else:
        hex_id = ctx.board.pack.places[place]
        s.arrivals[hex_id] = s.arrivals.get(hex_id, 0) + 1
        b.where, b.at = "map", hex_id
        spot = f"at {ctx.where(hex_id)}"
    ctx.events.append(
        private(
            "arrive",
            f"{ctx.name(b)} arrives {spot}.",
            (side,),
            _arrival_line(ctx, b) if public else None,
        )
    )


def _arrival_line(ctx: Ctx, b: BlockState) -> str:
    """What the others read of a reinforcement's arrival: its nation's colour (the token)
    and its place, as of any block entering play (1.3; RULINGS B10)."""
    if b.where == "box":
        return f"{b.token} arrives in {ctx.board.pack.strategic.boxes[b.at].name}."
    return f"A new {SIDE_NAME[b.side]} block, {b.token}, arrives at {ctx.where(b.at)}."


def close_phase(ctx: Ctx) -> None:
    """The end of the Production Phase: the others read the arrivals of the reinforcements
    that came by themselves and were not held back or disbanded (7.3.5; RULINGS B100)."""
    s = ctx.state
    for i in sorted(s.fresh, key=lambda i: s.blocks[i].token):
        b = s.blocks[i]
        if b.where in ("map", "box"):
            line = _arrival_line(ctx, b)
            ctx.events.append(private("arrive", line, (b.side,), line))
    s.fresh = {}


# -- holding back by choice (7.3.5) -------------------------------------------------------------


def check_hold(ctx: Ctx, order: Hold) -> BlockState:
    """7.3.5 (L1261-1265): a reinforcement that arrived by itself in this Production Phase
    may be held back instead, before anything is bought for it (RULINGS B100)."""
    s = ctx.state
    b = own_block(ctx, order.block, "BIA 7.3.5", None)
    if b.id not in s.fresh or b.where not in ("map", "box"):
        raise refuse("BIA 7.3.5", f"{ctx.name(b)} is not a reinforcement that arrived in this "
                     "Production Phase; only those are held back.")  # fmt: skip
    if b.steps != s.fresh[b.id]:
        raise refuse("BIA 7.3.5", f"{ctx.name(b)} was repaired in this phase; a reinforcement "
                     "is held back as it arrives, before anything is bought for it.")  # fmt: skip
    return b


def apply_hold(ctx: Ctx, order: Hold) -> None:
    b = check_hold(ctx, order)
    s = ctx.state
    if b.where == "map":
        s.arrivals[b.at] -= 1  # its place takes another new block (7.3.2, L1165-1169)
    b.where, b.at = "pool", None
    del s.fresh[b.id]
    s.held[b.id] = s.turn
    ctx.events.append(
        private(
            "hold",
            f"{ctx.name(b)} is held back; 'release' brings it into play in the "
            "Production Phase of any later turn, at no cost (7.3.5).",
            (b.side,),
        )
    )


def check_release(ctx: Ctx, order: Release) -> tuple[BlockState, str]:
    """7.3.5 (L1261-1265): a reinforcement held back, by choice in an earlier turn or by
    force (7.3.4), enters play in its owner's Production Phase at no cost, at the arrival
    place the scenario gives it, when that place can take it now (7.3.2; RULINGS B101).
    ``HEX``, when given, must be that place."""
    s, board = ctx.state, ctx.board
    b = own_block(ctx, order.block, "BIA 7.3.5", None)
    r = next((r for r in _due(ctx) if r.unit == b.id), None)
    if r is None:
        raise refuse("BIA 7.3.5", f"{ctx.name(b)} is no reinforcement held back; only those "
                     "are released.")  # fmt: skip
    if s.held.get(b.id) == s.turn:
        raise refuse("BIA 7.3.5", f"{ctx.name(b)} was held back in this phase; it may enter "
                     "play in the Production Phase of a later turn.")  # fmt: skip
    place = r.place
    spot = board.pack.strategic.boxes[place[4:]].name if place.startswith("box:") else None
    hex_id = None if spot else board.pack.places[place]
    if order.at is not None and order.at != hex_id:
        raise refuse("BIA 7.3.5", f"{ctx.name(b)} enters play only at its arrival place, "
                     f"{spot or ctx.where(hex_id)}.")  # fmt: skip
    why = _place_refusal(ctx, b, place)
    if why is not None:
        raise refuse("BIA 7.3.4", f"{ctx.name(b)} stays held back: {ctx.where(hex_id)} {why}.")
    return b, place


def apply_release(ctx: Ctx, order: Release) -> None:
    b, place = check_release(ctx, order)
    ctx.state.held.pop(b.id, None)
    _place(ctx, b, place, public=True)


def choice_orders(ctx: Ctx) -> list:
    """Every ``hold`` and ``release`` the phasing side may give now (7.3.5)."""
    s = ctx.state
    out: list = []
    for i in sorted(s.fresh):
        try:
            check_hold(ctx, Hold(block=i))
        except IllegalOrder:
            continue
        out.append(Hold(block=i))
    for r in sorted(_due(ctx), key=lambda r: r.unit):
        try:
            check_release(ctx, Release(block=r.unit))
        except IllegalOrder:
            continue
        out.append(Release(block=r.unit))
    return out
