"""Combat strength, odds and the Combat Results Table (TAC 9.1-9.7), used by Overrun
(8.4) now and by the Combat Phase when it is written.
"""

from __future__ import annotations

from engine.core.errors import IllegalOrder
from engine.core.events import Event
from engine.games.tac.board import Board
from engine.games.tac.state import State, Unit

#: the odds of an automatic DE, and so of an Overrun (TAC 8.4.1, 9.3)
OVERRUN_ODDS = 9


def attack_factor(b: Board, u: Unit) -> int:
    """A unit's attack factor: the left-most number; for Flak the smaller, left one (TAC 9.1)."""
    return b.values(u.id, u.step)[0]


def defence_factor(b: Board, u: Unit) -> int:
    """A unit's defence factor: the left-most number; for Flak the middle one (TAC 9.1)."""
    return b.values(u.id, u.step)[1]


def defence_total(b: Board, defenders: list[Unit], attacker_hexes: list[str]) -> int:
    """The defending hex's total (TAC 9.0 procedure): doubled on a ridge unless an
    attacker stands on a plateau (9.4), doubled in a fort (9.5). Both may apply: RULINGS R12."""
    total = sum(defence_factor(b, u) for u in defenders)
    where = defenders[0].hex if defenders else None
    if where is None:
        return total
    if b.terrain(where) == "ridge" and not any(b.terrain(h) == "plateau" for h in attacker_hexes):
        total *= 2
    if b.has(where, "fort"):
        total *= 2
    return total


def odds(attack: int, defence: int) -> str:
    """The CRT column of ``attack`` against ``defence`` (TAC 9.0, 9.3, 9.6): rounded in the
    defender's favour; below 1-6 is "AE", 9-1 and better "DE".

    >>> odds(26, 9), odds(9, 4), odds(4, 9), odds(1, 7), odds(18, 2)
    ('2-1', '2-1', '1-3', 'AE', 'DE')
    """
    if defence <= 0:
        return "DE"
    if attack >= OVERRUN_ODDS * defence:
        return "DE"
    if attack >= defence:
        return f"{attack // defence}-1"
    if attack * 6 < defence:
        return "AE"
    return f"1-{-(-defence // attack)}"


def result(b: Board, column: str, die: int) -> tuple[str | None, str | None]:
    """The CRT result ``(attacker, defender)`` for a column and a (modified) die roll
    (TAC 9.6, 9.7); an automatic column (9.3) needs no roll. A modified roll above 6 reads
    the 6 row, below 1 the 1 row (RULINGS D3, R13)."""
    crt = b.tables.crt
    if column == "AE":
        return crt.below_lowest, None
    if column == "DE":
        return None, crt.above_highest
    row = crt.rows[str(min(6, max(1, die)))]
    return row[crt.columns.index(column)]


def engagements(b: Board, state: State, side: str) -> dict[str, set[str]]:
    """Where combat is compulsory for the phasing ``side`` (TAC 9.0 general rule and
    procedure, 9.5, 8.2.7): each hex holding ``side``'s units -> the adjacent enemy-held
    hexes it must attack. Units in or next to a Fort need not fight across the fort's
    hexside (9.5), and no combat crosses a prohibited hexside (8.2.7)."""
    from engine.core.hexgrid_rows import neighbours

    enemy_hexes = {u.hex for u in state.on_map() if u.side != side}
    out: dict[str, set[str]] = {}
    for h in sorted({u.hex for u in state.on_map(side) if u.id not in state.replaced}):
        if b.has(h, "fort"):
            continue
        targets = {
            n for n in neighbours(h)
            if n in enemy_hexes and b.crossable(h, n) and not b.has(n, "fort")
        }  # fmt: skip
        if targets:
            out[h] = targets
    return out


def declare(
    b: Board,
    state: State,
    side: str,
    units: tuple[str, ...],
    targets: tuple[str, ...],
    air: int = 0,
) -> Event:
    """Declare one attack of the Combat Phase (TAC 9.0 general rule and procedure);
    changes ``state``. The attackers are the phasing side's units on the map that did not
    move strategically (8.5.3) ; every defending hex holds enemy units (defenders in a hex
    fight together); each attacker is
    next to a defending hex, not across a prohibited hexside (8.2.7; RULINGS R15). An attack
    naming a unit or hex of a declared attack combines with it (RULINGS R16). Attacks
    on or from a Fort are allowed, never required (9.5). Air support (15.1) is not offered
    yet. The event states the odds (9.6) and, on Turns 1-2, the Allied +2 (17.4).
    ``air`` air units join in Close Support, 1 factor each (15.1); a unit that took a
    replacement this turn may not attack (10.0)."""
    from engine.core.hexgrid_rows import neighbours

    attackers: list[Unit] = []
    for uid in units:
        u = state.units.get(uid)
        if u is None or u.side != side or u.where != "map":
            raise IllegalOrder("TAC 9.0", f"You have no unit {uid!r} on the map.")
        if uid in state.strategic:
            raise IllegalOrder("TAC 8.5.3", f"{uid} used Strategic Movement and may not attack.")
        if uid in state.replaced:
            raise IllegalOrder(
                "TAC 10.0", f"{uid} took a replacement this turn and may not attack."
            )
        attackers.append(u)
    for h in targets:
        if not any(u.side != side for u in state.at(h)):
            raise IllegalOrder("TAC 9.0", f"{h} holds no enemy unit to attack.")
    # an attack sharing a unit or a hex with declared ones becomes one combined attack
    # with them: no unit attacks twice, no defender is attacked twice (9.0; RULINGS R16)
    merged = [
        x
        for x in state.battles
        if set(units) & set(x["attackers"]) or set(targets) & set(x["targets"])
    ]
    all_units = list(dict.fromkeys([u for x in merged for u in x["attackers"]] + list(units)))
    all_targets = list(dict.fromkeys([h for x in merged for h in x["targets"]] + list(targets)))
    attackers = [state.units[u] for u in all_units]
    for u in attackers:
        if not any(t in neighbours(u.hex) and b.crossable(u.hex, t) for t in all_targets):
            raise IllegalOrder(
                "TAC 9.0",
                f"{u.id} at {u.hex} is not next to {', '.join(all_targets)} (or only across a prohibited hexside).",
            )
    defenders = [d for h in all_targets for d in state.at(h) if d.side != side]
    targets, units = tuple(all_targets), tuple(all_units)
    from engine.games.tac import air as air_units

    air_units.check_support(b, state, air, list(targets))
    air_total = air + sum(x.get("air", [0])[0] for x in merged)
    attack = sum(attack_factor(b, u) for u in attackers) + air_total
    defence = sum(
        defence_total(b, [d for d in defenders if d.hex == h], [u.hex for u in attackers])
        for h in targets
    )
    column = odds(attack, defence)
    state.air_used += air
    state.battles = [x for x in state.battles if x not in merged]
    declared: dict[str, list] = {"attackers": list(units), "targets": list(targets)}
    if air_total:
        declared["air"] = [air_total]
    state.battles.append(declared)
    bonus = " The Allies add 2 to the die (17.4)." if side == "allied" and state.turn <= 2 else ""
    names = ", ".join(b.units[u.id].name for u in attackers)
    return Event(
        kind="attack",
        text=f"{names} attack {', '.join(b.name(h) for h in targets)}: {attack} against {defence}, {column}.{bonus}",
        data={
            "attackers": list(units),
            "targets": list(targets),
            "attack": attack,
            "defence": defence,
            "odds": column,
            "air": air_total,
        },
    )


def undeclared(b: Board, state: State, side: str) -> list[str]:
    """What the declared attacks leave out that 9.0 makes compulsory: every enemy hex next
    to the phasing side's units must be attacked, and every unit next to one must attack
    (Forts and prohibited hexsides excepted, 9.5, 8.2.7). One sentence per omission."""
    busy = {u for x in state.battles for u in x["attackers"]}
    hit = {h for x in state.battles for h in x["targets"]}
    out: list[str] = []
    for h, targets in engagements(b, state, side).items():
        for t in sorted(targets - hit):
            out.append(f"the enemy in {t} is not attacked")
        for u in state.at(h):
            if u.side == side and u.id not in busy and u.id not in state.replaced:
                out.append(f"{u.id} in {h} is next to the enemy and does not attack")
    return sorted(set(out))
