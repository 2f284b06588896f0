"""Sea Transport of ground and air units and the Mine Die Roll (7.5, L1243-1249; 7.5.4,
L1376-1389, L1405-1429; new units from home, L1103-1124, L1135-1137, L1191-1206).

Given in the Movement Phase as ``ship BLOCK HEX`` (or ``ship BLOCK south_africa``):

* on the map, a block that has not moved in this phase (an SRM before it is allowed,
  L1248-1249) sails from the friendly port it stands in to another friendly port on a
  body of water the two share, and moves no farther in the phase (L1381-1382);
* an Italian or German ground unit in its home box crosses the Mediterranean to a
  friendly Mediterranean port: its nation's SRM and Sea Transport together
  (L1121-1124, L1135-1137; RULINGS B58);
* a British unit in London crosses the Atlantic to the South Africa box and stops there
  (L1191-1196), or from the turn after the Dieppe Raid goes on in the same turn to one of
  the four Indian Ocean ports (L1200-1206); from South Africa it reaches one of those
  ports in a later turn with no Mine Die Roll (L1196-1199).

Every crossing but the one from South Africa rolls the Mine Die (L1411-1429): 1-3 safe,
4-5 a step lost, 6 the unit lost. One Sea Transport per power per turn (RULINGS B57);
under the advanced rules a Supreme Leader pays each crossing with its AP, one of each
kind a turn, and Hitler may ship an Axis ally's unit (:mod:`engine.games.bia.hq`, B60).
The enemy reads the block's token, the ports and the roll, never its identity (digest
4.2: "block token, ports and result").

Rulebook line numbers (``L123``) refer to ``shared/rules/003_19684674ce068529.txt``.
"""

from __future__ import annotations

from engine.core.errors import IllegalOrder
from engine.core.events import private
from engine.games.bia import combat, hq, special
from engine.games.bia.board import enemy
from engine.games.bia.context import Ctx, own_block, refuse
from engine.games.bia.movement import _check_stacking, is_ground
from engine.games.bia.orders import SOUTH_AFRICA, Ship
from engine.games.bia.state import BlockState

RULE = "BIA 7.5.4"
MED = "mediterranean"
#: the home boxes whose units cross the Mediterranean (L1121-1124, L1135-1137)
HOME_MED = ("rome", "berlin")


def indian_ocean_ports(ctx: Ctx) -> list[str]:
    """The four Indian Ocean ports British units reach from South Africa (L1197-1199)."""
    places = ctx.board.pack.places
    return sorted(places[n] for n in ctx.board.pack.strategic.indian_ocean_ports if n in places)


def _friendly_port(ctx: Ctx, side: str, h: str) -> bool:
    """A port its side controls with no enemy unit in it (7.5.4, L1377-1378)."""
    foes = {x.at for x in ctx.state.on_map(enemy(side))}
    return h in ctx.board.ports and ctx.state.control.get(h) == side and h not in foes


def _origin(ctx: Ctx, b: BlockState) -> str:
    if b.where == "map":
        return ctx.where(b.at)
    return ctx.board.pack.strategic.boxes[b.at].name


def _dest(ctx: Ctx, to: str) -> str:
    if to == SOUTH_AFRICA:
        return ctx.board.pack.strategic.boxes[SOUTH_AFRICA].name
    return ctx.where(to)


def check_ship(ctx: Ctx, order: Ship) -> tuple[BlockState, bool, bool]:
    """Validate a Sea Transport; returns the block, whether the Mine Die is rolled and
    whether the crossing is also the nation's SRM. Changes nothing."""
    board, s = ctx.board, ctx.state
    b = own_block(ctx, order.block, RULE)
    block = board.block(b.id)
    power = block.power
    to = order.to
    if block.unit_class == "naval":
        raise refuse(
            RULE, f"{ctx.name(b)} is a naval unit: Sea Transport carries ground and air units."
        )
    if b.id in s.moved or b.id in s.aloft or b.id in s.reserve:
        raise refuse(
            RULE,
            f"{ctx.name(b)} has already moved this phase: a unit sails only if it starts the "
            "Movement Phase in port (L1379-1380).",
        )
    if not _by_leader(ctx, power, block) and power in s.shipped:
        raise refuse(
            RULE,
            f"{board.pack.units.powers[power].name} has made its one Sea Transport this turn "
            "(its Supreme Leader's one action of that kind, L1940-1951; RULINGS B57).",
        )
    if to != SOUTH_AFRICA and to not in board.ports:
        raise refuse(RULE, f"{ctx.where(to)} is not a port: units sail from port to port.")
    if to != SOUTH_AFRICA and not _friendly_port(ctx, b.side, to):
        raise refuse(
            RULE,
            f"{ctx.where(to)} is not a friendly port: your side must control it and no "
            "enemy unit may be in it (L1377-1378).",
        )
    if to != SOUTH_AFRICA:  # the scenario's special rules (D10-D14)
        special.check_entry(ctx, b, to, b.at if b.where == "map" else None)
    mdr, srm = True, False
    if b.where == "map":
        here = b.at
        if here not in board.ports:
            raise refuse(RULE, f"{ctx.name(b)} is not in a port: units sail from port to port.")
        if any(x.side != b.side for x in s.at_hex(here)):
            raise refuse(RULE, f"{ctx.where(here)} is a battle hex: its units stay for the battle.")
        if to == SOUTH_AFRICA or to == here or not set(board.ports[here]) & set(board.ports[to]):
            raise refuse(
                RULE,
                f"{ctx.where(here)} and {_dest(ctx, to)} are not ports of one body of water "
                "(L1377-1380).",
            )
        if block.resident and board.in_afrika(here) and not board.in_afrika(to):
            raise refuse(RULE, f"{ctx.name(b)} is a resident unit: it never leaves AFRIKA (3.7).")
    elif b.at in HOME_MED:
        if not is_ground(block):
            raise refuse(
                "BIA 7.3.5",
                f"{ctx.name(b)} is an air unit: Italian and German air units fly to AFRIKA by "
                "themselves a turn after they are built ('fly', L1110-1111).",
            )
        if to == SOUTH_AFRICA or MED not in board.ports[to]:
            raise refuse(
                RULE, f"From {_origin(ctx, b)} units cross the Mediterranean to one of its ports."
            )
        srm = True
    elif b.at == "london":
        io = indian_ocean_ports(ctx)
        dieppe = special.dieppe_in_force(board, s)
        if to != SOUTH_AFRICA and not (dieppe and to in io):
            raise refuse(
                RULE,
                "From the UK units cross the Atlantic to South Africa ('ship BLOCK south_africa'), "
                "where they stop; after the Dieppe Raid they may go on to an Indian Ocean port "
                f"in one turn ({', '.join(io)}; L1191-1206).",
            )
        srm = True
    elif b.at == SOUTH_AFRICA:
        io = indian_ocean_ports(ctx)
        if to not in io:
            raise refuse(
                RULE,
                f"From South Africa units sail to an Indian Ocean port: {', '.join(io)} (L1196-1199).",
            )
        mdr = False
    else:
        raise refuse(RULE, f"{ctx.name(b)} is in {_origin(ctx, b)}, from where no ship sails.")
    if srm and power in s.srm_used:
        raise refuse(
            RULE,
            f"{board.pack.units.powers[power].name} made its SRM this turn: leaving its home "
            "nation by sea takes the SRM and a Sea Transport (L1121-1124, L1193-1194).",
        )
    if to != SOUTH_AFRICA:
        _check_landing(ctx, b, to)
    if _by_leader(ctx, power, block) and commander(ctx, b, srm) is None:
        raise refuse("BIA 11.2", hq.why_not(board, s, power, not is_ground(block), _kinds(srm)))
    return b, mdr, srm


def _by_leader(ctx: Ctx, power: str, block) -> bool:
    """Under the advanced rules a unit a Supreme Leader commands sails for its AP
    (L1409-1410, L1940-1951); the others keep one crossing per power (RULINGS B57)."""
    return hq.playing(ctx.state) and hq.has_leader(ctx.board, power, not is_ground(block))


def _kinds(srm: bool) -> tuple[str, ...]:
    """A crossing from a home box takes two AP, its SRM and its sea leg (L1121-1124,
    L1135-1137, L1191-1194); any other one AP (L1196, L1409-1410)."""
    return ("srm", "sea") if srm else ("sea",)


def commander(ctx: Ctx, b: BlockState, srm: bool) -> str | None:
    """The Supreme Leader who pays for this crossing (11.8: the unit's own first), or None
    when the basic game's stand-in applies or none can."""
    block = ctx.board.block(b.id)
    if not _by_leader(ctx, block.power, block):
        return None
    return hq.commander(ctx.board, ctx.state, block.power, not is_ground(block), _kinds(srm))


def _check_landing(ctx: Ctx, b: BlockState, to: str) -> None:
    """Stacking at the port (3.13); an air unit lands only at an airfield of its side
    holding no other air unit (3.4.1, L299-307)."""
    board, s = ctx.board, ctx.state
    if is_ground(board.block(b.id)):
        _check_stacking(ctx, b, to)
        return
    place = combat.locality(board, s, to)
    row = board.pack.tables.localities.get(place) if place else None
    if row is None or not row.airfield:
        raise refuse(
            RULE, f"{ctx.where(to)} is no airfield: an air unit must land at a city or bunker."
        )
    if any(x.side == b.side and not is_ground(board.block(x.id)) for x in s.at_hex(to)):
        raise refuse(
            "BIA 3.4.1",
            f"{ctx.where(to)} already holds one of your air units; an airfield takes one.",
        )


def apply_ship(ctx: Ctx, order: Ship) -> None:
    """Sail: the Mine Die where it applies (L1411-1429), then the block stands in the
    port (or the South Africa box) and moves no more in this phase (L1381-1382)."""
    b, mdr, srm = check_ship(ctx, order)
    board, s = ctx.board, ctx.state
    power = board.block(b.id).power
    leader = commander(ctx, b, srm)
    if leader is not None:
        hq.spend(s, leader, _kinds(srm))
    s.shipped[power] = b.id
    if srm:
        s.srm_used.append(power)
    s.moved.append(b.id)
    frm, dest = _origin(ctx, b), _dest(ctx, order.to)
    result, roll = "safe", None
    if mdr:
        roll = ctx.dice.roll(6, f"mine die roll for {b.token}")
        result = board.pack.tables.mine_die_roll[str(roll)]
    if result == "lose_step" and b.steps <= 1:
        result = "destroyed"  # losing its last step ends the unit (3.18, L580-584; B59)
    die = f"mine die roll {roll}" if mdr else "no mine die roll (L1197)"
    if leader is not None:
        die = f"{hq.name(leader)} spends {len(_kinds(srm))} AP, {die}"
    if result == "destroyed":
        b.where, b.at, b.oos = "dead", None, False
        own = public = "is lost at sea"
    else:
        if result == "lose_step":
            b.steps -= 1
        b.where, b.at = ("box", SOUTH_AFRICA) if order.to == SOUTH_AFRICA else ("map", order.to)
        public = "loses 1 step" if result == "lose_step" else "arrives"
        own = f"loses 1 step (now {combat.value(board, b)})" if result == "lose_step" else "arrives"
    ctx.events.append(
        private(
            "ship",
            f"{ctx.name(b)} sails from {frm} to {dest}: {die}, {own}.",
            (b.side,),
            f"{b.token} sails from {frm} to {dest}: {die}, {public}.",
            token=b.token,
            roll=roll,
            result=result,
        )
    )


def ship_orders(ctx: Ctx) -> list[Ship]:
    """Every Sea Transport the phasing side may order now."""
    board, s = ctx.board, ctx.state
    out: list[Ship] = []
    mine = sorted(
        (b for b in s.blocks.values() if b.side == s.player and b.where in ("map", "box")),
        key=lambda b: b.id,
    )
    for b in mine:
        if b.id in s.moved:
            continue
        block = board.block(b.id)
        if block.power in s.shipped and not _by_leader(ctx, block.power, block):
            continue
        if b.where == "map":
            if b.at not in board.ports:
                continue
            bodies = set(board.ports[b.at])
            ends = [h for h, body in board.ports.items() if bodies & set(body) and h != b.at]
        elif b.at in HOME_MED:
            ends = [h for h, body in board.ports.items() if MED in body]
        elif b.at in ("london", SOUTH_AFRICA):
            ends = [*indian_ocean_ports(ctx), SOUTH_AFRICA]
        else:
            continue
        for h in sorted(ends):
            order = Ship(block=b.id, to=h)
            try:
                check_ship(ctx, order)
            except IllegalOrder:
                continue
            out.append(order)
    return out
