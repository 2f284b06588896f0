"""Random legal play of Axis & Allies: North Africa: seeded games of both scenarios with 2,
3 and 4 players, played through ``legal_orders`` and ``apply`` to the end, with no dead
end (every prompt offers a legal order), every listed order accepted, and the invariants
checked after every order (STYLE: Rally the Troops' fuzzer)."""

from __future__ import annotations

import random

import pytest

from engine.games.aa_na.rules import RULESET as R

MAX_ORDERS = 6000


class SeededDice:
    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def roll(self, sides: int, purpose: str = "") -> int:
        return self.rng.randint(1, sides)


#: every optional rule that can be switched on (L1365-1441), with a bid for the Axis
ALL_OPTIONS = {"reinforcing_attacks": True, "tiger_tanks": True, "air_transport": True, "suez_mines": True, "us_landing_choice": True,
               "anzac": True, "strategic_reserve": True, "break_draws": True}


def play_random(scenario: str, players: int, seed: int, options: dict | None = None) -> tuple[object, int]:
    """One game to its end; returns the final state and the number of orders played."""
    rng = random.Random(seed)
    dice = SeededDice(random.Random(seed + 1))
    state = R.setup(scenario, {"players": players, **(options or {})}, dice)
    for n in range(1, MAX_ORDERS + 1):
        p = R.prompt(state)
        if p.role is None:
            return state, n - 1
        orders = R.legal_orders(state, p.role)
        assert orders, f"dead end at order {n}: {p.text}"
        finishing = [o for o in orders if o.verb == "done"]
        others = [o for o in orders if o.verb != "done"]
        order = rng.choice(finishing) if finishing and (not others or rng.random() < 0.15) else rng.choice(others)
        assert R.parse_order(order.text()) == order, order.text()  # what a player reads, a player can type
        state, _ = R.apply(state, p.role, order, dice)
        problems = R.invariant_problems(state)
        assert not problems, f"after order {n} ({order.text()}): {problems}"
        if n % 97 == 0:  # the stored form of the state loses nothing
            assert R.dump_state(R.load_state(R.dump_state(state))) == R.dump_state(state)
    raise AssertionError(f"no end after {MAX_ORDERS} orders")


@pytest.mark.parametrize(("scenario", "players", "seed"), [("ot", 2, 1), ("ot", 4, 2), ("rlp", 3, 3), ("rlp", 2, 4)])
def test_random_games_reach_the_end(scenario, players, seed):
    state, n = play_random(scenario, players, seed)
    assert state.over and n > 0
    assert R.result(state) is not None and R.result(state).text == state.result_text


@pytest.mark.parametrize(("scenario", "players", "seed"), [("rlp", 4, 6), ("ot", 3, 7)])
def test_random_games_with_every_optional_rule_reach_the_end(scenario, players, seed):
    bid = {"ita": 4} if scenario == "ot" else {"ger": 2, "ita": 2}
    state, n = play_random(scenario, players, seed, {**ALL_OPTIONS, "bid": bid})
    assert state.over and n > 0


def test_a_random_game_plays_the_same_twice():
    """The engine is pure: the same seed gives the same game, order for order."""
    a, n = play_random("ot", 3, 5)
    b, m = play_random("ot", 3, 5)
    assert n == m and R.dump_state(a) == R.dump_state(b)
