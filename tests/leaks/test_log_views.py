"""The cases of issue 9 one by one: what the acting side, the other side and the public read
of an order that touches a hidden piece (PFV 6, L70: only a unit next to an enemy stack
lets its owner look beneath the top piece; PFV RULINGS R3, R38)."""

from __future__ import annotations

import asyncio

import pytest

from bot.cli import main
from bot.service import Service, ServiceError, verify_export
from engine.core.events import order_line
from engine.games.pfv.state import Battle
from tests.pfv.fixtures import fixture_board, scene
from tests.service.conftest import new_game

BYSTANDER_ALLIED = {"para": "7810"}  # far from the action: keeps the Allies in play


def raw_play(rules, state, role, text):
    from engine.core.dice import ScriptedDice

    return rules.apply(state, role, rules.parse_order(text), ScriptedDice([]))


def test_rommel_moving_under_a_unit_is_named_to_the_axis_alone():
    rules, s = scene(fixture_board(), {"rommel": "8214", "x": "8114", **BYSTANDER_ALLIED})
    s, events = raw_play(rules, s, "axis", "move rommel 8114")
    move = next(e for e in events if e.kind == "move")
    assert move.text_for("axis") == "Rommel moves 8214 → 8114."
    assert move.text_for("allied") == "An Axis support asset moves 8214 → 8114."
    assert move.text_for(None) == "An Axis support asset moves 8214 → 8114."
    assert order_line("move rommel 8114", events, "axis") == "move rommel 8114"
    assert order_line("move rommel 8114", events, None) == "move (hidden) 8114"
    assert order_line("move rommel 8114", events, "allied") == "move (hidden) 8114"
    # the public map shows only Unit X in 8114, as the public log implies
    stack = next(st for st in rules.view(s, None).stacks if st.hex == "8114")
    assert [c.id for c in stack.counters] == ["x"] and stack.count == 2


def test_an_allied_unit_next_to_the_stack_may_look_beneath_it():
    board = fixture_board()
    beside = next(h for h in board.grid.neighbours("8114") if h != "8214")
    rules, s = scene(board, {"rommel": "8214", "x": "8114", "para": beside})
    s, events = raw_play(rules, s, "axis", "move rommel 8114")
    move = next(e for e in events if e.kind == "move")
    assert move.text_for("allied") == "Rommel moves 8214 → 8114."  # L70: Para is adjacent
    assert move.text_for(None) == "An Axis support asset moves 8214 → 8114."


def test_a_unit_on_top_is_named_to_everyone():
    rules, s = scene(fixture_board(), {"x": "8214", **BYSTANDER_ALLIED})
    s, events = raw_play(rules, s, "axis", "move x 8114")
    move = next(e for e in events if e.kind == "move")
    assert move.seen_by is None and move.text_for(None) == "Unit X moves 8214 → 8114."
    assert order_line("move x 8114", events, None) == "move x 8114"


def test_the_public_retreat_prompt_counts_the_supports_beneath_the_top_piece():
    rules, s = scene(
        fixture_board(),
        {"1arm": "8213", "88s": "8113", "rommel": "8113", **BYSTANDER_ALLIED},
        phase="combat",
        player="allied",
    )
    s.battle = Battle(
        attacker="1arm", attack_hex="8213", target="8113", stage="retreat", attack_hit=True,
        retreating=["88s", "rommel"],
    )  # fmt: skip
    p = rules.prompt(s)
    assert p.role == "axis"
    assert "88s, rommel" in p.text_for("axis")
    assert (
        p.text_for(None) == "Axis pieces retreat two hexes from 8113: 88s, an Axis support asset."
    )
    assert p.text_for("allied") == p.text_for(None)


def test_a_support_set_up_is_named_to_its_own_side_only():
    rules, s = scene(fixture_board(), {**BYSTANDER_ALLIED}, phase="setup", player="allied")
    from engine.games.pfv.context import Ctx
    from engine.games.pfv.setup import log_setup

    ctx = Ctx(rules.board, rules.options(s), s.clone(), None)
    ctx.put("td", "8014")
    log_setup(ctx, "td", "8014")
    (event,) = ctx.events
    assert event.text_for("allied") == "Tank destroyers sets up in 8014."
    assert (
        event.text_for("axis") == event.text_for(None) == "An Allied support asset sets up in 8014."
    )


async def test_public_log_undo_notice_export_and_verify_keep_a_hidden_set_up(service):
    """The Axis sets Rommel up under a unit and takes it back: the public log, the undo
    notice and the export before the end say only that a hidden piece was placed; the
    public export says it cannot be replayed."""
    game = await new_game(service, "pfv", game_id="hide1")
    await service.submit(game, "user-allied", "auto", role="allied")
    await service.submit(game, "user-allied", "done", role="allied")
    ruleset, state, _ = await service.live_state(game)
    legal = ruleset.legal_orders(state, "axis")
    rommel_hexes = {o.hex for o in legal if o.verb == "place" and o.piece == "rommel"}
    unit = next(
        o for o in legal
        if o.verb == "place" and ruleset.board.is_unit(o.piece) and o.hex in rommel_hexes
    )  # fmt: skip
    await service.submit(game, "user-axis", unit.text(), role="axis")
    ruleset, state, _ = await service.live_state(game)
    under = next(
        o for o in ruleset.legal_orders(state, "axis")
        if o.verb == "place" and o.piece == "rommel" and o.hex == unit.hex
    )  # fmt: skip
    result = await service.submit(game, "user-axis", under.text(), role="axis")
    hidden_order = f"place (hidden) {under.hex}"
    assert result.order == f"place rommel {under.hex}"
    assert result.order_for(None) == hidden_order and result.order_for("allied") == hidden_order
    assert result.events_for(None) == [f"An Axis support asset sets up in {under.hex}."]
    assert result.events == [f"Rommel sets up in {under.hex}."]
    public = (await service.game_log(game))[-1]
    mine = (await service.game_log(game, audience="axis"))[-1]
    assert (public.order, public.events) == (hidden_order, result.events_for(None))
    assert (mine.order, mine.events) == (result.order, result.events)
    everything = (await service.game_log(game, audience="*"))[-1]
    assert everything.order == result.order
    allied_lines = await service.game_log(game, audience="allied")
    assert any("Tank" in e or "Artillery" in e for line in allied_lines for e in line.events)
    assert not any("Rommel" in e for line in await service.game_log(game) for e in line.events)

    undone = await service.undo(game, "user-axis", role="axis")
    assert undone.order == result.order and undone.public_order == hidden_order

    data = await service.export(game)
    assert data["public"] is True and data["secret"] is None
    text = str(data["actions"]) + str(data["audit"])
    assert "rommel" not in text.lower()
    with pytest.raises(ServiceError, match="cannot be replayed"):
        verify_export(data)


def test_log_as_a_role_from_the_console(capsys, db_path, tmp_path, monkeypatch):
    """``umpire log GAME`` is the public's log; ``--as ROLE`` that role's."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))

    async def prepare() -> str:
        service = await Service.open(db_path)
        try:
            game = await new_game(service, "pfv", game_id="hide3")
            await service.submit(game, "user-allied", "auto", role="allied")
            return game
        finally:
            await service.close()

    game = asyncio.run(prepare())
    assert main(["log", game, "--db", db_path]) == 0
    public = capsys.readouterr().out
    assert main(["log", game, "--as", "allied", "--db", db_path]) == 0
    allied = capsys.readouterr().out
    assert "An Allied support asset sets up in" in public
    assert "Tank Destroyers sets up in" not in public
    assert "Tank Destroyers sets up in" in allied
    assert main(["log", game, "--as", "nobody", "--db", db_path]) != 0
    err = capsys.readouterr().err
    assert "Traceback" not in err and err.strip().count("\n") == 0


def test_umpire_verify_says_a_public_export_cannot_be_replayed(
    capsys, db_path, tmp_path, monkeypatch
):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))

    async def prepare() -> str:
        service = await Service.open(db_path)
        try:
            game = await new_game(service, "pfv", game_id="hide4")
            await service.submit(game, "user-allied", "auto", role="allied")
            return game
        finally:
            await service.close()

    game = asyncio.run(prepare())
    out = tmp_path / "public.json"
    assert main(["export", game, "--out", str(out), "--db", db_path]) == 0
    capsys.readouterr()
    assert main(["verify", str(out)]) != 0
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and "cannot be replayed" in err and "Traceback" not in err
