"""PFV 5, Set-up, on the shipped data pack (the digest's T01, S-A1..S-A7, S-X1..S-X6)."""

import pytest

import engine
from engine.core.errors import IllegalOrder


@pytest.fixture
def game():
    return engine.Game.new("pfv", secret=b"setup", game_id="setup")


def refused(game, text, rule="PFV 5"):
    before = game.ruleset.dump_state(game.state)
    with pytest.raises(IllegalOrder) as err:
        game.play(text)
    assert err.value.rule == rule, str(err.value)
    assert game.ruleset.dump_state(game.state) == before
    return str(err.value)


def test_para_brigade_is_set_up_in_bone_automatically_S_A4(game):
    assert game.state.pieces["para"].hex == "7607"
    assert "already set up in 7607" in refused(game, "place para 7608")


def test_sixth_armoured_within_four_hexes_of_bone_in_algeria_S_A5(game):
    assert "within 4 hexes of 7607" in refused(game, "place 6arm 7612")  # five hexes away
    refused(game, "place 6arm 8007")  # four hexes, but in Tunisia
    game.play("place 6arm 7611")
    assert game.state.pieces["6arm"].hex == "7611"


def test_allied_air_only_on_allied_airfields_one_per_hex_S_A7(game):
    game.play("place daf 8821")  # the airbase, the one Allied silhouette in Tunisia
    assert "only one air support asset" in refused(game, "place nasaf 8821")
    assert "Allied airfield" in refused(game, "place nasaf 8412")  # an Axis silhouette


def test_eighth_army_and_ii_corps_pieces_only_in_their_crest_hexes_S_A3_S_A6(game):
    assert "8th Army hexes" in refused(game, "place 7arm 7711")
    assert "II Corps hexes" in refused(game, "place 1arm 7711")
    game.play("place 7arm 8721")
    game.play("place 1arm 8113")


def test_every_ii_corps_hex_needs_a_ii_corps_piece_S_A6():
    # three II Corps hexes and three II Corps pieces (two units, one support): putting the
    # support on a hex that already has one would leave two hexes for one piece
    from engine.core.dice import NoDice
    from engine.games.pfv.rules import PattonsFirstVictory
    from tests.pfv.fixtures import fixture_board

    crest = {h: ["crest_ii_corps"] for h in ("8113", "8014", "7914")}
    rules = PattonsFirstVictory(fixture_board(features=crest))
    state = rules.setup("standard", {}, NoDice())
    state, _ = rules.apply(state, "allied", rules.parse_order("place 1arm 8113"), NoDice())
    with pytest.raises(IllegalOrder) as err:
        rules.apply(state, "allied", rules.parse_order("place td 8113"), NoDice())
    assert "would be left without one" in str(err.value) and err.value.rule == "PFV 5"
    state, _ = rules.apply(state, "allied", rules.parse_order("place td 8014"), NoDice())
    assert state.pieces["td"].hex == "8014"


def test_no_battlegroups_two_star_pieces_or_patton_at_set_up_S_A2(game):
    for piece in ("bg_allied_1", "1arm2", "patton"):
        assert "enter later" in refused(game, f"place {piece} 7711")


def test_axis_sets_up_after_the_allies_with_its_fixed_pieces_S_X2_S_X3(game):
    game.play("auto")
    game.play("done")
    assert game.prompt().role == "axis"
    pieces = game.state.pieces
    assert pieces["broich"].hex == "8306"
    assert {pieces[p].hex for p in ("la_spezia", "marines", "messe")} == {"8519"}
    assert "only one unit" in refused(game, "place 10pz 8519")
    assert "outside the 8th Army and II Corps hexes" in refused(game, "place 10pz 8721")
    assert "Tunisia" in refused(game, "place 10pz 7711")
    # the airbase 8821 is open to the Axis (RULINGS R26), but the Allied air set up there
    assert "held by the enemy" in refused(game, "place 10pz 8821")
    game.play("auto")
    game.play("done")
    prompt = game.prompt()
    assert (prompt.role, prompt.kind, prompt.turn) == ("axis", "move", 1)


def test_done_is_refused_while_pieces_are_unplaced_S_A1(game):
    assert "not set up yet" in refused(game, "done")


def test_views_hide_enemy_stacks_without_an_adjacent_unit_ST4(game):
    game.play("auto")
    game.play("done")
    game.play("auto")
    game.play("done")
    mareth = next(s for s in game.view("allied").stacks if s.hex == "8519")
    assert mareth.count == 3 and mareth.hidden and len(mareth.counters) == 1
    assert mareth.counters[0].id == "la_spezia"  # the unit is the top piece
    own = next(s for s in game.view("axis").stacks if s.hex == "8519")
    assert not own.hidden and len(own.counters) == 3
    public = game.view(None)
    assert all(len(s.counters) == 1 for s in public.stacks)
