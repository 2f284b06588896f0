"""A game the service loads back from the database plays on exactly as the game held in
memory would: the bench of issue 16 found A&A games that `umpire verify` refused after a
busy service had let them go from memory and loaded them again (the database keeps a
state's keys sorted as text, so ``u121`` came before ``u30``, and that order showed in
the events). `umpire fuzz` now replays every game that way too (engine/fuzz.py)."""

from __future__ import annotations

import json

from engine.core.game import Game
from engine.games.aa_revised.context import count_text


def _as_the_database_keeps_it(rules, state):
    return rules.load_state(json.loads(json.dumps(rules.dump_state(state), sort_keys=True)))


def test_units_come_back_in_the_order_they_were_made():
    game = Game.new("aa-revised", secret=b"s", game_id="reload")
    made = list(game.state.units)
    assert len(made) > 10  # so that text order (u1, u10, u100, u11, ...) would differ
    again = _as_the_database_keeps_it(game.ruleset, game.state)
    assert list(again.units) == made


def test_unit_counts_read_in_the_unit_tables_order_whatever_their_order():
    assert count_text({"tank": 1, "infantry": 2}) == "2 infantry, 1 tank"
    assert count_text({"infantry": 2, "tank": 1}) == "2 infantry, 1 tank"
    assert count_text({"bomber": 1, "artillery": 1, "infantry": 1}) == (
        "1 infantry, 1 artillery, 1 bomber"
    )


def test_a_game_loaded_again_before_every_order_gives_the_same_events():
    from engine.fuzz import first_reload_mismatch, play_random_game

    run = play_random_game("aa-revised", seed=100025, max_actions=400)
    # the game need not end within the limit: what was played must replay the same
    assert run.game.actions
    assert first_reload_mismatch(run.game) is None
