"""Random legal play of The African Campaign (STYLE: Rally the Troops' fuzzer): seeded
campaigns played through ``legal_orders`` and ``apply`` with no dead end (every prompt
offers a legal order), every listed order accepted and typed back the same, and the
invariants checked after every order. The 20-game run of the issue is done by hand (the
closing report gives its figures); here one whole campaign and the opening of another,
with the optional rules on."""

from __future__ import annotations

import json
import random

from engine.games.tac.rules import TheAfricanCampaign
from engine.games.tac.state import State

R = TheAfricanCampaign()
MAX_ORDERS = 20_000


class SeededDice:
    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def roll(self, sides: int, purpose: str = "") -> int:
        return self.rng.randint(1, sides)


def play_random(
    seed: int, options: dict, done_rate: float, last_turn: int = 50
) -> tuple[State, int]:
    """Play until the game ends or ``last_turn`` is over; returns the state and the orders."""
    rng = random.Random(seed)
    dice = SeededDice(random.Random(seed + 1))
    state = R.setup("campaign", options, dice)
    for n in range(1, MAX_ORDERS + 1):
        p = R.prompt(state)
        if p.role is None or state.turn > last_turn:
            return state, n - 1
        orders = R.legal_orders(state, p.role)
        assert orders, f"dead end at order {n}: {p.text}"
        finishing = [o for o in orders if o.verb == "done"]
        others = [o for o in orders if o.verb != "done"]
        order = (
            rng.choice(finishing)
            if finishing and (not others or rng.random() < done_rate)
            else rng.choice(others)
        )
        assert R.parse_order(order.text()) == order, order.text()
        state, _ = R.apply(state, p.role, order, dice)
        problems = R.invariant_problems(state)
        assert not problems, f"after order {n} ({order.text()}): {problems}"
        if n % 97 == 0:
            assert R.dump_state(R.load_state(R.dump_state(state))) == R.dump_state(state)
    raise AssertionError(f"no end after {MAX_ORDERS} orders")


def test_a_random_campaign_reaches_its_end():
    state, n = play_random(11, {}, done_rate=0.4)
    assert state.phase == "over" and n > 100
    assert R.result(state) is not None and R.result(state).text == state.result_text


def test_the_opening_with_optional_rules_plays_and_replays_the_same():
    options = {"18.1": True, "18.2": True, "18.4": True, "18.5": True, "18.6": True}
    a, n = play_random(12, options, done_rate=0.1, last_turn=6)
    b, m = play_random(12, options, done_rate=0.1, last_turn=6)
    assert a.turn == 7 and n == m and R.dump_state(a) == R.dump_state(b)


def test_a_state_read_back_as_the_database_gives_it_is_the_same_in_every_order():
    """The database gives a state back as JSON with its keys sorted; every mapping of a
    state (units first: their order shows in event texts) is kept in that order, so that
    a game loaded from the database plays on exactly as the one in memory."""
    state, n = play_random(13, {"18.6": True}, done_rate=0.2, last_turn=4)
    assert n > 20
    stored = R.dump_state(state)
    read_back = R.dump_state(R.load_state(json.loads(json.dumps(stored, sort_keys=True))))
    assert json.dumps(read_back) == json.dumps(stored)
    assert list(state.units) == sorted(state.units)
