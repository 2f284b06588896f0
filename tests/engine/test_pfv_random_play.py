"""Random legal play (issue 2, item 5): games that never crash, dead-end, break an invariant,
or fail to replay exactly from their log. The full `umpire fuzz pfv --games 200 --seed 1` runs
in .ci/run; here a handful of games keep the unit suite quick."""

import pytest

from engine.core.game import Game
from engine.fuzz import fuzz, play_random_game


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_random_games_finish_and_replay_exactly(seed):
    runs, failure = fuzz("pfv", games=3, seed=seed)
    assert failure is None, str(failure)
    assert all(r.finished and r.winner in ("axis", "allied") for r in runs)


def test_replay_reproduces_every_roll_and_log_line():
    run = play_random_game("pfv", seed=11)
    assert run.failure is None, str(run.failure)
    g = run.game
    again = Game.replay(
        "pfv", g.scenario, g.options, g.secret, g.game_id, [(a.role, a.order) for a in g.actions]
    )
    assert [r.value for a in again.actions for r in a.rolls] == [
        r.value for a in g.actions for r in a.rolls
    ]
    assert again.log() == g.log()
    assert any(a.rolls for a in g.actions), "a whole game rolls dice"


def test_a_different_secret_gives_different_dice_for_the_same_orders():
    run = play_random_game("pfv", seed=5)
    g = run.game
    orders = [(a.role, a.order) for a in g.actions]
    other = Game(g.ruleset, g.scenario, g.options, b"another secret", g.game_id)
    rolls_a, rolls_b = [], []
    for (role, order), action in zip(orders, g.actions, strict=False):
        try:
            other.play(order, role)
        except Exception:
            break  # the games diverge once different dice change the situation
        rolls_a.extend(r.value for r in action.rolls)
        rolls_b.extend(r.value for r in other.actions[-1].rolls)
    assert rolls_a and rolls_a != rolls_b
