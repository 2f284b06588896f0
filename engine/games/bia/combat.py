"""Phase 7, Combat (7.7, L1437-1818), and the battles of the Blitz (7.8).

Before any battle each side reveals every unit in every battle hex (L1446-1447; 3.23,
L645-656); they stay face up until the Final Supply Check (L2416-2417), where
:func:`engine.games.bia.turn.final_supply_phase` stands them up again.

A battle is fought in rounds (L1465-1469, L1635-1637): in the first round only,
Air-to-Air in as many air rounds as it takes, each followed by the air units' withdrawals
(7.7.1); then AA fire (7.7.2) and Air-to-Ground (7.7.3), both in :mod:`air_combat`; the
artillery step (the attacker's artillery, then the defender's, 7.7.4) and the ground step
(the defender's combat units, then the attacker's, 7.7.5); then the defender and the
attacker may retreat (7.7.11); under the advanced rules, before the first round's
retreats, an unsupplied attacker whose Desperate Attack left enemy ground units in the hex
surrenders (AR 10.2, :func:`surrender_desperate`). Rounds go on until one side has no
ground unit left in the hex (RULINGS B16); an air strike with no attacking ground unit lasts one round (B42). Air
units of the side that loses a battle fly off to an airbase at once (7.7.11.2); the
others stay over the hex until the end of the Blitz Phase (7.8.1, :mod:`air`).

The battle being fought is ``state.fight``: its hex, attacker, round, step, the shield
hits carried (7.7.8.1) and the decision it waits on. Every decision of the side taking
hits or retreating has a standing order (``state.standing``), so a battle waits on a
player only when that player asked to be asked.

Rulebook line numbers (``L123``) refer to ``shared/rules/003_19684674ce068529.txt``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine.core.events import Event
from engine.games.bia import air, air_combat, charge, ledger, special, supply
from engine.games.bia.board import SIDE_NAME, Board, enemy
from engine.games.bia.context import Ctx
from engine.games.bia.movement import TECH_TRACK, entry_cost, is_ground
from engine.games.bia.orders import STANDING
from engine.games.bia.pack import Block, neighbours
from engine.games.bia.state import BlockState, State

#: the steps of one round, in order (L1465-1469, L1767-1774); the first three only while
#: Air-to-Air goes on in the first round (7.7.1)
STEPS = ("a2a", "withdraw_defender", "withdraw_attacker", "aa", "air_to_ground",
         "art_attacker", "art_defender", "charge_attacker", "ground_defender", "ground_attacker",
         "retreat_defender", "retreat_attacker")  # fmt: skip
#: the best hit number a die may need after Bonuses: a 1 always misses (RULINGS B18)
BEST_HIT = 2
CITIES = ("capital", "major", "minor", "fortress")


# -- who is who ------------------------------------------------------------------------


def standing(state: State, side: str, topic: str) -> str:
    return state.standing.get(side, {}).get(topic, STANDING[topic][0])


def value(board: Board, b: BlockState) -> int:
    """The printed value of the edge a block stands on: its dice (3.14, L534-539)."""
    return board.block(b.id).track[b.steps - 1][0] if b.steps else 0


def ground(board: Board, state: State, h: str, side: str) -> list[BlockState]:
    out = [x for x in state.at_hex(h) if x.side == side and is_ground(board.block(x.id))]
    return sorted(out, key=lambda x: x.token)


def can_fight(board: Board, state: State, h: str, side: str) -> bool:
    """Whether a side still has a combat unit with strength in the hex (3.11, L510-515)."""
    return any(
        board.block(x.id).role == "gcu" and value(board, x) > 0
        for x in ground(board, state, h, side)
    )


def fires_in_artillery_step(block: Block, kinds: dict[str, dict[str, Any]]) -> bool:
    """Artillery, armoured HQs and minor-power SHQs fire in the artillery step (7.7.4,
    L1579-1583; tables.json ``fires_as``)."""
    return block.kind == "artillery" or kinds.get(block.kind, {}).get("fires_as") == "artillery"


def locality(board: Board, state: State, h: str) -> str | None:
    """The locality of a hex now: changed by a capture (7.7.9 special cases, L1727-1749),
    Tobruk's by scenario (L1731-1756, RULINGS D6), else as printed."""
    if h in state.localities:
        return state.localities[h]
    x = board.hex(h)
    if x.name == "Tobruk":
        return board.pack.scenario(state.scenario).tobruk or x.locality
    return x.locality


def name(board: Board, b: BlockState) -> str:
    """A revealed block as both sides read it."""
    return f"{board.block(b.id).name} ({b.token})"


# -- firepower, Bonus and Malus (3.17, 7.7.6-7.7.7) ---------------------------------------


def _fire_row(board: Board, state: State, block: Block) -> tuple[int | None, int | None]:
    """The block's (attack, defence) hit numbers from the Play Aid by type and TECH (3.16-3.17)."""
    kinds = board.pack.tables.unit_kinds
    key = board.fire_key(block)
    rule = kinds.get(block.kind, {})
    if "as" not in rule and "fires_as" in rule:
        key = rule["fires_as"]
    tech = board.pack.tables.tech(block.power, TECH_TRACK.get(key, key), state.turn)
    row = board.pack.tables.firepower[key][str(tech)]
    return row.attack, row.defence


def modifiers(
    board: Board, state: State, b: BlockState, h: str, attacking: bool
) -> tuple[int, int]:
    """(Bonus, Malus) of one block firing in the battle at ``h`` (7.7.6-7.7.7, L1657-1692;
    Play Aid terrain table). Attacking: the hex's terrain and locality Malus (none for
    mountain units in hills and mountains), armour attacking into swamp, a river crossed
    on the way in, and the elite Bonus (9.0). Defending: the locality's Bonus (fortress and
    bunker to combat units only, L1728-1748), a river every attacker crossed, mountain units
    in hills and mountains, the elite Bonus, and armour defending in swamp takes a Malus
    (L936-938). Rivers: RULINGS B26; localities: B27."""
    tables = board.pack.tables
    block = board.block(b.id)
    terrain = board.hex(h).terrain
    row = tables.terrain[terrain]
    kind = tables.unit_kinds.get(block.kind, {})
    place = locality(board, state, h)
    loc = tables.localities.get(place) if place else None
    bonus = malus = 0
    if attacking:
        if terrain not in kind.get("no_malus_in", ()):
            malus += row.attacker_malus
        if block.unit_class == "armored" and row.armor_attacking_malus:
            malus = max(malus, row.armor_attacking_malus)
        malus += loc.attacker_malus if loc else 0
        came = state.entered_from.get(b.id)
        if came and "river" in board.features(came, h):
            malus += tables.hexsides["river"]["attacker_malus"]
        bonus += 1 if block.elite else 0
        if fires_in_artillery_step(block, tables.unit_kinds):
            malus += air_combat.no_recon_malus(state, h)
        return bonus, malus
    bonus += row.defender_bonus
    if loc and (place not in ("fortress", "bunker") or block.role == "gcu"):
        bonus += loc.defender_bonus
    came = [state.entered_from.get(x.id) for x in ground(board, state, h, enemy(b.side))]
    if came and all(c and "river" in board.features(c, h) for c in came):
        bonus += tables.hexsides["river"]["defender_bonus"]
    if terrain in kind.get("defence_bonus_in", ()):
        bonus += 1
    bonus += 1 if block.elite or block.elite_defence else 0
    if block.unit_class == "armored":
        malus += row.armor_defending_malus
    return bonus, malus


def hit_number(board: Board, state: State, b: BlockState, h: str, attacking: bool) -> int | None:
    """The die roll a block needs to hit: its Play Aid number less one per Bonus, never
    better than 2 (RULINGS B18); ``None`` when it has no firepower of that kind."""
    attack, defence = _fire_row(board, state, board.block(b.id))
    base = attack if attacking else defence
    if base is None:
        return None
    bonus, _ = modifiers(board, state, b, h, attacking)
    return max(BEST_HIT, base - bonus)


def fire_plan(
    board: Board,
    state: State,
    firers: list[BlockState],
    h: str,
    attacking: bool,
    rate: Callable[[BlockState], tuple[int | None, int]] | None = None,
) -> list[tuple[BlockState, int, int]]:
    """The dice each firing block rolls and the number each die needs: one die per
    strength point (3.14), halved per Malus, rounded down (3.19, 7.7.6), at least one
    (3.20, L594-597); a block of strength 0 does not fire (L1605-1606). Blocks with the
    same Malus merge their strength before halving; the dice that gains go to the weakest
    of them, the one with the worst hit number (7.7.7 Merging dice, L1677-1691).
    ``rate(block) -> (hit number, Malus)`` replaces the ground units' rating (air units)."""
    out: list[tuple[BlockState, int, int]] = []
    groups: dict[int, list[tuple[BlockState, int, int]]] = {}
    for b in firers:
        if rate is None:
            need = hit_number(board, state, b, h, attacking)
            malus = modifiers(board, state, b, h, attacking)[1]
        else:
            need, malus = rate(b)
        v = value(board, b)
        if v <= 0 or need is None:
            continue
        dice = max(1, v >> malus)
        out.append((b, dice, need))
        if malus:
            groups.setdefault(malus, []).append((b, v, need))
    for malus, group in groups.items():
        extra = (sum(v for _, v, _ in group) >> malus) - sum(
            max(1, v >> malus) for _, v, _ in group
        )
        if len(group) > 1 and extra > 0:
            weakest = max(group, key=lambda g: (g[2], -g[1], g[0].token))
            out = [(b, d + extra, n) if b is weakest[0] else (b, d, n) for b, d, n in out]
    return out


# -- the battle -------------------------------------------------------------------------


def reveal_battles(ctx: Ctx, hexes: list[str] | None = None) -> None:
    """Turn face up every block in the battle hexes and tell both sides what is there
    (L1446-1447): in the Combat Phase every battle hex at once, in the Blitz the hex of
    each blitz battle as it is fought."""
    s, board = ctx.state, ctx.board
    for h in s.battles if hexes is None else hexes:
        blocks = sorted(s.at_hex(h), key=lambda b: (b.side != s.player, b.token))
        if not blocks:
            continue
        parts = []
        for side in (s.player, enemy(s.player)):
            shown = ", ".join(
                f"{board.block(b.id).name} ({b.token}, {value(board, b)})"
                for b in blocks
                if b.side == side
            )
            parts.append(f"{SIDE_NAME[side]}: {shown or 'nothing'}")
        for b in blocks:
            b.revealed = True
        ctx.events.append(
            Event(
                "reveal",
                f"Battle at {ctx.where(h)}, blocks revealed. {'; '.join(parts)}.",
                {"hex": h, "tokens": [b.token for b in blocks]},
                reveals=True,
            )
        )


def start(ctx: Ctx, h: str) -> None:
    """Open the battle at ``h``: its blocks face up, the attackers noted for the Blitz
    (7.8, L1820-1822). The air units based in the hex join the battle (they rebase after
    it, 7.8.1); the defender's bombers among them start on the ground (7.7.1, L1536-1539)."""
    s, board = ctx.state, ctx.board
    if any(not b.revealed for b in s.at_hex(h)):
        reveal_battles(ctx, [h])
    s.fight = {"hex": h, "attacker": s.player, "round": 1, "step": 0, "pending": None,
               "queue": [], "shield": {}, "wait": None, "a2a": 0, "grounded": []}  # fmt: skip
    for b in ground(board, s, h, s.player) + air_combat.air_in(board, s, h, s.player):
        s.attacked[b.id] = h  # who may blitz or follow from this battle (7.8)
    for b in s.at_hex(h):
        if air.is_air(board, b) and b.id not in s.aloft:
            s.aloft[b.id] = h
            if b.side != s.player and board.block(b.id).kind == "bomber":
                s.fight["grounded"].append(b.id)
    ctx.events.append(Event("battle", f"The battle at {ctx.where(h)} begins.", {"hex": h}))
    _lone(ctx)


def advance(ctx: Ctx, auto_start: bool) -> bool:
    """Fight on until a player must decide; True when one must. With ``auto_start`` a
    single battle left is begun without asking which (7.7: the phasing side's choice
    only matters among several)."""
    s = ctx.state
    while True:
        if s.fight is None:
            if not s.battles or not auto_start or len(s.battles) > 1:
                return bool(s.battles)
            start(ctx, s.battles[0])
            continue
        if s.fight["wait"]:
            return True
        _step(ctx)


def _step(ctx: Ctx) -> None:
    """One step of the battle: hits still to give, a volley, a retreat, or a new round."""
    s, board, f = ctx.state, ctx.board, ctx.state.fight
    assert f is not None
    h, att = f["hex"], f["attacker"]
    if f["pending"]:
        _give_hits(ctx)
        return
    if _over(ctx):
        return
    if f["round"] == 1 and f["step"] == STEPS.index("retreat_defender") and "desperate" not in f:
        f["desperate"] = True  # checked once, as the first round's ground combat ends
        if surrender_desperate(ctx):
            return
    if f["step"] >= len(STEPS):
        f["round"] += 1
        f["step"] = 0
        ctx.events.append(Event("round", f"Battle at {ctx.where(h)}: round {f['round']}."))
        return
    step = STEPS[f["step"]]
    side = att if step.endswith("attacker") else enemy(att)
    if step.startswith(("retreat", "withdraw")):
        if standing(s, side, "retreat") == "ask" and retreats(ctx, side):
            f["wait"] = f"retreat:{side}"
        else:
            end_retreats(ctx)
        return
    if step == "a2a" and not (f["round"] == 1 and air_combat.a2a_happens(board, s, h)):
        f["step"] = STEPS.index("aa")
        return
    f["step"] += 1
    if step == "charge_attacker":  # Panzers Attack! and Cavalry Charge! (AR 13.0, 14.0)
        f["charged"] = [x.id for x in charge.chargers(board, s, h)]
    if step in ("a2a", "aa", "air_to_ground"):
        {"a2a": air_combat.air_to_air, "aa": air_combat.anti_aircraft,
         "air_to_ground": air_combat.air_to_ground}[step](ctx)  # fmt: skip
        return
    units = ground(board, s, h, side)
    if not ground(board, s, h, enemy(side)):
        return  # nothing on the ground to fire at (an air strike, RULINGS B42)
    if step.startswith("art"):
        if not can_fight(board, s, h, side):
            return  # artillery never fires alone (3.12, L517-520)
        firers = [
            x
            for x in units
            if fires_in_artillery_step(board.block(x.id), board.pack.tables.unit_kinds)
        ]
    else:
        firers = [x for x in units if board.block(x.id).role == "gcu"]
        charged = f.get("charged", [])
        if step == "charge_attacker":
            firers = [x for x in firers if x.id in charged]
        elif step == "ground_attacker":
            firers = [x for x in firers if x.id not in charged]
    plan = fire_plan(board, s, firers, h, side == att)
    if not plan:
        return
    hits, said = 0, []
    for b, dice, need in plan:
        rolls = [ctx.dice.roll(6, f"{b.token} fires at {h}") for _ in range(dice)]
        hits += sum(r >= need for r in rolls)
        said.append(f"{name(board, b)} {dice} dice at {need}+: {' '.join(map(str, rolls))}")
    kind = {"art": "Artillery", "cha": "Charge (AR 13.0-14.0)"}.get(step[:3], "Ground fire")
    ctx.events.append(
        Event(
            "fire",
            f"{kind} at {ctx.where(h)}, {SIDE_NAME[side]}: {'; '.join(said)}. {hits} hit(s).",
            {"hex": h, "side": side, "hits": hits},
        )  # fmt: skip
    )
    if step.startswith("art"):
        for b, _, _ in plan:  # ammunition spent after the roll (7.7.4, L1590-1593)
            _lose_step(ctx, b, "fires and spends a step of ammunition")
    if hits:
        first = f.get("charged", []) if step == "ground_defender" else []
        f["pending"] = {"side": enemy(side), "hits": hits, "air": False, "first": first}
        if step.startswith("art"):  # who fired, for the targeting of AR 12.1
            f["pending"]["firers"] = [b.id for b, _, _ in plan]


def strongest(
    board: Board, state: State, h: str, side: str, air_units: bool = False
) -> list[BlockState]:
    """The blocks of ``side`` the next hit must fall on: the strongest that a hit can
    still reduce (3.18, L586-588; 7.7.9, L1721-1723), among its air units for air-to-air
    and AA hits, among its ground units otherwise. A 0-strength block is not reduced by
    hits (7.7.10, L1762-1766)."""
    pool = air_combat.air_in if air_units else ground
    units = [x for x in pool(board, state, h, side) if value(board, x) > 0]
    if not units:
        return []
    top = max(value(board, x) for x in units)
    return [x for x in units if value(board, x) == top]


def engine_choice(board: Board, state: State, tied: list[BlockState], h: str) -> BlockState:
    """The engine's standing rule for a tie of the strongest (RULINGS B19): the block
    that fires worst in this battle takes the hit, then the one with more edges left,
    then the first token."""
    att = state.fight["attacker"] if state.fight else state.player

    def worst(x: BlockState) -> tuple[int, int, str]:
        need = hit_number(board, state, x, h, x.side == att)
        return (-(need or 7), -x.steps, x.token)

    return min(tied, key=worst)


def aimed(board: Board, state: State) -> bool:
    """Whether the attacker picks which of the tied strongest takes the pending hit
    (advanced rules 12.1, L2345-2350; RULINGS B61): the hex was revealed by the attacker's
    air recon this turn, the weather is sunny (always in BIA, L993-994) and the hits are
    the attacker's from its artillery step or Air-to-Ground, every unit firing in it an
    artillery or air unit of TECH 2 or better."""
    f = state.fight
    pend = f["pending"] if f else None
    if not pend or not state.options.get("advanced") or f["hex"] not in state.reconned:
        return False
    att = f["attacker"]
    if pend["side"] == att or pend.get("air") or f["step"] < 1:
        return False
    step = STEPS[f["step"] - 1]
    if step == "art_attacker":
        firers = [board.block(i) for i in pend.get("firers", ())]
        kinds = ["artillery"] * len(firers)
    elif step == "air_to_ground":
        firers = [board.block(x.id) for x in air_combat.air_in(board, state, f["hex"], att)]
        kinds = [x.kind for x in firers]
    else:
        return False
    tables = board.pack.tables
    return bool(firers) and all(
        x.kind == k and tables.tech(x.power, k, state.turn) >= 2 for x, k in zip(firers, kinds, strict=True)
    )


def aim_choice(board: Board, state: State, tied: list[BlockState], h: str) -> BlockState:
    """The engine's aim for the attacker (``standing aim engine``, RULINGS B61): the tied
    block that fires best in this battle, then the one with fewer edges left, then the
    first token."""

    def best(x: BlockState) -> tuple[int, int, str]:
        need = hit_number(board, state, x, h, False)
        return (need or 7, x.steps, x.token)

    return min(tied, key=best)


def tied(board: Board, state: State) -> list[BlockState]:
    """The blocks the next pending hit of the battle must fall on (:func:`strongest`)."""
    f = state.fight
    pend = f["pending"]
    among = strongest(board, state, f["hex"], pend["side"], bool(pend.get("air")))
    first = [x for x in among if x.id in pend.get("first", ())]
    if pend.get("first") and not first:  # the chargers take the answering hits first
        units = [state.blocks[i] for i in pend["first"]]
        units = [x for x in units if x.where == "map" and x.at == f["hex"] and value(board, x) > 0]
        top = max((value(board, x) for x in units), default=0)
        first = [x for x in units if value(board, x) == top] if units else []
    return first or among


def _give_hits(ctx: Ctx) -> None:
    """Give the pending hits one by one (7.7.8-7.7.10), asking the owner on a tie when
    its standing order says so; then the next side's hits of a simultaneous volley."""
    s, board, f = ctx.state, ctx.board, ctx.state.fight
    pend = f["pending"]
    while pend["hits"] > 0:
        among = tied(board, s)
        if not among:
            ctx.events.append(
                Event(
                    "hits",
                    f"{pend['hits']} hit(s) at {ctx.where(f['hex'])} find no target and are lost.",
                )
            )
            break
        if len(among) > 1 and aimed(board, s):  # the firer picks (AR 12.1; RULINGS B61)
            if standing(s, f["attacker"], "aim") == "ask":
                f["wait"] = f"aim:{f['attacker']}"
                return
            take_hit(ctx, aim_choice(board, s, among, f["hex"]))
            continue
        if len(among) > 1 and standing(s, pend["side"], "hits") == "ask":
            f["wait"] = f"hit:{pend['side']}"
            return
        take_hit(ctx, engine_choice(board, s, among, f["hex"]))
    queue = f.get("queue") or []
    f["pending"], f["queue"] = (queue[0], queue[1:]) if queue else (None, [])
    _lone(ctx)


def take_hit(ctx: Ctx, b: BlockState) -> None:
    """One hit on a block: a step lost, or a shield hit carried when its next edge is
    more than one lower (7.7.8.1-7.7.8.2, L1704-1720: the difference of the printed
    values is the hits needed)."""
    board, f = ctx.board, ctx.state.fight
    f["pending"]["hits"] -= 1
    track = board.block(b.id).track
    need = track[b.steps - 1][0] - track[b.steps - 2][0] if b.steps > 1 else 1
    carried = f["shield"].get(b.id, 0) + 1
    if carried < need:
        f["shield"][b.id] = carried
        ctx.events.append(
            Event("hit", f"{name(board, b)} marks a shield hit ({carried} of {need}).")
        )
        return
    f["shield"].pop(b.id, None)
    _lose_step(ctx, b, "takes a hit")


def _lose_step(ctx: Ctx, b: BlockState, why: str) -> None:
    """One step off a block (3.18, L580-584); on its last step it leaves the map, unless
    that edge is a 0-strength one, which stays (7.7.10; RULINGS B25)."""
    board = ctx.board
    if b.steps > 1:
        b.steps -= 1
        ctx.events.append(Event("hit", f"{name(board, b)} {why}: now {value(board, b)}."))
        return
    if value(board, b) == 0:
        return  # a 0-strength block loses nothing more (7.7.10)
    _eliminate(ctx, b, f"{why} and is eliminated")


def _eliminate(ctx: Ctx, b: BlockState, why: str) -> None:
    where = b.at
    ctx.events.append(Event("eliminated", f"{name(ctx.board, b)} {why} at {ctx.where(where)}."))
    b.where, b.at, b.oos = "dead", None, False
    ctx.state.aloft.pop(b.id, None)
    if ctx.state.fight:
        ctx.state.fight["shield"].pop(b.id, None)


def surrender_desperate(ctx: Ctx) -> bool:
    """AR 10.2 (L1980-1983, L2010-2013, L2258-2262), option ``advanced``: the attacker's
    unsupplied ground units in the battle made a Desperate Attack (the only way they
    entered, :func:`engine.games.bia.movement.desperate`); when the first round of ground
    combat is over and enemy ground units still stand in the hex (air units do not
    count), each surrenders at once, before any retreat: it is eliminated, 0-step units
    too, and the enemy gains the PP of 4.5 (L714-723; RULINGS B82). True when one did."""
    s, board, f = ctx.state, ctx.board, ctx.state.fight
    h, att = f["hex"], f["attacker"]
    if not s.options.get("advanced") or not ground(board, s, h, enemy(att)):
        return False
    gave = [b for b in ground(board, s, h, att) if b.oos]
    for b in gave:
        block = board.block(b.id)
        _eliminate(ctx, b, "surrenders after a failed Desperate Attack (AR 10.2)")
        ledger.grant(
            ctx, enemy(att), ledger.surrender_gain(board, block),
            f"{b.token} surrendered after a failed Desperate Attack (10.2, 4.5)",
        )  # fmt: skip
    return bool(gave)


def _lone(ctx: Ctx) -> None:
    """A side that can no longer fire in the ground step loses its blocks in the hex
    while the enemy still can (0-strength blocks, 4.5 L742-744 and 7.7.10 L1763-1766;
    support units never fight alone, 3.11 L510-515; RULINGS B20)."""
    s, board, f = ctx.state, ctx.board, ctx.state.fight
    h = f["hex"]
    for side in (enemy(f["attacker"]), f["attacker"]):
        if can_fight(board, s, h, side) or not can_fight(board, s, h, enemy(side)):
            continue
        for b in ground(board, s, h, side):
            _eliminate(ctx, b, "is left without a combat unit facing enemy ones and is eliminated")


def _over(ctx: Ctx) -> bool:
    """End the battle when a side has no ground unit left in the hex (RULINGS B16); when
    neither side can fire any more, the attacker's blocks there are lost (B20). An
    attacker with air units only fights one round (B42). The losing side's air units fly
    off to an airbase now (7.7.11.2); the holder's stay until the end of the Blitz."""
    s, board, f = ctx.state, ctx.board, ctx.state.fight
    h, att = f["hex"], f["attacker"]
    if ground(board, s, h, att) and ground(board, s, h, enemy(att)):
        if can_fight(board, s, h, att) or can_fight(board, s, h, enemy(att)):
            return False
        for b in ground(board, s, h, att):
            _eliminate(ctx, b, "cannot fight on and is eliminated")
    foes = any(x.side != att for x in s.at_hex(h))
    strike = not ground(board, s, h, att) and bool(air_combat.air_in(board, s, h, att))
    if strike and foes and f["round"] == 1:
        return False
    winner = att if ground(board, s, h, att) else enemy(att)
    loser = enemy(winner)
    if winner == att and s.control.get(h) != att:
        s.control[h] = att
        place = locality(board, s, h)
        after = special.when_captured(board, s, h, place, att) or (
            board.pack.tables.localities[place].when_captured if place else None
        )
        if after:
            s.localities[h] = None if after == "destroyed" else after
            ctx.events.append(Event("locality", f"{ctx.where(h)}: the {place} falls and is now "
                                    f"{'destroyed' if after == 'destroyed' else 'a ' + after}."))  # fmt: skip
    ctx.events.append(Event("battle_end", f"The battle at {ctx.where(h)} is over: the "
                            f"{SIDE_NAME[winner]} side holds the hex.", {"hex": h, "winner": winner}))  # fmt: skip
    for b in air_combat.air_in(board, s, h, loser):
        air.fly_off(ctx, b)
    s.battles = [x for x in s.battles if x != h]
    s.fight = None
    return True


# -- retreat (7.7.11) -------------------------------------------------------------------


def retreat_hexes(ctx: Ctx, b: BlockState) -> list[str]:
    """Where a ground block may retreat from its battle (7.7.11-7.7.11.1, L1767-1815): an
    adjacent playable hex it could enter, outside enemy ZOC, holding no enemy unit, not
    another battle hex, across no forbidden hexside or red arrow, with room under the
    stacking limits; and either holding friendly units only or a friendly city (b), or
    on a supply line of its power (a; RULINGS B21). Static infantry never retreats. An
    air unit retreats to an airbase (7.7.11.2, :func:`engine.games.bia.air.retreat_fields`)."""
    s, board = ctx.state, ctx.board
    block = board.block(b.id)
    if air.is_air(board, b):
        return air.retreat_fields(board, s, b)
    if board.pack.tables.unit_kinds.get(block.kind, {}).get("retreats") is False:
        return []
    foe_zoc = supply.zoc(board, s, enemy(b.side))
    foes = {x.at for x in s.on_map(enemy(b.side))}
    neutral = set(board.pack.scenario(s.scenario).neutral)
    lines: set[str] | None = None
    out = []
    for n in neighbours(b.at):
        if not board.is_land(n) or n in foes or n in foe_zoc or n in s.battles:
            continue
        if board.hex(n).country in neutral or entry_cost(board, block, n) is None:
            continue
        if not special.may_enter(board, s, b, n, b.at):  # scenario special rules (D10-D14)
            continue
        if any(
            board.pack.tables.hexsides.get(x, {}).get("mp", 0) is None
            for x in board.features(b.at, n)
        ):
            continue
        mine = [x for x in ground(board, s, n, b.side)]
        gcu = sum(board.block(x.id).role == "gcu" for x in mine)
        limits = board.pack.tables.stacking
        if len(mine) >= limits.ground_units or (
            block.role == "gcu" and gcu >= limits.ground_combat_units
        ):
            continue
        city = locality(board, s, n) in CITIES and s.control.get(n) == b.side
        if mine or city:
            out.append(n)
            continue
        if lines is None:
            lines = supply.supplied_hexes(board, s, block.power)
        if n in lines:
            out.append(n)
    return out


def retreats(ctx: Ctx, side: str) -> list[tuple[BlockState, str]]:
    """Every (block, hex) retreat of ``side`` from the battle being fought: air units
    after any air round and at the end of a round, ground units only after the ground
    step (7.7.11, L1770-1774; RULINGS B43)."""
    s, board, f = ctx.state, ctx.board, ctx.state.fight
    units = air_combat.air_in(board, s, f["hex"], side)
    if STEPS[min(f["step"], len(STEPS) - 1)].startswith("retreat"):
        units = ground(board, s, f["hex"], side) + units
    return [(b, n) for b in units for n in retreat_hexes(ctx, b)]


def do_retreat(ctx: Ctx, b: BlockState, to: str) -> None:
    """Move a retreating block; a ground block takes control of the hex it enters
    (RULINGS B8), an air unit lands at its airbase (7.7.11.2)."""
    s = ctx.state
    here = b.at
    b.at = to
    if air.is_air(ctx.board, b):
        s.aloft.pop(b.id, None)
    else:
        s.control[to] = b.side
    ctx.events.append(Event("retreat", f"{name(ctx.board, b)} retreats from {ctx.where(here)} "
                            f"to {ctx.where(to)}.", {"token": b.token, "to": to}))  # fmt: skip
    if not retreats(ctx, b.side):
        end_retreats(ctx)  # nothing left to retreat: the step ends


def end_retreats(ctx: Ctx) -> None:
    """'stay': the side whose retreat step it is keeps its remaining blocks in the hex.
    After the attacker's withdrawals Air-to-Air goes on while it may (7.7.1, L1544-1546)."""
    s, f = ctx.state, ctx.state.fight
    f["wait"] = None
    f["step"] += 1
    if STEPS[f["step"] - 1] == "withdraw_attacker" and air_combat.a2a_happens(
        ctx.board, s, f["hex"]
    ):
        f["step"] = STEPS.index("a2a")
