"""The fast odds agree with a plain reference to 1e-9 on many small random battles.

The reference here steps the battle forward one combat cycle at a time over a dict of
pairs of states, with the same cycle (:meth:`odds._Battle.cycle`, whose rules the
simulation test checks against the battle code), until less than 1e-15 of the chance is
still fighting: no ordering of the pairs, no geometric series, no shared rows. What the
two must agree on is everything a result holds: the outcomes, both survivor
distributions and the expected number of cycles.
"""

from __future__ import annotations

import random

import pytest

from engine.core.errors import IllegalOrder
from engine.games.aa_revised import odds
from engine.games.aa_revised.battle import CasualtyOrder, Rules

LAND = ("infantry", "artillery", "tank", "fighter", "bomber")
SEA = ("battleship", "destroyer", "submarine", "carrier", "fighter", "bomber", "transport")
STILL_FIGHTING = 1e-15
MAX_CYCLES = 20_000


def reference_solve(self: odds._Battle, rounds: int | None) -> odds.Odds:
    """:meth:`odds._Battle.solve`, the slow and obvious way."""
    att, dfn = self.att, self.dfn
    live: dict[tuple[int, int], float] = {}

    def add(blocks: odds.Blocks, scale: float, into: dict[tuple[int, int], float]) -> None:
        for w, (ai, ap), (di, dp) in blocks:
            for a, x in zip(ai, ap, strict=True):
                for d, y in zip(di, dp, strict=True):
                    into[(a, d)] = into.get((a, d), 0.0) + scale * w * x * y

    add(self.cycle(att.start, dfn.start, first=True), 1.0, live)
    over: dict[tuple[int, int], tuple[str, float]] = {}
    expected_rounds, cycles = 1.0, 1
    while True:
        for pair in list(live):
            how = self.ending(*pair)
            if how is None and stays(self, pair) >= 1.0 - 1e-15:
                how = odds._LEFT  # neither side can ever hit the other: the attacker leaves
            if how is not None:
                m = live.pop(pair)
                over[pair] = (how, over.get(pair, (how, 0.0))[1] + m)
        if rounds is not None and cycles >= rounds:
            for pair, m in live.items():
                over[pair] = (odds._LEFT, over.get(pair, (odds._LEFT, 0.0))[1] + m)
            break
        still = sum(live.values())
        if still < STILL_FIGHTING:
            break
        assert cycles < MAX_CYCLES, "the reference did not converge"
        expected_rounds += still
        nxt: dict[tuple[int, int], float] = {}
        for (a, d), m in live.items():
            add(self.cycle(a, d, first=False), m, nxt)
        live, cycles = nxt, cycles + 1
    totals = dict.fromkeys((odds._WIN, odds._LOSS, odds._DRAW, odds._LEFT), 0.0)
    att_surv: dict[odds.Survivors, float] = {}
    def_surv: dict[odds.Survivors, float] = {}
    for (a, d), (how, m) in over.items():
        totals[how] += m
        att_surv[att.survivors(a)] = att_surv.get(att.survivors(a), 0.0) + m
        def_surv[dfn.survivors(d)] = def_surv.get(dfn.survivors(d), 0.0) + m
    return odds.Odds(
        attacker_win=totals[odds._WIN],
        defender_win=totals[odds._LOSS] + totals[odds._LEFT],
        draw=totals[odds._DRAW],
        attacker_retreat=totals[odds._LEFT],
        attacker_survivors=att_surv,
        defender_survivors=def_surv,
        expected_rounds=expected_rounds,
    )


def stays(self: odds._Battle, pair: tuple[int, int]) -> float:
    """The chance that a cycle from ``pair`` leaves both sides as they were."""
    total = 0.0
    for w, (ai, ap), (di, dp) in self.cycle(*pair, first=False):
        x = sum(p for a, p in zip(ai, ap, strict=True) if a == pair[0])
        y = sum(p for d, p in zip(di, dp, strict=True) if d == pair[1])
        total += w * x * y
    return total


def random_battle(rng: random.Random) -> tuple[dict, dict, dict]:
    """A small battle of any kind the odds handle, with any of their options."""
    sea = rng.random() < 0.4
    pool = SEA if sea else LAND
    attackers = {t: rng.randint(0, 3) for t in rng.sample(pool, rng.randint(1, 4))}
    defenders = {t: rng.randint(0, 3) for t in rng.sample(pool, rng.randint(1, 4))}
    options: dict = {"sea": sea}
    if not sea and rng.random() < 0.45:
        defenders["aa_gun"] = 1
    if not sea and rng.random() < 0.25:
        options["bombarding"] = {"battleship": rng.randint(1, 2)}
    elif rng.random() < 0.2:
        options["rounds"] = rng.randint(1, 3)
    elif rng.random() < 0.2:
        options["retreat_when"] = rng.randint(0, 3)
    if sea and rng.random() < 0.3:
        options["rules"] = Rules(air_needs_destroyer=True)
    if rng.random() < 0.2:
        options["attacker_order"] = CasualtyOrder(keep_land_unit=True)
    if rng.random() < 0.15:
        options["defender_order"] = CasualtyOrder(first=("fighter", "tank"))
    if rng.random() < 0.2:
        options["attacker_techs"] = {"super_submarines", "heavy_bombers", "combined_bombardment"}
    if rng.random() < 0.2:
        options["defender_techs"] = {"jet_fighters"}
    return attackers, defenders, options


def assert_same(fast: odds.Odds, slow: odds.Odds, tolerance: float = 1e-9) -> None:
    for key in ("attacker_win", "defender_win", "draw", "attacker_retreat"):
        assert abs(getattr(fast, key) - getattr(slow, key)) <= tolerance, key
    for mine, theirs in (
        (fast.attacker_survivors, slow.attacker_survivors),
        (fast.defender_survivors, slow.defender_survivors),
    ):
        for survivors in set(mine) | set(theirs):
            assert abs(mine.get(survivors, 0.0) - theirs.get(survivors, 0.0)) <= tolerance, (
                survivors
            )
    assert abs(fast.expected_rounds - slow.expected_rounds) <= tolerance * slow.expected_rounds


def both(monkeypatch, attackers, defenders, options) -> tuple[odds.Odds, odds.Odds]:
    fast = odds.battle_odds(attackers, defenders, **options)
    with monkeypatch.context() as m:
        m.setattr(odds._Battle, "solve", reference_solve)
        slow = odds.battle_odds(attackers, defenders, **options)
    return fast, slow


@pytest.mark.parametrize("seed", range(6))
def test_the_odds_agree_with_the_plain_reference_on_random_small_battles(monkeypatch, seed):
    rng = random.Random(seed)
    compared = 0
    while compared < 25:
        attackers, defenders, options = random_battle(rng)
        try:
            fast, slow = both(monkeypatch, attackers, defenders, options)
        except IllegalOrder:
            continue  # a force that cannot fight (ships on land and the like)
        try:
            assert_same(fast, slow)
        except AssertionError as exc:
            raise AssertionError(f"{attackers} against {defenders}, {options}: {exc}") from None
        compared += 1


@pytest.mark.parametrize(
    ("attackers", "defenders", "options"),
    [
        # the gun's fire opens many branches that later cycles share
        ({"infantry": 4, "tank": 2, "fighter": 3, "bomber": 2}, {"infantry": 6, "aa_gun": 1}, {}),
        # bombardment, then a land battle with a gun
        (
            {"infantry": 3, "artillery": 2, "fighter": 2},
            {"infantry": 4, "tank": 1, "aa_gun": 1},
            {"bombarding": {"battleship": 2}},
        ),
        # submarines and destroyers on both sides, battleships taking two hits
        (
            {"submarine": 3, "destroyer": 1, "battleship": 1, "fighter": 2},
            {"submarine": 2, "destroyer": 2, "battleship": 1, "carrier": 1, "fighter": 1},
            {"sea": True},
        ),
        # variant: aircraft need a destroyer to hit submarines (the odds used to fail on it)
        (
            {"fighter": 1, "submarine": 2},
            {"battleship": 2},
            {"sea": True, "rules": Rules(air_needs_destroyer=True)},
        ),
    ],
)
def test_the_odds_agree_with_the_plain_reference_on_mixed_battles(
    monkeypatch, attackers, defenders, options
):
    assert_same(*both(monkeypatch, attackers, defenders, options))


@pytest.mark.parametrize(
    ("attackers", "defenders", "options"),
    [
        # many aircraft against a gun: some branches of its fire are reached with a
        # chance below 1e-16, and let go (odds._NEGLIGIBLE)
        ({"infantry": 3, "fighter": 12, "bomber": 12}, {"infantry": 12, "aa_gun": 1}, {}),
        # the same with a round limit: rows let go round by round, and the stepping stops
        # once nothing is left fighting
        (
            {"infantry": 2, "fighter": 10, "bomber": 10},
            {"infantry": 8, "aa_gun": 1},
            {"rounds": 12},
        ),
    ],
)
def test_what_is_let_go_as_negligible_leaves_the_odds_exact(
    monkeypatch, attackers, defenders, options
):
    fast, slow = both(monkeypatch, attackers, defenders, options)
    assert_same(fast, slow)
    assert abs(fast.attacker_win + fast.defender_win + fast.draw - 1) < 1e-12
    with monkeypatch.context() as m:
        m.setattr(odds, "_NEGLIGIBLE", 0.0)
        whole = odds.battle_odds(attackers, defenders, **options)
    assert fast.states < whole.states  # something was let go
    assert_same(fast, whole, tolerance=1e-12)


@pytest.mark.parametrize(
    ("attackers", "defenders", "options"),
    [
        ({"infantry": 4, "tank": 2}, {"infantry": 5}, {}),
        ({"infantry": 3, "fighter": 2}, {"infantry": 4, "aa_gun": 1}, {}),
        ({"destroyer": 2, "submarine": 1}, {"destroyer": 1, "carrier": 1}, {"sea": True}),
    ],
)
def test_a_round_limit_far_beyond_the_end_of_the_battle_costs_no_more(
    monkeypatch, attackers, defenders, options
):
    """Stepping stops once no pair is still fighting, whatever the limit says (at sea,
    once what still fights can change no result by more than 1e-15:
    :meth:`odds._Battle._step_sea_by_hits`)."""
    rounds_stepped = []
    real = odds._let_go

    def counted(*args, **kwargs):
        rounds_stepped.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(odds, "_let_go", counted)
    limited = odds.battle_odds(attackers, defenders, rounds=10_000, **options)
    assert 0 < len(rounds_stepped) < 200
    assert_same(limited, odds.battle_odds(attackers, defenders, **options), tolerance=1e-12)


@pytest.mark.parametrize("rounds", [2, 3, 6])
@pytest.mark.parametrize(
    ("attackers", "defenders"),
    [
        # destroyers on both sides: casualties of the submarines' fire still fire
        (
            {"destroyer": 2, "submarine": 3, "fighter": 2, "battleship": 1},
            {"destroyer": 1, "submarine": 2, "carrier": 1, "fighter": 1, "battleship": 1},
        ),
        # a destroyer on one side only, submarines on both
        (
            {"submarine": 4, "bomber": 2, "battleship": 1},
            {"destroyer": 2, "submarine": 2, "transport": 2},
        ),
        # no destroyer at all: the opening fire and the main fire are apart
        ({"submarine": 4, "battleship": 2}, {"submarine": 3, "carrier": 1, "fighter": 2}),
    ],
)
def test_a_sea_battle_with_a_round_limit_agrees_with_the_plain_reference(
    monkeypatch, attackers, defenders, rounds
):
    """Sea battles stopped by a round limit while still going, each kind of opening fire."""
    options = {"sea": True, "rounds": rounds}
    fast, slow = both(monkeypatch, attackers, defenders, options)
    assert_same(fast, slow, tolerance=1e-12)
    assert fast.attacker_retreat > 1e-5  # the limit stops battles still going
    assert abs(fast.attacker_win + fast.defender_win + fast.draw - 1) < 1e-12
