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


@dataclass(frozen=True)
class Proposal:
    """The strengths of a proposed attack worked out from its units and the defender's
    hex (TAC 9.0 procedure L463-467, 9.1 L471-475, 9.4 L487, 9.5 L489): ``attack`` and
    ``defence`` are the plain sums of the factors, ``ridge`` and ``fort`` say whether the
    defence is doubled; ``detail`` names each unit and its factor."""

    attack: int
    defence: int
    ridge: bool
    fort: bool
    detail: str


def _step(b: Board, uid: str, factors: str | None) -> int:
    if uid not in b.units:
        raise IllegalOrder("TAC 9.1", f"There is no unit {uid!r} in the order of battle (ids as ge_21pz, uk_7armd).")
    steps = b.units[uid].steps
    if factors is None:
        return 0
    if factors not in steps:
        raise IllegalOrder("TAC 9.1", f"{uid} has no step {factors!r}; its steps are {', '.join(steps)}.")
    return steps.index(factors)


def proposal(
    b: Board,
    attackers: list[tuple[str, str | None, str | None]],
    where: str,
    defenders: list[tuple[str, str | None]],
) -> Proposal:
    """The strengths of ``attackers`` (unit id, step as printed or None for full strength,
    the hex it attacks from or None) against ``defenders`` (unit id, step) in the hex
    ``where``, with no game in play (issue 12, "Odds before you attack"): each unit's attack
    or defence factor at its step (9.1: Flak attacks with its left number and defends with
    its middle one); the defence doubled on a ridge unless an attacker stands on a plateau
    (9.4) and again in a fort (9.5; RULINGS R12). Attackers given a hex must be next to
    ``where``, not across a prohibited hexside (8.2.7; RULINGS R15). Bad input raises
    :class:`IllegalOrder` naming the rule; nothing else is checked (stacking, supply)."""
    if not attackers or not defenders:
        raise IllegalOrder("TAC 9.0", "Name at least one attacking and one defending unit.")
    if not b.playable(where):
        raise IllegalOrder("TAC 9.0", f"{where!r} is not a hex of the playing area (four digits, as 1128).")
    ids = [a[0] for a in attackers] + [d[0] for d in defenders]
    twice = sorted({u for u in ids if ids.count(u) > 1})
    if twice:
        raise IllegalOrder("TAC 9.0", f"{', '.join(twice)} is named more than once.")
    a_steps = [_step(b, uid, f) for uid, f, _ in attackers]
    d_steps = [_step(b, uid, f) for uid, f in defenders]
    side = b.units[attackers[0][0]].side
    wrong = [uid for uid, _, _ in attackers if b.units[uid].side != side]
    wrong += [uid for uid, _ in defenders if b.units[uid].side == side]
    if wrong:
        raise IllegalOrder("TAC 9.0", f"The attackers must all be of one side and the defenders of the other: "
                                      f"{', '.join(wrong)} is not.")  # fmt: skip
    for uid, _, h in attackers:
        if h is None:
            continue
        if not b.playable(h) or where not in neighbours(h):
            raise IllegalOrder("TAC 9.0", f"{uid} at {h} is not next to {where}.")
        if not b.crossable(h, where):
            raise IllegalOrder("TAC 8.2.7", f"{uid} at {h} attacks across a prohibited hexside into {where}.")
    attack = sum(b.values(uid, st)[0] for (uid, _, _), st in zip(attackers, a_steps, strict=True))
    defence = sum(b.values(uid, st)[1] for (uid, _), st in zip(defenders, d_steps, strict=True))
    on_plateau = any(h is not None and b.terrain(h) == "plateau" for _, _, h in attackers)
    ridge = b.terrain(where) == "ridge" and not on_plateau
    fort = b.has(where, "fort")
    a_text = ", ".join(f"{b.units[uid].name} {b.units[uid].steps[st]}" + (f" at {h}" if h else "")
                       for (uid, _, h), st in zip(attackers, a_steps, strict=True))  # fmt: skip
    d_text = ", ".join(f"{b.units[uid].name} {b.units[uid].steps[st]}"
                       for (uid, _), st in zip(defenders, d_steps, strict=True))  # fmt: skip
    terrain = b.terrain(where) + (", fort" if fort else "")
    detail = f"{a_text} against {d_text} in {b.name(where)} ({terrain})"
    return Proposal(attack, defence, ridge, fort, detail)
