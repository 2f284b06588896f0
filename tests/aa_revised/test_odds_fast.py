"""The faster paths of the odds (issue 9's speed targets) give the plain distribution.

Three things changed for speed: the attacker's and defender's dice on land are worked
out for every state at once (:meth:`odds._Side.fire_table`), the land solver finds
the states down every casualty chain at once, and a round-limited sea battle is
stepped a cycle at a time the way the unlimited solver cuts a cycle, hits landing one
at a time (:meth:`odds._Battle._step_sea_by_hits`), until the limit or until what
still fights can no longer matter. Each result is held to the plain cycle-by-cycle
reference of ``test_odds_reference`` to 1e-12, on land and at sea, with and without a
round limit (every limit from 1 to 30 of small sea battles, long limits that the
stepping stops short of); the variant whose sea cycles are stepped whole
(:meth:`odds._Battle._step_sea`) gives the same result whatever it keeps or how it
batches.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from engine.core.errors import IllegalOrder
from engine.games.aa_revised import odds
from engine.games.aa_revised.battle import (
    ATTACKER,
    CHEAPEST_FIRST,
    DEFENDER,
    CasualtyOrder,
    Rules,
    unit_stats,
)
from tests.aa_revised.test_odds_reference import assert_same, both

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
    defenders = {"battleship": 1, "destroyer": 2, "carrier": 1, "transport": 2}
    # aircraft that need a destroyer to hit submarines: the cycles are stepped whole
    options = {"sea": True, "rounds": 4, "rules": Rules(air_needs_destroyer=True)}
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


MIXED_ATTACK = {"battleship": 1, "destroyer": 1, "submarine": 2, "fighter": 1}
MIXED_DEFENCE = {"battleship": 1, "destroyer": 1, "submarine": 1, "carrier": 1, "transport": 1}

# small sea battles and round limits, short and long: (attackers, defenders, rounds)
SEA_LIMITS = [
    ({"battleship": 1}, {"battleship": 1}, 39),
    ({"battleship": 1}, {"battleship": 1}, 20),  # 1/9 of cycles change nothing
    ({"battleship": 1}, {"battleship": 1}, 3),
    (MIXED_ATTACK, MIXED_DEFENCE, 30),
    (MIXED_ATTACK, MIXED_DEFENCE, 20),
    (MIXED_ATTACK, MIXED_DEFENCE, 5),
    (
        {"submarine": 3, "bomber": 1, "battleship": 1},
        {"destroyer": 1, "submarine": 2, "transport": 1, "fighter": 1},
        50,
    ),
    # a submarine cannot hit a fighter: half the cycles change nothing, the limit counts
    ({"fighter": 1}, {"submarine": 1}, 20),
    ({"fighter": 2}, {"submarine": 1, "transport": 1}, 50),
]


def steppers(monkeypatch) -> list[str]:
    """Which stepping each round-limited sea battle took, call by call: ``"hits"``
    (:meth:`odds._Battle._step_sea_by_hits`) or ``"cycles"`` (:meth:`odds._Battle._step_sea`)."""
    seen: list[str] = []
    by_hits, by_cycles = odds._Battle._step_sea_by_hits, odds._Battle._step_sea

    def hits(self, grid, rounds):
        seen.append("hits")
        return by_hits(self, grid, rounds)

    def cycles(self, grid, rounds):
        seen.append("cycles")
        return by_cycles(self, grid, rounds)

    monkeypatch.setattr(odds._Battle, "_step_sea_by_hits", hits)
    monkeypatch.setattr(odds._Battle, "_step_sea", cycles)
    return seen


@pytest.mark.parametrize(("attackers", "defenders", "rounds"), SEA_LIMITS)
def test_a_sea_battle_with_a_round_limit_gives_the_plain_distribution_long_or_short(
    monkeypatch, attackers, defenders, rounds
):
    seen = steppers(monkeypatch)
    fast, plain = both(monkeypatch, attackers, defenders, {"sea": True, "rounds": rounds})
    assert seen == ["hits"]  # the reference steps on its own
    assert_same(fast, plain, tolerance=1e-12)
    assert abs(fast.attacker_win + fast.defender_win + fast.draw - 1) < 1e-12
    if attackers == {"fighter": 1}:
        assert fast.attacker_retreat == pytest.approx(0.5**rounds, rel=1e-12)  # misses all


def cycles_stepped(monkeypatch) -> list[int]:
    """One entry per cycle the sea stepping takes (each starts by letting go of pairs)."""
    stepped: list[int] = []
    real = odds._let_go

    def counted(*args, **kwargs):
        if kwargs.get("pairs"):
            stepped.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(odds, "_let_go", counted)
    return stepped


def test_a_long_limit_of_the_bench_battle_stops_once_nothing_is_left_to_change(monkeypatch):
    """The bench's 46 against 48 sea battle with 39 rounds at most: the stepping stops
    once what still fights can change no result by more than 1e-15, well before the
    limit, and gives the battle fought to the end (which outlasts 39 cycles with a
    chance far below 1e-12)."""
    attackers = {"battleship": 5, "destroyer": 2, "submarine": 15, "carrier": 1}
    attackers |= {"fighter": 14, "bomber": 7, "transport": 4}
    defenders = {"battleship": 12, "destroyer": 1, "submarine": 12, "carrier": 3}
    defenders |= {"fighter": 8, "bomber": 11, "transport": 1}
    stepped = cycles_stepped(monkeypatch)
    limited = odds.battle_odds(attackers, defenders, sea=True, rounds=39)
    assert 5 < len(stepped) < 38
    unlimited = odds.battle_odds(attackers, defenders, sea=True)
    assert_same(limited, unlimited, tolerance=1e-12)
    assert limited.attacker_retreat < 1e-15


def test_a_limit_far_beyond_a_slow_battle_is_stepped_only_while_it_can_matter(monkeypatch):
    """A fighter against a submarine that cannot hit it: half the cycles change nothing,
    so the battle is still going after n cycles with chance 2^-n. With 10,000 rounds at
    most the stepping stops once that chance times the cycles left is under 1e-15 (some
    60 cycles), and the result is the battle fought to the end."""
    stepped = cycles_stepped(monkeypatch)
    limited = odds.battle_odds({"fighter": 1}, {"submarine": 1}, sea=True, rounds=10_000)
    assert 40 < len(stepped) < 80
    unlimited = odds.battle_odds({"fighter": 1}, {"submarine": 1}, sea=True)
    assert_same(limited, unlimited, tolerance=1e-12)
    assert limited.attacker_win == pytest.approx(1.0, abs=1e-14)


def test_the_bench_battle_stepped_by_hits_is_the_battle_stepped_whole(monkeypatch):
    """The bench's 46 against 48 sea battle with 5 rounds at most, large enough for
    every path of the stepping (opening fire apart or whole, a tail of whole cycles,
    submarines and destroyers on both sides): the same result as when each cycle is
    taken whole, pair by pair (:meth:`odds._Battle._step_sea`, which the stepping by
    hits gives way to when the defender's dice are not one a unit)."""
    attackers = {"battleship": 5, "destroyer": 2, "submarine": 15, "carrier": 1}
    attackers |= {"fighter": 14, "bomber": 7, "transport": 4}
    defenders = {"battleship": 12, "destroyer": 1, "submarine": 12, "carrier": 3}
    defenders |= {"fighter": 8, "bomber": 11, "transport": 1}
    seen = steppers(monkeypatch)
    by_hits = odds.battle_odds(attackers, defenders, sea=True, rounds=5)
    monkeypatch.setattr(odds._Battle, "_dying_dice", lambda self: None)
    whole = odds.battle_odds(attackers, defenders, sea=True, rounds=5)
    assert seen == ["hits", "cycles"]
    assert_same(by_hits, whole, tolerance=1e-12)
    assert by_hits.attacker_retreat > 1e-3  # the limit stops battles still going


@pytest.mark.parametrize("rounds", [1, 2, 5, 25])
def test_where_aircraft_need_a_destroyer_the_cycles_are_stepped_whole(monkeypatch, rounds):
    """Not a Revised rule: with aircraft that need a destroyer to hit submarines the
    cycles are taken whole (:meth:`odds._Battle._step_sea`), and agree with the plain
    reference all the same. (No pair here is one where neither side can hit the other:
    the reference lets such a pair go at once, the stepping counts its cycles.)"""
    options = {"sea": True, "rounds": rounds, "rules": Rules(air_needs_destroyer=True)}
    attackers = {"submarine": 2, "fighter": 2, "bomber": 1}
    defenders = {"battleship": 1, "destroyer": 1, "carrier": 1, "transport": 1}
    seen = steppers(monkeypatch)
    fast, plain = both(monkeypatch, attackers, defenders, options)
    assert seen == ["cycles"]
    assert_same(fast, plain, tolerance=1e-12)


# small sea battles with every round limit from 1 to 30: each kind of opening fire, a
# retreat rule, damaged battleships, pairs that change slowly
EVERY_LIMIT = [
    ({"battleship": 1, "bomber": 1}, {"battleship": 1, "submarine": 1}, {}),  # slow pairs
    (MIXED_ATTACK, MIXED_DEFENCE, {}),  # destroyers both sides
    (
        {"submarine": 3, "battleship": 1},
        {"submarine": 2, "carrier": 1, "fighter": 1},
        {},  # no destroyer: the opening fire's casualties never fire
    ),
    (
        {"submarine": 2, "destroyer": 1, "bomber": 1},
        {"battleship": 2, "submarine": 1, "transport": 1},
        {"retreat_when": 1},  # a destroyer on one side only; the attacker leaves at one
    ),
]


@pytest.mark.parametrize("rounds", range(1, 31))
@pytest.mark.parametrize(("attackers", "defenders", "options"), EVERY_LIMIT)
def test_every_round_limit_of_a_small_sea_battle_gives_the_plain_distribution(
    monkeypatch, attackers, defenders, options, rounds
):
    options = {"sea": True, "rounds": rounds, **options}
    fast, plain = both(monkeypatch, attackers, defenders, options)
    assert_same(fast, plain, tolerance=1e-12)
    assert abs(fast.attacker_win + fast.defender_win + fast.draw - 1) < 1e-12
    if rounds < 6:
        assert fast.attacker_retreat > 0  # the limit stops battles still going


@pytest.mark.parametrize("seed", range(4))
def test_random_sea_battles_with_any_round_limit_give_the_plain_distribution(monkeypatch, seed):
    """Small sea battles of every kind of ship and aircraft, each with a round limit of
    1 to 30, some with a retreat rule, developments or an order of casualties."""
    rng = random.Random(9400 + seed)
    compared = 0
    while compared < 6:
        attackers = {t: rng.randint(1, 3) for t in rng.sample(SEA, rng.randint(2, 4))}
        defenders = {t: rng.randint(1, 3) for t in rng.sample(SEA, rng.randint(2, 4))}
        options: dict = {"sea": True, "rounds": rng.randint(1, 30)}
        if rng.random() < 0.3:
            options["retreat_when"] = rng.randint(1, 3)
        if rng.random() < 0.3:
            options["attacker_techs"] = {"super_submarines", "heavy_bombers"}
        if rng.random() < 0.3:
            options["defender_techs"] = {"jet_fighters", "super_submarines"}
        if rng.random() < 0.3:
            options["defender_order"] = CasualtyOrder(first=("fighter", "battleship"))
        try:
            fast, plain = both(monkeypatch, attackers, defenders, options)
        except IllegalOrder:
            continue  # a force that cannot fight at sea
        try:
            assert_same(fast, plain, tolerance=1e-12)
        except AssertionError as exc:
            raise AssertionError(f"{attackers} against {defenders}, {options}: {exc}") from None
        compared += 1


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
