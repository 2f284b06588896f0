"""Who fires, and how well, in a battle of Blocks in Afrika (3.11-3.20, 7.7.4-7.7.7).

The steps of a round in their order (:data:`STEPS`), the blocks of a side on the ground
in a battle hex and their printed strength, a hex's locality now, and each block's fire:
its hit number from the Play Aid by type and TECH with the Bonus and Malus of the terrain,
the locality, rivers and elite units, and the dice it rolls, merged by Malus (7.7.7); a
Bonus and a Malus cancel in pairs under the option ``bonus_cancels_malus`` (7.7.7.1). The
battle that uses them is :mod:`engine.games.bia.combat`.

Rulebook line numbers (``L123``) refer to ``shared/rules/003_19684674ce068529.txt``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine.games.bia import air_combat
from engine.games.bia.board import Board, enemy
from engine.games.bia.movement import TECH_TRACK, is_ground
from engine.games.bia.orders import STANDING
from engine.games.bia.pack import Block
from engine.games.bia.state import BlockState, State

#: the steps of one round, in order (L1465-1469, L1767-1774); the first three only while
#: Air-to-Air goes on in the first round (7.7.1)
STEPS = ("a2a", "withdraw_defender", "withdraw_attacker", "aa", "air_to_ground",
         "art_attacker", "art_defender", "charge_attacker", "ground_defender", "ground_attacker",
         "retreat_defender", "retreat_attacker")  # fmt: skip
#: the best hit number a die may need after Bonuses: a 1 always misses (RULINGS B18)
BEST_HIT = 2


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
    """(Bonus, Malus) of one block firing in the battle at ``h`` (7.7.6-7.7.7, L1657-1692):
    those of :func:`_modifiers`, all cumulative (L1668). Under the set-up option
    ``bonus_cancels_malus``, the optional Players Agreement of 7.7.7.1 (L1693-1699), one
    Bonus and one Malus of the block cancel each other, pair by pair, whatever gave them:
    the example's 4-step unit with 1 Malus and 1 Bonus rolls its 4 dice at its Play Aid
    number (RULINGS F5)."""
    bonus, malus = _modifiers(board, state, b, h, attacking)
    if state.options.get("bonus_cancels_malus"):
        pairs = min(bonus, malus)
        return bonus - pairs, malus - pairs
    return bonus, malus


def _modifiers(
    board: Board, state: State, b: BlockState, h: str, attacking: bool
) -> tuple[int, int]:
    """(Bonus, Malus) of one block firing in the battle at ``h``, each counted (7.7.6-7.7.7,
    L1657-1692; Play Aid terrain table). Attacking: the hex's terrain and locality Malus (none for
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
