"""Battle odds for the games other than Axis & Allies Revised, shared by ``umpire odds``
(:mod:`bot.commands_odds`) and ``/odds`` (:mod:`bot.discord.cogs.odds`) so that the two
read a force and report the odds the same way (issues 12 and 13).

- Axis & Allies: North Africa, land battles (:func:`na_odds`): forces as chart rows,
  ``3 ger.infantry, 1 ger tank, 1 ger.scout_car flank``; Tobruk's or Mareth's defensive
  bonus and Vichy defenders as options; the odds of :func:`engine.games.aa_na.odds.land_odds`.
- The African Campaign (:func:`tac_odds`): attack and defence totals, close support,
  ridge and fort doubling and a die modifier; the chance of each result of the CRT column
  (:func:`engine.games.tac.odds.column_odds`).

Bad input raises :class:`bot.cli.UserError` with one sentence; nothing else is raised.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from bot.cli import UserError

# ------------------------------------------------------------------ North Africa

#: the largest side North Africa's odds are worked out for (the board's stacking limits
#: keep battles smaller; 20 against 20 takes about a tenth of a second)
NA_MOST = 30

#: what the odds assume and the rules leave to the players (engine/games/aa_na/odds.py)
NA_ASSUMES = (
    "assumes: both sides have the supply to fight every round (L763, L835), no retreat, "
    "the battle fought to the end; casualties taken in the order shown (L785)"
)


def na_force(text: str, what: str, flanking: bool) -> tuple[dict[str, int], dict[str, int]]:
    """A North Africa force typed as ``3 ger.infantry, 1 ger tank`` (count, chart row),
    an attacker's item ending in ``flank`` when it flanks (North Africa L740): (main, flank),
    or :class:`UserError` naming the item that is not a unit."""
    from engine.games.aa_na.odds import chart

    rows = chart()
    main: dict[str, int] = {}
    flank: dict[str, int] = {}
    for item in (i.strip() for i in text.replace(";", ",").split(",")):
        if not item:
            continue
        words = item.lower().split()
        side = main
        if flanking and words and words[-1] in ("flank", "flanking"):
            words, side = words[:-1], flank
        count = int(words[0]) if words and words[0].isdigit() else 1
        words = words[1:] if words and words[0].isdigit() else words
        row = ".".join(words[:1] + ["_".join(words[1:])]) if len(words) > 1 else "".join(words)
        if row not in rows or count < 1:
            raise UserError(
                f"{what}: {item!r} is not a count and a unit of the charts, as in "
                f"'3 ger.infantry' or '2 uk tank'"
                f"{' (add flank for a flanking unit)' if flanking else ''}."
            )
        side[row] = side.get(row, 0) + count
    return main, flank


def na_order(text: str, what: str) -> list[str]:
    """A North Africa casualty order typed as units are (``ger.tank, uk infantry``) or as
    kinds of unit (``tank, anti tank gun``), first lost first (the owner's choice, L785):
    the chart rows and kinds named, or :class:`UserError` naming the item that is neither."""
    from engine.games.aa_na.odds import chart

    rows = chart()
    kinds = {u.type for u in rows.values()}
    out: list[str] = []
    for item in (i.strip() for i in text.replace(";", ",").split(",")):
        if not item:
            continue
        words = item.lower().replace("-", " ").split()
        row = ".".join(words[:1] + ["_".join(words[1:])]) if len(words) > 1 else "".join(words)
        kind = "_".join(words)
        if "." not in row and row in kinds:
            name = row
        elif row in rows:
            name = row
        elif kind in kinds:
            name = kind
        else:
            raise UserError(
                f"{what}: {item!r} is neither a unit of the charts nor a kind of unit, as in "
                f"'ger.tank', 'uk infantry' or 'anti tank gun'."
            )
        if name not in out:
            out.append(name)
    return out


@dataclass(frozen=True)
class NaReport:
    """North Africa's odds as asked: the forces, the casualty orders assumed and the odds."""

    main: dict[str, int]
    flank: dict[str, int]
    defenders: dict[str, int]
    bonus: bool
    vichy: bool
    attacker_order: list[str]
    defender_order: list[str]
    odds: Any  # engine.games.aa_na.odds.Odds
    #: whether each side's casualty order was given (otherwise the default one)
    given: tuple[bool, bool] = (False, False)

    def text(self) -> str:
        r = self.odds

        def force(counts: dict[str, float]) -> str:
            return ", ".join(f"{n:g} {row}" for row, n in counts.items() if n >= 0.005) or "none"

        terms = [
            t
            for t, on in (
                (
                    "defensive bonus: 9 and 10 rerolled once (Tobruk, Mareth, L495, L807)",
                    self.bonus,
                ),
                ("Vichy defenders surrender after a round without a hit (L1071-1073)", self.vichy),
            )
            if on
        ]
        return "\n".join(
            [
                f"attacker: {force(self.main)}"
                + (f"; flanking: {force(self.flank)}" if self.flank else ""),
                f"defender: {force(self.defenders)}",
                *terms,
                f"attacker wins    {100 * r.attacker:6.2f}%",
                f"defender holds   {100 * r.defender:6.2f}%",
                f"both destroyed   {100 * r.mutual:6.2f}%",
                f"territory taken  {100 * r.taken:6.2f}%",
                f"attackers left   {force({k: round(v, 2) for k, v in r.attacker_left.items()})}",
                f"defenders left   {force({k: round(v, 2) for k, v in r.defender_left.items()})}",
                f"attacker loses   {', '.join(self.attacker_order)} (first to last"
                f"{', as given' if self.given[0] else ''})",
                f"defender loses   {', '.join(self.defender_order)} (first to last"
                f"{', as given' if self.given[1] else ''})",
                NA_ASSUMES + ".",
            ]
        )

    def to_json(self) -> dict[str, Any]:
        r = self.odds
        return {
            "game": "aa-na",
            "attacker": self.main,
            "flanking": self.flank,
            "defender": self.defenders,
            "defensive_bonus": self.bonus,
            "vichy": self.vichy,
            "attacker_wins": r.attacker,
            "defender_holds": r.defender,
            "both_destroyed": r.mutual,
            "territory_taken": r.taken,
            "attacker_left": r.attacker_left,
            "defender_left": r.defender_left,
            "attacker_casualty_order": self.attacker_order,
            "defender_casualty_order": self.defender_order,
            "casualty_orders_given": {"attacker": self.given[0], "defender": self.given[1]},
            "assumes": NA_ASSUMES,
        }


def na_odds(
    attacker: str,
    defender: str,
    *,
    bonus: bool = False,
    vichy: bool = False,
    order: str = "",
    attacker_order: str = "",
    defender_order: str = "",
) -> NaReport:
    """Axis & Allies: North Africa (Land Combat, L724-865): the exact odds of a land
    battle between the forces typed, the defender rerolling 9 and 10 once with ``bonus``
    (Tobruk, or Mareth against attacks from Tripoli: L495, L807) and surrendering after a
    round without a hit with ``vichy`` (L1071-1073); :class:`UserError` on bad input.
    Each side loses units in the order given (``attacker_order``, ``defender_order``, or
    ``order`` for both; the owner's choice, L785), units not named after those named in the
    engine's default order (lowest value first, then cheapest); the order followed is
    reported with the odds."""
    from engine.games.aa_na import odds as na

    main, flank = na_force(attacker, "attacker", True)
    defenders, _ = na_force(defender, "defender", False)
    both = na_order(order, "--order")
    a_given = na_order(attacker_order, "--attacker-order") or both
    d_given = na_order(defender_order, "--defender-order") or both
    if not main and not flank:
        raise UserError("attacker: name at least one attacking unit, as in '3 ger.infantry'.")
    if not defenders:
        raise UserError("defender: name at least one defending unit, as in '2 uk.infantry'.")
    if max(sum(main.values()) + sum(flank.values()), sum(defenders.values())) > NA_MOST:
        raise UserError(f"North Africa's odds take at most {NA_MOST} units a side.")
    try:
        r = na.land_odds(
            main,
            defenders,
            flank,
            bonus=(9, 10) if bonus else (),
            vichy=vichy,
            attacker_loses=a_given,
            defender_loses=d_given,
        )
    except ValueError as exc:
        raise UserError(str(exc)) from None
    a_order = [
        r_ + (" (flanking)" if f else "")
        for r_, f in na.attacker_order(
            [(x, False) for x in main] + [(x, True) for x in flank], a_given
        )
    ]
    d_order = na.defender_order(list(defenders), d_given)
    given = (bool(a_given), bool(d_given))
    return NaReport(main, flank, defenders, bonus, vichy, a_order, d_order, r, given)


# ------------------------------------------------------------------ The African Campaign

#: close support: at most this many air units join an attack (as engine/games/tac/odds.py)
TAC_AIR_MOST = 9
#: combat totals beyond any the order of battle can put together
TAC_TOTAL_MOST = 999
#: a die modifier beyond this reads the same table row as this one (RULINGS R13)
TAC_MODIFIER_MOST = 6


@dataclass(frozen=True)
class TacReport:
    attack: int
    air: int
    defence: int
    ridge: bool
    fort: bool
    odds: Any  # engine.games.tac.odds.AttackOdds
    #: the units and the hex, when the attack was given by its units
    detail: str = ""

    def text(self) -> str:
        o = self.odds
        doubled = [w for w, on in (("ridge, 9.4", self.ridge), ("fort, 9.5", self.fort)) if on]
        lines = [self.detail] if self.detail else []
        lines += [
            f"attack {self.attack}"
            + (f" + {self.air} air (15.1) = {o.attack}" if self.air else "")
            + f"; defence {self.defence}"
            + (f" doubled ({'; '.join(doubled)})" if doubled else "")
            + (f" = {o.defence}" if doubled else ""),
            f"column {o.column}" + (f", die {o.modifier:+d}" if o.modifier else ""),
        ]
        for x in o.outcomes:
            lines.append(
                f"  {float(x.chance):7.2%}  attacker {x.attacker or '-'}, defender {x.defender or '-'}"
            )
        return "\n".join(lines)

    def to_json(self) -> dict[str, Any]:
        o = self.odds
        return {
            "game": "tac",
            **({"units": self.detail} if self.detail else {}),
            "attack": o.attack,
            "defence": o.defence,
            "column": o.column,
            "modifier": o.modifier,
            "outcomes": [
                {
                    "attacker": x.attacker,
                    "defender": x.defender,
                    "chance": float(x.chance),
                    "fraction": str(x.chance),
                }
                for x in o.outcomes
            ],
        }


def tac_odds(
    attack: int,
    defence: int,
    *,
    air: int = 0,
    ridge: bool = False,
    fort: bool = False,
    modifier: int = 0,
) -> TacReport:
    """The African Campaign (TAC 9.0 L457-467, 9.3-9.7 L483-509): the CRT column of an
    ``attack`` total plus ``air`` close support (15.1, L665) against a ``defence`` total
    doubled on a ridge (9.4, L487) and again in a fort (9.5, L489; RULINGS R12), and the
    chance of each result with a die ``modifier`` (the Allies' +2 on Turns 1-2, 17.4 L703);
    :class:`UserError` on bad input."""
    from engine.games.tac import combat
    from engine.games.tac.board import Board
    from engine.games.tac.odds import AttackOdds, column_odds

    if not 1 <= attack <= TAC_TOTAL_MOST:
        raise UserError(
            f"attack: give the attackers' total from 1 to {TAC_TOTAL_MOST}, not {attack}."
        )
    if not 1 <= defence <= TAC_TOTAL_MOST:
        raise UserError(
            f"defence: give the defenders' total from 1 to {TAC_TOTAL_MOST}, not {defence}."
        )
    if not 0 <= air <= TAC_AIR_MOST:
        raise UserError(f"air: close support is from 0 to {TAC_AIR_MOST} air units, not {air}.")
    if not -TAC_MODIFIER_MOST <= modifier <= TAC_MODIFIER_MOST:
        raise UserError(
            f"modifier: give a die modifier from -{TAC_MODIFIER_MOST} to "
            f"+{TAC_MODIFIER_MOST} (the Allies add 2 on Turns 1-2), not {modifier}."
        )
    total_a = attack + air
    total_d = defence * (2 if ridge else 1) * (2 if fort else 1)
    b = Board()
    column = combat.odds(total_a, total_d)
    o = AttackOdds(total_a, total_d, column, modifier, tuple(column_odds(b, column, modifier)))
    return TacReport(attack, air, defence, ridge, fort, o)


def _number(text: str, what: str, example: str) -> int:
    m = re.fullmatch(r"[+-]?\d+", text.strip())
    if not m:
        raise UserError(
            f"{what}: {text.strip()!r} is not a whole number; write it as in {example!r}."
        )
    return int(m.group(0))


#: a step as printed on the counter (TAC 2.4): attack-movement, or attack-defence-movement
_STEP = re.compile(r"\d+-\d+(-\d+)?")
_HEX = re.compile(r"\d{4}")


def tac_units(attacker: str, defender: str, *, air: int = 0, modifier: int = 0) -> TacReport:
    """The African Campaign by units (issue 12, "Odds before you attack"; TAC 9.0
    L457-467, 9.1, 9.4, 9.5, 15.1): ``attacker`` as ``ge_21pz 7-7 1127, ge_90, 2 air,
    die +2`` (each unit at full strength unless a step is given, and the hex it attacks
    from if known: a plateau there cancels the ridge, 9.4); ``defender`` as the defending
    hex, then its units: ``1128: uk_2armd 3-6, uk_7sg``. The strengths come from the
    units' factors and the hex's terrain (:func:`engine.games.tac.odds.proposal`);
    :class:`UserError` with one sentence on bad input."""
    from engine.core.errors import IllegalOrder
    from engine.games.tac.board import Board
    from engine.games.tac.odds import proposal

    units: list[tuple[str, str | None, str | None]] = []
    for item in (i.strip().lower() for i in re.split(r"[,;]", attacker)):
        if not item:
            continue
        if item.endswith("air"):
            air += _number(item[:-3], "attacker", "ge_21pz, 2 air")
        elif item.startswith("die"):
            modifier += _number(item[3:], "attacker", "ge_21pz, die +2")
        else:
            uid, step, where = _tac_unit(item, "attacker", True)
            units.append((uid, step, where))
    m = re.fullmatch(r"\s*(\d{4})\s*[:,;]?\s*(.*)", defender, re.S)
    if m is None:
        raise UserError("defender: give the defending hex first, then its units, as in '1128: uk_2armd 3-6, uk_7sg'.")
    where = m.group(1)
    foes = []
    for item in (i.strip().lower() for i in re.split(r"[,;]", m.group(2))):
        if item:
            uid, step, _ = _tac_unit(item, "defender", False)
            foes.append((uid, step))
    try:
        p = proposal(Board(), units, where, foes)
    except IllegalOrder as e:
        raise UserError(str(e)) from None
    if p.attack < 1:
        raise UserError(f"attacker: those units have no attack factor ({p.detail}).")
    report = tac_odds(p.attack, p.defence, air=air, ridge=p.ridge, fort=p.fort, modifier=modifier)
    return TacReport(report.attack, report.air, report.defence, report.ridge, report.fort, report.odds, p.detail)


def _tac_unit(item: str, what: str, with_hex: bool) -> tuple[str, str | None, str | None]:
    """``ge_21pz 7-7 1127`` -> ``("ge_21pz", "7-7", "1127")``."""
    words = item.replace(" at ", " ").split()
    uid, step, where = words[0], None, None
    for w in words[1:]:
        if _STEP.fullmatch(w) and step is None:
            step = w
        elif with_hex and _HEX.fullmatch(w) and where is None:
            where = w
        else:
            example = "ge_21pz 7-7 1127" if with_hex else "uk_2armd 3-6"
            raise UserError(f"{what}: {w!r} in {item!r} is not understood; name a unit, then its step "
                            + ("and the hex it attacks from " if with_hex else "") + f"if needed, as in {example!r}.")
    return uid, step, where


def tac_typed(attacker: str, defender: str) -> TacReport:
    """``/odds`` for The African Campaign: ``attacker`` as ``12``, ``12, 2 air`` or
    ``12, 2 air, die +2``; ``defender`` as ``4``, ``4 ridge`` or ``4, ridge, fort``. An
    attack given by its units (:func:`tac_units`) names the defending hex before a colon,
    or begins with a unit id rather than a total: ``ge_21pz 7-7, ge_90, 2 air`` against
    ``1128: uk_2armd``. Anything else is read as totals, so ``twelve`` against ``4`` is
    told that ``twelve`` is not a number."""
    first = next((i.strip() for i in re.split(r"[,;]", attacker) if i.strip()), "")
    if ":" in defender or "_" in first:
        return tac_units(attacker, defender)
    attack = air = modifier = None
    for item in (i.strip().lower() for i in re.split(r"[,;]", attacker)):
        if not item:
            continue
        if item.endswith("air"):
            air = _number(item[:-3], "attacker", "12, 2 air")
        elif item.startswith("die"):
            modifier = _number(item[3:], "attacker", "12, die +2")
        elif attack is None:
            attack = _number(item, "attacker", "12, 2 air, die +2")
        else:
            raise UserError(
                f"attacker: {item!r} is not understood; write the total, then 'N air' "
                "and 'die +N' if any, as in '12, 2 air, die +2'."
            )
    if attack is None:
        raise UserError("attacker: give the attackers' combat total, as in '12'.")
    defence = None
    ridge = fort = False
    for item in re.split(r"[,;\s]+", defender.strip().lower()):
        if not item:
            continue
        if item == "ridge":
            ridge = True
        elif item == "fort":
            fort = True
        elif defence is None:
            defence = _number(item, "defender", "4, ridge")
        else:
            raise UserError(
                f"defender: {item!r} is not understood; write the total, then 'ridge' "
                "or 'fort' if it is doubled, as in '4, ridge'."
            )
    if defence is None:
        raise UserError("defender: give the defenders' combat total, as in '4'.")
    return tac_odds(attack, defence, air=air or 0, ridge=ridge, fort=fort, modifier=modifier or 0)
