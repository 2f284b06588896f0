"""Air units off the battlefield: Air Transfer and Air Attack in the Movement Phase (7.5,
L1334-1348), Defender Reaction (7.6, L1431-1436), retreat and rebasing after battle
(7.7.11.2 L1816-1818, 7.8.1 L1880-1886), Air Evacuation (L1650-1656) and the arrival of
Italian and German air units from home (L1110-1117). The air steps of a battle are
:mod:`engine.games.bia.air_combat`.

An airfield is a city or bunker hex its side controls that can act as a supply source of
the unit's power (3.4.1, L299-309), holding no enemy unit and no other air unit of its
side based there (one per airfield, L305). Air units flying a mission or taking part in
a battle are ``state.aloft``: they stand in the battle hex, have no ZOC (3.22, L632-633)
and hold no airfield until they land again. Under the advanced rules an air unit attacks
or reacts only when fuelled (AR 11.10, L2263-2265; :mod:`engine.games.bia.fuel`).

Rulebook line numbers (``L123``) refer to ``shared/rules/003_19684674ce068529.txt``.
"""

from __future__ import annotations

from engine.core.errors import IllegalOrder
from engine.core.events import Event, private
from engine.games.bia import combat, special, supply
from engine.games.bia.board import Board, enemy
from engine.games.bia.context import Ctx, refuse
from engine.games.bia.movement import out_of_fuel
from engine.games.bia.orders import Attack, Fly, React
from engine.games.bia.pack import distance
from engine.games.bia.state import BlockState, State

#: the powers whose air units fly from home to Africa by themselves (L1110-1117)
FLY_FROM_HOME = ("italy", "germany")


def is_air(board: Board, b: BlockState) -> bool:
    return board.block(b.id).unit_class == "air"


def standard_range(board: Board, state: State, b: BlockState) -> int:
    """The Play Aid range by type and TECH (3.16; fighters 5/5/10, bombers 10/10/15): the
    reach of an Air Attack, a reaction and a rebase (7.7.11.2, L1816-1818)."""
    block = board.block(b.id)
    tech = board.pack.tables.tech(block.power, block.kind, state.turn)
    return board.pack.tables.air_range.get(block.kind, {}).get(str(tech), 5)


def transfer_range(board: Board, state: State, b: BlockState) -> int:
    """The standard range doubled in supply (L1348), halved out of supply (L697-699)."""
    reach = standard_range(board, state, b)
    return reach // 2 if b.oos else reach * 2


def _fields(
    board: Board, state: State, b: BlockState, reach: int | None, safe: bool = False
) -> list[str]:
    """The airfields ``b`` may land at from where it is, nearest first: within ``reach``
    hexes (any distance for None), and with ``safe`` outside enemy ZOC (7.7.11, L1781)."""
    power = board.block(b.id).power
    based = {x.at for x in state.on_map(b.side) if is_air(board, x) and x.id not in state.aloft}
    based.discard(None)
    foes = {x.at for x in state.on_map(enemy(b.side))}
    danger = supply.zoc(board, state, enemy(b.side)) if safe else set()
    out = []
    for h in supply.sources(board, state, power):
        place = combat.locality(board, state, h)
        row = board.pack.tables.localities.get(place) if place else None
        if (
            row is not None and row.airfield and state.control.get(h) == b.side
            and h not in based and h not in foes and h not in danger
            and (reach is None or distance(b.at, h) <= reach)
            and special.may_enter(board, state, b, h, b.at if b.where == "map" else None)
        ):  # fmt: skip
            out.append(h)
    return sorted(out, key=lambda h: (distance(b.at, h) if b.where == "map" else 0, h))


def airfields(board: Board, state: State, b: BlockState) -> list[str]:
    """The airfields the block may land at by Air Transfer, nearest first."""
    return [h for h in _fields(board, state, b, transfer_range(board, state, b)) if h != b.at]


def retreat_fields(board: Board, state: State, b: BlockState) -> list[str]:
    """Where an air unit retreats from a battle: a supplied airbase of its side within
    its standard range, outside enemy ZOC (7.7.11, 7.7.11.2 L1781-1783, L1816-1818)."""
    return _fields(board, state, b, standard_range(board, state, b), safe=True)


def _land(ctx: Ctx, b: BlockState, fields: list[str], why: str) -> None:
    """Land ``b`` at the airfield it came from when it may, else the nearest (RULINGS
    B44); with none it is lost (7.7.11: units that cannot retreat are eliminated)."""
    s = ctx.state
    here, origin = b.at, s.aloft.pop(b.id, None)
    if not fields:
        _lost(ctx, b, f"{why} but finds no airbase in range and is lost")
        return
    b.at = origin if origin in fields else fields[0]
    ctx.events.append(
        private(
            "rebase",
            f"{combat.name(ctx.board, b)} {why}: {ctx.where(here)} -> {ctx.where(b.at)}.",
            (b.side,),
            f"{b.token} {why}: {ctx.where(here)} -> {ctx.where(b.at)}.",
            token=b.token,
            to=b.at,
        )
    )


def _lost(ctx: Ctx, b: BlockState, why: str) -> None:
    """An air unit eliminated off the battle steps; the enemy reads its token only."""
    where = b.at
    shown = combat.name(ctx.board, b) if b.revealed else b.token
    ctx.events.append(
        private(
            "eliminated",
            f"{ctx.name(b)} {why} at {ctx.where(where)}.",
            (b.side,),
            f"{shown} {why} at {ctx.where(where)}.",
        )
    )
    b.where, b.at, b.oos = "dead", None, False
    ctx.state.aloft.pop(b.id, None)


def fly_off(ctx: Ctx, b: BlockState) -> None:
    """An air unit of the side that lost a battle retreats to an airbase (7.7.11.2)."""
    _land(ctx, b, retreat_fields(ctx.board, ctx.state, b), "flies off")


def rebase_all(ctx: Ctx) -> None:
    """7.8.1 (L1880-1886): at the end of the Blitz Phase every air unit that fought and
    survived rebases within its standard range, the defender's first; a conquered
    airfield serves if it is already a supply source. One air unit per airfield: a unit
    left without one is eliminated."""
    s, board = ctx.state, ctx.board
    for side in (enemy(s.player), s.player):
        for b in sorted((s.blocks[i] for i in s.aloft), key=lambda x: x.token):
            if b.side == side and b.where == "map":
                _land(ctx, b, _fields(board, s, b, standard_range(board, s, b)), "rebases")
    s.aloft = {}


def evacuate(ctx: Ctx, b: BlockState) -> None:
    """Air Evacuation (L1650-1656): enemy ground units enter the airbase where the unit
    stands alone on the ground; it loses a step and rebases to a friendly airbase in
    range, or surrenders (its last step lost, it is eliminated)."""
    s, board = ctx.state, ctx.board
    here = b.at
    if b.steps == 1:
        _lost(ctx, b, "evacuates with its last step and is lost")
        return
    b.steps -= 1
    fields = retreat_fields(board, s, b)
    if not fields:
        _lost(ctx, b, "finds no friendly airbase in range and surrenders")
        return
    b.at = fields[0]
    ctx.events.append(
        private(
            "evacuate",
            f"{ctx.name(b)} evacuates {ctx.where(here)}, loses a step and lands at "
            f"{ctx.where(b.at)}.",
            (b.side,),
            f"{b.token} evacuates {ctx.where(here)}, loses a step and lands at {ctx.where(b.at)}.",
        )
    )


# -- orders -------------------------------------------------------------------------------


def _own_air(ctx: Ctx, name: str, side: str | None = None) -> BlockState:
    s = ctx.state
    b = s.blocks.get(name) or s.by_token(name.upper())
    side = side or s.player
    if b is None or b.side != side or b.where != "map" or not is_air(ctx.board, b):
        raise refuse("BIA 7.5", f"You have no air unit called {name!r} on the map.")
    return b


def check_fly(ctx: Ctx, order: Fly) -> BlockState:
    """7.5 (L1344-1348): one Air Transfer per air unit per Movement Phase (RULINGS B7),
    from the airfield it stands on to one of :func:`airfields`. In the Production Phase,
    the arrival of an Italian or German air unit from home (:func:`check_arrival`)."""
    s, board = ctx.state, ctx.board
    if s.phase == "production":
        return check_arrival(ctx, order)
    b = _own_air(ctx, order.block)
    if b.id in s.moved:
        raise refuse("BIA 7.5", f"{ctx.name(b)} has already moved this phase.")
    if b.at in s.battles:
        raise refuse("BIA 7.5", f"{ctx.name(b)} stands in a battle hex and stays for the battle.")
    special.check_entry(ctx, b, order.to, b.at)  # the scenario's special rules (D10-D14)
    if order.to not in airfields(board, s, b):
        reach = transfer_range(board, s, b)
        raise refuse(
            "BIA 7.5",
            f"{ctx.name(b)} cannot transfer to {ctx.where(order.to)}: it lands at an airfield "
            f"of its side within {reach} hexes that can act as a supply source, with no enemy "
            "unit and no other air unit of yours.",
        )
    return b


def apply_fly(ctx: Ctx, order: Fly) -> None:
    b = check_fly(ctx, order)
    here = ctx.board.pack.strategic.boxes[b.at].name if b.where == "box" else b.at
    b.where, b.at = "map", order.to
    if ctx.state.phase == "production":
        ctx.state.air_due.remove(b.id)
    else:
        ctx.state.moved.append(b.id)
    ctx.events.append(
        private(
            "fly",
            f"{ctx.name(b)} transfers by air {here} -> {order.to}.",
            (b.side,),
            f"{b.token} transfers by air {here} -> {order.to}.",
        )
    )


def fly_orders(ctx: Ctx) -> list[Fly]:
    s, board = ctx.state, ctx.board
    out = []
    for b in sorted(s.on_map(s.player), key=lambda b: b.id):
        if is_air(board, b) and b.id not in s.moved and b.at not in s.battles:
            out += [Fly(block=b.id, to=h) for h in airfields(board, s, b)]
    return out


def _check_mission(ctx: Ctx, b: BlockState, to: str, rule: str, verb: str) -> None:
    """What an Air Attack and a reaction both need (7.5 L1336-1343; 3.4.1 L302-304):
    a supplied unit above 0 steps, not already in a battle or moved, a target within its
    standard range, at most 2 air units of a side in a battle hex, and a TECH 1 fighter
    only as escort of a bomber of its side flying to the same hex (RULINGS B45)."""
    s, board = ctx.state, ctx.board
    block = board.block(b.id)
    if b.id in s.moved or b.id in s.aloft:
        raise refuse(rule, f"{ctx.name(b)} has already flown this phase.")
    if b.at in s.battles:
        raise refuse(rule, f"{ctx.name(b)} is engaged in a battle at its own airfield.")
    if b.oos or combat.value(board, b) <= 0:
        raise refuse(rule, f"{ctx.name(b)} must be in supply and above 0 steps to {verb}.")
    special.check_entry(ctx, b, to, b.at)  # the scenario's special rules (D10-D14)
    reach = standard_range(board, s, b)
    if distance(b.at, to) > reach:
        raise refuse(rule, f"{ctx.where(to)} is beyond {ctx.name(b)}'s range of {reach} hexes.")
    mine = [x for x in s.at_hex(to) if x.side == b.side and is_air(board, x)]
    most = board.pack.tables.stacking.air_units_per_side_per_battle
    if len(mine) >= most:
        raise refuse("BIA 3.4.1", f"{ctx.where(to)} already has {most} of your air units.")
    tech = board.pack.tables.tech(block.power, block.kind, s.turn)
    if block.kind == "fighter" and tech < 2:
        escorted = any(board.block(x.id).kind == "bomber" and x.id in s.aloft for x in mine)
        if not escorted:
            raise refuse(
                "BIA 7.5",
                f"{ctx.name(b)} is a TECH 1 fighter: it only escorts a bomber of yours "
                f"already flying to {ctx.where(to)}.",
            )


def check_attack(ctx: Ctx, order: Attack) -> BlockState:
    """Air Attack, the combat move of an air unit (7.5, L1334-1343): it flies to a hex
    holding enemy units, which becomes a battle hex (3.23; an air-only strike, L891-903),
    or joins a battle already opened there."""
    s = ctx.state
    if s.phase != "movement":
        raise refuse("BIA 7.5", "Air units attack in the Movement Phase.")
    b = _own_air(ctx, order.block)
    if not any(x.side != b.side for x in s.at_hex(order.to)):
        raise refuse(
            "BIA 7.5",
            f"{ctx.where(order.to)} holds no enemy unit: an Air Attack flies to a battle; "
            "an air unit changes airfield by 'fly'.",
        )
    _check_mission(ctx, b, order.to, "BIA 7.5", "attack")
    _check_fuel(ctx, b, "attack")
    return b


def _check_fuel(ctx: Ctx, b: BlockState, verb: str) -> None:
    """AR 11.10 (L2263-2265), option ``advanced``: an air unit attacks or reacts only when
    an activated HQ has fuelled it; unfuelled it may still transfer and rebase."""
    if out_of_fuel(ctx.board, ctx.state, b):
        raise refuse(
            "BIA 11.10",
            f"{ctx.name(b)} is out of fuel: an air unit may {verb} only when an activated HQ "
            "has fuelled it ('fuel BLOCK HQ'); unfuelled it may still transfer or rebase.",
        )


def _take_off(ctx: Ctx, b: BlockState, to: str, what: str) -> None:
    s = ctx.state
    here = b.at
    s.aloft[b.id] = here
    s.moved.append(b.id)
    b.at = to
    ctx.events.append(
        private(
            "fly",
            f"{ctx.name(b)} {what} {here} -> {ctx.where(to)}.",
            (b.side,),
            f"{b.token} {what} {here} -> {ctx.where(to)}.",
        )
    )


def apply_attack(ctx: Ctx, order: Attack) -> None:
    s = ctx.state
    b = check_attack(ctx, order)
    _take_off(ctx, b, order.to, "flies an air attack")
    if order.to not in s.battles:
        s.battles.append(order.to)
        ctx.events.append(
            Event("battle", f"A battle hex opens at {ctx.where(order.to)}.", {"hex": order.to})
        )


def _targets(ctx: Ctx, b: BlockState, hexes: list[str]) -> list[str]:
    reach = standard_range(ctx.board, ctx.state, b)
    return [h for h in hexes if distance(b.at, h) <= reach]


def attack_orders(ctx: Ctx) -> list[Attack]:
    s, board = ctx.state, ctx.board
    foes = sorted({x.at for x in s.on_map(enemy(s.player))})
    out = []
    for b in sorted(s.on_map(s.player), key=lambda b: b.id):
        if not is_air(board, b) or b.id in s.moved or b.at in s.battles or b.oos:
            continue
        if out_of_fuel(board, s, b):  # AR 11.10
            continue
        for h in _targets(ctx, b, foes):
            try:
                _check_mission(ctx, b, h, "BIA 7.5", "attack")
            except IllegalOrder:  # a refused target is simply not offered
                continue
            out.append(Attack(block=b.id, to=h))
    return out


def check_follow(ctx: Ctx, b: BlockState, to: str) -> bool:
    """A TECH 2 air unit following a blitz (7.8, L1865-1866) flies with the armour into
    the hex it entered, at most two air units of a side there (3.4.1); returns whether
    the hex holds enemy units (a blitz battle)."""
    s, board = ctx.state, ctx.board
    special.check_entry(ctx, b, to, b.at)  # the scenario's special rules (D10-D14)
    mine = [x for x in s.at_hex(to) if x.side == b.side and is_air(board, x)]
    most = board.pack.tables.stacking.air_units_per_side_per_battle
    if len(mine) >= most:
        raise refuse("BIA 3.4.1", f"{ctx.where(to)} already has {most} of your air units.")
    return any(x.side != b.side for x in s.at_hex(to))


def check_react(ctx: Ctx, order: React) -> BlockState:
    """Defender Reaction (7.6, L1431-1436): the non-phasing side flies air units to
    battle hexes that exist already, on the terms of an Air Attack. Under the advanced
    rules (Appendix, L2469-2472; RULINGS B94) a fuelled air unit may instead move to
    another hex within its normal range: an airfield of its side, as for a transfer,
    within its standard range (:func:`reaction_fields`), while a battle is on."""
    s = ctx.state
    side = enemy(s.player)
    b = _own_air(ctx, order.block, side)
    if order.to not in s.battles and s.options.get("advanced") and s.battles:
        return _check_reaction_field(ctx, b, order.to)
    if order.to not in s.battles:
        raise refuse(
            "BIA 7.6",
            f"{ctx.where(order.to)} is no battle hex: reacting air units reinforce battles "
            f"already opened ({', '.join(s.battles) or 'none'}).",
        )
    _check_mission(ctx, b, order.to, "BIA 7.6", "react")
    _check_fuel(ctx, b, "react")
    return b


def reaction_fields(board: Board, state: State, b: BlockState) -> list[str]:
    """The airfields an air unit may react to outside the battles (Appendix L2469-2472;
    RULINGS B94): those of an Air Transfer (3.4.1), within its standard range, its
    "normal" range, not the transfer's doubled one (L1348)."""
    reach = standard_range(board, state, b)
    return [h for h in _fields(board, state, b, reach) if h != b.at]


def _check_reaction_field(ctx: Ctx, b: BlockState, to: str) -> BlockState:
    """AR Appendix (L2465-2472; RULINGS B94): a supplied, fuelled air unit not engaged
    and not flown this phase moves to an airfield of :func:`reaction_fields`."""
    s, board = ctx.state, ctx.board
    rule = "BIA AR Appendix"
    if b.id in s.moved or b.id in s.aloft:
        raise refuse(rule, f"{ctx.name(b)} has already flown this phase.")
    if b.at in s.battles:
        raise refuse(
            rule,
            f"{ctx.name(b)} is engaged in a battle at its own airfield and does not react "
            "(L2466-2467).",
        )
    if b.oos:
        raise refuse(rule, f"{ctx.name(b)} must be in supply to react (RULINGS B46).")
    special.check_entry(ctx, b, to, b.at)  # the scenario's special rules (D10-D14)
    if to not in reaction_fields(board, s, b):
        raise refuse(
            rule,
            f"{ctx.where(to)} is neither a battle hex nor an airfield of yours within "
            f"{standard_range(board, s, b)} hexes of {ctx.name(b)} that it may land at "
            "(L2469-2472; RULINGS B94).",
        )
    _check_fuel(ctx, b, "react")
    return b


def apply_react(ctx: Ctx, order: React) -> None:
    b = check_react(ctx, order)
    if order.to in ctx.state.battles:
        _take_off(ctx, b, order.to, "reacts, flying")
        return
    here = b.at
    b.at = order.to  # it lands there: no battle, so not aloft (RULINGS B94)
    ctx.state.moved.append(b.id)
    ctx.events.append(
        private(
            "fly",
            f"{ctx.name(b)} reacts, flying {here} -> {ctx.where(order.to)}.",
            (b.side,),
            f"{b.token} reacts, flying {here} -> {ctx.where(order.to)}.",
        )
    )


def react_orders(ctx: Ctx, fuelled_only: bool = True) -> list[React]:
    """The reactions the non-phasing side may make; with ``fuelled_only`` False, those
    it could make once its air units are fuelled (AR 11.10)."""
    s, board = ctx.state, ctx.board
    side = enemy(s.player)
    out = []
    for b in sorted(s.on_map(side), key=lambda b: b.id):
        if not is_air(board, b) or b.id in s.aloft or b.at in s.battles or b.oos:
            continue
        if fuelled_only and out_of_fuel(board, s, b):
            continue
        for h in _targets(ctx, b, list(s.battles)):
            try:
                _check_mission(ctx, b, h, "BIA 7.6", "react")
            except IllegalOrder:  # a refused target is simply not offered
                continue
            out.append(React(block=b.id, to=h))
        if s.options.get("advanced") and s.battles and b.id not in s.moved:  # B94
            out += [React(block=b.id, to=h) for h in reaction_fields(board, s, b)]
    return out


# -- air units from home (L1110-1117) ---------------------------------------------------------


def due_from_home(ctx: Ctx) -> list[str]:
    """The Italian and German air units of the phasing side waiting in a home box as its
    Production Phase opens: built or sent there a turn or more ago, so they may fly to
    an African airfield now (L1110-1111, one turn after being built)."""
    s, board = ctx.state, ctx.board
    boxes = board.pack.strategic.boxes
    return sorted(
        b.id for b in s.blocks.values()
        if b.side == s.player and b.where == "box" and is_air(board, b)
        and board.block(b.id).power in FLY_FROM_HOME
        and boxes[b.at].kind == "home" and boxes[b.at].power == board.block(b.id).power
    )  # fmt: skip


def check_arrival(ctx: Ctx, order: Fly) -> BlockState:
    """L1110-1111: in its Production Phase an Italian or German air unit built a turn
    before flies from home to any airfield its side controls in Africa (no AP, no range:
    the crossing is abstract). One not flown waits for a later turn."""
    s, board = ctx.state, ctx.board
    b = s.blocks.get(order.block) or s.by_token(order.block.upper())
    if b is None or b.side != s.player or b.id not in s.air_due:
        raise refuse(
            "BIA 7.3",
            f"You have no air unit called {order.block!r} waiting at home to fly to Africa "
            "(Italian and German air units fly out a turn after they are built).",
        )
    special.check_entry(ctx, b, order.to)  # the scenario's special rules (D10-D14)
    if order.to not in _fields(board, s, b, None):
        raise refuse(
            "BIA 7.3",
            f"{ctx.where(order.to)} is no free airfield of yours: a city or bunker you "
            "control that is a supply source, with no enemy unit and no air unit of yours.",
        )
    return b


def arrival_orders(ctx: Ctx) -> list[Fly]:
    s = ctx.state
    out = []
    for i in s.air_due:
        b = s.blocks[i]
        out += [Fly(block=i, to=h) for h in _fields(ctx.board, s, b, None)]
    return out


def arrival_note(ctx: Ctx) -> None:
    """Tell the owner which air units may fly from home this phase."""
    s = ctx.state
    if s.air_due:
        names = ", ".join(ctx.name(s.blocks[i]) for i in s.air_due)
        ctx.events.append(
            private(
                "arrive",
                f"Ready to fly from home to an airfield in Africa ('fly BLOCK HEX'): {names}.",
                (s.player,),
            )
        )
