"""ARCHITECTURE: Storage and the service. Seats, orders, undo, rollback, views, deadlines."""

from __future__ import annotations

import asyncio
import random
import sqlite3

import pytest

from bot.service import Service, ServiceError, StaleOrder
from engine.core.dice import commitment
from tests.service.conftest import (
    RULESETS,
    fresh_replay,
    make_script,
    new_game,
    play,
    roles_of,
    start_script_game,
    state_dump,
)


async def _user_to_move(service: Service, game: str) -> tuple[str, str]:
    status = await service.status(game)
    return status.prompt.role, status.prompt.user


async def _play_until(service, game, rng, wanted, limit=400):
    """Play random orders until ``wanted(result)``; that result, or None."""
    for _ in range(limit):
        results = await play(service, game, 1, rng)
        if not results:
            return None
        if wanted(results[0]):
            return results[0]
    return None


# -- creating and seating ----------------------------------------------------------------


@pytest.mark.parametrize("ruleset_id", RULESETS)
async def test_create_publishes_the_commitment_of_the_secret(service, ruleset_id):
    created = await service.create(ruleset_id, created_by="mod", secret=b"k" * 32)
    assert created.commitment == commitment(b"k" * 32)
    status = await service.status(created.game)
    assert status.commitment == created.commitment
    assert status.secret is None
    assert [s.role for s in created.seats] == roles_of(ruleset_id)
    assert created.status == "open"


async def test_create_refuses_an_unknown_game_scenario_and_role(service):
    with pytest.raises(ServiceError, match="No game called 'chess'"):
        await service.create("chess", created_by="mod")
    with pytest.raises(ServiceError, match="no scenario 'huge'; choose one of: standard"):
        await service.create("toy", created_by="mod", scenario="huge")
    with pytest.raises(ServiceError, match="east is not a role"):
        await service.create("toy", created_by="mod", seats={"east": "u"})
    assert await service.list_games() == []


async def test_join_takes_the_first_free_seat_and_start_needs_every_seat(service):
    created = await service.create("toy", created_by="mod")
    game = created.game
    assert (await service.join(game, "ann")).role == "north"
    with pytest.raises(ServiceError, match="cannot start while south has no player"):
        await service.start(game, "mod")
    with pytest.raises(ServiceError, match="north in game .* is taken by ann. Free seats: south"):
        await service.join(game, "bob", "north")
    with pytest.raises(ServiceError, match="'east' is not a role"):
        await service.join(game, "bob", "east")
    assert (await service.join(game, "bob")).role == "south"
    with pytest.raises(ServiceError, match="Every seat"):
        await service.join(game, "cat")
    prompt = await service.start(game, "mod")
    assert (prompt.role, prompt.user, prompt.seq) == ("north", "ann", 0)
    with pytest.raises(ServiceError, match="already under way"):
        await service.start(game, "mod")


async def test_moderator_seat_change_is_audited_and_takes_effect(service):
    game = await new_game(service, "toy")
    await service.assign_seat(game, "mod", "north", "zed", why="ann left")
    with pytest.raises(ServiceError, match="You hold no seat"):
        await service.submit(game, "user-north", "take 1")
    assert (await service.submit(game, "zed", "take 1")).role == "north"
    audit = await service.audit(game)
    assert [(a["act"], a["detail"]["to"], a["why"]) for a in audit] == [("seat", "zed", "ann left")]


async def test_front_end_acts_join_the_audit_trail(service):
    game = await new_game(service, "toy")
    audit_id = await service.record(game, "mod", "policy", {"phase_seconds": 86400}, "slow game")
    assert [(a["id"], a["act"], a["detail"], a["why"]) for a in await service.audit(game)] == [
        (audit_id, "policy", {"phase_seconds": 86400}, "slow game")
    ]
    with pytest.raises(ServiceError, match="There is no game"):
        await service.record("nope", "mod", "policy", {})


async def test_orders_wait_for_the_start(service):
    created = await service.create("toy", created_by="mod", seats={"north": "a", "south": "b"})
    with pytest.raises(ServiceError, match="has not started yet"):
        await service.submit(created.game, "a", "take 1")


# -- orders -------------------------------------------------------------------------------


@pytest.mark.parametrize("ruleset_id", RULESETS)
async def test_order_from_the_role_to_move_is_applied_and_logged(service, ruleset_id):
    game = await new_game(service, ruleset_id)
    ruleset, state, _ = await service.live_state(game)
    role, user = await _user_to_move(service, game)
    order = ruleset.legal_orders(state, role)[0]
    result = await service.submit(game, user, order.text(), seen=0)
    assert (result.seq, result.role, result.user, result.order) == (1, role, user, order.text())
    log = await service.game_log(game)
    assert [(line.seq, line.role, line.order) for line in log] == [(1, role, order.text())]
    assert log[0].events == result.events


@pytest.mark.parametrize("ruleset_id", RULESETS)
async def test_order_from_a_player_whose_decision_it_is_not_is_refused(service, ruleset_id):
    game = await new_game(service, ruleset_id)
    role, _ = await _user_to_move(service, game)
    other = next(r for r in roles_of(ruleset_id) if r != role)
    with pytest.raises(ServiceError, match=f"It is {role}'s decision now") as err:
        await service.submit(game, f"user-{other}", "anything")
    assert err.value.prompt.role == role
    with pytest.raises(ServiceError, match="You hold no seat"):
        await service.submit(game, "stranger", "anything")
    with pytest.raises(ServiceError, match=f"You do not hold {other}"):
        await service.submit(game, f"user-{role}", "anything", role=other)
    assert (await service.status(game)).seq == 0


@pytest.mark.parametrize("ruleset_id", RULESETS)
async def test_malformed_order_passes_the_rules_message_through(service, ruleset_id):
    game = await new_game(service, ruleset_id)
    ruleset, _, _ = await service.live_state(game)
    role, user = await _user_to_move(service, game)
    try:
        ruleset.parse_order("frobnicate 99")
    except Exception as exc:  # the engine's own sentence
        expected = str(exc)
    with pytest.raises(ServiceError) as err:
        await service.submit(game, user, "frobnicate 99")
    assert str(err.value) == expected
    assert (await service.status(game)).seq == 0


async def test_illegal_order_is_refused_with_the_rule_and_changes_nothing(service):
    game = await new_game(service, "toy", options={"pile": 2})
    with pytest.raises(ServiceError) as err:
        await service.submit(game, "user-north", "take 3")
    assert str(err.value) == "The pile holds only 2. (Toy 2) Take 2 or fewer."
    assert (await service.status(game)).seq == 0
    assert await service.game_log(game, include_undone=True) == []


@pytest.mark.parametrize("ruleset_id", RULESETS)
async def test_stale_order_is_refused_with_the_current_prompt(service, ruleset_id):
    game = await new_game(service, ruleset_id)
    await play(service, game, 3, random.Random(1))
    before = await state_dump(service, game)
    role, user = await _user_to_move(service, game)
    with pytest.raises(
        StaleOrder, match="written at action 1, but game .* has moved on to action 3"
    ) as err:
        await service.submit(game, user, "anything", seen=1)
    assert err.value.prompt.seq == 3 and err.value.prompt.role == role
    assert await state_dump(service, game) == before


async def test_game_over_reveals_the_secret_and_takes_no_more_orders(service):
    game = await new_game(service, "toy", options={"pile": 3}, secret=b"x" * 32)
    await service.submit(game, "user-north", "take 2")
    result = await service.submit(game, "user-south", "take 1")
    assert result.result.winner == "south"
    assert result.secret == (b"x" * 32).hex()
    status = await service.status(game)
    assert (status.status, status.secret, status.prompt.role) == ("finished", result.secret, None)
    with pytest.raises(ServiceError, match="is over"):
        await service.submit(game, "user-north", "take 1")


async def test_moderator_end_reveals_the_secret(service):
    game = await new_game(service, "toy", secret=b"y" * 32)
    with pytest.raises(ServiceError, match="Say why"):
        await service.end(game, "mod", " ")
    status = await service.end(game, "mod", "players vanished")
    assert (status.status, status.secret) == ("finished", (b"y" * 32).hex())
    assert [a["act"] for a in await service.audit(game)] == ["end"]


async def test_paused_game_takes_no_orders_until_resumed(service):
    game = await new_game(service, "toy")
    await service.set_status(game, "mod", "paused", "holiday")
    with pytest.raises(ServiceError, match="paused"):
        await service.submit(game, "user-north", "take 1")
    await service.set_status(game, "mod", "active")
    assert (await service.submit(game, "user-north", "take 1")).seq == 1
    assert [a["act"] for a in await service.audit(game)] == ["pause", "resume"]


async def test_missing_game_is_one_sentence_for_every_command(service):
    calls = [
        service.status("nope"),
        service.submit("nope", "u", "take 1"),
        service.undo("nope", "u"),
        service.rollback("nope", "mod", to=0, why="x"),
        service.view("nope", "u"),
        service.game_log("nope"),
        service.join("nope", "u"),
        service.export("nope"),
        service.verify("nope"),
        service.set_deadline("nope", "mod", 2e9),
    ]
    for call in calls:
        with pytest.raises(ServiceError, match="^There is no game 'nope'.$"):
            await call


# -- views and hidden information ---------------------------------------------------------


async def test_each_role_sees_its_own_card_and_the_public_sees_none(service):
    game = await new_game(service, "toy")
    north = (await service.view(game, "user-north", "north")).view
    public = (await service.view(game, None)).view
    assert set(north["cards"]) == {"north"}
    assert "cards" not in public
    with pytest.raises(ServiceError, match="You do not hold south"):
        await service.view(game, "user-north", "south")
    assert set((await service.view(game, "mod", "south", moderator=True)).view["cards"]) == {
        "south"
    }


# -- undo ---------------------------------------------------------------------------------


async def test_player_takes_back_own_last_order_without_dice(service):
    game = await new_game(service, "toy", options={"pile": 20})
    await service.submit(game, "user-north", "take 2")
    before = await state_dump(service, game)
    await service.submit(game, "user-south", "take 1")
    undone = await service.undo(game, "user-south")
    assert (undone.seq, undone.order, undone.prompt.seq, undone.prompt.role) == (
        2,
        "take 1",
        1,
        "south",
    )
    assert await state_dump(service, game) == before
    log = await service.game_log(game, include_undone=True)
    assert [(line.seq, line.undone) for line in log] == [(1, False), (2, True)]
    redo = await service.submit(game, "user-south", "take 2")
    assert redo.seq == 2
    assert [a["act"] for a in await service.audit(game)] == ["undo"]


async def test_undo_of_an_order_that_rolled_dice_is_refused(service):
    game = await new_game(service, "toy", options={"pile": 20})
    result = await service.submit(game, "user-north", "gamble")
    assert result.rolls
    with pytest.raises(
        ServiceError, match="because it rolled dice; only a moderator's rollback can"
    ):
        await service.undo(game, "user-north")
    assert (await service.status(game)).seq == 1


async def test_undo_of_an_order_that_showed_hidden_information_is_refused(service):
    game = await new_game(service, "toy", options={"pile": 20})
    await service.submit(game, "user-north", "peek")
    with pytest.raises(ServiceError, match="because it showed hidden information"):
        await service.undo(game, "user-north")


async def test_undo_after_another_role_acted_is_refused(service):
    game = await new_game(service, "toy", options={"pile": 20})
    await service.submit(game, "user-north", "take 1")
    await service.submit(game, "user-south", "take 1")
    with pytest.raises(ServiceError, match="only your own last order.*action 2, south: take 1"):
        await service.undo(game, "user-north")
    with pytest.raises(ServiceError, match="has no order to take back"):
        await service.undo(await new_game(service, "toy"), "user-north")


@pytest.mark.parametrize("ruleset_id", RULESETS)
async def test_undo_follows_the_dice_and_reveal_rules_in_random_play(service, ruleset_id):
    script = make_script(ruleset_id, 150, seed=7)
    game = await start_script_game(service, script)
    rng = random.Random(7)
    checked = {"dice": 0, "reveals": 0, "free": 0}
    for seq, (role, order) in enumerate(script.steps):
        before = await state_dump(service, game)
        result = await service.submit(game, f"user-{role}", order, role=role, seen=seq)
        if result.rolls:
            with pytest.raises(ServiceError, match="rolled dice"):
                await service.undo(game, result.user)
            checked["dice"] += 1
        elif rng.random() < 0.3:
            try:
                await service.undo(game, result.user)
            except ServiceError as exc:
                assert "hidden information" in str(exc)
                checked["reveals"] += 1
                continue
            assert await state_dump(service, game) == before
            assert (await service.status(game)).seq == seq
            checked["free"] += 1
            await service.submit(game, f"user-{role}", order, role=role, seen=seq)  # back on script
        assert (await service.status(game)).seq == seq + 1
    assert checked["dice"] > 0 and checked["free"] > 0


# -- rollback -----------------------------------------------------------------------------


async def test_moderator_rollback_marks_the_undone_actions_and_audits_why(service):
    game = await new_game(service, "toy", options={"pile": 200})
    await play(service, game, 12, random.Random(3))
    result = await service.rollback(game, "mod", to=5, why="misclick in action 6")
    assert (result.from_seq, result.to_seq, result.undone) == (12, 5, list(range(6, 13)))
    log = await service.game_log(game, include_undone=True)
    assert [line.undone for line in log] == [False] * 5 + [True] * 7
    audit = await service.audit(game)
    assert [(a["act"], a["user"], a["why"], a["detail"]["to"]) for a in audit] == [
        ("rollback", "mod", "misclick in action 6", 5)
    ]
    con = sqlite3.connect(service.store.path)
    undone_by = {r[0] for r in con.execute("SELECT undone_by FROM actions WHERE seq > 5")}
    con.close()
    assert undone_by == {audit[0]["id"]}
    notes = [n for n in await service.notifications(game) if n.kind == "rollback"]
    assert len(notes) == 1 and "mod rolled game" in notes[0].text and "misclick" in notes[0].text


async def test_rollback_to_the_start_of_a_turn(service):
    game = await new_game(service, "toy", options={"pile": 200})
    await play(service, game, 30, random.Random(4))
    log = await service.game_log(game)
    first_of_turn_3 = min(line.seq for line in log if line.turn == 3)
    result = await service.rollback(game, "mod", turn=3, why="replay turn 3")
    assert result.to_seq == first_of_turn_3 - 1  # the order that ended turn 2
    status = await service.status(game)
    assert (status.progress.turn, status.progress.player) == (3, "north")
    replayed = await fresh_replay(service, game)
    assert await state_dump(service, game) == replayed.ruleset.dump_state(replayed.state)
    with pytest.raises(ServiceError, match="has been in turns 1 to 3, not turn 9"):
        await service.rollback(game, "mod", turn=9, why="x")


async def test_rollback_targets_out_of_range_are_refused_and_change_nothing(service):
    game = await new_game(service, "toy", options={"pile": 200})
    await play(service, game, 6, random.Random(5))
    before = await state_dump(service, game)
    for to in (-1, 7, 100):
        with pytest.raises(ServiceError, match=f"from 0 to 5, not {to}"):
            await service.rollback(game, "mod", to=to, why="x")
    with pytest.raises(ServiceError, match="at action 6 already"):
        await service.rollback(game, "mod", to=6, why="x")
    with pytest.raises(ServiceError, match="Say why"):
        await service.rollback(game, "mod", to=1, why="")
    with pytest.raises(ServiceError, match="either to an action number or to the start of a turn"):
        await service.rollback(game, "mod", why="x")
    assert await state_dump(service, game) == before
    assert await service.audit(game) == []


async def test_finished_game_cannot_be_rolled_back(service):
    game = await new_game(service, "toy", options={"pile": 1})
    await service.submit(game, "user-north", "take 1")
    with pytest.raises(ServiceError, match="dice secret is public"):
        await service.rollback(game, "mod", to=0, why="again")


async def test_order_after_rollback_rolls_the_dice_of_its_action_number(service):
    game = await new_game(service, "toy", options={"pile": 50})
    await service.submit(game, "user-north", "take 1")
    first = await service.submit(game, "user-south", "gamble")
    await service.rollback(game, "mod", to=1, why="test")
    again = await service.submit(game, "user-south", "gamble")
    assert again.seq == first.seq == 2
    assert again.rolls == first.rolls
    assert again.events == first.events


# -- per-game locks -------------------------------------------------------------------------


async def test_commands_for_different_games_interleave(service):
    games = [await new_game(service, "toy", options={"pile": 500}) for _ in range(4)]

    async def run(game: str, seed: int) -> int:
        return len(await play(service, game, 25, random.Random(seed)))

    counts = await asyncio.gather(*(run(g, i) for i, g in enumerate(games)))
    assert counts == [25] * 4
    for g in games:
        replayed = await fresh_replay(service, g)
        assert len(replayed.actions) == 25
        assert await state_dump(service, g) == replayed.ruleset.dump_state(replayed.state)


# -- deadlines and reminders ----------------------------------------------------------------


async def test_deadline_with_reminders_falls_due_by_the_injected_clock(service, clock):
    game = await new_game(service, "toy", options={"pile": 50})
    due_at = clock.now + 86400
    deadline = await service.set_deadline(game, "mod", due_at, remind_before=[3600, 600])
    assert (deadline.role, deadline.user, deadline.phase) == ("north", "user-north", "take")
    assert [d.id for d in await service.deadlines(game)] == [deadline.id]
    start_notes = {n.id for n in (await service.due()).notifications}  # "your decision" at start

    clock.advance(86400 - 3600)
    due = await service.due()
    reminders = [n for n in due.notifications if n.id not in start_notes]
    assert [n.kind for n in reminders] == ["reminder"]
    assert "due in 1 hour" in reminders[0].text and reminders[0].user == "user-north"
    assert due.deadlines == []
    await service.mark_handled(notifications=[n.id for n in due.notifications])
    assert (await service.due()).notifications == []
    assert await service.next_due_at() == due_at - 600

    clock.advance(3600)
    due = await service.due()
    assert [n.text for n in due.notifications] == [
        f"north decision in game {game} is due in 10 minutes: "
        "north: take 1-3 stones from 50, or gamble."
    ]
    assert [d.id for d in due.deadlines] == [deadline.id]
    await service.mark_handled(deadlines=[deadline.id])
    assert (await service.due()).deadlines == []


async def test_deadline_is_met_when_the_phase_moves_on(service, clock):
    game = await new_game(service, "toy", options={"pile": 50})
    await service.set_deadline(game, "mod", clock.now + 3600, remind_before=[600])
    await service.submit(game, "user-north", "take 1")
    assert await service.deadlines(game) == []
    clock.advance(7200)
    due = await service.due()
    assert due.deadlines == []
    assert [n.kind for n in due.notifications if n.kind == "reminder"] == []


async def test_deadline_can_be_cleared_and_must_lie_ahead(service, clock):
    game = await new_game(service, "toy")
    with pytest.raises(ServiceError, match="must lie in the future"):
        await service.set_deadline(game, "mod", clock.now - 1)
    await service.set_deadline(game, "mod", clock.now + 100)
    await service.set_deadline(game, "mod", clock.now + 200)  # replaces the first
    assert [d.due_at for d in await service.deadlines(game)] == [clock.now + 200]
    assert await service.clear_deadline(game, "mod") == 1
    assert await service.deadlines(game) == []
