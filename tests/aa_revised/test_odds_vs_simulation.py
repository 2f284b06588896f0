"""The exact odds agree with many battles played by the battle code itself.

Each case fights the same battle thousands of times with :func:`battle.fight` and seeded
dice, and checks every outcome and every likely survivor list against the exact figure
within four standard errors of the simulation. The four cases the odds must get right
(antiaircraft fire, bombardment, submarines with destroyers, battleships) fight 10,000
battles, the others 4,000, to keep the suite quick on a small machine; set
``UMPIRE_SIM_BATTLES=20000`` to fight that many in every case.
"""

from __future__ import annotations

import math
import os
import random
from collections import Counter

import pytest

from engine.games.aa_revised import battle
from engine.games.aa_revised.battle import CasualtyOrder, Rules, Unit
from engine.games.aa_revised.odds import battle_odds


class SeededDice:
    """Fast reproducible dice for simulations (the game itself uses verifiable dice)."""

    def __init__(self, seed: int) -> None:
        self._random = random.Random(seed)

    def roll(self, sides: int, purpose: str = "") -> int:
        return int(self._random.random() * sides) + 1


def units(prefix: str, counts: dict) -> list[Unit]:
    """Battle units for ``counts``, keyed by unit type or by (unit type, owner)."""
    out = []
    for key, n in counts.items():
        t, owner = (key, "") if isinstance(key, str) else key
        out += [Unit(f"{prefix}{t}{owner}{i}", t, owner) for i in range(n)]
    return out


CASES = {
    "land, artillery, aircraft against a gun": (
        {"infantry": 3, "artillery": 1, "tank": 1, "fighter": 1, "bomber": 1},
        {"infantry": 3, "tank": 1, "fighter": 1, "aa_gun": 1},
        {},
        10_000,
    ),
    "amphibious assault with bombardment": (
        {"infantry": 2, "artillery": 1, "tank": 1},
        {"infantry": 3, "artillery": 1},
        {
            "bombarding": {"battleship": 1, "destroyer": 1},
            "attacker_techs": {"combined_bombardment"},
        },
        10_000,
    ),
    "submarines and destroyers on both sides": (
        {"submarine": 2, "destroyer": 1, "fighter": 1},
        {"submarine": 2, "destroyer": 1, "transport": 1},
        {"sea": True},
        10_000,
    ),
    "battleships against a carrier group and submarines": (
        {"submarine": 3, "battleship": 1},
        {"battleship": 1, "carrier": 1, "fighter": 2},
        {"sea": True, "attacker_techs": {"super_submarines"}},
        10_000,
    ),
    "retreat at two units": (
        {"infantry": 5, "tank": 2},
        {"infantry": 4, "artillery": 1},
        {"retreat_when": 2},
        4_000,
    ),
    "two rounds of heavy bombers against jets": (
        {"infantry": 2, "bomber": 2},
        {"infantry": 3, "fighter": 1},
        {"attacker_techs": {"heavy_bombers"}, "defender_techs": {"jet_fighters"}, "rounds": 2},
        4_000,
    ),
    "variant: aircraft need a destroyer against submarines": (
        {"fighter": 2, "destroyer": 1},
        {"submarine": 3},
        {"sea": True, "rules": Rules(air_needs_destroyer=True)},
        4_000,
    ),
    "a multinational defence where one power has jet fighters": (
        {"infantry": 2, "tank": 2, "fighter": 1},
        {("fighter", "uk"): 1, ("fighter", "usa"): 1, ("infantry", "usa"): 2},
        {"owner_techs": {"uk": {"jet_fighters"}}},
        4_000,
    ),
    "attacker keeps its last land unit": (
        {"infantry": 2, "fighter": 2},
        {"infantry": 3},
        {"attacker_order": CasualtyOrder(keep_land_unit=True)},
        4_000,
    ),
}

OUTCOMES = {
    battle.ATTACKER_WON: "attacker_win",
    battle.DEFENDER_WON: "defender_win",
    battle.MUTUAL_DESTRUCTION: "draw",
    battle.ATTACKER_RETREATED: "attacker_retreat",
    battle.STALEMATE: "attacker_retreat",
}


def simulate(attackers, defenders, options, n, seed=2024):
    opts = dict(options)
    bombarding = opts.pop("bombarding", {})
    retreat_when = opts.pop("retreat_when", None)
    rounds = opts.pop("rounds", None)
    order = opts.pop("attacker_order", battle.CHEAPEST_FIRST)
    start = battle.new_battle(
        units("a", attackers),
        units("d", defenders),
        bombarding=units("b", bombarding),
        amphibious=bool(bombarding),
        **opts,
    )
    dice = SeededDice(seed)
    outcomes: Counter = Counter()
    att_left: Counter = Counter()
    def_left: Counter = Counter()
    for _ in range(n):
        b = battle.fight(start, dice, order, retreat_when=retreat_when, max_rounds=rounds)
        outcomes[OUTCOMES[b.outcome]] += 1
        left = Counter(u.type for u in (*b.attackers, *b.retreated, *b.attackers_submerged))
        att_left[frozenset(left.items())] += 1
        kept = Counter(u.type for u in (*b.defenders, *b.defenders_submerged) if u.type != "aa_gun")
        def_left[frozenset(kept.items())] += 1
    return outcomes, att_left, def_left


def within_four_standard_errors(p: float, hits: int, n: int) -> bool:
    if p <= 0:
        return hits == 0
    se = math.sqrt(p * (1 - p) / n)
    return abs(hits / n - p) <= 4 * se + 1e-12


@pytest.mark.parametrize("name", list(CASES))
def test_exact_odds_agree_with_a_simulation_of_the_battle_code(name):
    attackers, defenders, options, n = CASES[name]
    n = int(os.environ.get("UMPIRE_SIM_BATTLES", n))
    exact = battle_odds(attackers, defenders, **options)
    outcomes, att_left, def_left = simulate(attackers, defenders, options, n)
    attacker_won_or_left = exact.attacker_retreat
    checks = {
        "attacker_win": exact.attacker_win,
        "defender_win": exact.defender_win - attacker_won_or_left,
        "draw": exact.draw,
        "attacker_retreat": attacker_won_or_left,
    }
    for key, p in checks.items():
        assert within_four_standard_errors(p, outcomes[key], n), (key, p, outcomes[key] / n)
    for dist, seen in ((exact.attacker_survivors, att_left), (exact.defender_survivors, def_left)):
        for survivors, p in dist.items():
            if p >= 0.05:
                count = seen[frozenset(survivors)]
                assert within_four_standard_errors(p, count, n), (survivors, p, count / n)
