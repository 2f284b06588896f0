"""Reserve Mode (advanced rules 16.0, L2418-2448) and the armour of the advanced Defender
Reaction (Appendix, L2450-2474), played with the set-up option ``advanced``.

A unit goes into Reserve Mode for 1 AP of an HQ able to command it, under the black
barrel every reader sees (L2439-2442; RULINGS B62, B95), or, under the set-up option
``hidden_reserves``, on its owner's set-up board: the others read who paid, never which
unit nor where, until it moves (L2447-2448; RULINGS F6). It does so in one of two ways:

* Motorization (L2428-2432), in the Movement Phase: a TECH 2 infantry or armoured-class
  ground unit, by a Supreme Leader (one unit a turn, anywhere, L2424; his one action of
  that kind, L1940-1951; RULINGS B62) or by an activated armoured HQ (Rommel, Montgomery:
  as many units as its AP, within its 5-hex command radius, L2425-2427; RULINGS B91). It
  stays put and moves in the Exploitation Phase instead.
* Reaction (L2433-2438, L2443-2446), in the Exploitation Phase: a TECH 2 armoured-class
  unit, by an activated armoured HQ only. It stays put for the rest of that phase and may
  move once in the enemy's next player-turn: in its Defender Reaction, or else into a
  blitz battle of its Blitz Phase (7.8, L1876-1879; :mod:`engine.games.bia.blitz`), at
  whose end its Reserve Mode ends (``state.reaction_reserve``; RULINGS B92, B98).

``reserve BLOCK`` takes the first Supreme Leader who may; ``reserve BLOCK LEADER`` names
him, ``reserve BLOCK HQ`` the armoured HQ (its id or token), which the order activates in
place if it is not active yet (11.3; 11.9 L2228-2229).

In the advanced Defender Reaction the non-phasing side moves its armour in Reserve Mode
for a reaction (``move BLOCK HEX...``) to a battle hex or to a hex free of enemy units
within its Movement Points (L2469-2472; RULINGS B93), and its fuelled air units react as
in :mod:`engine.games.bia.air` (RULINGS B94); units already in a battle hex stay there
(L2466-2467). The standing order ``react pass|ask`` says whether the side is asked at
all (7.6; RULINGS B46, B95).

Rulebook line numbers (``L123``) refer to ``shared/rules/003_19684674ce068529.txt``.
"""

from __future__ import annotations

from engine.core.errors import IllegalOrder
from engine.core.events import private
from engine.games.bia import combat, fuel, hq
from engine.games.bia.board import SIDE_NAME, Board, enemy
from engine.games.bia.context import Ctx, refuse
from engine.games.bia.hq import playing  # the advanced rules: Reserve Mode (16.0, Appendix)
from engine.games.bia.movement import TECH_TRACK, _own_block, allowance, destinations, is_ground
from engine.games.bia.orders import Move, Reserve
from engine.games.bia.state import BlockState, State

RULE = "BIA 16.0"
RULE_REACTION = "BIA AR Appendix"




def hidden(state: State) -> bool:
    """The optional hidden Reserve Mode (16.0, L2447-2448), set-up option
    ``hidden_reserves``: the black barrel on its owner's set-up board, so the others never
    read which unit is in reserve, nor where (RULINGS F6)."""
    return bool(state.options.get("hidden_reserves"))


def in_reserve(state: State, block_id: str) -> bool:
    """Under either barrel: Motorization (``state.reserve``) or Reaction."""
    return block_id in state.reserve or block_id in state.reaction_reserve


# -- putting a unit in Reserve Mode (16.0) ------------------------------------------------


def reservable(board: Board, state: State, b: BlockState) -> str | None:
    """Why a block may not go into Reserve Mode now, or None (16.0). In the Movement Phase
    (Motorization, L2428-2432): a ground unit of the infantry or armoured class. In the
    Exploitation Phase (Reaction, L2433-2438): an armoured-class unit, in supply (it is to
    react into battle, which 4.4 bars to a unit out of supply, L695-696; RULINGS B92).
    Either way at TECH 2 or better on the Play Aid track it moves by, with Movement
    Points, not yet moved in the phase ("cannot move" in it, read as not before either)
    and under no barrel already (one black barrel a unit, L2441-2442); of the HQs only
    the armoured ones, which may put themselves in reserve (L2066-2067; RULINGS B91)."""
    block = board.block(b.id)
    reaction = state.phase == "exploitation"
    classes = ("armored",) if reaction else ("infantry", "armored")
    if block.kind in fuel.WINDOWS and block.kind != "armored_hq":
        return "of the HQs only the armoured ones go into Reserve Mode (L2066-2067; RULINGS B91)"
    if not is_ground(block) or block.unit_class not in classes:
        if reaction:
            return "only armoured-class units go into Reserve Mode to react (16.0, L2433-2435)"
        return "only infantry and armoured-class ground units go into Reserve Mode (16.0)"
    key = board.fire_key(block)
    if board.pack.tables.tech(block.power, TECH_TRACK.get(key, key), state.turn) < 2:
        return "only TECH 2 units go into Reserve Mode (16.0, L2428-2435)"
    if not allowance(board, state, b):
        return "a unit with no Movement Points has nothing to keep in reserve"
    if in_reserve(state, b.id):
        return "it is in Reserve Mode already"
    if b.id in state.moved:
        return "it has moved in this phase, and a unit in reserve may not (L2430-2431, L2436-2437)"
    if reaction and b.oos:
        return (
            "it is out of supply, and a unit in reserve for a reaction moves into battle, "
            "which 4.4 bars to it (L695-696; RULINGS B92)"
        )
    return None


def check_reserve(
    ctx: Ctx, order: Reserve, radius: dict[str, set[str]] | None = None
) -> tuple[BlockState, str, BlockState | None]:
    """16.0 (L2418-2446): validate a Reserve Mode; returns the unit, whose AP pays (a
    Supreme Leader's key or an armoured HQ's id) and the HQ's block (None for a leader).
    Changes nothing. ``radius`` caches command radii while orders are listed."""
    s, board = ctx.state, ctx.board
    if not playing(s):
        raise refuse(RULE, "Reserve Mode is an advanced rule; this game plays the basic rules.")
    if s.phase not in ("movement", "exploitation"):
        raise refuse(
            RULE,
            "Units go into Reserve Mode in the Movement Phase (Motorization) and the "
            "Exploitation Phase (Reaction) only (L2421-2438).",
        )
    b = _own_block(ctx, order.block)
    why = reservable(board, s, b)
    if why:
        raise refuse(RULE, f"{ctx.name(b)} may not go into Reserve Mode: {why}.")
    key = (order.by or "").lower()
    if order.by is None or key in hq.NAMES:
        if s.phase == "exploitation":
            raise refuse(
                RULE,
                "In the Exploitation Phase only an armoured HQ (Rommel, Montgomery) puts units "
                "in Reserve Mode, for a reaction: name it, 'reserve BLOCK HQ' (L2443-2446).",
            )
        return b, _check_leader(ctx, b, key or None), None
    h = fuel.own_hq(ctx, order.by, RULE)
    _check_hq(ctx, b, h, radius)
    return b, h.id, h


def _check_leader(ctx: Ctx, b: BlockState, leader: str | None) -> str:
    """A Supreme Leader's Reserve Mode (L2424, L1940-1951; 11.8 L2205-2221; RULINGS B62):
    the named leader, or the first of those commanding the unit who may."""
    s, board = ctx.state, ctx.board
    power = board.block(b.id).power
    if not hq.has_leader(board, power, False):
        raise refuse(
            RULE,
            f"No Supreme Leader commands {ctx.name(b)}: name an armoured HQ of its nationality "
            "('reserve BLOCK HQ', L2425-2427).",
        )
    if leader is None:
        found = hq.commander(board, s, power, False, ("reserve",))
        if found is None:
            raise refuse(RULE, hq.why_not(board, s, power, False, ("reserve",)))
        return found
    if leader == "goering" or leader not in hq.leaders_for(board, power, False):
        raise refuse(
            "BIA 11.8",
            f"{hq.name(leader)} does not command {ctx.name(b)}: a Supreme Leader commands his "
            "own power's ground units, Hitler an Axis ally's too, Goering none (L1987-1992, "
            "L2205-2221).",
        )
    if not hq.can(board, s, leader, ("reserve",)):
        raise refuse(RULE, hq.why_not(board, s, power, False, ("reserve",)))
    return leader


def _check_hq(
    ctx: Ctx, unit: BlockState, h: BlockState, radius: dict[str, set[str]] | None
) -> None:
    """An armoured HQ's Reserve Mode (16.0 L2425-2427, L2443-2446; 11.3; 11.9 L2222-2227;
    L2024-2025; RULINGS B91): an armoured HQ, of the unit's nationality, active or able
    to be activated now, with an AP left, the unit within its command radius."""
    if ctx.board.block(h.id).kind != "armored_hq":
        raise refuse(
            RULE,
            f"{ctx.name(h)} puts no unit in Reserve Mode: the armoured HQs (Rommel, "
            "Montgomery) and the Supreme Leaders do (L2423-2427).",
        )
    per_ap = "one AP puts one unit in Reserve Mode (L2440-2441)"
    fuel.check_command(ctx, h, unit, "commands", per_ap)
    fuel.check_radius(ctx, h, unit, radius)


def apply_reserve(ctx: Ctx, order: Reserve) -> None:
    """Spend the AP and put the black barrel on the unit. Every reader learns who paid
    (a leader, or an HQ face up since its activation) and the unit's token (RULINGS B95);
    under ``hidden_reserves`` the others learn who paid and that a unit of that side went
    into Reserve Mode, never which nor where (L2447-2448; RULINGS F6)."""
    s, board = ctx.state, ctx.board
    b, who, h = check_reserve(ctx, order)
    reaction = s.phase == "exploitation"
    (s.reaction_reserve if reaction else s.reserve).append(b.id)
    if h is None:
        hq.spend(s, who, ("reserve",))
        mine = public = hq.name(who)
    else:
        fuel.activate(ctx, h)  # in place when the HQ puts itself in reserve (RULINGS B91)
        fuel.spend(ctx, h, "reserve")
        mine, public = ctx.name(h), combat.name(board, h)
    when = (
        ", to move in the enemy's next Defender Reaction"
        if reaction
        else ", to move in the Exploitation Phase"
    )
    ctx.events.append(
        private(
            "reserve",
            f"{mine} spends 1 AP: {ctx.name(b)} at {b.at} goes into Reserve Mode{when}.",
            (b.side,),
            f"{public} spends 1 AP: an {SIDE_NAME[b.side]} unit goes into Reserve Mode{when}."
            if hidden(s)
            else f"{public} spends 1 AP: {b.token} at {b.at} goes into Reserve Mode{when}.",
            token=b.token,
        )
    )


def shown(ctx: Ctx, order: Reserve) -> str:
    """A Reserve order as the others read it: the unit's token and who paid (public);
    under ``hidden_reserves`` the unit's side in place of its token (RULINGS F6)."""
    s = ctx.state
    b = s.blocks.get(order.block) or s.by_token(order.block.upper())
    if order.by is None or order.by.lower() in hq.NAMES:
        by = [order.by.lower()] if order.by else []
    else:
        h = s.blocks.get(order.by) or s.by_token(order.by.upper())
        by = [h.token]
    unit = f"({SIDE_NAME[b.side]} unit)" if hidden(s) else b.token
    return " ".join(["reserve", unit, *by])


def reserve_orders(ctx: Ctx) -> list[Reserve]:
    """Every Reserve Mode the phasing side may order now: by the first Supreme Leader
    who may (Movement Phase), and by each armoured HQ able to."""
    s, board = ctx.state, ctx.board
    if not playing(s) or s.phase not in ("movement", "exploitation"):
        return []
    mine = sorted(s.on_map(s.player), key=lambda b: b.id)
    hqs = [h.id for h in mine if board.block(h.id).kind == "armored_hq"]
    sources: list[str | None] = ([None] if s.phase == "movement" else []) + hqs
    radius: dict[str, set[str]] = {}
    out = []
    for b in mine:
        if reservable(board, s, b):
            continue
        for who in sources:
            order = Reserve(block=b.id, by=who)
            try:
                check_reserve(ctx, order, radius)
            except IllegalOrder:
                continue
            out.append(order)
    return out


# -- the advanced Defender Reaction (Appendix, L2450-2474) ---------------------------------


def check_reacting(ctx: Ctx, b: BlockState) -> None:
    """Appendix (L2458-2472; RULINGS B93): in the Defender Reaction a ground unit of the
    non-phasing side moves only if an armoured HQ put it in Reserve Mode for a reaction,
    it stands in no battle hex (engaged units do not react) and it is in supply. Called
    by :func:`engine.games.bia.movement.check_move`; changes nothing."""
    s = ctx.state
    if not playing(s):
        raise refuse(
            "BIA 7.6", "In the Defender Reaction only air units react ('react BLOCK HEX')."
        )
    if b.at in s.battles:
        raise refuse(
            RULE_REACTION,
            f"{ctx.name(b)} is engaged in the battle at {ctx.where(b.at)}: units already in a "
            "battle hex do not react (L2466-2467).",
        )
    if b.id not in s.reaction_reserve:
        raise refuse(
            RULE_REACTION,
            f"{ctx.name(b)} is not in Reserve Mode for a reaction: in the Defender Reaction "
            "only armour an armoured HQ put in Reserve Mode in your Exploitation Phase moves, "
            "and air units react ('react BLOCK HEX') (L2458-2459, L2433-2438).",
        )
    if b.oos:
        raise refuse(
            RULE_REACTION,
            f"{ctx.name(b)} is out of supply and reacts into no battle (4.4, L695-696; "
            "RULINGS B93).",
        )


def reacting(state: State) -> list[str]:
    """The non-phasing side's units in Reserve Mode for a reaction, on the map."""
    side = enemy(state.player)
    return sorted(
        i for i in state.reaction_reserve
        if state.blocks[i].where == "map" and state.blocks[i].side == side
    )  # fmt: skip


def reaction_orders(ctx: Ctx) -> list[Move]:
    """Every reaction move of the non-phasing side's armour in Reserve Mode (Appendix)."""
    s = ctx.state
    if not playing(s) or s.phase != "reaction" or not s.battles:
        return []
    out: list[Move] = []
    for i in reacting(s):
        b = s.blocks[i]
        try:
            check_reacting(ctx, b)
        except IllegalOrder:
            continue
        out.extend(destinations(ctx, b))
    return out


def spend_reactions(ctx: Ctx) -> None:
    """At the end of the Defender Reaction the Reserve Mode of the non-phasing side's units
    that reacted (moved in it, ``state.moved``) ends: a reserve moves once (L2436-2438).
    Those that did not move keep it for the enemy's Blitz Phase (7.8 L1876-1879; RULINGS
    B98)."""
    s = ctx.state
    side = enemy(s.player)
    s.reaction_reserve = [
        i for i in s.reaction_reserve
        if s.blocks[i].where == "map" and (s.blocks[i].side != side or i not in s.moved)
    ]  # fmt: skip


def end_reaction(ctx: Ctx) -> None:
    """At the end of the enemy's Blitz Phase the Reserve Mode of the non-phasing side's
    reaction reserves ends, whether they moved or not: the rule gives them the enemy's
    Defender Reaction (L2436-2438), and 7.8 its blitz battles (L1876-1879; RULINGS B92,
    B98)."""
    s = ctx.state
    side = enemy(s.player)
    s.reaction_reserve = [
        i for i in s.reaction_reserve
        if s.blocks[i].side != side and s.blocks[i].where == "map"
    ]  # fmt: skip


def prompt_note(ctx: Ctx) -> str:
    """What the Defender Reaction prompt adds under the advanced rules."""
    return (
        "; armour in Reserve Mode for a reaction moves to a battle or a hex free of the "
        "enemy within its MP ('move BLOCK HEX...'), air units may also fly to an airfield "
        "in range (AR Appendix)"
    )
