"""HQ activation, fuel and Out Of Fuel (advanced rules 11.0-11.10, L2044-2290), played with
the set-up option ``advanced``.

The on-map HQs are activated in the phases 11.3 gives their kind (L2099-2131, L2167-2173;
RULINGS B73): the armoured tactical HQs (Rommel, Montgomery) in the Movement and the
Exploitation Phase, the tactical air HQ (the 5th Squadra Aerea) in the Movement and the
Defender Reaction Phase, the strategic ME Air Command in the SRM and the Defender
Reaction Phase, a minor power's Supreme HQ in any of the four. Activation lays the HQ
face up for all to see and gives it as many action points as its strength, half of them
(never fewer than one) when it is out of supply (11.2 L2094-2098; 11.10 Minimum Command,
L2266-2270). An HQ moves first and then activates (11.9, L2228-2229): it moves no more in
that phase. Fuel spends the points, one a unit; recon (:mod:`engine.games.bia.recon`)
has attempts of its own, as many as the AP on activation (L2311-2314, L2336-2339;
RULINGS B73).

``fuel BLOCK HQ`` spends one AP to fuel one unit (11.9 L2016-2022): an armoured HQ fuels
tanks and tankettes, an air HQ air units, a minor power's Supreme HQ either; each only its
own power's units (L2023-2025). Tactical HQs reach 5 hexes, traced through friendly hexes,
never through enemy ZOC or the sea (11.9, L2222-2227); ME Air Command reaches every unit in
AFRIKA (L2086-2088); a Supreme HQ needs no path (L2051-2053). The abstract Supreme Leaders
(:mod:`engine.games.bia.hq`) fuel too, in their own Movement Phase, one unit of each kind a
turn: a supplied armoured unit, an air unit (L1940-1945); Goering German air units only
(L1987-1992); Hitler, the FHQ, the allies' units as well (11.8, L2204-2221).

Out of fuel (11.10, L2254-2265; :func:`engine.games.bia.movement.out_of_fuel`): armour moves
at half its MP, a quarter when also out of supply, and attacks no one; air units neither
attack nor react, but transfer and rebase. Fuel lasts as long as the activation: every
activated HQ is deactivated at the end of the Blitz Phase, losing a step and standing up
again, a 1-step HQ being used up; an armoured HQ may activate again for the Exploitation
Phase and is deactivated at its end (11.4, L2158-2178, L2271-2278).

Rulebook line numbers (``L123``) refer to ``shared/rules/003_19684674ce068529.txt``.
"""

from __future__ import annotations

from collections import deque
from typing import Any

from engine.core.errors import IllegalOrder
from engine.core.events import Event, private
from engine.core.ruleset import Prompt
from engine.games.bia import air, combat, hq, supply
from engine.games.bia.board import SIDE_NAME, Board, enemy
from engine.games.bia.context import Ctx, refuse
from engine.games.bia.hq import playing  # the advanced rules: HQs, AP and fuel (11.0)
from engine.games.bia.movement import fuel_kind
from engine.games.bia.orders import Activate, Fuel
from engine.games.bia.pack import neighbours
from engine.games.bia.state import BlockState, State

#: the phases each kind of on-map HQ may be activated in (11.3 L2099-2131, L2167-2173;
#: 11.1 L2054-2055, L2083-2090; 11.4 L2161-2163; RULINGS B73)
WINDOWS = {
    "armored_hq": ("movement", "exploitation"),
    "air_hq": ("movement", "reaction"),
    "strategic_air_hq": ("srm", "reaction"),
    "minor_shq": ("srm", "movement", "exploitation", "reaction"),
}
#: what each kind of on-map HQ fuels (11.1 L2016-2022, L2031-2033, L2075-2077)
FUELS = {
    "armored_hq": ("armour",),
    "air_hq": ("air",),
    "strategic_air_hq": ("air",),
    "minor_shq": ("armour", "air"),
}
#: the tactical HQs, with their command radius in hexes (11.9, L2222-2227)
RADIUS = {"armored_hq": 5, "air_hq": 5}
#: the fuel each phase serves: the Movement Phase's attacks, the reactions, the exploitation
PHASE_FUEL = {
    "movement": ("armour", "air"),
    "reaction": ("air",),
    "exploitation": ("armour",),
}
#: a Supreme Leader's kind of action for each fuel (L1943-1945)
LEADER_KIND = {"armour": "fuel_armour", "air": "fuel_air"}
WHAT = {"armour": "armour", "air": "an air unit"}




def acting_side(state: State) -> str:
    """The side giving orders: the non-phasing one in Defender Reaction (7.6)."""
    return enemy(state.player) if state.reacting() else state.player


def activation_ap(board: Board, b: BlockState) -> int:
    """The AP an HQ has on activation: its strength (11.2, L2094-2098), halved when it is
    out of supply, never fewer than 1 (11.10 Minimum Command, L2266-2270)."""
    ap = combat.value(board, b)
    return max(1, ap // 2) if b.oos else ap


def ap_left(ctx: Ctx, b: BlockState) -> int:
    """AP an HQ has left: counted down since its activation, or what activating it now
    would give."""
    left = ctx.state.hq_active.get(b.id)
    return activation_ap(ctx.board, b) if left is None else left


def why_not_activate(ctx: Ctx, b: BlockState) -> str | None:
    """Why an on-map HQ of the acting side may not be activated now, or None (11.3)."""
    s = ctx.state
    kind = ctx.board.block(b.id).kind
    if kind not in WINDOWS:
        return f"{ctx.name(b)} is no HQ that activates on the map (11.1)"
    if b.id in s.hq_active:
        return f"{ctx.name(b)} is active already"
    if s.phase not in WINDOWS[kind]:
        names = [_PHASE[p] for p in WINDOWS[kind]]
        phases = " and ".join([", ".join(names[:-1]), names[-1]])
        return f"{ctx.name(b)} is activated in the {phases} Phases only (11.3, RULINGS B73)"
    return None


_PHASE = {
    "srm": "SRM",
    "movement": "Movement",
    "exploitation": "Exploitation",
    "reaction": "Defender Reaction",
}


def own_hq(ctx: Ctx, name: str, rule: str = "BIA 11.3") -> BlockState:
    """The acting side's on-map HQ named by id or token; one sentence for an enemy block
    and for a name that is nobody's, so the refusal tells nothing (1.3)."""
    s = ctx.state
    b = s.blocks.get(name) or s.by_token(name.upper())
    if b is None or b.side != acting_side(s) or b.where != "map":
        raise refuse(rule, f"You have no HQ called {name!r} on the map.")
    return b


def activate(ctx: Ctx, b: BlockState) -> None:
    """Lay an HQ face up with its AP (11.3, 11.10). In the Movement or Exploitation Phase
    it has made its move (11.9, L2228-2229). Nothing happens to an active one."""
    s = ctx.state
    if b.id in s.hq_active:
        return
    ap = activation_ap(ctx.board, b)
    s.hq_active[b.id] = ap
    s.hq_done[b.id] = []
    b.revealed = True
    held = b.id in s.reserve or b.id in s.reaction_reserve  # in place, in reserve (B91)
    if s.phase in ("movement", "exploitation") and b.id not in s.moved and not held:
        s.moved.append(b.id)
    short = " (out of supply: half its AP, 11.10)" if b.oos else ""
    ctx.events.append(
        Event(
            "reveal",
            f"{combat.name(ctx.board, b)} is activated and laid face up at "
            f"{ctx.where(b.at)} ({ap} AP){short}.",
            {"hex": b.at, "tokens": [b.token]},
            reveals=True,
        )
    )


def spend(ctx: Ctx, b: BlockState, kind: str) -> None:
    """One AP of an active HQ for one action (11.2)."""
    ctx.state.hq_active[b.id] -= 1
    ctx.state.hq_done.setdefault(b.id, []).append(kind)


def check_activate(ctx: Ctx, order: Activate) -> BlockState:
    """``activate HQ`` (AR 11.3, L2099-2131; RULINGS B73): an on-map HQ of the acting
    side, not yet active, in a phase its kind is activated in. Changes nothing."""
    s = ctx.state
    if not playing(s):
        raise refuse("BIA 11.3", "HQ activation is an advanced rule; this game plays the basic rules.")
    b = own_hq(ctx, order.block)
    why = why_not_activate(ctx, b)
    if why:
        raise refuse("BIA 11.3", f"{why}.")
    return b


def apply_activate(ctx: Ctx, order: Activate) -> None:
    """Lay the HQ face up with its AP (AR 11.3, 11.10 Minimum Command)."""
    activate(ctx, check_activate(ctx, order))


# -- fuel (11.0-11.10) --------------------------------------------------------------------


def command_radius(ctx: Ctx, b: BlockState) -> set[str]:
    """The hexes a tactical HQ reaches (11.9, L2222-2227): within 5 hexes, traced from its
    own hex through hexes its side controls that hold no enemy unit and lie outside enemy
    ZOC (a hex with a friendly unit in it never is, 3.22), never across the sea, a
    deep-water or yellow hexside or a strait's red arrow. A hex holding friendly units at
    the end of such a trace is reached even when it is a battle hex (RULINGS B77)."""
    s, board, side = ctx.state, ctx.board, b.side
    radius = RADIUS[board.block(b.id).kind]
    foes = {x.at for x in s.on_map(enemy(side))}
    mine = {x.at for x in s.on_map(side)}
    zoc = supply.zoc(board, s, enemy(side))
    seen = {b.at: 0}
    todo = deque([b.at])
    while todo:
        h = todo.popleft()
        if seen[h] >= radius or (h != b.at and (h in foes or s.control.get(h) != side)):
            continue
        for n in neighbours(h):
            if n in seen or not board.is_land(n):
                continue
            if supply.blocked(board, h, n):  # deep water, a yellow border
                continue
            if n in mine or (s.control.get(n) == side and n not in foes and n not in zoc):
                seen[n] = seen[h] + 1
                todo.append(n)
    return set(seen)


def _source(ctx: Ctx, name: str) -> tuple[str, BlockState | None]:
    """The HQ named in a fuel order: an abstract Supreme Leader (its key, None) or an
    on-map HQ of the acting side (its id, the block)."""
    key = name.lower()
    if key in hq.NAMES:
        return key, None
    b = own_hq(ctx, name, "BIA 11.9")
    return b.id, b


def check_fuel(
    ctx: Ctx, order: Fuel, radius: dict[str, set[str]] | None = None
) -> tuple[BlockState, str, BlockState | None, str]:
    """Validate a fuel order; returns the unit, who fuels it (an HQ's id or a leader's
    key), the HQ's block (None for a leader) and the kind of fuel. Changes nothing.
    ``radius`` caches command radii while orders are listed."""
    s, board = ctx.state, ctx.board
    if not playing(s):
        raise refuse("BIA 11.0", "Fuel is an advanced rule; this game plays the basic rules.")
    if s.phase not in PHASE_FUEL:
        raise refuse(
            "BIA 11.3",
            "Units are fuelled in the Movement, Defender Reaction and Exploitation Phases.",
        )
    side = acting_side(s)
    unit = s.blocks.get(order.block) or s.by_token(order.block.upper())
    if unit is None or unit.side != side or unit.where != "map":
        raise refuse("BIA 11.0", f"You have no block called {order.block!r} on the map.")
    kind = fuel_kind(board, unit)
    if kind is None:
        raise refuse(
            "BIA 11.0",
            f"{ctx.name(unit)} needs no fuel: only tanks, tankettes and air units have the "
            "white border (L2048; RULINGS B74).",
        )
    if unit.id in s.fuelled:
        raise refuse("BIA 11.0", f"{ctx.name(unit)} is fuelled already.")
    if unit.id in s.reserve:
        raise refuse(
            "BIA 16.0",
            f"{ctx.name(unit)} is in Reserve Mode: it moves in the Exploitation Phase on the AP "
            "that put it there (L2440-2442; RULINGS B76).",
        )
    if unit.id in s.reaction_reserve:
        raise refuse(
            "BIA 16.0",
            f"{ctx.name(unit)} is in Reserve Mode for a reaction: it moves in the enemy's next "
            "Defender Reaction on the AP that put it there (L2433-2442; RULINGS B93).",
        )
    if unit.id in s.moved or unit.id in s.aloft:
        raise refuse(
            "BIA 11.0", f"{ctx.name(unit)} has moved in this phase: fuel serves a move to come."
        )
    if kind not in PHASE_FUEL[s.phase]:
        why = {
            "reaction": "only air units react (7.6)",
            "exploitation": "only armour is fuelled to exploit (11.5, L2187-2188)",
        }[s.phase]
        raise refuse("BIA 11.3", f"{ctx.name(unit)} is not fuelled in this phase: {why}.")
    if s.phase == "reaction" and not any(
        o.block == unit.id for o in air.react_orders(ctx, fuelled_only=False)
    ):
        raise refuse(
            "BIA 7.6",
            f"{ctx.name(unit)} could not react to any battle: fuel in the Defender Reaction "
            "Phase serves a reaction (Appendix, L2461-2465).",
        )
    who, source = _source(ctx, order.hq)
    if source is None:
        _check_leader(ctx, unit, who, kind)
    else:
        _check_hq(ctx, unit, source, kind, radius)
    return unit, who, source, kind


def _check_leader(ctx: Ctx, unit: BlockState, leader: str, kind: str) -> None:
    """A Supreme Leader's fuel (L1940-1945, L1987-1992; 11.8 L2204-2221; RULINGS B78)."""
    s, board = ctx.state, ctx.board
    power = board.block(unit.id).power
    action = LEADER_KIND[kind]
    if s.phase != "movement":
        raise refuse(
            "BIA 11.3",
            f"{hq.name(leader)} is activated in its side's SRM Phase and deactivated after the "
            "Blitz: it fuels in the Movement Phase only, never in a Defender Reaction "
            "(L2103-2105, L2151-2153) or an Exploitation (11.4, L2158-2163).",
        )
    if leader not in hq.leaders_for(board, power, kind == "air"):
        raise refuse(
            "BIA 11.8",
            f"{hq.name(leader)} does not command {ctx.name(unit)}: a leader commands its own "
            "power's units, Goering German air units, and Hitler, the FHQ, the Axis allies' "
            "too, never the reverse (L1987-1992, L2204-2221).",
        )
    if leader == "goering" and kind != "air":
        raise refuse("BIA 11.8", "Goering fuels air units only (L1987-1992).")
    if kind == "armour" and unit.oos:
        raise refuse(
            "BIA 11.2",
            f"{ctx.name(unit)} is out of supply: a Supreme Leader fuels a supplied armoured "
            "unit (L1943).",
        )
    if action in s.leader_ap.get(leader, []):
        raise refuse(
            "BIA 11.2",
            f"{hq.name(leader)} already spent an AP on {hq.KIND_NAMES[action]} this turn: a "
            "Supreme Leader takes one action of each kind (L1940-1951).",
        )
    if hq.ap_left(board, s, leader) <= 0:
        raise refuse("BIA 11.2", f"{hq.name(leader)} has no AP left this turn.")


def check_command(ctx: Ctx, b: BlockState, unit: BlockState, does: str, per_ap: str) -> None:
    """What any on-map HQ needs to spend an AP on a unit, for fuel or for Reserve Mode:
    the unit of its own nationality (L2023-2025; only the FHQ commands an ally's, 11.8),
    the HQ active or able to be activated now (11.3) and an AP left (11.2)."""
    if ctx.board.block(b.id).power != ctx.board.block(unit.id).power:
        raise refuse(
            "BIA 11.8",
            f"{ctx.name(b)} {does} units of its own nationality only (L2023-2025); only the "
            "German FHQ commands an ally's units (11.8).",
        )
    if b.id not in ctx.state.hq_active:
        why = why_not_activate(ctx, b)
        if why:
            raise refuse("BIA 11.3", f"{why}.")
    if ap_left(ctx, b) <= 0:
        raise refuse("BIA 11.2", f"{ctx.name(b)} has no AP left: {per_ap}.")


def check_radius(
    ctx: Ctx, b: BlockState, unit: BlockState, radius: dict[str, set[str]] | None
) -> None:
    """The unit within the tactical HQ's command radius (11.9, L2222-2227); ``radius``
    caches each HQ's reach while one listing of legal orders tries many units."""
    reach = radius.get(b.id) if radius is not None else None
    if reach is None:
        reach = command_radius(ctx, b)
        if radius is not None:
            radius[b.id] = reach
    if unit.at not in reach:
        raise refuse(
            "BIA 11.9",
            f"{ctx.name(unit)} is outside {ctx.name(b)}'s command radius: 5 hexes traced "
            "through friendly hexes, not through enemy ZOC or the sea (L2222-2227).",
        )


def _check_hq(
    ctx: Ctx, unit: BlockState, b: BlockState, kind: str, radius: dict[str, set[str]] | None
) -> None:
    """An on-map HQ's fuel (11.1, 11.9, L2016-2025; 11.10 Minimum Command)."""
    s, board = ctx.state, ctx.board
    hq_kind = board.block(b.id).kind
    if kind not in FUELS.get(hq_kind, ()):
        what = "fuels nothing" if hq_kind not in FUELS else f"fuels {' and '.join(FUELS[hq_kind])} only"
        raise refuse("BIA 11.1", f"{ctx.name(b)} {what}, not {ctx.name(unit)}.")
    check_command(ctx, b, unit, "fuels", "one AP fuels one unit (11.2)")
    done = s.hq_done.get(b.id, [])
    if hq_kind == "minor_shq" and LEADER_KIND[kind] in done:
        raise refuse(
            "BIA 11.2",
            f"{ctx.name(b)} is a Supreme Leader and fuels {WHAT[kind]} once an activation "
            "(L1940-1945).",
        )
    if hq_kind in RADIUS:
        check_radius(ctx, b, unit, radius)
    elif hq_kind == "strategic_air_hq":
        if not board.in_afrika(unit.at):
            raise refuse(
                "BIA 11.1",
                f"{ctx.name(b)} fuels air units in AFRIKA only (L2086-2088).",
            )


def apply_fuel(ctx: Ctx, order: Fuel) -> None:
    """Spend the AP and record the unit as fuelled. The owner reads which unit; the
    others read that the HQ or leader spent an AP on fuel, never which block (RULINGS B75)."""
    s, board = ctx.state, ctx.board
    unit, who, source, kind = check_fuel(ctx, order)
    if source is None:
        hq.spend(s, who, (LEADER_KIND[kind],))
        by, public, left = hq.name(who), hq.name(who), hq.ap_left(board, s, who)
    else:
        activate(ctx, source)
        spend(ctx, source, LEADER_KIND[kind])
        by, public, left = ctx.name(source), combat.name(board, source), s.hq_active[source.id]
    s.fuelled[unit.id] = who
    ctx.events.append(
        private(
            "fuel",
            f"{by} spends 1 AP: {ctx.name(unit)} at {ctx.where(unit.at)} is fuelled "
            f"({left} AP left).",
            (unit.side,),
            f"{public} spends 1 AP on fuel for an {SIDE_NAME[unit.side]} unit.",
        )
    )


# -- listing ---------------------------------------------------------------------------------


def activate_orders(ctx: Ctx) -> list[Activate]:
    """Every activation the acting side may order now."""
    s = ctx.state
    if not playing(s) or s.phase not in ("srm", "movement", "exploitation", "reaction"):
        return []
    return [
        Activate(block=b.id)
        for b in sorted(s.on_map(acting_side(s)), key=lambda b: b.id)
        if ctx.board.block(b.id).kind in WINDOWS and why_not_activate(ctx, b) is None
    ]


def _unfuelled(ctx: Ctx, blocks: list[BlockState]) -> list[BlockState]:
    """Of ``blocks``, those needing fuel in this phase (:data:`PHASE_FUEL`) that have none
    and could still use it: not moved, not aloft, not in Reserve Mode (whose AP fuels it,
    RULINGS B76, B93)."""
    s = ctx.state
    wants = PHASE_FUEL.get(s.phase, ())
    held = {*s.fuelled, *s.moved, *s.aloft, *s.reserve, *s.reaction_reserve}
    return [b for b in blocks if b.id not in held and fuel_kind(ctx.board, b) in wants]


def fuel_orders(ctx: Ctx) -> list[Fuel]:
    """Every fuel order the acting side may give now."""
    s, board = ctx.state, ctx.board
    if not playing(s) or s.phase not in PHASE_FUEL:
        return []
    mine = sorted(s.on_map(acting_side(s)), key=lambda b: b.id)
    units = _unfuelled(ctx, mine)
    if not units:
        return []
    sources = [b.id for b in mine if board.block(b.id).kind in FUELS]
    if s.phase == "movement":
        powers = {(board.block(b.id).power, fuel_kind(board, b) == "air") for b in units}
        sources += sorted({k for p, air in powers for k in hq.leaders_for(board, p, air)})
    radius: dict[str, set[str]] = {}
    out = []
    for b in units:
        for who in sources:
            order = Fuel(block=b.id, hq=who)
            try:
                check_fuel(ctx, order, radius)
            except IllegalOrder:
                continue
            out.append(order)
    return out


# -- deactivation (11.4) -------------------------------------------------------------------


def deactivate(ctx: Ctx) -> None:
    """AR 11.4 (L2158-2178, L2271-2278): at the end of the Blitz Phase, and of an
    Exploitation Phase an HQ was activated again in, each activated HQ loses a step and
    stands up again, hidden; one activated on its last step is used up and leaves the map
    (it may be rebuilt). The fuel it gave ends with it."""
    s, board = ctx.state, ctx.board
    for i in sorted(s.hq_active):
        b = s.blocks[i]
        if b.where != "map":
            continue
        if b.steps > 1:
            b.steps -= 1
            fought = s.phase == "blitz" and b.at in set(s.attacked.values())
            b.revealed = b.revealed and fought  # face up in its battle until Final Supply
            ctx.events.append(
                private(
                    "deactivate",
                    f"{ctx.name(b)} is deactivated: it loses a step (now {combat.value(board, b)}).",
                    (b.side,),
                    f"{b.token} is deactivated and stands up again.",
                )
            )
        else:
            b.where, b.at, b.revealed = "dead", None, False
            ctx.events.append(
                Event("deactivate", f"{combat.name(board, b)} is used up and leaves the map.")
            )
    s.hq_active, s.hq_done, s.fuelled = {}, {}, {}


# -- what the players read -------------------------------------------------------------------


def shown(ctx: Ctx, order: Fuel) -> str:
    """A fuel order as the others read it: who spent the AP, never on which unit."""
    s = ctx.state
    key = order.hq.lower()
    b = None if key in hq.NAMES else s.blocks.get(order.hq) or s.by_token(order.hq.upper())
    who = hq.name(key) if b is None else combat.name(ctx.board, b)
    return f"fuel ({SIDE_NAME[acting_side(s)]} unit) {who}"


def prompt(ctx: Ctx, head: str, words: list[str], text: str, base: dict[str, Any]) -> Prompt:
    """The Movement or Exploitation prompt under the advanced rules: the activation and
    fuel orders, what fuel does, and for its owner only the units still out of fuel."""
    words = [w for w in words if w not in ("done", "standing")]
    words += ["activate", "fuel", "done", "standing"]
    text += prompt_note(ctx)
    public = f"{head}: {text}."
    text = f"{head}: {text}{needing(ctx)}."
    role = ctx.state.player
    return Prompt(role=role, kind=ctx.state.phase, verbs=words, text=text, public=public, **base)


def prompt_note(ctx: Ctx) -> str:
    """What the Movement and Exploitation prompts say of fuel (AR 11.0-11.10)."""
    if ctx.state.phase == "exploitation":
        return (
            "; armour needs fuel to exploit at full MP: activate an armoured HQ again "
            "('activate HQ') and fuel ('fuel BLOCK HQ') within its 5 hexes (AR 11.4-11.5)"
        )
    return (
        "; fuel armour and air units before they move ('activate HQ', then 'fuel BLOCK HQ' "
        "with an HQ or a Supreme Leader): out of fuel, armour moves at half its MP and "
        "attacks no one, air units do not attack (AR 11.10)"
    )


def needing(ctx: Ctx) -> str:
    """For the prompt's owner only: its units still out of fuel that could move now."""
    s = ctx.state
    mine = sorted(s.on_map(acting_side(s)), key=lambda b: b.token)
    units = [b for b in _unfuelled(ctx, mine) if b.at not in s.battles]
    if not units:
        return ""
    return "; out of fuel now: " + ", ".join(ctx.name(b) for b in units)
