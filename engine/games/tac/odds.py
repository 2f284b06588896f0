"""The odds of an attack before it is made (issue 12, "Odds before you attack"): the CRT
column after every adjustment and the exact chance of each result (TAC 9.0 L457-467,
9.3-9.7 L483-509, 15.1 L665, 17.4 L703).

>>> from engine.games.tac.board import Board
>>> r = column_odds(Board(), "2-1", 0)
>>> [(x.attacker, x.defender, str(x.chance)) for x in r][:2]
[('A2R', 'D1', '1/6'), ('C', 'C', '1/6')]
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from engine.core.errors import IllegalOrder
from engine.core.hexgrid_rows import neighbours
from engine.games.tac import combat
from engine.games.tac.board import Board
from engine.games.tac.state import ALLIED, State

DIE = 6


@dataclass(frozen=True)
class Outcome:
    """One result of the table and its chance: ``attacker``/``defender`` are CRT codes
    (9.7), ``None`` for no effect on that side."""

    attacker: str | None
    defender: str | None
    chance: Fraction


@dataclass(frozen=True)
class AttackOdds:
    attack: int
    defence: int
    column: str
    modifier: int
    outcomes: tuple[Outcome, ...]

    def text(self) -> str:
        parts = [
            f"{x.attacker or '-'}/{x.defender or '-'} {float(x.chance):.1%}" for x in self.outcomes
        ]
        mod = f", die {self.modifier:+d}" if self.modifier else ""
        return (
            f"{self.attack} against {self.defence}: {self.column}{mod}. " + "; ".join(parts) + "."
        )


def column_odds(b: Board, column: str, modifier: int) -> list[Outcome]:
    """The chance of each result in a CRT column with a die modifier (TAC 9.3, 9.6, 17.4;
    RULINGS R13: a modified roll beyond the table reads its last row). Automatic columns
    (AE below 1-6, DE at 9-1 and better) need no roll."""
    if column in ("AE", "DE"):
        a, d = combat.result(b, column, 1)
        return [Outcome(a, d, Fraction(1))]
    seen: dict[tuple[str | None, str | None], Fraction] = {}
    for die in range(1, DIE + 1):
        key = combat.result(b, column, die + modifier)
        seen[key] = seen.get(key, Fraction(0)) + Fraction(1, DIE)
    return [Outcome(a, d, p) for (a, d), p in seen.items()]


def attack_odds(
    b: Board,
    state: State,
    side: str,
    attackers: tuple[str, ...],
    targets: tuple[str, ...],
    air: int = 0,
) -> AttackOdds:
    """The odds of ``attackers`` (with ``air`` air units, 15.1) against the enemy in
    ``targets`` as the units stand now (TAC 9.0 procedure: totals, terrain doubling 9.4
    and 9.5, rounding for the defender; 17.4: the Allies add 2 on Turns 1-2). Nothing is
    declared and nothing changes."""
    units = []
    for uid in attackers:
        u = state.units.get(uid)
        if u is None or u.side != side or u.where != "map":
            raise IllegalOrder("TAC 9.0", f"You have no unit {uid!r} on the map.")
        units.append(u)
    if not units or not targets:
        raise IllegalOrder("TAC 9.0", "Name the attacking units and the hexes they attack.")
    for h in targets:
        if not any(x.side != side for x in state.at(h)):
            raise IllegalOrder("TAC 9.0", f"{h} holds no enemy unit to attack.")
    for u in units:
        if not any(t in neighbours(u.hex) and b.crossable(u.hex, t) for t in targets):
            raise IllegalOrder("TAC 9.0", f"{u.id} at {u.hex} is not next to {', '.join(targets)}.")
    if not 0 <= air <= 9:
        raise IllegalOrder("TAC 15.1", "Close Support is a number of air units from 0.")
    attack = sum(combat.attack_factor(b, u) for u in units) + air
    defence = sum(
        combat.defence_total(b, [d for d in state.at(h) if d.side != side], [u.hex for u in units])
        for h in targets
    )
    column = combat.odds(attack, defence)
    modifier = 2 if side == ALLIED and state.turn <= 2 else 0
    return AttackOdds(attack, defence, column, modifier, tuple(column_odds(b, column, modifier)))
