"""``umpire odds``: exact battle odds from the command line.

    umpire odds --attacker "3 infantry, 1 artillery, 1 tank" --defender "2 inf, 1 ftr"
    umpire odds --attacker "2 sub, 1 dd" --defender "1 bb, 1 cv, 2 ftr" --sea --json
    umpire odds aa-na --attacker "3 ger.infantry, 1 ger tank, 1 ger.scout_car flank" \
        --defender "3 uk.infantry" --bonus
    umpire odds tac --attack 12 --defense 4 --air 2 --ridge
    umpire odds tac --attacker "ge_21pz 7-7 1127, ge_90" --defender "1128: uk_2armd" --air 2

Without a game (or with ``aa-revised``) the battle is Axis & Allies Revised's, as below.
North Africa's land battles and The African Campaign's table are read and reported by
:mod:`bot.odds_games`, which ``/odds`` uses too.

Forces are lists of "<count> <unit>", separated by commas (or not); unit names may be
singular, plural or the usual abbreviations (inf, art, arm/tank, aa, ftr, bmb, bb, dd,
cv/ac, trn, sub). The odds are exact (:mod:`engine.games.aa_revised.odds`).
"""

from __future__ import annotations

import argparse
import json
import re
from collections.abc import Mapping
from typing import TYPE_CHECKING

from bot.cli import UserError

if TYPE_CHECKING:
    from engine.games.aa_revised.odds import Odds

TECH_WORDS = {
    "jets": "jet_fighters",
    "jet": "jet_fighters",
    "supersubs": "super_submarines",
    "heavies": "heavy_bombers",
    "hb": "heavy_bombers",
    "cb": "combined_bombardment",
    "lra": "long_range_aircraft",
}


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "odds",
        help=HELP,
        description="Exact battle odds (no simulation): Axis & Allies Revised (the default), "
        "Axis & Allies: North Africa land battles (aa-na), The African Campaign's table (tac).",
    )
    p.add_argument("game", nargs="?", default=None, help="aa-revised (the default), aa-na or tac")
    p.add_argument(
        "--attacker",
        help='e.g. "3 infantry, 1 artillery, 1 tank"; aa-na: chart rows, '
        '"3 ger.infantry, 1 ger.scout_car flank"',
    )
    p.add_argument(
        "--defender", help='e.g. "2 infantry, 1 fighter, 1 aa gun"; aa-na: "3 uk.infantry"'
    )
    p.add_argument("--sea", action="store_true", help="a battle in a sea zone")
    p.add_argument(
        "--bombard",
        default="",
        help='ships bombarding an amphibious assault, e.g. "1 battleship"',
    )
    p.add_argument(
        "--amphibious",
        action="store_true",
        help="the land part of an amphibious assault (implied by --bombard)",
    )
    p.add_argument("--rounds", type=int, help="the attacker withdraws after this many rounds")
    p.add_argument(
        "--retreat",
        type=int,
        metavar="N",
        help="the attacker retreats once it has N units or fewer",
    )
    p.add_argument(
        "--order",
        default="",
        help="casualty order for both sides, first lost first, e.g. "
        '"inf, art, tank, ftr"; unlisted units follow, cheapest first',
    )
    p.add_argument("--attacker-order", default="", help="casualty order for the attacker")
    p.add_argument("--defender-order", default="", help="casualty order for the defender")
    p.add_argument(
        "--keep-land",
        action="store_true",
        help="the attacker keeps its last land unit, losing aircraft first",
    )
    p.add_argument("--attacker-tech", default="", help='e.g. "heavy bombers, super subs"')
    p.add_argument("--defender-tech", default="", help='e.g. "jet fighters"')
    na = p.add_argument_group("aa-na (North Africa land battles)")
    na.add_argument(
        "--bonus",
        action="store_true",
        help="the defender's bonus at Tobruk (or Mareth against Tripoli): 9 and 10 rerolled",
    )
    na.add_argument(
        "--vichy", action="store_true", help="Vichy French defenders (surrender when they miss)"
    )
    tac = p.add_argument_group("tac (The African Campaign)")
    tac.add_argument("--attack", type=int, help="the attackers' combat total")
    tac.add_argument("--defense", "--defence", type=int, help="the defenders' combat total")
    tac.add_argument("--air", type=int, default=0, help="air units in close support (15.1)")
    tac.add_argument("--ridge", action="store_true", help="defenders on a ridge: doubled (9.4)")
    tac.add_argument("--fort", action="store_true", help="defenders in a fort: doubled (9.5)")
    tac.add_argument(
        "--modifier", type=int, default=0, help="die modifier (the Allies' +2 on Turns 1-2, 17.4)"
    )
    p.add_argument("--json", action="store_true", help="print the result as JSON")
    p.set_defaults(func=run)


HELP = "exact battle odds: A&A Revised, A&A North Africa, TAC"

#: each option that belongs to some games only: its flag, its default, the games
OPTIONS: dict[str, tuple[str, object, tuple[str, ...]]] = {
    "attacker": ("--attacker", None, ("aa-revised", "aa-na", "tac")),
    "defender": ("--defender", None, ("aa-revised", "aa-na", "tac")),
    "sea": ("--sea", False, ("aa-revised",)),
    "bombard": ("--bombard", "", ("aa-revised",)),
    "amphibious": ("--amphibious", False, ("aa-revised",)),
    "rounds": ("--rounds", None, ("aa-revised",)),
    "retreat": ("--retreat", None, ("aa-revised",)),
    "order": ("--order", "", ("aa-revised", "aa-na")),
    "attacker_order": ("--attacker-order", "", ("aa-revised", "aa-na")),
    "defender_order": ("--defender-order", "", ("aa-revised", "aa-na")),
    "keep_land": ("--keep-land", False, ("aa-revised",)),
    "attacker_tech": ("--attacker-tech", "", ("aa-revised",)),
    "defender_tech": ("--defender-tech", "", ("aa-revised",)),
    "bonus": ("--bonus", False, ("aa-na",)),
    "vichy": ("--vichy", False, ("aa-na",)),
    "attack": ("--attack", None, ("tac",)),
    "defense": ("--defense", None, ("tac",)),
    "air": ("--air", 0, ("tac",)),
    "ridge": ("--ridge", False, ("tac",)),
    "fort": ("--fort", False, ("tac",)),
    "modifier": ("--modifier", 0, ("tac",)),
}
#: the games ``umpire odds`` serves
GAMES = ("aa-revised", "aa-na", "tac")


def _check_options(args: argparse.Namespace, game: str) -> None:
    """One sentence for an option the game does not take, or a required one missing."""
    for dest, (flag, default, games) in OPTIONS.items():
        if game not in games and getattr(args, dest, default) != default:
            raise UserError(f"{flag} is for {' and '.join(games)}, not {game}.")
    needed = ("--attack", "--defense") if game == "tac" else ("--attacker", "--defender")
    if game == "tac" and (args.attacker is not None or args.defender is not None):
        # TAC by units (issue 12): the strengths come from the units and the hex
        needed = ("--attacker", "--defender")
        if args.attack is not None or args.defense is not None:
            raise UserError("--attacker is for tac odds by units and --attack for odds by totals: "
                            "give --attacker and --defender, or --attack and --defense.")  # fmt: skip
        if args.ridge or args.fort:
            raise UserError("--ridge and --fort are for tac odds by totals; by units the terrain "
                            "comes from the defending hex.")  # fmt: skip
    for flag in needed:
        if getattr(args, flag[2:]) is None:
            raise UserError(f"{game} odds need {' and '.join(needed)}; {flag} is missing.")


# ------------------------------------------------------------------ parsing


def _key(word: str) -> str:
    return "".join(ch for ch in word.lower() if ch.isalnum())


def _unit_names() -> dict[str, str]:
    from engine.games.aa_revised.pack import load_units

    names: dict[str, str] = {}
    for u in load_units().units:
        for word in (u.id, u.name, u.plural, *u.aliases):
            names[_key(word)] = u.id
    return names


def unit_name(word: str, what: str) -> str:
    """The unit type id for ``word`` (any spelling), or a :class:`UserError`."""
    names = _unit_names()
    k = _key(word)
    for candidate in (k, k[:-1] if k.endswith("s") else k, k[:-2] if k.endswith("es") else k):
        if candidate in names:
            return names[candidate]
    from engine.games.aa_revised.pack import load_units

    known = ", ".join(f"{u.id} ({u.aliases[0]})" for u in load_units().units if u.aliases)
    raise UserError(f"{what}: there is no unit called {word.strip()!r}; the units are {known}.")


def parse_force(text: str, what: str) -> dict[str, int]:
    """``"3 inf, 1 art 2 tanks"`` -> ``{"infantry": 3, "artillery": 1, "tank": 2}``.

    A name without a count means one; ``"inf x3"`` is accepted too."""
    out: dict[str, int] = {}
    for chunk in re.split(r"[,;+]|\band\b", text):
        chunk = chunk.strip()
        if not chunk:
            continue
        trailing = re.fullmatch(r"([^\d]+?)\s*[x×*]\s*(\d+)", chunk)
        if trailing:
            pairs = [(trailing.group(2), trailing.group(1))]
        elif not re.search(r"\d", chunk):
            pairs = [("1", chunk)]
        elif re.fullmatch(r"(\d+\s*[x×*]?\s*[^\d]+)+", chunk):
            pairs = re.findall(r"(\d+)\s*[x×*]?\s*([^\d]+)", chunk)
        else:
            raise UserError(
                f"{what}: cannot read {chunk!r}; write each count before its unit, "
                "as in '3 infantry, 1 tank'."
            )
        for count, name in pairs:
            uid = unit_name(name, what)
            out[uid] = out.get(uid, 0) + int(count)
    if sum(out.values()) > MAX_UNITS:
        raise UserError(
            f"{what}: {sum(out.values())} units is more than the {MAX_UNITS} per side "
            "the exact odds are computed for."
        )
    return out


#: exact odds grow with the square of each side's size; beyond this they get slow
MAX_UNITS = 60
#: a round limit costs a pass over the battle per round (``/odds`` has the same bound)
MAX_ROUNDS = 50


def parse_order(text: str, what: str) -> tuple[str, ...]:
    return tuple(
        dict.fromkeys(unit_name(w, what) for w in re.split(r"[,;>\s]+", text) if w.strip())
    )


def parse_techs(text: str, what: str) -> frozenset[str]:
    from engine.games.aa_revised.pack import load_tables

    techs = {}
    for t in load_tables().techs:
        techs[_key(t.id)] = t.id
        techs[_key(t.name)] = t.id
    for word, tid in TECH_WORDS.items():
        techs[_key(word)] = tid
    out = set()
    for word in re.split(r"[,;]", text):
        if not word.strip():
            continue
        k = _key(word)
        if k not in techs and k.endswith("s") and k[:-1] in techs:
            k = k[:-1]
        if k not in techs:
            names = ", ".join(t.name for t in load_tables().techs)
            raise UserError(
                f"{what}: {word.strip()!r} is not a weapons development; they are {names}."
            )
        out.add(techs[k])
    return frozenset(out)


# ------------------------------------------------------------------ running


def run(args: argparse.Namespace) -> int:
    game = (args.game or "aa-revised").strip().lower()
    if game not in GAMES:
        raise UserError(
            f"There is no game {game!r} with odds; umpire odds works for {', '.join(GAMES)}."
        )
    _check_options(args, game)
    if game == "aa-revised":
        return run_revised(args)
    from bot import odds_games

    if game == "aa-na":
        report = odds_games.na_odds(
            args.attacker,
            args.defender,
            bonus=args.bonus,
            vichy=args.vichy,
            order=args.order,
            attacker_order=args.attacker_order,
            defender_order=args.defender_order,
        )
    elif args.attacker is not None:
        report = odds_games.tac_units(
            args.attacker, args.defender, air=args.air, modifier=args.modifier
        )
    else:
        report = odds_games.tac_odds(
            args.attack,
            args.defense,
            air=args.air,
            ridge=args.ridge,
            fort=args.fort,
            modifier=args.modifier,
        )
    print(json.dumps(report.to_json(), indent=2) if args.json else report.text())
    return 0


def run_revised(args: argparse.Namespace) -> int:
    """Axis & Allies Revised (Revised: Conduct Combat), as ``umpire odds`` always did."""
    from engine.core.errors import IllegalOrder
    from engine.games.aa_revised.battle import CasualtyOrder
    from engine.games.aa_revised.odds import battle_odds

    if args.rounds is not None and not 1 <= args.rounds <= MAX_ROUNDS:
        raise UserError(
            f"--rounds: give a number of rounds from 1 to {MAX_ROUNDS}, not {args.rounds}."
        )
    if args.retreat is not None and not 0 <= args.retreat <= MAX_UNITS:
        raise UserError(
            f"--retreat: give a number of units from 0 to {MAX_UNITS}, not {args.retreat}."
        )
    attackers = parse_force(args.attacker, "--attacker")
    defenders = parse_force(args.defender, "--defender")
    bombard = parse_force(args.bombard, "--bombard") if args.bombard.strip() else {}
    if not any(attackers.values()):
        raise UserError("--attacker: name at least one attacking unit, as in '1 infantry'.")
    if not args.sea:
        ships = [t for t in (*attackers, *defenders) if _is_ship(t)]
        if ships:
            raise UserError(
                f"Ships ({ships[0]}) fight only in sea zones; add --sea for a sea battle, "
                "or use --bombard for ships supporting a landing."
            )
    both = parse_order(args.order, "--order")
    a_order = CasualtyOrder(
        first=parse_order(args.attacker_order, "--attacker-order") or both,
        keep_land_unit=args.keep_land,
    )
    d_order = CasualtyOrder(first=parse_order(args.defender_order, "--defender-order") or both)
    try:
        result = battle_odds(
            attackers,
            defenders,
            sea=args.sea,
            bombarding=bombard,
            attacker_techs=parse_techs(args.attacker_tech, "--attacker-tech"),
            defender_techs=parse_techs(args.defender_tech, "--defender-tech"),
            attacker_order=a_order,
            defender_order=d_order,
            retreat_when=args.retreat,
            rounds=args.rounds,
            amphibious=args.amphibious or bool(bombard),
        )
    except IllegalOrder as exc:
        raise UserError(str(exc)) from None
    if args.json:
        print(json.dumps(result.to_json(), indent=2))
    else:
        print(summary(attackers, defenders, bombard, args.sea, result, args.amphibious))
    return 0


def _is_ship(unit_type: str) -> bool:
    from engine.games.aa_revised.battle import unit_stats

    return unit_stats()[unit_type].kind == "sea"


def _force(counts: Mapping[str, int]) -> str:
    from engine.games.aa_revised.odds import unit_phrase

    return ", ".join(unit_phrase(t, n) for t, n in counts.items() if n) or "nothing"


def summary(
    attackers: Mapping[str, int],
    defenders: Mapping[str, int],
    bombard: Mapping[str, int],
    sea: bool,
    result: Odds,
    amphibious: bool = False,
    top: int = 5,
) -> str:
    """A readable report of ``result``."""
    from engine.games.aa_revised.odds import described

    where = (
        "sea battle" if sea else "amphibious assault" if bombard or amphibious else "land battle"
    )
    lines = [
        f"{_force(attackers)} attack {_force(defenders)} ({where})"
        + (f", bombarded by {_force(bombard)}" if bombard else ""),
        f"  attacker wins   {result.attacker_win:7.2%}",
        f"  defender holds  {result.defender_win:7.2%}"
        + (
            f"  (attacker withdraws {result.attacker_retreat:.2%})"
            if result.attacker_retreat
            else ""
        ),
        f"  both destroyed  {result.draw:7.2%}",
        f"  average rounds  {result.expected_rounds:7.2f}",
    ]
    for side, dist in (
        ("attacker", result.attacker_survivors),
        ("defender", result.defender_survivors),
    ):
        expected = result.expected(side)
        avg = ", ".join(f"{v:.2f} {t.replace('_', ' ')}" for t, v in expected.items())
        lines.append(f"Survivors, {side} (average {avg or 'nothing'}):")
        for text, p in list(described(dist).items())[:top]:
            lines.append(f"  {p:7.2%}  {text}")
    return "\n".join(lines)
