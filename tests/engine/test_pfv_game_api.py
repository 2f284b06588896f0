"""STYLE: the engine as a library. Five lines at a prompt set up a game, list the legal
orders, apply one and read the log; an illegal order changes nothing."""

import pytest

import engine
from engine.core.errors import IllegalOrder


def test_five_lines_at_a_prompt():
    game = engine.Game.new("pfv", secret=b"s", game_id="doc")
    assert game.prompt().role == "allied" and game.prompt().kind == "setup"
    first = game.legal_orders()[0]
    game.play(first)
    assert game.log()[-1].startswith(game.ruleset.board.name(first.piece))


def test_fixed_set_up_pieces_are_placed_automatically_PFV5():
    game = engine.Game.new("pfv", secret=b"s", game_id="doc")
    state = game.state
    assert state.pieces["para"].hex == "7607"
    game.play("auto")
    game.play("done")
    assert game.state.pieces["broich"].hex == "8306"
    for pid in ("la_spezia", "marines", "messe"):
        assert game.state.pieces[pid].hex == "8519"


def test_an_illegal_order_changes_nothing():
    game = engine.Game.new("pfv", secret=b"s", game_id="doc")
    before = game.ruleset.dump_state(game.state)
    with pytest.raises(IllegalOrder) as err:
        game.play("attack para 7608")
    assert "(PFV 7)" in str(err.value)
    with pytest.raises(IllegalOrder):
        game.play("fly to the moon")
    assert game.ruleset.dump_state(game.state) == before
    assert game.actions == []


def test_state_survives_a_json_round_trip():
    import json

    game = engine.Game.new("pfv", secret=b"s", game_id="doc")
    game.play("auto")
    rs = game.ruleset
    data = json.loads(json.dumps(rs.dump_state(game.state)))
    assert rs.dump_state(rs.load_state(data)) == rs.dump_state(game.state)
