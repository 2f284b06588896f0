"""Blocks in Afrika registered (issue 11): the ``bia`` ruleset as the front ends and
``umpire fuzz`` reach it, its views per role (1.3 Fog of War, L134-138; digest 4.2), the
naval scenarios offered since the naval rules are written (17.0), and the fuzzer's leak scan, which must catch a leak
planted in a view, a log line, a refusal or an accepted order."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from bot.service import ServiceError
from engine.core import registry
from engine.core.errors import IllegalOrder
from engine.core.events import EVERYONE, Event
from engine.core.game import Game
from engine.core.ruleset import Ruleset
from engine.core.view import HexMapView
from engine.fuzz import play_random_game
from engine.games.bia.board import ALLIED, AXIS
from engine.games.bia.rules import BlocksInAfrika
from tests.service.conftest import clock, db_path, service  # noqa: F401

LAND = ["BIA1", "BIA2", "BIA3", "BIA4", "BIA5", "BIA6"]
NAVAL = ["BIA7", "BIA8", "BIA9", "BIA10"]


def test_bia_is_a_registered_ruleset_offering_all_ten_scenarios():
    rules = registry.ruleset("bia")
    assert "bia" in registry.available() and isinstance(rules, Ruleset)
    assert [s.id for s in rules.scenarios()] == LAND + NAVAL
    assert rules.roles("BIA1") == [AXIS, ALLIED]


@pytest.mark.parametrize("scenario", NAVAL)
def test_a_naval_scenario_sets_up_its_fleets(scenario):
    state = Game.new("bia", scenario, {}).state
    assert state.blocks and all(b.where == "box" for b in state.blocks.values())
    with pytest.raises(IllegalOrder) as err:
        Game.new("bia", "BIA99", {})
    assert err.value.reason == "There is no land scenario 'BIA99'."


def test_options_at_set_up_are_known_and_on_or_off():
    assert Game.new("bia", "BIA1", {"advanced": True}).state.options == {"advanced": True}
    for options, said in (
        ({"advanced": "yes"}, "The option advanced is on (true) or off (false)."),
        ({"naval": True}, "Blocks in Afrika has no option 'naval'."),
    ):
        with pytest.raises(IllegalOrder) as err:
            Game.new("bia", "BIA1", options)
        assert err.value.reason == said


def test_a_random_player_seldom_gives_standing_orders_or_disbands():
    rules, rng = registry.ruleset("bia"), random.Random(2)
    state = Game.new("bia", "BIA3", {}).state
    orders = rules.legal_orders(state, rules.prompt(state).role)
    assert {"standing", "disband"} <= {o.verb for o in orders}
    picked = Counter(rules.fuzz_pick(state, orders, rng).verb for _ in range(400))
    assert set(picked) <= {o.verb for o in orders}
    assert picked["standing"] < 30 and picked["disband"] < 40 and picked["done"] > 20, picked


async def test_the_service_creates_a_naval_scenario(service):  # noqa: F811
    naval = await service.create("bia", created_by="u1", scenario="BIA9")
    assert (await service.status(naval.game)).scenario == "BIA9"
    with pytest.raises(ServiceError):
        await service.create("bia", created_by="u1", scenario="BIA99")
    created = await service.create("bia", created_by="u1", scenario="BIA3")
    assert (await service.status(created.game)).scenario == "BIA3"


def test_umpire_fuzz_spreads_its_games_over_the_ten_scenarios():
    """``umpire fuzz bia --games 200 --seed 1`` plays seeds 100003..100202 (engine.fuzz)."""
    rules = registry.ruleset("bia")
    spread = Counter(rules.fuzz_setup(100003 + i)[0] for i in range(200))
    assert set(spread) == set(LAND + NAVAL) and min(spread.values()) >= 20, spread
    # each scenario with the advanced rules and without, about half and half
    both = Counter(
        (scenario, bool(options.get("advanced")))
        for scenario, options in map(rules.fuzz_setup, range(100003, 100203))
    )
    assert len(both) == 20 and min(both.values()) >= 10, both


def test_each_side_sees_its_own_blocks_and_the_public_none():
    game = Game.new("bia", "BIA3", {})
    rules, state = game.ruleset, game.state
    views = {a: rules.view(state, a) for a in (AXIS, ALLIED, None, EVERYONE)}
    assert all(isinstance(v, HexMapView) and v.game == "bia" for v in views.values())

    def ids(v):
        return {c.id for st in v.stacks for c in st.counters} | {
            c.id for b in v.boxes for c in b.counters
        }

    own = {side: {b.id for b in state.blocks.values() if b.side == side} for side in (AXIS, ALLIED)}
    on_map = {b.id for b in state.blocks.values() if b.where in ("map", "box")}
    assert ids(views[EVERYONE]) >= on_map
    assert ids(views[AXIS]) & own[ALLIED] == set() and ids(views[AXIS]) & own[AXIS]
    assert ids(views[ALLIED]) & own[AXIS] == set() and ids(views[ALLIED]) & own[ALLIED]
    assert ids(views[None]) & (own[AXIS] | own[ALLIED]) == set()
    assert ids(views[None]) == {state.blocks[b].token for b in on_map}
    # the PP stock is its owner's (digest 4.2), as data and among the map's notes
    assert [n for n in views[AXIS].notes if " PP: " in n] and views[AXIS].pp
    assert not [n for v in (views[ALLIED], views[None]) for n in v.notes if "Italy PP" in n]
    assert views[None].pp == {}


def test_hidden_words_are_the_faces_each_reader_may_not_see():
    rules = registry.ruleset("bia")
    state = Game.new("bia", "BIA3", {}).state
    side = {b.id: b.side for b in state.blocks.values()}
    assert set(rules.hidden_words(state, AXIS)) == {b for b, s in side.items() if s == ALLIED}
    assert set(rules.hidden_words(state, None)) == set(side)
    assert rules.hidden_words(state, EVERYONE) == {}
    foe = min(b for b, s in side.items() if s == ALLIED)
    assert rules.hidden_words(state, AXIS)[foe] == {foe, rules.board.block(foe).name}
    shown = Event("reveal", "...", {"tokens": [state.blocks[foe].token]})
    assert foe not in rules.hidden_words(state, AXIS, [shown])
    state.blocks[foe].revealed = True
    assert foe not in rules.hidden_words(state, AXIS) and foe not in rules.hidden_words(state, None)


def test_the_fuzzer_scans_every_bia_game_and_finds_no_leak():
    for seed in (100003, 100004):  # BIA2 and BIA3 with the advanced rules, as ``--seed 1`` begins
        run = play_random_game("bia", seed)
        assert run.failure is None, str(run.failure)
        # three audiences, several texts each, after every order
        assert run.finished and run.scanned > 9 * run.actions, (run.scanned, run.actions)


def _hidden_enemy(state, role):
    return next(
        b for b in sorted(state.blocks.values(), key=lambda b: b.id)
        if b.side != role and not b.revealed
    )  # fmt: skip


def test_the_leak_scan_catches_a_view_showing_every_face(monkeypatch):
    everything = BlocksInAfrika.view
    monkeypatch.setattr(BlocksInAfrika, "view", lambda self, s, role: everything(self, s, EVERYONE))
    run = play_random_game("bia", 100003)
    assert run.failure is not None and run.failure.kind == "leak", run.failure
    assert "is shown names" in run.failure.detail


def test_the_leak_scan_catches_a_log_line_naming_a_hidden_block(monkeypatch):
    apply = BlocksInAfrika.apply

    def gossip(self, state, role, order, dice):
        new, events = apply(self, state, role, order, dice)
        foe = _hidden_enemy(new, role)
        return new, [*events, Event("note", f"Word is that {foe.id} stands at {foe.at}.")]

    monkeypatch.setattr(BlocksInAfrika, "apply", gossip)
    run = play_random_game("bia", 100004)
    assert run.failure is not None and run.failure.kind == "leak", run.failure
    assert "is told names" in run.failure.detail and "Word is that" in run.failure.detail


def test_the_leak_scan_catches_a_refusal_telling_where_a_hidden_block_is(monkeypatch):
    apply = BlocksInAfrika.apply

    def blab(self, state, role, order, dice):
        block = state.blocks.get(getattr(order, "block", ""))
        if block is not None and block.side != role:
            name = self.board.block(block.id).name
            raise IllegalOrder("BIA 7.5", f"{name} is not yours; it stands at {block.at}.")
        return apply(self, state, role, order, dice)

    monkeypatch.setattr(BlocksInAfrika, "apply", blab)
    run = play_random_game("bia", 100005)
    assert run.failure is not None and run.failure.kind == "leak", run.failure
    assert "the refusal of" in run.failure.detail


def test_the_leak_scan_catches_an_order_naming_an_enemy_block_accepted(monkeypatch):
    apply = BlocksInAfrika.apply

    def lax(self, state, role, order, dice):
        block = state.blocks.get(getattr(order, "block", ""))
        if block is not None and block.side != role:
            return state.clone(), []
        return apply(self, state, role, order, dice)

    monkeypatch.setattr(BlocksInAfrika, "apply", lax)
    run = play_random_game("bia", 100006)
    assert run.failure is not None and run.failure.kind == "leak", run.failure
    assert "was accepted" in run.failure.detail
