"""The faster paths of the odds (issue 9's speed targets) give the plain distribution.

Three things changed for speed: the attacker's and defender's dice on land are worked
out for every state at once (:meth:`odds._Side.fire_table`), the land solver finds
the states down every casualty chain at once, and a round-limited sea battle keeps a
pair's cycle only while the pair still has mass (:meth:`odds._Battle._step_sea`). Each
result is held to the plain cycle-by-cycle reference of ``test_odds_reference`` to
1e-12, on land and at sea, with and without a round limit, and the sea stepping gives
the same result whatever it keeps or how it batches. A sea battle whose round limit
it almost surely never reaches is solved as if it had none
(:meth:`odds._Battle._solve_sea_if_out_of_reach`): held to the plain reference too, with long
limits and short, and the weighted run behind that proof to the chance of each length
of battle.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from engine.core.errors import IllegalOrder
from engine.games.aa_revised import odds
from engine.games.aa_revised.battle import ATTACKER, CHEAPEST_FIRST, DEFENDER, unit_stats
from tests.aa_revised.test_odds_reference import assert_same, both, reference_solve

LAND = ("infantry", "artillery", "tank", "fighter", "bomber")
SEA = ("battleship", "destroyer", "submarine", "carrier", "fighter", "bomber", "transport")

BATTLES = [
    # land: infantry paired with artillery, aircraft, a gun whose fire opens branches
    ({"infantry": 4, "artillery": 2, "tank": 2, "fighter": 2}, {"infantry": 5, "tank": 1}, {}),
    (
        {"infantry": 3, "artillery": 1, "fighter": 3, "bomber": 3},
        {"infantry": 6, "fighter": 1, "aa_gun": 1},
        {},
    ),
    (
        {"infantry": 3, "artillery": 1, "fighter": 3, "bomber": 3},
        {"infantry": 6, "fighter": 1, "aa_gun": 1},
        {"rounds": 3},
    ),
    # heavy bombers roll more than one die each
    (
        {"infantry": 2, "bomber": 3},
        {"infantry": 5, "artillery": 1},
        {"attacker_techs": {"heavy_bombers"}, "rounds": 2},
    ),
    # sea, destroyers on both sides, submarines on both: every kind of opening fire
    (
        {"battleship": 1, "destroyer": 1, "submarine": 3, "fighter": 2},
        {"battleship": 1, "destroyer": 1, "submarine": 2, "carrier": 1, "transport": 1},
        {"sea": True},
    ),
    (
        {"battleship": 1, "destroyer": 1, "submarine": 3, "fighter": 2},
        {"battleship": 1, "destroyer": 1, "submarine": 2, "carrier": 1, "transport": 1},
        {"sea": True, "rounds": 4},
    ),
    (
        {"submarine": 4, "bomber": 2, "battleship": 2},
        {"destroyer": 2, "submarine": 2, "transport": 2, "fighter": 1},
        {"sea": True, "rounds": 6},
    ),
]


@pytest.mark.parametrize(("attackers", "defenders", "options"), BATTLES)
def test_the_fast_odds_give_the_plain_distribution(monkeypatch, attackers, defenders, options):
    fast, plain = both(monkeypatch, attackers, defenders, options)
    assert_same(fast, plain, tolerance=1e-12)
    assert abs(fast.attacker_win + fast.defender_win + fast.draw - 1) < 1e-12


def random_battle(rng: random.Random) -> tuple[dict, dict, dict]:
    """A small land or sea battle, with a round limit one time in two."""
    sea = rng.random() < 0.5
    pool = SEA if sea else LAND
    attackers = {t: rng.randint(1, 3) for t in rng.sample(pool, rng.randint(2, 4))}
    defenders = {t: rng.randint(1, 3) for t in rng.sample(pool, rng.randint(2, 4))}
    if not sea and rng.random() < 0.5:
        defenders["aa_gun"] = 1
    options: dict = {"sea": sea}
    if rng.random() < 0.5:
        options["rounds"] = rng.randint(2, 6)
    return attackers, defenders, options


@pytest.mark.parametrize("seed", range(3))
def test_the_fast_odds_give_the_plain_distribution_on_random_battles(monkeypatch, seed):
    rng = random.Random(900 + seed)
    compared = 0
    while compared < 8:
        attackers, defenders, options = random_battle(rng)
        try:
            fast, plain = both(monkeypatch, attackers, defenders, options)
        except IllegalOrder:
            continue  # a force that cannot fight where it is (ships on land and the like)
        try:
            assert_same(fast, plain, tolerance=1e-12)
        except AssertionError as exc:
            raise AssertionError(f"{attackers} against {defenders}, {options}: {exc}") from None
        compared += 1


@pytest.mark.parametrize("keep_cells", [0, 1 << 20])
@pytest.mark.parametrize("batch", [1, 1 << 16])
def test_a_round_limited_sea_battle_does_not_depend_on_what_the_stepping_keeps(
    monkeypatch, keep_cells, batch
):
    """Cycles worked out again instead of kept, and batches of one pair or many, give
    the plain distribution all the same."""
    attackers = {"battleship": 2, "destroyer": 1, "submarine": 3, "fighter": 2, "bomber": 1}
    defenders = {"battleship": 1, "destroyer": 2, "submarine": 2, "carrier": 1, "fighter": 2}
    options = {"sea": True, "rounds": 5}
    _, plain = both(monkeypatch, attackers, defenders, options)
    monkeypatch.setattr(odds, "_KEEP_CELLS", keep_cells)
    monkeypatch.setattr(odds, "_BATCH", batch)
    fast = odds.battle_odds(attackers, defenders, **options)
    assert_same(fast, plain, tolerance=1e-12)
    assert fast.attacker_retreat > 1e-4  # the limit stops battles still going


@pytest.mark.parametrize("role", [ATTACKER, DEFENDER])
@pytest.mark.parametrize("techs", [frozenset(), frozenset({"heavy_bombers", "jet_fighters"})])
def test_the_dice_of_every_state_at_once_are_each_states_own(role, techs):
    """Infantry paired with artillery one to one, aircraft, heavy bombers' extra dice:
    every row of the table is the state's own distribution of hits."""
    stats = dict(unit_stats(techs))
    counts = {"infantry": 7, "artillery": 3, "tank": 2, "fighter": 3, "bomber": 2}
    side = odds._Side(role, counts, stats, CHEAPEST_FIRST, sea=False, restricted_air=False)
    side.explore([odds.FIRE], aa=True)
    order = list(range(len(side.states)))
    table = side.fire_table(order)
    widest = 0
    for i in order:
        own = side.fire(i)[0]  # one state at a time
        widest = max(widest, len(own))
        assert table[i, : len(own)].tolist() == pytest.approx(own, rel=1e-12, abs=1e-15)
        assert not table[i, len(own) :].any()
    assert table.shape[1] == widest


@pytest.mark.parametrize("n", [0, 1, 2, 7, 30, 61, 120])
@pytest.mark.parametrize("value", [0, 1, 2, 3, 4, 5, 6])
def test_the_hits_of_n_dice_are_the_binomial_distribution(n, value):
    """The chance of k hits from n dice hitting on ``value`` or less, against the
    recurrence of adding one die at a time."""
    p = value / 6
    plain = [1.0]
    for _ in range(n):
        plain = [
            (plain[k] if k < len(plain) else 0.0) * (1 - p) + (plain[k - 1] * p if k > 0 else 0.0)
            for k in range(len(plain) + 1)
        ]
    got = odds._binomial(n, value)
    assert len(got) == n + 1
    assert list(got) == pytest.approx(plain, rel=1e-12, abs=1e-300)
    assert abs(sum(got) - 1) < 1e-12


# small sea battles and round limits: (attackers, defenders, rounds, limit left out)
SEA_LIMITS = [
    ({"battleship": 1}, {"battleship": 1}, 39, True),
    ({"battleship": 1}, {"battleship": 1}, 20, False),  # 1/9 of cycles change nothing
    ({"battleship": 1}, {"battleship": 1}, 3, False),  # below the long limits
    (
        {"battleship": 1, "destroyer": 1, "submarine": 2, "fighter": 1},
        {"battleship": 1, "destroyer": 1, "submarine": 1, "carrier": 1, "transport": 1},
        30,
        True,
    ),
    (
        {"battleship": 1, "destroyer": 1, "submarine": 2, "fighter": 1},
        {"battleship": 1, "destroyer": 1, "submarine": 1, "carrier": 1, "transport": 1},
        20,
        False,  # long, but too short for a proof
    ),
    (
        {"battleship": 1, "destroyer": 1, "submarine": 2, "fighter": 1},
        {"battleship": 1, "destroyer": 1, "submarine": 1, "carrier": 1, "transport": 1},
        5,
        False,
    ),
    (
        {"submarine": 3, "bomber": 1, "battleship": 1},
        {"destroyer": 1, "submarine": 2, "transport": 1, "fighter": 1},
        50,
        True,
    ),
    # a submarine cannot hit a fighter: half the cycles change nothing, the limit counts
    ({"fighter": 1}, {"submarine": 1}, 20, False),
    ({"fighter": 2}, {"submarine": 1, "transport": 1}, 50, False),
]


def limit_checks(monkeypatch) -> list[bool]:
    """Whether :meth:`odds._Battle._solve_sea_if_out_of_reach` left the limit out, call
    by call."""
    seen: list[bool] = []
    solve = odds._Battle._solve_sea_if_out_of_reach

    def spy(self, live, rounds):
        got = solve(self, live, rounds)
        seen.append(got is not None)
        return got

    monkeypatch.setattr(odds._Battle, "_solve_sea_if_out_of_reach", spy)
    return seen


@pytest.mark.parametrize(("attackers", "defenders", "rounds", "left_out"), SEA_LIMITS)
def test_a_sea_battle_with_a_round_limit_gives_the_plain_distribution_long_or_short(
    monkeypatch, attackers, defenders, rounds, left_out
):
    seen = limit_checks(monkeypatch)
    fast, plain = both(monkeypatch, attackers, defenders, {"sea": True, "rounds": rounds})
    assert seen[0] is left_out  # the first call is the fast one's
    assert_same(fast, plain, tolerance=1e-12)
    assert abs(fast.attacker_win + fast.defender_win + fast.draw - 1) < 1e-12
    if attackers == {"fighter": 1}:
        assert fast.attacker_retreat == pytest.approx(0.5**rounds, rel=1e-12)  # misses all


def test_the_long_limit_of_the_bench_battle_is_out_of_reach(monkeypatch):
    """The bench's worst sea battle with 39 rounds at most: solved with no limit, and the
    same as when it is stepped round by round (within what each lets go)."""
    attackers = {"battleship": 5, "destroyer": 2, "submarine": 15, "carrier": 1}
    attackers |= {"fighter": 14, "bomber": 7, "transport": 4}
    defenders = {"battleship": 12, "destroyer": 1, "submarine": 12, "carrier": 3}
    defenders |= {"fighter": 8, "bomber": 11, "transport": 1}
    seen = limit_checks(monkeypatch)
    fast = odds.battle_odds(attackers, defenders, sea=True, rounds=39)
    assert seen == [True]
    monkeypatch.setattr(odds._Battle, "_solve_sea_if_out_of_reach", lambda *args: None)
    stepped = odds.battle_odds(attackers, defenders, sea=True, rounds=39)
    assert_same(fast, stepped, tolerance=1e-12)


def battle_of(attackers: dict, defenders: dict, **options) -> odds._Battle:
    """The :class:`odds._Battle` that :func:`odds.battle_odds` sets up for a battle."""
    made: list[odds._Battle] = []
    solve = odds._Battle.solve

    def keep(self, rounds):
        made.append(self)
        return solve(self, rounds)

    original, odds._Battle.solve = odds._Battle.solve, keep
    try:
        odds.battle_odds(attackers, defenders, **options)
    finally:
        odds._Battle.solve = original
    return made[0]


@pytest.mark.parametrize("z", [1.5, 2.5])
def test_the_weighted_run_sums_each_length_of_battle_times_z_to_that_length(monkeypatch, z):
    """E[z^T] from :meth:`odds._Battle._expected_growth` (nothing let go) against the sum
    of z^n times the chance that the battle lasts exactly n cycles, each chance from the
    plain reference stepped with a limit of n (the attacker withdraws then from what is
    still fighting)."""
    attackers = {"battleship": 1, "destroyer": 1, "submarine": 2, "fighter": 1}
    defenders = {"battleship": 1, "destroyer": 1, "submarine": 1, "carrier": 1}
    weight = battle_of(attackers, defenders, sea=True)._expected_growth(z, set())
    total, longer = 0.0, 1.0  # the chance of lasting more than n - 1 cycles
    n = 0
    while longer > 1e-17:
        n += 1
        with monkeypatch.context() as m:
            m.setattr(odds._Battle, "solve", reference_solve)
            longer_now = odds.battle_odds(attackers, defenders, sea=True, rounds=n)
        total += z**n * (longer - longer_now.attacker_retreat)
        longer = longer_now.attacker_retreat
    assert n > 5  # battles of many lengths
    assert weight == pytest.approx(total, rel=1e-9)


def test_a_weighted_run_that_cannot_converge_says_so():
    """A fighter against a submarine that cannot hit it: half the cycles change nothing,
    so with z = 2 the weights of the longer battles never shrink."""
    battle = battle_of({"fighter": 1}, {"submarine": 1}, sea=True)
    assert battle._expected_growth(2.0, set()) is None
    assert battle._expected_growth(1.5, set()) == pytest.approx(1.5 * 0.5 / (1 - 1.5 * 0.5))


def test_the_likeliest_miss_is_that_of_the_weakest_state_that_fights():
    """A battleship hits on 4 (a third of its rolls miss); two submarines attacking on 2
    miss together 4/9 of the time, one alone 2/3; a lone defending battleship misses a
    third of the time, damaged or not."""
    battle = battle_of({"submarine": 2}, {"battleship": 1}, sea=True)
    assert battle._likeliest_miss(ATTACKER) == pytest.approx(2 / 3)
    assert battle._likeliest_miss(DEFENDER) == pytest.approx(1 / 3)


# small sea battles with every round limit from 1 to 30: below the long limits, at
# them, and past them, stepped or left out
EVERY_LIMIT = [
    ({"battleship": 1, "bomber": 1}, {"battleship": 1, "submarine": 1}),  # slow pairs
    (
        {"battleship": 1, "destroyer": 1, "submarine": 2, "fighter": 1},
        {"battleship": 1, "destroyer": 1, "submarine": 1, "carrier": 1, "transport": 1},
    ),
]


@pytest.mark.parametrize("rounds", range(1, 31))
@pytest.mark.parametrize(("attackers", "defenders"), EVERY_LIMIT)
def test_every_round_limit_of_a_small_sea_battle_gives_the_plain_distribution(
    monkeypatch, attackers, defenders, rounds
):
    fast, plain = both(monkeypatch, attackers, defenders, {"sea": True, "rounds": rounds})
    assert_same(fast, plain, tolerance=1e-12)
    assert abs(fast.attacker_win + fast.defender_win + fast.draw - 1) < 1e-12
    if rounds < 20:
        assert fast.attacker_retreat > 0  # the limit stops battles still going


def test_the_stepping_lets_go_of_the_smallest_pairs_first():
    """Pairs under the negligible chance are let go from the smallest up, within the
    budget: a larger one first in the grid does not use the budget up before them."""
    grid = np.array([[0.9e-16, 1e-30, 0.0], [2e-30, 0.5, 3e-30]])
    going = grid.copy()
    going[1, 1] = 0.0  # a pair that is over keeps its mass
    left = odds._let_go(grid, going, 4e-30, pairs=True)  # room for the two smallest
    assert grid.tolist() == [[0.9e-16, 0.0, 0.0], [0.0, 0.5, 3e-30]]
    assert going.tolist() == [[0.9e-16, 0.0, 0.0], [0.0, 0.0, 3e-30]]
    assert left == pytest.approx(1e-30, rel=1e-9)
