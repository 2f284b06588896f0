"""The air steps of a battle (7.7.1-7.7.3, L1477-1571): Air-to-Air, Anti-Aircraft fire and
Air-to-Ground, fought before the artillery and ground steps of :mod:`combat`.

Every air unit in the battle hex takes part: those that flew there by Air Attack (7.5) or
Defender Reaction (7.6) and those based there (RULINGS B41). Air-to-Air is fought only in
the first round of the battle, in as many air rounds as it takes (L1510-1554); AA fire and
Air-to-Ground open every round (L1635-1637). Fire in these steps is simultaneous: every
die of both sides is rolled before any hit is given.

Rulebook line numbers (``L123``) refer to ``shared/rules/003_19684674ce068529.txt``.
"""

from __future__ import annotations

from engine.core.events import Event
from engine.games.bia import combat
from engine.games.bia.board import SIDE_NAME, Board, enemy
from engine.games.bia.context import Ctx
from engine.games.bia.movement import TECH_TRACK
from engine.games.bia.state import BlockState, State


def is_air(board: Board, b: BlockState) -> bool:
    return board.block(b.id).unit_class == "air"


def air_in(board: Board, state: State, h: str, side: str) -> list[BlockState]:
    """The air units of ``side`` in the battle hex ``h``, by token."""
    out = [x for x in state.at_hex(h) if x.side == side and is_air(board, x)]
    return sorted(out, key=lambda x: x.token)


def _row(board: Board, state: State, b: BlockState, key: str | None = None):
    block = board.block(b.id)
    key = key or board.fire_key(block)
    tech = board.pack.tables.tech(block.power, TECH_TRACK.get(key, key), state.turn)
    return board.pack.tables.firepower[key][str(tech)]


def a2a_number(board: Board, state: State, b: BlockState) -> int | None:
    """What an air unit needs in Air-to-Air: its Play Aid air-to-air number by type and
    TECH (6.3.1-6.3.2, L911-947); TECH 1 bombers have none (L573-575)."""
    return _row(board, state, b).defence


def aa_number(board: Board, state: State, b: BlockState) -> int | None:
    """What a ground unit needs with its AA guns: its defensive firepower (6.5, L971-974),
    an HQ's as the kind its AA is rated as (11.7, L2195-2199; tables ``aa_as``), better by
    its elite Bonus (the Desert Rats hit at 4-6, L1504-1507); no locality Bonus (7.7.9,
    L1729-1730: 'except AA')."""
    block = board.block(b.id)
    key = board.pack.tables.unit_kinds.get(block.kind, {}).get("aa_as")
    need = _row(board, state, b, key).defence
    if need is None:
        return None
    bonus = 1 if block.elite or block.elite_defence else 0
    return max(combat.BEST_HIT, need - bonus)


def a2g_rate(board: Board, state: State, b: BlockState, h: str) -> tuple[int | None, int]:
    """(hit number, Malus) of an air unit firing at ground units (7.7.3): its Play Aid
    air-to-ground number (TECH 1 fighters have none, L911-912); attacking a fortress or a
    bunker it takes the locality's Malus (L1728-1748); under the advanced rules an
    attacker without a successful recon of the hex takes 1 Malus in the first round
    (12.0, L2290-2297)."""
    need = _row(board, state, b).attack
    f = state.fight
    if f is None or b.side != f["attacker"]:
        return need, 0
    malus = 0
    place = combat.locality(board, state, h)
    if place in ("fortress", "bunker"):
        malus += board.pack.tables.localities[place].attacker_malus
    return need, malus + no_recon_malus(state, h)


def no_recon_malus(state: State, h: str) -> int:
    """1 Malus for the attacker's air units and artillery in the first round of a battle
    whose hex no recon revealed this turn (advanced rules, 12.0 L2290-2297)."""
    f = state.fight
    advanced = bool(state.options.get("advanced"))
    return int(advanced and f is not None and f["round"] == 1 and h not in state.reconned)


def a2a_happens(board: Board, state: State, h: str) -> bool:
    """7.7.1 (L1510-1512): only when both sides have air units in the hex and one of
    them at least is a fighter."""
    mine = [air_in(board, state, h, side) for side in (state.player, enemy(state.player))]
    fighters = any(board.block(x.id).kind == "fighter" for units in mine for x in units)
    return all(mine) and fighters


def _volley(ctx: Ctx, label: str, side: str, plan: list[tuple[str, str, int, int]]) -> int:
    """Roll each (name, token, dice, need) of ``side`` and say it; the hits scored."""
    f = ctx.state.fight
    h = f["hex"]
    hits, said = 0, []
    for who, token, dice, need in plan:
        rolls = [ctx.dice.roll(6, f"{token} fires at {h}") for _ in range(dice)]
        hits += sum(r >= need for r in rolls)
        said.append(f"{who} {dice} dice at {need}+: {' '.join(map(str, rolls))}")
    if said:
        ctx.events.append(
            Event(
                "fire",
                f"{label} at {ctx.where(h)}, {SIDE_NAME[side]}: {'; '.join(said)}. {hits} hit(s).",
                {"hex": h, "side": side, "hits": hits},
            )
        )
    return hits


def _queue(ctx: Ctx, hits: dict[str, int], air: bool) -> None:
    """Hits scored by both sides at once, given side by side (defender's losses first)."""
    f = ctx.state.fight
    order = (enemy(f["attacker"]), f["attacker"])
    queue = [{"side": s, "hits": hits[s], "air": air} for s in order if hits.get(s)]
    if queue:
        f["pending"], f["queue"] = queue[0], queue[1:]


def air_to_air(ctx: Ctx) -> None:
    """One round of Air-to-Air (7.7.1, L1510-1554): every air unit with air-to-air fire
    rolls a die per strength point; hits fall on the strongest enemy air units. In the
    first air round the defender's bombers based in the hex stay on the ground and do
    not fire (its fighters scramble; reacting bombers are already flying, L1536-1539, L1548-1554);
    they can still be hit (RULINGS B41)."""
    s, board, f = ctx.state, ctx.board, ctx.state.fight
    h = f["hex"]
    grounded = set(f.get("grounded", [])) if f.get("a2a", 0) == 0 else set()
    f["a2a"] = f.get("a2a", 0) + 1
    hits = {}
    for side in (f["attacker"], enemy(f["attacker"])):
        plan = []
        for b in air_in(board, s, h, side):
            need = a2a_number(board, s, b)
            if need is not None and b.id not in grounded and combat.value(board, b) > 0:
                plan.append((combat.name(board, b), b.token, combat.value(board, b), need))
        hits[enemy(side)] = _volley(ctx, f"Air-to-air (air round {f['a2a']})", side, plan)
    _queue(ctx, hits, air=True)


def anti_aircraft(ctx: Ctx) -> None:
    """AA fire (7.7.2, L1477-1508; 6.5, L966-982): when a side has air units in the hex,
    every enemy ground unit rolls a die per strength point at its AA number, and the
    locality fires for the side that holds the hex (minor and major cities 1 and 2 dice
    at 6, bunker and fortress 1 and 2 at 5-6; battle sites none). Support units spend
    no ammunition on AA (L1502-1503); air units have no AA (L975)."""
    s, board, f = ctx.state, ctx.board, ctx.state.fight
    h = f["hex"]
    hits = {}
    for side in (f["attacker"], enemy(f["attacker"])):
        if not air_in(board, s, h, enemy(side)):
            continue
        plan = []
        for b in combat.ground(board, s, h, side):
            need = aa_number(board, s, b)
            if need is not None and combat.value(board, b) > 0:
                plan.append((combat.name(board, b), b.token, combat.value(board, b), need))
        place = combat.locality(board, s, h)
        row = board.pack.tables.localities.get(place) if place else None
        if row is not None and row.aa_dice and s.control.get(h) == side:
            where = board.hex(h).name or h
            plan.append((f"{where} ({place})", f"{place} {h}", row.aa_dice, row.aa_hit))
        hits[enemy(side)] = _volley(ctx, "AA fire", side, plan)
    _queue(ctx, hits, air=True)


def air_to_ground(ctx: Ctx) -> None:
    """Air-to-Ground (7.7.3, L1556-1571): the air units of both sides that survived fire
    at the enemy ground units in the hex, one die per strength point at their
    air-to-ground number (halved per Malus, :func:`a2g_rate`); hits fall on the
    strongest enemy ground units, and a 0-strength unit is never reduced by air
    (L742-744, L902-903)."""
    s, board, f = ctx.state, ctx.board, ctx.state.fight
    h = f["hex"]
    hits = {}
    for side in (f["attacker"], enemy(f["attacker"])):
        if not combat.ground(board, s, h, enemy(side)):
            continue
        units = air_in(board, s, h, side)

        def rate(b: BlockState) -> tuple[int | None, int]:
            return a2g_rate(board, s, b, h)

        plan = [
            (combat.name(board, b), b.token, dice, need)
            for b, dice, need in combat.fire_plan(board, s, units, h, True, rate=rate)
        ]
        hits[enemy(side)] = _volley(ctx, "Air-to-ground", side, plan)
    _queue(ctx, hits, air=False)
