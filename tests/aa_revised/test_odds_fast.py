"""The faster paths of the odds (issue 9's speed targets) give the plain distribution.

Three things changed for speed: the attacker's and defender's dice on land are worked
out for every state at once (:meth:`odds._Side.fire_table`), the land solver finds
the states down every casualty chain at once, and a round-limited sea battle keeps a
pair's cycle only while the pair still has mass (:meth:`odds._Battle._step_sea`). Each
result is held to the plain cycle-by-cycle reference of ``test_odds_reference`` to
1e-12, on land and at sea, with and without a round limit, and the sea stepping gives
the same result whatever it keeps or how it batches.
"""

from __future__ import annotations

import random

import pytest

from engine.core.errors import IllegalOrder
from engine.games.aa_revised import odds
from engine.games.aa_revised.battle import ATTACKER, DEFENDER, CHEAPEST_FIRST, unit_stats
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
            (plain[k] if k < len(plain) else 0.0) * (1 - p)
            + (plain[k - 1] * p if k > 0 else 0.0)
            for k in range(len(plain) + 1)
        ]
    got = odds._binomial(n, value)
    assert len(got) == n + 1
    assert list(got) == pytest.approx(plain, rel=1e-12, abs=1e-300)
    assert abs(sum(got) - 1) < 1e-12
